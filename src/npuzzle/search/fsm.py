"""Duplicate pruning for IDA*: a finite-state machine over the blank's moves (Taylor & Korf).

Depth-first search reaches most positions by many paths: going three times round a 2x2 square
is the shortest way back (12 moves), and two 6-move paths already reach the same position. Two
strings of blank moves from the same cell that rearrange the board the same way lead every
position to the same place, so of such a pair only the canonical one (shorter, or as long and
earlier by direction number) need ever be searched. A string is *forbidden* when another one
from its first cell, canonical, has its effect; a path containing a forbidden string is a
longer or later way to its end, whose canonical path is still searched.

``automaton(height, width)`` finds every forbidden string of at most ``max_len`` moves by a
breadth-first search from each cell (``_kernels.fsm``), keeps the minimal ones (no forbidden
proper part) and compiles them into an Aho-Corasick automaton over the four directions: its
state after a path is the longest end of the path that begins a forbidden string, and
``bad[state * n + cell]`` says whether a forbidden string ends there with the blank on ``cell``.
IDA* tracks the state per depth and never generates a move into a bad state.

Why the search stays optimal: every proper part of a canonical string is canonical (else
replacing it would give an earlier string with the same effect), so the canonical path to a
position contains no forbidden string. On an optimal solution's canonical path every node has
f <= the solution's length, so each iteration's next threshold is still at most that length and
the iteration at that threshold finds a solution. Up to ``max_len`` moves the search from a
position reaches each position exactly once, by its canonical path (the tests check this count
against breadth-first search).

>>> from npuzzle.search.fsm import automaton
>>> a = automaton(3, 3)
>>> a.max_len, a.strings, a.cells
(14, 550, 9)
"""

from __future__ import annotations

import functools
import time
from collections import deque
from dataclasses import dataclass

import numpy as np

from .. import tables as store
from ..errors import MissingTableError, TableFormatError, TableStoreError

#: Longest forbidden string looked for (4x4: 13,108 minimal strings, 37,361 states), and on
#: boards of more than ``LONG_CELLS`` cells (the searches from every cell would take seconds).
MAX_LEN = 14
MAX_LEN_LARGE = 10
LONG_CELLS = 25
#: Arrangements searched from one cell before a shorter ``max_len`` is tried.
CAP = 1 << 19
#: Kind and version of the automaton in the table store (where it is kept once built).
KIND = "fsm"
VERSION = 1


@dataclass(frozen=True)
class Automaton:
    """The machine for one board shape (directions: 0 up, 1 left, 2 right, 3 down)."""

    max_len: int
    strings: int  # minimal forbidden strings recognised
    cells: int
    packed: np.ndarray  # uint32: the kernel's form (see ``pack_automaton``)

    @property
    def stride(self) -> int:
        return 4 + -(-self.cells // 32)

    @property
    def states(self) -> int:
        return self.packed.size // self.stride

    @functools.cached_property
    def next(self) -> np.ndarray:
        """int64 [state * 4 + direction]: the state after that move."""
        return (self.packed.reshape(self.states, self.stride)[:, :4] // self.stride).astype(np.int64).reshape(-1)

    @functools.cached_property
    def bad(self) -> np.ndarray:
        """uint8 [state * n + cell]: a forbidden string ends in that state with the blank on cell."""
        words = self.packed.reshape(self.states, self.stride)[:, 4:].astype(np.uint64)
        cell = np.arange(self.cells)
        bits = (words[:, cell // 32] >> (cell % 32).astype(np.uint64)) & np.uint64(1)
        return bits.astype(np.uint8).reshape(-1)


def pack_automaton(nxt: np.ndarray, bad: np.ndarray, n: int) -> np.ndarray:
    """One record of ``4 + ceil(n / 32)`` words per state, so that a move touches one or two
    cache lines: the four next states as offsets of their records, then the bad cells as bits."""
    states = nxt.size // 4
    stride = 4 + -(-n // 32)
    out = np.zeros((states, stride), np.uint32)
    out[:, :4] = nxt.reshape(states, 4) * stride
    bits = np.zeros((states, 32 * (stride - 4)), np.uint64)
    bits[:, :n] = bad.reshape(states, n)
    weights = np.uint64(1) << np.arange(32, dtype=np.uint64)
    out[:, 4:] = (bits.reshape(states, stride - 4, 32) * weights).sum(axis=2)
    return out.reshape(-1)


@functools.cache
def automaton(height: int, width: int, max_len: int | None = None) -> Automaton:
    """The duplicate-pruning machine of a ``height x width`` board (made once per process and
    shape, and kept in the table store): the longest ``max_len`` at most the one given (default
    ``MAX_LEN``, ``MAX_LEN_LARGE`` above ``LONG_CELLS`` cells) whose searches stay within ``CAP``
    arrangements from every cell."""
    n = height * width
    if max_len is None:
        max_len = MAX_LEN if n <= LONG_CELLS else MAX_LEN_LARGE
    key = table_key(height, width, max_len)
    try:
        return _saved(key, n)
    except MissingTableError:
        pass  # not built yet: build it, it takes about a second
    except TableFormatError as e:
        store.warn_damaged(e, "building it again (about a second) and replacing it")
    start = time.process_time()
    a = build(height, width, max_len)
    meta = {"max_len": a.max_len, "strings": a.strings, "build_cpu_seconds": round(time.process_time() - start, 2)}
    try:
        store.save_table(key, a.packed, meta)
    except TableStoreError:
        pass  # a read-only store (or no store at all): build it again next time
    return a


def _saved(key: store.TableKey, cells: int) -> Automaton:
    """The stored automaton (checked by ``_check_table``)."""
    table = store.load_table(key)
    return Automaton(table.meta["max_len"], table.meta["strings"], cells, np.array(table.data))


def _check_table(table: store.Table) -> None:
    """The kernel follows the automaton's moves without bounds checks: every move must lead to
    a state's record inside the table (run on every verified load: ``tables.register_check``)."""
    max_len, strings = table.meta.get("max_len"), table.meta.get("strings")
    stride = 4 + -(-table.key.height * table.key.width // 32)
    cells = table.key.height * table.key.width
    data = table.data
    if not (isinstance(max_len, int) and isinstance(strings, int) and data.dtype == np.uint32
            and data.ndim == 1 and data.size and data.size % stride == 0):
        raise TableFormatError(f"table file {table.path}: not a move automaton for {cells} cells")
    nxt = data.reshape(-1, stride)[:, :4]
    if int(nxt.max()) >= data.size or bool((nxt % stride).any()):
        raise TableFormatError(f"table file {table.path}: a move leads outside the automaton (the table is corrupt)")


store.register_check(KIND, _check_table)


def table_key(height: int, width: int, max_len: int) -> store.TableKey:
    return store.TableKey(KIND, height, width, "any", f"moves{max_len}.v{VERSION}")


def build(height: int, width: int, max_len: int) -> Automaton:
    """Find the forbidden strings and compile the automaton (see ``automaton``)."""
    from .._kernels.fsm import forbidden_from
    from ..geometry import neighbours

    n = height * width
    nbr = neighbours(height, width)
    bits = 4 if n <= 16 else 8
    words = -(-n * bits // 64)
    while True:
        found = [forbidden_from(nbr, n, p, max_len, bits, words, CAP) for p in range(n)]
        if all(lens.size == 0 or lens[0] >= 0 for _, lens in found):
            break
        max_len -= 2
    starts = np.concatenate([np.full(lens.size, p, np.int64) for p, (_, lens) in enumerate(found)])
    codes = np.concatenate([c for c, _ in found])
    lens = np.concatenate([x for _, x in found])
    keep = _minimal(nbr, starts, codes, lens)
    return _compile(n, nbr, max_len, starts[keep], codes[keep], lens[keep])


def _key(starts: np.ndarray, codes: np.ndarray, lens: np.ndarray) -> np.ndarray:
    key: np.ndarray = (starts.astype(np.uint64) << np.uint64(56)) | (lens.astype(np.uint64) << np.uint64(50)) | codes
    return key


def _move(codes: np.ndarray, lens: np.ndarray, i: int) -> np.ndarray:
    """The i-th move of each string (strings with at most i moves give garbage)."""
    shift = np.maximum(2 * (lens - 1 - i), 0).astype(np.uint64)
    move: np.ndarray = ((codes >> shift) & np.uint64(3)).astype(np.int64)
    return move


def _minimal(nbr: np.ndarray, starts: np.ndarray, codes: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """Which forbidden strings have no forbidden proper part. Their prefixes are canonical (only
    canonical strings are extended), so only the proper suffixes need checking."""
    every = np.sort(_key(starts, codes, lens))
    keep = np.ones(codes.size, bool)
    cell = starts.copy()
    for i in range(1, int(lens.max(initial=0))):
        live = lens > i
        cell = np.where(live, nbr[cell * 4 + _move(codes, lens, i - 1)], cell)
        rest = lens - i
        suffix = codes & ((np.uint64(1) << (2 * np.maximum(rest, 0)).astype(np.uint64)) - np.uint64(1))
        key = _key(cell, suffix, rest)
        at = np.minimum(np.searchsorted(every, key), every.size - 1)
        keep &= ~(live & (every[at] == key))
    return keep


def _compile(n: int, nbr: np.ndarray, max_len: int, starts: np.ndarray, codes: np.ndarray,
             lens: np.ndarray) -> Automaton:
    goto: list[dict[int, int]] = [{}]
    ends: list[list[int]] = [[]]
    for p, code, length in zip(starts.tolist(), codes.tolist(), lens.tolist(), strict=True):
        state, cell = 0, p
        for i in range(length):
            d = (code >> (2 * (length - 1 - i))) & 3
            cell = int(nbr[cell * 4 + d])
            if d not in goto[state]:
                goto[state][d] = len(goto)
                goto.append({})
                ends.append([])
            state = goto[state][d]
        ends[state].append(cell)
    size = len(goto)
    nxt = np.zeros(size * 4, np.int64)
    bad = np.zeros((size, n), np.uint8)
    fail = [0] * size
    for state, cells in enumerate(ends):
        bad[state, cells] = 1
    queue: deque[int] = deque()
    for d in range(4):
        first = goto[0].get(d, 0)
        nxt[d] = first
        if first:
            queue.append(first)
    while queue:  # breadth-first, so a state's failure state is complete before it
        state = queue.popleft()
        bad[state] |= bad[fail[state]]
        for d in range(4):
            child = goto[state].get(d)
            if child is None:
                nxt[state * 4 + d] = nxt[fail[state] * 4 + d]
            else:
                fail[child] = int(nxt[fail[state] * 4 + d])
                nxt[state * 4 + d] = child
                queue.append(child)
    return Automaton(max_len, int(starts.size), n, pack_automaton(nxt, bad, n))
