"""Pattern-database construction: breadth-first search over the placements of a pattern's tiles.

A state is a placement of the pattern's k tiles on the n cells together with the blank's cell.
Moving a pattern tile costs 1; moving any other tile costs nothing, so the blank roams freely
over the connected region of free cells around it. The search therefore goes level by level
(level d holds the states at cost d): a state on level d first floods its blank's region (all at
cost d), then every pattern tile next to the region may step into it, reaching level d + 1 with
the blank where the tile was. A placement's value is the lowest level of any of its states (the
blank may be anywhere); a blank-aware build keeps two, the lowest level of the placement's regions
of more than ``POCKET`` cells and that of its smaller ones (``level``'s ``za``).

Ranking (perfect, shared with the IDA* kernel): the i-th tile's digit, base n - i, counts the
free cells below its cell once tiles 0..i-1 are placed; the rank is the mixed-radix number of
the digits, tile i's weight ``mult[i]`` the product of the later bases.

Storage. ``codes`` holds one word per placement (indexed by rank; 32 bits up to 16 cells, else
64) with two bits per cell, bits 2c and 2c + 1 for the blank on cell c: 0 unseen, 3 done, and
1 / 2 for the current and the next level, whose roles swap from level to level (so nothing is
ever relabelled); the fields of the pattern's own cells stay 0. Fields by cell rather than by
free cell cost twice the memory for a half-full board (2 GB for 8 tiles of the 15-puzzle) but
put a placement in one word, addressed by cell masks without conversion. ``dist`` keeps one byte
per placement (255 until reached).

A level scans ``codes`` in rank order, ``BLOCK`` placements at a time (blocks without a field on
the level are skipped). A placement with such fields is unranked by table look-ups
(``unrank_tables``), its value set if it has none, and its level-d regions handled in one
register word: each region is flooded once and all its fields become done, then every pattern
tile next to the region yields a successor, whose rank is the placement's plus a delta: one
weight ``mult[i]`` for a step along a row (no cell lies between the two), ``_vertical`` for a
step along a column.

Two choices keep the random memory traffic to one access per successor, several of them in
flight at once (the cost of a level is the work per placement, not cache misses):

- A placement's value is set when it is expanded, not when it is reached: ``dist[r] = d`` on the
  first level on which placement r has a field to expand (sequential access). It is the same
  value: on its lowest level L the placement has a field (a state is on a level through a field
  of its region), which is expanded on level L or made done there by the flood of another of its
  regions expanded on level L; and no field of it is expanded before L.
- Successors are gathered (``BATCH`` of them) and applied after further placements were
  expanded, in a loop without branches on the loaded words (``_apply``: an unseen field becomes
  ``next``). Every field ends the level with the code it would have had: a successor is always
  another placement (a pattern tile moved), and it writes only into unseen fields, so it changes
  neither which fields of the level are expanded nor any region's flood; a flood writes "done"
  into its own placement only, and a field it closes before a successor arrives stays done, as
  it would once the flood came after. Fields are counted where they change from unseen to next,
  one entry after the other, so a state reached twice on a level counts once. ``states`` is that
  count; some of those fields may be made done later on the same level, so a level with
  ``states > 0`` may be followed by one that expands nothing (and returns 0, 0), which ends the
  search as well.
"""

from __future__ import annotations

import math

import numpy as np

from .bounds import POCKET
from .jit import njit

UNSEEN = 255
#: Successors gathered before they are applied (enough to keep many cache misses in flight).
BATCH = 1024
#: Placements looked at together when skipping those without a field on the level.
BLOCK = 16


@njit(inline=True)
def _pop(x):
    c = 0
    while x:  # compiled to one popcount instruction
        x &= x - 1
        c += 1
    return c


@njit(inline=True)
def _spread(m):
    """Bit c of a cell mask (cells 0..31) moved to bit 2c: the low bits of the cells' fields."""
    m = (m | (m << 16)) & 0x0000FFFF0000FFFF
    m = (m | (m << 8)) & 0x00FF00FF00FF00FF
    m = (m | (m << 4)) & 0x0F0F0F0F0F0F0F0F
    m = (m | (m << 2)) & 0x3333333333333333
    return (m | (m << 1)) & 0x5555555555555555


@njit(inline=True)
def _vertical(a, i, width, earlier, occ, tile_at, mult):
    """Rank change when tile ``i`` steps down from cell ``a`` to ``a + width`` (the negative for
    the step up back). Its digit grows by ``width`` less the earlier tiles on the cells strictly
    between (``earlier``: the cells of tiles 0..i-1); each later tile there is now below it rather
    than above, and its digit grows by 1."""
    between = ((1 << (width - 1)) - 1) << (a + 1)
    step = (width - _pop(earlier & between)) * mult[i]
    later = occ & between & ~earlier
    while later:
        step += mult[tile_at[_pop((later & -later) - 1)]]
        later &= later - 1
    return step


@njit(inline=True)
def _column_masks(n, width):
    """The cells of the left and of the right column, as masks."""
    left_col = 0
    for row in range(n // width):
        left_col |= 1 << (row * width)
    return left_col, left_col << (width - 1)


@njit(inline=True)
def _place_hi(hi_cells, hi_free, hi, tile_at, earlier_at, free_hi):
    """Put the first tiles of the placements numbered ``hi`` (ranks ``hi * lo_count`` on) on
    their cells (``tile_at``, ``earlier_at``), list the cells they leave free in ``free_hi``
    and return their cells."""
    occ = 0
    for i in range(hi_cells.shape[1]):
        c = hi_cells[hi, i]
        tile_at[c] = i
        earlier_at[c] = occ
        occ |= 1 << c
    for j in range(hi_free.shape[1]):
        free_hi[j] = hi_free[hi, j]
    return occ


@njit(inline=True)
def _place_lo(lo_pos, lo, free_hi, occ, k_hi, tile_at, earlier_at):
    """Put the other tiles of a placement (``lo``: its rank's low part) on their cells; return
    the cells of all its tiles (``occ``: those of the first ``k_hi``)."""
    for j in range(lo_pos.shape[1]):
        c = free_hi[lo_pos[lo, j]]
        tile_at[c] = k_hi + j
        earlier_at[c] = occ
        occ |= 1 << c
    return occ


@njit(inline=True)
def _flood(region, free, left_col, right_col, width):
    """``region`` grown over the ``free`` cells connected to it."""
    while True:
        grow = region | ((((region << 1) & ~left_col) | ((region >> 1) & ~right_col)
                          | (region << width) | (region >> width)) & free)
        if grow == region:
            return region
        region = grow


@njit(inline=True)
def _successors(buf, nb, r, region, occ, tile_at, earlier_at, mult, width, left_col, right_col, compact):
    """Queue (from ``buf[nb]`` on; returns the new count) the states reached from placement ``r``
    (cells ``occ``) when a pattern tile next to ``region`` steps into it and the blank takes its
    cell: to the left or right (cells at bits 0..31 and 32..63 of m), then up or down. Entries
    are ``rank << 6 | 2 * field``: the field is the tile's old cell, or with ``compact`` that
    cell's place among the free cells of the new placement (``level_compact``)."""
    m = (occ & (region << 1) & ~left_col) | ((occ & (region >> 1) & ~right_col) << 32)
    while m:
        b = _pop((m & -m) - 1)
        m &= m - 1
        pc = b & 31
        sign = 2 * (b >> 5) - 1
        f = _free_index(pc, occ, pc + sign) if compact else pc
        buf[nb] = ((r + sign * mult[tile_at[pc]]) << 6) | (2 * f)
        nb += 1
    m = (occ & (region << width)) | ((occ & (region >> width)) << 32)
    while m:
        b = _pop((m & -m) - 1)
        m &= m - 1
        pc = b & 31
        down = b >> 5
        step = _vertical(pc - (1 - down) * width, tile_at[pc], width, earlier_at[pc], occ, tile_at, mult)
        f = _free_index(pc, occ, pc + (2 * down - 1) * width) if compact else pc
        buf[nb] = ((r + (2 * down - 1) * step) << 6) | (2 * f)
        nb += 1
    return nb


@njit(inline=True)
def _free_index(c, occ, dest):
    """The place of cell ``c`` among the free cells once the tile on ``c`` has moved to ``dest``."""
    moved = (occ & ~(1 << c)) | (1 << dest)
    return c - _pop(moved & ((1 << c) - 1))


@njit(inline=True)
def _apply(codes, buf, nb, nxt):
    """Put the unseen fields among the ``nb`` gathered successors on the next level; return how
    many changed. Entries are ``rank << 6 | 2 * cell``. No branch waits on a load."""
    new_states = 0
    for j in range(nb):
        e = buf[j]
        r2 = e >> 6
        shift = e & 63
        y = np.int64(codes[r2])
        new = np.int64(((y >> shift) & 3) == 0)
        codes[r2] = y | ((new * nxt) << shift)
        new_states += new
    return new_states


@njit
def start(codes, goal_rank, goal_blank):
    """Put the goal placement with the goal blank on level 0 (code 1)."""
    codes[goal_rank] = np.int64(codes[goal_rank]) | (1 << (2 * goal_blank))


@njit
def level(codes, dist, n, width, d, cur, hi_cells, hi_free, lo_pos, mult, buf, za):
    """Expand every state on level ``d`` (code ``cur``), putting new states on level d + 1
    (code ``3 - cur``). Returns the number of fields put on level d + 1 and of placements whose
    value is d (see the module docstring). With ``za`` (blank-aware tables) ``dist`` keeps two
    values a placement: ``dist[2r + 1]`` the least level of its regions of at most ``POCKET``
    cells, ``dist[2r]`` that of the others."""
    lo_count = lo_pos.shape[0]
    full = (1 << n) - 1
    left_col, right_col = _column_masks(n, width)
    fives = _spread(full)
    pattern = fives if cur == 1 else fives << 1
    nxt = 3 - cur
    tile_at = np.zeros(n, np.int64)  # on the pattern's cells: the tile there
    earlier_at = np.zeros(n, np.int64)  # on the pattern's cells: the cells of the earlier tiles
    free_hi = np.zeros(n - hi_cells.shape[1], np.int64)
    hi_base = -lo_count  # ranks hi_base .. hi_base + lo_count - 1 share the first k_hi cells
    occ_hi = 0
    found = 0
    states = 0
    nb = 0
    size = codes.shape[0]
    for r0 in range(0, size, BLOCK):
        r1 = min(r0 + BLOCK, size)
        any_hit = 0
        for r in range(r0, r1):
            y = np.int64(codes[r]) ^ pattern
            any_hit |= ~(y | (y >> 1)) & fives
        if any_hit == 0:
            continue
        live = 0  # bit j: placement r0 + j has a field on level d
        for r in range(r0, r1):
            y = np.int64(codes[r]) ^ pattern
            live |= np.int64((~(y | (y >> 1)) & fives) != 0) << (r - r0)
        while live:
            r = r0 + _pop((live & -live) - 1)
            live &= live - 1
            x = np.int64(codes[r])
            y = x ^ pattern
            hits = ~(y | (y >> 1)) & fives  # the low bit of every field on level d
            if not za and dist[r] == UNSEEN:
                dist[r] = d
                found += 1
            elif za and dist[2 * r] == UNSEEN and dist[2 * r + 1] == UNSEEN:
                found += 1
            if r - hi_base >= lo_count:
                hi_base = r - r % lo_count
                occ_hi = _place_hi(hi_cells, hi_free, r // lo_count, tile_at, earlier_at, free_hi)
            occ = _place_lo(lo_pos, r - hi_base, free_hi, occ_hi, hi_cells.shape[1], tile_at, earlier_at)
            free = ~occ & full
            while hits:
                region = _flood(1 << (_pop((hits & -hits) - 1) >> 1), free, left_col, right_col, width)
                if za:
                    j = 2 * r + np.int64(_pop(region) <= POCKET)
                    if dist[j] == UNSEEN:
                        dist[j] = d
                fields = _spread(region)
                hits &= ~fields
                x |= fields | (fields << 1)
                nb = _successors(buf, nb, r, region, occ, tile_at, earlier_at, mult, width, left_col, right_col,
                                 False)
            codes[r] = x
            if nb >= BATCH:
                states += _apply(codes, buf, nb, nxt)
                nb = 0
    states += _apply(codes, buf, nb, nxt)
    return states, found


# -- compact build: two bits for each free cell --------------------------------------------------

#: Fields a compact word keeps in its 32-bit part; the rest (at most 2 on 25 cells with 7 tiles)
#: go in a nibble of ``hi``.
LO_FIELDS = 16


@njit(inline=True)
def _compact_load(lo, hi, r):
    return np.int64(lo[r]) | ((np.int64(hi[r >> 1]) >> (4 * (r & 1)) & 15) << 32)


@njit(inline=True)
def _compact_store(lo, hi, r, x):
    lo[r] = np.uint32(x & 0xFFFFFFFF)
    shift = 4 * (r & 1)
    hi[r >> 1] = np.uint8((np.int64(hi[r >> 1]) & ~(15 << shift)) | (((x >> 32) & 15) << shift))


@njit(inline=True)
def _expand(x, occ):
    """A compact word (one field for each free cell, in cell order) as a word of fields by cell:
    an empty field inserted at each of the pattern's cells ``occ``, lowest first."""
    while occ:
        low = (1 << (2 * _pop((occ & -occ) - 1))) - 1
        occ &= occ - 1
        x = (x & low) | ((x & ~low) << 2)
    return x


@njit(inline=True)
def _compress(x, occ):
    """The inverse of ``_expand``: the field of each pattern cell taken out, lowest first (the
    i-th then sits i fields lower)."""
    i = 0
    while occ:
        low = (1 << (2 * (_pop((occ & -occ) - 1) - i))) - 1
        occ &= occ - 1
        x = (x & low) | ((x >> 2) & ~low)
        i += 1
    return x


@njit
def compact_start(lo, hi, goal_rank, field):
    """Put the goal placement with the blank on its free cell number ``field`` on level 0."""
    _compact_store(lo, hi, goal_rank, _compact_load(lo, hi, goal_rank) | (1 << (2 * field)))


@njit
def level_compact(lo, hi, out, dst, homes, n, width, d, cur, hi_cells, hi_free, lo_pos, mult, buf, top):
    """``level`` for patterns too large for a word of fields by cell: placement r keeps one
    field for each of its free cells, in cell order, bits 0..31 in ``lo[r]`` and the rest in
    nibble r of ``hi`` (4.5 bytes a placement: 36 bits for 7 tiles on 25 cells). A placement's
    entry (half the excess of its value over its tiles' Manhattan distance, ``homes`` their goal
    cells) is written at once, the first time it has a field to expand, into nibble ``dst + r``
    of ``out`` (as ``pack`` would store it; ``top[0]``, ``top[1]``: the largest entry so far and
    the count of clamped ones). Plain tables only (one value a placement)."""
    lo_count = lo_pos.shape[0]
    full = (1 << n) - 1
    left_col, right_col = _column_masks(n, width)
    fives = _spread(full)
    pattern = fives if cur == 1 else fives << 1
    nxt = 3 - cur
    tile_at = np.zeros(n, np.int64)
    earlier_at = np.zeros(n, np.int64)
    free_hi = np.zeros(n - hi_cells.shape[1], np.int64)
    hi_base = -lo_count
    occ_hi = 0
    found = 0
    states = 0
    nb = 0
    size = lo.shape[0]
    for r0 in range(0, size, BLOCK):
        r1 = min(r0 + BLOCK, size)
        any_hit = 0
        for r in range(r0, r1):
            y = _compact_load(lo, hi, r) ^ pattern
            any_hit |= ~(y | (y >> 1)) & fives
        if any_hit == 0:
            continue
        for r in range(r0, r1):
            x = _compact_load(lo, hi, r)
            y = x ^ pattern
            if (~(y | (y >> 1)) & fives) == 0:
                continue
            if r - hi_base >= lo_count:
                hi_base = r - r % lo_count
                occ_hi = _place_hi(hi_cells, hi_free, r // lo_count, tile_at, earlier_at, free_hi)
            occ = _place_lo(lo_pos, r - hi_base, free_hi, occ_hi, hi_cells.shape[1], tile_at, earlier_at)
            free = ~occ & full
            if (x & (x >> 1) & fives) == 0:  # no field done yet: its first level is its value
                md = 0
                m = occ
                while m:
                    c = _pop((m & -m) - 1)
                    m &= m - 1
                    h = homes[tile_at[c]]
                    md += abs(c // width - h // width) + abs(c % width - h % width)
                e = (d - md) >> 1
                if e > NIBBLE_MAX:
                    e = NIBBLE_MAX
                    top[1] += 1
                top[0] = max(top[0], e)
                j = dst + r
                b = np.int64(out[j >> 1])
                out[j >> 1] = np.uint8((b & ~(15 << (4 * (j & 1)))) | (e << (4 * (j & 1))))
                found += 1
            x = _expand(x, occ)
            y = x ^ pattern
            hits = ~(y | (y >> 1)) & fives
            while hits:
                region = _flood(1 << (_pop((hits & -hits) - 1) >> 1), free, left_col, right_col, width)
                fields = _spread(region)
                hits &= ~fields
                x |= fields | (fields << 1)
                nb = _successors(buf, nb, r, region, occ, tile_at, earlier_at, mult, width, left_col, right_col,
                                 True)
            _compact_store(lo, hi, r, _compress(x, occ))
            if nb >= BATCH:
                states += _apply_compact(lo, hi, buf, nb, nxt)
                nb = 0
    states += _apply_compact(lo, hi, buf, nb, nxt)
    return states, found


@njit(inline=True)
def _apply_compact(lo, hi, buf, nb, nxt):
    """``_apply`` on compact words (entries ``rank << 6 | 2 * field``)."""
    new_states = 0
    for j in range(nb):
        e = buf[j]
        r2 = e >> 6
        shift = e & 63
        if shift < 2 * LO_FIELDS:
            y = np.int64(lo[r2])
            new = np.int64(((y >> shift) & 3) == 0)
            lo[r2] = np.uint32(y | ((new * nxt) << shift))
        else:
            s2 = shift - 2 * LO_FIELDS + 4 * (r2 & 1)
            y = np.int64(hi[r2 >> 1])
            new = np.int64(((y >> s2) & 3) == 0)
            hi[r2 >> 1] = np.uint8(y | ((new * nxt) << s2))
        new_states += new
    return new_states


def unrank_tables(n: int, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The look-up tables of ``level`` for k pattern tiles on n cells.

    A rank is ``hi * lo_count + lo``: ``hi`` the mixed-radix number of the first ``k // 2``
    digits, ``lo`` of the others. ``hi_cells[hi]`` holds the first tiles' cells and
    ``hi_free[hi]`` the cells left free by them, in increasing order; ``lo_pos[lo]`` holds where
    in that list the other tiles stand (a digit is an index among the cells still free, so this
    does not depend on ``hi``). ``mult[i]`` is tile i's weight in the rank."""
    k_hi = k // 2
    hi_cells, hi_free = _select(n, [n - i for i in range(k_hi)])
    lo_pos, _ = _select(n - k_hi, [n - i for i in range(k_hi, k)])
    mult = np.array([math.perm(n - i - 1, k - i - 1) for i in range(k)], dtype=np.int64)
    return hi_cells.astype(np.int8), hi_free.astype(np.int8), lo_pos.astype(np.int8), mult


def _select(n: int, bases: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """For every mixed-radix number over ``bases`` (in order): the items among 0..n-1 its digits
    pick (each digit an index among the items not yet picked, in increasing order), and the items
    left, in increasing order."""
    count = int(np.prod(bases, dtype=np.int64)) if bases else 1
    rows = np.arange(count)
    digits = np.zeros((count, len(bases)), dtype=np.int64)
    rest = rows.copy()
    for i in range(len(bases) - 1, -1, -1):
        digits[:, i] = rest % bases[i]
        rest //= bases[i]
    taken = np.zeros((count, n), dtype=bool)
    picked = np.zeros((count, len(bases)), dtype=np.int64)
    for i in range(len(bases)):
        below = np.cumsum(~taken, axis=1) - 1  # index of each free item among the free ones
        picked[:, i] = np.argmax(~taken & (below == digits[:, i : i + 1]), axis=1)
        taken[rows, picked[:, i]] = True
    left = np.argsort(taken, axis=1, kind="stable")[:, : n - len(bases)]
    return picked, left


# -- storage: two entries a byte ----------------------------------------------------------------

#: The largest stored entry (4 bits).
NIBBLE_MAX = 15


@njit
def pack(data, src, dst, n, width, homes, per):
    """Store one pattern's values in place as entries of 4 bits (see ``heuristics.pattern_db``).

    ``data[src + r]`` is the value of the placement of rank r (``UNSEEN`` if never reached); its
    entry, half the value's excess over the Manhattan distance of the pattern's tiles (``homes``:
    their goal cells), goes to nibble ``dst + r`` of ``data`` (low nibble first), with ``dst`` even
    and ``dst // 2 <= src``: every byte written lies at or below the byte read, so placements are
    visited in rank order and each value is read before its byte can be overwritten. Returns the
    largest entry and how many excesses were above ``2 * NIBBLE_MAX`` (stored as ``NIBBLE_MAX``,
    which keeps the bound admissible). An unseen placement's entry is 0. ``per``: values a
    placement (2 for blank-aware tables: ``data[src + 2r + c]`` to nibble ``dst + 2r + c``).

    The ranks are visited by a depth-first walk over the tiles' cells (tile i takes the free cells
    in increasing order: exactly the order of its digit), keeping the partial Manhattan distance
    per depth."""
    k = homes.shape[0]
    cells = np.zeros(k, np.int64)
    nxt = np.zeros(k, np.int64)
    mdp = np.zeros(k + 1, np.int64)
    used = np.zeros(n, np.bool_)
    r = 0
    i = 0
    top = 0
    clamped = 0
    while True:
        if i == k:
            first = np.int64(data[src + per * r])  # read before the first write, which may cover it
            last = np.int64(data[src + per * r + per - 1])
            for c in range(per):
                v = first if c == 0 else last
                if v == UNSEEN:  # no region of this class (blank-aware): the other's value
                    v = last if c == 0 else first
                e = 0
                if v != UNSEEN:
                    e = (v - mdp[k]) >> 1
                    if e > NIBBLE_MAX:
                        e = NIBBLE_MAX
                        clamped += 1
                    if e > top:
                        top = e
                j = dst + per * r + c
                if j & 1:
                    data[j >> 1] = data[j >> 1] | np.uint8(e << 4)
                else:
                    data[j >> 1] = np.uint8(e)
            r += 1
            i -= 1
            used[cells[i]] = False
            continue
        c = nxt[i]
        while c < n and used[c]:
            c += 1
        if c >= n:
            if i == 0:
                break
            i -= 1
            used[cells[i]] = False
            continue
        nxt[i] = c + 1
        cells[i] = c
        used[c] = True
        h = homes[i]
        mdp[i + 1] = mdp[i] + abs(c // width - h // width) + abs(c % width - h % width)
        i += 1
        if i < k:
            nxt[i] = 0
    return top, clamped


@njit
def entry_max(data):
    """The largest entry (4 bits) among the bytes ``data``."""
    seen = np.zeros(256, np.bool_)
    for b in data:
        seen[b] = True
    top = 0
    for b in range(256):
        if seen[b]:
            top = max(top, b & 15, b >> 4)
    return top


@njit
def compress_min(src, src_at, count, group, out, dst_at):
    """Compress one pattern's table: entry j of the result (nibble ``dst_at + j`` of ``out``) is the
    least of the ``group`` entries ``src_at + j * group ...`` of ``src`` (4 bits each, low nibble
    first; ``count`` entries in all, a multiple of ``group``). With the compressed tiles last in
    the pattern, their digits are the rank's lowest ones, so those entries are the placements that
    differ only in those tiles' places. Returns the largest entry written."""
    top = 0
    for j in range(count // group):
        best = 15
        base = src_at + j * group
        for i in range(group):
            x = base + i
            e = (np.int64(src[x >> 1]) >> ((x & 1) << 2)) & 15
            if e < best:
                best = e
        y = dst_at + j
        if y & 1:
            out[y >> 1] = (out[y >> 1] & 15) | (best << 4)
        else:
            out[y >> 1] = (out[y >> 1] & 240) | best
        if best > top:
            top = best
    return top
