"""Exhaustive breadth-first search: the exact distance of every position of a small board.

For boards of at most ``MAX_CELLS`` cells (3x4, 4x3, 2x6, 6x2: 239,500,800 positions) the search
visits every solvable position once, level by level from the goal, and records each position's
distance modulo 3 in a 2-bit packed table indexed by a perfect ranking (see
``_kernels.bfs``). Two bits suffice: a neighbour of a position at distance ``d`` is at ``d - 1``
or ``d + 1``, so ``d mod 3`` picks out the step towards the goal, and walking the table down
from a position yields an optimal solution (and its length) instantly.

Goals: ``"standard"``, ``"blank-first"``, or any blank cell (``blank_cell=(row, column)`` or a
row-major index) with tiles 1..N-1 in row-major order around it; this is how the 8-puzzle's
corner, centre and mid-side distributions are computed. Saved tables go to the table store
(``npuzzle.tables``, kind ``"bfs"``) and are used by ``table_distance`` / ``table_solve``.

``happy_count`` counts the positions solvable with happy moves only (every move brings its tile
one step closer to home), level by level by Manhattan distance.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .. import tables as store
from ..board import Board, Goal, check_goal, check_shape
from ..errors import InvalidBoardError, InvalidOptionError, TableFormatError, TableStoreError
from ..geometry import geometry, neighbours
from ..meters import progress as meter
from .limits import Clock, Limit, Solution, Stats, checked_solution, found_solution

if TYPE_CHECKING:
    from .problem import Problem

#: Largest board (in cells) whose whole state space is searched; indices fit in 32 bits.
MAX_CELLS = 12
#: Largest board whose positions pack into 64 bits for the happy-move search.
MAX_HAPPY_CELLS = 16
KIND = "bfs"

BlankCell = int | tuple[int, int] | None


@dataclass(frozen=True)
class Space:
    """The ranking tables of one board shape and goal blank cell (see ``_kernels.bfs``)."""

    height: int
    width: int
    goal_blank: int
    states: int
    fact_half: np.ndarray
    popc: np.ndarray
    need: np.ndarray
    nbr: np.ndarray

    @property
    def size(self) -> int:
        return self.height * self.width


def _check_shape(height: int, width: int, limit: int, what: str) -> None:
    check_shape(height, width)
    if height * width > limit:
        raise InvalidOptionError(
            f"a {height}x{width} board has {height * width} cells; {what} handles at most {limit}"
        )


def goal_blank(height: int, width: int, goal: Goal = "standard", blank_cell: BlankCell = None) -> int:
    """The goal's blank cell: ``blank_cell`` (``(row, column)`` or row-major index) if given,
    else the goal convention's."""
    check_goal(goal)
    n = height * width
    if blank_cell is None:
        return n - 1 if goal == "standard" else 0
    if isinstance(blank_cell, tuple):
        r, c = blank_cell
        if not (0 <= r < height and 0 <= c < width):
            raise InvalidOptionError(f"blank cell {r},{c} is outside a {height}x{width} board")
        return r * width + c
    if not 0 <= blank_cell < n:
        raise InvalidOptionError(f"blank cell {blank_cell} is outside a {height}x{width} board")
    return int(blank_cell)


def goal_name(height: int, width: int, blank: int) -> str:
    """How tables and outputs name the goal with the blank at ``blank``.

    >>> [goal_name(3, 3, b) for b in (8, 0, 4)]
    ['standard', 'blank-first', 'blank-1,1']
    """
    n = height * width
    if blank == n - 1:
        return "standard"
    if blank == 0:
        return "blank-first"
    return f"blank-{blank // width},{blank % width}"


def goal_board(height: int, width: int, blank: int) -> Board:
    """The goal with the blank at ``blank`` and tiles 1..N-1 row by row around it."""
    tiles = list(range(1, height * width))
    tiles.insert(blank, 0)
    return Board(height, width, tuple(tiles))


@lru_cache(maxsize=32)
def space(height: int, width: int, blank: int) -> Space:
    """The ranking tables for a shape and goal blank cell (cached; never modified)."""
    n = height * width
    m = n - 1
    fact_half = np.array([math.factorial(m - 1 - i) // 2 for i in range(max(m - 2, 1))], dtype=np.int64)
    popc = np.array([bin(x).count("1") for x in range(1 << m)], dtype=np.int64)
    need = np.array([((width - 1) * abs(c // width - blank // width)) & 1 for c in range(n)], dtype=np.int64)
    nbr = neighbours(height, width)
    return Space(height, width, blank, math.factorial(n) // 2, fact_half, popc, need, nbr)


def _key(height: int, width: int, blank: int) -> store.TableKey:
    return store.TableKey(KIND, height, width, goal_name(height, width, blank))


def build_command(height: int, width: int, blank: int) -> str:
    """The command that saves the distance table of this shape and goal blank cell."""
    goal = goal_name(height, width, blank)
    extra = {"standard": "", "blank-first": " --goal blank-first"}.get(
        goal, f" --blank-cell {blank // width},{blank % width}")
    return f"npuzzle stats bfs {height}x{width}{extra} --save"


def load_distance_table(
    height: int, width: int, goal: Goal = "standard", blank_cell: BlankCell = None
) -> store.Table:
    """The saved table (memory-mapped, checked); ``MissingTableError`` names the command to build it."""
    _check_shape(height, width, MAX_CELLS, "the exhaustive search")
    blank = goal_blank(height, width, goal, blank_cell)
    return store.load_table(_key(height, width, blank), build_command=build_command(height, width, blank))


def _check_saved(table: store.Table) -> None:
    """Cheap invariants a checksum cannot vouch for: the size, a distribution of every
    position, and the goal's entry 0 (run on every verified load: ``tables.register_check``)."""
    key = table.key
    blank = {"standard": key.height * key.width - 1, "blank-first": 0}.get(key.goal)
    if blank is None:
        try:
            r, c = (int(x) for x in key.goal.removeprefix("blank-").split(","))
            blank = goal_blank(key.height, key.width, blank_cell=(r, c))
        except (ValueError, InvalidBoardError):
            raise TableFormatError(f"table file {table.path}: unknown goal {key.goal!r}") from None
    if key.height * key.width > MAX_CELLS:
        raise TableFormatError(f"table file {table.path}: a {key.shape} board is too large for a BFS table")
    sp = space(key.height, key.width, blank)
    counts = table.meta.get("distribution")
    if not (isinstance(counts, list) and counts and all(isinstance(c, int) and c > 0 for c in counts)):
        raise TableFormatError(f"table file {table.path}: no valid distribution in its header")
    if sum(counts) != sp.states or counts[0] != 1:
        raise TableFormatError(f"table file {table.path}: its distribution counts {sum(counts):,} positions, "
                               f"not {sp.states:,}")
    if table.data.dtype != np.uint8 or table.data.shape != ((sp.states + 3) // 4,):
        raise TableFormatError(f"table file {table.path}: {table.data.size:,} bytes, not {(sp.states + 3) // 4:,}")
    g = sp.goal_blank
    if (int(table.data[g >> 2]) >> ((g & 3) * 2)) & 3 != 0:
        raise TableFormatError(f"table file {table.path}: the goal's entry is not 0 (the table is forged or corrupt)")
    _check_entries(table, sp, counts)


def _check_entries(table: store.Table, sp: Space, counts: list[int]) -> None:
    """Every entry against a breadth-first search done again: a table whose checksum matches
    may still have been written by someone else, and an answer it gives is called optimal. Two
    bits of ``d mod 3`` a position cannot show locally that they are distances (a table can
    agree with itself along every move and still wind around a cycle), so nothing short of the
    search proves them. Run once per file version (the stamp spares later loads); a table this
    program has just built is vouched for instead (``save_distance_table``)."""
    label = f"checking the saved {sp.height}x{sp.width} distance table"
    fresh, fresh_counts = run_bfs(sp, progress=sp.states > PROGRESS_STATES, label=label)
    if fresh_counts != counts or not np.array_equal(fresh, table.data):
        raise TableFormatError(f"table file {table.path}: its entries are not the distances a breadth-first "
                               "search finds (the table is forged or corrupt)")


#: Tables of more positions than this show a progress bar while they are built or checked.
PROGRESS_STATES = 10_000_000
#: ... and, when this program has just written one, are vouched for rather than searched again on
#: their first load (3x4: 112 CPU s).
VOUCH_STATES = 10_000_000


store.register_check(KIND, _check_saved)


def max_distance(table: store.Table) -> int:
    """The largest distance of a checked saved table (from its distribution)."""
    return len(table.meta["distribution"]) - 1


def run_bfs(sp: Space, progress: bool = True, label: str = "") -> tuple[np.ndarray, list[int]]:
    """Breadth-first search of the whole space: the 2-bit table and the count at each distance."""
    from .._kernels.bfs import UNSEEN, bfs_level

    table = np.full((sp.states + 3) // 4, 0xFF, dtype=np.uint8)
    g = sp.goal_blank
    table[g >> 2] &= ~np.uint8(UNSEEN << ((g & 3) * 2))
    cur = np.array([g], dtype=np.uint32)
    counts = [1]
    seen = 1
    with meter(sp.states, label or f"bfs {sp.height}x{sp.width}", progress) as bar:
        bar.advance(1)
        while seen < sp.states:
            # Every position past the goal has a neighbour one step closer, so at most 3 new ones.
            nxt = np.empty(min(sp.states - seen, 3 * len(cur) + 4), dtype=np.uint32)
            added = bfs_level(table, cur, len(cur), nxt, len(counts) - 1, sp.size, sp.width,
                              sp.fact_half, sp.popc, sp.need, sp.nbr)
            if added == 0:
                break
            counts.append(int(added))
            seen += int(added)
            cur = nxt[:added]
            bar.advance(int(added))
            bar.note(f"distance {len(counts) - 1}")
    if seen != sp.states:
        raise AssertionError(f"BFS reached {seen} of {sp.states} positions: the ranking is wrong")
    return table, counts


def _full_search(
    height: int, width: int, goal: Goal, blank_cell: BlankCell, save: bool, progress: bool
) -> tuple[np.ndarray, list[int]]:
    """The 2-bit table and the distribution: from the store if saved there, else by ``run_bfs``."""
    _check_shape(height, width, MAX_CELLS, "the exhaustive search")
    blank = goal_blank(height, width, goal, blank_cell)
    key = _key(height, width, blank)
    try:
        saved = _saved_table(height, width, blank)
    except TableFormatError as e:
        store.warn_damaged(e, "searching again" + (" and replacing it" if save else
                                                   f" (replace it: {build_command(height, width, blank)})"))
        saved = None
    if saved is not None:
        return saved.data, list(saved.meta["distribution"])
    if not save:
        return run_bfs(space(height, width, blank), progress)
    # say now, not after the search, if the store cannot be written or has not the room
    store.writable_path(key, (space(height, width, blank).states + 3) // 4)
    with store.building(key):  # one builder at a time: another is named by its pid
        table, counts = run_bfs(space(height, width, blank), progress)
        save_distance_table(height, width, blank, table, counts)
    return table, counts


def save_distance_table(height: int, width: int, blank: int, table: np.ndarray, counts: list[int]) -> Path:
    """Store a table made by ``run_bfs``, with its distribution in the header's meta."""
    meta = {"encoding": "2-bit distance mod 3, 3 = unreachable; index = rank * cells + blank",
            "states": sum(counts), "distribution": counts}
    path = store.save_table(_key(height, width, blank), table, meta)
    if sum(counts) > VOUCH_STATES:
        store.vouch(_key(height, width, blank))
    return path


def distance_table(
    height: int,
    width: int,
    goal: Goal = "standard",
    *,
    save: bool = False,
    progress: bool = True,
    blank_cell: BlankCell = None,
) -> np.ndarray:
    """The packed 2-bit table (``d mod 3``, 3 = unreachable index) of every position's distance.

    A saved table is loaded (memory-mapped) instead of searching; ``save=True`` stores a new one.
    """
    return _full_search(height, width, goal, blank_cell, save, progress)[0]


def distribution(
    height: int,
    width: int,
    goal: Goal = "standard",
    blank_cell: BlankCell = None,
    *,
    save: bool = False,
    progress: bool = False,
) -> list[int]:
    """Number of positions at each distance ``0, 1, ..., max`` from the goal.

    Read from a saved table when there is one; otherwise a full search (saved if ``save``).
    """
    return _full_search(height, width, goal, blank_cell, save, progress)[1]


_loaded: dict[store.TableKey, tuple[tuple[int, int], store.Table | TableFormatError]] = {}


def _saved_table(height: int, width: int, blank: int) -> store.Table | None:
    """The saved table, or ``None`` (checksum verified once per process and file version);
    ``TableFormatError`` if it is damaged."""
    key = _key(height, width, blank)
    stamp = store.table_stamp(key)
    if stamp is None:
        return None
    cached = _loaded.get(key)
    if cached is None or cached[0] != stamp:
        try:
            cached = (stamp, load_distance_table(key.height, key.width, blank_cell=blank))
        except TableFormatError as e:
            cached = (stamp, e)  # so a batch does not read a damaged table again for every line
        _loaded[key] = cached
    if isinstance(cached[1], TableFormatError):
        raise cached[1]
    return cached[1]


def _walk(board: Board, goal: Goal) -> tuple[tuple[int, ...], Stats] | None:
    """The tiles pushed along the saved table from ``board`` to ``goal`` (a checked convention
    name), and the time taken."""
    if board.size > MAX_CELLS:
        return None
    blank = goal_blank(board.height, board.width, goal)
    try:
        table = _saved_table(board.height, board.width, blank)
        if table is None:
            return None
        board.require_solvable(goal)
        return _walk_table(board, table, blank)
    except TableFormatError as e:
        store.warn_damaged(e, f"solving without it (rebuild it: {build_command(board.height, board.width, blank)})")
        return None


def _walk_table(board: Board, table: store.Table, blank: int) -> tuple[tuple[int, ...], Stats]:
    """The tiles pushed walking a checked saved table down from ``board``, and the walk's stats."""
    return _walk_down(board, blank, table.data, str(table.path), max_distance(table))


def _walk_down(
    board: Board, blank: int, data: np.ndarray, source: str, longest: int
) -> tuple[tuple[int, ...], Stats]:
    """The tiles pushed walking ``data`` (a 2-bit table of goal blank cell ``blank``) down from
    ``board``, and the walk's stats; no walk is longer than ``longest`` (which stops a corrupt one)."""
    from .._kernels.bfs import walk_down

    clock = Clock(Limit())
    sp = space(board.height, board.width, blank)
    cells = np.array(board.tiles, dtype=np.int64)
    moves = np.zeros(longest, dtype=np.int64)
    steps = walk_down(data, cells, blank, sp.size, sp.width, sp.fact_half, sp.popc, sp.nbr, moves)
    if steps < 0:
        raise TableFormatError(f"table file {source}: it does not lead from the position to the goal")
    stats = Stats(expanded=int(steps), generated=int(steps) + 1)
    clock.stamp(stats)
    return tuple(int(t) for t in moves[:steps]), stats


def table_distance(board: Board, goal: Goal = "standard") -> int | None:
    """The exact distance of ``board`` from a saved table, or ``None`` if no table is saved."""
    walked = _walk(board, goal)
    return None if walked is None else len(walked[0])


def has_table(board: Board, goal: Goal) -> bool:
    """Whether a distance table is saved for ``board``'s shape and ``goal`` (not yet read)."""
    return has_blank_table(board.height, board.width, board.size - 1 if goal == "standard" else 0)


def blank_table_at_hand(height: int, width: int, blank: int) -> bool:
    """Whether the distance table of goal blank cell ``blank`` answers for this shape: the board
    has at most ``IN_MEMORY_CELLS`` cells (made at once) or the table is saved."""
    return height * width <= IN_MEMORY_CELLS or has_blank_table(height, width, blank)


def has_blank_table(height: int, width: int, blank: int) -> bool:
    """Whether the distance table of goal blank cell ``blank`` is saved for this shape (not yet read)."""
    if height * width > MAX_CELLS:
        return False
    try:
        return store.table_stamp(_key(height, width, blank)) is not None
    except TableFormatError:
        return True  # unreadable: the walk reports it (``solve_problem``) and IDA* answers


def solve_problem(problem: Problem) -> Solution:
    """An optimal solution walked down the saved table (``search.problem`` method ``table``);
    a damaged table is reported and IDA* answers instead."""
    walked = _walk(problem.start, problem.target)
    if walked is None:  # damaged (and reported): IDA* answers
        from ..heuristics.registry import auto_heuristic, parse
        from .registry import REGISTRY, resolved_pruning

        spec = parse(auto_heuristic(problem.start.height, problem.start.width, problem.target)[0])
        pruning = resolved_pruning("auto", spec, problem.start.size)  # as prepare resolves it for IDA*
        return REGISTRY["idastar"].load()(dataclasses.replace(problem, method="idastar", heuristic=spec,
                                                              pruning=pruning))
    moves, stats = walked
    return found_solution(problem.start, problem.target, moves, optimal=True, stats=stats, method="bfs-table",
                          heuristic="table")


def solve_goal_board(problem: Problem) -> Solution:
    """A goal board whose blank and the position's are both off the corners, where the table of the
    goal's blank cell is at hand (``blank_table_at_hand``; ``search.problem`` method ``table-cell``):
    an optimal solution read off the distance table of the goal's blank cell (``blank_cell_walk``)
    after relabelling the goal's tiles to 1..N-1 row by row around the blank."""
    from .relabel import renamed

    board, goal = problem.board, problem.goal
    assert isinstance(goal, Board) and board.size <= MAX_CELLS
    frame = renamed(goal)
    framed, stats = blank_cell_walk(frame.apply(board), goal.blank)
    return found_solution(board, goal, frame.original_tiles(framed), optimal=True, stats=stats, method="bfs-table",
                          heuristic="table", note="the blank of neither board is in a corner: solved with the "
                          "distance table of the goal's blank cell")


def table_solve(board: Board, goal: Goal = "standard") -> Solution | None:
    """An optimal solution read off a saved table (replayed and checked), or ``None``."""
    walked = _walk(board, goal)
    if walked is None:
        return None
    moves, stats = walked
    return checked_solution(board, goal, moves, optimal=True, stats=stats, method="bfs-table", heuristic="table")


def happy_count(
    progress: bool = True, *, height: int = 4, width: int = 4, goal: Goal = "standard"
) -> list[int]:
    """Number of positions solvable by happy moves only, by distance (= Manhattan distance).

    Level ``d`` is every position one farther-from-home move away from level ``d - 1``; levels
    are disjoint (they differ in Manhattan distance), so each is deduplicated on its own by
    sorting the packed 64-bit positions.
    """
    _check_shape(height, width, MAX_HAPPY_CELLS, "the happy-move search")
    from .._kernels.bfs import happy_expand, unique_sorted

    n = height * width
    t = geometry(height, width, check_goal(goal))
    packed = sum(int(tile) << (4 * cell) for cell, tile in enumerate(Board.goal(height, width, goal).tiles))
    level = np.array([packed], dtype=np.uint64)
    counts = [1]
    deepest = int(t.md.reshape(n, n)[:, 1:].max(axis=0).sum())
    with meter(deepest, f"happy {height}x{width}", progress) as bar:
        while True:
            out = np.empty(4 * len(level), dtype=np.uint64)
            k = happy_expand(level, len(level), out, n, t.md, t.nbr)
            out = out[:k]
            out.sort()
            m = unique_sorted(out, k)
            if m == 0:
                break
            level = out[:m].copy()
            del out
            counts.append(int(m))
            bar.advance(1)
            bar.note(f"distance {len(counts) - 1}: {m:,} positions")
    return counts


#: Boards of up to this many cells (2x5: 1,814,400 positions, about a second) have the distance
#: table of any goal blank cell made when none is saved, and saved in the table store (as
#: ``npuzzle stats bfs HxW --blank-cell R,C --save`` saves it), so later processes read it.
IN_MEMORY_CELLS = 10


@lru_cache(maxsize=4)
def _memory_table(height: int, width: int, blank: int) -> np.ndarray:
    """The table made by a search, and saved in the store (where it can be written)."""
    table, counts = run_bfs(space(height, width, blank), progress=False)
    try:
        save_distance_table(height, width, blank, table, counts)
    except TableStoreError:
        pass  # a read-only store (or no store at all): made again by the next process
    return table


def blank_cell_walk(board: Board, blank: int) -> tuple[tuple[int, ...], Stats]:
    """An optimal path (tiles pushed, and the stats of the walk) from ``board`` to ``goal_board(h, w, blank)``:
    from the saved table of that goal, or, on boards of up to ``IN_MEMORY_CELLS`` cells, one made
    now and saved (a damaged saved one is reported once and replaced); ``MissingTableError``
    names the command that saves it otherwise."""
    h, w = board.shape
    _check_shape(h, w, MAX_CELLS, "the exhaustive search")
    board.require_solvable(goal_board(h, w, blank))
    try:
        saved = _saved_table(h, w, blank)
        if saved is not None:
            return _walk_table(board, saved, blank)
    except TableFormatError as e:
        if board.size > IN_MEMORY_CELLS:
            raise
        store.warn_damaged(e, "searching again and replacing it")
    if board.size > IN_MEMORY_CELLS:
        load_distance_table(h, w, blank_cell=blank)  # raises MissingTableError naming the command
    clock = Clock(Limit())  # the table's search counts (once per process)
    moves, stats = _walk_down(board, blank, _memory_table(h, w, blank), "<memory>", 64 * board.size)
    clock.stamp(stats)
    return moves, stats
