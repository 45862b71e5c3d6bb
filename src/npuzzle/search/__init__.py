"""Searches: ``solve`` picks one; each module holds one algorithm, registered by name in
``registry``.

``idastar`` (optimal, memory-light), ``astar`` (optimal, or weighted with a proven bound),
``bfs`` (whole state spaces; saved tables answer at once), ``beam`` (short answers within a
time budget, with a proven lower bound), ``realtime`` (any board size, not optimal:
Parberry's algorithm and a greedy refinement).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..board import Board, Goal
from ..errors import InvalidOptionError
from ..heuristics import HEURISTICS
from .limits import Limit, Progress, ProgressCallback, Solution, Stats
from .problem import AUTO_BEAM_CELLS, AUTO_OPTIMAL_CELLS, Problem, prepare, run
from .registry import METHODS, PRUNING, REALTIME_METHODS, UNDER_WAY, IterationCallback, Request, check_fields

if TYPE_CHECKING:
    from .split import Executor



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
    **options: Any,
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
    ``options`` are any other fields of ``Request`` (``order``, ``top_nodes``, ...).
    """
    check_fields(options, "solve")
    request = Request(goal=goal, heuristic=heuristic, limit=limit, weight=weight, realtime_method=realtime_method,
                      pruning=pruning, on_iteration=on_iteration, on_progress=on_progress, executor=executor,
                      budget=budget, **options)
    return run(prepare(board, request, method))


def lower_bound(board: Board, heuristic: str = "manhattan", goal: Goal | Board = "standard") -> int:
    """The value of ``heuristic`` (``auto`` is the one ``solve`` would pick) for ``board`` and
    ``goal`` (a goal board is framed as ``solve`` frames it)."""
    from ..heuristics.registry import first_bound, parse
    from .problem import framed

    found = framed(board, goal)
    if found is None:
        if heuristic != "manhattan":
            raise InvalidOptionError("the blanks of the goal board and of the position are both off the "
                                     "corners: only heuristic='manhattan' is evaluated for them")
        return board.manhattan(goal)
    _, start, target = found
    return first_bound(start, target, heuristic if heuristic == "auto" else parse(heuristic))[1]


#: Kernel files named after the method whose kernels they hold (outside ``solve``: ``--count-only``).
_KERNEL_FAMILIES = ("idastar", "astar", "focal", "beam", "realtime", "bfs")


@contextmanager
def compile_notice(callback: Callable[[str], None]) -> Iterator[None]:
    """While the block runs, call ``callback(method)`` once if numba starts compiling a kernel (on
    first use, or after an upgrade); ``method`` is the search ``solve`` is running, else the one
    the compiled kernel's file belongs to (a key of ``warm.COMPILE_SECONDS``), else ``""``. A
    kernel loaded from numba's on-disk cache does not call it.

    >>> import numba
    >>> with compile_notice(lambda method: print("compiling", repr(method))):
    ...     numba.njit(lambda x: x + 1)(41)  # a function numba has not compiled yet
    compiling ''
    42
    >>> with compile_notice(lambda method: print("compiling", repr(method))):
    ...     pass
    """
    from .._kernels import jit

    def first() -> None:  # the method under way, else the family of the kernel's file
        callback(UNDER_WAY[0] or (jit.first_compiled[0] if jit.first_compiled[0] in _KERNEL_FAMILIES else ""))

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


__all__ = ["Limit", "Solution", "Stats", "Progress", "ProgressCallback", "Request", "Problem", "prepare", "run",
           "AUTO_OPTIMAL_CELLS", "AUTO_BEAM_CELLS", "solve", "lower_bound",
           "warmup", "compile_notice", "METHODS", "HEURISTICS", "PRUNING", "REALTIME_METHODS", "IterationCallback"]
