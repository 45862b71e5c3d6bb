"""Benchmark: the vectorised stepper's moves a CPU second (issue 35; target 10 M on 4x4).

    PYTHONPATH=src python bench/stepper.py [--shape 4x4] [--boards 100000] [--calls 50] [--rounds 5]

``--boards`` boards of one shape, first scrambled by 100 random moves, then ``--calls`` calls of
``Boards.step`` with a fresh random action per board (drawn beforehand, outside the timing; about
a quarter are illegal on 4x4 and count as moves tried). Prints, for each of ``--rounds`` rounds,
the actions applied per CPU second (``time.process_time``), then the median; and the same for
``Boards.scramble`` (random walks drawn inside the kernel, every move legal).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from npuzzle.notation import parse_shape
from npuzzle.search.stepper import Boards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shape", default="4x4")
    parser.add_argument("--boards", type=int, default=100_000)
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    h, w = parse_shape(args.shape)
    boards = Boards(h, w, args.boards)
    boards.scramble(100, np.arange(args.boards, dtype=np.uint64))
    actions = np.random.default_rng(1).integers(0, 4, (args.calls, args.boards))
    boards.step(actions[0])  # compile (or load) the kernels outside the timing
    steps, walks = [], []
    for _ in range(args.rounds):
        start = time.process_time()
        for row in actions:
            boards.step(row)
        steps.append(args.calls * args.boards / (time.process_time() - start))
        start = time.process_time()
        boards.scramble(args.calls, np.arange(args.boards, dtype=np.uint64))
        walks.append(args.calls * args.boards / (time.process_time() - start))
    print(f"{args.shape}, {args.boards:,} boards, {args.calls} calls a round")
    print("step:     " + ", ".join(f"{x / 1e6:.0f}" for x in steps) + f" M moves/CPU s; median "
          f"{statistics.median(steps) / 1e6:.0f} M")
    print("scramble: " + ", ".join(f"{x / 1e6:.0f}" for x in walks) + f" M moves/CPU s; median "
          f"{statistics.median(walks) / 1e6:.0f} M")


if __name__ == "__main__":
    main()
