"""The sliding-puzzle task for language models (``npuzzle.learning``): its labels against a
breadth-first search of our own (3x3, 2x3, 3x2, 2x4) and Korf's published optima (4x4), its
score (1.0 optimal, optimum/length longer, 0.01 legal but unsolved, 0.0 illegal or malformed),
its determinism, and the same through reasoning-gym's own API when reasoning-gym is installed."""

from __future__ import annotations

import os
from functools import cache

import pytest
from naive import bfs_distances, blank_neighbours, goal_tuple, naive_manhattan

import npuzzle
from npuzzle import Board
from npuzzle.board import Direction
from npuzzle.errors import InvalidOptionError
from npuzzle.instances import benchmark_set
from npuzzle.learning.task import TaskConfig, entry, make_entry, score_answer


def _tiles(meta: dict) -> tuple[int, ...]:
    return tuple(t for row in meta["board"] for t in row)


@cache
def _optimal_counts(height: int, width: int, goal: str = "standard") -> dict[tuple[int, ...], int]:
    """The number of shortest paths to the goal of every state, from the BFS distances: a state's
    count is the sum of its neighbours' one move nearer (dynamic programming, nearest first)."""
    dist = bfs_distances(height, width, goal)
    counts = {goal_tuple(height, width, goal): 1}
    for state in sorted(dist, key=dist.__getitem__)[1:]:
        counts[state] = sum(counts[n] for n in blank_neighbours(state, height, width) if dist[n] == dist[state] - 1)
    return counts


def _check_against_bfs(data: list[dict], height: int, width: int, lo: int, hi: int) -> None:
    dist, counts = bfs_distances(height, width), _optimal_counts(height, width)
    for e in data:
        meta = e["metadata"]
        tiles = _tiles(meta)
        board = Board(height, width, tiles)
        assert meta["optimum"] == meta["lower_bound"] == meta["upper_bound"] == dist[tiles]
        assert lo <= dist[tiles] <= hi and meta["exact"] is True
        assert (meta["shape"], meta["rows"], meta["cols"]) == (f"{height}x{width}", height, width)
        assert meta["optimal_solutions"] == counts[tiles]
        assert meta["manhattan"] == naive_manhattan(tiles, width)
        assert len(e["answer"]) == dist[tiles] and board.apply(e["answer"]).is_goal()
        assert npuzzle.parse(meta["position"]) == board
        assert npuzzle.parse(e["question"].split("Board:\n")[1].split("\n\n")[0]) == board  # "_": the blank


def _detour(board: Board) -> str:
    """Two legal moves from ``board`` that undo each other."""
    d = board.direction_of(board.movable_tiles()[0])
    return d.value + d.opposite.value


def _illegal(board: Board) -> list[str]:
    """The letters no tile of ``board`` can slide."""
    legal = {board.direction_of(t).value for t in board.movable_tiles()}
    return [d.value for d in Direction if d.value not in legal]


def _illegal_first(board: Board) -> str:
    return _illegal(board)[0]


def _check_scores(score, e: dict) -> None:
    """``score(answer, entry)`` follows the documented rule on ``e``."""
    meta = e["metadata"]
    board = Board(meta["rows"], meta["cols"], _tiles(meta))
    best, answer = meta["upper_bound"], e["answer"]
    assert score(answer, e) == 1.0
    assert score(", ".join(answer), e) == 1.0  # commas between moves, as models write them
    longer = answer + _detour(Board.goal(meta["rows"], meta["cols"], meta["goal"]))
    assert score(longer, e) == pytest.approx(best / (best + 2))
    assert score(_detour(board) + answer, e) == pytest.approx(best / (best + 2))
    goal = Board.goal(meta["rows"], meta["cols"], meta["goal"])
    assert score(answer + _illegal_first(goal), e) == 0.0  # at the goal, a move off the board
    if _illegal(board):
        assert score(_illegal_first(board) + answer, e) == 0.0
    assert score(answer[:-1], e) == 0.01  # legal, one move short of the goal
    for malformed in ("", "   ", None, "move up", "U X", 17):
        assert score(malformed, e) == 0.0


def test_3x3_labels_equal_a_bfs_of_our_own():
    config = TaskConfig(min_distance=1, max_distance=31, seed=7)
    data = [make_entry(config, i) for i in range(40)]
    _check_against_bfs(data, 3, 3, 1, 31)
    assert len({_tiles(e["metadata"]) for e in data}) == 40


@pytest.mark.parametrize("scramble", ["state", "walk"])
def test_distance_range_and_scores_on_3x3(scramble):
    config = TaskConfig(min_distance=4, max_distance=9, scramble=scramble, seed=3)
    data = [make_entry(config, i) for i in range(10)]
    _check_against_bfs(data, 3, 3, 4, 9)
    for e in data:
        _check_scores(score_answer, e)


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (2, 4)])
def test_non_square_boards_against_bfs(shape):
    h, w = shape
    config = TaskConfig(rows=h, cols=w, min_distance=2, max_distance=30, seed=11)
    data = [make_entry(config, i) for i in range(8)]
    _check_against_bfs(data, h, w, 2, 30)
    assert "Solve this " + f"{h}x{w}" in data[0]["question"]
    _check_scores(score_answer, data[0])


def test_3x5_walks_are_labelled_optimally():
    config = TaskConfig(rows=3, cols=5, min_distance=6, max_distance=14, scramble="walk", seed=2)
    for i in range(3):
        e = make_entry(config, i)
        meta = e["metadata"]
        board = Board(3, 5, _tiles(meta))
        independent = npuzzle.solve(board, method="astar", heuristic="manhattan")
        assert meta["optimum"] == independent.length and 6 <= meta["optimum"] <= 14 and meta["exact"]
        assert meta["optimal_solutions"] is None and meta["labelled_by"].startswith("idastar/")
        assert board.apply(e["answer"]).is_goal() and len(e["answer"]) == meta["optimum"]
        _check_scores(score_answer, e)


def test_korf_published_optima_on_4x4():
    config = TaskConfig(rows=4, cols=4, goal="blank-first", min_distance=1, max_distance=80)
    for inst in benchmark_set("korf100", [79, 55]):
        e = entry(inst.board, config)
        meta = e["metadata"]
        assert meta["optimum"] == inst.optimal_length and meta["goal"] == "blank-first"
        assert inst.board.apply(e["answer"]).is_goal("blank-first")
        assert score_answer(e["answer"], e) == 1.0
        longer = e["answer"] + _detour(Board.goal(4, 4, "blank-first"))
        assert score_answer(longer, e) == pytest.approx(inst.optimal_length / (inst.optimal_length + 2))


def test_larger_boards_get_certified_bounds():
    config = TaskConfig(rows=5, cols=5, min_distance=4, max_distance=12, scramble="walk", seed=1)
    data = [make_entry(config, i) for i in range(3)]
    for e in data:
        meta = e["metadata"]
        board = Board(5, 5, _tiles(meta))
        low, high = meta["lower_bound"], meta["upper_bound"]
        assert 4 <= low <= high <= 12 and low >= naive_manhattan(board.tiles, 5) and (high - low) % 2 == 0
        assert meta["exact"] == (low == high) and meta["optimum"] == (low if low == high else None)
        assert meta["optimal_solutions"] is None and meta["labelled_by"] == "beam"
        assert len(e["answer"]) == high and board.apply(e["answer"]).is_goal()
        _check_scores(score_answer, e)
    assert any(not e["metadata"]["exact"] for e in data)  # this seed's third: between 5 and 7 moves


def test_entries_depend_only_on_the_seed_and_the_index():
    config = TaskConfig(rows=2, cols=4, min_distance=3, max_distance=20, seed=5)
    first = [make_entry(config, i) for i in range(6)]
    assert [make_entry(config, i) for i in (5, 0)] == [first[5], first[0]]
    other = [make_entry(TaskConfig(rows=2, cols=4, min_distance=3, max_distance=20, seed=6), i) for i in range(6)]
    assert [e["metadata"]["board"] for e in other] != [e["metadata"]["board"] for e in first]


@pytest.mark.parametrize(("fields", "word"), [
    ({"rows": 1}, "rows"), ({"cols": "3"}, "cols"), ({"min_distance": 0}, "min_distance"),
    ({"min_distance": 9, "max_distance": 8}, "max_distance"), ({"scramble": "shuffle"}, "scramble"),
    ({"size": 0}, "size"), ({"seed": -1}, "seed"), ({"min_distance": 32, "max_distance": 40}, "31 moves"),
    ({"goal": "middle"}, "goal"), ({"rows": 16, "cols": 17}, "at most 256 cells"),
])
def test_bad_configurations_are_refused(fields, word):
    with pytest.raises(ValueError, match=word):
        TaskConfig(**fields).validate()


def test_an_empty_range_is_reported():
    from npuzzle.learning import task

    config = TaskConfig(rows=2, cols=2, min_distance=5, max_distance=5, seed=1)  # 2x2 distances: 0..6, 5 exists
    assert make_entry(config, 0)["metadata"]["optimum"] == 5
    config = TaskConfig(rows=3, cols=3, min_distance=1, max_distance=1, scramble="walk", seed=1)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(task, "MAX_DRAWS", task.BATCH)
        walk_hit = make_entry(config, 0)  # a walk of one move is one move away
        assert walk_hit["metadata"]["optimum"] == 1
        with pytest.raises(InvalidOptionError, match="no 3x3 position 1 to 1 moves"):
            make_entry(TaskConfig(rows=3, cols=3, min_distance=1, max_distance=1, seed=1), 0)


# -- through reasoning-gym's own API ----------------------------------------------------------------


@pytest.fixture(scope="module")
def rg():
    if os.environ.get("CI"):  # CI installs the extra: a missing package fails there, never skips
        import reasoning_gym
    else:
        reasoning_gym = pytest.importorskip("reasoning_gym", reason="reasoning-gym is not installed")
    import npuzzle.learning.reasoning_gym as ours

    assert ours.REGISTERED
    return reasoning_gym


def test_reasoning_gym_creates_and_scores_the_task(rg):
    data = rg.create_dataset("n_puzzle", rows=3, cols=3, min_distance=5, max_distance=15, seed=42, size=12)
    entries = list(data)
    assert len(entries) == len(data) == 12
    _check_against_bfs(entries, 3, 3, 5, 15)
    score = rg.get_score_answer_fn("n_puzzle")
    for e in entries:
        assert e["metadata"]["source_dataset"] == "n_puzzle"
        _check_scores(data.score_answer, e)
        _check_scores(score, e)
    again = rg.create_dataset("n_puzzle", rows=3, cols=3, min_distance=5, max_distance=15, seed=42, size=12)
    assert list(again) == entries


@pytest.mark.parametrize("shape", [(2, 3), (3, 2)])
def test_reasoning_gym_non_square(rg, shape):
    h, w = shape
    data = rg.create_dataset("n_puzzle", rows=h, cols=w, min_distance=1, max_distance=21, seed=1, size=5)
    _check_against_bfs(list(data), h, w, 1, 21)


def test_reasoning_gym_3x5(rg):
    data = rg.create_dataset("n_puzzle", rows=3, cols=5, min_distance=4, max_distance=10, scramble="walk",
                             seed=1, size=2)
    for e in data:
        meta = e["metadata"]
        board = Board(3, 5, _tiles(meta))
        assert meta["optimum"] == npuzzle.solve(board, method="astar", heuristic="manhattan").length
        assert data.score_answer(e["answer"], e) == 1.0


def test_reasoning_gym_refuses_bad_configurations(rg):
    with pytest.raises(ValueError, match="scramble"):
        rg.create_dataset("n_puzzle", scramble="shuffle")


def test_reasoning_gym_curriculum_steps_the_distance(rg):
    from reasoning_gym.factory import create_curriculum, has_curriculum

    assert has_curriculum("n_puzzle")
    curriculum = create_curriculum("n_puzzle")
    first = curriculum.generate_configuration({"seed": 1, "size": 3})
    assert (first.min_distance, first.max_distance) == (1, 5)
    assert curriculum.increment_attr_level("distance")
    second = curriculum.generate_configuration({"seed": 1, "size": 3})
    assert (second.min_distance, second.max_distance) == (1, 10)
    data = rg.create_dataset("n_puzzle", **vars(second))
    _check_against_bfs(list(data), 3, 3, 1, 10)


def test_reasoning_gym_composite_scores_through_our_task(rg):
    from reasoning_gym.composite import CompositeConfig, CompositeDataset, DatasetSpec

    spec = DatasetSpec("n_puzzle", 1.0, {"rows": 2, "cols": 3, "min_distance": 3, "max_distance": 12})
    data = CompositeDataset(CompositeConfig(size=4, seed=3, datasets=[spec]))
    for e in data:
        assert data.score_answer(e["answer"], e) == 1.0
        assert data.score_answer(e["answer"] + _illegal_first(Board.goal(2, 3)), e) == 0.0


def _run(code: str) -> None:
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr


def test_the_package_loads_nothing_heavy():
    _run("import sys, npuzzle.learning; assert not {'numpy', 'numba', 'npuzzle.learning.task'} & set(sys.modules)")


def test_without_reasoning_gym_the_module_imports_and_registers_nothing():
    _run("import sys; sys.modules['reasoning_gym'] = None\n"  # as if it were not installed: import fails
         "import npuzzle.learning.reasoning_gym as ours\n"
         "assert ours.REGISTERED is False and ours.Dataset is None\n"
         "from npuzzle.learning.task import TaskConfig, make_entry, score_answer\n"
         "e = make_entry(TaskConfig(rows=2, cols=3, min_distance=4, max_distance=4, seed=1), 0)\n"
         "assert score_answer(e['answer'], e) == 1.0")
