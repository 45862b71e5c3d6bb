"""Broken table stores (issue 18, items 9-12, 15, 18, 19) and the table commands' names, sizes and
confirmation (issue 17, item 4): one store layer owns every path error; a damaged table that a
command can do without is reported once and bypassed, and the command that builds it replaces it."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import time

import numpy as np
import pytest
from conftest import forget_table_caches, without_notice

from npuzzle import Board, tables
from npuzzle.cli import main
from npuzzle.errors import MissingTableError, TableFormatError, TableStoreError, TableWarning
from npuzzle.heuristics import pattern_db
from npuzzle.search import bfs, fsm
from npuzzle.search.idastar import idastar
from npuzzle.search.limits import NODE_LIMIT, Limit

P = "1 2 3/4 5 6/7 0 8"
B24 = "1 2 3 4/5 6 0 7"  # a 2x4 board one move from the goal
BFS24 = "bfs_2x4_standard_all_v1.npt"
PDB33 = "pdb_3x3_standard_1.2.3.4-5.6.7.8_v1.npt"


_forget = forget_table_caches


@pytest.fixture(autouse=True)
def store(private_store):
    return private_store


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def cli(*argv: str, env_dir: str, stdin: int | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {**os.environ, "NPUZZLE_DATA_DIR": env_dir}
    return subprocess.run([sys.executable, "-m", "npuzzle", *argv], capture_output=True, text=True,
                          env=env, timeout=timeout, stdin=stdin)


def warnings_in(err: str) -> list[str]:
    return [ln for ln in err.splitlines() if ": warning: " in ln]


def save_bfs24(capsys) -> None:
    assert run(capsys, "stats", "bfs", "2x4", "--save")[0] == 0


def edit_header(path, change) -> None:
    """Rewrite a table file's JSON header through ``change(header_dict) -> text``."""
    raw = path.read_bytes()
    (length,) = struct.unpack("<I", raw[8:12])
    text = change(json.loads(raw[12 : 12 + length])).encode()
    text += b" " * (length - len(text))
    path.write_bytes(raw[:8] + struct.pack("<I", len(text)) + text + raw[12 + length :])


# -- item 9: NPUZZLE_DATA_DIR naming a file -------------------------------------------------------


@pytest.mark.parametrize("below", ["", "/sub"])
def test_a_store_that_is_a_file(capsys, tmp_path, monkeypatch, below):
    afile = tmp_path / "afile"
    afile.write_text("x")
    monkeypatch.setenv("NPUZZLE_DATA_DIR", str(afile) + below)
    code, out, err = run(capsys, "solve", P)
    assert code == 0 and "Solution: 1 move" in out
    code, out, err = run(capsys, "solve", B24, "--method", "idastar", "--heuristic", "wd")
    assert code == 0 and "Solution: 1 move" in out
    for argv in (["tables", "build", "pdb:3-2", "--shape", "2x3"], ["stats", "bfs", "2x3", "--save"]):
        code, out, err = run(capsys, *argv)
        assert code == 1 and len(err.splitlines()) == 1
        assert "is a file, not a folder; set NPUZZLE_DATA_DIR to a folder" in err and str(afile) in err
    code, out, err = run(capsys, "tables", "list")
    if below:  # a store folder under a file: nothing stored there
        assert code == 0 and out.startswith("0 tables in")
    else:
        assert code == 1 and "is not a folder" in err
    with pytest.raises(TableStoreError, match="is a file"):
        tables.save_table(tables.TableKey("demo", 2, 2, "standard"), np.zeros(3, np.uint8))
    assert run(capsys, "stats", "bfs", "2x3")[0] == 0  # no saving asked: nothing to write


def test_a_store_that_is_a_dangling_symlink(capsys, tmp_path, monkeypatch):
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "nowhere" / "x")
    monkeypatch.setenv("NPUZZLE_DATA_DIR", str(link))
    code, out, err = run(capsys, "stats", "bfs", "2x3", "--save")
    assert code == 1 and "is a symlink to nothing" in err
    assert run(capsys, "solve", P)[0] == 0


# -- item 10: headers of the wrong types and sizes ------------------------------------------------


@pytest.mark.parametrize("change, words", [
    (lambda h: json.dumps({**h, "array_shape": "x"}), "array_shape is 'x'"),
    (lambda h: json.dumps({**h, "array_shape": None}), "array_shape is 'None'"),
    (lambda h: json.dumps(h).replace(json.dumps(h["array_shape"]), "[1e400]"), "array_shape is 'inf'"),
    (lambda h: json.dumps({**h, "array_shape": [10**30]}), "not a whole number of a sensible size"),
    (lambda h: json.dumps({**h, "length": 2**61, "nbytes": 2**61, "array_shape": [2**61]}), "truncated"),
    (lambda h: json.dumps({**h, "dtype": "V99999999"}), "dtype is"),
    (lambda h: json.dumps({**h, "dtype": "O"}), "not a plain number type"),
    (lambda h: json.dumps({**h, "shape": ["2x4"]}), "header field missing or bad"),
    (lambda h: json.dumps({**h, "meta": []}), "meta is not a JSON object"),
    (lambda h: "[" * 5000 + "]" * 5000, "not valid JSON"),
    (lambda h: "[1, 2]", "not a JSON object"),
])
def test_bad_headers_are_refused_naming_the_file(capsys, store, change, words):
    save_bfs24(capsys)
    path = store / BFS24
    edit_header(path, change)
    with pytest.raises(TableFormatError, match=f"table file {path}") as err:
        bfs.load_distance_table(2, 4)
    assert words in str(err.value) and len(str(err.value)) < 300
    _forget()
    code, out, err = run(capsys, "solve", B24)
    assert code == 0 and "Solution: 1 move" in out
    assert len(warnings_in(err)) == 1 and BFS24 in err and "solving without it" in err


def test_a_header_length_beyond_the_file_is_refused(capsys, store):
    save_bfs24(capsys)
    path = store / BFS24
    raw = bytearray(path.read_bytes())
    raw[8:12] = b"\xff\xff\xff\xff"
    path.write_bytes(bytes(raw))
    with pytest.raises(TableFormatError, match="header too long"):
        bfs.load_distance_table(2, 4)
    raw[8:12] = struct.pack("<I", len(raw))
    path.write_bytes(bytes(raw))
    with pytest.raises(TableFormatError, match="truncated inside the header"):
        bfs.load_distance_table(2, 4)


# -- items 11 and 12: symlink loops and folders in a table's place --------------------------------


def test_a_symlink_loop_is_bypassed_and_replaced(capsys, store):
    store.mkdir()
    (store / BFS24).symlink_to(store / BFS24)
    code, out, err = run(capsys, "solve", B24)
    assert code == 0 and "Solution: 1 move" in out
    assert len(warnings_in(err)) == 1 and "Too many levels of symbolic links" in err
    assert "npuzzle stats bfs 2x4 --save" in err
    code, out, err = run(capsys, "stats", "bfs", "2x4", "--save")
    assert code == 0 and "replacing it" in err
    assert (store / BFS24).is_file() and not (store / BFS24).is_symlink()
    _forget()
    code, out, err = run(capsys, "solve", B24)
    assert code == 0 and "bfs-table" in out and without_notice(err) == ""
    # the same for a pattern database named explicitly: an error naming the file
    (store / PDB33).symlink_to(store / PDB33)
    code, out, err = run(capsys, "solve", P, "--heuristic", "pdb:4-4")
    assert code == 1 and "Too many levels of symbolic links" in err and PDB33 in err
    assert run(capsys, "tables", "remove", "pdb:4-4", "--shape", "3x3")[0] == 0
    assert not os.path.lexists(store / PDB33)


def test_a_folder_in_a_tables_place(capsys, store):
    (store / PDB33).mkdir(parents=True)
    code, out, err = run(capsys, "solve", P, "--heuristic", "pdb:4-4")
    assert code == 1 and "is a folder, not a table file" in err
    code, out, err = run(capsys, "tables", "list")
    assert code == 0 and "DAMAGED" in out
    (store / PDB33 / "x").write_text("x")
    for argv in (["tables", "build", "pdb:4-4", "--shape", "3x3", "--force"],
                 ["tables", "remove", PDB33], ["tables", "remove", "pdb:4-4", "--shape", "3x3"]):
        code, out, err = run(capsys, *argv)
        assert code == 1 and ("remove it yourself" in err or "remove that folder yourself" in err), (code, err)
        assert len(err.splitlines()) == 1
    (store / PDB33 / "x").unlink()
    code, out, err = run(capsys, "tables", "build", "pdb:4-4", "--shape", "3x3", "--force")
    assert code == 0 and (store / PDB33).is_file()
    (store / PDB33).unlink()
    (store / PDB33).mkdir()
    assert run(capsys, "tables", "remove", PDB33)[0] == 0 and not (store / PDB33).exists()


# -- item 15: forged tables -----------------------------------------------------------------------


def forge_pdb33(store, raise_by: int = 3, keep_goal: bool = False) -> None:
    key = pattern_db.table_key("4-4", 3, 3, "standard")
    table = tables.load_table(key, verify=False)
    data = table.data.copy()
    data += raise_by * 0x11  # every entry (two a byte) raised
    meta = dict(table.meta)
    if keep_goal:
        for p, g in enumerate(pattern_db.groups_for("4-4", 3, 3)):
            at = p * 3024 + pattern_db.rank([t - 1 for t in g], 9)
            data[at >> 1] &= 0xF0 if at % 2 == 0 else 0x0F
        meta["max_entries"] = [v + raise_by for v in meta["max_entries"]]
    tables.save_table(key, data, meta)  # a valid checksum
    _forget()


def test_a_forged_pdb_is_refused_flagged_and_rebuilt(capsys, store):
    assert run(capsys, "tables", "build", "pdb:4-4", "--shape", "3x3")[0] == 0
    forge_pdb33(store)
    code, out, err = run(capsys, "solve", "--shape", "3x3", "--method", "idastar", "--heuristic", "pdb:4-4", P,
                         "--timeout", "5")
    assert code == 1 and "goal entry is 3, not 0 (the table is forged or corrupt)" in err
    assert "rebuild it: npuzzle tables build pdb:4-4 --shape 3x3 --goal standard --force" in err
    assert run(capsys, "tables", "build", "pdb:4-4", "--shape", "3x3", "--force")[0] == 0
    forge_pdb33(store, 2, keep_goal=True)  # goal entries 0, maxima updated: above the known maxima
    with pytest.raises(TableFormatError, match="not its known maximum"):
        pattern_db.load_partition("4-4", 3, 3)
    code, out, err = run(capsys, "tables", "list")
    assert "DAMAGED: pattern 1 has an entry of 6, not its known maximum" in out
    code, out, err = run(capsys, "solve", P)  # auto: falls back to the next bound
    assert code == 0 and "Solution: 1 move" in out and "wd+id" in out
    assert len(warnings_in(err)) == 1 and "using the next bound instead" in err
    code, out, err = run(capsys, "tables", "build", "pdb:4-4", "--shape", "3x3")
    assert code == 0 and "damaged" in out and "stored" in out
    _forget()
    assert pattern_db.is_sound("4-4", 3, 3, "standard")


def test_limits_hold_whatever_the_table_says(capsys, monkeypatch):
    """With the checks off, a forged table (the goal's entry 3) never lets IDA* reach the goal:
    thresholds climb for ever, and the node limit (checked, like the time limit, between slices
    of every iteration) still stops it; the warm-up search is bounded too."""
    assert run(capsys, "tables", "build", "pdb:4-4", "--shape", "3x3")[0] == 0
    monkeypatch.delitem(tables._CHECKS, "pdb")
    forge_pdb33(None)
    sol = idastar(Board(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8)), heuristic="pdb:4-4",
                  limit=Limit(max_nodes=3_000_000))
    assert sol.status == NODE_LIMIT and len(sol.stats.iterations) > 3


# -- items 18 and 19: damaged optional tables -----------------------------------------------------


def flip(path, at: int = -100) -> None:
    raw = bytearray(path.read_bytes())
    raw[at] ^= 0xFF
    path.write_bytes(bytes(raw))


def test_a_corrupt_bfs_table_is_reported_once_bypassed_and_replaced(capsys, store):
    save_bfs24(capsys)
    flip(store / BFS24)
    code, out, err = run(capsys, "solve", B24, "2 3 4 0/1 5 6 7", "1 2 3 4/5 6 7 0")
    assert code == 0 and out.count("Solution:") == 3
    assert warnings_in(err) == [
        f"npuzzle solve: warning: table file {store / BFS24}: checksum mismatch (the data is corrupt); "
        "solving without it (rebuild it: npuzzle stats bfs 2x4 --save)"]
    code, out, err = run(capsys, "tables", "list")
    assert "DAMAGED: checksum mismatch" in out and "1 damaged file" in out
    code, out, err = run(capsys, "stats", "bfs", "2x4", "--save")
    assert code == 0 and "searching again and replacing it" in err and "dist 2x4_corner 20160" in out
    _forget()
    code, out, err = run(capsys, "solve", B24)
    assert code == 0 and "bfs-table" in out and without_notice(err) == ""
    flip(store / BFS24)
    _forget()
    code, out, err = run(capsys, "stats", "bfs", "2x4")  # not asked to save: searches, says how to replace
    assert code == 0 and "replace it: npuzzle stats bfs 2x4 --save" in err


def test_a_damaged_pdb_under_auto_falls_back_with_a_warning(capsys, store):
    assert run(capsys, "tables", "build", "pdb:4-4", "--shape", "3x3")[0] == 0
    flip(store / PDB33)
    code, out, err = run(capsys, "solve", P, "8 6 7/2 5 4/3 0 1", "--heuristic", "auto")
    assert code == 0 and out.count("Solution:") == 2 and "wd+id" in out
    assert len(warnings_in(err)) == 1 and "checksum mismatch" in err and "next bound" in err
    code, out, err = run(capsys, "solve", P, "--heuristic", "pdb:4-4")  # asked for by name: an error
    assert code == 1 and "checksum mismatch" in err and "--force" in err


def test_a_pdb_symlink_loop_under_auto_is_reported_and_skipped(capsys, store):
    store.mkdir()
    (store / PDB33).symlink_to(store / PDB33)
    code, out, err = run(capsys, "solve", P)
    assert code == 0 and "wd+id" in out
    assert len(warnings_in(err)) == 1 and "Too many levels of symbolic links" in err
    code, out, err = run(capsys, "tables", "build", "pdb:4-4", "--shape", "3x3")  # rebuilt in its place
    assert code == 0 and "damaged" in out and (store / PDB33).is_file()


def test_a_corrupt_automaton_is_rebuilt(capsys, store):
    fsm.automaton(3, 3)
    path = store / fsm.table_key(3, 3, fsm.MAX_LEN).filename
    good = tables.load_table(fsm.table_key(3, 3, fsm.MAX_LEN)).data.copy()
    flip(path, 200)
    _forget()
    with pytest.warns(TableWarning, match="building it again"):
        again = fsm.automaton(3, 3)
    assert np.array_equal(again.packed, good)
    assert np.array_equal(tables.load_table(fsm.table_key(3, 3, fsm.MAX_LEN)).data, good)  # replaced
    # a forged one whose moves leave the table never reaches the kernel
    table = tables.load_table(fsm.table_key(3, 3, fsm.MAX_LEN))
    data = table.data.copy()
    data[0] = 10**9
    tables.save_table(table.key, data, table.meta)
    with pytest.raises(TableFormatError, match="outside the automaton"):
        tables.load_table(table.key)


def test_the_store_layer_api():
    key = tables.TableKey("demo", 2, 2, "standard")
    assert tables.table_stamp(key) is None and not tables.has_table(key)
    with pytest.raises(MissingTableError):
        tables.load_table(key)
    path = tables.save_table(key, np.arange(4, dtype=np.uint8))
    assert tables.table_stamp(key) == (path.stat().st_mtime_ns, 4 + path.stat().st_size - 4)
    assert tables.matching("demo", 2, 2) == [key.filename]
    assert tables.matching("demo", 2, 3) == []


# -- issue 17, item 4: names, sizes, internal tables, confirmation --------------------------------


def test_list_and_remove_speak_in_build_names(capsys, store):
    assert run(capsys, "tables", "build", "pdb:4-4", "--shape", "3x3")[0] == 0
    assert run(capsys, "tables", "build", "pdb:3-2", "--shape", "2x3", "--goal", "blank-first")[0] == 0
    save_bfs24(capsys)
    fsm.automaton(3, 3)
    code, out, err = run(capsys, "tables", "list")
    lines = out.splitlines()
    total = sum(p.stat().st_size for p in store.iterdir())
    assert lines[0].startswith(f"4 tables in {store}, ") and "in all" in lines[0]
    assert f"{total / 1000:.1f} kB in all" in lines[0]
    named = {ln.split("  ")[0].strip(): ln for ln in lines[1:5]}
    assert set(named) == {"pdb:4-4 --shape 3x3 --goal standard", "pdb:3-2 --shape 2x3 --goal blank-first",
                          "bfs 2x4 --goal standard", "automaton 3x3"}
    assert "[internal" in named["bfs 2x4 --goal standard"] and "[internal" in named["automaton 3x3"]
    assert "[internal" not in named["pdb:4-4 --shape 3x3 --goal standard"]
    assert "3.5 kB" in named["pdb:4-4 --shape 3x3 --goal standard"]  # 6,048 entries, two a byte
    code, out, err = run(capsys, "tables", "remove", "pdb:4-4", "--shape", "3x3")
    assert code == 0 and out == f"removed {PDB33}\n"
    code, out, err = run(capsys, "tables", "remove", "pdb:4-4", "--shape", "3x3")
    assert code == 1 and "no stored table named 'pdb:4-4' for 3x3" in err
    assert run(capsys, "tables", "remove", "pdb:3-2", "--shape", "2x3", "--goal", "standard")[0] == 1
    assert run(capsys, "tables", "remove", "pdb:3-2", "--shape", "2x3")[0] == 0
    assert run(capsys, "tables", "remove", "bfs", "--shape", "2x4")[0] == 0
    code, out, err = run(capsys, "tables", "remove", "automaton")
    assert code == 1 and "--shape HxW" in err
    assert run(capsys, "tables", "remove", "automaton", "--shape", "3x3")[0] == 0
    assert list(store.iterdir()) == []


def test_a_large_build_needs_yes_without_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr(pattern_db, "available_memory", lambda: None)
    monkeypatch.setattr(sys, "stdin", open(os.devnull))
    code, out, err = run(capsys, "tables", "build", "pdb:9-6")
    assert code == 1 and out == ""
    assert err == ("npuzzle tables: building pdb:9-6 for 4x4 needs about 20.8 GB of memory and about "
                   "21 minutes; add --yes to start it\n")


def test_a_large_build_asks_on_a_terminal(store):
    """Through a pseudo-terminal: the question is asked, and 'n' starts nothing."""
    import pty

    master, slave = pty.openpty()
    os.write(master, b"n\n")
    script = ("import sys; from npuzzle.heuristics import pattern_db; pattern_db.available_memory = lambda: None; "
              "from npuzzle.cli import main; sys.exit(main(['tables', 'build', 'pdb:9-6']))")
    env = {**os.environ, "NPUZZLE_DATA_DIR": str(store)}
    done = subprocess.run([sys.executable, "-c", script], stdin=slave, capture_output=True, text=True, env=env,
                          timeout=120)
    os.close(slave)
    os.close(master)
    assert done.returncode == 1 and done.stdout == ""
    assert "needs about 20.8 GB of memory and about 21 minutes. Start it? [y/N]" in done.stderr
    assert "not started" in done.stderr
    assert not store.exists() or list(store.iterdir()) == []


def test_the_reproducers_as_commands(tmp_path):
    """Issue 18's table reproducers in fresh processes (no state shared with the test session)."""
    d = str(tmp_path / "fresh")
    assert cli("stats", "bfs", "2x4", "--save", env_dir=d).returncode == 0
    flip(tmp_path / "fresh" / BFS24)
    done = cli("solve", B24, env_dir=d)
    assert done.returncode == 0 and "Solution: 1 move" in done.stdout
    assert warnings_in(done.stderr) and "Traceback" not in done.stderr
    afile = tmp_path / "afile"
    afile.write_text("x")
    done = cli("solve", P, env_dir=str(afile))
    assert done.returncode == 0 and without_notice(done.stderr) == ""
    done = cli("tables", "build", "pdb:9-6", env_dir=d, stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and "Traceback" not in done.stderr and "building" not in done.stdout


# -- verified once, mapped once (issue 16) ------------------------------------------------------

KEY = tables.TableKey("test", 2, 3, "standard", "stamp")


def _no_hashing(*args: object) -> str:
    raise AssertionError("the checksum was computed again")


def test_a_verified_table_is_not_hashed_again_until_it_changes(store, monkeypatch):
    monkeypatch.setattr(tables, "STAMP_AFTER", 0.0)
    path = tables.save_table(KEY, np.arange(1000, dtype=np.uint16))
    stamp = path.with_name(f".{path.name}.verified")
    tables.load_table(KEY)  # verified: hashed, then stamped
    assert stamp.is_file()
    with monkeypatch.context() as m:
        m.setattr(tables, "checksum", _no_hashing)
        assert int(tables.load_table(KEY).data[999]) == 999
    # Damage in place, with the modification time set back: the change time still moves on (the
    # pause outlasts a coarse file-system clock; STAMP_AFTER does that job outside tests).
    time.sleep(0.05)
    before = path.stat()
    with open(path, "r+b") as f:
        f.seek(-2, os.SEEK_END)
        f.write(b"\x00\x00")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    with pytest.raises(TableFormatError, match="checksum mismatch"):
        tables.load_table(KEY)
    # A rebuild replaces the file (a new inode): verified again, then stamped again.
    tables.save_table(KEY, np.arange(1000, dtype=np.uint16))
    with monkeypatch.context() as m:
        m.setattr(tables, "checksum", _no_hashing)
        with pytest.raises(AssertionError, match="computed again"):
            tables.load_table(KEY)
    tables.load_table(KEY)
    assert tables.remove_table(KEY) and not stamp.exists()


def test_a_table_just_written_is_not_stamped(store):
    path = tables.save_table(KEY, np.arange(10, dtype=np.uint8))
    tables.load_table(KEY)  # changed less than STAMP_AFTER seconds ago: no stamp yet
    assert not path.with_name(f".{path.name}.verified").exists()


@pytest.mark.parametrize("stamp_text", ["not json", "{}", '{"checksum": 1}', "[" * 5000])
def test_a_bad_stamp_means_verifying_again(store, monkeypatch, stamp_text):
    path = tables.save_table(KEY, np.arange(10, dtype=np.uint8))
    path.with_name(f".{path.name}.verified").write_text(stamp_text)
    with open(path, "r+b") as f:
        f.seek(-1, os.SEEK_END)
        f.write(b"\x07")
    with pytest.raises(TableFormatError, match="checksum mismatch"):
        tables.load_table(KEY)


def test_large_tables_are_mapped_not_copied(store, monkeypatch):
    """Above HUGE_PAGE_BYTES the data is a read-only view of the file's shared mapping (no private
    copy per process), with the same values."""
    monkeypatch.setattr(tables, "HUGE_PAGE_BYTES", 1)
    data = np.arange(3 * 4096, dtype=np.uint32)
    tables.save_table(KEY, data)
    loaded = tables.load_table(KEY).data
    assert np.array_equal(loaded, data) and not loaded.flags.writeable and not loaded.flags.owndata
    with pytest.raises(ValueError):
        loaded[0] = 1


# -- issue 33, item 6: leftovers, free space, broken links, file modes ---------------------------


def test_a_broken_link_at_a_tables_path_is_bypassed_with_one_warning(capsys, store):
    """A symlink to nothing where the 3x3 pattern database would be: the default solve warns once
    and answers without it (it used to stop every default solve of the shape); the list flags it."""
    store.mkdir(parents=True, exist_ok=True)
    (store / PDB33).symlink_to(store / "gone.npt")
    code, out, err = run(capsys, "solve", "8 6 7/2 5 4/3 0 1", "--method", "idastar")
    assert code == 0 and "31 moves" in out
    assert err.count("symlink to nothing") == 1
    code, out, _ = run(capsys, "tables", "list")
    assert "symlink to nothing" in out or "cannot be read" in out


def test_leftovers_of_an_interrupted_write_are_listed_removed_and_cleared_by_a_build(capsys, store):
    store.mkdir(parents=True, exist_ok=True)
    left = store / f".{PDB33}.k3j4h5.tmp"
    left.write_bytes(b"\0" * 1000)
    fresh = store / ".other.npt.abc.tmp"
    fresh.write_bytes(b"\0" * 10)
    old = time.time() - 2 * tables.LEFTOVER_SECONDS
    os.utime(left, (old, old))
    infos = tables.list_tables()
    assert [i.path.name for i in infos if i.problem and "interrupted" in i.problem] == [left.name]
    code, out, _ = run(capsys, "tables", "list")
    assert code == 0 and left.name in out and fresh.name not in out  # a write under way is no leftover
    assert run(capsys, "tables", "remove", left.name)[0] == 0 and not left.exists()
    left.write_bytes(b"\0" * 1000)
    os.utime(left, (old, old))
    pattern_db.build("4-4", 3, 3, "standard", progress=False)
    assert not left.exists() and fresh.exists()


def test_a_build_that_would_not_fit_on_the_disk_is_refused_before_it_starts(capsys, store, monkeypatch):
    import shutil
    from collections import namedtuple

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10**9, 10**9 - 3000, 3000))
    searched = []
    monkeypatch.setattr(pattern_db, "_search_cells", lambda *a: searched.append(1))
    with pytest.raises(TableStoreError, match=r"the table needs 67 KiB with its header and 2 KiB are free"):
        pattern_db.build("4-4", 3, 3, "standard", progress=False)  # 3,024 bytes of entries
    assert searched == []
    code, _, err = run(capsys, "stats", "bfs", "3x3", "--save")  # 45,360 bytes
    assert code == 1 and "the table needs 109 KiB with its header and 2 KiB are free" in err


@pytest.mark.parametrize("nbytes, free, fits", [(787_000, 2 * 2**20, True), (787_000, 787_000, False),
                                                (787_000, 787_000 + (64 << 10), True),  # SPARE_BYTES
                                                (3 << 30, 3 << 30, False)])
def test_the_free_space_check_builds_what_fits_and_says_true_sizes(store, monkeypatch, nbytes, free, fits):
    """A 787 KB table with 2 MiB free is stored; a refusal's numbers are true: the need is rounded
    up, what is free rounded down, so the need shown is always more than the free shown."""
    import re
    import shutil
    from collections import namedtuple

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(1 << 40, (1 << 40) - free, free))
    key = tables.TableKey("test", 2, 3, "standard", "space")
    if fits:
        assert tables.writable_path(key, nbytes).parent == store
        return
    with pytest.raises(TableStoreError) as e:
        tables.writable_path(key, nbytes)
    need, need_unit, have, have_unit = re.search(r"needs ([\d,.]+) (\w+) with its header and ([\d,.]+) (\w+) are",
                                                 str(e.value)).groups()
    scale = {"KiB": 2**10, "MiB": 2**20, "GiB": 2**30}
    assert float(need.replace(",", "")) * scale[need_unit] >= nbytes + tables.SPARE_BYTES > free
    assert float(have.replace(",", "")) * scale[have_unit] <= free


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_table_files_follow_the_umask(store, umask, mode):
    old = os.umask(umask)
    try:
        path = tables.save_table(tables.TableKey("bfs", 2, 3, "standard"), np.zeros(90, np.uint8),
                                 {"distribution": [1]})
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == mode


# -- a stamp cannot be forged ----------------------------------------------------------------------


def _forge_bfs24(store, true_distance: int = 23) -> tuple[str, int, dict[str, int], object]:
    """Forge the saved 2x4 distance table as an attacker with write access to the store would: one
    position's entry (true distance 23) shifted so that the walk goes up one move first (it then
    reads 25 moves, "optimal"), the header's checksum recomputed, the stamp rewritten. Returns the
    position and its true distance (by a naive breadth-first search)."""
    import hmac

    from naive import bfs_distances

    from npuzzle._kernels.bfs import rank

    dist = bfs_distances(2, 4)
    tiles = next(s for s, d in sorted(dist.items()) if d == true_distance)
    key = tables.TableKey("bfs", 2, 4, "standard")
    table = tables.load_table(key)
    data = table.data.copy()
    sp = bfs.space(2, 4, 7)
    i = int(rank(np.array(tiles, dtype=np.int64), 8, sp.fact_half, sp.popc))
    shifted = (true_distance + 2) % 3
    data[i >> 2] = (int(data[i >> 2]) & (0xFF ^ (3 << 2 * (i & 3)))) | (shifted << 2 * (i & 3))
    path = tables.save_table(key, data, dict(table.meta))  # a valid checksum
    st = path.stat()
    fields = {"checksum": tables._read_header(path)[0]["checksum"], "dev": st.st_dev, "ino": st.st_ino,
              "size": st.st_size, "mtime_ns": st.st_mtime_ns, "ctime_ns": st.st_ctime_ns}
    return " ".join(map(str, tiles)), true_distance, fields, hmac


@pytest.mark.parametrize("forgery", ["plain fields", "signed with a guessed key", "copied from a good table"])
def test_a_forged_distance_table_and_stamp_are_caught(capsys, store, monkeypatch, forgery):
    """The stamp that spares a load its checks is signed with a key outside the store: written
    beside a forged table by someone who cannot read that key, it proves nothing, so the table is
    verified in full, found forged, and bypassed (the solve answers the true distance)."""
    monkeypatch.setattr(tables, "STAMP_AFTER", 0.0)
    save_bfs24(capsys)
    path = store / BFS24
    stamp = path.with_name(f".{path.name}.verified")
    tables.load_table(tables.TableKey("bfs", 2, 4, "standard"))  # verified in full, then stamped
    assert stamp.is_file()
    good_stamp = stamp.read_text()
    position, distance, fields, hmac = _forge_bfs24(store)
    if forgery == "plain fields":  # the stat fields, as an unsigned stamp held them
        stamp.write_text(json.dumps(fields))
    elif forgery == "signed with a guessed key":
        text = json.dumps({"name": path.name, **fields}, sort_keys=True).encode()
        stamp.write_text(json.dumps({"stamp_version": 2,
                                     "hmac-sha256": hmac.new(b"\0" * 32, text, "sha256").hexdigest()}))
    else:
        stamp.write_text(good_stamp)
    _forget()
    code, out, err = run(capsys, "solve", "--shape", "2x4", position)
    assert code == 0 and f"Solution: {distance} moves" in out, out
    assert "bfs-table" not in out
    assert len(warnings_in(err)) == 1 and "not the distances a breadth-first search finds" in err


def test_no_stamp_without_a_key_outside_the_store(store, monkeypatch):
    """A key inside the store (readable by whoever writes the store) signs nothing: every load
    verifies."""
    monkeypatch.setattr(tables, "STAMP_AFTER", 0.0)
    monkeypatch.setenv("NPUZZLE_STAMP_KEY", str(store / "stamp.key"))
    path = tables.save_table(KEY, np.arange(1000, dtype=np.uint16))
    tables.load_table(KEY)
    assert not path.with_name(f".{path.name}.verified").exists()
