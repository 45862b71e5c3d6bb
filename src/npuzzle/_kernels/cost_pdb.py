"""The build of a cost-aware additive pattern database (``heuristics/cost_pdb.py``): a uniform-cost
search (Dijkstra, binary heap) over the abstract states of one pattern, the cells of its ``k``
tiles and the blank's, in which a move of a pattern tile costs its whole-number cost and a move of
any other tile costs 0 (so the sum over disjoint patterns stays a lower bound, Felner, Korf &
Hanan 2004, with each pattern counting only its own tiles' moves).

A state is ``sum(cell_i * n**i) + blank * n**k`` (cells of the pattern's tiles in order, then the
blank); the table kept is the least cost over the blank's cells, indexed by ``sum(cell_i * n**i)``.
"""

from __future__ import annotations

import numpy as np

from .jit import njit

#: A table entry no state reaches (cells shared by two tiles).
UNREACHED = np.int64(1) << 40


@njit
def _push(heap, size, item):
    if size == heap.shape[0]:
        bigger = np.empty(2 * size, np.int64)
        bigger[:size] = heap
        heap = bigger
    i = size
    while i > 0:
        p = (i - 1) >> 1
        if heap[p] <= item:
            break
        heap[i] = heap[p]
        i = p
    heap[i] = item
    return heap, size + 1


@njit
def _pop(heap, size):
    top = heap[0]
    size -= 1
    item = heap[size]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and heap[c + 1] < heap[c]:
            c += 1
        if item <= heap[c]:
            break
        heap[i] = heap[c]
        i = c
    if size > 0:
        heap[i] = item
    return top, size


@njit
def build_pattern(homes, costs, nbr, n, dist, table):
    """Fill ``table`` (``n**k`` entries) with the least cost of each placement of the pattern's
    tiles (``homes[i]`` the goal cell of its ``i``-th tile, ``costs[i]`` its cost) to their goal
    cells; ``dist`` (``n**(k+1)`` entries) is the work array."""
    k = homes.shape[0]
    span = n ** k
    dist[:] = UNREACHED
    heap = np.empty(1 << 16, np.int64)
    size = 0
    home = np.int64(0)
    for i in range(k):
        home += homes[i] * n ** i
    for b in range(n):
        taken = False
        for i in range(k):
            if homes[i] == b:
                taken = True
        if not taken:
            s = home + b * span
            dist[s] = 0
            heap, size = _push(heap, size, s)
    cells = np.zeros(k, np.int64)
    while size > 0:
        item, size = _pop(heap, size)
        d, s = item >> 32, item & 0xFFFFFFFF
        if d > dist[s]:
            continue
        b = s // span
        rest = s % span
        for i in range(k):
            cells[i] = rest % n
            rest //= n
        for step in range(4):
            q = nbr[b * 4 + step]
            if q < 0:
                continue
            nd = d
            t = s - b * span + q * span  # the blank moves to q
            for i in range(k):
                if cells[i] == q:  # pattern tile i slides into the blank's cell b
                    nd = d + costs[i]
                    t += (b - q) * n ** i
            if nd < dist[t]:
                dist[t] = nd
                heap, size = _push(heap, size, (nd << 32) | t)
    table[:] = UNREACHED
    for s in range(dist.shape[0]):
        p = s % span
        if dist[s] < table[p]:
            table[p] = dist[s]
