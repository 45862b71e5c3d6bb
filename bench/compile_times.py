"""Benchmark: the CPU time numba's compilation adds to the first use of each search family.

    python bench/compile_times.py [--runs 1] [--only idastar,astar-pdb,...] [--data DIR] [--src DIR ...]

Each case runs as ``python -m npuzzle ...`` in a fresh process, first with its own empty
``NUMBA_CACHE_DIR`` (cold: every kernel the command needs is compiled) and then again with
that cache (warm: the kernels are loaded). The CPU seconds of each process (user + system, of
the process and its children) come from ``resource.getrusage(RUSAGE_CHILDREN)``; cold minus warm
is what compiling cost. The tables a case needs (the 4x4 ``pdb:6-6-3`` databases and the move
automata) are built once beforehand into ``--data`` (default: a temporary folder), so no case
counts a table build. ``warmup`` is ``npuzzle warmup`` itself (cold: everything compiled).
``--src`` names source trees to compare (say a ``git archive`` of an older commit's ``src``),
measured in alternation, case by case.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: A 4x4 position (``npuzzle scramble --seed 5``: 51 moves, 0.02 s once compiled).
P4 = "7 3 11 1/15 9 10 2/4 12 6 0/13 5 14 8"

#: name -> the npuzzle command (``{p4}`` stands for the 4x4 position, ``{p5}`` a 5x5 one, ``{p30}`` a 30x30 one).
CASES: dict[str, list[str]] = {
    "idastar": ["solve", "{p4}", "--method", "idastar"],
    "astar-pdb": ["solve", "{p4}", "--method", "astar", "--heuristic", "pdb:6-6-3"],
    "focal": ["solve", "{p4}", "--method", "dps", "--weight", "2", "--heuristic", "lc"],
    "beam": ["solve", "{p5}", "--method", "beam", "--budget", "0.5"],
    "realtime": ["solve", "{p30}", "--shape", "30x30", "--method", "realtime", "--count-only"],
    "warmup": ["warmup", "--quiet"],
}


def npuzzle(args: list[str], env: dict[str, str], check: bool = True) -> tuple[float, float, str]:
    """(CPU seconds, wall seconds, stdout) of one ``python -m npuzzle`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "npuzzle", *args], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if check and out.returncode != 0:
        raise SystemExit(f"npuzzle {' '.join(args)} failed ({out.returncode}):\n{out.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, out.stdout


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=1, help="cold/warm pairs per case")
    p.add_argument("--only", default=",".join(CASES), help="comma-separated cases: " + ", ".join(CASES))
    p.add_argument("--data", help="table store to use (default: a temporary folder, tables built first)")
    p.add_argument("--src", nargs="+", default=[str(ROOT / "src")], help="source trees to compare (default: this one)")
    a = p.parse_args()
    names = [n for n in a.only.split(",") if n]
    unknown = set(names) - set(CASES)
    if unknown:
        p.error(f"unknown cases {sorted(unknown)}")
    with tempfile.TemporaryDirectory(prefix="npuzzle-compile-") as tmp:
        base = dict(os.environ, NPUZZLE_DATA_DIR=a.data or str(Path(tmp) / "data"), PYTHONPATH=a.src[0])
        base.pop("NPUZZLE_NUMBA_CACHE", None)
        prep = dict(base, NUMBA_CACHE_DIR=str(Path(tmp) / "prep"))
        positions = {
            "p4": P4,
            "p5": npuzzle(["scramble", "--shape", "5x5", "--seed", "1"], prep)[2].strip(),
            "p30": npuzzle(["scramble", "--shape", "30x30", "--seed", "1"], prep)[2].strip(),
        }
        if "astar-pdb" in names:
            npuzzle(["tables", "build", "pdb:6-6-3", "--shape", "4x4", "--yes"], prep)
        npuzzle(["solve", P4, "--heuristic", "wd"], prep)  # the 4x4 automaton
        print(f"# {platform.node()}, {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
              f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
        for i, src in enumerate(a.src):
            print(f"# src{i}: {src}")
        print(f"{'case':<11} {'src':>4} {'cold_cpu':>9} {'warm_cpu':>9} {'compile':>8} {'cold_wall':>10}")
        for run in range(a.runs):
            for name in names:
                args = [x.format(**positions) for x in CASES[name]]
                for i, src in enumerate(a.src):
                    env = dict(base, PYTHONPATH=src, NUMBA_CACHE_DIR=str(Path(tmp) / f"cache-{name}-{run}-{i}"))
                    cold, cold_wall, _ = npuzzle(args, env)
                    warm, _, _ = npuzzle(args, env)
                    print(f"{name:<11} {i:>4} {cold:9.1f} {warm:9.1f} {cold - warm:8.1f} {cold_wall:10.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
