"""Benchmark: a warm ``npuzzle solve`` against numba's own floor (issue 31).

    python bench/warm_start.py [--rounds 7] [--src DIR ...] [--data-dir DIR] [--no-pyc]

The floor is a fresh ``python -c`` that imports numpy and numba and calls one trivial
``@numba.njit(cache=True)`` function loaded from numba's on-disk cache. The solves are fresh
``python -m npuzzle solve`` processes:

- ``8-puzzle``     ``npuzzle solve "8 6 7/2 5 4/3 0 1"``
- ``4x4``          ``npuzzle solve bc9e80df3412a756`` (no pattern database in the store)
- ``custom goal``  ``npuzzle solve "2 8 3/1 6 4/7 0 5" --goal-board "1 2 3/8 0 4/7 6 5"``

Each is run once before timing (so numba's cache, Python's bytecode caches and the table store
are warm), then the rounds run every command once each, in an order that rotates from round to
round, so that a change of the machine's load falls on all of them alike. For each command it
prints the median wall time, the median CPU time (user + system of the child, from the
children's rusage) and the median wall time above the floor's.

``--src DIR`` (repeatable) runs the solves of each npuzzle source tree given (a folder holding
the package ``npuzzle``, e.g. an export of an older commit's ``src``) in the same rounds, to
compare two versions; by default the npuzzle that ``python -m npuzzle`` finds. Every tree has a
private temporary table store (``NPUZZLE_DATA_DIR``) unless ``--data-dir`` is given.

The children write and use bytecode caches (``PYTHONDONTWRITEBYTECODE`` is cleared), as an
installed package has them. ``--no-pyc`` sets ``PYTHONDONTWRITEBYTECODE=1`` instead: a source
tree without ``__pycache__`` (a fresh ``git archive`` export) then has its modules compiled in
every process (npuzzle's: about 400 kB of source for a solve), as in a development shell that
sets it.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FLOOR_MODULE = """
import numpy
import numba


@numba.njit(cache=True)
def trivial(x):
    return x + 1
"""

FLOOR = "import numpy, numba, warm_floor; warm_floor.trivial(1)"

COMMANDS = {
    "8-puzzle": ["solve", "8 6 7/2 5 4/3 0 1"],
    "4x4": ["solve", "bc9e80df3412a756"],
    "custom goal": ["solve", "2 8 3/1 6 4/7 0 5", "--goal-board", "1 2 3/8 0 4/7 6 5"],
}


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one child process (which must succeed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--src", type=Path, action="append", help="an npuzzle source tree to time (repeatable)")
    p.add_argument("--data-dir", type=Path, help="table store to use (default: a private temporary one per tree)")
    p.add_argument("--no-pyc", action="store_true", help="children write no bytecode caches (see above)")
    a = p.parse_args()
    base = dict(os.environ)
    base.pop("PYTHONDONTWRITEBYTECODE", None)
    if a.no_pyc:
        base["PYTHONDONTWRITEBYTECODE"] = "1"
    trees: list[Path | None] = list(a.src) if a.src else [None]
    with tempfile.TemporaryDirectory(prefix="npuzzle-warm-") as tmp:
        floor_dir = Path(tmp) / "floor"
        floor_dir.mkdir()
        (floor_dir / "warm_floor.py").write_text(FLOOR_MODULE, encoding="utf-8")
        jobs: dict[str, tuple[list[str], dict[str, str]]] = {
            "floor": ([sys.executable, "-c", FLOOR], dict(base, PYTHONPATH=str(floor_dir))),
        }
        for number, tree in enumerate(trees):
            env = dict(base, NPUZZLE_DATA_DIR=str(a.data_dir or Path(tmp) / f"store{number}"))
            if tree is not None:
                env["PYTHONPATH"] = str(tree.resolve())
            for name, args in COMMANDS.items():
                label = name if len(trees) == 1 else f"{name} [{number + 1}]"
                jobs[label] = ([sys.executable, "-m", "npuzzle", *args], env)
        for argv, env in jobs.values():  # warm numba's cache, the bytecode caches and the store
            run(argv, env)
        names = list(jobs)
        walls: dict[str, list[float]] = {n: [] for n in names}
        cpus: dict[str, list[float]] = {n: [] for n in names}
        for r in range(a.rounds):
            for name in names[r % len(names):] + names[: r % len(names)]:
                wall, cpu = run(*jobs[name])
                walls[name].append(wall)
                cpus[name].append(cpu)
    for number, tree in enumerate(trees):
        if len(trees) > 1:
            print(f"[{number + 1}] {tree}")
    floor = statistics.median(walls["floor"])
    width = max(len(n) for n in names)
    bytecode = "compiled in every process" if a.no_pyc else "bytecode caches used"
    print(f"{a.rounds} alternating rounds, modules {bytecode}; medians (min-max wall)")
    print(f"{'command':<{width}} {'wall_s':>7} {'cpu_s':>7} {'above_floor_s':>14}  range")
    for name in names:
        wall = statistics.median(walls[name])
        extra = "" if name == "floor" else f"{wall - floor:+.3f}"
        print(f"{name:<{width}} {wall:7.3f} {statistics.median(cpus[name]):7.3f} {extra:>14}  "
              f"{min(walls[name]):.3f}-{max(walls[name]):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
