"""Node counts (and CPU seconds) of IDA* per instance, to compare two versions of the code:

    PYTHONPATH=src python bench/node_counts.py --ids 1-20 --heuristics manhattan lc wd+id --pruning parent fsm

prints one line per instance, heuristic and pruning: id, heuristic, pruning, length, generated,
expanded, CPU seconds. Run it on the old and the new tree (alternating, in the same hour) and
compare the counts (they must be equal) and the times.
"""

from __future__ import annotations

import argparse
import time

from npuzzle.benchmark import parse_ids
from npuzzle.instances import benchmark_set
from npuzzle.search.idastar import idastar


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", default="korf100")
    parser.add_argument("--ids", default="1-20")
    parser.add_argument("--heuristics", nargs="+", default=["manhattan", "lc", "wd+id"])
    parser.add_argument("--pruning", nargs="+", default=["parent", "fsm"])
    args = parser.parse_args(argv)
    instances = benchmark_set(args.set, parse_ids(args.ids))
    for heuristic in args.heuristics:
        for pruning in args.pruning:
            near = instances[0].board.goal(4, 4, "blank-first")
            idastar(near.move(near.movable_tiles()[0]), goal="blank-first", heuristic=heuristic, pruning=pruning)
            total_cpu, total_nodes = 0.0, 0
            for inst in instances:
                cpu = time.process_time()
                s = idastar(inst.board, goal=inst.goal, heuristic=heuristic, pruning=pruning)
                cpu = time.process_time() - cpu
                total_cpu += cpu
                total_nodes += s.stats.generated
                print(f"{inst.id}\t{heuristic}\t{pruning}\t{s.length}\t{s.stats.generated}\t{s.stats.expanded}\t{cpu:.3f}",
                      flush=True)
            print(f"# {heuristic} {pruning}: {total_nodes} nodes, {total_cpu:.2f} CPU s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
