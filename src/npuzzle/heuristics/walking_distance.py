"""Walking distance (Takahashi): vertical and horizontal moves counted apart, each exactly.

Look only at rows. A position then reduces to its *row occupancy table*: for every row r and
goal row g, how many tiles whose goal row is g stand in row r, plus the blank's row. A vertical
move takes one tile from a row next to the blank's into the blank's row; a horizontal move
changes nothing. The exact distance from an occupancy table to the goal's (found by
breadth-first search over every reachable table, backwards from the goal) is therefore a lower
bound on the vertical moves of any solution; the same for columns bounds the horizontal moves,
and the sum of the two is the walking distance. It is never less than the Manhattan distance.

Every abstract move moves the blank one line, so the abstract graphs are bipartite: the walking
distance changes by exactly one on every move and keeps the parity of the solution length.

A ``WalkingTable`` numbers the reachable tables in BFS order (0 is the goal) and holds
``dist[index]`` and ``trans[(index * 2 + direction) * lines + goal_line]``: the table reached
when the blank's line steps up (direction 0) or down (1) and the tile that crosses into its
old line belongs to ``goal_line`` (-1 if there is no such tile). ``steps()`` gives the same
entries as ``2 * index + (1 if the distance grows else 0)``: the search kernel updates the
index and the distance with that one lookup. For a 4x4 board there are 24,964 tables and the
largest distance is 35 per direction (70 for the walking distance).

A* starts from a whole board at every node it expands, so it finds a table's index without the
dictionary: ``hashed_index`` gives every (cell, tile) a random 64-bit weight of its (line, goal
line) count, so that a table's key, the sum of its board's weights, is a sum over the counts;
the keys of all reachable tables are checked to be distinct and sorted for a binary search.

The tables are kept in the table store (kind ``walking``, pattern ``rows.v1`` or ``cols.v1``: the
row or the column table of a board shape and goal; one file for square boards), built the first
time a shape needs them (4x4: 0.2 s in Python, then read in about 2 ms). A stored table
is an int32 array of one row per occupancy table, ``[dist, steps (2 * lines), flat table,
blank line]`` (the kernel's ``steps``, so that loading computes nothing); every verified load
checks it in full (``_problem``): the goal first, every table's counts, every transition against
the tables it joins, and the distances against the transitions, so a table that passes is the
one the search would build. A damaged one is reported once (``tables.warn_damaged``), built
again and replaced.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections import deque
from dataclasses import dataclass

import numpy as np

from .. import tables as store
from ..board import GOALS, Board, Goal, goal_cell
from ..errors import InvalidOptionError, MissingTableError, TableFormatError, TableStoreError

#: Boards with more tables than this are refused (the BFS runs in Python: 3x5 has 352,560
#: column tables and takes 8 s).
MAX_STATES = 1_000_000
#: The memory the search for the tables takes, per table (its tuple, index entry and moves;
#: measured: a million tables of 5x5 took 1.26 GB).
BUILD_BYTES = 1300
#: Lookups of a table that scan its states before its dictionary is built (4x4: 0.3 ms each).
_SCANS = 4
#: Kind and version of the walking tables in the table store.
KIND = "walking"
VERSION = 1


@dataclass(frozen=True)
class WalkingTable:
    """Every occupancy table of ``lines`` lines of ``cells`` cells each, for one goal."""

    lines: int
    cells: int
    goal_blank_line: int
    states: np.ndarray  # uint8 [index, lines * lines + 1]: the flat table, then the blank's line
    dist: np.ndarray  # uint8, distance of each table to the goal's
    trans: np.ndarray  # int32, see the module docstring

    def __len__(self) -> int:
        return len(self.dist)

    @functools.cached_property
    def index(self) -> dict[tuple[int, ...], int]:
        """flat table + (blank line,) -> index (built on first use)."""
        return {state: i for i, state in enumerate(map(tuple, self.states.tolist()))}

    def position(self, state: tuple[int, ...]) -> int:
        """The index of ``state`` (a key of ``index``; ``KeyError`` if it is none): the first
        few lookups scan ``states`` (a search looks up one board), later ones build ``index``."""
        scans = self.__dict__.get("_scans", 0)
        if "index" in self.__dict__ or scans >= _SCANS:
            return self.index[state]
        self.__dict__["_scans"] = scans + 1
        found = np.flatnonzero((self.states == np.array(state, dtype=np.int64)).all(axis=1))
        if found.size == 0:
            raise KeyError(state)
        return int(found[0])

    def steps(self) -> np.ndarray:
        """``trans`` with the distance's change folded in (int32, see the module docstring;
        made once: not to be changed)."""
        made = self.__dict__.get("_steps")
        if made is None:
            source = np.arange(len(self.trans)) // (2 * self.lines)
            grows = self.dist[np.maximum(self.trans, 0)] > self.dist[source]
            made = np.where(self.trans >= 0, 2 * self.trans + grows, -1).astype(np.int32)
            self.__dict__["_steps"] = made
        return made


def build_walking_table(lines: int, cells: int, goal_blank_line: int) -> WalkingTable:
    """Breadth-first search over the occupancy tables, backwards from the goal's.

    A state is the flat ``lines x lines`` table (row-major: line, then goal line) followed by the
    blank's line. Moves are reversible, so the distance from the goal is the distance to it.
    Shapes with more than ``MAX_STATES`` tables are refused before the search (``table_count``)."""
    count = table_count(lines, cells, goal_blank_line, MAX_STATES)
    if count is None:
        raise InvalidOptionError(
            f"the walking distance of lines of {cells} cells in {lines} lines has more "
            f"than {MAX_STATES:,} tables: use lc or a pattern database for this board")
    what = f"the walking-distance table of {lines} lines of {cells} cells ({count:,} tables)"
    store.check_build(what, count * BUILD_BYTES)  # the search's limits hold for its tables too
    goal = [0] * (lines * lines) + [goal_blank_line]
    for g in range(lines):
        goal[g * lines + g] = cells - (g == goal_blank_line)
    start = tuple(goal)
    index = {start: 0}
    states = [start]
    dist = [0]
    edges: list[tuple[int, int, int, tuple[int, ...]]] = []
    queue = deque([start])
    while queue:
        state = queue.popleft()
        i = index[state]
        b = state[-1]
        for direction, nb in ((0, b - 1), (1, b + 1)):
            if not 0 <= nb < lines:
                continue
            for g in range(lines):
                if state[nb * lines + g] == 0:
                    continue
                nxt = list(state)
                nxt[nb * lines + g] -= 1
                nxt[b * lines + g] += 1
                nxt[-1] = nb
                key = tuple(nxt)
                if key not in index:
                    if len(states) % 4096 == 0:
                        store.check_build(what)
                    if len(states) >= MAX_STATES:
                        raise InvalidOptionError(
                            f"the walking distance of lines of {cells} cells in {lines} lines has more "
                            f"than {MAX_STATES:,} tables: use lc or a pattern database for this board")
                    index[key] = len(states)
                    states.append(key)
                    dist.append(dist[i] + 1)
                    queue.append(key)
                edges.append((i, direction, g, key))
    trans = np.full(len(states) * 2 * lines, -1, dtype=np.int32)
    for i, direction, g, key in edges:
        trans[(i * 2 + direction) * lines + g] = index[key]
    table = WalkingTable(lines, cells, goal_blank_line, np.array(states, dtype=np.uint8),
                         np.array(dist, dtype=np.uint8), trans)
    table.__dict__["index"] = index  # built anyway: kept for the plain-Python lookups
    return table


def table_count(lines: int, cells: int, goal_blank_line: int, cap: int) -> int | None:
    """How many occupancy tables there are (every one is reachable), or None once they are
    certainly more than ``cap``: without searching, so that a board whose tables are too many
    is refused at once (a 5x5 board's search ran 10.8 s and took 1.26 GB before it stopped).

    Line by line, the ways to fill the lines so far, by what each goal line has left to place:
    any such partial filling can be completed (a table with given line and goal-line sums exists
    whenever their totals agree), so more than ``cap`` partial fillings mean more tables.

    >>> table_count(4, 4, 3, 10**6), table_count(5, 3, 4, 10**6), table_count(5, 5, 4, 10**6)
    (24964, 352560, None)
    """
    goal_lines = tuple(cells - (g == goal_blank_line) for g in range(lines))
    total = 0
    for blank_line in range(lines):
        ways = {goal_lines: 1}
        for line in range(lines - 1):  # the last line takes what is left
            fillings = 0
            after: dict[tuple[int, ...], int] = {}
            for left in ways:
                fillings += _filling_count(cells - (line == blank_line), left)
                if fillings > cap:
                    return None
            for left, count in ways.items():
                for choice in _fillings(cells - (line == blank_line), left):
                    rest = tuple(a - b for a, b in zip(left, choice, strict=True))
                    after[rest] = after.get(rest, 0) + count
            ways = after
        total += sum(ways.values())
        if total > cap:
            return None
    return total


@functools.lru_cache(maxsize=65536)
def _filling_count(tiles: int, room: tuple[int, ...]) -> int:
    """``len(_fillings(tiles, room))`` without making them: ways[t], to take t tiles so far."""
    ways = [1] + [0] * tiles
    for r in room:
        ways = [sum(ways[max(0, t - r) : t + 1]) for t in range(tiles + 1)]
    return ways[tiles]


@functools.lru_cache(maxsize=4096)
def _fillings(tiles: int, room: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way to take ``tiles`` tiles from goal lines with ``room`` left each (stars and bars)."""
    k = len(room)
    out = []
    for bars in itertools.combinations(range(tiles + k - 1), k - 1):
        parts = [b - a - 1 for a, b in zip((-1, *bars), (*bars, tiles + k - 1), strict=True)]
        if all(p <= r for p, r in zip(parts, room, strict=True)):
            out.append(tuple(parts))
    return out


@functools.cache
def walking_tables(height: int, width: int, goal: Goal = "standard") -> tuple[WalkingTable, WalkingTable]:
    """The row table (lines = rows) and the column table of a ``height x width`` board: from the
    table store, else built and stored there (see the module docstring). ``goal`` is a checked
    convention name."""
    rows = _stored_or_built(height, width, goal, "rows")
    if height == width:
        return rows, rows
    return rows, _stored_or_built(height, width, goal, "cols")


def table_key(height: int, width: int, goal: Goal, which: str) -> store.TableKey:
    """The store's name of the row (``which="rows"``) or column table of a board shape and goal."""
    return store.TableKey(KIND, height, width, goal, f"{which}.v{VERSION}")


def _dimensions(height: int, width: int, goal: Goal, which: str) -> tuple[int, int, int]:
    """The lines, cells per line and goal blank line of a board's row or column table."""
    blank = goal_cell(0, height * width, goal)
    return (height, width, blank // width) if which == "rows" else (width, height, blank % width)


def _stored_or_built(height: int, width: int, goal: Goal, which: str) -> WalkingTable:
    lines, cells, blank_line = _dimensions(height, width, goal, which)
    key = table_key(height, width, goal, which)
    try:
        return _from_array(store.load_table(key).data, lines, cells, blank_line)
    except MissingTableError:
        pass  # not built yet: build it (4x4: 0.2 s)
    except TableFormatError as e:
        store.warn_damaged(e, "building it again and replacing it")
    start = time.process_time()
    table = build_walking_table(lines, cells, blank_line)
    meta = {"lines": lines, "cells": cells, "goal_blank_line": blank_line, "states": len(table),
            "build_cpu_seconds": round(time.process_time() - start, 3)}
    try:
        store.save_table(key, _as_array(table), meta)
    except TableStoreError:
        pass  # a read-only store (or no store at all): build it again next time
    return table


def _as_array(table: WalkingTable) -> np.ndarray:
    """The stored form: one int32 row per occupancy table, ``[dist, steps, flat table, blank line]``."""
    return np.hstack([table.dist.reshape(-1, 1), table.steps().reshape(len(table), 2 * table.lines),
                      table.states]).astype(np.int32)


def _from_array(data: np.ndarray, lines: int, cells: int, blank_line: int) -> WalkingTable:
    """A ``WalkingTable`` from its stored form (checked on load by ``_check_table``)."""
    cut = 1 + 2 * lines
    steps = np.ascontiguousarray(data[:, 1:cut], dtype=np.int32).reshape(-1)
    trans = np.where(steps >= 0, steps >> 1, -1).astype(np.int32)
    table = WalkingTable(lines, cells, blank_line, data[:, cut:].astype(np.uint8), data[:, 0].astype(np.uint8), trans)
    table.__dict__["_steps"] = steps
    return table


def _check_table(table: store.Table) -> None:
    """A stored walking table is exactly the one ``build_walking_table`` makes, up to the order
    of the tables after the goal's (run on every verified load: ``tables.register_check``)."""
    key = table.key
    which = key.pattern.removesuffix(f".v{VERSION}")
    if which not in ("rows", "cols") or key.goal not in GOALS:
        raise TableFormatError(f"table file {table.path}: not a walking-distance table ({key.pattern})")
    lines, cells, blank_line = _dimensions(key.height, key.width, key.goal, which)  # type: ignore[arg-type]
    problem = _problem(table.data, lines, cells, blank_line)
    if problem is not None:
        raise TableFormatError(f"table file {table.path}: {problem} (the table is corrupt)")


def _problem(data: np.ndarray, lines: int, cells: int, blank_line: int) -> str | None:
    """What is wrong with a stored walking table of ``lines`` lines of ``cells`` cells and goal
    blank line ``blank_line``, or None if nothing: the goal's table first and the only one at
    distance 0; every table has the right counts; the tables are distinct; every possible move of
    every table (and no other) leads to the table it makes; every move changes the distance by
    one, marked in its step's low bit, and every table but the goal's has a move that lowers it.
    The tables are then every reachable one and the distances are the exact ones."""
    width = 2 + 2 * lines + lines * lines
    if data.dtype != np.int32 or data.ndim != 2 or data.shape[1] != width or not 0 < data.shape[0] <= MAX_STATES:
        return f"not a walking table of {lines} lines of {cells} cells"
    size = data.shape[0]
    dist = data[:, 0].astype(np.int64)
    steps = data[:, 1 : 1 + 2 * lines].astype(np.int64)
    trans = np.where(steps >= 0, steps >> 1, steps)
    states = data[:, 1 + 2 * lines :].astype(np.int64)
    counts = states[:, :-1].reshape(size, lines, lines)
    blank = states[:, -1]
    goal = np.diag([cells - (g == blank_line) for g in range(lines)])
    if not (np.array_equal(counts[0], goal) and blank[0] == blank_line):
        return "its first table is not the goal's"
    line = np.arange(lines)
    if (counts.min() < 0 or blank.min() < 0 or blank.max() >= lines
            or not np.array_equal(counts.sum(axis=2), cells - (line[None, :] == blank[:, None]))
            or not np.array_equal(counts.sum(axis=1), np.broadcast_to(cells - (line == blank_line), (size, lines)))):
        return "a table's counts do not fill the board"
    if not _distinct(states):
        return "a table is listed twice"
    if steps.min() < -1 or trans.max() >= size or dist.min() != 0 or dist.max() > 255 or (dist == 0).sum() != 1:
        return "an entry is out of range"
    lowered = dist == 0
    for direction, step in ((0, -1), (1, 1)):
        nb = blank + step
        inside = (nb >= 0) & (nb < lines)
        for g in range(lines):
            target = trans[:, direction * lines + g]
            here = np.flatnonzero(inside)
            possible = np.zeros(size, bool)
            possible[here] = counts[here, nb[here], g] > 0
            if not np.array_equal(target >= 0, possible):
                return "a move is missing or leads nowhere"
            src = np.flatnonzero(possible)
            made = states[src].copy()
            made[np.arange(src.size), nb[src] * lines + g] -= 1
            made[np.arange(src.size), blank[src] * lines + g] += 1
            made[:, -1] = nb[src]
            dst = target[src]
            if not np.array_equal(states[dst], made):
                return "a move leads to the wrong table"
            change = dist[dst] - dist[src]
            if not (np.abs(change) == 1).all():
                return "a move changes the distance by other than one"
            if not np.array_equal(steps[src, direction * lines + g] & 1, change > 0):
                return "a move's change of distance is marked wrong"
            lowered[src[change < 0]] = True
    if not lowered.all():
        return "a table has a distance no move lowers"
    return None


def _distinct(rows: np.ndarray) -> bool:
    """Whether the rows of a 2-D integer array are distinct: distinct random 64-bit sums prove it
    (fast); else the rows are sorted and compared."""
    weights = np.random.default_rng(0).integers(0, 2**64, size=rows.shape[1], dtype=np.uint64, endpoint=False)
    if len(np.unique((rows.astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64))) == len(rows):
        return True
    ordered = rows[np.lexsort(rows.T[::-1])]
    return bool((np.diff(ordered, axis=0) != 0).any(axis=1).all())


store.register_check(KIND, _check_table)


@dataclass(frozen=True)
class HashedIndex:
    """A walking table's index as arrays: the key of a board is ``sum(weights[cell * n + tile])``
    over its cells (uint64, wrapping), ``keys`` (sorted, distinct) the keys of every table and
    ``index[i]`` the table whose key is ``keys[i]``."""

    weights: np.ndarray  # uint64, n * n
    keys: np.ndarray  # uint64
    index: np.ndarray  # int32


@functools.cache
def hashed_indices(height: int, width: int, goal: Goal = "standard") -> tuple[HashedIndex, HashedIndex]:
    """The row and the column table's ``HashedIndex`` for ``height x width`` boards and ``goal``."""
    rows, cols = walking_tables(height, width, goal)
    n = height * width
    cells = np.arange(n)
    lines = (cells // width, cells % width)
    homes = np.array([goal_cell(t, n, goal) for t in range(n)])
    goal_lines = (homes // width, homes % width)
    return (_hashed(rows, lines[0], goal_lines[0]), _hashed(cols, lines[1], goal_lines[1]))


def _hashed(table: WalkingTable, line_of: np.ndarray, goal_line: np.ndarray) -> HashedIndex:
    """Draw weights (seed 0, 1, ...) until the keys of ``table``'s states are distinct."""
    lines = table.lines
    states = table.states.astype(np.int64)
    count, blank_line = states[:, :-1].astype(np.uint64), states[:, -1]
    for seed in range(100):
        rng = np.random.default_rng(seed)
        w_count = rng.integers(0, 2**64, size=lines * lines, dtype=np.uint64, endpoint=False)
        w_blank = rng.integers(0, 2**64, size=lines, dtype=np.uint64, endpoint=False)
        keys = (count * w_count).sum(axis=1, dtype=np.uint64) + w_blank[blank_line]
        if len(np.unique(keys)) == len(keys):
            break
    else:  # pragma: no cover - 100 collisions among fewer than 2**20 random 64-bit keys
        raise AssertionError("no collision-free walking-table keys")
    n = len(line_of)
    weights = np.zeros(n * n, dtype=np.uint64)
    for cell in range(n):
        weights[cell * n] = w_blank[line_of[cell]]
        weights[cell * n + 1 : (cell + 1) * n] = w_count[line_of[cell] * lines + goal_line[1:]]
    order = np.argsort(keys)
    return HashedIndex(weights, keys[order], order.astype(np.int32))


def occupancy_keys(board: Board, goal: Goal = "standard") -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The row and column occupancy states of ``board`` (keys of the tables' ``index``)."""
    h, w, n = board.height, board.width, board.size
    rows = [0] * (h * h) + [board.blank // w]
    cols = [0] * (w * w) + [board.blank % w]
    for cell, tile in enumerate(board.tiles):
        if tile:
            home = goal_cell(tile, n, goal)
            rows[(cell // w) * h + home // w] += 1
            cols[(cell % w) * w + home % w] += 1
    return tuple(rows), tuple(cols)


def walking_indices(board: Board, goal: Goal = "standard") -> tuple[int, int]:
    """The indices of ``board``'s row and column occupancy tables."""
    rt, ct = walking_tables(board.height, board.width, goal)
    rk, ck = occupancy_keys(board, goal)
    return rt.position(rk), ct.position(ck)


def walking_distance(board: Board, goal: Goal = "standard") -> int:
    """The walking distance of ``board``: at least the number of moves of any solution.

    >>> walking_distance(Board(4, 4, (1, 2, 3, 0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 4)))
    11
    """
    rt, ct = walking_tables(board.height, board.width, goal)
    ri, ci = walking_indices(board, goal)
    return int(rt.dist[ri]) + int(ct.dist[ci])


#: The family's value under the name every heuristic module uses.
value = walking_distance
