"""Run a solver over a benchmark set and check every result against the published facts.

Every length is compared with the published optimum, every solution has been replayed by the
solver, and with the Manhattan distance and Korf's move order the node counts are compared with
Korf's (recomputed) counts. CPU seconds are process time.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from .errors import quote_input
from .instances import BENCHMARK_SETS, Instance, benchmark_set
from .search.limits import Limit, ProgressCallback, Solution

if TYPE_CHECKING:
    from .search.split import Executor


class Output(Protocol):
    """Where a run writes its lines (a text stream)."""

    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


@dataclass
class Row:
    instance: Instance
    solution: Solution
    #: Whether the node count is comparable with Korf's: IDA*, Manhattan distance, parent pruning.
    compare_nodes: bool = False

    @property
    def length_ok(self) -> bool:
        return self.solution.solved and self.solution.length == self.instance.optimal_length

    @property
    def nodes_ok(self) -> bool | None:
        """Node count equal to the recomputed Korf count; ``None`` where no count is comparable
        (another method, heuristic or pruning, or no published count)."""
        if not self.compare_nodes or self.instance.recomputed_nodes is None:
            return None
        return self.solution.stats.generated == self.instance.recomputed_nodes


def counts_korf_nodes(method: str, heuristic: str, pruning: str) -> bool:
    """Whether a run's node counts are Korf's (1985): IDA* with the Manhattan distance and
    parent pruning (``auto`` means parent with the Manhattan distance)."""
    return method == "idastar" and heuristic == "manhattan" and pruning in ("auto", "parent")


def default_heuristic(name: str) -> str:
    """The heuristic a run of set ``name`` uses unless one is given: the Manhattan distance on
    Korf's 100 (whose node counts are then compared with Korf's), ``auto`` on Korf & Felner's 50
    (the strongest 5x5 pattern databases built). ``MissingTableError`` naming the build when no
    5x5 tables are built: with the Manhattan distance an instance takes days.

    >>> default_heuristic("korf100")
    'manhattan'
    """
    if name != "korf50":
        return "manhattan"
    from .errors import MissingTableError
    from .heuristics import pattern_db

    if not pattern_db.usable(5, 5, "blank-first"):
        partition = pattern_db.SHIPPED[(5, 5)][0]
        # the set's own goal: its boards are then searched as they are, not turned 180 degrees
        raise MissingTableError(
            "korf50 needs the 24-puzzle's pattern databases, and none is built: "
            f"{pattern_db.build_command(partition, 5, 5, 'blank-first')}"
            f"{pattern_db.build_note(partition, 5, 5)}; or give heuristic=NAME")
    return "auto"


def highest_id(name: str | None = None) -> int:
    """The largest instance id of the set ``name`` (of any set when ``None``)."""
    names = [name] if name is not None else list(BENCHMARK_SETS)
    return max(inst.id for n in names for inst in benchmark_set(n))


def parse_ids(text: str | None, name: str | None = None, *, highest: int | None = None) -> list[int] | None:
    """``"1-10,12"`` -> ``[1, ..., 10, 12]``; ``None`` means all.

    ``ValueError`` naming the problem (quoting at most a short excerpt) for an empty list, a part
    that is not a number or a range ``LOW-HIGH``, a reversed range, or an id outside 1..the
    highest id of the set ``name`` (of any set when ``None``; ``highest`` if given), checked before
    a range is made.
    """
    if text is None:
        return None
    parts = [part.strip() for part in text.split(",")]
    if not any(parts):
        raise ValueError("no instance id given: write e.g. 1-10,12")
    highest = highest if highest is not None else highest_id(name)
    ids: list[int] = []
    for part in filter(None, parts):
        lo_text, dash, hi_text = part.partition("-")
        lo, hi = _id(lo_text, highest, name), _id(hi_text, highest, name) if dash else None
        if hi is None:
            ids.append(lo)
        elif hi < lo:
            raise ValueError(f"the range {quote_input(part)} is reversed: write {hi}-{lo}")
        else:
            ids.extend(range(lo, hi + 1))
    return ids


def _id(text: str, highest: int, name: str | None) -> int:
    """One instance id, 1..``highest``."""
    t = text.strip()
    if not t.isascii() or not t.isdigit() or len(t) > 20:
        raise ValueError(f"{quote_input(t)} is not an instance id: write e.g. 1-10,12")
    value = int(t)
    if not 1 <= value <= highest:
        raise ValueError(f"{name or 'the benchmark sets'} has no instance {value} (ids are 1 to {highest})")
    return value


@dataclass(frozen=True)
class Plan:
    """A benchmark run before it starts: the set, its instances and the options, resolved (the
    heuristic ``auto`` and the default named, and whether node counts are Korf's)."""

    name: str
    instances: list[Instance]
    method: str
    heuristic: str
    pruning: str
    repeat: int
    compare_nodes: bool


def plan(name: str, ids: Iterable[int] | None, *, method: str = "idastar", heuristic: str | None = None,
         pruning: str = "auto", repeat: int = 1) -> Plan:
    """The run of set ``name`` (``ids`` of it, or all) with these options (see ``run``)."""
    instances = benchmark_set(name, list(ids) if ids is not None else None)
    heuristic = heuristic or default_heuristic(name)
    if heuristic == "auto" and instances:
        from .heuristics.registry import auto_heuristic

        heuristic = auto_heuristic(instances[0].board.height, instances[0].board.width, instances[0].goal)[0]
    return Plan(name, instances, method, heuristic, pruning, repeat, counts_korf_nodes(method, heuristic, pruning))


def solve_rows(run: Plan, *, timeout: float | None = None, executor: Executor | None = None,
               on_progress: ProgressCallback | None = None) -> Iterator[Row]:
    """Each instance of the run solved, as its row, in order (see ``run``)."""
    from .cluster import solve_many
    from .search import Request, prepare
    from .search import run as run_problem

    request = Request(heuristic=run.heuristic, limit=Limit(timeout=timeout), pruning=run.pruning,
                      on_progress=on_progress)
    # Each instance prepared once (checked and resolved), then solved ``repeat`` times.
    problems = (prepare(inst.board, replace(request, goal=inst.goal), run.method) for inst in run.instances)
    if executor is not None:
        solutions = solve_many(problems, executor, repeat=run.repeat)
    else:
        solutions = (min((run_problem(p) for _ in range(max(1, run.repeat))), key=lambda r: r.stats.seconds)
                     for p in problems)
    for inst, solution in zip(run.instances, solutions, strict=True):
        yield Row(inst, solution, run.compare_nodes)


def run(
    name: str,
    ids: Iterable[int] | None,
    *,
    method: str = "idastar",
    heuristic: str | None = None,
    timeout: float | None = None,
    repeat: int = 1,
    pruning: str = "auto",
    out: Output | None = None,
    as_json: bool = False,
    executor: Executor | None = None,
    on_progress: ProgressCallback | None = None,
) -> list[Row]:
    """Solve the instances, write one line each and a total to ``out`` (standard output by
    default) as ``present.batch`` makes them (with ``as_json``, one JSON record each and a
    summary record: ``present.batch.bench_record``); return the rows. With ``repeat`` above 1
    every instance is solved that many times and its least CPU time is kept (the searches are
    deterministic: every run finds the same solution with the same nodes). With an ``executor``
    (``search.split``) the instances are solved by its workers, one each; else ``on_progress``
    is called during each search (``search.solve``). ``plan`` and ``solve_rows`` are the same
    run without any text, ``report`` the same run of a plan."""
    the_plan = plan(name, ids, method=method, heuristic=heuristic, pruning=pruning, repeat=repeat)
    return report(the_plan, timeout=timeout, out=out, as_json=as_json, executor=executor, on_progress=on_progress)


def report(the_plan: Plan, *, timeout: float | None = None, out: Output | None = None, as_json: bool = False,
           executor: Executor | None = None, on_progress: ProgressCallback | None = None) -> list[Row]:
    """``run`` of a plan made already (``plan``)."""
    out = out if out is not None else sys.stdout
    name = the_plan.name
    if not as_json:
        out.write(_head_text(the_plan) + "\n")
    rows = []
    for row in solve_rows(the_plan, timeout=timeout, executor=executor, on_progress=on_progress):
        rows.append(row)
        out.write(_row_text(name, row, as_json) + "\n")
        out.flush()
    out.write(_total_text(the_plan, rows, as_json) + "\n")
    return rows


def _head_text(run: Plan) -> str:
    """The first lines of a run's table (``present.batch.bench_head_text``)."""
    from .present import batch

    return batch.bench_head_text(run.name, run.method, run.heuristic, run.pruning, len(run.instances), run.repeat,
                                 run.compare_nodes)


def _row_text(name: str, row: Row, as_json: bool = False) -> str:
    """A row as ``present.batch`` writes it: a line of the table, or a JSON record."""
    from .present import batch

    inst = row.instance
    if not as_json:
        return batch.bench_row_text(inst, row.solution, row.nodes_ok, row.compare_nodes)
    korf = inst.recomputed_nodes if row.compare_nodes else None
    return json.dumps(batch.bench_record(name, inst.id, inst.optimal_length, row.solution, korf, row.nodes_ok,
                                         inst.published_nodes))


def _total_text(run: Plan, rows: list[Row], as_json: bool = False) -> str:
    """The total of a run as ``present.batch`` writes it: the table's last line, or a JSON record."""
    from .present import batch

    lengths_ok = sum(r.length_ok for r in rows)
    nodes_ok = sum(bool(r.nodes_ok) for r in rows) if run.compare_nodes else None
    if as_json:
        return json.dumps(batch.bench_total_record(run.name, [r.solution for r in rows], lengths_ok, nodes_ok))
    return batch.bench_total_text([r.solution for r in rows], lengths_ok, nodes_ok)
