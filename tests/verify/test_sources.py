"""Staleness granularity: a record depends on the modules its claim reaches, not on its whole paper."""

import json

from verify import sources
from verify.sources import closure, code_hash


def _package(root, name: str) -> None:
    pkg = root / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text(f"from {name} import lemmas, figures  # noqa: F401\n")
    (pkg / "helpers.py").write_text("SCALE = 1e3\n")
    (pkg / "lemmas.py").write_text(f"from {name}.helpers import SCALE\nimport numeric.backend\n")
    (pkg / "figures.py").write_text("RUNS = 4\n")


def test_a_sibling_module_registered_by_the_package_does_not_stale_a_claim(tmp_path, monkeypatch):
    _package(tmp_path, "sourcespaper2029")
    monkeypatch.syspath_prepend(str(tmp_path))
    reached = closure("sourcespaper2029.lemmas")
    assert {"sourcespaper2029", "sourcespaper2029.helpers", "numeric.backend"} <= set(reached)
    assert "sourcespaper2029.figures" not in reached  # imported by __init__ only to register
    assert "sourcespaper2029.lemmas" in closure("sourcespaper2029")  # the package itself: all of it


def _fresh_hash(module: str) -> str:
    """``code_hash`` as a new process computes it (the functions below cache per process)."""
    for cached in (sources._origin, sources._imports, sources.closure, sources._file_digest, code_hash):
        cached.cache_clear()
    return code_hash(module)


def test_editing_a_module_the_claim_imports_changes_its_hash_and_no_other(tmp_path, monkeypatch):
    _package(tmp_path, "sourcespaper2030")
    monkeypatch.syspath_prepend(str(tmp_path))
    before = _fresh_hash("sourcespaper2030.lemmas")
    (tmp_path / "sourcespaper2030" / "figures.py").write_text("RUNS = 8\n")
    assert _fresh_hash("sourcespaper2030.lemmas") == before
    (tmp_path / "sourcespaper2030" / "helpers.py").write_text("SCALE = 1e2\n")
    assert _fresh_hash("sourcespaper2030.lemmas") != before


def test_every_paper_claim_reaches_its_own_module_and_the_engine():
    from verify.registry import all_claims

    for c in all_claims().values():
        reached = closure(c.body.__module__)
        assert c.body.__module__ in reached and "verify.context" in reached, c.id


def test_docstrings_comments_and_positions_stale_nothing_but_code_does(tmp_path, monkeypatch):
    _package(tmp_path, "sourcespaper2031")
    monkeypatch.syspath_prepend(str(tmp_path))
    helpers = tmp_path / "sourcespaper2031" / "helpers.py"
    code = (
        '"""Scales."""\n\nSCALE = 1e3  # per step\n\n\ndef scale():\n    """The scale."""\n    return SCALE\n'
    )
    helpers.write_text(code)
    before = _fresh_hash("sourcespaper2031.lemmas")
    helpers.write_text(
        code.replace("Scales.", "Scales, reworded.").replace("  # per step", "").replace("\n\n\n", "\n\n\n\n")
    )
    assert _fresh_hash("sourcespaper2031.lemmas") == before
    helpers.write_text(code.replace("1e3", "1e2"))
    assert _fresh_hash("sourcespaper2031.lemmas") != before
    helpers.write_text(code.replace("    return SCALE\n", ""))  # a body that only has its docstring left
    assert _fresh_hash("sourcespaper2031.lemmas") != before


def test_digests_kept_on_disk_are_the_parsed_ones_and_a_bad_store_is_ignored(tmp_path, monkeypatch):
    """The on-disk store (keyed by the file's bytes) gives the digest a parse gives; an edit gets a
    new key; an unreadable or malformed store is read as empty."""
    _package(tmp_path, "sourcespaper2032")
    monkeypatch.syspath_prepend(str(tmp_path))
    store = tmp_path / "cache" / "digests.json"
    monkeypatch.setattr(sources, "DIGESTS", store)
    sources._known_digests.cache_clear()
    parsed = _fresh_hash("sourcespaper2032.lemmas")
    sources._save_digests()
    assert store.exists() and len(json.loads(store.read_text())) >= 4  # the package's 3 modules, numeric...
    sources._known_digests.cache_clear()
    assert _fresh_hash("sourcespaper2032.lemmas") == parsed  # now read from the store
    (tmp_path / "sourcespaper2032" / "helpers.py").write_text("SCALE = 1e2\n")
    assert _fresh_hash("sourcespaper2032.lemmas") != parsed
    for bad in ("not json", "[1, 2]", json.dumps({"a" * 64: "zz"})):
        store.write_text(bad)
        sources._known_digests.cache_clear()
        assert sources._known_digests() == {}
    sources._known_digests.cache_clear()
