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
A layer's boards and their values are a ``Layer``; a layer's children before the cut, ``Kids``.
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


class Layer(NamedTuple):
    """The boards of one layer and, per board, its blank's cell, Manhattan distance (for the
    bound), conflicts, each row's then each column's conflicts, weighted distance (for the key),
    distance of the target tiles (0: goal), hash, last step and pattern components
    (``Patterns.comp``'s layout)."""

    boards: np.ndarray
    blank: np.ndarray
    md: np.ndarray
    lc: np.ndarray
    lines: np.ndarray
    wd: np.ndarray
    left: np.ndarray
    z: np.ndarray
    last: np.ndarray
    pc: np.ndarray


class Kids(NamedTuple):
    """A layer's children before the cut: parent, step, ``Layer``'s values, key, the line whose
    conflicts changed (or -1) and its new count, the pattern values that changed (direct sum,
    pattern, rank, entry; the mirrored ones), and ``order`` (by key, ``_by_key``)."""

    parent: np.ndarray
    step: np.ndarray
    md: np.ndarray
    lc: np.ndarray
    wd: np.ndarray
    left: np.ndarray
    z: np.ndarray
    key: np.ndarray
    lines: np.ndarray
    pc: np.ndarray
    order: np.ndarray


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
def _first(start, grid, aim, pat, cur, seq, lis):
    """Put ``start`` as the only board of ``cur``; return its target tiles' distance (0: goal)."""
    md, width, height = grid.md, grid.width, grid.height
    goal_row, goal_col, comp = pat.bnd.goal_row, pat.bnd.goal_col, pat.comp
    zobrist, weight, target = aim.zobrist, aim.weight, aim.target
    boards, blank, md_, lc, lines, wd, left_, z_, last, pc = cur
    n = width * height
    z = np.uint64(0)
    total = 0
    weighted = 0
    left = 0
    for c in range(n):
        t = start[c]
        boards[0, c] = t
        z ^= zobrist[t * n + c]
        if t == 0:
            blank[0] = c
        else:
            d = md[c * n + t]
            total += d
            weighted += weight[t] * d
            if target[t]:
                left += d
    use_lc = aim.prune or aim.lc_weight > 0  # else the conflicts are neither ranked by nor bounded with
    md_[0] = total
    conflicts = 0
    for line in range(height + width):
        r = line if line < height else line - height
        here = line_conflicts(boards[0], goal_row, goal_col, width, height, r, line < height, seq, lis) if use_lc else 0
        lines[0, line] = here
        conflicts += here
    lc[0] = conflicts
    wd[0] = weighted
    left_[0] = left
    z_[0] = z
    last[0] = -1
    for j in range(comp.shape[0]):
        pc[0, j] = comp[j]
    return left


@njit
def _expand(cur, count, depth, grid, aim, size, pat, filling, older, kids, stats):
    """Every child of the layer ``cur`` (``count`` boards at ``depth - 1``) into ``kids``, but
    those undoing a step, leaving the active cells, seen before or (``aim.prune``) too far from
    the goal. Returns (children, the first parent * 4 + step reaching the goal or -1, the
    largest key, the smallest key); counts into ``stats``."""
    md, nbr, width, height = grid.md, grid.nbr, grid.width, grid.height
    active, weight, target, zobrist, lc_weight, prune = aim
    max_depth = size.max_depth
    pmode, bnd = pat.mode, pat.bnd
    use_pdb = (pmode & PDB) != 0
    za = (pmode & ZA) != 0
    mirrored = (pmode & MIRROR) != 0
    pdb, pat_off, pat_of, pidx, pmult = bnd.pdb, bnd.pat_off, bnd.pat_of, bnd.pidx, bnd.pmult
    mpat_of, midx, mmult, mirror = bnd.mpat_of, bnd.midx, bnd.mmult, bnd.mirror
    goal_row, goal_col = bnd.goal_row, bnd.goal_col
    npat = (pat.comp.shape[0] - (H_PAT - H_SUM)) // 4
    ps, pm, pr = 0, H_MSUM - H_SUM, H_PAT - H_SUM  # places of the sums and the first rank in a row
    boards, cur_blank, cur_md, cur_lc, cur_lines = cur.boards, cur.blank, cur.md, cur.lc, cur.lines
    cur_wd, cur_left, cur_z, cur_last, cur_pc = cur.wd, cur.left, cur.z, cur.last, cur.pc
    c_parent, c_step, c_md, c_lc, c_wd, c_left = kids.parent, kids.step, kids.md, kids.lc, kids.wd, kids.left
    c_z, c_key, c_lines, c_pc = kids.z, kids.key, kids.lines, kids.pc
    n = height * width
    cell_row = np.arange(n) // width
    cell_col = np.arange(n) % width
    side = max(height, width)
    seq = np.empty(side, np.int64)
    lis = np.empty(side, np.int64)
    mask = np.uint64(filling.shape[0] - 1)
    use_lc = prune or lc_weight > 0
    found = -1
    m = 0
    top = 0
    bottom = np.int64(1) << 62
    generated = 0
    for i in range(count):
        b = cur_blank[i]
        row = boards[i]
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
    stats[0] += generated
    return m, found, top, bottom


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


@njit(inline=True)
def _keep(cur, nxt, kids, m, depth, nbr, pmode, filling, parent, step):
    """Into ``nxt``, the best children of ``cur`` by key, at most as many as it holds, the first
    of each hash (entered into ``filling``); record each one's parent and step at ``depth``.
    Returns how many."""
    beam_width, n = nxt.boards.shape
    use_pdb = (pmode & PDB) != 0
    mirrored = (pmode & MIRROR) != 0
    pcols = cur.pc.shape[1]
    npat = (pcols - (H_PAT - H_SUM)) // 4
    ps, pm, pr = 0, H_MSUM - H_SUM, H_PAT - H_SUM
    mask = np.uint64(filling.shape[0] - 1)
    c_parent, c_step, c_md, c_lc, c_wd, c_left = kids.parent, kids.step, kids.md, kids.lc, kids.wd, kids.left
    c_z, c_lines, c_pc, order = kids.z, kids.lines, kids.pc, kids.order
    boards, blank, md, lc, lines, wd, left, z, last, pc = nxt
    cur_boards, cur_blank, cur_lines, cur_pc = cur.boards, cur.blank, cur.lines, cur.pc
    k = 0
    for o in range(m):
        if k == beam_width:
            break
        j = order[o]
        slot = _find(filling, mask, c_z[j])
        if slot >= 0:  # a better child of another parent reached it first
            continue
        filling[-1 - slot] = c_z[j]
        i = c_parent[j]
        d = c_step[j]
        b = cur_blank[i]
        q = nbr[b * 4 + d]
        for c in range(n):
            boards[k, c] = cur_boards[i, c]
        boards[k, b] = cur_boards[i, q]
        boards[k, q] = 0
        blank[k] = q
        md[k] = c_md[j]
        lc[k] = c_lc[j]
        for line in range(lines.shape[1]):
            lines[k, line] = cur_lines[i, line]
        if c_lines[j, 0] >= 0:
            lines[k, c_lines[j, 0]] = c_lines[j, 1]
        wd[k] = c_wd[j]
        left[k] = c_left[j]
        if use_pdb:
            for col in range(pcols):
                pc[k, col] = cur_pc[i, col]
            pc[k, ps] = c_pc[j, 0]
            pc[k, pr + c_pc[j, 1]] = c_pc[j, 2]
            pc[k, pr + npat + c_pc[j, 1]] = c_pc[j, 3]
            if mirrored:
                pc[k, pm] = c_pc[j, 4]
                pc[k, pr + 2 * npat + c_pc[j, 5]] = c_pc[j, 6]
                pc[k, pr + 3 * npat + c_pc[j, 5]] = c_pc[j, 7]
        z[k] = c_z[j]
        last[k] = d
        parent[depth, k] = i
        step[depth, k] = d
        k += 1
    return k


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
    beam_width, max_depth = size.width, size.max_depth
    n = grid.height * grid.width
    side = max(grid.height, grid.width)
    seq = np.empty(side, np.int64)
    lis = np.empty(side, np.int64)
    lines, pcols = grid.height + grid.width, pat.comp.shape[0]
    cur = Layer(np.empty((beam_width, n), np.uint16), np.empty(beam_width, np.int64), np.empty(beam_width, np.int64),
                np.empty(beam_width, np.int64), np.empty((beam_width, lines), np.int8), np.empty(beam_width, np.int64),
                np.empty(beam_width, np.int64), np.empty(beam_width, np.uint64), np.empty(beam_width, np.int64),
                np.empty((beam_width, pcols), np.int64))
    nxt = Layer(np.empty((beam_width, n), np.uint16), np.empty(beam_width, np.int64), np.empty(beam_width, np.int64),
                np.empty(beam_width, np.int64), np.empty((beam_width, lines), np.int8), np.empty(beam_width, np.int64),
                np.empty(beam_width, np.int64), np.empty(beam_width, np.uint64), np.empty(beam_width, np.int64),
                np.empty((beam_width, pcols), np.int64))
    cands = 3 * beam_width + 4
    kids = Kids(np.empty(cands, np.int64), np.empty(cands, np.int64), np.empty(cands, np.int64),
                np.empty(cands, np.int64), np.empty(cands, np.int64), np.empty(cands, np.int64),
                np.empty(cands, np.uint64), np.empty(cands, np.int64), np.empty((cands, 2), np.int64),
                np.empty((cands, 8), np.int64), np.empty(cands, np.int64))
    parent = np.empty((max_depth + 1, beam_width), np.int32)
    step = np.empty((max_depth + 1, beam_width), np.int8)
    table = np.int64(1) << size.table_bits
    filling = np.zeros(table, np.uint64)
    older = np.zeros(table, np.uint64)
    if _first(start, grid, aim, pat, cur, seq, lis) == 0:
        return FOUND, 0
    filling[-1 - _find(filling, np.uint64(table - 1), cur.z[0])] = cur.z[0]
    in_filling = 1
    count = 1
    stats[0] = 0
    for depth in range(1, max_depth + 1):
        stats[2] = depth
        m, found, top, bottom = _expand(cur, count, depth, grid, aim, size, pat, filling, older, kids, stats)
        if found >= 0:
            path[depth - 1] = found % 4
            i = found // 4
            for level in range(depth - 1, 0, -1):
                path[level - 1] = step[level, i]
                i = parent[level, i]
            return FOUND, depth
        if m == 0:
            return EXHAUSTED, 0
        if stats[0] >= size.node_cap:
            return NODE_CAP, 0
        _by_key(kids.key, kids.order, m, top, bottom)
        if 2 * (in_filling + beam_width) > table:  # this layer might fill it past half: start afresh
            older, filling = filling, older
            filling[:] = 0
            in_filling = 0
        count = _keep(cur, nxt, kids, m, depth, grid.nbr, pat.mode, filling, parent, step)
        in_filling += count
        cur, nxt = nxt, cur
    return EXHAUSTED, 0
