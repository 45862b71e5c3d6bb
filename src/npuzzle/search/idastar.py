"""IDA* (Korf 1985): depth-first searches with a rising threshold on f = g + h.

Each iteration explores every path whose f stays within the threshold; the next threshold is the
smallest f that exceeded it, rounded up to the parity every solution of the position has (the
parity of its Manhattan distance), so thresholds rise by 2. The first solution found is optimal.

The work is done by ``_kernels.idastar.ida_iteration``; this module checks inputs, builds the
tables, runs the kernel in slices (so time limits and Ctrl-C stop it cleanly) and reports.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import config
from ..board import Board, Goal, check_goal, goal_cell
from ..errors import InvalidBoardError
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
    md: np.ndarray  # md[tile * n + cell]: Manhattan distance of tile at cell
    nbr: np.ndarray  # nbr[cell * 4 + d]: the cell the blank reaches in direction d, or -1


def successors(t: Tables, n: int, order: np.ndarray) -> np.ndarray:
    """``succ[(cell * 5 + prev + 1) * 5 + k]``: the k-th blank direction to try from ``cell``
    after a move in direction ``prev`` (-1 at the root); legal moves only, never the one that
    undoes ``prev``; every row ends with -1."""
    succ = np.full(n * 25, -1, dtype=np.int64)
    for cell in range(n):
        for prev in range(-1, 4):
            row = [int(d) for d in order[prev + 1] if d >= 0 and t.nbr[cell * 4 + d] >= 0]
            base = (cell * 5 + prev + 1) * 5
            succ[base : base + len(row)] = row
    return succ


def tables(height: int, width: int, goal: Goal) -> Tables:
    n = height * width
    home = np.array([goal_cell(t, n, goal) for t in range(n)], dtype=np.int64)
    md = np.zeros(n * n, dtype=np.int64)
    for t in range(1, n):
        gr, gc = divmod(int(home[t]), width)
        for cell in range(n):
            md[t * n + cell] = abs(cell // width - gr) + abs(cell % width - gc)
    nbr = np.full(n * 4, -1, dtype=np.int64)
    for cell in range(n):
        r, c = divmod(cell, width)
        for d, (dr, dc) in enumerate(STEPS):
            if 0 <= r + dr < height and 0 <= c + dc < width:
                nbr[cell * 4 + d] = (r + dr) * width + c + dc
    return Tables(home, md, nbr)


def initial_h(board: Board, t: Tables, heuristic: str) -> int:
    from .._kernels.idastar import linear_conflict_lines

    arr = np.array(board.tiles, dtype=np.int64)
    n = board.size
    h = int(sum(t.md[tile * n + cell] for cell, tile in enumerate(board.tiles) if tile))
    if heuristic == "lc":
        rows = np.zeros(board.height, np.int64)
        cols = np.zeros(board.width, np.int64)
        h += 2 * int(linear_conflict_lines(arr, t.home, board.width, board.height, rows, cols))
    return h


IterationCallback = Callable[[Iteration, bool], None]


def idastar(
    board: Board,
    *,
    goal: Goal = "standard",
    heuristic: str = "manhattan",
    order: str = "korf",
    limit: Limit | None = None,
    on_iteration: IterationCallback | None = None,
) -> Solution:
    """Optimal solution of ``board`` by IDA*.

    ``heuristic`` is ``"manhattan"`` or ``"lc"`` (Manhattan plus linear conflict); ``order`` names
    the move order (see ``ORDERS``). ``on_iteration(iteration, final)`` is called after every
    iteration (``final`` is true for the one that found the goal). With the Manhattan distance and
    the ``korf`` order, ``stats.generated`` equals the node counts of Korf (1985).
    """
    check_goal(goal)
    if heuristic not in HEURISTICS:
        raise InvalidBoardError(f"unknown heuristic {heuristic!r} for IDA*: use {', '.join(HEURISTICS)}")
    if order not in ORDERS:
        raise ValueError(f"unknown move order {order!r}: use {', '.join(ORDERS)}")
    if board.size > MAX_CELLS:
        raise InvalidBoardError(
            f"optimal search is limited to boards of at most {MAX_CELLS} cells; "
            f"a {board.height}x{board.width} board needs --method realtime"
        )
    board.require_solvable(goal)
    limit = limit or Limit()
    clock = Clock(limit)
    stats = Stats(generated=1)
    method = "idastar"
    if board.is_goal(goal):
        stats.seconds = clock.cpu()
        return solved(board, goal, (), optimal=True, stats=stats, method=method, heuristic=heuristic)

    from .._kernels.idastar import EXHAUSTED, FOUND, ida_iteration

    t = tables(board.height, board.width, goal)
    h0 = initial_h(board, t, heuristic)
    parity = board.manhattan(goal) & 1
    bound = h0 + ((h0 & 1) ^ parity)
    n, w, h = board.size, board.width, board.height
    cells = np.array(board.tiles, dtype=np.int64)
    rows = np.zeros(h, np.int64)
    cols = np.zeros(w, np.int64)
    if heuristic == "lc":
        from .._kernels.idastar import linear_conflict_lines

        linear_conflict_lines(cells, t.home, w, h, rows, cols)
    use_lc = HEURISTICS[heuristic] == 1
    succ = successors(t, n, ORDERS[order])
    big = np.iinfo(np.int64).max
    while True:
        dirs = np.zeros(bound + 2, np.int64)
        ks = np.zeros(bound + 2, np.int64)
        ks[0] = board.blank * 25
        hs = np.zeros(bound + 2, np.int64)
        saved = np.zeros(2 * (bound + 2), np.int64)
        hs[0] = h0
        ctl = np.array([0, board.blank, 0, 1, big], dtype=np.int64)
        cpu_start = clock.cpu()
        status = None
        stop = None
        try:
            while status is None or status not in (EXHAUSTED, FOUND):
                budget = config.KERNEL_SLICE_NODES
                if limit.max_nodes is not None:
                    budget = min(budget, limit.max_nodes - (stats.generated + int(ctl[2])))
                    if budget <= 0:
                        stop = NODE_LIMIT
                        break
                if clock.expired():
                    stop = TIMEOUT
                    break
                status = ida_iteration(
                    cells, t.home, t.md, succ, w, h, use_lc, bound,
                    dirs, ks, hs, rows, cols, saved, ctl, budget,
                )
        except KeyboardInterrupt:
            stop = INTERRUPTED
        it = Iteration(bound, int(ctl[2]), int(ctl[3]), clock.cpu() - cpu_start)
        stats.iterations.append(it)
        stats.generated += it.generated
        stats.expanded += it.expanded
        stats.seconds = clock.cpu()
        if stop is not None:
            return unfinished(board, goal, stop, bound, stats=stats, method=method, heuristic=heuristic)
        if on_iteration is not None:
            on_iteration(it, status == FOUND)
        if status == FOUND:
            moves = _tiles_pushed(board, dirs[: int(ctl[0])])
            return solved(board, goal, moves, optimal=True, stats=stats, method=method, heuristic=heuristic)
        if ctl[4] == big:
            raise AssertionError("IDA* exhausted a solvable position")  # parity check failed
        nxt = int(ctl[4])
        bound = nxt + ((nxt & 1) ^ parity)


def _tiles_pushed(board: Board, dirs: np.ndarray) -> tuple[int, ...]:
    tiles = list(board.tiles)
    blank = board.blank
    w = board.width
    out = []
    for d in dirs:
        dr, dc = STEPS[int(d)]
        q = blank + dr * w + dc
        out.append(tiles[q])
        tiles[blank], tiles[q] = tiles[q], 0
        blank = q
    return tuple(out)
