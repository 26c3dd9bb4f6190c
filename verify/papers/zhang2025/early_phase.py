r"""zhang2025 App. C.1: the early phase of learning (Lemma 6, eq. (11); Lemma 16, eq. (25)).

Setting: two-layer bias-free net, square loss, small initial scale
:math:`w_{\rm init}=u(0)=\max(\|W_1(0)\|,\|W_2(0)\|)`, gradient flow
:math:`\tau\dot W=-\nabla\mathcal L` integrated with DOPRI5.  On exactly symmetric generic data
(Condition 3) every pre-activation crosses zero transversally, so error-controlled RK is
accurate; every tolerance below includes the integrator error measured against a 100x
tighter solve.

What the lemmas say, and what we derive here:

* Under Condition 3 the first terms of the flow (2) are *exactly* linear (Lemma 14), so
  :math:`W=\widetilde W+\delta` with :math:`\widetilde W` the solution (30) of the linear
  system (29) and :math:`\tau\dot\delta=\frac{\alpha+1}2M\delta+\epsilon`, :math:`\epsilon`
  the cubic terms, :math:`\|\epsilon\|\le\sqrt2u^3\operatorname{Tr}\Sigma` (32).
* Along the growing mode :math:`u(t)\approx w_{\rm init}e^{\lambda t}`,
  :math:`\lambda=\frac{\alpha+1}{2\tau}s`, so :math:`\delta(t)\approx\int_0^te^{\lambda(t-t')}
  \epsilon(t')dt'=O(u(t)^3)`: at fixed :math:`t` the error is :math:`O(w_{\rm init}^3)`, at
  fixed amplitude :math:`u(t)` it does **not** shrink with :math:`w_{\rm init}`.
* At the printed window end :math:`T=\frac{\tau}{s+\operatorname{Tr}\Sigma}\ln\frac1{w_{\rm init}}`,
  :math:`u(T)\approx w_{\rm init}^{1-\kappa}` with
  :math:`\kappa=\frac{(\alpha+1)s}{2(s+\operatorname{Tr}\Sigma)}`, so
  :math:`\delta(T)=O(w_{\rm init}^{3(1-\kappa)})`, which is :math:`O(w_{\rm init})` iff
  :math:`\kappa\le2/3`.  For ReLU (:math:`\alpha=0`) always; for leaky/linear nets with
  :math:`s\gg\operatorname{Tr}\Sigma` not.  On :math:`t\le\frac23T` it always is
  (:math:`u\le w_{\rm init}^{1/3}`), which is what the proof's Grönwall bound supports.
* The corrected statement is for all Condition-3 data, :math:`\alpha\in[0,1]` and inits: beside three
  fixed data families an instance search (:func:`_window_violation`) scans :math:`s/\operatorname{Tr}\Sigma`,
  :math:`\alpha`, the data, the initial direction and its imbalance for the slowest order of the (11)
  error in :math:`w_{\rm init}` at :math:`t\le\frac23T`.
* The growth rate :math:`\lambda` is fitted where :math:`10w_{\rm init}<\|W_1\|<10^{-2}`, i.e. at
  times that run several times past the printed window end :math:`T` (the claim's note gives the measured
  span in units of :math:`T`): it reads the window-free part :math:`W=\widetilde W+O(u^3)` of the
  corrected statement (the growing mode of (30); the cubic terms shift the fitted rate by at most
  :math:`\max u^2\operatorname{Tr}\Sigma`, Lemma 15(2)), so it is checked in ``lemma-6-corrected``, not
  as support for the printed lemma.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from numeric.backend import to_numpy
from numeric.data.datasets import Dataset, symmetrize
from numeric.data.initializations import gaussian
from numeric.engine.integrators import DOPRI5, AdaptiveStep
from numeric.engine.solve import solve
from numeric.engine.trajectory import Status
from numeric.models.losses import Loss
from numeric.models.networks import BiasFreeNet
from numeric.models.vector_fields import GradientFlow
from verify import evidence
from verify.claim import Erratum, claim
from verify.context import Context, Series
from verify.papers.zhang2025.hypotheses import ALPHA_01, CONDITION_3, SMALL_INIT, SQUARE, TWO_LAYER, WINDOW
from verify.papers.zhang2025.paired_runs import fig3_data, two_layer
from verify.papers.zhang2025.regimes import record_alphas, record_symmetric
from verify.search import squash

EPS = float(np.finfo(np.float64).eps)
# integrator tolerance = SAFETY x |solve(rtol) - solve(rtol/100)|. The solves locate activation crossings
# as events, so the achieved error follows rtol: against a third solve at rtol/1e4 (every coarse/tight
# pair of Lemma 6, tiny and quick; the remainder pair at rtol 1e-10), the tight error is <= 3.5% of the
# coarse one and the estimate is short by <= 3.6% (without events the window/remainder pairs' tight error
# reached 23-51%, estimate up to 19% short). Lemma 16's pairs (rtol 1e-7 / 1e-8) do not follow rtol
# with or without events (steps set by the 40 output times or atol: tight error 20-100% of the coarse one,
# estimate up to 2.4x short), at errors <= 1.2e-7 relative against that claim's margins >= 0.1.
SAFETY = 2.0
GROWTH_ALPHAS = (0.0, 0.1, 0.3, 0.5, 0.9, 1.0)  # 1.0 = the linear net
WINDOW_ALPHAS = (0.0, 0.5, 1.0)
LARGE_S = 10.0  # s / Tr(Sigma) of the second data set: kappa = (a+1)/2 * 10/11
WINDOW_TOL = 0.1  # tolerance of the fitted O(w_init) order (derivation in _check_window)
WINDOW_TOP = 1e-2  # growth-rate window: 10 w_init < ||W1|| < WINDOW_TOP (catalog Lemma 6 plan)
# rtol of every solve that measures a remainder W - (30) or W - (11): those are relative to W as
# small as u^2 ~ 1e-7, so the integrator must resolve < 1e-9 (checked: integrator error < 1% of each).
# 1e-11, not 1e-10, since the solves use events: each step cut at a crossing ends on the dense output,
# whose error at 1e-10 was 5-8% of the smallest fixed-t remainder (INCONCLUSIVE); at 1e-11 it is < 0.7%.
REMAINDER_RTOL = 1e-11
WINDOW_RTOL = 1e-9  # window-end errors are >= w_init, i.e. >= w_init^kappa >= 4e-6 relative (grid >= 1e-8)

# Sizes at full (measured for issue 15, one loaded core).  From a Gaussian init every unit turns from its
# random direction towards +-bbar, so its pre-activation on ~1/4 of the inputs crosses zero: ~H P / 4 events
# per member, each cutting a step of the located solve, and every step scans the B H P switching entries.
# The solves cost ~B (H P)^2 D: at D = 20, H P = 2000 Lemma 6 took 191 s (8 solves, 7138 steps, 107 s of
# them in event handling), so the catalog's H = 100, P = 2000 (H P = 2e5) would take ~1e4 times that.  The
# lemmas state no size and are asymptotic in w_init: full keeps D = 20, pushes w_init to 1e-8 and the grid to
# 7 scales, with H P = 2000 (H = 10, P = 200).
FULL_D, FULL_H, FULL_P = 20, 10, 200
SIZES_NOTE = (
    "Sizes: the lemma states none and is asymptotic in w_init. From a Gaussian init each unit's "
    "pre-activation crosses zero on ~1/4 of the inputs as it turns towards +-bbar, one event of the "
    "located solve each, so the solves cost ~B (H P)^2 D: the full profile keeps Fig. 3's D = 20 and "
    "w_init down to 1e-8 with H P = 2000 (H = 10, P = 200; 0.5-2 min per claim on one loaded core), not "
    "the catalog's H = 100, P = 2000 (~1e4 times the cost)."
)
# rtol of the growth-rate solves at full: their tolerance is dominated by the cubic term max u^2 Tr Sigma
# (u up to WINDOW_TOP = 1e-2: ~2e-3 of the slope at D = 20); an integrator error ~rtol = 1e-8 is five decades
# below it, so 1e-10 (tight solve 1e-12) would add steps and no resolution.
GROWTH_RTOL = dict(tiny=1e-7, quick=1e-8, full=1e-8)


# ----------------------------------------------------------------------------- setup


@dataclass
class Data:
    r"""A data set and its moments :math:`s=\|\beta\|`, :math:`\bar\beta`, :math:`\operatorname{Tr}\Sigma`."""

    ds: Dataset
    label: str

    @property
    def s(self) -> float:
        return float(np.linalg.norm(self.ds.beta))

    @property
    def bbar(self) -> np.ndarray:
        return self.ds.beta / self.s

    @property
    def trace(self) -> float:
        return float(np.trace(self.ds.Sigma))

    def kappa(self, alpha: float) -> float:
        r""":math:`\kappa=\frac{(\alpha+1)s}{2(s+\operatorname{Tr}\Sigma)}`, :math:`u(T)\sim w^{1-\kappa}`."""
        return (alpha + 1) * self.s / (2 * (self.s + self.trace))


def _fig3_like(ctx: Context, key: str, D: int, P: int) -> Data:
    r"""Fig. 3 data, exactly symmetric, not white (:math:`\operatorname{Tr}\Sigma\approx D`)."""
    ds = fig3_data(ctx.rng(key).host, P // 2, D, white=False)
    return Data(ds, f"Fig. 3 data D={D}, P={P}")


def _large_s(ctx: Context, key: str, P: int) -> Data:
    r"""Fig. 3 data in D = 2, target scaled to :math:`s=10\operatorname{Tr}\Sigma` (still odd)."""
    ds = fig3_data(ctx.rng(key).host, P // 2, 2, white=False)
    c = LARGE_S * np.trace(ds.Sigma) / np.linalg.norm(ds.beta)
    return Data(
        Dataset(ds.X, c * ds.y, ds.name + " (target scaled)"), f"large-s data D=2, P={P}, s=10 Tr(Sigma)"
    )


def _white_unit_s(ctx: Context, key: str, D: int, P: int) -> Data:
    r"""Fig. 3 data whitened (:math:`\Sigma=I`), target scaled to :math:`s=\operatorname{Tr}\Sigma=D`:
    :math:`\kappa=(\alpha+1)/4`, so :math:`f\kappa=1/6` at 2/3 of the window for :math:`\alpha=0`, where
    the Fig. 3 data (:math:`s\ll\operatorname{Tr}\Sigma`) fall below the window check's resolution."""
    ds = fig3_data(ctx.rng(key).host, P // 2, D, white=True)
    c = np.trace(ds.Sigma) / np.linalg.norm(ds.beta)
    return Data(
        Dataset(ds.X, c * ds.y, ds.name + " (target scaled)"), f"white data D={D}, P={P}, s=Tr(Sigma)"
    )


def _unit_init(ctx: Context, key: str, net: BiasFreeNet, n: int) -> np.ndarray:
    """``n`` App.-H Gaussian initial states of scale 1, ``(n, N)``; multiplied by w_init later."""
    Ws = gaussian(net, ctx.rng(key), n, 1.0)
    return to_numpy(net.pack(Ws))


def _u(net: BiasFreeNet, y: np.ndarray) -> np.ndarray:
    r""":math:`u=\max(\|W_1\|,\|W_2\|)` over the leading axes of flat states ``y``."""
    n1 = net.widths[0] * net.widths[1]
    return np.maximum(np.linalg.norm(y[..., :n1], axis=-1), np.linalg.norm(y[..., n1:], axis=-1))


def _norm_W1(net: BiasFreeNet, y: np.ndarray) -> np.ndarray:
    return np.linalg.norm(y[..., : net.widths[0] * net.widths[1]], axis=-1)


def _flow(
    ctx: Context,
    net: BiasFreeNet,
    ds: Dataset,
    y0: np.ndarray,
    ts: np.ndarray,
    *,
    alpha: Sequence[float],
    tau: Sequence[float] | float,
    rtol: float,
) -> tuple[np.ndarray, np.ndarray]:
    """One batched DOPRI5 solve of the square-loss flow; states ``(B, T, N)`` and accepted steps.

    ``atol = rtol * min_b u_b(0) * 1e-3``: entries below a thousandth of the smallest initial
    scale count as zero.  A member that does not reach the end is an error, not data.
    """
    flow = GradientFlow(net, Loss("square"))
    args = flow.args(ctx.backend, ds.X, ds.y, alpha=np.asarray(alpha, float), tau=tau)
    atol = rtol * float(_u(net, y0).min()) * 1e-3
    traj = solve(
        flow,
        ctx.backend.asarray(y0),
        ts,
        method=DOPRI5,
        control=AdaptiveStep(rtol=rtol, atol=atol),
        args=args,
        events=flow.switching,
    )
    if not np.all(traj.status == Status.SUCCESS):
        raise RuntimeError(f"early-phase solve failed:\n{traj.summary()}")
    return to_numpy(traj.ys), traj.n_steps


def _flow_pair(ctx: Context, *args, rtol: float, **kw) -> tuple[np.ndarray, np.ndarray, int]:
    """Coarse (``rtol``) and tight (``rtol/100``) solves: states of both and the coarse step count."""
    coarse, steps = _flow(ctx, *args, rtol=rtol, **kw)
    tight, _ = _flow(ctx, *args, rtol=rtol / 100, **kw)
    return coarse, tight, int(steps.max())


@functools.cache
def _eq30():
    """The numeric callable of (30) from ``symbolic.closed_forms`` (lambdified once)."""
    from symbolic.closed_forms import early_phase_callable

    return early_phase_callable()


def linear_solution(net: BiasFreeNet, data: Data, y0: np.ndarray, t: np.ndarray, alpha: float, tau: float):
    r"""(30) :math:`\widetilde W(t)` from one initial state ``y0`` ``(N,)``, as flat states ``(T, N)``."""
    W1, W2 = net.unpack(y0[None])
    Wt = _eq30()(t, data.ds.beta, W1[0], W2[0, 0], alpha, tau)  # (T, D+1, H): [W1^T; W2]
    D = net.widths[0]
    return np.concatenate([np.swapaxes(Wt[:, :D, :], 1, 2).reshape(len(t), -1), Wt[:, D, :]], axis=1)


def leading_term(net: BiasFreeNet, data: Data, y0: np.ndarray, growth: np.ndarray) -> np.ndarray:
    r"""(11)'s leading term :math:`e^{\lambda t}[r_1\bar\beta^\top;\ r_1^\top]`.

    :math:`r_1=\frac12(W_1(0)\bar\beta+W_2(0)^\top)`;
    ``growth`` is :math:`\lambda t` per output, ``(T,)``; returns flat states ``(T, N)``.
    """
    W1, W2 = net.unpack(y0[None])
    r1 = 0.5 * (W1[0] @ data.bbar + W2[0, 0])
    lead = np.concatenate([np.outer(r1, data.bbar).reshape(-1), r1])
    return np.exp(growth)[:, None] * lead[None, :]


# ------------------------------------------------------------------ growth rate (11)


def _window_slope(t: np.ndarray, n1: np.ndarray, lo: float) -> tuple[float, np.ndarray]:
    """Least-squares slope of ``ln n1`` on the samples with ``lo < n1 < WINDOW_TOP``."""
    mask = (n1 > lo) & (n1 < WINDOW_TOP)
    if mask.sum() < 5:
        raise RuntimeError(
            f"growth window 10 w_init < ||W1|| < {WINDOW_TOP} holds at {mask.sum()} < 5 outputs"
        )
    return float(np.polyfit(t[mask], np.log(n1[mask]), 1)[0]), mask


def _growth_rates(
    ctx: Context, data: Data, H: int, seeds: int, w_init: float, rtol: float, n_out: int
) -> dict:
    r"""Fitted slopes of :math:`\ln\|W_1(t)\|` in the window for every (seed, alpha), and their tolerances.

    Tolerance per member = |slope of the same fit applied to (30)| - lambda| (transients of the
    exact linear solution inside the window) + :math:`\max_{\rm window}u^2\operatorname{Tr}\Sigma`
    (the cubic terms change :math:`\frac d{dt}\ln\|W_1\|` by at most
    :math:`\|W_2\|^2\operatorname{Tr}\Sigma\le u^2\operatorname{Tr}\Sigma`, Lemma 15(2), and a
    least-squares slope is a positive average of derivatives) + ``SAFETY`` x |slope(rtol) -
    slope(rtol/100)|.

    ``span``: each member's fitted times over the printed window end
    :math:`\ln(1/u(0))/(s+\operatorname{Tr}\Sigma)` (:math:`\tau=1`), first and last.
    """
    D = data.ds.D
    net = two_layer(D, H)
    unit = _unit_init(ctx, f"growth/{data.label}/{H}", net, seeds)
    K = len(GROWTH_ALPHAS)
    y0 = np.repeat(unit * w_init, K, axis=0)  # member = seed * K + k: same init for every alpha
    alpha = np.tile(GROWTH_ALPHAS, seeds)
    lam = (alpha + 1) * data.s / 2
    u0 = _u(net, y0)
    T = (np.log(WINDOW_TOP / (0.2 * u0.min())) + 1) / lam.min()
    ts = np.linspace(0.0, T, n_out)
    coarse, tight, steps = _flow_pair(ctx, net, data.ds, y0, ts, alpha=alpha, tau=1.0, rtol=rtol)
    slope, tol, windows = np.zeros(len(y0)), np.zeros(len(y0)), []
    span = np.zeros((len(y0), 2))
    for b in range(len(y0)):
        n1 = _norm_W1(net, coarse[b])
        slope[b], mask = _window_slope(ts, n1, 10 * u0[b])
        tight_slope = np.polyfit(ts[mask], np.log(_norm_W1(net, tight[b])[mask]), 1)[0]
        lin = _norm_W1(net, linear_solution(net, data, y0[b], ts, alpha[b], 1.0))
        lin_slope = np.polyfit(ts[mask], np.log(lin[mask]), 1)[0]
        cubic = float((_u(net, coarse[b][mask]) ** 2).max() * data.trace)
        tol[b] = abs(lin_slope - lam[b]) + cubic + SAFETY * abs(slope[b] - tight_slope)
        windows.append((ts[mask], n1[mask]))
        span[b] = ts[mask][[0, -1]] * (data.s + data.trace) / np.log(1 / u0[b])
    return {
        "alpha": alpha,
        "lam": lam,
        "slope": slope,
        "tol": tol,
        "t": ts,
        "net": net,
        "windows": windows,
        "states": coarse,
        "u0": u0,
        "steps": steps,
        "span": span,
    }


_GROWTH = "growth rate of ln||W1|| in 10 w_init < ||W1||"
_WINDOW_ORDER = "(11) holds with O(w_init) at *"


def _check_growth(ctx: Context, data: Data, res: dict, label: str) -> None:
    r"""Slope = (a+1)s/(2 tau) for every member; ReLU/linear slope ratio = 1/2 per seed.

    The rate of (30)'s growing mode, read on :math:`10w_{\rm init}<\|W_1\|<` ``WINDOW_TOP``, past the
    printed window end (``res["span"]``): the window-free :math:`W=\widetilde W+O(u^3)` of the corrected
    Lemma 6, not the printed (11).
    """
    ratio = np.abs(res["slope"] - res["lam"]) / res["tol"]
    b = int(np.argmax(ratio))
    ctx.bound(
        f"{_GROWTH} < {WINDOW_TOP:g} = (a+1)s/(2 tau) [{label}]: max |slope - lambda| / tolerance",
        float(ratio.max()),
        1.0,
        why=_growth_rates.__doc__.split("\n\n")[1].strip().replace("\n", " "),
        details={
            "alpha": float(res["alpha"][b]),
            "member": b,
            "slope": float(res["slope"][b]),
            "lambda": float(res["lam"][b]),
            "relative deviation": float(abs(res["slope"][b] / res["lam"][b] - 1)),
            "tolerance": float(res["tol"][b]),
            "s": data.s,
            "Tr Sigma": data.trace,
            "fitted times / printed window end (first, last)": res["span"][b],
        },
    )
    K = len(GROWTH_ALPHAS)
    relu, lin = slice(0, None, K), slice(K - 1, None, K)  # alpha = 0 and alpha = 1 of each seed
    r = res["slope"][relu] / res["slope"][lin]
    rtol_r = 0.5 * (res["tol"][relu] / res["slope"][relu] + res["tol"][lin] / res["slope"][lin])
    worst = int(np.argmax(np.abs(r - 0.5) / rtol_r))
    ctx.close(
        f"ReLU / linear growth-rate ratio = 1/2 [{label}] (worst seed)",
        float(r[worst]),
        0.5,
        atol=float(rtol_r[worst]),
        why="both slopes share the initial state; tolerance = 1/2 x (sum of the relative slope tolerances)",
        details={"seed": worst, "ratios": r},
    )


def _growth_figure(ctx: Context, res: dict, seeds: int) -> None:
    K = len(GROWTH_ALPHAS)
    series = []
    for k in range(K):
        tw, nw = res["windows"][k]
        series.append(
            Series(f"alpha = {GROWTH_ALPHAS[k]:g}", res["t"], _norm_W1(res["net"], res["states"][k]), "-")
        )
        fit = nw[0] * np.exp(res["lam"][k] * (tw - tw[0]))
        series.append(Series(f"exp(lambda t), alpha = {GROWTH_ALPHAS[k]:g}", tw, fit, "--"))
    ctx.figure(
        "early phase: ||W1(t)|| against the predicted growth exp((a+1) s t / 2) (seed 0)",
        series=series,
        xlabel="t / tau",
        ylabel="||W1||",
        logy=True,
    )


# ------------------------------------------------------------- window end of (11)


def _grid(ctx: Context, key: str, net: BiasFreeNet, ws: np.ndarray, alphas: Sequence[float]):
    """Initial states for ``alphas`` x ``ws`` (alpha-major): one App.-H direction scaled by each ``w``.

    With one direction the :math:`O(w_{\rm init})` parts of every error are exactly proportional to
    :math:`w_{\rm init}`, so fitted orders are not blurred by the randomness of the init.
    """
    unit = _unit_init(ctx, key, net, 1)
    return np.concatenate([unit * w for _ in alphas for w in ws]), np.repeat(
        np.asarray(alphas, float), len(ws)
    )


def window_tau(data: Data, u0: np.ndarray, fraction: float) -> np.ndarray:
    r""":math:`\tau` putting ``fraction`` x the printed window end at solver time 1.

    The window end is :math:`\frac{\tau}{s+\operatorname{Tr}\Sigma}\ln\frac1{u(0)}` (Lemma 6).
    """
    return (data.s + data.trace) / (fraction * np.log(1 / u0))


def _errors(net: BiasFreeNet, y0, alpha, tau, t: float, coarse, tight, reference) -> dict:
    r"""Distance of the solved states at solver time ``t`` from ``reference(b, t)`` per member.

    Returns :math:`u(0)`, the error, the relative error (to :math:`\|W\|`) and the integrator error
    relative to the error (coarse vs 100x tighter solve).
    """
    ref = np.stack([reference(b, t) for b in range(len(y0))])
    err = np.linalg.norm(coarse - ref, axis=1)
    return {
        "u0": _u(net, y0),
        "alpha": alpha,
        "err": err,
        "rel": err / np.linalg.norm(coarse, axis=1),
        "integ": np.linalg.norm(coarse - tight, axis=1) / err,
    }


def _lead_errors(net: BiasFreeNet, data: Data, y0, alpha, tau, t: float, coarse, tight) -> dict:
    """Distance from (11)'s leading term at solver time ``t`` (members' own ``tau``)."""
    growth = (alpha + 1) * data.s / 2 * t / tau

    def lead(b: int, _t: float) -> np.ndarray:
        return leading_term(net, data, y0[b], growth[b : b + 1])[0]

    return _errors(net, y0, alpha, tau, t, coarse, tight, lead)


def _remainder_errors(net: BiasFreeNet, data: Data, y0, alpha, tau, t: float, coarse, tight) -> dict:
    """Distance from the linear solution (30) at solver time ``t`` (members' own ``tau``)."""

    def lin(b: int, t_: float) -> np.ndarray:
        return linear_solution(net, data, y0[b], np.array([t_]), alpha[b], tau[b])[0]

    return _errors(net, y0, alpha, tau, t, coarse, tight, lin)


def _window_errors(
    ctx: Context,
    data: Data,
    H: int,
    ws: np.ndarray,
    alphas: Sequence[float],
    fractions: Sequence[float],
    positive_W2: bool = False,
) -> list[dict]:
    """(11)'s error at each of ``fractions`` of the printed window end, members ``alphas`` x ``ws``
    (``positive_W2``: the init's W2 replaced by its absolute value, norms unchanged)."""
    net = two_layer(data.ds.D, H)
    y0, alpha = _grid(ctx, f"window/{data.label}/{H}", net, ws, alphas)
    if positive_W2:
        y0[:, -H:] = np.abs(y0[:, -H:])
    tau = window_tau(data, _u(net, y0), 1.0)
    ts = np.concatenate([[0.0], fractions])
    coarse, tight, _ = _flow_pair(ctx, net, data.ds, y0, ts, alpha=alpha, tau=tau, rtol=WINDOW_RTOL)
    return [
        _lead_errors(net, data, y0, alpha, tau, f, coarse[:, i + 1], tight[:, i + 1])
        for i, f in enumerate(fractions)
    ]


def _check_window(
    ctx: Context, data: Data, res: dict, alphas: Sequence[float], fraction: float, where: str
) -> None:
    r"""Fitted order of the (11) error in :math:`w_{\rm init}` at the window end; O(w_init) <=> order 1.

    Tolerance 0.1: the :math:`O(w_{\rm init})` part (constant and decaying modes of (30), one
    initial direction scaled) has order in :math:`[1,1+\kappa]` (the decaying mode adds
    :math:`w_{\rm init}^{1+\kappa}`), and the order is checked to be 1 within 0.1; an order below
    0.9 means the error over :math:`w_{\rm init}` grows by :math:`\ge10^{0.1\,\text{decades}}` as
    :math:`w_{\rm init}\to0`: not :math:`O(w_{\rm init})`.  Leading-order prediction:
    :math:`\min(1,3(1-f\kappa))` at ``fraction`` f of the window.

    Resolution: at fraction f the leading term has grown by :math:`w_{\rm init}^{-f\kappa}`; a leading
    term with no growth (or twice the rate) would shift the order by :math:`f\kappa` (:math:`2f\kappa`),
    so the check is made only where :math:`f\kappa\ge` the tolerance (below, a note says why not).
    """
    n = len(res["u0"]) // len(alphas)
    for k, a in enumerate(alphas):
        sl = slice(k * n, (k + 1) * n)
        if np.any(res["integ"][sl] > 0.01):
            ctx.undecided(
                f"(11) error order at {where} [{data.label}, alpha={a:g}]",
                "integrator error exceeds 1% of the measured error",
                measured=float(res["integ"][sl].max()),
            )
            continue
        predicted = min(1.0, 3 * (1 - fraction * data.kappa(a)))
        fk = fraction * data.kappa(a)
        name = (
            f"(11) holds with O(w_init) at {where}: order of ||W - e^(lambda t)[r1 bbar^T; r1^T]|| in "
            f"w_init [{data.label}, alpha={a:g}]"
        )
        if fk < WINDOW_TOL:  # no evidence either way: reported, not counted as a check
            ctx.note(
                f"Not checked: {name}. The leading term has not left the initial scale there: it grew by "
                f"w_init^(-f kappa), f kappa = {fk:.3g}, so a leading term with no growth (or twice the "
                f"rate) shifts the fitted order by only f kappa (2 f kappa), inside the tolerance "
                f"{WINDOW_TOL:g}: the order cannot tell the paper's rate (needs f kappa >= {WINDOW_TOL:g})."
            )
            continue
        ctx.order(
            name,
            res["u0"][sl],
            res["err"][sl],
            expected=1.0,
            tol=WINDOW_TOL,
            why=(_check_window.__doc__ or "").split("\n\n")[1].strip().replace("\n", " ")
            + f" Here kappa = {data.kappa(a):.3f}, predicted order {predicted:.3f}; relative error "
            f"||W - lead|| / ||W|| = {res['rel'][sl][0]:.3g} (w_init = {res['u0'][sl][0]:.1e}) .. "
            f"{res['rel'][sl][-1]:.3g} (w_init = {res['u0'][sl][-1]:.1e}).",
            xlabel="w_init = u(0)",
            ylabel="||W(T) - leading term||",
        )


# -------------------------------------------------------------------------- Lemma 6


def _regimes(ctx: Context, data: Sequence[Data], w_init: float, alphas: Sequence[float]) -> None:
    """Condition 3 of every data set, the small-init regime (largest initial scale used) and the slopes."""
    record_symmetric(ctx, [d.ds for d in data])
    ctx.regime(SMALL_INIT, w_init=w_init)
    record_alphas(ctx, alphas)
    ctx.note(SIZES_NOTE)


def window_grid(n: int) -> np.ndarray:
    """``n`` initial scales from 1e-3 to 1e-8 (five decades, all resolved by ``REMAINDER_RTOL``)."""
    return np.geomspace(1e-3, 1e-8, n)


def _symbolic_lemma6(ctx: Context) -> None:
    """M's eigen-structure and (30) solving (29), exactly (symbolic.closed_forms)."""
    from symbolic.closed_forms import M_eigenstructure, early_phase_residual

    eig = M_eigenstructure(3)
    ctx.zero(
        "M = [[0, beta], [beta^T, 0]]: M v = +-s v for v = [bbar; +-1]/sqrt2 (unit), M [v_perp; 0] = 0, "
        "det(lambda I - M) = lambda^(D-1) (lambda^2 - s^2)",
        [
            *eig["plus"],
            *eig["minus"],
            *eig["unit"],
            *[e for v in eig["null"] for e in v],
            eig["charpoly"],
            eig["null_rank"] - 2,
        ],
        why="symbolic beta in D = 3 (positive entries); SymPy simplify to 0",
    )
    res = early_phase_residual()
    ctx.zero(
        "(30) solves (29) tau dW~/dt = (a+1)/2 M W~ with W~(0) = [W1(0)^T; W2(0)]",
        [*res["ode"], *res["initial"]],
        why="D = 2, H = 2, symbolic beta, W(0), alpha, tau; e^(+-g) replaced by G^(+-1), cancel() to 0",
    )


def _pm1_data(y_plus: float, y_minus: float, name: str) -> Dataset:
    r"""D = 1, inputs :math:`x=\pm1`, targets ``y_plus``, ``y_minus``: odd iff ``y_minus = -y_plus``."""
    return Dataset(np.array([[1.0], [-1.0]]), np.array([y_plus, y_minus]), name)


def _even_target_control(ctx: Context, H: int, w_init: float, rtol: float) -> None:
    """Condition 3 violated: D = 1, x = +-1, y = +1 for both: beta = 0, the lemma predicts no growth."""
    ds = _pm1_data(1.0, 1.0, "even target")
    net = two_layer(1, H)
    y0 = _unit_init(ctx, "even", net, 2) * w_init
    y0[:, H:] = np.abs(y0[:, H:])  # W2 > 0: every unit grows, none slides along w1h = 0 (Filippov)
    ts = np.linspace(0.0, 2 * np.log(WINDOW_TOP / w_init), 60)
    coarse, tight, _ = _flow_pair(ctx, net, ds, y0, ts, alpha=[0.0, 0.0], tau=1.0, rtol=rtol)
    u0 = _u(net, y0)
    slopes, tols = [], []
    for b in range(2):
        s, mask = _window_slope(ts, _norm_W1(net, coarse[b]), 10 * u0[b])
        st = np.polyfit(ts[mask], np.log(_norm_W1(net, tight[b])[mask]), 1)[0]
        slopes.append(s)
        tols.append(float((_u(net, coarse[b][mask]) ** 2).max()) * 1.0 + SAFETY * abs(s - st))
    b = int(np.argmax(np.abs(slopes) / np.array(tols)))
    ctx.bound(
        f"{_GROWTH} < {WINDOW_TOP:g} = (a+1)s/(2 tau) [even target, beta = 0]: |slope - 0| / tolerance",
        abs(slopes[b]) / tols[b],
        1.0,
        why="(30) with beta = 0 is constant (no transient); cubic bound u^2 Tr Sigma (Tr Sigma = 1) + "
        "integrator",
        details={"slope": slopes[b], "ReLU prediction for an even target": 0.5},
    )


def _even_part_control(ctx: Context, H: int, ws: np.ndarray) -> None:
    r"""Condition 3 broken by an even part of the target: D = 1, :math:`x=\pm1`, :math:`y=(1,0)=(x+1)/2`.

    :math:`\beta=\frac12=s`, :math:`\operatorname{Tr}\Sigma=1`, so (11) predicts growth at
    :math:`\frac{\alpha+1}{2\tau}s=\frac1{4\tau}` (ReLU) along :math:`r_1\bar\beta^\top`, and its check is
    made (:math:`\kappa=\frac16\ge` ``WINDOW_TOL``). The flow's first terms are linear only under Condition 3
    (Lemma 14, (24a): :math:`\langle\sigma'(w_{1h}x)w_{2h}yx\rangle=\frac{\alpha+1}2w_{2h}\beta` for every
    :math:`w_{1h}`); here a ReLU unit with :math:`w>0` sees :math:`x=+1` alone,
    :math:`\tau\frac d{dt}(w,v)=(v,w)\langle yx1[x>0]\rangle=\frac12(v,w)`: rate :math:`\frac1{2\tau}`, twice
    (11)'s; one with :math:`w<0` sees :math:`y=0` and does not grow. At the printed window end
    :math:`T=\frac{\tau}{3/2}\ln\frac1{w_{\rm init}}` the error is
    :math:`\sim w_{\rm init}e^{T/2\tau}=w_{\rm init}^{2/3}`: order 2/3, outside the main run's tolerance
    ``WINDOW_TOL`` of order 1. The linear net (:math:`\alpha=1`) is exactly linear without Condition 3, so the
    control is on ReLU. :math:`W_2(0)>0`, as in :func:`_even_target_control`: a unit with :math:`w<0` then
    drifts up at :math:`\tau\dot w=vf(-1)/2\ge0` (cubic) and one with :math:`w>0` grows. With :math:`v<0` a
    unit with :math:`w>0` would move down to the kink :math:`w=0` and could slide along it (Filippov; with the
    signed Gaussian :math:`W_2` the located solve ran out of steps at tiny).
    """
    data = Data(_pm1_data(1.0, 0.0, "y = x/2 + 1/2"), "D=1 data x=+-1, y=(1, 0), not odd")
    (res,) = _window_errors(ctx, data, H, ws, (0.0,), (1.0,), positive_W2=True)
    _check_window(ctx, data, res, (0.0,), 1.0, "the printed window end")


@claim(
    "zhang2025:lemma-6",
    title="Early phase: exponential growth along r1 bbar^T with O(w_init) error up to the printed window end",
    source="Lemma 6, eq. (11); proof App. C.1, eqs. (28)-(32)",
    statement=r"Condition 3, square loss, $w_{\rm init}=\max(\|W_1(0)\|,\|W_2(0)\|)$. For "
    r"$t<\frac{\tau}{s+\operatorname{Tr}\Sigma}\ln\frac1{w_{\rm init}}$: "
    r"$W_1(t)=e^{\frac{\alpha+1}{2\tau}st}r_1\bar\beta^\top+O(w_{\rm init})$, "
    r"$W_2(t)=e^{\frac{\alpha+1}{2\tau}st}r_1^\top+O(w_{\rm init})$, $r_1=(W_1(0)\bar\beta+W_2(0)^\top)/2$.",
    hypotheses=[TWO_LAYER, ALPHA_01, CONDITION_3, SQUARE, SMALL_INIT],
    erratum=Erratum(
        r"the $O(w_{\rm init})$ error is not uniform up to the printed window end: there $u\approx w_{\rm "
        r"init}^{1-\kappa}$, $\kappa=\frac{(\alpha+1)s}{2(s+\operatorname{Tr}\Sigma)}$, and the cubic "
        r"remainder is $O(w_{\rm init}^{3(1-\kappa)})$, not $O(w_{\rm init})$ when $\kappa>2/3$ "
        r"(leaky/linear nets with $s\gg\operatorname{Tr}\Sigma$); fine for ReLU. Corrected window: "
        r"$t\le\frac23\frac{\tau}{s+\operatorname{Tr}\Sigma}\ln\frac1{w_{\rm init}}$ "
        "(zhang2025:lemma-6-corrected)",
        via="catalog pitfall P6 (proof bound not uniform); counterexample measured here",
        shown_by=("(11) holds with O(w_init) at the printed window end*",),
    ),
)
def lemma_6(ctx: Context) -> None:
    D = ctx.param("D", tiny=3, quick=5, full=FULL_D)
    P = ctx.param("P", tiny=20, quick=100, full=FULL_P)
    H = ctx.param("H", tiny=4, quick=10, full=FULL_H)
    n_w = ctx.param("trials", tiny=3, quick=4, full=7)
    ctx.require(P >= 2 * D and P % 2 == 0, f"need an even P >= 2 D, got P={P}, D={D}")
    _symbolic_lemma6(ctx)  # ~2 s of SymPy: every profile, so the tiny run (and its mutants) check (30)
    fig3 = _fig3_like(ctx, "fig3", D, P)
    ws = window_grid(n_w)
    _regimes(ctx, [fig3, _large_s(ctx, "large-s", P)], ws.max(), WINDOW_ALPHAS)
    ctx.note(
        "Not checked here: the growth rate (a+1)s/(2 tau) of (11)'s leading term. A fit of ln||W1|| needs "
        f"10 w_init < ||W1|| < {WINDOW_TOP:g}, i.e. times several times past the printed window end "
        "tau ln(1/w_init)/(s + Tr Sigma), where (11) says nothing; it is checked in "
        "zhang2025:lemma-6-corrected as a consequence of W = W~(30) + O(u^3), which has no window (with "
        "an even-target control of Condition 3 there). The rate enters the order checks below all the same: "
        "a leading term growing at another rate shifts the fitted order by f kappa or more."
    )
    rel_end = {}
    for data in (fig3, _large_s(ctx, "large-s", P)):
        (win,) = _window_errors(ctx, data, H, ws, WINDOW_ALPHAS, (1.0,))
        _check_window(ctx, data, win, WINDOW_ALPHAS, 1.0, "the printed window end")
        rel_end[data.label] = win
    big = rel_end[next(k for k in rel_end if k.startswith("large"))]
    ctx.note(
        "Catalog P6 examined. At the printed window end T = tau ln(1/w_init)/(s + Tr Sigma) the weights "
        "have grown to u ~ w_init^(1-kappa), kappa = (a+1)s/(2(s + Tr Sigma)), and the cubic remainder of "
        "the flow is O(u^3) = O(w_init^(3(1-kappa))). On Fig. 3-type data (Tr Sigma ~ D >> s) kappa is "
        "small and the O(w_init) statement holds at T. With s = 10 Tr Sigma (same odd target, scaled) and "
        f"alpha = 1: ||W - leading term|| / w_init = {big['err'][-len(ws)] / big['u0'][-len(ws)]:.3g} at "
        f"w_init = {big['u0'][-len(ws)]:.1e} and {big['err'][-1] / big['u0'][-1]:.3g} at w_init = "
        f"{big['u0'][-1]:.1e} (grows without bound as w_init -> 0); relative error at T "
        f"{big['rel'][-len(ws)]:.3g} .. {big['rel'][-1]:.3g}. The printed lemma holds for every data set "
        "when alpha = 0 (kappa < 1/2) and fails when kappa > 2/3."
    )
    # The erratum fails only the alpha = 1, s >> Tr Sigma check: the ReLU conclusions hold and the control
    # shows that they need Condition 3 (Lemma 14), the hypothesis through which the flow is linear at all.
    with ctx.control(
        "target with an even part: D = 1, x = +-1, y = (1, 0) (beta = 1/2, Tr Sigma = 1), ReLU",
        breaks=CONDITION_3,
        must_break=["(11) holds with O(w_init) at the printed window end*alpha=0]"],
    ):
        _even_part_control(ctx, H, ws)


# ---------------------------------------------------------------- Lemma 6, corrected


def _check_remainder_order(
    ctx: Context, res: dict, alphas: Sequence[float], key: str, expected: float, extra: float, what: str
) -> None:
    r"""Fitted order of the (30) remainder in :math:`w_{\rm init}`, per alpha.

    Tolerance :math:`2\ln(1+\rho+\iota+\text{extra})/\ln(w_{\max}/w_{\min})`: a power law
    multiplied by a factor within :math:`1\pm r` has a fitted order within
    :math:`2\ln(1+r)/\ln(\text{range})`.  :math:`\rho` = relative size of the next (quintic)
    correction, which is smaller than the cubic remainder by the same factor
    :math:`\sim u^2\operatorname{Tr}\Sigma/s` by which the remainder is smaller than :math:`W`,
    i.e. :math:`\rho=\|W-\widetilde W\|/\|W\|` at the largest :math:`w_{\rm init}`; :math:`\iota` =
    largest relative integrator error; ``extra`` = cross terms with the constant modes
    (:math:`w_{\rm init}/u`, fixed-amplitude case).
    """
    n = len(res["u0"]) // len(alphas)
    for k, a in enumerate(alphas):
        sl = slice(k * n, (k + 1) * n)
        u0, err = res["u0"][sl], res[key][sl]
        if res["integ"][sl].max() > 0.01:
            ctx.undecided(
                f"{what} [alpha={a:g}]",
                "integrator error exceeds 1% of the remainder",
                measured=float(res["integ"][sl].max()),
            )
            continue
        r = float(res["rel"][sl].max() + res["integ"][sl].max() + extra)
        tol = 2 * np.log1p(r) / np.log(u0.max() / u0.min())
        ctx.order(
            f"{what} [alpha={a:g}]",
            u0,
            err,
            expected=expected,
            tol=float(tol),
            why=(_check_remainder_order.__doc__ or "").split("\n\n")[1].strip().replace("\n", " ")
            + f" Here rho + iota + extra = {r:.3g}.",
            xlabel="w_init = u(0)",
            ylabel="||W - W~(30)||" + (" / ||W||" if key == "rel" else ""),
        )


# (D, H, pairs) of the searched Lemma-6 instances; each is solved on the claim's w_init ladder (window_grid)
L6_SHAPE = (2, 2, 2)
L6_FRACTIONS = (1 / 3, 1 / 2, 2 / 3)  # searched times, as fractions of the printed window end
L6_FLOOR = 100  # errors below L6_FLOOR x the integrator error (1% of it, as _check_window) are floored


def _window_violation(ctx: Context, ws: np.ndarray, rtol: float, worst: dict, theta: np.ndarray) -> float:
    r"""The violation ratio of the corrected (11) on the instance ``theta``: at each fraction
    :math:`f\in` ``L6_FRACTIONS`` of the printed window end (all :math:`\le2/3`), the order :math:`p` of
    :math:`\|W-e^{\lambda t}[r_1\bar\beta^\top;\ r_1^\top]\|` fitted over the ladder ``ws``; ratio
    :math:`\max_f(1-p+\text{shift})/0.1` (``WINDOW_TOL``, derived in :func:`_check_window`), > 1 iff
    the error over :math:`w_{\rm init}` grows by more than :math:`10^{0.1}` per decade as
    :math:`w_{\rm init}\to0`.

    One-sided, because :math:`O(w_{\rm init})` bounds the error from above: an init with no component
    in (30)'s constant mode (:math:`W_1(0)=W_2(0)^\top\bar\beta^\top`) has error order
    :math:`\min(1+f\kappa,3(1-f\kappa))>1`, which the fixed checks' two-sided :math:`|p-1|` would flag.
    Integrator error :math:`\delta_i` = ``SAFETY`` x |coarse - tight| (solves at ``rtol``, ``rtol/100``);
    errors below ``L6_FLOOR`` :math:`\max_i\delta_i/w_i\cdot w_{\rm init}` (an :math:`O(w_{\rm init})`
    line, order exactly 1) count as that line, so every fitted point is known to 1% and the fit cannot
    read the integrator's :math:`\sim\text{rtol}\,u(t)` as a slower order (a violation below that line
    at every scale goes unseen: the search's resolution); ``shift`` = :func:`verify.evidence.slope_shift`
    of those relative errors.

    Instance (Condition 3 by construction): :math:`[X_0;-X_0]`, :math:`[y_0;-y_0]` scaled to
    :math:`\operatorname{Tr}\Sigma=1`, :math:`s=10^{2\tanh z_0}\in(10^{-2},10^2)`,
    :math:`\alpha=\mathrm{sigmoid}(z_1)\in(0,1)`, initial direction :math:`(W_1,W_2)` with
    :math:`W_1` scaled by :math:`g=10^{\tanh z_2}` and :math:`W_2` by :math:`1/g` (imbalance), each
    ladder member scaled to :math:`u(0)=w_{\rm init}`.  The largest ratio seen and its instance go to
    ``worst``.
    """
    D, H, n = L6_SHAPE
    z, X0, y0, W = np.split(np.asarray(theta, float), np.cumsum([3, n * D, n]))
    ds = symmetrize(X0.reshape(n, D), y0, "searched")
    X = ds.X / np.sqrt(np.trace(ds.Sigma))
    y = ds.y * 10 ** (2 * np.tanh(z[0])) / np.linalg.norm(X.T @ ds.y / ds.P)
    data = Data(Dataset(X, y, "searched"), "searched")
    alpha, g = squash(z[1]), 10 ** np.tanh(z[2])
    net = two_layer(D, H)
    W = np.concatenate([W[: H * D] * g, W[H * D :] / g])
    y0s = ws[:, None] * (W / _u(net, W))[None]
    alphas = np.full(len(ws), alpha)
    tau = window_tau(data, ws, max(L6_FRACTIONS))
    ts = np.concatenate([[0.0], np.asarray(L6_FRACTIONS) / max(L6_FRACTIONS)])
    coarse, tight, _ = _flow_pair(ctx, net, data.ds, y0s, ts, alpha=alphas, tau=tau, rtol=rtol)
    ratio = -np.inf
    for i, f in enumerate(L6_FRACTIONS):
        res = _lead_errors(net, data, y0s, alphas, tau, ts[i + 1], coarse[:, i + 1], tight[:, i + 1])
        delta = SAFETY * res["integ"] * res["err"]
        err = np.maximum(res["err"], L6_FLOOR * float(np.max(delta / res["u0"])) * res["u0"])
        order = evidence.fit_order(res["u0"], err).slope
        r = (1 - order + evidence.slope_shift(res["u0"], delta / err)) / WINDOW_TOL
        ratio = max(ratio, r)
        if r > worst.get("ratio", -np.inf):
            kappa = data.kappa(alpha)
            worst.update(ratio=r, order=order, fraction=f, kappa=kappa, s=data.s, alpha=alpha, imbalance=g**2)
    return float(ratio)


def _window_starts(rng: np.random.Generator) -> dict[str, list[np.ndarray]]:
    """One start per family (drawn before looking; parameters as in :func:`_window_violation`): Gaussian
    (s = Tr Sigma, alpha = 1/2); near-linear at large s (s = 98 Tr Sigma, alpha = 0.98: kappa = 0.98, the
    corrected window's sharp end); rank one (the same, W1 = W2^T bbar^T: (30)'s constant and decaying modes
    vanish and the cubic remainder alone is the error); imbalanced (||W1|| / ||W2|| scaled by 1e-2, s = 98
    Tr Sigma, alpha = 1/2)."""
    D, H, n = L6_SHAPE
    w1 = slice(3 + n * D + n, 3 + n * D + n + H * D)

    def gaussian():
        t = rng.normal(size=3 + n * D + n + H * D + H)
        t[:3] = 0.0
        return t

    def near_linear():
        t = gaussian()
        t[:2] = (3.0, 4.0)
        return t

    def rank_one():
        t = near_linear()
        beta = t[3 : 3 + n * D].reshape(n, D).T @ t[3 + n * D : w1.start]
        t[w1] = np.outer(t[w1.stop :], beta / np.linalg.norm(beta)).ravel()
        return t

    def imbalanced():
        t = gaussian()
        t[:3] = (3.0, 0.0, -3.0)
        return t

    families = (
        ("Gaussian", gaussian),
        ("near-linear, s >> Tr Sigma", near_linear),
        ("rank one", rank_one),
        ("imbalanced", imbalanced),
    )
    return {f: [make()] for f, make in families}


@claim(
    "zhang2025:lemma-6-corrected",
    title="Early phase: W = (30) + O(u^3); (11) with O(w_init) holds up to 2/3 of the printed window",
    source="Lemma 6, eq. (11), (30); correction of the window (catalog P6, derived here)",
    statement=r"Condition 3, square loss, $w_{\rm init}=u(0)\ll1$. $W(t)=\widetilde W(t)+O(u(t)^3)$ with "
    r"$\widetilde W$ of (30) (no window: while $u\ll1$, $W$ grows at the rate $\frac{\alpha+1}{2\tau}s$ of "
    r"(30)'s growing mode): at fixed $t$ the remainder is $O(w_{\rm init}^3)$, at fixed amplitude "
    r"$e^{\lambda t}w_{\rm init}$ it does not shrink with $w_{\rm init}$. Hence (11) holds with $O(w_{\rm "
    r"init})$ uniformly for $t\le\frac23\frac{\tau}{s+\operatorname{Tr}\Sigma}\ln\frac1{w_{\rm init}}$ (at "
    r"the printed end iff $\frac{(\alpha+1)s}{s+\operatorname{Tr}\Sigma}\le\frac43$).",
    hypotheses=[TWO_LAYER, ALPHA_01, CONDITION_3, SQUARE, SMALL_INIT, WINDOW],
)
def lemma_6_corrected(ctx: Context) -> None:
    D = ctx.param("D", tiny=3, quick=5, full=FULL_D)
    P = ctx.param("P", tiny=20, quick=100, full=FULL_P)
    H = ctx.param("H", tiny=4, quick=10, full=FULL_H)
    n_w = ctx.param("trials", tiny=3, quick=4, full=7)
    budget = ctx.param("budget", tiny=2, quick=24, full=40)
    search_rtol = ctx.param("search_rtol", tiny=WINDOW_RTOL, quick=WINDOW_RTOL, full=REMAINDER_RTOL)
    seeds = ctx.param("seeds", tiny=1, quick=2, full=3)
    w_init = ctx.param("w_init", tiny=1e-5, quick=1e-6, full=1e-8)
    rtol = ctx.param("rtol", **GROWTH_RTOL)
    ctx.require(P >= 2 * D and P % 2 == 0, f"need an even P >= 2 D, got P={P}, D={D}")
    ctx.require(
        H >= 2 and w_init < 1e-3, f"need H >= 2 and w_init < 1e-3 (growth window), got H={H}, w_init={w_init}"
    )
    fig3 = _fig3_like(ctx, "fig3", D, P)
    large = _large_s(ctx, "large-s", P)
    white = _white_unit_s(ctx, "white", D, P)
    alphas = (0.0, 1.0)
    amplitude = 1e-2
    ws_t, ws_a, ws = np.geomspace(3e-3, 3e-5, n_w), np.geomspace(1e-4, 1e-6, n_w), window_grid(n_w)
    _regimes(
        ctx,
        [fig3, large, white],
        max(w_init, ws_t.max(), ws_a.max(), ws.max()),
        alphas + WINDOW_ALPHAS + GROWTH_ALPHAS,
    )
    # the growing mode of (30) at small u (no window): the rate (a+1)s/(2 tau) and the ReLU/linear ratio 1/2
    res = _growth_rates(ctx, fig3, H, seeds, w_init, rtol, n_out=40)
    _check_growth(ctx, fig3, res, f"{fig3.label}, H={H}, w_init={w_init:g}, {seeds} seeds")
    _growth_figure(ctx, res, seeds)
    ctx.note(
        f"The growth-rate fit reads 10 w_init < ||W1|| < {WINDOW_TOP:g}: its times run from "
        f"{res['span'][:, 0].min():.2g}-{res['span'][:, 0].max():.2g} to {res['span'][:, 1].min():.2g}-"
        f"{res['span'][:, 1].max():.2g} x the printed window end tau ln(1/w_init)/(s + Tr Sigma) (over "
        "members), past the window of (11): it checks W = W~(30) + O(u^3), which holds at every t while u is "
        "small, through the rate of (30)'s growing mode, not the printed lemma (zhang2025:lemma-6)."
    )
    worst: dict = {}
    fractions = ", ".join(f"{f:.3g}" for f in L6_FRACTIONS)
    ctx.search(
        "search: worst fitted order of the (11) error over symmetric data, s/Tr Sigma, alpha, init direction "
        "and imbalance, t <= 2/3 of the printed window",
        functools.partial(_window_violation, ctx, ws, search_rtol, worst),
        _window_starts(ctx.rng("window-search").host),
        budget=budget,
        why="(11) holds with O(w_init) on every Condition-3 data set, alpha in [0,1] and init: Nelder-Mead "
        "over (s/Tr Sigma in (1e-2, 1e2), alpha in (0,1), ||W1||/||W2|| scaled by (1e-2, 1e2), inputs, "
        f"targets, W1, W2 direction), (D, H, pairs) = {L6_SHAPE}, w_init ladder {ws.max():.0e} .. "
        f"{ws.min():.0e} ({n_w} scales), t = {fractions} x the printed window end; ratio = max_t (1 - fitted "
        f"order + integrator slope shift) / {WINDOW_TOL:g} (the window checks' derived tolerance), > 1 iff "
        "the error over w_init grows by more than 10^0.1 per decade as w_init -> 0. One-sided: O(w_init) is "
        "an upper bound, and an init with no component in (30)'s constant mode has order min(1 + f kappa, "
        f"3(1 - f kappa)) > 1. Errors below {L6_FLOOR} x the integrator error count as that O(w_init) line "
        "(each fitted point known to 1%). Deterministic in the instance (no draws): no multiplicity "
        "correction",
    )
    ctx.note(
        f"Worst searched instance: s/Tr Sigma = {worst['s']:.3g}, alpha = {worst['alpha']:.3g} (kappa = "
        f"{worst['kappa']:.3f}), ||W1||/||W2|| scaled by {worst['imbalance']:.3g}, at "
        f"{worst['fraction']:.3g} of the printed window: fitted order {worst['order']:.4f} (ratio "
        f"{worst['ratio']:.3g}); the corrected statement predicts an order >= min(1, 3(1 - f kappa)) = 1 "
        "for f <= 2/3 (kappa < 1 for alpha <= 1)."
    )
    # one solve on the Fig. 3 data: fixed t, fixed amplitude, 2/3 window; each group's tau puts its time at 1
    net = two_layer(D, H)
    groups = [
        _grid(ctx, "fixed-t", net, ws_t, alphas),
        _grid(ctx, "fixed-a", net, ws_a, alphas),
        _grid(ctx, "window", net, ws, WINDOW_ALPHAS),
    ]
    u0s = [_u(net, y0) for y0, _ in groups]
    taus = [
        (groups[0][1] + 1) * fig3.s / (2 * np.log(10.0)),
        (groups[1][1] + 1) * fig3.s / (2 * np.log(amplitude / u0s[1])),
        window_tau(fig3, u0s[2], 2 / 3),
    ]
    y0 = np.concatenate([g[0] for g in groups])
    alpha = np.concatenate([g[1] for g in groups])
    tau = np.concatenate(taus)
    coarse, tight, _ = _flow_pair(
        ctx, net, fig3.ds, y0, np.array([0.0, 1.0]), alpha=alpha, tau=tau, rtol=REMAINDER_RTOL
    )
    cut = np.cumsum([0] + [len(g[0]) for g in groups])
    part = [slice(cut[i], cut[i + 1]) for i in range(3)]

    def args(i: int) -> tuple:
        sl = part[i]
        return (net, fig3, y0[sl], alpha[sl], tau[sl], 1.0, coarse[sl, 1], tight[sl, 1])

    fixed_t = _remainder_errors(*args(0))
    _check_remainder_order(
        ctx,
        fixed_t,
        alphas,
        "err",
        3.0,
        0.0,
        f"fixed t (e^(lambda t) = 10): ||W(t) - W~(t)|| = O(w_init^3) [{fig3.label}, H={H}]",
    )
    fixed_a = _remainder_errors(*args(1))
    _check_remainder_order(
        ctx,
        fixed_a,
        alphas,
        "rel",
        0.0,
        float(ws_a.max() / amplitude),
        f"fixed amplitude e^(lambda t) w_init = {amplitude:g}: ||W - W~|| / ||W|| independent of w_init "
        f"(order 0) [{fig3.label}, H={H}]",
    )
    ctx.note(
        "Catalog Lemma 6 plan (3) predicts the (30) remainder ~ w_init^3 e^(3(s+Tr Sigma)t/tau), i.e. a "
        "relative error ~ w_init^2 at fixed amplitude. That uses the proof's bound rate s + Tr Sigma; with "
        "the true rate lambda = (a+1)s/(2 tau) the remainder is O(u(t)^3): order 3 in w_init at fixed t "
        "(measured above), but order 0 at fixed amplitude e^(lambda t) w_init (measured above: relative "
        f"error {fixed_a['rel'].min():.3g} .. {fixed_a['rel'].max():.3g} over w_init = {ws_a.max():.0e} .. "
        f"{ws_a.min():.0e}).",
    )
    _check_window(ctx, fig3, _lead_errors(*args(2)), WINDOW_ALPHAS, 2 / 3, "2/3 of the printed window")
    two_thirds, printed = _window_errors(ctx, large, H, ws, WINDOW_ALPHAS, (2 / 3, 1.0))
    _check_window(ctx, large, two_thirds, WINDOW_ALPHAS, 2 / 3, "2/3 of the printed window")
    (white_two_thirds,) = _window_errors(ctx, white, H, ws, WINDOW_ALPHAS, (2 / 3,))
    _check_window(ctx, white, white_two_thirds, WINDOW_ALPHAS, 2 / 3, "2/3 of the printed window")
    with ctx.control(
        "the printed window end t = tau ln(1/w_init)/(s + Tr Sigma), s = 10 Tr Sigma, alpha = 1",
        breaks=WINDOW,
        must_break=[_WINDOW_ORDER],
    ):
        k = WINDOW_ALPHAS.index(1.0)
        linear = {key: v[k * n_w : (k + 1) * n_w] for key, v in printed.items()}
        _check_window(ctx, large, linear, (1.0,), 1.0, "the printed window end")
    with ctx.control(
        "even target: D = 1, x = +-1, y = +1 for both (beta = 0), ReLU",
        breaks=CONDITION_3,
        must_break=[f"{_GROWTH} *"],
    ):
        _even_target_control(ctx, H, w_init, rtol)


# -------------------------------------------------------------------------- Lemma 16


def _norm_growth(
    ctx: Context,
    data: Data,
    H: int,
    seeds: int,
    w_init: float,
    rtol: float,
    T: float | None = None,
    positive_W2: bool = False,
) -> dict:
    r""":math:`u(t)/(u(0)e^{(s+\operatorname{Tr}\Sigma)t/\tau})` on the window, every (seed, alpha).

    :math:`\tau=1`; the grid ends at the smallest member's window end
    :math:`\ln(1/u(0))/(s+\operatorname{Tr}\Sigma)` (or at ``T``).  Integrator error: relative
    difference of :math:`u` between the coarse and the 100x tighter solve.
    """
    net = two_layer(data.ds.D, H)
    unit = _unit_init(ctx, f"lemma16/{data.label}/{H}", net, seeds)
    if positive_W2:
        unit[:, -H:] = np.abs(unit[:, -H:])
    K = len(GROWTH_ALPHAS)
    y0 = np.repeat(unit * w_init, K, axis=0)
    alpha = np.tile(GROWTH_ALPHAS, seeds)
    u0 = _u(net, y0)
    rate = data.s + data.trace
    window = float(np.log(1 / u0.max()) / rate)
    ts = np.linspace(0.0, window if T is None else T, 40)
    coarse, tight, steps = _flow_pair(ctx, net, data.ds, y0, ts, alpha=alpha, tau=1.0, rtol=rtol)
    u, ut = _u(net, coarse), _u(net, tight)
    half = ts >= ts[-1] / 2
    slopes = np.array([np.polyfit(ts[half], np.log(u[b, half]), 1)[0] for b in range(len(y0))])
    return {
        "t": ts,
        "u": u,
        "u0": u0,
        "alpha": alpha,
        "rate": rate,
        "window": window,
        "ratio": u / (u0[:, None] * np.exp(rate * ts[None, :])),
        "integ": float((np.abs(u - ut) / u).max()),
        "steps": steps,
        "sharpness": slopes / rate,
    }


def _check_norm_bound(ctx: Context, data: Data, res: dict, label: str) -> None:
    tol = SAFETY * res["integ"] + 16 * res["steps"] * EPS
    sharp = float(res["sharpness"].max())
    ratio = res["ratio"][:, 1:]  # t > 0 (the ratio is 1 at t = 0 by definition)
    b, k = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
    ctx.bound(
        f"(25) u(t) <= u(0) e^((s + Tr Sigma) t / tau) for t < tau ln(1/w_init)/(s + Tr Sigma) [{label}]: "
        "max_t u(t) / bound(t)",
        float(ratio.max()),
        1.0 + tol,
        why=f"{SAFETY:g} x relative integrator error of u (rtol vs rtol/100) + 16 eps x {res['steps']} "
        f"steps; all alphas {list(GROWTH_ALPHAS)}",
        resolution=f"a growth faster than the bound; the fitted rate of ln u reaches {sharp:.3f} of the "
        f"bound rate s + Tr Sigma here, so a bound rate too small by a factor > {1 / sharp:.3g} would be "
        "caught (for ReLU the bound is loose by 2(s + Tr Sigma)/((a+1)s): the paper's constant, not a "
        "tolerance)",
        details={
            "alpha": float(res["alpha"][b]),
            "member": int(b),
            "t": float(res["t"][k + 1]),
            "window end": res["window"],
            "s": data.s,
            "Tr Sigma": data.trace,
            "sharpness (fitted rate of ln u, second half of the window, / (s + Tr Sigma))": {
                f"alpha={a:g}": float(res["sharpness"][i]) for i, a in enumerate(GROWTH_ALPHAS)
            },
        },
    )


# (D, H, pairs) of the searched Lemma-16 instances; slopes run together in one solve
L16_SHAPE = (2, 3, 3)
L16_ALPHAS = (0.0, 0.5, 1.0)
L16_RTOL = 1e-7  # the searched ratios need ~1e-3 accuracy; the integrator error enters the tolerance
L16_W_MAX = 1e-2  # the searched u(0) = 10^(-3 - tanh) lies in (1e-4, L16_W_MAX)


def _norm_bound_violation(ctx: Context, rtol: float, theta: np.ndarray) -> float:
    r""":math:`\max_{t,\alpha}u(t)/(u(0)e^{(s+\operatorname{Tr}\Sigma)t/\tau})` over the window, divided by
    ``1 + tol`` (:func:`_check_norm_bound`'s tolerance), on the instance ``theta``: symmetric data
    :math:`[X_0;-X_0]` scaled to :math:`\operatorname{Tr}\Sigma=1` with
    :math:`s=10^{2\tanh\theta}\in(10^{-2},10^2)` (the bound is sharpest for the linear net at
    :math:`s\gg\operatorname{Tr}\Sigma`), any initial direction, :math:`u(0)=10^{-3-\tanh\theta}\in(10^{-4},
    10^{-2})` (small init)."""
    D, H, n = L16_SHAPE
    X0, y0, W, rest = np.split(np.asarray(theta, float), np.cumsum([n * D, n, H * D + H]))
    ds = symmetrize(X0.reshape(n, D), y0, "searched")
    X = ds.X / np.sqrt(np.trace(ds.Sigma))
    y = ds.y * 10 ** (2 * np.tanh(rest[0])) / np.linalg.norm(X.T @ ds.y / ds.P)
    data = Data(Dataset(X, y, "searched"), "searched")
    u0 = 10 ** (-3 - np.tanh(rest[1]))
    y0 = np.repeat(W[None] * u0 / max(np.linalg.norm(W[: H * D]), np.linalg.norm(W[H * D :])), 3, axis=0)
    rate = data.s + data.trace
    ts = np.linspace(0.0, np.log(1 / u0) / rate, 12)
    net = two_layer(D, H)
    coarse, tight, steps = _flow_pair(ctx, net, data.ds, y0, ts, alpha=L16_ALPHAS, tau=1.0, rtol=rtol)
    u, ut = _u(net, coarse), _u(net, tight)
    tol = SAFETY * float((np.abs(u - ut) / u).max()) + 16 * steps * EPS
    return float((u / (u[:, :1] * np.exp(rate * ts[None, :])))[:, 1:].max() / (1 + tol))


def _norm_bound_starts(rng: np.random.Generator) -> dict[str, list[np.ndarray]]:
    """One start per family (drawn before looking): Gaussian (s ~ Tr Sigma); large s (s = 100 Tr Sigma);
    aligned (large s and W1 = W2^T beta_bar^T, ||W1|| = ||W2||: all of u(0) in the growing mode, the
    near-equality end of (25)); near-kink (the first unit's weights 1e-9 off orthogonal to the first
    input)."""
    D, H, n = L16_SHAPE
    size = n * D + n + H * D + H + 2
    w1 = slice(n * D + n, n * D + n + H * D)

    def gaussian():
        return rng.normal(size=size)

    def large_s():
        t = gaussian()
        t[-2] = 6.0
        return t

    def aligned():
        t = large_s()
        beta = t[: n * D].reshape(n, D).T @ t[n * D : n * D + n]
        t[w1] = np.outer(t[w1.stop : w1.stop + H], beta / np.linalg.norm(beta)).ravel()
        return t

    def near_kink():
        t = gaussian()
        x, w = t[:D], t[w1.start : w1.start + D]
        t[w1.start : w1.start + D] = (
            w - (w @ x) / (x @ x) * x + 1e-9 * np.linalg.norm(w) * x / np.linalg.norm(x)
        )
        return t

    families = (("Gaussian", gaussian), ("large s", large_s), ("aligned", aligned), ("near-kink", near_kink))
    return {f: [make()] for f, make in families}


def _norm_figure(ctx: Context, res: dict, title: str) -> None:
    series = [
        Series(f"alpha = {a:g}", res["t"], res["u"][k] / res["u0"][k]) for k, a in enumerate(GROWTH_ALPHAS)
    ]
    series.append(Series("bound e^((s + Tr Sigma) t)", res["t"], np.exp(res["rate"] * res["t"]), "--"))
    ctx.figure(title, series=series, xlabel="t / tau", ylabel="u(t) / u(0)", logy=True)


@claim(
    "zhang2025:lemma-16",
    title="Norm growth bound u(t) <= u(0) exp((s + Tr Sigma) t / tau) in the early phase",
    source="Lemma 16, eq. (25); proof App. C.1",
    statement=r"$u(t)=\max(\|W_1(t)\|,\|W_2(t)\|)$, $w_{\rm init}=u(0)\ll1$, square loss: $u(t)\le "
    r"u(0)e^{(s+\operatorname{Tr}\Sigma)t/\tau}$ for "
    r"$t<\frac{\tau}{s+\operatorname{Tr}\Sigma}\ln\frac1{w_{\rm init}}$. (Printed without a data "
    r"condition; it sits in App. C, on symmetric datasets, and its proof uses Lemma 14: Condition 3.)",
    hypotheses=[TWO_LAYER, ALPHA_01, SQUARE, SMALL_INIT, CONDITION_3],
)
def lemma_16(ctx: Context) -> None:
    D = ctx.param("D", tiny=3, quick=5, full=FULL_D)
    P = ctx.param("P", tiny=20, quick=100, full=FULL_P)
    H = ctx.param("H", tiny=4, quick=10, full=FULL_H)
    seeds = ctx.param("seeds", tiny=1, quick=2, full=3)
    w_init = ctx.param("w_init", tiny=1e-3, quick=1e-4, full=1e-6)
    rtol = ctx.param("rtol", tiny=1e-7, quick=1e-8, full=1e-10)
    budget = ctx.param("budget", tiny=2, quick=30, full=100)
    ctx.require(
        P >= 4 * D and P % 2 == 0 and H >= 4, f"need an even P >= 4 D and H >= 4, got P={P}, D={D}, H={H}"
    )
    cases = [
        (_fig3_like(ctx, "fig3", D, P), H),
        (_fig3_like(ctx, "fig3-wide", 2 * D, P), H // 2),
        (_large_s(ctx, "large-s", P), H),
    ]
    # the searched instances start from u(0) up to L16_W_MAX: the small-init regime is read at the larger
    _regimes(ctx, [data for data, _ in cases], max(w_init, L16_W_MAX), GROWTH_ALPHAS + L16_ALPHAS)
    ctx.search(
        "search: worst max_t u(t)/bound(t) of (25) over symmetric data, inits, s/Tr Sigma and alpha",
        functools.partial(_norm_bound_violation, ctx, L16_RTOL),
        _norm_bound_starts(ctx.rng("search").host),
        budget=budget,
        why="(25) holds for every Condition-3 data set and small init: Nelder-Mead over (inputs, targets, "
        f"W1, W2 direction, s/Tr Sigma in (1e-2, 1e2), u(0) in (1e-4, 1e-2)), (D, H, pairs) = {L16_SHAPE}, "
        f"alpha in {list(L16_ALPHAS)} each; ratio = max_t u/bound over the window divided by 1 + the check's "
        "tolerance (integrator error, rounding), <= 1 iff (25) holds on the instance",
    )
    sharp = {}
    for data, h in cases:
        res = _norm_growth(ctx, data, h, seeds, w_init, rtol)
        _check_norm_bound(ctx, data, res, f"{data.label}, H={h}, w_init={w_init:g}, {seeds} seeds")
        sharp[data.label] = (res["sharpness"].min(), res["sharpness"].max())
        if data is cases[-1][0]:
            _norm_figure(ctx, res, f"u(t)/u(0) against the bound (25) [{data.label}]")
    ctx.note(
        "Sharpness of (25): fitted growth rate of ln u over the second half of the window divided by the "
        "bound rate s + Tr Sigma (1 = sharp): "
        + "; ".join(f"{k}: {lo:.3f} .. {hi:.3f}" for k, (lo, hi) in sharp.items())
        + ". Along the growing mode the true rate is (a+1)s/(2 tau), so the bound is loose by "
        "2(s + Tr Sigma)/((a+1)s); it is nearly sharp only for the linear net when s >> Tr Sigma."
    )
    with ctx.control(
        "even target: D = 1, x = +-0.1, y = +1 for both, ReLU, H = 50, w_init = 1e-4, t <= 100 tau (window "
        "921 tau); W2(0) > 0 so that no unit slides along w1h = 0",
        breaks=CONDITION_3,
        must_break=["(25) u(t) <= u(0) e^((s + Tr Sigma) t / tau) *"],
    ):
        ds = Dataset(np.array([[0.1], [-0.1]]), np.array([1.0, 1.0]), "even target")
        res = _norm_growth(ctx, Data(ds, "even target"), 50, 1, 1e-4, rtol, T=100.0, positive_W2=True)
        _check_norm_bound(ctx, Data(ds, "even target"), res, "even target, x = +-0.1, y = +1")
        _norm_figure(ctx, res, "control: even target, u(t)/u(0) against the bound (25)")
    ctx.note(
        "Printed wording: Lemma 16 states (25) for 'two-layer linear, ReLU, or leaky ReLU networks trained "
        "with square loss from small initialization', with no condition on the data. Its proof bounds the "
        "first term of the flow by s u through Lemma 14, which needs Condition 3, and the lemma sits in "
        "App. C (symmetric datasets), so the claim assumes Condition 3. Without it (25) fails: in the "
        f"control (an even target, s = 0, ReLU) ln u grows at {res['sharpness'][0]:.3g} x the bound's rate "
        "s + Tr Sigma."
    )
