"""Benchmark: build a pattern database and report CPU seconds, peak memory and size on disk.

    python bench/pdb_build.py 7-8 --goal blank-first
    python bench/pdb_build.py 6-6-3 --shape 4x4 --goal blank-first

Builds into the table store (NPUZZLE_DATA_DIR, else the user cache), replacing any table there.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

from npuzzle.heuristics import pattern_db


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("name", help="partition, e.g. 7-8 or 6-6-3")
    p.add_argument("--shape", default="4x4", help="HxW (default 4x4)")
    p.add_argument("--goal", default="blank-first", help="standard or blank-first (default blank-first)")
    a = p.parse_args()
    h, w = (int(x) for x in a.shape.split("x"))
    start = time.process_time()
    path = pattern_db.build(a.name, h, w, a.goal)
    cpu = time.process_time() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(f"pdb:{a.name} {h}x{w} {a.goal}: {cpu:.1f} s CPU, peak memory {peak / 2**20:,.0f} MiB, "
          f"{path.stat().st_size:,} bytes on disk ({path})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
