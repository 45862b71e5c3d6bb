"""The Manhattan distance: the sum over the tiles of their row and column distances from their
goal cells (the blank does not count). Every move changes it by one, so it also gives the
parity of every solution's length; the kernels read it from ``Geometry.md``.

>>> from npuzzle import Board
>>> value(Board(2, 3, (1, 2, 3, 4, 0, 5)))
1
"""

from __future__ import annotations

from ..board import Board, Goal


def value(board: Board, goal: Goal = "standard") -> int:
    """The Manhattan distance of ``board`` from ``goal``."""
    return board.manhattan(goal)
