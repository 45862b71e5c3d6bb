"""The board model: construction, moves and their letters, goals, conversion, parity, distances."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from naive import bfs_distances, blank_neighbours, goal_tuple, naive_manhattan, naive_solvable
from strategies import GOALS, SHAPES, boards, checked, walks

from npuzzle import Board, Direction, IllegalMoveError, InvalidBoardError, UnsolvableError
from npuzzle.board import goal_tiles, permutation_problem
from npuzzle.errors import InvalidOptionError

SWAPPED_LETTER = {"U": "D", "D": "U", "L": "R", "R": "L"}

# -- construction -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("height", "width", "tiles", "problem"),
    [
        (1, 4, (1, 2, 3, 0), "at least 2 rows and 2 columns, not 1x4"),
        (3, 0, (), "at least 2 rows and 2 columns, not 3x0"),
        (2.0, 2, (1, 2, 3, 0), "height and width must be integers"),
        (2, 2, (1, 2, 0), "a 2x2 board has 4 cells, but 3 tiles were given"),
        (2, 2, (1, 2, 3, 0, 4), "a 2x2 board has 4 cells, but 5 tiles were given"),
        (2, 2, (1, 1, 3, 0), "tile 1 appears twice"),
        (2, 2, (1, 2, 4, 0), "tile 4 is out of range: a board of 4 cells has tiles 0..3"),
        (2, 2, (1, 2, -3, 0), "tile -3 is out of range"),
        (2, 2, (1, 2, 3.0, 0), "tile 3.0 is not a whole number"),
        (2, 2, (1, 2, True, 0), "tile True is not a whole number"),
        (2, 3, (1, 2, 3, 4, 5, 5), "tile 5 appears twice"),
        (2, 3, (1, 2, 3, 4, 5, 7), "tile 7 is out of range"),
    ],
)
def test_invalid_boards_are_rejected_naming_the_problem(height, width, tiles, problem):
    with pytest.raises(InvalidBoardError, match=problem.replace(".", r"\.")):
        Board(height, width, tiles)


def test_missing_tile_is_named():
    # With the count right, a missing tile implies a duplicate or an out-of-range one, which are
    # named first; the check on its own names the gap.
    with pytest.raises(InvalidBoardError, match="appears twice"):
        Board(2, 2, (1, 1, 2, 3))
    assert permutation_problem((3, 1, 0), 4) == "tile 2 is missing"


@checked
@given(boards())
def test_repr_evaluates_back_and_board_is_a_frozen_value(board):
    assert eval(repr(board)) == board
    assert hash(eval(repr(board))) == hash(board)
    assert isinstance(board.tiles, tuple)
    with pytest.raises(dataclasses.FrozenInstanceError):
        board.tiles = board.tiles  # type: ignore[misc]


def test_tiles_given_as_a_list_become_a_tuple():
    board = Board(2, 3, [1, 2, 3, 4, 5, 0])
    assert board.tiles == (1, 2, 3, 4, 5, 0)
    assert board == Board(2, 3, (1, 2, 3, 4, 5, 0))


def test_basic_facts_of_a_non_square_board():
    board = Board(2, 3, (4, 1, 0, 5, 3, 2))
    assert board.size == 6
    assert board.shape == (2, 3)
    assert board.blank == 2
    assert board.position_of(5) == 3
    assert board.rows() == [(4, 1, 0), (5, 3, 2)]
    assert str(board) == "4 1 _\n5 3 2"
    assert str(Board.goal(3, 4)) == " 1  2  3  4\n 5  6  7  8\n 9 10 11  _"


# -- goals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("height", "width"), SHAPES)
@pytest.mark.parametrize("goal", GOALS)
def test_goal_boards(height, width, goal):
    board = Board.goal(height, width, goal)
    assert board.tiles == goal_tuple(height, width, goal)
    assert board.is_goal(goal)
    other = GOALS[1 - GOALS.index(goal)]
    assert not board.is_goal(other)
    assert board.manhattan(goal) == 0
    assert board.blank_distance(goal) == 0
    assert board.permutation_parity(goal) == 0
    assert board.is_solvable(goal)


def test_unknown_goal_is_rejected():
    board = Board.goal(3, 3)
    for call in (board.manhattan, board.is_solvable, board.permutation_parity, board.is_goal):
        with pytest.raises(InvalidOptionError, match="unknown goal 'korf'"):
            call("korf")
    with pytest.raises(InvalidOptionError, match="unknown goal"):
        Board.goal(3, 3, "blank-last")  # type: ignore[arg-type]


# -- moves ------------------------------------------------------------------------------------


def test_direction_letters_name_where_the_pushed_tile_slides():
    # 1 2 3 / 4 _ 5 / 6 7 8: tile 5 is right of the blank, 2 above, 7 below, 4 left.
    board = Board(3, 3, (1, 2, 3, 4, 0, 5, 6, 7, 8))
    assert board.tile_in_direction("L") == 5
    assert board.push("L").tiles == (1, 2, 3, 4, 5, 0, 6, 7, 8)
    assert board.tile_in_direction("R") == 4
    assert board.push("R").tiles == (1, 2, 3, 0, 4, 5, 6, 7, 8)
    assert board.tile_in_direction("U") == 7
    assert board.push("U").tiles == (1, 2, 3, 4, 7, 5, 6, 0, 8)
    assert board.tile_in_direction("D") == 2
    assert board.push("D").tiles == (1, 0, 3, 4, 2, 5, 6, 7, 8)
    assert board.movable_tiles() == (2, 4, 5, 7)  # blank up, left, right, down
    assert [board.direction_of(t) for t in (2, 4, 5, 7)] == [Direction.D, Direction.R, Direction.L, Direction.U]
    assert Direction.L.blank_step == (0, 1)
    assert all(d.opposite.opposite is d and d.opposite is not d for d in Direction)


@checked
@given(boards())
def test_movable_tiles_are_exactly_the_neighbours_of_the_blank(board):
    expected = blank_neighbours(board.tiles, board.height, board.width)
    assert [board.move(t).tiles for t in board.movable_tiles()] == expected
    for t in board.movable_tiles():
        d = board.direction_of(t)
        assert board.tile_in_direction(d) == t
        assert board.push(d) == board.move(t) == board.push(d.value.lower())
        # The tile pushed back slides the opposite way and restores the board.
        assert board.move(t).direction_of(t) is d.opposite
        assert board.move(t).move(t) == board
    for t in set(range(1, board.size)) - set(board.movable_tiles()):
        with pytest.raises(IllegalMoveError, match=f"tile {t} is not next to the blank"):
            board.move(t)


def test_illegal_moves_are_named():
    board = Board.goal(2, 3)  # 1 2 3 / 4 5 _
    with pytest.raises(IllegalMoveError, match="no tile 0 on a 2x3 board"):
        board.move(0)
    with pytest.raises(IllegalMoveError, match="no tile 6 on a 2x3 board"):
        board.move(6)
    with pytest.raises(IllegalMoveError, match="tile 1 is not next to the blank"):
        board.move(1)
    for letter in "UL":  # nothing below or right of the blank
        with pytest.raises(IllegalMoveError, match=f"no tile can slide {letter}"):
            board.push(letter)
    with pytest.raises(IllegalMoveError, match="'X' is not a move"):
        board.push("X")
    with pytest.raises(IllegalMoveError, match="move 3: tile 3 is not next to the blank"):
        board.apply([5, 4, 3])
    with pytest.raises(IllegalMoveError, match="move 3: no tile can slide L"):
        board.apply(["R", "L", "L"])
    with pytest.raises(IllegalMoveError, match="move 1: there is no tile 9"):
        board.apply([9])
    with pytest.raises(IllegalMoveError, match="move 2: tile 1 is not next to the blank"):
        board.letters([5, 1])
    with pytest.raises(IllegalMoveError, match="move 1: no tile can slide U"):
        board.tiles_for("U")


def test_letters_do_not_wrap_around_rows():
    # 1 2 _ / 3 4 5: tile 3 is one cell after the blank row-major, but not beside it.
    board = Board(2, 3, (1, 2, 0, 3, 4, 5))
    with pytest.raises(IllegalMoveError):
        board.letters([3])
    with pytest.raises(IllegalMoveError):
        board.apply([3])
    with pytest.raises(IllegalMoveError):
        board.move(3)


@checked
@given(walks())
def test_apply_letters_and_tiles_for_agree_with_single_moves(walk):
    board, moves = walk
    end = board
    for t in moves:
        end = end.move(t)
    assert board.apply(moves) == end
    letters = board.letters(moves)
    assert len(letters) == len(moves) and set(letters) <= set("UDLR")
    assert board.tiles_for(letters) == tuple(moves)
    assert board.apply(letters) == end
    assert board.apply([Direction(ch) for ch in letters]) == end
    mixed = [m if i % 2 else ch for i, (m, ch) in enumerate(zip(moves, letters, strict=True))]
    assert board.apply(mixed) == end
    # Undoing: the same tiles pushed in reverse order.
    assert end.apply(reversed(moves)) == board


# -- conversion between the goal conventions --------------------------------------------------


@pytest.mark.parametrize(("height", "width"), SHAPES)
def test_conversion_maps_goal_to_goal(height, width):
    standard, blank_first = Board.goal(height, width), Board.goal(height, width, "blank-first")
    assert standard.converted() == blank_first
    assert blank_first.converted() == standard


@checked
@given(boards())
def test_conversion_is_an_involution_keeping_manhattan_and_solvability(board):
    other = board.converted()
    assert other.converted() == board
    assert other.shape == board.shape
    n = board.size
    # Cell p goes to n-1-p and tile x > 0 to n - x.
    assert all(other.tiles[n - 1 - p] == (n - t) % n for p, t in enumerate(board.tiles))
    for goal, converted_goal in (("standard", "blank-first"), ("blank-first", "standard")):
        assert other.manhattan(converted_goal) == board.manhattan(goal)
        assert other.is_solvable(converted_goal) == board.is_solvable(goal)
        assert other.is_goal(converted_goal) == board.is_goal(goal)


@checked
@given(walks())
def test_conversion_maps_moves_to_moves(walk):
    board, moves = walk
    n = board.size
    mapped = [n - t for t in moves]
    assert board.apply(moves).converted() == board.converted().apply(mapped)
    letters = board.letters(moves)
    assert board.converted().letters(mapped) == "".join(SWAPPED_LETTER[ch] for ch in letters)
    for d in Direction:
        try:
            pushed = board.push(d)
        except IllegalMoveError:
            with pytest.raises(IllegalMoveError):
                board.converted().push(d.opposite)
            continue
        assert pushed.converted() == board.converted().push(d.opposite)


@pytest.mark.parametrize(("height", "width"), [(2, 2), (2, 3), (3, 2), (3, 3)])
def test_conversion_keeps_the_distance_to_the_goal(height, width):
    standard = bfs_distances(height, width, "standard")
    blank_first = bfs_distances(height, width, "blank-first")
    states = list(standard)
    if len(states) > 5000:
        states = random.Random(2).sample(states, 5000)
    for tiles in states:
        assert blank_first[Board(height, width, tiles).converted().tiles] == standard[tiles]


# -- solvability ------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("height", "width"), [(2, 2), (2, 3), (3, 2), (3, 3)])
def test_solvable_states_are_exactly_those_bfs_reaches(height, width):
    accepted: dict[str, set] = {goal: set() for goal in GOALS}
    for tiles in itertools.permutations(range(height * width)):
        board = Board(height, width, tiles)
        for goal in GOALS:
            if board.is_solvable(goal):
                accepted[goal].add(tiles)
    for goal in GOALS:
        reached = bfs_distances(height, width, goal)
        assert len(reached) * 2 == math.factorial(height * width)
        assert accepted[goal] == reached.keys()


@checked
@given(boards(max_side=8))
def test_solvability_agrees_with_the_inversion_rule(board):
    for goal in GOALS:
        assert board.is_solvable(goal) == naive_solvable(board.tiles, board.height, board.width, goal)


@checked
@given(boards(), st.sampled_from(GOALS))
def test_unsolvable_positions_say_why(board, goal):
    reason = board.unsolvable_reason(goal)
    if board.is_solvable(goal):
        assert reason is None
        board.require_solvable(goal)
        return
    assert "parit" in reason and goal in reason
    with pytest.raises(UnsolvableError, match="permutation") as caught:
        board.require_solvable(goal)
    assert str(caught.value) == reason
    # Swapping two tiles (not the blank) flips the permutation parity alone: solvable again.
    tiles = list(board.tiles)
    i, j = [k for k, t in enumerate(tiles) if t][:2]
    tiles[i], tiles[j] = tiles[j], tiles[i]
    assert Board(board.height, board.width, tuple(tiles)).is_solvable(goal)


def test_unsolvable_message_for_the_classic_14_15_swap():
    board = Board(4, 4, goal_tiles(16)[:13] + (15, 14, 0))
    assert board.unsolvable_reason() == (
        "unsolvable for the standard goal: the tiles (blank included) are an odd permutation of "
        "the goal, but the blank is 0 moves from its goal cell (even); every move flips both "
        "parities, so they can never both be even as at the goal"
    )


# -- Manhattan distance -----------------------------------------------------------------------


@checked
@given(boards(max_side=8), st.sampled_from(GOALS))
def test_manhattan_matches_the_naive_sum(board, goal):
    assert board.manhattan(goal) == naive_manhattan(board.tiles, board.width, goal)


@pytest.mark.parametrize(("height", "width"), [(2, 3), (3, 2), (2, 4), (3, 3)])
@pytest.mark.parametrize("goal", GOALS)
def test_manhattan_is_a_lower_bound_of_the_same_parity(height, width, goal):
    distances = bfs_distances(height, width, goal)
    states = list(distances)
    if len(states) > 5000:
        states = random.Random(3).sample(states, 5000)
    for tiles in states:
        h = Board(height, width, tiles).manhattan(goal)
        assert h <= distances[tiles] and (distances[tiles] - h) % 2 == 0


# -- big boards -------------------------------------------------------------------------------


def test_a_1000x1000_board_constructs_and_checks_solvability():
    side = 1000
    n = side * side
    # Reversed tiles: the blank sits in its standard goal cell and the other n - 1 tiles are
    # reversed, floor((n - 1) / 2) = 499999 swaps, an odd permutation: unsolvable.
    reversed_board = Board(side, side, tuple(range(n - 1, -1, -1)))
    assert reversed_board.blank_distance() == 0
    assert reversed_board.permutation_parity() == 1
    assert not reversed_board.is_solvable()
    # A scrambled board (tile at cell p: 7919 p mod n, a permutation as 7919 is prime to n):
    # swapping two tiles flips solvability and a move keeps it.
    tiles = [7919 * p % n for p in range(n)]
    board = Board(side, side, tiles)
    solvable = board.is_solvable()
    tiles[1], tiles[2] = tiles[2], tiles[1]
    assert Board(side, side, tiles).is_solvable() != solvable
    assert board.move(board.movable_tiles()[0]).is_solvable() == solvable
