r"""Measuring the regime of min2024's hypotheses (:mod:`~verify.papers.min2024.hypotheses`) on a run.

:func:`record` measures, on the :class:`~verify.papers.min2024.common.Problem` s a claim runs, each
hypothesis it is given (:func:`readings`) and records the worst problem's reading
(:func:`verify.regimes.record_worst`).  The output
size in the alignment window is measured in log10, so runs at :math:`\epsilon=e^{-10^4}` (where
:math:`f` underflows to 0) report how small it is:

* from a trajectory, :func:`log10_max_output` evaluates :math:`\log|f(x_i)|=\log|\sum_js_j
  e^{2\rho_j+\log\sigma(\langle u_j,x_i\rangle)}|` as a signed log-sum-exp (no underflow);
* without one, :func:`log10_output_bound` is the Grönwall bound of the balanced flow:
  :math:`\dot\rho_j=s_j\langle u_j,g_j\rangle`, :math:`\|g_j\|\le\sum_i|\ell'_i|\|x_i\|\le2nX_{\max}`
  while :math:`|f|\le\log2` (exponential loss :math:`e^{|f|}\le2`; factor-2 logistic :math:`\le2`
  always), so :math:`\log\max_i|f(t)|\le\log(X_{\max}\sum_je^{2\rho_j(0)})+4nX_{\max}t`.  The bound is
  self-consistent where it is below :math:`\log_{10}\log2`, which the regime's threshold
  (:data:`~verify.papers.min2024.hypotheses.F_SMALL`) is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from scipy.special import logsumexp

from numeric.data.separated_data import separation, zeta2
from numeric.models.balanced_relu import join, logpolar_to_plain, split
from verify.context import Context
from verify.hypotheses import Hypothesis
from verify.papers.min2024.common import Problem, initial_state, log_eps_first_term, log_eps_threshold
from verify.papers.min2024.hypotheses import (
    ASSUMPTION_1,
    ASSUMPTION_2,
    BALANCED,
    EPS64,
    EPS_28,
    EPS_29,
    SMALL_INIT,
)
from verify.regimes import Reading, record_worst

LN10 = float(np.log(10.0))


def imbalance(W: np.ndarray, v: np.ndarray) -> float:
    r""":math:`\max_j|v_j^2/\|w_j\|^2-1|` over every member and neuron (``W`` (..., h, D), ``v`` (..., h))."""
    return float(np.max(np.abs(v**2 / (W * W).sum(-1) - 1.0)))


def problem_imbalance(p: Problem) -> float:
    r""":func:`imbalance` of the initial state the integrator receives (:func:`common.initial_state`), each
    neuron read at unit scale (:math:`v_j^2/\|w_j\|^2` is scale-free; :math:`e^{\rho}` may underflow)."""
    U, rho = split(initial_state(p), p.h)
    return imbalance(*logpolar_to_plain(join(U, np.zeros_like(rho)), p.s))


def log10_max_output(p: Problem, U: np.ndarray, rho: np.ndarray) -> float:
    r""":math:`\log_{10}\max_{b,t,i}|f(x_i)|` of a run from its unit directions ``U`` (B, T, h, D) and
    log-norms ``rho`` (B, T, h) (members of ``p``), :math:`f_i=\sum_js_je^{2\rho_j}\sigma(\langle
    u_j,x_i\rangle)` summed in log space (-inf where every neuron is inactive on every datum)."""
    Z = np.einsum("bthd,nd->bthn", U, p.X)
    with np.errstate(divide="ignore"):
        logs = 2 * rho[..., None] + np.log(np.maximum(Z, 0.0))
    sign = np.broadcast_to(p.s[:, None, :, None], logs.shape)
    log_abs, _ = logsumexp(logs, axis=2, b=sign, return_sign=True)
    return float(log_abs.max() / LN10)


def log10_output_bound(p: Problem, t_end: float) -> float:
    r"""Grönwall bound (module docstring) of :math:`\log_{10}\max_{t\le t_{\rm end},i}|f(x_i;t)|`,
    worst member, without integrating."""
    xmax = float(np.linalg.norm(p.X, axis=1).max())
    rho0 = p.log_eps[:, None] + np.log(np.linalg.norm(p.W0, axis=-1))
    return float((np.log(xmax) + logsumexp(2 * rho0, axis=-1).max() + 4 * p.n * xmax * t_end) / LN10)


def _worst_member(p: Problem, value: Callable[[Problem, int], float]) -> float:
    return max(value(p, b) for b in range(p.B))


def balanced(imbalance: float, D: int) -> Reading:
    r"""The reading of :data:`BALANCED` (or ``BALANCED_STATE``): the imbalance in units of its rounding
    threshold :math:`(D+4)\epsilon_{64}`, so the worst instance is the one nearest that threshold,
    whatever its dimension (the largest imbalance and the largest :math:`D` may be different instances)."""
    return Reading(imbalance / ((D + 4) * EPS64), {"imbalance": imbalance, "D": D})


def _assumption_2(p: Problem) -> Reading:
    z = -_worst_member(p, lambda p, b: -zeta2(p.W0[b], p.s[b], p.X, p.y))
    return Reading(-z, {"zeta2": z})


def _eps_28(p: Problem) -> Reading:
    gap = _worst_member(p, lambda p, b: p.log_eps[b] - log_eps_threshold(p, b))
    return Reading(gap, {"log_eps_minus_threshold": gap})


def _eps_29(p: Problem) -> Reading:
    gap = _worst_member(p, lambda p, b: p.log_eps[b] - log_eps_first_term(p, b))
    return Reading(gap, {"log_eps_minus_first_term": gap})


def _assumption_1(p: Problem) -> Reading:
    mu = separation(p.X, p.y)
    return Reading(-mu, {"mu": mu})


MEASURES: dict[str, Callable[[Problem], Reading]] = {
    ASSUMPTION_1.name: _assumption_1,
    ASSUMPTION_2.name: _assumption_2,
    BALANCED.name: lambda p: balanced(problem_imbalance(p), p.X.shape[1]),
    EPS_28.name: _eps_28,
    EPS_29.name: _eps_29,
}


def readings(p: Problem, hypotheses: Sequence[Hypothesis], window: float | None = None) -> dict[str, Reading]:
    """The :class:`~verify.regimes.Reading` of each of ``hypotheses`` on the problem ``p`` (worst member).

    :data:`SMALL_INIT` needs ``window``, the end of the time window the claim uses the
    alignment phase on (:func:`log10_output_bound`); the others are read off the problem."""
    out = {}
    for h in hypotheses:
        if h is SMALL_INIT:
            if window is None:
                raise ValueError("the small-initialization regime needs the claim's time window")
            bound = log10_output_bound(p, window)
            out[h.name] = Reading(bound, {"log10_max_f": bound})
        else:
            out[h.name] = MEASURES[h.name](p)
    return out


def record(
    ctx: Context, problems: Sequence[Problem], *hypotheses: Hypothesis, window: float | None = None
) -> None:
    """Measure each of ``hypotheses`` on ``problems`` and record the worst problem's reading
    (:func:`verify.regimes.record_worst` of :func:`readings`)."""
    record_worst(ctx, [readings(p, hypotheses, window) for p in problems], hypotheses)
