"""The exception hierarchy of npuzzle.

Every failure a user can cause has its own type, so front ends can report it without a traceback.
A search that reaches a limit is *not* an error: it returns a ``Solution`` whose status says so.
"""

from __future__ import annotations

#: The most characters of someone's input a message quotes (longer input is cut, with "...").
QUOTE_LIMIT = 40


def quote_input(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as messages show it: repr-quoted, cut to ``limit`` characters with ``...``.

    >>> quote_input("x" * 5000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'"
    """
    shown = text if len(text) <= limit else text[: max(0, limit - 3)] + "..."
    return repr(shown)


class NPuzzleError(Exception):
    """Base class of every error npuzzle raises on purpose."""


class InvalidBoardError(NPuzzleError, ValueError):
    """The input does not describe a board: bad character, duplicate or missing tile, bad shape..."""


class UnsolvableError(NPuzzleError, ValueError):
    """The position is valid but cannot reach the goal (the parity invariant differs)."""


class IllegalMoveError(NPuzzleError, ValueError):
    """A move names a tile that is not next to the blank, or a direction off the board."""


class MissingTableError(NPuzzleError):
    """A heuristic needs a table that has not been built; the message names the command to build it."""


class TableFormatError(NPuzzleError):
    """A table file on disk is truncated, corrupt or of another format; the message names the file."""
