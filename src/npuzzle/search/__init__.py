"""Searches: ``solve`` picks one; each module holds one algorithm."""

from __future__ import annotations

from ..board import Board, Goal, check_goal
from ..errors import InvalidBoardError
from .limits import Limit, Solution, Stats

METHODS: tuple[str, ...] = ("auto", "idastar")
HEURISTICS: tuple[str, ...] = ("auto", "manhattan", "lc")


def solve(
    board: Board,
    *,
    method: str = "auto",
    heuristic: str = "auto",
    limit: Limit | None = None,
    goal: Goal = "standard",
    on_iteration=None,
) -> Solution:
    """Solve ``board`` for ``goal``; the returned moves are replayed and checked.

    ``method="auto"`` picks the best method for the board (a saved BFS distance table answers at
    once; see ``npuzzle stats bfs --save``); ``heuristic="auto"`` the strongest lower bound
    available. Raises ``UnsolvableError`` (with the parity reason) before searching
    if the goal cannot be reached.
    """
    check_goal(goal)
    board.require_solvable(goal)
    if method not in METHODS:
        raise InvalidBoardError(f"unknown method {method!r}: use one of {', '.join(METHODS)}")
    if heuristic not in HEURISTICS:
        raise InvalidBoardError(f"unknown heuristic {heuristic!r}: use one of {', '.join(HEURISTICS)}")
    if method == "auto":
        from .bfs import table_solve

        answer = table_solve(board, goal)
        if answer is not None:
            return answer
    from .idastar import idastar

    h = "lc" if heuristic == "auto" else heuristic
    return idastar(board, goal=goal, heuristic=h, limit=limit, on_iteration=on_iteration)


def warmup() -> None:
    """Compile (or load from the cache) every search kernel."""
    from . import idastar

    idastar.warmup()


__all__ = ["Limit", "Solution", "Stats", "solve", "warmup", "METHODS", "HEURISTICS"]
