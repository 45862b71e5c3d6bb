"""The board: an immutable m x n sliding-tile position, its moves, goals and parity.

A ``Board`` is a frozen value: ``height``, ``width`` and ``tiles`` (row-major, 0 is the blank).
Its ``repr`` evaluates back to an equal board:

>>> b = Board(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8))
>>> b
Board(height=3, width=3, tiles=(1, 2, 3, 4, 5, 6, 7, 0, 8))
>>> b.move(8).is_goal()
True

Two goal conventions are named: ``"standard"`` (tiles 1..N-1 row by row, blank last: Knuth,
Parberry and most games) and ``"blank-first"`` (0 1 2 ... N-1: Korf's benchmarks).
``Board.converted()`` maps a position of one convention onto the other by rotating the board 180
degrees and relabelling each tile x > 0 as N - x; goal maps to goal and moves to moves, so the
distance to the goal is unchanged.

A solution is the sequence of tiles pushed. As letters, ``U D L R`` name the direction in which
the pushed tile slides (see ``Direction``).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .errors import (
    IllegalMoveError,
    InvalidBoardError,
    InvalidOptionError,
    InvalidTypeError,
    UnsolvableError,
    quote_input,
)

Goal = Literal["standard", "blank-first"]
GOALS: tuple[str, ...] = ("standard", "blank-first")


class Direction(enum.Enum):
    """The direction in which the *pushed tile* slides.

    ``L`` slides the tile right of the blank to the left, so the blank moves right; ``U`` slides
    the tile below the blank up, so the blank moves down; and so on.

    >>> Board(2, 2, (1, 2, 0, 3)).push("L").tiles
    (1, 2, 3, 0)
    """

    U = "U"
    D = "D"
    L = "L"
    R = "R"

    @property
    def blank_step(self) -> tuple[int, int]:
        """(row, column) step of the *blank* when a tile slides this way."""
        return _BLANK_STEP[self]

    @property
    def opposite(self) -> Direction:
        return _OPPOSITE[self]


_BLANK_STEP = {
    Direction.U: (1, 0),
    Direction.D: (-1, 0),
    Direction.L: (0, 1),
    Direction.R: (0, -1),
}
_OPPOSITE = {
    Direction.U: Direction.D,
    Direction.D: Direction.U,
    Direction.L: Direction.R,
    Direction.R: Direction.L,
}


def check_goal(goal: str) -> Goal:
    """Return ``goal`` if it names a goal convention, else raise ``InvalidOptionError``."""
    if goal not in GOALS:
        raise InvalidOptionError(f"unknown goal {quote_input(goal)}: use 'standard' or 'blank-first'")
    return goal  # type: ignore[return-value]


#: The most cells of a board: 2048x2048 (4,194,304), room for the real-time solver's millions of
#: tiles (1000x1000) while a board's tuple of tiles still fits in memory.
MAX_CELLS = 1 << 22


def check_shape(height: int, width: int) -> None:
    """Raise ``InvalidBoardError`` unless ``height x width`` is a board shape (both at least 2,
    at most ``MAX_CELLS`` cells)."""
    if not isinstance(height, int) or not isinstance(width, int):
        raise InvalidBoardError("height and width must be integers")
    if height < 2 or width < 2:
        raise InvalidBoardError(f"a board needs at least 2 rows and 2 columns, not {height}x{width}")
    if height * width > MAX_CELLS:
        raise InvalidBoardError(
            f"a {height}x{width} board has too many cells: at most {MAX_CELLS:,} (e.g. 2048x2048)")


def goal_cell(tile: int, size: int, goal: Goal = "standard") -> int:
    """The cell (row-major index) where ``tile`` belongs in the goal of a board of ``size`` cells."""
    if goal == "blank-first":
        return tile
    return size - 1 if tile == 0 else tile - 1


#: Boards of more cells than this have their Manhattan distance summed with numpy.
_ARRAY_CELLS = 1024


def _manhattan_array(board: Board, goal: Goal) -> int:
    """``Board.manhattan`` for a goal convention, in numpy (O(cells), about 20 ns a cell)."""
    import numpy as np

    n, w = board.size, board.width
    tiles = np.fromiter(board.tiles, dtype=np.int64, count=n)
    home = tiles if goal == "blank-first" else tiles - 1
    cells = np.arange(n, dtype=np.int64)
    dist = np.abs(cells // w - home // w) + np.abs(cells % w - home % w)
    return int(dist[tiles != 0].sum())


def goal_tiles(size: int, goal: Goal = "standard") -> tuple[int, ...]:
    """The goal's tiles, row-major."""
    if check_goal(goal) == "blank-first":
        return tuple(range(size))
    return tuple(range(1, size)) + (0,)


#: Notebooks draw boards of up to this many cells (a larger image would only slow them down).
SVG_CELLS = 1024


@dataclass(frozen=True, slots=True)
class Board:
    """An m x n sliding-tile position (2 <= height, width). Immutable; moves return new boards.

    >>> b = Board(2, 3, (1, 2, 3, 4, 0, 5))
    >>> print(b)
    1 2 3
    4 _ 5
    >>> b.movable_tiles(), b.move(5).is_goal(), b.manhattan()
    ((2, 4, 5), True, 1)
    """

    height: int
    width: int
    tiles: tuple[int, ...]
    _blank: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_shape(self.height, self.width)
        if isinstance(self.tiles, str | bytes) or not isinstance(self.tiles, Iterable):
            raise InvalidTypeError(f"tiles={quote_input(self.tiles)}: give the tiles as a sequence of whole numbers")
        tiles = tuple(self.tiles)
        object.__setattr__(self, "tiles", tiles)
        size = self.height * self.width
        if len(tiles) != size:
            raise InvalidBoardError(
                f"a {self.height}x{self.width} board has {size} cells, but {len(tiles)} tiles were given"
            )
        problem = permutation_problem(tiles, size)
        if problem:
            raise InvalidBoardError(problem)
        object.__setattr__(self, "_blank", tiles.index(0))

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def goal(cls, height: int, width: int, goal: Goal = "standard") -> Board:
        """The goal board of the given shape and convention.

        >>> print(Board.goal(2, 3))
        1 2 3
        4 5 _
        """
        check_shape(height, width)  # before the tiles exist: Board.goal(2, 10**9) is refused, not allocated
        return cls(height, width, goal_tiles(height * width, goal))

    def _derived(self, tiles: tuple[int, ...]) -> Board:
        """A board of this shape whose ``tiles`` are known to be valid (a move or a symmetry of
        this board's), built without re-checking them: on big boards the check dominates a move."""
        board = object.__new__(Board)
        object.__setattr__(board, "height", self.height)
        object.__setattr__(board, "width", self.width)
        object.__setattr__(board, "tiles", tiles)
        object.__setattr__(board, "_blank", tiles.index(0))
        return board

    # -- basic facts --------------------------------------------------------------------------

    @property
    def size(self) -> int:
        return self.height * self.width

    @property
    def shape(self) -> tuple[int, int]:
        return (self.height, self.width)

    @property
    def blank(self) -> int:
        """The cell (row-major index) of the blank."""
        return self._blank

    def rows(self) -> list[tuple[int, ...]]:
        w = self.width
        return [self.tiles[r * w : (r + 1) * w] for r in range(self.height)]

    def position_of(self, tile: int) -> int:
        return self.tiles.index(tile)

    def is_goal(self, goal: Goal | Board = "standard") -> bool:
        """Whether this is the goal: a convention's name or a goal ``Board`` of the same shape."""
        if isinstance(goal, Board):
            return self.tiles == self._goal_board(goal).tiles
        return self.tiles == goal_tiles(self.size, goal)

    def _goal_board(self, goal: Goal | Board) -> Board:
        """``goal`` as a board of this shape (``InvalidBoardError`` if its shape differs)."""
        if not isinstance(goal, Board):
            return Board.goal(self.height, self.width, check_goal(goal))
        if goal.shape != self.shape:
            raise InvalidBoardError(f"the goal board is {goal.height}x{goal.width} but the position is "
                                    f"{self.height}x{self.width}")
        return goal

    def __str__(self) -> str:
        """The board drawn as rows, the blank as ``_``."""
        wide = len(str(self.size - 1))
        return "\n".join(
            " ".join(("_" if t == 0 else str(t)).rjust(wide) for t in row) for row in self.rows()
        )

    def svg(self, cell: int = 40) -> str:
        """The board drawn as an SVG image: a grid of ``cell``-pixel squares, the blank empty.

        >>> print(Board(2, 2, (1, 2, 3, 0)).svg())  # doctest: +ELLIPSIS
        <svg xmlns="http://www.w3.org/2000/svg" width="82" height="82" viewBox="0 0 82 82">...</svg>
        """
        font = max(8, int(cell * (0.5 if self.size <= 100 else 0.35)))
        parts = []
        for q, t in enumerate(self.tiles):
            if t == 0:
                continue
            x, y = 1 + (q % self.width) * cell, 1 + (q // self.width) * cell
            parts.append(f'<rect x="{x + 1}" y="{y + 1}" width="{cell - 2}" height="{cell - 2}" rx="4" '
                         f'fill="#f4e3c1" stroke="#8a6d3b"/><text x="{x + cell / 2:g}" y="{y + cell / 2:g}" '
                         f'font-size="{font}" text-anchor="middle" dominant-baseline="central" '
                         f'font-family="sans-serif">{t}</text>')
        w, h = self.width * cell + 2, self.height * cell + 2
        frame = f'<rect x="0.5" y="0.5" width="{w - 1}" height="{h - 1}" fill="#fff" stroke="#444"/>'
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
                f'{frame}{"".join(parts)}</svg>')

    def _repr_svg_(self) -> str | None:
        """Notebooks draw a board as ``svg()`` (up to ``SVG_CELLS`` cells; larger ones as text)."""
        return self.svg() if self.size <= SVG_CELLS else None

    # -- moves --------------------------------------------------------------------------------

    def movable_tiles(self) -> tuple[int, ...]:
        """Tiles that can be pushed into the blank: those above, left of, right of and below it, in
        that order (the blank steps up, left, right, down; the tiles slide ``D``, ``R``, ``L``, ``U``).

        >>> Board(3, 3, (1, 2, 3, 4, 0, 5, 6, 7, 8)).movable_tiles()
        (2, 4, 5, 7)
        """
        r, c = divmod(self._blank, self.width)
        cells = []
        if r > 0:
            cells.append(self._blank - self.width)
        if c > 0:
            cells.append(self._blank - 1)
        if c < self.width - 1:
            cells.append(self._blank + 1)
        if r < self.height - 1:
            cells.append(self._blank + self.width)
        return tuple(self.tiles[q] for q in cells)

    def direction_of(self, tile: int) -> Direction:
        """The direction ``tile`` slides when pushed; ``IllegalMoveError`` if it is not beside the blank."""
        if not isinstance(tile, int) or not 0 < tile < self.size:
            raise IllegalMoveError(f"there is no tile {quote_input(tile)} on a {self.height}x{self.width} board")
        q = self.tiles.index(tile)
        br, bc = divmod(self._blank, self.width)
        qr, qc = divmod(q, self.width)
        for d, (dr, dc) in _BLANK_STEP.items():
            if (br + dr, bc + dc) == (qr, qc):
                return d
        raise IllegalMoveError(f"tile {tile} is not next to the blank")

    def tile_in_direction(self, direction: Direction | str) -> int:
        """The tile that slides when pushing in ``direction``; ``IllegalMoveError`` off the board."""
        d = _as_direction(direction)
        dr, dc = d.blank_step
        r, c = divmod(self._blank, self.width)
        r, c = r + dr, c + dc
        if not (0 <= r < self.height and 0 <= c < self.width):
            raise IllegalMoveError(f"no tile can slide {d.value}: the blank is at the edge")
        return self.tiles[r * self.width + c]

    def move(self, tile: int) -> Board:
        """Push ``tile`` (which must be beside the blank) into the blank."""
        self.direction_of(tile)
        q = self.tiles.index(tile)
        tiles = list(self.tiles)
        tiles[self._blank], tiles[q] = tile, 0
        return self._derived(tuple(tiles))

    def push(self, direction: Direction | str) -> Board:
        """Slide the tile that moves in ``direction`` (a ``Direction`` or one of ``"UDLR"``)."""
        return self.move(self.tile_in_direction(direction))

    def apply(self, moves: Iterable[int | Direction | str]) -> Board:
        """Apply moves given as tile numbers, ``Direction`` values or letters, in order.

        Raises ``IllegalMoveError`` naming the step that fails, ``InvalidTypeError`` for moves
        that are no sequence.
        """
        if not isinstance(moves, Iterable) or isinstance(moves, bytes):
            raise InvalidTypeError(f"moves={quote_input(moves)}: give tile numbers, Directions or letters, in order")
        tiles = list(self.tiles)
        blank = self._blank
        w, h = self.width, self.height
        for step, m in enumerate(moves, 1):
            if isinstance(m, int) and not isinstance(m, bool):
                if not 0 < m < len(tiles):
                    raise IllegalMoveError(f"move {step}: there is no tile {m} on a {h}x{w} board")
                q = tiles.index(m)
                dist = abs(q // w - blank // w) + abs(q % w - blank % w)
                if dist != 1:
                    raise IllegalMoveError(f"move {step}: tile {m} is not next to the blank")
            else:
                d = _as_direction(m)
                dr, dc = d.blank_step
                r, c = blank // w + dr, blank % w + dc
                if not (0 <= r < h and 0 <= c < w):
                    raise IllegalMoveError(
                        f"move {step}: no tile can slide {d.value}: the blank is at the edge"
                    )
                q = r * w + c
            tiles[blank], tiles[q] = tiles[q], 0
            blank = q
        return self._derived(tuple(tiles))

    def letters(self, moves: Sequence[int]) -> str:
        """The moves (tiles pushed, starting from this board) as a string of ``UDLR`` letters."""
        out = []
        replay = Replay(self)
        w = self.width
        steps = {(dr * w + dc): d.value for d, (dr, dc) in _BLANK_STEP.items()}
        for step, m in enumerate(moves, 1):
            q = replay.tile_cell(m) if isinstance(m, int) else -1
            if q < 0:
                raise IllegalMoveError(f"move {step}: tile {m} is not next to the blank")
            out.append(steps[q - replay.blank])
            replay.push(m)
        return "".join(out)

    def tiles_for(self, letters: Iterable[Direction | str]) -> tuple[int, ...]:
        """The tiles pushed by a sequence of letters (the inverse of ``letters``)."""
        out = []
        board = self
        for step, letter in enumerate(letters, 1):
            try:
                tile = board.tile_in_direction(letter)
            except IllegalMoveError as e:
                raise IllegalMoveError(f"move {step}: {e}") from None
            out.append(tile)
            board = board.move(tile)
        return tuple(out)

    # -- goals, parity, distances -------------------------------------------------------------

    def converted(self) -> Board:
        """The same position in the other goal convention (rotate 180 degrees, x -> N - x).

        The map is its own inverse, takes the standard goal to the blank-first goal and keeps
        every distance:

        >>> Board.goal(3, 4).converted() == Board.goal(3, 4, "blank-first")
        True
        """
        n = self.size
        return self._derived(tuple(0 if t == 0 else n - t for t in reversed(self.tiles)))

    def manhattan(self, goal: Goal | Board = "standard") -> int:
        """Sum over the tiles (not the blank) of their row and column distance to their goal cell.

        ``goal`` is a convention's name or a goal ``Board``:

        >>> Board(2, 2, (1, 2, 0, 3)).manhattan(Board(2, 2, (0, 1, 3, 2)))
        3
        """
        w, n = self.width, self.size
        if isinstance(goal, Board):
            home = _homes(self._goal_board(goal).tiles)
        else:
            check_goal(goal)
            if n > _ARRAY_CELLS:
                return _manhattan_array(self, goal)
            home = [goal_cell(t, n, goal) for t in range(n)]
        total = 0
        for cell, t in enumerate(self.tiles):
            if t:
                g = home[t]
                total += abs(cell // w - g // w) + abs(cell % w - g % w)
        return total

    def permutation_parity(self, goal: Goal | Board = "standard") -> int:
        """Parity (0 even, 1 odd) of the permutation, blank included, taking the goal to this board.

        That permutation sends each cell to the goal cell of its tile: the tiles read as a
        permutation of 0..N-1, followed by the goal's labelling (the identity for blank-first; for
        the standard goal t -> t-1, 0 -> N-1, one cycle of length N, of parity N - 1; for a goal
        board, the inverse of its tiles read as a permutation, of the same parity as they).
        """
        if isinstance(goal, Board):
            labelling = _parity(self._goal_board(goal).tiles)
        else:
            labelling = 0 if check_goal(goal) == "blank-first" else (self.size - 1) & 1
        return (_parity(self.tiles) + labelling) & 1

    def blank_distance(self, goal: Goal | Board = "standard") -> int:
        """Row plus column distance of the blank to its goal cell."""
        if isinstance(goal, Board):
            g = self._goal_board(goal).blank
        else:
            g = goal_cell(0, self.size, check_goal(goal))
        w = self.width
        return abs(self._blank // w - g // w) + abs(self._blank % w - g % w)

    def unsolvable_reason(self, goal: Goal | Board = "standard") -> str | None:
        """``None`` if the goal is reachable, else why not.

        Each move swaps the blank with a tile (the permutation's parity flips) and moves the blank
        one cell (the parity of its distance to its goal cell flips). Both are even at the goal, so
        they must agree; on boards of at least 2x2 that condition is also sufficient.

        >>> print(Board(2, 2, (1, 2, 3, 0)).unsolvable_reason(Board(2, 2, (2, 1, 3, 0))))
        unsolvable for the goal 2 1/3 0: the tiles (blank included) are an odd permutation of the goal, \
but the blank is 0 moves from its goal cell (even); every move flips both parities, so they can \
never both be even as at the goal
        """
        perm = self.permutation_parity(goal)
        dist = self.blank_distance(goal)
        if perm == dist & 1:
            return None
        return (
            f"unsolvable for {goal_label(goal)}: the tiles (blank included) are an "
            f"{'odd' if perm else 'even'} permutation of the goal, but the blank is {dist} "
            f"move{'s' if dist != 1 else ''} from its goal cell ({'odd' if dist & 1 else 'even'}); "
            "every move flips both parities, so they can never both be even as at the goal"
        )

    def is_solvable(self, goal: Goal | Board = "standard") -> bool:
        return self.unsolvable_reason(goal) is None

    def require_solvable(self, goal: Goal | Board = "standard") -> None:
        """Raise ``UnsolvableError`` with the parity reason if the goal cannot be reached."""
        reason = self.unsolvable_reason(goal)
        if reason is not None:
            raise UnsolvableError(reason)


#: Goal boards of more than this many cells are named, not written out, in one-line texts.
GOAL_TEXT_CELLS = 36


def goal_text(goal: Goal | Board, max_cells: int | None = None) -> str:
    """A goal as text: a convention's name, or a goal board's rows (``1 2 3/8 0 4/7 6 5``), or
    ``custom goal board`` if it has more than ``max_cells`` cells.

    >>> goal_text("standard"), goal_text(Board(2, 2, (0, 1, 2, 3))), goal_text(Board(2, 2, (0, 1, 2, 3)), 3)
    ('standard', '0 1/2 3', 'custom goal board')
    """
    if isinstance(goal, Board):
        if max_cells is not None and goal.size > max_cells:
            return "custom goal board"
        return "/".join(" ".join(map(str, row)) for row in goal.rows())
    return goal


def goal_label(goal: Goal | Board) -> str:
    """A goal named in a sentence: ``the standard goal``, ``the goal 1 2/3 0``."""
    return f"the goal {goal_text(goal)}" if isinstance(goal, Board) else f"the {goal} goal"


def _homes(goal_tiles: Sequence[int]) -> list[int]:
    """The cell of each tile in a goal's tiles (the inverse permutation)."""
    home = [0] * len(goal_tiles)
    for cell, t in enumerate(goal_tiles):
        home[t] = cell
    return home


def permutation_problem(tiles: Sequence[int], size: int) -> str | None:
    """What keeps ``tiles`` from being a permutation of 0..size-1 (duplicates first), or ``None``."""
    seen = bytearray(size)
    for t in tiles:
        if not isinstance(t, int) or isinstance(t, bool):
            return f"tile {quote_input(t)} is not a whole number"
        if not 0 <= t < size:
            return f"tile {quote_input(t)} is out of range: a board of {size} cells has tiles 0..{size - 1}"
        if seen[t]:
            return f"tile {t} appears twice"
        seen[t] = 1
    missing = seen.find(0)
    if missing >= 0:
        return f"tile {missing} is missing"
    return None


def _parity(perm: Sequence[int]) -> int:
    """Parity of a permutation of 0..n-1: n minus its number of cycles, mod 2."""
    todo = list(perm)
    cycles = 0
    for start in range(len(todo)):
        x = todo[start]
        if x < 0:
            continue
        cycles += 1
        todo[start] = -1
        while x != start:
            todo[x], x = -1, todo[x]
    return (len(todo) - cycles) & 1


def _as_direction(value: object) -> Direction:
    if isinstance(value, Direction):
        return value
    try:
        return Direction(str(value).upper())
    except ValueError:
        raise IllegalMoveError(f"{quote_input(value)} is not a move: use U, D, L or R") from None


#: The blank's step of each letter and ``Direction`` (a fast path of ``_as_direction``).
_LETTER_STEP: dict[object, tuple[int, int]] = {}
for _d, _step in _BLANK_STEP.items():
    _LETTER_STEP[_d] = _LETTER_STEP[_d.value] = _step


class Replay:
    """A position replayed move by move in place, in time linear in moves plus cells (no board is
    built per move): ``tiles`` (mutable, row-major), ``blank`` its cell, ``where[t]`` the cell of
    tile ``t``. ``push`` plays one move (a tile number, a ``Direction`` or a letter) and returns
    the tile pushed, or raises ``IllegalMoveError`` with the message ``Board.move`` or
    ``Board.push`` gives.

    >>> r = Replay(Board(2, 2, (1, 2, 0, 3)))
    >>> r.push("L"), r.push(3), r.board().tiles
    (3, 3, (1, 2, 0, 3))
    """

    def __init__(self, board: Board) -> None:
        self.height, self.width = board.height, board.width
        self.tiles = list(board.tiles)
        self.where = [0] * board.size
        for c, t in enumerate(self.tiles):
            self.where[t] = c
        self.blank = self.where[0]

    def tile_cell(self, move: int | Direction | str) -> int:
        """The cell of the tile ``move`` pushes, or -1 if it is illegal here."""
        w = self.width
        if isinstance(move, int) and not isinstance(move, bool):
            if not 0 < move < len(self.tiles):
                return -1
            q = self.where[move]
            return q if abs(q // w - self.blank // w) + abs(q % w - self.blank % w) == 1 else -1
        step = _LETTER_STEP.get(move)
        if step is None:
            try:
                step = _BLANK_STEP[_as_direction(move)]
            except IllegalMoveError:
                return -1
        r, c = self.blank // w + step[0], self.blank % w + step[1]
        return r * w + c if 0 <= r < self.height and 0 <= c < w else -1

    def push(self, move: int | Direction | str) -> int:
        q = self.tile_cell(move)
        if q < 0:
            board = self.board()
            board.move(move) if isinstance(move, int) and not isinstance(move, bool) else board.push(move)  # type: ignore[arg-type]
            raise IllegalMoveError(f"move {quote_input(move)} is not legal here")  # (the line above raised)
        return self.push_cell(q)

    def push_cell(self, q: int) -> int:
        """Push the tile in cell ``q`` (next to the blank) and return it."""
        t = self.tiles[q]
        self.tiles[self.blank], self.tiles[q] = t, 0
        self.where[t], self.where[0] = self.blank, q
        self.blank = q
        return t

    def board(self) -> Board:
        """The position now (built once: time linear in cells)."""
        return Board(self.height, self.width, tuple(self.tiles))
