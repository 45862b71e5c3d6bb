"""Searches: ``solve`` picks one; each module holds one algorithm, registered by name in
``registry``.

``idastar`` (optimal, memory-light), ``astar`` (optimal, or weighted with a proven bound),
``bfs`` (whole state spaces; saved tables answer at once), ``beam`` (short answers within a
time budget, with a proven lower bound), ``realtime`` (any board size, not optimal:
Parberry's algorithm and a greedy refinement).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ..board import Board, Goal, check_goal
from ..errors import InvalidBoardError, TableBuildStopped
from ..heuristics import HEURISTICS
from .limits import Limit, Progress, ProgressCallback, Solution, Stats, unfinished
from .registry import (
    METHODS,
    PRUNING,
    REALTIME_METHODS,
    SPLIT,
    IterationCallback,
    Request,
    check_pruning,
    check_realtime_method,
)
from .registry import (
    method as registered,
)

if TYPE_CHECKING:
    from .split import Executor

#: ``method="auto"`` solves boards of up to this many cells optimally (IDA*), ...
AUTO_OPTIMAL_CELLS = 16
#: ... boards of up to this many by the beam search within its time budget (and, when a budget is
#: given, up to the beam's own limit, 32x32: larger boards need more than the default second),
#: larger ones in real time.
AUTO_BEAM_CELLS = 576


def solve(
    board: Board,
    *,
    method: str = "auto",
    heuristic: str = "auto",
    limit: Limit | None = None,
    goal: Goal | Board = "standard",
    weight: float = 1.0,
    realtime_method: str = "greedy",
    on_iteration: IterationCallback | None = None,
    pruning: str = "auto",
    on_progress: ProgressCallback | None = None,
    executor: Executor | None = None,
    budget: float | None = None,
) -> Solution:
    """Solve ``board`` for ``goal``; the returned moves are replayed and checked.

    ``method="auto"`` picks the best method for the board: a saved BFS distance table answers at
    once (see ``npuzzle stats bfs --save``); boards of up to 16 cells are solved optimally by
    IDA*, up to 576 (24x24; 1,024 with a ``budget``) by the beam search (its shortest answer in
    ``limit.max_nodes`` nodes, default ``DEFAULT_NODES``, or ``budget`` CPU s), larger in real
    time (ask for ``idastar`` or ``astar`` to get optimal ones).
    ``heuristic="auto"`` is the strongest lower bound available without a long build (see
    ``heuristics.registry.auto_heuristic``). ``weight`` > 1 makes A* weighted
    (length <= weight x optimal); ``realtime_method`` is ``greedy`` or ``parberry``; ``pruning``
    is IDA*'s duplicate pruning (``auto``, ``parent`` or ``fsm``, see ``registry.PRUNING``).
    ``on_progress(progress)`` is called a few times a second while a search runs (bound, nodes,
    wall and CPU seconds: ``limits.Progress``). ``executor`` (a ``split.Executor``) runs IDA*'s
    subtrees on its workers. Raises ``UnsolvableError`` (with the parity reason) before searching
    if the goal cannot be reached. ``goal`` is ``"standard"``, ``"blank-first"`` or a goal
    ``Board`` (whose blank, or the position's, is in a corner), solved by relabelling the tiles
    against the standard goal (see ``search.relabel``); the moves come back in the original tiles.
    """
    if isinstance(goal, Board):
        board.require_solvable(goal)
        named = _named_goal(goal)
        if named is None:
            from .relabel import solve_for_board

            return solve_for_board(board, goal, lambda start: solve(
                start, method=method, heuristic=heuristic, limit=limit, weight=weight,
                realtime_method=realtime_method, on_iteration=on_iteration, pruning=pruning,
                on_progress=on_progress, executor=executor, budget=budget))
        goal = named
    request = _request(method, heuristic, limit, goal, weight, realtime_method, on_iteration, pruning, on_progress,
                       budget)
    if executor is not None and executor.workers > 1:
        request = dataclasses.replace(request, executor=executor)
    board.require_solvable(goal)
    _check_options(method, request)
    if method == "auto":
        from .bfs import table_solve

        answer = table_solve(board, goal)
        if answer is not None:
            return answer
        method = _auto_method(board, request)
    return _run(board, goal, method, request)


def _run(board: Board, goal: Goal, method: str, request: Request) -> Solution:
    """The search ``method`` on ``board`` (``_under_way`` names it meanwhile, for the compile
    notice), tables made on the way (walking distance) held to the request's limits too: one
    they stop ends the search as stopped at that limit."""
    from .. import tables as store

    solver = SPLIT.load() if method == "idastar" and request.executor is not None else registered(method).load()
    limit = request.limit or Limit()
    _under_way[0] = method
    try:
        with store.build_allowance(limit.timeout, limit.max_memory):
            return solver(board, request)
    except TableBuildStopped as stop:
        return unfinished(board, goal, stop.status, board.manhattan(goal), stats=Stats(), method=method,
                          heuristic=request.heuristic, note=str(stop))
    finally:
        _under_way[0] = ""


def _request(
    method: str, heuristic: str, limit: Limit | None, goal: Goal, weight: float, realtime_method: str,
    on_iteration: IterationCallback | None, pruning: str, on_progress: ProgressCallback | None, budget: float | None,
) -> Request:
    """``solve``'s options checked once (the goal, the method's and the heuristic's names, ...)."""
    check_goal(goal)
    if method != "auto":
        registered(method)
    if heuristic != "auto":
        from ..heuristics.registry import parse

        heuristic = parse(heuristic).name
    if budget is not None:
        from .beam import check_budget

        budget = check_budget(budget)
    return Request(goal, heuristic, limit, weight, check_realtime_method(realtime_method),
                   check_pruning(pruning), on_iteration, on_progress, budget=budget)


def lower_bound(board: Board, heuristic: str = "manhattan", goal: Goal | Board = "standard") -> int:
    """The value of ``heuristic`` (``auto`` is the one ``solve`` would pick) for ``board`` and
    ``goal`` (a goal board is relabelled as ``solve`` does it)."""
    from ..heuristics.registry import auto_heuristic, parse

    if isinstance(goal, Board):
        board.is_goal(goal)  # the shapes agree
        named = _named_goal(goal)
        if named is None:
            from .relabel import frame_for

            frame = frame_for(board, goal)
            if frame is None:
                if heuristic != "manhattan":
                    raise InvalidBoardError("the blanks of the goal board and of the position are both off the "
                                            "corners: only the manhattan bound is evaluated for them")
                return board.manhattan(goal)
            board, goal = frame.apply(goal if frame.reverse else board), "standard"
        else:
            goal = named
    check_goal(goal)
    name = auto_heuristic(board.height, board.width, goal)[0] if heuristic == "auto" else parse(heuristic).name
    from .quality import bound_value

    return bound_value(board, goal, name)


def _named_goal(goal: Board) -> Goal | None:
    """The convention whose goal ``goal`` is, if any (then its own tables answer)."""
    names: tuple[Goal, ...] = ("standard", "blank-first")
    return next((name for name in names if goal.is_goal(name)), None)


def _check_options(method: str, request: Request) -> None:
    """Options that the chosen search does not take are refused, naming the one that does."""
    if method == "auto":
        return
    if request.weight != 1 and "weight" not in registered(method).options:
        raise InvalidBoardError("--weight applies to A* only: add --method astar")
    if request.pruning != "auto" and "pruning" not in registered(method).options:
        raise InvalidBoardError("--pruning applies to IDA* only: add --method idastar")
    if request.budget is not None and "budget" not in registered(method).options:
        raise InvalidBoardError("--budget applies to the beam search only: add --method beam (or leave --method auto)")


def _auto_method(board: Board, request: Request) -> str:
    if request.weight != 1:
        return "astar"
    if board.size <= AUTO_OPTIMAL_CELLS and request.budget is None:
        return "idastar"
    from .beam import MAX_CELLS as BEAM_CELLS

    if board.size <= AUTO_BEAM_CELLS or (request.budget is not None and board.size <= BEAM_CELLS):
        return "beam"
    if request.budget is not None:
        raise InvalidBoardError(
            f"--budget applies to the beam search, which takes boards of at most {BEAM_CELLS:,} cells; a "
            f"{board.height}x{board.width} board is solved in real time: leave out --budget")
    return "realtime"


#: The method ``solve`` runs (after ``auto`` is resolved), for the compile notice to name.
_under_way = [""]
#: Kernel files named after the method whose kernels they hold (outside ``solve``: ``--count-only``).
_KERNEL_FAMILIES = ("idastar", "astar", "beam", "realtime", "bfs")


@contextmanager
def compile_notice(callback: Callable[[str], None]) -> Iterator[None]:
    """While the block runs, call ``callback(method)`` once if numba starts compiling a kernel (on
    first use, or after an upgrade); ``method`` is the search ``solve`` is running, else the one
    the compiled kernel's file belongs to (a key of ``warm.COMPILE_SECONDS``), else ``""``. A
    kernel loaded from numba's on-disk cache does not call it.

    >>> with compile_notice(lambda method: print("compiling", method)):
    ...     pass
    """
    from .._kernels import jit

    def first() -> None:  # the method under way, else the family of the kernel's file
        callback(_under_way[0] or (jit.first_compiled[0] if jit.first_compiled[0] in _KERNEL_FAMILIES else ""))

    stop = jit.on_first_compile(first)
    try:
        yield
    finally:
        stop()


def warmup(on_family: Callable[[str, str], None] | None = None,
           on_done: Callable[[str, float], None] | None = None) -> None:
    """Compile (or load from the cache) every kernel a user can reach (see ``warm.warmup``)."""
    from .warm import warmup as warm_all

    warm_all(on_family, on_done)


__all__ = ["Limit", "Solution", "Stats", "Progress", "ProgressCallback", "Request", "solve", "lower_bound",
           "warmup", "compile_notice", "METHODS", "HEURISTICS", "PRUNING", "REALTIME_METHODS", "IterationCallback"]
