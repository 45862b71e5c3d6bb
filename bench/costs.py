"""Searches under move-cost models (issue 34, docs/costs.md), checked and timed:

    PYTHONPATH=src python bench/costs.py every --cost heavy --methods astar idastar
    PYTHONPATH=src python bench/costs.py korf --cost heavy --ids 1-10 --methods astar idastar --heuristic manhattan

``every``: every state of a small board (3x3 by default) solved by each method and compared with
one uniform-cost search (Dijkstra) backwards from the goal, written here in plain Python (it shares
no code with the package), which gives every state's least cost; ``--sample N`` takes a seeded
sample instead. Prints the states checked, the mismatches (must be 0) and CPU seconds per method.

``korf``: instances of Korf's 100 (blank-first goal, as ``bench/korf100.py``) by each method,
one line each: id, method, heuristic, status, cost, moves, generated, expanded, CPU seconds; both
methods must report the same optimal costs.
"""

from __future__ import annotations

import argparse
import heapq
import math
import random
import time

from npuzzle import Board
from npuzzle.benchmark import parse_ids
from npuzzle.instances import benchmark_set
from npuzzle.search import Limit, Request, prepare, run

PRICE = {"unit": lambda t: 1.0, "heavy": lambda t: float(t), "inverse": lambda t: 1.0 / t, "sqrt": math.sqrt}


def least_costs(height: int, width: int, goal: str, cost: str) -> dict[tuple[int, ...], float]:
    """Every state's least cost to the goal: Dijkstra from the goal (moves cost the same both ways)."""
    n = height * width
    start = tuple(range(1, n)) + (0,) if goal == "standard" else tuple(range(n))
    price = PRICE[cost]
    dist = {start: 0.0}
    heap = [(0.0, start)]
    while heap:
        d, state = heapq.heappop(heap)
        if d > dist[state]:
            continue
        b = state.index(0)
        r, c = divmod(b, width)
        for q in (b - width if r else -1, b - 1 if c else -1, b + 1 if c < width - 1 else -1,
                  b + width if r < height - 1 else -1):
            if q < 0:
                continue
            cells = list(state)
            cells[b], cells[q] = cells[q], 0
            nxt, nd = tuple(cells), d + price(state[q])
            if nd < dist.get(nxt, math.inf):
                dist[nxt] = nd
                heapq.heappush(heap, (nd, nxt))
    return dist


def every(args: argparse.Namespace) -> None:
    cpu = time.process_time()
    exact = least_costs(args.height, args.width, args.goal, args.cost)
    print(f"reference: {len(exact):,} states by Dijkstra in {time.process_time() - cpu:.1f} s CPU", flush=True)
    states = sorted(exact)
    if args.sample:
        states = random.Random(args.seed).sample(states, args.sample)
    for method in args.methods:
        request = Request(cost=args.cost, goal=args.goal, heuristic=args.heuristic if method != "ucs" else "auto")
        run(prepare(Board(args.height, args.width, states[0]), request, method))  # compiled before the clock
        cpu, bad, nodes = time.process_time(), 0, 0
        for state in states:
            s = run(prepare(Board(args.height, args.width, state), request, method))
            nodes += s.stats.generated
            if not (s.optimal and abs((s.cost_total or 0.0) - exact[state]) <= 1e-9 * max(1, exact[state])
                    + 1e-6 * len(s.moves)):
                bad += 1
                print("MISMATCH", state, s.cost_total, exact[state], flush=True)
        print(f"{method}\t{args.cost}\t{len(states):,} states\t{bad} mismatches\t{nodes:,} generated\t"
              f"{time.process_time() - cpu:.1f} s CPU", flush=True)


def korf(args: argparse.Namespace) -> None:
    instances = benchmark_set("korf100", parse_ids(args.ids))
    limit = Limit(timeout=args.timeout, max_memory=args.max_memory)
    for inst in instances:
        for method in args.methods:
            request = Request(cost=args.cost, goal=inst.goal, heuristic=args.heuristic, limit=limit)
            cpu = time.process_time()
            s = run(prepare(inst.board, request, method))
            cpu = time.process_time() - cpu
            print(f"{inst.id}\t{method}\t{s.heuristic}\t{s.status}\t{s.cost_total}\t{s.length}\t"
                  f"{s.stats.generated}\t{s.stats.expanded}\t{cpu:.2f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    e = sub.add_parser("every")
    e.add_argument("--height", type=int, default=3)
    e.add_argument("--width", type=int, default=3)
    e.add_argument("--goal", default="standard")
    e.add_argument("--sample", type=int, default=0)
    e.add_argument("--seed", type=int, default=34)
    k = sub.add_parser("korf")
    k.add_argument("--ids", default="1-10")
    k.add_argument("--timeout", type=float, default=None)
    k.add_argument("--max-memory", type=int, default=None)
    for p in (e, k):
        p.add_argument("--cost", default="heavy")
        p.add_argument("--methods", nargs="+", default=["astar", "idastar"])
        p.add_argument("--heuristic", default="auto")
    args = parser.parse_args(argv)
    (every if args.command == "every" else korf)(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
