"""Every option of every method: honoured (an effect a user can observe) or refused before a
search starts (``InvalidOptionError`` naming the option). The table is ``registry.REGISTRY``'s
``options``; this test walks the whole method x option matrix and asserts one or the other in
each cell, so an option a method would silently ignore fails here.

Also: one solve of each method checks the goal once and parses the heuristic's name at most once
(traced with ``sys.setprofile``)."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from typing import Any

import pytest

from npuzzle import Board, parse
from npuzzle.errors import InvalidOptionError
from npuzzle.instances import random_walk
from npuzzle.search import Limit, Request, prepare, run
from npuzzle.search.limits import MEMORY_LIMIT, NODE_LIMIT, TIMEOUT, Solution
from npuzzle.search.registry import REGISTRY
from npuzzle.search.split import Inline

#: The options a search may be given: every field of ``Request`` but the goal, and the limits (a new
#: field fails here until ``_given`` has a value for it).
OPTIONS = tuple(f.name for f in dataclasses.fields(Request) if f.name not in ("goal", "limit")) + (
    "timeout", "max_nodes", "max_memory")

HARD_3X3 = parse("8 6 7/2 5 4/3 0 1")  # 31 moves
#: A 5x5 position far enough from the goal that the beam runs several rounds.
FAR_5X5 = Board(5, 5, (2, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 24, 0, 23))
BOARDS = {"idastar": HARD_3X3, "astar": HARD_3X3, "focal": HARD_3X3, "dps": HARD_3X3, "astar+idastar": HARD_3X3,
          "beam": FAR_5X5, "realtime": FAR_5X5, "ucs": HARD_3X3}


class TwoWorkers(Inline):
    """An executor that runs its tasks here, one after another, but counts as two workers (and
    notes in ``calls`` that it ran some)."""

    workers = 2

    def __init__(self, calls: list[str] | None = None) -> None:
        self.calls = calls if calls is not None else []

    def run(self, tasks: Any) -> Any:
        self.calls.append("executor")
        return super().run(tasks)


def _limit(**kw: Any) -> Limit:
    return Limit(**kw)


#: For each option, a request that gives it (from the defaults, with ``heuristic="manhattan"``
#: where a heuristic is taken, so that its effect is visible against ``auto``).
def _given(option: str, calls: list[str]) -> dict[str, Any]:
    return {
        "heuristic": {"heuristic": "manhattan"},
        "pruning": {"pruning": "parent"},
        "weight": {"weight": 2.0},
        "budget": {"budget": 0.01},
        "realtime_method": {"realtime_method": "parberry"},
        "executor": {"executor": TwoWorkers(calls)},
        "order": {"order": "knuth0"},
        "top_nodes": {"top_nodes": 8},
        "cost": {"cost": "heavy"},
        "timeout": {"limit": _limit(timeout=1e-9)},
        "max_nodes": {"limit": _limit(max_nodes=200)},
        "max_memory": {"limit": _limit(max_memory=64)},
        "on_iteration": {"on_iteration": lambda *a: calls.append("iteration")},
        "on_progress": {"on_progress": lambda *a: calls.append("progress")},
    }[option]


def _requests(method: str, option: str, calls: list[str]) -> tuple[Request, Request]:
    """A request without ``option`` and one with it (with a heuristic named where the method takes
    one; one that builds tables on the way where the option is about them)."""
    takes_heuristic = "heuristic" in REGISTRY[method].options
    named = {"heuristic": "wd+id" if option in ("pruning", "max_memory") else "manhattan"} if takes_heuristic else {}
    base = {"heuristic": "lc"} if option == "heuristic" else dict(named)
    if option == "pruning":
        base["pruning"] = "fsm"
    if method == "astar+idastar" and option != "top_nodes":
        named["top_nodes"] = base["top_nodes"] = 64  # else A* alone solves a 3x3 board
    return Request(**base), Request(**{**named, **_given(option, calls)})


def _effect(option: str, base: Solution, given: Solution, calls: list[str]) -> bool:
    """Whether giving ``option`` changed what a user sees: a callback called, a stop, a different
    heuristic, method, answer, note or count of nodes. (A heuristic's name echoed back is no
    effect of the heuristic option: the search must work differently with it.)"""
    if option in ("on_iteration", "on_progress", "executor"):
        return option.removeprefix("on_") in calls
    if option in ("timeout", "max_nodes", "max_memory") and given.status in (TIMEOUT, NODE_LIMIT, MEMORY_LIMIT):
        return True
    seen = ("method", "moves", "note", "status") if option == "heuristic" else (
        "heuristic", "method", "moves", "note", "status")
    return any(getattr(base, f) != getattr(given, f) for f in seen) or base.stats.generated != given.stats.generated


@pytest.mark.parametrize("method", sorted(REGISTRY))
@pytest.mark.parametrize("option", OPTIONS)
def test_every_option_of_every_method_is_honoured_or_refused(method, option, private_store):
    board = BOARDS[method]
    calls: list[str] = []
    request = Request(**_given(option, calls))
    if option not in REGISTRY[method].options:
        with pytest.raises(InvalidOptionError, match=f"{option}= does not apply"):
            prepare(board, request, method)
        return
    base_request, request = _requests(method, option, calls)
    given = run(prepare(board, request, method))  # first: a table it would build is not built yet
    base = run(prepare(board, base_request, method))
    assert _effect(option, base, given, calls), (method, option, base, given)
    if given.solved:
        assert given.board.apply(given.moves).is_goal(given.goal)


def test_the_refusal_names_the_methods_that_take_the_option():
    with pytest.raises(InvalidOptionError, match=r"max_nodes= does not apply to method='realtime': it applies "
                                                 r"to 'idastar', 'astar', 'focal', 'dps', 'astar\+idastar', 'beam'"):
        prepare(FAR_5X5, Request(limit=Limit(max_nodes=10)), "realtime")
    with pytest.raises(InvalidOptionError, match="the beam search chosen for a 5x5 board"):
        prepare(FAR_5X5, Request(heuristic="lc"), "auto")


# -- one check of the goal, one parse of the heuristic ------------------------------------------


def _traced(fn: Callable[[], Any], names: set[tuple[str, str]]) -> dict[tuple[str, str], list[str]]:
    """The callers of each function in ``names`` ((file stem, function)) while ``fn`` runs."""
    seen: dict[tuple[str, str], list[str]] = {n: [] for n in names}

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event != "call":
            return
        code = frame.f_code
        key = (code.co_filename.rsplit("/", 1)[-1].removesuffix(".py"), code.co_name)
        if key in seen:
            caller = frame.f_back.f_code
            seen[key].append(f"{caller.co_filename.rsplit('/', 1)[-1]}:{caller.co_name}")

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return seen


CASES = [
    ("idastar", HARD_3X3, "wd+id", {}),
    ("idastar", HARD_3X3, "lc", {"executor": TwoWorkers()}),
    ("astar", HARD_3X3, "wd+id", {"weight": 1.5}),
    ("focal", HARD_3X3, "wd+id", {"weight": 1.5}),
    ("dps", HARD_3X3, "lc", {"weight": 2}),
    ("astar+idastar", HARD_3X3, "wd", {"top_nodes": 64}),
    ("beam", FAR_5X5, "auto", {}),
    ("realtime", FAR_5X5, "auto", {}),
    ("auto", HARD_3X3, "auto", {}),
    ("idastar", HARD_3X3, "lc", {"goal": parse("0 1 2/3 4 5/6 7 8")}),
    ("astar", random_walk(2, 4, 30, seed=1, goal="blank-first"), "wd+id", {"goal": "blank-first"}),  # 2x4, 3x5
    ("realtime", random_walk(3, 5, 60, seed=2, goal="blank-first"), "auto", {"goal": "blank-first"}),
]


@pytest.mark.parametrize(("method", "board", "heuristic", "options"), CASES)
def test_one_solve_checks_the_goal_once_and_parses_the_heuristic_at_most_once(method, board, heuristic, options,
                                                                             private_store):
    """The goal is checked exactly once by the set-up (a goal board by ``problem._checked_goal``,
    a convention's name by ``board.check_goal`` under it; a ``Board``'s own methods check what they are
    given, as a library's public methods must: those calls are not counted) and the heuristic's
    name is parsed at most once; below ``prepare`` everything reads the parsed ``Spec``. (The
    beam and real time take no heuristic: the bounds they rank by and prove are their own.) An empty
    store of its own: a table loaded on first use checks the goal its header names, which is the
    table's check, not the solve's."""
    from npuzzle import board as board_module
    from npuzzle.heuristics import registry
    from npuzzle.search import problem

    # The traced names are the functions' own (a rename would leave nothing to count).
    for function, name in ((board_module.check_goal, "check_goal"), (registry.parse, "parse"),
                           (problem._checked_goal, "_checked_goal")):
        assert function.__code__.co_name == name
    seen = _traced(lambda: run(prepare(board, Request(heuristic=heuristic, **options), method)),
                   {("board", "check_goal"), ("registry", "parse"), ("problem", "_checked_goal")})
    goal_checks = [c for c in seen[("board", "check_goal")] if not c.startswith("board.py:")]
    assert len(seen[("problem", "_checked_goal")]) == 1, seen[("problem", "_checked_goal")]
    assert len(goal_checks) == (0 if isinstance(options.get("goal"), Board) else 1), goal_checks
    if method not in ("beam", "realtime"):
        assert len(seen[("registry", "parse")]) <= 1, seen[("registry", "parse")]


# -- a failed replay is an internal error ------------------------------------------------------


def test_a_wrong_answer_is_an_internal_error_with_its_own_exit_status(monkeypatch, capsys):
    """A solver whose moves do not solve the board is a bug: ``InternalError`` (not a bad-input
    ``NPuzzleError``), and the command line exits with status 70 and asks for a report."""
    from npuzzle.cli import EXIT_INTERNAL, main
    from npuzzle.errors import InternalError, NPuzzleError
    from npuzzle.search import idastar
    from npuzzle.search.limits import Stats, found_solution

    def wrong(problem):
        return found_solution(problem.start, problem.target, (problem.start.movable_tiles()[0],), optimal=True,
                              stats=Stats(), method="idastar", heuristic="lc")

    monkeypatch.setattr(idastar, "solve_problem", wrong)
    with pytest.raises(InternalError) as caught:
        run(prepare(HARD_3X3, Request(heuristic="lc"), "idastar"))
    assert not isinstance(caught.value, NPuzzleError)
    assert main(["solve", "--method", "idastar", "--heuristic", "lc", "8 6 7/2 5 4/3 0 1"]) == EXIT_INTERNAL == 70
    err = capsys.readouterr().err
    assert "does not reach the goal" in err and "This is a bug in npuzzle" in err


def test_the_command_line_names_its_flags_where_the_library_names_parameters(capsys):
    from npuzzle.cli import EXIT_INPUT, main

    assert main(["solve", "--method", "realtime", "--max-nodes", "5", "8 6 7/2 5 4/3 0 1"]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert "--max-nodes does not apply to --method realtime: it applies to 'idastar'" in err
    assert "max_nodes=" not in err
    assert main(["solve", "--budget", "1", "--method", "astar", "8 6 7/2 5 4/3 0 1"]) == EXIT_INPUT
    assert "--budget does not apply to --method astar: it applies to 'beam'" in capsys.readouterr().err
