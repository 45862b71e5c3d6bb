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

from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ..arguments import exact_weight
from ..board import Board, Goal
from ..geometry import geometry, tiles_from_directions
from ..heuristics.registry import KernelHeuristic, evaluate, kernel_heuristic
from . import best_first as bf
from .astar import _wd_find, pack_board, packing
from .limits import Clock, Limit, ProgressCallback, Solution, Stats, found_solution, unfinished
from .problem import Problem, prepare
from .registry import IterationCallback, Request

if TYPE_CHECKING:
    from .._kernels.focal import FocalArena

__all__ = ["METHODS", "SLICE_NODES", "FocalRun", "focal", "run_focal", "run_framed", "solve_problem", "unit_costs"]

_HEAPS = ("fheap", "outheap", "focheap")
#: The arena's arrays that grow with it (the seen set is made again).
_GROWN = ("keys", "g", "f", "d", "parent", "info", *_HEAPS)
#: A focal search's result with what it held (``best_first.Run``).
FocalRun = bf.Run
#: Generated nodes per kernel call between checks of the clock and of Ctrl-C.
SLICE_NODES = bf.SLICE_NODES


def unit_costs(size: int) -> np.ndarray:
    """Every tile's move cost 1 (index = tile number; index 0, the blank, unused).

    >>> unit_costs(4).tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    return np.ones(size, np.float64)


def _arena(words: int, capacity: int) -> FocalArena:
    """The kernel's ``FocalArena`` for ``capacity`` nodes."""
    from .._kernels.focal import FocalArena

    nodes = np.zeros(capacity, np.int32)
    return FocalArena(keys=np.zeros((capacity, words), np.int64), g=np.zeros(capacity, np.float64),
                      f=np.zeros(capacity, np.float64), d=np.zeros(capacity, np.int16), parent=nodes.copy(),
                      info=np.zeros(capacity, np.uint8), table=np.full(2 * capacity, -1, np.int32),
                      fheap=nodes.copy(), outheap=nodes.copy(), focheap=nodes)


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
        return bf.at_goal(board, goal, clock, stats, problem.method, spec.name)
    kh = kernel_heuristic(spec, board.height, board.width, goal)
    return _Search(board, goal, kh, exact_weight(problem.request.weight), costs, limit, clock, stats,
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
    return bf.measured(prepare(board, Request(heuristic=heuristic, **options), method), run_framed)


class _Search(bf.BestFirst["FocalArena"]):
    """One focal search or DPS: its arena and kernel (``_kernels.focal``) under the best-first driver."""

    slice_nodes = SLICE_NODES

    def __init__(self, board: Board, goal: Goal, kh: KernelHeuristic, weight: Fraction, tile_cost: np.ndarray,
                 limit: Limit, clock: Clock, stats: Stats, on_iteration: IterationCallback | None,
                 on_progress: ProgressCallback | None, method: str) -> None:
        from .._kernels.astar import LC, Heuristic
        from .._kernels.bounds import Grid
        from .._kernels.focal import (
            C_BOUND,
            C_CSIZE,
            C_EXPANDED,
            C_FSIZE,
            C_GENERATED,
            C_NODES,
            C_PARITY,
            CTL_SIZE,
            F_UNIT,
            FCTL_SIZE,
        )

        unit = bool(np.all(tile_cost[1:] == 1.0))
        d0 = evaluate(board, goal, kh.spec)
        ctl = np.zeros(CTL_SIZE, np.int64)  # the kernel's scalars (``_kernels.focal.C_*``)
        ctl[[C_NODES, C_FSIZE, C_CSIZE, C_BOUND, C_PARITY]] = (1, 1, 1, d0 if unit else 0, d0 & 1)
        super().__init__(board, goal, limit, clock, stats, ctl=ctl,
                         places=bf.Places(C_NODES, C_GENERATED, C_EXPANDED, C_BOUND), method=method,
                         heuristic=kh.spec.name, on_iteration=on_iteration, on_progress=on_progress)
        self.weight, self.tile_cost, self.unit, self.d0 = weight, tile_cost, unit, d0
        tables = geometry(board.height, board.width, goal)
        self.grid = Grid(tables.home, tables.md, tables.nbr, board.width, board.height)
        self.heur = Heuristic(kh.mode | (LC if kh.spec.lc else 0), kh.bounds, _wd_find(kh), kh.columns)
        self.bits, self.words = packing(board.size)
        self.fctl = np.zeros(FCTL_SIZE, np.float64)
        self.fctl[F_UNIT] = 1.0 if unit else 0.0
        self.per_node = bf.node_bytes(_arena(self.words, bf.MIN_CAPACITY), (*_GROWN, "table"), bf.MIN_CAPACITY)

    def allocate(self) -> bool:
        from .._kernels.astar import ROOT, rehash
        from .._kernels.focal import F_BOUND

        capacity = min(bf.FIRST_CAPACITY, bf.largest_capacity(self.per_node, self.max_memory))
        if capacity < bf.MIN_CAPACITY:
            return False
        a = _arena(self.words, capacity)
        a.keys[0] = pack_board(self.board.tiles, self.bits, self.words)
        a.d[0] = self.d0
        md = self.grid.md
        wmd = sum(float(self.tile_cost[t]) * int(md[c * self.board.size + t]) for c, t in enumerate(self.board.tiles)
                  if t)
        a.f[0] = self.d0 if self.unit else max(wmd, float(self.tile_cost[1:].min()) * self.d0)
        self.fctl[F_BOUND] = a.f[0]
        a.parent[0], a.info[0] = -1, ROOT
        rehash(a.keys, a.info, 1, a.table)
        self.arena = a
        return True

    def _grow(self) -> bool:
        from .._kernels.astar import rehash
        from .._kernels.focal import C_CSIZE, C_FSIZE, C_OSIZE

        a = self.a
        capacity = min(2 * a.g.shape[0], bf.largest_capacity(self.per_node, self.max_memory))
        if capacity <= a.g.shape[0]:
            return False
        nodes = self.nodes
        sizes = dict(zip(_HEAPS, (int(self.ctl[C_FSIZE]), int(self.ctl[C_OSIZE]), int(self.ctl[C_CSIZE])),
                         strict=True))
        try:
            self.arena = a = bf.grown(a._replace(table=np.empty(0, np.int32)), _GROWN, capacity,
                                   lambda name: sizes.get(name, nodes))
            self.arena = a = a._replace(table=np.empty(2 * capacity, np.int32))
        except MemoryError:
            return False
        rehash(a.keys, a.info, nodes, a.table)
        return True

    def step(self, budget: int) -> int:
        from .._kernels import focal as k

        status = k.focal_slice(self.grid, self.heur, self.bits, self.weight.numerator, self.weight.denominator,
                               self.method == "dps", self.tile_cost, self.a, self.ctl, self.fctl, budget)
        if status == k.FOUND:
            return bf.FOUND
        if status == k.NEW_BOUND:
            return bf.NEW_BOUND
        if status == k.NEED_NODES:
            return bf.GREW if self._grow() else bf.FULL
        if status == k.SLICE_DONE:
            return bf.SLICE_DONE
        raise AssertionError(f"{self.method} exhausted a solvable position")

    def _result(self, sol: Solution, cost: float | None = None) -> FocalRun:
        from .._kernels.focal import C_REOPENED, F_BOUND

        return self.result(sol, reopened=int(self.ctl[C_REOPENED]), cost=cost, cost_bound=float(self.fctl[F_BOUND]))

    def stopped(self, status: str) -> FocalRun:
        bound = max(int(self.ctl[self.places.bound]), self.d0) if self.unit else self.d0  # else the bound is a cost
        sol = unfinished(self.board, self.goal, status, bound, stats=self.stats, method=self.method,
                         heuristic=self.heuristic, note=self.memory_note(status))
        return self._result(sol)

    def solved(self) -> FocalRun:
        from .._kernels.focal import C_GOAL, F_BOUND

        a, node = self.a, int(self.ctl[C_GOAL])
        moves = tiles_from_directions(self.board, bf.directions_to(a.parent, a.info, node))
        cost, cost_bound = float(a.g[node]), float(self.fctl[F_BOUND])
        w = f"{float(self.weight):g}"
        if self.unit:
            bound = min(int(self.ctl[self.places.bound]), len(moves))
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
