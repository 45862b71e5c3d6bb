"""The analysis of a solve: the optimal distance of every position a player went through.

``analyze(board, moves)`` replays the moves and gives, for the start and after every move, the
optimal distance to the goal; the player's length; moves per Manhattan distance; every
*mistake* (a move after which the optimal distance did not fall: on a sliding puzzle it then
rose by one) with the *better* moves from that position (those after which it falls); an
optimal solution from any step; and, when asked, all the optimal solutions of the start (their
count and the first few).

How the distances are found:

- boards of at most ``search.bfs.IN_MEMORY_CELLS`` cells (3x3, 2x3, 2x4, 2x5, ...), and boards
  of at most 12 cells whose distance table is saved: the BFS distance table (read, or made in
  about a second and saved), an optimal path read off it in microseconds;
- other boards of at most ``EXACT_CELLS`` cells (4x4, 3x4, 3x5, 2x8): IDA* with the strongest
  bound available (``pdb:6-6-3`` when it is built). Only the start is solved; after it, the
  distance of each next position is its predecessor's minus one or plus one (every move changes
  the distance by exactly one, since it flips its parity), so one IDA* iteration at the
  threshold ``d - 1`` (``search.idastar.Probe``) decides it, and every position on an optimal
  path found on the way is known at once;
- larger boards: the lower bound of every position (not optimal distances: ``exact`` is false,
  and no mistake is named) and a near-optimal solution of the start (``near_optimal``).

Letters name the direction the pushed tile slides (``board.Direction``); ``convention="blank"``
reads move strings whose letters name the direction the blank moves (see
``notation.parse_moves``).

>>> a = analyze(Board(4, 4, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0, 14, 15)), "LRLL")
>>> a.distances, a.length, a.start_distance, [(m.index, m.move, m.better) for m in a.mistakes]
((2, 1, 2, 1, 0), 4, 2, [(1, 'R', ('L',))])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .board import Board, Direction, Goal, check_goal
from .errors import IllegalMoveError, InvalidOptionError, SearchStopped, quote_input
from .notation import check_convention, parse_moves
from .search.limits import TIMEOUT, Clock, Limit
from .search.oracle import EXACT_CELLS, Oracle

#: ``all_optimal`` lists at most this many solutions (their count is always complete).
MAX_LISTED = 10_000


@dataclass(frozen=True)
class Mistake:
    """A move after which the optimal distance did not fall: the move's 0-based ``index`` in the
    moves (the position before it is ``index``, after it ``index + 1``), its letter and tile, the
    distances before and after, and the ``better`` moves from the position before it (letters:
    those after which the distance falls; none if the position was the goal)."""

    index: int
    move: str
    tile: int
    distance_before: int
    distance_after: int
    better: tuple[str, ...]


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
    were found."""

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
) -> Analysis:
    """Analyse the solve that plays ``moves`` from ``board`` (see the module's docstring).

    ``moves`` is a move string (tile numbers, letters, ``URDL2UR2`` with repeat counts, Knuth's
    hex digits: ``notation.parse_moves``, its letters read in ``convention``, ``tile`` or
    ``blank``) or a sequence of tiles, ``Direction`` values or letters. ``all_optimal`` > 0 asks
    for the optimal solutions of the start (boards of at most ``EXACT_CELLS`` cells): their count
    and the first ``all_optimal`` of them (at most ``MAX_LISTED``). ``optimal_from`` is the step
    (0 = the start, up to the number of moves) from which an optimal solution is given.
    ``timeout``: wall seconds for the whole analysis (``SearchStopped`` when reached).

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
    positions = _replay(board, tiles)
    oracle = Oracle(board.height, board.width, goal, limit)
    if not oracle.exact:
        return _bounds_analysis(board, goal, tiles, positions, optimal_from, oracle, clock)
    distances = oracle.along(positions)
    mistakes = tuple(_mistake(oracle, positions, tiles, k, distances) for k in range(len(tiles))
                     if distances[k + 1] > distances[k])
    optimal = positions[optimal_from].letters(oracle.optimal(positions[optimal_from]))
    every = None
    if all_optimal:
        count, listed = oracle.all_optimal(board, all_optimal)
        every = AllOptimal(count, tuple(board.letters(p) for p in listed))
    clock_cpu, clock_wall = clock.cpu(), clock.wall()
    return Analysis(board, goal, tiles, board.letters(tiles), tuple(distances), True, mistakes, optimal_from,
                    optimal, oracle.method, oracle.heuristic, None, every, clock_cpu, clock_wall, tuple(positions),
                    oracle.advice)


def _mistake(oracle: Oracle, positions: list[Board], tiles: Sequence[int], k: int, distances: list[int]) -> Mistake:
    """Move ``k``, after which the distance rose, and the better moves from the position before it."""
    board, tile = positions[k], tiles[k]
    better = tuple(board.letters([t]) for t in oracle.better(board, distances[k]))
    return Mistake(k, board.letters([tile]), tile, distances[k], distances[k + 1], better)


def moves_of(board: Board, moves: str | Sequence[int | Direction | str], convention: str) -> tuple[int, ...]:
    """The moves as the tiles pushed from ``board`` (a move string read with
    ``notation.parse_moves``, letters in ``convention``, or a sequence of tiles or letters);
    ``IllegalMoveError`` names the first illegal one, 1-based, and its letter or tile."""
    if isinstance(moves, str):
        given: Sequence[int | Direction | str] = parse_moves(moves, board, convention=convention)
    elif isinstance(moves, Sequence) and not isinstance(moves, bytes | bytearray):
        given = [_letter(m, convention) for m in moves]
    else:
        raise IllegalMoveError(f"moves={quote_input(moves)}: give a move string or a list of tiles or letters")
    out = []
    tiles = list(board.tiles)
    blank, w, h = board.blank, board.width, board.height
    for step, m in enumerate(given, 1):
        if isinstance(m, Direction | str):
            d = Direction(m) if isinstance(m, str) else m
            r, c = blank // w + d.blank_step[0], blank % w + d.blank_step[1]
            if not (0 <= r < h and 0 <= c < w):
                raise IllegalMoveError(f"move {step} ({d.value}): no tile can slide {d.value}: "
                                       "the blank is at the edge")
            q = r * w + c
        else:
            q = tiles.index(m) if 0 < m < len(tiles) else -1
            if q < 0 or abs(q // w - blank // w) + abs(q % w - blank % w) != 1:
                raise IllegalMoveError(f"move {step} ({m}): tile {m} is not next to the blank")
        out.append(tiles[q])
        tiles[blank], tiles[q] = tiles[q], 0
        blank = q
    return tuple(out)


def _letter(move: object, convention: str) -> int | Direction | str:
    """One move of a sequence: a tile, or a letter read in ``convention``."""
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


def _bounds_analysis(board: Board, goal: Goal | Board, tiles: tuple[int, ...], positions: list[Board],
                     optimal_from: int, oracle: Oracle, clock: Clock) -> Analysis:
    """Boards of more than ``EXACT_CELLS`` cells: the lower bound of every position (the
    strongest ready, as ``solve`` picks it) and a near-optimal solution (``method="auto"``) of the
    start and of position ``optimal_from``; no mistakes are named (a bound that did not fall
    proves nothing)."""
    def near(position: Board) -> tuple[str, int]:
        solution = oracle.solution(position)
        if not solution.solved:
            raise SearchStopped(solution.status, "the analysis stopped at its time limit")
        return solution.letters, solution.length or 0

    name = oracle.heuristic
    distances = []
    for p in positions:
        if clock.expired():
            raise SearchStopped(TIMEOUT, "the analysis stopped at its time limit")
        distances.append(oracle.lower(p)[0])
    letters, length = near(board)
    optimal = letters if optimal_from == 0 else near(positions[optimal_from])[0]
    return Analysis(board, goal, tiles, board.letters(tiles), tuple(distances), False, (), optimal_from, optimal,
                    "lower-bound", name, length, None, clock.cpu(), clock.wall(), tuple(positions))
