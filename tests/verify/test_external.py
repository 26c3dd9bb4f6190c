"""Papers from outside the repository: ``verify new``, ``--claims``, entry points, staleness, and
the pytest plugin's verdict -> outcome mapping.

Everything that registers claims runs in a subprocess in a temporary directory outside the
repository, so this test session's registry stays the toolkit's own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from verify import results
from verify.errors import UserError
from verify.registry import use_claims
from verify.scaffold import create

CLI = "import sys; from verify.cli import main; sys.argv[0] = 'verify'; main()"


def _run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, env={**os.environ, **env})


def _verify(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return _run([sys.executable, "-c", CLI, *args], cwd, **env)


@pytest.mark.slow
def test_scaffold_runs_outside_the_repository(tmp_path):
    """``verify new`` -> ``verify run --claims`` earns PASS, and the package's own test passes."""
    made = _verify("new", "mypaper2026", "--dir", "pkg", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    src = str(tmp_path / "pkg" / "mypaper2026_claims")
    ran = _verify("run", "mypaper2026", "--claims", src, "--profile", "tiny", "--out", "out", cwd=tmp_path)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    (record,) = results.load(tmp_path / "out").values()
    assert (record.id, record.verdict) == ("mypaper2026:lemma-1", "PASS"), record.reason
    tested = _run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "pkg"], tmp_path)
    assert tested.returncode == 0, tested.stdout
    assert "1 passed" in tested.stdout


def test_an_installed_entry_point_registers_its_paper(tmp_path):
    """What ``pip install`` leaves behind -- the module and a dist-info with the entry point --
    on ``sys.path`` is enough for ``verify list``; a wrong or broken entry point is exit 2."""
    create("mypaper2027", tmp_path / "pkg")
    info = tmp_path / "pkg" / "mypaper2027_claims-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mypaper2027-claims\nVersion: 0.1.0\n")
    entry = info / "entry_points.txt"
    entry.write_text("[relu_verify.papers]\nmypaper2027 = mypaper2027_claims\n")
    path = str(tmp_path / "pkg")
    listed = _verify("list", "mypaper2027", cwd=tmp_path, PYTHONPATH=path, COLUMNS="200")
    assert listed.returncode == 0, listed.stderr
    assert "mypaper2027:lemma-1" in listed.stdout

    entry.write_text("[relu_verify.papers]\nother2027 = mypaper2027_claims\n")
    wrong = _verify("list", cwd=tmp_path, PYTHONPATH=path)
    assert wrong.returncode == 2 and "declares 'mypaper2027'" in wrong.stderr, wrong.stderr
    entry.write_text("[relu_verify.papers]\nmypaper2027 = no_such_module\n")
    broken = _verify("list", cwd=tmp_path, PYTHONPATH=path)
    assert broken.returncode == 2, broken.stderr
    assert "pip uninstall mypaper2027-claims" in broken.stderr and len(broken.stderr.splitlines()) == 1


def test_external_claims_go_stale_when_a_module_they_import_changes(tmp_path):
    """``source_hash`` covers the claim's package: editing a helper module changes it."""
    create("mypaper2028", tmp_path / "pkg")
    package = tmp_path / "pkg" / "mypaper2028_claims"
    (package / "helpers.py").write_text("SCALE = 1e3\n")
    init = package / "__init__.py"
    init.write_text(
        init.read_text()
        .replace(
            "from verify.registry import Paper\n",
            "from verify.registry import Paper\n\nfrom .helpers import SCALE\n",
        )
        .replace("* 1e3", "* SCALE")
    )
    probe = "import mypaper2028_claims, verify.claim as c; print(c.registered()[%r].source_hash)"
    probe %= "mypaper2028:lemma-1"

    def source_hash() -> str:  # a fresh process each time: the hash is computed once per process
        done = _run([sys.executable, "-c", probe], tmp_path, PYTHONPATH=str(tmp_path / "pkg"))
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    before = source_hash()
    assert before == source_hash()
    (package / "helpers.py").write_text("SCALE = 1e2\n")
    assert source_hash() != before


ORPHAN = textwrap.dedent(
    """
    from verify.claim import claim
    from verify.registry import Paper

    PAPER = Paper("mine2026", "t", "a", "v")

    @claim("theirs2026:lemma-1", title="t", source="s", statement="s", hypotheses=[])
    def lemma_1(ctx):
        pass
    """
)


def test_a_claim_of_an_undeclared_paper_is_one_line_exit_2(tmp_path):
    (tmp_path / "orphan.py").write_text(ORPHAN)
    done = _verify("list", "--claims", "orphan.py", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "belongs to paper 'theirs2026', which no module declares" in done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr


BAD_SOURCES = {  # none of these registers a claim, so they can be tried in this process
    "missing.py": (None, "no such file or directory"),
    "numpy": (None, "declares no PAPER"),
    "nopackage": ("", "not a package"),
    "package/inside.py": ("X = 1\n", "belongs to package .*package: name the package"),
    "syntax_error_here.py": ("def broken(:\n", r"SyntaxError: .*syntax_error_here.py:1\)"),
    "raises_here.py": ("1 / 0\n", r"ZeroDivisionError: division by zero \(.*raises_here.py:1\)"),
    "nopaper_here.py": ("X = 1\n", r"declares no PAPER = Paper\(\.\.\.\)"),
    "taken_here.py": (
        "from verify.registry import Paper\nPAPER = Paper('zhang2025', 't', 'a', 'v')\n",
        "already declared by module verify.papers.zhang2025",
    ),
}


@pytest.mark.parametrize("source", list(BAD_SOURCES))
def test_bad_claim_sources_are_rejected(tmp_path, monkeypatch, source):
    code, message = BAD_SOURCES[source]
    if code == "":
        (tmp_path / source).mkdir()
    elif code is not None:
        if "/" in source:  # a module inside a package
            (tmp_path / source).parent.mkdir()
            (tmp_path / source).parent.joinpath("__init__.py").touch()
        (tmp_path / source).write_text(code)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))  # use_claims puts tmp_path first: undone after
    with pytest.raises(UserError, match=message):
        use_claims([source])


@pytest.mark.parametrize(
    "paper, message",
    [("MyPaper", "not of the form"), ("zhang2025", "already registered"), ("mypaper2026", "not an empty")],
)
def test_verify_new_rejects_bad_keys_and_never_overwrites(tmp_path, paper, message):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "keep.txt").write_text("mine")
    with pytest.raises(UserError, match=message):
        create(paper, tmp_path / "taken")
    assert [p.name for p in (tmp_path / "taken").iterdir()] == ["keep.txt"]


VERDICTS = textwrap.dedent(
    """
    from verify.claim import Erratum, claim
    from verify.hypotheses import Hypothesis
    from verify.registry import Paper

    PAPER = Paper("verdicts2026", "Every verdict once", "A. Author", "nowhere")
    H = Hypothesis("x is one")


    def checks(ctx, x):
        ctx.close("x = 1", x, 1.0, atol=0.0, why="exact")
        with ctx.control("x = 2", breaks=H, must_break=["x = 1"]):
            ctx.close("x = 1", 2.0, 1.0, atol=0.0, why="exact")


    def declare(slug, **kw):
        return claim(f"verdicts2026:{slug}", title=slug, source="s", statement="s", hypotheses=[H], **kw)


    @declare("lemma-1")
    def passes(ctx):
        checks(ctx, 1.0)


    @declare("lemma-2")
    def fails(ctx):
        checks(ctx, 1.5)


    @declare("lemma-3")
    def crashes(ctx):
        raise RuntimeError("boom")


    @declare("lemma-4", erratum=Erratum("printed wrong"))
    def erratum_reproduced(ctx):
        checks(ctx, 1.5)


    @declare("lemma-5", erratum=Erratum("printed wrong"))
    def erratum_not_reproduced(ctx):
        checks(ctx, 1.0)


    @declare("lemma-6")
    def undecided(ctx):
        ctx.undecided("x = 1", "cannot tell at this size")
    """
)

RECORDER = textwrap.dedent(
    """
    import json

    SEEN = {}


    def pytest_runtest_logreport(report):
        if report.when == "call" or report.outcome != "passed":
            outcome = "xfailed" if hasattr(report, "wasxfail") else report.outcome
            SEEN[report.nodeid.rsplit("::", 1)[-1]] = [outcome, str(report.longrepr)]


    def pytest_sessionfinish(session):
        with open("outcomes.json", "w") as f:
            json.dump(SEEN, f)
    """
)


def test_plugin_maps_verdicts_to_pytest_outcomes(tmp_path):
    """PASS passed; FAIL, ERROR failed; XFAIL xfailed; XPASS failed (strict); INCONCLUSIVE skipped
    with the reason; only the papers that do not ship with the toolkit are collected."""
    (tmp_path / "verdict_claims.py").write_text(VERDICTS)
    (tmp_path / "conftest.py").write_text(RECORDER)
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--verify-profile", "tiny"]
    done = _run([*args, "--verify-claims", "verdict_claims.py"], tmp_path)
    assert done.returncode == 1, done.stdout
    seen = json.loads((tmp_path / "outcomes.json").read_text())
    outcomes = {claim_id: outcome for claim_id, (outcome, _) in seen.items()}
    assert outcomes == {
        "verdicts2026:lemma-1": "passed",
        "verdicts2026:lemma-2": "failed",
        "verdicts2026:lemma-3": "failed",
        "verdicts2026:lemma-4": "xfailed",
        "verdicts2026:lemma-5": "failed",
        "verdicts2026:lemma-6": "skipped",
    }
    assert "FAIL" in seen["verdicts2026:lemma-2"][1] and "x = 1" in seen["verdicts2026:lemma-2"][1]
    assert "RuntimeError: boom" in seen["verdicts2026:lemma-3"][1]
    assert "XPASS" in seen["verdicts2026:lemma-5"][1]
    assert "INCONCLUSIVE: undecided: x = 1" in seen["verdicts2026:lemma-6"][1]

    one = _run([*args, "--verify-claims", "verdict_claims.py", "-k", "lemma-1"], tmp_path)
    assert one.returncode == 0 and "1 passed" in one.stdout, one.stdout
    usage = _run([*args[:-2], "--verify-claims", "verdict_claims.py"], tmp_path)
    assert usage.returncode == 4 and "need --verify-profile" in usage.stderr, usage.stderr
