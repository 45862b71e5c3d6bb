"""Hypothesis strategies shared by the tests: random boards of random shapes, random move walks."""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st

from npuzzle import Board

#: Shapes every test runs over: square and not, wide and tall.
SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 3), (3, 3), (3, 5), (4, 4), (5, 5)]
GOALS = ["standard", "blank-first"]

#: No deadline: the machine is shared, and tests check results, never time.
checked = settings(deadline=None, max_examples=80)


@st.composite
def boards(draw: st.DrawFn, max_side: int = 7, max_cells: int = 10**9) -> Board:
    """Any board (solvable or not) with 2..max_side rows and columns and at most max_cells cells."""
    height = draw(st.integers(2, max_side))
    width = draw(st.integers(2, min(max_side, max_cells // height)))
    return Board(height, width, tuple(draw(st.permutations(range(height * width)))))


@st.composite
def walks(draw: st.DrawFn, max_side: int = 6, max_moves: int = 30) -> tuple[Board, list[int]]:
    """A board and a legal sequence of tiles to push from it."""
    board = draw(boards(max_side))
    moves = []
    here = board
    for _ in range(draw(st.integers(0, max_moves))):
        tile = draw(st.sampled_from(here.movable_tiles()))
        moves.append(tile)
        here = here.move(tile)
    return board, moves
