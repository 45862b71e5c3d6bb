"""``npuzzle solve``: solve positions and print each verified solution (or the bound reached)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from .. import present
from ..errors import NPuzzleError
from ..search import REALTIME_METHODS
from ..search.limits import INTERRUPTED, Limit
from ._options import (
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_OK,
    HEURISTIC_HELP,
    NOTATION_HELP,
    add_goal_board,
    add_heuristic,
    add_json,
    add_method,
    add_positions,
    add_pruning,
    add_timeout,
    goal_of,
    positive_int,
    read_boards,
    size_arg,
    weight_arg,
)
from ._output import check_writable, writing

if TYPE_CHECKING:
    from ..board import Board, Goal
    from ..search.limits import Iteration, Solution
    from ._options import Subparsers

EPILOG = NOTATION_HELP + """
methods:
  auto      a saved BFS table if there is one; IDA* (optimal) up to 16 cells; real time beyond
  idastar   iterative-deepening A*: optimal, little memory (Korf 1985)
  astar     A*: optimal, or with --weight W > 1 at most W times the optimum, faster
  realtime  any size, moves at once, not optimal (--realtime-method greedy or parberry)

exit status: 0 solved, 1 bad input or unsolvable, 2 usage, 3 a limit was reached before a
solution was found (the lower bound proven so far is printed), 130 interrupted (Ctrl-C).
"""


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "solve",
        help="solve positions (optimally by default) and print the verified solution",
        description="Solve each position and print the board and the solution (tiles pushed and "
        "letters). Every solution is replayed and checked before it is printed.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_positions(p)
    add_method(p, "auto", "search method (default: auto, see below)")
    add_heuristic(p, "auto", HEURISTIC_HELP + "; default auto: the strongest whose tables are ready")
    add_pruning(p)
    p.add_argument("--weight", type=weight_arg, default=1.0, metavar="W",
                   help="weighted A* (f = g + W*h): solutions at most W times the optimum")
    p.add_argument("--realtime-method", choices=REALTIME_METHODS, default="greedy",
                   help="for --method realtime: greedy (about 20%% fewer moves, default) or parberry "
                   "(Parberry's algorithm as published; about 5x faster on a million tiles)")
    add_timeout(p, "stop a search after this many seconds (wall clock), exit status 3")
    p.add_argument("--max-nodes", type=positive_int, metavar="N",
                   help="stop a search after generating N nodes, exit status 3")
    p.add_argument("--max-memory", type=size_arg, metavar="SIZE",
                   help="A*: stop cleanly before storing more than SIZE (e.g. 512M, 2G), exit status 3")
    output = p.add_mutually_exclusive_group()
    output.add_argument("--count-only", action="store_true",
                        help="real time: print only the number of moves and the report")
    output.add_argument("--moves-out", metavar="FILE",
                        help="real time: write the moves as UDLR letters to FILE ('-' = stdout); "
                        "FILE is replaced only once the moves are found")
    add_goal_board(p)
    p.add_argument("--steps", action="store_true",
                   help="also show every position on the way: move number, tile pushed, letter and the "
                   "board (JSON: a 'steps' list of positions)")
    add_json(p)
    p.add_argument("--verbose", "-v", action="store_true",
                   help="report every iteration (threshold, nodes, CPU seconds) on stderr")


def run(args: argparse.Namespace) -> int:
    streaming = args.count_only or args.moves_out is not None
    if streaming and args.method not in ("auto", "realtime"):
        raise NPuzzleError("--count-only and --moves-out go with --method realtime")
    limit = Limit(timeout=args.timeout, max_nodes=args.max_nodes, max_memory=args.max_memory)
    goal = _goal(args, streaming)
    boards = read_boards(args)
    if args.moves_out not in (None, "-"):
        _check_moves_out(args.moves_out, len(boards))
    status = EXIT_OK
    for i, board in enumerate(boards):
        if i and not args.json:
            print()
        reason = board.unsolvable_reason(goal)
        if reason is not None:
            print(f"npuzzle solve: {present.unsolvable_text(board, reason)}", file=sys.stderr)
            status = max(status, EXIT_INPUT)
            continue
        if streaming:
            _solve_streaming(board, args)
            continue
        solution = _solve(board, args, limit, goal)
        report = present.report_for(solution)
        if args.json:
            record = present.solution_record(solution, report)
            if args.steps:
                record["steps"] = present.steps_record(solution)
            print(json.dumps(record), flush=True)
        else:
            print(present.solution_text(solution, report), flush=True)
            if args.steps and solution.solved:
                print(present.steps_text(solution), flush=True)
        if solution.status == INTERRUPTED:
            return EXIT_INTERRUPTED
        if not solution.solved:
            status = max(status, EXIT_LIMIT)
    return status


def _goal(args: argparse.Namespace, streaming: bool) -> Goal | Board:
    """``--goal`` or ``--goal-board``; the options that do not go with them refused."""
    goal = goal_of(args)
    if streaming and not isinstance(goal, str):
        raise NPuzzleError("--goal-board does not go with --count-only or --moves-out")
    if args.steps and streaming:
        raise NPuzzleError("--steps does not go with --count-only or --moves-out")
    return goal


def _check_moves_out(path: str, count: int) -> None:
    """--moves-out FILE takes one position, and FILE must be writable (it is not emptied yet)."""
    if count > 1:
        raise NPuzzleError("--moves-out takes one position")
    check_writable(path)


def _print_iteration(iteration: Iteration, final: bool) -> None:
    print(present.iteration_text(iteration, final), file=sys.stderr, flush=True)


def _solve(board: Board, args: argparse.Namespace, limit: Limit, goal: Goal | Board) -> Solution:
    from ..search import solve

    if not present.printable(board, args.method):
        raise NPuzzleError(
            f"a {board.height}x{board.width} board has too many moves to print: "
            "use --count-only or --moves-out FILE")
    if args.steps and board.size > present.DRAWN_CELLS:
        raise NPuzzleError(f"--steps draws boards of at most {present.DRAWN_CELLS} cells, not "
                           f"{board.height}x{board.width}")
    if args.verbose:
        print(present.search_start_text(board, goal), file=sys.stderr, flush=True)
    return solve(board, method=args.method, heuristic=args.heuristic, limit=limit, goal=goal,
                 weight=args.weight, realtime_method=args.realtime_method, pruning=args.pruning,
                 on_iteration=_print_iteration if args.verbose else None)


def _solve_streaming(board: Board, args: argparse.Namespace) -> None:
    """Real time with --count-only or --moves-out: the moves never become a Python list."""
    from ..search.realtime import streamed_report

    if args.count_only:
        report = streamed_report(board, goal=args.goal, method=args.realtime_method)
    elif args.moves_out == "-":
        try:
            report = streamed_report(board, sys.stdout.buffer, goal=args.goal, method=args.realtime_method)
        finally:
            sys.stdout.buffer.flush()
    else:
        with writing(args.moves_out) as out:
            report = streamed_report(board, out, goal=args.goal, method=args.realtime_method)
    to_stderr = args.moves_out == "-"
    if args.json:
        print(json.dumps(present.report_record(report, args.realtime_method)),
              file=sys.stderr if to_stderr else sys.stdout, flush=True)
    else:
        print(present.report_text(report), file=sys.stderr if to_stderr else sys.stdout, flush=True)
