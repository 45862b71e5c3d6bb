"""numba's on-disk cache sees every change of any kernel file: kernels are cached under a stamp
of all of ``_kernels/``, because a kernel compiles in helpers from other kernel files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from npuzzle._kernels import jit
from npuzzle._kernels.bounds import line_table


def test_the_stamp_changes_with_any_kernel_file(tmp_path):
    for path in jit.KERNEL_DIR.glob("*.py"):
        shutil.copy(path, tmp_path / path.name)
    before = jit.kernels_stamp(tmp_path)
    assert jit.kernels_stamp(tmp_path) == before
    helper = tmp_path / "astar.py"  # not the file of the kernel checked below
    helper.write_text(helper.read_text() + "\n# changed\n")
    assert jit.kernels_stamp(tmp_path) != before


def test_kernels_use_the_package_wide_stamp():
    assert int(line_table(3)[0]) == 0  # compiled (or loaded from the cache)
    locator = line_table._cache._impl.locator
    assert isinstance(locator, jit.KERNEL_LOCATORS)
    assert locator.get_source_stamp() == jit.kernels_stamp()


def test_functions_outside_the_kernels_keep_numbas_own_stamp():
    from numba.core import caching

    def f(x: np.ndarray) -> np.ndarray:
        return x

    assert all(cls.from_function(f, __file__) is None for cls in jit.KERNEL_LOCATORS)
    assert caching.CacheImpl._locator_classes[: len(jit.KERNEL_LOCATORS)] == list(jit.KERNEL_LOCATORS)


@pytest.mark.slow
def test_kernels_that_call_an_iteration_kernel_load_from_the_cache(tmp_path):
    """``ida_lengths`` and ``ida_leaves`` call their mode's iteration kernel: a second process
    loads them from the cache instead of compiling them again."""
    script = """
from npuzzle._kernels.jit import on_first_compile
compiled = []
stop = on_first_compile(lambda: compiled.append(1))
from npuzzle import parse
from npuzzle.instances import random_board
from npuzzle.search.hybrid import astar_idastar
from npuzzle.search.idastar import optimal_lengths
optimal_lengths([random_board(2, 3, s) for s in range(3)], heuristic="lc")
astar_idastar(parse("8 6 7/2 5 4/3 0 1"), heuristic="lc", top_nodes=100)
print("compiled" if compiled else "cached")
"""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    runs = [subprocess.run([sys.executable, "-c", script], env=env, check=True, capture_output=True,
                           text=True).stdout.strip() for _ in range(2)]
    assert runs == ["compiled", "cached"]


COMPILE_THEN_SOLVE = """
import json
import npuzzle
from npuzzle._kernels.jit import compile_seconds
from npuzzle.search import Limit
compile_seconds()  # count from here
s = npuzzle.solve("7 3 11 1/15 9 10 2/4 12 6 0/13 5 14 8", method="astar", weight=1.5, heuristic="lc",
                  limit=Limit(timeout=TIMEOUT))
print(json.dumps({"status": s.status, "compile_wall": compile_seconds()[1], "wall": s.stats.wall_seconds}))
"""


@pytest.mark.slow
def test_compiling_never_counts_against_the_time_limit(tmp_path):
    """With an empty numba cache, A* compiles its kernel (seconds) inside the search. A first cold
    run measures the compile; a second, as cold, gets a time limit of half of it and must still
    finish (a clock counting the compile would stop it while compiling); its own compile is checked
    to exceed the limit, so the test can fail. (What a first use spends outside numba's compile
    events, such as writing the cache, is counted: half the compile leaves room for it.)"""

    def cold(run: int, timeout: float | None) -> dict[str, Any]:
        env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / f"numba{run}"),
                   NPUZZLE_DATA_DIR=str(tmp_path / f"data{run}"))
        env.pop("NPUZZLE_NUMBA_CACHE", None)
        out = subprocess.run([sys.executable, "-c", COMPILE_THEN_SOLVE.replace("TIMEOUT", repr(timeout))],
                             env=env, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return dict(json.loads(out.stdout))

    first = cold(1, None)
    timeout = first["compile_wall"] / 2
    second = cold(2, timeout)
    assert second["compile_wall"] > timeout, (first, second)  # the limit is below the compile
    assert second["status"] == "solved" and second["wall"] < timeout, (first, second)


def test_a_kernel_called_with_constants_compiles_once(monkeypatch):
    """Constants passed to a kernel do not make a specialisation each (numba would type them as
    literals: ``Literal[int](1)``, ``Literal[int](2)``, ...)."""
    monkeypatch.setenv("NPUZZLE_NUMBA_CACHE", "0")

    @jit.njit
    def add(a, b):
        return a + b

    @jit.njit
    def caller(x):
        return add(x, 1) + add(2, x) + add(x, x) + add(x, 3)

    assert caller(5) == 31
    assert len(add.signatures) == 1


WARM = """
import sys
from npuzzle.heuristics.registry import parse
from npuzzle.search import warm
from npuzzle.search.idastar import _warm
with warm.scratch_store():
    _warm(parse("wd+id"), 2, 2, "standard", "fsm")
    if sys.argv[1] == "bfs":
        warm._bfs()
"""

FIRST_SOLVE = """
from npuzzle._kernels.jit import on_first_compile
compiled = []
stop = on_first_compile(lambda: compiled.append(1))
import npuzzle
from npuzzle.search.bfs import distribution
assert npuzzle.solve("7 3 11 1/15 9 10 2/4 12 6 0/13 5 14 8").length == 51  # IDA*, wd+id, the automaton
distribution(2, 4)
print("compiled" if compiled else "cached")
"""


@pytest.mark.slow
@pytest.mark.parametrize("warmed", ["bfs", "idastar only"])
def test_a_first_solve_after_a_warm_up_on_small_boards_loads_from_the_cache(tmp_path, warmed):
    """``npuzzle warmup`` compiles on 2x2 and 2x3 boards; a first 4x4 solve with the default bound
    and pruning, and a BFS of another shape, then load every kernel they need from the cache
    (without the BFS warm-up, the BFS kernels compile: the check can fail)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), NPUZZLE_DATA_DIR=str(tmp_path / "data"))
    env.pop("NPUZZLE_NUMBA_CACHE", None)
    subprocess.run([sys.executable, "-c", WARM, warmed], env=env, check=True, capture_output=True)
    assert not (tmp_path / "data").exists()  # the warm-up's tables went to a scratch store
    first = subprocess.run([sys.executable, "-c", FIRST_SOLVE], env=env, check=True, capture_output=True, text=True)
    assert first.stdout.strip() == ("cached" if warmed == "bfs" else "compiled")
