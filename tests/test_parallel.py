"""Every core, and a Dask cluster (issue 19): batches give the serial results in input order; a
search split into subtrees gives the serial optimum, with the serial node counts in every
iteration before the last; a real ``dask scheduler`` with two real workers (on 127.0.0.1) runs
the same work, and a worker killed in the middle of a search changes nothing."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from records import records

import npuzzle
from npuzzle import Board
from npuzzle.cli import main
from npuzzle.cluster import solve_many
from npuzzle.heuristics.registry import parse as parse_heuristic
from npuzzle.instances import random_board, scramble
from npuzzle.search import Request, prepare, solve
from npuzzle.search.idastar import idastar
from npuzzle.search.split import MAX_DEPTH, Job, Pool, frontier, split_idastar, workers_for

SHAPES = [(2, 3), (3, 2), (2, 4), (3, 3), (4, 3), (3, 5)]


def _stop_groups(procs: list[subprocess.Popen]) -> None:
    """Each process group ended: SIGTERM, then SIGKILL to any still there 20 s later."""
    for p in procs:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
    for p in procs:
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)

@pytest.fixture(scope="module")
def pool():
    with Pool(2) as p:
        yield p


def boards(shape: tuple[int, int], count: int, seed: int) -> list[Board]:
    rng = np.random.default_rng(seed)
    return [random_board(*shape, rng) for _ in range(count)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("heuristic, pruning", [("manhattan", "parent"), ("wd+id", "fsm"), ("lc", "parent")])
def test_a_split_search_is_the_serial_search(pool, shape, heuristic, pruning):
    for board in boards(shape, 2, seed=sum(shape)):
        if shape == (3, 5) and heuristic != "wd+id":
            continue  # the weaker bounds take long on 3x5; wd+id covers the shape
        serial = idastar(board, heuristic=heuristic, pruning=pruning)
        split = split_idastar(board, pool, heuristic=heuristic, pruning=pruning)
        assert split.solved and split.optimal and split.length == serial.length
        assert board.apply(split.moves).is_goal()
        a, b = serial.stats.iterations, split.stats.iterations
        assert [i.threshold for i in a] == [i.threshold for i in b]
        # every iteration before the last explores the serial tree exactly
        assert [(i.generated, i.expanded) for i in a[:-1]] == [(i.generated, i.expanded) for i in b[:-1]]


def test_the_frontier_stops_short_of_the_goal(pool):
    board = npuzzle.parse("8 6 7/2 5 4/3 0 1")
    tree = frontier(Job(board.tiles, 3, 3, "standard", parse_heuristic("manhattan"), "parent"), 1000)
    assert len(tree.leaves) >= 1000 and 0 < tree.depth <= tree.f[0] - 2
    assert all(len(leaf.blanks) == tree.depth + 1 for _, leaf in tree.leaves)
    few = frontier(Job(board.tiles, 3, 3, "standard", parse_heuristic("manhattan"), "parent"), 10**9)
    assert few.depth == min(MAX_DEPTH, few.f[0] - 2)  # as deep as it may go
    near = Board.goal(3, 3).move(Board.goal(3, 3).movable_tiles()[0])  # too close to split: serial
    s = split_idastar(near, pool, heuristic="manhattan")
    assert s.length == 1 and s.optimal


def test_a_batch_gives_the_serial_solutions_in_order(pool):
    items = [(b, "standard") for shape in SHAPES for b in boards(shape, 3, seed=7)]
    items += [(npuzzle.parse("bc9e80df3412a756"), "standard"), (boards((3, 3), 1, 3)[0], "blank-first")]
    items = [(b, g) for b, g in items if b.unsolvable_reason(g) is None]
    problems = [prepare(b, Request(goal=g, heuristic="wd+id"), "idastar") for b, g in items]
    parallel = list(solve_many(problems, pool))
    serial = [solve(b, goal=g, method="idastar", heuristic="wd+id") for b, g in items]
    assert [s.moves for s in parallel] == [s.moves for s in serial]
    assert [s.stats.generated for s in parallel] == [s.stats.generated for s in serial]
    assert [s.board for s in parallel] == [b for b, _ in items]


def test_callbacks_stay_in_this_process(pool):
    calls = []
    problem = prepare(npuzzle.parse("8 6 7/2 5 4/3 0 1"), Request(heuristic="lc", on_progress=calls.append,
                                                                   on_iteration=lambda *a: calls.append(a)))
    (solution,) = solve_many([problem], pool)  # a closure cannot be pickled: it is not sent
    assert solution.length == 31 and calls == []


def test_the_python_api():
    texts = ["1 2 3/4 5 6/0 7 8", "8 6 7/2 5 4/3 0 1", "1 2 3 4 0 5", "4 1 2/5 0 3"]
    got = npuzzle.solve_many(texts[:2] + [npuzzle.parse(texts[2], "2x3"), texts[3]], jobs=2, method="idastar",
                             heuristic="lc")
    assert [s.length for s in got] == [2, 31, 1, 5]
    s = npuzzle.solve("8 6 7/2 5 4/3 0 1", jobs=2, method="idastar", heuristic="manhattan")
    assert s.length == 31 and s.optimal and "split over 2 workers" in s.note
    assert workers_for(0) >= 1 and workers_for(3, oversubscribe=True) == 3
    with pytest.raises(ValueError):
        workers_for(-1)


def _cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def _records(text: str) -> list[dict]:
    drop = ("wall_seconds", "cpu_seconds", "stats")
    return [{k: v for k, v in r.items() if k not in drop} for r in records(text)]


def _positions_file(tmp_path: Path) -> Path:
    lines = [Board(*shape, b.tiles).rows() for shape in SHAPES for b in boards(shape, 2, seed=11)]
    text = "\n".join("/".join(" ".join(map(str, r)) for r in rows) for rows in lines)
    path = tmp_path / "boards.txt"
    path.write_text(text + "\nnot a board\n1 2 3/4 5 6/8 7 0\n")  # an invalid and an unsolvable line too
    return path


def test_solve_jobs_on_the_command_line(capsys, tmp_path):
    path = _positions_file(tmp_path)
    args = ("solve", "--file", str(path), "--json", "--method", "idastar", "--heuristic", "wd+id")
    code1, out1, _ = _cli(capsys, *args)
    code2, out2, err2 = _cli(capsys, *args, "--jobs", "2")
    assert code1 == code2 == 1  # an invalid line: the worst outcome, for both
    assert _records(out1) == _records(out2) and len(_records(out1)) == 14
    assert "12 solved" in err2
    code, out, err = _cli(capsys, "solve", "8 6 7/2 5 4/3 0 1", "--jobs", "2", "--heuristic", "manhattan")
    assert code == 0 and "Solution: 31 moves, optimal" in out
    assert _cli(capsys, "solve", "1 2 3/4 5 6/7 0 8", "--jobs", "-1")[0] == 2
    code, out, err = _cli(capsys, "solve", "1 2 3/4 5 6/7 0 8", "--jobs", "two")
    assert code == 2 and "'two' is not a number of processes" in err
    code, out, err = _cli(capsys, "solve", "1 2 3/4 5 6/7 0 8", "--count-only", "--jobs", "2")
    assert code == 1 and "no --jobs or --scheduler" in err


def test_bench_and_sample_with_jobs(capsys):
    args = ("bench", "korf100", "--ids", "1-4", "--heuristic", "wd+id", "--json")
    serial, parallel = _cli(capsys, *args)[1], _cli(capsys, *args, "--jobs", "2")[1]
    keep = ("instance", "length", "optimal_length", "generated", "expanded")
    rows = [[{k: r.get(k) for k in keep} for r in records(text)] for text in (serial, parallel)]
    assert rows[0] == rows[1] and len(rows[0]) == 5
    args = ("stats", "sample", "--shape", "2x4", "--count", "40", "--seed", "3", "--json")
    assert records(_cli(capsys, *args)[1]) == records(_cli(capsys, *args, "-j", "2")[1])


# -- a real Dask cluster on 127.0.0.1 ------------------------------------------------------------


@contextlib.contextmanager
def _cluster(here, table_store, workers: int = 2):
    """``dask scheduler`` and ``workers`` ``dask worker`` processes (one thread each, no nanny, so a
    killed worker stays dead), all on 127.0.0.1 (the workers' HTTP servers too), the workers using the tests'
    table store: ``(address, the workers' pids, the processes)``."""
    pytest.importorskip("distributed", reason="the 'cluster' extra (dask, distributed) is not installed")
    from distributed import Client

    scheduler_file = here / "scheduler.json"
    env = {**os.environ, "NPUZZLE_DATA_DIR": str(table_store), "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    procs = [subprocess.Popen([*dask, "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                               "--scheduler-file", str(scheduler_file)], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)]
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert scheduler_file.exists(), "the dask scheduler did not start"
        for _ in range(workers):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file", str(scheduler_file),
                 "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1", "--dashboard-address", "127.0.0.1:0"],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        address = json.loads(scheduler_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        with Client(address, timeout=30, set_as_default=False) as client:
            client.wait_for_workers(workers, timeout=60)
            pids = list(client.run(os.getpid).values())
        yield address, pids, procs
    finally:
        _stop_groups(procs)


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory, table_store):
    """A cluster of two workers for the module (see ``_cluster``)."""
    with _cluster(tmp_path_factory.mktemp("dask"), table_store) as (address, pids, _):
        yield address, pids


@pytest.mark.slow
def test_losing_the_scheduler_ends_the_batch_with_the_answers_so_far(tmp_path, table_store):
    """The scheduler killed while a batch of 30 runs: the answers received are printed, then one
    line says how many of the 30 there are, exit status 4, no traceback."""
    boards = [" ".join(map(str, b.tiles)) for b in scramble(4, 4, 30, seed=11, walk=100)]
    path = tmp_path / "boards.txt"
    path.write_text("\n".join(boards) + "\n")
    with _cluster(tmp_path, table_store) as (address, _, procs):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), NPUZZLE_DATA_DIR=str(table_store))
        cli = subprocess.Popen([sys.executable, "-m", "npuzzle", "solve", "--file", str(path), "--json", "--method",
                                "idastar", "--heuristic", "manhattan", "--scheduler", address],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        first = cli.stdout.readline()
        assert records(first)[0]["status"] == "solved"
        os.killpg(procs[0].pid, signal.SIGKILL)  # the scheduler
        rest, err = cli.communicate(timeout=300)
    got = records(first + rest)
    assert cli.returncode == 4, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "lost the Dask scheduler" in err and f"{len(got)} of 30 answers received" in err
    assert 1 <= len(got) < 30 and all(r["status"] == "solved" for r in got)
    assert [r["line"] for r in got] == list(range(1, len(got) + 1))


@pytest.mark.slow
def test_a_batch_and_a_split_search_on_dask(capsys, tmp_path, dask_cluster):
    address, _ = dask_cluster
    path = _positions_file(tmp_path)
    args = ("solve", "--file", str(path), "--json", "--method", "idastar", "--heuristic", "wd+id")
    code1, out1, _ = _cli(capsys, *args)
    code2, out2, _ = _cli(capsys, *args, "--scheduler", address)
    assert code1 == code2 and _records(out1) == _records(out2)
    board = npuzzle.parse("8 6 7/2 5 4/3 0 1")
    s = npuzzle.solve(board, scheduler=address, method="idastar", heuristic="manhattan")
    serial = idastar(board, heuristic="manhattan")
    assert s.length == 31 and s.optimal and "split over 2 workers" in s.note
    assert [(i.generated, i.expanded) for i in s.stats.iterations[:-1]] == [
        (i.generated, i.expanded) for i in serial.stats.iterations[:-1]]
    # A*+IDA* hands its open list to the workers as arrays
    from npuzzle.cluster import Cluster
    from npuzzle.search.hybrid import astar_idastar

    with Cluster(address) as cluster:
        hybrid = astar_idastar(board, heuristic="manhattan", top_nodes=200, executor=cluster)
    assert hybrid.length == 31 and hybrid.optimal and hybrid.method == "astar+idastar"
    assert "open positions" in hybrid.note


@pytest.mark.slow
def test_a_worker_killed_mid_search_changes_nothing(dask_cluster):
    """The last test of the module: it leaves one worker."""
    from npuzzle.cluster import Cluster

    address, pids = dask_cluster
    board = npuzzle.parse("14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3")  # Korf's #1: 276 million nodes
    serial = idastar(board, goal="blank-first", heuristic="manhattan", pruning="parent")
    killed = []

    def kill_one(progress: object) -> None:
        if not killed:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])

    with Cluster(address) as cluster:
        s = split_idastar(board, cluster, goal="blank-first", heuristic="manhattan", pruning="parent",
                          on_progress=kill_one)
    assert killed and s.solved and s.optimal and s.length == serial.length == 57
    assert board.apply(s.moves).is_goal("blank-first")
    assert [(i.generated, i.expanded) for i in s.stats.iterations[:-1]] == [
        (i.generated, i.expanded) for i in serial.stats.iterations[:-1]]


def test_no_scheduler_is_a_message(capsys):
    code, out, err = _cli(capsys, "solve", "1 2 3/4 5 6/7 0 8", "--scheduler", "tcp://127.0.0.1:9")
    assert code != 0 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err


def test_more_processes_than_cores_must_be_asked_for(capsys, monkeypatch):
    """``--jobs 50`` on a 2-core machine used to fork 50 processes for two positions."""
    from npuzzle import InvalidOptionError
    from npuzzle.search import split

    monkeypatch.setattr(split, "cores", lambda: 2)
    code, _, err = _cli(capsys, "solve", "1 2 3/4 5 6/7 0 8", "1 2 3/4 5 6/0 7 8", "--jobs", "50")
    assert code == 1 and "this machine has 2 cores" in err and "--oversubscribe" in err
    with pytest.raises(InvalidOptionError, match="jobs=3: this machine has 2 cores"):
        npuzzle.solve_many(["1 2 3/4 5 6/7 0 8"], jobs=3)
    code, out, _ = _cli(capsys, "solve", "1 2 3/4 5 6/7 0 8", "1 2 3/4 5 6/0 7 8", "--jobs", "50", "--oversubscribe",
                        "--json")
    assert code == 0 and len(out.splitlines()) == 2


def test_a_pool_starts_no_more_processes_than_it_has_items():
    with Pool(50) as pool:
        assert list(pool.imap(abs, [-1, -2])) == [1, 2]
        assert len(pool._pool._pool) == 2


# -- every solve flag that is a Request field reaches the workers ------------------------------------

#: Where ``_recording_solve_one`` leaves what a worker received (set before the pool forks).
_RECEIVED: list[Path] = []


#: The real ``cluster.solve_one``, which ``_recording_solve_one`` calls.
_REAL_SOLVE_ONE: list = []


def _recording_solve_one(one):
    """``cluster.solve_one`` that first writes the problem it received, in the worker, to a file."""
    import pickle

    name = "-".join(map(str, one.problem.board.tiles))
    (_RECEIVED[0] / f"{name}.pickle").write_bytes(pickle.dumps((os.getpid(), one.problem)))
    return _REAL_SOLVE_ONE[0](one)

#: Each ``npuzzle solve`` flag that sets a ``Request`` field (or a limit of ``Request.limit``): its
#: arguments, the method that takes it, and the value the worker must receive (not the default).
_FLAG_VALUES = {
    "goal": (["--goal", "blank-first"], "idastar", "blank-first"),
    "heuristic": (["--heuristic", "lc"], "idastar", "lc"),
    "pruning": (["--pruning", "parent"], "idastar", "parent"),
    "timeout": (["--timeout", "600"], "idastar", 600.0),
    "max_nodes": (["--max-nodes", "123456789"], "idastar", 123456789),
    "max_memory": (["--max-memory", "1G"], "idastar", 1 << 30),
    "weight": (["--weight", "1.5"], "astar", 1.5),
    "cost": (["--cost", "heavy"], "ucs", "heavy"),
    "budget": (["--budget", "0.25"], "beam", 0.25),
    "realtime_method": (["--realtime-method", "parberry"], "realtime", "parberry"),
}
#: The fields no flag of their name sets: what stays in this process (the callbacks: --verbose and
#: the status line; the executor: --jobs itself) and the Python API's own (order, top_nodes).
_NOT_FLAGS = {"limit", "on_iteration", "on_progress", "executor", "order", "top_nodes"}


def test_every_request_flag_of_solve_reaches_the_workers_of_a_batch(tmp_path, monkeypatch, capsys):
    """A 2-position ``--jobs 2`` batch for each method, with every flag that method takes given a
    value other than its default: each worker receives the position and the request with every one
    of those values (the list of flags comes from ``Request``'s fields and the parser, so a new
    option with a flag fails here until it is given a value)."""
    import dataclasses
    import pickle

    from npuzzle import cluster
    from npuzzle.cli import build_parser
    from npuzzle.search.limits import Limit
    from npuzzle.search.registry import Request

    limit_fields = {f.name for f in dataclasses.fields(Limit)}
    request_fields = {f.name for f in dataclasses.fields(Request)}
    assert set(_FLAG_VALUES) | _NOT_FLAGS == request_fields | limit_fields  # every field is accounted for
    solve_parser = next(a for a in build_parser("solve")._actions if a.dest == "command").choices["solve"]
    dests = {a.dest: a for a in solve_parser._actions}
    assert set(_FLAG_VALUES) == (request_fields | limit_fields) & set(dests) - {"limit"}
    defaults = {**{f.name: f.default for f in dataclasses.fields(Request)},
                **{f.name: f.default for f in dataclasses.fields(Limit)}}
    for name, (_, _, value) in _FLAG_VALUES.items():
        assert value != defaults[name] and value != dests[name].default, name

    _REAL_SOLVE_ONE[:] = [cluster.solve_one]
    monkeypatch.setattr(cluster, "solve_one", _recording_solve_one)
    positions = ["1 2 3/4 5 6/0 7 8", "1 2 3/4 0 5/7 8 6"]
    methods = sorted({method for _, method, _ in _FLAG_VALUES.values()})
    for method in methods:
        given = {name: value for name, (_, m, value) in _FLAG_VALUES.items() if m == method}
        flags = [arg for name in given for arg in _FLAG_VALUES[name][0]]
        folder = tmp_path / method
        folder.mkdir()
        _RECEIVED[:] = [folder]
        status = main(["solve", "--jobs", "2", "--oversubscribe", "--json", "--method", method, *flags, *positions])
        out = capsys.readouterr().out
        assert status == 0, out
        assert len(records(out)) == 2
        received = [pickle.loads(p.read_bytes()) for p in sorted(folder.iterdir())]
        asked = sorted(npuzzle.parse(p).tiles for p in positions)
        assert sorted(problem.board.tiles for _, problem in received) == asked
        for pid, problem in received:
            assert pid != os.getpid()  # solved in a worker
            request = problem.request
            for name, value in given.items():
                got = getattr(request.limit, name) if name in limit_fields else getattr(request, name)
                assert got == value, (method, name, got)
    _REAL_SOLVE_ONE.clear()


def _documented_dask_commands() -> list[list[str]]:
    """The ``dask scheduler`` and ``dask worker`` command lines of docs/howto/parallel.md."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "howto" / "parallel.md").read_text()
    lines = [line.split("#")[0].split() for line in text.splitlines() if line.startswith("dask ")]
    assert [line[:2] for line in lines] == [["dask", "scheduler"], ["dask", "worker"]], lines
    return lines


def _listening(procs: list[subprocess.Popen]) -> list[tuple[str, int, str]]:
    """Every listening TCP address of the processes and their children: (ip, port, process name)."""
    psutil = pytest.importorskip("psutil")
    out = []
    for p in procs:
        root = psutil.Process(p.pid)
        for proc in [root, *root.children(recursive=True)]:
            for c in proc.net_connections(kind="inet"):
                if c.status == psutil.CONN_LISTEN:
                    out.append((c.laddr.ip, c.laddr.port, " ".join(proc.cmdline()[1:4])))
    return out


def test_the_documented_dask_commands_keep_every_port_on_localhost(tmp_path):
    """The how-to's scheduler and worker, started as written (fixed ports made free ones, the
    worker given the scheduler's address), listen on 127.0.0.1 only: the scheduler, its
    dashboard, the worker, its nanny and the worker's HTTP server."""
    pytest.importorskip("distributed", reason="the 'cluster' extra (dask, distributed) is not installed")
    scheduler, worker = _documented_dask_commands()
    mains = {"scheduler": "distributed.cli.dask_scheduler", "worker": "distributed.cli.dask_worker"}
    scheduler_file = tmp_path / "scheduler.json"
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}

    def start(line: list[str], *extra: str) -> subprocess.Popen:
        args = [a.replace(":8787", ":0") for a in line[2:]]
        return subprocess.Popen([sys.executable, "-m", mains[line[1]], *args, *extra], env=env, cwd=tmp_path,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    procs = [start(scheduler, "--port", "0", "--scheduler-file", str(scheduler_file))]
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        address = json.loads(scheduler_file.read_text())["address"]
        worker = [address if a.startswith("tcp://") else a for a in worker]
        procs.append(start(worker))
        from distributed import Client

        with Client(address, timeout=30, set_as_default=False) as client:
            client.wait_for_workers(1, timeout=60)
        ports = _listening(procs)
        assert len(ports) >= 5, ports  # scheduler, its dashboard, nanny, worker, the worker's HTTP server
        assert all(ip == "127.0.0.1" for ip, _, _ in ports), ports
    finally:
        _stop_groups(procs)
