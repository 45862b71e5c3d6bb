"""The verifier of a proposed answer (``npuzzle.verify``, ``npuzzle verify``): the moves replayed
from the position; solved, or the first illegal move and its index, or not solved (and the
position reached); and, where the optimum is known or cheap, how many moves more than it.

The optimum comes from the exact distance table on boards of up to ``labels.EXACT_TABLE_CELLS``
cells (3x3), a saved BFS table up to 12 cells, and IDA* with the strongest bound built within
``OPTIMUM_NODES`` nodes up to 16 cells (4x4: a few milliseconds with pdb:7-8 built); otherwise it
is not given.

>>> from npuzzle import Board
>>> v = verify_moves(Board(3, 3, (1, 2, 3, 4, 5, 6, 0, 7, 8)), "L L")
>>> v.status, v.optimum, v.excess
('solved', 2, 0)
>>> verify_moves(Board(3, 3, (1, 2, 3, 4, 5, 6, 0, 7, 8)), "L R R").illegal_index
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .board import Board, Direction, Goal, check_goal
from .errors import IllegalMoveError, InvalidTypeError, quote_input
from .notation import check_move_count, parse_moves

SOLVED, ILLEGAL, NOT_SOLVED = "solved", "illegal", "not-solved"
#: The nodes IDA* may take to find the optimum of a board of up to 16 cells for the excess.
OPTIMUM_NODES = 5_000_000

Move = int | str | Direction


@dataclass(frozen=True)
class Verdict:
    """The outcome of replaying ``moves`` from ``board``.

    ``played`` moves were legal (all of them unless ``status`` is ``illegal``: then
    ``illegal_index``, counted from 0, is the first that is not, and ``reason`` says why);
    ``reached`` is the position after them. ``optimum`` is the start's distance to the goal where
    known (``optimum_by`` says how), and ``excess`` the moves beyond it of a solved answer."""

    board: Board
    goal: Goal
    moves: tuple[Move, ...]
    status: str
    played: int
    reached: Board
    illegal_index: int | None = None
    reason: str = ""
    optimum: int | None = None
    optimum_by: str = ""

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    @property
    def solvable(self) -> bool:
        """Whether the goal can be reached from the start at all."""
        return self.board.is_solvable(self.goal)

    @property
    def excess(self) -> int | None:
        return None if self.optimum is None or not self.solved else self.played - self.optimum


#: The most moves a proposed answer may hold (a real-time answer on the largest boards fits).
MAX_MOVES = 10_000_000


def verify_moves(board: Board, moves: str | Sequence[Move], goal: Goal = "standard", *,
                 optimum: bool = True) -> Verdict:
    """Replay ``moves`` (text in any notation ``notation.parse_moves`` reads, or tile numbers,
    letters and ``Direction`` values) from ``board``; see ``Verdict``."""
    check_goal(goal)
    check_move_count(moves, MAX_MOVES)
    given = _moves(moves, board)
    check_move_count(given, MAX_MOVES)
    reached, illegal, reason = board, None, ""
    for i, m in enumerate(given):
        try:
            reached = reached.push(m) if isinstance(m, str | Direction) else reached.move(m)
        except IllegalMoveError as e:
            illegal, reason = i, str(e)
            break
    played = len(given) if illegal is None else illegal
    status = ILLEGAL if illegal is not None else SOLVED if reached.is_goal(goal) else NOT_SOLVED
    best, how = optimal_distance(board, goal) if optimum and board.is_solvable(goal) else (None, "")
    return Verdict(board, goal, tuple(given), status, played, reached, illegal, reason, best, how)


def _moves(moves: object, board: Board) -> list[Move]:
    if isinstance(moves, str):
        return list(parse_moves(moves, board))
    if isinstance(moves, bytes) or not isinstance(moves, Sequence):
        raise InvalidTypeError(f"moves={quote_input(moves)}: give the moves as text or a list of tiles or letters")
    for m in moves:
        if not isinstance(m, int | str | Direction) or isinstance(m, bool):
            raise InvalidTypeError(f"move {quote_input(m)}: give tile numbers, letters or Directions")
    return list(moves)


def optimal_distance(board: Board, goal: Goal = "standard") -> tuple[int | None, str]:
    """The distance of ``board`` to ``goal`` and what gave it, where cheap; ``(None, "")`` else."""
    from .search import labels

    h, w = board.shape
    if board.size <= labels.EXACT_TABLE_CELLS:
        import numpy as np

        return int(labels.label(np.array([board.tiles]), h, w, goal).distance[0]), "bfs-table"
    if board.size > labels.OPTIMAL_CELLS:
        return None, ""
    from .search.bfs import table_distance

    known = table_distance(board, goal)
    if known is not None:
        return known, "bfs-table"
    from .search import solve
    from .search.limits import Limit

    sol = solve(board, goal=goal, method="idastar", limit=Limit(max_nodes=OPTIMUM_NODES))
    if sol.solved and sol.optimal:
        return sol.length, f"idastar/{sol.heuristic}"
    return None, ""
