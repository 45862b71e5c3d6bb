"""Kernels that move many boards of one shape at once (the vectorised stepper and its seeded
random walks), and that label positions of small boards from an exact distance table.

Boards are the rows of a 2-D array of tiles (any integer type); ``blanks[i]`` is the blank's cell
of board ``i`` and ``md[i]`` its Manhattan distance, both kept up to date move by move (so a
board is solved exactly when its ``md`` is 0). Actions are numbered ``U, D, L, R = 0, 1, 2, 3``
(``board.Direction``: the way the pushed tile slides, ``a ^ 1`` undoes ``a``); ``nbr[cell * 4 + a]``
is the blank's cell after action ``a``, or -1 when no tile can slide that way; ``mdt[cell * n +
tile]`` is the Manhattan distance of ``tile`` at ``cell`` (0 for the blank).
"""

from __future__ import annotations

import numpy as np

from .bfs import _get, _neighbour, rank, unrank
from .jit import njit

#: ``distances``' mark of a position whose distance is not known yet.
UNKNOWN = 255


@njit(inline=True)
def _push(tiles, blanks, md, i, q, nbr, mdt, n):
    """Slide the tile at cell ``q`` of board ``i`` into its blank."""
    b = blanks[i]
    t = tiles[i, q]
    md[i] += mdt[b * n + t] - mdt[q * n + t]
    tiles[i, b] = t
    tiles[i, q] = 0
    blanks[i] = q


@njit
def step(tiles, blanks, md, actions, nbr, mdt, moved):
    """One action on every board: ``moved[i]`` is 1 if a tile slid, 0 if the action was illegal
    there (the board is left as it was)."""
    n = tiles.shape[1]
    for i in range(tiles.shape[0]):
        q = nbr[blanks[i] * 4 + actions[i]]
        if q < 0:
            moved[i] = 0
        else:
            _push(tiles, blanks, md, i, q, nbr, mdt, n)
            moved[i] = 1


@njit
def steps(tiles, blanks, md, actions, nbr, mdt, moved):
    """The actions of row ``i`` of the 2-D ``actions`` on board ``i`` in turn (illegal ones skip);
    ``moved[i]`` counts the tiles that slid."""
    n = tiles.shape[1]
    for i in range(tiles.shape[0]):
        k = 0
        for j in range(actions.shape[1]):
            q = nbr[blanks[i] * 4 + actions[i, j]]
            if q >= 0:
                _push(tiles, blanks, md, i, q, nbr, mdt, n)
                k += 1
        moved[i] = k


@njit(inline=True)
def _splitmix(state):
    """One step of splitmix64: the next state and a 64-bit output."""
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit
def random_walk(tiles, blanks, md, seeds, length, nbr, mdt, last):
    """``length`` random moves on board ``i``, drawn by splitmix64 from ``seeds[i]``: each a legal
    action other than the one undoing the previous (uniform among them). ``last[i]`` is the last
    action (-1 for none, also on input: the walk does not undo it)."""
    n = tiles.shape[1]
    choice = np.empty(4, np.int64)
    for i in range(tiles.shape[0]):
        state = seeds[i]
        prev = last[i]
        for _ in range(length):
            c = 0
            for a in range(4):
                if nbr[blanks[i] * 4 + a] >= 0 and (prev < 0 or a != (prev ^ 1)):
                    choice[c] = a
                    c += 1
            state, z = _splitmix(state)
            a = choice[np.int64(z % np.uint64(c))]
            _push(tiles, blanks, md, i, nbr[blanks[i] * 4 + a], nbr, mdt, n)
            prev = a
        last[i] = prev


@njit
def distances(table, goal_index, n, w, fact_half, popc, need, nbr, out):
    """Every position's exact distance (``out``, uint8, by the index of ``_kernels.bfs``) from a
    complete 2-bit table of ``d mod 3``: each position is walked down the table until a position
    of known distance, and the distances of the walk filled in backwards. ``nbr`` is the blank's
    neighbour table of ``geometry``. Returns the largest distance."""
    cells = np.empty(n, np.int64)
    seq = np.empty(n, np.int64)
    path = np.empty(out.shape[0] if out.shape[0] < 4096 else 4096, np.int64)
    out[:] = UNKNOWN
    out[goal_index] = 0
    most = 0
    for start in range(out.shape[0]):
        if out[start] != UNKNOWN:
            continue
        unrank(start, n, fact_half, need, cells, seq)
        idx = start
        depth = 0
        while out[idx] == UNKNOWN:
            path[depth] = idx
            depth += 1
            down = (_get(table, idx) + 2) % 3
            blank = idx % n
            for d in range(4):
                q = nbr[blank * 4 + d]
                if q < 0:
                    continue
                j = _neighbour(cells, idx, blank, q, n, w, fact_half, popc)
                if _get(table, j) == down:
                    cells[blank] = cells[q]
                    cells[q] = 0
                    idx = j
                    break
        base = np.int64(out[idx])
        for k in range(depth):
            out[path[k]] = base + depth - k
        if base + depth > most:
            most = base + depth
    return most


@njit
def label(boards, dist, n, w, fact_half, popc, act, out_d, out_mask):
    """Each board's exact distance (``out_d``) and its optimal first actions (``out_mask``, bit
    ``a`` set if action ``a`` leads to a position one move closer), from ``distances``' table;
    ``act[cell * 4 + a]`` is the blank's cell after action ``a`` (or -1)."""
    cells = np.empty(n, np.int64)
    for i in range(boards.shape[0]):
        for c in range(n):
            cells[c] = boards[i, c]
        idx = rank(cells, n, fact_half, popc)
        d = np.int64(dist[idx])
        blank = idx % n
        mask = 0
        for a in range(4):
            q = act[blank * 4 + a]
            if q < 0:
                continue
            j = _neighbour(cells, idx, blank, q, n, w, fact_half, popc)
            if np.int64(dist[j]) + 1 == d:
                mask |= 1 << a
        out_d[i] = d
        out_mask[i] = mask
