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
when it reaches the top. Nothing is reopened: a node already expanded keeps its g.

Lower bound. Every node is expanded with g <= w * (its true distance) (consistent h), so when
P is the smallest open priority, the first unexpanded node of an optimal path proves
optimum >= P / num, rounded up to the parity every solution of the start has.

Blank directions: 0 up, 1 left, 2 right, 3 down, so ``3 - d`` undoes ``d``;
``nbr[cell * 4 + d]`` is the cell the blank reaches, or -1.

``ctl`` holds the scalars between calls: 0 arena nodes, 1 open nodes, 2 current P (no open node
has a smaller one), 3 current g (no open node at the current P has a larger one), 4 generated,
5 expanded, 6 lower bound proven, 7 goal node (when FOUND), 8 parity of every solution length.
"""

from __future__ import annotations

import numpy as np

from .bounds import line_conflicts
from .jit import njit

# Statuses returned by ``astar_slice``.
EXHAUSTED = 0
FOUND = 1
SLICE_DONE = 2
NEW_BOUND = 3
NEED_NODES = 4
NEED_BUCKETS = 5

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
def _conflict_change(cells, home, width, height, blank, q, tile, d, seq, lis):
    """Change of the linear-conflict count when ``tile`` at ``q`` slides into ``blank``."""
    across = d == 1 or d == 2  # the tile changes column
    a = blank % width if across else blank // width
    b = q % width if across else q // width
    old = line_conflicts(cells, home, width, height, a, not across, seq, lis) + line_conflicts(
        cells, home, width, height, b, not across, seq, lis
    )
    cells[blank] = tile
    cells[q] = 0
    new = line_conflicts(cells, home, width, height, a, not across, seq, lis) + line_conflicts(
        cells, home, width, height, b, not across, seq, lis
    )
    cells[q] = tile
    cells[blank] = 0
    return new - old


@njit
def astar_slice(home, md, nbr, width, height, use_lc, num, den, bits,
                keys, g, parent, info, link, table, heads, counts, ctl, budget):
    """Expand open nodes until the goal is at the top (FOUND), the open list is empty
    (EXHAUSTED), the lower bound rises (NEW_BOUND), the next expansion would pass ``budget``
    more generated nodes (SLICE_DONE), or it needs a larger arena (NEED_NODES) or more buckets
    (NEED_BUCKETS). A node is expanded only once all its children fit, so every return leaves
    a consistent state that the next call resumes."""
    n = width * height
    nwords = keys.shape[1]
    cap = g.shape[0]
    pmax = heads.shape[0]
    gmax = heads.shape[1]
    size = table.shape[0]
    nodes = ctl[0]
    open_n = ctl[1]
    cur_p = ctl[2]
    cur_g = ctl[3]
    generated = ctl[4]
    expanded = ctl[5]
    bound = ctl[6]
    parity = ctl[8]
    stop_at = generated + budget
    cells = np.empty(n, np.int64)
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
            ctl[7] = i
            status = FOUND
            break
        blank = _unpack(keys, i, bits, n, cells)
        came = info[i] & DIRECTION
        nc = 0
        for d in range(4):
            q = nbr[blank * 4 + d]
            if q < 0 or (came != ROOT and d == 3 - came):
                continue
            tile = cells[q]
            hc = h + md[blank * n + tile] - md[q * n + tile]
            if use_lc:
                hc += 2 * _conflict_change(cells, home, width, height, blank, q, tile, d, seq, lis)
            for w in range(nwords):
                child_keys[nc, w] = keys[i, w]
            _set_cell(child_keys, nc, blank, tile, bits, n)
            _set_cell(child_keys, nc, q, 0, bits, n)
            child_h[nc] = hc
            child_d[nc] = d
            nc += 1
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
            slot = first_slot(child_keys, c, size)
            while True:
                j = table[slot]
                if j < 0:
                    break
                same = True
                for w in range(nwords):
                    if keys[j, w] != child_keys[c, w]:
                        same = False
                        break
                if same:
                    break
                slot = slot + 1 if slot + 1 < size else 0
            if j >= 0:
                if gc >= g[j] or info[j] & EXPANDED:
                    continue
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
    ctl[0] = nodes
    ctl[1] = open_n
    ctl[2] = cur_p
    ctl[3] = cur_g
    ctl[4] = generated
    ctl[5] = expanded
    ctl[6] = bound
    return status
