"""The on-disk store for precomputed tables. It holds three kinds:

``bfs``  exact distances (mod 3, 2 bits a position) of a whole state space (``search.bfs``),
         saved on request (``npuzzle stats bfs ... --save``); goal ``standard``,
         ``blank-first`` or ``blank-R,C``.
``pdb``  additive pattern databases (``heuristics.pattern_db``), built by
         ``npuzzle tables build pdb:NAME``; the pattern field lists every pattern's tiles.
``fsm``  IDA*'s duplicate-pruning move automaton (``search.fsm``), saved automatically the
         first time a shape needs it; goal ``any``, pattern ``moves<max_len>.v<version>``.

Walking-distance tables and the real-time solver's final-region tables are not stored: they are
built in memory when first needed.

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
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import struct
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from . import config
from .errors import MissingTableError, TableFormatError

FORMAT_VERSION = 1
MAGIC = b"NPUZTBL\n"
SUFFIX = ".npt"
_ALIGN = 64
_FIELD = re.compile(r"^[A-Za-z0-9.,+-]+$")
_CHUNK = 1 << 24


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
    """One file of the store as ``list_tables`` sees it (header only; ``problem`` if unreadable)."""

    path: Path
    key: TableKey | None
    dtype: str = ""
    length: int = 0
    nbytes: int = 0
    meta: dict[str, Any] = field(default_factory=dict)
    problem: str | None = None


def table_path(key: TableKey) -> Path:
    return config.data_dir() / key.filename


def has_table(key: TableKey) -> bool:
    return table_path(key).is_file()


def checksum(data: np.ndarray, meta: dict[str, Any] | None = None) -> str:
    """BLAKE2b-128 of the array's bytes (hashed in chunks, so memory maps work) then of ``meta``."""
    flat = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
    h = hashlib.blake2b(digest_size=16)
    for start in range(0, flat.size, _CHUNK):
        h.update(flat[start : start + _CHUNK].data)
    h.update(json.dumps(meta or {}, sort_keys=True).encode())
    return "blake2b-128:" + h.hexdigest()


def save_table(key: TableKey, data: np.ndarray, meta: dict[str, Any] | None = None) -> Path:
    """Write ``data`` (any shape, any fixed-size dtype) as the table for ``key``; return its path."""
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
    path = table_path(key)
    path.parent.mkdir(parents=True, exist_ok=True)
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
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def _read_header(path: Path) -> tuple[dict[str, Any], int]:
    """The JSON header of a table file and the offset of its data; ``TableFormatError`` if bad."""
    try:
        with open(path, "rb") as f:
            magic = f.read(len(MAGIC))
            if magic != MAGIC:
                raise TableFormatError(f"table file {path}: not an npuzzle table (bad magic bytes)")
            raw = f.read(4)
            if len(raw) != 4:
                raise TableFormatError(f"table file {path}: truncated inside the header")
            (length,) = struct.unpack("<I", raw)
            text = f.read(length)
    except OSError as e:
        raise TableFormatError(f"table file {path}: cannot be read ({e.strerror})") from None
    if len(text) != length:
        raise TableFormatError(f"table file {path}: truncated inside the header")
    try:
        header = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise TableFormatError(f"table file {path}: the header is not valid JSON ({e})") from None
    if not isinstance(header, dict):
        raise TableFormatError(f"table file {path}: the header is not a JSON object")
    return header, len(MAGIC) + 4 + length


def _key_from_header(path: Path, header: dict[str, Any]) -> TableKey:
    try:
        h, w = (int(x) for x in str(header["shape"]).split("x"))
        return TableKey(str(header["kind"]), h, w, str(header["goal"]), str(header["pattern"]))
    except (KeyError, ValueError) as e:
        raise TableFormatError(f"table file {path}: header field missing or bad ({e})") from None


def _check_header(path: Path, header: dict[str, Any], key: TableKey, offset: int) -> tuple[np.dtype, int]:
    """Compare the header with ``key`` and the file size; return the dtype and element count."""
    version = header.get("format_version")
    if version != FORMAT_VERSION:
        raise TableFormatError(
            f"table file {path}: format version {version!r}, but this npuzzle reads version {FORMAT_VERSION}"
        )
    found = _key_from_header(path, header)
    if found != key:
        raise TableFormatError(f"table file {path}: the header describes {found}, not the expected {key}")
    try:
        dtype = np.dtype(header["dtype"])
        length = int(header["length"])
        nbytes = int(header["nbytes"])
    except (KeyError, TypeError, ValueError) as e:
        raise TableFormatError(f"table file {path}: header field missing or bad ({e})") from None
    if length * dtype.itemsize != nbytes or length < 0:
        raise TableFormatError(f"table file {path}: header length {length} and nbytes {nbytes} disagree")
    size = path.stat().st_size
    if size != offset + nbytes:
        what = "truncated" if size < offset + nbytes else "longer than its header says"
        raise TableFormatError(
            f"table file {path}: {what}: expected {offset + nbytes} bytes, found {size}"
        )
    return dtype, length


def load_table(key: TableKey, *, build_command: str | None = None, verify: bool = True) -> Table:
    """The table for ``key``, memory-mapped read-only.

    Raises ``MissingTableError`` (naming ``build_command``, or ``npuzzle tables build ...``) if
    it does not exist, and ``TableFormatError`` if the file is not exactly what ``key`` asks for.
    ``verify=False`` skips the checksum (header and size are always checked).
    """
    path = table_path(key)
    if not path.is_file():
        command = build_command or (
            f"npuzzle tables build {key.kind} {key.shape} --goal {key.goal}"
            + ("" if key.pattern == "all" else f" --pattern {key.pattern}")
        )
        raise MissingTableError(f"no {key.kind} table for {key.shape} ({key.goal} goal) in {path.parent}; "
                                f"build it with: {command}")
    header, offset = _read_header(path)
    dtype, length = _check_header(path, header, key, offset)
    shape = tuple(int(x) for x in header.get("array_shape", [length]))
    if int(np.prod(shape)) != length:
        raise TableFormatError(f"table file {path}: array shape {list(shape)} does not hold {length} elements")
    if length == 0:
        data = np.zeros(shape, dtype=dtype)
    else:
        data = np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=shape).view(np.ndarray)
    meta = header.get("meta")
    if not isinstance(meta, dict):
        raise TableFormatError(f"table file {path}: the header's meta is not a JSON object")
    if verify and checksum(data, meta) != header.get("checksum"):
        raise TableFormatError(f"table file {path}: checksum mismatch (the data is corrupt)")
    return Table(key, path, data, meta)


def list_tables() -> list[TableInfo]:
    """Every table file in the store, sorted by name, read from the headers (no checksums)."""
    root = config.data_dir()
    if not root.is_dir():
        return []
    out = []
    for path in sorted(root.glob(f"*{SUFFIX}")):
        try:
            header, offset = _read_header(path)
            key = _key_from_header(path, header)
            _check_header(path, header, key, offset)
        except TableFormatError as e:
            out.append(TableInfo(path, None, problem=str(e)))
            continue
        meta = header.get("meta")
        if not isinstance(meta, dict):
            meta = {}
        out.append(TableInfo(path, key, str(np.dtype(header["dtype"])), int(header["length"]),
                             int(header["nbytes"]), meta))
    return out


def remove_table(which: TableKey | str) -> bool:
    """Delete a table given by key or by file name (as ``list_tables`` shows); ``False`` if absent."""
    if isinstance(which, TableKey):
        path = table_path(which)
    else:
        if not which.endswith(SUFFIX) or Path(which).name != which:
            raise TableFormatError(f"{which!r} is not a table file name (expected NAME{SUFFIX}, no directory)")
        path = config.data_dir() / which
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    return True


class Progress:
    """A progress bar on stderr, drawn only when stderr is a terminal (so tests print nothing).

    ``advance(n)`` adds work done; ``note(text)`` changes the trailing text. At most ten redraws a
    second.
    """

    def __init__(self, total: int, label: str, enabled: bool = True) -> None:
        self.total = max(int(total), 1)
        self.label = label
        self.done = 0
        self.text = ""
        self.enabled = enabled and sys.stderr.isatty()
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
        frac = min(self.done / self.total, 1.0)
        bar = "#" * int(30 * frac)
        sys.stderr.write(
            f"\r{self.label} [{bar:<30}] {100 * frac:5.1f}% {now - self._start:6.1f}s {self.text}\x1b[K"
        )
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            self._draw(force=True)
            sys.stderr.write("\n")
            sys.stderr.flush()


@contextmanager
def progress(total: int, label: str, enabled: bool = True) -> Iterator[Progress]:
    """``with progress(total, "building") as bar: ... bar.advance(n)``; see ``Progress``."""
    bar = Progress(total, label, enabled)
    try:
        yield bar
    finally:
        bar.close()
