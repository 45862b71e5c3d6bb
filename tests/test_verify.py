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
    assert main(["verify", "1 2 3/4 5 6/0 7 8", "L", "R", "R", "--json"]) == 1
    rec = record(capsys.readouterr().out)
    assert rec["status"] == "illegal" and rec["illegal_index"] == 2 and rec["illegal_move"] == "R"
    assert main(["verify", "1 2 3/4 5 6/0 7 8", "7", "--json"]) == 1
    rec = record(capsys.readouterr().out)
    assert rec["status"] == "not-solved" and rec["reached_position"] == "1 2 3/4 5 6/7 0 8" and rec["optimum"] == 2
    assert main(["verify", "1 2 3/4 5 6/0 7 8", "Q"]) == 1
    assert "bad move" in capsys.readouterr().err
    assert main(["verify", "2 1 3/4 5 6/7 8 0", "--json"]) == 1
    rec = record(capsys.readouterr().out)
    assert rec["status"] == "not-solved" and "optimum" not in rec and rec["solvable"] is False
