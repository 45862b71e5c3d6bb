"""The beam search: short answers beyond 4x4 within a budget, each with a proven lower bound. The
quality of its answers is checked under budgets of nodes (``max_nodes``), which give the same answer
on any machine at any load; budgets of CPU seconds only where the clock is what is tested."""

from __future__ import annotations

import random

import numpy as np
import pytest
from records import record as valid_record
from test_astar import bfs_distances, clear_table_caches

from npuzzle import Board, solve
from npuzzle.cli import main
from npuzzle.errors import InvalidOptionError, InvalidTypeError
from npuzzle.geometry import geometry, tiles_from_directions
from npuzzle.instances import benchmark_set, scramble
from npuzzle.search import AUTO_BEAM_CELLS
from npuzzle.search.beam import DONE, LINE_FAILED, Allowance, _no_patterns, _round, _Run, beam_solve, plan
from npuzzle.search.limits import Clock, Limit
from npuzzle.search.quality import proven_bound
from npuzzle.search.realtime import realtime_array

SMALL_SHAPES = [(2, 3), (3, 2), (2, 4), (4, 2), (3, 3)]
UNBOUNDED = Allowance(Clock(Limit()), None, None)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.slow
@pytest.mark.parametrize("shape", SMALL_SHAPES)
@pytest.mark.parametrize("goal", ["standard", "blank-first"])
def test_answers_are_solutions_no_shorter_than_bfs_and_bounds_are_proven(shape, goal):
    """On every position sampled from small boards: the answer solves it, is no shorter than the
    BFS optimum, its lower bound is at most the optimum, and "optimal" means length == optimum."""
    dist = bfs_distances(*shape, goal)
    rng = random.Random(f"{shape}{goal}")
    states = rng.sample(sorted(dist), 40)
    optimal_found = 0
    for tiles in states:
        board = Board(*shape, tiles)
        s = beam_solve(board, goal=goal, limit=Limit(max_nodes=20_000))
        assert s.solved and s.method == "beam"
        assert board.apply(s.moves).is_goal(goal)
        assert s.length is not None and s.length >= dist[tiles]
        assert s.lower_bound == proven_bound(board, goal) <= dist[tiles]
        assert s.optimal == (s.length == s.lower_bound)
        if s.optimal:
            assert s.length == dist[tiles]
        optimal_found += s.length == dist[tiles]
    assert optimal_found >= 30  # beams of a few thousand boards cover these spaces almost entirely


@pytest.mark.parametrize("shape", [(3, 5), (5, 5), (6, 6), (4, 7), (7, 4), (2, 9), (9, 2)])
def test_larger_boards_get_a_checked_answer_no_longer_than_real_time(shape):
    for seed in (1, 2):
        board = scramble(*shape, 1, seed=seed)[0]
        s = beam_solve(board, limit=Limit(max_nodes=200_000))
        greedy = len(realtime_array(board, method="greedy"))
        assert s.solved and board.apply(s.moves).is_goal()
        assert s.length is not None and s.lower_bound <= s.length <= greedy
        assert s.lower_bound == proven_bound(board) >= board.manhattan()
        assert s.ratio == round(s.length / s.lower_bound, 4)


def test_blank_first_goal_on_a_large_board():
    board = scramble(6, 6, 1, seed=3, goal="blank-first")[0]
    s = beam_solve(board, goal="blank-first", limit=Limit(max_nodes=200_000))
    assert board.apply(s.moves).is_goal("blank-first")
    assert s.length is not None and s.length <= len(realtime_array(board, goal="blank-first", method="greedy"))


def test_korf_felner_24_puzzles_get_within_a_fifth_of_the_optimum():
    """Published optima bound the answers from below; with a small budget (a million nodes, an
    eighth of the default) the answers stay close (the default budget's figures are in
    docs/benchmarks.md)."""
    for inst in benchmark_set("korf50", ids=[1, 2, 3]):
        s = solve(inst.board, goal=inst.goal, limit=Limit(max_nodes=1_000_000))
        assert s.method == "beam" and s.length is not None
        assert inst.optimal_length <= s.length <= 1.2 * inst.optimal_length
        assert s.lower_bound <= inst.optimal_length


def test_a_wider_round_is_still_a_solution_and_replaces_only_a_longer_answer():
    board = scramble(8, 8, 1, seed=4)[0]
    run = _Run(realtime_array(board, method="greedy"))
    lengths = [len(run.directions)]
    for width in (16, 64, 256):
        assert _round(board, width, run, UNBOUNDED) == DONE
        lengths.append(len(run.directions))
        moves = board.apply(_tiles(board, run.directions))
        assert moves.is_goal()
    assert lengths == sorted(lengths, reverse=True) and lengths[-1] < lengths[0]
    assert run.widths == [16, 64, 256]


def test_a_line_beam_that_dies_out_leaves_the_answer_and_a_wider_round_succeeds():
    # a narrow beam on a 22x22 board runs out of boards it has not seen on its first line
    board = scramble(22, 22, 1, seed=3)[0]
    run = _Run(realtime_array(board, method="greedy"))
    before = run.directions.copy()
    assert _round(board, 32, run, UNBOUNDED) == LINE_FAILED
    assert np.array_equal(run.directions, before) and run.widths == []
    assert _round(board, 128, run, UNBOUNDED) == DONE
    assert len(run.directions) < 0.85 * len(before) and run.widths == [128]
    assert board.apply(_tiles(board, run.directions)).is_goal()


def _tiles(board: Board, directions: np.ndarray) -> tuple[int, ...]:
    from npuzzle.geometry import tiles_from_directions

    return tiles_from_directions(board, directions.tolist())


@pytest.mark.parametrize("shape", [(6, 6), (7, 5), (5, 8), (10, 3), (3, 10)])
def test_the_plan_reduces_every_shape_line_by_line_to_a_small_region(shape):
    h, w = shape
    lines, (top, left) = plan(h, w)
    covered = sorted(c for line in lines for c in line)
    region = [r * w + c for r in range(top, h) for c in range(left, w)]
    assert sorted(covered + region) == list(range(h * w))  # every cell once: a line or the last region
    assert h - top <= 5 and w - left <= 5


def test_the_kernel_reaches_a_lines_goal_without_leaving_its_region():
    """A line beam ends with its tiles home, and never moves a tile outside the region."""
    from npuzzle._kernels.beam import FOUND, Aim, Size, beam_search
    from npuzzle._kernels.bounds import Grid

    board = scramble(6, 6, 1, seed=5)[0]
    g = geometry(6, 6, "standard")
    n = 36
    active = np.ones(n, np.uint8)
    target = np.zeros(n, np.uint8)
    target[1:7] = 1  # the first row's tiles
    weights = np.where(target == 1, 3, 1).astype(np.int64)
    # boards that differ only in the other tiles count as one, as the search keys them
    keys = np.random.default_rng(1).integers(1, 1 << 62, size=(n, n)).astype(np.uint64)
    keys[(target == 0) & (np.arange(n) != 0)] = 0
    keys = keys.reshape(-1)
    path = np.zeros(2000, np.int8)
    stats = np.zeros(3, np.int64)
    grid = Grid(g.home, g.md, g.nbr, 6, 6)
    status, length = beam_search(np.array(board.tiles, np.int64), grid, Aim(active, weights, target, keys, 2, False),
                                 Size(256, 1999, 14, 1 << 40), path, stats, _no_patterns(6, 6))
    assert status == FOUND and length > 0 and stats[0] > 0
    after = board.apply(_tiles(board, path[:length].astype(np.uint8)))
    assert after.tiles[:6] == (1, 2, 3, 4, 5, 6)
    # the next beam keeps the first row: the blank never enters it
    active[:6] = 0
    target[:] = 0
    target[[7, 13, 19, 25, 31]] = 1  # the first column's other tiles
    keys = np.random.default_rng(2).integers(1, 1 << 62, size=(n, n)).astype(np.uint64)
    keys[(target == 0) & (np.arange(n) != 0)] = 0
    keys = keys.reshape(-1)
    status, length = beam_search(np.array(after.tiles, np.int64), grid, Aim(active, weights, target, keys, 2, False),
                                 Size(256, 1999, 14, 1 << 40), path, stats, _no_patterns(6, 6))
    assert status == FOUND
    final = after.apply(_tiles(after, path[:length].astype(np.uint8)))
    assert final.tiles[:6] == (1, 2, 3, 4, 5, 6)
    assert [final.tiles[c] for c in (6, 12, 18, 24, 30)] == [7, 13, 19, 25, 31]


def test_auto_uses_the_beam_beyond_4x4_and_real_time_beyond_its_size():
    assert solve(scramble(5, 5, 1, seed=1)[0], budget=0.2).method == "beam"
    assert solve(scramble(3, 6, 1, seed=1)[0], budget=0.2).method == "beam"
    big = scramble(25, 25, 1, seed=1)[0]
    assert big.size > AUTO_BEAM_CELLS and solve(big).method == "realtime-greedy"
    assert solve(big, budget=0.2).method == "beam"  # up to 32x32 when a budget is given
    with pytest.raises(InvalidOptionError, match="budget= applies to the beam search, which takes boards of at "
                                                 "most 1,024 cells; a 33x33 board is solved in real time"):
        solve(scramble(33, 33, 1, seed=1)[0], budget=0.2)  # a budget it would not use
    assert solve(scramble(4, 4, 1, seed=1)[0]).optimal  # 4x4 stays optimal
    assert solve(scramble(4, 4, 1, seed=1)[0], budget=0.2).method == "beam"  # a budget asks for the beam


def test_budget_is_refused_out_of_range_and_with_a_method_that_has_none():
    board = scramble(5, 5, 1, seed=1)[0]
    for bad in (0, -1, 3601, float("nan"), True):
        with pytest.raises((InvalidOptionError, InvalidTypeError), match="budget="):  # an option, not a board
            solve(board, budget=bad)
    with pytest.raises(InvalidOptionError, match="budget= does not apply to method='idastar'"):
        solve(board, method="idastar", budget=1)
    with pytest.raises(InvalidOptionError, match="at most 1024 cells"):
        beam_solve(scramble(33, 32, 1, seed=1)[0])


def test_the_command_line_states_the_bound_and_the_ratio(capsys):
    position = "/".join(" ".join(map(str, row)) for row in np.array(scramble(6, 6, 1, seed=2)[0].tiles).reshape(6, 6))
    status, out, err = run(capsys, "solve", position, "--budget", "0.3")
    assert status == 0, err
    line = next(ln for ln in out.splitlines() if ln.startswith("Solution:"))
    assert "not proven optimal: lower bound " in line and " times the optimum" in line
    assert "\n  beam, lc: " in out
    status, out, err = run(capsys, "solve", position, "--budget", "0.3", "--json")
    record = valid_record(out)
    assert record["method"] == "beam" and record["lower_bound"] > 0
    assert record["ratio"] == round(record["length"] / record["lower_bound"], 4) > 1


@pytest.mark.parametrize("value,message", [("0", "must be positive"), ("abc", "is not a number"),
                                           ("7200", "at most 3600 seconds"), ("inf", "finite")])
def test_bad_budgets_are_usage_errors(capsys, value, message):
    with pytest.raises(SystemExit) as e:
        main(["solve", "1 2 3/4 5 6/7 0 8", "--budget", value])
    assert e.value.code == 2 and message in capsys.readouterr().err


def test_budget_with_idastar_is_one_line_not_a_traceback(capsys):
    status, out, err = run(capsys, "solve", "1 2 3/4 5 6/7 0 8", "--method", "idastar", "--budget", "1")
    assert status == 1 and "--budget does not apply to --method idastar: it applies to 'beam'" in err
    assert "Traceback" not in err


def test_a_table_built_for_the_other_goal_gives_the_bound_on_the_turned_board(tmp_path, monkeypatch):
    """With a 3x3 pattern database built for the standard goal only, a blank-first answer's
    bound reads it on the board turned 180 degrees, as IDA* does (it used to raise)."""
    from npuzzle import lower_bound
    from npuzzle.heuristics import pattern_db
    from npuzzle.heuristics.registry import auto_heuristic

    monkeypatch.setenv("NPUZZLE_DATA_DIR", str(tmp_path))
    clear_table_caches()
    try:
        pattern_db.build("4-4", 3, 3, "standard", progress=False)
        assert auto_heuristic(3, 3, "blank-first")[0] == "pdb:4-4+wd"
        board = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 1, 0))
        turned = board.converted()
        expected = lower_bound(turned, "pdb:4-4+wd")
        assert lower_bound(board, "auto", goal="blank-first") == expected
        s = beam_solve(board, goal="blank-first", budget=0.2)
        assert s.lower_bound == max(expected, lower_bound(board, "lc", goal="blank-first"))
        assert board.apply(s.moves).is_goal("blank-first") and s.lower_bound <= s.length
    finally:
        clear_table_caches()


@pytest.mark.parametrize("shape, name, aware", [((2, 3), "3-2", False), ((2, 4), "4-3", True), ((3, 3), "4-4", True),
                                               ((3, 3), "4-4", False)])
def test_whole_board_beam_ranks_and_prunes_by_the_pattern_databases(tmp_path, monkeypatch, shape, name, aware):
    """With tables built, a whole board's beam ranks by their bound and prunes by it: a beam wide
    enough to keep every board of a layer, told to find a path of the optimal length, finds one
    (so the bound it updates move by move never exceeds the distance), and generates fewer
    children than with linear conflict (so it is the stronger bound)."""
    from npuzzle._kernels.beam import FOUND, Aim, Size, beam_search
    from npuzzle._kernels.bounds import ZA, Grid
    from npuzzle.heuristics import pattern_db
    from npuzzle.search.beam import _pattern_args

    monkeypatch.setenv("NPUZZLE_DATA_DIR", str(tmp_path))
    if aware:
        monkeypatch.setattr(pattern_db, "BLANK_AWARE", pattern_db.BLANK_AWARE | {(*shape, name)})
    clear_table_caches()
    h, w = shape
    n = h * w
    pattern_db.build(name, h, w, "standard", progress=False)
    g = geometry(h, w, "standard")
    zobrist = np.random.default_rng(n).integers(1, 1 << 63, size=n * n, dtype=np.int64).astype(np.uint64)
    dist = bfs_distances(h, w, "standard")
    fewer = 0
    for tiles in random.Random(str(shape)).sample(sorted(dist), 12):
        board = Board(h, w, tiles)
        d = dist[tiles]
        pat = _pattern_args(board)
        assert pat.comp.size > 0 and bool(pat.mode & ZA) == aware
        counts = []
        for args in (pat, _no_patterns(h, w)):
            path = np.zeros(d + 1, np.int8)
            stats = np.zeros(3, np.int64)
            aim = Aim(np.ones(n, np.uint8), np.ones(n, np.int64), np.ones(n, np.uint8), zobrist, 3, True)
            status, length = beam_search(np.array(tiles, np.int64), Grid(g.home, g.md, g.nbr, w, h), aim,
                                         Size(40_000, d, 17, 1 << 40), path, stats, args)
            assert status == FOUND and length == d
            assert board.apply(tiles_from_directions(board, path[:d].tolist())).is_goal()
            counts.append(int(stats[0]))
        fewer += counts[0] < counts[1]
    assert fewer >= 6
    solution = beam_solve(board, budget=0.05)
    assert solution.heuristic == f"pdb:{name}" and solution.length >= dist[board.tiles]
    clear_table_caches()


@pytest.mark.slow
def test_the_default_budget_is_work_so_the_answer_does_not_depend_on_the_clock(monkeypatch):
    """A clock running a thousand times fast (a slow or loaded machine) leaves the default
    answer as it is; with a budget of seconds the same clock leaves only the real-time answer,
    so the test sees a dependence on time if there is one."""
    import time

    boards = [scramble(5, 5, 1, seed=2)[0], scramble(3, 7, 1, seed=3)[0], scramble(7, 6, 1, seed=4)[0]]
    normal = [beam_solve(b) for b in boards]
    seconds = [beam_solve(b, budget=1.0) for b in boards]
    ticks = iter(range(10**9))
    monkeypatch.setattr(time, "process_time", lambda: float(next(ticks)))
    for board, first, timed in zip(boards, normal, seconds, strict=True):
        again = beam_solve(board)
        assert again.moves == first.moves and again.stats.generated == first.stats.generated
        assert again.note == first.note and first.note.startswith("beam widths")
        slow = beam_solve(board, budget=1.0)
        assert slow.note == "the real-time answer: no beam fitted in the budget"
        assert len(slow.moves) > len(timed.moves)


def test_max_nodes_is_the_beams_budget():
    board = scramble(5, 5, 1, seed=5)[0]
    default = beam_solve(board)
    for nodes in (2_000, 200_000):
        s = beam_solve(board, limit=Limit(max_nodes=nodes))
        assert s.solved and board.apply(s.moves).is_goal()
        # checked after each layer of a beam: at most one layer (4 children a board) over
        assert s.stats.generated <= nodes + 4 * 2048 < default.stats.generated
    assert beam_solve(board, limit=Limit(max_nodes=200_000)).moves == s.moves


@pytest.mark.slow
def test_two_default_runs_answer_alike_with_both_cores_busy(capsys):
    """The command line's default answer on boards the beam takes, alone and beside two
    processes that keep both cores busy (each stopped after at most a minute)."""
    import subprocess
    import sys

    positions = [" ".join(map(str, scramble(h, w, 1, seed=7)[0].tiles)) for h, w in ((5, 5), (7, 7), (6, 4))]
    shapes = ["5x5", "7x7", "6x4"]

    def answers() -> list[list[int]]:
        out = []
        for position, shape in zip(positions, shapes, strict=True):
            status, text, _ = run(capsys, "solve", position, "--shape", shape, "--json", "--quiet")
            assert status == 0
            record = valid_record(text)
            assert record["method"] == "beam"
            out.append(record["moves"])
        return out

    alone = answers()
    burn = "import time\nend = time.monotonic() + 60\nwhile time.monotonic() < end: pass\n"
    burners = [subprocess.Popen([sys.executable, "-c", burn]) for _ in range(2)]
    try:
        busy = answers()
    finally:
        for proc in burners:
            proc.kill()
            proc.wait()
    assert busy == alone


def test_max_nodes_on_the_command_line_bounds_the_beam(capsys):
    position = " ".join(map(str, scramble(5, 5, 1, seed=6)[0].tiles))
    status, text, _ = run(capsys, "solve", position, "--shape", "5x5", "--max-nodes", "3000", "--json")
    record = valid_record(text)
    assert status == 0 and record["status"] == "solved" and record["method"] == "beam"
    assert record["stats"]["generated"] <= 3000 + 4 * 32


@pytest.mark.parametrize("built_for, goal", [("blank-first", "standard"), ("blank-first", "blank-first"),
                                             ("standard", "blank-first")])
def test_a_whole_boards_beam_ranks_by_the_tables_of_either_goal(tmp_path, monkeypatch, built_for, goal):
    """Tables built for one goal convention rank a whole board's beam and bound its answer for
    either goal (the board turned 180 degrees where the conventions differ)."""
    from npuzzle import lower_bound
    from npuzzle.heuristics import pattern_db

    monkeypatch.setenv("NPUZZLE_DATA_DIR", str(tmp_path))
    clear_table_caches()
    try:
        pattern_db.build("4-4", 3, 3, built_for, progress=False)
        dist = bfs_distances(3, 3, goal)
        for tiles in random.Random(goal + built_for).sample(sorted(dist), 8):
            board = Board(3, 3, tiles)
            s = beam_solve(board, goal=goal, limit=Limit(max_nodes=20_000))
            assert s.heuristic == "pdb:4-4"
            assert s.lower_bound == max(lower_bound(board, "pdb:4-4", goal=goal), lower_bound(board, "lc", goal=goal))
            assert board.apply(s.moves).is_goal(goal) and dist[tiles] <= s.length
            assert s.lower_bound <= dist[tiles]
    finally:
        clear_table_caches()
