"""A grid's output file has a sidecar ``FILE.meta.json`` naming where its rows came from (versions,
commit, CPU, host, date, command line, limits, the sets with a hash of their positions), valid
against the schema; a resumed run made otherwise is refused unless ``--allow-mixed-runs``."""

from __future__ import annotations

import hashlib
import json
import platform
import socket
from pathlib import Path

import numba
import numpy
import pytest
from records import valid
from test_grid import bench

from npuzzle import __version__, grid, provenance
from npuzzle.instances import scramble


def meta_of(path: Path) -> dict[str, object]:
    return valid(json.loads(Path(f"{path}.meta.json").read_text(encoding="utf-8")))


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_every_output_file_has_its_provenance(tmp_path, capsys, suffix):
    out = tmp_path / f"runs{suffix}"
    args = ["random:2x3:3:1,random:3x2:2:4", "--ids", "1-2", "--heuristic", "lc", "--timeout", "30", "--out", str(out)]
    assert bench(capsys, *args)[0] == 0
    meta = meta_of(out)
    (first,) = meta["commands"]  # type: ignore[misc]
    assert meta["npuzzle"] == first["npuzzle"] == __version__
    assert first["python"] == platform.python_version() and first["numba"] == numba.__version__
    assert first["numpy"] == numpy.__version__ and first["host"] == socket.gethostname() and first["cpu"]
    assert first["command"] == ["npuzzle", "bench", *args] and first["date"].endswith("+00:00")
    assert meta["limits"] == {"timeout": 30.0} and meta["axes"]["heuristic"] == ["lc"]  # type: ignore[index]
    # the whole sets, whatever --ids picked: their hash is that of the positions scramble draws
    for entry, (h, w, count, seed) in zip(meta["sets"], [(2, 3, 3, 1), (3, 2, 2, 4)], strict=True):  # type: ignore[call-overload]
        lines = "".join(f"{n}:standard:{','.join(map(str, b.tiles))}\n"
                        for n, b in enumerate(scramble(h, w, count, seed=seed), 1))
        assert entry == {"name": f"random:{h}x{w}:{count}:{seed}", "goal": "standard", "count": count,
                         "sha256": hashlib.sha256(lines.encode()).hexdigest()}


def test_the_commit_is_named_from_a_checkout_only(monkeypatch, tmp_path):
    commit = provenance.git_commit()
    if (Path(provenance.__file__).resolve().parents[2] / ".git").exists():
        assert commit is not None and len(commit.split("+")[0]) == 40
    monkeypatch.setattr(provenance, "__file__", str(tmp_path / "site-packages" / "npuzzle" / "provenance.py"))
    assert provenance.git_commit() is None
    assert "commit" not in provenance.environment(["npuzzle"], __version__)


def test_no_host_leaves_the_host_name_out(tmp_path, capsys):
    out = tmp_path / "runs.csv"
    assert bench(capsys, "random:2x3:2:1", "--no-host", "--out", str(out))[0] == 0
    assert "host" not in meta_of(out)["commands"][0]  # type: ignore[index]
    assert socket.gethostname() not in Path(f"{out}.meta.json").read_text()


def test_a_resumed_run_made_otherwise_is_refused(tmp_path, capsys):
    out = tmp_path / "runs.csv"
    base = ["random:2x3:3:1", "--heuristic", "lc", "--out", str(out), "--timeout", "20"]
    assert bench(capsys, *base)[0] == 0
    rows = out.read_text()
    # the same grid, one more value: resumed, its command added
    status, text, _ = bench(capsys, "random:2x3:3:1", "--heuristic", "lc,wd", "--out", str(out), "--timeout", "20")
    assert status == 0 and "3 already in" in text
    meta = meta_of(out)
    assert len(meta["commands"]) == 2 and meta["axes"]["heuristic"] == ["lc", "wd"]  # type: ignore[arg-type,index]
    rows = out.read_text()
    # another time limit: refused, nothing written
    status, _, err = bench(capsys, *base[:-1], "5")
    assert status == 1 and "limits timeout 20, now timeout 5" in err and "--allow-mixed-runs" in err
    assert out.read_text() == rows and len(meta_of(out)["commands"]) == 2  # type: ignore[arg-type]
    # another version
    meta = json.loads(Path(f"{out}.meta.json").read_text())
    Path(f"{out}.meta.json").write_text(json.dumps({**meta, "npuzzle": "0.0.1"}))
    status, _, err = bench(capsys, *base)
    assert status == 1 and "npuzzle version 0.0.1, now " + __version__ in err
    # allowed: added, and the entry says what differed
    assert bench(capsys, *base, "--allow-mixed-runs")[0] == 0
    last = meta_of(out)["commands"][-1]  # type: ignore[index]
    assert any("npuzzle version 0.0.1" in m for m in last["mixed"])


def test_a_set_holding_other_positions_under_its_name_is_refused(tmp_path, capsys):
    positions = tmp_path / "set.txt"
    positions.write_text("1 2 3/4 0 5\n1 2 3/0 4 5\n")
    out = tmp_path / "runs.jsonl"
    assert bench(capsys, str(positions), "--out", str(out))[0] == 0
    positions.write_text("1 2 3/4 0 5\n0 2 3/1 4 5\n")
    status, _, err = bench(capsys, str(positions), "--out", str(out))
    assert status == 1 and "holds other positions" in err


def test_a_file_without_a_sidecar_is_refused_unless_allowed(tmp_path, capsys):
    out = tmp_path / "runs.csv"
    assert bench(capsys, "random:2x3:2:1", "--out", str(out))[0] == 0
    Path(f"{out}.meta.json").unlink()
    status, _, err = bench(capsys, "random:2x3:2:1", "--out", str(out))
    assert status == 1 and "no .meta.json sidecar" in err
    assert bench(capsys, "random:2x3:2:1", "--out", str(out), "--allow-mixed-runs")[0] == 0
    assert "mixed" in meta_of(out)["commands"][-1]  # type: ignore[index]


def test_an_empty_file_takes_a_new_sidecar(tmp_path):
    """A file with no row yet: any earlier sidecar is replaced, nothing is refused."""
    out = tmp_path / "runs.csv"
    out.write_text("")
    new = {"npuzzle": "x", "commands": [{}], "sets": [], "axes": {}}
    assert grid.resumed_provenance(grid.Results(str(out)), new, False) is new
