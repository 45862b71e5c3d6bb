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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .board import Board, Direction, Goal, check_goal
from .errors import IllegalMoveError, InvalidBoardError, InvalidOptionError, SearchStopped, quote_input
from .notation import check_convention, check_move_count, parse_moves
from .search.limits import TIMEOUT, Clock, Limit

#: Boards of at most this many cells get optimal distances (a table or IDA*); larger ones get
#: lower bounds and a near-optimal solution of the start.
EXACT_CELLS = 16
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
    if board.size > EXACT_CELLS:
        return _bounds_analysis(board, goal, tiles, positions, optimal_from, limit, clock)
    frame = _Frame.of(board, goal)
    oracle = _oracle(frame, frame.apply(board), limit)
    walk = _Walk(oracle, frame, clock, board.shape)
    distances = walk.along([frame.apply(p) for p in positions])
    mistakes = tuple(walk.mistake(positions, tiles, k, distances) for k in range(len(tiles))
                     if distances[k + 1] > distances[k])
    optimal = walk.optimal(positions[optimal_from], distances[optimal_from])
    every = walk.all_optimal(board, distances[0], all_optimal) if all_optimal else None
    clock_cpu, clock_wall = clock.cpu(), clock.wall()
    return Analysis(board, goal, tiles, board.letters(tiles), tuple(distances), True, mistakes, optimal_from,
                    optimal, oracle.method, oracle.heuristic, None, every, clock_cpu, clock_wall, tuple(positions),
                    oracle.advice)


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


@dataclass(frozen=True)
class _Frame:
    """The positions as the distances are found: relabelled (and mirrored) so that the goal is a
    named convention or a distance table's goal (``goal`` a name, or ``blank`` its blank cell),
    as ``search.relabel`` does for a goal board. ``labels[t]`` names tile ``t`` in the frame."""

    apply: Callable[[Board], Board]
    labels: tuple[int, ...]
    goal: Goal
    blank: int | None = None

    @staticmethod
    def of(board: Board, goal: Goal | Board) -> _Frame:
        from .search import relabel

        n = board.size
        same = tuple(range(n))
        if not isinstance(goal, Board):
            return _Frame(lambda b: b, same, goal)
        named = next((g for g in ("standard", "blank-first") if goal.is_goal(g)), None)
        if named is not None:
            return _Frame(lambda b: b, same, named)  # type: ignore[arg-type]
        frame = relabel.frame_for(board, goal)
        if frame is not None and not frame.reverse:
            return _Frame(frame.apply, frame.labels, "standard")
        from .search.bfs import IN_MEMORY_CELLS, goal_board

        if n > IN_MEMORY_CELLS:
            raise InvalidBoardError("the analysis of a solve for a goal board whose blank is off the corners is "
                                    f"limited to boards of at most {IN_MEMORY_CELLS} cells")
        target = goal_board(board.height, board.width, goal.blank)
        labels = [0] * n
        for c, t in enumerate(goal.tiles):
            labels[t] = target.tiles[c]
        relabelled = relabel.Frame(same, tuple(labels), False)
        return _Frame(relabelled.apply, relabelled.labels, "standard", goal.blank)

    def original(self, tile: int) -> int:
        return self.labels.index(tile)

    def is_goal(self, board: Board) -> bool:
        """Whether framed ``board`` is the frame's goal."""
        if self.blank is None:
            return board.is_goal(self.goal)
        from .search.bfs import goal_board

        return board.tiles == goal_board(board.height, board.width, self.blank).tiles


class _Oracle:
    """Optimal paths of framed positions: ``path(board, bound)`` one of at most ``bound`` moves
    or None; ``method`` and ``heuristic`` name how."""

    method = ""
    heuristic = ""
    advice = ""

    def path(self, board: Board, bound: int, came_from: int | None = None) -> tuple[int, ...] | None:
        """``came_from``: the blank's cell before the move that made ``board`` (a neighbour at
        least ``bound`` moves from the goal), whose subtree a search may skip."""
        raise NotImplementedError

    def solve(self, board: Board, lower: int) -> tuple[int, ...]:
        """An optimal path (bounds from ``lower`` up, by two)."""
        bound = lower
        while True:
            found = self.path(board, bound)
            if found is not None:
                return found
            bound += 2


class _Table(_Oracle):
    method, heuristic = "bfs-table", "table"

    def __init__(self, blank: int) -> None:
        self.blank = blank

    def path(self, board: Board, bound: int, came_from: int | None = None) -> tuple[int, ...] | None:
        from .search.bfs import blank_cell_walk

        moves = blank_cell_walk(board, self.blank)[0]
        return moves if len(moves) <= bound else None


#: Pattern databases an analysis builds on first use when none is built for its shape: small and
#: quick (4x4 5-5-5: about 0.7 s of CPU and 3 MB, kept in the table store), and they make every
#: probe of a 100-move 4x4 solve several times cheaper than the walking distance
#: (``docs/benchmarks.md``, "Solve analysis").
SMALL_TABLES: dict[tuple[int, int], str] = {(4, 4): "5-5-5"}


class _Ida(_Oracle):
    method = "idastar"

    def __init__(self, board: Board, goal: Goal, limit: Limit) -> None:
        from .heuristics import pattern_db
        from .heuristics.registry import auto_heuristic
        from .search.idastar import Probe

        small = SMALL_TABLES.get(board.shape)
        if small is not None and not pattern_db.usable(board.height, board.width, goal):
            pattern_db.build(small, board.height, board.width, goal, wait=True)  # once: kept in the store
        self.probe = Probe(board.height, board.width, goal, "auto", limit)
        self.heuristic = self.probe.heuristic.name
        self.advice = auto_heuristic(board.height, board.width, goal)[1]

    def path(self, board: Board, bound: int, came_from: int | None = None) -> tuple[int, ...] | None:
        return self.probe.path(board, bound, came_from)


def _oracle(frame: _Frame, start: Board, limit: Limit) -> _Oracle:
    """A distance table where one is at hand (made at once on boards of at most
    ``IN_MEMORY_CELLS`` cells, or saved), else bounded IDA*."""
    from .search.bfs import IN_MEMORY_CELLS, MAX_CELLS, table_distance

    n = start.size
    if frame.blank is not None:
        return _Table(frame.blank)
    blank = n - 1 if frame.goal == "standard" else 0
    if n <= IN_MEMORY_CELLS or (n <= MAX_CELLS and table_distance(start, frame.goal) is not None):
        return _Table(blank)
    return _Ida(start, frame.goal, limit)


#: Distances (and one optimal move) found by earlier analyses of this process, by shape and
#: framed goal: a web worker answers many analyses of one solve (again with all its optimal
#: solutions, or an optimal solution from another step), which then need no search. Forgotten
#: once they hold more than ``REMEMBERED`` positions (about 60 MB of 4x4 positions).
_MEMORY: dict[tuple[object, ...], tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], int]]] = {}
REMEMBERED = 200_000


def _remembered(key: tuple[object, ...]) -> tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], int]]:
    if sum(len(known) for known, _ in _MEMORY.values()) > REMEMBERED:
        _MEMORY.clear()
    return _MEMORY.setdefault(key, ({}, {}))


class _Walk:
    """The distances found so far (framed positions by their tiles) and one optimal move from
    each position on an optimal path found."""

    def __init__(self, oracle: _Oracle, frame: _Frame, clock: Clock, shape: tuple[int, int]) -> None:
        self.oracle, self.frame, self.clock = oracle, frame, clock
        self.known, self.next = _remembered((*shape, frame.goal, frame.blank))

    def _tick(self) -> None:
        if self.clock.expired():
            raise SearchStopped(TIMEOUT, "the analysis stopped at its time limit")

    def _learn(self, board: Board, path: tuple[int, ...]) -> None:
        """Every position of an optimal ``path`` from ``board``: its distance and next move."""
        for i, t in enumerate(path):
            self.known[board.tiles], self.next[board.tiles] = len(path) - i, t
            board = board.move(t)
        self.known[board.tiles] = 0

    def at(self, board: Board, distance: int, came_from: int | None = None) -> bool:
        """Whether framed ``board`` is at ``distance`` (it is at ``distance`` or ``distance + 2``);
        ``came_from``: the blank's cell in a neighbour at ``distance + 1``."""
        self._tick()
        if board.tiles not in self.known:
            found = self.oracle.path(board, distance, came_from) if distance >= 0 else None
            if found is None:
                self.known[board.tiles] = distance + 2
            else:
                self._learn(board, found)
        return self.known[board.tiles] == distance

    def along(self, framed: list[Board]) -> list[int]:
        """The distance of every position, from the start's (solved) on."""
        start = framed[0]
        if start.tiles not in self.next and not self.frame.is_goal(start):
            self._tick()
            self._learn(start, self.oracle.solve(start, start.manhattan(self.frame.goal)))
        self.known.setdefault(start.tiles, 0)  # the goal
        distances = [self.known[start.tiles]]
        for before, board in zip(framed, framed[1:], strict=False):
            d = distances[-1]
            distances.append(d - 1 if self.at(board, d - 1, before.blank) else d + 1)
        return distances

    def better(self, board: Board, distance: int) -> list[int]:
        """The tiles (original names) whose push takes ``board`` (original) closer to the goal."""
        framed = self.frame.apply(board)
        return [t for t in board.movable_tiles()
                if distance > 0 and self.at(framed.move(self.frame.labels[t]), distance - 1, framed.blank)]

    def mistake(self, positions: list[Board], tiles: Sequence[int], k: int, distances: list[int]) -> Mistake:
        board, tile = positions[k], tiles[k]
        better = tuple(board.letters([t]) for t in self.better(board, distances[k]))
        return Mistake(k, board.letters([tile]), tile, distances[k], distances[k + 1], better)

    def optimal(self, board: Board, distance: int) -> str:
        """An optimal solution of ``board`` (original) as letters."""
        framed = self.frame.apply(board)
        if framed.tiles not in self.next and distance > 0:
            self.known.pop(framed.tiles, None)
            self.at(framed, distance)
        path, here = [], framed
        while self.known[here.tiles] > 0:
            t = self.next[here.tiles]
            path.append(self.frame.original(t))
            here = here.move(t)
        return board.letters(path)

    def all_optimal(self, board: Board, distance: int, most: int) -> AllOptimal:
        """How many optimal solutions ``board`` (original) has, and the first ``most``."""
        children: dict[tuple[int, ...], list[int]] = {}
        counts: dict[tuple[int, ...], int] = {}

        def steps(here: Board, d: int) -> list[int]:
            if here.tiles not in children:
                children[here.tiles] = self.better(here, d)
            return children[here.tiles]

        def count(here: Board, d: int) -> int:
            if d == 0:
                return 1
            if here.tiles not in counts:
                counts[here.tiles] = sum(count(here.move(t), d - 1) for t in steps(here, d))
            return counts[here.tiles]

        listed: list[str] = []

        def enumerate_(here: Board, d: int, path: list[int]) -> None:
            if len(listed) >= most:
                return
            if d == 0:
                listed.append(board.letters(path))
                return
            for t in steps(here, d):
                enumerate_(here.move(t), d - 1, [*path, t])

        total = count(board, distance)
        enumerate_(board, distance, [])
        return AllOptimal(total, tuple(listed))


def _bounds_analysis(board: Board, goal: Goal | Board, tiles: tuple[int, ...], positions: list[Board],
                     optimal_from: int, limit: Limit, clock: Clock) -> Analysis:
    """Boards of more than ``EXACT_CELLS`` cells: the lower bound of every position (the
    strongest ready, as ``solve`` picks it) and a near-optimal solution (``method="auto"``) of the
    start and of position ``optimal_from``; no mistakes are named (a bound that did not fall
    proves nothing)."""
    from .search import lower_bound, solve

    def near(position: Board) -> tuple[str, int]:
        solution = solve(position, goal=goal, limit=limit)
        if not solution.solved:
            raise SearchStopped(solution.status, "the analysis stopped at its time limit")
        return solution.letters, solution.length or 0

    from .heuristics.registry import auto_heuristic

    name = auto_heuristic(board.height, board.width, goal if isinstance(goal, str) else "standard")[0]
    if isinstance(goal, Board):
        name = "manhattan"  # the bound a goal board of any blank cell has
    distances = []
    for p in positions:
        if clock.expired():
            raise SearchStopped(TIMEOUT, "the analysis stopped at its time limit")
        distances.append(lower_bound(p, name, goal))
    letters, length = near(board)
    optimal = letters if optimal_from == 0 else near(positions[optimal_from])[0]
    return Analysis(board, goal, tiles, board.letters(tiles), tuple(distances), False, (), optimal_from, optimal,
                    "lower-bound", name, length, None, clock.cpu(), clock.wall(), tuple(positions))
