"""Inversion distance (Takahashi): a lower bound from the order in which tiles are read.

Read the tiles row by row, skipping the blank, and count the pairs that stand in the opposite
order to the goal's (inversions). A horizontal move changes nothing; a vertical move on a board
of width W carries a tile past the W - 1 tiles between its two cells, changing the count by at
most W - 1, and by an amount of the parity of W - 1. So at least ceil(inv / (W - 1)) vertical
moves are needed, and when W - 1 is odd, a number of the parity of inv (for W = 4 this is
Takahashi's ``inv // 3 + inv % 3``). Reading column by column gives the bound on horizontal moves; the
inversion distance is their sum.

The search kernel keeps both counts and updates them by comparing the moved tile with the
W - 1 (or H - 1) tiles it passes.
"""

from __future__ import annotations

import numpy as np

from ..board import Board, Goal, goal_cell


def moves_for_inversions(inv: int, span: int) -> int:
    """Fewest moves that remove ``inv`` inversions when each changes the count by at most
    ``span``, by an amount of the parity of ``span``.

    >>> [moves_for_inversions(i, 3) for i in range(9)]
    [0, 1, 2, 1, 2, 3, 2, 3, 4]
    >>> [moves_for_inversions(i, 2) for i in range(0, 9, 2)]
    [0, 1, 2, 3, 4]
    """
    if span <= 0:
        return 0
    k = -(-inv // span)
    return k + ((k ^ inv) & span & 1)


def id_table(pairs: int, span: int) -> np.ndarray:
    """``moves_for_inversions(inv, span)`` for every inv up to ``pairs``, as a kernel table."""
    return np.array([moves_for_inversions(i, span) for i in range(pairs + 1)], dtype=np.int64)


def inversion_counts(board: Board, goal: Goal = "standard") -> tuple[int, int]:
    """Inversions read row by row and read column by column, against the goal's order."""
    h, w, n = board.height, board.width, board.size
    row_major = [goal_cell(t, n, goal) for t in board.tiles if t]
    col_order = [board.tiles[r * w + c] for c in range(w) for r in range(h)]
    col_major = [(goal_cell(t, n, goal) % w) * h + goal_cell(t, n, goal) // w for t in col_order if t]
    return _inversions(row_major), _inversions(col_major)


def _inversions(seq: list[int]) -> int:
    return sum(1 for i in range(len(seq)) for j in range(i + 1, len(seq)) if seq[i] > seq[j])


def inversion_distance(board: Board, goal: Goal = "standard") -> int:
    """Takahashi's inversion distance of ``board``.

    >>> inversion_distance(Board(4, 4, (0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)))
    70
    """
    vertical, horizontal = inversion_counts(board, goal)
    return moves_for_inversions(vertical, board.width - 1) + moves_for_inversions(horizontal, board.height - 1)


#: The family's value under the name every heuristic module uses.
value = inversion_distance
