"""IDA* over any m x n board: one iteration, resumable, with the heuristics it inlines.

Invariant of the explicit stack: ``board`` holds the node at depth ``depth``, whose blank is at
``blanks[depth]``; for every d <= depth, ``blanks[d]`` and ``hs[d]`` are the blank cell and the
heuristic value of the node at depth d on the current path, and ``ks[d]`` is the index in
``succ_q`` of its next move to try. Moves are applied and undone in place; the heuristic is
updated incrementally from tables.

Moves. ``succ_q[k]`` is the blank's next cell and ``succ_next[k]`` the row of moves to try from
there; a row lists the legal blank steps in the chosen move order, leaves out the step that
undoes the one just made (so it is never generated) and ends with ``NONE``.

Heuristics (``lc_mode``): 0 Manhattan distance, ``md[cell * n + tile]``. 1 and 2 add the linear
conflict: in every row and column, the tiles that are in their goal line but must leave it to let
the others pass (the number of such tiles minus their longest run in goal order), two moves
each. Mode 1 keeps, for every row and column, a key ``sum(code(cell) * (L + 1) ** position)``
(code = 1 + the tile's goal position along the line if the line is its goal line, else 0) and
looks the line's conflicts up in ``rtab``/``ctab``; mode 2 (lines longer than 7) recomputes
the two lines a move changes. Every move changes h by an odd amount, so f keeps the parity of
the start's Manhattan distance.

``ctl`` carries the loop's scalars between calls: 0 depth, 1 generated, 2 expanded, 3 the
smallest amount by which a child's f exceeded the bound.
"""

from __future__ import annotations

import numpy as np

from .jit import njit

EXHAUSTED = 0
FOUND = 1
SLICE_DONE = 2

#: Longest line whose linear-conflict table is built ((L + 1) ** L one-byte entries).
MAX_TABLE_LINE = 7


@njit
def must_leave(seq, count, lis):
    """How many of ``seq[:count]`` must leave the line so the rest are in increasing order:
    ``count`` minus the longest increasing subsequence (``lis`` is scratch)."""
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
def line_conflicts(board, home, width, height, line, is_row, seq, lis):
    """Linear conflicts of one row (``is_row``) or column: its tiles that belong to it, minus the
    longest increasing subsequence of their goal positions. ``seq``/``lis`` are scratch arrays."""
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
    return must_leave(seq, count, lis)


@njit
def linear_conflict(board, home, width, height):
    """Sum of the line conflicts of every row and column (the extra moves are twice this)."""
    seq = np.empty(max(width, height), np.int64)
    lis = np.empty(max(width, height), np.int64)
    total = 0
    for r in range(height):
        total += line_conflicts(board, home, width, height, r, True, seq, lis)
    for c in range(width):
        total += line_conflicts(board, home, width, height, c, False, seq, lis)
    return total


@njit
def line_table(length):
    """Conflicts of every line key of a line of ``length`` cells (codes 0..length per cell)."""
    base = length + 1
    size = base**length
    table = np.zeros(size, np.int8)
    seq = np.empty(length, np.int64)
    lis = np.empty(length, np.int64)
    for key in range(size):
        count = 0
        rest = key
        for _ in range(length):
            code = rest % base
            rest //= base
            if code:
                seq[count] = code
                count += 1
        table[key] = must_leave(seq, count, lis)
    return table


@njit
def line_keys(board, rc, cc, n, row_of, col_of, rowkey, colkey):
    """Fill the row and column keys of ``board`` for table-driven linear conflict."""
    nn = np.uint64(n)
    rowkey[:] = 0
    colkey[:] = 0
    for c in range(n):
        cell = np.uint64(c)
        t = board[cell]
        rowkey[row_of[cell]] += rc[t * nn + cell]
        colkey[col_of[cell]] += cc[t * nn + cell]


ONE = np.uint64(1)
ZERO = np.uint64(0)
NONE = np.uint64(0xFFFFFFFFFFFFFFFF)


def _iteration_kernel(lc_mode):
    """The iteration kernel specialised for one heuristic (``lc_mode`` is a compile-time
    constant of the closure, so the other heuristics' code is not even compiled in)."""

    @njit
    def ida_iteration(board, home, dmd, succ_q, succ_next, width, height, row_of, col_of,
                      rc, cc, rtab, ctab, rowkey, colkey, bound, blanks, ks, hs, ctl, budget):
        """Run the iteration with threshold ``bound`` until it is exhausted, finds the goal, or has
        generated ``budget`` more nodes. Returns EXHAUSTED, FOUND or SLICE_DONE; everything needed
        to resume is in the arrays and ``ctl``.

        Cells, tiles and move indices are unsigned (numba then skips the negative-index fix-up on
        every array access). ``dmd[k * n + tile]`` is the change of Manhattan distance when ``tile``
        makes move ``k``. The current node's move index ``k``, heuristic ``h`` and the largest child
        heuristic that keeps f within the bound (``room``) live in locals; the stacks are touched
        only when a child is entered or left. ``row_of``/``col_of`` replace divisions."""
        nn = np.uint64(width * height)
        depth = np.uint64(ctl[0])
        generated = ctl[1]
        expanded = ctl[2]
        min_over = ctl[3]
        stop_at = generated + budget
        blank = blanks[depth]
        k = ks[depth]
        h = hs[depth]
        room = bound - ctl[0] - 1
        seq = np.empty(max(width, height), np.int64)
        lis = np.empty(max(width, height), np.int64)
        status = EXHAUSTED
        while True:
            q = succ_q[k]
            if q == NONE:
                if depth == ZERO:
                    status = EXHAUSTED
                    break
                # backtrack: the tile that moved into the parent's blank cell goes back
                depth -= ONE
                p = blanks[depth]
                t = board[p]
                board[blank] = t
                board[p] = ZERO
                if lc_mode == 1:
                    _move_keys(t, p, blank, nn, row_of, col_of, rc, cc, rowkey, colkey)
                blank = p
                k = ks[depth]
                h = hs[depth]
                room += 1
                continue
            if generated >= stop_at:
                status = SLICE_DONE
                break
            t = board[q]
            generated += 1
            hc = h + dmd[k * nn + t]
            k += ONE
            if lc_mode == 1:
                hc += 2 * _table_delta(t, q, blank, nn, row_of, col_of, rc, cc, rtab, ctab, rowkey, colkey)
            elif lc_mode == 2:
                hc += 2 * _direct_delta(board, home, t, q, blank, width, height, row_of, col_of, seq, lis)
            if hc > room:
                if hc - room < min_over:
                    min_over = hc - room
                continue
            board[blank] = t
            board[q] = ZERO
            if lc_mode == 1:
                _move_keys(t, q, blank, nn, row_of, col_of, rc, cc, rowkey, colkey)
            ks[depth] = k
            depth += ONE
            blank = q
            blanks[depth] = q
            hs[depth] = hc
            h = hc
            room -= 1
            k = succ_next[k - ONE]
            expanded += 1
            if h == 0 and _at_goal(board, home, width * height):
                status = FOUND
                break
        ks[depth] = k
        ctl[0] = np.int64(depth)
        ctl[1] = generated
        ctl[2] = expanded
        ctl[3] = min_over
        return status

    return ida_iteration


@njit
def _at_goal(board, home, n):
    for c in range(n):
        t = board[c]
        if t != 0 and home[t] != c:
            return False
    return True


@njit(inline=True)
def _move_keys(t, src, dst, nn, row_of, col_of, rc, cc, rowkey, colkey):
    """Update the line keys for tile ``t`` moving from cell ``src`` to cell ``dst``."""
    rowkey[row_of[src]] -= rc[t * nn + src]
    rowkey[row_of[dst]] += rc[t * nn + dst]
    colkey[col_of[src]] -= cc[t * nn + src]
    colkey[col_of[dst]] += cc[t * nn + dst]


@njit(inline=True)
def _table_delta(t, src, dst, nn, row_of, col_of, rc, cc, rtab, ctab, rowkey, colkey):
    """Change of the line-conflict count when tile ``t`` moves from ``src`` to ``dst``: only the
    two lines across the move change their conflicts (the order along the move's line stays)."""
    if row_of[src] == row_of[dst]:
        a = col_of[src]
        b = col_of[dst]
        old_a = colkey[a]
        old_b = colkey[b]
        return (np.int64(ctab[old_a - cc[t * nn + src]]) + np.int64(ctab[old_b + cc[t * nn + dst]])
                - np.int64(ctab[old_a]) - np.int64(ctab[old_b]))
    a = row_of[src]
    b = row_of[dst]
    old_a = rowkey[a]
    old_b = rowkey[b]
    return (np.int64(rtab[old_a - rc[t * nn + src]]) + np.int64(rtab[old_b + rc[t * nn + dst]])
            - np.int64(rtab[old_a]) - np.int64(rtab[old_b]))


@njit
def _direct_delta(board, home, t, src, dst, width, height, row_of, col_of, seq, lis):
    """Like ``_table_delta`` but recomputing the two lines (for lines too long for a table)."""
    horizontal = row_of[src] == row_of[dst]
    a = np.int64(col_of[src] if horizontal else row_of[src])
    b = np.int64(col_of[dst] if horizontal else row_of[dst])
    is_row = not horizontal
    before = (line_conflicts(board, home, width, height, a, is_row, seq, lis)
              + line_conflicts(board, home, width, height, b, is_row, seq, lis))
    board[dst] = t
    board[src] = 0
    after = (line_conflicts(board, home, width, height, a, is_row, seq, lis)
             + line_conflicts(board, home, width, height, b, is_row, seq, lis))
    board[src] = t
    board[dst] = 0
    return after - before


def _lengths_kernel(lc_mode, ida_iteration):
    @njit
    def ida_lengths(boards, home, md, dmd, succ_q, succ_next, width, height, row_of, col_of,
                    rc, cc, rtab, ctab, lengths, nodes):
        """Full IDA* on every row of ``boards`` (each a solvable position): the optimal length into
        ``lengths`` and the nodes generated (Korf's count) into ``nodes``."""
        n = width * height
        rowkey = np.zeros(height, np.uint64)
        colkey = np.zeros(width, np.uint64)
        ctl = np.zeros(4, np.int64)
        big = np.iinfo(np.int64).max
        for i in range(boards.shape[0]):
            board = boards[i].copy()
            md0 = 0
            blank = 0
            for c in range(n):
                if board[c] == 0:
                    blank = c
                else:
                    md0 += md[c * n + np.int64(board[c])]
            h0 = md0
            if lc_mode != 0:
                h0 += 2 * linear_conflict(board, home, width, height)
            if lc_mode == 1:
                line_keys(board, rc, cc, n, row_of, col_of, rowkey, colkey)
            bound = h0 + ((h0 ^ md0) & 1)
            total = 1
            lengths[i] = 0
            while h0 != 0:
                blanks = np.zeros(bound + 2, np.uint64)
                ks = np.zeros(bound + 2, np.uint64)
                hs = np.zeros(bound + 2, np.int64)
                blanks[0] = blank
                ks[0] = blank * 25
                hs[0] = h0
                ctl[0] = 0
                ctl[1] = 0
                ctl[2] = 1
                ctl[3] = big
                status = ida_iteration(board, home, dmd, succ_q, succ_next, width, height,
                                       row_of, col_of, rc, cc, rtab, ctab, rowkey, colkey, bound,
                                       blanks, ks, hs, ctl, big)
                total += ctl[1]
                if status == FOUND:
                    lengths[i] = ctl[0]
                    break
                nxt = bound + ctl[3]
                bound = nxt + ((nxt ^ md0) & 1)
            nodes[i] = total

    return ida_lengths


#: ``ITERATION[lc_mode]`` and ``LENGTHS[lc_mode]``: the kernels for each heuristic.
ITERATION = tuple(_iteration_kernel(mode) for mode in range(3))
LENGTHS = tuple(_lengths_kernel(mode, ITERATION[mode]) for mode in range(3))
