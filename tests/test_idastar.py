"""IDA*: optimal lengths against exhaustive BFS, node counts against the naive reference and
Korf (1985), limits, slices, both goals and non-square boards."""

from __future__ import annotations

import itertools
import random

import pytest
from naive import bfs_distances, naive_idastar

from npuzzle import Board, UnsolvableError, config
from npuzzle.heuristics import linear_conflict, manhattan
from npuzzle.instances import benchmark_set
from npuzzle.search.idastar import idastar, optimal_lengths
from npuzzle.search.limits import NODE_LIMIT, TIMEOUT, Limit

SMALL_SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)]
GOALS = ["standard", "blank-first"]


def sample(distances: dict, k: int, seed: int) -> list[tuple[tuple[int, ...], int]]:
    items = sorted(distances.items())
    return random.Random(seed).sample(items, min(k, len(items)))


EVERY_STATE = [(shape, goal, heuristic) for shape in SMALL_SHAPES for goal in GOALS
               for heuristic in ("manhattan", "lc")]
EVERY_STATE += [((3, 3), "standard", "manhattan"), ((3, 3), "blank-first", "lc")]


@pytest.mark.slow
@pytest.mark.parametrize("shape, goal, heuristic", EVERY_STATE)
def test_lengths_equal_bfs_on_every_state(shape, goal, heuristic):
    h, w = shape
    distances = bfs_distances(h, w, goal)
    boards = [Board(h, w, tiles) for tiles in distances]
    lengths, _ = optimal_lengths(boards, goal=goal, heuristic=heuristic)
    wrong = [(b.tiles, n, distances[b.tiles]) for b, n in zip(boards, lengths, strict=True) if n != distances[b.tiles]]
    assert not wrong[:5]


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (3, 3), (2, 4), (4, 2)])
@pytest.mark.parametrize("goal", GOALS)
def test_single_solves_are_optimal_and_verified(shape, goal):
    h, w = shape
    distances = bfs_distances(h, w, goal)
    for tiles, d in sample(distances, 40, seed=h * 10 + w):
        for heuristic in ("manhattan", "lc"):
            s = idastar(Board(h, w, tiles), goal=goal, heuristic=heuristic)
            assert s.optimal and s.length == d == len(s.moves) == len(s.letters)
            assert Board(h, w, tiles).apply(s.moves).is_goal(goal)


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (3, 3), (2, 4), (4, 2)])
@pytest.mark.parametrize("goal", GOALS)
def test_node_counts_equal_naive_reference(shape, goal):
    h, w = shape
    distances = bfs_distances(h, w, goal)
    for tiles, d in sample(distances, 12, seed=7 * h + w):
        board = Board(h, w, tiles)
        length, generated = naive_idastar(board, goal)
        s = idastar(board, goal=goal, heuristic="manhattan")
        assert (s.length, s.stats.generated) == (length, generated) == (d, generated)


@pytest.mark.parametrize("shape, goals", [((3, 3), ["standard"]), ((2, 4), GOALS), ((3, 2), GOALS)])
def test_heuristics_are_admissible_on_every_state(shape, goals):
    h, w = shape
    for goal in goals:
        for tiles, d in bfs_distances(h, w, goal).items():
            board = Board(h, w, tiles)
            md = manhattan.value(board, goal)
            lc = linear_conflict.value(board, goal)
            assert md <= lc <= d
            assert (lc - d) % 2 == 0


def easy_korf(limit_nodes: int) -> list:
    return [i for i in benchmark_set("korf100") if i.recomputed_nodes < limit_nodes]


@pytest.mark.slow
def test_korf_node_counts_reproduced():
    instances = easy_korf(3_000_000)
    assert len(instances) >= 5
    for inst in instances:
        s = idastar(inst.board, goal="blank-first", heuristic="manhattan")
        assert s.length == inst.optimal_length
        assert s.stats.generated == inst.recomputed_nodes


def test_korf_lengths_with_linear_conflict():
    instances = easy_korf(20_000_000)
    lengths, nodes = optimal_lengths([i.board for i in instances], goal="blank-first", heuristic="lc")
    assert lengths == [i.optimal_length for i in instances]
    assert all(n < i.recomputed_nodes for n, i in zip(nodes, instances, strict=True))


def test_batch_counts_equal_single_solves():
    instances = easy_korf(2_000_000)
    boards = [i.board for i in instances]
    for heuristic in ("manhattan", "lc"):
        lengths, nodes = optimal_lengths(boards, goal="blank-first", heuristic=heuristic)
        for b, n, g in zip(boards, lengths, nodes, strict=True):
            s = idastar(b, goal="blank-first", heuristic=heuristic)
            assert (s.length, s.stats.generated) == (n, g)


def test_slices_do_not_change_the_search(monkeypatch):
    inst = benchmark_set("korf100", [12])[0]
    whole = idastar(inst.board, goal="blank-first", heuristic="lc")
    monkeypatch.setattr(config, "KERNEL_SLICE_NODES", 997)
    sliced = idastar(inst.board, goal="blank-first", heuristic="lc")
    assert sliced.moves == whole.moves
    assert sliced.stats.generated == whole.stats.generated
    assert [i.threshold for i in sliced.stats.iterations] == [i.threshold for i in whole.stats.iterations]


def test_node_limit_returns_proven_bound():
    inst = benchmark_set("korf100", [5])[0]
    s = idastar(inst.board, goal="blank-first", heuristic="manhattan", limit=Limit(max_nodes=100_000))
    assert s.status == NODE_LIMIT and not s.solved and s.moves == () and s.length is None
    assert inst.board.manhattan("blank-first") <= s.lower_bound <= inst.optimal_length
    assert s.stats.generated <= 100_000


def test_timeout_returns_proven_bound(monkeypatch):
    monkeypatch.setattr(config, "KERNEL_SLICE_NODES", 1000)
    board = Board(4, 4, tuple(int(c, 16) for c in "159d26ae37bf48c0"))
    s = idastar(board, heuristic="lc", limit=Limit(timeout=0.05))
    assert s.status == TIMEOUT
    assert 40 <= s.lower_bound <= 72


def test_thresholds_rise_by_two():
    inst = benchmark_set("korf100", [9])[0]
    s = idastar(inst.board, goal="blank-first", heuristic="lc")
    thresholds = [i.threshold for i in s.stats.iterations]
    assert thresholds[-1] == inst.optimal_length
    assert all(b - a == 2 for a, b in itertools.pairwise(thresholds))


@pytest.mark.parametrize("shape", [(3, 4), (4, 3), (3, 5), (2, 6)])
def test_non_square_boards_agree_across_heuristics(shape):
    h, w = shape
    rng = random.Random(h * 100 + w)
    for _ in range(3):
        board = Board.goal(h, w)
        for _ in range(60):
            board = board.move(rng.choice(board.movable_tiles()))
        a = idastar(board, heuristic="manhattan")
        b = idastar(board, heuristic="lc")
        c = idastar(board.converted(), goal="blank-first", heuristic="lc")
        assert a.length == b.length == c.length
        assert b.stats.generated <= a.stats.generated


def test_goal_and_unsolvable():
    assert idastar(Board.goal(3, 3)).length == 0
    with pytest.raises(UnsolvableError, match="odd permutation"):
        idastar(Board(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0)))
