"""The analysis of a solve: the optimal distance of every position a player went through.

``analyze(board, moves)`` replays the moves and gives, for the start and after every move, the
optimal distance to the goal; the player's length; moves per Manhattan distance; every
*mistake* (a move after which the optimal distance did not fall: on a sliding puzzle it then
rose by one) with the *better* moves from that position (those after which it falls); an
optimal solution from any step; and, when asked, all the optimal solutions of the start (their
count and the first few).

How the distances are found (``search.oracle``, the distance oracle):

- boards whose distance table is at hand (at most 10 cells: 3x3, 2x3, 2x4, 2x5, ...; or a
  saved one): an optimal path read off it in microseconds;
- other boards of at most ``EXACT_CELLS`` cells (4x4, 3x4, 3x5, 2x8): IDA* with the strongest
  bound available. Only the start is solved; after it, the distance of each next position is its
  predecessor's minus one or plus one (every move changes the distance by exactly one, since it
  flips its parity), so one IDA* iteration at the threshold ``d - 1`` decides it;
- larger boards: a certified interval for every position (``distances`` its lower ends,
  ``upper`` its upper ends; ``exact`` false): the heuristic's bound, a near-optimal solution of
  the start (``near_optimal``), exact distances near the end where bounded IDA* finds them, each
  spread along the path (a move changes the distance by one). A move is a *proven* mistake where
  the lower bound after it is at least the upper bound before it (its ``proof`` says why); moves
  the bounds cannot settle are not called mistakes.

At every size, without any search, in time linear in moves plus cells:

- *detours*: the returns to earlier positions that leave the most moves out, each listed once
  (a 12-move loop is one detour; an undo pair is the shortest, 2 moves wasted);
- *phases*, as speedsolvers split a solve: the move (and the time, when ``times`` are given) at
  which each row or column was finished for good, the longer side of the unsolved rectangle
  first, away from the goal's blank, then the last 2xN block (the end).

Letters name the direction the pushed tile slides (``board.Direction``); ``convention="blank"``
reads move strings whose letters name the direction the blank moves (see
``notation.parse_moves``).

>>> a = analyze(Board(4, 4, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0, 14, 15)), "LRLL")
>>> a.distances, a.length, a.start_distance, [(m.index, m.move, m.better) for m in a.mistakes]
((2, 1, 2, 1, 0), 4, 2, [(1, 'R', ('L',))])
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from .board import Board, Direction, Goal, Replay, check_goal
from .errors import IllegalMoveError, InvalidOptionError, SearchStopped, quote_input
from .notation import check_convention, check_move_count, parse_moves
from .search.limits import TIMEOUT, Clock, Limit, Solution
from .search.oracle import EXACT_CELLS, MADE_TABLE_CELLS, Oracle

#: ``all_optimal`` lists at most this many solutions (their count is always complete).
MAX_LISTED = 10_000


@dataclass(frozen=True)
class Mistake:
    """A move after which the optimal distance did not fall: the move's 0-based ``index`` in the
    moves (the position before it is ``index``, after it ``index + 1``), its letter and tile, the
    distances before and after, and the ``better`` moves from the position before it (letters:
    those after which the distance falls; none if the position was the goal). Beyond exact
    distances, ``distance_before`` is the upper bound before it and ``distance_after`` the lower
    bound after it, and ``proof`` names what proved each."""

    index: int
    move: str
    tile: int
    distance_before: int
    distance_after: int
    better: tuple[str, ...]
    proof: str = ""  # beyond exact distances: the bounds that prove it


@dataclass(frozen=True)
class Detour:
    """A return to an earlier position: the position after ``start`` moves is the one after
    ``end`` moves (the moves ``start`` to ``end - 1``, 0-based, are ``wasted``); an undo pair is
    the shortest (2 moves)."""

    start: int
    end: int

    @property
    def wasted(self) -> int:
        return self.end - self.start


@dataclass(frozen=True)
class Phase:
    """A row or column (or the last block) of the goal and when it was finished for good: after
    ``move`` moves (None if it was not), ``moves`` moves after the phase before it, at ``time``
    seconds with ``tps`` moves a second (None unless the moves' times were given)."""

    name: str
    tiles: tuple[int, ...]
    move: int | None
    moves: int | None
    time: float | None = None
    tps: float | None = None


@dataclass(frozen=True)
class AllOptimal:
    """The optimal solutions of the start: how many there are, and the first ``len(solutions)``
    of them (letters) in the order U, L, R, D of the blank's step."""

    count: int
    solutions: tuple[str, ...]


@dataclass(frozen=True)
class Analysis:
    """A solve analysed (see ``analyze``). ``distances[k]`` is the distance to the goal after
    ``k`` moves (``distances[0]``: the start); optimal if ``exact``, else a lower bound.
    ``optimal`` is an optimal solution (letters) from position ``optimal_from`` (near-optimal when
    not ``exact``); ``near_optimal`` the length of a near-optimal solution of the start (boards
    too large for optimal distances only). ``method`` and ``heuristic`` say how the distances
    were found. ``positions`` holds every position on boards of exact distances, else the start
    and the end."""

    board: Board
    goal: Goal | Board
    moves: tuple[int, ...]
    letters: str
    distances: tuple[int, ...]
    exact: bool
    mistakes: tuple[Mistake, ...]
    optimal_from: int
    optimal: str
    method: str
    heuristic: str
    near_optimal: int | None = None
    all_optimal: AllOptimal | None = None
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    positions: tuple[Board, ...] = field(default=(), repr=False, compare=False)
    advice: str = field(default="", compare=False)  # a table build that would make it faster, if any
    detours: tuple[Detour, ...] = ()
    phases: tuple[Phase, ...] = ()
    upper: tuple[int, ...] = ()  # the upper ends of the distances (-1: none known); = distances if exact
    times: tuple[float, ...] | None = None

    @property
    def length(self) -> int:
        """The player's number of moves."""
        return len(self.moves)

    @property
    def start_distance(self) -> int:
        return self.distances[0]

    @property
    def end(self) -> Board:
        return self.positions[-1]

    @property
    def solved(self) -> bool:
        """Whether the moves end at the goal."""
        return self.end.is_goal(self.goal)

    @property
    def manhattan(self) -> int:
        """The Manhattan distance of the start."""
        return self.board.manhattan(self.goal)

    @property
    def moves_per_md(self) -> float | None:
        """The player's moves per unit of the start's Manhattan distance (None at the goal)."""
        return self.length / self.manhattan if self.manhattan else None


def analyze(
    board: Board,
    moves: str | Sequence[int | Direction | str],
    *,
    goal: Goal | Board = "standard",
    convention: str = "tile",
    all_optimal: int = 0,
    optimal_from: int = 0,
    timeout: float | None = None,
    times: Sequence[float] | None = None,
) -> Analysis:
    """Analyse the solve that plays ``moves`` from ``board`` (see the module's docstring).

    ``moves`` is a move string (tile numbers, letters, ``URDL2UR2`` with repeat counts, Knuth's
    hex digits: ``notation.parse_moves``, its letters read in ``convention``, ``tile`` or
    ``blank``) or a sequence of tiles, ``Direction`` values or letters. ``all_optimal`` > 0 asks
    for the optimal solutions of the start (boards of at most ``EXACT_CELLS`` cells): their count
    and the first ``all_optimal`` of them (at most ``MAX_LISTED``). ``optimal_from`` is the step
    (0 = the start, up to the number of moves) from which an optimal solution is given.
    ``timeout``: wall seconds for the whole analysis (``SearchStopped`` when reached).
    ``times``: the time of each move in seconds from the start of the attempt (non-decreasing, one
    a move), which times the phases.

    Raises ``IllegalMoveError`` naming the first illegal move (1-based), ``UnsolvableError`` if
    the goal cannot be reached, ``InvalidOptionError`` for options out of range.
    """
    if isinstance(goal, Board):
        board.is_goal(goal)  # InvalidBoardError if the shapes differ
    else:
        check_goal(goal)
    check_convention(convention)
    tiles = moves_of(board, moves, convention)
    _check_counts(all_optimal, optimal_from, len(tiles), board)
    board.require_solvable(goal)
    limit = Limit(timeout=timeout)
    clock = Clock(limit)
    timed = _checked_times(times, len(tiles))
    trace = _trace(board, tiles, goal)
    letters = trace.letters(board.width)
    detours, phases = _detours(trace), _phases(trace, timed)
    oracle = Oracle(board.height, board.width, goal, limit)
    if not oracle.exact:
        _check_exact(all_optimal)
        analysis = _bounds_analysis(board, goal, tiles, letters, trace, optimal_from, oracle, clock)
        return dataclasses.replace(analysis, detours=detours, phases=phases, times=timed)
    positions = _replay(board, tiles)
    distances = oracle.along(positions)
    mistakes = tuple(_mistake(oracle, positions, tiles, k, distances) for k in range(len(tiles))
                     if distances[k + 1] > distances[k])
    optimal = positions[optimal_from].letters(oracle.optimal(positions[optimal_from]))
    every = None
    if all_optimal:
        count, listed = oracle.all_optimal(board, all_optimal)
        every = AllOptimal(count, tuple(board.letters(p) for p in listed))
    clock_cpu, clock_wall = clock.cpu(), clock.wall()
    return Analysis(board, goal, tiles, letters, tuple(distances), True, mistakes, optimal_from,
                    optimal, oracle.method, oracle.heuristic, None, every, clock_cpu, clock_wall, tuple(positions),
                    oracle.advice, detours, phases, tuple(distances), timed)


def _check_exact(all_optimal: int) -> None:
    if all_optimal:
        raise InvalidOptionError("all_optimal (--all-optimal): the optimal solutions are enumerated where distances "
                                 "are exact; a goal board whose blank is off the corners has them on boards of at "
                                 f"most {MADE_TABLE_CELLS} cells (or with its distance table saved)")


def _mistake(oracle: Oracle, positions: list[Board], tiles: Sequence[int], k: int, distances: list[int]) -> Mistake:
    """Move ``k``, after which the distance rose, and the better moves from the position before it."""
    board, tile = positions[k], tiles[k]
    better = tuple(board.letters([t]) for t in oracle.better(board, distances[k]))
    return Mistake(k, board.letters([tile]), tile, distances[k], distances[k + 1], better)


#: The most moves of a solve analysed (each one's distance is found: about 9 s on 3x3 for these).
MAX_MOVES = 1_000_000


def moves_of(board: Board, moves: str | Sequence[int | Direction | str], convention: str) -> tuple[int, ...]:
    """The moves as the tiles pushed from ``board`` (a move string read with
    ``notation.parse_moves``, letters in ``convention``, or a sequence of tiles or letters);
    ``IllegalMoveError`` names the first illegal one, 1-based, and its letter or tile."""
    check_move_count(moves, MAX_MOVES)
    if isinstance(moves, str):
        given: Sequence[int | Direction | str] = parse_moves(moves, board, convention=convention)
    elif isinstance(moves, Sequence) and not isinstance(moves, bytes | bytearray):
        given = [_letter(m, convention) for m in moves]
    else:
        raise IllegalMoveError(f"moves={quote_input(moves)}: give a move string or a list of tiles or letters")
    check_move_count(given, MAX_MOVES)
    out = []
    replay = Replay(board)
    for step, m in enumerate(given, 1):
        move = _DIRECTIONS.get(m, m) if isinstance(m, str) else m
        if replay.tile_cell(move) < 0:
            if isinstance(move, Direction):
                raise IllegalMoveError(f"move {step} ({move.value}): no tile can slide {move.value}: "
                                       "the blank is at the edge")
            raise IllegalMoveError(f"move {step} ({m}): tile {m} is not next to the blank")
        out.append(replay.push_cell(replay.tile_cell(move)))
    return tuple(out)


_DIRECTIONS = {d.value: d for d in Direction}
#: Each letter (either case) read in each convention (a fast path of ``_letter``).
_READ = {(c, letter): (d.opposite if c == "blank" else d) for c in ("tile", "blank")
         for d in Direction for letter in (d.value, d.value.lower())}


def _letter(move: object, convention: str) -> int | Direction | str:
    """One move of a sequence: a tile, or a letter read in ``convention``."""
    if isinstance(move, str) and (convention, move) in _READ:
        return _READ[convention, move]
    if isinstance(move, int) and not isinstance(move, bool):
        return move
    if isinstance(move, Direction | str) and str(getattr(move, "value", move)).upper() in ("U", "D", "L", "R"):
        d = Direction(str(getattr(move, "value", move)).upper())
        return d.opposite if convention == "blank" and not isinstance(move, Direction) else d
    raise IllegalMoveError(f"{quote_input(move)} is not a move: give a tile number or one of U, D, L, R")


def _check_counts(all_optimal: int, optimal_from: int, moves: int, board: Board) -> None:
    if not isinstance(all_optimal, int) or isinstance(all_optimal, bool) or not 0 <= all_optimal <= MAX_LISTED:
        raise InvalidOptionError(f"all_optimal={quote_input(all_optimal)}: give a whole number from 0 to "
                                 f"{MAX_LISTED:,} (the optimal solutions listed)")
    if all_optimal and board.size > EXACT_CELLS:
        raise InvalidOptionError(f"all_optimal (--all-optimal): the optimal solutions are enumerated on boards of "
                                 f"at most {EXACT_CELLS} cells, not {board.height}x{board.width}")
    if not isinstance(optimal_from, int) or isinstance(optimal_from, bool) or not 0 <= optimal_from <= moves:
        raise InvalidOptionError(f"optimal_from={quote_input(optimal_from)} (--from): give a step from 0 (the "
                                 f"start) to {moves} (the end)")


def _replay(board: Board, tiles: Sequence[int]) -> list[Board]:
    """The positions from the start to the end (the moves are legal: ``_tiles`` checked them)."""
    positions = [board]
    for t in tiles:
        positions.append(positions[-1].move(t))
    return positions


def _bounds_analysis(board: Board, goal: Goal | Board, tiles: tuple[int, ...], letters: str, trace: _Trace,
                     optimal_from: int, oracle: Oracle, clock: Clock) -> Analysis:
    """Boards beyond exact distances: the oracle's certified interval of every position
    (``Oracle.bounds_along``), a near-optimal solution of the start and of position
    ``optimal_from``, and the mistakes the bounds prove (the lower bound after a move at least the
    upper bound before it: the distance rose)."""
    def near(position: Board) -> Solution:
        solution = oracle.solution(position)
        if not solution.solved:
            raise SearchStopped(solution.status, "the analysis stopped at its time limit")
        return solution

    start = near(board)
    if clock.expired():
        raise SearchStopped(TIMEOUT, "the analysis stopped at its time limit")
    path = oracle.bounds_along(board, tiles, start)
    mistakes = []
    for k in range(len(tiles)):
        after, before = path.lower[k + 1], path.upper[k]
        if before >= 0 and after >= before:
            proof = (f"the distance after it is at least {after} ({path.why_lower(k + 1)}); before it, at most "
                     f"{before} ({path.why_upper(k)})")
            mistakes.append(Mistake(k, letters[k], tiles[k], before, after, (), proof))
    optimal = start.letters if optimal_from == 0 else near(_position(board, tiles, optimal_from)).letters
    end = trace.end
    return Analysis(board, goal, tiles, letters, path.lower, False, tuple(mistakes), optimal_from, optimal,
                    "lower-bound", oracle.heuristic, start.length, None, clock.cpu(), clock.wall(), (board, end),
                    upper=path.upper)


def _position(board: Board, tiles: Sequence[int], step: int) -> Board:
    """The position after ``step`` of the (legal) moves ``tiles``."""
    replay = Replay(board)
    for t in tiles[:step]:
        replay.push(t)
    return replay.board()


def _checked_times(times: Sequence[float] | None, moves: int) -> tuple[float, ...] | None:
    if times is None:
        return None
    if isinstance(times, str | bytes) or not isinstance(times, Sequence):
        raise InvalidOptionError(f"times={quote_input(times)}: give the time of each move, in seconds")
    out: list[float] = []
    for t in times:
        if isinstance(t, bool) or not isinstance(t, int | float) or not 0 <= t < float("inf") or (out and t < out[-1]):
            raise InvalidOptionError(f"times: {quote_input(t)} is not a time in seconds after the one before")
        out.append(float(t))
    if len(out) != moves:
        raise InvalidOptionError(f"times: {len(out)} times for {moves} moves: give one a move")
    return tuple(out)


# -- detours and phases: one replay in place, linear in moves plus cells ---------------------------


@dataclass(frozen=True)
class _Trace:
    """A replay's record: the blank's cell after each step, a hash of each position (equal
    positions hash equal; a match is checked by ``_returns``), the moves, the step after which each
    phase's tiles were last put home for good (None: not home at the end), and the end."""

    blanks: list[int]
    hashes: list[int]
    tiles: Sequence[int]
    regions: list[tuple[str, tuple[int, ...]]]
    done: list[int | None]
    end: Board

    def letters(self, width: int) -> str:
        """The moves as letters, read off the blank's steps (the tile slides the other way)."""
        slide = {width: "U", -width: "D", 1: "L", -1: "R"}
        return "".join(slide[b - a] for a, b in zip(self.blanks, self.blanks[1:], strict=False))


_MASK = (1 << 128) - 1


def _trace(board: Board, tiles: Sequence[int], goal: Goal | Board) -> _Trace:
    """Replay ``tiles`` (legal) in place. The hash of a position is the sum over cells of a random
    128-bit weight times the tile there (mod 2**128): a move changes two cells, so one update a move."""
    import random

    n = board.size
    rng = random.Random(n)
    weight = [rng.getrandbits(128) for _ in range(n)]
    goal_board = goal if isinstance(goal, Board) else Board.goal(board.height, board.width, goal)
    regions = _regions(board.height, board.width, goal_board)
    home = [0] * n
    for c, t in enumerate(goal_board.tiles):
        home[t] = c
    region_of = [0] * n
    for i, (_, members) in enumerate(regions):
        for t in members:
            region_of[t] = i
    replay = Replay(board)
    away = [0] * len(regions)
    for t in range(1, n):
        away[region_of[t]] += replay.where[t] != home[t]
    done: list[int | None] = [0 if a == 0 else None for a in away]
    h = sum(w * t for w, t in zip(weight, replay.tiles, strict=True)) & _MASK
    blanks, hashes = [replay.blank], [h]
    for k, t in enumerate(tiles, 1):
        was = replay.blank
        replay.push(t)
        q = replay.blank
        h = (h + t * (weight[was] - weight[q])) & _MASK
        blanks.append(q)
        hashes.append(h)
        region = region_of[t]
        before = away[region]
        away[region] += (q == home[t]) - (was == home[t])
        if away[region] == 0:
            done[region] = k
        elif before == 0:
            done[region] = None
    return _Trace(blanks, hashes, tiles, regions, done, replay.board())


def _returns(trace: _Trace, start: int, end: int) -> bool:
    """Whether the position after ``end`` moves is the one after ``start``: the moves between are
    replayed on the cells they touch only (time linear in ``end - start``)."""
    now: dict[int, int] = {}
    then: dict[int, int] = {}
    blanks, tiles = trace.blanks, trace.tiles
    for i in range(start, end):
        blank, q, t = blanks[i], blanks[i + 1], tiles[i]
        then.setdefault(q, t)
        then.setdefault(blank, 0)
        now[blank], now[q] = t, 0
    return all(now[c] == then[c] for c in now)


def _detours(trace: _Trace) -> tuple[Detour, ...]:
    """The returns that leave the most moves out, each listed once: the fewest moves from the start
    to the end when a return to a position may skip everything since it was first reached
    (``least[k]``, one pass), read back from the end; every skip is one detour. A hash match is
    checked on the cells the detour's moves touch (time linear in the moves)."""
    least = [0]
    first: dict[int, int] = {trace.hashes[0]: 0}  # the step of least moves for a position, earliest
    jump = [-1]
    for k in range(1, len(trace.hashes)):
        h = trace.hashes[k]
        seen = first.get(h)
        if seen is not None and least[seen] < least[k - 1] + 1:
            least.append(least[seen])
            jump.append(seen)
        else:
            least.append(least[k - 1] + 1)
            jump.append(-1)
            if seen is None or least[seen] > least[k]:
                first[h] = k
    out = []
    k = len(trace.hashes) - 1
    while k > 0:
        if jump[k] < 0:
            k -= 1
            continue
        if not _returns(trace, jump[k], k):  # a hash collision (about 2**-128 a pair): no detour claimed
            k -= 1
            continue
        out.append(Detour(jump[k], k))
        k = jump[k]
    return tuple(reversed(out))


def _regions(height: int, width: int, goal: Board) -> list[tuple[str, tuple[int, ...]]]:
    """The goal's rows and columns in the order speedsolvers finish them (the longer side of the
    unsolved rectangle first, starting away from the goal's blank), then the last 2xN block; each
    with its tiles."""
    br, bc = divmod(goal.blank, width)
    top, bottom, left, right = 0, height, 0, width
    out: list[tuple[str, tuple[int, ...]]] = []

    def tiles_of(cells: list[int]) -> tuple[int, ...]:
        return tuple(goal.tiles[c] for c in cells if goal.tiles[c])

    while bottom - top > 2 and right - left > 2:
        if bottom - top >= right - left:
            r = top if br >= (height - 1) / 2 else bottom - 1
            out.append((f"row {r + 1}", tiles_of([r * width + c for c in range(left, right)])))
            top, bottom = (top + 1, bottom) if r == top else (top, bottom - 1)
        else:
            c = left if bc >= (width - 1) / 2 else right - 1
            out.append((f"column {c + 1}", tiles_of([r * width + c for r in range(top, bottom)])))
            left, right = (left + 1, right) if c == left else (left, right - 1)
    last = [r * width + c for r in range(top, bottom) for c in range(left, right)]
    out.append((f"last {bottom - top}x{right - left}", tiles_of(last)))
    return out


def _phases(trace: _Trace, times: tuple[float, ...] | None) -> tuple[Phase, ...]:
    """Each phase finished when it and every phase before it are home for good."""
    out = []
    finished: int | None = 0
    before, before_time = 0, 0.0
    for (name, members), done in zip(trace.regions, trace.done, strict=True):
        finished = None if finished is None or done is None else max(finished, done)
        if finished is None:
            out.append(Phase(name, members, None, None))
            continue
        moves = finished - before
        time = tps = None
        if times is not None:
            time = times[finished - 1] if finished else 0.0
            tps = round(moves / (time - before_time), 6) if time > before_time else None
            before_time = time
        out.append(Phase(name, members, finished, moves, time, tps))
        before = finished
    return tuple(out)
