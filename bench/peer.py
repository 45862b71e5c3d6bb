"""Benchmark: npuzzle beside another solver that you built yourself, in alternating rounds.

This script builds nothing and holds no code of another solver: it runs the command you give for
the other solver and an ``npuzzle`` command on the same instance file, one after the other
(other, npuzzle, other, npuzzle, ...), each in a process of its own, and reports for each run the
CPU seconds (user + system, from ``wait4``), the wall seconds, the peak memory (resident set) and
the load average when it began, then the least CPU time of each side and their ratio (npuzzle over
the other). The machine's load is part of every figure: run it on a quiet machine, and give the
ratio with its rounds and load.

``{instances}`` in either command is replaced by the instance file (``--format commas`` gives the
other solver a copy with commas between the numbers); ``--stdin`` sends the file to the other
solver on its standard input instead. Each run's standard output and error are kept in ``--out``
to check the answers (lengths) afterwards. Write the instance files with ``npuzzle scramble
--set``; for example, Korf's 100 against a 15-puzzle solver that reads a file of 16 numbers a line::

    npuzzle scramble --set korf100 --notation list > korf100.txt
    python bench/peer.py --instances korf100.txt --rounds 3 --out runs \\
        --peer "$HOME/k78/k78 -H k78 -d $HOME/k78/tables/78 {instances}" \\
        --npuzzle "solve --file {instances} --json --goal blank-first --heuristic pdb:7-8"

and a 24-puzzle solver that reads one instance of comma-separated numbers on standard input::

    npuzzle scramble --set korf50 --ids 38 --notation list > kf38.txt
    CC=$HOME/24puzzle
    python bench/peer.py --instances kf38.txt --format commas --stdin --rounds 2 \\
        --peer "$CC/cmd/pdbsearch -j 1 -d $CC/pdb $CC/catalogues/reinefeld-et-al.cat" \\
        --npuzzle "solve --file {instances} --json --goal blank-first --shape 5x5 --method idastar \\
                   --heuristic pdb:6-6-6-6"
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Run:
    side: str
    round: int
    cpu: float
    wall: float
    peak_mb: float
    load: float
    status: int


def timed(argv: list[str], stdin: Path | None, out: Path, name: str) -> tuple[float, float, float, int]:
    """Run ``argv`` to its end: (user + system CPU seconds, wall seconds, peak resident MB, exit status)."""
    with open(out / f"{name}.out", "wb") as so, open(out / f"{name}.err", "wb") as se, \
            open(stdin if stdin else os.devnull, "rb") as si:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdin=si, stdout=so, stderr=se)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024, process.returncode


def commands(args: argparse.Namespace, out: Path) -> dict[str, tuple[list[str], Path | None]]:
    instances = Path(args.instances).resolve()
    peer_file = instances
    if args.format == "commas":
        peer_file = out / (instances.stem + ".commas.txt")
        lines = instances.read_text(encoding="utf-8").splitlines()
        peer_file.write_text("".join(",".join(line.split()) + "\n" for line in lines if line.strip()),
                             encoding="utf-8")
    peer = shlex.split(args.peer.replace("{instances}", str(peer_file)))
    npuzzle = [sys.executable, "-m", "npuzzle", *shlex.split(args.npuzzle.replace("{instances}", str(instances)))]
    return {"other": (peer, peer_file if args.stdin else None), "npuzzle": (npuzzle, None)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--instances", required=True, help="the instance file (npuzzle scramble --set ... --notation list)")
    p.add_argument("--peer", required=True, help="the other solver's command line ({instances}: the file)")
    p.add_argument("--npuzzle", required=True, help="npuzzle's arguments, e.g. 'solve --file {instances} --json'")
    p.add_argument("--rounds", type=int, default=3, help="rounds, each the other solver then npuzzle (default 3)")
    p.add_argument("--format", choices=("spaces", "commas"), default="spaces",
                   help="the numbers of a line as the other solver reads them (default spaces)")
    p.add_argument("--stdin", action="store_true", help="send the instances to the other solver's standard input")
    p.add_argument("--out", default="peer-runs", help="folder for each run's output (default peer-runs)")
    args = p.parse_args(argv)
    if args.rounds < 1:
        p.error("--rounds must be at least 1")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    sides = commands(args, out)
    runs: list[Run] = []
    print("round\tside\tcpu_s\twall_s\tpeak_MB\tload1\texit")
    for r in range(1, args.rounds + 1):
        for side, (command, stdin) in sides.items():
            load = os.getloadavg()[0]
            cpu, wall, peak, status = timed(command, stdin, out, f"{side}_r{r}")
            runs.append(Run(side, r, cpu, wall, peak, load, status))
            print(f"{r}\t{side}\t{cpu:.3f}\t{wall:.3f}\t{peak:.0f}\t{load:.2f}\t{status}", flush=True)
    failed = [x for x in runs if x.status != 0]
    best = {side: min(x.cpu for x in runs if x.side == side) for side in sides}
    loads = [x.load for x in runs]
    print(f"# least CPU: other {best['other']:.3f} s, npuzzle {best['npuzzle']:.3f} s; ratio npuzzle/other "
          f"{best['npuzzle'] / best['other']:.2f}; {args.rounds} rounds, load {min(loads):.1f}-{max(loads):.1f}; "
          f"peak memory other {max(x.peak_mb for x in runs if x.side == 'other'):.0f} MB, npuzzle "
          f"{max(x.peak_mb for x in runs if x.side == 'npuzzle'):.0f} MB; outputs in {out}/")
    if failed:
        print(f"# {len(failed)} run(s) exited with a status other than 0: see their .err files", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
