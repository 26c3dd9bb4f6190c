r"""dana2025 Section 2 and App. A/C.2: the model, its exact reductions and identities.

Claims: eq. (13) (coordinates and the Gram / orthogonal reductions), eq. (16) as printed
and corrected (the curvature identity), Lemma 1 (balance invariant), Lemma 2 (loss as
the exponential of the average curvature), Assumptions 1 and 2 (their checkers and
preservation), App. C.2 (non-uniqueness of the flow at the kink).
"""

from __future__ import annotations

import numpy as np

from numeric.backend import array_namespace, to_numpy
from numeric.data.weakly_correlated import (
    appendix_b_init,
    appendix_b_init_reduced,
    gram_to_inputs,
    offdiag_norm,
)
from numeric.engine.descent import gradient_descent
from numeric.models.shallow_relu import ShallowReLU, gram_state
from symbolic import shallow_meanfield as sym
from verify import evidence
from verify.claim import Erratum, claim
from verify.context import Context, Series
from verify.order_tolerance import next_order_tolerance
from verify.papers.dana2025 import balance, kink_arrival
from verify.papers.dana2025.common import (
    EPS,
    MIN_GAIN,
    Data,
    WithCurvatureIntegral,
    axis_inputs,
    ensemble,
    init_gap,
    make_data,
    solve_flow,
    solve_with_error,
)
from verify.papers.dana2025.hypotheses import (
    ASSUMPTION_1,
    ASSUMPTION_2,
    CORRELATED,
    KINK,
    ORTHOGONAL,
    P_FLOW,
    off_ratio,
)
from verify.papers.dana2025.instances import HOST, assemble, labels, lemma7_instance, norms, weak_data

SAFETY = 4.0  # tolerance = SAFETY x measured discretisation / rounding error + float floor

# ----------------------------------------------------------------- eq. (13): reductions


def _gd_states(be, model, y0, args, lr, steps, n_rec):
    rec = np.unique(np.linspace(0, steps, n_rec).astype(int))
    tr = gradient_descent(model, y0, lr=lr, steps=steps, record=rec, args=args)
    return to_numpy(tr.ys)


def _full_vs_reduced(ctx: Context, data, d: int, B: int, p: int, lr: float, steps: int, reduced_mode: str):
    """GD of the full system, of a randomly rotated copy (rounding floor) and of a reduction.

    Returns (max deviation full vs reduced, max deviation full vs rotated copy, scale).
    """
    be = ctx.backend
    rng = ctx.rng(f"reduce-{data.name}-{reduced_mode}").host
    X = gram_to_inputs(data.G, d, rng)
    W, a = appendix_b_init(rng, B, p, d)
    full = ShallowReLU(p, d, "full")
    ys_full = _gd_states(be, full, be.asarray(full.pack((W, a))), full.args(be, X, data.y), lr, steps, 6)
    Q, _ = np.linalg.qr(rng.normal(size=(d, d)))
    ys_rot = _gd_states(
        be, full, be.asarray(full.pack((W @ Q, a))), full.args(be, X @ Q, data.y), lr, steps, 6
    )
    V, _, wperp2 = gram_state(W, a, X)
    red = ShallowReLU(p, data.n, reduced_mode)
    inputs = data.G if reduced_mode == "gram" else data.norms
    ys_red = _gd_states(
        be, red, be.asarray(red.pack((V, a))), red.args(be, inputs, data.y, wperp2=wperp2), lr, steps, 6
    )

    def pre_and_a(ys, model, Xr):
        U = ys[:, :, : p * model.m].reshape(B, ys.shape[1], p, model.m)
        pre = U @ Xr.T if model.mode == "full" else U
        return np.concatenate([pre.reshape(B, ys.shape[1], -1), ys[:, :, p * model.m :]], axis=2)

    z_full = pre_and_a(ys_full, full, X)
    z_rot = pre_and_a(ys_rot, full, X @ Q)
    z_red = pre_and_a(ys_red, red, None)
    return (
        float(np.abs(z_full - z_red).max()),
        float(np.abs(z_full - z_rot).max()),
        float(np.abs(z_full).max()),
    )


@claim(
    "dana2025:equation-13",
    title="Coordinates (13)-(14): the flow sees the data only through X^T X; orthogonal data decouple",
    source="eqs. (3), (13)-(14), (48); catalog (C1), (C3)",
    statement=r"For $\dot\theta=-p\nabla L$: $\dot w_j=\frac{a_j}nXP_jR$, $\dot a_j=\frac1nw_j^\top XP_jR$. "
    r"Hence $v_j=X^\top w_j$ obeys $\dot v_j=\frac{a_j}nX^\top XP_jR$: the flow of $(v_j,a_j)$ depends on "
    r"the "
    r"data only through $X^\top X$, the component of $w_j$ orthogonal to the data is frozen, and for "
    r"orthogonal inputs $\dot v_{ji}=\frac{\|x_i\|^2}na_jr_i1_{j,i}$ (48).",
    hypotheses=[
        r"$h_\theta=\frac1p\sum_ja_j\sigma(\langle w_j|x\rangle)$, mean square loss (2)",
        r"p-accelerated flow (3), $\sigma'(0)=0$",
        ORTHOGONAL,
    ],
)
def equation_13(ctx: Context) -> None:
    n = ctx.param("n", tiny=6, quick=12, full=40)
    p = ctx.param("p", tiny=4, quick=8, full=20)
    B = ctx.param("B", tiny=3, quick=6, full=32)
    steps = ctx.param("steps", tiny=150, quick=400, full=4000)
    res = sym.coordinate_residuals(2, 3, 2)
    ctx.zero("(13): -p dL/dw_j = a_j/n X P_j R (n=2, d=3, p=2)", res["eq13"], why="exact polynomial identity")
    ctx.zero("(14): -p dL/da_j = w_j^T X P_j R / n", res["eq14"], why="exact polynomial identity")
    d, lr = 3 * n, 0.25
    rng = ctx.rng("data").host
    cases = [
        ("gram", make_data(rng, n, "boundary", frac=0.99)),
        ("gram", make_data(rng, n, "equicorrelated", rho=0.8)),
        ("orthogonal", make_data(rng, n, "orthogonal")),
    ]
    why = (
        "the two runs are the same GD map in different coordinates; their rounding differs. The "
        "rounding floor is measured by a third run of the full system in randomly rotated coordinates "
        "(mathematically identical); tolerance = 4 x that floor + steps x eps x max|state|"
    )
    for mode, data in cases:
        if mode == "orthogonal":
            ctx.regime(ORTHOGONAL, off_ratio=data.off / float(data.norms.max()) ** 2)
        dev, floor, scale = _full_vs_reduced(ctx, data, d, B, p, lr, steps, mode)
        ctx.close(
            f"{mode} reduction vs full system, {data.name} data (n={n}, d={d}, {steps} GD steps): "
            "max |pre-activations, a| deviation",
            dev,
            0.0,
            atol=SAFETY * floor + steps * EPS * scale,
            why=why,
            details={"rotated-copy floor": floor, "max |state|": scale, "||X^TX - D||": data.off},
        )
    ctx.note(
        "The Gram representation costs O(p n^2) per step whatever d: the claims of this paper use it "
        "with d up to 10^6 (sphere data drawn exactly through the Bartlett decomposition)."
    )
    with ctx.control(
        "decoupled (orthogonal) equations applied to correlated inputs",
        breaks=ORTHOGONAL,
        must_break=["orthogonal reduction vs full system*"],
    ):
        data = make_data(ctx.rng("control").host, n, "equicorrelated", rho=0.3)
        dev, floor, scale = _full_vs_reduced(ctx, data, d, B, p, lr, steps, "orthogonal")
        ctx.close(
            f"orthogonal reduction vs full system, {data.name} data (n={n}, d={d}, {steps} GD steps): "
            "max |pre-activations, a| deviation",
            dev,
            0.0,
            atol=SAFETY * floor + steps * EPS * scale,
            why=why,
        )


# ----------------------------------------------------------------- eq. (16): curvature


def _fd_curvature(model, y, args, scale: float = 1.0):
    r"""Central-difference :math:`-\dot L/L` along the flow field (times ``scale``), and its error bound.

    Richardson: with steps h and 2h, :math:`D_h=D+ch^2+eh^4+\dots`, the truncation error of
    :math:`D_h` is :math:`|D_{2h}-D_h|/3` to leading order, and the extrapolation
    :math:`D_h+(D_h-D_{2h})/3` removes it (error :math:`4|e|h^4`). The extrapolation is returned and the
    leading-order error of :math:`D_h` is its bound: a bound on :math:`D_h` itself would be exact at
    leading order, so a state whose next-order term has the other sign would exceed it (a search over
    states drove :math:`|\mu-D_h|/(|D_{2h}-D_h|/3)` to 0.99992). Rounding adds
    :math:`\approx \epsilon L/h` relative to L.  Both need L
    smooth on the stencil: a state with a pre-activation that changes sign within :math:`\pm2h`
    along F (:math:`|\langle w_j|x_i\rangle|\le2h|\frac{d}{dt}\langle w_j|x_i\rangle|`) has a kink
    of L there and gets an infinite error estimate (it carries no difference information; at
    B = 512, n = 64, p = 32 a few of the 10^6 pre-activations are that close to 0). So does a
    stationary state (F = 0 everywhere: no stencil).
    """
    F = scale * model(None, y, args)
    L0 = model.loss_value(y, args)
    speed = float(np.abs(to_numpy(F)).max())
    if speed == 0:  # stationary (no active neuron): no stencil, no difference information
        return np.zeros(to_numpy(L0).shape), np.full(to_numpy(L0).shape, np.inf)
    h = 1e-4 / speed

    def deriv(hh):
        return -(model.loss_value(y + hh * F, args) - model.loss_value(y - hh * F, args)) / (2 * hh) / L0

    d1, d2 = to_numpy(deriv(h)), to_numpy(deriv(2 * h))
    pre = to_numpy(model.preact(model.unpack(y)[0], args))
    dpre = to_numpy(model.preact(model.unpack(F)[0], args))
    kink = (np.abs(pre) <= 2 * h * np.abs(dpre)).any(axis=(1, 2))
    return d1 + (d1 - d2) / 3, np.where(kink, np.inf, np.abs(d2 - d1) / 3 + 10 * EPS / h)


def _random_states(ctx: Context, key: str, n: int, p: int, B: int):
    """App. B states on correlated (Assumption-2 boundary) and strongly correlated data."""
    rng = ctx.rng(key).host
    out = []
    for kind in ("boundary", "equicorrelated"):
        data = make_data(rng, n, kind, d=4 * n)
        model, y0, args, _ = ensemble(ctx.backend, data, B, p, rng, scale=3.0)
        out.append((data, model, y0, args))
    return out


EQ16_SHAPE = (3, 3)  # (n, p) of the eq. (16) search's instances


def eq16_ratio(theta: np.ndarray) -> float:
    """|mu(state formula) - (-dL/dt / L)| over its Richardson + rounding tolerance at one instance (any data,
    any state: :func:`lemma7_instance`); 0 at a kink or a stationary state, where the difference carries no
    information (:func:`_fd_curvature`'s infinite error estimate)."""
    model, y0, args = lemma7_instance(theta, *EQ16_SHAPE).model()
    fd, err = _fd_curvature(model, y0, args)
    mu = to_numpy(model.curvature(y0, args))
    return float(np.where(np.isfinite(err), np.abs(mu - fd) / err, 0.0)[0])


def eq16_starts(rng: np.random.Generator, per: int) -> dict[str, list[np.ndarray]]:
    """Start families of the eq. (16) search (blocks: input directions, log-norms, labels, W, a)."""
    n, p = EQ16_SHAPE
    d = n + 1
    shapes = {
        "Gaussian data and state": (1, 0, 1, 1, 1),
        "norms and labels over decades": (1, 2, 3, 1, 1),
        "small second layer (|a_j| << ||w_j||)": (1, 0, 1, 1, 1e-3),
        "large weights, nearly collinear inputs": (0.05, 0, 1, 10, 10),
    }
    out = {}
    for name, (z, c, y, w, a) in shapes.items():
        blocks = [(n * d, 1.0 if z < 1 else 0.0, z), (n, 0, c), (n, 0, y), (p * d, 0, w), (p, 0, a)]
        out[name] = [assemble(rng, blocks) for _ in range(per)]
    return out


@claim(
    "dana2025:equation-16-corrected",
    title="Eq. (16) corrected: mu = (2/n) Rbar^T M Rbar = p||grad L||^2/L = -dL/dt / L",
    source="eqs. (5), (15), (16), (24); catalog (C2)",
    statement=r"$\dot R=-\frac1nMR$ with $M=\frac1p\sum_j[P_jX^\top w_jw_j^\top XP_j+a_j^2P_jX^\top XP_j]$, "
    r"$\dot L=-\frac1{n^2}R^\top MR$, and the local-PL curvature (5) is "
    r"$\mu=p\frac{\|\nabla L\|^2}L=-\frac{\dot L}L=\frac2n\bar R^\top M\bar R$.",
    hypotheses=[P_FLOW, "any data, any parameters"],
)
def equation_16_corrected(ctx: Context) -> None:
    """The relations are exact identities, symbolic for every data, parameters and activation pattern at
    n = d = p = 2; numerically on App.-B states at n, p > 2 (two data families) and by a search over any
    data and state at (n, p) = EQ16_SHAPE (conditioning, norms over decades, a second layer much smaller
    than the first)."""
    n = ctx.param("n", tiny=6, quick=16, full=64)
    p = ctx.param("p", tiny=4, quick=8, full=32)
    B = ctx.param("B", tiny=8, quick=64, full=512)
    budget = ctx.param("budget", tiny=20, quick=100, full=400)
    res = sym.coordinate_residuals(2, 2, 2)
    ctx.zero("(15): dR/dt + M R / n = 0", res["eq15"], why="exact polynomial identity")
    ctx.zero("(16): mu ||R||^2 = (2/n) R^T M R", res["mu_16"], why="exact polynomial identity")
    ctx.zero("(C2): mu = exact state formula", res["mu_C2"], why="exact polynomial identity")
    ctx.zero("dL/dt = -R^T M R / n^2", res["dL_corrected"], why="exact polynomial identity")
    why = (
        "central difference of L along the field; tolerance = Richardson truncation estimate "
        "|D_2h - D_h|/3 + rounding 10 eps/h, per state"
    )
    for data, model, y0, args in _random_states(ctx, "eq16", n, p, B):
        fd, err = _fd_curvature(model, y0, args)
        mu = to_numpy(model.curvature(y0, args))
        ctx.bound(
            f"|mu(state formula) - (-dL/dt / L)| / tolerance, {B} App.-B states, {data.name} data (n={n}, "
            f"p={p})",
            np.abs(mu - fd) / err,
            1.0,
            why=why,
        )
    ctx.search(
        "search: |mu(state formula) - (-dL/dt / L)| / tolerance over any data and state",
        eq16_ratio,
        eq16_starts(ctx.rng("eq16-search").host, 2),
        budget=budget,
        why=f"{why}; Nelder-Mead over the inputs' directions and norms, the labels and (W, a), (n, p) = "
        f"{EQ16_SHAPE}, d = n + 1; a state at a kink reads 0 (no difference information there)",
    )
    with ctx.control(
        "flow without the acceleration factor p",
        breaks=P_FLOW,
        must_break=["|mu(state formula) - (-dL/dt / L)|*"],
    ):
        for data, model, y0, args in _random_states(ctx, "eq16", n, p, B):
            fd, err = _fd_curvature(model, y0, args, scale=1.0 / p)
            mu = to_numpy(model.curvature(y0, args))
            ctx.bound(
                f"|mu(state formula) - (-dL/dt / L)| / tolerance, {B} App.-B states, {data.name} data",
                np.abs(mu - fd) / err,
                1.0,
                why=why,
            )


@claim(
    "dana2025:equation-16",
    title="Eq. (16) as printed: dL/dt = -(2/n) R^T M R",
    source="eq. (16), App. A",
    statement=r"$\frac{d}{dt}L(t)=-\frac2nR^\top(t)M(t)R(t)$ and $\mu(t)=\frac2n\bar R^\top M\bar R$.",
    hypotheses=["p-accelerated flow (3)"],
    erratum=Erratum(
        r"from $L=\|R\|^2/(2n)$ and $\dot R=-\frac1nMR$: $\dot L=-\frac1{n^2}R^\top MR$, a factor $2n$ "
        r"smaller; the printed $\mu$ formula is right (dana2025:equation-16-corrected)",
        via="catalog §2.1 [INCONSISTENCY]; symbolic/shallow_meanfield.coordinate_residuals",
        shown_by=("dL/dt + (2/n) R^T M R = 0 (as printed)*", "|-(dL/dt) - (2/n) R^T M R|*"),
    ),
)
def equation_16(ctx: Context) -> None:
    n = ctx.param("n", tiny=6, quick=16, full=64)
    p = ctx.param("p", tiny=4, quick=8, full=32)
    B = ctx.param("B", tiny=8, quick=64, full=512)
    res = sym.coordinate_residuals(2, 2, 2)
    ctx.zero("dL/dt + (2/n) R^T M R = 0 (as printed)", res["dL_printed"], why="exact polynomial identity")
    ctx.zero(
        "dL/dt + (2/n) R^T M R - (2n-1)/n^2 R^T M R = 0: the printed form is off by exactly that",
        res["dL_printed_excess"],
        why="exact polynomial identity",
    )
    for data, model, y0, args in _random_states(ctx, "eq16", n, p, B):
        fd, err = _fd_curvature(model, y0, args)
        L = to_numpy(model.loss_value(y0, args))
        printed = 2 * n * to_numpy(model.curvature(y0, args)) * L  # (2/n) R^T M R = 2 n mu L
        measured = fd * L  # -dL/dt
        ctx.bound(
            f"|-(dL/dt) - (2/n) R^T M R| / tolerance, {data.name} data (n={n})",
            np.abs(measured - printed) / (err * L),
            1.0,
            why="central difference as in equation-16-corrected",
            details={"median ratio printed / measured": float(np.median(printed / measured)), "2n": 2 * n},
        )


# ------------------------------------------------------------------ Lemma 1 (balance)


def step_grid(model, y0, args, data, k: int = 4) -> np.ndarray:
    r"""Steps :math:`0.1\,2^{-m}/\lambda` (m < k),
    :math:`\lambda=\max\frac1{np}\sum_j(\|w_j\|^2+a_j^2)\lambda_{\max}(G)`.

    :math:`\lambda` bounds the largest rate :math:`\|M\|/n` of (15) at the initial state, so every step
    is in the asymptotic (small-step) regime of the Euler map.
    """
    a = to_numpy(model.unpack(y0)[1])
    wn = to_numpy(model.weight_sqnorm(y0, args))
    lam = float(((wn + a * a).sum(axis=1) / model.p).max() * np.linalg.eigvalsh(data.G).max() / data.n)
    return 0.1 / lam * 2.0 ** -np.arange(k)


def _euler_lemma2(model, y0, args, lr, steps, scale: float = 1.0):
    r"""Forward Euler (GD) :math:`\theta_{k+1}=\theta_k+\mathrm{lr}\,F(\theta_k)` of the flow (3) (``scale``
    multiplies the field F), with Lemma 2's defect along it.

    ``lr`` ``(B,)``: each member's step; ``steps``: an int or ``(B,)``, member b stops after ``steps[b]``
    steps (its step is 0 from then on, so its state and sum are frozen). Yields, after every step
    k = 1, ..., max(steps), the state, :math:`I_k=\sum_{m<k}\mathrm{lr}\,\mu_m` (``(B,)``, mu of eq. (5)
    at the state the step leaves) and the signed defect :math:`e_k=\log(L_k/L_0)+I_k` (``(B,)``): 0 for
    all k along a solution of (3) on which :math:`\mu=-\dot L/L`, O(lr) along Euler's approximation.
    """
    xp = array_namespace(y0)
    L0 = model.loss_value(y0, args)
    integral = xp.zeros(y0.shape[0])
    y = y0
    for k in range(int(np.max(steps))):
        h = xp.where(k < steps, lr, 0.0)
        integral = integral + h * model.curvature(y, args)
        y = y + (h * scale)[:, None] * model(None, y, args)
        yield y, integral, xp.log(model.loss_value(y, args) / L0) + integral


def _gd_defects(ctx: Context, data, B: int, p: int, T: float, key: str, scale: float = 1.0, a1: bool = False):
    """GD (forward Euler) runs of the flow on ``[0, T]`` at the steps of :func:`step_grid`.

    Per step: the balance drift ``max_{k,j}|Delta_jk - Delta_j0|`` (Delta = a^2 - ||w||^2, frozen mass
    included), the Lemma-2 defect ``max_k|log L_k/L_0 + sum_{m<k} lr mu_m|`` (:func:`_euler_lemma2`),
    ``min_{k,j} s_j a_jk`` and the largest number of sign changes of one pre-activation.  ``scale``
    multiplies the field; ``a1`` records Assumption 1 on the sampled initialization. Returns
    ``(lrs, rows)``.
    """
    be = ctx.backend
    xp = be.xp
    model, y0, args, _ = ensemble(be, data, B, p, ctx.rng(key).host)
    if a1:
        ctx.regime(ASSUMPTION_1, gap=init_gap(model, y0, args))
    lrs = step_grid(model, y0, args, data)
    rows = []
    for lr in lrs:
        delta0 = model.balance(y0, args)
        s = xp.sign(model.unpack(y0)[1])
        drift, defect = xp.zeros(B), xp.zeros(B)
        smin = xp.min(s * model.unpack(y0)[1], axis=1)
        active = model.unpack(y0)[0] > 0
        flips = xp.zeros(active.shape)
        for y, _, e in _euler_lemma2(model, y0, args, xp.full(B, lr), round(T / lr), scale):
            U, a = model.unpack(y)
            drift = xp.maximum(drift, xp.abs(model.balance(y, args) - delta0).max(axis=1))
            defect = xp.maximum(defect, xp.abs(e))
            smin = xp.minimum(smin, xp.min(s * a, axis=1))
            now = U > 0
            flips = flips + (now != active)
            active = now
        rows.append((float(drift.max()), float(defect.max()), float(smin.min()), float(flips.max())))
    return lrs, np.array(rows)


BALANCE_STEPS = 20_000  # attempted steps allowed per member of _balance_flow's solves


def _balance_flow(ctx: Context, data, B: int, p: int, T: float, rtol: float):
    r"""Full-coordinate DOPRI5 solve with an error estimate, on exactly orthogonal inputs.

    The inputs are :func:`axis_inputs` :math:`x_i=c_ie_i\in\mathbb R^{3n}` (``c`` the data's norms): on
    the inactive side of :math:`z_{ji}=0` the computed :math:`\dot z_{ji}` is exactly 0, as in exact
    arithmetic (the paper's flow: a neuron that switches off on :math:`x_i` stops on the surface and never
    slides or reactivates), so every switch the event solver meets is a transversal crossing. A random
    rotation :math:`XQ` gives the same law of :math:`\Delta(t)` in exact arithmetic (the
    flow is equivariant, the App. B law rotation-invariant), but its rounding-level cross terms
    :math:`\langle x_k|x_i\rangle\sim10^{-16}` give the inactive side a velocity of random sign: the
    solver takes a stopped neuron for a sliding one and integrates it live, and a state left at
    :math:`z_{ji}=+10^{-18}` (active, pushed back at speed :math:`|a_jc_i^2r_i|/n`) then chatters. Measured
    at the full profile (seed 0, n = 20, p = 16, B = 32, T = 100), rtol-1e-10 solve: 65-98 such segments
    per member, 747-1130 rejected steps against 866-1236 accepted, and one member stuck on
    :math:`z_{7,18}=3.4\cdot10^{-18}` at t = 84.647 after its 40000 attempted steps (16214 accepted, the last
    ones ~1e-9 long); on these inputs 0 segments and at most 305 attempted steps.

    Returns (max invariant drift of the refined solve, that of the coarse solve, the invariant's scale,
    the largest coarse drift DOPRI5's error control admits) and records Assumption 1 on the sampled
    initialization.

    The last is derived, not measured: :math:`\Delta_j` is a first integral, so a local error
    :math:`e` committed in one step changes it by :math:`\nabla\Delta_j\cdot e` (to first order) and
    the flow then carries that change unaltered; the drift is the sum of these over the steps. The
    controller accepts a step when the RMS of :math:`e_n/(\mathrm{atol}+\mathrm{rtol}|y_n|)` is at most
    1, so :math:`\|e\|_2\le\sqrt N(\mathrm{atol}+\mathrm{rtol}\,\|y\|_\infty)`, and
    :math:`|\nabla\Delta_j\cdot e|\le2\sqrt{a_j^2+\|w_j\|^2}\,\|e\|_2`. Over at most
    ``BALANCE_STEPS`` accepted steps the coarse drift is at most
    :math:`2K\sqrt N\max_j\sqrt{a_j^2+\|w_j\|^2}\,(\mathrm{atol}+\mathrm{rtol}\|y\|_\infty)`."""
    be = ctx.backend
    d = 3 * data.n
    X = axis_inputs(data.norms, d)
    W, a = appendix_b_init(ctx.rng("l1-flow").host, B, p, d)
    model = ShallowReLU(p, d, "full")
    args = model.args(be, X, data.y)
    y0 = be.asarray(model.pack((W, a)))
    ctx.regime(ASSUMPTION_1, gap=init_gap(model, y0, args))
    ts = np.linspace(0.0, T, 41)
    ys, diff = solve_with_error(model, y0, args, ts, rtol=rtol, max_steps=BALANCE_STEPS)

    def balance(z):
        Wt = z[:, :, : p * d].reshape(B, len(ts), p, d)
        return z[:, :, p * d :] ** 2 - (Wt**2).sum(-1)

    delta, coarse = balance(ys), balance(ys + diff)
    radius = np.sqrt(2 * ys[:, :, p * d :] ** 2 - delta).max()  # sqrt(a^2 + ||w||^2)
    controlled = 2 * BALANCE_STEPS * np.sqrt(ys.shape[-1]) * radius * rtol * (1e-3 + np.abs(ys).max())
    return (
        float(np.abs(delta - delta[:, :1]).max()),
        float(np.abs(coarse - coarse[:, :1]).max()),
        float(np.abs(delta).max()),
        float(controlled),
    )


@claim(
    "dana2025:lemma-1",
    title="Lemma 1: |a_j|^2 - ||w_j||^2 is conserved; under Assumption 1 a_j keeps its sign",
    source="Lemma 1, Section 2; proof App. A.7",
    statement=r"For all $j$ and $t\ge0$, $|a_j(t)|^2-\|w_j(t)\|^2=|a_j(0)|^2-\|w_j(0)\|^2$; hence if "
    r"$|a_j(0)|\ge\|w_j(0)\|$, $a_j(t)$ keeps its sign and $|a_j(t)|\ge\|w_j(t)\|$.",
    hypotheses=["p-accelerated flow (3) with $\\sigma'(0)=0$", "any data", ASSUMPTION_1],
)
def lemma_1(ctx: Context) -> None:
    n = ctx.param("n", tiny=4, quick=6, full=20)
    p = ctx.param("p", tiny=3, quick=4, full=16)
    B = ctx.param("B", tiny=2, quick=4, full=32)
    T = ctx.param("T", tiny=1.0, quick=4.0, full=100.0)
    budget = ctx.param("budget", tiny=25, quick=100, full=1000)  # per start (4 starts, ~0.2 ms each)
    res = sym.coordinate_residuals(2, 3, 2)
    ctx.zero("d/dt (a_j^2 - ||w_j||^2) = 0 on every activation pattern", res["lemma1"], why="exact identity")
    gaps: list[float] = []

    def violation(theta: np.ndarray) -> float:
        gaps.append(balance.min_gap([theta]))
        return balance.defect_ratio(theta)

    ctx.search(
        "search: max_j |a_j da_j/dt - <w_j|dw_j/dt>| / rounding bound along (3), over data and Assumption-1 "
        f"states (n, p = {balance.SHAPE})",
        violation,
        balance.starts(ctx.rng("search").host),
        budget=budget,
        why="the statement is for all data and initializations: along any solution Delta_j(t) - Delta_j(0) "
        "is twice the integral of this rate, so it must vanish at every state; the bound is the rounding of "
        "the computed rate, gamma_(2n+2d+12) |a_j|/n sum_i |r_i| (|W||X|^T)_ji (dana2025.balance), so a "
        "field off by a relative 1e-14 in one layer already exceeds it. Any data (norms e^-3..e^3), neuron 0 "
        "at the kink of example 0, |a_j| = ||w_j|| + softplus (equality approached)",
    )
    ctx.regime(ASSUMPTION_1, gap=min(gaps))
    rng = ctx.rng("data").host
    data = make_data(rng, n, "orthogonal")
    drift, coarse_drift, scale, controlled = _balance_flow(ctx, data, B, p, T, 1e-8)
    ctx.bound(
        "the error estimate itself: drift of Delta in the rtol-1e-8 solve (coarse - refined) against the "
        "drift DOPRI5's error control admits",
        coarse_drift,
        controlled,
        why="Delta_j is a first integral, so each step's local error e changes it by grad Delta_j . e, "
        "which the flow then carries unaltered; an accepted step has ||e||_2 <= sqrt(N) (atol + rtol "
        "||y||_inf), |grad Delta_j . e| <= 2 sqrt(a_j^2 + ||w_j||^2) ||e||_2, over at most BALANCE_STEPS "
        "steps (_balance_flow). The conservation bound below divides this estimate by MIN_GAIN, so an "
        "estimate that is not a solver error (an O(1) quantity, a wrong pairing) would loosen it unseen",
        resolution="an error estimate larger than the controller allows: its worst-case sum over "
        "BALANCE_STEPS steps, so it binds order-1 faults (the drift read as max |Delta|), not a factor of "
        "a few",
    )
    tol = coarse_drift / MIN_GAIN + 100 * EPS * scale
    ctx.bound(
        f"max_t,j |Delta_j(t) - Delta_j(0)|, Delta = a^2 - ||w||^2, full system, exactly orthogonal inputs "
        f"x_i = c_i e_i (n={n}, p={p}, d={3 * n}, T={T}), DOPRI5",
        drift,
        tol,
        why="DOPRI5 at rtol 1e-10 on a refined grid: its drift of Delta is at least 10x smaller than that of "
        "the rtol-1e-8 solve (measured ratios 120-354; common.MIN_GAIN), plus rounding 100 eps max|Delta|. "
        "A conserved quantity drifts only by discretisation; a flow that does not conserve Delta drifts "
        "by the same O(1) amount in both solves and exceeds 1/10 of it",
        details={"drift of the rtol-1e-8 solve": coarse_drift, "max |Delta|": scale},
        resolution=f"a drift of Delta above {tol:.2g} ({tol / scale:.1g} of max |Delta|) over [0, T]: the "
        "bound is the solver's error, no constant of the paper (which states exact conservation)",
    )
    signs = {}
    for kind in ("boundary", "equicorrelated"):
        data = make_data(rng, n, kind, rho=0.5, d=4 * n)
        lrs, res = _gd_defects(ctx, data, B, p, T, f"l1-{kind}", a1=True)
        ctx.order(
            f"balance drift of the Euler/GD discretisation vs step, {kind} data (n={n}, p={p}, T={T}): "
            "order 1 means the flow conserves Delta",
            lrs,
            res[:, 0],
            expected=1.0,
            tol=next_order_tolerance(lrs, res[:, 0], 1, 2),
            why="GD changes Delta by lr^2 (da^2 - ||dw||^2) per step, O(lr) over [0, T]; any O(1) drift of "
            "the flow would flatten the slope. Tolerance from the fitted second-order term "
            "(verify.order_tolerance)",
            xlabel="step lr",
            ylabel="max drift",
        )
        signs[kind] = res[-1, 2]
    ctx.note(
        "min_t,j s_j a_j(t) along GD at the smallest step on the App.-B runs: "
        + ", ".join(f"{k} data {v:.3g}" for k, v in signs.items())
        + ". Not a check: App. B puts |a_j(0)| an Exp(1) above ||w_j(0)||, so these neurons stay O(1) away "
        "from a = 0 over [0, T] whether or not Delta is conserved (no violation of a stated size could "
        "show here). The sign conclusion is checked where it can fail: neurons at Assumption 1's equality "
        "that decay to a ~ 0 (below)."
    )
    edges = [_edge_signs(ctx, 0.0, *inst) for inst in EDGE_INSTANCES.values()]
    signed, shrink = min(e[0] for e in edges), max(e[1] / e[2] for e in edges)
    ctx.bound(
        EDGE,
        signed,
        0.0,
        side=">=",
        why="Lemma 1 at the boundary of Assumption 1 (Delta = 0), on each of "
        f"{len(EDGE_INSTANCES)} orthogonal instances ({'; '.join(EDGE_INSTANCES)}; p = 1): the neuron has "
        "a(0) = -||w(0)|| < 0 against positive labels, so it only decays, along a^2 = ||w||^2, and its sign "
        "is what Lemma 1 decides. Worst instance recorded",
        details={"min_t s a(t) per instance": [e[0] for e in edges], "min_t |a(t)|": [e[1] for e in edges]},
        resolution=f"a loss of Delta by more than {max(e[1] ** 2 for e in edges):.2g} (the largest "
        "min_t a(t)^2 of the instances) before the closest approach to a = 0 turns the sign there (the "
        "controls: a loss of 1% of ||w(0)||^2)",
    )
    ctx.bound(
        "the edge runs reach a = 0's neighbourhood: max over instances of min_t |a(t)| / |a(0)|",
        shrink,
        1e-2,
        why="a sign check far from a = 0 would hold for flows that do not conserve Delta; 1e-2 (measured "
        "1e-4 and 2e-4 at T = 16) puts it at the margin, where 1% of ||w(0)||^2 below equality already flips "
        "the sign (the control); rounding of Delta (~1e-16) stays far below a^2 ~ 4e-8 there",
        resolution="an edge run that stays more than 1% of |a(0)| away from a = 0: there a Delta drift "
        "below ~1e-4 |a(0)|^2 could not turn the sign, and the sign check would lose its resolution",
    )
    with ctx.control(
        "Prop. 3 initialization |a_j(0)| = 0.01 << ||w_j(0)|| (d = n = p = 2)",
        breaks=ASSUMPTION_1,
        must_break=[f"{SIGN}*"],
    ):
        signed = _prop3_signs(ctx)
        ctx.bound(f"{SIGN}, Prop. 3 data", float(signed.min()), 0.0, side=">=", why="Lemma 1")
    with ctx.control(
        "the edge runs 1% below Assumption 1's equality, |a(0)|^2 = ||w(0)||^2 - 0.01 ||w(0)||^2",
        breaks=ASSUMPTION_1,
        must_break=[EDGE],
    ):
        worst = min(_edge_signs(ctx, -0.01, *inst)[0] for inst in EDGE_INSTANCES.values())
        ctx.bound(EDGE, worst, 0.0, side=">=", why="Lemma 1")


SIGN = "Lemma 1's sign conclusion: min_t,j s_j a_j(t) >= 0"
EDGE = f"{SIGN}, a wrong-sign neuron at Assumption 1's equality |a(0)| = ||w(0)||"
EDGE_INSTANCES = {
    "x_i = e_i, y = (1, 1), <w(0)|x_i> = (1, 1/2)": ((1.0, 1.0), (1.0, 1.0), (1.0, 0.5)),
    "x_i = (e_1 / 2, 2 e_2), y = (2, 1), <w(0)|x_i> = (0.2, 1.5)": ((0.5, 2.0), (2.0, 1.0), (0.2, 1.5)),
}
r"""Lemma 1's edge instances: one neuron (p = 1) on orthogonal inputs :math:`x_i=c_ie_i`, given as (norms
c, labels y, pre-activations :math:`\langle w(0)|x_i\rangle`), no frozen mass (it would keep
:math:`|a|\ge\|w^\perp\|` away from 0)."""


def _edge_signs(ctx: Context, rel_gap: float, c, y, v) -> tuple[float, float, float]:
    r"""(min_t s a(t), min_t |a(t)|, |a(0)|) over t in [0, 16] for one neuron with
    :math:`a(0)=-\|w(0)\|\sqrt{1+\text{rel\_gap}}` (:math:`\Delta(0)=\text{rel\_gap}\,\|w(0)\|^2`) on the
    instance (c, y, v) of :data:`EDGE_INSTANCES`: wrong-signed on every example (y > 0), so it decays."""
    be = ctx.backend
    model = ShallowReLU(1, 2, "orthogonal")
    args = model.args(be, np.asarray(c), np.asarray(y), wperp2=np.zeros((1, 1)))
    V = np.asarray(v, float).reshape(1, 1, 2)
    wsq = float(to_numpy(model.weight_sqnorm(be.asarray(model.pack((V, np.zeros((1, 1))))), args))[0, 0])
    a0 = -np.sqrt(wsq * (1 + rel_gap))
    ys = solve_flow(
        model, be.asarray(model.pack((V, np.full((1, 1), a0)))), args, np.linspace(0, 16.0, 401), rtol=1e-9
    )
    a_t = ys[0, :, 2]
    return float((-a_t).min()), float(np.abs(a_t).min()), float(-a0)


def _prop3_signs(ctx: Context) -> np.ndarray:
    """s_j a_j(t) along the Prop. 3 collapse (y = (100, -50), g(0) = [[1, .95], [.92, .9]])."""
    be = ctx.backend
    model = ShallowReLU(2, 2, "orthogonal")
    V = np.array([[[1.0, 0.95], [0.92, 0.9]]])
    a = np.array([[0.01, -0.01]])
    args = model.args(be, np.ones(2), np.array([100.0, -50.0]), wperp2=np.zeros((1, 2)))
    ys = solve_flow(model, be.asarray(model.pack((V, a))), args, np.linspace(0, 2.0, 201), rtol=1e-9)
    return np.sign(a)[:, None, :] * ys[:, :, 4:]


# ------------------------------------------------------------------- Lemma 2


LOG_RESOLVED = -40.0
r"""Lemma 2's defect is read where :math:`\log L(t)/L(0)\ge` this. Below it float64 does not resolve
:math:`\log L`: the computed residuals :math:`r_i=y_i-f_i` carry rounding of a few eps
:math:`\max(|y_i|,|f_i|)\approx10^{-15}` (App. B labels :math:`|y_i|\le2`), while at
:math:`L/L_0=e^{-40}` the residuals are :math:`e^{-20}\approx2\cdot10^{-9}` of their initial size
(:math:`\approx|y|`, small initialization): relative rounding :math:`\lesssim5\cdot10^{-7}`, so
:math:`|\delta\log L|\lesssim10^{-6}`. Measured at the full size (n = 64, p = 32, T = 400): the
refined solve's defect is :math:`\le2.5\cdot10^{-5}` down to :math:`\log L/L_0=-56`, then
:math:`2.7\cdot10^{-3}` at -63 and 2.4 at -67.5 (the loss at the rounding floor)."""


LEMMA2_FAMILIES = {"App. B initialization": 1.0, "App. B second layer x 0.01 (Assumption 1 violated)": 0.01}
"""Lemma 2's initializations (second-layer factor on the App. B draw), structurally different trajectories:
Lemma 2 assumes no Assumption 1, and with |a_j| << ||w_j|| second layers change sign along the flow (17
of the 32 neurons in a quick-size draw; none under App. B), a path Assumption 1 excludes. Both cross many
kinks (29 and 62 of the 120 active pre-activations die by T in that draw)."""


def _lemma2_flow(
    ctx: Context, data, B: int, p: int, T: float, rtol: float, scale: float, a_scale: float = 1.0
):
    """DOPRI5 of the flow augmented by dI/dt = mu (orthogonal data): the defect of Lemma 2 on the refined
    and on the coarse solve (:func:`solve_with_error`) over the records where log L is resolved
    (:data:`LOG_RESOLVED`, read on the refined solve), ``ts``, log L(t)/L(0), the integral and the
    fraction of records read. The App. B second layer is multiplied by ``a_scale``."""
    be = ctx.backend
    key = f"l2-{data.name}" + ("" if a_scale == 1 else f"-a{a_scale:g}")
    model, y0, args, _ = ensemble(be, data, B, p, ctx.rng(key).host)
    V, a = model.unpack(y0)
    y0 = model.pack((V, a_scale * a))
    aug = WithCurvatureIntegral(model, scale)
    z0 = be.xp.concatenate([y0, be.xp.zeros((B, 1))], axis=1)
    ts = np.linspace(0.0, T, 51)
    ys, diff = solve_with_error(aug, z0, args, ts, rtol=rtol)

    def log_loss(z):
        return np.log(
            np.stack([to_numpy(model.loss_value(be.asarray(z[:, k, :-1]), args)) for k in range(len(ts))], 1)
        )

    def defect(z, resolved=None):
        logL = log_loss(z)
        lhs = logL - logL[:, :1]
        resolved = lhs >= LOG_RESOLVED if resolved is None else resolved
        return lhs, np.abs(lhs + z[:, :, -1])[resolved].max(), resolved

    lhs, gap, resolved = defect(ys)
    return float(gap), float(defect(ys + diff, resolved)[1]), ts, lhs, ys[:, :, -1], float(resolved.mean())


@claim(
    "dana2025:lemma-2",
    title="Lemma 2: L(t) = L(0) exp(-<mu(t)> t)",
    source="Lemma 2, Section 3.1; proof App. A.7, eq. (88)",
    statement=r"With $\langle\mu(t)\rangle=\frac1t\int_0^t\mu(u)du$, "
    r"$L(\theta_t)=L(\theta_0)e^{-\langle\mu(t)\rangle t}$.",
    hypotheses=[
        r"$\mu=p\|\nabla L\|^2/L$ (5)",
        P_FLOW,
        ORTHOGONAL,  # (3) has a solution to integrate: on correlated inputs it may not (dana2025:section-2)
    ],
)
def lemma_2(ctx: Context) -> None:
    n = ctx.param("n", tiny=6, quick=8, full=64)
    p = ctx.param("p", tiny=6, quick=8, full=32)
    B = ctx.param("B", tiny=3, quick=4, full=64)
    T = ctx.param("T", tiny=15.0, quick=25.0, full=400.0)
    rng = ctx.rng("data").host
    data = make_data(rng, n, "orthogonal")
    ctx.regime(ORTHOGONAL, off_ratio=off_ratio(data.G))
    curves = {}
    for family, a_scale in LEMMA2_FAMILIES.items():
        gap, coarse_gap, ts, lhs, integral, read = _lemma2_flow(ctx, data, B, p, T, 1e-8, 1.0, a_scale)
        tol = coarse_gap / MIN_GAIN + 100 * EPS * max(1.0, float(np.abs(lhs).max()))
        total = float(np.abs(integral).max())
        curves[family] = (ts, lhs[0], integral[0])
        ctx.bound(
            f"max_t |log L(t)/L(0) + int_0^t mu|, orthogonal data (n={n}, p={p}, B={B}, T={T}), {family}, "
            "DOPRI5",
            gap,
            tol,
            why="flow augmented by dI/dt = mu, DOPRI5 at rtol 1e-10 on a refined grid: its defect is at "
            "least 10x smaller than that of the rtol-1e-8 solve (measured ratios 31-400; common.MIN_GAIN), "
            "plus rounding of log L. An identity that failed would leave the same O(1) defect in both "
            f"solves, far above 1/10 of it. Read where log L(t)/L(0) >= {LOG_RESOLVED:g} "
            "(model.LOG_RESOLVED: below it the loss is at float64's rounding floor)",
            details={"defect of the rtol-1e-8 solve": coarse_gap, "fraction of records read": read},
            resolution=f"a defect above {tol:.2g} in log L (the refined solve's error, no constant of the "
            f"paper, which states an identity): a rate -dL/dt / L off mu by a relative {tol / total:.1g} "
            f"over the run (int mu = {total:.3g})",
        )
    ts, lhs, integral = curves[next(iter(LEMMA2_FAMILIES))]
    ctx.figure(
        "log L(t)/L(0) and -int mu (orthogonal data, App. B initialization)",
        xlabel="t",
        ylabel="log L(t)/L(0)",
        series=[Series("log L/L0", ts, lhs), Series("-int_0^t mu", ts, -integral, "--")],
    )
    ctx.note(
        "Lemma 2 needs a solution of (3). On correlated inputs (even under Assumption 2) the small-step "
        "GD limit slides along activation surfaces (Filippov motion: some pre-activations chatter across 0 "
        "with a number of sign flips proportional to 1/lr) and is not a solution of (3); along it "
        "log L(t)/L(0) + int mu tends to a non-zero constant as lr -> 0. See dana2025:section-2. The "
        "pointwise identity mu = -dL/dt / L on correlated data, wherever (3) holds, is checked in "
        "dana2025:equation-16-corrected."
    )
    with ctx.control(
        "flow without the acceleration factor p",
        breaks=P_FLOW,
        must_break=["max_t |log L(t)/L(0) + int_0^t mu|*"],
    ):
        data = make_data(rng, n, "orthogonal")
        gap, coarse_gap, *_ = _lemma2_flow(ctx, data, B, p, T, 1e-8, 1.0 / p)
        ctx.bound(
            f"max_t |log L(t)/L(0) + int_0^t mu|, orthogonal data (n={n}, p={p})",
            gap,
            coarse_gap / MIN_GAIN + 100 * EPS * max(1.0, gap),
            why="as above",
        )


# ------------------------------------------------------- Section 2 / App. C.2: which flow


_SELECTION_WHY = (
    "'deactivated neurons cannot reactivate by themselves': each pre-activation crosses 0 at most once (an "
    "active neuron may die, a dead one never revives). The statement is about the small-step limit, so a "
    "count that doubles each time lr halves is a counterexample that persists as lr -> 0 (this check names "
    "the instance: App. B norms and labels, a Gram matrix at the stated fraction of the limit, App. B "
    "initialization)"
)


def _selection_data(ctx: Context) -> tuple[list, list]:
    """Orthogonal and boundary (0.99 x limit (4)) data sets, n = 16 / p = 12 at quick, d = 4n, and GD on
    each at the steps of :func:`step_grid` (:func:`_gd_defects`): ``(sets, [(lrs, rows), ...])``."""
    n = ctx.param("n", tiny=8, quick=16, full=32)
    p = ctx.param("p", tiny=8, quick=12, full=24)
    B = ctx.param("B", tiny=4, quick=8, full=32)
    T = ctx.param("T", tiny=3.0, quick=6.0, full=20.0)
    rng = ctx.rng("data").host
    sets = [make_data(rng, n, kind, d=4 * n) for kind in ("orthogonal", "boundary")]
    ctx.regime(ASSUMPTION_2, ratio=max(data.off / data.limit for data in sets))
    return sets, [_gd_defects(ctx, data, B, p, T, f"s2-{data.name}") for data in sets]


def _label(data, lrs, flips) -> str:
    return (
        f"{data.name} data (n={data.n}, d={4 * data.n}, ||X^TX - D|| = {data.off:.3g} = "
        f"{data.off / data.limit:.3g} x limit (4); sign changes {flips.astype(int).tolist()} at lr = "
        f"{lrs[0]:.3g} / 1, 2, 4, 8)"
    )


def _selection_holds(ctx: Context, data, lrs: np.ndarray, res: np.ndarray) -> None:
    """The printed statement's two conclusions on ``data``: no pre-activation revives along small-step GD,
    and GD's Lemma-2 defect vanishes like lr (GD converges to a solution of (3) along which mu = -L'/L).

    On exactly orthogonal inputs the first is structural (GD runs in Gram coordinates with a diagonal Gram
    matrix, where a dead pre-activation's update is exactly 0), so there it is a note, not a check: the
    defect order carries the statement."""
    name = f"max sign changes of one pre-activation along GD, smallest step, {_label(data, lrs, res[:, 3])}"
    if data.orthogonal:
        ctx.note(
            f"{name}: {int(res[-1, 3])} (structural on orthogonal inputs in Gram coordinates: the update of "
            "a dead pre-activation is exactly 0, so this reads the implementation, not the dynamics)"
        )
    else:
        ctx.bound(
            name,
            res[-1, 3],
            1.0,
            why=_SELECTION_WHY,
            details={
                "lr": lrs,
                "sign changes per lr": res[:, 3],
                "Assumption-2 ratio": data.off / data.limit,
            },
            resolution="a pre-activation that changes sign twice or more along GD at the smallest step",
        )
    _defect_vanishes(ctx, data, lrs, res)


def _defect_vanishes(ctx: Context, data, lrs: np.ndarray, res: np.ndarray) -> None:
    r"""GD's Lemma-2 defect :math:`\max_k|\log L_k/L_0+\sum_{m<k}\mathrm{lr}\,\mu_m|` on ``data`` vanishes
    with the step: Euler gives order 1 on a solution of (3), an O(1) defect order 0.  The crossing of a
    kink inside a step makes the O(lr) coefficient depend on where in the step it falls, so the local
    slopes scatter (0.5-1.4 on orthogonal data): the fit's 95% interval must exclude order 0."""
    fit = evidence.fit_order(lrs, res[:, 1])
    ctx.bound(
        "lower 95% limit of the order in lr of |log L_k/L_0 + sum lr mu_m| along GD, "
        f"{data.name} data: > 0 means GD converges to a solution of (3) along which mu = -dL/dt / L",
        fit.lo,
        0.0,
        side=">=",
        why="Euler: log L_{k+1} - log L_k = -lr mu_k + O(lr^2), so on a solution of (3) the defect "
        "vanishes like lr (order 1); an O(1) defect that survives lr -> 0 has order 0, which the "
        "interval must exclude. Fragile beyond this instance: four steps over a factor 8, one phase "
        "each, while the O(lr) coefficient depends on where kink crossings fall in a step (0.05 to 0.96 "
        "over 11 halvings at three phases on one orthogonal instance, 5x between the phases of one "
        "step), so on other instances the same fit can take that scatter for order 0 with GD "
        "converging; the search of dana2025:section-2-corrected "
        "(a phase envelope over a factor 64) carries the for-all part",
        details={"order": fit.slope, "interval": [fit.lo, fit.hi], "lr": lrs, "defect per lr": res[:, 1]},
        resolution="a defect that does not vanish with the step (order 0 inside the 95% interval): a GD "
        "limit along which -dL/dt / L differs from mu",
    )


_SLIDING_NOTE = (
    "On correlated inputs, even at 0.99 of the Assumption-2 limit, a pre-activation that decays to 0 under "
    "its own example's residual is pushed back up by the (small) cross terms sum_k r_k <x_i,x_k>: with "
    "sigma'(0) = 0 the field at v = 0 points into v > 0 and just above it points back. Flow (3) then has no "
    "solution through that point, GD chatters across 0 (sign flips ~ 1/lr) and its limit is a Filippov "
    "sliding motion along which -dL/dt / L differs from mu = p||grad L||^2/L. The convergence statements "
    "are not affected here (dana2025:theorem-1 checks (6) with both readings of mu); orthogonal inputs have "
    "no sliding (the field at v = 0 is exactly 0)."
)


@claim(
    "dana2025:section-2",
    title="Section 2 'Gradient flow': the selected sigma'(0)=0 trajectory exists and is the small-step GD "
    "limit",
    source="Section 2 ('Gradient flow' paragraph), App. C.2 (last paragraph), eq. (5)",
    statement=r"With $\sigma'(0)=0$ one selects, among the solutions of (3), the only one in which "
    r"deactivated "
    r"neurons cannot reactivate by themselves; it is the limit of gradient descent for small step-size, and "
    r"along it $\mu(t)=p\|\nabla L(\theta_t)\|^2/L(\theta_t)=-\frac{d}{dt}L/L$ (5).",
    hypotheses=[
        "any data; orthogonal and weakly correlated (Assumption 2) inputs in particular",
        ASSUMPTION_2,
    ],
    erratum=Erratum(
        r"on weakly correlated inputs inside Assumption 2 (Gram at 0.99 of limit (4), App. B norms, labels "
        r"and initialization) (3) with $\sigma'(0)=0$ has no solution through a pre-activation that reaches "
        r"0: the cross terms push it back up, small-step GD chatters across 0 (sign changes of one "
        r"pre-activation double each time the step halves) and its limit is a Filippov sliding motion (at "
        r"quick GD's Lemma-2 defect $|\log L_k/L_0+\sum\mathrm{lr}\,\mu_m|$ does not vanish either; at "
        r"full it falls with the steps tried, so (5) along the sliding limit is left open). The paper "
        r"argues the selection on orthogonal data only (App. C.2), where it holds; corrected statement: "
        r"dana2025:section-2-corrected",
        via="found by this verification (GD at four steps on the paper's own data class)",
        shown_by=(
            "max sign changes of one pre-activation along GD, smallest step, boundary data*",
            "lower 95% limit of the order in lr of |log L_k/L_0 + sum lr mu_m| along GD, boundary data*",
        ),
    ),
)
def section_2(ctx: Context) -> None:
    sets, runs = _selection_data(ctx)
    for data, (lrs, res) in zip(sets, runs, strict=True):
        _selection_holds(ctx, data, lrs, res)
    ctx.note(_SLIDING_NOTE)


def _sliding(ctx: Context, data, lrs: np.ndarray, res: np.ndarray) -> None:
    """Small-step GD slides on ``data``: the crossings of one pre-activation are unbounded as lr -> 0."""
    crossings = evidence.fit_order(lrs, res[:, 3])
    ctx.bound(
        f"upper 95% limit of the order in lr of the max sign changes of one pre-activation, "
        f"{_label(data, lrs, res[:, 3])}",
        crossings.hi,
        -0.5,
        why="a bounded number of crossings (a solution of (3), or a trajectory that settles on one side) "
        "has order 0; sliding (one flip every few steps over a fixed time) has order -1. The fit's 95% "
        "interval (Student t) must lie nearer -1 than 0, below the midpoint -1/2: an interval reaching "
        "above it cannot tell the two apart",
        details={"order": crossings.slope, "interval": [crossings.lo, crossings.hi]},
        resolution="a number of crossings that does not grow like 1/lr (an interval reaching above -1/2): "
        "no sliding at the steps tried",
    )


S2_SHAPE = (4, 3)  # (n, p) of the Section-2 search's instances
S2_HORIZON = 25  # the horizon T in steps of the base step h (h = 0.1 / lambda, step_grid)
S2_REFINE = 64  # the small step is h / S2_REFINE
S2_PHASES = 2.0 ** (-np.arange(3) / 3)  # each step s is taken as s 2^(-k/3), k = 0, 1, 2


def s2_instance(theta: np.ndarray) -> tuple[ShallowReLU, np.ndarray, dict, Data]:
    """One member on exactly orthogonal inputs x_i = c_i e_i (n, p = S2_SHAPE): log-norms, labels,
    pre-activations v_ji = <w_j|x_i> and a from theta (:func:`~verify.papers.dana2025.instances.norms`,
    :func:`~verify.papers.dana2025.instances.labels`); no frozen mass (it enters no quantity here)."""
    n, p = S2_SHAPE
    c, y = norms(theta[:n]), labels(theta[n : 2 * n])
    V, a = theta[2 * n : 2 * n + p * n].reshape(1, p, n), theta[2 * n + p * n :].reshape(1, p)
    model = ShallowReLU(p, n, "orthogonal")
    args = model.args(HOST, c, y, wperp2=np.zeros((1, p)))
    return model, model.pack((V, a)), args, Data(c, y, np.diag(c * c), n, "orthogonal")


def s2_ratio(theta: np.ndarray) -> float:
    r"""Phase-envelope convergence ratio of GD's Lemma-2 defect at the instance :func:`s2_instance`.

    :math:`D(s)=\max_{k\le T/s}|\log L_k/L_0+\sum_{m<k}s\,\mu_m|` along GD at step s (:func:`_euler_lemma2`),
    its envelope over three phases :math:`E(s)=\max_{\varphi}D(s\varphi)`,
    :math:`\varphi\in\{1,2^{-1/3},2^{-2/3}\}`, and

    .. math:: r=\sqrt{64}\,E(h/64)/E(h),\qquad h=0.1/\lambda\ (\text{step\_grid}),\ T=25h.

    Threshold. A defect :math:`D(s)=c\,s^q` gives :math:`r=8\cdot64^{-q}`: Euler on a solution of (3)
    along which :math:`\mu=-\dot L/L` has q = 1 (r = 1/8); a defect that survives s -> 0 (GD's limit is
    not such a solution, or mu is not -dL/dt / L along it) has q = 0 (r = 8). ``r <= 1`` is
    :math:`q\ge1/2`, the midpoint, so either reading may be off by a factor 8 before it is taken
    for the other.

    Why an envelope. With orthogonal inputs the field :math:`\dot v_{ji}=\frac{c_i^2}na_jr_i1_{j,i}`
    jumps across :math:`v_{ji}=0`, so a step that crosses the kink makes an O(s) local error whose size
    depends on the fraction of the step before the crossing: the O(s) coefficient c is a function of
    where each crossing falls in its step, not a constant (measured: from 0.05 to 0.96 over 11 halvings
    and three phases on the worst instance found), and one step per s (a 4-point fit,
    :func:`_defect_vanishes`) reads that scatter as an order. The three phases (25, 31 and 40 steps
    over T) put each crossing at three positions in its step, and each envelope is the largest of them.
    With :math:`c_\varphi` the coefficient at phase :math:`\varphi`:
    :math:`E(h/64)\le\frac h{64}\max_\varphi c_\varphi(h/64)` and
    :math:`E(h)\ge2^{-2/3}h\max_\varphi c_\varphi(h)`, so an order-1 defect passes whenever the largest
    of the three coefficients at h reaches :math:`1/(8\cdot2^{-2/3})\approx1/5` of the largest at h/64,
    however far the coefficient varies from phase to phase: a variation that defeats the envelope has
    to hide the large coefficients from all three phases at h and show them at h/64. Measured: the
    worst instances found read 0.23 (this claim's starts) and 0.41 (other starts); mu x 0.9 (eq. (5)
    off by 10%) reads 8-15 in every family.

    Rounding floor: each step adds one rounded term to :math:`I_k` (error :math:`\le\epsilon|I_k|`) and
    mu and :math:`L_k` carry a relative rounding of a few :math:`(n+p)\epsilon` (n + p = 7), so a defect
    within :math:`100\epsilon\,k\,(1+\max|I_k|)` at every step size carries no order; the instance then
    reads 0 (e.g. no active neuron: L constant, mu = 0, D = 0 exactly).
    """
    model, y0, args, data = s2_instance(theta)
    h = step_grid(model, y0, args, data, k=1)[0]
    lrs = h * np.concatenate([S2_PHASES, S2_PHASES / S2_REFINE])
    steps = np.round(S2_HORIZON * h / lrs).astype(int)
    defect, integral = np.zeros(len(lrs)), np.zeros(len(lrs))
    for _, total, e in _euler_lemma2(model, np.repeat(y0, len(lrs), axis=0), args, lrs, steps):
        defect, integral = np.maximum(defect, np.abs(e)), np.maximum(integral, np.abs(total))
    if np.all(defect <= 100 * EPS * steps * (1 + integral)):
        return 0.0
    k = len(S2_PHASES)
    return float(np.sqrt(S2_REFINE) * defect[k:].max() / defect[:k].max())


def s2_starts(rng: np.random.Generator) -> dict[str, list[np.ndarray]]:
    """Start families of the Section-2 search (blocks: log-norms, labels, pre-activations v, a)."""
    n, p = S2_SHAPE
    shapes = {
        "App.-B-like: norms ~ 1, labels ~ 1, Gaussian state": ((0, 0.3), (1, 0.5), (0, 1), (0, 1)),
        "pre-activations at the kink (|v_ji| ~ 1e-2)": ((0, 0.3), (1, 0.5), (0, 1e-2), (0, 1)),
        "norms and labels over decades": ((0, 1.5), (0, 2), (0, 1), (0, 1)),
        "small second layer (|a_j| << ||w_j||)": ((0, 0.3), (1, 0.5), (0, 1), (0, 1e-2)),
        "wrong-sign second layer (a_j y_i < 0)": ((0, 0.3), (1, 0.2), (0.5, 0.3), (-1, 0.2)),
    }
    return {
        name: [assemble(rng, [(size, *b) for size, b in zip((n, n, p * n, p), blocks, strict=True)])]
        for name, blocks in shapes.items()
    }


@claim(
    "dana2025:section-2-corrected",
    title="Section 2 corrected: the sigma'(0)=0 selection is the small-step GD limit on orthogonal inputs; "
    "on weakly correlated ones GD slides",
    source="Section 2 ('Gradient flow' paragraph), App. C.2; correction of dana2025:section-2",
    statement=r"On orthogonal inputs the $\sigma'(0)=0$ trajectory of (3), in which deactivated neurons "
    r"cannot reactivate, is the limit of gradient descent for small step-size, and along it "
    r"$\mu=-\frac{d}{dt}L/L$ (5); on weakly correlated inputs inside Assumption 2 it need not exist: "
    r"small-step GD can slide along an activation surface (the crossings of one pre-activation grow "
    r"without bound as the step $\to0$), a Filippov motion, not a solution of (3).",
    hypotheses=[ORTHOGONAL, CORRELATED, ASSUMPTION_2],
)
def section_2_corrected(ctx: Context) -> None:
    """The orthogonal half is a statement for all data and initializations: GD's Lemma-2 defect on one
    App.-B instance (:func:`_defect_vanishes`) and a search over orthogonal instances of the defect's
    phase-envelope convergence ratio (:func:`s2_ratio`). The correlated half: sliding on boundary data."""
    budget = ctx.param("budget", tiny=4, quick=40, full=200)  # per start (5 starts, ~0.2 s each)
    (ortho, boundary), ((lrs0, res0), (lrs1, res1)) = _selection_data(ctx)
    ctx.regime(ORTHOGONAL, off_ratio=off_ratio(ortho.G))
    ctx.regime(CORRELATED, off_ratio=off_ratio(boundary.G))
    _selection_holds(ctx, ortho, lrs0, res0)
    ctx.search(
        "search: phase-envelope ratio sqrt(64) E(h/64) / E(h) of GD's Lemma-2 defect "
        "E(s) = max over steps s 2^(-k/3), k < 3, of max_k |log L_k/L_0 + sum lr mu_m| over orthogonal "
        f"instances (n, p = {S2_SHAPE}): <= 1 means order >= 1/2, GD converges to a solution of (3) "
        "along which mu = -dL/dt / L",
        s2_ratio,
        s2_starts(ctx.rng("s2-search").host),
        budget=budget,
        why="a defect c s^q gives 8 x 64^-q: Euler on a solution of (3) with mu = -dL/dt / L has q = 1 "
        "(1/8), a defect that survives s -> 0 has q = 0 (8); 1 is the midpoint q = 1/2. The O(s) "
        "coefficient depends on where each kink crossing falls in its step (the field jumps there), so "
        "each step is taken at three phases and the largest defect kept: an order-1 defect passes "
        "unless the largest coefficient of the three phases at h falls below 1/5 of the largest at "
        "h/64 (s2_ratio). h = 0.1 / lambda (step_grid), horizon 25 h; any norms (e^-3..e^3), labels and "
        "state; an instance whose defects are all within rounding (100 eps per step) reads 0",
    )
    _sliding(ctx, boundary, lrs1, res1)
    with ctx.control(
        "orthogonal inputs for the sliding conclusions (the run above)",
        breaks=CORRELATED,
        must_break=["upper 95% limit of the order in lr*"],
    ):
        _sliding(ctx, ortho, lrs0, res0)
    defect = evidence.fit_order(lrs1, res1[:, 1])
    ctx.note(
        f"{_SLIDING_NOTE} Along the sliding GD of the boundary data the Lemma-2 defect is "
        f"{', '.join(f'{v:.3g}' for v in res1[:, 1])} at the four steps (order {defect.slope:.3g}, 95% "
        f"interval [{defect.lo:.3g}, {defect.hi:.3g}]): whether mu = -dL/dt / L holds along the sliding "
        "limit is not decided here (quick: a flat defect ~0.016, order -0.04; full: falling like lr down "
        "to 0.005 at these steps; the sliding neuron's share of the sums may lie below the O(lr) terms)."
    )


def _c2_runs(ctx: Context, v01: float, delays, T: float = 4.0):
    """Orthogonal pair (x_i = e_i, y = (1, 1)), neuron 0 with <w_0|x_1> = ``v01``: flows with sigma'(0) = 0,
    with sigma'(0) = 1 and the delayed trajectories (sigma'(0) = 0 until t~, then 1). States at T."""
    be = ctx.backend
    V = np.array([[[0.5, v01], [0.3, 0.4]]])
    a = np.array([[1.0, 1.0]])
    y0 = be.asarray(ShallowReLU(2, 2, "orthogonal").pack((V, a)))
    ts = np.linspace(0.0, T, 81)
    out = {}
    for name, kink in (("sigma'(0)=0", 0.0), ("sigma'(0)=1", 1.0)):
        model = ShallowReLU(2, 2, "orthogonal", kink=kink)
        args = model.args(be, np.ones(2), np.ones(2), wperp2=np.zeros((1, 2)))
        out[name] = solve_flow(model, y0, args, ts, rtol=1e-11)[0]
    for td in delays:
        k = int(np.searchsorted(ts, td))
        m1 = ShallowReLU(2, 2, "orthogonal", kink=1.0)
        args = m1.args(be, np.ones(2), np.ones(2), wperp2=np.zeros((1, 2)))
        start = be.asarray(out["sigma'(0)=0"][None, k])
        tail = solve_flow(m1, start, args, ts[k:], rtol=1e-11)[0]
        out[f"wait until t~={td:g}"] = np.concatenate([out["sigma'(0)=0"][:k], tail])
    return ts, out


T_GD = 2.0  # horizon of the GD-limit runs of App. C.2 (the neuron dies at ~0.03, a_0 r_1 > 0 from ~0.07)


def _c2_gd_limit(ctx: Context, lrs, T: float) -> None:
    r"""The small-step limit of GD when a neuron *arrives* at the kink along the flow.

    Started exactly at the kink, GD with the mask :math:`\mathbb 1_{v>0}` stays there by construction,
    so that says nothing about which flow GD selects. Here neuron 0 (:math:`a_0=1`,
    :math:`\langle w_0|x_1\rangle=10^{-3}`) overshoots example 1 next to a large neuron 1
    (:math:`a_1=2.2`, :math:`v_1=(1,3)`): the :math:`\sigma'(0)=0` flow brings
    :math:`\langle w_0|x_1\rangle` to 0 at :math:`t\approx0.03`, and from :math:`t\approx0.07` on
    :math:`a_0r_1>0` (neuron 1 shrinks on the overshot example 2 and :math:`r_1` changes sign): C.2's
    situation, reached dynamically. GD runs with the opposite convention at 0 (:math:`\sigma'(0)=1`, the one
    that would revive an exact zero); it overshoots below 0 and stays inactive, so it should converge at
    order 1 to the no-revival flow, and not to the revival trajectory (:math:`\sigma'(0)=1` from the first
    time with :math:`a_0r_1>0`).
    """
    be = ctx.backend
    flows = {kink: ShallowReLU(2, 2, "orthogonal", kink=kink) for kink in (0.0, 1.0)}
    args = {k: m.args(be, np.ones(2), np.ones(2), wperp2=np.zeros((1, 2))) for k, m in flows.items()}
    y0 = be.asarray(flows[0.0].pack((np.array([[[1e-3, -0.5], [1.0, 3.0]]]), np.array([[1.0, 2.2]]))))
    ts = np.linspace(0.0, T, 201)
    flow = solve_flow(flows[0.0], y0, args[0.0], ts, rtol=1e-11)[0]
    v01, a = flow[:, 0], flow[:, 4:]
    r1 = 1 - (a[:, 0] * np.maximum(v01, 0) + a[:, 1] * np.maximum(flow[:, 2], 0)) / 2
    dead = v01 <= 0
    k = int(np.argmax(dead & (a[:, 0] * r1 > 0)))  # first record: at the kink with a_0 r_1 > 0
    ctx.holds(
        "arrival: the sigma'(0)=0 flow brings <w_0|x_1> to 0, then a_0 r_1 > 0 there up to T",
        bool(dead[k] and np.all(dead[k:]) and np.all(a[k:, 0] * r1[k:] > 0)),
        measured=f"dead from t = {ts[np.argmax(dead)]:.3g}, a_0 r_1 > 0 from t1 = {ts[k]:.3g}, "
        f"min a_0 r_1 on [t1, T] = {float((a[k:, 0] * r1[k:]).min()):.3g}",
        expected="both",
        why="the hypothesis of C.2 (a_j r_i > 0 with the pre-activation at 0) reached along the flow",
    )
    start = flow[k].copy()
    start[0] = 0.0
    revived = solve_flow(flows[1.0], be.asarray(start[None]), args[1.0], ts[k:], rtol=1e-11)[0]
    dev = []
    for lr in lrs:
        steps = round(T / lr)
        tr = gradient_descent(flows[1.0], y0, lr=lr, steps=steps, record=[steps], args=args[1.0])
        dev.append(float(np.abs(to_numpy(tr.ys)[0, -1] - flow[-1]).max()))
    fit = evidence.fit_order(np.asarray(lrs), np.asarray(dev))
    ctx.order(
        "GD with sigma'(0)=1 at the kink vs the sigma'(0)=0 (no-revival) flow at T = 2: order in lr",
        lrs,
        dev,
        expected=1.0,
        tol=(fit.hi - fit.lo) / 2 + next_order_tolerance(np.asarray(lrs), np.asarray(dev), 1.0, 2.0),
        why="forward Euler is first order on each activation pattern and a crossing moves the switch time by "
        "O(lr): error C1 lr + C2 lr^2. Tolerance: the fit's 95% half-width + the lr^2 term's slope shift "
        "with C2/C1 fitted from the same points (order_tolerance.next_order_tolerance). Converging to any "
        "other trajectory (the revival one is 0.23 away) would flatten the slope to 0",
        xlabel="lr",
        ylabel="max |GD(T) - flow(T)|",
    )
    ctx.bound(
        "GD at the smallest step: deviation from the no-revival flow < distance of the revival trajectory",
        dev[-1],
        float(np.abs(revived[-1] - flow[-1]).max()),
        why="GD is nearer the sigma'(0)=0 trajectory than the revival one (sigma'(0)=1 from the first time "
        "the neuron sits at 0 with a_0 r_1 > 0); the ratio is the slack",
        resolution="GD at the smallest step nearer the revival trajectory than the no-revival flow; the "
        "order check above is the sharp one (GD's error O(lr), not just smaller than the branches' gap)",
    )


def _c2_search(ctx: Context, budget: int) -> None:
    """The GD-limit statement searched over orthogonal instances on which a neuron arrives at the kink
    (:mod:`verify.papers.dana2025.kink_arrival`); the worst instance's C.2 hypothesis is the regime
    recorded."""
    worst: list = [-np.inf, None]
    outside = [0]

    def violation(theta: np.ndarray) -> float:
        r = kink_arrival.gd_limit(ctx.backend, theta)
        outside[0] += not r.inside
        if not r.ratio <= worst[0]:
            worst[:] = [r.ratio, np.array(theta, float)]
        return r.ratio

    ctx.search(
        "search: GD's error against the no-revival flow, e(lr/8) / e(lr) / 8^(-1/2), over orthogonal data "
        "where a neuron arrives at the kink",
        violation,
        kink_arrival.starts(),
        budget=budget,
        why="the statement is for all orthogonal data and initializations reaching C.2's situation; <= 1 iff "
        "GD (sigma'(0) = 1) approaches the sigma'(0) = 0 flow at least like lr^(1/2), the geometric midpoint "
        "of order 1 (Euler converging to it: 0.35) and order 0 (converging to another, e.g. a revival "
        f"trajectory: 2.8); lr = {kink_arrival.LR:g} and {kink_arrival.LR / 8:g} to "
        f"T = {kink_arrival.T_SEARCH:g}, sup over t",
    )
    branches = [
        kink_arrival.gd_limit(ctx.backend, t[0], separation=True) for t in kink_arrival.starts().values()
    ]
    ctx.bound(
        f"immediate revival on each of the {len(branches)} search families: min_(t > t1) <w_0|x_0>(t) > 0",
        min(b.branch_min if b.inside else -np.inf for b in branches),
        0.0,
        side=">=",
        why="C.2's branch that leaves the kink at t~ = t1 (sigma'(0) = 1 from the arrival state with the "
        "pre-activation set to 0) is positive after t1, so it solves (3) a.e.; a family start outside the "
        "hypothesis scores -inf",
    )
    r = kink_arrival.gd_limit(ctx.backend, worst[1], separation=True)
    c = kink_arrival.instance(worst[1])[0]
    ctx.regime(ORTHOGONAL, off_ratio=off_ratio(np.diag(c * c)))
    # pre: the arrival is an event-located crossing (the flow's own state sits ~1e-24 past the surface);
    # C.2's t_1 is the crossing, where the pre-activation is 0 and the revival branch starts
    ctx.regime(KINK, pre=0.0 if r.inside else np.nan, ar_min=r.ar_min)
    ctx.note(
        f"C.2 search: worst instance arrives at the kink at t1 = {r.t1:.3g}, min a_0 r_0 on [t1, T] = "
        f"{r.ar_min:.3g}, the immediate-revival trajectory is {r.separation:.3g} away (sup over t); "
        f"{outside[0]} searched parameters fell outside C.2's hypothesis (no arrival, or a_0 r_0 <= 0 "
        "afterwards) and scored 0."
    )


@claim(
    "dana2025:section-C.2",
    title="App. C.2: the ReLU gradient flow is not unique at the kink; sigma'(0)=0 picks the GD limit",
    source="App. C.2",
    statement=r"For orthogonal data, if $a_j(t)r_i(t)>0$ on $[t_1,t_2]$ and $\langle w_j(t_1)|x_i\rangle=0$, "
    r"then "
    r"for every $\tilde t\in[t_1,t_2)$ there is a valid trajectory that stays at 0 until $\tilde t$ and then "
    r"grows; "
    r"the trajectory in which the neuron never reactivates ($\sigma'(0)=0$) is the small-step limit of GD.",
    hypotheses=[ORTHOGONAL, KINK],
)
def section_c2(ctx: Context) -> None:
    lrs = ctx.param("lrs", tiny=(1e-2, 5e-3, 2e-3, 1e-3), quick=(1e-2, 1e-3, 1e-4))
    budget = ctx.param("budget", tiny=3, quick=8, full=100)  # per start (5 starts, ~0.05 s each)
    ctx.require(
        all(abs(round(T_GD / lr) * lr - T_GD) <= 1e-9 * T_GD for lr in lrs),
        f"every step in lrs must divide T = {T_GD:g}",
    )
    delays = (0.5, 1.0, 2.0)
    ctx.regime(ORTHOGONAL, off_ratio=off_ratio(np.eye(2)))  # every run here: x_i = e_i in R^2
    ts, out = _c2_runs(ctx, 0.0, delays)
    names = list(out)
    coord = {k: v[:, 1] for k, v in out.items()}  # <w_0|x_1>(t)
    # C.2's hypothesis on the trajectory that stays at the kink (sigma'(0) = 0: its staying at 0 is the
    # mask's construction, no check): a_0 r_1 > 0 over the window the branches leave it in, y = (1, 1)
    rest = out["sigma'(0)=0"]
    r1 = 1 - (rest[:, 4] * np.maximum(rest[:, 1], 0) + rest[:, 5] * np.maximum(rest[:, 3], 0)) / 2
    window = ts <= max(delays)
    ctx.regime(KINK, pre=float(rest[0, 1]), ar_min=float((rest[window, 4] * r1[window]).min()))
    for name in names[1:]:
        td = 0.0 if name == "sigma'(0)=1" else float(name.split("=")[-1])
        after = coord[name][ts > td]
        ctx.bound(
            f"{name}: min_(t > t~) <w_0|x_1>(t) > 0, so it solves (3) a.e. (classical flow once positive)",
            float(after.min()),
            0.0,
            side=">=",
            why="after t~ the coordinate is positive and the field is the classical one; at t~ the "
            "subgradient value 1 is an element of [0, 1]",
        )
    finals = np.array([out[k][-1] for k in names])
    gaps = [float(np.linalg.norm(finals[i] - finals[k])) for i in range(len(names)) for k in range(i)]
    ctx.bound(
        f"min over pairs of the {len(names)} trajectories of ||theta(T) - theta'(T)|| (T={ts[-1]:g})",
        min(gaps),
        1e-6,
        side=">=",
        why="distinct solutions from one initial state: non-uniqueness; 1e-6 is 1e5 x the DOPRI5 "
        "tolerance 1e-11 on O(1) states",
        resolution="two of the branches (different t~) that coincide at T to 1e-6, i.e. to the solver's "
        "error: the gap itself has no paper constant to compare with, so its slack says nothing",
    )
    _c2_gd_limit(ctx, lrs, T_GD)
    _c2_search(ctx, budget)
    with ctx.control(
        "pre-activation 1e-3 instead of exactly 0",
        breaks=KINK,
        must_break=["min over pairs of the * trajectories*"],
    ):
        ts, out = _c2_runs(ctx, 1e-3, ())
        gap = float(np.linalg.norm(out["sigma'(0)=0"][-1] - out["sigma'(0)=1"][-1]))
        ctx.bound(
            "min over pairs of the 2 trajectories of ||theta(T) - theta'(T)||",
            gap,
            1e-6,
            side=">=",
            why="as above",
        )


# ---------------------------------------------------------------------- Assumptions


@claim(
    "dana2025:assumption-1",
    title="Assumption 1: the App. B initialization has |a_j(0)| >= ||w_j(0)||, kept along the flow",
    source="Assumption 1 (Section 2), App. B",
    statement=r"$\forall j$, $|a_j(0)|\ge\|w_j(0)\|$ (norm-asymmetric initialization); with Lemma 1 it holds "
    r"for all $t$.",
    hypotheses=[r"App. B: $w_j\sim\mathcal N(0,I_d/d)$, $|a_j|-\|w_j\|\sim\mathrm{Exp}(1)$, random sign"],
)
def assumption_1(ctx: Context) -> None:
    """No instance search here: Assumption 1 is a hypothesis on one stated law (App. B), checked on its
    samples (every neuron of every draw, by construction |a| = ||w|| + Exp(1)); it quantifies over the
    neurons of a draw, not over data or other initializations. Its "for all t" part is Lemma 1's second
    conclusion, which holds for all data and all Assumption-1 states: dana2025:lemma-1 searches that (any
    data, states with |a_j| - ||w_j|| -> 0)."""
    B = ctx.param("B", tiny=200, quick=2000, full=20000)
    p = ctx.param("p", tiny=10, quick=30, full=40)
    rng = ctx.rng("init").host
    for n, d in ((16, 64), (16, 10**6)):
        data = make_data(rng, n, "boundary", d=d)
        V, a, wperp2 = appendix_b_init_reduced(rng, data.G, d, B, p)
        model = ShallowReLU(p, n, "gram")
        args = model.args(ctx.backend, data.G, data.y, wperp2=wperp2)
        wsq = to_numpy(model.weight_sqnorm(ctx.backend.asarray(model.pack((V, a))), args))
        margin = np.abs(a) - np.sqrt(wsq)
        ctx.bound(
            f"min_j |a_j(0)| - ||w_j(0)|| over {B * p} App.-B neurons, Gram coordinates with frozen mass "
            f"(n={n}, d={d})",
            float(margin.min()),
            -1e-12,
            side=">=",
            why="App. B sets |a| = ||w|| + Exp(1), so on the sampled w this holds by construction; what the "
            "check catches is a reduced state inconsistent with the sampled norm: ||w||^2 = v^T G^-1 v + "
            "||w_perp||^2 recomputed from (V, frozen mass) must not exceed |a|^2 for any of the neurons "
            "(a Cholesky factor applied untransposed gives -3e-4 here; rounding 1e-12). The law itself "
            "is checked by the two means below",
            resolution="a reduced state whose ||w|| (recomputed from V and the frozen mass) exceeds |a| "
            "(the sampler's consistency; the law makes the paper's inequality hold by construction, so no "
            "constant of the paper is at stake)",
        )
        N = B * p
        ctx.close(
            f"mean ||w_j(0)||^2 over {N} neurons = 1 (w ~ N(0, I_d/d), n={n}, d={d})",
            float(wsq.mean()),
            1.0,
            atol=4 * np.sqrt(2 / d / N),
            why="App. B: w ~ N(0, I_d/d), whose norm does not depend on d (Section 2); ||w||^2 ~ chi^2_d/d "
            "has sd sqrt(2/d): 4 standard errors. Catches a frozen mass with the wrong degrees of freedom "
            "(chi^2_d instead of chi^2_(d-n): mean 1 + n/d)",
        )
        ctx.close(
            f"mean (|a_j(0)| - ||w_j(0)||) over {N} neurons = 1 (Exp(1), n={n}, d={d})",
            float(margin.mean()),
            1.0,
            atol=4 / np.sqrt(N),
            why="App. B: |a| - ||w|| ~ Exp(1) (sd 1): 4 standard errors",
        )
    data = make_data(rng, 12, "boundary", d=48)
    model, y0, args, _ = ensemble(ctx.backend, data, 8, 8, rng)
    y, worst = y0, float("inf")
    for _ in range(400):
        y = y + 0.05 * model(None, y, args)
        worst = min(worst, float(to_numpy(model.balance(y, args)).min()))
    ctx.note(
        "Along the flow Assumption 1 is kept exactly (Lemma 1, dana2025:lemma-1). The GD map is not: it "
        "moves a_j^2 - ||w_j||^2 by lr^2 (da_j^2 - ||dw_j||^2) per step while the App. B margin "
        "2||w_j|| Exp(1) can be tiny; measured here min_t,j (a_j^2 - ||w_j||^2) = "
        f"{worst:.3g} after 400 GD steps of lr 0.05 (boundary data, 64 neurons). The paper's experiments "
        "use GD with lr = 1, so a few neurons may flip sign there."
    )
    with ctx.control(
        "both layers PyTorch-default (uniform +-1/sqrt(fan_in); the authors' code draws W so but sets "
        "|a_j| = ||w_j|| + Exp(1))",
        breaks=r"App. B: $w_j\sim\mathcal N(0,I_d/d)$, $|a_j|-\|w_j\|\sim\mathrm{Exp}(1)$, random sign",
        must_break=["min_j |a_j(0)| - ||w_j(0)||*"],
    ):
        d = 64
        W = rng.uniform(-1, 1, (B, p, d)) / np.sqrt(d)
        a = rng.uniform(-1, 1, (B, p)) / np.sqrt(p)
        margin = np.abs(a) - np.linalg.norm(W, axis=2)
        ctx.bound(
            f"min_j |a_j(0)| - ||w_j(0)|| over {B * p} neurons",
            float(margin.min()),
            -1e-12,
            side=">=",
            why="as above",
        )


def a2_constant_ratio(theta: np.ndarray) -> float:
    r"""(32) on one Assumption-2 data set: :math:`\frac35/\frac{(C_x^-)^2-\|X^\top X-D_X\|}{(C_x^-)^2}`;
    n read from the length of theta (:func:`weak_data`: n(n-1)/2 + 1 + 2n entries)."""
    n = next(k for k in range(2, 10) if k * (k - 1) // 2 + 1 + 2 * k == len(theta))
    X, _, _ = weak_data(theta, n)
    c2 = float((X * X).sum(axis=1).min())
    return 0.6 / ((c2 - float(offdiag_norm(X @ X.T))) / c2)


def a2_starts(rng: np.random.Generator) -> dict[str, list[np.ndarray]]:
    """Data families for n = 2, 3, 4 (blocks of :func:`weak_data`)."""
    out = {}
    for n in (2, 3, 4):
        m = n * (n - 1) // 2
        out[f"n = {n}, ||E|| -> limit, |y| equal"] = [
            assemble(rng, [(m, 0, 1), (1, 8, 0.5), (n, 0, 0.2), (n, 1, 0)])
        ]
        out[f"n = {n}, random ||E|| / limit, spread norms and labels"] = [
            assemble(rng, [(m, 0, 1), (1, 0, 2), (n, 0, 1.5), (n, 0, 3)])
        ]
    return out


@claim(
    "dana2025:assumption-2",
    title="Assumption 2: the low-correlation test and the constant it gives the proof (32)",
    source="Assumption 2, eq. (4); eq. (32)",
    statement=r"$\|X^\top X-D_X\|<\frac{(C_x^-)^2}{2\sqrt n}\frac{C_y^-}{C_y^+}$ (spectral norm); orthogonal "
    r"inputs "
    r"satisfy it, and it implies $(C_x^-)^2-\|X^\top X-D_X\|\ge\frac35(C_x^-)^2$ for $n\ge2$ (32).",
    hypotheses=["any data with $C_x^->0$, $C_y^->0$", ASSUMPTION_2],
)
def assumption_2(ctx: Context) -> None:
    trials = ctx.param("trials", tiny=50, quick=400, full=4000)
    budget = ctx.param("budget", tiny=40, quick=200, full=2000)
    ctx.holds(
        "(32): 1 - 1/(2 sqrt 2) >= 3/5 (exact)",
        sym.theorem1_constants()["(32): 1 - 1/(2 sqrt 2) >= 3/5"],
        measured="True",
        expected="True",
        why="exact SymPy comparison",
        kind="symbolic",
    )
    rng = ctx.rng("a2").host
    data = make_data(rng, 32, "orthogonal")
    X = data.norms[:, None] * np.linalg.qr(rng.normal(size=(4 * data.n, data.n)))[0].T  # rotated, in R^4n
    off = float(offdiag_norm(X @ X.T))
    ctx.holds(
        "orthogonal inputs (c_i e_i randomly rotated in R^4n) pass the checker: ||X^TX - D_X|| < limit (4)",
        off < data.limit,
        measured=off,
        expected=f"< {data.limit:.3g}",
        why="the Gram matrix of rotated orthogonal inputs has rounding-size off-diagonal entries (~1e-16); "
        "the checker must see them as the orthogonal case",
    )
    worst, accepted, rejected, worst_ratio = 1.0, 0, 0, 0.0
    limits, eq4 = [], []
    for _ in range(trials):
        n = int(rng.integers(2, 40))
        for frac in (0.99, 1.01):
            dk = make_data(rng, n, "boundary", frac=frac)
            # eq. (4) written out from the definitions: C_x^- from the Gram diagonal, C_y^+- from y
            cx_min = np.sqrt(np.diag(dk.G)).min()
            limits.append(dk.limit)
            eq4.append(cx_min**2 / (2 * np.sqrt(n)) * np.abs(dk.y).min() / np.abs(dk.y).max())
            if dk.assumption2:
                accepted += frac < 1
                worst = min(worst, (dk.cx[0] ** 2 - dk.off) / dk.cx[0] ** 2)
                worst_ratio = max(worst_ratio, dk.off / dk.limit)
            else:
                rejected += frac > 1
    ctx.close(
        "the checker's limit is eq. (4)'s right-hand side, (C_x^-)^2/(2 sqrt n) C_y^-/C_y^+",
        np.array(limits),
        np.array(eq4),
        rtol=8 * EPS,
        why="the same six operations in another order: a few roundings of the limit's size (8 ulps); "
        "without this check the accept/reject test below would pass for any formula of the limit, "
        "since the data are built from the same formula they are checked against",
    )
    ctx.holds(
        f"checker accepts all {trials} data sets at 0.99 and rejects all at 1.01 of the limit (n in [2, 40])",
        accepted == trials and rejected == trials,
        measured=f"{accepted} accepted, {rejected} rejected",
        expected=f"{trials}, {trials}",
        why="the Gram construction sets the spectral norm exactly; a 1% margin is 1e13 x rounding",
    )
    ctx.regime(ASSUMPTION_2, ratio=worst_ratio)  # (32)'s data: those the checker accepts
    ctx.bound(
        "(32): min over accepted data of ((C_x^-)^2 - ||X^TX - D_X||) / (C_x^-)^2",
        worst,
        0.6,
        side=">=",
        why="eq. (32); rounding of eigvalsh is 1e-15",
    )
    ctx.search(
        "search: 3/5 / (((C_x^-)^2 - ||X^TX - D_X||) / (C_x^-)^2) over Assumption-2 data, n = 2, 3, 4",
        a2_constant_ratio,
        a2_starts(ctx.rng("search").host),
        budget=budget,
        why="(32) over every data set inside (4): Nelder-Mead over ||E|| / limit (a sigmoid < 1), the "
        "direction of E, norms and labels (e^-3..e^3). The supremum is (3/5) / (1 - 1/(2 sqrt 2)) = 0.928 "
        "(n = 2, equal |y|, ||E|| -> limit): a 3/5 too large by 8% is caught",
    )
    with ctx.control(
        "equicorrelated inputs, rho = 0.5",
        breaks=ASSUMPTION_2,
        must_break=["(32): *((C_x^-)^2 - ||X^TX - D_X||)*"],
    ):
        dk = make_data(rng, 16, "equicorrelated", rho=0.5)
        ctx.holds(
            "Assumption 2 holds", dk.assumption2, measured=dk.off, expected=f"< {dk.limit:.3g}", why="eq. (4)"
        )
        ctx.bound(
            "(32): ((C_x^-)^2 - ||X^TX - D_X||) / (C_x^-)^2",
            (dk.cx[0] ** 2 - dk.off) / dk.cx[0] ** 2,
            0.6,
            side=">=",
            why="eq. (32)",
        )
