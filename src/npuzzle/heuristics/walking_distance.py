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
"""

from __future__ import annotations

import functools
from collections import deque
from dataclasses import dataclass

import numpy as np

from ..board import Board, Goal, check_goal, goal_cell
from ..errors import InvalidBoardError

#: Boards with more tables than this are refused (the BFS runs in Python: 3x5 has 352,560
#: column tables and takes 8 s).
MAX_STATES = 1_000_000


@dataclass(frozen=True)
class WalkingTable:
    """Every occupancy table of ``lines`` lines of ``cells`` cells each, for one goal."""

    lines: int
    cells: int
    goal_blank_line: int
    index: dict[tuple[int, ...], int]  # flat table + (blank line,) -> index
    dist: np.ndarray  # uint8, distance of each table to the goal's
    trans: np.ndarray  # int32, see the module docstring

    def __len__(self) -> int:
        return len(self.dist)

    def steps(self) -> np.ndarray:
        """``trans`` with the distance's change folded in (int32, see the module docstring)."""
        source = np.arange(len(self.trans)) // (2 * self.lines)
        grows = self.dist[np.maximum(self.trans, 0)] > self.dist[source]
        return np.where(self.trans >= 0, 2 * self.trans + grows, -1).astype(np.int32)


def build_walking_table(lines: int, cells: int, goal_blank_line: int) -> WalkingTable:
    """Breadth-first search over the occupancy tables, backwards from the goal's.

    A state is the flat ``lines x lines`` table (row-major: line, then goal line) followed by the
    blank's line. Moves are reversible, so the distance from the goal is the distance to it."""
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
                    if len(states) >= MAX_STATES:
                        raise InvalidBoardError(
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
    return WalkingTable(lines, cells, goal_blank_line, index, np.array(dist, dtype=np.uint8), trans)


@functools.cache
def walking_tables(height: int, width: int, goal: Goal = "standard") -> tuple[WalkingTable, WalkingTable]:
    """The row table (lines = rows) and the column table of a ``height x width`` board."""
    check_goal(goal)
    blank = goal_cell(0, height * width, goal)
    rows = build_walking_table(height, width, blank // width)
    if height == width:
        return rows, rows
    return rows, build_walking_table(width, height, blank % width)


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
    states = np.array(list(table.index), dtype=np.int64)
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
    index = np.array(list(table.index.values()), dtype=np.int32)
    return HashedIndex(weights, keys[order], index[order])


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
    return rt.index[rk], ct.index[ck]


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
