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
from typing import TYPE_CHECKING, Any, TextIO

from .board import GOALS, Board
from .errors import NPuzzleError
from .notation import format_position, parse_position, parse_shape, read_positions

if TYPE_CHECKING:
    from .search.limits import Iteration, Solution

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


def _positive(kind: Callable[[str], float]) -> Callable[[str], float]:
    """An argparse type: ``kind`` (int or float) of the text, which must be positive."""

    def convert(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a {'whole ' if kind is int else ''}number") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{text!r} must be positive")
        return value

    return convert


_positive_int = _positive(int)
_positive_float = _positive(float)


def _add_position_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("positions", nargs="*", metavar="POSITION", help="positions to read (see notation below)")
    p.add_argument("--file", "-f", action="append", default=[], metavar="FILE",
                   help="read positions from FILE, one a line, '#' starts a comment ('-' = stdin)")
    p.add_argument("--shape", type=_shape_arg, metavar="HxW", help="board shape, e.g. 3x4 (height x width)")
    p.add_argument("--goal", choices=GOALS, default="standard", help="goal convention (default: standard)")


def _position_texts(args: list[str]) -> list[str]:
    """Positions from the command line. Bare tile numbers given as separate arguments
    (``npuzzle solve 1 2 3 4 5 6 7 8 0``) are one position; anything else is one per argument."""
    if len(args) >= 4 and all(a.isdigit() and len(a) <= 3 for a in args):
        return [" ".join(args)]
    return list(args)


def _read_boards(args: argparse.Namespace) -> list[Board]:
    from .notation import parse_lines

    boards = [parse_position(text, args.shape) for text in _position_texts(args.positions)]
    for path in args.file:
        if path == "-":
            boards.extend(parse_lines(sys.stdin.read(), args.shape, source="<stdin>"))
        else:
            boards.extend(read_positions(path, args.shape))
    if not boards:
        raise NPuzzleError("no position given: pass POSITION arguments or --file FILE")
    return boards


# -- check ------------------------------------------------------------------------------------


def _add_check(sub: argparse._SubParsersAction[_Parser]) -> None:
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


# -- solve ------------------------------------------------------------------------------------


def _size_arg(text: str) -> int:
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


def _weight_arg(text: str) -> float:
    value = _positive_float(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: the weight must be at least 1")
    return value


def _heuristic_arg(text: str) -> str:
    from .heuristics.registry import parse

    if text == "auto":
        return text
    try:
        return parse(text).name
    except NPuzzleError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


HEURISTIC_HELP = ("lower bound: manhattan, lc (Manhattan + linear conflict), wd (walking distance), "
                  "id (inversion distance), pdb:PARTITION (pattern databases, e.g. pdb:6-6-3, pdb:7-8; "
                  "build them with 'npuzzle tables build'), or several joined by '+' and combined by max "
                  "(wd+id, pdb:6-6-3+wd)")


PRUNING_HELP = ("IDA*'s duplicate pruning: parent (never undo the last move; reproduces Korf's node "
                "counts), fsm (also skip move sequences with a shorter or earlier equivalent, by an "
                "automaton: about half the nodes), auto (default: fsm with wd, id and pdb bounds on "
                "boards of up to 36 cells, else parent)")


#: Boards above this many cells need --count-only or --moves-out (the moves would not fit).
MAX_PRINTED_CELLS = 250_000


def _add_solve(sub: argparse._SubParsersAction[_Parser]) -> None:
    from .search import METHODS, PRUNING, REALTIME_METHODS

    p = sub.add_parser(
        "solve",
        help="solve positions (optimally by default) and print the verified solution",
        description="Solve each position and print the board and the solution (tiles pushed and "
        "letters). Every solution is replayed and checked before it is printed.",
        epilog=NOTATION_HELP + """
methods:
  auto      a saved BFS table if there is one; IDA* (optimal) up to 16 cells; real time beyond
  idastar   iterative-deepening A*: optimal, little memory (Korf 1985)
  astar     A*: optimal, or with --weight W > 1 at most W times the optimum, faster
  realtime  any size, moves at once, not optimal (--realtime-method greedy or parberry)

exit status: 0 solved, 1 bad input or unsolvable, 2 usage, 3 a limit was reached before a
solution was found (the lower bound proven so far is printed), 130 interrupted (Ctrl-C).
""",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_position_args(p)
    p.add_argument("--method", choices=METHODS, default="auto",
                   help="search method (default: auto, see below)")
    p.add_argument("--heuristic", type=_heuristic_arg, default="auto", metavar="NAME",
                   help=HEURISTIC_HELP + "; default auto: the strongest whose tables are ready")
    p.add_argument("--pruning", choices=PRUNING, default="auto", help=PRUNING_HELP)
    p.add_argument("--weight", type=_weight_arg, default=1.0, metavar="W",
                   help="weighted A* (f = g + W*h): solutions at most W times the optimum")
    p.add_argument("--realtime-method", choices=REALTIME_METHODS, default="greedy",
                   help="for --method realtime: greedy (about 20%% fewer moves, default) or parberry "
                   "(Parberry's algorithm as published; about 5x faster on a million tiles)")
    p.add_argument("--timeout", type=_positive_float, metavar="SECONDS",
                   help="stop a search after this many seconds (wall clock), exit status 3")
    p.add_argument("--max-nodes", type=_positive_int, metavar="N",
                   help="stop a search after generating N nodes, exit status 3")
    p.add_argument("--max-memory", type=_size_arg, metavar="SIZE",
                   help="A*: stop cleanly before storing more than SIZE (e.g. 512M, 2G), exit status 3")
    p.add_argument("--count-only", action="store_true",
                   help="real time: print only the number of moves and the report")
    p.add_argument("--moves-out", metavar="FILE",
                   help="real time: write the moves as UDLR letters to FILE ('-' = stdout)")
    p.add_argument("--json", action="store_true", help="print one JSON object per position")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="report every iteration (threshold, nodes, CPU seconds) on stderr")


def _print_iteration(it: Iteration, final: bool) -> None:
    state = "solution found" if final else "no solution"
    print(f"  threshold {it.threshold}: {state}, {it.generated:,} nodes generated, "
          f"{it.seconds:.3f} s CPU", file=sys.stderr, flush=True)


def _cmd_solve(args: argparse.Namespace) -> int:
    from .search import solve
    from .search.limits import INTERRUPTED, Limit

    streaming = args.count_only or args.moves_out is not None
    if streaming and args.method not in ("auto", "realtime"):
        raise NPuzzleError("--count-only and --moves-out go with --method realtime")
    limit = Limit(timeout=args.timeout, max_nodes=args.max_nodes, max_memory=args.max_memory)
    boards = _read_boards(args)
    if args.moves_out not in (None, "-"):
        if len(boards) > 1:
            raise NPuzzleError("--moves-out takes one position")
        try:
            open(args.moves_out, "wb").close()
        except OSError as e:
            raise NPuzzleError(f"cannot write the moves to {args.moves_out!r}: {e.strerror}") from None
    status = EXIT_OK
    for i, board in enumerate(boards):
        if i and not args.json:
            print()
        reason = board.unsolvable_reason(args.goal)
        if reason is not None:
            print(f"npuzzle solve: {format_position(board)}: {reason}", file=sys.stderr)
            status = max(status, EXIT_INPUT)
            continue
        if streaming:
            _solve_streaming(board, args)
            continue
        if board.size > MAX_PRINTED_CELLS and args.method in ("auto", "realtime"):
            raise NPuzzleError(
                f"a {board.height}x{board.width} board has too many moves to print: "
                "use --count-only or --moves-out FILE")
        if args.verbose:
            print(f"solving {board.height}x{board.width}, goal {args.goal}, "
                  f"Manhattan distance {board.manhattan(args.goal)}", file=sys.stderr, flush=True)
        solution = solve(board, method=args.method, heuristic=args.heuristic, limit=limit, goal=args.goal,
                         weight=args.weight, realtime_method=args.realtime_method, pruning=args.pruning,
                         on_iteration=_print_iteration if args.verbose else None)
        report = _realtime_report(solution) if solution.method == "realtime" and solution.solved else None
        if args.json:
            print(json.dumps({**solution.to_dict(), **({"report": report} if report else {})}), flush=True)
        else:
            _print_solution(solution)
            if report:
                _print_report(report)
        if solution.status == INTERRUPTED:
            return EXIT_INTERRUPTED
        if not solution.solved:
            status = max(status, EXIT_LIMIT)
    return status


def _realtime_report(solution: Solution) -> dict[str, Any]:
    from .search.realtime import solution_report

    return solution_report(solution)


def _solve_streaming(board: Board, args: argparse.Namespace) -> None:
    """Real time with --count-only or --moves-out: the moves never become a Python list."""
    from .search.realtime import letter_chunks, realtime_count, realtime_packed, realtime_report

    if args.count_only:
        report = realtime_report(board, realtime_count(board, goal=args.goal, method=args.realtime_method),
                                 goal=args.goal)
    else:
        packed = realtime_packed(board, goal=args.goal, method=args.realtime_method)
        report = realtime_report(board, packed, goal=args.goal)  # replays and checks every move
        out = sys.stdout.buffer if args.moves_out == "-" else open(args.moves_out, "wb")
        try:
            for chunk in letter_chunks(packed):
                out.write(chunk)
            out.write(b"\n")
        finally:
            if out is not sys.stdout.buffer:
                out.close()
            else:
                out.flush()
    report["method"] = args.realtime_method
    if args.json:
        print(json.dumps(report), file=sys.stderr if args.moves_out == "-" else sys.stdout, flush=True)
    elif args.moves_out != "-":
        _print_report(report)
    else:
        _print_report(report, sys.stderr)


def _print_report(report: dict[str, Any], stream: TextIO | None = None) -> None:
    stream = stream or sys.stdout
    line = (f"{report['moves']:,} moves; {report['moves_per_n3']:.4f} n^3; "
            f"{report['moves_per_manhattan'] or 0:.3f} x the Manhattan distance {report['manhattan']:,}")
    if report.get("wasted") is not None:
        line += f"; {report['wasted']:,} wasted (raise the Manhattan distance)"
    if "parberry_bound" in report:
        line += f"; Parberry's bound {report['parberry_bound']:,}"
    print(line, file=stream, flush=True)


_STATUS_TEXT = {
    "timeout": "the time limit was reached",
    "node-limit": "the node limit was reached",
    "memory-limit": "the memory limit was reached",
    "interrupted": "interrupted",
}


def _print_solution(solution: Solution) -> None:
    from .notation import format_moves

    board = solution.board
    print(f"{board.height}x{board.width} board, goal {solution.goal}:")
    if board.size <= 400:
        print("\n".join("  " + line for line in str(board).splitlines()))
    st = solution.stats
    how = f"{solution.method}, {solution.heuristic}; {st.generated:,} nodes generated, {st.seconds:.3f} s CPU"
    if solution.method == "realtime":
        how = f"{solution.method}, {solution.heuristic}; {st.seconds:.3f} s CPU"
    if not solution.solved:
        print(f"No solution: {_STATUS_TEXT.get(solution.status, solution.status)}; every solution has at "
              f"least {solution.lower_bound} moves ({how})")
        if solution.note:
            print(f"  {solution.note}")
        return
    kind = "optimal" if solution.optimal else "not proven optimal"
    print(f"Solution: {solution.length} moves, {kind} ({how})")
    if solution.note:
        print(f"  {solution.note}")
    style = "hex" if board.size <= 16 else "numbers"
    print(f"  tiles pushed: {format_moves(solution.moves, style) or '(none: already solved)'}")
    print(f"  letters:      {solution.letters or '(none)'}")


# -- knuth ------------------------------------------------------------------------------------


def _add_knuth(sub: argparse._SubParsersAction[_Parser]) -> None:
    p = sub.add_parser(
        "knuth",
        help="Knuth's 15PUZZLE-KORF0/KORF1 programs, with their exact messages and output",
        description="Run Knuth's 15PUZZLE-KORF1 (or KORF0) on a start position of 16 hex digits "
        "(0 = blank, goal 123456789abcdef0), with the programs' own input checks, messages and "
        "exit statuses, a ' ... no solution with H+K moves (T sec)' line after each failed round "
        "(H happy moves: each brings its piece closer to home; K sad ones) and the pieces pushed, "
        "in hex.",
        epilog="exit status: 0 (also for an unreachable goal, as in Knuth's programs), "
        "255 usage, 254 bad digit, 253 a digit used twice, 252 a digit missing",
    )
    p.add_argument("startposition", nargs="*", help="16 hex digits, e.g. bc9e80df3412a756")
    p.add_argument("--program", choices=("korf0", "korf1"), default="korf1",
                   help="which program to behave as (default korf1; they differ in move order "
                   "and in their last line)")


def _cmd_knuth(args: argparse.Namespace) -> int:
    from . import knuth

    return knuth.run(args.startposition, sys.stdout, sys.stderr, program=args.program)


# -- scramble ---------------------------------------------------------------------------------


def _add_scramble(sub: argparse._SubParsersAction[_Parser]) -> None:
    from .notation import NOTATIONS

    p = sub.add_parser(
        "scramble",
        help="generate positions: uniformly random solvable ones, random walks, Parberry's worst case",
        description="Print scrambled positions, one a line (a blank line between grids). By default "
        "each is drawn uniformly from the positions that can reach the goal.",
        epilog="examples:\n  npuzzle scramble --shape 4x4 --seed 1 --notation hex\n"
        "  npuzzle scramble --shape 3x5 --walk 30 --count 5\n  npuzzle scramble --shape 10x10 --worst",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--shape", type=_shape_arg, default=(4, 4), metavar="HxW", help="board shape (default 4x4)")
    p.add_argument("--count", "-n", type=_positive_int, default=1, help="how many positions (default 1)")
    p.add_argument("--seed", type=int, help="random seed, for reproducible positions")
    kind = p.add_mutually_exclusive_group()
    kind.add_argument("--walk", type=_positive_int, metavar="K",
                      help="K random moves from the goal (never undoing the last) instead of uniform")
    kind.add_argument("--worst", action="store_true",
                      help="the worst case of Parberry's Theorem 2 (square boards)")
    p.add_argument("--goal", choices=GOALS, default="standard", help="goal convention (default: standard)")
    p.add_argument("--notation", choices=NOTATIONS, default="rows",
                   help="output notation: rows (1 2 3/4 5 6/7 8 0), list, hex (<= 16 cells), grid")


def _cmd_scramble(args: argparse.Namespace) -> int:
    import numpy as np

    from . import instances

    h, w = args.shape
    if args.notation == "hex" and h * w > 16:
        raise NPuzzleError("hex notation needs a board of at most 16 cells")
    if args.worst:
        if h != w:
            raise NPuzzleError("--worst is defined for square boards (Parberry's Theorem 2)")
        boards = [instances.parberry_worst(h)] * args.count
        if args.goal == "blank-first":
            boards = [b.converted() for b in boards]
    elif args.walk:
        rng = np.random.default_rng(args.seed)
        boards = [instances.random_walk(h, w, args.walk, int(rng.integers(1 << 62)), args.goal)
                  for _ in range(args.count)]
    else:
        rng = np.random.default_rng(args.seed)
        boards = [instances.random_board(h, w, rng, args.goal) for _ in range(args.count)]
    sep = "\n\n" if args.notation == "grid" else "\n"
    print(sep.join(format_position(b, args.notation) for b in boards))
    return EXIT_OK


# -- bench, warmup ----------------------------------------------------------------------------


def _add_bench(sub: argparse._SubParsersAction[_Parser]) -> None:
    from .instances import BENCHMARK_SETS
    from .search import METHODS, PRUNING

    p = sub.add_parser(
        "bench",
        help="solve a benchmark set (Korf's 100, ...) and check every length and node count",
        description="Solve the instances of a benchmark set, check every length against the "
        "published optimum (and, for IDA* with the Manhattan distance, every node count against "
        "Korf 1985), and print nodes and CPU seconds per instance and in total.",
    )
    p.add_argument("set", choices=BENCHMARK_SETS, help="korf100 (15-puzzle) or korf50 (24-puzzle)")
    p.add_argument("--ids", help="instances to run, e.g. 1-10,12 (default: all)")
    p.add_argument("--method", choices=METHODS, default="idastar")
    p.add_argument("--heuristic", type=_heuristic_arg, default="manhattan", metavar="NAME", help=HEURISTIC_HELP)
    p.add_argument("--pruning", choices=PRUNING, default="auto", help=PRUNING_HELP)
    p.add_argument("--timeout", type=_positive_float, metavar="SECONDS", help="limit per instance")


def _cmd_bench(args: argparse.Namespace) -> int:
    from . import benchmark

    try:
        ids = benchmark.parse_ids(args.ids)
    except ValueError:
        raise NPuzzleError(f"bad --ids {args.ids!r}: write e.g. 1-10,12") from None
    try:
        rows = benchmark.run(args.set, ids, method=args.method, heuristic=args.heuristic, timeout=args.timeout,
                             pruning=args.pruning)
    except ValueError as e:
        raise NPuzzleError(str(e)) from None
    if any(not r.solution.solved for r in rows):
        return EXIT_LIMIT
    return EXIT_OK if all(r.length_ok and r.nodes_ok is not False for r in rows) else EXIT_INPUT


def _add_warmup(sub: argparse._SubParsersAction[_Parser]) -> None:
    sub.add_parser(
        "warmup",
        help="compile the search kernels now (cached on disk), so later runs start at once",
        description="Compile every numba kernel (or load it from numba's on-disk cache).",
    )


def _cmd_warmup(args: argparse.Namespace) -> int:
    import time

    from .search import warmup

    start = time.perf_counter()
    warmup()
    print(f"kernels ready ({time.perf_counter() - start:.1f} s)")
    return EXIT_OK


# -- stats, tables ----------------------------------------------------------------------------


def _cell_arg(text: str) -> tuple[int, int]:
    try:
        r, c = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a cell: use ROW,COLUMN counted from 0, e.g. 1,1") from None
    return r, c


def _add_stats(sub: argparse._SubParsersAction[_Parser]) -> None:
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


def _add_tables(sub: argparse._SubParsersAction[_Parser]) -> None:
    p = sub.add_parser("tables", help="build, list or remove the tables stored on disk",
                       description="Manage the table store (NPUZZLE_DATA_DIR, else "
                       "$XDG_CACHE_HOME/npuzzle, else ~/.cache/npuzzle).")
    tsub = p.add_subparsers(dest="tables_command", metavar="ACTION", parser_class=_Parser)
    tsub.required = True
    tsub.add_parser("list", help="list the stored tables", description="List the stored tables.")
    b = tsub.add_parser(
        "build", help="build a pattern database (pdb:NAME) and store it",
        description="Build the pattern databases of a partition and store them (one file). Shipped "
        "partitions: 4x4 pdb:7-8 (about 580 MB on disk, a few minutes), pdb:6-6-3 (12 MB, seconds), "
        "pdb:5-5-5 (1.5 MB); 3x3 pdb:4-4; any board of up to 32 cells takes sizes such as pdb:3-2 "
        "(patterns of consecutive tiles). The memory needed is checked before the build starts.")
    b.add_argument("name", metavar="NAME", help="pdb:PARTITION, e.g. pdb:7-8")
    b.add_argument("--shape", type=_shape_arg, default=(4, 4), metavar="HxW", help="board shape (default 4x4)")
    b.add_argument("--goal", choices=GOALS, default="standard",
                   help="goal convention (default standard; Korf's benchmarks use blank-first)")
    b.add_argument("--force", action="store_true", help="rebuild even if the table exists")
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
    if args.tables_command == "build":
        return _build_table(args)
    status = EXIT_OK
    for name in args.names:
        if tables.remove_table(name):
            print(f"removed {name}")
        else:
            print(f"npuzzle tables: no table named {name!r}", file=sys.stderr)
            status = EXIT_INPUT
    return status


def _build_table(args: argparse.Namespace) -> int:
    import time

    from . import tables
    from .heuristics import pattern_db

    name = args.name[4:] if args.name.startswith("pdb:") else args.name
    h, w = args.shape
    key = pattern_db.table_key(name, h, w, args.goal)
    if tables.has_table(key) and not args.force:
        print(f"pdb:{name} for {h}x{w} ({args.goal} goal) is already built: {tables.table_path(key)}")
        return EXIT_OK
    groups = pattern_db.groups_for(name, h, w, args.goal)
    print(f"building pdb:{name} for {h}x{w} ({args.goal} goal): patterns "
          + ", ".join("{" + " ".join(map(str, g)) + "}" for g in groups)
          + f"; needs about {pattern_db.build_bytes(groups, h * w) / 2**20:,.0f} MiB of memory", flush=True)
    start = time.process_time()
    path = pattern_db.build(name, h, w, args.goal)
    print(f"stored {path} ({path.stat().st_size:,} bytes) in {time.process_time() - start:.1f} s CPU")
    return EXIT_OK


# -- main -------------------------------------------------------------------------------------

_COMMANDS: dict[str, tuple[Callable[[argparse._SubParsersAction[_Parser]], None],
                           Callable[[argparse.Namespace], int]]] = {
    "solve": (_add_solve, _cmd_solve),
    "check": (_add_check, _cmd_check),
    "scramble": (_add_scramble, _cmd_scramble),
    "knuth": (_add_knuth, _cmd_knuth),
    "bench": (_add_bench, _cmd_bench),
    "warmup": (_add_warmup, _cmd_warmup),
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
