"""verify.mutation: mutants are single, reproducible edits of formulas, classified by verdicts."""

from __future__ import annotations

import ast
import importlib.util
import textwrap
from pathlib import Path

import pytest

from verify import mutation
from verify.mutation import _mutable, _MutantFinder, _Replace, classify

SOURCE = textwrap.dedent(
    '''
    def f(x: float, n: int = 3) -> float:
        """a docstring with 2 + 2"""
        y = x[1:2] if False else x
        return -(y + 2.5) * y**2 / n - f"{3 + 4}".count("7") + sum(x, start=5)
    '''
)


def mutants_of(source: str) -> list[str]:
    tree = ast.parse(source)
    out = []
    for i in range(len(_mutable(tree))):
        t = ast.parse(source)
        node, op = _mutable(t)[i]
        out.append(ast.unparse(_Replace(node, op).visit(t)))
    return out


def test_mutants_are_single_edits_of_formulas_only():
    variants = mutants_of(SOURCE)
    assert len(variants) == len(set(variants))  # every mutant is a different program
    for v in variants:
        assert '"""a docstring with 2 + 2"""' in v and "x[1:2]" in v and "int=3" in v
        assert not any(bad in v for bad in ("start=10", "{3 - 4}", "{6 + 4}", "{3 + 8}", "{3}"))
    joined = "\n".join(variants)
    assert "(y - 2.5)" in joined and "y ** 3" in joined and "(y + 5.0)" in joined and "* y ** 2 * n" in joined


def test_the_finder_loads_the_mutated_module(tmp_path: Path, monkeypatch):
    path = tmp_path / "mutme.py"
    path.write_text("def g(x):\n    return x + 1\n")
    finder = _MutantFinder("mutme", "def g(x):\n    return x - 1\n", str(path))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr("sys.meta_path", [finder, *__import__("sys").meta_path])
    spec = importlib.util.find_spec("mutme")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.g(1) == 0


def test_classification_by_verdict_then_numbers():
    base = {"c": {"verdict": "PASS", "numbers": [["a", "", "1.0"]]}}
    assert classify(base, {"c": {"verdict": "FAIL", "numbers": [["a", "", "2.0"]]}}) == "killed"
    assert classify(base, {"c": {"verdict": "PASS", "numbers": [["a", "", "1.5"]]}}) == "survived"
    assert classify(base, base) == "silent"


@pytest.mark.parametrize("target", mutation.DEFAULT_TARGETS)
def test_default_targets_exist_and_have_mutants(target):
    path = mutation.ROOT / target
    assert path.is_file() and mutation.enumerate_mutants(path)
