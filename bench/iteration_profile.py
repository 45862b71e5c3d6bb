"""Benchmark: the whole IDA* iteration at one threshold, node by node depth, for a 4x4 position.

    python bench/iteration_profile.py 159d26ae37bf48c0 72
    python bench/iteration_profile.py 159d26ae37bf48c0 72 --fsm
    python bench/iteration_profile.py 159d26ae37bf48c0 64 68 70 72 --distinct

Unlike the solver, the iteration does not stop at the first solution: it counts every node with
f = g + h <= THRESHOLD (h: the 7-8 pattern databases with the reflected lookup, blank-first
goal, the position turned 180 degrees), the paths of length THRESHOLD that reach the goal, and
prints the nodes at each depth. ``--fsm`` adds the duplicate-pruning automaton; ``--distinct``
also skips a node whose position was already searched at the same or a smaller depth in the same
iteration (a hash table of 2^28 positions, 2.3 GB), which gives how much duplicate detection with
unlimited memory could save. A slow, plain search (every h computed from scratch).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from numba import njit

from npuzzle.heuristics.registry import kernel_heuristic
from npuzzle.notation import parse_knuth
from npuzzle.search.fsm import automaton


@njit
def _rank(pos, tiles, k, n):
    r = 0
    for i in range(k):
        c = pos[tiles[i]]
        less = 0
        for j in range(i):
            if pos[tiles[j]] < c:
                less += 1
        r = r * (n - i) + c - less
    return r


@njit
def _h(board, data, offs, tiles, sizes, mirror, relabel):
    n = 16
    pos = np.empty(n, np.int64)
    mpos = np.empty(n, np.int64)
    md = 0
    for c in range(n):
        t = board[c]
        pos[t] = c
        mpos[relabel[t]] = mirror[c]
        if t:
            md += abs(c // 4 - t // 4) + abs(c % 4 - t % 4)
    s = 0
    ms = 0
    for p in range(tiles.shape[0]):
        s += data[offs[p] + _rank(pos, tiles[p], sizes[p], n)]
        ms += data[offs[p] + _rank(mpos, tiles[p], sizes[p], n)]
    h = md
    for v in (s, ms):
        v = v + ((v ^ md) & 1)
        if v > h:
            h = v
    return h


@njit
def _seen(keys, depths, board, g):
    """True if the position was searched at depth <= g; else records it at depth g."""
    key = np.uint64(0)
    for c in range(16):
        key |= np.uint64(board[c]) << np.uint64(4 * c)
    mask = keys.shape[0] - 1
    i = np.int64((key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - 28)) & mask
    while keys[i] != 0 and keys[i] != key:
        i = (i + 1) & mask
    if keys[i] == key and depths[i] <= g:
        return True
    keys[i] = key
    depths[i] = g
    return False


@njit
def _iteration(board, bound, data, offs, tiles, sizes, mirror, relabel, fsm_next, fsm_bad, use_fsm,
               distinct, keys, depths, counts):
    """Counts per depth into ``counts``; returns the paths that reach the goal."""
    blanks = np.zeros(bound + 2, np.int64)
    dirs = np.zeros(bound + 2, np.int64)
    states = np.zeros(bound + 2, np.int64)
    steps = (-4, -1, 1, 4)
    for c in range(16):
        if board[c] == 0:
            blanks[0] = c
    if distinct:
        _seen(keys, depths, board, 0)
    counts[0] += 1
    d = 0
    goals = 0
    while True:
        if dirs[d] == 4:
            if d == 0:
                break
            p = blanks[d - 1]
            b = blanks[d]
            board[b] = board[p]
            board[p] = 0
            d -= 1
            continue
        k = dirs[d]
        dirs[d] += 1
        b = blanks[d]
        q = b + steps[k]
        if q < 0 or q > 15 or ((k == 1 or k == 2) and q // 4 != b // 4):
            continue
        if d > 0 and q == blanks[d - 1]:
            continue
        u = 0
        if use_fsm:
            u = fsm_next[states[d] * 4 + k]
            if fsm_bad[u * 16 + q]:
                continue
        board[b] = board[q]
        board[q] = 0
        h = _h(board, data, offs, tiles, sizes, mirror, relabel)
        if d + 1 + h <= bound and not (distinct and _seen(keys, depths, board, d + 1)):
            counts[d + 1] += 1
            if h == 0:
                goals += 1
            d += 1
            blanks[d] = q
            dirs[d] = 0
            states[d] = u
        else:
            board[q] = board[b]
            board[b] = 0
    return goals


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("position", help="16 hex digits (standard goal)")
    p.add_argument("thresholds", nargs="+", type=int)
    p.add_argument("--fsm", action="store_true", help="prune duplicates with the move automaton")
    p.add_argument("--distinct", action="store_true", help="search each position once per depth bound")
    a = p.parse_args()
    kh = kernel_heuristic("pdb:7-8", 4, 4, "blank-first")
    part = kh.partition
    mirror, relabel = kh.mirror
    fsm = automaton(4, 4)
    board = np.array([(16 - t) % 16 for t in reversed(parse_knuth(a.position).tiles)], np.int64)
    print(f"h = {_h(board.copy(), part.data, part.offsets, part.tiles, part.sizes, mirror.astype(np.int64), relabel)}")
    keys = np.zeros(1 << 28 if a.distinct else 1, np.uint64)
    depths = np.zeros(keys.size, np.uint8)
    for bound in a.thresholds:
        keys[:] = 0
        counts = np.zeros(bound + 2, np.int64)
        start = time.process_time()
        goals = _iteration(board.copy(), bound, part.data, part.offsets, part.tiles, part.sizes,
                           mirror.astype(np.int64), relabel, fsm.next, fsm.bad, a.fsm, a.distinct, keys, depths,
                           counts)
        print(f"threshold {bound}: {counts.sum():,} nodes, {goals} paths to the goal, peak at depth "
              f"{counts.argmax()}, {time.process_time() - start:.1f} s CPU")
        print("  nodes by depth: " + " ".join(f"{d}:{c}" for d, c in enumerate(counts) if c))
    return 0


if __name__ == "__main__":
    sys.exit(main())
