"""Report on an experiment grid's output (``npuzzle bench ... --out FILE``), beside published figures.

    python bench/grid_report.py korf100-pdb.csv
    python bench/grid_report.py korf100-pdb.csv --same korf100-pdb.jsonl

Prints one line per set and combination: runs, lengths equal to the published optimum, the mean
first bound (the heuristic's value at the start), mean nodes generated and expanded, the median
generated, CPU and wall seconds in all, Korf's node counts matched (where compared), and the
figure Korf & Felner (2002, via Felner's slides: /work/shared/benchmarks/notes.md) give for the
same heuristic on the 15-puzzle, for comparison (another instance set: see docs/benchmarks.md).
With ``--same OTHER`` it first checks that OTHER (the same grid written as .csv or .jsonl) holds
the same rows but for the times and memory, and exits 1 if not.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

from npuzzle import grid
from npuzzle.present import grid as present

#: Korf & Felner 2002 / Felner, Korf & Hanan 2004 on the 15-puzzle (1000 random instances, not
#: Korf's 100; the lookup and its reflection combined): mean heuristic at the start, nodes.
PUBLISHED = {"manhattan": (36.942, 401_189_630), "pdb:5-5-5": (41.562, 3_090_405),
             "pdb:6-6-3": (42.924, 617_555), "pdb:7-8": (45.632, 36_710)}
TIMES = ("cpu_seconds", "wall_seconds", "peak_memory")


def rows(path: str) -> list[dict[str, Any]]:
    text = Path(path).read_text(encoding="utf-8")
    reader = present.read_csv if path.endswith(".csv") else present.read_jsonl
    return reader(text, grid.COLUMNS)


def same(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> bool:
    """Whether two outputs hold the same rows, in the same order, but for times and memory."""
    def strip(rs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in r.items() if k not in TIMES} for r in rs]
    return strip(a) == strip(b)


def report(all_rows: list[dict[str, Any]]) -> None:
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for r in all_rows:
        groups.setdefault(tuple(r[n] for n in ("set", *grid.AXIS_NAMES)), []).append(r)
    print("# combination                       runs  optimal  mean h0  mean generated  mean expanded"
          "  median generated    CPU s   wall s  Korf matched  | K&F 2002: mean h, nodes")
    for members in groups.values():
        r0 = members[0]
        label = present.combination_label(r0, ["set", "method", "heuristic", "pruning"])
        solved = [r for r in members if r["status"] == "solved"]
        generated = [r["generated"] for r in solved] or [0]
        matched = sum(r["length"] == r["published_optimum"] for r in solved)
        korf = [r for r in members if r["nodes_ok"] is not None]
        published = PUBLISHED.get(r0["heuristic"])
        h0 = statistics.mean(r["initial_lower_bound"] for r in members)
        expanded = statistics.mean(r["expanded"] for r in solved or members)
        cpu, wall = sum(r["cpu_seconds"] for r in members), sum(r["wall_seconds"] for r in members)
        korf_text = f"{sum(r['nodes_ok'] for r in korf)}/{len(korf)}" if korf else "-"
        published_text = f"{published[0]}, {published[1]:,}" if published else "-"
        print(f"{label:<34} {len(members):5d}  {matched:7d}  {h0:7.2f}  {statistics.mean(generated):14,.0f}"
              f"  {expanded:13,.0f}  {statistics.median(generated):16,.0f}  {cpu:7.2f}  {wall:7.2f}"
              f"  {korf_text:>12}  | {published_text}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", help="a grid's output, .csv or .jsonl")
    p.add_argument("--same", metavar="OTHER", help="check that OTHER holds the same rows (times aside)")
    a = p.parse_args()
    mine = rows(a.out)
    if a.same is not None:
        ok = same(mine, rows(a.same))
        print(f"# {a.out} and {a.same}: {'the same' if ok else 'DIFFERENT'} rows ({len(mine)}), times aside")
        if not ok:
            return 1
    report(mine)
    return 0


if __name__ == "__main__":
    sys.exit(main())
