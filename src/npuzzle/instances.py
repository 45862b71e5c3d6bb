"""Benchmark sets by name, and generators of positions.

``benchmark_set("korf100")``: Korf's 100 random 15-puzzle instances (Korf 1985), with their
optimal lengths and the node counts of IDA* with the Manhattan distance (published, and
recomputed: see ``data/korf100.tsv`` for the sources and the three places they differ).
``benchmark_set("korf50")``: Korf & Felner's 50 random 24-puzzle instances (2002) with their
optimal lengths. Both use Korf's goal convention, ``blank-first``.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from .board import Board, Goal

BENCHMARK_SETS: tuple[str, ...] = ("korf100", "korf50")
_FILES = {"korf100": ("korf100.tsv", 4), "korf50": ("korf50_24.tsv", 5)}


@dataclass(frozen=True)
class Instance:
    """One benchmark position with the facts published about it."""

    name: str
    id: int
    board: Board
    goal: Goal
    optimal_length: int
    published_nodes: int | None
    recomputed_nodes: int | None


def benchmark_set(name: str, ids: list[int] | None = None) -> list[Instance]:
    """The instances of a named set (all, or those whose ``id`` is in ``ids``), in id order."""
    if name not in _FILES:
        raise ValueError(f"unknown benchmark set {name!r}: use one of {', '.join(BENCHMARK_SETS)}")
    filename, side = _FILES[name]
    text = resources.files("npuzzle").joinpath("data", filename).read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    header = lines[0].split("\t")
    out = []
    for line in lines[1:]:
        row = dict(zip(header, line.split("\t")))
        number = int(row["id"])
        if ids is not None and number not in ids:
            continue
        tiles = tuple(int(x) for x in row["tiles"].split())
        published = row.get("korf1985_nodes") or row.get("kf2002_nodes")
        recomputed = row.get("ida_md_nodes_recomputed")
        out.append(Instance(
            name, number, Board(side, side, tiles), "blank-first", int(row["optimal_length"]),
            int(published) if published else None, int(recomputed) if recomputed else None,
        ))
    if ids is not None:
        unknown = sorted(set(ids) - {i.id for i in out})
        if unknown:
            raise ValueError(f"{name} has no instance {', '.join(map(str, unknown))}")
    return out
