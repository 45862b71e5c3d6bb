"""The split search beyond this machine, on paper: measured subtree sizes, simulated workers.

For one position, the frontier of the split search (``search.split.frontier``) is built with
``--leaves`` leaves, and every leaf's subtree is searched on its own at every threshold of the
search (the final one up to the solution, in the serial order), recording its CPU seconds. A
simulation then hands the leaves out in frontier order to P workers (each takes the next task
when it is free; about k tasks a worker per threshold, the best k of ``TASKS_PER_WORKER``; each
task costs ``--overhead`` seconds of scheduling on top), with a barrier between thresholds, and
stops the final threshold when the task holding the solution ends. Speedup = (the serial IDA*'s
CPU seconds for the same thresholds) / (simulated time).
``--max-thresholds`` stops after that many thresholds (for the 24-puzzle, whose last ones take
hours: the simulation then covers the complete thresholds only).

    PYTHONPATH=src python bench/simulate_split.py 159d26ae37bf48c0 --heuristic pdb:7-8 --leaves 16384
    PYTHONPATH=src python bench/simulate_split.py --korf50 1 --heuristic wd+id --max-thresholds 5
    python bench/simulate_split.py --measure-overhead     # Dask's per-task cost on this machine
"""

from __future__ import annotations

import argparse
import heapq
import time

from npuzzle import parse
from npuzzle.board import Board
from npuzzle.instances import benchmark_set
from npuzzle.search.split import Job, Task, _pruning, frontier, run_task, split_idastar

Measured = list[tuple[int, list[float], int | None]]


def measure(board: Board, goal: str, heuristic: str, leaves: int, max_thresholds: int) -> Measured:
    """Per threshold: the bound, each leaf's CPU seconds (frontier order) and the index of the
    leaf that found a solution (None if none did)."""
    pruning = _pruning("auto", heuristic, board.size)
    split_idastar(Board.goal(board.height, board.width, goal), _Nowhere(), goal=goal, heuristic=heuristic)  # warm
    job = Job(board.tiles, board.height, board.width, goal, heuristic, pruning)
    t = time.process_time()
    tree = frontier(job, leaves)
    print(f"# frontier: depth {tree.depth}, {len(tree.leaves)} leaves, {time.process_time() - t:.1f} s CPU", flush=True)
    parity = board.manhattan(goal) & 1
    bound = tree.f[0] + ((tree.f[0] & 1) ^ parity)
    out = []
    for _ in range(max_thresholds):
        _, _, min_over, todo = tree.at(bound)
        times, found = [], None
        for i, leaf in enumerate(todo):
            o = run_task(Task(job, bound, (leaf,)))
            times.append(o.cpu_seconds)
            min_over = min(min_over, o.min_over)
            if o.found is not None:
                found = i
                break
        out.append((bound, times, found))
        print(f"# threshold {bound}: {len(times)} leaves, {sum(times):.2f} s CPU"
              + (", solution" if found is not None else ""), flush=True)
        if found is not None:
            break
        nxt = bound + min_over
        bound = nxt + ((nxt & 1) ^ parity)
    return out


def _serial_cpu(board: Board, goal: str, heuristic: str, thresholds: int) -> float:
    """CPU seconds of the serial IDA* over its first ``thresholds`` iterations."""
    from npuzzle.search.idastar import idastar
    from npuzzle.search.limits import Limit

    seconds: list[float] = []

    def stop_after(it: object, final: bool) -> None:
        seconds.append(it.seconds)  # type: ignore[attr-defined]
        if len(seconds) == thresholds:
            raise KeyboardInterrupt  # IDA* returns what it has (status: interrupted)

    idastar(board, goal=goal, heuristic=heuristic, on_iteration=stop_after, limit=Limit())
    return sum(seconds)


class _Nowhere:
    workers = 1


def simulate(thresholds: Measured, workers: int, overhead: float, per_worker: int) -> float:
    """Simulated wall seconds of the thresholds on ``workers`` workers (see the module docstring).
    A task holds enough leaves for about ``per_worker`` tasks a worker per threshold."""
    total = 0.0
    for _, times, found in thresholds:
        size = max(1, len(times) // (workers * per_worker))
        tasks = [sum(times[i : i + size]) + overhead for i in range(0, len(times), size)]
        free = [0.0] * min(workers, len(tasks))
        heapq.heapify(free)
        end = 0.0
        for k, cost in enumerate(tasks):
            start = heapq.heappop(free)
            heapq.heappush(free, start + cost)
            end = max(end, start + cost)
            if found is not None and k == found // size:
                end = start + cost  # every worker stops when the solution is in
                break
        total += end
    return total


#: Tasks a worker gets per threshold, tried in the simulation (more even out the load, fewer cost
#: less scheduling): the best is reported.
TASKS_PER_WORKER = (1, 2, 4, 8, 16, 32)


def measure_overhead(tasks: int = 2000) -> float:
    """Wall seconds per trivial task through a local Dask cluster of two worker processes."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, worker_dashboard_address="127.0.0.1:0") as cluster, \
            Client(cluster) as client:
        client.gather(client.map(abs, range(100), pure=False))
        t = time.monotonic()
        client.gather(client.map(abs, range(tasks), pure=False))
        return (time.monotonic() - t) * 2 / tasks  # two workers at once: each task's share of a worker


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("position", nargs="?")
    ap.add_argument("--korf50", type=int, help="a 24-puzzle instance of Korf & Felner's set instead")
    ap.add_argument("--goal", default="standard")
    ap.add_argument("--heuristic", default="pdb:7-8")
    ap.add_argument("--leaves", type=int, default=16384)
    ap.add_argument("--max-thresholds", type=int, default=100)
    ap.add_argument("--overhead", type=float, default=0.002, help="scheduling seconds per task")
    ap.add_argument("--measure-overhead", action="store_true")
    args = ap.parse_args()
    if args.measure_overhead:
        print(f"Dask: {measure_overhead() * 1000:.2f} ms of a worker per task")
        return
    if args.korf50:
        inst = benchmark_set("korf50", [args.korf50])[0]
        board, goal = inst.board, inst.goal
    else:
        board, goal = parse(args.position), args.goal
    data = measure(board, goal, args.heuristic, args.leaves, args.max_thresholds)
    leaves = sum(sum(t) for _, t, _ in data)
    serial = _serial_cpu(board, goal, args.heuristic, len(data))
    longest = sum(max(t, default=0.0) for _, t, _ in data)
    print(f"# serial IDA*: {serial:.2f} s CPU for these {len(data)} thresholds; the leaves one by one: "
          f"{leaves:.2f} s; {args.overhead * 1000:.1f} ms a task; the largest leaf of each threshold, summed: "
          f"{longest:.3f} s (no number of workers goes below it)")
    print("| workers | tasks a worker | simulated s | speedup | efficiency |")
    print("|---|---|---|---|---|")
    for p in (1, 2, 8, 64, 1024):
        wall, k = min((simulate(data, p, args.overhead, k), k) for k in TASKS_PER_WORKER)
        print(f"| {p} | {k} | {wall:.3f} | {serial / wall:.1f} | {serial / wall / p:.0%} |")


if __name__ == "__main__":
    main()
