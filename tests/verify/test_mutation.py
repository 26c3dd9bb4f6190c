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


def test_classification_by_verdict_then_numbers_then_the_probe():
    base = {"c": {"verdict": "PASS", "numbers": [["a", "", "1.0"]]}, "d": {"verdict": "PASS", "numbers": []}}
    moved = {"verdict": "PASS", "numbers": [["a", "", "1.5"]]}
    # a run stopped at its first changed verdict (claim d never ran) is killed
    assert classify(base, {"claims": {"c": {"verdict": "FAIL", "numbers": []}}, "hit": True}) == "killed"
    assert classify(base, {"claims": {**base, "c": moved}, "hit": True}) == "survived"
    assert classify(base, {"claims": {}, "hit": None, "timeout": True}) == "timeout"
    # nothing recorded changed: equivalent only if the mutated expression was evaluated
    assert classify(base, {"claims": base, "hit": True}) == "equivalent"
    assert classify(base, {"claims": base, "hit": False}) == "unexercised"


def test_the_probe_fires_only_when_the_mutated_expression_is_evaluated(tmp_path: Path, monkeypatch):
    path = tmp_path / "probed.py"
    path.write_text("def g(x):\n    if x > 0:\n        return x + 1\n    return x\n")
    monkeypatch.setattr(mutation, "ROOT", tmp_path)
    (index,) = [i for i, m in enumerate(mutation.enumerate_mutants(path)) if m.op == "swap"]
    finder = _MutantFinder("probed", mutation.mutated_source(path, index, probe=True), str(path))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr("sys.meta_path", [finder, *__import__("sys").meta_path])
    spec = importlib.util.find_spec("probed")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.g(-1) == -1 and not finder.hit  # the mutated branch did not run
    assert module.g(1) == 0 and finder.hit  # x + 1 -> x - 1, evaluated


def test_score_counts_unexercised_and_survivors_against_it(tmp_path: Path, monkeypatch):
    outcomes = iter(["killed", "survived", "unexercised", "equivalent"])
    monkeypatch.setattr(mutation, "affected_claims", lambda *a: ["c"])
    record = {"verdict": "PASS", "numbers": []}
    monkeypatch.setattr(mutation, "_run_worker", lambda spec, t: {"claims": {"c": record}})
    monkeypatch.setattr(mutation, "classify", lambda base, res: next(outcomes))
    src = mutation.ROOT / "numeric" / "models" / "losses.py"
    s = mutation.run([src], 4, "tiny", tmp_path, 0, 1.0, 1)
    assert (s["killed"], s["survived"], s["unexercised"], s["equivalent"]) == (1, 1, 1, 1)
    assert s["score"] == 1 / 3  # killed / (killed + survived + unexercised + timeout)
    assert "1 unexercised" in (tmp_path / "mutation.md").read_text()
    assert all(r["numbers_moved"] == [] for r in s["mutants"])  # the stub's numbers never move


@pytest.mark.parametrize("target", mutation.DEFAULT_TARGETS)
def test_default_targets_exist_and_have_mutants(target):
    path = mutation.ROOT / target
    assert path.is_file() and mutation.enumerate_mutants(path)
