"""A Gymnasium environment of sliding-tile puzzles (``pip install 'npuzzle[env]'``).

Importing this module registers ``npuzzle/SlidingPuzzle-v0``::

    import gymnasium
    import npuzzle.env  # noqa: F401 (registers the environment)
    env = gymnasium.make("npuzzle/SlidingPuzzle-v0", shape=(4, 4))
    observation, info = env.reset(seed=1)
    observation, reward, terminated, truncated, info = env.step(env.action_space.sample())

>>> import gymnasium
>>> env = gymnasium.make("npuzzle/SlidingPuzzle-v0", shape=(2, 3))
>>> observation, info = env.reset(seed=1)
>>> sorted(observation.flatten().tolist()), env.action_space
([0, 1, 2, 3, 4, 5], Discrete(4))

- Any ``height x width`` board (``shape``: a pair or ``"3x4"``), for the ``standard`` or
  ``blank-first`` goal.
- Observation: the tiles as a ``height x width`` int64 array (0 is the blank).
- Actions: ``Discrete(4)``, npuzzle's move directions ``U, D, L, R`` (0..3, ``board.Direction``:
  the way the pushed tile slides). An action no tile can take leaves the board as it is (and
  still costs a step); ``info["action_mask"]`` marks the legal ones.
- Start: a uniformly random solvable position (``scramble="uniform"``) or the end of a random
  walk of ``scramble`` moves from the goal; ``reset(options={"position": ...})`` starts from a
  given one (a ``Board`` or its text), ``options={"walk": K}`` from a walk of K moves.
- Reward: ``reward="step"``, -1 a step; ``reward="distance"``, the decrease of the optimal
  distance (+1 closer, -1 farther; -1 for an illegal action), where an oracle is available:
  the distance oracle's (``search.oracle``): boards of up to 10 cells (an exact table) or 16 cells
  (IDA* a step: use it on 4x4 with pdb:7-8 built). ``info["distance"]`` is then the optimal distance.
- ``terminated`` when the goal is reached; ``truncated`` after ``max_steps`` steps (default
  ``4 * cells ** 1.5``, at least 50).
- Seeding as Gymnasium specifies: ``reset(seed=...)`` seeds ``self.np_random``, from which every
  start is drawn.

For training loops that step many boards without Python per step, see ``search.stepper.Boards``.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from .arguments import shape_of
from .board import Board, Goal, check_goal
from .dataset import Spec, draw_positions
from .errors import InvalidBoardError, InvalidOptionError, quote_input
from .instances import MAX_WALK
from .notation import parse_position
from .search.oracle import EXACT_CELLS, Oracle
from .search.stepper import ACTIONS, Boards

ENV_ID = "npuzzle/SlidingPuzzle-v0"
REWARDS = ("step", "distance")


class SlidingPuzzleEnv(gymnasium.Env[np.ndarray, np.int64]):
    """The sliding-tile puzzle as a Gymnasium environment (see the module's documentation)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(self, shape: tuple[int, int] | str = (4, 4), *, scramble: str | int = "uniform",
                 reward: str = "step", max_steps: int | None = None, goal: Goal = "standard",
                 render_mode: str | None = None) -> None:
        self.height, self.width = shape_of(shape)
        self.goal = check_goal(goal)
        self.scramble = _check_scramble(scramble)
        self.reward_kind = _check_reward(reward, self.height * self.width)
        cells = self.height * self.width
        self.max_steps = max(50, int(4 * cells ** 1.5)) if max_steps is None else _check_steps(max_steps)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidOptionError(f"render_mode={quote_input(render_mode)}: use 'ansi' or 'human'")
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0, cells - 1, shape=(self.height, self.width), dtype=np.int64)
        self.action_space = spaces.Discrete(len(ACTIONS))
        self._boards = Boards(self.height, self.width, 1, self.goal)
        self._steps = 0
        self._distance = -1
        self._distances: Oracle | None = None

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._boards.set([0], [self._start(options or {})])
        self._steps = 0
        self._distance = self._oracle()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        if not self.action_space.contains(action):
            raise InvalidOptionError(f"action {quote_input(action)}: give 0..3 (U, D, L, R)")
        moved = bool(self._boards.step(np.array([int(action)]))[0])
        self._steps += 1
        reward = -1.0
        if self.reward_kind == "distance" and moved:
            before, self._distance = self._distance, self._oracle()
            reward = float(before - self._distance)
        terminated = bool(self._boards.solved()[0])
        truncated = not terminated and self._steps >= self.max_steps
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, self._info(moved)

    def render(self) -> str | None:
        """The board as text (rows, the blank as ``_``): returned (``ansi``) or printed (``human``)."""
        if self.render_mode == "human":
            print(self.board, end="\n\n")
        return str(self.board) if self.render_mode == "ansi" else None

    @property
    def board(self) -> Board:
        """The position now."""
        return self._boards.board(0)

    def _start(self, options: dict[str, Any]) -> Board:
        if "position" in options:
            given = options["position"]
            board = given if isinstance(given, Board) else parse_position(str(given), (self.height, self.width))
            if board.shape != (self.height, self.width):
                raise InvalidBoardError(f"a {board.height}x{board.width} position for a {self.height}x{self.width} "
                                        "environment")
            board.require_solvable(self.goal)
            return board
        scramble = _check_scramble(options["walk"], "walk") if "walk" in options else self.scramble
        spec = Spec(self.height, self.width, 0, None if isinstance(scramble, str) else scramble, self.goal)
        return Board(self.height, self.width, tuple(draw_positions(self.np_random, 1, spec)[0].tolist()))

    def _oracle(self) -> int:
        if self.reward_kind != "distance":
            return -1
        if self._distances is None:
            self._distances = Oracle(self.height, self.width, self.goal)
        return int(self._distances.exact_many(self._boards.tiles)[0])

    def _observation(self) -> np.ndarray:
        observation: np.ndarray = self._boards.tiles[0].reshape(self.height, self.width).astype(np.int64)
        return observation

    def _info(self, moved: bool | None = None) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._boards.legal()[0].astype(np.int8), "steps": self._steps}
        if moved is not None:
            info["moved"] = moved
        if self._distance >= 0:
            info["distance"] = self._distance
        return info


def _check_scramble(scramble: object, name: str = "scramble") -> str | int:
    if isinstance(scramble, str) and scramble == "uniform":
        return "uniform"
    if isinstance(scramble, int) and not isinstance(scramble, bool) and 0 <= scramble <= MAX_WALK:
        return scramble
    raise InvalidOptionError(f"{name}={quote_input(scramble)}: give 'uniform' or a walk's number of moves "
                             f"(0 to {MAX_WALK:,})")


def _check_reward(reward: object, cells: int) -> str:
    if reward not in REWARDS:
        raise InvalidOptionError(f"reward={quote_input(reward)}: use 'step' (-1 a move) or 'distance'")
    if reward == "distance" and cells > EXACT_CELLS:
        raise InvalidOptionError(f"reward='distance' needs an oracle of the optimal distance: boards of at most "
                                 f"{EXACT_CELLS} cells")
    return str(reward)


def _check_steps(steps: object) -> int:
    if isinstance(steps, int) and not isinstance(steps, bool) and steps >= 1:
        return steps
    raise InvalidOptionError(f"max_steps={quote_input(steps)}: give a number of steps, at least 1")


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="npuzzle.env:SlidingPuzzleEnv")
