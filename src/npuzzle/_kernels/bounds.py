"""Lower bounds inside the kernels: the arrays each family reads, the columns of a node's
components, and one small inline helper per family that gives a child's value from its
parent's. The IDA* kernel (and A*'s) call these helpers; ``heuristics/`` builds the arrays
(``heuristics.registry.kernel_heuristic``) and the first row of components.

Modes. A kernel is specialised for one combination of families, given by mode bits: the low
two bits are linear conflict's (``LC_TABLES``: line keys and tables; ``LC_LINES``: the two
lines a move changes recomputed, for lines longer than ``MAX_TABLE_LINE``); ``WD``, ``ID``,
``PDB`` and ``MIRROR`` (the pattern databases looked up on the board's mirror image too) are
the strong bounds, combined by max (``EXTENDED`` modes); ``ZA`` marks blank-aware pattern tables
(two entries a placement, read by ``za_entry``).

Helpers take the arrays they read one by one and return one number: a helper that received a
whole ``Bounds`` made the IDA* search three times slower, and inline helpers that return tuples
(a child's new components and value) 20-30% slower, on Korf's #3 with the inversion distance
(measured with ``bench/node_counts.py``). So each family's update stays in the kernel's move
loop, written with these scalar helpers; kernels unpack the fields they use by name.

Components. Extended modes keep, per node, a row of int64 components: ``H_MD`` the Manhattan
distance (the walking distance when ``WD`` is on: it has the same parity and changes by one
per move), ``H_ROW``/``H_COL`` the walking-distance table indices, ``H_INV_V``/``H_INV_H`` the
row-major and column-major inversion counts, ``H_FSM`` (IDA*'s move automaton state, not a
bound), ``H_SUM``/``H_MSUM`` the direct and mirrored pattern sums, then from ``H_PAT``, per
pattern, the direct ranks, direct entries, mirrored ranks and mirrored entries. With ``SECOND``,
the patterns of both partitions (the second's numbered after the first's) share those four
blocks, and the last two columns are the second partition's direct and mirrored sums. Every bound is
rounded up to the Manhattan distance's parity, the parity of every solution.

Pattern entries (``pdb_entry``) are 4 bits, two a byte: half the excess of the pattern's value
over the Manhattan distance of its tiles. The patterns cover every tile, so a sum of values is
the Manhattan distance plus twice the sum of entries, and a move of tile t changes its pattern's
value by t's change of Manhattan distance plus twice the change of the entry (the same for the
mirrored lookup: the mirror maps the goal onto itself).

Linear conflict. For every row and column a key ``sum(code(cell) * (L + 1) ** position)``
(code = 1 + the tile's goal position along the line if the line is its goal line, else 0)
indexes a table of that line's conflicts; the extra moves are twice the conflicts.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .jit import njit

LC_TABLES = 1
LC_LINES = 2
LC_MASK = 3
WD = 4
ID = 8
PDB = 16
MIRROR = 32
EXTENDED = WD | ID | PDB | MIRROR
#: The pattern tables are blank-aware: two entries a placement (``pocket_class``).
ZA = 128
#: A second partition's tables (``pdb2``), looked up as the first (and mirrored with it), max'ed.
SECOND = 256
#: Largest region of the blank that a blank-aware table counts as a pocket.
POCKET = 2

#: Longest line whose linear-conflict table is built ((L + 1) ** L one-byte entries).
MAX_TABLE_LINE = 7

H_MD, H_ROW, H_COL, H_INV_V, H_INV_H, H_FSM, H_SUM, H_MSUM, H_PAT = range(9)

ONE = np.uint64(1)
ZERO = np.uint64(0)


_NO_TABLE = np.zeros(1, np.uint8)
_NO_TABLE.setflags(write=False)  # the type of the store's maps: one kernel with and without a second table
_NO_INTS = np.zeros(1, np.int64)


class Bounds(NamedTuple):
    """The strong bounds' arrays for one shape and goal (one-element placeholders for the
    families a kernel's mode leaves out)."""

    wd_rows: np.ndarray  # walking distance of each row-table index (uint8)
    wd_row_steps: np.ndarray  # ((index << 1) + 1 - up) * height + goal row -> next index << 1 | grows
    wd_cols: np.ndarray  # the same for columns
    wd_col_steps: np.ndarray
    goal_row: np.ndarray  # goal row of each tile
    goal_col: np.ndarray  # goal column of each tile
    id_rows: np.ndarray  # inversion distance of a row-major inversion count
    id_cols: np.ndarray  # inversion distance of a column-major inversion count
    goal_cm: np.ndarray  # each tile's goal position in column-major order
    pdb: np.ndarray  # every pattern's table, one after another
    pat_off: np.ndarray  # where each pattern's table starts in ``pdb``
    pat_of: np.ndarray  # the pattern of each tile (direct lookup)
    pidx: np.ndarray  # each tile's place in its pattern
    pmult: np.ndarray  # each tile's rank weight
    mpat_of: np.ndarray  # pat_of, pidx, pmult of the mirrored lookup (tiles relabelled)
    midx: np.ndarray
    mmult: np.ndarray
    mirror: np.ndarray  # each cell's mirror image
    # A second partition (``SECOND``): its patterns numbered after the first's (global pattern
    # numbers P index the component columns), its tables in ``pdb2`` from ``pat_off2[P]``.
    pdb2: np.ndarray = _NO_TABLE
    pat_off2: np.ndarray = _NO_INTS
    pat2_of: np.ndarray = _NO_INTS
    pidx2: np.ndarray = _NO_INTS
    pmult2: np.ndarray = _NO_INTS
    mpat2_of: np.ndarray = _NO_INTS
    midx2: np.ndarray = _NO_INTS
    mmult2: np.ndarray = _NO_INTS


class Grid(NamedTuple):
    """One board shape and goal as the A* and beam kernels read it (``geometry.Geometry``'s)."""

    home: np.ndarray  # goal cell of each tile
    md: np.ndarray  # md[cell * n + tile]: Manhattan distance of the tile at the cell
    nbr: np.ndarray  # nbr[cell * 4 + d]: the cell the blank reaches by step d, or -1
    width: int
    height: int


class Lines(NamedTuple):
    """Linear conflict's arrays: codes, tables, and the current row and column keys."""

    rc: np.ndarray  # rc[tile * n + cell]: the tile's code in its row key
    cc: np.ndarray  # cc[tile * n + cell]: the tile's code in its column key
    rtab: np.ndarray  # conflicts of each row key (int8)
    ctab: np.ndarray  # conflicts of each column key
    rowkey: np.ndarray  # the keys of the current board (changed as moves are made)
    colkey: np.ndarray


# -- inversion distance -------------------------------------------------------------------------


@njit(inline=True)
def passed_rows(board, t, q, blank):
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
def passed_columns(board, goal_cm, width, nn, t, q, blank):
    """``passed_rows`` for a horizontal move, reading the board column by column
    (``goal_cm[tile]`` is the tile's goal position in that order). Between two neighbours of a
    row, that order has the cells below the left one and those above the right one."""
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


# -- pattern databases --------------------------------------------------------------------------


@njit(inline=True)
def pdb_entry(pdb, i):
    """Entry ``i`` of a pattern table stored two a byte (low nibble first)."""
    return (np.int64(pdb[i >> 1]) >> ((i & 1) << 2)) & 15


@njit(inline=True)
def pocket_class(cells, z, moved_to, p, pat_of, nbr):
    """Which entry of a blank-aware table applies to pattern ``p`` with the blank on cell ``z``:
    1 if the blank's region (the connected cells holding no tile of ``p``) has at most
    ``POCKET`` cells, else 0. ``moved_to``: a cell holding a tile of ``p`` although ``cells``
    does not show it yet (the blank's old cell, entered by the moving tile), -1 if none;
    ``nbr[c * 4 + d]``: cell c's neighbour in direction d, or -1. The tables keep, per placement,
    the least value over the regions of each class (``_kernels.pdb``)."""
    z = np.int64(z)
    held = np.int64(moved_to)
    one = np.int64(-1)
    free = 0
    for d in range(4):
        c = nbr[z * 4 + d]
        if c >= 0 and c != held and pat_of[cells[c]] != p:
            free += 1
            one = c
    if free != 1:
        return np.int64(free == 0)
    for d in range(4):  # the region is {z, one} unless ``one`` has another free neighbour
        c = nbr[one * 4 + d]
        if c >= 0 and c != z and c != held and pat_of[cells[c]] != p:
            return np.int64(0)
    return np.int64(1)


@njit(inline=True)
def za_entry(pdb, i, cells, z, moved_to, p, pat_of, nbr):
    """The entry of a blank-aware table (``pocket_class``) at its pair ``i``, ``i + 1`` (i even:
    one byte) for the blank on cell ``z``; the blank's region is looked at only when the two
    differ (the build stores one twice when the placement has no region of the other class)."""
    b = np.int64(pdb[i >> 1])
    lo = b & 15
    hi = b >> 4
    if lo == hi:
        return lo
    return hi if pocket_class(cells, z, moved_to, p, pat_of, nbr) else lo


@njit(inline=True)
def rank_delta(board, t, a, b, p, pat_of, pidx, pmult, mirror, mirrored):
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


# -- linear conflict ----------------------------------------------------------------------------


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


@njit(inline=True)
def line_sequence(board, goal_row, goal_col, width, height, line, is_row, seq):
    """Into ``seq``, the goal positions along one row (``is_row``) or column of its tiles that
    belong to it, in the line's order (``goal_row``/``goal_col``: each tile's goal row and
    column, as ``Bounds`` has them: no divisions here); returns how many."""
    count = 0
    if is_row:
        base = line * width
        for i in range(width):
            t = board[base + i]
            if t != 0 and goal_row[t] == line:
                seq[count] = goal_col[t]
                count += 1
    else:
        for i in range(height):
            t = board[i * width + line]
            if t != 0 and goal_col[t] == line:
                seq[count] = goal_row[t]
                count += 1
    return count


@njit(inline=True)
def line_conflicts(board, goal_row, goal_col, width, height, line, is_row, seq, lis):
    """Linear conflicts of one row (``is_row``) or column: its tiles that belong to it, minus the
    longest increasing subsequence of their goal positions. ``seq``/``lis`` are scratch arrays.
    The one line-conflict count of the IDA*, A* and beam kernels (inlined: the beam calls it for
    most children)."""
    count = line_sequence(board, goal_row, goal_col, width, height, line, is_row, seq)
    if count <= 1:
        return 0
    return must_leave(seq, count, lis)


@njit
def linear_conflict(board, home, width, height):
    """Sum of the line conflicts of every row and column (the extra moves are twice this), in
    O(cells log side): each line's longest increasing run by patience sorting (``fewest_leave``)."""
    seq = np.empty(max(width, height), np.int64)
    tails = np.empty(max(width, height), np.int64)
    goal_row = home // width
    goal_col = home % width
    total = 0
    for r in range(height):
        total += fewest_leave(seq, line_sequence(board, goal_row, goal_col, width, height, r, True, seq), tails)
    for c in range(width):
        total += fewest_leave(seq, line_sequence(board, goal_row, goal_col, width, height, c, False, seq), tails)
    return total


@njit
def fewest_leave(seq, count, tails):
    """``must_leave`` in O(count log count) for the long lines of whole-board evaluations: the
    longest increasing subsequence by patience sorting (``tails[k]``, the smallest last value of
    an increasing run of length k + 1; the values of ``seq`` are distinct)."""
    runs = 0
    for i in range(count):
        x = seq[i]
        lo = first_at_least(tails, runs, x)
        tails[lo] = x
        if lo == runs:
            runs += 1
    return count - runs


@njit
def first_at_least(values, count, x):
    """The first place ``j < count`` of the sorted ``values`` with ``values[j] >= x``, else
    ``count`` (``np.searchsorted`` written out: numba's own compiles comparisons of every dtype,
    1.5-2 s of a first compile)."""
    lo, hi = 0, count
    while lo < hi:
        mid = (lo + hi) >> 1
        if values[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


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
def line_keys(board, lines, n, row_of, col_of):
    """Fill the row and column keys of ``board`` for table-driven linear conflict."""
    rc, cc, _, _, rowkey, colkey = lines
    nn = np.uint64(n)
    rowkey[:] = 0
    colkey[:] = 0
    for c in range(n):
        cell = np.uint64(c)
        t = board[cell]
        rowkey[row_of[cell]] += rc[t * nn + cell]
        colkey[col_of[cell]] += cc[t * nn + cell]


@njit(inline=True)
def move_keys(rc, cc, rowkey, colkey, t, src, dst, nn, row_of, col_of):
    """Update the line keys for tile ``t`` moving from cell ``src`` to cell ``dst``."""
    rowkey[row_of[src]] -= rc[t * nn + src]
    rowkey[row_of[dst]] += rc[t * nn + dst]
    colkey[col_of[src]] -= cc[t * nn + src]
    colkey[col_of[dst]] += cc[t * nn + dst]


@njit(inline=True)
def lc_child(rc, cc, rtab, ctab, rowkey, colkey, t, src, dst, nn, row_of, col_of):
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
def lc_lines_child(board, goal_row, goal_col, t, src, dst, width, height, row_of, col_of, seq, lis):
    """Like ``lc_child`` but recomputing the two lines (for lines too long for a table)."""
    horizontal = row_of[src] == row_of[dst]
    a = np.int64(col_of[src] if horizontal else row_of[src])
    b = np.int64(col_of[dst] if horizontal else row_of[dst])
    is_row = not horizontal
    before = (line_conflicts(board, goal_row, goal_col, width, height, a, is_row, seq, lis)
              + line_conflicts(board, goal_row, goal_col, width, height, b, is_row, seq, lis))
    board[dst] = t
    board[src] = 0
    after = (line_conflicts(board, goal_row, goal_col, width, height, a, is_row, seq, lis)
             + line_conflicts(board, goal_row, goal_col, width, height, b, is_row, seq, lis))
    board[src] = t
    board[dst] = 0
    return after - before
