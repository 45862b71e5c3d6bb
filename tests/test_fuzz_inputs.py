"""Fuzz tests of the newer surfaces with a fixed seed and a small budget (``fuzzing_inputs.py``;
``bench/fuzz.py`` runs them longer): the stepper, the environment and the verifier on random
arguments, and several real writers on one output file."""

from __future__ import annotations

import random

import pytest
from fuzzing_inputs import (
    answer,
    check_answer,
    check_env,
    check_stepper,
    check_writers,
    env_call,
    stepper_call,
    writers,
)


@pytest.mark.parametrize("seed", range(3))
def test_the_stepper_does_what_is_asked_or_refuses_first(seed):
    rnd = random.Random(seed)
    for _ in range(150):
        c = stepper_call(rnd)
        assert check_stepper(c) is None, c


@pytest.mark.parametrize("seed", range(2))
def test_the_environment_does_what_is_asked_or_refuses_first(seed):
    pytest.importorskip("gymnasium")
    rnd = random.Random(seed)
    for _ in range(60):
        c = env_call(rnd)
        assert check_env(c) is None, c


@pytest.mark.parametrize("seed", range(3))
def test_the_verifier_agrees_with_a_naive_replay(seed):
    rnd = random.Random(seed)
    for _ in range(100):
        a = answer(rnd)
        assert check_answer(a) is None, (a.board, str(a.moves)[:100], a.optimum)


@pytest.mark.slow
def test_writers_started_together_leave_one_whole_file(tmp_path):
    rnd = random.Random(5)
    for _ in range(3):
        case = writers(rnd)
        assert check_writers(case, tmp_path) is None, case
