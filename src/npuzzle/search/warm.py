"""Compiling the kernels ahead of use (``npuzzle warmup``), and what a first use costs.

Numba compiles a kernel on its first call and keeps it in its on-disk cache (``_kernels.jit``);
a later process loads it in a fraction of a second. ``warmup`` calls every kernel a user can
reach, family by family, on boards so small that the searches themselves take no time: IDA*
with every lower-bound family (``manhattan``, ``lc`` on small and large boards, ``wd``, ``id``,
``wd+id``, ``pdb``, and the ``pdb+wd`` that ``auto`` picks once tables are built) and both
prunings, its split kernels (``--jobs``), A* and weighted A* with each family, A*+IDA*, the
beam search, both real-time methods, and the BFS tables. The pattern databases and automata it
needs are made in a scratch store (a temporary folder), never in the user's. Left out: the
blank-aware tables of the 5x5 (``pdb:6-6-6-6``, a 2-minute build) and bounds joined otherwise
than ``auto`` joins them (``pdb:...+id``, ``wd+id+pdb:...``): their IDA* kernels compile on first use.

``COMPILE_SECONDS`` are the CPU seconds a family's first use spends compiling with an empty numba
cache (``bench/compile_times.py``; docs/benchmarks.md, "Compilation"): what the notice on first
use announces.

>>> from npuzzle import config
>>> from npuzzle.search.warm import COMPILE_SECONDS, FAMILIES, scratch_store
>>> [family for family, _, _ in FAMILIES]
['IDA*', 'IDA* split', 'A*', 'focal', 'beam', 'real time', 'BFS']
>>> COMPILE_SECONDS["idastar"]  # the family's name in the notice, its first compilation's CPU seconds
('IDA*', 3.0)
>>> with scratch_store():  # where warmup's tables go
...     config.data_dir().name.startswith("npuzzle-warmup-")
True
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..board import Board

#: Method name -> (what the notice calls it, CPU seconds its first use spends compiling), measured
#: by ``bench/compile_times.py`` (2-core shared VM, 2026-11-26; IDA* with its move automaton's
#: kernel, which a fresh table store needs too).
COMPILE_SECONDS: dict[str, tuple[str, float]] = {
    "idastar": ("IDA*", 3.0),
    "astar": ("A*", 9.0),
    "astar+idastar": ("A*+IDA*", 11.0),
    "focal": ("focal search", 14.0),  # the kernel of both focal search and DPS (bench/compile_times.py
    "dps": ("DPS", 14.0),  # --only focal, 2026-11-26 05:11 UTC, load 12: cold 14.9 s, warm 0.9 s)
    "beam": ("beam search", 7.0),  # a whole board; reduced line by line, real time's too
    "realtime": ("real-time", 9.0),
    "bfs": ("BFS", 1.0),
}

#: Boards of the warm-up: one move from the goal where a search runs, so it ends at once.
_SMALL = Board(2, 2, (1, 2, 0, 3))
_THREE = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))  # 31 moves: deep enough to split into subtrees


@contextmanager
def scratch_store() -> Iterator[None]:
    """Tables built inside the block go to a temporary folder, removed afterwards (the user's
    store is left as it is)."""
    before = os.environ.get("NPUZZLE_DATA_DIR")
    with tempfile.TemporaryDirectory(prefix="npuzzle-warmup-") as folder:
        os.environ["NPUZZLE_DATA_DIR"] = folder
        try:
            yield
        finally:
            if before is None:
                del os.environ["NPUZZLE_DATA_DIR"]
            else:
                os.environ["NPUZZLE_DATA_DIR"] = before


def _idastar() -> None:
    from ..heuristics.pattern_db import build
    from ..heuristics.registry import parse
    from .idastar import _warm

    for heuristic in ("manhattan", "lc", "wd", "id", "wd+id"):
        for pruning in ("parent", "fsm"):
            _warm(parse(heuristic), 2, 2, "standard", pruning)
    from .._kernels.bounds import MAX_TABLE_LINE

    _warm(parse("lc"), 2, MAX_TABLE_LINE + 1, "standard", "parent")  # lines too long for tables: lc by lines
    build("4-4", 3, 3, progress=False)
    for pruning in ("parent", "fsm"):
        _warm(parse("pdb:4-4"), 3, 3, "standard", pruning)
    _warm(parse("pdb:4-4+wd"), 3, 3, "standard", "fsm")  # what heuristic="auto" picks once tables are built


def _split() -> None:
    from .split import Inline, split_idastar

    for heuristic in ("manhattan", "lc", "wd+id", "pdb:4-4+wd"):
        split_idastar(_THREE, Inline(), heuristic=heuristic)


def _astar() -> None:
    from ..heuristics.pattern_db import build
    from .astar import astar
    from .hybrid import astar_idastar

    for heuristic in ("manhattan", "lc", "wd", "id", "wd+id"):
        astar(_SMALL, heuristic=heuristic)
    astar(_THREE, heuristic="lc", weight=1.5)
    build("4-4", 3, 3, progress=False)
    astar(_THREE, heuristic="pdb:4-4")
    for heuristic in ("lc", "wd+id"):
        astar_idastar(_THREE, heuristic=heuristic, top_nodes=100)


def _focal() -> None:
    from .focal import focal

    for heuristic in ("manhattan", "lc", "wd", "id", "wd+id"):
        focal(_SMALL, heuristic=heuristic, weight=2)
    focal(_THREE, heuristic="lc", weight=1.5)
    focal(_THREE, heuristic="lc", weight=1.5, method="dps")
    focal(_THREE, heuristic="pdb:4-4", weight=2)  # built by the A* family before


def _beam() -> None:
    from .beam import warmup

    warmup()


def _realtime() -> None:
    from .realtime import realtime_solve
    from .registry import REALTIME_METHODS

    for method in REALTIME_METHODS:
        realtime_solve(Board(3, 3, (8, 7, 6, 5, 4, 3, 2, 1, 0)), method=method)


def _bfs() -> None:
    from .bfs import distribution, happy_count

    distribution(2, 3)
    happy_count(False, height=2, width=2)


#: (family, what it covers, the function that compiles it), in the order ``warmup`` runs them.
FAMILIES: tuple[tuple[str, str, Callable[[], None]], ...] = (
    ("IDA*", "manhattan, lc, wd, id, wd+id, pdb, pdb+wd; parent and fsm pruning", _idastar),
    ("IDA* split", "--jobs: manhattan, lc, wd+id, pdb+wd", _split),
    ("A*", "every bound, weighted, A*+IDA*", _astar),
    ("focal", "focal search and DPS, every bound", _focal),
    ("beam", "", _beam),
    ("real time", "greedy and parberry", _realtime),
    ("BFS", "distance tables, happy moves", _bfs),
)


def warmup(on_family: Callable[[str, str], None] | None = None,
           on_done: Callable[[str, float], None] | None = None) -> None:
    """Compile (or load from numba's cache) every kernel a user can reach, family by family:
    ``on_family(family, what)`` before each, ``on_done(family, cpu_seconds)`` after it. The
    tables this needs (a 3x3 pattern database, small automata) are made in a scratch store."""
    with scratch_store():
        for family, what, run in FAMILIES:
            if on_family is not None:
                on_family(family, what)
            start = time.process_time()
            run()
            if on_done is not None:
                on_done(family, time.process_time() - start)
