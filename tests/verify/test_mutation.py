"""verify.mutation: mutants are single, reproducible edits of formulas, classified by verdicts."""

from __future__ import annotations

import ast
import importlib.util
import sys
import textwrap
from pathlib import Path

import pytest

from verify import mutation, mutation_coverage, mutation_notes
from verify.mutation import _mutable, _MutantFinder, _Replace, classify, decide, invariance_failures

SOURCE = textwrap.dedent(
    '''
    def f(x: float, n: int = 3) -> float:
        """a docstring with 2 + 2"""
        y = x[1:2] if False else x
        label = f"n={n}" + (" (odd)" if n % 2 else "")
        return -(y + 2.5) * y**2 / n - f"{3 + 4}".count("7") + sum(x, start=5) + len(label)
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
        assert "+ (' (odd)'" in v  # joining text is not a formula
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


def test_score_counts_every_non_equivalent_outcome_against_it(tmp_path: Path, monkeypatch):
    outcomes = iter(["killed", "survived", "unexercised", "equivalent"])
    monkeypatch.setattr(mutation, "reaching_claims", lambda path: ["c"])
    monkeypatch.setattr(mutation, "line_coverage", lambda *a: {"c": {"seconds": 1.0, "lines": {}}})
    monkeypatch.setattr(mutation_coverage, "covering", lambda *a: ["c"])
    monkeypatch.setattr(mutation, "outcome_key", lambda m, *a: str(m))
    record = {"verdict": "PASS", "numbers": [], "regimes": [], "controls": []}
    monkeypatch.setattr(mutation, "_run_worker", lambda spec, t: {"claims": {"c": record}})
    monkeypatch.setattr(mutation, "classify", lambda base, res: next(outcomes))
    src = mutation.ROOT / "numeric" / "models" / "losses.py"
    s = mutation.run([src], 4, "tiny", tmp_path, 0, 1.0, 1, tmp_path / "cache")
    assert (s["killed"], s["survived"], s["unexercised"], s["equivalent"]) == (1, 1, 1, 1)
    assert s["score"] == 1 / 3  # killed / (killed + survived + unexercised + uncovered + timeout)
    text = (tmp_path / "mutation.md").read_text()
    assert "1 unexercised" in text and "**not explained**" in text  # a survivor without a note says so
    assert all(r["numbers_moved"] == [] for r in s["mutants"])  # the stub's numbers never move
    # the same mutants on unchanged code: every outcome comes from the cache, no worker runs
    monkeypatch.setattr(mutation, "_run_worker", lambda spec, t: pytest.fail("ran a worker"))
    again = mutation.run([src], 4, "tiny", tmp_path, 0, 1.0, 1, tmp_path / "cache")
    assert [r["status"] for r in again["mutants"]] == [r["status"] for r in s["mutants"]]


def test_a_mutant_no_claim_covers_is_uncovered_and_never_run(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(mutation, "reaching_claims", lambda path: ["c"])
    monkeypatch.setattr(mutation, "line_coverage", lambda *a: {"c": {"seconds": 1.0, "lines": {}}})
    monkeypatch.setattr(mutation, "outcome_key", lambda m, *a: str(m))
    ran = []
    monkeypatch.setattr(mutation, "_run_worker", lambda spec, t: ran.append(spec) or {"claims": {}})
    src = mutation.ROOT / "numeric" / "models" / "losses.py"
    s = mutation.run([src], 3, "tiny", tmp_path, 0, 1.0, 8, tmp_path / "cache")
    inside = [r for r in s["mutants"] if not r["at_import"]]
    assert inside and all(r["status"] == "uncovered" and r["claims"] == [] for r in inside)
    assert all("path" not in spec for spec in ran)  # no mutant worker was started for them


def test_an_outcome_key_changes_with_the_code_the_covering_claims_run():
    (m, *_) = mutation.enumerate_mutants(mutation.ROOT / "numeric" / "models" / "losses.py")
    cid = "zhang2025:theorem-1"
    key = mutation.outcome_key(m, [cid], "tiny", 8)
    assert key == mutation.outcome_key(m, [cid], "tiny", 8)
    assert key != mutation.outcome_key(m, [], "tiny", 8) and key != mutation.outcome_key(m, [cid], "quick", 8)


def test_coverage_picks_the_claims_that_execute_the_line_cheapest_first_and_caps_them():
    entries = {
        "slow": {"seconds": 9.0, "lines": {"m.py": [3, 4]}},
        "fast": {"seconds": 0.5, "lines": {"m.py": [4]}},
        "other": {"seconds": 0.1, "lines": {"m.py": [7]}},
    }
    reaching = ["slow", "fast", "other", "untraced"]
    assert mutation_coverage.covering(entries, "m.py", range(4, 5), False, reaching) == ["fast", "slow"]
    assert mutation_coverage.covering(entries, "m.py", range(3, 4), False, reaching) == ["slow"]
    assert mutation_coverage.covering(entries, "m.py", range(5, 7), False, reaching) == []
    # a site evaluated on import is run by every claim importing the module
    assert mutation_coverage.covering(entries, "m.py", range(1, 2), True, reaching)[-1] == "untraced"


def test_the_tracer_records_lines_of_the_target_files_only(tmp_path: Path, monkeypatch):
    path = tmp_path / "traced.py"
    path.write_text("def g(x):\n    if x > 0:\n        return x + 1\n    return x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import traced

    hits: dict[str, set[int]] = {str(path): set()}
    tracer = mutation_coverage._tracer({str(path)}, hits)
    sys.settrace(tracer)
    try:
        traced.g(-1)
        textwrap.dedent("  x")  # another file's frame: not recorded
    finally:
        sys.settrace(None)
    assert hits == {str(path): {1, 2, 4}}  # the def line on call, the test, the second return


def test_the_coverage_cache_is_keyed_by_the_claims_source_hash_and_files(tmp_path: Path):
    entry = {"source_hash": "abc", "files": ["a.py", "b.py"], "lines": {}, "seconds": 1.0, "version": 2}
    mutation_coverage.save(tmp_path, "coverage-tiny", {"c": entry})
    loaded = mutation_coverage.load(tmp_path, "coverage-tiny")
    assert mutation_coverage.fresh(loaded["c"], "abc", ["a.py"])
    assert not mutation_coverage.fresh(loaded["c"], "abd", ["a.py"])  # the claim's code changed
    assert not mutation_coverage.fresh(loaded["c"], "abc", ["c.py"])  # a file it was not traced on
    assert not mutation_coverage.fresh({**entry, "version": 1}, "abc", ["a.py"])  # an older tracer
    assert mutation_coverage.load(tmp_path, "coverage-quick") == {}


def test_mutants_know_whether_they_run_on_import(tmp_path: Path, monkeypatch):
    path = tmp_path / "sites.py"
    path.write_text("K = 2.5 * 3\n\n\ndef f(x):\n    return (x\n            + K)\n")
    monkeypatch.setattr(mutation, "ROOT", tmp_path)
    by_op = {(m.op, m.at_import): m for m in mutation.enumerate_mutants(path)}
    assert ("swap", True) in by_op  # K = 2.5 * 3 runs on import
    assert (by_op[("swap", False)].line, by_op[("swap", False)].end_line) == (5, 6)


def test_bad_input_is_one_line_and_exit_2(capsys):
    assert mutation.main(["no/such/file.py"]) == 2
    assert mutation.main(["numeric/models/losses.py", "--max-claims", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(e.startswith("verify.mutation: error:") for e in err)


@pytest.mark.parametrize("target", mutation.DEFAULT_TARGETS)
def test_default_targets_exist_and_have_mutants(target):
    path = mutation.ROOT / target
    assert path.is_file() and mutation.enumerate_mutants(path)


def test_memos_are_cleared_between_traced_claims(tmp_path: Path, monkeypatch):
    path = tmp_path / "memo.py"
    path.write_text("import functools\n\n\n@functools.cache\ndef slow(x):\n    return x + 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import memo

    memo.slow.__module__ = "verify.memo_for_test"  # a project memo
    hits: dict[str, set[int]] = {str(path): set()}
    memo.slow(1)
    mutation_coverage._clear_memos()
    sys.settrace(mutation_coverage._tracer({str(path)}, hits))
    try:
        memo.slow(1)  # recomputed, so traced
    finally:
        sys.settrace(None)
    assert 6 in hits[str(path)]


# -- H0: a stable sample ------------------------------------------------------------------------------

MODULE = "\n\n".join(
    f"def f{i}(x):\n    y = {i + 2} * x - x / {i + 3}\n    return (y + {2 * i + 5}) ** 2 - 1.5 * y"
    for i in range(8)
)


def drawn(path: Path, k: int = 5) -> set[tuple]:
    return {m.site for m in mutation.sample(mutation.enumerate_mutants(path), k, seed=0)}


def test_the_sample_keeps_its_sites_when_other_code_moves_or_changes(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(mutation, "ROOT", tmp_path)
    path = tmp_path / "mod.py"
    path.write_text(MODULE)
    first = drawn(path)
    assert len(first) == 5 and all(m.line > 0 for m in mutation.enumerate_mutants(path))
    # moved lines: the functions in reverse order, after a new function without sites and a comment
    defs = MODULE.split("\n\n")
    path.write_text("def g():\n    return None  # new\n\n\n" + "\n\n".join(reversed(defs)))
    assert drawn(path) == first
    # an edit of a function none of whose sites was drawn: its old sites go, its new ones may enter
    (free, *_) = [i for i in range(8) if not any(s[1] == f"f{i}" for s in first)]
    defs[free] = f"def f{free}(x):\n    return 7 * x + 9 - x / 11"
    path.write_text("\n\n".join(defs))
    after = drawn(path)
    entered = after - first
    assert all(s[1] == f"f{free}" for s in entered)  # only the edited function's new sites can enter
    assert len(after & first) == 5 - len(entered)  # each displacing one drawn site
    # the sites removed from it were never drawn, so removing them changes nothing
    defs[free] = f"def f{free}(x):\n    return x"
    path.write_text("\n\n".join(defs))
    assert drawn(path) == first


def test_a_site_is_identified_without_its_line_number(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(mutation, "ROOT", tmp_path)
    path = tmp_path / "twice.py"
    path.write_text(
        "class C:\n    def f(self, x):\n        a = x * 3  # note\n        b = x * 3\n        return a + b\n"
    )
    sites = [m.site for m in mutation.enumerate_mutants(path) if m.op == "double"]
    # the comment is no part of the text; the same edit of the same text twice counts occurrences
    assert [s[1:] for s in sites] == [
        ("C.f", "a = x * 3", "double", "3", "6", 0),
        ("C.f", "b = x * 3", "double", "3", "6", 0),
    ]
    path.write_text("class C:\n    def f(self, x):\n        return x * 3 + (x *\n   3) * 3\n")
    texts = [(m.text, m.occurrence) for m in mutation.enumerate_mutants(path) if m.op == "double"]
    # a site's text is its own lines: the 3 on the continuation line is told apart by "3) * 3"
    assert texts == [("return x * 3 + (x *", 0), ("3) * 3", 0), ("3) * 3", 1)]


# -- P: instance-equivalent --------------------------------------------------------------------------

SITE = ("m.py", "f", "n = 4", "double", "4", "8", 0)


def runs(regimes: list | None = None, controls: list | None = None, verdict: str = "PASS") -> dict:
    """A worker's record of claim ``c``: its regime records and controls (label, ok)."""
    rec = {"verdict": verdict, "numbers": [], "regimes": regimes or [], "controls": controls or []}
    return {"c": rec}


BASE = runs([["H", True], ["S", None]], [["ctl", True]])


def decided(mutant: dict, skipped: list[str] = (), status: str = "survived", site: tuple = SITE, **row):
    failures = invariance_failures(BASE, {"claims": mutant}, ["c"], list(skipped))
    row = {"path": "m.py", "line": 3, "before": "4", "after": "8", "site": list(site), **row}
    return decide({**row, "status": status, "invariance": failures})


def test_a_declared_site_is_instance_equivalent_only_when_its_run_shows_the_instance_admissible(
    monkeypatch,
):
    monkeypatch.setitem(mutation_notes.INSTANCE, SITE, mutation_notes.Instance("n", "holds for every n"))
    assert decided(BASE) == ("instance-equivalent", [])
    # a regime record lost or not reached, a control that no longer breaks or did not run: stays
    status, why = decided(runs([["H", False], ["S", None]], [["ctl", True]]))
    assert status == "survived" and why == ["c: regime of H not reached"]
    assert decided(runs([["S", None]], [["ctl", True]]))[1] == ["c: regime of H not recorded"]
    assert decided(runs([["H", True]], [["ctl", False]]))[1] == [
        "c: control 'ctl' no longer breaks its conclusions"
    ]
    assert decided(runs([["H", True]]))[1] == ["c: control 'ctl' did not run"]
    # every covering claim must have been re-run
    assert decided(BASE, skipped=["d"])[1] == ["covering claims over the cap, not re-run: d"]
    # nothing audited: a claim without regime records or controls witnesses nothing
    bare = runs()
    failures = invariance_failures(bare, {"claims": bare}, ["c"], [])
    assert (
        decide(
            {
                "status": "survived",
                "site": SITE,
                "invariance": failures,
                "path": "m.py",
                "line": 3,
                "before": "4",
                "after": "8",
            }
        )[0]
        == "survived"
        and "nothing" in failures[0]
    )
    # undeclared sites and other outcomes keep their status
    assert decided(BASE, site=("m.py", "g", "n = 4", "double", "4", "8", 0)) == ("survived", [])
    assert decided(runs(verdict="FAIL"), status="killed") == ("killed", [])
    # a survivor noted as a rounding allowance (kind A) is never reclassified
    monkeypatch.setitem(mutation_notes.NOTES, SITE, mutation_notes.Note("A", "eps", "none"))
    assert decided(BASE) == ("survived", ["its survivor note is of kind A, not an instance parameter (B)"])


def test_the_report_lists_instance_equivalents_and_gives_both_scores(tmp_path: Path, monkeypatch):
    src = mutation.ROOT / "numeric" / "models" / "losses.py"
    chosen = mutation.sample(mutation.enumerate_mutants(src), 4, 0)
    monkeypatch.setitem(
        mutation_notes.INSTANCE, chosen[1].site, mutation_notes.Instance("a size", "any size")
    )
    stale = (chosen[0].path, "gone", "x = 2", "double", "2", "4", 0)
    monkeypatch.setitem(mutation_notes.INSTANCE, stale, mutation_notes.Instance("gone", "gone"))
    outcomes = iter(["killed", "survived", "survived", "equivalent"])
    monkeypatch.setattr(mutation, "reaching_claims", lambda path: ["c"])
    monkeypatch.setattr(mutation, "line_coverage", lambda *a: {"c": {"seconds": 1.0, "lines": {}}})
    monkeypatch.setattr(mutation_coverage, "covering", lambda *a: ["c"])
    monkeypatch.setattr(mutation, "outcome_key", lambda m, *a: str(m))
    monkeypatch.setattr(mutation, "_run_worker", lambda spec, t: {"claims": BASE})
    monkeypatch.setattr(mutation, "classify", lambda base, res: next(outcomes))
    s = mutation.run([src], 4, "tiny", tmp_path, 0, 1.0, 1, tmp_path / "cache")
    assert [r["status"] for r in s["mutants"]] == ["killed", "instance-equivalent", "survived", "equivalent"]
    assert s["score"] == 1 / 3 and s["score_instance"] == 1 / 2 and s["stale_instance"] == [stale]
    text = (tmp_path / "mutation.md").read_text()
    assert "1 instance-equivalent" in text and "## Instance-equivalent (1)" in text and "| a size |" in text
    assert "= **33.3%**" in text and "= **50.0%**" in text and "(stale, unused)" in text
    assert "c (1 regimes reached, 1 controls broke)" in text  # what the audit read


def test_no_declared_instance_site_is_a_noted_allowance_or_constant():
    # kinds A (rounding allowances), C (paper constants) and D (formula faults) must be caught by checks
    # notes and declarations both key a site by its identity (Mutant.site: no line number)
    for site in mutation_notes.INSTANCE:
        note = mutation_notes.NOTES.get(site)
        assert note is None or note.kind == "B", site
