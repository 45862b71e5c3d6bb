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
from .best_first import FOUND, FULL, GREW, MIN_CAPACITY, SLICE_DONE, BestFirst, Places, Run, grown, node_bytes
from .limits import (
    Clock,
    Iteration,
    Solution,
    Stats,
    found_solution,
    unfinished,
)

if TYPE_CHECKING:
    import numpy as np

    from .._kernels.costs import CostArena, Prices
    from .problem import Problem

#: Nodes generated in one kernel slice between two looks at the clock and the limits.
SLICE_NODES = 1 << 20
#: Buckets of IDA*'s histogram of pruned f (each as wide as the cheapest move).
BUCKETS = 4096


@dataclass(frozen=True)
class Model:
    """One shape, goal and cost model as the kernels read it: the model's ``name``, the ``scale``
    of its whole-number costs and the kernels' ``Prices`` (``_kernels/costs.py``: the tile costs,
    the bound table, the neighbours and a cost-aware pattern database's arrays, none: ``pat`` all -1)."""

    name: str
    scale: int
    prices: Prices

    def bound(self, board: Board) -> int:
        """The bound of ``board`` (the kernels then change it move by move)."""
        p = self.prices
        index = [0] * p.poff.shape[0]
        value = 0
        for c, t in enumerate(board.tiles):
            value += int(p.mdc[t * p.n + c])
            if t and p.pat[t] >= 0:
                index[int(p.pat[t])] += c * int(p.pw[t])
        return value + sum(int(p.pdb[int(p.poff[k]) + i]) for k, i in enumerate(index))

    def pattern_index(self, board: Board) -> np.ndarray:
        import numpy as np

        p = self.prices
        index = np.zeros(max(1, p.poff.shape[0]), np.int64)
        for c, t in enumerate(board.tiles):
            if t and p.pat[t] >= 0:
                index[p.pat[t]] += c * p.pw[t]
        return index


def model(problem: Problem, bounded: bool = True) -> Model:
    """The cost model of ``problem`` as the kernels read it (``bounded`` False: no bound,
    uniform-cost; a ``pdb`` heuristic: the cost-aware pattern database, ``heuristics.cost_pdb``)."""
    import numpy as np

    from .._kernels.costs import Prices

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
    prices = Prices(n=n, costs=costs, mdc=np.ascontiguousarray(mdc.reshape(-1), dtype=np.int64),
                    nbr=neighbours(board.height, board.width), pat=pat, pw=pw, pdb=pdb, poff=poff)
    return Model(problem.request.cost, scale, prices)


def solve_ucs(problem: Problem) -> Solution:
    """Uniform-cost search (Dijkstra's algorithm from the start): A* with no bound."""
    return _BestFirst(problem, model(problem, bounded=False), 1, 1, "ucs").run().solution


def solve_astar(problem: Problem) -> Solution:
    """A* (weighted if the request's weight is above 1) with the cost-weighted Manhattan distance."""
    w = exact_weight(problem.request.weight)
    method = "astar" if w == 1 else "weighted-astar"
    return _BestFirst(problem, model(problem), w.numerator, w.denominator, method).run().solution


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


def _arena(capacity: int) -> CostArena:
    """The best-first kernel's ``CostArena`` for ``capacity`` nodes."""
    import numpy as np

    from .._kernels.costs import CostArena

    def nodes() -> np.ndarray:
        return np.zeros(capacity, np.int64)

    def heap() -> np.ndarray:
        return np.zeros(2 * capacity, np.int64)

    return CostArena(keys=nodes(), g=nodes(), h=nodes(), parent=nodes(), closed=np.zeros(capacity, np.uint8),
                     table=np.full(1 << (2 * capacity - 1).bit_length(), -1, np.int64), hf=heap(), hg=heap(),
                     hn=heap())


class _BestFirst(BestFirst["CostArena"]):
    """A best-first search (``_kernels.costs.best_first``) under the best-first driver."""

    slice_nodes = SLICE_NODES

    def __init__(self, problem: Problem, m: Model, num: int, den: int, method: str) -> None:
        import numpy as np

        from .._kernels.costs import A_EXP, A_GEN, A_LASTF, A_NODES, A_SIZE

        limit = problem.limit
        super().__init__(problem.start, problem.target, limit, Clock(limit), Stats(), ctl=np.zeros(A_SIZE, np.int64),
                         places=Places(A_NODES, A_GEN, A_EXP, A_LASTF), method=method,
                         heuristic="none" if method == "ucs" else problem.heuristic_name,
                         on_iteration=problem.request.on_iteration, on_progress=problem.request.on_progress)
        self.problem, self.m, self.num, self.den = problem, m, num, den
        self.recorded = -1
        small = _arena(MIN_CAPACITY)
        self.per_node = node_bytes(small, small._fields, MIN_CAPACITY)  # every array grows with the nodes
        self.goal_key = 0

    def _grow(self, cap: int) -> bool:
        """Arrays for ``cap`` nodes (the nodes and the heap kept); False if that passes the memory limit."""
        import numpy as np

        from .._kernels.costs import A_HEAP, rehash

        if cap * self.per_node > self.max_memory:
            return False
        if self.arena is None:
            self.arena = _arena(cap)
            return True
        count, size = self.nodes, int(self.ctl[A_HEAP])
        a = grown(self.arena._replace(table=np.empty(0, np.int64)), ("keys", "g", "h", "parent", "closed", "hf", "hg",
                                                                      "hn"), cap,
                  lambda name: size if name.startswith("h") and name != "h" else count)
        self.arena = a = a._replace(table=np.full(1 << (2 * cap - 1).bit_length(), -1, np.int64))
        rehash(a.keys, count, a.table)
        return True

    def allocate(self) -> bool:
        import numpy as np

        from .._kernels import costs as k

        start, target = self.problem.start, self.problem.target
        if not self._grow(1024):
            return False
        a = self.arena
        assert a is not None
        h0 = self.m.bound(start)
        a.keys[0], a.g[0], a.h[0], a.parent[0] = k.pack(np.array(start.tiles, np.int64)), 0, h0, -1
        k.rehash(a.keys, 1, a.table)
        a.hf[0], a.hg[0], a.hn[0] = self.num * h0, 0, 0
        self.ctl[k.A_NODES], self.ctl[k.A_HEAP] = 1, 1
        self.goal_key = int(k.pack(np.array(Board.goal(start.height, start.width, target).tiles, np.int64)))
        return True

    def step(self, budget: int) -> int:
        from .._kernels import costs as k

        a = self.arena
        assert a is not None
        status = k.best_first(a, self.ctl, self.m.prices, self.goal_key, self.num, self.den, budget)
        self.record(False)
        if status == k.FOUND:
            return FOUND
        if status == k.FULL:
            capacity = 2 * a.keys.shape[0]
            del a
            return GREW if self._grow(capacity) else FULL
        if status == k.EXHAUSTED:
            raise AssertionError("the cost search exhausted a solvable position")
        return SLICE_DONE

    def record(self, final: bool | None) -> None:
        """An iteration for each rise of the least f expanded (seen between two slices), with the
        nodes since the last one; ``final`` when the goal is popped (None: stopped, none)."""
        from .._kernels.costs import A_EXP, A_GEN, A_LASTF

        f = int(self.ctl[A_LASTF])
        if final is None or (f <= self.recorded and not final):
            return
        its = self.stats.iterations
        if f <= self.recorded:
            its.pop()  # the last bound's, now with the nodes since
        self.recorded = f
        gen = 1 + int(self.ctl[A_GEN]) - sum(i.generated for i in its)
        exp = int(self.ctl[A_EXP]) - sum(i.expanded for i in its)
        it = Iteration(f, gen, exp, self.clock.cpu() - sum(i.seconds for i in its), kind="cost bound")
        its.append(it)
        if self.on_iteration is not None:
            self.on_iteration(it, final)

    def stopped(self, status: str) -> Run:
        bound = int(self.ctl[self.places.bound]) // self.den if self.num == self.den else 0
        sol = _stopped(self.problem, status, self.m, bound, self.stats, self.method, self.heuristic,
                       self.memory_note(status))
        return self.result(sol)

    def solved(self) -> Run:
        from .._kernels.costs import A_GOAL

        a = self.arena
        assert a is not None
        node = int(self.ctl[A_GOAL])
        total = int(a.g[node])
        path = []
        while node >= 0:
            path.append(int(a.keys[node]))
            node = int(a.parent[node])
        cells = [next(c for c in range(self.m.prices.n) if (key >> (4 * c)) & 15 == 0) for key in reversed(path)]
        moves = _moves_from_cells(self.problem.start, cells)
        w = self.num / self.den
        note = f"weighted A* with w = {w:g}: cost <= {w:g} x optimal" if self.num != self.den else ""
        return self.result(_cost_solution(self.problem, moves, self.m, total, total / self.m.scale / w,
                                          optimal=w == 1, stats=self.stats, method=self.method,
                                          heuristic=self.heuristic, note=note))


def solve_idastar(problem: Problem) -> Solution:
    """IDA* with cost thresholds and the cost-weighted Manhattan distance (see the module), run by
    IDA*'s one threshold loop (``idastar.deepen``) with the thresholds chosen here."""
    from .idastar import deepen

    ida = _Ida(problem, model(problem))
    if ida.bound == 0:
        ida.clock.stamp(ida.stats)
        return _cost_solution(problem, (), ida.m, 0, 0.0, optimal=True, stats=ida.stats, method="idastar",
                              heuristic=problem.heuristic_name)
    return deepen(ida, ida.bound, 0, problem.request.on_iteration, ida.rise)


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
    """IDA*'s iterations under a cost model, each run in slices of ``_kernels.costs.ida_slice``
    (``idastar.Thresholds``: ``idastar.deepen`` runs them)."""

    def __init__(self, problem: Problem, m: Model) -> None:
        import numpy as np

        from .._kernels.costs import I_BEST, I_SIZE, INFINITE

        self.problem, self.m = problem, m
        self.clock = Clock(problem.limit)
        self.stats = Stats()
        self.ictl = np.zeros(I_SIZE, np.int64)
        self.ictl[I_BEST] = -1
        self.infinite = int(INFINITE)
        self.cheapest = int(min(m.prices.costs[1:]))
        self.bound = m.bound(problem.start)  # proven: no path costs less
        self.hist = np.zeros(BUCKETS, np.int64)  # the last iteration's pruned f
        self.expanded = 0  # the last iteration's expanded nodes

    def threshold(self, threshold: int) -> tuple[Iteration, tuple[int, ...] | None, str | None, int]:
        """One iteration: its record, the blank's cells of the solution found (or None), the limit
        that stopped it (or None) and the least pruned f less ``threshold``."""
        import numpy as np

        from .._kernels import costs as k
        from .idastar import _BIG

        start = self.problem.start
        depth = threshold // self.cheapest + 2
        board = np.array(start.tiles, np.int64)

        def path() -> np.ndarray:
            return np.zeros(depth + 1, np.int64)

        patterns = max(1, self.m.prices.poff.shape[0])
        stack = k.CostStack(bl=path(), dirs=path(), gs=path(), hs=path(), best=path(),
                            pix=np.zeros((depth + 1) * patterns, np.int64))
        stack.bl[0], stack.hs[0] = start.blank, self.m.bound(start)
        stack.pix[:patterns] = self.m.pattern_index(start)
        self.hist = hist = np.zeros(BUCKETS, np.int64)
        ictl = self.ictl
        ictl[k.I_DEPTH], ictl[k.I_MINF], ictl[k.I_OVER] = 0, self.infinite, 0
        gen0, exp0, cpu0 = int(ictl[k.I_GEN]), int(ictl[k.I_EXP]), self.clock.cpu()
        on_progress = self.problem.request.on_progress
        status, stop = k.RUNNING, None  # type: tuple[int, str | None]
        while status == k.RUNNING:
            budget, stop = self.clock.slice_budget(self.problem.limit, 1 + int(ictl[k.I_GEN]), SLICE_NODES)
            if stop is not None:
                break
            if on_progress is not None:
                on_progress(self.clock.progress(threshold, 1 + int(ictl[k.I_GEN])))
            status = k.ida_slice(board, stack, ictl, hist, self.cheapest, self.m.prices, threshold, self.bound, budget)
        self.expanded = int(ictl[k.I_EXP]) - exp0
        it = Iteration(threshold, int(ictl[k.I_GEN]) - gen0 + (1 if not self.stats.iterations else 0),
                       self.expanded, self.clock.cpu() - cpu0, kind="cost threshold")
        if stop is not None:
            return it, None, stop, 0
        self.stats.iterations.append(it)
        if status == k.FOUND or ictl[k.I_BEST] >= 0:
            return it, tuple(int(c) for c in stack.best[1:int(ictl[k.I_BESTD]) + 1]), None, 0
        least = int(ictl[k.I_MINF])
        return it, None, None, least - threshold if least < self.infinite else _BIG

    def rise(self, threshold: int, over: int) -> int:
        """The next threshold (``next_threshold``); the least f pruned is now proven."""
        self.bound = threshold + over
        return next_threshold(self.hist, threshold + 1, self.cheapest, self.bound, max(1, self.expanded))

    def _finish_stats(self) -> None:
        from .._kernels.costs import I_EXP, I_GEN

        self.stats.generated = 1 + int(self.ictl[I_GEN])
        self.stats.expanded = int(self.ictl[I_EXP])
        self.clock.stamp(self.stats)

    def stopped(self, status: str, bound: int) -> Solution:
        """Stopped: the bound proven is the least f pruned by the last iteration done, not ``bound``."""
        self._finish_stats()
        return _stopped(self.problem, status, self.m, self.bound, self.stats, "idastar", self.problem.heuristic_name)

    def solved(self, cells: tuple[int, ...]) -> Solution:
        from .._kernels.costs import I_BEST

        self._finish_stats()
        total = int(self.ictl[I_BEST])
        start = self.problem.start
        return _cost_solution(self.problem, _moves_from_cells(start, [start.blank, *cells]), self.m, total,
                              total / self.m.scale, optimal=True, stats=self.stats, method="idastar",
                              heuristic=self.problem.heuristic_name)

    def cancel(self) -> None:
        pass
