"""Sliding puzzles for learning systems: ``task`` makes question, answer and metadata entries
and scores proposed answers by replaying them; ``reasoning_gym`` serves them as reasoning-gym's
``n_puzzle`` data set (registered when reasoning-gym is installed: ``pip install
'npuzzle[reasoning]'``). Importing this package loads nothing else.

>>> from npuzzle.learning.task import DATASET_NAME, SCRAMBLES
>>> DATASET_NAME, SCRAMBLES
('n_puzzle', ('state', 'walk'))
"""
