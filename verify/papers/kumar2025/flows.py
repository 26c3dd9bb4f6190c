r"""kumar2025: gradient flows of homogeneous NCFs -- the dichotomy of the imported Lemma 1 (with its
erratum), the scaling of Lemma 6 (eq. 18), and the block lemmas 10 and 11 (which blocks survive).

Test functions (all exact NCFs of the paper's nets):

* the per-neuron NCF :math:`h(a,b)=\sum_iq_i^\top b\,\sigma(a^\top g_i)` (``NeuronNCF``), degree
  :math:`p+1`; for :math:`\sigma=x^2` it is :math:`b\,a^\top Ma`, :math:`M=\sum_iq_ig_ig_i^\top`;
* 2-homogeneous blocks :math:`\tfrac12w^\top Sw+c\,w_1^4/\|w\|^2` (Lemma 10; with :math:`c=0` and
  :math:`S=[[0,r],[r^\top,0]]` this is the linear two-layer neuron :math:`b\,a^\top r`).

Blow-up times come from the polar form of ``numeric.models.homogeneous_flow`` (a convergent integral,
not an integration into the singularity); Lemma 1 corrected and Lemma 11 also measure them directly in the
time t (:func:`direct_blow_up`), independently of the polar form, and compare the two.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import partial

import numpy as np
import sympy as sp
from scipy.integrate import solve_ivp

from numeric.backend import get_backend
from numeric.engine.integrators.control import AdaptiveStep
from numeric.engine.integrators.methods import DOPRI5
from numeric.engine.solve import solve
from numeric.models.homogeneous_flow import blow_up_time, polar_flow
from numeric.models.homogeneous_nets import HomogeneousNet, NeuronNCF, kkt_cosine, normalize
from verify.claim import Erratum, claim
from verify.context import Context
from verify.papers.kumar2025.fitted_orders import order_tolerance
from verify.papers.kumar2025.hypotheses import (
    BLOCKS_2_HOMOGENEOUS,
    G_HOMOGENEOUS,
    NCF_HOMOGENEOUS,
    NCF_HOMOGENEOUS_LIPSCHITZ,
    POSITIVE_START,
)
from verify.search import squash

EPS = float(np.finfo(float).eps)
TAU_END = 12.0  # polar time; see polar_to_end


def neuron(rng: np.random.Generator, alpha: float, p: int, k_in: int = 3, n: int = 10) -> NeuronNCF:
    """A random one-output per-neuron NCF; the labels are shifted positive so that
    :math:`M=G\\,\\mathrm{diag}(q)G^\\top` has both a dominant positive direction and a decaying one."""
    return NeuronNCF(rng.normal(size=(1, k_in, n)), rng.normal(size=(1, 1, n)) + 0.5, alpha, p)


def spectral_neuron(rng: np.random.Generator, alpha: float, p: int, signs: tuple[int, ...]) -> NeuronNCF:
    r"""A per-neuron NCF on orthonormal inputs :math:`g_i` (``n = k_in = 3``) with label weights of
    magnitudes about (3, 2, 1) and the given signs: for :math:`\sigma=x^2`,
    :math:`M=G\,\mathrm{diag}(q)G^\top` has eigenvalues ``q``, bounded away from 0, so every
    approach to a limit is exponential."""
    G = np.linalg.qr(rng.normal(size=(3, 3)))[0]
    q = np.array([3.0, 2.0, 1.0]) * (1 + 0.2 * rng.uniform(size=3)) * np.asarray(signs)
    return NeuronNCF(G[None], rng.permutation(q)[None, None], alpha, p)


def rows(ncf: NeuronNCF):
    """``value_and_grad(u, args)`` on rows ``u`` (B, k) for the polar and direct solvers."""

    def vg(u, args=None):
        value, grad = ncf.value_and_grad(u[None])
        return value[0], grad[0]

    return vg


def block_vg(alpha: float, p: int):
    """Per-member neuron NCFs: ``args`` holds each block's ``G`` (B, k_in, n) and ``Q`` (B, 1, n)."""

    def vg(u, args):
        value, grad = NeuronNCF(args["G"], args["Q"], alpha, p).value_and_grad(u[:, None, :])
        return value[:, 0], grad[:, 0]

    return vg


def gradient_flow(vg, u0: np.ndarray, ts: np.ndarray, rate=None, rtol: float = 1e-11, args=None):
    r""":math:`\dot u=c\,\nabla f(u)` (eq. 6) from the rows of ``u0``; ``rate`` = per-row :math:`c`,
    ``args`` = per-row data for ``vg``."""
    args = dict(args or {}, rate=np.ones((len(u0), 1)) if rate is None else np.asarray(rate, float)[:, None])
    traj = solve(
        lambda t, u, a: vg(u, a)[1] * a["rate"],
        np.asarray(u0, float),
        ts,
        method=DOPRI5,
        control=AdaptiveStep(rtol=rtol, atol=1e-14),
        args=args,
        max_steps=200_000,
    )
    return traj


def net_fields(shapes, X: np.ndarray, y: np.ndarray, alpha: float, p: int):
    r"""``(ncf, descent)`` of the net of ``shapes`` on the host data ``(X, y)``, in the ``vg(u, args) ->
    (value, grad)`` convention of :func:`gradient_flow` and ``polar_flow``: the NCF
    :math:`\mathcal N_{y,\mathcal H}` (eq. 4) with its gradient, and the loss (eq. 1) with minus its
    gradient (the gradient flow of the loss, eqs. 14-15)."""
    net = HomogeneousNet(tuple(shapes), alpha, p)
    data = net.args(get_backend("numpy"), X, y)

    def ncf(u, args=None):
        return net.ncf_and_grad(u, data)

    def descent(u, args=None):
        value, grad = net.loss_and_grad(u, data)
        return value, -grad

    return ncf, descent


def polar_to_end(vg, u0: np.ndarray, degree: int, args=None):
    """Polar flow to ``TAU_END`` (rtol 1e-10).  For the spectral neurons an angle off the KKT direction
    decays in polar time at rate :math:`2b^*(\\mu_1-\\mu_k)\\ge0.69` (:math:`e^{-8}` at the end);
    diverging radii reach :math:`\\ln r\\ge L f^*\\,TAU\\_END\\ge13`, and the remaining blow-up tail is
    added in closed form by :func:`blow_up_time`."""
    return polar_flow(vg, u0, degree, np.linspace(0.0, TAU_END, 4), args=args, rtol=1e-10)


# ------------------------------------------------------------------------------------------- Lemma 1

SETTLED = 1e-10  # predicted |grad N(theta)| at which a converging direction counts as settled
TAU_SETTLE_MIN, TAU_SETTLE_MAX = 48.0, 5000.0  # polar time a finite limit is followed past TAU_END
TOL_T = 1e-8  # relative error allowed a polar-form blow-up time (rtol 1e-10): search ratio, cross-check
TOL_COS = {2: 1e-7, 3: 1e-12}  # 1 - KKT cosine the checks allow, per p (derivations at the checks)
R_POWER = 1e9  # R^(L-2) at the radius R where a direct solve stops: its tail is <= 1e-9 of T
RTOL_DIRECT, RTOL_LOOSE = 1e-12, 1e-9  # direct solves in t; the loose one sizes the tight one's error
T_MAX = 1e4  # time a direct solve is followed; one not reaching R by then reads T > its last time


@dataclass(frozen=True)
class DirectBlowUp:
    r"""Blow-up times of unit starts measured in the plain time t (:func:`direct_blow_up`), per start:
    ``T`` the estimate, ``err`` its derived error bound, ``lo``, ``hi`` the ends of eq. 27 (``hi`` = inf
    where :math:`\mathcal N(u_0)\le0`, not read), ``reached`` whether the solve reached R (else ``T``
    is the last time solved, a lower bound, and ``lo`` is not read)."""

    T: np.ndarray
    err: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    reached: np.ndarray

    @classmethod
    def join(cls, parts: list[DirectBlowUp]) -> DirectBlowUp:
        return cls(*(np.concatenate([getattr(d, f.name) for d in parts]) for f in fields(cls)))


def direct_blow_up(vg, u0: np.ndarray, L: int) -> DirectBlowUp:
    r"""Blow-up time of :math:`\dot\phi=\nabla\mathcal N(\phi)`, :math:`\phi(0)=u_0`, :math:`\|u_0\|=1`,
    integrated directly in t (scipy DOP853, rtol ``RTOL_DIRECT``, atol 1e-3 rtol) until
    :math:`\|\phi\|=R`, :math:`R^{L-2}=` ``R_POWER``, located as a terminal event; no polar form.

    Tail and error, from the homogeneity (Euler: :math:`\phi^\top\nabla\mathcal N(\phi)=L\mathcal N(\phi)`):
    with :math:`r=\|\phi\|`, :math:`\theta=\phi/r`,
    :math:`\frac d{dt}r^{-(L-2)}=-(L-2)L\,\mathcal N(\theta)`, and :math:`\mathcal N(\theta)` is
    non-decreasing (:math:`\frac d{dt}\mathcal N(\theta)=r^{L-2}\|(I-\theta\theta^\top)\nabla\mathcal
    N(\theta)\|^2`), so :math:`\mathcal N(\theta_R)\le\mathcal N(\theta(t))\le\mathcal N(u_*)` past
    :math:`t_R`. Integrating :math:`R^{2-L}=(L-2)L\int_{t_R}^T\mathcal N(\theta)\,dt` gives
    :math:`T-t_R\in[\frac{R^{2-L}}{(L-2)L\mathcal N(u_*)},\ \text{tail}]`,
    :math:`\text{tail}=\frac{R^{2-L}}{(L-2)L\mathcal N(\theta_R)}`: the estimate
    :math:`\hat T=t_R+\text{tail}` is within tail above T. The lower end is read with
    :math:`\mathcal N(\theta_R)\le\mathcal N(u_*)`, a stronger end than
    :math:`\frac1{L(L-2)\mathcal N(u_*)}`, which the flow meets to within the same tail:
    :math:`1-R^{2-L}=(L-2)L\int_0^{t_R}\mathcal N(\theta)\,dt\le(L-2)L\mathcal N(\theta_R)t_R`, so
    :math:`\hat T\ge t_R\ge\frac1{L(L-2)\mathcal N(\theta_R)}-\text{tail}`.

    Solver error: the same solve at ``RTOL_LOOSE`` (1000x looser) deviates from it by about its own
    error, ~1000x the tight solve's (tolerance proportionality), and that deviation is taken whole;
    plus the rounding of t over the accepted steps, steps x eps x T. ``err`` = tail + deviation +
    rounding."""
    R = R_POWER ** (1 / (L - 2))
    n0 = vg(np.asarray(u0, float))[0]

    def crossing(t, u):
        return u @ u - R * R

    crossing.terminal, crossing.direction = True, 1

    def read(u, rtol):
        sol = solve_ivp(
            lambda t, y: vg(y[None])[1][0],
            (0.0, T_MAX),
            u,
            method="DOP853",
            rtol=rtol,
            atol=1e-3 * rtol,
            events=crossing,
        )
        if not sol.t_events[0].size:
            return float(sol.t[-1]), 0.0, np.nan, sol.t.size
        n_R = float(vg(normalize(sol.y_events[0][:1]))[0][0])
        tail = R ** (2 - L) / ((L - 2) * L * n_R)
        return float(sol.t_events[0][0]) + tail, tail, n_R, sol.t.size

    starts = []
    for u in np.asarray(u0, float):
        (T, tail, n_R, steps), (T_loose, *_) = read(u, RTOL_DIRECT), read(u, RTOL_LOOSE)
        reached = bool(np.isfinite(n_R))
        err = tail + abs(T - T_loose) + steps * EPS * T if reached else 0.0
        lo = 1 / (L * (L - 2) * n_R) if reached else -np.inf
        starts.append((T, err, lo, reached))
    T, err, lo, reached = (np.array(x) for x in zip(*starts, strict=True))
    with np.errstate(divide="ignore"):
        hi = np.where(n0 > 0, 1 / (L * (L - 2) * n0), np.inf)
    return DirectBlowUp(T, err, lo, hi, reached)


BRACKET = "max relative violation of T in [1/(L(L-2)N(u*)), 1/(L(L-2)N(u_0))]"  # name of the eq. 27 check


def _bracket_checks(ctx: Context, tag: str, d: DirectBlowUp, polar: np.ndarray | None = None) -> np.ndarray:
    r"""Lemma 1 corrected / Lemma 11 eq. 27 on directly measured blow-up times (:func:`direct_blow_up`):
    the relative violation :math:`\max(lo-\hat T,\hat T-hi)/\hat T` of every start against its own
    derived error ``err`` / T; and, given the polar-form times ``polar``, their agreement with the direct
    ones within that error plus the polar allowance ``TOL_T`` (a check of the two measurements).
    Returns the per-start relative tolerance ``err`` / T (for a control, which must use the main run's)."""
    viol = np.maximum(d.lo - d.T, d.T - d.hi) / d.T
    tol = d.err / d.T
    w = int(np.argmax(viol - tol))
    unread = int((~d.reached).sum())
    upper = np.isfinite(d.hi)
    lower_factor = float(np.min(((d.T + d.err) / d.lo)[d.reached], initial=np.inf))
    upper_factor = float(np.min((d.hi / (d.T - d.err))[upper], initial=np.inf))
    ctx.bound(
        f"{BRACKET}{tag}",
        viol,
        tol,
        why=f"T solved directly in t (direct_blow_up: DOP853 at rtol {RTOL_DIRECT:g} to |phi| = R, "
        f"R^(L-2) = {R_POWER:g}), not from the polar form; per-start tolerance derived there: the tail "
        "R^(2-L)/((L-2) L N(theta_R)) (T - t_R lies in [its N(theta_R)/N(u*) multiple, itself], as N(theta) "
        "is non-decreasing; the lower end read with N(theta_R) <= N(u*) holds to the same tail) + the "
        f"deviation of the rtol {RTOL_LOOSE:g} solve + steps x eps x T; largest relative tolerance "
        f"{tol.max():.3g} over {len(viol)} starts (upper end read where N(u_0) > 0: "
        f"{int(upper.sum())}; {unread} not reaching R by t = {T_MAX:g}, read as T > that)",
        details={
            "starts": len(viol),
            "worst start": w,
            "its T": float(d.T[w]),
            "its bracket": [float(d.lo[w]), float(d.hi[w]) if np.isfinite(d.hi[w]) else "not read"],
            "not reaching R": unread,
        },
        resolution=f"T outside an end of eq. 27 by more than its derived error: here a lower end larger by a "
        f"factor over {lower_factor:.10g} or an upper end smaller by a factor over {upper_factor:.10g} "
        "fails on some start (inf: that end read on no start)",
    )
    if polar is not None:
        gap = np.abs(polar - d.T) / d.T
        ctx.bound(
            f"max |T_polar - T_direct| / T_direct: polar-form blow-up time against the direct solve{tag}",
            gap,
            tol + TOL_T,
            why="two measurements of the same T: the polar form (t' = r^-(L-2) in polar time, rtol 1e-10, "
            f"closed-form tail; allowance TOL_T = {TOL_T:g} relative, that of the polar-time checks) and "
            "the direct solve in t (its derived error, as in the bracket check)",
            resolution="a disagreement of the two measurements of T beyond TOL_T + the direct error: a check "
            "of the measurement of T (the polar integral of numeric.models.homogeneous_flow), not of the "
            "statement",
        )
    return tol


def approach_rate(ncf: NeuronNCF, theta: np.ndarray) -> np.ndarray:
    r"""Exponential rate, in polar time, at which the unit rows ``theta`` near a finite limit approach
    the critical cone of a :func:`spectral_neuron` NCF with ``p = 2``.

    With orthonormal inputs the coordinates :math:`c_i=\langle a,g_i\rangle` move by
    :math:`\dot c_i=q_ib\,\sigma'(c_i)`, :math:`\sigma'(c)=2\max(c,\alpha c)` where active: an active
    coordinate decays (:math:`q_ib<0`) at rate :math:`2|q_ib|`, an inactive one (ReLU, :math:`c_i<0`)
    is frozen.  In the polar time :math:`d\tau=\|u\|dt` the rate is :math:`2|q_i||b|/\|u\|`
    (the radial term :math:`L\mathcal N(\theta)\to0` at a critical point); the slowest active
    coordinate sets it.  Infinite where no coordinate is active (nothing is left to decay)."""
    if ncf.p != 2 or not np.allclose(ncf.G[0].T @ ncf.G[0], np.eye(ncf.k_in)):
        raise ValueError("approach_rate is derived for p = 2 and orthonormal inputs (spectral_neuron)")
    c = theta[:, : ncf.k_in] @ ncf.G[0]
    active = np.maximum(c, ncf.alpha * c) != 0
    slowest = np.where(active, np.abs(ncf.Q[0, 0])[None, :], np.inf).min(axis=1)
    finite = np.isfinite(slowest)
    return np.where(finite, 2 * np.abs(theta[:, -1]) * np.where(finite, slowest, 0.0), np.inf)


def settling_time(residual: np.ndarray, rate: np.ndarray) -> float:
    r"""Polar time after which every residual :math:`|\nabla\mathcal N(\theta)|` decaying like
    :math:`e^{-\text{rate}\,\tau}` is below ``SETTLED``: :math:`\max_j\ln(r_j/\text{SETTLED})/\rho_j`,
    at least ``TAU_SETTLE_MIN``, at most ``TAU_SETTLE_MAX`` (a limit slower than that is left
    unsettled, and the check on it then fails rather than passes)."""
    need = np.where(
        residual > SETTLED, np.log(np.maximum(residual, SETTLED) / SETTLED) / np.maximum(rate, 1e-300), 0.0
    )
    return float(np.clip(need.max(initial=0.0), TAU_SETTLE_MIN, TAU_SETTLE_MAX))


_ORIGIN, _FINITE, _DIVERGE = "origin", "finite nonzero limit", "divergence"


def _classify(vg, u0: np.ndarray, degree: int) -> tuple[list[str], object]:
    """Limit behaviour of the NCF flow from every row of ``u0`` (polar form, time tau)."""
    fl = polar_to_end(vg, u0, degree)
    out = []
    for i in range(len(u0)):
        log_r = fl.log_r[i]
        if fl.f_end[i] > 1e-6 and log_r[-1] > 10:
            out.append(_DIVERGE)
        elif log_r[-1] < -10:
            out.append(_ORIGIN)
        else:
            out.append(_FINITE)
    return out, fl


def homogeneity_defect(vg, u: np.ndarray, L: int) -> float:
    r""":math:`\max|\mathcal N(2u)-2^L\mathcal N(u)|/(2^L\max|\mathcal N(u)|)` over the rows ``u``: 0 up to
    the rounding of the sums iff :math:`\mathcal N` is :math:`L`-homogeneous there."""
    n1, n2 = vg(u)[0], vg(2 * u)[0]
    return float(np.abs(n2 - 2.0**L * n1).max() / (2.0**L * np.abs(n1).max()))


def _starts(ctx: Context) -> int:
    """Random unit starts per neuron of the Lemma 1 claims."""
    return ctx.param("starts", tiny=12, quick=48, full=256)


def _dichotomy_cases(ctx: Context):
    """Spectral neurons (x^2 with M positive definite and indefinite, squared ReLU) and random unit
    starts with both signs of b; the tiny profile runs the first case only."""
    starts = _starts(ctx)
    count = ctx.param("cases", tiny=1, quick=3, full=3)
    rng = ctx.rng("dichotomy").host
    cases = [(1.0, 2, (1, 1, 1)), (0.0, 2, (1, -1, 1)), (1.0, 2, (1, -1, 1))]
    for alpha, p, signs in cases[:count]:
        ncf = spectral_neuron(rng, alpha, p, signs)
        yield (alpha, p, signs), ncf, p + 1, normalize(rng.normal(size=(starts, ncf.k_in + 1)))


@claim(
    "kumar2025:lemma-1",
    title="NCF flow dichotomy: converge to the origin, or diverge in direction of a non-negative KKT point",
    source="Lemma 1 (imported from Kumar & Haupt 2025a), eq. 6",
    statement=r"$\mathcal H$ $L$-homogeneous, $L\ge2$: either $\phi(t,u_0)\to0$, or "
    r"$\|\phi\|\to\infty$ and $\phi/\|\phi\|\to$ a non-negative KKT point of $\widetilde{\mathcal N}$",
    hypotheses=[NCF_HOMOGENEOUS, r"any $z$, any $u_0$"],
    erratum=Erratum(
        r"a third outcome occurs on a set of positive measure: the flow converges to a nonzero critical "
        r"point of $\mathcal N$ (the cone $\{\nabla\mathcal N=0\}$ is nontrivial for degree $\ge3$). For "
        r"the squared neuron $b\,a^\top Ma$, $\|a\|^2-2b^2$ is conserved, so with $M\succeq0$ every start "
        r"with $b_0<0$, $\|a_0\|^2<2b_0^2$ ends at $(0,b_\infty)$, $b_\infty^2=b_0^2-\|a_0\|^2/2\ne0$, "
        r"never at the origin (measured: $x^2$ with $M\succ0$ and squared ReLU; the indefinite $x^2$ case "
        "diverges from every start) (kumar2025:lemma-1-corrected)",
        via="random starts of the per-neuron NCF flow, classified in polar time",
        shown_by=("every start converges to the origin or diverges*",),
    ),
)
def lemma_1(ctx: Context) -> None:
    for (alpha, p, signs), ncf, L, u0 in _dichotomy_cases(ctx):
        vg = rows(ncf)
        ctx.regime(NCF_HOMOGENEOUS, defect=homogeneity_defect(vg, u0, L), L=L)
        kinds, _ = _classify(vg, u0, L)
        tag = f"alpha={alpha}, p={p}, L={L}, label signs {signs}"
        ctx.holds(
            f"every start converges to the origin or diverges ({tag})",
            kinds.count(_FINITE) == 0,
            measured={k: kinds.count(k) for k in (_ORIGIN, _FINITE, _DIVERGE)},
            expected={_FINITE: 0},
            why="the printed dichotomy; classification at polar time 12: log r > 10 with N(theta) > 1e-6, "
            "log r < -10, else finite (the limits settle like exp(-24))",
        )
        if alpha == 1.0 and min(signs) > 0:  # x^2 with M = G diag(q) G^T positive definite: closed form
            fin = np.array([k == _FINITE for k in kinds])
            b0, c0 = u0[:, -1], (u0[:, :-1] ** 2).sum(axis=1) - p * u0[:, -1] ** 2
            predicted = (b0 < 0) & (c0 < 0)
            ctx.holds(
                f"the finite limits are exactly the starts with b_0 < 0 and |a_0|^2 < 2 b_0^2 ({tag})",
                bool(np.array_equal(fin, predicted)),
                measured={"classified finite": int(fin.sum()), "predicted": int(predicted.sum())},
                expected="the same starts",
                why="c = |a|^2 - 2 b^2 is conserved and db/dt = a^T M a >= 0: with b_0 < 0, c < 0 keeps "
                "b <= -sqrt(-c/2), so N <= 0, |u| is non-increasing and the flow settles at a nonzero "
                "critical point; with c > 0, db/dt >= mu_min c > 0 drives b past 0 and the flow diverges; "
                "b_0 > 0 diverges. A check of the classifier behind the failing dichotomy",
                resolution="a finite limit misclassified (a slow divergence or a slow approach to 0) or "
                "missed",
            )


@claim(
    "kumar2025:lemma-1-corrected",
    title="NCF flow trichotomy: origin, a nonzero critical point (zero KKT direction), or divergence to a "
    "non-negative KKT direction",
    source="Lemma 1 corrected (this toolkit); blow-up times: Lemma 11 eq. 27, catalog Sec. 2.6 E4",
    statement=r"either $\phi\to u_\infty$ with $\nabla\mathcal N(u_\infty)=0$ "
    r"(hence $\mathcal N(u_\infty)=0$; "
    r"the origin or a zero KKT direction), or $\|\phi\|\to\infty$ (in finite time "
    r"$T\ge\frac1{L(L-2)\mathcal N(u_*)}$ if $L>2$, and $T\le\frac1{L(L-2)\mathcal N(u_0)}$ where "
    r"$\mathcal N(u_0)>0$, for $\phi(0)=u_0$ with $\|u_0\|=1$) and "
    r"$\phi/\|\phi\|\to u_*$, a non-negative KKT point",
    hypotheses=[NCF_HOMOGENEOUS_LIPSCHITZ],
)
def lemma_1_corrected(ctx: Context) -> None:
    e4 = ctx.param("e4", tiny=2, quick=8, full=32)  # random neurons of the closed form E4
    cubic = ctx.param("cubic_cases", tiny=1, quick=2, full=2)  # p = 3 neurons (CUBIC_CASES)
    budget = ctx.param("search_budget", tiny=1, quick=30, full=100)  # per family (Lemma1Search)
    starts = _starts(ctx)
    worst_cos, worst_grad, worst_b = 1.0, 0.0, 0.0
    min_norm = np.inf
    settle: list[dict] = []
    direct: list[DirectBlowUp] = []
    polar: list[np.ndarray] = []
    for (alpha, p, signs), ncf, L, u0 in _dichotomy_cases(ctx):
        vg = rows(ncf)
        ctx.regime(NCF_HOMOGENEOUS_LIPSCHITZ, defect=homogeneity_defect(vg, u0, L), L=L, alpha=alpha, p=p)
        tag = f"alpha={alpha}, p={p}, label signs {signs}"
        kinds, fl = _classify(vg, u0, L)
        _branch_note(ctx, tag, len(u0), {k: kinds.count(k) for k in (_ORIGIN, _FINITE, _DIVERGE)})
        div = np.array([k == _DIVERGE for k in kinds])
        fin = np.array([k == _FINITE for k in kinds])
        theta = fl.theta[:, -1]
        grad = vg(theta)[1]
        if div.any():
            worst_cos = min(worst_cos, float(np.min(kkt_cosine(theta[div], grad[div]))))
            direct.append(direct_blow_up(vg, u0[div], L))
            polar.append(blow_up_time(fl, L)[div])
        if fin.any():  # follow the limits until the slowest has settled (module-level SETTLED)
            u_end = theta[fin] * np.exp(fl.log_r[fin, -1])[:, None]
            residual = np.linalg.norm(grad[fin], axis=1)
            rate = approach_rate(ncf, theta[fin])
            extra = settling_time(residual, rate)
            more = polar_flow(vg, u_end, L, np.array([0.0, extra]), rtol=1e-10)
            u_end = more.theta[:, -1] * np.exp(more.log_r[:, -1])[:, None]
            scale = np.linalg.norm(u_end, axis=1) ** (L - 1)
            ratio = np.linalg.norm(vg(u_end)[1], axis=1) / scale
            slow = int(np.argmin(np.where(residual > 0, rate, np.inf)))
            settle.append(
                {
                    "case": tag,
                    "finite limits": int(fin.sum()),
                    "slowest rate": float(rate[slow]),
                    "its b/|u|": float(theta[fin][slow, -1]),
                    "its residual at tau = 12": float(residual[slow]),
                    "extra polar time": extra,
                    "worst ratio": float(ratio.max()),
                }
            )
            worst_grad = max(worst_grad, float(ratio.max()))
            balance = (u_end[:, :-1] ** 2).sum(axis=1) - p * u_end[:, -1] ** 2
            balance0 = (u0[fin, :-1] ** 2).sum(axis=1) - p * u0[fin, -1] ** 2
            worst_b = max(worst_b, float(np.max(np.abs(balance - balance0))))
            min_norm = min(min_norm, float(np.linalg.norm(u_end, axis=1).min()))
    ctx.bound(
        "min KKT cosine of the limit direction over diverging starts",
        worst_cos,
        1 - TOL_COS[2],
        side=">=",
        why="near the KKT point (a, b) = (sqrt(2/3) v_1, 1/sqrt(3)) an angle along v_k decays in polar "
        "time at rate 2 b (mu_1 - mu_k) >= 1.15 * 0.6 (eigenvalue magnitudes 3, 2, 1 +- 20%), so at "
        "tau = 12 the angle is < 3e-4 and 1 - cos < 5e-8",
    )
    ctx.bound(
        "max |grad N(u_inf)| / |u_inf|^(L-1) over non-diverging starts",
        worst_grad,
        1e-8,
        why="the approach to the critical cone is exponential in polar time at each limit's own rate "
        "(approach_rate: 2 min|q_i| |b| / |u| over the active coordinates, as low as 0.15 at b/|u| = 0.03 "
        "for squared-ReLU limits with a large frozen a); every limit is followed until its predicted "
        f"residual is below {SETTLED:g} (settling_time; slowest rate and horizon per case in details), so "
        "what remains is the solver's rtol 1e-10 state error times the Lipschitz constant of grad N "
        "(< 10), below 1e-8",
        details={"settling": settle},
    )
    ctx.note(
        f"p = 2 non-diverging starts: smallest |u_inf| {min_norm:.3g}, so these limits are nonzero critical "
        "points (the outcome the printed Lemma 1 misses); |a|^2 - p b^2, conserved along the flow (Lemma 9 "
        f"dynamic form), drifted by at most {worst_b:.2g} over their solves (the solver's accuracy; an "
        "identity of the flow, so no check of the statement)"
    )
    _bracket_checks(ctx, "", DirectBlowUp.join(direct), np.concatenate(polar))
    cubic_rng = ctx.rng("dichotomy-cubic").host
    for alpha, signs in CUBIC_CASES[:cubic]:
        _cubic_limits(
            ctx, spectral_neuron(cubic_rng, alpha, 3, signs), normalize(cubic_rng.normal(size=(starts, 4)))
        )
    _closed_form_blow_up(ctx, e4)
    _instance_search(ctx, budget)
    with ctx.control(
        "N(u) = u_1^2 u_2 + u_1^4 (degrees 3 and 4 mixed)",
        breaks=NCF_HOMOGENEOUS_LIPSCHITZ,
        must_break=["min KKT cosine of the limit direction over diverging starts"],
    ):
        _nonhomogeneous_control(ctx)


CUBIC_CASES = [(0.0, (1, -1, 1)), (1.0, (1, -1, 1))]  # (alpha, label signs) of the p = 3 neurons
TAU_SORT = 192.0  # polar time by which the slow cubic divergers have left (log r > 10; measured by 180)
TAU_CUBIC = TAU_SORT * 2.0 ** np.arange(8)  # polar times of the order fit, a factor 2 apart
ANGLE_SETTLED = 1e-6  # predicted angle of a cubic diverger to its KKT direction at which it counts settled


def _cubic_limits(ctx: Context, ncf: NeuronNCF, u0: np.ndarray) -> None:
    r"""Lemma 1 corrected at ``p = 3`` (``L = 4``): the finite branch (:func:`_cubic_finite`) and the
    divergence branch (:func:`_cubic_divergers`) from the same random unit starts.

    The starts are classified at ``TAU_END`` (:func:`_classify`); those still finite there are followed
    to ``TAU_SORT``, and those diverging by then (slow cubic divergers, :math:`\mathcal N(\theta)>10^{-6}`,
    :math:`\ln r>10`) join the early divergers; the rest are the finite limits."""
    L, alpha = 4, ncf.alpha
    vg = rows(ncf)
    ctx.regime(NCF_HOMOGENEOUS_LIPSCHITZ, defect=homogeneity_defect(vg, u0, L), L=L, alpha=alpha, p=3)
    tag = f"alpha={alpha}, p=3"
    kinds, fl = _classify(vg, u0, L)
    div = np.array([k == _DIVERGE for k in kinds])
    fin = np.array([k == _FINITE for k in kinds])
    u = fl.theta[fin, -1] * np.exp(fl.log_r[fin, -1])[:, None]
    sort = polar_flow(vg, u, L, np.array([0.0, TAU_SORT - TAU_END]), rtol=1e-10)
    late = (sort.f_end > 1e-6) & (sort.log_r[:, -1] > 10)
    u = sort.theta[~late, -1] * np.exp(sort.log_r[~late, -1])[:, None]
    counts = {_ORIGIN: kinds.count(_ORIGIN), _FINITE: len(u), _DIVERGE: int(div.sum() + late.sum())}
    how = (
        f" (divergence: {int(div.sum())} by tau = {TAU_END:g}, {int(late.sum())} more by tau = {TAU_SORT:g})"
    )
    _branch_note(ctx, tag, len(u0), counts, how)
    _cubic_divergers(ctx, vg, tag, u0, fl, div, fin, sort, late)
    _cubic_finite(ctx, vg, tag, u)


def _branch_note(ctx: Context, tag: str, starts: int, counts: dict, how: str = "") -> None:
    """Note how many random unit starts of a case reached each branch of the trichotomy (``how``: how
    they were sorted, where it differs from :func:`_classify` at ``TAU_END``)."""
    missing = [k for k, n in counts.items() if not n]
    why = {
        _ORIGIN: "origin (|a|^2 - p b^2 is conserved along the per-neuron flow and vanishes at the origin, "
        "so only starts on that cone, a null set, reach it)",
        _FINITE: "finite nonzero limit",
        _DIVERGE: "divergence",
    }
    ctx.note(
        f"trichotomy branches reached ({tag}), of {starts} random unit starts: "
        + ", ".join(f"{k} {int(n)}" for k, n in counts.items())
        + (
            f"{how}; not reached: {'; '.join(why[k] for k in missing)}"
            if missing
            else f"{how}; all three reached"
        )
    )


def _cubic_divergers(ctx: Context, vg, tag: str, u0, fl, div, fin, sort, late) -> None:
    r"""Lemma 1 corrected, divergence branch, at ``p = 3`` (``L = 4``): the limit direction is a KKT
    point and the blow-up time lies in :math:`[\frac1{L(L-2)\mathcal N(u_*)},\frac1{L(L-2)\mathcal N(u_0)}]`
    (Lemma 11 eq. 27, one block).

    Horizon, derived (orthonormal inputs, :func:`spectral_neuron`): a diverging direction tends to a
    KKT point :math:`u_*` with one active coordinate :math:`c_j=\langle a,g_j\rangle`,
    :math:`c_j^2=3b^2` and :math:`\lambda=\nabla\mathcal N(u_*)^\top u_*=L\mathcal N(u_*)`. On the sphere
    (polar time) the linearized flow there is diagonal: each other coordinate moves by
    :math:`c_k'=3bq_kc_k^2-\lambda c_k` (ReLU-inactive ones by :math:`-\lambda c_k`), rate
    :math:`\lambda`; the angle in the :math:`(c_j,b)` plane, on which :math:`\mathcal N=q_j\sin\varphi
    \cos^3\varphi`, at rate :math:`|d^2\mathcal N/d\varphi^2|=\tfrac32\sqrt3|q_j|=2\lambda`. So the sine
    :math:`s` of the angle between :math:`\theta` and :math:`\nabla\mathcal N(\theta)` (the tangential
    gradient over :math:`\lambda`) lies between :math:`|\delta|` and :math:`2|\delta|`, :math:`\delta` the
    offset from :math:`u_*`, and decays at least like :math:`e^{-\lambda\tau}`; :math:`\mathcal N(\theta)`
    rises along the flow, so :math:`L\mathcal N(\theta)` at the start of the follow-up is a lower bound
    of :math:`\lambda`. Every diverger at ``TAU_SORT`` is followed a further
    :math:`\max_j\ln(2s_j/10^{-6})/(L\mathcal N(\theta_j))` (at least ``TAU_END``, at most
    ``TAU_SETTLE_MAX``), after which :math:`s\le10^{-6}` is predicted, :math:`1-\cos=s^2/2\le5\cdot10^{-13}`.
    The prediction needs :math:`\theta` in the linear neighbourhood of its limit (from :math:`s\ge0.036`
    at :math:`\tau\le3` it missed by up to 18x: a diverger passing a saddle KKT point); the divergers
    at ``TAU_SORT`` have long been there (the horizon is the minimum ``TAU_END`` at quick, seeds 0-2),
    and one still in transit would fail the check, not pass it.

    Blow-up time: measured directly in t from the start (:func:`direct_blow_up`) for the bracket; the
    polar-form time (:math:`t'=r^{-(L-2)}` integrated along, rtol 1e-10, and the tail past the last output
    in closed form, :func:`blow_up_time`, :math:`r^{-2}\le e^{-20}` of it) is compared with it."""
    L = 4
    # (start indices, theta, ln r, t) of the divergers at TAU_SORT. A flow continued from the unit rows
    # theta is the same in theta and ln r - ln r_0, and its t' = r^-(L-2) is e^(-(L-2) ln r_0) times the
    # continued one (ln r reaches ~900 at TAU_SORT: e^(ln r) itself would overflow)
    parts = []
    if div.any():
        early = polar_flow(vg, fl.theta[div, -1], L, np.array([0.0, TAU_SORT - TAU_END]), rtol=1e-10)
        log_r = fl.log_r[div, -1]
        t = fl.t[div, -1] + np.exp(-(L - 2) * log_r) * early.t[:, -1]
        parts.append((np.flatnonzero(div), early.theta[:, -1], log_r + early.log_r[:, -1], t))
    if late.any():
        t = fl.t[fin, -1][late] + sort.t[late, -1]
        parts.append((np.flatnonzero(fin)[late], sort.theta[late, -1], sort.log_r[late, -1], t))
    if not parts:
        ctx.undecided(
            f"min KKT cosine of the limit direction over diverging starts ({tag})",
            f"no start of this neuron diverged by tau = {TAU_SORT:g}",
        )
        return
    index, theta, log_r, t = (np.concatenate(x) for x in zip(*parts, strict=True))
    value, grad = vg(theta)
    sine = np.sqrt(np.maximum(0.0, 1 - kkt_cosine(theta, grad) ** 2))
    rate = L * value
    extra = float(
        np.clip(
            np.max(np.log(np.maximum(2 * sine, ANGLE_SETTLED) / ANGLE_SETTLED) / rate),
            TAU_END,
            TAU_SETTLE_MAX,
        )
    )
    more = polar_flow(vg, theta, L, np.array([0.0, extra]), rtol=1e-10)
    theta, T = more.theta[:, -1], t + np.exp(-(L - 2) * log_r) * blow_up_time(more, L)
    cos = kkt_cosine(theta, vg(theta)[1])
    ctx.bound(
        f"min KKT cosine of the limit direction over diverging starts ({tag})",
        float(cos.min()),
        1 - TOL_COS[3],
        side=">=",
        why=f"every diverger followed until its predicted angle to the KKT direction is <= {ANGLE_SETTLED:g} "
        f"(_cubic_divergers: rate >= L N(theta) from the linearization at the one-coordinate KKT points; "
        f"extra polar time {extra:.3g} past tau = {TAU_SORT:g}), so 1 - cos <= 5e-13; kkt_cosine rounds "
        "to ~1e-15",
        details={"divergers": len(index), "worst start": int(index[int(np.argmin(cos))])},
    )
    _bracket_checks(ctx, f" ({tag})", direct_blow_up(vg, u0[index], L), T)


def _cubic_finite(ctx: Context, vg, tag: str, u: np.ndarray) -> None:
    r"""Lemma 1 corrected, finite branch, at ``p = 3`` (``L = 4``), where :func:`approach_rate` does not
    apply: the approach to a finite limit is algebraic, not exponential.

    Derivation (orthonormal inputs, :func:`spectral_neuron`): near a limit with :math:`b\to b_\infty\ne0`
    and the active coordinates :math:`c_i=\langle a,g_i\rangle\to0`,
    :math:`\dot c_i=b\,q_i\sigma'(c_i)=3b\,q_ic_i^2` (inactive ReLU coordinates are frozen and add
    nothing), so :math:`c_i\simeq-1/(3q_ib\,t)` and
    :math:`\|\nabla\mathcal N\|\simeq|b|(\sum_i(3q_ic_i^2)^2)^{1/2}\propto t^{-2}` (the :math:`b` part,
    :math:`\sum_iq_i\sigma(c_i)\propto t^{-3}`, is smaller); generally :math:`t^{-(p-1)/(p-2)}`.
    Since :math:`d\tau=\|u\|^{L-2}dt` and :math:`\|u\|\to\|u_\infty\|`, the order in the polar time
    is the same.  A limit with :math:`\nabla\mathcal N(u_\infty)\ne0` would give order 0.

    The finite limits ``u`` (at ``TAU_SORT``) are followed over ``TAU_CUBIC`` and the largest
    :math:`\|\nabla\mathcal N(\theta)\|=\|\nabla\mathcal N(u)\|/\|u\|^{L-1}` over them is fitted against
    :math:`\tau`."""
    L = 4
    if not len(u):
        ctx.undecided(f"finite limits at p = 3 ({tag})", "no start of this neuron reached a finite limit")
        return
    span = np.concatenate([[0.0], TAU_CUBIC[1:] - TAU_SORT])
    sols = {rtol: polar_flow(vg, u, L, span, rtol=rtol, atol=1e-3 * rtol) for rtol in (1e-8, 1e-10)}
    residual = {
        rtol: np.array([np.linalg.norm(vg(sol.theta[:, k])[1], axis=1) for k in range(len(span))])
        for rtol, sol in sols.items()
    }
    bounded = sols[1e-10].f_end <= 1e-6  # a start still heading out would not settle: excluded, counted
    top = residual[1e-10][:, bounded].max(axis=1)
    floor = 8 * np.abs(residual[1e-8] - residual[1e-10])[:, bounded].max(axis=1)
    _, tol, parts = order_tolerance(TAU_CUBIC, top, floor)
    ctx.order(
        f"max |grad N(theta)| over the finite limits against polar time ({tag}): order -(p-1)/(p-2) = -2",
        TAU_CUBIC,
        top,
        expected=-2.0,
        tol=tol,
        why=f"grad N(u_inf) = 0 read through its derived algebraic approach (_cubic_limits; a nonzero limit "
        f"gradient gives order 0) over {int(bounded.sum())} limits ({int((~bounded).sum())} still rising "
        f"at tau = {TAU_CUBIC[-1]:g}, excluded). Tolerance (fitted_orders.order_tolerance): the fit's 95% "
        f"half-width ({parts['interval']:.2g}) + the next-order bound from the local slopes "
        f"({parts['next order']:.2g}) + the shift by 8 x the rtol 1e-8 solve's deviation from rtol 1e-10 "
        f"({parts['floor']:.2g})",
        xlabel="polar time tau",
        ylabel="max |grad N(theta)|",
    )


def _closed_form_blow_up(ctx: Context, count: int) -> None:
    r"""Catalog E4: :math:`\sigma=x^2`, :math:`a_0=\sqrt{2/3}v`, :math:`b_0=1/\sqrt3`, :math:`Mv=\mu v`,
    :math:`\mu>0`: :math:`b(t)=b_0/(1-2\mu b_0t)`, so :math:`T=\sqrt3/(2\mu)` (random neurons, batched).

    The start is the KKT direction itself (:math:`u_0=u_*`), so the bracket of eq. 27 has zero width
    there: the directly measured T (:func:`direct_blow_up`) must meet both ends to its derived error, and a
    wrong constant in either end by more than that error fails."""
    rng = ctx.rng("e4").host
    specs = [neuron(rng, 1.0, 2) for _ in range(count)]
    args = {"G": np.concatenate([s.G for s in specs]), "Q": np.concatenate([s.Q for s in specs])}
    mu, u0 = [], []
    for spec in specs:
        lam, V = np.linalg.eigh(spec.G[0] @ np.diag(spec.Q[0, 0]) @ spec.G[0].T)
        mu.append(lam[-1])
        u0.append(np.concatenate([np.sqrt(2 / 3) * V[:, -1], [1 / np.sqrt(3)]]))
    T = blow_up_time(polar_to_end(block_vg(1.0, 2), np.array(u0), 3, args), 3)
    ctx.bound(
        "max relative error of the blow-up time against sqrt(3)/(2 mu) (balanced eigen start)",
        float(np.max(np.abs(T * 2 * np.array(mu) / np.sqrt(3) - 1))),
        1e-9,
        why="the direction is fixed (eigen start), so the polar integral is smooth; rtol 1e-10 and "
        "a closed-form tail",
    )
    direct = [direct_blow_up(rows(spec), u[None], 3) for spec, u in zip(specs, u0, strict=True)]
    _bracket_checks(
        ctx, " (balanced eigen starts: u_0 = u*, a bracket of zero width)", DirectBlowUp.join(direct)
    )


def _nonhomogeneous_control(ctx: Context) -> None:
    r""":math:`\mathcal N(u)=u_1^2u_2+u_1^4` (degrees 3 and 4): the flow from (1, 0.1) blows up with
    direction :math:`e_1`, where :math:`\nabla\mathcal N=(4,1)`: KKT cosine :math:`4/\sqrt{17}`.
    Integrated in the time :math:`d\tau=\|u\|^3dt` (same path, no finite-time singularity)."""

    def vg(u, args=None):
        u1, u2 = u[:, 0], u[:, 1]
        return u1**2 * u2 + u1**4, np.stack([2 * u1 * u2 + 4 * u1**3, u1**2], axis=1)

    def slowed(u, args=None):
        value, grad = vg(u)
        return value, grad / np.linalg.norm(u, axis=1, keepdims=True) ** 3

    traj = gradient_flow(slowed, np.array([[1.0, 0.1]]), np.array([0.0, 6.0]), rtol=1e-9)
    last = normalize(np.asarray(traj.final))
    ctx.bound(
        "min KKT cosine of the limit direction over diverging starts",
        float(kkt_cosine(last, vg(last)[1])[0]),
        1 - 1e-7,
        side=">=",
        why="as for homogeneous NCFs",
    )


# Instance search of Lemma 1 corrected (Lemma1Search): horizons and the linear neighbourhood.
S_LINEAR = 1e-3  # offset from a one-coordinate KKT direction within which its linearization is used
TAU_SEARCH = 384.0  # most polar time a searched instance is followed, to its regime and past it (cost)


def _search_neuron(G: np.ndarray, theta: np.ndarray) -> tuple[NeuronNCF, np.ndarray]:
    r"""The instance ``theta`` of the Lemma 1 corrected search: a per-neuron NCF on the orthonormal
    inputs ``G`` and its start.

    ``theta`` = (a, b) (the start, normalised), label weights :math:`q_i=s_i(2+1.5\tanh z_i)`
    (magnitudes in (0.5, 3.5), so the spectrum stays away from 0 and the polar integral at its stated
    accuracy; two magnitudes may coincide), :math:`\alpha=\mathrm{expit}(z_\alpha)\in(0,1)` (``squash``),
    ``p = 2`` if ``theta[8] < 2.5`` else 3, and :math:`s_2=-1` if ``theta[9] > 0.5`` (indefinite M)
    else 1.  Every instance is inside the lemma's hypotheses: :math:`\mathcal N` is
    :math:`(p+1)`-homogeneous with a locally Lipschitz gradient (p >= 2), for every start."""
    p = 2 if theta[8] < 2.5 else 3
    signs = np.array([1.0, -1.0 if theta[9] > 0.5 else 1.0, 1.0])
    q = signs * (2 + 1.5 * np.tanh(theta[4:7]))
    return NeuronNCF(G[None], q[None, None], squash(theta[7]), p), normalize(theta[None, :4])


def _settling_rate(ncf: NeuronNCF, theta: np.ndarray) -> tuple[float, float]:
    r"""``(rate, offset)``: the slowest decay rate, in polar time, of the linearized spherical flow at the
    one-coordinate KKT direction nearest the unit row ``theta`` (orthonormal inputs), and the offset
    :math:`(\sum_{k\ne j}c_k^2)^{1/2}` of ``theta`` from its plane.

    With :math:`c=G^\top a` and :math:`\sigma(c)=w(c)c^p`, :math:`w=1` for :math:`c\ge0`,
    :math:`\alpha^p` below, :math:`\mathcal N=b\sum_iq_iw_ic_i^p`.  The nearest KKT direction has
    :math:`j=\arg\max_i|c_i|` active, :math:`c_j^2=p/L`, :math:`b_*=\pm L^{-1/2}` (the sign of b) and
    :math:`\lambda=L\mathcal N_*=L|q_jw_j|(p/L)^{p/2}L^{-1/2}`.  There the flow on the sphere moves each
    other coordinate by :math:`c_k'=b_*q_k\sigma'(c_k)-\lambda c_k`: for p = 2 linear, rate
    :math:`\lambda-2b_*q_kw_k` (<= 0: the direction is a saddle); for p = 3
    :math:`3b_*q_kw_kc_k^2-\lambda c_k`, rate at least :math:`\lambda-3|b_*q_kw_k|\,\text{offset}`
    (the offset only shrinks in the linear regime); the angle in the :math:`(c_j,b)` plane, where
    :math:`\mathcal N=q_jw_j\sin\varphi\cos^p\varphi`, at rate :math:`|d^2\mathcal N/d\varphi^2|=2\lambda`
    (p = 2 and 3).  A coordinate at exactly :math:`c_k=0` stays there (:math:`\sigma'(0)=0` for
    :math:`p\ge2`, so the kink convention does not enter): its mode carries nothing, and the rate read for
    it (with :math:`w=1`) can only lower the minimum.  The linearization is the Riemannian Hessian,
    symmetric, so the sine of the angle between :math:`\theta` and :math:`\nabla\mathcal N(\theta)` (the
    tangential gradient over :math:`\lambda`) decays at least at the slowest rate."""
    p, L = ncf.p, ncf.p + 1
    c = theta[: ncf.k_in] @ ncf.G[0]
    qw = ncf.Q[0, 0] * np.where(c >= 0, 1.0, ncf.alpha**p)
    j = int(np.argmax(np.abs(c)))
    others = np.delete(qw, j)
    offset = float(np.linalg.norm(np.delete(c, j)))
    b_star = np.sign(theta[-1]) / np.sqrt(L)
    lam = L * abs(qw[j]) * (p / L) ** (p / 2) / np.sqrt(L)
    if p == 2:
        rates = lam - 2 * b_star * others
    else:
        rates = lam - 3 * np.abs(b_star * others) * offset
    return float(min(2 * lam, rates.min())), offset


@dataclass
class Lemma1Search:
    r"""Lemma 1 corrected, divergence branch, on one instance (:func:`_search_neuron`) as a search
    objective: the larger of (relative violation of
    :math:`T\in[\frac1{L(L-2)\mathcal N(u_*)},\frac1{L(L-2)\mathcal N(u_0)}]`) / ``TOL_T`` (the upper end
    read where :math:`\mathcal N(u_0)>0`, as in the checks) and (1 - KKT cosine of the limit direction) /
    ``TOL_COS[p]``, each over the conclusions whose regime the horizon reaches; ratio <= 1 is exactly the
    claim's checks holding on the instance.  The others are counted in ``undecided`` (with their reason),
    never read as violations or as support, and an instance with none decided returns 0.

    The instance is followed in polar time (rtol 1e-10) over stages of ``TAU_END``, doubling, up to
    ``TAU_SORT``, until it diverges (:math:`\mathcal N(\theta)>10^{-6}`, :math:`\ln r>10`) with
    :math:`\theta` in the linear neighbourhood of a stable one-coordinate KKT direction (sine to
    :math:`\nabla\mathcal N` and offset both <= ``S_LINEAR``, :func:`_settling_rate` > 0); one that has not
    diverged by then is on another branch (or slower) and decides nothing.  From that point it is followed
    a further :math:`\ln(2s/s_*)/\rho` (at least ``TAU_END``), :math:`s_*=\sqrt{\mathrm{TOL\_COS}[p]}`,
    :math:`\rho` the slowest linear rate, after which :math:`1-\cos=s^2/2\le` ``TOL_COS[p]`` / 2 is
    predicted (the factor 2 covers the nonlinear terms at offsets <= 1e-3); the cosine is decided where
    that horizon is at most ``TAU_SEARCH`` (a near-degenerate spectrum is slow: :math:`\rho\propto
    q_1-q_2`).  Diverged but not in such a neighbourhood (passing a saddle) leaves the cosine undecided.

    The bracket: :math:`t'=r^{-(L-2)}` integrated along, plus the closed-form tail
    :math:`r^{-(L-2)}/(L(L-2)\mathcal N(\theta))` (:func:`blow_up_time`; it assumes :math:`\theta` fixed,
    the true tail lies between it and :math:`\mathcal N(\theta)/\mathcal N(u_*)` times it), decided where
    the tail is <= ``TOL_T`` / 10 of T.  The lower end is read with :math:`\mathcal N(\theta)` at the
    end, <= :math:`\mathcal N(u_*)` (:math:`\mathcal N(\theta)` is non-decreasing): a stronger lower end."""

    G: np.ndarray
    instances: int = 0
    undecided: dict[str, int] = field(default_factory=dict)
    worst: dict[str, dict] = field(default_factory=dict)
    reading: dict[str, float] = field(default_factory=lambda: {"defect": -np.inf})

    def _count(self, reason: str) -> None:
        self.undecided[reason] = self.undecided.get(reason, 0) + 1

    def __call__(self, theta: np.ndarray) -> float:
        ncf, u0 = _search_neuron(self.G, np.asarray(theta, float))
        p, L = ncf.p, ncf.p + 1
        vg = rows(ncf)
        self.instances += 1
        defect = homogeneity_defect(vg, u0, L)
        if defect > self.reading["defect"]:  # the regime reading of the worst instance
            self.reading = {"defect": defect, "L": L, "alpha": ncf.alpha, "p": p}
        n0 = float(vg(u0)[0][0])
        th, log_r, t, tau = u0[0], 0.0, 0.0, 0.0
        rate = np.nan
        while tau < TAU_SORT:  # polar times TAU_END, 2 TAU_END, ..., TAU_SORT
            fl = polar_flow(vg, th[None], L, np.array([0.0, max(tau, TAU_END)]), rtol=1e-10)
            th, t = fl.theta[0, -1], t + np.exp(-(L - 2) * log_r) * fl.t[0, -1]
            log_r, tau = log_r + fl.log_r[0, -1], tau + max(tau, TAU_END)
            value, grad = vg(th[None])
            if value[0] > 1e-6 and log_r > 10:
                sine = float(np.sqrt(max(0.0, 1 - kkt_cosine(th, grad[0]) ** 2)))
                rho, offset = _settling_rate(ncf, th)
                if max(sine, offset) <= S_LINEAR and rho > 0:
                    rate = rho
                    break
        if not (value[0] > 1e-6 and log_r > 10):
            self._count(f"not diverged by tau = {TAU_SORT:g} (another branch, or slower)")
            return 0.0
        extra = TAU_END
        if np.isnan(rate):
            self._count(f"cosine: diverged, not near a stable KKT direction by tau = {TAU_SORT:g}")
        else:
            target = np.sqrt(TOL_COS[p])
            extra = max(TAU_END, float(np.log(max(2 * sine, target) / target) / rate))
            if extra > TAU_SEARCH:
                self._count(f"cosine: settling horizon over {TAU_SEARCH:g}")
                extra, rate = TAU_END, np.nan
        fl = polar_flow(vg, th[None], L, np.array([0.0, extra]), rtol=1e-10)
        th, scale = fl.theta[0, -1], np.exp(-(L - 2) * log_r)  # t' of the continued flow is scale x its own
        value, grad = vg(th[None])
        tail = scale * np.exp(-(L - 2) * fl.log_r[0, -1]) / (L * (L - 2) * value[0])
        T = t + scale * fl.t[0, -1] + tail
        ratios = {}
        if tail <= TOL_T / 10 * T:
            lo, hi = 1 / (L * (L - 2) * value[0]), 1 / (L * (L - 2) * n0)
            ratios["bracket"] = max((lo - T) / T, (T - hi) / T if n0 > 0 else -np.inf) / TOL_T
        else:
            self._count("bracket: tail over TOL_T / 10 of T")
        if not np.isnan(rate):
            ratios["cosine"] = float(1 - kkt_cosine(th, grad[0])) / TOL_COS[p]
        for name, r in ratios.items():
            if r > self.worst.get(name, {"ratio": -np.inf})["ratio"]:
                self.worst[name] = {
                    "ratio": r,
                    "p": p,
                    "alpha": ncf.alpha,
                    "N(u_0)": n0,
                    "T": T,
                    "theta": np.array(theta, float),
                }
        return max(ratios.values(), default=0.0)


def _instance_search(ctx: Context, budget: int) -> None:
    r"""Lemma 1 corrected for every start and neuron: Nelder--Mead over :func:`_search_neuron`'s
    instances from the families of :func:`_search_starts`, maximising :class:`Lemma1Search`'s ratio.

    The search reads T from the polar form (two direct solves per instance, ~0.2 s, would add ~40 s at
    quick); the worst bracket instance it finds is re-measured directly in t (:func:`direct_blow_up`)
    and checked against eq. 27 and against its polar T (:func:`_bracket_checks`)."""
    rng = ctx.rng("lemma-1-search").host
    G = np.linalg.qr(rng.normal(size=(3, 3)))[0]
    objective = Lemma1Search(G)
    name = (
        "search: worst of bracket violation / TOL_T and (1 - KKT cosine) / TOL_COS[p] over starts and neurons"
    )
    ctx.search(
        name,
        objective,
        _search_starts(rng, G),
        budget=budget,
        why="the divergence branch for every start and every neuron (p = 2, 3; alpha in (0, 1); label "
        "weights of magnitude 2 +- 1.5, either sign of the middle one): Nelder-Mead over the start and the "
        "neuron (_search_neuron); ratio <= 1 is the claim's own checks holding on the instance (bracket "
        f"within TOL_T = {TOL_T:g} relative, 1 - cos within TOL_COS = {TOL_COS}); each conclusion decided "
        "only where the horizon reaches its regime (Lemma1Search), the rest counted as undecided (note)",
    )
    ctx.regime(NCF_HOMOGENEOUS_LIPSCHITZ, **objective.reading)
    worst = "; ".join(
        f"{k}: ratio {v['ratio']:.3g} (p = {v['p']}, alpha = {v['alpha']:.3g}, N(u_0) = {v['N(u_0)']:.3g}, "
        f"T = {v['T']:.4g})"
        for k, v in objective.worst.items()
    )
    ctx.note(
        f"Lemma 1 corrected search: {objective.instances} instances; worst decided per conclusion: "
        f"{worst or 'none'}; undecided: "
        + (", ".join(f"{k} {n}" for k, n in objective.undecided.items()) or "none")
    )
    if "bracket" in objective.worst:  # the worst bracket instance, its T re-measured directly in t
        ncf, u0 = _search_neuron(G, np.asarray(objective.worst["bracket"]["theta"], float))
        polar = np.array([objective.worst["bracket"]["T"]])
        _bracket_checks(
            ctx, " (the search's worst bracket instance)", direct_blow_up(rows(ncf), u0, ncf.p + 1), polar
        )
    never = [k for k in ("bracket", "cosine") if k not in objective.worst]
    if never:
        ctx.undecided(
            f"{name}: {', '.join(never)}",
            "no instance of the search reached the regime of these conclusions",
            measured=objective.undecided,
        )


def _search_starts(rng: np.random.Generator, G: np.ndarray) -> dict[str, list[np.ndarray]]:
    r"""One start per family of the Lemma 1 corrected search (``theta`` of :func:`_search_neuron`; the
    family's p and signs sit 1.5 from the switch points, alpha = expit(+-40) is 1 or 0 to rounding)."""

    def theta(c, b, z, z_alpha, p, minus):
        return np.concatenate([G @ c, [b], z, [z_alpha, 1.0 if p == 2 else 4.0, 2.0 if minus else -1.0]])

    def q_of(z, minus):
        return np.array([1.0, -1.0 if minus else 1.0, 1.0]) * (2 + 1.5 * np.tanh(z))

    z = rng.normal(0.0, 0.5, size=3)
    c = normalize(rng.normal(size=3))
    boundary = theta(np.sqrt(2 * (1 + 1e-3)) * c, -1.0, z, 40.0, 2, False)
    q = q_of(z, True)  # a with a^T M a = -1e-4 |a|^2 in the plane of c_1, c_2 (q_2 < 0)
    cos2 = (-1e-4 - q[1]) / (q[0] - q[1])
    null = theta(np.sqrt(2) * np.array([np.sqrt(cos2), np.sqrt(1 - cos2), 0.0]), -1.0, z, 40.0, 2, True)
    middle = np.argsort(q_of(z, False))[1]
    saddle = theta(np.sqrt(2) * np.eye(3)[middle] + 1e-4 * rng.normal(size=3), 1.0, z, 40.0, 2, False)
    z_deg = np.array([0.0, 0.05, -1.0])
    degenerate = theta(np.abs(rng.normal(size=3)), 1.0, z_deg, 0.0, 2, False)
    q3 = q_of(z, False)
    c3 = np.sqrt(3) * normalize(np.array([1 / q3[0], 1 / q3[1], 0.0]))
    cubic = theta(c3 + 1e-4 * rng.normal(size=3), 1.0, z, -40.0, 3, False)
    return {
        "branch boundary: b_0 < 0, |a_0|^2 = 2 b_0^2 (1 + 1e-3), M > 0 (x^2): passes near the origin": [
            boundary
        ],
        "N(u_0) -> 0+: b_0 < 0, |a_0|^2 = 2 b_0^2, a_0^T M a_0 = -1e-4 |a_0|^2, M indefinite (x^2)": [null],
        "near a saddle KKT direction: the middle eigen-direction of M > 0 (x^2), offset 1e-4": [saddle],
        "near-degenerate spectrum: |q_1| - |q_2| = -0.075, alpha = 1/2, random start with b_0 > 0": [
            degenerate
        ],
        "p = 3 (ReLU cubed) divergence branch: near the two-coordinate saddle c ~ (1/q_1, 1/q_2, 0)": [cubic],
    }


# ------------------------------------------------------------------------------------------- Lemma 6


@claim(
    "kumar2025:lemma-6",
    title="Scaling of homogeneous gradient flow: s_delta(t) = delta s(delta^(L-2) t)",
    source="Lemma 6, eq. 18 (proof App. D.1)",
    statement=r"$\dot s=\nabla g(s)$, $g$ $L$-homogeneous: the solution from $\delta s_0$ is "
    r"$s_\delta(t)=\delta\,s(\delta^{L-2}t)$",
    hypotheses=[G_HOMOGENEOUS, r"$s_0\ne0$"],
)
def lemma_6(ctx: Context) -> None:
    starts = ctx.param("starts", tiny=4, quick=16, full=64)
    budget = ctx.param("search_budget", tiny=3, quick=10, full=100)
    t, d, s0, c, mu, b0 = sp.symbols("t delta s_0 c mu b_0", positive=True)
    for L in (3, 4, 5):
        # s' = L c s^(L-1) has s(t; s_0)^(2-L) = P(t, s_0) := s_0^(2-L) - L(L-2) c t; compare (2-L)-th
        # powers, which is equivalent for positive s
        P = s0 ** (2 - L) - L * (L - 2) * c * t
        ctx.zero(
            f"1-D closed form, g = c s^{L}: "
            f"s(t; delta s_0)^{2 - L} - (delta s(delta^{L - 2} t; s_0))^{2 - L}",
            sp.expand(P.subs(s0, d * s0) - d ** (2 - L) * P.subs(t, d ** (L - 2) * t)),
            why="exact",
        )
    b = b0 / (1 - 2 * mu * b0 * t)
    ctx.zero(
        "balanced eigen solution of b a^T M a: b(t; delta b_0) - delta b(delta t; b_0)",
        sp.cancel(b.subs(b0, d * b0) - d * b.subs(t, d * t)),
        why="exact (catalog E4, L = 3)",
    )
    gap, bound = _scaling_gap(ctx, starts, extra=0.0)
    ctx.bound(
        "max_tau |s_delta(tau/delta^(L-2))/delta - s(tau)| / max|s| over activations, starts, deltas",
        gap,
        bound,
        why="8 x the global error of the looser (rtol 1e-8) solve, estimated against rtol 1e-10: "
        "it bounds the error of the rtol 1e-10 solves compared here (DOPRI5 error ~ rtol), "
        "plus 1e-12 for rounding",
    )
    search_rng = ctx.rng("scaling-search").host
    for alpha, p in [(1.0, 2), (0.0, 1)]:
        ncf = spectral_neuron(search_rng, alpha, p, (1, -1, 1))
        g0 = ncf.G[0][:, 0] / np.linalg.norm(ncf.G[0][:, 0])
        a = search_rng.normal(size=3)
        ctx.search(
            f"search: scaling gap over 8x its solver error, over starts and delta (alpha={alpha}, p={p})",
            partial(_scaling_violation, rows(ncf), p + 1),
            {
                "Gaussian start, delta = 0.03": [np.append(search_rng.normal(size=4), 0.0)],
                "delta -> 1e-3": [np.append(search_rng.normal(size=4), 4.0)],
                "start with a^T g_0 = 0 (on a kink of sample 0 for ReLU)": [
                    np.concatenate([a - (a @ g0) * g0, [1.0, 0.0]])
                ],
            },
            budget=budget,
            why="Lemma 6 for every start s_0 != 0 and delta > 0: Nelder-Mead over the unit start and "
            "log delta in (-3, 0) (see _scaling_violation)",
        )
    with ctx.control(
        "g + |s|^2/200 (degrees L and 2 mixed)",
        breaks=G_HOMOGENEOUS,
        must_break=["max_tau |s_delta(tau/delta^(L-2))/delta - s(tau)| / max|s|*"],
    ):
        gap, _ = _scaling_gap(ctx, starts, extra=0.01)
        ctx.bound(
            "max_tau |s_delta(tau/delta^(L-2))/delta - s(tau)| / max|s| over activations, starts, deltas",
            gap,
            bound,
            why="the main run's bound (8 x its solver error + 1e-12), not one derived from the control's "
            "solves",
        )


def _scaling_gap(ctx: Context, starts: int, extra: float) -> tuple[float, float]:
    r"""Integrate :math:`s` and :math:`s_\delta` (the latter in :math:`\tau=\delta^{L-2}t`, i.e.
    :math:`ds_\delta/d\tau=\nabla g(s_\delta)/\delta^{L-2}`) over :math:`\tau\in[0,0.05]`, well before
    the earliest blow-up (:math:`T\ge1/(L(L-2)\mathcal N^*)\ge0.1` for these spectral neurons)."""
    rng = ctx.rng("scaling").host
    deltas = np.array([0.3, 0.1, 0.03])
    ts = np.linspace(0.0, 0.05, 6)
    worst_gap, worst_err = 0.0, 0.0
    for alpha, p in [(1.0, 1), (1.0, 2), (0.0, 2), (0.5, 3)]:
        base = rows(spectral_neuron(rng, alpha, p, (1, -1, 1)))
        L = p + 1

        def vg(u, args=None, base=base):
            value, grad = base(u)
            return value + 0.5 * extra * (u**2).sum(axis=1), grad + extra * u

        u0 = normalize(rng.normal(size=(starts, 4)))
        row_scale = np.concatenate([np.ones(starts)] + [np.full(starts, dl) for dl in deltas])[:, None, None]
        y0 = np.concatenate([u0] + [dl * u0 for dl in deltas])
        rate = row_scale[:, 0, 0] ** -(L - 2)
        sol = {
            rtol: np.asarray(gradient_flow(vg, y0, ts, rate, rtol).ys) / row_scale for rtol in (1e-8, 1e-10)
        }
        ctx.require(all(np.isfinite(v).all() for v in sol.values()), "a scaled flow left the window")
        ys = sol[1e-10].reshape(len(deltas) + 1, starts, len(ts), -1)
        size = np.abs(ys[0]).max()
        worst_gap = max(worst_gap, float(np.abs(ys[1:] - ys[0]).max() / size))
        worst_err = max(worst_err, float(np.abs(sol[1e-8] - sol[1e-10]).max() / size))
    return worst_gap, 8 * worst_err + 1e-12


def _scaling_violation(vg, L: int, theta: np.ndarray) -> float:
    r"""Lemma 6 on one instance: :math:`\max_\tau|s_\delta(\tau/\delta^{L-2})/\delta-s(\tau)|/\max|s|`
    over 8x its solver error (rtol 1e-8 against 1e-10) plus 1e-12, as in ``_scaling_gap``.

    ``theta`` = (start, normalised to the unit sphere; :math:`\log_{10}\delta=-3\,\mathrm{expit}`),
    on :math:`\tau\in[0,0.05]`, before the earliest blow-up of these spectral neurons."""
    u0 = normalize(theta[None, :4])
    delta = 10 ** (-3 * squash(theta[4]))
    ts = np.linspace(0.0, 0.05, 6)
    scale = np.array([1.0, delta])[:, None, None]
    sol = {
        rtol: np.asarray(
            gradient_flow(
                vg, np.concatenate([u0, delta * u0]), ts, np.array([1.0, delta ** -(L - 2)]), rtol
            ).ys
        )
        / scale
        for rtol in (1e-8, 1e-10)
    }
    size = np.abs(sol[1e-10][0]).max()
    gap = np.abs(sol[1e-10][1] - sol[1e-10][0]).max() / size
    return float(gap / (8 * np.abs(sol[1e-8] - sol[1e-10]).max() / size + 1e-12))


# ------------------------------------------------------------------------------ Lemmas 10 and 11


def _quartic_blocks(
    rng: np.random.Generator, tops: list[float], k: int = 3, *, same_first_two: bool = True, c: float = 0.05
) -> dict[str, np.ndarray]:
    r"""2-homogeneous blocks :math:`\mathcal G_i(w)=\tfrac12w^\top S_iw+c_i\,w_1^4/\|w\|^2` (smooth away
    from 0, not quadratic for ``c`` > 0), :math:`S_i` with top eigenvalue ``tops[i]`` and the rest at most
    ``tops[i] - 0.8``; :math:`c_i=` ``c``.  ``same_first_two``: the first two blocks are identical (the
    lemma allows it)."""
    S = []
    for top in tops:
        V = np.linalg.qr(rng.normal(size=(k, k)))[0]
        lam = np.concatenate([[top], top - 0.8 - rng.uniform(0, 1, size=k - 1)])
        S.append(V @ np.diag(lam) @ V.T)
    if same_first_two:
        S[1] = S[0]
    return {"S": np.array(S), "c": np.full((len(tops), 1), c)}


def _quartic_vg(u, args):
    S, c = args["S"], args["c"]
    Su = (S @ u[:, :, None])[:, :, 0]
    n2 = (u**2).sum(axis=1, keepdims=True)
    e1 = np.zeros_like(u)
    e1[:, 0] = 1.0
    quart = u[:, :1] ** 4 / n2
    value = 0.5 * (u * Su).sum(axis=1) + (c * quart)[:, 0]
    grad = Su + c * (4 * u[:, :1] ** 3 * e1 / n2 - 2 * quart * u / n2)
    return value, grad


# Horizon and regime of the Lemma 10 search (Lemma10Search).  For L = 2 the polar time is t.
T_SEARCH = 240.0
SETTLED_G = 1e-6  # G*_i - G_i(theta_i(t)) from which a block counts as aligned
ANGLE_RATE = 0.6  # angular decay rate of the quartic blocks: eigen gap >= 0.8 against 4 x 0.05
TOL_FRACTION, TOL_RATE, TOL_COSINE = 1e-6, 1e-4, 1e-9  # the main checks' tolerances


@dataclass
class Lemma10Search:
    r"""Lemma 10 on one instance of 4 blocks (0 and 1 the same function, mirrored starts), as a search
    objective: the largest of |joint fraction of blocks 0 and 1 - 1| / TOL_FRACTION, |rate_i +
    2 (G*_max - G*_i)| / TOL_RATE (the slope of every block's log fraction over [T/2, T]: 0 for the
    dominant copies, whose fractions tend to a positive limit, negative for blocks 2 and 3, whose
    fractions vanish) and (1 - min KKT cosine) / TOL_COSINE, each over the conclusions whose regime the
    horizon ``T_SEARCH`` reaches; the others are counted in ``undecided`` (per conclusion) and the
    instance furthest from its regime is kept in ``furthest``.

    The joint fraction, not block 0's own against 1/sqrt 2: the mirror symmetry that makes the two
    equal is exact only in exact arithmetic.  Near a saddle's stable manifold the rounding of the two
    mirrored rows is amplified by :math:`e^{\mu t}` during the passage (:math:`\mu` its unstable rate),
    so the copies escape at slightly different times and their limits :math:`\alpha_0\ne\alpha_1`
    (measured: 2.8e-6 off 1/sqrt 2 at 1e-12 from the manifold); the lemma says nothing about that
    split, only that both stay positive and the rest vanishes.

    ``theta`` = the starts of blocks 0, 2, 3 (normalised; block 1 starts at minus block 0).  Every start
    is inside the hypotheses: apart from a null set (the stable manifolds of the saddles on the sphere)
    each block converges to its top second-order KKT point, blocks 0 and 1 with the largest value
    (tops 1.0 against 0.3 and 0.55).  The statement is about t -> infinity; a start near a saddle's
    stable manifold aligns late (``log(1/distance) / rate``) and meanwhile its block shrinks (G < 0
    there) while the others grow, so at a fixed horizon its fractions may still be far from their limit
    without contradicting the lemma.  The regime is predicted from the lemma's own mechanism, measured
    only up to the alignment time, never from the conclusion at T:

    * alignment time :math:`t_a`: the first grid time from which every block has
      :math:`G_i(\theta_i(T))-G_i(\theta_i(t))\le` ``SETTLED_G`` (:math:`G_i(\theta_i(t))` is
      non-decreasing: the angular part of the flow is the projected gradient flow of :math:`G_i` on
      the sphere, and for L = 2 it does not depend on the radius);
    * after :math:`t_a`, :math:`\tfrac{d}{dt}\log(r_i^2/r_0^2)=4(G_i(\theta_i)-G_0(\theta_0))\le
      -4(G^*_0-G^*_i-\eta)` (the same against block 1), :math:`\eta` = ``SETTLED_G``, so the
      non-dominant share :math:`\rho=\sum_{i\ge2}r_i^2/(r_0^2+r_1^2)` is at most
      :math:`\rho_{pred}(t)=\sum_i\rho_i(t_a)e^{-4(G^*_0-G^*_i-\eta)(t-t_a)}`;
    * fraction: :math:`1-\sqrt{(r_0^2+r_1^2)}/\|r\|=1-(1+\rho)^{-1/2}\le\rho/2`; decided where
      :math:`\rho_{pred}(T)/2\le` TOL_FRACTION / 10;
    * rate: the least-squares slope over :math:`[T/2,T]` is a positive average of the increments
      (largest weight :math:`1.5/(\text{intervals})`), so the term :math:`\tfrac12\log(1+\rho)` moves it
      by at most :math:`1.5\rho_{pred}(T/2)/T` and the drift of :math:`\log\alpha_i` against the
      dominant pair's (derivatives in :math:`[-2\eta,0]`) by :math:`2\eta`; decided where
      :math:`t_a\le T/2` and their sum is <= TOL_RATE / 10;
    * cosine: :math:`1-\cos` decays like :math:`e^{-2\,\mathrm{ANGLE\_RATE}\,t}` once aligned; decided
      where :math:`(1-\cos(t_a))e^{-2\,\mathrm{ANGLE\_RATE}(T-t_a)}\le` TOL_COSINE / 10.
    """

    args: dict[str, np.ndarray]
    instances: int = 0
    undecided: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(("fraction", "rate", "cosine"), 0)
    )
    furthest: dict[str, object] = field(default_factory=dict)

    def __call__(self, theta: np.ndarray) -> float:
        u0 = normalize(np.asarray(theta, float).reshape(3, 3))
        u0 = np.stack([u0[0], -u0[0], u0[1], u0[2]])
        T = T_SEARCH
        taus = np.linspace(0.0, T, 121)
        fl = polar_flow(_quartic_vg, u0, 2, taus, args=self.args, rtol=1e-10)
        g = np.stack([_quartic_vg(fl.theta[:, k], self.args)[0] for k in range(len(taus))], axis=1)
        unsettled = (g[:, -1:] - g > SETTLED_G).any(axis=0)
        k_a = int(np.flatnonzero(unsettled)[-1]) + 1 if unsettled.any() else 0
        t_a = float(taus[k_a])
        gap = fl.f_end[0] - fl.f_end[2:]
        log_rho_a = 2 * fl.log_r[2:, k_a] - np.logaddexp(2 * fl.log_r[0, k_a], 2 * fl.log_r[1, k_a])

        def rho_pred(t: float) -> float:
            return float(np.exp(np.logaddexp.reduce(log_rho_a - 4 * (gap - SETTLED_G) * (t - t_a))))

        log_frac = fl.log_r - 0.5 * np.logaddexp.reduce(2 * fl.log_r, axis=0)
        late = taus >= T / 2
        rates = np.polyfit(taus[late], log_frac[:, late].T, 1)[0]
        cos_a = kkt_cosine(fl.theta[:, k_a], _quartic_vg(fl.theta[:, k_a], self.args)[1])
        cos = kkt_cosine(fl.theta[:, -1], _quartic_vg(fl.theta[:, -1], self.args)[1])
        decided = {
            "fraction": rho_pred(T) / 2 <= TOL_FRACTION / 10,
            "rate": t_a <= T / 2 and 1.5 * rho_pred(T / 2) / T + 2 * SETTLED_G <= TOL_RATE / 10,
            "cosine": float((1 - cos_a).max()) * np.exp(-2 * ANGLE_RATE * (T - t_a)) <= TOL_COSINE / 10,
        }
        ratios = {
            "fraction": -float(np.expm1(np.logaddexp(*log_frac[:2, -1] * 2) / 2)) / TOL_FRACTION,
            "rate": float(np.abs(rates + 2 * (fl.f_end.max() - fl.f_end)).max()) / TOL_RATE,
            "cosine": float(1 - cos.min()) / TOL_COSINE,
        }
        self.instances += 1
        for name, ok in decided.items():
            self.undecided[name] += not ok
        if not all(decided.values()) and rho_pred(T) >= self.furthest.get("predicted rho(T)", -np.inf):
            self.furthest = {
                "theta": np.round(theta, 4).tolist(),
                "t_a": t_a,
                "predicted rho(T)": rho_pred(T),
            }
        return max((ratios[name] for name, ok in decided.items() if ok), default=0.0)


@claim(
    "kumar2025:lemma-10",
    title="Sum of 2-homogeneous blocks: only the blocks with the largest KKT value survive",
    source="Lemma 10, eqs. 22-24, 57",
    statement=r"$\dot w_i=\nabla\mathcal G_i(w_i)$, $\mathcal G_i$ 2-homogeneous, "
    r"$w_{i0}\in\mathcal S(w_i^*)$: $\|w_i\|/\sqrt{\sum_j\|w_j\|^2}\to$ a positive limit iff "
    r"$\mathcal G_i(w_i^*)=\max_j\mathcal G_j(w_j^*)$, "
    r"else $\to0$; $\|w_i(t)\|=\alpha_i(t)e^{2t\mathcal G_i(w_i^*)}$",
    hypotheses=[BLOCKS_2_HOMOGENEOUS, r"$w_i^*$ second-order positive KKT points"],
)
def lemma_10(ctx: Context) -> None:
    """Blocks G_i = w^T S_i w / 2 + 0.05 w_1^4/|w|^2 (polar form; for L = 2 the polar time is t).

    KKT values: G*_0 = G*_1 >= 0.5, the others <= 0.3 + 0.05, so every gap 2(G*_max - G*_i) >= 0.3."""
    m = ctx.param("blocks", tiny=4, quick=6, full=10)
    budget = ctx.param("search_budget", tiny=1, quick=6, full=100)
    rng = ctx.rng("blocks").host
    tops = [1.0, 1.0, *rng.uniform(0.2, 0.6, size=m - 2)]
    args = _quartic_blocks(rng, tops)
    u0 = normalize(rng.normal(size=(m, 3)))
    u0[1] = -u0[0]  # same function, mirrored start: G_i is even, so its flow is the mirror image
    T = 30.0
    fl = polar_flow(_quartic_vg, u0, 2, np.linspace(0.0, T, 11), args=args, rtol=1e-10)
    g_star = fl.f_end
    cos = kkt_cosine(fl.theta[:, -1], _quartic_vg(fl.theta[:, -1], args)[1])
    ctx.bound(
        "min KKT cosine of the block limits",
        float(cos.min()),
        1 - 1e-9,
        side=">=",
        why="in polar time the angle decays at rate >= 0.8 - 4 x 0.05 (eigen gap 0.8 against a quartic "
        "term of size 0.05): e^-18 at t = 30; 1 - cos is its square",
    )
    log_frac = fl.log_r - 0.5 * np.logaddexp.reduce(2 * fl.log_r, axis=0)  # log |w_i| / sqrt(sum |w_j|^2)
    ctx.note(
        f"KKT values G*_i of the block limits: {[round(float(g), 6) for g in g_star]}; the mirrored copies 0 "
        "and 1 are the dominant blocks by construction (top eigenvalue 1.0, the others' drawn below 0.6, "
        "the quartic term <= 0.05): a setup fact, not a conclusion (the fraction checks below fail if it "
        "does not hold)"
    )
    ctx.close(
        "limit fraction of each dominant copy (exactly 1/sqrt 2 by symmetry)",
        np.exp(log_frac[:2, -1]),
        1 / np.sqrt(2),
        atol=1e-6,
        why="the non-dominant mass is <= exp(-0.3 x 30) ~ 1.2e-4 in norm, i.e. ~1e-8 in the "
        "fraction (second order); rounding 1e-15",
    )
    _distinct_dominant(ctx, ctx.rng("blocks-distinct").host, tops, T)
    late = fl.taus >= T / 2
    rates = np.array([np.polyfit(fl.taus[late], log_frac[i, late], 1)[0] for i in range(2, m)])
    ctx.close(
        "decay rate of the non-dominant fractions against -2 (G*_max - G*_i)",
        rates,
        -2 * (g_star.max() - g_star[2:]),
        atol=1e-4,
        why="log fraction = log alpha_i(t) - 2 t (G*_max - G*_i) + log alpha_max(t); alpha converges "
        "like exp(-0.6 t), so over t in [15, 30] the slope is off by < 1e-4",
    )
    search_rng = ctx.rng("blocks-search").host
    search_args = _quartic_blocks(search_rng, [1.0, 1.0, 0.3, 0.55])
    objective = Lemma10Search(search_args)
    name = "search: worst of Lemma 10's conclusions over the blocks' starts (4 blocks)"
    ctx.search(
        name,
        objective,
        {
            "Gaussian starts": [search_rng.normal(size=9)],
            "starts near the blocks' second eigenvectors (slow to align)": [
                np.concatenate(
                    [
                        np.linalg.eigh(S)[1][:, -2] + 0.05 * search_rng.normal(size=3)
                        for S in search_args["S"][[0, 2, 3]]
                    ]
                )
            ],
            "block 0 on the quartic's axis w = e_1": [
                np.concatenate([[1.0, 0.0, 0.0], search_rng.normal(size=6)])
            ],
        },
        budget=budget,
        why="Lemma 10 for every start (w_i0 in the stable set of its limit): Nelder-Mead over the starts of "
        "blocks 0, 2, 3 (block 1 mirrors block 0: the dominant pair); gaps "
        "2(G*_0 - G*_i) >= 0.35 (KKT values of the quadratic parts 1/2 against 0.15, 0.275, the quartic "
        f"adds <= 0.05); horizon t = {T_SEARCH:g}, window [t/2, t]. The limit statement is decided per "
        "conclusion only where the horizon reaches its regime, predicted from the state at the blocks' "
        "alignment time (Lemma10Search); the rest are counted as undecided (note), not as violations",
    )
    furthest = ", ".join(
        f"{k} {v:.3g}" if isinstance(v, float) else f"{k} {v}" for k, v in objective.furthest.items()
    )
    ctx.note(
        f"Lemma 10 search: {objective.instances} instances; horizon short of the regime (undecided) for "
        + ", ".join(f"{k} {n}" for k, n in objective.undecided.items())
        + (f"; furthest from it: {furthest}" if furthest else "")
    )
    never = [k for k, n in objective.undecided.items() if n == objective.instances]
    if never:
        ctx.undecided(
            f"{name}: {', '.join(never)}",
            f"no instance of the search reached the regime of these conclusions by t = {T_SEARCH:g}",
            measured=objective.furthest,
        )
    with ctx.control(
        "a 3-homogeneous block (squared neuron) with a smaller KKT value joins",
        breaks=BLOCKS_2_HOMOGENEOUS,
        must_break=["limit fraction of each dominant*"],
    ):
        spec = spectral_neuron(rng, 1.0, 2, (1, -1, 1))
        cubic = NeuronNCF(spec.G, 0.2 * spec.Q, 1.0, 2)  # KKT value 2 mu/(3 sqrt 3) <= 0.28 < 0.5
        start = normalize(rng.normal(size=(1, 4)))
        if rows(cubic)(start)[0][0] < 0:  # b a^T M a is odd in b
            start[0, -1] *= -1
        cfl = polar_to_end(rows(cubic), start, 3)
        T3 = float(blow_up_time(cfl, 3)[0])
        at = polar_flow(_quartic_vg, u0[:1], 2, np.array([0.0, T3]), args={k: v[:1] for k, v in args.items()})
        log_big = cfl.log_r[0, -1]  # the cubic block's radius at t(TAU_END), just before T3
        frac = float(np.exp(at.log_r[0, -1] - np.logaddexp(at.log_r[0, -1], log_big)))
        ctx.note(f"cubic block: KKT value {cfl.f_end[0]:.3f} < {g_star.max():.3f}, blow-up at t = {T3:.3f}")
        ctx.bound(
            "limit fraction of each dominant block (the largest KKT value) as the cubic block blows up",
            frac,
            1 / np.sqrt(2) / 2,
            side=">=",
            why="half its 2-homogeneous limit",
        )


def _distinct_dominant(ctx: Context, rng: np.random.Generator, tops: list[float], T: float) -> None:
    r"""Lemma 10's "positive limit" branch with two *different* dominant blocks: quadratic
    :math:`\mathcal G_i=\tfrac12w^\top S_iw` with the same top eigenvalue 1 (KKT value 1/2) but different
    eigenvectors and spectra, independent starts. There :math:`w_i(t)=e^{S_it}w_{i0}`, so
    :math:`\|w_i(t)\|=e^t|v_i^\top w_{i0}|(1+O(e^{-0.8t}))` (:math:`v_i` the top eigenvector; eq. 57 with
    :math:`\alpha_i(\infty)=|v_i^\top w_{i0}|`) and each dominant fraction tends to
    :math:`|v_i^\top w_{i0}|/\sqrt{\sum_{j\,\rm dominant}|v_j^\top w_{j0}|^2}`: distinct positive limits,
    where the mirrored pair's 1/sqrt 2 is forced by symmetry."""
    blocks = _quartic_blocks(rng, tops, same_first_two=False, c=0.0)
    u0 = normalize(rng.normal(size=(len(tops), blocks["S"].shape[1])))
    fl = polar_flow(_quartic_vg, u0, 2, np.linspace(0.0, T, 11), args=blocks, rtol=1e-10)
    frac = np.exp(fl.log_r[:2, -1] - 0.5 * np.logaddexp.reduce(2 * fl.log_r[:, -1]))
    top = np.abs([np.linalg.eigh(S)[1][:, -1] @ u for S, u in zip(blocks["S"][:2], u0[:2], strict=True)])
    pred = top / np.linalg.norm(top)
    # log r_i to rtol 1e-10 over log r <= T = 30 (3e-9 each); the dominant blocks' other eigen-directions,
    # relative e^(-0.8 T) / |v^T w0|; the others' mass, squared norm e^(-2 x 0.4 T) (tops <= 0.6)
    atol = 2 * 1e-10 * T + np.exp(-0.8 * T) / top.min() + np.exp(-0.8 * T)
    ctx.close(
        "limit fractions of two different dominant blocks (equal KKT values, different spectra, independent "
        "starts) = |v_i^T w_i0| / sqrt(sum_dominant |v_j^T w_j0|^2)",
        frac,
        pred,
        atol=atol,
        why=f"exact flow of quadratic blocks (_distinct_dominant); predicted {np.round(pred, 6).tolist()};"
        f" atol {atol:.2g}: integrator (rtol 1e-10 on log r <= {T:g}), the dominant blocks' other "
        "eigen-directions e^(-0.8 T)/|v^T w0| and the non-dominant mass e^(-0.8 T) (gaps >= 0.4)",
    )


def _eq27_instance(G: np.ndarray, theta: np.ndarray) -> tuple[NeuronNCF, np.ndarray]:
    r"""The instance ``theta`` of the Lemma 11 search: the squared (``theta[7] < 2.5``) or cubic neuron on
    orthonormal inputs ``G``, label weights :math:`\pm(2+1.5\tanh\theta_{4:7})` (``theta[8] > 0.5`` flips
    the middle one's sign; the search may cross between these valid families), and its unit start
    ``theta[:4]`` with :math:`\mathcal G(w_0)>0` (b flipped where negative: :math:`\mathcal G` is odd in
    b)."""
    p = 2 if theta[7] < 2.5 else 3
    signs = np.array([1.0, -1.0 if theta[8] > 0.5 else 1.0, 1.0])
    q = signs * (2 + 1.5 * np.tanh(theta[4:7]))
    ncf = NeuronNCF(G[None], q[None, None], 1.0, p)
    u0 = normalize(theta[None, :4].copy())
    if rows(ncf)(u0)[0][0] < 0:
        u0[0, -1] *= -1
    return ncf, u0


@dataclass
class Eq27Search:
    r"""Lemma 11 eq. 27 on one instance (:func:`_eq27_instance`) as a search objective: the relative
    violation of :math:`T\in[1/(L(L-2)\mathcal G^*),1/(L(L-2)\mathcal G(w_0))]` over ``TOL_T``, T from
    the polar form (:func:`blow_up_time`, cheap: two direct solves per instance would multiply the
    search's cost); the worst instance and its polar T are kept, to be re-measured directly in t."""

    G: np.ndarray
    worst: dict[str, object] = field(default_factory=lambda: {"ratio": -np.inf})

    def __call__(self, theta: np.ndarray) -> float:
        ncf, u0 = _eq27_instance(self.G, np.asarray(theta, float))
        L = ncf.p + 1
        vg = rows(ncf)
        fl = polar_to_end(vg, u0, L)
        T = float(blow_up_time(fl, L)[0])
        lo, hi = 1 / (L * (L - 2) * float(fl.f_end[0])), 1 / (L * (L - 2) * float(vg(u0)[0][0]))
        ratio = max((lo - T) / T, (T - hi) / T) / TOL_T
        if ratio > self.worst["ratio"]:
            self.worst = {"ratio": ratio, "theta": np.array(theta, float), "T": T}
        return ratio


def _positive_starts(vg, args, rng: np.random.Generator, m: int) -> np.ndarray:
    """Unit starts with G_i(w_i0) > 0 (b a^T M a-type NCFs are odd in b: flip b where negative)."""
    u0 = normalize(rng.normal(size=(m, 4)))
    u0[:, -1] *= np.sign(vg(u0, args)[0])
    return u0


@claim(
    "kumar2025:lemma-11",
    title="Sum of L-homogeneous blocks, L > 2: blow-up times are bracketed, the first blow-up wins",
    source="Lemma 11, eqs. 25-28",
    statement=r"$T_i\in[\frac1{L(L-2)\mathcal G_i(w_i^*)},\frac1{L(L-2)\mathcal G_i(w_{i0})}]$ (27); as "
    r"$t\to T^*=\min_iT_i$ the normalized norm of block $i$ tends to a positive value iff $T_i=T^*$ (28)",
    hypotheses=[r"$\mathcal G_i$ $L$-homogeneous, $L>2$", POSITIVE_START],
)
def lemma_11(ctx: Context) -> None:
    r"""Blocks: spectral squared neurons (L = 3) and cubic neurons (L = 4), random signs of the labels.

    The blocks' flows (eq. 25) are decoupled, so block i's blow-up time is that of
    :math:`\dot w_i=\nabla\mathcal G_i(w_i)` alone. (27),
    :math:`T_i\in[\frac1{L(L-2)\mathcal G_i(w_i^*)},\frac1{L(L-2)\mathcal G_i(w_{i0})}]`, is checked on
    :math:`T_i` solved directly in t per block (:func:`direct_blow_up`, :func:`_bracket_checks`: its own
    derived error), not on the polar-form time, which lies in that bracket by construction up to its
    solver error (:math:`t=\int r^{-(L-2)}d\tau` with :math:`\frac{d}{d\tau}\ln r=L\mathcal G(\theta)`
    and :math:`\mathcal G(\theta)` non-decreasing between :math:`\mathcal G(w_0)` and
    :math:`\mathcal G(w^*)`); the polar T (used for :math:`T^*` in the (28) checks) is compared with it.
    The search over starts and label weights reads the polar T (cheap) and its worst instance is
    re-measured directly."""
    m = ctx.param("blocks", tiny=3, quick=6, full=12)
    budget = ctx.param("search_budget", tiny=12, quick=40, full=200)
    degrees = ctx.param("degrees", tiny=1, quick=2, full=2)
    rng = ctx.rng("blocks").host
    worst_cos = 1.0
    direct: list[DirectBlowUp] = []
    polar: list[np.ndarray] = []
    for alpha, p in [(1.0, 2), (1.0, 3)][:degrees]:
        L = p + 1
        specs = [spectral_neuron(rng, alpha, p, tuple(rng.choice([-1, 1], size=3))) for _ in range(m)]
        args = {"G": np.concatenate([s.G for s in specs]), "Q": np.concatenate([s.Q for s in specs])}
        vg = block_vg(alpha, p)
        u0 = _positive_starts(vg, args, rng, m)
        ctx.regime(POSITIVE_START, g_min=float(vg(u0, args)[0].min()))
        fl = polar_to_end(vg, u0, L, args)
        T = blow_up_time(fl, L)
        direct.append(
            DirectBlowUp.join([direct_blow_up(rows(s), w[None], L) for s, w in zip(specs, u0, strict=True)])
        )
        polar.append(T)
        worst_cos = min(worst_cos, float(kkt_cosine(fl.theta[:, -1], vg(fl.theta[:, -1], args)[1]).min()))
        win = int(np.argmin(T))
        gaps = np.array([1e-3, 1e-4, 1e-5, 1e-6]) * T[win]
        traj = gradient_flow(vg, u0, np.concatenate([[0.0], T[win] - gaps]), rtol=1e-9, args=args)
        ctx.require(bool(traj.ok.all()), "a block stopped before the first blow-up")
        log_n = np.log(np.linalg.norm(np.asarray(traj.ys)[:, 1:], axis=-1))  # rows: blocks, cols: gaps
        frac = np.exp(log_n - 0.5 * np.logaddexp.reduce(2 * log_n, axis=0))
        for i in (j for j in range(m) if j != win):
            _, tol, parts = order_tolerance(gaps, frac[i], 1e-9 * frac[i])
            ctx.order(
                f"fraction of block {i} (T_i/T* = {T[i] / T[win]:.3f}) as t -> T* (L={L})",
                gaps,
                frac[i],
                expected=1 / (L - 2),
                tol=tol,
                why="the winner's norm is alpha(t)(T*-t)^(-1/(L-2)) with alpha -> (L(L-2)G*)^(-1/(L-2)) "
                "(eq. 59); block i is finite at T*, so its fraction is of order (T*-t)^(1/(L-2)); "
                "alpha and the finite norms change by O(T*-t) <= 1e-3 relative over the grid; T* is known to "
                "~1e-10 relative and the solve (rtol 1e-9) resolves T*-t >= 1e-6 T*. Tolerance "
                f"(fitted_orders.order_tolerance): the fit's 95% half-width ({parts['interval']:.2g}) + the "
                f"next-order bound from the local slopes ({parts['next order']:.2g}) + the shift by the "
                f"solve's rtol 1e-9 ({parts['floor']:.2g})",
                xlabel="T* - t",
                ylabel="fraction",
            )
        ctx.note(
            f"L={L}: block {win} blows up first; the largest KKT value is block {int(np.argmax(fl.f_end))}'s "
            "(the winner is set by the blow-up time, which also depends on the start, eq. 27)"
        )
        ctx.bound(
            f"winner's fraction at T* - 1e-6 T* (L={L})",
            float(frac[win, -1]),
            1 - 1e-3,
            side=">=",
            why="the others are O((1e-6)^(1/(L-2))) <= 1e-3 in relative size",
        )
    tag = " over blocks (eq. 27)"
    tol = _bracket_checks(ctx, tag, DirectBlowUp.join(direct), np.concatenate(polar))
    search_rng = ctx.rng("search-27").host
    G = np.linalg.qr(search_rng.normal(size=(3, 3)))[0]
    objective = Eq27Search(G)
    ctx.search(
        "search: worst relative violation of (27) / TOL_T (polar-form T) over starts and label weights",
        objective,
        {
            "p = 2, indefinite M (signs +, -, +)": [np.concatenate([search_rng.normal(size=7), [2.0, 1.0]])],
            "p = 3, positive labels (signs +, +, +)": [
                np.concatenate([search_rng.normal(size=7), [3.0, 0.0]])
            ],
        },
        budget=budget,
        why="(27) for every start with G(w_0) > 0: Nelder-Mead over the unit start (b flipped when "
        "G(w_0) < 0; G is linear in b) and label weights of magnitude 2 +- 1.5 (tanh-squashed, so the "
        "spectrum stays away from 0 and the polar integral at its stated accuracy); the last two "
        f"coordinates pick the family (p, label signs); T from the polar form, allowance TOL_T = {TOL_T:g} "
        "relative; the worst instance is re-measured directly in t (next checks)",
    )
    if "theta" in objective.worst:  # some instance gave a finite ratio: the worst, re-measured directly in t
        ncf, u0 = _eq27_instance(G, objective.worst["theta"])
        _bracket_checks(
            ctx,
            " (the search's worst instance, eq. 27)",
            direct_blow_up(rows(ncf), u0, ncf.p + 1),
            np.array([objective.worst["T"]]),
        )
    ctx.bound(
        "min KKT cosine of the blow-up directions",
        worst_cos,
        1 - 1e-6,
        side=">=",
        why="angles decay exponentially in polar time (eigenvalue gaps >= 0.6); at tau = 12 they are < 1e-3",
    )
    with ctx.control(
        "G(w_0) < 0: squared neuron with b_0 < 0 and |a_0|^2 > 2 b_0^2, labels positive",
        breaks=POSITIVE_START,
        must_break=[BRACKET + tag],
    ):
        spec = spectral_neuron(rng, 1.0, 2, (1, 1, 1))
        a = normalize(rng.normal(size=(1, 3)))
        u0 = np.concatenate([0.9 * a, [[-np.sqrt(1 - 0.81)]]], axis=1)
        bad = direct_blow_up(rows(spec), u0, 3)
        hi_bad = float(1 / (3 * abs(rows(spec)(u0)[0][0])))
        ctx.bound(
            BRACKET + tag,
            (float(bad.T[0]) - hi_bad) / float(bad.T[0]),
            float(tol.max()),
            why="T solved directly in t (direct_blow_up), against the main run's largest relative tolerance "
            "(its derived direct-solve error); "
            "(27)'s upper end read with |G(w_0)| (with G(w_0) < 0 itself the end is negative and any "
            "finite T would break it): the flow first shrinks the norm while the direction crosses b = 0, "
            "so T exceeds 1/(L(L-2)|G(w_0)|), by 2.5-2.7x over four draws of M and a (measured); at "
            "b_0 = -0.05 the same reading holds (T at 0.14-0.16 of it), and at b_0 = -0.9 the direction "
            "reaches a negative KKT point and nothing blows up",
        )
