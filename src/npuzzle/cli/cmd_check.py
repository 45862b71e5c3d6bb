"""``npuzzle check``: validate positions and tell whether the goal can be reached.

>>> from npuzzle.cli import main
>>> main(["check", "1 2 3/4 5 6/8 7 0"])
3x3 board, goal standard:
  1 2 3
  4 5 6
  8 7 _
Unsolvable:
  the tiles (blank included) are an odd permutation of the goal, but the blank is 0 moves from its
  goal cell (even); every move flips both parities, so they can never both be even as at the goal
1
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..present import positions as present_positions
from ._batch import Batch
from ._options import EXIT_INPUT, NOTATION_HELP, add_goal_board, add_json, add_positions, goal_of, read_entries

if TYPE_CHECKING:
    from ._options import Subparsers


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "check",
        help="validate positions: shape, solvability (with the parity reason), Manhattan distance",
        description="Validate positions and tell whether the goal can be reached. Each input gets "
        "its answer, in order; exit status 0 if every position can reach the goal, 1 if any "
        "cannot or is no position.",
        epilog=NOTATION_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_positions(p)
    add_goal_board(p)
    add_json(p)


def run(args: argparse.Namespace) -> int:
    goal = goal_of(args)
    entries = read_entries(args)
    batch = Batch("check", entries, args.json, ("solvable", "unsolvable", "invalid"))
    for entry in entries:
        if entry.board is None:
            batch.invalid(entry)
            continue
        record = present_positions.check_record(entry.board, goal, entry)
        batch.count(record["status"], EXIT_INPUT if record["status"] == "unsolvable" else 0)
        if args.json:
            batch.emit(record)
        else:
            print(present_positions.check_text(entry.board, record), flush=True)
    return batch.finish()
