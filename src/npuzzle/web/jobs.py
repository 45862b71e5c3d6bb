"""Solve jobs of the web front end: each runs in a worker process, with a time limit, and can be
cancelled at any time.

``Jobs`` keeps a few worker processes (``spawn``ed, so they share nothing with the server's
threads), hands each queued job to an idle one through a pipe, and reads back its progress and
its result on one thread per worker. One more worker is a fast lane: it takes only the jobs
that are cheap whatever the position (``SolveJob.cheap``: boards of at most ``CHEAP_CELLS``
cells, real-time solves), so an 8-puzzle is answered at once while long searches hold the other
workers. A worker that grew beyond ``RSS_LIMIT`` during a job ends after it and is replaced, so
the memory a large search took goes back to the system. Cancelling a running job kills its worker and starts another
in its place; a job that overruns its time limit by ``GRACE_SECONDS`` (numba compiling kernels on
first use aside, a search stops itself at the limit) is stopped the same way. The server's event
loop only ever takes the lock for a moment: it never waits for a search.

A 2x2 board is a fast-lane job, a 4x4 is not; a job waits in the queue until a worker is free
(none is started here):

>>> from npuzzle import parse
>>> from npuzzle.web.jobs import Jobs, SolveJob
>>> SolveJob.of(parse("1 2/0 3")).cheap, SolveJob.of(parse("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15")).cheap
(True, False)
>>> Jobs(workers=1).submit(SolveJob.of(parse("1 2/0 3"))).record()
{'schema_version': 2, 'record': 'job', 'id': '...', 'state': 'queued', 'text': 'waiting for a free worker'}
"""

from __future__ import annotations

import multiprocessing
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from typing import Any

from ..board import Board, Goal
from ..present import jobs as present_jobs
from ..search.limits import Limit, Progress
from ..search.registry import Request

#: A running job is stopped (its worker killed) this many seconds after its time limit.
GRACE_SECONDS = 120.0
#: The worker sends its progress at most this often (seconds).
PROGRESS_EVERY = 0.25
#: Finished jobs kept for their clients to read (the oldest are forgotten first).
KEEP_FINISHED = 200
#: The states a job ends in.
FINAL_STATES = frozenset({"done", "cancelled", "failed"})
#: Boards of at most this many cells are solved in milliseconds by any method (a distance table
#: or IDA* on the 8-puzzle): the fast lane takes them.
CHEAP_CELLS = 9
#: A job's memory limit (A*'s node store, tables made on the way): a 10x10 board with the
#: walking distance grew the server's processes to 2.4 GB.
JOB_MEMORY = 1 << 30
#: A worker whose peak memory passed this many bytes during a job is replaced after it.
RSS_LIMIT = 512 << 20


@dataclass(frozen=True)
class SolveJob:
    """What a solve job solves: the position, the method and the ``search.Request`` (the goal, the
    options and the limits, with no callbacks: the worker reports its progress itself), sent to
    the worker as they are and prepared there once."""

    board: Board
    request: Request
    method: str = "auto"

    @classmethod
    def of(cls, board: Board, method: str = "auto", timeout: float = 30.0, **options: Any) -> SolveJob:
        """A job for ``board`` with ``options`` (``Request`` fields), at most ``timeout`` seconds and
        ``JOB_MEMORY`` bytes."""
        return cls(board, Request(limit=Limit(timeout=timeout, max_memory=JOB_MEMORY), **options), method)

    @property
    def goal(self) -> Goal | Board:
        return self.request.goal

    @property
    def timeout(self) -> float:
        return self.request.limit.timeout if self.request.limit and self.request.limit.timeout else 0.0

    @property
    def cheap(self) -> bool:
        """Whether the job takes milliseconds whatever its position (the fast lane's jobs)."""
        return self.board.size <= CHEAP_CELLS or self.method == "realtime"


@dataclass(frozen=True)
class AnalyzeRequest:
    """What an analysis job analyses: the start (rows notation), the moves (tiles pushed, checked
    already) and the options of ``npuzzle.analyze``."""

    position: str
    moves: tuple[int, ...]
    goal: Goal = "standard"
    all_optimal: int = 0
    optimal_from: int = 0
    timeout: float = 30.0
    cells: int = 0

    @property
    def cheap(self) -> bool:
        """Boards of at most ``CHEAP_CELLS`` cells are analysed from a distance table at once."""
        return 0 < self.cells <= CHEAP_CELLS


@dataclass
class Job:
    """One solve job and what is known of it."""

    id: str
    request: SolveJob | AnalyzeRequest
    state: str = "queued"
    progress: Progress | None = None
    result: dict[str, Any] | None = None
    reason: str | None = None
    started: float | None = None

    @property
    def finished(self) -> bool:
        return self.state in FINAL_STATES

    def record(self) -> dict[str, Any]:
        return present_jobs.job_record(self.id, self.state, progress=self.progress, result=self.result,
                                       reason=self.reason)


class BusyError(Exception):
    """Too many jobs are waiting already."""


def _analyze(job_id: str, request: AnalyzeRequest) -> tuple[str, str, Any]:
    """Run one analysis in the worker: ``("done", id, record)`` or ``("failed", id, reason)``."""
    from .. import analyze
    from ..errors import NPuzzleError
    from ..present.analysis import analysis_record

    try:
        analysis = analyze(request.position, list(request.moves), goal=request.goal, all_optimal=request.all_optimal,
                           optimal_from=request.optimal_from, timeout=request.timeout)
        return "done", job_id, analysis_record(analysis)
    except NPuzzleError as e:
        return "failed", job_id, str(e)
    except Exception as e:  # a bug: named, never a traceback sent to the page
        return "failed", job_id, f"internal error ({type(e).__name__})"


def _solve(job_id: str, request: SolveJob | AnalyzeRequest, conn: Connection) -> tuple[str, str, Any]:
    """Run one job in the worker: ``("done", id, record)`` or ``("failed", id, reason)``."""
    from ..errors import NPuzzleError
    from ..search import prepare, run

    if isinstance(request, AnalyzeRequest):
        return _analyze(job_id, request)

    last = 0.0

    def progress(p: Progress) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= PROGRESS_EVERY:
            last = now
            conn.send(("progress", job_id, p))

    asked = replace(request.request, on_progress=progress)
    try:
        solution = run(prepare(request.board, asked, request.method))
        return "done", job_id, present_jobs.web_solution_record(solution, asked.limit or Limit())
    except NPuzzleError as e:
        return "failed", job_id, str(e)
    except Exception as e:  # a bug: named, never a traceback sent to the page
        return "failed", job_id, f"internal error ({type(e).__name__})"


def work(conn: Connection) -> None:
    """A worker process: solve the jobs that come through ``conn`` until it closes or sends None."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops its workers
    try:
        from .. import solve

        solve("1 2 3/4 5 6/7 0 8")  # loads the kernels now rather than in the first job
    except Exception:
        pass
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        job_id, request = message
        outcome = _solve(job_id, request, conn)
        retire = _peak_rss() > RSS_LIMIT
        if retire:  # said before the result, so the server hands this worker no other job
            conn.send(("retiring", job_id, None))
        conn.send(outcome)
        if retire:
            return  # the server replaces this worker: the memory of a large search goes back


def _peak_rss() -> int:
    """This process's peak resident memory in bytes (0 where it cannot be read)."""
    try:
        import resource

        return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024
    except (ImportError, OSError):
        return 0


class _Worker:
    """One worker process, its pipe, the job it runs, and the thread that reads its messages."""

    def __init__(self, context: Any, on_message: Callable[[_Worker, Any], None],
                 on_exit: Callable[[_Worker], None], fast: bool = False) -> None:
        self.fast = fast  # the fast lane: cheap jobs only
        self.retiring = False  # ends after its job (it grew too large): takes no other
        self.conn, child = context.Pipe()
        self.process = context.Process(target=work, args=(child,), daemon=True, name="npuzzle-web-worker")
        self.process.start()
        child.close()
        self.job: Job | None = None
        self._on_message, self._on_exit = on_message, on_exit
        threading.Thread(target=self._read, daemon=True, name="npuzzle-web-reader").start()

    def _read(self) -> None:
        while True:
            try:
                message = self.conn.recv()
            except Exception:  # closed, or cut by a kill: the worker is gone
                break
            self._on_message(self, message)
        self._on_exit(self)

    def stop(self, kill: bool) -> None:
        """Kill the process now (``kill``), or ask it to finish; never waits here."""
        if kill:
            self.process.kill()
        else:
            try:
                self.conn.send(None)
            except OSError:
                self.process.kill()
        threading.Thread(target=self._reap, daemon=True).start()

    def _reap(self) -> None:
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


class Jobs:
    """The jobs of one server and the ``workers`` processes that run them, at most ``max_queued``
    waiting; ``start()`` before use, ``close()`` at the end."""

    def __init__(self, workers: int = 2, max_queued: int = 64) -> None:
        self._context = multiprocessing.get_context("spawn")
        self._count, self._max_queued = workers, max_queued
        self._lock = threading.Lock()
        self._jobs: dict[str, Job] = {}
        self._queue: deque[Job] = deque()
        self._workers: list[_Worker] = []
        self._closed = threading.Event()

    def start(self) -> None:
        with self._lock:
            self._workers = [self._new_worker() for _ in range(self._count)] + [self._new_worker(fast=True)]
        threading.Thread(target=self._watch, daemon=True, name="npuzzle-web-watchdog").start()

    def close(self) -> None:
        self._closed.set()
        with self._lock:
            workers, self._workers = self._workers, []
            for job in self._queue:
                job.state = "cancelled"
            self._queue.clear()
        for worker in workers:
            worker.stop(kill=worker.job is not None)

    def submit(self, request: SolveJob | AnalyzeRequest) -> Job:
        """A new job, queued (``BusyError`` if ``max_queued`` jobs are waiting already)."""
        with self._lock:
            if len(self._queue) >= self._max_queued:
                raise BusyError(f"{len(self._queue)} solves are waiting already: try again later")
            job = Job(secrets.token_hex(8), request)
            self._jobs[job.id] = job
            self._queue.append(job)
            self._forget_old()
            self._dispatch()
            return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def record(self, job_id: str) -> dict[str, Any] | None:
        """The job's record, read under the lock (None for an unknown id)."""
        with self._lock:
            job = self._jobs.get(job_id)
            return None if job is None else job.record()

    def cancel(self, job_id: str) -> Job | None:
        """Cancel a job: a queued one is dropped, a running one has its worker killed (and
        replaced). A finished job stays as it is. None for an unknown id."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None or job.finished:
                return job
            if job in self._queue:
                self._queue.remove(job)
                job.state = "cancelled"
                return job
            self._stop_job(job, "cancelled", None)
            return job

    def _stop_job(self, job: Job, state: str, reason: str | None) -> None:
        """End a running job now: its worker is killed and replaced (the lock is held)."""
        job.state, job.reason = state, reason
        for i, worker in enumerate(self._workers):
            if worker.job is job:
                worker.job = None
                worker.stop(kill=True)
                self._workers[i] = self._new_worker(worker.fast)
        self._dispatch()

    def _new_worker(self, fast: bool = False) -> _Worker:
        return _Worker(self._context, self._on_message, self._on_exit, fast)

    def _dispatch(self) -> None:
        """Hand queued jobs to idle workers, first come first served; the fast lane takes the
        first cheap job waiting (the lock is held)."""
        for worker in self._workers:
            if worker.job is None and not worker.retiring and self._queue:
                job = next((j for j in self._queue if j.request.cheap), None) if worker.fast else self._queue[0]
                if job is None:
                    continue
                self._queue.remove(job)
                worker.job, job.state, job.started = job, "running", time.monotonic()
                try:
                    worker.conn.send((job.id, job.request))
                except OSError:
                    pass  # the worker is gone: its reader thread ends the job

    def _on_message(self, worker: _Worker, message: Any) -> None:
        kind, job_id, value = message
        with self._lock:
            job = worker.job
            if job is None or job.id != job_id or job.finished:
                return
            if kind == "progress":
                job.progress = value
                return
            if kind == "retiring":
                worker.retiring = True
                return
            if kind == "done":
                job.result, job.state = value, "done"
            else:
                job.reason, job.state = str(value), "failed"
            worker.job = None
            self._dispatch()

    def _on_exit(self, worker: _Worker) -> None:
        """A worker's pipe closed: if it was not stopped on purpose, it died; its job fails."""
        with self._lock:
            if worker not in self._workers or self._closed.is_set():
                return
            job = worker.job
            if job is not None and not job.finished:
                job.state, job.reason = "failed", "the worker process stopped"
            self._workers[self._workers.index(worker)] = self._new_worker(worker.fast)
            self._dispatch()

    def _watch(self) -> None:
        """Stop the jobs that overrun their time limit by ``GRACE_SECONDS``."""
        while not self._closed.wait(0.5):
            now = time.monotonic()
            with self._lock:
                for worker in list(self._workers):
                    job = worker.job
                    if job is not None and job.started is not None and (
                            now - job.started > job.request.timeout + GRACE_SECONDS):
                        self._stop_job(job, "failed", present_jobs.overrun_text(job.request.timeout))

    def _forget_old(self) -> None:
        """Keep at most ``KEEP_FINISHED`` finished jobs (the lock is held)."""
        finished = [job_id for job_id, job in self._jobs.items() if job.finished]
        for job_id in finished[: max(0, len(finished) - KEEP_FINISHED)]:
            del self._jobs[job_id]
