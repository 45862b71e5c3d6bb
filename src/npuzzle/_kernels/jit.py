"""The one jit decorator every kernel uses: ``cache=True`` unless ``NPUZZLE_NUMBA_CACHE=0``.

No eager signatures: importing a kernel module compiles nothing; the first call compiles (or
loads from numba's cache), and ``npuzzle warmup`` does that ahead of time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba

from ..config import numba_cache


def njit(func: Callable[..., Any]) -> Any:
    return numba.njit(cache=numba_cache(), nogil=True)(func)
