"""Run a solver over a benchmark set and check every result against the published facts.

Every length is compared with the published optimum, every solution has been replayed by the
solver, and with the Manhattan distance and Korf's move order the node counts are compared with
Korf's (recomputed) counts. CPU seconds are process time.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
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


def parse_ids(text: str | None, name: str | None = None) -> list[int] | None:
    """``"1-10,12"`` -> ``[1, ..., 10, 12]``; ``None`` means all.

    ``ValueError`` naming the problem (quoting at most a short excerpt) for an empty list, a part
    that is not a number or a range ``LOW-HIGH``, a reversed range, or an id outside 1..the
    highest id of the set ``name`` (of any set when ``None``), checked before a range is made.
    """
    if text is None:
        return None
    parts = [part.strip() for part in text.split(",")]
    if not any(parts):
        raise ValueError("no instance id given: write e.g. 1-10,12")
    highest = highest_id(name)
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
    """Solve the instances, print one line each and a total (with ``as_json``, one JSON record
    each and a summary record: ``present.bench_record``); return the rows. With ``repeat``
    above 1 every instance is solved that many times and its least CPU time is kept (the
    searches are deterministic: every run finds the same solution with the same nodes). With an
    ``executor`` (``search.split``) the instances are solved by its workers, one each; else
    ``on_progress`` is called during each search (``search.solve``)."""
    from .cluster import solve_many
    from .search import solve

    out = out if out is not None else sys.stdout
    instances = benchmark_set(name, list(ids) if ids is not None else None)
    heuristic = heuristic or default_heuristic(name)
    if heuristic == "auto" and instances:
        from .heuristics.registry import auto_heuristic

        heuristic = auto_heuristic(instances[0].board.height, instances[0].board.width, instances[0].goal)[0]
    compare_nodes = counts_korf_nodes(method, heuristic, pruning)
    if not as_json:
        out.write(f"# {name}: method {method}, heuristic {heuristic}, pruning {pruning}, {len(instances)} instances"
                  + (f", least CPU time of {repeat} runs each" if repeat > 1 else "") + "\n")
        out.write("# id  length  optimum    generated     expanded    CPU_s  Mnodes/s"
                  + ("  korf_nodes\n" if compare_nodes else f"  {_PUBLISHED[name]}\n"))
    rows = []
    limit = Limit(timeout=timeout)
    if executor is not None:
        solutions = solve_many(((inst.board, inst.goal) for inst in instances), executor, repeat=repeat,
                               method=method, heuristic=heuristic, limit=limit, pruning=pruning)
    else:
        solutions = (min((solve(inst.board, method=method, heuristic=heuristic, goal=inst.goal, limit=limit,
                                pruning=pruning, on_progress=on_progress) for _ in range(max(1, repeat))),
                         key=lambda r: r.stats.seconds)
                     for inst in instances)
    for inst, solution in zip(instances, solutions, strict=True):
        row = Row(inst, solution, compare_nodes)
        rows.append(row)
        out.write(_row_json(name, row) if as_json else _row_text(row))
        out.flush()
    out.write(_total_json(name, rows, compare_nodes) if as_json else _total_text(rows, compare_nodes))
    return rows


#: The published node counts a run's are printed beside (for reference: another implementation's).
_PUBLISHED = {"korf100": "korf1985_generated", "korf50": "korf_felner2002_generated"}


def _row_text(row: Row) -> str:
    inst, sol = row.instance, row.solution
    st = sol.stats
    rate = st.generated / st.seconds / 1e6 if st.seconds > 0 else 0.0
    flag = "" if row.length_ok else "  LENGTH MISMATCH" if sol.solved else f"  {sol.status}"
    extra = f"  {inst.published_nodes:>15,}" if inst.published_nodes is not None else ""
    if row.compare_nodes and row.nodes_ok is not None:
        extra = f"  {inst.recomputed_nodes:,}" + ("" if row.nodes_ok else " NODE COUNT DIFFERS")
    return (f"{inst.id:4d}  {sol.length if sol.solved else '-':>6}  {inst.optimal_length:7d}  "
            f"{st.generated:>11,}  {st.expanded:>11,}  {st.seconds:7.3f}  {rate:8.1f}{extra}{flag}\n")


def _row_json(name: str, row: Row) -> str:
    from . import present

    inst = row.instance
    korf = inst.recomputed_nodes if row.compare_nodes else None
    record = present.bench_record(name, inst.id, inst.optimal_length, row.solution, korf, row.nodes_ok,
                                  inst.published_nodes)
    return json.dumps(record) + "\n"


def _total_text(rows: list[Row], compare_nodes: bool) -> str:
    total_nodes = sum(r.solution.stats.generated for r in rows)
    total_expanded = sum(r.solution.stats.expanded for r in rows)
    total_cpu = sum(r.solution.stats.seconds for r in rows)
    bad = sum(not r.length_ok for r in rows)
    text = (f"# total: {len(rows)} instances, {total_nodes:,} nodes generated ({total_expanded:,} expanded), "
            f"{total_cpu:.2f} s CPU, "
            f"{total_nodes / total_cpu / 1e6 if total_cpu else 0:.1f} M nodes/s; "
            f"{len(rows) - bad} lengths equal to the published optimum")
    if compare_nodes:
        same = sum(bool(r.nodes_ok) for r in rows)
        text += f", {same} node counts equal to Korf's (recomputed)"
    return text + "\n"


def _total_json(name: str, rows: list[Row], compare_nodes: bool) -> str:
    from . import present

    nodes_ok = sum(bool(r.nodes_ok) for r in rows) if compare_nodes else None
    record = present.bench_total_record(name, [r.solution for r in rows], sum(r.length_ok for r in rows), nodes_ok)
    return json.dumps(record) + "\n"
