"""Cost-aware additive pattern databases: the bound of the searches under a move-cost
model (``npuzzle.costs``) when the cost-weighted Manhattan distance is too weak.

A partition of the tiles (``pattern_db.groups_for``: ``5-5-5``, ``4-4``, ...) gives one table a
pattern: the least cost of taking the pattern's tiles home when a move of one of them costs its
(whole-number) cost and a move of any other tile is free. Summed over disjoint patterns it stays a
lower bound of the true cost, since every move is counted by the pattern of the tile it moves only
(Felner, Korf & Hanan 2004's additive databases, with costs in place of moves). Each table is made
by a uniform-cost search over the pattern's tiles and the blank (``_kernels/cost_pdb.py``), so
patterns are limited to ``cells**(k+1) <= MAX_STATES`` (5 tiles on a 4x4 board); all tables of a
partition, model and goal are one ``cpdb`` file of the table store, made the first time a search
needs it (about a minute for 5-5-5 on a 4x4 board).

>>> key = table_key("4-4", 3, 3, "standard", "heavy")
>>> key.filename
'cpdb_3x3_standard_heavy.1.2.3.4-5.6.7.8_v1.npt'
>>> check_partition("5-5-5", 4, 4, "blank-first")[0]
(1, 2, 3, 6, 7)
>>> check_partition("6-6-3", 4, 4, "standard")  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
npuzzle.errors.InvalidOptionError: pdb:6-6-3 under a cost model: a pattern of 6 tiles is too large ...
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import tables as store
from ..board import Goal, goal_tiles
from ..errors import InvalidOptionError, TableFormatError
from .pattern_db import SHIPPED, groups_for, pattern_field

if TYPE_CHECKING:
    import numpy as np

KIND = "cpdb"
#: The largest abstract state space of one pattern (its tiles' cells and the blank's).
MAX_STATES = 1 << 25


def check_partition(name: str, height: int, width: int, goal: Goal) -> tuple[tuple[int, ...], ...]:
    """The partition's patterns, if each is small enough for a cost-aware table."""
    n = height * width
    groups = groups_for(name, height, width, goal)
    for g in groups:
        if n ** (len(g) + 1) > MAX_STATES:
            most = max(k for k in range(1, n) if n ** (k + 1) <= MAX_STATES)
            hint = "; use e.g. pdb:5-5-5" if (height, width) == (4, 4) else ""
            raise InvalidOptionError(
                f"pdb:{name} under a cost model: a pattern of {len(g)} tiles is too large for a cost-aware "
                f"table (at most {most} tiles on a {height}x{width} board){hint}")
    return groups


def table_key(name: str, height: int, width: int, goal: Goal, cost: str) -> store.TableKey:
    return store.TableKey(KIND, height, width, goal, f"{cost}.{pattern_field(groups_for(name, height, width, goal))}")


def auto_partition(height: int, width: int, goal: Goal, cost: str) -> str | None:
    """A partition whose cost-aware table is saved for this shape, goal and model (``auto``'s choice)."""
    for name in SHIPPED.get((height, width), ()):
        try:
            check_partition(name, height, width, goal)
        except InvalidOptionError:
            continue
        if store.has_table(table_key(name, height, width, goal, cost)):
            return name
    return None


def tables(name: str, height: int, width: int, goal: Goal, cost: str) -> tuple[np.ndarray, list[int]]:
    """Every pattern's table, one after another, and where each begins: loaded from the store, or
    made now and saved."""
    import numpy as np

    key = table_key(name, height, width, goal, cost)
    if store.has_table(key):
        table = store.load_table(key)
        return np.asarray(table.data), [int(x) for x in table.meta["offsets"]]
    data, offsets = build(name, height, width, goal, cost)
    store.save_table(key, data, {"offsets": offsets, "cost": cost})
    return data, offsets


def build(name: str, height: int, width: int, goal: Goal, cost: str) -> tuple[np.ndarray, list[int]]:
    """The tables of the partition ``name`` under ``cost`` (whole-number costs, ``costs.scaled``)."""
    import numpy as np

    from .._kernels.cost_pdb import build_pattern
    from ..costs import scaled
    from ..geometry import neighbours

    n = height * width
    whole, _ = scaled(cost, n)
    home = {t: c for c, t in enumerate(goal_tiles(n, goal))}
    parts, offsets, at = [], [], 0
    for g in check_partition(name, height, width, goal):
        table = np.zeros(n ** len(g), np.int64)
        dist = np.zeros(n ** (len(g) + 1), np.int64)
        build_pattern(np.array([home[t] for t in g], np.int64), np.array([whole[t] for t in g], np.int64),
                      neighbours(height, width), n, dist, table)
        parts.append(table)
        offsets.append(at)
        at += table.shape[0]
    return np.concatenate(parts), offsets


def _check(table: store.Table) -> None:
    """A loaded ``cpdb`` table: offsets inside it, no negative entry."""
    offsets = table.meta.get("offsets")
    if not isinstance(offsets, list) or any(not isinstance(x, int) or not 0 <= x < table.data.size for x in offsets):
        raise TableFormatError(f"table file {table.path}: bad pattern offsets")
    if table.data.size and int(table.data.min()) < 0:
        raise TableFormatError(f"table file {table.path}: a negative cost")


store.register_check(KIND, _check)

__all__ = ["KIND", "MAX_STATES", "check_partition", "table_key", "auto_partition", "tables", "build"]
