"""What every kind of result shares: status, count, time and size texts, the head of every JSON
record (schema version, kind, where a position came from, its shape and tiles), the title of a
drawn board, and the one-line texts of warnings, write errors and a running search.

>>> from npuzzle import Board
>>> entry_head("check", None), position_fields(Board(2, 2, (1, 2, 0, 3)))["tiles"]
({'schema_version': 2, 'record': 'check'}, [1, 2, 0, 3])
"""

from __future__ import annotations

import errno
from typing import TYPE_CHECKING, Any

from ..board import GOAL_TEXT_CELLS, Board, Goal, goal_text
from ..errors import quote_input
from ..notation import Entry, format_shape
from ..search.limits import INTERRUPTED, MEMORY_LIMIT, NODE_LIMIT, TIMEOUT
from . import SCHEMA_VERSION

if TYPE_CHECKING:
    from ..search.limits import Progress


#: What each ``Solution.status`` of a search stopped early means (other statuses read as they are).
STATUS_TEXT: dict[str, str] = {
    TIMEOUT: "the time limit was reached",
    NODE_LIMIT: "the node limit was reached",
    MEMORY_LIMIT: "the memory limit was reached",
    INTERRUPTED: "interrupted",
}


#: Boards of up to this many cells are drawn above their solution.
DRAWN_CELLS = 400


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


def seconds_text(seconds: float) -> str:
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
    return f"{seconds_text(wall_seconds)} ({seconds_text(cpu_seconds)} CPU)"


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
            f"{seconds_text(progress.wall_seconds)}")


def verdict_text(reason: str) -> str:
    """``Board.unsolvable_reason`` as a verdict (``unsolvable for the standard goal:``) and, on the
    next lines, why, wrapped and indented."""
    import textwrap

    verdict, _, why = reason.partition(": ")
    return verdict + ":\n" + textwrap.fill(why, 100, initial_indent="  ", subsequent_indent="  ")


def bytes_text(n: int) -> str:
    """``512 MiB``, ``2.5 GiB``, ``11.5 MB``-style sizes in binary units."""
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return count_text(n, "byte")


def title_lines(board: Board, goal: Goal | Board) -> list[str]:
    """The first lines of a solution: the shape and goal, and the board drawn if it is small."""
    lines = [f"{board.height}x{board.width} board, goal {goal_text(goal, GOAL_TEXT_CELLS)}:"]
    if board.size <= DRAWN_CELLS:
        lines += ["  " + line for line in str(board).splitlines()]
    return lines


def time_fields(wall_seconds: float, cpu_seconds: float) -> dict[str, float]:
    """``wall_seconds`` and ``cpu_seconds``, to the microsecond, as every record gives times."""
    return {"wall_seconds": round(wall_seconds, 6), "cpu_seconds": round(cpu_seconds, 6)}


def entry_head(kind: str, entry: Entry | None) -> dict[str, Any]:
    """What every record of ``solve`` and ``check`` starts with: ``schema_version``, the kind of
    record, and where its position came from."""
    return {**record_head(kind), **origin_fields(entry)}


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


def record_head(kind: str) -> dict[str, Any]:
    """The head of every record: the schema's version and the kind of record."""
    return {"schema_version": SCHEMA_VERSION, "record": kind}


#: The longest input excerpt an ``invalid`` record carries.
INPUT_EXCERPT = 200


#: What the Manhattan distance is, where a text first names it.
MANHATTAN_MEANS = "how far each tile is from its goal cell, in rows and columns, summed"


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


#: Where a bug is reported.
ISSUES_URL = "the issue tracker of the repository npuzzle was installed from"


def internal_error_text(message: str) -> str:
    """An internal error (a bug in npuzzle, never a mistake in the input), with a request to
    report it."""
    return (f"{message}\nThis is a bug in npuzzle, not a problem with your input: please report it "
            f"with the command that gave it ({ISSUES_URL}).")
