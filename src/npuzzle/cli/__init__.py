"""The ``npuzzle`` command line: argparse wiring only; the library does the work and makes the text.

One module per command (``cmd_solve``, ``cmd_check``, ...), each a pair: ``add(subparsers)``
declares its arguments, ``run(args) -> int`` runs it and prints what ``npuzzle.present`` makes.
Options shared by several commands are declared once, in ``_options``. Exit codes: 0 done, 1 bad
input or unsolvable, 2 usage, 3 limit reached without a solution, 130 interrupted. ``npuzzle``
with no arguments prints the help, which lists the commands (exit status 0).

Building the parser imports neither numpy nor numba: ``npuzzle --help`` starts at once; each
command imports the solvers when it runs.
"""

from __future__ import annotations

import argparse
import errno
import functools
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

from ..errors import ClusterLostError, NPuzzleError
from . import (
    cmd_bench,
    cmd_check,
    cmd_knuth,
    cmd_scramble,
    cmd_serve,
    cmd_solve,
    cmd_stats,
    cmd_tables,
    cmd_warmup,
)
from ._options import EXIT_CLUSTER, EXIT_INPUT, EXIT_INTERRUPTED, EXIT_LIMIT, EXIT_OK, EXIT_USAGE, NOTATION_HELP, Parser
from ._output import stdout_failed

if TYPE_CHECKING:
    from ._options import Subparsers

#: Errors of writing the standard output (a full disk, a quota, a file too large, a device error).
_OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})

_COMMANDS: dict[str, tuple[Callable[[Subparsers], None], Callable[[argparse.Namespace], int]]] = {
    "solve": (cmd_solve.add, cmd_solve.run),
    "check": (cmd_check.add, cmd_check.run),
    "scramble": (cmd_scramble.add, cmd_scramble.run),
    "knuth": (cmd_knuth.add, cmd_knuth.run),
    "bench": (cmd_bench.add, cmd_bench.run),
    "warmup": (cmd_warmup.add, cmd_warmup.run),
    "stats": (cmd_stats.add, cmd_stats.run),
    "tables": (cmd_tables.add, cmd_tables.run),
    "serve": (cmd_serve.add, cmd_serve.run),
}


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__

    parser = Parser(
        prog="npuzzle",
        description="Solve sliding-tile puzzles (8-, 15-, 24-puzzle and every m x n board).",
        epilog=NOTATION_HELP + "\n'npuzzle' alone prints this help (exit status 0); "
        "'npuzzle COMMAND --help' describes a command.\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"npuzzle {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for add, _ in _COMMANDS.values():
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):
        print(parser.format_help(), end="")
        return EXIT_OK
    args = _parse(parser, argv)
    _, run = _COMMANDS[args.command]
    warnings.showwarning = functools.partial(_show_warning, args.command)
    try:
        status = run(args)
        sys.stdout.flush()
        return status
    except ClusterLostError as e:
        print(f"npuzzle {args.command}: {e}", file=sys.stderr)
        return EXIT_CLUSTER
    except NPuzzleError as e:
        print(f"npuzzle {args.command}: {e}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print(f"npuzzle {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except OSError as e:
        if e.filename is not None or e.errno not in _OUTPUT_ERRNOS:
            raise
        print(f"npuzzle {args.command}: {stdout_failed(e)}", file=sys.stderr)
        return EXIT_INPUT


def _parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """The arguments; positions given on both sides of an option (``solve A --json B``) are all
    taken (argparse alone stops collecting them at the first option)."""
    args, extra = parser.parse_known_args(argv)
    if extra and isinstance(getattr(args, "positions", None), list) and not any(
            e.startswith("-") and e != "-" for e in extra):
        args.positions += extra
        return args
    return parser.parse_args(argv)  # the usage error for what is left over


def _show_warning(command: str, message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: TextIO | None = None, line: str | None = None) -> None:
    """Warnings (a damaged table bypassed, ...) as one line on stderr, without source lines."""
    from .. import present

    print(present.warning_text(command, str(message)), file=sys.stderr)


__all__ = ["main", "build_parser", "EXIT_OK", "EXIT_INPUT", "EXIT_USAGE", "EXIT_LIMIT", "EXIT_INTERRUPTED"]
