"""IDA* (Korf 1985): depth-first searches with a rising threshold on f = g + h.

Each iteration explores every path whose f stays within the threshold; the next threshold is the
smallest f that exceeded it, rounded up to the parity every solution of the position has (the
parity of its Manhattan distance), so thresholds rise by 2. The first solution found is optimal.

The work is done by ``_kernels.idastar`` (one kernel per combination of bounds and pruning); this
module checks inputs, gathers the kernel's named arguments (``shape_arrays``, the heuristic's
``Lines`` and ``Bounds``, the automaton), runs the kernel in slices (so time limits and Ctrl-C
stop it cleanly) and reports.

>>> from npuzzle import Board
>>> from npuzzle.search.idastar import idastar
>>> board = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))  # 31 moves, one of the two hardest 8-puzzles
>>> solution = idastar(board, heuristic="manhattan")
>>> solution.length, solution.optimal, board.apply(solution.moves).is_goal()
(31, True, True)
>>> [i.threshold for i in solution.stats.iterations]  # from the Manhattan distance, 21, by 2
[21, 23, 25, 27, 29, 31]
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from .. import config
from ..board import Board, Goal
from ..errors import InvalidOptionError
from ..geometry import DOWN, LEFT, RIGHT, UP, geometry, tiles_from_cells
from ..heuristics.linear_conflict import line_tables
from ..heuristics.registry import Spec, evaluate, kernel_heuristic, parse
from .fsm import automaton
from .limits import (
    INTERRUPTED,
    TIMEOUT,
    Clock,
    Iteration,
    Limit,
    ProgressCallback,
    Solution,
    Stats,
    found_solution,
    unfinished,
)
from .problem import Problem, prepare
from .problem import run as run_problem
from .registry import REGISTRY, IterationCallback, Request, resolved_pruning

if TYPE_CHECKING:
    from .._kernels.idastar import Shape

#: Largest board IDA* accepts (its tables grow as the square of the cell count).
MAX_CELLS: int = REGISTRY["idastar"].max_cells or 0

# Knuth numbers directions east 0, north 1, west 2, south 3 (powers of i).
_KNUTH_TO_OURS = (RIGHT, UP, LEFT, DOWN)
_OURS_TO_KNUTH = {d: k for k, d in enumerate(_KNUTH_TO_OURS)}


def _fixed_order(directions: tuple[int, ...]) -> np.ndarray:
    rows = []
    for prev in (-1, UP, LEFT, RIGHT, DOWN):
        row = [d for d in directions if prev < 0 or d != 3 - prev]
        rows.append(row + [-1] * (4 - len(row)))
    return np.array(rows, dtype=np.int64)


def _knuth1_order() -> np.ndarray:
    # 15PUZZLE-KORF1: the first moves are tried south, west, north, east; after a move in
    # Knuth's direction m, the next are m+1, m, m-1 (mod 4): left turn, straight on, right turn.
    rows = [[DOWN, LEFT, UP, RIGHT]]
    for prev in (UP, LEFT, RIGHT, DOWN):
        m = _OURS_TO_KNUTH[prev]
        rows.append([_KNUTH_TO_OURS[(m + 1) % 4], _KNUTH_TO_OURS[m], _KNUTH_TO_OURS[(m - 1) % 4], -1])
    return np.array(rows, dtype=np.int64)


#: Move orders by name. ``korf``: blank up, left, right, down (Korf 1985; reproduces his node
#: counts). ``knuth0``: east, north, west, south (15PUZZLE-KORF0). ``knuth1``: 15PUZZLE-KORF1's.
ORDERS: dict[str, np.ndarray] = {
    "korf": _fixed_order((UP, LEFT, RIGHT, DOWN)),
    "knuth0": _fixed_order((RIGHT, UP, LEFT, DOWN)),
    "knuth1": _knuth1_order(),
}


@functools.cache
def shape_arrays(height: int, width: int, goal: Goal, order: str) -> Shape:
    """The kernel's ``Shape`` for one board shape, goal and move order (made once).

    Row ``(cell * 5 + prev + 1) * 5`` of the move tables lists, for the blank at ``cell`` after a
    step in direction ``prev`` (-1 at the root), the cells it may step to next (``succ_q``:
    legal, not undoing ``prev``, ending with NONE) and for each the row to use from there
    (``succ_next``)."""
    from .._kernels.idastar import NONE, Shape

    g = geometry(height, width, goal)
    n = g.size
    succ_q = np.full(n * 25, NONE, dtype=np.uint64)
    succ_next = np.zeros(n * 25, dtype=np.uint64)
    dmd = np.zeros(n * 25 * n, dtype=np.int64)
    for cell in range(n):
        for prev in range(-1, 4):
            k = (cell * 5 + prev + 1) * 5
            for d in ORDERS[order][prev + 1]:
                q = int(g.nbr[cell * 4 + d]) if d >= 0 else -1
                if q >= 0:
                    succ_q[k] = q
                    succ_next[k] = (q * 5 + int(d) + 1) * 5
                    dmd[k * n : (k + 1) * n] = g.md[cell * n : (cell + 1) * n] - g.md[q * n : (q + 1) * n]
                    k += 1
    return Shape(g.home, g.md, dmd, succ_q, succ_next, g.row_of, g.col_of, width, height, g.nbr)


def root_row(cell: int) -> int:
    return cell * 25


def warmup(heuristics: Sequence[str] = ("manhattan", "lc"), height: int = 2, width: int = 2,
           goal: Goal = "standard") -> None:
    """Compile (or load from numba's cache) the IDA* kernels the heuristics use on boards of one
    shape, so that the CPU time reported for a search is the search's own."""
    for heuristic in heuristics:
        spec = parse(heuristic)
        _warm(spec, height, width, goal, resolved_pruning("auto", spec, height * width))


@functools.cache
def _warm(heuristic: Spec, height: int, width: int, goal: Goal, pruning: str) -> None:
    start = Board.goal(height, width, goal)
    start = start.move(start.movable_tiles()[0])
    # One move from the goal: a few nodes with sound tables; the node limit stops it on any other.
    limit = Limit(max_nodes=_WARM_NODES)
    if _run(start, goal, heuristic, "korf", limit, None, Clock(limit), pruning).status == INTERRUPTED:
        raise KeyboardInterrupt  # Ctrl-C while the kernel compiled or loaded: the search is not started


#: Nodes a warm-up search may generate (it compiles the kernel; its result is not used).
_WARM_NODES = 100_000


def _fsm_tables(height: int, width: int, pruning: str) -> tuple[int, np.ndarray]:
    """The kernel's mode bit and the automaton's table (a placeholder for ``parent``)."""
    from .._kernels.idastar import FSM

    if pruning == "parent":
        return 0, np.zeros(1, np.uint32)
    return FSM, automaton(height, width).packed


def solve_problem(problem: Problem) -> Solution:
    """IDA* on a prepared problem (see ``search.problem``): its start, target goal, heuristic,
    pruning, move order, limits and callbacks, all checked and resolved there."""
    spec, start, target = problem.heuristic, problem.start, problem.target
    assert spec is not None  # IDA* takes a heuristic: prepare resolved it
    request = problem.request
    _warm(spec, start.height, start.width, target, problem.pruning)
    return _run(start, target, spec, request.order, problem.limit, request.on_iteration, Clock(problem.limit),
                problem.pruning, request.on_progress)


def idastar(board: Board, *, heuristic: str = "manhattan", **options: Any) -> Solution:
    """Optimal solution of ``board`` by IDA*; ``options`` are ``Request`` fields by name (``goal``,
    ``order``, ``limit``, ``on_iteration``, ``pruning``, ``on_progress``, ...).

    ``heuristic`` is ``"manhattan"``, ``"lc"`` (Manhattan plus linear conflict) or any name
    ``heuristics.registry`` parses (``"wd+id"``, ``"pdb:6-6-3+wd"``, ...); ``order`` names
    the move order (see ``ORDERS``). ``on_iteration(iteration, final)`` is called after every
    iteration (``final`` is true for the one that found the goal). ``pruning`` (see ``search.PRUNING``)
    chooses the duplicate pruning. ``on_progress(progress)`` is called between the kernel's
    slices (see ``limits.Progress``). With the Manhattan distance, the ``korf`` order and parent
    pruning, ``stats.generated`` equals the node counts of Korf (1985).

    >>> idastar(Board(2, 3, (1, 2, 3, 0, 4, 5)), heuristic="lc").letters
    'LL'
    """
    request = Request(heuristic=heuristic, **options)
    if request.order not in ORDERS:
        raise InvalidOptionError(f"order={request.order!r}: use one of {', '.join(ORDERS)}")
    return run_problem(prepare(board, request, "idastar"))


def _run(
    board: Board,
    goal: Goal,
    heuristic: Spec,
    order: str,
    limit: Limit,
    on_iteration: IterationCallback | None,
    clock: Clock,
    pruning: str,
    on_progress: ProgressCallback | None = None,
) -> Solution:
    from .._kernels.idastar import up_to_parity

    stats = Stats(generated=1)
    if board.is_goal(goal):
        clock.stamp(stats)
        return found_solution(board, goal, (), optimal=True, stats=stats, method="idastar", heuristic=heuristic.name)
    search = _Search(board, goal, heuristic, order, pruning, on_progress, limit, clock, stats)
    parity = board.manhattan(goal) & 1
    return deepen(search, up_to_parity(search.h0, parity), parity, on_iteration)


_BIG = np.iinfo(np.int64).max


class Thresholds(Protocol):
    """One IDA* search as ``deepen`` runs it: ``threshold(bound)`` searches every path within
    ``bound`` (checking the limits and reporting progress as it goes; the iteration recorded in
    the search's stats) and returns the iteration, the blank's cells of a solution (or None), the
    limit that stopped it (or None) and the smallest excess of f over ``bound`` (``_BIG`` if
    none); ``solved`` and ``stopped`` make the result; ``cancel`` drops work under way."""

    def threshold(self, bound: int) -> tuple[Iteration, tuple[int, ...] | None, str | None, int]: ...

    def solved(self, cells: tuple[int, ...]) -> Solution: ...

    def stopped(self, status: str, bound: int) -> Solution: ...

    def cancel(self) -> None: ...


def deepen(search: Thresholds, bound: int, parity: int, on_iteration: IterationCallback | None,
           rise: Callable[[int, int], int] | None = None) -> Solution:
    """IDA*'s outer loop, the one every IDA* search shares (serial, split, A*+IDA*, under move
    costs): thresholds from ``bound`` on, each the smallest f that exceeded the last rounded up
    to ``parity`` (the parity of every solution; ``_kernels.idastar.up_to_parity``, which
    ``ida_lengths`` uses too), or ``rise(bound, min_over)`` if given, until one finds a solution
    (optimal: every lower threshold was searched in full) or a limit or Ctrl-C stops the search.
    ``on_iteration(iteration, final)`` after each threshold."""
    from .._kernels.idastar import up_to_parity

    try:
        while True:
            it, found, stop, min_over = search.threshold(bound)
            if stop is not None:
                return search.stopped(stop, bound)
            if on_iteration is not None:
                on_iteration(it, found is not None)
            if found is not None:
                return search.solved(found)
            if min_over == _BIG:
                raise AssertionError("IDA* exhausted a solvable position")
            bound = up_to_parity(bound + min_over, parity) if rise is None else rise(bound, min_over)
    except KeyboardInterrupt:
        # Every threshold below ``bound`` was searched in full: no shorter solution exists.
        search.cancel()
        return search.stopped(INTERRUPTED, bound)


class _Search:
    """One board's kernel and its arguments: the shape's move tables, the lower bounds'
    arrays, the automaton, and the root's heuristic value and components; and the search's
    limit, clock and stats (``Thresholds``)."""

    def __init__(self, board: Board, goal: Goal, heuristic: Spec, order: str, pruning: str,
                 on_progress: ProgressCallback | None, limit: Limit, clock: Clock, stats: Stats) -> None:
        from .._kernels.bounds import LC_TABLES, line_keys
        from .._kernels.idastar import iteration

        h, w = board.shape
        self.board, self.goal, self.heuristic = board, goal, heuristic
        self.limit, self.clock, self.stats = limit, clock, stats
        self.on_progress = on_progress
        # Smaller slices when someone watches, so that the status is fresh (a slice costs ~10 us).
        self.slice = config.KERNEL_SLICE_NODES if on_progress is None else config.PROGRESS_SLICE_NODES
        self.cells = np.array(board.tiles, dtype=np.uint64)
        self.root = root_row(board.blank)  # the root's move-table row: every move
        self.shape = shape_arrays(h, w, goal, order)
        lt = line_tables(h, w, goal, heuristic.lc)
        self.lines = lt.kernel_lines(h, w)
        kh = kernel_heuristic(heuristic, h, w, goal)
        self.bounds = kh.bounds
        fsm_mode, self.fsm = _fsm_tables(h, w, pruning)
        self.kernel = iteration(kh.mode | lt.mode | fsm_mode)
        self.row0 = np.zeros(kh.columns, np.int64)
        if kh.spec.extended:
            self.row0, self.h0 = kh.start(board)
        else:
            self.h0 = evaluate(board, goal, heuristic)
        if lt.mode == LC_TABLES:
            line_keys(self.cells, self.lines, board.size, self.shape.row_of, self.shape.col_of)

    def threshold(self, bound: int) -> tuple[Iteration, tuple[int, ...] | None, str | None, int]:
        """Run the iteration with threshold ``bound`` in slices until it ends or a limit stops
        it; record it in the stats (see ``Thresholds``)."""
        from .._kernels.idastar import CTL_DEPTH, CTL_EXPANDED, CTL_GENERATED, CTL_MIN_OVER, EXHAUSTED, FOUND, Stack

        clock, stats, limit = self.clock, self.stats, self.limit
        stack = Stack(np.zeros(bound + 2, np.uint64), np.zeros(bound + 2, np.uint64), np.zeros(bound + 2, np.int64),
                      np.zeros((bound + 2, len(self.row0)), np.int64))
        stack.blanks[0] = self.board.blank
        stack.ks[0] = self.root
        stack.hs[0] = self.h0
        stack.hst[0] = self.row0
        ctl = np.array([0, 0, 1, _BIG], dtype=np.int64)
        cpu_start = clock.cpu()
        status, stop = -1, None  # type: tuple[int, str | None]
        while status not in (EXHAUSTED, FOUND):
            if self.on_progress is not None:
                self.on_progress(clock.progress(bound, stats.generated + int(ctl[CTL_GENERATED])))
            budget, stop = clock.slice_budget(limit, stats.generated + int(ctl[CTL_GENERATED]), self.slice)
            if stop is not None:
                break
            status = self.kernel(self.cells, self.shape, self.lines, self.bounds, self.fsm, stack, ctl, bound, budget)
        it = Iteration(bound, int(ctl[CTL_GENERATED]), int(ctl[CTL_EXPANDED]), clock.cpu() - cpu_start)
        stats.iterations.append(it)
        stats.generated += it.generated
        stats.expanded += it.expanded
        clock.stamp(stats)
        found = tuple(int(c) for c in stack.blanks[1 : int(ctl[CTL_DEPTH]) + 1]) if status == FOUND else None
        return it, found, stop, int(ctl[CTL_MIN_OVER])

    def solved(self, cells: tuple[int, ...]) -> Solution:
        return found_solution(self.board, self.goal, tiles_from_cells(self.board, cells), optimal=True,
                              stats=self.stats, method="idastar", heuristic=self.heuristic.name)

    def stopped(self, status: str, bound: int) -> Solution:
        self.clock.stamp(self.stats)
        return unfinished(self.board, self.goal, status, bound, stats=self.stats, method="idastar",
                          heuristic=self.heuristic.name)

    def cancel(self) -> None:
        pass


class Probe:
    """Bounded IDA* searches on boards of one shape and goal, for many positions in a row (a
    solve's analysis): ``path(board, bound)`` is a solution of at most ``bound`` moves, or None if
    there is none. It runs IDA*'s iteration at threshold ``bound`` alone, so asking whether a
    position is at distance ``d - 1`` costs one iteration, not a solve. ``bound`` must have the
    parity of the position's distance (that of its Manhattan distance). Every probe counts
    against one ``limit`` (time from the probe's creation, nodes summed); a probe that reaches it
    raises ``SearchStopped``. Pattern databases built only for the other goal are used as
    ``idastar`` uses them (on the board turned 180 degrees)."""

    def __init__(self, height: int, width: int, goal: Goal = "standard", heuristic: str = "auto",
                 limit: Limit | None = None, pruning: str = "auto") -> None:
        request = Request(goal=goal, heuristic=heuristic, limit=limit, pruning=pruning)
        problem = prepare(Board.goal(height, width, goal), request, "idastar")
        assert problem.heuristic is not None  # IDA* takes one: prepare resolved it
        self.heuristic, self.pruning, self.goal = problem.heuristic, problem.pruning, problem.goal
        self.frame, self.target = problem.frame, problem.target  # the turn onto the tables' goal, if any
        kernel_heuristic(self.heuristic, height, width, self.target)  # missing tables fail here
        _warm(self.heuristic, height, width, self.target, self.pruning)
        self.limit = problem.limit
        self.clock = Clock(self.limit)
        self.stats = Stats()

    def path(self, board: Board, bound: int, came_from: int | None = None) -> tuple[int, ...] | None:
        """The tiles of a solution of ``board`` of at most ``bound`` moves, or None. ``came_from``
        (the blank's cell before the move that made ``board``, if its predecessor is at least
        ``bound`` moves from the goal) spares the search the subtree that undoes that move, where
        no such solution can be."""
        if board.is_goal(self.goal):
            return ()
        if bound < 1:
            return None
        frame = self.frame
        searched = frame.apply(board) if frame is not None else board
        search = _Search(searched, self.target, self.heuristic, "korf", self.pruning, None, self.limit, self.clock,
                         self.stats)
        if search.h0 > bound:
            return None
        if came_from is not None:
            search.root = _arrived(searched, came_from if frame is None else frame.cells[came_from])
        _, found, stop, _ = search.threshold(bound)
        if stop is not None:
            from ..errors import SearchStopped

            raise SearchStopped(stop, f"stopped at the {'time' if stop == TIMEOUT else 'node'} limit")
        if found is None:
            return None
        moves = tiles_from_cells(searched, found)
        return frame.original_tiles(moves) if frame is not None else moves


def _arrived(board: Board, came_from: int) -> int:
    """The kernel's move-table row for ``board``'s blank after a step from cell ``came_from``:
    every move but the one back (see ``shape_arrays``)."""
    g = geometry(board.height, board.width, "standard")
    step = next((d for d in range(4) if int(g.nbr[came_from * 4 + d]) == board.blank), None)
    if step is None:
        raise InvalidOptionError(f"came_from={came_from}: the cell is not next to the blank")
    return (board.blank * 5 + step + 1) * 5


def optimal_lengths(
    boards: Sequence[Board], *, goal: Goal = "standard", heuristic: str = "lc", order: str = "korf",
    pruning: str = "auto",
) -> tuple[list[int], list[int]]:
    """Optimal lengths and IDA* node counts of many boards of one shape, in one kernel call
    (no per-board Python work: for whole state spaces and large samples). Every board must be
    solvable; no moves are returned, so nothing is replayed."""
    if not boards:
        return [], []
    h, w = boards[0].shape
    if any(b.shape != (h, w) for b in boards):
        raise InvalidOptionError("optimal_lengths needs boards of one shape")
    for b in boards:
        b.require_solvable(goal)
    from .._kernels.idastar import lengths as lengths_kernel

    spec = parse(heuristic)
    lt = line_tables(h, w, goal, spec.lc)
    kh = kernel_heuristic(spec, h, w, goal)
    fsm_mode, fsm = _fsm_tables(h, w, resolved_pruning(pruning, spec, h * w))
    cells = np.array([b.tiles for b in boards], dtype=np.uint64)
    lengths = np.zeros(len(boards), np.int64)
    nodes = np.zeros(len(boards), np.int64)
    starts = [kh.start(b) for b in boards] if kh.spec.extended else []
    rows = (np.array([s[0] for s in starts], dtype=np.int64) if starts
            else np.zeros((len(boards), kh.columns), np.int64))  # one row per board: the automaton's state
    h0s = np.array([s[1] for s in starts] or [0], dtype=np.int64)
    lengths_kernel(kh.mode | lt.mode | fsm_mode)(cells, shape_arrays(h, w, goal, order), lt.kernel_lines(h, w),
                                                 kh.bounds, fsm, rows, h0s, lengths, nodes)
    return lengths.tolist(), nodes.tolist()
