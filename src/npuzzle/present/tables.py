"""The table store as a user sees it (``npuzzle tables``): each stored table's name, size, date and
state, the list, what a build is about to do and costs, and the progress bar of a long build.

>>> progress_bar_text("pdb:5-5-5 4x4", 3, 4, 12.5, "pattern 1.2.3.4.5: level 20")
'pdb:5-5-5 4x4 [######################        ]  75.0%   12.5s pattern 1.2.3.4.5: level 20'
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..board import Goal
from .common import (
    count_text,
    record_head,
)

if TYPE_CHECKING:
    from ..tables import TableInfo


def table_record(info: TableInfo) -> dict[str, Any]:
    """A stored table as a JSON record of ``tables list --json`` (see ``table_info_record``)."""
    return {**record_head("table"), **table_info_record(info)}


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


def progress_bar_text(label: str, done: int, total: int, seconds: float, note: str = "") -> str:
    """One frame of a long build's progress bar (a terminal redraws it in place): the label, 30
    marks for the share done, the percentage, the seconds since it started and a note."""
    share = min(done / max(total, 1), 1.0)
    bar = "#" * int(30 * share)
    return f"{label} [{bar:<30}] {100 * share:5.1f}% {seconds:6.1f}s {note}"
