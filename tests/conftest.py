"""Shared test fixtures and helpers.

The repository is enough to run the tests: the benchmark sets are read from the package's own
copies (``npuzzle/data``, through ``importlib.resources``) and the exact distance counts from
``tests/data/known_counts.txt``. Nothing is read at import time.

Every test runs against an empty table store of its own session (``NPUZZLE_DATA_DIR`` points at
a temporary folder, and ``NPUZZLE_STAMP_KEY`` at a stamp key of the session's), so no test reads
or writes the user's ``~/.cache/npuzzle`` and results do
not depend on which tables a developer has built. Tables a test builds there (the move
automaton, small pattern databases) are built once per session and reused.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TEST_DATA = Path(__file__).resolve().parent / "data"
#: The published data beside a checkout (optional: only the cross-check in test_data reads it).
SHARED_BENCHMARKS = Path(os.environ.get("NPUZZLE_BENCHMARKS", REPO.parent / "shared" / "benchmarks"))


@pytest.fixture(scope="session", autouse=True)
def table_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One empty table store for the whole session, never the user's."""
    store = tmp_path_factory.mktemp("table-store")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("NPUZZLE_DATA_DIR", str(store))
        mp.setenv("NPUZZLE_STAMP_KEY", str(tmp_path_factory.mktemp("config") / "stamp.key"))  # never the user's
        yield store


def forget_table_caches() -> None:
    """Every per-process cache of tables loaded or made (as a new process would start), and the
    warnings already given: for tests that change the store under a running process."""
    from npuzzle import tables
    from npuzzle.heuristics import pattern_db, registry, walking_distance
    from npuzzle.search import bfs, fsm, oracle

    pattern_db._load.cache_clear()
    pattern_db._damaged.clear()
    registry._kernel_heuristic.cache_clear()
    walking_distance.walking_tables.cache_clear()
    walking_distance.hashed_indices.cache_clear()
    fsm.automaton.cache_clear()
    bfs._memory_table.cache_clear()
    bfs._loaded.clear()
    tables._warned.clear()
    oracle.exact_table.cache_clear()
    oracle._MEMORY.clear()


@pytest.fixture(scope="module")
def module_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """An empty table store of the test module's own (the tables its analyses and oracles make
    would otherwise change how later modules' solves are answered), caches forgotten around it."""
    with pytest.MonkeyPatch.context() as mp:
        path = tmp_path_factory.mktemp("module-store")
        mp.setenv("NPUZZLE_DATA_DIR", str(path))
        forget_table_caches()
        yield path
        forget_table_caches()


@pytest.fixture
def private_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty table store of the test's own, with the table caches forgotten before and after."""
    path = tmp_path / "store"
    monkeypatch.setenv("NPUZZLE_DATA_DIR", str(path))
    forget_table_caches()
    yield path
    forget_table_caches()


def read_tsv(name: str) -> list[dict[str, str]]:
    """Rows of a benchmark TSV packaged in ``npuzzle/data`` (``#`` lines are comments; the first
    other line is the header)."""
    text = resources.files("npuzzle").joinpath("data", name).read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    header = lines[0].split("\t")
    return [dict(zip(header, ln.split("\t"), strict=True)) for ln in lines[1:]]


def known_counts() -> dict[str, tuple[int, list[int]]]:
    """The ``dist`` lines of ``tests/data/known_counts.txt``: label -> (number of positions,
    number of positions at each distance from the goal)."""
    out = {}
    for line in (TEST_DATA / "known_counts.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("dist "):
            head, counts = line.split(" : ")
            _, label, states = head.split()
            out[label] = (int(states), [int(c) for c in counts.split()])
    return out


@pytest.fixture(scope="session")
def known() -> dict[str, tuple[int, list[int]]]:
    return known_counts()


def check_kernel_heuristic(shape: tuple[int, int], goal: str, heuristic: str, walk: int) -> None:
    """IDA* with ``heuristic`` on two random walks of ``walk`` steps prunes, iteration by
    iteration, exactly as a naive search using the plain-Python value: the kernel's incremental
    value equals the plain one at every node (see ``naive.check_pruning``)."""
    from naive import check_pruning

    from npuzzle import Board
    from npuzzle.heuristics.registry import evaluate
    from npuzzle.instances import random_walk
    from npuzzle.search.idastar import idastar

    for seed in range(2):
        b = random_walk(*shape, walk, seed=seed, goal=goal)
        if b.is_goal(goal):
            continue
        check_pruning(lambda x: idastar(x, goal=goal, heuristic=heuristic, pruning="parent"), b, goal,
                      lambda t: evaluate(Board(*shape, t), goal, heuristic))


@pytest.fixture(scope="session")
def korf100() -> list[dict[str, str]]:
    return read_tsv("korf100.tsv")


def without_notice(err: str) -> str:
    """``err`` without the one line announcing that kernels are compiled (printed whenever a
    command compiles them: on a cold numba cache, the first test to solve sees it)."""
    return "".join(line for line in err.splitlines(keepends=True) if not line.startswith("npuzzle: compiling "))
