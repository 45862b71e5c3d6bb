"""Duplicate move strings: the breadth-first search behind ``search.fsm``.

From one blank cell, move strings are enumerated breadth-first in canonical order (shorter
first, then lexicographic by direction number) and only the canonical ones, the first to reach
their arrangement, are extended. An extension that reaches an arrangement already seen is a
forbidden string: another string, no longer and earlier in the order, has the same effect.

Arrangements are packed exactly, ``bits`` (4 or 8) bits per cell in ``words`` 64-bit words, and
kept in an open-addressing table. A string is a 2-bit code per move, the last move lowest.
"""

from __future__ import annotations

import numpy as np

from .jit import njit

_MIX = np.uint64(0x9E3779B97F4A7C15)


@njit(inline=True)
def _field(keys, i, cell, bits):
    pos = cell * bits
    return (keys[i, pos >> 6] >> np.uint64(pos & 63)) & np.uint64((1 << bits) - 1)


@njit(inline=True)
def _slot(keys, i, mask):
    h = np.uint64(0)
    for w in range(keys.shape[1]):
        h = (h ^ keys[i, w]) * _MIX
    return np.int64(h >> np.uint64(40)) & mask


@njit
def forbidden_from(nbr, n, start, max_len, bits, words, cap):
    """The forbidden strings of at most ``max_len`` moves from blank cell ``start`` (``nbr[cell *
    4 + d]``: the blank's neighbour in direction d or -1; directions up, left, right, down, so
    ``3 - d`` undoes d). Returns (codes, lengths), or lengths[0] == -1 if more than ``cap``
    arrangements would be needed."""
    keys = np.zeros((cap + 1, words), np.uint64)
    blank = np.zeros(cap + 1, np.int64)
    last = np.zeros(cap + 1, np.int64)
    code = np.zeros(cap + 1, np.uint64)
    size = 1
    while size < 2 * cap:
        size <<= 1
    mask = size - 1
    table = np.zeros(size, np.int64)  # state index + 1, 0 = empty
    out_codes = np.zeros(1024, np.uint64)
    out_lens = np.zeros(1024, np.int64)
    found = 0
    for c in range(n):
        pos = c * bits
        keys[0, pos >> 6] |= np.uint64(c) << np.uint64(pos & 63)
    blank[0] = start
    last[0] = -1
    table[_slot(keys, 0, mask)] = 1
    count = 1
    lo = 0
    for length in range(1, max_len + 1):
        hi = count
        for i in range(lo, hi):
            b = blank[i]
            for d in range(4):
                q = nbr[b * 4 + d]
                if q < 0 or d == 3 - last[i]:
                    continue
                if count >= cap:
                    out_lens[0] = -1
                    return out_codes[:1], out_lens[:1]
                j = count
                for w in range(words):  # not keys[j] = keys[i]: its shape check's error path
                    keys[j, w] = keys[i, w]  # alone took numba 4 s to compile
                t = _field(keys, i, q, bits)
                pb = b * bits
                pq = q * bits
                keys[j, pb >> 6] &= ~(np.uint64((1 << bits) - 1) << np.uint64(pb & 63))
                keys[j, pb >> 6] |= t << np.uint64(pb & 63)
                keys[j, pq >> 6] &= ~(np.uint64((1 << bits) - 1) << np.uint64(pq & 63))
                keys[j, pq >> 6] |= np.uint64(start) << np.uint64(pq & 63)  # the blank's label
                s = _slot(keys, j, mask)
                seen = False
                while table[s] != 0:
                    e = table[s] - 1
                    same = True
                    for w in range(words):
                        if keys[e, w] != keys[j, w]:
                            same = False
                            break
                    if same:
                        seen = True
                        break
                    s = (s + 1) & mask
                c2 = (code[i] << np.uint64(2)) | np.uint64(d)
                if seen:
                    if found == out_codes.shape[0]:
                        out_codes = np.concatenate((out_codes, np.zeros(found, np.uint64)))
                        out_lens = np.concatenate((out_lens, np.zeros(found, np.int64)))
                    out_codes[found] = c2
                    out_lens[found] = length
                    found += 1
                    continue
                table[s] = j + 1
                blank[j] = q
                last[j] = d
                code[j] = c2
                count += 1
        lo = hi
    return out_codes[:found], out_lens[:found]
