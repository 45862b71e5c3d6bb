"""``npuzzle stats``: exact distance distributions, Knuth's happy-move count, random samples.

>>> from npuzzle.cli import main
>>> main(["stats", "bfs", "2x3"])
dist 2x3_corner 360 : 1 2 3 5 6 7 10 12 12 16 23 25 28 39 44 40 29 21 18 12 6 1
# 2x3_corner: max distance 21 (1 position), mean 12.622222; goal standard
0
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from ..present import statistics as present_statistics
from ._options import (
    EXIT_OK,
    Parser,
    add_goal,
    add_json,
    add_parallel,
    add_shape,
    cell_arg,
    positive_int,
    seed_arg,
    shape_arg,
)

if TYPE_CHECKING:
    from ._options import Subparsers


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "stats",
        help="exact distance distributions (full BFS), Knuth's happy-move count, random samples",
        description="Distance statistics: exhaustive BFS of boards of up to 12 cells, the positions "
        "solvable by happy moves only, and optimal lengths of random samples.",
    )
    ssub = p.add_subparsers(dest="stats_command", metavar="WHAT", parser_class=Parser)
    ssub.required = True
    b = ssub.add_parser("bfs", help="distance distribution of a whole board (at most 12 cells)",
                        description="Breadth-first search over every position of a board of at most 12 "
                        "cells; prints the number of positions at each distance as one 'dist' line "
                        "(dist LABEL POSITIONS : COUNT_0 COUNT_1 ...). With --save "
                        "the distance table is stored, so solve answers instantly for that board.")
    b.add_argument("shape", type=shape_arg, metavar="HxW", help="board shape, e.g. 3x4")
    add_goal(b)
    b.add_argument("--blank-cell", type=cell_arg, metavar="R,C",
                   help="goal with the blank at row R, column C (from 0) and tiles 1..N-1 around it")
    b.add_argument("--save", action="store_true", help="store the distance table in the table store")
    b.add_argument("--table", action="store_true", help="also print one line per distance")
    _add_plot(b)
    h = ssub.add_parser("happy", help="positions solvable by happy moves only (Knuth, 15PUZZLE-KORF1)",
                        description="Count the positions from which the goal is reached by happy moves "
                        "only (each move brings its tile closer to home), by distance.")
    add_shape(h, default=(4, 4), help="board shape, at most 16 cells (default: 4x4)")
    add_goal(h)
    _add_plot(h)
    s = ssub.add_parser("sample", help="optimal lengths of random positions, as a histogram",
                        description="Solve random solvable positions optimally and print the "
                        "histogram of their lengths.")
    add_shape(s, required=True, help="board shape, e.g. 4x4")
    s.add_argument("--count", type=positive_int, default=100, help="number of positions (default: 100)")
    s.add_argument("--seed", type=seed_arg, default=None, help="random seed, for a reproducible sample (0..2**63-1)")
    add_parallel(s, "the positions are solved one per process (the same lengths)")
    add_goal(s)
    _add_plot(s)


def _add_plot(p: argparse.ArgumentParser) -> None:
    add_json(p, "print the result as one JSON record (docs/json.md)")
    p.add_argument("--plot", metavar="FILE", help="also save the histogram as an image, its format from the "
                   "file name, e.g. lengths.png (needs matplotlib: pip install 'npuzzle[plot]')")


def run(args: argparse.Namespace) -> int:
    {"bfs": _bfs, "happy": _happy, "sample": _sample}[args.stats_command](args)
    return EXIT_OK


def _bfs(args: argparse.Namespace) -> None:
    from .. import stats
    from ..search import bfs

    h, w = args.shape
    if args.plot:
        stats.pyplot()  # fail before searching if matplotlib is missing
    blank = bfs.goal_blank(h, w, args.goal, args.blank_cell)
    counts = bfs.distribution(h, w, blank_cell=blank, save=args.save, progress=True)
    label = stats.distribution_label(h, w, blank)
    if args.json:
        print(json.dumps(present_statistics.distribution_record(h, w, label, counts, bfs.goal_name(h, w, blank))))
    else:
        print(present_statistics.distribution_text(label, counts, bfs.goal_name(h, w, blank), table=args.table))
    if args.plot:
        title = present_statistics.distribution_title(h, w, counts, bfs.goal_name(h, w, blank))
        stats.save_plot(counts, args.plot, title, "distance to the goal (moves)")
        _plot_saved(args)


def _happy(args: argparse.Namespace) -> None:
    from .. import stats
    from ..search import bfs

    h, w = args.shape
    if args.plot:
        stats.pyplot()  # fail before searching if matplotlib is missing
    counts = bfs.happy_count(True, height=h, width=w, goal=args.goal)
    if args.json:
        print(json.dumps(present_statistics.happy_record(h, w, args.goal, counts)))
    else:
        print(present_statistics.happy_text(h, w, args.goal, counts))
    if args.plot:
        title = present_statistics.happy_title(h, w, args.goal)
        stats.save_plot(counts, args.plot, title, "distance to the goal (moves)")
        _plot_saved(args)


def _sample(args: argparse.Namespace) -> None:
    from .. import stats
    from ..cluster import workers

    h, w = args.shape
    if args.plot:
        stats.pyplot()  # fail before solving if matplotlib is missing
    with workers(args.jobs, args.scheduler, args.oversubscribe) as executor:
        lengths = stats.sample_lengths(h, w, args.count, seed=args.seed, goal=args.goal, executor=executor)
    if args.json:
        print(json.dumps(present_statistics.sample_record(h, w, args.goal, args.seed, lengths)))
    else:
        print(present_statistics.sample_text(h, w, args.goal, args.seed, lengths))
    if args.plot:
        stats.save_plot(stats.histogram(lengths), args.plot, present_statistics.sample_title(h, w, args.count))
        _plot_saved(args)


def _plot_saved(args: argparse.Namespace) -> None:
    """Where the image went: on stdout, or on stderr when stdout holds JSON."""
    print(present_statistics.plot_saved_text(args.plot), file=sys.stderr if args.json else sys.stdout)
