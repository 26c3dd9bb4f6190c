r"""zhang2025 Section 4: the ReLU--linear equivalence (Theorem 8) and its consequences.

Claims: Theorem 8 (eqs. (12)-(14)), Corollary 9 (closed form (15)), Corollary 10
(converged solutions), App. C.4 (L2 regularisation, (45)), App. C.5 (large learning
rate) and App. C.6 (large initialisation).

Shared setup (also used by ``early_phase.py`` and ``figures.py``):

* :func:`fig3_data` -- Fig. 3 data, exactly symmetric (Condition 3), optionally whitened;
* :func:`assumption7_init` -- the *linear partner's* Assumption-7 initial state;
* :class:`Pairing` -- the ensemble layout "every ReLU net next to its linear partner";
* :func:`paired_flow` / :func:`paired_gd` -- ONE batched DOPRI5 solve / exact GD run of
  all ReLU members and their linear partners, returned as a :class:`PairedRun`.

Time convention of the paired runs.  Theorem 8 says
:math:`W(t)=\sqrt{2/(\alpha+1)}\,W^{\rm lin}(\tfrac{\alpha+1}2t)` when
:math:`W(0)=\sqrt{2/(\alpha+1)}\,W^{\rm lin}(0)`.  Both nets are integrated on one grid
in *linear time* :math:`\tilde t=\tfrac{\alpha+1}2t`: the linear partner with
:math:`\tau=1`, the ReLU net with :math:`\tau=c:=\tfrac{\alpha+1}2`.  For an autonomous
ODE :math:`c\,\dot W=-\nabla\mathcal L` at solver time :math:`\tilde t` is exactly the
:math:`\tau=1` flow at :math:`t=\tilde t/c`, so the ReLU state at grid point
:math:`\tilde t` *is* :math:`W(t=2\tilde t/(\alpha+1))` and the statement to check
becomes ``relu[..., k, :] == lin[..., k, :] / sqrt(c)`` at every grid point.  For GD
the same pairing is ReLU learning rate :math:`\eta/c` against linear :math:`\eta`,
compared step for step (catalog remark iii; exact for every :math:`\eta`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from numeric.backend import Backend, to_numpy
from numeric.datasets import Dataset, gaussian_teacher, is_symmetric, perturbed_symmetric, symmetrize, whiten
from numeric.initializations import balanced_rank_one
from numeric.integrators.control import AdaptiveStep
from numeric.integrators.methods import DOPRI5
from numeric.losses import Loss
from numeric.metrics import linear_fit, log_log_slope
from numeric.networks import BiasFreeNet
from numeric.solve import gradient_descent, solve
from numeric.trajectory import Status
from numeric.vector_fields import GradientFlow
from verify.claim import Erratum, claim
from verify.context import Context, Series
from verify.papers.zhang2025.hypotheses import (
    ALPHA_01,
    BALANCED,
    CONDITION_3,
    DECAY,
    FLOW,
    RANK_ONE,
    SEPARABLE,
    SQUARE,
    STABLE_LR,
    TWO_LAYER,
    WHITE,
)

EPS = float(np.finfo(np.float64).eps)
EXACT = (
    "; the statement is an exact identity, so the factor to spare is that of a worst-case error bound "
    "(integrator or rounding), not slack in a constant of the paper: a wrong scale factor, learning-rate "
    "ratio or time rescaling gives O(1) relative deviations"
)
ALPHAS = (0.0, 0.1, 0.3, 0.5, 0.9)
SAFETY = 2.0  # tolerance = SAFETY x (measured integrator error) + float floor
RK_ROUNDINGS = 16  # roundings per DOPRI5 step and entry (7 stages of <= 7 terms, one sum)
GD_ROUNDINGS = 4  # roundings per GD step and entry (field, product, sum, decay)
GD_ROUNDING_WHY = (
    "float64 bound: each GD step W + eta' F(W) rounds the sum, the product and the field, whose entries "
    "are sums of <= n = P+H+D products of absolute sum <= |W| G, G = <|x|(|y| + |W2||W1||x|)> + lambda "
    "(square) or <|x|> + lambda (logistic); relative error per step <= eps (2 + n eta' G), not amplified "
    "on growing or converging dynamics; ReLU and linear runs both contribute: 2 K eps (2 + n eta' G_max), "
    "evaluated for the ReLU member (eta' = 2 eta/(a+1), largest |W2||W1| seen)"
)


# ---------------------------------------------------------------------------- data, init


def fig3_data(
    rng: np.random.Generator,
    n_pairs: int,
    D: int,
    *,
    white: bool = True,
    sign_labels: bool = False,
    stretch: float = 1.0,
) -> Dataset:
    r"""zhang2025 Fig. 3 data: :math:`x\sim\mathcal N(0,I_D)`, :math:`y=w^\top x+\sin(4w^\top x)`.

    Exactly symmetric (Condition 3: :math:`X=[X_0;-X_0]`, :math:`y=[y_0;-y_0]`), so
    ``P = 2 n_pairs``.  ``white``: exact whitening :math:`\Sigma=I` (keeps the pairing);
    ``sign_labels``: :math:`y\leftarrow\mathrm{sign}(y)` (binary labels for the logistic
    loss; linearly separable by :math:`w`, because :math:`z+\sin 4z` has the sign of
    :math:`z`); ``stretch``: multiply the first input coordinate afterwards (a non-white
    :math:`\Sigma` that is still exactly symmetric).
    """
    ds = gaussian_teacher(rng, n_pairs, D, symmetric=True)
    if white:
        ds = whiten(ds)
    X, y = ds.X.copy(), ds.y.copy()
    X[:, 0] *= stretch
    if sign_labels:
        y = np.sign(y)
    return Dataset(X, y, ds.name, dict(ds.meta))


def assumption7_init(
    net: BiasFreeNet, rng: np.random.Generator, B: int, w_init: float, *, imbalance: float = 1.0
) -> np.ndarray:
    r"""Flat states ``(B, n_params)`` on the Assumption-7 manifold, :math:`\|W_1\|=\|W_2\|=` ``w_init``.

    :math:`W_1=W_2^\top r^\top` with a random unit :math:`r` per member and
    :math:`\|W_2^+\|^2=\text{imbalance}\,\|W_2^-\|^2` (1: Assumption 7; 2: the control).
    In the paired runs this is the *linear partner's* :math:`W^{\rm lin}(0)`; the ReLU
    net starts at :math:`\sqrt{2/(\alpha+1)}\,W^{\rm lin}(0)` (Theorem 8).
    """
    D = net.widths[0]
    r = rng.normal(size=(B, D))
    W1, W2 = balanced_rank_one(rng, B, net.widths[1], r, w_init, imbalance=imbalance)
    return np.concatenate([W1.reshape(B, -1), W2.reshape(B, -1)], axis=1)


def two_layer(D: int, H: int) -> BiasFreeNet:
    r"""The two-layer bias-free net :math:`f=W_2\sigma(W_1x)` with :math:`\sigma'(0)=0`."""
    return BiasFreeNet((D, H, 1), kink=0.0)


# ------------------------------------------------------------------------- paired runs


@dataclass(frozen=True)
class Pairing:
    r"""Ensemble layout: ``S`` seeds x ``K`` slopes of ReLU members, then ``S`` linear partners.

    Member ``s*K + k`` is the ReLU net of seed ``s`` at ``alphas[k]``; member ``S*K + s``
    is the linear net (:math:`\alpha=1`) of seed ``s``, shared by all ``K`` slopes.
    """

    alphas: tuple[float, ...]
    n_seeds: int

    @property
    def K(self) -> int:
        return len(self.alphas)

    @property
    def n_relu(self) -> int:
        return self.n_seeds * self.K

    @property
    def c(self) -> np.ndarray:
        r""":math:`c=(\alpha+1)/2` per slope, ``(K,)``."""
        return (np.asarray(self.alphas, float) + 1) / 2

    @property
    def alpha(self) -> np.ndarray:
        """Slope of every member, ``(S*K + S,)``."""
        return np.concatenate([np.tile(self.alphas, self.n_seeds), np.ones(self.n_seeds)])

    @property
    def seed(self) -> np.ndarray:
        """Seed (data set, linear init) of every member."""
        return np.concatenate([np.repeat(np.arange(self.n_seeds), self.K), np.arange(self.n_seeds)])

    def initial(self, y_lin0: np.ndarray) -> np.ndarray:
        r"""All initial states from the linear ones ``(S, N)``: ReLU :math:`W(0)=W^{\rm lin}(0)/\sqrt c`."""
        relu = y_lin0[:, None, :] / np.sqrt(self.c)[None, :, None]
        return np.concatenate([relu.reshape(self.n_relu, -1), y_lin0])


@dataclass
class PairedRun:
    r"""ReLU states and their linear partners on one grid of linear time :math:`\tilde t`.

    ``relu`` ``(S, K, T, N)``: :math:`W(2\tilde t/(\alpha+1))`; ``lin`` ``(S, T, N)``:
    :math:`W^{\rm lin}(\tilde t)`; ``loss_relu`` ``(S, K, T)``, ``loss_lin`` ``(S, T)``;
    ``n_steps`` ``(S*K + S,)`` accepted steps (GD: steps taken).
    """

    pairing: Pairing
    t: np.ndarray
    relu: np.ndarray
    lin: np.ndarray
    loss_relu: np.ndarray
    loss_lin: np.ndarray
    n_steps: np.ndarray

    @property
    def lin_scaled(self) -> np.ndarray:
        r"""The prediction (14): :math:`\sqrt{2/(\alpha+1)}\,W^{\rm lin}(\tilde t)`, ``(S, K, T, N)``."""
        return self.lin[:, None] / np.sqrt(self.pairing.c)[None, :, None, None]

    @property
    def deviation(self) -> np.ndarray:
        r""":math:`\|W(t)-\sqrt{2/(\alpha+1)}W^{\rm lin}(\tilde t)\|` per member and time, ``(S, K, T)``."""
        return np.linalg.norm(self.relu - self.lin_scaled, axis=-1)

    @property
    def relative_deviation(self) -> np.ndarray:
        """:attr:`deviation` divided by the norm of the prediction, ``(S, K, T)``."""
        return self.deviation / np.linalg.norm(self.lin_scaled, axis=-1)

    @property
    def norm(self) -> np.ndarray:
        """Norm of the ReLU state, ``(S, K, T)``."""
        return np.linalg.norm(self.relu, axis=-1)


def _stack_args(be: Backend, flow: GradientFlow, pairing: Pairing, data: Sequence[Dataset], **kw) -> dict:
    """Solver args: member ``m`` trains on ``data[seed[m]]``; ``kw`` = per-member tau, decay."""
    seed = pairing.seed
    X = np.stack([data[s].X for s in seed])
    y = np.stack([data[s].y for s in seed])
    return flow.args(be, X, y, alpha=pairing.alpha, **kw)


def _split(pairing: Pairing, ys: np.ndarray, loss: np.ndarray, t: np.ndarray, n_steps) -> PairedRun:
    S, K, R = pairing.n_seeds, pairing.K, pairing.n_relu
    return PairedRun(
        pairing,
        t,
        ys[:R].reshape(S, K, *ys.shape[1:]),
        ys[R:],
        loss[:R].reshape(S, K, -1),
        loss[R:],
        np.asarray(n_steps),
    )


def paired_flow(
    be: Backend,
    flow: GradientFlow,
    pairing: Pairing,
    data: Sequence[Dataset],
    y_lin0: np.ndarray,
    t: np.ndarray,
    *,
    rtol: float,
    atol: float,
) -> PairedRun:
    r"""Gradient flow of every ReLU member and its linear partner in ONE batched DOPRI5 solve.

    Grid ``t`` is linear time :math:`\tilde t`; ReLU members run with
    :math:`\tau=(\alpha+1)/2`, linear members with :math:`\tau=1` (module docstring).
    The ReLU members' pre-activations change sign along the flow, so the solve locates those
    crossings as events (``flow.switching``): each step is cut at a member's own crossing and the
    field is smooth on every step (:func:`integrator_tolerance` for the measured error).
    Raises if any member fails to reach the end (a failed solve is an error, not data).
    """
    c = pairing.c
    tau = np.concatenate([np.tile(c, pairing.n_seeds), np.ones(pairing.n_seeds)])
    args = _stack_args(be, flow, pairing, data, tau=tau)
    traj = solve(
        flow,
        be.asarray(pairing.initial(y_lin0)),
        t,
        method=DOPRI5,
        control=AdaptiveStep(rtol=rtol, atol=atol),
        args=args,
        observe=flow.observer(),
        events=flow.switching,
    )
    if not np.all(traj.status == Status.SUCCESS):
        raise RuntimeError(f"paired gradient-flow solve failed:\n{traj.summary()}")
    return _split(pairing, to_numpy(traj.ys), to_numpy(traj.observed["loss"]), t, traj.n_steps)


def paired_gd(
    be: Backend,
    flow: GradientFlow,
    pairing: Pairing,
    data: Sequence[Dataset],
    y_lin0: np.ndarray,
    *,
    lr: float,
    steps: int,
    record: np.ndarray,
    weight_decay: float = 0.0,
    relu_decay: Sequence[float] | None = None,
) -> PairedRun:
    r"""Exact GD: ReLU members with learning rate :math:`2\eta/(\alpha+1)`, linear with :math:`\eta`.

    One :func:`numeric.solve.gradient_descent` call for all members.  ``weight_decay`` is
    the linear net's :math:`\lambda` (penalty :math:`\tfrac\lambda2\|W\|^2`);
    ``relu_decay`` the ReLU members' coefficients per slope (default
    :math:`\lambda_\alpha=\tfrac{\alpha+1}2\lambda`, App. C.4).  The result's ``t`` is the
    linear time :math:`\eta k` of the recorded steps ``record``.
    """
    c = pairing.c
    lam_relu = c * weight_decay if relu_decay is None else np.asarray(relu_decay, float)
    decay = np.concatenate([np.tile(lam_relu, pairing.n_seeds), np.full(pairing.n_seeds, weight_decay)])
    lrs = np.concatenate([np.tile(lr / c, pairing.n_seeds), np.full(pairing.n_seeds, lr)])
    args = _stack_args(be, flow, pairing, data, weight_decay=decay)
    traj = gradient_descent(
        flow,
        be.asarray(pairing.initial(y_lin0)),
        lr=be.asarray(lrs),
        steps=steps,
        record=record,
        args=args,
        observe=flow.observer(),
    )
    ys = to_numpy(traj.ys)
    return _split(pairing, ys, to_numpy(traj.observed["loss"]), lr * np.asarray(record, float), traj.n_steps)


# ---------------------------------------------------------------- measurements, bounds


def transition_horizon(s: float, w_init: float) -> float:
    r"""Linear time by which the square-loss flow from scale ``w_init`` has converged.

    Corollary 9's transition is at :math:`\tilde t^*\approx\frac1{2s}\ln\frac{4s}{w_{\rm init}^2}`;
    we return :math:`2\tilde t^*+8/s` (the plateau, the drop and eight relaxation times).
    """
    return (np.log(4 * s / w_init**2) + 8) / s


def integrator_tolerance(coarse: PairedRun, tight: PairedRun) -> np.ndarray:
    r"""Per ReLU member ``(S, K)``: the tolerance of :math:`\max_t\|W-\sqrt{1/c}\,W^{\rm lin}\|`.

    Both solves carry global error; re-solving at 100x tighter ``rtol`` measures it
    (the tight solve's own error is ~1% of it).  That needs the achieved error to scale like
    ``rtol``: the event solve (:func:`paired_flow`) integrates a smooth field on every step, and
    against a third solve at ``rtol/1e4`` (Theorem 8's four setups, every member, tiny and quick)
    the tight error is 1.0-1.8% of the coarse one and ``|coarse - tight|`` is 1.009-1.019 x the
    coarse error, so ``SAFETY`` = 2 covers the estimate's own 2% shortfall.  (Without events the
    same ratios were 1.0-1.5% and 1.010-1.015: these crossings are transversal and the kinks did not
    spoil the estimate; the event solve's error at a given ``rtol`` is 1.3-4.3x larger, since
    each crossing ends a step on the dense output.)  The deviation of the coarse pair is at
    most the sum of the two coarse errors, so the tolerance is
    ``SAFETY * max_t(e_relu + e_lin) + RK_ROUNDINGS * n_steps * eps * max_t ||W||``.
    """
    e_relu = np.linalg.norm(coarse.relu - tight.relu, axis=-1)
    e_lin = np.linalg.norm(coarse.lin_scaled - tight.lin_scaled, axis=-1)
    P = coarse.pairing
    steps = np.maximum(coarse.n_steps[: P.n_relu].reshape(P.n_seeds, P.K), coarse.n_steps[P.n_relu :, None])
    floor = RK_ROUNDINGS * steps * EPS * coarse.norm.max(axis=-1)
    return SAFETY * (e_relu + e_lin).max(axis=-1) + floor


def loss_tolerance(coarse: PairedRun, tight: PairedRun) -> np.ndarray:
    """As :func:`integrator_tolerance` for the losses; floor ``RK_ROUNDINGS * n_steps * eps * max L``."""
    e = np.abs(coarse.loss_relu - tight.loss_relu) + np.abs(coarse.loss_lin - tight.loss_lin)[:, None]
    P = coarse.pairing
    steps = coarse.n_steps[: P.n_relu].reshape(P.n_seeds, P.K)
    return SAFETY * e.max(axis=-1) + RK_ROUNDINGS * steps * EPS * coarse.loss_relu.max(axis=-1)


def gd_rounding_tolerance(
    run: PairedRun,
    data: Sequence[Dataset],
    loss: str,
    lr: float,
    steps: int,
    decay: Sequence[float] | float = 0.0,
) -> np.ndarray:
    r"""Relative float64 tolerance ``(S, K)`` of the step-for-step GD equivalence.

    One GD step :math:`W+\eta' F(W)` rounds the sum (:math:`\epsilon`), the product
    (:math:`\epsilon`) and the field, whose entries are sums over at most
    :math:`n=P+H+D` products; their absolute sum is at most :math:`\|W\|G` with
    :math:`G=\langle\|x\|(|y|+\|W_2\|\|W_1\|\|x\|)\rangle+\lambda` (square) or
    :math:`\langle\|x\|\rangle+\lambda` (logistic; :math:`\lambda` the weight decay).  So each
    step adds a relative error :math:`\le\epsilon(2+n\eta'G)`; on the early-phase and
    converging dynamics relative errors are not amplified, and the ReLU and linear runs each
    contribute: tolerance :math:`2K\epsilon(2+n\eta'G_{\max})`, evaluated for the ReLU member
    (learning rate :math:`\eta'=\eta/c`, weights :math:`1/\sqrt c` times the linear ones, so
    :math:`\|W_2\|\|W_1\|` is the largest linear product seen divided by :math:`c`).
    """
    P = run.pairing
    c = P.c
    lam = np.broadcast_to(np.asarray(decay, float), c.shape)
    bounds = np.zeros((P.n_seeds, P.K))
    H = (run.relu.shape[-1]) // (data[0].D + 1)
    for s in range(P.n_seeds):
        ds = data[s]
        xn = np.linalg.norm(ds.X, axis=1)
        n = ds.P + H + ds.D
        W1 = run.lin[s][:, : H * ds.D]
        W2 = run.lin[s][:, H * ds.D :]
        prod = (np.linalg.norm(W1, axis=1) * np.linalg.norm(W2, axis=1)).max() / c
        if loss == "square":
            G = np.mean(xn * np.abs(ds.y)) + prod * np.mean(xn**2) + lam
        else:
            G = np.mean(xn) + lam
        bounds[s] = 2 * steps * EPS * (2 + n * (lr / c) * G)
    return bounds


def rank_one_residual(net: BiasFreeNet, y: np.ndarray) -> np.ndarray:
    r""":math:`\|W_1-W_2^\top(W_2W_1)/\|W_2\|^2\|/\|W_1\|` over the leading axes of flat states ``y``."""
    flat = y.reshape(-1, y.shape[-1])
    W1, W2 = net.unpack(flat)
    proj = np.swapaxes(W2, 1, 2) @ (W2 @ W1) / (W2 * W2).sum(axis=(1, 2))[:, None, None]
    res = np.linalg.norm((W1 - proj).reshape(len(flat), -1), axis=1) / np.linalg.norm(
        W1.reshape(len(flat), -1), axis=1
    )
    return res.reshape(y.shape[:-1])


def sign_balance(net: BiasFreeNet, y: np.ndarray) -> np.ndarray:
    r""":math:`|\|W_2^+\|^2-\|W_2^-\|^2|/\|W_2\|^2` over the leading axes of flat states ``y``."""
    flat = y.reshape(-1, y.shape[-1])
    W2 = net.unpack(flat)[1][:, 0, :]
    pos, neg = (np.where(W2 > 0, W2, 0) ** 2).sum(1), (np.where(W2 < 0, W2, 0) ** 2).sum(1)
    return (np.abs(pos - neg) / (pos + neg)).reshape(y.shape[:-1])


def flow_manifold_bound(coarse: PairedRun, tight: PairedRun) -> np.ndarray:
    r"""Pointwise bound ``(S, K, T)`` on the coarse flow's relative distance from the Assumption-7 manifold.

    The exact flow stays on the manifold, so the numerical state is off it by at most its
    global error, measured as ``|coarse - tight| / |coarse|`` (x ``SAFETY``), plus rounding
    ``RK_ROUNDINGS eps`` per step.  (Rounding alone is not a bound: once the flow has
    converged the step grows to the stability limit of DOPRI5 and off-manifold rounding
    noise is amplified until the error control catches it, at the integration-error level.)
    """
    e = np.linalg.norm(coarse.relu - tight.relu, axis=-1) / coarse.norm
    P = coarse.pairing
    steps = coarse.n_steps[: P.n_relu].reshape(P.n_seeds, P.K, 1)
    return SAFETY * e + RK_ROUNDINGS * steps * EPS


def check_manifold(ctx: Context, setup: Setup, run: PairedRun, bound: np.ndarray, how: str) -> None:
    """Assumption 7 along a run: rank-one residual and +/- balance (x 1/2, it is quadratic) <= ``bound``."""
    why = (
        "the exact dynamics keep Assumption 7 (Theorem 8, Part 3); the numerical state leaves it only by "
        + (
            f"{SAFETY:g} x its measured global error (|rtol solve - rtol/100 solve|) + {RK_ROUNDINGS} eps "
            "per step, pointwise in t"
            if how == "gradient flow"
            else f"rounding, {GD_ROUNDINGS} eps per step"
        )
    )
    for name, measure in (
        ("rank-one residual of W1", rank_one_residual),
        ("+/- imbalance / 2", sign_balance),
    ):
        value = measure(setup.net, run.relu) / (2.0 if measure is sign_balance else 1.0)
        ratio = value / bound
        idx = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
        ctx.bound(
            f"Assumption 7 stays valid along the {how}: {name} / bound [{setup.label}]",
            float(ratio.max()),
            1.0,
            why=why,
            resolution=f"a departure from Assumption 7 above {float(bound.max()):.2g} (relative)" + EXACT,
            details={
                "max value": float(value.max()),
                "bound at the worst point": float(bound[idx]),
                "seed": int(idx[0]),
                "alpha": run.pairing.alphas[idx[1]],
            },
        )


def paired_outputs(
    net: BiasFreeNet, run: PairedRun, data: Sequence[Dataset]
) -> tuple[np.ndarray, np.ndarray]:
    r"""Outputs on the training inputs: ReLU :math:`f(x;W(t))` ``(S, K, T, P)`` and linear ``(S, T, P)``."""
    relu, lin = [], []
    for s, ds in enumerate(data):
        XT = ds.X.T[None]
        relu.append([net.output(net.unpack(run.relu[s, k]), XT, a) for k, a in enumerate(run.pairing.alphas)])
        lin.append(net.output(net.unpack(run.lin[s]), XT, 1.0))
    return np.asarray(relu), np.asarray(lin)


# ------------------------------------------------------------------------ Theorem 8


def _sizes(ctx: Context) -> list[tuple[int, int, int]]:
    """The searched sizes ``(D, H, P)``: the profile's base size and a wider-input, narrower one."""
    D = ctx.param("D", tiny=3, quick=6, full=20)
    H = ctx.param("H", tiny=4, quick=16, full=500)
    P = ctx.param("P", tiny=20, quick=120, full=2000)
    ctx.require(P >= 4 * D, f"need P >= 4 D (whitening needs P/2 >= 2D pairs), got P={P}, D={D}")
    ctx.require(H >= 4, f"need H >= 4 (two halves of >= 2 units), got H={H}")
    return [(D, H, P), (2 * D, H // 2, P)]


@dataclass
class Setup:
    """One paired experiment: net, loss, per-seed data and linear initial states."""

    net: BiasFreeNet
    flow: GradientFlow
    data: list[Dataset]
    y_lin0: np.ndarray
    w_init: float
    label: str

    @property
    def s(self) -> float:
        r"""Smallest :math:`s=\|\beta\|` over the seeds (sets the slowest time scale)."""
        return min(float(np.linalg.norm(d.beta)) for d in self.data)

    def horizon(self) -> float:
        return transition_horizon(self.s, self.w_init)


def make_setup(
    ctx: Context,
    key: str,
    size: tuple[int, int, int],
    n_seeds: int,
    loss: str,
    w_init: float,
    *,
    imbalance: float = 1.0,
    white: bool = True,
    stretch: float = 1.0,
) -> Setup:
    """Fig. 3 data (one data set per seed) and Assumption-7 linear initial states, seeded by ``key``."""
    D, H, P = size
    rng = ctx.rng(f"{key}/{D}x{H}x{P}/{loss}").host
    data = [
        fig3_data(rng, P // 2, D, white=white, sign_labels=loss == "logistic", stretch=stretch)
        for _ in range(n_seeds)
    ]
    net = two_layer(D, H)
    y0 = assumption7_init(net, rng, n_seeds, w_init, imbalance=imbalance)
    label = f"{loss}, D={D}, H={H}, P={P}"
    return Setup(net, GradientFlow(net, Loss(loss)), data, y0, w_init, label)


def record_regimes(ctx: Context, setups: Sequence[Setup], *, white: bool = False) -> None:
    """Condition 3 (exact pairing of every data set) and, with ``white``, Sigma = I, on the runs' data."""
    data = [ds for setup in setups for ds in setup.data]
    ctx.regime(CONDITION_3, symmetric=all(is_symmetric(ds.X, ds.y) for ds in data))
    if white:
        ctx.regime(WHITE, sigma_dev=max(float(np.abs(ds.Sigma - np.eye(ds.D)).max()) for ds in data))


def heavy_tailed_setup(ctx: Context, key: str, size: tuple[int, int, int], w_init: float) -> Setup:
    r"""A structurally different Condition-3 family: Student-t inputs (3 degrees of freedom, anisotropic,
    not whitened) and the odd target :math:`\tanh(2w^\top x)+0.3\,(v^\top x)^3`, symmetrised; one seed."""
    D, H, P = size
    rng = ctx.rng(f"{key}/{D}x{H}x{P}").host
    X0 = rng.standard_t(3, size=(P // 2, D)) * rng.uniform(0.3, 2.0, D)
    w, v = rng.normal(size=D) / np.sqrt(D), rng.normal(size=D) / np.sqrt(D)
    ds = symmetrize(X0, np.tanh(2 * X0 @ w) + 0.3 * (X0 @ v) ** 3, "heavy-tailed, odd nonlinear target")
    net = two_layer(D, H)
    y0 = assumption7_init(net, rng, 1, w_init)
    label = f"square, heavy-tailed inputs, D={D}, H={H}, P={P}"
    return Setup(net, GradientFlow(net, Loss("square")), [ds], y0, w_init, label)


def flow_pair(
    ctx: Context, setup: Setup, alphas: Sequence[float], rtol: float, n_out: int = 31
) -> tuple[PairedRun, PairedRun]:
    r"""Coarse (``rtol``) and tight (``rtol/100``) paired solves on ``n_out`` times up to the horizon.

    ``atol = rtol * w_init / sqrt(N)``: an entry below the initial entry scale
    :math:`w_{\rm init}/\sqrt N` times ``rtol`` counts as zero.
    """
    t = np.linspace(0.0, setup.horizon(), n_out)
    pairing = Pairing(tuple(alphas), len(setup.data))
    runs = []
    for rt in (rtol, rtol / 100):
        atol = rt * setup.w_init / np.sqrt(setup.net.n_params)
        runs.append(
            paired_flow(ctx.backend, setup.flow, pairing, setup.data, setup.y_lin0, t, rtol=rt, atol=atol)
        )
    return runs[0], runs[1]


def check_flow_equivalence(
    ctx: Context, setup: Setup, coarse: PairedRun, tight: PairedRun, rtol: float
) -> tuple[float, float]:
    """(13)/(14) along the flow: weights, outputs and losses of every ReLU member vs its scaled partner.

    Returns the worst member's max relative weight deviation and its relative tolerance.
    """
    tol = integrator_tolerance(coarse, tight)
    ratio = coarse.deviation.max(-1) / tol
    s, k = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
    alphas = coarse.pairing.alphas
    worst = (float(coarse.relative_deviation[s, k].max()), float(tol[s, k] / coarse.norm[s, k].max()))
    why = (
        f"tolerance = {SAFETY:g} x (integrator error of the ReLU run + of the scaled linear run, each "
        f"measured as max_t |solve(rtol={rtol:g}) - solve(rtol={rtol / 100:g})|) + {RK_ROUNDINGS} eps x "
        "steps x max|W| (rounding); ratio <= 1 means equal within integration error"
    )
    ctx.bound(
        f"(14) W(t) = sqrt(2/(a+1)) W_lin((a+1)t/2) [{setup.label}]: max_t deviation / tolerance",
        float(ratio.max()),
        1.0,
        why=why,
        resolution=f"a relative weight deviation above {worst[1]:.2g}" + EXACT,
        details={
            "seed": int(s),
            "alpha": alphas[k],
            "max relative deviation": worst[0],
            "relative tolerance": worst[1],
            "alphas": list(alphas),
            "seeds": coarse.pairing.n_seeds,
        },
    )
    f_c, g_c = paired_outputs(setup.net, coarse, setup.data)
    f_t, g_t = paired_outputs(setup.net, tight, setup.data)
    e_f = (np.abs(f_c - f_t) + np.abs(g_c - g_t)[:, None]).max(axis=(-2, -1))
    P = coarse.pairing
    steps = coarse.n_steps[: P.n_relu].reshape(P.n_seeds, P.K)
    ftol = SAFETY * e_f + RK_ROUNDINGS * steps * EPS * np.abs(f_c).max(axis=(-2, -1))
    fratio = np.abs(f_c - g_c[:, None]).max(axis=(-2, -1)) / ftol
    s, k = np.unravel_index(int(np.argmax(fratio)), fratio.shape)
    ctx.bound(
        f"(13) f(x; W(t)) = f_lin(x; W_lin((a+1)t/2)) on every training x [{setup.label}]: max_t,x "
        "|difference| / tolerance",
        float(fratio.max()),
        1.0,
        why=why.replace("max|W|", "max|f|"),
        resolution=f"an output gap above {float(ftol[s, k]):.2g}" + EXACT,
        details={"seed": int(s), "alpha": alphas[k], "tolerance": float(ftol[s, k])},
    )
    ltol = loss_tolerance(coarse, tight)
    lratio = np.abs(coarse.loss_relu - coarse.loss_lin[:, None]).max(-1) / ltol
    s, k = np.unravel_index(int(np.argmax(lratio)), lratio.shape)
    ctx.bound(
        f"(13) L_a(t) = L_lin((a+1)t/2) [{setup.label}]: max_t |difference| / tolerance",
        float(lratio.max()),
        1.0,
        why=why.replace("max|W|", "max L"),
        resolution=f"a loss gap above {float(ltol[s, k]):.2g}" + EXACT,
        details={"seed": int(s), "alpha": alphas[k], "tolerance": float(ltol[s, k])},
    )
    return worst


def gd_pair(
    ctx: Context, setup: Setup, alphas: Sequence[float], lr: float, n_rec: int = 41, **kw
) -> PairedRun:
    """Paired exact GD up to the horizon (``ceil(horizon/lr)`` linear steps), ``n_rec`` records."""
    steps = int(np.ceil(setup.horizon() / lr))
    record = np.unique(np.linspace(0, steps, n_rec).astype(int))
    pairing = Pairing(tuple(alphas), len(setup.data))
    return paired_gd(
        ctx.backend, setup.flow, pairing, setup.data, setup.y_lin0, lr=lr, steps=steps, record=record, **kw
    )


def check_gd_equivalence(
    ctx: Context,
    setup: Setup,
    run: PairedRun,
    lr: float,
    name: str = "",
    decay: Sequence[float] | float = 0.0,
) -> tuple[float, float]:
    """Step-for-step GD equivalence: relative deviation / derived rounding tolerance <= 1.

    Returns the worst member's max relative deviation and its relative tolerance.
    """
    steps = round(run.t[-1] / lr)
    tol = gd_rounding_tolerance(run, setup.data, setup.flow.loss.kind, lr, steps, decay)
    rel = run.relative_deviation.max(-1)
    ratio = rel / tol
    s, k = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
    ctx.bound(
        name
        or f"GD, ReLU lr 2 eta/(a+1) vs linear lr eta, step for step [{setup.label}]: "
        "max_k relative deviation / rounding tolerance",
        float(ratio.max()),
        1.0,
        why=GD_ROUNDING_WHY + f" ({steps} steps, eta = {lr:g})",
        resolution=f"a relative weight deviation above {float(tol[s, k]):.2g}, the rounding bound" + EXACT,
        details={
            "seed": int(s),
            "alpha": run.pairing.alphas[k],
            "max relative deviation": float(rel[s, k]),
            "relative tolerance": float(tol[s, k]),
            "steps": steps,
        },
    )
    return float(rel[s, k]), float(tol[s, k])


_EQ12 = "(12): exact field (2) - reduced field on Assumption 7, symmetric data"
_EQ13_14 = ["(14) W(t) = sqrt(2/(a+1)) W_lin((a+1)t/2) *", "(13) f(x; W(t)) = f_lin*", "(13) L_a(t) = L_lin*"]
_GD_PAIRED = "GD, ReLU lr 2 eta/(a+1) vs linear lr eta, step for step *"


def _theorem8_symbolic(ctx: Context) -> None:
    """(12) exact on a rational instance; scaling (40); balancedness (41); the unbalanced control."""
    from symbolic import reductions as red

    why = "exact rational arithmetic: the difference is the zero polynomial in alpha"
    ctx.zero(
        _EQ12,
        list(red.reduced_dynamics_difference()),
        why=why + " (W2 = (3,4,-5), r = (3/5,4/5), 3 pairs +-x)",
    )
    ctx.zero(
        "(40): sqrt(2/(a+1)) x linear flow slowed by (a+1)/2 solves (12)",
        list(red.scaling_difference()),
        why="symbolic W, Sigma, beta, tau; alpha = 2c^2-1; cancel() to 0",
    )
    ctx.zero(
        "(41): d/dt (W1 W1^T - W2^T W2) = 0 along (12)",
        red.balancedness_derivative("reduced")["residual"],
        why="symbolic W, Sigma, beta",
    )
    with ctx.control(
        "unbalanced W2 = (1, 2, -1) in the exact rational instance", breaks=BALANCED, must_break=[_EQ12]
    ):
        ctx.zero(
            _EQ12,
            list(red.reduced_dynamics_difference(W2=red.UNBALANCED_W2)),
            why=why,
        )


def _same_lr_note(ctx: Context, setup: Setup, lr: float) -> None:
    """Catalog P5: same learning rate, ReLU (alpha=0) step 2k vs linear step k -- an O(eta) mismatch."""
    series, worst = [], {}
    pairing = Pairing((0.0,), 1)
    args = _stack_args(ctx.backend, setup.flow, pairing, setup.data[:1])
    y0 = ctx.backend.asarray(pairing.initial(setup.y_lin0[:1]))
    for eta in (lr, lr / 2):
        K = int(np.ceil(setup.horizon() / eta))
        m = max(1, K // 200)  # linear steps 2 m j and ReLU steps 4 m j are recorded
        traj = gradient_descent(
            setup.flow, y0, lr=eta, steps=2 * K, record=np.arange(0, 2 * K + 1, 2 * m), args=args
        )
        ys = to_numpy(traj.ys)
        relu = ys[0, ::2]
        lin = ys[1, : len(relu)] * np.sqrt(2.0)
        err = np.linalg.norm(relu - lin, axis=1) / np.linalg.norm(lin, axis=1)
        worst[eta] = float(err.max())
        series.append(Series(f"eta = {eta:g}", eta * 2 * m * np.arange(1, len(err)), err[1:]))
    ctx.figure(
        "same learning rate: ReLU step 2k vs linear step k (alpha = 0)",
        series=series,
        xlabel="linear time eta k",
        ylabel="relative weight error",
        logy=True,
    )
    a, b = worst[lr], worst[lr / 2]
    ctx.note(
        "Catalog P5 reproduced: with the SAME learning rate, comparing the ReLU net (alpha=0) at step 2k "
        "with the linear net at step k leaves a GD discretisation mismatch of max relative weight error "
        f"{a:.3g} at eta={lr:g} and {b:.3g} at eta={lr / 2:g} (ratio {a / b:.2f}, i.e. O(eta)); with the "
        "ReLU learning rate 2 eta/(alpha+1) the two GD maps are conjugate and agree to rounding (check "
        f"above) [{setup.label}]."
    )


@claim(
    "zhang2025:theorem-8",
    title="Under Condition 3 and Assumption 7, a two-layer ReLU net is a rescaled linear net",
    source="Theorem 8, eqs. (12)-(14); proof App. C.2, eqs. (36)-(41)",
    statement=r"With $W(0)=\sqrt{2/(\alpha+1)}W^{\rm lin}(0)$, square or logistic loss, the ReLU "
    r"dynamics reduce to (12), Assumption 7 stays valid for all $t\ge0$, "
    r"$f(x;W(t))=f^{\rm lin}(x;W^{\rm lin}(\frac{\alpha+1}2t))$ (13) and "
    r"$W(t)=\sqrt{\frac2{\alpha+1}}W^{\rm lin}(\frac{\alpha+1}2t)$ (14).",
    hypotheses=[TWO_LAYER, ALPHA_01, CONDITION_3, RANK_ONE, BALANCED, FLOW],
)
def theorem_8(ctx: Context) -> None:
    sizes = _sizes(ctx)
    seeds = ctx.param("seeds", tiny=1, quick=2, full=3)
    w_init = ctx.param("w_init", tiny=1e-3, quick=1e-3, full=1e-8)
    rtol = ctx.param("rtol", tiny=1e-6, quick=1e-8, full=1e-10)
    lr = ctx.param("lr", tiny=0.1, quick=0.05, full=0.004)
    _theorem8_symbolic(ctx)
    main = make_setup(ctx, "main", sizes[0], seeds, "square", w_init)
    cases = [
        main,
        make_setup(ctx, "wide", sizes[1], 1, "square", w_init),
        make_setup(ctx, "logistic", sizes[0], 1, "logistic", w_init),
        heavy_tailed_setup(ctx, "heavy", sizes[0], w_init),
    ]
    record_regimes(ctx, cases)
    summary = []
    for setup in cases:
        coarse, tight = flow_pair(ctx, setup, ALPHAS, rtol)
        gf = check_flow_equivalence(ctx, setup, coarse, tight, rtol)
        check_manifold(ctx, setup, coarse, flow_manifold_bound(coarse, tight), "gradient flow")
        if setup is main:
            _theorem8_figures(ctx, coarse, tight)
        gd_run = gd_pair(ctx, setup, ALPHAS, lr)
        gd = check_gd_equivalence(ctx, setup, gd_run, lr)
        check_manifold(
            ctx,
            setup,
            gd_run,
            np.full(gd_run.relu.shape[:-1], GD_ROUNDINGS * round(gd_run.t[-1] / lr) * EPS),
            "GD",
        )
        summary.append(
            f"[{setup.label}] gradient flow {gf[0]:.2g} (tolerance {gf[1]:.2g}), GD {gd[0]:.2g} (tolerance "
            f"{gd[1]:.2g})"
        )
    ctx.note(
        "Worst relative weight deviation max_t ||W - sqrt(2/(a+1)) W_lin|| / ||.|| over seeds and "
        f"alpha in {list(ALPHAS)}: " + "; ".join(summary) + ". The flow tolerance is the measured "
        "integrator error; the deviation stays far below it because the ReLU and linear runs take nearly "
        "conjugate RK steps (identical up to the atol term of the step control), so their errors cancel."
    )
    _same_lr_note(ctx, main, lr)

    with ctx.control(
        "Assumption-7-like init with ||W2+||^2 = 2 ||W2-||^2", breaks=BALANCED, must_break=_EQ13_14
    ):
        setup = make_setup(ctx, "unbalanced", sizes[0], 1, "square", w_init, imbalance=2.0)
        coarse, tight = flow_pair(ctx, setup, (0.0, 0.5), rtol)
        check_flow_equivalence(ctx, setup, coarse, tight, rtol)
        ctx.figure(
            "control: weight error, unbalanced init",
            series=[
                Series(f"alpha = {a:g}", coarse.t[1:], coarse.relative_deviation[0, k, 1:])
                for k, a in enumerate(coarse.pairing.alphas)
            ],
            xlabel="linear time (a+1)t/2",
            ylabel="relative weight error",
            logy=True,
        )
    with ctx.control(
        "perturbed symmetric data (Sec. 6.2, delta = 0.1)", breaks=CONDITION_3, must_break=[_GD_PAIRED]
    ):
        ds = perturbed_symmetric(0.1)
        net = two_layer(2, sizes[0][1])
        y0 = assumption7_init(net, ctx.rng("perturbed").host, 1, w_init)
        setup = Setup(net, GradientFlow(net, Loss("square")), [ds], y0, w_init, "square, Sec. 6.2 data")
        check_gd_equivalence(ctx, setup, gd_pair(ctx, setup, (0.0, 0.5), lr), lr)


def _theorem8_figures(ctx: Context, run: PairedRun, tight: PairedRun) -> None:
    """Loss vs physical and rescaled time (collapse); weight error vs the integrator error (seed 0)."""
    c = run.pairing.c
    alphas = run.pairing.alphas
    phys = [Series(f"alpha = {a:g}", run.t / c[k], run.loss_relu[0, k]) for k, a in enumerate(alphas)]
    ctx.figure(
        "loss vs time t",
        series=[*phys, Series("linear", run.t, run.loss_lin[0], "--")],
        xlabel="t",
        ylabel="loss",
    )
    resc = [Series(f"alpha = {a:g}", run.t, run.loss_relu[0, k]) for k, a in enumerate(alphas)]
    ctx.figure(
        "loss vs rescaled time (a+1)t/2: collapse onto the linear net",
        series=[*resc, Series("linear", run.t, run.loss_lin[0], "--")],
        xlabel="(a+1) t / 2",
        ylabel="loss",
    )
    err = [
        Series(f"alpha = {a:g}", run.t[1:], np.maximum(run.relative_deviation[0, k, 1:], EPS))
        for k, a in enumerate(alphas)
    ]
    integ = np.linalg.norm(run.relu[0, 0] - tight.relu[0, 0], axis=-1) / run.norm[0, 0]
    err.append(
        Series("integrator error of the ReLU run, alpha = 0", run.t[1:], np.maximum(integ[1:], EPS), "--")
    )
    ctx.figure(
        "relative weight error ||W(t) - sqrt(2/(a+1)) W_lin((a+1)t/2)|| / ||.||",
        series=err,
        xlabel="(a+1) t / 2",
        ylabel="relative error",
        logy=True,
    )


# ----------------------------------------------------------------------- Corollary 9


def fitted_linear_maps(net: BiasFreeNet, ds: Dataset, states: np.ndarray, alpha: float) -> np.ndarray:
    r""":math:`w_{\rm fit}=\arg\min_w\|Xw-f(X)\|` of the net at each state ``(T, N)`` -> ``(T, D)``."""
    Ws = net.unpack(states)
    f = net.output(Ws, ds.X.T[None], alpha)
    return linear_fit(ds.X, f)


def initial_direction(net: BiasFreeNet, y0: np.ndarray) -> np.ndarray:
    r"""Assumption 7's unit :math:`r` (:math:`W_1=W_2^\top r^\top`, so :math:`r\propto W_1^\top W_2^\top`)."""
    W1, W2 = net.unpack(y0[None])
    r = (W1[0].T @ W2[0].T)[:, 0]
    return r / np.linalg.norm(r)


def corollary9_deviation(setup: Setup, coarse: PairedRun, tight: PairedRun, *, corrected: bool) -> dict:
    r"""Deviation of the ReLU nets' :math:`w_{\rm fit}(t)` from (15) at :math:`\tilde t=\frac{\alpha+1}2t`.

    ``corrected``: :math:`w_{\rm init}=\sqrt{(\alpha+1)/2}\,\|W_1(0)\|` (the linear partner's
    norm, catalog P4); otherwise the printed :math:`w_{\rm init}=\|W_1(0)\|` of the ReLU net.
    Tolerance per member: ``SAFETY`` x the integrator error of :math:`w_{\rm fit}` (coarse
    vs 100x tighter solve) + rounding of the fit and of (15) (``16 P eps max|w|``).
    Returns the worst ratio deviation/tolerance and its parameters.
    """
    from symbolic.closed_forms import corollary9_callable

    w15 = corollary9_callable()
    P = coarse.pairing
    worst: dict = {"ratio": -1.0}
    ratios = np.zeros((P.n_seeds, P.K))
    for s in range(P.n_seeds):
        ds = setup.data[s]
        for k, a in enumerate(P.alphas):
            y0 = coarse.relu[s, k, 0]
            r = initial_direction(setup.net, y0)
            norm_W1 = np.linalg.norm(setup.net.unpack(y0[None])[0])
            w_init = np.sqrt(P.c[k]) * norm_W1 if corrected else norm_W1
            w_c = fitted_linear_maps(setup.net, ds, coarse.relu[s, k], a)
            w_t = fitted_linear_maps(setup.net, ds, tight.relu[s, k], a)
            theory = w15(coarse.t, ds.beta, r, w_init)
            dev = np.linalg.norm(w_c - theory, axis=1)
            scale = np.linalg.norm(w_c, axis=1).max()
            tol = SAFETY * np.linalg.norm(w_c - w_t, axis=1).max() + 16 * ds.P * EPS * scale
            ratios[s, k] = dev.max() / tol
            if ratios[s, k] > worst["ratio"]:
                i = int(np.argmax(dev))
                worst = {
                    "ratio": float(ratios[s, k]),
                    "seed": s,
                    "alpha": a,
                    "w_init used": float(w_init),
                    "||W1(0)||": float(norm_W1),
                    "at linear time": float(coarse.t[i]),
                    "|w_fit - w_(15)|": float(dev[i]),
                    "|w_fit|": float(np.linalg.norm(w_c[i])),
                    "relative error at t=0": float(dev[0] / np.linalg.norm(theory[0])),
                    "tolerance": float(tol),
                }
    worst["ratios"] = ratios
    return worst


def _check_corollary9(
    ctx: Context, setup: Setup, coarse: PairedRun, tight: PairedRun, *, corrected: bool, rtol: float
) -> dict:
    reading = "sqrt((a+1)/2) ||W1(0)||" if corrected else "||W1(0)|| (as printed)"
    res = corollary9_deviation(setup, coarse, tight, corrected=corrected)
    details = {k: v for k, v in res.items() if k != "ratios"}
    ctx.bound(
        f"(15) with w_init = {reading} vs fitted linear map of the ReLU GF [{setup.label}]: max_t |w_fit - "
        "w(t~)| / tolerance",
        res["ratio"],
        1.0,
        why=f"tolerance = {SAFETY:g} x integrator error of w_fit (rtol {rtol:g} vs {rtol / 100:g}) + 16 P "
        "eps max|w| (least squares on whitened X and evaluation of (15)); alphas "
        f"{list(coarse.pairing.alphas)}, {coarse.pairing.n_seeds} seeds",
        details=details,
    )
    return res


def _corollary9_params(ctx: Context) -> tuple[list[tuple[int, int, int]], float, float]:
    """Sizes, w_init and rtol of :func:`_corollary9_setups`; a claim whose first check comes before
    its setup reads them first, so that they are checked before the run (verify/plan.py)."""
    sizes = _sizes(ctx)
    w_init = ctx.param("w_init", tiny=1e-3, quick=1e-3, full=1e-8)
    rtol = ctx.param("rtol", tiny=1e-6, quick=1e-8, full=1e-10)
    return sizes, w_init, rtol


def _corollary9_setups(ctx: Context, key: str, n_seeds: int) -> tuple[Setup, float, float]:
    sizes, w_init, rtol = _corollary9_params(ctx)
    return make_setup(ctx, key, sizes[0], n_seeds, "square", w_init), w_init, rtol


@claim(
    "zhang2025:corollary-9",
    title="Closed-form time course (15) for white inputs, with w_init = ||W1(0)|| as printed",
    source="Corollary 9, eq. (15)",
    statement=r"For square loss and $\Sigma=I$, the ReLU net's function is $f(x;W)=w(t)^\top x$ with "
    r"$w(t)$ of (15), $\tilde t=\frac{\alpha+1}{2\tau}t$ and $w_{\rm init}=\|W_1(0)\|$.",
    hypotheses=[CONDITION_3, RANK_ONE, BALANCED, SQUARE, WHITE],
    erratum=Erratum(
        r"(15) starts at $w(0)=w_{\rm init}^2r$, but the ReLU net starts at "
        r"$f=\frac{\alpha+1}2\|W_1(0)\|^2r^\top x$ (36): the printed $w_{\rm init}=\|W_1(0)\|$ is right "
        r"only for $\alpha=1$; the correct value is $\sqrt{(\alpha+1)/2}\,\|W_1(0)\|$ (the linear partner's "
        r"norm)",
        via="catalog P4; reproduced here (counterexample in the checks)",
    ),
)
def corollary_9(ctx: Context) -> None:
    setup, _, rtol = _corollary9_setups(ctx, "cor9", 1)
    record_regimes(ctx, [setup], white=True)
    coarse, tight = flow_pair(ctx, setup, ALPHAS, rtol)
    res = _check_corollary9(ctx, setup, coarse, tight, corrected=False, rtol=rtol)
    lin_ok = corollary9_deviation(setup, _linear_as_relu(coarse), _linear_as_relu(tight), corrected=False)
    ctx.note(
        "Which reading is printed: Corollary 9 states the solution of (13), f(x;W) = w(t)^T x for the "
        "(leaky) ReLU net, with 'w_init = ||W1(0)||' where W are the ReLU weights (the linear net's "
        "weights carry the superscript 'lin' throughout the paper). Under Theorem 8 the ReLU net starts "
        "at W(0) = sqrt(2/(a+1)) W_lin(0), so this w_init is sqrt(2/(a+1)) times the linear partner's. "
        f"Measured worst case (alpha = {res['alpha']}): |w_fit - w_(15)| = {res['|w_fit - w_(15)|']:.3g} "
        f"on |w| = {res['|w_fit|']:.3g} at linear time {res['at linear time']:.3g}; relative error at t = "
        f"0 is {res['relative error at t=0']:.3g} (the exact value is 1 - (a+1)/2: f(x;W(0)) = (a+1)/2 "
        "||W1(0)||^2 r^T x while the printed (15) starts at ||W1(0)||^2 r^T x). For the linear net itself "
        f"(alpha = 1) the printed reading holds: ratio {lin_ok['ratio']:.3g} <= 1."
    )


def _linear_as_relu(run: PairedRun) -> PairedRun:
    """The linear partners of ``run`` viewed as a one-slope (alpha = 1) paired run."""
    S = run.pairing.n_seeds
    return PairedRun(
        Pairing((1.0,), S), run.t, run.lin[:, None], run.lin, run.loss_lin[:, None], run.loss_lin, run.n_steps
    )


@claim(
    "zhang2025:corollary-9-corrected",
    title="Closed-form time course (15) with the linear partner's w_init = sqrt((a+1)/2) ||W1(0)||",
    source="Corollary 9, eq. (15); correction catalog P4",
    statement=r"For square loss and $\Sigma=I$, under Theorem 8's hypotheses the ReLU net's function is "
    r"$f(x;W(t))=w(\tilde t)^\top x$ with $w$ of (15), $\tilde t=\frac{\alpha+1}{2\tau}t$ and "
    r"$w_{\rm init}=\sqrt{\frac{\alpha+1}2}\|W_1(0)\|=\|W_1^{\rm lin}(0)\|$.",
    hypotheses=[CONDITION_3, RANK_ONE, BALANCED, SQUARE, WHITE],
)
def corollary_9_corrected(ctx: Context) -> None:
    from symbolic.closed_forms import corollary9_limits, corollary9_ode_residual

    seeds = ctx.param("seeds", tiny=1, quick=2, full=3)
    _corollary9_params(ctx)
    residual = corollary9_ode_residual(dps=50)
    ctx.bound(
        "(15) solves dw/dt~ = ||w||(beta - w) + w w^T(beta - w)/||w|| (50-digit residual, 8 random points)",
        float(residual),
        1e-40,
        why="symbolic derivative of (15) minus the balanced rank-one linear-net ODE, evaluated with "
        "mpmath at 50 significant digits: an exact solution leaves ~1e-50",
        kind="symbolic",
        resolution="a residual above 1e-40; any error in (15) (a factor, a sign, a power) leaves an O(1) "
        "residual, so the margin to 1e-50 is working precision, not slack in the statement",
    )
    ctx.zero(
        "(15) limits: w(0) = w_init^2 r and w(oo) = beta",
        list(corollary9_limits().values()),
        why="SymPy limits",
    )
    setup, w_init, rtol = _corollary9_setups(ctx, "cor9c", seeds)
    record_regimes(ctx, [setup], white=True)
    coarse, tight = flow_pair(ctx, setup, ALPHAS, rtol)
    _check_corollary9(ctx, setup, coarse, tight, corrected=True, rtol=rtol)
    _corollary9_figure(ctx, setup, coarse)
    with ctx.control(
        "non-white inputs: first coordinate of the whitened data scaled by 2",
        breaks=WHITE,
        must_break=["(15) with w_init = * vs fitted linear map of the ReLU GF *"],
    ):
        size = _sizes(ctx)[0]
        bent = make_setup(ctx, "cor9-nonwhite", size, 1, "square", w_init, stretch=2.0)
        coarse, tight = flow_pair(ctx, bent, (0.0, 0.5), rtol)
        check_flow_equivalence(ctx, bent, coarse, tight, rtol)
        _check_corollary9(ctx, bent, coarse, tight, corrected=True, rtol=rtol)


def _corollary9_figure(ctx: Context, setup: Setup, run: PairedRun) -> None:
    """|w_fit(t)| of every slope against (15), both against linear time (seed 0)."""
    from symbolic.closed_forms import corollary9_callable

    w15 = corollary9_callable()
    ds = setup.data[0]
    series = []
    for k, a in enumerate(run.pairing.alphas):
        w = fitted_linear_maps(setup.net, ds, run.relu[0, k], a)
        series.append(Series(f"ReLU GF, alpha = {a:g}", run.t, np.linalg.norm(w, axis=1), "o"))
    y0 = run.lin[0, 0]
    r = initial_direction(setup.net, y0)
    t = np.linspace(0, run.t[-1], 300)
    w = w15(t, ds.beta, r, np.linalg.norm(setup.net.unpack(y0[None])[0]))
    series.append(Series("(15), corrected w_init", t, np.linalg.norm(w, axis=1), "-"))
    ctx.figure(
        "|w(t)|: ReLU gradient flow vs closed form (15)", series=series, xlabel="(a+1) t / 2", ylabel="|w|"
    )


# ---------------------------------------------------------------------- Corollary 10


def ols(ds: Dataset) -> tuple[np.ndarray, float]:
    r"""OLS :math:`w^*=\Sigma^{-1}\beta`, loss :math:`\frac12\langle y^2\rangle-\frac12\beta^\top w^*`."""
    w = np.linalg.solve(ds.Sigma, ds.beta)
    return w, float(0.5 * np.mean(ds.y**2) - 0.5 * ds.beta @ w)


def slowest_rate(ds: Dataset) -> float:
    r"""Slowest relaxation rate (linear time) of the balanced rank-one linear flow at the OLS point.

    On the manifold :math:`\dot w=A(w)(\beta-\Sigma w)`, :math:`A=\|w\|I+ww^\top/\|w\|`; linearised
    at :math:`w^*=\Sigma^{-1}\beta`: :math:`\dot e=-A\Sigma e`, slowest rate
    :math:`\lambda_{\min}(A^{1/2}\Sigma A^{1/2})`.  ReLU nets have the same rate in linear time.
    """
    w, _ = ols(ds)
    n = np.linalg.norm(w)
    A = n * np.eye(ds.D) + np.outer(w, w) / n
    evals, evecs = np.linalg.eigh(A)
    root = evecs @ np.diag(np.sqrt(evals)) @ evecs.T
    return float(np.linalg.eigvalsh(root @ ds.Sigma @ root).min())


def hard_margin_svm(ds: Dataset) -> np.ndarray:
    r"""(16) :math:`w_{\rm svm}=\arg\min\|w\|^2` s.t. :math:`y_\mu w^\top x_\mu\ge1` (no intercept).

    SLSQP finds the active set; the exact minimiser on it, :math:`w=G_A^\top(G_AG_A^\top)^{-1}\mathbf 1`
    (:math:`G` rows :math:`y_\mu x_\mu^\top`), is then verified by the KKT conditions (all
    margins :math:`\ge1`, multipliers :math:`\ge0`); raises if they fail.
    """
    from scipy.optimize import minimize

    G = np.unique(ds.y[:, None] * ds.X, axis=0)  # a symmetric pair gives the same constraint twice
    res = minimize(
        lambda w: w @ w,
        np.zeros(ds.D),
        jac=lambda w: 2 * w,
        constraints=[{"type": "ineq", "fun": lambda w: G @ w - 1, "jac": lambda w: G}],
        method="SLSQP",
        options={"ftol": 1e-15, "maxiter": 1000},
    )
    active = G[G @ res.x < 1 + 1e-6]
    w = active.T @ np.linalg.solve(active @ active.T, np.ones(len(active)))
    multipliers = np.linalg.lstsq(active.T, 2 * w, rcond=None)[0]
    if (G @ w).min() < 1 - 1e-9 or multipliers.min() < 0:
        raise RuntimeError("hard-margin SVM: KKT conditions fail (data not separable?)")
    return w


def check_square_convergence(
    ctx: Context,
    net: BiasFreeNet,
    ds: Dataset,
    alpha: float,
    path: np.ndarray,
    losses: np.ndarray,
    *,
    step: float,
    integ_w: float,
    integ_L: float,
    drift: float,
    label: str,
) -> None:
    r"""Corollary 10, square loss: the final function is linear, :math:`w=\Sigma^{-1}\beta`, loss = OLS loss.

    ``path`` ``(T, N)`` states on a grid of spacing ``step`` (linear time), ``losses`` ``(T,)``.
    Remaining distance to the limit: geometric tail :math:`\|w_T-w_{T-1}\|q/(1-q)`,
    :math:`q=e^{-\rho\,\Delta}` with :math:`\rho` = :func:`slowest_rate`; ``integ_*``: integrator
    error bounds (0 for GD); ``drift``: bound on the relative departure of the final state from the
    Assumption-7 manifold (:func:`flow_manifold_bound`; rounding for GD), which feeds the even part of f.
    """
    w_star, L_ols = ols(ds)
    w = fitted_linear_maps(net, ds, path[-2:], alpha)
    f = net.output(net.unpack(path[-1:]), ds.X.T[None], alpha)[0]
    kappa = np.linalg.cond(ds.Sigma)
    q = np.exp(-slowest_rate(ds) * step)
    tail = np.linalg.norm(w[1] - w[0]) * q / (1 - q)
    round_w = 16 * ds.P * EPS * kappa * np.linalg.norm(w_star)
    tol_w = integ_w + tail + round_w
    round_L = 8 * ds.P * EPS * np.mean(ds.y**2)
    evmax = np.linalg.eigvalsh(ds.Sigma).max()
    linear_tol = 16 * (ds.P + net.widths[1] + ds.D) * EPS + drift
    ctx.bound(
        f"the limit is a linear function: ||f - X w_fit|| / ||f|| at the end [{label}]",
        float(np.linalg.norm(f - ds.X @ w[1]) / np.linalg.norm(f)),
        linear_tol,
        resolution=f"a nonlinear part of f above {linear_tol:.2g} of ||f|| (the statement is exact: the "
        "factor to spare is that of the error bound, not slack in a constant)",
        why="an exactly linear f leaves only rounding: of f and of the least-squares fit, 16 (P+H+D) eps, "
        f"and the numerical state's departure from the Assumption-7 manifold, {drift:.2g}",
    )
    ctx.close(
        f"w_fit(T) = Sigma^-1 beta (OLS) [{label}]",
        w[1],
        w_star,
        atol=tol_w,
        why=f"integrator error {integ_w:.2g} (x{SAFETY:g}) + remaining distance {tail:.2g} (geometric tail "
        f"at the linearised rate, q = {q:.3g} per output step) + rounding 16 P eps kappa(Sigma) |w*| = "
        f"{round_w:.2g}",
    )
    ctx.close(
        f"L(T) = OLS loss 1/2<y^2> - 1/2 beta^T Sigma^-1 beta [{label}]",
        losses[-1],
        L_ols,
        atol=integ_L + 0.5 * evmax * tol_w**2 + round_L,
        why="L - L_ols = 1/2 e^T Sigma e <= 1/2 lambda_max tol_w^2, + integrator error of L + 8 P eps <y^2>",
    )
    ctx.bound(
        f"OLS loss is the global minimum: min_t L(t) - L_ols [{label}]",
        float(losses.min() - L_ols),
        -round_L,
        side=">=",
        why="Cor. 10 proof: on symmetric data L = 1/2<(y - x^T w)^2> + 1/2<f_even^2> >= L_ols; rounding 8 "
        "P eps <y^2>",
    )


def _normalised_margin(ds: Dataset, w: np.ndarray) -> np.ndarray:
    """:math:`\\min_\\mu y_\\mu x_\\mu^\\top w/\\|w\\|` for each row of ``w``."""
    return (ds.y[:, None] * ds.X @ w.T).min(axis=0) / np.linalg.norm(w, axis=1)


@claim(
    "zhang2025:corollary-10",
    title="Converged solutions: OLS (square loss), max-margin direction (logistic loss)",
    source="Corollary 10, eq. (16); proof App. C.3",
    statement=r"Under Theorem 8's conditions $f(x;W(\infty))=w^{*\top}x$; square loss: "
    r"$w^*=\Sigma^{-1}\beta$, the global minimum; separable data, logistic loss: "
    r"$w^*/\|w^*\|=w_{\rm svm}/\|w_{\rm svm}\|$, (16) $w_{\rm svm}=\arg\min\|w\|^2$ s.t. $y_\mu w^\top "
    r"x_\mu\ge1$.",
    hypotheses=[CONDITION_3, RANK_ONE, BALANCED, SEPARABLE],
)
def corollary_10(ctx: Context) -> None:
    size = _sizes(ctx)[0]
    seeds = ctx.param("seeds", tiny=1, quick=2, full=3)
    w_init = ctx.param("w_init", tiny=1e-3, quick=1e-3, full=1e-8)
    rtol = ctx.param("rtol", tiny=1e-6, quick=1e-8, full=1e-10)
    alphas = (0.0, 0.5)
    setup = make_setup(ctx, "cor10", size, seeds, "square", w_init, white=False, stretch=2.0)
    record_regimes(ctx, [setup])
    rho = min(slowest_rate(d) for d in setup.data)
    t = np.linspace(0.0, setup.horizon() + 30 / rho, 41)
    runs = []
    for rt in (rtol, rtol / 100):
        atol = rt * w_init / np.sqrt(setup.net.n_params)
        pairing = Pairing(alphas, seeds)
        runs.append(
            paired_flow(ctx.backend, setup.flow, pairing, setup.data, setup.y_lin0, t, rtol=rt, atol=atol)
        )
    coarse, tight = runs
    for s in range(seeds):
        ds = setup.data[s]
        for k, a in enumerate(alphas):
            wc = fitted_linear_maps(setup.net, ds, coarse.relu[s, k, -1:], a)
            wt = fitted_linear_maps(setup.net, ds, tight.relu[s, k, -1:], a)
            check_square_convergence(
                ctx,
                setup.net,
                ds,
                a,
                coarse.relu[s, k],
                coarse.loss_relu[s, k],
                step=t[1] - t[0],
                integ_w=SAFETY * float(np.linalg.norm(wc - wt)),
                integ_L=SAFETY * abs(coarse.loss_relu[s, k, -1] - tight.loss_relu[s, k, -1]),
                drift=float(flow_manifold_bound(coarse, tight)[s, k, -1]),
                label=f"{setup.label}, non-white Sigma, seed {s}, alpha {a:g}",
            )
    _convergence_figure(ctx, setup, coarse)
    _corollary10_logistic(ctx, size, w_init, rtol)
    with ctx.control(
        "Sec. 6.2 perturbed data, delta = 0.2 (middle pair labelled against the corners)",
        breaks=CONDITION_3,
        must_break=["the limit is a linear function*", "L(T) = OLS loss*", "OLS loss is the global minimum*"],
    ):
        ds = perturbed_symmetric(0.2)
        net = two_layer(2, size[1])
        y0 = assumption7_init(net, ctx.rng("cor10-perturbed").host, 1, w_init)
        pert = Setup(net, GradientFlow(net, Loss("square")), [ds], y0, w_init, "perturbed")
        lr = 0.05
        steps = int(np.ceil((pert.horizon() + 30 / slowest_rate(ds)) / lr))
        record = np.unique(np.concatenate([np.linspace(0, steps, 201).astype(int), [steps - 1]]))
        run = paired_gd(
            ctx.backend, pert.flow, Pairing((0.0,), 1), [ds], y0, lr=lr, steps=steps, record=record
        )
        check_square_convergence(
            ctx,
            net,
            ds,
            0.0,
            run.relu[0, 0],
            run.loss_relu[0, 0],
            step=lr,
            integ_w=0.0,
            integ_L=0.0,
            drift=GD_ROUNDINGS * steps * EPS,
            label=f"ReLU GD (lr {2 * lr:g}), Sec. 6.2 data delta = 0.2",
        )


def _convergence_figure(ctx: Context, setup: Setup, run: PairedRun) -> None:
    """|w_fit(t) - Sigma^-1 beta| against linear time with the predicted slowest rate (seed 0)."""
    ds = setup.data[0]
    w_star, _ = ols(ds)
    series = []
    for k, a in enumerate(run.pairing.alphas):
        w = fitted_linear_maps(setup.net, ds, run.relu[0, k], a)
        series.append(Series(f"ReLU GF, alpha = {a:g}", run.t, np.linalg.norm(w - w_star, axis=1), "o"))
    rho = slowest_rate(ds)
    dist = np.linalg.norm(fitted_linear_maps(setup.net, ds, run.relu[0, 0], 0.0) - w_star, axis=1)
    i = int(np.argmax(dist < 1e-3))  # anchor the predicted slope inside the exponential tail
    pred = dist[i] * np.exp(-rho * (run.t[i:] - run.t[i]))
    keep = pred >= dist.min() / 10
    series.append(Series(f"predicted slope, linearised rate {rho:.3g}", run.t[i:][keep], pred[keep], "--"))
    ctx.figure(
        "distance to OLS, |w_fit - Sigma^-1 beta|",
        series=series,
        xlabel="(a+1) t / 2",
        ylabel="distance",
        logy=True,
    )


def _corollary10_logistic(ctx: Context, size: tuple[int, int, int], w_init: float, rtol: float) -> None:
    r"""Logistic loss on separable symmetric data: the normalised-margin gap to (16) closes.

    Soudry et al. (2018): :math:`w(t)=\hat w\ln t+\rho+o(1)` gives the normalised-margin gap
    :math:`\gamma_{\rm svm}-\gamma(t)=C/\ln t+O(\ln^{-2}t)`; the max-margin direction is the unique
    maximiser of :math:`\gamma`, so a gap -> 0 is the direction's convergence to :math:`w_{\rm svm}`.
    """
    setup = make_setup(ctx, "cor10-logistic", size, 1, "logistic", w_init)
    ds = setup.data[0]
    w_svm = hard_margin_svm(ds)
    gamma_svm = 1 / np.linalg.norm(w_svm)
    t = np.concatenate([[0.0], np.logspace(-1, 12, 53)])
    atol = rtol * w_init / np.sqrt(setup.net.n_params)
    run = paired_flow(
        ctx.backend, setup.flow, Pairing((0.0, 0.5), 1), setup.data, setup.y_lin0, t, rtol=rtol, atol=atol
    )
    late = t >= 1e8
    cos_end, cos_min, t_min, monotone = [], [], [], []
    for k, a in enumerate(run.pairing.alphas):
        w = fitted_linear_maps(setup.net, ds, run.relu[0, k], a)
        gamma = _normalised_margin(ds, w)
        cos = w @ w_svm / np.linalg.norm(w, axis=1) / np.linalg.norm(w_svm)
        cos_end.append(1 - cos[-1])
        cos_min.append(float((1 - cos[1:]).min()))
        t_min.append(float(t[1:][np.argmin(1 - cos[1:])]))
        monotone.append(bool(np.all(np.diff(cos[late]) >= 0)))
        rho, gap = np.linalg.norm(w[late], axis=1), gamma_svm - gamma[late]
        order = log_log_slope(rho, gap)
        ctx.bound(
            "margin gap gamma_svm - gamma(t) closes: fitted order in |w_fit| on t~ in [1e8, 1e12] "
            f"[logistic, alpha {a:g}]",
            order,
            -0.5,
            why="w/|w| -> w_svm/|w_svm| iff the gap -> 0 (the max-margin direction is the unique "
            "maximiser of gamma). Soudry et al. (2018): gap = C/|w| asymptotically (order -1), but the "
            "reachable window (|w| grows by ~2.5x up to t~ = 1e12) carries ln|w|/|w|^2 corrections: over "
            "31 seeds and sizes we measured orders from -0.74 to -2.0. A limit with gap c0 > 0 flattens "
            "the slope towards 0 once c0 exceeds the decaying part, so order <= -1/2 certifies that the "
            f"limiting gap is below ~ the final gap ({gap[-1] / gamma_svm:.2g} of gamma_svm) and still "
            "closing",
            details={
                "final relative gap": float(gap[-1] / gamma_svm),
                "|w| range": [float(rho[0]), float(rho[-1])],
            },
        )
        ctx.figure(
            f"margin gap vs |w_fit| [logistic, alpha {a:g}]",
            series=[
                Series("gamma_svm - gamma", rho, gap, "o"),
                Series("order -1 (Soudry et al.)", rho, gap[0] * rho[0] / rho, "--"),
            ],
            xlabel="|w_fit|",
            ylabel="gamma_svm - gamma",
            logx=True,
            logy=True,
        )
        ctx.figure(
            f"1 - cos(w_fit, w_svm) vs t [logistic, alpha {a:g}]",
            series=[
                Series("1 - cos", t[1:], 1 - cos[1:]),
                Series("margin gap / gamma_svm", t[1:], 1 - gamma[1:] / gamma_svm, "--"),
            ],
            xlabel="(a+1) t / 2",
            ylabel="",
            logx=True,
            logy=True,
        )
    ctx.note(
        "Logistic part: w_svm is the hard-margin SVM without intercept (SLSQP active set, exact re-solve, "
        f"KKT verified). 1 - cos(w_fit, w_svm) at linear time 1e12 is {cos_end[0]:.3g} (its minimum over "
        f"the run, {cos_min[0]:.3g}, is at t~ = {t_min[0]:.3g}; monotone on [1e8, 1e12]: {monotone[0]}). "
        "The direction converges only logarithmically in t, so it is checked through the normalised "
        "margin gamma(t), whose gap to the max margin 1/|w_svm| must close (Soudry et al. 2018: like "
        "1/|w| ~ 1/ln t); a finite-time run can only bound the limiting gap by the final one."
    )


# ------------------------------------------------------------------- App. C.4, (45)


def check_decay_fixed_point(ctx: Context, setup: Setup, run: PairedRun, lam: float, label: str) -> None:
    r"""C.4 fixed point for :math:`\Sigma=I`: :math:`w_{\rm fit}(\infty)=(s-\lambda)\bar\beta` (both nets).

    Remaining distance from the measured contraction of the last two GD steps,
    :math:`\|\Delta_{-1}\|\hat q/(1-\hat q)`, :math:`\hat q=\|\Delta_{-1}\|/\|\Delta_{-2}\|` (linear
    convergence; no credit when :math:`\hat q\ge1`), plus rounding ``16 P eps |w*|`` of the fit.
    """
    P = run.pairing
    worst = {"ratio": -1.0}
    for s in range(P.n_seeds):
        ds = setup.data[s]
        s_norm = np.linalg.norm(ds.beta)
        target = (s_norm - lam) * ds.beta / s_norm
        for k, a in enumerate(P.alphas):
            w = fitted_linear_maps(setup.net, ds, run.relu[s, k, -3:], a)
            d1, d2 = np.linalg.norm(w[2] - w[1]), np.linalg.norm(w[1] - w[0])
            q = d1 / d2 if d2 > 0 else 0.0
            tail = d1 * q / (1 - q) if q < 1 else 0.0
            tol = tail + 16 * ds.P * EPS * np.linalg.norm(target)
            ratio = float(np.linalg.norm(w[2] - target) / tol)
            if ratio > worst["ratio"]:
                worst = {
                    "ratio": ratio,
                    "seed": s,
                    "alpha": a,
                    "distance": float(np.linalg.norm(w[2] - target)),
                    "tolerance": float(tol),
                    "lambda": float(lam),
                    "s": float(s_norm),
                }
    ctx.bound(
        f"fixed point w_fit = (s - lambda) beta_bar for Sigma = I [{label}]: distance / tolerance",
        worst["ratio"],
        1.0,
        why="tolerance = remaining distance (geometric tail from the measured contraction of the last two "
        "recorded increments) + 16 P eps |w*| rounding of the least-squares fit",
        resolution=f"a fixed point farther than {worst['tolerance']:.2g} from (s - lambda) beta_bar, |.| = "
        f"{worst['s'] - worst['lambda']:.3g} (a decay off by a factor 1 + d moves it by d lambda)",
        details=worst,
    )


C4_ALPHAS = (0.0, 0.5)


def _decay_params(ctx: Context) -> tuple[tuple[int, int, int], int, float, float]:
    """Size, seeds, w_init and lr of :func:`_decay_setup`, read by its claims before their first check."""
    size = _sizes(ctx)[0]
    seeds = ctx.param("seeds", tiny=1, quick=2, full=3)
    w_init = ctx.param("w_init", tiny=1e-3, quick=1e-3, full=1e-8)
    lr = ctx.param("lr", tiny=0.1, quick=0.05, full=0.004)
    return size, seeds, w_init, lr


def _decay_setup(ctx: Context, key: str) -> tuple[Setup, float, float, int, np.ndarray]:
    """Whitened Fig. 3 data, Assumption 7; lambda = s/4 (smallest s of the seeds); steps; records."""
    size, seeds, w_init, lr = _decay_params(ctx)
    setup = make_setup(ctx, key, size, seeds, "square", w_init)
    lam = setup.s / 4
    steps = int(np.ceil(2 * transition_horizon(setup.s - lam, w_init) / lr))
    record = np.unique(np.concatenate([np.linspace(0, steps, 41).astype(int), [steps - 2, steps - 1]]))
    return setup, lam, lr, steps, record


def _decay_run(
    ctx: Context, setup: Setup, lam: float, lr: float, steps: int, record: np.ndarray, relu_decay: np.ndarray
) -> PairedRun:
    """Paired GD with weight decay: ReLU ``relu_decay[k]`` per slope, linear ``lam``."""
    pairing = Pairing(C4_ALPHAS, len(setup.data))
    return paired_gd(
        ctx.backend,
        setup.flow,
        pairing,
        setup.data,
        setup.y_lin0,
        lr=lr,
        steps=steps,
        record=record,
        weight_decay=lam,
        relu_decay=relu_decay,
    )


@claim(
    "zhang2025:section-C.4",
    title="Theorem 8 with L2 regularisation: ReLU decay (a+1)/2 lambda <-> linear decay lambda",
    source="App. C.4, eq. (45)",
    statement=r"With weight decay $\lambda_\alpha=\frac{\alpha+1}2\lambda$ (penalty "
    r"$\frac{\lambda_\alpha}2\|W\|^2$) "
    r"the reduced ReLU dynamics are (45); after the scaling (40) they equal the linear dynamics with decay "
    r"$\lambda$ slowed by $\frac{\alpha+1}2$, so Theorem 8 holds with L2 regularisation; for $\Sigma=I$ and "
    r"$\lambda<s$ the fixed point is $w^*=(s-\lambda)\bar\beta$.",
    hypotheses=[
        CONDITION_3,
        RANK_ONE,
        BALANCED,
        SQUARE,
        DECAY,
        WHITE,
        r"fixed point: $\lambda<s=\|\beta\|$",
    ],
)
def section_c4(ctx: Context) -> None:
    from symbolic import reductions as red

    _decay_params(ctx)
    ctx.zero(
        "(45) after (40) = regularised linear flow slowed by (a+1)/2",
        list(red.scaling_difference(regularised=True)),
        why="symbolic W, Sigma, beta, tau, lambda; alpha = 2c^2-1; cancel() to 0",
    )
    bal = red.balancedness_derivative("regularised")
    ctx.zero(
        "balancedness along (45): d/dt B = -(a+1) lambda/tau B (stays 0)", bal["residual"], why="symbolic W"
    )
    ctx.zero(
        "penalty lambda_a/2 ||W||^2 gives the -(a+1)/2 lambda W term of (45)",
        red.regulariser_factor_residual()["corrected"],
        why="symbolic gradient of the penalty",
    )
    setup, lam, lr, steps, record = _decay_setup(ctx, "c4")
    record_regimes(ctx, [setup], white=True)
    c = (np.asarray(C4_ALPHAS) + 1) / 2
    run = _decay_run(ctx, setup, lam, lr, steps, record, c * lam)

    def checks(run, decay) -> None:
        check_gd_equivalence(
            ctx,
            setup,
            run,
            lr,
            decay=decay,
            name="GD with decay: ReLU (lr 2 eta/(a+1), lambda_a) vs linear (lr eta, lambda) step for step "
            f"[{setup.label}]: max_k relative deviation / rounding tolerance",
        )
        check_decay_fixed_point(ctx, setup, run, lam, setup.label)

    checks(run, c * lam)
    ctx.figure(
        "loss with weight decay vs linear time",
        xlabel="(a+1) t / 2",
        ylabel="loss",
        series=[
            *(
                Series(f"ReLU, alpha = {a:g}, lambda_a", run.t, run.loss_relu[0, k])
                for k, a in enumerate(C4_ALPHAS)
            ),
            Series("linear, lambda", run.t, run.loss_lin[0], "--"),
        ],
    )
    with ctx.control(
        "ReLU decay lambda_a = lambda (no (a+1)/2 factor)",
        breaks=DECAY,
        must_break=["GD with decay: *", "fixed point w_fit = (s - lambda) beta_bar *"],
    ):
        bad = _decay_run(ctx, setup, lam, lr, steps, record, np.full_like(c, lam))
        checks(bad, lam)


@claim(
    "zhang2025:section-C.4-printed",
    title="App. C.4 as printed: penalty (a+1)/2 lambda ||W||^2 reproduces (45)",
    source="App. C.4, text before (45)",
    statement=r"The loss $\mathcal L_{\rm reg}=\mathcal L+\frac{\alpha+1}2\lambda\|W\|_2^2$ gives the "
    r"regularised "
    r"reduced dynamics (45), whose decay term is $-\frac{\alpha+1}2\lambda W$, and hence Theorem 8 with a "
    r"linear net "
    r"of decay term $-\lambda\overline W$.",
    hypotheses=[CONDITION_3, RANK_ONE, BALANCED, SQUARE],
    erratum=Erratum(
        r"the printed penalty $\frac{\alpha+1}2\lambda\|W\|^2$ has gradient $(\alpha+1)\lambda W$, twice the "
        r"$-\frac{\alpha+1}2\lambda W$ of (45); (45) needs $\frac{\lambda_\alpha}2\|W\|^2$",
        via="catalog P9; symbolic/reductions.regulariser_factor_residual",
    ),
)
def section_c4_printed(ctx: Context) -> None:
    from symbolic import reductions as red

    _decay_params(ctx)
    ctx.zero(
        "penalty (a+1)/2 lambda ||W||^2 gives the -(a+1)/2 lambda W term of (45)",
        red.regulariser_factor_residual()["printed"],
        why="symbolic gradient of the printed penalty",
    )
    setup, lam, lr, steps, record = _decay_setup(ctx, "c4-printed")
    c = (np.asarray(C4_ALPHAS) + 1) / 2
    run = _decay_run(ctx, setup, lam, lr, steps, record, 2 * c * lam)
    check_gd_equivalence(
        ctx,
        setup,
        run,
        lr,
        decay=2 * c * lam,
        name="GD, ReLU with the printed penalty (decay (a+1) lambda) vs linear with decay lambda "
        f"[{setup.label}]: max_k relative deviation / rounding tolerance",
    )
    ctx.note(
        "The printed penalty (a+1)/2 lambda ||W||^2 enters gradient descent as a decay (a+1) lambda W, "
        "twice the -(a+1)/2 lambda W of (45). Theorem 8 with L2 regularisation survives under any "
        "CONSISTENT convention: penalty c ||W||^2 on the ReLU net and the same c/((a+1)/2) ||W||^2 on the "
        "linear net (e.g. the printed (a+1)/2 lambda ||W||^2 against lambda ||W||^2, i.e. linear decay 2 "
        "lambda); the claim zhang2025:section-C.4 checks the convention that reproduces (45) exactly."
    )


# ----------------------------------------------------------- App. C.5, C.6 (Fig. 7b-d)


def sharpness(
    be: Backend,
    flow: GradientFlow,
    ds: Dataset,
    y: np.ndarray,
    rng: np.random.Generator,
    alpha: float = 1.0,
    iters: int = 60,
) -> float:
    r"""Top Hessian eigenvalue :math:`\lambda_{\max}` of the loss at the flat state ``y`` ``(N,)``.

    Power iteration on central-difference Hessian-vector products of the gradient field
    (step ``1e-5 |y|``, relative error ~1e-10 for this smooth, piecewise-polynomial loss).
    GD with learning rate above :math:`2/\lambda_{\max}` cannot settle at this minimum.
    """
    args = flow.args(be, ds.X, ds.y, alpha=alpha)
    v = rng.normal(size=(1, y.size))
    v /= np.linalg.norm(v)
    t = be.asarray(np.zeros(1))
    h = 1e-5 * max(np.linalg.norm(y), 1.0)
    lam = 0.0
    for _ in range(iters):
        plus = to_numpy(flow(t, be.asarray(y[None] + h * v), args))
        minus = to_numpy(flow(t, be.asarray(y[None] - h * v), args))
        hv = -(plus - minus) / (2 * h)
        lam = float((hv * v).sum())
        v = hv / np.linalg.norm(hv)
    return lam


def gaussian_pairs(
    ctx: Context, key: str, size: tuple[int, int, int], n_seeds: int, w_init: float, *, symmetric: bool = True
) -> Setup:
    """Fig. 3 data (not whitened, as in the paper) and App. H Gaussian linear initial states."""
    from numeric.initializations import gaussian

    D, H, P = size
    rng = ctx.rng(f"{key}/{D}x{H}x{P}")
    data = []
    for _ in range(n_seeds):
        ds = gaussian_teacher(rng.host, P // 2 if symmetric else P, D, symmetric=symmetric)
        data.append(ds)
    net = two_layer(D, H)
    y0 = to_numpy(net.pack(gaussian(net, rng, n_seeds, w_init)))
    sym = "" if symmetric else ", NOT symmetric"
    return Setup(
        net, GradientFlow(net, Loss("square")), data, y0, w_init, f"square, D={D}, H={H}, P={P}{sym}"
    )


def gd_errors(run: PairedRun) -> tuple[np.ndarray, np.ndarray]:
    r"""Max over steps of the relative weight error (Fig. 3b's) and of the relative loss gap, ``(S, K)``."""
    loss_gap = np.abs(run.loss_relu - run.loss_lin[:, None]) / run.loss_lin[:, None]
    return run.relative_deviation.max(-1), loss_gap.max(-1)


def _fig7_sizes(ctx: Context) -> tuple[tuple[int, int, int], int]:
    D = ctx.param("D", tiny=4, quick=10, full=20)
    H = ctx.param("H", tiny=16, quick=50, full=500)
    P = ctx.param("P", tiny=40, quick=160, full=2000)
    seeds = ctx.param("seeds", tiny=1, quick=2, full=3)
    ctx.require(P >= 2 * D, f"need P >= 2 D, got P={P}, D={D}")
    return (D, H, P), seeds


SMALL_LR = 0.1  # the reference learning rate of the large-lr comparison (Fig. 3 used 0.004)
C5_ALPHAS = (0.0, 0.5)


def _relative_to_baseline(
    ctx: Context, name: str, big: np.ndarray, base: np.ndarray, lr: float, label: str
) -> None:
    ratio = big / base
    s, k = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
    ctx.bound(
        f"{name} at lr {lr:g} / same at lr {SMALL_LR:g} [{label}]",
        float(ratio.max()),
        2.0,
        why="under Assumption 7 the lr-rescaled GD maps are conjugate for every lr (exact, checked "
        "above), so the only error source is the off-manifold part of the Gaussian init, which Fig. 3b's "
        f"small-lr run already shows; 'small differences' = no worse than at lr {SMALL_LR:g}, up to a "
        "factor 2 for the O(lr) change of the path",
        details={
            "seed": int(s),
            "alpha": C5_ALPHAS[k],
            "at lr": float(big[s, k]),
            f"at lr {SMALL_LR:g}": float(base[s, k]),
        },
    )


@claim(
    "zhang2025:section-C.5",
    title="Large learning rate (0.6): collapse and small weight differences persist; beyond it, "
    "oscillation breaks them",
    source="App. C.5, Fig. 7b",
    statement=r"With learning rate 0.6 (150 x Fig. 3's) and the time rescaled by inversely rescaling the "
    r"ReLU learning "
    r"rate, the loss curves of all $\alpha$ collapse and the weight differences are small; for larger "
    r"learning rates "
    r"the loss oscillates and the equivalence of Theorem 8 no longer holds.",
    hypotheses=[
        "Fig. 3 setting: symmetric Gaussian data, square loss, App. H Gaussian init (small)",
        r"GD, ReLU learning rate $2\eta/(\alpha+1)$ vs linear $\eta$",
        STABLE_LR,
    ],
)
def section_c5(ctx: Context) -> None:
    size, seeds = _fig7_sizes(ctx)
    lr = ctx.param("lr", tiny=0.6, quick=0.6, full=0.6)
    w_init = ctx.param("w_init", tiny=1e-4, quick=1e-8, full=1e-8)
    exact = make_setup(ctx, "c5-a7", size, 1, "square", w_init, white=False)
    check_gd_equivalence(ctx, exact, gd_pair(ctx, exact, C5_ALPHAS, lr), lr)
    setup = gaussian_pairs(ctx, "c5", size, seeds, w_init)
    base = gd_pair(ctx, setup, C5_ALPHAS, SMALL_LR)
    big = gd_pair(ctx, setup, C5_ALPHAS, lr)
    base_w, base_L = gd_errors(base)
    big_w, big_L = gd_errors(big)
    _relative_to_baseline(ctx, "max relative weight error", big_w, base_w, lr, setup.label)
    rng = ctx.rng("sharpness").host
    lam = max(sharpness(ctx.backend, setup.flow, ds, base.lin[s, -1], rng) for s, ds in enumerate(setup.data))
    ctx.regime(STABLE_LR, lr_lambda=lr * lam)
    ctx.note(
        f"Measured (Gaussian init, {setup.label}, {seeds} seeds, alphas {list(C5_ALPHAS)}): max relative "
        f"weight error {big_w.max():.3g} at lr {lr:g} vs {base_w.max():.3g} at lr {SMALL_LR:g}; max "
        f"relative loss gap |L_a - L_lin|/L_lin {big_L.max():.3g} vs {base_L.max():.3g} (the loss curves "
        "collapse to the same degree; the gap near the drop grows by an O(lr) factor, the 'less smooth' "
        "curves of the paper, which is why the check is on the weights). Stability threshold of the "
        f"linear net at its solution: 2/lambda_max = {2 / lam:.3g} (lambda_max = {lam:.3g}), so lr {lr:g} "
        f"is {lr * lam / 2:.2f} x the threshold. In the paper's setting (D=20, P=2000) we estimate "
        "lambda_max ~ 2|w*| lambda_max(Sigma) ~ 3.1, i.e. 0.6 is close to the edge of stability (run "
        "--profile full)."
    )
    ctx.figure(
        "loss: lr-rescaled GD at the large lr",
        xlabel="linear time eta k",
        ylabel="loss",
        logy=True,
        series=[
            *(
                Series(f"ReLU alpha = {a:g}, lr 2 eta/(a+1)", big.t, big.loss_relu[0, k])
                for k, a in enumerate(C5_ALPHAS)
            ),
            Series(f"linear, lr {lr:g}", big.t, big.loss_lin[0], "--"),
        ],
    )
    beyond = 1.5 * 2 / lam
    with ctx.control(
        f"lr = 1.5 x 2/lambda_max = {beyond:.3g} (beyond the stability threshold)",
        breaks=STABLE_LR,
        must_break=["max relative weight error at lr * / same at lr *"],
    ):
        over = gd_pair(ctx, setup, C5_ALPHAS, beyond)
        over_w, over_L = gd_errors(over)
        _relative_to_baseline(ctx, "max relative weight error", over_w, base_w, beyond, setup.label)
        ctx.note(
            f"Beyond the threshold (lr {beyond:.3g}): max relative weight error {over_w.max():.3g}, max "
            f"relative loss gap {over_L.max():.3g}, final linear loss {over.loss_lin[:, -1].max():.4g} vs "
            f"{base.loss_lin[:, -1].max():.4g} at lr {SMALL_LR:g} (GD cannot settle: the loss oscillates)."
        )
        ctx.figure(
            "control: loss beyond the stability threshold",
            xlabel="linear time eta k",
            ylabel="loss",
            logy=True,
            series=[
                *(
                    Series(f"ReLU alpha = {a:g}", over.t, over.loss_relu[0, k])
                    for k, a in enumerate(C5_ALPHAS)
                ),
                Series("linear", over.t, over.loss_lin[0], "--"),
            ],
        )


@claim(
    "zhang2025:section-C.6",
    title="Large initialisation: collapse persists, weight errors < 3%",
    source="App. C.6, Fig. 7c",
    statement=r"Under large initialisation the loss curves of all $\alpha$ still collapse after "
    r"rescaling time (inverse learning-rate rescaling) and the relative weight differences "
    r"$\|\sqrt{\frac{\alpha+1}2}W(\frac2{\alpha+1}t)-W^{\rm lin}(t)\|/\|W^{\rm lin}(t)\|$ stay below 3%.",
    hypotheses=[
        CONDITION_3,
        SQUARE,
        "App. H Gaussian init at a large scale (not stated in the paper; here w_init = 1)",
        r"GD, ReLU learning rate $2\eta/(\alpha+1)$ vs linear $\eta$",
    ],
)
def section_c6(ctx: Context) -> None:
    D = ctx.param("D", tiny=4, quick=20, full=20)
    H = ctx.param("H", tiny=16, quick=500, full=500)
    P = ctx.param("P", tiny=40, quick=60, full=2000)
    seeds = ctx.param("seeds", tiny=2, quick=3, full=3)
    w_init = ctx.param("w_init", tiny=1.0, quick=1.0, full=1.0)
    lr = ctx.param("lr", tiny=0.2, quick=0.2, full=0.004)
    T = ctx.param("T", tiny=30.0, quick=30.0, full=30.0)
    steps = int(np.ceil(T / lr))
    record = np.unique(np.linspace(0, steps, 61).astype(int))
    if (P, lr) != (2000, 0.004):
        ctx.reduced_scale(
            f"P = {P}, lr = {lr:g} for Fig. 3's P = 2000, lr = 0.004 (full profile); the weight error of a "
            "Gaussian init depends on the data and the path, so a reduced-scale value is not the paper's"
        )

    def measure(setup: Setup) -> PairedRun:
        run = paired_gd(
            ctx.backend,
            setup.flow,
            Pairing(C5_ALPHAS, len(setup.data)),
            setup.data,
            setup.y_lin0,
            lr=lr,
            steps=steps,
            record=record,
        )
        err, gap = gd_errors(run)
        s, k = np.unravel_index(int(np.argmax(err)), err.shape)
        ctx.bound(
            f"max_t relative weight error < 3% [{setup.label}, w_init = {w_init:g}]",
            float(err.max()),
            0.03,
            why="the paper's bound (App. C.6, Fig. 7c); the worst seed and slope are reported",
            details={
                "seed": int(s),
                "alpha": C5_ALPHAS[k],
                "errors (seed x alpha)": err.tolist(),
                "max relative loss gap": float(gap.max()),
                "lr": lr,
                "steps": steps,
            },
        )
        return run

    run = measure(gaussian_pairs(ctx, "c6", (D, H, P), seeds, w_init))
    ctx.figure(
        "relative weight error, large init",
        xlabel="linear time eta k",
        ylabel="relative weight error",
        series=[
            Series(f"seed {s}, alpha = {a:g}", run.t, run.relative_deviation[s, k])
            for s in range(run.pairing.n_seeds)
            for k, a in enumerate(C5_ALPHAS)
        ]
        + [Series("3% (paper's bound)", run.t[[0, -1]], [0.03, 0.03], "--")],
    )
    ctx.note(
        "The paper does not state its large initialisation scale; we use App. H's Gaussian init with "
        f"w_init = {w_init:g} (||W_l(0)|| ~ 1) and learning rate {lr:g} (the lr-rescaled comparison hardly "
        "depends on lr: the error comes from the off-manifold part of the init, which grows with w_init "
        "and, per the catalog, shrinks like H^-1/2)."
    )
    with ctx.control(
        "data without the mirrored points",
        breaks=CONDITION_3,
        must_break=["max_t relative weight error < 3% *"],
    ):
        measure(gaussian_pairs(ctx, "c6-asym", (D, H, P), 1, w_init, symmetric=False))
