"""``npuzzle verify``: replay a proposed answer and say whether it solves the position.

>>> from npuzzle.cli import main
>>> from npuzzle.search.warm import scratch_store
>>> with scratch_store():
...     main(["verify", "1 2 3/4 5 6/0 7 8", "LL"])
Solved: 2 moves from 1 2 3/4 5 6/0 7 8 to the standard goal, optimal (the optimum is 2, by bfs-table)
0
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from ._options import EXIT_INPUT, EXIT_OK, NOTATION_HELP, add_goal, add_json, add_shape

if TYPE_CHECKING:
    from ._options import Subparsers


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "verify",
        help="check a proposed solution: solved, the first illegal move, or the position reached",
        description="Replay MOVES from POSITION and say what they do:\n\n"
        "  solved       and, where the optimum is known or cheap to find (boards of up to 10 cells\n"
        "               from their distance table, 4x4 by IDA* within 5,000,000 nodes), how many\n"
        "               moves more than optimal\n"
        "  illegal      the first move that cannot be made and its index (counted from 0)\n"
        "  not solved   every move made, and the position reached\n\n"
        "Exit status 0 if the moves solve the position, 1 if not.",
        epilog=NOTATION_HELP + "\nexamples:\n  npuzzle verify '1 2 3/4 5 6/0 7 8' LL\n"
        "  npuzzle verify 123456078 '7 8' --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("position", metavar="POSITION", help="the start position (see notation below)")
    p.add_argument("moves", nargs="*", metavar="MOVES",
                   help="the moves: letters (LLUR), tile numbers (7 8) or hex digits (78) on boards of at most 16 "
                   "cells; several arguments are joined by spaces")
    add_shape(p)
    add_goal(p)
    add_json(p, "print the verdict as one JSON record (docs/json.md)")


def run(args: argparse.Namespace) -> int:
    from ..notation import parse_position
    from ..present.verify import verify_record, verify_text
    from ..verifier import verify_moves

    board = parse_position(args.position, args.shape)
    verdict = verify_moves(board, " ".join(args.moves), args.goal)
    print(json.dumps(verify_record(verdict)) if args.json else verify_text(verdict))
    return EXIT_OK if verdict.solved else EXIT_INPUT
