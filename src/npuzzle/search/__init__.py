"""Searches: ``solve`` picks one; each module holds one algorithm.

``idastar`` (optimal, memory-light), ``astar`` (optimal, or weighted with a proven bound),
``bfs`` (whole state spaces; saved tables answer at once), ``realtime`` (any board size, not
optimal: Parberry's algorithm and a greedy refinement).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ..board import Board, Goal, check_goal
from ..errors import InvalidBoardError
from .limits import Iteration, Limit, Solution, Stats

#: ``on_iteration(iteration, final)``: called as IDA*'s threshold or A*'s proven bound rises.
OnIteration = Callable[[Iteration, bool], None]

METHODS: tuple[str, ...] = ("auto", "idastar", "astar", "realtime")
#: Heuristic names for help texts; ``heuristics.registry.parse`` accepts combinations too.
HEURISTICS: tuple[str, ...] = ("auto", "manhattan", "lc", "wd", "id", "wd+id", "pdb:PARTITION")
REALTIME_METHODS: tuple[str, ...] = ("greedy", "parberry")
#: IDA*'s duplicate pruning: ``parent`` never generates the move that undoes the last one (Korf
#: 1985, whose node counts it reproduces); ``fsm`` also skips every move string that
#: ``search.fsm``'s automaton knows a shorter or earlier equivalent of. ``auto``: fsm with the
#: strong bounds (walking and inversion distance, pattern databases) on boards of up to 36
#: cells, else parent (always with manhattan and lc).
PRUNING: tuple[str, ...] = ("auto", "parent", "fsm")


def check_pruning(pruning: str) -> str:
    """``pruning`` if it is one of ``PRUNING``, else ``InvalidBoardError`` naming them."""
    if pruning not in PRUNING:
        raise InvalidBoardError(f"unknown pruning {pruning!r}: use one of {', '.join(PRUNING)}")
    return pruning

#: Boards above this many cells are solved in real time by ``method="auto"``.
AUTO_OPTIMAL_CELLS = 16


def solve(
    board: Board,
    *,
    method: str = "auto",
    heuristic: str = "auto",
    limit: Limit | None = None,
    goal: Goal = "standard",
    weight: float = 1.0,
    realtime_method: str = "greedy",
    on_iteration: OnIteration | None = None,
    pruning: str = "auto",
) -> Solution:
    """Solve ``board`` for ``goal``; the returned moves are replayed and checked.

    ``method="auto"`` picks the best method for the board: a saved BFS distance table answers at
    once (see ``npuzzle stats bfs --save``); boards of up to 16 cells are solved optimally by
    IDA*, larger ones in real time (not optimal; ask for ``idastar`` or ``astar`` explicitly).
    ``heuristic="auto"`` is the strongest lower bound available without a long build, for IDA*
    and A* alike (see ``heuristics.registry.auto_heuristic``). ``weight`` > 1 makes A* weighted
    (length <= weight x optimal); ``realtime_method`` is ``greedy`` or ``parberry``; ``pruning``
    is IDA*'s duplicate pruning (``auto``, ``parent`` or ``fsm``, see ``idastar.PRUNING``). Raises
    ``UnsolvableError`` (with the parity reason) before searching if the goal cannot be reached.
    """
    check_goal(goal)
    if method not in METHODS:
        raise InvalidBoardError(f"unknown method {method!r}: use one of {', '.join(METHODS)}")
    if heuristic != "auto":
        from ..heuristics.registry import parse

        heuristic = parse(heuristic).name
    if realtime_method not in REALTIME_METHODS:
        raise InvalidBoardError(
            f"unknown real-time method {realtime_method!r}: use one of {', '.join(REALTIME_METHODS)}"
        )
    board.require_solvable(goal)
    if weight != 1 and method not in ("astar", "auto"):
        raise InvalidBoardError("--weight applies to A* only: add --method astar")
    if check_pruning(pruning) != "auto" and method not in ("idastar", "auto"):
        raise InvalidBoardError("--pruning applies to IDA* only: add --method idastar")
    if method == "auto":
        from .bfs import table_solve

        answer = table_solve(board, goal)
        if answer is not None:
            return answer
        if weight != 1:
            method = "astar"
        else:
            method = "idastar" if board.size <= AUTO_OPTIMAL_CELLS else "realtime"
    if method == "realtime":
        from .realtime import realtime_solve

        return realtime_solve(board, goal=goal, method=realtime_method, limit=limit)
    return _optimal(board, method, heuristic, goal, weight, limit, on_iteration, pruning)


def _optimal(board: Board, method: str, heuristic: str, goal: Goal, weight: float, limit: Limit | None,
             on_iteration: OnIteration | None, pruning: str) -> Solution:
    """IDA* or A* with ``heuristic``; ``auto``'s hint (a build that would help) becomes the note."""
    hint = ""
    if heuristic == "auto":
        from ..heuristics.registry import auto_heuristic

        heuristic, hint = auto_heuristic(board.height, board.width, goal)
    if method == "astar":
        from .astar import astar

        solution = astar(board, goal=goal, heuristic=heuristic, weight=weight, limit=limit,
                         on_iteration=on_iteration)
    else:
        from .idastar import idastar

        solution = idastar(board, goal=goal, heuristic=heuristic, limit=limit, on_iteration=on_iteration,
                           pruning=pruning)
    return dataclasses.replace(solution, note=hint) if hint and not solution.note else solution


def warmup() -> None:
    """Compile (or load from the cache) every search kernel."""
    from . import astar, idastar, realtime

    idastar.warmup(("manhattan", "lc", "wd+id"))
    astar.astar(Board(2, 2, (0, 3, 2, 1)), heuristic="wd+id")  # one kernel serves every heuristic
    for m in REALTIME_METHODS:
        realtime.realtime_solve(Board(3, 3, (8, 7, 6, 5, 4, 3, 2, 1, 0)), method=m)


__all__ = ["Limit", "Solution", "Stats", "solve", "warmup", "METHODS", "HEURISTICS", "PRUNING", "REALTIME_METHODS"]
