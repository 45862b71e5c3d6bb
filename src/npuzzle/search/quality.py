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

#: Largest board whose linear conflict is computed for the bound (its cost grows with the
#: cube of the side); larger boards get the Manhattan distance.
MAX_LC_CELLS = 160_000


def proven_bound(board: Board, goal: Goal = "standard") -> int:
    """The best lower bound on ``board``'s solution length available without a table build:
    linear conflict (the Manhattan distance on boards above ``MAX_LC_CELLS``), or the strongest
    bound ``heuristic="auto"`` would use (walking distance, or a pattern database already built)
    where that is higher."""
    from ..heuristics.registry import auto_heuristic, evaluate

    if board.size > MAX_LC_CELLS:
        return board.manhattan(goal)
    best = evaluate(board, goal, "lc")
    name = auto_heuristic(board.height, board.width, goal)[0]
    if name != "lc":
        best = max(best, bound_value(board, goal, name))
    return best


def bound_value(board: Board, goal: Goal, name: str) -> int:
    """The value of heuristic ``name`` for ``board``; pattern databases built only for the other
    goal convention are read on the board turned 180 degrees (``Board.converted``), whose
    distance to that goal is the same."""
    from ..heuristics.registry import evaluate
    from .idastar import other_goal_tables

    other = other_goal_tables(board, goal, name)
    return evaluate(board.converted(), other, name) if other else evaluate(board, goal, name)
