"""What a terminal shows while a search runs (issue 17, "never silent"): the notice that kernels
are being compiled, the live status line, and neither when stderr is not a terminal or with
``--quiet``. Terminal behaviour goes through a pseudo-terminal; nothing asserts on timing
(``NPUZZLE_STATUS_AFTER=0`` shows the status from the first slice on).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from npuzzle.cli import main
from npuzzle.instances import benchmark_set
from npuzzle.notation import parse_position
from npuzzle.search import Progress, solve
from npuzzle.search.limits import Limit

HARD = "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1"  # 80 moves: minutes with the Manhattan distance
SEARCH = ["solve", HARD, "--heuristic", "manhattan", "--pruning", "parent", "--max-nodes", "30000000"]
STATUS = "searching: bound "
NOTICE = "kernels on first use"


def _env(**extra: str) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), NPUZZLE_STATUS_AFTER="0", **extra)


def run_on_terminal(argv: list[str], **env: str) -> tuple[int, str, str]:
    """Run the command with stderr on a pseudo-terminal (stdout a pipe); its status, stdout and
    everything the terminal received."""
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "npuzzle.cli", *argv], stdout=subprocess.PIPE,
                            stderr=slave, env=_env(**env))
    os.close(slave)
    received = bytearray()
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the last writer closed the terminal
            break
        if not chunk:
            break
        received += chunk
    os.close(master)
    out = proc.stdout.read().decode() if proc.stdout else ""
    return proc.wait(timeout=600), out, received.decode()


def run_piped(argv: list[str], **env: str) -> tuple[int, str, str]:
    result = subprocess.run([sys.executable, "-m", "npuzzle.cli", *argv], capture_output=True, text=True,
                            env=_env(**env), timeout=600)
    return result.returncode, result.stdout, result.stderr


@pytest.fixture(scope="module")
def warm() -> None:
    """The kernels of ``SEARCH`` compiled and in numba's cache."""
    assert run_piped([*SEARCH[:-1], "1000"])[0] == 3


def test_status_line_on_a_terminal_then_cleared(warm):
    status, out, err = run_on_terminal(SEARCH)
    assert status == 3 and "Stopped at the node limit (30,000,000 nodes) before finding a solution" in out
    assert STATUS in err and "nodes/s" in err
    assert err.count("\r" + STATUS) >= 1
    assert err.endswith("\r\x1b[K")  # the status line is cleared when the search ends
    assert NOTICE not in err  # the cache is warm: nothing is compiled, no notice


def test_no_status_when_stderr_is_a_pipe(warm):
    status, out, err = run_piped(SEARCH)
    assert status == 3 and "Stopped at the node limit" in out
    assert STATUS not in err and "\r" not in err and err == ""


@pytest.mark.parametrize("quiet", ["--quiet", "-q"])
def test_no_status_with_quiet(warm, quiet):
    status, out, err = run_on_terminal([*SEARCH, quiet])
    assert status == 3 and "Stopped at the node limit" in out
    assert STATUS not in err and NOTICE not in err


def test_verbose_lines_are_not_mixed_into_the_status(warm):
    status, _, err = run_on_terminal([*SEARCH, "-v"])
    assert status == 3
    assert "solving 4x4, goal standard: first bound 58 from manhattan (Manhattan distance 58)" in err
    for line in err.replace("\r\n", "\n").split("\n"):
        if "threshold" in line:  # what stays visible: the iteration on a cleared line
            assert line.split("\r")[-1].removeprefix("\x1b[K").startswith("  threshold ")


@pytest.mark.slow
def test_compile_notice_only_when_kernels_are_compiled_on_a_terminal_or_not():
    argv = ["solve", "8 6 7/2 5 4/3 0 1", "--heuristic", "manhattan", "--pruning", "parent"]
    status, out, err = run_on_terminal(argv, NPUZZLE_NUMBA_CACHE="0")  # no cache: every kernel compiles
    assert status == 0 and "Solution: 31 moves" in out
    assert "compiling the IDA* kernels on first use (once, about " in err and " s CPU;" in err
    assert "npuzzle warmup" in err and err.count(NOTICE) == 1
    piped = run_piped(argv, NPUZZLE_NUMBA_CACHE="0")[2]  # not a terminal: the same one line
    assert [line for line in piped.splitlines() if NOTICE in line] == piped.splitlines()[:1]
    assert piped.count(NOTICE) == 1
    assert NOTICE not in run_on_terminal([*argv, "-q"], NPUZZLE_NUMBA_CACHE="0")[2]
    run_piped(argv)  # into the cache
    assert NOTICE not in run_on_terminal(argv)[2]


def test_on_progress_reports_bounds_and_nodes_without_changing_the_search():
    instance = benchmark_set("korf100", [12])[0]
    board, goal = instance.board, instance.goal
    seen: list[Progress] = []
    with_progress = solve(board, heuristic="manhattan", pruning="parent", goal=goal, on_progress=seen.append)
    without = solve(board, heuristic="manhattan", pruning="parent", goal=goal)
    assert with_progress.moves == without.moves
    assert with_progress.stats.generated == without.stats.generated
    assert seen and seen[0].bound == board.manhattan(goal)
    assert all(a.bound <= b.bound and a.generated <= b.generated for a, b in zip(seen, seen[1:], strict=False))
    assert seen[-1].generated <= without.stats.generated
    assert all(p.wall_seconds >= 0 and p.cpu_seconds >= 0 for p in seen)


@pytest.mark.parametrize("position", ["5 1 3 4/2 6 7 8/9 10 11 12/0 13 14 15", "1 2 3/4 0 5", "4 1 2/5 0 3",
                                      "2 1 3 4/5 6 0 7"])
def test_astar_reports_progress_on_several_shapes(position):
    board = parse_position(position, shape=(2, 4)) if position.count("/") == 1 and position.count(" ") == 7 \
        else parse_position(position)
    seen: list[Progress] = []
    sol = solve(board, method="astar", heuristic="manhattan", on_progress=seen.append, goal="blank-first"
                if board.unsolvable_reason("standard") else "standard")
    assert sol.solved and seen
    assert seen[0].bound == board.manhattan(sol.goal) and seen[0].generated == 1


def test_stats_carry_wall_time():
    board = parse_position("8 6 7/2 5 4/3 0 1")
    for method in ("idastar", "astar", "realtime"):
        heuristic = "auto" if method == "realtime" else "manhattan"  # real time takes none
        sol = solve(board, method=method, heuristic=heuristic, limit=Limit(timeout=60))
        assert sol.stats.wall_seconds > 0 and sol.stats.seconds >= 0


def test_bare_npuzzle_prints_the_commands(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: npuzzle")
    for command in ("solve", "check", "scramble", "warmup", "tables"):
        assert f"    {command} " in out


def test_solve_help_has_examples_and_says_what_max_memory_counts(capsys):
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    out = capsys.readouterr().out
    examples = out.split("examples:")[1].split("positions:")[0]
    assert 4 <= examples.count("npuzzle solve") <= 6
    assert "node store" in out and "Not counted" in out and "--quiet" in out


def test_knuth_help_says_it_keeps_the_quirks(capsys):
    with pytest.raises(SystemExit):
        main(["knuth", "--help"])
    assert "quirks" in capsys.readouterr().out


def test_a_parallel_batch_shows_its_progress_then_clears_it(tmp_path):
    """--jobs on a file: a status line of positions done, nodes and rate, cleared before each
    solution is printed, and at the end."""
    path = tmp_path / "boards.txt"
    path.write_text("8 6 7/2 5 4/3 0 1\n6 4 7/8 5 0/3 2 1\n8 6 7/2 5 4/3 0 1\n")
    status, out, err = run_on_terminal(["solve", "--file", str(path), "--jobs", "2", "--heuristic", "manhattan"])
    assert status == 0 and out.count("Solution: 31 moves, optimal") == 3
    assert "\rsolving on 2 workers: 1 of 3 positions, " in err and "nodes/s" in err
    assert "\r\x1b[K" in err and "Traceback" not in err


@pytest.mark.slow
def test_the_compile_notice_names_the_family_of_a_kernel_compiled_outside_solve():
    """``--count-only`` runs real time without ``solve``: the notice then names the family by the
    file of the kernel being compiled (one small kernel here, with numba's cache off)."""
    script = """
import numpy as np
from npuzzle.search import compile_notice
from npuzzle._kernels.realtime import perm_rank
seen = []
with compile_notice(seen.append):
    perm_rank(np.arange(3), 3)
print(seen)
"""
    out = subprocess.run([sys.executable, "-c", script], env=_env(NPUZZLE_NUMBA_CACHE="0"), check=True,
                         capture_output=True, text=True).stdout
    assert out.strip() == "['realtime']"
