"""Benchmark sets by name, and generators of positions.

``benchmark_set("korf100")``: Korf's 100 random 15-puzzle instances (Korf 1985), with their
optimal lengths and the node counts of IDA* with the Manhattan distance (published, and
recomputed: see ``data/korf100.tsv`` for the sources and the three places they differ).
``benchmark_set("korf50")``: Korf & Felner's 50 random 24-puzzle instances (2002) with their
optimal lengths. Both use Korf's goal convention, ``blank-first``.

Scrambles: uniform random boards, random walks, and Parberry's worst case. Not imported by
``npuzzle/__init__.py``; numpy is imported inside the functions that use it.

>>> random_board(3, 3, 7).is_solvable()
True
>>> parberry_worst(4).manhattan() == 4 * (4 * 4 - 2)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from .board import Board, Goal, check_goal, check_shape, goal_tiles
from .errors import InvalidOptionError, quote_input

if TYPE_CHECKING:
    import numpy as np

BENCHMARK_SETS: tuple[str, ...] = ("korf100", "korf50")
#: The longest random walk any front end or function accepts (the stepper's, the environment's,
#: a data set's, ``scramble``'s), checked before a move is made.
MAX_WALK = 1_000_000
#: The most work one ``scramble`` call takes on, in moves of its walks or tiles of its boards
#: (about 20 CPU seconds: this walk is plain Python).
MAX_SCRAMBLE_WORK = 20_000_000


def check_walk(walk: object, name: str = "walk") -> int:
    """``walk`` if it is a whole number of moves from 0 to ``MAX_WALK``, else ``InvalidOptionError``
    naming ``name``.

    >>> check_walk(10 ** 10)
    Traceback (most recent call last):
    ...
    npuzzle.errors.InvalidOptionError: walk=10000000000: give a number of moves from 0 to 1,000,000
    """
    if isinstance(walk, int) and not isinstance(walk, bool) and 0 <= walk <= MAX_WALK:
        return walk
    raise InvalidOptionError(f"{name}={quote_input(walk)}: give a number of moves from 0 to {MAX_WALK:,}")


_FILES = {"korf100": ("korf100.tsv", 4), "korf50": ("korf50_24.tsv", 5)}


@dataclass(frozen=True)
class Instance:
    """One benchmark position with the facts published about it."""

    name: str
    id: int
    board: Board
    goal: Goal
    optimal_length: int
    published_nodes: int | None
    recomputed_nodes: int | None


def benchmark_set(name: str, ids: list[int] | None = None) -> list[Instance]:
    """The instances of a named set (all, or those whose ``id`` is in ``ids``), in id order."""
    if name not in _FILES:
        raise ValueError(f"unknown benchmark set {name!r}: use one of {', '.join(BENCHMARK_SETS)}")
    filename, side = _FILES[name]
    text = resources.files("npuzzle").joinpath("data", filename).read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    header = lines[0].split("\t")
    out = []
    for line in lines[1:]:
        row = dict(zip(header, line.split("\t"), strict=True))
        number = int(row["id"])
        if ids is not None and number not in ids:
            continue
        tiles = tuple(int(x) for x in row["tiles"].split())
        published = row.get("korf1985_nodes") or row.get("kf2002_nodes")
        recomputed = row.get("ida_md_nodes_recomputed")
        out.append(Instance(
            name, number, Board(side, side, tiles), "blank-first", int(row["optimal_length"]),
            int(published) if published else None, int(recomputed) if recomputed else None,
        ))
    if ids is not None:
        unknown = sorted(set(ids) - {i.id for i in out})
        if unknown:
            raise ValueError(f"{name} has no instance {', '.join(map(str, unknown))}")
    return out



def _rng(rng_or_seed: Any) -> np.random.Generator:
    import numpy as np

    if isinstance(rng_or_seed, np.random.Generator):
        return rng_or_seed
    return np.random.default_rng(rng_or_seed)


def random_board(height: int, width: int, rng_or_seed: Any = None, goal: Goal = "standard") -> Board:
    """A uniformly random solvable position: a random permutation, made solvable (if it is not)
    by swapping two tiles that are not the blank. Each solvable position is reached from
    exactly two permutations, so all are equally likely. ``rng_or_seed``: a numpy
    ``Generator``, a seed or ``None``."""
    check_shape(height, width)
    check_goal(goal)
    tiles = _rng(rng_or_seed).permutation(height * width).tolist()
    board = Board(height, width, tuple(tiles))
    if board.is_solvable(goal):
        return board
    a, b = (0, 1) if tiles[0] and tiles[1] else (2, 3)
    tiles[a], tiles[b] = tiles[b], tiles[a]
    return Board(height, width, tuple(tiles))


def random_walk(height: int, width: int, steps: int, seed: Any = None, goal: Goal = "standard") -> Board:
    """The goal scrambled by ``steps`` random moves of the blank, never undoing the last one."""
    check_shape(height, width)
    check_goal(goal)
    check_walk(steps, "steps")
    rng = random.Random(seed)
    tiles = list(goal_tiles(height * width, goal))
    blank = tiles.index(0)
    last = None
    for _ in range(steps):
        r, c = divmod(blank, width)
        options = [
            (dr, dc)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < height and 0 <= c + dc < width and (-dr, -dc) != last
        ]
        dr, dc = rng.choice(options)
        q = (r + dr) * width + c + dc
        tiles[blank], tiles[q] = tiles[q], 0
        blank, last = q, (dr, dc)
    return Board(height, width, tuple(tiles))


def scramble(
    height: int,
    width: int,
    count: int,
    *,
    seed: int | None = None,
    walk: int | None = None,
    worst: bool = False,
    goal: Goal = "standard",
) -> list[Board]:
    """``count`` scrambled positions: Parberry's worst case (``worst``, square boards only; the
    same board every time), random walks of ``walk`` moves from the goal, or else positions drawn
    uniformly from the solvable ones. The same ``seed`` gives the same positions.

    >>> scramble(3, 3, 2, seed=1) == scramble(3, 3, 2, seed=1)
    True
    >>> [b.manhattan() for b in scramble(3, 3, 3, walk=1, seed=2)]
    [1, 1, 1]
    """
    check_shape(height, width)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise InvalidOptionError(f"count={quote_input(count)}: give a number of positions, at least 1")
    if walk is not None:
        check_walk(walk)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 63):
        raise InvalidOptionError(f"seed={quote_input(seed)}: give a whole number from 0 to 2**63-1")
    work = count * max(walk or 0, height * width)
    if work > MAX_SCRAMBLE_WORK:
        raise InvalidOptionError(f"{count:,} positions of {max(walk or 0, height * width):,} "
                                 f"{'moves' if (walk or 0) > height * width else 'tiles'} are too many at once: "
                                 f"at most {MAX_SCRAMBLE_WORK:,} in all")
    if worst:
        if height != width:
            raise InvalidOptionError("worst=True is defined for square boards (Parberry's Theorem 2)")
        boards = [parberry_worst(height)] * count
        return [b.converted() for b in boards] if goal == "blank-first" else boards
    import numpy as np

    rng = np.random.default_rng(seed)
    if walk:
        return [random_walk(height, width, walk, int(rng.integers(1 << 62)), goal) for _ in range(count)]
    return [random_board(height, width, rng, goal) for _ in range(count)]


def parberry_worst(n: int) -> Board:
    """Theorem 2's configuration of Manhattan distance n^3 - O(n^2) (standard goal).

    n even: the tiles of quadrant 4 swap with those of quadrant 1, and those of quadrant 2 with
    quadrant 3 (the blank stays), so n^2 - 2 tiles are n moves from home. n odd: the same on
    the lower right (n-1) x (n-1), and the tiles at (1, i) swap with (n-i+2, 1) for 2 <= i <= n
    (1-based). As printed, the construction is an odd permutation with the blank at home (n^2/2 - 1
    transpositions for n even, n^2/2 - 3/2 + (n-1) for n odd), so the position is *unsolvable*; one
    more swap of two adjacent tiles restores the parity, chosen to keep the Manhattan distance as
    large as possible. It stays n(n^2 - 2) for n even; for n odd it is n^3 - n^2 - n + 1 (the
    paper's n^3 - n^2 + n + 1 miscounts: (n-1)((n-1)^2 - 2) + 2n(n-1) = n^3 - n^2 - n + 1).
    """
    if not isinstance(n, int) or n < 2:
        raise InvalidOptionError(f"the worst case needs n >= 2, not {n!r}")
    tiles = list(goal_tiles(n * n))
    off = n % 2  # the odd case works on the lower right (n-1) x (n-1)
    m = (n - off) // 2

    def swap(a: tuple[int, int], b: tuple[int, int]) -> None:
        i, j = a[0] * n + a[1], b[0] * n + b[1]
        tiles[i], tiles[j] = tiles[j], tiles[i]

    for r in range(m):
        for c in range(m):
            if (r + m + off, c + m + off) != (n - 1, n - 1):
                swap((r + off, c + off), (r + m + off, c + m + off))
            swap((r + off, c + m + off), (r + m + off, c + off))
    if off:
        for i in range(2, n + 1):
            swap((0, i - 1), (n - i + 1, 0))
    board = Board(n, n, tuple(tiles))
    if board.is_solvable():
        return board
    a, b = max(_adjacent_pairs(n, tiles), key=lambda pair: _swap_gain(tiles, n, *pair))
    tiles[a], tiles[b] = tiles[b], tiles[a]
    return Board(n, n, tuple(tiles))


def _adjacent_pairs(n: int, tiles: list[int]) -> Iterator[tuple[int, int]]:
    for cell in range(n * n):
        for other in (cell + 1, cell + n):
            if other < n * n and (other != cell + 1 or other % n) and tiles[cell] and tiles[other]:
                yield cell, other


def _swap_gain(tiles: list[int], n: int, a: int, b: int) -> int:
    """Change of the Manhattan distance when the tiles at cells ``a`` and ``b`` swap."""

    def dist(tile: int, cell: int) -> int:
        return abs((tile - 1) // n - cell // n) + abs((tile - 1) % n - cell % n)

    ta, tb = tiles[a], tiles[b]
    return dist(ta, b) + dist(tb, a) - dist(ta, a) - dist(tb, b)
