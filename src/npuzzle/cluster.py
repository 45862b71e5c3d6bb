"""Where parallel work runs: this machine's cores (``search.split.Pool``) or a Dask cluster.

``workers(jobs, scheduler)`` is what ``--jobs N`` and ``--scheduler tcp://HOST:PORT`` ask for:
nothing (one process, the serial search), a pool of N processes on this machine (0 = every
core), or a Dask cluster's workers. A cluster runs the same units of work as the pool: one
position of a batch (``split.solve_one``) or some subtrees at one threshold
(``split.run_task``). Each task is a few hundred bytes; workers find (or are told to build) the
tables in their own store, which is never shipped with the tasks. A worker that dies has its
tasks run again by the scheduler, and a task's answer does not depend on where it runs.

Dask is optional: ``pip install 'npuzzle[cluster]'``. To start a cluster by hand::

    dask scheduler                                # prints tcp://HOST:8786
    dask worker tcp://HOST:8786 --nthreads 1      # on each machine, once per core

then ``npuzzle solve --file F --scheduler tcp://HOST:8786``. Workers run npuzzle from their own
installation and table store (``NPUZZLE_DATA_DIR`` there); build the tables on every machine
first (``npuzzle tables build pdb:7-8``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from .board import Board, Goal
from .errors import NPuzzleError
from .search.limits import Solution
from .search.split import Executor, Outcome, Pool, Task, run_task, workers_for

# -- many positions, one each ---------------------------------------------------------------------


@dataclass(frozen=True)
class One:
    """One position of a batch for a worker: the board, the goal and ``search.solve``'s options;
    solved ``repeat`` times, the run with the least CPU time kept."""

    board: Board
    goal: Goal | Board
    options: tuple[tuple[str, Any], ...]
    repeat: int = 1


def solve_one(one: One) -> Solution:
    """A worker's side of ``solve_many``."""
    from .search import solve

    runs = [solve(one.board, goal=one.goal, **dict(one.options)) for _ in range(max(1, one.repeat))]
    return min(runs, key=lambda r: r.stats.seconds)


def solve_many(boards: Iterable[tuple[Board, Goal | Board]], executor: Executor, *, repeat: int = 1,
               **options: Any) -> Iterator[Solution]:
    """``search.solve(board, goal=goal, **options)`` for every ``(board, goal)``, run by the
    executor's workers, the solutions in the boards' order (each the same as a serial solve's,
    but for its times). Callbacks cannot cross to other processes: ``on_iteration`` and
    ``on_progress`` are refused."""
    if options.get("on_iteration") is not None or options.get("on_progress") is not None:
        raise ValueError("solve_many runs each search in another process: no callbacks")
    frozen = tuple(sorted(options.items()))
    # The workers load the kernels and map the tables themselves, at the same time (the
    # tables' pages are shared through the page cache either way).
    yield from executor.imap(solve_one, (One(board, goal, frozen, repeat) for board, goal in boards))


#: Seconds to wait for a scheduler to answer.
CONNECT_SECONDS = 10


class Cluster:
    """An ``Executor`` on a Dask cluster (``address``: ``tcp://HOST:PORT``). Use as a context
    manager; ``workers`` is the number of worker threads the scheduler knows."""

    def __init__(self, address: str) -> None:
        self.dask = _distributed()
        try:
            self.client: Any = self.dask.Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as e:
            raise NPuzzleError(f"cannot reach the Dask scheduler at {address}: {e}") from None
        info = self.client.scheduler_info()
        self.workers = max(1, sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values()))
        self._pending: list[Any] = []

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cancel()
        self.client.close()

    def run(self, tasks: list[Task]) -> Iterator[Outcome]:
        self._pending = self.client.map(run_task, tasks, pure=False)
        for future in self.dask.as_completed(self._pending, loop=self.client.loop):
            outcome: Outcome = future.result()
            yield outcome

    def imap(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        self._pending = self.client.map(fn, list(items), pure=False)
        for future in self._pending:
            yield future.result()

    def cancel(self) -> None:
        if self._pending:
            self.client.cancel(self._pending)
            self._pending = []


def _distributed() -> Any:
    """Dask's ``distributed`` module (untyped: used through ``Any``)."""
    try:
        import distributed
    except ImportError:
        raise NPuzzleError("--scheduler needs Dask: pip install 'npuzzle[cluster]'") from None
    return distributed


@contextmanager
def workers(jobs: int = 1, scheduler: str | None = None) -> Iterator[Executor | None]:
    """The executor ``--jobs``/``--scheduler`` ask for (None: run here, serially)."""
    if scheduler is not None:
        with Cluster(scheduler) as cluster:
            yield cluster
        return
    count = workers_for(jobs)
    if count <= 1:
        yield None
        return
    with Pool(count) as pool:
        yield pool
