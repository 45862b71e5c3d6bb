"""``npuzzle serve``'s JSON API (docs/json.md), on a real server on 127.0.0.1: the records are
the command line's, bad input is an error record with a 4xx status, requests and boards are
bounded, solves run in worker processes with a time limit and can be cancelled."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("starlette", reason="the web extra (pip install 'npuzzle[web]') is not installed")
pytest.importorskip("uvicorn", reason="the web extra (pip install 'npuzzle[web]') is not installed")

from records import record as valid_record  # noqa: E402
from web_server import Server, running_server  # noqa: E402

from npuzzle import Board, present  # noqa: E402
from npuzzle.instances import scramble  # noqa: E402

KNUTH_HARD = "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1"  # Korf #1: far too long for Manhattan-distance IDA*


@pytest.fixture(scope="module")
def server():
    with running_server("--workers", "2", "--time-limit", "60") as s:
        yield s


def cli_json(*argv: str) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-m", "npuzzle", *argv, "--json"], capture_output=True, text=True,
                         env=env, timeout=300).stdout
    return valid_record(out.splitlines()[0])


def test_check_gives_the_cli_record_with_the_lower_bounds(server: Server):
    status, record = server.request("POST", "/api/check", {"position": "8 6 7/2 5 4/3 0 1"})
    assert status == 200
    cli = cli_json("check", "8 6 7/2 5 4/3 0 1")
    assert {k: v for k, v in record.items() if k in cli and k != "argument"} == {
        k: v for k, v in cli.items() if k != "argument"}
    assert record["schema_version"] == present.SCHEMA_VERSION
    assert record["lower_bounds"] == {"manhattan": 21, "lc": 23}
    assert record["position"] == "8 6 7/2 5 4/3 0 1"


def test_check_reads_any_notation_and_a_shape(server: Server):
    assert server.request("POST", "/api/check", {"position": "867254301"})[1]["tiles"] == [8, 6, 7, 2, 5, 4, 3, 0, 1]
    status, record = server.request("POST", "/api/check", {"position": "1 2 3 4 0 5", "shape": "2x3"})
    assert status == 200 and record["shape"] == "2x3" and record["solvable"]
    status, record = server.request("POST", "/api/check", {"position": "1 2 3/4 5 6/8 7 0"})
    assert status == 200 and record["status"] == "unsolvable" and "odd permutation" in record["reason"]


def test_scramble_gives_the_cli_record(server: Server):
    status, record = server.request("GET", "/api/scramble?shape=3x5&seed=7")
    assert status == 200
    cli = cli_json("scramble", "--shape", "3x5", "--seed", "7")
    assert record == cli
    walked = server.request("GET", "/api/scramble?shape=4x3&seed=1&walk=12&goal=blank-first")[1]
    assert walked["tiles"] == list(scramble(4, 3, 1, seed=1, walk=12, goal="blank-first")[0].tiles)
    assert walked["goal"] == "blank-first"


def test_solve_gives_the_cli_record_and_its_outcome_in_words(server: Server):
    # The method named on both sides: with a distance table saved in the store by an earlier test,
    # 'auto' may pick it in one process and not in the other (a worker remembers what it looked up).
    job = server.solve({"position": "8 6 7/2 5 4/3 0 1", "method": "idastar"})
    assert job["record"] == "job" and job["state"] == "done", job
    result = job["result"]
    cli = cli_json("solve", "8 6 7/2 5 4/3 0 1", "--method", "idastar")
    assert set(cli) - {"argument"} <= set(result)
    for field in ("schema_version", "shape", "tiles", "goal", "status", "length", "optimal", "lower_bound",
                  "method", "heuristic", "letters", "moves"):
        assert result[field] == cli[field], field
    assert result["outcome"] == "31 moves, optimal"
    assert result["how"].startswith(f"idastar, {result['heuristic']}: ")


@pytest.mark.parametrize(("position", "shape"), [("4 1 2/5 0 3", "2x3"), (None, "3x5"), (None, "5x2")])
def test_non_square_boards_are_solved(server: Server, position: str | None, shape: str):
    if position is None:
        position = server.request("GET", f"/api/scramble?shape={shape}&seed=3&walk=30")[1]["position"]
    result = server.solve({"position": position})["result"]
    board = Board(result["height"], result["width"], tuple(result["tiles"]))
    assert result["shape"] == shape and result["status"] == "solved"
    assert board.apply(result["letters"]).is_goal()
    if shape == "2x3":
        assert result["outcome"] == "5 moves, optimal"


def test_a_solve_under_a_cost_model_gives_its_cost(server: Server):
    result = server.solve({"position": "4 1 2/5 0 3", "cost": "heavy"})["result"]
    assert result["cost"] == "heavy" and result["cost_total"] == 15.0 and result["optimal"]
    assert result["outcome"] == "cost 15 (heavy: moving tile t costs t), 5 moves, optimal for that cost"
    code, record = server.request("POST", "/api/solve", {"position": "4 1 2/5 0 3", "cost": "cheap"})
    assert code == 400 and "'cost'" in record["reason"]


def test_a_realtime_solve_gives_its_lower_bound_and_ratio(server: Server):
    position = server.request("GET", "/api/scramble?shape=10x10&seed=5")[1]["position"]
    result = server.solve({"position": position, "method": "realtime"})["result"]
    assert result["status"] == "solved" and not result["optimal"]
    assert result["outcome"].startswith(f"{result['length']:,} moves, not proven optimal: lower bound "
                                        f"{result['lower_bound']:,} (no solution is shorter), so at most ")


def test_a_solve_stops_at_its_time_limit(server: Server):
    result = server.solve({"position": KNUTH_HARD, "method": "idastar", "heuristic": "manhattan",
                           "timeout": 0.5})["result"]
    assert result["status"] == "timeout" and result["length"] is None
    assert result["outcome"].startswith("Stopped at the time limit (0.5 s) before finding a solution")


def test_a_running_solve_is_cancelled_and_the_server_keeps_answering(server: Server):
    status, job = server.request("POST", "/api/solve", {"position": KNUTH_HARD, "method": "idastar",
                                                        "heuristic": "manhattan"})
    assert status == 202
    running = job
    for _ in range(120):  # until its worker reports progress (the search is on)
        if running.get("progress"):
            break
        running = server.request("GET", f"/api/solve/{job['id']}?wait=0.5")[1]
    assert running["state"] == "running" and running["progress"]["generated"] > 0
    assert running["text"].startswith("searching: bound ")
    assert server.request("POST", "/api/check", {"position": "1 2/0 3"})[0] == 200  # while it searches
    status, cancelled = server.request("DELETE", f"/api/solve/{job['id']}")
    assert status == 200 and cancelled["state"] == "cancelled"
    assert server.request("GET", f"/api/solve/{job['id']}")[1]["state"] == "cancelled"
    again = server.solve({"position": "1 2 3/4 5 6/7 0 8"})  # the worker was replaced
    assert again["state"] == "done" and again["result"]["length"] == 1
    status, other = server.request("POST", "/api/solve", {"position": KNUTH_HARD, "method": "idastar",
                                                          "heuristic": "manhattan"})
    assert server.request("POST", f"/api/solve/{other['id']}/cancel")[1]["state"] == "cancelled"


@pytest.mark.parametrize(("method", "path", "body", "http", "status", "words"), [
    ("POST", "/api/check", b"{not json", 400, "invalid", "not JSON"),
    ("POST", "/api/check", b"[1, 2]", 400, "invalid", "JSON object"),
    ("POST", "/api/check", b"[" * 5000, 400, "invalid", "not JSON"),
    ("POST", "/api/check", {"position": 12}, 400, "invalid", "'position' must be text"),
    ("POST", "/api/check", {}, 400, "invalid", "'position' must be text"),
    ("POST", "/api/check", {"position": "1 2 3/4 5 6/7 8 8"}, 400, "invalid", "duplicate tile 8"),
    ("POST", "/api/check", {"position": "1 2 3 4 5 0"}, 400, "invalid", "cannot tell the shape"),
    ("POST", "/api/check", {"position": "1 2/0 3", "goal": "spiral"}, 400, "invalid", "'goal' must be one of"),
    ("POST", "/api/check", {"position": " ".join(map(str, range(121)))}, 413, "too-large", "not 11x11"),
    ("POST", "/api/check", {"position": "1 " * 5000}, 413, "too-large", "at most 4,096 characters"),
    ("POST", "/api/solve", {"position": "1 2/0 3", "method": "magic"}, 400, "invalid", "'method' must be"),
    ("POST", "/api/solve", {"position": "1 2/0 3", "timeout": 1e9}, 400, "invalid", "'timeout' must be from"),
    ("POST", "/api/solve", {"position": "1 2/0 3", "timeout": "soon"}, 400, "invalid", "'timeout' must be a num"),
    ("POST", "/api/solve", {"position": "1 2/0 3", "weight": -1}, 400, "invalid", "'weight' must be from"),
    ("POST", "/api/solve", {"position": "1 2 3/4 5 6/8 7 0"}, 422, "unsolvable", "unsolvable for the standard"),
    ("GET", "/api/scramble?shape=12x12", None, 413, "too-large", "not 12x12"),
    ("GET", "/api/scramble?shape=three", None, 400, "invalid", "bad shape"),
    ("GET", "/api/scramble?shape=3x3&seed=-1", None, 400, "invalid", "'seed' must be a whole number"),
    ("GET", "/api/solve/nosuchjob", None, 404, "not-found", "no solve job 'nosuchjob'"),
    ("GET", "/api/solve/nosuchjob?wait=forever", None, 400, "invalid", "'wait' must be a number"),
    ("DELETE", "/api/solve/nosuchjob", None, 404, "not-found", "no solve job"),
    ("GET", "/api/solve", None, 405, "method-not-allowed", "GET is not allowed"),
    ("GET", "/etc/passwd", None, 404, "not-found", "no such page"),
    ("GET", "/static/../../pyproject.toml", None, 404, "not-found", "no such page"),
])
def test_bad_requests_get_an_error_record_and_a_4xx_status(server: Server, method, path, body, http, status, words):
    raw = body if isinstance(body, bytes) else None
    code, record = server.request(method, path, None if raw else body, raw=raw)
    assert code == http
    assert record["schema_version"] == 2 and record["status"] == status
    assert words in record["reason"] and "Traceback" not in json.dumps(record)


def test_an_oversize_request_is_refused_before_it_is_read(server: Server):
    big = json.dumps({"position": "1 2/0 3", "padding": "x" * 100_000}).encode()
    code, record = server.request("POST", "/api/solve", raw=big)
    assert code == 413 and record["status"] == "too-large" and "at most 65,536 bytes" in record["reason"]
    code, record = server.request("POST", "/api/check", raw=b"{}", headers={"Content-Length": "999999999999"})
    assert code == 413


def test_the_page_and_its_files_are_served_with_a_strict_policy(server: Server):
    import urllib.request
    from importlib.resources import files

    modules = [f.name for f in files("npuzzle.web").joinpath("static").iterdir() if f.name.endswith(".mjs")]
    assert "app.mjs" in modules and len(modules) >= 10  # the page's JavaScript modules, each served
    for path, kind in (("/", "text/html"), ("/static/style.css", "text/css"),
                       *((f"/static/{name}", "text/javascript") for name in modules)):
        with urllib.request.urlopen(server.url + path, timeout=30) as response:
            assert response.headers["Content-Type"].startswith(kind)
            assert response.headers["Content-Security-Policy"].startswith("default-src 'self'")
            body = response.read().decode()
        assert "http://" not in body and "https://" not in body  # nothing fetched from other sites
        if path == "/":  # the modules app.mjs imports are fetched at once, not one level after another
            preloaded = re.findall(r'<link rel="modulepreload" href="/static/([\w.]+)">', body)
            assert sorted(preloaded) == sorted(m for m in modules if m != "app.mjs")


def test_serve_without_the_web_extra_says_how_to_install_it():
    code = ("import sys; sys.modules['uvicorn'] = None; from npuzzle.cli import main; "
            "sys.exit(main(['serve', '--port', '1']))")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 2
    assert "pip install 'npuzzle[web]'" in result.stderr and "Traceback" not in result.stderr


def test_serve_help_loads_nothing_heavy_and_a_bad_port_is_a_usage_error():
    code = ("import sys; from npuzzle.cli import main\n"
            "try:\n    main(['serve', '--help'])\nexcept SystemExit:\n    pass\n"
            "assert not {'numpy', 'numba', 'starlette', 'uvicorn'} & set(sys.modules), sys.modules.keys()")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    result = subprocess.run([sys.executable, "-m", "npuzzle", "serve", "--port", "70000"], capture_output=True,
                            text=True, env=env, timeout=120)
    assert result.returncode == 2 and "a port is a whole number from 1 to 65535" in result.stderr


def test_a_request_for_another_host_name_is_refused(server: Server):
    code, record = server.request("POST", "/api/check", {"position": "1 2/0 3"}, headers={"Host": "evil.example"})
    assert code == 421 and record["status"] == "wrong-host" and "'evil.example'" in record["reason"]
    assert server.request("POST", "/api/check", {"position": "1 2/0 3"}, headers={"Host": "localhost"})[0] == 200


def test_too_many_waiting_solves_are_refused_until_some_end():
    hard = {"position": KNUTH_HARD, "method": "idastar", "heuristic": "manhattan"}
    with running_server("--workers", "1", "--queue", "3") as server:
        started = []
        for _ in range(1 + 3):  # one worker busy, three jobs waiting
            status, job = server.request("POST", "/api/solve", hard)
            assert status == 202
            started.append(job["id"])
        assert server.request("GET", f"/api/solve/{started[-1]}")[1]["state"] == "queued"
        status, record = server.request("POST", "/api/solve", hard)
        assert status == 503 and record["status"] == "busy" and "3 solves are waiting" in record["reason"]
        for job_id in reversed(started):
            assert server.request("DELETE", f"/api/solve/{job_id}")[1]["state"] == "cancelled"
        assert server.solve({"position": "1 2/0 3"})["result"]["outcome"] == "1 move, optimal"


def test_fifty_concurrent_4x4_solves_are_all_answered_and_the_page_is_served_while_they_run(server: Server):
    """The load test: 50 solve jobs of uniformly random 4x4 positions started at once and waited
    for by 50 concurrent long polls (threads on 127.0.0.1); while they run the page is answered,
    and the job started last is still waiting or running after each answer (a server whose page
    waited for the searches would answer it only once they are done). Every answer is replayed
    to the goal and has the optimal length (found again here, in this process)."""
    import threading
    import urllib.request

    from npuzzle import solve
    from npuzzle.notation import format_position

    boards = scramble(4, 4, 50, seed=2026)
    ids = []
    for board in boards:
        status, job = server.request("POST", "/api/solve", {"position": format_position(board)})
        assert status == 202, job
        ids.append(job["id"])
    results: dict[int, dict] = {}

    def one(i: int) -> None:
        results[i] = server.wait(ids[i])

    threads = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(len(ids))]
    for thread in threads:
        thread.start()
    last_states = []
    for _ in range(3):
        with urllib.request.urlopen(server.url + "/", timeout=60) as response:
            assert response.status == 200 and b"<html" in response.read()
        last_states.append(server.request("GET", f"/api/solve/{ids[-1]}")[1]["state"])
    assert set(last_states) <= {"queued", "running"}, last_states
    for thread in threads:
        thread.join(600)
    assert len(results) == 50
    for i, board in enumerate(boards):
        result = results[i]["result"]
        assert results[i]["state"] == "done" and result["status"] == "solved" and result["optimal"]
        assert board.apply(result["letters"]).is_goal()
        assert result["length"] == len(solve(board, heuristic="wd+id").moves)


def test_a_port_in_use_is_one_line_and_exit_status_1():
    import socket

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "npuzzle", "serve", "--port", str(port)], capture_output=True,
                                text=True, env=env, timeout=120)
    assert result.returncode == 1
    assert result.stderr == f"npuzzle serve: cannot listen on 127.0.0.1:{port}: Address already in use " \
                            "(another server there? try --port)\n"


def test_a_worker_that_dies_fails_its_job_and_is_replaced():
    import time

    from npuzzle import parse
    from npuzzle.web.jobs import Jobs, SolveJob

    jobs = Jobs(workers=1)
    jobs.start()
    try:
        job = jobs.submit(SolveJob.of(parse(KNUTH_HARD), "idastar", 60, heuristic="manhattan"))
        for _ in range(600):  # until the search reports progress
            if job.progress is not None:
                break
            time.sleep(0.1)
        assert job.state == "running" and job.progress is not None
        jobs._workers[0].process.kill()  # as if the system killed it
        for _ in range(600):
            if job.finished:
                break
            time.sleep(0.1)
        assert job.state == "failed" and job.record()["reason"] == "the worker process stopped"
        again = jobs.submit(SolveJob.of(parse("1 2 3/4 5 6/7 0 8")))
        for _ in range(600):
            if again.finished:
                break
            time.sleep(0.1)
        assert again.state == "done" and again.result is not None and again.result["outcome"] == "1 move, optimal"
    finally:
        jobs.close()


# -- issue 33, item 4: other sites, huge numbers, cheap jobs behind costly ones ------------------


def test_other_sites_cannot_start_work(server: Server):
    """A page on another site can send a form or text/plain POST without asking first: refused
    (415), as is any request a browser marks as from another origin (403). The page's own
    requests (its origin, JSON) and clients that are no browser are served."""
    body = json.dumps({"position": KNUTH_HARD, "method": "idastar", "heuristic": "manhattan"}).encode()
    code, record = server.request("POST", "/api/solve", raw=body, headers={"Content-Type": "text/plain"})
    assert code == 415 and "application/json" in record["reason"]
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"}, {"Sec-Fetch-Site": "cross-site"},
                    {"Origin": f"http://127.0.0.1:{server.port + 1}"}):
        for path in ("/api/solve", "/api/check"):
            code, record = server.request("POST", path, raw=body, headers=headers)
            assert code == 403 and record["status"] == "forbidden", (path, headers)
    code, record = server.request("POST", "/api/solve/0123456789abcdef/cancel", headers={"Origin": "http://evil.example"})
    assert code == 403
    own = {"Origin": f"http://127.0.0.1:{server.port}", "Sec-Fetch-Site": "same-origin"}
    code, record = server.request("POST", "/api/check", {"position": "1 2/0 3"}, headers=own)
    assert code == 200
    assert server.request("POST", "/api/check", {"position": "1 2/0 3"})[0] == 200  # no browser


def test_a_number_too_large_for_a_float_is_a_bad_request_not_a_server_error(server: Server):
    for field in ("timeout", "weight"):
        raw = ('{"position": "1 2 3/4 5 6/7 0 8", "' + field + '": ' + "9" * 400 + "}").encode()
        code, record = server.request("POST", "/api/solve", raw=raw)
        assert code == 400 and record["status"] == "invalid" and field in record["reason"]


def test_an_8_puzzle_is_answered_while_two_long_searches_hold_the_workers():
    """With both workers on searches that take their whole time limit, 8-puzzles (and real-time
    solves) go to the fast lane and are done while those searches are still running."""
    hard = {"position": KNUTH_HARD, "method": "idastar", "heuristic": "manhattan", "timeout": 60}
    with running_server("--workers", "2", "--time-limit", "60") as server:
        long_jobs = []
        for _ in range(2):
            code, job = server.request("POST", "/api/solve", hard)
            assert code == 202
            long_jobs.append(job["id"])
        for job_id in long_jobs:
            server.wait(job_id, until=("running",))
        positions = [" ".join(map(str, b.tiles)) for b in scramble(3, 3, 8, seed=5)]
        for position in positions:
            done = server.solve({"position": position})
            assert done["state"] == "done" and done["result"]["optimal"]
        done = server.solve({"position": " ".join(map(str, scramble(10, 10, 1, seed=1)[0].tiles)),
                             "shape": "10x10", "method": "realtime"})
        assert done["state"] == "done"
        for job_id in long_jobs:
            code, job = server.request("GET", f"/api/solve/{job_id}")
            assert job["state"] == "running"  # the cheap jobs did not wait for them
            server.request("DELETE", f"/api/solve/{job_id}")
