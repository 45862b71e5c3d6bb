"""A warm start (issue 31, part 3): the tables a solve computes in Python are read from the table
store by later processes (the walking-distance tables, a custom goal's distance table), damaged
ones are reported once and rebuilt, and a local solve imports nothing of the parallel machinery."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from conftest import forget_table_caches

from npuzzle import solve, tables
from npuzzle.errors import TableFormatError, TableWarning
from npuzzle.heuristics import walking_distance as wd
from npuzzle.search import bfs

B44 = "bc9e80df3412a756"  # a 4x4 position, 56 moves
B33 = "8 6 7/2 5 4/3 0 1"  # the 8-puzzle, 31 moves
START, GOAL = "2 8 3/1 6 4/7 0 5", "1 2 3/8 0 4/7 6 5"  # neither blank in a corner: 5 moves
WALK44 = wd.table_key(4, 4, "standard", "rows").filename
BFS_CENTRE = "bfs_3x3_blank-1,1_all_v1.npt"
PARALLEL = ("npuzzle.cluster", "npuzzle.search.split")


_forget = forget_table_caches


@pytest.fixture
def store(private_store):
    return private_store


def python(code: str, store_dir) -> subprocess.CompletedProcess:
    env = {**os.environ, "NPUZZLE_DATA_DIR": str(store_dir)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)


def flip(path, at: int = -100) -> None:
    raw = bytearray(path.read_bytes())
    raw[at] ^= 0xFF
    path.write_bytes(bytes(raw))


# -- walking distance ---------------------------------------------------------------------------


def test_a_second_process_reads_the_walking_table_instead_of_building_it(store):
    first = python(f"from npuzzle.cli import main; raise SystemExit(main(['solve', {B44!r}]))", store)
    assert first.returncode == 0 and "56 moves" in first.stdout
    assert (store / WALK44).is_file()
    second = python(
        "from npuzzle.heuristics import walking_distance as wd\n"
        "def refuse(*a):\n"
        "    raise AssertionError('built again')\n"
        "wd.build_walking_table = refuse\n"
        f"from npuzzle.cli import main; raise SystemExit(main(['solve', {B44!r}]))", store)
    assert second.returncode == 0, second.stderr
    assert second.stdout == first.stdout.replace(_times(first.stdout), _times(second.stdout))


def _times(out: str) -> str:
    """The part of a solution's text that changes from run to run (its times)."""
    line = next(ln for ln in out.splitlines() if " generated in " in ln)
    return line[line.index(" generated in ") :]


def test_the_stored_walking_tables_are_the_built_ones(store, monkeypatch):
    for shape in ((4, 4), (3, 4), (2, 5)):
        for goal in ("standard", "blank-first"):
            built = wd.walking_tables(*shape, goal)
            wd.walking_tables.cache_clear()
            with monkeypatch.context() as m:
                m.setattr(wd, "build_walking_table", _refuse)
                loaded = wd.walking_tables(*shape, goal)
            for a, b in zip(built, loaded, strict=True):
                assert (a.lines, a.cells, a.goal_blank_line) == (b.lines, b.cells, b.goal_blank_line)
                assert np.array_equal(a.states, b.states) and np.array_equal(a.dist, b.dist)
                assert np.array_equal(a.trans, b.trans) and np.array_equal(a.steps(), b.steps())
                assert a.dist.dtype == b.dist.dtype and a.trans.dtype == b.trans.dtype
                assert a.index == b.index
    names = sorted(p.name for p in store.iterdir() if not p.name.startswith("."))
    assert names == sorted(wd.table_key(h, w, g, which).filename for h, w in ((4, 4), (3, 4), (2, 5))
                           for g in ("standard", "blank-first") for which in ("rows", "cols")
                           if which == "rows" or h != w)


def _refuse(*args: object) -> None:
    raise AssertionError("the table was built again instead of read")


def test_lookups_scan_first_and_agree_with_the_dictionary(store):
    rows, _ = wd.walking_tables(3, 4)
    wd.walking_tables.cache_clear()
    loaded, _ = wd.walking_tables(3, 4)  # from the store: no dictionary yet
    assert "index" not in loaded.__dict__
    states = [tuple(s) for s in rows.states.tolist()]
    picks = [states[i] for i in (0, 7, 100, len(states) - 1, 55, 3)]
    assert [loaded.position(s) for s in picks] == [rows.index[s] for s in picks]
    assert "index" in loaded.__dict__  # built after a few lookups
    with pytest.raises(KeyError):
        wd.walking_tables.cache_clear()
        wd.walking_tables(3, 4)[0].position((9,) * 10)


def test_a_damaged_walking_table_is_reported_once_and_rebuilt(store):
    built = wd.walking_tables(4, 4)[0]
    flip(store / WALK44)
    _forget()
    with pytest.warns(TableWarning, match="checksum mismatch.*building it again and replacing it") as caught:
        again = wd.walking_tables(4, 4)[0]
        assert solve(B44).length == 56
    assert len([w for w in caught if issubclass(w.category, TableWarning)]) == 1
    assert np.array_equal(again.trans, built.trans)
    table = tables.load_table(wd.table_key(4, 4, "standard", "rows"))  # replaced, sound
    assert np.array_equal(table.data, wd._as_array(built))


def _forge(data: np.ndarray, how: str) -> np.ndarray:
    data = data.copy()
    lines = 4
    if how == "distance":
        data[10, 0] += 2
    elif how == "goal-last":
        data[[0, 1]] = data[[1, 0]]
    elif how == "twice":
        data[7] = data[8]
    elif how == "wrong-move":
        row = next(i for i in range(1, len(data)) if (data[i, 1 : 1 + 2 * lines] >= 0).sum() >= 2)
        moves = np.flatnonzero(data[row, 1 : 1 + 2 * lines] >= 0)
        a, b = 1 + moves[0], 1 + moves[1]
        data[row, a], data[row, b] = data[row, b], data[row, a]
    elif how == "missing-move":
        row = 5
        data[row, 1 + int(np.flatnonzero(data[row, 1 : 1 + 2 * lines] >= 0)[0])] = -1
    elif how == "counts":
        data[12, -2] += 1
    elif how == "grows-bit":
        data[20, 1 + int(np.flatnonzero(data[20, 1 : 1 + 2 * lines] >= 0)[0])] ^= 1
    elif how == "outside":
        data[3, 1 + int(np.flatnonzero(data[3, 1 : 1 + 2 * lines] >= 0)[0])] = 2 * len(data)
    return data


@pytest.mark.parametrize("how", ["distance", "goal-last", "twice", "wrong-move", "missing-move", "counts",
                                 "grows-bit", "outside"])
def test_a_forged_walking_table_is_refused_and_rebuilt(store, how):
    """A table with a valid checksum but wrong contents never reaches the kernel."""
    built = wd.walking_tables(4, 4)[0]
    key = wd.table_key(4, 4, "standard", "rows")
    table = tables.load_table(key)
    forged = _forge(np.array(table.data), how)
    assert not np.array_equal(forged, table.data)
    tables.save_table(key, forged, table.meta)
    with pytest.raises(TableFormatError, match="corrupt"):
        tables.load_table(key)
    _forget()
    with pytest.warns(TableWarning, match="building it again"):
        again = wd.walking_tables(4, 4)[0]
    assert np.array_equal(again.dist, built.dist)


def test_tables_list_checks_and_remove_removes_the_walking_tables(store, capsys):
    from npuzzle.cli import main

    wd.walking_tables(3, 4)
    key = wd.table_key(3, 4, "standard", "cols")
    table = tables.load_table(key)
    tables.save_table(key, _forge(np.array(table.data), "distance"), table.meta)  # forged: checksum valid
    assert main(["tables", "list"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 tables in") and out.count("DAMAGED") == 1 and "distance" in out
    assert main(["tables", "remove", "walking", "--shape", "3x4", "--goal", "blank-first"]) == 1
    assert main(["tables", "remove", "walking", "--shape", "3x4"]) == 0
    assert capsys.readouterr().out.count("removed walking_3x4_standard_") == 2
    assert not any(p.name.endswith(".npt") for p in store.iterdir())


# -- a goal board whose blank is off the corners --------------------------------------------------


def _verified_once() -> None:
    """The saved 3x3 table's first verified load (its entries searched again, a forged table's
    defence), once it is old enough to be stamped: later loads read it and search nothing."""
    import time

    time.sleep(tables.STAMP_AFTER)
    _forget()
    bfs.load_distance_table(3, 3, blank_cell=(1, 1))
    _forget()


def test_a_custom_goals_distance_table_is_saved_and_read_back(store, monkeypatch):
    first = solve(START, goal=GOAL)
    assert first.length == 5 and first.method == "bfs-table" and (store / BFS_CENTRE).is_file()
    _verified_once()
    monkeypatch.setattr(bfs, "run_bfs", _refuse)
    again = solve(START, goal=GOAL)
    assert again.moves == first.moves and again.optimal
    saved = bfs.load_distance_table(3, 3, blank_cell=(1, 1))
    assert sum(saved.meta["distribution"]) == 181_440


def test_a_second_process_reads_the_custom_goals_table(store):
    code = ("from npuzzle.cli import main\n"
            f"raise SystemExit(main(['solve', {START!r}, '--goal-board', {GOAL!r}, '--json']))")
    first = python(code, store)
    assert first.returncode == 0 and (store / BFS_CENTRE).is_file()
    _verified_once()
    second = python("from npuzzle.search import bfs\n"
                    "def refuse(*a, **k):\n"
                    "    raise AssertionError('searched again')\n"
                    "bfs.run_bfs = refuse\n" + code, store)
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["moves"] == json.loads(first.stdout)["moves"]


def test_a_damaged_custom_goal_table_is_reported_once_and_replaced(store):
    first = solve(START, goal=GOAL)
    flip(store / BFS_CENTRE)
    _forget()
    with pytest.warns(TableWarning, match="checksum mismatch.*searching again and replacing it") as caught:
        again = solve(START, goal=GOAL)
        solve("2 8 3/1 6 4/7 5 0", goal=GOAL)
    assert len([w for w in caught if issubclass(w.category, TableWarning)]) == 1
    assert again.moves == first.moves
    _forget()
    assert bfs.load_distance_table(3, 3, blank_cell=(1, 1)).meta["states"] == 181_440  # replaced, sound


def test_a_store_that_cannot_be_written_still_solves(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("NPUZZLE_DATA_DIR", str(tmp_path / "file" / "store"))
    _forget()
    assert solve(START, goal=GOAL).length == 5
    assert solve(B44).length == 56
    _forget()


# -- imports ------------------------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    f"from npuzzle.cli import main; main(['solve', {B33!r}])",
    f"from npuzzle.cli import main; main(['solve', {START!r}, '--goal-board', {GOAL!r}])",
    f"import npuzzle; npuzzle.solve({B33!r})",
])
def test_a_local_solve_imports_no_parallel_machinery(store, call):
    done = python(f"import sys\n{call}\nprint(sorted(m for m in sys.modules if m in {PARALLEL!r}))", store)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


def test_a_parallel_solve_does_import_it(store):
    done = python("import sys\nfrom npuzzle.cli import main\n"
                  f"main(['solve', {B33!r}, '1 2 3/4 5 6/7 0 8', '--jobs', '2'])\n"
                  f"print(sorted(m for m in sys.modules if m in {PARALLEL!r}))", store)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == str(sorted(PARALLEL))
