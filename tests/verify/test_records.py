"""verify.records: the typed records read the committed results exactly, and agree with the JSON Schema."""

from __future__ import annotations

import json
import types
from dataclasses import fields, is_dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints

import pytest

from verify import results
from verify.records import (
    NONFINITE,
    Check,
    Control,
    Erratum,
    HypothesisRecord,
    Provenance,
    Record,
    Regime,
    Scale,
)

REPORTS = Path(__file__).resolve().parents[2] / "reports"
COMMITTED = [REPORTS / results.RESULTS_FILE, REPORTS / "full" / results.RESULTS_FILE]
SCHEMA = json.loads(results.SCHEMA_FILE.read_text())
DEFS = {
    Record: "record",
    Check: "check",
    Control: "control",
    HypothesisRecord: "hypothesis",
    Regime: "regime",
    Scale: "scale",
    Erratum: "erratum",
    Provenance: "provenance",
}


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: str(p.relative_to(REPORTS.parent)))
def test_the_committed_results_round_trip_exactly(path):
    """Every committed record reads into a Record and writes back to the same JSON, byte for byte."""
    if not path.is_file():
        pytest.skip(f"no {path}")
    text = path.read_text()
    data = json.loads(text)
    records = [Record.from_json(r) for r in data["claims"]]
    assert [r.to_json() for r in records] == data["claims"]
    assert results.dumps({"schema_version": data["schema_version"], "claims": data["claims"]}) == text
    assert [r.to_json() for r in results.read(path).values()] == data["claims"]


# -- the dataclasses and the published schema agree field for field --------------------------------------
def _resolve(prop: dict) -> dict:
    while "$ref" in prop:
        prop = SCHEMA["$defs"][prop["$ref"].rsplit("/", 1)[1]]
    return prop


def _schema_types(prop: dict) -> set[str]:
    """The JSON types a property admits ("any": unconstrained); the non-finite strings count as numbers."""
    prop = _resolve(prop)
    if "anyOf" in prop:
        return set().union(*map(_schema_types, prop["anyOf"]))
    if "type" in prop:
        t = prop["type"]
        return set(t) if isinstance(t, list) else {t}
    if "enum" in prop:
        return {"number" if v in NONFINITE else "string" for v in prop["enum"]}
    return {"any"}


def _refs(prop: dict) -> set[str]:
    """The record definitions a property (or the items of an array property) refers to."""
    found = {prop["$ref"].rsplit("/", 1)[1]} if "$ref" in prop else set()
    for sub in [*prop.get("anyOf", []), *([prop["items"]] if "items" in prop else [])]:
        found |= _refs(sub)
    return found & set(DEFS.values())


def _hint_types(tp: Any) -> tuple[set[str], set[str]]:
    """(JSON types, referenced $defs) that the type hint ``tp`` stands for."""
    origin, args = get_origin(tp), get_args(tp)
    if tp is Any:
        return {"any"}, set()
    if origin in (Union, types.UnionType):
        parts = [_hint_types(a) for a in args]
        return set().union(*(p[0] for p in parts)), set().union(*(p[1] for p in parts))
    if tp is type(None):
        return {"null"}, set()
    if origin is tuple:
        return {"array"}, _hint_types(args[0])[1] if is_dataclass(args[0]) else set()
    if origin is dict:
        return {"object"}, set()
    if is_dataclass(tp):
        return {"object"}, {DEFS[tp]}
    if isinstance(tp, type) and issubclass(tp, Enum):
        return {"string"}, set()
    return {{str: "string", bool: "boolean", int: "integer", float: "number"}[tp]}, set()


@pytest.mark.parametrize("cls", list(DEFS), ids=lambda c: c.__name__)
def test_each_dataclass_is_its_schema_definition(cls):
    schema = SCHEMA["$defs"][DEFS[cls]]
    names = [f.name for f in fields(cls)]
    assert list(schema["properties"]) == names
    assert schema["required"] == names and schema["additionalProperties"] is False
    hints = get_type_hints(cls)
    for name in names:
        prop = schema["properties"][name]
        json_types, refs = _hint_types(hints[name])
        assert _schema_types(prop) == json_types, name
        assert _refs(prop) == refs, name


def test_every_schema_object_with_listed_keys_is_a_dataclass():
    listed = {k for k, d in SCHEMA["$defs"].items() if d.get("additionalProperties") is False}
    assert listed == set(DEFS.values())
    assert SCHEMA["properties"]["claims"]["items"] == {"$ref": "#/$defs/record"}
