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
    from ..analysis import Analysis, Mistake, Phase


def analysis_record(analysis: Analysis, entry: Entry | None = None) -> dict[str, Any]:
    """The JSON form of an analysis (``docs/json.md``, record ``analysis``): the start (its
    fields and ``position`` in rows notation), the goal, the player's ``moves`` (the tiles pushed,
    as in a ``solve`` record), ``letters`` (the pushed tile's direction) and ``compact`` (the
    letters with repeat counts), ``length``,
    ``solved``, ``start_distance``, ``distances`` (one per position, the start first), ``exact``,
    ``method`` and ``heuristic``, ``mistakes``, ``manhattan`` and ``moves_per_md``,
    ``optimal_solution`` (from step ``from_step``), ``detours`` and ``phases``, ``upper_distances``
    and ``near_optimal`` (boards too large for optimal distances), ``all_optimal`` when asked, and
    the times."""
    a = analysis
    record: dict[str, Any] = {
        **entry_head("analysis", entry), **position_fields(a.board), "goal": goal_text(a.goal),
        "position": format_position(a.board), "moves": list(a.moves), "letters": a.letters,
        "compact": format_letters(a.letters),
        "length": a.length, "solved": a.solved, "start_distance": a.start_distance,
        "end_distance": a.distances[-1], "distances": list(a.distances), "exact": a.exact, "method": a.method,
        "heuristic": a.heuristic, "mistakes": [mistake_fields(m) for m in a.mistakes],
        "detours": [{"from": d.start, "to": d.end, "wasted": d.wasted} for d in a.detours],
        "phases": [phase_fields(p) for p in a.phases], "manhattan": a.manhattan,
        "moves_per_md": None if a.moves_per_md is None else round(a.moves_per_md, 6),
        "optimal_solution": {"from_step": a.optimal_from, "length": len(a.optimal), "letters": a.optimal,
                    "compact": format_letters(a.optimal), "exact": a.exact},
    }
    if not a.exact:
        record["upper_distances"] = [None if u < 0 else u for u in a.upper]
    if a.near_optimal is not None:
        record["near_optimal"] = a.near_optimal
    if a.all_optimal is not None:
        record["all_optimal"] = {"count": a.all_optimal.count, "solutions": list(a.all_optimal.solutions)}
    return {**record, **time_fields(a.wall_seconds, a.cpu_seconds)}


def mistake_fields(mistake: Mistake) -> dict[str, Any]:
    """One mistake as JSON: ``index`` (0-based, of the move), ``move`` (its letter), ``tile``,
    ``distance_before``, ``distance_after``, ``better`` (letters), and ``proof`` where bounds
    proved it."""
    m = mistake
    fields = {"index": m.index, "move": m.move, "tile": m.tile, "distance_before": m.distance_before,
              "distance_after": m.distance_after, "better": list(m.better)}
    return {**fields, "proof": m.proof} if m.proof else fields


def phase_fields(phase: Phase) -> dict[str, Any]:
    """One phase as JSON: ``name``, ``tiles``, ``at_move`` (moves played when it was finished, null
    if not), ``phase_moves`` (in the phase), and ``at_time`` and ``tps`` when the moves were timed."""
    p = phase
    fields: dict[str, Any] = {"name": p.name, "tiles": list(p.tiles), "at_move": p.move, "phase_moves": p.moves}
    if p.time is not None:
        fields["at_time"] = round(p.time, 6)
        fields["tps"] = p.tps
    return fields


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
              _distance_line(a)]
    lines += _mistake_lines(a, convention)
    lines += _detour_lines(a)
    lines += _phase_lines(a)
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


def _distance_line(a: Analysis) -> str:
    if a.exact:
        return "Distance to the goal after each move, from the start: " + " ".join(map(str, a.distances))
    spans = [str(lo) if lo == up else f"{lo}-{up}" if up >= 0 else f"{lo}+" for lo, up in zip(a.distances, a.upper,
                                                                                            strict=True)]
    return "Distance to the goal after each move (proven bounds), from the start: " + " ".join(spans)


def _mistake_lines(a: Analysis, convention: str) -> list[str]:
    if not a.mistakes:
        return ["No mistake: every move brought the goal closer." if a.exact else
                "No mistake proven: where the bounds do not settle a move, it is not called one."]
    what = "moves after which the distance did not fall" if a.exact else "moves the bounds prove took the goal farther"
    lines = [f"{count_text(len(a.mistakes), 'mistake')} ({what}):"]
    for m in a.mistakes:
        if m.proof:
            lines.append(f"  move {m.index + 1} ({format_letters(m.move, convention)}): {m.proof}")
            continue
        better = ", ".join(format_letters(b, convention) for b in m.better) or "none (stop: the goal was reached)"
        lines.append(f"  move {m.index + 1} ({format_letters(m.move, convention)}): {m.distance_before} -> "
                     f"{m.distance_after}; better: {better}")
    return lines


def _detour_lines(a: Analysis) -> list[str]:
    """Each return to an earlier position (moves numbered from 1)."""
    if not a.detours:
        return []
    wasted = sum(d.wasted for d in a.detours)
    lines = [f"{count_text(len(a.detours), 'detour')} ({count_text(wasted, 'move')} wasted):"]
    for d in a.detours:
        kind = "an undo pair" if d.wasted == 2 else f"back to the position after move {d.start}"
        lines.append(f"  moves {d.start + 1}-{d.end}: {kind} ({d.wasted} wasted)")
    return lines


def _phase_lines(a: Analysis) -> list[str]:
    lines = ["Phases (finished for good after move ...):"]
    for p in a.phases:
        if p.move is None:
            lines.append(f"  {p.name}: not finished")
            continue
        timed = "" if p.time is None else f" at {p.time:.2f} s" + ("" if p.tps is None else f", {p.tps:.2f} TPS")
        lines.append(f"  {p.name}: move {p.move} ({count_text(p.moves or 0, 'move')}{timed})")
    return lines
