"""Limits on walks, moves and sizes wherever input is accepted, checked before any work starts
and raised as ``NPuzzleError``s with a message naming the input (never a bare ``OverflowError``
or ``IndexError``, never minutes of uninterruptible work)."""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
import pytest

from npuzzle import Board, instances
from npuzzle.errors import IllegalMoveError, InvalidOptionError, InvalidTypeError, NPuzzleError
from npuzzle.search.stepper import Boards


@pytest.fixture
def no_work(monkeypatch):
    """Any walk that starts fails the test: a refusal must come before the work."""
    import npuzzle._kernels.stepper as kernel

    def started(*args: object) -> None:
        raise AssertionError("the walk started before its arguments were checked")

    monkeypatch.setattr(kernel, "random_walk", started)
    monkeypatch.setattr(instances.random, "Random", started)


@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (3, 5)])
@pytest.mark.parametrize("length, seeds, match", [
    (10**10, [1, 2], r"length=10000000000: give a number of moves from 0 to 1,000,000"),
    (-1, [1, 2], r"length=-1"),
    (True, [1, 2], r"length=True"),
    (3, [2**64, 1], r"seed 18446744073709551616: give whole numbers from 0 to 2\*\*64-1"),
    (3, [-1, 1], r"seed -1"),
    (3, np.array([-5, 1]), r"seed -5"),
    (3, [1.5, 1], r"seed 1.5"),
    (3, [1], r"one seed per board \(2\)"),
])
def test_the_stepper_checks_its_walks_first(no_work, shape, length, seeds, match):
    boards = Boards(*shape, count=2)
    with pytest.raises(InvalidOptionError, match=match):
        boards.scramble(length, seeds)


def test_the_stepper_bounds_its_work_and_memory(no_work):
    boards = Boards(3, 3, count=4096)
    with pytest.raises(InvalidOptionError, match="at most 2,147,483,648 moves in all"):
        boards.scramble(instances.MAX_WALK, np.arange(4096, dtype=np.uint64))
    with pytest.raises(InvalidOptionError, match="at most 65,536 at once"):
        Boards(64, 64, count=10**6)
    with pytest.raises(InvalidOptionError, match="last: give one action"):
        Boards(3, 3, count=2).scramble(1, [1, 2], last=np.array([7, 0]))


def test_a_walk_of_the_largest_length_still_runs():
    boards = Boards(2, 3, count=3)
    boards.scramble(instances.MAX_WALK, np.array([0, 2**64 - 1, 7], dtype=np.uint64))
    assert all(sorted(boards.tiles[i].tolist()) == list(range(6)) for i in range(3))
    assert boards.manhattan.tolist() == [boards.board(i).manhattan() for i in range(3)]


@pytest.mark.parametrize("indices, boards, error, match", [
    ([5], [Board.goal(3, 3)], InvalidOptionError, r"board number 5: there are 2 boards, numbered 0..1"),
    ([-1], [Board.goal(3, 3)], InvalidOptionError, r"board number -1"),
    ([0, 1], [Board.goal(3, 3)], InvalidOptionError, r"one board per index \(2\)"),
    ([[0]], [Board.goal(3, 3)], InvalidOptionError, r"a list of board numbers"),
    ([0], ["1 2 3/4 5 6/7 8 0"], InvalidTypeError, r"give Boards"),
])
def test_boards_set_checks_its_indices(indices, boards, error, match):
    b = Boards(3, 3, count=2)
    before = b.tiles.copy()
    with pytest.raises(error, match=match):
        b.set(indices, boards)
    assert np.array_equal(b.tiles, before)  # nothing half done


def test_the_environment_checks_walks_before_a_reset():
    gymnasium = pytest.importorskip("gymnasium")
    import npuzzle.env  # noqa: F401

    for bad in (10**10, 2**64, -1, "10"):
        with pytest.raises(InvalidOptionError, match=r"scramble=.*0 to 1,000,000"):
            gymnasium.make("npuzzle/SlidingPuzzle-v0", shape=(2, 4), scramble=bad)
    env = gymnasium.make("npuzzle/SlidingPuzzle-v0", shape=(3, 2), scramble=5)
    start = time.process_time()
    with pytest.raises(InvalidOptionError, match=r"walk=10000000000"):
        env.reset(seed=1, options={"walk": 10**10})
    assert time.process_time() - start < 1
    observation, _ = env.reset(seed=2**64 + 5)  # any seed Gymnasium takes
    assert sorted(observation.flatten().tolist()) == list(range(6))


@pytest.mark.parametrize("kwargs, match", [
    ({"walk": 10**10}, r"walk=10000000000"),
    ({"walk": -3}, r"walk=-3"),
    ({"seed": -1}, r"seed=-1"),
    ({"seed": 2**64}, r"seed=18446744073709551616"),
    ({"count": 10**9}, r"too many at once"),
    ({"count": 40, "walk": 1_000_000}, r"40 positions of 1,000,000 moves are too many at once"),
    ({"count": 0}, r"count=0"),
])
def test_scramble_checks_before_it_walks(no_work, kwargs, match):
    args = {"count": 1, **kwargs}
    count = args.pop("count")
    with pytest.raises(InvalidOptionError, match=match):
        instances.scramble(4, 3, count, **args)
    with pytest.raises(InvalidOptionError, match="steps="):
        instances.random_walk(4, 3, 10**10)


def test_data_set_walks_are_bounded(no_work):
    from npuzzle.dataset import Spec, check_spec

    with pytest.raises(InvalidOptionError, match=r"walk=1000001"):
        check_spec(Spec(3, 5, seed=1, walk=1_000_001))


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "npuzzle", *argv], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("argv, code, text", [
    (("scramble", "--shape", "3x3", "--walk", "100000000000"), 1, "--walk 100000000000: give a number of moves"),
    (("scramble", "--shape", "3x3", "--count", "100000000000"), 1, "too many at once"),
    (("dataset", "--shape", "3x3", "--count", "5", "--seed", "1", "--walk", "10000000", "--out", "x.jsonl"), 2,
     "a walk's length"),
])
def test_the_command_line_refuses_at_once(argv, code, text):
    start = time.monotonic()
    done = _cli(*argv)
    assert done.returncode == code and text in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert (len(lines) == 1 or lines[0].startswith("usage:")) and "Traceback" not in done.stderr
    assert time.monotonic() - start < 30


def test_move_lists_are_bounded_before_they_are_replayed(monkeypatch):
    from npuzzle import analysis, verifier

    board = Board.goal(3, 3)
    for module in (verifier, analysis):
        monkeypatch.setattr(module, "MAX_MOVES", 1000)
    moves = ["R", "L"] * 501
    with pytest.raises(IllegalMoveError, match="too many moves: 1,002 given, at most 1,000"):
        verifier.verify_moves(board, moves, optimum=False)
    with pytest.raises(IllegalMoveError, match="too many moves: 1,002 given, at most 1,000"):
        analysis.moves_of(board, moves, "tile")
    text = " ".join(["6", "6"] * 501)  # tile numbers: no repeat counts, so MAX_MOVES of the notation does not apply
    for call in (lambda: verifier.verify_moves(board, text, optimum=False), lambda: analysis.moves_of(board, text,
                                                                                                      "tile")):
        with pytest.raises(IllegalMoveError, match="too many moves"):
            call()
    with pytest.raises(IllegalMoveError, match="a move string of 9,000 characters"):
        verifier.verify_moves(board, "6 " * 4500, optimum=False)
    assert verifier.verify_moves(board, ["R", "L"] * 500, optimum=False).played == 1000
    assert issubclass(IllegalMoveError, NPuzzleError)



@pytest.mark.parametrize("weight", [1.01, 1.001, 1.014, 1.15, 1.3, 7.77, 123.456, 999.99, 1000])
def test_every_weight_in_range_is_taken_as_the_ratio_at_or_just_below_it(weight):
    from fractions import Fraction

    from npuzzle.arguments import MAX_WEIGHT_DENOMINATOR, MAX_WEIGHT_NUMERATOR, exact_weight

    w = exact_weight(weight)
    assert w.denominator <= MAX_WEIGHT_DENOMINATOR and w.numerator <= MAX_WEIGHT_NUMERATOR
    assert float(w) <= weight * (1 + 1e-9)  # never above: the promise "at most W x optimal" holds
    most = min(MAX_WEIGHT_DENOMINATOR, MAX_WEIGHT_NUMERATOR // -(-weight // 1))
    below = [Fraction(p, q) for q in range(1, int(most) + 1) for p in (int(weight * q),)
             if float(Fraction(p, q)) <= weight * (1 + 1e-9) and p <= MAX_WEIGHT_NUMERATOR]
    assert w == max(below)  # and none closer below it


@pytest.mark.parametrize("shape", [(2, 4), (3, 2)])
@pytest.mark.parametrize("method", ["astar", "focal"])
def test_a_weight_of_1_01_solves_within_its_promise(method, shape):
    from naive import bfs_distances

    from npuzzle import solve

    dist = bfs_distances(*shape)
    for tiles in sorted(dist, key=lambda t: (-dist[t], t))[:3]:
        board = Board(*shape, tiles)
        s = solve(board, method=method, weight=1.01)
        assert s.solved and dist[tiles] <= s.length <= 1.01 * dist[tiles]


def test_the_command_line_takes_a_weight_of_1_01():
    done = _cli("solve", "--method", "astar", "--weight", "1.01", "8 6 7/2 5 4/3 0 1")
    assert done.returncode == 0 and "Solution: 31 moves" in done.stdout, done.stderr
