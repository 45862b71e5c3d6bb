"""Package-wide checks: what ``import npuzzle`` loads, and the examples in the docstrings."""

from __future__ import annotations

import doctest
import importlib
import os
import subprocess
import sys

import pytest

#: Modules whose docstring examples are run as tests.
DOCTESTED = ["npuzzle.board", "npuzzle.notation"]


def test_import_loads_neither_numpy_nor_numba():
    code = "import npuzzle, sys; assert 'numba' not in sys.modules and 'numpy' not in sys.modules"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", DOCTESTED)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module, verbose=False)
    assert attempted > 0 and failed == 0
