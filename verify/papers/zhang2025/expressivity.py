r"""zhang2025 Section 3: what a bias-free network can express (Theorem 1, Corollary 2, eq. (9))."""

from __future__ import annotations

import numpy as np

from numeric.backend import to_numpy
from numeric.networks import BiasFreeNet
from verify.claim import claim
from verify.context import Context

EPS = np.finfo(np.float64).eps

# Shapes (H, D) searched by the identity checks: narrow/wide, low/high dimension.
SHAPES = [(1, 1), (3, 2), (50, 2), (3, 10), (50, 10), (200, 30)]


def _random_two_layer(ctx: Context, key: str, H: int, D: int, n: int, alpha_grid: np.ndarray):
    """``n`` random nets per alpha (weights log-uniform in scale 1e-3..1e3) and inputs."""
    rng = ctx.rng(f"{key}/{H}x{D}").host
    B = n * len(alpha_grid)
    scale = 10.0 ** rng.uniform(-3, 3, (B, 1, 1))
    W1 = rng.normal(size=(B, H, D)) * scale
    W2 = rng.normal(size=(B, 1, H)) * 10.0 ** rng.uniform(-3, 3, (B, 1, 1))
    X = rng.normal(size=(B, D, 16)) * 10.0 ** rng.uniform(-3, 3, (B, 1, 1))
    alpha = np.repeat(alpha_grid, n)[:, None, None]
    return W1, W2, X, alpha


def _forward(ctx: Context, W1, W2, XT, alpha, bias=None) -> np.ndarray:
    net = BiasFreeNet((W1.shape[2], W1.shape[1], 1), kink=0.0)
    be = ctx.backend
    if bias is None:
        return to_numpy(net.output([be.asarray(W1), be.asarray(W2)], be.asarray(XT), be.asarray(alpha)))
    Z = W1 @ XT + bias
    return (W2 @ np.maximum(Z, alpha * Z))[:, 0, :]


def _rounding_scale(W1, W2, XT, alpha) -> np.ndarray:
    r""":math:`\gamma\,|W_2|\,|W_1|\,|x|`: the float64 error bound of evaluating f at x.

    A dot product of n terms has rounding error at most :math:`\gamma_n\sum|\text{terms}|`,
    :math:`\gamma_n\approx n\epsilon`; two nested products with H and D terms plus the
    activation give :math:`\gamma = 2(H + D + 2)\epsilon` on the absolute-value network.
    """
    H, D = W1.shape[1], W1.shape[2]
    gamma = 2 * (H + D + 2) * EPS * np.maximum(1.0, np.abs(alpha)).squeeze(-1)
    return gamma * (np.abs(W2) @ (np.abs(W1) @ np.abs(XT)))[:, 0, :]


@claim(
    "zhang2025:theorem-1",
    title="A two-layer bias-free net is linear plus even positively homogeneous",
    source="Theorem 1, eq. (8), footnote 1",
    statement=r"For $\alpha\in[0,1]$, $f(x)=W_2\sigma(W_1x)=h(x)+g(x)$ with "
    r"$h(x)=\tfrac{1+\alpha}{2}W_2W_1x$ linear and "
    r"$g(x)=\tfrac{1-\alpha}{2}\sum_h w_{2h}|w_{1h}^\top x|$ even and positively homogeneous.",
    hypotheses=[
        r"two-layer bias-free net $f=W_2\sigma(W_1x)$",
        r"$\sigma(z)=\max(z,\alpha z)$ with $\alpha\in[0,1]$",
    ],
)
def theorem_1(ctx: Context) -> None:
    n = ctx.param("trials", tiny=8, quick=64, full=512)
    alphas = np.array([0.0, 0.01, 0.3, 0.5, 0.99, 1.0])
    worst_split = worst_odd = worst_homog = 0.0
    for H, D in SHAPES:
        W1, W2, XT, alpha = _random_two_layer(ctx, "thm1", H, D, n, alphas)
        f, fm = _forward(ctx, W1, W2, XT, alpha), _forward(ctx, W1, W2, -XT, alpha)
        lin = ((1 + alpha) / 2 * (W2 @ W1 @ XT))[:, 0, :]
        even = ((1 - alpha) / 2 * (W2 @ np.abs(W1 @ XT)))[:, 0, :]
        a = 10.0 ** ctx.rng(f"a/{H}x{D}").host.uniform(-3, 3, (len(W1), 1))
        fa = _forward(ctx, W1, W2, a[:, :, None] * XT, alpha)
        fam = _forward(ctx, W1, W2, -a[:, :, None] * XT, alpha)
        scale = _rounding_scale(W1, W2, XT, alpha)
        worst_split = max(worst_split, np.max(np.abs(f - lin - even) / scale))
        worst_odd = max(worst_odd, np.max(np.abs((f - fm) - 2 * lin) / (2 * scale)))
        g, ga = (f + fm) / 2, (fa + fam) / 2
        worst_homog = max(worst_homog, np.max(np.abs(ga - a * g) / (a * scale * 2)))
    why = (
        "deviation divided by the float64 bound 2(H+D+2)eps|W2||W1||x| of evaluating f; "
        "an exact identity keeps this ratio <= 1 "
        f"({len(SHAPES)} shapes (H,D), alpha in {alphas.tolist()}, {n} nets each, weight and "
        "input scales log-uniform in 1e-3..1e3)"
    )
    ctx.bound("f = h + g with the coefficients of eq. (8)", worst_split, 1.0, why=why)
    ctx.bound("odd part (f(x)-f(-x))/2 = (1+alpha)/2 W2 W1 x", worst_odd, 1.0, why=why)
    ctx.bound("even part g(ax) = a g(x) for a > 0", worst_homog, 1.0, why=why)

    with ctx.control("biases added: f = W2 sigma(W1 x + b)", breaks="bias-free"):
        H, D = 50, 2
        W1, W2, _, alpha = _random_two_layer(ctx, "bias", H, D, n, np.array([0.0, 0.5]))
        XT = ctx.rng("bias-x").host.normal(size=(len(W1), D, 64))
        b = ctx.rng("b").host.normal(size=(len(W1), H, 1)) * np.abs(W1 @ XT).mean(axis=2, keepdims=True)
        odd = (_forward(ctx, W1, W2, XT, alpha, b) - _forward(ctx, W1, W2, -XT, alpha, b)) / 2
        resid = []
        for k in range(len(W1)):  # best linear fit of the odd part, member by member
            w, *_ = np.linalg.lstsq(XT[k].T, odd[k], rcond=None)
            resid.append(np.linalg.norm(XT[k].T @ w - odd[k]) / np.linalg.norm(odd[k]))
        ctx.bound(
            "odd part is linear (relative residual of the best linear fit)",
            float(np.median(resid)),
            1e3 * EPS * np.sqrt(64),
            why="an exactly linear odd part leaves only rounding residual ~eps*sqrt(P); median over members",
        )
    with ctx.control("alpha = 3 outside [0, 1]", breaks=r"$\alpha\in[0,1]$"):
        W1, W2, XT, alpha = _random_two_layer(ctx, "a3", 3, 2, n, np.array([3.0]))
        f = _forward(ctx, W1, W2, XT, alpha)
        printed = ((1 + alpha) / 2 * (W2 @ W1 @ XT) + (1 - alpha) / 2 * (W2 @ np.abs(W1 @ XT)))[:, 0, :]
        ctx.bound(
            "f = h + g with the coefficients of eq. (8)",
            np.max(np.abs(f - printed) / _rounding_scale(W1, W2, XT, alpha)),
            1.0,
            why=why,
        )
