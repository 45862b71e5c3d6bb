"""What the commands share: exit statuses, the parser class, and every option declared once.

Each ``add_*`` function adds one option (or the position arguments) to a command's parser; the
``*_arg`` functions are argparse types that turn a bad value into a usage error (exit status 2).
Nothing here imports numpy or numba, so ``npuzzle --help`` starts at once.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn, TypeAlias, TypeVar

from ..board import GOALS, Board
from ..errors import NPuzzleError
from ..notation import parse_lines, parse_position, parse_shape, position_texts, read_positions
from ..search import METHODS, PRUNING

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_LIMIT, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

NOTATION_HELP = """\
positions:
  16 hex digits for a 4x4 board, as in Knuth's programs: 159d26ae37bf48c0
  (one hex digit per cell also works for any board of at most 16 cells: 123456780)
  numbers separated by spaces or commas, rows by '/', ';' or newlines: "1 2 3/4 5 6/7 8 0"
  the shape comes from the rows, from --shape HxW, or from the count when it is a square.
  0 is the blank.

goals:
  standard     tiles 1..N-1 row by row, blank last (Knuth, Parberry, most games)
  blank-first  0 1 2 ... N-1, blank top-left (Korf's benchmark convention)

moves:
  a solution is the list of tiles pushed. As letters, U D L R name the direction in which
  the pushed tile slides: L slides the tile right of the blank to the left (the blank moves
  right), U slides the tile below the blank up (the blank moves down).
"""

HEURISTIC_HELP = ("lower bound: manhattan, lc (Manhattan + linear conflict), wd (walking distance), "
                  "id (inversion distance), pdb:PARTITION (pattern databases, e.g. pdb:6-6-3, pdb:7-8; "
                  "build them with 'npuzzle tables build'), or several joined by '+' and combined by max "
                  "(wd+id, pdb:6-6-3+wd)")

PRUNING_HELP = ("IDA*'s duplicate pruning: parent (never undo the last move; reproduces Korf's node "
                "counts), fsm (also skip move sequences with a shorter or earlier equivalent, by an "
                "automaton: about half the nodes), auto (default: fsm with wd, id and pdb bounds on "
                "boards of up to 36 cells, else parent)")

GOAL_HELP = "goal convention (default: standard)"


class Parser(argparse.ArgumentParser):
    """argparse that exits with status 2 and a short message on usage errors."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


if TYPE_CHECKING:
    #: What ``add_subparsers`` returns; each command's ``add`` takes it.
    Subparsers: TypeAlias = argparse._SubParsersAction[Parser]


# -- argument types ------------------------------------------------------------------------------

_Number = TypeVar("_Number", int, float)


def shape_arg(text: str) -> tuple[int, int]:
    """``HxW``, e.g. ``3x4`` (height x width)."""
    try:
        return parse_shape(text)
    except NPuzzleError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _positive(text: str, kind: Callable[[str], _Number], what: str) -> _Number:
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a {what}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be positive")
    return value


def positive_int(text: str) -> int:
    return _positive(text, int, "whole number")


def positive_float(text: str) -> float:
    return _positive(text, float, "number")


def weight_arg(text: str) -> float:
    """A weight of weighted A*: a number of at least 1."""
    value = positive_float(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: the weight must be at least 1")
    return value


def size_arg(text: str) -> int:
    """``"512M"``, ``"2G"``, ``"1.5GiB"`` or a number of bytes."""
    units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    t = text.strip().upper().removesuffix("IB").removesuffix("B")
    unit = t[-1] if t and t[-1] in units else ""
    try:
        value = float(t[: len(t) - len(unit)]) * units[unit]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size: write e.g. 512M or 2G") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be positive")
    return int(value)


def heuristic_arg(text: str) -> str:
    """A heuristic name in its canonical form (``id+wd`` -> ``wd+id``), or ``auto``."""
    if text == "auto":
        return text
    from ..heuristics.registry import parse  # numpy: only when a heuristic is named

    try:
        return parse(text).name
    except NPuzzleError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def cell_arg(text: str) -> tuple[int, int]:
    """``ROW,COLUMN`` counted from 0."""
    try:
        r, c = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a cell: use ROW,COLUMN counted from 0, e.g. 1,1") from None
    return r, c


# -- options -------------------------------------------------------------------------------------


def add_goal(p: argparse.ArgumentParser, help: str = GOAL_HELP) -> None:
    p.add_argument("--goal", choices=GOALS, default="standard", help=help)


def add_shape(
    p: argparse.ArgumentParser,
    *,
    default: tuple[int, int] | None = None,
    required: bool = False,
    help: str = "board shape, e.g. 3x4 (height x width)",
) -> None:
    p.add_argument("--shape", type=shape_arg, default=default, required=required, metavar="HxW", help=help)


def add_positions(p: argparse.ArgumentParser) -> None:
    """POSITION arguments, ``--file``, ``--shape`` and ``--goal``: what ``read_boards`` reads."""
    p.add_argument("positions", nargs="*", metavar="POSITION", help="positions to read (see notation below)")
    p.add_argument("--file", "-f", action="append", default=[], metavar="FILE",
                   help="read positions from FILE, one a line, '#' starts a comment ('-' = stdin)")
    add_shape(p)
    add_goal(p)


def add_json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object per position")


def add_method(p: argparse.ArgumentParser, default: str, help: str | None = None) -> None:
    p.add_argument("--method", choices=METHODS, default=default, help=help)


def add_heuristic(p: argparse.ArgumentParser, default: str, help: str = HEURISTIC_HELP) -> None:
    p.add_argument("--heuristic", type=heuristic_arg, default=default, metavar="NAME", help=help)


def add_pruning(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pruning", choices=PRUNING, default="auto", help=PRUNING_HELP)


def add_timeout(p: argparse.ArgumentParser, help: str) -> None:
    p.add_argument("--timeout", type=positive_float, metavar="SECONDS", help=help)


# -- reading positions ---------------------------------------------------------------------------


def read_boards(args: argparse.Namespace) -> list[Board]:
    """The positions of ``add_positions``' arguments: POSITIONs first, then each ``--file``."""
    boards = [parse_position(text, args.shape) for text in position_texts(args.positions)]
    for path in args.file:
        if path == "-":
            boards.extend(parse_lines(sys.stdin.read(), args.shape, source="<stdin>"))
        else:
            boards.extend(read_positions(path, args.shape))
    if not boards:
        raise NPuzzleError("no position given: pass POSITION arguments or --file FILE")
    return boards
