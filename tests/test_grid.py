"""``npuzzle bench`` given lists (``npuzzle.grid``): one row per set x combination x instance,
the lengths checked against breadth-first search (``naive.py``) and the published optima, CSV and
JSON lines holding the same rows, a second run resuming without solving again, and clear refusals."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from naive import bfs_distances
from records import records

from npuzzle import grid
from npuzzle.cli import main
from npuzzle.instances import benchmark_set, scramble
from npuzzle.notation import format_position
from npuzzle.present import grid as present

#: Columns that differ between two runs of the same grid: time and memory.
TIMES = {"cpu_seconds", "wall_seconds", "peak_memory"}


def bench(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["bench", *args])
    out, err = capsys.readouterr()
    return status, out, err


def csv_rows(path: Path) -> list[dict[str, object]]:
    return present.read_csv(path.read_text(encoding="utf-8"), grid.COLUMNS)


def jsonl_rows(path: Path) -> list[dict[str, object]]:
    return [{k: v for k, v in r.items() if k not in ("schema_version", "record")}
            for r in records(path.read_text(encoding="utf-8"))]


def without_times(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    return [{k: v for k, v in r.items() if k not in TIMES} for r in rows]


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (2, 4), (3, 3)])
def test_random_sets_solve_every_position_optimally(shape, tmp_path, capsys):
    """Every row of a grid over a random set: the length is the breadth-first distance of the
    position the seed draws (the same positions ``instances.scramble`` gives), for each heuristic."""
    h, w = shape
    spec = f"random:{h}x{w}:4:11"
    out = tmp_path / "runs.csv"
    status, text, _ = bench(capsys, spec, "--heuristic", "manhattan,lc", "--out", str(out))
    assert status == 0, text
    rows = csv_rows(out)
    boards = scramble(h, w, 4, seed=11)
    distances = bfs_distances(h, w)
    assert [(r["heuristic"], r["instance"]) for r in rows] == [(heur, i) for heur in ("manhattan", "lc")
                                                               for i in range(1, 5)]
    for r in rows:
        assert r["status"] == "solved" and r["optimal"] is True and r["set"] == spec
        assert r["length"] == distances[boards[r["instance"] - 1].tiles]
        assert r["ratio"] == round(r["length"] / r["lower_bound"], 4)
        assert r["lower_bound"] <= r["length"]
    assert "2 combinations, 8 runs" in text and "# combination" in text


def test_a_file_of_positions_on_larger_non_square_boards(tmp_path, capsys):
    """4x3 and 3x5 positions (random walks of 14 moves) in files: IDA* and A* agree on every
    length, and no length exceeds the walk."""
    paths = []
    for h, w in ((4, 3), (3, 5)):
        path = tmp_path / f"walks{h}x{w}.txt"
        path.write_text("\n".join(format_position(b) for b in scramble(h, w, 3, walk=14, seed=5)) + "\n")
        paths.append(str(path))
    out = tmp_path / "runs.jsonl"
    status, text, _ = bench(capsys, ",".join(paths), "--method", "idastar,astar", "--heuristic", "lc",
                            "--out", str(out), "--json")
    assert status == 0
    rows = jsonl_rows(out)
    assert len(rows) == 12 and {r["status"] for r in rows} == {"solved"}
    by_key = {}
    for r in rows:
        by_key.setdefault((r["set"], r["instance"]), set()).add(r["length"])
        assert r["length"] <= 14 and r["optimal"]
        assert (r["pruning"] is None) == (r["method"] == "astar")  # A* takes no pruning
    assert all(len(lengths) == 1 for lengths in by_key.values())
    assert records(text)[-1]["record"] == "grid-summary"


def test_csv_and_json_lines_hold_the_same_rows(tmp_path, capsys):
    args = ["random:2x3:3:4,korf100", "--ids", "1,2", "--heuristic", "lc,wd"]
    assert bench(capsys, *args, "--out", str(tmp_path / "a.csv"))[0] == 0
    assert bench(capsys, *args, "--out", str(tmp_path / "a.jsonl"))[0] == 0
    from_csv, from_json = csv_rows(tmp_path / "a.csv"), jsonl_rows(tmp_path / "a.jsonl")
    assert len(from_csv) == 8
    assert without_times(from_csv) == without_times(from_json)
    assert all(list(r) == [name for name, _ in grid.COLUMNS] for r in from_json)  # same columns, same order
    # one row written both ways reads back the same, times included
    row = from_json[-1]
    assert present.read_csv(present.csv_header(grid.COLUMNS) + present.csv_line(row, grid.COLUMNS),
                            grid.COLUMNS) == [row]
    assert jsonl_rows_of(present.jsonl_line(row)) == [row]


def jsonl_rows_of(text: str) -> list[dict[str, object]]:
    return present.read_jsonl(text, grid.COLUMNS)


def test_korf_100_rows_carry_the_published_facts(tmp_path, capsys):
    """Korf's #79 and #12: the published optimum, Korf's node count compared (and equal) for IDA*
    with the Manhattan distance and parent pruning, not for linear conflict."""
    out = tmp_path / "korf.csv"
    status, text, _ = bench(capsys, "korf100", "--ids", "79,12", "--heuristic", "manhattan,lc", "--pruning",
                            "parent", "--out", str(out))
    assert status == 0
    instances = {i.id: i for i in benchmark_set("korf100", [12, 79])}
    rows = csv_rows(out)
    assert [r["instance"] for r in rows] == [12, 79, 12, 79]
    for r in rows:
        inst = instances[r["instance"]]
        assert r["length"] == r["published_optimum"] == inst.optimal_length and r["ratio"] == 1.0
        assert r["goal"] == "blank-first" and r["published_nodes"] == inst.published_nodes
        if r["heuristic"] == "manhattan":
            assert r["korf_nodes"] == r["generated"] == inst.recomputed_nodes and r["nodes_ok"] is True
        else:
            assert r["korf_nodes"] is None and r["nodes_ok"] is None
    assert "LENGTH DIFFERS" not in text


def test_a_second_run_solves_nothing_again(tmp_path, capsys, monkeypatch):
    out = tmp_path / "runs.csv"
    args = ["random:2x3:3:1,random:3x2:3:1", "--heuristic", "manhattan,lc", "--out", str(out)]
    assert bench(capsys, *args)[0] == 0
    first = out.read_text()
    solved = []
    real = grid.run_task

    def counting(task, on_progress=None):
        solved.append(task)
        return real(task, on_progress)

    monkeypatch.setattr(grid, "run_task", counting)
    status, text, _ = bench(capsys, *args)
    assert status == 0 and solved == [] and out.read_text() == first
    assert "12 already in" in text and "(skipped), 0 to run" in text
    assert "random:3x2:3:1 idastar lc" in text.splitlines()[-1]  # the summary is still complete
    # one more heuristic: only its runs are solved, appended after the others
    status, text, _ = bench(capsys, *args[:2], "manhattan,lc,wd", *args[3:], "--json")
    summary = records(text)[-1]
    assert status == 0 and len(solved) == 6 and summary["skipped"] == 12 and summary["runs"] == 18
    assert out.read_text().startswith(first) and len(csv_rows(out)) == 18


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_an_interrupted_write_is_cut_off_and_its_run_solved_again(tmp_path, capsys, monkeypatch, suffix):
    out = tmp_path / f"runs{suffix}"
    args = ["random:2x4:3:2", "--heuristic", "lc", "--out", str(out)]
    assert bench(capsys, *args)[0] == 0
    whole = out.read_text()
    out.write_text(whole[: len(whole) - 20])  # the last line half written
    solved = []
    real = grid.run_task
    monkeypatch.setattr(grid, "run_task", lambda task, on_progress=None: solved.append(task) or real(task))
    status, text, _ = bench(capsys, *args)
    assert status == 0 and len(solved) == 1 and "2 already in" in text and "a partial last line of" in text
    reader = csv_rows if suffix == ".csv" else jsonl_rows
    assert [r["instance"] for r in reader(out)] == [1, 2, 3]
    original = tmp_path / f"original{suffix}"
    original.write_text(whole)
    assert without_times(reader(out)) == without_times(reader(original))


def test_rows_come_in_the_same_order_on_two_processes(tmp_path, capsys):
    args = ["random:3x3:4:3,random:2x3:2:1", "--heuristic", "manhattan,wd"]
    assert bench(capsys, *args, "--out", str(tmp_path / "one.csv"))[0] == 0
    assert bench(capsys, *args, "--out", str(tmp_path / "two.csv"), "--jobs", "2", "--oversubscribe")[0] == 0
    one, two = csv_rows(tmp_path / "one.csv"), csv_rows(tmp_path / "two.csv")
    expected = {(f"random:{shape}", i, h) for shape, count in (("3x3:4:3", 4), ("2x3:2:1", 2))
                for i in range(1, count + 1) for h in ("manhattan", "wd")}
    assert len(one) == len(expected) == 12 and {(r["set"], r["instance"], r["heuristic"]) for r in one} == expected
    assert {r["status"] for r in one} == {"solved"}
    assert without_times(one) == without_times(two)


def test_a_run_stopped_by_the_timeout_is_a_limit_row(tmp_path, capsys):
    """Korf's #88 with the Manhattan distance takes some 6 billion nodes: 0.2 s stop it."""
    out = tmp_path / "runs.jsonl"
    status, _, _ = bench(capsys, "korf100", "--ids", "12,88", "--heuristic", "manhattan", "--timeout", "0.2",
                         "--out", str(out))
    rows = jsonl_rows(out)
    assert status == 3 and [r["status"] for r in rows] == ["solved", "limit"]
    assert rows[1]["length"] is None and rows[1]["ratio"] is None and rows[1]["lower_bound"] >= 43


def test_weights_apply_to_weighted_a_star_only(tmp_path, capsys):
    out = tmp_path / "w.csv"
    assert bench(capsys, "random:3x3:3:9", "--method", "astar,idastar", "--weight", "1,2", "--heuristic", "lc",
                 "--out", str(out))[0] == 0
    rows = csv_rows(out)
    combos = [(r["method"], r["weight"]) for r in rows[::3]]
    assert combos == [("astar", 1.0), ("astar", 2.0), ("idastar", None)]  # IDA*'s weight is one column
    exact = {r["instance"]: r["length"] for r in rows if r["method"] == "idastar"}
    for r in rows:
        assert r["length"] >= exact[r["instance"]]
        assert r["length"] <= r["weight"] * exact[r["instance"]] if r["weight"] else True


def test_kt10_is_the_first_ten_of_korf50():
    kt10 = grid.parse_set("kt10")
    assert [i.board for i in kt10.items] == [i.board for i in benchmark_set("korf50")[:10]]
    assert [i.optimum for i in kt10.items] == [i.optimal_length for i in benchmark_set("korf50")[:10]]


def test_random_sets_are_reproducible():
    a, b = grid.parse_set("random:3x5:3:42"), grid.parse_set("random:3x5:3:42")
    assert [i.board for i in a.items] == [i.board for i in b.items] == scramble(3, 5, 3, seed=42)
    assert grid.parse_set("random:3x3:2:1", "blank-first").items[0].board.is_solvable("blank-first")


def test_the_plot_is_drawn(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    status, _, _ = bench(capsys, "random:2x3:3:1", "--heuristic", "manhattan,lc", "--plot", str(tmp_path / "p.png"))
    assert status == 0 and (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_missing_matplotlib_is_said_before_solving(tmp_path, capsys, monkeypatch):
    from npuzzle import stats
    from npuzzle.errors import NPuzzleError

    def missing():
        raise NPuzzleError("plot= needs matplotlib, which is not installed: pip install 'npuzzle[plot]'")

    monkeypatch.setattr(stats, "pyplot", missing)
    status, out, err = bench(capsys, "random:2x3:3:1", "--plot", str(tmp_path / "p.png"))
    assert status == 1 and "pip install 'npuzzle[plot]'" in err and "solved" not in out


@pytest.mark.parametrize(("args", "message"), [
    (["nosuchset"], "unknown set 'nosuchset': use korf100, korf50, kt10"),
    (["random:3x3:5"], "write random:HxW:COUNT:SEED"),
    (["random:3by3:5:1"], "bad shape"),
    (["random:3x3:0:1"], "COUNT must be from 1"),
    (["random:3x3:5:-1"], "SEED '-1' is not a whole number"),
    (["korf100", "--out", "runs.txt"], "must end in .csv or .jsonl"),
    (["korf100", "--heuristic", "lc,nonsense"], "unknown heuristic 'nonsense'"),
    (["korf100", "--heuristic", "lc,,wd"], "has an empty value"),
    (["korf100", "--method", "idastar,dfs"], "unknown method 'dfs'"),
    (["korf100", "--pruning", "parent,best"], "unknown pruning 'best'"),
    (["korf100", "--weight", "0.5"], "a weight is from 1"),
    (["korf100", "--cost", "cheap"], "unknown cost model 'cheap'"),
    (["kt10", "--ids", "11", "--heuristic", "manhattan"], "kt10 has no instance 11"),
    (["korf100", "--heuristic", "pdb:5-5-5", "--goal", "blank-first"],
     "is not built for 4x4 (blank-first goal): npuzzle tables build pdb:5-5-5"),
])
def test_bad_inputs_are_refused_clearly(args, message, capsys, tmp_path, monkeypatch, private_store):
    monkeypatch.chdir(tmp_path)
    status, out, err = bench(capsys, *args)
    assert status == 1 and message in err and "Traceback" not in err + out
    assert "solved" not in out and not (tmp_path / "runs.txt").exists()


def test_an_output_file_of_something_else_is_refused(tmp_path, capsys):
    out = tmp_path / "other.csv"
    out.write_text("a,b\n1,2\n")
    status, _, err = bench(capsys, "random:2x3:1:1", "--out", str(out))
    assert status == 1 and "is not a grid's output: its columns are a,b" in err
    assert out.read_text() == "a,b\n1,2\n"


def test_the_csv_is_read_by_the_csv_module(tmp_path, capsys):
    out = tmp_path / "runs.csv"
    assert bench(capsys, "random:2x3:2:3", "--out", str(out))[0] == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text(), newline="")))
    assert [r["status"] for r in rows] == ["solved", "solved"] and rows[0]["weight"] == ""


def test_ctrl_c_leaves_a_valid_file_that_the_next_run_completes(tmp_path, capsys, monkeypatch):
    out = tmp_path / "runs.jsonl"
    args = ["random:3x2:5:8", "--heuristic", "lc", "--out", str(out)]
    real = grid.run_task
    calls = []

    def interrupted_third(task, on_progress=None):
        calls.append(task)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(task, on_progress)

    monkeypatch.setattr(grid, "run_task", interrupted_third)
    status, _, err = bench(capsys, *args)
    assert status == 130 and "interrupted" in err
    assert [r["instance"] for r in jsonl_rows(out)] == [1, 2]
    status, text, _ = bench(capsys, *args)
    assert status == 0 and "2 already in" in text and "3 to run" in text
    assert [r["instance"] for r in jsonl_rows(out)] == [1, 2, 3, 4, 5]


def test_long_bad_inputs_are_quoted_short(capsys):
    for args in (["x" * 5000], ["random:" + "9" * 5000], ["korf100", "--heuristic", "lc," + "x" * 5000],
                 ["korf100", "--method", "y" * 5000]):
        status, _, err = bench(capsys, *args)
        assert status == 1 and len(err) < 400 and "x" * 41 not in err and "9" * 41 not in err, err[:500]


def test_an_axis_is_passed_to_the_search_by_its_request_field_name():
    """The options of a combination are ``Request`` fields by name (the method's own): a cost
    model becomes a search option by the same path once ``Request`` has a ``cost`` field."""
    combo = {"method": "idastar", "heuristic": "lc", "pruning": "fsm", "weight": None, "cost": "unit"}
    expected = {"method": "idastar", "heuristic": "lc", "pruning": "fsm"}
    if "cost" in grid.request_fields():
        expected["cost"] = "unit"
    assert grid.solve_options(combo) == expected
    assert [a.name for a in grid.AXES][1:] == ["heuristic", "pruning", "weight", "cost"]


def test_a_cost_axis_records_each_runs_cost_and_drops_the_unit_facts(tmp_path, capsys, private_store):
    """``--cost unit,heavy``: each heavy run's cost is the least cost (a Dijkstra over every state
    of 2x3) and its length is not compared with the published unit optimum; Korf's #79 under heavy
    costs carries neither the published optimum nor Korf's count."""
    from naive import dijkstra_costs

    from npuzzle import Board, solve

    out = tmp_path / "costs.csv"
    solve(Board(2, 3, (4, 1, 2, 5, 0, 3)), cost="heavy", heuristic="pdb:3-2")  # a cost-aware table saved: auto's
    status, text, err = bench(capsys, "random:2x3:4:5", "--method", "idastar,astar", "--cost", "unit,heavy",
                              "--out", str(out))
    assert status == 0, text + err
    boards = scramble(2, 3, 4, seed=5)
    least = dijkstra_costs(2, 3, "standard", "heavy")
    steps = bfs_distances(2, 3)
    rows = csv_rows(out)
    assert sorted({(r["method"], r["cost"]) for r in rows}) == [("astar", "heavy"), ("astar", "unit"),
                                                                 ("idastar", "heavy"), ("idastar", "unit")]
    for r in rows:
        tiles = boards[r["instance"] - 1].tiles
        expected = least[tiles] if r["cost"] == "heavy" else steps[tiles]
        assert r["status"] == "solved" and r["optimal"] is True and r["cost_total"] == expected, r
    korf = tmp_path / "korf.jsonl"
    status, text, _ = bench(capsys, "korf100", "--ids", "79", "--cost", "heavy", "--heuristic", "manhattan",
                            "--out", str(korf), "--timeout", "30")
    (row,) = jsonl_rows(korf)
    assert row["published_optimum"] is None and row["korf_nodes"] is None and row["published_nodes"] is None
    assert row["status"] != "solved" or (row["cost_total"] or 0) >= (row["length"] or 0)
