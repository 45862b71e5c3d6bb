"""The analysis of a solve (``npuzzle.analyze``): every distance against breadth-first search
(tests/naive.py) on sampled solves of 3x3 and non-square boards, and against IDA* on 4x4 samples;
the mistakes and better moves against the same references; the count of optimal solutions against
paths counted in the BFS table; the move notation with repeat counts and both letter conventions;
the worked example of docs/howto/analyze.md; the command line and the HTTP API."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import pytest
from naive import bfs_distances
from records import record as valid_record

from npuzzle import Board, IllegalMoveError, InvalidOptionError, analyze, solve
from npuzzle.board import Direction
from npuzzle.notation import format_letters, parse_moves
from npuzzle.present.analysis import analysis_record, analysis_text

#: The how-to whose worked example is checked by hand (and compared with the command's output here).
HOWTO = Path(__file__).resolve().parent.parent / "docs" / "howto" / "analyze.md"


@pytest.fixture(scope="module", autouse=True)
def own_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A table store of this module's own: the distance tables an analysis makes and saves (3x3,
    2x3, ...) would otherwise change how later tests' solves are answered (from a table)."""
    from conftest import forget_table_caches

    from npuzzle.search import oracle as analysis

    with pytest.MonkeyPatch.context() as mp:
        path = tmp_path_factory.mktemp("analysis-store")
        mp.setenv("NPUZZLE_DATA_DIR", str(path))
        forget_table_caches()
        analysis._MEMORY.clear()
        yield path
        forget_table_caches()
        analysis._MEMORY.clear()


@cache
def distances(height: int, width: int) -> dict[tuple[int, ...], int]:
    return bfs_distances(height, width)


def wandering_solve(board: Board, rng: random.Random, detours: int) -> list[int]:
    """A solve with mistakes: random moves now and then, each time back on an optimal path (read
    off the BFS reference), until the goal."""
    table = distances(board.height, board.width)
    moves: list[int] = []
    while not board.is_goal():
        tiles = board.movable_tiles()
        if detours and rng.random() < 0.3:
            detours -= 1
            t = rng.choice(tiles)
        else:
            t = min(tiles, key=lambda t: table[board.move(t).tiles])
        moves.append(t)
        board = board.move(t)
    return moves


def check_against(table: dict[tuple[int, ...], int], board: Board, moves: list[int], analysis) -> None:
    """Every distance, mistake and better move of ``analysis`` as the reference ``table`` says."""
    positions = [board]
    for t in moves:
        positions.append(positions[-1].move(t))
    want = [table[p.tiles] for p in positions]
    assert list(analysis.distances) == want
    assert analysis.exact and analysis.length == len(moves) and analysis.solved == positions[-1].is_goal()
    mistakes = [k for k in range(len(moves)) if want[k + 1] >= want[k]]
    assert [m.index for m in analysis.mistakes] == mistakes
    for m in analysis.mistakes:
        p = positions[m.index]
        better = {p.letters([t]) for t in p.movable_tiles() if table[p.move(t).tiles] < want[m.index]}
        assert set(m.better) == better and m.tile == moves[m.index]
        assert (m.distance_before, m.distance_after) == (want[m.index], want[m.index + 1])
    assert len(analysis.optimal) == want[analysis.optimal_from]
    assert positions[analysis.optimal_from].apply(analysis.optimal).is_goal()


@pytest.mark.parametrize("shape", [(3, 3), (2, 3), (3, 2), (2, 4), (4, 2)])
def test_every_distance_and_mistake_matches_breadth_first_search(shape):
    h, w = shape
    table = distances(h, w)
    rng = random.Random(h * 10 + w)
    states = sorted(table)
    for _ in range(8 if shape == (3, 3) else 4):
        board = Board(h, w, rng.choice(states))
        moves = wandering_solve(board, rng, detours=rng.randrange(0, 12))
        a = analyze(board, moves)
        check_against(table, board, moves, a)
        assert a.method == "bfs-table"
        valid_record(json.dumps(analysis_record(a)))


def test_a_solve_that_stops_short_and_steps_from_the_goal():
    board = Board(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8))
    a = analyze(board, "L D U")  # to the goal, away from it, back
    assert a.distances == (1, 0, 1, 0) and a.solved
    assert [(m.index, m.better) for m in a.mistakes] == [(1, ())]  # no move from the goal is better
    b = analyze(board, "R")
    assert not b.solved and b.distances == (1, 2) and b.mistakes[0].better == ("L",)


def test_optimal_from_any_step():
    table = distances(3, 3)
    board = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))
    moves = wandering_solve(board, random.Random(5), detours=6)
    for k in (0, 3, len(moves) // 2, len(moves)):
        a = analyze(board, moves, optimal_from=k)
        check_against(table, board, moves, a)
    with pytest.raises(InvalidOptionError, match="optimal_from"):
        analyze(board, moves, optimal_from=len(moves) + 1)


def count_optimal(table: dict[tuple[int, ...], int], board: Board) -> tuple[int, list[str]]:
    """Every optimal path of ``board``, enumerated through the reference table."""
    paths: list[str] = []

    def walk(b: Board, letters: str) -> None:
        d = table[b.tiles]
        if d == 0:
            paths.append(letters)
        for t in b.movable_tiles():
            c = b.move(t)
            if table[c.tiles] == d - 1:
                walk(c, letters + b.letters([t]))

    walk(board, "")
    return len(paths), paths


@pytest.mark.parametrize("tiles", [(8, 6, 7, 2, 5, 4, 3, 0, 1), (1, 2, 3, 4, 0, 6, 7, 5, 8),
                                   (4, 1, 2, 7, 0, 3, 8, 5, 6)])
def test_all_optimal_solutions_are_counted_and_listed(tiles):
    table = distances(3, 3)
    board = Board(3, 3, tiles)
    count, paths = count_optimal(table, board)
    a = analyze(board, "", all_optimal=5)
    assert a.all_optimal is not None and a.all_optimal.count == count
    assert len(a.all_optimal.solutions) == min(5, count) and set(a.all_optimal.solutions) <= set(paths)
    assert len(set(a.all_optimal.solutions)) == len(a.all_optimal.solutions)


def test_4x4_and_4x3_against_idastar():
    """Distances found by bounded IDA* iterations equal full optimal solves of every position."""
    from npuzzle.search import oracle as analysis

    analysis._MEMORY.clear()  # nothing remembered from other tests: every distance searched
    rng = random.Random(7)
    for shape, walk in (((4, 4), 36), ((4, 3), 30), ((3, 4), 30)):
        h, w = shape
        board = Board.goal(h, w)
        for _ in range(walk):
            board = board.move(rng.choice(board.movable_tiles()))
        moves = list(solve(board, method="realtime").moves)
        moves[2:2] = [board.apply(moves[:2]).movable_tiles()[0]] * 2  # a detour and back: two steps off
        a = analyze(board, moves)
        positions = [board]
        for t in moves:
            positions.append(positions[-1].move(t))
        reference = {p.tiles: solve(p, method="idastar", heuristic="lc").length for p in positions}
        for m in a.mistakes:
            p = positions[m.index]
            for t in p.movable_tiles():
                reference.setdefault(p.move(t).tiles, solve(p.move(t), method="idastar", heuristic="lc").length)
        check_against(reference, board, moves, a)
        assert a.method == "idastar"
        assert a.mistakes, "the detour is a mistake"


@pytest.mark.parametrize("korf_id", [79, 12])
def test_4x4_distances_start_at_korfs_published_optima(korf_id, private_store):
    """A 4x4 analysis's first distance against Korf's published optimum (not IDA* against IDA*),
    on two of his 100 that IDA* solves in moments; each next position is one nearer or farther."""
    from npuzzle.instances import benchmark_set
    from npuzzle.search.realtime import realtime_solve

    (inst,) = benchmark_set("korf100", ids=[korf_id])
    moves = realtime_solve(inst.board, goal=inst.goal).moves[:3]
    a = analyze(inst.board, moves, goal=inst.goal)
    distances = list(a.distances)
    assert distances[0] == inst.optimal_length and len(distances) == 4
    assert all(abs(x - y) == 1 for x, y in zip(distances, distances[1:], strict=False))


def test_a_4x4_analysis_builds_the_small_pattern_databases_once(private_store):
    """With no pattern database built, a 4x4 analysis makes the small 5-5-5 ones (kept in the
    store, as solves keep the walking tables) and reads its distances with them; they stay
    optimal (the distance after each move equals IDA*'s with another bound)."""
    from npuzzle.heuristics import pattern_db
    from npuzzle.search import oracle as analysis

    analysis._MEMORY.clear()
    assert pattern_db.usable(4, 4, "standard") == []
    board = Board(4, 4, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 11, 13, 14, 15, 12))
    moves = [15, 14, 14, 15, 11, 12]
    a = analyze(board, moves)
    assert pattern_db.usable(4, 4, "standard") == ["5-5-5"] and a.method == "idastar"
    positions = [board]
    for t in moves:
        positions.append(positions[-1].move(t))
    assert list(a.distances) == [solve(p, method="idastar", heuristic="lc").length for p in positions]


def test_all_optimal_on_4x4_against_breadth_first_paths():
    board = Board.goal(4, 4).apply("RRDDLURDL")  # near the goal: count by a small BFS of the neighbourhood
    a = analyze(board, "", all_optimal=1000)
    d = a.start_distance
    ball: dict[tuple[int, ...], int] = {Board.goal(4, 4).tiles: 0}
    frontier = [Board.goal(4, 4)]
    for depth in range(1, d + 1):
        nxt = []
        for b in frontier:
            for t in b.movable_tiles():
                c = b.move(t)
                if c.tiles not in ball:
                    ball[c.tiles] = depth
                    nxt.append(c)
        frontier = nxt
    count, paths = count_optimal(_Defaulting(ball, d + 1), board)
    assert a.all_optimal is not None and a.all_optimal.count == count
    assert sorted(a.all_optimal.solutions) == sorted(paths)


class _Defaulting(dict):
    """A distance table of a ball around the goal: positions outside are farther than its radius."""

    def __init__(self, ball: dict[tuple[int, ...], int], beyond: int) -> None:
        super().__init__(ball)
        self.beyond = beyond

    def __missing__(self, key: tuple[int, ...]) -> int:
        return self.beyond


def test_goal_boards_and_the_blank_first_goal():
    table = distances(3, 3)
    rng = random.Random(11)
    goal = Board(3, 3, (1, 2, 3, 8, 0, 4, 7, 6, 5))  # blank in the middle: a relabelled table
    for target in (goal, Board(3, 3, (0, 1, 2, 3, 4, 5, 6, 7, 8)), Board(3, 3, (8, 7, 6, 5, 4, 3, 2, 1, 0))):
        start = target
        for _ in range(25):
            start = start.move(rng.choice(start.movable_tiles()))
        moves = list(solve(start, goal=target).moves)
        a = analyze(start, moves + [moves[-1]] * 2, goal=target)  # one step past the goal and back
        assert a.start_distance == len(moves) and a.solved and a.distances[-3:] == (0, 1, 0)
        assert [m.index for m in a.mistakes] == [len(moves)]
    start = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))
    assert analyze(start, "").start_distance == table[start.tiles] == 31


def test_larger_boards_get_lower_bounds_and_a_near_optimal_solution():
    board = Board.goal(5, 5)
    rng = random.Random(3)
    for _ in range(30):
        board = board.move(rng.choice(board.movable_tiles()))
    moves = solve(board, method="realtime").moves
    a = analyze(board, moves)
    assert not a.exact and a.near_optimal is not None
    assert all(d <= len(moves) - k for k, d in enumerate(a.distances))  # bounds, never above what remains
    assert all(lo <= up for lo, up in zip(a.distances, a.upper, strict=True) if up >= 0)
    assert all(a.distances[m.index + 1] >= a.upper[m.index] and m.proof for m in a.mistakes)  # only proven ones
    assert a.start_distance <= a.near_optimal <= len(moves) and board.apply(a.optimal).is_goal()
    valid_record(json.dumps(analysis_record(a)))
    assert "not proven optimal" in analysis_text(a) and "proven bounds" in analysis_text(a)
    with pytest.raises(InvalidOptionError, match="at most 16 cells"):
        analyze(board, moves, all_optimal=3)


def test_illegal_moves_are_named_by_number():
    board = Board(3, 3, (1, 2, 3, 4, 5, 6, 0, 7, 8))
    with pytest.raises(IllegalMoveError, match=r"move 3 \(R\)"):
        analyze(board, "LRR")
    with pytest.raises(IllegalMoveError, match=r"move 2 \(1\): tile 1 is not next to the blank"):
        analyze(board, [7, 1])


# -- notation ------------------------------------------------------------------------------------


def test_repeat_counts_and_conventions():
    letters = lambda moves: "".join(d.value for d in moves)  # noqa: E731
    assert letters(parse_moves("URDL2UR2")) == "URDLLURR"
    assert letters(parse_moves("U3 l2\nR")) == letters(parse_moves("u 3 L L r")) == "UUULLR"
    assert letters(parse_moves("U3R", convention="blank")) == "DDDL"
    assert parse_moves("D3", Board.goal(4, 4)) == [Direction.D] * 3  # capital D with a count: letters
    assert parse_moves("d3", Board.goal(4, 4)) == [13, 3]  # Knuth's lower-case hex, as before
    assert parse_moves("FBD3", Board.goal(4, 4)) == [15, 11, 13, 3]
    for bad in ("U0", "U" + "9" * 30, "UX2"):
        with pytest.raises(IllegalMoveError):
            parse_moves(bad)
    rng = random.Random(2)
    for _ in range(50):
        text = "".join(rng.choice("UDLR") for _ in range(rng.randrange(0, 30)))
        for convention in ("tile", "blank"):
            written = format_letters(text, convention)
            assert letters(parse_moves(written, convention=convention)) == text
            assert len(written) <= len(text) + 1


def test_the_blank_convention_is_the_opposite_letter():
    board = Board(3, 3, (1, 2, 3, 4, 5, 6, 0, 7, 8))
    tile, blank = analyze(board, "LL"), analyze(board, "RR", convention="blank")
    assert tile.moves == blank.moves == (7, 8) and blank.letters == "LL"
    assert analyze(board, ["R", "R"], convention="blank").moves == (7, 8)


# -- the how-to's worked example, the command line, the web API ----------------------------------


def howto_example() -> tuple[str, str, str]:
    text = HOWTO.read_text()
    section = text.split("## A worked example", 1)[1]
    command = re.search(r"\$ npuzzle analyze \"([^\"]+)\" (\S+)\n", section)
    assert command, "the how-to shows an npuzzle analyze command"
    output = section[command.end():].split("```", 1)[0]
    return command.group(1), command.group(2), output


def test_the_howto_example_is_what_the_command_prints():
    position, moves, shown = howto_example()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-m", "npuzzle", "analyze", position, moves], capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    printed = [line for line in out.stdout.splitlines() if not line.startswith("Analysed in")]
    assert [line for line in shown.strip().splitlines() if not line.startswith("Analysed in")] == printed
    board = Board(3, 3, tuple(int(x) for x in position.replace("/", " ").split()))
    check_against(distances(3, 3), board, list(board.tiles_for(parse_moves(moves))), analyze(position, moves))


def test_the_command_line_json_and_errors():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    run = lambda *argv: subprocess.run([sys.executable, "-m", "npuzzle", "analyze", *argv],  # noqa: E731
                                       capture_output=True, text=True, env=env, timeout=300)
    out = run("8 6 7/2 5 4/3 0 1", "UUR", "--convention", "blank", "--all-optimal", "2", "--json")
    assert out.returncode == 0, out.stderr
    record = valid_record(out.stdout)
    assert record["record"] == "analysis" and record["letters"] == "DDL" and record["all_optimal"]["count"] > 0
    bad = run("1 2 3/4 5 6/0 7 8", "LLL")
    assert bad.returncode == 1 and "move 3 (L)" in bad.stderr and "Traceback" not in bad.stderr
    assert run("1 2 3/4 5 6/0 7 8", "L", "--all-optimal", "-1").returncode == 2


@pytest.mark.slow
def test_the_web_api_answers_twenty_analyses_at_once():
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    from web_server import running_server

    rng = random.Random(4)
    table = distances(3, 3)
    states = sorted(table)
    cases = []
    for _ in range(20):
        board = Board(3, 3, rng.choice(states))
        cases.append((board, wandering_solve(board, rng, detours=5)))
    with running_server("--workers", "2", "--time-limit", "60") as server:
        def post(case):
            board, moves = case
            return server.request("POST", "/api/analyze", {"position": " ".join(map(str, board.tiles)),
                                                           "moves": format_letters(board.letters(moves))})

        with ThreadPoolExecutor(20) as pool:
            answers = list(pool.map(post, cases))
        for (board, moves), (status, record) in zip(cases, answers, strict=True):
            assert status == 200, record
            assert record["distances"] == [table[p] for p in _positions(board, moves)]
        untimed = lambda r: {k: v for k, v in r.items() if not k.endswith("_seconds")}  # noqa: E731
        assert untimed(answers[0][1]) == untimed(analysis_record(analyze(*cases[0])))  # the command line's record
        status, record = server.request("POST", "/api/analyze", {"position": "1 2 3/4 5 6/0 7 8", "moves": "LLL"})
        assert status == 400 and "move 3 (L)" in record["reason"]
        status, record = server.request("POST", "/api/analyze", {"position": "1 2 3/4 5 6/0 7 8", "moves": "L",
                                                                 "all_optimal": 1000})
        assert status == 400 and record["status"] == "invalid"
        status, record = server.request("POST", "/api/analyze", {"position": "1 2 3/4 5 6/8 7 0", "moves": ""})
        assert status == 422 and record["status"] == "unsolvable"


def _positions(board: Board, moves: list[int]) -> list[tuple[int, ...]]:
    out = [board.tiles]
    for t in moves:
        board = board.move(t)
        out.append(board.tiles)
    return out


def test_the_help_says_what_a_letter_names():
    from npuzzle.cli import build_parser

    parser = build_parser("analyze")
    sub = next(a for a in parser._actions if a.dest == "command").choices["analyze"]  # type: ignore[union-attr]
    text = sub.format_help()
    assert "direction the pushed TILE" in text and "direction the BLANK moves" in text and "URDL2UR2" in text
