"""What the commands share: exit statuses, the parser class, and every option declared once.

Each ``add_*`` function adds one option (or the position arguments) to a command's parser; the
``*_arg`` functions are argparse types that turn a bad value into a usage error (exit status 2).
Nothing here imports numpy or numba, so ``npuzzle --help`` starts at once.

>>> from npuzzle.cli._options import seconds_arg, shape_arg
>>> shape_arg("3x4")
(3, 4)
>>> shape_arg("3y4")
Traceback (most recent call last):
argparse.ArgumentTypeError: bad shape '3y4': write HEIGHTxWIDTH, e.g. 3x4
>>> seconds_arg("-1")
Traceback (most recent call last):
argparse.ArgumentTypeError: '-1' must be positive
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from typing import TYPE_CHECKING, NoReturn, TypeAlias

from ..arguments import MAX_BYTES, MAX_WEIGHT
from ..board import GOALS, Board, Goal
from ..errors import InvalidBoardError, NPuzzleError, quote_input
from ..notation import (
    Entry,
    parse_position,
    parse_shape,
    position_texts,
    read_bounded,
    read_entry,
    read_text,
)
from ..notation import read_entries as read_entries_text
from ..present.batch import invalid_text
from ..search import METHODS, PRUNING

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_LIMIT, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
#: The Dask cluster stopped answering midway (the answers received are printed first).
EXIT_CLUSTER = 4
#: Another process is writing the output file asked for (``FILE.lock`` held; its pid is named).
EXIT_BUSY = 5
#: ``npuzzle verify``: the answer does not solve the position (an illegal move, the goal not
#: reached, text that is no moves in ``--jsonl``); bad input stays ``EXIT_INPUT``.
EXIT_NOT_SOLVED = 6
#: An internal error (a bug: an answer that failed its replay), as sysexits.h's EX_SOFTWARE.
EXIT_INTERNAL = 70

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
                  "id (inversion distance), pdb:PARTITION (pattern databases, e.g. pdb:6-6-3, pdb:7-8 on 4x4, "
                  "pdb:6-6-6-6 on 5x5; build them with 'npuzzle tables build'), or several joined by '+' and "
                  "combined by max "
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

#: The largest whole number an option takes (``--max-nodes``, ``--count``, ...): the kernels count in int64.
MAX_WHOLE = (1 << 63) - 1
#: Seeds are whole numbers 0..2**63-1 (numpy's generators take no negative seed).
MAX_SEED = (1 << 63) - 1
#: The longest number text read (longer ones are refused before ``int()``, which stops at 4300 digits).
_MAX_NUMBER_TEXT = 40


def shape_arg(text: str) -> tuple[int, int]:
    """``HxW``, e.g. ``3x4`` (height x width), of at most ``board.MAX_CELLS`` cells."""
    try:
        return parse_shape(text)
    except NPuzzleError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _whole(text: str, low: int, high: int, what: str, span: str = "") -> int:
    """``text`` as a whole number in ``low..high``, or a usage error naming the range."""
    t = text.strip()
    if len(t) > _MAX_NUMBER_TEXT or not re.fullmatch(r"[+-]?\d+(_\d+)*", t):
        raise argparse.ArgumentTypeError(f"{quote_input(text)} is not a whole number")
    value = int(t)
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"{quote_input(text)}: {what} must be {span or f'{low}..{high:,}'}")
    return value


def _real(text: str, what: str) -> float:
    """``text`` as a finite number above 0 (``nan``, ``inf`` and ``1e400`` are refused)."""
    try:
        value = float(text) if len(text) <= _MAX_NUMBER_TEXT else math.nan
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quote_input(text)} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{quote_input(text)}: {what} must be a finite number")
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{quote_input(text)} must be positive")
    return value


def positive_int(text: str) -> int:
    """A whole number 1..2**63-1."""
    return _whole(text, 1, MAX_WHOLE, "the number", "a whole number from 1 to 2**63-1")


def seconds_arg(text: str) -> float:
    """A time limit: finite seconds above 0, at most ``arguments.MAX_SECONDS``."""
    from ..arguments import MAX_SECONDS

    value = _real(text, "the time limit")
    if value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"{quote_input(text)}: the time limit is at most {MAX_SECONDS:,.0f} seconds")
    return value


def budget_arg(text: str) -> float:
    """The beam search's time budget: seconds above 0, at most ``arguments.MAX_BUDGET``."""
    from ..arguments import MAX_BUDGET

    value = _real(text, "the budget")
    if value > MAX_BUDGET:
        raise argparse.ArgumentTypeError(f"{quote_input(text)}: the budget is at most {MAX_BUDGET:.0f} seconds")
    return value


def seed_arg(text: str) -> int:
    """A random seed: a whole number 0..2**63-1."""
    return _whole(text, 0, MAX_SEED, "the seed", "a whole number from 0 to 2**63-1")


def weight_arg(text: str) -> float:
    """A weight of weighted A*: a finite number from 1 to ``arguments.MAX_WEIGHT``."""
    value = _real(text, "the weight")
    if not 1 <= value <= MAX_WEIGHT:
        raise argparse.ArgumentTypeError(f"{quote_input(text)}: the weight must be from 1 to {MAX_WEIGHT:g}")
    return value


def size_arg(text: str) -> int:
    """``"512M"``, ``"2G"``, ``"1.5GiB"`` or a number of bytes, at most 1 EiB (``MAX_BYTES``)."""
    units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    t = text.strip().upper().removesuffix("IB").removesuffix("B")
    unit = t[-1] if t and t[-1] in units else ""
    try:
        value = float(t[: len(t) - len(unit)]) * units[unit] if len(t) <= _MAX_NUMBER_TEXT else math.nan
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quote_input(text)} is not a size: write e.g. 512M or 2G") from None
    if not math.isfinite(value) or value > MAX_BYTES:
        raise argparse.ArgumentTypeError(f"{quote_input(text)}: a size must be finite and at most 1024T (1 EiB)")
    if value < 1:
        raise argparse.ArgumentTypeError(f"{quote_input(text)} must be positive")
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
        raise argparse.ArgumentTypeError(
            f"{quote_input(text)} is not a cell: use ROW,COLUMN counted from 0, e.g. 1,1") from None
    return r, c


# -- options -------------------------------------------------------------------------------------


def add_goal(p: argparse.ArgumentParser, help: str = GOAL_HELP) -> None:
    p.add_argument("--goal", choices=GOALS, default="standard", help=help)


GOAL_BOARD_HELP = ("solve for this goal position instead of a convention (any arrangement of the tiles, "
                   "read like a position, e.g. '1 2 3/8 0 4/7 6 5'); the tiles are relabelled against "
                   "the standard goal, so every method and heuristic works")


def add_goal_board(p: argparse.ArgumentParser) -> None:
    p.add_argument("--goal-board", metavar="POSITION", help=GOAL_BOARD_HELP)


def goal_of(args: argparse.Namespace) -> Goal | Board:
    """The goal asked for: ``--goal-board``'s position if given (read with ``--shape``), else ``--goal``."""
    if args.goal_board is None:
        return args.goal  # type: ignore[no-any-return]
    if args.goal != "standard":
        raise NPuzzleError("give --goal or --goal-board, not both")
    return parse_position(args.goal_board, args.shape)


def add_shape(
    p: argparse.ArgumentParser,
    *,
    default: tuple[int, int] | None = None,
    required: bool = False,
    help: str = "board shape, e.g. 3x4 (height x width)",
) -> None:
    p.add_argument("--shape", type=shape_arg, default=default, required=required, metavar="HxW", help=help)


def add_positions(p: argparse.ArgumentParser) -> None:
    """POSITION arguments, ``--file``, ``--shape`` and ``--goal``: what ``read_entries`` reads."""
    p.add_argument("positions", nargs="*", metavar="POSITION",
                   help="positions to read (see notation below); '-' reads standard input, which is also "
                   "read when no position is given and it is not a terminal")
    p.add_argument("--file", "-f", action="append", default=[], metavar="FILE",
                   help="read positions from FILE, one a line (or a board drawn one row a line, then a "
                   "blank line), '#' starts a comment ('-' = stdin); at most 256 MiB, lines of at most 64 MiB")
    p.add_argument("--strict", action="store_true",
                   help="stop at the first input that is no position, before solving anything (by default "
                   "it is reported, as a record with its line, and the others are solved)")
    add_shape(p)
    add_goal(p)


def add_json(p: argparse.ArgumentParser, help: str = "print one JSON record per input, in order "
             "(docs/json.md)") -> None:
    p.add_argument("--json", action="store_true", help=help)


def add_parallel(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--jobs", "-j", type=jobs_arg, default=1, metavar="N",
                   help=f"worker processes on this machine (0 = every core; default 1): {what}")
    p.add_argument("--oversubscribe", action="store_true",
                   help="allow --jobs beyond this machine's cores (the processes then share them)")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT", type=scheduler_arg,
                   help="run the same work on a Dask cluster instead (pip install 'npuzzle[cluster]'; "
                   "its workers need npuzzle and their own tables)")


def scheduler_arg(text: str) -> str:
    """A Dask scheduler's address (``tcp://HOST:PORT``), checked for its form."""
    from ..arguments import scheduler_address

    try:
        return scheduler_address(text, "--scheduler")
    except NPuzzleError:
        raise argparse.ArgumentTypeError(f"{quote_input(text)}: give a Dask scheduler's address, such as "
                                         "tcp://127.0.0.1:8786") from None


def jobs_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quote_input(text)} is not a number of processes") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value}: give 0 (every core) or a number of processes")
    return value


def add_quiet(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quiet", "-q", action="store_true",
                   help="on a terminal, no notice of kernels being compiled and no live status line")


def add_method(p: argparse.ArgumentParser, default: str, help: str | None = None) -> None:
    p.add_argument("--method", choices=METHODS, default=default, help=help)


def add_heuristic(p: argparse.ArgumentParser, default: str | None, help: str = HEURISTIC_HELP) -> None:
    p.add_argument("--heuristic", type=heuristic_arg, default=default, metavar="NAME", help=help)


def add_pruning(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pruning", choices=PRUNING, default="auto", help=PRUNING_HELP)


def add_timeout(p: argparse.ArgumentParser, help: str) -> None:
    p.add_argument("--timeout", type=seconds_arg, metavar="SECONDS", help=help)


# -- reading positions ---------------------------------------------------------------------------


def read_entries(args: argparse.Namespace) -> list[Entry]:
    """The positions of ``add_positions``' arguments, in order, each read or refused on its own
    (``notation.Entry``): POSITIONs (``-`` reads standard input there), then each ``--file``;
    with neither, standard input when it is not a terminal. With ``--strict`` the first bad one
    stops everything (``InvalidBoardError`` naming its place) before anything is solved."""
    entries: list[Entry] = []
    texts = position_texts(args.positions)
    for i, text in enumerate(texts, 1):
        entries.extend(_stdin_entries(args.shape) if text == "-" else [read_entry("argument", i, text, args.shape)])
    for path in args.file:
        if path == "-":
            entries.extend(_stdin_entries(args.shape))
        else:
            entries.extend(read_entries_text(read_text(path), args.shape, source=path))
    if not texts and not args.file:
        if _stdin_is_terminal():
            raise NPuzzleError("no position given: pass POSITION arguments or --file FILE, "
                               "or pipe positions to standard input")
        entries = _stdin_entries(args.shape)
    if not entries:
        raise NPuzzleError("no position in the input (only blank lines and comments)")
    bad = next((e for e in entries if e.board is None), None)
    if bad is not None and getattr(args, "strict", False):
        raise InvalidBoardError(invalid_text(bad, len(entries) > 1))
    return entries


def _stdin_is_terminal() -> bool:
    """Whether standard input is a terminal (or absent, or not a real file: a test's capture)."""
    try:
        return sys.stdin is None or sys.stdin.isatty() or sys.stdin.fileno() < 0
    except (OSError, ValueError, AttributeError):
        return True


def _stdin_entries(shape: tuple[int, int] | None) -> list[Entry]:
    return read_entries_text(read_bounded(sys.stdin.buffer, "<stdin>"), shape, source="<stdin>")


def _long_flags(parser: argparse.ArgumentParser) -> dict[str, tuple[str, bool]]:
    """Each option's parameter name (its ``dest``), its long flag and whether it takes a value,
    in ``parser`` and its commands."""
    out: dict[str, tuple[str, bool]] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                out.update(_long_flags(sub))
        longs = [s for s in action.option_strings if s.startswith("--")]
        if longs:
            out.setdefault(action.dest, (longs[0], action.nargs != 0))
    return out


_PARAMETER = re.compile(r"\b([a-z][a-z_]*)=('([^']*)'|([^\s,;:)]*))")


def flags_text(message: str, parser: argparse.ArgumentParser) -> str:
    """A library message with each parameter it names (``max_nodes=0``, ``method='astar'``)
    written as the command line's flag (``--max-nodes 0``, ``--method astar``).

    >>> p = argparse.ArgumentParser()
    >>> _ = p.add_argument("--max-nodes", type=int)
    >>> _ = p.add_argument("--quick", action="store_true")
    >>> flags_text("max_nodes=0: give a whole number; method='x' stays; or quick=True", p)
    "--max-nodes 0: give a whole number; method='x' stays; or --quick"
    """
    flags = _long_flags(parser)
    if "jobs" in flags:
        flags.setdefault("executor", flags["jobs"])  # a split search's executor is what --jobs makes

    def flag(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in flags:
            return match.group(0)
        value = match.group(3) if match.group(3) is not None else match.group(4)
        text, takes_value = flags[name]
        return f"{text} {value}" if value and takes_value else text

    return _PARAMETER.sub(flag, message)
