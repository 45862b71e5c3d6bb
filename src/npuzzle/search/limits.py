"""What a search is allowed (``Limit``) and what it returns (``Solution``, ``Stats``).

A search that reaches a limit is not an error: its ``Solution`` has ``status`` set to the limit
reached, no moves, and ``lower_bound`` set to the best bound it proved.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..arguments import MAX_BYTES
from ..board import GOAL_TEXT_CELLS, Board, Goal, goal_text
from ..errors import InternalError, NPuzzleError

#: A notebook shows at most this many moves of a solution.
HTML_MOVES = 500

#: Values of ``Solution.status``.
SOLVED = "solved"
TIMEOUT = "timeout"
NODE_LIMIT = "node-limit"
MEMORY_LIMIT = "memory-limit"
INTERRUPTED = "interrupted"


@dataclass(frozen=True)
class Limit:
    """Bounds on a search. ``timeout`` is wall-clock seconds; ``max_nodes`` counts generated
    nodes; ``max_memory`` is bytes (for searches that store nodes, like A*). A search that
    reaches one returns a ``Solution`` whose ``status`` names it, with the bound it proved:

    >>> from npuzzle import solve
    >>> solve("8 6 7/2 5 4/3 0 1", method="idastar", heuristic="manhattan", limit=Limit(max_nodes=100))
    <Solution 3x3 standard: node-limit, at least 25 moves, idastar/manhattan>
    """

    timeout: float | None = None
    max_nodes: int | None = None
    max_memory: int | None = None

    def __post_init__(self) -> None:
        from ..arguments import count, seconds

        if self.timeout is not None:
            seconds(self.timeout, "timeout")
        if self.max_nodes is not None:
            count(self.max_nodes, "max_nodes")
        if self.max_memory is not None:
            count(self.max_memory, "max_memory", most=MAX_BYTES)


@dataclass
class Iteration:
    """One IDA* iteration (or one A* bound): the threshold and the nodes it took. The beam
    search reports each round (``kind`` "beam width", ``threshold`` the width, ``length`` the
    shortest answer so far) and real time its one pass (``kind`` "real-time pass")."""

    threshold: int
    generated: int
    expanded: int
    seconds: float
    kind: str = "threshold"
    length: int | None = None


@dataclass(frozen=True)
class Progress:
    """Where a running search is, reported between two kernel slices: the bound (IDA*'s threshold,
    A*'s proven lower bound) it is working on, the nodes generated so far, and the wall-clock and
    CPU seconds since it began."""

    bound: int
    generated: int
    wall_seconds: float
    cpu_seconds: float

    @property
    def nodes_per_second(self) -> float:
        return self.generated / self.wall_seconds if self.wall_seconds > 0 else 0.0


#: ``on_progress(progress)``: called between the kernel slices of a running search (a few times a
#: second with IDA* and A*), to show a live status.
ProgressCallback = Callable[[Progress], None]


@dataclass
class Stats:
    """Node counts, CPU and wall-clock time. What the counts hold depends on the method:

    - IDA* and A*: ``generated`` counts the way Korf did: every child generated (the move that
      undoes the last one is never generated, nor, with ``fsm`` pruning, a move the automaton
      forbids), over all iterations, plus one for the root.
    - real time (``method="realtime"``): nothing is searched; ``generated`` and ``expanded`` are
      both the number of moves of the solution (0 if it stopped at the time limit).
    - a saved BFS table (``method="bfs-table"``): the solution is read by walking the table down
      from the position; ``expanded`` is the number of moves, ``generated`` the positions on
      that path (moves + 1).
    """

    expanded: int = 0
    generated: int = 0  # nodes generated; real time: moves; BFS table: moves + 1 (see above)
    seconds: float = 0.0  # CPU seconds
    iterations: list[Iteration] = field(default_factory=list)
    wall_seconds: float = 0.0

    @property
    def nodes_per_second(self) -> float:
        return self.generated / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class Solution:
    """The result of a search. ``moves`` are the tiles pushed; ``letters`` the same moves as
    ``UDLR`` (the direction each pushed tile slides); ``goal`` a convention's name or a goal
    ``Board``; ``boards()`` the positions on the way. Notebooks show the board and the moves.

    >>> from npuzzle import solve
    >>> s = solve("4 1 2/5 0 3", method="idastar", heuristic="lc")
    >>> s.length, s.optimal, s.moves, s.letters
    (5, True, (5, 4, 1, 2, 3), 'RDLLU')
    >>> s.board.apply(s.moves).is_goal(s.goal)
    True
    """

    board: Board
    goal: Goal | Board
    moves: tuple[int, ...]
    letters: str
    length: int | None
    optimal: bool
    status: str
    lower_bound: int
    stats: Stats
    method: str
    heuristic: str
    note: str = ""
    #: The move-cost model (``npuzzle.costs``), the answer's cost under it (replayed by
    #: ``problem.finish`` from the tiles pushed; under ``unit`` the length) and the least cost the
    #: search proved possible (None under ``unit``: ``lower_bound`` is that).
    cost: str = "unit"
    cost_total: float | None = None
    cost_bound: float | None = None

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    @property
    def ratio(self) -> float | None:
        """The length over the proven lower bound, rounded to 4 places: at most how many times the
        optimum the answer may be (1.0 when optimal; None when stopped or the bound is 0).

        >>> from npuzzle import solve
        >>> solve("8 6 7/2 5 4/3 0 1", method="idastar", heuristic="lc").ratio
        1.0
        """
        if self.cost != "unit":
            if self.cost_total is None or not self.cost_bound:
                return None
            return round(self.cost_total / self.cost_bound, 4)
        if self.length is None or self.lower_bound <= 0:
            return None
        return round(self.length / self.lower_bound, 4)

    @property
    def initial_lower_bound(self) -> int:
        """The bound the search started from: IDA*'s first threshold, A*'s first bound; the
        length read off a distance table; the Manhattan distance in real time.

        >>> from npuzzle import solve
        >>> s = solve("8 6 7/2 5 4/3 0 1", method="idastar", heuristic="lc")
        >>> s.initial_lower_bound, s.lower_bound
        (23, 31)
        """
        if self.cost != "unit":  # the thresholds are costs (whole-number units), not moves
            return self.board.manhattan(self.goal)
        if self.stats.iterations:
            return self.stats.iterations[0].threshold
        if self.method == "bfs-table":
            return self.lower_bound
        return self.board.manhattan(self.goal)

    def __repr__(self) -> str:
        """Short: shape, goal, outcome, method and heuristic.

        >>> from npuzzle import solve
        >>> solve("1 2 3/4 5 6/0 7 8", method="idastar", heuristic="lc")
        <Solution 3x3 standard: 2 moves, optimal, idastar/lc>
        """
        b = self.board
        if self.solved:
            priced = f", cost {self.cost_total:g} ({self.cost})" if self.cost != "unit" else ""
            proven = "optimal" if self.optimal else "not proven optimal"
            outcome = f"{_count(self.length or 0, 'move')}{priced}, {proven}"
        else:
            outcome = f"{self.status}, at least {_count(self.lower_bound, 'move')}"
        how = self.method if self.method.startswith("realtime") else f"{self.method}/{self.heuristic}"
        return f"<Solution {b.height}x{b.width} {goal_text(self.goal, GOAL_TEXT_CELLS)}: {outcome}, {how}>"

    def boards(self) -> Iterator[Board]:
        """The positions from the start to the goal, one a move (replayed; the start first).

        >>> from npuzzle import solve
        >>> [b.tiles for b in solve("1 2/0 3", method="idastar", heuristic="lc").boards()]
        [(1, 2, 0, 3), (1, 2, 3, 0)]
        """
        board = self.board
        yield board
        for tile in self.moves:
            board = board.move(tile)
            yield board

    def _repr_html_(self) -> str:
        """A notebook's view: the start drawn, the outcome, the tiles pushed and the letters."""
        from html import escape

        lines = [repr(self)[1:-1]]
        if self.solved:
            shown, more = self.moves[:HTML_MOVES], len(self.moves) - HTML_MOVES
            tail = f" ... ({more:,} more)" if more > 0 else ""
            lines += [f"tiles pushed: {' '.join(map(str, shown)) or '(none)'}{tail}",
                      f"letters: {self.letters[:HTML_MOVES] or '(none)'}{tail}"]
        text = "".join(f"<div>{escape(line)}</div>" for line in lines)
        image = self.board._repr_svg_() or ""
        return f'<div style="display:flex;gap:1em;align-items:center">{image}' \
               f'<div style="font-family:monospace">{text}</div></div>'

    def to_dict(self) -> dict[str, Any]:
        """The solution's own fields of a ``solve --json`` record (``docs/json.md``; the position,
        the times and the real-time report are added by ``present.solution.solution_record``), the moves
        last: ``status``, ``length``, ``optimal``, the bounds and ``ratio``, ``method``,
        ``heuristic``, ``stats`` (node counts and each iteration, seconds to the microsecond),
        ``cost`` (the cost model), ``cost_total`` (the answer's cost; its length under ``unit``) and,
        under another model, ``cost_bound``, ``note`` if any, ``moves`` and ``letters``."""
        iterations = [{"threshold": i.threshold, "generated": i.generated, "expanded": i.expanded,
                       "cpu_seconds": round(i.seconds, 6)} for i in self.stats.iterations]
        return {
            "goal": goal_text(self.goal),
            "status": self.status,
            "length": self.length,
            "optimal": self.optimal,
            "lower_bound": self.lower_bound,
            "ratio": self.ratio,
            "initial_lower_bound": self.initial_lower_bound,
            "method": self.method,
            "heuristic": self.heuristic,
            "stats": {"generated": self.stats.generated, "expanded": self.stats.expanded, "iterations": iterations},
            "cost": self.cost,
            "cost_total": self.cost_total if self.cost != "unit" else self.length,
            **({"cost_bound": self.cost_bound} if self.cost != "unit" else {}),
            **({"note": self.note} if self.note else {}),
            "moves": list(self.moves),
            "letters": self.letters,
        }


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


class VerificationError(InternalError, AssertionError):
    """A solver produced moves that do not solve the board: a bug, never a user error."""


def replayed_letters(board: Board, moves: tuple[int, ...], goal: Goal | Board) -> str:
    """Replay ``moves`` from ``board``; return them as letters if they reach the goal, else raise."""
    try:
        end = board.apply(moves)
        letters = board.letters(moves)
    except NPuzzleError as e:
        raise VerificationError(f"internal error: the solution found is not legal ({e})") from None
    if not end.is_goal(goal):
        raise VerificationError("internal error: the solution found does not reach the goal")
    return letters


def found_solution(
    board: Board,
    goal: Goal | Board,
    moves: tuple[int, ...],
    *,
    optimal: bool,
    stats: Stats,
    method: str,
    heuristic: str,
    note: str = "",
) -> Solution:
    """A search's answer before ``problem.finish`` maps it back and replays it: ``letters`` is
    empty until then (every answer a user sees has been through ``finish``)."""
    return Solution(board, goal, moves, "", len(moves), optimal, SOLVED,
                    len(moves) if optimal else board.manhattan(goal), stats, method, heuristic, note)


def checked_solution(
    board: Board,
    goal: Goal | Board,
    moves: tuple[int, ...],
    *,
    optimal: bool,
    stats: Stats,
    method: str,
    heuristic: str,
    note: str = "",
) -> Solution:
    """``found_solution`` with its moves replayed and checked (outside the searches, which leave
    that to ``problem.finish``)."""
    found = found_solution(board, goal, moves, optimal=optimal, stats=stats, method=method, heuristic=heuristic,
                           note=note)
    return dataclasses.replace(found, letters=replayed_letters(board, moves, goal))


def unfinished(
    board: Board, goal: Goal, status: str, lower_bound: int, *, stats: Stats, method: str, heuristic: str,
    note: str = "",
) -> Solution:
    """A ``Solution`` for a search stopped by a limit, with the bound it proved."""
    return Solution(board, goal, (), "", None, False, status, lower_bound, stats, method, heuristic, note)


def _children_cpu() -> float:
    t = os.times()
    return t.children_user + t.children_system


class Clock:
    """CPU time, wall-clock time and deadline of one search, all without the time spent compiling
    kernels meanwhile (numba's compile events; a kernel loaded from the cache is not left out)."""

    def __init__(self, limit: Limit) -> None:
        from .._kernels.jit import compile_seconds

        self._compiled = compile_seconds
        self.compile0 = compile_seconds()
        self.cpu0 = time.process_time()
        self.wall0 = time.monotonic()
        self.timeout = limit.timeout
        self.children0 = _children_cpu()

    @property
    def deadline(self) -> float | None:
        """The ``time.monotonic()`` at which the limit is reached, if no more compiling comes."""
        return None if self.timeout is None else self.wall0 + self.compiling()[1] + self.timeout

    def compiling(self) -> tuple[float, float]:
        """CPU and wall-clock seconds spent compiling kernels since the clock started (left out
        of every time it reports: a first use's compilation never counts against a limit)."""
        cpu, wall = self._compiled()
        return cpu - self.compile0[0], wall - self.compile0[1]

    def cpu(self) -> float:
        return time.process_time() - self.cpu0 - self.compiling()[0]

    def cpu_with_children(self) -> float:
        """CPU time of this process and of the worker processes it has reaped since."""
        return self.cpu() + _children_cpu() - self.children0

    def wall(self) -> float:
        return time.monotonic() - self.wall0 - self.compiling()[1]

    def stamp(self, stats: Stats) -> None:
        """Set the CPU and wall-clock seconds of ``stats`` to the time spent until now."""
        stats.seconds = self.cpu()
        stats.wall_seconds = self.wall()

    def progress(self, bound: int, generated: int) -> Progress:
        return Progress(bound, generated, self.wall(), self.cpu())

    def expired(self) -> bool:
        return self.timeout is not None and self.wall() >= self.timeout

    def slice_budget(self, limit: Limit, generated: int, nodes: int) -> tuple[int, str | None]:
        """What every search asks between two slices of its kernel: the next slice's budget (at
        most ``nodes`` generated nodes, and what the node limit leaves after the ``generated`` so
        far, the root included), or why the search stops before it (TIMEOUT, NODE_LIMIT)."""
        if self.expired():
            return 0, TIMEOUT
        if limit.max_nodes is None:
            return nodes, None
        left = limit.max_nodes - generated
        return (min(nodes, left), None) if left > 0 else (0, NODE_LIMIT)
