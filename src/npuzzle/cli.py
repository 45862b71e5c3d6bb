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


# -- stats, tables ----------------------------------------------------------------------------


def _cell_arg(text: str) -> tuple[int, int]:
    try:
        r, c = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a cell: use ROW,COLUMN counted from 0, e.g. 1,1") from None
    return r, c


def _add_stats(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "stats",
        help="exact distance distributions (full BFS), Knuth's happy-move count, random samples",
        description="Distance statistics: exhaustive BFS of boards of up to 12 cells, the positions "
        "solvable by happy moves only, and optimal lengths of random samples.",
    )
    ssub = p.add_subparsers(dest="stats_command", metavar="WHAT", parser_class=_Parser)
    ssub.required = True
    b = ssub.add_parser("bfs", help="distance distribution of a whole board (at most 12 cells)",
                        description="Breadth-first search over every position of a board of at most 12 "
                        "cells; prints the number of positions at each distance as one 'dist' line "
                        "(dist LABEL POSITIONS : COUNT_0 COUNT_1 ...). With --save "
                        "the distance table is stored, so solve answers instantly for that board.")
    b.add_argument("shape", type=_shape_arg, metavar="HxW", help="board shape, e.g. 3x4")
    b.add_argument("--goal", choices=GOALS, default="standard", help="goal convention (default: standard)")
    b.add_argument("--blank-cell", type=_cell_arg, metavar="R,C",
                   help="goal with the blank at row R, column C (from 0) and tiles 1..N-1 around it")
    b.add_argument("--save", action="store_true", help="store the distance table in the table store")
    b.add_argument("--table", action="store_true", help="also print one line per distance")
    h = ssub.add_parser("happy", help="positions solvable by happy moves only (Knuth, 15PUZZLE-KORF1)",
                        description="Count the positions from which the goal is reached by happy moves "
                        "only (each move brings its tile closer to home), by distance.")
    h.add_argument("--shape", type=_shape_arg, default=(4, 4), metavar="HxW",
                   help="board shape, at most 16 cells (default: 4x4)")
    h.add_argument("--goal", choices=GOALS, default="standard", help="goal convention (default: standard)")
    s = ssub.add_parser("sample", help="optimal lengths of random positions, as a histogram",
                        description="Solve random solvable positions optimally and print the "
                        "histogram of their lengths.")
    s.add_argument("--shape", type=_shape_arg, required=True, metavar="HxW", help="board shape, e.g. 4x4")
    s.add_argument("--count", type=_positive_int, default=100, help="number of positions (default: 100)")
    s.add_argument("--seed", type=int, default=None, help="random seed, for a reproducible sample")
    s.add_argument("--goal", choices=GOALS, default="standard", help="goal convention (default: standard)")
    s.add_argument("--plot", metavar="FILE", help="also save the histogram as an image (needs matplotlib)")


def _cmd_stats(args: argparse.Namespace) -> int:
    from . import stats
    from .search import bfs

    if args.stats_command == "bfs":
        h, w = args.shape
        blank = bfs.goal_blank(h, w, args.goal, args.blank_cell)
        counts = bfs.distribution(h, w, blank_cell=blank, save=args.save, progress=True)
        label = f"{h}x{w}_{stats.blank_class(h, w, blank)}"
        print(stats.format_distribution(label, counts))
        print(f"# {label}: {stats.summary(counts)}; goal {bfs.goal_name(h, w, blank)}")
        if args.table:
            print("\n".join(stats.histogram_lines(counts)))
    elif args.stats_command == "happy":
        h, w = args.shape
        counts = bfs.happy_count(True, height=h, width=w, goal=args.goal)
        print(f"positions of the {h}x{w} board solvable by happy moves only ({args.goal} goal), by distance:")
        print("\n".join(stats.histogram_lines(counts)))
        total, top = sum(counts), len(counts) - 1
        print(f"total {total:,} positions, the goal included ({total - 1:,} without it); "
              f"largest distance {top} ({counts[top]:,} positions)")
        if (h, w, args.goal) == (4, 4, "standard"):
            # Knuth counts the positions from which the goal is *reached*: the goal itself is not one.
            agree = total - 1 == 88_728_779 and top == 56 and counts[top] == 114
            print("Knuth (15PUZZLE-KORF1, section 3): 88,728,779 positions besides the goal, 114 at the "
                  "largest distance 56: " + ("the same" if agree else "DIFFERENT"))
    else:
        h, w = args.shape
        if args.plot:
            stats.pyplot()  # fail before solving if matplotlib is missing
        lengths = stats.sample_lengths(h, w, args.count, seed=args.seed, goal=args.goal)
        counts = stats.histogram(lengths)
        print(f"optimal lengths of {args.count} random {h}x{w} positions ({args.goal} goal, seed {args.seed}):")
        print("\n".join(stats.histogram_lines(counts)))
        print(f"mean {sum(lengths) / len(lengths):.3f}, min {min(lengths)}, max {max(lengths)}")
        if args.plot:
            stats.save_plot(counts, args.plot, f"{args.count} random {h}x{w} positions")
            print(f"histogram saved to {args.plot}")
    return EXIT_OK


def _add_tables(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tables", help="list or remove the tables stored on disk",
                       description="Manage the table store (NPUZZLE_DATA_DIR, else "
                       "$XDG_CACHE_HOME/npuzzle, else ~/.cache/npuzzle).")
    tsub = p.add_subparsers(dest="tables_command", metavar="ACTION", parser_class=_Parser)
    tsub.required = True
    tsub.add_parser("list", help="list the stored tables", description="List the stored tables.")
    r = tsub.add_parser("remove", help="remove stored tables by file name", description="Remove stored tables.")
    r.add_argument("names", nargs="+", metavar="NAME", help="file name as 'npuzzle tables list' shows it")


def _cmd_tables(args: argparse.Namespace) -> int:
    from . import config, tables

    if args.tables_command == "list":
        found = tables.list_tables()
        print(f"{len(found)} table(s) in {config.data_dir()}")
        for info in found:
            if info.key is None:
                print(f"{info.path.name}: UNREADABLE: {info.problem}")
            else:
                print(f"{info.path.name}: {info.key.kind} {info.key.shape} goal {info.key.goal} "
                      f"pattern {info.key.pattern}, {info.length:,} x {info.dtype}, {info.nbytes:,} bytes")
        return EXIT_OK
    status = EXIT_OK
    for name in args.names:
        if tables.remove_table(name):
            print(f"removed {name}")
        else:
            print(f"npuzzle tables: no table named {name!r}", file=sys.stderr)
            status = EXIT_INPUT
    return status


# -- main -------------------------------------------------------------------------------------

_COMMANDS: dict[str, tuple[Callable[[argparse._SubParsersAction], None], Callable[[argparse.Namespace], int]]] = {
    "check": (_add_check, _cmd_check),
    "stats": (_add_stats, _cmd_stats),
    "tables": (_add_tables, _cmd_tables),
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
