"""Knuth's 15PUZZLE-KORF0 and 15PUZZLE-KORF1, exactly as their users know them.

Both programs take 16 hex digits, check them with the messages and exit statuses below, and run
Korf's IDA* with the Manhattan distance in Knuth's "happy/sad" formulation: a move is happy if it
brings its piece closer to home. Round k looks for a solution with h + k happy and k sad moves
(h = the start's Manhattan distance), i.e. an IDA* iteration with threshold h + 2k; after each
failed round they print `` ... no solution with H+K moves (T sec)``. The solution is printed as
the pieces pushed, in hex. Times are whole wall-clock seconds, as ``time(0)`` gives them.

The programs differ in move order, hence possibly in which optimal solution they print, and in
their last line: KORF0 prints ``Solution in H+K moves: PIECES (T sec)``; KORF1 prints
``Solution in H+K moves: PIECES`` without the time (except for a one-move solution). For a start
that is already the goal, KORF0 prints ``Solution in 0+0 moves: `` with no newline, and KORF1
prints `` (T sec)`` after it with T = ``time(0) - 0`` (its timer is never set): both kept.

Exit statuses: usage 255 (-1), bad digit 254 (-2), a digit twice 253 (-3), a digit missing
252 (-4); an unsolvable start prints its message on standard output and exits 0.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TextIO

from .board import Board
from .search.idastar import idastar, warmup
from .search.limits import Iteration

PROGRAMS = ("korf0", "korf1")
ORDER_OF = {"korf0": "knuth0", "korf1": "knuth1"}

BAD_DIGIT = "The start position should use only hex digits (0123456789abcdef)!"
TWICE = "Your start position uses %x twice!"
MISSING = "Your start position doesn't use %x!"
UNREACHABLE = "Sorry ... the goal is unreachable from that start position!"

#: Knuth's count of the 4x4 positions from which happy moves alone reach the standard goal
#: (15PUZZLE-KORF1, section 3): positions besides the goal, the largest distance, and how many
#: positions are at it.
HAPPY_COUNT = (88_728_779, 56, 114)


def happy_count_agrees(height: int, width: int, goal: str, counts: Sequence[int]) -> bool | None:
    """Whether a happy-move distribution (``search.bfs.happy_count``: ``counts[d]`` positions at
    distance d, the goal at 0) matches Knuth's count, or None on a board he did not count.

    Knuth counts the positions from which the goal is *reached*: the goal itself is not one.

    >>> happy_count_agrees(3, 3, "standard", [1, 2])
    >>> happy_count_agrees(4, 4, "standard", [1] + [0] * 55 + [114])
    False
    """
    if (height, width, goal) != (4, 4, "standard"):
        return None
    top = len(counts) - 1
    return (sum(counts) - 1, top, counts[top]) == HAPPY_COUNT


def _start_position(text: str, out: TextIO, err: TextIO) -> tuple[int, ...] | int:
    """The 16 pieces of Knuth's start position, or the exit status after his message (bad
    digit, a digit twice, a digit missing, or an unreachable position)."""
    used = [False] * 16
    digits = []
    for ch in text:
        if "0" <= ch <= "9":
            k = ord(ch) - ord("0")
        elif "a" <= ch <= "f":
            k = ord(ch) - ord("a") + 10
        else:
            err.write(BAD_DIGIT + "\n")
            return 254
        if used[k]:
            err.write(TWICE % k + "\n")
            return 253
        used[k] = True
        digits.append(k)
    for k in range(16):
        if not used[k]:
            err.write(MISSING % k + "\n")
            return 252
    # Knuth's parity test: inversions of the renumbered pieces (blank = -1) plus the blank's
    # row and column must be odd.
    start = [k - 1 for k in digits]
    inversions = sum(1 for j in range(16) for s in range(j) if start[s] > start[j])
    blank = digits.index(0)
    if ((blank >> 2) + (blank & 3) + inversions) & 1 == 0:
        out.write(UNREACHABLE + "\n")
        return 0
    return tuple(digits)


def run(
    args: Sequence[str],
    out: TextIO,
    err: TextIO,
    *,
    program: str = "korf1",
    prog_name: str = "npuzzle knuth",
    clock: Callable[[], float] = time.time,
) -> int:
    """Run Knuth's program on its command-line arguments; return its exit status."""
    if program not in PROGRAMS:
        raise ValueError(f"unknown program {program!r}: use korf0 or korf1")
    if len(args) != 1:
        err.write(f"Usage: {prog_name} startposition\n")
        return 255
    digits = _start_position(args[0], out, err)
    if isinstance(digits, int):
        return digits
    board = Board(4, 4, digits)
    warmup(["manhattan"])
    h0 = board.manhattan()
    if h0 == 0:
        out.write("Solution in 0+0 moves: ")
        if program == "korf1":
            out.write(f" ({int(clock())} sec)\n")
        out.flush()
        return 0
    timer = int(clock())

    def report(it: Iteration, final: bool) -> None:
        nonlocal timer
        if not final:
            k = (it.threshold - h0) // 2
            out.write(f" ... no solution with {h0 + k}+{k} moves ({int(clock()) - timer} sec)\n")
            out.flush()
            timer = int(clock())

    solution = idastar(board, heuristic="manhattan", order=ORDER_OF[program], on_iteration=report)
    assert solution.length is not None
    k = (solution.length - h0) // 2
    pieces = "".join(f"{m:x}" for m in solution.moves)
    out.write(f"Solution in {h0 + k}+{k} moves: {pieces}")
    if program == "korf0" or solution.length == 1:
        out.write(f" ({int(clock()) - timer} sec)\n")
    else:
        out.write("\n")
    out.flush()
    return 0
