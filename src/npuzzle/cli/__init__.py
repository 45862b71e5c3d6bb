"""The ``npuzzle`` command line: argparse wiring only; the library does the work and makes the text.

One module per command (``cmd_solve``, ``cmd_check``, ...), each a pair: ``add(subparsers)``
declares its arguments, ``run(args) -> int`` runs it and prints what ``npuzzle.present`` makes.
Options shared by several commands are declared once, in ``_options``. Exit codes: 0 done, 1 bad
input or unsolvable, 2 usage, 3 limit reached without a solution, 130 interrupted. ``npuzzle``
with no arguments prints the help, which lists the commands (exit status 0).

Building the parser imports neither numpy nor numba: ``npuzzle --help`` starts at once; each
command imports the solvers when it runs. Running a command builds (and imports) only that
command's parser: ``npuzzle solve ...`` never builds the eight others (7-12 ms).

>>> from npuzzle.cli import main
>>> main(["solve", "--heuristic", "lc", "1 2 3/4 5 6/0 7 8"])
3x3 board, goal standard:
  1 2 3
  4 5 6
  _ 7 8
Solution: 2 moves, optimal
  idastar, lc: 5 nodes generated in ... s (... s CPU)
  tiles pushed: 78
  letters:      LL
0
"""

from __future__ import annotations

import argparse
import errno
import functools
import importlib
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

from ..errors import ClusterLostError, InternalError, NPuzzleError, OutputBusyError
from ..meters import reporting
from ..present import common as present_common
from ._options import (
    EXIT_BUSY,
    EXIT_CLUSTER,
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_OK,
    EXIT_USAGE,
    NOTATION_HELP,
    Parser,
    flags_text,
)
from ._output import ProgressBar, stdout_failed

if TYPE_CHECKING:
    from ._options import Subparsers

#: Errors of writing the standard output (a full disk, a quota, a file too large, a device error).
_OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})

#: The commands in the order of the help; each is the module ``cmd_<name>`` of this package.
_COMMANDS = ("solve", "analyze", "check", "verify", "scramble", "knuth", "bench", "warmup", "stats", "tables",
             "dataset", "serve")


def _command(name: str) -> tuple[Callable[[Subparsers], None], Callable[[argparse.Namespace], int]]:
    """A command's ``add`` and ``run`` (its module imported on first use)."""
    module = importlib.import_module(f"{__name__}.cmd_{name}")
    return module.add, module.run


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or, if ``command`` names one, of that command alone (all a
    run of it needs)."""
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
    for name in (command,) if command in _COMMANDS else _COMMANDS:
        _command(name)[0](sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The ``npuzzle`` command: its exit status. Ctrl-C at any moment ends it with one line and
    status 130, also where the interrupt surfaces as another error (an extension module whose
    import it broke raises ``ImportError``, not ``KeyboardInterrupt``)."""
    given = sys.argv[1:] if argv is None else list(argv)
    seen: list[int] = []

    def on_interrupt(signum: int, frame: object) -> None:
        seen.append(signum)
        raise KeyboardInterrupt

    watching = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, on_interrupt) if watching else None
    try:
        return _main(given, argv)
    except Exception:
        if not seen:
            raise
        print(interrupted_text(given[0] if given and given[0] in _COMMANDS else None), file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        if watching:
            signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)


def _main(given: list[str], argv: Sequence[str] | None) -> int:
    try:
        parser = build_parser(given[0] if given else None)
        if not given:
            print(parser.format_help(), end="")
            return EXIT_OK
        args = _parse(parser, argv)
        args.command_line = ["npuzzle", *given]  # as typed, for the records of where results came from
        run = _command(args.command)[1]
    except KeyboardInterrupt:  # Ctrl-C while the command starts
        print(interrupted_text(given[0] if given and given[0] in _COMMANDS else None), file=sys.stderr)
        return EXIT_INTERRUPTED
    warnings.showwarning = functools.partial(_show_warning, args.command)
    try:
        with reporting(ProgressBar):  # long builds draw their progress bar on a terminal
            status = run(args)
        sys.stdout.flush()
        return status
    except ClusterLostError as e:
        print(f"npuzzle {args.command}: {flags_text(str(e), parser)}", file=sys.stderr)
        return EXIT_CLUSTER
    except OutputBusyError as e:
        print(f"npuzzle {args.command}: {e}", file=sys.stderr)
        return EXIT_BUSY
    except NPuzzleError as e:
        print(f"npuzzle {args.command}: {flags_text(str(e), parser)}", file=sys.stderr)
        return EXIT_INPUT
    except InternalError as e:
        print(f"npuzzle {args.command}: {present_common.internal_error_text(str(e))}", file=sys.stderr)
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        print(interrupted_text(args.command), file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except OSError as e:
        if e.filename is not None or e.errno not in _OUTPUT_ERRNOS:
            raise
        print(f"npuzzle {args.command}: {stdout_failed(e)}", file=sys.stderr)
        return EXIT_INPUT


def interrupted_text(command: str | None) -> str:
    """The one line of a command stopped by Ctrl-C."""
    return f"npuzzle {command}: interrupted" if command else "npuzzle: interrupted"


def _parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """The arguments; positions given on both sides of an option (``solve A --json B``) are all
    taken (argparse alone stops collecting them at the first option)."""
    args, extra = parser.parse_known_args(argv)
    if not extra:
        return args
    if isinstance(getattr(args, "positions", None), list) and not any(e.startswith("-") and e != "-" for e in extra):
        args.positions += extra
        return args
    return parser.parse_args(argv)  # the usage error for what is left over (argparse exits)


def _show_warning(command: str, message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: TextIO | None = None, line: str | None = None) -> None:
    """Warnings (a damaged table bypassed, ...) as one line on stderr, without source lines."""
    print(present_common.warning_text(command, str(message)), file=sys.stderr)


__all__ = ["main", "build_parser", "EXIT_OK", "EXIT_INPUT", "EXIT_USAGE", "EXIT_LIMIT", "EXIT_INTERRUPTED",
           "EXIT_INTERNAL"]
