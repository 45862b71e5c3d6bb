"""The command line: output, JSON fields, exit statuses, and no traceback for bad input."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from conftest import without_notice
from records import record, records, valid

from npuzzle import Board
from npuzzle.cli import main
from npuzzle.notation import parse_position, parse_shape

JSON_FIELDS = {"tiles", "goal", "moves", "letters", "length", "optimal", "status", "lower_bound",
               "method", "heuristic", "stats"}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_solve_prints_board_and_verified_solution(capsys):
    status, out, err = run(capsys, "solve", "8 6 7/2 5 4/3 0 1")
    assert status == 0 and without_notice(err) == ""
    assert "Solution: 31 moves, optimal" in out
    letters = next(ln.split(":", 1)[1].strip() for ln in out.splitlines() if "letters:" in ln)
    board = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))
    assert board.apply(letters).is_goal()


@pytest.mark.parametrize("goal", ["standard", "blank-first"])
@pytest.mark.parametrize("position, shape", [("1 2 3/4 0 5", None), ("2 1 0 3 4 5", "3x2"),
                                             ("1 2 3 4/5 6 0 7", None), ("4 1 2 5 8 3 0 6 7", None)])
def test_solve_json_on_many_shapes(capsys, goal, position, shape):
    argv = ["solve", position, "--json", "--goal", goal] + (["--shape", shape] if shape else [])
    status, out, err = run(capsys, *argv)
    board = parse_position(position, parse_shape(shape) if shape else None)
    if not board.is_solvable(goal):
        data = record(out)
        assert status == 1 and data["status"] == "unsolvable" and "unsolvable" in data["reason"]
        return
    data = record(out)
    assert status == 0 and set(data) >= JSON_FIELDS and data["status"] == "solved" and data["optimal"]
    assert data["stats"]["generated"] >= 1 and isinstance(data["stats"]["iterations"], list)
    assert board.apply(data["moves"]).is_goal(goal)
    assert board.letters(data["moves"]) == data["letters"]
    assert data["length"] == len(data["moves"])


def test_several_positions_and_files(capsys, tmp_path):
    f = tmp_path / "positions.txt"
    f.write_text("# two 3x3 positions\n1 2 3/4 5 6/7 0 8\n\n1 2 3/4 5 6/0 7 8  # two moves\n")
    status, out, _ = run(capsys, "solve", "--file", str(f), "--json")
    assert status == 0
    assert [r["length"] for r in records(out)] == [1, 2]


def test_bare_numbers_make_one_position(capsys):
    status, out, _ = run(capsys, "solve", "1", "2", "3", "4", "5", "6", "7", "0", "8", "--json")
    assert status == 0 and record(out)["moves"] == [8]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["solve", "1 2 3/4 5 6/7 8 8"], "duplicate tile 8"),
        (["solve", "1 2 3/4 5 6/7 8 9"], "tile 9 is out of range"),
        (["solve", "1 2 3/4 5/6 7 0"], "ragged rows"),
        (["solve", "1 2 3 4 5 0"], "cannot tell the shape"),
        (["solve", "1 2 x/4 5 6/7 8 0"], "bad character 'x'"),
        (["solve", "1 2 3/4 5 6/8 7 0"], "unsolvable for the standard goal"),
        (["solve", "   "], "empty position"),
        (["solve", "--file", "/nonexistent/positions.txt"], "no such file"),
        (["check", "1 2 3 4 5 6 7 0", "--shape", "3x3"], "wrong count"),
        (["solve"], "no position given"),
    ],
)
def test_bad_input_exit_1_with_message(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 1
    assert message in err
    assert "Traceback" not in err


@pytest.mark.parametrize("argv", [["solve", "--shape", "3by3", "1"], ["frobnicate"], ["solve", "--timeout", "-1", "1"],
                                  ["solve", "--method", "magic", "1"]])
def test_usage_errors_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_limit_reached_exits_3_with_bound(capsys):
    status, out, _ = run(capsys, "solve", "159d26ae37bf48c0", "--max-nodes", "50000", "--json")
    assert status == 3
    data = record(out)
    assert data["status"] == "node-limit" and data["moves"] == [] and data["length"] is None
    assert 40 <= data["lower_bound"] <= 72


def test_verbose_reports_iterations(capsys):
    status, out, err = run(capsys, "solve", "5 1 3 4/2 6 7 8/9 10 11 12/0 13 14 15", "--heuristic", "manhattan", "-v")
    assert status == 0
    assert "threshold" in err and "solution found" in err


def test_check(capsys):
    status, out, _ = run(capsys, "check", "1 2 3/4 5 6/8 7 0", "--json")
    data = record(out)
    assert status == 1 and data["solvable"] is False and "odd permutation" in data["reason"]
    status, out, _ = run(capsys, "check", "159d26ae37bf48c0", "--json")
    data = record(out)
    assert status == 0 and data["solvable"] and data["manhattan"] == 40


def test_bench_subset(capsys):
    status, out, _ = run(capsys, "bench", "korf100", "--ids", "12,19")
    assert status == 0
    assert "2 node counts equal to Korf's" in out


def test_help_explains_conventions():
    result = subprocess.run([sys.executable, "-m", "npuzzle.cli", "solve", "--help"],
                            capture_output=True, text=True, check=True)
    assert "159d26ae37bf48c0" in result.stdout and "blank-first" in result.stdout
    assert "L slides the tile right of the blank" in result.stdout


HELP_LOADS_NOTHING = """
import sys
from npuzzle.cli import main
try:
    main({argv!r})
except SystemExit as e:
    assert e.code == 0, e.code
loaded = [m for m in ("numpy", "numba") if m in sys.modules]
assert not loaded, loaded
"""


@pytest.mark.parametrize("argv", [["--help"], ["solve", "--help"], ["check", "--help"], ["scramble", "--help"],
                                  ["knuth", "--help"], ["bench", "--help"], ["warmup", "--help"],
                                  ["stats", "sample", "--help"], ["tables", "build", "--help"], ["--version"]])
def test_help_loads_neither_numpy_nor_numba(argv):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run([sys.executable, "-c", HELP_LOADS_NOTHING.format(argv=argv)], env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("npuzzle 0." if argv == ["--version"] else "usage: npuzzle")


def test_python_m_npuzzle_is_the_command():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    for module in ("npuzzle", "npuzzle.cli"):
        result = subprocess.run([sys.executable, "-m", module, "check", "1 2 3/4 5 6/8 7 0"], env=env,
                                capture_output=True, text=True)
        assert result.returncode == 1 and "odd permutation" in result.stdout


def test_scramble_positions_are_solvable_and_reproducible(capsys):
    for argv in (["--shape", "3x5", "-n", "4", "--seed", "3"],
                 ["--shape", "4x3", "--walk", "25", "-n", "3", "--seed", "2"],
                 ["--shape", "4x4", "--notation", "hex", "-n", "2", "--seed", "9", "--goal", "blank-first"]):
        status, out, _ = run(capsys, "scramble", *argv)
        again = run(capsys, "scramble", *argv)[1]
        assert status == 0 and out == again
        goal = "blank-first" if "blank-first" in argv else "standard"
        shape = parse_shape(argv[1])
        boards = [parse_position(line, shape) for line in out.splitlines()]
        assert len(boards) == int(argv[argv.index("-n") + 1])
        assert all(b.is_solvable(goal) and b.shape == shape for b in boards)


def test_scramble_worst_case(capsys):
    status, out, _ = run(capsys, "scramble", "--shape", "6x6", "--worst")
    board = parse_position(out, (6, 6))
    assert status == 0 and board.is_solvable() and board.manhattan() > 100
    assert run(capsys, "scramble", "--shape", "3x4", "--worst")[0] == 1


def test_realtime_count_and_moves_out(capsys, tmp_path):
    position = run(capsys, "scramble", "--shape", "12x9", "--seed", "5")[1].strip()
    status, out, _ = run(capsys, "solve", position, "--method", "realtime", "--count-only", "--json")
    counted = record(out)
    report = counted["report"]
    assert status == 0 and report["wasted"] is None and counted["length"] > report["manhattan"]
    assert "tiles" not in counted and "moves" not in counted and "letters" not in counted
    path = tmp_path / "moves.txt"
    status, out, _ = run(capsys, "solve", position, "--moves-out", str(path), "--json")
    written = record(out)
    letters = path.read_text().strip()
    assert status == 0 and len(letters) == written["length"] == counted["length"]
    assert written["report"]["wasted"] is not None and written["lower_bound"] == counted["lower_bound"]
    assert parse_position(position).apply(letters).is_goal()
    assert run(capsys, "solve", position, "--method", "idastar", "--count-only")[0] == 1
    status, _, err = run(capsys, "solve", position, "--count-only", "--budget", "5")
    assert status == 1 and "--budget does not apply" in err
    big = run(capsys, "scramble", "--shape", "33x33", "--seed", "1")[1].strip()
    status, _, err = run(capsys, "solve", big, "--budget", "5")
    assert status != 0 and "a 33x33 board is solved in real time: leave out --budget" in err


def test_astar_weight_and_memory_limit(capsys):
    status, out, _ = run(capsys, "solve", "5 1 3 4/2 6 7 8/9 10 11 12/0 13 14 15", "--method", "astar",
                         "--weight", "1.5", "--json")
    data = record(out)
    assert status == 0 and data["method"] == "weighted-astar" and "1.5" in data["note"]
    status, out, _ = run(capsys, "solve", "159d26ae37bf48c0", "--method", "astar", "--max-memory", "4M", "--json")
    data = record(out)
    assert status == 3 and data["status"] == "memory-limit" and 40 <= data["lower_bound"] <= 72


def test_ctrl_c_stops_cleanly_with_the_bound():
    import signal
    import time

    proc = subprocess.Popen([sys.executable, "-m", "npuzzle.cli", "solve", "159d26ae37bf48c0", "--json", "-v"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(600):  # wait until the search has started
        time.sleep(0.1)
        if proc.poll() is not None:
            break
        line = proc.stderr.readline()
        if "threshold" in line:
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    data = record(out)
    assert data["status"] == "interrupted" and 40 <= data["lower_bound"] <= 72
    assert "Traceback" not in err


def _timeless(text: str) -> str:
    """Solve output without its times (they differ between two runs)."""
    return re.sub(r"in [0-9.]+ s \([0-9.]+ s CPU\)", "in T", text)


@pytest.mark.parametrize("goal", ["standard", "blank-first"])
@pytest.mark.parametrize("method", ["greedy", "parberry"])
def test_a_streamed_answer_is_the_answer_the_solution_gives(capsys, monkeypatch, goal, method):
    """Above present.LETTERS_ONLY_CELLS a real-time answer is written from its packed moves, in
    pieces; lowered to 9 cells here, a 4x5 board's streamed text and JSON are what present makes
    of realtime_solve's Solution, letters and all."""
    from npuzzle.present import solution as present
    from npuzzle.search.realtime import realtime_solve

    monkeypatch.setattr(present, "LETTERS_ONLY_CELLS", 9)
    position = run(capsys, "scramble", "--shape", "4x5", "--seed", "3", "--goal", goal)[1].strip()
    board = parse_position(position, (4, 5))
    solution = realtime_solve(board, goal=goal, method=method)
    report = present.report_for(solution)
    argv = ["solve", position, "--shape", "4x5", "--goal", goal, "--method", "realtime", "--realtime-method", method]
    status, out, _ = run(capsys, *argv)
    assert status == 0 and _timeless(out) == _timeless(present.solution_text(solution, report)) + "\n"
    assert "tiles pushed" not in out and f"  letters:      {solution.letters}\n" in out
    status, out, _ = run(capsys, *argv, "--json")
    streamed, expected = record(out), valid(json.loads(json.dumps(present.solution_record(solution, report))))
    timeless = ("wall_seconds", "cpu_seconds", "argument")
    assert {k: v for k, v in streamed.items() if k not in timeless} == {
        k: v for k, v in expected.items() if k not in timeless}
    assert "moves" not in streamed and streamed["letters"] == solution.letters
    assert board.apply(streamed["letters"]).is_goal(goal) and list(streamed)[-1] == "letters"


def test_a_real_time_answer_beyond_20x20_is_letters_only(capsys):
    position = run(capsys, "scramble", "--shape", "21x21", "--seed", "2")[1].strip()
    board = parse_position(position)
    status, out, _ = run(capsys, "solve", position, "--method", "realtime")
    lines = out.splitlines()
    assert status == 0 and lines[0] == "21x21 board, goal standard:" and "tiles pushed" not in out
    letters = next(ln for ln in lines if ln.startswith("  letters:")).split()[1]
    assert board.apply(letters).is_goal()
    status, out, _ = run(capsys, "solve", position, "--method", "realtime", "--json")
    data = record(out)
    assert "moves" not in data and data["letters"] == letters and data["length"] == len(letters)
    assert data["report"]["wasted"] == (len(letters) - data["report"]["manhattan"]) // 2


def test_a_streamed_answer_stops_at_its_time_limit(capsys, tmp_path):
    position = run(capsys, "scramble", "--shape", "21x21", "--seed", "4")[1].strip()
    status, out, _ = run(capsys, "solve", position, "--method", "realtime", "--timeout", "1e-6")
    assert status == 3 and "Stopped at the time limit (1e-06 s) before finding a solution" in out
    assert "letters" not in out
    status, out, _ = run(capsys, "solve", position, "--method", "realtime", "--timeout", "1e-6", "--json")
    data = record(out)
    assert status == 3 and data["status"] == "timeout" and data["length"] is None and data["letters"] == ""
    assert data["lower_bound"] >= parse_position(position).manhattan()
    moves = tmp_path / "moves.txt"
    status, _, _ = run(capsys, "solve", position, "--moves-out", str(moves), "--timeout", "1e-6")
    assert status == 3 and not moves.exists()
