"""Shared test fixtures: the benchmark data in ``../shared/benchmarks`` beside the checkout."""

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


@pytest.fixture(scope="session")
def korf100() -> list[dict[str, str]]:
    return read_tsv("korf100.tsv")
