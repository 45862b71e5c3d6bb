"""``npuzzle serve``: the web page and its JSON API on this machine (needs ``npuzzle[web]``).

Its options and their defaults (this example starts no server):

>>> from npuzzle.cli import build_parser
>>> args = build_parser().parse_args(["serve"])
>>> args.host, args.port, args.workers, args.queue, args.time_limit
('127.0.0.1', 8000, 2, 64, 30.0)
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..present import common as present_common
from ..present import jobs as present_jobs
from ._options import EXIT_INPUT, EXIT_OK, EXIT_USAGE, seconds_arg

if TYPE_CHECKING:
    from ._options import Subparsers

#: The longest time limit of a solve started from the page (seconds).
MAX_TIME_LIMIT = 3600.0


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "serve",
        help="serve a web page to play and solve puzzles, and its JSON API (pip install 'npuzzle[web]')",
        description="Serve a web page (board from 2x2 to 10x10, moves by click or arrow keys, scramble, "
        "solve with an animated solution, share a position by its link) and its JSON API "
        "(docs/json.md). Solves run in worker processes with a time limit and can be cancelled.",
        epilog="example:\n  npuzzle serve --port 8000    then open http://127.0.0.1:8000/",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--workers", type=_workers, default=2, metavar="N",
                   help="solver processes (1..16, default 2): as many solves run at once")
    p.add_argument("--queue", type=_queue, default=64, metavar="N",
                   help="solves that may wait for a worker (1..1000, default 64); more are refused (503) "
                   "until some end")
    p.add_argument("--time-limit", type=_time_limit, default=30.0, metavar="SECONDS",
                   help="the longest a solve may run (default 30, at most 3600); a request may ask for less")


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 5 and 1 <= int(text) <= 65535):
        raise argparse.ArgumentTypeError(f"{text[:20]!r}: a port is a whole number from 1 to 65535")
    return int(text)


def _workers(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 2 and 1 <= int(text) <= 16):
        raise argparse.ArgumentTypeError(f"{text[:20]!r}: give 1 to 16 solver processes")
    return int(text)


def _queue(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 4 and 1 <= int(text) <= 1000):
        raise argparse.ArgumentTypeError(f"{text[:20]!r}: give 1 to 1000 waiting solves")
    return int(text)


def _time_limit(text: str) -> float:
    value = seconds_arg(text)
    if value > MAX_TIME_LIMIT:
        raise argparse.ArgumentTypeError(f"{text[:20]!r}: the time limit is at most {MAX_TIME_LIMIT:g} seconds")
    return value


def run(args: argparse.Namespace) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn

        from ..web.app import LOOPBACK_HOSTS, Settings, create_app
    except ImportError:
        print(present_jobs.web_missing_text(), file=sys.stderr)
        return EXIT_USAGE
    from ..web.inputs import Bounds

    loopback = args.host in ("127.0.0.1", "localhost", "::1")
    app = create_app(Settings(workers=args.workers, max_queued=args.queue, bounds=Bounds(time_limit=args.time_limit),
                              hosts=LOOPBACK_HOSTS if loopback else None))
    if not loopback:
        print(present_common.warning_text("serve", present_jobs.open_host_warning_text(args.host)), file=sys.stderr)
    problem = _cannot_listen(args.host, args.port)
    if problem:
        print(f"npuzzle serve: {present_jobs.listen_error_text(args.host, args.port, problem)}", file=sys.stderr)
        return EXIT_INPUT
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(present_jobs.serving_text(f"http://{host}:{args.port}/", args.workers, args.time_limit), file=sys.stderr,
          flush=True)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning", timeout_graceful_shutdown=2,
                    limit_concurrency=128)
    except SystemExit as e:  # uvicorn could not start (it has said why)
        return EXIT_INPUT if e.code else EXIT_OK
    return EXIT_OK


def _cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port`` (in use, no such address), or None."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as e:
        return e.strerror or str(e)
    return None
