"""A*+IDA* (``search.hybrid``) against IDA* alone on the same instances: nodes and CPU seconds.

Each instance is solved by IDA* and then by A*+IDA* with every ``--top`` size (A*'s generated
nodes before IDA* takes over), alternating in that order ``--rounds`` times; the tables are
loaded and the kernels compiled before any timing.

    PYTHONPATH=src python bench/hybrid.py --set korf50 --ids 38 40 25 --heuristic pdb:6-6-6-6 \\
        --top 65536 262144 1048576
"""

from __future__ import annotations

import argparse

from npuzzle.instances import BENCHMARK_SETS, benchmark_set
from npuzzle.search.hybrid import astar_idastar
from npuzzle.search.idastar import idastar
from npuzzle.search.limits import Solution


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--set", default="korf50", choices=BENCHMARK_SETS, help="benchmark set (default korf50)")
    p.add_argument("--ids", type=int, nargs="+", default=[38, 40, 25], help="instance numbers (1-based)")
    p.add_argument("--heuristic", default="pdb:6-6-6-6", help="the bound both searches use")
    p.add_argument("--top", type=int, nargs="+", default=[1 << 16, 1 << 18, 1 << 20],
                   help="A*'s generated nodes before IDA* takes over, one run each")
    p.add_argument("--rounds", type=int, default=1, help="alternating rounds")
    args = p.parse_args(argv)
    instances = benchmark_set(args.set, args.ids)
    warm = instances[0]
    idastar(warm.board, goal=warm.goal, heuristic=args.heuristic, limit=None)  # tables, kernels
    astar_idastar(warm.board, goal=warm.goal, heuristic=args.heuristic, top_nodes=1 << 10)
    print("| instance | round | search | length | generated | expanded | CPU s |")
    print("|---|---|---|---|---|---|---|")
    for r in range(args.rounds):
        for inst in instances:
            runs: list[tuple[str, Solution]] = [("idastar", idastar(inst.board, goal=inst.goal,
                                                                    heuristic=args.heuristic))]
            for top in args.top:
                runs.append((f"astar+idastar, top {top:,}", astar_idastar(inst.board, goal=inst.goal,
                                                                          heuristic=args.heuristic, top_nodes=top)))
            for name, sol in runs:
                if not sol.solved or (len(sol.moves) != inst.optimal_length):
                    raise SystemExit(f"#{inst.id}: {name} gave {len(sol.moves)} moves, not {inst.optimal_length}")
                s = sol.stats
                print(f"| #{inst.id} | {r + 1} | {name} | {len(sol.moves)} | {s.generated:,} | {s.expanded:,} "
                      f"| {s.seconds:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
