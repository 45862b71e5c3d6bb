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
import sys
from typing import TYPE_CHECKING

from ..errors import NPuzzleError, quote_input
from ..instances import BENCHMARK_SETS
from ._options import (
    EXIT_INPUT,
    EXIT_LIMIT,
    EXIT_OK,
    HEURISTIC_HELP,
    add_heuristic,
    add_json,
    add_method,
    add_parallel,
    add_pruning,
    add_timeout,
)
from ._output import Live

if TYPE_CHECKING:
    from ._options import Subparsers


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "bench",
        help="solve a benchmark set (Korf's 100, ...) and check every length and node count",
        description="Solve the instances of a benchmark set, check every length against the "
        "published optimum (and, for IDA* with the Manhattan distance, every node count against "
        "Korf 1985), and print nodes and CPU seconds per instance and in total.",
    )
    p.add_argument("set", choices=BENCHMARK_SETS, help="korf100 (15-puzzle) or korf50 (24-puzzle)")
    p.add_argument("--ids", help="instances to run, e.g. 1-10,12 (default: all)")
    add_method(p, "idastar")
    add_heuristic(p, None, HEURISTIC_HELP.rstrip(". ") + ". Default: manhattan on korf100 (whose node counts are "
                  "then compared with Korf's); on korf50 the strongest 5x5 pattern databases built "
                  "(npuzzle tables build pdb:6-6-6-6 --shape 5x5 --goal blank-first, about 2 minutes)")
    add_pruning(p)
    add_timeout(p, "limit per instance")
    add_json(p, "print one JSON record per instance and a summary record (docs/json.md)")
    add_parallel(p, "the instances are solved one per process (the serial results, in order)")


def run(args: argparse.Namespace) -> int:
    from .. import benchmark
    from ..cluster import workers

    try:
        ids = benchmark.parse_ids(args.ids, args.set)
    except ValueError as e:
        raise NPuzzleError(f"bad --ids {quote_input(args.ids)}: {e}") from None
    live = Live(quiet=False)  # a status line on a terminal while an instance is searched
    try:
        with workers(args.jobs, args.scheduler, args.oversubscribe) as executor, live.running():
            rows = benchmark.run(args.set, ids, method=args.method, heuristic=args.heuristic, timeout=args.timeout,
                                 pruning=args.pruning, as_json=args.json, executor=executor,
                                 out=_ClearingOut(live), on_progress=live.callback())
    except ValueError as e:
        raise NPuzzleError(str(e)) from None
    if any(not r.solution.solved for r in rows):
        return EXIT_LIMIT
    return EXIT_OK if all(r.length_ok and r.nodes_ok is not False for r in rows) else EXIT_INPUT


class _ClearingOut:
    """Standard output that clears the status line before each write."""

    def __init__(self, live: Live) -> None:
        self.live = live

    def write(self, text: str) -> int:
        self.live.clear()
        return sys.stdout.write(text)

    def flush(self) -> None:
        sys.stdout.flush()
