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

#: The package and every module of it but the ``__main__`` modules (importing one runs the command line).
MODULES = sorted(["npuzzle", *(m.name for m in pkgutil.walk_packages(npuzzle.__path__, "npuzzle.")
                               if not m.name.endswith("__main__"))])

#: The modules that need no example of their own, and why. Every other module's docstrings must
#: hold at least one example, and every example must pass.
NO_EXAMPLE = {
    **{name: "a numba kernel: private, called only by the typed layers (whose examples run it)"
       for name in MODULES if name.startswith("npuzzle._kernels")},
    "npuzzle.cli._batch": "the commands' shared batch bookkeeping: the examples of cmd_check and cmd_solve run it",
    "npuzzle.cli.cmd_warmup": "compiles every kernel (minutes with an empty numba cache); "
                              "tests/test_kernel_cache.py runs its warm-up",
}


def test_import_loads_neither_numpy_nor_numba():
    code = "import npuzzle, sys; assert 'numba' not in sys.modules and 'numpy' not in sys.modules"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_every_module_is_doctested():
    """The list is the package's modules (the walk found them), and each exemption names one."""
    assert {"npuzzle.board", "npuzzle.notation", "npuzzle.search.idastar", "npuzzle.present", "npuzzle.cli",
            "npuzzle._kernels.idastar"} <= set(MODULES)
    assert set(NO_EXAMPLE) <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    """Every module but the exempt ones has an example, and every example passes."""
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module, verbose=False, optionflags=doctest.ELLIPSIS)
    assert failed == 0
    if name in NO_EXAMPLE:
        assert attempted == 0, f"{name} has examples now: take it off NO_EXAMPLE"
    else:
        assert attempted > 0, f"{name} has no example: add one to its docstrings (or a reason to NO_EXAMPLE)"


def test_readme_python_example():
    failed, attempted = doctest.testfile(str(REPO / "README.md"), module_relative=False,
                                         optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failed == 0


def test_the_package_is_typed():
    assert (Path(npuzzle.__file__).parent / "py.typed").is_file()

