"""A*: optimal lengths against breadth-first search, node counts against a slow reference A*,
limits, weighted A*, every board shape and every lower bound of the heuristic registry."""

from __future__ import annotations

import itertools
import random
from collections import deque

import numpy as np
import pytest
from conftest import read_tsv

from npuzzle.arguments import exact_weight
from npuzzle.board import Board, goal_cell, goal_tiles
from npuzzle.errors import InvalidOptionError, MissingTableError, UnsolvableError
from npuzzle.heuristics import pattern_db, registry
from npuzzle.heuristics.registry import auto_heuristic, evaluate
from npuzzle.heuristics.walking_distance import hashed_indices, walking_indices
from npuzzle.search import astar as astar_module
from npuzzle.search import solve
from npuzzle.search.astar import astar, packing, run_astar
from npuzzle.search.idastar import idastar
from npuzzle.search.limits import INTERRUPTED, MEMORY_LIMIT, NODE_LIMIT, TIMEOUT, Limit

GOALS = ("standard", "blank-first")

# -- slow, obvious references ------------------------------------------------------------------


def neighbours(tiles: tuple[int, ...], width: int) -> list[tuple[int, tuple[int, ...]]]:
    """(blank direction, next position) for the blank moving up, left, right, down."""
    b = tiles.index(0)
    r, c = divmod(b, width)
    height = len(tiles) // width
    out = []
    for d, (dr, dc) in enumerate(((-1, 0), (0, -1), (0, 1), (1, 0))):
        if 0 <= r + dr < height and 0 <= c + dc < width:
            q = b + dr * width + dc
            nxt = list(tiles)
            nxt[b], nxt[q] = nxt[q], 0
            out.append((d, tuple(nxt)))
    return out


def bfs_distances(height: int, width: int, goal: str = "standard") -> dict[tuple[int, ...], int]:
    """Distance to the goal of every position that reaches it, by breadth-first search."""
    start = goal_tiles(height * width, goal)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        tiles = queue.popleft()
        for _, nxt in neighbours(tiles, width):
            if nxt not in dist:
                dist[nxt] = dist[tiles] + 1
                queue.append(nxt)
    return dist


def longest_increasing(seq: list[int]) -> int:
    best = [1] * len(seq)
    for i in range(len(seq)):
        for j in range(i):
            if seq[j] < seq[i]:
                best[i] = max(best[i], best[j] + 1)
    return max(best, default=0)


def heuristic_value(tiles: tuple[int, ...], width: int, goal: str, heuristic: str) -> int:
    """Manhattan distance, plus two moves per tile that must leave its goal row or column."""
    n = len(tiles)
    height = n // width
    home = {t: divmod(goal_cell(t, n, goal), width) for t in range(1, n)}
    total = sum(abs(cell // width - home[t][0]) + abs(cell % width - home[t][1])
                for cell, t in enumerate(tiles) if t)
    if heuristic == "lc":
        for r in range(height):
            line = [home[t][1] for t in tiles[r * width:(r + 1) * width] if t and home[t][0] == r]
            total += 2 * (len(line) - longest_increasing(line))
        for c in range(width):
            line = [home[t][0] for t in tiles[c::width] if t and home[t][1] == c]
            total += 2 * (len(line) - longest_increasing(line))
    return total


def reference_astar(board: Board, goal: str, heuristic: str, weight: float = 1.0) -> tuple[int, int, int]:
    """(length, expanded, generated) of A* with the kernel's rules, written plainly: expand the
    smallest den*g + num*h, then the largest g, then the last pushed; a position found again
    with a smaller g before it is expanded gets a new copy (the old one is skipped); nothing
    expanded is reopened, except with pattern databases; the parent's position is never
    generated; the goal ends the search when it is expanded. Manhattan distance and linear
    conflict are computed here, the other bounds by ``registry.evaluate``."""
    if heuristic in ("manhattan", "lc"):
        def value(tiles: tuple[int, ...]) -> int:
            return heuristic_value(tiles, board.width, goal, heuristic)
    else:
        def value(tiles: tuple[int, ...]) -> int:
            return evaluate(Board(board.height, board.width, tiles), goal, heuristic)
    reopen = "pdb:" in heuristic
    frac = exact_weight(weight)
    num, den = frac.numerator, frac.denominator
    width = board.width
    g: list[int] = [0]
    came: list[int] = [-1]
    done: list[bool] = [False]
    stale: list[bool] = [False]
    positions = [board.tiles]
    live = {board.tiles: 0}
    buckets: dict[tuple[int, int], list[int]] = {(num * value(board.tiles), 0): [0]}
    expanded, generated = 0, 1
    while True:
        key = min((k for k, stack in buckets.items() if stack), key=lambda k: (k[0], -k[1]))
        i = buckets[key][-1]
        if stale[i]:
            buckets[key].pop()
            continue
        h = (key[0] - den * g[i]) // num
        if h == 0:
            return g[i], expanded, generated
        buckets[key].pop()
        done[i] = True
        expanded += 1
        for d, nxt in neighbours(positions[i], width):
            if came[i] >= 0 and d == 3 - came[i]:
                continue
            generated += 1
            j = live.get(nxt)
            if j is not None:
                if g[i] + 1 >= g[j] or (done[j] and not reopen):
                    continue
                stale[j] = True
            k = len(g)
            g.append(g[i] + 1)
            came.append(d)
            done.append(False)
            stale.append(False)
            positions.append(nxt)
            live[nxt] = k
            p = den * g[k] + num * value(nxt)
            buckets.setdefault((p, g[k]), []).append(k)


def random_board(height: int, width: int, goal: str, rng: random.Random) -> Board:
    while True:
        tiles = list(range(height * width))
        rng.shuffle(tiles)
        b = Board(height, width, tuple(tiles))
        if b.is_solvable(goal):
            return b


def scrambled(height: int, width: int, goal: str, moves: int, rng: random.Random) -> Board:
    tiles = goal_tiles(height * width, goal)
    for _ in range(moves):
        tiles = rng.choice(neighbours(tiles, width))[1]
    return Board(height, width, tiles)


def check_optimal(board: Board, goal: str, heuristic: str, expected: int) -> None:
    sol = astar(board, goal=goal, heuristic=heuristic)
    assert sol.solved and sol.optimal
    assert sol.length == expected == sol.lower_bound
    assert board.apply(sol.moves).is_goal(goal)
    assert sol.stats.generated >= sol.stats.expanded + 1
    assert sum(it.generated for it in sol.stats.iterations) == sol.stats.generated
    assert sum(it.expanded for it in sol.stats.iterations) == sol.stats.expanded


# -- optimal lengths ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(2, 3), (3, 2)])
@pytest.mark.parametrize("goal", GOALS)
def test_every_small_state_matches_bfs(shape, goal):
    dist = bfs_distances(*shape, goal)
    assert len(dist) == 360
    for tiles, d in dist.items():
        for heuristic in ("manhattan", "lc"):
            check_optimal(Board(*shape, tiles), goal, heuristic, d)


@pytest.fixture(scope="module")
def bfs_3x3() -> dict[tuple[int, ...], int]:
    return bfs_distances(3, 3)


def test_3x3_sample_matches_bfs(bfs_3x3):
    assert len(bfs_3x3) == 181440
    rng = random.Random(3)
    sample = rng.sample(sorted(bfs_3x3), 150)
    sample.append(max(bfs_3x3, key=bfs_3x3.get))  # a position at distance 31
    for tiles in sample:
        b = Board(3, 3, tiles)
        check_optimal(b, "standard", "manhattan", bfs_3x3[tiles])
        # The same position seen from the other goal convention has the same distance.
        check_optimal(b.converted(), "blank-first", "lc", bfs_3x3[tiles])


@pytest.mark.parametrize("shape", [(2, 4), (4, 2)])
def test_2x4_and_4x2_samples_match_bfs(shape):
    dist = bfs_distances(*shape, "blank-first")
    assert len(dist) == 20160
    rng = random.Random(24)
    for tiles in rng.sample(sorted(dist), 80):
        check_optimal(Board(*shape, tiles), "blank-first", rng.choice(("manhattan", "lc")), dist[tiles])


@pytest.mark.parametrize("shape", [(3, 4), (4, 3)])
def test_random_3x4_matches_idastar(shape):
    rng = random.Random(34)
    for goal in GOALS:
        b = random_board(*shape, goal, rng)
        expected = idastar(b, goal=goal, heuristic="lc").length
        check_optimal(b, goal, "lc", expected)


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (4, 5), (5, 5), (6, 6), (8, 8), (2, 32)])
def test_larger_boards_match_idastar(shape):
    """Boards packed in 1, 2, 4 and 7 words, near the goal."""
    rng = random.Random(sum(shape))
    b = scrambled(*shape, "standard", 24, rng)
    expected = idastar(b, heuristic="lc").length
    check_optimal(b, "standard", "lc", expected)


@pytest.mark.parametrize("id_, length", [(12, 45), (19, 46), (9, 46)])
def test_easy_korf_instances(id_, length):
    row = next(r for r in read_tsv("korf100.tsv") if int(r["id"]) == id_)
    assert int(row["optimal_length"]) == length
    b = Board(4, 4, tuple(int(x) for x in row["tiles"].split()))
    check_optimal(b, "blank-first", "lc", length)


# -- the kernel against the slow reference -----------------------------------------------------


@pytest.mark.parametrize("weight", [1.0, 1.5, 3.0])
def test_node_counts_equal_the_reference(weight):
    rng = random.Random(int(weight * 10))
    cases = [(2, 3), (3, 2), (2, 4), (3, 3), (4, 3)]
    for (h, w), goal, heuristic in itertools.product(cases, GOALS, ("manhattan", "lc")):
        b = scrambled(h, w, goal, 40, rng) if h * w == 12 else random_board(h, w, goal, rng)
        sol = astar(b, goal=goal, heuristic=heuristic, weight=weight)
        ref = reference_astar(b, goal, heuristic, weight)
        assert (sol.length, sol.stats.expanded, sol.stats.generated) == ref, (b, goal, heuristic)


# -- weighted A* -------------------------------------------------------------------------------


@pytest.mark.parametrize("weight", [1.25, 1.5, 2.0, 3.0])
def test_weighted_within_its_bound(bfs_3x3, weight):
    rng = random.Random(7)
    for tiles in rng.sample(sorted(bfs_3x3), 60):
        b = Board(3, 3, tiles)
        best = bfs_3x3[tiles]
        sol = astar(b, weight=weight, heuristic="lc")
        assert sol.solved and b.apply(sol.moves).is_goal()
        assert best <= sol.length <= weight * best
        assert sol.lower_bound <= best
        assert sol.optimal == (sol.lower_bound == sol.length)
        assert sol.method == "weighted-astar" and f"<= {weight:g} x optimal" in sol.note
        stopped = astar(b, weight=weight, heuristic="lc", limit=Limit(max_nodes=sol.stats.generated // 2 + 1))
        assert stopped.status == NODE_LIMIT and stopped.lower_bound <= best


def test_bad_weights_are_rejected():
    b = Board(2, 3, (1, 2, 3, 4, 0, 5))
    for weight in (0.5, 1000.5, float("nan")):
        with pytest.raises(InvalidOptionError, match="weight"):
            astar(b, weight=weight)
    assert astar(b, weight=1.2345678).length == 1  # in range: searched as the ratio just below it


# -- limits ------------------------------------------------------------------------------------

HARD_3X3 = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))  # 31 moves


@pytest.mark.parametrize("weight", [1.0, 2.0])
def test_memory_limit_stops_cleanly_with_a_bound(weight):
    full = run_astar(HARD_3X3, weight=weight)
    for max_memory in (64, full.bytes // 8, full.bytes // 3):
        run = run_astar(HARD_3X3, weight=weight, limit=Limit(max_memory=max_memory))
        sol = run.solution
        assert sol.status == MEMORY_LIMIT and not sol.solved and sol.moves == ()
        assert HARD_3X3.manhattan() <= sol.lower_bound <= 31
        assert run.bytes <= max_memory
        assert "positions stored within the memory limit" in sol.note


def test_memory_limit_large_enough_solves():
    run = run_astar(HARD_3X3, limit=Limit(max_memory=4_000_000))
    assert run.solution.solved and run.solution.length == 31
    assert 0 < run.bytes <= 4_000_000 and run.nodes > run.solution.stats.expanded


@pytest.mark.parametrize("heuristic", ["manhattan", "lc"])
def test_node_limit(heuristic):
    full = astar(HARD_3X3, heuristic=heuristic)
    for max_nodes in (1, 5, 1000, full.stats.generated - 1):
        sol = astar(HARD_3X3, heuristic=heuristic, limit=Limit(max_nodes=max_nodes))
        assert sol.status == NODE_LIMIT and sol.moves == ()
        assert sol.stats.generated <= max_nodes
        assert sol.lower_bound <= 31
    sol = astar(HARD_3X3, heuristic=heuristic, limit=Limit(max_nodes=full.stats.generated))
    assert sol.solved and sol.stats.generated == full.stats.generated


def test_lower_bound_rises_through_the_iterations():
    sol = astar(HARD_3X3)
    thresholds = [it.threshold for it in sol.stats.iterations]
    assert thresholds[0] == HARD_3X3.manhattan() and thresholds[-1] == 31
    assert all(b - a == 2 for a, b in itertools.pairwise(thresholds))
    seen = []
    astar(HARD_3X3, on_iteration=lambda it, final: seen.append((it.threshold, final)))
    assert seen == [(t, t == 31) for t in thresholds]
    stopped = astar(HARD_3X3, limit=Limit(max_nodes=2000))
    assert stopped.lower_bound == stopped.stats.iterations[-1].threshold


def test_timeout_already_passed():
    sol = astar(HARD_3X3, limit=Limit(timeout=1e-12))
    assert sol.status == TIMEOUT and sol.lower_bound == HARD_3X3.manhattan()


def test_interrupt_is_reported(monkeypatch):
    from npuzzle._kernels import astar as kernels

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(kernels, "astar_slice", interrupted)
    sol = astar(HARD_3X3)
    assert sol.status == INTERRUPTED and sol.lower_bound == HARD_3X3.manhattan()


# -- inputs ------------------------------------------------------------------------------------


def test_inputs_are_checked():
    with pytest.raises(UnsolvableError):
        astar(Board(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0)))
    with pytest.raises(InvalidOptionError, match="heuristic"):
        astar(HARD_3X3, heuristic="pdb")
    with pytest.raises(InvalidOptionError, match="9x9"):
        astar(Board.goal(9, 9))
    goal = astar(Board.goal(2, 3))
    assert goal.solved and goal.length == 0 and goal.stats.generated == 1


def test_packing_sizes():
    assert packing(9) == (4, 1)
    assert packing(16) == (4, 1)
    assert packing(25) == (5, 2)
    assert packing(36) == (6, 4)
    assert packing(64) == (6, 7)
    assert astar_module.MAX_CELLS == 64


# -- every lower bound -------------------------------------------------------------------------

#: The pattern databases built for the tests below, by shape (both goals).
PARTITIONS = {(2, 3): "3-2", (3, 2): "3-2", (3, 3): "4-4", (2, 4): "4-3", (4, 3): "3-4-4", (3, 5): "3-3-4-4"}


def bounds(shape: tuple[int, int]) -> tuple[str, ...]:
    """Every kind of lower bound: walking and inversion distance, their max, the shape's
    pattern databases alone and with both (mirrored lookups too on square boards)."""
    return ("wd", "id", "wd+id", f"pdb:{PARTITIONS[shape]}", f"pdb:{PARTITIONS[shape]}+wd+id")


def clear_table_caches() -> None:
    pattern_db._load.cache_clear()
    registry._kernel_heuristic.cache_clear()


@pytest.fixture(scope="module")
def pdb_store(tmp_path_factory):
    """Every partition of ``PARTITIONS``, both goals, in a temporary table store."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("NPUZZLE_DATA_DIR", str(tmp_path_factory.mktemp("tables")))
        clear_table_caches()
        for (h, w), name in PARTITIONS.items():
            for goal in GOALS:
                pattern_db.build(name, h, w, goal, progress=False)
        yield
    clear_table_caches()


def check_bound(board: Board, goal: str, heuristic: str, weight: float, expected: int) -> None:
    """A* (weight 1: the optimum ``expected``) or weighted A* (within ``weight`` x it), starting
    from the value ``registry.evaluate`` gives, with a lower bound that holds."""
    sol = astar(board, goal=goal, heuristic=heuristic, weight=weight)
    assert sol.solved and board.apply(sol.moves).is_goal(goal), (board, heuristic)
    assert sol.heuristic == heuristic
    assert sol.stats.iterations[0].threshold == evaluate(board, goal, heuristic)
    assert sol.lower_bound <= expected <= sol.length <= weight * expected, (board, heuristic, weight)
    if weight == 1:
        assert sol.optimal and sol.length == sol.lower_bound == expected, (board, heuristic)


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(2, 3), (3, 2)])
@pytest.mark.parametrize("goal", GOALS)
def test_every_bound_on_every_small_state_matches_bfs(pdb_store, shape, goal):
    for tiles, d in bfs_distances(*shape, goal).items():
        for heuristic in bounds(shape):
            for weight in (1.0, 1.5):
                check_bound(Board(*shape, tiles), goal, heuristic, weight, d)


@pytest.mark.slow
@pytest.mark.parametrize("shape, count", [((3, 3), 12), ((2, 4), 12), ((4, 3), 3), ((3, 5), 2)])
def test_every_bound_on_random_positions_matches_idastar(pdb_store, shape, count):
    rng = random.Random(sum(shape))
    for goal in GOALS:
        for _ in range(count):
            b = random_board(*shape, goal, rng)
            expected = idastar(b, goal=goal, heuristic=f"pdb:{PARTITIONS[shape]}+id").length
            for heuristic in bounds(shape):
                if shape == (3, 5) and "wd" in heuristic:  # its column tables take 8 s to build
                    continue
                for weight in (1.0, 2.0):
                    check_bound(b, goal, heuristic, weight, expected)


@pytest.mark.parametrize("weight", [1.0, 1.5, 3.0])
def test_every_bound_counts_nodes_like_the_reference(pdb_store, weight):
    """The kernel expands and generates exactly the nodes of the slow reference A* that takes
    every child's value from ``registry.evaluate``: the incremental values equal the plain ones
    at every node, and with pattern databases both reopen the same positions."""
    rng = random.Random(int(weight * 7))
    for shape, goal in itertools.product([(2, 3), (3, 2), (3, 3), (2, 4)], GOALS):
        b = random_board(*shape, goal, rng)
        for heuristic in bounds(shape):
            sol = astar(b, goal=goal, heuristic=heuristic, weight=weight)
            ref = reference_astar(b, goal, heuristic, weight)
            assert (sol.length, sol.stats.expanded, sol.stats.generated) == ref, (b, goal, heuristic)


@pytest.mark.parametrize("shape", [(2, 3), (3, 2)])
@pytest.mark.parametrize("goal", GOALS)
def test_consistent_bounds_change_by_one_and_pattern_databases_do_not(pdb_store, shape, goal):
    """Every move of every position: Manhattan distance, linear conflict, walking and inversion
    distance change by exactly one; the pattern databases (each placement's least cost over the
    blank's cells) change by up to 7, which is why A* reopens with them."""
    states = bfs_distances(*shape, goal)
    for heuristic in ("manhattan", "lc", *bounds(shape)):
        value = {t: evaluate(Board(*shape, t), goal, heuristic) for t in states}
        changes = {value[nxt] - value[t] for t in states for _, nxt in neighbours(t, shape[1])}
        if "pdb" in heuristic:
            assert changes >= {-3, -1, 1, 3} and all(c % 2 for c in changes), heuristic
        else:
            assert changes == {-1, 1}, heuristic


def test_pattern_databases_reopen_and_stay_optimal(pdb_store):
    """Some 3x3 positions make A* with the 4-4 tables reach an expanded position again by a
    shorter path; it is expanded again, and the lengths still equal the BFS distances."""
    dist = bfs_distances(3, 3)
    rng = random.Random(5)
    reopened = 0
    for tiles in rng.sample(sorted(dist), 200):
        run = run_astar(Board(3, 3, tiles), heuristic="pdb:4-4")
        assert run.solution.length == dist[tiles]
        reopened += run.reopened
    assert reopened > 0
    assert run_astar(Board(3, 3, tiles), heuristic="wd+id").reopened == 0


@pytest.mark.parametrize("heuristic", ["wd", "id", "pdb:4-4+wd", "pdb:4-4+id"])
def test_root_bound_of_a_stopped_search_is_the_heuristic_value(pdb_store, heuristic):
    for goal in GOALS:
        b = HARD_3X3 if goal == "standard" else HARD_3X3.converted()
        sol = astar(b, goal=goal, heuristic=heuristic, limit=Limit(max_nodes=1))
        assert sol.status == NODE_LIMIT and sol.lower_bound == evaluate(b, goal, heuristic) > b.manhattan(goal)
        full = astar(b, goal=goal, heuristic=heuristic)
        assert full.length == 31 and full.lower_bound == 31
        assert [it.threshold for it in full.stats.iterations][0] == sol.lower_bound


def test_a_value_off_by_two_is_caught(pdb_store, monkeypatch):
    """The kernel recomputes each expanded node's value from its board: a start value that is
    not the board's stops the search instead of returning a wrong length."""
    start = registry.KernelHeuristic.start
    monkeypatch.setattr(registry.KernelHeuristic, "start", lambda self, b: (start(self, b)[0], start(self, b)[1] + 2))
    for heuristic in ("wd", "pdb:4-4"):
        with pytest.raises(AssertionError, match="heuristic"):
            astar(HARD_3X3, heuristic=heuristic)


def test_tables_of_the_other_goal_are_used_on_the_turned_board(tmp_path, monkeypatch):
    monkeypatch.setenv("NPUZZLE_DATA_DIR", str(tmp_path))
    clear_table_caches()
    try:
        with pytest.raises(MissingTableError, match="pdb:4-3"):
            astar(Board(2, 4, (1, 2, 3, 4, 5, 6, 0, 7)), heuristic="pdb:4-3")
        pattern_db.build("4-3", 2, 4, "blank-first", progress=False)
        dist = bfs_distances(2, 4, "standard")
        for tiles in random.Random(8).sample(sorted(dist), 10):
            b = Board(2, 4, tiles)
            sol = astar(b, heuristic="pdb:4-3+wd")
            assert sol.solved and sol.length == dist[tiles] == sol.lower_bound and b.apply(sol.moves).is_goal()
            assert "blank-first goal" in sol.note
            weighted = astar(b, heuristic="pdb:4-3", weight=2)
            assert "<= 2 x optimal" in weighted.note and "blank-first goal" in weighted.note
            assert weighted.lower_bound <= dist[tiles] <= weighted.length <= 2 * dist[tiles]
    finally:
        clear_table_caches()


def test_solve_picks_the_same_auto_heuristic_for_astar_and_idastar(pdb_store):
    b = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))
    name, _ = auto_heuristic(3, 3, "standard")
    assert name == "pdb:4-4+wd"
    a, i = solve(b, method="astar"), solve(b, method="idastar")
    assert a.heuristic == i.heuristic == name and a.length == i.length == 31
    assert solve(Board.goal(5, 5).move(24), method="astar").heuristic == "lc"


@pytest.mark.parametrize("shape", [(2, 3), (3, 3), (4, 4), (3, 4), (5, 2)])
def test_hashed_walking_indices_equal_the_dictionary_lookup(shape):
    rng = random.Random(shape[0] * 10 + shape[1])
    n = shape[0] * shape[1]
    for goal in GOALS:
        tables = hashed_indices(*shape, goal)
        for _ in range(40):
            b = random_board(*shape, goal, rng)
            found = []
            for t in tables:
                key = sum(int(t.weights[cell * n + tile]) for cell, tile in enumerate(b.tiles)) % 2**64
                j = int(np.searchsorted(t.keys, np.uint64(key)))
                assert int(t.keys[j]) == key
                found.append(int(t.index[j]))
            assert tuple(found) == walking_indices(b, goal)


@pytest.mark.parametrize("weight", [300, 1000, 999.5])
def test_large_weights_in_the_documented_range_solve_rather_than_stop(weight):
    """Weights up to 1000 are documented: their priority buckets used to be sized by the largest
    priority times the largest g (5.8 GB for 300 on a 4x4), and the search stopped at once with
    a false memory limit and one position stored."""
    from npuzzle.search.astar import astar

    board = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))
    s = astar(board, weight=weight, limit=Limit(max_memory=256 << 20))
    assert s.solved and board.apply(s.moves).is_goal() and s.lower_bound <= 31 <= s.length
    hard = Board(4, 4, (0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1))
    t = astar(hard, weight=weight)
    assert t.solved and hard.apply(t.moves).is_goal() and t.lower_bound <= 80 <= t.length
