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

import os
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ..arguments import exact_weight
from ..board import Board, Goal
from ..geometry import geometry, tiles_from_directions
from ..heuristics.registry import KernelHeuristic, evaluate, kernel_heuristic, single
from .limits import (
    INTERRUPTED,
    MEMORY_LIMIT,
    NODE_LIMIT,
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
from .registry import REGISTRY, IterationCallback, Request

if TYPE_CHECKING:
    from .._kernels.astar import WdFind

#: Largest board A* accepts: 6 bits per cell in the packed positions.
MAX_CELLS: int = REGISTRY["astar"].max_cells or 0
#: Generated nodes per kernel call between checks of the clock and of Ctrl-C.
SLICE_NODES = 1_000_000

_DEFAULT_MEMORY = 2 << 30
_FIRST_CAPACITY = 1 << 12
_MIN_CAPACITY = 16
_MAX_CAPACITY = (1 << 31) - 8  # arena indices are int32
_MAX_G = (1 << 15) - 1  # g is int16


def default_max_memory() -> int:
    """2 GiB, or half the memory available now if that is less."""
    try:
        with open("/proc/meminfo") as f:
            kib = next(int(line.split()[1]) for line in f if line.startswith("MemAvailable:"))
        available = kib * 1024
    except (OSError, StopIteration, ValueError):
        try:
            available = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError):
            return _DEFAULT_MEMORY
    return min(_DEFAULT_MEMORY, available // 2)


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


def _mib(nbytes: int) -> str:
    return f"{nbytes / 2**20:.1f} MiB"


@dataclass
class _Arrays:
    """The kernel's arrays, grown by doubling within a memory budget."""

    words: int
    keys: np.ndarray
    g: np.ndarray
    parent: np.ndarray
    info: np.ndarray
    link: np.ndarray
    table: np.ndarray
    heads: np.ndarray
    counts: np.ndarray

    @staticmethod
    def node_bytes(words: int) -> int:
        return 8 * words + 2 + 4 + 1 + 4

    @staticmethod
    def table_size(capacity: int) -> int:
        return 2 * capacity

    @classmethod
    def arena_bytes(cls, words: int, capacity: int) -> int:
        return capacity * cls.node_bytes(words) + 4 * cls.table_size(capacity)

    @classmethod
    def largest_capacity(cls, words: int, budget: int) -> int:
        """The most nodes whose arena and half-full table fit in ``budget`` bytes."""
        return max(0, min(budget // (cls.node_bytes(words) + 8), _MAX_CAPACITY))

    @classmethod
    def allocate(cls, words: int, capacity: int, pmax: int, gmax: int) -> _Arrays:
        return cls(
            words,
            np.zeros((capacity, words), np.int64),
            np.zeros(capacity, np.int16),
            np.zeros(capacity, np.int32),
            np.zeros(capacity, np.uint8),
            np.zeros(capacity, np.int32),
            np.full(cls.table_size(capacity), -1, np.int32),
            np.full((pmax, gmax), -1, np.int32),
            np.zeros(pmax, np.int64),
        )

    @property
    def capacity(self) -> int:
        return int(self.g.shape[0])

    @property
    def bucket_bytes(self) -> int:
        return self.heads.nbytes + self.counts.nbytes

    @property
    def nbytes(self) -> int:
        return self.arena_bytes(self.words, self.capacity) + self.bucket_bytes

    def grow_arena(self, capacity: int, nodes: int) -> None:
        """Enlarge the arena to ``capacity`` nodes, one array at a time, and rebuild the table."""
        from .._kernels.astar import rehash

        for name in ("keys", "g", "parent", "info", "link"):
            old = getattr(self, name)
            new = np.zeros((capacity,) + old.shape[1:], old.dtype)
            new[:nodes] = old[:nodes]
            setattr(self, name, new)
        self.table = np.empty(0, np.int32)
        self.table = np.empty(self.table_size(capacity), np.int32)
        rehash(self.keys, self.info, nodes, self.table)

    def directions_to(self, node: int) -> list[int]:
        """The blank's directions from the root to arena node ``node`` (by its parents)."""
        dirs = []
        while self.parent[node] >= 0:
            dirs.append(int(self.info[node]) & 7)
            node = int(self.parent[node])
        return dirs[::-1]

    def grow_buckets(self, pmax: int, gmax: int) -> None:
        heads = np.full((pmax, gmax), -1, np.int32)
        p, q = self.heads.shape
        heads[:p, :q] = self.heads
        counts = np.zeros(pmax, np.int64)
        counts[:p] = self.counts
        self.heads, self.counts = heads, counts


@dataclass(frozen=True)
class AStarRun:
    """A* result with the memory it held: ``nodes`` stored in the arena, ``bytes`` of arrays, and
    ``reopened``: expanded positions reached again by a shorter path and expanded again (only
    with pattern databases, which are not consistent)."""

    solution: Solution
    nodes: int
    bytes: int
    reopened: int = 0


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
    max_memory = limit.max_memory if limit.max_memory is not None else default_max_memory()
    clock = Clock(limit)
    stats = Stats(generated=1)
    if board.is_goal(goal):
        clock.stamp(stats)
        stats.iterations.append(Iteration(0, 1, 0, stats.seconds))
        method = "astar" if w == 1 else "weighted-astar"
        return AStarRun(found_solution(board, goal, (), optimal=True, stats=stats, method=method,
                                       heuristic=spec.name), 1, 0)
    return _Search(board, goal, kh, w, limit, max_memory, clock, stats, problem.request.on_iteration,
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
    problem = prepare(board, Request(heuristic=heuristic, **options), "astar")
    runs: list[AStarRun] = []

    def framed(p: Problem) -> Solution:
        runs.append(run_framed(p))
        return runs[-1].solution

    solution = run_problem(problem, framed)
    return replace(runs[-1], solution=solution) if runs else AStarRun(solution, 0, 0)


def _wd_find(kh: KernelHeuristic) -> WdFind:
    """The kernel's ``WdFind``: the walking tables' hashed indices (placeholders if unused)."""
    from .._kernels.astar import WdFind

    if not kh.spec.wd:
        u64, i32 = np.zeros(1, np.uint64), np.zeros(1, np.int32)
        return WdFind(u64, u64, i32, u64, u64, i32)
    from ..heuristics.walking_distance import hashed_indices

    rows, cols = hashed_indices(kh.height, kh.width, kh.goal)
    return WdFind(rows.weights, rows.keys, rows.index, cols.weights, cols.keys, cols.index)


class _Search:
    """One A* search: the arrays, the kernel calls in slices, the growth and the reporting."""

    def __init__(self, board: Board, goal: Goal, kh: KernelHeuristic, weight: Fraction, limit: Limit,
                 max_memory: int, clock: Clock, stats: Stats,
                 on_iteration: IterationCallback | None, on_progress: ProgressCallback | None = None) -> None:
        from .._kernels.astar import C_BOUND, C_GOAL, C_NODES, C_OPEN, C_P, C_PARITY, CTL_SIZE, LC, Heuristic
        from .._kernels.bounds import Grid

        self.board, self.goal, self.heuristic, self.weight = board, goal, kh.spec.name, weight
        self.limit, self.max_memory, self.clock, self.stats = limit, max_memory, clock, stats
        self.on_iteration = on_iteration
        self.on_progress = on_progress
        self.method = "astar" if weight == 1 else "weighted-astar"
        self.tables = geometry(board.height, board.width, goal)
        self.kh = kh
        self.mode = kh.mode | (LC if kh.spec.lc else 0)
        self.wd_find = _wd_find(kh)
        self.grid = Grid(self.tables.home, self.tables.md, self.tables.nbr, board.width, board.height)
        self.heur = Heuristic(self.mode, kh.bounds, self.wd_find, kh.columns)
        self.h0 = evaluate(board, goal, kh.spec)
        self.bits, self.words = packing(board.size)
        self.ctl = np.zeros(CTL_SIZE, np.int64)  # the kernel's scalars (``_kernels.astar.C_*``)
        self.ctl[[C_NODES, C_OPEN, C_P, C_BOUND, C_GOAL, C_PARITY]] = (1, 1, weight.numerator * self.h0, self.h0, -1,
                                                                       self.h0 & 1)
        self.bound = self.h0  # the bound of the iteration under way
        self.mark = (0, 0, 0.0)  # generated, expanded, CPU seconds when it began
        self.arrays: _Arrays | None = None

    @property
    def a(self) -> _Arrays:
        """The arrays (once allocated)."""
        if self.arrays is None:
            raise AssertionError("A*'s arrays are used before they are allocated")
        return self.arrays

    @property
    def nodes(self) -> int:
        """The nodes in the arena."""
        from .._kernels.astar import C_NODES

        return int(self.ctl[C_NODES])

    # -- memory -------------------------------------------------------------------------------

    def _allocate(self) -> bool:
        from .._kernels.astar import ROOT, rehash

        num, den = self.weight.numerator, self.weight.denominator
        pmax = num * (2 * self.h0 + 16) + 16 * den
        # g starts below what an unweighted search reaches (2 h0 + 34, as pmax // den + 2 is then);
        # the buckets grow with longer paths. Sized by pmax alone, a weight of 300 asked for 5.8 GB
        # of buckets at once and stopped as if the memory limit had been reached.
        gmax = min(_MAX_G, pmax // den + 2, 2 * self.h0 + 34)
        buckets = pmax * gmax * 4 + pmax * 8
        capacity = min(_FIRST_CAPACITY, _Arrays.largest_capacity(self.words, self.max_memory - buckets))
        if capacity < _MIN_CAPACITY:
            return False
        try:
            a = _Arrays.allocate(self.words, capacity, pmax, gmax)
        except MemoryError:
            return False
        a.keys[0] = pack_board(self.board.tiles, self.bits, self.words)
        a.parent[0] = -1
        a.info[0] = ROOT
        a.link[0] = -1
        a.heads[num * self.h0, 0] = 0
        a.counts[num * self.h0] = 1
        rehash(a.keys, a.info, 1, a.table)
        self.arrays = a
        return True

    def _grow_arena(self) -> bool:
        a = self.a
        budget = self.max_memory - a.bucket_bytes
        capacity = min(2 * a.capacity, _Arrays.largest_capacity(self.words, budget))
        if capacity <= a.capacity:
            return False
        try:
            a.grow_arena(capacity, self.nodes)
        except MemoryError:
            return False
        return True

    def _grow_buckets(self) -> bool:
        from .._kernels.astar import C_G

        a = self.a
        pmax, gmax = a.heads.shape
        pmax, gmax = 2 * pmax, min(_MAX_G, 2 * gmax)
        if gmax <= int(self.ctl[C_G]) + 1:  # the next g does not fit in int16
            return False
        if a.arena_bytes(self.words, a.capacity) + pmax * gmax * 4 + pmax * 8 > self.max_memory:
            return False
        try:
            a.grow_buckets(pmax, gmax)
        except MemoryError:
            return False
        return True

    # -- the search ---------------------------------------------------------------------------

    def run(self) -> AStarRun:
        from .._kernels.astar import (
            C_BOUND,
            C_GENERATED,
            C_GOAL,
            FOUND,
            INCONSISTENT,
            NEED_BUCKETS,
            NEED_NODES,
            NEW_BOUND,
            SLICE_DONE,
            Arena,
            astar_slice,
        )

        if not self._allocate():
            return self._stop(MEMORY_LIMIT)
        num, den = self.weight.numerator, self.weight.denominator
        ctl = self.ctl
        try:
            while True:
                budget = SLICE_NODES
                capped = False
                if self.limit.max_nodes is not None:
                    left = self.limit.max_nodes - (self.stats.generated + int(ctl[C_GENERATED]))
                    if left <= budget:
                        budget, capped = max(left, 0), True
                if self.clock.expired():
                    return self._stop(TIMEOUT)
                if self.on_progress is not None:
                    self.on_progress(self.clock.progress(int(ctl[C_BOUND]), 1 + int(ctl[C_GENERATED])))
                a = self.a
                arena = Arena(a.keys, a.g, a.parent, a.info, a.link, a.table, a.heads, a.counts)
                status = astar_slice(self.grid, self.heur, self.bits, num, den, arena, ctl, budget)
                if status == FOUND:
                    return self._found(int(ctl[C_GOAL]))
                if status == NEW_BOUND:
                    self._record(False)
                elif status == NEED_NODES:
                    if not self._grow_arena():
                        return self._stop(MEMORY_LIMIT)
                elif status == NEED_BUCKETS:
                    if not self._grow_buckets():
                        return self._stop(MEMORY_LIMIT)
                elif status == SLICE_DONE:
                    if capped:
                        return self._stop(NODE_LIMIT)
                elif status == INCONSISTENT:
                    raise AssertionError(f"heuristic {self.heuristic} changed by more than one on a move")
                else:
                    raise AssertionError("A* exhausted a solvable position")  # parity check failed
        except KeyboardInterrupt:
            return self._stop(INTERRUPTED)

    def _record(self, final: bool | None) -> None:
        """Close the iteration of the bound proven until now (``final`` None: stopped, no callback)."""
        from .._kernels.astar import C_BOUND, C_EXPANDED, C_GENERATED

        gen, exp, cpu = int(self.ctl[C_GENERATED]), int(self.ctl[C_EXPANDED]), self.clock.cpu()
        g0, e0, c0 = self.mark
        it = Iteration(self.bound, gen - g0 + (1 if not self.stats.iterations else 0), exp - e0, cpu - c0)
        self.stats.iterations.append(it)
        self.mark = (gen, exp, cpu)
        self.bound = int(self.ctl[C_BOUND])
        if self.on_iteration is not None and final is not None:
            self.on_iteration(it, final)

    def _finish_stats(self) -> None:
        from .._kernels.astar import C_EXPANDED, C_GENERATED

        self.stats.generated = 1 + int(self.ctl[C_GENERATED])
        self.stats.expanded = int(self.ctl[C_EXPANDED])
        self.clock.stamp(self.stats)

    def _result(self, sol: Solution) -> AStarRun:
        from .._kernels.astar import C_REOPENED

        nbytes = self.arrays.nbytes if self.arrays is not None else 0
        return AStarRun(sol, self.nodes, nbytes, int(self.ctl[C_REOPENED]))

    def _stop(self, status: str) -> AStarRun:
        from .._kernels.astar import C_BOUND

        self._record(None)
        self._finish_stats()
        bound = int(self.ctl[C_BOUND])
        why = {
            TIMEOUT: "",
            NODE_LIMIT: "",
            MEMORY_LIMIT: f"{self.nodes:,} positions stored within the memory limit of {_mib(self.max_memory)}",
            INTERRUPTED: "",
        }[status]  # the limit and the bound are the outcome's: only what it does not say
        sol = unfinished(self.board, self.goal, status, bound, stats=self.stats, method=self.method,
                         heuristic=self.heuristic, note=why)
        return self._result(sol)

    def _found(self, node: int) -> AStarRun:
        from .._kernels.astar import C_BOUND

        moves = tiles_from_directions(self.board, self.a.directions_to(node))
        self._record(True)
        self._finish_stats()
        bound = int(self.ctl[C_BOUND])
        optimal = bound >= len(moves)
        note = ""
        if self.weight != 1:
            w = f"{float(self.weight):g}"
            note = f"weighted A* with w = {w}: length <= {w} x optimal"
        sol = found_solution(self.board, self.goal, moves, optimal=optimal, stats=self.stats,
                             method=self.method, heuristic=self.heuristic, note=note)
        return self._result(replace(sol, lower_bound=min(bound, len(moves))))
