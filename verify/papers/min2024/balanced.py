r"""min2024 eq. (3): balanced initialization, its invariants, and the exact log-polar flow.

Gradient flow keeps :math:`v_j^2-\|w_j\|^2` and :math:`\mathrm{sign}(v_j)` constant, so from a
balanced start the state is :math:`(u_j,\rho_j,s_j)` with :math:`v_j=s_je^{\rho_j}`
(:mod:`numeric.models.balanced_relu`).  This claim checks the invariants on the plain
:math:`(W,v)` flow, cross-checks the two integrators where both work, shows that
:math:`\epsilon=e^{-100},e^{-1000}` are ordinary states in log-polar form, and that plain
Euler's balancedness drift creates an :math:`\epsilon`-independent error floor in the
directional field (catalog Pitfall 6) that the log-polar form does not have.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from numeric.backend import array_namespace, to_numpy
from numeric.data.separated_data import activated_sum
from numeric.engine.descent import gradient_descent
from numeric.engine.integrators.control import AdaptiveStep, FixedStep
from numeric.engine.integrators.methods import DOPRI5, RK4
from numeric.engine.solve import solve
from numeric.models.balanced_relu import (
    LogPolarFlow,
    PlainFlow,
    direction_rate,
    join,
    logpolar_to_plain,
    split,
    unit,
)
from verify.claim import claim
from verify.context import Context, Series
from verify.order_tolerance import next_order_tolerance
from verify.papers.min2024.common import (
    EPS,
    REDUCED_LOG_EPS,
    Problem,
    family_problem,
    initial_state,
    run,
)
from verify.papers.min2024.hypotheses import BALANCED, BALANCED_STATE
from verify.papers.min2024.proof import cone_family
from verify.papers.min2024.regimes import imbalance

T_END = 1.0
LADDER = np.array([1e-2, 1e-3, 1e-4, 1e-5])


def _plain_state(p: Problem, imbalance: float = 1.0) -> np.ndarray:
    """``[W, v]`` with :math:`W=\\epsilon W_0`, :math:`v_j=` imbalance :math:`\\cdot s_j\\|w_j\\|`."""
    W = np.exp(p.log_eps)[:, None, None] * p.W0
    return join(W, imbalance * p.s * np.linalg.norm(W, axis=-1))


def _reduced_error(xp, U: np.ndarray, du: np.ndarray, s, X, y):
    r""":math:`\max_j\|\dot{\hat w}_j-s_jP_{w_j}x_a(w_j)\|` (Lemma 1/4 left-hand side), ``(B,)``."""
    u = unit(U)
    xa = activated_sum(u, X, y)
    target = s[..., None] * (xa - (u * xa).sum(-1, keepdims=True) * u)
    return xp.sqrt(((du - target) ** 2).sum(-1)).max(-1)


def _lemma_error_observer(form: str):
    r"""``observe`` for gradient_descent: the Lemma-4 LHS at the integrated state, exact field, and the
    state's imbalance :math:`\max_j|v_j^2/\|w_j\|^2-1|` (log-polar: :math:`v_j^2=e^{2\rho_j}`,
    :math:`\|w_j\|^2=e^{2\rho_j}\|\hat u_j\|^2`, the normalised direction's rounding)."""

    def observe(t, y, args):
        xp = array_namespace(y)
        h = args["s"].shape[-1]
        if form == "logpolar":
            U, _ = split(y, h)
            du, _ = split(LogPolarFlow()(t, y, args), h)
            imb = xp.abs(1.0 / (unit(U) ** 2).sum(-1) - 1.0).max(-1)
            return {"err": _reduced_error(xp, U, du, args["s"], args["X"][0], args["y"][0]), "imb": imb}
        W, v = split(y, h)
        dW, _ = split(PlainFlow()(t, y, args), h)
        imb = xp.abs(v**2 / (W**2).sum(-1) - 1.0).max(-1)
        return {
            "err": _reduced_error(xp, W, direction_rate(W, dW), args["s"], args["X"][0], args["y"][0]),
            "imb": imb,
        }

    return observe


def _euler_floor(
    ctx: Context, p: Problem, dt: float
) -> tuple[tuple[np.ndarray, float], tuple[np.ndarray, float]]:
    """Max over t <= T_END of the Lemma-4 error per eps and the largest imbalance of the states it is read at,
    explicit Euler (= GD), log-polar and plain."""
    q = p.repeat(len(LADDER)).with_log_eps(np.tile(np.log(LADDER), p.B))
    args = LogPolarFlow.args(ctx.backend, q.X, q.y, s=q.s)
    steps = round(T_END / dt)
    rec = np.arange(0, steps + 1, max(1, steps // 50))
    out = []
    for form, field, y0 in (
        ("logpolar", LogPolarFlow(), initial_state(q)),
        ("plain", PlainFlow(), _plain_state(q)),
    ):
        tr = gradient_descent(
            field,
            ctx.backend.asarray(y0),
            lr=dt,
            steps=steps,
            record=rec,
            args=args,
            observe=_lemma_error_observer(form),
            save_state=False,
        )
        err = to_numpy(tr.observed["err"]).max(axis=1).reshape(p.B, len(LADDER)).max(axis=0)
        out.append((err, float(to_numpy(tr.observed["imb"]).max())))
    return out[0], out[1]


@claim(
    "min2024:equation-3",
    title="Balanced initialization is preserved; the log-polar flow is exact GF and reaches eps = e^-1000",
    source="eq. (3) and the sentence after it (Du et al. 2018; Boursier et al. 2022); catalog Pitfall 6",
    statement=(
        r"From $W(0)=\epsilon W_0$, $v_j(0)=\pm\|w_j(0)\|$: $v_j^2-\|w_j\|^2\equiv0$ and "
        r"$\mathrm{sign}\,v_j(t)=\mathrm{sign}\,v_j(0)$; hence GF is exactly $\dot u_j=s_jP_{u_j}g_j$, "
        r"$\dot\rho_j=s_j\langle u_j,g_j\rangle$ with $w_j=e^{\rho_j}u_j$, $v_j=s_je^{\rho_j}$"
    ),
    hypotheses=[BALANCED, BALANCED_STATE, "gradient flow (exact in time)", r"$\sigma'(0)=0$"],
)
def equation_3(ctx: Context) -> None:
    """The invariants and the two forms' agreement on two data families: family F (n + 1 dimensions, every
    pair at correlation mu = 0.5) and random cones in R^4 (n = 8, 24, 48 at tiny, quick, full: n > D,
    spread correlations, 2:1 classes); the eps = e^-1000 states, the Euler floor and its controls run on
    family F (a statement about the integrators, not the data)."""
    n = ctx.param("n", tiny=4, quick=6, full=8)
    h = ctx.param("H", tiny=6, quick=10, full=16)
    seeds = ctx.param("seeds", tiny=2, quick=3, full=8)
    dt = ctx.param("lr", tiny=2e-3, quick=2e-3, full=1e-3)
    (n_c, _, cone), *_ = cone_family(ctx, "data", h, seeds, tiny=(8,), quick=(24,), full=(48,))
    p = family_problem(ctx.rng("data").host, n, 0.5, h, seeds)
    ts = np.linspace(0.0, 1.5, 16)
    rtol = 1e-9
    runs = {
        f"family F, n = {n}": _two_forms(ctx, p, ts, rtol),
        f"random cones, n = {n_c}": _two_forms(ctx, cone, ts, rtol),
    }
    F = runs[f"family F, n = {n}"]
    ctx.regime(  # the plain initial states; the strictest D (the rounding allowance grows with D)
        BALANCED,
        imbalance=max(r["imbalance"] for r in runs.values()),
        D=min(r["D"] for r in runs.values()),
    )
    ctx.bound(
        "balancedness |v_j^2 - |w_j|^2| / |w_j|^2 along plain DOPRI5",
        np.array([r["drift"] for r in runs.values()]),
        np.array([40 * r["integ"] + 1e-13 for r in runs.values()]),
        why="per family, the relative integrator error of the state measured against rtol/100 ("
        + ", ".join(f"{k}: {r['integ']:.2g}" for k, r in runs.items())
        + "); the invariant is quadratic in the state (factor 2) and the error is compounded over both "
        "layers and ~10 output intervals (factor 20); 1e-13 for the float64 floor of squares of O(1) numbers",
    )
    ctx.holds(
        "sign(v_j(t)) = s_j",
        all(r["signs"] for r in runs.values()),
        measured="all equal" if all(r["signs"] for r in runs.values()) else "flip",
        expected="all equal",
        why=f"exact sign comparison on {', '.join(runs)}",
    )
    # |log-polar - plain| <= |log-polar - flow| + |plain - flow|: each solve's error measured in plain
    # coordinates against its own re-solve at rtol/100 (whose error is ~1% of it: factor 2), plus 8 ulps of
    # the entries for the exp map's rounding
    for name, r in runs.items():
        ctx.close(
            f"log-polar vs plain (W, v): first layer ({name})",
            r["W_lp"],
            r["W"],
            atol=2 * sum(r["err_W"]) + 8 * EPS * np.abs(r["W"]).max(),
            why=f"both at rtol 1e-9: twice the sum of the two solves' errors (plain {r['err_W'][0]:.2g}, "
            f"log-polar {r['err_W'][1]:.2g}, each measured against a re-solve at rtol/100) + 8 ulps of "
            "max|W|",
        )
        ctx.close(
            f"log-polar vs plain (W, v): second layer ({name})",
            r["v_lp"],
            r["v"],
            atol=2 * sum(r["err_v"]) + 8 * EPS * np.abs(r["v"]).max(),
            why=f"as for the first layer (plain {r['err_v'][0]:.2g}, log-polar {r['err_v'][1]:.2g})",
        )
    _symbolic(ctx)
    _tiny_scales(ctx, p)
    (e_lp, imb_lp), (e_plain, _) = _euler_floor(ctx, p.take(slice(0, 1)), dt)
    # the Lemma-4 error is read at the Euler states: they must be balanced for the field to be the reduced one
    ctx.regime(BALANCED_STATE, imbalance=imb_lp, D=p.X.shape[1])
    tol = next_order_tolerance(LADDER, e_lp, 2.0, 4.0)
    lemma4 = (
        "on the balanced manifold the directional field differs from s P x_a only through f = O(eps^2) "
        "(Lemma 2, Lemma 3 at fixed t), with next term O(eps^4): tolerance "
        f"{tol:.2g} = next_order_tolerance(eps, error, 2, 4), twice the slope shift of that term fitted "
        "from the same points (e / eps^2 linear in eps^2)"
    )
    ctx.order(
        "Lemma-4 error vs eps, explicit Euler in log-polar form",
        LADDER,
        e_lp,
        expected=2.0,
        tol=tol,
        why=lemma4,
        xlabel="eps",
        ylabel="max_t max_j |d/dt w_hat - s P x_a|",
    )
    ctx.figure(
        "Euler drift floor",
        xlabel="eps",
        ylabel="max_t Lemma-4 error",
        logx=True,
        logy=True,
        series=[
            Series("log-polar Euler", LADDER, e_lp, "o"),
            Series("plain (W, v) Euler", LADDER, e_plain, "o"),
        ],
    )
    with ctx.control(
        "plain (W, v) explicit Euler, same step: its states drift off v_j = s_j |w_j|",
        breaks=BALANCED_STATE,
        must_break=["Lemma-4 error vs eps*"],
    ):
        ctx.order(
            "Lemma-4 error vs eps, explicit Euler in log-polar form",
            LADDER,
            e_plain,
            expected=2.0,
            tol=tol,
            why="the main check's tolerance; the drift multiplies the field by |v_j|/|w_j| != 1, an "
            "eps-independent error",
            xlabel="eps",
            ylabel="max_t max_j |d/dt w_hat - s P x_a|",
        )
    with ctx.control(
        "plain run from |v_j(0)| = 0.01 |w_j(0)|: v_j^2 - |w_j|^2 < 0 is conserved, v_j may pass 0",
        breaks=BALANCED,
        must_break=["sign(v_j(t)) = s_j"],
    ):
        q = F["q"]
        ub = solve(
            PlainFlow(),
            ctx.backend.asarray(_plain_state(q, 0.01)),
            ts,
            method=DOPRI5,
            control=AdaptiveStep(rtol=rtol, atol=rtol * 1e-4),
            args=LogPolarFlow.args(ctx.backend, q.X, q.y, s=q.s),
            max_steps=100_000,
        )
        _, v_ub = split(to_numpy(ub.ys).reshape(-1, F["W"].shape[-1] * h + h), h)
        flips = int((np.sign(v_ub).reshape(q.B, len(ts), h) != q.s[:, None, :]).sum())
        ctx.holds(
            "sign(v_j(t)) = s_j",
            flips == 0,
            measured=f"{flips} flips",
            expected="all equal",
            why="exact sign comparison (family F)",
        )


def _two_forms(ctx: Context, p: Problem, ts: np.ndarray, rtol: float) -> dict:
    """``p`` at eps = 0.1 and 0.01: plain DOPRI5 and the log-polar solve at ``rtol`` and ``rtol / 100``;
    the plain initial imbalance, the balancedness drift, the signs, both forms in plain coordinates and each
    solve's error against its re-solve."""
    q = p.repeat(2).with_log_eps(np.tile(np.log([1e-1, 1e-2]), p.B))
    args = LogPolarFlow.args(ctx.backend, q.X, q.y, s=q.s)
    plain = [
        to_numpy(
            solve(
                PlainFlow(),
                ctx.backend.asarray(_plain_state(q)),
                ts,
                method=DOPRI5,
                control=AdaptiveStep(rtol=r, atol=r * 1e-4),
                args=args,
                max_steps=100_000,
            ).ys
        )
        for r in (rtol, rtol / 100)
    ]
    Y = plain[0]
    W, v = split(Y.reshape(-1, Y.shape[-1]), q.h)
    W_ref, v_ref = split(plain[1].reshape(-1, Y.shape[-1]), q.h)
    W_lp, v_lp = _logpolar_plain(ctx, q, ts, rtol)
    W_lp_ref, v_lp_ref = _logpolar_plain(ctx, q, ts, rtol / 100)
    wn = np.linalg.norm(W, axis=-1)
    return {
        "q": q,
        "imbalance": imbalance(*split(Y[:, 0], q.h)),
        "D": q.X.shape[1],
        "integ": float(np.abs(Y - plain[1]).max() / np.abs(Y).max()),
        "drift": float((np.abs(v**2 - wn**2) / wn**2).max()),
        "signs": bool(np.all(np.sign(v).reshape(q.B, len(ts), q.h) == q.s[:, None, :])),
        "W": W,
        "v": v,
        "W_lp": W_lp,
        "v_lp": v_lp,
        "err_W": (float(np.abs(W - W_ref).max()), float(np.abs(W_lp - W_lp_ref).max())),
        "err_v": (float(np.abs(v - v_ref).max()), float(np.abs(v_lp - v_lp_ref).max())),
    }


def _logpolar_plain(ctx: Context, q: Problem, ts: np.ndarray, rtol: float) -> tuple[np.ndarray, np.ndarray]:
    """The log-polar solve of ``q`` at ``rtol`` in plain coordinates: ``W`` (B T, h, D), ``v`` (B T, h)."""
    ys = to_numpy(run(ctx.backend, q, ts, rtol=rtol).ys)
    return logpolar_to_plain(ys.reshape(-1, ys.shape[-1]), np.repeat(q.s, len(ts), 0))


def _gf_from_loss(D: int, n: int) -> tuple[sp.Matrix, sp.Symbol, sp.Matrix, sp.Expr, sp.Matrix]:
    r"""One neuron's gradient flow (2) differentiated by SymPy from the loss, not written by hand.

    In a fixed activation region (indicators :math:`a_i`, :math:`\sigma(z)=a_iz`: the fixed subgradient
    :math:`\sigma'(0)=0` makes :math:`\sigma(z)=\sigma'(z)z` hold everywhere) the neuron's share of the
    loss is :math:`\sum_i\ell_i(v\,a_i\langle w,x_i\rangle)` with :math:`\ell_i` generic functions;
    :math:`\dot w=-\partial_w\mathcal L`, :math:`\dot v=-\partial_v\mathcal L`, then each
    :math:`\ell_i'` is replaced by :math:`-r_i` and :math:`g=\sum_ia_ir_ix_i`. Returns
    ``(w, v, w_dot, v_dot, g)``."""
    w = sp.Matrix(sp.symbols(f"w0:{D}", real=True))
    v = sp.Symbol("v", real=True)
    xs = [sp.Matrix(sp.symbols(f"x{i}_0:{D}", real=True)) for i in range(n)]
    a = sp.symbols(f"a0:{n}", real=True)
    r = sp.symbols(f"r0:{n}", real=True)
    ells = [sp.Function(f"l{i}") for i in range(n)]
    loss = sum(ells[i](v * a[i] * (w.T * xs[i])[0]) for i in range(n))

    def rate(e: sp.Expr) -> sp.Expr:
        return e.replace(
            lambda t: isinstance(t, sp.Subs) and t.has(*ells),
            lambda t: -r[next(i for i in range(n) if t.has(ells[i]))],
        )

    w_dot = sp.Matrix([rate(-sp.diff(loss, c)) for c in w])
    g = sum((a[i] * r[i] * xs[i] for i in range(n)), sp.zeros(D, 1))
    return w, v, w_dot, rate(-sp.diff(loss, v)), g


def _symbolic(ctx: Context) -> None:
    """Exact SymPy residuals of eq. (3)'s consequences, from the flow differentiated out of the loss."""
    w, v, w_dot, v_dot, _ = _gf_from_loss(2, 3)
    ctx.zero(
        "d/dt (v^2 - |w|^2) = 0 (D = 2, n = 3)",
        sp.expand(2 * v * v_dot - 2 * (w.T * w_dot)[0]),
        why="exact: w_dot, v_dot differentiated by SymPy from sum_i l_i(v a_i <w, x_i>), generic l_i; the "
        "residual is 2 v sum_i a_i r_i (sigma(z_i) - sigma'(z_i) z_i), nonzero for a bias or a "
        "non-homogeneous activation",
    )
    w, v, w_dot, v_dot, g = _gf_from_loss(2, 2)
    norm = sp.sqrt((w.T * w)[0])
    u = w / norm
    direction, log_norm = [], []
    for s in (1, -1):  # the balanced state v = s |w| (= s e^rho)
        u_dot = (u.jacobian(w) * w_dot).subs(v, s * norm)
        direction.append((u_dot - s * (sp.eye(2) - u * u.T) * g).applyfunc(sp.simplify))
        rho_dot = (sp.Matrix([sp.log(norm)]).jacobian(w) * w_dot)[0].subs(v, s * norm)
        log_norm += [
            sp.simplify(rho_dot - s * (u.T * g)[0]),
            sp.simplify(v_dot.subs(v, s * norm) - norm * (u.T * g)[0]),  # d/dt (s e^rho) = s e^rho rho_dot
        ]
    ctx.zero(
        "d/dt u = s P_u g at v = s|w| (C1; D = 2, n = 2, s = +-1)",
        sp.Matrix.vstack(*direction),
        why="exact: the chain rule d/dt (w/|w|) applied by SymPy to the differentiated flow",
    )
    ctx.zero(
        "d/dt rho = s <u, g> and d/dt v = d/dt (s e^rho) at v = s|w| (C2; s = +-1)",
        sp.Matrix(log_norm),
        why="exact: d/dt log|w| by SymPy's chain rule on the differentiated flow, and v_dot against "
        "s e^rho rho_dot",
    )


def _tiny_scales(ctx: Context, p: Problem) -> None:
    r""":math:`\epsilon=e^{-100},e^{-1000}` in log-polar form: reduced directions, shifted :math:`\rho`."""
    q = p.take(slice(0, 1)).repeat(3).with_log_eps([REDUCED_LOG_EPS, -1000.0, -100.0])
    ts = np.linspace(0.0, 2.0, 11)
    args = LogPolarFlow.args(ctx.backend, q.X, q.y, s=q.s)
    tr = solve(
        LogPolarFlow(),
        ctx.backend.asarray(initial_state(q)),
        ts,
        method=RK4,
        control=FixedStep(dt=0.01),
        args=args,
    )
    # the field at every state of the three runs against the reduced field (4), computed apart:
    # there f <= e^{-190}, so r_i = y_i exactly and the two differ by rounding only: each side sums n terms of
    # size <= |x_i| (g) and D terms (<u, g>, the projection), <= (n + D + 2) eps sum_i |x_i| each
    field, target = [], []
    for k in range(len(ts)):
        du, drho = split(to_numpy(LogPolarFlow()(ts[k], tr.ys[:, k], args)), q.h)
        u = unit(split(to_numpy(tr.ys[:, k]), q.h)[0])
        xa = activated_sum(u, q.X, q.y)
        ua = (u * xa).sum(-1)
        field.append(np.concatenate([du, drho[..., None]], -1))
        target.append(q.s[..., None] * np.concatenate([xa - ua[..., None] * u, ua[..., None]], -1))
    ctx.close(
        "log-polar field at eps = e^-100, e^-1000, e^-10000 = the reduced field (4): s P_u x_a, s <u, x_a>",
        np.array(field),
        np.array(target),
        atol=2 * (q.n + q.X.shape[1] + 2) * EPS * float(np.linalg.norm(q.X, axis=1).sum()),
        why="fixed-step RK4 (dt 0.01) to t = 2, field read at the 11 outputs; x_a computed apart from the "
        "flow (activated_sum); rounding of both sides: 2 (n + D + 2) eps sum_i |x_i|",
    )
    ctx.note(
        "The plain (W, v) state cannot represent eps = e^-1000 (W underflows to exactly 0 and the directions "
        "are undefined); in log-polar form it is an ordinary float64 state."
    )
