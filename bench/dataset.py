"""Benchmark: labelled positions written a CPU second by ``npuzzle dataset`` (issue 35; targets
100,000 3x3 positions a CPU second, 1,000 optimally labelled 4x4 positions a CPU minute with
pdb:7-8 built).

    PYTHONPATH=src NPUZZLE_DATA_DIR=... python bench/dataset.py [--shape 3x3] [--count 100000] [--seed 1] [--walk K]

Runs ``dataset.write`` in this process (one job) into a fresh temporary file, after labelling one
position (so the kernels are compiled or loaded and the tables mapped outside the timing), and
prints the positions written, the CPU seconds (``time.process_time``) and the rate, with the
labeller (``idastar/pdb:7-8`` on 4x4 once that table is built: ``npuzzle tables build pdb:7-8
--shape 4x4 --yes``). The whole command, startup included, is ``npuzzle dataset`` with the same
options under ``/usr/bin/time``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from npuzzle.dataset import Spec, write
from npuzzle.notation import parse_shape
from npuzzle.search import labels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shape", default="3x3")
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--walk", type=int)
    args = parser.parse_args()
    h, w = parse_shape(args.shape)
    labels.prepare(h, w)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.process_time()
        summary = write(Spec(h, w, args.seed, args.walk), args.count, Path(tmp) / "bench.jsonl", progress=False)
        cpu = time.process_time() - start
    print(f"{args.shape} {'uniform' if args.walk is None else f'walk {args.walk}'}: {summary.count:,} positions "
          f"by {summary.method} in {cpu:.3f} s CPU ({summary.wall_seconds:.3f} s wall): "
          f"{summary.count / cpu:,.0f} a CPU second, {60 * summary.count / cpu:,.0f} a CPU minute")


if __name__ == "__main__":
    main()
