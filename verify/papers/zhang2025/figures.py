r"""zhang2025 Figures 1, 3 and 6: expressivity in practice, Gaussian-init collapse, perturbed data.

* Figure 1 (Sec. 3, App. H): fan and circle data, logistic loss, GD.  The numeric layer has
  no biased network; a two-layer net with hidden biases, :math:`W_2\sigma(W_1x+b)`, *is* the
  bias-free net on the augmented input :math:`[x,1]` with :math:`W_1'=[W_1,b]`.
* Figure 3 (Sec. 4, App. H): Gaussian initialisation (not Assumption 7); the ReLU net and its
  linear partner trained by learning-rate-rescaled GD (ReLU :math:`2\eta/(\alpha+1)`, linear
  :math:`\eta`, compared step for step -- the exact discrete form of the time rescaling, as in
  the paper's Fig. 7b), and gradient flow with :math:`\tau=(\alpha+1)/2` for the comparison with
  the closed form (15).
* Figure 6 (Sec. 6.2): the perturbed symmetric data set, square loss, GD.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.special import logit

from numeric.backend import to_numpy
from numeric.data.datasets import Dataset, fan, perturbed_symmetric, symmetrize
from numeric.data.initializations import gaussian
from numeric.engine.descent import gradient_descent
from numeric.engine.trajectory import Status
from numeric.measures.metrics import sign_imbalance
from numeric.models.losses import Loss
from numeric.models.networks import BiasFreeNet
from numeric.models.vector_fields import GradientFlow
from verify import evidence
from verify.claim import Erratum, claim
from verify.context import Context, Series
from verify.papers.zhang2025.hypotheses import (
    BIAS_FREE,
    CONDITION_3,
    DELTA_POS,
    HOMOGENEOUS,
    RELU,
    SMALL_INIT,
    SQUARE,
    TWO_LAYER,
)
from verify.papers.zhang2025.instances import scaled_targets, whitened
from verify.papers.zhang2025.paired_runs import (
    SAFETY,
    PairedRun,
    Pairing,
    Setup,
    fig3_data,
    flow_pair,
    ols,
    paired_gd,
    two_layer,
)
from verify.papers.zhang2025.regimes import record_symmetric
from verify.search import squash

EPS = float(np.finfo(np.float64).eps)

# ---------------------------------------------------------------------------- Figure 1


def paired_circle(rng: np.random.Generator, n_dirs: int) -> Dataset:
    r"""Circle data (Fig. 1b) in which every ray carries one inside and one outside point.

    Directions :math:`u_k=(\cos\theta_k,\sin\theta_k)`, :math:`\theta_k\sim\mathcal U[0,\pi)`;
    points :math:`\rho^{\rm in}_ku_k` (label +1, :math:`\rho^{\rm in}\in[0.2,0.6]`) and
    :math:`\rho^{\rm out}_ku_k` (label -1, :math:`\rho^{\rm out}\in[0.8,1.2]`), plus their
    negatives with the same labels (even labels, :math:`P=4\,n_{\rm dirs}`).  Any positively
    homogeneous classifier has :math:`\mathrm{sign}f(\rho u)=\mathrm{sign}f(u)` along a ray, so it
    gets at most one point of each ray pair right: accuracy :math:`\le1/2`, exactly.
    """
    theta = rng.uniform(0, np.pi, n_dirs)
    u = np.column_stack([np.cos(theta), np.sin(theta)])
    r_in, r_out = rng.uniform(0.2, 0.6, n_dirs), rng.uniform(0.8, 1.2, n_dirs)
    X = np.concatenate([r_in[:, None] * u, r_out[:, None] * u])
    y = np.concatenate([np.ones(n_dirs), -np.ones(n_dirs)])
    return Dataset(np.concatenate([X, -X]), np.concatenate([y, y]), "circle, paired radii (Fig. 1b)")


def best_linear_accuracy(X: np.ndarray, y: np.ndarray) -> float:
    r"""Exact best accuracy of a linear classifier :math:`\mathrm{sign}(w^\top x)` (no bias) in 2-D.

    The prediction changes only where :math:`w\perp x_\mu`; evaluating one direction inside
    every arc between consecutive switching angles covers all classifiers.
    """
    ang = np.arctan2(X[:, 1], X[:, 0])
    switches = np.sort(np.mod(np.concatenate([ang + np.pi / 2, ang - np.pi / 2]), 2 * np.pi))
    mids = (
        switches
        + np.roll(switches, -1)
        + np.where(np.arange(len(switches)) == len(switches) - 1, 2 * np.pi, 0)
    ) / 2
    W = np.column_stack([np.cos(mids), np.sin(mids)])
    return float((np.sign(X @ W.T) == y[:, None]).mean(axis=0).max())


@dataclass
class Trained:
    """Final outputs on the training inputs ``(B, P)`` and loss curves ``(B, R)`` of one architecture."""

    f: np.ndarray
    loss: np.ndarray
    steps: np.ndarray

    def accuracy(self, y: np.ndarray) -> np.ndarray:
        """Fraction of :math:`\\mathrm{sign}f=y` (:math:`f=0` counts as wrong), ``(B,)``."""
        return (np.sign(self.f) == y).mean(axis=1)


def _train_logistic(
    ctx: Context,
    key: str,
    widths: tuple[int, ...],
    X: np.ndarray,
    y: np.ndarray,
    w_init: float,
    lr: float,
    steps: int,
) -> Trained:
    """Full-batch GD on the logistic loss from the App.-H Gaussian init, all members in one run."""
    net = BiasFreeNet(widths, kink=0.0)
    flow = GradientFlow(net, Loss("logistic"))
    args = flow.args(ctx.backend, X, y, alpha=0.0)
    y0 = net.pack(gaussian(net, ctx.rng(key), len(X), w_init))
    record = np.unique(np.linspace(0, steps, 41).astype(int))
    traj = gradient_descent(flow, y0, lr=lr, steps=steps, record=record, args=args, observe=flow.observer())
    if not np.all(traj.status == Status.SUCCESS):
        raise RuntimeError(f"GD on the logistic loss failed:\n{traj.summary()}")
    f = to_numpy(flow.outputs(traj.final, args))
    return Trained(f, to_numpy(traj.observed["loss"]), record)


def _fig1_data(ctx: Context, P: int, seeds: int) -> tuple[list[Dataset], list[Dataset]]:
    fans = [fan(P // 2, seed=int(ctx.rng(f"fan/{s}").host.integers(2**31))) for s in range(seeds)]
    circles = [paired_circle(ctx.rng(f"circle/{s}").host, P // 4) for s in range(seeds)]
    return fans, circles


def _fig1_figures(ctx: Context, nets: dict[str, Trained], fans: list[Dataset], seeds: int, steps: np.ndarray):
    ctx.figure(
        "training loss (logistic), seed 0",
        series=[
            Series(f"{name}, {d}", steps, t.loss[i * seeds])
            for name, t in nets.items()
            for i, d in enumerate(("fan", "circle"))
        ],
        xlabel="GD step",
        ylabel="loss",
        logy=True,
    )
    X, y = fans[0].X, fans[0].y
    order = np.argsort(np.arctan2(X[:, 1], X[:, 0]))
    theta = np.arctan2(X[order, 1], X[order, 0])
    ctx.figure(
        "fan data (seed 0): network output f(x_mu) against the angle of x_mu, labels y = sign(sin 3 theta)",
        series=[Series("label y", theta, y[order], "o")]
        + [Series(name, theta, np.tanh(t.f[0, order]), "-") for name, t in nets.items()],
        xlabel="angle of x (rad)",
        ylabel="tanh f(x)",
    )


_FAN_CAP = "fan: accuracy <= best linear accuracy"
_CIRCLE_CAP = "circle: accuracy <= 1/2, paired radii"


@claim(
    "zhang2025:figure-1",
    title="Fan and circle data: two-layer bias-free nets fail, deep bias-free (fan) and biased nets succeed",
    source="Figure 1, Sec. 3 (Theorem 1, Corollary 2), App. H",
    statement=r"Trained with logistic loss by GD from small init: on the fan data (odd, positively "
    r"homogeneous, Condition 3) the two-layer bias-free ReLU net fails (accuracy capped by the best linear "
    r"classifier), the three-layer bias-free and the biased nets succeed; on the circle data (not "
    r"homogeneous) all bias-free nets fail and the biased net succeeds.",
    hypotheses=[BIAS_FREE, RELU, TWO_LAYER, HOMOGENEOUS, CONDITION_3, SMALL_INIT],
)
def figure_1(ctx: Context) -> None:
    P = ctx.param("P", tiny=40, quick=120, full=120)
    H = ctx.param("H", tiny=16, quick=30, full=100)
    seeds = ctx.param("seeds", tiny=1, quick=2, full=3)
    w_init = ctx.param("w_init", tiny=0.5, quick=0.5, full=1e-2)
    lr = ctx.param("lr", tiny=0.5, quick=0.5, full=0.2)
    steps = ctx.param("steps", tiny=1000, quick=1500, full=80000)
    ctx.require(P % 4 == 0 and P >= 8, f"need P divisible by 4 (paired circle data), got P={P}")
    fans, circles = _fig1_data(ctx, P, seeds)
    record_symmetric(ctx, fans)
    # "from small init": App. H's w_init = 1e-2; a three-layer net needs ~80000 epochs to leave the
    # small-init saddle, so only the full profile reaches the regime (quick trains from 0.5).
    ctx.regime(SMALL_INIT, w_init=w_init)
    if (H, w_init, lr, steps) != (100, 1e-2, 0.2, 80000):
        ctx.reduced_scale(
            f"H = {H}, w_init = {w_init:g}, lr = {lr:g}, {steps} steps for App. H's H = 100, w_init = 1e-2, "
            "lr = 0.2, 80000 steps (full profile)"
        )
    data = fans + circles
    X = np.stack([d.X for d in data])
    y = np.stack([d.y for d in data])
    Xb = np.concatenate([X, np.ones((*X.shape[:2], 1))], axis=2)
    nets = {
        "2-layer bias-free": _train_logistic(ctx, "two", (2, H, 1), X, y, w_init, lr, steps),
        "3-layer bias-free": _train_logistic(ctx, "three", (2, H, H, 1), X, y, w_init, lr, steps),
        "2-layer biased": _train_logistic(ctx, "biased", (3, H, 1), Xb, y, w_init, lr, steps),
    }
    acc = {name: t.accuracy(y) for name, t in nets.items()}
    lin = np.array([best_linear_accuracy(d.X, d.y) for d in fans])
    cap2 = (1 + lin) / 2
    fan_sl, circ_sl = slice(0, seeds), slice(seeds, 2 * seeds)
    why_lin = (
        "best linear classifier sign(w^T x) without bias, computed exactly (all 2-D directions); the "
        "paper's 'fails': the trained net is effectively linear (Theorem 8), so no better than the best "
        "linear classifier"
    )
    why_cap = (
        "any two-layer bias-free net: f = h + g, h linear, g even (Theorem 1); a symmetric pair (x, y), "
        "(-x, -y) is fully right only if y h(x) > |g(x)| > 0, so at most n_lin pairs are fully right and "
        "the others give one point each: accuracy <= (1 + acc_lin)/2; succeeding means beating this by >= "
        "one point (1/P)"
    )
    why_circ = "f positively homogeneous => sign f(rho u) = sign f(u): one of each ray's two points is wrong"
    ctx.bound(
        f"{_FAN_CAP} (2-layer bias-free)",
        acc["2-layer bias-free"][fan_sl],
        lin,
        why=why_lin,
        details={"accuracies": acc["2-layer bias-free"][fan_sl], "best linear": lin},
    )
    for name in ("3-layer bias-free", "2-layer biased"):
        ctx.bound(
            f"fan, {name}: accuracy > every two-layer bias-free net's cap (1 + acc_lin)/2",
            acc[name][fan_sl],
            cap2 + 1 / P,
            side=">=",
            why=why_cap,
            details={"accuracies": acc[name][fan_sl], "cap": cap2},
        )
    for name in ("2-layer bias-free", "3-layer bias-free"):
        ctx.bound(
            f"{_CIRCLE_CAP} ({name})",
            acc[name][circ_sl],
            0.5,
            why=why_circ,
            details={"accuracies": acc[name][circ_sl]},
        )
    ctx.bound(
        "circle, 2-layer biased: accuracy > 1/2 (beats every bias-free net)",
        acc["2-layer biased"][circ_sl],
        0.5 + 1 / P,
        side=">=",
        why=why_circ,
        details={"accuracies": acc["2-layer biased"][circ_sl]},
    )
    _fig1_figures(ctx, nets, fans, seeds, nets["2-layer bias-free"].steps)
    ctx.note(
        "The numeric layer has no biased network: the 'biased' net W2 sigma(W1 x + b) is trained as the "
        "bias-free net on the augmented input [x, 1] (W1' = [W1, b]); hidden biases only, as in the paper's "
        "two-layer biased net. Fan data: numeric.data.datasets.fan (our construction, the paper gives none). "
        "Circle data: every ray carries one inside (+1) and one outside (-1) point, so 'bias-free fails' is "
        "exact (accuracy <= 1/2) rather than empirical. Accuracies (seed-wise): "
        + "; ".join(
            f"{k}: fan {v[fan_sl].round(3).tolist()}, circle {v[circ_sl].round(3).tolist()}"
            for k, v in acc.items()
        )
        + f"; best linear on fan {lin.round(3).tolist()}."
    )
    caps = [f"{_FAN_CAP}*", f"{_CIRCLE_CAP}*"]
    with ctx.control("the biased two-layer net (bias-free on [x, 1])", breaks=BIAS_FREE, must_break=caps):
        ctx.bound(f"{_CIRCLE_CAP} (2-layer biased)", acc["2-layer biased"][circ_sl], 0.5, why=why_circ)
        ctx.bound(f"{_FAN_CAP} (2-layer biased)", acc["2-layer biased"][fan_sl], lin, why=why_lin)
    with ctx.control("the three-layer bias-free net on the fan data", breaks=TWO_LAYER, must_break=caps[:1]):
        ctx.bound(f"{_FAN_CAP} (3-layer bias-free)", acc["3-layer bias-free"][fan_sl], lin, why=why_lin)


# ---------------------------------------------------------------------------- Figure 3

MAX_ERROR = 0.003  # the printed "< 0.3%"
_FIG3B = "Fig. 3b: max_t ||sqrt((a+1)/2) W(2t/(a+1)) - W_lin(t)|| / ||W_lin(t)|| < 0.3% (alpha = 0)"


def _fig3_setup(ctx: Context, key: str, D: int, H: int, P: int, seeds: int, w_init: float, even: float = 0.0):
    r"""Fig. 3 data (white, exactly symmetric) per seed and the linear partners' App.-H Gaussian init.

    ``even > 0`` adds :math:`\text{even}\cdot|v^\top x|` (unit :math:`v`) to the target: the target
    is no longer odd (Condition 3 broken).
    """
    rng = ctx.rng(f"{key}/data/{D}x{P}").host
    data = []
    for _ in range(seeds):
        ds = fig3_data(rng, P // 2, D, white=True)
        if even:
            v = rng.normal(size=D)
            ds = Dataset(ds.X, ds.y + even * np.abs(ds.X @ v) / np.linalg.norm(v), ds.name + " + even part")
        data.append(ds)
    net = two_layer(D, H)
    y0 = to_numpy(net.pack(gaussian(net, ctx.rng(f"{key}/init/{H}"), seeds, w_init)))
    return Setup(net, GradientFlow(net, Loss("square")), data, y0, w_init, f"D={D}, H={H}, P={P}")


def r1_imbalance(setup: Setup) -> np.ndarray:
    r""":math:`\varepsilon=\|r_1^+\|^2/\|r_1^-\|^2-1` of Lemma 6's growing direction, per seed.

    :math:`r_1=\frac12(W_1(0)\bar\beta+W_2(0)^\top)` of the linear partner (the ReLU net's is
    proportional); Assumption 7's balance is :math:`\varepsilon=0`.
    """
    W1, W2 = setup.net.unpack(setup.y_lin0)
    bbar = np.stack([d.beta / np.linalg.norm(d.beta) for d in setup.data])
    r1 = 0.5 * ((W1 @ bbar[:, :, None])[:, :, 0] + W2[:, 0, :])
    return to_numpy(sign_imbalance(r1[:, None, :])) - 1


def _gd_collapse(ctx: Context, setup: Setup, alphas: tuple[float, ...], lr: float) -> PairedRun:
    r"""lr-rescaled GD of every seed's ReLU nets and linear partner through the transition.

    Horizon: half of :func:`~verify.papers.zhang2025.paired_runs.transition_horizon`, i.e. the
    transition time :math:`\tilde t^*\approx\frac1{2s}\ln\frac{4s}{w^2}` plus four relaxation times
    :math:`4/s`; the weight error is set during the transition and persists afterwards.
    """
    steps = int(np.ceil(setup.horizon() / 2 / lr))
    record = np.unique(np.linspace(0, steps, 41).astype(int))
    pairing = Pairing(alphas, len(setup.data))
    return paired_gd(
        ctx.backend, setup.flow, pairing, setup.data, setup.y_lin0, lr=lr, steps=steps, record=record
    )


def _loss_scale(setup: Setup) -> np.ndarray:
    r"""Loss drop :math:`\mathcal L(0)-\mathcal L_{\rm OLS}=\frac12\beta^\top\Sigma^{-1}\beta` per seed."""
    return np.array([0.5 * np.mean(d.y**2) - ols(d)[1] for d in setup.data])


def _collapse_errors(setup: Setup, run: PairedRun) -> tuple[np.ndarray, np.ndarray]:
    """Per (seed, slope): max_t relative weight error (Fig. 3b) and max_t |L_a - L_lin| / loss drop."""
    weight = run.relative_deviation[..., 1:].max(-1)
    loss = np.abs(run.loss_relu - run.loss_lin[:, None]).max(-1) / _loss_scale(setup)[:, None]
    return weight, loss


def _w15_loss(ds: Dataset, t: np.ndarray, w_eff: float) -> np.ndarray:
    r"""Loss :math:`\frac12\langle y^2\rangle-\beta^\top w+\frac12\|w\|^2` of (15), :math:`\Sigma=I`.

    :math:`r=\bar\beta` and :math:`w_{\rm init}=\|r_1\|` (Lemma 6's growing direction and size).
    """
    from symbolic.closed_forms import corollary9_callable

    bbar = ds.beta / np.linalg.norm(ds.beta)
    w = corollary9_callable()(t, ds.beta, bbar, w_eff)
    return 0.5 * np.mean(ds.y**2) - w @ ds.beta + 0.5 * (w * w).sum(axis=1)


_OLS_MIN = "the OLS loss is the global minimum: min_t L(t) - L_ols"
_FIG3B_OLS_MIN = "Fig. 3b runs (GD)"


def _check_ols_minimum(ctx: Context, setup: Setup, run: PairedRun, s: int, what: str) -> None:
    r"""Seed ``s`` of ``run`` (flow or GD): no ReLU member and no linear partner goes below
    :math:`\mathcal L_{\rm OLS}`; the check is named ``what: _OLS_MIN [setup, seed]``.

    Cor. 10 proof: under Condition 3 the ReLU net's even part :math:`f_{\rm even}` is orthogonal to the
    odd target, so :math:`\mathcal L=\frac12\langle(y-x^\top w)^2\rangle+\frac12\langle
    f_{\rm even}^2\rangle\ge\mathcal L_{\rm OLS}`; a target with an even part breaks exactly this.
    """
    ds = setup.data[s]
    ends = np.concatenate([run.loss_relu[s], run.loss_lin[s][None]])
    ctx.bound(
        f"{what}: {_OLS_MIN} [{setup.label}, seed {s}]",
        ends.min(axis=1) - ols(ds)[1],
        -8 * ds.P * EPS * np.mean(ds.y**2),
        side=">=",
        why="Cor. 10 proof: on symmetric data L = 1/2<(y - x^T w)^2> + 1/2<f_even^2> >= L_ols; rounding "
        "8 P eps <y^2>",
    )


def _check_fig3a(ctx: Context, setup: Setup, rtol: float) -> None:
    r"""Fig. 3a by gradient flow (ReLU :math:`\tau=(\alpha+1)/2`): (15) and the OLS limit."""
    alphas = (0.0, 0.5)
    coarse, tight = flow_pair(ctx, setup, alphas, rtol, n_out=61)
    W1, W2 = setup.net.unpack(setup.y_lin0)
    scale = _loss_scale(setup)
    dev15, tol15, relu15 = [], [], []
    for s, ds in enumerate(setup.data):
        r1 = 0.5 * (W1[s] @ (ds.beta / np.linalg.norm(ds.beta)) + W2[s, 0])
        L15 = _w15_loss(ds, coarse.t, float(np.linalg.norm(r1)))
        dev15.append(np.abs(coarse.loss_lin[s] - L15).max() / scale[s])
        tol15.append(SAFETY * np.abs(coarse.loss_lin[s] - tight.loss_lin[s]).max() / scale[s] + setup.w_init)
        relu15.append(np.abs(coarse.loss_relu[s] - L15).max(-1) / scale[s])
    ratio = np.array(dev15) / np.array(tol15)
    ctx.bound(
        f"Fig. 3a: linear net's loss = (15) with r = bbar, w_init = ||r1|| [{setup.label}]: max_t deviation "
        "/ tol",
        float(ratio.max()),
        1.0,
        why="Lemma 6: from a Gaussian init the net grows along r1 bbar^T, i.e. (15) with r = bbar and "
        "w_init = ||r1||; tolerance = 2 x integrator error (rtol vs rtol/100) + w_init (the non-rank-one "
        "parts of W(0) are O(w_init)); deviation and tolerance relative to the loss drop 1/2 beta^T "
        "Sigma^-1 beta",
        resolution=f"a deviation from (15) above {max(tol15):.2g} of the loss drop, i.e. above the O(w_init) "
        "that Lemma 6's rank-one approximation of a Gaussian init leaves (w_init itself is the tolerance)",
        details={
            "relative deviation": dev15,
            "relative tolerance": tol15,
            "ReLU (alpha = 0, 0.5) vs (15), relative, not checked": relu15,
        },
    )
    for s, ds in enumerate(setup.data):
        L_ols = ols(ds)[1]
        ends = np.concatenate([coarse.loss_relu[s], coarse.loss_lin[s][None]])  # (K+1, T)
        d = ends[:, -3:-1] - ends[:, -2:]  # last two decrements
        q = d[:, 1] / np.where(d[:, 0] > 0, d[:, 0], np.inf)
        geometric = (d[:, 1] > 0) & (q >= 0) & (q < 1)  # otherwise no decay to extrapolate: tail 0
        tail = np.where(geometric, d[:, 1] * q / np.where(geometric, 1 - q, 1.0), 0.0)
        integ = SAFETY * np.abs(
            ends[:, -1] - np.concatenate([tight.loss_relu[s, :, -1], tight.loss_lin[s, -1:]])
        )
        rounding = 8 * ds.P * EPS * np.mean(ds.y**2)
        ctx.bound(
            f"Fig. 3a: the loss converges to the OLS loss (alphas {list(alphas)} and linear) "
            f"[{setup.label}, seed {s}]: L(T) - L_ols",
            ends[:, -1] - L_ols,
            2 * tail + integ + max(rounding, rtol * scale[s]),
            why="the remaining decrease, extrapolated geometrically from the last two decrements (ratio q "
            "measured, so no rate is assumed: the ReLU nets' even part decays more slowly than the linear "
            "rate), is tail = d q/(1-q); a limit L_ols leaves L(T) - L_ols = tail, we allow 2 x tail + 2 x "
            "integrator error + the resolution of the solve, max(8 P eps <y^2>, rtol x loss drop); a limit "
            "above L_ols by more would exceed it",
            details={"L(T) - L_ols": ends[:, -1] - L_ols, "tail": tail, "ratio q": q},
        )
        _check_ols_minimum(ctx, setup, coarse, s, "Fig. 3a")
    series = [
        Series(f"ReLU GF, alpha = {a:g}", coarse.t, coarse.loss_relu[0, k], "o") for k, a in enumerate(alphas)
    ]
    series.append(Series("linear GF", coarse.t, coarse.loss_lin[0], "o"))
    r1 = 0.5 * (W1[0] @ (setup.data[0].beta / np.linalg.norm(setup.data[0].beta)) + W2[0, 0])
    t = np.linspace(0, coarse.t[-1], 300)
    series.append(Series("theory (15)", t, _w15_loss(setup.data[0], t, float(np.linalg.norm(r1))), "-"))
    ctx.figure(
        "Fig. 3a: loss against rescaled time (a+1)t/2, Gaussian init",
        series=series,
        xlabel="(a+1) t / 2",
        ylabel="loss",
    )


@claim(
    "zhang2025:figure-3",
    title="Gaussian init: losses match (15) and converge to OLS; weight error of (14) below 0.3%",
    source="Figure 3 and its caption, Sec. 4.2, App. H",
    statement=r"Fig. 3 data (D = 20, P = 2000, odd target), width 500, Gaussian init $\mathcal N(0,w_{\rm "
    r"init}^2/N_l)$: (a) the loss curves match (15) and converge to the OLS loss; (b) they collapse after "
    r"rescaling time and $\|\sqrt{\frac{\alpha+1}2}W(\frac2{\alpha+1}t)-W^{\rm lin}(t)\|/\|W^{\rm "
    r"lin}(t)\|<0.3\%$.",
    hypotheses=[
        CONDITION_3,
        SMALL_INIT,
        "Gaussian initialisation (Assumption 7 NOT assumed), width H = 500",
        SQUARE,
    ],
    erratum=Erratum(
        "the <0.3% weight error does not reproduce at H = 500: with a Gaussian init the error is set by the "
        "+/- imbalance of r1 (Assumption 7's balance is violated by O(H^-1/2)), about 0.2-0.3 x "
        "|imbalance|, i.e. percent level at H = 500 and seed dependent (zhang2025:figure-3-corrected)",
        via="catalog section 8 (0.8-9% at H = 500); reproduced here",
        shown_by=("Fig. 3b: max_t ||sqrt((a+1)/2) W(2t/(a+1)) - W_lin(t)|| / ||W_lin(t)|| < 0.3%*",),
    ),
)
def figure_3(ctx: Context) -> None:
    D = ctx.param("D", tiny=3, quick=4, full=20)
    P = ctx.param("P", tiny=24, quick=40, full=2000)
    H = ctx.param("H", tiny=500, quick=500, full=500)
    seeds = ctx.param("seeds", tiny=1, quick=3, full=3)
    w_init = ctx.param("w_init", tiny=1e-3, quick=1e-4, full=1e-8)
    lr = ctx.param("lr", tiny=0.1, quick=0.1, full=0.004)
    rtol = ctx.param("rtol", tiny=1e-6, quick=1e-7, full=1e-9)
    ctx.require(P >= 4 * D and P % 2 == 0, f"need an even P >= 4 D (whitening), got P={P}, D={D}")
    ctx.regime(SMALL_INIT, w_init=w_init)
    if (D, P, w_init, lr) != (20, 2000, 1e-8, 0.004):
        ctx.reduced_scale(
            f"D = {D}, P = {P}, w_init = {w_init:g}, lr = {lr:g} for the paper's D = 20, P = 2000, "
            "w_init = 1e-8, lr = 0.004 at the same width H = 500; the weight error is set by the +/- "
            "imbalance of r1, whose law depends on H only (figure-3-corrected), so a failure of the 0.3% "
            "bound persists",
            persists=True,
        )
    small = _fig3_setup(ctx, "fig3a", D, max(H // 10, 4), P, 1, w_init)  # (a) by gradient flow, narrower
    _check_fig3a(ctx, small, rtol)
    setup = _fig3_setup(ctx, "fig3b", D, H, P, seeds, w_init)
    record_symmetric(ctx, [*small.data, *setup.data])
    run = _gd_collapse(ctx, setup, (0.0,), lr)
    weight, loss = _collapse_errors(setup, run)
    for s in range(seeds):
        _check_ols_minimum(ctx, setup, run, s, _FIG3B_OLS_MIN)
    eps = r1_imbalance(setup)
    ctx.bound(
        f"{_FIG3B} [{setup.label}]",
        weight[:, 0],
        MAX_ERROR,
        why="the printed bound; lr-rescaled GD (ReLU lr 2 eta, linear eta) makes the comparison exact step "
        "by step, so the measured error has no discretisation part",
        details={
            "errors per seed": weight[:, 0],
            "r1 imbalance per seed": eps,
            "loss deviation / loss drop per seed": loss[:, 0],
            "eta": lr,
        },
    )
    ctx.figure(
        "Fig. 3b: relative weight error against linear time (alpha = 0)",
        series=[
            Series(f"seed {s}, imbalance {eps[s]:+.3f}", run.t[1:], run.relative_deviation[s, 0, 1:])
            for s in range(seeds)
        ]
        + [Series("0.3%", run.t[[1, -1]], [MAX_ERROR, MAX_ERROR], "--")],
        xlabel="linear time eta k",
        ylabel="relative weight error",
        logy=True,
    )
    # Condition 3's control must break a conclusion that holds in the main run, and the 0.3% bound fails there
    # already (the erratum; at H = 50, the former control's width, it is 13% on that control's data and init
    # with the target left odd, r1 imbalance 0.71, quick): it breaks the OLS
    # floor of the (b) runs, at their H and seeds (key "fig3b": the same inputs and inits; the target gains
    # |v^T x|).  By GD, not on the Fig. 3a flow: with an even target the ReLU units slide along their
    # activation surfaces and the located flow solve did not finish in 150 s at quick.
    with ctx.control(
        "target with an even part, y = odd + |v^T x| (the Fig. 3b runs otherwise unchanged)",
        breaks=CONDITION_3,
        must_break=[f"{_FIG3B_OLS_MIN}: {_OLS_MIN} *"],
    ):
        bent = _fig3_setup(ctx, "fig3b", D, H, P, seeds, w_init, even=1.0)
        bent_run = _gd_collapse(ctx, bent, (0.0,), lr)
        for s in range(seeds):
            _check_ols_minimum(ctx, bent, bent_run, s, _FIG3B_OLS_MIN)


def _order_tolerance(x: np.ndarray, values) -> tuple[np.ndarray, float]:
    r"""Seed means ``(nx,)`` of ``values`` (one 1-D array of seeds per ``x``) and three standard errors
    of their log-log slope.

    Delta method: :math:`\sigma_i=\mathrm{SE}_i/\bar v_i` in log space; a least-squares slope has
    variance :math:`\sum_iw_i^2\sigma_i^2`, with
    :math:`w_i=(\ln x_i-\overline{\ln x})/\sum_j(\ln x_j-\overline{\ln x})^2`.
    """
    mean = np.array([np.mean(v) for v in values])
    sigma = np.array([np.std(v, ddof=1) / np.sqrt(len(v)) for v in values]) / mean
    return mean, float(3 * np.sqrt((evidence.slope_weights(x) ** 2 * sigma**2).sum()))


def pooled_tolerance(x: np.ndarray, y: np.ndarray) -> float:
    """Three standard errors of the least-squares slope of ``ln y`` on ``ln x`` over all samples."""
    lx, ly = np.log(np.ravel(x)), np.log(np.ravel(y))
    resid = ly - np.polyval(np.polyfit(lx, ly, 1), lx)
    return float(3 * np.sqrt(resid.var(ddof=2) / ((lx - lx.mean()) ** 2).sum()))


def balance_scale(H: int, n: int, rng: np.random.Generator) -> np.ndarray:
    r"""Monte Carlo :math:`b=|\|r^+\|^2-\|r^-\|^2|/\|r\|^2` for ``n`` i.i.d. Gaussian :math:`r\in\mathbb R^H`.

    Under App. H's init :math:`r_1=\frac12(W_1(0)\bar\beta+W_2(0)^\top)` has i.i.d. centred Gaussian
    entries, so the imbalance depends on :math:`H` only; :math:`|\varepsilon|\approx2b` for small
    imbalances, and :math:`\mathbb E\,b\approx\sqrt{6/(\pi H)}` (signs independent of magnitudes).
    :math:`b\in[0,1]` has all moments, unlike :math:`\varepsilon` at small :math:`H`.
    """
    r = rng.normal(size=(n, H))
    sq = r * r
    return np.abs(np.where(r > 0, sq, -sq).sum(1)) / sq.sum(1)


def _sweep(
    ctx: Context,
    key: str,
    Hs: list[int],
    D: int,
    P: int,
    seeds: int,
    w_init: float,
    lr: float,
    even: float = 0.0,
) -> dict:
    """Weight and loss collapse errors (alpha = 0) and r1 imbalances, ``(len(Hs), seeds)`` each, and the
    data sets trained on (``"data"``)."""
    weight, loss, eps, data = [], [], [], []
    for H in Hs:
        setup = _fig3_setup(ctx, key, D, H, P, seeds, w_init, even=even)
        w, l = _collapse_errors(setup, _gd_collapse(ctx, setup, (0.0,), lr))
        weight.append(w[:, 0])
        loss.append(l[:, 0])
        eps.append(r1_imbalance(setup))
        data.extend(setup.data)
    return {
        "H": np.array(Hs, float),
        "weight": np.array(weight),
        "loss": np.array(loss),
        "eps": np.array(eps),
        "data": data,
    }


def imbalance_mean(H: int, n: int, rng: np.random.Generator) -> tuple[float, float]:
    r"""Monte Carlo :math:`\mathbb E|\varepsilon|` and its standard error, Gaussian :math:`r\in\mathbb R^H`.

    :math:`\varepsilon=\|r^+\|^2/\|r^-\|^2-1=2s/(1-s)` with :math:`s` the signed balance of
    :func:`balance_scale`; App. H's :math:`r_1` has i.i.d. centred Gaussian entries.
    """
    r = rng.normal(size=(n, H))
    sq = r * r
    s = np.where(r > 0, sq, -sq).sum(1) / sq.sum(1)
    e = np.abs(2 * s / (1 - s))
    return float(e.mean()), float(e.std(ddof=1) / np.sqrt(n))


def _control_variate_means(values, aux, aux_mean, aux_se) -> tuple[np.ndarray, np.ndarray]:
    r"""Per width: :math:`\mathbb E[W]` estimated with the control variate :math:`|\varepsilon|` (known mean).

    :math:`\hat\mu_W=\bar W-b(\overline{|\varepsilon|}-\mathbb E|\varepsilon|)`, :math:`b` the least-squares
    slope of :math:`W` on :math:`|\varepsilon|` over the seeds: unbiased to :math:`O(1/n)` whatever the
    relation between :math:`W` and :math:`|\varepsilon|`, with variance :math:`(1-\rho^2)` times that of
    :math:`\bar W` (residual variance / n) plus :math:`b^2` times the Monte Carlo variance of
    :math:`\mathbb E|\varepsilon|`. Returns the estimates and their standard errors.
    """
    est, se = [], []
    for v, a, mu, mse in zip(values, aux, aux_mean, aux_se, strict=True):
        b = float(np.cov(a, v)[0, 1] / np.var(a, ddof=1))
        resid = v - v.mean() - b * (a - a.mean())
        est.append(v.mean() - b * (a.mean() - mu))
        se.append(np.sqrt(resid.var(ddof=2) / len(v) + (b * mse) ** 2))
    return np.array(est), np.array(se)


def _check_mechanism(ctx: Context, sweep: dict, label: str) -> None:
    """Weight error ~ H^(-1/2) (mean over inits) and weight error proportional to |eps| (all samples)."""
    mc = [imbalance_mean(int(h), 4000, ctx.rng(f"mc-eps/{int(h)}").host) for h in sweep["H"]]
    mean, se = _control_variate_means(sweep["weight"], np.abs(sweep["eps"]), *zip(*mc, strict=True))
    lx = np.log(sweep["H"])
    w = (lx - lx.mean()) / ((lx - lx.mean()) ** 2).sum()
    tol = float(3 * np.sqrt((w**2 * (se / mean) ** 2).sum()))
    ctx.order(
        f"weight error of (14) with Gaussian init ~ c H^(-1/2) (alpha = 0) [{label}]",
        sweep["H"],
        mean,
        expected=-0.5,
        tol=tol,
        why="mean over inits of max_t relative weight error (lr-rescaled GD, exact discrete pairing), "
        f"estimated per H from {sweep['weight'].shape[1]} seeds with the r1 imbalance |eps| as control "
        "variate (its mean from 4000 Monte Carlo draws; _control_variate_means: unbiased, the seed "
        "scatter of |eps| removed); tolerance = three standard errors of the fitted slope (delta method)",
        xlabel="width H",
        ylabel="E max_t weight error",
    )
    eps = np.abs(sweep["eps"])
    ctx.order(
        f"weight error proportional to the r1 imbalance |eps| (all seeds and widths) [{label}]",
        eps.ravel(),
        sweep["weight"].ravel(),
        expected=1.0,
        tol=pooled_tolerance(eps, sweep["weight"]),
        why="the ReLU net removes the +/- imbalance of r1 during the transition, the linear net keeps it "
        "(catalog P8): first order in eps; tolerance = three standard errors of the pooled log-log slope",
        xlabel="|eps| = | ||r1+||^2 / ||r1-||^2 - 1 |",
        ylabel="max_t weight error",
    )


# ---------------------------------------------------------------------------- Figure 3, corrected: search

# Largest cond(Sigma) searched: lambda_max(Sigma) = 1 and ||beta|| = 1 give ||w_OLS|| <= 4, so the linear
# net's curvature at its solution, about 2 ||w_OLS|| lambda_max, stays <= 8 (eta h <= 0.8 at lr 0.1).
SEARCH_KAPPA = 4.0
SEARCH_SEEDS = 4  # Gaussian init draws per searched width and instance: 8 samples per pooled slope
SEARCH_LR = (
    0.1  # the searched runs' eta (the lr-rescaled pairing is exact at every eta; stable: see SEARCH_KAPPA)
)
# The searched widths H // 4 and H // 2: at H // 8 the largest of a few draws' |eps| nears 1, where first
# order in eps is undecided (next_order_tolerance), and most instances were.
SEARCH_WIDTHS = (4, 2)
SEARCH_SIZES = {
    "search_D": (3, 4, 8),
    "search_P": (24, 40, 80),
    "search_H": (256, 400, 800),
}  # tiny, quick, full


def collapse_instance(theta: np.ndarray, Z: np.ndarray) -> tuple[Dataset, float]:
    r"""Search parameters :math:`\theta=(\varphi,z_w,\psi,z_p,z_\kappa,z_a,z_k,\omega)` -> ``(data, w_init)``
    inside figure-3-corrected's hypotheses (:math:`\varphi` moves the init draws, :func:`_searched_setups`).

    Inputs: pairs :math:`x_0=\mathrm{sign}(g)|g|^p` entrywise, :math:`g=\cos\psi\,Z_0+\sin\psi\,Z_1` (``Z``
    ``(2, n, D)`` standard Gaussian, so :math:`g` is a standard Gaussian draw for every :math:`\psi`),
    :math:`p=3\,\mathrm{sigmoid}(z_p)`: :math:`p=1` Gaussian (Fig. 3), :math:`p\to0` the hypercube
    :math:`\{\pm1\}^D`, :math:`p\to3` heavy tailed; whitened exactly, then scaled along its axes by
    :math:`\kappa^{-j/(2(D-1))}`, :math:`\kappa=` ``SEARCH_KAPPA`` :math:`^{\mathrm{sigmoid}(z_\kappa)}`:
    :math:`\Sigma=\mathrm{diag}(1,\dots,\kappa^{-1})`.  Odd target :math:`y_0=z+a\sin(kz)`,
    :math:`z=u^\top x_0`, :math:`u=\cos\omega\,e_1+\sin\omega\,e_D`, :math:`a=2\,\mathrm{sigmoid}(z_a)`,
    :math:`k=8\,\mathrm{sigmoid}(z_k)` (Fig. 3's :math:`w^\top x+\sin(4w^\top x)` is :math:`a=1/\|w\|`,
    :math:`k=4\|w\|`), scaled to :math:`\|\beta\|=1` (a time and weight rescaling).  Data
    :math:`[X_0;-X_0]`, :math:`[y_0;-y_0]`: Condition 3 exactly.  :math:`w_{\rm init}=10^{-8+6\,
    \mathrm{sigmoid}(z_w)}\in(10^{-8},10^{-2})`: the small-init regime, down to the paper's :math:`10^{-8}`.
    """
    _, zw, psi, zp, zk, za, zf, om = theta
    D = Z.shape[2]
    g = np.cos(psi) * Z[0] + np.sin(psi) * Z[1]
    X0 = np.sign(g) * np.abs(g) ** (3 * squash(zp))
    X0 = whitened(X0, SEARCH_KAPPA ** squash(zk))
    u = np.zeros(D)
    u[0], u[-1] = np.cos(om), np.sin(om)
    z = X0 @ u
    y0 = z + 2 * squash(za) * np.sin(8 * squash(zf) * z)
    return symmetrize(X0, scaled_targets(X0, y0), "searched instance"), 10 ** (-8 + 6 * squash(zw))


def r1_vector(setup: Setup) -> np.ndarray:
    r"""Lemma 6's growing direction :math:`r_1=\frac12(W_1(0)\bar\beta+W_2(0)^\top)` of every linear partner,
    ``(B, H)`` (:func:`r1_imbalance` reads its sign imbalance)."""
    W1, W2 = setup.net.unpack(setup.y_lin0)
    bbar = np.stack([d.beta / np.linalg.norm(d.beta) for d in setup.data])
    return 0.5 * ((W1 @ bbar[:, :, None])[:, :, 0] + W2[:, 0, :])


def balanced_twins(setup: Setup) -> Setup:
    r"""``setup``'s members followed by their balanced twins: each unit with :math:`r_{1h}>0` (its row of
    :math:`W_1` and its :math:`W_{2h}`) scaled by :math:`\|r_1^-\|/\|r_1^+\|`, so :math:`\varepsilon=0`.

    A twin keeps its draw's non-rank-one parts (up to that factor, :math:`(1+\varepsilon)^{-1/2}`): its
    weight and loss errors are the part the statement does not attribute to :math:`\varepsilon`, the
    :math:`O(w_{\rm init})` and :math:`O(w_{\rm init}^2)` terms of the small-init expansion (measured on
    Fig. 3 data at :math:`\varepsilon=0` exactly: :math:`0.03`-:math:`0.05\,w_{\rm init}` and
    :math:`0.002`-:math:`0.014\,w_{\rm init}^2` for :math:`w_{\rm init}=10^{-6}`-:math:`10^{-2}`).
    """
    W1, W2 = setup.net.unpack(setup.y_lin0)
    r1 = r1_vector(setup)
    pos = r1 > 0
    lam = np.sqrt((np.where(pos, 0.0, r1) ** 2).sum(1) / (np.where(pos, r1, 0.0) ** 2).sum(1))
    f = np.where(pos, lam[:, None], 1.0)
    twins = to_numpy(setup.net.pack([W1 * f[:, :, None], W2 * f[:, None, :]]))
    y0 = np.concatenate([setup.y_lin0, twins])
    return Setup(setup.net, setup.flow, setup.data * 2, y0, setup.w_init, setup.label + ", balanced twins")


def _searched_setups(theta: np.ndarray, ds: Dataset, w_init: float, draws: list[np.ndarray]) -> list[Setup]:
    r"""Gaussian inits of the searched instance, one :class:`Setup` per width: member :math:`i` is
    :math:`\cos\varphi\,G_{0i}+\sin\varphi\,G_{1i}` (``draws[j]`` ``(2, S, N)`` standard Gaussian: a standard
    Gaussian draw for every :math:`\varphi`) scaled per layer as App. H's
    :func:`~numeric.data.initializations.gaussian`, :math:`W_l\sim\mathcal N(0,w_{\rm init}^2/(r_lc_l))`."""
    setups = []
    for G in draws:
        S, N = G.shape[1:]
        H = N // (ds.D + 1)
        net = two_layer(ds.D, H)
        g = np.cos(theta[0]) * G[0] + np.sin(theta[0]) * G[1]
        Ws = [
            g[:, : H * ds.D].reshape(S, H, ds.D) * w_init / np.sqrt(H * ds.D),
            g[:, H * ds.D :].reshape(S, 1, H) * w_init / np.sqrt(H),
        ]
        y0 = to_numpy(net.pack(Ws))
        setups.append(Setup(net, GradientFlow(net, Loss("square")), [ds] * S, y0, w_init, f"searched, H={H}"))
    return setups


def order_violation(x: np.ndarray, y: np.ndarray, expected: float, tol: float) -> float | None:
    r""":math:`|\text{fitted order}-\text{expected}|/\text{tol}` of :math:`\ln y` on :math:`\ln x`, read as
    :meth:`~verify.context.Context.order` reads it (integer order, neighbours :math:`\pm1`): ``None`` where
    that check would be undecided (``tol`` >= 1/2, or a slope within ``tol`` whose 95% interval does not
    exclude a neighbour, or some :math:`y=0`), NaN where it would fail on a non-finite :math:`y`."""
    if not np.all(np.isfinite(y)):
        return float("nan")
    if tol >= 0.5 or not np.all(y > 0):
        return None
    fit = evidence.fit_order(x, y)
    dev = abs(fit.slope - expected)
    if dev <= tol and not all(n < fit.lo or n > fit.hi for n in (expected - 1, expected + 1)):
        return None
    return dev / tol


@dataclass
class CollapseSearch:
    r"""figure-3-corrected's two conclusions on one searched instance (:func:`collapse_instance`): the worst
    :func:`order_violation` of

    * the weight error of (14) against :math:`|\varepsilon|`, order 1, tolerance the sweep's
      :func:`pooled_tolerance` + :func:`next_order_tolerance` (power 1: the statement is first order in
      :math:`\varepsilon`, :math:`W=c|\varepsilon|(1+O(\varepsilon))`; at :math:`H/8` a draw reaches
      :math:`|\varepsilon|>1`, where :math:`W/|\varepsilon|` halves) + :func:`~verify.evidence.slope_shift`
      of the relative errors :math:`r_i=\text{SAFETY}\,W^{\rm twin}_i/W_i`;
    * the loss deviation against the weight error, order 2, tolerance the sweep's
      :func:`pooled_tolerance` + :func:`next_order_tolerance` (power 1) + the slope shift of
      :math:`1-(1-\text{SAFETY}\,L^{\rm twin}_i/L_i)(1-r_i)^2` (the loss's own floor, and the weight
      error's entering squared),

    over ``SEARCH_SEEDS`` Gaussian draws at each width (lr-rescaled GD, :func:`_gd_collapse`), each run
    beside its balanced twin (:func:`balanced_twins`): :math:`W=c|\varepsilon|+\delta` with
    :math:`|\delta|\le\text{SAFETY}\,W^{\rm twin}` (``SAFETY`` covers the twin's rescaled non-rank-one
    parts), :math:`L=O(W^2)+O(L^{\rm twin})`.  An instance where a conclusion is undecided (its
    :math:`\varepsilon`-part at the twin's floor, :math:`|\varepsilon|` too large for first order, or the
    8-sample slope too noisy) reads 0 for it and
    is counted in ``undecided`` (conclusions per instance); the data and :math:`w_{\rm init}` of every
    evaluated instance are kept for the regime readings.
    """

    ctx: Context
    Z: np.ndarray
    draws: list[np.ndarray]
    lr: float
    data: list[Dataset] = field(default_factory=list)
    w_inits: list[float] = field(default_factory=list)
    undecided: list[int] = field(default_factory=list)

    def measure(self, theta: np.ndarray) -> dict[str, np.ndarray]:
        """|eps|, weight and loss errors of the searched draws and of their balanced twins (all widths)."""
        ds, w_init = collapse_instance(theta, self.Z)
        out: dict[str, list] = {"eps": [], "weight": [], "loss": [], "weight twin": [], "loss twin": []}
        for setup in _searched_setups(theta, ds, w_init, self.draws):
            S = len(setup.data)
            both = balanced_twins(setup)
            weight, loss = _collapse_errors(both, _gd_collapse(self.ctx, both, (0.0,), self.lr))
            out["eps"].append(np.abs(r1_imbalance(setup)))
            out["weight"].append(weight[:S, 0])
            out["loss"].append(loss[:S, 0])
            out["weight twin"].append(weight[S:, 0])
            out["loss twin"].append(loss[S:, 0])
        return {k: np.concatenate(v) for k, v in out.items()}

    def ratios(self, m: dict[str, np.ndarray]) -> tuple[float | None, float | None]:
        """:func:`order_violation` of the two conclusions on the measurements ``m`` (class docstring)."""
        rw = SAFETY * m["weight twin"] / m["weight"]
        rl = 1 - np.clip(1 - SAFETY * m["loss twin"] / m["loss"], 0, None) * np.clip(1 - rw, 0, None) ** 2
        tol_w = (
            pooled_tolerance(m["eps"], m["weight"])
            + next_order_tolerance(m["eps"], power=1)
            + evidence.slope_shift(m["eps"], rw)
        )
        tol_l = (
            pooled_tolerance(m["weight"], m["loss"])
            + next_order_tolerance(m["weight"], power=1)
            + evidence.slope_shift(m["weight"], rl)
        )
        return (
            order_violation(m["eps"], m["weight"], 1.0, tol_w),
            order_violation(m["weight"], m["loss"], 2.0, tol_l),
        )

    def __call__(self, theta: np.ndarray) -> float:
        ds, w_init = collapse_instance(theta, self.Z)
        self.data.append(ds)
        self.w_inits.append(w_init)
        decided = [r for r in self.ratios(self.measure(theta)) if r is not None]
        self.undecided.append(2 - len(decided))
        return max(decided, default=0.0)


def collapse_starts(rng: np.random.Generator, D: int, w_init: float) -> dict[str, list[np.ndarray]]:
    r"""Five families of starting instances (:func:`collapse_instance`), one each, drawn before looking:
    the init and data draws (:math:`\varphi,\psi`) and the teacher's direction (:math:`\omega`) at random,
    the structure fixed by the family."""
    fig3_w = np.sqrt(D / 12)  # |w| of Fig. 3's teacher, w_i ~ U[-1/2, 1/2]
    families = {
        "Fig. 3: Gaussian white inputs, y = w^T x + sin(4 w^T x), the run's w_init": (
            logit(np.clip((np.log10(w_init) + 8) / 6, 0.0025, 0.9975)),
            logit(1 / 3),
            -6.0,
            logit(min(1 / fig3_w, 1.9) / 2),
            logit(4 * fig3_w / 8),
        ),
        "heavy-tailed inputs (p = 2.9), cond(Sigma) near 4, near-linear target": (0.0, 3.0, 4.0, -3.0, 0.0),
        "near-hypercube inputs (p = 0.05), oscillating target (k = 7)": (0.0, -4.0, 0.0, 0.0, 2.0),
        "w_init at the regime's edge (1e-2), strongly nonlinear target (a = 1.9)": (6.0, 0.0, 2.0, 3.0, 0.0),
        "w_init = 1e-8 (the paper's), anisotropic inputs": (-6.0, 0.0, 2.0, 0.0, 0.0),
    }
    return {
        name: [
            np.array(
                [
                    rng.uniform(0, 2 * np.pi),
                    zw,
                    rng.uniform(0, 2 * np.pi),
                    zp,
                    zk,
                    za,
                    zf,
                    rng.uniform(0, 2 * np.pi),
                ]
            )
        ]
        for name, (zw, zp, zk, za, zf) in families.items()
    }


def _collapse_search(ctx: Context, D: int, P: int, H: int, w_init: float, budget: int) -> None:
    """The corrected statement for all Condition-3 data and Gaussian inits: :class:`CollapseSearch` from
    :func:`collapse_starts`, its worst instance and the undecided count in a note, its regimes recorded."""
    rng = ctx.rng("search").host
    widths = [H // k for k in SEARCH_WIDTHS]
    Z = rng.normal(size=(2, P // 2, D))
    draws = [rng.normal(size=(2, SEARCH_SEEDS, h * (D + 1))) for h in widths]
    search = CollapseSearch(ctx, Z, draws, SEARCH_LR)
    ctx.search(
        "search: worst order violation / tolerance of 'weight error ~ c |eps|' and 'loss deviation = "
        "O(weight error^2)' over Condition-3 data and Gaussian inits",
        search,
        collapse_starts(rng, D, w_init),
        budget=budget,
        why="the corrected statement holds for every Condition-3 data set and every Gaussian init: "
        "Nelder-Mead over instances (data draw, input tails p in (0, 3), cond(Sigma) in "
        f"[1, {SEARCH_KAPPA:g}], odd target z + a sin(k z), w_init in (1e-8, 1e-2), the init draws; "
        f"collapse_instance; D = {D}, P = {P}), {SEARCH_SEEDS} Gaussian draws at each width {widths} per "
        f"instance, run as the sweep (lr-rescaled GD, alpha = 0, eta = {SEARCH_LR:g}); ratio = the worse "
        "of the two pooled orders' |fitted - expected| / tolerance, tolerance = the sweep's (three standard "
        "errors) + the next order "
        "(relative O(eps), O(weight error)) + the slope shift of the part the statement does not attribute "
        "to eps, twice the errors of each draw's balanced twin (eps = 0: the O(w_init) floor); undecided "
        "instances read 0 (note)",
    )
    record = ctx.checks[-1]
    theta = np.asarray(record.details["worst instance"])
    m = search.measure(theta)
    rw, rl = search.ratios(m)
    ds, w_worst = collapse_instance(theta, Z)
    ctx.regime(SMALL_INIT, w_init=max(search.w_inits))
    record_symmetric(ctx, search.data)
    counts = np.bincount(search.undecided, minlength=3)
    shown = ["undecided" if r is None else f"{r:.3g}" for r in (rw, rl)]
    ctx.note(
        f"Instance search ({record.details['evaluations']} instances): the worst "
        f"({record.details['worst family']}) has w_init = {w_worst:.3g}, input tail exponent p = "
        f"{3 * squash(theta[3]):.3g}, cond(Sigma) = {np.linalg.cond(ds.Sigma):.3g}, a = "
        f"{2 * squash(theta[5]):.3g}, k = {8 * squash(theta[6]):.3g}, |eps| in [{m['eps'].min():.3g}, "
        f"{m['eps'].max():.3g}], weight error / |eps| in [{(m['weight'] / m['eps']).min():.3g}, "
        f"{(m['weight'] / m['eps']).max():.3g}]; ratios {shown[0]} (weight error ~ |eps|) and {shown[1]} "
        f"(loss ~ weight error^2). Undecided: {counts[2]} instances in both conclusions (ratio 0), "
        f"{counts[1]} in one (the other's ratio used): their eps-part at the balanced twin's floor, |eps| "
        "too large for first order, or 8 draws too few for a slope within 1/2."
    )


@claim(
    "zhang2025:figure-3-corrected",
    title="Gaussian init: weight error of (14) ~ c H^(-1/2) from the r1 imbalance; loss curves collapse as "
    "O(1/H)",
    source="Figure 3b, Sec. 4.2 (Theorem 8 with Gaussian init); correction: catalog section 8, derived here",
    statement=r"Under Condition 3 with the Gaussian init of App. H, "
    r"$\max_t\|\sqrt{\frac{\alpha+1}2}W(\frac2{\alpha+1}t)-W^{\rm lin}(t)\|/\|W^{\rm lin}(t)\|\approx "
    r"c|\varepsilon|+O(w_{\rm init})$, $c|\varepsilon|=O(H^{-1/2})$, "
    r"$\varepsilon=\|r_1^+\|^2/\|r_1^-\|^2-1$ (the imbalance, not the init scale, sets the error at the "
    r"paper's $w_{\rm init}$); the loss curves collapse after rescaling time, $\max_t|\mathcal L_\alpha-"
    r"\mathcal L^{\rm lin}|=O(\varepsilon^2)+O(w_{\rm init}^2)=O(1/H)$.",
    hypotheses=[
        CONDITION_3,
        SMALL_INIT,
        "Gaussian initialisation (App. H), width H",
        SQUARE,
        "ReLU lr 2 eta/(alpha+1) against linear lr eta (exact time rescaling)",
    ],
)
def figure_3_corrected(ctx: Context) -> None:
    D = ctx.param("D", tiny=3, quick=4, full=20)
    P = ctx.param("P", tiny=24, quick=40, full=400)
    H = ctx.param("H", tiny=256, quick=400, full=3200)
    seeds = ctx.param("seeds", tiny=4, quick=8, full=8)  # 6 left the H^(-1/2) fit at the edge of decidable
    w_init = ctx.param("w_init", tiny=1e-3, quick=1e-3, full=1e-8)
    lr = ctx.param("lr", tiny=0.1, quick=0.1, full=0.01)
    budget = ctx.param("budget", tiny=3, quick=16, full=30)  # Nelder-Mead evaluations per search start
    # the searched instances' sizes: the run's at tiny and quick; at full smaller than the sweep's (one
    # instance at D = 20, P = 400, H = 3200 took > 300 s of CPU)
    search_size = [ctx.param(k, tiny=v[0], quick=v[1], full=v[2]) for k, v in SEARCH_SIZES.items()]
    ctx.require(P >= 4 * D and P % 2 == 0 and H >= 64, f"need an even P >= 4 D and H >= 64, got P={P}, H={H}")
    sD, sP, sH = search_size
    ctx.require(
        sP >= 4 * sD and sP % 2 == 0 and sH >= 64,
        f"search sizes: need an even P >= 4 D and H >= 64, got {search_size}",
    )
    Hs = [H // 8, H // 4, H // 2, H]
    ctx.regime(SMALL_INIT, w_init=w_init)
    sweep = _sweep(ctx, "sweep", Hs, D, P, seeds, w_init, lr)
    record_symmetric(ctx, sweep["data"])
    label = f"D={D}, P={P}, w_init={w_init:g}"
    _check_mechanism(ctx, sweep, label)
    ctx.order(
        f"loss-curve collapse: max_t |L_0 - L_lin| / loss drop = O(weight error^2), hence O(1/H) [{label}]",
        sweep["weight"].ravel(),
        sweep["loss"].ravel(),
        expected=2.0,
        tol=pooled_tolerance(sweep["weight"], sweep["loss"]) + next_order_tolerance(sweep["weight"], power=1),
        why="the even part of f costs 1/2<f_even^2> and the odd part's deviation enters the loss at second "
        "order (the loss is stationary along the imbalance direction at the linear solution); tolerance = "
        "three standard errors of the pooled log-log slope (all seeds and widths)",
        xlabel="max_t weight error",
        ylabel="max_t |L_0 - L_lin| / loss drop",
    )
    mc = np.array([balance_scale(h, 4000, ctx.rng(f"mc/{h}").host) for h in Hs])  # (len(Hs), n)
    mean, tol = _order_tolerance(sweep["H"], mc)
    ctx.order(
        "driver: the +/- imbalance of a Gaussian r1, E| ||r+||^2 - ||r-||^2 | / ||r||^2 ~ H^(-1/2) (Monte "
        "Carlo, 4000 draws per H)",
        sweep["H"],
        mean,
        expected=-0.5,
        tol=tol,
        why="sum of H independent random signs times chi^2_1 magnitudes over their sum: O(H^-1/2) with "
        "O(1/H) corrections; tolerance = three standard errors of the slope",
        xlabel="width H",
        ylabel="E imbalance",
    )
    ratio = sweep["weight"] / np.abs(sweep["eps"])
    ctx.note(
        "Mechanism (catalog section 8, P8): the weight error is the r1 +/- imbalance eps, which the ReLU "
        "dynamics remove during the transition while the linear net keeps it. Measured error / |eps| per H "
        "(seed median): "
        + ", ".join(f"H={h}: {np.median(r):.3f}" for h, r in zip(Hs, ratio, strict=True))
        + " (smaller at large |eps|, where the relation is no longer linear). Mean max_t weight error per H: "
        + ", ".join(f"H={h}: {m:.4f}" for h, m in zip(Hs, sweep["weight"].mean(1), strict=True))
        + ". So the paper's '<0.3%' needs |eps| ~ 0.01, i.e. a lucky seed or H ~ 10^5."
    )
    ctx.figure(
        "weight error against the r1 imbalance |eps| (every seed and width)",
        series=[
            Series(f"H = {h}", np.abs(sweep["eps"][i]), sweep["weight"][i], "o") for i, h in enumerate(Hs)
        ],
        xlabel="|eps| = | ||r1+||^2 / ||r1-||^2 - 1 |",
        ylabel="max_t relative weight error",
        logx=True,
        logy=True,
    )
    _collapse_search(ctx, sD, sP, sH, w_init, budget)
    with ctx.control(
        "target with an even part, y = odd + |v^T x|",
        breaks=CONDITION_3,
        must_break=["weight error proportional to the r1 imbalance*"],
    ):
        # An even target part drives an O(1) weight error unrelated to the r1 imbalance: the mechanism
        # breaks (3 widths x 4 seeds so that the pooled slope is decided).
        bent = _sweep(
            ctx, "sweep-even", [Hs[0], Hs[1], Hs[-1]], D, P, max(4, seeds // 2), w_init, lr, even=1.0
        )
        _check_mechanism(ctx, bent, label + ", even target part")


# ---------------------------------------------------------------------------- Figure 6

DURATION_DELTA = 150.0  # horizon = DURATION_DELTA / delta_min: measured plateau durations are ~60/delta
# "the net leaves the plateau" (delta > 0) is read as the typical net: P(escape) >= 0.9 (we saw 1 net of 48
# stay, width 100). The violation to catch is P = 0.7: three times the allowed 10% of nets staying (a coin
# flip, P = 0.5, would let P = 0.6..0.8 pass unseen). At 99% confidence the exact binomial test has power
# 0.82 against it at n = 48 (verify.evidence.power(48, 0.9, 0.7, 0.99, ">=")): quick pools 3 deltas x 16
# seeds, full 4 x 16; tiny (4 nets) has no power and stays INCONCLUSIVE.
ESCAPE_AT_LEAST = 0.9
ESCAPE_DETECT = 0.7
_ESCAPE = "nets leave the OLS plateau within the horizon: P(escape) >= 0.9"
_ESCAPE_WHY = (
    "; a net that does not escape stays at a stable nearly linear state (its gap keeps the plateau value), "
    "so the statement is read for the typical net, P(escape) >= 0.9, tested exactly against P = 0.7 "
    "(30% of nets staying); the seeds of all deltas are pooled (the statement is the same at every "
    "delta > 0); durations and rates below are over the nets that escape"
)
_DURATIONS = "plateau durations and escape rates (>= 2 escapes per delta)"


@dataclass
class Plateau:
    """Plateau of one member: entry and escape times (``nan``: none), plateau gap, escape rate."""

    t_in: float
    t_out: float
    gap: float
    rate: float


def find_plateau(t: np.ndarray, loss: np.ndarray, L_ols: float, floor: float) -> Plateau:
    r"""The OLS plateau of a loss curve, its end and the growth rate of the escape.

    Entry: first time :math:`|\mathcal L-\mathcal L_{\rm OLS}|\le0.01\,\mathcal L_{\rm OLS}` (the linear
    solution is learnt).  Plateau gap :math:`g=\mathcal L_{\rm OLS}-\mathcal L` at twice the entry time.
    Escape: first time the gap exceeds :math:`2|g|` + ``floor`` (the net has left the nearly linear
    state: its advantage over the linear fit has doubled).  Leaving the linear plateau is what
    Fig. 6b times; some nets first reach an intermediate plateau (gap ~5 g) before the large drop.
    Escape rate: the excess :math:`e=\text{gap}-g` grows exponentially on the plateau; ``rate`` is
    the least-squares slope of :math:`\ln e` where :math:`g/1000\le e\le g/2`.
    """
    gap = L_ols - loss
    near = np.abs(gap) <= 0.01 * L_ols
    if not near.any():
        return Plateau(np.nan, np.nan, np.nan, np.nan)
    t_in = float(t[np.argmax(near)])
    g = float(gap[min(np.searchsorted(t, 2 * t_in), len(t) - 1)])
    out = (gap > 2 * abs(g) + floor) & (t > t_in)
    if not out.any():
        return Plateau(t_in, np.nan, g, np.nan)
    t_out = float(t[np.argmax(out)])
    excess = gap - g
    fit = (t > t_in) & (t <= t_out) & (excess >= g / 1000) & (excess <= g / 2)
    rate = float(np.polyfit(t[fit], np.log(excess[fit]), 1)[0]) if fit.sum() >= 5 else np.nan
    return Plateau(t_in, t_out, g, rate)


def _perturbed_runs(ctx: Context, deltas: np.ndarray, H: int, seeds: int, w_init: float, lr: float, T: float):
    """GD (square loss) of ``seeds`` ReLU nets per delta, plus one linear net at the middle delta.

    Returns times, losses ``(B, R)`` and data, and the time each member stopped: after escaping, a
    net's weights grow (it fits a kink of size ~1/delta) and GD at a fixed learning rate can diverge
    late; such a member stops at its last finite iterate (``Status.NONFINITE``), its later losses are
    NaN and only its finite prefix is analysed (a divergence before the escape counts as no escape).
    """
    data = [perturbed_symmetric(float(d)) for d in deltas for _ in range(seeds)]
    data.append(perturbed_symmetric(float(deltas[len(deltas) // 2])))
    alpha = np.concatenate([np.zeros(len(data) - 1), [1.0]])
    net = two_layer(2, H)
    flow = GradientFlow(net, Loss("square"))
    args = flow.args(ctx.backend, np.stack([d.X for d in data]), np.stack([d.y for d in data]), alpha=alpha)
    steps = int(np.ceil(T / lr))
    record = np.unique(np.concatenate([np.linspace(0, steps, 1500), np.geomspace(1, steps, 300)]).astype(int))
    y0 = net.pack(gaussian(net, ctx.rng("fig6"), len(data), w_init))
    traj = gradient_descent(
        flow, y0, lr=lr, steps=steps, record=record, args=args, observe=flow.observer(), save_state=False
    )
    if not np.all((traj.status == Status.SUCCESS) | (traj.status == Status.NONFINITE)):
        raise RuntimeError(f"GD on the perturbed data failed:\n{traj.summary()}")
    return lr * record, to_numpy(traj.observed["loss"]), data, lr * traj.t_stop


def next_order_tolerance(x: np.ndarray, power: int = 2) -> float:
    r"""Shift of a fitted order by relative corrections :math:`O(x^p)` (coefficient 1) over the samples ``x``.

    A power law times :math:`1+O(x^p)` has local order changes of at most
    :math:`2\ln(1+x_{\max}^p)/\ln(x_{\max}/x_{\min})` across the range: for Fig. 6 the paper's "less
    accurate for larger delta", made quantitative.
    """
    return float(2 * np.log1p(np.max(x) ** power) / np.log(np.max(x) / np.min(x)))


@claim(
    "zhang2025:figure-6",
    title="Perturbed symmetric data: a plateau at the linear solution whose duration scales like 1/delta",
    source="Figure 6, Sec. 6.2, App. H",
    statement=r"On $[1,1],[-1,-1],[1,-1],[-1,1],[-1,0],[1,\delta]$ the two-layer ReLU net first learns a "
    r"nearly linear (OLS) solution, then leaves the plateau for a nonlinear one; the inverse plateau "
    r"duration scales approximately linearly with $\delta$ (less accurately for larger $\delta$); for "
    r"$\delta=0$ (Condition 3) the net never leaves the linear solution.",
    hypotheses=[
        DELTA_POS,
        SMALL_INIT,
        "two-layer bias-free ReLU net, width 100, App. H init; square loss (the loss is not stated)",
    ],
)
def figure_6(ctx: Context) -> None:
    n_delta = ctx.param("trials", tiny=2, quick=3, full=4)
    H = ctx.param("H", tiny=100, quick=100, full=100)
    seeds = ctx.param("seeds", tiny=2, quick=16, full=16)
    w_init = ctx.param("w_init", tiny=1e-3, quick=1e-3, full=1e-3)
    lr = ctx.param("lr", tiny=0.4, quick=0.4, full=0.025)
    ctx.require(n_delta >= 2 and seeds >= 2, f"need >= 2 deltas and >= 2 seeds, got {n_delta}, {seeds}")
    deltas = 0.2 / 2.0 ** np.arange(n_delta)[::-1]
    ctx.regime(SMALL_INIT, w_init=w_init)
    if lr != 0.025:
        ctx.reduced_scale(f"lr = {lr:g} for App. H's 0.025 (times are compared in units lr x steps)")
    T = DURATION_DELTA / deltas.min()
    grid = np.concatenate([deltas, [0.0]])
    t, loss, data, t_stop = _perturbed_runs(ctx, grid, H, seeds, w_init, lr, T)
    plateaus = [find_plateau(t, loss[i], ols(d)[1], 8 * d.P * EPS) for i, d in enumerate(data[:-1])]
    n = len(deltas) * seeds

    def table(field: str) -> np.ndarray:
        return np.array([getattr(p, field) for p in plateaus[:n]]).reshape(len(deltas), seeds)

    dur, gap, rate = table("t_out") - table("t_in"), table("gap"), table("rate")
    why_escape = (
        "escape = the gap L_ols - L exceeds twice its plateau value (+ rounding 8 P eps <y^2>, <y^2> = 1) "
        f"within the horizon T = {DURATION_DELTA:g}/delta_min = {T:g} (measured durations are ~60/delta)"
    )
    escaped = np.isfinite(dur) & np.isfinite(rate)
    ctx.probability(
        _ESCAPE,
        int(escaped.sum()),
        escaped.size,
        at_least=ESCAPE_AT_LEAST,
        detect=ESCAPE_DETECT,
        why=why_escape + _ESCAPE_WHY + f" (pooled over delta in {deltas.round(4).tolist()}: "
        f"{escaped.sum(axis=1).tolist()} of {seeds} escaped)",
    )
    with ctx.control("delta = 0: the data satisfy Condition 3", breaks=DELTA_POS, must_break=[_ESCAPE]):
        esc0 = np.array([np.isfinite(p.t_out) for p in plateaus[n:]])
        ctx.probability(
            _ESCAPE,
            int(esc0.sum()),
            esc0.size,
            at_least=ESCAPE_AT_LEAST,
            detect=ESCAPE_DETECT,
            why=why_escape + _ESCAPE_WHY + "; on symmetric data L >= L_ols for every weight (Cor. 10 proof)",
        )
    if not (escaped.sum(axis=1) >= 2).all():
        ctx.undecided(_DURATIONS, f"escapes per delta {escaped.sum(axis=1).tolist()}: an order needs >= 2")
        return
    dur = [row[ok] for row, ok in zip(dur, escaped, strict=True)]
    rate = [row[ok] for row, ok in zip(rate, escaped, strict=True)]
    nxt = next_order_tolerance(deltas)
    ctx.order(
        "the plateau is near the linear solution: L_ols - L_plateau = O(delta^2)",
        deltas,
        gap.mean(axis=1),
        expected=2.0,
        tol=nxt,
        why="the labels are symmetric under x2 -> -x2, which maps delta to -delta, so the gap is even in "
        "delta; the next term is O(delta^4), relative delta^2: 2 ln(1 + delta_max^2)/ln(range) in the "
        "fitted order",
        xlabel="delta",
        ylabel="L_ols - L on the plateau",
    )
    r_mean, r_se = _order_tolerance(deltas, rate)
    ctx.order(
        "inverse time scale of the escape ~ delta: growth rate of the excess gap ~ delta^1",
        deltas,
        r_mean,
        expected=1.0,
        tol=r_se + nxt,
        why="three standard errors of the fitted slope (seed scatter) + the shift by relative O(delta^2) "
        "corrections, 2 ln(1 + delta_max^2)/ln(range) (the paper: 'less accurate for larger delta')",
        xlabel="delta",
        ylabel="escape rate (1/time)",
    )
    mean = np.array([np.mean(d) for d in dur])
    folds = np.array([np.mean(r * d) for r, d in zip(rate, dur, strict=True)])  # duration = folds / rate
    ctx.figure(
        "Fig. 6a: loss curves (seed 0 per delta) and the linear net",
        series=[
            Series(f"ReLU, delta = {d:g}", t[1:][fin], loss[i * seeds, 1:][fin])
            for i, d in enumerate(grid)
            if (fin := np.isfinite(loss[i * seeds, 1:])).any()
        ]
        + [Series(f"linear, delta = {deltas[len(deltas) // 2]:g}", t[1:], loss[-1, 1:], "--")],
        xlabel="time (lr x steps)",
        ylabel="square loss",
        logx=True,
    )
    n_diverged = int((t_stop < t[-1]).sum())
    dur_order, folds_order = (float(np.polyfit(np.log(deltas), np.log(v), 1)[0]) for v in (mean, folds))
    ctx.note(
        "Data: numeric.data.datasets.perturbed_symmetric (corners labelled by x1, the middle pair against "
        "them; the paper gives the labels only in its figure, and labelling all six points by x1 would "
        "make the target linear, OLS loss 0, with no plateau to escape). Square loss (not stated in the "
        "paper). Seed means per "
        "delta: duration "
        + ", ".join(f"{d:g}: {m:.0f}" for d, m in zip(deltas, mean, strict=True))
        + f" (duration x delta {(mean * deltas).round(1).tolist()}); escape rate / delta "
        f"{(r_mean / deltas).round(4).tolist()}; e-folds N {folds.round(2).tolist()}; nets that escaped "
        f"{escaped.sum(axis=1).tolist()} of {seeds}; GD diverged late (after escaping) for {n_diverged} "
        "nets (their finite prefix is used). The escape rate is proportional to delta; the duration "
        f"carries the extra factor N: its fitted exponent is {dur_order:.3f} over delta in "
        f"[{deltas.min():g}, {deltas.max():g}] (this run), that of N {folds_order:.3f}. The duration's "
        "order is not a check: duration = N / rate holds by the definition of N, and N's dependence "
        "on delta (the escaping mode's seed amplitude) is not derived, so a tolerance for "
        "'approximately' would have to be read off N itself, which then makes the check pass whenever "
        "the rate check does; the paper's 'inverse time scale ~ delta' rests on the escape-rate order "
        "above. Not every net escapes: at width 50 (not the paper's 100) 3 of 16 nets stayed on the "
        "linear plateau for 4000 time units with a constant gap (a stable nearly linear state); at width "
        "100 we saw 1 such net in 48 (delta = 0.05)."
    )
