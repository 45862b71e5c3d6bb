"""One writer per output file: a lock file ``FILE.lock`` beside the file, locked with
``flock`` and holding the writer's process id.

A second process that asks for the same file is refused at once (``OutputBusyError``, naming the
holder's pid), never made a second writer. The lock belongs to the open lock file, so the system
drops it when its holder ends, however it ends: a lock file left by a process that died is
simply locked again by the next writer (taken over), its stale pid replaced. The holder removes
the lock file when it is done; a writer that locked a file just removed (its holder finishing
between our open and our lock) sees it is no longer the one at that path and tries again.

Within one process a file is claimed once: asking again for a file the process already holds
adds a hold, released in turn (the lock goes with the last one). Every hold still open at exit
is released then.

>>> import tempfile, os
>>> from pathlib import Path
>>> out = Path(tempfile.mkdtemp()) / "rows.jsonl"
>>> with held(out):
...     int(lock_path(out).read_text()) == os.getpid()
True
>>> lock_path(out).exists()
False
"""

from __future__ import annotations

import atexit
import errno
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import NPuzzleError, OutputBusyError, quote_input

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: no locking (one writer is then the user's care)
    fcntl = None  # type: ignore[assignment]

#: Seconds a refused writer waits for a holder that has just locked to write its pid.
PID_WAIT = 0.5


def lock_path(path: str | Path) -> Path:
    """The lock file of ``path``: ``FILE.lock`` beside it."""
    p = Path(path)
    return p.with_name(p.name + ".lock")


class Claim:
    """A held lock on one output file (``claim``); ``release`` lets it go."""

    def __init__(self, path: Path, lock: Path, fd: int | None) -> None:
        self.path, self.lock, self.fd, self.holds = path, lock, fd, 1

    def release(self) -> None:
        """Give up one hold; the last removes the lock file and unlocks it."""
        self.holds -= 1
        if self.holds > 0 or self.fd is None:
            return
        _held.pop(self.lock, None)
        try:
            if _same_file(self.fd, self.lock):
                self.lock.unlink()
        except OSError:
            pass  # a lock file that cannot be removed is taken over by the next writer
        finally:
            os.close(self.fd)
            self.fd = None


#: The claims this process holds, by lock file.
_held: dict[Path, Claim] = {}


def claim(path: str | Path, *, wait: bool = False) -> Claim:
    """Make this process the one writer of ``path``: ``OutputBusyError`` (naming the holder's
    pid) if another process writes it, unless ``wait``, which waits for that one to finish.
    ``NPuzzleError`` if the lock file cannot be made (a folder that is not writable)."""
    lock = Path(os.path.abspath(lock_path(path)))
    mine = _held.get(lock)
    if mine is not None:
        mine.holds += 1
        return mine
    if fcntl is None:  # pragma: no cover
        return Claim(Path(path), lock, None)
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
        except OSError as e:
            raise NPuzzleError(f"cannot write {quote_input(str(path), 80)}: {e.strerror or e} (making its lock "
                               f"file {lock.name})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except OSError as e:
            pid = _holder(fd)
            os.close(fd)
            if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise OutputBusyError(str(path), pid) from None
            raise NPuzzleError(f"cannot write {quote_input(str(path), 80)}: {e.strerror or e} (locking "
                               f"{lock.name})") from None
        if _same_file(fd, lock):
            break
        os.close(fd)  # its holder removed it as we locked it: lock the one at the path now
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    mine = _held[lock] = Claim(Path(path), lock, fd)
    return mine


@contextmanager
def held(path: str | Path, *, wait: bool = False) -> Iterator[Claim]:
    """``claim(path)`` for the length of a block."""
    c = claim(path, wait=wait)
    try:
        yield c
    finally:
        c.release()


def _same_file(fd: int, lock: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(lock))
    except OSError:
        return False


def _holder(fd: int) -> int | None:
    """The pid written in a lock file another process holds (it may have just locked it and not
    written its pid yet: wait a moment for it)."""
    deadline = time.monotonic() + PID_WAIT
    while True:
        try:
            text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        except OSError:
            return None
        if text.isdigit():
            return int(text)
        if time.monotonic() > deadline:
            return None
        time.sleep(0.01)


@atexit.register
def _release_all() -> None:
    for c in list(_held.values()):
        c.holds = 1
        c.release()
