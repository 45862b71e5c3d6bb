"""``npuzzle warmup``: compile the search kernels (or load them from numba's cache) ahead of use."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING

from ._options import EXIT_OK, add_quiet

if TYPE_CHECKING:
    from ._options import Subparsers


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "warmup",
        help="compile every search's kernels now (cached on disk), so later runs start at once",
        description="Compile every numba kernel a search can use (or load it from numba's on-disk cache): "
                    "IDA* with every lower bound and pruning, its split kernels, A*, weighted A*, A*+IDA*, "
                    "the beam search, both real-time methods and the BFS tables. A line on stderr for each "
                    "family, with its CPU time.",
    )
    add_quiet(p)


def run(args: argparse.Namespace) -> int:
    from ..search import warmup

    def started(family: str, what: str) -> None:
        if not args.quiet:
            print(f"npuzzle warmup: {family}" + (f" ({what})" if what else "") + "...", end=" ", file=sys.stderr,
                  flush=True)

    def done(family: str, cpu: float) -> None:
        if not args.quiet:
            print(f"{cpu:.1f} s CPU", file=sys.stderr, flush=True)

    start, cpu = time.perf_counter(), time.process_time()
    warmup(started, done)
    print(f"kernels ready ({time.perf_counter() - start:.1f} s, {time.process_time() - cpu:.1f} s CPU)")
    return EXIT_OK
