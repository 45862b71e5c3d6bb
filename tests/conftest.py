"""Shared test fixtures and helpers: the benchmark data in ``../shared/benchmarks`` beside the
checkout, and the check of a heuristic's incremental kernel updates."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BENCHMARKS = Path(os.environ.get("NPUZZLE_BENCHMARKS", REPO.parent / "shared" / "benchmarks"))


def read_tsv(name: str) -> list[dict[str, str]]:
    """Rows of a benchmark TSV (``#`` lines are comments; the first other line is the header)."""
    lines = [ln.rstrip("\n") for ln in (BENCHMARKS / name).read_text().splitlines() if not ln.startswith("#")]
    header = lines[0].split("\t")
    return [dict(zip(header, ln.split("\t"))) for ln in lines[1:] if ln.strip()]


def check_kernel_heuristic(shape: tuple[int, int], goal: str, heuristic: str, walk: int) -> None:
    """IDA* with ``heuristic`` on two random walks of ``walk`` steps prunes, iteration by
    iteration, exactly as a naive search using the plain-Python value: the kernel's incremental
    value equals the plain one at every node (see ``naive.check_pruning``)."""
    from naive import check_pruning
    from npuzzle import Board
    from npuzzle.heuristics.registry import evaluate
    from npuzzle.instances import random_walk
    from npuzzle.search.idastar import idastar

    for seed in range(2):
        b = random_walk(*shape, walk, seed=seed, goal=goal)
        if b.is_goal(goal):
            continue
        check_pruning(lambda x: idastar(x, goal=goal, heuristic=heuristic, pruning="parent"), b, goal,
                      lambda t: evaluate(Board(*shape, t), goal, heuristic))


@pytest.fixture(scope="session")
def korf100() -> list[dict[str, str]]:
    return read_tsv("korf100.tsv")
