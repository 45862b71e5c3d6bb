"""A* (Hart, Nilsson and Raphael 1968) and weighted A*, for every board shape.

Every position reached is kept, packed into 64-bit words (4 bits per cell up to 16 cells, 5 up
to 32, 6 up to 64 cells), in a node arena with its g, the move that reached it and its parent,
so the path is rebuilt by walking back from the goal. A hash table finds repeated positions.
Every heuristic of ``heuristics.registry`` is admissible. Manhattan distance, linear conflict,
walking distance and inversion distance, alone or combined by max, are also consistent: they
change by exactly one on every move (each component by at most one, rounded up to the parity
of the Manhattan distance, which every move flips), so a position is expanded at most once.
Pattern databases are not consistent (a move can change a table's value by 3 or more, see
``_kernels.astar``): with them a position reached again by a shorter path is expanded again
(``AStarRun.reopened`` counts it). Either way, with ``weight == 1`` the first goal expanded is
optimal. Where a heuristic's pattern databases exist only for the other goal convention, A*
solves the board turned 180 degrees, as IDA* does.

Weighted A* orders the open list by g + w * h and reopens nothing (but with pattern databases).
With a consistent heuristic (or reopening) it still expands every node with
g <= w * (its true distance), so the solution it returns is at most w times the optimum, and at
any moment the smallest open g / w + h is a proven lower bound.

Memory is bounded: the arrays grow by doubling up to ``Limit.max_memory`` (default: 2 GiB or
half the available memory, whichever is smaller); when the next growth would not fit, the
search stops with status ``memory-limit`` and the lower bound it proved. The kernel runs in
slices, so ``timeout``, ``max_nodes`` and Ctrl-C stop it cleanly in the same way.

>>> from npuzzle import Board
>>> from npuzzle.search.astar import astar
>>> board = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))  # 31 moves
>>> astar(board, heuristic="wd").length
31
>>> weighted = astar(board, heuristic="manhattan", weight=2)
>>> weighted.optimal, weighted.length <= 2 * 31
(False, True)
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ..arguments import exact_weight
from ..board import Board, Goal
from ..geometry import geometry, tiles_from_directions
from ..heuristics.registry import KernelHeuristic, evaluate, kernel_heuristic, single
from .best_first import (
    FIRST_CAPACITY,
    FOUND,
    FULL,
    GREW,
    MIN_CAPACITY,
    NEW_BOUND,
    SLICE_DONE,
    SLICE_NODES,
    BestFirst,
    Places,
    Run,
    at_goal,
    default_max_memory,
    directions_to,
    grown,
    largest_capacity,
    measured,
    node_bytes,
)
from .limits import (
    Clock,
    Limit,
    ProgressCallback,
    Solution,
    Stats,
    found_solution,
    unfinished,
)
from .problem import Problem, prepare
from .registry import REGISTRY, IterationCallback, Request

if TYPE_CHECKING:
    from .._kernels.astar import Arena, WdFind

__all__ = ["AStarRun", "MAX_CELLS", "SLICE_NODES", "astar", "default_max_memory", "pack_board", "packing",
           "run_astar", "run_framed", "solve_problem"]

#: Largest board A* accepts: 6 bits per cell in the packed positions.
MAX_CELLS: int = REGISTRY["astar"].max_cells or 0
#: A* with the memory it held (``best_first.Run``).
AStarRun = Run

_MAX_G = (1 << 15) - 1  # g is int16
#: The arena's arrays of one entry a node (or two: the seen set), grown together.
_NODE_FIELDS = ("keys", "g", "parent", "info", "link")


def packing(size: int) -> tuple[int, int]:
    """(bits per cell, 64-bit words per position) for a board of ``size`` cells."""
    bits = max(4, (size - 1).bit_length())
    per_word = 60 // bits
    return bits, -(-(size - 1) // per_word)


def pack_board(tiles: tuple[int, ...], bits: int, words: int) -> np.ndarray:
    """The packed form of ``tiles`` (cells 0..n-2; the last is implied), as the kernel keeps it."""
    per_word = 60 // bits
    key = np.zeros(words, np.int64)
    for cell, t in enumerate(tiles[:-1]):
        key[cell // per_word] |= t << ((cell % per_word) * bits)
    return key


def _arena(words: int, capacity: int, pmax: int, gmax: int) -> Arena:
    """A* kernel's ``Arena`` for ``capacity`` nodes and ``pmax`` x ``gmax`` open buckets."""
    from .._kernels.astar import Arena

    return Arena(keys=np.zeros((capacity, words), np.int64), g=np.zeros(capacity, np.int16),
                 parent=np.zeros(capacity, np.int32), info=np.zeros(capacity, np.uint8),
                 link=np.zeros(capacity, np.int32), table=np.full(2 * capacity, -1, np.int32),
                 heads=np.full((pmax, gmax), -1, np.int32), counts=np.zeros(pmax, np.int64))


def _bucket_bytes(pmax: int, gmax: int) -> int:
    return int(np.dtype(np.int32).itemsize * pmax * gmax + np.dtype(np.int64).itemsize * pmax)


def solve_problem(problem: Problem) -> Solution:
    """A* (weighted if the request's weight is above 1) on a prepared problem (see ``search.problem``)."""
    return run_framed(problem).solution


def run_framed(problem: Problem) -> AStarRun:
    """A* on the problem's start and target, with the memory it used."""
    spec, board, goal = problem.heuristic, problem.start, problem.target
    assert spec is not None  # A* takes a heuristic: prepare resolved it
    kh = kernel_heuristic(single(spec), board.height, board.width, goal)  # its kernel reads one partition
    w = exact_weight(problem.request.weight)
    limit = problem.limit
    clock = Clock(limit)
    stats = Stats(generated=1)
    if board.is_goal(goal):
        return at_goal(board, goal, clock, stats, "astar" if w == 1 else "weighted-astar", spec.name)
    return _Search(board, goal, kh, w, limit, None, clock, stats, problem.request.on_iteration,
                   problem.request.on_progress).run()


def astar(board: Board, *, heuristic: str = "manhattan", **options: Any) -> Solution:
    """Solve ``board`` by A* (optimal when ``weight == 1``) or weighted A* (f = g + weight * h);
    ``options`` are ``Request`` fields by name (``goal``, ``weight``, ``limit``, ``on_iteration``,
    ``on_progress``, ...).

    ``heuristic`` is any name ``heuristics.registry`` parses: ``"manhattan"``, ``"lc"``
    (Manhattan plus linear conflict), ``"wd"``, ``"id"``, ``"pdb:PARTITION"`` or several joined
    by ``+`` (``"wd+id"``, ``"pdb:6-6-3+wd"``). ``limit`` bounds the time, the nodes generated
    and the memory (bytes). ``on_iteration(iteration,
    final)`` is called each time the proven lower bound rises. A weighted solution's ``note``
    states its guarantee (length <= weight x optimal) and ``lower_bound`` the bound proven.
    ``on_progress(progress)`` is called between the kernel's slices (see ``limits.Progress``).

    >>> astar(Board(2, 3, (1, 2, 3, 0, 4, 5)), heuristic="lc").letters
    'LL'
    """
    return run_astar(board, heuristic=heuristic, **options).solution


def run_astar(board: Board, *, heuristic: str = "manhattan", **options: Any) -> AStarRun:
    """``astar`` with the memory it used (for benchmarks)."""
    return measured(prepare(board, Request(heuristic=heuristic, **options), "astar"), run_framed)


def _wd_find(kh: KernelHeuristic) -> WdFind:
    """The kernel's ``WdFind``: the walking tables' hashed indices (placeholders if unused)."""
    from .._kernels.astar import WdFind

    if not kh.spec.wd:
        u64, i32 = np.zeros(1, np.uint64), np.zeros(1, np.int32)
        return WdFind(u64, u64, i32, u64, u64, i32)
    from ..heuristics.walking_distance import hashed_indices

    rows, cols = hashed_indices(kh.height, kh.width, kh.goal)
    return WdFind(rows.weights, rows.keys, rows.index, cols.weights, cols.keys, cols.index)


class _Search(BestFirst["Arena"]):
    """One A* search: its arena and kernel (``_kernels.astar``) under the best-first driver."""

    slice_nodes = SLICE_NODES

    def __init__(self, board: Board, goal: Goal, kh: KernelHeuristic, weight: Fraction, limit: Limit,
                 max_memory: int | None, clock: Clock, stats: Stats,
                 on_iteration: IterationCallback | None, on_progress: ProgressCallback | None = None) -> None:
        from .._kernels.astar import (
            C_BOUND,
            C_EXPANDED,
            C_GENERATED,
            C_GOAL,
            C_NODES,
            C_OPEN,
            C_P,
            C_PARITY,
            CTL_SIZE,
            LC,
            Heuristic,
        )
        from .._kernels.bounds import Grid

        h0 = evaluate(board, goal, kh.spec)
        ctl = np.zeros(CTL_SIZE, np.int64)  # the kernel's scalars (``_kernels.astar.C_*``)
        ctl[[C_NODES, C_OPEN, C_P, C_BOUND, C_GOAL, C_PARITY]] = (1, 1, weight.numerator * h0, h0, -1, h0 & 1)
        super().__init__(board, goal, limit, clock, stats, ctl=ctl, places=Places(C_NODES, C_GENERATED, C_EXPANDED,
                                                                                  C_BOUND),
                         method="astar" if weight == 1 else "weighted-astar", heuristic=kh.spec.name,
                         max_memory=max_memory, on_iteration=on_iteration, on_progress=on_progress)
        self.weight, self.h0 = weight, h0
        self.tables = geometry(board.height, board.width, goal)
        self.kh = kh
        self.mode = kh.mode | (LC if kh.spec.lc else 0)
        self.wd_find = _wd_find(kh)
        self.grid = Grid(self.tables.home, self.tables.md, self.tables.nbr, board.width, board.height)
        self.heur = Heuristic(self.mode, kh.bounds, self.wd_find, kh.columns)
        self.bits, self.words = packing(board.size)
        self.per_node = node_bytes(_arena(self.words, MIN_CAPACITY, 1, 1), (*_NODE_FIELDS, "table"), MIN_CAPACITY)

    # -- memory -------------------------------------------------------------------------------

    def allocate(self) -> bool:
        from .._kernels.astar import ROOT, rehash

        num, den = self.weight.numerator, self.weight.denominator
        pmax = num * (2 * self.h0 + 16) + 16 * den
        # g starts below what an unweighted search reaches (2 h0 + 34, as pmax // den + 2 is then);
        # the buckets grow with longer paths. Sized by pmax alone, a weight of 300 asked for 5.8 GB
        # of buckets at once and stopped as if the memory limit had been reached.
        gmax = min(_MAX_G, pmax // den + 2, 2 * self.h0 + 34)
        capacity = min(FIRST_CAPACITY, largest_capacity(self.per_node, self.max_memory - _bucket_bytes(pmax, gmax)))
        if capacity < MIN_CAPACITY:
            return False
        try:
            a = _arena(self.words, capacity, pmax, gmax)
        except MemoryError:
            return False
        a.keys[0] = pack_board(self.board.tiles, self.bits, self.words)
        a.parent[0] = -1
        a.info[0] = ROOT
        a.link[0] = -1
        a.heads[num * self.h0, 0] = 0
        a.counts[num * self.h0] = 1
        rehash(a.keys, a.info, 1, a.table)
        self.arena = a
        return True

    def _grow_arena(self) -> bool:
        from .._kernels.astar import rehash

        a = self.a
        capacity = min(2 * a.g.shape[0], largest_capacity(self.per_node,
                                                          self.max_memory - _bucket_bytes(*a.heads.shape)))
        if capacity <= a.g.shape[0]:
            return False
        try:
            nodes = self.nodes
            self.arena = a = grown(a._replace(table=np.empty(0, np.int32)), _NODE_FIELDS, capacity, lambda _: nodes)
            self.arena = a = a._replace(table=np.empty(2 * capacity, np.int32))
        except MemoryError:
            return False
        rehash(a.keys, a.info, self.nodes, a.table)
        return True

    def _grow_buckets(self) -> bool:
        from .._kernels.astar import C_G

        a = self.a
        p, q = a.heads.shape
        pmax, gmax = 2 * p, min(_MAX_G, 2 * q)
        if gmax <= int(self.ctl[C_G]) + 1:  # the next g does not fit in int16
            return False
        if a.g.shape[0] * self.per_node + _bucket_bytes(pmax, gmax) > self.max_memory:
            return False
        try:
            heads = np.full((pmax, gmax), -1, np.int32)
            heads[:p, :q] = a.heads
            counts = np.zeros(pmax, np.int64)
            counts[:p] = a.counts
        except MemoryError:
            return False
        self.arena = a._replace(heads=heads, counts=counts)
        return True

    # -- the search ---------------------------------------------------------------------------

    def step(self, budget: int) -> int:
        from .._kernels import astar as k

        status = k.astar_slice(self.grid, self.heur, self.bits, self.weight.numerator, self.weight.denominator,
                               self.a, self.ctl, budget)
        if status == k.FOUND:
            return FOUND
        if status == k.NEW_BOUND:
            return NEW_BOUND
        if status == k.NEED_NODES:
            return GREW if self._grow_arena() else FULL
        if status == k.NEED_BUCKETS:
            return GREW if self._grow_buckets() else FULL
        if status == k.SLICE_DONE:
            return SLICE_DONE
        if status == k.INCONSISTENT:
            raise AssertionError(f"heuristic {self.heuristic} changed by more than one on a move")
        raise AssertionError("A* exhausted a solvable position")  # parity check failed

    def stopped(self, status: str) -> AStarRun:
        from .._kernels.astar import C_REOPENED

        sol = unfinished(self.board, self.goal, status, int(self.ctl[self.places.bound]), stats=self.stats,
                         method=self.method, heuristic=self.heuristic, note=self.memory_note(status))
        return self.result(sol, reopened=int(self.ctl[C_REOPENED]))

    def solved(self) -> AStarRun:
        from .._kernels.astar import C_GOAL, C_REOPENED

        a = self.a
        moves = tiles_from_directions(self.board, directions_to(a.parent, a.info, int(self.ctl[C_GOAL])))
        bound = int(self.ctl[self.places.bound])
        note = ""
        if self.weight != 1:
            w = f"{float(self.weight):g}"
            note = f"weighted A* with w = {w}: length <= {w} x optimal"
        sol = found_solution(self.board, self.goal, moves, optimal=bound >= len(moves), stats=self.stats,
                             method=self.method, heuristic=self.heuristic, note=note)
        return self.result(replace(sol, lower_bound=min(bound, len(moves))), reopened=int(self.ctl[C_REOPENED]))
