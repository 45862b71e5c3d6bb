"""The on-disk table store: round trips, names, and every kind of damage is caught."""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest

from npuzzle import tables
from npuzzle.cli import main
from npuzzle.errors import MissingTableError, TableFormatError
from npuzzle.tables import TableKey


@pytest.fixture(autouse=True)
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("NPUZZLE_DATA_DIR", str(tmp_path / "store"))
    return tmp_path / "store"


# The generic store tests use kinds of no module (a "pdb" or "bfs" table is checked on load by
# its module: see tests/test_store.py).
KEY = TableKey("demo", 4, 4, "blank-first", "1-2-3-4")


def test_round_trip_keeps_data_shape_dtype_and_meta(store):
    rng = np.random.default_rng(5)
    for key, data in [
        (KEY, rng.integers(0, 255, 1001, dtype=np.uint8)),
        (TableKey("wd", 3, 5, "standard"), rng.integers(-9, 9, (7, 13), dtype=np.int16)),
        (TableKey("empty", 2, 2, "standard"), np.zeros(0, dtype=np.uint32)),
    ]:
        path = tables.save_table(key, data, {"note": "x", "counts": [1, 2]})
        assert path == store / key.filename
        loaded = tables.load_table(key)
        assert loaded.data.dtype == data.dtype and loaded.data.shape == data.shape
        assert np.array_equal(loaded.data, data)
        assert loaded.meta == {"note": "x", "counts": [1, 2]}
        if data.size:
            assert not loaded.data.flags.writeable
    assert [p.name for p in store.iterdir() if p.name.startswith(".")] == []  # no temp files left


def test_file_names_encode_every_input():
    names = {
        TableKey(kind, h, w, goal, pattern).filename
        for kind in ("pdb", "wd")
        for h, w in ((3, 4), (4, 3))
        for goal in ("standard", "blank-first")
        for pattern in ("all", "1-2-3")
    }
    assert len(names) == 16
    assert KEY.filename == f"demo_4x4_blank-first_1-2-3-4_v{tables.FORMAT_VERSION}.npt"
    for bad in ("a_b", "a/b", "", "ä"):
        with pytest.raises(ValueError):
            TableKey(bad, 3, 3, "standard")


def test_missing_table_names_the_build_command():
    with pytest.raises(MissingTableError, match="npuzzle tables build demo 4x4 --goal blank-first --pattern 1-2-3-4"):
        tables.load_table(KEY)
    with pytest.raises(MissingTableError, match="npuzzle stats bfs 3x4 --save"):
        tables.load_table(TableKey("bfs", 3, 4, "standard"), build_command="npuzzle stats bfs 3x4 --save")


def _saved(data=None) -> tuple[bytearray, int]:
    path = tables.save_table(KEY, np.arange(256, dtype=np.uint8) if data is None else data, {"k": 1})
    raw = bytearray(path.read_bytes())
    (hlen,) = struct.unpack("<I", raw[8:12])
    return raw, 12 + hlen


def _damaged(raw: bytes, store, match: str) -> None:
    path = store / KEY.filename
    path.write_bytes(bytes(raw))
    with pytest.raises(TableFormatError, match=match) as err:
        tables.load_table(KEY)
    assert str(path) in str(err.value)


def test_corrupt_data_fails_the_checksum(store):
    raw, offset = _saved()
    assert offset % 64 == 0
    raw[offset + 100] ^= 1
    _damaged(raw, store, "checksum")
    # skipping the checksum is allowed, and then the damage is visible
    assert tables.load_table(KEY, verify=False).data[100] == 101


def test_corrupt_meta_fails_the_checksum(store):
    raw, offset = _saved()
    _damaged(raw.replace(b'"k": 1', b'"k": 2'), store, "checksum")


def test_truncation_and_extra_bytes(store):
    raw, offset = _saved()
    _damaged(raw[:-1], store, "truncated")
    _damaged(raw + b"\0", store, "longer than its header says")
    _damaged(raw[: offset - 10], store, "truncated inside the header")
    _damaged(raw[:10], store, "truncated inside the header")


def test_bad_magic_version_and_json(store):
    raw, _ = _saved()
    _damaged(b"X" + raw[1:], store, "bad magic")
    _damaged(raw.replace(b'"format_version": 1', b'"format_version": 9'), store, "format version 9")
    _damaged(raw.replace(b'"format_version"', b'"format_version"{'), store, "not valid JSON")
    _damaged(raw.replace(b'"dtype": "|u1"', b'"dtype": "<u2"'), store, "disagree")


def test_header_of_another_table_is_a_mismatch(store):
    other = TableKey("demo", 4, 4, "standard", "1-2-3-4")
    path = tables.save_table(other, np.arange(10, dtype=np.uint8))
    (store / KEY.filename).write_bytes(path.read_bytes())
    with pytest.raises(TableFormatError, match="not the expected"):
        tables.load_table(KEY)


def test_save_replaces_an_existing_table():
    tables.save_table(KEY, np.zeros(10, dtype=np.uint8))
    tables.save_table(KEY, np.ones(20, dtype=np.uint8))
    assert tables.load_table(KEY).data.tolist() == [1] * 20


def test_list_and_remove(store, capsys):
    assert tables.list_tables() == []
    tables.save_table(KEY, np.arange(5, dtype=np.uint16), {"what": "test"})
    tables.save_table(TableKey("wd", 4, 4, "standard"), np.arange(3, dtype=np.uint8))
    (store / "junk_1x1_x_y_v1.npt").write_bytes(b"not a table")
    found = tables.list_tables()
    assert [i.path.name for i in found] == sorted(p.name for p in store.iterdir())
    good = {i.key: i for i in found if i.key is not None}
    assert good[KEY].length == 5 and good[KEY].nbytes == 10 and good[KEY].dtype == "uint16"
    assert good[KEY].meta == {"what": "test"}
    bad = [i for i in found if i.key is None]
    assert len(bad) == 1 and "bad magic" in bad[0].problem

    assert main(["tables", "list"]) == 0
    out = capsys.readouterr().out
    assert "3 tables in" in out and KEY.filename in out and "DAMAGED: not an npuzzle table" in out

    assert tables.remove_table(KEY) is True
    assert tables.remove_table(KEY) is False
    assert main(["tables", "remove", "junk_1x1_x_y_v1.npt"]) == 0
    assert main(["tables", "remove", "junk_1x1_x_y_v1.npt"]) == 1
    with pytest.raises(TableFormatError):
        tables.remove_table("../elsewhere.npt")
    assert [i.key for i in tables.list_tables()] == [TableKey("wd", 4, 4, "standard")]


def test_progress_is_silent_without_a_terminal(capsys):
    """The command line's progress bar (what long builds report to under ``npuzzle``)."""
    from npuzzle.cli._output import ProgressBar
    from npuzzle.meters import progress, reporting

    with reporting(ProgressBar), progress(10, "building") as bar:
        for _ in range(10):
            bar.advance(1)
        bar.note("done")
    assert bar.done == 10
    assert capsys.readouterr() == ("", "")


def test_header_fields(store):
    tables.save_table(KEY, np.arange(7, dtype=np.int32), {"a": 1})
    raw = (store / KEY.filename).read_bytes()
    (hlen,) = struct.unpack("<I", raw[8:12])
    header = json.loads(raw[12 : 12 + hlen])
    assert header["format_version"] == tables.FORMAT_VERSION
    assert (header["kind"], header["shape"], header["goal"], header["pattern"]) == (
        "demo", "4x4", "blank-first", "1-2-3-4")
    assert (header["dtype"], header["length"], header["nbytes"]) == ("<i4", 7, 28)
    assert header["checksum"] == tables.checksum(np.arange(7, dtype=np.int32), {"a": 1})
