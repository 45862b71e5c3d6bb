"""Benchmark: how long a fresh process takes before it starts searching.

    python bench/startup.py [--heuristic lc] [--runs 5]

Each run is a new Python process that imports npuzzle's command line, numpy and numba, and
loads the cached IDA* kernels (``npuzzle warmup`` or any earlier solve compiles them once);
it prints the wall-clock seconds of each step and the total until the search can start. The
first run after a change of the kernels includes their compilation.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

CHILD = """
import time
t0 = time.perf_counter()
import npuzzle.cli
t1 = time.perf_counter()
import numpy, numba
t2 = time.perf_counter()
from npuzzle.search.idastar import warmup
warmup([{heuristic!r}])
t3 = time.perf_counter()
print(f"{{t1 - t0:.3f}} {{t2 - t1:.3f}} {{t3 - t2:.3f}} {{t3 - t0:.3f}}")
"""


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--heuristic", default="lc", choices=("manhattan", "lc"))
    p.add_argument("--runs", type=int, default=5)
    a = p.parse_args()
    totals = []
    print("run  npuzzle_cli  numpy+numba  kernels_loaded  total_s")
    for run in range(a.runs):
        out = subprocess.run([sys.executable, "-c", CHILD.format(heuristic=a.heuristic)],
                             capture_output=True, text=True, check=True).stdout.split()
        totals.append(float(out[3]))
        print(f"{run + 1:3d}  {out[0]:>11}  {out[1]:>11}  {out[2]:>14}  {out[3]:>7}")
    print(f"median total {statistics.median(totals):.3f} s until the search starts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
