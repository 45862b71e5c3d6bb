"""The same input gives the same answer: ``npuzzle solve``'s default on boards the beam search
takes, run twice in fresh processes, once alone and once with both cores kept busy by two other
processes, and the answers compared move by move.

For each size and seed: the length, the length over the Manhattan distance, the CPU seconds of
each run (the busy run's are longer or noisier; its answer must not change) and whether the
moves are identical. Exit status 1 if any pair differs.

    PYTHONPATH=src python bench/deterministic.py --sizes 5 7 10 20 24 --seeds 2
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

from npuzzle.instances import scramble

BURN = "import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end: pass\n"


def solve(position: str, shape: str) -> tuple[list[int], float]:
    """The default answer's moves and the CPU seconds of its process (``npuzzle solve --json``)."""
    before = os.times()
    out = subprocess.run([sys.executable, "-m", "npuzzle", "solve", position, "--shape", shape, "--json", "--quiet"],
                         check=True, capture_output=True, text=True).stdout
    after = os.times()
    record = json.loads(out)
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return record["moves"], cpu


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[5, 7, 10, 20, 24], help="sides of the random boards")
    p.add_argument("--seeds", type=int, default=2, help="boards per size (scramble --seed 1..K)")
    args = p.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; {time.strftime('%Y-%m-%d %H:%M')}\n")
    print("| board | seed | length | length / MD | CPU s alone | CPU s busy | same moves |")
    print("|---|---|---|---|---|---|---|")
    differing = 0
    for n in args.sizes:
        for seed in range(1, args.seeds + 1):
            board = scramble(n, n, 1, seed=seed)[0]
            position, shape = " ".join(map(str, board.tiles)), f"{n}x{n}"
            alone, cpu_alone = solve(position, shape)
            burners = [subprocess.Popen([sys.executable, "-c", BURN.format(seconds=600)]) for _ in range(2)]
            try:
                busy, cpu_busy = solve(position, shape)
            finally:
                for proc in burners:
                    proc.kill()
                    proc.wait()
            same = alone == busy
            differing += not same
            print(f"| {n}x{n} | {seed} | {len(alone):,} | {len(alone) / board.manhattan():.3f} | {cpu_alone:.2f} | "
                  f"{cpu_busy:.2f} | {'yes' if same else 'NO'} |", flush=True)
    print(f"\npairs that differ: {differing}")
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())
