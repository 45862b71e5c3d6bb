"""Fuzz tests (issue 18): the position parsers, the command line and the table loader on hostile
input, with a fixed seed (``derandomize``) and budgets that keep CI fast. The generators and
checks are in ``fuzzing.py``; ``bench/fuzz.py`` runs them longer and counts what it finds."""

from __future__ import annotations

import random

import pytest
from fuzzing import (
    _genuine,
    check_cli,
    check_forged,
    check_interrupted,
    check_misuse,
    check_parse,
    check_table,
    cli_argv,
    forgery,
    interruption,
    misuse,
    mutate,
    position_text,
    shape,
    shown,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from npuzzle import tables
from npuzzle.heuristics import pattern_db
from npuzzle.search import bfs


#: Fixed examples (the same every run), no deadline (a shared machine), no health check on the
#: fixtures shared by the examples.
def fixed(examples: int) -> settings:
    return settings(derandomize=True, deadline=None, max_examples=examples, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@fixed(300)
@given(st.randoms(use_true_random=False), st.text(max_size=60))
def test_parsers_return_boards_or_npuzzle_errors(tmp_path, rnd, text):
    for candidate in (position_text(rnd), text):
        assert check_parse(candidate, shape(rnd), tmp_path) is None, repr(candidate[:200])


@fixed(25)
@given(st.randoms(use_true_random=False))
def test_command_line_exits_with_a_documented_status(tmp_path, rnd):
    argv = cli_argv(rnd)
    assert check_cli(argv, tmp_path / "store", stdin=position_text(rnd).encode("utf-8", "replace")) is None, argv


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A small pattern database and a BFS table, saved once, with their files' bytes."""
    store = tmp_path_factory.mktemp("fuzz-store")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("NPUZZLE_DATA_DIR", str(store))
        pattern_db.build("3-2", 2, 3, "standard", progress=False)
        bfs.distance_table(2, 3, save=True, progress=False)
        keys = [pattern_db.table_key("3-2", 2, 3, "standard"), tables.TableKey("bfs", 2, 3, "standard")]
        out = [(key, tables.table_path(key).read_bytes(), tables.load_table(key)) for key in keys]
        yield store, out


@fixed(400)
@given(st.randoms(use_true_random=False), st.integers(0, 1))
def test_damaged_tables_are_refused_or_identical(saved, monkeypatch, rnd, which):
    store, items = saved
    monkeypatch.setenv("NPUZZLE_DATA_DIR", str(store))
    key, raw, reference = items[which]
    try:
        assert check_table(tables.table_path(key), key, mutate(rnd, raw), reference) is None
    finally:
        tables.table_path(key).write_bytes(raw)


def test_the_generators_are_reproducible():
    assert [cli_argv(random.Random(3)) for _ in range(2)] == [cli_argv(random.Random(3))] * 2


@pytest.mark.parametrize("seed", range(6))
def test_forged_tables_are_reported_and_never_answer(tmp_path, monkeypatch, seed):
    monkeypatch.setenv("NPUZZLE_DATA_DIR", str(tmp_path / "store"))
    _genuine.cache_clear()  # this store holds no genuine table yet
    f = forgery(random.Random(seed))
    assert check_forged(f) is None, f


#: Seeds whose cases are short (boards of 100 to 257 tiles a side): Ctrl-C once the temporary file
#: exists (2, 10), a file-size limit that stops the answer (4) and one that lets it through (12).
@pytest.mark.parametrize("seed", [2, 4, 10, 12])
def test_interrupted_output_keeps_the_previous_file_or_completes(tmp_path, seed):
    case = interruption(random.Random(seed))
    assert check_interrupted(case, tmp_path, tmp_path / "store") is None, case


def test_api_misuse_raises_errors_naming_the_parameter():
    rnd = random.Random(5)
    for _ in range(300):
        m, index = misuse(rnd)
        assert check_misuse(m, index) is None, (m.function, m.parameter, shown(m.values[index]))
