"""Additive disjoint pattern databases (Korf & Felner): exact costs of sub-problems, summed.

Partition the tiles into patterns. For each pattern, a table gives, for every placement of its
tiles, the fewest moves *of its own tiles* that bring them home, the other tiles moving for free
(see ``_kernels.pdb``). A move moves one tile, which belongs to one pattern, so the values of
disjoint patterns add up to a lower bound. Tables are indexed by the perfect ranking of the
placement (one byte per placement: 16!/8! = 518,918,400 bytes for 8 tiles of the 15-puzzle).

Partitions by name: ``"a-b-c"`` gives patterns of a, b, c tiles taken in goal order; on the 4x4
board ``6-6-3`` and ``5-5-5`` are blocks of the board (as in Korf & Felner's paper), ``7-8`` the
top and bottom halves. All patterns of a partition are stored in one file of the table store
(kind ``pdb``, the pattern field listing every pattern's tiles), built by
``npuzzle tables build pdb:NAME`` and memory-mapped when loaded.
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import tables as store
from ..board import Board, Goal, check_goal, check_shape, goal_cell
from ..errors import InvalidBoardError, MissingTableError, NPuzzleError

KIND = "pdb"
#: Arrays from this size on are put in huge pages: tables when loaded, the build's arrays.
HUGE_COPY_BYTES = 64 << 20
#: Largest board for pattern databases (ranks and masks are 64-bit).
MAX_CELLS = 32

# Korf & Felner's blocks of the 15-puzzle, as cells of the blank-first goal (tile x at cell x).
_BLOCKS_4X4 = {
    "6-6-3": ((1, 2, 3), (4, 5, 8, 9, 12, 13), (6, 7, 10, 11, 14, 15)),
    "5-5-5": ((1, 2, 3, 6, 7), (4, 5, 8, 9, 12), (10, 11, 13, 14, 15)),
}
#: Partitions offered by ``npuzzle tables list`` hints and ``auto``, strongest first.
SHIPPED = {(4, 4): ("7-8", "6-6-3", "5-5-5"), (3, 3): ("4-4",), (2, 4): ("4-3",), (4, 2): ("4-3",),
           (3, 4): ("6-5",), (4, 3): ("6-5",), (2, 3): ("3-2",), (3, 2): ("3-2",)}


#: The partitions advised after a slow search, cheapest first, with a rough build time (one core).
ADVISED: dict[tuple[int, int], tuple[tuple[str, str], ...]] = {
    (4, 4): (("6-6-3", "about 5 s"), ("7-8", "a few minutes")),
}


@dataclass(frozen=True)
class Advice:
    """A partition that would make searches faster: its name, whether it is built already, a
    rough build time, its size on disk and the memory its build needs (bytes)."""

    name: str
    built: bool
    build_time: str
    disk_bytes: int
    build_memory: int


def advised(height: int, width: int, goal: Goal, heuristic: str) -> list[Advice]:
    """The partitions of ``ADVISED`` stronger than the one ``heuristic`` uses (if any), cheapest
    first.

    >>> [a.name for a in advised(4, 4, "standard", "pdb:6-6-3+wd")]
    ['7-8']
    >>> advised(3, 3, "standard", "lc")
    []
    """
    shipped = SHIPPED.get((height, width), ())
    used = heuristic.split("+")[0].removeprefix("pdb:") if heuristic.startswith("pdb:") else None
    rank = shipped.index(used) if used in shipped else len(shipped)
    n = height * width
    out = []
    for name, when in ADVISED.get((height, width), ()):
        if name in shipped and shipped.index(name) < rank:
            groups = groups_for(name, height, width, goal)
            out.append(Advice(name, name in built(height, width, goal), when,
                              sum(placements(n, len(g)) for g in groups), build_bytes(groups, n)))
    return out


def groups_for(name: str, height: int, width: int, goal: Goal = "standard") -> tuple[tuple[int, ...], ...]:
    """The patterns (tile tuples) of partition ``name`` on a ``height x width`` board.

    >>> groups_for("4-4", 3, 3)
    ((1, 2, 3, 4), (5, 6, 7, 8))
    """
    n = height * width
    if (height, width) == (4, 4) and name in _BLOCKS_4X4:
        blocks = _BLOCKS_4X4[name]
        if goal == "standard":  # the 180-degree turn that maps one goal onto the other
            return tuple(tuple(sorted(n - x for x in b)) for b in blocks)
        return blocks
    try:
        sizes = [int(part) for part in name.split("-")]
    except ValueError:
        raise InvalidBoardError(f"bad partition {name!r}: write pattern sizes joined by '-', e.g. 6-6-3") from None
    if sum(sizes) != n - 1 or min(sizes) < 1:
        raise InvalidBoardError(
            f"partition {name!r} has {sum(sizes)} tiles in patterns; a {height}x{width} board has {n - 1}")
    out, first = [], 1
    for size in sizes:
        out.append(tuple(range(first, first + size)))
        first += size
    return tuple(out)


def partition_name(text: str) -> str:
    """The partition named by a table name, with or without the heuristic's ``pdb:`` prefix.

    >>> partition_name("pdb:7-8"), partition_name("6-6-3")
    ('7-8', '6-6-3')
    """
    return text.removeprefix("pdb:")


def pattern_field(groups: tuple[tuple[int, ...], ...]) -> str:
    """The table store's pattern field: tiles joined by '.', patterns by '-'.

    >>> pattern_field(((1, 2, 3), (4, 5)))
    '1.2.3-4.5'
    """
    return "-".join(".".join(str(t) for t in g) for g in groups)


def placements(n: int, k: int) -> int:
    return math.perm(n, k)


def rank(cells: list[int], n: int) -> int:
    """Perfect rank of pattern tiles at ``cells`` (in pattern order) on an n-cell board.

    >>> [rank(c, 3) for c in ([0, 1], [0, 2], [1, 0], [1, 2], [2, 0], [2, 1])]
    [0, 1, 2, 3, 4, 5]
    """
    r = 0
    for i, c in enumerate(cells):
        r = r * (n - i) + c - sum(1 for e in cells[:i] if e < c)
    return r


@dataclass(frozen=True)
class Partition:
    """A loaded partition: the kernels' arrays (see ``_kernels.bounds``) over one table."""

    name: str
    groups: tuple[tuple[int, ...], ...]
    data: np.ndarray  # uint8, every pattern's table one after another
    tiles: np.ndarray  # tiles[p, i]: the i-th tile of pattern p (int64, padded)
    sizes: np.ndarray  # int64
    offsets: np.ndarray  # int64: where pattern p's table starts in data
    pattern_of: np.ndarray  # int64: pattern of each tile (-1 for the blank)


def table_key(name: str, height: int, width: int, goal: Goal) -> store.TableKey:
    return store.TableKey(KIND, height, width, goal, pattern_field(groups_for(name, height, width, goal)))


def build_command(name: str, height: int, width: int, goal: Goal) -> str:
    return f"npuzzle tables build pdb:{name} --shape {height}x{width} --goal {goal}"


def _check(height: int, width: int, goal: Goal) -> None:
    check_goal(goal)
    check_shape(height, width)
    if height * width > MAX_CELLS:
        raise InvalidBoardError(f"pattern databases handle boards of at most {MAX_CELLS} cells, "
                                f"not {height}x{width}")


def code_dtype(n: int) -> type[np.unsignedinteger]:
    """The build's word per placement: two bits for each of the n cells (see ``_kernels.pdb``)."""
    return np.uint32 if n <= 16 else np.uint64


def build_bytes(groups: tuple[tuple[int, ...], ...], n: int) -> int:
    """Peak memory of a build: every table plus the largest search's word per placement."""
    tables = sum(placements(n, len(g)) for g in groups)
    return tables + max(placements(n, len(g)) for g in groups) * np.dtype(code_dtype(n)).itemsize


def available_memory() -> int | None:
    """MemAvailable from /proc/meminfo, in bytes (None where there is no such file)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def build(name: str, height: int, width: int, goal: Goal = "standard", *, progress: bool = True) -> Path:
    """Build partition ``name`` for ``height x width`` and ``goal`` and save it; return its path.

    Refuses (``NPuzzleError``) to start when the build needs more memory than is available."""
    from .._kernels import pdb as kernel
    _check(height, width, goal)
    groups = groups_for(name, height, width, goal)
    n = height * width
    need = build_bytes(groups, n)
    free = available_memory()
    if free is not None and need > free:
        raise NPuzzleError(f"building pdb:{name} for {height}x{width} needs about {need / 2**30:.1f} GiB "
                           f"of memory; only {free / 2**30:.1f} GiB is available")
    sizes = [placements(n, len(g)) for g in groups]
    data = _zeros(sum(sizes), np.uint8)
    start = time.process_time()
    levels = []
    offset = 0
    with store.progress(sum(sizes), f"pdb:{name} {height}x{width}", progress) as bar:
        for g, size in zip(groups, sizes, strict=True):
            k = len(g)
            dist = data[offset : offset + size]
            dist[:] = kernel.UNSEEN
            codes = _zeros(size, code_dtype(n))
            codes[:] = 0  # take the page faults now, in order: cheaper than at random later
            hi_cells, hi_free, lo_pos, mult = kernel.unrank_tables(n, k)
            buf = np.empty(kernel.BATCH + 4 * k, dtype=np.int64)
            kernel.start(codes, rank([goal_cell(t, n, goal) for t in g], n), goal_cell(0, n, goal))
            d, cur, top = 0, 1, 0
            while True:
                bar.note(f"pattern {'.'.join(map(str, g))}: level {d}")
                states, found = kernel.level(codes, dist, n, width, d, cur, hi_cells, hi_free, lo_pos, mult, buf)
                bar.advance(found)
                if found:
                    top = d
                if states == 0:
                    break
                d, cur = d + 1, 3 - cur
            del codes
            levels.append(top)
            offset += size
    meta = {"name": name, "patterns": [list(g) for g in groups], "sizes": sizes, "max_values": levels,
            "build_cpu_seconds": round(time.process_time() - start, 2)}
    return store.save_table(table_key(name, height, width, goal), data, meta)


def load_partition(name: str, height: int, width: int, goal: Goal = "standard") -> Partition:
    """The stored partition, memory-mapped; ``MissingTableError`` naming the build command."""
    _check(height, width, goal)
    return _load(name, height, width, goal)


@functools.cache
def _load(name: str, height: int, width: int, goal: Goal) -> Partition:
    groups = groups_for(name, height, width, goal)
    key = table_key(name, height, width, goal)
    try:
        table = store.load_table(key, build_command=build_command(name, height, width, goal))
    except MissingTableError as e:
        raise MissingTableError(f"pdb:{name}: {e}") from None
    n = height * width
    kmax = max(len(g) for g in groups)
    tiles = np.zeros((len(groups), kmax), dtype=np.int64)
    pattern_of = np.full(n, -1, dtype=np.int64)
    for p, g in enumerate(groups):
        tiles[p, : len(g)] = g
        pattern_of[list(g)] = p
    sizes = np.array([len(g) for g in groups], dtype=np.int64)
    data = table.data if table.data.nbytes < HUGE_COPY_BYTES else _huge_page_copy(table.data)
    offsets = np.cumsum([0] + [placements(n, len(g)) for g in groups[:-1]]).astype(np.int64)
    return Partition(name, groups, data, tiles, sizes, offsets, pattern_of)


def _huge_page_copy(data: np.ndarray) -> np.ndarray:
    """A copy of a large table in memory backed by 2 MB pages where the system allows (see
    ``_huge_page_array``): lookups at random then rarely miss the TLB, which halves the search's
    time. Where huge pages are not available the memory map is returned unchanged."""
    copy = _huge_page_array(data.size, data.dtype)
    if copy is None:
        return data
    copy[:] = data
    return copy


def _huge_page_array(count: int, dtype: np.dtype | type) -> np.ndarray | None:
    """A zeroed array in anonymous memory advised to use 2 MB pages (``madvise``), or None where
    the system does not offer that. Besides fewer TLB misses, a large array then takes one page
    fault per 2 MB rather than per 4 KB when first written."""
    import mmap

    advice = getattr(mmap, "MADV_HUGEPAGE", None)
    if advice is None:
        return None
    buf = mmap.mmap(-1, max(count * np.dtype(dtype).itemsize, 1), flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    try:
        buf.madvise(advice)
    except OSError:
        buf.close()
        return None
    return np.frombuffer(buf, dtype=dtype, count=count)


def _zeros(count: int, dtype: np.dtype | type) -> np.ndarray:
    """``np.zeros``, in huge pages for large arrays where the system allows."""
    out = _huge_page_array(count, dtype) if count * np.dtype(dtype).itemsize >= HUGE_COPY_BYTES else None
    return np.zeros(count, dtype=dtype) if out is None else out


def is_built(name: str, height: int, width: int, goal: Goal) -> bool:
    try:
        return store.has_table(table_key(name, height, width, goal))
    except InvalidBoardError:
        return False


def built(height: int, width: int, goal: Goal) -> list[str]:
    """Names of the shipped partitions already built for this shape, strongest first: for
    ``goal`` or for the other goal (IDA* then solves the board turned 180 degrees)."""
    other: Goal = "blank-first" if goal == "standard" else "standard"
    return [name for name in SHIPPED.get((height, width), ())
            if is_built(name, height, width, goal) or is_built(name, height, width, other)]


def value(board: Board, goal: Goal = "standard", partition: str = "6-6-3") -> int:
    """The additive pattern-database bound of ``board`` for the built ``partition`` (the sum
    of its patterns' entries, direct lookup only; ``MissingTableError`` if it is not built)."""
    part = load_partition(partition_name(partition), board.height, board.width, goal)
    at = {tile: cell for cell, tile in enumerate(board.tiles)}
    return sum(int(part.data[int(part.offsets[i]) + rank([at[t] for t in g], board.size)])
               for i, g in enumerate(part.groups))
