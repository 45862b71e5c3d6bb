"""``npuzzle dataset``: labelled positions for learning systems, written as JSON lines or Parquet.

>>> import os, tempfile
>>> from npuzzle.cli import main
>>> from npuzzle.search.warm import scratch_store
>>> out = os.path.join(tempfile.mkdtemp(), "six.jsonl")
>>> with scratch_store():  # the 2x3 distance table it makes is not kept
...     main(["dataset", "--shape", "2x3", "--count", "3", "--seed", "1", "--out", out])
/...six.jsonl: 3 positions, labelled by bfs-table (optimal)
  ... s (... s CPU)
0
>>> sum(1 for line in open(out))
3
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ._options import EXIT_OK, _whole, add_goal, add_shape, jobs_arg, positive_int, seed_arg

if TYPE_CHECKING:
    from ._options import Subparsers


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "dataset",
        help="write positions labelled with their optimal distance and optimal first moves (.jsonl, .parquet)",
        description="Write COUNT positions, each labelled with its optimal distance and the set of its\n"
        "optimal first moves (the letters U D L R of the tiles that can slide towards the goal on a\n"
        "shortest path).\n\n"
        "  up to 10 cells (3x3)   from the exact distance table\n"
        "  up to 16 cells (4x4)   IDA* with the strongest bound built (first: npuzzle tables build\n"
        "                         pdb:7-8 --shape 4x4 --yes; then about 8,000 positions a CPU minute)\n"
        "  larger boards          a proven lower bound and the length of a solution found, with\n"
        "                         \"optimal\": false\n\n"
        "Rows depend only on the seed: the same file whatever --jobs. A run that stops is resumed by\n"
        "running the same command again (rows go to FILE.part until the data set is complete, then\n"
        "FILE appears whole); a larger --count extends a finished file. Each row is a\n"
        "'labelled-position' record (docs/json.md).",
        epilog="examples:\n  npuzzle dataset --shape 3x3 --count 100000 --seed 1 --out 8puzzle.jsonl\n"
        "  npuzzle dataset --shape 4x4 --count 1000 --seed 1 --walk 30 --jobs 0 --out walks.parquet",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_shape(p, required=True, help="board shape, e.g. 4x4 (height x width)")
    p.add_argument("--count", "-n", type=positive_int, required=True, help="how many positions in the data set")
    p.add_argument("--seed", type=seed_arg, required=True,
                   help="random seed (0..2**63-1): the same seed, the same rows")
    p.add_argument("--out", "-o", required=True, metavar="FILE",
                   help="the data set: FILE.jsonl (JSON lines) or FILE.parquet (needs pyarrow: "
                   "pip install 'npuzzle[parquet]')")
    p.add_argument("--walk", type=walk_arg, metavar="K",
                   help="positions K random moves from the goal (never undoing the last) instead of uniformly "
                   "random solvable ones")
    p.add_argument("--jobs", "-j", type=jobs_arg, default=1, metavar="N",
                   help="worker processes (0 = every core; default 1); the rows do not depend on it")
    add_goal(p)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar on stderr")


def walk_arg(text: str) -> int:
    """A random walk's length: 0..``instances.MAX_WALK`` moves."""
    from ..instances import MAX_WALK

    return _whole(text, 0, MAX_WALK, "a walk's length")


def run(args: argparse.Namespace) -> int:
    from ..dataset import Spec, write
    from ..present.dataset import summary_text

    h, w = args.shape
    summary = write(Spec(h, w, args.seed, args.walk, args.goal), args.count, args.out, jobs=args.jobs,
                    progress=not args.quiet)
    print(summary_text(summary))
    return EXIT_OK
