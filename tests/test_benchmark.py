"""``npuzzle bench``: lengths are always checked; node counts only where they are Korf's."""

from __future__ import annotations

import io

import pytest

from npuzzle import benchmark
from npuzzle.cli import main


@pytest.mark.parametrize(("heuristic", "pruning", "compared"), [
    ("manhattan", "parent", True), ("manhattan", "auto", True), ("lc", "auto", False), ("wd+id", "fsm", False),
])
def test_node_counts_are_compared_only_for_korfs_search(heuristic, pruning, compared):
    out = io.StringIO()
    rows = benchmark.run("korf100", [12], heuristic=heuristic, pruning=pruning, out=out)
    assert [r.length_ok for r in rows] == [True]
    assert rows[0].nodes_ok is (True if compared else None)
    assert ("node counts equal to Korf's" in out.getvalue()) is compared
    assert "1 lengths equal to the published optimum" in out.getvalue()


def test_bench_with_linear_conflict_exits_0_when_every_length_is_right(capsys):
    assert main(["bench", "korf100", "--ids", "12,19", "--heuristic", "lc"]) == 0
    out = capsys.readouterr().out
    assert "2 lengths equal to the published optimum" in out and "Korf's" not in out.splitlines()[-1]


@pytest.mark.parametrize(("text", "ids"), [("1-3,7", [1, 2, 3, 7]), ("12", [12]), (None, None)])
def test_ids(text, ids):
    assert benchmark.parse_ids(text) == ids


@pytest.mark.slow
def test_a_long_instance_reports_its_progress():
    """``on_progress`` (the command line's status line on a terminal) hears from each search while
    it runs: Korf's #3 with linear conflict generates some 150 million nodes."""
    seen = []
    rows = benchmark.run("korf100", [3], heuristic="lc", out=io.StringIO(), on_progress=seen.append)
    assert rows[0].length_ok and len(seen) >= 10
    assert all(p.bound <= 59 for p in seen) and seen[-1].generated > seen[0].generated
