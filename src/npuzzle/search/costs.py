"""Searches under a move-cost model (``Request.cost``, ``npuzzle.costs``): uniform-cost search
(``ucs``), A* and weighted A*, and IDA* with cost thresholds, all optimal (weighted A*: within
its weight) for the model's costs, in whole numbers (``costs.scaled``).

The bound is the cost-weighted Manhattan distance (each tile's distance times its cost: every
move of a tile costs its cost and brings it at most one step nearer home), a cost-aware additive
pattern database (``heuristics.cost_pdb``, ``heuristic="pdb:5-5-5"``), or none for ``ucs``.
IDA*'s next threshold is chosen as IDA*_CR does it (Sarkar et al. 1991): the least pruned f, or
more so that the next iteration about doubles the nodes (histogram of the pruned f), since with
fine-grained costs the least f above the last threshold would add a handful of nodes an
iteration. A goal found becomes the incumbent and prunes every f at or above its cost; an
iteration that ends with one has proven it optimal (every path of cost up to the threshold was
seen), and one of cost equal to the proven bound ends the search at once.

>>> from npuzzle import Board
>>> from npuzzle.search import Request, prepare, run
>>> s = run(prepare(Board(2, 3, (4, 1, 2, 5, 0, 3)), Request(cost="heavy"), "ucs"))
>>> s.letters, s.cost, s.cost_total
('RDLLU', 'heavy', 15.0)
>>> tile_costs("sqrt", 4).round(3).tolist()
[0.0, 1.0, 1.414, 1.732]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..arguments import exact_weight
from ..board import Board
from ..costs import scaled, tile_costs

__all__ = ["Model", "model", "next_threshold", "solve_astar", "solve_idastar", "solve_ucs", "tile_costs"]
from ..geometry import geometry, neighbours
from .limits import (
    INTERRUPTED,
    MEMORY_LIMIT,
    NODE_LIMIT,
    TIMEOUT,
    Clock,
    Iteration,
    Solution,
    Stats,
    found_solution,
    unfinished,
)

if TYPE_CHECKING:
    import numpy as np

    from .problem import Problem

#: Nodes generated in one kernel slice between two looks at the clock and the limits.
SLICE_NODES = 1 << 20
#: Buckets of IDA*'s histogram of pruned f (each as wide as the cheapest move).
BUCKETS = 4096
#: Bytes a stored node of the best-first search takes (its arrays, the hash table and the heap).
NODE_BYTES = 97


@dataclass(frozen=True)
class Model:
    """The arrays of one shape, goal and cost model: whole-number tile ``costs`` and their
    ``scale``, the bound table ``mdc``, the neighbour table, and a cost-aware pattern database's
    ``pat``, ``pw``, ``pdb`` and ``poff`` (none: ``pat`` all -1; ``_kernels/costs.py``)."""

    name: str
    n: int
    costs: np.ndarray
    scale: int
    mdc: np.ndarray
    nbr: np.ndarray
    pat: np.ndarray
    pw: np.ndarray
    pdb: np.ndarray
    poff: np.ndarray

    def bound(self, board: Board) -> int:
        """The bound of ``board`` (the kernels then change it move by move)."""
        n, index = self.n, [0] * self.poff.shape[0]
        value = 0
        for c, t in enumerate(board.tiles):
            value += int(self.mdc[t * n + c])
            if t and self.pat[t] >= 0:
                index[int(self.pat[t])] += c * int(self.pw[t])
        return value + sum(int(self.pdb[int(self.poff[p]) + i]) for p, i in enumerate(index))

    def pattern_index(self, board: Board) -> np.ndarray:
        import numpy as np

        index = np.zeros(max(1, self.poff.shape[0]), np.int64)
        for c, t in enumerate(board.tiles):
            if t and self.pat[t] >= 0:
                index[self.pat[t]] += c * self.pw[t]
        return index


def model(problem: Problem, bounded: bool = True) -> Model:
    """The cost model of ``problem`` as the kernels read it (``bounded`` False: no bound,
    uniform-cost; a ``pdb`` heuristic: the cost-aware pattern database, ``heuristics.cost_pdb``)."""
    import numpy as np

    board, spec = problem.start, problem.heuristic
    n = board.size
    whole, scale = scaled(problem.request.cost, n)
    costs = np.array(whole, dtype=np.int64)
    md = geometry(board.height, board.width, problem.target).md.reshape(n, n)  # [cell, tile]
    mdc = (md.T * costs[:, None]) if bounded else np.zeros((n, n), dtype=np.int64)
    pat, pw = np.full(n, -1, np.int64), np.zeros(n, np.int64)
    pdb, poff = np.zeros(1, np.int64), np.zeros(0, np.int64)
    if bounded and spec is not None and spec.pdb is not None:
        from ..heuristics.cost_pdb import check_partition, tables

        groups = check_partition(spec.pdb, board.height, board.width, problem.target)
        pdb, offsets = tables(spec.pdb, board.height, board.width, problem.target, problem.request.cost)
        poff = np.array(offsets, np.int64)
        for p, g in enumerate(groups):
            for i, t in enumerate(g):
                pat[t], pw[t] = p, n ** i
                mdc[t, :] = 0
    return Model(problem.request.cost, n, costs, scale, np.ascontiguousarray(mdc.reshape(-1), dtype=np.int64),
                 neighbours(board.height, board.width), pat, pw, pdb, poff)


def solve_ucs(problem: Problem) -> Solution:
    """Uniform-cost search (Dijkstra's algorithm from the start): A* with no bound."""
    return _BestFirst(problem, model(problem, bounded=False), 1, 1, "ucs").run()


def solve_astar(problem: Problem) -> Solution:
    """A* (weighted if the request's weight is above 1) with the cost-weighted Manhattan distance."""
    w = exact_weight(problem.request.weight)
    method = "astar" if w == 1 else "weighted-astar"
    return _BestFirst(problem, model(problem), w.numerator, w.denominator, method).run()


def _cost_solution(problem: Problem, moves: tuple[int, ...], m: Model, total: int, bound: float, *,
                   optimal: bool, stats: Stats, method: str, heuristic: str, note: str = "") -> Solution:
    sol = found_solution(problem.start, problem.target, moves, optimal=optimal, stats=stats, method=method,
                         heuristic=heuristic, note=note)
    return replace(sol, cost=m.name, cost_total=total / m.scale, cost_bound=bound,
                   lower_bound=problem.start.manhattan(problem.target))


def _stopped(problem: Problem, status: str, m: Model, bound: int, stats: Stats, method: str, heuristic: str,
             note: str = "") -> Solution:
    sol = unfinished(problem.start, problem.target, status, problem.start.manhattan(problem.target), stats=stats,
                     method=method, heuristic=heuristic, note=note)
    return replace(sol, cost=m.name, cost_bound=bound / m.scale)


def _moves_from_cells(board: Board, cells: list[int]) -> tuple[int, ...]:
    """The tiles pushed when the blank visits ``cells`` in turn (the first is its own cell)."""
    tiles = list(board.tiles)
    out = []
    for a, b in zip(cells, cells[1:], strict=False):
        out.append(tiles[b])
        tiles[a], tiles[b] = tiles[b], 0
    return tuple(out)


class _BestFirst:
    """A best-first search (``_kernels.costs.best_first``) run in slices, its arrays grown on demand."""

    def __init__(self, problem: Problem, m: Model, num: int, den: int, method: str) -> None:
        import numpy as np

        from .astar import default_max_memory

        self.problem, self.m, self.num, self.den, self.method = problem, m, num, den, method
        self.heuristic = "none" if method == "ucs" else problem.heuristic_name
        limit = problem.limit
        self.max_memory = limit.max_memory if limit.max_memory is not None else default_max_memory()
        self.clock = Clock(limit)
        self.stats = Stats()
        self.recorded = -1
        self.arrays: list[np.ndarray] = []
        self.heap: list[np.ndarray] = []
        self.table = np.zeros(0, np.int64)
        self.actl = np.zeros(6, np.int64)  # _kernels.costs.A_*

    def _allocate(self, cap: int, count: int) -> bool:
        """Arrays for ``cap`` nodes (the first ``count`` kept); False if that passes the memory limit."""
        import numpy as np

        from .._kernels.costs import rehash

        if cap * NODE_BYTES > self.max_memory:
            return False
        old = self.arrays or None
        arrays = [np.zeros(cap, np.int64) for _ in range(4)] + [np.zeros(cap, np.uint8)]
        heap = [np.zeros(2 * cap, np.int64) for _ in range(3)]
        if old is not None:
            for new, was in zip(arrays, old, strict=True):
                new[:count] = was[:count]
            size = int(self.actl[1])
            for new, was in zip(heap, self.heap, strict=True):
                new[:size] = was[:size]
        table = np.full(1 << (2 * cap - 1).bit_length(), -1, np.int64)
        rehash(arrays[0], count, table)
        self.arrays, self.heap, self.table = arrays, heap, table
        return True

    def run(self) -> Solution:
        import numpy as np

        from .._kernels import costs as k

        start, target = self.problem.start, self.problem.target
        h0 = self.m.bound(start)
        if not self._allocate(1024, 0):
            return self._stop(MEMORY_LIMIT)
        keys, g, h, parent, _ = self.arrays
        keys[0], g[0], h[0], parent[0] = k.pack(np.array(start.tiles, np.int64)), 0, h0, -1
        k.rehash(keys, 1, self.table)
        self.heap[0][0], self.heap[1][0], self.heap[2][0] = self.num * h0, 0, 0
        self.actl[k.A_NODES], self.actl[k.A_HEAP] = 1, 1
        goal_key = int(k.pack(np.array(Board.goal(start.height, start.width, target).tiles, np.int64)))
        try:
            return self._loop(goal_key)
        except KeyboardInterrupt:
            return self._stop(INTERRUPTED)

    def _loop(self, goal_key: int) -> Solution:
        from .._kernels import costs as k

        limit, request, actl = self.problem.limit, self.problem.request, self.actl
        most = limit.max_nodes if limit.max_nodes is not None else 1 << 62
        while True:
            if self.clock.expired():
                return self._stop(TIMEOUT)
            if request.on_progress is not None:
                request.on_progress(self.clock.progress(int(actl[k.A_LASTF]), 1 + int(actl[k.A_GEN])))
            m = self.m
            status = k.best_first(*self.arrays, self.table, *self.heap, actl, m.costs, m.mdc, m.nbr, m.n,
                                  goal_key, self.num, self.den, SLICE_NODES, most - 1, m.pat, m.pw, m.pdb, m.poff)
            self._record(False)
            if status == k.FOUND:
                return self._found(int(actl[k.A_GOAL]))
            if status == k.FULL:
                count = int(actl[k.A_NODES])
                if not self._allocate(2 * self.arrays[0].shape[0], count):
                    return self._stop(MEMORY_LIMIT)
            elif status == k.RUNNING and actl[k.A_GEN] >= most - 1:
                return self._stop(NODE_LIMIT)
            elif status == k.EXHAUSTED:
                raise AssertionError("the cost search exhausted a solvable position")

    def _record(self, final: bool) -> None:
        """An iteration for each rise of the least f expanded (seen between two slices), with the
        nodes since the last one; ``final`` when the goal is popped."""
        from .._kernels.costs import A_EXP, A_GEN, A_LASTF

        f = int(self.actl[A_LASTF])
        if f <= self.recorded and not final:
            return
        its = self.stats.iterations
        if f <= self.recorded:
            its.pop()  # the last bound's, now with the nodes since
        self.recorded = f
        gen = 1 + int(self.actl[A_GEN]) - sum(i.generated for i in its)
        exp = int(self.actl[A_EXP]) - sum(i.expanded for i in its)
        it = Iteration(f, gen, exp, self.clock.cpu() - sum(i.seconds for i in its), kind="cost bound")
        its.append(it)
        on_iteration = self.problem.request.on_iteration
        if on_iteration is not None:
            on_iteration(it, final)

    def _finish_stats(self) -> None:
        from .._kernels.costs import A_EXP, A_GEN

        self.stats.generated = 1 + int(self.actl[A_GEN])
        self.stats.expanded = int(self.actl[A_EXP])
        self.clock.stamp(self.stats)

    def _stop(self, status: str) -> Solution:
        self._finish_stats()
        bound = int(self.actl[5]) // self.den if self.num == self.den else 0
        note = f"{int(self.actl[0]):,} positions stored within the memory limit" if status == MEMORY_LIMIT else ""
        return _stopped(self.problem, status, self.m, bound, self.stats, self.method, self.heuristic, note)

    def _found(self, node: int) -> Solution:
        keys, g, _, parent, _ = self.arrays
        path = []
        while node >= 0:
            path.append(int(keys[node]))
            node = int(parent[node])
        cells = [next(c for c in range(self.m.n) if (key >> (4 * c)) & 15 == 0) for key in reversed(path)]
        moves = _moves_from_cells(self.problem.start, cells)
        self._record(True)
        self._finish_stats()
        total = int(g[int(self.actl[4])])
        w = self.num / self.den
        note = f"weighted A* with w = {w:g}: cost <= {w:g} x optimal" if self.num != self.den else ""
        return _cost_solution(self.problem, moves, self.m, total, total / self.m.scale / w, optimal=w == 1,
                              stats=self.stats, method=self.method, heuristic=self.heuristic, note=note)


def solve_idastar(problem: Problem) -> Solution:
    """IDA* with cost thresholds and the cost-weighted Manhattan distance (see the module)."""
    ida = _Ida(problem, model(problem))
    try:
        return ida.run()
    except KeyboardInterrupt:
        return ida.stop(INTERRUPTED)


def next_threshold(hist: np.ndarray, base: int, width: int, least: int, target: int) -> int:
    """The next IDA* threshold: the least pruned f ``least``, or the top of the first histogram bucket
    by which ``target`` pruned nodes (those of the last iteration) would be taken in (of the last
    bucket that holds any, if fewer were pruned).

    >>> import numpy as np
    >>> next_threshold(np.array([1, 0, 5, 9]), 10, 2, 10, 4)
    15
    """
    import numpy as np

    reached = np.nonzero(np.cumsum(hist) >= target)[0]
    if not reached.size:
        reached = np.nonzero(hist)[0][-1:]
    top = base + (int(reached[0]) + 1) * width - 1 if reached.size else least
    return max(least, top)


class _Ida:
    """IDA*'s iterations, each run in slices of ``_kernels.costs.ida_slice``."""

    def __init__(self, problem: Problem, m: Model) -> None:
        import numpy as np

        from .._kernels.costs import INFINITE

        self.problem, self.m = problem, m
        self.clock = Clock(problem.limit)
        self.stats = Stats()
        self.ictl = np.zeros(7, np.int64)
        self.ictl[4] = -1
        self.infinite = int(INFINITE)
        self.cheapest = int(min(m.costs[1:]))
        self.bound = m.bound(problem.start)  # proven: no path costs less

    def run(self) -> Solution:
        start = self.problem.start
        if self.bound == 0:
            self.clock.stamp(self.stats)
            return _cost_solution(self.problem, (), self.m, 0, 0.0, optimal=True, stats=self.stats, method="idastar",
                                  heuristic=self.problem.heuristic_name)
        threshold = self.bound
        while True:
            out = self._iteration(start, threshold)
            if isinstance(out, Solution):
                return out
            threshold = out

    def _iteration(self, start: Board, threshold: int) -> Solution | int:
        """One iteration: its solution, or the next threshold."""
        import numpy as np

        from .._kernels import costs as k

        depth = threshold // self.cheapest + 2
        board = np.array(start.tiles, np.int64)
        bl, dirs, gs, hs, best = (np.zeros(depth + 1, np.int64) for _ in range(5))
        bl[0], hs[0] = start.tiles.index(0), self.m.bound(start)
        patterns = max(1, self.m.poff.shape[0])
        pix = np.zeros((depth + 1) * patterns, np.int64)
        pix[:patterns] = self.m.pattern_index(start)
        hist = np.zeros(BUCKETS, np.int64)
        ictl, limit = self.ictl, self.problem.limit
        ictl[k.I_DEPTH], ictl[k.I_MINF], ictl[k.I_OVER] = 0, self.infinite, 0
        gen0, exp0, cpu0 = int(ictl[k.I_GEN]), int(ictl[k.I_EXP]), self.clock.cpu()
        most = limit.max_nodes if limit.max_nodes is not None else 1 << 62
        status = k.RUNNING
        while status == k.RUNNING:
            if self.clock.expired():
                return self.stop(TIMEOUT)
            if ictl[k.I_GEN] + 1 >= most:
                return self.stop(NODE_LIMIT)
            if self.problem.request.on_progress is not None:
                self.problem.request.on_progress(self.clock.progress(threshold, 1 + int(ictl[k.I_GEN])))
            budget = min(SLICE_NODES, most - 1 - int(ictl[k.I_GEN]))
            status = k.ida_slice(board, bl, dirs, gs, hs, best, ictl, hist, threshold + 1, self.cheapest,
                                 self.m.costs, self.m.mdc, self.m.nbr, threshold, self.bound, budget,
                                 self.m.pat, self.m.pw, self.m.pdb, self.m.poff, pix)
        final = status == k.FOUND or ictl[k.I_BEST] >= 0
        it = Iteration(threshold, int(ictl[k.I_GEN]) - gen0 + (1 if not self.stats.iterations else 0),
                       int(ictl[k.I_EXP]) - exp0, self.clock.cpu() - cpu0, kind="cost threshold")
        self.stats.iterations.append(it)
        if self.problem.request.on_iteration is not None:
            self.problem.request.on_iteration(it, final)
        if final:
            return self._found(start, [int(c) for c in best[:int(ictl[k.I_BESTD]) + 1]], int(ictl[k.I_BEST]))
        least = int(ictl[k.I_MINF])
        if least >= self.infinite:
            raise AssertionError("IDA* under costs exhausted a solvable position")
        self.bound = least
        return next_threshold(hist, threshold + 1, self.cheapest, least, max(1, int(ictl[k.I_EXP]) - exp0))

    def _finish_stats(self) -> None:
        self.stats.generated = 1 + int(self.ictl[1])
        self.stats.expanded = int(self.ictl[2])
        self.clock.stamp(self.stats)

    def stop(self, status: str) -> Solution:
        self._finish_stats()
        return _stopped(self.problem, status, self.m, self.bound, self.stats, "idastar", self.problem.heuristic_name)

    def _found(self, start: Board, cells: list[int], total: int) -> Solution:
        self._finish_stats()
        return _cost_solution(self.problem, _moves_from_cells(start, cells), self.m, total, total / self.m.scale,
                              optimal=True, stats=self.stats, method="idastar", heuristic=self.problem.heuristic_name)
