"""The ``NPUZZLE_*`` environment switches, read here and nowhere else.

``NPUZZLE_NUMBA_CACHE``  ``0`` turns off numba's on-disk cache of compiled kernels (default on).
``NPUZZLE_DATA_DIR``     where tables are stored; else ``$XDG_CACHE_HOME/npuzzle``, else
                         ``~/.cache/npuzzle``.
``NPUZZLE_STAMP_KEY``    the file of the secret key that signs the table store's verification
                         stamps; else ``$XDG_CONFIG_HOME/npuzzle/stamp.key``, else
                         ``~/.config/npuzzle/stamp.key`` (made on first use, readable by its owner
                         only; it must lie outside the table store).
``NPUZZLE_STATUS_AFTER`` seconds a search runs before its live status line shows on a terminal
                         (default 1; the tests set 0).

The other tunables are module constants next to the code they govern; this module holds only
``KERNEL_SLICE_NODES``, ``PROGRESS_SLICE_NODES`` and ``STATUS_AFTER_SECONDS``. The rest, by module:

- ``search``: ``AUTO_OPTIMAL_CELLS`` (largest board ``method="auto"`` solves optimally).
- ``search.registry``: each method's largest board (``Method.max_cells``); ``AUTO_FSM_CELLS``
  (largest board on which ``pruning="auto"`` uses the move automaton).
- ``search.astar``: ``MAX_CELLS``, ``SLICE_NODES`` (``arguments``: ``MAX_WEIGHT_DENOMINATOR``); the memory
  budget's default is ``default_max_memory()``.
- ``search.bfs``: ``MAX_CELLS``, ``MAX_HAPPY_CELLS``.
- ``search.fsm``: ``MAX_LEN``, ``MAX_LEN_LARGE``, ``LONG_CELLS``, ``CAP``.
- ``search.realtime``: ``BATCH``, ``CHUNK``, ``PY_REPLAY_CELLS``.
- ``heuristics.registry``: ``AUTO_WD_SIDE`` (largest side ``heuristic="auto"`` builds
  walking-distance tables for).
- ``heuristics.pattern_db``: ``MAX_CELLS``, ``HUGE_COPY_BYTES``, ``SHIPPED``.
- ``heuristics.walking_distance``: ``MAX_STATES``.
- ``tables``: ``HUGE_PAGE_BYTES`` (loaded tables from this size on get 2 MB pages),
  ``STAMP_AFTER`` (see its docstring on verification stamps).

>>> import os
>>> from npuzzle import config
>>> saved = dict(os.environ)
>>> os.environ.update(NPUZZLE_DATA_DIR="/srv/npuzzle-tables", NPUZZLE_NUMBA_CACHE="off")
>>> str(config.data_dir()), config.numba_cache()
('/srv/npuzzle-tables', False)
>>> os.environ.clear(); os.environ.update(saved)
"""

from __future__ import annotations

import os
from pathlib import Path

#: Nodes IDA*'s kernel runs between two returns to Python (for time limits and Ctrl-C; A* has
#: its own ``search.astar.SLICE_NODES``).
KERNEL_SLICE_NODES = 20_000_000
#: The same when a caller follows the search's progress (a live status line).
PROGRESS_SLICE_NODES = 2_000_000
#: Seconds a search runs before the command line shows its live status line on a terminal.
STATUS_AFTER_SECONDS = 1.0


def status_after() -> float:
    """``NPUZZLE_STATUS_AFTER`` (seconds; for tests), else ``STATUS_AFTER_SECONDS``."""
    try:
        return max(0.0, float(os.environ.get("NPUZZLE_STATUS_AFTER", STATUS_AFTER_SECONDS)))
    except ValueError:
        return STATUS_AFTER_SECONDS


def numba_cache() -> bool:
    return os.environ.get("NPUZZLE_NUMBA_CACHE", "1").strip().lower() not in ("0", "false", "no", "off")


def data_dir() -> Path:
    return _path("NPUZZLE_DATA_DIR", "XDG_CACHE_HOME", ".cache", "npuzzle")


def stamp_key_path() -> Path:
    """``NPUZZLE_STAMP_KEY``, else the key file under ``$XDG_CONFIG_HOME`` or ``~/.config``."""
    return _path("NPUZZLE_STAMP_KEY", "XDG_CONFIG_HOME", ".config", "npuzzle/stamp.key")


def _path(explicit: str, xdg: str, home: str, under: str) -> Path:
    """The path in ``$explicit``, else ``under`` in ``$xdg``, else in ``~/home``."""
    given = os.environ.get(explicit)
    if given:
        return Path(given).expanduser()
    base = os.environ.get(xdg)
    return (Path(base).expanduser() if base else Path.home() / home) / under
