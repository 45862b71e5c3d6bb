"""Kernels of the searches under non-unit move costs: best-first search (A*, weighted
A*, uniform-cost search when every bound is 0) over boards of at most 16 cells packed into one
int64, and IDA* with cost thresholds, both in whole-number costs (``npuzzle.costs.scaled``).

Arrays they read, the ``Prices`` of one shape, goal and cost model: ``costs[t]`` the whole-number
cost of pushing tile ``t`` (0 for the blank); ``mdc[t * n + cell]`` the bound of tile ``t`` at
``cell`` (its Manhattan distance times its cost: the cost-weighted Manhattan distance is their sum;
all zero for uniform-cost search); ``nbr[cell * 4 + d]`` the blank's cell after step ``d`` or -1
(``geometry.neighbours``). A cost-aware additive pattern database adds ``pat[t]`` (the pattern of
tile ``t``, -1 for none: its ``mdc`` row is then the bound; the pattern tiles' rows are 0),
``pw[t]`` (``n**i`` for the ``i``-th tile of its pattern) and ``pdb`` (every pattern's table,
pattern ``p``'s from ``poff[p]``, indexed by ``sum(cell_i * n**i)``, ``_kernels/cost_pdb.py``).

Both run in slices of at most ``budget`` generated nodes and keep their whole state in the arrays
they are given, so the driver (``search/costs.py``) checks the clock and the limits between slices.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .jit import njit

#: A slice's outcome.
RUNNING, FOUND, EXHAUSTED, FULL, DONE = 0, 1, 2, 3, 4
#: ``actl`` places of the best-first search: nodes stored, heap entries, generated, expanded, the
#: goal's node, the largest f popped (with weight 1, a lower bound of the optimum).
A_NODES, A_HEAP, A_GEN, A_EXP, A_GOAL, A_LASTF = range(6)
A_SIZE = 6
#: ``ictl`` places of IDA*: depth (-1: the iteration starts), generated, expanded, the least f
#: pruned, the incumbent's cost (-1: none), its depth, pruned f beyond the histogram.
I_DEPTH, I_GEN, I_EXP, I_MINF, I_BEST, I_BESTD, I_OVER = range(7)
I_SIZE = 7
#: A mark larger than any cost.
INFINITE = np.int64(1) << 62


class Prices(NamedTuple):
    """A cost model's arrays for one shape and goal (see the module docstring); ``n`` cells."""

    n: int
    costs: np.ndarray
    mdc: np.ndarray
    nbr: np.ndarray
    pat: np.ndarray
    pw: np.ndarray
    pdb: np.ndarray
    poff: np.ndarray


class CostStack(NamedTuple):
    """IDA*'s path, one row a depth: the blank's cell, the next step to try, g, the bound, the
    incumbent's cells (``best``) and the patterns' indices (``pix[depth * m + p]``, ``m`` =
    max(patterns, 1))."""

    bl: np.ndarray
    dirs: np.ndarray
    gs: np.ndarray
    hs: np.ndarray
    best: np.ndarray
    pix: np.ndarray


class CostArena(NamedTuple):
    """The best-first search's nodes (packed position, g, bound, parent, closed), its seen set
    (open addressing, a power of two of slots, -1 for none) and its heap (f, g, node; twice as
    long as the arena: a node is pushed again when it is reached more cheaply)."""

    keys: np.ndarray
    g: np.ndarray
    h: np.ndarray
    parent: np.ndarray
    closed: np.ndarray
    table: np.ndarray
    hf: np.ndarray
    hg: np.ndarray
    hn: np.ndarray


@njit(inline=True)
def _slot(key, mask):
    """The hash table's first slot for ``key``."""
    x = key * np.int64(-7046029254386353131)
    return (x ^ (x >> 31)) & mask


@njit(inline=True)
def _change(t, q, b, pix, at, mdc, n, pat, pw, pdb, poff):
    """The bound's change when tile ``t`` slides from cell ``q`` to cell ``b`` (``pix[at + p]`` holds
    pattern ``p``'s index before the move; the rest are the ``Prices``' arrays, in the loop's locals)."""
    p = pat[t]
    if p < 0:
        return mdc[t * n + b] - mdc[t * n + q]
    old = poff[p] + pix[at + p]
    return pdb[old + (b - q) * pw[t]] - pdb[old]


@njit
def pack(cells):
    """A board of at most 16 cells as one int64 (4 bits a cell, cell 0 lowest)."""
    key = np.int64(0)
    for c in range(cells.shape[0]):
        key |= np.int64(cells[c]) << np.int64(4 * c)
    return key


@njit
def rehash(keys, count, table):
    """Fill the (empty, all -1) hash ``table`` with the first ``count`` nodes' keys."""
    mask = table.shape[0] - 1
    for i in range(count):
        s = _slot(keys[i], mask)
        while table[s] >= 0:
            s = (s + 1) & mask
        table[s] = i


@njit
def _sift_up(hf, hg, hn, i):
    f, g, node = hf[i], hg[i], hn[i]
    while i > 0:
        p = (i - 1) >> 1
        if hf[p] < f or (hf[p] == f and hg[p] >= g):
            break
        hf[i], hg[i], hn[i] = hf[p], hg[p], hn[p]
        i = p
    hf[i], hg[i], hn[i] = f, g, node


@njit
def _pop(hf, hg, hn, size):
    """Remove the heap's top (the least f, ties to the larger g); the new size."""
    size -= 1
    f, g, node = hf[size], hg[size], hn[size]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and (hf[c + 1] < hf[c] or (hf[c + 1] == hf[c] and hg[c + 1] > hg[c])):
            c += 1
        if f < hf[c] or (f == hf[c] and g >= hg[c]):
            break
        hf[i], hg[i], hn[i] = hf[c], hg[c], hn[c]
        i = c
    if size > 0:
        hf[i], hg[i], hn[i] = f, g, node
    return size


@njit
def best_first(arena, actl, prices, goal_key, num, den, budget):
    """Expand nodes until the goal is popped (FOUND), the heap empties (EXHAUSTED), the arrays
    could overflow (FULL: the driver grows them) or ``budget`` generated nodes (RUNNING), the
    nodes in the ``CostArena``, the scalars in ``actl`` (``A_*``). Priority ``den * g + num * h``
    (weight num/den), ties to the larger g. A node reached again more cheaply is reopened, closed
    or not (the pattern databases' bound is not consistent), so A* stays optimal."""
    keys, g, h, parent, closed, table, hf, hg, hn = arena
    n, costs, mdc, nbr, pat, pw, pdb, poff = prices
    cap, hcap, mask = keys.shape[0], hf.shape[0], table.shape[0] - 1
    count, size, gen, exp = actl[A_NODES], actl[A_HEAP], actl[A_GEN], actl[A_EXP]
    start_gen = gen
    board = np.zeros(n, np.int64)
    pix = np.zeros(max(poff.shape[0], 1), np.int64)
    status = EXHAUSTED
    while size > 0:
        if gen - start_gen >= budget:
            status = RUNNING
            break
        if count + 4 > cap or size + 4 > hcap:
            status = FULL
            break
        f, gg, node = hf[0], hg[0], hn[0]
        size = _pop(hf, hg, hn, size)
        if closed[node] or g[node] != gg:
            continue
        closed[node] = 1
        if f > actl[A_LASTF]:  # the least f open, never above the optimum: the bound proven
            actl[A_LASTF] = f
        key = keys[node]
        if key == goal_key:
            actl[A_GOAL] = node
            status = FOUND
            break
        exp += 1
        b = 0
        pix[:] = 0
        for c in range(n):
            board[c] = (key >> np.int64(4 * c)) & 15
            if board[c] == 0:
                b = c
            elif pat[board[c]] >= 0:
                pix[pat[board[c]]] += c * pw[board[c]]
        back = keys[parent[node]] if parent[node] >= 0 else np.int64(-1)
        for d in range(4):
            q = nbr[b * 4 + d]
            if q < 0:
                continue
            t = np.int64(board[q])
            child = key - (t << np.int64(4 * q)) + (t << np.int64(4 * b))
            if child == back:
                continue
            gen += 1
            cg = g[node] + costs[t]
            s = _slot(child, mask)
            while table[s] >= 0 and keys[table[s]] != child:
                s = (s + 1) & mask
            i = table[s]
            if i >= 0:
                if g[i] <= cg:
                    continue
                closed[i] = 0  # reopened: a pattern database's bound is admissible, not consistent
            else:
                i = count
                count += 1
                table[s] = i
                keys[i] = child
                closed[i] = 0
                h[i] = h[node] + _change(t, q, b, pix, 0, mdc, n, pat, pw, pdb, poff)
            g[i] = cg
            parent[i] = node
            hf[size], hg[size], hn[size] = den * cg + num * h[i], cg, i
            size += 1
            _sift_up(hf, hg, hn, size - 1)
    actl[A_NODES], actl[A_HEAP], actl[A_GEN], actl[A_EXP] = count, size, gen, exp
    return status


@njit
def ida_slice(board, stack, ictl, hist, width, prices, threshold, floor, budget):
    """One slice of one IDA* iteration at ``threshold`` (depth-first, parent pruning, the board in
    ``board``, the path in the ``CostStack``, the scalars in ``ictl``, ``I_*``). A goal found
    becomes the incumbent (its path copied into ``best``) and prunes every f at or above its cost
    from then on; the iteration ends at once (FOUND) if its cost is ``floor``, a proven lower
    bound, else when its tree is done (DONE). Pruned f above the threshold are counted in
    ``hist`` (buckets of ``width`` from ``threshold + 1``) for the driver's choice of the next
    threshold. RUNNING after ``budget`` nodes."""
    bl, dirs, gs, hs, best, pix = stack
    n, costs, mdc, nbr, pat, pw, pdb, poff = prices
    base = threshold + 1
    m = max(poff.shape[0], 1)
    nb = hist.shape[0]
    depth, gen, exp = ictl[I_DEPTH], ictl[I_GEN], ictl[I_EXP]
    start_gen = gen
    minf, inc = ictl[I_MINF], ictl[I_BEST]
    if inc < 0:
        inc = INFINITE
    status = DONE
    while depth >= 0:
        if gen - start_gen >= budget:
            status = RUNNING
            break
        dd = dirs[depth]
        if dd == 4:
            if depth > 0:  # undo the move into this node
                board[bl[depth]] = board[bl[depth - 1]]
                board[bl[depth - 1]] = 0
            depth -= 1
            continue
        dirs[depth] = dd + 1
        b = bl[depth]
        q = nbr[b * 4 + dd]
        if q < 0 or (depth > 0 and q == bl[depth - 1]):
            continue
        t = board[q]
        cg = gs[depth] + costs[t]
        ch = hs[depth] + _change(t, q, b, pix, depth * m, mdc, n, pat, pw, pdb, poff)
        f = cg + ch
        gen += 1
        if f >= inc:
            continue
        if f > threshold:
            if f < minf:
                minf = f
            k = (f - base) // width
            if k < nb:
                hist[k] += 1
            else:
                ictl[I_OVER] += 1
            continue
        exp += 1
        board[b] = t
        board[q] = 0
        depth += 1
        bl[depth], dirs[depth], gs[depth], hs[depth] = q, 0, cg, ch
        for i in range(m):
            pix[depth * m + i] = pix[(depth - 1) * m + i]
        if pat[t] >= 0:
            pix[depth * m + pat[t]] += (b - q) * pw[t]
        if ch == 0:
            inc = cg
            ictl[I_BESTD] = depth
            for i in range(depth + 1):
                best[i] = bl[i]
            dirs[depth] = 4  # nothing below a goal is cheaper
            if cg <= floor:
                status = FOUND
                break
    ictl[I_DEPTH], ictl[I_GEN], ictl[I_EXP], ictl[I_MINF] = depth, gen, exp, minf
    ictl[I_BEST] = inc if inc < INFINITE else -1
    return status
