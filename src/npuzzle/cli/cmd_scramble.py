"""``npuzzle scramble``: uniformly random solvable positions, random walks, Parberry's worst case,
and the published benchmark sets written out (for other solvers to read).

>>> from npuzzle.cli import main
>>> main(["scramble", "--shape", "3x3", "--seed", "1", "--count", "2"])
7 0 1/4 2 5/8 6 3
7 1 6/0 2 3/4 5 8
0
>>> main(["scramble", "--set", "korf100", "--ids", "1-2", "--notation", "list"])
14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3
13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6
0
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from ..errors import NPuzzleError, quote_input
from ..instances import BENCHMARK_SETS
from ..notation import NOTATIONS, check_notation
from ..present import positions as present_positions
from ._options import EXIT_OK, add_goal, add_json, add_shape, positive_int, seed_arg

if TYPE_CHECKING:
    from ._options import Subparsers


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "scramble",
        help="generate positions: uniformly random solvable ones, random walks, Parberry's worst case",
        description="Print scrambled positions, one a line (a blank line between grids). By default "
        "each is drawn uniformly from the positions that can reach the goal.",
        epilog="examples:\n  npuzzle scramble --shape 4x4 --seed 1 --notation hex\n"
        "  npuzzle scramble --shape 3x5 --walk 30 --count 5\n  npuzzle scramble --shape 10x10 --worst\n"
        "  npuzzle scramble --set korf100 --notation list > korf100.txt    # Korf's 100, 16 numbers a line",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_shape(p, default=(4, 4), help="board shape (default 4x4)")
    p.add_argument("--count", "-n", type=positive_int, default=1, help="how many positions (default 1)")
    p.add_argument("--seed", type=seed_arg, help="random seed, for reproducible positions (0..2**63-1)")
    kind = p.add_mutually_exclusive_group()
    kind.add_argument("--walk", type=positive_int, metavar="K",
                      help="K random moves from the goal (never undoing the last) instead of uniform")
    kind.add_argument("--worst", action="store_true",
                      help="the worst case of Parberry's Theorem 2 (square boards)")
    kind.add_argument("--set", choices=BENCHMARK_SETS,
                      help="the positions of a published benchmark set instead (korf100: Korf's 100 15-puzzles, "
                      "korf50: Korf & Felner's 50 24-puzzles), in id order and Korf's goal convention (blank-first, "
                      "goal 0 1 2 ...); --shape, --count, --seed and --goal do not apply")
    p.add_argument("--ids", help="with --set: the instances, e.g. 1-10,12 (default: all)")
    add_goal(p)
    p.add_argument("--notation", choices=NOTATIONS, default="rows",
                   help="output notation: rows (1 2 3/4 5 6/7 8 0), list, hex (<= 16 cells), grid")
    add_json(p, "print one JSON record per position (its tiles, and the position in --notation)")


def run(args: argparse.Namespace) -> int:
    from .. import instances

    if args.set is not None:
        return _benchmark_set(args)
    if args.ids is not None:
        raise NPuzzleError("--ids chooses instances of a benchmark set: give --set too")
    check_notation(args.notation, args.shape)
    h, w = args.shape
    boards = instances.scramble(h, w, args.count, seed=args.seed, walk=args.walk, worst=args.worst, goal=args.goal)
    if args.json:
        for i, board in enumerate(boards, 1):
            print(json.dumps(present_positions.scramble_record(board, i, args.seed, args.goal, args.notation)))
    else:
        print(present_positions.positions_text(boards, args.notation))
    return EXIT_OK


def _benchmark_set(args: argparse.Namespace) -> int:
    """The instances of ``--set`` (those of ``--ids``), one a line, as published (goal blank-first)."""
    from .. import benchmark, instances

    try:
        ids = benchmark.parse_ids(args.ids, args.set)
    except ValueError as e:
        raise NPuzzleError(f"bad --ids {quote_input(args.ids)}: {e}") from None
    chosen = instances.benchmark_set(args.set, ids)
    boards = [instance.board for instance in chosen]
    check_notation(args.notation, boards[0].shape)
    if args.json:
        for instance in chosen:
            print(json.dumps(present_positions.scramble_record(instance.board, instance.id, None, instance.goal,
                                                               args.notation)))
    else:
        print(present_positions.positions_text(boards, args.notation))
    return EXIT_OK
