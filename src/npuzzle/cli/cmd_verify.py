"""``npuzzle verify``: replay a proposed answer and say whether it solves the position; with
``--jsonl``, one JSON verdict for each JSON line of positions and answers (for graders).

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
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ._options import EXIT_INPUT, EXIT_NOT_SOLVED, EXIT_OK, EXIT_USAGE, NOTATION_HELP, add_goal, add_json, add_shape

if TYPE_CHECKING:
    from ._options import Subparsers

JSONL_HELP = """\
--jsonl: one JSON object a line in, one JSON verdict a line out (in the same order, flushed line
by line; blank lines skipped):
  in:  {"position": "8 6 7/2 5 4/3 0 1", "answer": "U, L, D, ...", "id": 17}
       position and answer (text, a list of moves, or null) are required; shape, goal, optimum
       (the best length you know: the score then uses it) and id (copied out) are optional
  out: the verify record of --json, with file, line, id and score (docs/json.md); a line that is
       no such object gives an invalid record instead
score: 1.0 for an optimal answer, optimum/length for a longer one, 0.01 for legal moves that do
  not reach the goal, 0.0 for an illegal move, text that is no moves, or no moves; null for a
  solution whose optimum is unknown (larger than 16 cells, or past IDA*'s node budget)
"""


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
        "Exit status 0 if the moves solve the position (with --jsonl: every line's), 6 if they\n"
        "do not (an illegal move, the goal not reached, an answer that is no moves), 1 for bad\n"
        "input (a position or moves that cannot be read; with --jsonl, a line that is no JSON\n"
        "object of a position and an answer), 2 for usage errors.",
        epilog=NOTATION_HELP + "\n" + JSONL_HELP + "\nexamples:\n  npuzzle verify '1 2 3/4 5 6/0 7 8' LL\n"
        "  npuzzle verify 123456078 '7 8' --json\n  npuzzle verify --jsonl answers.jsonl > verdicts.jsonl",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("position", nargs="?", metavar="POSITION", help="the start position (see notation below)")
    p.add_argument("moves", nargs="*", metavar="MOVES",
                   help="the moves: letters (LLUR, or L,L,U,R), tile numbers (7 8) or hex digits (78) on boards of "
                   "at most 16 cells; several arguments are joined by spaces")
    p.add_argument("--jsonl", nargs="?", const="-", metavar="FILE",
                   help="read JSON lines of positions and answers from FILE (or standard input: no FILE, or -) "
                   "and write one JSON verdict a line, with its score (see below)")
    add_shape(p)
    add_goal(p)
    add_json(p, "print the verdict as one JSON record (docs/json.md)")


def run(args: argparse.Namespace) -> int:
    from ..notation import parse_position
    from ..present.verify import verify_record, verify_text
    from ..verifier import verify_moves

    if args.jsonl is not None:
        if args.position is not None:
            print("npuzzle verify: error: --jsonl reads positions and answers from its file, not POSITION MOVES",
                  file=sys.stderr)
            return EXIT_USAGE
        return _run_jsonl(args)
    if args.position is None:
        print("npuzzle verify: error: give POSITION and MOVES, or --jsonl", file=sys.stderr)
        return EXIT_USAGE
    board = parse_position(args.position, args.shape)
    verdict = verify_moves(board, " ".join(args.moves), args.goal)
    print(json.dumps(verify_record(verdict)) if args.json else verify_text(verdict))
    return EXIT_OK if verdict.solved else EXIT_NOT_SOLVED


def _lines(path: str) -> Iterable[str]:
    if path == "-":
        return sys.stdin
    from ..notation import read_text

    return read_text(path).splitlines()


def _run_jsonl(args: argparse.Namespace) -> int:
    """Each line's verdict (or invalid record), flushed as it comes; the exit status is the worst:
    bad input (1), else an answer that does not solve (5), else 0."""
    from ..errors import NPuzzleError
    from ..notation import Entry
    from ..present.batch import invalid_record
    from ..present.verify import answer_record, read_answer_line
    from ..verifier import score, verify_answer

    source = "<stdin>" if args.jsonl == "-" else args.jsonl
    bad = unsolved = False
    for number, text in enumerate(_lines(args.jsonl), 1):
        if not text.strip():
            continue
        try:
            item = read_answer_line(text, args.shape, args.goal)
        except NPuzzleError as e:
            record = invalid_record(Entry(source, number, text.strip(), None, str(e)), "verify")
            bad = True
        else:
            verdict = verify_answer(item.board, item.answer, item.goal, optimum=item.best is None)
            record = answer_record(verdict, score(verdict, item.best), source, number, item.ident)
            unsolved = unsolved or not verdict.solved
        print(json.dumps(record), flush=True)
    return EXIT_INPUT if bad else EXIT_NOT_SOLVED if unsolved else EXIT_OK
