"""Ctrl-C at the moments a user can press it: while the command starts (numpy and numba loading),
while a kernel compiles on first use (the warm-up search included), while the workers of a
``--jobs 2`` batch search, and while a benchmark grid runs. Each time: exit status 130, the
interruption said in one line, no traceback (from the command or from a worker).

Each case runs a real ``npuzzle`` process in a session of its own and sends SIGINT to its whole
process group, as a terminal does."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg") or not Path("/proc/self/maps").exists(),
                                reason="process groups and /proc (Linux)")

HARD_4X4 = ["0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1", "12 6 14 13/11 10 5 1/0 4 9 15/8 3 7 2"]  # Korf's #1, #3
#: The compile notice's start (a line of its own on stderr, before the interruption's).
NOTICE = "npuzzle: compiling"


def _start(*argv: str, cold: bool = False, cwd: Path | None = None) -> subprocess.Popen[str]:
    """``npuzzle ARGV`` in a session of its own, Ctrl-C restored to Python's default (a job run in
    the background has it ignored, and children inherit that); ``cold``: numba compiles every
    kernel (no cache)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    if cold:
        env["NPUZZLE_NUMBA_CACHE"] = "0"
    return subprocess.Popen([sys.executable, "-m", "npuzzle", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=cwd, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _wait(condition, proc: subprocess.Popen[str], seconds: float = 120) -> None:
    """Until ``condition()`` holds (polled every 5 ms); the process must still be running."""
    end = time.monotonic() + seconds
    while not condition():
        assert proc.poll() is None, f"the command ended first: {proc.communicate()}"
        assert time.monotonic() < end, "the moment never came"
        time.sleep(0.005)


def _loaded(proc: subprocess.Popen[str], library: str) -> bool:
    try:
        return library in Path(f"/proc/{proc.pid}/maps").read_text()
    except OSError:
        return False


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _interrupted(proc: subprocess.Popen[str], command: str, *, stderr_before: str = "") -> tuple[str, str]:
    """Ctrl-C to the command's process group; it must end with status 130, no traceback, and say
    so in one line (on stderr, or the stopped search's report on stdout)."""
    os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise AssertionError("still running 120 s after Ctrl-C") from None
    err = stderr_before + err
    assert proc.returncode == 130, (proc.returncode, out[-500:], err[-2000:])
    assert "Traceback" not in err and "Exception ignored" not in err, err
    lines = [line for line in err.splitlines() if not line.startswith(NOTICE)]
    assert lines == [f"npuzzle {command}: interrupted"] or (lines == [] and "nterrupted" in out), (out, err)
    return out, err


def test_ctrl_c_while_the_command_starts():
    proc = _start("solve", "--method", "idastar", "--heuristic", "lc", HARD_4X4[0], cold=True)
    _wait(lambda: _loaded(proc, "numpy"), proc)  # the command runs: it is loading numpy (numba next)
    _interrupted(proc, "solve")


@pytest.mark.parametrize("after", [0.0, 1.5])
def test_ctrl_c_while_a_kernel_compiles_on_first_use(after):
    """During the IDA* warm-up's compilation (before the fix, an interrupt there was taken for a
    stopped warm-up and the real search started)."""
    proc = _start("solve", "--method", "idastar", "--heuristic", "wd+id", "--timeout", "60", HARD_4X4[0], cold=True)
    assert proc.stderr is not None
    first = proc.stderr.readline()  # the notice: numba has started compiling
    assert first.startswith(NOTICE), first
    time.sleep(after)
    _interrupted(proc, "solve", stderr_before=first)


def test_an_interrupted_warm_up_stops_the_solve(monkeypatch):
    """Ctrl-C while the warm-up search compiles its kernel: the warm-up's search reports itself
    interrupted (as ``deepen`` does), and the solve must stop there, not start the real search."""
    from npuzzle import Board
    from npuzzle.search import Request, idastar, prepare
    from npuzzle.search.limits import INTERRUPTED, Stats, unfinished

    calls = []

    def interrupted(start, goal, *args, **kwargs):
        calls.append(start)
        return unfinished(start, goal, INTERRUPTED, 0, stats=Stats(), method="idastar", heuristic="lc")

    monkeypatch.setattr(idastar, "_run", interrupted)
    idastar._warm.cache_clear()  # as in a new process: an earlier test may have warmed this kernel up
    problem = prepare(Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1)), Request(heuristic="lc"), "idastar")
    with pytest.raises(KeyboardInterrupt):
        idastar.solve_problem(problem)
    assert len(calls) == 1  # the warm-up alone: no search started after it


def test_ctrl_c_while_the_workers_of_a_batch_search(tmp_path):
    """The terminal's Ctrl-C reaches the workers too, between two positions as well as in one:
    none prints a traceback, the command stops and so do they."""
    import npuzzle
    from npuzzle.instances import random_board

    positions = tmp_path / "boards.txt"
    positions.write_text("".join(npuzzle.format(random_board(3, 3, seed)) + "\n" for seed in range(3000)))
    proc = _start("solve", "--jobs", "2", "--oversubscribe", "--method", "idastar", "--heuristic", "manhattan",
                  "--file", str(positions))
    _wait(lambda: len(_children(proc.pid)) >= 2, proc)
    assert proc.stdout is not None
    proc.stdout.readline()  # the first answer: the workers are solving
    time.sleep(0.5)
    workers = _children(proc.pid)
    _interrupted(proc, "solve")
    time.sleep(0.5)
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()
                and Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_while_a_bench_grid_runs(tmp_path, jobs):
    out_file = tmp_path / "runs.csv"
    proc = _start("bench", "random:3x3:200:1", "--method", "idastar", "--heuristic", "manhattan,lc", "--jobs", jobs,
                  "--oversubscribe", "--out", str(out_file), cold=True)
    assert proc.stdout is not None
    head = proc.stdout.readline()  # the grid's head: planned, about to run
    assert head.startswith("# grid"), head
    time.sleep(1.0)
    _interrupted(proc, "bench")
    lines = out_file.read_text().splitlines() if out_file.exists() else []
    assert len(lines) < 1 + 400  # stopped before the end; the rows written are whole
    assert all(line.count(",") == lines[0].count(",") for line in lines)
