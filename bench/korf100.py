"""Benchmark: solve Korf's 100 15-puzzle instances (or a subset) and check every result.

    python bench/korf100.py --heuristic manhattan --ids 1-10
    python bench/korf100.py --heuristic lc
    python bench/korf100.py --heuristic pdb:7-8 --repeat 5

Prints one line per instance (length, published optimum, nodes generated, CPU seconds, node
rate) and a total. With the Manhattan distance the node counts are compared with Korf (1985).
Exit status 1 if any length differs from the published optimum or a node count from Korf's.
"""

from __future__ import annotations

import argparse
import sys

from npuzzle.benchmark import parse_ids, run


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--set", default="korf100", help="benchmark set (korf100, korf50)")
    p.add_argument("--ids", help="instances, e.g. 1-10,12 (default: all)")
    p.add_argument("--method", default="idastar")
    p.add_argument("--heuristic", default="manhattan")
    p.add_argument("--pruning", default="auto", help="IDA*'s duplicate pruning: auto, parent or fsm")
    p.add_argument("--timeout", type=float, help="seconds per instance")
    p.add_argument("--repeat", type=int, default=1,
                   help="solve each instance this many times and keep its least CPU time (default 1)")
    a = p.parse_args()
    rows = run(a.set, parse_ids(a.ids), method=a.method, heuristic=a.heuristic, timeout=a.timeout,
               repeat=a.repeat, pruning=a.pruning)
    bad = [r for r in rows if not r.length_ok or r.nodes_ok is False]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
