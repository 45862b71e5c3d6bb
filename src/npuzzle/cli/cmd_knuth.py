"""``npuzzle knuth``: Knuth's 15PUZZLE-KORF0/KORF1 programs, messages and exit statuses included.

>>> from npuzzle.cli import main
>>> main(["knuth", "123456789abc0def"])
Solution in 3+0 moves: def
0
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._options import Subparsers


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "knuth",
        help="Knuth's 15PUZZLE-KORF0/KORF1 programs, with their exact messages and output",
        description="Run Knuth's 15PUZZLE-KORF1 (or KORF0) on a start position of 16 hex digits "
        "(0 = blank, goal 123456789abcdef0), with the programs' own input checks, messages and "
        "exit statuses, a ' ... no solution with H+K moves (T sec)' line after each failed round "
        "(H happy moves: each brings its piece closer to home; K sad ones) and the pieces pushed, "
        "in hex. It reproduces the original programs faithfully, quirks included (their messages, "
        "exit statuses, move orders and timing lines); 'npuzzle solve' is the tool for everyday use.",
        epilog="exit status: 0 (also for an unreachable goal, as in Knuth's programs), "
        "255 usage, 254 bad digit, 253 a digit used twice, 252 a digit missing",
    )
    p.add_argument("startposition", nargs="*", help="16 hex digits, e.g. bc9e80df3412a756")
    p.add_argument("--program", choices=("korf0", "korf1"), default="korf1",
                   help="which program to behave as (default korf1; they differ in move order "
                   "and in their last line)")


def run(args: argparse.Namespace) -> int:
    from .. import knuth

    return knuth.run(args.startposition, sys.stdout, sys.stderr, program=args.program)
