"""``npuzzle check``: validate positions and tell whether the goal can be reached."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from .. import present
from ._options import EXIT_INPUT, EXIT_OK, NOTATION_HELP, add_goal_board, add_json, add_positions, goal_of, read_boards

if TYPE_CHECKING:
    from ._options import Subparsers


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "check",
        help="validate positions: shape, solvability (with the parity reason), Manhattan distance",
        description="Validate positions and tell whether the goal can be reached.",
        epilog=NOTATION_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_positions(p)
    add_goal_board(p)
    add_json(p)


def run(args: argparse.Namespace) -> int:
    status = EXIT_OK
    goal = goal_of(args)
    for board in read_boards(args):
        record = present.check_record(board, goal)
        if not record["solvable"]:
            status = EXIT_INPUT
        print(json.dumps(record) if args.json else present.check_text(board, record))
    return status
