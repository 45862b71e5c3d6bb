"""Move-cost models (issue 34): every search that takes ``cost`` answers optimally for it (weighted
A*: within its weight), checked against an independent uniform-cost search over every state
(``naive.dijkstra_costs``); the answer's cost is replayed from its tiles; what cannot honour a
cost refuses it."""

from __future__ import annotations

import dataclasses
import json
import math
import random

import pytest
from naive import NAIVE_COSTS, dijkstra_costs
from records import record

from npuzzle import Board, parse, solve
from npuzzle.costs import COSTS, scaled, tile_costs, total
from npuzzle.errors import InvalidOptionError
from npuzzle.instances import random_walk
from npuzzle.search import Limit, Request, prepare, run
from npuzzle.search.limits import INTERRUPTED, NODE_LIMIT, TIMEOUT, VerificationError

METHODS = ("ucs", "astar", "idastar")
PRICED = ("heavy", "inverse", "sqrt")


def _close(a: float, b: float, moves: int) -> bool:
    """Equal up to float rounding (and sqrt's fixed point: 5e-7 a move either way)."""
    return abs(a - b) <= 1e-9 * max(1.0, b) + moves * 1e-6


def _check_all(height: int, width: int, cost: str, method: str, goal: str = "standard", step: int = 1) -> None:
    exact = dijkstra_costs(height, width, goal, cost)
    for state, best in list(exact.items())[::step]:
        s = run(prepare(Board(height, width, state), Request(cost=cost, goal=goal), method))
        assert s.solved and s.optimal and s.cost == cost, (state, s)
        assert s.board.apply(s.moves).is_goal(goal)
        assert _close(s.cost_total or 0.0, best, len(s.moves)), (state, method, cost, s.cost_total, best)
        assert _close(math.fsum(NAIVE_COSTS[cost](t) for t in s.moves), best, len(s.moves))


@pytest.mark.parametrize("shape", [(2, 3), (3, 2)])
@pytest.mark.parametrize("cost", COSTS)
@pytest.mark.parametrize("method", METHODS)
def test_every_state_of_small_boards_is_solved_at_the_least_cost(shape, cost, method):
    _check_all(*shape, cost, method)
    _check_all(*shape, cost, method, goal="blank-first", step=7)


@pytest.mark.slow
@pytest.mark.parametrize("cost", COSTS)
@pytest.mark.parametrize("method", METHODS)
def test_every_state_of_2x4_is_solved_at_the_least_cost(cost, method):
    if cost == "unit" and method != "ucs":
        _check_all(2, 4, cost, method, step=50)  # the unit-cost searches are tested elsewhere
    else:
        _check_all(2, 4, cost, method)


@pytest.mark.parametrize("cost", PRICED)
def test_samples_of_3x3_and_4x3_are_solved_at_the_least_cost(cost):
    exact = dijkstra_costs(3, 3, "standard", cost)
    rng = random.Random(34)
    for state in rng.sample(sorted(exact), 12):
        best = exact[state]
        for method in ("astar", "idastar"):
            s = solve(Board(3, 3, state), method=method, cost=cost)
            assert _close(s.cost_total or 0.0, best, len(s.moves)), (state, method, s.cost_total, best)
    for seed in range(3):  # 4x3 and 3x5: the two optimal searches agree
        for h, w in ((4, 3), (3, 5)):
            board = random_walk(h, w, 24, seed=seed)
            a, i = (solve(board, method=m, cost=cost) for m in ("astar", "idastar"))
            assert a.optimal and i.optimal and _close(a.cost_total or 0, i.cost_total or 0, len(a.moves))


@pytest.mark.parametrize("weight", [1.5, 2.0, 3.0])
@pytest.mark.parametrize("cost", PRICED)
def test_weighted_astar_is_within_its_weight_of_the_least_cost(weight, cost):
    exact = dijkstra_costs(3, 3, "standard", cost)
    rng = random.Random(int(weight * 10))
    for state in rng.sample(sorted(exact), 25):
        s = solve(Board(3, 3, state), method="astar", cost=cost, weight=weight)
        best = exact[state]
        assert (s.cost_total or 0) <= weight * best + 1e-6 * len(s.moves), (state, s.cost_total, best)
        assert (s.cost_bound or 0) <= best + 1e-6 * len(s.moves)
        assert s.method == "weighted-astar" and "cost <= " in s.note


def test_scaled_costs_are_exact_whole_numbers():
    for cells in (6, 9, 16, 25):
        whole, scale = scaled("inverse", cells)
        assert all(whole[t] * t == scale for t in range(1, cells))
        assert all(w == t for t, w in enumerate(scaled("heavy", cells)[0]))
        sq, s = scaled("sqrt", cells)
        assert all(abs(sq[t] / s - math.sqrt(t)) <= 0.5 / s for t in range(1, cells))
    assert tile_costs("inverse", 5).tolist() == [0.0, 1.0, 0.5, 1 / 3, 0.25]
    assert tile_costs("unit", 4).tolist() == [0.0, 1.0, 1.0, 1.0]
    assert total((2, 2, 3), "inverse") == pytest.approx(4 / 3)


def test_refusals_name_the_reason():
    board = parse("8 6 7/2 5 4/3 0 1")
    for heuristic in ("lc", "wd", "wd+id", "id"):
        with pytest.raises(InvalidOptionError, match="not admissible under cost='heavy'"):
            prepare(board, Request(cost="heavy", heuristic=heuristic), "idastar")
    for method in ("beam", "realtime", "astar+idastar"):
        with pytest.raises(InvalidOptionError, match="cost= does not apply"):
            prepare(board, Request(cost="sqrt"), method)
    with pytest.raises(InvalidOptionError, match="unknown cost model 'cheap'"):
        prepare(board, Request(cost="cheap"), "idastar")
    with pytest.raises(InvalidOptionError, match="at most 25 cells"):
        prepare(random_walk(6, 6, 10, seed=1), Request(cost="inverse"), "idastar")
    with pytest.raises(InvalidOptionError, match="not another goal board"):
        prepare(board, Request(cost="heavy", goal=parse("1 2 3/4 0 5/6 7 8")), "idastar")
    with pytest.raises(InvalidOptionError, match="at most 16 cells"):
        prepare(random_walk(5, 5, 10, seed=1), Request(cost="heavy"), "astar")
    big = random_walk(5, 5, 12, seed=2)
    s = solve(big, cost="heavy", method="idastar")  # IDA* takes any board it takes at unit cost
    assert s.optimal and s.cost_total == sum(s.moves)
    with pytest.raises(InvalidOptionError, match="pruning='fsm' does not apply"):
        prepare(board, Request(cost="heavy", pruning="fsm"), "idastar")


def test_auto_picks_idastar_and_the_cost_weighted_manhattan_distance(private_store):
    p = prepare(parse("8 6 7/2 5 4/3 0 1"), Request(cost="heavy"))
    assert (p.method, p.heuristic_name) == ("idastar", "manhattan")
    p = prepare(parse("8 6 7/2 5 4/3 0 1"), Request(cost="heavy", weight=2.0))
    assert p.method == "astar"
    s = solve("8 6 7/2 5 4/3 0 1", cost="heavy")
    assert s.cost_total == 136.0 and s.optimal and s.length == 31  # uniform-cost search agrees (below)
    assert dijkstra_costs(3, 3, "standard", "heavy")[(8, 6, 7, 2, 5, 4, 3, 0, 1)] == 136.0


def test_limits_stop_the_cost_searches():
    board = parse("8 6 7/2 5 4/3 0 1")
    for method in METHODS:
        s = run(prepare(board, Request(cost="heavy", limit=Limit(max_nodes=50)), method))
        assert s.status == NODE_LIMIT and s.cost_bound is not None and s.cost_bound <= 136
        s = run(prepare(board, Request(cost="heavy", limit=Limit(timeout=1e-9)), method))
        assert s.status == TIMEOUT
    s = run(prepare(board, Request(cost="heavy", limit=Limit(max_memory=64)), "ucs"))
    assert s.status == "memory-limit"


def test_ctrl_c_stops_the_cost_searches_with_the_bound_proven():
    """Ctrl-C during a slice stops each cost search as the limits do: status interrupted, the
    cost bound proven (at most the least cost, 136), the nodes counted."""
    board = parse("8 6 7/2 5 4/3 0 1")

    def interrupt(progress):
        raise KeyboardInterrupt

    for method in METHODS:
        s = run(prepare(board, Request(cost="heavy", on_progress=interrupt), method))
        assert s.status == INTERRUPTED and not s.solved, method
        assert s.cost_bound is not None and 0 <= s.cost_bound <= 136, (method, s.cost_bound)
        assert s.stats.generated >= 1


def test_a_wrong_cost_from_a_search_is_an_internal_error(monkeypatch):
    from npuzzle.search import costs

    real = costs._cost_solution

    def wrong(problem, moves, m, total, bound, **kw):
        return real(problem, moves, m, total + m.scale, bound, **kw)

    monkeypatch.setattr(costs, "_cost_solution", wrong)
    with pytest.raises(VerificationError, match="replayed cost"):
        solve("4 1 2/5 0 3", method="astar", cost="heavy")


def test_the_command_line_shows_and_records_the_cost(capsys, private_store):
    from npuzzle.cli import main

    assert main(["solve", "--cost", "heavy", "4 1 2/5 0 3"]) == 0
    out = capsys.readouterr().out
    assert "cost 15 (heavy: moving tile t costs t), 5 moves, optimal for that cost" in out
    assert main(["solve", "--cost", "sqrt", "--method", "ucs", "--json", "4 1 2/5 0 3"]) == 0
    rec = record(capsys.readouterr().out)
    assert rec["cost"] == "sqrt" and rec["method"] == "ucs"
    assert rec["cost_total"] == pytest.approx(math.fsum(math.sqrt(t) for t in rec["moves"]))
    assert main(["solve", "--json", "4 1 2/5 0 3"]) == 0
    rec = record(capsys.readouterr().out)
    assert rec["cost"] == "unit" and rec["cost_total"] == rec["length"] == 5
    assert main(["solve", "--cost", "heavy", "--heuristic", "lc", "4 1 2/5 0 3"]) == 1
    assert "not admissible" in capsys.readouterr().err


def test_a_solution_record_of_a_stopped_cost_search_is_valid(capsys):
    from npuzzle.cli import main

    assert main(["solve", "--cost", "inverse", "--max-nodes", "20", "--json", "8 6 7/2 5 4/3 0 1"]) == 3
    rec = json.loads(capsys.readouterr().out)
    record(json.dumps(rec))
    assert rec["status"] == "node-limit" and rec["cost_total"] is None and rec["cost"] == "inverse"


def test_the_solution_keeps_its_cost_through_replace():
    s = solve("4 1 2/5 0 3", method="idastar", cost="inverse")
    assert dataclasses.replace(s).cost_total == pytest.approx(1 / 4 + 1 / 5 + 1 + 1 / 2 + 1 / 3) == s.cost_total
    assert repr(s) == "<Solution 2x3 standard: 5 moves, cost 2.28333 (inverse), optimal, idastar/manhattan>"


# -- cost-aware pattern databases ----------------------------------------------------------------

PARTITIONS = {(2, 3): "3-2", (3, 2): "3-2", (2, 4): "4-3", (3, 3): "4-4"}


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (2, 4), (3, 3)])
@pytest.mark.parametrize("cost", PRICED)
def test_the_cost_aware_pattern_database_is_a_lower_bound_above_weighted_manhattan(shape, cost):
    from npuzzle.search.costs import model

    h, w = shape
    exact = dijkstra_costs(h, w, "standard", cost)
    pdb = model(prepare(Board(h, w, next(iter(exact))), Request(cost=cost, heuristic=f"pdb:{PARTITIONS[shape]}"),
                        "idastar"))
    md = model(prepare(Board(h, w, next(iter(exact))), Request(cost=cost, heuristic="manhattan"), "idastar"))
    states = sorted(exact)[:: 1 if h * w <= 8 else 20]
    tighter = 0
    for state in states:
        board = Board(h, w, state)
        bound, weak = pdb.bound(board) / pdb.scale, md.bound(board) / md.scale
        assert weak <= bound <= exact[state] + 1e-6 * 40, (state, weak, bound, exact[state])
        tighter += bound > weak
    assert tighter > len(states) // 10  # it is a stronger bound, not a copy of the weaker one
    assert pdb.bound(Board.goal(h, w, "standard")) == 0


@pytest.mark.parametrize("shape", [(2, 3), (3, 2)])
@pytest.mark.parametrize("cost", PRICED)
def test_searches_with_the_cost_aware_pattern_database_are_optimal(shape, cost):
    h, w = shape
    exact = dijkstra_costs(h, w, "standard", cost)
    for method in ("astar", "idastar"):
        request = Request(cost=cost, heuristic=f"pdb:{PARTITIONS[shape]}")
        for state, best in exact.items():
            s = run(prepare(Board(h, w, state), request, method))
            assert s.heuristic == f"pdb:{PARTITIONS[shape]}" and s.optimal
            assert _close(s.cost_total or 0.0, best, len(s.moves)), (state, method, s.cost_total, best)


@pytest.mark.slow
@pytest.mark.parametrize("cost", PRICED)
def test_searches_with_the_cost_aware_pattern_database_are_optimal_on_2x4(cost):
    exact = dijkstra_costs(2, 4, "standard", cost)
    for method in ("astar", "idastar"):
        request = Request(cost=cost, heuristic="pdb:4-3")
        for state, best in list(exact.items())[::3]:
            s = run(prepare(Board(2, 4, state), request, method))
            assert _close(s.cost_total or 0.0, best, len(s.moves)), (state, method, s.cost_total, best)


def test_auto_takes_a_saved_cost_aware_table_and_too_large_patterns_are_refused(private_store):
    board = parse("8 6 7/2 5 4/3 0 1")
    assert prepare(board, Request(cost="sqrt")).heuristic_name == "manhattan"  # nothing saved yet
    solve(board, cost="sqrt", heuristic="pdb:4-4")  # made and saved on first use
    assert prepare(board, Request(cost="sqrt")).heuristic_name == "pdb:4-4"
    assert prepare(board, Request(cost="heavy", goal="standard")).heuristic_name == "manhattan"  # another model's
    with pytest.raises(InvalidOptionError, match="too large for a cost-aware table"):
        prepare(random_walk(4, 4, 10, seed=1), Request(cost="heavy", heuristic="pdb:6-6-3"), "idastar")
    with pytest.raises(InvalidOptionError, match="not admissible"):
        prepare(board, Request(cost="heavy", heuristic="pdb:4-4+wd"), "idastar")


@pytest.mark.parametrize("shape", [(2, 3), (3, 2)])
@pytest.mark.parametrize("cost", PRICED)
@pytest.mark.parametrize("method", ["focal", "dps"])
def test_focal_search_and_dps_keep_their_bound_under_every_cost_model(shape, cost, method):
    """Every state of 2x3 and 3x2: the answer costs at most W times the least cost (W = 1:
    exactly it), its cost is replayed from its tiles, and the bound proven is below the least cost."""
    exact = dijkstra_costs(*shape, "standard", cost)
    for i, (state, best) in enumerate(sorted(exact.items())):
        weight = (1.0, 1.5, 2.0, 3.0)[i % 4]
        s = solve(Board(*shape, state), method=method, cost=cost, weight=weight)
        assert s.solved and s.cost == cost and s.board.apply(s.moves).is_goal("standard"), (state, s)
        paid = math.fsum(NAIVE_COSTS[cost](t) for t in s.moves)
        assert _close(s.cost_total or 0.0, paid, len(s.moves)), (state, s.cost_total, paid)
        assert paid <= weight * best + 1e-6 * len(s.moves), (state, weight, paid, best)
        assert (s.cost_bound or 0.0) <= best + 1e-6 * len(s.moves), (state, s.cost_bound, best)
        if weight == 1.0:
            assert _close(paid, best, len(s.moves)), (state, paid, best)


def test_focal_search_under_a_cost_model_takes_the_weighted_manhattan_distance_only():
    board = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))
    assert solve(board, method="dps", cost="heavy", weight=2).heuristic == "manhattan"
    with pytest.raises(InvalidOptionError, match="focal search and DPS weigh each tile's Manhattan distance"):
        solve(board, method="focal", cost="heavy", heuristic="lc", weight=2)
