"""Reading and writing positions and moves: every ``parse_*`` has its ``format_*``.

Positions are accepted as

* Knuth's 16 hex digits for a 4x4 board: ``159d26ae37bf48c0`` (row by row, 0 = blank);
  more generally one hex digit per cell for any board of at most 16 cells (``123456780``);
* numbers separated by spaces or commas, rows separated by ``/``, ``;`` or newlines:
  ``1 2 3/4 5 6/7 8 0``. The shape comes from the rows, from ``shape=(h, w)`` (``--shape HxW``),
  or from the count when it is a square. ``_`` and ``.`` may stand for the blank (0), so a
  drawn board (``str(board)``) reads back.

>>> parse_position("1 2 3/4 5 6/7 0 8")
Board(height=3, width=3, tiles=(1, 2, 3, 4, 5, 6, 7, 0, 8))
>>> format_position(parse_position("159d26ae37bf48c0"), "rows")
'1 5 9 13/2 6 10 14/3 7 11 15/4 8 12 0'

Every rejection is an ``InvalidBoardError`` that names the problem and quotes the input.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence, Sized
from pathlib import Path
from typing import BinaryIO, NamedTuple

from .board import Board, Direction, check_shape
from .errors import IllegalMoveError, InvalidBoardError, quote_input

NOTATIONS: tuple[str, ...] = ("rows", "list", "hex", "grid")
HEX_DIGITS = "0123456789abcdef"
_ROW_SEPARATORS = re.compile(r"[/;\n]")
_NUMBER_SEPARATORS = re.compile(r"[,\s]+")
_BLANKS = ("_", ".")
_SHAPE = re.compile(r"^\s*0*(\d{1,9})\s*[xX×*]\s*0*(\d{1,9})\s*$")
_MAX_DIGITS = 18  # no board has 10**18 cells


def _fail(problem: str, text: str) -> InvalidBoardError:
    return InvalidBoardError(f"{problem} in {quote_input(text)}")


def _too_big(token: str) -> bool:
    """Whether a run of digits is beyond any tile number (and beyond what ``int()`` reads:
    Python refuses strings of more than 4300 digits with a bare ``ValueError``)."""
    return len(token.lstrip("0")) > _MAX_DIGITS


def _number(token: str) -> int:
    """A run of ASCII digits that is not ``_too_big``, as an int (leading zeros dropped first, so
    ``int()``'s 4300-digit limit is never reached)."""
    return int(token.lstrip("0") or "0")


# -- shapes -----------------------------------------------------------------------------------


def parse_shape(text: str) -> tuple[int, int]:
    """``"3x4"`` -> ``(3, 4)`` (height x width).

    >>> parse_shape("4x3")
    (4, 3)
    """
    m = _SHAPE.match(text)
    if not m:
        raise InvalidBoardError(f"bad shape {quote_input(text)}: write HEIGHTxWIDTH, e.g. 3x4")
    h, w = int(m.group(1)), int(m.group(2))
    if h < 2 or w < 2:
        raise InvalidBoardError(f"bad shape {quote_input(text)}: a board needs at least 2 rows and 2 columns")
    check_shape(h, w)
    return h, w


def format_shape(shape: tuple[int, int]) -> str:
    return f"{shape[0]}x{shape[1]}"


# -- Knuth's hex notation ---------------------------------------------------------------------


def parse_knuth(text: str) -> Board:
    """Knuth's notation: exactly 16 hex digits filling a 4x4 board row by row.

    >>> parse_knuth("123456789abcdef0").is_goal()
    True
    """
    s = text.strip()
    return _parse_hex_digits(s, (4, 4), text)


def format_knuth(board: Board) -> str:
    """16 hex digits (4x4 boards only)."""
    if board.shape != (4, 4):
        raise InvalidBoardError(f"Knuth's notation is for 4x4 boards, not {format_shape(board.shape)}")
    return format_hex(board)


def format_hex(board: Board) -> str:
    """One hex digit per cell (boards of at most 16 cells)."""
    check_notation("hex", board.shape)
    return "".join(HEX_DIGITS[t] for t in board.tiles)


def _parse_hex_digits(s: str, shape: tuple[int, int] | None, original: str) -> Board:
    s = s.replace("_", "0").replace(".", "0")
    for i, ch in enumerate(s):
        if ch.lower() not in HEX_DIGITS:
            raise _fail(f"bad character {ch!r} at position {i + 1} (hex notation uses 0-9, a-f)", original)
    if shape is None:
        side = math.isqrt(len(s))
        if side * side != len(s) or side < 2:
            raise _fail(
                f"cannot tell the shape of {len(s)} hex digits: give the shape, HxW", original
            )
        shape = (side, side)
    h, w = shape
    if len(s) != h * w:
        raise _fail(f"wrong count: a {h}x{w} board needs {h * w} digits, got {len(s)}", original)
    return _board_from_numbers([int(ch, 16) for ch in s], h, w, original)


# -- numbers and rows -------------------------------------------------------------------------


def parse_position(text: str, shape: tuple[int, int] | None = None) -> Board:
    """Read a position in any accepted notation (see the module's docstring).

    A single run of hex digits with no separators (``159d26ae37bf48c0``, ``123456780``) is read
    one digit per cell when the board has at most 16 cells; anything else as numbers.
    """
    if not isinstance(text, str):
        raise InvalidBoardError(f"a position must be text, not {type(text).__name__}")
    s = text.strip()
    if not s:
        raise _fail("empty position: nothing to read", text)
    if _looks_compact(s, shape):
        return _parse_hex_digits(s, shape, text)
    if _HEX_RUN.fullmatch(s) and re.search("[a-fA-F]", s) and (shape is None or shape[0] * shape[1] <= 16):
        want = (f"{shape[0] * shape[1]} for a {format_shape(shape)} board" if shape is not None
                else "16 for the 4x4 board, as in 159d26ae37bf48c0")
        raise _fail(f"wrong count: hex notation needs one digit per cell ({want}), got {len(s)}", text)
    return parse_numbers(text, shape)


#: A run of hex digits with no separators (with a letter among them, it cannot be numbers).
_HEX_RUN = re.compile("[0-9a-fA-F]{2,}")


def _looks_compact(s: str, shape: tuple[int, int] | None) -> bool:
    if not re.fullmatch(r"[0-9a-zA-Z_.]{2,}", s) or re.fullmatch(r"[_.]+", s):
        return False
    if shape is not None:
        return shape[0] * shape[1] <= 16 and len(s) == shape[0] * shape[1]
    return len(s) in (4, 9, 16)


def parse_numbers(text: str, shape: tuple[int, int] | None = None) -> Board:
    """Numbers separated by spaces/commas, rows by ``/``, ``;`` or newlines; ``0``, ``_`` or
    ``.`` is the blank.

    >>> parse_numbers("1,2,3,4,5,0", shape=(2, 3)).rows()
    [(1, 2, 3), (4, 5, 0)]
    >>> parse_numbers("8 6 7/2 5 4/3 _ 1") == parse_numbers(str(parse_numbers("8 6 7/2 5 4/3 . 1")))
    True
    """
    rows_text = _ROW_SEPARATORS.split(text.strip())
    rows: list[list[int]] = []
    for row_text in rows_text:
        row_text = row_text.strip().strip(",").strip()
        if not row_text:
            if rows_text and len(rows_text) > 1:
                raise _fail("empty row", text)
            continue
        rows.append(_row(row_text, text))
    if not rows:
        raise _fail("empty position: nothing to read", text)
    numbers = [n for row in rows for n in row]
    if len(rows) > 1:
        width = len(rows[0])
        for i, row in enumerate(rows[1:], 2):
            if len(row) != width:
                raise _fail(
                    f"ragged rows: row 1 has {width} numbers but row {i} has {len(row)}", text
                )
        h, w = len(rows), width
        if shape is not None and shape != (h, w):
            raise _fail(
                f"the rows give a {h}x{w} board but the shape asked for is {format_shape(shape)}", text
            )
    elif shape is not None:
        h, w = shape
        if len(numbers) != h * w:
            raise _fail(
                f"wrong count: a {h}x{w} board needs {h * w} numbers, got {len(numbers)}", text
            )
    elif len(numbers) < 4:
        raise _fail(f"{len(numbers)} number{'s are' if len(numbers) != 1 else ' is'} no board: the smallest, "
                    "2x2, has 4 cells (the blank is 0)", text)
    else:
        side = math.isqrt(len(numbers))
        if side * side != len(numbers):
            raise _fail(
                f"cannot tell the shape of {len(numbers)} number{'s' if len(numbers) != 1 else ''}: "
                "separate the rows with '/' "
                "or give the shape, HxW",
                text,
            )
        h = w = side
    if h < 2 or w < 2:
        raise _fail(f"a {h}x{w} board is too small: it needs at least 2 rows and 2 columns", text)
    return _board_from_numbers(numbers, h, w, text)


def _row(row_text: str, text: str) -> list[int]:
    """The tiles of one row (``_`` and ``.`` read as 0); ``text`` is the whole input, for messages."""
    row = []
    for token in _NUMBER_SEPARATORS.split(row_text):
        if not token:
            continue
        if token in _BLANKS:
            row.append(0)
            continue
        if not token.isdigit() or not token.isascii():
            bad = next((ch for ch in token if not (ch.isascii() and ch.isdigit())), token[0])
            where = f" in {quote_input(token, 24)}" if len(token) > 1 and token != text.strip() else ""
            raise _fail(f"bad character {bad!r}{where} (tiles are whole numbers, 0 or _ = blank)", text)
        if _too_big(token):
            raise _fail(f"tile {quote_input(token, 24)} is out of range", text)
        row.append(_number(token))
    return row


def _board_from_numbers(numbers: list[int], h: int, w: int, text: str) -> Board:
    size = h * w
    for n in numbers:
        if n >= size:
            raise _fail(f"tile {n} is out of range for a {h}x{w} board (tiles are 0..{size - 1})", text)
    seen = bytearray(size)
    for n in numbers:
        if seen[n]:
            raise _fail(f"duplicate tile {n}", text)
        seen[n] = 1
    missing = seen.find(0)
    if missing >= 0:
        raise _fail(f"missing tile {missing}", text)
    return Board(h, w, tuple(numbers))


def check_notation(notation: str, shape: tuple[int, int]) -> None:
    """``InvalidBoardError`` if boards of ``shape`` cannot be written in ``notation`` (hex takes
    at most 16 cells), so a caller can refuse before it makes the boards.

    >>> check_notation("hex", (5, 5))
    Traceback (most recent call last):
    ...
    npuzzle.errors.InvalidBoardError: hex notation needs a board of at most 16 cells
    """
    if notation == "hex" and shape[0] * shape[1] > 16:
        raise InvalidBoardError("hex notation needs a board of at most 16 cells")


def format_position(board: Board, notation: str = "rows") -> str:
    """Write ``board`` in a notation: ``rows`` (``1 2 3/4 5 6/7 8 0``), ``list`` (one line of
    numbers), ``hex`` (one hex digit per cell, at most 16 cells) or ``grid`` (drawn, one row a line).

    Each is read back by ``parse_position`` (``list`` needs the shape unless it is square).
    """
    if notation == "rows":
        return "/".join(" ".join(map(str, row)) for row in board.rows())
    if notation == "list":
        return " ".join(map(str, board.tiles))
    if notation == "hex":
        return format_hex(board)
    if notation == "grid":
        wide = len(str(board.size - 1))
        return "\n".join(" ".join(str(t).rjust(wide) for t in row) for row in board.rows())
    raise ValueError(f"unknown notation {notation!r}: use one of {', '.join(NOTATIONS)}")


# -- files ------------------------------------------------------------------------------------


_LOOSE_TOKEN = re.compile(r"[0-9_.]{1,7}([/;][0-9_.]{1,7})*")


def position_texts(arguments: Sequence[str]) -> list[str]:
    """Positions given as command arguments: one per argument, except that tile numbers given
    as separate arguments, unquoted (``npuzzle solve 1 2 3 4 5 6 7 8 0`` or
    ``npuzzle solve 8 6 7/2 5 4/3 0 1``), are one position.

    >>> position_texts(["1", "2", "3", "0"]), position_texts(["1 2/3 0", "2 3/1 0"])
    (['1 2 3 0'], ['1 2/3 0', '2 3/1 0'])
    >>> position_texts(["8", "6", "7/2", "5", "4/3", "_", "1"])
    ['8 6 7/2 5 4/3 _ 1']
    """
    if len(arguments) >= 2 and all(_LOOSE_TOKEN.fullmatch(a) for a in arguments):
        rows = any("/" in a or ";" in a for a in arguments)
        if rows or all(len(a) <= 3 for a in arguments):  # no lone number of 3 digits is a position
            return [" ".join(arguments)]
    return list(arguments)


class Entry(NamedTuple):
    """One position of an input, as read: where it came from (``source`` is a file name,
    ``<stdin>`` or ``argument``; ``number`` the 1-based line, or the argument's index), its
    text, and the board, or the ``error`` that says why it is not one."""

    source: str
    number: int
    text: str
    board: Board | None
    error: str | None = None

    @property
    def where(self) -> str:
        """``positions.txt:3`` or ``argument 2``."""
        return f"argument {self.number}" if self.source == "argument" else f"{self.source}:{self.number}"


def read_entry(source: str, number: int, text: str, shape: tuple[int, int] | None = None) -> Entry:
    """One position read, or refused with its error, at its place (see ``Entry``)."""
    try:
        return Entry(source, number, text, parse_position(text, shape))
    except InvalidBoardError as e:
        return Entry(source, number, text, None, str(e))


def argument_entries(arguments: Sequence[str], shape: tuple[int, int] | None = None) -> list[Entry]:
    """The positions of command arguments (see ``position_texts``), each read or refused.

    >>> [(e.where, e.error is None) for e in argument_entries(["1 2/3 0", "1 1/2 0"])]
    [('argument 1', True), ('argument 2', False)]
    """
    return [read_entry("argument", i, text, shape) for i, text in enumerate(position_texts(arguments), 1)]


#: A drawn board of more rows than this is never looked for in a block of lines.
_MAX_GRID_ROWS = 4096


def _blocks(text: str) -> list[list[tuple[int, str]]]:
    """Runs of consecutive lines with content (comments removed), each line with its number."""
    blocks: list[list[tuple[int, str]]] = [[]]
    for number, line in enumerate(text.splitlines(), 1):
        content = line.split("#", 1)[0].strip()
        if content:
            blocks[-1].append((number, content))
        elif blocks[-1]:
            blocks.append([])
    return [b for b in blocks if b]


def _grid(block: list[tuple[int, str]], shape: tuple[int, int] | None) -> Board | None:
    """The board a block of lines draws, one row a line (``scramble --notation grid``,
    ``str(board)``), if it is one; else None (its lines are then positions of their own). A
    block of two or more lines cannot be both: every position holds one blank."""
    if not 2 <= len(block) <= _MAX_GRID_ROWS or any(ch in c for _, c in block for ch in "/;"):
        return None
    widths = {len(_NUMBER_SEPARATORS.split(c.strip(", "))) for _, c in block}
    if len(widths) != 1 or widths == {1}:
        return None
    try:
        return parse_numbers("\n".join(c for _, c in block), shape)
    except InvalidBoardError:
        return None


def read_entries(text: str, shape: tuple[int, int] | None = None, source: str = "<input>") -> list[Entry]:
    r"""Every position of ``text``, in order, each read or refused on its own: one a line (``#``
    starts a comment, blank lines are skipped), or a board drawn one row a line with a blank
    line after it (the ``grid`` notation), numbered by its first line.

    >>> [(e.number, e.error is None) for e in read_entries("1 2/3 0\n# note\n1 2/2 0\n\n1 2\n0 3\n")]
    [(1, True), (3, False), (5, True)]
    """
    entries = []
    for block in _blocks(text):
        board = _grid(block, shape)
        if board is not None:
            entries.append(Entry(source, block[0][0], "/".join(c for _, c in block), board))
        else:
            entries.extend(read_entry(source, number, content, shape) for number, content in block)
    return entries


def parse_lines(text: str, shape: tuple[int, int] | None = None, source: str = "<input>") -> list[Board]:
    """The positions of ``text`` (see ``read_entries``); the first bad one raises.

    Errors name the source and line: ``positions.txt:3: duplicate tile 5 in '...'``.
    """
    boards = []
    for entry in read_entries(text, shape, source):
        if entry.board is None:
            raise InvalidBoardError(f"{entry.where}: {entry.error}")
        boards.append(entry.board)
    return boards


def format_lines(boards: Sequence[Board], notation: str = "rows") -> str:
    return "".join(format_position(b, notation) + "\n" for b in boards)


#: The longest line of positions read: 64 MiB (a 2048x2048 board, the largest, takes at most
#: 34 MB as one line of numbers).
MAX_LINE_BYTES = 1 << 26
#: The most input of positions read from one file or stdin: 256 MiB.
MAX_INPUT_BYTES = 1 << 28
_CHUNK = 1 << 20


def _size(nbytes: int) -> str:
    return f"{nbytes >> 20} MiB" if nbytes >= 1 << 20 else f"{nbytes} bytes"


def read_bounded(stream: BinaryIO, source: str) -> str:
    """The UTF-8 text of ``stream``, read in chunks and refused (``InvalidBoardError`` naming
    ``source`` and the limit) as soon as it passes ``MAX_INPUT_BYTES`` or a line passes
    ``MAX_LINE_BYTES``, so ``/dev/zero`` or a huge file is never read whole."""
    chunks: list[bytes] = []
    total = line = newlines = 0
    while chunk := stream.read(_CHUNK):
        total += len(chunk)
        if total > MAX_INPUT_BYTES:
            raise InvalidBoardError(f"{source}: more than {_size(MAX_INPUT_BYTES)} of positions; "
                                    "split the input into smaller files")
        first = chunk.find(b"\n")
        line += len(chunk) if first < 0 else first  # lines inside a chunk are shorter than the limit
        if line > MAX_LINE_BYTES:
            raise InvalidBoardError(f"{source}:{newlines + 1}: a line longer than {_size(MAX_LINE_BYTES)} "
                                    "is no position")
        if first >= 0:
            newlines += chunk.count(b"\n")
            line = len(chunk) - chunk.rfind(b"\n") - 1
        chunks.append(chunk)
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidBoardError(f"cannot read {source}: not UTF-8 text ({e.reason} at byte {e.start})") from None


def read_text(path: str | Path) -> str:
    """The text of a file of positions (``-`` is not handled here; the CLI reads stdin itself), at
    most ``MAX_INPUT_BYTES`` with lines of at most ``MAX_LINE_BYTES``; ``InvalidBoardError`` if
    it cannot be read."""
    p = Path(path)
    try:
        with p.open("rb") as stream:
            return read_bounded(stream, str(p))
    except FileNotFoundError:
        raise InvalidBoardError(f"no such file: {quote_input(str(p), 80)}") from None
    except IsADirectoryError:
        raise InvalidBoardError(f"{quote_input(str(p), 80)} is a folder, not a file of positions") from None
    except OSError as e:
        raise InvalidBoardError(f"cannot read {quote_input(str(p), 80)}: {e.strerror or e}") from None


def read_positions(path: str | Path, shape: tuple[int, int] | None = None) -> list[Board]:
    """The positions of a file (see ``read_text`` and ``read_entries``); the first bad one raises."""
    boards = parse_lines(read_text(path), shape, source=str(path))
    if not boards:
        raise InvalidBoardError(f"{quote_input(str(path), 80)} holds no position (only blank lines and comments)")
    return boards


# -- moves ------------------------------------------------------------------------------------


#: How letters name a move: ``tile`` (npuzzle's own, ``Board``'s and ``Direction``'s): the
#: direction the pushed tile slides; ``blank``: the direction the blank moves (the opposite).
CONVENTIONS: tuple[str, ...] = ("tile", "blank")
#: The most moves a move string with repeat counts may stand for (``U999999999`` is refused).
MAX_MOVES = 100_000
_COUNTED = re.compile(r"(?:[UDLRudlr][0-9]*)+")
_RUN = re.compile(r"([UDLRudlr])([0-9]*)")


def check_move_count(moves: object, most: int) -> None:
    """``IllegalMoveError`` before any work if ``moves`` holds more than ``most`` moves: a
    sequence by its length, a move string by its length in characters (at most ``8 * most``:
    a move takes a character or more, tile numbers and separators up to about 8; repeat counts
    are bounded by ``MAX_MOVES``), so reading it stays cheap, and the moves read by their number.

    >>> check_move_count("L" * 11, 10)
    Traceback (most recent call last):
    ...
    npuzzle.errors.IllegalMoveError: too many moves: 11 given, at most 10
    """
    if isinstance(moves, str):
        if len(moves) > 8 * most:
            raise IllegalMoveError(f"too many moves: a move string of {len(moves):,} characters, at most "
                                   f"{8 * most:,} for {most:,} moves")
        if len(moves) > most and moves.isalpha():
            raise IllegalMoveError(f"too many moves: {len(moves):,} given, at most {most:,}")
    elif isinstance(moves, Sized) and len(moves) > most:
        raise IllegalMoveError(f"too many moves: {len(moves):,} given, at most {most:,}")


def check_convention(convention: str) -> str:
    """``convention`` if it is one of ``CONVENTIONS``, else ``IllegalMoveError``."""
    if convention not in CONVENTIONS:
        raise IllegalMoveError(f"unknown move convention {quote_input(convention)}: use 'tile' (a letter names "
                               "the direction the pushed tile slides) or 'blank' (the direction the blank moves)")
    return convention


def parse_moves(text: str, board: Board | None = None, *, convention: str = "tile") -> list[int] | list[Direction]:
    """Read a move string: tile numbers (``12 3 4`` or ``12,3,4``), letters (``ULDR``), letters
    with repeat counts as speed-solvers write them (``URDL2UR2``: ``L2`` = ``LL``, ``U3`` =
    ``UUU``; spaces anywhere; commas between moves: ``U, L``, ``U,L``), or, for boards of at
    most 16 cells, a run of hex digits with no separators, one tile per digit (``fb37``, as Knuth
    prints solutions).

    Letters are returned as ``Direction`` values, which name the direction the pushed *tile*
    slides. ``convention`` says what the letters given name: ``"tile"`` (the default, npuzzle's
    own: ``L`` slides the tile right of the blank to the left, so the blank moves right) or
    ``"blank"`` (the direction the *blank* moves, as some simulators write: ``L`` moves the blank
    left, so the tile left of it slides right); ``"blank"`` letters are turned into their opposites.

    A run is read as hex only if every digit names a tile of the board (so ``10`` is tile ten:
    there is no tile 0 to push) and it is not capital ``D``s with repeat counts: on a 4x4 board
    ``d`` pushes tile 13, as ``format_moves(..., "hex")`` writes it, while ``D`` slides a tile down
    and ``D3`` three times.

    >>> parse_moves("R D L")
    [<Direction.R: 'R'>, <Direction.D: 'D'>, <Direction.L: 'L'>]
    >>> "".join(d.value for d in parse_moves("URDL2 U3"))
    'URDLLUUU'
    >>> "".join(d.value for d in parse_moves("U, L,R2"))
    'ULRR'
    >>> "".join(d.value for d in parse_moves("URDL2", convention="blank"))
    'DLURR'
    >>> parse_moves("fb3d", Board.goal(4, 4))
    [15, 11, 3, 13]
    """
    check_convention(convention)
    s = text.strip()
    if not s:
        return []
    separated = re.search(r"[,\s]", s) is not None
    if (not separated and board is not None and board.size <= 16 and re.fullmatch(r"[0-9a-fA-F]+", s)
            and not re.fullmatch(r"(?:D[0-9]*)+", s)):
        digits = [int(ch, 16) for ch in s]
        if all(0 < t < board.size for t in digits):
            return digits
    groups = [re.sub(r"\s+", "", g) for g in s.split(",")]  # a comma ends a group: "U2, L" but not "U, 2"
    compact = "".join(groups)
    if compact and all(_COUNTED.fullmatch(g) for g in groups if g):
        letters = _expand(compact, text)
        if convention == "blank":
            return [d.opposite for d in letters]
        return letters
    tiles = []
    for token in _NUMBER_SEPARATORS.split(s):
        if not token:
            continue
        if not token.isdigit() or not token.isascii() or _too_big(token):
            raise IllegalMoveError(
                f"bad move {quote_input(token, 24)} in {quote_input(text)}: give tile numbers or the letters "
                "U, D, L, R (with repeat counts: URDL2)"
            )
        tiles.append(_number(token))
    return tiles


def _expand(compact: str, text: str) -> list[Direction]:
    """The letters of ``compact`` (``URDL2UR2``) one by one, each repeated by its count."""
    out: list[Direction] = []
    for m in _RUN.finditer(compact):
        digits = m.group(2)
        count = 1 if not digits else (_number(digits) if not _too_big(digits) else MAX_MOVES + 1)
        if count == 0:
            raise IllegalMoveError(f"bad move {quote_input(m.group(0), 24)} in {quote_input(text)}: a repeat count "
                                   "is at least 1")
        if len(out) + count > MAX_MOVES:
            raise IllegalMoveError(f"too many moves in {quote_input(text)}: at most {MAX_MOVES:,}")
        out.extend([Direction(m.group(1).upper())] * count)
    return out


def format_letters(letters: str | Sequence[Direction], convention: str = "tile", *, counts: bool = True) -> str:
    """Moves given as tile-convention letters (``Board.letters``, ``Solution.letters`` or
    ``Direction`` values) written in ``convention`` (``tile`` or ``blank``, see ``parse_moves``),
    runs of one letter as the letter and its count (``counts``): the speed-solvers' compact form,
    which ``parse_moves`` reads back.

    >>> format_letters("URDLLUUU"), format_letters("URDLL", "blank"), format_letters("RR", counts=False)
    ('URDL2U3', 'DLUR2', 'RR')
    """
    check_convention(convention)
    text = "".join(d.value if isinstance(d, Direction) else d for d in letters)
    if convention == "blank":
        text = text.translate(_OPPOSITE_LETTERS)
    if not counts:
        return text
    return "".join(m.group(1) + (str(len(m.group(0))) if len(m.group(0)) > 1 else "")
                   for m in re.finditer(r"([UDLR])\1*", text))


_OPPOSITE_LETTERS = str.maketrans("UDLR", "DURL")


def format_moves(moves: Sequence[int], style: str = "numbers") -> str:
    """Tiles pushed as ``numbers`` (space-separated) or ``hex`` (one digit a tile, tiles < 16)."""
    if style == "numbers":
        return " ".join(map(str, moves))
    if style == "hex":
        if any(m >= 16 for m in moves):
            raise ValueError("hex move strings need tiles below 16")
        return "".join(HEX_DIGITS[m] for m in moves)
    raise ValueError(f"unknown move style {style!r}: use 'numbers' or 'hex'")
