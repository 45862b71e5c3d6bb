"""One writer per output file (``npuzzle.locks``): real processes on one ``--out``; the second is
refused at once (exit status 5, one line naming the first's pid), the file afterwards whole, its
rows not doubled; a lock left by a process that died is taken over."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from npuzzle import locks
from npuzzle.errors import OutputBusyError

SRC = str(Path(locks.__file__).parents[1])
EXIT_BUSY = 5


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", ""),
            "NPUZZLE_STATUS_AFTER": "1000"}


def npuzzle(*argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "npuzzle", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env())


def holder_pid(path: Path, proc: subprocess.Popen[str], timeout: float = 60) -> int:
    """The pid in ``path``'s lock file once ``proc`` has written it."""
    lock = locks.lock_path(path)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        try:
            text = lock.read_text().strip()
        except FileNotFoundError:
            text = ""
        if text.isdigit():
            return int(text)
        time.sleep(0.02)
    raise AssertionError(f"{lock} never held a pid")


def refused(path: Path, pid: int, *argv: str) -> None:
    """A second run on ``path`` while ``pid`` writes it: refused at once, with that pid."""
    start = time.monotonic()
    second = subprocess.run([sys.executable, "-m", "npuzzle", *argv], capture_output=True, text=True,
                            env=_env(), timeout=120)
    lines = second.stderr.strip().splitlines()
    assert second.returncode == EXIT_BUSY, second.stderr
    assert len(lines) == 1 and f"pid {pid}" in lines[0] and str(path) in lines[0], lines
    assert "Traceback" not in second.stderr
    assert time.monotonic() - start < 30  # at once: a start-up, no search


def dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


def test_two_datasets_on_one_out(tmp_path):
    out = tmp_path / "rows.jsonl"
    argv = ("dataset", "--shape", "3x3", "--count", "30000", "--seed", "1", "--out", str(out), "--quiet")
    first = npuzzle(*argv)
    pid = holder_pid(out, first)
    assert pid == first.pid
    refused(out, pid, *argv)
    assert first.wait(timeout=600) == 0, first.communicate()
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["index"] for r in rows] == list(range(30000))
    assert not locks.lock_path(out).exists()


@pytest.mark.slow
def test_two_grids_on_one_out(tmp_path):
    out = tmp_path / "runs.csv"
    argv = ("bench", "random:3x3:30:1", "--method", "idastar,astar", "--out", str(out))
    first = npuzzle(*argv)
    pid = holder_pid(out, first)
    refused(out, pid, *argv)
    assert first.wait(timeout=600) == 0, first.communicate()
    lines = out.read_text().splitlines()
    assert len(lines) == 1 + 60 and len(set(lines)) == len(lines)  # the header and each run once
    again = subprocess.run([sys.executable, "-m", "npuzzle", *argv], capture_output=True, text=True, env=_env(),
                           timeout=300)
    assert again.returncode == 0 and out.read_text().splitlines() == lines


def _holding(path: Path) -> subprocess.Popen[str]:
    """A process that claims ``path`` and keeps it until killed."""
    code = f"import sys, time; from npuzzle import locks; locks.claim({str(path)!r}); print('held', flush=True); " \
           "time.sleep(120)"
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=_env())
    assert proc.stdout is not None and proc.stdout.readline() == "held\n"
    return proc


@pytest.mark.slow
def test_moves_out_and_table_builds_have_one_writer(tmp_path, private_store):
    moves = tmp_path / "moves.txt"
    other = _holding(moves)
    try:
        refused(moves, other.pid, "solve", "--method", "realtime", "--moves-out", str(moves), "1 2 3/4 5 6/0 7 8")
        assert not moves.exists()
    finally:
        other.kill()
        other.wait()
    # its holder killed: the lock left behind is taken over
    assert locks.lock_path(moves).exists()
    done = subprocess.run([sys.executable, "-m", "npuzzle", "solve", "--method", "realtime", "--moves-out",
                           str(moves), "1 2 3/4 5 6/0 7 8"], capture_output=True, text=True, env=_env(), timeout=300)
    assert done.returncode == 0, done.stderr
    assert moves.read_text() == "LL\n" and not locks.lock_path(moves).exists()

    table = private_store / "pdb_3x3_standard_1.2.3.4-5.6.7.8_v1.npt"
    private_store.mkdir(exist_ok=True)
    other = _holding(table)
    try:
        refused(table, other.pid, "tables", "build", "pdb:4-4", "--shape", "3x3")
        assert not table.exists()
    finally:
        other.kill()
        other.wait()
    table = private_store / "bfs_2x4_standard_all_v1.npt"
    other = _holding(table)
    try:
        refused(table, other.pid, "stats", "bfs", "2x4", "--save")
        assert not table.exists()
    finally:
        other.kill()
        other.wait()


@pytest.mark.parametrize("stale", ["a dead pid", "empty", "garbage"])
def test_a_stale_lock_is_taken_over(tmp_path, stale):
    out = tmp_path / "rows.jsonl"
    locks.lock_path(out).write_text({"a dead pid": f"{dead_pid()}\n", "empty": "", "garbage": "x" * 100}[stale])
    done = subprocess.run([sys.executable, "-m", "npuzzle", "dataset", "--shape", "2x3", "--count", "50", "--seed",
                           "2", "--out", str(out), "--quiet"], capture_output=True, text=True, env=_env(), timeout=300)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["index"] for line in out.read_text().splitlines()] == list(range(50))
    assert not locks.lock_path(out).exists()


def test_a_process_claims_a_file_once_and_lets_it_go_with_its_last_hold(tmp_path):
    out = tmp_path / "x.csv"
    first = locks.claim(out)
    second = locks.claim(out)  # the same process: one more hold, not a second writer
    assert second is first and int(locks.lock_path(out).read_text()) == os.getpid()
    second.release()
    assert locks.lock_path(out).exists()
    first.release()
    assert not locks.lock_path(out).exists()


def test_the_busy_error_names_the_holder():
    e = OutputBusyError("runs.csv", 12)
    assert str(e).startswith("runs.csv is being written by another process (pid 12)")
