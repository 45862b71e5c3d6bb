"""A real ``npuzzle serve`` for the web tests: started on 127.0.0.1 on a free port, in its own
process, and stopped with Ctrl-C (SIGINT) at the end; and a small JSON client for its API."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from records import record

#: How long a server may take to answer its first request (a cold start imports numpy and numba).
START_SECONDS = 120


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, port: int, process: subprocess.Popen[str]) -> None:
        self.port, self.process = port, process
        self.url = f"http://127.0.0.1:{port}"

    def request(self, method: str, path: str, body: Any = None, raw: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
        """The HTTP status and the JSON record of one request (validated against the schema)."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path, data=data, method=method, headers={
            "Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(req, timeout=60) as response:
                return response.status, record(response.read())
        except urllib.error.HTTPError as e:
            return e.code, record(e.read())

    def solve(self, body: dict[str, Any]) -> dict[str, Any]:
        """Start a solve job and wait for its end (long polls of at most 10 s each)."""
        status, job = self.request("POST", "/api/solve", body)
        assert status == 202, job
        return self.wait(job["id"])

    def wait(self, job_id: str, until: tuple[str, ...] = ("done", "failed", "cancelled")) -> dict[str, Any]:
        for _ in range(60):
            status, job = self.request("GET", f"/api/solve/{job_id}?wait=10")
            assert status == 200, job
            if job["state"] in until:
                return job
        raise AssertionError(f"job {job_id} still {job['state']} after 600 s")


@contextmanager
def running_server(*args: str, store: str | None = None) -> Iterator[Server]:
    """``npuzzle serve`` with ``args``; ``store`` is its table store (default: the session's, which
    holds whatever tables earlier tests built)."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    if store is not None:
        env["NPUZZLE_DATA_DIR"] = store
    process = subprocess.Popen([sys.executable, "-m", "npuzzle", "serve", "--port", str(port), *args],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    server = Server(port, process)
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            if process.poll() is not None:
                raise AssertionError(f"npuzzle serve stopped: {process.stderr.read() if process.stderr else ''}")
            try:
                with urllib.request.urlopen(server.url + "/", timeout=5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield server
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
