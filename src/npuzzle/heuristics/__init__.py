"""Admissible lower bounds on the moves to the goal, each in its own module, and the registry
that names them.

``manhattan``, ``linear_conflict``, ``walking_distance``, ``inversion`` and ``pattern_db``
(additive pattern databases) each give a board's value in plain Python and the tables the
kernels read; ``registry`` parses a name such as ``wd+id`` or ``pdb:6-6-3+wd`` (components
combined by max) into one object that every search accepts. Importing this package loads no
numpy or numba.
"""

from __future__ import annotations

#: Heuristic names for help texts; ``registry.parse`` accepts every combination by ``+`` too.
HEURISTICS: tuple[str, ...] = ("auto", "manhattan", "lc", "wd", "id", "wd+id", "pdb:PARTITION")
