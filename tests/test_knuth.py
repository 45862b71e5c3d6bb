"""The knuth command: Knuth's messages, exit statuses and output lines, and the same solution as
his programs find (checked against a direct model of his happy/sad budget search)."""

from __future__ import annotations

import io
import random

import pytest
from conftest import without_notice

from npuzzle import Board
from npuzzle.knuth import HAPPY_COUNT, happy_count_agrees, run
from npuzzle.search.idastar import idastar

# Knuth's directions: east 0, north 1, west 2, south 3; (row, column) step of the blank.
STEP = {0: (0, 1), 1: (-1, 0), 2: (0, -1), 3: (1, 0)}


def knuth_model(hexpos: str, program: str) -> tuple[list[str], str]:
    """Knuth's search as he describes it: t = (sad moves left << 8) + happy moves left; a move
    is made only if t > del (del = 1 happy, 0x100 sad) and t == del means the goal. KORF0 tries
    east, north, west, south; KORF1 tries south, west, north, east first, then after a move in
    direction m: m+1, m, m-1. Returns the round lines (times dropped) and the pieces in hex."""
    start = [int(c, 16) - 1 for c in hexpos]  # pieces renumbered to their home cells; blank -1
    moves = sum(abs((v >> 2) - (j >> 2)) + abs((v & 3) - (j & 3)) for j, v in enumerate(start) if v >= 0)
    rounds = []

    def options(m):
        if program == "korf0":
            return [0, 1, 2, 3]
        if m is None:
            return [3, 2, 1, 0]
        return [(m + 1) % 4, m, (m - 1) % 4]

    def search(board, p, last, t, path):
        for d in options(last):
            if last is not None and d == (last + 2) % 4:
                continue
            r, c = (p >> 2) + STEP[d][0], (p & 3) + STEP[d][1]
            if not (0 <= r < 4 and 0 <= c < 4):
                continue
            q = r * 4 + c
            piece = board[q]
            happy = abs((piece >> 2) - (p >> 2)) + abs((piece & 3) - (p & 3)) < \
                abs((piece >> 2) - r) + abs((piece & 3) - c)
            delta = 1 if happy else 0x100
            if t <= delta:
                if t == delta:
                    return path + [piece]
                continue
            board[p], board[q] = piece, -1
            found = search(board, q, d, t - delta, path + [piece])
            board[q], board[p] = piece, -1
            if found is not None:
                return found
        return None

    while True:
        found = search(list(start), start.index(-1), None, moves, [])
        if found is not None:
            return rounds, "".join(f"{x + 1:x}" for x in found)
        rounds.append(f" ... no solution with {moves & 0xff}+{moves >> 8} moves")
        moves += 0x101


def walk(seed: int, steps: int) -> str:
    rng = random.Random(seed)
    board = Board.goal(4, 4)
    for _ in range(steps):
        board = board.move(rng.choice(board.movable_tiles()))
    return "".join(f"{t:x}" for t in board.tiles)


def knuth(*args: str, program: str = "korf1") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(args), out, err, program=program, clock=lambda: 1000.0)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("program", ["korf0", "korf1"])
@pytest.mark.parametrize("seed", range(8))
def test_same_rounds_and_solution_as_knuths_search(program, seed):
    pos = walk(seed, 22 + seed)
    rounds, pieces = knuth_model(pos, program)
    status, out, err = knuth(pos, program=program)
    lines = out.splitlines()
    assert status == 0 and without_notice(err) == ""
    assert [ln.rsplit(" (", 1)[0] for ln in lines[:-1]] == rounds
    assert all(ln.endswith(" (0 sec)") for ln in lines[:-1])
    happy, sad = len(pieces) - len(rounds), len(rounds)
    expected = f"Solution in {happy}+{sad} moves: {pieces}"
    assert lines[-1] == expected + (" (0 sec)" if program == "korf0" else "")


def test_happy_only_example_from_the_text():
    status, out, _ = knuth("bc9e80df3412a756")
    assert status == 0
    line = out.strip()
    assert line.startswith("Solution in 56+0 moves: ")
    pieces = [int(c, 16) for c in line.split(": ")[1]]
    board = Board(4, 4, tuple(int(c, 16) for c in "bc9e80df3412a756"))
    assert len(pieces) == 56 and board.apply(pieces).is_goal()
    assert idastar(board, heuristic="lc").length == 56


def test_rounds_reported_before_the_solution():
    pos = walk(3, 40)
    board = Board(4, 4, tuple(int(c, 16) for c in pos))
    h0 = board.manhattan()
    optimum = idastar(board, heuristic="lc").length
    k = (optimum - h0) // 2
    for program in ("korf0", "korf1"):
        status, out, _ = knuth(pos, program=program)
        lines = out.splitlines()
        assert [ln for ln in lines[:-1]] == [
            f" ... no solution with {h0 + j}+{j} moves (0 sec)" for j in range(k)
        ]
        assert lines[-1].startswith(f"Solution in {h0 + k}+{k} moves: ")


@pytest.mark.parametrize(
    "arg, status, message",
    [
        ("123456789abcdeFf0", 254, "The start position should use only hex digits (0123456789abcdef)!\n"),
        ("12x", 254, "The start position should use only hex digits (0123456789abcdef)!\n"),
        ("1123456789abcdef0", 253, "Your start position uses 1 twice!\n"),
        ("123456789abcdeff", 253, "Your start position uses f twice!\n"),
        ("123456789abcdef", 252, "Your start position doesn't use 0!\n"),
        ("", 252, "Your start position doesn't use 0!\n"),
        ("0123456789abcde", 252, "Your start position doesn't use f!\n"),
    ],
)
def test_input_checks(arg, status, message):
    assert knuth(arg) == (status, "", message)


def test_usage_and_unreachable():
    assert knuth() == (255, "", "Usage: npuzzle knuth startposition\n")
    assert knuth("a", "b") == (255, "", "Usage: npuzzle knuth startposition\n")
    unreachable = "Sorry ... the goal is unreachable from that start position!\n"
    assert knuth("123456789abcdfe0") == (0, unreachable, "")
    assert knuth("023456789abcdef1", program="korf0")[1] == unreachable


def test_start_at_goal():
    assert knuth("123456789abcdef0", program="korf0") == (0, "Solution in 0+0 moves: ", "")
    assert knuth("123456789abcdef0") == (0, "Solution in 0+0 moves:  (1000 sec)\n", "")


def test_one_move():
    assert knuth("123456789abcde0f") == (0, "Solution in 1+0 moves: f (0 sec)\n", "")
    assert knuth("123456789abcde0f", program="korf0") == (0, "Solution in 1+0 moves: f (0 sec)\n", "")


def test_happy_count_agrees_only_with_knuths_count_on_his_board():
    positions, largest, at_largest = HAPPY_COUNT
    counts = [1, positions - at_largest] + [0] * (largest - 2) + [at_largest]
    assert happy_count_agrees(4, 4, "standard", counts) is True
    assert happy_count_agrees(4, 4, "standard", counts[:-1] + [at_largest + 1]) is False
    assert happy_count_agrees(4, 4, "standard", counts + [1]) is False
    assert happy_count_agrees(4, 4, "blank-first", counts) is None
    assert happy_count_agrees(3, 3, "standard", [1, 2, 4]) is None
