"""Proven lower bounds for answers that are not proven optimal, so that every answer states how
far from optimal it may be.

>>> from npuzzle import Board
>>> b = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))    # its optimum is 31
>>> 25 <= proven_bound(b) <= 31    # walking + inversion distance 25, more with a 3x3 table built
True
>>> proven_bound(Board(5, 5, tuple(range(1, 25)) + (0,)))
0
"""

from __future__ import annotations

from ..board import Board, Goal


def proven_bound(board: Board, goal: Goal = "standard") -> int:
    """The best lower bound on ``board``'s solution length available without a table build:
    linear conflict (O(cells log side) at any size), or, where it is higher, the strongest bound
    ``heuristic="auto"`` would use for ``goal`` or for the other goal convention on the board
    turned 180 degrees (walking distance, or a pattern database already built for either)."""
    from ..heuristics.registry import auto_heuristic, evaluate

    best = evaluate(board, goal, "lc")
    names = {auto_heuristic(board.height, board.width, convention)[0] for convention in (goal, _other(goal))}
    for name in sorted(names - {"lc"}):
        best = max(best, bound_value(board, goal, name))
    return best


def _other(goal: Goal) -> Goal:
    return "blank-first" if goal == "standard" else "standard"


def bound_value(board: Board, goal: Goal, name: str) -> int:
    """The value of heuristic ``name`` for ``board``, read as a search reads it
    (``heuristics.registry.first_bound``: tables of the other convention on the board turned)."""
    from ..heuristics.registry import first_bound

    return first_bound(board, goal, name)[1]
