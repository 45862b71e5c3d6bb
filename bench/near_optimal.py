"""Benchmark the short answers beyond 4x4 (``npuzzle solve``'s default there: the beam search
within its budget of nodes, or of CPU seconds with ``--budget``) against the optimum where it is
known and the Manhattan distance. ``--repeat`` solves every board a second time and counts the
answers that differ (none may with the default budget of nodes).

Part 1: Korf & Felner's 50 24-puzzles (blank-first goal, optimal lengths published): mean length
over the mean optimum, the worst ratio, CPU seconds per board. Part 2: random boards of the
sizes given (``scramble --shape NxN --seed 1..K``, standard goal): length over Manhattan distance
and CPU seconds per board. Part 3 (``--random5 N``): N uniformly random 5x5 boards (seed 1):
mean length. Every answer is replayed and checked by ``solve``. Prints Markdown tables.

``--fixed-width W`` instead runs one round of line beams of width ``W`` (``search.beam._round``,
no budget, no size limit) on the random boards of the sizes given, beside the real-time greedy
answer the beam search starts from: how the beam's answers scale with the board.

    PYTHONPATH=src python bench/near_optimal.py --sizes 6 7 8 9 10 --seeds 5
    PYTHONPATH=src python bench/near_optimal.py --budget 1 --sizes 6 7 8 9 10 --seeds 5
    PYTHONPATH=src python bench/near_optimal.py --budget 1 --random5 1000 --skip-korf --sizes
    PYTHONPATH=src python bench/near_optimal.py --fixed-width 128 --sizes 32 40 48 --seeds 3
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np

from npuzzle import Board, solve
from npuzzle.instances import benchmark_set, scramble
from npuzzle.search import beam
from npuzzle.search.beam import Allowance, beam_solve
from npuzzle.search.limits import Clock, Limit
from npuzzle.search.realtime import realtime_array
from npuzzle.search.registry import DEFAULT_NODES

#: Boards whose two answers differed (``--repeat``).
DIFFERENT: list[str] = []
REPEAT = False
#: ``--nodes``: the budget of nodes (None: the default).
NODES: int | None = None


def label(budget: float | None) -> str:
    return f"{NODES or DEFAULT_NODES:,} nodes" if budget is None else f"{budget:g} s"


def timed_solve(board: Board, goal: str, budget: float | None) -> tuple[list[int], float]:
    """The default answer's moves and its CPU seconds; with ``--repeat``, solved again and compared."""
    t = time.process_time()
    s = solve(board, goal=goal, budget=budget, max_nodes=NODES)
    cpu = time.process_time() - t
    if REPEAT and solve(board, goal=goal, budget=budget, max_nodes=NODES).moves != s.moves:
        DIFFERENT.append(f"{board.height}x{board.width} {board.tiles[:6]}...")
    return list(s.moves), cpu


def korf50(budget: float | None) -> None:
    rows = benchmark_set("korf50")
    total = optimal = 0
    worst = 0.0
    cpu = 0.0
    for inst in rows:
        moves, seconds = timed_solve(inst.board, inst.goal, budget)
        cpu += seconds
        total += len(moves)
        optimal += inst.optimal_length
        worst = max(worst, len(moves) / inst.optimal_length)
    print("| set | budget | mean length | mean optimum | ratio | worst ratio | CPU s / board |")
    print("|---|---|---|---|---|---|---|")
    print(f"| Korf & Felner 50 (5x5) | {label(budget)} | {total / len(rows):.2f} | {optimal / len(rows):.2f} | "
          f"{total / optimal:.4f} | {worst:.3f} | {cpu / len(rows):.2f} |")


def solve_all(boards: list[Board], budget: float | None) -> tuple[int, int, float]:
    """Total length, total Manhattan distance and CPU seconds of the default answers."""
    total = md = 0
    cpu = 0.0
    for board in boards:
        moves, seconds = timed_solve(board, "standard", budget)
        cpu += seconds
        total += len(moves)
        md += board.manhattan()
    return total, md, cpu


def sizes(budget: float | None, sides: list[int], seeds: int) -> None:
    print("| board | budget | boards | mean length | mean Manhattan | length / MD | CPU s / board |")
    print("|---|---|---|---|---|---|---|")
    for n in sides:
        boards = [scramble(n, n, 1, seed=seed)[0] for seed in range(1, seeds + 1)]
        total, md, cpu = solve_all(boards, budget)
        print(f"| {n}x{n} | {label(budget)} | {len(boards)} | {total / len(boards):.1f} | {md / len(boards):.1f} | "
              f"{total / md:.3f} | {cpu / len(boards):.2f} |", flush=True)


def random5(budget: float | None, count: int) -> None:
    total, md, cpu = solve_all(scramble(5, 5, count, seed=1), budget)
    print("| set | budget | boards | mean length | mean Manhattan | CPU s / board |")
    print("|---|---|---|---|---|---|")
    print(f"| random 5x5 (seed 1) | {label(budget)} | {count} | {total / count:.2f} | {md / count:.2f} | "
          f"{cpu / count:.2f} |")


def fixed_width(width: int, sides: list[int], seeds: int) -> None:
    """One round of line beams of ``width`` per board (any size): its length over the Manhattan
    distance beside the real-time greedy answer's, and its CPU seconds."""
    print("| board | seed | width | beam / MD | greedy / MD | beam CPU s | children |")
    print("|---|---|---|---|---|---|---|")
    for n in sides:
        for seed in range(1, seeds + 1):
            board = scramble(n, n, 1, seed=seed)[0]
            greedy = realtime_array(board, method="greedy")
            run = beam._Run(np.zeros(2 * len(greedy), np.uint8))  # any answer up to twice as long is kept
            t = time.process_time()
            outcome = beam._round(board, width, run, Allowance(Clock(Limit()), None, None))  # no budget
            cpu = time.process_time() - t
            md = board.manhattan()
            found = f"{len(run.directions) / md:.4f}" if outcome == beam.DONE and len(run.directions) < 2 * len(
                greedy) else "a line's beam died out"
            print(f"| {n}x{n} | {seed} | {width} | {found} | {len(greedy) / md:.4f} | {cpu:.1f} | "
                  f"{run.generated:,} |", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--budget", type=float, help="the beam search's budget in CPU seconds (default: its "
                   "budget of nodes)")
    p.add_argument("--nodes", type=int, help="the beam search's budget of nodes (default: DEFAULT_NODES)")
    p.add_argument("--repeat", action="store_true", help="solve every board twice and count differing answers")
    p.add_argument("--sizes", type=int, nargs="*", default=[6, 7, 8, 9, 10], help="sides of the random boards")
    p.add_argument("--seeds", type=int, default=5, help="random boards per size")
    p.add_argument("--random5", type=int, default=0, help="also this many random 5x5 boards")
    p.add_argument("--skip-korf", action="store_true", help="leave out Korf & Felner's 50")
    p.add_argument("--fixed-width", type=int, default=0, metavar="W",
                   help="only one round of line beams of width W on the sizes given (any size)")
    args = p.parse_args()
    global REPEAT, NODES
    REPEAT, NODES = args.repeat, args.nodes
    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}; "
          f"{time.strftime('%Y-%m-%d %H:%M')}\n")
    beam_solve(scramble(3, 3, 1, seed=1)[0], budget=0.1)  # loads the kernels
    if args.fixed_width:
        fixed_width(args.fixed_width, args.sizes, args.seeds)
        return
    if not args.skip_korf:
        korf50(args.budget)
        print()
    if args.sizes:
        sizes(args.budget, args.sizes, args.seeds)
        print()
    if args.random5:
        random5(args.budget, args.random5)
    if args.repeat:
        print(f"\nanswers that differed on the second run: {len(DIFFERENT)}", *DIFFERENT, sep="\n")


if __name__ == "__main__":
    main()
