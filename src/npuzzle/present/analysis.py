"""The text and JSON forms of a solve's analysis (``npuzzle.analysis.Analysis``): what
``npuzzle analyze`` prints and ``POST /api/analyze`` answers.

>>> from npuzzle.analysis import analyze
>>> from npuzzle import Board
>>> record = analysis_record(analyze(Board.goal(4, 4).push("R"), "LRL"))
>>> record["distances"], record["mistakes"][0]["index"], record["mistakes"][0]["better"]
([1, 0, 1, 0], 1, [])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..board import goal_text
from ..notation import Entry, format_letters, format_position
from .common import DRAWN_CELLS, count_text, entry_head, position_fields, seconds_text, time_fields
from .solution import ADVICE_AFTER_SECONDS

if TYPE_CHECKING:
    from ..analysis import Analysis, Mistake


def analysis_record(analysis: Analysis, entry: Entry | None = None) -> dict[str, Any]:
    """The JSON form of an analysis (``docs/json.md``, record ``analysis``): the start (its
    fields and ``position`` in rows notation), the goal, the player's ``moves`` (the tiles pushed,
    as in a ``solve`` record), ``letters`` (the pushed tile's direction) and ``compact`` (the
    letters with repeat counts), ``length``,
    ``solved``, ``start_distance``, ``distances`` (one per position, the start first), ``exact``,
    ``method`` and ``heuristic``, ``mistakes``, ``manhattan`` and ``moves_per_md``,
    ``optimal_solution`` (from step ``from_step``), ``near_optimal`` (boards too large for optimal
    distances), ``all_optimal`` when asked, and the times."""
    a = analysis
    record: dict[str, Any] = {
        **entry_head("analysis", entry), **position_fields(a.board), "goal": goal_text(a.goal),
        "position": format_position(a.board), "moves": list(a.moves), "letters": a.letters,
        "compact": format_letters(a.letters),
        "length": a.length, "solved": a.solved, "start_distance": a.start_distance,
        "end_distance": a.distances[-1], "distances": list(a.distances), "exact": a.exact, "method": a.method,
        "heuristic": a.heuristic, "mistakes": [mistake_fields(m) for m in a.mistakes], "manhattan": a.manhattan,
        "moves_per_md": None if a.moves_per_md is None else round(a.moves_per_md, 6),
        "optimal_solution": {"from_step": a.optimal_from, "length": len(a.optimal), "letters": a.optimal,
                    "compact": format_letters(a.optimal), "exact": a.exact},
    }
    if a.near_optimal is not None:
        record["near_optimal"] = a.near_optimal
    if a.all_optimal is not None:
        record["all_optimal"] = {"count": a.all_optimal.count, "solutions": list(a.all_optimal.solutions)}
    return {**record, **time_fields(a.wall_seconds, a.cpu_seconds)}


def mistake_fields(mistake: Mistake) -> dict[str, Any]:
    """One mistake as JSON: ``index`` (0-based, of the move), ``move`` (its letter), ``tile``,
    ``distance_before``, ``distance_after``, ``better`` (letters)."""
    m = mistake
    return {"index": m.index, "move": m.move, "tile": m.tile, "distance_before": m.distance_before,
            "distance_after": m.distance_after, "better": list(m.better)}


def analysis_text(analysis: Analysis, convention: str = "tile") -> str:
    """An analysis in words: the start drawn (up to ``DRAWN_CELLS`` cells), the player's length
    against the optimum, moves per Manhattan distance, the distance after each move, the mistakes
    (moves numbered from 1) with the better moves, an optimal solution, all optimal solutions when
    asked, and how it was found; letters are written in ``convention`` (``tile`` or ``blank``)."""
    a = analysis
    lines = [f"{a.board.height}x{a.board.width} board, goal {goal_text(a.goal, 36)}:"]
    if a.board.size <= DRAWN_CELLS:
        lines += ["  " + row for row in str(a.board).splitlines()]
    lines += [f"Letters name the direction the {'blank moves' if convention == 'blank' else 'pushed tile slides'}.",
              f"Your moves ({a.length}): {format_letters(a.letters, convention) or '(none)'}", _summary(a),
              f"Distance {'to the goal' if a.exact else '(a lower bound)'} after each move, from the start: "
              + " ".join(map(str, a.distances))]
    lines += _mistake_lines(a, convention)
    what = "An optimal" if a.exact else "A near-optimal (not proven optimal)"
    where = "the start" if a.optimal_from == 0 else f"step {a.optimal_from}"
    lines.append(f"{what} solution from {where} ({count_text(len(a.optimal), 'move')}): "
                 f"{format_letters(a.optimal, convention) or '(none: solved)'}")
    if a.all_optimal is not None:
        listed = len(a.all_optimal.solutions)
        lines.append(f"All optimal solutions of the start: {a.all_optimal.count:,}"
                     + (f" (the first {listed} listed)" if listed < a.all_optimal.count else "") + ":")
        lines += [f"  {format_letters(s, convention, counts=False)}" for s in a.all_optimal.solutions]
    how = "a distance table" if a.method == "bfs-table" else (
        f"IDA* with {a.heuristic}" if a.exact else f"the lower bound {a.heuristic}")
    lines.append(f"Analysed in {seconds_text(a.wall_seconds)} ({seconds_text(a.cpu_seconds)} CPU) with {how}")
    if a.advice and a.cpu_seconds > ADVICE_AFTER_SECONDS:
        lines.append(f"  for a faster analysis, {a.advice}")
    return "\n".join(lines)


def _summary(a: Analysis) -> str:
    """``88 moves, solved; optimal 46 (42 more); 2.10 moves per Manhattan distance (42)``."""
    end = "solved" if a.solved else f"not solved: {a.distances[-1]} moves from the goal at the end"
    if a.exact:
        best = f"optimal {a.start_distance}" + (f" ({a.length - a.start_distance:+d})" if a.solved else "")
    else:
        best = f"at least {a.start_distance}, a near-optimal solution has {a.near_optimal}"
    ratio = "" if a.moves_per_md is None else f"; {a.moves_per_md:.2f} moves per Manhattan distance ({a.manhattan})"
    return f"{count_text(a.length, 'move')}, {end}; {best}{ratio}"


def _mistake_lines(a: Analysis, convention: str) -> list[str]:
    if not a.exact:
        return ["Mistakes are not named: they need optimal distances (boards of at most 16 cells)."]
    if not a.mistakes:
        return ["No mistake: every move brought the goal closer."]
    lines = [f"{count_text(len(a.mistakes), 'mistake')} (moves after which the distance did not fall):"]
    for m in a.mistakes:
        better = ", ".join(format_letters(b, convention) for b in m.better) or "none (stop: the goal was reached)"
        lines.append(f"  move {m.index + 1} ({format_letters(m.move, convention)}): {m.distance_before} -> "
                     f"{m.distance_after}; better: {better}")
    return lines
