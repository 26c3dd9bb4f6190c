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
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from numeric.backend import Backend, Rng, to_numpy
from numeric.measures.statistics import clopper_pearson
from verify import evidence
from verify.hypotheses import Hypothesis, resolve
from verify.params import check_requirement, declared_values, value_of
from verify.profiles import Profile
from verify.records import Check, ControlDeclaration, HypothesisRecord, Outcome, Scale
from verify.search import worst_instance

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


@dataclass(frozen=True)
class _Side:
    """The statement ``P >= p0``, ``P <= p0`` or ``P = p0`` as the exact test reads it.

    ``=`` is the two one-sided tests at once (its tails): rejected when either rejects, a
    violation either way, and no estimate lies on its wrong side."""

    symbol: str

    @property
    def tails(self) -> tuple[str, ...]:
        return (">=", "<=") if self.symbol == "==" else (self.symbol,)

    @property
    def shown(self) -> str:
        return "=" if self.symbol == "==" else self.symbol

    def violated(self, p: np.ndarray, p0: np.ndarray) -> np.ndarray:
        """Whether a true ``P = p`` violates the statement."""
        return np.any([p < p0 if t == ">=" else p > p0 for t in self.tails], axis=0)

    def gap(self, lo: np.ndarray, hi: np.ndarray, p0: np.ndarray) -> np.ndarray:
        """How far the interval ``[lo, hi]`` is from rejecting (< 0: rejected)."""
        return np.min([hi - p0 if t == ">=" else p0 - lo for t in self.tails], axis=0)

    def alternatives(self, p0: float, p: float) -> tuple[float, ...]:
        """The violations to reject: ``p``, and its mirror image about ``p0`` for ``=``."""
        return (p, 2 * p0 - p) if self.symbol == "==" else (p,)

    def opposed(self, k: np.ndarray, n: np.ndarray, p0: np.ndarray) -> np.ndarray:
        """Whether the estimate ``k / n`` lies on the wrong side of a one-sided bound."""
        if self.symbol == "==":
            return np.zeros(k.shape, bool)
        return k < p0 * n if self.symbol == ">=" else k > p0 * n


@dataclass
class Context:
    """Per-claim run state handed to the claim body (see module docstring)."""

    claim_id: str
    backend: Backend
    profile: Profile
    seed: int
    overrides: dict[str, Any] = field(default_factory=dict)
    checks: list[Check] = field(default_factory=list)
    figures: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)
    hypotheses: tuple[Hypothesis, ...] = ()
    controls: list[ControlDeclaration] = field(default_factory=list)
    regimes: list[HypothesisRecord] = field(default_factory=list)
    scale: Scale | None = None
    _control: str = ""

    # -- sizes and randomness ---------------------------------------------------------
    @property
    def xp(self):
        return self.backend.xp

    def param(self, name: str, *, tiny: Any, quick: Any, full: Any = None) -> Any:
        """The value of parameter ``name`` for this run's profile, or the user's ``--set``.

        ``full`` defaults to ``quick``.  Every value used is recorded in the results.
        An override is converted to the type the declared values give (``verify/params.py``);
        read parameters before anything else so that ``verify/plan.py`` checks them before a run.
        """
        declared = declared_values(tiny, quick, full)
        value = value_of(self.claim_id, name, declared, self.profile.name, self.overrides)
        self.params[name] = value
        return value

    def require(self, condition: bool, message: str) -> None:
        """Reject a user-supplied combination of parameters (exit status 2, one line)."""
        check_requirement(self.claim_id, condition, message)

    def rng(self, key: str | int = 0) -> Rng:
        """A generator seeded by (run seed, claim id, key): reproducible and independent."""
        digest = hashlib.sha256(f"{self.seed}/{self.claim_id}/{key}".encode()).digest()
        return self.backend.rng(int.from_bytes(digest[:8], "little"))

    def map(
        self, fn: Callable[[Any, Rng], Any], items: Sequence[Any], *, key: str, chunk: int | None = None
    ) -> list[Any]:
        """``[fn(item, self.rng(f"{key}-{i}")) for i, item in enumerate(items)]``, on the cluster if any.

        A sweep (seeds, grid points, restarts) inside one claim: inline in a plain run, cut
        into chunks on the same cluster when the claim runs on a Dask worker (``verify run
        --workers N`` / ``--scheduler``; :func:`verify.distributed.map_items`). Item ``i``'s
        generator depends on (seed, claim id, ``key``, ``i``) only, so the results do not
        depend on the number of workers or on ``chunk``. ``fn`` must be picklable (a
        module-level function or a ``functools.partial`` of one) and must not touch the
        context: record checks from the values it returns.
        """
        from verify.distributed import map_items  # imports Dask only on a worker

        items = list(items)
        return map_items(fn, items, [self.rng(f"{key}-{i}") for i in range(len(items))], chunk=chunk)

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
        ev: evidence.Evidence | None = None,
    ) -> bool:
        ev = ev or evidence.Evidence()
        if _nonfinite(measured) or _nonfinite(expected):
            outcome = Outcome.ERROR
        elif passed is None:
            outcome = Outcome.INCONCLUSIVE
        else:
            outcome = Outcome.PASS if passed else Outcome.FAIL
        self.checks.append(
            Check(
                name,
                kind,
                relation,
                _jsonable(measured),
                _jsonable(expected),
                _jsonable(tolerance),
                why,
                outcome,
                control=self._control,
                margin=ev.margin,
                slack=ev.slack,
                resolution=ev.resolution,
                power=ev.power,
                details=_jsonable(details or {}),
            )
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
        scale = float(np.max(np.abs(e))) if e.size else 0.0
        tol = atol + rtol * scale
        if m.ndim == 0 and e.ndim == 0:
            dev = abs(float(m) - float(e))
            ok = bool(np.isfinite(dev) and dev <= tol)
            relation = f"|measured - expected| = {dev:.3g} <= tolerance"
            ev = evidence.of_close(dev, tol, scale)
            return self._record(name, kind, relation, float(m), float(e), tol, why, ok, details, ev)
        dev = float(np.max(np.abs(m - e))) if m.size else 0.0
        if not np.all(np.isfinite(m)):
            dev = math.nan
        ok = bool(np.isfinite(dev) and dev <= tol)
        relation = "max_i |measured_i - expected_i| <= tolerance"
        ev = evidence.of_close(dev, tol, scale)
        return self._record(name, kind, relation, dev, 0.0, tol, why, ok, details, ev)

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
        resolution: str = "",
    ) -> bool:
        """``measured <= bound`` (or ``>=``); arrays: the worst element is recorded.

        The record's slack is the smallest bound/measured ratio: how loose the bound is here.
        ``resolution`` replaces the default wording of what the check would catch (say it
        when the bound is a tolerance of the toolkit's own rather than the paper's constant).
        """
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
        ev = evidence.of_bound(m, b, side)
        if resolution:
            ev = evidence.Evidence(ev.margin, ev.slack, resolution)
        return self._record(name, kind, relation, mw, bw, 0.0, why, ok, details, ev)

    def zero(self, name: str, residual: Any, *, why: str, details: dict | None = None) -> bool:
        """A symbolic residual is exactly zero (a SymPy expression or matrix, or a sequence)."""
        items = residual if isinstance(residual, list | tuple) else [residual]
        nonzero = [str(r) for r in items if not _is_exact_zero(r)]
        measured = "0" if not nonzero else "; ".join(nonzero)[:300]
        return self._record(
            name,
            "symbolic",
            "residual == 0 exactly",
            measured,
            "0",
            0,
            why,
            not nonzero,
            details,
            evidence.of_zero(),
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
        resolution: str = "its negation",
    ) -> bool:
        """A boolean fact (e.g. a checker accepts or rejects), with what was seen.

        ``resolution``: what violation the fact would expose when false.
        """
        ev = evidence.Evidence(resolution=resolution)
        return self._record(
            name, kind, "condition holds", measured, expected, None, why, bool(condition), details, ev
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
        neighbours: tuple[float, float] | None = None,
    ) -> bool:
        """The measured power-law order ``d log error / d log x`` equals ``expected`` within ``tol``.

        This is how an asymptotic statement is verified: over a grid, never at one point.
        The fit must also *separate* the claimed order from its ``neighbours`` (default:
        ``expected -+ 1`` for an integer order, ``-+ 1/2`` otherwise): ``tol`` must be less
        than half the distance to the nearer one, and the slope's 95% confidence interval
        must exclude both; otherwise the grid is too short or too noisy to tell the orders
        apart and the check is undecided. A figure of the fit is attached.
        """
        x = np.asarray(x, float)
        e = np.asarray(error, float)
        if neighbours is None:
            step = 1.0 if float(expected).is_integer() else 0.5
            neighbours = (expected - step, expected + step)
        gap = min(abs(n - expected) for n in neighbours)
        resolution = f"an order outside [{expected - tol:.3g}, {expected + tol:.3g}]"
        ev = evidence.Evidence(resolution=resolution)
        if not np.all(np.isfinite(e)) or np.any(e < 0):
            return self._record(name, "numeric", "fitted order", math.nan, expected, tol, why, False, ev=ev)
        if not np.all(e > 0):
            reason = f"{why} -- an error of exactly 0 at some grid point leaves the order undefined"
            return self._record(name, "numeric", "fitted order", None, expected, tol, reason, None, ev=ev)
        fit = evidence.fit_order(x, e)
        self.figure(
            name,
            xlabel=xlabel,
            ylabel=ylabel,
            series=[
                Series("measured", x, e, "o"),
                Series(f"fit: order {fit.slope:.3f}", x, np.exp(fit.intercept) * x**fit.slope, "--"),
            ],
            logx=True,
            logy=True,
        )
        ok: bool | None = abs(fit.slope - expected) <= tol
        relation = (
            f"|fitted order - expected| <= tolerance; 95% interval [{fit.lo:.3g}, {fit.hi:.3g}] "
            f"over {x.min():.3g}..{x.max():.3g} ({fit.points} points)"
        )
        if tol >= gap / 2:
            ok, why = (
                None,
                f"{why} -- tolerance {tol:.3g} cannot separate order {expected:.3g} from {neighbours}",
            )
        elif ok and not all(n < fit.lo or n > fit.hi for n in neighbours):
            ok, why = (
                None,
                (
                    f"{why} -- the 95% interval [{fit.lo:.3g}, {fit.hi:.3g}] does not exclude the "
                    f"neighbouring orders {neighbours}: widen the range or add points"
                ),
            )
        margin = 1 - abs(fit.slope - expected) / tol if tol > 0 else None
        ev = evidence.Evidence(margin=margin, resolution=resolution)
        details = {"x": x, "error": e, "interval": [fit.lo, fit.hi], "neighbours": list(neighbours)}
        return self._record(name, "numeric", relation, fit.slope, expected, tol, why, ok, details, ev)

    def probability(
        self,
        name: str,
        successes: Any,
        trials: Any,
        *,
        at_least: Any = None,
        at_most: Any = None,
        equals: Any = None,
        detect: Any,
        why: str,
        conf: float = 0.99,
    ) -> bool:
        r"""A probability statement ``P >= at_least``, ``P <= at_most`` or ``P = equals`` from
        ``successes / trials``.

        Rejected (FAIL) when the exact ``conf`` interval lies wholly on the wrong side (for ``equals``:
        when it excludes the value). ``detect`` is the violation the check exists to catch (a true
        ``P = detect``; for ``equals`` a deviation by ``|detect - equals|`` either way); the check must
        reject it with 80% power at this sample size, otherwise it is undecided (INCONCLUSIVE: the run
        could not have failed for that violation), and the record says how many trials would give that
        power. A one-sided statement whose estimate ``k/n`` lies on the wrong side of its bound without
        being rejected is undecided too: the sample neither refutes nor supports it (a PASS needs the
        estimate on the statement's side). Arrays (one statement per grid point, e.g. per width p) are
        checked element by element: any rejection fails, the weakest power decides, and the element
        nearest to rejection is recorded.
        """
        stated = ((">=", at_least), ("<=", at_most), ("==", equals))
        given = [(_Side(s), v) for s, v in stated if v is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of at_least / at_most / equals")
        ((side, bound),) = given
        arrays = (np.asarray(successes, int), np.asarray(trials, int), np.asarray(bound, float))
        k, n, p0, p1 = (a.ravel() for a in np.broadcast_arrays(*arrays, np.asarray(detect, float)))
        if not np.all(side.violated(p1, p0)):
            raise ValueError(f"detect={detect} is no violation of P {side.symbol} {bound}")
        lo, hi = (np.asarray(v, float).ravel() for v in clopper_pearson(k, n, conf))
        gap = side.gap(lo, hi, p0)  # < 0: rejected
        w = int(np.argmin(gap))
        alts = [(i, q) for i in range(k.size) for q in side.alternatives(p0[i], p1[i])]
        powers = [evidence.power(int(n[i]), float(p0[i]), float(q), conf, side.symbol) for i, q in alts]
        i, q1 = alts[int(np.argmin(powers))]
        pw, nw, q0, q1 = min(powers), int(n[i]), float(p0[i]), float(q1)
        power = f"power {pw:.2f} against P = {q1:.4g}; " + self._reach(nw, q0, conf, side)
        ok: bool | None = bool(np.all(gap >= 0))
        wrong = np.flatnonzero(side.opposed(k, n, p0))
        if ok and pw < evidence.POWER:
            need = evidence.trials_needed(q0, q1, conf, side.symbol)
            ok, why = None, f"{why} -- no power against P = {q1:.4g} at n = {nw} (about {need} trials needed)"
        elif ok and wrong.size:
            j = int(wrong[0])
            ok, why = (
                None,
                (
                    f"{why} -- the estimate {k[j]}/{n[j]} = {k[j] / n[j]:.4g} lies on the wrong side of "
                    f"{p0[j]:.4g} (not rejected at {conf:.0%}): the sample neither refutes nor supports it"
                ),
            )
        ev = evidence.Evidence(resolution=f"a true P = {q1:.4g} (80% power needed)", power=power)
        where = f" (worst of {k.size})" if k.size > 1 else ""
        interval = f"{conf:.0%} interval [{lo[w]:.4g}, {hi[w]:.4g}]{where}"
        relation = f"P {side.shown} {p0[w]:.4g}: k/n = {k[w]}/{n[w]}, {interval}"
        details = (
            {"k": k, "n": n, "bound": p0, "interval": [lo, hi]} if k.size > 1 else {"k": k[0], "n": n[0]}
        )
        return self._record(name, "probability", relation, k[w] / n[w], p0[w], None, why, ok, details, ev)

    @staticmethod
    def _reach(n: int, p0: float, conf: float, side: _Side) -> str:
        """``rejects P <= x with 80% power at n = ...`` (both directions for ``==``)."""
        parts = []
        for tail in side.tails:
            p80 = evidence.detectable(n, p0, conf, tail)
            parts.append("no violation" if p80 is None else f"P {'<=' if tail == '>=' else '>='} {p80:.4g}")
        return f"rejects {' and '.join(parts)} with 80% power at n = {n}"

    def regime(self, hypothesis: Hypothesis | str, *, reached: bool | None = None, **measured: Any) -> bool:
        """Record whether this run is inside the quantitative regime of a declared hypothesis.

        ``measured`` are the quantities the hypothesis's ``test`` reads (``p=25, n=12``);
        or give ``reached`` directly. A run outside the regime cannot earn a PASS or a FAIL
        of the statement: its verdict is INCONCLUSIVE ("regime not reached at this profile").
        Neither can a claim that assumes a hypothesis with a ``test`` and never records it
        ("regime not measured"); over several instances, record the worst with
        :func:`verify.regimes.record_worst`.
        """
        if self._control:  # a control breaks a hypothesis on purpose: its setup says nothing of the regime
            raise RuntimeError(f"{self.claim_id}: regime recorded inside the control {self._control!r}")
        h = resolve(hypothesis, self.hypotheses)
        if h is None:
            raise ValueError(f"{self.claim_id}: regime of an undeclared hypothesis {hypothesis!r}")
        if reached is None:
            reached = h.evaluate(**{k: _scalar(v) for k, v in measured.items()})
        shown = ", ".join(f"{k} = {_scalar(v):.4g}" for k, v in measured.items())
        self.regimes.append(h.reading(bool(reached), shown))
        return bool(reached)

    def search(
        self,
        name: str,
        violation: Callable[[np.ndarray], float],
        starts: Mapping[str, Sequence[np.ndarray]],
        *,
        budget: int,
        why: str,
    ) -> bool:
        """Adversarial instance search (:mod:`verify.search`): the worst violation ratio is <= 1.

        ``starts`` maps each structurally different family of instances to its starting
        parameters; ``violation(theta)`` is measured / bound for the instance ``theta``
        describes (inside the hypotheses). The record names the worst instance found.
        """
        worst = worst_instance(violation, starts, budget=budget)
        details = {
            "worst family": worst.family,
            "worst instance": worst.theta,
            "evaluations": worst.evaluations,
            "worst ratio per family": worst.per_family,
            "undefined instances": worst.undefined,
        }
        undefined = f"; {worst.undefined} instances gave NaN: cannot pass" if worst.undefined else ""
        return self.bound(
            name,
            worst.ratio,
            1.0,
            why=f"{why} -- worst of {worst.evaluations} instances over {len(starts)} families "
            f"(worst: {worst.family}){undefined}",
            kind="search",
            details=details,
        )

    def reduced_scale(self, reason: str, *, persists: bool = False, kind: str = "reduced scale") -> None:
        """Label this run as below the paper's scale (or on stand-in data, ``kind="stand-in data"``).

        A failure at reduced scale is not a FAIL of the paper's statement unless it was
        shown to ``persist`` towards the paper's scale; it is then INCONCLUSIVE.
        """
        self.scale = Scale(kind, reason, bool(persists))

    def undecided(self, name: str, reason: str, *, measured: Any = None) -> None:
        """A check that cannot be decided here (e.g. its regime is below float64)."""
        self._record(name, "numeric", "not decidable here", measured, None, None, reason, None)

    # -- controls, figures, notes -----------------------------------------------------
    @contextmanager
    def control(
        self, description: str, *, breaks: Hypothesis | str, must_break: Sequence[str] = ()
    ) -> Iterator[None]:
        """Checks inside are a negative control: the declared hypothesis ``breaks`` is violated.

        ``must_break`` names the conclusions (check names of the claim, ``fnmatch`` patterns
        allowed) that depend on the broken hypothesis: run the same checks inside, and the
        verdict requires each named conclusion to fail here. A control that breaks an
        undeclared hypothesis, or names no conclusion, backs nothing and earns no PASS.
        """
        if self._control:
            raise RuntimeError("controls cannot be nested")
        h = resolve(breaks, self.hypotheses)
        label = f"{description} [breaks: {h.name if h else breaks}]"
        must = (must_break,) if isinstance(must_break, str) else tuple(must_break)
        self.controls.append(ControlDeclaration(label, h.name if h else str(breaks), h is not None, must))
        self._control = label
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
