"""Labels for learning systems: a position's optimal distance and the set of its optimal first
moves, or, on boards too large for that, a proven lower bound and the length of a near-optimal
solution (labelled as such).

- Boards of up to ``EXACT_TABLE_CELLS`` cells (3x3, 2x5, ...): every position's exact distance is
  decoded once from the breadth-first distance table (``search.bfs``; the saved one if there is
  one) into a byte a position, then a kernel labels a whole batch (``_kernels.stepper.label``).
- Up to ``OPTIMAL_CELLS`` cells (4x4, 3x4, 3x5, ...): IDA* with the strongest bound built
  (``heuristics.registry.auto_heuristic``: pdb:7-8 on 4x4 once built) finds the optimal length of
  every child of the position (``idastar.optimal_lengths``, one kernel call for the batch): the
  distance is one more than the least of them, and the optimal first moves are the moves to the
  children at that least distance (``d(child) = d - 1``).
- Larger boards: the bound ``auto`` picks, and the beam search's (or real time's) solution
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

import functools
from dataclasses import dataclass

import numpy as np

from ..board import Board, Goal
from ..errors import InvalidBoardError
from .stepper import ACTIONS, action_table

#: Boards of up to this many cells (2x5: 1,814,400 positions) are labelled from a table of every
#: position's exact distance, made in memory once per process.
EXACT_TABLE_CELLS = 10
#: Boards of up to this many cells are labelled optimally by IDA*.
OPTIMAL_CELLS = 16
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
    cells = height * width
    if cells <= EXACT_TABLE_CELLS:
        return "bfs-table"
    if cells <= OPTIMAL_CELLS:
        from ..heuristics.registry import auto_heuristic

        return f"idastar/{auto_heuristic(height, width, goal)[0]}"
    from .problem import AUTO_BEAM_CELLS

    return "beam" if cells <= AUTO_BEAM_CELLS else "realtime"


def label(tiles: np.ndarray, height: int, width: int, goal: Goal = "standard") -> Labels:
    """The labels of the positions in the rows of ``tiles`` (each solvable for ``goal``)."""
    cells = height * width
    tiles = np.ascontiguousarray(tiles, dtype=np.int64).reshape(-1, cells)
    if cells <= EXACT_TABLE_CELLS:
        return _from_table(tiles, height, width, goal)
    if cells <= OPTIMAL_CELLS:
        return _by_idastar(tiles, height, width, goal)
    return _near_optimal(tiles, height, width, goal)


def prepare(height: int, width: int, goal: Goal = "standard") -> None:
    """Make now what labelling this shape reads (the exact table; the kernels), so that worker
    processes forked afterwards share it."""
    if height * width <= EXACT_TABLE_CELLS:
        exact_table(height, width, goal)
    goal_board = Board.goal(height, width, goal)
    near = goal_board.move(goal_board.movable_tiles()[0])  # its children include the goal: a search runs
    label(np.array([near.tiles]), height, width, goal)


@functools.lru_cache(maxsize=4)
def exact_table(height: int, width: int, goal: Goal = "standard") -> np.ndarray:
    """Every position's exact distance (uint8, by ``_kernels.bfs``'s index), from the 2-bit BFS table."""
    from .._kernels.stepper import distances
    from .bfs import distance_table, goal_blank, space

    blank = goal_blank(height, width, goal)
    sp = space(height, width, blank)
    two_bit = distance_table(height, width, goal, progress=False)
    out = np.empty(sp.states, dtype=np.uint8)
    distances(two_bit, blank, sp.size, width, sp.fact_half, sp.popc, sp.need, sp.nbr, out)
    return out


def _from_table(tiles: np.ndarray, height: int, width: int, goal: Goal) -> Labels:
    from .._kernels.stepper import label as label_kernel
    from .bfs import goal_blank, space

    sp = space(height, width, goal_blank(height, width, goal))
    dist = np.empty(len(tiles), np.int64)
    mask = np.empty(len(tiles), np.int64)
    label_kernel(tiles, exact_table(height, width, goal), sp.size, width, sp.fact_half, sp.popc,
                 action_table(height, width), dist, mask)
    return Labels(dist, mask, dist, dist, "bfs-table")


def _by_idastar(tiles: np.ndarray, height: int, width: int, goal: Goal) -> Labels:
    """Optimal lengths of every child (one batch of IDA* searches): d = 1 + the least of them."""
    from .idastar import optimal_lengths

    method = method_for(height, width, goal)
    act = action_table(height, width).reshape(-1, 4)
    goal_row = np.array(Board.goal(height, width, goal).tiles)
    children: list[Board] = []
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
                children.append(Board(height, width, tuple(child.tolist())))
                owners.append((i, a))
    lengths = optimal_lengths(children, goal=goal, heuristic=method.split("/", 1)[1])[0] if children else []
    best = np.full(len(tiles), np.iinfo(np.int64).max, np.int64)
    for (i, _), d in zip(owners, lengths, strict=True):
        best[i] = min(best[i], d)
    dist = np.where(best == np.iinfo(np.int64).max, 0, best + 1)
    mask = np.zeros(len(tiles), np.int64)
    for (i, a), d in zip(owners, lengths, strict=True):
        if d == best[i]:
            mask[i] |= 1 << a
    return Labels(dist, mask, dist, dist, method)


def _near_optimal(tiles: np.ndarray, height: int, width: int, goal: Goal) -> Labels:
    from ..heuristics.registry import first_bound
    from .limits import Limit
    from .problem import prepare, run
    from .registry import Request

    lows, lengths = [], []
    method = method_for(height, width, goal)
    request = Request(goal=goal, limit=Limit(max_nodes=NEAR_OPTIMAL_NODES))
    for row in tiles:
        board = Board(height, width, tuple(row.tolist()))
        sol = run(prepare(board, request, method))
        lows.append(max(sol.lower_bound, first_bound(board, goal, "auto")[1]))
        lengths.append(-1 if sol.length is None else sol.length)
    unknown = np.full(len(tiles), -1, np.int64)
    return Labels(unknown, np.zeros(len(tiles), np.int64), np.array(lows, np.int64), np.array(lengths, np.int64),
                  method)


def moves_text(mask: int) -> str:
    """The actions of a mask as letters, in the order ``U D L R``: ``moves_text(0b0101) == "UL"``."""
    return "".join(ch for a, ch in enumerate(ACTIONS) if mask >> a & 1)



def distances(tiles: np.ndarray, height: int, width: int, goal: Goal = "standard") -> np.ndarray:
    """The optimal distance of each row of ``tiles`` (int64): from the exact table on boards of up
    to ``EXACT_TABLE_CELLS`` cells, else by IDA* (boards of up to ``OPTIMAL_CELLS`` cells)."""
    cells = height * width
    tiles = np.ascontiguousarray(tiles, dtype=np.int64).reshape(-1, cells)
    if cells <= EXACT_TABLE_CELLS:
        return _from_table(tiles, height, width, goal).distance
    if cells > OPTIMAL_CELLS:
        raise InvalidBoardError(f"exact distances are found on boards of at most {OPTIMAL_CELLS} cells, "
                                f"not {height}x{width}")
    from .idastar import optimal_lengths

    boards = [Board(height, width, tuple(row)) for row in tiles.tolist()]
    return np.array(optimal_lengths(boards, goal=goal, heuristic=method_for(height, width, goal).split("/", 1)[1])[0],
                    dtype=np.int64)
