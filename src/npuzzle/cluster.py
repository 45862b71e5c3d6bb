"""Where parallel work runs: this machine's cores (``search.split.Pool``) or a Dask cluster.

``workers(jobs, scheduler)`` is what ``--jobs N`` and ``--scheduler tcp://HOST:PORT`` ask for:
nothing (one process, the serial search), a pool of N processes on this machine (0 = every
core), or a Dask cluster's workers. A cluster runs the same units of work as the pool: one
position of a batch (``split.solve_one``) or some subtrees at one threshold
(``split.run_task``). Each task is a few hundred bytes; workers find (or are told to build) the
tables in their own store, which is never shipped with the tasks. A worker that dies has its
tasks run again by the scheduler, and a task's answer does not depend on where it runs.

Dask is optional: ``pip install 'npuzzle[cluster]'``. To start a cluster on this machine by hand
(Dask listens on every interface and accepts anyone unless told otherwise; across machines,
secure it with Dask's TLS, see docs/howto/parallel.md)::

    dask scheduler --host 127.0.0.1 --dashboard-address 127.0.0.1:8787
    dask worker tcp://127.0.0.1:8786 --host 127.0.0.1 --nthreads 1 --dashboard-address 127.0.0.1:0   # once per core

then ``npuzzle solve --file F --scheduler tcp://127.0.0.1:8786``. A scheduler lost midway ends
the run with a ``ClusterLostError`` saying how much was done. Workers run npuzzle from their own
installation and table store (``NPUZZLE_DATA_DIR`` there); build the tables on every machine
first (``npuzzle tables build pdb:7-8``).

One worker asks for nothing (the serial search, here); ``solve_many`` runs a batch of prepared
problems (``search.prepare``: a ``Board`` and a ``Request`` each, checked and resolved once, here)
on any executor, here ``split.Inline`` (this process):

>>> from npuzzle import Board
>>> from npuzzle.cluster import solve_many, workers
>>> from npuzzle.search import Request, prepare
>>> from npuzzle.search.split import Inline
>>> with workers(jobs=1) as executor:
...     print(executor)
None
>>> boards = [Board(2, 3, (1, 2, 3, 4, 0, 5)), Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))]
>>> [s.length for s in solve_many([prepare(b, Request(heuristic="manhattan")) for b in boards], Inline())]
[1, 31]
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from .errors import ClusterLostError, NPuzzleError
from .search.limits import Solution
from .search.problem import Problem
from .search.split import Executor, Outcome, Pool, Task, run_task, workers_for

# -- many positions, one each ---------------------------------------------------------------------


@dataclass(frozen=True)
class One:
    """One position of a batch for a worker: its problem, prepared once by the caller (its
    ``board`` and its ``request``, without the callbacks and the executor, which stay with the
    caller: ``Request.portable``); solved ``repeat`` times, the run with the least CPU time kept."""

    problem: Problem
    repeat: int = 1


def solve_one(one: One) -> Solution:
    """A worker's side of ``solve_many``."""
    from .search import run

    runs = [run(one.problem) for _ in range(max(1, one.repeat))]
    return min(runs, key=lambda r: r.stats.seconds)


def solve_many(problems: Iterable[Problem], executor: Executor, *, repeat: int = 1) -> Iterator[Solution]:
    """Each prepared problem (``search.prepare``) run by the executor's workers, the solutions in
    the problems' order (each the same as a serial solve's, but for its times). Callbacks cannot
    cross to other processes: the requests are sent without them (``Request.portable``)."""
    sent = (One(dataclasses.replace(p, request=p.request.portable()), repeat) for p in problems)
    # The workers load the kernels and map the tables themselves, at the same time (the
    # tables' pages are shared through the page cache either way).
    yield from executor.imap(solve_one, sent)


#: Seconds to wait for a scheduler to answer.
CONNECT_SECONDS = 10


class Cluster:
    """An ``Executor`` on a Dask cluster (``address``: ``tcp://HOST:PORT``). Use as a context
    manager; ``workers`` is the number of worker threads the scheduler knows."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.dask = _distributed()
        # npuzzle reports a cluster's failures itself (``ClusterLostError``, "cannot reach"): Dask's
        # own log lines of the same events, with their tracebacks, would only repeat them.
        for name in ("distributed.client", "distributed.comm", "distributed.core", "distributed.batched"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
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
        done = 0
        with self._lost(lambda: f"{done:,} of {len(tasks):,} subtrees of an iteration searched"):
            for future in self.dask.as_completed(self._pending, loop=self.client.loop):
                outcome: Outcome = future.result()
                done += 1
                yield outcome

    def imap(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        self._pending = self.client.map(fn, list(items), pure=False)
        total, done = len(self._pending), 0
        with self._lost(lambda: f"{done:,} of {total:,} answers received; the others were not solved"):
            for future in self._pending:
                result = future.result()
                done += 1
                yield result

    @contextmanager
    def _lost(self, progress: Callable[[], str]) -> Iterator[None]:
        """Turn the errors of a cluster that stopped answering (a scheduler gone, a connection
        cut: the pending futures are cancelled or their results cannot be fetched) into one
        ``ClusterLostError`` saying how much was done. A task's own error (an ``NPuzzleError``
        raised in a worker) passes as it is."""
        try:
            yield
        except NPuzzleError:
            raise
        except (Exception, asyncio.CancelledError) as e:
            if not self._is_loss(e):
                raise
            self._pending = []
            raise ClusterLostError(f"lost the Dask scheduler at {self.address} ({type(e).__name__}): "
                                   f"{progress()}") from None

    def _is_loss(self, error: BaseException) -> bool:
        """Whether ``error`` comes from the cluster rather than from a task's code."""
        if isinstance(error, asyncio.CancelledError | concurrent.futures.CancelledError | OSError | TimeoutError):
            return True
        return type(error).__name__ in _LOSS_ERRORS or self.client.status != "running"

    def cancel(self) -> None:
        if self._pending:
            self.client.cancel(self._pending)
            self._pending = []


#: Dask's names for a cluster that went away (``distributed``'s own classes, named so that this
#: module imports Dask only when asked).
_LOSS_ERRORS = frozenset({"CommClosedError", "FutureCancelledError", "CancelledError", "FutureLostError"})


def _distributed() -> Any:
    """Dask's ``distributed`` module (untyped: used through ``Any``)."""
    try:
        import distributed
    except ImportError:
        raise NPuzzleError("scheduler= needs Dask: pip install 'npuzzle[cluster]'") from None
    return distributed


@contextmanager
def workers(jobs: int = 1, scheduler: str | None = None, oversubscribe: bool = False) -> Iterator[Executor | None]:
    """The executor ``--jobs``/``--scheduler`` ask for (None: run here, serially); more
    processes than cores only with ``oversubscribe``."""
    if scheduler is not None:
        with Cluster(scheduler) as cluster:
            yield cluster
        return
    count = workers_for(jobs, oversubscribe)
    if count <= 1:
        yield None
        return
    with Pool(count) as pool:
        yield pool
