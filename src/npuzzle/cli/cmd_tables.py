"""``npuzzle tables``: list, build and remove the tables stored on disk.

(Named ``cmd_tables`` so that it is never mistaken for the library's ``npuzzle.tables``.)
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING

from .. import present
from ..errors import quote_input
from ._options import EXIT_INPUT, EXIT_OK, Parser, add_goal, add_shape

if TYPE_CHECKING:
    from ._options import Subparsers


def add(sub: Subparsers) -> None:
    p = sub.add_parser("tables", help="build, list or remove the tables stored on disk",
                       description="Manage the table store (NPUZZLE_DATA_DIR, else "
                       "$XDG_CACHE_HOME/npuzzle, else ~/.cache/npuzzle).")
    tsub = p.add_subparsers(dest="tables_command", metavar="ACTION", parser_class=Parser)
    tsub.required = True
    tsub.add_parser("list", help="list the stored tables", description="List the stored tables.")
    b = tsub.add_parser(
        "build", help="build a pattern database (pdb:NAME) and store it",
        description="Build the pattern databases of a partition and store them (one file). Shipped "
        "partitions: 4x4 pdb:7-8 (about 580 MB on disk, a few minutes), pdb:6-6-3 (12 MB, seconds), "
        "pdb:5-5-5 (1.5 MB); 3x3 pdb:4-4; any board of up to 32 cells takes sizes such as pdb:3-2 "
        "(patterns of consecutive tiles). The memory needed is checked before the build starts.")
    b.add_argument("name", metavar="NAME", help="pdb:PARTITION, e.g. pdb:7-8")
    add_shape(b, default=(4, 4), help="board shape (default 4x4)")
    add_goal(b, help="goal convention (default standard; Korf's benchmarks use blank-first)")
    b.add_argument("--force", action="store_true", help="rebuild even if the table exists")
    r = tsub.add_parser("remove", help="remove stored tables by file name", description="Remove stored tables.")
    r.add_argument("names", nargs="+", metavar="NAME", help="file name as 'npuzzle tables list' shows it")


def run(args: argparse.Namespace) -> int:
    from .. import config, tables

    if args.tables_command == "list":
        print(present.table_list_text(tables.list_tables(), config.data_dir()))
        return EXIT_OK
    if args.tables_command == "build":
        return _build(args)
    status = EXIT_OK
    for name in args.names:
        if tables.remove_table(name):
            print(f"removed {name}")
        else:
            print(f"npuzzle tables: no table named {quote_input(name)}", file=sys.stderr)
            status = EXIT_INPUT
    return status


def _build(args: argparse.Namespace) -> int:
    from .. import tables
    from ..heuristics import pattern_db

    name = pattern_db.partition_name(args.name)
    h, w = args.shape
    key = pattern_db.table_key(name, h, w, args.goal)
    if tables.has_table(key) and not args.force:
        print(present.pdb_built_text(name, h, w, args.goal, tables.table_path(key)))
        return EXIT_OK
    groups = pattern_db.groups_for(name, h, w, args.goal)
    print(present.pdb_build_text(name, h, w, args.goal, groups, pattern_db.build_bytes(groups, h * w)), flush=True)
    start = time.process_time()
    path = pattern_db.build(name, h, w, args.goal)
    print(present.table_stored_text(path, path.stat().st_size, time.process_time() - start))
    return EXIT_OK
