"""Heuristics by name, and the arrays the IDA* kernel needs for them.

A name is one of ``manhattan``, ``lc``, or components joined by ``+`` whose values are combined
by max: ``wd`` (walking distance), ``id`` (inversion distance), ``pdb:PARTITION`` (additive
pattern databases, with the lookup mirrored about the main diagonal on square boards), e.g.
``wd+id``, ``pdb:6-6-3+wd``. The Manhattan distance is always among the components (the walking
distance replaces it, being never smaller); it also gives the parity of every solution, so each
other bound is rounded up to that parity.

``evaluate(board, goal, name)`` is the plain-Python value; ``kernel_heuristic(...)`` holds the
kernel's mode and table tuple and computes a board's first row of components the same way, so
the kernel's incremental updates are checked against it by the tests.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..board import Board, Goal, check_goal, goal_cell
from ..errors import InvalidOptionError, quote_input
from ..geometry import geometry

if TYPE_CHECKING:
    from .._kernels.bounds import Bounds
    from .pattern_db import Partition

SIMPLE = ("manhattan", "lc")
COMPONENTS = ("wd", "id")


@dataclass(frozen=True)
class Spec:
    """A parsed heuristic name."""

    name: str
    lc: bool = False
    wd: bool = False
    id: bool = False
    pdb: str | None = None
    pdb2: str | None = None  # a second partition, max'ed with the first (IDA* only)

    @property
    def extended(self) -> bool:
        return self.wd or self.id or self.pdb is not None


#: The Manhattan distance's ``Spec`` (what searches that take no heuristic rank or bound by).
MANHATTAN = Spec("manhattan")


def parse(name: str) -> Spec:
    """Parse a heuristic name; ``InvalidBoardError`` quoting it if it is not one.

    >>> parse("id+wd")
    Spec(name='wd+id', lc=False, wd=True, id=True, pdb=None, pdb2=None)
    """
    if name in SIMPLE:
        return Spec(name, lc=name == "lc")
    parts = name.split("+")
    pdb = [p.split(":", 1)[1] for p in parts if p.startswith("pdb:")]
    rest = {p for p in parts if not p.startswith("pdb:")} - {"manhattan"}
    bad = sorted(rest - set(COMPONENTS))
    if bad or len(pdb) > 2 or not all(pdb) or not (rest or pdb):
        why = f"{quote_input(bad[0])} is not a component" if bad else "at most two pdb:PARTITION"
        if "lc" in bad:
            why = "lc does not combine with other bounds"
        raise InvalidOptionError(
            f"unknown heuristic {quote_input(name)} ({why}): use manhattan, lc, or wd, id, pdb:PARTITION "
            "joined by '+', e.g. wd+id or pdb:6-6-3+wd")
    wd, inv = "wd" in rest, "id" in rest
    canon = "+".join([f"pdb:{p}" for p in pdb] + ["wd"] * wd + ["id"] * inv)
    return Spec(canon, wd=wd, id=inv, pdb=pdb[0] if pdb else None, pdb2=pdb[1] if len(pdb) > 1 else None)


def single(spec: Spec) -> Spec:
    """``spec`` without its second partition (for the searches whose kernels read one: A*, the
    hybrid; the first partition alone is a lower bound too).

    >>> single(parse("pdb:7-8/0-1+pdb:7-8s/0-1")).name
    'pdb:7-8/0-1'
    """
    if spec.pdb2 is None:
        return spec
    return parse("+".join([f"pdb:{spec.pdb}"] + ["wd"] * spec.wd + ["id"] * spec.id))


def mirror_map(height: int, width: int, goal: Goal) -> tuple[np.ndarray, np.ndarray] | None:
    """The transposition of a square board as (cell map, tile relabelling), if it maps the goal
    to itself (then a position and its mirror image are equally far from the goal)."""
    if height != width:
        return None
    n = height * width
    cells = np.array([(c % width) * width + c // width for c in range(n)], dtype=np.uint64)
    tile_at = {goal_cell(t, n, goal): t for t in range(n)}
    tiles = np.array([tile_at[int(cells[goal_cell(t, n, goal)])] for t in range(n)], dtype=np.int64)
    if tiles[0] != 0:
        return None
    return cells, tiles


@dataclass(frozen=True)
class KernelHeuristic:
    """A lower bound prepared for one shape and goal: its kernel mode bits and arrays (see
    ``_kernels.bounds``), the width of its component rows, and its value of a board."""

    spec: Spec
    height: int
    width: int
    goal: Goal
    mode: int
    bounds: Bounds
    columns: int  # width of the kernel's per-depth component rows
    partition: Partition | None
    mirror: tuple[np.ndarray, np.ndarray] | None  # transposed cells and relabelled tiles
    partition2: Partition | None = None  # the second partition (``Spec.pdb2``)

    def start(self, board: Board) -> tuple[np.ndarray, int]:
        """The first component row and the heuristic value of ``board``."""
        from .._kernels.bounds import H_COL, H_INV_H, H_INV_V, H_MD, H_MSUM, H_ROW, H_SUM, MIRROR
        from .inversion import inversion_counts
        from .walking_distance import walking_indices

        b = self.bounds
        row = np.zeros(self.columns, dtype=np.int64)
        md = board.manhattan(self.goal)
        row[H_MD] = h = md
        if self.spec.wd:
            row[H_ROW], row[H_COL] = walking_indices(board, self.goal)
            h = int(b.wd_rows[row[H_ROW]]) + int(b.wd_cols[row[H_COL]])
            row[H_MD] = h  # the kernel then keeps the walking distance there
        if self.spec.id:
            row[H_INV_V], row[H_INV_H] = inversion_counts(board, self.goal)
            h = max(h, _up_to_parity(int(b.id_rows[row[H_INV_V]] + b.id_cols[row[H_INV_H]]), md))
        if self.partition is not None:
            parts = [self.partition] + ([self.partition2] if self.partition2 is not None else [])
            views = [list(board.tiles)]
            if self.mode & MIRROR:
                assert self.mirror is not None  # the MIRROR bit is set only with a mirror map
                mirror, relabel = self.mirror
                tiles = [0] * board.size
                for cell, tile in enumerate(board.tiles):
                    tiles[int(mirror[cell])] = int(relabel[tile])
                views.append(tiles)
            h = max(h, _pattern_start(row, parts, views, board, md, (H_SUM, H_MSUM)))
        return row, h

    def value(self, board: Board) -> int:
        return self.start(board)[1]


def _pattern_start(row: np.ndarray, parts: list[Partition], views: list[list[int]], board: Board, md: int,
                   sums: tuple[int, int]) -> int:
    """Fill ``row``'s pattern columns (``_kernels.bounds``) for every partition of ``parts`` on
    every view of the board (its tiles by cell: direct, then mirrored); return the largest sum.
    The first partition's sums go to ``sums``, the second's to the row's last two columns."""
    from .._kernels.bounds import H_PAT
    from .pattern_db import pocket_class, rank

    npat = sum(len(part.groups) for part in parts)
    h = 0
    for v, tiles in enumerate(views):
        at = {tile: cell for cell, tile in enumerate(tiles)}
        first = 0
        for j, part in enumerate(parts):
            groups = part.groups
            ranks = [rank([at[t] for t in g[: part.kept(i)]], board.size) for i, g in enumerate(groups)]
            pockets = [pocket_class({at[t] for t in g}, at[0], board.height, board.width) for g in groups]
            entries = [part.entry(i, r, k) for i, (r, k) in enumerate(zip(ranks, pockets, strict=True))]
            base = H_PAT + 2 * v * npat + first
            row[base : base + len(groups)] = ranks
            row[base + npat : base + npat + len(groups)] = entries
            total = md + 2 * sum(entries)  # see _kernels.bounds: the mirror keeps md
            row[sums[v] if j == 0 else row.shape[0] - 2 + v] = total
            h = max(h, total)
            first += len(groups)
    return h


def _up_to_parity(value: int, md: int) -> int:
    return value + ((value ^ md) & 1)


def kernel_heuristic(name: str | Spec, height: int, width: int, goal: Goal = "standard") -> KernelHeuristic:
    """Prepare the tables of heuristic ``name`` (a name, parsed and the goal checked, or a
    ``Spec`` already parsed, for a goal already checked) for ``height x width`` boards and ``goal``.

    Raises ``MissingTableError`` (naming the build command) if a pattern database is not built."""
    if isinstance(name, str):
        check_goal(goal)
    return _kernel_heuristic(as_spec(name), height, width, goal)


def as_spec(name: str | Spec) -> Spec:
    """``name`` parsed, or the ``Spec`` given (never parsed twice)."""
    return name if isinstance(name, Spec) else parse(name)


@functools.cache
def _kernel_heuristic(spec: Spec, height: int, width: int, goal: Goal) -> KernelHeuristic:
    from .._kernels.bounds import H_PAT, ID, MIRROR, PDB, SECOND, WD, ZA, Bounds
    from .inversion import id_table
    from .walking_distance import walking_tables

    n = height * width
    u8 = np.zeros(1, np.uint8)
    i32 = np.zeros(1, np.int32)
    i64 = np.zeros(1, np.int64)
    u64 = np.zeros(1, np.uint64)
    home = geometry(height, width, goal).home
    goal_row, goal_col = home // width, home % width
    mode = 0
    wd = (u8, i32, u8, i32)
    if spec.wd:
        rows, cols = walking_tables(height, width, goal)
        wd = (rows.dist, rows.steps(), cols.dist, cols.steps())
        mode |= WD
    inv = (i64, i64, i64)
    if spec.id:
        pairs = n * (n - 1) // 2
        column_major = goal_col * height + goal_row
        inv = (id_table(pairs, width - 1), id_table(pairs, height - 1), column_major)
        mode |= ID
    no_pdb = np.zeros(1, np.uint8)
    no_pdb.setflags(write=False)  # as the store's tables: one A* kernel serves bounds with and without them
    pat = (no_pdb, i64, i64, i64, i64, i64, i64, i64, u64)
    partition = None
    mirrored = None
    npat = 0
    second = None
    if spec.pdb is not None:
        from .pattern_db import load_partition

        partition = load_partition(spec.pdb, height, width, goal)
        second = load_partition(spec.pdb2, height, width, goal) if spec.pdb2 is not None else None
        npat = len(partition.groups)
        mode |= PDB | (ZA if partition.per == 2 else 0)
        pat_of, pidx, pmult = _lookup(partition, n, 0)
        mirror, mpat_of, midx, mmult = u64, i64, i64, i64
        mirrored = mirror_map(height, width, goal)
        if mirrored is not None:
            mirror, relabel = mirrored
            mpat_of, midx, mmult = pat_of[relabel], pidx[relabel], pmult[relabel]
            mode |= MIRROR
        pat = (partition.data, partition.offsets, pat_of, pidx, pmult, mpat_of, midx, mmult, mirror)
        if second is not None:
            if second.per == 2 or partition.per == 2:
                raise InvalidOptionError("a second partition does not combine with blank-aware tables")
            pat2_of, pidx2, pmult2 = _lookup(second, n, npat)
            mirror2 = (pat2_of[relabel], pidx2[relabel], pmult2[relabel]) if mirrored is not None else (i64, i64, i64)
            off2 = np.concatenate([np.zeros(npat, np.int64), second.offsets])
            pat = (*pat, second.data, off2, pat2_of, pidx2, pmult2, *mirror2)
            npat += len(second.groups)
            mode |= SECOND
    bounds = Bounds(*wd, goal_row, goal_col, *inv, *pat)
    columns = H_PAT + 4 * npat + (2 if second is not None else 0)
    return KernelHeuristic(spec, height, width, goal, mode, bounds, columns, partition, mirrored, second)


def _lookup(partition: Partition, n: int, first: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each tile's pattern (numbered from ``first``; -1 for the blank), place in its pattern and
    rank weight: a compressed tile weighs nothing, its place is not in the index."""
    pat_of = np.where(partition.pattern_of >= 0, partition.pattern_of + first, -1).astype(np.int64)
    pidx = np.zeros(n, dtype=np.int64)
    pmult = np.zeros(n, dtype=np.int64)
    for p, g in enumerate(partition.groups):
        kept = partition.kept(p)
        for i, t in enumerate(g):
            pidx[t] = i
            pmult[t] = math.perm(n - i - 1, kept - i - 1) if i < kept else 0
    return pat_of, pidx, pmult


def evaluate(board: Board, goal: Goal, name: str | Spec) -> int:
    """The value of heuristic ``name`` (or its ``Spec``) for ``board`` (plain Python; the kernel agrees)."""
    spec = as_spec(name)
    if not spec.extended:
        from . import linear_conflict, manhattan

        return linear_conflict.value(board, goal) if spec.lc else manhattan.value(board, goal)
    return kernel_heuristic(spec, board.height, board.width, goal).value(board)


def first_bound(board: Board, goal: Goal, name: str | Spec) -> tuple[str, int]:
    """The heuristic a search of ``board`` starts from (``auto`` resolved as ``auto_heuristic``
    does) and its value, the first bound of IDA* and A*: pattern databases built only for the
    other goal convention are read on the board turned 180 degrees (``Board.converted``), whose
    distance to that goal is the same, as the searches read them.

    >>> from npuzzle import Board
    >>> first_bound(Board(2, 2, (1, 2, 0, 3)), "standard", "lc")
    ('lc', 1)
    """
    spec = parse(auto_heuristic(board.height, board.width, goal)[0]) if name == "auto" else as_spec(name)
    other: Goal = "blank-first" if goal == "standard" else "standard"
    if spec.pdb is not None:
        from . import pattern_db

        h, w = board.shape
        if not pattern_db.is_built(spec.pdb, h, w, goal) and pattern_db.is_built(spec.pdb, h, w, other):
            return spec.name, evaluate(board.converted(), other, spec)
    return spec.name, evaluate(board, goal, spec)


#: Largest side of a board whose walking-distance tables ``auto`` builds on the fly (4x4: 0.2 s,
#: once: they are kept in the table store).
AUTO_WD_SIDE = 4


def auto_heuristic(height: int, width: int, goal: Goal) -> tuple[str, str]:
    """The heuristic ``auto`` picks, and a hint (empty if none) naming a build that would help.

    The fastest tables measured for the shape (``pattern_db.BEST``: 7-8 on 4x4) when all are
    built; else the strongest pattern database already built (with the walking distance unless it
    is the 7-8 one); else the walking and inversion distances where their
    tables build in well under a second; else linear conflict. It never starts a table build; a
    damaged pattern database is reported once (a ``TableWarning``) and the next bound used."""
    from . import pattern_db

    fastest = pattern_db.best_usable(height, width, goal)
    if fastest is not None:
        return fastest, ""
    wd_ok = max(height, width) <= AUTO_WD_SIDE and min(height, width) >= 2
    built = pattern_db.usable(height, width, goal)  # a damaged one is reported and skipped
    shipped = pattern_db.SHIPPED.get((height, width), ())
    hint = ""
    if shipped and (not built or built[0] != shipped[0]):
        hint = (f"a stronger bound: {pattern_db.build_command(shipped[0], height, width, goal)}"
                + pattern_db.build_note(shipped[0], height, width, goal))
    if built:
        return f"pdb:{built[0]}" + ("+wd" if wd_ok and built[0] != "7-8" else ""), hint
    return ("wd+id" if wd_ok else "lc"), hint
