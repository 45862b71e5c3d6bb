"""The one jit decorator every kernel uses: ``cache=True`` unless ``NPUZZLE_NUMBA_CACHE=0``.

No eager signatures: importing a kernel module compiles nothing; the first call compiles (or
loads from numba's cache), and ``npuzzle warmup`` does that ahead of time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba

from ..config import numba_cache


def njit(func: Callable[..., Any] | None = None, *, inline: bool = False) -> Any:
    """``@njit`` for kernels; ``@njit(inline=True)`` for small helpers called from hot loops
    (numba then inlines them in its own IR, which LLVM alone does not always do)."""
    options: dict[str, Any] = {"cache": numba_cache(), "nogil": True}
    if inline:
        options["inline"] = "always"
    if func is None:
        return lambda f: numba.njit(**options)(f)
    return numba.njit(**options)(func)
