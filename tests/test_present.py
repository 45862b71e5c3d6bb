"""The text and JSON forms every front end shows (npuzzle.present), line by line.

Solutions are made by ``search.limits.solved``/``unfinished`` from known optimal moves (replayed
and checked there), with fixed statistics, so every expected line is exact.
"""

from __future__ import annotations

import doctest
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from records import record as valid_record
from records import valid

from npuzzle import Board, present
from npuzzle.notation import parse_position
from npuzzle.present import batch as present_batch
from npuzzle.present import common as present_common
from npuzzle.present import positions as present_positions
from npuzzle.present import solution as present_solution
from npuzzle.present import statistics as present_statistics
from npuzzle.present import tables as present_tables
from npuzzle.search.limits import Iteration, Limit, Progress, Stats, checked_solution, unfinished
from npuzzle.tables import TableInfo, TableKey

JSON_FIELDS = {"schema_version", "record", "shape", "height", "width", "tiles", "goal", "moves", "letters",
               "length", "optimal", "status", "initial_lower_bound", "lower_bound", "ratio", "method", "heuristic",
               "stats", "wall_seconds", "cpu_seconds", "cost", "cost_total"}


def stats(generated: int, seconds: float = 0.0125) -> Stats:
    return Stats(expanded=generated // 2, generated=generated, seconds=seconds, wall_seconds=seconds * 1.2,
                 iterations=[Iteration(threshold=3, generated=generated, expanded=generated // 2, seconds=seconds)])


def test_solution_text_3x3():
    board = parse_position("1 2 3/4 5 6/0 7 8")
    solution = checked_solution(board, "standard", (7, 8), optimal=True, stats=stats(5), method="idastar",
                                heuristic="wd+id")
    assert present_solution.solution_text(solution) == (
        "3x3 board, goal standard:\n"
        "  1 2 3\n"
        "  4 5 6\n"
        "  _ 7 8\n"
        "Solution: 2 moves, optimal\n"
        "  idastar, wd+id: 5 nodes generated in 0.015 s (0.013 s CPU)\n"
        "  tiles pushed: 78\n"
        "  letters:      LL"
    )


def test_solution_text_2x3_blank_first_with_note():
    board = parse_position("1 2 3/4 0 5")
    moves = tuple(int(c) for c in "41235432134521")
    solution = checked_solution(board, "blank-first", moves, optimal=True, stats=stats(101), method="idastar",
                      heuristic="wd+id", note="a stronger bound: npuzzle tables build pdb:3-2")
    lines = present_solution.solution_text(solution).splitlines()
    assert lines == [
        "2x3 board, goal blank-first:",
        "  1 2 3",
        "  4 _ 5",
        "Solution: 14 moves, optimal",
        "  idastar, wd+id: 101 nodes generated in 0.015 s (0.013 s CPU)",
        "  a stronger bound: npuzzle tables build pdb:3-2",
        "  tiles pushed: 41235432134521",
        "  letters:      RDLLURDRULLDRR",
    ]


def test_solution_text_3x2_not_optimal_and_already_solved():
    board = parse_position("2 1/0 3/4 5")
    moves = tuple(int(c) for c in "21324523143253412435")
    solution = checked_solution(board, "standard", moves, optimal=False, stats=stats(393, 1.5), method="astar",
                                heuristic="lc")
    lines = present_solution.solution_text(solution).splitlines()
    assert lines[:4] == ["3x2 board, goal standard:", "  2 1", "  _ 3", "  4 5"]
    assert board.manhattan() == solution.lower_bound == 6
    assert lines[4:6] == ["Solution: 20 moves, not proven optimal: lower bound 6 (no solution is shorter), so at most "
                          "3.33 times the optimum", "  astar, lc: 393 nodes generated in 1.800 s (1.500 s CPU)"]
    assert lines[6:] == ["  tiles pushed: 21324523143253412435", "  letters:      DLURULDDRULURDDLURUL"]
    goal = Board.goal(3, 2)
    done = checked_solution(goal, "standard", (), optimal=True, stats=stats(1), method="idastar", heuristic="lc")
    assert present_solution.solution_text(done).splitlines()[-2:] == ["  tiles pushed: (none: already solved)",
                                                              "  letters:      (none)"]


def test_unfinished_solution_says_which_limit_and_the_bound():
    board = parse_position("159d26ae37bf48c0")
    solution = unfinished(board, "standard", "node-limit", 52, stats=stats(50_000, 0.5), method="idastar",
                          heuristic="wd+id")
    lines = present_solution.solution_text(solution).splitlines()
    assert lines[1:5] == ["   1  5  9 13", "   2  6 10 14", "   3  7 11 15", "   4  8 12  _"]
    assert lines[5:] == ["Stopped at the node limit before finding a solution; every solution has at least 52 moves",
                         "  idastar, wd+id: 50,000 nodes generated in 0.600 s (0.500 s CPU)"]
    assert "tiles pushed" not in present_solution.solution_text(solution)


@pytest.mark.parametrize("status, text", [("timeout", "the time limit was reached"),
                                          ("node-limit", "the node limit was reached"),
                                          ("memory-limit", "the memory limit was reached"),
                                          ("interrupted", "interrupted"), ("something-new", "something-new")])
def test_status_text(status, text):
    assert present_common.status_text(status) == text
    board = parse_position("1 2 3/4 5 6/0 7 8")
    solution = unfinished(board, "standard", status, 2, stats=stats(9), method="astar", heuristic="lc")
    assert "every solution has at least 2 moves" in present_solution.solution_text(solution)


@pytest.mark.parametrize("status, limit, head", [
    ("timeout", Limit(timeout=10), "Stopped at the time limit (10 s)"),
    ("timeout", Limit(timeout=2.5), "Stopped at the time limit (2.5 s)"),
    ("timeout", None, "Stopped at the time limit"),
    ("node-limit", Limit(max_nodes=1_000_000), "Stopped at the node limit (1,000,000 nodes)"),
    ("node-limit", Limit(max_nodes=1), "Stopped at the node limit (1 node)"),
    ("memory-limit", Limit(max_memory=512 << 20), "Stopped at the memory limit (512 MiB)"),
    ("interrupted", None, "Interrupted (Ctrl-C)"),
])
def test_stopped_text_names_the_limit_and_the_bound(status, limit, head):
    board = parse_position("0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1")
    solution = unfinished(board, "standard", status, 64, stats=stats(9), method="idastar", heuristic="lc")
    line = present_solution.solution_text(solution, limit=limit).splitlines()[5]
    assert line == f"{head} before finding a solution; every solution has at least 64 moves"
    assert "No solution" not in line


def test_one_move_and_one_node_are_singular():
    board = parse_position("1 2 3/4 5 6/7 0 8")
    solution = checked_solution(board, "standard", (8,), optimal=True, stats=stats(1), method="idastar",
                                heuristic="lc")
    assert "Solution: 1 move, optimal\n  idastar, lc: 1 node generated in " in present_solution.solution_text(solution)
    assert present_common.count_text(1, "table") == "1 table" and present_common.count_text(2, "table") == "2 tables"


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """An empty table store: no pattern database is built."""
    monkeypatch.setenv("NPUZZLE_DATA_DIR", str(tmp_path))
    return tmp_path


def slow(board: Board, seconds: float, heuristic: str = "wd+id", method: str = "idastar"):
    """A stopped search of ``board`` that took ``seconds`` of CPU (no search is run)."""
    return unfinished(board, "standard", "timeout", 60, stats=stats(10**9, seconds), method=method,
                      heuristic=heuristic)


HARD = "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1"


def test_advice_after_a_slow_4x4_search_names_the_cheapest_table_first(data_dir):
    advice = present_solution.advice_text(slow(parse_position(HARD), 12.5)).splitlines()
    assert advice[0] == "  that took 12.5 s of CPU; a stronger bound makes such searches faster:"
    assert advice[1].startswith("    npuzzle tables build pdb:6-6-3 --shape 4x4 --goal standard  (about 5 s; ")
    assert "5.5 MiB on disk" in advice[1] and "of memory while it builds" in advice[1]
    assert advice[2].startswith("    npuzzle tables build pdb:7-8 --shape 4x4 --goal standard  (a few minutes; ")
    assert "275 MiB on disk, 2.47 GiB of memory" in advice[2]
    assert len(advice) == 3
    assert advice[0] in present_solution.solution_text(slow(parse_position(HARD), 12.5)).splitlines()


def test_advice_with_6_6_3_in_use_names_only_7_8(data_dir):
    advice = present_solution.advice_text(slow(parse_position(HARD), 5.0, "pdb:6-6-3+wd")).splitlines()
    assert len(advice) == 2 and "pdb:7-8" in advice[1]
    assert present_solution.advice_text(slow(parse_position(HARD), 5.0, "pdb:7-8")) == ""


@pytest.mark.parametrize("seconds", [0.001, 0.5, 1.0])
def test_no_advice_after_a_quick_search(data_dir, seconds):
    assert present_solution.advice_text(slow(parse_position(HARD), seconds)) == ""
    assert "tables build" not in present_solution.solution_text(slow(parse_position(HARD), seconds))


@pytest.mark.parametrize("position", ["8 6 7/2 5 4/3 0 1", "1 2 3 4/5 6 7 8/9 10 0 11", "1 2 3/4 0 5",
                                      "1 2/3 4/5 0", "1 2 3 4 5 6/7 8 9 10 11 0"])
def test_no_advice_on_boards_bfs_tables_cover(data_dir, position):
    assert present_solution.advice_text(slow(parse_position(position), 30.0)) == ""


def test_no_advice_on_solved_boards_nor_real_time(data_dir):
    solved = checked_solution(Board.goal(4, 4), "standard", (), optimal=True, stats=stats(1, 3.0),
                              method="idastar", heuristic="manhattan")
    assert present_solution.advice_text(solved) == ""
    assert present_solution.advice_text(slow(parse_position(HARD), 30.0, "none", "realtime-greedy")) == ""
    assert present_solution.advice_text(slow(parse_position("1 2 3 4 5/6 7 8 9 10/11 12 13 14 0"), 30.0)) == ""


def test_times_and_progress_texts():
    assert present_common.times_text(0.0123, 0.011) == "0.012 s (0.011 s CPU)"
    assert present_common.times_text(3725.0, 3700.0) == "1 h 02 min (1 h 01 min CPU)"
    text = present_common.progress_text(Progress(bound=64, generated=5_000_000, wall_seconds=2.0, cpu_seconds=1.9))
    assert text == "searching: bound 64, 5,000,000 nodes, 2.5 M nodes/s, 2.000 s"
    assert "k nodes/s" in present_common.progress_text(Progress(40, 1000, 1.0, 1.0))
    assert "warmup" in present_common.compile_notice_text()


def test_solution_record_fields():
    board = parse_position("2 1/0 3/4 5")
    moves = tuple(int(c) for c in "21324523143253412435")
    solution = checked_solution(board, "standard", moves, optimal=True, stats=stats(393), method="idastar",
                                heuristic="lc")
    record = valid_record(json.dumps(present_solution.solution_record(solution)))
    assert set(record) == JSON_FIELDS and list(record)[-2:] == ["moves", "letters"]
    assert record["tiles"] == [2, 1, 0, 3, 4, 5] and (record["height"], record["width"]) == (3, 2)
    assert record["moves"] == list(moves) and record["letters"] == "DLURULDDRULURDDLURUL"
    assert (record["length"], record["lower_bound"], record["optimal"], record["status"]) == (20, 20, True, "solved")
    iteration = {"threshold": 3, "generated": 393, "expanded": 196, "cpu_seconds": 0.0125}
    assert record["stats"] == {"expanded": 196, "generated": 393, "iterations": [iteration]}
    assert (record["wall_seconds"], record["cpu_seconds"]) == (0.015, 0.0125)
    assert (record["cost"], record["cost_total"]) == ("unit", 20)
    stopped = unfinished(board, "blank-first", "timeout", 7, stats=stats(10), method="idastar", heuristic="lc",
                         note="why")
    record = valid(present_solution.solution_record(stopped))
    assert set(record) == JSON_FIELDS | {"note"}
    assert (record["moves"], record["length"], record["status"], record["lower_bound"]) == ([], None, "timeout", 7)
    assert record["goal"] == "blank-first" and record["note"] == "why" and record["ratio"] is None


def test_realtime_solution_with_its_report():
    board = parse_position("1 2 3/4 5 6/7 0 8")
    solution = checked_solution(board, "standard", (8,), optimal=False, stats=Stats(1, 1, 0.002, wall_seconds=0.003),
                                method="realtime-greedy", heuristic="none")
    report = present_solution.report_for(solution)
    assert report is not None and report["moves"] == 1 and report["wasted"] == 0
    assert present_solution.solution_text(solution, report).splitlines()[4:] == [
        "Solution: 1 move, not proven optimal: lower bound 1 (no solution is shorter), so at most 1.00 times the "
        "optimum",
        "  realtime-greedy in 0.003 s (0.002 s CPU)",
        "  tiles pushed: 8",
        "  letters:      L",
        f"  1.000 times the Manhattan distance (1: {present_common.MANHATTAN_MEANS}); 0.0370 n^3; "
        "Parberry's bound 34 moves (his algorithm's most)",
        "  0 wasted moves: moves that take a tile farther from its goal cell (another move must undo each)",
    ]
    record = valid(present_solution.solution_record(solution, report))
    assert record["report"] == {"manhattan": 1, "moves_per_n3": 0.037037, "moves_per_manhattan": 1.0, "wasted": 0,
                                "parberry_bound": 34}
    idastar = checked_solution(board, "standard", (8,), optimal=True, stats=stats(4), method="idastar", heuristic="lc")
    assert present_solution.report_for(idastar) is None


def test_tiles_pushed_in_numbers_above_16_cells():
    board = Board.goal(4, 5).move(15)
    solution = checked_solution(board, "standard", (15,), optimal=True, stats=stats(3), method="idastar",
                                heuristic="lc")
    text = present_solution.solution_text(solution)
    assert "  tiles pushed: 15\n" in text and "\n  11 12 13 14  _\n  16 17 18 19 15\n" in text


def test_large_boards_are_not_drawn_and_their_moves_are_letters_only():
    board = Board.goal(21, 21).move(440)
    solution = checked_solution(board, "standard", (440,), optimal=True, stats=Stats(), method="idastar",
                                heuristic="lc")
    text = present_solution.solution_text(solution)
    assert text.splitlines() == ["21x21 board, goal standard:", "Solution: 1 move, optimal",
                                 "  idastar, lc: 0 nodes generated in 0.000 s (0.000 s CPU)", "  letters:      L"]
    record = valid(present_solution.solution_record(solution))
    assert "moves" not in record and record["letters"] == "L" and len(record["tiles"]) == 441
    before, after = present_solution.solution_text_parts(solution)
    assert before + "L" + after == text and after == ""
    small = Board.goal(20, 20).move(399)
    solution = checked_solution(small, "standard", (399,), optimal=True, stats=Stats(), method="idastar",
                                heuristic="lc")
    assert "  tiles pushed: 399" in present_solution.solution_text(solution).splitlines()
    assert valid(present_solution.solution_record(solution))["moves"] == [399]


def test_a_count_without_the_moves_is_the_same_record_without_them():
    board = parse_position("1 2 3/4 5 6/7 0 8")
    solution = checked_solution(board, "standard", (8,), optimal=False, stats=Stats(1, 1, 0.002, wall_seconds=0.003),
                                method="realtime-greedy", heuristic="none")
    report = {**present_solution.report_for(solution), "wasted": None}
    full = present_solution.solution_record(solution, report)
    counted = valid(present_solution.solution_record(solution, report, moves=False))
    assert {k: v for k, v in full.items() if k not in ("tiles", "moves", "letters")} == counted
    assert counted["report"]["wasted"] is None
    text, after = present_solution.solution_text_parts(solution, report, letters=False)
    assert after == "" and "letters" not in text and "tiles pushed" not in text and "wasted" not in text
    assert text.splitlines()[:5] == present_solution.solution_text(solution, report).splitlines()[:5]


def test_record_parts_put_the_letters_between():
    record = {"schema_version": 2, "note": 'a "quoted" word', "letters": "UDLR", "steps": ["1 2/0 3"]}
    before, after = present_solution.record_parts(record, "letters")
    assert before + "UDLR" + after == json.dumps(record)
    before, after = present_solution.record_parts({"letters": "L"}, "letters")
    assert (before, after) == ('{"letters": "', '"}')


def test_verbose_lines():
    assert present_solution.iteration_text(Iteration(44, 2792, 1400, 0.01234), False) == (
        "  threshold 44: no solution, 2,792 nodes generated, 0.012 s CPU")
    assert present_solution.iteration_text(Iteration(11, 30, 15, 0.0), True) == (
        "  threshold 11: solution found, 30 nodes generated, 0.000 s CPU")
    board = parse_position("5 1 3 4/2 6 7 8/9 10 11 12/0 13 14 15")
    assert present_solution.search_start_text(board, "standard") == "solving 4x4, goal standard, Manhattan distance 7"
    assert present_solution.search_start_text(board, "standard", "lc", 9) == (
        "solving 4x4, goal standard: first bound 9 from lc (Manhattan distance 7)")


def test_check_record_and_text():
    board = parse_position("1 2 3/4 5 6/8 7 0")
    record = valid(present_positions.check_record(board, "standard"))
    assert list(record) == ["schema_version", "record", "status", "shape", "height", "width", "tiles", "goal",
                            "solvable", "manhattan", "permutation_parity", "blank_distance", "reason"]
    assert record["status"] == "unsolvable" and (record["height"], record["width"]) == (3, 3)
    assert record["solvable"] is False and record["permutation_parity"] == "odd" and record["blank_distance"] == 0
    assert record["reason"] == board.unsolvable_reason("standard")
    lines = present_positions.check_text(board, record).splitlines()
    assert lines[:5] == ["3x3 board, goal standard:", "  1 2 3", "  4 5 6", "  8 7 _", "Unsolvable:"]
    assert lines[5].startswith("  the tiles (blank included) are an odd permutation of the goal")
    assert all(line.startswith("  ") and len(line) <= 100 for line in lines[5:]) and "parities" in "".join(lines)
    assert "unsolvable for" not in present_positions.check_text(board, record)  # the goal is said once, above
    assert present_batch.unsolvable_text(board, record["reason"]).splitlines()[0] == (
        "1 2 3/4 5 6/8 7 0: unsolvable for the standard goal:")
    knuth = parse_position("159d26ae37bf48c0")
    solvable = valid(present_positions.check_record(knuth, "standard"))
    assert "reason" not in solvable and solvable["solvable"] and solvable["goal"] == "standard"
    assert present_positions.check_text(knuth, solvable).splitlines()[-2:] == [
        "Solvable", f"  Manhattan distance 40: {present_common.MANHATTAN_MEANS}"]
    assert present_positions.check_record(knuth, "blank-first")["solvable"] is False


def test_positions_text():
    boards = [parse_position("1 2 3/4 5 6/7 8 0"), parse_position("8 6 7/2 5 4/3 0 1")]
    assert present_positions.positions_text(boards) == "1 2 3/4 5 6/7 8 0\n8 6 7/2 5 4/3 0 1"
    assert present_positions.positions_text(boards, "hex") == "123456780\n867254301"
    assert present_positions.positions_text(boards, "grid") == "1 2 3\n4 5 6\n7 8 0\n\n8 6 7\n2 5 4\n3 0 1"


def test_statistics_texts():
    counts = [1, 2, 3, 1]
    assert present_statistics.distribution_text("2x2_corner", counts, "standard").splitlines() == [
        "dist 2x2_corner 7 : 1 2 3 1", "# 2x2_corner: max distance 3 (1 position), mean 1.571429; goal standard"]
    table = present_statistics.distribution_text("2x2_corner", counts, "standard", table=True).splitlines()
    assert table[2:] == ["  0 1 " + "#" * 17, "  1 2 " + "#" * 33, "  2 3 " + "#" * 50, "  3 1 " + "#" * 17]
    happy = present_statistics.happy_text(2, 2, "standard", counts).splitlines()
    assert happy[0] == "positions of the 2x2 board solvable by happy moves only (standard goal), by distance:"
    assert happy[-1] == "total 7 positions, the goal included (6 without it); largest distance 3 (1 position)"
    sample = present_statistics.sample_text(3, 3, "blank-first", 7, [3, 5, 5]).splitlines()
    assert sample[0] == "optimal lengths of 3 random 3x3 positions (blank-first goal, seed 7):"
    assert sample[1:] == ["  3 1 " + "#" * 25, "  4 0 ", "  5 2 " + "#" * 50, "mean 4.333, min 3, max 5"]
    assert present_statistics.sample_title(3, 3, 100) == "100 random 3x3 positions"


def test_happy_text_compares_knuths_count_on_his_board():
    knuth = [1] + [0] * 55 + [114]
    knuth[1] = 88_728_779 - 114  # the same total besides the goal, 114 at distance 56
    line = present_statistics.happy_text(4, 4, "standard", knuth).splitlines()[-1]
    assert line == ("Knuth (15PUZZLE-KORF1, section 3): 88,728,779 positions besides the goal, 114 at the largest "
                    "distance 56: the same")
    knuth[1] += 1
    assert present_statistics.happy_text(4, 4, "standard", knuth).endswith(": DIFFERENT")
    assert "Knuth" not in present_statistics.happy_text(4, 4, "blank-first", knuth)


def test_table_texts(tmp_path):
    key = TableKey("pdb", 2, 3, "standard", "1.2.3-4.5")
    infos = [TableInfo(tmp_path / key.filename, key, "uint8", 150_000, 150_000, {"name": "3-2"},
                       size=150_256, verified=True),
             TableInfo(tmp_path / "broken.npt", None, problem="truncated", size=10),
             TableInfo(tmp_path / "bfs_2x4_standard_all_v1.npt", TableKey("bfs", 2, 4, "standard"), size=5616)]
    lines = present_tables.table_list_text(infos, tmp_path).splitlines()
    assert lines[0] == f"3 tables in {tmp_path}, 155.9 kB in all; 1 damaged file: remove or rebuild them"
    assert lines[1].split() == ["pdb:3-2", "--shape", "2x3", "--goal", "standard", "150.3", "kB", "-",
                                "pdb_2x3_standard_1.2.3-4.5_v1.npt"]
    assert lines[2].startswith("broken.npt") and lines[2].endswith("DAMAGED: truncated")
    assert lines[3].startswith("bfs 2x4 --goal standard") and "[internal: " in lines[3]
    assert "npuzzle tables remove" in lines[4]
    record = present_tables.table_info_record(infos[0])
    assert record["name"] == "pdb:3-2 --shape 2x3 --goal standard" and record["state"] == "ok"
    assert (record["bytes"], record["internal"], record["file"]) == (150_256, False, key.filename)
    assert present_tables.table_info_record(infos[1])["state"] == "damaged"
    assert present_tables.table_info_record(infos[2])["internal"] is True
    assert present_tables.table_info_record(infos[2])["state"] == "unchecked"
    assert present_tables.table_list_text([], tmp_path) == f"0 tables in {tmp_path}, 0 B in all"
    assert "superseded" not in present_tables.table_info_record(infos[0]) and "superseded" not in lines[1]
    # the standard goal's 7-8 as it was stored before the name meant Korf & Felner's blocks
    old = TableKey("pdb", 4, 4, "standard", "1.2.3.4.5.6.7-8.9.10.11.12.13.14.15")
    stale = TableInfo(tmp_path / old.filename, old, meta={"name": "7-8"}, size=288_288_576)
    assert present_tables.table_info_record(stale)["superseded"] is True
    assert present_tables.table_info_text(stale).endswith(
        "[superseded: pdb:7-8 now means other patterns; unused, remove it by its file name]")
    assert present_tables.table_list_text(infos[:1], tmp_path).splitlines()[0].startswith(f"1 table in {tmp_path}")
    path = tmp_path / key.filename
    assert present_tables.pdb_built_text("3-2", 2, 3, "standard", path) == (
        f"pdb:3-2 for 2x3 (standard goal) is already built: {path}")
    assert present_tables.pdb_build_text("7-8", 4, 4, "standard", [(1, 2), (3,)], 1_500 * 2**20) == (
        "building pdb:7-8 for 4x4 (standard goal): patterns {1 2}, {3}; needs about 1,500 MiB of memory")
    assert (present_tables.table_stored_text(Path("/x/t.npt"), 6496, 0.04)
            == "stored /x/t.npt (6,496 bytes) in 0.0 s CPU")


def test_docstring_examples():
    failed, attempted = doctest.testmod(present, verbose=False)
    assert attempted > 0 and failed == 0


def test_import_loads_neither_numpy_nor_numba():
    code = "import npuzzle.present, sys; assert 'numba' not in sys.modules and 'numpy' not in sys.modules"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
