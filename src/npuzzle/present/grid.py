"""An experiment grid's output (``npuzzle bench`` given lists: ``npuzzle.grid``): its rows as CSV
lines or JSON records (the same fields and values, read back by ``read_csv`` and ``read_jsonl``),
a line per run, and the summary by set and combination, as a table and as a record.

>>> columns = (("set", str), ("instance", int), ("weight", float), ("optimal", bool))
>>> line = csv_line({"set": "kt10", "instance": 3, "weight": None, "optimal": True}, columns)
>>> line
'kt10,3,,true\\r\\n'
>>> read_csv(csv_header(columns) + line, columns)
[{'set': 'kt10', 'instance': 3, 'weight': None, 'optimal': True}]
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from .common import count_text, record_head, seconds_text

Columns = Sequence[tuple[str, type]]


def field_text(value: Any) -> str:
    """A value as a CSV field: empty for None, ``true``/``false`` as in JSON, numbers as Python
    writes them (which ``float``/``int`` read back exactly)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _typed(text: str, kind: type) -> Any:
    """A CSV field read back as ``kind`` (``ValueError`` if it is not one)."""
    if text == "":
        return None
    if kind is bool:
        if text not in ("true", "false"):
            raise ValueError(f"{text!r} is not true or false")
        return text == "true"
    return kind(text)


def csv_header(columns: Columns) -> str:
    return _csv([name for name, _ in columns])


def csv_line(values: dict[str, Any], columns: Columns) -> str:
    """One row as a CSV line (RFC 4180, ``\\r\\n`` at the end)."""
    return _csv([field_text(values.get(name)) for name, _ in columns])


def _csv(fields: list[str]) -> str:
    out = io.StringIO()
    csv.writer(out).writerow(fields)
    return out.getvalue()


def read_csv(text: str, columns: Columns) -> list[dict[str, Any]]:
    """The rows of a grid's CSV text, typed; ``ValueError`` if its header is not ``columns``'s or
    a field is not of its column's type."""
    lines = list(csv.reader(io.StringIO(text, newline="")))
    if not lines:
        return []
    names = [name for name, _ in columns]
    if lines[0] != names:
        raise ValueError(f"its columns are {','.join(lines[0])[:200]}, not {','.join(names)}")
    rows = []
    for number, fields in enumerate(lines[1:], 2):
        if len(fields) != len(columns):
            raise ValueError(f"line {number} has {len(fields)} fields, not {len(columns)}")
        try:
            rows.append({name: _typed(f, kind) for (name, kind), f in zip(columns, fields, strict=True)})
        except ValueError as e:
            raise ValueError(f"line {number}: {e}") from None
    return rows


def run_record(values: dict[str, Any]) -> dict[str, Any]:
    """One run of a grid as a JSON record (``grid-run``): the row's fields after the head."""
    return {**record_head("grid-run"), **values}


def jsonl_line(values: dict[str, Any]) -> str:
    return json.dumps(run_record(values)) + "\n"


def read_jsonl(text: str, columns: Columns) -> list[dict[str, Any]]:
    """The rows of a grid's JSON lines (its ``grid-run`` records, other records skipped);
    ``ValueError`` for a line that is no JSON record or a record without the columns."""
    rows = []
    names = [name for name, _ in columns]
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"line {number} is not JSON ({e})") from None
        if not isinstance(record, dict) or record.get("record") != "grid-run":
            continue
        if any(name not in record for name in names):
            raise ValueError(f"line {number} lacks the fields {', '.join(n for n in names if n not in record)}")
        rows.append({name: record[name] for name in names})
    return rows


def bound_name(name: str, cost: str) -> str:
    """The bound a search used, by the name under which it is that bound: under a cost model other
    than ``unit`` the tables and distances weigh each tile's moves by its cost, ``manhattan[heavy]``.

    >>> bound_name("manhattan", "heavy"), bound_name("lc", "unit"), bound_name("none", "heavy")
    ('manhattan[heavy]', 'lc', 'none')
    """
    return name if cost in ("", "unit") or name in ("", "none", "-") else f"{name}[{cost}]"


def combination_label(values: dict[str, Any], names: Sequence[str]) -> str:
    """A combination by the values of the axes ``names`` that are set, e.g. ``korf100 idastar pdb:7-8``.

    >>> combination_label({"set": "kt10", "method": "astar", "weight": 1.5, "pruning": None},
    ...                   ["set", "method", "pruning", "weight"])
    'kt10 astar w=1.5'
    """
    parts = []
    for name in names:
        value = values.get(name)
        if value is not None and value != "-":
            text = bound_name(value, values.get("cost") or "unit") if name == "heuristic" else str(value)
            parts.append(f"w={value:g}" if name == "weight" else text)
    return " ".join(parts)


def grid_head_text(sets: int, combinations: int, runs: int, skipped: int, path: str | None,
                   discarded: int = 0) -> str:
    """The line a grid run starts with: its size, and the runs already in the output file (and the
    partial last line cut off it, from a run interrupted while writing).

    >>> grid_head_text(2, 3, 60, 20, "runs.csv")
    '# grid: 2 sets, 3 combinations, 60 runs; 20 already in runs.csv (skipped), 40 to run'
    """
    where = f"; {skipped:,} already in {path} (skipped), {runs - skipped:,} to run" if path is not None else ""
    cut = f"; a partial last line of {count_text(discarded, 'character')} was cut off" if discarded else ""
    return (f"# grid: {count_text(sets, 'set')}, {count_text(combinations, 'combination')}, "
            f"{count_text(runs, 'run')}{where}{cut}")


#: The console's words for a failed verdict (``grid.FAILURES``).
VERDICT_FLAGS = {"differs": "LENGTH DIFFERS FROM THE OPTIMUM", "over-bound": "OVER ITS BOUND",
                 "below-optimum": "BELOW THE OPTIMUM PROVEN", "nodes-differ": "NODE COUNT DIFFERS FROM KORF'S"}


def run_text(values: dict[str, Any], names: Sequence[str]) -> str:
    """One run as a line: the instance and its combination, then the outcome (under a cost model
    the cost, and the least cost proven when stopped), and a failed verdict in capitals.

    >>> print(run_text({"set": "korf100", "instance": 1, "method": "idastar", "heuristic": "pdb:7-8",
    ...                 "status": "solved", "length": 57, "published_optimum": 57, "expanded": 1234, "generated": 2500,
    ...                 "cpu_seconds": 0.012, "ratio": 1.0, "verdict": "ok"}, ["set", "method", "heuristic"]))
    korf100 #1 idastar pdb:7-8: solved, 57 moves (optimum 57), 1,234 expanded, 2,500 generated, 0.012 s CPU
    >>> print(run_text({"set": "s", "instance": 2, "method": "dps", "weight": 1.5, "cost": "heavy",
    ...                 "status": "limit", "cost_bound": 69.0, "expanded": 10, "generated": 20,
    ...                 "cpu_seconds": 0.5, "verdict": "limit"}, ["set", "method", "weight"]))
    s #2 dps w=1.5: stopped by the limit, cost at least 69, 10 expanded, 20 generated, 0.500 s CPU
    """
    head = f"{values['set']} #{values['instance']} {combination_label(values, names[1:])}".rstrip()
    if values["status"] == "error":
        return f"{head}: error: {values['error']}"
    priced = values.get("cost") not in (None, "unit")
    if values["status"] != "solved":
        bound = values.get("cost_bound") if priced else values.get("lower_bound")
        outcome = "stopped by the limit" + ("" if bound is None else
                                           f", cost at least {bound:g}" if priced else f", at least {bound} moves")
    elif priced:
        outcome = f"solved, cost {values['cost_total']:g} ({count_text(values['length'], 'move')})"
    else:
        optimum = f" (optimum {values['published_optimum']})" if values.get("published_optimum") is not None else ""
        outcome = f"solved, {count_text(values['length'], 'move')}{optimum}"
    failed = VERDICT_FLAGS.get(values.get("verdict") or "")
    flag = f"  {failed}" if failed else ""
    return (f"{head}: {outcome}, {values['expanded']:,} expanded, {values['generated']:,} generated, "
            f"{seconds_text(values['cpu_seconds'] or 0.0)} CPU{flag}")


_SUMMARY_COLUMNS = (("runs", "runs", 5), ("solved_runs", "solved", 6), ("failed_runs", "failed", 6),
                    ("mean_expanded", "mean expanded", 15), ("expanded", "total expanded", 17),
                    ("cpu_seconds", "CPU s", 10), ("mean_cost", "mean cost", 10), ("mean_ratio", "mean ratio", 10))


def summary_text(groups: Sequence[dict[str, Any]], names: Sequence[str]) -> str:
    """The summary table: a line per set and combination (by the axes ``names``).

    >>> print(summary_text([{"set": "kt10", "heuristic": "lc", "runs": 2, "solved_runs": 2, "failed_runs": 0,
    ...                      "mean_expanded": 10.5, "expanded": 21, "cpu_seconds": 0.25, "mean_cost": 52.5,
    ...                      "mean_ratio": 1.0}], ["set", "heuristic"]))
    # combination   runs  solved  failed    mean expanded     total expanded       CPU s   mean cost  mean ratio
    kt10 lc            2       2       0             10.5                 21        0.25        52.5      1.0000
    """
    labels = [combination_label(g, names) for g in groups]
    wide = max([len("# combination"), *map(len, labels)])
    head = "# combination".ljust(wide) + "".join(f"  {title:>{w}}" for _, title, w in _SUMMARY_COLUMNS)
    lines = [head]
    for label, g in zip(labels, groups, strict=True):
        cells = []
        for name, _, w in _SUMMARY_COLUMNS:
            value = g[name]
            text = ("-" if value is None else f"{value:.4f}" if name == "mean_ratio"
                    else f"{value:g}" if name == "mean_cost" else f"{value:.2f}" if name == "cpu_seconds"
                    else f"{value:,}")
            cells.append(f"  {text:>{w}}")
        lines.append(label.ljust(wide) + "".join(cells))
    return "\n".join(lines)


def summary_record(groups: Sequence[dict[str, Any]], runs: int, skipped: int) -> dict[str, Any]:
    """The summary of a grid as a JSON record (``grid-summary``): how many runs, how many were
    skipped as already in the output file, and one entry per set and combination."""
    return {**record_head("grid-summary"), "runs": runs, "skipped": skipped, "groups": list(groups)}
