"""The JSON Schema shipped in the package (``npuzzle/data/schema.json``) and its documentation
(``docs/json.md``) say the same: every field of every record kind is documented, in a table
marked with the schema's name for it, with the same type, and nothing documented is missing from
the schema; one key has one type in every kind of record."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from records import validator

DOC = Path(__file__).resolve().parent.parent / "docs" / "json.md"

#: JSON types as docs/json.md writes them.
_NAMES = {"integer": "int", "number": "float", "string": "string", "boolean": "bool", "null": "null",
          "object": "object"}


def type_text(prop: dict[str, Any]) -> str:
    """A property's type in the words of docs/json.md: ``int``, ``float or null``,
    ``list of int``, ``stats`` (an object described by its own table), ..."""
    if "$ref" in prop:
        return prop["$ref"].rsplit("/", 1)[1]
    if "const" in prop:
        return {bool: "bool", int: "int", str: "string"}[type(prop["const"])]
    if "enum" in prop:
        return "string"
    kinds = prop["type"] if isinstance(prop["type"], list) else [prop["type"]]
    if kinds == ["array"]:
        return "list of " + type_text(prop["items"])
    return " or ".join(_NAMES[k] for k in kinds)


def schema_fields() -> dict[str, dict[str, str]]:
    """Each definition of the schema that has fields: field -> type text."""
    defs = validator().schema["$defs"]
    return {name: {field: type_text(p) for field, p in d["properties"].items()}
            for name, d in defs.items() if "properties" in d}


def documented_fields() -> dict[str, dict[str, str]]:
    """The tables of docs/json.md marked ``<!-- schema: NAME -->``: field -> type, per NAME."""
    tables: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    for line in DOC.read_text().splitlines():
        marker = re.fullmatch(r"<!-- schema: ([\w-]+) -->", line.strip())
        if marker:
            assert marker.group(1) not in tables, f"two tables for {marker.group(1)}"
            current = tables[marker.group(1)] = {}
            continue
        if current is None:
            continue
        if not line.startswith("|"):
            if current:  # the table has ended
                current = None
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        name = re.fullmatch(r"`([\w-]+)`", cells[0])
        if name:
            current[name.group(1)] = cells[1]
    return tables


def test_the_schema_is_valid_and_names_every_kind():
    schema = validator().schema
    kinds = {d["properties"]["record"].get("const") for d in schema["$defs"].values()
             if "record" in d.get("properties", {})}
    assert kinds >= {"solve", "check", "scramble", "distribution", "happy", "sample", "table", "bench-instance",
                     "bench-summary", "job", "error"}


def test_every_field_of_the_schema_is_documented_with_its_type_and_nothing_else():
    schema, docs = schema_fields(), documented_fields()
    assert set(docs) == set(schema), (set(docs) ^ set(schema))
    for name, fields in schema.items():
        assert docs[name] == fields, (name, set(docs[name].items()) ^ set(fields.items()))


def test_one_key_has_one_type_in_every_kind_of_record():
    seen: dict[str, tuple[str, str]] = {}
    for name, fields in schema_fields().items():
        for field, kind in fields.items():
            if field in ("record", "status", "schema_version"):  # each kind's own constants
                continue
            first = seen.setdefault(field, (name, kind))
            assert first[1] == kind, f"{field}: {first[1]} in {first[0]}, {kind} in {name}"


def test_docs_name_the_version_and_its_changes():
    text = DOC.read_text()
    assert '"schema_version": 2' in text and "## Changes from version 1" in text
    assert validator().schema["properties"]["schema_version"]["const"] == 2
