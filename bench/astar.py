"""Benchmark A* and weighted A* on Korf's 100 random 15-puzzle instances.

Part 1 solves the easiest instances (fewest IDA* nodes in Korf 1985) optimally and reports
expanded and generated nodes, CPU seconds, nodes stored and the bytes of arrays held. Part 2
runs weighted A* on every instance and compares the lengths with the optimal ones. Prints
Markdown tables (the form used in docs/benchmarks.md).

    PYTHONPATH=src python bench/astar.py --easiest 10 --weights 1.5 2 3
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from importlib import resources
from pathlib import Path

import numba

from npuzzle.board import Board
from npuzzle.search.astar import run_astar
from npuzzle.search.limits import Limit


def read_korf100(path: Path | None) -> list[dict[str, str]]:
    """The rows of korf100.tsv: the package's copy unless ``path`` names another."""
    text = (path.read_text() if path is not None
            else resources.files("npuzzle").joinpath("data", "korf100.tsv").read_text(encoding="utf-8"))
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    header = lines[0].split("\t")
    return [dict(zip(header, ln.split("\t"), strict=True)) for ln in lines[1:]]


def board_of(row: dict[str, str]) -> Board:
    return Board(4, 4, tuple(int(x) for x in row["tiles"].split()))


def optimal_table(rows: list[dict[str, str]], heuristics: list[str], max_memory: int) -> None:
    print("| # | length | heuristic | expanded | generated | CPU s | nodes stored | MiB held |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        for heuristic in heuristics:
            cpu = time.process_time()
            run = run_astar(board_of(row), goal="blank-first", heuristic=heuristic, limit=Limit(max_memory=max_memory))
            cpu = time.process_time() - cpu
            sol = run.solution
            length = sol.length if sol.solved else f"{sol.status} (>= {sol.lower_bound})"
            if sol.solved and sol.length != int(row["optimal_length"]):
                sys.exit(f"instance {row['id']}: A* found {sol.length}, published {row['optimal_length']}")
            print(f"| {row['id']} | {length} | {heuristic} | {sol.stats.expanded} | {sol.stats.generated} "
                  f"| {cpu:.2f} | {run.nodes} | {run.bytes / 2**20:.1f} |", flush=True)


def weighted_table(rows: list[dict[str, str]], heuristic: str, weights: list[float], max_memory: int) -> None:
    print("| weight | solved | mean length / optimal | worst length / optimal | bound w held | "
          "optimal found | total expanded | total generated | CPU s | largest MiB held |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for w in weights:
        ratios, expanded, generated, cpu, held, hits, within = [], 0, 0, 0.0, 0, 0, True
        for row in rows:
            best = int(row["optimal_length"])
            start = time.process_time()
            run = run_astar(board_of(row), goal="blank-first", heuristic=heuristic, weight=w,
                            limit=Limit(max_memory=max_memory))
            cpu += time.process_time() - start
            sol = run.solution
            expanded += sol.stats.expanded
            generated += sol.stats.generated
            held = max(held, run.bytes)
            if sol.solved:
                ratios.append(sol.length / best)
                hits += sol.length == best
                within = within and best <= sol.length <= w * best and sol.lower_bound <= best
        mean = sum(ratios) / len(ratios) if ratios else float("nan")
        print(f"| {w:g} | {len(ratios)}/{len(rows)} | {mean:.4f} | {max(ratios, default=float('nan')):.4f} "
              f"| {'yes' if within else 'NO'} | {hits} | {expanded} | {generated} | {cpu:.2f} "
              f"| {held / 2**20:.1f} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, help="a korf100.tsv (default: the package's copy)")
    parser.add_argument("--easiest", type=int, default=10, help="optimal A* on this many easiest instances")
    parser.add_argument("--heuristics", nargs="+", default=["manhattan", "lc"], help="for the optimal runs")
    parser.add_argument("--weights", nargs="*", type=float, default=[1.5, 2.0, 3.0],
                        help="weighted A* on all 100 instances with these weights")
    parser.add_argument("--weighted-heuristic", default="lc", help="heuristic of the weighted runs")
    parser.add_argument("--max-memory-mib", type=int, default=1024, help="memory limit of each search")
    args = parser.parse_args(argv)
    rows = read_korf100(args.data)
    for heuristic in {*args.heuristics, args.weighted_heuristic}:  # compile or load the kernels first
        run_astar(Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1)), heuristic=heuristic, weight=1.5)
    max_memory = args.max_memory_mib << 20
    print(f"<!-- {platform.python_version()}, numba {numba.__version__}, {time.strftime('%Y-%m-%d')} -->")
    if args.easiest:
        easiest = sorted(rows, key=lambda r: int(r["korf1985_nodes"]))[: args.easiest]
        optimal_table(easiest, args.heuristics, max_memory)
        print()
    if args.weights:
        weighted_table(rows, args.weighted_heuristic, args.weights, max_memory)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
