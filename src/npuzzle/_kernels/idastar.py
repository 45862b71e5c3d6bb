"""IDA* over any m x n board: one iteration, resumable, with the heuristics it inlines.

Invariant of the explicit stack: ``board`` holds the node at depth ``depth``, whose blank is at
``blanks[depth]``; for every d <= depth, ``blanks[d]`` and ``hs[d]`` are the blank cell and the
heuristic value of the node at depth d on the current path, and ``ks[d]`` is the index in
``succ_q`` of its next move to try. Moves are applied and undone in place; the heuristic is
updated incrementally from tables.

Moves. ``succ_q[k]`` is the blank's next cell and ``succ_next[k]`` the row of moves to try from
there; a row lists the legal blank steps in the chosen move order, leaves out the step that
undoes the one just made (so it is never generated) and ends with -1.

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
        best = 0
        for i in range(count):
            lis[i] = 1
            for j in range(i):
                if seq[j] < seq[i] and lis[j] + 1 > lis[i]:
                    lis[i] = lis[j] + 1
            if lis[i] > best:
                best = lis[i]
        table[key] = count - best
    return table


@njit
def line_keys(board, rc, cc, width, height, rowkey, colkey):
    """Fill the row and column keys of ``board`` for table-driven linear conflict."""
    n = width * height
    rowkey[:] = 0
    colkey[:] = 0
    for cell in range(n):
        t = board[cell]
        rowkey[cell // width] += rc[t * n + cell]
        colkey[cell % width] += cc[t * n + cell]


@njit
def ida_iteration(board, home, md, succ_q, succ_next, width, height, lc_mode, row_of, col_of,
                  rc, cc, rtab, ctab, rowkey, colkey, bound, blanks, ks, hs, ctl, budget):
    """Run the iteration with threshold ``bound`` until it is exhausted, finds the goal, or has
    generated ``budget`` more nodes. Returns EXHAUSTED, FOUND or SLICE_DONE; everything needed
    to resume is in the arrays and ``ctl``. ``row_of``/``col_of`` give each cell's row and column
    (a lookup is much cheaper than a division in the inner loop).

    The current node's move index ``k``, heuristic ``h`` and the largest child heuristic that
    keeps f within the bound (``room``) live in locals; the stacks are touched only when a
    child is entered or left. ``md`` is indexed ``cell * n + tile``."""
    n = width * height
    depth = ctl[0]
    generated = ctl[1]
    expanded = ctl[2]
    min_over = ctl[3]
    stop_at = generated + budget
    blank = blanks[depth]
    k = ks[depth]
    h = hs[depth]
    room = bound - depth - 1
    here = blank * n
    seq = np.empty(max(width, height), np.int64)
    lis = np.empty(max(width, height), np.int64)
    status = EXHAUSTED
    while True:
        q = succ_q[k]
        if q < 0:
            if depth == 0:
                status = EXHAUSTED
                break
            # backtrack: the tile that moved into the parent's blank cell goes back
            depth -= 1
            p = blanks[depth]
            t = board[p]
            board[blank] = t
            board[p] = 0
            if lc_mode == 1:
                _move_keys(t, p, blank, n, row_of, col_of, rc, cc, rowkey, colkey)
            blank = p
            here = p * n
            k = ks[depth]
            h = hs[depth]
            room += 1
            continue
        if generated >= stop_at:
            status = SLICE_DONE
            break
        k += 1
        t = board[q]
        generated += 1
        hc = h + md[here + t] - md[q * n + t]
        if lc_mode == 1:
            hc += 2 * _table_delta(t, q, blank, n, row_of, col_of, rc, cc, rtab, ctab, rowkey, colkey)
        elif lc_mode == 2:
            hc += 2 * _direct_delta(board, home, t, q, blank, width, height, seq, lis)
        if hc > room:
            if hc - room < min_over:
                min_over = hc - room
            continue
        board[blank] = t
        board[q] = 0
        if lc_mode == 1:
            _move_keys(t, q, blank, n, row_of, col_of, rc, cc, rowkey, colkey)
        ks[depth] = k
        depth += 1
        blank = q
        here = q * n
        blanks[depth] = q
        hs[depth] = hc
        h = hc
        room -= 1
        k = succ_next[k - 1]
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
    ks[depth] = k
    ctl[0] = depth
    ctl[1] = generated
    ctl[2] = expanded
    ctl[3] = min_over
    return status


@njit(inline=True)
def _move_keys(t, src, dst, n, row_of, col_of, rc, cc, rowkey, colkey):
    """Update the line keys for tile ``t`` moving from cell ``src`` to cell ``dst``."""
    rowkey[row_of[src]] -= rc[t * n + src]
    rowkey[row_of[dst]] += rc[t * n + dst]
    colkey[col_of[src]] -= cc[t * n + src]
    colkey[col_of[dst]] += cc[t * n + dst]


@njit(inline=True)
def _table_delta(t, src, dst, n, row_of, col_of, rc, cc, rtab, ctab, rowkey, colkey):
    """Change of the line-conflict count when tile ``t`` moves from ``src`` to ``dst``: only the
    two lines across the move change their conflicts (the order along the move's line stays)."""
    if row_of[src] == row_of[dst]:
        a = col_of[src]
        b = col_of[dst]
        old_a = colkey[a]
        old_b = colkey[b]
        return (ctab[old_a - cc[t * n + src]] + ctab[old_b + cc[t * n + dst]]
                - ctab[old_a] - ctab[old_b])
    a = row_of[src]
    b = row_of[dst]
    old_a = rowkey[a]
    old_b = rowkey[b]
    return (rtab[old_a - rc[t * n + src]] + rtab[old_b + rc[t * n + dst]]
            - rtab[old_a] - rtab[old_b])


@njit
def _direct_delta(board, home, t, src, dst, width, height, seq, lis):
    """Like ``_table_delta`` but recomputing the two lines (for lines too long for a table)."""
    horizontal = src // width == dst // width
    a = src % width if horizontal else src // width
    b = dst % width if horizontal else dst // width
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


@njit
def ida_lengths(boards, home, md, succ_q, succ_next, width, height, lc_mode, row_of, col_of,
                rc, cc, rtab, ctab, lengths, nodes):
    """Full IDA* on every row of ``boards`` (each a solvable position): the optimal length into
    ``lengths`` and the nodes generated (Korf's count) into ``nodes``."""
    n = width * height
    rowkey = np.zeros(height, np.int64)
    colkey = np.zeros(width, np.int64)
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
                md0 += md[c * n + board[c]]
        h0 = md0
        if lc_mode != 0:
            h0 += 2 * linear_conflict(board, home, width, height)
        if lc_mode == 1:
            line_keys(board, rc, cc, width, height, rowkey, colkey)
        bound = h0 + ((h0 ^ md0) & 1)
        total = 1
        while True:
            if h0 == 0:
                lengths[i] = 0
                break
            blanks = np.zeros(bound + 2, np.int64)
            ks = np.zeros(bound + 2, np.int64)
            hs = np.zeros(bound + 2, np.int64)
            blanks[0] = blank
            ks[0] = blank * 25
            hs[0] = h0
            ctl[0] = 0
            ctl[1] = 0
            ctl[2] = 1
            ctl[3] = big
            status = ida_iteration(board, home, md, succ_q, succ_next, width, height, lc_mode,
                                   row_of, col_of, rc, cc, rtab, ctab, rowkey, colkey, bound,
                                   blanks, ks, hs, ctl, big)
            total += ctl[1]
            if status == FOUND:
                lengths[i] = ctl[0]
                break
            nxt = bound + ctl[3]
            bound = nxt + ((nxt ^ md0) & 1)
        nodes[i] = total
