"""The geometry's tables against plain definitions, and the whole-board bounds that must stay
O(cells) at any size (no cells x cells table behind a real-time answer's lower bound)."""

from __future__ import annotations

import numpy as np
import pytest
from naive import goal_cells, naive_linear_conflict, naive_manhattan

from npuzzle import Board, lower_bound
from npuzzle._kernels.bounds import fewest_leave, must_leave
from npuzzle.board import goal_cell
from npuzzle.geometry import MAX_MD_TABLE_CELLS, STEPS, geometry, homes, neighbours
from npuzzle.heuristics import linear_conflict
from npuzzle.instances import random_board

SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 3), (3, 5), (1, 4), (7, 1)]


@pytest.mark.parametrize("height, width", SHAPES)
def test_neighbours_are_the_cells_one_step_away(height, width):
    nbr = neighbours(height, width)
    for cell in range(height * width):
        r, c = divmod(cell, width)
        for d, (dr, dc) in enumerate(STEPS):
            inside = 0 <= r + dr < height and 0 <= c + dc < width
            assert nbr[cell * 4 + d] == ((r + dr) * width + c + dc if inside else -1)


@pytest.mark.parametrize("height, width", SHAPES)
@pytest.mark.parametrize("goal", ["standard", "blank-first"])
def test_homes_and_the_manhattan_table_follow_the_goal(height, width, goal):
    n = height * width
    assert homes(n, goal).tolist() == [goal_cell(t, n, goal) for t in range(n)]
    g = geometry(height, width, goal)
    home = goal_cells(height, width, goal)
    for cell in range(n):
        for t in range(n):
            expected = 0 if t == 0 else abs(cell // width - home[t] // width) + abs(cell % width - home[t] % width)
            assert g.md[cell * n + t] == expected


def test_a_large_geometry_makes_no_cells_by_cells_table():
    g = geometry(1000, 1000, "standard")
    assert g.home.size == 10**6 and g.nbr.size == 4 * 10**6
    assert "md" not in g.__dict__  # made on first use only
    with pytest.raises(ValueError, match="too large"):
        g.md  # noqa: B018
    assert geometry(64, 64).md.size == MAX_MD_TABLE_CELLS**2


def test_patience_sorting_agrees_with_the_quadratic_recurrence():
    rng = np.random.default_rng(7)
    lis = np.empty(40, np.int64)
    tails = np.empty(40, np.int64)
    for _ in range(2000):
        count = int(rng.integers(0, 40))
        seq = rng.permutation(60)[:count].astype(np.int64)
        seq = np.concatenate([seq, np.zeros(40 - count, np.int64)])
        assert fewest_leave(seq, count, tails) == must_leave(seq, count, lis)


@pytest.mark.parametrize("height, width", [(2, 3), (3, 2), (2, 4), (4, 3), (3, 5), (4, 4), (9, 7), (33, 31)])
@pytest.mark.parametrize("goal", ["standard", "blank-first"])
def test_linear_conflict_and_manhattan_of_whole_boards_are_the_definitions(height, width, goal):
    for seed in range(4):
        board = random_board(height, width, seed, goal)
        assert board.manhattan(goal) == naive_manhattan(board.tiles, width, goal)
        assert linear_conflict.value(board, goal) == naive_linear_conflict(board.tiles, width, goal)


def test_a_partly_solved_large_board_has_its_conflicts_counted():
    """Rows in goal order but for one swapped pair per row: every row has one tile to move out."""
    h, w = 40, 30
    tiles = list(range(1, h * w)) + [0]
    for r in range(h - 1):
        tiles[r * w], tiles[r * w + 1] = tiles[r * w + 1], tiles[r * w]
    board = Board(h, w, tuple(tiles))
    assert lower_bound(board, "lc") == board.manhattan() + 2 * (h - 1) == naive_linear_conflict(board.tiles, w)


def test_the_bound_of_a_million_tiles_needs_no_quadratic_table():
    board = random_board(1000, 1000, 1)
    value = lower_bound(board, "lc")
    assert value >= board.manhattan() and (value - board.manhattan()) % 2 == 0
    assert "md" not in geometry(1000, 1000, "standard").__dict__
