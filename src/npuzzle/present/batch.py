"""Many positions at once: an input that is no position or cannot reach the goal, a batch's
status and summary lines, and the rows, head and total of a benchmark run (``npuzzle bench``).

>>> batch_summary_text("check", {"solvable": 2, "unsolvable": 1}, 0.5, 0.4)
'npuzzle check: 3 positions: 2 solvable, 1 unsolvable in 0.500 s (0.400 s CPU)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..board import Board, Goal, goal_text
from ..notation import Entry, format_position
from .common import (
    INPUT_EXCERPT,
    count_text,
    entry_head,
    position_fields,
    record_head,
    seconds_text,
    time_fields,
    times_text,
    verdict_text,
)
from .solution import solution_record

if TYPE_CHECKING:
    from ..instances import Instance
    from ..search.limits import Solution


def batch_progress_text(done: int, total: int, generated: int, wall_seconds: float, workers: int) -> str:
    """The live status of a batch solved by several workers.

    >>> batch_progress_text(37, 100, 12_345_678, 2.5, 2)
    'solving on 2 workers: 37 of 100 positions, 12,345,678 nodes, 4.9 M nodes/s, 2.500 s'
    """
    rate = generated / wall_seconds if wall_seconds > 0 else 0.0
    speed = f"{rate / 1e6:.1f} M" if rate >= 1e6 else f"{rate / 1e3:.0f} k"
    return (f"solving on {workers} workers: {done:,} of {total:,} positions, {count_text(generated, 'node')}, "
            f"{speed} nodes/s, {seconds_text(wall_seconds)}")


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


def invalid_record(entry: Entry, command: str = "solve") -> dict[str, Any]:
    """The record of an input that is no position (``record`` names the ``command``, ``solve`` or
    ``check``): where it is, an excerpt, and why.

    >>> from npuzzle.notation import argument_entries
    >>> invalid_record(argument_entries(["1 2/2 0"])[0])["reason"]
    "duplicate tile 2 in '1 2/2 0'"
    """
    text = entry.text if len(entry.text) <= INPUT_EXCERPT else entry.text[:INPUT_EXCERPT] + "..."
    return {**entry_head(command, entry), "status": "invalid", "input": text, "reason": entry.error}


def invalid_text(entry: Entry, many: bool) -> str:
    """One line for an input that is no position, with its place (``in.txt:3: ...``) unless it is
    the only input and an argument (``many``: there are other inputs)."""
    return f"{entry.where}: {entry.error}" if many or entry.source != "argument" else str(entry.error)


def unsolvable_record(board: Board, goal: Goal | Board, reason: str, entry: Entry | None = None) -> dict[str, Any]:
    """The record of a position the goal cannot be reached from, and why."""
    return {**entry_head("solve", entry), "status": "unsolvable", **position_fields(board), "goal": goal_text(goal),
            "reason": reason}


def batch_summary_text(command: str, counts: Mapping[str, int], wall_seconds: float, cpu_seconds: float) -> str:
    """The last line of a batch (on stderr): how many positions, by outcome, and the time.

    >>> batch_summary_text("solve", {"solved": 9990, "invalid": 10}, 12.34, 11.9)
    'npuzzle solve: 10,000 positions: 9,990 solved, 10 invalid in 12.3 s (11.9 s CPU)'
    """
    total = sum(counts.values())
    parts = ", ".join(f"{n:,} {outcome}" for outcome, n in counts.items() if n)
    return f"npuzzle {command}: {count_text(total, 'position')}: {parts} in {times_text(wall_seconds, cpu_seconds)}"


def bench_record(set_name: str, instance_id: int, optimum: int, solution: Solution,
                 korf_nodes: int | None, nodes_ok: bool | None, published_nodes: int | None = None) -> dict[str, Any]:
    """One benchmark instance as JSON: the set and id, the published optimum, whether the length
    equals it, the solution's record, Korf's node count with the comparison where it applies, and
    the node count published for the instance (for reference)."""
    return {**record_head("bench-instance"), "set": set_name, "instance": instance_id,
            "optimum": optimum, "length_ok": solution.solved and solution.length == optimum,
            "korf_nodes": korf_nodes, "nodes_ok": nodes_ok, "published_nodes": published_nodes,
            "solution": {k: v for k, v in solution_record(solution).items() if k != "schema_version"}}


def bench_total_record(
    set_name: str, solutions: Sequence[Solution], lengths_ok: int, nodes_ok: int | None
) -> dict[str, Any]:
    """The total of a benchmark run as JSON: instances, nodes, CPU and wall seconds, and how many
    lengths (and node counts, where compared) equal the published ones."""
    return {**record_head("bench-summary"), "set": set_name,
            "instances": len(solutions), "generated": sum(s.stats.generated for s in solutions),
            "expanded": sum(s.stats.expanded for s in solutions),
            **time_fields(sum(s.stats.wall_seconds for s in solutions), sum(s.stats.seconds for s in solutions)),
            "lengths_matched": lengths_ok, "nodes_matched": nodes_ok}


#: The published node counts a benchmark run's are printed beside (for reference: another
#: implementation's), by set.
PUBLISHED_NODES = {"korf100": "korf1985_generated", "korf50": "korf_felner2002_generated"}


def bench_head_text(set_name: str, method: str, heuristic: str, pruning: str, instances: int, repeat: int,
                    compare_nodes: bool) -> str:
    """The two comment lines a benchmark run's table starts with: the run, then the columns (the
    last one Korf's recomputed node counts where they are compared, else the published ones).

    >>> print(bench_head_text("korf100", "idastar", "manhattan", "auto", 2, 1, True))
    # korf100: method idastar, heuristic manhattan, pruning auto, 2 instances
    # id  length  optimum    generated     expanded    CPU_s  Mnodes/s  korf_nodes
    """
    return (f"# {set_name}: method {method}, heuristic {heuristic}, pruning {pruning}, {instances} instances"
            + (f", least CPU time of {repeat} runs each" if repeat > 1 else "") + "\n"
            + "# id  length  optimum    generated     expanded    CPU_s  Mnodes/s"
            + ("  korf_nodes" if compare_nodes else f"  {PUBLISHED_NODES[set_name]}"))


def bench_row_text(instance: Instance, solution: Solution, nodes_ok: bool | None, compare_nodes: bool) -> str:
    """One instance of a benchmark run: id, length, optimum, nodes, CPU seconds and rate, then
    Korf's node count where compared (``nodes_ok``: equal or not; None where there is none) or
    the published one, and a flag for a wrong length or a search stopped by a limit."""
    st = solution.stats
    rate = st.generated / st.seconds / 1e6 if st.seconds > 0 else 0.0
    length_ok = solution.solved and solution.length == instance.optimal_length
    flag = "" if length_ok else "  LENGTH MISMATCH" if solution.solved else f"  {solution.status}"
    extra = f"  {instance.published_nodes:>15,}" if instance.published_nodes is not None else ""
    if compare_nodes and nodes_ok is not None:
        extra = f"  {instance.recomputed_nodes:,}" + ("" if nodes_ok else " NODE COUNT DIFFERS")
    return (f"{instance.id:4d}  {solution.length if solution.solved else '-':>6}  {instance.optimal_length:7d}  "
            f"{st.generated:>11,}  {st.expanded:>11,}  {st.seconds:7.3f}  {rate:8.1f}{extra}{flag}")


def bench_total_text(solutions: Sequence[Solution], lengths_ok: int, nodes_ok: int | None) -> str:
    """The last line of a benchmark run: instances, nodes, CPU seconds and rate, how many lengths
    equal the published optimum and, where node counts are compared (``nodes_ok`` not None), how
    many equal Korf's."""
    total_nodes = sum(s.stats.generated for s in solutions)
    total_expanded = sum(s.stats.expanded for s in solutions)
    total_cpu = sum(s.stats.seconds for s in solutions)
    text = (f"# total: {len(solutions)} instances, {total_nodes:,} nodes generated ({total_expanded:,} expanded), "
            f"{total_cpu:.2f} s CPU, "
            f"{total_nodes / total_cpu / 1e6 if total_cpu else 0:.1f} M nodes/s; "
            f"{lengths_ok} lengths equal to the published optimum")
    if nodes_ok is not None:
        text += f", {nodes_ok} node counts equal to Korf's (recomputed)"
    return text
