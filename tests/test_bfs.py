"""Exhaustive BFS, its tables, the happy-move count and sample statistics, against the published
distributions in known_counts.txt and a naive dictionary BFS written here."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest
from naive import bfs_distances

from npuzzle import Board, solve, stats, tables
from npuzzle.cli import main
from npuzzle.errors import (
    InvalidBoardError,
    InvalidOptionError,
    MissingTableError,
    TableFormatError,
    TableWarning,
    UnsolvableError,
)
from npuzzle.instances import random_board
from npuzzle.search import bfs
from npuzzle.search.idastar import idastar


@pytest.fixture(autouse=True)
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("NPUZZLE_DATA_DIR", str(tmp_path / "store"))
    return tmp_path / "store"




def naive_distances(height: int, width: int, goal: Board, depth: int = 10**9) -> dict[tuple[int, ...], int]:
    """Distance of every position reachable from ``goal`` within ``depth``, by plain BFS."""
    n = height * width
    nbrs = [[q for q in range(n) if abs(q // width - c // width) + abs(q % width - c % width) == 1]
            for c in range(n)]
    dist = {goal.tiles: 0}
    frontier = [goal.tiles]
    d = 0
    while frontier and d < depth:
        d += 1
        nxt = []
        for s in frontier:
            b = s.index(0)
            for q in nbrs[b]:
                t = list(s)
                t[b], t[q] = t[q], 0
                t = tuple(t)
                if t not in dist:
                    dist[t] = d
                    nxt.append(t)
        frontier = nxt
    return dist


def counts_of(dist: dict) -> list[int]:
    return stats.histogram(list(dist.values()))


# -- distributions ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "height, width, blank_cell, label",
    [
        (2, 3, None, "2x3_corner"),
        (3, 2, (0, 0), "2x3_corner"),
        (2, 4, None, "2x4_corner"),
        (4, 2, (3, 0), "2x4_corner"),
        (3, 3, None, "3x3_corner"),
        (3, 3, (0, 2), "3x3_corner"),
        (3, 3, (1, 1), "3x3_center"),
        (3, 3, (1, 0), "3x3_midside"),
        (3, 3, (2, 1), "3x3_midside"),
        (2, 5, None, "2x5_corner"),
    ],
)
def test_distribution_equals_known_counts(height, width, blank_cell, label, known):
    states, counts = known[label]
    assert sum(counts) == states
    assert bfs.distribution(height, width, blank_cell=blank_cell) == counts


def test_both_goal_conventions_give_the_same_distribution(known):
    assert bfs.distribution(2, 4, "blank-first") == known["2x4_corner"][1]


@pytest.mark.parametrize("height, width", [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)])
def test_distribution_equals_naive_bfs_for_every_blank_cell(height, width):
    for blank in range(height * width):
        naive = naive_distances(height, width, bfs.goal_board(height, width, blank))
        assert bfs.distribution(height, width, blank_cell=blank) == counts_of(naive)


def test_ranking_is_a_bijection_onto_the_solvable_positions():
    from npuzzle._kernels.bfs import rank, unrank

    for height, width, blank in [(2, 3, 5), (3, 2, 2), (2, 4, 1), (4, 2, 4)]:
        sp = bfs.space(height, width, blank)
        goal = bfs.goal_board(height, width, blank)
        cells = np.zeros(sp.size, np.int64)
        seq = np.zeros(sp.size, np.int64)
        seen = set()
        for idx in range(sp.states):
            unrank(idx, sp.size, sp.fact_half, sp.need, cells, seq)
            board = Board(height, width, tuple(int(c) for c in cells))
            assert _reachable(board, goal)
            assert rank(cells, sp.size, sp.fact_half, sp.popc) == idx
            seen.add(board.tiles)
        assert len(seen) == sp.states
        assert rank(np.array(goal.tiles), sp.size, sp.fact_half, sp.popc) == blank


def _reachable(board: Board, goal: Board) -> bool:
    """The parity invariant relative to an arbitrary goal board."""
    n, w = board.size, board.width
    where = {t: c for c, t in enumerate(goal.tiles)}
    target = [where[t] for t in board.tiles]
    parity, seen = 0, [False] * n
    for start in range(n):
        length, c = 0, start
        while not seen[c]:
            seen[c] = True
            c = target[c]
            length += 1
        parity ^= max(length - 1, 0) & 1
    b, g = board.blank, goal.blank
    return parity == (abs(b // w - g // w) + abs(b % w - g % w)) & 1


def test_rejects_large_or_bad_shapes():
    with pytest.raises(InvalidOptionError, match="at most 12"):
        bfs.distribution(4, 4)
    with pytest.raises(InvalidOptionError, match="outside"):
        bfs.distribution(3, 3, blank_cell=(3, 0))
    with pytest.raises(InvalidBoardError):
        bfs.distribution(1, 5)


# -- saved tables, table_distance, table_solve ---------------------------------------------------


@pytest.mark.parametrize("height, width, goal", [(2, 4, "standard"), (4, 2, "blank-first"), (2, 3, "standard")])
def test_table_distance_equals_naive_distance_everywhere(height, width, goal):
    assert bfs.table_distance(Board.goal(height, width, goal), goal) is None  # nothing saved yet
    bfs.distance_table(height, width, goal, save=True, progress=False)
    naive = naive_distances(height, width, Board.goal(height, width, goal))
    for tiles in random.Random(3).sample(sorted(naive), min(len(naive), 2000)):
        assert bfs.table_distance(Board(height, width, tiles), goal) == naive[tiles]


def test_table_solve_gives_optimal_verified_solutions():
    bfs.distance_table(3, 3, save=True, progress=False)
    naive = naive_distances(3, 3, Board.goal(3, 3))
    rng = random.Random(7)
    for tiles in rng.sample(sorted(naive), 300):
        board = Board(3, 3, tiles)
        sol = bfs.table_solve(board)
        assert sol is not None and sol.solved and sol.optimal
        assert sol.length == naive[tiles] == len(sol.moves)
        assert board.apply(sol.moves).is_goal()
        assert sol.method == "bfs-table"
    for tiles in rng.sample(sorted(naive), 5):
        assert idastar(Board(3, 3, tiles)).length == naive[tiles]
    # the other goal has no table yet
    assert bfs.table_solve(Board.goal(3, 3).converted(), "blank-first") is None
    with pytest.raises(UnsolvableError):
        bfs.table_solve(Board(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0)))
    assert bfs.table_solve(Board.goal(4, 4)) is None


def test_missing_table_names_the_command_that_builds_it(capsys):
    for goal, blank_cell, command in [
        ("standard", None, "npuzzle stats bfs 2x3 --save"),
        ("blank-first", None, "npuzzle stats bfs 2x3 --goal blank-first --save"),
        ("standard", (0, 1), "npuzzle stats bfs 2x3 --blank-cell 0,1 --save"),
    ]:
        with pytest.raises(MissingTableError, match=command):
            bfs.load_distance_table(2, 3, goal, blank_cell)
        assert main(command.split()[1:]) == 0
        capsys.readouterr()
        assert bfs.load_distance_table(2, 3, goal, blank_cell).meta["states"] == 360


def test_saved_table_is_loaded_not_recomputed(store, known):
    built = bfs.distance_table(2, 4, save=True, progress=False)
    assert built.flags.writeable
    loaded = bfs.distance_table(2, 4)
    assert not loaded.flags.writeable and np.array_equal(loaded, built)
    assert bfs.distribution(2, 4) == known["2x4_corner"][1]
    key = tables.TableKey("bfs", 2, 4, "standard")
    assert tables.load_table(key).meta["distribution"] == known["2x4_corner"][1]


def test_a_wrong_table_is_detected_not_believed(known):
    """A table that breaks its invariants, or does not lead to the goal, is reported (a
    ``TableWarning``) and bypassed: the solve goes on without it (issue 18, item 18)."""
    key = tables.TableKey("bfs", 2, 3, "standard")
    board = Board(2, 3, (1, 2, 3, 4, 0, 5))
    tables.save_table(key, np.full(90, 0xFF, dtype=np.uint8), {"distribution": [1]})
    with pytest.warns(TableWarning, match="counts 1 positions, not 360"):
        assert bfs.table_solve(board) is None
    with pytest.raises(TableFormatError, match="not 360"):
        bfs.load_distance_table(2, 3)
    # the right distribution, but every position at distance 0 mod 3: the goal is 0, yet no walk
    # leads downhill
    tables.save_table(key, np.zeros(90, dtype=np.uint8), {"distribution": known["2x3_corner"][1]})
    with pytest.warns(TableWarning, match="not the distances a breadth-first search finds"):
        assert bfs.table_distance(board) is None


def test_a_forged_table_with_a_valid_checksum_gives_no_false_optimum(store, capsys):
    """10% of a saved 2x4 table's bytes shuffled and written back with a fresh checksum and the
    right distribution: its answers used to be called optimal (29 moves where 23 is the
    optimum). The first load now searches again, finds the entries wrong and bypasses the table
    with one warning, so every answer is optimal and not read off the table."""
    assert main(["stats", "bfs", "2x4", "--save"]) == 0
    key = tables.TableKey("bfs", 2, 4, "standard")
    saved = tables.load_table(key)
    data = np.array(saved.data)
    rng = np.random.default_rng(1)
    picked = rng.choice(data.size, data.size // 10, replace=False)
    data[picked] = data[rng.permutation(picked)]
    tables.save_table(key, data, dict(saved.meta))
    bfs._loaded.clear()
    capsys.readouterr()
    dist = bfs_distances(2, 4, "standard")
    sample = random.Random(3).sample(sorted(dist), 200)
    with pytest.warns(TableWarning, match="not the distances a breadth-first search finds"):
        first = solve(Board(2, 4, (4, 1, 6, 5, 2, 3, 0, 7)))
    assert first.length == dist[(4, 1, 6, 5, 2, 3, 0, 7)] == 23 and first.method != "bfs-table"
    for tiles in sample:
        s = solve(Board(2, 4, tiles))
        assert s.optimal and s.length == dist[tiles] and s.method != "bfs-table"


def test_corrupt_table_file_is_reported(store):
    bfs.distance_table(2, 3, save=True, progress=False)
    path = store / tables.TableKey("bfs", 2, 3, "standard").filename
    path.write_bytes(path.read_bytes()[:-3])
    with pytest.warns(TableWarning, match="truncated"):
        assert bfs.table_distance(Board(2, 3, (1, 2, 3, 4, 0, 5))) is None
    with pytest.raises(TableFormatError, match="truncated"):
        bfs.load_distance_table(2, 3)


# -- happy moves -----------------------------------------------------------------------------------


@pytest.mark.parametrize("height, width, goal",
                         [(2, 3, "standard"), (3, 2, "blank-first"), (2, 4, "standard"), (3, 3, "standard")])
def test_happy_positions_are_those_whose_distance_is_manhattan(height, width, goal):
    naive = naive_distances(height, width, Board.goal(height, width, goal))
    happy = [d for tiles, d in naive.items() if Board(height, width, tiles).manhattan(goal) == d]
    assert bfs.happy_count(False, height=height, width=width, goal=goal) == stats.histogram(happy)


@pytest.mark.parametrize("height, width", [(3, 5), (4, 3)])
def test_happy_count_beyond_the_bfs_limit_agrees_near_the_goal(height, width):
    depth = 10
    naive = naive_distances(height, width, Board.goal(height, width), depth)
    happy = [d for tiles, d in naive.items() if Board(height, width, tiles).manhattan() == d]
    assert bfs.happy_count(False, height=height, width=width)[: depth + 1] == stats.histogram(happy)


# -- samples and the command line ------------------------------------------------------------------


def test_random_boards_are_solvable_and_cover_the_space():
    rng = np.random.default_rng(1)
    boards = [random_board(2, 3, rng) for _ in range(3000)]
    assert all(b.is_solvable() for b in boards)
    assert len({b.tiles for b in boards}) == 360
    assert all(random_board(3, 2, rng, "blank-first").is_solvable("blank-first") for _ in range(50))


def test_sample_lengths_are_optimal():
    naive = naive_distances(3, 3, Board.goal(3, 3))
    lengths = stats.sample_lengths(3, 3, 25, seed=11, progress=False)
    rng = np.random.default_rng(11)
    assert lengths == [naive[random_board(3, 3, rng).tiles] for _ in range(25)]
    assert sum(stats.histogram(lengths)) == 25


def test_cli_stats_bfs_prints_the_known_line(capsys, known):
    for argv, label in [(["2x3"], "2x3_corner"), (["3x3", "--blank-cell", "1,1"], "3x3_center"),
                        (["3x3", "--blank-cell", "0,1"], "3x3_midside")]:
        assert main(["stats", "bfs", *argv]) == 0
        first = capsys.readouterr().out.splitlines()[0]
        states, counts = known[label]
        assert first == f"dist {label} {states} : " + " ".join(map(str, counts))


def test_cli_stats_bfs_save_then_solve_from_table(capsys, store):
    assert main(["stats", "bfs", "2x4", "--save", "--table"]) == 0
    out = capsys.readouterr().out
    assert "max distance 36 (1 position), mean 22.677579" in out
    tiles = (0, 7, 6, 5, 4, 3, 2, 1)
    assert bfs.table_distance(Board(2, 4, tiles)) == naive_distances(2, 4, Board.goal(2, 4))[tiles]
    assert main(["tables", "list"]) == 0
    assert "bfs_2x4_standard_all_v1.npt" in capsys.readouterr().out


def test_cli_stats_happy_and_sample(capsys):
    assert main(["stats", "happy", "--shape", "2x3"]) == 0
    out = capsys.readouterr().out
    total = sum(bfs.happy_count(False, height=2, width=3))
    assert f"total {total:,} positions" in out
    assert main(["stats", "sample", "--shape", "2x3", "--count", "40", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines()[1:-1]]
    assert sum(int(r[1]) for r in rows) == 40
    assert "mean" in out.splitlines()[-1]


def test_cli_errors(capsys):
    assert main(["stats", "bfs", "4x4"]) == 1
    assert "at most 12" in capsys.readouterr().err
    assert main(["stats", "bfs", "3x3", "--blank-cell", "5,5"]) == 1
    assert "5,5" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["stats", "bfs", "3x3", "--blank-cell", "x"])
    assert e.value.code == 2


def test_cli_sample_plot(tmp_path, monkeypatch, capsys):
    image = tmp_path / "lengths.png"
    argv = ["stats", "sample", "--shape", "2x3", "--count", "5", "--seed", "1", "--plot", str(image)]
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        pass
    else:
        assert main(argv) == 0 and image.stat().st_size > 0
        capsys.readouterr()  # that run's output
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert "needs matplotlib" in captured.err and "optimal lengths" not in captured.out


def test_a_large_table_this_program_built_is_vouched_for_not_searched_again(store, monkeypatch):
    """Tables above ``VOUCH_STATES`` positions (3x4: two minutes to search again) are stamped
    by the process that built them, so their first load skips the search; a file changed after
    that is searched again."""
    monkeypatch.setattr(bfs, "VOUCH_STATES", 100)
    bfs.distance_table(2, 4, save=True, progress=False)
    bfs._loaded.clear()
    searched = []
    real = bfs.run_bfs
    monkeypatch.setattr(bfs, "run_bfs", lambda *a, **k: searched.append(1) or real(*a, **k))
    assert bfs.table_distance(Board(2, 4, (1, 2, 3, 4, 5, 6, 0, 7))) == 1
    assert searched == []
    key = tables.TableKey("bfs", 2, 4, "standard")
    saved = tables.load_table(key)
    monkeypatch.setattr(bfs, "VOUCH_STATES", 10**9)
    tables.save_table(key, np.array(saved.data), dict(saved.meta))  # the same bytes, written by another
    bfs._loaded.clear()
    assert bfs.table_distance(Board(2, 4, (1, 2, 3, 4, 5, 6, 0, 7))) == 1
    assert searched == [1]
