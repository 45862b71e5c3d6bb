"""Admissible lower bounds on the moves to the goal, and the registry that names them.

``manhattan`` and ``lc`` (linear conflict) live with the IDA* kernel; ``walking_distance``,
``inversion`` and ``pdb`` (additive pattern databases) build their tables here; ``registry``
parses a heuristic name such as ``wd+id`` or ``pdb:6-6-3+wd`` and prepares the kernel's arrays.
"""
