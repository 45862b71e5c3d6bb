"""Real-time solvers: every solution replayed, Parberry's bound, the generator, the fast paths."""

from __future__ import annotations

import io
import itertools

import numpy as np
import pytest

from npuzzle import Board, UnsolvableError
from npuzzle.errors import InvalidOptionError
from npuzzle.instances import parberry_worst, random_board, random_walk
from npuzzle.search.idastar import idastar
from npuzzle.search.quality import proven_bound
from npuzzle.search.realtime import (
    final_shape,
    parberry_bound,
    realtime_array,
    realtime_count,
    realtime_moves,
    realtime_packed,
    realtime_report,
    realtime_solve,
    replay_directions,
    solution_report,
    streamed_report,
)
from npuzzle.search.registry import REALTIME_METHODS

SMALL = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 3), (3, 5), (3, 3), (4, 4), (5, 2), (2, 7), (5, 5), (6, 4)]
LARGER = [(7, 7), (9, 4), (4, 11), (13, 6), (2, 17), (17, 2), (20, 20), (25, 31), (40, 40), (40, 23)]


@pytest.mark.parametrize("method", REALTIME_METHODS)
@pytest.mark.parametrize("shape", SMALL)
def test_small_boards_replayed_by_board_apply(shape, method):
    for seed in range(6):
        board = random_board(*shape, seed)
        sol = realtime_solve(board, method=method)  # replayed by Board.apply inside
        assert sol.solved and sol.method == f"realtime-{method}" and sol.heuristic == "none"
        assert sol.lower_bound == proven_bound(board) <= sol.length
        assert sol.optimal == (sol.length == sol.lower_bound)  # optimal only when as short as the proven bound
        assert board.apply(sol.moves).is_goal()
        assert sol.length == len(sol.moves) == realtime_count(board, method=method)


@pytest.mark.parametrize("method", REALTIME_METHODS)
@pytest.mark.parametrize("shape", LARGER)
def test_larger_boards_replayed_by_kernel(shape, method):
    for seed in range(3):
        board = random_board(*shape, seed)
        dirs = realtime_array(board, method=method)
        assert replay_directions(board, dirs)["moves"] == dirs.size == realtime_count(board, method=method)


def test_replay_rejects_wrong_moves():
    board = random_board(6, 5, 1)
    dirs = realtime_array(board)
    with pytest.raises(AssertionError, match="goal"):
        replay_directions(board, dirs[:-1])
    off = np.concatenate([dirs, np.full(7, 2, np.uint8)])  # the blank walks off the right edge
    with pytest.raises(AssertionError, match="leaves the board"):
        replay_directions(board, off)
    # Packed moves are checked four at a time; the first illegal one is still named exactly.
    from npuzzle.search.realtime import PackedMoves

    for extra in range(1, 6):
        moves = np.concatenate([dirs, np.full(extra, 2, np.uint8)])
        data = np.zeros((moves.size + 3) // 4, np.uint8)
        for i, d in enumerate(moves.tolist()):
            data[i >> 2] |= d << (2 * (i & 3))
        with pytest.raises(AssertionError, match=f"move {dirs.size + 1} leaves"):
            replay_directions(board, PackedMoves(data, moves.size))


@pytest.mark.parametrize("method", REALTIME_METHODS)
def test_generator_matches_fast_paths(method):
    board = random_board(11, 9, 5)
    tiles = list(realtime_moves(board, method=method))
    dirs = realtime_array(board, method=method)
    assert board.letters(tiles) == realtime_solve(board, method=method).letters
    assert len(tiles) == dirs.size
    packed = realtime_packed(board, method=method)
    assert packed.count == dirs.size and np.array_equal(packed.unpacked(), dirs)
    assert replay_directions(board, packed)["moves"] == dirs.size


def test_generator_is_lazy(monkeypatch):
    """The first moves come out of a 300 x 300 board (millions of moves) with a few moves' work:
    the kernel's calls are counted by the moves they return, before and after each move taken."""
    from npuzzle._kernels import realtime as kernels

    computed = [0]
    run = kernels.run

    def counted(*args):
        done = run(*args)
        computed[0] += int(done)
        return done

    monkeypatch.setattr(kernels, "run", counted)
    moves = realtime_moves(random_board(300, 300, 2))
    seen = []
    for taken in range(1, 41):
        seen.append(next(moves))
        assert taken <= computed[0] <= taken + 64, (taken, computed[0])  # at most 64 computed ahead
    assert len(seen) == 40


@pytest.mark.parametrize("shape", [(3, 4), (4, 4), (5, 3), (9, 9)])
def test_blank_first_goal(shape):
    for seed in range(3):
        board = random_board(*shape, seed, "blank-first")
        sol = realtime_solve(board, goal="blank-first", method="greedy")
        assert board.apply(sol.moves).is_goal("blank-first")
        assert list(realtime_moves(board, goal="blank-first", method="greedy")) == list(sol.moves)
        dirs = realtime_array(board, goal="blank-first", method="greedy")
        assert board.letters(sol.moves) == "".join("DRLU"[d] for d in dirs)
        replay_directions(board, realtime_packed(board, goal="blank-first", method="greedy"), goal="blank-first")


def test_last_region_is_solved_optimally():
    # Boards of at most 3 x 3 are the final region itself: the table gives optimal solutions.
    for shape in [(3, 3), (2, 3), (3, 2), (2, 2)]:
        for seed in range(8):
            board = random_board(*shape, seed)
            assert realtime_count(board) == idastar(board).length


def test_final_shape():
    assert final_shape(10, 10) == (3, 3)
    assert final_shape(2, 12) == (2, 3)
    assert final_shape(9, 2) == (3, 2)
    assert final_shape(3, 4) == (3, 3)


@pytest.mark.parametrize("n", range(4, 31))
def test_parberry_bound_random_and_worst(n):
    bound = parberry_bound(n)
    assert bound == 5 * n**3 - 9 * n**2 / 2 + 19 * n / 2 - 89
    boards = [random_board(n, n, seed) for seed in range(2)] + [parberry_worst(n), random_walk(n, n, 3 * n * n, n)]
    for board in boards:
        for method in REALTIME_METHODS:
            assert realtime_count(board, method=method) <= bound


def test_mean_tracks_eight_thirds_n_cubed():
    n = 24
    counts = [realtime_count(random_board(n, n, seed)) for seed in range(8)]
    # (8/3) n^3 minus lower-order terms: 2.50 n^3 measured at n = 24.
    assert 2.35 < np.mean(counts) / n**3 < 8 / 3
    greedy = [realtime_count(random_board(n, n, seed), method="greedy") for seed in range(8)]
    assert np.mean(greedy) < 0.95 * np.mean(counts)


def test_report():
    board = random_board(8, 8, 4)
    tiles = realtime_solve(board).moves
    report = realtime_report(board, tiles)
    md = board.manhattan()
    assert report["moves"] == len(tiles) and report["manhattan"] == md
    assert report["moves_per_manhattan"] == len(tiles) / md
    assert report["moves_per_n3"] == len(tiles) / 8**3
    assert report["parberry_bound"] == parberry_bound(8)
    # wasted = moves that raise the Manhattan distance, counted naively here.
    wasted, b = 0, board
    for t in tiles:
        nxt = b.move(t)
        wasted += nxt.manhattan() > b.manhattan()
        b = nxt
    assert report["wasted"] == wasted
    # Every move changes the distance by one: useful - wasted = md.
    assert len(tiles) - 2 * wasted == md
    assert realtime_report(board, realtime_array(board))["wasted"] == wasted
    assert realtime_report(board, len(tiles))["wasted"] is None


@pytest.mark.parametrize("goal", ["standard", "blank-first"])
def test_streamed_report_counts_or_writes_the_moves(goal):
    board = random_board(12, 9, 5, goal)
    counted = streamed_report(board, goal=goal, method="greedy")
    out = io.BytesIO()
    written = streamed_report(board, out, goal=goal, method="greedy")
    letters = out.getvalue().decode()
    assert letters.endswith("\n") and len(letters) - 1 == written["moves"] == counted["moves"]
    assert counted["wasted"] is None and written == realtime_report(board, realtime_solve(board, goal=goal,
                                                                                           method="greedy").moves,
                                                                      goal=goal)
    assert board.apply(letters.strip()).is_goal(goal)


@pytest.mark.parametrize("shape", [(5, 7), (9, 4), (6, 6)])
@pytest.mark.parametrize("goal", ["standard", "blank-first"])
@pytest.mark.parametrize("method", REALTIME_METHODS)
def test_report_of_a_verified_solution_equals_the_replayed_one(shape, goal, method):
    board = random_board(*shape, 11, goal)
    solution = realtime_solve(board, goal=goal, method=method)
    assert solution_report(solution) == realtime_report(board, solution.moves, goal=goal)


def test_solved_board_needs_no_moves():
    board = Board.goal(5, 4)
    assert realtime_count(board) == 0 and list(realtime_moves(board)) == []
    assert realtime_solve(board).moves == ()


def test_bad_inputs():
    with pytest.raises(UnsolvableError):
        realtime_solve(Board(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0)))
    with pytest.raises(InvalidOptionError, match="'fast'"):
        realtime_count(Board.goal(3, 3), method="fast")
    with pytest.raises(InvalidOptionError, match="'korf'"):
        realtime_array(Board.goal(3, 3), goal="korf")


@pytest.mark.parametrize("method", ["parberry", "greedy"])
@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (4, 3), (3, 5), (7, 7), (9, 4), (4, 11), (13, 6), (17, 2), (31, 25),
                                   (60, 60)])
def test_bulk_steps_equal_step_by_step(shape, method):
    # Parberry's repeated 5- and 6-move steps, planned in bulk, and the greedy method's interior
    # steps, planned and played in one loop (``fused_steps``), are exactly the moves and tiles of
    # the step-by-step planner, also when a caller takes them a few at a time (97: runs stop
    # inside segments).
    from npuzzle._kernels import realtime as k
    from npuzzle.search.realtime import _Machine

    for seed in range(3):
        board = random_board(*shape, seed)
        moves, pushed = [], []
        for bulk in (1, 0):
            m = _Machine(board, method)
            m.st[k.BULK] = bulk
            dirs, tiles = np.zeros(97, dtype=np.uint8), np.zeros(97, np.int64)
            d_parts, t_parts = [], []
            played, cap = 0, 6 * sum(shape) ** 3
            while not m.finished and played < cap:
                done = m.run(97, 2, dirs, tiles)
                played += done
                d_parts.append(dirs[:done].copy())
                t_parts.append(tiles[:done].copy())
            assert m.finished
            moves.append(np.concatenate(d_parts))
            pushed.append(np.concatenate(t_parts))
        assert np.array_equal(moves[0], moves[1]) and np.array_equal(pushed[0], pushed[1])
        replay_directions(board, moves[0])
        if board.size <= 100:
            assert board.apply(pushed[0].tolist()).is_goal()


@pytest.mark.parametrize("transposed", [0, 1])
def test_the_greedy_walk_is_the_monotone_path_whose_tiles_gain_most(transposed):
    """``best_staircase`` against every monotone path of small rectangles (exact), and on a large
    one its first 32 steps against every other way of taking 32 monotone steps there."""
    from npuzzle._kernels import realtime as k

    rng = np.random.default_rng(7 + transposed)
    h, w = 9, 11
    cells = rng.permutation(h * w).astype(np.int32)
    st = np.zeros(k.STATE_SIZE, np.int64)
    st[k.H], st[k.W], st[k.TR] = h, w, transposed
    def walked(bi, bj, steps):  # the gains of virtual steps, the cells ahead untouched
        total = 0
        for d in steps:
            bi, bj = bi + k.DI[d], bj + k.DJ[d]
            vertical, horizontal = k.step_gains(st, cells, bi, bj, d if d in (k.UP, k.DOWN) else k.DOWN,
                                                d if d in (k.LEFT, k.RIGHT) else k.RIGHT)
            total += vertical if d in (k.UP, k.DOWN) else horizontal
        return total

    vh, vw = (w, h) if transposed else (h, w)
    for bi, bj, xi, xj in ((1, 1, 5, 6), (vh - 1, vw - 2, 2, 1), (4, 0, 0, 4)):
        a, b = abs(xi - bi), abs(xj - bj)
        vd, hd = (k.DOWN if xi > bi else k.UP), (k.RIGHT if xj > bj else k.LEFT)
        pat = np.zeros(k.PAT_SIZE, np.int64)
        n = k.best_staircase(st, cells, pat, bi, bj, a, b, vd, hd)
        assert n == a + b
        got = walked(bi, bj, pat[:n] ^ transposed)  # pat holds real directions
        best = max(walked(bi, bj, [vd if c in rows else hd for c in range(a + b)])
                   for rows in map(set, itertools.combinations(range(a + b), a)))
        assert got == best == k.staircase_gain(st, cells, bi, bj, a, b, vd, hd)
    # a rectangle of more than WALK_CELLS cells: the best first 32 steps, planned again later
    big = 200
    cells = rng.permutation(big * big).astype(np.int32)
    st[k.H], st[k.W] = big, big
    pat = np.zeros(k.PAT_SIZE, np.int64)
    assert (big - 1) ** 2 > k.WALK_CELLS
    n = k.best_staircase(st, cells, pat, 0, 0, big - 1, big - 1, k.DOWN, k.RIGHT)
    assert n == k.PATTERN_SIZE and set((pat[:n] ^ transposed).tolist()) <= {k.DOWN, k.RIGHT}
    got = walked(0, 0, pat[:n] ^ transposed)
    assert all(walked(0, 0, [k.DOWN] * downs + [k.RIGHT] * (n - downs)) <= got for downs in range(n + 1))
    assert all(walked(0, 0, rng.choice([k.DOWN, k.RIGHT], size=n)) <= got for _ in range(500))
