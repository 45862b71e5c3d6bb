"""The naive references checked against published data and against each other."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from conftest import known_counts
from naive import bfs_distances, goal_tuple, naive_idastar, naive_manhattan, naive_solvable

from npuzzle import Board


def published_distributions() -> dict[str, list[int]]:
    """``known_counts.txt``: label -> number of positions at each distance from a corner goal."""
    return {label: counts for label, (_, counts) in known_counts().items()}


@pytest.mark.parametrize(("height", "width", "label"),
                         [(2, 3, "2x3_corner"), (3, 2, "2x3_corner"), (2, 4, "2x4_corner"), (3, 3, "3x3_corner")])
@pytest.mark.parametrize("goal", ["standard", "blank-first"])
def test_bfs_matches_the_published_distance_distributions(height, width, label, goal):
    histogram = Counter(bfs_distances(height, width, goal).values())
    assert [histogram[d] for d in range(len(histogram))] == published_distributions()[label]


def test_naive_solvable_accepts_exactly_the_bfs_states_on_2x3():
    for goal in ("standard", "blank-first"):
        reached = bfs_distances(2, 3, goal)
        for tiles in itertools.permutations(range(6)):
            assert naive_solvable(tiles, 2, 3, goal) == (tiles in reached)


def test_naive_manhattan_by_hand():
    # 1 2 3 / 4 _ 5 / 6 7 8 against 1 2 3 / 4 5 6 / 7 8 _: 5, 7 and 8 are one cell off, 6 is
    # one row and two columns off: 1 + 1 + 1 + 3.
    assert naive_manhattan((1, 2, 3, 4, 0, 5, 6, 7, 8), 3) == 6
    # The same against _ 1 2 / 3 4 5 / 6 7 8: 1, 2 and 4 are one off, 3 is 1 + 2 off.
    assert naive_manhattan((1, 2, 3, 4, 0, 5, 6, 7, 8), 3, "blank-first") == 6
    assert naive_manhattan((0, 2, 1, 3), 2, "blank-first") == 4  # 1 and 2 swapped across a diagonal
    assert naive_manhattan(goal_tuple(3, 5), 5) == 0


@pytest.mark.parametrize(("height", "width"), [(2, 3), (3, 2)])
@pytest.mark.parametrize("goal", ["standard", "blank-first"])
def test_idastar_length_is_the_bfs_distance_on_every_state(height, width, goal):
    for tiles, distance in bfs_distances(height, width, goal).items():
        length, generated = naive_idastar(Board(height, width, tiles), goal)
        assert length == distance
        assert generated >= 1 + distance


@pytest.mark.parametrize("goal", ["standard", "blank-first"])
def test_idastar_length_is_the_bfs_distance_on_sampled_3x3_states(goal):
    distances = bfs_distances(3, 3, goal)
    sample = random.Random(8).sample(sorted(distances), 40)
    for tiles in sample:
        assert naive_idastar(Board(3, 3, tiles), goal)[0] == distances[tiles]


def test_idastar_counts_by_hand():
    # At the goal: just the root.
    assert naive_idastar(Board.goal(3, 3)) == (0, 1)
    # 1 2 3 / 4 5 6 / 7 _ 8: h = 1, threshold 1. The blank (bottom middle) tries up (5 comes
    # down: f = 1 + 2 = 3, cut), left (7: f = 1 + 2 = 3, cut), right (8: the goal). Root + 3.
    assert naive_idastar(Board(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8))) == (1, 4)
    # Blank right first: the goal is the first child. Root + 1.
    assert naive_idastar(Board(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8)), order=("R", "U", "L", "D")) == (1, 2)
    # 1 2 3 / 4 5 6 / _ 7 8: h = 2, threshold 2. Root children: up (4 down, f = 1 + 3 = 4, cut),
    # right (7: f = 1 + 1 = 2, expand). From 1 2 3 / 4 5 6 / 7 _ 8 (left is the undo, skipped):
    # up (5: f = 2 + 2 = 4, cut), right (8: the goal). Root + 2 + 2.
    assert naive_idastar(Board(3, 3, (1, 2, 3, 4, 5, 6, 0, 7, 8))) == (2, 5)


def test_idastar_counts_from_the_centre():
    # 1 2 3 / 4 _ 5 / 7 8 6: h = 2 (5 and 6 one off), distance 2 (push 5, then 6).
    board = Board(3, 3, (1, 2, 3, 4, 0, 5, 7, 8, 6))
    length, generated = naive_idastar(board)
    assert length == bfs_distances(3, 3, "standard")[board.tiles] == 2
    # Threshold 2, one iteration: up (2: f=1+3=4), left (4: f=4), right (5: f=1+1=2, expand:
    # up 3 (f=2+2=4), down 6 -> goal). Root + 3 + 2.
    assert generated == 6


def test_idastar_reproduces_korf_1985_instance_79(korf100):
    row = next(r for r in korf100 if r["id"] == "79")
    board = Board(4, 4, tuple(int(t) for t in row["tiles"].split()))
    length, generated = naive_idastar(board, "blank-first")
    assert length == int(row["optimal_length"]) == 42
    assert generated == int(row["korf1985_nodes"]) == 540860


@pytest.mark.parametrize("seed", range(5))
def test_idastar_searches_the_converted_board_alike(seed):
    # The 180-degree turn mirrors every blank step, so the mirrored order visits the same tree.
    tiles = random.Random(seed).choice(sorted(bfs_distances(3, 3, "blank-first")))
    board = Board(3, 3, tiles)
    assert naive_idastar(board.converted(), "standard", order=("D", "R", "L", "U")) == naive_idastar(
        board, "blank-first"
    )


def test_idastar_refuses_an_unsolvable_board():
    with pytest.raises(ValueError, match="cannot reach"):
        naive_idastar(Board(2, 2, (2, 1, 3, 0)))
