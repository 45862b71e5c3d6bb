"""How long builds (pattern databases, BFS tables, samples) report their progress, without
drawing anything themselves: a front end installs a meter factory for a block of work
(``reporting``), and each build inside it asks ``progress`` for its meter. The command line
installs its progress bar (``cli._output.ProgressBar``, drawn only on a terminal, its text from
``present.tables.progress_bar_text``); elsewhere builds report to nothing.

>>> seen = []
>>> class Counting:
...     def __init__(self, total, label): seen.append((label, total))
...     def advance(self, n=1): seen.append(n)
...     def note(self, text): seen.append(text)
...     def close(self): seen.append("closed")
>>> with reporting(Counting), progress(10, "bfs 3x3") as meter:
...     meter.advance(4); meter.note("distance 7")
>>> seen
[('bfs 3x3', 10), 4, 'distance 7', 'closed']
>>> with progress(10, "bfs 3x3") as meter:  # no front end asked: nothing reported
...     meter.advance(4)
>>> len(seen)
4
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol


class Meter(Protocol):
    """What a build reports to: ``advance(n)`` units of work done, ``note(text)`` (what it is
    doing now), and ``close()`` at its end."""

    def advance(self, n: int = 1) -> None: ...

    def note(self, text: str) -> None: ...

    def close(self) -> None: ...


#: Makes the meter of one build from its total work and its label.
MeterFactory = Callable[[int, str], Meter]

_factory: contextvars.ContextVar[MeterFactory | None] = contextvars.ContextVar("npuzzle_meters", default=None)


class _Silent:
    """The meter of a build nobody watches."""

    def advance(self, n: int = 1) -> None:
        pass

    def note(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


@contextmanager
def reporting(factory: MeterFactory | None) -> Iterator[None]:
    """Builds inside the block report to meters made by ``factory`` (None: to nothing)."""
    token = _factory.set(factory)
    try:
        yield
    finally:
        _factory.reset(token)


@contextmanager
def progress(total: int, label: str, enabled: bool = True) -> Iterator[Meter]:
    """``with progress(total, "building") as meter: ... meter.advance(n)``: the meter of the
    factory installed by ``reporting`` (if ``enabled`` and one is), else one that reports nothing;
    closed at the end of the block."""
    factory = _factory.get() if enabled else None
    meter: Meter = factory(total, label) if factory is not None else _Silent()
    try:
        yield meter
    finally:
        meter.close()
