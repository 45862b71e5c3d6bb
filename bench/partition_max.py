"""How often one pattern-database partition is higher than another on the nodes IDA* visits:
both evaluated on every node of ``split.frontier`` (the serial search's tree down to the first
depth with ``--nodes`` leaves) of each instance. The max of the two can prune only where the
second is higher.

    PYTHONPATH=src python bench/partition_max.py --ids 25 38 40 --first pdb:6-6-6-6 --second pdb:7-7-5-5
"""

from __future__ import annotations

import argparse
import collections

from npuzzle.board import Board
from npuzzle.heuristics.registry import kernel_heuristic
from npuzzle.instances import benchmark_set
from npuzzle.search.split import Job, frontier


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ids", type=int, nargs="+", default=[25, 38, 40], help="Korf & Felner instance numbers")
    p.add_argument("--first", default="pdb:6-6-6-6", help="the bound IDA* searches with")
    p.add_argument("--second", default="pdb:7-7-5-5", help="the bound compared with it")
    p.add_argument("--nodes", type=int, default=20_000, help="leaves of the frontier, at least")
    args = p.parse_args(argv)
    for inst in benchmark_set("korf50", args.ids):
        h, w = inst.board.height, inst.board.width
        tree = frontier(Job(inst.board.tiles, h, w, inst.goal, args.first, "fsm"), args.nodes)
        first = kernel_heuristic(args.first, h, w, inst.goal)
        second = kernel_heuristic(args.second, h, w, inst.goal)
        diff: collections.Counter[int] = collections.Counter()
        for _, leaf in tree.leaves:
            board = Board(h, w, leaf.tiles)
            diff[second.start(board)[1] - first.start(board)[1]] += 1
        total = sum(diff.values())
        higher = sum(v for k, v in diff.items() if k > 0)
        print(f"#{inst.id}: depth {tree.depth}, {total:,} nodes; {args.second} higher on {higher:,} "
              f"({higher / total:.2%}); second minus first: {dict(sorted(diff.items()))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
