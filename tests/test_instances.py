"""Scramble generators: solvable, reproducible, and Theorem 2's worst case with its distance."""

from __future__ import annotations

from collections import Counter

import pytest

from npuzzle import Board, InvalidBoardError
from npuzzle.errors import InvalidOptionError
from npuzzle.instances import parberry_worst, random_board, random_walk, scramble

SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 3), (3, 5), (4, 4), (7, 5)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("goal", ["standard", "blank-first"])
def test_random_board_is_solvable_and_reproducible(shape, goal):
    boards = [random_board(*shape, seed, goal) for seed in range(20)]
    assert all(b.shape == shape and b.is_solvable(goal) for b in boards)
    assert boards == [random_board(*shape, seed, goal) for seed in range(20)]
    assert len(set(boards)) >= 8


def test_random_board_is_uniform_over_solvable_2x2():
    # A 2x2 board has 12 solvable positions; 6000 draws give each about 500.
    counts = Counter(random_board(2, 2, seed) for seed in range(6000))
    assert len(counts) == 12
    assert all(400 < c < 600 for c in counts.values())


@pytest.mark.parametrize("shape", SHAPES)
def test_random_walk(shape):
    assert random_walk(*shape, 0, 1) == Board.goal(*shape)
    for seed in range(5):
        b = random_walk(*shape, 50, seed, "blank-first")
        assert b.is_solvable("blank-first")
    assert random_walk(*shape, 50, 3) == random_walk(*shape, 50, 3)
    # One move never undone: a single step moves the blank one cell.
    assert random_walk(*shape, 1, 9).blank_distance() == 1


@pytest.mark.parametrize("n", range(2, 13))
def test_parberry_worst_distance(n):
    b = parberry_worst(n)
    assert b.is_solvable() and b.shape == (n, n)
    expected = n * (n * n - 2) if n % 2 == 0 else n**3 - n * n - n + 1
    assert b.manhattan() == expected


def test_bad_shapes_are_rejected():
    with pytest.raises(InvalidBoardError, match="1x5"):
        random_board(1, 5, 0)
    with pytest.raises(InvalidOptionError, match="-1"):
        random_walk(3, 3, -1, 0)
    with pytest.raises(InvalidOptionError):
        parberry_worst(1)


def test_scramble_kinds():
    assert scramble(3, 5, 4, seed=3) == scramble(3, 5, 4, seed=3) != scramble(3, 5, 4, seed=4)
    uniform = scramble(3, 5, 4, seed=3, goal="blank-first")
    assert len(uniform) == 4 and all(b.shape == (3, 5) and b.is_solvable("blank-first") for b in uniform)
    walks = scramble(4, 3, 5, walk=1, seed=2)
    assert len(walks) == 5 and all(b.blank_distance() == 1 for b in walks)
    assert scramble(6, 6, 2, worst=True) == [parberry_worst(6)] * 2
    assert scramble(4, 4, 1, worst=True, goal="blank-first") == [parberry_worst(4).converted()]
    with pytest.raises(InvalidOptionError, match="square boards"):
        scramble(3, 4, 1, worst=True)


@pytest.mark.parametrize(("name", "tsv", "ids"), [("korf100", "korf100.tsv", None),
                                                  ("korf50", "korf50_24.tsv", "3,7-9")])
def test_scramble_writes_a_benchmark_set_as_published(name, tsv, ids, tmp_path):
    """``npuzzle scramble --set NAME --notation list`` writes the set's boards, one a line, as the
    packaged table holds them (the file other solvers read); ``--json`` records say their goal."""
    import subprocess
    import sys

    from conftest import read_tsv
    from records import records

    rows = [r for r in read_tsv(tsv) if ids is None or int(r["id"]) in (3, 7, 8, 9)]
    args = [sys.executable, "-m", "npuzzle", "scramble", "--set", name, "--notation", "list",
            *(["--ids", ids] if ids else [])]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == [" ".join(r["tiles"].split()) for r in rows]
    found = records(subprocess.run([*args, "--json"], capture_output=True, text=True, check=True).stdout)
    assert [(r["index"], r["goal"], r["tiles"]) for r in found] == [
        (int(r["id"]), "blank-first", [int(t) for t in r["tiles"].split()]) for r in rows]
    for bad in (["--ids", "101"], ["--walk", "3"]):
        result = subprocess.run([*args[:6], *bad], capture_output=True, text=True)
        assert result.returncode == (1 if bad[0] == "--ids" else 2), result.stderr
        assert "Traceback" not in result.stderr
