"""IDA* (Korf 1985): depth-first searches with a rising threshold on f = g + h.

Each iteration explores every path whose f stays within the threshold; the next threshold is the
smallest f that exceeded it, rounded up to the parity every solution of the position has (the
parity of its Manhattan distance), so thresholds rise by 2. The first solution found is optimal.

The work is done by ``_kernels.idastar`` (one kernel per combination of bounds and pruning); this
module checks inputs, gathers the kernel's named arguments (``shape_arrays``, the heuristic's
``Lines`` and ``Bounds``, the automaton), runs the kernel in slices (so time limits and Ctrl-C
stop it cleanly) and reports.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np

from .. import config
from ..board import Board, Goal, check_goal
from ..errors import InvalidBoardError
from ..geometry import DOWN, LEFT, RIGHT, UP, geometry, tiles_from_cells
from ..heuristics.linear_conflict import line_tables
from ..heuristics.registry import auto_heuristic, evaluate, kernel_heuristic, parse
from .fsm import automaton
from .limits import (
    INTERRUPTED,
    NODE_LIMIT,
    TIMEOUT,
    Clock,
    Iteration,
    Limit,
    ProgressCallback,
    Solution,
    Stats,
    checked_solution,
    unfinished,
)
from .registry import IterationCallback, Request, check_pruning

if TYPE_CHECKING:
    from .._kernels.idastar import Shape

#: Largest board IDA* accepts (its tables grow as the square of the cell count).
MAX_CELLS = 256

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
        _warm(parse(heuristic).name, height, width, goal)


@functools.cache
def _warm(heuristic: str, height: int, width: int, goal: Goal, pruning: str = "auto") -> None:
    start = Board.goal(height, width, goal)
    start = start.move(start.movable_tiles()[0])
    # One move from the goal: a few nodes with sound tables; the node limit stops it on any other.
    limit = Limit(max_nodes=_WARM_NODES)
    _run(start, goal, heuristic, "korf", limit, None, Clock(limit), _pruning(pruning, heuristic, start.size))


#: Nodes a warm-up search may generate (it compiles the kernel; its result is not used).
_WARM_NODES = 100_000


#: ``auto`` pruning uses the automaton on boards of up to this many cells (6x6: built in 1.4 s).
AUTO_FSM_CELLS = 36


def _pruning(pruning: str, heuristic: str, cells: int) -> str:
    """``pruning`` with ``auto`` resolved (see ``search.PRUNING``)."""
    if check_pruning(pruning) == "auto":
        return "fsm" if parse(heuristic).extended and cells <= AUTO_FSM_CELLS else "parent"
    return pruning


def _fsm_tables(height: int, width: int, pruning: str) -> tuple[int, np.ndarray]:
    """The kernel's mode bit and the automaton's table (a placeholder for ``parent``)."""
    from .._kernels.idastar import FSM

    if pruning == "parent":
        return 0, np.zeros(1, np.uint32)
    return FSM, automaton(height, width).packed


def solve_request(board: Board, request: Request) -> Solution:
    """``idastar`` for a ``search.solve`` request (``auto`` heuristic resolved). Advice on tables
    that would help is for the front ends to give (``present.advice_text``), after slow searches."""
    heuristic = request.heuristic
    if heuristic == "auto":
        heuristic = auto_heuristic(board.height, board.width, request.goal)[0]
    return idastar(board, goal=request.goal, heuristic=heuristic, limit=request.limit,
                   on_iteration=request.on_iteration, pruning=request.pruning, on_progress=request.on_progress)


def idastar(
    board: Board,
    *,
    goal: Goal = "standard",
    heuristic: str = "manhattan",
    order: str = "korf",
    limit: Limit | None = None,
    on_iteration: IterationCallback | None = None,
    pruning: str = "auto",
    on_progress: ProgressCallback | None = None,
) -> Solution:
    """Optimal solution of ``board`` by IDA*.

    ``heuristic`` is ``"manhattan"``, ``"lc"`` (Manhattan plus linear conflict) or any name
    ``heuristics.registry`` parses (``"wd+id"``, ``"pdb:6-6-3+wd"``, ...); ``order`` names
    the move order (see ``ORDERS``). ``on_iteration(iteration, final)`` is called after every
    iteration (``final`` is true for the one that found the goal). ``pruning`` (see ``search.PRUNING``)
    chooses the duplicate pruning. ``on_progress(progress)`` is called between the kernel's
    slices (see ``limits.Progress``). With the Manhattan distance, the ``korf`` order and parent
    pruning, ``stats.generated`` equals the node counts of Korf (1985).
    """
    check_goal(goal)
    heuristic = parse(heuristic).name
    pruning = _pruning(pruning, heuristic, board.size)
    if order not in ORDERS:
        raise ValueError(f"unknown move order {order!r}: use {', '.join(ORDERS)}")
    if board.size > MAX_CELLS:
        raise InvalidBoardError(
            f"optimal search is limited to boards of at most {MAX_CELLS} cells; "
            f"a {board.height}x{board.width} board needs --method realtime"
        )
    board.require_solvable(goal)
    limit = limit or Limit()
    other = other_goal_tables(board, goal, heuristic)
    if other is not None:
        sol = idastar(board.converted(), goal=other, heuristic=heuristic, order=order, limit=limit,
                      on_iteration=on_iteration, pruning=pruning, on_progress=on_progress)
        return from_other_goal(board, goal, other, sol)
    kernel_heuristic(heuristic, board.height, board.width, goal)  # missing tables fail here
    _warm(heuristic, board.height, board.width, goal, pruning)
    return _run(board, goal, heuristic, order, limit, on_iteration, Clock(limit), pruning, on_progress)


def other_goal_tables(board: Board, goal: Goal, heuristic: str) -> Goal | None:
    """The other goal convention, if the pattern databases of ``heuristic`` exist only for that
    one: then a search solves ``board.converted()`` for it and ``from_other_goal`` maps back."""
    from ..heuristics import pattern_db

    name = parse(heuristic).pdb
    if name is None:
        return None
    other: Goal = "blank-first" if goal == "standard" else "standard"
    h, w = board.shape
    if pattern_db.is_built(name, h, w, goal) or not pattern_db.is_built(name, h, w, other):
        return None
    return other


def from_other_goal(board: Board, goal: Goal, other: Goal, sol: Solution) -> Solution:
    """``sol``, a search's result for ``board`` turned 180 degrees and relabelled
    (``Board.converted``) for the ``other`` goal, as a result for ``board``: the distance is the
    same and the moves map back tile by tile. Status, bound, counts and notes are kept."""
    used = f"tables of the {other} goal used on the board turned 180 degrees"
    note = f"{sol.note}; {used}" if sol.note else used
    if not sol.solved:
        return unfinished(board, goal, sol.status, sol.lower_bound, stats=sol.stats, method=sol.method,
                          heuristic=sol.heuristic, note=note)
    moves = tuple(board.size - x for x in sol.moves)
    back = checked_solution(board, goal, moves, optimal=sol.optimal, stats=sol.stats, method=sol.method,
                  heuristic=sol.heuristic, note=note)
    return dataclasses.replace(back, lower_bound=sol.lower_bound)


def _run(
    board: Board,
    goal: Goal,
    heuristic: str,
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
        return checked_solution(board, goal, (), optimal=True, stats=stats, method="idastar", heuristic=heuristic)
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


def deepen(search: Thresholds, bound: int, parity: int, on_iteration: IterationCallback | None) -> Solution:
    """IDA*'s outer loop, the one the serial, split and A*+IDA* searches share: thresholds from
    ``bound`` on, each the smallest f that exceeded the last rounded up to ``parity`` (the
    parity of every solution; ``_kernels.idastar.up_to_parity``, which ``ida_lengths`` uses too),
    until one finds a solution (optimal: every lower threshold was searched in full) or a limit
    or Ctrl-C stops the search. ``on_iteration(iteration, final)`` after each threshold."""
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
            bound = up_to_parity(bound + min_over, parity)
    except KeyboardInterrupt:
        # Every threshold below ``bound`` was searched in full: no shorter solution exists.
        search.cancel()
        return search.stopped(INTERRUPTED, bound)


class _Search:
    """One board's kernel and its arguments: the shape's move tables, the lower bounds'
    arrays, the automaton, and the root's heuristic value and components; and the search's
    limit, clock and stats (``Thresholds``)."""

    def __init__(self, board: Board, goal: Goal, heuristic: str, order: str, pruning: str,
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
        self.shape = shape_arrays(h, w, goal, order)
        lt = line_tables(h, w, goal, heuristic == "lc")
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
        stack.ks[0] = root_row(self.board.blank)
        stack.hs[0] = self.h0
        stack.hst[0] = self.row0
        ctl = np.array([0, 0, 1, _BIG], dtype=np.int64)
        cpu_start = clock.cpu()
        status, stop = -1, None
        while status not in (EXHAUSTED, FOUND):
            if self.on_progress is not None:
                self.on_progress(clock.progress(bound, stats.generated + int(ctl[CTL_GENERATED])))
            budget = self.slice
            if limit.max_nodes is not None:
                budget = min(budget, limit.max_nodes - (stats.generated + int(ctl[CTL_GENERATED])))
                if budget <= 0:
                    stop = NODE_LIMIT
                    break
            if clock.expired():
                stop = TIMEOUT
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
        return checked_solution(self.board, self.goal, tiles_from_cells(self.board, cells), optimal=True,
                                stats=self.stats, method="idastar", heuristic=self.heuristic)

    def stopped(self, status: str, bound: int) -> Solution:
        self.clock.stamp(self.stats)
        return unfinished(self.board, self.goal, status, bound, stats=self.stats, method="idastar",
                          heuristic=self.heuristic)

    def cancel(self) -> None:
        pass


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
        raise InvalidBoardError("optimal_lengths needs boards of one shape")
    for b in boards:
        b.require_solvable(goal)
    from .._kernels.idastar import lengths as lengths_kernel

    lt = line_tables(h, w, goal, heuristic == "lc")
    kh = kernel_heuristic(heuristic, h, w, goal)
    fsm_mode, fsm = _fsm_tables(h, w, _pruning(pruning, parse(heuristic).name, h * w))
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
