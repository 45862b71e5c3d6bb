"""Distance statistics (``npuzzle stats``): a full BFS's distribution, the happy-move count and
random samples, as text, as JSON, and the titles of their histogram images.

>>> print(distribution_text("2x2_corner", [1, 2, 2, 2, 2, 2, 1], "standard"))
dist 2x2_corner 12 : 1 2 2 2 2 2 1
# 2x2_corner: max distance 6 (1 position), mean 3.000000; goal standard
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .. import stats
from ..board import Goal
from .common import (
    count_text,
    record_head,
    shape_fields,
)

if TYPE_CHECKING:
    pass


def _distribution_fields(counts: Sequence[int]) -> dict[str, Any]:
    return {"positions": sum(counts), "max_distance": len(counts) - 1,
            "mean": round(stats.mean_distance(counts), 6), "counts": list(counts)}


def distribution_record(height: int, width: int, label: str, counts: Sequence[int], goal_name: str) -> dict[str, Any]:
    """A full BFS as JSON: the board's shape, the goal, its ``known_counts.txt`` label, and the
    number of positions at each distance (``counts[d]``) with their total, largest distance and mean.

    >>> distribution_record(2, 2, "2x2_corner", [1, 2, 2, 2, 2, 2, 1], "standard")["mean"]
    3.0
    """
    return {**record_head("distribution"), **shape_fields(height, width), "goal": goal_name, "label": label,
            **_distribution_fields(counts)}


def happy_record(height: int, width: int, goal: Goal, counts: Sequence[int]) -> dict[str, Any]:
    """The happy-move count as JSON: positions by distance (the goal at 0), their total, and on
    Knuth's board whether his published count is matched (``knuth_agrees``, else null)."""
    from .. import knuth

    return {**record_head("happy"), **shape_fields(height, width), "goal": goal, **_distribution_fields(counts),
            "knuth_agrees": knuth.happy_count_agrees(height, width, goal, counts)}


def sample_record(height: int, width: int, goal: Goal, seed: int | None, lengths: Sequence[int]) -> dict[str, Any]:
    """A random sample's optimal lengths as JSON, in the order solved, with their histogram."""
    return {**record_head("sample"), **shape_fields(height, width), "goal": goal, "seed": seed,
            "count": len(lengths), "lengths": list(lengths),
            "mean": round(sum(lengths) / len(lengths), 6), "min": min(lengths), "max": max(lengths),
            "histogram": stats.histogram(lengths)}


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
