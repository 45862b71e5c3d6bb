"""Hostile input (issue 18): every bad number, id list, position, output or input file gives
an exit status and one line naming the problem, never a traceback, and loses nothing."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from npuzzle.cli import main

P = "1 2 3/4 5 6/7 0 8"


def fails(capsys, status: int, *argv: str) -> str:
    """Run the CLI, expect ``status`` and one error (after argparse's usage, for status 2): one
    line, or for a position that cannot reach the goal its verdict and the reason indented below
    it; return the first line."""
    try:
        code = main(list(argv))
    except SystemExit as e:  # argparse's usage errors
        code = e.code
    assert code == status
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    lines = captured.err.splitlines()
    if status == 2:  # argparse prints the usage first, then one error line
        assert lines and lines[0].startswith("usage:")
        lines = [ln for ln in lines if ln.startswith("npuzzle")]
    lines = [ln for ln in lines if not ln.startswith("  ")]
    assert len(lines) == 1, captured.err
    assert all(len(line) < 300 for line in captured.err.splitlines())
    return lines[0]


# -- item 1: numbers from the command line -------------------------------------------------------


@pytest.mark.parametrize("argv, words", [
    (["solve", P, "--weight", "inf"], "finite"),
    (["solve", P, "--weight", "1e400"], "finite"),
    (["solve", P, "--weight", "nan"], "finite"),
    (["solve", P, "--weight", "1e308"], "from 1 to 1000"),
    (["solve", P, "--weight", "0.5"], "from 1 to 1000"),
    (["solve", P, "--method", "astar", "--max-memory", "inf"], "finite"),
    (["solve", P, "--method", "astar", "--max-memory", "1e30"], "1 EiB"),
    (["solve", "159d26ae37bf48c0", "--heuristic", "manhattan", "--timeout", "nan"], "finite"),
    (["solve", P, "--timeout", "inf"], "finite"),
    (["solve", P, "--timeout=-1"], "positive"),
    (["solve", P, "--max-nodes", "9" * 5000], "not a whole number"),
    (["scramble", "--seed=-1"], "0 to 2**63-1"),
    (["scramble", "--seed", str(1 << 63)], "0 to 2**63-1"),
    (["stats", "sample", "--shape", "3x3", "--seed=-3"], "0 to 2**63-1"),
    (["scramble", "--shape", "99999x99999"], "at most 4,194,304"),
    (["scramble", "--shape", "2x999999999"], "at most 4,194,304"),
])
def test_bad_numbers_are_usage_errors(capsys, argv, words):
    line = fails(capsys, 2, *argv)
    assert words in line
    assert len(line) < 200


def test_good_numbers_still_work(capsys):
    assert main(["solve", P, "--method", "astar", "--weight", "1.5", "--timeout", "30",
                 "--max-memory", "64M", "--json"]) == 0
    assert main(["scramble", "--seed", str((1 << 63) - 1), "--shape", "3x3"]) == 0
    assert main(["scramble", "--seed", "0", "--shape", "1000x1000", "--notation", "list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out[-1].split()) == 1_000_000


def test_library_limits_refuse_nan():
    from npuzzle.search.limits import Limit

    for bad in (float("nan"), float("inf"), -1.0):
        with pytest.raises(ValueError, match="finite"):
            Limit(timeout=bad)


# -- item 2: benchmark ids -----------------------------------------------------------------------


@pytest.mark.parametrize("ids, words", [
    ("5-1", "reversed: write 1-5"),
    (",", "no instance id given"),
    ("", "no instance id given"),
    ("1-999999999999", "no instance 999999999999 (ids are 1 to 100)"),
    ("0", "no instance 0"),
    ("x" * 5000, "is not an instance id"),
    ("3-", "is not an instance id"),
])
def test_bad_benchmark_ids(capsys, ids, words):
    line = fails(capsys, 1, "bench", "korf100", "--ids", ids)
    assert line.startswith("npuzzle bench: bad --ids ")
    assert words in line


def test_benchmark_ids_library():
    from npuzzle import benchmark

    assert benchmark.parse_ids("1-3, 7,", "korf100") == [1, 2, 3, 7]
    assert benchmark.parse_ids(None) is None
    with pytest.raises(ValueError, match="korf50 has no instance 51"):
        benchmark.parse_ids("51", "korf50")


# -- item 3: Python's integer-string limit, and short excerpts of bad input ----------------------


def test_4301_zeros_are_a_message(capsys):
    line = fails(capsys, 1, "check", "0" * 4301)
    assert "1 number is no board" in line and "..." in line


def test_huge_numbers_in_positions_and_moves():
    from npuzzle.errors import NPuzzleError
    from npuzzle.notation import parse_moves, parse_position

    assert parse_position("0" * 5000 + "1 2 3 0").tiles == (1, 2, 3, 0)
    with pytest.raises(NPuzzleError, match="out of range"):
        parse_position("9" * 5000 + " 1 2 0")
    assert parse_moves("0" * 5000 + "3 4") == [3, 4]


LONG = "x" * 5000


#: Each long bad argument with the exit status it must give: 1 for input the library refuses (a
#: position, a benchmark's ids), 2 for a value the parser's own types refuse (usage).
@pytest.mark.parametrize("argv, status", [
    (["check", LONG], 1),
    (["check", "1 2 3/4 5 6/7 0 " + LONG], 1),
    (["check", "1 2 3/4 5 6/7 0 8" + "9" * 5000], 1),
    (["check", "abc" + LONG], 1),
    (["check", "--shape", "2x2", "12" + LONG], 1),
    (["solve", "--heuristic", LONG, P], 2),
    (["solve", "--heuristic", "wd+" + LONG, P], 2),
    (["stats", "bfs", "2x3", "--blank-cell", LONG], 2),
    (["scramble", "--shape", LONG], 2),
    (["solve", P, "--timeout", LONG], 2),
    (["solve", P, "--max-memory", LONG], 2),
    (["bench", "korf100", "--ids", "1-" + LONG], 1),
])
def test_long_bad_input_is_quoted_short(capsys, argv, status):
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    captured = capsys.readouterr()
    assert code == status, (code, captured.err[:300])
    assert "Traceback" not in captured.err
    line = [ln for ln in captured.err.splitlines() if ln.startswith("npuzzle")]
    assert len(line) == 1 and len(line[0]) < 300, line
    assert "x" * 41 not in line[0] and "9" * 41 not in line[0]


def test_library_messages_are_short():
    from npuzzle import Board
    from npuzzle.errors import NPuzzleError

    for bad in (("x" * 5000, 1, 2, 0), (10 ** 5000, 1, 2, 0)):
        with pytest.raises(NPuzzleError) as e:
            Board(2, 2, bad)
        assert len(str(e.value)) < 100


# -- item 4: writing output ----------------------------------------------------------------------

full_disk = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")


@full_disk
def test_moves_out_on_a_full_disk(capsys):
    line = fails(capsys, 1, "solve", P, "--moves-out", "/dev/full")
    assert line == "npuzzle solve: cannot write '/dev/full': No space left on device (the disk is full)"


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc")
def test_moves_out_to_a_file_that_takes_no_writes(capsys):
    line = fails(capsys, 1, "solve", P, "--moves-out", "/proc/self/status")
    assert line.startswith("npuzzle solve: cannot write '/proc/self/status': ")


def test_moves_out_in_a_missing_folder(capsys, tmp_path):
    line = fails(capsys, 1, "solve", P, "--moves-out", str(tmp_path / "no" / "moves.txt"))
    assert "No such file or directory" in line


@full_disk
@pytest.mark.parametrize("argv", [["solve", P], ["check", P], ["solve", P, "--moves-out", "-"],
                                  ["scramble", "--shape", "100x100"]])
def test_standard_output_on_a_full_disk(argv):
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "npuzzle", *argv], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"npuzzle {argv[0]}: cannot write the standard output: No space left on device (the disk is full)"]


def test_count_only_with_moves_out_is_refused_and_keeps_the_file(capsys, tmp_path):
    keep = tmp_path / "keep.txt"
    keep.write_text("precious\n")
    line = fails(capsys, 2, "solve", P, "--count-only", "--moves-out", str(keep))
    assert "not allowed with" in line
    assert keep.read_text() == "precious\n"


def test_moves_out_keeps_the_file_when_nothing_is_solved(capsys, tmp_path):
    keep = tmp_path / "keep.txt"
    keep.write_text("precious\n")
    fails(capsys, 1, "solve", "1 2 3/4 5 6/8 7 0", "--moves-out", str(keep))
    assert keep.read_text() == "precious\n"
    fails(capsys, 1, "solve", P, P, "--moves-out", str(keep))
    assert keep.read_text() == "precious\n"
    assert main(["solve", P, "--moves-out", str(keep)]) == 0
    assert keep.read_text() == "L\n"
    fresh = tmp_path / "fresh.txt"
    fails(capsys, 1, "solve", "1 2 3/4 5 6/8 7 0", "--moves-out", str(fresh))
    assert not fresh.exists()


def _cli(*argv: str, preexec_fn=None) -> subprocess.Popen:
    """The command line in a process of its own, Ctrl-C restored to Python's default (a job run
    in the background, as CI may run the tests, has it ignored, and its children inherit that)."""
    import signal

    def start() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if preexec_fn is not None:
            preexec_fn()

    return subprocess.Popen([sys.executable, "-m", "npuzzle", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)), preexec_fn=start)


def _scrambled(folder, shape: str, seed: int):
    """A file in ``folder`` holding a random board of ``shape`` (``npuzzle scramble``)."""
    board = folder / "board.txt"
    with open(board, "w") as f:
        subprocess.run([sys.executable, "-m", "npuzzle", "scramble", "--shape", shape, "--seed", str(seed)], stdout=f,
                       check=True, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    return board


def _no_leftovers(folder) -> None:
    assert [p.name for p in folder.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.skipif(not hasattr(__import__("signal"), "SIGXFSZ"), reason="needs file-size limits (POSIX)")
def test_moves_out_past_a_file_size_limit_keeps_the_previous_file(tmp_path):
    """The disk fills up (a file-size limit of 40 kB, the moves about 120 kB) while the moves are
    written: one line, exit status 1, the previous file as it was and no partial file left."""
    import resource
    import signal

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (40_000, 40_000))

    board = _scrambled(tmp_path, "40x40", 3)
    keep = tmp_path / "moves.txt"
    keep.write_text("precious\n")
    proc = _cli("solve", "--file", str(board), "--shape", "40x40", "--moves-out", str(keep), preexec_fn=limited)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 1, err
    lines = err.splitlines()
    assert len(lines) == 1 and "cannot write" in lines[0] and "Traceback" not in err
    assert keep.read_text() == "precious\n"
    _no_leftovers(tmp_path)


def test_moves_out_interrupted_keeps_the_previous_file(tmp_path):
    """Ctrl-C while a 400x400 board is solved: exit status 130, the previous file as it was."""
    import signal
    import time

    board = _scrambled(tmp_path, "400x400", 1)
    keep = tmp_path / "moves.txt"
    keep.write_text("precious\n")
    proc = _cli("solve", "--file", str(board), "--shape", "400x400", "--moves-out", str(keep))
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    assert keep.read_text() == "precious\n"
    _no_leftovers(tmp_path)


def test_moves_out_replaces_the_file_once_complete_and_keeps_its_mode(capsys, tmp_path):
    keep = tmp_path / "moves.txt"
    keep.write_text("precious\n")
    keep.chmod(0o640)
    assert main(["solve", "1 2 3/4 5 6/0 7 8", "--moves-out", str(keep)]) == 0
    assert keep.read_text() == "LL\n" and keep.stat().st_mode & 0o777 == 0o640
    link = tmp_path / "link.txt"
    link.symlink_to(keep)
    assert main(["solve", P, "--moves-out", str(link)]) == 0
    assert link.is_symlink() and keep.read_text() == "L\n"
    fresh = tmp_path / "fresh.txt"
    old = os.umask(0o027)
    try:
        assert main(["solve", P, "--moves-out", str(fresh)]) == 0
    finally:
        os.umask(old)
    assert fresh.stat().st_mode & 0o777 == 0o640
    _no_leftovers(tmp_path)


# -- item 5: input files are read with bounds ----------------------------------------------------


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_file_without_end_is_refused(capsys):
    line = fails(capsys, 1, "check", "--file", "/dev/zero")
    assert line == "npuzzle check: /dev/zero:1: a line longer than 64 MiB is no position"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_stdin_without_end_is_refused():
    with open("/dev/zero", "rb") as zero:
        done = subprocess.run([sys.executable, "-m", "npuzzle", "check", "-f", "-"], stdin=zero,
                              capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert done.returncode == 1
    assert done.stderr.splitlines() == ["npuzzle check: <stdin>:1: a line longer than 64 MiB is no position"]


def test_file_and_line_limits(capsys, tmp_path, monkeypatch):
    from npuzzle import notation

    monkeypatch.setattr(notation, "MAX_LINE_BYTES", 40)
    monkeypatch.setattr(notation, "MAX_INPUT_BYTES", 200)
    monkeypatch.setattr(notation, "_CHUNK", 16)
    good = tmp_path / "good.txt"
    good.write_text("1 2 3/4 5 6/7 0 8\n" * 5 + "# a comment\n")
    assert main(["check", "--file", str(good)]) == 0
    assert "5 positions: 5 solvable" in capsys.readouterr().err
    long_line = tmp_path / "long.txt"
    long_line.write_text("1 2 3/4 5 6/7 0 8\n" + "1 2 3/4 5 6/7 0 8 " * 3 + "\n")
    assert fails(capsys, 1, "check", "--file", str(long_line)).endswith(
        f"{long_line}:2: a line longer than 40 bytes is no position")
    big = tmp_path / "big.txt"
    big.write_text("1 2 3/4 5 6/7 0 8\n" * 12)
    assert "more than 200 bytes of positions" in fails(capsys, 1, "check", "--file", str(big))
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe1 2 3 0\n")
    assert "not UTF-8 text" in fails(capsys, 1, "check", "--file", str(bad))
    assert "is a folder, not a file of positions" in fails(capsys, 1, "check", "--file", str(tmp_path))


def test_whole_numbers_read_as_before(capsys):
    assert main(["scramble", "--shape", "3x3", "--count", "1_0", "--seed", "+7"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 10
