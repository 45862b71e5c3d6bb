"""The text and JSON record of a verified answer (``npuzzle verify``, ``npuzzle.verify``).

>>> from npuzzle import Board
>>> from npuzzle.verifier import verify_moves
>>> print(verify_text(verify_moves(Board(2, 2, (1, 2, 0, 3)), "L")))
Solved: 1 move from 1 2/0 3 to the standard goal, optimal (the optimum is 1, by bfs-table)
>>> print(verify_text(verify_moves(Board(2, 2, (1, 2, 0, 3)), "R L")))
Illegal move 1 (index 0) 'R': no tile can slide R: the blank is at the edge
  the position before it: 1 2/0 3
"""

from __future__ import annotations

from typing import Any

from ..board import goal_label, goal_text
from ..notation import format_position
from ..verifier import ILLEGAL, SOLVED, Verdict
from .common import count_text, position_fields, record_head


def _move_text(move: object) -> str:
    return str(getattr(move, "value", move))


def _optimum_text(verdict: Verdict) -> str:
    if not verdict.solvable:
        return "the goal cannot be reached from this position: 'npuzzle check' says why"
    if verdict.optimum is None:
        return "the optimum is not known (boards of up to 16 cells only, within a node budget)"
    return f"the optimum is {verdict.optimum}, by {verdict.optimum_by}"


def verify_text(verdict: Verdict) -> str:
    """What the replay found, in a sentence or two."""
    start = format_position(verdict.board)
    if verdict.status == ILLEGAL:
        index = verdict.illegal_index or 0
        return (f"Illegal move {index + 1} (index {index}) {_move_text(verdict.moves[index])!r}: {verdict.reason}\n"
                f"  the position before it: {format_position(verdict.reached)}")
    moves = count_text(verdict.played, "move")
    if verdict.status == SOLVED:
        excess = verdict.excess
        quality = ("optimal" if excess == 0 else f"{count_text(excess, 'move')} more than optimal"
                   if excess is not None else "optimality not checked")
        return f"Solved: {moves} from {start} to {goal_label(verdict.goal)}, {quality} ({_optimum_text(verdict)})"
    return (f"Not solved: after {moves} from {start} the position is {format_position(verdict.reached)}, not "
            f"{goal_label(verdict.goal)} ({_optimum_text(verdict)})")


def verify_record(verdict: Verdict) -> dict[str, Any]:
    """The ``verify`` record: the start, the status, the moves given and played, the illegal
    move (and ``reason``, only then), the position reached, the optimum (only where known) and
    the excess."""
    index = verdict.illegal_index
    record = {**record_head("verify"), **position_fields(verdict.board), "goal": goal_text(verdict.goal),
              "position": format_position(verdict.board), "status": verdict.status, "solvable": verdict.solvable,
              "length": len(verdict.moves), "played": verdict.played, "illegal_index": index,
              "illegal_move": None if index is None else _move_text(verdict.moves[index])}
    if verdict.reason:
        record["reason"] = verdict.reason
    record |= {"reached": list(verdict.reached.tiles), "reached_position": format_position(verdict.reached)}
    if verdict.optimum is not None:
        record |= {"optimum": verdict.optimum, "optimum_by": verdict.optimum_by}
    return record | {"excess": verdict.excess}
