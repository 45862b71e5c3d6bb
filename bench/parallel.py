"""Wall time and memory of ``--jobs`` and ``--scheduler`` against the serial run, in alternating
rounds (serial, pool, Dask, serial, pool, Dask, ...), each a fresh ``npuzzle`` process.

Two runs of issue 19: Korf's 100 with ``pdb:6-6-3+wd`` (a batch: one position per worker) and
Knuth's transposition example ``159d26ae37bf48c0`` with ``pdb:7-8`` (one search split over the
workers). Memory is the largest sum over the process and its children, sampled every 0.2 s, of
the proportional set size (``Pss`` in ``/proc/PID/smaps_rollup``: a page shared by k processes
counts 1/k in each) and of the resident set size (a shared page counts in full in each).

    python bench/parallel.py --rounds 3 --jobs 2 [--scheduler tcp://127.0.0.1:8786]

The tables must be built (``npuzzle tables build pdb:6-6-3 --goal blank-first`` and
``npuzzle tables build pdb:7-8``), and a Dask cluster running for ``--scheduler``.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from importlib import resources
from pathlib import Path


def korf100_file() -> Path:
    text = resources.files("npuzzle").joinpath("data", "korf100.tsv").read_text()
    rows = [ln.split("\t") for ln in text.splitlines() if ln.strip() and not ln.startswith("#")][1:]
    path = Path(tempfile.mkdtemp()) / "korf100.txt"
    path.write_text("".join(r[5] + "\n" for r in rows))
    return path


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = [int(x) for x in f.read().split()]
    except OSError:
        return []
    return kids + [g for k in kids for g in children(k)]


def memory(pids: list[int]) -> tuple[int, int]:
    pss = rss = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        pss += int(line.split()[1])
                    elif line.startswith("Rss:"):
                        rss += int(line.split()[1])
        except OSError:
            pass
    return pss, rss


def run(argv: list[str]) -> tuple[float, int, int]:
    """Wall seconds, peak summed Pss and Rss (kB) of one command."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak_pss = peak_rss = 0
    while proc.poll() is None:
        pss, rss = memory([proc.pid, *children(proc.pid)])
        peak_pss, peak_rss = max(peak_pss, pss), max(peak_rss, rss)
        time.sleep(0.2)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed with exit status {proc.returncode}")
    return time.monotonic() - start, peak_pss, peak_rss


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--scheduler")
    args = ap.parse_args()
    korf = korf100_file()
    work = {
        "korf100 pdb:6-6-3+wd": ["npuzzle", "solve", "--file", str(korf), "--goal", "blank-first",
                                 "--heuristic", "pdb:6-6-3+wd", "--json"],
        "knuth pdb:7-8": ["npuzzle", "solve", "159d26ae37bf48c0", "--heuristic", "pdb:7-8", "--json"],
    }
    ways = {"serial": [], f"--jobs {args.jobs}": ["--jobs", str(args.jobs)]}
    if args.scheduler:
        ways["dask"] = ["--scheduler", args.scheduler]
    print("| work | way | round | wall s | peak Pss MB | peak Rss sum MB |")
    print("|---|---|---|---|---|---|")
    for name, argv in work.items():
        for r in range(1, args.rounds + 1):
            for way, extra in ways.items():
                wall, pss, rss = run(argv + extra)
                print(f"| {name} | {way} | {r} | {wall:.2f} | {pss / 1024:.0f} | {rss / 1024:.0f} |", flush=True)


if __name__ == "__main__":
    main()
