"""Benchmark A* with every lower bound on Korf's 15-puzzle instances (blank-first goal).

    PYTHONPATH=src python -m npuzzle.cli tables build pdb:6-6-3 --goal blank-first
    PYTHONPATH=src python bench/astar_bounds.py --ids 1-20 --heuristics lc pdb:6-6-3+wd --max-memory-gib 4

Each search runs in a forked child process (kernels compiled and tables loaded once, before the
fork), so that the child's peak resident memory is the search's. Prints one Markdown row per
instance and heuristic (length, expanded and generated nodes, positions reopened, CPU seconds,
positions stored, MiB of arrays held at the end, peak resident MiB of the child) and a summary.
Exit status 1 if a length differs from the published optimum, or if the last heuristic did not
generate fewer nodes than the first on every instance.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from typing import Any

import numba

from npuzzle.benchmark import parse_ids
from npuzzle.instances import Instance, benchmark_set
from npuzzle.search.astar import run_astar
from npuzzle.search.limits import Limit


def measure(inst: Instance, heuristic: str, max_memory: int) -> dict[str, Any]:
    """One A* search and its figures."""
    cpu = time.process_time()
    run = run_astar(inst.board, goal=inst.goal, heuristic=heuristic, limit=Limit(max_memory=max_memory))
    cpu = time.process_time() - cpu
    sol = run.solution
    return {"id": inst.id, "heuristic": heuristic, "optimum": inst.optimal_length, "status": sol.status,
            "length": sol.length, "lower_bound": sol.lower_bound, "expanded": sol.stats.expanded,
            "generated": sol.stats.generated, "reopened": run.reopened, "cpu": cpu, "nodes": run.nodes,
            "mib": run.bytes / 2**20}


def in_child(inst: Instance, heuristic: str, max_memory: int) -> dict[str, Any]:
    """``measure`` in a forked child; adds the child's peak resident memory (MiB)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: one search, its figures as JSON down the pipe
        os.close(r)
        code = 1
        try:
            os.write(w, json.dumps(measure(inst, heuristic, max_memory)).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    _, status, usage = os.wait4(pid, 0)
    if status != 0 or not data:
        raise RuntimeError(f"instance {inst.id}, {heuristic}: the child process failed ({status})")
    row: dict[str, Any] = json.loads(data)
    row["peak_mib"] = usage.ru_maxrss / 1024  # KiB on Linux
    return row


def print_row(row: dict[str, Any]) -> None:
    length = row["length"] if row["status"] == "solved" else f"{row['status']} (>= {row['lower_bound']})"
    print(f"| {row['id']} | {row['optimum']} | {row['heuristic']} | {length} | {row['expanded']:,} "
          f"| {row['generated']:,} | {row['reopened']:,} | {row['cpu']:.2f} | {row['nodes']:,} "
          f"| {row['mib']:.1f} | {row['peak_mib']:,.0f} |", flush=True)


def summary(rows: list[dict[str, Any]], heuristics: list[str]) -> bool:
    """Print the totals per heuristic and the node comparison; True if every check holds."""
    print("\n| heuristic | solved | lengths = optimum | expanded | generated | reopened | CPU s | largest peak MiB |")
    print("|---|---|---|---|---|---|---|---|")
    ok = True
    for h in heuristics:
        mine = [r for r in rows if r["heuristic"] == h]
        solved = [r for r in mine if r["status"] == "solved"]
        right = sum(r["length"] == r["optimum"] for r in solved)
        ok = ok and right == len(solved)
        print(f"| {h} | {len(solved)}/{len(mine)} | {right}/{len(solved)} | {sum(r['expanded'] for r in mine):,} "
              f"| {sum(r['generated'] for r in mine):,} | {sum(r['reopened'] for r in mine):,} "
              f"| {sum(r['cpu'] for r in mine):.2f} | {max(r['peak_mib'] for r in mine):,.0f} |")
    if len(heuristics) > 1:
        first, last = heuristics[0], heuristics[-1]
        by = {(r["id"], r["heuristic"]): r for r in rows}
        ids = sorted({r["id"] for r in rows})
        fewer = [i for i in ids if by[i, last]["generated"] < by[i, first]["generated"]]
        ratios = [by[i, first]["generated"] / by[i, last]["generated"] for i in ids]
        print(f"\n{last} generated fewer nodes than {first} on {len(fewer)} of {len(ids)} instances "
              f"(ratio {min(ratios):.1f}x to {max(ratios):.1f}x; a stopped search counts what it generated).")
        ok = ok and len(fewer) == len(ids)
    return ok


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--set", default="korf100", help="benchmark set (default korf100)")
    p.add_argument("--ids", default="1-20", help="instances, e.g. 1-20 (default)")
    p.add_argument("--heuristics", nargs="+", default=["lc", "pdb:6-6-3+wd"])
    p.add_argument("--max-memory-gib", type=float, default=4.0, help="memory limit of each search")
    a = p.parse_args(argv)
    instances = benchmark_set(a.set, parse_ids(a.ids))
    max_memory = int(a.max_memory_gib * 2**30)
    for h in a.heuristics:  # compile or load the kernel, load the tables, before the fork
        run_astar(benchmark_set("korf100", [79])[0].board, goal="blank-first", heuristic=h)
    print(f"<!-- Python {platform.python_version()}, numba {numba.__version__}, {time.strftime('%Y-%m-%d')}, "
          f"limit {a.max_memory_gib:g} GiB -->")
    print("| # | optimum | heuristic | length | expanded | generated | reopened | CPU s | positions stored "
          "| MiB held | peak MiB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    rows = []
    for inst in instances:
        for h in a.heuristics:
            rows.append(in_child(inst, h, max_memory))
            print_row(rows[-1])
    return 0 if summary(rows, a.heuristics) else 1


if __name__ == "__main__":
    sys.exit(main())
