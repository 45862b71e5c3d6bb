"""One IDA* search on many processes: the tree split into subtrees at a frontier, handed out
threshold by threshold (after Reinefeld & Schnecke's AIDA*).

The frontier is every path of ``depth`` moves from the root that the serial search would take:
the same move order, the same parent or automaton pruning (so paths the automaton knows to be
duplicates are left out, as in the serial search), each leaf with the automaton's state at its
end. For a threshold, the leaves whose path stays within it are the units of work (``Task``):
a worker's kernel (``_kernels.idastar.ida_leaves``) searches each leaf's subtree from depth 0
of its stack with the threshold less the leaf's depth, starting from the leaf's bound, automaton
state and last step, so it explores exactly the subtree the serial iteration would. The path to
a leaf is looked up (``Tree.path``) only for the leaf whose subtree holds a solution. The
next threshold is the smallest f that exceeded this one, over the frontier's own cut nodes and
every subtree; the first solution found in a threshold is optimal (every lower threshold was
searched in full). So an iteration that finds nothing counts the serial iteration's nodes
exactly; the last one stops when any worker finds a solution, and may count fewer or more.

``Executor`` is how tasks reach workers: ``Pool`` runs them on this machine's cores (processes
forked after the kernels and tables are loaded, so they share the tables' pages);
``npuzzle.cluster`` sends the same tasks to a Dask cluster. ``run_task`` is the worker's side:
it needs only the task (a few hundred bytes) and finds the tables in its own store.

Run here on ``Inline`` (the tasks one after another in this process), the search finds what the
serial IDA* finds:

>>> from npuzzle import Board
>>> from npuzzle.search.split import Inline, split_idastar
>>> board = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))  # 31 moves
>>> solution = split_idastar(board, Inline(), heuristic="manhattan")
>>> solution.length, solution.optimal, board.apply(solution.moves).is_goal()
(31, True, True)
"""

from __future__ import annotations

import dataclasses
import functools
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from ..board import Board, Goal
from ..errors import InvalidOptionError
from ..geometry import geometry, tiles_from_cells
from ..heuristics.linear_conflict import line_tables
from ..heuristics.registry import Spec, evaluate, kernel_heuristic
from .idastar import _fsm_tables, _warm, deepen, shape_arrays
from .idastar import solve_problem as serial
from .limits import (
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
from .registry import Request

#: Leaves the frontier aims at per worker (more evens the load; each costs a kernel call).
LEAVES_PER_WORKER = 64
#: The frontier never goes deeper than this (nor to within 2 moves of the first threshold).
MAX_DEPTH = 16
#: Leaves in one task, at least; and tasks a worker gets per threshold, at most (each task costs
#: a Dask client about 3 ms of CPU, which the workers' cores lose).
TASK_LEAVES = 8
TASKS_PER_WORKER = 16
_BIG = int(np.iinfo(np.int64).max)


@dataclass(frozen=True)
class Job:
    """What identifies a search for the workers: its root, goal, bound's name, pruning and order."""

    tiles: tuple[int, ...]
    height: int
    width: int
    goal: Goal
    heuristic: Spec
    pruning: str
    order: str = "korf"


@dataclass(frozen=True)
class Leaf:
    """A frontier node: the blank's cells from the root (``blanks[0]``) to it, the board there,
    the step that brought the blank (0-3), the heuristic value and the kernel's component row
    (the automaton's state in it)."""

    blanks: tuple[int, ...]
    tiles: tuple[int, ...]
    step: int
    h: int
    row: tuple[int, ...]


@dataclass(frozen=True)
class Leaves:
    """Leaves as arrays, row i a leaf (as ``Leaf`` has it): its board, the blank's cell, its
    depth, the step that brought the blank (-1 at the root), h and the component row. Slicing
    gives the rows' views."""

    boards: np.ndarray
    blanks: np.ndarray
    depths: np.ndarray
    steps: np.ndarray
    hs: np.ndarray
    rows: np.ndarray

    def __len__(self) -> int:
        return len(self.depths)

    def __getitem__(self, rows: slice) -> Leaves:
        return Leaves(self.boards[rows], self.blanks[rows], self.depths[rows], self.steps[rows], self.hs[rows],
                      self.rows[rows])

    @classmethod
    def of(cls, leaves: tuple[Leaf, ...], cells: int, columns: int) -> Leaves:
        k = len(leaves)

        def column(values: list[int]) -> np.ndarray:
            return np.array(values, np.int64)

        return cls(np.array([leaf.tiles for leaf in leaves], np.int64).reshape(k, cells),
                   column([leaf.blanks[-1] for leaf in leaves]), column([len(leaf.blanks) - 1 for leaf in leaves]),
                   column([leaf.step for leaf in leaves]), column([leaf.h for leaf in leaves]),
                   np.array([leaf.row for leaf in leaves], np.int64).reshape(k, columns))


@dataclass(frozen=True)
class Task:
    """Some leaves' subtrees at one threshold, the first being leaf ``first`` of the threshold's;
    ``deadline`` is a wall-clock time (``time.time``)."""

    job: Job
    bound: int
    leaves: tuple[Leaf, ...] | Leaves
    deadline: float | None = None
    first: int = 0


@dataclass(frozen=True)
class Outcome:
    """A task's result: nodes, the smallest excess of f over the bound met (``_BIG`` if none),
    the blank's cells of a solution from its leaf on (or None) and that leaf's number in the
    threshold (``Task.first`` counted), CPU seconds, and whether the deadline stopped it before
    the end."""

    generated: int
    expanded: int
    min_over: int
    found: tuple[int, ...] | None
    cpu_seconds: float
    timed_out: bool = False
    leaf: int = -1


class Executor(Protocol):
    """Runs tasks somewhere and yields their outcomes as they finish; ``cancel`` drops the rest.
    ``imap`` runs a function over items there, the results in the items' order."""

    workers: int

    def run(self, tasks: list[Task]) -> Iterator[Outcome]: ...

    def imap(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]: ...

    def cancel(self) -> None: ...


# -- the worker's side --------------------------------------------------------------------------


@dataclass
class _Context:
    """A worker's kernel and arguments for one job (made once per job and process)."""

    leaves: Any
    shape: Any
    lines: Any
    bounds: Any
    fsm: np.ndarray
    columns: int
    start: Callable[[Board], tuple[np.ndarray, int]]


@functools.lru_cache(maxsize=4)
def _context(job: Job) -> _Context:
    from .._kernels.idastar import leaves

    h, w = job.height, job.width
    shape = shape_arrays(h, w, job.goal, job.order)
    lt = line_tables(h, w, job.goal, job.heuristic.lc)
    kh = kernel_heuristic(job.heuristic, h, w, job.goal)
    fsm_mode, fsm = _fsm_tables(h, w, job.pruning)
    if kh.spec.extended:
        start = kh.start
    else:
        def start(board: Board) -> tuple[np.ndarray, int]:
            return np.zeros(kh.columns, np.int64), evaluate(board, job.goal, job.heuristic)
    mode = kh.mode | lt.mode | fsm_mode
    return _Context(leaves(mode), shape, lt.kernel_lines(h, w), kh.bounds, fsm, kh.columns, start)


def run_task(task: Task) -> Outcome:
    """Search every leaf's subtree of ``task`` at its threshold (see the module docstring)."""
    from .._kernels.idastar import (
        CTL_DEPTH,
        CTL_EXPANDED,
        CTL_GENERATED,
        CTL_SIZE,
        FOUND,
        L_BUSY,
        L_EXPANDED,
        L_GENERATED,
        L_MIN_OVER,
        L_NEXT,
        SLICE_DONE,
        LeafRows,
        Stack,
    )

    job, bound = task.job, task.bound
    ctx = _context(job)
    cells = job.height * job.width
    leaves = task.leaves if isinstance(task.leaves, Leaves) else Leaves.of(task.leaves, cells, ctx.columns)
    cpu0 = time.process_time()
    rows = bound + 2
    # One stack for every leaf: the kernel writes each row below a leaf before it reads it.
    stack = Stack(np.zeros(rows, np.uint64), np.zeros(rows, np.uint64), np.zeros(rows, np.int64),
                  np.zeros((rows, ctx.columns), np.int64))
    board = np.zeros(cells, np.uint64)
    ctl = np.zeros(CTL_SIZE, np.int64)
    lctl = np.array([0, 0, 0, 0, _BIG], np.int64)
    todo = LeafRows(leaves.boards, leaves.blanks, leaves.depths, leaves.steps, leaves.hs, leaves.rows)
    while True:
        if task.deadline is not None and time.time() >= task.deadline:
            busy = int(lctl[L_BUSY])
            return Outcome(int(lctl[L_GENERATED]) + busy * int(ctl[CTL_GENERATED]),
                           int(lctl[L_EXPANDED]) + busy * int(ctl[CTL_EXPANDED]), int(lctl[L_MIN_OVER]),
                           None, time.process_time() - cpu0, timed_out=True)
        status = ctx.leaves(todo, ctx.shape, ctx.lines, ctx.bounds, ctx.fsm, board, stack, ctl, lctl, bound, 1 << 22)
        if status != SLICE_DONE:
            break
    found = tuple(int(c) for c in stack.blanks[1 : int(ctl[CTL_DEPTH]) + 1]) if status == FOUND else None
    return Outcome(int(lctl[L_GENERATED]), int(lctl[L_EXPANDED]), int(lctl[L_MIN_OVER]), found,
                   time.process_time() - cpu0, leaf=task.first + int(lctl[L_NEXT]) if found is not None else -1)


# -- the frontier -------------------------------------------------------------------------------


@dataclass
class Frontier:
    """The serial search's tree down to ``depth`` moves: per node its parent (-1 for the root),
    f = g + h, and the largest f on its path (``path_f``); the leaves at ``depth``."""

    depth: int
    parent: list[int] = field(default_factory=list)
    f: list[int] = field(default_factory=list)
    path_f: list[int] = field(default_factory=list)
    leaves: list[tuple[int, Leaf]] = field(default_factory=list)  # (node index, leaf)

    def at(self, bound: int) -> tuple[int, int, int, list[Leaf]]:
        """For a threshold: nodes generated and expanded above the leaves, the smallest excess of
        a cut node's f over it, and the leaves within it."""
        generated = expanded = 0
        min_over = _BIG
        for i in range(1, len(self.f)):
            if self.path_f[self.parent[i]] > bound:
                continue
            generated += 1
            if self.f[i] > bound:
                min_over = min(min_over, self.f[i] - bound)
            elif i not in self._leaf_nodes:
                expanded += 1
        leaves = [leaf for i, leaf in self.leaves if self.path_f[i] <= bound]
        return generated, expanded + 1 + len(leaves), min_over, leaves

    def path(self, leaves: list[Leaf] | Leaves, index: int) -> tuple[int, ...]:
        """The blank's cells from the root to leaf ``index`` of ``leaves`` (from ``at``)."""
        assert isinstance(leaves, list)
        return leaves[index].blanks[1:]

    @functools.cached_property
    def _leaf_nodes(self) -> set[int]:
        return {i for i, _ in self.leaves}


def _chunk(leaves: list[Leaf] | Leaves, start: int, size: int) -> tuple[Leaf, ...] | Leaves:
    part = leaves[start : start + size]
    return part if isinstance(part, Leaves) else tuple(part)


class Tree(Protocol):
    """The top of a search tree, none of whose leaves is the goal (``Frontier``, or the nodes an
    A* search stored: ``search.hybrid``): what it costs at a threshold and the leaves below it
    (see ``Frontier.at``)."""

    def at(self, bound: int) -> tuple[int, int, int, list[Leaf] | Leaves]: ...

    def path(self, leaves: list[Leaf] | Leaves, index: int) -> tuple[int, ...]: ...


def frontier(job: Job, target: int) -> Frontier:
    """The tree of the serial search to the first depth with at least ``target`` leaves (at most
    ``MAX_DEPTH``, and 2 less than the root's bound, so no leaf is the goal)."""
    from .._kernels.bounds import H_FSM
    from .._kernels.idastar import NONE

    ctx = _context(job)
    g = geometry(job.height, job.width, job.goal)
    shape, fsm = ctx.shape, ctx.fsm
    use_fsm = job.pruning == "fsm"
    root = Board(job.height, job.width, job.tiles)
    row0, h0 = ctx.start(root)
    out = Frontier(0, [-1], [h0], [h0])
    rows: dict[int, np.ndarray] = {0: row0}  # the component rows of the last level's nodes
    # level entries: (node index, board tiles, blank cells so far, row of moves, automaton state, step)
    level: list[tuple[int, tuple[int, ...], tuple[int, ...], int, int, int]] = [
        (0, job.tiles, (root.blank,), root.blank * 25, 0, -1)]
    depth = 0
    while len(level) < target and depth < min(MAX_DEPTH, h0 - 2):
        depth += 1
        nxt = []
        rows = {}
        for index, tiles, blanks, k, v, _ in level:
            blank = blanks[-1]
            while shape.succ_q[k] != NONE:
                q = int(shape.succ_q[k])
                row = int(shape.succ_next[k])
                k += 1
                u = v
                if use_fsm:
                    later = q > blank
                    vertical = g.row_of[q] != g.row_of[blank]
                    u = int(fsm[v + 2 * later + int(vertical == later)])
                    if (int(fsm[u + 4 + (q >> 5)]) >> (q & 31)) & 1:
                        continue
                child = list(tiles)
                child[blank], child[q] = child[q], 0
                ctiles = tuple(child)
                row_h = ctx.start(Board(job.height, job.width, ctiles))
                f = depth + row_h[1]
                rows[len(out.f)] = row_h[0]
                if use_fsm:
                    row_h[0][H_FSM] = u
                out.parent.append(index)
                out.f.append(f)
                out.path_f.append(max(f, out.path_f[index]))
                nxt.append((len(out.f) - 1, ctiles, blanks + (q,), row, u, (row // 5) % 5 - 1))
        level = nxt
    out.depth = depth
    out.leaves = [(i, Leaf(blanks, tiles, step, out.f[i] - depth, tuple(int(x) for x in rows[i])))
                  for i, tiles, blanks, _, _, step in level]
    return out


# -- the threshold loop -------------------------------------------------------------------------


def solve_problem(problem: Problem) -> Solution:
    """IDA* on a prepared problem with its tree split over the request's executor."""
    spec, board, goal = problem.heuristic, problem.start, problem.target
    assert spec is not None  # IDA* takes a heuristic: prepare resolved it
    request = problem.request
    executor: Executor = request.executor
    _warm(spec, board.height, board.width, goal, problem.pruning)
    job = Job(board.tiles, board.height, board.width, goal, spec, problem.pruning, request.order)
    tree = frontier(job, LEAVES_PER_WORKER * executor.workers) if not board.is_goal(goal) else None
    if tree is None or tree.depth == 0:  # at or too close to the goal to split: the serial search
        return serial(problem)
    run = _Split(job, tree, executor, problem.limit, request.on_progress)
    parity = board.manhattan(goal) & 1
    bound = tree.f[0] + ((tree.f[0] & 1) ^ parity)
    return run.search(board, bound, request.on_iteration, note=f"split over {executor.workers} workers")


def split_idastar(board: Board, executor: Executor, *, heuristic: str = "manhattan", **options: Any) -> Solution:
    """Optimal solution of ``board`` by IDA* with its subtrees run by ``executor`` (see the
    module docstring). Same answer as ``idastar.idastar``; ``stats.seconds`` is the CPU time of
    this process and every task. ``options`` are ``Request`` fields by name (``goal``, ``limit``,
    ``pruning``, ``on_iteration``, ``on_progress``)."""
    request = Request(heuristic=heuristic, executor=executor, **options)
    return run_problem(prepare(board, request, "idastar"), solve_problem)


class _Split:
    """The state of one split search between thresholds: its counts, clock and CPU time of the
    tasks so far."""

    def __init__(self, job: Job, tree: Tree, executor: Executor, limit: Limit,
                 on_progress: ProgressCallback | None, *, method: str = "idastar", clock: Clock | None = None,
                 stats: Stats | None = None) -> None:
        self.job, self.tree, self.executor, self.limit, self.on_progress = job, tree, executor, limit, on_progress
        self.method = method
        self.clock = clock or Clock(limit)
        self.stats = stats or Stats(generated=1)
        self.task_cpu = 0.0
        self.board = Board(job.height, job.width, job.tiles)  # ``search`` gives the board asked about
        self.note = ""

    def search(self, board: Board, bound: int, on_iteration: Callable[[Iteration, bool], None] | None, *,
               note: str) -> Solution:
        """Thresholds from ``bound`` on (``idastar.deepen``) until one finds a solution or a
        limit stops the search; a solution of ``board`` carries ``note``."""
        self.board, self.note = board, note
        return deepen(self, bound, board.manhattan(self.job.goal) & 1, on_iteration)

    def solved(self, cells: tuple[int, ...]) -> Solution:
        return found_solution(self.board, self.job.goal, tiles_from_cells(self.board, cells), optimal=True,
                              stats=self.stats, method=self.method, heuristic=self.job.heuristic.name, note=self.note)

    def cancel(self) -> None:
        self.executor.cancel()

    def threshold(self, bound: int) -> tuple[Iteration, tuple[int, ...] | None, str | None, int]:
        """Run one threshold: its iteration, the solution's blank cells (or None), the limit that
        stopped it (or None) and the smallest excess of f over the bound."""
        clock, stats, limit = self.clock, self.stats, self.limit
        cpu0, task_cpu0 = clock.cpu(), self.task_cpu
        generated, expanded, min_over, leaves = self.tree.at(bound)
        deadline = None if clock.deadline is None else time.time() + (clock.deadline - time.monotonic())
        size = max(TASK_LEAVES, len(leaves) // (self.executor.workers * TASKS_PER_WORKER))
        tasks = [Task(self.job, bound, _chunk(leaves, i, size), deadline, first=i) for i in range(0, len(leaves), size)]
        found, stop = None, None
        for outcome in self.executor.run(tasks):
            generated += outcome.generated
            expanded += outcome.expanded
            min_over = min(min_over, outcome.min_over)
            self.task_cpu += outcome.cpu_seconds
            if self.on_progress is not None:
                self.on_progress(clock.progress(bound, stats.generated + generated))
            if outcome.found is not None:
                found = self.tree.path(leaves, outcome.leaf) + outcome.found
            else:
                stop = TIMEOUT if outcome.timed_out else clock.slice_budget(limit, stats.generated + generated, 1)[1]
            if found is not None or stop is not None:
                self.executor.cancel()
                break
        it = Iteration(bound, generated, expanded, clock.cpu() - cpu0 + self.task_cpu - task_cpu0)
        stats.iterations.append(it)
        stats.generated += generated
        stats.expanded += expanded
        self._stamp()
        return it, found, stop, min_over

    def _stamp(self) -> None:
        self.clock.stamp(self.stats)
        self.stats.seconds += self.task_cpu

    def stopped(self, status: str, bound: int) -> Solution:
        self._stamp()
        board = Board(self.job.height, self.job.width, self.job.tiles)
        return unfinished(board, self.job.goal, status, bound, stats=self.stats, method=self.method,
                          heuristic=self.job.heuristic.name)


# -- this machine's cores -----------------------------------------------------------------------


def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def workers_for(jobs: int, oversubscribe: bool = False) -> int:
    """``--jobs``: 0 means every core; more processes than cores only when ``oversubscribe``
    (``--oversubscribe``): they would only share the cores, each with its own memory."""
    if jobs < 0:
        raise InvalidOptionError(f"jobs={jobs}: give 0 (every core) or a number of processes")
    if jobs > cores() and not oversubscribe:
        raise InvalidOptionError(f"jobs={jobs}: this machine has {cores()} cores; ask for at most {cores()} "
                                 "(0 = every core), or for more explicitly (oversubscribe=True)")
    return cores() if jobs == 0 else jobs


class Inline:
    """An ``Executor`` that runs the tasks in this process, one after another (its CPU is this
    process's own, so the outcomes report none)."""

    workers = 1

    def run(self, tasks: list[Task]) -> Iterator[Outcome]:
        for task in tasks:
            yield dataclasses.replace(run_task(task), cpu_seconds=0.0)

    def imap(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        return map(fn, items)

    def cancel(self) -> None:
        pass


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Ctrl-C (SIGINT) held back from this thread, and from the threads and processes it starts,
    inside the block; one that came meanwhile is raised when it ends."""
    held = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
    if held:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        if held:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _ignore_ctrl_c() -> None:
    """A pool worker's start: Ctrl-C ignored (then let through: one held back since the fork is
    dropped)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class Pool:
    """An ``Executor`` over worker processes on this machine, forked from this process (so they
    start with its loaded kernels and share its mapped tables). Use as a context manager."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: Any = None

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cancel()

    def _ensure(self, items: int | None = None) -> Any:
        """The processes, started on first use: never more than the ``items`` to run. Ctrl-C is
        held while they start (a fork then never carries it into a worker half made) and they
        ignore it: a terminal sends it to every process of the command, and this one alone
        answers it, stopping them (``cancel``)."""
        if self._pool is None:
            method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
            count = self.workers if items is None else max(1, min(self.workers, items))
            with _ctrl_c_held():
                self._pool = multiprocessing.get_context(method).Pool(count, initializer=_ignore_ctrl_c)
        return self._pool

    def run(self, tasks: list[Task]) -> Iterator[Outcome]:
        yield from self._ensure().imap_unordered(run_task, tasks)

    def imap(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        """``fn`` over ``items`` in the workers, results in the items' order."""
        todo = list(items)
        yield from self._ensure(len(todo)).imap(fn, todo)

    def cancel(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
