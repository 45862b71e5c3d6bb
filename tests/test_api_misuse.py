"""Misuse of the Python API: every wrong call raises one of npuzzle's own errors, a ``TypeError``
for a wrong type and a ``ValueError`` for a wrong value, whose message names the parameter;
nothing is accepted silently and no built-in exception escapes (issue 33, item 7)."""

from __future__ import annotations

import pytest

import npuzzle
from npuzzle import Board, InvalidOptionError, InvalidTypeError, Limit, NPuzzleError

P = "1 2 3/4 5 6/7 0 8"

#: (call, the error class, a word the message must contain)
MISUSE = [
    (lambda: npuzzle.solve(None), TypeError, "board="),
    (lambda: npuzzle.solve(123), TypeError, "board="),
    (lambda: npuzzle.solve([1, 2, 3, 0]), TypeError, "board="),
    (lambda: npuzzle.solve("1 2 3 4 5 0", shape=("2", "3")), TypeError, "shape="),
    (lambda: npuzzle.solve("1 2 3 4 5 0", shape=(2,)), TypeError, "shape="),
    (lambda: npuzzle.solve("1 2 3 4 5 0", shape=(True, 3)), TypeError, "shape="),
    (lambda: npuzzle.solve("1 2 3 4 5 0", shape=2.5), TypeError, "shape="),
    (lambda: npuzzle.solve(P, timeout=True), TypeError, "timeout="),
    (lambda: npuzzle.solve(P, timeout="10"), TypeError, "timeout="),
    (lambda: npuzzle.solve(P, timeout=0), ValueError, "timeout="),
    (lambda: npuzzle.solve(P, timeout=-1), ValueError, "timeout="),
    (lambda: npuzzle.solve(P, timeout=float("nan")), ValueError, "timeout="),
    (lambda: npuzzle.solve(P, timeout=float("inf")), ValueError, "timeout="),
    (lambda: npuzzle.solve(P, max_nodes=2**70), ValueError, "max_nodes="),
    (lambda: npuzzle.solve(P, max_nodes=0), ValueError, "max_nodes="),
    (lambda: npuzzle.solve(P, max_nodes=1.5), TypeError, "max_nodes="),
    (lambda: npuzzle.solve(P, max_nodes=True), TypeError, "max_nodes="),
    (lambda: npuzzle.solve(P, max_memory=2**61), ValueError, "max_memory="),
    (lambda: npuzzle.solve(P, max_memory="2G"), TypeError, "max_memory="),
    (lambda: npuzzle.solve(P, weight="2"), TypeError, "weight="),
    (lambda: npuzzle.solve(P, weight=0.5), ValueError, "weight="),
    (lambda: npuzzle.solve(P, weight=1001), ValueError, "weight="),
    (lambda: npuzzle.solve(P, weight=float("nan")), ValueError, "weight="),
    (lambda: npuzzle.solve(P, method=3), TypeError, "method="),
    (lambda: npuzzle.solve(P, heuristic=None), TypeError, "heuristic="),
    (lambda: npuzzle.solve(P, pruning=1), TypeError, "pruning="),
    (lambda: npuzzle.solve(P, realtime_method=b"greedy"), TypeError, "realtime_method="),
    (lambda: npuzzle.solve(P, goal=7), TypeError, "goal="),
    (lambda: npuzzle.solve(P, goal=None), TypeError, "goal="),
    (lambda: npuzzle.solve(P, limit=10), TypeError, "limit="),
    (lambda: npuzzle.solve(P, limit={"timeout": 1}), TypeError, "limit="),
    (lambda: npuzzle.solve(P, on_iteration=5), TypeError, "on_iteration="),
    (lambda: npuzzle.solve(P, on_progress="print"), TypeError, "on_progress="),
    (lambda: npuzzle.solve(P, jobs=1.5), TypeError, "jobs="),
    (lambda: npuzzle.solve(P, jobs=-1), ValueError, "jobs="),
    (lambda: npuzzle.solve(P, jobs=True), TypeError, "jobs="),
    (lambda: npuzzle.solve(P, jobs=10**6), ValueError, "jobs="),
    (lambda: npuzzle.solve(P, scheduler=8786), TypeError, "scheduler="),
    (lambda: npuzzle.solve(P, scheduler="bogus"), ValueError, "scheduler="),
    (lambda: npuzzle.solve(P, scheduler="tcp://127.0.0.1"), ValueError, "scheduler="),
    (lambda: npuzzle.solve_many([P], scheduler="http://x:1/path"), ValueError, "scheduler="),
    (lambda: npuzzle.solve(P, budget="1"), TypeError, "budget="),
    (lambda: npuzzle.solve(P, budget=0), ValueError, "budget="),
    (lambda: npuzzle.solve(P, budget=10**6), ValueError, "budget="),
    (lambda: npuzzle.solve_many(P), TypeError, "boards="),
    (lambda: npuzzle.solve_many(5), TypeError, "boards="),
    (lambda: npuzzle.solve_many([P, None], jobs=1), TypeError, "board="),
    (lambda: npuzzle.solve_many([P], jobs="2"), TypeError, "jobs="),
    (lambda: npuzzle.solve_many([P], timeout=True), TypeError, "timeout="),
    (lambda: npuzzle.solve_many([P], max_nodes=-5), ValueError, "max_nodes="),
    (lambda: npuzzle.lower_bound(None), TypeError, "board="),
    (lambda: npuzzle.lower_bound(P, 5), TypeError, "heuristic="),
    (lambda: npuzzle.lower_bound(P, goal=3.5), TypeError, "goal="),
    (lambda: npuzzle.lower_bound("1 2 3 4 5 0", shape=[2, "3"]), TypeError, "shape="),
    (lambda: npuzzle.parse(None), TypeError, "text="),
    (lambda: npuzzle.parse(b"1 2 3/4 5 6/7 0 8"), TypeError, "text="),
    (lambda: npuzzle.parse("1 2 3 4 5 0", shape=(0, 6)), ValueError, "rows"),
    (lambda: npuzzle.parse("1 2 3 4 5 0", shape="2by3"), ValueError, "2by3"),
    (lambda: npuzzle.format("1 2 3/4 5 6/7 0 8"), TypeError, "board="),
    (lambda: npuzzle.format(Board.goal(2, 2), "bogus"), ValueError, "notation"),
    (lambda: Board.goal(2, 10**9), ValueError, "too many cells"),
    (lambda: Board.goal(2, "3"), ValueError, "integers"),
    (lambda: Board(2, 2, None), TypeError, "tiles"),
    (lambda: Board(2, 2, (1, 2, 3)), ValueError, "4 cells"),
    (lambda: Board.goal(2, 2).apply(None), TypeError, "moves="),
    (lambda: Board.goal(2, 2).apply(5), TypeError, "moves="),
    (lambda: Board.goal(2, 2).apply(b"LU"), TypeError, "moves="),
    (lambda: Limit(timeout=True), TypeError, "timeout="),
    (lambda: Limit(max_nodes=0.5), TypeError, "max_nodes="),
    (lambda: Limit(max_memory=-1), ValueError, "max_memory="),
    # found by bench/fuzz.py: an int too large for a float was an OverflowError, a long name was
    # quoted whole, a goal given as bad text did not say it was the goal, empty bytes were no boards
    (lambda: npuzzle.solve(P, timeout=10**400), ValueError, "timeout="),
    (lambda: npuzzle.solve(P, timeout=-10**400), ValueError, "timeout="),
    (lambda: npuzzle.solve(P, weight=10**400), ValueError, "weight="),
    (lambda: npuzzle.solve(P, budget=10**400), ValueError, "budget="),
    (lambda: Limit(timeout=10**400), ValueError, "timeout="),
    (lambda: npuzzle.solve(P, method="x" * 5000), ValueError, "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'"),
    (lambda: npuzzle.solve(P, pruning="x" * 5000), ValueError, "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'"),
    (lambda: npuzzle.solve(P, realtime_method="x" * 5000), ValueError, "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'"),
    (lambda: npuzzle.solve(P, goal="1 2 3"), ValueError, "goal='1 2 3': "),
    (lambda: npuzzle.lower_bound(P, goal="1 2 3/4 5 6/7 8 8"), ValueError, "goal='1 2 3/4 5 6/7 8 8': duplicate"),
    (lambda: npuzzle.solve_many(b""), TypeError, "boards="),
]


@pytest.mark.parametrize("call, kind, word", MISUSE, ids=[str(i) for i in range(len(MISUSE))])
def test_misuse_raises_the_librarys_own_error_naming_the_parameter(call, kind, word):
    with pytest.raises(NPuzzleError) as caught:
        call()
    assert isinstance(caught.value, kind), repr(caught.value)
    assert word in str(caught.value)
    assert len(str(caught.value)) < 300
    if kind is TypeError and word.endswith("="):
        assert isinstance(caught.value, InvalidTypeError)
    elif word.endswith("="):
        assert isinstance(caught.value, InvalidOptionError)


def test_the_same_values_of_the_right_type_are_accepted():
    s = npuzzle.solve(P, timeout=10, max_nodes=10**6, max_memory=2**30, weight=1, jobs=1, shape=(3, 3),
                      limit=Limit(timeout=5.0), budget=None)
    assert s.length == 1 and npuzzle.solve(P, shape="3x3", timeout=1.5).length == 1
    assert npuzzle.lower_bound(Board(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8)), "lc", shape=[3, 3]) == 1
