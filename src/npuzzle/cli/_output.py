"""Writing output: one place turns a full disk or a file that takes no writes into a message;
and what a terminal shows while a command runs (``Live``: the compile notice, a status line).

``writing(path)`` writes a file's new content beside it and replaces the file only once all of it
is written, and reports every ``OSError`` of opening, writing or closing it as an
``NPuzzleError`` naming the file and the problem; ``stdout_failed(error)`` is the message for
the standard output, and silences it so Python's final flush does not fail again.

>>> import os, tempfile
>>> from npuzzle.cli._output import writing
>>> path = os.path.join(tempfile.mkdtemp(), "moves.txt")
>>> with writing(path) as out:
...     _ = out.write(b"LLUR")
...     os.path.exists(path)  # not yet: the new content goes to a file beside it
False
>>> open(path).read()
'LLUR'
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING, BinaryIO

from .. import config, locks
from ..errors import NPuzzleError
from ..present import common as present_common

if TYPE_CHECKING:
    from ..search.limits import Progress, ProgressCallback


@contextmanager
def writing(path: str) -> Iterator[BinaryIO]:
    """A file to write ``path``'s new content into: a temporary file beside it, which replaces
    ``path`` only once the block has ended without an error and everything is on disk. On any
    failure or interruption (a full disk, Ctrl-C) the temporary file is removed and the previous
    ``path`` is left as it was. A path that is no regular file (a device such as ``/dev/null``,
    a pipe) is written in place. A new file gets the mode the user's umask gives; a replaced one
    keeps its own."""
    target = os.path.realpath(path)  # a symlink keeps pointing at the file it names
    try:
        st: os.stat_result | None = os.stat(target)
    except OSError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        try:
            with open(path, "wb") as out:
                yield out
        except OSError as e:
            raise NPuzzleError(present_common.write_error_text(e, path)) from None
        return
    with locks.held(path):  # one writer per file: another process writing it is named, nothing written
        yield from _replacing(path, target, st)


def _replacing(path: str, target: str, st: os.stat_result | None) -> Iterator[BinaryIO]:
    folder, name = os.path.split(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or ".")
    except OSError as e:
        raise NPuzzleError(present_common.write_error_text(e, path)) from None
    try:
        with os.fdopen(fd, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask())
        os.replace(tmp, target)
    except OSError as e:
        _remove(tmp)
        raise NPuzzleError(present_common.write_error_text(e, path)) from None
    except BaseException:
        _remove(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0o22)
    os.umask(mask)
    return mask


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def check_writable(path: str) -> None:
    """``NPuzzleError`` unless ``path`` can be opened for writing; an existing file is left as it is
    (opened to append, nothing written), a file that did not exist is not left behind."""
    existed = os.path.lexists(path)
    try:
        with open(path, "ab"):
            pass
    except OSError as e:
        raise NPuzzleError(present_common.write_error_text(e, path)) from None
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
    return present_common.write_error_text(error)


class Live:
    """What stderr shows while a command runs, unless ``quiet``: the notice (one line) that
    kernels are being compiled, and, on a terminal, a status line rewritten in place (``\\r``)
    once a search has run ``config.status_after()`` seconds, cleared when it ends."""

    def __init__(self, quiet: bool) -> None:
        self.notices = not quiet
        self.enabled = not quiet and sys.stderr.isatty()
        self.after = config.status_after()
        self.shown = False
        self._last = 0.0

    @contextmanager
    def running(self) -> Iterator[None]:
        """The block runs with the compile notice armed; the status line is cleared at its end."""
        from ..search import compile_notice

        with ExitStack() as stack:
            if self.notices:
                stack.enter_context(compile_notice(self.notice))
            try:
                yield
            finally:
                self.clear()

    def notice(self, method: str) -> None:
        self.clear()
        print(present_common.compile_notice_text(method), file=sys.stderr, flush=True)

    def progress(self, progress: Progress) -> None:
        """An ``on_progress`` callback: redraw the status line (at most five times a second)."""
        self.show(progress.wall_seconds, lambda: present_common.progress_text(progress))

    def show(self, wall_seconds: float, text: Callable[[], str]) -> None:
        """Redraw the status line with ``text()`` (at most five times a second, once the work has
        run long enough)."""
        now = time.monotonic()
        if not self.enabled or wall_seconds < self.after or now - self._last < 0.2:
            return
        self._last = now
        sys.stderr.write("\r" + text() + "\x1b[K")
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False

    def callback(self) -> ProgressCallback | None:
        """``progress`` when enabled, else None (the search then runs in its larger slices)."""
        return self.progress if self.enabled else None


class ProgressBar:
    """A long build's progress bar on stderr (a ``meters.Meter``), drawn only when stderr is a
    terminal (so tests print nothing), its text from ``present.tables.progress_bar_text``: at
    most ten redraws a second, and the last one kept on its line at the end."""

    def __init__(self, total: int, label: str) -> None:
        self.total = max(int(total), 1)
        self.label = label
        self.done = 0
        self.text = ""
        self.enabled = sys.stderr.isatty()
        self._last = 0.0
        self._start = time.monotonic()

    def advance(self, n: int = 1) -> None:
        self.done += n
        self._draw()

    def note(self, text: str) -> None:
        self.text = text
        self._draw()

    def _draw(self, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self._last < 0.1:
            return
        self._last = now
        from ..present.tables import progress_bar_text

        sys.stderr.write("\r" + progress_bar_text(self.label, self.done, self.total, now - self._start, self.text)
                         + "\x1b[K")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            self._draw(force=True)
            sys.stderr.write("\n")
            sys.stderr.flush()
