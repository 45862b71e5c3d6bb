"""``npuzzle bench``: solve a benchmark set and check every length (and node count) published.

>>> from npuzzle.cli import main
>>> main(["bench", "korf100", "--ids", "79", "--heuristic", "wd+id"])
# korf100: method idastar, heuristic wd+id, pruning auto, 1 instances
# id  length  optimum    generated     expanded    CPU_s  Mnodes/s  korf1985_generated
  79      42       42       64,422       31,006    ...          540,860
# total: 1 instances, 64,422 nodes generated (31,006 expanded), ...; 1 lengths equal to the published optimum
0
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from .. import grid, stats
from ..board import GOALS
from ..errors import NPuzzleError, quote_input
from ..instances import BENCHMARK_SETS
from ..search import METHODS
from ._options import (
    EXIT_INPUT,
    EXIT_LIMIT,
    EXIT_OK,
    HEURISTIC_HELP,
    PRUNING_HELP,
    add_json,
    add_parallel,
    add_timeout,
)
from ._output import Live, check_writable

if TYPE_CHECKING:
    from ._options import Subparsers


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "bench",
        help="solve a benchmark set (Korf's 100, ...) and check every length and node count; or a grid of "
             "methods x heuristics x options x sets",
        description="Solve the instances of a benchmark set, check every length against the published optimum\n"
        "(and, for IDA* with the Manhattan distance, every node count against Korf 1985), and print\n"
        "nodes and CPU seconds per instance and in total.\n\n"
        "Given lists (--heuristic lc,wd,pdb:6-6-3, several sets, ...) or --out, it runs an experiment\n"
        "grid: every set with every combination of the values, one row per run (written to --out,\n"
        ".csv or .jsonl, as soon as it is known: a second run with the same --out skips the runs\n"
        "already there), then a summary per combination.",
        epilog="examples:\n"
        "  npuzzle bench korf100 --ids 1-10 --heuristic lc\n"
        "  npuzzle bench korf100 --ids 1-10 --heuristic lc,wd,pdb:6-6-3 --out runs.csv\n"
        "  npuzzle bench random:3x3:20:1,random:2x4:20:1 --method idastar,astar --heuristic manhattan,lc "
        "--out small.jsonl --plot small.png",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("set", metavar="SET[,SET...]", help=f"the instances: {grid.SETS_HELP}; several comma-separated")
    p.add_argument("--ids", help="instances to run, e.g. 1-10,12 (default: all; in a random set or a file, "
                   "the positions' numbers from 1)")
    p.add_argument("--method", metavar="M[,M...]", help="search methods (" + ", ".join(METHODS)
                   + "; default idastar)")
    p.add_argument("--heuristic", metavar="NAME[,NAME...]",
                   help=HEURISTIC_HELP.rstrip(". ") + "; several comma-separated. Default: manhattan on korf100 "
                   "(whose node counts are then compared with Korf's); on korf50 and kt10 the strongest 5x5 "
                   "pattern databases built (npuzzle tables build pdb:6-6-6-6 --shape 5x5 --goal blank-first, "
                   "about 2 minutes); auto on other sets")
    p.add_argument("--pruning", metavar="P[,P...]", help=PRUNING_HELP + "; several comma-separated")
    p.add_argument("--weight", metavar="W[,W...]", help="weights of weighted A* (--method astar), from 1; "
                   "several comma-separated (default 1)")
    p.add_argument("--cost", metavar="COST[,COST...]", help="the cost of a move: unit (every move costs 1), "
                   "heavy (tile t costs t), inverse (1/t), sqrt (sqrt(t)); see docs/costs.md")
    p.add_argument("--goal", choices=GOALS, help="the goal of a random set or a file's positions (default "
                   "standard); Korf's sets are blank-first, turned 180 degrees onto the standard goal if it is "
                   "asked for (the same lengths, other node counts)")
    add_timeout(p, "limit per instance (per run in a grid: a run stopped by it has status limit)")
    add_json(p, "print one JSON record per instance (per run in a grid) and a summary record (docs/json.md)")
    p.add_argument("--out", metavar="FILE", help="write one row per run to FILE, .csv or .jsonl (by the name), "
                   "each as soon as it is known; if FILE holds rows of the same grid, their runs are skipped "
                   "(resume)")
    p.add_argument("--plot", metavar="FILE", help="draw the nodes expanded per instance and combination, on a "
                   "log scale, to FILE (.png, .svg, ...; needs matplotlib: pip install 'npuzzle[plot]')")
    add_parallel(p, "the instances are solved one per process (the serial results, in order)")
    _add_provenance(p)


def _add_provenance(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-host", action="store_true", help="leave the host name out of --out's sidecar "
                   "FILE.meta.json (the npuzzle version and commit, Python, numba and numpy versions, CPU, "
                   "date, command line, limits and sets of the runs)")
    p.add_argument("--allow-mixed-runs", action="store_true", help="add rows to an --out FILE made by "
                   "another npuzzle version or commit, with another --timeout or other positions under a "
                   "set's name (refused otherwise: the rows would not be comparable); the sidecar records it")


def run(args: argparse.Namespace) -> int:
    if _is_grid(args):
        return _run_grid(args)
    from .. import benchmark
    from ..cluster import workers

    try:
        ids = benchmark.parse_ids(args.ids, args.set)
    except ValueError as e:
        raise NPuzzleError(f"bad --ids {quote_input(args.ids)}: {e}") from None
    axes = grid.parse_axes({"method": args.method, "heuristic": args.heuristic, "pruning": args.pruning})
    _note_weight_one([name for name in axes["method"][:1] if grid.takes_weight(name)])
    live = Live(quiet=False)  # a status line on a terminal while an instance is searched
    try:
        with workers(args.jobs, args.scheduler, args.oversubscribe) as executor, live.running():
            the_plan = benchmark.plan(args.set, ids, method=axes["method"][0], heuristic=axes["heuristic"][0],
                                      pruning=axes["pruning"][0])
            rows = benchmark.report(the_plan, timeout=args.timeout, as_json=args.json, executor=executor,
                                    out=_ClearingOut(live), on_progress=live.callback())
    except ValueError as e:
        raise NPuzzleError(str(e)) from None
    if any(not r.solution.solved for r in rows):
        return EXIT_LIMIT
    return EXIT_OK if all(r.length_ok and r.nodes_ok is not False for r in rows) else EXIT_INPUT


def _note_weight_one(methods: list[str]) -> None:
    if methods:
        print(f"note: {', '.join(methods)} at weight 1 (optimal answers, the slowest); give --weight W "
              "(e.g. 1.5) for bounded-suboptimal runs", file=sys.stderr)


def _is_grid(args: argparse.Namespace) -> bool:
    """Whether the arguments ask for a grid: lists, a set other than korf100 and korf50, a weight,
    a cost, a goal, an output file or a plot (else the single run of ``benchmark.run``)."""
    lists = any("," in (getattr(args, name) or "") for name in ("set", "method", "heuristic", "pruning"))
    return (lists or args.set not in BENCHMARK_SETS or any(
        getattr(args, name) is not None for name in ("weight", "cost", "goal", "out", "plot")))


def _run_grid(args: argparse.Namespace) -> int:
    from ..cluster import workers
    from ..present import grid as present

    runs, results, count = _grid_plan(args)
    if args.plot:
        check_writable(args.plot)
        stats.pyplot()  # fail before solving if matplotlib is missing
    names = grid.shown(runs)
    live = Live(quiet=False)
    out = _ClearingOut(live)

    def on_row(values: dict[str, Any]) -> None:
        out.write(present.jsonl_line(values) if args.json else present.run_text(values, names) + "\n")
        out.flush()

    pending = len(runs) - _already(runs, results)
    _note_weight_one(grid.at_weight_one(runs) if args.weight is None else [])
    if not args.json:
        out.write(present.grid_head_text(len(count), len({repr(p.combo) for p in runs}), len(runs),
                                         len(runs) - pending, args.out,
                                         results.discarded if results is not None else 0) + "\n")
    with workers(args.jobs, args.scheduler, args.oversubscribe) as executor, live.running():
        done = grid.run(runs, results=results, timeout=args.timeout, executor=executor,
                        on_progress=live.callback() if executor is None else None, on_row=on_row)
    groups = grid.summary(done.rows)
    if args.json:
        out.write(json.dumps(present.summary_record(groups, len(done.rows), done.skipped)) + "\n")
    else:
        out.write(present.summary_text(groups, names) + "\n")
    if args.plot:
        grid.plot(done.rows, args.plot)
    return _grid_status(done.rows)


def _grid_plan(args: argparse.Namespace) -> tuple[list[grid.Planned], grid.Results | None, list[grid.GridSet]]:
    """The grid's runs, its output file (checked) and its sets, from the arguments."""
    from .. import benchmark

    results = grid.Results(args.out) if args.out is not None else None
    if results is not None:
        check_writable(args.out)
    specs = [part.strip() for part in args.set.split(",")]
    sets = [grid.parse_set(spec, args.goal) for spec in specs if spec]
    if not sets:
        raise NPuzzleError(f"no set given in {quote_input(args.set)}: write e.g. korf100 or random:3x3:10:1")
    try:
        largest = max(sets, key=lambda s: len(s.items))  # each set's own ids are checked by grid.selected
        ids = benchmark.parse_ids(args.ids, largest.name, highest=len(largest.items))
    except ValueError as e:
        raise NPuzzleError(f"bad --ids {quote_input(args.ids)}: {e}") from None
    whole, sets = sets, [grid.selected(s, ids) for s in sets]
    axes = grid.parse_axes({name: getattr(args, name) for name in grid.AXIS_NAMES})
    runs = grid.plan(sets, axes)
    if results is not None:
        _write_provenance(args, results, whole, axes)
    return runs, results, sets


def _write_provenance(args: argparse.Namespace, results: grid.Results, sets: list[grid.GridSet],
                      axes: dict[str, list[Any]]) -> None:
    """Check the output file's sidecar against this run and write it (before any row)."""
    from .. import __version__, provenance

    command = getattr(args, "command_line", ["npuzzle", *sys.argv[1:]])
    new = grid.provenance(sets, axes, args.timeout, command, __version__, host=not args.no_host)
    provenance.write(results.path, grid.resumed_provenance(results, new, args.allow_mixed_runs))


def _already(runs: list[grid.Planned], results: grid.Results | None) -> int:
    """How many of the runs the output file holds (its rows, read once, are ``grid.run``'s too)."""
    if results is None:
        return 0
    done = {grid.key(r) for r in results.read()}
    return sum(grid.key({"set": p.item.set, "goal": p.item.goal, "instance": p.item.number, **p.combo}) in done
               for p in runs)


def _grid_status(rows: list[dict[str, Any]]) -> int:
    """The exit status of a grid (``grid.outcome``): 1 if a run failed its check or was refused, else
    3 if a run was stopped by the limit, else 0."""
    return {"failed": EXIT_INPUT, "limit": EXIT_LIMIT}.get(grid.outcome(rows), EXIT_OK)


class _ClearingOut:
    """Standard output that clears the status line before each write."""

    def __init__(self, live: Live) -> None:
        self.live = live

    def write(self, text: str) -> int:
        self.live.clear()
        return sys.stdout.write(text)

    def flush(self) -> None:
        sys.stdout.flush()
