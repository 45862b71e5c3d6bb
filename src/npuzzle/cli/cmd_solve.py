"""``npuzzle solve``: solve positions and print each verified solution (or the bound reached).

>>> from npuzzle.cli import main
>>> main(["solve", "--json", "--heuristic", "wd+id", "1 2 3/4 0 5/7 8 6"])
{"schema_version": 2, "record": "solve", ..., "length": 2, "optimal": true, ..., "letters": "LU"}
0
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import sys
import time
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

from .. import locks
from ..costs import COSTS
from ..errors import NPuzzleError
from ..present import batch as present_batch
from ..present import common as present_common
from ..present import solution as present_solution
from ..search import REALTIME_METHODS
from ..search.limits import INTERRUPTED, Limit
from ._batch import Batch
from ._options import (
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_OK,
    HEURISTIC_HELP,
    NOTATION_HELP,
    add_goal_board,
    add_heuristic,
    add_json,
    add_method,
    add_parallel,
    add_positions,
    add_pruning,
    add_quiet,
    add_timeout,
    budget_arg,
    goal_of,
    positive_int,
    read_entries,
    size_arg,
    weight_arg,
)
from ._output import Live, check_writable, writing

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ..board import Board, Goal
    from ..notation import Entry
    from ..search.limits import Iteration, Solution
    from ..search.problem import Problem
    from ..search.registry import Request
    from ..search.split import Executor
    from ._options import Subparsers

EPILOG = """examples:
  npuzzle solve bc9e80df3412a756               a 4x4 board in Knuth's 16 hex digits
  npuzzle solve "8 6 7/2 5 4/3 0 1"            a 3x3 board, rows joined by '/'
  npuzzle solve -f boards.txt --json --jobs 0  a file, one position a line; JSON records; every core
  npuzzle solve 159d26ae37bf48c0 --timeout 60 --verbose
                                               give up after a minute; show each iteration
  npuzzle solve --method astar --weight 1.5 "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1"
                                               faster, at most 1.5 times the optimum
  npuzzle scramble --shape 100x100 | npuzzle solve -f - --count-only
                                               a 100x100 board in real time

""" + NOTATION_HELP + """
methods:
  auto      a saved BFS table if there is one; IDA* (optimal) up to 16 cells; beam up to 576
            cells (24x24; 32x32 with --budget); real time beyond
  idastar   iterative-deepening A*: optimal, little memory (Korf 1985)
  astar     A*: optimal, or with --weight W > 1 at most W times the optimum, faster
  focal     focal search: at most W times the optimum (--weight W, default 1: optimal), the
            open node nearest the goal among those with f <= W * (least f); reports the lower
            bound it proved and the ratio to it (the textbook method; slow on the tiles)
  dps       dynamic potential search: the same bound W, expanding the node of greatest
            (W * least f - g) / h; often fewer nodes than weighted A* at W = 1.5 or 2
  astar+idastar
            optimal: A* stores the top of the tree, IDA* searches below it (Bu & Korf
            2019); for experiments: with the move automaton, idastar is faster
  beam      the shortest answer a beam search finds within its budget (8,000,000 nodes, about
            1 s, the same answer every time; or --budget SECONDS), with a proven lower bound
            and the ratio to it; more budget, shorter answers
  realtime  any size, moves at once, not optimal (--realtime-method greedy or parberry)
  ucs       uniform-cost search (Dijkstra): optimal for any --cost, no bound, small boards

move costs (--cost, docs/costs.md): unit 1, heavy t, inverse 1/t, sqrt sqrt(t) for moving tile
t; auto then picks idastar (astar with --weight) and the cost-weighted Manhattan distance.

large boards: beyond 20x20 (400 cells) the board is not drawn and the moves are given as
letters only (text and JSON); a real-time answer there keeps its moves packed, four to a
byte, and writes them out as letters piece by piece (--count-only: only their number).

exit status: 0 solved, 1 bad input or unsolvable, 2 usage, 3 a limit was reached before a
solution was found (the lower bound proven so far is printed), 4 the Dask cluster stopped
answering (the answers received are printed), 70 an internal error (a bug: please report it),
130 interrupted (Ctrl-C).
"""

#: The ``search.Request`` fields this command sets itself; every other one it reads from the
#: argument of the same name (``--realtime-method`` is ``realtime_method``), if it has one.
_SET_HERE = ("goal", "limit", "executor", "on_iteration", "on_progress")
#: The request's options the command line names otherwise than by their own flag.
_OTHER_FLAGS = {"executor": "--jobs (one position)", "on_iteration": "--verbose"}


def options_table(parser: argparse.ArgumentParser) -> str:
    """Which options each method takes (``search.registry.REGISTRY``), by the flags of ``parser``
    that give them; any other is refused."""
    from ..present.methods import options_table_text
    from ..search.registry import REGISTRY, Request

    flags = {a.dest: a.option_strings[-1] for a in parser._actions if a.option_strings}
    names = [f.name for f in dataclasses.fields(Request)] + ["timeout", "max_nodes", "max_memory"]
    shown = [(name, _OTHER_FLAGS.get(name) or flags[name]) for name in names
             if name in _OTHER_FLAGS or (name in flags and name not in _SET_HERE)]
    methods = tuple(REGISTRY)
    rows = [(flag, tuple(name in REGISTRY[m].options for m in methods)) for name, flag in shown]
    return ("options each method takes (any other is refused before the search starts; auto takes\n"
            "those of the method it picks):\n" + options_table_text(methods, rows) + "\n")


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
                   help="the bound of --method astar (weighted A*, f = g + W*h), focal or dps: solutions at "
                   "most W times the optimum")
    p.add_argument("--cost", choices=COSTS, default="unit",
                   help="the move-cost model: unit (every move costs 1, default), heavy (moving tile t costs "
                   "t), inverse (1/t) or sqrt (sqrt(t)); the answer is optimal for that cost (idastar, astar, "
                   "ucs; weighted A* within --weight), the bound is each tile's Manhattan distance times its cost")
    p.add_argument("--budget", type=budget_arg, metavar="SECONDS",
                   help="the beam search's CPU time (at most 3600): it answers with the shortest "
                   "solution found in that time, which depends on the machine and its load; with --method "
                   "auto beyond 4x4 (up to 32x32), or --method beam. Without it the beam's budget is a fixed "
                   "amount of work (8,000,000 nodes, about 1 s; --max-nodes sets it), so the same position "
                   "always gets the same answer")
    p.add_argument("--realtime-method", choices=REALTIME_METHODS, default="greedy",
                   help="for --method realtime: greedy (about 25%% fewer moves, default) or parberry "
                   "(Parberry's algorithm as published; about 9x faster on a million tiles, 25%% more moves)")
    add_timeout(p, "stop a search after this many seconds (wall clock), exit status 3")
    p.add_argument("--max-nodes", type=positive_int, metavar="N",
                   help="stop a search after generating N nodes, exit status 3; the beam search "
                   "instead spends at most N nodes and answers with the shortest solution found")
    p.add_argument("--max-memory", type=size_arg, metavar="SIZE",
                   help="A*: stop cleanly, exit status 3, before its node store (the positions it "
                   "keeps, their hash table and open list) would grow beyond SIZE (e.g. 512M, 2G; "
                   "default 2G or half the free memory). Not counted: the program itself (about "
                   "200 MB) and the tables of the bound (pdb:7-8: 550 MB); IDA* stores no nodes")
    output = p.add_mutually_exclusive_group()
    output.add_argument("--count-only", action="store_true",
                        help="real time: the answer without its moves (their number, the lower bound, the figures)")
    output.add_argument("--moves-out", metavar="FILE",
                        help="real time: write the moves as UDLR letters to FILE ('-' = stdout); "
                        "FILE is replaced only once the moves are found")
    add_goal_board(p)
    p.add_argument("--steps", action="store_true",
                   help="also show every position on the way: move number, tile pushed, letter and the "
                   "board (JSON: a 'steps' list of positions)")
    add_parallel(p, "several positions are solved one per process (the serial results, in input order); "
                 "one position has its IDA* tree split over them (the same optimal length)")
    add_json(p)
    p.add_argument("--verbose", "-v", action="store_true",
                   help="report the first bound and every iteration (threshold, nodes, CPU seconds) on stderr")
    add_quiet(p)
    p.epilog = EPILOG + "\n" + options_table(p)


def run(args: argparse.Namespace) -> int:
    if args.moves_out in (None, "-"):
        return _run(args)
    check_writable(args.moves_out)
    with locks.held(args.moves_out):  # its one writer from the start: a second run is refused at once
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    streaming = args.count_only or args.moves_out is not None
    if streaming and args.method not in ("auto", "realtime"):
        raise NPuzzleError("--count-only and --moves-out go with --method realtime")
    if streaming and args.budget is not None:
        raise NPuzzleError("--count-only and --moves-out solve in real time: --budget does not apply")
    limit = Limit(timeout=args.timeout, max_nodes=args.max_nodes, max_memory=args.max_memory)
    goal = _goal(args, streaming)
    entries = read_entries(args)
    if args.moves_out not in (None, "-"):
        _check_moves_out(args.moves_out, len(entries))
    if streaming and (args.jobs != 1 or args.scheduler):
        raise NPuzzleError("--count-only and --moves-out solve in one process: no --jobs or --scheduler")
    batch = Batch("solve", entries, args.json, ("solved", "stopped", "unsolvable", "invalid"))
    ready = {i: e.board for i, e in enumerate(entries)
             if e.board is not None and e.board.unsolvable_reason(goal) is None}
    for board in ready.values():
        _check_steps(board, args)
    if args.jobs == 1 and args.scheduler is None:
        executors: AbstractContextManager[Executor | None] = nullcontext()  # no cluster, no split imported
    else:
        from ..cluster import workers

        executors = workers(args.jobs, args.scheduler, args.oversubscribe)
    with executors as executor:
        # Every position's request prepared once, here: a real-time answer too large to hold as a
        # list is streamed from this process; the others of a batch go to the executor's workers
        # (one position alone is split over them).
        lives = {i: Live(args.quiet) for i in ready}
        split = executor if len(ready) == 1 else None
        request = _request(args, limit, goal)
        problems = {i: _prepare(board, request, args, split, lives[i]) for i, board in ready.items()}
        batched = [problems[i] for i in ready if not (streaming or _streams(problems[i]))]
        solutions = _solve_many(batched, args, executor) if executor and len(batched) > 1 else None
        shown = False  # text mode: a blank line between two solutions
        for i, entry in enumerate(entries):
            if entry.board is None:
                batch.invalid(entry)
                continue
            reason = entry.board.unsolvable_reason(goal)
            if reason is not None:
                batch.unsolvable(entry, goal, reason)
                continue
            if shown and not args.json:
                print()
            shown = True
            problem = problems[i]
            if streaming or _streams(problem):
                solved = _solve_streaming(entry, args, problem).solved
                batch.count("solved" if solved else "stopped", EXIT_OK if solved else EXIT_LIMIT)
                continue
            solution = next(solutions) if solutions is not None else _solve(problem, args, lives[i])
            _show(solution, entry, args, limit)
            if solution.status == INTERRUPTED:
                return EXIT_INTERRUPTED
            batch.count("solved" if solution.solved else "stopped", EXIT_OK if solution.solved else EXIT_LIMIT)
    return batch.finish()


def _solve_many(problems: list[Problem], args: argparse.Namespace, executor: Executor) -> Iterator[Solution]:
    """The prepared positions solved by the executor's workers, one each, the solutions in order."""
    from ..cluster import solve_many

    live = Live(args.quiet)
    start, generated = time.monotonic(), 0
    with live.running():
        solutions = solve_many(problems, executor)
        for done, solution in enumerate(solutions, 1):
            live.clear()
            yield solution
            generated += solution.stats.generated
            wall = time.monotonic() - start
            live.show(wall, functools.partial(present_batch.batch_progress_text, done, len(problems), generated, wall,
                                              executor.workers))


def _show(solution: Solution, entry: Entry, args: argparse.Namespace, limit: Limit) -> None:
    """A solution (or the bound a stopped search proved) as a record or as text, with --steps."""
    report = present_solution.report_for(solution)
    if args.json:
        record = present_solution.solution_record(solution, report, entry)
        if args.steps:
            record["steps"] = present_solution.steps_record(solution)
        print(json.dumps(record), flush=True)
    else:
        print(present_solution.solution_text(solution, report, limit), flush=True)
        if args.steps and solution.solved:
            print(present_solution.steps_text(solution), flush=True)


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


def _streams(problem: Problem) -> bool:
    """Whether the problem is solved in real time with its moves kept packed and written as they
    are read out (besides --count-only and --moves-out): a real-time answer on a board of more than
    ``present.solution.LETTERS_ONLY_CELLS`` cells for the standard or blank-first goal."""
    return (problem.method == "realtime" and problem.board.size > present_solution.LETTERS_ONLY_CELLS
            and isinstance(problem.goal, str))


def _check_steps(board: Board, args: argparse.Namespace) -> None:
    if args.steps and board.size > present_common.DRAWN_CELLS:
        raise NPuzzleError(f"--steps draws boards of at most {present_common.DRAWN_CELLS} cells, not "
                           f"{board.height}x{board.width}")


def _request(args: argparse.Namespace, limit: Limit, goal: Goal | Board) -> Request:
    """The options as given: every ``Request`` field from the argument of the same name (a new
    field with a flag of its name reaches every search, and every worker, without another line)."""
    from ..search import Request

    given = {f.name: getattr(args, f.name) for f in dataclasses.fields(Request)
             if f.name not in _SET_HERE and hasattr(args, f.name)}
    return Request(goal=goal, limit=limit, **given)


def _prepare(board: Board, request: Request, args: argparse.Namespace, executor: Executor | None,
             live: Live) -> Problem:
    """This position's request (the options as given, its callbacks), prepared: checked and
    resolved (--count-only and --moves-out ask for real time)."""
    from ..search import prepare

    streaming = args.count_only or args.moves_out is not None

    def print_iteration(iteration: Iteration, final: bool) -> None:
        live.clear()
        print(present_solution.iteration_text(iteration, final), file=sys.stderr, flush=True)

    own = dataclasses.replace(request, on_iteration=print_iteration if args.verbose else None,
                              on_progress=live.callback(), executor=executor)
    return prepare(board, own, "realtime" if streaming and args.method == "auto" else args.method)


def _solve(problem: Problem, args: argparse.Namespace, live: Live) -> Solution:
    from ..search import run

    with live.running():
        if args.verbose:
            print(present_solution.search_start_text(problem.board, problem.goal, *problem.first_bound()),
                  file=sys.stderr, flush=True)
        return run(problem)


def _solve_streaming(entry: Entry, args: argparse.Namespace, problem: Problem) -> Solution:
    """Real time with the moves packed: counted (--count-only), written to a file (--moves-out), or
    written as letters into the text or the JSON record as they are read out; never a Python list."""
    with Live(args.quiet).running():
        return _stream(entry, args, problem)


def _stream(entry: Entry, args: argparse.Namespace, problem: Problem) -> Solution:
    from ..search.realtime import letter_chunks, packed_problem

    limit = problem.limit
    solution, packed, report = packed_problem(problem, count_only=args.count_only)
    if report is None:  # stopped by the time limit: no moves to write
        text = (json.dumps(present_solution.solution_record(solution, None, entry)) if args.json
                else present_solution.solution_text(solution, None, limit))
        print(text, file=sys.stderr if args.moves_out == "-" else sys.stdout, flush=True)
        return solution
    if packed is not None and args.moves_out is None:
        record = present_solution.solution_record(solution, report, entry) if args.json else None
        _write_answer(record, solution, report, letter_chunks(packed))
        return solution
    if packed is not None:
        _write_moves(letter_chunks(packed), args.moves_out)
    text = (json.dumps(present_solution.solution_record(solution, report, entry, moves=False)) if args.json
            else present_solution.solution_text_parts(solution, report, letters=False)[0])
    print(text, file=sys.stderr if args.moves_out == "-" else sys.stdout, flush=True)
    return solution


def _write_answer(record: dict[str, Any] | None, solution: Solution, report: dict[str, Any],
                  chunks: Iterator[bytes]) -> None:
    """The answer's text, or its JSON ``record``, with the letters written chunk by chunk where
    they belong."""
    before, after = (present_solution.record_parts(record, "letters") if record is not None
                     else present_solution.solution_text_parts(solution, report))
    sys.stdout.flush()
    out = sys.stdout.buffer
    out.write(before.encode())
    for chunk in chunks:
        out.write(chunk)
    out.write(after.encode() + b"\n")
    out.flush()


def _write_moves(chunks: Iterator[bytes], path: str) -> None:
    """The moves as letters and a newline, into ``path`` (``-``: the standard output)."""
    if path == "-":
        try:
            for chunk in chunks:
                sys.stdout.buffer.write(chunk)
            sys.stdout.buffer.write(b"\n")
        finally:
            sys.stdout.buffer.flush()
        return
    with writing(path) as out:
        for chunk in chunks:
            out.write(chunk)
        out.write(b"\n")
