"""Experiment grids: several methods, heuristics, prunings, weights and cost models over several
instance sets in one run (``npuzzle bench`` given lists), one row per run, resumable.

A grid is a list of sets (``parse_set``: ``korf100``, ``korf50``, ``kt10``, ``random:HxW:COUNT:SEED``
or a file of positions) and one list of values per axis (``AXES``: the method, then ``Request``
fields by name). Every set is run with every combination of the values, each combination's runs
together, in a fixed order. A value an axis's field has no meaning for (the weight of IDA*, the
heuristic of the beam) is recorded as ``None`` and the combinations it would tell apart are one.

>>> random_set = parse_set("random:2x3:2:7")
>>> random_set.name, len(random_set.items), random_set.items[0].board.shape
('random:2x3:2:7', 2, (2, 3))
>>> [axis.name for axis in AXES]
['method', 'heuristic', 'pruning', 'weight', 'cost']
>>> [c["pruning"] for c in combinations(random_set, {"method": ["idastar", "astar"], "pruning": ["parent"]})]
['parent', None]
"""

from __future__ import annotations

import dataclasses
import math
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import locks
from .board import Board, Goal, check_goal
from .errors import InvalidOptionError, NPuzzleError, quote_input
from .search.limits import INTERRUPTED, Limit, ProgressCallback, Solution
from .search.registry import Request

if TYPE_CHECKING:
    from .search.problem import Problem
    from .search.split import Executor

#: The named sets; ``kt10`` is Korf & Taylor's ten 24-puzzles (1996), the first ten of ``korf50``.
NAMED_SETS: dict[str, tuple[str, int | None]] = {"korf100": ("korf100", None), "korf50": ("korf50", None),
                                                 "kt10": ("korf50", 10)}
SETS_HELP = "korf100, korf50, kt10 (the first ten of korf50), random:HxW:COUNT:SEED or a file of positions"
#: The most positions a ``random:`` set draws.
MAX_RANDOM = 1_000_000


@dataclass(frozen=True)
class Item:
    """One position of a set: its number in the set (from 1), the goal, and what is published
    about it (``None`` where nothing is)."""

    set: str
    number: int
    board: Board
    goal: Goal
    optimum: int | None = None
    korf_nodes: int | None = None  # IDA* with the Manhattan distance: Korf's count (recomputed)
    published_nodes: int | None = None


@dataclass(frozen=True)
class GridSet:
    name: str
    items: tuple[Item, ...]
    #: The benchmark set whose default heuristic a run uses unless the grid names one
    #: (``benchmark.default_heuristic``); "" for ``auto``.
    base: str = ""

    def default_heuristic(self) -> str:
        from .benchmark import default_heuristic

        return default_heuristic(self.base) if self.base else "auto"


def parse_set(spec: str, goal: Goal | None = None) -> GridSet:
    """The set ``spec`` names (see ``SETS_HELP``). ``goal``: the goal of a random set or a file's
    positions (default standard); the named sets are Korf's blank-first boards, turned 180 degrees
    onto the standard goal if ``goal`` is ``standard`` (the same lengths; node counts are then no
    longer Korf's)."""
    if goal is not None:
        check_goal(goal)
    if spec in NAMED_SETS:
        return _named(spec, goal)
    if spec.startswith("random:"):
        return _random(spec, goal or "standard")
    if spec and _is_file(spec):
        return _file(spec, goal or "standard")
    raise InvalidOptionError(f"unknown set {quote_input(spec)}: use {SETS_HELP}")


def _named(spec: str, goal: Goal | None) -> GridSet:
    from .instances import benchmark_set

    base, first = NAMED_SETS[spec]
    turn = goal is not None and goal != "blank-first"
    items = tuple(Item(spec, i.id, i.board.converted() if turn else i.board, goal if turn and goal else i.goal,
                       i.optimal_length, None if turn else i.recomputed_nodes, i.published_nodes)
                  for i in benchmark_set(base) if first is None or i.id <= first)
    return GridSet(spec, items, base)


def _is_file(path: str) -> bool:
    try:
        return Path(path).is_file()
    except (OSError, ValueError):  # a name too long, a NUL byte
        return False


def _random(spec: str, goal: Goal) -> GridSet:
    from .instances import scramble
    from .notation import parse_shape

    parts = spec.split(":")
    if len(parts) != 4:
        raise InvalidOptionError(f"bad set {quote_input(spec)}: write random:HxW:COUNT:SEED, e.g. random:3x3:20:1")
    try:
        shape = parse_shape(parts[1])
    except NPuzzleError as e:
        raise InvalidOptionError(f"bad set {quote_input(spec)}: {e}") from None
    count, seed = (_whole(text, what, spec) for text, what in ((parts[2], "COUNT"), (parts[3], "SEED")))
    if not 1 <= count <= MAX_RANDOM:
        raise InvalidOptionError(f"bad set {quote_input(spec)}: COUNT must be from 1 to {MAX_RANDOM:,}")
    if seed >= 1 << 63:
        raise InvalidOptionError(f"bad set {quote_input(spec)}: SEED must be below 2**63")
    boards = scramble(*shape, count, seed=seed, goal=goal)
    return GridSet(spec, tuple(Item(spec, n, b, goal) for n, b in enumerate(boards, 1)))


def _whole(text: str, what: str, spec: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 20:
        raise InvalidOptionError(f"bad set {quote_input(spec)}: {what} {quote_input(text)} is not a whole number")
    return int(text)


def _file(path: str, goal: Goal) -> GridSet:
    from .notation import read_entries

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InvalidOptionError(f"cannot read the set {quote_input(path)}: {e}") from None
    entries = read_entries(text, source=path)
    for entry in entries:
        if entry.board is None:
            raise InvalidOptionError(f"{entry.where}: {entry.error}")
        reason = entry.board.unsolvable_reason(goal)
        if reason:
            raise InvalidOptionError(f"{entry.where}: the position cannot reach the {goal} goal: {reason}")
    if not entries:
        raise InvalidOptionError(f"the set {quote_input(path)} holds no position")
    return GridSet(path, tuple(Item(path, n, e.board, goal) for n, e in enumerate(entries, 1) if e.board))


def selected(grid_set: GridSet, ids: Sequence[int] | None) -> GridSet:
    """The set with only the positions numbered ``ids`` (all if None), in the set's order."""
    if ids is None:
        return grid_set
    missing = sorted(set(ids) - {i.number for i in grid_set.items})
    if missing:
        raise InvalidOptionError(f"{grid_set.name} has no instance {missing[0]} (it has 1 to {len(grid_set.items)})")
    wanted = set(ids)
    return dataclasses.replace(grid_set, items=tuple(i for i in grid_set.items if i.number in wanted))


# -- the axes -------------------------------------------------------------------------------------


def _method(text: str) -> str:
    from .search.registry import METHODS, method

    if text not in METHODS:
        method(text)  # InvalidOptionError naming the choices
    return text


def _heuristic(text: str) -> str:
    from .heuristics.registry import parse

    return text if text == "auto" else parse(text).name


def _pruning(text: str) -> str:
    from .search.registry import check_pruning

    return check_pruning(text)


def _weight(text: str) -> float:
    from .arguments import MAX_WEIGHT

    try:
        value = float(text)
    except ValueError:
        raise InvalidOptionError(f"bad weight {quote_input(text)}: write a number from 1 to {MAX_WEIGHT:g}") from None
    if not 1 <= value <= MAX_WEIGHT:
        raise InvalidOptionError(f"bad weight {quote_input(text)}: a weight is from 1 to {MAX_WEIGHT:g}")
    return value


def _cost(text: str) -> str:
    if "cost" not in request_fields() and text != "unit":
        raise InvalidOptionError(f"unknown cost model {quote_input(text)}: only unit (every move costs 1) for now")
    from .costs import check_cost

    return check_cost(text)


@dataclass(frozen=True)
class Axis:
    """One axis of a grid: the name of its column (``method``, or a ``Request`` field's, passed to
    ``search.solve`` by that name), its default value, and the check of one value's text."""

    name: str
    default: Any
    parse: Callable[[str], Any]


#: The grid's axes, in their columns' order. ``heuristic``'s default ``None`` is each set's own;
#: ``cost`` is passed to ``search.solve`` once ``Request`` has a field of that name.
AXES: tuple[Axis, ...] = (Axis("method", "idastar", _method), Axis("heuristic", None, _heuristic),
                          Axis("pruning", "auto", _pruning), Axis("weight", 1.0, _weight),
                          Axis("cost", "unit", _cost))
AXIS_NAMES = tuple(axis.name for axis in AXES)
#: An axis's value for a method that takes no such option: ``None``, but for the heuristic ``"-"``.
NOT_TAKEN = {"heuristic": "-"}


def request_fields() -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(Request))


def parse_axes(texts: dict[str, str | None]) -> dict[str, list[Any]]:
    """Each axis's values from its comma-separated text (``None``: its default), checked, in the
    order given, repeats dropped (``InvalidOptionError`` naming the axis and the value)."""
    values: dict[str, list[Any]] = {}
    for axis in AXES:
        text = texts.get(axis.name)
        if text is None:
            values[axis.name] = [axis.default]
            continue
        parts = [part.strip() for part in text.split(",")]
        if not all(parts):
            raise InvalidOptionError(f"--{axis.name} {quote_input(text)} has an empty value: write e.g. a,b")
        parsed = []
        for part in parts:
            try:
                value = axis.parse(part)
            except NPuzzleError as e:
                raise InvalidOptionError(f"--{axis.name}: {e}") from None
            if value not in parsed:
                parsed.append(value)
        values[axis.name] = parsed
    return values


def combinations(grid_set: GridSet, values: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """Every combination of the axes' values for ``grid_set`` (missing axes: their default), the
    first axis slowest; a value the method takes no option for is ``NOT_TAKEN``'s, repeats dropped."""
    out: list[dict[str, Any]] = []
    for combo in _product([(a.name, values.get(a.name) or [a.default]) for a in AXES]):
        combo["heuristic"] = combo["heuristic"] or grid_set.default_heuristic()
        taken = _taken(combo["method"], grid_set)
        fields = request_fields()
        for name in AXIS_NAMES[1:]:
            if name in fields and name not in taken:
                combo[name] = NOT_TAKEN.get(name)
        if combo not in out:
            out.append(combo)
    return out


def _product(axes: list[tuple[str, list[Any]]]) -> Iterator[dict[str, Any]]:
    if not axes:
        yield {}
        return
    (name, options), rest = axes[0], axes[1:]
    for value in options:
        for tail in _product(rest):
            yield {name: value, **tail}


def _taken(method: str, grid_set: GridSet) -> frozenset[str]:
    """The options ``method`` takes (``auto``: the method it picks for the set's first board)."""
    from .search.problem import prepare
    from .search.registry import REGISTRY

    if method == "auto" and grid_set.items:
        first = grid_set.items[0]
        method = prepare(first.board, Request(goal=first.goal, heuristic="manhattan"), "auto").method
    return REGISTRY[method].options if method in REGISTRY else frozenset()


def solve_options(combo: dict[str, Any]) -> dict[str, Any]:
    """A combination as ``search.solve``'s keyword arguments (the method's, and the ``Request``
    fields it takes)."""
    fields = request_fields()
    return {"method": combo["method"],
            **{k: v for k, v in combo.items() if k != "method" and k in fields and v not in (None, "-")}}


def request_for(combo: dict[str, Any], goal: Goal, timeout: float | None = None) -> tuple[str, Request]:
    """A combination's method and its ``Request`` for a position of ``goal`` (with the time limit)."""
    options = solve_options(combo)
    method = options.pop("method")
    return method, Request(goal=goal, limit=Limit(timeout=timeout), **options)


# -- the runs ---------------------------------------------------------------------------------------

#: A row's columns and their types, in order: the key (``KEY``: the set, the goal, the instance
#: and every axis), then the outcome. ``None`` (an empty CSV field) where a value does not apply.
COLUMNS: tuple[tuple[str, type], ...] = (
    ("set", str), ("goal", str), ("instance", int), ("method", str), ("heuristic", str), ("pruning", str),
    ("weight", float), ("cost", str), ("heuristic_used", str), ("status", str), ("verdict", str), ("length", int),
    ("cost_total", float), ("optimal", bool), ("published_optimum", int),
    ("initial_lower_bound", int), ("lower_bound", int), ("cost_bound", float), ("ratio", float),
    ("expanded", int), ("generated", int), ("cpu_seconds", float),
    ("wall_seconds", float), ("peak_memory", int), ("korf_nodes", int), ("nodes_ok", bool),
    ("published_nodes", int), ("error", str))
KEY: tuple[str, ...] = ("set", "goal", "instance", *AXIS_NAMES)
#: A run's status: solved, stopped by a limit (``--timeout``), or refused with an error.
STATUSES = ("solved", "limit", "error")


@dataclass(frozen=True)
class Task:
    """One run for a worker: the position, the method and the request (its goal, options and time
    limit), prepared and solved in the worker."""

    board: Board
    method: str
    request: Request


@dataclass(frozen=True)
class Outcome:
    """A run's answer: the solution, or the error that stopped it; the process's peak memory."""

    solution: Solution | None
    error: str
    peak_memory: int | None


def run_task(task: Task, on_progress: ProgressCallback | None = None) -> Outcome:
    """One run, in this process (a worker's side of ``run``)."""
    from .search import prepare, run

    try:
        solution = run(prepare(task.board, dataclasses.replace(task.request, on_progress=on_progress), task.method))
    except NPuzzleError as e:
        return Outcome(None, str(e), peak_memory())
    return Outcome(solution, "", peak_memory())


def peak_memory() -> int | None:
    """This process's peak resident memory in bytes (its high-water mark: the tables it loaded and
    every earlier run in it count), None where the system does not tell."""
    try:
        import resource
    except ImportError:
        return None
    peak = int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    return peak if sys.platform == "darwin" else peak * 1024


def row(item: Item, combo: dict[str, Any], outcome: Outcome) -> dict[str, Any]:
    """A run's row (``COLUMNS``)."""
    from .benchmark import counts_korf_nodes
    from .present.grid import bound_name

    out: dict[str, Any] = {name: None for name, _ in COLUMNS}
    unit = combo.get("cost") in (None, "unit")  # else the published lengths and counts are not this problem's
    out.update(set=item.set, goal=item.goal, instance=item.number, **combo, published_optimum=item.optimum if unit
               else None, published_nodes=item.published_nodes if unit else None, peak_memory=outcome.peak_memory)
    s = outcome.solution
    if s is None:  # nothing searched: no nodes, no time, the trivial bound
        return {**out, "status": "error", "verdict": "error", "error": outcome.error, "optimal": False,
                "initial_lower_bound": 0, "lower_bound": 0, "expanded": 0,
                "generated": 0, "cpu_seconds": 0.0, "wall_seconds": 0.0}
    bound = max(s.lower_bound, s.initial_lower_bound, math.ceil(s.cost_bound or 0) if unit else 0)
    reference = item.optimum if item.optimum is not None and unit else bound
    korf = unit and combo["method"] == "idastar" and counts_korf_nodes("idastar", combo["heuristic"],
                                                                       combo["pruning"] or "")
    ratio = (round(s.length / reference, 4) if reference and s.length is not None else None) if unit else s.ratio
    out.update(status="solved" if s.solved else "limit", length=s.length if s.solved else None, optimal=s.optimal,
               cost_total=s.cost_total if s.solved else None, lower_bound=bound,
               initial_lower_bound=s.initial_lower_bound,
               cost_bound=s.cost_bound if not unit else None, heuristic_used=bound_name(s.heuristic, s.cost),
               ratio=ratio if s.solved and s.length is not None else None, expanded=s.stats.expanded,
               generated=s.stats.generated,
               cpu_seconds=round(s.stats.seconds, 6), wall_seconds=round(s.stats.wall_seconds, 6))
    if korf and item.korf_nodes is not None and s.solved:
        out.update(korf_nodes=item.korf_nodes, nodes_ok=s.stats.generated == item.korf_nodes)
    return {**out, "verdict": verdict(out)}


# -- the verdicts ---------------------------------------------------------------------------------

#: A row's verdict: ``ok`` (within what its method guarantees), ``limit``, ``error``, or a failure
#: (``FAILURES``): ``differs`` (an optimal method's answer is not the published optimum or the
#: bound it proved),
#: ``over-bound`` (a bounded-suboptimal answer beyond its weight times the optimum or its own proven
#: bound), ``below-optimum`` (shorter than the optimum or cheaper than the bound proven: impossible),
#: ``nodes-differ`` (Korf's node count not reproduced).
FAILURES = ("differs", "over-bound", "below-optimum", "nodes-differ")
VERDICTS = ("ok", "limit", "error", *FAILURES)
#: Room for rounding when a cost is compared with a bound (costs are sums of fractions).
_SLACK = 1e-6


def verdict(values: dict[str, Any]) -> str:
    """A row's verdict (``VERDICTS``): a solved run is checked against what its method guarantees
    (``search.registry.quality_bound``: the optimum for an optimal method, ``weight`` times it for a
    bounded-suboptimal one, nothing above it for the beam and real time; ``auto`` by the proof its
    answer carries), against the published optimum under unit costs and against the bound it
    proved itself (the least cost, under a cost model); a stopped run is ``limit``."""
    if values["status"] != "solved":
        return str(values["status"])
    if values.get("nodes_ok") is False:
        return "nodes-differ"
    factor = _factor(values)
    value = values["cost_total"] if values.get("cost_total") is not None else values["length"]
    proven = values.get("cost_bound")
    proven = proven if proven is not None else (values["lower_bound"] if values.get("cost") in (None, "unit")
                                                else None)
    optimum = values.get("published_optimum")
    if (optimum is not None and values["length"] < optimum) or (proven is not None and value < proven - _SLACK):
        return "below-optimum"
    if factor is None:
        return "ok"
    if optimum is not None and values["length"] > factor * optimum + _SLACK:
        return "differs" if factor == 1 else "over-bound"
    if proven is not None and value > factor * proven + _SLACK * max(1.0, value):
        return "differs" if factor == 1 else "over-bound"
    return "ok"


def _factor(values: dict[str, Any]) -> float | None:
    """At most how many times the optimum the row's answer may be (None: no bound)."""
    from .search.registry import quality_bound

    if values.get("optimal"):
        return 1.0
    return quality_bound(values["method"], values.get("weight"))


def failed(values: dict[str, Any]) -> bool:
    """Whether a row is a failure: an error, or a verdict in ``FAILURES``."""
    return values["status"] == "error" or values.get("verdict") in FAILURES


def outcome(rows: Sequence[dict[str, Any]]) -> str:
    """A grid's outcome: ``failed`` if a run failed (``failed``), else ``limit`` if a run was stopped
    by a limit, else ``ok``."""
    if any(failed(r) for r in rows):
        return "failed"
    return "limit" if any(r["status"] == "limit" for r in rows) else "ok"


def key(values: dict[str, Any]) -> tuple[str, ...]:
    """A row's key (``KEY``) as text, the same from a row made here and one read back from a file."""
    from .present.grid import field_text

    return tuple(field_text(values.get(name)) for name in KEY)


@dataclass(frozen=True)
class Planned:
    item: Item
    combo: dict[str, Any]


def plan(sets: Sequence[GridSet], values: dict[str, list[Any]]) -> list[Planned]:
    """Every run of the grid in order (set, combination, instance), each combination checked once
    on the set's first position (``search.problem.prepare``: an option a method refuses, a board
    too large, a pattern database not built) before anything is solved."""
    from .search.problem import prepare

    runs: list[Planned] = []
    for grid_set in sets:
        seen: list[dict[str, Any]] = []
        for combo in combinations(grid_set, values):
            if grid_set.items:
                first = grid_set.items[0]
                try:
                    method, request = request_for(combo, first.goal)
                    problem = prepare(first.board, request, method)
                    _check_tables(problem)
                except NPuzzleError as e:
                    raise type(e)(f"{grid_set.name} with {_combo_text(combo)}: {e}") from None
                combo = pruning_used(combo, problem)
            if combo not in seen:
                seen.append(combo)
                runs.extend(Planned(item, combo) for item in grid_set.items)
    return runs


def pruning_used(combo: dict[str, Any], problem: Problem) -> dict[str, Any]:
    """The combination with the pruning its searches use in place of ``auto`` (the same on every
    position of a set: it depends on the bound and the board's size; under a cost model IDA*
    prunes only the move undoing the last one)."""
    if combo.get("pruning") != "auto":
        return combo
    return {**combo, "pruning": problem.pruning if problem.request.cost == "unit" else "parent"}


def _check_tables(problem: Problem) -> None:
    """``MissingTableError`` naming the build if the problem's pattern database is not built (a
    search would fail on every position of the set). Under a cost model other than ``unit`` the
    tables are the cost-aware ones, made on first use."""
    from .errors import MissingTableError
    from .heuristics import pattern_db

    spec, start, target = problem.heuristic, problem.start, problem.target
    if problem.request.cost != "unit":
        return
    if spec is not None and spec.pdb is not None and not pattern_db.is_built(spec.pdb, *start.shape, target):
        raise MissingTableError(f"pdb:{spec.pdb} is not built for {start.height}x{start.width} ({target} goal): "
                                f"{pattern_db.build_command(spec.pdb, *start.shape, target)}")


def _combo_text(combo: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in combo.items() if v is not None)


def solve_runs(runs: Sequence[Planned], *, timeout: float | None = None, executor: Executor | None = None,
               on_progress: ProgressCallback | None = None) -> Iterator[dict[str, Any]]:
    """Each run's row, in order: by ``executor``'s workers (one run each), or here, calling
    ``on_progress`` during each search. A search interrupted (Ctrl-C) raises ``KeyboardInterrupt``
    before its row."""
    tasks = [Task(p.item.board, *request_for(p.combo, p.item.goal, timeout)) for p in runs]
    outcomes = (executor.imap(run_task, tasks) if executor is not None
                else (run_task(t, on_progress) for t in tasks))
    for planned, outcome in zip(runs, outcomes, strict=True):
        if outcome.solution is not None and outcome.solution.status == INTERRUPTED:
            raise KeyboardInterrupt
        yield row(planned.item, planned.combo, outcome)


# -- the output file ------------------------------------------------------------------------------

#: The output formats, by the file name's extension.
FORMATS = (".csv", ".jsonl")


class Results:
    """A grid's output file (``.csv`` or ``.jsonl``): the rows already in it, read back (a partial
    last line, from a run interrupted while writing it, is cut off), and each new row appended and
    flushed at once. One writer per file: the file is claimed (``locks``) when first read or
    written, so a second grid on it is refused at once with this one's pid, and let go by
    ``close`` (``run`` closes it when it ends)."""

    def __init__(self, path: str) -> None:
        self.path = Path(path)
        self.format = self.path.suffix.lower()
        if self.format not in FORMATS:
            raise InvalidOptionError(f"--out {quote_input(path)}: the file's name must end in .csv or .jsonl "
                                     "(its format)")
        self.discarded = 0  # characters of a partial last line cut off
        self._rows: list[dict[str, Any]] | None = None
        self._claim: locks.Claim | None = None

    def claim(self) -> None:
        """Become the file's one writer (``OutputBusyError`` if another process is)."""
        if self._claim is None:
            self._claim = locks.claim(self.path)

    def close(self) -> None:
        """Let the file go (another run may then write it)."""
        if self._claim is not None:
            self._claim.release()
            self._claim = None

    def read(self) -> list[dict[str, Any]]:
        """The rows in the file when it was first read (none if there was no file), each typed as
        ``COLUMNS``; a partial last line is cut off the file then."""
        if self._rows is None:
            self.claim()
            self._rows = self._read()
        return self._rows

    def _read(self) -> list[dict[str, Any]]:
        from .present import grid as present

        try:
            text = self.path.read_text(encoding="utf-8") if self.path.exists() else ""
        except (OSError, UnicodeDecodeError) as e:
            raise InvalidOptionError(f"cannot read --out {quote_input(str(self.path))}: {e}") from None
        complete = text[:text.rfind("\n") + 1]
        if len(complete) < len(text):
            self.discarded = len(text) - len(complete)
            self._write(complete, "w")
        reader = present.read_csv if self.format == ".csv" else present.read_jsonl
        try:
            return reader(complete, COLUMNS)
        except ValueError as e:
            raise InvalidOptionError(f"--out {quote_input(str(self.path))} is not a grid's output: {e}; "
                                     "give another file") from None

    def append(self, values: dict[str, Any]) -> None:
        from .present import grid as present

        self.claim()
        new = not self.path.exists() or self.path.stat().st_size == 0
        if self.format == ".csv":
            text = (present.csv_header(COLUMNS) if new else "") + present.csv_line(values, COLUMNS)
        else:
            text = present.jsonl_line(values)
        self._write(text, "a")

    def _write(self, text: str, mode: str) -> None:
        from .present.common import write_error_text

        try:
            with open(self.path, mode, encoding="utf-8", newline="") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
        except OSError as e:
            raise NPuzzleError(write_error_text(e, str(self.path))) from None


# -- the whole run and its summary ----------------------------------------------------------------------


@dataclass
class Grid:
    """A grid run's rows, in the grid's order (those read back from the output file among them),
    and how many of them were skipped as already there."""

    rows: list[dict[str, Any]]
    skipped: int
    new: int


def run(runs: Sequence[Planned], *, results: Results | None = None, timeout: float | None = None,
        executor: Executor | None = None, on_progress: ProgressCallback | None = None,
        on_row: Callable[[dict[str, Any]], None] | None = None) -> Grid:
    """Solve the runs not yet in ``results`` (each row appended to it as soon as it is known, and
    given to ``on_row``); the rows of every run of the grid, in its order."""
    done = {key(r): r for r in (results.read() if results is not None else [])}
    keys = [key({"set": p.item.set, "goal": p.item.goal, "instance": p.item.number, **p.combo}) for p in runs]
    pending = [p for p, k in zip(runs, keys, strict=True) if k not in done]
    new = 0
    try:
        for values in solve_runs(pending, timeout=timeout, executor=executor, on_progress=on_progress):
            if results is not None:
                results.append(values)
            done[key(values)] = values
            new += 1
            if on_row is not None:
                on_row(values)
    finally:
        if results is not None:
            results.close()
    return Grid([done[k] for k in keys], len(runs) - len(pending), new)


def summary(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One group per set and combination of the axes, in the rows' order: runs, solved, stopped by
    a limit, errors, failures (``failed``), expanded and generated nodes (totals, and the mean
    expanded over the runs that counted any), CPU seconds, the mean ratio and the mean cost (the
    length under ``unit``) of the solved runs, and lengths equal to the optimum
    published (None where none is)."""
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(key(r)[:2] + key(r)[3:], []).append(r)
    out = []
    for members in groups.values():
        head = {name: members[0][name] for name in ("set", "goal", *AXIS_NAMES)}
        counted = [r for r in members if r["status"] != "error"]
        ratios = [r["ratio"] for r in members if r["status"] == "solved" and r["ratio"] is not None]
        costs = [r["cost_total"] if r["cost_total"] is not None else r["length"] for r in members
                 if r["status"] == "solved"]
        known = [r for r in members if r["published_optimum"] is not None]
        out.append({**head, "runs": len(members), "solved_runs": sum(r["status"] == "solved" for r in members),
                    "limit_runs": sum(r["status"] == "limit" for r in members),
                    "error_runs": sum(r["status"] == "error" for r in members),
                    "failed_runs": sum(failed(r) for r in members),
                    "expanded": sum(r["expanded"] for r in counted),
                    "mean_expanded": round(sum(r["expanded"] for r in counted) / len(counted), 1) if counted else None,
                    "generated": sum(r["generated"] for r in counted),
                    "cpu_seconds": round(sum(r["cpu_seconds"] or 0.0 for r in members), 6),
                    "mean_ratio": round(sum(ratios) / len(ratios), 4) if ratios else None,
                    "mean_cost": round(sum(costs) / len(costs), 4) if costs else None,
                    "optima_matched": sum(r["length"] == r["published_optimum"] for r in known) if known else None})
    return out


def plot(rows: Sequence[dict[str, Any]], path: str) -> None:
    """Expanded nodes per instance, one series per set and combination, on a log scale, saved as
    ``path`` (its format from the name: .png, .svg, ...) with matplotlib (``stats.pyplot``)."""
    from .present.grid import combination_label
    from .stats import pyplot

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(9, 4.5))
    series: dict[str, list[tuple[int, int]]] = {}
    varying = [n for n in ("set", *AXIS_NAMES) if len({str(r[n]) for r in rows}) > 1] or ["heuristic"]
    for r in rows:
        if r["expanded"]:
            series.setdefault(combination_label(r, varying), []).append((r["instance"], r["expanded"]))
    for label, points in series.items():
        ax.plot([p[0] for p in points], [p[1] for p in points], marker=".", linewidth=0.8, label=label)
    ax.set_yscale("log")
    ax.set_xlabel("instance")
    ax.set_ylabel("nodes expanded")
    ax.legend(fontsize="small")
    fig.tight_layout()
    try:
        fig.savefig(path)
    except (OSError, ValueError) as e:
        raise NPuzzleError(f"cannot save --plot {quote_input(path)}: {e}") from None
    finally:
        plt.close(fig)


def at_weight_one(runs: Sequence[Planned]) -> list[str]:
    """The methods of the runs that take a weight (the bounded-suboptimal ones:
    ``search.registry.quality_bound``) and run only at weight 1, where their answers are optimal
    and their searches as slow as an optimal one's."""
    weights: dict[str, set[float]] = {}
    for p in runs:
        if takes_weight(p.combo["method"]):
            weights.setdefault(p.combo["method"], set()).add(p.combo.get("weight") or 1.0)
    return [name for name, seen in weights.items() if seen == {1.0}]


def takes_weight(method: str) -> bool:
    """Whether the registered search ``method`` takes a weight (is bounded-suboptimal)."""
    from .search.registry import REGISTRY

    entry = REGISTRY.get(method)
    return entry is not None and "weight" in entry.options


def shown(runs: Sequence[Planned]) -> list[str]:
    """The columns that tell the grid's combinations apart: the set, the method and the
    heuristic, and every other axis given more than one value."""
    return ["set", "method", "heuristic", *(name for name in AXIS_NAMES[2:]
                                            if len({repr(p.combo[name]) for p in runs}) > 1)]


# -- provenance -----------------------------------------------------------------------------------


def provenance(sets: Sequence[GridSet], values: dict[str, list[Any]], timeout: float | None, argv: Sequence[str],
               version: str, *, host: bool = True) -> dict[str, Any]:
    """A new sidecar for a grid's output file (``provenance``): this run's environment (npuzzle
    ``version``, ...), the time
    limit, the axes' values and each whole set (all its positions, whatever ``--ids`` picks) with
    the hash of its positions."""
    from . import provenance as meta

    entries = [meta.set_entry(s.name, str(s.items[0].goal if s.items else "standard"),
                              ((i.number, i.board.tiles) for i in s.items)) for s in sets]
    return meta.record(meta.environment(argv, version, host=host), {"timeout": timeout},
                       {name: list(vals) for name, vals in values.items()}, entries)


def resumed_provenance(results: Results, new: dict[str, Any], allow_mixed: bool) -> dict[str, Any]:
    """The sidecar to write before a run adds rows to ``results``' file: ``new`` when the file holds
    no row; else the file's sidecar with the new sets and command added, once checked: a file
    without one, or made by another npuzzle version or commit, with another time limit or with
    other positions under a set's name, is refused (``InvalidOptionError``) unless ``allow_mixed``,
    and the command's entry then records what differed."""
    from . import provenance as meta

    if not results.read():
        return new
    old = meta.read(results.path)
    where = quote_input(str(results.path))
    if old is None:
        problems = [f"it has no {meta.SUFFIX} sidecar (made by an older npuzzle or by hand)"]
        old = {**new, "commands": []}
    else:
        problems = meta.differences(old, new)
    if problems and not allow_mixed:
        raise InvalidOptionError(f"--out {where} was made otherwise: {'; '.join(problems)}. Its rows would "
                                 "not be comparable with new ones: give another --out, or --allow-mixed-runs "
                                 "to add to it anyway")
    if problems:
        new = {**new, "commands": [{**new["commands"][0], "mixed": problems}]}
    return meta.merged(old, new)

