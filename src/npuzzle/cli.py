"""The ``npuzzle`` command line: argparse wiring only; the work is done by the library.

Every command is a pair: ``_add_<name>(subparsers)`` declares its arguments and
``_cmd_<name>(args) -> int`` runs it. Exit codes: 0 done, 1 bad input or unsolvable, 2 usage,
3 limit reached without a solution, 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from .board import GOALS, Board
from .errors import NPuzzleError
from .notation import NOTATIONS, parse_position, parse_shape, read_positions

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


class _Parser(argparse.ArgumentParser):
    """argparse that exits with status 2 and a short message on usage errors."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _shape_arg(text: str) -> tuple[int, int]:
    try:
        return parse_shape(text)
    except NPuzzleError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be positive")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be positive")
    return value


def _add_position_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("positions", nargs="*", metavar="POSITION", help="positions to read (see notation below)")
    p.add_argument("--file", "-f", action="append", default=[], metavar="FILE",
                   help="read positions from FILE, one a line, '#' starts a comment ('-' = stdin)")
    p.add_argument("--shape", type=_shape_arg, metavar="HxW", help="board shape, e.g. 3x4 (height x width)")
    p.add_argument("--goal", choices=GOALS, default="standard", help="goal convention (default: standard)")


def _read_boards(args: argparse.Namespace) -> list[Board]:
    from .notation import parse_lines

    boards = [parse_position(text, args.shape) for text in args.positions]
    for path in args.file:
        if path == "-":
            boards.extend(parse_lines(sys.stdin.read(), args.shape, source="<stdin>"))
        else:
            boards.extend(read_positions(path, args.shape))
    if not boards:
        raise NPuzzleError("no position given: pass POSITION arguments or --file FILE")
    return boards


# -- check ------------------------------------------------------------------------------------


def _add_check(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check",
        help="validate positions: shape, solvability (with the parity reason), Manhattan distance",
        description="Validate positions and tell whether the goal can be reached.",
        epilog=NOTATION_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_position_args(p)
    p.add_argument("--json", action="store_true", help="print one JSON object per position")


def _cmd_check(args: argparse.Namespace) -> int:
    status = EXIT_OK
    for board in _read_boards(args):
        reason = board.unsolvable_reason(args.goal)
        info = {
            "shape": f"{board.height}x{board.width}",
            "tiles": list(board.tiles),
            "goal": args.goal,
            "solvable": reason is None,
            "manhattan": board.manhattan(args.goal),
            "permutation_parity": "odd" if board.permutation_parity(args.goal) else "even",
            "blank_distance": board.blank_distance(args.goal),
        }
        if reason is not None:
            info["reason"] = reason
            status = EXIT_INPUT
        if args.json:
            print(json.dumps(info))
        else:
            print(board)
            print(f"  shape {info['shape']}, goal {args.goal}: "
                  + ("solvable" if reason is None else reason))
            print(f"  Manhattan distance {info['manhattan']}")
    return status


# -- main -------------------------------------------------------------------------------------

_COMMANDS: dict[str, tuple[Callable[[argparse._SubParsersAction], None], Callable[[argparse.Namespace], int]]] = {
    "check": (_add_check, _cmd_check),
}


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="npuzzle",
        description="Solve sliding-tile puzzles (8-, 15-, 24-puzzle and every m x n board).",
        epilog=NOTATION_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from . import __version__

    parser.add_argument("--version", action="version", version=f"npuzzle {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for add, _ in _COMMANDS.values():
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    _, run = _COMMANDS[args.command]
    try:
        return run(args)
    except NPuzzleError as e:
        print(f"npuzzle {args.command}: {e}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print(f"npuzzle {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
