"""A* at the top of the tree, IDA* below it (Bu & Korf 2019's A*+IDA*).

A* runs first, storing every position it reaches, until it has generated ``top_nodes`` nodes
(or solved the board). Its open list is then the frontier: each open node is a position reached
by the shortest path A* knows, once, whatever the number of paths to it. IDA* follows,
threshold by threshold: at each threshold it searches below every frontier node whose f is
within it, in order of f and then of h (the nodes nearest the goal first), exactly as the
IDA* kernel searches a subtree (``split.run_task``, with the move automaton started afresh at
each frontier node: the move strings it prunes never reach above the node). The first solution a
threshold finds is optimal: every lower threshold was searched in full, and some open node lies
on an optimal path with its true distance from the root (the A* invariant).

What it saves over IDA* alone is the top of the tree searched again at every threshold, and the
subtrees of positions reached by more than one path down to the frontier; with the move
automaton few such positions are left (see ``docs/benchmarks.md``). With an executor of several
workers, the frontier's subtrees are shared out as ``split`` does it.

>>> from npuzzle import Board
>>> from npuzzle.search.hybrid import astar_idastar
>>> board = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))  # 31 moves
>>> solution = astar_idastar(board, heuristic="manhattan", top_nodes=1000)
>>> solution.length, solution.optimal, solution.method
(31, True, 'astar+idastar')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..arguments import exact_weight
from ..board import Board
from ..heuristics.registry import KernelHeuristic, kernel_heuristic, single
from .astar import _Search
from .best_first import directions_to
from .idastar import _warm
from .limits import NODE_LIMIT, Clock, Solution, Stats
from .problem import Problem, prepare
from .problem import run as run_problem
from .registry import Request
from .split import _BIG, Inline, Job, Leaf, Leaves, _Split

if TYPE_CHECKING:
    from .._kernels.astar import Arena

#: Nodes A* generates before IDA* takes over, by default.
TOP_NODES = 1 << 20
METHOD = "astar+idastar"


def solve_problem(problem: Problem) -> Solution:
    """A*+IDA* on a prepared problem (see ``search.problem``): A* until it has generated the
    request's ``top_nodes`` (default ``TOP_NODES``), then IDA* below its open nodes, on the
    request's executor's workers if it has any."""
    spec, board, goal = problem.heuristic, problem.start, problem.target
    assert spec is not None  # A*+IDA* takes a heuristic: prepare resolved it
    spec = single(spec)  # the A* kernel reads one partition
    request, limit, pruning = problem.request, problem.limit, problem.pruning
    top_nodes = request.top_nodes or TOP_NODES
    kh = kernel_heuristic(spec, board.height, board.width, goal)
    _warm(spec, board.height, board.width, goal, pruning)
    clock = Clock(limit)
    stats = Stats(generated=1)
    top_limit = replace(limit, max_nodes=top_nodes if limit.max_nodes is None else min(top_nodes, limit.max_nodes))
    search = _Search(board, goal, kh, exact_weight(1.0), top_limit, limit.max_memory, clock,
                     stats, request.on_iteration, request.on_progress)
    first = search.run().solution
    user_limit = limit.max_nodes is not None and stats.generated >= limit.max_nodes
    if first.solved or first.status != NODE_LIMIT or user_limit or search.arena is None:
        return replace(first, method=METHOD)  # solved by A* alone, or stopped by the caller's limits
    top = Top.of(search, kh)
    job = Job(board.tiles, board.height, board.width, goal, spec, pruning)
    run = _Split(job, top, request.executor or Inline(), limit, request.on_progress, method=METHOD, clock=clock,
                 stats=stats)
    return run.search(board, max(first.lower_bound, top.first_bound()), request.on_iteration,
                      note=f"A* stored the top of the tree: {len(top.leaves):,} open positions of "
                           f"{search.nodes:,} it reached")


def astar_idastar(board: Board, *, heuristic: str = "manhattan", top_nodes: int = TOP_NODES,
                  **options: Any) -> Solution:
    """Optimal solution of ``board`` by A*+IDA* (see the module docstring): A* until it has
    generated ``top_nodes`` nodes, then IDA* below its open nodes (on ``executor``'s workers if
    given). ``heuristic``, ``pruning`` and ``limit`` are IDA*'s; the solution is the same length
    as IDA*'s, and ``stats`` counts both parts. ``options`` are ``Request`` fields by name
    (``goal``, ``limit``, ``pruning``, ``on_iteration``, ``on_progress``, ``executor``)."""
    request = Request(heuristic=heuristic, top_nodes=top_nodes, **options)
    return run_problem(prepare(board, request, "astar+idastar"))


@dataclass
class Top:
    """A* search's open list as IDA*'s frontier: the leaves in order of f, then h, their nodes in
    A*'s arena (whose parents give the path to one), the root's blank and the neighbours."""

    leaves: Leaves
    f: np.ndarray
    nodes: np.ndarray
    arena: Arena
    root_blank: int
    nbr: np.ndarray

    @classmethod
    def of(cls, search: _Search, kh: KernelHeuristic) -> Top:
        from .._kernels.astar import DIRECTION, ROOT, open_leaves, open_nodes

        a = search.a
        stored = search.nodes
        nodes = np.empty(stored, np.int64)
        hs = np.empty(stored, np.int64)
        k = open_nodes(a.heads, a.link, a.info, 1, 1, nodes, hs)
        # No leaf is the goal: a board one move from it has h = 1, so A* generates the goal only
        # when it expands nodes of f = optimum, and then expands it next (it has the largest g).
        if k == 0 or hs[:k].min() == 0:
            raise AssertionError("A* stopped with the goal, or nothing, on its open list")
        order = np.lexsort((hs[:k], a.g[nodes[:k]] + hs[:k]))
        nodes, hs = nodes[order], hs[order]
        depths = a.g[nodes].astype(np.int64)
        boards = np.empty((k, search.board.size), np.int64)
        blanks = np.empty(k, np.int64)
        rows = np.zeros((k, kh.columns), np.int64)
        t = search.tables
        open_leaves(search.grid, search.heur, search.bits, a.keys, nodes, boards, blanks, rows)
        steps = (a.info[nodes] & DIRECTION).astype(np.int64)
        steps[steps == ROOT] = -1
        return cls(Leaves(boards, blanks, depths, steps, hs, rows), depths + hs, nodes, a, search.board.blank, t.nbr)

    def first_bound(self) -> int:
        return int(self.f[0])

    def at(self, bound: int) -> tuple[int, int, int, Leaves]:
        """Nothing above the leaves is searched again; each leaf within ``bound`` is expanded
        (counted here: the kernel counts its children)."""
        k = int(np.searchsorted(self.f, bound, side="right"))  # the leaves within it come first
        return 0, k, int(self.f[k]) - bound if k < len(self.f) else _BIG, self.leaves[:k]

    def path(self, leaves: list[Leaf] | Leaves, index: int) -> tuple[int, ...]:
        """The blank's cells from the root to leaf ``index`` (of ``at``'s leaves, which come
        first in ``self.leaves``), by A*'s parents."""
        cells, blank = [], self.root_blank
        for d in directions_to(self.arena.parent, self.arena.info, int(self.nodes[index])):
            blank = int(self.nbr[blank * 4 + d])
            cells.append(blank)
        return tuple(cells)
