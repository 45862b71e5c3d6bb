"""Labelled data sets: labels against exhaustive BFS (tests/naive.py) and IDA*, uniform and
solvable positions, the same rows whatever --jobs, resuming, Parquet, and the records' schema."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from naive import bfs_distances
from records import records, valid

from npuzzle import Board
from npuzzle.cli import main
from npuzzle.dataset import CHUNK, Spec, chunk_positions, part_path, write
from npuzzle.errors import IllegalMoveError, InvalidOptionError
from npuzzle.instances import benchmark_set
from npuzzle.present.dataset import moves_letters, row_record
from npuzzle.search import labels, solve


def _optimal_moves(board: Board, dist: dict[tuple[int, ...], int]) -> str:
    out = ""
    for ch in "UDLR":
        try:
            child = board.push(ch)
        except IllegalMoveError:
            continue
        if dist[child.tiles] == dist[board.tiles] - 1:
            out += ch
    return out


@pytest.mark.slow
@pytest.mark.parametrize("shape, goal", [((2, 2), "standard"), ((2, 3), "standard"), ((3, 2), "standard"),
                                         ((2, 4), "standard"), ((4, 2), "standard"), ((3, 3), "standard"),
                                         ((2, 5), "standard"), ((3, 3), "blank-first"), ((2, 4), "blank-first")])
def test_table_labels_are_bfs_distances_and_moves(shape, goal):
    h, w = shape
    dist = bfs_distances(h, w, goal)
    states = list(dist)
    sample = states if len(states) <= 20_000 else [states[i] for i in range(0, len(states), len(states) // 5000)]
    lab = labels.label(np.array(sample), h, w, goal)
    assert lab.method == "bfs-table" and lab.optimal
    assert lab.distance.tolist() == [dist[s] for s in sample]
    for i, s in enumerate(sample[:3000]):
        assert moves_letters(int(lab.moves[i])) == _optimal_moves(Board(h, w, s), dist)


@pytest.mark.parametrize("shape, walk", [((4, 4), 24), ((3, 4), 30), ((4, 3), 30), ((2, 6), 30), ((3, 5), 18)])
def test_idastar_labels_agree_with_separate_searches(shape, walk):
    h, w = shape
    tiles = chunk_positions(Spec(h, w, seed=3, walk=walk), 0)[:4]
    lab = labels.label(tiles, h, w)
    assert lab.method.startswith("idastar/") and lab.optimal
    for row, d, mask in zip(tiles.tolist(), lab.distance.tolist(), lab.moves.tolist(), strict=True):
        board = Board(h, w, tuple(row))
        assert solve(board, method="idastar", heuristic="lc").length == d
        best = ""
        for ch in "UDLR":
            try:
                child = board.push(ch)
            except IllegalMoveError:
                continue
            if solve(child, method="idastar", heuristic="lc").length == d - 1:
                best += ch
        assert moves_letters(mask) == best != ""


def test_4x4_labels_are_korfs_published_optima():
    """The 4x4 labels against Korf's published optima (not IDA* against IDA*), on two of his 100
    that IDA* solves in moments."""
    instances = benchmark_set("korf100", ids=[79, 12])
    lab = labels.label(np.array([i.board.tiles for i in instances]), 4, 4, "blank-first")
    assert lab.optimal and lab.distance.tolist() == [i.optimal_length for i in instances]
    assert sorted(i.optimal_length for i in instances) == [42, 45]  # both read


def test_goal_is_labelled_zero_without_moves():
    for h, w in ((3, 3), (4, 4)):
        lab = labels.label(np.array([Board.goal(h, w).tiles]), h, w)
        assert lab.distance.tolist() == [0] and lab.moves.tolist() == [0]


def test_large_boards_get_a_bound_and_a_near_optimal_length():
    tiles = chunk_positions(Spec(5, 5, seed=1, walk=40), 0)[:2]
    lab = labels.label(tiles, 5, 5)
    assert not lab.optimal and lab.distance.tolist() == [-1, -1]
    for row, low, length in zip(tiles.tolist(), lab.lower_bound.tolist(), lab.length.tolist(), strict=True):
        board = Board(5, 5, tuple(row))
        assert board.manhattan() <= low <= length <= 40
        assert low % 2 == length % 2 == board.manhattan() % 2


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (3, 3), (4, 4), (3, 5), (9, 9)])
def test_uniform_positions_are_solvable_and_spread(shape):
    h, w = shape
    tiles = chunk_positions(Spec(h, w, seed=7), 0)
    boards = [Board(h, w, tuple(row)) for row in tiles.tolist()]
    assert all(b.is_solvable() for b in boards)
    assert len(set(boards)) > 0.9 * CHUNK or h * w <= 6  # 2x3 has 360 positions
    blanks = np.bincount(tiles.argmin(axis=1), minlength=h * w)
    assert blanks.min() > 0.3 * CHUNK / (h * w)  # every cell holds the blank, about as often


def test_uniform_2x3_covers_every_position_about_equally():
    tiles = np.concatenate([chunk_positions(Spec(2, 3, seed=1), k) for k in range(40)])
    counts: dict[tuple[int, ...], int] = {}
    for row in map(tuple, tiles.tolist()):
        counts[row] = counts.get(row, 0) + 1
    assert len(counts) == 360 and set(counts) == set(bfs_distances(2, 3))
    expected = len(tiles) / 360
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 500  # 359 degrees of freedom: mean 359, sd 27; a biased draw is far off


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def test_rows_are_records_and_deterministic_whatever_the_jobs(tmp_path):
    spec = Spec(3, 3, seed=11)
    write(spec, 2500, tmp_path / "one.jsonl", jobs=1, progress=False)
    write(spec, 2500, tmp_path / "two.jsonl", jobs=2, progress=False)
    one = _lines(tmp_path / "one.jsonl")
    assert one == _lines(tmp_path / "two.jsonl") and len(one) == 2500
    rows = records("\n".join(one[:200]))
    dist = bfs_distances(3, 3)
    for i, row in enumerate(rows):
        assert row["index"] == i and row["distance"] == dist[tuple(row["tiles"])]
        assert row == row_record(spec, i, row["tiles"], row["distance"], sum(1 << "UDLR".index(c) for c in
                                 row["optimal_moves"]), row["distance"], row["distance"], "bfs-table")


def test_walk_rows_on_4x4_same_with_two_jobs(tmp_path):
    spec = Spec(4, 4, seed=2, walk=16)
    write(spec, 40, tmp_path / "a.jsonl", progress=False)
    write(spec, 40, tmp_path / "b.jsonl", jobs=2, progress=False)
    a = _lines(tmp_path / "a.jsonl")
    assert a == _lines(tmp_path / "b.jsonl")
    for row in records("\n".join(a)):
        assert row["optimal"] and row["distance"] <= 16 and row["labelled_by"].startswith("idastar/")


def test_resume_after_an_interrupted_write_gives_the_same_file(tmp_path):
    spec = Spec(2, 4, seed=5)
    full = tmp_path / "full.jsonl"
    write(spec, 3000, full, progress=False)
    out = tmp_path / "out.jsonl"
    part = part_path(out)
    lines = _lines(full)
    part.write_text("\n".join(lines[:1234]) + "\n" + lines[1234][:40])  # cut in the middle of a row
    assert not out.exists()
    summary = write(spec, 3000, out, progress=False)
    assert summary.new == 3000 - 1234 and not part.exists()
    assert out.read_bytes() == full.read_bytes()
    # a finished file is extended by a larger count, and a rerun at its count does nothing
    write(spec, 1000, tmp_path / "short.jsonl", progress=False)
    summary = write(spec, 3000, tmp_path / "short.jsonl", progress=False)
    assert summary.new == 2000 and (tmp_path / "short.jsonl").read_bytes() == full.read_bytes()
    assert write(spec, 3000, out, progress=False).new == 0


def test_resume_refuses_another_data_set_or_a_smaller_count(tmp_path):
    out = tmp_path / "d.jsonl"
    write(Spec(3, 3, seed=1), 100, out, progress=False)
    with pytest.raises(InvalidOptionError, match="seed"):
        write(Spec(3, 3, seed=2), 200, out, progress=False)
    with pytest.raises(InvalidOptionError, match="source"):
        write(Spec(3, 3, seed=1, walk=5), 200, out, progress=False)
    with pytest.raises(InvalidOptionError, match="more than --count"):
        write(Spec(3, 3, seed=1), 50, out, progress=False)


def test_a_file_that_is_no_data_set_is_refused_not_overwritten(tmp_path, capsys):
    mine = tmp_path / "notes.jsonl"
    mine.write_text("my notes\n")
    with pytest.raises(InvalidOptionError, match="not a row of a data set"):
        write(Spec(3, 3, seed=1), 10, mine, progress=False)
    assert mine.read_text() == "my notes\n" and not part_path(mine).exists()
    assert main(["dataset", "--shape", "3x3", "--count", "5", "--seed", "1", "--out",
                 str(tmp_path / "missing" / "x.jsonl")]) == 1
    assert "cannot write" in capsys.readouterr().err


def test_parquet_holds_the_same_rows_and_resumes(tmp_path):
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    spec = Spec(3, 2, seed=4, walk=7)
    write(spec, 1500, tmp_path / "d.jsonl", progress=False)
    write(spec, 700, tmp_path / "d.parquet", progress=False)
    write(spec, 1500, tmp_path / "d.parquet", progress=False)
    (tmp_path / "bad.parquet").write_text("no parquet")
    with pytest.raises(InvalidOptionError, match="not a Parquet data set"):
        write(spec, 10, tmp_path / "bad.parquet", progress=False)
    rows = pq.read_table(tmp_path / "d.parquet").to_pylist()
    assert rows == [json.loads(line) for line in _lines(tmp_path / "d.jsonl")]
    for row in rows[:50]:
        valid(row)


def test_command_line(tmp_path, capsys):
    out = tmp_path / "x.jsonl"
    assert main(["dataset", "--shape", "2x3", "--count", "10", "--seed", "1", "--out", str(out), "-q"]) == 0
    assert "10 positions" in capsys.readouterr().out and len(_lines(out)) == 10
    assert main(["dataset", "--shape", "2x3", "--count", "10", "--seed", "1", "--out", str(tmp_path / "x.csv")]) == 1
    assert "give a file ending in .jsonl" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["dataset", "--shape", "2x3", "--count", "10", "--seed", "1", "--out", str(out), "--walk", "-3"])
    assert stop.value.code == 2


@pytest.mark.slow
def test_a_killed_run_leaves_no_output_and_is_resumed(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "k.jsonl"
    part = part_path(out)
    argv = [sys.executable, "-m", "npuzzle", "dataset", "--shape", "4x4", "--count", "5000", "--seed", "9",
            "--walk", "8", "--out", str(out), "-q"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and child.poll() is None:
            if part.exists() and part.stat().st_size > 30_000:
                break
            time.sleep(0.05)
        assert child.poll() is None, "the run ended before it could be killed"
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait()
    assert not out.exists() and part.exists()
    kept = len(_lines(part))
    summary = write(Spec(4, 4, seed=9, walk=8), 5000, out, progress=False)
    assert not part.exists() and summary.new >= 5000 - kept
    fresh = tmp_path / "fresh.jsonl"
    write(Spec(4, 4, seed=9, walk=8), 5000, fresh, progress=False)
    assert out.read_bytes() == fresh.read_bytes()
