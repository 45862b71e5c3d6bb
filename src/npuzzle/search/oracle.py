"""The distance oracle: how far a position is from its goal, and how that is known.

Every part of npuzzle that needs a distance rather than a solution (a solve's analysis, the
labels of a data set, the verifier's optimum, the environment's distance reward) asks an
``Oracle``. It decides once, for a shape and a goal, how distances are found, framing the
positions as ``search.problem.prepare`` frames them (``search.relabel`` builds every frame):

- ``table``: a breadth-first distance table, on boards of at most ``MADE_TABLE_CELLS`` cells
  (made in about a second and saved) or at most ``TABLE_CELLS`` cells when one is saved. A goal
  board whose blank is off the corners reads the table of its blank cell, its tiles renamed;
- ``idastar``: bounded IDA* with the heuristic ``prepare`` resolves, on boards of at most
  ``EXACT_CELLS`` cells (4x4, 3x5, ...): one iteration at threshold ``d - 1`` decides whether a
  neighbour of a position at ``d`` is nearer (``search.idastar.Probe``);
- ``bounds``: larger boards (and goal boards off the corners beyond the tables): a certified
  interval ``[lower, upper]``, the lower end from the heuristic ``prepare`` picks (or the search's
  proven bound), the upper end from the length of a solution found (``solve``'s ``auto``).

``distance(board)`` is one position's ``Interval`` (``lower == upper`` when exact), ``along`` the
exact distance of every position of a path, ``better`` and ``optimal`` one or every optimal
continuation, ``bounds_along`` the intervals of a path on boards too large for exact distances.

>>> from npuzzle import Board
>>> o = Oracle(3, 3, "standard")
>>> o.kind, o.distance(Board(3, 3, (1, 2, 3, 4, 5, 6, 0, 7, 8)))
('table', Interval(lower=2, upper=2, lower_by='table', upper_by='table'))
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..board import Board, Goal
from ..errors import MissingTableError, SearchStopped
from .bfs import IN_MEMORY_CELLS as MADE_TABLE_CELLS
from .bfs import MAX_CELLS as TABLE_CELLS
from .limits import TIMEOUT, Clock, Limit, Solution
from .problem import AUTO_OPTIMAL_CELLS as EXACT_CELLS
from .registry import REGISTRY, Request

if TYPE_CHECKING:
    from ..heuristics.registry import Spec
from .relabel import Frame, goal_frame, renamed

__all__ = ["EXACT_CELLS", "MADE_TABLE_CELLS", "TABLE_CELLS", "Interval", "Oracle", "Path", "method_for",
           "exact_table", "table_labels"]

#: Pattern databases the oracle builds on first use when none is built for its shape: small and
#: quick (4x4 5-5-5: about 0.7 s of CPU and 3 MB, kept in the table store), and they make every
#: probe of a 100-move 4x4 solve several times cheaper than the walking distance
#: (``docs/benchmarks.md``, "Solve analysis").
SMALL_TABLES: dict[tuple[int, int], str] = {(4, 4): "5-5-5"}
#: The nodes the bounded searches near the end of a path may take on boards beyond exact distances.
TAIL_NODES = 2_000_000
#: Positions times cells beyond which a path's lower bounds are the Manhattan distance kept move
#: by move (linear in moves plus cells) rather than a heuristic evaluated at every position.
STRONG_WORK = 4_000_000


@dataclass(frozen=True)
class Interval:
    """A distance proven to lie in ``[lower, upper]`` (``upper`` None: no solution known), and
    what proved each end (``table``, ``idastar``, a heuristic's name, ``beam``, ...)."""

    lower: int
    upper: int | None
    lower_by: str
    upper_by: str

    @property
    def exact(self) -> bool:
        return self.lower == self.upper


@dataclass(frozen=True)
class Path:
    """The certified bounds of every position of a path (step ``k`` after ``k`` moves): the
    distance after ``k`` moves lies in ``[lower[k], upper[k]]`` (``upper[k]`` -1: none known).
    ``lower_from[k]`` is the step whose own bound, less the moves between, gives ``lower[k]``, and
    ``lower_by[j]`` what proved step ``j``'s own bound (likewise for the upper ends)."""

    lower: tuple[int, ...]
    upper: tuple[int, ...]
    lower_from: tuple[int, ...]
    upper_from: tuple[int, ...]
    lower_by: dict[int, str]
    upper_by: dict[int, str]

    def exact(self, k: int) -> bool:
        return self.lower[k] == self.upper[k]

    def why_lower(self, k: int) -> str:
        j = self.lower_from[k]
        return self.lower_by[j] + (f" at step {j}, less {abs(k - j)} moves" if j != k else "")

    def why_upper(self, k: int) -> str:
        j = self.upper_from[k]
        return self.upper_by[j] + (f" at step {j}, plus {abs(k - j)} moves" if j != k else "")


def method_for(height: int, width: int, goal: Goal | Board = "standard") -> str:
    """How the oracle finds distances on this shape and goal: ``bfs-table``,
    ``idastar/HEURISTIC`` or, beyond exact distances, ``bounds``."""
    o = Oracle(height, width, goal)
    return "bfs-table" if o.kind == "table" else f"idastar/{o.heuristic}" if o.kind == "idastar" else "bounds"


class Oracle:
    """Distances to ``goal`` of the positions of one shape (see the module's documentation).
    ``limit`` holds every search the oracle runs (``SearchStopped`` when reached)."""

    def __init__(self, height: int, width: int, goal: Goal | Board = "standard", limit: Limit | None = None) -> None:
        from .bfs import blank_table_at_hand, goal_blank, goal_board

        self.height, self.width, self.goal = height, width, goal
        self.limit = limit or Limit()
        self.clock = Clock(self.limit)
        self.method, self.heuristic, self.advice = "lower-bound", "manhattan", ""
        n = height * width
        named = goal if isinstance(goal, str) else next(
            (g for g in ("standard", "blank-first") if goal.is_goal(g)), None)
        self.frame: Frame | None = None
        self.target: Goal | None = named
        if named is not None:
            self.blank = goal_blank(height, width, named)
        else:
            assert isinstance(goal, Board)
            self.frame = goal_frame(goal)
            self.blank = goal.blank if self.frame is None else n - 1
            if self.frame is None:
                self.frame = renamed(goal)  # the distance table of the goal's blank cell, or bounds
            else:
                self.target = "standard"
        self.framed_goal = goal_board(height, width, self.blank)
        self.spec: Spec | None = None  # the heuristic of the searches and bounds, as prepare resolves it
        self.search_frame: Frame | None = None  # the turn onto the goal whose tables exist, if any
        self.search_target: Goal | None = self.target
        if blank_table_at_hand(height, width, self.blank):
            self.kind = "table"
            self.method, self.heuristic = "bfs-table", "table"
        elif self.target is not None and n <= EXACT_CELLS:
            self.kind = "idastar"
            self._probe_setup()
        else:
            self.kind = "bounds"
            self._bounds_ready = False  # the heuristic is resolved when a bound is first asked for
        self.known, self.next = _remembered((height, width, self.blank, self.kind))

    # -- set-up ------------------------------------------------------------------------------

    def _probe_setup(self) -> None:
        from ..heuristics import pattern_db
        from .idastar import Probe

        assert self.target is not None
        h, w = self.height, self.width
        small = SMALL_TABLES.get((h, w))
        if small is not None and not pattern_db.usable(h, w, self.target):
            pattern_db.build(small, h, w, self.target, wait=True)  # once: kept in the store
        self.probe = Probe(h, w, self.target, "auto", self.limit)
        self.method, self.heuristic = "idastar", self.probe.heuristic.name
        self.spec, self.search_frame, self.search_target = self.probe.heuristic, self.probe.frame, self.probe.target
        from ..heuristics.registry import auto_heuristic

        self.advice = auto_heuristic(h, w, self.target)[1]  # a table build that would make it faster

    def _bound_setup(self) -> None:
        """The heuristic ``prepare`` resolves for IDA* on this shape (the Manhattan distance for a
        goal off the corners, or beyond IDA*'s boards)."""
        from .problem import prepare

        if self.kind != "bounds" or self._bounds_ready:
            return
        self._bounds_ready = True
        most = REGISTRY["idastar"].max_cells or 0
        if self.target is not None and self.height * self.width <= most:
            problem = prepare(Board.goal(self.height, self.width, self.target), Request(goal=self.target),
                              "idastar")
            self.spec, self.search_frame, self.search_target = problem.heuristic, problem.frame, problem.target
            self.heuristic = problem.heuristic_name

    # -- framing -----------------------------------------------------------------------------

    def framed(self, board: Board) -> Board:
        """``board`` in the oracle's frame (whose goal is ``framed_goal``)."""
        return self.frame.apply(board) if self.frame is not None else board

    def labels(self) -> tuple[int, ...]:
        return self.frame.labels if self.frame is not None else tuple(range(self.height * self.width))

    def original(self, tiles: Sequence[int]) -> tuple[int, ...]:
        return self.frame.original_tiles(tuple(tiles)) if self.frame is not None else tuple(tiles)

    def _tick(self) -> None:
        if self.clock.expired():
            raise SearchStopped(TIMEOUT, "the analysis stopped at its time limit")

    # -- exact distances (kinds table and idastar) -------------------------------------------

    def path(self, framed: Board, bound: int, came_from: int | None = None) -> tuple[int, ...] | None:
        """An optimal path of at most ``bound`` moves from ``framed`` (framed tiles), or None.
        ``came_from``: the blank's cell in a neighbour at least ``bound`` moves from the goal,
        whose subtree the search may skip."""
        if self.kind == "table":
            from .bfs import blank_cell_walk

            moves = blank_cell_walk(framed, self.blank)[0]
            return moves if len(moves) <= bound else None
        assert self.kind == "idastar" and self.target is not None
        return self.probe.path(framed, bound, came_from)

    def _solve(self, framed: Board) -> tuple[int, ...]:
        bound = framed.manhattan(self.framed_goal)
        while True:
            found = self.path(framed, bound)
            if found is not None:
                return found
            bound += 2

    def _learn(self, board: Board, path: Sequence[int]) -> None:
        """Every position of an optimal ``path`` from framed ``board``: its distance and next move."""
        for i, t in enumerate(path):
            self.known[board.tiles], self.next[board.tiles] = len(path) - i, t
            board = board.move(t)
        self.known[board.tiles] = 0

    def exact_framed(self, framed: Board) -> int:
        """The exact distance of a framed position (kinds ``table`` and ``idastar``)."""
        self._tick()
        if framed.tiles not in self.known or (framed.tiles not in self.next and self.known[framed.tiles]):
            if framed.tiles == self.framed_goal.tiles:
                self.known[framed.tiles] = 0
            else:
                self._learn(framed, self._solve(framed))
        return self.known[framed.tiles]

    def at(self, framed: Board, distance: int, came_from: int | None = None) -> bool:
        """Whether framed ``board`` is at ``distance`` (it is at ``distance`` or ``distance + 2``);
        ``came_from``: the blank's cell in a neighbour at ``distance + 1``."""
        self._tick()
        if framed.tiles not in self.known:
            found = self.path(framed, distance, came_from) if distance >= 0 else None
            if found is None:
                self.known[framed.tiles] = distance + 2
            else:
                self._learn(framed, found)
        return self.known[framed.tiles] == distance

    def along(self, positions: Sequence[Board]) -> list[int]:
        """The exact distance of every position of a path (original tiles, each one move from
        the last), from the first's (solved) on: each next one is one nearer or one farther."""
        framed = [self.framed(p) for p in positions]
        distances = [self.exact_framed(framed[0])]
        for before, board in zip(framed, framed[1:], strict=False):
            d = distances[-1]
            distances.append(d - 1 if self.at(board, d - 1, before.blank) else d + 1)
        return distances

    def better(self, board: Board, distance: int) -> list[int]:
        """The tiles (original names) whose push takes ``board`` (original, at ``distance``)
        nearer the goal."""
        framed, labels = self.framed(board), self.labels()
        return [t for t in board.movable_tiles()
                if distance > 0 and self.at(framed.move(labels[t]), distance - 1, framed.blank)]

    def optimal(self, board: Board) -> tuple[int, ...]:
        """An optimal solution of ``board`` (original tiles)."""
        framed = self.framed(board)
        self.exact_framed(framed)
        path, here = [], framed
        while self.known[here.tiles] > 0:
            t = self.next[here.tiles]
            path.append(t)
            here = here.move(t)
        return self.original(path)

    def all_optimal(self, board: Board, most: int) -> tuple[int, list[tuple[int, ...]]]:
        """How many optimal solutions ``board`` (original) has, and the first ``most`` (tiles)."""
        distance = self.exact_framed(self.framed(board))
        children: dict[tuple[int, ...], list[int]] = {}
        counts: dict[tuple[int, ...], int] = {}

        def steps(here: Board, d: int) -> list[int]:
            if here.tiles not in children:
                children[here.tiles] = self.better(here, d)
            return children[here.tiles]

        def count(here: Board, d: int) -> int:
            if d == 0:
                return 1
            if here.tiles not in counts:
                counts[here.tiles] = sum(count(here.move(t), d - 1) for t in steps(here, d))
            return counts[here.tiles]

        listed: list[tuple[int, ...]] = []

        def enumerate_(here: Board, d: int, path: list[int]) -> None:
            if len(listed) >= most:
                return
            if d == 0:
                listed.append(tuple(path))
                return
            for t in steps(here, d):
                enumerate_(here.move(t), d - 1, [*path, t])

        total = count(board, distance)
        enumerate_(board, distance, [])
        return total, listed

    # -- one position ------------------------------------------------------------------------

    @property
    def exact(self) -> bool:
        """Whether the oracle gives exact distances on this shape and goal."""
        return self.kind != "bounds"

    def distance(self, board: Board) -> Interval:
        """The distance of ``board`` (original tiles): exact where a table or bounded IDA* gives
        it (an interval up to the bound reached when the limit stops IDA*), else bounds."""
        if self.kind == "table":
            d = self.exact_framed(self.framed(board))
            return Interval(d, d, "table", "table")
        if self.kind == "idastar":
            try:
                d = self.exact_framed(self.framed(board))
            except SearchStopped:
                return Interval(self.lower(board)[0], None, self.heuristic, "")
            return Interval(d, d, "idastar", "idastar")
        low, low_by = self.lower(board)
        small = self.height * self.width <= EXACT_CELLS  # a goal board off the corners: IDA* where frames allow
        solution = self.solution(board, method="idastar" if small else "auto")
        if solution.solved and solution.optimal:
            return Interval(solution.length or 0, solution.length, solution.method, solution.method)
        if solution.length is None:
            return Interval(max(low, solution.lower_bound), None, low_by, "")
        if solution.lower_bound > low:
            low, low_by = solution.lower_bound, solution.method
        return Interval(low, solution.length, low_by, solution.method)

    def lower(self, board: Board) -> tuple[int, str]:
        """A lower bound of ``board``'s distance (original tiles) and its heuristic's name."""
        framed = self.framed(board)
        self._bound_setup()
        if self.spec is None:
            return framed.manhattan(self.framed_goal), "manhattan"
        from ..heuristics.registry import evaluate

        assert self.search_target is not None
        searched = self.search_frame.apply(framed) if self.search_frame is not None else framed
        return evaluate(searched, self.search_target, self.spec), self.spec.name

    def solution(self, board: Board, nodes: int | None = None, method: str = "auto") -> Solution:
        """A solution of ``board`` as ``solve`` finds it (``method``, within the oracle's limit,
        or ``nodes``)."""
        from .problem import prepare, run

        limit = self.limit if nodes is None else Limit(timeout=self.limit.timeout, max_nodes=nodes)
        return run(prepare(board, Request(goal=self.goal, limit=limit), method))

    # -- many positions ----------------------------------------------------------------------

    def exact_many(self, tiles: np.ndarray) -> np.ndarray:
        """The exact distance of each row of ``tiles`` (original tiles; kinds ``table`` and
        ``idastar``), in one kernel call: the decoded table, or IDA* on every row."""
        tiles = np.ascontiguousarray(tiles, dtype=np.int64).reshape(-1, self.height * self.width)
        if self.frame is not None:
            tiles = np.array([self.framed(Board(self.height, self.width, tuple(r))).tiles
                              for r in tiles.tolist()], dtype=np.int64).reshape(tiles.shape)
        if self.kind == "table" and self.height * self.width <= MADE_TABLE_CELLS:
            return table_labels(tiles, self.height, self.width, self.blank)[0]
        if self.kind == "table":  # a saved table of 11 or 12 cells: too large to decode, walked
            return np.array([self.exact_framed(Board(self.height, self.width, tuple(r))) for r in tiles.tolist()],
                            dtype=np.int64)
        if self.kind != "idastar":
            raise MissingTableError(f"exact distances are found on boards of at most {EXACT_CELLS} cells "
                                    f"(or with a saved distance table), not {self.height}x{self.width}")
        from .idastar import optimal_lengths

        assert self.search_target is not None and self.spec is not None
        boards = [Board(self.height, self.width, tuple(r)) for r in tiles.tolist()]
        if self.search_frame is not None:
            boards = [self.search_frame.apply(b) for b in boards]
        lengths = optimal_lengths(boards, goal=self.search_target, heuristic=self.spec.name,
                                  pruning=self.probe.pruning)[0]
        return np.array(lengths, dtype=np.int64)

    def bounds_along(self, board: Board, tiles: Sequence[int], solution: Solution | None = None) -> Path:
        """Certified bounds of every position of the path that pushes ``tiles`` from ``board``
        (legal moves, original tiles), in time linear in moves plus cells: the heuristic at each
        position (the Manhattan distance kept move by move beyond ``STRONG_WORK``), the
        ``solution`` of the start (its length and proven bound), exact distances from bounded
        IDA* near the end when it is the goal (``TAIL_NODES``), each spread to the other steps
        (a move changes the distance by one)."""
        n, cells = len(tiles), board.size
        self._bound_setup()
        low: dict[int, int] = {}
        up: dict[int, int] = {}
        low_by: dict[int, str] = {}
        up_by: dict[int, str] = {}
        strong = self.spec is not None and (n + 1) * cells <= STRONG_WORK
        goal = self.framed_goal
        framed = self.framed(board)
        labels = self.labels()
        state = list(framed.tiles)
        home = [0] * cells
        for c, t in enumerate(goal.tiles):
            home[t] = c
        w = self.width
        blank = framed.blank
        md = framed.manhattan(goal)
        tail = min(n + 1, STRONG_WORK // cells) if self._tail_possible() else 0
        snapshots: dict[int, tuple[int, ...]] = {}
        for k in range(n + 1):
            if k:
                t = labels[tiles[k - 1]]
                q = _cell_of(state, blank, t, w, self.height)
                hr, hc = divmod(home[t], w)
                md += abs(blank // w - hr) + abs(blank % w - hc) - abs(q // w - hr) - abs(q % w - hc)
                state[blank], state[q] = t, 0
                blank = q
            if strong or k >= n + 1 - tail:
                snapshots[k] = tuple(state)
            value, by = md, "manhattan"
            if strong:
                value, by = self.lower(_unframed(self, Board(self.height, w, snapshots[k])))
            low[k], low_by[k] = value, by
        end_goal = tuple(state) == goal.tiles
        if end_goal:
            up[n], up_by[n] = 0, "the goal"
            low[n], low_by[n] = 0, "the goal"
        if solution is not None and solution.length is not None:
            up[0], up_by[0] = solution.length, f"a solution ({solution.method})"
        if solution is not None and solution.lower_bound > low[0]:
            low[0], low_by[0] = solution.lower_bound, f"{solution.method}'s proven bound"
        if end_goal and tail:
            for k, d in self._tail(snapshots, n, tail):
                low[k], up[k] = d, d
                low_by[k] = up_by[k] = "exact (idastar)"
        lower, lower_from = _spread(low, n, True)
        upper, upper_from = _spread(up, n, False)
        return Path(tuple(lower), tuple(upper), tuple(lower_from), tuple(upper_from), low_by, up_by)

    def _tail_possible(self) -> bool:
        return self.search_target is not None and self.spec is not None

    def _tail(self, snapshots: dict[int, tuple[int, ...]], n: int, tail: int) -> list[tuple[int, int]]:
        """Exact distances walking back from the goal at step ``n`` while bounded IDA* answers
        within ``TAIL_NODES`` nodes: each position is one nearer or one farther than the next."""
        from .idastar import Probe

        assert self.search_target is not None and self.target is not None
        try:
            probe = Probe(self.height, self.width, self.target, self.spec.name if self.spec else "auto",
                          Limit(timeout=self.limit.timeout, max_nodes=TAIL_NODES))
        except MissingTableError:
            return []
        found = [(n, 0)]
        d = 0
        for k in range(n - 1, n - tail, -1):
            here = Board(self.height, self.width, snapshots[k])
            after = snapshots[k + 1]
            try:
                path = probe.path(here, d - 1, after.index(0)) if d > 0 else None
            except SearchStopped:
                break
            d = d - 1 if path is not None else d + 1
            found.append((k, d))
        return found


def _unframed(oracle: Oracle, framed: Board) -> Board:
    """A framed position in original tiles (the frame's inverse: its cells stay, its tiles renamed back)."""
    if oracle.frame is None:
        return framed
    back = [0] * len(oracle.frame.labels)
    for t, new in enumerate(oracle.frame.labels):
        back[new] = t
    inverse = [0] * len(oracle.frame.cells)
    for c, to in enumerate(oracle.frame.cells):
        inverse[to] = c
    tiles = [0] * framed.size
    for c, t in enumerate(framed.tiles):
        tiles[inverse[c]] = back[t]
    return Board(framed.height, framed.width, tuple(tiles))


def _cell_of(state: list[int], blank: int, tile: int, width: int, height: int) -> int:
    """The cell of ``tile``, next to ``blank`` (the move is legal)."""
    r, c = divmod(blank, width)
    for q in (blank - width if r else -1, blank - 1 if c else -1, blank + 1 if c < width - 1 else -1,
              blank + width if r < height - 1 else -1):
        if q >= 0 and state[q] == tile:
            return q
    raise AssertionError(f"tile {tile} is not next to the blank")


def _spread(base: dict[int, int], n: int, largest: bool) -> tuple[list[int], list[int]]:
    """Each step's best bound (the largest lower bound, or the least upper bound): its own or
    another step's moved by the steps between, in two passes (-1: no upper bound)."""
    sign = -1 if largest else 1
    none = -1 if largest else 1 << 60
    value = [base.get(k, none) for k in range(n + 1)]
    source = [k if k in base else -1 for k in range(n + 1)]
    for order in (range(1, n + 1), range(n - 1, -1, -1)):
        for k in order:
            j = k - 1 if order.step == 1 else k + 1
            if source[j] >= 0:
                moved = value[j] + sign
                if source[k] < 0 or (moved > value[k] if largest else moved < value[k]):
                    value[k], source[k] = moved, source[j]
    if largest:
        value = [max(v, 0) for v in value]
    else:
        value = [v if s >= 0 else -1 for v, s in zip(value, source, strict=True)]
    return value, source


@functools.lru_cache(maxsize=4)
def exact_table(height: int, width: int, blank: int) -> np.ndarray:
    """Every position's exact distance to the goal of blank cell ``blank`` (uint8, by
    ``_kernels.bfs``'s index), decoded once from the 2-bit breadth-first table."""
    from .._kernels.stepper import distances
    from .bfs import distance_table, space

    sp = space(height, width, blank)
    two_bit = distance_table(height, width, blank_cell=blank, progress=False)
    out = np.empty(sp.states, dtype=np.uint8)
    distances(two_bit, blank, sp.size, width, sp.fact_half, sp.popc, sp.need, sp.nbr, out)
    return out


def table_labels(tiles: np.ndarray, height: int, width: int, blank: int) -> tuple[np.ndarray, np.ndarray]:
    """The exact distance of each row of ``tiles`` (framed, int64) and the mask of its optimal
    first actions (``search.stepper``'s, bit ``a`` for ``ACTIONS[a]``), from ``exact_table``."""
    from .._kernels.stepper import label as label_kernel
    from .bfs import space
    from .stepper import action_table

    sp = space(height, width, blank)
    dist = np.empty(len(tiles), np.int64)
    mask = np.empty(len(tiles), np.int64)
    label_kernel(tiles, exact_table(height, width, blank), sp.size, width, sp.fact_half, sp.popc,
                 action_table(height, width), dist, mask)
    return dist, mask


#: Distances (and one optimal move) found by earlier oracles of this process, by shape, goal blank
#: cell and kind, in the frame's tiles: a web worker answers many analyses of one solve (again with
#: all its optimal solutions, or an optimal solution from another step), which then need no search.
#: Forgotten once they hold more than ``REMEMBERED`` positions (about 60 MB of 4x4 positions).
_MEMORY: dict[tuple[object, ...], tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], int]]] = {}
REMEMBERED = 200_000


def _remembered(key: tuple[object, ...]) -> tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], int]]:
    if sum(len(known) for known, _ in _MEMORY.values()) > REMEMBERED:
        _MEMORY.clear()
    return _MEMORY.setdefault(key, ({}, {}))

