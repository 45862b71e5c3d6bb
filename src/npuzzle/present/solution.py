"""A solution (or a search stopped by a limit) as text and as JSON: the board, the outcome, how it
was found, the moves, the real-time figures, the advice after a slow search, a verbose search's
lines, and a solution step by step.

>>> from npuzzle import solve
>>> print(solution_text(solve("1 2/0 3", method="idastar", heuristic="lc")))  # doctest: +ELLIPSIS
2x2 board, goal standard:
  1 2
  _ 3
Solution: 1 move, optimal
  idastar, lc: ... generated in ... s (... s CPU)
  tiles pushed: 3
  letters:      L
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..board import GOAL_TEXT_CELLS, Board, Goal, goal_text
from ..notation import Entry, format_moves, format_position
from ..search.limits import INTERRUPTED, MEMORY_LIMIT, NODE_LIMIT, TIMEOUT
from .common import (
    DRAWN_CELLS,
    MANHATTAN_MEANS,
    bytes_text,
    count_text,
    entry_head,
    position_fields,
    seconds_text,
    time_fields,
    times_text,
    title_lines,
)

if TYPE_CHECKING:
    from ..search.limits import Iteration, Limit, Solution


#: Boards of up to this many cells have their tiles pushed written in hex (one digit a tile).
HEX_MOVE_CELLS = 16


#: Boards of more than this many cells (beyond 20x20, where tile numbers of three digits and more
#: stop being readable) have their moves given as letters only, in text and in JSON; a real-time
#: answer on them is written as its letters are read out of the packed moves (streamed).
LETTERS_ONLY_CELLS = DRAWN_CELLS


#: A table is advised only after a search that took more than this many CPU seconds.
ADVICE_AFTER_SECONDS = 1.0


def search_start_text(board: Board, goal: Goal | Board, heuristic: str = "", bound: int | None = None) -> str:
    """The first line of a verbose search: the board, the goal, the first bound and the heuristic
    that gave it (see ``heuristics.registry.first_bound``), and the Manhattan distance.

    >>> search_start_text(Board(2, 2, (1, 2, 0, 3)), "standard", "lc", 1)
    'solving 2x2, goal standard: first bound 1 from lc (Manhattan distance 1)'
    """
    start = f"solving {board.height}x{board.width}, goal {goal_text(goal, GOAL_TEXT_CELLS)}"
    md = f"Manhattan distance {board.manhattan(goal):,}"
    if bound is None:
        return f"{start}, {md}"
    return f"{start}: first bound {bound:,} from {heuristic} ({md})"


def iteration_text(iteration: Iteration, final: bool) -> str:
    """One IDA* iteration (or A* bound) of a verbose search; ``final`` if it found the solution."""
    if iteration.kind.startswith("cost"):
        state = "solution found" if final else "no solution"
        return (f"  {iteration.kind} {iteration.threshold:,} (whole-number units): {state}, "
                f"{iteration.generated:,} nodes generated, {iteration.seconds:.3f} s CPU")
    if iteration.kind != "threshold":
        found = f"answer of {iteration.length:,} moves" if iteration.length is not None else "no answer"
        what = f"{iteration.kind} {iteration.threshold:,}" if iteration.threshold else iteration.kind
        return f"  {what}: {found}, {iteration.generated:,} nodes generated, {iteration.seconds:.3f} s CPU"
    state = "solution found" if final else "no solution"
    return (f"  threshold {iteration.threshold:,}: {state}, {iteration.generated:,} nodes generated, "
            f"{iteration.seconds:.3f} s CPU")


def report_for(solution: Solution) -> dict[str, Any] | None:
    """The real-time figures shown with a solved real-time solution (see
    ``search.realtime.realtime_report``), else None. Loads the real-time solver (numpy) when
    there are figures to compute."""
    if not solution.method.startswith("realtime") or not solution.solved:
        return None
    from ..search.realtime import solution_report

    return solution_report(solution)


def _how(solution: Solution) -> str:
    """Method, heuristic, nodes (not for real time) and wall and CPU time.

    >>> from npuzzle import solve
    >>> _how(solve("1 2 3/4 5 6/7 0 8", method="idastar", heuristic="lc"))  # doctest: +ELLIPSIS
    'idastar, lc: ... nodes generated in ... s (... s CPU)'
    """
    st = solution.stats
    times = times_text(st.wall_seconds, st.seconds)
    if solution.method.startswith("realtime"):
        return f"{solution.method} in {times}"
    return f"{solution.method}, {solution.heuristic}: {count_text(st.generated, 'node')} generated in {times}"


def stopped_text(status: str, lower_bound: int, limit: Limit | None = None) -> str:
    """Why a search stopped before finding a solution, the limit's value if ``limit`` is given,
    and the bound it proved.

    >>> from npuzzle.search.limits import Limit
    >>> stopped_text("timeout", 64, Limit(timeout=10))
    'Stopped at the time limit (10 s) before finding a solution; every solution has at least 64 moves'
    >>> stopped_text("interrupted", 40)
    'Interrupted (Ctrl-C) before finding a solution; every solution has at least 40 moves'
    """
    value = {TIMEOUT: limit and limit.timeout is not None and f"{limit.timeout:g} s",
             NODE_LIMIT: limit and limit.max_nodes is not None and count_text(limit.max_nodes, "node"),
             MEMORY_LIMIT: limit and limit.max_memory is not None and bytes_text(limit.max_memory)}.get(status)
    what = {TIMEOUT: "the time limit", NODE_LIMIT: "the node limit", MEMORY_LIMIT: "the memory limit"}.get(status)
    head = f"Stopped at {what}" + (f" ({value})" if value else "") if what else (
        "Interrupted (Ctrl-C)" if status == INTERRUPTED else f"Stopped ({status})")
    return f"{head} before finding a solution; every solution has at least {count_text(lower_bound, 'move')}"


def solution_text(solution: Solution, report: Mapping[str, Any] | None = None, limit: Limit | None = None) -> str:
    """The board (up to ``DRAWN_CELLS`` cells), the outcome, how it was found, the solver's note,
    the tiles pushed (up to ``LETTERS_ONLY_CELLS`` cells) and the letters; for a search stopped by
    a limit, why (with the limit's value from ``limit``) and the bound it proved instead of moves.
    ``report`` (from ``report_for``) adds the real-time figures; after a slow search,
    ``advice_text`` ends it. The same text as ``solution_text_parts`` with the letters between."""
    before, after = solution_text_parts(solution, report, limit)
    return before + (solution.letters if solution.solved else "") + after


def solution_text_parts(solution: Solution, report: Mapping[str, Any] | None = None, limit: Limit | None = None,
                        *, letters: bool = True) -> tuple[str, str]:
    """``solution_text`` in two parts, for the letters to be written between them as they are made
    (a real-time answer streamed from its packed moves); without ``letters`` (a count only) the
    text has no moves at all and ``after`` is empty."""
    head = [*title_lines(solution.board, solution.goal), _outcome_line(solution, limit), f"  {_how(solution)}"]
    if solution.note:
        head.append(f"  {solution.note}")
    tail = [*(_report_lines(report) if report else []), *filter(None, [advice_text(solution)])]
    if not (letters and solution.solved):
        return "\n".join(head + tail), ""
    if solution.board.size <= LETTERS_ONLY_CELLS:
        style = "hex" if solution.board.size <= HEX_MOVE_CELLS else "numbers"
        head.append(f"  tiles pushed: {format_moves(solution.moves, style) or '(none: already solved)'}")
    head.append("  letters:      " + ("" if solution.length else "(none)"))
    return "\n".join(head), "".join("\n" + line for line in tail)


def _outcome_line(solution: Solution, limit: Limit | None) -> str:
    return f"Solution: {outcome_text(solution)}" if solution.solved else outcome_text(solution, limit)


def advice_text(solution: Solution) -> str:
    """After an IDA* or A* search that took more than ``ADVICE_AFTER_SECONDS`` of CPU, the
    tables that would make it faster, cheapest first, with build time, disk size and the memory
    the build needs (``heuristics.pattern_db.advised``); else the empty string. Nothing on
    solved boards or boards a BFS table covers (``search.bfs.MAX_CELLS``)."""
    board, goal = solution.board, solution.goal
    if (solution.stats.seconds <= ADVICE_AFTER_SECONDS or solution.method not in ("idastar", "astar", "weighted-astar")
            or board.is_goal(goal)):
        return ""
    from ..heuristics import pattern_db
    from ..search.bfs import MAX_CELLS

    if board.size <= MAX_CELLS:
        return ""
    if not isinstance(goal, str):
        goal = "standard"  # a goal board is solved by relabelling against the standard goal
    advice = pattern_db.advised(board.height, board.width, goal, solution.heuristic)
    if not advice:
        return ""
    lines = [f"  that took {seconds_text(solution.stats.seconds)} of CPU; a stronger bound makes such searches faster:"]
    for a in advice:
        if a.built:
            wd = "+wd" if max(board.height, board.width) <= 4 else ""
            lines.append(f"    --heuristic pdb:{a.name}{wd} (built already)")
        else:
            lines.append(f"    {pattern_db.build_command(a.name, board.height, board.width, goal)}  "
                         f"({a.build_time}; {bytes_text(a.disk_bytes)} on disk, {bytes_text(a.build_memory)} "
                         "of memory while it builds)")
    return "\n".join(lines)


def solution_record(solution: Solution, report: Mapping[str, Any] | None = None, entry: Entry | None = None, *,
                    moves: bool = True) -> dict[str, Any]:
    """The JSON form of a solution (``docs/json.md``): where it came from (``entry``), the
    position, ``Solution.to_dict()`` with the wall-clock and CPU seconds, ``report`` (from
    ``report_for``) when there is one, and the moves last: ``moves`` (the tiles pushed; only on
    boards of up to ``LETTERS_ONLY_CELLS`` cells) and ``letters``. Without ``moves`` (a real-time
    answer counted, or written to a file) the record has neither, nor the position's tiles."""
    st = solution.stats
    fields = solution.to_dict()
    record = {**entry_head("solve", entry), **position_fields(solution.board), "goal": fields.pop("goal"),
              **{k: v for k, v in fields.items() if k not in ("moves", "letters")},
              **time_fields(st.wall_seconds, st.seconds), **({"report": report_fields(report)} if report else {})}
    if not moves:
        del record["tiles"]
        return record
    if solution.board.size <= LETTERS_ONLY_CELLS:
        record["moves"] = fields["moves"]
    record["letters"] = fields["letters"]
    return record


def record_parts(record: Mapping[str, Any], key: str) -> tuple[str, str]:
    """A JSON record as text in two parts, ``record[key]`` (a string that JSON writes as it is,
    such as ``UDLR`` letters) to be written between them: ``json.dumps(record)`` is
    ``before + record[key] + after``.

    >>> record_parts({"a": 1, "letters": "UL", "b": [2]}, "letters")
    ('{"a": 1, "letters": "', '", "b": [2]}')
    """
    import json

    keys = list(record)
    i = keys.index(key)
    head = json.dumps({k: record[k] for k in keys[:i]})[:-1]
    tail = json.dumps({k: record[k] for k in keys[i + 1:]})[1:]
    return head + (", " if i else "") + json.dumps(key) + ': "', '"' + (", " if i + 1 < len(keys) else "") + tail


def steps_text(solution: Solution) -> str:
    """A solution step by step: the start, then after each move its number, the tile pushed and
    its letter, and the board drawn (blank as ``_``).

    >>> from npuzzle import solve
    >>> print(steps_text(solve("1 2/0 3", method="idastar", heuristic="lc")))
    start:
      1 2
      _ 3
    move 1 of 1: tile 3 L
      1 2
      3 _
    """
    lines: list[str] = []
    total = len(solution.moves)
    for step, board in enumerate(solution.boards()):
        if step == 0:
            lines.append("start:")
        else:
            lines.append(f"move {step:,} of {total:,}: tile {solution.moves[step - 1]} {solution.letters[step - 1]}")
        lines += ["  " + line for line in str(board).splitlines()]
    return "\n".join(lines)


def steps_record(solution: Solution) -> list[str]:
    """The positions of a solution from the start to the goal, in the ``rows`` notation (JSON's
    ``steps``).

    >>> from npuzzle import solve
    >>> steps_record(solve("1 2/0 3", method="idastar", heuristic="lc"))
    ['1 2/0 3', '1 2/3 0']
    """
    return [format_position(board) for board in solution.boards()]


def _report_lines(report: Mapping[str, Any]) -> list[str]:
    """The real-time figures (see ``search.realtime.realtime_report``), each term explained:
    moves per unit of Manhattan distance and per n^3, Parberry's bound on square boards, and the
    wasted moves if they were counted."""
    md, n3 = report["manhattan"], f"{report['moves_per_n3']:.4f} n^3"
    if report["height"] != report["width"]:
        n3 += " (n^3 read as height x width x (height + width) / 2)"
    line = f"  {report['moves_per_manhattan'] or 0:.3f} times the Manhattan distance ({md:,}: {MANHATTAN_MEANS}); {n3}"
    if "parberry_bound" in report:
        line += f"; Parberry's bound {count_text(report['parberry_bound'], 'move')} (his algorithm's most)"
    if report.get("wasted") is None:
        return [line]
    return [line, f"  {count_text(report['wasted'], 'wasted move')}: moves that take a tile farther from its "
                  "goal cell (another move must undo each)"]


def report_fields(report: Mapping[str, Any]) -> dict[str, Any]:
    """A real-time report as JSON's ``report`` object: the figures that the record does not hold
    already (its ``height``, ``width`` and ``length``), ratios to 6 places.

    >>> report_fields({"height": 3, "width": 3, "moves": 5, "manhattan": 3, "moves_per_n3": 5 / 27,
    ...                "moves_per_manhattan": 5 / 3, "wasted": 1, "parberry_bound": 34})
    {'manhattan': 3, 'moves_per_n3': 0.185185, 'moves_per_manhattan': 1.666667, 'wasted': 1, 'parberry_bound': 34}
    """
    fields = {k: v for k, v in report.items() if k not in ("height", "width", "moves")}
    return {k: round(v, 6) if isinstance(v, float) else v for k, v in fields.items()}


def outcome_text(solution: Solution, limit: Limit | None = None) -> str:
    """A solution's outcome in a few words, as the web page shows it: its length and whether it is
    optimal, or its lower bound and how far above it the length may be; for a search stopped by a
    limit, why, and the bound it proved.

    >>> from npuzzle import solve
    >>> outcome_text(solve("8 6 7/2 5 4/3 0 1", method="idastar", heuristic="lc"))
    '31 moves, optimal'
    >>> outcome_text(solve("8 6 7/2 5 4/3 0 1", method="realtime"))  # doctest: +ELLIPSIS
    '... moves, not proven optimal: lower bound ... (no solution is shorter), so at most ... times the optimum'
    """
    if not solution.solved:
        stopped = stopped_text(solution.status, solution.lower_bound, limit)
        if solution.cost != "unit" and solution.cost_bound is not None:
            stopped += f"; {solution.cost} cost at least {solution.cost_bound:.6g}"
        return stopped
    if solution.cost != "unit":
        return cost_outcome_text(solution)
    length = solution.length or 0
    if solution.optimal:
        return f"{count_text(length, 'move')}, optimal"
    bound = solution.lower_bound
    ratio = f", so at most {length / bound:.2f} times the optimum" if bound > 0 else ""
    return f"{count_text(length, 'move')}, not proven optimal: lower bound {bound:,} (no solution is shorter){ratio}"


def cost_outcome_text(solution: Solution) -> str:
    """A solution under a move-cost model other than ``unit``: its cost, length and guarantee.

    >>> from npuzzle import solve
    >>> cost_outcome_text(solve("4 1 2/5 0 3", method="astar", cost="heavy"))
    'cost 15 (heavy: moving tile t costs t), 5 moves, optimal for that cost'
    """
    from ..costs import DEFINITIONS

    head = (f"cost {solution.cost_total:.10g} ({solution.cost}: {DEFINITIONS[solution.cost]}), "
            f"{count_text(solution.length or 0, 'move')}")
    if solution.optimal:
        return f"{head}, optimal for that cost"
    bound = solution.cost_bound or 0.0
    ratio = f", so at most {(solution.cost_total or 0) / bound:.2f} times the optimum" if bound > 0 else ""
    return f"{head}, not proven optimal: lower bound {bound:.6g} (no solution costs less){ratio}"


def how_text(solution: Solution) -> str:
    """How a solution was found: method, heuristic, nodes generated, wall-clock and CPU time.

    >>> from npuzzle import solve
    >>> how_text(solve("1 2 3/4 5 6/7 0 8", method="idastar", heuristic="lc"))  # doctest: +ELLIPSIS
    'idastar, lc: ... nodes generated in ... s (... s CPU)'
    """
    return _how(solution)
