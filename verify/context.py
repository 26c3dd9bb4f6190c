r"""The object a claim body receives: sizes, randomness, checks, controls, figures.

A claim body reads like its proof obligation::

    def theorem_1(ctx):
        err = ...                                      # compute
        ctx.close("odd part is linear", err, 0.0, atol=..., why="...")
        with ctx.control("biases added", breaks="bias-free"):
            ctx.close("odd part is linear", err_b, 0.0, atol=..., why="...")

Every check records ``measured``, ``expected``, ``tolerance``, the relation between
them and ``why`` -- the derivation of the tolerance.  Checks recorded inside
``with ctx.control(...)`` belong to a negative control: a hypothesis is broken there
and the same conclusion must visibly fail.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from numeric.backend import Backend, Rng, to_numpy
from verify.errors import UserError
from verify.profiles import Profile
from verify.verdict import Outcome

MAX_SERIES_POINTS = 400


def _scalar(x: Any) -> float:
    """A Python float from a number, 0-d array or device scalar."""
    return float(to_numpy(x)) if not isinstance(x, int | float) else float(x)


def _jsonable(x: Any) -> Any:
    if isinstance(x, int | float | str | bool) or x is None:
        return x
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_jsonable(v) for v in x]
    a = np.asarray(to_numpy(x))
    if a.ndim == 0:
        return a.item()
    return a.tolist()


def _thin(a: np.ndarray) -> np.ndarray:
    """At most ``MAX_SERIES_POINTS`` points of a series (log-spaced indices keep both ends)."""
    n = len(a)
    if n <= MAX_SERIES_POINTS:
        return a
    idx = np.unique(np.round(np.geomspace(1, n, MAX_SERIES_POINTS)).astype(int) - 1)
    return a[idx]


@dataclass
class Series:
    """One line of a figure."""

    label: str
    x: Sequence[float]
    y: Sequence[float]
    style: str = "-"


@dataclass
class Context:
    """Per-claim run state handed to the claim body (see module docstring)."""

    claim_id: str
    backend: Backend
    profile: Profile
    seed: int
    overrides: dict[str, Any] = field(default_factory=dict)
    checks: list[dict] = field(default_factory=list)
    figures: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)
    _control: str = ""

    # -- sizes and randomness ---------------------------------------------------------
    @property
    def xp(self):
        return self.backend.xp

    def param(self, name: str, *, tiny: Any, quick: Any, full: Any = None) -> Any:
        """The value of parameter ``name`` for this run's profile, or the user's ``--set``.

        ``full`` defaults to ``quick``.  Every value used is recorded in the results.
        """
        if name in self.overrides:
            value = self.overrides[name]
        else:
            value = {"tiny": tiny, "quick": quick, "full": quick if full is None else full}[self.profile.name]
        self.params[name] = value
        return value

    def require(self, condition: bool, message: str) -> None:
        """Reject a user-supplied combination of parameters (exit status 2, one line)."""
        if not condition:
            raise UserError(f"{self.claim_id}: {message}")

    def rng(self, key: str | int = 0) -> Rng:
        """A generator seeded by (run seed, claim id, key): reproducible and independent."""
        digest = hashlib.sha256(f"{self.seed}/{self.claim_id}/{key}".encode()).digest()
        return self.backend.rng(int.from_bytes(digest[:8], "little"))

    # -- checks -----------------------------------------------------------------------
    def _record(
        self,
        name: str,
        kind: str,
        relation: str,
        measured: Any,
        expected: Any,
        tolerance: Any,
        why: str,
        passed: bool | None,
        details: dict | None = None,
    ) -> bool:
        if _nonfinite(measured) or _nonfinite(expected):
            outcome = Outcome.ERROR
        elif passed is None:
            outcome = Outcome.INCONCLUSIVE
        else:
            outcome = Outcome.PASS if passed else Outcome.FAIL
        self.checks.append(
            {
                "name": name,
                "kind": kind,
                "relation": relation,
                "measured": _jsonable(measured),
                "expected": _jsonable(expected),
                "tolerance": _jsonable(tolerance),
                "why": why,
                "outcome": str(outcome),
                "verdict": outcome.value.upper(),
                "control": self._control,
                "details": _jsonable(details or {}),
            }
        )
        return outcome == Outcome.PASS

    def close(
        self,
        name: str,
        measured: Any,
        expected: Any,
        *,
        rtol: float = 0.0,
        atol: float = 0.0,
        why: str,
        kind: str = "numeric",
        details: dict | None = None,
    ) -> bool:
        r"""``measured`` equals ``expected`` within ``atol + rtol * |expected|``.

        Arrays are compared element-wise; the record holds the largest deviation
        :math:`\max_i|m_i-e_i|` (measured) against 0 (expected), with tolerance
        :math:`\text{atol} + \text{rtol}\max_i|e_i|`.
        """
        m = np.asarray(to_numpy(measured), dtype=float)
        e = np.asarray(to_numpy(expected), dtype=float)
        if m.shape != e.shape and e.size != 1:
            raise ValueError(f"check {name!r}: shapes {m.shape} and {e.shape} differ")
        tol = atol + rtol * float(np.max(np.abs(e)))
        if m.ndim == 0 and e.ndim == 0:
            dev = abs(float(m) - float(e))
            ok = bool(np.isfinite(dev) and dev <= tol)
            relation = f"|measured - expected| = {dev:.3g} <= tolerance"
            return self._record(name, kind, relation, float(m), float(e), tol, why, ok, details)
        dev = float(np.max(np.abs(m - e))) if m.size else 0.0
        if not np.all(np.isfinite(m)):
            dev = math.nan
        ok = bool(np.isfinite(dev) and dev <= tol)
        relation = "max_i |measured_i - expected_i| <= tolerance"
        return self._record(name, kind, relation, dev, 0.0, tol, why, ok, details)

    def bound(
        self,
        name: str,
        measured: Any,
        bound: Any,
        *,
        side: str = "<=",
        why: str,
        kind: str = "numeric",
        details: dict | None = None,
    ) -> bool:
        """``measured <= bound`` (or ``>=``); arrays: the worst element is recorded."""
        m = np.asarray(to_numpy(measured), dtype=float)
        b = np.broadcast_to(np.asarray(to_numpy(bound), dtype=float), m.shape)
        if side not in ("<=", ">="):
            raise ValueError(f"side must be '<=' or '>=', got {side!r}")
        margin = (b - m) if side == "<=" else (m - b)
        if not np.all(np.isfinite(m)):
            return self._record(name, kind, f"measured {side} bound", math.nan, None, 0.0, why, False)
        worst = int(np.argmin(margin)) if m.ndim else 0
        ok = bool(np.all(margin >= 0))
        mw, bw = float(m.reshape(-1)[worst]), float(b.reshape(-1)[worst])
        relation = f"measured {side} bound" + (f" (worst of {m.size})" if m.size > 1 else "")
        return self._record(name, kind, relation, mw, bw, 0.0, why, ok, details)

    def zero(self, name: str, residual: Any, *, why: str, details: dict | None = None) -> bool:
        """A symbolic residual is exactly zero (a SymPy expression or matrix, or a sequence)."""
        items = residual if isinstance(residual, list | tuple) else [residual]
        nonzero = [str(r) for r in items if not _is_exact_zero(r)]
        measured = "0" if not nonzero else "; ".join(nonzero)[:300]
        return self._record(
            name, "symbolic", "residual == 0 exactly", measured, "0", 0, why, not nonzero, details
        )

    def holds(
        self,
        name: str,
        condition: bool,
        *,
        measured: Any,
        expected: Any,
        why: str,
        kind: str = "numeric",
        details: dict | None = None,
    ) -> bool:
        """A boolean fact (e.g. a checker accepts or rejects), with what was seen."""
        return self._record(
            name, kind, "condition holds", measured, expected, None, why, bool(condition), details
        )

    def order(
        self,
        name: str,
        x: Sequence[float],
        error: Sequence[float],
        *,
        expected: float,
        tol: float,
        why: str,
        xlabel: str = "x",
        ylabel: str = "error",
    ) -> bool:
        """The measured power-law order ``d log error / d log x`` equals ``expected`` within ``tol``.

        This is how an asymptotic statement is verified: over a grid, never at one point.
        A figure of the fit is attached.
        """
        x = np.asarray(x, float)
        e = np.asarray(error, float)
        if not np.all(np.isfinite(e)) or np.any(e < 0):
            return self._record(name, "numeric", "fitted order", math.nan, expected, tol, why, False)
        if not np.all(e > 0):
            reason = f"{why} -- an error of exactly 0 at some grid point leaves the order undefined"
            return self._record(name, "numeric", "fitted order", None, expected, tol, reason, None)
        slope, intercept = np.polyfit(np.log(x), np.log(e), 1)
        self.figure(
            name,
            xlabel=xlabel,
            ylabel=ylabel,
            series=[
                Series("measured", x, e, "o"),
                Series(f"fit: order {slope:.3f}", x, np.exp(intercept) * x**slope, "--"),
            ],
            logx=True,
            logy=True,
        )
        ok = abs(slope - expected) <= tol
        return self._record(
            name,
            "numeric",
            "|fitted order - expected| <= tolerance",
            float(slope),
            expected,
            tol,
            why,
            ok,
            {"x": x, "error": e},
        )

    def undecided(self, name: str, reason: str, *, measured: Any = None) -> None:
        """A check that cannot be decided here (e.g. its regime is below float64)."""
        self._record(name, "numeric", "not decidable here", measured, None, None, reason, None)

    # -- controls, figures, notes -----------------------------------------------------
    @contextmanager
    def control(self, description: str, *, breaks: str) -> Iterator[None]:
        """Checks inside are a negative control: ``breaks`` names the violated hypothesis."""
        if self._control:
            raise RuntimeError("controls cannot be nested")
        self._control = f"{description} [breaks: {breaks}]"
        try:
            yield
        finally:
            self._control = ""

    def figure(
        self,
        name: str,
        *,
        series: Sequence[Series],
        xlabel: str = "",
        ylabel: str = "",
        title: str = "",
        logx: bool = False,
        logy: bool = False,
    ) -> None:
        """Attach a line plot, stored as data so ``verify report`` can redraw it."""
        self.figures.append(
            {
                "name": name,
                "title": title or name,
                "xlabel": xlabel,
                "ylabel": ylabel,
                "logx": logx,
                "logy": logy,
                "control": self._control,
                "series": [
                    {
                        "label": s.label,
                        "x": _jsonable(_thin(np.asarray(to_numpy(s.x), float))),
                        "y": _jsonable(_thin(np.asarray(to_numpy(s.y), float))),
                        "style": s.style,
                    }
                    for s in series
                ],
            }
        )

    def note(self, text: str) -> None:
        """A remark for the report (e.g. where the catalog or the paper is wrong, and why)."""
        self.notes.append(text)


def _nonfinite(v: Any) -> bool:
    """True for a NaN/inf number or a numeric array holding one (NumPy scalars included)."""
    if v is None or isinstance(v, str | bool):
        return False
    try:
        a = np.asarray(to_numpy(v), dtype=float)
    except (TypeError, ValueError):
        return False
    return not bool(np.all(np.isfinite(a)))


def _is_exact_zero(r: Any) -> bool:
    if hasattr(r, "is_zero_matrix"):
        return bool(r.is_zero_matrix)
    if hasattr(r, "is_zero"):
        return r.is_zero is True or r == 0
    return r == 0
