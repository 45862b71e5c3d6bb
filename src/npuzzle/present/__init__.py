"""What every front end shows: the text and JSON forms of npuzzle's results.

Each ``*_text`` function returns the lines a front end prints, joined by newlines with no final
newline; each ``*_record`` function returns the dict a front end sends as JSON. Nothing here
writes, reads options or decides exit statuses: the command line prints these strings, and a web
front end can send the very same ones. Importing this module loads neither numpy nor numba.

>>> from npuzzle import Board
>>> print(check_text(Board(2, 2, (1, 2, 0, 3)), check_record(Board(2, 2, (1, 2, 0, 3)), "standard")))
2x2 board, goal standard:
  1 2
  _ 3
Solvable
  Manhattan distance 1: how far each tile is from its goal cell, in rows and columns, summed
"""

from __future__ import annotations

import errno
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import stats
from ..board import GOAL_TEXT_CELLS, Board, Goal, goal_text
from ..errors import quote_input
from ..notation import Entry, format_moves, format_position, format_shape
from ..search.limits import INTERRUPTED, MEMORY_LIMIT, NODE_LIMIT, TIMEOUT

if TYPE_CHECKING:
    from ..search.limits import Iteration, Limit, Progress, Solution
    from ..tables import TableInfo

#: ``schema_version`` of every JSON record (``docs/json.md``, ``data/schema.json``): raised when a
#: field changes its meaning or type or goes away, never for a new field.
SCHEMA_VERSION = 2

#: What each ``Solution.status`` of a search stopped early means (other statuses read as they are).
STATUS_TEXT: dict[str, str] = {
    TIMEOUT: "the time limit was reached",
    NODE_LIMIT: "the node limit was reached",
    MEMORY_LIMIT: "the memory limit was reached",
    INTERRUPTED: "interrupted",
}

#: Boards of up to this many cells are drawn above their solution.
DRAWN_CELLS = 400
#: Boards of up to this many cells have their tiles pushed written in hex (one digit a tile).
HEX_MOVE_CELLS = 16
#: Boards of more than this many cells (beyond 20x20, where tile numbers of three digits and more
#: stop being readable) have their moves given as letters only, in text and in JSON; a real-time
#: answer on them is written as its letters are read out of the packed moves (streamed).
LETTERS_ONLY_CELLS = DRAWN_CELLS


#: A table is advised only after a search that took more than this many CPU seconds.
ADVICE_AFTER_SECONDS = 1.0


def status_text(status: str) -> str:
    """What a ``Solution.status`` means, in words.

    >>> status_text("node-limit")
    'the node limit was reached'
    """
    return STATUS_TEXT.get(status, status)


def count_text(count: int, noun: str, plural: str | None = None) -> str:
    """A count and its noun, singular for one: ``count_text(1, "table")`` is ``'1 table'``.

    >>> count_text(1, "position"), count_text(12345, "position"), count_text(0, "match", "matches")
    ('1 position', '12,345 positions', '0 matches')
    """
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"


def _seconds(seconds: float) -> str:
    """``0.012 s``; from ten seconds on ``12.3 s``; from an hour on ``1 h 02 min``."""
    if seconds >= 3600:
        return f"{int(seconds // 3600)} h {int(seconds % 3600 // 60):02d} min"
    return f"{seconds:.1f} s" if seconds >= 10 else f"{seconds:.3f} s"


def times_text(wall_seconds: float, cpu_seconds: float) -> str:
    """Wall-clock time, with the CPU time beside it.

    >>> times_text(0.0123, 0.0119)
    '0.012 s (0.012 s CPU)'
    >>> times_text(75.3, 74.0)
    '75.3 s (74.0 s CPU)'
    """
    return f"{_seconds(wall_seconds)} ({_seconds(cpu_seconds)} CPU)"


# -- on a terminal, while it runs --------------------------------------------------------------


def compile_notice_text(method: str = "") -> str:
    """The one line shown on stderr when numba starts compiling the kernels of ``method`` (a key
    of ``search.warm.COMPILE_SECONDS``, or ``""``) on first use, with the CPU time it takes.

    >>> compile_notice_text("beam")  # doctest: +ELLIPSIS
    "npuzzle: compiling the beam search kernels on first use (once, about ... s CPU; 'npuzzle warmup' ...)..."
    """
    from ..search.warm import COMPILE_SECONDS

    if method in COMPILE_SECONDS:
        name, seconds = COMPILE_SECONDS[method]
        what = f"the {name} kernels on first use (once, about {seconds:.0f} s CPU"
    else:
        most = max(seconds for _, seconds in COMPILE_SECONDS.values())
        what = f"the search kernels on first use (once, up to about {most:.0f} s CPU"
    return f"npuzzle: compiling {what}; 'npuzzle warmup' compiles every search ahead of time)..."


def progress_text(progress: Progress) -> str:
    """The live status of a running search (see ``search.limits.Progress``).

    >>> from npuzzle.search.limits import Progress
    >>> progress_text(Progress(52, 123_456_789, 2.5, 2.4))
    'searching: bound 52, 123,456,789 nodes, 49.4 M nodes/s, 2.500 s'
    """
    rate = progress.nodes_per_second
    speed = f"{rate / 1e6:.1f} M" if rate >= 1e6 else f"{rate / 1e3:.0f} k"
    return (f"searching: bound {progress.bound}, {count_text(progress.generated, 'node')}, {speed} nodes/s, "
            f"{_seconds(progress.wall_seconds)}")


def batch_progress_text(done: int, total: int, generated: int, wall_seconds: float, workers: int) -> str:
    """The live status of a batch solved by several workers.

    >>> batch_progress_text(37, 100, 12_345_678, 2.5, 2)
    'solving on 2 workers: 37 of 100 positions, 12,345,678 nodes, 4.9 M nodes/s, 2.500 s'
    """
    rate = generated / wall_seconds if wall_seconds > 0 else 0.0
    speed = f"{rate / 1e6:.1f} M" if rate >= 1e6 else f"{rate / 1e3:.0f} k"
    return (f"solving on {workers} workers: {done:,} of {total:,} positions, {count_text(generated, 'node')}, "
            f"{speed} nodes/s, {_seconds(wall_seconds)}")


# -- solutions ---------------------------------------------------------------------------------


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
    if iteration.kind != "threshold":
        found = f"answer of {iteration.length:,} moves" if iteration.length is not None else "no answer"
        what = f"{iteration.kind} {iteration.threshold:,}" if iteration.threshold else iteration.kind
        return f"  {what}: {found}, {iteration.generated:,} nodes generated, {iteration.seconds:.3f} s CPU"
    state = "solution found" if final else "no solution"
    return (f"  threshold {iteration.threshold:,}: {state}, {iteration.generated:,} nodes generated, "
            f"{iteration.seconds:.3f} s CPU")


def unsolvable_text(board: Board, reason: str) -> str:
    """An unsolvable position: the position and the verdict on one line, the reason (the parities,
    ``Board.unsolvable_reason``) wrapped and indented below it.

    >>> b = Board(2, 2, (2, 1, 3, 0))
    >>> print(unsolvable_text(b, b.unsolvable_reason()))
    2 1/3 0: unsolvable for the standard goal:
      the tiles (blank included) are an odd permutation of the goal, but the blank is 0 moves from its
      goal cell (even); every move flips both parities, so they can never both be even as at the goal
    """
    return f"{format_position(board)}: {verdict_text(reason)}"


def verdict_text(reason: str) -> str:
    """``Board.unsolvable_reason`` as a verdict (``unsolvable for the standard goal:``) and, on the
    next lines, why, wrapped and indented."""
    import textwrap

    verdict, _, why = reason.partition(": ")
    return verdict + ":\n" + textwrap.fill(why, 100, initial_indent="  ", subsequent_indent="  ")


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
             MEMORY_LIMIT: limit and limit.max_memory is not None and _bytes(limit.max_memory)}.get(status)
    what = {TIMEOUT: "the time limit", NODE_LIMIT: "the node limit", MEMORY_LIMIT: "the memory limit"}.get(status)
    head = f"Stopped at {what}" + (f" ({value})" if value else "") if what else (
        "Interrupted (Ctrl-C)" if status == INTERRUPTED else f"Stopped ({status})")
    return f"{head} before finding a solution; every solution has at least {count_text(lower_bound, 'move')}"


def _bytes(n: int) -> str:
    """``512 MiB``, ``2.5 GiB``, ``11.5 MB``-style sizes in binary units."""
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return count_text(n, "byte")


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
    head = [*_title(solution.board, solution.goal), _outcome_line(solution, limit), f"  {_how(solution)}"]
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


def _title(board: Board, goal: Goal | Board) -> list[str]:
    """The first lines of a solution: the shape and goal, and the board drawn if it is small."""
    lines = [f"{board.height}x{board.width} board, goal {goal_text(goal, GOAL_TEXT_CELLS)}:"]
    if board.size <= DRAWN_CELLS:
        lines += ["  " + line for line in str(board).splitlines()]
    return lines


def _outcome_line(solution: Solution, limit: Limit | None) -> str:
    return f"Solution: {outcome_text(solution)}" if solution.solved else stopped_text(
        solution.status, solution.lower_bound, limit)


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
    lines = [f"  that took {_seconds(solution.stats.seconds)} of CPU; a stronger bound makes such searches faster:"]
    for a in advice:
        if a.built:
            wd = "+wd" if max(board.height, board.width) <= 4 else ""
            lines.append(f"    --heuristic pdb:{a.name}{wd} (built already)")
        else:
            lines.append(f"    {pattern_db.build_command(a.name, board.height, board.width, goal)}  "
                         f"({a.build_time}; {_bytes(a.disk_bytes)} on disk, {_bytes(a.build_memory)} "
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
    record = {**_head("solve", entry), **position_fields(solution.board), "goal": fields.pop("goal"),
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


def time_fields(wall_seconds: float, cpu_seconds: float) -> dict[str, float]:
    """``wall_seconds`` and ``cpu_seconds``, to the microsecond, as every record gives times."""
    return {"wall_seconds": round(wall_seconds, 6), "cpu_seconds": round(cpu_seconds, 6)}


def _head(kind: str, entry: Entry | None) -> dict[str, Any]:
    """What every record of ``solve`` and ``check`` starts with: ``schema_version``, the kind of
    record, and where its position came from."""
    return {**_record(kind), **origin_fields(entry)}


def origin_fields(entry: Entry | None) -> dict[str, Any]:
    """Where a position came from: ``{"argument": 2}`` or ``{"file": "in.txt", "line": 3}``
    (``"<stdin>"`` for standard input); nothing without an ``entry``."""
    if entry is None:
        return {}
    if entry.source == "argument":
        return {"argument": entry.number}
    return {"file": entry.source, "line": entry.number}


def position_fields(board: Board) -> dict[str, Any]:
    """One form of a position, shared by every record: ``shape``, ``height``, ``width``, ``tiles``.

    >>> position_fields(Board(2, 2, (1, 2, 0, 3)))
    {'shape': '2x2', 'height': 2, 'width': 2, 'tiles': [1, 2, 0, 3]}
    """
    return {**shape_fields(board.height, board.width), "tiles": list(board.tiles)}


def shape_fields(height: int, width: int) -> dict[str, Any]:
    """One form of a board's shape in every record: ``shape`` (``"HxW"``), ``height``, ``width``."""
    return {"shape": format_shape((height, width)), "height": height, "width": width}


def _record(kind: str) -> dict[str, Any]:
    """The head of every record: the schema's version and the kind of record."""
    return {"schema_version": SCHEMA_VERSION, "record": kind}


#: The longest input excerpt an ``invalid`` record carries.
INPUT_EXCERPT = 200


def invalid_record(entry: Entry, command: str = "solve") -> dict[str, Any]:
    """The record of an input that is no position (``record`` names the ``command``, ``solve`` or
    ``check``): where it is, an excerpt, and why.

    >>> from npuzzle.notation import argument_entries
    >>> invalid_record(argument_entries(["1 2/2 0"])[0])["reason"]
    "duplicate tile 2 in '1 2/2 0'"
    """
    text = entry.text if len(entry.text) <= INPUT_EXCERPT else entry.text[:INPUT_EXCERPT] + "..."
    return {**_head(command, entry), "status": "invalid", "input": text, "reason": entry.error}


def invalid_text(entry: Entry, many: bool) -> str:
    """One line for an input that is no position, with its place (``in.txt:3: ...``) unless it is
    the only input and an argument (``many``: there are other inputs)."""
    return f"{entry.where}: {entry.error}" if many or entry.source != "argument" else str(entry.error)


def unsolvable_record(board: Board, goal: Goal | Board, reason: str, entry: Entry | None = None) -> dict[str, Any]:
    """The record of a position the goal cannot be reached from, and why."""
    return {**_head("solve", entry), "status": "unsolvable", **position_fields(board), "goal": goal_text(goal),
            "reason": reason}


def batch_summary_text(command: str, counts: Mapping[str, int], wall_seconds: float, cpu_seconds: float) -> str:
    """The last line of a batch (on stderr): how many positions, by outcome, and the time.

    >>> batch_summary_text("solve", {"solved": 9990, "invalid": 10}, 12.34, 11.9)
    'npuzzle solve: 10,000 positions: 9,990 solved, 10 invalid in 12.3 s (11.9 s CPU)'
    """
    total = sum(counts.values())
    parts = ", ".join(f"{n:,} {outcome}" for outcome, n in counts.items() if n)
    return f"npuzzle {command}: {count_text(total, 'position')}: {parts} in {times_text(wall_seconds, cpu_seconds)}"


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


# -- real-time reports -------------------------------------------------------------------------


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


# -- check -------------------------------------------------------------------------------------


def check_record(board: Board, goal: Goal | Board, entry: Entry | None = None) -> dict[str, Any]:
    """The JSON form of a position's check: where it came from (``entry``), its shape and tiles,
    the goal, ``status`` (``solvable`` or ``unsolvable``, with the ``reason``), the Manhattan
    distance and both parities."""
    reason = board.unsolvable_reason(goal)
    record: dict[str, Any] = {
        **_head("check", entry),
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
        return "\n".join([*_title(board, record["goal"]), "Unsolvable:", why])
    return "\n".join([*_title(board, record["goal"]), "Solvable",
                      f"  Manhattan distance {record['manhattan']:,}: {MANHATTAN_MEANS}"])


#: What the Manhattan distance is, where a text first names it.
MANHATTAN_MEANS = "how far each tile is from its goal cell, in rows and columns, summed"


# -- scrambles ---------------------------------------------------------------------------------


def positions_text(boards: Sequence[Board], notation: str = "rows") -> str:
    """Positions in a notation (see ``notation.format_position``), one a line, or a blank line
    between them in the ``grid`` notation (which takes a line per row)."""
    sep = "\n\n" if notation == "grid" else "\n"
    return sep.join(format_position(b, notation) for b in boards)


# -- statistics --------------------------------------------------------------------------------


def scramble_record(board: Board, index: int, seed: int | None, goal: Goal, notation: str = "rows") -> dict[str, Any]:
    """One scrambled position as JSON: its 1-based ``index`` in the output, the ``seed``, the
    position's fields, the goal it is solvable for, and the position written in ``notation``.

    >>> scramble_record(Board(2, 2, (1, 2, 0, 3)), 1, 7, "standard")["position"]
    '1 2/0 3'
    """
    return {**_record("scramble"), "index": index, "seed": seed, **position_fields(board), "goal": goal,
            "position": format_position(board, notation)}


def _distribution_fields(counts: Sequence[int]) -> dict[str, Any]:
    return {"positions": sum(counts), "max_distance": len(counts) - 1,
            "mean": round(stats.mean_distance(counts), 6), "counts": list(counts)}


def distribution_record(height: int, width: int, label: str, counts: Sequence[int], goal_name: str) -> dict[str, Any]:
    """A full BFS as JSON: the board's shape, the goal, its ``known_counts.txt`` label, and the
    number of positions at each distance (``counts[d]``) with their total, largest distance and mean.

    >>> distribution_record(2, 2, "2x2_corner", [1, 2, 2, 2, 2, 2, 1], "standard")["mean"]
    3.0
    """
    return {**_record("distribution"), **shape_fields(height, width), "goal": goal_name, "label": label,
            **_distribution_fields(counts)}


def happy_record(height: int, width: int, goal: Goal, counts: Sequence[int]) -> dict[str, Any]:
    """The happy-move count as JSON: positions by distance (the goal at 0), their total, and on
    Knuth's board whether his published count is matched (``knuth_agrees``, else null)."""
    from .. import knuth

    return {**_record("happy"), **shape_fields(height, width), "goal": goal, **_distribution_fields(counts),
            "knuth_agrees": knuth.happy_count_agrees(height, width, goal, counts)}


def sample_record(height: int, width: int, goal: Goal, seed: int | None, lengths: Sequence[int]) -> dict[str, Any]:
    """A random sample's optimal lengths as JSON, in the order solved, with their histogram."""
    return {**_record("sample"), **shape_fields(height, width), "goal": goal, "seed": seed,
            "count": len(lengths), "lengths": list(lengths),
            "mean": round(sum(lengths) / len(lengths), 6), "min": min(lengths), "max": max(lengths),
            "histogram": stats.histogram(lengths)}


def table_record(info: TableInfo) -> dict[str, Any]:
    """A stored table as a JSON record of ``tables list --json`` (see ``table_info_record``)."""
    return {**_record("table"), **table_info_record(info)}


def bench_record(set_name: str, instance_id: int, optimum: int, solution: Solution,
                 korf_nodes: int | None, nodes_ok: bool | None, published_nodes: int | None = None) -> dict[str, Any]:
    """One benchmark instance as JSON: the set and id, the published optimum, whether the length
    equals it, the solution's record, Korf's node count with the comparison where it applies, and
    the node count published for the instance (for reference)."""
    return {**_record("bench-instance"), "set": set_name, "instance": instance_id,
            "optimum": optimum, "length_ok": solution.solved and solution.length == optimum,
            "korf_nodes": korf_nodes, "nodes_ok": nodes_ok, "published_nodes": published_nodes,
            "solution": {k: v for k, v in solution_record(solution).items() if k != "schema_version"}}


def bench_total_record(
    set_name: str, solutions: Sequence[Solution], lengths_ok: int, nodes_ok: int | None
) -> dict[str, Any]:
    """The total of a benchmark run as JSON: instances, nodes, CPU and wall seconds, and how many
    lengths (and node counts, where compared) equal the published ones."""
    return {**_record("bench-summary"), "set": set_name,
            "instances": len(solutions), "generated": sum(s.stats.generated for s in solutions),
            "expanded": sum(s.stats.expanded for s in solutions),
            **time_fields(sum(s.stats.wall_seconds for s in solutions), sum(s.stats.seconds for s in solutions)),
            "lengths_matched": lengths_ok, "nodes_matched": nodes_ok}


def distribution_text(label: str, counts: Sequence[int], goal_name: str, table: bool = False) -> str:
    """A full BFS's distribution: the ``dist`` line of ``known_counts.txt``, a summary naming the
    goal, and with ``table`` one line per distance."""
    lines = [stats.format_distribution(label, counts), f"# {label}: {stats.summary(counts)}; goal {goal_name}"]
    if table:
        lines.append("\n".join(stats.histogram_lines(counts)))
    return "\n".join(lines)


def happy_text(height: int, width: int, goal: Goal, counts: Sequence[int]) -> str:
    """The positions solvable by happy moves only, by distance (``counts[d]``, the goal at 0),
    their total, and on Knuth's board whether his published count is matched."""
    total, top = sum(counts), len(counts) - 1
    lines = [
        f"positions of the {height}x{width} board solvable by happy moves only ({goal} goal), by distance:",
        "\n".join(stats.histogram_lines(counts)),
        f"total {count_text(total, 'position')}, the goal included ({total - 1:,} without it); "
        f"largest distance {top} ({count_text(counts[top], 'position')})",
    ]
    from .. import knuth

    agree = knuth.happy_count_agrees(height, width, goal, counts)
    if agree is not None:
        positions, largest, at_largest = knuth.HAPPY_COUNT
        lines.append(f"Knuth (15PUZZLE-KORF1, section 3): {positions:,} positions besides the goal, {at_largest:,} "
                     f"at the largest distance {largest}: " + ("the same" if agree else "DIFFERENT"))
    return "\n".join(lines)


def sample_text(height: int, width: int, goal: Goal, seed: int | None, lengths: Sequence[int]) -> str:
    """Optimal lengths of a random sample: a histogram, then the mean, least and greatest."""
    return "\n".join([
        f"optimal lengths of {len(lengths):,} random {height}x{width} positions ({goal} goal, seed {seed}):",
        "\n".join(stats.histogram_lines(stats.histogram(lengths))),
        f"mean {sum(lengths) / len(lengths):.3f}, min {min(lengths)}, max {max(lengths)}",
    ])


def sample_title(height: int, width: int, count: int) -> str:
    """The title of a sample's histogram image."""
    return f"{count:,} random {height}x{width} positions"


def distribution_title(height: int, width: int, counts: Sequence[int], goal_name: str) -> str:
    """The title of a full BFS's histogram image.

    >>> distribution_title(2, 2, [1, 2, 2, 2, 2, 2, 1], "standard")
    'every solvable 2x2 position (12) by distance to the standard goal'
    """
    return f"every solvable {height}x{width} position ({sum(counts):,}) by distance to the {goal_name} goal"


def happy_title(height: int, width: int, goal: Goal) -> str:
    """The title of the histogram image of the positions solvable by happy moves only."""
    return f"{height}x{width} positions solvable by happy moves only ({goal} goal)"


def plot_saved_text(path: str) -> str:
    """The line that follows a histogram image written by ``--plot``."""
    return f"histogram saved to {path}"


# -- tables ------------------------------------------------------------------------------------


def table_name(info: TableInfo) -> str:
    """A stored table as it is built (or, for internal tables, what makes it); the file name if
    the header cannot be read."""
    key = info.key
    if key is None:
        return info.path.name
    if key.kind == "pdb" and isinstance(info.meta.get("name"), str):
        return f"pdb:{info.meta['name']} --shape {key.shape} --goal {key.goal}"
    if key.kind == "bfs":
        return f"bfs {key.shape} --goal {key.goal}"
    if key.kind == "fsm":
        return f"automaton {key.shape}"
    return f"{key.kind} {key.shape} --goal {key.goal} ({key.pattern})"


def _superseded(info: TableInfo) -> bool:
    """A pattern database stored under a partition name that now means other patterns."""
    from ..heuristics.pattern_db import superseded

    name = info.meta.get("name")
    return info.key is not None and info.key.kind == "pdb" and isinstance(name, str) and superseded(name, info.key)


#: What makes each internal table (tables no ``tables build`` makes).
_INTERNAL = {"bfs": "exact distances, saved by: npuzzle stats bfs {shape} --save (or a solve for a goal board)",
             "fsm": "IDA*'s move automaton, made when first needed",
             "walking": "walking-distance tables, made when first needed"}


def table_info_record(info: TableInfo) -> dict[str, Any]:
    """One stored table as JSON: its build name, file, size on disk, modification time (UTC,
    ISO 8601), whether it is internal, and its state: ``ok`` (checked), ``unchecked`` (too large
    to check when listing; checked when used) or ``damaged`` (with the ``problem``)."""
    import datetime

    key = info.key
    state = "damaged" if info.problem else ("ok" if info.verified else "unchecked")
    modified = datetime.datetime.fromtimestamp(info.mtime, datetime.UTC).isoformat(timespec="seconds")
    return {
        "name": table_name(info),
        "kind": key.kind if key else None,
        "table_shape": key.shape if key else None,
        "table_goal": key.goal if key else None,
        "internal": bool(key and key.kind in _INTERNAL),
        "file": info.path.name,
        "bytes": info.size,
        "modified": modified,
        "state": state,
        **({"problem": info.problem} if info.problem else {}),
        **({"superseded": True} if _superseded(info) else {}),
    }


def size_text(nbytes: int) -> str:
    """A size in decimal units.

    >>> size_text(512), size_text(6_496), size_text(576_576_512), size_text(19_800_000_000)
    ('512 B', '6.5 kB', '576.6 MB', '19.8 GB')
    """
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if nbytes >= scale:
            return f"{nbytes / scale:.1f} {unit}"
    return f"{nbytes:,} B"


def table_info_text(info: TableInfo) -> str:
    """One stored table: its build name, size, date (local time), file name, and a mark for
    internal tables and damaged files."""
    import time

    record = table_info_record(info)
    date = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.mtime)) if info.mtime else "-"
    line = f"{record['name']:<40} {size_text(record['bytes']):>9}  {date}  {record['file']}"
    if record["internal"] and info.key is not None:
        line += "  [internal: " + _INTERNAL[info.key.kind].format(shape=info.key.shape) + "]"
    if record["state"] == "damaged":
        line += f"  DAMAGED: {info.problem}"
    elif record.get("superseded"):
        name = record["name"].split()[0]
        line += f"  [superseded: {name} now means other patterns; unused, remove it by its file name]"
    return line


def table_list_text(infos: Sequence[TableInfo], directory: Path) -> str:
    """How many tables the store in ``directory`` holds and their total size, then one line each;
    a last line says how to remove one."""
    total = sum(i.size for i in infos)
    damaged = sum(1 for i in infos if i.problem)
    head = f"{count_text(len(infos), 'table')} in {directory}, {size_text(total)} in all"
    if damaged:
        head += f"; {count_text(damaged, 'damaged file')}: remove or rebuild them"
    lines = [head, *map(table_info_text, infos)]
    if infos:
        lines.append("remove one with: npuzzle tables remove NAME [--shape HxW] [--goal GOAL] (or its file name)")
    return "\n".join(lines)


def build_confirm_text(name: str, height: int, width: int, memory: int, seconds: float) -> str:
    """What a large build costs, as a question (``memory`` in bytes, ``seconds`` of CPU)."""
    return (f"building pdb:{name} for {height}x{width} needs about {size_text(memory)} of memory and "
            f"about {_duration(seconds)}. Start it? [y/N] ")


def build_needs_yes_text(name: str, height: int, width: int, memory: int, seconds: float) -> str:
    """Why a large build did not start without a terminal to confirm it."""
    return (f"building pdb:{name} for {height}x{width} needs about {size_text(memory)} of memory and "
            f"about {_duration(seconds)}; add --yes to start it")


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{max(round(seconds), 1)} s"
    if seconds < 2 * 3600:
        return f"{round(seconds / 60)} minutes"
    return f"{seconds / 3600:.1f} hours"


def table_removed_text(file: str) -> str:
    return f"removed {file}"


def pdb_built_text(name: str, height: int, width: int, goal: Goal, path: Path) -> str:
    """A partition that is already stored (``name`` without the ``pdb:`` prefix)."""
    return f"pdb:{name} for {height}x{width} ({goal} goal) is already built: {path}"


def pdb_damaged_text(name: str, height: int, width: int, goal: Goal, path: Path) -> str:
    """A stored partition that fails its checks, about to be rebuilt."""
    return f"pdb:{name} for {height}x{width} ({goal} goal) is stored but damaged ({path}): building it again"


def pdb_build_text(
    name: str, height: int, width: int, goal: Goal, groups: Sequence[Sequence[int]], memory: int
) -> str:
    """What a pattern-database build is about to do: its patterns and the ``memory`` (bytes) it needs."""
    patterns = ", ".join("{" + " ".join(map(str, g)) + "}" for g in groups)
    return (f"building pdb:{name} for {height}x{width} ({goal} goal): patterns {patterns}; "
            f"needs about {memory / 2**20:,.0f} MiB of memory")


def table_stored_text(path: Path, nbytes: int, seconds: float) -> str:
    """A table just written: where, how large (bytes on disk), and the CPU seconds it took."""
    return f"stored {path} ({nbytes:,} bytes) in {seconds:.1f} s CPU"


def warning_text(command: str, message: str) -> str:
    """A warning of command ``command`` as one line of stderr.

    >>> warning_text("solve", "table file x.npt: checksum mismatch; solving without it")
    'npuzzle solve: warning: table file x.npt: checksum mismatch; solving without it'
    """
    return f"npuzzle {command}: warning: {message}"


def write_error_text(error: OSError, path: str | None = None) -> str:
    """One line for an output that cannot be written: a full disk, a file that takes no writes.

    >>> import errno; write_error_text(OSError(errno.ENOSPC, "No space left on device"), "m.txt")
    "cannot write 'm.txt': No space left on device (the disk is full)"
    """
    where = "the standard output" if path is None else quote_input(path, 80)
    reason = error.strerror or str(error)
    if error.errno == errno.ENOSPC:
        reason += " (the disk is full)"
    return f"cannot write {where}: {reason}"


# -- the web page and its HTTP API (npuzzle serve) ----------------------------------------------


#: Where a bug is reported.
ISSUES_URL = "the issue tracker of the repository npuzzle was installed from"


def internal_error_text(message: str) -> str:
    """An internal error (a bug in npuzzle, never a mistake in the input), with a request to
    report it."""
    return (f"{message}\nThis is a bug in npuzzle, not a problem with your input: please report it "
            f"with the command that gave it ({ISSUES_URL}).")


def error_record(reason: str, status: str = "invalid", text: str | None = None) -> dict[str, Any]:
    """The record of a web request refused: ``status`` (``invalid``, ``too-large``, ``not-found``,
    ``busy``, ...), the ``reason`` in words, and ``input`` (an excerpt) when a position was refused.

    >>> error_record("duplicate tile 2 in '1 2/2 0'", text="1 2/2 0")["status"]
    'invalid'
    >>> error_record("too large: at most 65,536 bytes", "too-large")
    {'schema_version': 2, 'record': 'error', 'status': 'too-large', 'reason': 'too large: at most 65,536 bytes'}
    """
    record = {**_record("error"), "status": status, "reason": reason}
    if text is not None:
        record["input"] = text if len(text) <= INPUT_EXCERPT else text[:INPUT_EXCERPT] + "..."
    return record


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
        return stopped_text(solution.status, solution.lower_bound, limit)
    length = solution.length or 0
    if solution.optimal:
        return f"{count_text(length, 'move')}, optimal"
    bound = solution.lower_bound
    ratio = f", so at most {length / bound:.2f} times the optimum" if bound > 0 else ""
    return f"{count_text(length, 'move')}, not proven optimal: lower bound {bound:,} (no solution is shorter){ratio}"


def how_text(solution: Solution) -> str:
    """How a solution was found: method, heuristic, nodes generated, wall-clock and CPU time.

    >>> from npuzzle import solve
    >>> how_text(solve("1 2 3/4 5 6/7 0 8", method="idastar", heuristic="lc"))  # doctest: +ELLIPSIS
    'idastar, lc: ... nodes generated in ... s (... s CPU)'
    """
    return _how(solution)


def web_solution_record(solution: Solution, limit: Limit | None = None) -> dict[str, Any]:
    """A solution as the web API sends it: ``solution_record`` (the fields of ``solve --json``)
    with ``outcome`` (``outcome_text``) and ``how`` (``how_text``) for the page to show."""
    return {**solution_record(solution, report_for(solution)), "outcome": outcome_text(solution, limit),
            "how": how_text(solution)}


def progress_record(progress: Progress) -> dict[str, Any]:
    """A running search's progress as JSON: ``bound``, ``generated``, ``wall_seconds``,
    ``cpu_seconds``, ``nodes_per_second``, and ``text`` (``progress_text``)."""
    return {"bound": progress.bound, "generated": progress.generated,
            **time_fields(progress.wall_seconds, progress.cpu_seconds),
            "nodes_per_second": round(progress.nodes_per_second), "text": progress_text(progress)}


#: What each state of a web solve job means (``job_record``'s ``text`` when there is no progress).
JOB_STATE_TEXT: dict[str, str] = {
    "queued": "waiting for a free worker",
    "running": "searching",
    "done": "done",
    "cancelled": "cancelled",
    "failed": "failed",
}


def job_record(job_id: str, state: str, *, progress: Progress | None = None,
               result: Mapping[str, Any] | None = None, reason: str | None = None) -> dict[str, Any]:
    """A web solve job as JSON: its ``id``, ``state`` (``queued``, ``running``, ``done``,
    ``cancelled``, ``failed``), ``text`` (the live status in words), ``progress``
    (``progress_record``) while it runs, ``result`` (``web_solution_record``) once done, and
    ``reason`` when it failed.

    >>> job_record("7", "queued")
    {'schema_version': 2, 'record': 'job', 'id': '7', 'state': 'queued', 'text': 'waiting for a free worker'}
    """
    text = progress_text(progress) if progress is not None and state == "running" else JOB_STATE_TEXT[state]
    record: dict[str, Any] = {**_record("job"), "id": job_id, "state": state, "text": text}
    if progress is not None:
        record["progress"] = progress_record(progress)
    if result is not None:
        record["result"] = dict(result)
    if reason is not None:
        record["reason"] = reason
        record["text"] = f"{JOB_STATE_TEXT[state]}: {reason}"
    return record


def bounds_text(bounds: Mapping[str, int]) -> str:
    """A board's lower bounds in words, as the web page shows them.

    >>> bounds_text({"manhattan": 21, "lc": 23})
    'Manhattan distance 21, linear conflict 23'
    """
    names = {"manhattan": "Manhattan distance", "lc": "linear conflict", "wd": "walking distance",
             "id": "inversion distance"}
    return ", ".join(f"{names.get(name, name)} {value:,}" for name, value in bounds.items())


def web_check_record(board: Board, goal: Goal | Board, bounds: Mapping[str, int]) -> dict[str, Any]:
    """A check as the web API sends it: ``check_record`` with ``position`` (rows notation),
    ``lower_bounds`` (name -> value) and ``text`` (the solvability and bounds in words)."""
    record = check_record(board, goal)
    verdict = "solvable" if record["solvable"] else "unsolvable"
    return {**record, "position": format_position(board), "lower_bounds": dict(bounds),
            "text": f"{verdict}; {bounds_text(bounds)}" if bounds else verdict}


def overrun_text(timeout: float) -> str:
    """Why a web solve job was stopped from outside: its search did not stop at the time limit.

    >>> overrun_text(30)
    'the search did not stop at its time limit (30 s)'
    """
    return f"the search did not stop at its time limit ({timeout:g} s)"


def web_missing_text() -> str:
    """What ``npuzzle serve`` says when the web extra is not installed."""
    return ("npuzzle serve: the web page needs Starlette and uvicorn: pip install 'npuzzle[web]'")


def serving_text(url: str, workers: int, time_limit: float) -> str:
    """The line ``npuzzle serve`` prints once it listens.

    >>> serving_text("http://127.0.0.1:8000/", 2, 30)
    'npuzzle serve: http://127.0.0.1:8000/ (2 solver processes, solves stop after 30 s; Ctrl-C stops the server)'
    """
    return (f"npuzzle serve: {url} ({count_text(workers, 'solver process', 'solver processes')}, "
            f"solves stop after {time_limit:g} s; Ctrl-C stops the server)")


def open_host_warning_text(host: str) -> str:
    """The warning of a server that listens beyond this machine."""
    return (f"listening on {host}: anyone who can reach this machine can use the page and its solver "
            "processes (there is no password); 127.0.0.1 keeps it to this machine")


def listen_error_text(host: str, port: int, problem: str) -> str:
    """Why ``npuzzle serve`` cannot listen where it was asked to.

    >>> listen_error_text("127.0.0.1", 8000, "Address already in use")
    'cannot listen on 127.0.0.1:8000: Address already in use (another server there? try --port)'
    """
    return f"cannot listen on {host}:{port}: {problem} (another server there? try --port)"
