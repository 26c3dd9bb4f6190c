r"""kumar2025: the NCF machinery -- Euler's identity (Lemma 14), the output decomposition near a
sparse saddle with the closed form of :math:`\mathcal H_1` (Lemma 8, eq. 21) and the per-neuron
separation (Sec. 3.3), balance at positive KKT points (Lemma 9 via Lemma 19).

Exact statements are proved with SymPy on small symbolic nets; the Taylor-type statement of
Lemma 8(i) is measured in 60-digit arithmetic (mpmath) and fitted over a grid of scales.
"""

from __future__ import annotations

import mpmath as mp
import numpy as np
import sympy as sp

from numeric.homogeneous_nets import (
    NeuronNCF,
    degree,
    kkt_cosine,
    ncf_and_grad,
    projected_gradient_ascent,
)
from symbolic.ncf import (
    balance_rate,
    block_net,
    epsilon_coefficients,
    euler_residual,
    forward,
    h1_closed_form,
    power,
)
from verify.claim import claim
from verify.context import Context

EPS = float(np.finfo(float).eps)
# (alpha, p) searched by the numeric checks: ReLU, leaky ReLU, squared (leaky) ReLU, x^2, quartic leaky.
ACTIVATIONS = [(0.0, 1), (0.5, 1), (0.0, 2), (1.0, 2), (0.5, 3), (0.5, 4)]


def _x(d: int) -> sp.Matrix:
    return sp.Matrix(sp.symbols(f"x0:{d}", real=True))


@claim(
    "kumar2025:lemma-14",
    title="Euler's identity for homogeneous NCFs",
    source="Lemma 14 (Lyu & Li 2020, Thm B.2); eqs. 4, 50",
    statement=r"$f$ $L$-positively homogeneous $\Rightarrow$ $w^\top\nabla f(w)=Lf(w)$; the NCF "
    r"$z^\top\mathcal H(X;W)$ of eq. 3 has degree $D=\sum_{k<L}p^k$ and "
    r"$\mathcal N_{\bar y,\mathcal H_1}$ degree $p+1$",
    hypotheses=[r"$f$ positively homogeneous of degree $L>0$", r"$\sigma(x)=\max(x,\alpha x)^p$"],
)
def lemma_14(ctx: Context) -> None:
    """Symbolic: the whole net (degree D) and H_1 (degree p+1) for sigma = x^p.  Numeric: random
    batched nets for every activation of ACTIVATIONS (ReLU with the autodiff Clarke subgradient)."""
    x = _x(2)
    cases = ctx.param("trials", tiny=2, quick=3, full=3)
    for depth, p in [(2, 2), (3, 2), (2, 3)][:cases]:
        net = block_net(2, depth, 1, 1)
        H = forward(net.W, x, power(p))
        ctx.zero(
            f"w.grad H = D H (L={depth}, p={p})",
            euler_residual(H, net.wn + net.wz, degree(depth, p)),
            why="polynomial identity, exact",
        )
        h1, _ = h1_closed_form(net, x, p)
        ctx.zero(
            f"w_z.grad H_1 = (p+1) H_1 (L={depth}, p={p})",
            euler_residual(h1, net.wz, p + 1),
            why="polynomial identity, exact",
        )
    rng = ctx.rng("euler").host
    members = ctx.param("B", tiny=8, quick=64, full=512)
    n, d, width = 20, 5, 4
    worst = 0.0
    for alpha, p in ACTIVATIONS:
        for depth in (2, 3, 4):
            X = ctx.backend.asarray(rng.normal(size=(n, d)))
            z = ctx.backend.asarray(rng.normal(size=n))
            shapes = [(width, d)] + [(width, width)] * (depth - 2) + [(1, width)]
            Ws = [ctx.backend.asarray(rng.normal(size=(members, *s)) / np.sqrt(s[1])) for s in shapes]
            value, grads = ncf_and_grad(Ws, X, z, alpha, p)
            lhs = sum((W * g).sum(axis=(1, 2)) for W, g in zip(Ws, grads, strict=True))
            D = degree(depth, p)
            scale = float(ctx.xp.abs(z).sum()) * float(ctx.xp.abs(value).max() + 1) * D
            err = float(ctx.xp.abs(lhs - D * value).max()) / scale
            worst = max(worst, err)
    ctx.bound(
        "max relative |w.grad N - D N| over activations, depths, members",
        worst,
        64 * (n + 4 * width) * EPS,
        why="sums of n + (depth)(width) products, each rounding gamma_k = k eps; factor 16 headroom "
        "per term of size |z|_1 max|N|; ReLU's Clarke subgradient is a genuine Euler subgradient",
    )
    with ctx.control("sigma(x) = x^2 + x, not homogeneous", breaks="positively homogeneous"):
        net = block_net(2, 3, 1, 1)
        H = forward(net.W, x, lambda s: s**2 + s)
        ctx.zero(
            "w.grad H = D H (L=3, sigma=x^2+x)",
            euler_residual(H, net.wn + net.wz, degree(3, 2)),
            why="polynomial identity, exact",
        )


@claim(
    "kumar2025:lemma-8",
    title="Output decomposition near a sparse saddle; closed form of H_1; per-neuron NCF separation",
    source="Lemma 8, eqs. 20-21, Sec. 3.3; proof App. B.2",
    statement=r"$\mathcal H(x;w_n,w_z)=\mathcal H(x;w_n,0)+\mathcal H_1(x;w_n,w_z)+O(\delta^K)$, $K>p+1$, "
    r"$\mathcal H_1$ $(p+1)$-homogeneous in $w_z$ given by eq. 21, a sum of one term per new neuron, "
    r"free of $C_l$",
    hypotheses=[
        r"(ii) $\alpha=1$, $p\ge1$ (exact, polynomial)",
        r"(i) $\alpha\ne1$, $p\ge4$ (Taylor)",
        r"$\|w_z\|=O(\delta)$, $w_n$ fixed",
    ],
)
def lemma_8(ctx: Context) -> None:
    """(ii) exactly with SymPy; (i) by the fitted order of the remainder in 60-digit arithmetic."""
    cases = ctx.param("trials", tiny=2, quick=4, full=4)
    x = _x(2)
    for depth, p, new in [(3, 2, 2), (3, 3, 1), (4, 2, 1), (2, 3, 2)][:cases]:
        net = block_net(2, depth, 1, new)
        H = forward(net.W, x, power(p))
        coeff = epsilon_coefficients(H, net.wz, 2 * p + 1)
        h1, _ = h1_closed_form(net, x, p)
        tag = f"L={depth}, p={p}, {new} new/layer"
        ctx.zero(f"eps^0 term = H(w_n, 0) ({tag})", coeff[0] - forward(net.old, x, power(p)), why="exact")
        ctx.zero(f"eps^1..eps^p terms vanish ({tag})", coeff[1 : p + 1], why="exact")
        ctx.zero(f"eps^(p+1) term = eq. 21 = sum of per-neuron terms ({tag})", coeff[p + 1] - h1, why="exact")
        c_syms = {s for M in net.C for s in M}
        ctx.holds(
            f"C_l absent from H_1 ({tag})",
            not (c_syms & h1.free_symbols),
            measured=sorted(map(str, c_syms & h1.free_symbols)),
            expected=[],
            why="exact free-symbol test",
        )
        if depth >= 3:  # [derived] K = 2p+1: nothing between p+1 and 2p+1, generic nonzero at 2p+1
            ctx.zero(f"eps^(p+2)..eps^(2p) vanish ({tag})", coeff[p + 2 : 2 * p + 1], why="exact")
            ctx.holds(
                f"eps^(2p+1) term nonzero ({tag})",
                coeff[2 * p + 1] != 0,
                measured="nonzero" if coeff[2 * p + 1] != 0 else "0",
                expected="nonzero",
                why="exact",
            )
    _taylor_remainder(ctx, alpha=0.5, p=4, kink=False)
    with ctx.control(
        "leaky ReLU p = 1 with an active pre-activation exactly at the kink",
        breaks=r"$p\ge4$ (Assumption 1's Lipschitz gradients)",
    ):
        _taylor_remainder(ctx, alpha=0.5, p=1, kink=True)


def _mp_sigma(z: mp.mpf, alpha: float, p: int) -> mp.mpf:
    return max(z, alpha * z) ** p


def _mp_slope(z: mp.mpf, alpha: float, p: int) -> mp.mpf:
    return p * max(z, alpha * z) ** (p - 1) * (1 if z > 0 else alpha)


def _mp_layer(W: mp.matrix, g: mp.matrix, alpha: float, p: int) -> mp.matrix:
    return mp.matrix([_mp_sigma(v, alpha, p) for v in W * g])


def _mp(a: np.ndarray) -> mp.matrix:
    return mp.matrix(a.tolist())


def _taylor_remainder(ctx: Context, *, alpha: float, p: int, kink: bool) -> None:
    r"""3-layer net, d=4, 2 active + 1 new neuron per hidden layer: fit the order of
    :math:`|\mathcal H(w_n,\delta z)-\mathcal H(w_n,0)-\delta^{p+1}\mathcal H_1(w_n,z)|` over :math:`\delta`.

    All arithmetic (the scaling by delta included) is done in 60 digits.
    """
    rng = ctx.rng(f"taylor-{alpha}-{p}-{kink}").host
    mp.mp.dps = 60
    d, act = 4, 2
    x = _mp(rng.normal(size=(d, 1)))
    N1, N2, N3 = (
        _mp(rng.normal(size=(act, d))),
        _mp(rng.normal(size=(act, act))),
        _mp(rng.normal(size=(1, act))),
    )
    A1, A2, C2 = _mp(rng.normal(size=(1, d))), _mp(rng.normal(size=(1, act))), _mp(rng.normal(size=(1, 1)))
    B2, B3 = _mp(rng.normal(size=(act, 1))), _mp(rng.normal(size=(1, 1)))
    g1 = _mp_layer(N1, x, alpha, p)
    if kink:  # N2[0,:] g_1(x) = 0 exactly: an active layer-2 neuron sits on the kink
        N2[0, 1] = -N2[0, 0] * g1[0] / g1[1]
    h2 = N2 * g1
    base = (N3 * _mp_layer(N2, g1, alpha, p))[0]
    # eq. 21: delta_2 = sigma'(N2 g1) * N3^T;  H_1 = delta_2^T B2 sigma(A1 x) + B3 sigma(A2 g1)
    delta2 = [_mp_slope(h2[i], alpha, p) * N3[0, i] for i in range(act)]
    s1 = _mp_sigma((A1 * x)[0], alpha, p)
    h1 = sum(delta2[i] * B2[i, 0] for i in range(act)) * s1 + B3[0, 0] * _mp_sigma((A2 * g1)[0], alpha, p)
    scales = [mp.mpf(10) ** (-k / 2) for k in range(4, 11)]
    errs = []
    for s in scales:
        W1 = mp.matrix([[*N1[i, :]] for i in range(act)] + [[s * v for v in A1]])
        W2 = mp.matrix(
            [[N2[i, 0], N2[i, 1], s * B2[i, 0]] for i in range(act)]
            + [[s * A2[0, 0], s * A2[0, 1], s * C2[0, 0]]]
        )
        W3 = mp.matrix([[N3[0, 0], N3[0, 1], s * B3[0, 0]]])
        H = (W3 * _mp_layer(W2, _mp_layer(W1, x, alpha, p), alpha, p))[0]
        errs.append(float(abs(H - base - s ** (p + 1) * h1)))
    tag = f"alpha={alpha}, p={p}" + (", at a kink" if kink else "")
    ctx.order(
        f"remainder order K ({tag})",
        [float(s) for s in scales],
        errs,
        expected=2 * p + 1,
        tol=0.25,
        why="proof of Lemma 8 bounds the remainder by O(delta^(2p+1)); [derived] it is Theta(delta^(2p+1)) "
        "at generic points; 60-digit arithmetic makes rounding (1e-60) negligible against "
        "delta^(2p+1) >= 1e-45; "
        "tol 0.25 covers the next-order term over three decades",
        xlabel="delta",
        ylabel="|remainder|",
    )


@claim(
    "kumar2025:lemma-9",
    title="Positive KKT points of the per-neuron NCF are balanced; balance is invariant along the NCF flow",
    source="Lemma 9, Lemma 19, eq. 50",
    statement=r"$\nabla h(a_*,b_*)=\lambda(a_*,b_*)$, $\lambda>0$ $\Rightarrow$ $\|a_*\|^2=p\|b_*\|^2$, "
    r"$\lambda=(p+1)h$ (and $\bar C_l=0$ since $C_l$ is absent from $\mathcal H_1$, Lemma 8)",
    hypotheses=[r"$\sigma=\max(x,\alpha x)^p$, $p\ge1$", r"positive KKT point ($\lambda>0$)"],
)
def lemma_9(ctx: Context) -> None:
    """Symbolic: d/dt(|a|^2 - p|b|^2) = 0 along the NCF flow (the dynamic form).  Numeric: PGA restarts
    on random per-neuron NCFs h(a,b) = sum_i q_i^T b sigma(a^T g_i); balance at every positive limit."""
    for p in (1, 2, 3):
        a, b = sp.symbols("a0:2", real=True), sp.symbols("b0:2", real=True)
        g, q = sp.symbols("g0:2", real=True), sp.symbols("q0:2", real=True)
        h = (q[0] * b[0] + q[1] * b[1]) * (a[0] * g[0] + a[1] * g[1]) ** p
        ctx.zero(
            f"d/dt(|a|^2 - p|b|^2) = 0 along the NCF flow (p={p})", balance_rate(h, a, b, p), why="exact"
        )
    rng = ctx.rng("pga").host
    restarts = ctx.param("H", tiny=16, quick=64, full=256)
    iters = ctx.param("steps", tiny=1500, quick=4000, full=10000)
    worst_gap, worst_lambda, min_cos = 0.0, 0.0, 1.0
    for alpha, p in ACTIVATIONS:
        G = ctx.backend.asarray(rng.normal(size=(1, 3, 12)))
        Q = ctx.backend.asarray(rng.normal(size=(1, 2, 12)))
        ncf = NeuronNCF(G, Q, alpha, p)
        u0 = ctx.backend.asarray(rng.normal(size=(1, restarts, 5)))
        u, value = projected_gradient_ascent(ncf.value_and_grad, u0, step=0.2 / p, iters=iters)
        _, grad = ncf.value_and_grad(u)
        lam = (grad * u).sum(axis=-1)
        positive = ctx.xp.asarray(value > 1e-8)
        resid = ctx.xp.linalg.norm(grad - lam[..., None] * u, axis=-1)
        a2 = (u[..., :3] ** 2).sum(axis=-1)
        b2 = (u[..., 3:] ** 2).sum(axis=-1)
        # |a|^2 - p|b|^2 = (p b.r_b - a.r_a)/lambda with r = grad - lambda u (Euler in a and in b)
        allowed = (p + 1) * resid / ctx.xp.maximum(lam, 1e-300) + 64 * EPS
        gap = ctx.xp.where(positive, ctx.xp.abs(a2 - p * b2) - allowed, -1.0)
        worst_gap = max(worst_gap, float(gap.max()))
        lam_gap = ctx.xp.where(positive, ctx.xp.abs(lam - (p + 1) * value) - 64 * EPS * ctx.xp.abs(lam), -1.0)
        worst_lambda = max(worst_lambda, float(lam_gap.max()))
        best = int(ctx.xp.argmax(value[0]))
        cos = float(kkt_cosine(u, grad)[0, best])
        if p == 1:
            ctx.note(
                f"alpha={alpha}, p=1 (ReLU-type, non-smooth): cosine with the autodiff subgradient "
                f"at the best PGA limit "
                f"is {cos:.4f}; limits sit on kinks where only a Clarke subgradient is aligned "
                "(Lemma 9 remark)"
            )
        else:
            min_cos = min(min_cos, cos)
    ctx.bound(
        "max over positive limits of | |a|^2 - p|b|^2 | - (p+1)|r|/lambda",
        worst_gap,
        0.0,
        why="exact consequence of Euler in a (degree p) and b (degree 1) at an approximate KKT point "
        "with residual r = grad - lambda u; 64 eps for rounding",
    )
    ctx.bound(
        "max | lambda - (p+1) h | - 64 eps lambda",
        worst_lambda,
        0.0,
        why="lambda = u.grad h = (p+1) h by Euler (Lemma 14), exactly up to rounding",
    )
    ctx.bound(
        "min over activations of the KKT cosine at the best PGA limit (p >= 2)",
        min_cos,
        1 - 1e-6,
        side=">=",
        why="the dominant restart must be a KKT point (so balance is tested where the lemma applies); "
        "1e-6 is far above rounding and far below any non-KKT point",
    )
    with ctx.control("zero KKT point a = 0, |b| = 1 (lambda = 0)", breaks="positive KKT point"):
        for alpha, p in [(0.5, 2), (1.0, 3)]:
            G = ctx.backend.asarray(rng.normal(size=(1, 3, 12)))
            Q = ctx.backend.asarray(rng.normal(size=(1, 2, 12)))
            u = ctx.backend.asarray(np.array([[[0.0, 0.0, 0.0, 0.6, 0.8]]]))
            _, grad = NeuronNCF(G, Q, alpha, p).value_and_grad(u)
            ctx.close(
                f"grad h = 0 there (KKT with lambda = 0, p={p})", grad, 0.0, atol=0.0, why="exact zeros"
            )
            a2 = float((u[..., :3] ** 2).sum())
            b2 = float((u[..., 3:] ** 2).sum())
            ctx.close(f"|a|^2 = p|b|^2 (p={p})", a2, p * b2, atol=64 * EPS, why="rounding")
