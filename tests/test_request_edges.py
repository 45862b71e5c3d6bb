"""A solve's options travel as one ``Request``: built by name, never relayed keyword by keyword."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import npuzzle
from npuzzle.search.limits import Limit
from npuzzle.search.registry import Request

SRC = Path(npuzzle.__file__).parent
#: The option keywords: ``Request``'s fields, its limit's and the method.
OPTIONS = {f.name for f in dataclasses.fields(Request)} | {f.name for f in dataclasses.fields(Limit)} | {"method"}
#: The calls that may name five options or more: where the public functions that list the options
#: in their signatures (``npuzzle.solve``, ``search.solve``) make their ``Request``.
MOST_RELAYS = 3


def _calls() -> list[tuple[str, int, str, int]]:
    """Every call in the package: file, line, the function called, how many option keywords."""
    out = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                named = sum(1 for k in node.keywords if k.arg in OPTIONS)
                out.append((str(path.relative_to(SRC)), node.lineno, ast.unparse(node.func), named))
    return out


def test_few_calls_relay_options_one_by_one():
    relays = [c for c in _calls() if c[3] >= 5]
    assert len(relays) <= MOST_RELAYS, relays


def test_no_request_is_made_by_position():
    with pytest.raises(TypeError):
        Request("standard")  # type: ignore[misc]
    positional = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1] == "Request" and node.args:
                positional.append((path.name, node.lineno))
    assert positional == []
