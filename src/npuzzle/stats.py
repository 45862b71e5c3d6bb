"""Distance statistics: random samples solved optimally, and how distributions are printed.

``sample_lengths`` draws positions uniformly from the solvable ones and solves each optimally
with ``npuzzle.search.solve``; ``histogram`` counts the lengths. The ``format_*`` functions
print distributions in the line format of the benchmark file ``known_counts.txt``
(``dist <label> <states> : c0 c1 ... cmax``), so outputs compare with it directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .board import Goal, check_goal
from .errors import NPuzzleError

if TYPE_CHECKING:
    from .search.split import Executor


def sample_lengths(
    height: int, width: int, count: int, *, seed: int | None = None, goal: Goal = "standard", progress: bool = True,
    executor: Executor | None = None,
) -> list[int]:
    """Optimal solution lengths of ``count`` random solvable positions (reproducible by ``seed``);
    with an ``executor`` (``search.split``) its workers solve them, one each: the same lengths."""
    import numpy as np

    from .cluster import solve_many
    from .instances import random_board
    from .meters import progress as meter
    from .search import Request, prepare, solve

    check_goal(goal)
    if count <= 0:
        raise NPuzzleError(f"the sample size must be positive, not {count}")
    rng = np.random.default_rng(seed)
    boards = [random_board(height, width, rng, goal) for _ in range(count)]
    solutions = (solve_many((prepare(b, Request(goal=goal)) for b in boards), executor) if executor is not None
                 else (solve(b, goal=goal) for b in boards))
    lengths = []
    with meter(count, f"sample {height}x{width}", progress) as bar:
        for solution in solutions:
            if not solution.optimal or solution.length is None:
                raise NPuzzleError(f"no optimal solution found ({solution.status})")
            lengths.append(solution.length)
            bar.advance(1)
    return lengths


def histogram(lengths: Sequence[int]) -> list[int]:
    """``counts[d]`` = how many of ``lengths`` equal ``d``, for ``d = 0 .. max``.

    >>> histogram([3, 0, 2, 2])
    [1, 0, 2, 1]
    """
    counts = [0] * (max(lengths, default=-1) + 1)
    for d in lengths:
        counts[d] += 1
    return counts


def blank_class(height: int, width: int, blank: int) -> str:
    """How ``known_counts.txt`` labels a goal blank cell: corner, center, midside (3x3) or r,c.

    >>> [blank_class(3, 3, b) for b in (0, 1, 4)], blank_class(3, 4, 5)
    (['corner', 'midside', 'center'], 'r1c1')
    """
    r, c = divmod(blank, width)
    if r in (0, height - 1) and c in (0, width - 1):
        return "corner"
    if (height, width) == (3, 3):
        return "center" if (r, c) == (1, 1) else "midside"
    return f"r{r}c{c}"


def distribution_label(height: int, width: int, blank: int) -> str:
    """How ``known_counts.txt`` labels the distribution of a board and goal blank cell: ``3x3_center``."""
    return f"{height}x{width}_{blank_class(height, width, blank)}"


def format_distribution(label: str, counts: Sequence[int]) -> str:
    """``dist <label> <states> : c0 c1 ...`` as in ``known_counts.txt``."""
    return f"dist {label} {sum(counts)} : " + " ".join(str(c) for c in counts)


def mean_distance(counts: Sequence[int]) -> float:
    """The mean distance of a distribution (``counts[d]`` positions at distance ``d``); 0 if empty.

    >>> mean_distance([1, 2, 1])
    1.0
    """
    total = sum(counts)
    return sum(d * c for d, c in enumerate(counts)) / total if total else 0.0


def summary(counts: Sequence[int]) -> str:
    """Largest distance (and how many), mean: ``max distance 31 (2 positions), mean 21.972399``."""
    top = len(counts) - 1
    mean = mean_distance(counts)
    return f"max distance {top} ({counts[top]:,} position{'' if counts[top] == 1 else 's'}), mean {mean:.6f}"


def histogram_lines(counts: Sequence[int], bar_width: int = 50) -> list[str]:
    """One line per distance from the first nonzero count: distance, count, a bar of ``#``."""
    peak = max(counts, default=0)
    first = next((d for d, c in enumerate(counts) if c), len(counts))
    wide = len(f"{peak:,}")
    return [
        f"{d:3d} {c:>{wide},} " + "#" * (round(bar_width * c / peak) if peak else 0)
        for d, c in enumerate(counts)
        if d >= first
    ]


def pyplot() -> Any:
    """matplotlib's pyplot (non-interactive), or ``NPuzzleError`` if matplotlib is not installed.

    matplotlib is optional (the extra ``plot``: ``pip install 'npuzzle[plot]'``): only plotting needs it."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise NPuzzleError("plot= needs matplotlib, which is not installed: pip install 'npuzzle[plot]'") from None
    return plt


def save_plot(counts: Sequence[int], path: str | Path, title: str, xlabel: str = "optimal solution length") -> None:
    """Save the histogram as a bar chart image (format from the file name) with matplotlib."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.bar(range(len(counts)), counts)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("positions")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
