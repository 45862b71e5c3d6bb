"""A*+IDA* (``search.hybrid``): optimal lengths against breadth-first search and IDA*, on every
board shape, every top size and the pattern databases; the frontier it hands IDA*; limits; the
command line."""

from __future__ import annotations

import random

import pytest
from records import record as valid_record
from test_astar import PARTITIONS, bfs_distances, pdb_store, random_board  # noqa: F401  (a fixture)

from npuzzle.arguments import exact_weight
from npuzzle.board import Board
from npuzzle.cli import main
from npuzzle.errors import InvalidOptionError
from npuzzle.heuristics.registry import kernel_heuristic
from npuzzle.search import solve
from npuzzle.search.astar import _Search, default_max_memory
from npuzzle.search.hybrid import METHOD, Top, astar_idastar
from npuzzle.search.idastar import idastar
from npuzzle.search.limits import NODE_LIMIT, TIMEOUT, Clock, Limit, Stats
from npuzzle.search.split import Pool

TOPS = (1, 5, 40, 500)


def check(board: Board, goal: str, heuristic: str, top: int, expected: int) -> None:
    sol = astar_idastar(board, goal=goal, heuristic=heuristic, top_nodes=top)
    assert sol.solved and sol.optimal and sol.length == expected == sol.lower_bound, (board, heuristic, top)
    assert board.apply(sol.moves).is_goal(goal) and sol.method == METHOD
    assert sum(it.generated for it in sol.stats.iterations) == sol.stats.generated
    assert sum(it.expanded for it in sol.stats.iterations) == sol.stats.expanded


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(2, 3), (3, 2)])
@pytest.mark.parametrize("goal", ["standard", "blank-first"])
def test_every_small_state_matches_bfs(shape, goal):
    for i, (tiles, d) in enumerate(sorted(bfs_distances(*shape, goal).items())):
        heuristic = ("manhattan", "lc", "wd+id")[i % 3]
        check(Board(*shape, tiles), goal, heuristic, TOPS[i % len(TOPS)], d)


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(2, 4), (3, 3)])
def test_samples_match_bfs(shape):
    dist = bfs_distances(*shape)
    rng = random.Random(7)
    far = max(dist, key=dist.__getitem__)
    for tiles in [*rng.sample(sorted(dist), 30), far]:
        check(Board(*shape, tiles), "standard", rng.choice(("lc", "wd+id")), rng.choice(TOPS), dist[tiles])


@pytest.mark.slow
@pytest.mark.parametrize("shape, count", [((3, 3), 4), ((2, 4), 4), ((4, 3), 3), ((3, 5), 2)])
def test_pattern_databases_match_idastar(pdb_store, shape, count):  # noqa: F811
    rng = random.Random(sum(shape))
    for goal in ("standard", "blank-first"):
        for _ in range(count):
            b = random_board(*shape, goal, rng)
            heuristic = f"pdb:{PARTITIONS[shape]}"
            expected = idastar(b, goal=goal, heuristic=heuristic).length
            for top in (1, 200, 5000):
                check(b, goal, heuristic, top, expected)


def test_the_frontier_is_the_open_list_with_its_bounds_and_paths(pdb_store):  # noqa: F811
    """Every leaf is a position the root reaches by its path, with the components and value the
    Python evaluation gives (the IDA* kernel starts from them), in order of f, then h."""
    board = random_board(4, 3, "standard", random.Random(5))
    heuristic = f"pdb:{PARTITIONS[(4, 3)]}"
    kh = kernel_heuristic(heuristic, 4, 3, "standard")
    search = _Search(board, "standard", kh, exact_weight(1.0), Limit(max_nodes=300), default_max_memory(),
                     Clock(Limit()), Stats(generated=1), None)
    assert search.run().solution.status == NODE_LIMIT
    top = Top.of(search, kh)
    leaves = top.leaves
    assert len(leaves) > 50
    keys = list(zip(top.f.tolist(), leaves.hs.tolist(), strict=True))
    assert keys == sorted(keys)
    assert len({tuple(b) for b in leaves.boards.tolist()}) == len(leaves)  # each position once
    for i in range(len(leaves)):
        depth = int(leaves.depths[i])
        blanks = (board.blank, *top.path(leaves, i))
        assert len(blanks) == depth + 1 and blanks[-1] == leaves.blanks[i]
        reached = _walk(board, blanks)
        assert reached.tiles == tuple(leaves.boards[i].tolist())
        row, h = kh.start(reached)
        assert h == leaves.hs[i] and top.f[i] == depth + h
        assert row.tolist() == leaves.rows[i].tolist()
        last = blanks[-1] - blanks[-2]
        assert leaves.steps[i] == {-3: 0, -1: 1, 1: 2, 3: 3}[last]  # up, left, right, down on a width of 3


def _walk(board: Board, blanks: tuple[int, ...]) -> Board:
    tiles = list(board.tiles)
    assert tiles[blanks[0]] == 0
    for a, b in zip(blanks, blanks[1:], strict=False):
        tiles[a], tiles[b] = tiles[b], 0
    return Board(board.height, board.width, tuple(tiles))


def test_near_the_goal_and_at_it():
    """The goal may be one of the open nodes, or the root itself."""
    rng = random.Random(11)
    goal = Board(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    for _ in range(40):
        b = goal
        for _ in range(rng.randrange(0, 9)):
            b = b.apply([rng.choice(b.movable_tiles())])
        expected = idastar(b, heuristic="manhattan").length
        for top in (1, 2, 3, 4, 6, 9):
            check(b, "standard", "manhattan", top, expected)


def test_on_worker_processes():
    rng = random.Random(3)
    with Pool(2) as pool:
        for shape in [(3, 3), (3, 4)]:
            b = random_board(*shape, "standard", rng)
            expected = idastar(b, heuristic="wd+id").length
            sol = solve(b, method=METHOD, heuristic="wd+id", executor=pool)
            assert sol.solved and sol.length == expected and sol.method == METHOD


def test_limits():
    b = Board(4, 4, (0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1))  # 80 moves
    for max_nodes in (100, 20_000):  # within A*'s part, and in IDA*'s
        sol = astar_idastar(b, heuristic="lc", top_nodes=1000, limit=Limit(max_nodes=max_nodes))
        assert sol.status == NODE_LIMIT and not sol.moves and sol.method == METHOD
        assert 0 < sol.lower_bound <= 80 and sol.stats.generated >= max_nodes
    for timeout in (1e-12, 0.5):  # in A*'s part, and (most likely) in IDA*'s
        sol = astar_idastar(b, heuristic="manhattan", top_nodes=2000, limit=Limit(timeout=timeout))
        assert sol.status == TIMEOUT and 0 < sol.lower_bound <= 80 and sol.method == METHOD
    with pytest.raises(InvalidOptionError, match="top_nodes=0: give a whole number from 1"):
        astar_idastar(b, top_nodes=0)
    with pytest.raises(InvalidOptionError, match="9x9 board .81 cells. needs method='beam' or 'realtime'"):
        astar_idastar(Board(9, 9, tuple(range(1, 81)) + (0,)))


def test_on_the_command_line(capsys):
    code = main(["solve", "--method", "astar+idastar", "--heuristic", "wd+id", "--json", "8 6 7/2 5 4/3 0 1"])
    record = valid_record(capsys.readouterr().out)
    assert code == 0 and record["method"] == METHOD and record["length"] == 31 and record["optimal"]
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    assert "astar+idastar" in capsys.readouterr().out
