"""IDA* (Korf 1985): depth-first searches with a rising threshold on f = g + h.

Each iteration explores every path whose f stays within the threshold; the next threshold is the
smallest f that exceeded it, rounded up to the parity every solution of the position has (the
parity of its Manhattan distance), so thresholds rise by 2. The first solution found is optimal.

The work is done by ``_kernels.idastar`` (one kernel per heuristic); this module checks inputs, builds the
tables, runs the kernel in slices (so time limits and Ctrl-C stop it cleanly) and reports.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from .. import config
from ..board import Board, Goal, check_goal, goal_cell
from ..errors import InvalidBoardError
from ..heuristics.registry import kernel_heuristic, parse
from . import check_pruning
from .fsm import automaton
from .limits import (
    INTERRUPTED,
    NODE_LIMIT,
    TIMEOUT,
    Clock,
    Iteration,
    Limit,
    Solution,
    Stats,
    solved,
    unfinished,
)

#: Largest board IDA* accepts (its tables grow as the square of the cell count).
MAX_CELLS = 256

HEURISTICS = {"manhattan": 0, "lc": 1}

# Blank directions as the kernel numbers them, and their (row, column) steps.
UP, LEFT, RIGHT, DOWN = 0, 1, 2, 3
STEPS = ((-1, 0), (0, -1), (0, 1), (1, 0))
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


@dataclass(frozen=True)
class Tables:
    """The arrays the kernel reads for one board shape and goal."""

    home: np.ndarray  # goal cell of each tile
    md: np.ndarray  # md[cell * n + tile]: Manhattan distance of tile at cell
    nbr: np.ndarray  # nbr[cell * 4 + d]: the cell the blank reaches in direction d, or -1


@dataclass(frozen=True)
class Moves:
    """The kernel's move rows for one shape, goal and move order (see ``_kernels.idastar``).

    Row ``(cell * 5 + prev + 1) * 5`` lists, for the blank at ``cell`` after a step in direction
    ``prev`` (-1 at the root), the cells it may step to next (``succ_q``: legal, not undoing
    ``prev``, ending with NONE) and for each the row to use from there (``succ_next``).
    ``dmd[k * n + tile]`` is the change of Manhattan distance when ``tile`` makes move ``k``."""

    succ_q: np.ndarray
    succ_next: np.ndarray
    dmd: np.ndarray


def moves_for(t: Tables, n: int, order: np.ndarray) -> Moves:
    from .._kernels.idastar import NONE

    succ_q = np.full(n * 25, NONE, dtype=np.uint64)
    succ_next = np.zeros(n * 25, dtype=np.uint64)
    dmd = np.zeros(n * 25 * n, dtype=np.int64)
    for cell in range(n):
        for prev in range(-1, 4):
            k = (cell * 5 + prev + 1) * 5
            for d in order[prev + 1]:
                q = int(t.nbr[cell * 4 + d]) if d >= 0 else -1
                if q >= 0:
                    succ_q[k] = q
                    succ_next[k] = (q * 5 + int(d) + 1) * 5
                    dmd[k * n : (k + 1) * n] = t.md[cell * n : (cell + 1) * n] - t.md[q * n : (q + 1) * n]
                    k += 1
    return Moves(succ_q, succ_next, dmd)


def root_row(cell: int) -> int:
    return cell * 25


@dataclass(frozen=True)
class LineTables:
    """Linear-conflict tables for one shape and goal (see ``_kernels.idastar``)."""

    mode: int  # 0 none, 1 tables, 2 direct
    rc: np.ndarray
    cc: np.ndarray
    rtab: np.ndarray
    ctab: np.ndarray


def line_tables(height: int, width: int, t: Tables, use_lc: bool) -> LineTables:
    from .._kernels.idastar import MAX_TABLE_LINE, line_table

    n = height * width
    empty8 = np.zeros(1, np.int8)
    empty = np.zeros(1, np.uint64)
    if not use_lc:
        return LineTables(0, empty, empty, empty8, empty8)
    if max(height, width) > MAX_TABLE_LINE:
        return LineTables(2, empty, empty, empty8, empty8)
    rc = np.zeros(n * n, np.uint64)
    cc = np.zeros(n * n, np.uint64)
    for tile in range(1, n):
        gr, gc = divmod(int(t.home[tile]), width)
        for cell in range(n):
            r, c = divmod(cell, width)
            if r == gr:
                rc[tile * n + cell] = (gc + 1) * (width + 1) ** c
            if c == gc:
                cc[tile * n + cell] = (gr + 1) * (height + 1) ** r
    rtab = line_table(width)
    ctab = rtab if height == width else line_table(height)
    return LineTables(1, rc, cc, rtab, ctab)


def tables(height: int, width: int, goal: Goal) -> Tables:
    n = height * width
    home = np.array([goal_cell(t, n, goal) for t in range(n)], dtype=np.int64)
    md = np.zeros(n * n, dtype=np.int64)
    for t in range(1, n):
        gr, gc = divmod(int(home[t]), width)
        for cell in range(n):
            md[cell * n + t] = abs(cell // width - gr) + abs(cell % width - gc)
    return Tables(home, md, neighbours(height, width))


def neighbours(height: int, width: int) -> np.ndarray:
    """``nbr[cell * 4 + d]``: the blank's cell after a step in direction d, or -1."""
    nbr = np.full(height * width * 4, -1, dtype=np.int64)
    for cell in range(height * width):
        r, c = divmod(cell, width)
        for d, (dr, dc) in enumerate(STEPS):
            if 0 <= r + dr < height and 0 <= c + dc < width:
                nbr[cell * 4 + d] = (r + dr) * width + c + dc
    return nbr


def initial_h(board: Board, t: Tables, heuristic: str) -> int:
    """The heuristic value of ``board`` (the kernel then updates it move by move)."""
    from .._kernels.idastar import linear_conflict

    n = board.size
    h = int(sum(t.md[cell * n + tile] for cell, tile in enumerate(board.tiles) if tile))
    if heuristic == "lc":
        arr = np.array(board.tiles, dtype=np.int64)
        h += 2 * int(linear_conflict(arr, t.home, board.width, board.height))
    return h


IterationCallback = Callable[[Iteration, bool], None]


def warmup(heuristics: Sequence[str] = tuple(HEURISTICS), height: int = 2, width: int = 2,
           goal: Goal = "standard") -> None:
    """Compile (or load from numba's cache) the IDA* kernels the heuristics use on boards of one
    shape, so that the CPU time reported for a search is the search's own."""
    for heuristic in heuristics:
        _warm(parse(heuristic).name, height, width, goal)


@functools.cache
def _warm(heuristic: str, height: int, width: int, goal: Goal, pruning: str = "auto") -> None:
    start = Board.goal(height, width, goal)
    start = start.move(start.movable_tiles()[0])
    _run(start, goal, heuristic, "korf", Limit(), None, Clock(Limit()), _pruning(pruning, heuristic, start.size))


#: ``auto`` pruning uses the automaton on boards of up to this many cells (6x6: built in 1.4 s).
AUTO_FSM_CELLS = 36


def _pruning(pruning: str, heuristic: str, cells: int) -> str:
    """``pruning`` with ``auto`` resolved (see ``search.PRUNING``)."""
    if check_pruning(pruning) == "auto":
        return "fsm" if parse(heuristic).extended and cells <= AUTO_FSM_CELLS else "parent"
    return pruning


def _fsm_tables(height: int, width: int, pruning: str) -> tuple[int, tuple[np.ndarray]]:
    """The kernel's mode bit and the automaton's table (a placeholder for ``parent``)."""
    from .._kernels.idastar import FSM

    if pruning == "parent":
        return 0, (np.zeros(1, np.uint32),)
    return FSM, (automaton(height, width).packed,)


def idastar(
    board: Board,
    *,
    goal: Goal = "standard",
    heuristic: str = "manhattan",
    order: str = "korf",
    limit: Limit | None = None,
    on_iteration: IterationCallback | None = None,
    pruning: str = "auto",
) -> Solution:
    """Optimal solution of ``board`` by IDA*.

    ``heuristic`` is ``"manhattan"``, ``"lc"`` (Manhattan plus linear conflict) or any name
    ``heuristics.registry`` parses (``"wd+id"``, ``"pdb:6-6-3+wd"``, ...); ``order`` names
    the move order (see ``ORDERS``). ``on_iteration(iteration, final)`` is called after every
    iteration (``final`` is true for the one that found the goal). ``pruning`` (see ``search.PRUNING``)
    chooses the duplicate pruning. With the Manhattan distance, the ``korf`` order and parent
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
                      on_iteration=on_iteration, pruning=pruning)
        return from_other_goal(board, goal, other, sol)
    kernel_heuristic(heuristic, board.height, board.width, goal)  # missing tables fail here
    _warm(heuristic, board.height, board.width, goal, pruning)
    return _run(board, goal, heuristic, order, limit, on_iteration, Clock(limit), pruning)


def other_goal_tables(board: Board, goal: Goal, heuristic: str) -> Goal | None:
    """The other goal convention, if the pattern databases of ``heuristic`` exist only for that
    one: then a search solves ``board.converted()`` for it and ``from_other_goal`` maps back."""
    from ..heuristics import pdb

    name = parse(heuristic).pdb
    if name is None:
        return None
    other: Goal = "blank-first" if goal == "standard" else "standard"
    h, w = board.shape
    if pdb.is_built(name, h, w, goal) or not pdb.is_built(name, h, w, other):
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
    back = solved(board, goal, moves, optimal=sol.optimal, stats=sol.stats, method=sol.method,
                  heuristic=sol.heuristic, note=note)
    return replace(back, lower_bound=sol.lower_bound)


def _run(
    board: Board,
    goal: Goal,
    heuristic: str,
    order: str,
    limit: Limit,
    on_iteration: IterationCallback | None,
    clock: Clock,
    pruning: str,
) -> Solution:
    stats = Stats(generated=1)
    method = "idastar"
    if board.is_goal(goal):
        stats.seconds = clock.cpu()
        return solved(board, goal, (), optimal=True, stats=stats, method=method, heuristic=heuristic)

    from .._kernels.idastar import EXHAUSTED, FOUND, iteration, line_keys

    t, mv, lt = _setup(board.height, board.width, goal, order, heuristic == "lc")
    kh = kernel_heuristic(heuristic, board.height, board.width, goal)
    row0 = np.zeros(kh.columns, np.int64)
    if kh.spec.extended:
        row0, h0 = kh.start(board)
    else:
        h0 = initial_h(board, t, heuristic)
    parity = board.manhattan(goal) & 1
    bound = h0 + ((h0 & 1) ^ parity)
    n, w, h = board.size, board.width, board.height
    cells = np.array(board.tiles, dtype=np.uint64)
    row_of, col_of = _rows_cols(h, w)
    rowkey = np.zeros(h, np.uint64)
    colkey = np.zeros(w, np.uint64)
    lct = (lt.rc, lt.cc, lt.rtab, lt.ctab, rowkey, colkey)
    fsm_mode, fsm = _fsm_tables(board.height, board.width, pruning)
    ext = kh.ext + fsm
    kernel = iteration(kh.mode | lt.mode | fsm_mode)
    if lt.mode == 1:
        line_keys(cells, lt.rc, lt.cc, n, row_of, col_of, rowkey, colkey)
    big = np.iinfo(np.int64).max
    try:
        while True:
            blanks = np.zeros(bound + 2, np.uint64)
            blanks[0] = board.blank
            ks = np.zeros(bound + 2, np.uint64)
            ks[0] = root_row(board.blank)
            hs = np.zeros(bound + 2, np.int64)
            hs[0] = h0
            hst = np.zeros((bound + 2, kh.columns), np.int64)
            hst[0] = row0
            ctl = np.array([0, 0, 1, big], dtype=np.int64)
            cpu_start = clock.cpu()
            status = None
            stop = None
            while status is None or status not in (EXHAUSTED, FOUND):
                budget = config.KERNEL_SLICE_NODES
                if limit.max_nodes is not None:
                    budget = min(budget, limit.max_nodes - (stats.generated + int(ctl[1])))
                    if budget <= 0:
                        stop = NODE_LIMIT
                        break
                if clock.expired():
                    stop = TIMEOUT
                    break
                status = kernel(cells, t.home, mv.dmd, mv.succ_q, mv.succ_next, w, h, row_of, col_of,
                                *lct, ext, bound, blanks, ks, hs, hst, ctl, budget)
            it = Iteration(bound, int(ctl[1]), int(ctl[2]), clock.cpu() - cpu_start)
            stats.iterations.append(it)
            stats.generated += it.generated
            stats.expanded += it.expanded
            stats.seconds = clock.cpu()
            if stop is not None:
                return unfinished(board, goal, stop, bound, stats=stats, method=method, heuristic=heuristic)
            if on_iteration is not None:
                on_iteration(it, status == FOUND)
            if status == FOUND:
                moves = tiles_from_cells(board, blanks[1 : int(ctl[0]) + 1])
                return solved(board, goal, moves, optimal=True, stats=stats, method=method, heuristic=heuristic)
            if ctl[3] == big:
                raise AssertionError("IDA* exhausted a solvable position")
            nxt = bound + int(ctl[3])
            bound = nxt + ((nxt & 1) ^ parity)
    except KeyboardInterrupt:
        # Every threshold below ``bound`` was searched in full: no shorter solution exists.
        stats.seconds = clock.cpu()
        return unfinished(board, goal, INTERRUPTED, bound, stats=stats, method=method, heuristic=heuristic)


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

    t, mv, lt = _setup(h, w, goal, order, heuristic == "lc")
    kh = kernel_heuristic(heuristic, h, w, goal)
    fsm_mode, fsm = _fsm_tables(h, w, _pruning(pruning, parse(heuristic).name, h * w))
    row_of, col_of = _rows_cols(h, w)
    cells = np.array([b.tiles for b in boards], dtype=np.uint64)
    lengths = np.zeros(len(boards), np.int64)
    nodes = np.zeros(len(boards), np.int64)
    starts = [kh.start(b) for b in boards] if kh.spec.extended else []
    rows = (np.array([s[0] for s in starts], dtype=np.int64) if starts
            else np.zeros((len(boards), kh.columns), np.int64))  # one row per board: the automaton's state
    h0s = np.array([s[1] for s in starts] or [0], dtype=np.int64)
    lct = (lt.rc, lt.cc, lt.rtab, lt.ctab, np.zeros(h, np.uint64), np.zeros(w, np.uint64))
    lengths_kernel(kh.mode | lt.mode | fsm_mode)(cells, t.home, t.md, mv.dmd, mv.succ_q, mv.succ_next, w, h,
                                                 row_of, col_of, lct, kh.ext + fsm, rows, h0s, lengths, nodes)
    return lengths.tolist(), nodes.tolist()


@functools.cache
def _setup(height: int, width: int, goal: Goal, order: str, use_lc: bool) -> tuple[Tables, Moves, LineTables]:
    """The shape's tables, move rows and linear-conflict tables, made once (kernels only read them)."""
    t = tables(height, width, goal)
    return t, moves_for(t, height * width, ORDERS[order]), line_tables(height, width, t, use_lc)


def _rows_cols(height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    cells = np.arange(height * width, dtype=np.uint64)
    return cells // np.uint64(width), cells % np.uint64(width)


def tiles_from_directions(board: Board, directions: Sequence[int]) -> tuple[int, ...]:
    """The tiles pushed when the blank steps in ``directions`` (0 up, 1 left, 2 right, 3 down)."""
    cells = []
    blank = board.blank
    for d in directions:
        dr, dc = STEPS[int(d)]
        blank += dr * board.width + dc
        cells.append(blank)
    return tiles_from_cells(board, cells)


def tiles_from_cells(board: Board, cells: Sequence[int] | np.ndarray) -> tuple[int, ...]:
    """The tiles pushed when the blank visits ``cells`` in turn."""
    tiles = list(board.tiles)
    blank = board.blank
    out = []
    for q in cells:
        q = int(q)
        out.append(tiles[q])
        tiles[blank], tiles[q] = tiles[q], 0
        blank = q
    return tuple(out)
