"""A vectorised stepper: many boards of one shape, each moved by its own action, in one kernel
call (no Python per board or per move), for training loops and data sets.

Actions are ``board.Direction``'s letters in the order ``U, D, L, R`` (numbered 0..3): the way
the *pushed tile* slides, as in a solution's letters; an action no tile can take leaves its board
as it was and is reported as not moved. Each board's Manhattan distance is kept up to date move
by move, so ``solved`` costs nothing.

>>> boards = Boards(3, 3, count=2)
>>> boards.step([ACTIONS.index("D"), ACTIONS.index("U")]).tolist()  # the blank is bottom right
[True, False]
>>> boards.board(0).tiles, boards.solved().tolist()
((1, 2, 3, 4, 5, 0, 7, 8, 6), [False, True])
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from ..board import Board, Goal, check_goal, check_shape
from ..errors import InvalidBoardError, InvalidOptionError, InvalidTypeError, quote_input
from ..geometry import DOWN, LEFT, MAX_MD_TABLE_CELLS, RIGHT, UP, geometry
from ..instances import check_walk

#: The actions, numbered 0..3: the letters of ``board.Direction`` (``a ^ 1`` undoes ``a``).
ACTIONS = "UDLR"
#: The blank's step (``geometry`` numbering) for each action: U slides a tile up, the blank down.
_BLANK_STEP = (DOWN, UP, RIGHT, LEFT)
#: The most cells of a board the stepper moves (its Manhattan table has cells x cells entries).
MAX_CELLS = MAX_MD_TABLE_CELLS
#: The most tiles the boards of one ``Boards`` hold (count x cells; a byte or two each).
MAX_TILES = 1 << 28
#: The most moves one ``scramble`` call makes in all (count x length; about 20 CPU seconds, and a
#: kernel call cannot be interrupted; a data set's chunk of walks of ``MAX_WALK`` moves fits).
MAX_SCRAMBLE_MOVES = 1 << 31
#: Seeds of walks are whole numbers from 0 to this.
MAX_SEED = (1 << 64) - 1


@functools.cache
def action_table(height: int, width: int) -> np.ndarray:
    """``act[cell * 4 + a]``: the blank's cell after action ``a`` from ``cell``, or -1."""
    nbr = geometry(height, width).nbr.reshape(-1, 4)
    return np.ascontiguousarray(nbr[:, list(_BLANK_STEP)].reshape(-1))


def tile_dtype(cells: int) -> type[np.unsignedinteger]:
    """The smallest unsigned type that holds a tile of a board of ``cells`` cells."""
    return np.uint8 if cells <= 256 else np.uint16


def check_stepper_shape(height: int, width: int) -> None:
    check_shape(height, width)
    if height * width > MAX_CELLS:
        raise InvalidBoardError(f"a {height}x{width} board is too large for the stepper: at most {MAX_CELLS:,} "
                                "cells (64x64)")


class Boards:
    """``count`` boards of ``height x width``, all at the goal to start with (or ``from_boards``).

    ``tiles`` (count x cells, row-major, 0 the blank), ``blanks`` and ``manhattan`` are numpy
    arrays the stepper updates in place; read them, do not write them (``set``, ``reset`` and
    ``scramble`` change boards)."""

    def __init__(self, height: int, width: int, count: int = 1, goal: Goal = "standard") -> None:
        check_stepper_shape(height, width)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise InvalidOptionError(f"count={quote_input(count)}: give a number of boards, at least 1")
        if count * height * width > MAX_TILES:
            raise InvalidOptionError(f"count={quote_input(count)}: {height}x{width} boards hold at most "
                                     f"{MAX_TILES // (height * width):,} at once")
        self.height, self.width, self.goal = height, width, check_goal(goal)
        g = geometry(height, width, goal)
        self._act = action_table(height, width)
        self._mdt = g.md
        goal_tiles = Board.goal(height, width, goal).tiles
        self._goal = np.array(goal_tiles, dtype=tile_dtype(g.size))
        self.tiles = np.tile(self._goal, (count, 1))
        self.blanks = np.full(count, goal_tiles.index(0), dtype=np.int64)
        self.manhattan = np.zeros(count, dtype=np.int64)

    @classmethod
    def from_boards(cls, boards: Sequence[Board], goal: Goal = "standard") -> Boards:
        """Boards holding these positions (all of one shape)."""
        if not boards or not all(isinstance(b, Board) for b in boards):
            raise InvalidTypeError("give one Board or more")
        out = cls(boards[0].height, boards[0].width, len(boards), goal)
        out.set(np.arange(len(boards)), boards)
        return out

    def __len__(self) -> int:
        return int(self.tiles.shape[0])

    def board(self, i: int) -> Board:
        """Board ``i`` as a ``Board``."""
        return Board(self.height, self.width, tuple(int(t) for t in self.tiles[i]))

    def set(self, indices: np.ndarray | Sequence[int], boards: Sequence[Board]) -> None:
        """Put ``boards[k]`` in place of board ``indices[k]``."""
        try:
            where = np.asarray(indices)
        except (ValueError, TypeError, OverflowError):  # ragged, numbers too large
            where = np.asarray(None)
        if where.ndim != 1 or not (where.size == 0 or np.issubdtype(where.dtype, np.integer)):
            raise InvalidOptionError(f"indices: give a list of board numbers, not an array of shape {where.shape}")
        if isinstance(boards, str | bytes) or not isinstance(boards, Sequence) or len(boards) != where.size:
            raise InvalidOptionError(f"give one board per index ({where.size})")
        if where.size and (int(where.min()) < 0 or int(where.max()) >= len(self)):
            bad = int(where.min()) if int(where.min()) < 0 else int(where.max())
            raise InvalidOptionError(f"board number {bad}: there are {len(self)} boards, numbered 0..{len(self) - 1}")
        for b in boards:
            if not isinstance(b, Board):
                raise InvalidTypeError(f"{quote_input(b)}: give Boards")
        for i, b in zip(where.tolist(), boards, strict=True):
            if b.shape != (self.height, self.width):
                raise InvalidBoardError(f"a {b.height}x{b.width} board among {self.height}x{self.width} ones")
            self.tiles[i] = b.tiles
            self.blanks[i] = b.blank
            self.manhattan[i] = b.manhattan(self.goal)

    def reset(self, mask: np.ndarray | None = None) -> None:
        """Put the goal on every board (or those where ``mask`` is true)."""
        rows = slice(None) if mask is None else np.asarray(mask, dtype=bool)
        self.tiles[rows] = self._goal
        self.blanks[rows] = int(np.flatnonzero(self._goal == 0)[0])
        self.manhattan[rows] = 0

    def step(self, actions: np.ndarray | Sequence[int]) -> np.ndarray:
        """Action ``actions[i]`` (0..3, ``ACTIONS``) on board ``i``; whether a tile slid (bool)."""
        from .._kernels.stepper import step

        moved = np.empty(len(self), dtype=np.uint8)
        step(self.tiles, self.blanks, self.manhattan, self._actions(actions, 1), self._act, self._mdt, moved)
        return moved.view(bool)

    def apply(self, actions: np.ndarray | Sequence[Sequence[int]]) -> np.ndarray:
        """Row ``i`` of the 2-D ``actions`` on board ``i``, in turn (illegal ones skipped); how
        many tiles slid on each board."""
        from .._kernels.stepper import steps

        moved = np.empty(len(self), dtype=np.int64)
        steps(self.tiles, self.blanks, self.manhattan, self._actions(actions, 2), self._act, self._mdt, moved)
        return moved

    def scramble(self, length: int, seeds: np.ndarray, last: np.ndarray | None = None) -> np.ndarray:
        """``length`` random moves on each board (never undoing the previous one), board ``i``'s
        drawn from ``seeds[i]`` (uint64; the same seed, the same walk). Returns the last action of
        each board (-1 if none); ``last`` continues walks (their last actions are not undone)."""
        from .._kernels.stepper import random_walk

        check_walk(length, "length")
        if length * len(self) > MAX_SCRAMBLE_MOVES:
            raise InvalidOptionError(f"length={length:,} on {len(self):,} boards: at most {MAX_SCRAMBLE_MOVES:,} "
                                     "moves in all at once (scramble in parts)")
        seeds = _seeds(seeds, len(self))
        if last is None:
            prev = np.full(len(self), -1, np.int64)
        else:
            prev = np.asarray(last)
            if prev.shape != (len(self),) or not np.issubdtype(prev.dtype, np.integer) or (
                    prev.size and (int(prev.min()) < -1 or int(prev.max()) > 3)):
                raise InvalidOptionError(f"last: give one action (0..3, or -1 for none) per board ({len(self)})")
            prev = prev.astype(np.int64)
        random_walk(self.tiles, self.blanks, self.manhattan, seeds, length, self._act, self._mdt, prev)
        return prev

    def solved(self) -> np.ndarray:
        """Whether each board is at the goal (bool)."""
        done: np.ndarray = self.manhattan == 0
        return done

    def legal(self) -> np.ndarray:
        """``legal[i, a]``: whether action ``a`` moves a tile on board ``i`` (bool, count x 4)."""
        legal: np.ndarray = self._act.reshape(-1, 4)[self.blanks] >= 0
        return legal

    def _actions(self, actions: np.ndarray | Sequence[int] | Sequence[Sequence[int]], ndim: int) -> np.ndarray:
        try:
            a = np.asarray(actions)
        except (ValueError, TypeError, OverflowError):  # ragged rows, numbers too large
            a = np.asarray(None)
        if a.ndim != ndim or a.shape[0] != len(self) or not np.issubdtype(a.dtype, np.integer):
            raise InvalidOptionError(f"give {'one action' if ndim == 1 else 'a row of actions'} per board "
                                     f"({len(self)}) as whole numbers 0..3, not an array of shape {a.shape}")
        if a.size and (a.min() < 0 or a.max() > 3):
            raise InvalidOptionError("actions are 0..3 (U, D, L, R)")
        return np.ascontiguousarray(a, dtype=np.int64)


def _seeds(seeds: np.ndarray | Sequence[int], count: int) -> np.ndarray:
    """The walks' seeds as uint64, one per board, each a whole number from 0 to ``MAX_SEED``."""
    given = np.asarray(seeds, dtype=object) if not isinstance(seeds, np.ndarray) else seeds
    if given.shape != (count,):
        raise InvalidOptionError(f"give one seed per board ({count}), not an array of shape {given.shape}")
    if given.dtype != object and not np.issubdtype(given.dtype, np.integer):
        raise InvalidOptionError(f"seeds are whole numbers from 0 to 2**64-1, not {given.dtype}")
    for s in given.tolist() if given.dtype == object else ():
        if not isinstance(s, int | np.integer) or isinstance(s, bool) or not 0 <= int(s) <= MAX_SEED:
            raise InvalidOptionError(f"seed {quote_input(s)}: give whole numbers from 0 to 2**64-1")
    if given.dtype != object and given.size and given.dtype.kind == "i" and int(given.min()) < 0:
        raise InvalidOptionError(f"seed {int(given.min())}: give whole numbers from 0 to 2**64-1")
    return np.ascontiguousarray(given.astype(np.uint64) if given.dtype == object else given, dtype=np.uint64)
