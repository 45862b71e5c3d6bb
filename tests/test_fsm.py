"""Duplicate pruning by the move automaton (``search.fsm``): it forbids exactly the strings a
naive search finds redundant, it leaves one path to each position, and IDA* stays optimal."""

from __future__ import annotations

import collections

import pytest
from naive import bfs_distances, blank_neighbours, check_pruning, naive_forbidden, naive_manhattan

from npuzzle import Board
from npuzzle.errors import TableWarning
from npuzzle.geometry import neighbours
from npuzzle.heuristics.registry import evaluate, parse
from npuzzle.instances import random_walk
from npuzzle.search.fsm import automaton
from npuzzle.search.idastar import idastar, optimal_lengths
from npuzzle.search.registry import resolved_pruning

SHAPES = [(2, 3), (3, 2), (2, 4), (3, 3), (4, 3), (3, 5)]


def tree_counts(height: int, width: int, start: int, depth: int) -> list[int]:
    """Paths of each length from blank cell ``start`` that the automaton lets through (the move
    undoing the last one excluded, as in IDA*)."""
    a = automaton(height, width)
    n = height * width
    nbr = neighbours(height, width)
    level = collections.Counter({(start, -1, 0): 1})
    out = []
    for _ in range(depth + 1):
        out.append(sum(level.values()))
        nxt: collections.Counter = collections.Counter()
        for (cell, last, state), count in level.items():
            for d in range(4):
                q = int(nbr[cell * 4 + d])
                if q < 0 or d == 3 - last:
                    continue
                u = int(a.next[state * 4 + d])
                if not a.bad[u * n + q]:
                    nxt[(q, d, u)] += count
        level = nxt
    return out


def distance_counts(height: int, width: int, start: int, depth: int) -> list[int]:
    """Positions at each distance (up to ``depth``) from the goal-like arrangement with the
    blank on ``start``, by breadth-first search."""
    tiles = list(range(1, height * width))
    tiles.insert(start, 0)
    seen = {tuple(tiles)}
    level = [tuple(tiles)]
    counts = [1]
    for _ in range(depth):
        level = [x for state in level for x in blank_neighbours(state, height, width) if x not in seen
                 and not seen.add(x)]
        counts.append(len(level))
    return counts


@pytest.mark.parametrize("shape", SHAPES)
def test_one_path_to_each_position_up_to_max_len(shape):
    h, w = shape
    a = automaton(h, w)
    assert a.max_len >= 12
    for start in {0, w - 1, h * w // 2, h * w - 1}:
        assert tree_counts(h, w, start, a.max_len) == distance_counts(h, w, start, a.max_len)


def test_4x4_tree_equals_the_published_distance_counts(known):
    published = known["4x4_corner"][1]
    a = automaton(4, 4)
    assert a.max_len == 14
    assert tree_counts(4, 4, 0, 14) == published[:15]
    assert tree_counts(4, 4, 15, 14) == published[:15]


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (3, 3), (2, 4)])
def test_automaton_forbids_what_the_naive_search_forbids(shape):
    """The automaton's tables against a plain enumeration, string by string: every naively
    forbidden string meets a bad state (that no canonical string does is the counts test's)."""
    h, w = shape
    a = automaton(h, w)
    forbidden = naive_forbidden(h, w, a.max_len)
    n = h * w
    nbr = neighbours(h, w)
    steps = "ULRD"
    for start, s in sorted(forbidden):
        state, cell, hit = 0, start, False
        for ch in s:
            d = steps.index(ch)
            cell = int(nbr[cell * 4 + d])
            state = int(a.next[state * 4 + d])
            hit = hit or bool(a.bad[state * n + cell])
        assert hit, (start, s)


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (3, 3), (2, 4), (4, 3)])
@pytest.mark.parametrize("heuristic", ["manhattan", "wd+id"])
def test_kernel_prunes_as_the_naive_search(shape, heuristic):
    """Iteration by iteration, IDA* with the automaton generates as many nodes as a naive IDA*
    that skips every child whose path ends with a naively forbidden string."""
    h, w = shape
    forbidden = naive_forbidden(h, w, automaton(h, w).max_len)
    for seed in range(2):
        b = random_walk(h, w, 40, seed=seed)
        if b.is_goal("standard"):
            continue
        check_pruning(lambda x: idastar(x, heuristic=heuristic, pruning="fsm"), b, "standard",
                      lambda t: evaluate(Board(h, w, t), "standard", heuristic), forbidden)


@pytest.mark.parametrize("shape", [(2, 3), (3, 2)])
@pytest.mark.parametrize("heuristic", ["manhattan", "lc", "wd+id"])
def test_optimal_on_every_position(shape, heuristic):
    h, w = shape
    dist = bfs_distances(h, w)
    boards = [Board(h, w, t) for t in sorted(dist)]
    lengths, _ = optimal_lengths(boards, heuristic=heuristic, pruning="fsm")
    assert lengths == [dist[tuple(b.tiles)] for b in boards]


@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (4, 3), (3, 5)])
def test_optimal_and_fewer_nodes_on_random_positions(shape):
    h, w = shape
    boards = [random_walk(h, w, 200 if h * w <= 12 else 60, seed=s) for s in range(12)]
    fsm, fsm_nodes = optimal_lengths(boards, heuristic="manhattan", pruning="fsm")
    plain, plain_nodes = optimal_lengths(boards, heuristic="manhattan", pruning="parent")
    assert fsm == plain
    assert all(f <= p for f, p in zip(fsm_nodes, plain_nodes, strict=True))
    assert sum(fsm_nodes) < sum(plain_nodes)
    assert all(x >= naive_manhattan(tuple(b.tiles), w) for x, b in zip(fsm, boards, strict=True))


def test_pruning_names():
    with pytest.raises(ValueError, match="unknown pruning"):
        idastar(random_walk(3, 3, 10, seed=1), pruning="tree")
    b = random_walk(3, 3, 60, seed=3)
    auto = idastar(b, heuristic="wd")
    assert auto.stats.generated == idastar(b, heuristic="wd", pruning="fsm").stats.generated
    assert idastar(b).stats.generated == idastar(b, pruning="parent").stats.generated
    assert [resolved_pruning("auto", parse(h), 36) for h in ("manhattan", "lc", "wd", "pdb:4-4")] == [
        "parent", "parent", "fsm", "fsm"]
    assert resolved_pruning("auto", parse("wd"), 49) == "parent"  # the automaton would take seconds to build


def test_kept_in_the_table_store_and_rebuilt_if_unreadable(tmp_path, monkeypatch):
    from npuzzle import tables
    from npuzzle.search import fsm

    monkeypatch.setenv("NPUZZLE_DATA_DIR", str(tmp_path))
    built = fsm.automaton.__wrapped__(3, 3)
    path = tables.table_path(fsm.table_key(3, 3, fsm.MAX_LEN))
    assert path.is_file()
    loaded = fsm.automaton.__wrapped__(3, 3)
    assert (loaded.max_len, loaded.strings, loaded.states) == (built.max_len, built.strings, built.states)
    assert (loaded.packed == built.packed).all()
    assert (loaded.next == built.next).all() and (loaded.bad == built.bad).all()
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.warns(TableWarning, match="checksum mismatch.*building it again"):
        again = fsm.automaton.__wrapped__(3, 3)
    assert (again.packed == built.packed).all()
    assert tables.load_table(fsm.table_key(3, 3, fsm.MAX_LEN)).meta["strings"] == built.strings
    info = [i for i in tables.list_tables() if i.key is not None and i.key.kind == "fsm"]
    assert [i.key.shape for i in info] == ["3x3"]
