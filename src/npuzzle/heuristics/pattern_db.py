"""Additive disjoint pattern databases (Korf & Felner): exact costs of sub-problems, summed.

Partition the tiles into patterns. For each pattern, a table gives, for every placement of its
tiles, the fewest moves *of its own tiles* that bring them home, the other tiles moving for free
(see ``_kernels.pdb``). A move moves one tile, which belongs to one pattern, so the values of
disjoint patterns add up to a lower bound. Tables are indexed by the perfect ranking of the
placement.

Storage: 4 bits a placement. A pattern's value is never below the Manhattan distance of its
tiles and has its parity (each move of one of its tiles changes that distance by one), so the
table keeps the entry ``(value - distance) / 2``: on the 15-puzzle's 7-8 partition at most 9,
so the 576,576,000 placements take 288 MB instead of 577 MB. A larger excess (none on the
shipped partitions) is stored as 15, which still gives a lower bound; the build counts such
entries (``clamped`` in the table's header). Each pattern's entries start on a byte
(``entry_offsets``).

Blank-aware tables (``BLANK_AWARE``: the 24-puzzle's 6-6-6-6). Where the blank may be depends on
the pattern's tiles: they can shut a corner or a cell by the edge off from the rest, and a
placement's cost then depends on which side the blank is. A blank-aware table keeps two entries
per placement, in one byte: the least cost with the blank in a region of the free cells of more
than two cells, and with it in a pocket of one or two (``pocket_class``); a placement with only
one kind of region stores its value twice, so the kernels look at the blank's neighbours only
when the two differ (``_kernels.bounds.za_entry``). Twice the memory; on Korf & Felner's #40,
28% fewer nodes than the same partition without it (``docs/benchmarks.md``).

Partitions by name: ``"a-b-c"`` gives patterns of a, b, c tiles taken in goal order; on the 4x4
board ``6-6-3``, ``5-5-5`` and ``7-8`` are blocks of the board (as in Korf & Felner's paper;
``7-8`` the two rows with the blank's goal cell and the other two, so tiles 1-7 and 8-15 on the
blank-first goal, 9-15 and 1-8 on the standard one); on the 5x5 board ``6-6-6-6`` is Korf &
Felner's partition into blocks of 2x3 (the top-left one with the centre tile instead of the
blank). All patterns of a partition are stored in one file of the table store (kind ``pdb``,
the pattern field listing every pattern's tiles), built by ``npuzzle tables build pdb:NAME``
and memory-mapped when loaded.

Compressed tables (Felner, Korf, Meshulam & Holte, JAIR 2007, compression by a tile's
place): ``PARTITION/d1-d2-...`` keeps, for each pattern, one entry for every placement of its
first ``k - d`` tiles, the least of the entries over every place of its last ``d`` tiles. The
rank's lowest digits are those tiles', so the entries merged are consecutive ranks
(``_kernels.pdb.compress_min``), and the kernels index a compressed table with the same
incremental rank as a plain one, the compressed tiles weighing 0 (``registry._lookup``): A*, the
beam and IDA* read it unchanged. Only the excess over the Manhattan distance is compressed, so the
Manhattan part stays exact. Chosen over compression by the blank's region because the 4x4 and
smaller tables are not blank-aware (their entries are already the least over the blank's place),
and over merging pairs of ranks (``rank >> 1``) because that needs another index in every kernel.
Stored as kind ``pdb`` with the compressed tiles after a '+' in the pattern field and the encoding
``ENCODING_MIN`` (a table whose header and file name disagree is refused). Two partitions are
max'ed in IDA* as ``pdb:A+pdb:B`` (``_kernels.bounds.SECOND``), each with its mirrored lookup; the
A* searches read the first. ``BEST`` holds what measured fastest on a shape (``tables build best``).
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import tables as store
from ..board import Board, Goal, check_goal, check_shape, goal_cell
from ..errors import InvalidBoardError, InvalidOptionError, MissingTableError, NPuzzleError, TableFormatError
from ..meters import Meter
from ..meters import progress as meter

KIND = "pdb"
#: The build's arrays from this size on are put in huge pages (loaded tables: ``tables.HUGE_PAGE_BYTES``).
HUGE_COPY_BYTES = 64 << 20
#: Largest board for pattern databases (ranks and masks are 64-bit).
MAX_CELLS = 32

# Korf & Felner's blocks (2002), as cells of the blank-first goal (tile x at cell x). On the
# 24-puzzle: the top-left 2x3 block with the centre tile, a 3x2 block on the right, a 3x2 on the
# left and a 2x3 at the bottom (the search also looks the patterns up on the board's mirror image
# about the main diagonal, as theirs did).
_BLOCKS: dict[tuple[int, int], dict[str, tuple[tuple[int, ...], ...]]] = {
    (4, 4): {
        # the top two rows and the bottom two: on the standard goal, turned, tiles 9-15 and 1-8
        "7-8": ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)),
        "6-6-3": ((1, 2, 3), (4, 5, 8, 9, 12, 13), (6, 7, 10, 11, 14, 15)),
        "5-5-5": ((1, 2, 3, 6, 7), (4, 5, 8, 9, 12), (10, 11, 13, 14, 15)),
        # a staircase across the diagonal, unlike 7-8 and its mirror image (rows, columns): a second
        # partition for the max (``registry.Spec.pdb2``)
        "7-8s": ((4, 8, 9, 12, 13, 14, 15), (1, 2, 3, 5, 6, 7, 10, 11)),
    },
    (5, 5): {
        "6-6-6-6": ((1, 2, 5, 6, 7, 12), (3, 4, 8, 9, 13, 14), (10, 11, 15, 16, 20, 21), (17, 18, 19, 22, 23, 24)),
        # two rows' right-hand part and its reflection, a plus and the corner's L about the diagonal
        "7-7-5-5": ((1, 2, 3, 4, 7, 8, 9), (5, 10, 11, 15, 16, 20, 21), (6, 12, 13, 17, 18), (14, 19, 22, 23, 24)),
    },
}
#: Partitions offered by ``npuzzle tables list`` hints and ``auto``, strongest first.
SHIPPED = {(5, 5): ("6-6-6-6",), (4, 4): ("7-8", "6-6-3", "5-5-5"), (3, 3): ("4-4",), (2, 4): ("4-3",),
           (4, 2): ("4-3",), (3, 4): ("6-5",), (4, 3): ("6-5",), (2, 3): ("3-2",), (3, 2): ("3-2",)}

#: The tables of the fastest solves of a shape, by measurement (``docs/benchmarks.md``):
#: one partition, or two whose bounds are max'ed (``registry.Spec.pdb2``), compressed ones
#: allowed; ``auto`` picks them when every one is built, ``npuzzle tables build best`` builds them.
#: On 4x4 no compressed table nor pair within the 7-8 tables' 288 MB beat plain 7-8 on this
#: project's kernel (Korf's 100: 7-8/0-1 + 7-8s/0-1, 115 MB, 2.0 times the nodes, 2.3 times the CPU).
BEST: dict[tuple[int, int], tuple[str, ...]] = {(4, 4): ("7-8",)}

#: How the entries are stored (the header's ``encoding``; tables of another are rebuilt).
ENCODING = "half-excess-over-manhattan-4bit"
#: ... and in blank-aware tables: two entries a placement, for the blank in a region of more than
#: ``_kernels.bounds.POCKET`` cells (first) or of at most that many (``pocket_class``).
ENCODING_ZA = "half-excess-over-manhattan-4bit-pocket2"
#: ... and in compressed tables (``drops_for``): each entry the least of the placements it stands for.
ENCODING_MIN = "half-excess-over-manhattan-4bit-min-over-compressed-tiles"
#: The partitions whose tables are blank-aware (where twice the entries fit in memory).
BLANK_AWARE = {(5, 5, "6-6-6-6")}

#: The largest entry of each pattern of the shipped partitions (their builds' ``max_entries``): a
#: table holding another is refused on load.
KNOWN_ENTRY_MAX: dict[tuple[int, int, str, str], tuple[int, ...]] = {
    (4, 4, "standard", "7-8"): (7, 9),
    (4, 4, "blank-first", "7-8"): (7, 9),
    (4, 4, "standard", "6-6-3"): (2, 5, 5),
    (4, 4, "blank-first", "6-6-3"): (2, 5, 5),
    (4, 4, "standard", "5-5-5"): (4, 4, 4),
    (4, 4, "blank-first", "5-5-5"): (4, 4, 4),
    (3, 3, "standard", "4-4"): (4, 4),
    (3, 3, "blank-first", "4-4"): (4, 4),
    (2, 4, "standard", "4-3"): (5, 4),
    (2, 4, "blank-first", "4-3"): (5, 4),
    (4, 2, "standard", "4-3"): (8, 4),
    (4, 2, "blank-first", "4-3"): (6, 5),
    (3, 4, "standard", "6-5"): (7, 5),
    (3, 4, "blank-first", "6-5"): (7, 5),
    (4, 3, "standard", "6-5"): (7, 6),
    (4, 3, "blank-first", "6-5"): (7, 5),
    (2, 3, "standard", "3-2"): (4, 2),
    (2, 3, "blank-first", "3-2"): (4, 2),
    (3, 2, "standard", "3-2"): (5, 2),
    (3, 2, "blank-first", "3-2"): (4, 3),
    (5, 5, "standard", "7-7-5-5"): (7, 7, 2, 4),
    (5, 5, "blank-first", "7-7-5-5"): (7, 7, 2, 4),  # the same tables turned 180 degrees
}

#: ... and of the blank-aware ones.
KNOWN_ENTRY_MAX_ZA: dict[tuple[int, int, str, str], tuple[int, ...]] = {
    (5, 5, "standard", "6-6-6-6"): (5, 5, 5, 5),
    (5, 5, "blank-first", "6-6-6-6"): (5, 5, 5, 5),  # the same tables turned 180 degrees
}

#: The partitions advised after a slow search, cheapest first, with a rough build time (one core).
ADVISED: dict[tuple[int, int], tuple[tuple[str, str], ...]] = {
    (4, 4): (("6-6-3", "about 5 s"), ("7-8", "a few minutes")),
    (5, 5): (("6-6-6-6", "about 2 minutes"),),
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
    if used is not None and "/" in used or "+pdb:" in heuristic:
        rank = 0  # compressed tables or two partitions: what ``best`` builds, nothing to advise
    n = height * width
    out = []
    for name, when in ADVISED.get((height, width), ()):
        if name in shipped and shipped.index(name) < rank:
            groups = groups_for(name, height, width, goal)
            per = per_placement(name, height, width)
            out.append(Advice(name, name in built(height, width, goal), when,
                              table_bytes(n, groups, per), build_bytes(groups, n, per)))
    return out


def build_note(name: str, height: int, width: int, goal: Goal = "standard") -> str:
    """A note on the cost of building a partition ``ADVISED`` lists (else the empty string).

    >>> build_note("7-8", 4, 4)
    ' (a few minutes, about 288 MB)'
    """
    when = dict(ADVISED.get((height, width), ())).get(name)
    if when is None:
        return ""
    size = table_bytes(height * width, groups_for(name, height, width, goal), per_placement(name, height, width))
    return f" ({when}, about {size / 1e6:,.0f} MB)"


def groups_for(name: str, height: int, width: int, goal: Goal = "standard") -> tuple[tuple[int, ...], ...]:
    """The patterns (tile tuples) of partition ``name`` on a ``height x width`` board.

    >>> groups_for("4-4", 3, 3)
    ((1, 2, 3, 4), (5, 6, 7, 8))
    """
    n = height * width
    name = name.split("/", 1)[0]  # a compressed table's patterns are its partition's
    blocks = _BLOCKS.get((height, width), {}).get(name)
    if blocks is not None:
        if goal == "standard":  # the 180-degree turn that maps one goal onto the other
            return tuple(tuple(sorted(n - x for x in b)) for b in blocks)
        return blocks
    try:
        sizes = [int(part) for part in name.split("-")]
    except ValueError:
        raise InvalidOptionError(f"bad partition {name!r}: write pattern sizes joined by '-', e.g. 6-6-3") from None
    if sum(sizes) != n - 1 or min(sizes) < 1:
        raise InvalidOptionError(
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


def pattern_field(groups: tuple[tuple[int, ...], ...], drops: tuple[int, ...] = ()) -> str:
    """The table store's pattern field: tiles joined by '.', patterns by '-'; in a compressed
    table, a pattern's tiles whose places are compressed away follow a '+' (``drops``).

    >>> pattern_field(((1, 2, 3), (4, 5)))
    '1.2.3-4.5'
    >>> pattern_field(((1, 2, 3), (4, 5)), (1, 0))
    '1.2+3-4.5'
    """
    out = []
    for i, g in enumerate(groups):
        d = drops[i] if drops else 0
        kept = ".".join(str(t) for t in g[: len(g) - d])
        out.append(kept + ("+" + ".".join(str(t) for t in g[len(g) - d :]) if d else ""))
    return "-".join(out)


def split_name(name: str) -> tuple[str, str | None]:
    """A partition name and its compression (the text after '/', None if there is none).

    >>> split_name("7-8/0-1"), split_name("6-6-3")
    (('7-8', '0-1'), ('6-6-3', None))
    """
    base, _, comp = name.partition("/")
    return base, (comp if _ else None)


def drops_for(name: str, height: int, width: int, goal: Goal = "standard") -> tuple[int, ...]:
    """How many of each pattern's last tiles have their places compressed away in the table of
    ``name`` (``PARTITION/d1-d2-...``; all 0 without '/'). A compressed table keeps, for each
    placement of a pattern's other tiles, the least entry over every place of those tiles
    (Felner, Korf, Meshulam & Holte 2007, compression by a tile's place): a lower bound still, in
    ``placements(n, k - d)`` entries instead of ``placements(n, k)``.

    >>> drops_for("7-8/0-1", 4, 4), drops_for("7-8", 4, 4)
    ((0, 1), (0, 0))
    """
    base, comp = split_name(name)
    groups = groups_for(base, height, width, goal)
    if comp is None:
        return (0,) * len(groups)
    try:
        drops = tuple(int(x) for x in comp.split("-"))
    except ValueError:
        drops = ()
    if len(drops) != len(groups) or any(not 0 <= d < len(g) for d, g in zip(drops, groups, strict=False)):
        raise InvalidOptionError(
            f"bad compression {name!r}: after '/', one count a pattern joined by '-' ({len(groups)} here), each "
            "below its pattern's size: how many of its last tiles' places are compressed away, e.g. 7-8/0-1")
    if not any(drops):
        raise InvalidOptionError(f"bad compression {name!r}: compress at least one tile, or leave out '/'")
    if (height, width, base) in BLANK_AWARE:
        raise InvalidOptionError(f"pdb:{base} is blank-aware; its tables are not compressed")
    return drops


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
    data: np.ndarray  # uint8, two entries a byte, every pattern's table one after another
    tiles: np.ndarray  # tiles[p, i]: the i-th tile of pattern p (int64, padded)
    sizes: np.ndarray  # int64
    offsets: np.ndarray  # int64: the entry where pattern p's table starts in data
    pattern_of: np.ndarray  # int64: pattern of each tile (-1 for the blank)
    width: int
    home: tuple[int, ...]  # goal cell of each tile

    per: int = 1  # entries a placement: 2 in blank-aware tables
    drops: tuple[int, ...] = ()  # each pattern's last tiles compressed away (``drops_for``)

    def kept(self, p: int) -> int:
        """How many of pattern ``p``'s tiles index its table (its first ones)."""
        return len(self.groups[p]) - (self.drops[p] if self.drops else 0)

    def entry(self, p: int, r: int, pocket: int = 0) -> int:
        """Pattern ``p``'s entry for the placement of rank ``r`` (see the module docstring);
        ``pocket``: the blank's region class in a blank-aware table (``pocket_class``)."""
        i = int(self.offsets[p]) + self.per * r + (pocket if self.per == 2 else 0)
        return (int(self.data[i >> 1]) >> (4 * (i & 1))) & 15

    def value(self, p: int, cells: list[int], blank: int = -1) -> int:
        """Pattern ``p``'s value with its tiles on ``cells`` (in pattern order) and the blank on
        cell ``blank`` (needed by blank-aware tables): the Manhattan distance of its tiles plus
        twice its entry."""
        w = self.width
        n = len(self.home)
        md = sum(abs(c // w - self.home[t] // w) + abs(c % w - self.home[t] % w)
                 for t, c in zip(self.groups[p], cells, strict=True))
        pocket = pocket_class(set(cells), blank, n // w, w) if self.per == 2 else 0
        return md + 2 * self.entry(p, rank(cells[: self.kept(p)], n), pocket)


def pocket_class(taken: set[int], blank: int, height: int, width: int) -> int:
    """1 if the blank's region (the connected cells outside ``taken``) has at most ``POCKET``
    cells, else 0: which of a blank-aware table's two entries applies (as
    ``_kernels.bounds.pocket_class``).

    >>> pocket_class({1, 3}, 0, 3, 3), pocket_class({2, 3, 4}, 0, 3, 3), pocket_class({1}, 0, 3, 3)
    (1, 1, 0)
    """
    from .._kernels.bounds import POCKET

    seen, todo = {blank}, [blank]
    while todo and len(seen) <= POCKET:
        c = todo.pop()
        r, k = divmod(c, width)
        for rr, kk in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1)):
            d = rr * width + kk
            if 0 <= rr < height and 0 <= kk < width and d not in taken and d not in seen:
                seen.add(d)
                todo.append(d)
    return int(len(seen) <= POCKET)


def per_placement(name: str, height: int, width: int) -> int:
    """Entries a placement in partition ``name``'s tables: 2 if they are blank-aware, else 1.

    >>> per_placement("6-6-6-6", 5, 5), per_placement("7-8", 4, 4)
    (2, 1)
    """
    return 2 if (height, width, name) in BLANK_AWARE else 1


def entry_offsets(n: int, groups: tuple[tuple[int, ...], ...], per: int = 1,
                  drops: tuple[int, ...] = ()) -> list[int]:
    """The entry at which each pattern's table starts, every one on a byte, then the end
    (``drops``: the compressed tiles of each pattern, see ``drops_for``).

    >>> entry_offsets(9, ((1, 2, 3, 4), (5, 6, 7, 8)))
    [0, 3024, 6048]
    >>> entry_offsets(9, ((1, 2, 3, 4), (5, 6, 7, 8)), 1, (0, 1))
    [0, 3024, 3528]
    >>> entry_offsets(3, ((1,), (2,)))
    [0, 4, 8]
    """
    out = [0]
    for i, g in enumerate(groups):
        size = per * placements(n, len(g) - (drops[i] if drops else 0))
        out.append(out[-1] + size + (size & 1))
    return out


def table_bytes(n: int, groups: tuple[tuple[int, ...], ...], per: int = 1, drops: tuple[int, ...] = ()) -> int:
    """Bytes of a partition's stored table (``per`` entries a placement, ``drops`` compressed tiles)."""
    return entry_offsets(n, groups, per, drops)[-1] // 2


def table_key(name: str, height: int, width: int, goal: Goal) -> store.TableKey:
    groups = groups_for(name, height, width, goal)
    drops = drops_for(name, height, width, goal)
    return store.TableKey(KIND, height, width, goal, pattern_field(groups, drops if any(drops) else ()))


def superseded(name: str, key: store.TableKey) -> bool:
    """Whether a stored table of partition ``name`` holds other patterns than the name gives
    now (the standard goal's ``7-8`` was tiles 1-7 and 8-15 before it became Korf & Felner's
    blocks): searches no longer use it, and it can be removed by its file name.

    >>> key = store.TableKey(KIND, 4, 4, "standard", "1.2.3.4.5.6.7-8.9.10.11.12.13.14.15")
    >>> superseded("7-8", key), superseded("7-8", table_key("7-8", 4, 4, "standard"))
    (True, False)
    """
    try:
        return table_key(name, key.height, key.width, check_goal(key.goal)) != key
    except (InvalidBoardError, ValueError):
        return True


def build_command(name: str, height: int, width: int, goal: Goal) -> str:
    return f"npuzzle tables build pdb:{name} --shape {height}x{width} --goal {goal}"


def _check(height: int, width: int, goal: Goal) -> None:
    """The shape is one pattern databases take (``goal`` is a convention's name, checked by whoever
    asked: the command line's choices, or ``search.problem.prepare``)."""
    check_shape(height, width)
    if height * width > MAX_CELLS:
        raise InvalidOptionError(f"pattern databases handle boards of at most {MAX_CELLS} cells, "
                                f"not {height}x{width}")


def code_dtype(n: int) -> type[np.unsignedinteger]:
    """The build's word per placement: two bits for each of the n cells (see ``_kernels.pdb``)."""
    return np.uint32 if n <= 16 else np.uint64


#: A pattern whose words of fields by cell would take more than this is searched compact: two
#: bits for each free cell, 4.5 bytes a placement (``_search_compact``; plain tables only).
COMPACT_ABOVE = 4 * 2**30
#: Free cells a compact word holds (``_kernels.pdb.level_compact``: 16 in 32 bits, 2 in a nibble).
COMPACT_FIELDS = 18


def compact_build(n: int, k: int, per: int = 1) -> bool:
    """Whether a pattern of k tiles on n cells is searched compact.

    >>> compact_build(25, 6), compact_build(25, 7), compact_build(16, 8)
    (False, True, False)
    """
    return (per == 1 and n - k <= COMPACT_FIELDS
            and placements(n, k) * np.dtype(code_dtype(n)).itemsize > COMPACT_ABOVE)


def build_bytes(groups: tuple[tuple[int, ...], ...], n: int, per: int = 1) -> int:
    """Peak memory of a build: every table (``per`` bytes a placement, half a byte once compact
    searches write their entries directly) plus the largest search's words."""
    tables = sum(placements(n, len(g)) // 2 if compact_build(n, len(g), per) else per * placements(n, len(g))
                 for g in groups)
    words = [placements(n, len(g)) * (9 / 2 if compact_build(n, len(g), per) else np.dtype(code_dtype(n)).itemsize)
             for g in groups]
    return tables + int(max(words))


#: CPU seconds a build takes per placement (the 7-8 build: 576 million in about 176 s).
SECONDS_PER_PLACEMENT = 3.1e-7
#: Builds needing more memory (bytes) or time (seconds) than this start only when confirmed.
CONFIRM_BYTES = 4 * 10**9
CONFIRM_SECONDS = 600


def build_seconds(groups: tuple[tuple[int, ...], ...], n: int) -> float:
    """A rough estimate of a build's CPU time.

    >>> round(build_seconds(groups_for("7-8", 4, 4), 16))
    179
    """
    return SECONDS_PER_PLACEMENT * sum(placements(n, len(g)) for g in groups)


def needs_confirmation(groups: tuple[tuple[int, ...], ...], n: int) -> bool:
    """Whether a build is large enough (memory or time) to start only when confirmed.

    >>> needs_confirmation(groups_for("7-8", 4, 4), 16), needs_confirmation(groups_for("9-6", 4, 4), 16)
    (False, True)
    """
    return build_bytes(groups, n) > CONFIRM_BYTES or build_seconds(groups, n) > CONFIRM_SECONDS


def build_memory(name: str, height: int, width: int, goal: Goal = "standard") -> int:
    """Peak memory of building ``name``'s table: a compressed one needs its partition's table, read
    from the store (mapped) or built in memory, beside its own.

    >>> build_memory("7-8", 4, 4) == build_bytes(groups_for("7-8", 4, 4), 16)
    True
    """
    base, comp = split_name(name)
    n = height * width
    groups = groups_for(base, height, width, goal)
    need = build_bytes(groups, n, per_placement(base, height, width))
    if comp is None:
        return need
    own = table_bytes(n, groups, 1, drops_for(name, height, width, goal))
    return own + (table_bytes(n, groups) if is_built(base, height, width, goal) else need)


def check_memory(name: str, height: int, width: int, goal: Goal = "standard") -> None:
    """``NPuzzleError`` if building partition ``name`` needs more memory than is available."""
    _check(height, width, goal)
    need = build_memory(name, height, width, goal)
    free = available_memory()
    if free is not None and need > free:
        raise NPuzzleError(f"building pdb:{name} for {height}x{width} needs about {need / 2**30:.1f} GiB "
                           f"of memory; only {free / 2**30:.1f} GiB is available")


def stored_files(name: str, height: int, width: int, goal: Goal | None = None) -> list[str]:
    """File names of partition ``name``'s stored tables for a shape: for ``goal``, or for
    either goal when it is None."""
    goals: tuple[Goal, ...] = ("standard", "blank-first") if goal is None else (goal,)
    return [f for g in goals for f in store.matching(KIND, height, width, g, table_key(name, height, width, g).pattern)]


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


def build(name: str, height: int, width: int, goal: Goal = "standard", *, progress: bool = True,
          wait: bool = False) -> Path:
    """Build partition ``name`` for ``height x width`` and ``goal`` and save it; return its path.

    Refuses (``NPuzzleError``) to start when the build needs more memory than is available, and
    (``TableStoreError``) when the store cannot be written. A compressed table (``drops_for``) is
    made from its partition's table, read from the store if it is there, else built in memory.
    One process builds a table at a time: ``OutputBusyError`` (naming the other's pid) if another
    is building it, or with ``wait`` the table that one leaves (built here if it left none)."""
    key = table_key(name, height, width, goal)
    with store.building(key, wait=wait):
        if wait and store.has_table(key) and is_sound(name, height, width, goal):
            return store.table_path(key)
        return _build(name, height, width, goal, progress)


def _build(name: str, height: int, width: int, goal: Goal, progress: bool) -> Path:
    if split_name(name)[1] is not None:
        return _build_compressed(name, height, width, goal, progress)
    check_memory(name, height, width, goal)
    n = height * width
    # fail now, not after the build: a store that cannot be written, or a disk without the room
    store.writable_path(table_key(name, height, width, goal),
                        table_bytes(n, groups_for(name, height, width, goal), per_placement(name, height, width)))
    data, meta = _built(name, height, width, goal, progress)
    return store.save_table(table_key(name, height, width, goal), data, meta)


def _built(name: str, height: int, width: int, goal: Goal, progress: bool) -> tuple[np.ndarray, dict[str, object]]:
    """Partition ``name``'s table (uncompressed) and its header's fields, built in memory."""
    groups = groups_for(name, height, width, goal)
    n = height * width
    per = per_placement(name, height, width)
    sizes = [placements(n, len(g)) for g in groups]
    data = _zeros(per * sum(sizes), np.uint8)
    start = time.process_time()
    levels, entry_max, clamped = [], [], 0
    offset = 0
    with meter(sum(sizes), f"pdb:{name} {height}x{width}", progress) as bar:
        # Pattern by pattern, its entries packed before the next one is searched: entries go to
        # nibble ``dst`` on, never past the bytes of a later pattern (``offset``).
        for g, size, dst in zip(groups, sizes, entry_offsets(n, groups, per)[:-1], strict=True):
            search = _search_compact if compact_build(n, len(g), per) else _search_cells
            top, most, over = search(g, n, width, goal, per, data, offset, dst, bar)
            levels.append(top)
            entry_max.append(most)
            clamped += over
            offset += per * size
    meta = {"name": name, "patterns": [list(g) for g in groups], "sizes": sizes, "max_values": levels,
            "encoding": ENCODING_ZA if per == 2 else ENCODING, "max_entries": entry_max, "clamped": clamped,
            "build_cpu_seconds": round(time.process_time() - start, 2)}
    return data[: table_bytes(n, groups, per)], meta


def _build_compressed(name: str, height: int, width: int, goal: Goal, progress: bool) -> Path:
    """``build`` for a compressed table: each entry the least of the partition's entries over the
    places of the compressed tiles (``_kernels.pdb.compress_min``)."""
    from .._kernels import pdb as kernel

    base = split_name(name)[0]
    groups = groups_for(base, height, width, goal)
    drops = drops_for(name, height, width, goal)
    n = height * width
    key = table_key(name, height, width, goal)
    store.writable_path(key, table_bytes(n, groups, 1, drops))
    start = time.process_time()
    if is_sound(base, height, width, goal):
        table = store.load_table(table_key(base, height, width, goal))
        src, base_meta = table.data, table.meta
    else:
        check_memory(base, height, width, goal)
        src, base_meta = _built(base, height, width, goal, progress)
    out = np.zeros(table_bytes(n, groups, 1, drops), np.uint8)
    src_off, dst_off = entry_offsets(n, groups), entry_offsets(n, groups, 1, drops)
    tops = [int(kernel.compress_min(src, src_off[p], placements(n, len(g)), placements(n - len(g) + d, d), out,
                                    dst_off[p])) for p, (g, d) in enumerate(zip(groups, drops, strict=True))]
    meta = {"name": name, "patterns": [list(g) for g in groups], "compressed": list(drops),
            "sizes": [placements(n, len(g) - d) for g, d in zip(groups, drops, strict=True)],
            "max_values": base_meta["max_values"], "encoding": ENCODING_MIN, "max_entries": tops,
            "clamped": base_meta.get("clamped", 0), "build_cpu_seconds": round(time.process_time() - start, 2)}
    return store.save_table(key, out, meta)


def _search_cells(g: tuple[int, ...], n: int, width: int, goal: Goal, per: int, data: np.ndarray, offset: int,
                  dst: int, bar: Meter) -> tuple[int, int, int]:
    """One pattern's breadth-first search with a word of fields by cell a placement; its values
    in ``data`` from byte ``offset``, then packed as entries from nibble ``dst``. Returns the
    largest value, the largest entry and how many entries were clamped."""
    from .._kernels import pdb as kernel

    k = len(g)
    size = placements(n, k)
    dist = data[offset : offset + per * size]
    dist[:] = kernel.UNSEEN
    codes = _zeros(size, code_dtype(n))
    codes[:] = 0  # take the page faults now, in order: cheaper than at random later
    hi_cells, hi_free, lo_pos, mult = kernel.unrank_tables(n, k)
    buf = np.empty(kernel.BATCH + 4 * k, dtype=np.int64)
    kernel.start(codes, rank([goal_cell(t, n, goal) for t in g], n), goal_cell(0, n, goal))
    top = _levels(g, bar, lambda d, cur: kernel.level(codes, dist, n, width, d, cur, hi_cells, hi_free, lo_pos,
                                                       mult, buf, per == 2))
    homes = np.array([goal_cell(t, n, goal) for t in g], dtype=np.int64)
    most, over = kernel.pack(data, offset, dst, n, width, homes, per)
    return top, int(most), int(over)


def _search_compact(g: tuple[int, ...], n: int, width: int, goal: Goal, per: int, data: np.ndarray, offset: int,
                    dst: int, bar: Meter) -> tuple[int, int, int]:
    """``_search_cells`` with two bits for each free cell of a placement (4.5 bytes for 7 tiles
    on 25 cells instead of 8), its entries written from nibble ``dst`` as they are found
    (``_kernels.pdb.level_compact``); ``offset`` is not used."""
    from .._kernels import pdb as kernel

    k = len(g)
    size = placements(n, k)
    lo = _zeros(size, np.uint32)
    hi = _zeros((size + 1) // 2, np.uint8)
    lo[:] = 0  # page faults in order, as above
    hi[:] = 0
    homes = np.array([goal_cell(t, n, goal) for t in g], dtype=np.int64)
    blank = goal_cell(0, n, goal)
    kernel.compact_start(lo, hi, rank(homes.tolist(), n), blank - int(np.sum(homes < blank)))
    hi_cells, hi_free, lo_pos, mult = kernel.unrank_tables(n, k)
    buf = np.empty(kernel.BATCH + 4 * k, dtype=np.int64)
    stats = np.zeros(2, dtype=np.int64)  # the largest entry, the clamped ones
    top = _levels(g, bar, lambda d, cur: kernel.level_compact(lo, hi, data, dst, homes, n, width, d, cur, hi_cells,
                                                               hi_free, lo_pos, mult, buf, stats))
    return top, int(stats[0]), int(stats[1])


def _levels(g: tuple[int, ...], bar: Meter, step: Callable[[int, int], tuple[int, int]]) -> int:
    """A pattern's search, level by level: ``step(d, cur)`` expands level d (its fields have code
    ``cur``) and returns the fields it put on the next level and the placements whose value is d.
    Returns the largest value."""
    d, cur, top = 0, 1, 0
    while True:
        bar.note(f"pattern {'.'.join(map(str, g))}: level {d}")
        states, found = step(d, cur)
        bar.advance(found)
        if found:
            top = d
        if states == 0:
            return top
        d, cur = d + 1, 3 - cur


def load_partition(name: str, height: int, width: int, goal: Goal = "standard") -> Partition:
    """The stored partition, memory-mapped; ``MissingTableError`` naming the build command."""
    _check(height, width, goal)
    return _load(name, height, width, goal)


@functools.cache
def _load(name: str, height: int, width: int, goal: Goal) -> Partition:
    groups = groups_for(name, height, width, goal)
    key = table_key(name, height, width, goal)
    command = build_command(name, height, width, goal)
    try:
        table = store.load_table(key, build_command=command)  # checked by _check_table
        _check_encoding(table, per_placement(name, height, width))
    except MissingTableError as e:
        raise MissingTableError(f"pdb:{name}: {e}") from None
    except TableFormatError as e:
        raise TableFormatError(f"pdb:{name}: {e}; rebuild it: {command} --force") from None
    n = height * width
    kmax = max(len(g) for g in groups)
    tiles = np.zeros((len(groups), kmax), dtype=np.int64)
    pattern_of = np.full(n, -1, dtype=np.int64)
    for p, g in enumerate(groups):
        tiles[p, : len(g)] = g
        pattern_of[list(g)] = p
    sizes = np.array([len(g) for g in groups], dtype=np.int64)
    data = table.data  # mapped by the store (large tables in 2 MB pages): one copy for every process
    per = per_placement(name, height, width)
    drops = drops_for(name, height, width, goal)
    offsets = np.array(entry_offsets(n, groups, per, drops)[:-1], dtype=np.int64)
    home = tuple(goal_cell(t, n, goal) for t in range(n))
    return Partition(name, groups, data, tiles, sizes, offsets, pattern_of, width, home, per, drops)


def _check_encoding(table: store.Table, per: int | None = None) -> int:
    """Refuse a table stored in another encoding (a header field: checked on every load, since a
    verification stamp vouches only for the bytes), or, when ``per`` is given, with another
    number of entries a placement than the partition's; return its entries a placement."""
    encoding = table.meta.get("encoding")
    if encoding not in (ENCODING, ENCODING_ZA, ENCODING_MIN):
        raise TableFormatError(f"table file {table.path}: stored one byte a placement by an older npuzzle "
                               "(this one reads 4 bits a placement)")
    if (encoding == ENCODING_MIN) != ("+" in table.key.pattern):
        raise TableFormatError(f"table file {table.path}: its header's encoding {encoding} does not fit its "
                               f"patterns {table.key.pattern} (compressed tables mark their compressed tiles)")
    found = 2 if encoding == ENCODING_ZA else 1
    if per is not None and found != per:
        raise TableFormatError(f"table file {table.path}: stored {'with' if found == 2 else 'without'} the "
                               f"blank-aware entries, which this npuzzle {'reads' if per == 2 else 'does not'} "
                               "for this partition")
    return found


def _check_table(table: store.Table) -> None:
    """Cheap invariants a checksum cannot vouch for (a table may be forged with a valid one):
    the table is stored in this npuzzle's encoding, each pattern's entry at its goal placement is
    0, and its largest entry is the one the build recorded (and the one known for the shipped
    partitions). One pass over the bytes; run on a verified load (``tables.register_check``)."""
    key, meta = table.key, table.meta
    name, levels, tops = meta.get("name"), meta.get("max_values"), meta.get("max_entries")
    try:
        groups = tuple(tuple(int(t) for t in g.replace("+", ".").split(".")) for g in key.pattern.split("-"))
        drops = tuple(len(g.split("+")[1].split(".")) if "+" in g else 0 for g in key.pattern.split("-"))
        goal = check_goal(key.goal)
    except (ValueError, NPuzzleError):
        raise TableFormatError(f"table file {table.path}: not a pattern database") from None
    per = _check_encoding(table)
    if not (isinstance(tops, list) and isinstance(levels, list) and len(tops) == len(levels) == len(groups)
            and isinstance(name, str)
            and all(isinstance(v, int) and 0 <= v <= 15 for v in tops)):
        raise TableFormatError(f"table file {table.path}: no valid name and max_entries in its header")
    from .._kernels import pdb as kernel

    known = (KNOWN_ENTRY_MAX_ZA if per == 2 else KNOWN_ENTRY_MAX).get((key.height, key.width, goal, name))
    n = key.height * key.width
    if table.data.dtype != np.uint8 or any(not 0 < t < n for g in groups for t in g):
        raise TableFormatError(f"table file {table.path}: not a pattern database of {key.shape}")
    offsets = entry_offsets(n, groups, per, drops)
    if offsets[-1] // 2 != table.data.size:
        raise TableFormatError(f"table file {table.path}: {table.data.size:,} bytes do not fit its patterns")
    for p, g in enumerate(groups):
        part = table.data[offsets[p] // 2 : offsets[p + 1] // 2]
        cells = [goal_cell(t, n, goal) for t in g]
        pocket = pocket_class(set(cells), goal_cell(0, n, goal), key.height, key.width) if per == 2 else 0
        home = offsets[p] + per * rank(cells[: len(g) - drops[p]], n) + pocket
        goal_entry = (int(table.data[home >> 1]) >> (4 * (home & 1))) & 15
        top = int(kernel.entry_max(part))
        if goal_entry != 0:
            raise TableFormatError(f"table file {table.path}: pattern {p + 1}'s goal entry is "
                                   f"{goal_entry}, not 0 (the table is forged or corrupt)")
        if top != tops[p] or (known is not None and top != known[p]):
            raise TableFormatError(f"table file {table.path}: pattern {p + 1} has an entry of {top}, "
                                   "not its known maximum (the table is forged or corrupt)")


store.register_check(KIND, _check_table)


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


def is_sound(name: str, height: int, width: int, goal: Goal) -> bool:
    """Whether partition ``name`` is stored and loads with every check passing (memory-mapped
    only: no copy of a large table is made)."""
    try:
        _check_encoding(store.load_table(table_key(name, height, width, goal)), per_placement(name, height, width))
    except (MissingTableError, TableFormatError):
        return False
    return True


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


def best(height: int, width: int) -> tuple[str, ...]:
    """The partitions of the fastest solves of a shape (``BEST``, else the strongest shipped one).

    >>> best(4, 4), best(3, 3)
    (('7-8',), ('4-4',))
    """
    return BEST.get((height, width), SHIPPED.get((height, width), ())[:1])


def best_usable(height: int, width: int, goal: Goal) -> str | None:
    """``best``'s heuristic name (``pdb:A+pdb:B``) if its every table is built and sound, for
    ``goal`` or else for the other goal (searched on the board turned 180 degrees); else None.
    A damaged table is reported once (``tables.warn_damaged``) and bypassed."""
    names = BEST.get((height, width))
    if not names:
        return None
    other: Goal = "blank-first" if goal == "standard" else "standard"
    for which in (goal, other):
        if all(is_built(name, height, width, which) for name in names):
            try:
                for name in names:
                    load_partition(name, height, width, which)
            except TableFormatError as e:
                store.warn_damaged(e, "using the next bound instead")
                return None
            return "+".join(f"pdb:{name}" for name in names)
    return None


def usable(height: int, width: int, goal: Goal) -> list[str]:
    """``built``, without the partitions whose tables are damaged: each of those is reported
    once (``tables.warn_damaged``) and bypassed."""
    out = []
    other: Goal = "blank-first" if goal == "standard" else "standard"
    for name in built(height, width, goal):
        which = goal if is_built(name, height, width, goal) else other
        key = table_key(name, height, width, which)
        stamp = None
        try:
            stamp = store.table_stamp(key)
            if stamp is not None and _damaged.get(key) == stamp:
                continue  # found damaged before, and not rebuilt since
            load_partition(name, height, width, which)
        except TableFormatError as e:
            store.warn_damaged(e, "using the next bound instead")
            _damaged[key] = stamp
            continue
        out.append(name)
    return out


_damaged: dict[store.TableKey, tuple[int, int] | None] = {}


def value(board: Board, goal: Goal = "standard", partition: str = "6-6-3") -> int:
    """The additive pattern-database bound of ``board`` for the built ``partition`` (the sum
    of its patterns' entries, direct lookup only; ``MissingTableError`` if it is not built)."""
    part = load_partition(partition_name(partition), board.height, board.width, goal)
    at = {tile: cell for cell, tile in enumerate(board.tiles)}
    return sum(part.value(i, [at[t] for t in g], at[0]) for i, g in enumerate(part.groups))
