"""Positions themselves: a check's verdict (``npuzzle check``) and scrambled positions
(``npuzzle scramble``), as text and as JSON.

>>> from npuzzle import Board
>>> print(check_text(Board(2, 2, (1, 2, 0, 3)), check_record(Board(2, 2, (1, 2, 0, 3)), "standard")))
2x2 board, goal standard:
  1 2
  _ 3
Solvable
  Manhattan distance 1: how far each tile is from its goal cell, in rows and columns, summed
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..board import Board, Goal, goal_text
from ..notation import Entry, format_position
from .common import (
    MANHATTAN_MEANS,
    entry_head,
    position_fields,
    record_head,
    title_lines,
    verdict_text,
)

if TYPE_CHECKING:
    pass


def check_record(board: Board, goal: Goal | Board, entry: Entry | None = None) -> dict[str, Any]:
    """The JSON form of a position's check: where it came from (``entry``), its shape and tiles,
    the goal, ``status`` (``solvable`` or ``unsolvable``, with the ``reason``), the Manhattan
    distance and both parities."""
    reason = board.unsolvable_reason(goal)
    record: dict[str, Any] = {
        **entry_head("check", entry),
        "status": "solvable" if reason is None else "unsolvable",
        **position_fields(board),
        "goal": goal_text(goal),
        "solvable": reason is None,
        "manhattan": board.manhattan(goal),
        "permutation_parity": "odd" if board.permutation_parity(goal) else "even",
        "blank_distance": board.blank_distance(goal),
    }
    if reason is not None:
        record["reason"] = reason
    return record


def check_text(board: Board, record: Mapping[str, Any]) -> str:
    """The shape and goal, the board drawn (up to ``DRAWN_CELLS`` cells), then the verdict as
    ``check_record(board, goal)`` found it: ``Solvable`` and the Manhattan distance, or
    ``Unsolvable`` and why on the next lines."""
    if not record["solvable"]:
        _, _, why = verdict_text(record["reason"]).partition("\n")
        return "\n".join([*title_lines(board, record["goal"]), "Unsolvable:", why])
    return "\n".join([*title_lines(board, record["goal"]), "Solvable",
                      f"  Manhattan distance {record['manhattan']:,}: {MANHATTAN_MEANS}"])


def positions_text(boards: Sequence[Board], notation: str = "rows") -> str:
    """Positions in a notation (see ``notation.format_position``), one a line, or a blank line
    between them in the ``grid`` notation (which takes a line per row)."""
    sep = "\n\n" if notation == "grid" else "\n"
    return sep.join(format_position(b, notation) for b in boards)


def scramble_record(board: Board, index: int, seed: int | None, goal: Goal, notation: str = "rows") -> dict[str, Any]:
    """One scrambled position as JSON: its 1-based ``index`` in the output, the ``seed``, the
    position's fields, the goal it is solvable for, and the position written in ``notation``.

    >>> scramble_record(Board(2, 2, (1, 2, 0, 3)), 1, 7, "standard")["position"]
    '1 2/0 3'
    """
    return {**record_head("scramble"), "index": index, "seed": seed, **position_fields(board), "goal": goal,
            "position": format_position(board, notation)}
