"""Admissible lower bounds on the moves to the goal, each in its own module, and the registry
that names them.

``manhattan``, ``linear_conflict``, ``walking_distance``, ``inversion`` and ``pattern_db``
(additive pattern databases) each give a board's value in plain Python and the tables the
kernels read; ``registry`` parses a name such as ``wd+id`` or ``pdb:6-6-3+wd`` (components
combined by max) into one object that every search accepts. Importing this package loads no
numpy or numba.

>>> from npuzzle import Board
>>> from npuzzle.heuristics.registry import evaluate
>>> board = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))  # one of the two hardest 8-puzzles: 31 moves
>>> [evaluate(board, "standard", name) for name in ("manhattan", "lc", "wd", "id", "wd+id")]
[21, 23, 25, 23, 25]
"""

from __future__ import annotations

#: Heuristic names for help texts; ``registry.parse`` accepts every combination by ``+`` too.
HEURISTICS: tuple[str, ...] = ("auto", "manhattan", "lc", "wd", "id", "wd+id", "pdb:PARTITION")
