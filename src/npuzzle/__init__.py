"""npuzzle: optimal and real-time solvers for sliding-tile puzzles of every m x n shape.

>>> from npuzzle import Board, solve
>>> solve(Board(3, 3, (1, 2, 3, 4, 5, 6, 0, 7, 8)), method="idastar", heuristic="lc").moves
(7, 8)

(With the defaults, ``solve`` also consults the table store, and may save the move automaton
there; the example names a method and heuristic that need no table.)

Importing npuzzle loads neither numpy nor numba; the solvers load them when first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .board import Board, Direction
from .errors import (
    IllegalMoveError,
    InvalidBoardError,
    MissingTableError,
    NPuzzleError,
    TableFormatError,
    UnsolvableError,
)

if TYPE_CHECKING:
    from .search.limits import Solution

__version__ = "0.1.0"


def solve(board: Board, **options: Any) -> Solution:
    """Solve ``board``; see ``npuzzle.search.solve`` for the options."""
    from .search import solve as _solve

    return _solve(board, **options)


__all__ = [
    "Board",
    "Direction",
    "solve",
    "NPuzzleError",
    "InvalidBoardError",
    "UnsolvableError",
    "IllegalMoveError",
    "MissingTableError",
    "TableFormatError",
]
