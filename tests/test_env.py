"""The Gymnasium environment: Gymnasium's own checker, seeding, actions as ``Board.push``,
rewards against BFS distances, truncation, on square and non-square boards."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from naive import bfs_distances  # noqa: E402

import npuzzle.env  # noqa: E402,F401  (registers the environment)
from npuzzle import Board  # noqa: E402
from npuzzle.env import ENV_ID, SlidingPuzzleEnv  # noqa: E402
from npuzzle.errors import IllegalMoveError, InvalidOptionError  # noqa: E402

SHAPES = [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 3), (3, 5), (4, 4), (6, 6)]


@pytest.mark.parametrize("shape", SHAPES)
def test_passes_gymnasiums_checker(shape):
    env = gymnasium.make(ENV_ID, shape=shape)
    check_env(env.unwrapped, skip_render_check=False)
    obs, info = env.reset(seed=3)
    assert obs.shape == shape and env.observation_space.contains(obs)
    assert sorted(obs.reshape(-1).tolist()) == list(range(shape[0] * shape[1]))
    assert Board(*shape, tuple(obs.reshape(-1).tolist())).is_solvable()


def test_reward_distance_passes_the_checker():
    check_env(gymnasium.make(ENV_ID, shape=(3, 3), reward="distance").unwrapped)


def test_seeding_as_gymnasium_specifies():
    a, b = SlidingPuzzleEnv((4, 4)), SlidingPuzzleEnv((4, 4))
    first = [a.reset(seed=9)[0].tolist()] + [a.reset()[0].tolist() for _ in range(3)]
    second = [b.reset(seed=9)[0].tolist()] + [b.reset()[0].tolist() for _ in range(3)]
    assert first == second and len({str(x) for x in first}) == 4
    assert a.reset(seed=10)[0].tolist() != first[0]


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (4, 4), (3, 5)])
def test_actions_are_board_push_and_the_mask_is_right(shape):
    env = SlidingPuzzleEnv(shape, scramble=12)
    obs, info = env.reset(seed=1)
    board = Board(*shape, tuple(obs.reshape(-1).tolist()))
    rng = np.random.default_rng(0)
    for _ in range(40):
        a = int(rng.integers(0, 4))
        try:
            after = board.push("UDLR"[a])
        except IllegalMoveError:
            after = None
        assert info["action_mask"][a] == (after is not None)
        obs, reward, terminated, truncated, info = env.step(a)
        board = after or board
        assert tuple(obs.reshape(-1).tolist()) == board.tiles and reward == -1.0
        assert info["moved"] == (after is not None) and terminated == board.is_goal()
        if terminated:
            break


@pytest.mark.parametrize("shape", [(2, 3), (3, 3), (2, 4)])
def test_distance_reward_is_the_change_in_bfs_distance(shape):
    dist = bfs_distances(*shape)
    env = SlidingPuzzleEnv(shape, reward="distance")
    obs, info = env.reset(seed=4)
    assert info["distance"] == dist[tuple(obs.reshape(-1).tolist())]
    rng = np.random.default_rng(1)
    for _ in range(30):
        before = dist[tuple(obs.reshape(-1).tolist())]
        obs, reward, terminated, _, info = env.step(int(rng.integers(0, 4)))
        now = dist[tuple(obs.reshape(-1).tolist())]
        assert info["distance"] == now
        assert reward == (before - now if info["moved"] else -1.0)
        if terminated:
            break


def test_truncation_and_start_options():
    env = SlidingPuzzleEnv((3, 3), max_steps=3)
    env.reset(seed=0, options={"position": "1 2 3/4 5 6/7 0 8"})
    assert env.step(2)[2:4] == (True, False)  # L slides 8 left: solved
    env.reset(seed=0, options={"position": Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))})
    flags = [env.step(1)[2:4] for _ in range(3)]
    assert flags == [(False, False), (False, False), (False, True)]
    obs, _ = env.reset(seed=0, options={"walk": 1})
    assert Board(3, 3, tuple(obs.reshape(-1).tolist())).manhattan() == 1


def test_render_and_bad_options():
    env = SlidingPuzzleEnv((2, 3), render_mode="ansi")
    env.reset(seed=1)
    assert env.render() == str(env.board)
    with pytest.raises(InvalidOptionError):
        SlidingPuzzleEnv((5, 5), reward="distance")
    with pytest.raises(InvalidOptionError):
        SlidingPuzzleEnv((3, 3), reward="shaped")
    with pytest.raises(InvalidOptionError):
        SlidingPuzzleEnv((3, 3), scramble=-1)
    with pytest.raises(InvalidOptionError):
        env.step(4)
