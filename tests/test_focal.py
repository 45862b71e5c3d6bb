"""Focal search and DPS (``search.focal``): every answer replays and costs at most W times the optimum
that breadth-first search (``tests/naive.py``) finds, its lower bound never exceeds the optimum,
W = 1 is optimal; limits stop it with a bound that holds; options it does not take are refused;
non-unit move costs against Dijkstra's search."""

from __future__ import annotations

import functools
import heapq
import random

import numpy as np
import pytest
from naive import bfs_distances, blank_neighbours, distances_from, goal_tuple, naive_linear_conflict, naive_manhattan

from npuzzle import Board
from npuzzle.errors import InvalidOptionError
from npuzzle.instances import random_walk
from npuzzle.search import Limit, Request, prepare, run
from npuzzle.search.astar import astar
from npuzzle.search.focal import focal, run_focal, run_framed
from npuzzle.search.idastar import idastar
from npuzzle.search.limits import MEMORY_LIMIT, NODE_LIMIT, TIMEOUT

WEIGHTS = (1.0, 1.5, 2.0, 3.0)
METHODS = ("focal", "dps")
GOALS = ("standard", "blank-first")
HARD_3X3 = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))  # 31 moves


def check(board: Board, goal: str, heuristic: str, weight: float, best: int, method: str = "focal") -> None:
    """The answer replays, is within ``weight`` x ``best``, and its proven bound holds."""
    sol = focal(board, goal=goal, heuristic=heuristic, weight=weight, method=method)
    assert sol.solved and board.apply(sol.moves).is_goal(goal), (board, goal, heuristic, weight)
    assert sol.length is not None and best <= sol.length <= weight * best, (board, goal, heuristic, weight, best)
    assert sol.lower_bound <= best, (board, goal, heuristic, weight)
    assert sol.optimal == (sol.lower_bound == sol.length)
    assert sol.method == method and sol.heuristic == heuristic
    if weight == 1:
        assert sol.optimal and sol.length == best


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("shape", [(2, 3), (3, 2)])
@pytest.mark.parametrize("goal", GOALS)
def test_every_small_state_within_the_bound(shape, goal, method):
    dist = bfs_distances(*shape, goal)
    assert len(dist) == 360
    for tiles, d in dist.items():
        for heuristic in ("manhattan", "lc"):
            for weight in WEIGHTS:
                check(Board(*shape, tiles), goal, heuristic, weight, d, method)


@pytest.mark.slow
def test_every_2x4_state_within_the_bound():
    """Every state, every weight; the method and the heuristic alternate from state to state."""
    dist = bfs_distances(2, 4, "blank-first")
    assert len(dist) == 20160
    for k, (tiles, d) in enumerate(sorted(dist.items())):
        for weight in WEIGHTS:
            check(Board(2, 4, tiles), "blank-first", ("manhattan", "lc")[k // 2 % 2], weight, d, METHODS[k % 2])


@pytest.mark.parametrize("method", METHODS)
def test_3x3_sample_within_the_bound(method):
    dist = bfs_distances(3, 3)
    rng = random.Random(33)
    sample = rng.sample(sorted(dist), 60) + [max(dist, key=dist.__getitem__)]  # a position at 31 moves
    for tiles in sample:
        for weight in WEIGHTS:
            heuristic = rng.choice(("manhattan", "lc", "wd+id"))
            check(Board(3, 3, tiles), "standard", heuristic, weight, dist[tiles], method)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("shape", [(4, 3), (3, 5)])
def test_larger_boards_within_the_bound_of_idastar(shape, method):
    for seed in range(2):
        board = random_walk(*shape, 40, seed=seed, goal="blank-first")
        best = idastar(board, goal="blank-first", heuristic="lc").length
        assert best is not None
        for weight in WEIGHTS:
            check(board, "blank-first", "lc", weight, best, method)


@pytest.mark.parametrize("method", METHODS)
def test_pattern_databases_are_not_consistent_and_still_bounded(private_store, method):
    """A pattern database can fall by more than one on a move: the search reopens and keeps its bound."""
    from npuzzle.heuristics import pattern_db

    pattern_db.build("4-4", 3, 3, "standard", progress=False)
    dist = bfs_distances(3, 3)
    for tiles in random.Random(44).sample(sorted(dist), 25):
        for weight in WEIGHTS:
            check(Board(3, 3, tiles), "standard", "pdb:4-4", weight, dist[tiles], method)


def test_a_larger_weight_expands_fewer_nodes_on_a_hard_position():
    full = focal(HARD_3X3, heuristic="manhattan")
    loose = focal(HARD_3X3, heuristic="manhattan", weight=2)
    assert full.length == 31 and loose.stats.expanded < full.stats.expanded
    assert "focal search with w = 2: length <= 2 x optimal" in loose.note
    assert "the optimum is at least" in loose.note


# -- limits ------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("weight", [1.0, 2.0])
def test_node_limit_stops_cleanly_with_a_bound(weight, method):
    full = focal(HARD_3X3, heuristic="manhattan", weight=weight, method=method)
    for max_nodes in (1, 5, full.stats.generated // 2, full.stats.generated - 1):
        sol = focal(HARD_3X3, heuristic="manhattan", weight=weight, limit=Limit(max_nodes=max_nodes), method=method)
        assert sol.status == NODE_LIMIT and not sol.solved and sol.moves == ()
        assert HARD_3X3.manhattan() <= sol.lower_bound <= 31
        assert sol.stats.generated <= max_nodes
    enough = focal(HARD_3X3, heuristic="manhattan", weight=weight, limit=Limit(max_nodes=full.stats.generated),
                   method=method)
    assert enough.solved and enough.moves == full.moves


@pytest.mark.parametrize("method", METHODS)
def test_memory_limit_stops_cleanly_and_grows_within_it(method):
    full = run_focal(HARD_3X3, heuristic="manhattan", method=method)
    for max_memory in (64, full.bytes // 8, full.bytes // 3):
        stopped = run_focal(HARD_3X3, heuristic="manhattan", limit=Limit(max_memory=max_memory), method=method)
        assert stopped.solution.status == MEMORY_LIMIT and stopped.bytes <= max_memory
        assert HARD_3X3.manhattan() <= stopped.solution.lower_bound <= 31
        assert "positions stored within the memory limit" in stopped.solution.note
    grown = run_focal(HARD_3X3, heuristic="manhattan", limit=Limit(max_memory=full.bytes), method=method)
    assert grown.solution.length == 31 and grown.nodes == full.nodes


def test_timeout_already_passed():
    sol = focal(HARD_3X3, heuristic="lc", limit=Limit(timeout=1e-9))
    assert sol.status == TIMEOUT and sol.lower_bound >= HARD_3X3.manhattan()


def test_callbacks_see_the_bound_rise():
    seen: list[tuple[int, bool]] = []
    progress: list[int] = []
    sol = focal(HARD_3X3, heuristic="manhattan", on_iteration=lambda it, final: seen.append((it.threshold, final)),
                on_progress=lambda p: progress.append(p.bound))
    assert sol.length == 31 and seen[-1] == (31, True)
    assert [t for t, _ in seen] == sorted(t for t, _ in seen) and seen[0][0] == HARD_3X3.manhattan()
    assert progress and progress[0] == HARD_3X3.manhattan()
    assert sum(it.generated for it in sol.stats.iterations) == sol.stats.generated


def test_the_goal_itself():
    sol = focal(Board(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0)), weight=2)
    assert sol.solved and sol.length == 0 and sol.optimal


# -- options -----------------------------------------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("option", [{"pruning": "fsm"}, {"budget": 1.0}, {"realtime_method": "parberry"},
                                    {"order": "knuth0"}, {"top_nodes": 8}])
def test_options_it_does_not_take_are_refused(option, method):
    with pytest.raises(InvalidOptionError, match=f"does not apply to method='{method}': it applies to"):
        prepare(HARD_3X3, Request(**option), method)


def test_bad_weights_and_large_boards_are_refused():
    for weight in (0.5, 1000.5, float("nan")):
        with pytest.raises(InvalidOptionError, match="weight"):
            focal(HARD_3X3, weight=weight)
    with pytest.raises(InvalidOptionError, match="method='focal' takes boards of at most 64 cells"):
        prepare(random_walk(9, 9, 10, seed=1), Request(), "focal")


def test_through_the_front_door_and_the_command_line(capsys):
    import json

    from npuzzle.cli import main

    sol = run(prepare(HARD_3X3, Request(heuristic="lc", weight=1.5), "focal"))
    assert sol.solved and sol.length is not None and sol.length <= 1.5 * 31
    assert main(["solve", "--method", "focal", "--weight", "2", "--heuristic", "lc", "--json",
                 "8 6 7/2 5 4/3 0 1"]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert record["method"] == "focal" and record["length"] <= 62 and record["lower_bound"] <= 31
    assert record["ratio"] == round(record["length"] / record["lower_bound"], 4)
    assert main(["solve", "--method", "dps", "--weight", "1.5", "--heuristic", "lc", "8 6 7/2 5 4/3 0 1"]) == 0
    out = capsys.readouterr().out
    assert "DPS with w = 1.5: length <= 1.5 x optimal" in out


@pytest.mark.parametrize("method", METHODS)
def test_weight_one_is_optimal_like_astar(method):
    """With w = 1 FOCAL holds the open nodes of least f (A* breaking its ties by d), and DPS's
    potential (f_min - g) / h is 1 on them and below 1 elsewhere: both optimal."""
    for seed in range(3):
        board = random_walk(3, 3, 60, seed=seed)
        a, f = astar(board, heuristic="lc"), focal(board, heuristic="lc", method=method)
        assert a.length == f.length == f.lower_bound and f.optimal


#: The plain-Python values of the heuristics the test below gives by name.
NAIVE_BOUNDS = {"manhattan": lambda t, w: naive_manhattan(t, w), "lc": lambda t, w: naive_linear_conflict(t, w)}


@functools.cache
def _reached(board: Board) -> tuple[tuple[tuple[int, ...], int], ...]:
    return tuple(distances_from(board.tiles, board.height, board.width).items())


def _f_values(board: Board, heuristic: str, best: int) -> list[int]:
    """g*(s) + h(s) of the states s reachable from ``board`` whose g*(s) + Manhattan(s) is at most
    ``best`` (the others have f > ``best`` too: h is at least the Manhattan distance)."""
    bound, width = NAIVE_BOUNDS[heuristic], board.width
    return [d + bound(state, width) for state, d in _reached(board) if d + naive_manhattan(state, width) <= best]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("heuristic", sorted(NAIVE_BOUNDS))
@pytest.mark.parametrize(("height", "width", "seeds"), [(3, 3, (1,)), (2, 4, (1, 2)), (3, 2, (4,))])
def test_the_heuristic_given_is_the_one_searched_with(height, width, seeds, heuristic, method):
    """With w = 1 and a consistent heuristic h, both searches expand every state s with
    g*(s) + h(s) < C* and none with g*(s) + h(s) > C* (g* the distance from the start, by
    breadth-first search; h the plain-Python value). The two counts depend on h, so a search that
    used another bound than the one it was given (while reporting its name) expands too many or too
    few: Manhattan in place of linear conflict expands more than the second count allows."""
    for seed in seeds:
        board = random_walk(height, width, 60, seed=seed)
        sol = focal(board, heuristic=heuristic, weight=1, method=method)
        best = sol.length
        assert best is not None and sol.heuristic == heuristic
        f = _f_values(board, heuristic, best)
        below, within = sum(x < best for x in f), sum(x <= best for x in f)
        assert below <= sol.stats.expanded <= within, (board, heuristic, below, sol.stats.expanded, within)


# -- non-unit move costs -------------------------------------------------------------------------


def cheapest_costs(height: int, width: int, goal: str, cost: list[float]) -> dict[tuple[int, ...], float]:
    """Every position's cheapest cost to the goal, by Dijkstra's search from the goal (a move of
    tile t costs ``cost[t]`` either way)."""
    start = goal_tuple(height, width, goal)
    best = {start: 0.0}
    heap = [(0.0, start)]
    while heap:
        c, state = heapq.heappop(heap)
        if c > best[state]:
            continue
        blank = state.index(0)
        for nxt in blank_neighbours(state, height, width):
            nc = c + cost[nxt[blank]]  # the tile that slid into the blank's cell
            if nc < best.get(nxt, float("inf")):
                best[nxt] = nc
                heapq.heappush(heap, (nc, nxt))
    return best


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("shape", [(2, 3), (3, 2)])
def test_heavy_tiles_within_the_bound_of_dijkstra(shape, method):
    """Tile t costs t per move (the kernel's ``tile_cost``; not yet a request option): every
    answer's cost is within w x the cheapest, and the cost bound it proves holds."""
    n = shape[0] * shape[1]
    cost = [0.0] + [float(t) for t in range(1, n)]
    cheapest = cheapest_costs(*shape, "standard", cost)
    assert len(cheapest) == 360
    for tiles, best in cheapest.items():
        board = Board(*shape, tiles)
        for weight in WEIGHTS:
            problem = prepare(board, Request(heuristic="lc", weight=weight), method)
            assert problem.frame is None
            result = run_framed(problem, np.array(cost))
            sol = result.solution
            assert sol.solved and board.apply(sol.moves).is_goal()
            paid = sum(cost[t] for t in sol.moves)
            assert result.cost == pytest.approx(paid)
            assert best - 1e-9 <= paid <= weight * best + 1e-9, (tiles, weight, paid, best)
            assert result.cost_bound <= best + 1e-9
            if weight == 1:
                assert paid == pytest.approx(best)


def test_costs_and_methods_are_checked():
    problem = prepare(HARD_3X3, Request(heuristic="lc"), "focal")
    with pytest.raises(ValueError, match="tile_cost"):
        run_framed(problem, np.zeros(9))
    with pytest.raises(ValueError, match="method must be one of focal, dps"):
        focal(HARD_3X3, method="astar")


@pytest.mark.parametrize("method", METHODS)
def test_a_stopped_search_with_costs_keeps_its_bounds_in_their_units(method):
    """Stopped, a search with move costs gives its bound on moves (the start's heuristic) in
    ``lower_bound`` and its bound on the cost in ``cost_bound``."""
    cost = np.arange(9, dtype=np.float64)
    best = cheapest_costs(3, 3, "standard", cost.tolist())[HARD_3X3.tiles]
    problem = prepare(HARD_3X3, Request(heuristic="lc", weight=2, limit=Limit(max_nodes=50)), method)
    stopped = run_framed(problem, cost)
    assert stopped.solution.status == NODE_LIMIT
    assert stopped.solution.lower_bound <= 31 and stopped.cost_bound <= best
