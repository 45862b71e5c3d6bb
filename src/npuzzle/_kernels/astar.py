"""A* over any m x n board: best-first search run in slices, every bit of state in arrays.

Encoding. A position is packed into the int64 words of one row of ``keys``: ``bits`` bits per
cell (4 up to 16 cells, 5 up to 32, 6 up to 64), ``60 // bits`` cells per word, and only cells
0..n-2 are stored: the last cell holds the one tile the others lack. So every board of up to 16
cells fits in one word and a 5x5 board in two; no word reaches 2**60, so none is negative.

Arena. Node i has ``keys[i]`` (its position), ``g[i]``, ``parent[i]`` (-1 at the root),
``info[i]`` (bits 0-2: the blank direction from the parent, ROOT at the root; EXPANDED; STALE:
replaced by a copy with a smaller g) and ``link[i]``, the next node of its open bucket.

Seen set. ``table`` is open addressing with linear probing, at most half full (it has two slots
per arena node, fewer than 2**32); a slot holds -1 or the arena index of the live (not stale)
node of a position. A hash's top 31 bits, scaled to the table's size, give the first slot.

Open list. For a weight w = num / den a node's priority is P = den * g + num * h (P = f when
w = 1). ``heads[P, g]`` is the top of a stack (linked through ``link``) of the open nodes with
that P and g, so nodes are expanded by smallest P, then largest g, then last pushed.
``counts[P]`` is the number of nodes stacked at P, stale ones included; a stale node is dropped
when it reaches the top. With a consistent heuristic nothing is reopened: a node already
expanded keeps its g. With pattern databases (not consistent, see below) a position reached
again by a shorter path is reopened: a new copy goes on the open list, expanded or not.

Lower bound. Every node is expanded with g <= w * (its true distance) (consistent h; with
reopening, some open node of an optimal path always has its true g), so when P is the smallest
open priority, optimum >= P / num, rounded up to the parity every solution of the start has.

Heuristics (``mode``, the bits of ``_kernels.bounds``). Manhattan distance and
linear conflict (``LC``) are updated from the parent's h. The extended modes (walking distance,
inversion distance, pattern databases, combined by max) first compute the expanded node's
components from its board (``_components``: walking-table indices found through ``wd_find``,
see ``heuristics.walking_distance.hashed_indices``; inversion counts; pattern ranks and values,
direct and mirrored), then each child's value from them with the per-move updates of the IDA*
kernel, so a child costs what it costs there. Every heuristic but the pattern databases changes
by exactly one on every move, so it is consistent. A pattern database's value of a placement is
its least cost over every cell of the blank, so one move can change it by 3, 5 or more (the
blank passes into a region where the pattern's tiles cost less to bring home): with ``PDB`` in
the mode the kernel reopens. It checks what it relies on: a parent whose h computed from its
board differs from the one its priority holds, or (consistent modes) a child whose h differs
from its parent's by other than one, (``PDB``) by an even amount, stops the search with
INCONSISTENT.

Blank directions: 0 up, 1 left, 2 right, 3 down, so ``3 - d`` undoes ``d``;
``nbr[cell * 4 + d]`` is the cell the blank reaches, or -1.

Arguments. ``astar_slice`` takes named tuples: the board's ``Grid`` (``_kernels.bounds``), the
``Heuristic`` (mode bits, the ``Bounds``, the walking tables' ``WdFind`` and the width of a
component row) and the ``Arena`` above; ``ctl`` holds the scalars between calls, at the places
``C_*``: the arena's nodes, the open nodes, the current P (no open node has a smaller one), the
current g (no open node at the current P has a larger one), nodes generated and expanded, the
lower bound proven, the goal node (when FOUND), the parity of every solution length and the
expanded positions reopened.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .bounds import (
    EXTENDED,
    H_COL,
    H_INV_H,
    H_INV_V,
    H_MD,
    H_MSUM,
    H_PAT,
    H_ROW,
    H_SUM,
    ID,
    LC_LINES,
    MIRROR,
    PDB,
    WD,
    ZA,
    Bounds,
    first_at_least,
    line_conflicts,
    passed_columns,
    passed_rows,
    pdb_entry,
    rank_delta,
    za_entry,
)
from .jit import njit

# Statuses returned by ``astar_slice``.
EXHAUSTED = 0
FOUND = 1
SLICE_DONE = 2
NEW_BOUND = 3
NEED_NODES = 4
NEED_BUCKETS = 5
INCONSISTENT = 6

#: ``mode`` bit of linear conflict, recomputed on the two lines a move changes (the others are
#: ``_kernels.bounds``' WD, ID, PDB, MIRROR).
LC = LC_LINES

#: Places in ``ctl`` (see the module docstring).
C_NODES, C_OPEN, C_P, C_G, C_GENERATED, C_EXPANDED, C_BOUND, C_GOAL, C_PARITY, C_REOPENED = range(10)
CTL_SIZE = 10


class WdFind(NamedTuple):
    """The walking tables' hashed indices (``heuristics.walking_distance.hashed_indices``) of the
    rows and of the columns (one-element placeholders without ``WD``)."""

    row_weights: np.ndarray
    row_keys: np.ndarray
    row_index: np.ndarray
    col_weights: np.ndarray
    col_keys: np.ndarray
    col_index: np.ndarray


class Heuristic(NamedTuple):
    """A*'s lower bound: its mode bits (``_kernels.bounds``, with ``LC``), its arrays, the walking
    tables' indices and the width of a component row (``heuristics.registry.KernelHeuristic``)."""

    mode: int
    bnd: Bounds
    wd_find: WdFind
    columns: int


class Arena(NamedTuple):
    """The nodes, the seen set and the open list (see the module docstring)."""

    keys: np.ndarray
    g: np.ndarray
    parent: np.ndarray
    info: np.ndarray
    link: np.ndarray
    table: np.ndarray
    heads: np.ndarray
    counts: np.ndarray


# ``info`` bits.
DIRECTION = 7
ROOT = 4
EXPANDED = 8
STALE = 16


@njit
def first_slot(keys, row, size):
    """The table slot where the search for the packed position ``keys[row]`` starts."""
    h = np.int64(0)
    for w in range(keys.shape[1]):
        h = (h ^ keys[row, w]) * np.int64(-7046029254386353131)
        h ^= h >> 29
    return (((h >> 32) & np.int64(0x7FFFFFFF)) * size) >> 31


@njit
def rehash(keys, info, nodes, table):
    """Fill ``table`` (all -1 first) with every live node of the arena."""
    size = table.shape[0]
    table[:] = -1
    for k in range(nodes):
        if info[k] & STALE:
            continue
        slot = first_slot(keys, k, size)
        while table[slot] >= 0:
            slot = slot + 1 if slot + 1 < size else 0
        table[slot] = k


@njit
def _set_cell(keys, row, cell, value, bits, n):
    """Store ``value`` for ``cell`` in the packed position ``keys[row]`` (the last cell is implied)."""
    if cell == n - 1:
        return
    per_word = 60 // bits
    w = cell // per_word
    shift = (cell % per_word) * bits
    field = ((np.int64(1) << bits) - 1) << shift
    keys[row, w] = (keys[row, w] & ~field) | (np.int64(value) << shift)


@njit
def _unpack(keys, row, bits, n, cells):
    """Write the position ``keys[row]`` into ``cells``; return the blank's cell."""
    per_word = 60 // bits
    fmask = (np.int64(1) << bits) - 1
    total = n * (n - 1) // 2
    blank = n - 1
    for cell in range(n - 1):
        t = (keys[row, cell // per_word] >> ((cell % per_word) * bits)) & fmask
        cells[cell] = t
        total -= t
        if t == 0:
            blank = cell
    cells[n - 1] = total
    return blank


@njit
def _conflict_change(cells, goal_row, goal_col, width, height, blank, q, tile, d, seq, lis):
    """Change of the linear-conflict count when ``tile`` at ``q`` slides into ``blank``."""
    across = d == 1 or d == 2  # the tile changes column
    a = blank % width if across else blank // width
    b = q % width if across else q // width
    old = line_conflicts(cells, goal_row, goal_col, width, height, a, not across, seq, lis) + line_conflicts(
        cells, goal_row, goal_col, width, height, b, not across, seq, lis
    )
    cells[blank] = tile
    cells[q] = 0
    new = line_conflicts(cells, goal_row, goal_col, width, height, a, not across, seq, lis) + line_conflicts(
        cells, goal_row, goal_col, width, height, b, not across, seq, lis
    )
    cells[q] = tile
    cells[blank] = 0
    return new - old


@njit
def _table_index(cells, n, weights, keys, index):
    """The walking-table index of the board ``cells`` (-1 if its key is not a table's)."""
    key = np.uint64(0)
    for c in range(n):
        key += weights[c * n + cells[c]]
    j = first_at_least(keys, keys.shape[0], key)
    if j >= keys.shape[0] or keys[j] != key:
        return -1
    return np.int64(index[j])


_U1 = np.uint64(1)
_U2 = np.uint64(2)
_U4 = np.uint64(4)
_U56 = np.uint64(56)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(inline=True)
def _popcount(x):
    """Number of bits set in the uint64 ``x``."""
    x = x - ((x >> _U1) & _M1)
    x = (x & _M2) + ((x >> _U2) & _M2)
    x = (x + (x >> _U4)) & _M4
    return np.int64((x * _H01) >> _U56)


@njit(inline=True)
def _bit(i):
    return _U1 << np.uint64(i)


@njit
def _inversions(cells, n, width, height, goal_cm):
    """Inversions of the tiles read row by row (tile numbers are in row-major goal order) and
    read column by column (``goal_cm[tile]``: the tile's goal position in that order): for each
    tile, the tiles read before it that come after it in the goal, counted in a bit set."""
    rows = 0
    cols = 0
    seen_r = np.uint64(0)
    seen_c = np.uint64(0)
    for a in range(n):
        t = cells[a]
        if t != 0:
            rows += _popcount(seen_r >> np.uint64(t))
            seen_r |= _bit(t)
        t = cells[(a % height) * width + a // height]
        if t != 0:
            k = goal_cm[t]
            cols += _popcount(seen_c >> np.uint64(k))
            seen_c |= _bit(k)
    return rows, cols


@njit
def _pattern_order(pat_of, pidx, n, npat, order, start):
    """``order[start[p] + i]``: the i-th tile of pattern p; ``start[npat]`` the number of tiles."""
    start[:] = 0
    for t in range(1, n):
        start[pat_of[t] + 1] += 1
    for p in range(npat):
        start[p + 1] += start[p]
    for t in range(1, n):
        order[start[pat_of[t]] + pidx[t]] = t


@njit
def _pattern_orders(mode, bnd, n, columns):
    """``_pattern_order`` of the direct (row 0) and the mirrored lookup (row 1), as the modes use them."""
    npat = (columns - H_PAT) // 4
    order = np.zeros((2, n), np.int64)
    start = np.zeros((2, npat + 1), np.int64)
    if mode & PDB:
        _pattern_order(bnd.pat_of, bnd.pidx, n, npat, order[0], start[0])
    if mode & MIRROR:
        _pattern_order(bnd.mpat_of, bnd.midx, n, npat, order[1], start[1])
    return order, start


@njit
def _pattern_ranks(where, order, start, pmult, mirror, mirrored, ranks):
    """Fill ``ranks`` with every pattern's rank (see ``_kernels.idastar._rank_delta``): the sum over
    its tiles of ``pmult[tile] * (cell - earlier tiles of the pattern on lower cells)``, where
    ``where[tile]`` is the tile's cell, transposed by ``mirror`` if ``mirrored``."""
    for p in range(ranks.shape[0]):
        r = 0
        taken = np.uint64(0)  # the cells of the pattern's earlier tiles
        for j in range(start[p], start[p + 1]):
            t = order[j]
            c = np.int64(mirror[where[t]]) if mirrored else where[t]
            r += pmult[t] * (c - _popcount(taken & (_bit(c) - _U1)))
            taken |= _bit(c)
        ranks[p] = r


@njit
def _pattern_sum(pdb, pat_off, ranks, entries, manhattan, za, cells, blank, pat_of, nbr):
    """Look every pattern's rank up; fill ``entries`` and return the sum of the values (the
    Manhattan distance plus twice the entries: see ``_kernels.bounds``). ``za``: the tables are
    blank-aware (the blank on cell ``blank`` of ``cells``; ``pat_of``: the lookup's patterns)."""
    total = manhattan
    for p in range(ranks.shape[0]):
        if za:
            entries[p] = za_entry(pdb, pat_off[p] + 2 * ranks[p], cells, blank, -1, p, pat_of, nbr)
        else:
            entries[p] = pdb_entry(pdb, pat_off[p] + ranks[p])
        total += 2 * entries[p]
    return total


@njit
def _components(heur, grid, cells, comp, where, order, start):
    """Fill ``comp`` (the ``H_*`` columns of ``_kernels.bounds``) with the components of
    the board ``cells`` and return its heuristic value (-1 if a walking table is not found).
    ``where`` is scratch; ``order[v]``, ``start[v]`` list the patterns' tiles for the direct
    (v = 0) and the mirrored lookup (see ``_pattern_order``)."""
    mode, bnd, wd_find = heur.mode, heur.bnd, heur.wd_find
    md, nbr, width, height = grid.md, grid.nbr, grid.width, grid.height
    n = width * height
    npat = (comp.shape[0] - H_PAT) // 4
    comp[:] = 0
    manhattan = 0
    for c in range(n):
        manhattan += md[c * n + cells[c]]
    h = manhattan
    if mode & WD:
        ir = _table_index(cells, n, wd_find.row_weights, wd_find.row_keys, wd_find.row_index)
        ic = _table_index(cells, n, wd_find.col_weights, wd_find.col_keys, wd_find.col_index)
        if ir < 0 or ic < 0:
            return -1
        comp[H_ROW] = ir
        comp[H_COL] = ic
        h = np.int64(bnd.wd_rows[ir]) + np.int64(bnd.wd_cols[ic])
    comp[H_MD] = h  # the walking distance if used: of the Manhattan distance's parity
    if mode & ID:
        iv, ih = _inversions(cells, n, width, height, bnd.goal_cm)
        comp[H_INV_V] = iv
        comp[H_INV_H] = ih
        x = bnd.id_rows[iv] + bnd.id_cols[ih]
        h = max(h, x + ((x ^ manhattan) & 1))
    if mode & PDB:
        for c in range(n):
            where[cells[c]] = c
        _pattern_ranks(where, order[0], start[0], bnd.pmult, bnd.mirror, False, comp[H_PAT : H_PAT + npat])
        x = _pattern_sum(bnd.pdb, bnd.pat_off, comp[H_PAT : H_PAT + npat], comp[H_PAT + npat : H_PAT + 2 * npat],
                         manhattan, (mode & ZA) != 0, cells, where[0], bnd.pat_of, nbr)
        comp[H_SUM] = x
        h = max(h, x + ((x ^ manhattan) & 1))
    if mode & MIRROR:
        base = H_PAT + 2 * npat
        _pattern_ranks(where, order[1], start[1], bnd.mmult, bnd.mirror, True, comp[base : base + npat])
        x = _pattern_sum(bnd.pdb, bnd.pat_off, comp[base : base + npat], comp[base + npat : base + 2 * npat],
                         manhattan, (mode & ZA) != 0, cells, where[0], bnd.mpat_of, nbr)
        comp[H_MSUM] = x
        h = max(h, x + ((x ^ manhattan) & 1))
    return h


@njit
def _child_value(heur, grid, cells, ucells, blank, q, comp):
    """The heuristic value after the tile at ``q`` slides into ``blank``, from the parent's
    components ``comp``, by the IDA* kernel's per-move updates (``ucells``: the board as uint64)."""
    mode, bnd = heur.mode, heur.bnd
    md, nbr, width, height = grid.md, grid.nbr, grid.width, grid.height
    n = width * height
    npat = (comp.shape[0] - H_PAT) // 4
    t = cells[q]
    vertical = q // width != blank // width
    if mode & WD:
        toward = np.int64(q < blank)  # the blank steps up (or left)
        if vertical:
            step = np.int64(bnd.wd_row_steps[((comp[H_ROW] << 1) + 1 - toward) * height + bnd.goal_row[t]])
        else:
            step = np.int64(bnd.wd_col_steps[((comp[H_COL] << 1) + 1 - toward) * width + bnd.goal_col[t]])
        hc = comp[H_MD] + 2 * (step & 1) - 1
    else:
        hc = comp[H_MD] + md[blank * n + t] - md[q * n + t]
    par = hc  # the Manhattan distance's parity
    ut = ucells[q]
    uq = np.uint64(q)
    ub = np.uint64(blank)
    if mode & ID:
        iv = comp[H_INV_V]
        ih = comp[H_INV_H]
        if vertical:
            iv += passed_rows(ucells, ut, uq, ub)
        else:
            ih += passed_columns(ucells, bnd.goal_cm, width, np.uint64(n), ut, uq, ub)
        x = bnd.id_rows[iv] + bnd.id_cols[ih]
        hc = max(hc, x + ((x ^ par) & 1))
    if mode & PDB:
        pdb, pat_off, pat_of = bnd.pdb, bnd.pat_off, bnd.pat_of
        p = pat_of[t]
        rank = comp[H_PAT + p] + rank_delta(ucells, ut, uq, ub, p, pat_of, bnd.pidx, bnd.pmult, bnd.mirror, False)
        dt = md[blank * n + t] - md[q * n + t]  # t's change of Manhattan distance
        if mode & ZA:
            e = za_entry(pdb, pat_off[p] + 2 * rank, cells, q, blank, p, pat_of, nbr)
        else:
            e = pdb_entry(pdb, pat_off[p] + rank)
        x = comp[H_SUM] + dt + 2 * (e - comp[H_PAT + npat + p])
        hc = max(hc, x + ((x ^ par) & 1))
    if mode & MIRROR:
        pdb, pat_off, mpat_of = bnd.pdb, bnd.pat_off, bnd.mpat_of
        p = mpat_of[t]
        rank = comp[H_PAT + 2 * npat + p] + rank_delta(ucells, ut, uq, ub, p, mpat_of, bnd.midx, bnd.mmult,
                                                       bnd.mirror, True)
        dt = md[blank * n + t] - md[q * n + t]
        if mode & ZA:
            e = za_entry(pdb, pat_off[p] + 2 * rank, cells, q, blank, p, mpat_of, nbr)
        else:
            e = pdb_entry(pdb, pat_off[p] + rank)
        x = comp[H_MSUM] + dt + 2 * (e - comp[H_PAT + 3 * npat + p])
        hc = max(hc, x + ((x ^ par) & 1))
    return hc


@njit(inline=True)
def _probe(keys, table, child_keys, c):
    """The table slot of the packed position ``child_keys[c]`` and the arena node there (the
    live copy of that position), or the free slot it would take and -1."""
    size = table.shape[0]
    nwords = keys.shape[1]
    slot = first_slot(child_keys, c, size)
    while True:
        j = table[slot]
        if j < 0:
            return slot, j
        same = True
        for w in range(nwords):
            if keys[j, w] != child_keys[c, w]:
                same = False
                break
        if same:
            return slot, j
        slot = slot + 1 if slot + 1 < size else 0


@njit
def astar_slice(grid, heur, bits, num, den, arena, ctl, budget):
    """Expand open nodes until the goal is at the top (FOUND), the open list is empty
    (EXHAUSTED), the lower bound rises (NEW_BOUND), the next expansion would pass ``budget``
    more generated nodes (SLICE_DONE), or it needs a larger arena (NEED_NODES) or more buckets
    (NEED_BUCKETS); or the heuristic is found not consistent (INCONSISTENT). A node is expanded
    only once all its children fit, so every return leaves a consistent state that the next
    call resumes. ``grid``: the board's ``Grid``; ``heur``: its ``Heuristic``; ``bits``: bits
    per cell of a packed position; ``num / den``: the weight; ``arena``: the ``Arena``; ``ctl``:
    the scalars (``C_*``)."""
    keys, g, parent, info, link, table, heads, counts = arena
    mode, md, nbr, width, height = heur.mode, grid.md, grid.nbr, grid.width, grid.height
    goal_row, goal_col = heur.bnd.goal_row, heur.bnd.goal_col
    n = width * height
    nwords = keys.shape[1]
    cap, (pmax, gmax) = g.shape[0], heads.shape
    nodes, open_n, cur_p, cur_g = ctl[C_NODES], ctl[C_OPEN], ctl[C_P], ctl[C_G]
    generated, expanded, bound, reopened = ctl[C_GENERATED], ctl[C_EXPANDED], ctl[C_BOUND], ctl[C_REOPENED]
    parity = ctl[C_PARITY]
    stop_at = generated + budget
    use_lc = (mode & LC) != 0
    extended = (mode & EXTENDED) != 0
    reopen = (mode & PDB) != 0
    cells = np.empty(n, np.int64)
    ucells = np.empty(n, np.uint64)
    comp = np.zeros(heur.columns, np.int64)
    where = np.zeros(n, np.int64)
    order, start = _pattern_orders(mode, heur.bnd, n, heur.columns)
    child_keys = np.empty((4, nwords), np.int64)
    child_h = np.empty(4, np.int64)
    child_d = np.empty(4, np.int64)
    seq = np.empty(max(width, height), np.int64)
    lis = np.empty(max(width, height), np.int64)
    status = EXHAUSTED
    while True:
        if open_n == 0:
            status = EXHAUSTED
            break
        while counts[cur_p] == 0:
            cur_p += 1
            cur_g = min(gmax - 1, cur_p // den)
        while heads[cur_p, cur_g] < 0:
            cur_g -= 1
        i = heads[cur_p, cur_g]
        if info[i] & STALE:
            heads[cur_p, cur_g] = link[i]
            counts[cur_p] -= 1
            open_n -= 1
            continue
        lb = (cur_p + num - 1) // num
        if (lb & 1) != parity:
            lb += 1
        if lb > bound:
            bound = lb
            status = NEW_BOUND
            break
        h = (cur_p - den * cur_g) // num
        if h == 0:
            ctl[C_GOAL] = i
            status = FOUND
            break
        blank = _unpack(keys, i, bits, n, cells)
        if extended:
            for c in range(n):
                ucells[c] = cells[c]
            raw = _components(heur, grid, cells, comp, where, order, start)
            if raw != h:
                status = INCONSISTENT
                break
        came = info[i] & DIRECTION
        nc = 0
        for d in range(4):
            q = nbr[blank * 4 + d]
            if q < 0 or (came != ROOT and d == 3 - came):
                continue
            tile = cells[q]
            if extended:
                hc = _child_value(heur, grid, cells, ucells, blank, q, comp)
            else:
                hc = h + md[blank * n + tile] - md[q * n + tile]
                if use_lc:
                    hc += 2 * _conflict_change(cells, goal_row, goal_col, width, height, blank, q, tile, d, seq, lis)
            if (hc != h + 1 and hc != h - 1) if not reopen else ((hc ^ h) & 1) == 0:
                nc = -1
                break
            for w in range(nwords):
                child_keys[nc, w] = keys[i, w]
            _set_cell(child_keys, nc, blank, tile, bits, n)
            _set_cell(child_keys, nc, q, 0, bits, n)
            child_h[nc] = hc
            child_d[nc] = d
            nc += 1
        if nc < 0:
            status = INCONSISTENT
            break
        if nodes + nc > cap:
            status = NEED_NODES
            break
        gc = cur_g + 1
        fits = gc < gmax
        for c in range(nc):
            if den * gc + num * child_h[c] >= pmax:
                fits = False
        if not fits:
            status = NEED_BUCKETS
            break
        if generated + nc > stop_at:
            status = SLICE_DONE
            break
        heads[cur_p, cur_g] = link[i]
        counts[cur_p] -= 1
        open_n -= 1
        info[i] |= EXPANDED
        expanded += 1
        generated += nc
        for c in range(nc):
            slot, j = _probe(keys, table, child_keys, c)
            if j >= 0:
                if gc >= g[j]:
                    continue
                if info[j] & EXPANDED:
                    if not reopen:
                        continue
                    reopened += 1
                info[j] |= STALE
            k = nodes
            nodes += 1
            table[slot] = k
            for w in range(nwords):
                keys[k, w] = child_keys[c, w]
            g[k] = gc
            parent[k] = i
            info[k] = child_d[c]
            p = den * gc + num * child_h[c]
            link[k] = heads[p, gc]
            heads[p, gc] = k
            counts[p] += 1
            open_n += 1
            if p < cur_p or (p == cur_p and gc > cur_g):
                cur_p = p
                cur_g = gc
    ctl[C_NODES], ctl[C_OPEN], ctl[C_P], ctl[C_G] = nodes, open_n, cur_p, cur_g
    ctl[C_GENERATED], ctl[C_EXPANDED], ctl[C_BOUND], ctl[C_REOPENED] = generated, expanded, bound, reopened
    return status


# -- the open list, for IDA* below it (``search.hybrid``) --------------------------------------


@njit
def open_nodes(heads, link, info, num, den, nodes, hs):
    """The open nodes (not stale) into ``nodes``, each one's h (from its bucket: P = den * g +
    num * h) into ``hs``; return how many there are."""
    k = 0
    for p in range(heads.shape[0]):
        for gb in range(heads.shape[1]):
            i = heads[p, gb]
            while i >= 0:
                if not info[i] & STALE:
                    nodes[k] = i
                    hs[k] = (p - den * gb) // num
                    k += 1
                i = link[i]
    return k


@njit
def open_leaves(grid, heur, bits, keys, nodes, boards, blanks, rows):
    """For each arena node ``nodes[k]``: its board into ``boards[k]``, its blank's cell into
    ``blanks[k]`` and (extended modes) its components into ``rows[k]`` (``_components``; no
    automaton state)."""
    n = grid.width * grid.height
    where = np.zeros(n, np.int64)
    order, start = _pattern_orders(heur.mode, heur.bnd, n, rows.shape[1])
    cells = np.empty(n, np.int64)
    for k in range(nodes.shape[0]):
        blanks[k] = _unpack(keys, nodes[k], bits, n, cells)
        for c in range(n):  # not boards[k, :] = cells: numba would compile its shape check's message
            boards[k, c] = cells[c]
        if heur.mode & EXTENDED:
            _components(heur, grid, cells, rows[k], where, order, start)
