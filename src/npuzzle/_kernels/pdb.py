"""Pattern-database construction: breadth-first search over the placements of a pattern's tiles.

A state is a placement of the pattern's k tiles on the n cells together with the blank's cell.
Moving a pattern tile costs 1; moving any other tile costs nothing, so the blank roams freely
over the connected region of free cells around it. The search therefore goes level by level
(level d holds the states at cost d): a state taken from level d first floods its blank's region
(all at cost d), then every pattern tile next to the region may step into it, reaching level
d + 1 with the blank where the tile was. A placement's value is the lowest level of any of its
states (the blank may be anywhere).

Storage. ``codes`` keeps two bits per state, at ``rank * f + i`` (f = n - k free cells, i = the
blank's cell counted among the free cells): 0 unseen, 3 done, and 1 / 2 for the current and the
next level, whose roles swap from level to level (so nothing is ever relabelled). ``dist`` keeps
one byte per placement (255 until reached).

Ranking (perfect, shared with the IDA* kernel): the i-th tile's digit, base n - i, counts the
free cells below its cell once tiles 0..i-1 are placed; the rank is the mixed-radix number of
the digits.
"""

from __future__ import annotations

import numpy as np

from .jit import njit

UNSEEN = 255


@njit(inline=True)
def _pop(x, pop16):
    c = 0
    while x:
        c += pop16[x & 0xFFFF]
        x >>= 16
    return c


@njit(inline=True)
def _rank(cells, k, n, pop16):
    r = 0
    occ = 0
    for i in range(k):
        c = cells[i]
        r = r * (n - i) + c - _pop(occ & ((1 << c) - 1), pop16)
        occ |= 1 << c
    return r


@njit(inline=True)
def _code(codes, s):
    return (codes[s >> 2] >> ((s & 3) << 1)) & 3


@njit(inline=True)
def _set_code(codes, s, value):
    shift = (s & 3) << 1
    codes[s >> 2] = (codes[s >> 2] & ~np.uint8(3 << shift)) | np.uint8(value << shift)


@njit
def start(codes, dist, goal_cells, k, n, goal_blank, pop16):
    """Put the goal placement with the goal blank on level 0 (code 1)."""
    r = _rank(goal_cells, k, n, pop16)
    occ = 0
    for i in range(k):
        occ |= 1 << goal_cells[i]
    f = n - k
    i = _pop(~occ & ((1 << goal_blank) - 1) & ((1 << n) - 1), pop16)
    _set_code(codes, r * f + i, 1)
    dist[r] = 0


@njit
def level(codes, dist, k, n, width, d, cur, digits_hi, digits_lo, lo_count, nbr, pop16):
    """Expand every state on level ``d`` (code ``cur``), putting new states on level d + 1
    (code ``3 - cur``). Returns the number of states put on level d + 1 and of placements first
    reached there (a level may reach no new placement but new blank regions of known ones).

    ``codes`` is scanned eight bytes at a time (words without a ``cur`` field are skipped).
    A rank is unranked with one division: ``digits_hi[rank // lo_count]`` and
    ``digits_lo[rank % lo_count]`` hold the digits of the first and the last tiles."""
    f = n - k
    nxt = 3 - cur
    full = (1 << n) - 1
    left_col = 0
    for r in range(n // width):
        left_col |= 1 << (r * width)
    right_col = left_col << (width - 1)
    k_hi = digits_hi.shape[1]
    cells = np.empty(k, np.int64)
    pre_rank = np.empty(k + 1, np.int64)
    pre_occ = np.empty(k + 1, np.int64)
    found = 0
    states = 0
    words = codes.view(np.uint64)
    fives = np.uint64(0x5555555555555555)
    pattern = np.uint64(cur) * fives
    for word in range(words.shape[0]):
        x = words[word] ^ pattern
        hits = ~(x | (x >> np.uint64(1))) & fives  # the low bit of every field equal to cur
        while hits:
            bit = hits & (~hits + np.uint64(1))
            hits ^= bit
            s = word * 32 + _pop(np.int64(bit - np.uint64(1)), pop16) // 2
            if _code(codes, s) != cur:
                continue  # closed meanwhile by the flood of its region
            rank = s // f
            fi = s - rank * f
            hi = rank // lo_count
            lo = rank - hi * lo_count
            for i in range(k_hi):
                cells[i] = digits_hi[hi, i]
            for i in range(k - k_hi):
                cells[k_hi + i] = digits_lo[lo, i]
            occ = 0
            pre_rank[0] = 0
            pre_occ[0] = 0
            for i in range(k):
                m = ~occ & full
                for _ in range(cells[i]):
                    m &= m - 1
                pre_rank[i + 1] = pre_rank[i] * (n - i) + cells[i]
                c = _pop((m & -m) - 1, pop16)
                cells[i] = c
                occ |= 1 << c
                pre_occ[i + 1] = occ
            free = ~occ & full
            m = free
            for _ in range(fi):
                m &= m - 1
            region = m & -m
            while True:
                grow = (((region << 1) & ~left_col) | ((region >> 1) & ~right_col)
                        | (region << width) | (region >> width)) & free
                grow |= region
                if grow == region:
                    break
                region = grow
            m = region
            while m:
                low = m & -m
                _set_code(codes, rank * f + _pop(free & (low - 1), pop16), 3)
                m ^= low
            for i in range(k):
                pc = cells[i]
                adj = nbr[pc] & region
                while adj:
                    low = adj & -adj
                    adj ^= low
                    cells[i] = _pop(low - 1, pop16)
                    # tiles before i keep their digits: re-rank from tile i on
                    r2 = pre_rank[i]
                    o2 = pre_occ[i]
                    for j2 in range(i, k):
                        c = cells[j2]
                        r2 = r2 * (n - j2) + c - _pop(o2 & ((1 << c) - 1), pop16)
                        o2 |= 1 << c
                    free2 = free ^ low ^ (1 << pc)
                    s2 = r2 * f + _pop(free2 & ((1 << pc) - 1), pop16)
                    if _code(codes, s2) == 0:
                        _set_code(codes, s2, nxt)
                        states += 1
                        if dist[r2] == UNSEEN:
                            dist[r2] = d + 1
                            found += 1
                cells[i] = pc
    return states, found


def digit_tables(n: int, k: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Digits of every value of the first ``k // 2`` and of the last tiles' mixed-radix parts
    (see ``level``), and the number of values of the last part."""
    k_hi = k // 2
    hi_bases = [n - i for i in range(k_hi)]
    lo_bases = [n - i for i in range(k_hi, k)]
    return _digits(hi_bases), _digits(lo_bases), int(np.prod(lo_bases, dtype=np.int64))


def _digits(bases: list[int]) -> np.ndarray:
    count = int(np.prod(bases, dtype=np.int64)) if bases else 1
    out = np.zeros((count, len(bases)), dtype=np.int8)
    rest = np.arange(count, dtype=np.int64)
    for i in range(len(bases) - 1, -1, -1):
        out[:, i] = rest % bases[i]
        rest //= bases[i]
    return out
