"""Real-time solving of m x n boards (Parberry 1995) as a resumable state machine.

The board is reduced line by line: while the unsolved region (rows ``r0..H-1``, columns
``c0..W-1``, standard goal) is larger than 3 x 3, its first row (if it has at least as many rows
as columns) or else its first column is put in place, tile by tile; the last region (at most
3 x 3) is finished optimally from a BFS table of its distances to the goal.

A line is handled in *virtual* coordinates: a column is a row of the transposed board, so one
piece of code places both (``TR`` set; a blank direction ``d`` of the virtual board is ``d ^ 1``
of the real one). Within a line of virtual row ``vr0`` and columns ``vc0..Wv-1``:

- tiles for columns ``vc0..Wv-3`` go straight home, one by one;
- the last two (``a`` for column ``Wv-2``, ``b`` for ``Wv-1``) use Parberry's trick: ``a`` goes
  to ``q = (vr0, Wv-1)``, ``b`` to ``u = (vr0+1, Wv-1)``, the blank to ``p = (vr0, Wv-2)``, and
  two moves finish the line. If ``b`` lies at ``p`` once ``a`` is at ``q``, or at
  ``t = (vr0+1, Wv-2)`` with the blank at ``p`` (the blank would trap itself at ``p``), a fixed
  pattern of 17 (or its last 16) moves finishes the line instead.

Invariant of every tile-moving step: the only cells the blank may not enter are the target tile
``T`` and the *locked* cells, which all lie in virtual row ``vr0`` (columns below ``KLOCK`` and,
once ``a`` is at ``q``, ``q`` itself); the region below has at least three more rows. So

- far from ``T`` (Chebyshev distance > 1) the blank walks an L-shaped path to a side of ``T`` that
  faces it (horizontal leg first when that side is in row ``vr0``, else vertical first): such a
  path never crosses ``T`` or a locked cell;
- next to ``T`` it walks around ``T`` on the ring of its 8 neighbours, by the shorter free arc,
  to the side ``T`` must move to, and pushes ``T``. The free part of the ring stays connected
  except around ``p``/``t`` once ``q`` is locked, which is the trap case above.

Moving a tile one diagonal step this way costs 6 moves and one straight step 5 (Parberry's
figures 3 and 4). The planner emits *segments* (a short pattern of blank directions, repeated)
and ``run`` plays them; it stops whenever its output buffer is full, so a caller may take moves
one small batch at a time with O(1) work per move (real time) or all at once. Every plan is
O(1): a walk is one run, a ring step one pattern, and with ``BULK`` set the parberry method's
steady steps (5 moves a straight step, 6 a diagonal one) become one pattern repeated as often
as the step-by-step planner would choose it again (``repeat_steps``: the same moves, planned
once per run of steps instead of once per step). The greedy method's steps cannot repeat (each
depends on the tiles its ring displaces), so with ``BULK`` its steps in the interior are planned
and played in one loop instead (``fused_steps``: the same moves, up to ``GAINS`` of them a
segment, which ``run`` then only reports; 13-16% less time on a million tiles).

Methods: 0 ``parberry`` (the choices above: the shortest walk around T, ties to the vertical
move and the clockwise arc), 1 ``greedy`` (the same plan, but the walk around T and the move of
T are chosen to maximise ``WEIGHT/100`` times the Manhattan distance the displaced tiles gain,
minus the moves spent, and the blank's walk to T is the monotone path whose displaced tiles
gain most in all, found by a dynamic programme over the rectangle it crosses: ``best_staircase``).

Blank directions: 0 up, 1 left, 2 right, 3 down (``3 - d`` undoes ``d``).
"""

from __future__ import annotations

import numpy as np

from .jit import njit

# Fields of the state array ``st``.
H, W, R0, C0, TR, K, PHASE, METHOD, SEG_LEN, SEG_REP, SEG_I, SEG_R, ERROR, WEIGHT, BULK, APPLIED = range(16)
STATE_SIZE = 16

# Line phases.
P_NEXT, P_TILE, P_A, P_B, P_FIN, P_TRAP, P_TABLE, P_DONE = range(8)

# Error codes (internal: a bug, never a user error).
ERR_NONE, ERR_STUCK, ERR_TABLE = 0, 1, 2

PATTERN_SIZE = 32
#: A greedy walk of the blank is planned whole when the rectangle it crosses has at most this
#: many cells (one dynamic programme, exact), ...
WALK_CELLS = 16384
#: ... and a larger one ``WALK_WINDOW`` steps at a time (the best of those steps' paths).
WALK_WINDOW = 32
#: Of the two sides of the tile a walk may end at, the greedy method takes the one whose ring
#: walk is shorter, or, when the walks' rectangles have at most this many cells, whose ring walk
#: and walk score best together (100x100: 2.953 x MD against 2.968, for the same time; up to
#: 1,024 cells 2.948 for 15% more).
SIDE_CELLS = 256
#: ``pat`` holds the segment's pattern (at most a whole walk: ``WALK_CELLS / 2`` steps), then 16
#: scratch slots for the ring's gains.
GAINS = max(WALK_CELLS // 2, WALK_WINDOW, PATTERN_SIZE)
PAT_SIZE = GAINS + 16
DI = np.array([-1, 0, 0, 1], dtype=np.int64)
DJ = np.array([0, -1, 1, 0], dtype=np.int64)
# The ring of 8 neighbours of a tile, in cyclic order, and the index of each offset in it.
RING_DI = np.array([-1, -1, -1, 0, 1, 1, 1, 0], dtype=np.int64)
RING_DJ = np.array([-1, 0, 1, 1, 1, 0, -1, -1], dtype=np.int64)


def _arc_tables() -> tuple[np.ndarray, np.ndarray]:
    """``ARC_LEN[src, target, s]`` and ``ARC_NEED[...]`` (bit mask of the ring cells crossed,
    target included) of the arc from ``src`` to ``target`` clockwise (s = 0) or not (s = 1)."""
    length = np.zeros((8, 8, 2), dtype=np.int64)
    need = np.zeros((8, 8, 2), dtype=np.int64)
    for src in range(8):
        for target in range(8):
            for s, sense in enumerate((1, -1)):
                length[src, target, s] = (target - src) * sense % 8
                for k in range(1, length[src, target, s] + 1):
                    need[src, target, s] |= 1 << ((src + k * sense) % 8)
    return length, need


ARC_LEN, ARC_NEED = _arc_tables()
# Blank moves (virtual directions) that finish a line from b at p, a at q, blank at t (found by
# BFS over the 3 x 2 corner); after its first move, b is at t and the blank at p.
TRAP = np.array([0, 2, 3, 1, 3, 2, 0, 0, 1, 3, 2, 3, 1, 0, 0, 2, 3], dtype=np.int64)
UP, LEFT, RIGHT, DOWN = 0, 1, 2, 3


# -- BFS tables for the last small region ---------------------------------------------------


@njit
def perm_rank(perm, k):
    """Lehmer rank of ``perm[0:k]`` (a permutation of 0..k-1)."""
    rank = 0
    for i in range(k):
        smaller = 0
        for j in range(i + 1, k):
            if perm[j] < perm[i]:
                smaller += 1
        rank = rank * (k - i) + smaller
    return rank


@njit
def perm_unrank(rank, k, perm, used):
    """Inverse of ``perm_rank``; ``used`` is scratch of size k."""
    digits = np.empty(k, np.int64)
    for i in range(k - 1, -1, -1):
        base = k - i
        digits[i] = rank % base
        rank //= base
    for i in range(k):
        used[i] = 0
    for i in range(k):
        d = digits[i]
        for v in range(k):
            if not used[v]:
                if d == 0:
                    perm[i] = v
                    used[v] = 1
                    break
                d -= 1


@njit
def stepped_rank(perm, k, blank, h, w, d):
    """Rank of ``perm`` (an h x w board, blank at cell ``blank``) after the blank steps in
    direction ``d``; -1 if that leaves the board. ``perm`` is left as it was."""
    ni, nj = blank // w + DI[d], blank % w + DJ[d]
    if ni < 0 or ni >= h or nj < 0 or nj >= w:
        return -1
    nc = ni * w + nj
    perm[blank], perm[nc] = perm[nc], perm[blank]
    r = perm_rank(perm, k)
    perm[blank], perm[nc] = perm[nc], perm[blank]
    return r


@njit
def bfs_table(h, w, size):
    """Distance to the goal of every permutation of an h x w board (255: unreachable).

    A permutation lists, per cell, the goal cell of the tile there; the blank is ``h*w - 1``;
    the goal is the identity (rank 0)."""
    k = h * w
    dist = np.full(size, 255, np.uint8)
    queue = np.empty(size // 2 + 1, np.int64)
    perm = np.empty(k, np.int64)
    used = np.empty(k, np.int64)
    dist[0] = 0
    queue[0] = 0
    head, tail = 0, 1
    while head < tail:
        r = queue[head]
        head += 1
        perm_unrank(r, k, perm, used)
        blank = 0
        for c in range(k):
            if perm[c] == k - 1:
                blank = c
        for d in range(4):
            nr = stepped_rank(perm, k, blank, h, w, d)
            if nr >= 0 and dist[nr] == 255:
                dist[nr] = dist[r] + 1
                queue[tail] = nr
                tail += 1
    return dist


# -- coordinates ------------------------------------------------------------------------------


@njit
def vdims(st):
    """(Hv, Wv, vr0, vc0) of the current line's virtual board."""
    if st[TR]:
        return st[W], st[H], st[C0], st[R0]
    return st[H], st[W], st[R0], st[C0]


@njit
def vcell(st, i, j):
    return j * st[W] + i if st[TR] else i * st[W] + j


@njit
def vpos(st, cell):
    r, c = cell // st[W], cell % st[W]
    return (c, r) if st[TR] else (r, c)


@njit
def home_tile(st, i, j):
    """The tile whose goal is virtual cell (i, j)."""
    return vcell(st, i, j) + 1


@njit
def locks(st):
    """(KLOCK, QLOCK): locked prefix length of row vr0 and whether q is locked."""
    ph = st[PHASE]
    if ph == P_TILE:
        return st[K], False
    hv, wv, vr0, vc0 = vdims(st)
    return wv - 2, ph == P_B or ph == P_FIN


@njit
def free(st, i, j, klock, qlock):
    hv, wv, vr0, vc0 = vdims(st)
    if i < vr0 or i >= hv or j < vc0 or j >= wv:
        return False
    if i == vr0 and (j < klock or (qlock and j == wv - 1)):
        return False
    return True


@njit(inline=True)
def interior(ti, tj, hv, wv, vr0, vc0):
    """Whether T at virtual (ti, tj) has its whole ring inside the region (``vdims``) and below row
    vr0 (rows vr0+2..Hv-2, columns vc0+1..Wv-2): every ring cell is then free."""
    return vr0 + 2 <= ti < hv - 1 and vc0 < tj < wv - 1


@njit(inline=True)
def useful_moves(st, ti, tj, di, dj, klock, qlock, inside):
    """(vert, horiz): the ring positions of the cells T at (ti, tj) may move into toward (di, dj),
    vertically and horizontally (free cells only: all of them when T is ``inside``, see
    ``interior``), -1 where there is none."""
    vert, horiz = -1, -1
    if ti != di and (inside or free(st, ti + (1 if di > ti else -1), tj, klock, qlock)):
        vert = ring_index(1 if di > ti else -1, 0)
    if tj != dj and (inside or free(st, ti, tj + (1 if dj > tj else -1), klock, qlock)):
        horiz = ring_index(0, 1 if dj > tj else -1)
    return vert, horiz


# -- the Manhattan gain of a blank move (for the greedy method) -----------------------------


@njit(inline=True)
def goal_cell(t, w):
    """Goal row and column of tile t (standard goal: cell t - 1; the blank's -1 gives row -1,
    column w - 1, as ``search.realtime.home_array`` has it). Computed, not looked up: on a million tiles a table of
    homes is 8 MB, and each look-up of a random tile's home was a cache miss."""
    g = t - 1
    gr = g // w
    return gr, g - gr * w


# -- segments ---------------------------------------------------------------------------------


@njit
def seg_set(st, pat, n, rep):
    st[APPLIED] = 0
    st[SEG_LEN] = n
    st[SEG_REP] = rep
    st[SEG_I] = 0
    st[SEG_R] = 0


@njit
def seg_run(st, pat, vd, count):
    """A straight walk of ``count`` blank moves in virtual direction ``vd``."""
    pat[0] = vd ^ 1 if st[TR] else vd
    seg_set(st, pat, 1, count)


@njit(inline=True)
def step_gains(st, cells, i, j, vd, hd):
    """What the tile at virtual (i, j) gains in Manhattan distance when the blank enters its cell
    in virtual direction ``vd`` (a vertical one), and in ``hd`` (a horizontal one)."""
    t = cells[vcell(st, i, j)]
    if t == 0:
        return 0, 0
    gr, gc = goal_cell(t, st[W])
    gi, gj = (gc, gr) if st[TR] else (gr, gc)
    here = abs(i - gi) + abs(j - gj)
    return here - abs(i - DI[vd] - gi) - abs(j - gj), here - abs(i - gi) - abs(j - DJ[hd] - gj)


@njit(inline=True)
def staircase_walk(st, bi, bj, xi, xj):
    """Whether the greedy method's walk of the blank from (bi, bj) to (xi, xj) is a staircase
    (``best_staircase``): both cells below row vr0 (every monotone path between them is then
    free) and in different rows and columns."""
    vr0 = vdims(st)[2]
    return st[METHOD] == 1 and bi != xi and bj != xj and bi > vr0 and xi > vr0


@njit
def staircase_table(st, cells, bi, bj, a, b, vd, hd, k_max):
    """The dynamic programme over the walks of ``k_max`` monotone steps from (bi, bj) within ``a``
    rows and ``b`` columns (directions ``vd``, ``hd``): per cell the most the displaced tiles can
    gain on the way there and whether that walk's last step is vertical; and the end of the best
    walk and its gain. The tiles ahead are not yet disturbed, so every gain is exact."""
    ua = min(a, k_max)
    vb = min(b, k_max)
    best = np.empty((ua + 1, vb + 1), np.int64)
    vertical = np.empty((ua + 1, vb + 1), np.bool_)
    best[0, 0] = 0
    end_u, end_v, end_score = 0, 0, -(1 << 40)
    for u in range(ua + 1):
        i = bi + u * DI[vd]
        for v in range(min(vb, k_max - u) + 1):
            if u == 0 and v == 0:
                continue
            gv, gh = step_gains(st, cells, i, bj + v * DJ[hd], vd, hd)
            # ties: the walk's later steps horizontal, its earlier ones vertical (100x100 seeds
            # 6-15: 2.935 x MD against 2.952 the other way; 50x50 and 300x300 alike)
            if v == 0 or (u > 0 and best[u - 1, v] + gv > best[u, v - 1] + gh):
                best[u, v] = best[u - 1, v] + gv
                vertical[u, v] = True
            else:
                best[u, v] = best[u, v - 1] + gh
                vertical[u, v] = False
            if u + v == k_max and best[u, v] >= end_score:  # ties: the most vertical steps
                end_u, end_v, end_score = u, v, best[u, v]
    return vertical, end_u, end_v, end_score


@njit
def staircase_gain(st, cells, bi, bj, a, b, vd, hd):
    """What the displaced tiles gain on the best monotone walk over the whole rectangle."""
    return staircase_table(st, cells, bi, bj, a, b, vd, hd, a + b)[3]


@njit
def best_staircase(st, cells, pat, bi, bj, a, b, vd, hd):
    """The blank's monotone walk from (bi, bj) over ``a`` rows and ``b`` columns (directions
    ``vd``, ``hd``) whose displaced tiles gain most Manhattan distance in all, into ``pat``; its
    length. Planned whole when the rectangle has at most ``WALK_CELLS`` cells; a larger one gets
    the best first ``WALK_WINDOW`` steps (over the cells they can reach), the rest planned again
    from there (``staircase_table``)."""
    k_max = a + b if (a + 1) * (b + 1) <= WALK_CELLS else min(a + b, WALK_WINDOW)
    vertical, u, v, _ = staircase_table(st, cells, bi, bj, a, b, vd, hd, k_max)
    for k in range(k_max - 1, -1, -1):  # back from the end
        d = vd if vertical[u, v] else hd
        if vertical[u, v]:
            u -= 1
        else:
            v -= 1
        pat[k] = d ^ 1 if st[TR] else d
    return k_max


@njit
def plan_walk(st, cells, pat, bi, bj, xi, xj, horizontal_first):
    """Plan the blank's L-shaped walk from (bi, bj) toward (xi, xj): its first leg, as a run.

    The greedy method walks the monotone path whose displaced tiles gain most instead, where it
    may (``staircase_walk``; the caller has checked that T is outside the rectangle).
    """
    vd = DOWN if xi > bi else UP
    hd = RIGHT if xj > bj else LEFT
    if staircase_walk(st, bi, bj, xi, xj):
        n = best_staircase(st, cells, pat, bi, bj, abs(xi - bi), abs(xj - bj), vd, hd)
        seg_set(st, pat, n, 1)
    elif bi == xi or (bj != xj and horizontal_first):
        seg_run(st, pat, hd, abs(xj - bj))
    else:
        seg_run(st, pat, vd, abs(xi - bi))


@njit
def ring_index(di, dj):
    for r in range(8):
        if RING_DI[r] == di and RING_DJ[r] == dj:
            return r
    return -1


@njit
def ring_mask(st, ti, tj, klock, qlock):
    """Bit r set iff ring cell r of T at (ti, tj) is free."""
    mask = 0
    for r in range(8):
        if free(st, ti + RING_DI[r], tj + RING_DJ[r], klock, qlock):
            mask |= 1 << r
    return mask


@njit
def arc(mask, src, target, sense):
    """Length of the arc from ring position ``src`` to ``target`` in ``sense`` (+1 or -1), or
    -1 if it crosses a cell that is not free."""
    s = 0 if sense > 0 else 1
    need = ARC_NEED[src, target, s]
    return ARC_LEN[src, target, s] if mask & need == need else -1


@njit
def ring_gains(st, cells, ti, tj, mask, pat):
    """Fill ``pat[GAINS + 2r + s]`` with what the tile on free ring cell r of T gains in
    Manhattan distance when the blank enters r walking clockwise (s = 0) or not (s = 1): the
    tile then moves to the ring cell the blank came from. Each tile's home is found once."""
    tr, w = st[TR], st[W]
    for r in range(8):
        if not (mask >> r) & 1:
            continue
        i, j = ti + RING_DI[r], tj + RING_DJ[r]
        t = cells[j * w + i if tr else i * w + j]
        gr, gc = goal_cell(t, w)
        gi, gj = (gc, gr) if tr else (gr, gc)
        here = abs(i - gi) + abs(j - gj)
        for s in range(2):
            prev = (r + 7) % 8 if s == 0 else (r + 1) % 8
            pat[GAINS + 2 * r + s] = here - abs(ti + RING_DI[prev] - gi) - abs(tj + RING_DJ[prev] - gj)


@njit
def arc_gain(pat, src, length, sense):
    """Manhattan distance the tiles on an arc gain as the blank walks it (``ring_gains``)."""
    g = 0
    s = 0 if sense > 0 else 1
    for k in range(1, length + 1):
        g += pat[GAINS + 2 * ((src + 8 + k * sense) % 8) + s]
    return g


@njit
def ring_cost(mask, src, target):
    """Length of the shorter free arc from ``src`` to ``target`` (100 if none or target < 0)."""
    if target < 0:
        return 100
    best = 100
    for sense in (1, -1):
        length = arc(mask, src, target, sense)
        if 0 <= length < best:
            best = length
    return best


@njit
def ring_choice(st, cells, pat, ti, tj, src, vert, horiz, mask):
    """(target, sense, length) of the blank's walk around T from ring position ``src`` to the
    side of a useful move (ring position ``vert`` or ``horiz``, -1 if none); target -1 if stuck.

    Each option (side, sense) scores ``WEIGHT/100 * gain - length``, where gain is what the
    displaced tiles gain in Manhattan distance; the first best wins (parberry: weight 0, so the
    shortest walk, to the vertical side and clockwise on ties)."""
    weight = st[WEIGHT]
    if weight:
        ring_gains(st, cells, ti, tj, mask, pat)
    best_score, best_target, best_sense, best_len = -(1 << 30), -1, 0, 0
    for target in (vert, horiz):
        if target < 0:
            continue
        for sense in (1, -1):
            length = arc(mask, src, target, sense)
            if length < 0:
                continue
            score = -100 * length
            if weight:
                score += weight * arc_gain(pat, src, length, sense)
            if score > best_score:
                best_score, best_target, best_sense, best_len = score, target, sense, length
    return best_target, best_sense, best_len


@njit
def write_ring(st, pat, at, src, target, sense, length):
    """Write the walk around T (``length`` steps from ``src`` in ``sense``) and the push of T
    into the cell at ring position ``target``, from ``pat[at]`` on; return the end."""
    r = src
    for k in range(length):
        nr = (r + sense) % 8
        d = direction(RING_DI[nr] - RING_DI[r], RING_DJ[nr] - RING_DJ[r])
        pat[at + k] = d ^ 1 if st[TR] else d
        r = nr
    push = direction(-RING_DI[target], -RING_DJ[target])
    pat[at + length] = push ^ 1 if st[TR] else push
    return at + length + 1


@njit
def room(x, s, lo, hi):
    """Steps a coordinate ``x`` in ``[lo, hi]`` can take in direction ``s`` (-1, 0, 1) and stay
    there (no limit for 0)."""
    if s > 0:
        return hi - x
    if s < 0:
        return x - lo
    return 1 << 40


@njit
def straight_zone(st, ti, tj, vertical, klock, qlock):
    """``(lo, hi)``: the range of T's row (``vertical``) or column over which, moving along
    that axis, its ring keeps the same free cells (every ring cell inside the region and
    unlocked, in each ring row or column that meets the region at all)."""
    hv, wv, vr0, vc0 = vdims(st)
    if vertical:
        lo = vr0
        for c in range(tj - 1, tj + 2):
            if vc0 <= c < wv and (c < klock or (qlock and c == wv - 1)):
                lo = vr0 + 1
        return lo + 1, hv - 2
    lo, hi = vc0, wv - 1
    if ti - 1 <= vr0:
        lo = max(lo, klock)
        if qlock:
            hi = wv - 2
    return lo + 1, hi - 1


@njit
def repeat_steps(st, cells, pat, n, ti, tj, di, dj, src, target, vert, horiz, klock, qlock):
    """Parberry's steady patterns in bulk: ``pat[:n]`` is one step of T; return
    ``(length, repeats)`` of a segment that also plays the identical steps that follow, each
    of which the planner would choose again.

    The choice at T depends only on the blank's ring position, which of T's distances are
    nonzero (and their signs) and which ring cells are free. After a push the blank is behind
    T (``back``). A straight step whose walk starts behind T (5 moves) repeats until T arrives
    or its ring changes (``straight_zone``; outside a line's first tiles, only within the
    interior: rows vr0+2..Hv-2, columns vc0+1..Wv-2, where the two-tile trick's checks cannot
    apply). In the interior, a diagonal pair (one vertical, one horizontal push) that brings
    the blank back to ``src`` repeats (6 moves a diagonal step) while both distances stay
    positive for both of its choices."""
    hv, wv, vr0, vc0 = vdims(st)
    lo_i, hi_i, lo_j, hi_j = vr0 + 2, hv - 2, vc0 + 1, wv - 2
    back = (target + 4) % 8
    si, sj = RING_DI[target], RING_DJ[target]
    if vert < 0 or horiz < 0:
        if back != src:
            return n, 1
        if st[PHASE] == P_TILE:
            lo, hi = straight_zone(st, ti, tj, si != 0, klock, qlock)
        else:
            lo, hi = (lo_i, hi_i) if si != 0 else (lo_j, hi_j)
        x, sx, dist = (ti, si, abs(di - ti)) if si != 0 else (tj, sj, abs(dj - tj))
        if not lo <= x <= hi:
            return n, 1
        return n, min(dist, room(x, sx, lo, hi) + 1)
    if not interior(ti, tj, hv, wv, vr0, vc0):
        return n, 1
    # Diagonal: T first steps along one axis (distance d1, interior room r1), then the other.
    if si != 0:
        d1, r1 = abs(di - ti), room(ti, si, lo_i, hi_i)
    else:
        d1, r1 = abs(dj - tj), room(tj, sj, lo_j, hi_j)
    if d1 < 2 or r1 < 1:
        return n, 1
    target2, sense2, length2 = ring_choice(st, cells, pat, ti + si, tj + sj, back, vert, horiz, 255)
    if target2 == target or (target2 + 4) % 8 != src:
        return n, 1
    si2, sj2 = RING_DI[target2], RING_DJ[target2]
    if si2 != 0:
        d2, r2 = abs(di - ti), room(ti, si2, lo_i, hi_i)
    else:
        d2, r2 = abs(dj - tj), room(tj, sj2, lo_j, hi_j)
    cycles = min(d1 - 1, d2, r1, r2 + 1)
    return write_ring(st, pat, n, back, target2, sense2, length2), cycles


@njit
def direction(di, dj):
    if di < 0:
        return UP
    if di > 0:
        return DOWN
    if dj < 0:
        return LEFT
    return RIGHT


@njit
def plan_tile(st, cells, pos, pat, tile, di, dj):
    """Plan the next segment that brings ``tile`` toward virtual cell (di, dj); False if it is
    there already."""
    ti, tj = vpos(st, pos[tile])
    if ti == di and tj == dj:
        return False
    klock, qlock = locks(st)
    bi, bj = vpos(st, pos[0])
    hv, wv, vr0, vc0 = vdims(st)
    inside = interior(ti, tj, hv, wv, vr0, vc0)
    vert, horiz = useful_moves(st, ti, tj, di, dj, klock, qlock, inside)
    mask = 255 if inside else ring_mask(st, ti, tj, klock, qlock)
    if max(abs(bi - ti), abs(bj - tj)) > 1:
        # Walk to a free side of T that faces the blank, preferring one T wants to move to (and,
        # for a short greedy walk, one whose walk gains more: ``SIDE_CELLS``).
        best_i, best_j, best_score = -1, -1, 1 << 40
        for f in range(4):
            facing = (f == UP and bi < ti) or (f == DOWN and bi > ti) or (f == LEFT and bj < tj) or (
                f == RIGHT and bj > tj
            )
            r = ring_index(DI[f], DJ[f])
            if facing and (mask >> r) & 1:
                score = 100 * min(ring_cost(mask, r, vert), ring_cost(mask, r, horiz))
                xi, xj = ti + DI[f], tj + DJ[f]
                if staircase_walk(st, bi, bj, xi, xj) and (abs(xi - bi) + 1) * (abs(xj - bj) + 1) <= SIDE_CELLS:
                    score -= st[WEIGHT] * staircase_gain(st, cells, bi, bj, abs(xi - bi), abs(xj - bj),
                                                         DOWN if xi > bi else UP, RIGHT if xj > bj else LEFT)
                if score < best_score:
                    best_i, best_j, best_score = xi, xj, score
        if best_i < 0:
            st[ERROR] = ERR_STUCK
            return False
        plan_walk(st, cells, pat, bi, bj, best_i, best_j, best_i == vr0)
        return True
    src = ring_index(bi - ti, bj - tj)
    target, sense, length = ring_choice(st, cells, pat, ti, tj, src, vert, horiz, mask)
    if target < 0:
        st[ERROR] = ERR_STUCK
        return False
    n = write_ring(st, pat, 0, src, target, sense, length)
    rep = 1
    if st[WEIGHT] == 0 and st[BULK]:
        n, rep = repeat_steps(st, cells, pat, n, ti, tj, di, dj, src, target, vert, horiz, klock, qlock)
    elif st[BULK] and inside:
        n = fused_steps(st, cells, pos, pat, n, ti, tj, di, dj, target)
        seg_set(st, pat, n, 1)
        st[APPLIED] = 1
        return True
    seg_set(st, pat, n, rep)
    return True


@njit
def apply_moves(st, cells, pos, pat, start, end):
    """Play ``pat[start:end]`` (real blank directions) on the board now, storing each move as
    ``direction | tile << 2`` (the tile it pushes) for ``run`` to report."""
    w = st[W]
    blank = np.int64(pos[0])
    for k in range(start, end):
        d = pat[k]
        q = blank + (-w if d == UP else (w if d == DOWN else (-1 if d == LEFT else 1)))
        t = cells[q]
        cells[blank] = t
        pos[t] = blank
        blank = q
        pat[k] = d | (np.int64(t) << 2)
    cells[blank] = 0
    pos[0] = blank


@njit
def fused_steps(st, cells, pos, pat, n, ti, tj, di, dj, target):
    """The greedy method's steps of T in the interior, planned and played in one loop: ``pat[:n]``
    is T's first step (from (ti, tj), pushing it to ring position ``target``); play it, then plan
    and play the next steps exactly as ``plan_tile`` would, one at a time, while T stays where its
    whole ring is free (``interior``) and short of (di, dj), and the segment has room. Return the
    segment's length; its moves are already on the board."""
    hv, wv, vr0, vc0 = vdims(st)
    apply_moves(st, cells, pos, pat, 0, n)
    while n + PATTERN_SIZE <= GAINS:
        ti += RING_DI[target]
        tj += RING_DJ[target]
        if (ti == di and tj == dj) or not interior(ti, tj, hv, wv, vr0, vc0):
            break
        src = (target + 4) % 8  # the blank is where T was
        vert, horiz = useful_moves(st, ti, tj, di, dj, 0, False, True)  # inside: no cell is locked
        target, sense, length = ring_choice(st, cells, pat, ti, tj, src, vert, horiz, 255)
        end = write_ring(st, pat, n, src, target, sense, length)
        apply_moves(st, cells, pos, pat, n, end)
        n = end
    return n


@njit
def plan_goto(st, cells, pos, pat, xi, xj):
    """Plan an L-shaped walk of the blank to virtual (xi, xj); False if it is there."""
    bi, bj = vpos(st, pos[0])
    if bi == xi and bj == xj:
        return False
    hv, wv, vr0, vc0 = vdims(st)
    plan_walk(st, cells, pat, bi, bj, xi, xj, xi == vr0)
    return True


@njit
def start_line(st):
    """Choose the next line (row if the region is at least as tall as wide) or the table."""
    h = st[H] - st[R0]
    w = st[W] - st[C0]
    if h <= 3 and w <= 3:
        st[PHASE] = P_TABLE
        return
    st[TR] = 0 if h >= w else 1
    hv, wv, vr0, vc0 = vdims(st)
    st[K] = vc0
    st[PHASE] = P_TILE if wv - vc0 > 2 else P_A


@njit
def end_line(st):
    if st[TR]:
        st[C0] += 1
    else:
        st[R0] += 1
    st[PHASE] = P_NEXT


@njit
def plan_table(st, cells, pos, pat, table):
    """One optimal move of the last region, read from its BFS table; False when solved."""
    r0, c0, w = st[R0], st[C0], st[W]
    th, tw = st[H] - r0, st[W] - c0
    k = th * tw
    perm = np.empty(k, np.int64)
    blank = 0
    for li in range(th):
        for lj in range(tw):
            t = cells[(r0 + li) * w + c0 + lj]
            if t == 0:
                perm[li * tw + lj] = k - 1
                blank = li * tw + lj
            else:
                g = t - 1
                perm[li * tw + lj] = (g // w - r0) * tw + g % w - c0
    d = table[perm_rank(perm, k)]
    if d == 0:
        return False
    for m in range(4):
        nr = stepped_rank(perm, k, blank, th, tw, m)
        if nr >= 0 and table[nr] == d - 1:
            pat[0] = m
            seg_set(st, pat, 1, 1)
            return True
    st[ERROR] = ERR_TABLE
    return False


@njit
def trap_pattern(st, pat, start):
    """Play ``TRAP[start:]``, which finishes the line."""
    for s in range(start, TRAP.size):
        pat[s - start] = TRAP[s] ^ 1 if st[TR] else TRAP[s]
    seg_set(st, pat, TRAP.size - start, 1)
    end_line(st)


@njit
def plan(st, cells, pos, pat, table):
    """Set the next segment; return False when the board is solved (or on an internal error)."""
    while st[ERROR] == ERR_NONE:
        ph = st[PHASE]
        if ph == P_DONE:
            return False
        if ph == P_NEXT:
            start_line(st)
            continue
        if ph == P_TABLE:
            if plan_table(st, cells, pos, pat, table):
                return True
            if st[ERROR] == ERR_NONE:
                st[PHASE] = P_DONE
            continue
        hv, wv, vr0, vc0 = vdims(st)
        if ph == P_TILE:
            if plan_tile(st, cells, pos, pat, home_tile(st, vr0, st[K]), vr0, st[K]):
                return True
            st[K] += 1
            if st[K] == wv - 2:
                st[PHASE] = P_A
        elif ph == P_A:
            a, b = home_tile(st, vr0, wv - 2), home_tile(st, vr0, wv - 1)
            if pos[a] == vcell(st, vr0, wv - 2) and pos[b] == vcell(st, vr0, wv - 1):
                end_line(st)  # both are home already: the trick would only undo them
                continue
            if plan_tile(st, cells, pos, pat, home_tile(st, vr0, wv - 2), vr0, wv - 1):
                return True
            st[PHASE] = P_B
        elif ph == P_B:
            b = home_tile(st, vr0, wv - 1)
            if pos[b] == vcell(st, vr0, wv - 2):
                st[PHASE] = P_TRAP
                continue
            if pos[b] == vcell(st, vr0 + 1, wv - 2) and pos[0] == vcell(st, vr0, wv - 2):
                trap_pattern(st, pat, 1)
                return True
            if plan_tile(st, cells, pos, pat, b, vr0 + 1, wv - 1):
                return True
            st[PHASE] = P_FIN
        elif ph == P_FIN:
            if plan_goto(st, cells, pos, pat, vr0, wv - 2):
                return True
            pat[0] = RIGHT ^ 1 if st[TR] else RIGHT
            pat[1] = DOWN ^ 1 if st[TR] else DOWN
            seg_set(st, pat, 2, 1)
            end_line(st)
            return True
        elif ph == P_TRAP:
            if plan_goto(st, cells, pos, pat, vr0 + 1, wv - 2):
                return True
            trap_pattern(st, pat, 0)
            return True
    return False


@njit
def run(st, cells, pos, pat, table, dirs, tiles, cap, keep):
    """Play up to ``cap`` moves, planning segments as needed; return how many were played.

    ``keep``: 0 count only, 1 store blank directions in ``dirs`` (one byte each), 2 also store
    the tiles pushed in ``tiles``, 3 store directions 2-bit packed (``dirs[i >> 2]``, bits
    ``2 * (i & 3)``). Fewer than ``cap`` moves means the board is solved, or ``st[ERROR]`` is
    set. The blank's own entries (``cells`` at the blank, ``pos[0]``) are written only before
    the planner reads them. A segment marked ``APPLIED`` is on the board already: its entries
    are ``direction | tile << 2``, reported, not played.
    """
    w = st[W]
    step = np.array([-w, -1, 1, w], dtype=np.int64)
    done = 0
    blank = np.int64(pos[0])
    acc = 0
    seg_i, seg_len, seg_r, seg_rep = st[SEG_I], st[SEG_LEN], st[SEG_R], st[SEG_REP]
    applied = st[APPLIED]  # the segment's moves are on the board already (``fused_steps``)
    while done < cap:
        if seg_r >= seg_rep:
            if not applied:
                cells[blank] = 0
                pos[0] = blank
            if not plan(st, cells, pos, pat, table):
                break
            seg_i, seg_len, seg_r, seg_rep = 0, st[SEG_LEN], 0, st[SEG_REP]
            applied = st[APPLIED]
            blank = np.int64(pos[0])
        d = pat[seg_i]
        if applied:
            t = d >> 2
            d &= 3
        else:
            q = blank + step[d]
            t = cells[q]
            cells[blank] = t
            pos[t] = blank
            blank = q
        if keep == 3:
            acc |= d << (2 * (done & 3))
            if done & 3 == 3:
                dirs[done >> 2] = acc
                acc = 0
        elif keep:
            dirs[done] = d
            if keep == 2:
                tiles[done] = t
        done += 1
        seg_i += 1
        if seg_i == seg_len:
            seg_i = 0
            seg_r += 1
    if keep == 3 and done & 3:
        dirs[done >> 2] = acc
    if not applied:
        cells[blank] = 0
        pos[0] = blank
    st[SEG_I], st[SEG_R] = seg_i, seg_r
    return done


# -- replay -----------------------------------------------------------------------------------


@njit
def manhattan(cells, w, home):
    """Manhattan distance of ``cells`` (standard goal; ``home[2t]``, ``home[2t+1]``: the goal row
    and column of tile t)."""
    total = 0
    for c in range(cells.size):
        t = cells[c]
        if t:
            total += abs(c // w - home[2 * t]) + abs(c % w - home[2 * t + 1])
    return total


def _byte_tables() -> np.ndarray:
    """``BYTE_RANGE[b]``: the lowest and highest row and column offsets (min_i, max_i, min_j,
    max_j) the blank reaches over the four moves packed in byte ``b``, and its net offset."""
    out = np.zeros((256, 6), dtype=np.int64)
    for b in range(256):
        i = j = 0
        lo_i = hi_i = lo_j = hi_j = 0
        for s in range(4):
            d = (b >> (2 * s)) & 3
            i, j = i + DI[d], j + DJ[d]
            lo_i, hi_i, lo_j, hi_j = min(lo_i, i), max(hi_i, i), min(lo_j, j), max(hi_j, j)
        out[b] = lo_i, hi_i, lo_j, hi_j, i, j
    return out


BYTE_RANGE = _byte_tables()


@njit
def replay(cells, h, w, home, dirs, count, packed, flip, stats):
    """Play ``count`` blank directions (each XORed with ``flip``: 3 turns them around) on
    ``cells`` (standard goal; ``home[2t]``, ``home[2t+1]``: the goal row and column of tile t) in
    place, checking that each stays on the board. ``stats``: 0 moves played legally, 1 Manhattan
    distance before, 2 after (0 iff every tile is home). False at an illegal move.

    Packed moves are checked four at a time: the blank's row and column ranges over a byte's
    moves (``BYTE_RANGE``) must lie on the board; a byte that fails is stepped move by move to
    find the first illegal one. Every move changes the Manhattan distance by exactly one, so
    the moves that raise it number ``(moves - before + after) / 2``."""
    blank = 0
    for c in range(h * w):
        if cells[c] == 0:
            blank = c
    stats[1] = manhattan(cells, w, home)
    step = np.array([-w, -1, 1, w], dtype=np.int64)
    bi, bj = blank // w, blank % w
    m = 0
    if packed:
        fbyte = flip * 0x55
        while m + 4 <= count:
            b = dirs[m >> 2] ^ fbyte
            if (bi + BYTE_RANGE[b, 0] < 0 or bi + BYTE_RANGE[b, 1] >= h
                    or bj + BYTE_RANGE[b, 2] < 0 or bj + BYTE_RANGE[b, 3] >= w):
                break
            for s in range(4):
                q = blank + step[(b >> (2 * s)) & 3]
                cells[blank] = cells[q]
                blank = q
            bi += BYTE_RANGE[b, 4]
            bj += BYTE_RANGE[b, 5]
            m += 4
    while m < count:
        d = ((dirs[m >> 2] >> (2 * (m & 3))) & 3 if packed else dirs[m]) ^ flip
        bi += DI[d]
        bj += DJ[d]
        if (bi < 0) | (bi >= h) | (bj < 0) | (bj >= w):
            stats[0] = m
            return False
        q = blank + step[d]
        cells[blank] = cells[q]
        blank = q
        m += 1
    cells[blank] = 0
    stats[0] = count
    stats[2] = manhattan(cells, w, home)
    return True


@njit
def tiles_to_dirs(cells, pos, w, tiles, out):
    """Blank directions of the tiles pushed, played on ``cells``/``pos`` in place; the index of
    the first illegal move, or -1."""
    n = cells.size
    for m in range(tiles.size):
        t = tiles[m]
        if t <= 0 or t >= n:
            return m
        b, q = pos[0], pos[t]
        delta = q - b
        if delta == -w:
            out[m] = UP
        elif delta == w:
            out[m] = DOWN
        elif delta == -1 and b % w != 0:
            out[m] = LEFT
        elif delta == 1 and q % w != 0:
            out[m] = RIGHT
        else:
            return m
        cells[b], cells[q] = t, 0
        pos[t], pos[0] = b, q
    return -1
