"""Beam search: breadth-first by layers, keeping the ``width`` best children of each layer.

Every layer holds boards at the same depth, so ranking them by an estimate alone ranks the
paths through them. The key of a board is ``sum(weight[t] * distance of tile t)`` plus
``lc_weight`` times its linear-conflict count; its goal is reached when every tile marked in
``target`` is home. ``active`` marks the cells the blank may enter (a region of the board, the
rest already solved). With ``prune``, a child whose admissible bound (Manhattan distance plus
twice the conflicts) says it cannot end within ``max_depth`` moves is dropped: that is how a
search looks only for answers shorter than the best one known.

Children are generated with the parent's move undone skipped, and a child whose hash was seen
in this or an earlier layer is skipped too. The hash is Zobrist's: the xor of
``zobrist[tile * n + cell]`` over the tiles and the blank. A caller that zeroes the keys of some
tiles makes boards that differ only in those tiles one: a search for a few tiles' goal then
keeps one board per placement of the tiles it cares about, instead of filling its beam with
boards that differ only in the others. The ``width`` best children by key are kept, taken in
key order (a counting sort), the first of each hash.

The seen-set is two open-addressing tables used in turn: when a layer's children might fill
the one being filled past half (the caller sizes them to at least twice the width), the older
one is cleared and takes its place. So memory stays bounded, and a board is
remembered for at least the last half table's worth of layers (older repeats only cost work,
never correctness: the caller replays every path).

Each kept board records its parent and the blank's step, so the path is read back from the
layer where the goal was reached.

Arguments. ``beam_search`` takes named tuples: the board's ``Grid`` (``_kernels.bounds``), the
``Aim`` (what the search looks for and how it ranks), the ``Size`` (beam width, depth, seen
tables, node cap) and the ``Patterns`` (the shared ``Bounds`` of pattern databases, or none).
The layers are searched in one function on purpose: with a layer's expansion and its cut as
functions of their own (even inlined by numba), the kernel took 4-12% more CPU on Korf &
Felner's 50 (docs/benchmarks.md, "The beam in one function").
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .bounds import H_MSUM, H_PAT, H_SUM, MIRROR, PDB, ZA, Bounds, line_conflicts, pdb_entry, rank_delta, za_entry
from .jit import njit

FOUND, EXHAUSTED, NODE_CAP = 0, 1, 2


class Aim(NamedTuple):
    """What a beam looks for and how it ranks (see the module docstring)."""

    active: np.ndarray  # the cells the blank may enter (uint8)
    weight: np.ndarray  # each tile's weight in the key
    target: np.ndarray  # the tiles that must reach home (uint8)
    zobrist: np.ndarray  # zobrist[tile * n + cell] (uint64)
    lc_weight: int  # the conflicts' weight in the key
    prune: bool  # drop children whose bound says they cannot end within ``max_depth`` moves


class Size(NamedTuple):
    """How much a beam may hold and do."""

    width: int  # boards kept per layer
    max_depth: int  # longest path looked for
    table_bits: int  # each seen-table has 2 ** table_bits slots
    node_cap: int  # children generated before NODE_CAP


class Patterns(NamedTuple):
    """Pattern databases to rank and bound by (a whole board's search): ``mode``'s ``PDB``,
    ``ZA`` and ``MIRROR`` bits (``_kernels.bounds``), the start's components from ``H_SUM`` on,
    and the ``Bounds`` (the goal's rows and columns are read from it in every search; without
    ``PDB`` its pattern arrays are one-element placeholders of the same types)."""

    mode: int
    comp: np.ndarray
    bnd: Bounds


@njit(inline=True)
def _find(table, mask, key):
    """The slot of ``key`` in ``table`` if present, else minus one minus the free slot it would take."""
    slot = key & mask
    while table[slot] != 0:
        if table[slot] == key:
            return np.int64(slot)
        slot = (slot + np.uint64(1)) & mask
    return -1 - np.int64(slot)


@njit(inline=True)
def _by_key(key, order, m, top, bottom):
    """Into ``order``, the first ``m`` children by ``key``, in their order among equal keys (a
    counting sort; ``top`` and ``bottom``: the largest and the smallest key)."""
    start_of = np.zeros(top - bottom + 2, np.int64)
    for j in range(m):
        start_of[key[j] - bottom + 1] += 1
    for v in range(top - bottom + 1):
        start_of[v + 1] += start_of[v]
    for j in range(m):
        order[start_of[key[j] - bottom]] = j
        start_of[key[j] - bottom] += 1


@njit
def beam_search(start, grid, aim, size, path, stats, pat):
    """Search from ``start`` (the tile on each cell) for a board with every ``aim.target`` tile
    home. Writes the blank's steps into ``path`` and returns ``(status, length)``: ``FOUND`` with
    a path of at most ``size.max_depth`` moves, ``EXHAUSTED`` if no kept board reached the goal
    within ``size.max_depth`` moves, ``NODE_CAP`` once ``size.node_cap`` children were generated.
    ``stats``: children generated, boards expanded, deepest layer.

    With ``PDB`` in ``pat.mode`` (a whole board's search) a child's key is twice its
    pattern-database bound (direct and mirrored, by max; updated for the moved tile's pattern as
    IDA* does) plus its linear-conflict count, which breaks the many ties among equal bounds
    (Korf & Felner's 50 at 1 s: 1.0270 and 1.0254 of the optimum against 1.0433 and 1.0345 by the
    bound alone, 1.0302 and 1.0266 with four times the bound); and it is pruned by that bound."""
    md, nbr, width, height = grid.md, grid.nbr, grid.width, grid.height
    active, weight, target, zobrist, lc_weight, prune = aim
    beam_width, max_depth, table_bits, node_cap = size
    bnd, comp0 = pat.bnd, pat.comp
    za = (pat.mode & ZA) != 0
    mirrored = (pat.mode & MIRROR) != 0
    pdb, pat_off, pat_of, pidx, pmult = bnd.pdb, bnd.pat_off, bnd.pat_of, bnd.pidx, bnd.pmult
    mpat_of, midx, mmult, mirror = bnd.mpat_of, bnd.midx, bnd.mmult, bnd.mirror
    use_pdb = (pat.mode & PDB) != 0
    npat = (comp0.shape[0] - (H_PAT - H_SUM)) // 4
    pcols = comp0.shape[0]
    n = height * width
    side = max(height, width)
    goal_row = grid.home // width  # fresh arrays: the compiler then knows no store in the loop changes them
    goal_col = grid.home % width
    cell_row = np.arange(n) // width
    cell_col = np.arange(n) % width
    seq = np.empty(side, np.int64)
    lis = np.empty(side, np.int64)
    cur = np.empty((beam_width, n), np.uint16)
    nxt = np.empty((beam_width, n), np.uint16)
    cur_blank = np.empty(beam_width, np.int64)
    nxt_blank = np.empty(beam_width, np.int64)
    cur_md = np.empty(beam_width, np.int64)  # Manhattan distance (for the bound)
    nxt_md = np.empty(beam_width, np.int64)
    cur_lc = np.empty(beam_width, np.int64)  # conflicts
    nxt_lc = np.empty(beam_width, np.int64)
    cur_lines = np.empty((beam_width, height + width), np.int8)  # each row's, then each column's conflicts
    nxt_lines = np.empty((beam_width, height + width), np.int8)
    cur_wd = np.empty(beam_width, np.int64)  # weighted distance (for the key)
    nxt_wd = np.empty(beam_width, np.int64)
    cur_left = np.empty(beam_width, np.int64)  # distance of the target tiles (0: goal)
    nxt_left = np.empty(beam_width, np.int64)
    cur_z = np.empty(beam_width, np.uint64)
    nxt_z = np.empty(beam_width, np.uint64)
    cur_last = np.empty(beam_width, np.int64)
    nxt_last = np.empty(beam_width, np.int64)
    parent = np.empty((max_depth + 1, beam_width), np.int32)
    step = np.empty((max_depth + 1, beam_width), np.int8)
    cands = 3 * beam_width + 4
    c_parent = np.empty(cands, np.int64)
    c_step = np.empty(cands, np.int64)
    c_md = np.empty(cands, np.int64)
    c_lc = np.empty(cands, np.int64)
    c_wd = np.empty(cands, np.int64)
    c_left = np.empty(cands, np.int64)
    c_z = np.empty(cands, np.uint64)
    c_key = np.empty(cands, np.int64)
    c_lines = np.empty((cands, 2), np.int64)  # the line whose conflicts changed (or -1), its new count
    order = np.empty(cands, np.int64)
    cur_pc = np.empty((beam_width, pcols), np.int64)  # the pattern components (``comp0``'s layout)
    nxt_pc = np.empty((beam_width, pcols), np.int64)
    c_pc = np.empty((cands, 8), np.int64)  # a child's direct sum, pattern, rank, entry; the mirrored ones
    ps, pm, pr = 0, H_MSUM - H_SUM, H_PAT - H_SUM  # places of the sums and the first rank in a row
    size = np.int64(1) << table_bits
    mask = np.uint64(size - 1)
    filling = np.zeros(size, np.uint64)
    older = np.zeros(size, np.uint64)
    in_filling = 0

    z = np.uint64(0)
    total = 0
    weighted = 0
    left = 0
    for c in range(n):
        t = start[c]
        cur[0, c] = t
        z ^= zobrist[t * n + c]
        if t == 0:
            cur_blank[0] = c
        else:
            d = md[c * n + t]
            total += d
            weighted += weight[t] * d
            if target[t]:
                left += d
    if left == 0:
        return FOUND, 0
    use_lc = prune or lc_weight > 0  # else the conflicts are neither ranked by nor bounded with
    cur_md[0] = total
    conflicts = 0
    for line in range(height + width):
        here = line_conflicts(start, goal_row, goal_col, width, height, line if line < height else line - height,
                               line < height, seq, lis) if use_lc else 0
        cur_lines[0, line] = here
        conflicts += here
    cur_lc[0] = conflicts
    cur_wd[0] = weighted
    cur_left[0] = left
    cur_z[0] = z
    cur_last[0] = -1
    for j in range(pcols):
        cur_pc[0, j] = comp0[j]
    filling[-1 - _find(filling, mask, z)] = z
    in_filling = 1
    count = 1
    generated = 0
    for depth in range(1, max_depth + 1):
        stats[2] = depth
        found = -1
        m = 0
        top = 0
        bottom = np.int64(1) << 62
        for i in range(count):
            b = cur_blank[i]
            row = cur[i]
            stats[1] += 1
            for d in range(4):
                q = nbr[b * 4 + d]
                if q < 0 or cur_last[i] == 3 - d or not active[q]:
                    continue
                t = row[q]
                change = md[b * n + t] - md[q * n + t]
                generated += 1
                child_left = cur_left[i] + change if target[t] else cur_left[i]
                if child_left == 0:
                    found = i * 4 + d
                    break
                child_md = cur_md[i] + change
                child_lc = cur_lc[i]
                # The tile leaves one line across the move and enters another: only the one that
                # is its goal line (if either is) changes its conflicts.
                across = d == 1 or d == 2  # the tile changes column, else row
                goal_line = goal_col[t] if across else goal_row[t]
                changed = use_lc and (goal_line == (cell_col[b] if across else cell_row[b])
                                      or goal_line == (cell_col[q] if across else cell_row[q]))
                line = goal_line + height if across else goal_line
                value = 0
                if changed:
                    row[b] = t
                    row[q] = 0
                    value = line_conflicts(row, goal_row, goal_col, width, height, goal_line, not across, seq, lis)
                    row[q] = t
                    row[b] = 0
                    child_lc += value - cur_lines[i, line]
                hp = 0
                if use_pdb:
                    ub = np.uint64(b)
                    uq = np.uint64(q)
                    pi = pat_of[t]
                    prank = cur_pc[i, pr + pi] + rank_delta(row, t, uq, ub, pi, pat_of, pidx, pmult, mirror, False)
                    if za:
                        pval = za_entry(pdb, pat_off[pi] + 2 * prank, row, q, b, pi, pat_of, nbr)
                    else:
                        pval = pdb_entry(pdb, pat_off[pi] + prank)
                    dsum = cur_pc[i, ps] + change + 2 * (pval - cur_pc[i, pr + npat + pi])
                    hp = dsum
                    c_pc[m, 0] = dsum
                    c_pc[m, 1] = pi
                    c_pc[m, 2] = prank
                    c_pc[m, 3] = pval
                    if mirrored:
                        mpi = mpat_of[t]
                        mrank = cur_pc[i, pr + 2 * npat + mpi] + rank_delta(row, t, uq, ub, mpi, mpat_of, midx, mmult,
                                                                            mirror, True)
                        if za:
                            mval = za_entry(pdb, pat_off[mpi] + 2 * mrank, row, q, b, mpi, mpat_of, nbr)
                        else:
                            mval = pdb_entry(pdb, pat_off[mpi] + mrank)
                        msum = cur_pc[i, pm] + change + 2 * (mval - cur_pc[i, pr + 3 * npat + mpi])
                        hp = max(hp, msum)
                        c_pc[m, 4] = msum
                        c_pc[m, 5] = mpi
                        c_pc[m, 6] = mrank
                        c_pc[m, 7] = mval
                    if prune and depth + hp > max_depth:
                        continue
                elif prune and depth + child_md + 2 * child_lc > max_depth:
                    continue
                child_z = cur_z[i] ^ zobrist[t * n + q] ^ zobrist[t * n + b] ^ zobrist[q] ^ zobrist[b]
                if _find(filling, mask, child_z) >= 0 or _find(older, mask, child_z) >= 0:
                    continue
                child_wd = cur_wd[i] + weight[t] * change
                c_parent[m] = i
                c_step[m] = d
                c_md[m] = child_md
                c_lc[m] = child_lc
                c_wd[m] = child_wd
                c_left[m] = child_left
                c_z[m] = child_z
                c_lines[m, 0] = line if changed else -1
                c_lines[m, 1] = value
                key = 2 * hp + child_lc if use_pdb else child_wd + lc_weight * child_lc
                c_key[m] = key
                if key > top:
                    top = key
                if key < bottom:
                    bottom = key
                m += 1
            if found >= 0:
                break
        stats[0] = generated
        if found >= 0:
            path[depth - 1] = found % 4
            i = found // 4
            for level in range(depth - 1, 0, -1):
                path[level - 1] = step[level, i]
                i = parent[level, i]
            return FOUND, depth
        if m == 0:
            return EXHAUSTED, 0
        if generated >= node_cap:
            return NODE_CAP, 0
        _by_key(c_key, order, m, top, bottom)
        if 2 * (in_filling + beam_width) > size:  # this layer might fill it past half: start afresh
            older, filling = filling, older
            filling[:] = 0
            in_filling = 0
        k = 0
        for o in range(m):
            if k == beam_width:
                break
            j = order[o]
            slot = _find(filling, mask, c_z[j])
            if slot >= 0:  # a better child of another parent reached it first
                continue
            filling[-1 - slot] = c_z[j]
            in_filling += 1
            i = c_parent[j]
            d = c_step[j]
            b = cur_blank[i]
            q = nbr[b * 4 + d]
            for c in range(n):
                nxt[k, c] = cur[i, c]
            nxt[k, b] = cur[i, q]
            nxt[k, q] = 0
            nxt_blank[k] = q
            nxt_md[k] = c_md[j]
            nxt_lc[k] = c_lc[j]
            for line in range(height + width):
                nxt_lines[k, line] = cur_lines[i, line]
            if c_lines[j, 0] >= 0:
                nxt_lines[k, c_lines[j, 0]] = c_lines[j, 1]
            nxt_wd[k] = c_wd[j]
            nxt_left[k] = c_left[j]
            if use_pdb:
                for col in range(pcols):
                    nxt_pc[k, col] = cur_pc[i, col]
                nxt_pc[k, ps] = c_pc[j, 0]
                nxt_pc[k, pr + c_pc[j, 1]] = c_pc[j, 2]
                nxt_pc[k, pr + npat + c_pc[j, 1]] = c_pc[j, 3]
                if mirrored:
                    nxt_pc[k, pm] = c_pc[j, 4]
                    nxt_pc[k, pr + 2 * npat + c_pc[j, 5]] = c_pc[j, 6]
                    nxt_pc[k, pr + 3 * npat + c_pc[j, 5]] = c_pc[j, 7]
            nxt_z[k] = c_z[j]
            nxt_last[k] = d
            parent[depth, k] = i
            step[depth, k] = d
            k += 1
        count = k
        cur, nxt = nxt, cur
        cur_blank, nxt_blank = nxt_blank, cur_blank
        cur_md, nxt_md = nxt_md, cur_md
        cur_lc, nxt_lc = nxt_lc, cur_lc
        cur_lines, nxt_lines = nxt_lines, cur_lines
        cur_wd, nxt_wd = nxt_wd, cur_wd
        cur_left, nxt_left = nxt_left, cur_left
        cur_z, nxt_z = nxt_z, cur_z
        cur_last, nxt_last = nxt_last, cur_last
        cur_pc, nxt_pc = nxt_pc, cur_pc
    return EXHAUSTED, 0
