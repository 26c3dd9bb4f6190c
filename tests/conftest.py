"""Shared fixtures and hypothesis settings for the whole test suite.

* ``backend``: a :class:`numeric.backend.Backend`, parametrised over NumPy, the strict CPU
  stand-in for CuPy (``tests/strict_backend.py``) and CuPy.  The CuPy case carries the ``gpu``
  marker (``pytest -m gpu`` selects it, ``-m "not gpu"`` drops it) and skips cleanly when
  :func:`numeric.backend.cupy_available` is False.
* ``numpy_backend``: the NumPy backend only.
* ``verify_subprocess``: ``run_verify(*args, cwd=DIR)`` runs ``verify ARGS`` in a fresh
  interpreter and returns the completed process.
* ``verify_main``: ``invoke(*args)`` runs ``verify ARGS`` in-process through
  :func:`verify.cli.main` and returns ``(exit status, stdout, stderr)``.
* ``tiny_run``: one ``verify run zhang2025:theorem-1 --profile tiny`` per session (a
  subprocess, so it exercises the installed entry point); tests that modify its output
  copy it first (``tiny_run_copy``).
* hypothesis profiles: ``relu-verify`` (default: modest ``max_examples``, no deadline),
  ``ci`` (more examples, derandomised, no example database), ``dev`` (a quick look) and
  ``thorough`` (1000 examples per test, random, no example database: an occasional bug hunt,
  one test file at a time, never in CI).
  Choose one with ``HYPOTHESIS_PROFILE=ci python -m pytest``.

``tests/`` is put on ``sys.path`` so every test module can ``import strategies``
whatever pytest's import mode.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from numeric.backend import Backend, cupy_available, get_backend

TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))

# -- hypothesis ---------------------------------------------------------------------------
settings.register_profile(
    "relu-verify",
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=8, deadline=None)
settings.register_profile(
    "thorough",
    max_examples=1000,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "relu-verify")
settings.load_profile(HYPOTHESIS_PROFILE)


def pytest_collection_modifyitems(config, items) -> None:
    """Under ``thorough``, raise each property test's own ``max_examples`` to the profile's.

    Most property tests pin ``@settings(max_examples=...)`` for CI speed, which a profile alone
    does not override; the bug hunt needs every test at the profile's count.
    """
    if HYPOTHESIS_PROFILE != "thorough":
        return
    floor = settings.get_profile("thorough").max_examples
    for item in items:
        test = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is not None and own.max_examples < floor:
            test._hypothesis_internal_use_settings = settings(own, max_examples=floor, database=None)


# -- backends -----------------------------------------------------------------------------
@pytest.fixture(
    params=["numpy", "strict", pytest.param("cupy", marks=pytest.mark.gpu)],
    ids=["numpy", "strict", "cupy"],
)
def backend(request) -> Backend:
    """NumPy, the strict CPU stand-in for CuPy (``tests/strict_backend.py``), and CuPy where a GPU
    is usable (skipped otherwise)."""
    if request.param == "strict":
        from strict_backend import strict_backend

        return strict_backend()
    if request.param == "cupy" and not cupy_available():
        pytest.skip("CuPy with a usable NVIDIA GPU is not available")
    return get_backend(request.param)


@pytest.fixture
def numpy_backend() -> Backend:
    return get_backend("numpy")


# -- the verify CLI -----------------------------------------------------------------------
VERIFY = [sys.executable, "-c", "from verify.cli import main; main()"]


def run_verify(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    """``verify ARGS`` in a fresh interpreter (the real entry point: exit status, stderr)."""
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1")
    return subprocess.run(
        [*VERIFY, *map(str, args)], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


@pytest.fixture(scope="session")
def verify_subprocess():
    """The function ``run_verify(*args, cwd=...)`` -> ``subprocess.CompletedProcess``."""
    return run_verify


@pytest.fixture
def verify_main(monkeypatch, capsys):
    """The function ``invoke(*args)`` -> ``(exit status, stdout, stderr)`` of ``verify ARGS`` in-process.

    It calls :func:`verify.cli.main` (the console entry point) with ``sys.argv`` patched.
    """
    from verify.cli import main

    def invoke(*args) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["verify", *map(str, args)])
        monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # typer installs its own; restore it
        capsys.readouterr()
        with pytest.raises(SystemExit) as exc:
            main()
        out, err = capsys.readouterr()
        code = exc.value.code
        return (0 if code is None else code), out, err

    return invoke


@dataclass(frozen=True)
class TinyRun:
    out: Path
    proc: subprocess.CompletedProcess


TINY_CLAIM = "zhang2025:theorem-1"


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory) -> TinyRun:
    """``verify run zhang2025:theorem-1 --profile tiny --out DIR``, once per session (read-only)."""
    work = tmp_path_factory.mktemp("tiny-run")
    out = work / "reports"
    proc = run_verify("run", TINY_CLAIM, "--profile", "tiny", "--out", out, cwd=work)
    return TinyRun(out, proc)


@pytest.fixture
def tiny_run_copy(tiny_run, tmp_path) -> Path:
    """A private copy of the tiny run's output directory, free to modify."""
    if tiny_run.proc.returncode != 0:
        pytest.fail(f"the tiny run failed:\n{tiny_run.proc.stdout}\n{tiny_run.proc.stderr}")
    dst = tmp_path / "reports"
    shutil.copytree(tiny_run.out, dst)
    return dst
