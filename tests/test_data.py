"""The repository's copies of the published data: well formed, and, where the published folder
``../shared/benchmarks`` is beside the checkout, equal to it (an optional cross-check)."""

from __future__ import annotations

from importlib import resources

import pytest
from conftest import SHARED_BENCHMARKS, TEST_DATA, known_counts, read_tsv

from npuzzle import Board

#: The repository's copy of each published file.
COPIES = {
    "known_counts.txt": TEST_DATA / "known_counts.txt",
    "korf100.tsv": resources.files("npuzzle").joinpath("data", "korf100.tsv"),
    "korf50_24.tsv": resources.files("npuzzle").joinpath("data", "korf50_24.tsv"),
}


def test_known_counts_keep_their_provenance_and_add_up():
    text = (TEST_DATA / "known_counts.txt").read_text(encoding="utf-8")
    assert text.startswith("# source:") and "OEIS" in text
    counts = known_counts()
    assert {"2x3_corner", "2x4_corner", "3x3_corner", "3x4_corner", "4x4_corner"} <= set(counts)
    for label in ("2x3_corner", "2x4_corner", "3x3_corner", "3x3_center", "3x4_corner", "4x4_corner"):
        states, by_distance = counts[label]
        assert sum(by_distance) == states, label


@pytest.mark.parametrize(("name", "side", "count"), [("korf100.tsv", 4, 100), ("korf50_24.tsv", 5, 50)])
def test_packaged_benchmark_sets_are_solvable_boards(name, side, count):
    rows = read_tsv(name)
    assert [int(r["id"]) for r in rows] == list(range(1, count + 1))
    for row in rows:
        board = Board(side, side, tuple(int(t) for t in row["tiles"].split()))
        assert board.is_solvable("blank-first")
        assert int(row["optimal_length"]) >= board.manhattan("blank-first")


@pytest.mark.parametrize("name", sorted(COPIES))
def test_copies_equal_the_published_files(name):
    published = SHARED_BENCHMARKS / name
    if not published.is_file():
        pytest.skip(f"optional cross-check: no published folder at {SHARED_BENCHMARKS} "
                    "(set NPUZZLE_BENCHMARKS to point at one)")
    mine = COPIES[name].read_text(encoding="utf-8")
    theirs = published.read_text(encoding="utf-8")
    data = [ln for ln in mine.splitlines() if not ln.startswith("#")]
    assert data == [ln for ln in theirs.splitlines() if not ln.startswith("#")]
