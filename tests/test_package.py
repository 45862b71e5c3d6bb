"""Package-wide checks: what ``import npuzzle`` loads, the examples in every docstring and in the
README, and the files a user of the package relies on."""

from __future__ import annotations

import doctest
import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import npuzzle

REPO = Path(__file__).resolve().parents[1]

#: Every module of the package but the numba kernels (private, no examples) and the
#: ``__main__`` modules (importing one runs the command line).
MODULES = sorted(m.name for m in pkgutil.walk_packages(npuzzle.__path__, "npuzzle.")
                 if "._kernels" not in m.name and not m.name.endswith("__main__"))


def test_import_loads_neither_numpy_nor_numba():
    code = "import npuzzle, sys; assert 'numba' not in sys.modules and 'numpy' not in sys.modules"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_every_module_is_doctested():
    assert {"npuzzle.board", "npuzzle.notation", "npuzzle.heuristics.inversion", "npuzzle.search.idastar"} <= set(
        MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failed, _ = doctest.testmod(module, verbose=False, optionflags=doctest.ELLIPSIS)
    assert failed == 0


def test_examples_exist_where_they_teach_the_most():
    for name in ("npuzzle", "npuzzle.board", "npuzzle.notation", "npuzzle.heuristics.inversion"):
        _, attempted = doctest.testmod(importlib.import_module(name), verbose=False)
        assert attempted > 0, name


def test_readme_python_example():
    failed, attempted = doctest.testfile(str(REPO / "README.md"), module_relative=False,
                                         optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failed == 0


def test_the_package_is_typed():
    assert (Path(npuzzle.__file__).parent / "py.typed").is_file()

