r"""``verify new PAPER``: an installable package of claims for a paper outside the toolkit.

The package registers its paper through the ``relu_verify.papers`` entry point::

    <paper>-claims/
      pyproject.toml             # [project.entry-points."relu_verify.papers"] <paper> = "<paper>_claims"
      <paper>_claims/__init__.py # PAPER = Paper(...) and one claim with its negative control
      tests/test_claims.py       # every claim earns its expected verdict at the tiny profile

The claim is a true statement with a control that must break it: the leaky ReLU
:math:`\sigma(z)=\max(z,\alpha z)` equals :math:`\tfrac{1+\alpha}2z+\tfrac{1-\alpha}2|z|` for
:math:`\alpha\in[0,1]`, and not for :math:`\alpha=3`.
"""

from __future__ import annotations

from pathlib import Path

from verify.errors import UserError
from verify.registry import PAPERS, Paper, discover

PYPROJECT = """\
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "__PAPER__-claims"
version = "0.1.0"
description = "Claims of __PAPER__, verified with relu-verify"
requires-python = ">=3.11"
dependencies = ["relu-verify"]

# 'verify' finds the paper through this entry point once the package is installed.
[project.entry-points."relu_verify.papers"]
__PAPER__ = "__PACKAGE__"

[tool.setuptools]
packages = ["__PACKAGE__"]

[tool.pytest.ini_options]
pythonpath = ["."]
"""

MODULE = '''\
r"""__PAPER__: the paper and its claims (importing this module registers them)."""

import numpy as np

from verify.claim import claim
from verify.context import Context
from verify.hypotheses import Hypothesis
from verify.registry import Paper

PAPER = Paper(
    key="__PAPER__",
    title="Title of the paper",
    authors="First Author, Second Author",
    venue="Venue 2026",
)

EPS = np.finfo(float).eps
ALPHA_IN_UNIT = Hypothesis("alpha in [0, 1]", wording=r"$\\alpha\\in[0,1]$")


def decomposition_gap(z, alpha):
    """sigma(z) - [(1+alpha)/2 z + (1-alpha)/2 |z|] for sigma(z) = max(z, alpha z)."""
    return np.maximum(z, alpha * z) - ((1 + alpha) / 2 * z + (1 - alpha) / 2 * np.abs(z))


@claim(
    "__PAPER__:lemma-1",
    title="Leaky ReLU is linear plus a multiple of |z|",
    source="Lemma 1",
    statement=r"$\\max(z,\\alpha z)=\\tfrac{1+\\alpha}2 z+\\tfrac{1-\\alpha}2|z|$ for all $z$",
    hypotheses=[ALPHA_IN_UNIT],
)
def lemma_1(ctx: Context) -> None:
    n = ctx.param("trials", tiny=100, quick=10_000, full=10**6)  # sizes per profile
    z = ctx.rng("z").host.normal(size=n) * 1e3  # seeded, reproducible
    for alpha in (0.0, 0.3, 1.0):
        ctx.close(
            f"decomposition, alpha={alpha}",
            decomposition_gap(z, alpha),
            0.0,
            atol=4 * EPS * np.abs(z).max(),
            why="three roundings of numbers of size |z|",
        )
    with ctx.control("alpha = 3", breaks=ALPHA_IN_UNIT, must_break=["decomposition, alpha=*"]):
        ctx.close(
            "decomposition, alpha=3",
            decomposition_gap(z, 3.0),
            0.0,
            atol=4 * EPS * 3 * np.abs(z).max(),
            why="as above, numbers of size 3|z|",
        )
'''

TEST = '''\
"""Every claim of __PAPER__ earns its expected verdict at the tiny profile."""

import pytest

from verify.plugin import run
from verify.registry import use_claims

EXPECTED = {
    "__PAPER__:lemma-1": "PASS",
}

use_claims(["__PACKAGE__"])  # installed or not (pytest puts the project root on sys.path)


@pytest.mark.parametrize("claim_id", list(EXPECTED))
def test_claim_tiny(claim_id):
    record = run(claim_id, profile="tiny")
    assert record.verdict == EXPECTED[claim_id], (record.reason, record.traceback)
'''


def create(paper: str, directory: Path | None = None) -> list[Path]:
    """Write the package of ``paper`` into ``directory`` (default ``./<paper>-claims``).

    Raises :class:`UserError` for a malformed or already registered key and for a
    directory that exists and is not empty (nothing is overwritten).
    """
    try:
        Paper(paper, "", "", "")
    except ValueError as e:
        raise UserError(str(e)) from None
    discover()
    if paper in PAPERS:
        raise UserError(f"paper {paper!r} is already registered; pick another key")
    root = Path(f"{paper}-claims") if directory is None else directory
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise UserError(f"{root} exists and is not an empty directory; nothing written")
    package = f"{paper}_claims"
    files = {
        root / "pyproject.toml": PYPROJECT,
        root / package / "__init__.py": MODULE,
        root / "tests" / "test_claims.py": TEST,
    }
    try:
        for path, template in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(template.replace("__PAPER__", paper).replace("__PACKAGE__", package))
    except OSError as e:
        raise UserError(f"cannot write {root}: {e.strerror}") from None
    return list(files)
