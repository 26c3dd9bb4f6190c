"""Step-size control: a fixed step, or per-member error control of embedded RK pairs.

A controller only *decides*; the method only *estimates* (see
:func:`numeric.engine.integrators.methods.rk_step`). Every decision is per ensemble member:
accept masks, step sizes and controller memory all have shape (B,).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from numeric.backend import Array, array_namespace
from numeric.engine.integrators.methods import VectorField
from numeric.engine.integrators.tableau import ButcherTableau

ControlState = tuple[Array, ...]
"""Per-member controller memory: a tuple of (B,) arrays, sliced along with the members."""


def _positive_float(owner: str, name: str, value: Any, *, allow_inf: bool = False) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{owner}: {name} must be a number, got {value!r} ({type(value).__name__})") from exc
    if not (v > 0 and (allow_inf or math.isfinite(v))):
        kind = "number" if allow_inf else "finite number"
        raise ValueError(f"{owner}: {name} must be a positive {kind}, got {value!r}")
    return v


@dataclass(frozen=True)
class FixedStep:
    """Constant step ``dt`` for every member.

    The solver shortens the last step before each output time so that every member
    lands on it exactly; the following step is ``dt`` again.
    """

    dt: float

    adaptive = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "dt", _positive_float("FixedStep", "dt", self.dt))

    def check(self, tableau: ButcherTableau) -> None:
        """Any method can take fixed steps."""

    def initial_dt(self, t0: Array) -> Array:
        """``dt`` broadcast to the members' shape (B,)."""
        xp = array_namespace(t0)
        return xp.full(t0.shape, self.dt, dtype=t0.dtype)

    def init_state(self, t0: Array) -> ControlState:
        return ()


@dataclass(frozen=True)
class AdaptiveStep:
    """Per-member error control for a method with an embedded error estimate.

    With ``y0`` the state before, ``y1`` the proposal and ``e`` the embedded error
    estimate of one member, the scaled error norm is the RMS over the N entries

    .. math::

        \\|e\\| = \\Bigl(\\frac1N \\sum_{n=1}^N
            \\Bigl(\\frac{e_n}{\\mathrm{atol} + \\mathrm{rtol}\\,\\max(|y_{0,n}|, |y_{1,n}|)}\\Bigr)^2
        \\Bigr)^{1/2},

    the step is accepted iff ``||e|| <= 1``, and the next step is
    ``h_new = h * clip(factor, min_factor, max_factor)`` with

    .. math::

        \\mathrm{factor} = \\mathrm{safety}\\;\\|e\\|^{-\\alpha}\\;\\|e_{prev}\\|^{\\beta},
        \\qquad \\alpha = \\frac{1}{q+1} - 0.75\\,\\beta,

    where ``q`` is the tableau's ``error_order`` and ``||e_prev||`` the norm of the
    member's last accepted step. ``beta = 0`` (the default) is the classical elementary
    controller ``safety * ||e||^(-1/(q+1))``; ``beta > 0`` is the stabilised PI
    controller (Gustafsson 1991, in the form of Hairer's DOPRI5 code, which uses
    ``beta = 0.04``; ``||e_prev||`` is floored at 1e-4), which damps step-size
    oscillation.
    After a rejection the next step may not grow (``factor <= 1``).

    Non-finite trial steps (NaN/inf in the proposal or in its error) are rejected
    with ``factor = min_factor``, so an overly long step into a region where the field
    blows up is retried shorter instead of killing the member.

    There are deliberately **no default tolerances**: what accuracy a computation needs
    is the caller's decision. Tip: ``rtol`` bounds the relative error *per step*; the
    global error is typically 1-100 times larger, so check against a reference
    (work-precision) rather than trusting a tolerance; choose ``atol`` near the size
    below which a state entry is "zero" for your question.

    Attributes
    ----------
    rtol, atol: relative and absolute tolerance (>= 0, not both 0). Required.
    dt0: initial step, or ``None`` for Hairer's automatic choice (:meth:`initial_dt`).
    safety: factor < 1 applied to the optimal step.
    min_factor, max_factor: bounds on the step ratio ``h_new / h``.
    dt_max: largest step allowed.
    beta: PI coefficient (0 = elementary controller; Hairer's DOPRI5 uses 0.04).
    """

    rtol: float | None = None
    atol: float | None = None
    dt0: float | None = None
    safety: float = 0.9
    min_factor: float = 0.2
    max_factor: float = 5.0
    dt_max: float = math.inf
    beta: float = 0.0

    adaptive = True

    def __post_init__(self) -> None:
        if self.rtol is None or self.atol is None:
            missing = [n for n in ("rtol", "atol") if getattr(self, n) is None]
            raise ValueError(
                f"AdaptiveStep needs {' and '.join(missing)}: there are no default tolerances, "
                "because the accuracy a computation needs is the caller's decision "
                "(e.g. AdaptiveStep(rtol=1e-8, atol=1e-10), then check against a reference)"
            )
        for name in ("rtol", "atol"):
            v = float(getattr(self, name))
            if not (v >= 0 and math.isfinite(v)):
                raise ValueError(f"AdaptiveStep: {name} must be finite and >= 0, got {getattr(self, name)!r}")
            object.__setattr__(self, name, v)
        if self.rtol == 0 and self.atol == 0:
            raise ValueError("AdaptiveStep: rtol and atol cannot both be 0")
        if self.dt0 is not None:
            object.__setattr__(self, "dt0", _positive_float("AdaptiveStep", "dt0", self.dt0))
        safety = float(self.safety)
        if not 0 < safety <= 1:
            raise ValueError(f"AdaptiveStep: safety must be in (0, 1], got {self.safety!r}")
        lo, hi = float(self.min_factor), float(self.max_factor)
        if not (0 < lo <= 1 <= hi and math.isfinite(hi)):
            raise ValueError(
                f"AdaptiveStep: need 0 < min_factor <= 1 <= max_factor < inf, "
                f"got min_factor={self.min_factor!r}, max_factor={self.max_factor!r}"
            )
        beta = float(self.beta)
        if not 0 <= beta < 0.2:
            raise ValueError(f"AdaptiveStep: beta must be in [0, 0.2), got {self.beta!r}")
        object.__setattr__(self, "safety", safety)
        object.__setattr__(self, "min_factor", lo)
        object.__setattr__(self, "max_factor", hi)
        object.__setattr__(self, "beta", beta)
        dt_max = _positive_float("AdaptiveStep", "dt_max", self.dt_max, allow_inf=True)
        object.__setattr__(self, "dt_max", dt_max)

    def check(self, tableau: ButcherTableau) -> None:
        """Raise ``ValueError`` unless ``tableau`` has an embedded error estimate."""
        if not tableau.embedded:
            raise ValueError(
                f"AdaptiveStep needs a method with an embedded error estimate, but "
                f"{tableau.name!r} has none; use FixedStep with it, or an embedded pair such as DOPRI5"
            )

    def init_state(self, t0: Array) -> ControlState:
        """``(prev_norm, rejected_last)``: last accepted error norm (1 initially) and
        whether the member's last attempt was rejected."""
        xp = array_namespace(t0)
        return (xp.ones(t0.shape, dtype=t0.dtype), xp.zeros(t0.shape, dtype=bool))

    def error_norm(self, y0: Array, y1: Array, err: Array) -> Array:
        """Per-member scaled RMS norm ``||e||`` (B,), see the class docstring.

        For a method with two estimates (``err`` of shape (2, B, N), e.g. DOP853) the
        blend ``||e||^2 / sqrt(||e||^2 + 0.01 ||e_aux||^2)`` of the two scaled RMS norms
        (:mod:`numeric.engine.integrators.tableau`); 0 where both are 0.
        """
        xp = array_namespace(y0, y1, err)
        scale = self.atol + self.rtol * xp.maximum(xp.abs(y0), xp.abs(y1))
        r = err / scale
        mean_sq = xp.einsum("...n,...n->...", r, r) * (1.0 / r.shape[-1])  # one pass, not r * r then sum
        if err.ndim == 2:
            return xp.sqrt(mean_sq)
        main, aux = mean_sq[0], mean_sq[1]
        denom = main + 0.01 * aux
        return main / xp.sqrt(xp.where(denom == 0, 1.0, denom))  # a NaN stays NaN

    def initial_dt(
        self,
        field: VectorField,
        tableau: ButcherTableau,
        t0: Array,
        y0: Array,
        f0: Array,
        t1: Array,
        args: Mapping[str, Array],
    ) -> tuple[Array, int]:
        """First step per member (B,) and the number of extra field evaluations made.

        ``dt0`` if given; else Hairer, Nørsett & Wanner, *Solving ODEs I*, Sec. II.4
        (vectorised over members), with ``||.||`` the scaled RMS norm at ``y0``:
        ``d0 = ||y0||``, ``d1 = ||f0||``, ``h0 = 0.01 d0/d1`` (``1e-6`` if either is
        below ``1e-5``), one Euler step ``y' = y0 + h0 f0``, ``d2 = ||f(t0+h0, y') - f0|| / h0``,
        ``h1 = (0.01 / max(d1, d2))^(1/(q+1))`` (``max(1e-6, 1e-3 h0)`` if
        ``max(d1, d2) <= 1e-15``), and ``h = min(100 h0, h1, dt_max, t1 - t0)``.
        """
        xp = array_namespace(t0, y0)
        span = xp.abs(t1 - t0)
        if self.dt0 is not None:
            return xp.minimum(xp.minimum(span, self.dt0), self.dt_max), 0
        scale = self.atol + self.rtol * xp.abs(y0)

        def rms(v: Array) -> Array:
            r = v / scale
            return xp.sqrt(xp.mean(r * r, axis=1))

        d0, d1 = rms(y0), rms(f0)
        small = (d0 < 1e-5) | (d1 < 1e-5)
        h0 = xp.where(small, 1e-6, 0.01 * d0 / xp.where(small, 1.0, d1))
        h0 = xp.minimum(h0, span)
        f1 = field(t0 + h0, y0 + h0[:, None] * f0, args)
        d2 = rms(f1 - f0) / h0
        dmax = xp.maximum(d1, d2)
        q = tableau.error_order or tableau.order
        tiny = ~(dmax > 1e-15)  # also catches NaN: fall back to the cautious choice
        h1 = xp.where(
            tiny,
            xp.maximum(1e-6, 1e-3 * h0),
            (0.01 / xp.where(tiny, 1.0, dmax)) ** (1.0 / (q + 1)),
        )
        h = xp.minimum(xp.minimum(100 * h0, h1), xp.minimum(span, self.dt_max))
        return h, 1

    def adapt(
        self,
        tableau: ButcherTableau,
        y0: Array,
        y1: Array,
        err: Array,
        dt_used: Array,
        dt_nominal: Array,
        state: ControlState,
    ) -> tuple[Array, Array, Array, ControlState]:
        """Decide each member's step.

        Parameters
        ----------
        y0, y1, err: (B, N) state before, proposal, embedded error estimate.
        dt_used: (B,) step just attempted (possibly shortened to land on an output time).
        dt_nominal: (B,) the controller's proposal before that shortening; pass the
            same object as ``dt_used`` when no step was shortened.
        state: from :meth:`init_state` or the previous call.

        Returns
        -------
        ``(accept, dt_next, bad, state)``: accept (B,) bool; dt_next (B,) the next
        nominal step; bad (B,) bool, the trial was non-finite; the new state.
        When a shortened step is accepted, its error says little about the nominal
        step, so ``dt_next`` is not allowed to fall below
        ``min(dt_nominal, dt_used * raw_factor)`` (the uncapped optimal step).
        """
        xp = array_namespace(y0, y1, err)
        prev_norm, rejected_last = state
        norm = self.error_norm(y0, y1, err)
        bad = ~(xp.isfinite(norm) & xp.isfinite(y1).all(axis=1))  # a NaN estimate gives a NaN norm
        norm = xp.where(bad, xp.inf, norm)
        accept = norm <= 1.0
        q = tableau.error_order or tableau.order
        alpha = 1.0 / (q + 1) - 0.75 * self.beta
        safe_norm = xp.maximum(norm, 1e-10)
        raw = self.safety * safe_norm ** (-alpha)
        if self.beta:
            raw = raw * prev_norm**self.beta
        upper = xp.where(rejected_last | ~accept, 1.0, self.max_factor)
        factor = xp.minimum(xp.maximum(raw, self.min_factor), upper)
        dt_next = dt_used * factor
        if dt_used is not dt_nominal:  # some steps were shortened onto an output time
            shortened = accept & (dt_used < dt_nominal)
            relaxed = xp.maximum(dt_next, xp.minimum(dt_nominal, dt_used * raw))
            dt_next = xp.where(shortened, relaxed, dt_next)
        if self.dt_max < math.inf:
            dt_next = xp.minimum(dt_next, self.dt_max)
        new_prev = xp.where(accept, xp.maximum(norm, 1e-4), prev_norm)
        return accept, dt_next, bad, (new_prev, ~accept)
