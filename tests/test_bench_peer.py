"""``bench/peer.py``: another solver's command and npuzzle's, on one instance file, in alternating
rounds, each run's CPU, memory and load reported and its output kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

SCRIPT = REPO / "bench" / "peer.py"
#: A stand-in for another solver: it reads the instances on standard input and prints, for each,
#: the numbers it read (so the test sees what it was sent) after some CPU work.
FAKE = "import sys; sum(range(2_000_000)); [print(len(l.split(','))) for l in sys.stdin if l.strip()]"


def run(tmp_path: Path, peer: str, *extra: str) -> subprocess.CompletedProcess[str]:
    instances = tmp_path / "three.txt"
    instances.write_text("8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 7 0 8\n0 1 2 3 4 5 6 7 8\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.run([sys.executable, str(SCRIPT), "--instances", str(instances), "--out", str(tmp_path / "runs"),
                           "--peer", peer, "--npuzzle", "solve --file {instances} --json --shape 3x3 --method idastar",
                           *extra], capture_output=True, text=True, env=env, timeout=300)


def test_the_two_solvers_alternate_and_their_outputs_are_kept(tmp_path: Path) -> None:
    done = run(tmp_path, f"{sys.executable} -c \"{FAKE}\"", "--rounds", "2", "--format", "commas", "--stdin")
    assert done.returncode == 0, done.stderr
    rows = [line.split("\t") for line in done.stdout.splitlines()[1:] if not line.startswith("#")]
    assert [(r[0], r[1]) for r in rows] == [("1", "other"), ("1", "npuzzle"), ("2", "other"), ("2", "npuzzle")]
    assert all(float(r[2]) > 0 and float(r[4]) > 0 and r[6] == "0" for r in rows)
    summary = done.stdout.splitlines()[-1]
    least = {side: min(r[2] for r in rows if r[1] == side) for side in ("other", "npuzzle")}
    assert f"least CPU: other {least['other']} s, npuzzle {least['npuzzle']} s; ratio" in summary
    ratio = float(summary.split("ratio npuzzle/other ")[1].split(";")[0])
    assert abs(ratio - float(least["npuzzle"]) / float(least["other"])) < 0.01 * ratio + 0.01
    assert "2 rounds, load" in summary
    out = tmp_path / "runs"
    assert (out / "other_r2.out").read_text() == "9\n9\n9\n"  # each line sent with commas: 9 numbers
    lengths = [json.loads(line)["length"] for line in (out / "npuzzle_r1.out").read_text().splitlines()]
    assert lengths == [31, 1, 22]


def test_a_failing_run_is_reported(tmp_path: Path) -> None:
    done = run(tmp_path, "false", "--rounds", "1")
    assert done.returncode == 1 and "other than 0" in done.stderr
