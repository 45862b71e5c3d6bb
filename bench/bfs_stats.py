"""Benchmark: exhaustive BFS of a board, Knuth's happy-move count, optimal lengths of samples.

    python bench/bfs_stats.py bfs --shape 3x4 [--save] [--solve 100]
    python bench/bfs_stats.py happy
    python bench/bfs_stats.py sample --shape 3x3 --count 1000 --seed 1

CPU seconds are ``time.process_time``; memory is the peak resident set (``ru_maxrss``). Results
are compared with tests/data/known_counts.txt and with Knuth's figures.
"""

from __future__ import annotations

import argparse
import random
import resource
import time
from pathlib import Path

from npuzzle import Board
from npuzzle import stats as st
from npuzzle.cli._output import ProgressBar
from npuzzle.meters import reporting
from npuzzle.notation import parse_shape
from npuzzle.search import bfs
from npuzzle.search.idastar import idastar

KNOWN = Path(__file__).resolve().parents[1] / "tests" / "data" / "known_counts.txt"
KNUTH_TOTAL, KNUTH_DEEPEST, KNUTH_AT_DEEPEST = 88_728_779, 56, 114


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def known(label: str) -> list[int] | None:
    for line in KNOWN.read_text().splitlines():
        if line.startswith(f"dist {label} "):
            return [int(c) for c in line.split(" : ")[1].split()]
    return None


def run_bfs(args: argparse.Namespace) -> None:
    h, w = parse_shape(args.shape)
    bfs.distribution(2, 2)  # compile (or load) the kernels outside the measurement
    blank = bfs.goal_blank(h, w)
    sp = bfs.space(h, w, blank)
    t0 = time.process_time()
    table, counts = bfs.run_bfs(sp, progress=True)
    cpu = time.process_time() - t0
    label = f"{h}x{w}_{st.blank_class(h, w, blank)}"
    print(st.format_distribution(label, counts))
    print(f"# {st.summary(counts)}")
    expected = known(label)
    print(f"known_counts.txt {label}: " + ("no line" if expected is None else
          "EQUAL" if expected == counts else "DIFFERENT"))
    print(f"BFS: {sum(counts):,} positions, {len(counts) - 1} levels, {cpu:.1f} CPU s, "
          f"table {table.nbytes:,} bytes, peak RSS {peak_mb():.0f} MB")
    if not args.save:
        return
    t0 = time.process_time()
    path = bfs.save_distance_table(h, w, blank, table, counts)
    print(f"saved {path} in {time.process_time() - t0:.2f} CPU s")
    del table
    rng = random.Random(args.seed)
    boards = [st.random_board(h, w, rng) for _ in range(args.solve)]
    bfs.table_solve(boards[0])  # first load verifies the checksum
    t0 = time.process_time()
    lengths = [bfs.table_solve(b).length for b in boards]
    cpu = time.process_time() - t0
    print(f"table_solve: {len(boards)} random positions, {1000 * cpu / len(boards):.3f} CPU ms each, "
          f"mean length {sum(lengths) / len(lengths):.2f}")
    t0 = time.process_time()
    checked = [idastar(b, heuristic="lc").length for b in boards[: args.check]]
    print(f"IDA*+LC on the first {len(checked)}: {time.process_time() - t0:.1f} CPU s, "
          f"lengths {'EQUAL' if checked == lengths[: len(checked)] else 'DIFFERENT'}")


def run_happy(args: argparse.Namespace) -> None:
    h, w = parse_shape(args.shape)
    bfs.happy_count(False, height=2, width=2)
    t0 = time.process_time()
    counts = bfs.happy_count(True, height=h, width=w)
    cpu = time.process_time() - t0
    total, top = sum(counts), len(counts) - 1
    print("happy counts by distance: " + " ".join(map(str, counts)))
    print(f"total {total:,} (goal included), {total - 1:,} without the goal; largest distance {top} "
          f"with {counts[top]:,}; {cpu:.1f} CPU s, peak RSS {peak_mb():.0f} MB")
    if (h, w) == (4, 4):
        print(f"Knuth: {KNUTH_TOTAL:,} positions, {KNUTH_AT_DEEPEST} at {KNUTH_DEEPEST}; ours without the goal: "
              + ("EQUAL" if (total - 1, top, counts[top]) == (KNUTH_TOTAL, KNUTH_DEEPEST, KNUTH_AT_DEEPEST)
                 else "DIFFERENT"))
        example = Board(4, 4, tuple(int(c, 16) for c in "bc9e80df3412a756"))
        print(f"Knuth's example bc9e80df3412a756: Manhattan {example.manhattan()}")


def run_sample(args: argparse.Namespace) -> None:
    h, w = parse_shape(args.shape)
    st.sample_lengths(2, 2, 1, seed=0, progress=False)
    t0 = time.process_time()
    lengths = st.sample_lengths(h, w, args.count, seed=args.seed, progress=True)
    cpu = time.process_time() - t0
    counts = st.histogram(lengths)
    print("counts by length: " + " ".join(map(str, counts)))
    print(f"{args.count} random {h}x{w}: mean {sum(lengths) / len(lengths):.3f}, max {max(lengths)}, "
          f"{cpu:.1f} CPU s")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="what", required=True)
    b = sub.add_parser("bfs", help="full BFS of a board of at most 12 cells")
    b.add_argument("--shape", default="3x4")
    b.add_argument("--save", action="store_true", help="save the table, then time table_solve")
    b.add_argument("--solve", type=int, default=100, help="random positions for table_solve (with --save)")
    b.add_argument("--check", type=int, default=10, help="of those, how many to re-solve with IDA*")
    b.add_argument("--seed", type=int, default=1)
    hp = sub.add_parser("happy", help="positions solvable by happy moves only")
    hp.add_argument("--shape", default="4x4")
    s = sub.add_parser("sample", help="optimal lengths of random positions")
    s.add_argument("--shape", default="3x3")
    s.add_argument("--count", type=int, default=1000)
    s.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    with reporting(ProgressBar):  # the command line's progress bar, on a terminal
        {"bfs": run_bfs, "happy": run_happy, "sample": run_sample}[args.what](args)


if __name__ == "__main__":
    main()
