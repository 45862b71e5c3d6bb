"""The sliding-puzzle task for language models: entries of a question (the board, the goal, the
move notation), an answer (an optimal solution as letters) and metadata (the labels), and the
score of a proposed answer, replayed. ``learning.reasoning_gym`` serves them as reasoning-gym's
``n_puzzle`` data set; nothing here needs reasoning-gym.

Labels (``label``):

- boards of up to ``COUNTED_CELLS`` cells (3x3, 2x4, 2x5): the exact optimum, an optimal
  solution and the number of optimal solutions, from the breadth-first distance table
  (``analysis.analyze``);
- up to ``oracle.EXACT_CELLS`` cells (4x4, 3x5, ...): the exact optimum and an optimal
  solution by IDA* with the strongest bound built; the optimal solutions are not counted;
- larger boards: certified bounds, a proven lower bound and the length of the near-optimal
  solution given as the answer (the beam search within ``labels.NEAR_OPTIMAL_NODES`` nodes).

Entry ``i`` of a seed depends only on the seed, the configuration and ``i``: its position is drawn
from numpy's generator seeded with ``SeedSequence(seed, spawn_key=(i,))``, as uniformly random
solvable positions (``scramble="state"``) or the ends of random walks from the goal whose length
is drawn from the distance range (``scramble="walk"``), until one's distance lies in the range
(on larger boards: until its certified bounds both do).

The score (``score_answer``, the rule of ``verifier.score``): 1.0 for an optimal solution,
``optimum / length`` for a longer one (on larger boards the known solution's length stands for
the optimum), 0.01 for legal moves that do not solve, 0.0 for no moves, text that is no moves,
or an illegal move.

>>> config = TaskConfig(rows=2, cols=3, min_distance=5, max_distance=5, seed=1)
>>> entry = make_entry(config, 0)
>>> meta = entry["metadata"]
>>> meta["optimum"], len(entry["answer"]), score_answer(entry["answer"], entry)
(5, 5, 1.0)
>>> score_answer("U D", entry), score_answer("hello", entry)
(0.01, 0.0)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..board import Board, Goal, check_goal, check_shape
from ..errors import InvalidOptionError
from ..notation import format_position, format_shape
from ..search import labels, oracle

#: The name of the data set.
DATASET_NAME = "n_puzzle"
#: How positions are drawn: uniformly among solvable positions, or the end of a random walk.
SCRAMBLES = ("state", "walk")
#: Boards of up to this many cells get the number of their optimal solutions.
COUNTED_CELLS = oracle.MADE_TABLE_CELLS
#: Positions drawn for one entry before giving up (a distance range few positions have).
MAX_DRAWS = 2_000_000
#: Positions drawn at once on boards labelled from the exact table (one at a time on larger ones,
#: each labelled by a search).
BATCH = 1024
#: The largest board of a task (16x16: the beam search labels it; its prompt is already long).
MAX_CELLS = 256
#: The distance levels of the curriculum (3x3 distances go up to 31).
DISTANCE_LEVELS = (1, 5, 10, 15, 20, 25, 31)


def _whole(value: object, name: str, low: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise InvalidOptionError(f"{name}={value!r}: give a whole number of at least {low}")
    return value


@dataclass
class TaskConfig:
    """An ``n_puzzle`` data set: boards of ``rows`` x ``cols``, optimal distance from
    ``min_distance`` to ``max_distance`` (both included), positions drawn as ``scramble`` says
    (``state`` or ``walk``), for ``goal`` (``standard`` or ``blank-first``); ``size`` entries of
    ``seed`` (None: reasoning-gym draws one)."""

    rows: int = 3
    cols: int = 3
    min_distance: int = 1
    max_distance: int = 20
    scramble: str = "state"
    goal: str = "standard"
    seed: int | None = None
    size: int = 500

    def validate(self) -> None:
        """``InvalidOptionError`` (a ``ValueError``) naming the first field out of range."""
        _whole(self.rows, "rows", 2)
        _whole(self.cols, "cols", 2)
        check_shape(self.rows, self.cols)
        if self.rows * self.cols > MAX_CELLS:
            raise InvalidOptionError(f"rows x cols = {self.rows}x{self.cols}: a task's board has at most {MAX_CELLS} "
                                     "cells")
        _whole(self.min_distance, "min_distance", 1)
        _whole(self.max_distance, "max_distance", self.min_distance)
        _whole(self.size, "size", 1)
        if self.seed is not None:
            _whole(self.seed, "seed", 0)
        if self.scramble not in SCRAMBLES:
            raise InvalidOptionError(f"scramble={self.scramble!r}: give 'state' (uniformly random positions) or "
                                     "'walk' (random walks from the goal)")
        goal = check_goal(self.goal)
        cells = self.rows * self.cols
        if cells <= oracle.MADE_TABLE_CELLS:
            blank = Board.goal(self.rows, self.cols, goal).blank
            deepest = int(oracle.exact_table(self.rows, self.cols, blank).max())
            if self.min_distance > deepest:
                raise InvalidOptionError(f"min_distance={self.min_distance}: no {self.rows}x{self.cols} position is "
                                         f"more than {deepest} moves from the goal")


@dataclass(frozen=True)
class Label:
    """What is known of a position: a solution (letters: optimal when ``exact``), the certified
    bounds of its distance (equal when ``exact``), what found them, and the number of optimal
    solutions (None where not counted)."""

    answer: str
    lower: int
    upper: int
    by: str
    count: int | None = None

    @property
    def exact(self) -> bool:
        return self.lower == self.upper


@functools.lru_cache(maxsize=64)  # a board drawn on a large board was labelled to check its distance
def label(board: Board, goal: Goal = "standard") -> Label:
    """The labels of ``board`` (solvable for ``goal``); see the module's docstring.

    >>> label(Board(2, 3, (1, 2, 3, 0, 4, 5)))
    Label(answer='LL', lower=2, upper=2, by='bfs-table', count=1)
    """
    from ..search import lower_bound, solve
    from ..search.limits import Limit

    if board.size <= COUNTED_CELLS:
        from ..analysis import analyze

        found = analyze(board, "", goal=goal, all_optimal=1)
        every = found.all_optimal
        return Label(found.optimal, found.start_distance, found.start_distance, found.method,
                     None if every is None else every.count)
    if board.size <= oracle.EXACT_CELLS:
        exact = solve(board, goal=goal, method="idastar")
        return Label(exact.letters, exact.length or 0, exact.length or 0, f"idastar/{exact.heuristic}")
    near = solve(board, goal=goal, limit=Limit(max_nodes=labels.NEAR_OPTIMAL_NODES))
    low = max(near.lower_bound, lower_bound(board, "auto", goal))
    return Label(near.letters, low, near.length or 0, near.method)


def draw_board(config: TaskConfig, index: int, seed: int) -> Board:
    """The position of entry ``index`` of ``seed``: the first drawn whose distance lies in the
    configured range (see the module's docstring)."""
    import numpy as np

    from ..dataset import Spec, draw_positions

    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))
    h, w, lo, hi = config.rows, config.cols, config.min_distance, config.max_distance
    goal = check_goal(config.goal)
    exact_table = h * w <= oracle.MADE_TABLE_CELLS
    batch = BATCH if exact_table else 1
    for _ in range(0, MAX_DRAWS, batch):
        walk = int(rng.integers(lo, hi + 1)) if config.scramble == "walk" else None
        tiles = draw_positions(rng, batch, Spec(h, w, seed, walk, goal))
        if exact_table:
            distance = labels.distances(tiles, h, w, goal)
            hits = np.flatnonzero((distance >= lo) & (distance <= hi))
            if len(hits):
                return Board(h, w, tuple(tiles[hits[0]].tolist()))
            continue
        board = Board(h, w, tuple(tiles[0].tolist()))
        if board.manhattan(goal) <= hi:
            found = label(board, goal)
            if lo <= found.lower and found.upper <= hi:
                return board
    raise InvalidOptionError(f"no {h}x{w} position {lo} to {hi} moves from the goal in {MAX_DRAWS:,} draws "
                             f"(scramble={config.scramble!r}): widen the distance range")


def board_text(board: Board) -> str:
    """The board as rows of right-aligned numbers, ``_`` for the blank.

    >>> print(board_text(Board(2, 3, (1, 2, 3, 4, 0, 5))))
    1 2 3
    4 _ 5
    """
    width = len(str(board.size - 1))
    return "\n".join(" ".join(str(t).rjust(width) if t else "_".rjust(width) for t in row) for row in board.rows())


def question(board: Board, goal: Goal = "standard") -> str:
    """The prompt: the puzzle, the board, the goal and the move notation."""
    h, w = board.shape
    return (
        f"Solve this {h}x{w} sliding puzzle. The board holds the tiles 1 to {board.size - 1} and one blank (_). "
        "A move slides a tile that is next to the blank into the blank.\n\n"
        f"Board:\n{board_text(board)}\n\nGoal:\n{board_text(Board.goal(h, w, goal))}\n\n"
        "Write each move as the direction in which the tile slides: U (the tile below the blank slides up), "
        "D (the tile above the blank slides down), L (the tile right of the blank slides left), "
        "R (the tile left of the blank slides right).\n"
        "Answer with the moves that take the board to the goal, as letters (for example: ULDR). "
        "The fewest moves score best."
    )


def entry(board: Board, config: TaskConfig, index: int = 0) -> dict[str, Any]:
    """The entry of ``board``: ``question``, ``answer`` (a shortest solution known, as letters) and
    ``metadata``: ``source_dataset`` and ``source_index`` (reasoning-gym's), ``shape``, ``rows``,
    ``cols``, ``board`` (rows of tiles, 0 the blank), ``position`` (rows notation), ``goal``,
    ``scramble``, ``optimum`` (the exact distance, None where not proven), ``exact``,
    ``lower_bound`` and ``upper_bound`` (certified: both the optimum where exact), ``labelled_by``
    (``bfs-table``, ``idastar/HEURISTIC`` or ``beam``), ``optimal_solutions`` (their number, on
    boards of up to ``COUNTED_CELLS`` cells; None beyond), ``manhattan`` and ``difficulty``
    (reasoning-gym's: the configured distance range)."""
    goal = check_goal(config.goal)
    found = label(board, goal)
    metadata = {
        "source_dataset": DATASET_NAME, "source_index": index,
        "shape": format_shape(board.shape), "rows": board.height, "cols": board.width,
        "board": [list(row) for row in board.rows()],
        "position": format_position(board), "goal": goal, "scramble": config.scramble,
        "optimum": found.lower if found.exact else None, "exact": found.exact,
        "lower_bound": found.lower, "upper_bound": found.upper, "labelled_by": found.by,
        "optimal_solutions": found.count, "manhattan": board.manhattan(goal),
        "difficulty": {"distance": (config.min_distance, config.max_distance)},
    }
    return {"question": question(board, goal), "answer": found.answer, "metadata": metadata}


def make_entry(config: TaskConfig, index: int, seed: int | None = None) -> dict[str, Any]:
    """Entry ``index`` of ``seed`` (by default ``config.seed``, else 0)."""
    seed = (config.seed or 0) if seed is None else seed
    return entry(draw_board(config, index, seed), config, index)


def score_answer(answer: object, entry: Mapping[str, Any]) -> float:
    """The score of ``answer`` (a move string) for ``entry`` (see the module's docstring): the
    moves replayed from the entry's board (``verifier.verify_answer``), scored against the entry's
    optimum (or the length of its answer, where the optimum is not known)."""
    from ..verifier import score, verify_answer

    if not isinstance(answer, str) or not answer.strip():
        return 0.0
    meta = entry["metadata"]
    board = Board(meta["rows"], meta["cols"], tuple(t for row in meta["board"] for t in row))
    return score(verify_answer(board, answer, meta["goal"], optimum=False), meta["upper_bound"]) or 0.0
