"""Focal search (A*_epsilon, Pearl and Kim 1982) and dynamic potential search (Gilon, Felner and
Stern 2016): bounded-suboptimal, with the bound they proved.

Given a bound ``weight`` = w >= 1, the search keeps OPEN ordered by f = g + h and expands, among
the open nodes with f <= w * f_min (FOCAL), the one nearest the goal by the distance-to-go
estimate d (the heuristic in moves; Thayer and Ruml's d, which with non-unit move costs is not
h), so it heads for the goal as greedily as the bound allows. Positions reached again by a
cheaper path are reopened, so f_min never exceeds the optimum: the answer costs at most w times
the optimum, and the largest f_min seen is a lower bound on the optimum, which the solution
reports (``lower_bound``, and ``ratio``: how far from optimal the answer is proven to be, often
much less than w). With w = 1 FOCAL is the open nodes of least f and the answer is optimal.

Dynamic potential search (``dps``) expands instead the open node of greatest potential
(w * f_min - g) / h: the node most likely to lead to a solution within the bound (Stern, Puzis
and Felner 2011's potential, with the bound made dynamic). Its order changes whenever f_min
does, so the kernel rebuilds its heap then (a few times a search with unit costs). Both are
here because they behave very differently on the tiles (``docs/benchmarks.md``, "Focal search
and DPS"): focal search is the textbook bounded-suboptimal search but its greedy order by d
leaves f_min, the bound, where it started and wanders among long paths; DPS, like weighted A*,
keeps g in its order.

Move costs: ``tile_cost`` (float64, index = tile, index 0 unused; all ones by default: the
number of moves) gives each tile's cost per move; g, h and f are in those units (see
``_kernels.focal``). Limits (``timeout``, ``max_nodes``, ``max_memory``) and Ctrl-C stop it between
the kernel's slices with the lower bound proven so far, as A* does.

>>> from npuzzle import Board
>>> board = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))  # 31 moves
>>> focal(board, heuristic="lc").length
31
>>> s = focal(board, heuristic="manhattan", weight=2)
>>> s.length <= 2 * 31, s.lower_bound <= 31, s.method
(True, True, 'focal')
>>> s = focal(board, heuristic="lc", weight=1.5, method="dps")
>>> s.length <= 1.5 * 31, s.method
(True, 'dps')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from ..arguments import exact_weight
from ..board import Board, Goal
from ..geometry import geometry, tiles_from_directions
from ..heuristics.registry import KernelHeuristic, evaluate, kernel_heuristic
from .astar import _wd_find, default_max_memory, pack_board, packing
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
from .registry import IterationCallback, Request

#: Generated nodes per kernel call between checks of the clock and of Ctrl-C.
SLICE_NODES = 1_000_000

_FIRST_CAPACITY = 1 << 12
_MIN_CAPACITY = 16
_MAX_CAPACITY = (1 << 31) - 8  # arena indices are int32
_HEAPS = ("fheap", "outheap", "focheap")
_ARENA = ("keys", "g", "f", "d", "parent", "info", *_HEAPS)


def unit_costs(size: int) -> np.ndarray:
    """Every tile's move cost 1 (index = tile number; index 0, the blank, unused).

    >>> unit_costs(4).tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    return np.ones(size, np.float64)


@dataclass
class _Arrays:
    """The kernel's ``FocalArena`` arrays, grown by doubling within a memory budget."""

    keys: np.ndarray
    g: np.ndarray
    f: np.ndarray
    d: np.ndarray
    parent: np.ndarray
    info: np.ndarray
    table: np.ndarray
    fheap: np.ndarray
    outheap: np.ndarray
    focheap: np.ndarray

    @staticmethod
    def node_bytes(words: int) -> int:
        """keys, g, f, d, parent, info, two table slots and a place in each of the three heaps."""
        return 8 * words + 8 + 8 + 2 + 4 + 1 + 8 + 12

    @classmethod
    def largest_capacity(cls, words: int, budget: int) -> int:
        return max(0, min(budget // cls.node_bytes(words), _MAX_CAPACITY))

    @classmethod
    def allocate(cls, words: int, capacity: int) -> _Arrays:
        return cls(np.zeros((capacity, words), np.int64), np.zeros(capacity, np.float64),
                   np.zeros(capacity, np.float64), np.zeros(capacity, np.int16), np.zeros(capacity, np.int32),
                   np.zeros(capacity, np.uint8), np.full(2 * capacity, -1, np.int32),
                   np.zeros(capacity, np.int32), np.zeros(capacity, np.int32), np.zeros(capacity, np.int32))

    @property
    def capacity(self) -> int:
        return int(self.g.shape[0])

    @property
    def nbytes(self) -> int:
        return sum(int(getattr(self, name).nbytes) for name in (*_ARENA, "table"))

    def grow(self, capacity: int, nodes: int, heap_sizes: tuple[int, int, int]) -> None:
        """Enlarge every array to ``capacity`` nodes, one at a time, and rebuild the seen set."""
        from .._kernels.astar import rehash

        for name in _ARENA:
            old = getattr(self, name)
            used = heap_sizes[_HEAPS.index(name)] if name in _HEAPS else nodes
            new = np.zeros((capacity,) + old.shape[1:], old.dtype)
            new[:used] = old[:used]
            setattr(self, name, new)
        self.table = np.empty(0, np.int32)
        self.table = np.empty(2 * capacity, np.int32)
        rehash(self.keys, self.info, nodes, self.table)

    def directions_to(self, node: int) -> list[int]:
        """The blank's directions from the root to arena node ``node`` (by its parents)."""
        dirs = []
        while self.parent[node] >= 0:
            dirs.append(int(self.info[node]) & 7)
            node = int(self.parent[node])
        return dirs[::-1]

    def cost_to(self, node: int) -> float:
        return float(self.g[node])


@dataclass(frozen=True)
class FocalRun:
    """A focal search's result with what it held: ``nodes`` stored, ``bytes`` of arrays,
    ``reopened`` expanded positions reached again more cheaply, ``cost`` of the answer and
    ``cost_bound``, the lower bound on the optimal cost it proved (the largest f_min; both in
    cost units, moves with unit costs)."""

    solution: Solution
    nodes: int
    bytes: int
    reopened: int = 0
    cost: float | None = None
    cost_bound: float = 0.0


#: The methods of this module.
METHODS = ("focal", "dps")


def solve_problem(problem: Problem) -> Solution:
    """Focal search or DPS (``problem.method``) on a prepared problem (see ``search.problem``),
    under its cost model (``Request.cost``: each tile's cost per move, ``costs.tile_costs``; a
    problem under a cost model has no frame, so the tiles keep their numbers)."""
    cost = problem.request.cost
    if cost == "unit":
        return run_framed(problem).solution
    from ..costs import tile_costs

    assert problem.frame is None  # prepare takes cost models for the goal conventions only
    run = run_framed(problem, tile_costs(cost, problem.start.size))
    solved = run.solution.solved
    return replace(run.solution, cost=cost, cost_total=run.cost if solved else None, cost_bound=run.cost_bound)


def run_framed(problem: Problem, tile_cost: np.ndarray | None = None) -> FocalRun:
    """Focal search on the problem's start and target; ``tile_cost`` in the target's tile numbers."""
    spec, board, goal = problem.heuristic, problem.start, problem.target
    assert spec is not None  # focal search takes a heuristic: prepare resolved it
    costs = unit_costs(board.size) if tile_cost is None else np.asarray(tile_cost, np.float64)
    if costs.shape != (board.size,) or not bool(np.all(costs[1:] > 0)):
        raise ValueError(f"tile_cost must hold {board.size} costs above 0, one per tile number")
    limit = problem.limit
    clock = Clock(limit)
    stats = Stats(generated=1)
    if board.is_goal(goal):
        clock.stamp(stats)
        stats.iterations.append(Iteration(0, 1, 0, stats.seconds))
        return FocalRun(found_solution(board, goal, (), optimal=True, stats=stats, method=problem.method,
                                       heuristic=spec.name), 1, 0, cost=0.0)
    kh = kernel_heuristic(spec, board.height, board.width, goal)
    max_memory = limit.max_memory if limit.max_memory is not None else default_max_memory()
    return _Search(board, goal, kh, exact_weight(problem.request.weight), costs, limit, max_memory, clock, stats,
                   problem.request.on_iteration, problem.request.on_progress, problem.method).run()


def focal(board: Board, *, heuristic: str = "manhattan", method: str = "focal", **options: Any) -> Solution:
    """Solve ``board`` by focal search (or ``method="dps"``, dynamic potential search): at most
    ``weight`` times the optimum (optimal when ``weight == 1``), with the lower bound proven in
    ``lower_bound``. ``heuristic``, ``limit`` and the callbacks are as ``astar.astar``'s (the
    ``options`` are ``Request`` fields by name).

    >>> focal(Board(2, 3, (1, 2, 3, 0, 4, 5)), heuristic="lc", weight=3).letters
    'LL'
    """
    return run_focal(board, heuristic=heuristic, method=method, **options).solution


def run_focal(board: Board, *, heuristic: str = "manhattan", method: str = "focal", **options: Any) -> FocalRun:
    """``focal`` with what it held (for benchmarks)."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    problem = prepare(board, Request(heuristic=heuristic, **options), method)
    runs: list[FocalRun] = []

    def framed(p: Problem) -> Solution:
        runs.append(run_framed(p))
        return runs[-1].solution

    solution = run_problem(problem, framed)
    return replace(runs[-1], solution=solution) if runs else FocalRun(solution, 0, 0)


class _Search:
    """One focal search: the arrays, the kernel calls in slices, the growth and the reporting."""

    def __init__(self, board: Board, goal: Goal, kh: KernelHeuristic, weight: Fraction, tile_cost: np.ndarray,
                 limit: Limit, max_memory: int, clock: Clock, stats: Stats,
                 on_iteration: IterationCallback | None, on_progress: ProgressCallback | None, method: str) -> None:
        from .._kernels.astar import LC, Heuristic
        from .._kernels.bounds import Grid
        from .._kernels.focal import C_BOUND, C_CSIZE, C_FSIZE, C_NODES, C_PARITY, CTL_SIZE, F_UNIT, FCTL_SIZE

        self.board, self.goal, self.heuristic, self.weight = board, goal, kh.spec.name, weight
        self.method = method
        self.tile_cost, self.unit = tile_cost, bool(np.all(tile_cost[1:] == 1.0))
        self.limit, self.max_memory, self.clock, self.stats = limit, max_memory, clock, stats
        self.on_iteration, self.on_progress = on_iteration, on_progress
        tables = geometry(board.height, board.width, goal)
        self.grid = Grid(tables.home, tables.md, tables.nbr, board.width, board.height)
        self.heur = Heuristic(kh.mode | (LC if kh.spec.lc else 0), kh.bounds, _wd_find(kh), kh.columns)
        self.d0 = evaluate(board, goal, kh.spec)
        self.bits, self.words = packing(board.size)
        self.ctl = np.zeros(CTL_SIZE, np.int64)  # the kernel's scalars (``_kernels.focal.C_*``)
        self.ctl[[C_NODES, C_FSIZE, C_CSIZE, C_BOUND, C_PARITY]] = (1, 1, 1, self.d0 if self.unit else 0,
                                                                     self.d0 & 1)
        self.fctl = np.zeros(FCTL_SIZE, np.float64)
        self.fctl[F_UNIT] = 1.0 if self.unit else 0.0
        self.bound = int(self.ctl[C_BOUND])  # the bound of the iteration under way
        self.mark = (0, 0, 0.0)  # generated, expanded, CPU seconds when it began
        self.arrays: _Arrays | None = None

    @property
    def a(self) -> _Arrays:
        if self.arrays is None:
            raise AssertionError(f"{self.method}'s arrays are used before they are allocated")
        return self.arrays

    def _allocate(self) -> bool:
        from .._kernels.astar import ROOT, rehash
        from .._kernels.focal import F_BOUND

        capacity = min(_FIRST_CAPACITY, _Arrays.largest_capacity(self.words, self.max_memory))
        if capacity < _MIN_CAPACITY:
            return False
        a = _Arrays.allocate(self.words, capacity)
        a.keys[0] = pack_board(self.board.tiles, self.bits, self.words)
        a.d[0] = self.d0
        md = self.grid.md
        wmd = sum(float(self.tile_cost[t]) * int(md[c * self.board.size + t]) for c, t in enumerate(self.board.tiles)
                  if t)
        a.f[0] = self.d0 if self.unit else max(wmd, float(self.tile_cost[1:].min()) * self.d0)
        self.fctl[F_BOUND] = a.f[0]
        a.parent[0], a.info[0] = -1, ROOT
        rehash(a.keys, a.info, 1, a.table)
        self.arrays = a
        return True

    def _grow(self) -> bool:
        from .._kernels.focal import C_CSIZE, C_FSIZE, C_NODES, C_OSIZE

        a = self.a
        capacity = min(2 * a.capacity, _Arrays.largest_capacity(self.words, self.max_memory))
        if capacity <= a.capacity:
            return False
        sizes = (int(self.ctl[C_FSIZE]), int(self.ctl[C_OSIZE]), int(self.ctl[C_CSIZE]))
        try:
            a.grow(capacity, int(self.ctl[C_NODES]), sizes)
        except MemoryError:
            return False
        return True

    def run(self) -> FocalRun:
        from .._kernels.focal import (
            C_BOUND,
            C_GENERATED,
            C_GOAL,
            FOUND,
            NEED_NODES,
            NEW_BOUND,
            SLICE_DONE,
            FocalArena,
            focal_slice,
        )

        if not self._allocate():
            return self._stop(MEMORY_LIMIT)
        num, den = self.weight.numerator, self.weight.denominator
        ctl = self.ctl
        try:
            while True:
                budget, capped = SLICE_NODES, False
                if self.limit.max_nodes is not None:
                    left = self.limit.max_nodes - (self.stats.generated + int(ctl[C_GENERATED]))
                    if left <= budget:
                        budget, capped = max(left, 0), True
                if self.clock.expired():
                    return self._stop(TIMEOUT)
                if self.on_progress is not None:
                    self.on_progress(self.clock.progress(int(ctl[C_BOUND]), 1 + int(ctl[C_GENERATED])))
                a = self.a
                arena = FocalArena(a.keys, a.g, a.f, a.d, a.parent, a.info, a.table, a.fheap, a.outheap, a.focheap)
                status = focal_slice(self.grid, self.heur, self.bits, num, den, self.method == "dps", self.tile_cost,
                                     arena, ctl, self.fctl, budget)
                if status == FOUND:
                    return self._found(int(ctl[C_GOAL]))
                if status == NEW_BOUND:
                    self._record(False)
                elif status == NEED_NODES:
                    if not self._grow():
                        return self._stop(MEMORY_LIMIT)
                elif status == SLICE_DONE:
                    if capped:
                        return self._stop(NODE_LIMIT)
                else:
                    raise AssertionError(f"{self.method} exhausted a solvable position")
        except KeyboardInterrupt:
            return self._stop(INTERRUPTED)

    def _record(self, final: bool | None) -> None:
        """Close the iteration of the bound proven until now (``final`` None: stopped, no callback)."""
        from .._kernels.focal import C_BOUND, C_EXPANDED, C_GENERATED

        gen, exp, cpu = int(self.ctl[C_GENERATED]), int(self.ctl[C_EXPANDED]), self.clock.cpu()
        g0, e0, c0 = self.mark
        it = Iteration(self.bound, gen - g0 + (1 if not self.stats.iterations else 0), exp - e0, cpu - c0)
        self.stats.iterations.append(it)
        self.mark = (gen, exp, cpu)
        self.bound = int(self.ctl[C_BOUND])
        if self.on_iteration is not None and final is not None:
            self.on_iteration(it, final)

    def _finish_stats(self) -> None:
        from .._kernels.focal import C_EXPANDED, C_GENERATED

        self.stats.generated = 1 + int(self.ctl[C_GENERATED])
        self.stats.expanded = int(self.ctl[C_EXPANDED])
        self.clock.stamp(self.stats)

    def _result(self, sol: Solution, cost: float | None = None) -> FocalRun:
        from .._kernels.focal import C_NODES, C_REOPENED, F_BOUND

        nbytes = self.arrays.nbytes if self.arrays is not None else 0
        return FocalRun(sol, int(self.ctl[C_NODES]), nbytes, int(self.ctl[C_REOPENED]), cost,
                        float(self.fctl[F_BOUND]))

    def _stop(self, status: str) -> FocalRun:
        from .._kernels.focal import C_BOUND, C_NODES

        self._record(None)
        self._finish_stats()
        why = (f"{int(self.ctl[C_NODES]):,} positions stored within the memory limit of "
               f"{self.max_memory / 2**20:.1f} MiB") if status == MEMORY_LIMIT else ""
        moves_bound = max(int(self.ctl[C_BOUND]), self.d0) if self.unit else self.d0  # else C_BOUND is a cost
        sol = unfinished(self.board, self.goal, status, moves_bound,
                         stats=self.stats, method=self.method, heuristic=self.heuristic, note=why)
        return self._result(sol)

    def _found(self, node: int) -> FocalRun:
        from .._kernels.focal import C_BOUND, F_BOUND

        moves = tiles_from_directions(self.board, self.a.directions_to(node))
        self._record(True)
        self._finish_stats()
        cost, cost_bound = self.a.cost_to(node), float(self.fctl[F_BOUND])
        w = f"{float(self.weight):g}"
        if self.unit:
            bound = min(int(self.ctl[C_BOUND]), len(moves))
            optimal = bound >= len(moves)
            proven = f"the optimum is at least {bound} moves"
        else:
            bound, optimal = self.d0, cost <= cost_bound
            proven = f"cost {cost:g}, the optimal cost is at least {cost_bound:g}"
        name = "focal search" if self.method == "focal" else "DPS"
        note = f"{name} with w = {w}: {'length' if self.unit else 'cost'} <= {w} x optimal; {proven}"
        sol = found_solution(self.board, self.goal, moves, optimal=optimal, stats=self.stats, method=self.method,
                             heuristic=self.heuristic, note=note)
        return self._result(replace(sol, lower_bound=bound), cost)
