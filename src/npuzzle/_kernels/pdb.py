"""Pattern-database construction: breadth-first search over the placements of a pattern's tiles.

A state is a placement of the pattern's k tiles on the n cells together with the blank's cell.
Moving a pattern tile costs 1; moving any other tile costs nothing, so the blank roams freely
over the connected region of free cells around it. The search therefore goes level by level
(level d holds the states at cost d): a state on level d first floods its blank's region (all at
cost d), then every pattern tile next to the region may step into it, reaching level d + 1 with
the blank where the tile was. A placement's value is the lowest level of any of its states (the
blank may be anywhere).

Ranking (perfect, shared with the IDA* kernel): the i-th tile's digit, base n - i, counts the
free cells below its cell once tiles 0..i-1 are placed; the rank is the mixed-radix number of
the digits, tile i's weight ``mult[i]`` the product of the later bases.

Storage. ``codes`` holds one word per placement (rank) with two bits per cell, bits 2c and
2c + 1 for the blank on cell c: 0 unseen, 3 done, and 1 / 2 for the current and the next level,
whose roles swap from level to level (so nothing is ever relabelled); the fields of the pattern's
own cells stay 0. ``dist`` keeps one byte per placement (255 until reached).

A level scans ``codes`` in rank order. A placement with fields on level d is unranked by table
look-ups (``unrank_tables``) and handles all its level-d regions together in one register word:
each region is flooded once and all its fields become done, then every pattern tile next to the
region yields a successor, its rank the placement's plus a delta (``_vertical``).

Two choices keep the random memory traffic to one access per successor, and let several of
those be in flight at once:

- The value is set when a placement is expanded, not when it is reached: ``dist[r] = d`` on the
  first level on which placement r has a field (sequential access). This is the same value.
  Every state put on level d + 1 is, by the end of level d + 1, either expanded there or closed
  by the flood of a region of its own placement expanded on level d or d + 1; so a placement's
  lowest level is the first level on which one of its states is expanded.
- Successors are gathered (``BATCH`` of them) and applied later in a loop without branches
  (``_apply``: an unseen field becomes ``next``). This changes no field's final code on the
  level: a flood writes "done" only into its own placement and a successor is always another
  placement, whose level-d fields decide nothing on level d but whether they are expanded, which
  a successor (writing only into unseen fields) never changes; a field that a flood closes
  before its successor arrives stays done, as it would have become done after it. Fields are
  counted where they change from unseen to next, in order, so a state reached twice counts once.
  ``states`` is the number of such fields; some of them may be closed later in the level, so a
  level with ``states > 0`` may be followed by one that expands nothing (it returns 0, 0).
"""

from __future__ import annotations

import numpy as np

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
def level(codes, dist, n, width, d, cur, hi_cells, hi_free, lo_pos, mult, buf):
    """Expand every state on level ``d`` (code ``cur``), putting new states on level d + 1
    (code ``3 - cur``). Returns the number of fields put on level d + 1 and of placements whose
    value is d (see the module docstring)."""
    k_hi = hi_cells.shape[1]
    k_lo = lo_pos.shape[1]
    k = k_hi + k_lo
    lo_count = lo_pos.shape[0]
    full = (1 << n) - 1
    left_col = 0
    for row in range(n // width):
        left_col |= 1 << (row * width)
    right_col = left_col << (width - 1)
    fives = _spread(full)
    pattern = fives if cur == 1 else fives << 1
    nxt = 3 - cur
    cells = np.zeros(k, np.int64)
    tile_at = np.full(n, k, np.int64)
    earlier_at = np.zeros(n, np.int64)
    free_hi = np.zeros(n, np.int64)
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
        for r in range(r0, r1):
            x = np.int64(codes[r])
            y = x ^ pattern
            hits = ~(y | (y >> 1)) & fives  # the low bit of every field on level d
            if hits == 0:
                continue
            if dist[r] == UNSEEN:
                dist[r] = d
                found += 1
            for i in range(k):
                tile_at[cells[i]] = k
            if r - hi_base >= lo_count:
                hi = r // lo_count
                hi_base = hi * lo_count
                occ_hi = 0
                for i in range(k_hi):
                    cells[i] = hi_cells[hi, i]
                    occ_hi |= 1 << cells[i]
                for j in range(n - k_hi):
                    free_hi[j] = hi_free[hi, j]
            lo = r - hi_base
            occ = occ_hi
            for j in range(k_lo):
                c = free_hi[lo_pos[lo, j]]
                cells[k_hi + j] = c
                occ |= 1 << c
            earlier = 0
            for i in range(k):
                tile_at[cells[i]] = i
                earlier_at[cells[i]] = earlier
                earlier |= 1 << cells[i]
            free = ~occ & full
            while hits:
                region = 1 << (_pop((hits & -hits) - 1) >> 1)
                while True:
                    grow = region | ((((region << 1) & ~left_col) | ((region >> 1) & ~right_col)
                                      | (region << width) | (region >> width)) & free)
                    if grow == region:
                        break
                    region = grow
                fields = _spread(region)
                hits &= ~fields
                x |= fields | (fields << 1)
                # a pattern tile next to the region steps into it (the blank takes its cell):
                # to the left or right (cells at bits 0..31 and 32..63 of m), then up or down
                m = (occ & (region << 1) & ~left_col) | ((occ & (region >> 1) & ~right_col) << 32)
                while m:
                    b = _pop((m & -m) - 1)
                    m &= m - 1
                    pc = b & 31
                    sign = 2 * (b >> 5) - 1
                    buf[nb] = ((r + sign * mult[tile_at[pc]]) << 6) | (2 * pc)
                    nb += 1
                m = (occ & (region << width)) | ((occ & (region >> width)) << 32)
                while m:
                    b = _pop((m & -m) - 1)
                    m &= m - 1
                    pc = b & 31
                    down = b >> 5
                    step = _vertical(pc - width + down * width, tile_at[pc], width, earlier_at[pc], occ, tile_at, mult)
                    buf[nb] = ((r + (2 * down - 1) * step) << 6) | (2 * pc)
                    nb += 1
            codes[r] = x
            if nb >= BATCH:
                states += _apply(codes, buf, nb, nxt)
                nb = 0
    states += _apply(codes, buf, nb, nxt)
    return states, found


def unrank_tables(n: int, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The look-up tables of ``level`` for k pattern tiles on n cells.

    A rank is ``hi * lo_count + lo``: ``hi`` the mixed-radix number of the first ``k // 2``
    digits, ``lo`` of the others. ``hi_cells[hi]`` holds the first tiles' cells and
    ``hi_free[hi]`` the cells left free by them, in increasing order; ``lo_pos[lo]`` holds where
    in that list the other tiles stand (a digit is an index among the cells still free, so this
    does not depend on ``hi``). ``mult`` holds the tiles' weights, then 0."""
    k_hi = k // 2
    hi_cells, hi_free = _select(n, [n - i for i in range(k_hi)])
    lo_pos, _ = _select(n - k_hi, [n - i for i in range(k_hi, k)])
    mult = np.zeros(k + 1, dtype=np.int64)
    for i in range(k):
        mult[i] = int(np.prod([n - j for j in range(i + 1, k)], dtype=np.int64))
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
