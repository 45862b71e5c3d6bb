"""The driver every best-first search shares: A*, weighted A*, uniform-cost search, focal search
and dynamic potential search, under unit and non-unit move costs alike.

A search keeps every position it reaches in a node arena (a kernel's named tuple of arrays, grown
by doubling within ``Limit.max_memory``) and runs its kernel in slices of at most
``slice_nodes`` generated nodes, so that the clock, the node limit and Ctrl-C are looked at
between two slices. The kernel keeps its scalars in ``ctl`` (an int64 array); the search names
the places of the nodes stored, generated and expanded and of the bound proven (``Places``).
What differs from one search to the next are four hooks:

- ``allocate()``: the first arena with the root in it (False: it does not fit in memory);
- ``step(budget)``: one kernel slice, the arena grown if the kernel asked for it; the outcome is
  ``FOUND``, ``NEW_BOUND`` (the proven bound rose: an iteration is recorded), ``GREW``,
  ``SLICE_DONE`` (the budget was spent) or ``FULL`` (the arena cannot grow: the memory limit);
- ``solved()`` and ``stopped(status)``: the answer, once the stats are closed.

Each run gives a ``Run``: the solution with the memory the search held.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, NamedTuple, TypeVar

import numpy as np

from ..board import Board, Goal
from . import limits
from .limits import INTERRUPTED, MEMORY_LIMIT, NODE_LIMIT, Clock, Iteration, Limit, ProgressCallback, Solution, Stats
from .problem import Problem, run
from .registry import IterationCallback

#: Generated nodes per kernel call between checks of the clock and of Ctrl-C.
SLICE_NODES = 1_000_000
#: Nodes of a first arena, the fewest worth a search, and the most an int32 index reaches.
FIRST_CAPACITY = 1 << 12
MIN_CAPACITY = 16
MAX_CAPACITY = (1 << 31) - 8

#: Outcomes of ``BestFirst.step``.
FOUND, NEW_BOUND, GREW, SLICE_DONE, FULL = range(5)

_DEFAULT_MEMORY = 2 << 30

T = TypeVar("T", bound=tuple[Any, ...])


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


@dataclass(frozen=True)
class Run:
    """A best-first search's result with what it held: ``nodes`` stored, ``bytes`` of arrays,
    ``reopened`` expanded positions reached again more cheaply and expanded again, and under move
    costs the answer's ``cost`` and ``cost_bound``, the lower bound on the optimal cost it proved
    (both in cost units, moves with unit costs)."""

    solution: Solution
    nodes: int
    bytes: int
    reopened: int = 0
    cost: float | None = None
    cost_bound: float = 0.0


def node_bytes(arena: tuple[np.ndarray, ...], fields: Sequence[str], capacity: int) -> int:
    """Bytes one node takes in the arrays ``fields`` of ``arena`` (a kernel's named tuple of
    ``capacity`` nodes; an array may hold several rows a node), from their dtypes and shapes."""
    return sum(int(getattr(arena, name).nbytes) for name in fields) // capacity


def largest_capacity(per_node: int, budget: int) -> int:
    """The most nodes of ``per_node`` bytes that fit in ``budget`` bytes (int32 indices).

    >>> largest_capacity(97, 1 << 20), largest_capacity(97, 1 << 40) == MAX_CAPACITY
    (10810, True)
    """
    return max(0, min(budget // per_node, MAX_CAPACITY))


def grown(arena: T, fields: Sequence[str], capacity: int, used: Callable[[str], int]) -> T:
    """``arena`` with each array of ``fields`` enlarged to ``capacity`` nodes (as many rows a node
    as before), one array at a time, its first ``used(name)`` rows kept."""
    old_capacity = int(getattr(arena, fields[0]).shape[0])
    for name in fields:
        old = getattr(arena, name)
        rows = old.shape[0] * capacity // old_capacity
        new = np.zeros((rows,) + old.shape[1:], old.dtype)
        keep = used(name)
        new[:keep] = old[:keep]
        arena = arena._replace(**{name: new})  # type: ignore[attr-defined]
        del old
    return arena


def directions_to(parent: np.ndarray, info: np.ndarray, node: int) -> list[int]:
    """The blank's directions from the root to arena node ``node`` (by its parents; the direction
    from the parent in bits 0-2 of ``info``)."""
    dirs = []
    while parent[node] >= 0:
        dirs.append(int(info[node]) & 7)
        node = int(parent[node])
    return dirs[::-1]


def measured(problem: Problem, search: Callable[[Problem], Run]) -> Run:
    """``search`` on ``problem`` run as every solve runs (``problem.run``: its frame, its replay),
    with what it held (for benchmarks)."""
    runs: list[Run] = []

    def framed(p: Problem) -> Solution:
        runs.append(search(p))
        return runs[-1].solution

    solution = run(problem, framed)
    return replace(runs[-1], solution=solution) if runs else Run(solution, 0, 0)


def at_goal(board: Board, goal: Goal, clock: Clock, stats: Stats, method: str, heuristic: str) -> Run:
    """The answer of a search whose start is its goal: no move, one iteration, one node."""
    clock.stamp(stats)
    stats.iterations.append(Iteration(0, 1, 0, stats.seconds))
    solution = limits.found_solution(board, goal, (), optimal=True, stats=stats, method=method, heuristic=heuristic)
    return Run(solution, 1, 0, cost=0.0)


class Places(NamedTuple):
    """Where a kernel's ``ctl`` holds the nodes stored, generated and expanded and the bound proven."""

    nodes: int
    generated: int
    expanded: int
    bound: int


class BestFirst(Generic[T]):
    """One best-first search: its arena (a kernel's named tuple ``T``), its kernel's slices, the
    limits and the reporting (see the module docstring for the hooks)."""

    slice_nodes = SLICE_NODES

    def __init__(self, board: Board, goal: Goal, limit: Limit, clock: Clock, stats: Stats, *, ctl: np.ndarray,
                 places: Places, method: str, heuristic: str, max_memory: int | None = None,
                 on_iteration: IterationCallback | None = None, on_progress: ProgressCallback | None = None) -> None:
        self.board, self.goal, self.method, self.heuristic = board, goal, method, heuristic
        self.ctl, self.places = ctl, places  # the kernel's scalars and where its counts are
        self.limit, self.clock, self.stats = limit, clock, stats
        self.max_memory = max_memory if max_memory is not None else (
            limit.max_memory if limit.max_memory is not None else default_max_memory())
        self.on_iteration, self.on_progress = on_iteration, on_progress
        self.bound = int(ctl[places.bound])
        self.arena: T | None = None  # the bound of the iteration under way
        self.mark = (0, 0, 0.0)  # generated, expanded, CPU seconds when it began

    # -- hooks ---------------------------------------------------------------------------------

    def allocate(self) -> bool:
        raise NotImplementedError

    def step(self, budget: int) -> int:
        raise NotImplementedError

    def solved(self) -> Run:
        raise NotImplementedError

    def stopped(self, status: str) -> Run:
        raise NotImplementedError

    @property
    def a(self) -> T:
        """The arena (once allocated)."""
        if self.arena is None:
            raise AssertionError(f"{self.method}'s arrays are used before they are allocated")
        return self.arena

    # -- the driver ----------------------------------------------------------------------------

    @property
    def nodes(self) -> int:
        """The nodes in the arena."""
        return int(self.ctl[self.places.nodes])

    @property
    def generated(self) -> int:
        return int(self.ctl[self.places.generated])

    def run(self) -> Run:
        if not self.allocate():
            return self._stop(MEMORY_LIMIT)
        try:
            while True:
                generated = 1 + self.generated  # the root counts
                budget, stop = self.clock.slice_budget(self.limit, generated, self.slice_nodes)
                if stop == limits.TIMEOUT:
                    return self._stop(stop)
                # At the node limit the kernel still runs, with no budget: it may find the goal at the
                # top of its open list, or raise the bound, before it would expand a node.
                capped = self.limit.max_nodes is not None and generated + budget >= self.limit.max_nodes
                if self.on_progress is not None:
                    self.on_progress(self.clock.progress(int(self.ctl[self.places.bound]), generated))
                outcome = self.step(budget)
                if outcome == FOUND:
                    self.record(True)
                    self._close()
                    return self.solved()
                if outcome == NEW_BOUND:
                    self.record(False)
                elif outcome == FULL:
                    return self._stop(MEMORY_LIMIT)
                elif outcome == SLICE_DONE and capped:
                    return self._stop(NODE_LIMIT)
        except KeyboardInterrupt:
            return self._stop(INTERRUPTED)

    def record(self, final: bool | None) -> None:
        """Close the iteration of the bound proven until now (``final`` None: stopped, no callback)."""
        gen, exp, cpu = self.generated, int(self.ctl[self.places.expanded]), self.clock.cpu()
        g0, e0, c0 = self.mark
        it = Iteration(self.bound, gen - g0 + (1 if not self.stats.iterations else 0), exp - e0, cpu - c0)
        self.stats.iterations.append(it)
        self.mark = (gen, exp, cpu)
        self.bound = int(self.ctl[self.places.bound])
        if self.on_iteration is not None and final is not None:
            self.on_iteration(it, final)

    def _close(self) -> None:
        self.stats.generated = 1 + self.generated
        self.stats.expanded = int(self.ctl[self.places.expanded])
        self.clock.stamp(self.stats)

    def _stop(self, status: str) -> Run:
        self.record(None)
        self._close()
        return self.stopped(status)

    def memory_note(self, status: str) -> str:
        """What a stopped search's outcome does not say: at the memory limit, what it held."""
        if status != MEMORY_LIMIT:
            return ""
        return f"{self.nodes:,} positions stored within the memory limit of {self.max_memory / 2**20:.1f} MiB"

    def result(self, solution: Solution, *, reopened: int = 0, cost: float | None = None,
               cost_bound: float = 0.0) -> Run:
        nbytes = sum(int(a.nbytes) for a in self.arena) if self.arena is not None else 0
        return Run(solution, self.nodes, nbytes, reopened, cost, cost_bound)
