"""The verifier of a proposed answer (``npuzzle.verify``, ``npuzzle verify``): the moves replayed
from the position; solved, or the first illegal move and its index, or not solved (and the
position reached); and, where the optimum is known or cheap, how many moves more than it.

The optimum comes from the distance oracle (``search.oracle``) where it gives exact distances: a
distance table (3x3, or a saved one up to 12 cells), or IDA* within ``OPTIMUM_NODES`` nodes up to
16 cells (4x4: a few milliseconds with pdb:7-8 built); otherwise it is not given.

>>> from npuzzle import Board
>>> v = verify_moves(Board(3, 3, (1, 2, 3, 4, 5, 6, 0, 7, 8)), "L L")
>>> v.status, v.optimum, v.excess
('solved', 2, 0)
>>> verify_moves(Board(3, 3, (1, 2, 3, 4, 5, 6, 0, 7, 8)), "L R R").illegal_index
2
>>> score(verify_moves(Board(3, 3, (1, 2, 3, 4, 5, 6, 0, 7, 8)), "L, R, L, L"))
0.5
>>> v = verify_answer(Board(3, 3, (1, 2, 3, 4, 5, 6, 0, 7, 8)), "left left")
>>> v.status, score(v)
('malformed', 0.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .board import Board, Direction, Goal, Replay, check_goal
from .errors import IllegalMoveError, InvalidTypeError, quote_input
from .notation import check_move_count, parse_moves

SOLVED, ILLEGAL, NOT_SOLVED = "solved", "illegal", "not-solved"
#: The status of an answer whose text is no moves (``verify_answer``).
MALFORMED = "malformed"
#: The nodes IDA* may take to find the optimum of a board of up to 16 cells for the excess.
OPTIMUM_NODES = 5_000_000
#: The score of legal moves that do not reach the goal (``score``).
UNSOLVED_CREDIT = 0.01

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
    replay, illegal, reason = Replay(board), None, ""  # in place: time linear in moves plus cells
    for i, m in enumerate(given):
        try:
            replay.push(m)
        except IllegalMoveError as e:
            illegal, reason = i, str(e)
            break
    reached = replay.board()
    played = len(given) if illegal is None else illegal
    status = ILLEGAL if illegal is not None else SOLVED if reached.is_goal(goal) else NOT_SOLVED
    best, how = optimal_distance(board, goal) if optimum and board.is_solvable(goal) else (None, "")
    return Verdict(board, goal, tuple(given), status, played, reached, illegal, reason, best, how)


def verify_answer(board: Board, answer: str, goal: Goal = "standard", *, optimum: bool = True) -> Verdict:
    """``verify_moves`` for a grader: an ``answer`` whose text is no moves is a ``malformed``
    verdict (nothing played, ``reason`` says why) instead of an error."""
    try:
        return verify_moves(board, answer, goal, optimum=optimum)
    except IllegalMoveError as e:
        best, how = optimal_distance(board, goal) if optimum and board.is_solvable(goal) else (None, "")
        return Verdict(board, goal, (), MALFORMED, 0, board, reason=str(e), optimum=best, optimum_by=how)


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
    """The distance of ``board`` to ``goal`` and what gave it, where the distance oracle knows it
    exactly within ``OPTIMUM_NODES`` nodes; ``(None, "")`` else."""
    from .search.limits import Limit
    from .search.oracle import Oracle

    oracle = Oracle(board.height, board.width, goal, Limit(max_nodes=OPTIMUM_NODES))
    if not oracle.exact:
        return None, ""
    found = oracle.distance(board)
    if not found.exact:
        return None, ""
    return found.lower, "bfs-table" if oracle.kind == "table" else f"idastar/{oracle.heuristic}"


def score(verdict: Verdict, best: int | None = None) -> float | None:
    """A grader's score of the answer: 1.0 for a shortest solution, ``best / length`` for a longer
    one, ``UNSOLVED_CREDIT`` for legal moves (at least one) that do not reach the goal, 0.0 for an
    illegal move, text that is no moves (``malformed``) or no moves at all. ``best`` is the
    shortest length known (the optimum; or the length of a known solution, a solution no longer
    than it then scoring 1.0), by default the verdict's ``optimum``; None if a solution is scored
    with neither (its quality is unknown)."""
    if verdict.status == NOT_SOLVED:
        return UNSOLVED_CREDIT if verdict.played else 0.0
    if verdict.status != SOLVED:
        return 0.0
    best = verdict.optimum if best is None else best
    if best is None:
        return None
    return 1.0 if verdict.played <= best else best / verdict.played
