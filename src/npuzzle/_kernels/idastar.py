"""IDA* over any m x n board: one iteration, resumable, specialised for one combination of lower
bounds (``_kernels.bounds``) and duplicate pruning.

Invariant of the explicit stack (``Stack``): ``board`` holds the node at depth ``depth``, whose
blank is at ``blanks[depth]``; for every d <= depth, ``blanks[d]`` and ``hs[d]`` are the blank
cell and the heuristic value of the node at depth d on the current path, ``ks[d]`` is the index
in ``succ_q`` of its next move to try, and (extended modes, or with the automaton) ``hst[d]``
holds its components. Moves are applied and undone in place; the heuristic is updated
incrementally by the bounds' helpers.

Moves (``Shape``). ``succ_q[k]`` is the blank's next cell and ``succ_next[k]`` the row of moves
to try from there; a row lists the legal blank steps in the chosen move order, leaves out the
step that undoes the one just made (so it is never generated) and ends with ``NONE``.
``dmd[k * n + tile]`` is the change of Manhattan distance when ``tile`` makes move ``k``.
Every move changes h by an odd amount, so f keeps the parity of the start's Manhattan distance.

Duplicate pruning (``FSM``): the move automaton of ``search.fsm``; its state per depth is
``hst[d, H_FSM]``, and a move into a state that marks the blank's new cell is never generated.

``ctl`` carries the loop's scalars between calls (``CTL_*``): the depth, nodes generated and
expanded, and the smallest amount by which a child's f exceeded the bound.

Thresholds. Every threshold is the smallest f that exceeded the last, rounded up to the parity
of every solution (``up_to_parity``). The serial and the split search run their thresholds in
one Python loop (``search.idastar.deepen``: it calls back for progress and checks limits
between slices); ``ida_lengths`` runs them here, one board after another, with the same rule.
"""

from __future__ import annotations

import types
from typing import NamedTuple

import numpy as np

from .bounds import (
    EXTENDED,
    H_COL,
    H_FSM,
    H_INV_H,
    H_INV_V,
    H_MD,
    H_MSUM,
    H_PAT,
    H_ROW,
    H_SUM,
    ID,
    LC_LINES,
    LC_MASK,
    LC_TABLES,
    MIRROR,
    ONE,
    PDB,
    SECOND,
    WD,
    ZA,
    ZERO,
    lc_child,
    lc_lines_child,
    line_keys,
    linear_conflict,
    move_keys,
    passed_columns,
    passed_rows,
    pdb_entry,
    rank_delta,
    za_entry,
)
from .jit import njit

EXHAUSTED = 0
FOUND = 1
SLICE_DONE = 2

#: Duplicate pruning by the move automaton (a mode bit beside the bounds' ones).
FSM = 64

#: Places in ``ctl``.
CTL_DEPTH, CTL_GENERATED, CTL_EXPANDED, CTL_MIN_OVER = range(4)
CTL_SIZE = 4

NONE = np.uint64(0xFFFFFFFFFFFFFFFF)
TWO = np.uint64(2)
FOUR = np.uint64(4)
FIVE = np.uint64(5)
THIRTY_ONE = np.uint64(31)


def up_to_parity(value: int, parity: int) -> int:
    """``value`` rounded up to the parity of ``parity`` (IDA*'s thresholds have the parity of
    every solution, that of the start's Manhattan distance). Plain Python for ``search.idastar``'s
    loop; ``_up_to_parity`` is the same function compiled for the kernels."""
    return value + ((value ^ parity) & 1)


_up_to_parity = njit(up_to_parity, inline=True)


class Shape(NamedTuple):
    """One board shape, goal and move order as the kernel reads it."""

    home: np.ndarray  # goal cell of each tile
    md: np.ndarray  # md[cell * n + tile]: Manhattan distance of the tile at the cell
    dmd: np.ndarray  # dmd[k * n + tile]: change of Manhattan distance when the tile makes move k
    succ_q: np.ndarray  # move k: the blank's next cell, or NONE at the end of a row
    succ_next: np.ndarray  # move k: the row of moves to try after it
    row_of: np.ndarray  # row and column of each cell (uint64)
    col_of: np.ndarray
    width: int
    height: int
    nbr: np.ndarray  # nbr[cell * 4 + d]: the cell the blank reaches by step d, or -1 (geometry)


class LeafRows(NamedTuple):
    """Leaves below which ``ida_leaves`` searches, row i a leaf: its board, its blank's cell, its
    depth, the step that brought the blank (-1 at the root), its h and its component row (the
    automaton's state in it)."""

    boards: np.ndarray
    blanks: np.ndarray
    depths: np.ndarray
    steps: np.ndarray
    hs: np.ndarray
    rows: np.ndarray


class Stack(NamedTuple):
    """The path of one iteration (see the module docstring)."""

    blanks: np.ndarray
    ks: np.ndarray
    hs: np.ndarray
    hst: np.ndarray


def _iteration_kernel(mode):
    """The iteration kernel specialised for ``mode`` (a compile-time constant of the closure, so
    the other modes' code is not even compiled in)."""
    lc_mode = mode & LC_MASK
    use_wd = (mode & WD) != 0
    use_id = (mode & ID) != 0
    use_pdb = (mode & PDB) != 0
    use_mirror = (mode & MIRROR) != 0
    use_za = (mode & ZA) != 0
    use_fsm = (mode & FSM) != 0
    use_second = (mode & SECOND) != 0
    extended = (mode & EXTENDED) != 0

    def ida_iteration(board, shape, lines, bnd, fsm, stack, ctl, bound, budget):
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
        home, dmd, succ_q, succ_next = shape.home, shape.dmd, shape.succ_q, shape.succ_next
        row_of, col_of, width, height = shape.row_of, shape.col_of, shape.width, shape.height
        nbr = shape.nbr
        blanks, ks, hs, hst = stack
        rc, cc, rtab, ctab, rowkey, colkey = lines
        nn = np.uint64(width * height)
        depth = np.uint64(ctl[CTL_DEPTH])
        generated = ctl[CTL_GENERATED]
        expanded = ctl[CTL_EXPANDED]
        min_over = ctl[CTL_MIN_OVER]
        stop_at = generated + budget
        blank = blanks[depth]
        k = ks[depth]
        h = hs[depth]
        room = bound - ctl[CTL_DEPTH] - 1
        seq = np.empty(max(width, height), np.int64)
        lis = np.empty(max(width, height), np.int64)
        status = EXHAUSTED
        if use_fsm:  # the automaton's table and the current node's state
            v = np.uint64(hst[depth, H_FSM])
            u = v
        if extended:  # the tables, and the current node's components
            tr_r, tr_c, goal_row, goal_col = bnd.wd_row_steps, bnd.wd_col_steps, bnd.goal_row, bnd.goal_col
            id_v, id_h, goal_cm = bnd.id_rows, bnd.id_cols, bnd.goal_cm
            pdb, pat_off, pat_of, pidx, pmult = bnd.pdb, bnd.pat_off, bnd.pat_of, bnd.pidx, bnd.pmult
            mpat_of, midx, mmult, mirror = bnd.mpat_of, bnd.midx, bnd.mmult, bnd.mirror
            npat = (hst.shape[1] - H_PAT - (2 if use_second else 0)) // 4
            h_sum2 = hst.shape[1] - 2  # the second partition's sums (``SECOND``)
            pdb2, pat_off2, pat2_of, pidx2, pmult2 = bnd.pdb2, bnd.pat_off2, bnd.pat2_of, bnd.pidx2, bnd.pmult2
            mpat2_of, midx2, mmult2 = bnd.mpat2_of, bnd.midx2, bnd.mmult2
            dsum2 = 0
            msum2 = 0
            pi2 = 0
            mpi2 = 0
            prank2 = 0
            pval2 = 0
            mrank2 = 0
            mval2 = 0
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
                if lc_mode == LC_TABLES:
                    move_keys(rc, cc, rowkey, colkey, t, p, blank, nn, row_of, col_of)
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
                        iv += passed_rows(board, t, q, blank)
                    else:
                        ih += passed_columns(board, goal_cm, width, nn, t, q, blank)
                    hid = id_v[iv] + id_h[ih]
                    hid += (hid ^ md) & 1
                    if hid > hc:
                        hc = hid
                if use_pdb and hc <= room:
                    pi = pat_of[t]
                    prank = hst[depth, H_PAT + pi] + rank_delta(board, t, q, blank, pi, pat_of, pidx, pmult,
                                                                 mirror, False)
                    if use_za:
                        pval = za_entry(pdb, pat_off[pi] + 2 * prank, board, q, blank, pi, pat_of, nbr)
                    else:
                        pval = pdb_entry(pdb, pat_off[pi] + prank)
                    dt = dmd[k * nn + t]  # t's change of Manhattan distance
                    dsum = hst[depth, H_SUM] + dt + 2 * (pval - hst[depth, H_PAT + npat + pi])
                    hp = dsum + ((dsum ^ md) & 1)
                    if hp > hc:
                        hc = hp
                    if use_mirror and hc <= room:
                        mpi = mpat_of[t]
                        mrank = hst[depth, H_PAT + 2 * npat + mpi] + rank_delta(
                            board, t, q, blank, mpi, mpat_of, midx, mmult, mirror, True)
                        if use_za:
                            mval = za_entry(pdb, pat_off[mpi] + 2 * mrank, board, q, blank, mpi, mpat_of, nbr)
                        else:
                            mval = pdb_entry(pdb, pat_off[mpi] + mrank)
                        msum = hst[depth, H_MSUM] + dt + 2 * (mval - hst[depth, H_PAT + 3 * npat + mpi])
                        hp = msum + ((msum ^ md) & 1)
                        if hp > hc:
                            hc = hp
                    if use_second and hc <= room:
                        pi2 = pat2_of[t]
                        prank2 = hst[depth, H_PAT + pi2] + rank_delta(board, t, q, blank, pi2, pat2_of, pidx2, pmult2,
                                                                       mirror, False)
                        pval2 = pdb_entry(pdb2, pat_off2[pi2] + prank2)
                        dsum2 = hst[depth, h_sum2] + dt + 2 * (pval2 - hst[depth, H_PAT + npat + pi2])
                        hp = dsum2 + ((dsum2 ^ md) & 1)
                        if hp > hc:
                            hc = hp
                        if use_mirror and hc <= room:
                            mpi2 = mpat2_of[t]
                            mrank2 = hst[depth, H_PAT + 2 * npat + mpi2] + rank_delta(
                                board, t, q, blank, mpi2, mpat2_of, midx2, mmult2, mirror, True)
                            mval2 = pdb_entry(pdb2, pat_off2[mpi2] + mrank2)
                            msum2 = hst[depth, h_sum2 + 1] + dt + 2 * (mval2 - hst[depth, H_PAT + 3 * npat + mpi2])
                            hp = msum2 + ((msum2 ^ md) & 1)
                            if hp > hc:
                                hc = hp
                k += ONE
            else:
                hc = h + dmd[k * nn + t]
                k += ONE
                if lc_mode == LC_TABLES:
                    hc += 2 * lc_child(rc, cc, rtab, ctab, rowkey, colkey, t, q, blank, nn, row_of, col_of)
                elif lc_mode == LC_LINES:
                    hc += 2 * lc_lines_child(board, bnd.goal_row, bnd.goal_col, t, q, blank, width, height, row_of,
                                             col_of, seq, lis)
            if hc > room:
                if hc - room < min_over:
                    min_over = hc - room
                continue
            board[blank] = t
            board[q] = ZERO
            if lc_mode == LC_TABLES:
                move_keys(rc, cc, rowkey, colkey, t, q, blank, nn, row_of, col_of)
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
                    if use_second:
                        hst[d1, h_sum2] = dsum2
                        hst[d1, H_PAT + pi2] = prank2
                        hst[d1, H_PAT + npat + pi2] = pval2
                        if use_mirror:
                            hst[d1, h_sum2 + 1] = msum2
                            hst[d1, H_PAT + 2 * npat + mpi2] = mrank2
                            hst[d1, H_PAT + 3 * npat + mpi2] = mval2
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
        ctl[CTL_DEPTH] = np.int64(depth)
        ctl[CTL_GENERATED] = generated
        ctl[CTL_EXPANDED] = expanded
        ctl[CTL_MIN_OVER] = min_over
        return status

    return _jit_for_mode(ida_iteration, mode)


@njit
def _at_goal(board, home, n):
    for c in range(n):
        t = board[c]
        if t != 0 and home[t] != c:
            return False
    return True


def _lengths_kernel(mode, ida_iteration):
    lc_mode = mode & LC_MASK
    extended = (mode & EXTENDED) != 0

    def ida_lengths(boards, shape, lines, bnd, fsm, hst0, h0s, lengths, nodes):
        """Full IDA* on every row of ``boards`` (each a solvable position): the optimal length into
        ``lengths`` and the nodes generated (Korf's count) into ``nodes``. ``hst0`` holds each
        board's first component row (the automaton's state for every mode); extended modes take
        each board's heuristic from ``h0s``."""
        n = shape.width * shape.height
        ctl = np.zeros(CTL_SIZE, np.int64)
        big = np.iinfo(np.int64).max
        for i in range(boards.shape[0]):
            board = boards[i].copy()
            md0 = 0
            blank = 0
            for c in range(n):
                if board[c] == 0:
                    blank = c
                else:
                    md0 += shape.md[c * n + np.int64(board[c])]
            h0 = md0
            if extended:
                h0 = h0s[i]
            elif lc_mode != 0:
                h0 += 2 * linear_conflict(board, shape.home, shape.width, shape.height)
            if lc_mode == LC_TABLES:
                line_keys(board, lines, n, shape.row_of, shape.col_of)
            bound = _up_to_parity(h0, md0)
            total = 1
            lengths[i] = 0
            while h0 != 0:
                stack = Stack(np.zeros(bound + 2, np.uint64), np.zeros(bound + 2, np.uint64),
                              np.zeros(bound + 2, np.int64), np.zeros((bound + 2, hst0.shape[1]), np.int64))
                for j in range(hst0.shape[1]):  # not a row copy: numba would compile its shape check's message
                    stack.hst[0, j] = hst0[i, j]
                stack.blanks[0] = blank
                stack.ks[0] = blank * 25
                stack.hs[0] = h0
                ctl[CTL_DEPTH], ctl[CTL_GENERATED], ctl[CTL_EXPANDED], ctl[CTL_MIN_OVER] = 0, 0, 1, big
                status = _ida_iteration(board, shape, lines, bnd, fsm, stack, ctl, bound, big)
                total += ctl[CTL_GENERATED]
                if status == FOUND:
                    lengths[i] = ctl[CTL_DEPTH]
                    break
                bound = _up_to_parity(bound + ctl[CTL_MIN_OVER], md0)
            nodes[i] = total

    return _jit_for_mode(_calling(ida_lengths, ida_iteration), mode)


#: Places in ``lctl`` (``ida_leaves``): the next leaf, whether it is under way (0 or 1), and the
#: nodes generated and expanded and the smallest excess of f over the bound of the leaves done.
L_NEXT, L_BUSY, L_GENERATED, L_EXPANDED, L_MIN_OVER = range(5)


def _leaves_kernel(mode, ida_iteration):
    lc_mode = mode & LC_MASK

    def ida_leaves(leaves, shape, lines, bnd, fsm, board, stack, ctl, lctl, bound, budget):
        """One threshold below many leaves: IDA* with threshold ``bound`` below each leaf in turn,
        exploring its subtree exactly as the serial iteration does. Row i of ``leaves``
        (``LeafRows``) is a leaf. Each leaf is searched from
        depth 0 of ``stack`` with the threshold less its depth. It starts at leaf
        ``lctl[L_NEXT]`` and returns FOUND when a leaf's subtree holds the goal (that leaf stays
        ``lctl[L_NEXT]``; the blank's cells below it are ``stack.blanks[1:ctl[CTL_DEPTH] + 1]``),
        EXHAUSTED when every leaf is done, or SLICE_DONE once about ``budget`` more nodes are
        generated: the next call resumes the leaf under way (kept in ``board``, ``stack`` and
        ``ctl``)."""
        boards, blanks, depths, steps, hs, rows = leaves
        n = shape.width * shape.height
        big = np.iinfo(np.int64).max
        left = budget
        while lctl[L_NEXT] < depths.shape[0]:
            i = lctl[L_NEXT]
            if lctl[L_BUSY] == 0:
                for c in range(n):
                    board[c] = boards[i, c]
                if lc_mode == LC_TABLES:
                    line_keys(board, lines, n, shape.row_of, shape.col_of)
                stack.blanks[0] = blanks[i]
                stack.ks[0] = (blanks[i] * 5 + steps[i] + 1) * 5
                for j in range(rows.shape[1]):  # not a row copy (see ida_lengths)
                    stack.hst[0, j] = rows[i, j]
                stack.hs[0] = hs[i]
                ctl[CTL_DEPTH], ctl[CTL_GENERATED], ctl[CTL_EXPANDED], ctl[CTL_MIN_OVER] = 0, 0, 0, big
                lctl[L_BUSY] = 1
            before = ctl[CTL_GENERATED]
            status = _ida_iteration(board, shape, lines, bnd, fsm, stack, ctl, bound - depths[i], max(left, 1))
            left -= ctl[CTL_GENERATED] - before
            if status == SLICE_DONE:
                return SLICE_DONE
            lctl[L_BUSY] = 0
            lctl[L_GENERATED] += ctl[CTL_GENERATED]
            lctl[L_EXPANDED] += ctl[CTL_EXPANDED]
            lctl[L_MIN_OVER] = min(lctl[L_MIN_OVER], ctl[CTL_MIN_OVER])
            if status == FOUND:
                return FOUND
            lctl[L_NEXT] += 1
            if left <= 0:
                return SLICE_DONE
        return EXHAUSTED

    return _jit_for_mode(_calling(ida_leaves, ida_iteration), mode)


#: What ``ida_lengths`` and ``ida_leaves`` call: each one's own iteration kernel (``_calling``).
_ida_iteration = None


def _calling(func, ida_iteration):
    """``func`` with ``_ida_iteration`` bound to ``ida_iteration`` as a global, not a closure
    variable: numba keys a cached kernel on its closure's values, and a compiled kernel's value
    differs in every process, so a closure over it would compile afresh in every process."""
    scope = dict(func.__globals__, _ida_iteration=ida_iteration)
    bound = types.FunctionType(func.__code__, scope, func.__name__, func.__defaults__, func.__closure__)
    bound.__qualname__ = func.__qualname__
    return bound


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
_LEAVES: dict[int, object] = {}


def iteration(mode: int):
    """The iteration kernel for ``mode`` (made once per mode)."""
    if mode not in _ITERATION:
        _ITERATION[mode] = _iteration_kernel(mode)
    return _ITERATION[mode]


def leaves(mode: int):
    """The kernel of one threshold below many leaves (see ``ida_leaves``) for ``mode``."""
    if mode not in _LEAVES:
        _LEAVES[mode] = _leaves_kernel(mode, iteration(mode))
    return _LEAVES[mode]


def lengths(mode: int):
    """The whole-search kernel for many boards (see ``ida_lengths``) for ``mode``."""
    if mode not in _LENGTHS:
        _LENGTHS[mode] = _lengths_kernel(mode, iteration(mode))
    return _LENGTHS[mode]
