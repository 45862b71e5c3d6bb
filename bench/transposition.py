"""Benchmark: Knuth's transposition example ``159d26ae37bf48c0`` (72 moves), solved optimally.

    python bench/transposition.py pdb:7-8
    python bench/transposition.py pdb:7-8 pdb:6-6-3+wd

Prints, per heuristic, the initial bound, the length, nodes generated and CPU seconds (tables
loaded and kernels compiled before timing).
"""

from __future__ import annotations

import argparse
import sys

from npuzzle.notation import parse_knuth
from npuzzle.search.idastar import idastar


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("heuristics", nargs="+", metavar="HEURISTIC")
    p.add_argument("--position", default="159d26ae37bf48c0", help="16 hex digits (standard goal)")
    a = p.parse_args()
    board = parse_knuth(a.position)
    for name in a.heuristics:
        idastar(board.move(board.movable_tiles()[0]), heuristic=name)  # load tables, compile
        s = idastar(board, heuristic=name)
        h0 = s.stats.iterations[0].threshold if s.stats.iterations else 0
        print(f"{name}: first threshold {h0}, length {s.length} (optimal {s.optimal}), "
              f"{s.stats.generated:,} nodes generated, {s.stats.seconds:.2f} s CPU"
              + (f"; {s.note}" if s.note else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
