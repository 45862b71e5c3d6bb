"""Labelled data sets of positions (``npuzzle dataset``): positions with their optimal distance
and optimal first moves (see ``search.labels``), written as JSON lines or Parquet.

Positions are uniform random solvable positions, or the ends of random walks of ``walk`` moves
from the goal (never undoing the previous move). Row ``i`` depends only on the seed, the source,
the shape and ``i``: rows are made in chunks of ``CHUNK``, chunk ``k`` from numpy's generator
seeded with ``SeedSequence(seed, spawn_key=(k,))``; so a data set is the same whatever the number
of processes, and a run that resumes an interrupted one (or extends a finished one to a larger
count) appends exactly the rows a single run would have written.

Rows go to ``FILE.part`` (JSON lines, flushed after each batch) while a run works; the output
``FILE`` appears only when the run is complete, by an atomic rename (``.jsonl``) or a Parquet file
written beside it and renamed. A rerun reads ``FILE.part`` (up to its last complete line) or
``FILE`` and carries on from there. One run writes a file at a time: a second run given the
same file while one works is refused at once, naming the other's pid (``locks``).

>>> spec = check_spec(Spec(2, 3, seed=1))
>>> rows = chunk_positions(spec, 0)
>>> spec.source, rows.shape[1], sorted(rows[0].tolist())
('uniform', 6, [0, 1, 2, 3, 4, 5])
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import resource
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import locks
from .board import Board, Goal, check_goal
from .errors import InvalidOptionError, NPuzzleError
from .instances import check_walk
from .meters import progress as meter
from .present import SCHEMA_VERSION
from .present.common import write_error_text
from .present.dataset import COLUMNS, PARAMETERS, RECORD, head_fields, resume_mismatch_text, row_line, row_prefix
from .search import labels, oracle
from .search.stepper import Boards, check_stepper_shape

#: Rows a generation chunk (never change it: row i of a seed would change).
CHUNK = 1024
#: The output formats, by the file name's ending.
FORMATS = (".jsonl", ".parquet")


@dataclass(frozen=True)
class Spec:
    """A data set's parameters: the shape, the seed, the source of positions, the goal."""

    height: int
    width: int
    seed: int
    walk: int | None = None  # None: uniform random positions
    goal: Goal = "standard"

    @property
    def source(self) -> str:
        return "uniform" if self.walk is None else "walk"

    @property
    def cells(self) -> int:
        return self.height * self.width


@dataclass(frozen=True)
class Summary:
    """What a run did (see ``present.dataset.summary_text``)."""

    path: str
    count: int
    new: int
    method: str
    wall_seconds: float
    cpu_seconds: float
    jobs: int = 1

    @property
    def optimal(self) -> bool:
        return self.method == "bfs-table" or self.method.startswith("idastar")


def check_spec(spec: Spec) -> Spec:
    check_stepper_shape(spec.height, spec.width)
    check_goal(spec.goal)
    if not isinstance(spec.seed, int) or not 0 <= spec.seed < 1 << 63:
        raise InvalidOptionError(f"seed={spec.seed!r}: give a whole number from 0 to 2**63-1")
    if spec.walk is not None:
        check_walk(spec.walk)
    return spec


# -- positions ------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=2)
def chunk_positions(spec: Spec, chunk: int) -> np.ndarray:
    """The tiles (``CHUNK`` x cells, int64) of rows ``chunk * CHUNK`` on (the last two chunks
    are kept: the units of a chunk read it in turn). Do not modify the array."""
    rng = np.random.default_rng(np.random.SeedSequence(spec.seed, spawn_key=(chunk,)))
    return draw_positions(rng, CHUNK, spec)


def draw_positions(rng: np.random.Generator, count: int, spec: Spec) -> np.ndarray:
    """``count`` positions (rows of tiles, int64) of ``spec``'s shape, goal and source, drawn from
    ``rng`` (``spec.seed`` is not read)."""
    if spec.walk is not None:
        boards = Boards(spec.height, spec.width, count, spec.goal)
        boards.scramble(spec.walk, rng.integers(0, 1 << 63, count, dtype=np.uint64))
        return boards.tiles.astype(np.int64)
    tiles = rng.permuted(np.tile(np.arange(spec.cells, dtype=np.int64), (count, 1)), axis=1)
    _make_solvable(tiles, spec)
    return tiles


def _make_solvable(tiles: np.ndarray, spec: Spec) -> None:
    """Swap the tiles of the first two cells without the blank in every unsolvable row: a
    one-to-one map of the unsolvable permutations onto the solvable ones, so the rows stay
    uniform among the solvable positions."""
    blank = np.argmax(tiles == 0, axis=1)
    goal_blank = Board.goal(spec.height, spec.width, spec.goal).blank
    w = spec.width
    dist = np.abs(blank // w - goal_blank // w) + np.abs(blank % w - goal_blank % w)
    goal_parity = 0 if spec.goal == "blank-first" else (spec.cells - 1) & 1
    unsolvable = (_parities(tiles) + goal_parity) & 1 != dist & 1
    rows = np.flatnonzero(unsolvable)
    first = np.where(blank[rows] == 0, 1, 0)
    second = np.where(blank[rows] <= 1, 2, 1)
    a, b = tiles[rows, first].copy(), tiles[rows, second].copy()
    tiles[rows, first], tiles[rows, second] = b, a


def _parities(tiles: np.ndarray) -> np.ndarray:
    """The parity of each row as a permutation of 0..cells-1: of its inversions on small boards,
    by ``Board.permutation_parity`` on larger ones."""
    count, n = tiles.shape
    if n > _VECTOR_PARITY_CELLS:
        return np.array([_row_parity(row) for row in tiles.tolist()], dtype=np.int64)
    inversions = np.zeros(count, dtype=np.int64)
    for i in range(n - 1):
        inversions += (tiles[:, i : i + 1] > tiles[:, i + 1 :]).sum(axis=1)
    return inversions & 1


#: Boards of up to this many cells have their rows' parities counted by numpy, O(cells^2) a row.
_VECTOR_PARITY_CELLS = 64


def _row_parity(row: list[int]) -> int:
    """``len(row)`` minus the number of cycles of the permutation, mod 2."""
    seen = bytearray(len(row))
    cycles = 0
    for start in range(len(row)):
        if seen[start]:
            continue
        cycles += 1
        x = start
        while not seen[x]:
            seen[x] = 1
            x = row[x]
    return (len(row) - cycles) & 1


# -- labelling ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    """Rows ``start..stop-1`` of a data set, all in one chunk: one piece of work."""

    spec: Spec
    start: int
    stop: int


def label_unit(unit: Unit) -> list[str]:
    """The JSON lines of a unit's rows (run in a worker process with ``--jobs``)."""
    spec = unit.spec
    chunk = unit.start // CHUNK
    tiles = chunk_positions(spec, chunk)[unit.start - chunk * CHUNK : unit.stop - chunk * CHUNK]
    lab = labels.label(tiles, spec.height, spec.width, spec.goal)
    prefix = row_prefix(spec)
    return [row_line(spec, unit.start + k, row, d, m, lo, n, lab.method, prefix)
            for k, (row, d, m, lo, n) in enumerate(zip(tiles.tolist(), lab.distance.tolist(), lab.moves.tolist(),
                                                       lab.lower_bound.tolist(), lab.length.tolist(), strict=True))]


def unit_rows(cells: int) -> int:
    """Rows a unit of work: a whole chunk from a table, fewer where each row is a search."""
    if cells <= oracle.MADE_TABLE_CELLS:
        return CHUNK
    return 16 if cells <= oracle.EXACT_CELLS else 1


def units(spec: Spec, start: int, stop: int) -> Iterator[Unit]:
    """The units of rows ``start..stop-1``, in order, none across a chunk's end."""
    size = unit_rows(spec.cells)
    i = start
    while i < stop:
        end = min(stop, (i // size + 1) * size)
        yield Unit(spec, i, end)
        i = end


# -- files ----------------------------------------------------------------------------------------


def check_output(path: str | Path) -> Path:
    """The output path, if it ends in ``.jsonl`` or ``.parquet`` (Parquet needs pyarrow)."""
    p = Path(path)
    if p.suffix not in FORMATS:
        raise InvalidOptionError(f"--out {p}: give a file ending in .jsonl (JSON lines) or .parquet")
    if p.suffix == ".parquet":
        _pyarrow()
    if p.is_dir():
        raise InvalidOptionError(f"--out {p} is a folder: give a file name")
    return p


def _pyarrow() -> object:
    try:
        import pyarrow
    except ImportError:
        raise NPuzzleError("writing .parquet needs pyarrow: pip install 'npuzzle[parquet]' (or write .jsonl)") from None
    return pyarrow


def part_path(path: Path) -> Path:
    """Where a run writes its rows until it is complete."""
    return path.with_name(path.name + ".part")


def existing_rows(path: Path, spec: Spec) -> list[str]:
    """The rows an earlier run left: ``FILE.part``'s complete lines (an interrupted last line
    dropped), else ``FILE``'s rows; each checked to belong to this data set, in order. A ``FILE``
    that is not such a data set is refused, never overwritten."""
    part = part_path(path)
    try:
        if part.exists():
            lines = _complete_lines(part, partial=True)
        elif not path.exists():
            return []
        elif path.suffix == ".parquet":
            lines = _parquet_lines(path)
        else:
            lines = _complete_lines(path, partial=False)
    except OSError as e:
        raise NPuzzleError(f"cannot read {e.filename or path}: {e.strerror or e}") from None
    _check_rows(lines, path, spec)
    return lines


def _complete_lines(path: Path, partial: bool) -> list[str]:
    """Every line, each a JSON object; in a ``partial`` file (``FILE.part``), up to the first that
    is not (a write cut short), elsewhere a line that is not refuses the file."""
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            try:
                whole = line.endswith("\n") and isinstance(json.loads(line), dict)
            except ValueError:
                whole = False
            if not whole:
                if partial:
                    break
                raise InvalidOptionError(f"{path}, line {number}: not a row of a data set; give another --out")
            out.append(line.rstrip("\n"))
    return out


def _check_rows(lines: list[str], path: Path, spec: Spec) -> None:
    if not lines:
        return
    first = json.loads(lines[0])
    wanted = {"schema_version": SCHEMA_VERSION, "record": RECORD, **head_fields(spec)}
    for field in PARAMETERS:
        if first.get(field) != wanted[field]:
            raise InvalidOptionError(resume_mismatch_text(str(path), field, first.get(field), wanted[field]))
    last = json.loads(lines[-1])
    if first.get("index") != 0 or last.get("index") != len(lines) - 1:
        raise InvalidOptionError(f"{path}: its rows are not numbered 0..{len(lines) - 1}: give another --out")


def _parquet_lines(path: Path) -> list[str]:
    """A Parquet data set's rows as JSON lines."""
    _pyarrow()
    import pyarrow.parquet as pq

    try:
        rows = pq.read_table(path).to_pylist()
    except OSError:
        raise
    except Exception as e:  # pyarrow's errors of a file that is no Parquet file
        raise InvalidOptionError(f"{path} is not a Parquet data set ({e}); give another --out") from None
    return [json.dumps(row, separators=(",", ":")) for row in rows]


def _write_parquet(part: Path, path: Path) -> None:
    """The rows of ``part`` as a Parquet file at ``path`` (written beside it, then renamed)."""
    _pyarrow()
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [json.loads(line) for line in _complete_lines(part, partial=False)]
    types = {"int": pa.int64(), "str": pa.string(), "bool": pa.bool_(), "ints": pa.list_(pa.int64())}
    schema = pa.schema([(name, types[kind]) for name, kind in COLUMNS])
    table = pa.table({name: [r[name] for r in rows] for name, _ in COLUMNS}, schema=schema)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        pq.write_table(table, tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write(spec: Spec, count: int, path: str | Path, *, jobs: int = 1, progress: bool = True) -> Summary:
    """Write (or complete) the data set of ``count`` rows of ``spec`` at ``path`` (``.jsonl`` or
    ``.parquet``), with ``jobs`` processes (0: every core); a bar on stderr if ``progress`` and
    stderr is a terminal."""
    check_spec(spec)
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_ROWS:
        raise InvalidOptionError(f"{count!r} positions: a data set holds from 1 to {MAX_ROWS:,}")
    out = check_output(path)
    with locks.held(out):  # one writer: a second run on the same file is refused at once
        return _write(spec, count, out, jobs, progress)


def _write(spec: Spec, count: int, out: Path, jobs: int, progress: bool) -> Summary:
    clock = (time.monotonic(), _cpu())
    lines = existing_rows(out, spec)
    if len(lines) > count:
        raise InvalidOptionError(f"{out} already holds {len(lines):,} positions, more than --count {count:,}: "
                                 "give a larger count, or another --out")
    part = part_path(out)
    if len(lines) == count and not part.exists():
        return _summary(out, count, 0, spec, clock, jobs)
    try:
        _restart(part, lines)
        _label_into(part, spec, len(lines), count, jobs, progress)
        if out.suffix == ".parquet":
            _write_parquet(part, out)
            part.unlink()
        else:
            os.replace(part, out)
    except OSError as e:
        raise NPuzzleError(write_error_text(e, str(out))) from None
    return _summary(out, count, count - len(lines), spec, clock, jobs)


#: The most rows of a data set.
MAX_ROWS = 10**10
#: Units of work handed to the workers at a time (so a huge count is never listed whole).
WINDOW = 256


def _label_into(part: Path, spec: Spec, start: int, count: int, jobs: int, progress: bool) -> None:
    """Append rows ``start..count-1`` to ``part``, flushed unit by unit, in order."""
    from .cluster import workers

    labels.prepare(spec.height, spec.width, spec.goal)  # before the workers fork: they share it
    todo = units(spec, start, count)
    with open(part, "a", encoding="utf-8") as f, meter(count - start, f"dataset {part.name}",
                                                       progress) as bar, workers(jobs) as executor:
        while batch := list(itertools.islice(todo, WINDOW)):
            for rows in map(label_unit, batch) if executor is None else executor.imap(label_unit, batch):
                f.write("\n".join(rows) + "\n")
                f.flush()
                bar.advance(len(rows))
        os.fsync(f.fileno())


def _restart(part: Path, lines: list[str]) -> None:
    """``part`` holding exactly ``lines`` (an interrupted line dropped; a finished file's rows copied)."""
    tmp = part.with_name(f".{part.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in lines))
    os.replace(tmp, part)


def _cpu() -> float:
    """CPU seconds of this process and of its finished worker processes."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _summary(out: Path, count: int, new: int, spec: Spec, clock: tuple[float, float], jobs: int) -> Summary:
    from .search.split import workers_for

    return Summary(str(out), count, new, labels.method_for(spec.height, spec.width, spec.goal),
                   time.monotonic() - clock[0], _cpu() - clock[1], workers_for(jobs, True))
