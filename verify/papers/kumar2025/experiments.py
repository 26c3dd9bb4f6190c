r"""kumar2025 experiments (Sec. 4, Sec. 5, App. D): what the paper shows by simulation.

* ``theorem-7-relu`` -- Theorem 7's conclusions for ReLU / leaky ReLU (``p = 1``), outside its
  hypotheses (Assumption 1 needs locally Lipschitz gradients; the paper uses these activations in
  Figs. 2, 6-9, 11).  Exact gradient-descent map with a small step, as in the paper's experiments, at
  steps eta and eta / 2: E read as the gradient flow's by Richardson extrapolation, its step floor
  (chatter at the kinks) as the order's uncertainty.
* ``definition-2.1`` -- Monte-Carlo estimate of the stable sets (Def. 2.1) of the per-neuron NCF's
  KKT points: many random unit starts, limits clustered into KKT points, basin probabilities with
  exact binomial tests with 80% power (Remark 1: more than one KKT point is attainable).
* ``figure-6`` -- Neuron Pursuit on :math:`f(x)=\sigma(\sigma(2x_1+x_3)-\sigma(x_3-x_2))` over
  :math:`\{\pm1\}^{20}` (App. C / Fig. 6): the paper's one run read as NP's typical outcome (a judgement;
  the strict reading, every draw, is recorded in the notes), a frequency over 40 declared seeds (exact
  binomial test with its power).
* ``figure-7`` -- NP on :math:`f_1` over the sphere: near-zero training error at every sample size,
  test error -> 0 for large ``n`` (scaled down: ``d = 10`` instead of 50 in ``quick``), over 4 declared
  data seeds.
* ``section-D.6`` -- the rescaling :math:`(cW_1,W_2,W_3/c)` changes NP's layer choice; rebalancing
  (``numeric.training.neuron_pursuit.rebalance``) removes the dependence.
* ``section-D.3`` -- degenerate NCF at the rank-1 saddle of a 3-layer linear net: the dynamics follow
  :math:`\bar{\mathcal H}_2=B_3C_2A_1` on the slower time scale :math:`1/\delta` (small :math:`\delta`
  measured as a regime; the order fitted over 0.9-1.8 decades of :math:`\delta`), and :math:`w_z` aligns
  with a KKT point of its NCF: :math:`1-\cos` falls at the order :math:`2(\sigma_2/\sigma_1-1)` of the
  reduced dynamics (``alignment``), fitted over the last 4 octaves of a :math:`2^{13}`-fold growth.

Figs. 1-4 are in ``saddle_figures``; f2, the parities, the max-functions, modular addition and PVR
(Figs. 7-11) in ``targets``.

Conventions: the network and NCFs of ``numeric.models.homogeneous_nets`` (ReLU's derivative at 0 is the
Clarke choice :math:`\min(1,\alpha)`), loss eq. 1 with the 1/2, float64.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

import numpy as np

from numeric.backend import to_numpy
from numeric.engine.gd_map import GradientDescent
from numeric.engine.saveat import SaveAt
from numeric.engine.solve import solve
from numeric.engine.trajectory import Status
from numeric.measures.statistics import wilson
from numeric.models.activation import RELU
from numeric.models.homogeneous_nets import (
    HomogeneousNet,
    NeuronNCF,
    homogeneous,
    kkt_cosine,
    layer_candidates,
    loss_and_grad,
    normalize,
    output,
    pack,
    projected_gradient_ascent,
    unpack,
)
from numeric.training.neuron_pursuit import (
    PursuitConfig,
    PursuitResult,
    best_candidate,
    first_direction,
    gradient_descent,
    insert_neuron,
    neuron_pursuit,
    rebalance,
)
from verify import evidence
from verify.claim import claim
from verify.context import Context, Series
from verify.papers.kumar2025.alignment import (
    family_angles,
    family_misalignment,
    h2_grads,
    h2_norm,
    misalignment,
    profile_slope,
    rates,
    slow_angle,
)
from verify.papers.kumar2025.fitted_orders import UNDECIDED_TOL, order_tolerance
from verify.papers.kumar2025.hypotheses import (
    INSERT_AT_L_STAR,
    LINEAR_3_LAYER,
    N_LARGE,
    REBALANCED,
    SADDLE_56,
    SMALL_DELTA_D3,
    SYMMETRIC_SPECTRUM,
    W_N_CRITICAL,
    WN_LOCAL_MIN_PL,
)
from verify.papers.kumar2025.saddle import (
    HOST,
    _assemble,
    _split,
    lojasiewicz_exponent,
    restricted_loss,
    samples,
)
from verify.search import squash

# ---------------------------------------------------------------- Theorem 7 with p = 1


def _relu_fit(X: np.ndarray, y: np.ndarray, alpha: float, rng: np.random.Generator) -> np.ndarray | None:
    r"""Best one-neuron fit :math:`(a,b)` of :math:`\tfrac12\|b\sigma(Xa)-y\|^2`
    (None: no stable pattern, or only the zero fit).

    With :math:`c=|b|a`, :math:`s=\mathrm{sign}(b)` the output is :math:`s\,\sigma(Xc)`, linear in ``c``
    on a fixed activation pattern: alternate pattern -> least squares until the pattern is stable
    (then ``c`` minimizes a convex quadratic on an open cell: a local minimum).  Returned balanced,
    :math:`|a|^2=b^2`, a point of the rescaling orbit :math:`(ta,b/t)`."""
    best, best_loss, sigma = None, np.inf, homogeneous(alpha, 1)
    for sign in (1.0, -1.0):
        for _ in range(5):
            c = rng.normal(size=X.shape[1])
            for _ in range(50):
                m = sigma.slope(X @ c)
                c_new = np.linalg.lstsq(X * m[:, None], sign * y, rcond=None)[0]
                if np.array_equal(sigma.slope(X @ c_new), m):
                    loss = float(np.sum((sign * sigma.value(X @ c_new) - y) ** 2))
                    if loss < best_loss:
                        best, best_loss = np.append(c_new, sign), loss
                    break
                c = c_new
    if best is None or not np.any(best[:-1]):  # no stable pattern, or the zero fit (no neuron)
        return None
    scale = np.sqrt(np.linalg.norm(best[:-1]))
    return np.append(best[:-1] / scale, best[-1] * scale)


def _relu_saddle(rng: np.random.Generator, alpha: float, n: int = 10, d: int = 3):
    r"""Data, the one-neuron fit :math:`\bar w_n` (a local min of :math:`\widetilde{\mathcal L}`),
    the residual :math:`\bar y` and :math:`\|\nabla\widetilde{\mathcal L}(\bar w_n)\|`, for
    :math:`y=\sigma(u^\top x)-\sigma(v^\top x)`, :math:`u\perp v`.

    A fit is accepted when no sample sits within 1e-3 of its kink (so :math:`\widetilde{\mathcal L}`
    is smooth, Morse--Bott, near it) and it beats the origin; otherwise the data are redrawn."""
    for _ in range(20):
        X = rng.normal(size=(n, d))
        u, v = np.linalg.qr(rng.normal(size=(d, 2)))[0].T
        y = homogeneous(alpha, 1).value(X @ u) - homogeneous(alpha, 1).value(X @ v)
        wn = _relu_fit(X, y, alpha, rng)
        if wn is None:
            continue
        ws = unpack(wn[None], [(1, d), (1, 1)])
        ybar = y - output(ws, X, alpha, 1)[0]
        grad = float(np.linalg.norm(pack(loss_and_grad(ws, X, y, alpha, 1)[1])))
        if np.abs(X @ wn[:d]).min() > 1e-3 and ybar @ ybar < y @ y:
            return X, y, wn, ybar, grad
    raise RuntimeError("no clean one-neuron fit in 20 draws")


RESOLVED_OFFSET = 1e3
r"""A start offset :math:`\delta n` (:math:`|n|=1`) is resolved when
:math:`\delta\ge10^3\,\epsilon\,|\bar w_n|`: rounding :math:`\bar w_n+\delta n` errs by
:math:`\le\epsilon|\bar w_n|`, so each measured drift (and the
O(delta) part of E) carries relative error :math:`\le10^{-3}`, and a slope fitted over the grid's
:math:`\ln 2^{7}\approx4.9` span moves by :math:`<10^{-3}`, far inside the 0.5 margin. Below it the offset
is lost to rounding (drift exactly 0 at full, alpha = 0 seed 7: delta ~ 1e-17) and the order is undefined."""


def _fitted_order(x: np.ndarray, e: np.ndarray) -> float:
    """Least-squares slope of log e against log x."""
    return float(np.polyfit(np.log(x), np.log(e), 1)[0])


def _gd_paths(grad, w0: np.ndarray, eta: float, steps: int, sign: float = -1.0) -> np.ndarray:
    r"""The exact map :math:`w\leftarrow w+\text{sign}\cdot\eta\nabla(w)` for every row of ``w0`` (the
    engine's map, field :math:`\text{sign}\cdot\nabla`); states (steps + 1, B, n_params), NaN after a
    member's map left the finite numbers (status ``NONFINITE``)."""
    saveat = SaveAt(steps=np.arange(steps + 1))
    field = lambda t, w, args: sign * grad(w)  # noqa: E731
    run = solve(field, w0, method=GradientDescent(eta), saveat=saveat, max_steps=max(steps, 1))
    return np.swapaxes(run.ys, 0, 1)


def _relu_case(ctx: Context, alpha: float, seed: int, new: int, T: float, eta: float, deltas_n: int):
    """One system: deltas, E(delta) at eta and eta / 2, drift(delta), coupling(delta) (max_t |w_n(t) -
    w_n^0(t)|, w_n^0 from the same start with w_z = 0), kink events of u_1, w_n bar, and what the controls
    reuse (the map's system, the data)."""
    rng = ctx.rng(f"relu-{alpha}-{seed}").host
    X, y, wn, ybar, grad = _relu_saddle(rng, alpha)
    # the saddle (w_n bar, 0) is critical: a hypothesis (read as a regime, not a check), at this claim's bound
    # 1e-10: least squares on the stable pattern solves the normal equations to ~1e-14, and 1e-10 moves the
    # minimizer by < 1e-9 << the smallest delta
    ctx.regime(W_N_CRITICAL, reached=grad <= 1e-10, grad=grad)
    d = X.shape[1]
    excess, grad_s = samples(
        restricted_loss(X, y, [(1, d), (1, 1)], alpha, 1), wn, ctx.rng(f"loj-relu-{alpha}-{seed}").host, 16
    )
    ctx.regime(
        WN_LOCAL_MIN_PL, margin=float(np.abs(X @ wn[:d]).min()), a=lojasiewicz_exponent(excess, grad_s)
    )
    z = normalize(rng.normal(size=new * d + new))
    n_dir = normalize(rng.normal(size=d + 1))
    deltas, E, drift, coupling, kinks, system = _relu_paths(X, y, wn, ybar, alpha, z, n_dir, T, eta, deltas_n)
    return deltas, E, drift, coupling, kinks, wn, system, (X, y)


def _relu_paths(X, y, wn, ybar, alpha: float, z, n_dir, T: float, eta: float, deltas_n: int):
    r"""GD from :math:`(\bar w_n+\delta n,\delta z)` on the loss and the NCF ascent :math:`u_1` from ``z``
    (exact maps, step ``eta``, to time ``T``) over the deltas :math:`0.1/\max_t|u_1|\cdot2^{-k}`:
    ``(deltas, (E at eta, E at eta / 2), drift, coupling, kink events of u_1, (loss_grad, n, z, d, new,
    steps))``.  E at eta / 2 reruns both maps with twice the steps from the same starts (the same deltas),
    for :func:`_flow_error`; the drift and the coupling are read at eta (their step errors scale with
    delta: :math:`\bar w_n` is off its kinks and :math:`w_z=O(\delta)`)."""
    d = X.shape[1]
    new = z.size // (d + 1)
    shapes_z, full_shapes = [(new, d), (1, new)], [(1 + new, d), (1, 1 + new)]
    net, net_z = HomogeneousNet(tuple(full_shapes), alpha, 1), HomogeneousNet(tuple(shapes_z), alpha, 1)
    data, data_z = net.args(HOST, X, y), net_z.args(HOST, X, ybar)

    def ncf_grad(u):
        return net_z.ncf_and_grad(u, data_z)[1]

    def loss_grad(w):
        return net.loss_and_grad(w, data)[1]

    def e_max(u1, wz_t, every: int):  # max over the common times t = k eta of |w_z / delta - u_1|
        gap = wz_t[::every] / deltas[None, :, None] - u1[::every, None, :]
        return np.linalg.norm(gap, axis=2).max(axis=0)

    steps = round(T / eta)
    u1 = _gd_paths(ncf_grad, z[None], eta, steps, sign=1.0)[:, 0]
    signs = np.sign(u1[:, : new * d].reshape(-1, new, d) @ X.T)
    kinks = int((np.diff(signs, axis=0) != 0).sum())
    deltas = 0.1 / np.linalg.norm(u1, axis=1).max() * 0.5 ** np.arange(deltas_n)
    w0 = np.stack([_assemble(wn + dl * n_dir, dl * z, d, new) for dl in deltas])
    wn_t, wz_t = _split(_gd_paths(loss_grad, w0, eta, steps), d, new)
    u1_half = _gd_paths(ncf_grad, z[None], eta / 2, 2 * steps, sign=1.0)[:, 0]
    _, wz_half = _split(_gd_paths(loss_grad, w0, eta / 2, 2 * steps), d, new)
    E = (e_max(u1, wz_t, 1), e_max(u1_half, wz_half, 2))
    drift = np.linalg.norm(wn_t - wn, axis=2).max(axis=0)
    # the same start with w_z = 0, which stays 0 (sigma(0) = 0 and a_z = 0): its w_n relaxes the offset alone
    free = np.stack([_assemble(wn + dl * n_dir, 0 * z, d, new) for dl in deltas])
    wn_free, _ = _split(_gd_paths(loss_grad, free, eta, steps), d, new)
    coupling = np.linalg.norm(wn_t - wn_free, axis=2).max(axis=0)
    return deltas, E, drift, coupling, kinks, (loss_grad, n_dir, z, d, new, steps)


def _flow_error(deltas: np.ndarray, e_step: np.ndarray, e_half: np.ndarray):
    r"""The flow's :math:`E(\delta)` from its GD measurements at steps :math:`h` and :math:`h/2`:
    ``(E_R, floor, order, shift)``, :math:`E_R=2E(h/2)-E(h)` (Richardson), floor
    :math:`|E(h)-E(h/2)|` its uncertainty, the fitted order of :math:`E_R` and the largest move of that
    order by the floor (:func:`verify.evidence.slope_shift` of floor / :math:`E_R`); order NaN and shift
    :math:`\infty` when some :math:`E_R\le` floor.

    [derived] Off the activation surfaces the loss and the NCF are polynomials on a fixed pattern and the GD
    map is a first-order integrator: :math:`w_h(kh)=w(kh)+h\,c(kh)+O(h^2)`, the same for :math:`u_1`, so
    on the common times :math:`E(h)=E_0+h e_1+O(h^2)` (:math:`E_0>0` the flow's, its max at one time),
    :math:`E_R=E_0+O(h^2)` and :math:`E(h)-E(h/2)=h e_1/2+O(h^2)` is the error of :math:`E(h/2)` itself: as
    :math:`E_R`'s uncertainty it is conservative by a factor :math:`\sim1/h`.  At a kink the map chatters
    (:math:`w_z/\delta` and :math:`u_1` cross the surface a step apart: a jump :math:`h\,c(h)`, c bounded
    but erratic in h, for every delta); then :math:`E_R-E_0=h(c(h/2)-c(h))` and the floor
    :math:`h|c(h)-c(h/2)/2|` are of one size, an estimate, not a bound (two steps cannot certify more).  A
    floor :math:`\propto h` that dominates E (:math:`E(h)\approx Ch`: :math:`E_R\approx0` below the floor
    :math:`Ch/2`) leaves the point with no information on :math:`E_0` (not even its sign or log): the order
    is then undefined, not small."""
    flow, floor = 2 * e_half - e_step, np.abs(e_step - e_half)
    if np.any(floor >= flow):
        return flow, floor, np.nan, np.inf
    return flow, floor, _fitted_order(deltas, flow), evidence.slope_shift(deltas, floor / flow)


RELU_NEW = 2  # new neurons in w_z: z = (a_1, a_2, b_1, b_2), packed as [(2, d), (1, 2)]


def _relu_violation(ctx: Context, X, n_dir, T: float, eta: float, deltas_n: int, seen: list, theta) -> float:
    r"""The checks of :func:`theorem_7_relu` on the instance ``theta``: their largest shortfall over
    their allowance, <= 1 iff all three hold.

    ``theta`` = (s, z, u, v): :math:`\alpha=1/2` if s > 0 else 0 (the statement's two activations), the
    start direction z (normalised, 2 new neurons), the target :math:`y=\sigma(Xu)-\sigma(Xv)` (u, v free:
    any sizes and angle) on the fixed data ``X``.  The instance is inside the hypotheses when the best
    one-neuron fit :math:`\bar w_n` (:func:`_relu_fit`) exists, beats the origin, is critical
    (:math:`|\nabla\widetilde{\mathcal L}|\le10^{-10}`) and meets ``WN_LOCAL_MIN_PL`` (no sample within
    1e-3 of its kink, fitted Łojasiewicz exponent <= 0.55), and decided when its delta grid stays above
    ``RESOLVED_OFFSET`` eps :math:`|\bar w_n|`; otherwise 0 (recorded in ``seen``).  The shortfalls:
    (1 - order of the drift) / (1 - 0.8), (2 - order of the coupling) / (2 - 1/2),
    (1 - order of E) / (1 - 1/2 + s) -- the checks' thresholds 0.8, 1/2, 1/2 below the orders the main
    run derives (1: the drift's max at t = 0; 2: the coupling through the residual; 1: the smooth
    analogue's :math:`\beta_2`), so the objective is 0 at the leading behaviour (no floor from a ratio
    threshold / order that hid the other terms).  E is the flow's, :math:`E_R` of :func:`_flow_error`, and
    s its step floor's largest move of the order: the check fails only when even order + s < 1/2.  With
    s >= ``UNDECIDED_TOL`` = 1/2 (the distance from the expected order 1 to the threshold; inf when the
    floor swallows a point) the floor cannot tell an order-1 E from one at the threshold: E's shortfall is
    then 0, undecidable (``rec["undecided"]``), as Assumption 1's search treats an unmeasurable remainder;
    the drift and coupling still count."""
    d = X.shape[1]
    k = RELU_NEW * (d + 1)
    alpha = 0.5 if theta[0] > 0 else 0.0
    z = normalize(np.asarray(theta[1 : 1 + k])[None])[0]
    u, v = np.asarray(theta[1 + k : 1 + k + 2 * d]).reshape(2, d)
    sigma = homogeneous(alpha, 1)
    y = sigma.value(X @ u) - sigma.value(X @ v)
    rec: dict = {"alpha": alpha, "ratio": 0.0}
    seen.append(rec)
    wn = _relu_fit(X, y, alpha, ctx.rng("search-fit").host)
    if wn is None:
        rec["outside"] = "no one-neuron fit"
        return 0.0
    ws = unpack(wn[None], [(1, d), (1, 1)])
    ybar = y - output(ws, X, alpha, 1)[0]
    grad = float(np.linalg.norm(pack(loss_and_grad(ws, X, y, alpha, 1)[1])))
    margin = float(np.abs(X @ wn[:d]).min())
    excess, grad_s = samples(
        restricted_loss(X, y, [(1, d), (1, 1)], alpha, 1), wn, ctx.rng("search-loj").host, 16
    )
    pl = WN_LOCAL_MIN_PL.evaluate(margin=margin, a=lojasiewicz_exponent(excess, grad_s))
    if not (pl and margin > 1e-3 and grad <= 1e-10 and ybar @ ybar < y @ y):
        rec["outside"] = "fit not a clean PL local minimum"
        return 0.0
    deltas, E, drift, coupling, kinks, _ = _relu_paths(X, y, wn, ybar, alpha, z, n_dir, T, eta, deltas_n)
    if deltas.min() < RESOLVED_OFFSET * np.finfo(float).eps * float(np.linalg.norm(wn)):
        rec["outside"] = "delta grid below the resolved offset"
        return 0.0
    _, floor, e_order, shift = _flow_error(deltas, *E)
    # a quantity identically 0 over the grid vanishes faster than any order (shortfall 0); one that is 0 at
    # some deltas only has no fitted order (NaN: the search cannot pass it)
    orders = [np.inf if not np.any(q) else _fitted_order(deltas, q) for q in (drift, coupling)] + [e_order]
    undecided = shift >= UNDECIDED_TOL
    e_ratio = 0.0 if undecided else (1 - e_order) / (0.5 + shift)
    shortfalls = [(1 - orders[0]) / 0.2, (2 - orders[1]) / 1.5, e_ratio]
    ratio = float("nan") if np.isnan(shortfalls).any() else max(shortfalls)
    rec.update(ratio=ratio, orders=orders, shift=shift, undecided=undecided, kinks=kinks, E=E, floor=floor)
    return ratio


@claim(
    "kumar2025:theorem-7-relu",
    title="Theorem 7 outside its hypotheses: ReLU / leaky ReLU (p = 1) near a sparse saddle",
    source="Theorem 7 (eq. 42), Figs. 2 and 4 (experiments with ReLU); catalog pitfall 4",
    statement=r"(exploratory) for $\sigma=\max(x,\alpha x)$, $\alpha\in\{0,0.5\}$, gradient descent from "
    r"$(\bar w_n+\delta n,\delta z)$ keeps $\|w_n-\bar w_n\|=O(\delta)$ and $w_z/\delta$ follows the NCF "
    r"ascent $u_1$: $E(\delta)=\max_t\|w_z/\delta-u_1\|\to0$ at a rate $\beta_2\ge1/2$",
    hypotheses=[
        WN_LOCAL_MIN_PL,
        W_N_CRITICAL,
        "two layers: H_1 exact (Lemma 8 [derived])",
        "NOT covered: p = 1 gives L = 2 and non-Lipschitz gradients (Assumption 1)",
    ],
)
def theorem_7_relu(ctx: Context) -> None:
    # full keeps quick's step on a grid 4x deeper (2^-7 against 2^-5): E(delta) ~ delta at the smallest point
    # while the GD map's floor at the kinks is ~ eta, so E is undecided on 4 of full's 20 systems. Measured at
    # eta / 4 (--set eta=0.00025): those 4 are decided (orders 1.06, 0.78, 1.09, 1.49), but one other's floor
    # then swallows a point (the chatter floor is erratic in eta, _flow_error) and one NCF grows 5e15-fold by
    # T (grid below the resolved offset), so full stays undecided, at 4x the cost (12 CPU-min)
    eta = ctx.param("eta", tiny=2e-3, quick=1e-3)
    T = ctx.param("T", tiny=2.0, quick=3.0)
    seeds = ctx.param("seeds", tiny=1, quick=3, full=10)
    deltas_n = ctx.param("deltas", tiny=4, quick=6, full=8)
    budget = ctx.param("search_budget", tiny=3, quick=20, full=80)
    rows, cases = [], {}
    for alpha in (0.5, 0.0):
        for seed in range(seeds):
            deltas, steps_E, drift, coupling, kinks, wn, system, data = _relu_case(
                ctx, alpha, seed, 2, T, eta, deltas_n
            )
            cases[alpha, seed] = (deltas, wn, system, data)
            E, e_floor, fit, shift = _flow_error(deltas, *steps_E)
            slopes = np.diff(np.log(E)) / np.diff(np.log(deltas)) if np.isfinite(fit) else np.full(1, np.nan)
            c_fit = _fitted_order(deltas, coupling)
            rows.append((alpha, seed, fit, shift, float(slopes.min()), float(slopes.max()), kinks, c_fit))
            floor = RESOLVED_OFFSET * np.finfo(float).eps * float(np.linalg.norm(wn))
            if deltas.min() < floor:
                why = (
                    f"delta grid {deltas.min():.3g}..{deltas.max():.3g} (0.1 / max_t |u_1|, max_t |u_1| = "
                    f"{0.1 / deltas.max():.3g}: the NCF ascent grew that much by T) reaches below "
                    f"{RESOLVED_OFFSET:g} eps |w_n bar| = {floor:.3g}: w_n bar + delta n rounds to within a "
                    "factor 1e3 of w_n bar, so the drift and E are round-off there and their orders undefined"
                )
                for what in ("max_t |w_n(t) - w_n bar|", "the coupling", "E(delta) (eq. 42, beta_2)"):
                    ctx.undecided(f"alpha={alpha} seed {seed}: fitted order of {what}", why)
                continue
            ctx.bound(
                f"alpha={alpha} seed {seed}: fitted order of max_t |w_n(t) - w_n bar|",
                _fitted_order(deltas, drift),
                0.8,
                side=">=",
                why="[derived] the start's offset delta n (|n| = 1) relaxes under PL, so the max is delta, "
                "at t = 0 (order 1); what catches a violation is w_n leaving its start's delta-ball within "
                "the window, an excursion of order < 0.8 (the non-critical control: order ~0). What the "
                "small weights do to w_n is the coupling check",
            )
            ctx.bound(
                f"alpha={alpha} seed {seed}: fitted order of the coupling",
                c_fit,
                0.5,
                side=">=",
                why="coupling = max_t |w_n(t) - w_n^0(t)|, w_n^0 from the same start with w_z = 0. "
                "Theorem 7: O(delta^beta_1), beta_1 = 1/2 under PL, here with the start's offset taken "
                "out (w_n^0 relaxes it alone); [derived] two layers: the small weights enter w_n's gradient "
                "through the residual, O(|w_z|^2) = O(delta^2 |u_1|^2), so an order near 2 is expected "
                "(measured in the note)",
            )
            e_name = f"alpha={alpha} seed {seed}: fitted order of E(delta) (eq. 42, beta_2)"
            if shift >= UNDECIDED_TOL:
                ctx.undecided(
                    e_name,
                    f"E's step floor |E(eta) - E(eta/2)| (largest {np.max(e_floor):.3g}) moves the flow's "
                    f"order by {shift:.3g} >= {UNDECIDED_TOL} (inf: it swallows a point): it cannot tell "
                    "order 1 from the threshold 1/2 (_flow_error)",
                )
            else:
                ctx.bound(
                    e_name,
                    fit,
                    0.5 - shift,
                    side=">=",
                    why="Theorem 7 with PL gives beta_2 = min(K - L, beta_1, 1) >= 1/2; the smooth "
                    "analogue (kumar2025:theorem-7) has beta_2 = 1 over this O(1) window (L = 2), where the "
                    "O(delta) offset of w_n perturbs y bar by O(delta); a kink crossed at a delta-dependent "
                    "time would show as a slope break. The statement is about the flow: the order of the "
                    "Richardson estimate 2E(eta/2) - E(eta), the threshold 1/2 less the largest move "
                    f"{shift:.3g} of that order by its step floor |E(eta) - E(eta/2)| (_flow_error)",
                )
            ctx.figure(
                f"alpha={alpha} seed {seed}: E(delta)",
                xlabel="delta",
                ylabel="E",
                series=[
                    Series("E at eta", deltas, steps_E[0], "o"),
                    Series("E at eta / 2", deltas, steps_E[1], "x"),
                    Series("|E(eta) - E(eta/2)| (step floor)", deltas, e_floor, "--"),
                ],
                logx=True,
                logy=True,
            )
    ctx.note(
        "Measured (alpha, seed, fitted order of the flow's E, its step floor's shift of that order, local "
        "slope range, kink events of u_1, fitted order of the coupling): "
        + "; ".join(
            f"({r[0]}, {r[1]}, {r[2]:.2f}, {r[3]:.3f}, {r[4]:.2f}..{r[5]:.2f}, {r[6]}, {r[7]:.2f})"
            for r in rows
        )
        + ". E(delta) is measured with the exact GD map on the loss and the NCF at step eta and again at "
        "eta / 2 (twice the steps, the same starts); the flow's E is the Richardson estimate 2E(eta/2) - "
        "E(eta) with uncertainty |E(eta) - E(eta/2)| (_flow_error). The GD map is not free of "
        "discretization error: where w_z / delta and u_1 cross an activation surface a step apart it jumps "
        "by O(eta) for every delta, so E at a fixed eta can level off at a floor proportional to eta; "
        "hundreds of kink events mean GD slides (chatters) along an activation surface. The earlier "
        "adaptive-solver attempt gave order ~0.36 for leaky ReLU, also an integrator effect at the kinks."
    )
    search_rng = ctx.rng("relu-search").host
    X = search_rng.normal(size=(10, 3))
    n_dir = normalize(search_rng.normal(size=4))
    k = RELU_NEW * 4
    gauss = [search_rng.normal(size=k + 6) for _ in range(3)]
    one = gauss[2].copy()
    one[[3, 4, 5, 7]] *= 1e-3  # neuron 2's (a_2, b_2): z's last 3 + 1 entries of the a block, b_2
    seen: list[dict] = []
    ctx.search(
        "search: worst shortfall of the three fitted orders over z, the target and alpha",
        partial(_relu_violation, ctx, X, n_dir, T, eta, deltas_n, seen),
        {
            "leaky ReLU (alpha = 1/2): Gaussian z and target": [np.concatenate([[1.0], gauss[0]])],
            "ReLU (alpha = 0): Gaussian z and target": [np.concatenate([[-1.0], gauss[1]])],
            "ReLU: one new neuron active (the other at 1e-3)": [np.concatenate([[-1.0], one])],
        },
        budget=budget,
        why="the statement for every start direction z, every target sigma(Xu) - sigma(Xv) whose one-neuron "
        "fit is a clean PL local minimum, and both activations: Nelder-Mead over (alpha's sign, z, u, v) on "
        "Gaussian data (n = 10, d = 3), the per-instance check of the drift, coupling and flow's E orders "
        "against the same thresholds 0.8, 1/2, 1/2 as their shortfall over allowance (see _relu_violation); "
        "an instance outside the hypotheses or with an unresolved delta grid counts 0, an E dominated by "
        "its step floor (undecidable) counts 0 for E",
    )
    measured = [r for r in seen if "orders" in r]
    undecided = [r for r in measured if r["undecided"]]
    worst = max(measured, key=lambda r: r["ratio"], default=None)
    floored = max(undecided, key=lambda r: np.max(r["floor"]), default=None)
    ctx.note(
        f"Search: {len(measured)} of {len(seen)} instances inside the hypotheses and measured "
        f"({len(seen) - len(measured)} outside: no clean PL fit or delta grid below the resolved offset); "
        f"E undecidable on {len(undecided)} of them (its step floor moves the flow's order by >= "
        f"{UNDECIDED_TOL}: ratio 0 for E)"
        + (
            f"; worst (alpha = {worst['alpha']}): fitted orders of drift, coupling, flow's E = "
            f"{', '.join(f'{o:.2f}' for o in worst['orders'])} (E's floor shift {worst['shift']:.3g}), "
            f"{worst['kinks']} kink events of u_1"
            if worst
            else ""
        )
        + (
            f"; largest floor (alpha = {floored['alpha']}, {floored['kinks']} kink events): E at the "
            f"smallest delta {floored['E'][0][-1]:.3g} at eta -> {floored['E'][1][-1]:.3g} at eta / 2 "
            "(a level that halves with the step is the GD map's floor at the kinks, not the flow's E)"
            if floored
            else ""
        )
    )
    ctx.note(
        "Scope: two-layer nets only, where H_1 is exact for any sigma; in deeper ReLU nets Assumption 1 "
        "itself fails at kinks (catalog, kumar2025:lemma-8 kink case), not tested here. Alignment with a "
        "KKT point at T_eps is not checked: for L = 2 it needs T ~ log(1/eps)/gap, beyond this window."
    )
    with ctx.control(
        "(w_n bar, 0) not critical: b_1 scaled by 1.3",
        breaks=W_N_CRITICAL,
        must_break=["alpha=0.5 seed 0: fitted order of max_t |w_n(t) - w_n bar|"],
    ):
        deltas, wn, (loss_grad, n_dir, z, d, new, steps), _ = cases[0.5, 0]
        bad = wn.copy()
        bad[d] *= 1.3
        w0 = np.stack([_assemble(bad + dl * n_dir, dl * z, d, new) for dl in deltas])
        wn_t, _ = _split(_gd_paths(loss_grad, w0, eta, steps), d, new)
        ctx.bound(
            "alpha=0.5 seed 0: fitted order of max_t |w_n(t) - w_n bar|",
            _fitted_order(deltas, np.linalg.norm(wn_t - bad, axis=2).max(axis=0)),
            0.8,
            side=">=",
            why="as above",
        )
    drift0 = "alpha=0.0 seed 0: fitted order of max_t |w_n(t) - w_n bar|"
    with ctx.control(
        "ReLU: a sample added on w_n bar's kink, its target of b_1's sign (critical, not a local minimum)",
        breaks=WN_LOCAL_MIN_PL,
        must_break=[drift0],
    ):
        _, wn, (_, n_dir, z, d, _, _), (X, y) = cases[0.0, 0]
        Xk, yk, n_k = _kink_sample(X, y, wn, n_dir, ctx.rng("kink-sample").host)
        ybar = yk - output(unpack(wn[None], [(1, d), (1, 1)]), Xk, 0.0, 1)[0]
        deltas, _, drift, *_ = _relu_paths(Xk, yk, wn, ybar, 0.0, z, n_k, T, eta, deltas_n)
        ctx.bound(
            drift0,
            _fitted_order(deltas, drift),
            0.8,
            side=">=",
            why="as above. [derived] The sample x_k (a'x_k = 0 at w_n bar) adds sigma(0) = 0 to the output "
            "and, with sigma'(0) = 0, nothing to the gradient: w_n bar stays critical (Clarke: the one-sided "
            "derivatives along x_k are 0 and -2 y_k b_1 |x_k|^2, whose hull holds 0), but y_k b_1 > 0 makes "
            "the active side a descent direction of first order, so w_n bar is no local minimum. The "
            "start's offset n (its sign chosen so that n_a'x_k > 0; the statement is for every n) activates "
            "x_k: w_n moves an O(1) distance in O(1) time whatever delta (order ~0). The kink alone does not "
            "break it: y_k of the other sign (still on the kink, a local minimum) keeps the order (0.994, "
            "tiny, measured)",
        )


def _kink_sample(X: np.ndarray, y: np.ndarray, wn: np.ndarray, n_dir: np.ndarray, rng: np.random.Generator):
    r"""``(X, y)`` with one sample on the kink of :math:`\bar w_n=(a,b)`: :math:`x_k\perp a` (a Gaussian
    draw projected, scaled to the data's mean norm), :math:`y_k=\operatorname{sign}(b)\max|y|`; and the
    offset direction ``n_dir`` signed so that its a-part activates :math:`x_k` (for the control of
    ``WN_LOCAL_MIN_PL`` in :func:`theorem_7_relu`)."""
    d = X.shape[1]
    a = wn[:d] / np.linalg.norm(wn[:d])
    x = rng.normal(size=d)
    x_k = normalize((x - (x @ a) * a)[None])[0] * np.linalg.norm(X, axis=1).mean()
    y_k = np.sign(wn[d]) * np.abs(y).max()
    return np.vstack([X, x_k]), np.append(y, y_k), n_dir if n_dir[:d] @ x_k > 0 else -n_dir


# ---------------------------------------------------------------- stable sets (Def. 2.1)


def _quadratic_ncf(X: np.ndarray, q: np.ndarray) -> NeuronNCF:
    r"""Per-neuron NCF of a two-layer :math:`x^2` net, :math:`h(a,b)=b\,a^\top Ma`,
    :math:`M=\sum_iq_ix_ix_i^\top` (Sec. 3.3 with :math:`g_0=x`, :math:`q_i=\bar y_i`)."""
    return NeuronNCF(X.T[None], q[None, None, :], 1.0, 2)


def _basins(ncf: NeuronNCF, starts: np.ndarray, step: float, iters: int):
    r"""PGA limits from every start, labelled by the eigenvector of :math:`M` they align with.

    The spherical flow is a time change of the NCF flow (6) (:math:`\dot{\hat u}=\|u\|^{L-2}
    (I-\hat u\hat u^\top)\nabla\mathcal N(\hat u)`), so PGA with a small step has the stable sets of
    Def. 2.1.  Returns ``(labels, signs of b, KKT cosines, limits, eigenvalues of M)``; label ``j`` =
    eigenvector ``j`` (ascending eigenvalues) of the largest :math:`|v_j^\top a|`."""
    u, _ = projected_gradient_ascent(ncf.value_and_grad, starts[None], step=step, iters=iters)
    u = u[0]
    cos = kkt_cosine(u, ncf.value_and_grad(u[None])[1][0])
    M = (ncf.G[0] * ncf.Q[0, 0]) @ ncf.G[0].T
    _, V = np.linalg.eigh(M)
    labels = np.argmax(np.abs(u[:, : ncf.k_in] @ V), axis=1)
    return labels, np.sign(u[:, ncf.k_in]), cos, u, np.linalg.eigvalsh(M)


def _spectrum(theta) -> np.ndarray:
    r"""A spectrum of :math:`M` (ascending, d = 4) inside the claim's hypothesis from ``theta`` (5 numbers):
    :math:`\|M\|=1` at the top (theta[0] > 0: :math:`\mu_{\max}=1`, :math:`\mu_{\min}\in[-1,-0.2]`) or at the
    bottom (:math:`\mu_{\min}=-1`, :math:`\mu_{\max}\in[0.2,1]`), theta[1] squashed to the other end, and the
    three gaps :math:`0.1+` the rest of the range split by the softmax of theta[2:5]."""
    other = squash(theta[1], 0.2, 1.0)
    lo, hi = (-other, 1.0) if theta[0] > 0 else (-1.0, other)
    w = np.exp(theta[2:5] - np.max(theta[2:5]))
    gaps = 0.1 + (hi - lo - 0.3) * w / w.sum()
    return lo + np.concatenate([[0.0], np.cumsum(gaps)])


def _stable_set_violation(V, starts, step: float, iters: int, seen: list, theta) -> float:
    r"""The worst of the claim's per-instance checks on the spectrum ``_spectrum(theta)`` (M = V diag(mu)
    V^T; the eigenvectors do not matter: :math:`(a,b)\mapsto(Qa,b)` maps the flow of M to that of
    :math:`QMQ^\top` and the uniform starts to themselves): the fraction of starts not at a KKT point over
    its 1%, the balance deviation over its derived tolerance, and :math:`\infty` for any converged limit
    other than the top (b > 0) / bottom (b < 0) eigen-KKT points (that check's bound is 0).  ``seen`` gets
    the spectrum and the basin fractions (for the attainability test on the smallest basin)."""
    mu = _spectrum(np.asarray(theta, float))
    d = mu.size
    ncf = _quadratic_ncf(V.T, mu)
    labels, signs, cos, u, _ = _basins(ncf, starts, step, iters)
    converged = cos > 1 - 1e-8
    top, bottom = (labels == d - 1) & (signs > 0), (labels == 0) & (signs < 0)
    grad = ncf.value_and_grad(u[None])[1][0]
    lam = (grad * u).sum(axis=1)
    residual = float(np.max(np.linalg.norm(grad - lam[:, None] * u, axis=1)[converged] / lam[converged]))
    a, b = u[:, :d], u[:, d]
    dev = np.abs(np.stack([np.sqrt(3) * np.abs(b), 1.5 * (a**2).sum(axis=1)])[:, converged] - 1).max()
    tol = 1.5 * residual + 64 * float(np.finfo(float).eps)
    seen.append({"mu": mu, "basins": (float(top.mean()), float(bottom.mean()))})
    wrong = bool((~(top | bottom))[converged].any())
    return max(float(1 - converged.mean()) / 0.01, float(dev) / tol, np.inf if wrong else 0.0)


ATTAINABLE = 0.01  # Remark 1's "attainable", read as: at least 1% of uniform unit starts
HALF_DETECT = 0.06  # the symmetric family's P = 1/2 is checked against an asymmetry of 6 points


def _half(ctx: Context, k: int, R: int) -> None:
    r"""P(top basin) = 1/2 for the symmetric spectrum: the exact two-sided test of P = 1/2.

    :math:`(a,b)\mapsto(Qa,-b)` with :math:`QV=VP` (P swaps :math:`\mu` and :math:`-\mu`) is an
    isometry mapping :math:`h` to itself and swapping the two basins, so the probability is exactly 1/2;
    the test must reject a 6-point asymmetry either way with 80% power (R >= 1000 starts at 99%)."""
    ctx.probability(
        "P(top basin) = 1/2",
        k,
        R,
        equals=0.5,
        detect=0.5 - HALF_DETECT,
        why="the basin-swapping isometry (a, b) -> (Qa, -b) of the symmetric spectrum",
    )


@claim(
    "kumar2025:definition-2.1",
    title="Stable sets of the per-neuron NCF: limits are KKT points, several are attainable",
    source="Def. 2.1, Remark 1, Lemmas 10-11, Algorithm 1 (H restarts)",
    statement=r"From uniform unit starts the NCF flow of $h(a,b)=b\,a^\top Ma$ ($\sigma=x^2$) converges in "
    r"direction to a positive second-order KKT point: $a=\pm\sqrt{2/3}\,v$, $b=\pm1/\sqrt3$, $v$ the top "
    r"(b > 0) or bottom (b < 0) eigenvector of $M$; both stable sets have positive measure (Remark 1); "
    r"a spectrum symmetric under $M\to-M$ gives each probability exactly 1/2",
    hypotheses=[
        r"$\mu_{\max}(M)>0>\mu_{\min}(M)$, simple (here $\|M\|=1$, $\mu_{\max},-\mu_{\min}\ge0.2$, gaps "
        r"$\ge0.1$, so the PGA budget converges)",
        "uniform starts on the unit sphere",
        SYMMETRIC_SPECTRUM,
    ],
)
def stable_sets(ctx: Context) -> None:
    R = ctx.param("starts", tiny=1000, quick=2000, full=40_000)
    iters = ctx.param("iters", tiny=800, quick=800, full=3000)  # tiny 400: 10% unconverged at gap 0.1
    budget = ctx.param("search_budget", tiny=8, quick=30, full=100)
    # The search scores each spectrum on S starts (its 300 evaluations on R = 40 000 ran past 1.7 h at
    # full): the non-KKT fraction's 1% bound is then resolved to 3 sqrt(0.01 * 0.99 / S) = 0.47 points at
    # S = 4000; Remark 1's probabilities on the searched spectrum use R fresh starts.
    S = ctx.param("search_starts", tiny=1000, quick=2000, full=4000)
    rng = ctx.rng("data").host
    d = 4
    V = np.linalg.qr(rng.normal(size=(d, d)))[0]
    mu = np.array([1.0, 0.4])
    q = np.concatenate([mu, -mu])  # symmetric spectrum: M = V diag(q) V^T and -M are conjugate
    while True:  # Gaussian data meeting the hypothesis: |M| = 1, mu_max, -mu_min >= 0.2, gaps >= 0.1
        Xg, qg = rng.normal(size=(10, d)), rng.normal(size=10)
        qg /= np.linalg.norm((Xg.T * qg) @ Xg, 2)
        mus = np.linalg.eigvalsh((Xg.T * qg) @ Xg)
        if min(mus[-1], -mus[0]) >= 0.2 and np.diff(mus).min() >= 0.1:
            break
    cases = {"Gaussian data (n = 10)": (Xg, qg)}
    cases["symmetric spectrum"] = (V.T, q)
    step = 0.2  # Algorithm 1's PGA step (App. C.1.1); |M| = 1 so step * curvature < 1
    for name, (X, qs) in cases.items():
        ncf = _quadratic_ncf(X, qs)
        starts = normalize(rng.normal(size=(R, d + 1)))
        labels, signs, cos, u, mus = _basins(ncf, starts, step, iters)
        converged = cos > 1 - 1e-8
        ctx.bound(
            f"{name}: fraction of starts not at a KKT point (cos < 1 - 1e-8)",
            float(1 - converged.mean()),
            0.01,
            why="the stable manifolds of the saddle KKT points have measure 0; starts within ~1e-3 of "
            "them need more than the iteration budget (PGA contracts by (1 - step gap) per step)",
        )
        a, b = u[:, :d], u[:, d]
        top, bottom = (labels == d - 1) & (signs > 0), (labels == 0) & (signs < 0)
        ctx.bound(
            f"{name}: fraction of limits other than the top (b > 0) / bottom (b < 0) eigen-KKT points",
            float(1 - (top | bottom)[converged].mean()),
            0.0,
            why="only the second-order KKT points attract (the others are saddles on the sphere); "
            "any count > 0 refutes it",
        )
        grad = ncf.value_and_grad(u[None])[1][0]
        lam = (grad * u).sum(axis=1)
        kkt_residual = float(
            np.max(np.linalg.norm(grad - lam[:, None] * u, axis=1)[converged] / lam[converged])
        )
        ctx.close(
            f"{name}: |b| = 1/sqrt(3), |a|^2 = 2/3 at every limit (Lemma 19 balance, p = 2)",
            np.stack([np.sqrt(3) * np.abs(b), 1.5 * (a**2).sum(axis=1)])[:, converged],
            1.0,
            atol=1.5 * kkt_residual + 64 * float(np.finfo(float).eps),
            why="[derived] at a unit limit with KKT residual r = grad - lambda u, Euler in a (degree 2) "
            "and b (degree 1) gives g := |a|^2 - 2 b^2 = (2 b.r_b - a.r_a)/lambda, so |g| <= 2 |r|/lambda "
            "(|(-a, 2b)| <= 2); then sqrt(3)|b| = sqrt(1 - g) and 1.5|a|^2 = 1 + g/2 are within "
            f"0.67 |g| <= 1.34 |r|/lambda of 1 (|g| <= 0.75); max |r|/lambda = {kkt_residual:.2g} over the "
            "converged limits, 64 eps rounding. Resolution: a constant off by more than that "
            "(|a|^2 = |b|^2 would give 3/4, not 1); Euler's identity at approximate KKT points: it tests "
            "the stated constants and the limits' convergence, not the existence of the limits",
        )
        k = np.array([top.sum(), bottom.sum()])
        values = 2 * np.abs(mus[[-1, 0]]) / (3 * np.sqrt(3))
        ctx.probability(
            f"{name}: P(top basin), P(bottom basin) >= 1% each (Remark 1: both attainable)",
            k,
            R,
            at_least=ATTAINABLE,
            detect=ATTAINABLE / 10,
            why="both second-order KKT points have open stable sets, so both are attainable; 'positive "
            "measure' cannot be refuted by sampling, so it is read as 'at least 1% of uniform starts' "
            "(a basin below 0.1% is missed by all H = 10 restarts of Algorithm 1 with probability 0.99)",
        )
        ctx.note(
            f"{name}: KKT values (top, bottom) = {values.round(4).tolist()}; basin probabilities "
            f"{(k / R).round(4).tolist()}; P(H = 10 restarts all miss the dominant one) ~ "
            f"{float((1 - k[np.argmax(values)] / R) ** 10):.2e}"
        )
        if name == "symmetric spectrum":
            ctx.regime(SYMMETRIC_SPECTRUM, asymmetry=float(np.abs(mus + mus[::-1]).max() / np.abs(mus).max()))
            _half(ctx, int(k[0]), R)
    seen: list[dict] = []
    search_rng = ctx.rng("spectrum-search").host
    ctx.search(
        "search: worst of the per-spectrum checks over the spectra of the hypothesis",
        partial(_stable_set_violation, V, normalize(search_rng.normal(size=(S, d + 1))), step, iters, seen),
        {
            "|M| at the top, equal gaps": [np.zeros(5)],
            "|M| at the bottom, mu_max -> 0.2": [np.array([-1.0, -3.0, 0.0, 0.0, 0.0])],
            "a gap near the edge 0.1 (top pair nearly degenerate)": [np.array([1.0, 1.0, 0.0, 0.0, -4.0])],
        },
        budget=budget,
        why="the statement for every M meeting the hypothesis (|M| = 1, mu_max, -mu_min >= 0.2, gaps >= 0.1; "
        "M's eigenvectors are irrelevant, see _stable_set_violation): Nelder-Mead over the spectrum "
        f"(_spectrum), the same {S} starts for every spectrum; ratio = max(non-KKT fraction / 0.01, balance "
        "deviation / its derived tolerance, inf for any limit other than the two eigen-KKT points)",
    )
    small = min(seen, key=lambda r: min(r["basins"]))
    labels, signs, *_ = _basins(
        _quadratic_ncf(V.T, small["mu"]), normalize(search_rng.normal(size=(R, d + 1))), step, iters
    )
    k = np.array([((labels == d - 1) & (signs > 0)).sum(), ((labels == 0) & (signs < 0)).sum()])
    ctx.probability(
        "search's smallest basin: P(top basin), P(bottom basin) >= 1% each (fresh starts)",
        k,
        R,
        at_least=ATTAINABLE,
        detect=ATTAINABLE / 10,
        why=f"Remark 1 on the searched spectrum whose smaller basin fraction was smallest, mu = "
        f"{np.round(small['mu'], 3).tolist()} (fraction {min(small['basins']):.3g} on the search's starts), "
        "tested on fresh uniform starts so that the selection does not bias the test; as the per-instance "
        "check",
    )
    with ctx.control(
        "spectrum (1, 0.4, -0.25, -0.1): not symmetric",
        breaks=SYMMETRIC_SPECTRUM,
        must_break=["P(top basin) = 1/2*"],
    ):
        ncf = _quadratic_ncf(V.T, np.concatenate([mu, -0.25 * mu]))
        labels, signs, *_ = _basins(ncf, normalize(rng.normal(size=(R, d + 1))), step, iters)
        _half(ctx, int(((labels == d - 1) & (signs > 0)).sum()), R)


# ---------------------------------------------------------------- Figure 6 (App. C)


def _fig6_target(X: np.ndarray) -> np.ndarray:
    r""":math:`f(x)=\sigma(\sigma(2x_1+x_3)-\sigma(x_3-x_2))`, ReLU (App. C, Fig. 6)."""
    relu = RELU.value
    return relu(relu(2 * X[:, 0] + X[:, 2]) - relu(X[:, 2] - X[:, 1]))


def _hypercube(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    return rng.choice(np.array([-1.0, 1.0]), size=(n, d))


def unseen(X_test: np.ndarray, X: np.ndarray) -> np.ndarray:
    """The rows of ``X_test`` that are not rows of the training inputs ``X``: on a finite input space (the
    hypercube {-1, 1}^d has 2^d points) fresh draws repeat training points, so a test error on them would
    be partly a training error (d = 10, n = 300: 26% of the test draws); on continuous draws a no-op."""
    seen = {row.tobytes() for row in np.ascontiguousarray(X)}
    return X_test[[row.tobytes() not in seen for row in np.ascontiguousarray(X_test)]]


def pursue(ctx: Context, X: np.ndarray, y: np.ndarray, cfg: PursuitConfig, rng: np.random.Generator):
    """Neuron Pursuit on ``ctx.backend`` for host data ``X``, ``y`` (copied there); the result's weights
    are copied back to the host."""
    return neuron_pursuit(ctx.backend.asarray(X), ctx.backend.asarray(y), cfg, rng).on_host()


def _fig6_run(ctx: Context, run: int, cfg: PursuitConfig, n: int, n_test: int):
    """One NP run: (result, the iteration-1 KKT direction's smallest |W_1| entry on x_1..x_3 over its
    largest off them, relative test error, off-support fraction of the final W_1)."""
    X = _hypercube(ctx.rng(f"fig6-data-{run}").host, n, 20)
    y = _fig6_target(X)
    # first_direction is the first draw NP makes from its generator: same seed, same KKT point
    w_first = first_direction(
        ctx.backend.asarray(X), ctx.backend.asarray(y), cfg, ctx.rng(f"fig6-np-{run}").host
    )
    w_first = [to_numpy(W) for W in w_first[0]]
    res = pursue(ctx, X, y, cfg, ctx.rng(f"fig6-np-{run}").host)
    X_test = unseen(_hypercube(ctx.rng(f"fig6-test-{run}").host, n_test, 20), X)
    y_test = _fig6_target(X_test)
    err = float(np.linalg.norm(res.predict(X_test, cfg) - y_test) / np.linalg.norm(y_test))
    W1 = res.weights[0]
    w1 = np.abs(w_first[0][0, 0])
    support = float(w1[:3].min() / w1[3:].max())
    return res, support, err, float(np.linalg.norm(W1[:, 3:]) / np.linalg.norm(W1))


# "the paper's run is NP's typical outcome" (a judgement, not the paper's words): at least half the draws
FIG6_TYPICAL = 0.5
FIG6_DETECT = 0.2  # the violation the frequency check exists to catch: Fig. 6 reproduced in 1 draw of 5


def _fig6_exact(res, err: float, off: float) -> bool:
    """Fig. 6 reproduced: NP stopped at its tolerance after 2 iterations, the second inserting in layer 1,
    with off-support first-layer weights and hypercube test error below 1e-8."""
    return res.converged and len(res.steps) == 2 and res.steps[1].layer == 1 and err < 1e-8 and off < 1e-8


def _fig6_forced(ctx: Context, run: int, cfg: PursuitConfig, n_test: int) -> float:
    """The control's run on seed ``run``: NP's first iteration, then the second neuron forced into layer 2
    (the top of PGA on that layer's candidate NCF) and GD: the hypercube test error (1 when the first NCF
    is degenerate: no first neuron, as in the main runs)."""
    X = _hypercube(ctx.rng(f"fig6-data-{run}").host, 500, 20)
    y = _fig6_target(X)
    first = pursue(ctx, X, y, replace(cfg, max_iter=1), ctx.rng(f"fig6-np-{run}").host)
    if not first.steps:
        return 1.0
    Ws = [W[None] for W in first.weights]
    resid = y - output(Ws, X, cfg.alpha, cfg.p)[0]
    ncf = layer_candidates(Ws, X, resid[None], cfg.alpha, cfg.p)[1]
    u0 = normalize(
        ctx.rng(f"fig6-control-{run}").host.normal(size=(1, cfg.restarts, ncf.k_in + ncf.Q.shape[1]))
    )
    u, values = projected_gradient_ascent(ncf.value_and_grad, u0, step=cfg.ncf_step, iters=cfg.ncf_iters)
    j = int(np.argmax(values[0]))
    delta = cfg.delta_rel * float(np.linalg.norm(pack(Ws)))
    Ws = insert_neuron(Ws, 2, delta * u[0, j, : ncf.k_in], delta * u[0, j, ncf.k_in :])
    Ws, status = gradient_descent(Ws, X, y, cfg)
    if status != Status.SUCCESS:  # a finite error of diverged weights must not count as a break
        raise FloatingPointError(f"gradient descent after the forced insertion: {status.message}")
    X_test = unseen(_hypercube(ctx.rng(f"fig6-control-test-{run}").host, n_test, 20), X)
    y_test = _fig6_target(X_test)
    return float(np.linalg.norm(output(Ws, X_test, cfg.alpha, cfg.p)[0] - y_test) / np.linalg.norm(y_test))


@claim(
    "kumar2025:figure-6",
    title="Neuron Pursuit learns sigma(sigma(2x_1+x_3)-sigma(x_3-x_2)) exactly in 2 iterations",
    source="App. C, Fig. 6 (Algorithm 1, H = 5)",
    statement=r"On 500 samples uniform on $\{\pm1\}^{20}$, a 3-layer ReLU net: iteration 1's $\hat W_1$ is "
    r"dominated by $x_1..x_3$; iteration 2 adds a layer-1 neuron, the off-support weights go to 0 and the "
    r"learned function matches $f$ exactly on the hypercube",
    hypotheses=[
        "Algorithm 1 with H = 5 restarts, delta rules of App. C.1.1",
        INSERT_AT_L_STAR,
        "GD to convergence (steps, lr not given for Fig. 6: lr 5e-4 on the summed loss)",
        "the paper's single run is NP's typical outcome: P >= 1/2 over the data draw and NP's restarts (a "
        "judgement; the strict reading, every draw, is stated in the notes)",
    ],
)
def figure_6(ctx: Context) -> None:
    runs = ctx.param("runs", tiny=2, quick=40, full=40)
    runs_control = ctx.param("runs_control", tiny=1, quick=8, full=8)
    cfg = PursuitConfig(
        depth=3,
        alpha=0.0,
        p=1,
        restarts=5,
        lr=5e-4,
        gd_steps=ctx.param("gd_steps", tiny=800, quick=2000, full=20_000),
        ncf_iters=ctx.param("ncf_iters", tiny=200, quick=600, full=2500),
        max_iter=2,
    )
    if (cfg.gd_steps, cfg.ncf_iters) != (20_000, 2500):
        ctx.reduced_scale(
            f"{cfg.gd_steps} GD steps and {cfg.ncf_iters} PGA iterations per NP iteration instead of full's "
            "20000 and App. C.1.1's 2500 (the paper gives no GD budget for Fig. 6); n = 500, d = 20, H = 5 "
            "as the paper"
        )
    n_test = ctx.param("n_test", tiny=2000, quick=20_000, full=100_000)
    outcomes = [_fig6_run(ctx, run, cfg, 500, n_test) for run in range(runs)]
    exact = [_fig6_exact(res, err, off) for res, _, err, off in outcomes]
    k = sum(exact)
    reproduces = "Fig. 6 reproduced (2 iterations, layer-1 insertion, off-support |W_1|, test error < 1e-8)"
    ctx.probability(
        f"{reproduces}: P >= {FIG6_TYPICAL} over {runs} seeds",
        k,
        runs,
        at_least=FIG6_TYPICAL,
        detect=FIG6_DETECT,
        why=f"all {runs} data/restart seeds, declared before the runs, count. The paper shows one run as "
        "NP's behaviour and states no frequency: reading it as NP's typical outcome (P >= 1/2 over the "
        "draws) is a judgement, not the paper's; the strict reading, every draw reproduces Fig. 6, is "
        f"refuted by any miss ({k}/{runs} here, see the notes); 'exactly' in float64: GD "
        "drives off-support weights to 0 geometrically and the fit to the 500 samples to rounding "
        "(~1e-15), 1e-8 leaves room for the GD budget",
    )
    firsts = [s for r, s, *_ in outcomes if r.steps]
    ctx.bound(
        f"iteration-1 KKT direction: smallest |W_1| entry on x_1, x_2, x_3 over the largest off them (min "
        f"over the {len(firsts)} of {runs} seeds with a first neuron)",
        min(firsts),
        1.0,
        side=">=",
        why="'dominated by coordinates 1-3' is a reading of Fig. 6's heat map of W_1 hat (no number is "
        "stated): its three brightest columns are x_1..x_3, i.e. every on-support entry exceeds every "
        "off-support one; no threshold is chosen. Not a fraction of |W_1| above a constant: no constant is "
        "derivable (at a KKT point W_1 is prop. to g = sum_{x_i^T w > 0} y_i x_i, whose 17 off-support "
        "entries are sampling noise of variance s^2 = sum y_i^2 for a fixed active set, but the ascent "
        "selects the active set with the noise: measured |g_off|^2/s^2 averages 25 over 32 seeds at quick "
        "against chi^2_17's 17, so a chi^2 quantile is no bound). The ranking fails where the direction "
        "lost x_2 or x_3 into the noise (their entries are 3-7 noise standard deviations here, x_1's 13) or "
        "picked a spurious coordinate; a direction without preference for x_1..x_3 ranks them first with "
        "probability 1/C(20, 3) = 1/1140",
        resolution="an off-support entry of W_1 hat as large as the smallest of x_1, x_2, x_3's in any seed",
    )
    ctx.holds(
        "every insertion lowered the loss (Lemmas 12/13), every seed",
        all(s.descent for r, *_ in outcomes for s in r.steps),
        measured=[[s.loss_before - s.loss_inserted for s in r.steps] for r, *_ in outcomes],
        expected="loss_inserted < loss_before",
        why="strict decrease is the lemmas' conclusion; Lemma 13 is outside its hypotheses for ReLU",
    )
    lo, hi = wilson(k, runs, conf=0.99)
    dead = sum(r.reason == "degenerate NCF" for r, *_ in outcomes)
    other = sum(r.reason == "max_iter" and len(r.steps) == 2 for r, *_ in outcomes)
    ctx.note(
        f"Strict reading (the paper's single run is what NP always does): {k}/{runs} seeds reproduce "
        f"Fig. 6, so it fails on {runs - k} seeds; the verdict rests on the judgement P >= {FIG6_TYPICAL}."
    )
    ctx.note(
        f"{k}/{runs} seeds reproduce Fig. 6 exactly (99% Wilson [{float(lo):.2f}, {float(hi):.2f}]); {dead} "
        "stopped at the first NCF step ('degenerate NCF'): no H = 5 PGA restart of eq. 7 ended with a "
        "positive NCF (dead ReLU units; e.g. every start with w_2 < 0 has NCF 0 and zero gradient); "
        f"{other} ended 2 iterations at another stationary point (GD stalls at relative error ~0.25). "
        "Measured outside this claim on seeds 0-11: the same 5 / 3 / 4 split at quick's and at full's "
        "budget (the failures are not the GD budget's). Per seed (stop reason, iterations, test error): "
        + ", ".join(f"{r.reason} {len(r.steps)} {e:.2g}" for r, _, e, _ in outcomes)
        + "."
    )
    with ctx.control(
        "the new neuron is forced into layer 2",
        breaks=INSERT_AT_L_STAR,
        must_break=["Fig. 6 reproduced*"],
    ):
        errs = [_fig6_forced(ctx, run, cfg, n_test) for run in range(runs_control)]
        ctx.probability(
            f"{reproduces}: P >= {FIG6_TYPICAL} over {runs_control} seeds",
            sum(e < 1e-8 for e in errs),
            runs_control,
            at_least=FIG6_TYPICAL,
            detect=FIG6_DETECT,
            why="as above, on seeds 0.. of the main runs with the second neuron forced into layer 2 (the "
            "test error is the part of the conclusion the forced layer can break; errors "
            + ", ".join(f"{e:.2g}" for e in errs)
            + ")",
        )


# ---------------------------------------------------------------- Figure 7 (Sec. 5.2.1)


def _sphere(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    r"""``n`` points uniform on :math:`\sqrt d\,\mathbb S^{d-1}`."""
    Z = rng.normal(size=(n, d))
    return np.sqrt(d) * Z / np.linalg.norm(Z, axis=1, keepdims=True)


def _f1(X: np.ndarray) -> np.ndarray:
    r""":math:`f_1(x)=\sigma(\sigma(2x_1+x_2)-\sigma(x_3-x_4))`, ReLU (Sec. 5.2.1)."""
    relu = RELU.value
    return relu(relu(2 * X[:, 0] + X[:, 1]) - relu(X[:, 2] - X[:, 3]))


Target = Callable[[np.ndarray], np.ndarray]
Draw = Callable[[np.random.Generator, int, int], np.ndarray]
Run = tuple[PursuitResult, float, float]  # (NP's result, relative training error, relative test error)

TEST_TOL = 1e-2  # "near-zero test error" read as < 1% (Figs. 7-11)


def _np_run(
    ctx: Context,
    key: str,
    f: Target,
    draw: Draw,
    n: int,
    d: int,
    cfg: PursuitConfig,
    lr_mean: float,
    n_test: int,
) -> Run:
    """NP on ``n`` samples of ``f`` drawn by ``draw`` (step ``lr_mean / n`` on the summed loss, i.e.
    ``lr_mean`` on the mean loss): (result, relative training error, relative test error on the
    ``n_test`` fresh samples that are not training inputs, :func:`unseen`).  A degenerate first NCF (no
    insertion) has training error 1."""
    rng = ctx.rng(key).host
    X = draw(rng, n, d)
    res: PursuitResult = pursue(ctx, X, f(X), replace(cfg, lr=lr_mean / n), rng)
    train = res.steps[-1].rel_error if res.steps else 1.0
    X_test = unseen(draw(rng, n_test, d), X)
    if not len(X_test):  # a finite input space the training draws cover: no unseen input to test on
        return res, train, float("nan")
    y_test = f(X_test)
    return res, train, float(np.linalg.norm(res.predict(X_test, cfg) - y_test) / np.linalg.norm(y_test))


def _fit_name(label: str, cfg: PursuitConfig, m: int) -> str:
    return f"{label}: NP reaches the training tolerance within {cfg.max_iter} iterations ({m} of {m} seeds)"


def _fit(ctx: Context, label: str, runs: list[Run], cfg: PursuitConfig, why: str) -> None:
    """The paper's stated iteration count: NP stops at its tolerance within the cap, in every seed.

    The tolerance is NP's stopping rule, so 'training error < tol' alone cannot fail once NP stopped
    there; what can fail is NP stopping at the cap (or at a degenerate NCF) above it."""
    ctx.holds(
        _fit_name(label, cfg, len(runs)),
        all(res.converged for res, *_ in runs),
        measured=[{"iterations": len(res.steps), "reason": res.reason, "train": tr} for res, tr, _ in runs],
        expected=f"every seed stops at relative training error < {cfg.tol} ('tolerance')",
        why=why,
        resolution="one seed of the run that needs more iterations than the cap (or whose first NCF is "
        "degenerate)",
    )


def _outcome(
    ctx: Context, label: str, runs: list[Run], cfg: PursuitConfig, strict: bool, why: str, *, paper: str
) -> None:
    """The paper's outcome for the large-``n`` runs over all declared seeds: NP fits within the cap
    (:func:`_fit`, ``why``) and the mean test error (the paper averages 20 runs) is near zero.

    ``strict`` (the paper's budget, or a scaled-down one that reaches NP's tolerance): both are decided.
    Otherwise, unless every seed reached the tolerance, the checks are undecided: the reduced budget
    (iteration cap or GD steps below ``paper``, the paper's NP budget), not NP, may be why a run stopped at
    ``max_iter``."""
    m = len(runs)
    gen = f"{label}: relative test error, mean over {m} seeds"
    test = float(np.mean([t for *_, t in runs]))
    if strict or all(res.converged for res, *_ in runs):
        _fit(ctx, label, runs, cfg, why)
        if np.isnan(test):
            ctx.undecided(
                gen,
                "the training draws cover the finite input space: no unseen input is left to test on (a test "
                "error there would repeat the training error)",
            )
            return
        ctx.bound(
            gen,
            test,
            TEST_TOL,
            why="'near-zero test error' read as < 1%, on the mean over the seeds as the paper averages its "
            "20 runs: the target is a finite net of the class, so a fit of the right function is exact up to "
            "GD convergence; one seed that learned a wrong function (test error ~0.1-1) moves the mean of "
            f"{m} past 1%",
            details={"per seed": [t for *_, t in runs]},
        )
    else:
        undecided = (
            f"a seed stopped at max_iter = {cfg.max_iter} with {cfg.gd_steps} GD steps per iteration, below "
            f"the paper's NP budget ({paper}): a run stopped at a reduced cap neither confirms nor refutes "
            "the claim (the reduced-scale label gives what the paper's budget costs here)"
        )
        ctx.undecided(_fit_name(label, cfg, m), undecided, measured=[tr for _, tr, _ in runs])
        ctx.undecided(gen, undecided, measured=None if np.isnan(test) else test)


def _small_n_control(ctx: Context, n_small: int, small: dict[str, list[Run]], cap: int) -> None:
    """The control of N_LARGE: the mean test error at ``n_small`` samples (``small``: label prefix -> the
    runs of every declared seed) must break the large-``n`` conclusion.  Only seeds where NP inserted a
    neuron count: an untrained net says nothing about the statement."""
    with ctx.control(
        f"n = {n_small} samples", breaks=N_LARGE, must_break=["*n = *: relative test error, mean over*"]
    ):
        for prefix, runs in small.items():
            trained = [(tr, t) for res, tr, t in runs if res.steps]
            label = f"{prefix}n = {n_small}: relative test error, mean over {len(trained)} seeds"
            if not trained:
                ctx.undecided(label, "NP stopped at a degenerate first NCF on every seed (no insertion)")
                continue
            ctx.bound(
                label,
                float(np.mean([t for _, t in trained])),
                TEST_TOL,
                why=f"as above, on the {len(trained)} of {len(runs)} seeds where NP inserted a neuron; NP "
                f"capped at {cap} iterations here, its training errors are "
                + ", ".join(f"{tr:.3g}" for tr, _ in trained),
            )


def _untrained(res) -> str:
    """Why NP never trained (no step logged), or '' when it did."""
    if res.steps:
        return ""
    return (
        f"NP stopped before its first GD run ('{res.reason}': none of the H = 10 restarts of the first NCF "
        "ascent ended with a positive NCF, so Algorithm 1 adds no neuron); the training and test errors "
        "of an untrained net say nothing about the statement"
    )


@claim(
    "kumar2025:figure-7",
    title="NP on f_1 over the sphere: near-zero training error at every n, test error -> 0 for large n",
    source="Sec. 5.2.1, Fig. 7 (f_1 panel)",
    statement=r"For $f_1=\sigma(\sigma(2x_1+x_2)-\sigma(x_3-x_4))$ on $\sqrt d\,\mathbb S^{d-1}$ "
    r"(3-layer ReLU), NP reaches relative training error $<10^{-3}$ at all sample sizes and near-zero test "
    r"error for large $n$",
    hypotheses=[N_LARGE, "Algorithm 1, H = 10"],
)
def figure_7(ctx: Context) -> None:
    d = ctx.param("d", tiny=6, quick=10, full=50)
    n_large = ctx.param("n_large", tiny=100, quick=300, full=3200)
    n_small = ctx.param("n_small", tiny=12, quick=15, full=100)
    cfg = PursuitConfig(
        depth=3,
        alpha=0.0,
        p=1,
        restarts=10,
        gd_steps=ctx.param("gd_steps", tiny=1000, quick=2500, full=70_000),
        ncf_iters=ctx.param("ncf_iters", tiny=300, quick=1000, full=2500),
        max_iter=ctx.param("max_iter", tiny=6, quick=8, full=31),
    )
    n_test = ctx.param("n_test", tiny=5000, quick=20_000, full=100_000)
    max_iter_small = ctx.param("max_iter_small", tiny=6, quick=31)
    # Fig. 7a is a curve over n with a GD baseline; this claim runs two sample sizes and NP only
    ctx.reduced_scale(
        f"d = {d}, n = {n_small} and {n_large} only, instead of Fig. 7a's curve over n at d = 50 (n up to "
        "3200), and without the GD baseline (50 neurons per layer, up to 3e6 iterations, 3 learning rates; "
        "measured 0.18 s of CPU per full-batch step of that net at n = 3200, d = 50: ~150 h per run). "
        "Measured cost of this claim at full: 209 s (4 seeds; NP stops at the tolerance after 2 iterations)"
    )
    ctx.regime(N_LARGE, n=n_large, k=2 * d)  # f_1: widths 2, 1: 2d + 2 + 1 weights, 3 rescalings
    seeds = ctx.param("seeds", tiny=1, quick=4, full=4)  # declared before the runs; the verdict uses all
    large = [_np_run(ctx, f"large-{s}", _f1, _sphere, n_large, d, cfg, 0.15, n_test) for s in range(seeds)]
    small_cfg = replace(cfg, max_iter=max_iter_small)  # the paper's cap
    small = [
        _np_run(ctx, f"small-{s}", _f1, _sphere, n_small, d, small_cfg, 0.15, n_test) for s in range(seeds)
    ]
    _outcome(
        ctx,
        f"n = {n_large}",
        large,
        cfg,
        True,
        "App. C.1.1: NP runs to relative training error < 1e-3, at most 31 iterations",
        paper="31 iterations of 70000 GD steps, App. C.1.1",
    )
    _fit(
        ctx,
        f"n = {n_small}",
        small,
        small_cfg,
        "'near-zero training error across all sample sizes' (Sec. 5.2.1); the tolerance is NP's stopping "
        "rule, so what can fail is a seed stopping at the cap (or at a degenerate first NCF) above it",
    )
    ctx.note(
        f"d = {d} (paper 50), {seeds} data seeds, lr = 0.15/n on the summed loss (= 0.15 on a mean loss), "
        f"{cfg.gd_steps} GD steps per iteration (paper 70000). "
        + "; ".join(
            f"n = {n}, seed {s}: {_untrained(res) or f'{len(res.steps)} iterations ({res.reason}), widths '}"
            f"{res.steps[-1].widths if res.steps else ''}, test error {t:.3g}"
            for n, runs in ((n_large, large), (n_small, small))
            for s, (res, _, t) in enumerate(runs)
        )
        + f" (target widths 2 + 1; at n = {n_small} NP interpolates the samples)."
    )
    _small_n_control(ctx, n_small, {"": small}, max_iter_small)


# ---------------------------------------------------------------- App. D.6 (rescaling)


def _candidate_values(Ws, X, resid, points) -> np.ndarray:
    """Per-layer candidate NCF values (L - 1, R) at the fixed unit points ``points[l]`` (R, k_l)."""
    ncfs = layer_candidates(Ws, X, resid[None], 0.0, 1)
    return np.stack([ncf.value_and_grad(pts[None])[0][0] for ncf, pts in zip(ncfs, points, strict=True)])


@claim(
    "kumar2025:section-D.6",
    title="Rescaling (cW_1, W_2, W_3/c) keeps the output, scales the candidate NCFs; rebalancing fixes NP",
    source="App. D.6 (Saul 2023 rebalancing), Algorithm 1 line 28",
    statement=r"For a 3-layer ReLU net, $(cW_1,W_2,W_3/c)$ has the same output, the layer-2 candidate NCF "
    r"$\bar y^\top\mathcal H_{1,2}$ scales by $c$ and the layer-1 one by $1/c$, so NP's layer choice depends "
    r"on $c$; after rebalancing the candidates (and the choice) do not depend on $c$",
    hypotheses=["ReLU (positively 1-homogeneous)", REBALANCED],
)
def section_d6(ctx: Context) -> None:
    ncf_iters = ctx.param("ncf_iters", tiny=500, quick=2000)
    rng = ctx.rng("data").host
    n, d, k1, k2 = 40, 5, 3, 2
    X = rng.normal(size=(n, d))
    Ws = [rng.normal(size=(1, k1, d)), rng.normal(size=(1, k2, k1)), rng.normal(size=(1, 1, k2))]
    resid = rng.normal(size=n) - output(Ws, X, 0.0, 1)[0]

    def scaled(c: float):
        return [c * Ws[0], Ws[1], Ws[2] / c]

    points = [normalize(rng.normal(size=(64, d + k2))), normalize(rng.normal(size=(64, k1 + 1)))]
    base = _candidate_values(Ws, X, resid, points)
    cs = np.array([0.25, 0.5, 2.0, 4.0])
    out = output(Ws, X, 0.0, 1)
    ctx.close(
        "output of (cW_1, W_2, W_3/c) = output",
        np.stack([output(scaled(c), X, 0.0, 1)[0] for c in cs]),
        np.broadcast_to(out, (cs.size, n)),
        rtol=1e-13,
        atol=1e-13 * float(np.abs(out).max()),
        why="exact identity sigma(cz) = c sigma(z); a few roundings of order 1e-16",
    )
    factors = np.stack([np.stack([np.full(64, 1 / c), np.full(64, c)]) for c in cs])  # (C, 2, R)
    ctx.close(
        "candidate NCFs: N_c = N_1 / c (layer 1), c N_1 (layer 2), at 64 fixed unit points each",
        np.stack([_candidate_values(scaled(c), X, resid, points) for c in cs]),
        factors * base,
        rtol=1e-12,
        atol=1e-12 * float(np.abs(base).max()) * cs.max(),
        why="exact homogeneity (the ReLU pattern is unchanged by c > 0); sums of n = 40 terms round at "
        "~1e-15 relative",
    )
    cfg = PursuitConfig(depth=3, alpha=0.0, p=1, restarts=20, ncf_iters=ncf_iters)
    tops = []
    for ncf in layer_candidates(Ws, X, resid[None], 0.0, 1):
        u0 = normalize(rng.normal(size=(1, cfg.restarts, ncf.k_in + ncf.Q.shape[1])))
        tops.append(
            float(projected_gradient_ascent(ncf.value_and_grad, u0, step=0.2, iters=cfg.ncf_iters)[1].max())
        )
    c_star = float(np.sqrt(tops[0] / tops[1]))  # layer-1 max / c = layer-2 max * c

    def choices(balance: bool) -> list[int]:
        picks = []
        for c in (c_star / 2, 2 * c_star):
            W = rebalance(scaled(c), 1) if balance else scaled(c)
            picks.append(best_candidate(W, X, resid, cfg, ctx.rng("choice").host)[0])
        return picks

    balanced = [rebalance(scaled(c), 1) for c in cs]
    ctx.close(
        "rebalance(cW_1, W_2, W_3/c) = rebalance(W) (one balanced point per orbit)",
        np.stack([pack(W)[0] for W in balanced]),
        np.broadcast_to(pack(rebalance(Ws, 1))[0], (cs.size, pack(Ws).shape[1])),
        rtol=1e-8,
        atol=1e-10,
        why="coordinate descent stops at |log t| < 1e-12 per sweep; the fixed point is reached to ~1e-12 "
        "relative, 1e-8 leaves a margin for slow sweeps",
    )
    picks = choices(True)
    ctx.holds(
        f"NP picks the same layer at c = c*/2 and 2c* (c* = {c_star:.3g})",
        picks[0] == picks[1],
        measured=picks,
        expected="equal layers",
        why="identical weights give identical candidate NCFs, so Algorithm 1's argmax cannot change",
    )
    ctx.note(
        f"per-layer candidate maxima at c = 1: {tops}; the layer-1/layer-2 preference flips at "
        f"c* = {c_star:.3g}"
    )
    with ctx.control("no rebalancing", breaks=REBALANCED, must_break=["NP picks the same layer at c = *"]):
        picks = choices(False)
        ctx.holds(
            f"NP picks the same layer at c = c*/2 and 2c* (c* = {c_star:.3g})",
            picks[0] == picks[1],
            measured=picks,
            expected="equal layers",
            why="as above",
        )


# ---------------------------------------------------------------- App. D.3 (degenerate NCF)


def _linear_saddle(S: np.ndarray, depth: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    r"""Rank-1 saddle of :math:`\tfrac12\|W_L\cdots W_1-S\|_F^2` (eq. 55): neuron 1 of every layer carries
    :math:`s_1^{1/L}` times the top singular pair, the rest is 0; and the masks of :math:`w_z`."""
    d = S.shape[0]
    U, s, Vt = np.linalg.svd(S)
    c = s[0] ** (1 / depth)
    Ws = [np.zeros((d, d)) for _ in range(depth)]
    Ws[0][0], Ws[-1][:, 0] = c * Vt[0], c * U[:, 0]
    for W in Ws[1:-1]:
        W[0, 0] = c
    masks = [np.ones((d, d)) for _ in range(depth)]
    masks[0][0], masks[-1][:, 0] = 0.0, 0.0
    for M in masks[1:-1]:
        M[0, 0] = 0.0
    return Ws, masks


def _linear_grads(Ws: list[np.ndarray], S: np.ndarray) -> list[np.ndarray]:
    r"""Gradients of the linear-net loss w.r.t. every factor: :math:`Q_i^\top RP_i^\top`, :math:`R=W_L\cdots
    W_1-S`, :math:`P_i=W_{i-1}\cdots W_1`, :math:`Q_i=W_L\cdots W_{i+1}` (empty products skipped)."""
    prefix: list[np.ndarray | None] = [None]
    for W in Ws[:-1]:
        prefix.append(W if prefix[-1] is None else W @ prefix[-1])
    suffix: list[np.ndarray | None] = [None]
    for W in Ws[:0:-1]:
        suffix.append(W if suffix[-1] is None else suffix[-1] @ W)
    R = Ws[-1] @ prefix[-1] - S
    out = []
    for P, Q in zip(prefix, suffix[::-1], strict=True):
        g = R if Q is None else Q.T @ R
        out.append(g if P is None else g @ P.T)
    return out


def _ncf_coefficients(Ws, masks, S, z) -> np.ndarray:
    r"""Coefficients of :math:`\delta^0..\delta^3` in :math:`\mathrm{tr}(\bar y^\top(H(\bar w_n,\delta z)-
    H(\bar w_n,0)))`, :math:`\bar y=S-H(\bar w_n,0)`: an exact polynomial of degree <= depth <= 3
    (Vandermonde solve).  The :math:`\delta^2` one is :math:`\mathcal N_{\bar y,\bar{\mathcal H}_1}(z)`
    (every product uses >= 2 blocks of :math:`w_z`), the :math:`\delta^3` one
    :math:`\mathrm{tr}(\bar y^\top B_3C_2A_1)`."""
    H0 = np.linalg.multi_dot(Ws[::-1]) if len(Ws) > 2 else Ws[1] @ Ws[0]
    ybar = S - H0
    deltas = np.array([0.5, 1.0, 1.5, 2.0])
    vals = []
    for dl in deltas:
        moved = [W + dl * Z * M for W, Z, M in zip(Ws, z, masks, strict=True)]
        H = np.linalg.multi_dot(moved[::-1]) if len(moved) > 2 else moved[1] @ moved[0]
        vals.append(np.sum(ybar * (H - H0)))
    return np.linalg.solve(np.vander(deltas, 4, increasing=True), vals)


def _neglected(S: np.ndarray, W: list[np.ndarray], masks, ybar: np.ndarray) -> float:
    r""":math:`|\nabla_{w_z}\mathcal L+\nabla\mathcal N_{\bar y,\bar{\mathcal H}_2}|/
    |\nabla\mathcal N_{\bar y,\bar{\mathcal H}_2}|` at ``W``: the part of the loss field on :math:`w_z` the
    :math:`\bar{\mathcal H}_2` flow neglects, relative to it (SMALL_DELTA_D3)."""
    full = [g * M for g, M in zip(_linear_grads(W, S), masks, strict=True)]
    kept = h2_grads(W, ybar)
    gap = np.sqrt(sum(((f + k) ** 2).sum() for f, k in zip(full, kept, strict=True)))
    return float(gap / np.sqrt(sum((k**2).sum() for k in kept)))


def _wz_norm(W: list[np.ndarray], masks) -> float:
    """:math:`|w_z|`: the norm of the entries the masks keep."""
    return float(np.sqrt(sum(((Wl * M) ** 2).sum() for Wl, M in zip(W, masks, strict=True))))


def _field_norm(S: np.ndarray, W: list[np.ndarray], masks) -> float:
    r""":math:`|\nabla_{w_z}\mathcal L|` at ``W``."""
    return _wz_norm(_linear_grads(W, S), masks)


def _start(Ws: list[np.ndarray], masks, z, delta: float) -> list[np.ndarray]:
    """(w_n bar, delta z/|z|), z restricted to w_z."""
    zn = _wz_norm(z, masks)
    return [W + delta * Z * M / zn for W, Z, M in zip(Ws, z, masks, strict=True)]


def _grow(S, W: list[np.ndarray], masks, target: float, lr: float, max_steps: int):
    """GD from ``W`` until |w_z| >= target: (steps taken, or None if max_steps ran out; final weights)."""
    for step in range(max_steps):
        if _wz_norm(W, masks) >= target:
            return step, W
        W = [Wl - lr * g for Wl, g in zip(W, _linear_grads(W, S), strict=True)]
    return None, W


def _escape(S, Ws, masks, z, delta: float, lr: float, growth: float, max_steps: int):
    """GD from (w_n bar, delta z/|z|) (z restricted to w_z) until |w_z| = growth * delta:
    (time = steps * lr, final weights)."""
    steps, W = _grow(S, _start(Ws, masks, z, delta), masks, growth * delta, lr, max_steps)
    return (np.inf if steps is None else steps * lr), W


def _alignment(
    ctx: Context,
    S,
    Ws,
    masks,
    z,
    lr: float,
    delta: float,
    octaves: int,
    tol: float | None = None,
    max_steps: int = 10_000_000,
) -> tuple[float, float]:
    r"""App. D.3 / Fig. 14 (d): :math:`w_z` converges in direction to a KKT point of the
    :math:`\bar{\mathcal H}_2`-NCF, checked as :math:`1-\cos\to0` at the order the reduced dynamics gives
    (``alignment``): :math:`2(\sigma_2/\sigma_1-1)` to first order, exactly the slope of the slow mode's
    invariant family from the window's first measured slow angle (:func:`family_angles`), over one GD run
    from :math:`\delta z` read at :math:`|w_z|=2^k\delta`; the window is the last 4 octaves.  Returns the
    largest relative neglected field along the run (``SMALL_DELTA_D3``) and the check's tolerance; ``tol``
    given (a control) replaces the derived one.  An octave not reached in ``max_steps`` GD steps ends the
    grid."""
    ybar = S - np.linalg.multi_dot(Ws[::-1])
    rate = rates(ybar)
    W, gs, total, angle, r, h, fig = _start(Ws, masks, z, delta), [], [], [], [], [], []
    for k in range(1, octaves + 1):
        steps, W = _grow(S, W, masks, 2.0**k * delta, lr, max_steps)
        if steps is None:
            break
        gs.append(2.0**k)
        total.append(misalignment(W, ybar))
        angle.append(slow_angle(W, ybar))
        fig.append(1 - (1 - total[-1]) * h2_norm(W) / _wz_norm(W, masks))
        r.append(_neglected(S, W, masks, ybar))
        h.append(lr * _field_norm(S, W, masks) / _wz_norm(W, masks))
    g, total, theta, r, h, fig = (np.array(v[-4:]) for v in (gs, total, angle, r, h, fig))
    rho = 1 - rate.slow
    # Expected: the reduced H_2 flow restricted to the slow mode's invariant family, exactly (its
    # non-linearity d ln tan(phi)/d ln g = lambda_2/(1 + lambda_2 sin^2 phi) included), started at the
    # window's first measured slow angle theta (alignment.slow_angle): the least-squares slope of
    # family_misalignment along family_angles.  What the family leaves out, each bounded from the run:
    # the other modes' share of 1 - cos, the measured profile 1 - cos / family_misalignment(theta) - 1 of
    # either sign (profile_slope; >= 1: the slow mode does not dominate, inf); the neglected field and GD's
    # tangential error, which move theta by (r + h theta / 2)/|lambda_2|, so 1 - cos relatively by
    # 2 r/(|lambda_2| theta) + h/|lambda_2| at most (evidence.slope_shift).  The slow angle is theta, not
    # sqrt(2 (1 - cos)): 1 - cos is lambda_2^2 theta^2/2 of it (the Riemannian gradient at w^ + e is
    # 3 N_* lambda e), so sqrt(2 (1 - cos)) understates it by 1/|lambda_2| (2.5-4x on the quick seeds).  A
    # slow angle outside the family (sqrt(3/2) theta >= 1) is undecided.  A run that stalls (10^7 steps)
    # ends the grid there
    inside = bool(np.all(np.sqrt(1.5) * theta < 1) and np.all(theta > 0))
    model = family_misalignment(family_angles(theta[0], rho, g), rho) if inside else None
    expected = float(np.polyfit(np.log(g), np.log(model), 1)[0]) if inside else rate.order
    others = np.abs(total / family_misalignment(theta, rho) - 1) if inside else np.full(g.shape, np.inf)
    eps_f = (2 * r / theta + h) / rate.slow if inside else np.full(g.shape, np.inf)
    rooms = (profile_slope(g, others), evidence.slope_shift(g, float(eps_f.max())))
    why_tol = (
        "Tolerance = the other modes' share (measured: 1 - cos over the family's value at the measured "
        "theta, either sign) + the neglected field and GD (2r/(|lambda_2| theta) + h/|lambda_2|) = "
        + " + ".join(f"{v:.2g}" for v in rooms)
        if tol is None
        else f"Tolerance {tol:.2g}: the main run's (here the field is not small: r up to {r.max():.2g})"
    )
    ctx.order(
        "1 - KKT cosine of (A_1, C_2, B_3) for the H_2-NCF against the growth |w_z|/delta",
        g,
        total,
        expected=expected,
        tol=sum(rooms) if tol is None else tol,
        neighbours=(rate.below, 0.0),
        why="the H_2-NCF's maximisers are (c q b_1^T, c p q^T, c a_1 p^T) for y bar = sum sigma_j a_j b_j^T; "
        "linearised in log|w_z| time its normal rates are +-sigma_j/sigma_1 - 1, -1, -2, the slowest "
        f"lambda_2 = sigma_2/sigma_1 - 1 = {-rate.slow:.3f}, and 1 - cos is lambda^2/2 times the squared "
        f"deviation: order 2 lambda_2 = {rate.order:.3f} to first order; expected {expected:.4f} is the "
        "exact slope of the slow mode's invariant family of the H_2 flow (non-linearity included) from "
        f"the window's first measured slow angle theta = {theta[0]:.3g} (kumar2025.alignment; outside the "
        "family: 2 lambda_2). "
        + why_tol
        + f"; neighbours: {rate.below:.3f} (the next mode, or the lambda = -1 modes) and 0 (no alignment); "
        f"window g = {g.min():.0f}..{g.max():.0f} (|w_z| <= {g.max() * delta:.2g}), slow angle theta "
        f"{theta.max():.2g}..{theta.min():.2g}, others' share {others.max():.2g}..{others.min():.2g}",
        xlabel="|w_z| / delta",
        ylabel="1 - cos",
    )
    ctx.note(
        f"alignment run from delta = {delta:g}: 1 - cos = {', '.join(f'{v:.3g}' for v in total)} (the slow "
        f"mode's invariant family from theta = {theta[0]:.3g}: "
        f"{', '.join(f'{v:.3g}' for v in (model if inside else []))}) at "
        f"g = {g.astype(int).tolist()}; final cos {1 - total[-1]:.5f}. Fig. 14 (d)'s cosine takes w~_z over "
        f"all of w_z (a_2, b_2 too, where the H_2-NCF's gradient is 0): 1 - cos = "
        f"{', '.join(f'{v:.3g}' for v in fig)} (a_2, b_2 do not grow to first order: their share of "
        "|w_z|^2 falls like g^-2, faster than the slow pair's g^(2 lambda_2))"
    )
    if tol is None:  # the main run: what decides its order (the control reuses its tolerance)
        half_gap = min(abs(expected - nb) for nb in (rate.below, 0.0)) / 2
        ctx.note(
            f"alignment run from delta = {delta:g}, what decides it: the slow angle decays like g^lambda_2, "
            f"|lambda_2| = 1 - sigma_2/sigma_1 = {rate.slow:.3f} (this S), so it halves every 1/|lambda_2| = "
            f"{1 / rate.slow:.2g} octaves of |w_z|: theta {theta[0]:.2g} -> {theta[-1]:.2g} over the "
            f"window's {np.log2(g.max() / g.min()):.0f} octaves. The order is decided only when the "
            f"tolerance ({sum(rooms):.2g}) is below half the gap from the expected slope {expected:.3g} to "
            f"its nearest neighbour ({half_gap:.2g}; ctx.order); with a small |lambda_2| the window's slope "
            "sits near 0 (no alignment) until theta is small, and the tolerance's parts carry 1/|lambda_2|. "
            "A window k octaves later at the same |w_z| (the neglected field r grows with |w_z|) starts from "
            "a delta 2^k times smaller, at 2^k times the GD steps (the escape time is C/delta)"
        )
    return float(max(r)), float(sum(rooms) if tol is None else tol)


@claim(
    "kumar2025:section-D.3",
    title="Degenerate NCF at a 3-layer linear rank-1 saddle: w_z follows H_2 = B_3 C_2 A_1 on time 1/delta",
    source="App. D.3, eq. 55, Fig. 14",
    statement=r"At the rank-1 saddle (55) of a 3-layer linear net, "
    r"$\mathcal N_{\bar y,\bar{\mathcal H}_1}\equiv0$ (Theorem 7 is vacuous); GD from $(\bar w_n,\delta z)$ "
    r"escapes on the time scale $1/\delta$ of the "
    r"3-homogeneous $\bar{\mathcal H}_2=B_3C_2A_1$ and $w_z$ aligns with a KKT point of its NCF; at the "
    r"squared-ReLU saddle (56) both candidate NCFs vanish and the first term is 6-homogeneous",
    hypotheses=[
        LINEAR_3_LAYER,
        "rank-1 saddle (55), S with distinct singular values",
        SADDLE_56,
        SMALL_DELTA_D3,
    ],
)
def section_d3(ctx: Context) -> None:
    rng = ctx.rng("data").host
    d = ctx.param("d", tiny=4, quick=6, full=10)
    deltas = 0.04 / 2.0 ** np.arange(ctx.param("deltas", tiny=4, quick=5, full=7))  # 0.9-1.8 decades
    delta_v = ctx.param("delta_align", tiny=1e-3, quick=1e-5, full=1e-5)
    octaves = ctx.param("align_octaves", tiny=6, quick=13, full=13)  # |w_z| = 2^k delta_v <= 0.1
    ctx.require(
        octaves >= 4, f"align_octaves >= 4 (the alignment order is fitted over 4 octaves), got {octaves}"
    )
    S = rng.normal(size=(d, d))
    s = np.linalg.svd(S, compute_uv=False)
    Ws, masks = _linear_saddle(S, 3)
    ctx.bound(
        "|grad L| at the saddle (55)",
        max(float(np.abs(g).max()) for g in _linear_grads(Ws, S)),
        1e-12,
        why="exact critical point; rounding of d-term sums of O(s_1) numbers",
    )
    zs = [[rng.normal(size=(d, d)) for _ in range(3)] for _ in range(32)]
    coeffs = np.array([_ncf_coefficients(Ws, masks, S, z) for z in zs])
    scale = float(np.abs(coeffs[:, 3]).max())
    ctx.bound(
        "max |N_{y bar, H_1}(z)| / max |N_{y bar, H_2}(z)| over 32 random z",
        float(np.abs(coeffs[:, 2]).max() / scale),
        1e-10,
        why="N_1 = s_1^(1/3) (b_2 u_1^T y bar A_1^T + a_2 B_3^T y bar v_1) = 0 exactly since y bar v_1 = 0 "
        "and u_1^T y bar = 0; the Vandermonde solve (condition ~1e2) leaves ~1e-13 relative",
    )
    z = zs[0]
    lr = 1.5 / (
        3 * s[0] ** (4 / 3)
    )  # below 2/sharpness: the saddle's largest Hessian eigenvalue is 3 s_1^(4/3)
    ybar = S - np.linalg.multi_dot(Ws[::-1])
    runs = [_escape(S, Ws, masks, z, dl, lr, 10.0, 4_000_000) for dl in deltas]
    times = np.array([t for t, _ in runs])
    neglected = [_neglected(S, W, masks, ybar) for _, W in runs]
    # T(delta) = (C/delta)(1 + e(delta)), e the sum of: what the H_2 flow neglects, at most its relative
    # size r at the window's end (first order: the time's relative change is the field's, averaged along
    # the path, largest at the end); GD's error against the flow, at most h/2 for the per-step relative
    # growth h = lr |grad_{w_z} L| / |w_z| at the end (log(1 + lr lambda) against lr lambda per step: a time
    # error of lr lambda / 2 relative, lambda largest at the end); the stop's rounding up to one step, lr/T.
    # The fitted slope is then -1 within evidence.slope_shift of their sum
    steps = [lr * _field_norm(S, W, masks) / _wz_norm(W, masks) for _, W in runs]
    errors = (max(neglected), max(steps) / 2, lr / float(times.min()))
    room = evidence.slope_shift(deltas, sum(errors))
    ctx.order(
        "time for |w_z| to grow from delta to 10 delta",
        deltas,
        times,
        expected=-1.0,
        tol=room,
        why="the reduced NCF of H_2 is 3-homogeneous: by Lemma 6 its flow from delta z is the unit flow at "
        "time delta t, so T = C/delta (1 + e); |e| <= r + h/2 + lr/T = "
        + " + ".join(f"{v:.2g}" for v in errors)
        + " (r: the field the H_2 flow neglects at |w_z| = 10 delta, SMALL_DELTA_D3; h/2: GD's error "
        "against the flow, h the per-step relative growth at the window's end; lr/T: the stop's rounding to "
        f"a GD step), which moves the least-squares slope over this grid by at most {room:.3g} "
        "(evidence.slope_shift); neighbours 0 (a non-degenerate H_1: log(10)/lambda) and -2 (a 4-homogeneous "
        "first term). Measured outside the claim: T delta depends on delta and lr only through lr delta "
        "(GD's error dominates e, ~h/6)",
        xlabel="delta",
        ylabel="escape time",
    )
    r_align, tol_align = _alignment(ctx, S, Ws, masks, z, lr, delta_v, octaves)
    ctx.regime(SMALL_DELTA_D3, r=max(*neglected, r_align))
    with ctx.control(
        "w_z from delta = 0.05, read up to |w_z| = 3.2 (the escape: the neglected field reaches r ~ 1)",
        breaks=SMALL_DELTA_D3,
        must_break=["1 - KKT cosine of (A_1, C_2, B_3) for the H_2-NCF against the growth |w_z|/delta"],
    ):
        # 2 * 10^5 steps an octave: from delta = 0.05 each took < 10^5 at d = 6 (measured, seeds 0-3); an
        # |w_z| the descent never reaches (a small S's minimum) ends the grid instead of 10^7 idle steps
        _alignment(ctx, S, Ws, masks, z, lr, 0.05, 6, tol=tol_align, max_steps=200_000)

    tol56 = _squared_relu_d3(ctx, rng, d)
    with ctx.control(
        "activation max(x, 0.5x)^2 instead of ReLU^2",
        breaks=SADDLE_56,
        must_break=[
            "squared ReLU (56): y bar = (0, 1) and both candidate NCFs vanish*",
            "squared ReLU (56): y bar^T (H(w_n bar, delta z) - H(w_n bar, 0)) against delta",
        ],
    ):
        _squared_relu_d3(ctx, ctx.rng("d3-control").host, d, alpha=0.5, tol=tol56)
    with ctx.control(
        "2-layer linear net (H_1 = B_2 A_1 is not degenerate)",
        breaks=LINEAR_3_LAYER,
        must_break=[
            "max |N_{y bar, H_1}(z)| / max |N_{y bar, H_2}(z)| over 32 random z",
            "time for |w_z| to grow from delta to 10 delta",
        ],
    ):
        Ws2, masks2 = _linear_saddle(S, 2)
        coeffs2 = np.array([_ncf_coefficients(Ws2, masks2, S, z2[:2]) for z2 in zs])
        ctx.bound(
            "max |N_{y bar, H_1}(z)| / max |N_{y bar, H_2}(z)| over 32 random z",
            float(np.abs(coeffs2[:, 2]).max() / scale),
            1e-10,
            why="as above",
        )
        lr2 = 0.5 / (2 * s[0])
        times2 = np.array([_escape(S, Ws2, masks2, z[:2], dl, lr2, 10.0, 4_000_000)[0] for dl in deltas])
        ctx.order(
            "time for |w_z| to grow from delta to 10 delta",
            deltas,
            times2,
            expected=-1.0,
            tol=room,
            why="as above (the main run's tolerance)",
            xlabel="delta",
            ylabel="escape time",
        )


def _squared_relu_d3(
    ctx: Context, rng: np.random.Generator, d: int, alpha: float = 0.0, tol: float | None = None
) -> float:
    r"""App. D.3's squared-ReLU saddle (56): samples :math:`(\pm\mathbf 1/d, 1)`, widths 2/2,
    :math:`\bar W_1=[\mathbf 1^\top;0]`, :math:`\bar W_2=\mathrm{diag}(1,0)`, :math:`\bar W_3=[1\ 0]`.

    :math:`\bar y=(0,1)` and every old unit is dead on :math:`x_2`, so both candidate NCFs vanish and the
    first non-zero term of :math:`\bar y^\top\mathcal H` along :math:`\delta z` is
    :math:`\sigma(b_2^\top\sigma(A_1x_2))` of degree 6 (when :math:`b_2^\top\sigma(A_1x_2)>0`).
    ``alpha`` != 0 (:math:`\max(x,\alpha x)^2`, old units alive on :math:`x_2`) is the control."""
    X = np.stack([np.ones(d), -np.ones(d)]) / d
    y = np.ones(2)
    Ws = [np.zeros((1, 2, d)), np.diag([1.0, 0.0])[None], np.array([[[1.0, 0.0]]])]
    Ws[0][0, 0] = 1.0
    ybar = y - output(Ws, X, alpha, 2)[0]
    ncfs = layer_candidates([Ws[0][:, :1], Ws[1][:, :1, :1], Ws[2][:, :, :1]], X, ybar[None], alpha, 2)
    pts = [normalize(rng.normal(size=(1, 64, ncf.k_in + ncf.Q.shape[1]))) for ncf in ncfs]
    ctx.close(
        "squared ReLU (56): y bar = (0, 1) and both candidate NCFs vanish at 64 random unit points",
        np.concatenate([ybar, *(ncf.value_and_grad(u)[0][0] for ncf, u in zip(ncfs, pts, strict=True))]),
        np.concatenate([[0.0, 1.0], np.zeros(128)]),
        atol=8 * d * np.finfo(float).eps,
        why="exact zeros (sigma(0) = sigma'(0) = 0 on x_2) except y bar_1 = 1 - (1^T 1/d)^4, which rounds "
        "to <= 2 d eps; the candidate NCFs carry it times O(1) unit-point values",
    )
    z = [rng.normal(size=W.shape) for W in Ws]
    z[0][0, 0], z[1][0, 0, 0], z[2][0, 0, 0] = 0.0, 0.0, 0.0
    z[0][0, 1] = -np.abs(z[0][0, 1])  # A_1 x_2 = -sum(A_1)/d > 0
    z[1][0, 0, 1] = abs(z[1][0, 0, 1])  # b_2 > 0: the degree-6 term sigma(b_2 sigma(A_1 x_2)) is present
    deltas = 0.01 / 2.0 ** np.arange(5)  # a factor 2 apart (fitted_orders' next-order bound)
    H0 = output(Ws, X, alpha, 2)[0]
    vals = np.abs(
        [
            float(ybar @ (output([W + dl * Z for W, Z in zip(Ws, z, strict=True)], X, alpha, 2)[0] - H0))
            for dl in deltas
        ]
    )
    if tol is None:
        tol, parts = order_tolerance(deltas, vals)[1:]
        why = (
            "lowest term sigma(b_2^T sigma(A_1 x_2)) is 6-homogeneous; the next, b_3^T sigma(C_2 sigma(A_1 "
            "x_2)), is 7-homogeneous (a relative O(delta) correction); tolerance derived from the fit "
            f"(fitted_orders.order_tolerance) = 95% half-interval {parts['interval']:.2g} + next-order bias "
            f"{parts['next order']:.2g} (local slopes); no rounding floor: on x_2 the old units are dead, so "
            "H(w_n bar, delta z) - H(w_n bar, 0) has no O(1) part to cancel"
        )
    else:
        why = "as above (the main run's tolerance)"
    ctx.order(
        "squared ReLU (56): y bar^T (H(w_n bar, delta z) - H(w_n bar, 0)) against delta",
        deltas,
        vals,
        expected=6.0,
        tol=tol,
        why=why,
        xlabel="delta",
        ylabel="|y bar^T dH|",
    )
    return tol
