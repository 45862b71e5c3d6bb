"""Any goal board, solved against the standard goal: a symmetry of the rectangle that takes the
goal's blank to the bottom-right corner, then a relabelling of the tiles that turns the goal into
the standard one. Both keep every distance (a tile's name does not change how it moves, and a
mirror image of a board is as far from the mirror image of its goal), so every heuristic, table
and search of the standard goal answers for the custom one; the moves are named back in the
original tiles and replayed against the custom goal.

When the goal's blank is not in a corner but the position's is, the frame is taken from the
position instead: the search runs from the goal to the position, and the moves are read backwards
(pushing the same tiles in reverse order undoes a path).

>>> goal = Board(3, 3, (1, 2, 3, 8, 0, 4, 7, 6, 5))      # the blank in the middle
>>> start = Board(3, 3, (2, 8, 3, 1, 6, 4, 7, 0, 5))     # ... and in a side cell
>>> frame_for(start, goal) is None                       # no corner: no frame (a distance table answers)
True
>>> f = frame_for(Board(3, 3, (0, 1, 2, 3, 4, 5, 6, 7, 8)), Board(3, 3, (2, 1, 0, 5, 4, 3, 8, 7, 6)))
>>> f.apply(Board(3, 3, (2, 1, 0, 5, 4, 3, 8, 7, 6))).is_goal()
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Board, Goal, goal_tiles


@dataclass(frozen=True)
class Frame:
    """A cell map (a symmetry of the rectangle) and a tile relabelling that take one board (the
    frame's anchor) to the standard goal; ``reverse`` if the anchor is the position, not the goal.
    The one way every search maps a position onto the goal whose tables it reads
    (``search.problem``): a goal board's frame, the 180-degree turn onto the other convention
    (``turned``), or one then the other (``then``). ``note`` is what an answer says of it."""

    cells: tuple[int, ...]  # cells[c]: where cell c goes
    labels: tuple[int, ...]  # labels[t]: the new name of tile t (0 stays 0)
    reverse: bool
    note: str = ""

    def then(self, other: Frame) -> Frame:
        """This frame followed by ``other`` (which does not reverse)."""
        return Frame(tuple(other.cells[c] for c in self.cells), tuple(other.labels[t] for t in self.labels),
                     self.reverse, "; ".join(n for n in (self.note, other.note) if n))

    def apply(self, board: Board) -> Board:
        """``board`` moved by the symmetry and relabelled."""
        tiles = [0] * board.size
        for c, t in enumerate(board.tiles):
            tiles[self.cells[c]] = self.labels[t]
        return Board(board.height, board.width, tuple(tiles))

    def original_tiles(self, moves: tuple[int, ...]) -> tuple[int, ...]:
        """Tiles pushed in the framed search, named as in the original boards."""
        back = [0] * len(self.labels)
        for t, new in enumerate(self.labels):
            back[new] = t
        named = tuple(back[m] for m in moves)
        return named[::-1] if self.reverse else named


def turned(size: int, goal: Goal, note: str = "") -> Frame:
    """The turn by 180 degrees with tiles renamed x -> N - x (``Board.converted``), which takes a
    position of one goal convention onto the other, ``goal``, at the same distance.

    >>> b = Board(2, 3, (1, 2, 3, 4, 0, 5))
    >>> turned(6, "blank-first").apply(b) == b.converted()
    True
    """
    del goal  # the frame is its own inverse: the same map onto either convention
    return Frame(tuple(range(size - 1, -1, -1)), (0, *range(size - 1, 0, -1)), False, note)


def _symmetry(height: int, width: int, blank: int) -> tuple[int, ...] | None:
    """The cell map of the mirror (left-right, up-down, or both) taking corner ``blank`` to the
    bottom-right corner; None if ``blank`` is not a corner."""
    r, c = divmod(blank, width)
    if r not in (0, height - 1) or c not in (0, width - 1):
        return None
    flip_r, flip_c = r == 0, c == 0
    return tuple(
        (height - 1 - q // width if flip_r else q // width) * width + (width - 1 - q % width if flip_c else q % width)
        for q in range(height * width)
    )


def _frame(anchor: Board, reverse: bool) -> Frame | None:
    cells = _symmetry(anchor.height, anchor.width, anchor.blank)
    if cells is None:
        return None
    standard = goal_tiles(anchor.size)
    labels = [0] * anchor.size
    for c, t in enumerate(anchor.tiles):
        labels[t] = standard[cells[c]]
    return Frame(cells, tuple(labels), reverse)


def goal_frame(goal: Board) -> Frame | None:
    """The frame that takes ``goal`` to the standard goal, the same for every position; None if
    its blank is off the corners."""
    return _frame(goal, False)


def renamed(goal: Board) -> Frame:
    """The tiles of ``goal`` renamed 1..N-1 row by row around its blank, which stays where it is:
    the frame onto the distance table of the goal's blank cell (``search.bfs.goal_board``), for a
    goal whose blank is off the corners.

    >>> renamed(Board(2, 3, (5, 0, 1, 2, 3, 4))).apply(Board(2, 3, (5, 0, 1, 2, 3, 4))).tiles
    (1, 0, 2, 3, 4, 5)
    """
    labels = [0] * goal.size
    for c, t in enumerate(goal.tiles):
        if t:
            labels[t] = c + (c < goal.blank)
    return Frame(tuple(range(goal.size)), tuple(labels), False)


def frame_for(board: Board, goal: Board) -> Frame | None:
    """A frame that takes ``goal`` to the standard goal (or, failing that, ``board``, searching
    backwards); None if neither has its blank in a corner."""
    return _frame(goal, False) or _frame(board, True)


def corner_path(board: Board) -> tuple[int, ...]:
    """The tiles pushed to take the blank to its nearest corner, straight down (or up), then
    across: as few moves as any path there.

    >>> corner_path(Board(3, 4, (1, 2, 3, 4, 5, 0, 6, 7, 8, 9, 10, 11)))
    (9, 8)
    """
    h, w = board.shape
    r, c = divmod(board.blank, w)
    row = 0 if r < h - 1 - r else h - 1
    col = 0 if c < w - 1 - c else w - 1
    cells = [q * w + c for q in (range(r - 1, row - 1, -1) if row < r else range(r + 1, row + 1))]
    cells += [row * w + q for q in (range(c - 1, col - 1, -1) if col < c else range(c + 1, col + 1))]
    moves, current = [], board
    for cell in cells:
        tile = current.tiles[cell]
        moves.append(tile)
        current = current.move(tile)
    return tuple(moves)


def cancelled(moves: tuple[int, ...]) -> tuple[int, ...]:
    """``moves`` without the pairs that undo each other (a tile pushed twice in a row goes back).

    >>> cancelled((5, 6, 6, 5, 7))
    (7,)
    """
    kept: list[int] = []
    for tile in moves:
        if kept and kept[-1] == tile:
            kept.pop()
        else:
            kept.append(tile)
    return tuple(kept)
