"""Labels for learning systems: a position's optimal distance and the set of its optimal first
moves, or, on boards too large for that, a proven lower bound and the length of a near-optimal
solution (labelled as such). The distances come from the distance oracle (``search.oracle``):

- boards of up to ``oracle.MADE_TABLE_CELLS`` cells (3x3, 2x5, ...): every position's exact
  distance is decoded once from the breadth-first distance table into a byte a position, then a
  kernel labels a whole batch (``_kernels.stepper.label``);
- up to ``oracle.EXACT_CELLS`` cells (4x4, 3x4, 3x5, ...), or with a saved table: the exact
  distance of every child of the position (one IDA* kernel call for the batch, with the bound
  ``prepare`` resolves): the distance is one more than the least of them, and the optimal first
  moves are the moves to the children at that least distance (``d(child) = d - 1``);
- larger boards: the oracle's lower bound, and the beam search's (or real time's) solution
  within ``NEAR_OPTIMAL_NODES`` nodes; no optimal moves.

Moves are the actions of ``search.stepper`` (``U, D, L, R`` = bits 0..3 of a mask).

>>> import numpy as np
>>> from npuzzle.search.warm import scratch_store
>>> with scratch_store():
...     found = label(np.array([[1, 2, 3, 4, 0, 5], [1, 2, 3, 0, 4, 5]]), 2, 3)
>>> found.distance.tolist(), [moves_text(m) for m in found.moves.tolist()], found.method
([1, 2], ['L', 'L'], 'bfs-table')
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..board import Board, Goal
from .oracle import MADE_TABLE_CELLS, Oracle, table_labels
from .stepper import ACTIONS, action_table

#: The node budget of the near-optimal solution of a larger board (deterministic, unlike time).
NEAR_OPTIMAL_NODES = 1_000_000


@dataclass(frozen=True)
class Labels:
    """The labels of a batch of positions (arrays of one entry a position)."""

    distance: np.ndarray  # the optimal distance, or -1 where not known
    moves: np.ndarray  # mask of the optimal first actions (bit a: ACTIONS[a]); 0 where not known
    lower_bound: np.ndarray  # a proven lower bound (= distance where known)
    length: np.ndarray  # the length of a solution found (= distance where known; -1: none found)
    method: str  # what labelled them: "bfs-table", "idastar/HEURISTIC", "beam", "realtime"

    @property
    def optimal(self) -> bool:
        return self.method == "bfs-table" or self.method.startswith("idastar")


def method_for(height: int, width: int, goal: Goal = "standard") -> str:
    """What labels positions of this shape (the ``method`` of their ``Labels``)."""
    return _method(Oracle(height, width, goal))


def _method(oracle: Oracle) -> str:
    if oracle.kind == "table":
        return "bfs-table"
    if oracle.kind == "idastar":
        return f"idastar/{oracle.heuristic}"
    from .problem import AUTO_BEAM_CELLS

    return "beam" if oracle.height * oracle.width <= AUTO_BEAM_CELLS else "realtime"


def label(tiles: np.ndarray, height: int, width: int, goal: Goal = "standard") -> Labels:
    """The labels of the positions in the rows of ``tiles`` (each solvable for ``goal``)."""
    cells = height * width
    tiles = np.ascontiguousarray(tiles, dtype=np.int64).reshape(-1, cells)
    oracle = Oracle(height, width, goal)
    if oracle.kind == "table" and cells <= MADE_TABLE_CELLS:
        dist, mask = table_labels(tiles, height, width, oracle.blank)
        return Labels(dist, mask, dist, dist, "bfs-table")
    if oracle.exact:
        return _by_children(tiles, oracle)
    return _near_optimal(tiles, oracle)


def prepare(height: int, width: int, goal: Goal = "standard") -> None:
    """Make now what labelling this shape reads (the exact table; the kernels), so that worker
    processes forked afterwards share it."""
    goal_board = Board.goal(height, width, goal)
    near = goal_board.move(goal_board.movable_tiles()[0])  # its children include the goal: a search runs
    label(np.array([near.tiles]), height, width, goal)


def _by_children(tiles: np.ndarray, oracle: Oracle) -> Labels:
    """Exact distances of every child (one batch): d = 1 + the least of them."""
    height, width = oracle.height, oracle.width
    act = action_table(height, width).reshape(-1, 4)
    assert isinstance(oracle.goal, str)
    goal_row = np.array(Board.goal(height, width, oracle.goal).tiles)
    children: list[np.ndarray] = []
    owners: list[tuple[int, int]] = []
    for i, row in enumerate(tiles):
        if np.array_equal(row, goal_row):
            continue
        blank = int(np.flatnonzero(row == 0)[0])
        for a in range(4):
            q = int(act[blank, a])
            if q >= 0:
                child = row.copy()
                child[blank], child[q] = child[q], 0
                children.append(child)
                owners.append((i, a))
    lengths = oracle.exact_many(np.array(children)).tolist() if children else []
    best = np.full(len(tiles), np.iinfo(np.int64).max, np.int64)
    for (i, _), d in zip(owners, lengths, strict=True):
        best[i] = min(best[i], d)
    dist = np.where(best == np.iinfo(np.int64).max, 0, best + 1)
    mask = np.zeros(len(tiles), np.int64)
    for (i, a), d in zip(owners, lengths, strict=True):
        if d == best[i]:
            mask[i] |= 1 << a
    return Labels(dist, mask, dist, dist, _method(oracle))


def _near_optimal(tiles: np.ndarray, oracle: Oracle) -> Labels:
    lows, lengths = [], []
    for row in tiles:
        board = Board(oracle.height, oracle.width, tuple(row.tolist()))
        sol = oracle.solution(board, NEAR_OPTIMAL_NODES)
        lows.append(max(sol.lower_bound, oracle.lower(board)[0]))
        lengths.append(-1 if sol.length is None else sol.length)
    unknown = np.full(len(tiles), -1, np.int64)
    return Labels(unknown, np.zeros(len(tiles), np.int64), np.array(lows, np.int64), np.array(lengths, np.int64),
                  _method(oracle))


def moves_text(mask: int) -> str:
    """The actions of a mask as letters, in the order ``U D L R``: ``moves_text(0b0101) == "UL"``."""
    return "".join(ch for a, ch in enumerate(ACTIONS) if mask >> a & 1)



def distances(tiles: np.ndarray, height: int, width: int, goal: Goal = "standard") -> np.ndarray:
    """The optimal distance of each row of ``tiles`` (int64), from the distance oracle: boards of
    up to ``oracle.EXACT_CELLS`` cells, or with a saved distance table (``MissingTableError`` beyond)."""
    return Oracle(height, width, goal).exact_many(tiles)
