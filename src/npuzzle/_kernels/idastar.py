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
TWO = np.uint64(2)
FOUR = np.uint64(4)
FIVE = np.uint64(5)
THIRTY_ONE = np.uint64(31)


#: Heuristic mode bits: the low two bits are the linear-conflict mode; the others add lower bounds
#: combined by max (each keeps its components in the per-depth rows of ``hst``).
WD = 4
ID = 8
PDB = 16
MIRROR = 32
#: Duplicate pruning by the move automaton of ``search.fsm`` (any heuristic): its packed table
#: is the last entry of ``ext``, the offset of its state's record per depth in ``hst``.
FSM = 64
#: The bits of the modes that keep per-depth heuristic components (``extended`` modes).
EXTENDED = WD | ID | PDB | MIRROR
#: Where the automaton's table is in ``ext``: after the heuristics' 18 arrays.
EXT_FSM = 18

# Columns of ``hst`` (the rest hold, per pattern, the direct ranks, direct values, mirrored
# ranks and mirrored values, ``patterns`` columns each).
H_MD, H_ROW, H_COL, H_INV_V, H_INV_H, H_FSM, H_SUM, H_MSUM, H_PAT = range(9)


def _iteration_kernel(mode):
    """The iteration kernel specialised for one heuristic (``mode`` is a compile-time constant of
    the closure, so the other heuristics' code is not even compiled in)."""
    lc_mode = mode & 3
    use_wd = (mode & WD) != 0
    use_id = (mode & ID) != 0
    use_pdb = (mode & PDB) != 0
    use_mirror = (mode & MIRROR) != 0
    use_fsm = (mode & FSM) != 0
    extended = (mode & EXTENDED) != 0

    def ida_iteration(board, home, dmd, succ_q, succ_next, width, height, row_of, col_of,
                      rc, cc, rtab, ctab, rowkey, colkey, ext, bound, blanks, ks, hs, hst, ctl, budget):
        """Run the iteration with threshold ``bound`` until it is exhausted, finds the goal, or has
        generated ``budget`` more nodes. Returns EXHAUSTED, FOUND or SLICE_DONE; everything needed
        to resume is in the arrays and ``ctl``.

        Cells, tiles and move indices are unsigned (numba then skips the negative-index fix-up on
        every array access). ``dmd[k * n + tile]`` is the change of Manhattan distance when ``tile``
        makes move ``k``. The current node's move index ``k``, heuristic ``h`` and the largest child
        heuristic that keeps f within the bound (``room``) live in locals; the stacks are touched
        only when a child is entered or left. ``row_of``/``col_of`` replace divisions.

        Extended modes keep the components of h for the node at depth d in ``hst[d]`` (Manhattan
        distance, walking-distance indices, inversion counts, pattern ranks and values) and
        compute a child's, cheapest first, only as far as needed to prune it."""
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
        if use_fsm:  # the automaton's table and the current node's state
            fsm = ext[EXT_FSM]
            v = np.uint64(hst[depth, H_FSM])
            u = v
        if extended:  # the tables, and the current node's components
            (wd_r, tr_r, wd_c, tr_c, goal_row, goal_col, id_v, id_h, goal_cm,
             pdb, pat_off, pat_of, pidx, pmult, mpat_of, midx, mmult, mirror) = ext[:EXT_FSM]
            npat = (hst.shape[1] - H_PAT) // 4
            md = 0
            ir = 0
            ic = 0
            iv = 0
            ih = 0
            dsum = 0
            msum = 0
            pi = 0
            mpi = 0
            prank = 0
            pval = 0
            mrank = 0
            mval = 0
            cur_md = hst[depth, H_MD]
            cur_ir = hst[depth, H_ROW]
            cur_ic = hst[depth, H_COL]
            cur_iv = hst[depth, H_INV_V]
            cur_ih = hst[depth, H_INV_H]
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
                if use_fsm:
                    v = np.uint64(hst[depth, H_FSM])
                if extended:
                    cur_md = hst[depth, H_MD]
                    cur_ir = hst[depth, H_ROW]
                    cur_ic = hst[depth, H_COL]
                    cur_iv = hst[depth, H_INV_V]
                    cur_ih = hst[depth, H_INV_H]
                blank = p
                k = ks[depth]
                h = hs[depth]
                room += 1
                continue
            if generated >= stop_at:
                status = SLICE_DONE
                break
            if use_fsm:  # the automaton's direction number: 0 up, 1 left, 2 right, 3 down
                later = q > blank
                u = np.uint64(fsm[v + TWO * np.uint64(later) + np.uint64((row_of[q] != row_of[blank]) == later)])
                if (fsm[u + FOUR + (q >> FIVE)] >> np.uint32(q & THIRTY_ONE)) & np.uint32(1):
                    k += ONE
                    continue
            t = board[q]
            generated += 1
            if extended:
                vertical = row_of[q] != row_of[blank]
                if not use_wd:
                    md = cur_md + dmd[k * nn + t]
                    hc = md
                else:
                    ir = cur_ir
                    ic = cur_ic
                    if vertical:
                        up = np.int64(row_of[q] < row_of[blank])
                        step = np.int64(tr_r[((ir << 1) + 1 - up) * height + goal_row[t]])
                        ir = step >> 1
                    else:
                        left = np.int64(col_of[q] < col_of[blank])
                        step = np.int64(tr_c[((ic << 1) + 1 - left) * width + goal_col[t]])
                        ic = step >> 1
                    hc = cur_md + 2 * (step & 1) - 1  # every move changes it by one
                    md = hc  # same parity as every solution, like the Manhattan distance
                if use_id and hc <= room:
                    iv = cur_iv
                    ih = cur_ih
                    if vertical:
                        iv += _passed(board, t, q, blank)
                    else:
                        ih += _passed_columns(board, goal_cm, width, nn, t, q, blank)
                    hid = id_v[iv] + id_h[ih]
                    hid += (hid ^ md) & 1
                    if hid > hc:
                        hc = hid
                if use_pdb and hc <= room:
                    pi = pat_of[t]
                    prank = hst[depth, H_PAT + pi] + _rank_delta(board, t, q, blank, pi, pat_of, pidx, pmult,
                                                                 mirror, False)
                    pval = np.int64(pdb[pat_off[pi] + prank])
                    dsum = hst[depth, H_SUM] - hst[depth, H_PAT + npat + pi] + pval
                    hp = dsum + ((dsum ^ md) & 1)
                    if hp > hc:
                        hc = hp
                    if use_mirror and hc <= room:
                        mpi = mpat_of[t]
                        mrank = hst[depth, H_PAT + 2 * npat + mpi] + _rank_delta(
                            board, t, q, blank, mpi, mpat_of, midx, mmult, mirror, True)
                        mval = np.int64(pdb[pat_off[mpi] + mrank])
                        msum = hst[depth, H_MSUM] - hst[depth, H_PAT + 3 * npat + mpi] + mval
                        hp = msum + ((msum ^ md) & 1)
                        if hp > hc:
                            hc = hp
                k += ONE
            else:
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
            if extended:
                d1 = depth + ONE
                cur_md = md
                hst[d1, H_MD] = md
                if use_wd:
                    cur_ir = ir
                    cur_ic = ic
                    hst[d1, H_ROW] = ir
                    hst[d1, H_COL] = ic
                if use_id:
                    cur_iv = iv
                    cur_ih = ih
                    hst[d1, H_INV_V] = iv
                    hst[d1, H_INV_H] = ih
                if use_pdb:
                    for j in range(H_SUM, hst.shape[1]):
                        hst[d1, j] = hst[depth, j]
                    hst[d1, H_SUM] = dsum
                    hst[d1, H_PAT + pi] = prank
                    hst[d1, H_PAT + npat + pi] = pval
                    if use_mirror:
                        hst[d1, H_MSUM] = msum
                        hst[d1, H_PAT + 2 * npat + mpi] = mrank
                        hst[d1, H_PAT + 3 * npat + mpi] = mval
            depth += ONE
            if use_fsm:
                v = u
                hst[depth, H_FSM] = np.int64(u)
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

    return _jit_for_mode(ida_iteration, mode)


@njit(inline=True)
def _passed(board, t, q, blank):
    """Change of the row-major inversion count when ``t`` moves vertically from ``q`` to
    ``blank``: it passes the tiles between the two cells. Both goals number the tiles in
    row-major goal order, so tiles compare by their numbers."""
    d = 0  # passed tiles that form an inversion with ``t`` after the move (the others stop)
    if q > blank:
        for c in range(blank + ONE, q):
            d += np.int64(t > board[c])
    else:
        for c in range(q + ONE, blank):
            d += np.int64(board[c] > t)
    return 2 * d - np.int64(q - blank if q > blank else blank - q) + 1


@njit(inline=True)
def _passed_columns(board, goal_cm, width, nn, t, q, blank):
    """``_passed`` for a horizontal move, reading the board column by column (``goal_cm[tile]``
    is the tile's goal position in that order). Between two neighbours of a row, that order
    has the cells below the left one and those above the right one."""
    ht = goal_cm[t]
    w = np.uint64(width)
    d = 0
    if q > blank:  # t moves back in the order
        for c in range(blank + w, nn, w):
            d += np.int64(ht > goal_cm[board[c]])
        for c in range(q % w, q, w):
            d += np.int64(ht > goal_cm[board[c]])
    else:
        for c in range(q + w, nn, w):
            d += np.int64(goal_cm[board[c]] > ht)
        for c in range(blank % w, blank, w):
            d += np.int64(goal_cm[board[c]] > ht)
    return 2 * d - np.int64(nn // w) + 1


@njit(inline=True)
def _rank_delta(board, t, a, b, p, pat_of, pidx, pmult, mirror, mirrored):
    """Change of pattern ``p``'s rank when its tile ``t`` moves from cell ``a`` to cell ``b``
    (both transposed by ``mirror`` if ``mirrored``; the tiles' labels are the original ones).

    The rank is the mixed-radix number of the digits ``cell - (earlier tiles below it)``, tile
    ``i``'s weight ``pmult[tile]``. Only the tiles on the cells strictly between a and b (none
    for a step along a row) change a count: an earlier tile of the pattern there shifts t's
    digit by one, and t passing a later tile shifts that tile's digit by one."""
    if mirrored:
        a = mirror[a]
        b = mirror[b]
    ia = np.int64(a)
    ib = np.int64(b)
    lo = a + ONE if a < b else b + ONE
    hi = b if a < b else a
    mine = pidx[t]
    earlier = 0
    later = 0
    for c in range(lo, hi):
        s = board[mirror[c]] if mirrored else board[c]
        if pat_of[s] == p:
            if pidx[s] < mine:
                earlier += 1
            else:
                later += pmult[s]
    if ib > ia:
        return pmult[t] * (ib - ia - earlier) + later
    return pmult[t] * (ib - ia + earlier) - later


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


def _lengths_kernel(mode, ida_iteration):
    lc_mode = mode & 3
    extended = (mode & EXTENDED) != 0

    def ida_lengths(boards, home, md, dmd, succ_q, succ_next, width, height, row_of, col_of,
                    lct, ext, hst0, h0s, lengths, nodes):
        """Full IDA* on every row of ``boards`` (each a solvable position): the optimal length into
        ``lengths`` and the nodes generated (Korf's count) into ``nodes``. Extended modes take
        each board's first ``hst`` row and heuristic from ``hst0`` and ``h0s``."""
        rc, cc, rtab, ctab, rowkey, colkey = lct
        n = width * height
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
            if extended:
                h0 = h0s[i]
            elif lc_mode != 0:
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
                hst = np.zeros((bound + 2, hst0.shape[1]), np.int64)
                hst[0] = hst0[i]
                blanks[0] = blank
                ks[0] = blank * 25
                hs[0] = h0
                ctl[0] = 0
                ctl[1] = 0
                ctl[2] = 1
                ctl[3] = big
                status = ida_iteration(board, home, dmd, succ_q, succ_next, width, height, row_of, col_of,
                                       rc, cc, rtab, ctab, rowkey, colkey, ext, bound, blanks, ks, hs, hst,
                                       ctl, big)
                total += ctl[1]
                if status == FOUND:
                    lengths[i] = ctl[0]
                    break
                nxt = bound + ctl[3]
                bound = nxt + ((nxt ^ md0) & 1)
            nodes[i] = total

    return _jit_for_mode(ida_lengths, mode)


def _jit_for_mode(func, mode: int):
    """``njit`` one mode's kernel under a name of its own. Numba names compiled functions
    ``qualname$counter`` with a per-process counter, so a cached kernel of one mode could
    otherwise link, in another process, to a different mode's kernel that got the same name
    (``ida_lengths`` calls ``ida_iteration``): a wrong search, or a crash."""
    func.__name__ = f"{func.__name__}_mode{mode}"
    func.__qualname__ = f"{func.__qualname__}_mode{mode}"
    return njit(func)


_ITERATION: dict[int, object] = {}
_LENGTHS: dict[int, object] = {}


def iteration(mode: int):
    """The iteration kernel for heuristic ``mode`` (made once per mode)."""
    if mode not in _ITERATION:
        _ITERATION[mode] = _iteration_kernel(mode)
    return _ITERATION[mode]


def lengths(mode: int):
    """The whole-search kernel for many boards (see ``ida_lengths``) for heuristic ``mode``."""
    if mode not in _LENGTHS:
        _LENGTHS[mode] = _lengths_kernel(mode, iteration(mode))
    return _LENGTHS[mode]
