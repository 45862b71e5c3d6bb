"""Benchmark of the real-time solvers on large random (or worst-case) n x n boards.

Every solution is stored packed (2 bits a move) and replayed by the verification kernel, which
also counts the wasted moves (those that raise the Manhattan distance).

    PYTHONPATH=src python bench/realtime.py --sizes 100 1000 --seeds 1
"""

from __future__ import annotations

import argparse
import resource
import time

from npuzzle import Board
from npuzzle.instances import parberry_worst, random_board
from npuzzle.search.realtime import parberry_bound, realtime_count, realtime_packed, realtime_report
from npuzzle.search.registry import REALTIME_METHODS


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[100], help="board sides n (n x n boards)")
    p.add_argument("--seeds", type=int, default=1, help="random boards per size (seeds 0..k-1)")
    p.add_argument("--methods", nargs="+", default=list(REALTIME_METHODS), choices=REALTIME_METHODS)
    p.add_argument("--worst", action="store_true", help="Theorem 2's worst case instead of random boards")
    p.add_argument("--count-only", action="store_true", help="count the moves without storing or replaying them")
    args = p.parse_args(argv)
    realtime_count(random_board(5, 5, 0))  # compile (or load) the kernels outside the timings
    print("| n | board | method | moves | moves/n^3 | moves/MD | wasted | bound | solve CPU s | replay CPU s "
          "| max RSS MB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for n in args.sizes:
        for seed in range(1 if args.worst else args.seeds):
            board: Board = parberry_worst(n) if args.worst else random_board(n, n, seed)
            name = "worst" if args.worst else f"random seed {seed}"
            for method in args.methods:
                t0 = time.process_time()
                if args.count_only:
                    moves = realtime_count(board, method=method)
                    t1 = time.process_time()
                    report = realtime_report(board, moves)
                else:
                    packed = realtime_packed(board, method=method)
                    t1 = time.process_time()
                    report = realtime_report(board, packed)  # replays and checks the moves
                t2 = time.process_time()
                rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                wasted = "-" if report["wasted"] is None else str(report["wasted"])
                print(
                    f"| {n} | {name} | {method} | {report['moves']} | {report['moves_per_n3']:.4f} | "
                    f"{report['moves_per_manhattan']:.4f} | {wasted} | {parberry_bound(n)} | {t1 - t0:.2f} | "
                    f"{t2 - t1 if not args.count_only else 0:.2f} | {rss:.0f} |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
