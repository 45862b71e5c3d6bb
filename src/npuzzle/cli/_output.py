"""Writing output: one place turns a full disk or a file that takes no writes into a message.

``writing(path)`` opens a file only when there is something to write into it, and reports every
``OSError`` of opening, writing or closing it as an ``NPuzzleError`` naming the file and the
problem; ``stdout_failed(error)`` is the message for the standard output, and silences it so
Python's final flush does not fail again.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO

from .. import present
from ..errors import NPuzzleError


@contextmanager
def writing(path: str) -> Iterator[BinaryIO]:
    """``path`` opened for writing (emptied now: open it only once the output is ready to come)."""
    try:
        with open(path, "wb") as out:
            yield out
    except OSError as e:
        raise NPuzzleError(present.write_error_text(e, path)) from None


def check_writable(path: str) -> None:
    """``NPuzzleError`` unless ``path`` can be opened for writing; an existing file is left as it is
    (opened to append, nothing written), a file that did not exist is not left behind."""
    existed = os.path.lexists(path)
    try:
        with open(path, "ab"):
            pass
    except OSError as e:
        raise NPuzzleError(present.write_error_text(e, path)) from None
    if not existed:
        os.remove(path)


def stdout_failed(error: OSError) -> str:
    """The message for a standard output that takes no more writes (a full disk); what is still
    buffered is dropped, so the interpreter's last flush cannot raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # a stdout without a file descriptor (tests)
        pass
    return present.write_error_text(error)
