"""Walking distance, inversion distance and the heuristic registry: the article's figures,
admissibility on every state of small boards, and the kernel's incremental updates against the
plain-Python values (same pruning at every node)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_kernel_heuristic
from naive import bfs_distances, naive_manhattan

from npuzzle import Board
from npuzzle.errors import InvalidOptionError
from npuzzle.heuristics.inversion import inversion_distance, moves_for_inversions
from npuzzle.heuristics.registry import evaluate, parse
from npuzzle.heuristics.walking_distance import walking_distance, walking_tables
from npuzzle.instances import random_board
from npuzzle.search.idastar import idastar, optimal_lengths

SHAPES = [(2, 3), (3, 2), (2, 4), (4, 2)]
GOALS = ["standard", "blank-first"]


def test_walking_table_of_the_15_puzzle_has_the_articles_figures():
    rows, cols = walking_tables(4, 4, "standard")
    assert rows is cols
    assert len(rows) == 24_964
    assert int(rows.dist.max()) == 35
    # the largest walking distance, 70: every tile in the row and column opposite its own
    worst = Board(4, 4, (15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0))
    assert walking_distance(worst, "blank-first") == 70
    assert walking_distance(worst.converted(), "standard") == 70
    assert len(walking_tables(4, 4, "blank-first")[0]) == 24_964


@pytest.mark.parametrize("shape", [(4, 4), (2, 3), (3, 5)])
def test_steps_give_the_next_table_and_the_change_of_distance(shape):
    for table in walking_tables(*shape, "standard"):
        steps = table.steps()
        used = table.trans >= 0
        source = np.arange(len(table.trans))[used] // (2 * table.lines)
        target = table.trans[used]
        assert (steps[used] >> 1 == target).all()
        change = table.dist[target].astype(int) - table.dist[source].astype(int)
        assert (np.abs(change) == 1).all()
        assert ((steps[used] & 1) == (change > 0)).all()
        assert (steps[~used] == -1).all()


def test_articles_examples():
    assert walking_distance(Board(4, 4, (1, 2, 3, 0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 4))) == 11
    reversed_board = Board(4, 4, (0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1))
    assert reversed_board.manhattan() == 58 and inversion_distance(reversed_board) == 70
    devil = Board(4, 4, (1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 4, 8, 12, 0))
    assert walking_distance(devil) == 40 and inversion_distance(devil) == 24


def test_moves_for_inversions_is_the_least_count_of_steps():
    """Each step changes the count by at most ``span``, by an amount of the parity of ``span``:
    the fewest steps from 0 to every count, by breadth-first search over the integers."""
    for span in (1, 2, 3, 4):
        fewest = {0: 0}
        frontier = {0}
        for k in range(1, 41):
            frontier = {r + s for r in frontier for s in range(-span, span + 1, 2)} - fewest.keys()
            fewest.update(dict.fromkeys(frontier, k))
        reachable = [inv for inv in range(41) if inv in fewest]  # even spans keep the parity
        assert len(reachable) >= 20
        assert [moves_for_inversions(inv, span) for inv in reachable] == [fewest[inv] for inv in reachable]


@pytest.mark.parametrize("shape", [(3, 3), (4, 4), (2, 5), (4, 3)])
def test_walking_distance_is_never_below_manhattan(shape):
    rng = np.random.default_rng(5)
    for goal in GOALS:
        for _ in range(30):
            b = random_board(*shape, rng, goal=goal)
            assert walking_distance(b, goal) >= naive_manhattan(b.tiles, b.width, goal)


ADMISSIBLE = [(h, w, goal) for h, w in SHAPES for goal in GOALS] + [(3, 3, "standard")]


@pytest.mark.parametrize("height, width, goal", ADMISSIBLE)
def test_every_state_walking_and_inversion_distance_are_admissible(height, width, goal):
    distances = bfs_distances(height, width, goal)
    over = []
    for tiles, d in distances.items():
        b = Board(height, width, tiles)
        if max(walking_distance(b, goal), inversion_distance(b, goal)) > d:
            over.append(tiles)
    assert not over[:3]


@pytest.mark.parametrize("height, width", SHAPES)
@pytest.mark.parametrize("goal", GOALS)
def test_kernel_lengths_equal_bfs(height, width, goal):
    """Every state of 2x3 and 3x2, every ninth of 2x4 and 4x2."""
    distances = bfs_distances(height, width, goal)
    boards = [Board(height, width, t) for t in list(distances)[:: 1 if len(distances) < 1000 else 9]]
    for name in ("wd", "id", "wd+id"):
        lengths, _ = optimal_lengths(boards, goal=goal, heuristic=name)
        assert lengths == [distances[b.tiles] for b in boards]


@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (3, 4), (4, 3), (4, 4)])
@pytest.mark.parametrize("name", ["wd", "id", "wd+id"])
def test_kernel_prunes_exactly_as_the_python_heuristic(shape, name):
    """Every iteration generates as many nodes as a naive search with the Python value at the
    same threshold: the kernel's incremental value equals the plain one at every node."""
    check_kernel_heuristic(shape, "blank-first" if shape in ((3, 4), (4, 4)) else "standard", name, 24)


def test_korf_instances_solved_optimally_with_wd_and_id(korf100):
    from npuzzle.instances import benchmark_set

    for inst in benchmark_set("korf100", [2, 5, 12]):
        s = idastar(inst.board, goal=inst.goal, heuristic="wd+id")
        assert s.optimal and s.length == inst.optimal_length
        assert evaluate(inst.board, inst.goal, "wd+id") <= inst.optimal_length


def test_random_15_puzzles_bounded_by_their_optimum(private_store):
    """The optimum comes from an independent bound (IDA* with additive 5-5-5 pattern databases,
    which share no table or code of their values with walking or inversion distance): wd+id
    never exceeds it, and IDA* with wd+id finds a solution of exactly that length. The tables
    are built in a store of the test's own (in the session's, ``auto`` would pick them later)."""
    from npuzzle.heuristics import pattern_db

    pattern_db.build("5-5-5", 4, 4, "standard", progress=False)
    rng = np.random.default_rng(11)
    for _ in range(3):
        b = random_board(4, 4, rng)
        optimum = idastar(b, heuristic="pdb:5-5-5")
        assert optimum.optimal and b.apply(optimum.moves).is_goal()
        assert evaluate(b, "standard", "wd+id") <= optimum.length
        assert idastar(b, heuristic="wd+id").length == optimum.length
        assert evaluate(b, "standard", "wd") >= b.manhattan()


def test_registry_names():
    assert parse("wd+id").name == "wd+id" and parse("id+wd+manhattan").name == "wd+id"
    assert parse("wd+pdb:6-6-3").name == "pdb:6-6-3+wd"
    assert parse("pdb:a+pdb:b").pdb2 == "b"  # two partitions, max'ed (issue 37)
    for bad in ("lc+wd", "xyz", "pdb:", "pdb:a+pdb:b+pdb:c", "manhattan+"):
        with pytest.raises(InvalidOptionError, match="unknown heuristic"):
            parse(bad)


@pytest.mark.parametrize("lines, cells", [(2, 3), (3, 2), (3, 3), (3, 4), (4, 3), (2, 5), (5, 2), (4, 4), (3, 5)])
def test_the_walking_tables_are_counted_without_searching(lines, cells):
    from npuzzle.heuristics.walking_distance import build_walking_table, table_count

    for blank_line in {0, lines - 1}:
        assert table_count(lines, cells, blank_line, 10**7) == len(build_walking_table(lines, cells, blank_line))


def test_a_board_with_too_many_walking_tables_is_refused_before_any_search(monkeypatch):
    """5x5 used to search 10.8 s and take 1.26 GB before refusing; 10x10 (through the web page)
    26 s and 2.4 GB."""
    from npuzzle.heuristics import walking_distance

    def no_search(*args):
        raise AssertionError("the search started")

    monkeypatch.setattr(walking_distance, "deque", no_search)
    for lines, cells in ((5, 5), (10, 10), (6, 4)):
        with pytest.raises(InvalidOptionError, match="more than 1,000,000 tables"):
            walking_distance.build_walking_table(lines, cells, lines - 1)


def test_building_walking_tables_counts_against_the_searchs_limits(tmp_path, monkeypatch):
    """--heuristic wd on a 3x5 board searches 352,560 column tables in Python (seconds) before
    the search starts: that build used to run whatever --timeout or --max-memory said."""
    from npuzzle import solve
    from npuzzle.heuristics import walking_distance
    from npuzzle.instances import random_board

    monkeypatch.setenv("NPUZZLE_DATA_DIR", str(tmp_path))
    walking_distance.walking_tables.cache_clear()
    board = random_board(3, 5, 4)
    try:
        s = solve(board, method="idastar", heuristic="wd", max_memory=100 << 20)
        assert s.status == "memory-limit" and "MiB" in s.note and s.lower_bound == board.manhattan()
        s = solve(board, method="idastar", heuristic="wd", timeout=0.2)
        assert s.status == "timeout" and "walking-distance table" in s.note
        assert not list(tmp_path.glob("walking_*cols*"))  # the column tables, stopped, were not kept
    finally:
        walking_distance.walking_tables.cache_clear()
