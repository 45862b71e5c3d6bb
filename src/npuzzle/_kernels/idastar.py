"""IDA* over any m x n board: one iteration, resumable, with the heuristics it inlines.

Invariant of the explicit stack: ``board``/``blank`` hold the node at depth ``depth``; for every
depth d <= depth, ``hs[d]`` is its heuristic value and ``ks[d]`` the index of the next entry of
its move-order row to try; ``dirs[d]`` is the blank direction taken from depth d to d+1. Moves
are applied and undone in place, and the heuristic is updated incrementally.

Blank directions: 0 up, 1 left, 2 right, 3 down, so ``3 - d`` undoes ``d``. ``order[p + 1]``
lists the directions to try after a move in direction ``p`` (row 0 is the root), -1 padded; the
undoing direction is simply left out of the rows, so it is never generated.

Heuristics: 0 Manhattan distance (``md[tile * n + cell]``), 1 Manhattan plus linear conflict
(for every row and column, the tiles that are in their goal line but must leave it to let the
others pass: line length of such tiles minus their longest increasing run of goal positions,
two moves each). Both change parity with every move, so f keeps the parity of the start's.

``ctl`` holds the loop's scalars between calls: 0 depth, 1 blank, 2 generated, 3 expanded,
4 smallest f above the bound seen so far.
"""

from __future__ import annotations

import numpy as np

from .jit import njit

EXHAUSTED = 0
FOUND = 1
SLICE_DONE = 2


@njit
def line_conflicts(board, home, width, height, line, is_row, seq, lis):
    """Tiles of one row (``is_row``) or column that are in their goal line, minus the longest
    increasing subsequence of their goal positions along it: the tiles that must leave it.
    ``seq`` and ``lis`` are scratch arrays of at least max(width, height) entries."""
    length = width if is_row else height
    count = 0
    for i in range(length):
        cell = line * width + i if is_row else i * width + line
        t = board[cell]
        if t == 0:
            continue
        g = home[t]
        if is_row:
            if g // width == line:
                seq[count] = g % width
                count += 1
        elif g % width == line:
            seq[count] = g // width
            count += 1
    if count < 2:
        return 0
    best = 0
    for i in range(count):
        lis[i] = 1
        for j in range(i):
            if seq[j] < seq[i] and lis[j] + 1 > lis[i]:
                lis[i] = lis[j] + 1
        if lis[i] > best:
            best = lis[i]
    return count - best


@njit
def linear_conflict_lines(board, home, width, height, rows, cols):
    """Fill ``rows`` and ``cols`` with each line's conflict count; return their sum."""
    seq = np.empty(max(width, height), np.int64)
    lis = np.empty(max(width, height), np.int64)
    total = 0
    for r in range(height):
        rows[r] = line_conflicts(board, home, width, height, r, True, seq, lis)
        total += rows[r]
    for c in range(width):
        cols[c] = line_conflicts(board, home, width, height, c, False, seq, lis)
        total += cols[c]
    return total


@njit
def ida_iteration(board, home, md, succ, width, height, use_lc, bound,
                  dirs, ks, hs, rows, cols, saved, ctl, budget):
    """Run the iteration with threshold ``bound`` until it is exhausted, finds the goal (h = 0
    and the board is the goal), or has generated ``budget`` more nodes. Returns EXHAUSTED,
    FOUND or SLICE_DONE; every scalar needed to resume is in ``ctl``.

    ``succ[(blank * 5 + prev + 1) * 5 + k]`` is the k-th direction to try from ``blank`` after a
    move in direction ``prev`` (-1 at the root), already restricted to legal moves that do not
    undo ``prev``; each row ends with -1. ``ks[depth]`` is the index of the next entry to try."""
    n = width * height
    depth = ctl[0]
    blank = ctl[1]
    generated = ctl[2]
    expanded = ctl[3]
    min_over = ctl[4]
    stop_at = generated + budget
    seq = np.empty(max(width, height), np.int64)
    lis = np.empty(max(width, height), np.int64)
    status = EXHAUSTED
    while True:
        k = ks[depth]
        d = succ[k]
        if d < 0:
            if depth == 0:
                status = EXHAUSTED
                break
            # backtrack: the blank steps back the way it came
            depth -= 1
            d = dirs[depth]
            back = blank - _step(d, width)
            board[blank] = board[back]
            board[back] = 0
            if use_lc:
                if d == 1 or d == 2:
                    cols[back % width] = saved[2 * depth]
                    cols[blank % width] = saved[2 * depth + 1]
                else:
                    rows[back // width] = saved[2 * depth]
                    rows[blank // width] = saved[2 * depth + 1]
            blank = back
            continue
        if generated >= stop_at:
            status = SLICE_DONE
            break
        ks[depth] = k + 1
        q = blank + _step(d, width)
        tile = board[q]
        generated += 1
        h = hs[depth] + md[tile * n + blank] - md[tile * n + q]
        if use_lc:
            board[blank] = tile
            board[q] = 0
            if d == 1 or d == 2:
                a = blank % width
                b = q % width
                old = cols[a] + cols[b]
                na = line_conflicts(board, home, width, height, a, False, seq, lis)
                nb = line_conflicts(board, home, width, height, b, False, seq, lis)
            else:
                a = blank // width
                b = q // width
                old = rows[a] + rows[b]
                na = line_conflicts(board, home, width, height, a, True, seq, lis)
                nb = line_conflicts(board, home, width, height, b, True, seq, lis)
            h += 2 * (na + nb - old)
            f = depth + 1 + h
            if f > bound:
                board[q] = tile
                board[blank] = 0
                if f < min_over:
                    min_over = f
                continue
            if d == 1 or d == 2:
                saved[2 * depth] = cols[a]
                saved[2 * depth + 1] = cols[b]
                cols[a] = na
                cols[b] = nb
            else:
                saved[2 * depth] = rows[a]
                saved[2 * depth + 1] = rows[b]
                rows[a] = na
                rows[b] = nb
        else:
            f = depth + 1 + h
            if f > bound:
                if f < min_over:
                    min_over = f
                continue
            board[blank] = tile
            board[q] = 0
        dirs[depth] = d
        depth += 1
        blank = q
        hs[depth] = h
        ks[depth] = (q * 5 + d + 1) * 5
        expanded += 1
        if h == 0:
            at_goal = True
            for c in range(n):
                if board[c] != 0 and home[board[c]] != c:
                    at_goal = False
                    break
            if at_goal:
                status = FOUND
                break
    ctl[0] = depth
    ctl[1] = blank
    ctl[2] = generated
    ctl[3] = expanded
    ctl[4] = min_over
    return status


@njit
def _step(d, width):
    """Change of the blank's cell index for blank direction d (0 up, 1 left, 2 right, 3 down)."""
    if d == 0:
        return -width
    if d == 1:
        return -1
    if d == 2:
        return 1
    return width
