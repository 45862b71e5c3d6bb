"""Compressed pattern databases and the max of two partitions (issue 37): nodes and search CPU of
each heuristic on Korf's 100 (blank-first goal) and on the hard positions (Knuth's 72-move
``159d26ae37bf48c0`` and the 80-move ``0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1``, standard goal,
read on the blank-first tables turned 180 degrees when only those are built), in alternating
rounds (heuristic A, B, ..., A, B, ...). Every length is checked against the published optimum
(Korf's 100) or the known one (72, 80); node counts are deterministic.

    NPUZZLE_DATA_DIR=STORE PYTHONPATH=src python bench/compressed.py --rounds 3 \\
        --heuristics pdb:7-8 pdb:7-8/0-1+pdb:7-8s/0-1

Prints one line per heuristic, round and set (nodes expanded, generated, CPU seconds), then each
heuristic's minimum CPU and the tables' bytes.
"""

from __future__ import annotations

import argparse

from npuzzle import Board
from npuzzle.benchmark import plan, solve_rows
from npuzzle.heuristics import pattern_db
from npuzzle.heuristics.registry import parse
from npuzzle.search import solve

HARD = {"knuth72": ("1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0", 72),  # 159d26ae37bf48c0 as tiles by cell
        "m80": ("0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1", 80)}


def korf(heuristic: str) -> tuple[int, int, float]:
    rows = list(solve_rows(plan("korf100", None, heuristic=heuristic)))
    bad = [r for r in rows if not r.length_ok]
    if bad:
        raise SystemExit(f"{heuristic}: {len(bad)} lengths differ from the published optima")
    stats = [r.solution.stats for r in rows]
    return sum(x.expanded for x in stats), sum(x.generated for x in stats), sum(x.seconds for x in stats)


def hard(heuristic: str, text: str, length: int) -> tuple[int, int, float]:
    board = Board(4, 4, tuple(int(x) for x in text.split()))
    sol = solve(board, goal="standard", heuristic=heuristic, method="idastar")
    if sol.length != length:
        raise SystemExit(f"{heuristic}: length {sol.length}, not {length}")
    return sol.stats.expanded, sol.stats.generated, sol.stats.seconds


def table_bytes(heuristic: str) -> int:
    spec = parse(heuristic)
    names = [x for x in (spec.pdb, spec.pdb2) if x is not None]
    return sum(pattern_db.table_bytes(16, pattern_db.groups_for(x, 4, 4), 1, pattern_db.drops_for(x, 4, 4))
               for x in names)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--heuristics", nargs="+", default=["pdb:7-8", "pdb:7-8/0-1+pdb:7-8s/0-1"])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--sets", nargs="+", default=["korf100", "knuth72", "m80"])
    a = p.parse_args()
    for h in a.heuristics:  # compile and map every table before the timed rounds
        hard(h, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", 1)
    best: dict[tuple[str, str], list[float]] = {}
    for r in range(a.rounds):
        for h in a.heuristics:
            for s in a.sets:
                e, g, cpu = korf(h) if s == "korf100" else hard(h, *HARD[s])
                best.setdefault((h, s), []).append(cpu)
                print(f"round {r + 1} {h:32} {s:8} expanded {e:>13,} generated {g:>13,} cpu {cpu:8.3f} s", flush=True)
    for h in a.heuristics:
        cells = "  ".join(f"{s} min {min(best[h, s]):.3f} (" + ", ".join(f"{x:.3f}" for x in best[h, s]) + ")"
                          for s in a.sets)
        print(f"{h:32} {table_bytes(h) / 1e6:7.1f} MB  {cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
