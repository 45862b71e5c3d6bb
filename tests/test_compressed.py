"""Compressed pattern databases (issue 37) and the max of two partitions: admissible on every
state of small boards (against BFS), never above the uncompressed tables, optimal lengths, the
IDA* kernel's incremental values equal to the plain ones at every node, and the table store
keeping compressed tables apart from the uncompressed ones. Every table is built in a temporary
directory."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_kernel_heuristic
from naive import bfs_distances

from npuzzle import Board, tables
from npuzzle.cli import main
from npuzzle.errors import InvalidOptionError, TableFormatError
from npuzzle.heuristics import pattern_db
from npuzzle.heuristics.registry import evaluate, parse, single
from npuzzle.search.astar import astar
from npuzzle.search.idastar import idastar

GOALS = ["standard", "blank-first"]
#: (shape, partition, compressions, a second partition for the max)
SMALL = [((3, 3), "4-4", ("0-1", "1-2", "3-3"), "3-5/1-2"), ((2, 4), "4-3", ("0-1", "2-1"), "3-4/1-1"),
         ((4, 2), "4-3", ("1-0", "3-2"), "2-5/0-2")]


@pytest.fixture(autouse=True)
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("NPUZZLE_DATA_DIR", str(tmp_path))
    pattern_db._load.cache_clear()
    yield tmp_path
    pattern_db._load.cache_clear()


@pytest.mark.slow
@pytest.mark.parametrize("shape, name, comps, second", SMALL)
def test_compressed_tables_are_admissible_on_every_state(shape, name, comps, second):
    """On every state of 2x4 and 4x2 and 6,000 of 3x3: a compressed table's bound is at most the
    exact distance (BFS), has its parity, is at least the Manhattan distance and at most the
    uncompressed table's bound; the max of two partitions is the max of their bounds."""
    h, w = shape
    for goal in GOALS:
        pattern_db.build(name, h, w, goal)
        pattern_db.build(second, h, w, goal)
        for comp in comps:
            pattern_db.build(f"{name}/{comp}", h, w, goal)
        dist = bfs_distances(h, w, goal)
        for tiles in sorted(dist)[:: 1 + len(dist) // 6000]:  # every state of 2x4, a sample of 3x3
            d = dist[tiles]
            b = Board(h, w, tiles)
            full = evaluate(b, goal, f"pdb:{name}")
            md = b.manhattan(goal)
            for comp in comps:
                v = evaluate(b, goal, f"pdb:{name}/{comp}")
                assert md <= v <= full <= d and (d - v) % 2 == 0, (tiles, comp)
            both = evaluate(b, goal, f"pdb:{name}/{comps[0]}+pdb:{second}")
            assert both == max(evaluate(b, goal, f"pdb:{name}/{comps[0]}"), evaluate(b, goal, f"pdb:{second}"))
            assert both <= d


def test_compression_keeps_the_least_entry():
    """Entry j of a table compressed by its last tile is the least of the uncompressed entries
    over that tile's places (the placements of rank j * places ... j * places + places - 1)."""
    pattern_db.build("4-4", 3, 3)
    pattern_db.build("4-4/0-1", 3, 3)
    full = pattern_db.load_partition("4-4", 3, 3)
    comp = pattern_db.load_partition("4-4/0-1", 3, 3)
    places = 9 - 3
    for j in range(pattern_db.placements(9, 3)):
        assert comp.entry(1, j) == min(full.entry(1, j * places + i) for i in range(places))
    assert all(comp.entry(0, r) == full.entry(0, r) for r in range(pattern_db.placements(9, 4)))
    assert comp.data.size * 2 >= pattern_db.placements(9, 4) + pattern_db.placements(9, 3)


@pytest.mark.slow
@pytest.mark.parametrize("heuristic", ["pdb:4-4/0-1", "pdb:4-4/3-3+pdb:3-5", "pdb:4-4/1-2+pdb:3-5/1-2"])
def test_optimal_lengths_and_the_kernels_values(heuristic):
    """IDA* with compressed tables and two partitions finds the BFS lengths, and prunes at every
    node exactly as a naive search with the plain value (the kernel's incremental ranks, entries
    and sums, direct and mirrored, are right); A* reads the first partition and is optimal too."""
    for goal in GOALS:
        for name in ("4-4", "4-4/0-1", "4-4/3-3", "4-4/1-2", "3-5", "3-5/1-2"):
            pattern_db.build(name, 3, 3, goal)
        dist = bfs_distances(3, 3, goal)
        for tiles in sorted(dist)[:: len(dist) // 25]:
            b = Board(3, 3, tiles)
            assert idastar(b, goal=goal, heuristic=heuristic).length == dist[tiles]
            assert astar(b, goal=goal, heuristic=heuristic).length == dist[tiles]
        check_kernel_heuristic((3, 3), goal, heuristic, 30)


def test_names_and_refusals():
    assert pattern_db.drops_for("7-8/0-1", 4, 4) == (0, 1)
    assert pattern_db.table_key("7-8/0-1", 4, 4, "blank-first").pattern == "1.2.3.4.5.6.7-8.9.10.11.12.13.14+15"
    assert pattern_db.table_key("7-8/0-1", 4, 4, "blank-first") != pattern_db.table_key("7-8", 4, 4, "blank-first")
    for bad in ("7-8/1", "7-8/0-0", "7-8/7-0", "7-8/a-b"):
        with pytest.raises(InvalidOptionError):
            pattern_db.drops_for(bad, 4, 4)
    with pytest.raises(InvalidOptionError):
        pattern_db.drops_for("6-6-6-6/0-0-0-1", 5, 5)  # blank-aware tables are not compressed
    spec = parse("pdb:7-8/0-1+pdb:7-8s/0-1")
    assert (spec.pdb, spec.pdb2) == ("7-8/0-1", "7-8s/0-1")
    assert single(spec).name == "pdb:7-8/0-1"
    with pytest.raises(InvalidOptionError):
        parse("pdb:4-4+pdb:3-5+pdb:2-6")


def test_the_store_keeps_compressed_tables_apart(store, capsys):
    """A compressed table is its own file, listed by its name; built from the stored partition
    when there is one; a header that does not say it is compressed is refused."""
    assert main(["tables", "build", "pdb:4-4/0-1", "--shape", "3x3"]) == 0  # the partition built in memory
    assert not pattern_db.is_built("4-4", 3, 3, "standard")
    assert main(["tables", "build", "pdb:4-4", "--shape", "3x3"]) == 0
    capsys.readouterr()
    assert main(["tables", "list"]) == 0
    out = capsys.readouterr().out
    assert "pdb:4-4/0-1 --shape 3x3 --goal standard" in out and "pdb:4-4 --shape 3x3 --goal standard" in out
    key = pattern_db.table_key("4-4/0-1", 3, 3, "standard")
    table = tables.load_table(key)
    assert table.meta["compressed"] == [0, 1]
    meta = dict(table.meta, encoding=pattern_db.ENCODING)
    tables.save_table(key, np.array(table.data), meta)
    pattern_db._load.cache_clear()
    with pytest.raises(TableFormatError):
        pattern_db.load_partition("4-4/0-1", 3, 3)


def test_best_is_built_by_one_command_and_picked_by_auto(monkeypatch, capsys):
    """``tables build best`` builds every table of ``BEST`` for the shape; ``auto`` then picks
    them (for the board turned 180 degrees when they are built for the other goal only), and A*
    reads their first partition."""
    from npuzzle.heuristics.registry import auto_heuristic

    monkeypatch.setitem(pattern_db.BEST, (3, 3), ("4-4/0-1", "3-5/1-2"))
    assert auto_heuristic(3, 3, "standard")[0] != "pdb:4-4/0-1+pdb:3-5/1-2"
    assert main(["tables", "build", "best", "--shape", "3x3", "--goal", "blank-first"]) == 0
    out = capsys.readouterr().out
    assert "pdb:4-4/0-1" in out and "pdb:3-5/1-2" in out
    assert pattern_db.is_built("4-4/0-1", 3, 3, "blank-first") and pattern_db.is_built("3-5/1-2", 3, 3, "blank-first")
    for goal in GOALS:
        assert auto_heuristic(3, 3, goal)[0] == "pdb:4-4/0-1+pdb:3-5/1-2"
    dist = bfs_distances(3, 3, "standard")
    tiles = max(dist, key=lambda t: (dist[t], t))
    sol = idastar(Board(3, 3, tiles), goal="standard", heuristic="auto")
    assert sol.length == dist[tiles] and sol.heuristic == "pdb:4-4/0-1+pdb:3-5/1-2"
    assert astar(Board(3, 3, tiles), goal="standard", heuristic="auto").length == dist[tiles]
    assert pattern_db.best(4, 4) == ("7-8",)
