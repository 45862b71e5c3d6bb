"""Input that round-trips and the JSON contract (docs/json.md): one outcome per input, in order,
with its place; a bad line never costs the good ones; the documented exit statuses."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from records import records

import npuzzle
from npuzzle import Board
from npuzzle.cli import main
from npuzzle.errors import InvalidBoardError
from npuzzle.notation import NOTATIONS, format_position, parse_lines, parse_position, read_entries
from npuzzle.present import SCHEMA_VERSION

BATCH = "\n".join([
    "8 6 7/2 5 4/3 0 1",        # 1: solvable, 31 moves
    "1 2 3/4 5 6/7 8 8",        # 2: duplicate tile
    "# a comment",              # 3
    "1 2 3/4 5 6/8 7 0",        # 4: unsolvable
    "",                         # 5
    "1 2 3",                    # 6-8: a drawn board (grid), 2 moves
    "4 _ 6",
    "7 5 8",
    "",
    "1 2 3/4 5 6/7 0",          # 10: a short row
    "1 2 3/4 5 6/7 0 8",        # 11: 1 move
]) + "\n"


def cli(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run([sys.executable, "-m", "npuzzle", *argv], input=stdin, capture_output=True, text=True,
                            env=env, timeout=300)
    return result.returncode, result.stdout, result.stderr


def test_a_piped_batch_in_json_gives_one_record_per_input_in_order():
    status, out, err = cli(["solve", "--json"], stdin=BATCH)
    recs = records(out)
    assert status == 1  # some inputs are invalid or unsolvable, none stopped
    assert [(r["file"], r["line"], r["status"]) for r in recs] == [
        ("<stdin>", 1, "solved"), ("<stdin>", 2, "invalid"), ("<stdin>", 4, "unsolvable"),
        ("<stdin>", 6, "solved"), ("<stdin>", 10, "invalid"), ("<stdin>", 11, "solved")]
    assert all(r["schema_version"] == SCHEMA_VERSION == 2 and r["record"] == "solve" for r in recs)
    assert recs[1]["reason"] == "duplicate tile 8 in '1 2 3/4 5 6/7 8 8'" and recs[1]["input"] == "1 2 3/4 5 6/7 8 8"
    assert "unsolvable for the standard goal" in recs[2]["reason"] and recs[2]["tiles"] == [1, 2, 3, 4, 5, 6, 8, 7, 0]
    assert [r["length"] for r in recs if r["status"] == "solved"] == [31, 2, 1]
    for r in recs:
        if r["status"] == "solved":
            board = Board(r["height"], r["width"], tuple(r["tiles"]))
            assert r["shape"] == f"{r['height']}x{r['width']}" and board.apply(r["letters"]).is_goal()
            assert r["initial_lower_bound"] <= r["lower_bound"] == r["length"]
            assert r["wall_seconds"] >= 0 and r["cpu_seconds"] >= 0
    assert err.splitlines()[-1].startswith("npuzzle solve: 6 positions: 3 solved, 1 unsolvable, 2 invalid in ")


def test_a_piped_batch_in_text_solves_every_good_line_and_names_the_bad_ones():
    status, out, err = cli(["solve"], stdin=BATCH)
    assert status == 1
    assert [ln for ln in out.splitlines() if ln.startswith("Solution:")] == [
        ln for ln in out.splitlines() if ln.startswith("Solution: ")] and out.count("Solution: ") == 3
    lines = [line for line in err.splitlines() if not line.startswith("  ")]  # the unsolvable's reason
    assert lines[0] == "npuzzle solve: <stdin>:2: duplicate tile 8 in '1 2 3/4 5 6/7 8 8'"
    assert lines[1].startswith("npuzzle solve: <stdin>:4: 1 2 3/4 5 6/8 7 0: unsolvable")
    assert lines[2].startswith("npuzzle solve: <stdin>:10: ragged rows")
    assert lines[3].startswith("npuzzle solve: 6 positions: 3 solved, 1 unsolvable, 2 invalid in ")
    assert "Traceback" not in err


def test_strict_stops_at_the_first_bad_input_before_solving(tmp_path):
    path = tmp_path / "batch.txt"
    path.write_text(BATCH)
    status, out, err = cli(["solve", "--strict", "--file", str(path)])
    assert (status, out) == (1, "")
    assert err.strip() == f"npuzzle solve: {path}:2: duplicate tile 8 in '1 2 3/4 5 6/7 8 8'"


def test_exit_status_of_a_batch_is_its_worst_outcome(capsys):
    assert main(["solve", "1 2 3/4 5 6/7 0 8", "1 2 3/4 5 6/0 7 8"]) == 0
    assert "2 positions: 2 solved" in capsys.readouterr().err
    # stopped by a limit beats invalid: 3
    hard = "8 6 7/2 5 4/3 0 1"
    assert main(["solve", "--json", "--method", "idastar", "--heuristic", "manhattan", "--max-nodes", "10",
                 hard, "1 1 2/3 4 5/6 7 0", "1 2 3/4 5 6/7 0 8"]) == 3
    captured = capsys.readouterr()
    recs = records(captured.out)
    assert [(r["argument"], r["status"]) for r in recs] == [(1, "node-limit"), (2, "invalid"), (3, "solved")]
    assert recs[0]["lower_bound"] >= recs[0]["initial_lower_bound"] == 21 and recs[0]["moves"] == []
    assert "3 positions: 1 solved, 1 stopped, 1 invalid" in captured.err


def test_a_single_argument_keeps_its_short_messages(capsys):
    assert main(["solve", "1 2 3/4 5 6/8 7 0"]) == 1
    err = capsys.readouterr().err
    first, *why = err.splitlines()
    assert first == "npuzzle solve: 1 2 3/4 5 6/8 7 0: unsolvable for the standard goal:"
    assert why[0].startswith("  the tiles (blank included) are an odd permutation") and "parities" in "".join(why)
    assert all(line.startswith("  ") and len(line) <= 100 for line in why)
    assert "positions" not in err
    assert main(["solve", "1", "2", "3"]) == 1  # three numbers are one input, and no board
    assert capsys.readouterr().err.splitlines() == [
        "npuzzle solve: 3 numbers are no board: the smallest, 2x2, has 4 cells (the blank is 0) in '1 2 3'"]
    assert main(["check", "1 2/2 0"]) == 1
    assert capsys.readouterr().err.strip() == "npuzzle check: duplicate tile 2 in '1 2/2 0'"


def test_check_and_solve_describe_a_position_alike(capsys):
    assert main(["check", "--json", "--shape", "3x2", "2 1 0 3 4 5", "1 2 2 0 3 4"]) == 1
    check, bad = records(capsys.readouterr().out)
    assert main(["solve", "--json", "2 1 0 3 4 5", "--shape", "3x2"]) == 0
    solve = records(capsys.readouterr().out)[0]
    for key in ("schema_version", "argument", "shape", "height", "width", "tiles", "goal"):
        assert check[key] == solve[key], key
    assert (check["shape"], check["status"], check["solvable"]) == ("3x2", "solvable", True)
    assert (bad["argument"], bad["status"]) == (2, "invalid") and bad["reason"].startswith("duplicate tile 2")


def test_real_time_reports_the_best_bound_without_a_build_as_its_lower_bound(capsys):
    board = npuzzle.parse("8 6 7/2 5 4/3 0 1")
    solution = npuzzle.solve(board, method="realtime")
    assert board.manhattan() == solution.initial_lower_bound == 21
    best = max(npuzzle.lower_bound(board, "lc"), npuzzle.lower_bound(board, "auto"))  # auto: wd+id, or a table built
    assert not solution.optimal and solution.lower_bound == best >= npuzzle.lower_bound(board, "wd+id") == 25
    assert solution.ratio == round(solution.length / best, 4)
    assert main(["solve", "--json", "--method", "realtime", "--shape", "3x5",
                 "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14"]) == 0
    rec = records(capsys.readouterr().out)[0]
    assert rec["lower_bound"] == 1 and rec["length"] >= 1 and rec["shape"] == "3x5"


# -- reading ------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (2, 4), (4, 3), (3, 5), (4, 4), (10, 10)])
def test_a_drawn_board_reads_back(shape):
    h, w = shape
    tiles = list(range(h * w))
    tiles[0], tiles[-1] = tiles[-1], tiles[0]
    board = Board(h, w, tuple(tiles))
    assert parse_position(str(board)) == board
    assert parse_position(str(board).replace("_", ".")) == board
    assert npuzzle.parse(npuzzle.format(board, "grid")) == board


def test_blanks_written_as_underscore_or_dot():
    board = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))
    for text in ("8 6 7/2 5 4/3 _ 1", "8 6 7/2 5 4/3 . 1", "8,6,7;2,5,4;3,_,1", "8672543_1", "8672543.1"):
        assert parse_position(text) == board, text
    with pytest.raises(InvalidBoardError, match="duplicate tile 0"):
        parse_position("_ 1/2 .")


@pytest.mark.parametrize("notation", NOTATIONS)
@pytest.mark.parametrize("shape", ["3x3", "2x3", "4x3"])
def test_every_scramble_notation_reads_back_through_a_pipe(notation, shape):
    status, scrambled, err = cli(["scramble", "--shape", shape, "--count", "3", "--seed", "5", "--notation", notation])
    assert status == 0, err
    status, out, err = cli(["check", "--json", "--shape", shape, "-f", "-"], stdin=scrambled)
    recs = records(out)
    assert status == 0 and len(recs) == 3 and all(r["status"] == "solvable" for r in recs), err
    _, rows, _ = cli(["scramble", "--shape", shape, "--count", "3", "--seed", "5"])
    assert [npuzzle.format(Board(r["height"], r["width"], tuple(r["tiles"]))) for r in recs] == rows.splitlines()


def test_standard_input_by_dash_and_when_piped():
    assert cli(["check", "-"], stdin="1 2 3/4 5 6/7 0 8\n")[0] == 0
    status, out, _ = cli(["solve", "--json"], stdin="1 2 3/4 5 6/7 0 8\n")
    assert status == 0 and records(out)[0]["letters"] == "L" and records(out)[0]["file"] == "<stdin>"
    status, _, err = cli(["solve"], stdin="# nothing here\n\n")
    assert status == 1 and "no position in the input" in err


def test_no_position_on_a_terminal_says_how_to_give_one():
    master, slave = os.openpty()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    try:
        result = subprocess.run([sys.executable, "-m", "npuzzle", "solve"], stdin=slave, capture_output=True,
                                text=True, env=env, timeout=120)
    finally:
        os.close(slave)
        os.close(master)
    assert result.returncode == 1
    assert "no position given: pass POSITION arguments or --file FILE, or pipe positions" in result.stderr


def test_positions_on_both_sides_of_an_option(capsys):
    assert main(["check", "--json", "1 2 3/4 5 6/7 0 8", "--goal", "standard", "1 2 3/4 5 6/0 7 8"]) == 0
    assert [r["argument"] for r in records(capsys.readouterr().out)] == [1, 2]
    with pytest.raises(SystemExit):
        main(["check", "1 2 3/4 5 6/7 0 8", "--goal", "standard", "--no-such-option"])


def test_unquoted_rows_are_one_position(capsys):
    assert main(["solve", "8", "6", "7/2", "5", "4/3", "0", "1"]) == 0
    assert "Solution: 31 moves, optimal" in capsys.readouterr().out
    assert main(["check", "--json", "1", "2", "3/4", "5", "6/7", "_", "8"]) == 0
    assert records(capsys.readouterr().out)[0]["tiles"] == [1, 2, 3, 4, 5, 6, 7, 0, 8]


def test_grid_blocks_and_lines_are_told_apart():
    text = "1 2 3 0\n2 1 3 0\n\n1 2\n3 0\n\n1 2\n2 0\n"
    entries = read_entries(text)
    assert [(e.number, e.board is not None) for e in entries] == [
        (1, True), (2, True), (4, True), (7, False), (8, False)]
    assert entries[2].board == Board(2, 2, (1, 2, 3, 0)) and entries[0].board == Board(2, 2, (1, 2, 3, 0))
    with pytest.raises(InvalidBoardError, match=r"^in.txt:7: "):
        parse_lines(text, source="in.txt")


def test_format_then_parse_for_every_notation():
    board = Board(3, 4, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 11))
    for notation in NOTATIONS:
        assert parse_position(format_position(board, notation), (3, 4)) == board


# -- --json on the other commands -----------------------------------------------------------------


def test_scramble_json_is_reproducible_and_reads_back(capsys):
    argv = ["scramble", "--shape", "3x2", "--count", "3", "--seed", "11", "--json", "--notation", "grid"]
    assert main(argv) == 0
    recs = records(capsys.readouterr().out)
    assert main(argv) == 0 and records(capsys.readouterr().out) == recs
    assert [r["index"] for r in recs] == [1, 2, 3] and all(r["seed"] == 11 and r["record"] == "scramble" for r in recs)
    for r in recs:
        board = Board(3, 2, tuple(r["tiles"]))
        assert r["schema_version"] == 2 and npuzzle.parse(r["position"]) == board and board.is_solvable()
    assert main(["scramble", "--shape", "3x2", "--count", "3", "--seed", "11"]) == 0
    assert capsys.readouterr().out.splitlines() == [npuzzle.format(Board(3, 2, tuple(r["tiles"]))) for r in recs]


def test_stats_json(capsys, known):
    assert main(["stats", "bfs", "2x4", "--json"]) == 0
    (rec,) = records(capsys.readouterr().out)
    assert (rec["record"], rec["shape"], rec["label"], rec["positions"]) == ("distribution", "2x4", "2x4_corner", 20160)
    assert (rec["positions"], rec["counts"]) == tuple(known["2x4_corner"])
    assert rec["max_distance"] == 36 and rec["mean"] == 22.677579
    assert main(["stats", "happy", "--shape", "2x3", "--json"]) == 0
    (happy,) = records(capsys.readouterr().out)
    assert happy["record"] == "happy" and happy["positions"] == sum(happy["counts"]) and happy["knuth_agrees"] is None
    assert main(["stats", "sample", "--shape", "3x2", "--count", "4", "--seed", "2", "--json"]) == 0
    (sample,) = records(capsys.readouterr().out)
    assert sample["count"] == len(sample["lengths"]) == 4 and sample["min"] == min(sample["lengths"])
    assert sum(sample["histogram"]) == 4 and sample["schema_version"] == 2


def test_tables_list_json(capsys):
    assert main(["stats", "bfs", "2x3", "--save"]) == 0
    capsys.readouterr()
    assert main(["tables", "list", "--json"]) == 0
    recs = records(capsys.readouterr().out)
    bfs = [r for r in recs if r["kind"] == "bfs" and r["table_shape"] == "2x3" and r["table_goal"] == "standard"]
    assert len(bfs) == 1 and bfs[0]["internal"] is True and bfs[0]["state"] == "ok" and bfs[0]["record"] == "table"
    assert all(r["schema_version"] == 2 for r in recs)


def test_bench_json(capsys):
    assert main(["bench", "korf100", "--ids", "1-2", "--heuristic", "lc", "--json"]) == 0
    *rows, total = records(capsys.readouterr().out)
    assert [(r["record"], r["instance"], r["optimum"], r["length_ok"]) for r in rows] == [
        ("bench-instance", 1, 57, True), ("bench-instance", 2, 55, True)]
    assert rows[0]["solution"]["length"] == 57 and rows[0]["solution"]["goal"] == "blank-first"
    assert rows[0]["published_nodes"] == 276_361_933 and rows[0]["korf_nodes"] is None  # Korf 1985, for reference
    assert total["record"] == "bench-summary" and total["instances"] == 2 and total["lengths_matched"] == 2
    assert total["generated"] == sum(r["solution"]["stats"]["generated"] for r in rows)
