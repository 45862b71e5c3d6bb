"""Kernels for exhaustive search: perfect ranking of solvable positions, breadth-first search
over a 2-bit table, walking down that table, and the level-by-level happy-move search.

Ranking. A position of an n-cell board is its blank cell ``b`` and the sequence ``seq`` of its
tiles read row by row, skipping the blank. The goals used here all have ``seq = 1, 2, ..., n-1``
(only the goal's blank cell ``g`` varies). A horizontal move leaves ``seq`` unchanged; a vertical
move makes one tile jump over ``w - 1`` others. So a position is solvable exactly when the parity
of ``seq`` equals ``need[b] = (w - 1) * |row(b) - row(g)| mod 2``. The lexicographic rank of
``seq`` with its last two entries dropped, ``r`` in ``[0, (n-1)!/2)``, determines ``seq``: the
two values left go in the order that gives parity ``need[b]``. The index is ``r * n + b`` (so a
horizontal move only changes the index by one) and the goal's index is ``g``.

``fact_half[i] = (m - 1 - i)! / 2`` for the ``m = n - 1`` tiles; ``popc[x]`` is the number of
bits of ``x``. The distance table packs four entries a byte, two bits each: ``d mod 3`` for a
position at distance ``d`` and 3 for one not reached yet. Neighbours differ by exactly one in
distance, so ``d mod 3`` tells a step towards the goal from a step away.
"""

from __future__ import annotations

import numpy as np

from .jit import njit

UNSEEN = 3


@njit
def rank(cells, n, fact_half, popc):
    """Index of the position ``cells`` (tile of each cell, 0 the blank)."""
    m = n - 1
    used = 0
    r = 0
    i = 0
    blank = 0
    for cell in range(n):
        t = cells[cell]
        if t == 0:
            blank = cell
            continue
        v = t - 1
        if i < m - 2:
            r += (v - popc[used & ((1 << v) - 1)]) * fact_half[i]
            used |= 1 << v
        i += 1
    return r * n + blank


@njit
def unrank(idx, n, fact_half, need, cells, seq):
    """Fill ``cells`` with the position of index ``idx`` (the inverse of ``rank``); ``seq`` is
    scratch space for ``n - 1`` values."""
    m = n - 1
    blank = idx % n
    r = idx // n
    used = 0
    parity = 0
    for i in range(m - 2):
        c = r // fact_half[i]
        r -= c * fact_half[i]
        parity += c
        v = 0
        while True:  # the c-th unused value
            if not (used >> v) & 1:
                if c == 0:
                    break
                c -= 1
            v += 1
        used |= 1 << v
        seq[i] = v
    a = 0
    while (used >> a) & 1:
        a += 1
    b = a + 1
    while (used >> b) & 1:
        b += 1
    if (parity & 1) == need[blank]:
        seq[m - 2], seq[m - 1] = a, b
    else:
        seq[m - 2], seq[m - 1] = b, a
    i = 0
    for cell in range(n):
        if cell == blank:
            cells[cell] = 0
        else:
            cells[cell] = seq[i] + 1
            i += 1


@njit
def _get(table, idx):
    return (table[idx >> 2] >> ((idx & 3) * 2)) & 3


@njit
def _neighbour(cells, idx, blank, q, n, w, fact_half, popc):
    """Index after the tile at ``q`` slides into the blank (``cells`` is left unchanged)."""
    if q // w == blank // w:
        return idx - blank + q
    cells[blank] = cells[q]
    cells[q] = 0
    j = rank(cells, n, fact_half, popc)
    cells[q] = cells[blank]
    cells[blank] = 0
    return j


@njit
def bfs_level(table, cur, ncur, nxt, level, n, w, fact_half, popc, need, nbr):
    """Expand the ``ncur`` positions of ``cur`` (all at distance ``level``): mark every unseen
    neighbour with ``(level + 1) mod 3`` and append it to ``nxt``. Returns how many were added."""
    mark = (level + 1) % 3
    cells = np.empty(n, np.int64)
    seq = np.empty(n, np.int64)
    added = 0
    for k in range(ncur):
        idx = np.int64(cur[k])
        unrank(idx, n, fact_half, need, cells, seq)
        blank = idx % n
        for d in range(4):
            q = nbr[blank * 4 + d]
            if q < 0:
                continue
            j = _neighbour(cells, idx, blank, q, n, w, fact_half, popc)
            byte = j >> 2
            shift = (j & 3) * 2
            if (table[byte] >> shift) & 3 == UNSEEN:
                table[byte] = (table[byte] & ~(3 << shift)) | (mark << shift)
                nxt[added] = j
                added += 1
    return added


@njit
def walk_down(table, cells, goal_index, n, w, fact_half, popc, nbr, moves):
    """Follow the table from ``cells`` to the goal, writing the tiles pushed into ``moves``.

    Returns the number of moves, or -1 if the table does not lead to the goal (the position is
    not in it, or the table is inconsistent) within ``len(moves)`` steps. ``cells`` ends at the
    goal when the walk succeeds.
    """
    idx = rank(cells, n, fact_half, popc)
    v = _get(table, idx)
    if v == UNSEEN:
        return -1
    steps = 0
    while idx != goal_index:
        if steps == moves.shape[0]:
            return -1
        down = (v + 2) % 3
        blank = idx % n
        moved = False
        for d in range(4):
            q = nbr[blank * 4 + d]
            if q < 0:
                continue
            j = _neighbour(cells, idx, blank, q, n, w, fact_half, popc)
            if _get(table, j) == down:
                moves[steps] = cells[q]
                cells[blank] = cells[q]
                cells[q] = 0
                idx = j
                v = down
                moved = True
                break
        if not moved:
            return -1
        steps += 1
    return steps


@njit
def count_unseen(table, total):
    """How many of the first ``total`` entries are still unseen (a consistency check)."""
    k = 0
    for idx in range(total):
        if _get(table, idx) == UNSEEN:
            k += 1
    return k


# -- happy moves ---------------------------------------------------------------------------------
#
# A board of at most 16 cells packs into a uint64, four bits per cell (cell i in bits 4i..4i+3).
# Level d holds the positions of Manhattan distance d solvable with happy moves only. Each of them
# has a happy move into level d - 1, so level d is exactly the set of positions reached from level
# d - 1 by one move that takes its tile one step farther from home.


@njit
def happy_expand(level, count, out, n, md, nbr):
    """Write into ``out`` every position one farther-from-home move away from ``level[:count]``;
    return how many (duplicates included)."""
    k = 0
    four = np.uint64(4)
    fifteen = np.uint64(15)
    for i in range(count):
        s = level[i]
        blank = 0
        for cell in range(n):
            if (s >> (four * np.uint64(cell))) & fifteen == np.uint64(0):
                blank = cell
                break
        for d in range(4):
            q = nbr[blank * 4 + d]
            if q < 0:
                continue
            t = (s >> (four * np.uint64(q))) & fifteen
            ti = np.int64(t)
            if md[blank * n + ti] > md[q * n + ti]:
                out[k] = (s | (t << (four * np.uint64(blank)))) & ~(fifteen << (four * np.uint64(q)))
                k += 1
    return k


@njit
def unique_sorted(a, count):
    """Drop repeats from the sorted ``a[:count]`` in place; return the new count."""
    if count == 0:
        return 0
    m = 1
    for i in range(1, count):
        if a[i] != a[m - 1]:
            a[m] = a[i]
            m += 1
    return m
