"""Benchmark: the analysis of a solve (``npuzzle.analyze``, issue 32).

    PYTHONPATH=src python bench/analyze.py [--shape 4x4] [--seeds 10] [--length 100]

For each seed, a random-state scramble (``instances.scramble``) and a player's solve of it: the
real-time solver's answer (greedy, not optimal), with detours (a random move and its undo, at a
random step: two mistakes' worth of work each) added until it has ``--length`` moves. Each solve
is analysed in this process with nothing remembered from the others (the analysis's memory is
cleared), after one analysis that is not timed (numba's kernels loaded, tables read). It prints
the CPU seconds of each analysis, then the median and the largest.

The table store is ``$NPUZZLE_DATA_DIR``: with ``pdb:6-6-3`` built there
(``npuzzle tables build pdb:6-6-3 --shape 4x4 --yes``) a 4x4 analysis uses it; without, the
walking and inversion distances (``wd+id``, their tables made in well under a second).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from npuzzle import analyze, solve
from npuzzle.board import Board
from npuzzle.instances import scramble
from npuzzle.notation import parse_shape
from npuzzle.search import oracle


def player_solve(board: Board, length: int, rng: random.Random) -> list[int]:
    """The real-time answer, with detours (a move and its undo) until ``length`` moves."""
    moves = list(solve(board, method="realtime").moves)
    while len(moves) + 2 <= length:
        k = rng.randrange(len(moves) + 1)
        tile = rng.choice(board.apply(moves[:k]).movable_tiles())
        moves[k:k] = [tile, tile]
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shape", default="4x4")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--length", type=int, default=100)
    args = parser.parse_args()
    h, w = parse_shape(args.shape)
    boards = scramble(h, w, args.seeds + 1, seed=1)
    rng = random.Random(1)
    solves = [(b, player_solve(b, args.length, rng)) for b in boards]
    analyze(*solves[0])  # not timed: kernels loaded, tables read
    times = []
    for seed, (board, moves) in enumerate(solves[1:], 1):
        oracle._MEMORY.clear()
        cpu = time.process_time()
        a = analyze(board, moves)
        times.append(time.process_time() - cpu)
        print(f"seed {seed:2}: {a.length} moves, optimal {a.start_distance}, {len(a.mistakes)} mistakes, "
              f"{a.method} {a.heuristic}: {times[-1]:.3f} s CPU", flush=True)
    print(f"{args.shape}, {len(times)} solves of about {args.length} moves: median {statistics.median(times):.3f} s "
          f"CPU, largest {max(times):.3f} s")


if __name__ == "__main__":
    main()
