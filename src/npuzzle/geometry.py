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

from .board import Board, Goal

if TYPE_CHECKING:
    import numpy as np

#: The blank's steps as the kernels number them.
UP, LEFT, RIGHT, DOWN = 0, 1, 2, 3
#: (row, column) change of the blank's cell for each step.
STEPS: tuple[tuple[int, int], ...] = ((-1, 0), (0, -1), (0, 1), (1, 0))


@dataclass(frozen=True)
class Geometry:
    """The arrays every search and heuristic reads for one board shape and goal (made once by
    ``geometry``; kernels only read them). Everything here is O(cells) except ``md``, a cells x
    cells table made on first use, which only searches of boards small enough for it read."""

    height: int
    width: int
    goal: Goal
    home: np.ndarray  # goal cell of each tile (int64)
    nbr: np.ndarray  # nbr[cell * 4 + d]: the cell the blank reaches by step d, or -1
    row_of: np.ndarray  # row of each cell (uint64: kernels index with it)
    col_of: np.ndarray  # column of each cell (uint64)

    @property
    def size(self) -> int:
        return self.height * self.width

    @functools.cached_property
    def md(self) -> np.ndarray:
        """``md[cell * n + tile]``: Manhattan distance of ``tile`` at ``cell`` (0 for the blank);
        cells x cells entries, so made only when a search asks for it."""
        import numpy as np

        n, w = self.size, self.width
        if n > MAX_MD_TABLE_CELLS:
            raise ValueError(f"a {self.height}x{self.width} board is too large for a table of Manhattan distances")
        cells = np.arange(n, dtype=np.int64)
        dist = (np.abs((cells // w)[:, None] - (self.home // w)[None, :])
                + np.abs((cells % w)[:, None] - (self.home % w)[None, :]))
        dist[:, 0] = 0
        return np.ascontiguousarray(dist.reshape(-1))


#: Largest board whose cells x cells Manhattan table ``Geometry.md`` is made (64x64: 128 MiB).
MAX_MD_TABLE_CELLS = 4096


@functools.cache
def geometry(height: int, width: int, goal: Goal = "standard") -> Geometry:
    """The ``Geometry`` of ``height x width`` boards for ``goal`` (cached); O(cells)."""
    import numpy as np

    n = height * width
    cells = np.arange(n, dtype=np.uint64)
    return Geometry(height, width, goal, homes(n, goal), neighbours(height, width),
                    cells // np.uint64(width), cells % np.uint64(width))


def homes(size: int, goal: Goal = "standard") -> np.ndarray:
    """The goal cell of each tile 0..size-1 (int64): ``board.goal_cell`` for every tile at once.

    >>> homes(4).tolist(), homes(4, "blank-first").tolist()
    ([3, 0, 1, 2], [0, 1, 2, 3])
    """
    import numpy as np

    if goal == "blank-first":  # a goal already checked (``board.check_goal``) by whoever asked
        return np.arange(size, dtype=np.int64)
    home = np.arange(-1, size - 1, dtype=np.int64)
    home[0] = size - 1
    return home


def neighbours(height: int, width: int) -> np.ndarray:
    """``nbr[cell * 4 + d]``: the blank's cell after step ``d`` (see ``STEPS``), or -1."""
    import numpy as np

    cells = np.arange(height * width, dtype=np.int64)
    r, c = cells // width, cells % width
    nbr = np.full((height * width, 4), -1, dtype=np.int64)
    for d, (dr, dc) in enumerate(STEPS):
        inside = (r + dr >= 0) & (r + dr < height) & (c + dc >= 0) & (c + dc < width)
        nbr[inside, d] = cells[inside] + dr * width + dc
    return nbr.reshape(-1)


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
