"""Every JSON record the tests read goes through ``record`` (or ``records``): parsed, then
validated against the schema shipped in the package (``npuzzle/data/schema.json``, documented
in ``docs/json.md``), so a record that strays from its documented form fails the test that
produced it."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator


@cache
def validator() -> Draft202012Validator:
    schema = json.loads(resources.files("npuzzle").joinpath("data/schema.json").read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def valid(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (a record as a dict) after checking it against the schema."""
    errors = sorted(validator().iter_errors(data), key=lambda e: list(e.absolute_path))
    assert not errors, f"record does not match the schema: {[e.message for e in errors][:5]}\n{str(data)[:2000]}"
    return data


def record(text: str | bytes) -> dict[str, Any]:
    """One JSON record (a line of ``--json`` output or an HTTP body), parsed and validated."""
    return valid(json.loads(text))


def records(text: str) -> list[dict[str, Any]]:
    """JSON Lines: every record, parsed and validated."""
    return [record(line) for line in text.splitlines() if line.strip()]
