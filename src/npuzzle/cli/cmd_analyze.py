"""``npuzzle analyze``: the analysis of a solve (the optimal distance after every move, the
mistakes and the better moves, an optimal solution, all optimal solutions when asked).

Here in a scratch store, where the 3x3 distance table it saves goes (the user's store is left as
it is):

>>> from npuzzle.cli import main
>>> from npuzzle.search.warm import scratch_store
>>> with scratch_store():
...     main(["analyze", "1 2 3/4 5 6/0 7 8", "LRLL"])
3x3 board, goal standard:
  1 2 3
  4 5 6
  _ 7 8
Letters name the direction the pushed tile slides.
Your moves (4): LRL2
4 moves, solved; optimal 2 (+2); 2.00 moves per Manhattan distance (2)
Distance to the goal after each move, from the start: 2 1 2 1 0
1 mistake (moves after which the distance did not fall):
  move 2 (R): 1 -> 2; better: L
1 detour (2 moves wasted):
  moves 1-2: an undo pair (2 wasted)
Phases (finished for good after move ...):
  row 1: move 0 (0 moves)
  last 2x3: move 4 (4 moves)
An optimal solution from the start (2 moves): L2
Analysed in ... s (... s CPU) with ...
0
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from ._options import (
    EXIT_LIMIT,
    EXIT_OK,
    MAX_WHOLE,
    NOTATION_HELP,
    _whole,
    add_goal_board,
    add_json,
    add_shape,
    add_timeout,
    goal_of,
)

if TYPE_CHECKING:
    from ._options import Subparsers

EPILOG = """examples:
  npuzzle analyze "1 2 3/4 5 6/0 7 8" LRLL               a 3x3 solve: one mistake (move 2)
  npuzzle analyze bc9e80df3412a756 "URDL2UR2..." --json  a 4x4 solve in the community's form
  npuzzle analyze "8 6 7/2 5 4/3 0 1" DRUL --convention blank --all-optimal 5

move strings:
  letters U D L R, each optionally followed by a repeat count (URDL2UR2: L2 = LL, U3 = UUU;
  spaces anywhere), tile numbers (12 3 4), or, for boards of at most 16 cells, hex digits, one a
  tile (fb37, as Knuth prints solutions).
  --convention tile (the default, npuzzle's): a letter names the direction the pushed TILE
  slides: L slides the tile right of the blank to the left (the blank moves right).
  --convention blank: a letter names the direction the BLANK moves (the opposite letter).

distances: optimal on boards of at most 16 cells (a BFS distance table on 3x3 and other boards
of at most 10 cells; IDA* with the strongest table built otherwise: npuzzle tables build
pdb:6-6-3 --shape 4x4 makes a 4x4 analysis several times faster); on larger boards lower
bounds and a near-optimal solution of the start, labelled as such (no mistakes named).
A mistake is a move after which the optimal distance did not fall (it rose by one).

""" + NOTATION_HELP


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "analyze",
        help="analyse a solve: the optimal distance after each move, the mistakes and better moves",
        description="Replay MOVES from POSITION and give the optimal distance to the goal of every "
        "position on the way, your length against the optimum, moves per Manhattan distance, each "
        "mistake (a move after which the distance did not fall) with the better moves there, and an "
        "optimal solution; with --all-optimal N, how many optimal solutions the start has and the "
        "first N. Exit status 0 done, 1 bad input (an illegal move is named by its number), 3 the "
        "time limit was reached.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("position", metavar="POSITION", help="the start (quote it if it has spaces)")
    p.add_argument("moves", metavar="MOVES", help="the moves played (see move strings below; '' for none)")
    p.add_argument("--goal", choices=("standard", "blank-first"), default="standard",
                   help="goal convention (default: standard)")
    add_goal_board(p)
    add_shape(p)
    p.add_argument("--convention", choices=("tile", "blank"), default="tile",
                   help="what a letter of MOVES names: the direction the pushed tile slides (tile, the "
                   "default) or the direction the blank moves (blank); the output uses it too")
    p.add_argument("--all-optimal", type=_listed, default=0, metavar="N",
                   help="also count the optimal solutions of the start and list the first N (boards of at "
                   "most 16 cells; 0, the default: not asked)")
    p.add_argument("--from", dest="from_step", type=_step, default=0, metavar="K",
                   help="give an optimal solution from the position after K moves (default 0: the start)")
    add_timeout(p, "stop the analysis after this many seconds (exit status 3)")
    add_json(p, "print the analysis as one JSON record (docs/json.md)")


def _listed(text: str) -> int:
    from ..analysis import MAX_LISTED

    return _whole(text, 0, MAX_LISTED, "--all-optimal")


def _step(text: str) -> int:
    return _whole(text, 0, MAX_WHOLE, "--from")


def run(args: argparse.Namespace) -> int:
    from .. import analyze
    from ..errors import SearchStopped
    from ..present.analysis import analysis_record, analysis_text

    try:
        analysis = analyze(args.position, args.moves, goal=goal_of(args), shape=args.shape,
                           convention=args.convention, all_optimal=args.all_optimal, optimal_from=args.from_step,
                           timeout=args.timeout)
    except SearchStopped as e:
        print(f"npuzzle analyze: {e}", file=sys.stderr)
        return EXIT_LIMIT
    if args.json:
        print(json.dumps(analysis_record(analysis)), flush=True)
    else:
        print(analysis_text(analysis, args.convention), flush=True)
    return EXIT_OK
