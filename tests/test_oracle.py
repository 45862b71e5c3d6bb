"""The distance oracle (``search.oracle``) under every door: the analysis, the data-set labels,
the verifier, the environment's reward and ``solve`` give the same distance for the same
positions, on 2x3, 3x2, 2x4, 3x3, 4x3 and 3x5 samples (for both goal conventions and for goal
boards whose blank is off the corners), checked against breadth-first search where the state
space is small, and on 4x4 against Korf's published optima."""

from __future__ import annotations

import random

import numpy as np
import pytest
from naive import bfs_distances

from npuzzle import Board, analyze, solve
from npuzzle.instances import benchmark_set
from npuzzle.search import labels
from npuzzle.search.limits import Limit
from npuzzle.search.oracle import EXACT_CELLS, Oracle, method_for
from npuzzle.verifier import verify_moves

SHAPES = [(2, 3), (3, 2), (2, 4), (3, 3), (4, 3), (3, 5)]


pytestmark = pytest.mark.usefixtures("module_store")


def walks(goal: Board, count: int, seed: int, length: int = 40) -> list[Board]:
    """Positions at the end of random walks from ``goal``."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        board = goal
        for _ in range(length):
            board = board.move(rng.choice(board.movable_tiles()))
        out.append(board)
    return out


def off_corner_goal(height: int, width: int, seed: int) -> Board:
    """A goal board of shuffled tiles whose blank is on the top edge, off the corners."""
    tiles = list(range(1, height * width))
    random.Random(seed).shuffle(tiles)
    tiles.insert(1, 0)
    return Board(height, width, tuple(tiles))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("goal", ["standard", "blank-first"])
def test_every_door_agrees_on_named_goals(shape, goal):
    h, w = shape
    boards = walks(Board.goal(h, w, goal), 3, seed=h * 10 + w)
    want = [solve(b, goal=goal, method="idastar").length for b in boards]
    if h * w <= 9:
        table = bfs_distances(h, w, goal)
        assert want == [table[b.tiles] for b in boards]
    tiles = np.array([b.tiles for b in boards])
    assert labels.distances(tiles, h, w, goal).tolist() == want
    assert labels.label(tiles, h, w, goal).distance.tolist() == want
    assert [verify_moves(b, solve(b, goal=goal).letters, goal).optimum for b in boards] == want
    assert [analyze(b, "", goal=goal).start_distance for b in boards] == want
    oracle = Oracle(h, w, goal)
    assert [oracle.distance(b).lower for b in boards] == want and all(oracle.distance(b).exact for b in boards)
    assert method_for(h, w, goal) == labels.method_for(h, w, goal) or labels.method_for(h, w, goal) == "bfs-table"


@pytest.mark.parametrize("shape", SHAPES)
def test_goal_boards_whose_blank_is_off_the_corners(shape):
    """Where the tables answer (at most 10 cells) every position is exact and agrees with ``solve``
    and breadth-first search; beyond, the oracle's interval holds ``solve``'s optimum wherever a
    frame lets ``solve`` prove one (the position's blank in a corner)."""
    h, w = shape
    goal = off_corner_goal(h, w, seed=h + w)
    boards = walks(goal, 4, seed=h * w)
    oracle = Oracle(h, w, goal)
    for b in boards:
        found = oracle.distance(b)
        sol = solve(b, goal=goal)
        analysis = analyze(b, "", goal=goal)
        if oracle.exact:
            assert sol.optimal and found.exact and found.lower == sol.length == analysis.start_distance
        else:  # solve's answer is optimal where a frame proves it, else the upper end of an interval
            assert sol.length is not None and found.upper is not None
            assert analysis.start_distance <= found.lower <= sol.length <= found.upper
            assert found.exact == sol.optimal
    if h * w <= 9:  # breadth-first search from the goal board itself
        from naive import blank_neighbours

        seen, level, d = {goal.tiles: 0}, [goal.tiles], 0
        while level:
            d += 1
            level = [s for t in level for s in blank_neighbours(t, h, w) if s not in seen]
            for s in level:
                seen.setdefault(s, d)
        assert [oracle.distance(b).lower for b in boards] == [seen[b.tiles] for b in boards]


def test_4x4_against_korf_published_optima():
    instances = sorted(benchmark_set("korf100"), key=lambda i: i.recomputed_nodes or 0)[:3]
    oracle = Oracle(4, 4, "blank-first")
    for inst in instances:
        board, want = inst.board, inst.optimal_length
        assert oracle.distance(board).lower == want and oracle.distance(board).exact
        assert labels.distances(np.array([board.tiles]), 4, 4, "blank-first").tolist() == [want]
        assert analyze(board, "", goal="blank-first").start_distance == want
        sol = solve(board, goal="blank-first")
        assert sol.length == want
        assert verify_moves(board, sol.letters, "blank-first").optimum == want
    first = instances[0].board
    assert labels.label(np.array([first.tiles]), 4, 4, "blank-first").distance.tolist() == [instances[0].optimal_length]


def test_one_size_limit_and_bounds_beyond_it():
    """Beyond ``EXACT_CELLS`` the oracle gives an interval, each end named, holding the truth."""
    assert EXACT_CELLS == 16
    board = Board.goal(5, 5)
    for t in (24, 19, 18, 23, 24):
        board = board.move(t) if t in board.movable_tiles() else board
    oracle = Oracle(5, 5, "standard", Limit(max_nodes=200_000))
    found = oracle.distance(board)
    assert not oracle.exact and found.lower_by and found.upper_by
    assert board.manhattan() <= found.lower <= 5 and found.upper is not None and found.lower <= found.upper
    with pytest.raises(Exception, match="at most 16 cells"):
        labels.distances(np.array([board.tiles]), 5, 5)
