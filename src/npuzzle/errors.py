"""The exception hierarchy of npuzzle.

Every failure a user can cause has its own type, so front ends can report it without a traceback.
A search that reaches a limit is *not* an error: it returns a ``Solution`` whose status says so.
"""

from __future__ import annotations

#: The most characters of someone's input a message quotes (longer input is cut, with "...").
QUOTE_LIMIT = 40


def quote_input(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` as messages show it: a text repr-quoted and cut to ``limit`` characters with
    ``...``; anything else as its repr, cut the same way (a huge int, whose repr may fail beyond
    4300 digits, is only named).

    >>> quote_input("x" * 5000), quote_input(7), quote_input(10 ** 5000)
    ("'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'", '7', '<a number too long to show>')
    """
    if isinstance(value, str):
        return repr(value if len(value) <= limit else value[: max(0, limit - 3)] + "...")
    if isinstance(value, int) and value.bit_length() > 128:
        return "<a number too long to show>"
    text = repr(value)
    return text if len(text) <= limit else text[: max(0, limit - 3)] + "..."


class NPuzzleError(Exception):
    """Base class of every error npuzzle raises on purpose: catch it to report any of them.

    >>> from npuzzle import parse
    >>> try:
    ...     parse("1 2 3/4 5 6/7 8 8")
    ... except NPuzzleError as e:
    ...     print(e)
    duplicate tile 8 in '1 2 3/4 5 6/7 8 8'
    """


class InvalidBoardError(NPuzzleError, ValueError):
    """The input does not describe a board: bad character, duplicate or missing tile, bad shape...

    >>> from npuzzle import parse
    >>> parse("1 2 3/4 5")
    Traceback (most recent call last):
    ...
    npuzzle.errors.InvalidBoardError: ragged rows: row 1 has 3 numbers but row 2 has 2 in '1 2 3/4 5'
    """


class InvalidOptionError(NPuzzleError, ValueError):
    """An option's value is out of its range or not one of its names; the message names the
    parameter (``max_nodes=``; the command line names its flag instead).

    >>> from npuzzle import solve
    >>> solve("1 2 3/4 5 6/7 0 8", max_nodes=0)
    Traceback (most recent call last):
    ...
    npuzzle.errors.InvalidOptionError: max_nodes=0: give a whole number from 1 to 9,223,372,036,854,775,807
    """


class InvalidTypeError(NPuzzleError, TypeError):
    """An argument of the wrong type; the message names the parameter and the types it takes.

    >>> from npuzzle import solve
    >>> solve(None)
    Traceback (most recent call last):
    ...
    npuzzle.errors.InvalidTypeError: board=None: give a Board or a position as text
    """


class UnsolvableError(NPuzzleError, ValueError):
    """The position is valid but cannot reach the goal (the parity invariant differs).

    >>> from npuzzle import solve
    >>> solve("2 1/3 0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    npuzzle.errors.UnsolvableError: unsolvable for the standard goal: ...
    """


class IllegalMoveError(NPuzzleError, ValueError):
    """A move names a tile that is not next to the blank, or a direction off the board.

    >>> from npuzzle import parse
    >>> parse("1 2/3 0").move(1)
    Traceback (most recent call last):
    ...
    npuzzle.errors.IllegalMoveError: tile 1 is not next to the blank
    """


class MissingTableError(NPuzzleError):
    """A heuristic needs a table that has not been built; the message names the command to build it.

    >>> from npuzzle import lower_bound
    >>> lower_bound("1 2 3/4 5 6/7 0 8", "pdb:1-1-6")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    npuzzle.errors.MissingTableError: ...pdb:1-1-6...
    """


class TableFormatError(NPuzzleError):
    """A table file on disk is truncated, corrupt or of another format; the message names the file.

    >>> issubclass(TableFormatError, NPuzzleError)
    True
    """


class TableStoreError(NPuzzleError):
    """The table store cannot be written (its folder is a file, not writable, full...); the
    message names the folder and what to do.

    >>> issubclass(TableStoreError, NPuzzleError)
    True
    """


class TableBuildStopped(NPuzzleError):
    """A table a search needed first (walking distance) would overrun the search's time or
    memory limit: the search ends as stopped at that limit (``status``), nothing searched.

    >>> TableBuildStopped("timeout", "stopped").status
    'timeout'
    """

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status


class SearchStopped(NPuzzleError):
    """A piece of work made of many searches (a solve's analysis) reached its time or node limit
    before it was done: ``status`` names the limit (``timeout``, ``node-limit``, ...).

    >>> SearchStopped("timeout", "the analysis stopped at its time limit").status
    'timeout'
    """

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status


class ClusterLostError(NPuzzleError):
    """The Dask cluster stopped answering midway (its scheduler died or the network went): the
    message says how much was done; the command line prints the answers it has, then this, and
    exits with status 4.

    >>> issubclass(ClusterLostError, NPuzzleError)
    True
    """


class OutputBusyError(NPuzzleError):
    """Another process is writing the output file asked for (its lock file ``FILE.lock`` is
    held): ``pid`` is that process's id (None if it could not be read). The command line exits
    with status 5.

    >>> print(OutputBusyError("runs.csv", 4242))
    runs.csv is being written by another process (pid 4242): wait for it to end, or write elsewhere
    """

    def __init__(self, path: str, pid: int | None) -> None:
        who = f"another process (pid {pid})" if pid is not None else "another process"
        super().__init__(f"{path} is being written by {who}: wait for it to end, or write elsewhere")
        self.path, self.pid = path, pid


class InternalError(Exception):
    """npuzzle itself went wrong: a bug, never a mistake of the caller (for example a solver's
    answer that fails its replay, ``search.limits.VerificationError``). Not an ``NPuzzleError``:
    nothing the caller can change in the input avoids it. The command line reports it with its
    own exit status (70) and asks for a report."""


class TableWarning(UserWarning):
    """A stored table that a command could do without is damaged: it is bypassed (and replaced
    by the command that builds it). Issued once per file and process.

    >>> issubclass(TableWarning, UserWarning)
    True
    """
