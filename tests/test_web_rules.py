"""The page's rules in JavaScript agree with npuzzle's own: ``tests/js/rules.json`` is written
from npuzzle (goal boards, solvability, the tiles that letters push, where a letter finds no tile,
the compact and blank-convention forms of move letters and their line-move count, for a few
hundred boards of 2x3, 3x2, 3x3, 4x4, 3x5 and 5x5 under both goal conventions), and ``node --test``
checks the page's pure modules (``npuzzle/web/static/*.mjs``) against it. The fixture kept in the
repository must equal the one npuzzle writes now (rewrite it with ``python tests/test_web_rules.py``).
Without node the node tests are skipped, except under CI (``CI=true``, or ``NPUZZLE_REQUIRE_NODE=1``
as ``.ci/run`` sets), where they fail."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from npuzzle import Board
from npuzzle.errors import IllegalMoveError
from npuzzle.notation import format_letters, parse_moves

HERE = Path(__file__).parent / "js"
FIXTURE = HERE / "rules.json"
SHAPES = ((2, 3), (3, 2), (3, 3), (4, 4), (3, 5), (5, 5))
GOALS = ("standard", "blank-first")
#: Boards of each shape and goal (half of random permutations are unsolvable).
PER_SHAPE = 30


def _case(board: Board, goal: str, rng: random.Random) -> dict[str, Any]:
    """One board's facts, each from npuzzle: solvable; letters drawn at random and where the first
    without a tile to slide is, the tiles pushed before it and the board after; a legal walk in
    compact form, in the blank's convention, and its line moves."""
    letters = "".join(rng.choice("UDLR") for _ in range(12))
    pushed: list[int] = []
    stopped, after = -1, board
    for i, letter in enumerate(letters):
        try:
            tile = after.tile_in_direction(letter)
        except IllegalMoveError:
            stopped = i
            break
        pushed.append(tile)
        after = after.move(tile)
    walk, here = "", board
    while len(walk) < 24:
        letter = rng.choice("UDLR" if rng.random() < 0.5 or not walk else walk[-1] * 3 + "UDLR")
        try:
            here = here.push(letter)
        except IllegalMoveError:
            continue
        walk += letter
    compact = format_letters(walk)
    assert "".join(d.value for d in parse_moves(compact)) == walk
    return {"tiles": list(board.tiles), "solvable": board.is_solvable(goal),
            "letters": letters, "stopped": stopped, "pushed": pushed, "after": list(after.tiles),
            "walk": walk, "walk_tiles": list(board.tiles_for(walk)), "walk_end": list(here.tiles),
            "compact": compact, "blank": format_letters(walk, "blank"),
            "line_moves": len(re.sub(r"\d", "", compact))}


def fixture() -> dict[str, Any]:
    """The fixture, drawn with a fixed seed: the same every time npuzzle's rules are the same."""
    rng = random.Random(20261128)
    out: dict[str, Any] = {"goals": [], "boards": []}
    for h, w in SHAPES:
        for goal in GOALS:
            out["goals"].append({"h": h, "w": w, "goal": goal, "tiles": list(Board.goal(h, w, goal).tiles)})
            for _ in range(PER_SHAPE):
                tiles = list(range(h * w))
                rng.shuffle(tiles)
                out["boards"].append({"h": h, "w": w, "goal": goal, **_case(Board(h, w, tuple(tiles)), goal, rng)})
    return out


def _text(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":")).replace('},{"h"', '},\n{"h"') + "\n"


def test_the_fixture_is_what_npuzzle_writes_now():
    assert FIXTURE.read_text() == _text(fixture()), "rewrite it: python tests/test_web_rules.py"
    boards = fixture()["boards"]
    assert len(boards) == len(SHAPES) * len(GOALS) * PER_SHAPE
    solvable = sum(b["solvable"] for b in boards)
    assert 0.3 * len(boards) < solvable < 0.7 * len(boards)  # both kinds, for every check
    assert any(b["stopped"] >= 0 for b in boards) and any(b["stopped"] < 0 for b in boards)


def test_node_checks_the_pages_pure_modules_against_the_fixture():
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI", "").lower() == "true" or os.environ.get("NPUZZLE_REQUIRE_NODE") == "1":
            pytest.fail("node is not installed: CI must run the page's JavaScript tests (node --test)")
        pytest.skip("node is not installed: the page's JavaScript tests need node 18 or newer")
    files = sorted(str(p) for p in HERE.glob("*.test.mjs"))
    assert files
    result = subprocess.run([node, "--test", *files], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert re.search(r"^# fail 0$", result.stdout, re.M) and not re.search(r"^# pass 0$", result.stdout, re.M)


if __name__ == "__main__":
    FIXTURE.write_text(_text(fixture()))
    print(f"wrote {FIXTURE}")
