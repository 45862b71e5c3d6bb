"""The one jit decorator every kernel uses: ``cache=True`` unless ``NPUZZLE_NUMBA_CACHE=0``.

No eager signatures: importing a kernel module compiles nothing; the first call compiles (or
loads from numba's cache), and ``npuzzle warmup`` does that ahead of time.

Numba keys a cached kernel on its own source file only, yet a kernel compiles in what it calls
from other kernel files (the IDA* and A* kernels share helpers). So kernels here are cached
under a stamp of every file of this package (``kernels_stamp``): changing any kernel file makes
every cached kernel stale, and numba compiles afresh instead of running old code.
"""

from __future__ import annotations

import functools
import hashlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
from numba.core import caching

from ..config import numba_cache

KERNEL_DIR = Path(__file__).resolve().parent


def kernels_stamp(folder: Path = KERNEL_DIR) -> bytes:
    """A digest of every ``.py`` file in ``folder``, in name order (re-read when a file's size
    or modification time changes)."""
    files = sorted(folder.glob("*.py"))
    return _digest(tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in files))


@functools.cache
def _digest(files: tuple[tuple[str, int, int], ...]) -> bytes:
    digest = hashlib.sha256()
    for name, _, _ in files:
        path = Path(name)
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.digest()


class _KernelFiles:
    """Cache locator mixin: for functions defined in this package, the source stamp covers
    every kernel file (see the module docstring); other functions are left to numba."""

    def get_source_stamp(self) -> bytes:
        return kernels_stamp()

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        if Path(py_file).resolve().parent != KERNEL_DIR:
            return None
        return super().from_function(py_func, py_file)  # type: ignore[misc]


class _UserProvidedKernels(_KernelFiles, caching.UserProvidedCacheLocator):
    pass


class _InTreeKernels(_KernelFiles, caching.InTreeCacheLocator):
    pass


class _UserWideKernels(_KernelFiles, caching.UserWideCacheLocator):
    pass


KERNEL_LOCATORS = (_UserProvidedKernels, _InTreeKernels, _UserWideKernels)
if not any(cls in caching.CacheImpl._locator_classes for cls in KERNEL_LOCATORS):
    caching.CacheImpl._locator_classes[:0] = list(KERNEL_LOCATORS)


#: The file name (without ``.py``) of the kernel whose compilation last called an
#: ``on_first_compile`` callback: which family is compiling.
first_compiled = [""]


def on_first_compile(callback: Callable[[], None]) -> Callable[[], None]:
    """Call ``callback()`` once, when numba starts compiling a function (loading a kernel from
    numba's on-disk cache compiles nothing, so a warm cache never calls it); ``first_compiled[0]``
    then names the function's file. Returns the function that stops listening."""
    from numba.core import event

    class _First(event.Listener):  # type: ignore[misc]
        fired = False

        def on_start(self, ev: event.Event) -> None:
            if not self.fired:
                self.fired = True
                first_compiled[0] = Path(ev.data["dispatcher"].py_func.__code__.co_filename).stem
                callback()

        def on_end(self, ev: event.Event) -> None:
            pass

    listener = _First()
    event.register("numba:compile", listener)
    return lambda: event.unregister("numba:compile", listener)


class _CompileTime:
    """Seconds spent compiling (CPU, wall), summed over the outermost ``numba:compile`` events
    (a kernel's callees compile inside its event: counted once)."""

    def __init__(self) -> None:
        from numba.core import event

        class _Listener(event.Listener):  # type: ignore[misc]
            depth = 0
            cpu = 0.0
            wall = 0.0
            _cpu0 = 0.0
            _wall0 = 0.0

            def on_start(self, ev: event.Event) -> None:
                if self.depth == 0:
                    self._cpu0, self._wall0 = time.process_time(), time.monotonic()
                self.depth += 1

            def on_end(self, ev: event.Event) -> None:
                self.depth -= 1
                if self.depth == 0:
                    self.cpu += time.process_time() - self._cpu0
                    self.wall += time.monotonic() - self._wall0

        self.listener = _Listener()
        event.register("numba:compile", self.listener)


@functools.cache
def _compile_time() -> _CompileTime:
    return _CompileTime()


def compile_seconds() -> tuple[float, float]:
    """CPU and wall-clock seconds this process has spent compiling kernels since it first asked
    (a search's ``Clock`` subtracts them: compiling never counts against a time limit or budget)."""
    listener = _compile_time().listener
    return listener.cpu, listener.wall


def njit(func: Callable[..., Any] | None = None, *, inline: bool = False) -> Any:
    """``@njit`` for kernels; ``@njit(inline=True)`` for small helpers called from hot loops
    (numba then inlines them in its own IR, which LLVM alone does not always do)."""
    options: dict[str, Any] = {"cache": numba_cache(), "nogil": True}
    if inline:
        options["inline"] = "always"
    if func is None:
        return lambda f: _unliteral(numba.njit(**options)(f))
    return _unliteral(numba.njit(**options)(func))


def _unliteral(dispatcher: Any) -> Any:
    """``dispatcher``, compiled for the plain types of its arguments when another kernel calls it.

    Numba types a constant argument as a literal (``Literal[int](0)``, ``Literal[bool](True)``)
    and compiles a kernel once per literal value it is called with: ``seg_set`` five times, ``ring_index``
    three times for one real-time solve, each a fraction of a second. Compiling for the plain
    type instead makes one specialisation serve every call."""
    from numba.core import types

    call_template = dispatcher.get_call_template

    def get_call_template(args: Any, kws: Any) -> Any:
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return call_template(args, kws)

    dispatcher.get_call_template = get_call_template
    return dispatcher
