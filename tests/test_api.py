"""The Python API of issue 17: ``npuzzle.solve``'s signature and shortcuts, ``lower_bound``,
``parse``/``format``, a short ``Solution`` repr, ``boards()``, the notebook views, custom goal
boards (solved by relabelling against the standard goal) and the CLI's ``--steps``,
``--goal-board`` and ``--plot``."""

from __future__ import annotations

import inspect
import random
import re
import sys
import xml.etree.ElementTree as ET
from collections import deque

import pytest
from conftest import without_notice
from naive import blank_neighbours
from records import record as valid_record

import npuzzle
from npuzzle import Board, Limit, lower_bound, parse, solve
from npuzzle.cli import main
from npuzzle.errors import InvalidBoardError, InvalidOptionError, MissingTableError, UnsolvableError
from npuzzle.heuristics.registry import evaluate
from npuzzle.search.relabel import frame_for

HARD_3X3 = "8 6 7/2 5 4/3 0 1"  # 31 moves


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# -- the signature and its shortcuts -------------------------------------------------------------


def test_solve_has_its_real_keyword_only_signature():
    params = inspect.signature(npuzzle.solve).parameters
    assert list(params)[0] == "board"
    expected = {"method": "auto", "heuristic": "auto", "goal": "standard", "timeout": None, "max_nodes": None,
                "max_memory": None, "weight": 1.0, "pruning": "auto", "realtime_method": "greedy", "limit": None,
                "on_iteration": None, "shape": None, "on_progress": None, "jobs": 1, "scheduler": None, "budget": None}
    named = {name: p for name, p in params.items() if name not in ("board", "options")}
    assert {name: p.default for name, p in named.items()} == expected
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in named.values())
    # Any other option of search.Request by its name (the recipe for a new option, docs/architecture.md).
    assert params["options"].kind is inspect.Parameter.VAR_KEYWORD
    korf = solve("8 6 7/2 5 4/3 0 1", method="idastar", heuristic="manhattan")
    knuth = solve("8 6 7/2 5 4/3 0 1", method="idastar", heuristic="manhattan", order="knuth0")
    assert korf.length == knuth.length == 31 and korf.stats.generated != knuth.stats.generated
    with pytest.raises(TypeError, match="unknown option colour="):
        solve("8 6 7/2 5 4/3 0 1", colour="red")


def test_solve_takes_a_position_string_and_a_shape():
    by_text = solve("1 2 3 4 0 5", shape="2x3", method="idastar", heuristic="lc")
    by_board = solve(Board(2, 3, (1, 2, 3, 4, 0, 5)), method="idastar", heuristic="lc")
    assert by_text.board == by_board.board and by_text.moves == by_board.moves == (5,)
    with pytest.raises(InvalidBoardError, match="cannot tell the shape"):
        solve("1 2 3 4 0 5")


def test_timeout_and_node_shortcuts_stop_a_search():
    stopped = solve(HARD_3X3, method="idastar", heuristic="manhattan", max_nodes=50)
    assert stopped.status == "node-limit" and not stopped.solved and stopped.moves == ()
    assert 21 <= stopped.lower_bound <= 31
    old_form = solve(parse(HARD_3X3), method="idastar", heuristic="manhattan", limit=Limit(max_nodes=50))
    assert old_form.status == "node-limit" and old_form.lower_bound == stopped.lower_bound
    # a shortcut overrides the same field of limit, and keeps the others
    both = solve(HARD_3X3, method="idastar", heuristic="manhattan", limit=Limit(max_nodes=50, timeout=60),
                 max_nodes=10**9)
    assert both.solved and both.length == 31
    assert solve(HARD_3X3, timeout=60, max_memory=1 << 30, method="astar", heuristic="lc").length == 31


def test_bad_shortcut_values_are_refused():
    with pytest.raises(ValueError, match="timeout=0: give a finite number"):
        solve(HARD_3X3, timeout=0)


def test_lower_bound_names_the_heuristic_as_solve_does():
    b = parse(HARD_3X3)
    for name in ("manhattan", "lc", "wd", "id", "id+wd"):
        assert lower_bound(b, name) == evaluate(b, "standard", name)
    assert lower_bound(HARD_3X3) == b.manhattan() == 21
    assert lower_bound(b, "lc", goal="blank-first") == evaluate(b, "blank-first", "lc")
    assert lower_bound(b, "auto") <= 31
    with pytest.raises(MissingTableError, match="tables build"):
        lower_bound(b, "pdb:2-6")


def test_lower_bound_of_a_built_pattern_database():
    from npuzzle.heuristics import pattern_db

    pattern_db.build("4-4", 3, 3, "standard", progress=False)
    b = parse(HARD_3X3)
    value = lower_bound(b, "pdb:4-4")
    assert value == evaluate(b, "standard", "pdb:4-4") and 21 <= value <= 31


def test_parse_and_format_round_trip():
    rng = random.Random(17)
    for h, w in [(2, 2), (3, 3), (2, 3), (3, 2), (4, 3), (3, 5), (4, 4)]:
        tiles = list(range(h * w))
        rng.shuffle(tiles)
        b = Board(h, w, tuple(tiles))
        for notation in ("rows", "grid"):
            assert parse(npuzzle.format(b, notation)) == b
        assert parse(npuzzle.format(b, "list"), shape=(h, w)) == b
        assert parse(npuzzle.format(b, "list"), shape=f"{h}x{w}") == b
        if h * w <= 16:
            assert parse(npuzzle.format(b, "hex"), shape=(h, w)) == b
    assert npuzzle.format(parse("159d26ae37bf48c0")) == "1 5 9 13/2 6 10 14/3 7 11 15/4 8 12 0"
    with pytest.raises(InvalidOptionError, match="unknown notation"):
        npuzzle.format(parse("1 2/3 0"), "svg")


def test_every_public_name_has_a_docstring_with_an_example():
    for name in npuzzle.__all__:
        doc = inspect.getdoc(getattr(npuzzle, name)) or ""
        assert ">>>" in doc, name


# -- what a solution shows -------------------------------------------------------------------------


def test_solution_repr_is_short():
    solved = solve(HARD_3X3, method="idastar", heuristic="lc")
    assert repr(solved) == "<Solution 3x3 standard: 31 moves, optimal, idastar/lc>"
    one = solve("1 2/0 3", method="idastar", heuristic="lc")
    assert repr(one) == "<Solution 2x2 standard: 1 move, optimal, idastar/lc>"
    stopped = solve(HARD_3X3, method="idastar", heuristic="manhattan", max_nodes=50)
    assert re.fullmatch(r"<Solution 3x3 standard: node-limit, at least \d+ moves, idastar/manhattan>", repr(stopped))
    realtime = solve(HARD_3X3, method="realtime")
    assert re.fullmatch(r"<Solution 3x3 standard: \d+ moves, not proven optimal, realtime-greedy>", repr(realtime))
    easy = solve(parse("4 1 2/5 0 3"), method="realtime")  # as short as its proven bound: optimal
    assert repr(easy) == "<Solution 2x3 standard: 5 moves, optimal, realtime-greedy>"
    goal = parse("0 1 2/3 4 5")
    assert repr(solve(Board(2, 3, (1, 0, 2, 3, 4, 5)), goal=goal)).startswith("<Solution 2x3 blank-first: 1 move")


@pytest.mark.parametrize("position", [HARD_3X3, "1 2 3/4 5 6/7 8 0", "2 3 0/1 4 5", "1 2 3 4/5 6 0 7",
                                      "1 2/3 4/5 6/0 7", "1 2 3 4 5/6 7 8 9 0/11 12 13 14 10"])
def test_boards_replays_the_solution_from_start_to_goal(position):
    solution = solve(position, shape=None, method="idastar", heuristic="lc")
    boards = list(solution.boards())
    assert len(boards) == solution.length + 1
    assert boards[0] == solution.board and boards[-1].is_goal()
    for before, after, tile in zip(boards[:-1], boards[1:], solution.moves, strict=True):
        assert before.move(tile) == after


def test_board_svg_draws_every_tile_and_leaves_the_blank_empty():
    b = Board(3, 4, (1, 2, 3, 4, 5, 0, 7, 8, 9, 10, 11, 6))
    root = ET.fromstring(b._repr_svg_())
    ns = {"s": "http://www.w3.org/2000/svg"}
    assert int(root.get("width")) > int(root.get("height"))  # 4 columns, 3 rows
    texts = [int(t.text) for t in root.findall("s:text", ns)]
    assert sorted(texts) == list(range(1, 12))
    rects = root.findall("s:rect", ns)
    assert len(rects) == 12  # the frame and one square per tile, none for the blank
    cell = 40
    squares = {(int(float(r.get("x"))) // cell, int(float(r.get("y"))) // cell) for r in rects[1:]}
    assert (1, 1) not in squares and len(squares) == 11  # cell (row 1, column 1) is the blank


def test_solution_html_shows_the_board_and_the_moves():
    solution = solve("1 2 3/4 0 6/7 5 8", method="idastar", heuristic="lc")
    html = solution._repr_html_()
    assert "<svg" in html and "2 moves, optimal" in html
    assert "tiles pushed: 5 8" in html and f"letters: {solution.letters}" in html
    stopped = solve(HARD_3X3, method="idastar", heuristic="manhattan", max_nodes=50)
    assert "node-limit" in stopped._repr_html_() and "letters" not in stopped._repr_html_()


# -- any goal ------------------------------------------------------------------------------------


def _bfs_from(goal: Board) -> dict[tuple[int, ...], int]:
    """The distance of every position to ``goal``, by breadth-first search (tests/naive.py's moves)."""
    dist = {goal.tiles: 0}
    queue = deque([goal.tiles])
    while queue:
        state = queue.popleft()
        for nxt in blank_neighbours(state, goal.height, goal.width):
            if nxt not in dist:
                dist[nxt] = dist[state] + 1
                queue.append(nxt)
    return dist


def _random_board(h: int, w: int, rng: random.Random) -> Board:
    tiles = list(range(h * w))
    rng.shuffle(tiles)
    return Board(h, w, tuple(tiles))


def _walk(board: Board, moves: int, rng: random.Random) -> Board:
    for _ in range(moves):
        board = board.move(rng.choice(board.movable_tiles()))
    return board


def _relabel(board: Board, labels: list[int]) -> Board:
    return Board(board.height, board.width, tuple(labels[t] for t in board.tiles))


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (3, 3)])
def test_custom_goals_give_the_bfs_distance(shape):
    h, w = shape
    rng = random.Random(h * 10 + w)
    for _ in range(4):
        goal = _random_board(h, w, rng)
        dist = _bfs_from(goal)
        starts = [Board(h, w, s) for s in rng.sample(sorted(dist), 5)]
        for start in starts:
            for method, heuristic in (("auto", "auto"), ("idastar", "lc"), ("astar", "manhattan")):
                solution = solve(start, goal=goal, method=method, heuristic=heuristic)
                assert solution.goal == goal
                assert solution.length == dist[start.tiles] and solution.optimal, (start, goal, method)
                assert start.apply(solution.moves) == goal
                assert start.apply(solution.letters) == goal
        unreachable = Board(h, w, goal.tiles[:2][::-1] + goal.tiles[2:]) if 0 not in goal.tiles[:2] else None
        if unreachable is not None:
            with pytest.raises(UnsolvableError, match=re.escape(f"unsolvable for the goal {npuzzle.format(goal)}")):
                solve(unreachable, goal=goal)
            assert not unreachable.is_solvable(goal)


@pytest.mark.parametrize("shape", [(3, 3), (2, 3), (3, 2), (4, 3)])
def test_a_relabelled_goal_is_as_far_as_the_standard_one(shape):
    """A goal board that renames the tiles of the standard goal (and the start renamed alike) is
    as far as the standard case; a mirror image of both is too. Every solution replays to the
    custom goal."""
    h, w = shape
    rng = random.Random(7 * h + w)
    standard = Board.goal(h, w)
    for _ in range(3):
        start = _walk(standard, 40, rng)
        reference = solve(start, method="idastar", heuristic="lc")
        labels = [0] + rng.sample(range(1, h * w), h * w - 1)
        goal, renamed = _relabel(standard, labels), _relabel(start, labels)
        for method, heuristic in (("auto", "auto"), ("idastar", "wd+id"), ("astar", "lc")):
            solution = solve(renamed, goal=goal, method=method, heuristic=heuristic)
            assert solution.length == reference.length and solution.optimal
            assert renamed.apply(solution.moves) == goal
        flip = [r * w + (w - 1 - c) for r in range(h) for c in range(w)]  # left-right mirror
        mirrored_goal = Board(h, w, tuple(goal.tiles[flip[q]] for q in range(h * w)))
        mirrored = Board(h, w, tuple(renamed.tiles[flip[q]] for q in range(h * w)))
        solution = solve(mirrored, goal=mirrored_goal, method="idastar", heuristic="lc")
        assert solution.length == reference.length and mirrored.apply(solution.moves) == mirrored_goal
        assert lower_bound(mirrored, "lc", goal=mirrored_goal) == lower_bound(start, "lc")
        realtime = solve(mirrored, goal=mirrored_goal, method="realtime")
        assert realtime.solved and mirrored.apply(realtime.moves) == mirrored_goal


def test_goal_with_the_blank_in_the_middle():
    goal = parse("1 2 3/8 0 4/7 6 5")  # the textbook 8-puzzle goal
    dist = _bfs_from(goal)
    rng = random.Random(3)
    for tiles in rng.sample(sorted(dist), 20):
        start = Board(3, 3, tiles)
        solution = solve(start, goal=goal)
        assert solution.length == dist[tiles] and start.apply(solution.moves) == goal
    assert max(dist.values()) == 30
    assert frame_for(parse("2 8 3/1 6 4/7 0 5"), goal) is None  # neither blank in a corner
    assert frame_for(parse("2 8 3/1 6 4/0 7 5"), goal).reverse  # the start's is: searched backwards


def test_a_goal_off_the_corners_of_a_large_board_is_solved_via_a_corner_with_its_bound():
    goal = Board(4, 4, (1, 2, 3, 4, 5, 0, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
    start = Board(4, 4, (1, 2, 3, 4, 5, 6, 0, 7, 8, 9, 10, 11, 12, 13, 14, 15))
    one = solve(start, goal=goal)
    assert (one.length, one.optimal, one.lower_bound) == (1, True, 1)  # the detour cancels out
    for shape, walk in (((4, 4), 30), ((3, 5), 25), ((5, 3), 25)):
        h, w = shape
        tiles = list(range(1, h * w))
        tiles.insert(w + 1, 0)  # the blank in row 1, column 1: no corner
        goal = Board(h, w, tuple(tiles))
        start = goal
        for tile in scramble_walk(goal, walk):
            start = start.move(tile)
        if start.blank in (0, w - 1, (h - 1) * w, h * w - 1):
            continue
        s = solve(start, goal=goal, timeout=60)
        assert s.solved and start.apply(s.letters) == goal
        assert start.manhattan(goal) <= s.lower_bound <= s.length <= walk
        assert s.optimal or "not proven optimal" in s.note


def scramble_walk(board: Board, steps: int) -> list[int]:
    """A fixed walk of ``steps`` moves from ``board`` (never undoing the last), as tiles pushed."""
    import random

    rnd, moves, last = random.Random(steps), [], -1
    for _ in range(steps):
        h, w = board.shape
        r, c = divmod(board.blank, w)
        cells = [(r + dr) * w + c + dc for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                 if 0 <= r + dr < h and 0 <= c + dc < w]
        tile = rnd.choice([board.tiles[q] for q in cells if board.tiles[q] != last])
        moves.append(tile)
        board, last = board.move(tile), tile
    return moves


def test_goal_board_of_another_shape_is_refused():
    with pytest.raises(InvalidBoardError, match="the goal board is 2x3 but the position is 3x2"):
        solve("1 2/3 4/5 0", goal=parse("1 2 3/4 5 0"))


def test_a_goal_board_that_is_a_convention_uses_its_tables():
    blank_first = solve(parse(HARD_3X3), goal=Board.goal(3, 3, "blank-first"), method="idastar", heuristic="lc")
    assert blank_first.goal == "blank-first"
    assert blank_first.length == solve(parse(HARD_3X3), goal="blank-first", method="idastar", heuristic="lc").length
    assert solve(HARD_3X3, goal="0 1 2/3 4 5/6 7 8", method="idastar", heuristic="lc").goal == "blank-first"


# -- the command line ------------------------------------------------------------------------------


def test_solve_steps_prints_every_board(capsys):
    status, out, err = run(capsys, "solve", "1 2 3/4 0 6/7 5 8", "--steps")
    assert status == 0 and without_notice(err) == ""
    steps = out[out.index("start:"):].splitlines()
    assert steps[0] == "start:" and steps[1:4] == ["  1 2 3", "  4 _ 6", "  7 5 8"]
    assert steps[4] == "move 1 of 2: tile 5 U" and steps[8] == "move 2 of 2: tile 8 L"
    assert steps[9:12] == ["  1 2 3", "  4 5 6", "  7 8 _"]


def test_solve_steps_json_lists_the_positions(capsys):
    status, out, _ = run(capsys, "solve", HARD_3X3, "--steps", "--json")
    record = valid_record(out)
    assert status == 0 and len(record["steps"]) == record["length"] + 1 == 32
    boards = [parse(p) for p in record["steps"]]
    assert boards[0] == parse(HARD_3X3) and boards[-1].is_goal()
    assert all(a.move(t) == b for a, b, t in zip(boards[:-1], boards[1:], record["moves"], strict=True))


def test_solve_goal_board(capsys):
    status, out, err = run(capsys, "solve", "2 8 3/1 6 4/7 0 5", "--goal-board", "1 2 3/8 _ 4/7 6 5".replace("_", "0"))
    assert status == 0 and without_notice(err) == ""
    assert "3x3 board, goal 1 2 3/8 0 4/7 6 5:" in out and "Solution: 5 moves, optimal" in out
    letters = next(ln.split(":", 1)[1].strip() for ln in out.splitlines() if "letters:" in ln)
    assert parse("2 8 3/1 6 4/7 0 5").apply(letters) == parse("1 2 3/8 0 4/7 6 5")


def test_check_and_solve_with_an_unreachable_goal_board(capsys):
    status, out, _ = run(capsys, "check", HARD_3X3, "--goal-board", "0 1 2/5 4 3/6 7 8")
    assert status == 1 and out.startswith("3x3 board, goal 0 1 2/5 4 3/6 7 8:\n") and "\nUnsolvable:\n" in out
    status, out, err = run(capsys, "solve", HARD_3X3, "--goal-board", "0 1 2/5 4 3/6 7 8")
    assert status == 1 and out == "" and "unsolvable for the goal 0 1 2/5 4 3/6 7 8" in err
    status, _, err = run(capsys, "solve", HARD_3X3, "--goal-board", "1 2 3/4 5 0")
    assert status == 1 and err.count("\n") == 1 and "the goal board is 2x3 but the position is 3x3" in err
    status, _, err = run(capsys, "solve", HARD_3X3, "--goal-board", "0 1 2/5 4 3/6 7 8", "--goal", "blank-first")
    assert status == 1 and "not both" in err


@pytest.mark.parametrize("argv", [["stats", "bfs", "2x3"], ["stats", "happy", "--shape", "2x3"]])
def test_stats_plot_writes_a_png(capsys, tmp_path, argv):
    pytest.importorskip("matplotlib")
    path = tmp_path / "plot.png"
    status, out, _ = run(capsys, *argv, "--plot", str(path))
    assert status == 0 and f"histogram saved to {path}" in out
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("argv", [["stats", "bfs", "2x3"], ["stats", "happy", "--shape", "2x3"],
                                  ["stats", "sample", "--shape", "2x3", "--count", "2"]])
def test_stats_plot_without_matplotlib_says_what_to_install(capsys, tmp_path, monkeypatch, argv):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    path = tmp_path / "plot.png"
    status, out, err = run(capsys, *argv, "--plot", str(path))
    assert status == 1 and out == "" and not path.exists()
    assert err.count("\n") == 1 and "pip install 'npuzzle[plot]'" in err


@pytest.mark.slow
def test_a_large_goal_board_is_named_not_written_out(capsys):
    h, w = 7, 8
    flip = [r * w + (w - 1 - c) for r in range(h) for c in range(w)]  # left-right mirror
    goal = Board(h, w, tuple(Board.goal(h, w).tiles[flip[q]] for q in range(h * w)))
    start = _walk(goal, 200, random.Random(5))
    solution = solve(start, goal=goal)
    assert solution.solved and start.apply(solution.moves) == goal
    assert repr(solution).startswith("<Solution 7x8 custom goal board: ")
    status, out, _ = run(capsys, "solve", npuzzle.format(start), "--goal-board", npuzzle.format(goal))
    assert status == 0 and "7x8 board, goal custom goal board:" in out


def test_notebook_views_of_large_boards_stay_small():
    big = Board.goal(40, 40)
    assert big._repr_svg_() is None and big.svg().startswith("<svg")  # drawn only when asked
    board = _walk(Board.goal(12, 12), 3000, random.Random(2))
    solution = solve(board, method="realtime")
    assert solution.length > 500
    html = solution._repr_html_()
    assert "<svg" in html and f"({solution.length - 500:,} more)" in html
    assert solution.letters[:500] in html and solution.letters not in html


def test_lower_bound_and_solve_read_a_goal_given_as_text():
    goal = "0 1 2/5 4 3/7 6 8"
    assert lower_bound(HARD_3X3, "lc", goal=goal) == lower_bound(HARD_3X3, "lc", goal=parse(goal))
    assert solve(HARD_3X3, goal=goal, method="idastar", heuristic="lc").goal == parse(goal)
    with pytest.raises(InvalidOptionError, match="unknown goal"):
        lower_bound(HARD_3X3, goal="standrad")


def test_lower_bound_for_a_goal_board_off_the_corners():
    goal, start = parse("1 2 3/8 0 4/7 6 5"), parse("2 8 3/1 6 4/7 0 5")
    assert lower_bound(start, goal=goal) == start.manhattan(goal) == 5
    with pytest.raises(InvalidOptionError, match="only heuristic='manhattan'"):
        lower_bound(start, "lc", goal=goal)


def test_solve_reports_progress_to_python():
    seen = []
    npuzzle.solve("0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1", method="idastar", heuristic="manhattan",
                  pruning="parent", max_nodes=20_000_000, on_progress=seen.append)
    assert seen and all(p.generated > 0 and p.bound >= 58 for p in seen)
    assert [p.generated for p in seen] == sorted(p.generated for p in seen)
