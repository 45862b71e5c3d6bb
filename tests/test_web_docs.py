"""The web API and its documentation (``docs/json.md``, "The HTTP API") agree: the choices a solve
accepts, every refusal the server can give (its HTTP status and record status), and the time limit
of an analysis, read from the page's tables and checked against the server's code and a running
server on 127.0.0.1. (The page's ``curl`` example is run by ``tests/test_docs.py``.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.conftest import REPO

PAGE = REPO / "docs" / "json.md"
WEB = REPO / "src" / "npuzzle" / "web"


def api_section() -> str:
    text = PAGE.read_text(encoding="utf-8")
    return text[text.index("## The HTTP API"):]


def documented_choices(field: str) -> set[str]:
    """The values the ``POST /api/solve`` row lists for ``field`` (```field`: `a`, `b`, ...;``)."""
    row = next(line for line in api_section().splitlines() if line.startswith("| `POST /api/solve`"))
    listed = re.search(rf"`{field}`: ((?:`[^`]+`(?:, )?)+)", row)
    assert listed, f"the solve row lists no values of {field!r}"
    return set(re.findall(r"`([^`]+)`", listed.group(1)))


def documented_refusals() -> dict[tuple[int, str], str]:
    """``(HTTP status, record status) -> when`` from the page's table of refusals."""
    rows = re.findall(r"^\| (\d{3}) \| `([\w-]+)` \| (.*) \|$", api_section(), re.M)
    return {(int(http), status): when for http, status, when in rows}


def raised_refusals() -> set[tuple[int, str]]:
    """Every ``RequestError(reason, HTTP, STATUS)`` the web package raises with constant arguments
    (a bare ``RequestError(reason)`` is 400 ``invalid``), and the statuses of Starlette's own
    refusals and of a bug, which the app maps itself."""
    found = {(404, "not-found"), (405, "method-not-allowed"), (500, "internal-error")}
    for path in WEB.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RequestError":
                args = [a.value for a in node.args[1:3] if isinstance(a, ast.Constant)]
                http, status = (args + [400, "invalid"][len(args):])[:2]
                found.add((int(http), str(status)))
    return found


def test_the_solve_choices_are_those_documented() -> None:
    from npuzzle.costs import COSTS
    from npuzzle.web.inputs import HEURISTICS, METHODS

    assert documented_choices("method") == set(METHODS)
    assert documented_choices("heuristic") == set(HEURISTICS)
    assert documented_choices("cost") == set(COSTS)


def test_every_refusal_is_documented_and_every_documented_one_exists() -> None:
    documented, raised = set(documented_refusals()), raised_refusals()
    assert raised - documented == set(), "refusals the page does not list"
    assert documented - raised - {(403, "forbidden"), (421, "wrong-host")} == set(), "listed but never given"
    assert (503, "busy") in raised and (413, "too-large") in raised


def test_the_checks_read_what_they_guard() -> None:
    """The readers find the page's rows and the code's refusals (an empty reading would agree with
    anything)."""
    assert len(documented_refusals()) >= 8 and "beam" in documented_choices("method")
    assert (415, "invalid") in raised_refusals() and len(raised_refusals()) >= 6
    assert any("analysis reached" in when for when in documented_refusals().values())


def test_an_analysis_past_the_time_limit_is_refused_as_documented(tmp_path: Path) -> None:
    """The server's answer when an analysis reaches its time limit is the row of the page that
    says so (503 ``busy``)."""
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    from web_server import running_server

    (http, status), = [key for key, when in documented_refusals().items() if "analysis reached" in when]
    # Korf's #88 (optimum 65) in an empty table store, its optimal moves asked for: seconds of work.
    position = "15 2 12 11/14 13 9 5/1 3 8 7/0 10 6 4"
    with running_server("--workers", "1", "--time-limit", "0.2", store=str(tmp_path / "store")) as server:
        code, record = server.request("POST", "/api/analyze", {"position": position, "moves": "",
                                                               "all_optimal": 100, "goal": "blank-first"})
    assert (code, record["status"]) == (http, status), record
    assert "limit" in record["reason"], record
