"""The verifier: solved (with the excess over the optimum), the first illegal move and its index,
not solved (and the position reached), on square and non-square boards, from the Python API and
the command line."""

from __future__ import annotations

import pytest
from naive import bfs_distances
from records import record

import npuzzle
from npuzzle import Board
from npuzzle.cli import main
from npuzzle.errors import IllegalMoveError, InvalidTypeError
from npuzzle.instances import benchmark_set
from npuzzle.search.realtime import realtime_solve
from npuzzle.verifier import verify_moves


def test_solved_with_its_excess_over_the_table_optimum():
    dist = bfs_distances(3, 3)
    board = npuzzle.parse("8 6 7/2 5 4/3 0 1")
    best = npuzzle.solve(board, method="idastar", heuristic="lc")
    v = npuzzle.verify(board, best.letters)
    assert v.solved and v.optimum == dist[board.tiles] == 31 and v.excess == 0
    detour = "UD" if _legal(board, "UD") else "DU"
    v = npuzzle.verify(board, detour + best.letters)
    assert v.solved and v.played == 33 and v.excess == 2


def _legal(board: Board, letters: str) -> bool:
    try:
        board.apply(letters)
    except IllegalMoveError:
        return False
    return True


@pytest.mark.parametrize("notation", ["letters", "tiles", "hex", "list"])
def test_moves_in_every_notation(notation):
    board = npuzzle.parse("1 2 3/4 5 6/0 7 8")
    moves = {"letters": "L L", "tiles": "7 8", "hex": "78", "list": [7, "L"]}[notation]
    v = npuzzle.verify(board, moves)
    assert v.status == "solved" and v.played == 2 and v.excess == 0


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (2, 4), (4, 3), (3, 5)])
def test_illegal_at_index_i_on_non_square_boards(shape):
    h, w = shape
    goal = Board.goal(h, w)
    # from the goal (blank bottom right) U and L are illegal: nothing below or right of the blank;
    # after D R L the blank is back in the right column
    v = verify_moves(goal, "D R L L")
    assert v.status == "illegal" and v.illegal_index == 3 and v.played == 3
    assert v.reached == goal.apply("DRL") and "edge" in v.reason
    v = verify_moves(goal, "L")
    assert v.status == "illegal" and v.illegal_index == 0 and v.reached == goal
    tile = goal.tiles[0]  # tile 1: never beside the blank of the goal on these boards
    assert verify_moves(goal, [tile]).illegal_index == 0


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (3, 3), (2, 4)])
def test_not_solved_gives_the_position_reached_and_the_optimum(shape):
    h, w = shape
    dist = bfs_distances(h, w)
    start = Board.goal(h, w).apply("DRD" if h > 2 else "DR")
    v = verify_moves(start, "L")
    assert v.status == "not-solved" and v.reached == start.push("L") and v.excess is None
    assert v.optimum == dist[start.tiles]


def test_4x4_optimum_by_idastar_within_the_budget():
    board = Board.goal(4, 4).apply("DDRDRULL")
    best = npuzzle.solve(board, method="idastar", heuristic="lc")
    v = npuzzle.verify(board, best.moves)
    assert v.solved and v.optimum == best.length and v.excess == 0 and v.optimum_by.startswith("idastar/")


@pytest.mark.parametrize("korf_id", [79, 12])
def test_4x4_optima_are_korfs_published_ones(korf_id):
    """The 4x4 optimum against Korf's published one (not IDA* against IDA*), on two of his 100
    that IDA* solves in moments; the moves checked are the real-time solver's."""
    (inst,) = benchmark_set("korf100", ids=[korf_id])
    moves = realtime_solve(inst.board, goal=inst.goal).moves
    v = npuzzle.verify(inst.board, moves, goal=inst.goal)
    assert v.solved and v.optimum == inst.optimal_length and v.excess == len(moves) - inst.optimal_length


def test_no_optimum_on_large_boards():
    board = Board.goal(5, 5).apply("DR")
    v = npuzzle.verify(board, "LU")
    assert v.solved and v.optimum is None and v.excess is None


def test_bad_moves_are_refused():
    with pytest.raises(IllegalMoveError):
        npuzzle.verify("1 2 3/4 5 6/0 7 8", "L X")
    with pytest.raises(InvalidTypeError):
        npuzzle.verify("1 2 3/4 5 6/0 7 8", 7)  # type: ignore[arg-type]
    with pytest.raises(InvalidTypeError):
        npuzzle.verify("1 2 3/4 5 6/0 7 8", [True])


def test_command_line(capsys):
    assert main(["verify", "1 2 3/4 5 6/0 7 8", "LL"]) == 0
    assert "Solved: 2 moves" in capsys.readouterr().out
    assert main(["verify", "1 2 3/4 5 6/0 7 8", "L", "R", "R", "--json"]) == 6  # not solved
    rec = record(capsys.readouterr().out)
    assert rec["status"] == "illegal" and rec["illegal_index"] == 2 and rec["illegal_move"] == "R"
    assert main(["verify", "1 2 3/4 5 6/0 7 8", "7", "--json"]) == 6
    rec = record(capsys.readouterr().out)
    assert rec["status"] == "not-solved" and rec["reached_position"] == "1 2 3/4 5 6/7 0 8" and rec["optimum"] == 2
    assert main(["verify", "1 2 3/4 5 6/0 7 8", "Q"]) == 1  # bad input
    assert "bad move" in capsys.readouterr().err
    assert main(["verify", "1 2 3/4 5 6/7 8 8", "L"]) == 1
    assert "duplicate tile 8" in capsys.readouterr().err
    assert main(["verify", "2 1 3/4 5 6/7 8 0", "--json"]) == 6
    rec = record(capsys.readouterr().out)
    assert rec["status"] == "not-solved" and "optimum" not in rec and rec["solvable"] is False


@pytest.mark.parametrize("moves", ["U, L", "U,L", "U L", " U ,L, ", "UL", "U1,L1"])
def test_moves_separated_by_commas_or_spaces(moves, capsys):
    board = Board.goal(2, 3).apply("RD")  # U then L solves it
    v = npuzzle.verify(board, moves)
    assert v.solved and v.played == 2 and v.excess == 0
    assert main(["verify", "--shape", "2x3", str(board.tiles).strip("()"), moves]) == 0
    assert "Solved: 2 moves" in capsys.readouterr().out


def test_a_comma_ends_a_move():
    with pytest.raises(IllegalMoveError, match="bad move"):
        npuzzle.verify("1 2 3/4 5 6/0 7 8", "L, 2")  # not L2


def _answers(path, lines: list[object]) -> str:
    import json

    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    return str(path)


def test_jsonl_gives_one_scored_verdict_a_line(tmp_path, capsys):
    dist = bfs_distances(3, 3)
    board = npuzzle.parse("8 6 7/2 5 4/3 0 1")
    best = npuzzle.solve(board, method="idastar", heuristic="lc").letters
    assert len(best) == dist[board.tiles] == 31
    detour = "UD" if _legal(board, "UD") else "DU"
    start = "8 6 7/2 5 4/3 0 1"
    lines = [
        {"position": start, "answer": ", ".join(best), "id": "a"},
        {"position": start, "answer": detour + best, "id": 2},
        {"position": start, "answer": best[:-1]},
        {"position": start, "answer": best + "U"},  # solved, then a move off the board: illegal
        {"position": "1 2 3/4 5 6/0 7 8", "answer": "R"},  # no tile left of the blank
        {"position": start, "answer": "go left"},
        {"position": start, "answer": None},
        {"position": "1 2 3/4 0 5", "answer": list("LRL"), "optimum": 1},
        {"position": "1 0 2 3", "answer": "R", "goal": "blank-first", "shape": "2x2"},
    ]
    assert main(["verify", "--jsonl", _answers(tmp_path / "in.jsonl", lines)]) == 6
    out = [record(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["line"] for r in out] == list(range(1, 10)) and [r.get("id") for r in out[:3]] == ["a", "2", None]
    assert [r["status"] for r in out] == ["solved", "solved", "not-solved", "illegal", "illegal", "malformed",
                                          "not-solved", "solved", "solved"]
    assert out[0]["score"] == 1.0 and out[0]["optimum"] == 31
    assert out[1]["score"] == pytest.approx(31 / 33) and out[1]["excess"] == 2
    assert out[2]["score"] == 0.01 and out[4]["score"] == 0.0 and out[5]["score"] == 0.0
    assert out[5]["length"] is None and "bad move" in out[5]["reason"]
    assert out[6]["score"] == 0.0 and out[6]["played"] == 0  # no moves: no credit
    assert out[3]["score"] == 0.0 and out[3]["illegal_index"] == 31
    assert out[7]["score"] == pytest.approx(1 / 3) and "optimum" not in out[7]  # given, not computed
    assert out[8]["score"] == 1.0 and out[8]["goal"] == "blank-first" and out[8]["optimum"] == 1


def test_jsonl_bad_lines_are_bad_input(tmp_path, capsys):
    lines = [
        {"position": "1 2 3/4 5 6/0 7 8", "answer": "LL"},
        "not json",
        [1, 2],
        {"position": "1 2 3/4 5 6/7 8 8", "answer": "L"},
        {"answer": "L"},
        {"position": "1 2 3/4 5 6/0 7 8"},
        {"position": "1 2 3/4 5 6/0 7 8", "answer": 7},
        {"position": "1 2 3/4 5 6/0 7 8", "answer": "L", "optimum": -1},
        {"position": "1 2 3/4 5 6/0 7 8", "answer": "L", "goal": "middle"},
        "",
        {"position": "1 2 3/4 5 6/0 7 8", "answer": "LL", "id": 3},
    ]
    assert main(["verify", "--jsonl", _answers(tmp_path / "in.jsonl", lines)]) == 1
    out = [record(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in out] == ["solved", *["invalid"] * 8, "solved"]
    assert [r["line"] for r in out] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 11]
    reasons = [r["reason"] for r in out[1:9]]
    for reason, word in zip(reasons, ["JSON", "JSON", "duplicate", "position", "answer", "answer", "optimum", "goal"],
                            strict=True):
        assert word in reason
    assert all(r["record"] == "verify" and r["file"].endswith("in.jsonl") for r in out)


def test_jsonl_exit_statuses_and_standard_input(tmp_path, monkeypatch, capsys):
    import io

    solved = '{"position": "1 2 3/4 5 6/0 7 8", "answer": "L,L"}\n'
    monkeypatch.setattr("sys.stdin", io.StringIO(solved * 2))
    assert main(["verify", "--jsonl"]) == 0
    out = [record(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["file"], r["line"], r["score"]) for r in out] == [("<stdin>", 1, 1.0), ("<stdin>", 2, 1.0)]
    monkeypatch.setattr("sys.stdin", io.StringIO(solved + '{"position": "1 2 3/4 5 6/0 7 8", "answer": "L"}\n'))
    assert main(["verify", "--jsonl", "-"]) == 6
    capsys.readouterr()
    assert main(["verify", "--jsonl", str(tmp_path / "missing.jsonl")]) == 1
    assert "no such file" in capsys.readouterr().err
    assert main(["verify", "--jsonl", "x.jsonl", "1 2 3/4 5 6/0 7 8"]) == 2
    assert main(["verify"]) == 2
    assert "--jsonl" in capsys.readouterr().err
