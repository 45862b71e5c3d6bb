"""The records and text of labelled data sets (``npuzzle dataset``): one ``labelled-position``
record a row, and the summary of a run.

A row's JSON line is written by ``row_line`` without building a dict (a 3x3 data set is written
at hundreds of thousands of rows a second); it reads back as exactly ``row_record``'s dict.

>>> from npuzzle.dataset import Spec
>>> spec = Spec(2, 2, seed=1)
>>> row_record(spec, 0, [1, 2, 0, 3], 1, 1 << 2, 1, 1, "bfs-table")["optimal_moves"]
'L'
>>> import json
>>> json.loads(row_line(spec, 0, [1, 2, 0, 3], 1, 1 << 2, 1, 1, "bfs-table")) == row_record(
...     spec, 0, [1, 2, 0, 3], 1, 1 << 2, 1, 1, "bfs-table")
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from . import SCHEMA_VERSION
from .common import count_text, times_text


class Spec(Protocol):
    """A data set's parameters (``dataset.Spec``)."""

    @property
    def height(self) -> int: ...

    @property
    def width(self) -> int: ...

    @property
    def seed(self) -> int: ...

    @property
    def walk(self) -> int | None: ...

    @property
    def goal(self) -> str: ...

    @property
    def source(self) -> str: ...


class Summary(Protocol):
    """What a run did (``dataset.Summary``)."""

    @property
    def path(self) -> str: ...

    @property
    def count(self) -> int: ...

    @property
    def new(self) -> int: ...

    @property
    def method(self) -> str: ...

    @property
    def wall_seconds(self) -> float: ...

    @property
    def cpu_seconds(self) -> float: ...

    @property
    def jobs(self) -> int: ...

    @property
    def optimal(self) -> bool: ...


RECORD = "labelled-position"
#: The fields that a run resumes only if they agree (the data set's parameters).
PARAMETERS = ("schema_version", "record", "seed", "source", "walk", "shape", "goal")
#: A row's fields in order, with their types (the columns of a Parquet data set).
COLUMNS = (("schema_version", "int"), ("record", "str"), ("index", "int"), ("seed", "int"), ("source", "str"),
           ("walk", "int"), ("shape", "str"), ("height", "int"), ("width", "int"), ("goal", "str"),
           ("tiles", "ints"), ("distance", "int"), ("optimal_moves", "str"), ("lower_bound", "int"),
           ("length", "int"), ("optimal", "bool"), ("labelled_by", "str"))


def moves_letters(mask: int) -> str:
    """The actions of a mask (bit 0 ``U``, 1 ``D``, 2 ``L``, 3 ``R``) as letters in that order.

    >>> moves_letters(0b1001)
    'UR'
    """
    return "".join(ch for a, ch in enumerate("UDLR") if mask >> a & 1)


def head_fields(spec: Spec) -> dict[str, Any]:
    """The fields every row of a data set shares (its parameters and shape)."""
    return {"seed": spec.seed, "source": spec.source, "walk": spec.walk, "shape": f"{spec.height}x{spec.width}",
            "height": spec.height, "width": spec.width, "goal": spec.goal}


def row_record(spec: Spec, index: int, tiles: Sequence[int], distance: int, moves: int, lower_bound: int,
               length: int, labelled_by: str) -> dict[str, Any]:
    """One labelled position: ``distance`` -1 means not known (then ``optimal_moves`` is null and
    ``lower_bound`` and ``length`` bracket the distance); ``length`` -1: no solution found (null)."""
    known = distance >= 0
    return {"schema_version": SCHEMA_VERSION, "record": RECORD, "index": index, **head_fields(spec),
            "tiles": [int(t) for t in tiles], "distance": distance if known else None,
            "optimal_moves": moves_letters(moves) if known else None, "lower_bound": lower_bound,
            "length": length if length >= 0 else None, "optimal": known, "labelled_by": labelled_by}


def row_prefix(spec: Spec) -> tuple[str, str]:
    """The constant text of a row before its index, and from after the index to its tiles."""
    head = json.dumps(head_fields(spec), separators=(",", ":"))[1:-1]
    return (f'{{"schema_version":{SCHEMA_VERSION},"record":"{RECORD}","index":', f',{head},"tiles":[')


def row_line(spec: Spec, index: int, tiles: Sequence[int], distance: int, moves: int, lower_bound: int,
             length: int, labelled_by: str, prefix: tuple[str, str] | None = None) -> str:
    """``row_record`` as one compact JSON line (no newline); ``prefix`` is ``row_prefix(spec)``."""
    start, middle = prefix or row_prefix(spec)
    if distance >= 0:
        label = f'"distance":{distance},"optimal_moves":"{moves_letters(moves)}"'
    else:
        label = '"distance":null,"optimal_moves":null'
    found = length if length >= 0 else "null"
    optimal = "true" if distance >= 0 else "false"
    return (f'{start}{index}{middle}{",".join(map(str, tiles))}],{label},"lower_bound":{lower_bound},'
            f'"length":{found},"optimal":{optimal},"labelled_by":"{labelled_by}"}}')


def summary_text(summary: Summary) -> str:
    """What a run did: the rows written and kept, the labels, the time.

    >>> from npuzzle.dataset import Summary
    >>> print(summary_text(Summary("d.jsonl", 100, 60, "bfs-table", 0.5, 0.4, 2)))
    d.jsonl: 100 positions (60 new, 40 kept from an earlier run), labelled by bfs-table (optimal)
      0.500 s (0.400 s CPU) on 2 processes
    """
    kept = summary.count - summary.new
    how = "optimal" if summary.optimal else "a lower bound and a near-optimal length"
    head = f"{summary.path}: {count_text(summary.count, 'position')}"
    parts = f" ({summary.new:,} new, {kept:,} kept from an earlier run)" if kept else ""
    workers = f" on {summary.jobs} processes" if summary.jobs > 1 else ""
    return (f"{head}{parts}, labelled by {summary.method} ({how})\n"
            f"  {times_text(summary.wall_seconds, summary.cpu_seconds)}{workers}")


def resume_mismatch_text(path: str, field: str, found: object, wanted: object) -> str:
    """Why a run does not resume an existing file."""
    return (f"{path} holds a data set with {field} {json.dumps(found)}, not {json.dumps(wanted)}: give the "
            "same options to resume it, or another --out")
