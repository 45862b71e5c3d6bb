"""Linear conflict (Hansson, Mayer & Yung 1992): the Manhattan distance plus two moves for each
tile that is in its goal row (or column) but must leave it to let another tile of that line
pass: in every line, the tiles that belong to it, minus the longest run of them already in goal
order.

The kernels update it move by move from line keys: for every row and column a key
``sum(code(cell) * (L + 1) ** position)`` (code = 1 + the tile's goal position along the line if
the line is its goal line, else 0) indexes a table of that line's conflicts (``LineTables``,
mode ``LC_TABLES``); lines longer than ``MAX_TABLE_LINE`` are recomputed instead (``LC_LINES``).
The kernel helper is ``_kernels.bounds.lc_child``.

>>> from npuzzle import Board
>>> value(Board(2, 3, (2, 1, 3, 4, 5, 0)))    # 1 and 2 swapped in their goal row: 2 + 2
4
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..board import Board, Goal
from ..geometry import Geometry, geometry, homes

if TYPE_CHECKING:
    import numpy as np

    from .._kernels.bounds import Lines


@dataclass(frozen=True)
class LineTables:
    """The kernels' linear-conflict tables for one shape and goal."""

    mode: int  # 0 none, 1 tables, 2 lines recomputed
    rc: np.ndarray  # rc[tile * n + cell]: the tile's code in its row key
    cc: np.ndarray  # cc[tile * n + cell]: the tile's code in its column key
    rtab: np.ndarray  # conflicts of each row key (int8)
    ctab: np.ndarray  # conflicts of each column key

    def kernel_lines(self, height: int, width: int) -> Lines:
        """The kernel's ``Lines``: these tables and fresh row and column keys (one per search)."""
        import numpy as np

        from .._kernels.bounds import Lines

        return Lines(self.rc, self.cc, self.rtab, self.ctab, np.zeros(height, np.uint64), np.zeros(width, np.uint64))


def value(board: Board, goal: Goal = "standard") -> int:
    """Manhattan distance plus twice the number of tiles that must leave their goal line
    (O(cells log side), any size)."""
    import numpy as np

    from .._kernels.bounds import linear_conflict

    tiles = np.fromiter(board.tiles, dtype=np.int64, count=board.size)
    conflicts = linear_conflict(tiles, homes(board.size, goal), board.width, board.height)
    return board.manhattan(goal) + 2 * int(conflicts)


@functools.cache
def line_tables(height: int, width: int, goal: Goal, use_lc: bool = True) -> LineTables:
    """The tables of ``height x width`` boards (placeholders, mode 0, without ``use_lc``)."""
    import numpy as np

    from .._kernels.bounds import MAX_TABLE_LINE

    empty8 = np.zeros(1, np.int8)
    empty = np.zeros(1, np.uint64)
    if not use_lc:
        return LineTables(0, empty, empty, empty8, empty8)
    if max(height, width) > MAX_TABLE_LINE:
        return LineTables(2, empty, empty, empty8, empty8)
    return _keyed(geometry(height, width, goal))


def _keyed(g: Geometry) -> LineTables:
    import numpy as np

    from .._kernels.bounds import line_table

    n, height, width = g.size, g.height, g.width
    rc = np.zeros(n * n, np.uint64)
    cc = np.zeros(n * n, np.uint64)
    for tile in range(1, n):
        gr, gc = divmod(int(g.home[tile]), width)
        for cell in range(n):
            r, c = divmod(cell, width)
            if r == gr:
                rc[tile * n + cell] = (gc + 1) * (width + 1) ** c
            if c == gc:
                cc[tile * n + cell] = (gr + 1) * (height + 1) ** r
    rtab = line_table(width)
    ctab = rtab if height == width else line_table(height)
    return LineTables(1, rc, cc, rtab, ctab)
