"""Every ``NPUZZLE_*`` environment switch and default, read in one place.

``NPUZZLE_NUMBA_CACHE``  ``0`` turns off numba's on-disk cache of compiled kernels (default on).
``NPUZZLE_DATA_DIR``     where tables are stored; else ``$XDG_CACHE_HOME/npuzzle``, else
                         ``~/.cache/npuzzle``.
"""

from __future__ import annotations

import os
from pathlib import Path

#: Nodes a search kernel runs between two returns to Python (for time limits and Ctrl-C).
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
