"""Every negative control of every built-in claim names the hypothesis it breaks and the conclusions
that must break (issue 14): checked statically over the paper packages, and on the records of a tiny
run of each claim (tests/verify/test_claims_tiny.py) through the verdict rule itself."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from verify.hypotheses import Hypothesis, as_hypotheses, resolve
from verify.registry import all_claims, builtin_keys

PAPERS = Path(__file__).resolve().parents[2] / "verify" / "papers"


def _controls(path: Path) -> list[ast.Call]:
    tree = ast.parse(path.read_text())
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == "control"
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id == "ctx"
    ]


@pytest.mark.parametrize("path", sorted(PAPERS.rglob("*.py")), ids=lambda p: str(p.relative_to(PAPERS)))
def test_every_control_names_what_it_breaks_and_what_must_break(path):
    for call in _controls(path):
        keys = {k.arg for k in call.keywords}
        assert {"breaks", "must_break"} <= keys, f"{path.name}:{call.lineno} needs breaks= and must_break="


def test_string_breaks_resolve_to_a_declared_hypothesis():
    """A control that breaks a plain string must name one of its claim's hypotheses exactly."""
    h = as_hypotheses(["Assumption 2", Hypothesis("p << n", wording=r"$p\ll n$")])
    assert resolve("Assumption 2", h) is h[0] and resolve(r"$p\ll n$", h) is h[1]
    assert resolve("Assumption 1", h) is None


def test_builtin_claims_declare_hypotheses():
    for cid, c in all_claims().items():
        if c.paper in builtin_keys():
            assert c.hypotheses, f"{cid} declares no hypothesis"
