"""Move-cost models: what pushing tile ``t`` costs.

The models of the heuristic-search literature on sliding tiles (Thayer & Ruml's explicit
estimation search papers, Wilt & Ruml's studies of cost, Nathan Sturtevant's hog2 and the UNH
search code): ``unit`` 1 (the usual puzzle: the cost is the number of moves); ``heavy`` ``t``
(moving a tile costs its number); ``inverse`` ``1/t``; ``sqrt`` ``sqrt(t)``.

The searches add costs as whole numbers (``scaled``): ``unit`` and ``heavy`` are integers;
``inverse`` is exact when multiplied by ``lcm(1..n-1)`` (360,360 on a 4x4 board; it fits int64
up to 25 cells, so larger boards refuse it); ``sqrt`` is held in fixed point, ``round(sqrt(t) *
10**6)``, so a search is optimal for the rounded costs and its answer's true cost is within
``moves x 5e-7`` of the optimum's (documented in ``docs/costs.md``). The cost of an answer
(``total``) is computed here again from its tiles, independently of any search.

>>> tile_costs("heavy", 6).tolist()
[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
>>> scaled("inverse", 4)
([0, 6, 3, 2], 6)
>>> total((3, 1, 2), "sqrt")
4.146264369941973
>>> check_cost("cheap")
Traceback (most recent call last):
    ...
npuzzle.errors.InvalidOptionError: unknown cost model 'cheap': use one of unit, heavy, inverse, sqrt
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

from .errors import InvalidOptionError, quote_input

if TYPE_CHECKING:
    import numpy as np

#: The cost models, the default first.
COSTS: tuple[str, ...] = ("unit", "heavy", "inverse", "sqrt")
#: What each costs, for help texts.
DEFINITIONS: dict[str, str] = {
    "unit": "every move costs 1 (the number of moves)",
    "heavy": "moving tile t costs t",
    "inverse": "moving tile t costs 1/t",
    "sqrt": "moving tile t costs sqrt(t)",
}
#: ``sqrt`` costs are whole multiples of ``1 / SQRT_SCALE`` in the searches (fixed point).
SQRT_SCALE = 10**6
#: ``inverse`` is exact on boards of up to this many cells (lcm(1..24) fits int64 with room for
#: the sum of a long path); larger boards refuse it.
INVERSE_CELLS = 25


def check_cost(name: str) -> str:
    """``name`` if it is a cost model, else ``InvalidOptionError`` naming them."""
    if name not in COSTS:
        raise InvalidOptionError(f"unknown cost model {quote_input(name)}: use one of {', '.join(COSTS)}")
    return name


def check_cells(name: str, cells: int) -> None:
    """``InvalidOptionError`` if the model cannot be searched exactly on a board of ``cells`` cells."""
    if name == "inverse" and cells > INVERSE_CELLS:
        raise InvalidOptionError(f"cost='inverse' takes boards of at most {INVERSE_CELLS} cells (its exact "
                                 f"whole-number scale, lcm(1..n-1), would overflow); a board of {cells} cells "
                                 "needs another cost model")


def cost(name: str, tile: int) -> float:
    """The cost of pushing ``tile`` under the model ``name`` (a float, as a user reads it)."""
    if name == "heavy":
        return float(tile)
    if name == "inverse":
        return 1.0 / tile
    if name == "sqrt":
        return math.sqrt(tile)
    return 1.0


def tile_costs(name: str, cells: int) -> np.ndarray:
    """The cost of each tile as float64, index = tile number (the blank's entry, 0, unused and 0):
    the per-tile cost array of the searches that take float costs."""
    import numpy as np

    check_cost(name)
    return np.array([0.0] + [cost(name, t) for t in range(1, cells)], dtype=np.float64)


def scaled(name: str, cells: int) -> tuple[list[int], int]:
    """The whole-number cost of each tile (index = tile, blank 0) and the scale: a path's true cost
    is its scaled cost divided by the scale (exactly, except ``sqrt``: rounded, see above)."""
    check_cost(name)
    check_cells(name, cells)
    if name == "heavy":
        return [0, *range(1, cells)], 1
    if name == "inverse":
        lcm = math.lcm(*range(1, cells)) if cells > 1 else 1
        return [0, *(lcm // t for t in range(1, cells))], lcm
    if name == "sqrt":
        return [0, *(round(math.sqrt(t) * SQRT_SCALE) for t in range(1, cells))], SQRT_SCALE
    return [0] + [1] * (cells - 1), 1


def total(tiles: Iterable[int], name: str) -> float:
    """The cost of pushing ``tiles`` in turn under the model ``name``, computed from the tiles alone
    (``inverse`` summed exactly as fractions, ``sqrt`` in floating point)."""
    tiles = list(tiles)
    if name == "inverse":
        from fractions import Fraction

        return float(sum((Fraction(1, t) for t in tiles), Fraction(0)))
    return math.fsum(cost(name, t) for t in tiles)


__all__ = ["COSTS", "DEFINITIONS", "check_cost", "check_cells", "cost", "tile_costs", "scaled", "total"]
