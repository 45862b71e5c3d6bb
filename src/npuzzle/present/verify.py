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

import json
from typing import Any, NamedTuple

from ..board import Board, Goal, check_goal, goal_label, goal_text
from ..errors import NPuzzleError, quote_input
from ..notation import format_position, parse_position, parse_shape
from ..verifier import ILLEGAL, MALFORMED, SOLVED, Verdict
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
    if verdict.status == MALFORMED:
        return f"Malformed answer: {verdict.reason}"
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
              "length": None if verdict.status == MALFORMED else len(verdict.moves), "played": verdict.played,
              "illegal_index": index,
              "illegal_move": None if index is None else _move_text(verdict.moves[index])}
    if verdict.reason:
        record["reason"] = verdict.reason
    record |= {"reached": list(verdict.reached.tiles), "reached_position": format_position(verdict.reached)}
    if verdict.optimum is not None:
        record |= {"optimum": verdict.optimum, "optimum_by": verdict.optimum_by}
    return record | {"excess": verdict.excess}


class AnswerLine(NamedTuple):
    """One line of ``npuzzle verify --jsonl``: the position, the answer (a move string), the goal,
    the best length the grader knows (None: found where cheap) and the line's ``id`` (if any)."""

    board: Board
    answer: str
    goal: Goal
    best: int | None
    ident: str | int | None


def read_answer_line(text: str, shape: tuple[int, int] | None = None, goal: Goal = "standard") -> AnswerLine:
    """A JSON object with ``position`` (text in any notation) and ``answer`` (a move string, a list
    of moves, or null for none), and optionally ``shape`` (``"3x3"``, else ``shape``), ``goal``
    (else ``goal``), ``optimum`` (the best length known, which the score then uses) and ``id``
    (copied to the verdict, as text); other keys are ignored. ``NPuzzleError`` says what is wrong.

    >>> read_answer_line('{"position": "1 2 3/4 5 6/0 7 8", "answer": "L, L", "id": 7}')[1:]
    ('L, L', 'standard', None, 7)
    """
    try:
        item = json.loads(text)
    except ValueError as e:
        raise NPuzzleError(f"not a JSON object: {e}") from None
    if not isinstance(item, dict):
        raise NPuzzleError("not a JSON object: give {\"position\": ..., \"answer\": ...}")
    position, answer, ident, best = item.get("position"), item.get("answer"), item.get("id"), item.get("optimum")
    if not isinstance(position, str):
        raise NPuzzleError(f"position={quote_input(position)}: give the position as text")
    if "answer" not in item:
        raise NPuzzleError("no answer: give \"answer\": the moves as text, a list, or null for none")
    if isinstance(answer, list) and all(isinstance(m, str | int) and not isinstance(m, bool) for m in answer):
        answer = " ".join(map(str, answer))
    if not isinstance(answer, str | None):
        raise NPuzzleError(f"answer={quote_input(answer)}: give the moves as text or a list")
    if ident is not None and (not isinstance(ident, str | int) or isinstance(ident, bool)):
        raise NPuzzleError(f"id={quote_input(ident)}: give a string or a whole number")
    if best is not None and (not isinstance(best, int) or isinstance(best, bool) or best < 0):
        raise NPuzzleError(f"optimum={quote_input(best)}: give a whole number of moves")
    if "shape" in item:
        shape = parse_shape(str(item["shape"]))
    goal = check_goal(item.get("goal", goal))
    return AnswerLine(parse_position(position, shape), answer or "", goal, best, ident)


def answer_record(verdict: Verdict, score: float | None, source: str, line: int,
                  ident: str | int | None = None) -> dict[str, Any]:
    """The verdict of one line of ``npuzzle verify --jsonl``: the ``verify`` record, the line it
    answers, the line's ``id`` (if it has one) and the ``score`` (``verifier.score``)."""
    record = verify_record(verdict)
    head = {"schema_version": record.pop("schema_version"), "record": record.pop("record")}
    tail = {} if ident is None else {"id": str(ident)}
    return {**head, "file": source, "line": line, **tail, **record, "score": score}
