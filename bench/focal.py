"""Bounded-suboptimal searches on Korf's 100 15-puzzle instances: weighted A*, focal search and
dynamic potential search (DPS) with the same bound W.

For each heuristic and weight, every instance is solved by each method in turn (the order
reversed from one instance to the next, so the machine's load falls on all alike), toward the
blank-first goal as ``npuzzle bench`` uses it, each within the same node and memory limits.
Prints one Markdown row per method: instances solved within the limits, total nodes expanded
and generated, CPU seconds (the search's own, all instances, stopped ones included), the mean
and worst length / optimum and the mean proven ratio (length / the lower bound the search
proved) over the instances every method solved, and whether the bound W held on all.

    PYTHONPATH=src python bench/focal.py --heuristics manhattan lc --weights 1.5 2 3
"""

from __future__ import annotations

import argparse
import platform
import time
from dataclasses import dataclass, field

import numba

from npuzzle.board import Board
from npuzzle.instances import benchmark_set
from npuzzle.search.astar import run_astar
from npuzzle.search.focal import run_focal
from npuzzle.search.limits import Limit, Solution

METHODS = ("weighted A*", "focal", "dps")


@dataclass
class Tally:
    """One method's sums over the instances."""

    solved: dict[int, Solution] = field(default_factory=dict)
    expanded: int = 0
    generated: int = 0
    cpu: float = 0.0


def solve(method: str, board: Board, goal: str, heuristic: str, weight: float, limit: Limit) -> Solution:
    if method == "weighted A*":
        return run_astar(board, goal=goal, heuristic=heuristic, weight=weight, limit=limit).solution
    return run_focal(board, goal=goal, heuristic=heuristic, weight=weight, limit=limit, method=method).solution


def table(heuristic: str, weight: float, limit: Limit) -> None:
    instances = benchmark_set("korf100")
    tallies = {m: Tally() for m in METHODS}
    for k, inst in enumerate(instances):
        for method in (METHODS if k % 2 == 0 else METHODS[::-1]):
            start = time.process_time()
            sol = solve(method, inst.board, str(inst.goal), heuristic, weight, limit)
            t = tallies[method]
            t.cpu += time.process_time() - start
            t.expanded += sol.stats.expanded
            t.generated += sol.stats.generated
            if sol.solved:
                t.solved[inst.id] = sol
    common = set.intersection(*(set(t.solved) for t in tallies.values()))
    optimum = {inst.id: inst.optimal_length for inst in instances}
    for method, t in tallies.items():
        ratios = [(t.solved[i].length or 0) / optimum[i] for i in sorted(common)]
        proven = [t.solved[i].ratio or 0.0 for i in sorted(common)]
        held = all(optimum[i] <= (s.length or 0) <= weight * optimum[i] and s.lower_bound <= optimum[i]
                   for i, s in t.solved.items())
        mean = sum(ratios) / len(ratios) if ratios else float("nan")
        print(f"| {heuristic} | {weight:g} | {method} | {len(t.solved)}/{len(instances)} | {t.expanded:,} "
              f"| {t.generated:,} | {t.cpu:.2f} | {mean:.4f} | {max(ratios, default=float('nan')):.4f} "
              f"| {sum(proven) / max(len(proven), 1):.4f} | {'yes' if held else 'NO'} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--heuristics", nargs="+", default=["manhattan", "lc"])
    parser.add_argument("--weights", nargs="+", type=float, default=[1.5, 2.0, 3.0])
    parser.add_argument("--max-nodes", type=int, default=1_000_000, help="nodes generated per search")
    parser.add_argument("--max-memory-mib", type=int, default=1024, help="memory limit of each search")
    args = parser.parse_args(argv)
    warm = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))
    for heuristic in args.heuristics:  # compile or load the kernels first
        for method in METHODS:
            solve(method, warm, "standard", heuristic, 1.5, Limit())
    limit = Limit(max_nodes=args.max_nodes, max_memory=args.max_memory_mib << 20)
    print(f"<!-- {platform.python_version()}, numba {numba.__version__}, {time.strftime('%Y-%m-%d %H:%M')} UTC, "
          f"max {args.max_nodes:,} nodes -->")
    print("| heuristic | W | method | solved | expanded | generated | CPU s | mean length / optimum (common) "
          "| worst | mean length / proven bound | bound W held |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for heuristic in args.heuristics:
        for weight in args.weights:
            table(heuristic, weight, limit)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
