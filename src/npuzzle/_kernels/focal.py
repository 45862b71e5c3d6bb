"""Focal search (A*_epsilon, Pearl and Kim 1982) and dynamic potential search (DPS, Gilon, Felner
and Stern 2016) over any m x n board, run in slices.

The bounded-suboptimal search ``search.focal`` drives. For a bound w = num / den >= 1, OPEN
holds every generated node not yet expanded, f = g + h in cost units; FOCAL is the part of
OPEN with f <= w * f_min (f_min: the least f on OPEN). The node expanded next is the one of
FOCAL with the least distance to go ``d`` (the unit-cost heuristic, in moves: Thayer and
Ruml's d), then the least f. A position reached again by a cheaper path is always reopened
(a new copy, the old one marked STALE), so some open node of a cheapest path always has its
cheapest g: f_min <= C* at every moment, and the goal, expanded from FOCAL, costs at most
w * f_min <= w * C*. The largest f_min seen is the proven lower bound.

Costs. ``tile_cost[t]`` (float64, index = tile number, index 0 unused) is what moving tile t
costs; g, h and f are in those units. ``d`` is the heuristic of ``_kernels.astar`` (every bound
of ``heuristics.registry``), admissible for moves. With unit costs (``unit``) h = d, exactly A*'s
heuristic. Otherwise h = max(the cost-weighted Manhattan distance, min cost x d): the first
counts each tile's own moves at its own cost, the second every move at the cheapest cost, so
both bound the cheapest cost from below (and both are consistent when d is).

Arena (as ``_kernels.astar``'s): ``keys`` (packed positions), ``g``, ``f``, ``d``, ``parent``,
``info`` (bits 0-2 the direction from the parent or ROOT; EXPANDED; STALE), the seen set
``table`` (open addressing, at most half full, the live copy of each position). Three binary
heaps of node indices, each with lazy deletion (an expanded or stale node is dropped when it
reaches the top): ``fheap`` (every open node, by f: gives f_min), ``outheap`` (open nodes not
in FOCAL, by f) and ``focheap`` (FOCAL, by d then f). An open node is in exactly one of
``outheap`` and ``focheap``; when f_min rises, ``outheap``'s nodes with f <= w * f_min move to
FOCAL, and a FOCAL node found above the threshold (f_min can fall with a heuristic that is not
consistent) moves back. Each node is pushed at most once into ``fheap`` and held at most once
by the other two, so heaps as long as the arena never overflow.

DPS (``dps``) keeps every open node in ``focheap`` instead, by potential (B - g) / h with
B = w * f_min (``outheap`` unused): the node of greatest potential is expanded. A node with h = 0
(a goal) has potential +inf if g <= B, else -inf. The node of f_min has potential >= 1, so the
goal at the top costs at most B <= w * C*. The order depends on f_min: whenever it changes, the
heap is rebuilt (its live entries kept, then heapified under the new B); f_min changes a few
times a search with integer costs, each rebuild a pass over the open nodes.

``ctl`` (int64, places ``C_*``) holds the arena's nodes, the heaps' sizes, the nodes generated
and expanded, the goal node, the parity of every solution length (unit costs), the reopened
nodes and the integer lower bound; ``fctl`` (float64, places ``F_*``) the largest f_min seen.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .astar import (
    DIRECTION,
    EXPANDED,
    LC,
    ROOT,
    STALE,
    _child_value,
    _components,
    _conflict_change,
    _pattern_orders,
    _probe,
    _set_cell,
    _unpack,
)
from .bounds import EXTENDED
from .jit import njit

# Statuses returned by ``focal_slice``.
EXHAUSTED = 0
FOUND = 1
SLICE_DONE = 2
NEW_BOUND = 3
NEED_NODES = 4

#: Places in ``ctl``.
C_NODES, C_FSIZE, C_OSIZE, C_CSIZE, C_GENERATED, C_EXPANDED, C_GOAL, C_PARITY, C_REOPENED, C_BOUND = range(10)
CTL_SIZE = 10
#: Places in ``fctl``: the largest f_min seen, whether costs are all one (1.0) or not (0.0), and
#: (DPS) the f_min under which ``focheap`` is ordered.
F_BOUND, F_UNIT, F_ORDERED = range(3)
FCTL_SIZE = 3
#: Orders of a heap: by f, by d then f (FOCAL), by potential (DPS).
BY_F, BY_D, BY_POTENTIAL = 0, 1, 2


class FocalArena(NamedTuple):
    """The nodes, the seen set and the three heaps (see the module docstring)."""

    keys: np.ndarray
    g: np.ndarray
    f: np.ndarray
    d: np.ndarray
    parent: np.ndarray
    info: np.ndarray
    table: np.ndarray
    fheap: np.ndarray
    outheap: np.ndarray
    focheap: np.ndarray


@njit(inline=True)
def _potential(a, g, f, bound):
    """(bound - g) / h of node ``a`` (h = f - g; +inf or -inf at h = 0, as g <= bound or not)."""
    h = f[a] - g[a]
    if h <= 0.0:
        return np.inf if g[a] <= bound else -np.inf
    return (bound - g[a]) / h


@njit(inline=True)
def _before(order, a, b, f, d, g, bound):
    """Whether node ``a`` comes before ``b`` in a heap of ``order`` (``BY_*``; ties: d, then f)."""
    if order == BY_POTENTIAL:
        pa, pb = _potential(a, g, f, bound), _potential(b, g, f, bound)
        if pa != pb:
            return pa > pb
    elif order == BY_F:
        if f[a] != f[b]:
            return f[a] < f[b]
    if d[a] != d[b]:
        return d[a] < d[b]
    return f[a] < f[b]


@njit
def heap_push(heap, size, node, order, f, d, g, bound):
    """Push ``node`` on ``heap`` holding ``size`` entries; return the new size."""
    k = size
    while k > 0:
        up = (k - 1) >> 1
        if not _before(order, node, heap[up], f, d, g, bound):
            break
        heap[k] = heap[up]
        k = up
    heap[k] = node
    return size + 1


@njit
def _sift_down(heap, size, k, order, f, d, g, bound):
    last = heap[k]
    while True:
        c = 2 * k + 1
        if c >= size:
            break
        if c + 1 < size and _before(order, heap[c + 1], heap[c], f, d, g, bound):
            c += 1
        if not _before(order, heap[c], last, f, d, g, bound):
            break
        heap[k] = heap[c]
        k = c
    heap[k] = last


@njit
def heap_pop(heap, size, order, f, d, g, bound):
    """Remove the top of ``heap`` (``size`` > 0 entries); return the new size."""
    size -= 1
    if size > 0:
        heap[0] = heap[size]
        _sift_down(heap, size, 0, order, f, d, g, bound)
    return size


@njit
def reordered(heap, size, info, f, d, g, bound):
    """Drop the expanded and stale entries of the potential heap and heapify it under ``bound``;
    return its new size."""
    k = 0
    for j in range(size):
        if not info[heap[j]] & (STALE | EXPANDED):
            heap[k] = heap[j]
            k += 1
    for j in range(k // 2 - 1, -1, -1):
        _sift_down(heap, k, j, BY_POTENTIAL, f, d, g, bound)
    return k


@njit
def _weighted_manhattan(cells, n, md, tile_cost):
    """The Manhattan distance with each tile's steps at its cost."""
    total = 0.0
    for c in range(n):
        t = cells[c]
        if t != 0:
            total += tile_cost[t] * md[c * n + t]
    return total


@njit
def focal_slice(grid, heur, bits, num, den, dps, tile_cost, arena, ctl, fctl, budget):
    """Expand the next node (FOCAL's best, or DPS's of greatest potential) until the goal is the
    next (FOUND), OPEN is empty (EXHAUSTED), the integer lower bound rises (NEW_BOUND), the next
    expansion would pass ``budget`` more generated nodes (SLICE_DONE) or needs a larger arena
    (NEED_NODES). Every return leaves a state the next call resumes. ``grid``, ``heur``,
    ``bits``: as ``_kernels.astar.astar_slice``'s; ``num / den``: the bound w; ``dps``: dynamic
    potential search instead of focal search; ``tile_cost``: each tile's move cost; ``arena``:
    the ``FocalArena``."""
    keys, g, f, d, parent, info, table, fheap, outheap, focheap = arena
    mode, md, nbr, width, height = heur.mode, grid.md, grid.nbr, grid.width, grid.height
    goal_row, goal_col = heur.bnd.goal_row, heur.bnd.goal_col
    n = width * height
    nwords = keys.shape[1]
    cap = g.shape[0]
    nodes, fsize, osize, csize = ctl[C_NODES], ctl[C_FSIZE], ctl[C_OSIZE], ctl[C_CSIZE]
    generated, expanded, reopened, bound = ctl[C_GENERATED], ctl[C_EXPANDED], ctl[C_REOPENED], ctl[C_BOUND]
    parity = ctl[C_PARITY]
    fbound = fctl[F_BOUND]
    unit = fctl[F_UNIT] != 0.0
    cmin = np.inf
    for t in range(1, n):
        cmin = min(cmin, tile_cost[t])
    stop_at = generated + budget
    use_lc = (mode & LC) != 0
    extended = (mode & EXTENDED) != 0
    cells = np.empty(n, np.int64)
    ucells = np.empty(n, np.uint64)
    comp = np.zeros(heur.columns, np.int64)
    where = np.zeros(n, np.int64)
    order, start = _pattern_orders(mode, heur.bnd, n, heur.columns)
    child_keys = np.empty((4, nwords), np.int64)
    child_h = np.empty(4, np.int64)
    child_w = np.empty(4, np.float64)
    child_c = np.empty(4, np.float64)
    child_d = np.empty(4, np.int64)
    seq = np.empty(max(width, height), np.int64)
    lis = np.empty(max(width, height), np.int64)
    status = EXHAUSTED
    while True:
        while fsize > 0 and info[fheap[0]] & (STALE | EXPANDED):
            fsize = heap_pop(fheap, fsize, BY_F, f, d, g, 0.0)
        if fsize == 0:
            status = EXHAUSTED
            break
        fmin = f[fheap[0]]
        if fmin > fbound:
            fbound = fmin
            lb = np.int64(np.ceil(fmin - 1e-9 * max(1.0, fmin)))
            if unit and (lb & 1) != parity:
                lb += 1
            if lb > bound:
                bound = lb
                status = NEW_BOUND
                break
        big = num * fmin / den  # B = w * f_min
        if dps and fmin != fctl[F_ORDERED]:
            csize = reordered(focheap, csize, info, f, d, g, big)
            fctl[F_ORDERED] = fmin
        while osize > 0:  # OPEN's nodes within the bound join FOCAL
            top = outheap[0]
            if info[top] & (STALE | EXPANDED):
                osize = heap_pop(outheap, osize, BY_F, f, d, g, big)
                continue
            if den * f[top] > num * fmin:
                break
            osize = heap_pop(outheap, osize, BY_F, f, d, g, big)
            csize = heap_push(focheap, csize, top, BY_D, f, d, g, big)
        pick = BY_POTENTIAL if dps else BY_D
        while csize > 0:
            top = focheap[0]
            if info[top] & (STALE | EXPANDED):
                csize = heap_pop(focheap, csize, pick, f, d, g, big)
                continue
            if not dps and den * f[top] > num * fmin:  # f_min fell (a heuristic that is not consistent)
                csize = heap_pop(focheap, csize, BY_D, f, d, g, big)
                osize = heap_push(outheap, osize, top, BY_F, f, d, g, big)
                continue
            break
        i = focheap[0]  # FOCAL holds the node of f_min at least; DPS's heap every open node
        if d[i] == 0:
            ctl[C_GOAL] = i
            status = FOUND
            break
        blank = _unpack(keys, i, bits, n, cells)
        h = np.int64(d[i])
        if extended:
            for c in range(n):
                ucells[c] = cells[c]
            h = _components(heur, grid, cells, comp, where, order, start)
        wmd = 0.0 if unit else _weighted_manhattan(cells, n, md, tile_cost)
        came = info[i] & DIRECTION
        nc = 0
        for dd in range(4):
            q = nbr[blank * 4 + dd]
            if q < 0 or (came != ROOT and dd == 3 - came):
                continue
            tile = cells[q]
            if extended:
                hc = _child_value(heur, grid, cells, ucells, blank, q, comp)
            else:
                hc = h + md[blank * n + tile] - md[q * n + tile]
                if use_lc:
                    hc += 2 * _conflict_change(cells, goal_row, goal_col, width, height, blank, q, tile, dd, seq, lis)
            for w in range(nwords):
                child_keys[nc, w] = keys[i, w]
            _set_cell(child_keys, nc, blank, tile, bits, n)
            _set_cell(child_keys, nc, q, 0, bits, n)
            child_h[nc] = hc
            child_w[nc] = wmd + tile_cost[tile] * (md[blank * n + tile] - md[q * n + tile])
            child_c[nc] = tile_cost[tile]
            child_d[nc] = dd
            nc += 1
        if nodes + nc > cap:
            status = NEED_NODES
            break
        if generated + nc > stop_at:
            status = SLICE_DONE
            break
        csize = heap_pop(focheap, csize, pick, f, d, g, big)
        info[i] |= EXPANDED
        expanded += 1
        generated += nc
        for c in range(nc):
            gc = g[i] + child_c[c]
            slot, j = _probe(keys, table, child_keys, c)
            if j >= 0:
                if gc >= g[j]:
                    continue
                if info[j] & EXPANDED:
                    reopened += 1
                info[j] |= STALE
            k = nodes
            nodes += 1
            table[slot] = k
            for w in range(nwords):
                keys[k, w] = child_keys[c, w]
            hcost = float(child_h[c]) if unit else max(child_w[c], cmin * child_h[c])
            g[k] = gc
            f[k] = gc + hcost
            d[k] = child_h[c]
            parent[k] = i
            info[k] = child_d[c]
            fsize = heap_push(fheap, fsize, k, BY_F, f, d, g, big)
            if dps or den * f[k] <= num * fmin:
                csize = heap_push(focheap, csize, k, pick, f, d, g, big)
            else:
                osize = heap_push(outheap, osize, k, BY_F, f, d, g, big)
    ctl[C_NODES], ctl[C_FSIZE], ctl[C_OSIZE], ctl[C_CSIZE] = nodes, fsize, osize, csize
    ctl[C_GENERATED], ctl[C_EXPANDED], ctl[C_REOPENED], ctl[C_BOUND] = generated, expanded, reopened, bound
    fctl[F_BOUND] = fbound
    return status
