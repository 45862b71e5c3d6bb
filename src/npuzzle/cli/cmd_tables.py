"""``npuzzle tables``: list, build and remove the tables stored on disk.

(Named ``cmd_tables`` so that it is never mistaken for the library's ``npuzzle.tables``.)

Here in a scratch store of its own, so the example leaves the user's store as it is:

>>> from npuzzle.cli import main
>>> from npuzzle.search.warm import scratch_store
>>> with scratch_store():
...     main(["tables", "build", "pdb:3-2", "--shape", "2x3"])
...     main(["tables", "list"])
building pdb:3-2 for 2x3 (standard goal): patterns {1 2 3}, {4 5}; needs about 0 MiB of memory
stored .../pdb_2x3_standard_1.2.3-4.5_v1.npt (523 bytes) in ... s CPU
0
1 table in ..., 523 B in all
pdb:3-2 --shape 2x3 --goal standard ... pdb_2x3_standard_1.2.3-4.5_v1.npt
remove one with: npuzzle tables remove NAME [--shape HxW] [--goal GOAL] (or its file name)
0
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING

from ..board import GOALS
from ..errors import NPuzzleError, quote_input
from ..present import tables as present_tables
from ._options import EXIT_INPUT, EXIT_OK, Parser, add_goal, add_json, add_shape

if TYPE_CHECKING:
    from ._options import Subparsers


def add(sub: Subparsers) -> None:
    p = sub.add_parser("tables", help="build, list or remove the tables stored on disk",
                       description="Manage the table store (NPUZZLE_DATA_DIR, else "
                       "$XDG_CACHE_HOME/npuzzle, else ~/.cache/npuzzle).")
    tsub = p.add_subparsers(dest="tables_command", metavar="ACTION", parser_class=Parser)
    tsub.required = True
    lst = tsub.add_parser("list", help="list the stored tables",
                          description="List the stored tables by the names that build them, with size and "
                          "date; internal tables (BFS distance tables, the move automaton; the walking-distance "
                          "tables, made when first needed, are listed as 'walking') are marked, damaged "
                          "files flagged (files under 1 GB are checked in full).")
    add_json(lst, "print one JSON record per table (docs/json.md)")
    b = tsub.add_parser(
        "build", help="build a pattern database (pdb:NAME) and store it",
        description="Build the pattern databases of a partition and store them (one file). Shipped "
        "partitions: 4x4 pdb:7-8 (about 290 MB on disk, a few minutes), pdb:6-6-3 (12 MB, seconds), "
        "pdb:5-5-5 (1.5 MB), blocks of the board as in Korf & Felner (2002); 5x5 pdb:6-6-6-6 (Korf & "
        "Felner's four blocks of 2x3, the top-left one with the centre tile; blank-aware: two entries "
        "a placement, for the blank in a pocket of the pattern's tiles or not; about 510 MB on disk, "
        "2 minutes, 2.2 GB of memory while it builds); 5x5 pdb:7-7-5-5 (two 7-tile blocks, plain: "
        "2.4 GB on disk, about 30 minutes and 13 GB of memory; far weaker than pdb:6-6-6-6 on Korf & "
        "Felner's instances, for experiments); 3x3 pdb:4-4; any board of up to 32 cells "
        "takes sizes such as pdb:3-2 (patterns of consecutive tiles). Searches also look the "
        "patterns up on the board's mirror image about the main diagonal (square boards). The "
        "memory needed is checked before the build starts; a build needing more than 4 GB or 10 "
        "minutes asks first on a terminal, and needs --yes otherwise. "
        "A damaged stored table is rebuilt. "
        "Compressed tables (Felner, Korf, Meshulam & Holte 2007): pdb:PARTITION/D1-D2-... keeps, for "
        "each pattern, the least entry over the places of its last D tiles (a lower bound still, in "
        "fewer bytes), made from the partition's table (read from the store, else built in memory): "
        "pdb:7-8/0-1 takes 58 MB, seconds from a stored pdb:7-8, else 3-5 minutes and 2.5 GB of memory. "
        "Two partitions are max'ed in IDA* as pdb:A+pdb:B (e.g. pdb:7-8/0-1+pdb:7-8s/0-1, 115 MB; "
        "7-8s is a staircase partition of 4x4). "
        "'best' builds the tables of the fastest solves of a shape, found by measurement, which 'auto' "
        "then uses: on 4x4 pdb:7-8 (no compressed table or pair within its 288 MB was faster; a few "
        "minutes, 2.5 GB of memory while it builds); elsewhere the strongest shipped partition.")
    b.add_argument("name", metavar="NAME", help="pdb:PARTITION, e.g. pdb:7-8 or pdb:7-8/0-1, or best")
    add_shape(b, default=(4, 4), help="board shape (default 4x4)")
    add_goal(b, help="goal convention (default standard; Korf's benchmarks use blank-first)")
    b.add_argument("--force", action="store_true", help="rebuild even if the table exists")
    b.add_argument("--yes", action="store_true", help="start a large build without asking")
    r = tsub.add_parser("remove", help="remove stored tables",
                        description="Remove stored tables, named as 'npuzzle tables list' shows them: "
                        "pdb:NAME [--shape HxW] [--goal GOAL] (default 4x4, both goals), bfs --shape HxW, "
                        "automaton --shape HxW, walking --shape HxW (the walking-distance tables), or a file "
                        "name.")
    r.add_argument("names", nargs="+", metavar="NAME", help="pdb:NAME, bfs, automaton, walking, or a file name")
    add_shape(r, help="board shape of the tables (pdb: default 4x4)")
    r.add_argument("--goal", choices=GOALS, default=None, help="only the tables of this goal (default: any)")


def run(args: argparse.Namespace) -> int:
    from .. import config, tables

    if args.tables_command == "list":
        from ..heuristics import pattern_db, walking_distance  # noqa: F401  (registers the checks of their kinds)
        from ..search import bfs, fsm  # noqa: F401
        infos = tables.list_tables()
        if args.json:
            for info in infos:
                print(json.dumps(present_tables.table_record(info)))
        else:
            print(present_tables.table_list_text(infos, config.data_dir()))
        return EXIT_OK
    if args.tables_command == "build":
        return _build(args)
    status = EXIT_OK
    for name in args.names:
        files = _files(name, args.shape, args.goal)
        removed = [f for f in files if tables.remove_table(f)]
        for f in removed:
            print(present_tables.table_removed_text(f))
        if not removed:
            print(f"npuzzle tables: no stored table named {quote_input(name)}"
                  + (f" for {args.shape[0]}x{args.shape[1]}" if args.shape and not name.endswith(".npt") else ""),
                  file=sys.stderr)
            status = EXIT_INPUT
    return status


def _files(name: str, shape: tuple[int, int] | None, goal: str | None) -> list[str]:
    """The file names a name of ``tables remove`` stands for."""
    from .. import tables
    from ..heuristics import pattern_db, walking_distance
    from ..search import bfs, fsm

    if name.startswith("pdb:"):
        h, w = shape or (4, 4)
        return pattern_db.stored_files(pattern_db.partition_name(name), h, w, goal)  # type: ignore[arg-type]
    kinds = {"bfs": bfs.KIND, "automaton": fsm.KIND, "walking": walking_distance.KIND}
    if name in kinds:
        if shape is None:
            raise NPuzzleError(f"say which board: npuzzle tables remove {name} --shape HxW")
        return tables.matching(kinds[name], *shape, goal if name != "automaton" else None)
    return [name]


def _build(args: argparse.Namespace) -> int:
    """``tables build NAME``, or each table of ``best`` in turn."""
    from ..heuristics import pattern_db

    if args.name != "best":
        return _build_one(args, pattern_db.partition_name(args.name))
    for name in pattern_db.best(*args.shape):
        status = _build_one(args, name)
        if status != EXIT_OK:
            return status
    return EXIT_OK


def _build_one(args: argparse.Namespace, name: str) -> int:
    from .. import tables
    from ..heuristics import pattern_db

    h, w = args.shape
    key = pattern_db.table_key(name, h, w, args.goal)
    if tables.has_table(key) and not args.force:
        if pattern_db.is_sound(name, h, w, args.goal):
            print(present_tables.pdb_built_text(name, h, w, args.goal, tables.table_path(key)))
            return EXIT_OK
        print(present_tables.pdb_damaged_text(name, h, w, args.goal, tables.table_path(key)))
    groups = pattern_db.groups_for(name, h, w, args.goal)
    memory = pattern_db.build_memory(name, h, w, args.goal)
    pattern_db.check_memory(name, h, w, args.goal)
    tables.writable_path(key)
    if pattern_db.needs_confirmation(groups, h * w) and not args.yes:
        seconds = pattern_db.build_seconds(groups, h * w)
        if not sys.stdin.isatty():
            refusal = present_tables.build_needs_yes_text(name, h, w, memory, seconds)
            print(f"npuzzle tables: {refusal}", file=sys.stderr)
            return EXIT_INPUT
        print(present_tables.build_confirm_text(name, h, w, memory, seconds), end="", file=sys.stderr, flush=True)
        if sys.stdin.readline().strip().lower() not in ("y", "yes"):
            print("npuzzle tables: not started", file=sys.stderr)
            return EXIT_INPUT
    print(present_tables.pdb_build_text(name, h, w, args.goal, groups, memory), flush=True)
    start = time.process_time()
    path = pattern_db.build(name, h, w, args.goal)
    print(present_tables.table_stored_text(path, path.stat().st_size, time.process_time() - start))
    return EXIT_OK
