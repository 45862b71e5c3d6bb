"""The web page and its JSON API, as a Starlette application (``npuzzle serve`` runs it on uvicorn).

Routes: ``GET /`` (the page), ``GET /static/app.js`` and ``/static/style.css`` (read once from the
package, never from a path a request names), ``POST /api/check``, ``GET /api/scramble``,
``POST /api/solve`` (a job), ``POST /api/analyze`` (a solve's analysis, run as a job and answered
when it ends), ``GET /api/solve/{id}`` (its state; ``?wait=S`` waits up to S seconds
for it to end), ``DELETE /api/solve/{id}`` or ``POST /api/solve/{id}/cancel`` (cancel it). Every
answer is a record of ``npuzzle.present`` (``docs/json.md``); every refusal an error record with
an HTTP status of 4xx (5xx only for a bug, without its traceback).

Driven here in this process by Starlette's test client (no server, no solve workers started):

>>> from starlette.testclient import TestClient
>>> from npuzzle.web.app import create_app
>>> client = TestClient(create_app(), base_url="http://127.0.0.1")
>>> answer = client.post("/api/check", json={"position": "1 2/0 3"})
>>> answer.status_code, answer.json()["text"]
(200, 'solvable; Manhattan distance 1, linear conflict 1')
>>> client.post("/api/check", json={"position": "1 2/0 3"}, headers={"Host": "evil.example"}).status_code
421
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..board import Board
from ..present import batch as present_batch
from ..present import jobs as present_jobs
from ..present import positions as present_positions
from .inputs import (
    CHECK_BOUNDS,
    Bounds,
    RequestError,
    read_analyze,
    read_board,
    read_goal,
    read_json,
    read_scramble,
    read_solve,
)
from .jobs import AnalyzeRequest, BusyError, Job, Jobs, SolveJob

#: The page's files: URL path -> (file in ``npuzzle/web/static``, media type).
STATIC = {"/": ("index.html", "text/html; charset=utf-8"),
          "/static/app.js": ("app.js", "text/javascript; charset=utf-8"),
          "/static/style.css": ("style.css", "text/css; charset=utf-8")}
#: The page loads nothing from other sites, and no other site may frame it.
HEADERS = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
           "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}
#: The longest ``wait`` of ``GET /api/solve/{id}`` (seconds).
MAX_WAIT = 10.0


#: The host names a server on the loopback address answers to (others: refused, 421).
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


@dataclass(frozen=True)
class Settings:
    """A server's settings: solver processes, waiting jobs at most, the request bounds, and the
    host names it answers to (None: any; a server on 127.0.0.1 answers only to its own names, so
    a web site whose name resolves to 127.0.0.1 cannot read its answers)."""

    workers: int = 2
    max_queued: int = 64
    bounds: Bounds = Bounds()
    hosts: tuple[str, ...] | None = LOOPBACK_HOSTS


class HostCheck:
    """ASGI middleware: requests whose ``Host`` is not one of ``hosts`` get an error record (421)."""

    def __init__(self, app: ASGIApp, hosts: tuple[str, ...]) -> None:
        self.app, self.hosts = app, hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            host = Headers(scope=scope).get("host", "")
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name not in self.hosts:
                record = present_jobs.error_record(f"this server answers to {', '.join(self.hosts)}, not "
                                              f"{host[:60]!r}", "wrong-host")
                await _answer(record, 421)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _answer(record: dict[str, Any], status: int = 200) -> JSONResponse:
    return JSONResponse(record, status_code=status, headers=HEADERS)


def _refused(error: RequestError) -> JSONResponse:
    return _answer(present_jobs.error_record(error.reason, error.status, error.text), error.http)


def _same_site(request: Request) -> None:
    """Refuse (403) a request that changes something or costs work when a browser says another
    site sent it: an ``Origin`` other than this server's own (``null`` included), or
    ``Sec-Fetch-Site: cross-site``. Clients that are no browser send neither and are served."""
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    if request.headers.get("sec-fetch-site") == "cross-site" or (
            origin is not None and origin.split("://", 1)[-1] != host):
        raise RequestError("requests from other web sites are refused: use this server's own page", 403,
                           "forbidden")


async def _body(request: Request, bounds: Bounds) -> dict[str, Any]:
    """The JSON object a request sends, read up to ``bounds.max_body`` bytes (then refused, 413),
    from this server's own page or a client that is no browser (``_same_site``), as
    ``application/json`` (415 otherwise: a form or ``text/plain`` post, which another site's page
    could send without asking, is refused)."""
    _same_site(request)
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise RequestError("send the request body as JSON (Content-Type: application/json)", 415, "invalid")
    too_large = RequestError(f"the request is too large: at most {bounds.max_body:,} bytes", 413, "too-large")
    length = request.headers.get("content-length", "")
    if length and (not length.isdigit() or len(length) > 18 or int(length) > bounds.max_body):
        raise too_large
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > bounds.max_body:
            raise too_large
        chunks.append(chunk)
    return read_json(b"".join(chunks))


class Api:
    """The handlers of the routes, over one server's jobs and request bounds."""

    def __init__(self, settings: Settings) -> None:
        self.bounds = settings.bounds
        self.jobs = Jobs(settings.workers, settings.max_queued)
        self.pages = {path: (resources.files(__package__).joinpath("static", name).read_bytes(), media)
                      for path, (name, media) in STATIC.items()}

    async def page(self, request: Request) -> Response:
        content, media = self.pages[request.url.path]
        return Response(content, media_type=media, headers=HEADERS)

    async def check(self, request: Request) -> Response:
        data = await _body(request, self.bounds)
        board, goal = read_board(data, self.bounds), read_goal(data)

        def record() -> dict[str, Any]:
            from .. import lower_bound

            values = {name: lower_bound(board, name, goal=goal) for name in CHECK_BOUNDS}
            return present_jobs.web_check_record(board, goal, values)

        return _answer(await run_in_threadpool(record))

    async def scramble(self, request: Request) -> Response:
        (height, width), seed, walk, goal = read_scramble(request.query_params, self.bounds)

        def record() -> dict[str, Any]:
            from ..instances import scramble as draw

            board = draw(height, width, 1, seed=seed, walk=walk, goal=goal)[0]
            return present_positions.scramble_record(board, 1, seed, goal)

        return _answer(await run_in_threadpool(record))

    async def _submitted(self, request: Request,
                         read: Callable[[Mapping[str, Any], Board, Bounds], SolveJob | AnalyzeRequest],
                         ) -> Job | Response:
        """The request's position and options (``read_solve`` or ``read_analyze``) as a job queued
        in the workers; or the answer that refuses it (an unsolvable position: 422)."""
        data = await _body(request, self.bounds)
        board = read_board(data, self.bounds)
        options = read(data, board, self.bounds)
        reason = board.unsolvable_reason(options.goal)
        if reason is not None:
            return _answer(present_batch.unsolvable_record(board, options.goal, reason), 422)
        try:
            return await run_in_threadpool(self.jobs.submit, options)
        except BusyError as e:
            raise RequestError(str(e), 503, "busy") from None

    async def solve(self, request: Request) -> Response:
        job = await self._submitted(request, read_solve)
        return job if isinstance(job, Response) else _answer(job.record(), 202)

    async def analyze(self, request: Request) -> Response:
        """A solve's analysis, run as a job in a worker process; answered when it ends."""
        job = await self._submitted(request, read_analyze)
        if isinstance(job, Response):
            return job
        while not job.finished:
            await asyncio.sleep(0.02)
        if job.state == "done" and job.result is not None:
            return _answer(job.result)
        reason = job.reason or job.state
        if reason.startswith("internal error"):
            return _answer(present_jobs.error_record(reason, "internal-error"), 500)
        raise RequestError(f"the analysis was not finished: {reason} (the server's limit is "
                           f"{self.bounds.time_limit:g} s)", 503, "busy")

    async def job(self, request: Request) -> Response:
        job_id = request.path_params["job_id"]
        wait = _wait(request.query_params.get("wait", "0"))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        while True:
            found = self.jobs.get(job_id)
            if found is None:
                raise RequestError(f"no solve job {job_id[:40]!r} (finished jobs are kept a while, then forgotten)",
                                   404, "not-found")
            if found.finished or loop.time() >= deadline:
                return _answer(self.jobs.record(job_id) or found.record())
            await asyncio.sleep(0.05)

    async def cancel(self, request: Request) -> Response:
        _same_site(request)
        job_id = request.path_params["job_id"]
        found = await run_in_threadpool(self.jobs.cancel, job_id)
        if found is None:
            raise RequestError(f"no solve job {job_id[:40]!r}", 404, "not-found")
        return _answer(found.record())

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        await run_in_threadpool(self.jobs.start)
        try:
            yield
        finally:
            self.jobs.close()

    def routes(self) -> list[Route]:
        return [Route(path, self.page, methods=["GET"]) for path in STATIC] + [
            Route("/api/check", self.check, methods=["POST"]),
            Route("/api/scramble", self.scramble, methods=["GET"]),
            Route("/api/solve", self.solve, methods=["POST"]),
            Route("/api/analyze", self.analyze, methods=["POST"]),
            Route("/api/solve/{job_id}", self.job, methods=["GET"]),
            Route("/api/solve/{job_id}", self.cancel, methods=["DELETE"]),
            Route("/api/solve/{job_id}/cancel", self.cancel, methods=["POST"]),
        ]


def create_app(settings: Settings | None = None) -> Starlette:
    """The application: its routes, error handlers and the solver processes of its lifetime."""
    settings = settings or Settings()
    api = Api(settings)
    middleware = [] if settings.hosts is None else [Middleware(HostCheck, hosts=settings.hosts)]
    app = Starlette(routes=api.routes(), lifespan=api.lifespan, middleware=middleware, exception_handlers={
        RequestError: _request_error, HTTPException: _http_error, Exception: _internal_error})
    app.state.jobs = api.jobs
    return app


def _wait(text: str) -> float:
    try:
        value = float(text[:20])
    except ValueError:
        raise RequestError("'wait' must be a number of seconds") from None
    if not 0 <= value <= MAX_WAIT:
        raise RequestError(f"'wait' must be from 0 to {MAX_WAIT:g} seconds")
    return value


async def _request_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestError)
    return _refused(exc)


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such route, a method not allowed) as error records."""
    assert isinstance(exc, HTTPException)
    status = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "invalid")
    reason = {404: f"no such page or API: {request.url.path[:80]}",
              405: f"{request.method} is not allowed on {request.url.path[:80]}"}.get(exc.status_code, str(exc.detail))
    return _answer(present_jobs.error_record(reason, status), exc.status_code)


async def _internal_error(request: Request, exc: Exception) -> Response:
    """A bug: an error record naming it, never a traceback."""
    return _answer(present_jobs.error_record(f"internal error ({type(exc).__name__})", "internal-error"), 500)
