"""Package-wide checks: what ``import npuzzle`` loads, the examples in every docstring and in the
README, and the files a user of the package relies on."""

from __future__ import annotations

import ast
import doctest
import importlib
import inspect
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

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


def _defined(module: Any) -> set[str]:
    """The names a module's own top level defines (functions, classes, assignments)."""
    names = set()
    for node in ast.parse(inspect.getsource(module)).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def _run_traced(test: doctest.DocTest, filename: str) -> tuple[doctest.TestResults, set[str], str]:
    """Run one docstring's examples; also the functions of ``filename`` they called and the report."""
    called: set[str] = set()
    report: list[str] = []

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code.co_filename == filename and frame.f_code.co_name != "<module>":
            called.add(frame.f_code.co_qualname)

    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS, verbose=False)
    sys.setprofile(profile)
    try:
        results = runner.run(test, out=report.append)
    finally:
        sys.setprofile(None)
    return results, called, "".join(report)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    """Every module but the exempt ones has an example, and every example passes. Each docstring's
    examples check something and exercise the module: at least one shows the output (or the error)
    it must give, and they name what the docstring documents (for a module's own docstring, a name
    the module defines; for a package's, also the package or one of its modules) or call a function
    of the module's file (an example that only imports, or that runs other modules' code, passes
    whatever the module does)."""
    module = importlib.import_module(name)
    filename = module.__file__
    attempted = 0
    for test in doctest.DocTestFinder().find(module):
        if not test.examples:
            continue
        results, called, report = _run_traced(test, filename)
        assert results.failed == 0, report
        attempted += results.attempted
        shown = [e for e in test.examples if e.want.strip() or e.exc_msg]
        assert shown, f"{test.name}: no example shows an output or an error, so none checks anything"
        words = set(re.findall(r"[A-Za-z_]\w*", "\n".join(e.source + e.want for e in test.examples)))
        own = _defined(module) if test.name == name else {test.name.rsplit(".", 1)[1]}
        if test.name == name and hasattr(module, "__path__"):  # a package: itself and its modules
            own |= {name.rsplit(".", 1)[-1], *(m.name for m in pkgutil.iter_modules(module.__path__))}
        assert own & words or called, (f"{test.name}: its examples neither name {sorted(own)[:5]} nor call a "
                                       f"function of {filename}")
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

