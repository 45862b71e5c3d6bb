"""The on-disk store for precomputed tables. It holds four kinds:

``bfs``  exact distances (mod 3, 2 bits a position) of a whole state space (``search.bfs``),
         saved on request (``npuzzle stats bfs ... --save``), and for a goal board's blank
         cell the first time a solve needs one; goal ``standard``, ``blank-first`` or
         ``blank-R,C``.
``pdb``  additive pattern databases (``heuristics.pattern_db``), built by
         ``npuzzle tables build pdb:NAME``; the pattern field lists every pattern's tiles.
``fsm``  IDA*'s duplicate-pruning move automaton (``search.fsm``), saved automatically the
         first time a shape needs it; goal ``any``, pattern ``moves<max_len>.v<version>``.
``walking``  the walking distance's row or column tables (``heuristics.walking_distance``),
         saved the first time a shape and goal need them; pattern ``rows.v<version>`` or
         ``cols.v<version>``.

The real-time solver's final-region tables are not stored: they are built in memory when first
needed.

A table is a numpy array plus the inputs that determine it, named by a ``TableKey`` (kind, board
shape, goal, pattern). Tables live in ``config.data_dir()``; the file name encodes every input
and the format version, so tables of different inputs never collide:

    <kind>_<H>x<W>_<goal>_<pattern>_v<FORMAT_VERSION>.npt      (pattern "all" when there is none)

File layout (one file, so a rename publishes header and data together):

    8 bytes   magic ``b"NPUZTBL\\n"``
    4 bytes   header length L (little-endian unsigned)
    L bytes   JSON header, space-padded so the data starts at a multiple of 64 bytes
    rest      the array's bytes (C order)

The header holds ``format_version``, ``kind``, ``shape``, ``goal``, ``pattern``, ``dtype``,
``array_shape``, ``length`` (elements), ``nbytes``, ``checksum`` and a free ``meta`` dict.
The checksum is BLAKE2b (16-byte digest, ``hashlib``) over the data bytes followed by the
canonical JSON of ``meta`` (so stored facts such as a distribution are protected too), written as
``"blake2b-128:<hex>"``. ``save_table`` writes a temporary file in the same directory and
``os.replace``s it, so concurrent builders never expose half a table. ``load_table`` checks the
header against the key, the file size against the header (truncation) and, unless told not to,
the checksum; then it memory-maps the data read-only. Any mismatch raises ``TableFormatError``
naming the file and the problem.

Verified once. Hashing a large table costs more than the search it serves (0.5 CPU s for the
288 MB 7-8 tables), so a load that verified the checksum and the kind's invariants leaves a
stamp beside the file (``.NAME.verified``: the checksum, inode, size, modification and change
times). A later load whose file still matches its stamp skips the hash. Every write to a file
changes its change time (``st_ctime``, which no program can set back), and a rebuild replaces
the inode, so a table changed in any way after its stamp is verified again before it is used.
A stamp is only left for a file last changed more than ``STAMP_AFTER`` seconds earlier, so a
write within the file system's timestamp granularity cannot go unseen.

Signed stamps. The stamp holds an HMAC-SHA256 of those fields, under a secret key kept outside
the store (``config.stamp_key_path``: made on first use, readable by its owner only), never
the fields themselves: whoever can write the store but not read that key cannot write a stamp
that switches the checks off for a table they forged; a table with a stamp it cannot prove is
verified in full. No key (one that cannot be made, or one inside the store) means no stamps:
every load verifies. The signature costs well under a millisecond per load.

Mapped once. Large data (``HUGE_PAGE_BYTES`` and up) is mapped with 2 MB pages where the
kernel offers them for files (``madvise(MADV_HUGEPAGE)``, then the pages read in order): random
lookups then rarely miss the TLB, and the one copy in the page cache is shared by every process
that maps the table (no private copy per process).

This module owns every path error of the store: a store folder that is a file, a table path that
is a folder or a symlink loop, an unreadable or unwritable file. Reading such a path raises
``TableFormatError`` (or ``MissingTableError`` when there is simply no table); writing raises
``TableStoreError`` saying what to do. Header fields are checked for type and size before anything
is allocated. A command that can do without a damaged table calls ``warn_damaged`` (a
``TableWarning``, once per file and process) and goes on without it.
"""

from __future__ import annotations

import contextvars
import dataclasses
import errno
import functools
import hashlib
import hmac
import json
import math
import mmap
import os
import re
import shutil
import stat
import struct
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from . import config, locks
from .errors import MissingTableError, TableBuildStopped, TableFormatError, TableStoreError, TableWarning, quote_input

FORMAT_VERSION = 1
MAGIC = b"NPUZTBL\n"
SUFFIX = ".npt"
_ALIGN = 64
_FIELD = re.compile(r"^[A-Za-z0-9.,+-]+$")
_CHUNK = 1 << 24
#: The longest header read (real ones are a few hundred bytes; a distribution a few more).
MAX_HEADER = 1 << 20
#: The element types a table may have: plain integers and floats of at most 8 bytes.
_DTYPE_KINDS = "uif"
#: Data from this size on is mapped with 2 MB pages where the system allows.
HUGE_PAGE_BYTES = 64 << 20
#: A verification stamp is left only for files unchanged for this many seconds.
STAMP_AFTER = 2.0
_PAGE = 4096


@dataclass(frozen=True)
class TableKey:
    """Every input a table depends on. Fields use only letters, digits and ``. , + -``.

    >>> TableKey("bfs", 3, 4, "standard").filename
    'bfs_3x4_standard_all_v1.npt'
    """

    kind: str
    height: int
    width: int
    goal: str
    pattern: str = "all"

    def __post_init__(self) -> None:
        for name in ("kind", "goal", "pattern"):
            value = getattr(self, name)
            if not isinstance(value, str) or not _FIELD.match(value):
                raise ValueError(f"table {name} {value!r} must use only letters, digits and . , + -")
        if not (isinstance(self.height, int) and isinstance(self.width, int)) or min(self.height, self.width) < 1:
            raise ValueError(f"bad table shape {self.height!r}x{self.width!r}")

    @property
    def shape(self) -> str:
        return f"{self.height}x{self.width}"

    @property
    def filename(self) -> str:
        return f"{self.kind}_{self.shape}_{self.goal}_{self.pattern}_v{FORMAT_VERSION}{SUFFIX}"


@dataclass(frozen=True)
class Table:
    """A loaded table: ``data`` is a read-only memory map; ``meta`` is what the builder stored."""

    key: TableKey
    path: Path
    data: np.ndarray
    meta: dict[str, Any]


@dataclass(frozen=True)
class TableInfo:
    """One file of the store as ``list_tables`` sees it: ``key`` is None if the header cannot be
    read; ``problem`` says what is wrong (a bad header, a checksum mismatch), else None.
    ``size`` is the file's size in bytes and ``mtime`` its modification time (seconds)."""

    path: Path
    key: TableKey | None
    dtype: str = ""
    length: int = 0
    nbytes: int = 0
    meta: dict[str, Any] = field(default_factory=dict)
    problem: str | None = None
    size: int = 0
    mtime: float = 0.0
    verified: bool = False


def table_path(key: TableKey) -> Path:
    return config.data_dir() / key.filename


def has_table(key: TableKey) -> bool:
    """Whether anything (a table, a damaged file, a folder, a symlink loop) is at ``key``'s
    path, so that a load reports what is wrong with it; never raises."""
    try:
        return os.path.lexists(table_path(key))
    except (OSError, ValueError):
        return False


def _why(e: OSError) -> str:
    return e.strerror or type(e).__name__


def table_stamp(key: TableKey) -> tuple[int, int] | None:
    """``(mtime_ns, size)`` of the table file for ``key``, or None if there is none (or no store
    folder at all). ``TableFormatError`` if the path cannot be read or is not a file."""
    path = table_path(key)
    try:
        st = path.stat()
    except (FileNotFoundError, NotADirectoryError):
        if path.is_symlink():
            raise TableFormatError(f"table file {path}: is a symlink to nothing; remove it "
                                   f"('npuzzle tables remove {key.filename}')") from None
        return None
    except OSError as e:
        raise TableFormatError(f"table file {path}: cannot be read ({_why(e)})") from None
    if stat.S_ISDIR(st.st_mode):
        raise TableFormatError(f"table file {path}: is a folder, not a table file; move or remove it "
                               f"('npuzzle tables remove {key.filename}' removes an empty one)")
    if not stat.S_ISREG(st.st_mode):
        raise TableFormatError(f"table file {path}: is not a regular file")
    return st.st_mtime_ns, st.st_size


def warn_damaged(error: Exception, bypass: str) -> None:
    """Report a damaged optional table once per process: ``error``'s message, then ``bypass``
    (what is done instead, and how to rebuild it)."""
    text = f"{error}; {bypass}"
    if text not in _warned:
        _warned.add(text)
        warnings.warn(TableWarning(text), stacklevel=3)


_warned: set[str] = set()


def _store_error(e: OSError, root: Path) -> TableStoreError:
    """What to tell someone whose table store cannot be written."""
    if root.is_symlink() and not root.exists():
        return TableStoreError(f"cannot store tables in {root}: it is a symlink to nothing (or a loop); "
                               "set NPUZZLE_DATA_DIR to a folder")
    if isinstance(e, (NotADirectoryError, FileExistsError)) or (root.exists() and not root.is_dir()):
        return TableStoreError(
            f"cannot store tables in {root}: it (or a folder above it) is a file, not a folder; "
            "set NPUZZLE_DATA_DIR to a folder")
    advice = " (the disk is full)" if e.errno == errno.ENOSPC else ""
    where = e.filename or root
    return TableStoreError(f"cannot store tables in {root}: {where}: {_why(e)}{advice}; "
                           "set NPUZZLE_DATA_DIR to a writable folder")


def writable_path(key: TableKey, nbytes: int = 0) -> Path:
    """The path to write the table for ``key`` to, once the store folder exists and nothing
    but a table (or nothing) is in the way: an empty folder at the table's path is removed, and
    this table's leftovers of an interrupted write too. ``TableStoreError`` (saying what to do)
    otherwise, or if the store's disk has less than ``nbytes`` free. Builders call it before a
    long build, with the table's size."""
    root = config.data_dir()
    path = root / key.filename
    try:
        root.mkdir(parents=True, exist_ok=True)
        if path.is_dir() and not path.is_symlink():
            try:
                path.rmdir()
            except OSError:
                raise TableStoreError(f"cannot store table {path}: a folder with files in it is in the "
                                      "way; move or remove that folder yourself") from None
    except OSError as e:
        raise _store_error(e, root) from None
    if not os.access(root, os.W_OK | os.X_OK):
        raise TableStoreError(f"cannot store tables in {root}: no permission to write there; "
                              "set NPUZZLE_DATA_DIR to a writable folder")
    for leftover in leftovers(f".{key.filename}."):
        leftover.unlink(missing_ok=True)
    free = shutil.disk_usage(root).free
    if nbytes and free < nbytes + SPARE_BYTES:
        raise TableStoreError(f"cannot store tables in {root}: the table needs {_bytes_text(nbytes + SPARE_BYTES)} "
                              f"with its header and {_bytes_text(free, up=False)} are free; free some space or "
                              "set NPUZZLE_DATA_DIR to a folder on another disk")
    return path


#: Free space asked for beside a table's data (its header, its lock and stamp files).
SPARE_BYTES = 64 << 10


def _bytes_text(n: int, up: bool = True) -> str:
    """``n`` bytes in KiB, MiB or GiB, rounded up (a need) or down (what is free), so that a
    refusal's two numbers never say that what is needed is there.

    >>> _bytes_text(787_000 + SPARE_BYTES), _bytes_text(2 * 2**20 - 1, up=False), _bytes_text(5 << 30)
    ('833 KiB', '2,047 KiB', '5.0 GiB')
    """
    for unit, scale in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 4 << scale or unit == "KiB":
            digits = 1 if unit == "GiB" else 0
            step = 10**digits
            value = (-(-n * step // (1 << scale)) if up else n * step // (1 << scale)) / step
            return f"{value:,.{digits}f} {unit}"
    raise AssertionError("unreachable")
#: A temporary file of the store untouched for this long is the leftover of a write that was
#: interrupted (a write updates it every few megabytes).
LEFTOVER_SECONDS = 600.0


def leftovers(prefix: str = ".", min_age: float = LEFTOVER_SECONDS) -> list[Path]:
    """The store's temporary files (``.NAME.XXXX.tmp``) starting with ``prefix`` that no write
    has touched for ``min_age`` seconds: what a build or a stamp killed while writing left."""
    now = time.time()
    try:
        found = sorted(config.data_dir().glob(".*.tmp"))
    except OSError:
        return []
    out = []
    for path in found:
        try:
            if path.name.startswith(prefix) and now - path.lstat().st_mtime >= min_age:
                out.append(path)
        except OSError:
            continue
    return out


def checksum(data: np.ndarray, meta: dict[str, Any] | None = None) -> str:
    """BLAKE2b-128 of the array's bytes (hashed in chunks, so memory maps work) then of ``meta``."""
    flat = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
    h = hashlib.blake2b(digest_size=16)
    for start in range(0, flat.size, _CHUNK):
        h.update(flat[start : start + _CHUNK].data)
    h.update(json.dumps(meta or {}, sort_keys=True).encode())
    return "blake2b-128:" + h.hexdigest()


def save_table(key: TableKey, data: np.ndarray, meta: dict[str, Any] | None = None) -> Path:
    """Write ``data`` (any shape, any fixed-size dtype) as the table for ``key``; return its path.

    Replaces whatever file is there (a damaged table, a symlink). ``TableStoreError`` if the
    store cannot be written."""
    arr = np.ascontiguousarray(data)
    if arr.dtype.hasobject:
        raise ValueError("tables hold plain numeric arrays, not objects")
    header = {
        "format_version": FORMAT_VERSION,
        "kind": key.kind,
        "shape": key.shape,
        "goal": key.goal,
        "pattern": key.pattern,
        "dtype": arr.dtype.str,
        "array_shape": list(arr.shape),
        "length": int(arr.size),
        "nbytes": int(arr.nbytes),
        "checksum": checksum(arr, meta),
        "meta": meta or {},
    }
    text = json.dumps(header, sort_keys=True).encode()
    pad = -(len(MAGIC) + 4 + len(text)) % _ALIGN
    text += b" " * pad
    path = writable_path(key)
    try:
        _write(path, key, text, arr)
    except OSError as e:
        raise _store_error(e, path.parent) from None
    return path


def _write(path: Path, key: TableKey, text: bytes, arr: np.ndarray) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{key.filename}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(MAGIC)
            f.write(struct.pack("<I", len(text)))
            f.write(text)
            flat = arr.reshape(-1).view(np.uint8)
            for start in range(0, flat.size, _CHUNK):
                f.write(flat[start : start + _CHUNK].data)
            f.flush()
            os.fsync(f.fileno())
            if arr.nbytes >= HUGE_PAGE_BYTES and hasattr(os, "posix_fadvise"):
                # Drop the written pages: read back through a mapping advised to use 2 MB pages,
                # they come in as 2 MB folios (written ones are smaller; measured on 7-8: 248 MB
                # of 288 MB mapped by 2 MB entries, against 133 MB without this).
                os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
        os.chmod(tmp, _FILE_MODE & ~_umask())  # mkstemp makes 0600: a shared store is read by all
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


#: Table files get this mode less the user's umask (as any file the user creates).
_FILE_MODE = 0o666


def _umask() -> int:
    mask = os.umask(0o22)
    os.umask(mask)
    return mask


def _read_header(path: Path) -> tuple[dict[str, Any], int]:
    """The JSON header of a table file and the offset of its data; ``TableFormatError`` if bad."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            magic = f.read(len(MAGIC))
            if magic != MAGIC:
                raise TableFormatError(f"table file {path}: not an npuzzle table (bad magic bytes)")
            raw = f.read(4)
            if len(raw) != 4:
                raise TableFormatError(f"table file {path}: truncated inside the header")
            (length,) = struct.unpack("<I", raw)
            if length > min(MAX_HEADER, size - len(MAGIC) - 4):
                what = "truncated inside the header" if length <= MAX_HEADER else "header too long"
                raise TableFormatError(f"table file {path}: {what} ({length:,} bytes announced)")
            text = f.read(length)
    except OSError as e:
        raise TableFormatError(f"table file {path}: cannot be read ({_why(e)})") from None
    if len(text) != length:
        raise TableFormatError(f"table file {path}: truncated inside the header")
    try:
        header = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise TableFormatError(f"table file {path}: the header is not valid JSON ({str(e)[:80]})") from None
    if not isinstance(header, dict):
        raise TableFormatError(f"table file {path}: the header is not a JSON object")
    return header, len(MAGIC) + 4 + length


def _key_from_header(path: Path, header: dict[str, Any]) -> TableKey:
    try:
        fields = [header[name] for name in ("shape", "kind", "goal", "pattern")]
        if not all(isinstance(x, str) and len(x) <= 1000 for x in fields):
            raise ValueError("kind, shape, goal and pattern must be short texts")
        h, w = (int(x) for x in fields[0].split("x"))
        return TableKey(fields[1], h, w, fields[2], fields[3])
    except (KeyError, ValueError) as e:
        raise TableFormatError(f"table file {path}: header field missing or bad ({str(e)[:80]})") from None


def _count(header: dict[str, Any], name: str) -> int:
    value = header.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 1 << 62:
        raise ValueError(f"{name} is {str(value)[:40]!r}, not a whole number of a sensible size")
    return value


def _layout(path: Path, header: dict[str, Any]) -> tuple[np.dtype, int, tuple[int, ...]]:
    """The dtype, element count and array shape the header gives, checked for type and size."""
    try:
        text = header.get("dtype")
        if not isinstance(text, str) or len(text) > 8:
            raise ValueError(f"dtype is {str(text)[:40]!r}")
        dtype = np.dtype(text)
        if dtype.kind not in _DTYPE_KINDS or dtype.itemsize > 8:
            raise ValueError(f"dtype {text!r} is not a plain number type")
        length, nbytes = _count(header, "length"), _count(header, "nbytes")
        dims = header.get("array_shape", [length])
        if not isinstance(dims, list) or len(dims) > 8:
            raise ValueError(f"array_shape is {str(dims)[:40]!r}, not a short list")
        shape = tuple(_count({"array_shape": d}, "array_shape") for d in dims)
    except (TypeError, ValueError) as e:
        raise TableFormatError(f"table file {path}: header field bad ({str(e)[:120]})") from None
    if length * dtype.itemsize != nbytes:
        raise TableFormatError(f"table file {path}: header length {length} and nbytes {nbytes} disagree")
    if math.prod(shape) != length:
        raise TableFormatError(f"table file {path}: array shape {list(shape)} does not hold {length} elements")
    return dtype, length, shape


def _check_header(path: Path, header: dict[str, Any], key: TableKey,
                  offset: int) -> tuple[np.dtype, int, tuple[int, ...]]:
    """Compare the header with ``key`` and the file size; return the dtype, element count and
    array shape."""
    version = header.get("format_version")
    if version != FORMAT_VERSION:
        raise TableFormatError(
            f"table file {path}: format version {quote_input(version, 20)}, "
            f"but this npuzzle reads version {FORMAT_VERSION}"
        )
    found = _key_from_header(path, header)
    if found != key:
        raise TableFormatError(f"table file {path}: the header describes {found}, not the expected {key}")
    dtype, length, shape = _layout(path, header)
    size = path.stat().st_size
    if size != offset + length * dtype.itemsize:
        what = "truncated" if size < offset + length * dtype.itemsize else "longer than its header says"
        raise TableFormatError(
            f"table file {path}: {what}: expected {offset + length * dtype.itemsize} bytes, found {size}"
        )
    if not isinstance(header.get("meta"), dict):
        raise TableFormatError(f"table file {path}: the header's meta is not a JSON object")
    return dtype, length, shape


def load_table(key: TableKey, *, build_command: str | None = None, verify: bool = True) -> Table:
    """The table for ``key``, memory-mapped read-only.

    Raises ``MissingTableError`` (naming ``build_command``, or ``npuzzle tables build ...``) if
    it does not exist, and ``TableFormatError`` if the file is not exactly what ``key`` asks for
    (or its path is a folder, a symlink loop, unreadable). ``verify=False`` skips the checksum
    (header and size are always checked).
    """
    path = table_path(key)
    if table_stamp(key) is None:
        command = build_command or (
            f"npuzzle tables build {key.kind} {key.shape} --goal {key.goal}"
            + ("" if key.pattern == "all" else f" --pattern {key.pattern}")
        )
        raise MissingTableError(f"no {key.kind} table for {key.shape} ({key.goal} goal) in {path.parent}; "
                                f"build it with: {command}")
    header, offset = _read_header(path)
    try:
        dtype, length, shape = _check_header(path, header, key, offset)
        data, st = _map(path, offset, dtype, shape)
    except OSError as e:
        raise TableFormatError(f"table file {path}: cannot be read ({_why(e)})") from None
    meta = header["meta"]
    table = Table(key, path, data, meta)
    if verify and not _stamped(path, st, header.get("checksum")):
        if checksum(data, meta) != header.get("checksum"):
            raise TableFormatError(f"table file {path}: checksum mismatch (the data is corrupt)")
        if key.kind in _CHECKS:
            _CHECKS[key.kind](table)
        _stamp(path, st, header["checksum"])
    return table


@contextmanager
def building(key: TableKey, *, wait: bool = False) -> Iterator[None]:
    """Be the one process building the table of ``key`` for the length of a block (its lock
    file ``NAME.lock`` beside the table): ``OutputBusyError`` naming the builder's pid if another
    process builds it, unless ``wait``, which waits for that one to finish (then see whether it
    left the table). A builder that died leaves its lock to the next one."""
    path = writable_path(key)
    with locks.held(path, wait=wait):
        yield


def vouch(key: TableKey) -> None:
    """Leave the verification stamp of a table this process has just written from its own
    search, so that the first load skips its kind's check (a costly one re-does the search):
    waits until ``STAMP_AFTER`` seconds have passed since the write, then checks the checksum
    and stamps. A file changed afterwards no longer matches the stamp and is checked in full."""
    path = table_path(key)
    header, offset = _read_header(path)
    dtype, _, shape = _check_header(path, header, key, offset)
    data, st = _map(path, offset, dtype, shape)
    wait = STAMP_AFTER - (time.time() - st.st_ctime)
    if wait > 0:
        time.sleep(min(wait, STAMP_AFTER))
    if checksum(data, header["meta"]) == header.get("checksum"):
        _stamp(path, st, header["checksum"])


def _map(path: Path, offset: int, dtype: np.dtype, shape: tuple[int, ...]) -> tuple[np.ndarray, os.stat_result]:
    """The data of a table file as a read-only array over a shared mapping of the file, and the
    file's status as mapped; large data in 2 MB pages where the system allows (see the module
    docstring)."""
    with open(path, "rb") as f:
        st = os.fstat(f.fileno())
        count = math.prod(shape)
        if count == 0:
            return np.zeros(shape, dtype=dtype), st
        buf = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    data = np.frombuffer(buf, dtype=dtype, count=count, offset=offset).reshape(shape)
    if data.nbytes >= HUGE_PAGE_BYTES and hasattr(mmap, "MADV_HUGEPAGE"):
        try:
            buf.madvise(mmap.MADV_HUGEPAGE)
        except OSError:
            pass  # not offered here: 4 KB pages, as any mapping
        # Read the pages in order now: faster than at random during the search, and then the
        # kernel can map each 2 MB of the file with one entry.
        flat = data.reshape(-1).view(np.uint8)
        int(flat[:: _PAGE].sum(dtype=np.uint64))
    return data, st


def _stamp_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.verified")


def _fingerprint(path: Path, st: os.stat_result, digest: object) -> dict[str, Any] | None:
    """The stamp of the file as it is (``st``) with checksum ``digest``: the signature of its
    name, checksum, inode, size and times under the stamp key; None without a key."""
    key = _stamp_key()
    if key is None or not isinstance(digest, str):
        return None
    fields = json.dumps({"name": path.name, "checksum": digest, "dev": st.st_dev, "ino": st.st_ino,
                         "size": st.st_size, "mtime_ns": st.st_mtime_ns, "ctime_ns": st.st_ctime_ns},
                        sort_keys=True).encode()
    return {"stamp_version": 2, "hmac-sha256": hmac.new(key, fields, "sha256").hexdigest()}


def _stamped(path: Path, st: os.stat_result, digest: object) -> bool:
    """Whether the file, as it was when mapped, was verified before and not changed since (its
    stamp signed by this user's key)."""
    try:
        with open(_stamp_path(path), "rb") as f:
            stamp = json.loads(f.read(4096))
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return False
    expected = _fingerprint(path, st, digest)
    if expected is None or not isinstance(stamp, dict) or not isinstance(stamp.get("hmac-sha256"), str):
        return False
    return hmac.compare_digest(stamp["hmac-sha256"], expected["hmac-sha256"])


#: The length in bytes of the stamp key.
STAMP_KEY_BYTES = 32


@functools.lru_cache(maxsize=4)
def _key_at(path: Path, store: Path) -> bytes | None:
    try:
        if path.resolve().is_relative_to(store.resolve()):
            return None  # a key the store's writers can read signs nothing
    except OSError:
        return None
    try:
        with open(path, "rb") as f:
            key = f.read(STAMP_KEY_BYTES + 1)
        return key if len(key) == STAMP_KEY_BYTES else None
    except FileNotFoundError:
        pass
    except OSError:
        return None
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it just now
        _key_at.cache_clear()
        return _key_at(path, store) if path.stat().st_size == STAMP_KEY_BYTES else None
    except OSError:
        return None
    key = os.urandom(STAMP_KEY_BYTES)
    with os.fdopen(fd, "wb") as f:
        f.write(key)
    return key


def _stamp_key() -> bytes | None:
    """The secret key that signs stamps (made on first use), or None where there can be none."""
    return _key_at(config.stamp_key_path(), config.data_dir())


def _stamp(path: Path, st: os.stat_result, digest: str) -> None:
    """Leave the verification stamp of a file just verified (best effort: a read-only store
    only means verifying again next time)."""
    if time.time() - st.st_ctime < STAMP_AFTER:
        return
    stamp = _fingerprint(path, st, digest)
    if stamp is None:
        return
    target = _stamp_path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=target.name, suffix=".tmp", dir=path.parent)
    except OSError:
        return
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(stamp, f)
        os.chmod(tmp, _FILE_MODE & ~_umask())
        os.replace(tmp, target)
    except OSError:
        Path(tmp).unlink(missing_ok=True)


#: Each kind's own invariants, checked on every verified load (see ``register_check``).
_CHECKS: dict[str, Callable[[Table], None]] = {}


def register_check(kind: str, check: Callable[[Table], None]) -> None:
    """Have every verified load of a ``kind`` table (and ``list_tables``) also run ``check``,
    which raises ``TableFormatError`` when the table breaks an invariant of its kind. A checksum
    only proves the file is what some writer wrote: a forged table has a valid one. The modules
    that own a kind register its check when imported."""
    _CHECKS[kind] = check


def list_tables(verify_below: int = 1 << 30) -> list[TableInfo]:
    """Every table file in the store, sorted by name, read from the headers; the checksums of
    files smaller than ``verify_below`` bytes are checked too (``verified``). A problem with a
    file is in its ``problem``; ``TableStoreError`` if the store's path is not a folder."""
    root = config.data_dir()
    try:
        if not root.is_dir():
            if root.exists():
                raise TableStoreError(f"the table store {root} is not a folder; set NPUZZLE_DATA_DIR to a folder")
            return []
        paths = sorted(root.glob(f"*{SUFFIX}"))
    except OSError as e:
        raise TableStoreError(f"cannot read the table store {root}: {_why(e)}") from None
    stale = [TableInfo(path, None, problem="left by a write that was interrupted; remove it with 'npuzzle "
                       f"tables remove {path.name}'", size=_size(path), mtime=_mtime(path)) for path in leftovers()]
    return [_info(path, verify_below) for path in paths] + stale


def _size(path: Path) -> int:
    try:
        return path.lstat().st_size
    except OSError:
        return 0


def _mtime(path: Path) -> float:
    try:
        return path.lstat().st_mtime
    except OSError:
        return 0.0


def _info(path: Path, verify_below: int = 1 << 30) -> TableInfo:
    try:
        st = path.stat()
    except OSError as e:
        return TableInfo(path, None, problem=f"cannot be read ({_why(e)})")
    if not stat.S_ISREG(st.st_mode):
        return TableInfo(path, None, problem="not a regular file (a folder?)", mtime=st.st_mtime)
    try:
        header, offset = _read_header(path)
        key = _key_from_header(path, header)
        dtype, length, _ = _check_header(path, header, key, offset)
    except (TableFormatError, OSError) as e:
        return TableInfo(path, None, problem=str(e).removeprefix(f"table file {path}: "),
                         size=st.st_size, mtime=st.st_mtime)
    info = TableInfo(path, key, str(dtype), length, length * dtype.itemsize, header["meta"], None,
                     st.st_size, st.st_mtime)
    if st.st_size < verify_below:
        try:
            load_table(key)
        except (TableFormatError, MissingTableError) as e:
            return dataclasses.replace(info, problem=str(e).removeprefix(f"table file {path}: "))
        return dataclasses.replace(info, verified=True)
    return info


def matching(kind: str, height: int, width: int, goal: str | None = None, pattern: str | None = None) -> list[str]:
    """File names in the store of the tables of ``kind`` for a shape (any goal or pattern unless
    given), sorted.

    >>> matching("nothing", 3, 3)
    []
    """
    prefix = f"{kind}_{height}x{width}_" + ("" if goal is None else f"{goal}_")
    ending = ("" if pattern is None else f"_{pattern}") + f"_v{FORMAT_VERSION}{SUFFIX}"
    try:
        names = [p.name for p in config.data_dir().iterdir()]
    except OSError:
        return []
    found = [n for n in names if n.startswith(prefix) and n.endswith(ending)]
    return sorted(n for n in found if goal is not None or n.count("_") == 4)


def remove_table(which: TableKey | str) -> bool:
    """Delete a table given by key or by file name (as ``list_tables`` shows); ``False`` if absent.

    A symlink is removed, not what it points to; an empty folder in a table's place is removed
    too; ``TableStoreError`` if the file cannot be removed (a folder with files in it, no
    permission)."""
    if isinstance(which, TableKey):
        path = table_path(which)
    else:
        leftover = which.startswith(".") and which.endswith(".tmp")
        if Path(which).name != which or not (leftover or (which.endswith(SUFFIX) and not which.startswith("."))):
            raise TableFormatError(
                f"{quote_input(which)} is not a table name (pdb:NAME, or a file name NAME{SUFFIX})")
        path = config.data_dir() / which
    try:
        if path.is_dir() and not path.is_symlink():
            path.rmdir()
        else:
            path.unlink()
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as e:
        extra = "; remove it yourself" if path.is_dir() else ""
        raise TableStoreError(f"cannot remove {path}: {_why(e)}{extra}") from None
    try:
        _stamp_path(path).unlink(missing_ok=True)
    except OSError:
        pass  # a stale stamp matches no file: harmless
    return True



@dataclass(frozen=True)
class BuildAllowance:
    """What a table made for one search may spend: the search's wall-clock deadline
    (``time.monotonic()``) and its memory limit (bytes); None, no bound."""

    deadline: float | None = None
    max_bytes: int | None = None


_allowance: contextvars.ContextVar[BuildAllowance | None] = contextvars.ContextVar("build_allowance", default=None)


@contextmanager
def build_allowance(timeout: float | None, max_bytes: int | None) -> Iterator[None]:
    """Within the block, tables built on the way (``check_build``) stop at ``timeout`` seconds
    from now and refuse to need more than ``max_bytes``."""
    deadline = None if timeout is None else time.monotonic() + timeout
    token = _allowance.set(BuildAllowance(deadline, max_bytes))
    try:
        yield
    finally:
        _allowance.reset(token)


def check_build(what: str, nbytes: int = 0) -> None:
    """``TableBuildStopped`` if building ``what`` has passed the block's deadline, or would need
    ``nbytes`` beyond its memory limit (see ``build_allowance``)."""
    allowed = _allowance.get() or BuildAllowance()
    if allowed.max_bytes is not None and nbytes > allowed.max_bytes:
        raise TableBuildStopped(MEMORY_LIMIT_STATUS, f"{what} would need about {nbytes / 2**20:,.0f} MiB, more than "
                                f"the memory limit ({allowed.max_bytes / 2**20:,.0f} MiB)")
    if allowed.deadline is not None and time.monotonic() >= allowed.deadline:
        raise TableBuildStopped(TIMEOUT_STATUS, f"the time limit was reached while {what} was being built")


#: The statuses a stopped build gives its search (``search.limits.TIMEOUT``, ``MEMORY_LIMIT``).
TIMEOUT_STATUS, MEMORY_LIMIT_STATUS = "timeout", "memory-limit"
