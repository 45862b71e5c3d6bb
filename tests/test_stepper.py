"""The vectorised stepper against ``Board.push``, move by move, on square and non-square boards."""

from __future__ import annotations

import numpy as np
import pytest

from npuzzle import Board
from npuzzle.errors import IllegalMoveError, InvalidBoardError, InvalidOptionError
from npuzzle.search.stepper import ACTIONS, Boards

SHAPES = [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 3), (3, 5), (4, 4), (5, 7)]


def _pushed(board: Board, action: int) -> Board | None:
    try:
        return board.push(ACTIONS[action])
    except IllegalMoveError:
        return None


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("goal", ["standard", "blank-first"])
def test_each_step_is_board_push(shape, goal):
    h, w = shape
    rng = np.random.default_rng(h * 10 + w)
    boards = Boards(h, w, count=8, goal=goal)
    expected = [Board.goal(h, w, goal)] * 8
    for _ in range(60):
        actions = rng.integers(0, 4, 8)
        legal = boards.legal()
        moved = boards.step(actions)
        for i, a in enumerate(actions.tolist()):
            after = _pushed(expected[i], a)
            assert moved[i] == (after is not None) == legal[i, a]
            expected[i] = after or expected[i]
            assert boards.board(i) == expected[i]
            assert boards.manhattan[i] == expected[i].manhattan(goal)
            assert boards.solved()[i] == expected[i].is_goal(goal)


@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (4, 3)])
def test_apply_runs_rows_of_actions_skipping_illegal_ones(shape):
    h, w = shape
    rng = np.random.default_rng(5)
    actions = rng.integers(0, 4, (5, 30))
    boards = Boards(h, w, count=5)
    moved = boards.apply(actions)
    for i in range(5):
        board, count = Board.goal(h, w), 0
        for a in actions[i].tolist():
            after = _pushed(board, a)
            if after is not None:
                board, count = after, count + 1
        assert boards.board(i) == board and moved[i] == count


def test_scramble_is_a_seeded_walk_that_never_undoes_a_move():
    a, b = Boards(4, 4, count=50), Boards(4, 4, count=50)
    seeds = np.arange(50, dtype=np.uint64)
    a.scramble(40, seeds)
    b.scramble(40, seeds)
    assert np.array_equal(a.tiles, b.tiles)
    c = Boards(4, 4, count=50)
    c.scramble(40, seeds + np.uint64(1))
    assert not np.array_equal(a.tiles, c.tiles)
    for i in range(50):
        board = a.board(i)
        assert board.is_solvable() and board.manhattan() == a.manhattan[i]
    # a walk of one move on 2x2: two choices from the goal; never back to the goal after two moves
    two = Boards(2, 2, count=64)
    two.scramble(2, np.arange(64, dtype=np.uint64))
    assert not two.solved().any()


def test_from_boards_and_reset():
    start = [Board(2, 3, (1, 2, 3, 4, 0, 5)), Board(2, 3, (0, 1, 2, 3, 4, 5))]
    boards = Boards.from_boards(start)
    assert [boards.board(i) for i in range(2)] == start
    assert boards.manhattan.tolist() == [b.manhattan() for b in start]
    boards.reset(np.array([True, False]))
    assert boards.board(0).is_goal() and boards.board(1) == start[1]


def test_bad_input_is_refused():
    boards = Boards(3, 3, count=2)
    with pytest.raises(InvalidOptionError):
        boards.step([0])
    with pytest.raises(InvalidOptionError):
        boards.step([0, 4])
    with pytest.raises(InvalidOptionError):
        boards.step([0.5, 1.0])
    with pytest.raises(InvalidOptionError):
        Boards(3, 3, count=0)
    with pytest.raises(InvalidBoardError):
        Boards(65, 65)
    with pytest.raises(InvalidBoardError):
        Boards.from_boards([Board.goal(3, 3), Board.goal(2, 2)])
