"""The ``NPUZZLE_*`` environment switches, read here and nowhere else.

``NPUZZLE_NUMBA_CACHE``  ``0`` turns off numba's on-disk cache of compiled kernels (default on).
``NPUZZLE_DATA_DIR``     where tables are stored; else ``$XDG_CACHE_HOME/npuzzle``, else
                         ``~/.cache/npuzzle``.

The other tunables are module constants next to the code they govern; this module holds only
``KERNEL_SLICE_NODES``. The rest, by module:

- ``search``: ``AUTO_OPTIMAL_CELLS`` (largest board ``method="auto"`` solves optimally).
- ``search.idastar``: ``MAX_CELLS``; ``AUTO_FSM_CELLS`` (largest board on which
  ``pruning="auto"`` uses the move automaton).
- ``search.astar``: ``MAX_CELLS``, ``SLICE_NODES``, ``MAX_WEIGHT_DENOMINATOR``; the memory
  budget's default is ``default_max_memory()``.
- ``search.bfs``: ``MAX_CELLS``, ``MAX_HAPPY_CELLS``.
- ``search.fsm``: ``MAX_LEN``, ``MAX_LEN_LARGE``, ``LONG_CELLS``, ``CAP``.
- ``search.realtime``: ``BATCH``, ``CHUNK``, ``PY_REPLAY_CELLS``.
- ``heuristics.registry``: ``AUTO_WD_SIDE`` (largest side ``heuristic="auto"`` builds
  walking-distance tables for).
- ``heuristics.pattern_db``: ``MAX_CELLS``, ``HUGE_COPY_BYTES``, ``SHIPPED``.
- ``heuristics.walking_distance``: ``MAX_STATES``.
"""

from __future__ import annotations

import os
from pathlib import Path

#: Nodes IDA*'s kernel runs between two returns to Python (for time limits and Ctrl-C; A* has
#: its own ``search.astar.SLICE_NODES``).
KERNEL_SLICE_NODES = 20_000_000


def numba_cache() -> bool:
    return os.environ.get("NPUZZLE_NUMBA_CACHE", "1").strip().lower() not in ("0", "false", "no", "off")


def data_dir() -> Path:
    explicit = os.environ.get("NPUZZLE_DATA_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "npuzzle"
