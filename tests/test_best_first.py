"""The best-first driver's pieces: the arena sized from its dtypes and grown, and the one check
of the limits between two kernel slices."""

from __future__ import annotations

import time

from npuzzle.search.astar import _arena
from npuzzle.search.best_first import grown, largest_capacity, node_bytes
from npuzzle.search.limits import NODE_LIMIT, TIMEOUT, Clock, Limit

NODE_FIELDS = ("keys", "g", "parent", "info", "link")


def test_a_node_takes_the_bytes_of_its_fields_dtypes():
    words = 2
    arena = _arena(words, 16, 4, 5)
    # keys (int64 a word), g (int16), parent (int32), info (uint8), link (int32), two int32 table slots
    assert node_bytes(arena, (*NODE_FIELDS, "table"), 16) == 8 * words + 2 + 4 + 1 + 4 + 2 * 4
    assert largest_capacity(35, 35 * 1000 + 34) == 1000


def test_growing_keeps_the_used_rows_and_leaves_the_other_arrays():
    arena = _arena(2, 16, 4, 5)
    arena.keys[:3] = [[1, 2], [3, 4], [5, 6]]
    arena.g[:5] = [1, 2, 3, 4, 5]
    bigger = grown(arena, NODE_FIELDS, 64, lambda name: 3)
    assert bigger.keys.shape == (64, 2) and bigger.g.shape == (64,) and bigger.g.dtype == arena.g.dtype
    assert bigger.keys[:3].tolist() == [[1, 2], [3, 4], [5, 6]] and not bigger.keys[3:].any()
    assert bigger.g[:3].tolist() == [1, 2, 3] and not bigger.g[3:].any()  # only the used rows are kept
    assert bigger.table is arena.table and bigger.heads is arena.heads  # the driver remakes the table


def test_the_budget_of_a_slice_respects_the_node_and_time_limits():
    clock = Clock(Limit())
    assert clock.slice_budget(Limit(), 10**9, 100) == (100, None)
    assert clock.slice_budget(Limit(max_nodes=50), 20, 100) == (30, None)
    assert clock.slice_budget(Limit(max_nodes=50), 50, 100) == (0, NODE_LIMIT)
    limit = Limit(timeout=1e-6)
    late = Clock(limit)
    time.sleep(0.01)
    assert late.slice_budget(limit, 0, 100) == (0, TIMEOUT)
