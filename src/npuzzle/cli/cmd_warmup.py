"""``npuzzle warmup``: compile the search kernels (or load them from numba's cache) ahead of use."""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

from ._options import EXIT_OK, add_quiet
from ._output import Live

if TYPE_CHECKING:
    from ._options import Subparsers


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "warmup",
        help="compile the search kernels now (cached on disk), so later runs start at once",
        description="Compile every numba kernel (or load it from numba's on-disk cache).",
    )
    add_quiet(p)


def run(args: argparse.Namespace) -> int:
    from ..search import warmup

    start = time.perf_counter()
    with Live(args.quiet).running():
        warmup()
    print(f"kernels ready ({time.perf_counter() - start:.1f} s)")
    return EXIT_OK
