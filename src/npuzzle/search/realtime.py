"""Real-time solving of boards of any size: Parberry's algorithm and a greedy refinement.

Parberry (1995) solves an n x n board by putting its first row and then its first column in
place, tile by tile, and recursing on the (n-1) x (n-1) rest; the last 3 x 3 is solved by brute
force. m x n boards are reduced the same way (a row while the region is at least as tall as it
is wide, else a column) down to a region of at most 3 x 3, which is finished optimally from a
BFS table of all its states (built in a kernel on first use, about 0.1 s for 3 x 3, and kept in
memory for the process).

It is a *real-time* algorithm: after an O(n^2) set-up (the solvability check, copying the board
into cell and position arrays, the goal rows and columns of the tiles), each move is computed
with O(1) work from the current position, so ``realtime_moves`` yields moves as it goes. The fast paths
(``realtime_array``, ``realtime_packed``, ``realtime_count``) run the same state machine in one
kernel over O(n^2) memory besides the moves themselves.

Methods (``REALTIME_METHODS``):

- ``parberry``: the paper's algorithm (diagonal steps of 6 moves, straight steps of 5, the
  two-tile trick at the end of each line); its move count is at most
  5n^3 - 9n^2/2 + 19n/2 - 89 (Theorem 1) and about (8/3) n^3 on random boards.
- ``greedy``: the same plan, but wherever it leaves a free choice (the order of the blank's
  steps on its way to the tile, the side it walks around the tile, which of two useful moves the
  tile makes), it takes the one whose displaced tiles gain most Manhattan distance.

Moves come as tiles pushed (``realtime_moves``, ``realtime_solve``) or as *blank directions*
(0 up, 1 left, 2 right, 3 down: the blank's step; the pushed tile slides the other way), one byte
each or packed four to a byte (move ``i`` in bits ``2*(i % 4)`` of byte ``i // 4``).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np

from ..board import Board, Goal, check_goal
from ..errors import InvalidTypeError
from .limits import (
    MEMORY_LIMIT,
    SOLVED,
    TIMEOUT,
    Clock,
    Iteration,
    Limit,
    Progress,
    Solution,
    Stats,
    VerificationError,
    found_solution,
    unfinished,
)
from .problem import Problem, prepare
from .problem import run as run_problem
from .quality import proven_bound
from .registry import Request, check_realtime_method

#: Each method's number in the kernel.
_METHOD_CODE = {"parberry": 0, "greedy": 1}

#: Moves a real-time generator computes per call into the kernel (a constant: O(1) per move).
BATCH = 16
#: Moves per kernel call on the fast paths (bounds the scratch buffer, not the total).
CHUNK = 1 << 22
#: Largest board whose solutions ``realtime_solve`` also replays with ``Board.apply``; larger
#: ones are replayed by the kernel only (``Board.apply`` costs O(cells) per move).
PY_REPLAY_CELLS = 1024

#: How much a unit of Manhattan distance gained by displaced tiles is worth against one move
#: of the blank, in hundredths, when the plan leaves a choice (see ``_kernels.realtime``).
_WEIGHTS = {"parberry": 0, "greedy": 70}
_LETTER_OF_BLANK_STEP = "DRLU"  # blank up: the tile below slides down (D), and so on
_TABLES: dict[tuple[int, int], np.ndarray] = {}


@dataclass(frozen=True)
class PackedMoves:
    """Blank directions packed four to a byte (move ``i`` in bits ``2*(i % 4)`` of byte ``i // 4``)."""

    data: np.ndarray
    count: int

    def unpacked(self) -> np.ndarray:
        """One byte per move."""
        shifts = np.array([0, 2, 4, 6], dtype=np.uint8)
        return ((self.data[:, None] >> shifts) & 3).reshape(-1)[: self.count].astype(np.uint8)


def letter_chunks(packed: PackedMoves, moves_per_chunk: int = 1 << 22) -> Iterator[bytes]:
    """The moves as ``UDLR`` letters (the direction each pushed tile slides), a chunk at a time,
    so that billions of moves can be written without unpacking them all at once."""
    letters = np.frombuffer(_LETTER_OF_BLANK_STEP.encode(), dtype=np.uint8)
    shifts = np.array([0, 2, 4, 6], dtype=np.uint8)
    step = moves_per_chunk // 4
    for start in range(0, len(packed.data), step):
        dirs = ((packed.data[start : start + step, None] >> shifts) & 3).reshape(-1)
        dirs = dirs[: max(0, packed.count - 4 * start)]
        yield letters[dirs].tobytes()


def final_shape(height: int, width: int) -> tuple[int, int]:
    """The shape of the last region, solved by table: rows go while the region is at least as
    tall as wide, columns otherwise, until both sides are at most 3.

    >>> final_shape(5, 4), final_shape(2, 7)
    ((3, 3), (2, 3))
    """
    while height > 3 or width > 3:
        if height >= width:
            height -= 1
        else:
            width -= 1
    return height, width


def parberry_bound(n: int) -> int:
    """Theorem 1's move bound for an n x n board: 5n^3 - 9n^2/2 + 19n/2 - 89 (exact integer)."""
    return (10 * n**3 - 9 * n**2 + 19 * n - 178) // 2


def _table(height: int, width: int) -> np.ndarray:
    """Distance to the goal of every state of the final region, by BFS (cached in memory)."""
    from .._kernels.realtime import bfs_table

    key = final_shape(height, width)
    if key not in _TABLES:
        _TABLES[key] = bfs_table(key[0], key[1], math.factorial(key[0] * key[1]))
    return _TABLES[key]


def _check(board: Board, goal: Goal, method: str) -> Board:
    """Check the inputs; return the board to solve for the standard goal."""
    if not isinstance(board, Board):
        raise InvalidTypeError(f"board={board!r}: expected a Board")
    check_goal(goal)
    check_realtime_method(method)
    board.require_solvable(goal)
    return board.converted() if goal == "blank-first" else board


def home_array(height: int, width: int) -> np.ndarray:
    """``home[2t]``, ``home[2t+1]``: goal row and column of tile t (standard goal)."""
    g = np.arange(-1, height * width - 1, dtype=np.int32)
    home = np.empty(2 * height * width, dtype=np.int32)
    home[0::2], home[1::2] = g // width, g % width
    return home


def board_arrays(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """``cells`` (tile at each cell) and ``pos`` (cell of each tile) as int32 arrays."""
    cells = np.array(board.tiles, dtype=np.int32)
    pos = np.empty_like(cells)
    pos[cells] = np.arange(cells.size, dtype=np.int32)
    return cells, pos


class _Machine:
    """The solver's state: the board arrays, the state vector and the current segment."""

    def __init__(self, board: Board, method: str) -> None:
        from .._kernels import realtime as k

        self.k = k
        self.cells, self.pos = board_arrays(board)
        self.st = np.zeros(k.STATE_SIZE, dtype=np.int64)
        self.st[k.H], self.st[k.W] = board.height, board.width
        self.st[k.METHOD] = _METHOD_CODE[method]
        self.st[k.WEIGHT] = _WEIGHTS[method]
        self.st[k.BULK] = 1
        self.st[k.PHASE] = k.P_NEXT
        self.pat = np.zeros(k.PAT_SIZE, dtype=np.int64)
        self.table = _table(board.height, board.width)
        self.finished = False

    def run(self, cap: int, keep: int, dirs: np.ndarray, tiles: np.ndarray) -> int:
        done = int(self.k.run(self.st, self.cells, self.pos, self.pat, self.table, dirs, tiles, cap, keep))
        if done < cap:
            if self.st[self.k.ERROR]:
                raise VerificationError(
                    f"internal error: the real-time solver got stuck (code {self.st[self.k.ERROR]})")
            self.finished = True
        return done


_NO_TILES = np.zeros(0, dtype=np.int64)
_NO_DIRS = np.zeros(0, dtype=np.uint8)


def realtime_moves(board: Board, goal: Goal = "standard", method: str = "parberry") -> Iterator[int]:
    """Yield the tiles pushed, in order, as they are computed (O(1) work per move).

    >>> list(realtime_moves(Board(2, 2, (1, 2, 0, 3))))
    [3]
    """
    work = _check(board, goal, method)
    n = board.size
    m = _Machine(work, method)
    dirs = np.zeros(BATCH, dtype=np.uint8)
    tiles = np.zeros(BATCH, dtype=np.int64)
    while not m.finished:
        done = m.run(BATCH, 2, dirs, tiles)
        for t in tiles[:done].tolist():
            yield n - t if goal == "blank-first" else t


def realtime_array(board: Board, *, goal: Goal = "standard", method: str = "parberry") -> np.ndarray:
    """The solution as blank directions, one uint8 per move (see the module docstring)."""
    work = _check(board, goal, method)
    m = _Machine(work, method)
    parts = []
    while not m.finished:
        buf = np.zeros(CHUNK, dtype=np.uint8)
        parts.append(buf[: m.run(CHUNK, 1, buf, _NO_TILES)])
    dirs = np.concatenate(parts) if parts else _NO_DIRS
    return 3 - dirs if goal == "blank-first" else dirs


def realtime_packed(board: Board, *, goal: Goal = "standard", method: str = "parberry") -> PackedMoves:
    """The solution as blank directions packed four to a byte (a quarter of the memory).

    The moves are written into one buffer sized for 5 n^3 moves (Parberry's bound, n^3 read as
    height x width x (height + width) / 2): memory the moves never reach is never touched, so it
    costs no RAM, and the moves are never copied (a longer solution grows the buffer)."""
    packed = _packed(board, goal, method, Clock(Limit()))
    assert packed is not None
    return packed


def _packed(board: Board, goal: Goal, method: str, clock: Clock) -> PackedMoves | None:
    """``realtime_packed``, or None if ``clock``'s time limit is reached (between two chunks)."""
    work = _check(board, goal, method)
    m = _Machine(work, method)
    data = np.empty(max(CHUNK, 5 * board.size * (board.height + board.width) // 2) // 4 + CHUNK // 4, dtype=np.uint8)
    count = 0
    while not m.finished:
        if clock.expired():
            return None
        if len(data) - count // 4 < CHUNK // 4:
            data = np.concatenate([data, np.empty(len(data), dtype=np.uint8)])
        count += m.run(CHUNK, 3, data[count // 4 : count // 4 + CHUNK // 4], _NO_TILES)
    data = data[: (count + 3) // 4]
    if goal == "blank-first":
        np.bitwise_xor(data, 0xFF, out=data)  # 3 - d flips both bits of every field
    return PackedMoves(data, count)


def realtime_count(board: Board, *, goal: Goal = "standard", method: str = "parberry",
                   clock: Clock | None = None) -> int | None:
    """The number of moves of the solution, without storing them; None if ``clock``'s time limit
    is reached (checked every ``COUNT_CHUNK`` moves)."""
    m = _Machine(_check(board, goal, method), method)
    count = 0
    while not m.finished:
        if clock is not None and clock.expired():
            return None
        count += m.run(COUNT_CHUNK, 0, _NO_DIRS, _NO_TILES)
    return count


#: Moves counted between two looks at the clock (about 0.05 s).
COUNT_CHUNK = 1 << 24


def replay_directions(board: Board, moves: np.ndarray | PackedMoves, *, goal: Goal = "standard") -> dict[str, int]:
    """Replay blank directions from ``board`` in a kernel; raise ``VerificationError`` unless
    every move stays on the board and the goal is reached. Returns ``moves``, ``manhattan``
    (the board's distance) and ``wasted`` (moves that raised the Manhattan distance)."""
    from .._kernels.realtime import replay

    check_goal(goal)
    work = board.converted() if goal == "blank-first" else board
    cells, _ = board_arrays(work)
    packed = isinstance(moves, PackedMoves)
    if isinstance(moves, PackedMoves):
        data, count = moves.data, moves.count
    else:
        data = np.ascontiguousarray(moves, dtype=np.uint8)
        count = data.size
    flip = 3 if goal == "blank-first" else 0
    stats = np.zeros(3, dtype=np.int64)
    home = home_array(work.height, work.width)
    if not replay(cells, work.height, work.width, home, data, count, packed, flip, stats):
        raise VerificationError(f"internal error: move {int(stats[0]) + 1} leaves the board")
    if stats[2] != 0:
        raise VerificationError("internal error: the moves do not reach the goal")
    return {"moves": count, "manhattan": int(stats[1]), "wasted": (count - int(stats[1])) // 2}


def directions_of(board: Board, tiles: Sequence[int]) -> np.ndarray:
    """Blank directions of a sequence of tiles pushed from ``board`` (``IllegalMoveError``-free:
    an illegal move raises ``VerificationError``)."""
    from .._kernels.realtime import tiles_to_dirs

    cells, pos = board_arrays(board)
    out = np.zeros(len(tiles), dtype=np.uint8)
    bad = tiles_to_dirs(cells, pos, board.width, np.asarray(tiles, dtype=np.int64), out)
    if bad >= 0:
        raise VerificationError(f"internal error: move {bad + 1} (tile {tiles[bad]}) is not next to the blank")
    return out


def realtime_goal(height: int, width: int, goal: Goal) -> Goal:
    """The goal real time works toward: the standard one (the board is turned 180 degrees for the
    other convention)."""
    return "standard"


def solve_problem(problem: Problem) -> Solution:
    """Real time on a prepared problem (see ``search.problem``; its target is the standard goal).
    ``limit.timeout`` is honoured between chunks of moves, and ``limit.max_memory`` by the moves
    kept (8 bytes each); ``on_progress`` is called after each chunk and ``on_iteration`` once,
    for the whole pass (``Iteration.kind`` "real-time pass")."""
    board, goal, request, limit = problem.start, problem.target, problem.request, problem.limit
    method = request.realtime_method
    clock = Clock(limit)
    m = _Machine(board, method)
    parts: list[np.ndarray] = []
    kept = 0
    while not m.finished:
        stop = clock.slice_budget(limit, kept, CHUNK)[1] or (  # the time (real time takes no node limit)
            MEMORY_LIMIT if limit.max_memory is not None and 8 * (kept + CHUNK) > limit.max_memory else None)
        if stop is not None:
            stats = Stats(expanded=kept, generated=kept)
            clock.stamp(stats)
            return unfinished(board, goal, stop, board.manhattan(goal), stats=stats, method=f"realtime-{method}",
                              heuristic="none")
        tiles = np.zeros(CHUNK, dtype=np.int64)
        done = m.run(CHUNK, 2, np.zeros(CHUNK, dtype=np.uint8), tiles)
        parts.append(tiles[:done])
        kept += done
        if request.on_progress is not None:
            request.on_progress(Progress(0, kept, clock.wall(), clock.cpu()))
    moves = tuple((np.concatenate(parts) if parts else _NO_TILES).tolist())
    stats = Stats(expanded=len(moves), generated=len(moves))
    clock.stamp(stats)
    if request.on_iteration is not None:
        request.on_iteration(Iteration(0, len(moves), len(moves), stats.seconds, "real-time pass", len(moves)), True)
    bound = proven_bound(board, goal)
    solution = found_solution(board, goal, moves, optimal=len(moves) == bound, stats=stats,
                              method=f"realtime-{method}", heuristic="none")
    return dataclasses.replace(solution, lower_bound=bound)


def realtime_solve(
    board: Board, *, goal: Goal = "standard", method: str = "parberry", limit: Limit | None = None
) -> Solution:
    """Solve ``board`` in real time (``solve_problem``); the moves are replayed and checked
    before returning.

    >>> realtime_solve(Board(2, 3, (1, 2, 3, 4, 0, 5))).letters
    'L'
    """
    if not isinstance(board, Board):
        raise InvalidTypeError(f"board={board!r}: expected a Board")
    return run_problem(prepare(board, Request(goal=goal, limit=limit, realtime_method=method), "realtime"))


def replayed_directions_letters(board: Board, moves: Sequence[int], goal: Goal) -> str:
    """``moves`` replayed from ``board`` toward ``goal`` by the kernels: their letters, else
    ``VerificationError``."""
    dirs = directions_of(board, moves)
    replay_directions(board, dirs, goal=goal)
    return "".join(_LETTER_OF_BLANK_STEP[d] for d in dirs.tolist())


def packed_problem(problem: Problem, *, count_only: bool = False
                   ) -> tuple[Solution, PackedMoves | None, dict[str, Any] | None]:
    """``packed_solution`` for a prepared real-time problem of a named goal."""
    assert isinstance(problem.goal, str) and problem.method == "realtime"
    return packed_solution(problem.board, goal=problem.goal, method=problem.request.realtime_method,
                           count_only=count_only, limit=problem.limit)


def packed_solution(
    board: Board, *, goal: Goal = "standard", method: str = "parberry", count_only: bool = False,
    limit: Limit | None = None
) -> tuple[Solution, PackedMoves | None, dict[str, Any] | None]:
    """A real-time answer whose moves never become Python objects, for front ends that write the
    answers of large boards as they go: the moves packed (``letter_chunks`` reads them out),
    replayed and checked in a kernel (with ``count_only``, only counted: no moves, and no
    ``wasted`` in the report); their ``realtime_report``; and the rest of the answer as a
    ``Solution`` whose ``moves`` and ``letters`` are left empty (``length`` is their number), with
    the proven lower bound (``quality.proven_bound``) and the time taken. ``limit.timeout`` is
    honoured between chunks of moves (counted or kept): a search stopped by it gives a
    stopped ``Solution`` with that bound, and no moves nor report.

    >>> s, packed, report = packed_solution(Board(2, 2, (1, 2, 0, 3)))
    >>> s.length, s.lower_bound, packed.count, b"".join(letter_chunks(packed)), report["wasted"]
    (1, 1, 1, b'L', 0)
    """
    clock = Clock(limit or Limit())
    moves = realtime_count(board, goal=goal, method=method, clock=clock) if count_only else \
        _packed(board, goal, method, clock)
    if moves is None:
        stats = Stats()
        clock.stamp(stats)
        return unfinished(board, goal, TIMEOUT, proven_bound(board, goal), stats=stats, method=f"realtime-{method}",
                          heuristic="none"), None, None
    packed = moves if isinstance(moves, PackedMoves) else None
    report = realtime_report(board, moves, goal=goal)
    stats = Stats(expanded=report["moves"], generated=report["moves"])
    clock.stamp(stats)
    bound = proven_bound(board, goal)
    count = report["moves"]
    return (Solution(board, goal, (), "", count, count == bound, SOLVED, bound, stats, f"realtime-{method}", "none"),
            packed, report)


def realtime_report(
    board: Board, moves: int | np.ndarray | PackedMoves | Sequence[int], *, goal: Goal = "standard"
) -> dict[str, Any]:
    """Figures of a solution: ``moves``, ``manhattan``, ``moves_per_n3`` (n^3 read as
    height * width * (height + width) / 2 on non-square boards), ``moves_per_manhattan`` and,
    unless only a count is given, ``wasted`` (moves that raised the Manhattan distance; the
    moves are replayed and checked). ``moves`` is a count, blank directions (a uint8 array or
    ``PackedMoves``) or the tiles pushed (any other sequence)."""
    check_goal(goal)
    if isinstance(moves, int):
        return _figures(board, moves, board.manhattan(goal), None)
    if not isinstance(moves, (np.ndarray, PackedMoves)):
        moves = directions_of(board, moves)
    replayed = replay_directions(board, moves, goal=goal)
    return _figures(board, replayed["moves"], replayed["manhattan"], replayed["wasted"])


def streamed_report(
    board: Board, out: BinaryIO | None = None, *, goal: Goal = "standard", method: str = "parberry"
) -> dict[str, Any]:
    """Solve ``board`` in real time without ever making its moves a Python list, and return
    their ``realtime_report``. Without ``out`` the moves are only counted (``wasted`` is then
    None); with it they are replayed and checked, then written to ``out`` as ``UDLR`` letters
    followed by a newline."""
    if out is None:
        count = realtime_count(board, goal=goal, method=method)
        assert count is not None  # no clock: counted to the end
        return realtime_report(board, count, goal=goal)
    packed = realtime_packed(board, goal=goal, method=method)
    report = realtime_report(board, packed, goal=goal)  # replays and checks every move
    for chunk in letter_chunks(packed):
        out.write(chunk)
    out.write(b"\n")
    return report


def solution_report(solution: Solution) -> dict[str, Any]:
    """``realtime_report`` of a solution that has already been replayed and checked (every
    ``Solution`` returned as solved has been): each move changes the Manhattan distance by one
    and the last one reaches the goal, so the wasted moves are (moves - distance) / 2 without a
    second replay."""
    if not solution.solved or solution.length is None:
        raise ValueError("a report needs a solved position")
    md = solution.board.manhattan(solution.goal)
    return _figures(solution.board, solution.length, md, (solution.length - md) // 2)


def _figures(board: Board, count: int, md: int, wasted: int | None) -> dict[str, Any]:
    cube = board.height * board.width * (board.height + board.width) / 2
    report: dict[str, Any] = {
        "height": board.height,
        "width": board.width,
        "moves": count,
        "manhattan": md,
        "moves_per_n3": count / cube,
        "moves_per_manhattan": count / md if md else None,
        "wasted": wasted,
    }
    if board.height == board.width:
        report["parberry_bound"] = parberry_bound(board.height)
    return report
