"""The geometry of a board shape, as the kernels read it: one numbering of the blank's steps,
neighbour tables, goal cells and Manhattan distances, and the conversions between cells, blank
steps and the tiles a solution pushes.

This layer depends on ``board`` only. Heuristics build on it, searches on both, front ends on
everything: see ``docs/architecture.md``.

Blank steps are numbered ``UP, LEFT, RIGHT, DOWN = 0, 1, 2, 3`` (so ``3 - d`` undoes ``d``);
``STEPS[d]`` is the (row, column) change of the blank's cell. These are the blank's steps; the
``Direction`` letters of a solution name the way the pushed tile slides, the opposite way.

>>> g = geometry(2, 3, "standard")
>>> g.home.tolist()           # the goal cell of tiles 0..5 (the blank's is the last cell)
[5, 0, 1, 2, 3, 4]
>>> neighbours(2, 3)[:4].tolist()   # from cell 0: up, left, right, down
[-1, -1, 1, 3]
>>> tiles_from_directions(Board(2, 3, (1, 2, 3, 4, 0, 5)), [RIGHT])
(5,)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .board import Board, Goal, check_goal, goal_cell

if TYPE_CHECKING:
    import numpy as np

#: The blank's steps as the kernels number them.
UP, LEFT, RIGHT, DOWN = 0, 1, 2, 3
#: (row, column) change of the blank's cell for each step.
STEPS: tuple[tuple[int, int], ...] = ((-1, 0), (0, -1), (0, 1), (1, 0))


@dataclass(frozen=True)
class Geometry:
    """The arrays every search and heuristic reads for one board shape and goal (made once by
    ``geometry``; kernels only read them)."""

    height: int
    width: int
    goal: Goal
    home: np.ndarray  # goal cell of each tile (int64)
    md: np.ndarray  # md[cell * n + tile]: Manhattan distance of tile at cell (0 for the blank)
    nbr: np.ndarray  # nbr[cell * 4 + d]: the cell the blank reaches by step d, or -1
    row_of: np.ndarray  # row of each cell (uint64: kernels index with it)
    col_of: np.ndarray  # column of each cell (uint64)

    @property
    def size(self) -> int:
        return self.height * self.width


@functools.cache
def geometry(height: int, width: int, goal: Goal = "standard") -> Geometry:
    """The ``Geometry`` of ``height x width`` boards for ``goal`` (cached)."""
    import numpy as np

    check_goal(goal)
    n = height * width
    home = np.array([goal_cell(t, n, goal) for t in range(n)], dtype=np.int64)
    md = np.zeros(n * n, dtype=np.int64)
    for t in range(1, n):
        gr, gc = divmod(int(home[t]), width)
        for cell in range(n):
            md[cell * n + t] = abs(cell // width - gr) + abs(cell % width - gc)
    cells = np.arange(n, dtype=np.uint64)
    return Geometry(height, width, goal, home, md, neighbours(height, width),
                    cells // np.uint64(width), cells % np.uint64(width))


def neighbours(height: int, width: int) -> np.ndarray:
    """``nbr[cell * 4 + d]``: the blank's cell after step ``d`` (see ``STEPS``), or -1."""
    import numpy as np

    nbr = np.full(height * width * 4, -1, dtype=np.int64)
    for cell in range(height * width):
        r, c = divmod(cell, width)
        for d, (dr, dc) in enumerate(STEPS):
            if 0 <= r + dr < height and 0 <= c + dc < width:
                nbr[cell * 4 + d] = (r + dr) * width + c + dc
    return nbr


def tiles_from_directions(board: Board, directions: Iterable[int]) -> tuple[int, ...]:
    """The tiles pushed when the blank takes the steps ``directions`` (numbered as ``STEPS``)."""
    cells = []
    blank = board.blank
    for d in directions:
        dr, dc = STEPS[int(d)]
        blank += dr * board.width + dc
        cells.append(blank)
    return tiles_from_cells(board, cells)


def tiles_from_cells(board: Board, cells: Iterable[int]) -> tuple[int, ...]:
    """The tiles pushed when the blank visits ``cells`` in turn."""
    tiles = list(board.tiles)
    blank = board.blank
    out = []
    for q in cells:
        q = int(q)
        out.append(tiles[q])
        tiles[blank], tiles[q] = tiles[q], 0
        blank = q
    return tuple(out)
