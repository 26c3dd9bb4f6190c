r"""zhang2025 Section 4.2 and App. D: orthogonal and XOR-like data.

Claims: Assumption 17 (the block form (46) -- reached from small random init?),
Proposition 18 (on (46) the two-layer ReLU net is two independent linear nets; Bernoulli
closed form of :math:`u_C(t)`), Figures 4, 8, 9 (ReLU loss curves overlay those of
separately trained linear nets).

Linear partners.  The partner of a group :math:`\mathcal S` of training points is a
*linear* net (``alpha = 1``) of the same width trained on the same data with every point
outside :math:`\mathcal S` replaced by :math:`x=0`: such a point has :math:`f(0)=0` and
contributes no gradient, so the partner trains on :math:`\mathcal S` alone while the loss
keeps the normalisation of the whole dataset -- exactly the :math:`1/P` of (49) (catalog
pitfall P12).  ReLU net and partners start from the SAME weights and run in ONE batched
exact-GD solve (per-member inputs ``X`` of shape ``(B, P, D)``); shorter datasets are padded
with zero rows, which are inert for the same reason.

Why the overlay is asymptotic.  From small init a group's loss drops once its weights have
grown by :math:`e^{s_{\mathcal S}t}` from the initial amplitude :math:`G\,w_{\rm init}` of the
growing mode, so :math:`t_{\rm drop}=\ln(1/(G w_{\rm init}))/s+O(1)`.  In the ReLU net only the
neurons initially active on every point of the group (and of the right output sign) take
part, so :math:`G_{\rm ReLU}<G_{\rm lin}`: the ReLU drop is late by
:math:`\Delta t=\ln(G_{\rm lin}/G_{\rm ReLU})/s=O(1)`, and the *relative* timing error decays
like :math:`1/t_{\rm drop}\propto1/\ln(1/w_{\rm init})` -- if such covering neurons exist.
Neurons active on only part of a group grow at a smaller rate and, for groups of several
points, dominate unless the width is :math:`\gg2^{|\mathcal S|+2}`.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass

import numpy as np
from scipy.linalg import expm
from scipy.stats import t as student_t

from numeric.backend import to_numpy
from numeric.data.datasets import Dataset, boursier_orthogonal, orthogonal, xor_like
from numeric.data.initializations import gaussian
from numeric.engine.descent import gradient_descent
from numeric.models.losses import Loss
from numeric.models.networks import BiasFreeNet
from numeric.models.vector_fields import GradientFlow
from verify import evidence
from verify.claim import claim
from verify.context import Context, Series
from verify.papers.zhang2025.deep import (
    GRAD_RESOLUTION,
    GRAD_TOL,
    GRAD_WHY,
    gradient_rounding_scale,
    layer_deviation,
    true_field,
)
from verify.papers.zhang2025.figures import next_order_tolerance, pooled_tolerance
from verify.papers.zhang2025.hypotheses import (
    FORM_46,
    ORTHOGONAL,
    ORTHONORMAL,
    RELU,
    SIGMA0,
    SMALL_INIT,
    SQUARE,
    TWO_LAYER,
)
from verify.papers.zhang2025.paired_runs import SAFETY
from verify.papers.zhang2025.regimes import record_orthogonal, record_orthonormal

EPS = float(np.finfo(np.float64).eps)
PROP18_LABELS = (1.0, 0.5, 2.0, 1.5, -1.0, -0.5, -2.0, -1.0)
# What the paper states (the only statements behind Figs. 4, 8, 9): Section 4.2, "We find that the timing
# and the amount of the loss drop overlap with the loss curves of the two linear networks", "the loss curves
# of a two-layer bias-free ReLU network trained on the XOR task overlap with four linear networks trained on
# each data point separately"; Fig. 9's caption, "The loss curve of the ReLU network overlaps with those of
# the two linear networks"; Fig. 8's, "The same as Figure 4 but with logistic loss". No rate is stated or
# derived: the order 1 in 1/ln(1/w_init) is this module's derivation (bounded offset, module docstring).
VANISH_WHY = (
    "the paper states only that the curves overlap ('the timing and the amount of the loss drop overlap', "
    "Section 4.2; 'The loss curve of the ReLU network overlaps with those of the two linear networks', Fig. "
    "9) at one w_init, with no tolerance and no rate; read asymptotically (the overlap is exact only in the "
    "block form (46), reached from random init as w_init -> 0): the relative drop-time lag r = (t_ReLU - "
    "t_lin)/t_lin tends to 0 as w_init -> 0 under gradient flow. Both drop times are affine in ln(1/w_init) "
    "(one growing mode each, module docstring), so r = A + B/t_lin with A = s_lin/s_ReLU - 1: a bounded "
    "offset is A = 0, a lag by a constant FACTOR (a smaller growth rate) is A != 0. A is fitted per step "
    "(lag_limit) at the run's lr and at lr/2 and Richardson-extrapolated to lr -> 0 (check_lag: GD alone "
    "leaves A proportional to lr, 0.0047 at lr 0.01 for the XOR-like point 0). Tolerance derived, not "
    "chosen: the fits' 95% half-widths, the shift of A by relative O(w_init) corrections of both drop "
    "times (coefficient 1: the components of W(0) that do not grow stay O(w_init)) and the Richardson "
    "remainder |A(lr) - A(lr/2)| lr s_max; undecided while that tolerance is not below the smallest lag "
    "measured. Time resolution: the half-loss crossing is interpolated between GD records <= 0.2 time "
    "units apart. Resolution: a limiting relative lag larger than the tolerance (reported per check), e.g. "
    "the leaky controls' 0.07-0.20. An offset growing sublinearly in t_drop would read as A > 0 with "
    "curved residuals (wider interval). The order of r in 1/t_drop (1 for a bounded offset) is a note"
)


def order_tolerance(x: np.ndarray, err: np.ndarray, w_init: np.ndarray) -> float:
    r"""Tolerance of a drop-time order (``VANISH_WHY``): the half-width of the 95% interval of the
    fitted slope of ``ln err`` on ``ln x`` plus :math:`2\ln(1+w_{\max})/\ln(x_{\max}/x_{\min})`, the
    largest shift of a fitted order by relative :math:`O(w_{\rm init})` corrections (coefficient 1)."""
    fit = evidence.fit_order(x, err)
    return (fit.hi - fit.lo) / 2 + float(2 * np.log1p(np.max(w_init)) / np.log(np.max(x) / np.min(x)))


def lag_limit(x: np.ndarray, r: np.ndarray, w_init: np.ndarray) -> tuple[float, float]:
    r"""Limit :math:`A` of the signed relative lag :math:`r=(t_{\rm ReLU}-t_{\rm lin})/t_{\rm lin}` as
    :math:`x=1/t_{\rm lin}\to0`, read off the fit :math:`r=A+Bx`, and its uncertainty (:func:`check_lag`).

    If both drop times are affine in :math:`\ln(1/w_{\rm init})` (one growing mode each, module docstring),
    :math:`r=A+Bx` exactly with :math:`A=s_{\rm lin}/s_{\rm ReLU}-1`: a bounded offset is :math:`A=0`, a
    constant-factor lag :math:`A\ne0`; an offset growing sublinearly biases :math:`A` upwards. Uncertainty:
    the 95% half-width (Student t) plus :math:`\sum_i|c_i|\,2w_i(1+|r_i|)/(1-w_i)`, the largest shift of
    :math:`A=\sum_ic_ir_i` by relative :math:`O(w_{\rm init})` corrections of both drop times.
    """
    design = np.c_[np.ones_like(x), x]
    cinv = np.linalg.inv(design.T @ design)
    coef = cinv @ design.T @ r
    dof = len(r) - 2
    if dof < 1:
        return float(coef[0]), math.inf
    resid = r - design @ coef
    half = float(student_t.ppf(0.975, dof)) * math.sqrt(float(resid @ resid) / dof * cinv[0, 0])
    drift = float(np.sum(np.abs((cinv @ design.T)[0]) * 2 * w_init * (1 + np.abs(r)) / (1 - w_init)))
    return float(coef[0]), half + drift


# ---------------------------------------------------------------- groups, blocks (46)


def label_groups(y: np.ndarray) -> list[np.ndarray]:
    """``[S_A, S_B]``: indices of the positive and of the negative labels (47)."""
    return [np.flatnonzero(y > 0), np.flatnonzero(y < 0)]


def group_rate(ds: Dataset, idx: np.ndarray, loss: Loss) -> float:
    r"""Growth rate :math:`s=\|\sum_{\mu\in\mathcal S}y_\mu x_\mu\|\,c` of a group from small init
    (:math:`c=1/P` for the mean loss, 1 for the sum; logistic: the same at :math:`f=0` up to 1/2)."""
    c = 1.0 / ds.P if loss.reduction == "mean" else 1.0
    return float(np.linalg.norm(ds.y[idx] @ ds.X[idx])) * c


def bbar(ds: Dataset, idx: np.ndarray, sign: float) -> np.ndarray:
    r""":math:`\bar\beta_C` of (47): the normalised :math:`\pm\sum_{\mu\in\mathcal S_C}y_\mu x_\mu`."""
    v = ds.y[idx] @ ds.X[idx]
    return sign * v / np.linalg.norm(v)


def block_state(rng: np.random.Generator, ds: Dataset, n_block: int, u: Sequence[float]) -> list[np.ndarray]:
    r"""(46): :math:`W_1=[u_Ar_A\bar\beta_A^\top;u_Br_B\bar\beta_B^\top]`,
    :math:`W_2=[u_Ar_A^\top,-u_Br_B^\top]` with random non-negative unit :math:`r_C`,
    ``n_block`` units per block; host arrays (1, ., .)."""
    W1, W2 = [], []
    for (idx, sign), uC in zip(zip(label_groups(ds.y), (1.0, -1.0), strict=True), u, strict=True):
        r = np.abs(rng.normal(size=n_block)) + 0.05
        r /= np.linalg.norm(r)
        W1.append(uC * np.outer(r, bbar(ds, idx, sign)))
        W2.append(sign * uC * r)
    return [np.concatenate(W1)[None], np.concatenate(W2)[None, None]]


def distance_to_blocks(W1: np.ndarray, w2: np.ndarray, ds: Dataset) -> float:
    r"""Relative distance of ONE net ``(W1 (H, D), w2 (H,))`` to the nearest state of the form (46).

    (46) says every unit is a pair :math:`(v\,\bar\beta_C^\top, \pm v)` with :math:`v\ge0` and its
    block's sign.  For unit :math:`h` and block :math:`C` with :math:`a=W_1[h]\bar\beta_C` the
    nearest such pair has :math:`v=\max(0,(a\pm w_{2h})/2)`, at squared distance
    :math:`\|W_1[h]-a\bar\beta_C^\top\|^2+(a-v)^2+(w_{2h}\mp v)^2`; each unit takes its nearer
    block.  Returned: :math:`\sqrt{\sum_h d_h^2}/\|(W_1,W_2)\|`.
    """
    cands = []
    for idx, sign in zip(label_groups(ds.y), (1.0, -1.0), strict=True):
        b = bbar(ds, idx, sign)
        a = W1 @ b
        v = np.maximum(0.0, (a + sign * w2) / 2)
        cands.append(
            np.sum((W1 - a[:, None] * b[None, :]) ** 2, axis=1) + (a - v) ** 2 + (w2 - sign * v) ** 2
        )
    return float(np.sqrt(np.minimum(*cands).sum() / (np.sum(W1**2) + np.sum(w2**2))))


# ---------------------------------------------------------------- ReLU vs linear partners


@dataclass(frozen=True)
class Problem:
    """A dataset, its groups of points (one linear partner each), the loss and the ReLU slope."""

    name: str
    data: Dataset
    groups: list[np.ndarray]
    loss: Loss
    alpha: float = 0.0


@dataclass(frozen=True)
class Overlay:
    """Partial losses (per group) of the ReLU net and of each partner, per seed and w_init."""

    problem: Problem
    t: np.ndarray  # (K,)
    w_init: np.ndarray  # (W,)
    relu: np.ndarray  # (G, S, W, K): the ReLU net's loss on group g
    lin: np.ndarray  # (G, S, W, K): partner g's loss on group g
    censored: bool  # some drop was not reached by the end of the run
    lr: float  # the GD step

    @property
    def rates(self) -> np.ndarray:
        return np.array([group_rate(self.problem.data, g, self.problem.loss) for g in self.problem.groups])

    def drop_times(self) -> tuple[np.ndarray, np.ndarray]:
        """First times the group losses fall to half their initial value, ReLU and partner, (G, S, W)."""
        return drop_time(self.t, self.relu), drop_time(self.t, self.lin)

    def relative_timing_error(self) -> np.ndarray:
        t_relu, t_lin = self.drop_times()
        return np.abs(t_relu - t_lin) / t_lin


def drop_time(t: np.ndarray, loss: np.ndarray) -> np.ndarray:
    """First time ``loss[..., k] <= loss[..., 0]/2`` (linear interpolation; ``t[-1]`` if never)."""
    flat = loss.reshape(-1, loss.shape[-1])
    out = np.full(flat.shape[0], t[-1])
    for i, row in enumerate(flat):
        half = row[0] / 2
        k = int(np.argmax(row <= half))
        if row[k] <= half and k > 0:
            out[i] = t[k - 1] + (row[k - 1] - half) / (row[k - 1] - row[k]) * (t[k] - t[k - 1])
    return out.reshape(loss.shape[:-1])


def _members(problems: Sequence[Problem], n_w: int, n_seeds: int) -> list[tuple[int, int, int, int]]:
    """Member layout ``(problem, seed, w index, role)``; role 0 = ReLU, g+1 = partner of group g."""
    return [
        (p, s, w, role)
        for p, prob in enumerate(problems)
        for s in range(n_seeds)
        for w in range(n_w)
        for role in range(len(prob.groups) + 1)
    ]


def run_overlays(
    ctx: Context,
    key: str,
    problems: Sequence[Problem],
    H: int,
    w_grid: Sequence[float],
    n_seeds: int,
    lr: float,
    T: float,
) -> list[Overlay]:
    """ONE exact-GD run of every problem's ReLU net and linear partners (module docstring).

    All problems must share the loss; their datasets are padded to a common ``(P, D)``.
    Member ``(p, s, w)`` and its partners start from the same draw ``ctx.rng(key/s)`` scaled
    to Frobenius norm ``w`` per layer (App. H).
    """
    be = ctx.backend
    loss = problems[0].loss
    P = max(p.data.P for p in problems)
    D = max(p.data.D for p in problems)
    net = BiasFreeNet((D, H, 1), kink=0.0)
    flow = GradientFlow(net, loss)
    members = _members(problems, len(w_grid), n_seeds)
    X = np.zeros((len(members), P, D))
    y = np.zeros((len(members), P))
    alpha = np.zeros(len(members))
    base = [gaussian(net, ctx.rng(f"{key}/{s}"), 1, 1.0) for s in range(n_seeds)]
    Ws = [np.zeros((len(members), *shape)) for shape in net.shapes]
    for b, (p, s, w, role) in enumerate(members):
        ds = problems[p].data
        keep = np.ones(ds.P, bool) if role == 0 else np.isin(np.arange(ds.P), problems[p].groups[role - 1])
        X[b, : ds.P, : ds.D] = ds.X * keep[:, None]
        y[b, : ds.P] = ds.y
        alpha[b] = problems[p].alpha if role == 0 else 1.0
        for l in range(2):
            Ws[l][b] = to_numpy(base[s][l][0]) * w_grid[w]
    steps = int(np.ceil(T / lr))
    record = np.unique(np.r_[np.arange(0, steps, max(1, steps // 1500)), steps])
    args = flow.args(be, X, y, alpha=alpha)

    def observe(t, state, a):
        return {"f": flow.outputs(state, a)}

    traj = gradient_descent(
        flow,
        net.pack([be.asarray(W) for W in Ws]),
        lr=lr,
        steps=steps,
        record=record,
        args=args,
        observe=observe,
        save_state=False,
    )
    f = to_numpy(traj.observed["f"])  # (B, K, P)
    return [
        _split(problems, p, members, f, y, record * lr, np.asarray(w_grid), n_seeds, lr)
        for p in range(len(problems))
    ]


def _split(problems, p, members, f, y, t, w_grid, n_seeds, lr) -> Overlay:
    """Partial group losses of problem ``p`` from the batched outputs."""
    prob = problems[p]
    ds, loss = prob.data, prob.loss
    c = 1.0 / ds.P if loss.reduction == "mean" else 1.0
    G, K = len(prob.groups), len(t)
    relu = np.zeros((G, n_seeds, len(w_grid), K))
    lin = np.zeros_like(relu)
    for b, (q, s, w, role) in enumerate(members):
        if q != p:
            continue
        per = c * to_numpy(loss.per_sample(f[b, :, : ds.P], np.broadcast_to(y[b, : ds.P], (K, ds.P))))
        for g, idx in enumerate(prob.groups):
            if role == 0:
                relu[g, s, w] = per[:, idx].sum(axis=1)
            elif role == g + 1:
                lin[g, s, w] = per[:, idx].sum(axis=1)
    censored = bool(np.any(relu[..., -1] > relu[..., 0] / 2) or np.any(lin[..., -1] > lin[..., 0] / 2))
    return Overlay(prob, t, w_grid, relu, lin, censored, lr)


def plateau_tolerance(w: np.ndarray, gap: np.ndarray) -> float:
    r"""Tolerance of the plateau-gap order over the ``w_init`` grid ``w`` (W,), gaps ``(S, W)``.

    Three standard errors of the pooled log-log slope (every seed) plus the shift of a fitted order
    by a prefactor :math:`1+1/\ln(1/w)`: the gap is evaluated at :math:`t_{\rm mid}`, the geometric
    mean of two drop times :math:`\ln(1/w)/s+O(1)`, so its exponent carries an O(1) offset relative to
    :math:`\ln(1/w)`, a relative correction :math:`O(1/\ln(1/w))` (coefficient taken as 1). Across
    the grid that moves the fitted order by at most
    :math:`\ln(1+1/\ln(1/w_{\max}))/\ln(w_{\max}/w_{\min})`.
    """
    w = np.asarray(w, float)
    drift = np.log1p(1 / np.log(1 / w.max())) / np.log(w.max() / w.min())
    return pooled_tolerance(np.broadcast_to(w, gap.shape), np.maximum(gap, EPS)) + float(drift)


def plateau_gap(ov: Overlay) -> tuple[np.ndarray, float]:
    r"""Gap :math:`|\mathcal L_{\rm ReLU}-\sum_g\mathcal L^{\rm lin}_g|/\mathcal L(0)` on the plateau
    before the last drop (at the geometric mean of the partners' last two drop times), (S, W),
    and its predicted order in :math:`w_{\rm init}`.

    On that plateau the faster group's residual decays like
    :math:`w^{2(\sqrt{s_k/s_{k+1}}-1)}` and the slower group's deficit grows like
    :math:`w^{2-2\sqrt{s_{k+1}/s_k}}` (drop times :math:`\ln(1/w)/s`); ReLU and partners differ in
    the prefactors only, so the gap decays with the smaller exponent
    :math:`2(1-\sqrt{s_{k+1}/s_k})` (square loss; the logistic residual decays like 1/t instead).
    """
    _, t_lin = ov.drop_times()
    order = np.argsort(t_lin.mean(axis=(1, 2)))
    last, prev = order[-1], order[-2]
    t_mid = np.sqrt(t_lin[last] * t_lin[prev])  # (S, W)
    total_relu = ov.relu.sum(axis=0)
    total_lin = ov.lin.sum(axis=0)
    k = np.abs(ov.t[None, None, :] - t_mid[..., None]).argmin(axis=-1)
    pick = np.take_along_axis
    gap = np.abs(pick(total_relu, k[..., None], -1) - pick(total_lin, k[..., None], -1))[..., 0]
    s = ov.rates
    return gap / total_relu[..., 0], 2.0 * (1.0 - np.sqrt(s[last] / s[prev]))


def group_lag(ov: Overlay, g: int) -> tuple[float, float, float]:
    """:func:`lag_limit` of group ``g`` on the seed-mean signed lags, and the smallest mean lag measured
    (at the smallest ``w_init``)."""
    t_relu, t_lin = ov.drop_times()
    r = ((t_relu[g] - t_lin[g]) / t_lin[g]).mean(axis=0)
    return (*lag_limit(1.0 / t_lin[g].mean(axis=0), r, ov.w_init), float(abs(r[-1])))


def lag_extrapolation(ov: Overlay, fine: Overlay, g: int) -> tuple[float, float, float, float, float]:
    r"""Group ``g``'s lag limits :math:`A(\eta)`, :math:`A(\eta/2)` (:func:`group_lag` at the steps ``ov.lr``
    and ``fine.lr`` :math:`=\eta/2`), their Richardson extrapolation :math:`A_0=2A(\eta/2)-A(\eta)`, its
    uncertainty :math:`u=2u(\eta/2)+u(\eta)+|A(\eta)-A(\eta/2)|\,\eta s_{\max}` (the last term: the
    second-order remainder, the GD map's corrections being a series in :math:`\eta s`, coefficient ratio 1)
    and the smallest lag measured (at ``fine.lr``)."""
    if not np.isclose(fine.lr, ov.lr / 2):
        raise ValueError(f"check_lag extrapolates from lr and lr/2, got {ov.lr:g} and {fine.lr:g}")
    coarse, u_coarse, _ = group_lag(ov, g)
    limit_fine, u_fine, smallest = group_lag(fine, g)
    u = 2 * u_fine + u_coarse + abs(coarse - limit_fine) * ov.lr * float(ov.rates.max())
    return coarse, limit_fine, 2 * limit_fine - coarse, u, smallest


def check_lag(
    ctx: Context, name: str, ov: Overlay, fine: Overlay, g: int, why: str, *, tol: float | None = None
) -> tuple[bool | None, str]:
    r"""The relative drop-time lag of group ``g`` vanishes as ``w_init -> 0`` under gradient flow
    (``VANISH_WHY``): the Richardson-extrapolated limit :math:`A_0` of :func:`lag_extrapolation` equals 0
    within its :math:`u`, or within ``tol`` (a negative control passes the main run's :math:`u`, never one
    derived from its own data). Undecided while that tolerance is not below the smallest lag measured: the
    grid could not tell that lag from a constant.

    Returns the outcome (``None``: undecided) and a one-line reading for the notes.
    """
    coarse, limit_fine, limit, own, smallest = lag_extrapolation(ov, fine, g)
    u = own if tol is None else tol
    reading = (
        f"limit {coarse:+.4f} (lr {ov.lr:g}), {limit_fine:+.4f} (lr {fine.lr:g}) -> {limit:+.4f} +- {own:.4f}"
        + ("" if tol is None else f" (tolerance: the main run's {tol:.4f})")
    )
    if np.isfinite(limit) and not u < smallest:
        ctx.undecided(
            name,
            f"{why} -- {reading}: the tolerance is not below the smallest lag measured, {smallest:.3g}, so "
            "the grid cannot tell a vanishing lag from a constant one",
            measured=limit,
        )
        return None, reading
    ok = ctx.close(
        name,
        limit,
        0.0,
        atol=u,
        why=f"{why} -- {reading}",
        details={"limit_lr": coarse, "limit_lr_half": limit_fine, "smallest_lag": smallest, "own_u": own},
    )
    return ok, reading


def check_overlay(
    ctx: Context,
    label: str,
    ov: Overlay,
    fine: Overlay,
    paper_w: float | None,
    tols: dict[str, list[float]] | None = None,
) -> tuple[list[bool | None], dict[str, list[float]]]:
    """Per group, the relative drop-time lag vanishes as w_init -> 0 (:func:`check_lag`, from the runs at
    the step ``ov.lr`` and at ``fine.lr``), and, for the square loss, the plateau gap's order; a note gives
    the fitted orders in 1/t_drop against the derived order 1 (a reading: the paper states no rate), under
    ``label`` and, for a control's problem, its name; ``paper_w``: figure and note at the paper's ``w_init``.
    ``tols``: a negative control passes the tolerances the main run returned (its checks use them, never
    ones derived from the control's own data).

    Returns the outcomes of the drop-time checks, one per group (``None``: undecided), and the tolerances
    used (``"lag"`` per group, ``"plateau"``).
    """
    err = ov.relative_timing_error()  # (G, S, W)
    _, t_lin = ov.drop_times()
    timing, readings = [], []
    used: dict[str, list[float]] = {"lag": [], "plateau": []}
    censored = " (some drop not reached by the end: its time is censored at T)" if ov.censored else ""
    for g in range(len(ov.problem.groups)):
        x = 1.0 / np.exp(np.log(t_lin[g]).mean(axis=0))
        e = np.exp(np.log(np.maximum(err[g], EPS)).mean(axis=0))
        name = (
            f"{label}: relative drop-time lag of group {g} ({_describe(ov.problem, g)}) -> 0 as w_init -> 0"
        )
        used["lag"].append(lag_extrapolation(ov, fine, g)[3] if tols is None else tols["lag"][g])
        given = None if tols is None else used["lag"][g]  # a control: the main run's tolerance
        ok, reading = check_lag(ctx, name, ov, fine, g, VANISH_WHY + censored, tol=given)
        timing.append(ok)
        fit = evidence.fit_order(x, e)
        tol = order_tolerance(x, e, ov.w_init)
        readings.append(
            f"group {g}: order {fit.slope:.3f} [{fit.lo:.3f}, {fit.hi:.3f}] +- {tol:.3f}, {reading}"
        )
        ctx.figure(
            name,
            xlabel="1/t_drop of the linear partner",
            ylabel="|t_ReLU - t_lin| / t_lin (geometric mean over seeds)",
            series=[
                Series("measured", x, e, "o"),
                Series(f"fit: order {fit.slope:.3f}", x, np.exp(fit.intercept) * x**fit.slope, "--"),
            ],
            logx=True,
            logy=True,
        )
    heading = label if ov.problem.name in label else f"{label} [{ov.problem.name}]"
    ctx.note(
        f"{heading}: fitted order of the relative drop-time lag in 1/t_drop (95% interval, +- the derived "
        "tolerance) and the limits of the signed lag (lag_limit, check_lag) -- "
        f"{'; '.join(readings)}. A bounded offset Delta t (module docstring) gives order 1 and limit 0; "
        "the paper states no rate, so the order is a reading, not a check."
    )
    if ov.problem.loss.kind == "square" and len(ov.problem.groups) > 1:
        gap, expected = plateau_gap(ov)
        used["plateau"] = [plateau_tolerance(ov.w_init, gap) if tols is None else tols["plateau"][0]]
        ctx.order(
            f"{label}: loss gap on the plateau before the last drop -> 0 like w_init^{expected:.3f}",
            ov.w_init,
            np.exp(np.log(np.maximum(gap, EPS)).mean(axis=0)),
            expected=expected,
            tol=used["plateau"][0],
            why="predicted exponent 2(1 - sqrt(s_slow/s_fast)) (plateau_gap docstring); tolerance = three "
            "standard errors of the pooled slope plus the order shift of an O(1/ln(1/w_init)) correction "
            "(plateau_tolerance); resolution: an error in the exponent above the tolerance, e.g. the "
            "factor 2 or the square root of the rate ratio missing"
            + ("" if tols is None else " -- in this control: the main run's tolerance"),
            xlabel="w_init",
            ylabel="plateau gap / L(0)",
        )
    if paper_w is not None:
        k = int(np.argmin(np.abs(np.log(ov.w_init / paper_w))))
        ctx.note(
            f"{label}: at the paper's w_init = {paper_w:g} the relative drop-time errors per group are "
            f"{np.round(err[:, :, k].max(axis=1), 4).tolist()} (worst seed); the max loss gap max_t |L_ReLU "
            f"- sum L_lin| / L(0) is {overlay_max_gap(ov)[:, k].max():.3g} -- an O(1) offset Delta t of an "
            "O(1)-wide drop, which does not shrink with w_init (only relative to t_drop does it)."
        )
        _overlay_figure(ctx, label, ov, k)
    return timing, used


def _describe(problem: Problem, g: int) -> str:
    """``points [0, 2]`` for small groups, ``10 points labelled +1`` for large ones."""
    idx = problem.groups[g]
    if len(idx) <= 4:
        return f"points {idx.tolist()}"
    return f"{len(idx)} points labelled {problem.data.y[idx[0]]:+g}"


def overlay_max_gap(ov: Overlay) -> np.ndarray:
    """``max_t |L_ReLU(t) - sum_g L_g^lin(t)| / L(0)``, (S, W)."""
    total_relu, total_lin = ov.relu.sum(axis=0), ov.lin.sum(axis=0)
    return np.max(np.abs(total_relu - total_lin), axis=-1) / total_relu[..., 0]


def _overlay_figure(ctx: Context, label: str, ov: Overlay, k: int) -> None:
    """ReLU total loss and the sum of the partners' losses (seed 0, w_init index k)."""
    t = ov.t[1:]
    series = [
        Series("ReLU", t, ov.relu.sum(axis=0)[0, k, 1:]),
        Series("sum of linear partners", t, ov.lin.sum(axis=0)[0, k, 1:], "--"),
    ]
    series += [Series(f"partner {g}", t, ov.lin[g, 0, k, 1:], ":") for g in range(len(ov.problem.groups))]
    ctx.figure(
        f"{label}: loss curves at w_init = {ov.w_init[k]:g}",
        series=series,
        xlabel="t = lr x step",
        ylabel="loss",
    )


# ---------------------------------------------------------------- Figures 4, 8, 9

FIG4_W = 1e-6  # App. H: w_init of Figs. 4 and 8 (Boursier et al. 2022)


def perturbed(ds: Dataset, rng: np.random.Generator, eps: float = 0.15) -> Dataset:
    r"""Control data :math:`x_\mu\leftarrow x_\mu+\varepsilon\|x_\mu\|\xi_\mu`,
    :math:`\xi\sim\mathcal N(0,I)` (no longer orthogonal)."""
    X = ds.X + eps * np.linalg.norm(ds.X, axis=1, keepdims=True) * rng.normal(size=ds.X.shape)
    return Dataset(X, ds.y.copy(), ds.name + f" (perturbed {eps:g})")


def _singletons(ds: Dataset) -> list[np.ndarray]:
    return [np.array([m]) for m in range(ds.P)]


def fig4_problems(ctx: Context, loss: Loss) -> tuple[list[Problem], list[Problem], list[Problem]]:
    """Fig. 4a (orthogonal pair) and 4c (XOR-like): main, leaky-ReLU and perturbed-input problems."""
    sets = {"orthogonal pair": boursier_orthogonal(), "XOR-like": xor_like()}
    main = [Problem(n, d, _singletons(d), loss) for n, d in sets.items()]
    leaky = [Problem(n + ", leaky 0.2", d, _singletons(d), loss, alpha=0.2) for n, d in sets.items()]
    rng = ctx.rng("perturb").host
    bent = [Problem(n + ", perturbed", perturbed(d, rng), _singletons(d), loss) for n, d in sets.items()]
    return main, leaky, bent


def _figure_claim(ctx: Context, loss: Loss, lr_quick: float, lr_paper: float, T: float) -> None:
    """Figs. 4 / 8: one GD run of both datasets, their controls, every w_init and seed (``full``: the
    paper's width 60 and learning rate; ``quick``/``tiny``: a larger rate, same gradient-descent map)."""
    H = ctx.param("H", tiny=16, quick=30, full=60)
    seeds = ctx.param("seeds", tiny=1, quick=2, full=4)
    lr = ctx.param("lr", tiny=2 * lr_quick, quick=lr_quick, full=lr_paper)
    n_w = ctx.param("trials", tiny=3, quick=4, full=5)
    w_grid = np.logspace(-3, -3 * n_w, n_w)
    main, leaky, bent = fig4_problems(ctx, loss)
    ctx.regime(SMALL_INIT, w_init=w_grid.max())
    record_orthogonal(ctx, [p.data for p in main])
    if (H, lr) != (60, lr_paper):
        ctx.reduced_scale(f"width {H}, lr {lr:g} for App. H's width 60, lr {lr_paper:g} (full profile)")
    # the same runs at half the step: the lag's limit is Richardson-extrapolated to gradient flow (check_lag)
    probs = [*main, *leaky, *bent]
    runs = run_overlays(ctx, "fig4", probs, H, w_grid, seeds, lr, T * n_w / 4)
    fine = run_overlays(ctx, "fig4", probs, H, w_grid, seeds, lr / 2, T * n_w / 4)
    tols = [
        check_overlay(ctx, ov.problem.name, ov, ov_fine, FIG4_W)[1]
        for ov, ov_fine in zip(runs[:2], fine[:2], strict=True)
    ]
    # The controls re-run the main problems' checks (same names) on the broken setups.
    timing = [f"{p.name}: relative drop-time lag of group *" for p in main]
    plateau = [f"{p.name}: loss gap on the plateau*" for p in main] if loss.kind == "square" else []
    with ctx.control("leaky ReLU alpha = 0.2", breaks=RELU, must_break=timing + plateau):
        for p, ov, ov_fine, tol in zip(main, runs[2:4], fine[2:4], tols, strict=True):
            check_overlay(ctx, p.name, ov, ov_fine, None, tol)
    # Orthogonality matters once a neuron can be active on points of different groups: the XOR-like data.
    with ctx.control("inputs perturbed by 0.15 |x| xi", breaks=ORTHOGONAL, must_break=timing[1:]):
        for p, ov, ov_fine, tol in zip(main, runs[4:], fine[4:], tols, strict=True):
            check_overlay(ctx, p.name, ov, ov_fine, None, tol)
    ctx.note(
        "Controls (check_lag, with the main run's tolerances): leaky ReLU leaves a constant-factor lag "
        "(limit ~0.07-0.20 on the XOR-like points, the same at both steps) and moves the plateau exponents "
        "(square loss); on the orthogonal pair its lag is small but derived: a leaky unit active on the "
        "faster point x_f and not on x_s grows along y_f x_f + alpha y_s x_s, at the rate (s_f^2 + alpha^2 "
        "s_s^2)^(1/2), so A = (1 + alpha^2 s_s^2/s_f^2)^(-1/2) - 1 = -0.0050 (alpha = 0.2, norms 1:2), while "
        "the slower point is half-fitted early through the faster point's units (A ~ -0.2); the perturbed "
        "XOR-like inputs leave constant lags on the points that move. The unperturbed XOR-like limit is "
        "proportional to the step (0.0047, 0.0024, 0.0012 at lr 0.01, 0.005, 0.0025 for point 0, the same at "
        "widths 30-120): a GD discretisation effect, which the extrapolation to lr -> 0 removes. Only the "
        "XOR-like timing is named for the perturbation (it breaks under both losses); the perturbed "
        "orthogonal pair lags by a constant factor under the square loss (limits 0.009, 0.021 at quick) but "
        "not under the logistic one (0.0000, 0.0001)."
    )


@claim(
    "zhang2025:figure-4",
    title="Orthogonal pair and XOR-like data: the ReLU loss curve is the sum of single-point linear nets "
    "(square)",
    source="Figure 4, Section 4.2, App. H",
    statement=r"Trained from small init (width 60, $w_{\rm init}=10^{-6}$, summed square loss) on the "
    r"orthogonal pair $[-0.5,1],[2,1]$ (labels $\pm1$) or the XOR-like points $[0,1],[2,0],[0,-3],[-4,0]$, "
    r"the two-layer bias-free ReLU net's loss overlaps the sum of linear nets each trained on one point "
    r"(timing and size of every drop).",
    hypotheses=[TWO_LAYER, RELU, SMALL_INIT, ORTHOGONAL, "summed square loss"],
)
def figure_4(ctx: Context) -> None:
    _figure_claim(ctx, Loss("square", "sum"), lr_quick=0.01, lr_paper=0.001, T=36.0)


@claim(
    "zhang2025:figure-8",
    title="Figure 4 with the summed logistic loss",
    source="Figure 8, App. D, App. H",
    statement=r"As Figure 4 with the summed logistic loss $\sum_\mu\ln(1+e^{-y_\mu f_\mu})$ (lr 0.004): the "
    r"ReLU loss overlaps the sum of single-point linear nets.",
    hypotheses=[TWO_LAYER, RELU, SMALL_INIT, ORTHOGONAL, "summed logistic loss"],
)
def figure_8(ctx: Context) -> None:
    _figure_claim(ctx, Loss("logistic", "sum"), lr_quick=0.02, lr_paper=0.004, T=70.0)


def fig9_data(D: int) -> Dataset:
    """Fig. 9 data (parameters not stated in the paper; our choice): 20 points ``c e_mu`` in R^D,
    10 labelled +1 with norm c+ = 2, 10 labelled -1 with norm c- = 1."""
    norms = np.r_[np.full(10, 2.0), np.full(10, 1.0)]
    return orthogonal(norms, np.r_[np.ones(10), -np.ones(10)], D)


@claim(
    "zhang2025:figure-9",
    title="20 orthogonal points: the ReLU loss curve is the sum of two class-wise linear nets (MSE and "
    "logistic)",
    source="Figure 9, App. D",
    statement=r"On 20 pairwise orthogonal inputs, 10 labelled $+1$ (larger norm) and 10 labelled $-1$, the "
    r"two-layer bias-free ReLU net's loss overlaps with those of two linear nets trained on the $+1$ and "
    r"on the $-1$ points respectively, for the mean square and the logistic loss.",
    hypotheses=[
        TWO_LAYER,
        RELU,
        SMALL_INIT,
        ORTHOGONAL,
        "unstated in the paper, chosen here: D = 20, x_mu = c e_mu, c+ = 2, c- = 1, width 40 (quick) / 60 "
        "(full), checked again at width 500",
    ],
)
def figure_9(ctx: Context) -> None:
    H = ctx.param("H", tiny=20, quick=40, full=60)
    # the largest width of the paper's experiments (Fig. 3): the failure must persist up to it (rule 7)
    H_wide = ctx.param("H_wide", tiny=160, quick=500, full=500)
    seeds = ctx.param("seeds", tiny=1, quick=2, full=3)
    # quick: 4 w_init (down to 1e-12); with 3 the two-parameter fit has one degree of freedom, undecided
    n_w = ctx.param("trials", tiny=3, quick=4, full=5)
    D = ctx.param("D", tiny=20, quick=20, full=20)
    ctx.require(D >= 20, "Figure 9 needs D >= 20 orthogonal directions")
    ctx.require(H_wide > H, f"H_wide = {H_wide} must exceed H = {H} (the width the failure must persist to)")
    speed = ctx.param("lr", tiny=0.4, quick=0.2, full=0.05) / 0.2  # lr of the square loss; logistic: 2x
    w_grid = np.logspace(-3, -3 * n_w, n_w)
    ds = fig9_data(D)
    rng = ctx.rng("perturb").host
    ctx.regime(SMALL_INIT, w_init=w_grid.max())
    record_orthogonal(ctx, [ds])
    persists = []  # per loss: does a drop-time check fail at the wide width too?
    for loss, lr, T in (
        (Loss("square", "mean"), 0.2 * speed, 60.0),
        (Loss("logistic", "mean"), 0.4 * speed, 120.0),
    ):
        groups = label_groups(ds.y)
        probs = [
            Problem(f"{loss.kind}", ds, groups, loss),
            Problem(f"{loss.kind}, leaky 0.2", ds, groups, loss, alpha=0.2),
            Problem(f"{loss.kind}, perturbed", perturbed(ds, rng), groups, loss),
        ]
        runs = run_overlays(ctx, f"fig9/{loss.kind}", probs, H, w_grid, seeds, lr, T * n_w)
        fine = run_overlays(ctx, f"fig9/{loss.kind}", probs, H, w_grid, seeds, lr / 2, T * n_w)
        label = f"Fig. 9, {loss.kind}"
        _, tol = check_overlay(ctx, label, runs[0], fine[0], FIG4_W)
        key = f"fig9/{loss.kind}/wide"
        (wide,) = run_overlays(ctx, key, probs[:1], H_wide, w_grid, seeds, lr, T * n_w)
        (wide_fine,) = run_overlays(ctx, key, probs[:1], H_wide, w_grid, seeds, lr / 2, T * n_w)
        persists.append(False in check_overlay(ctx, f"{label}, width {H_wide}", wide, wide_fine, None)[0])
        timing = [f"{label}: relative drop-time lag of group *"]
        named = timing + ([f"{label}: loss gap on the plateau *"] if loss.kind == "square" else [])
        with ctx.control(f"leaky ReLU alpha = 0.2 ({loss.kind})", breaks=RELU, must_break=named):
            check_overlay(ctx, label, runs[1], fine[1], None, tol)
        with ctx.control(
            f"inputs perturbed by 0.15 |x| xi ({loss.kind})", breaks=ORTHOGONAL, must_break=named
        ):
            check_overlay(ctx, label, runs[2], fine[2], None, tol)
    shown = all(persists)
    ctx.reduced_scale(
        f"Fig. 9's data norms, width, learning rate and w_init are not stated in the paper; ours: c+ = 2, "
        f"c- = 1, width {H}, lr {0.2 * speed:g} (square). A failure here counts as the paper's only if a "
        f"drop-time check fails again at width {H_wide} (500 is the largest width of the paper's "
        f"experiments) for both losses: {'it does' if shown else 'it does not'} (square, logistic: "
        f"{persists})",
        persists=shown,
        kind="stand-in data",
    )
    ctx.note(
        "Mechanism of the lag (derived, see the module docstring): a class's loss drops with the growth of "
        "the neurons initially active on ALL its points; with 10 points per class such a neuron exists only "
        "for width >~ 2^12, otherwise the class is learned by partially active neurons at a smaller rate "
        "(and in several steps), so the ReLU drop lags by a constant FACTOR: the limits of the relative lag "
        "as w_init -> 0 (check_lag, extrapolated to lr -> 0) are about 0.1-0.13 at quick for both classes, "
        "both losses and both widths (the fitted orders in 1/t_drop, about 1/2 instead of the 1 of a "
        "bounded offset, are the same lag seen on a finite grid). Even with covering neurons (measured at "
        "width 16384: lag 12-28% for w_init 1e-3..1e-12) the offset is ln(G_lin/G_ReLU)/s ~ (|S|+2) ln2 "
        "/(2s) (a covering neuron is one in 2^(|S|+2)), so the relative error decays only like "
        "4/ln(1/w_init). Single-point groups (Figs. 4, 8) have no partial neurons and do overlap "
        "asymptotically."
    )


# ---------------------------------------------------------------- Assumption 17

WIDE_ENOUGH = "width large enough that some neuron is initially active on all points of each class"


def two_layer_gd(
    ctx: Context,
    key: str,
    datasets: Sequence[Dataset],
    H: int,
    w_grid: Sequence[float],
    alphas: Sequence[float],
    seeds: int,
    lr: float,
    T: float,
    rotation: np.ndarray | None = None,
) -> tuple[list[np.ndarray], np.ndarray, list[list[np.ndarray]]]:
    r"""Final weights ``[W1 (B, H, D), W2 (B, 1, H)]``, final/initial loss ``(B,)`` and the unscaled initial
    draws ``[[W1 (H, D), W2 (1, H)] per seed]`` of ONE exact-GD run over (dataset, alpha, seed, w_init) in
    the order of :func:`_grid`, mean square loss.

    Datasets are padded to a common (P, D) with inert zero rows/columns; ``tau = P_d/P`` restores each
    dataset's own mean over its ``P_d`` points. ``rotation`` (D, D), if given, turns every first-layer
    draw: :math:`W_1\leftarrow W_1Q` (the instance search's initialisations, :func:`_a17_instance`).
    """
    be = ctx.backend
    P, D = max(d.P for d in datasets), max(d.D for d in datasets)
    net = BiasFreeNet((D, H, 1), kink=0.0)
    flow = GradientFlow(net, Loss("square", "mean"))
    grid = _grid(len(datasets), len(alphas), seeds, len(w_grid))
    X, y = np.zeros((len(grid), P, D)), np.zeros((len(grid), P))
    base = [[to_numpy(W)[0] for W in gaussian(net, ctx.rng(f"{key}/{s}"), 1, 1.0)] for s in range(seeds)]
    if rotation is not None:
        base = [[W1 @ rotation, W2] for W1, W2 in base]
    Ws = [np.zeros((len(grid), *shape)) for shape in net.shapes]
    for b, (d, _, s, w) in enumerate(grid):
        X[b, : datasets[d].P, : datasets[d].D] = datasets[d].X
        y[b, : datasets[d].P] = datasets[d].y
        for l in range(2):
            Ws[l][b] = base[s][l] * w_grid[w]
    args = flow.args(
        be, X, y, alpha=[alphas[a] for _, a, _, _ in grid], tau=[datasets[d].P / P for d, _, _, _ in grid]
    )
    steps = int(np.ceil(T / lr))
    traj = gradient_descent(
        flow,
        net.pack([be.asarray(W) for W in Ws]),
        lr=lr,
        steps=steps,
        record=[0, steps],
        args=args,
        observe=flow.observer(),
        save_state=False,
    )
    loss = to_numpy(traj.observed["loss"])
    return [to_numpy(W) for W in net.unpack(traj.y_stop)], loss[:, -1] / loss[:, 0], base


def _grid(n_data: int, n_alpha: int, seeds: int, n_w: int) -> list[tuple[int, int, int, int]]:
    return [
        (d, a, s, w) for d in range(n_data) for a in range(n_alpha) for s in range(seeds) for w in range(n_w)
    ]


def _growth_rates(ds: Dataset) -> list[tuple[float, float]]:
    r"""Per class :math:`C`: the early growth rates :math:`(s_C, s_M)` (mean square loss,
    :func:`group_rate`) of a neuron active on all of :math:`\mathcal S_C` and on the best proper subset
    :math:`M` (all but the smallest :math:`|y_\mu|\|x_\mu\|`); :math:`s_M=0` for a single point (an
    inactive neuron does not move)."""
    loss = Loss("square", "mean")
    rates = []
    for idx in label_groups(ds.y):
        keep = idx[np.argsort(np.abs(ds.y[idx]) * np.linalg.norm(ds.X[idx], axis=1))[1:]]
        rates.append((group_rate(ds, idx, loss), group_rate(ds, keep, loss) if len(keep) else 0.0))
    return rates


def _log_growth(s: float, lr: float) -> float:
    r"""Log growth per unit time of the early linear phase at rate ``s``: :math:`s` under gradient flow
    (``lr = 0``), :math:`\ln(1+\eta s)/\eta` under GD (the pair :math:`(w_1, w_2)` is multiplied by
    :math:`1+\eta s` per step)."""
    return s if lr == 0 else float(np.log1p(lr * s) / lr)


def partial_exponent(ds: Dataset, lr: float = 0.0) -> float:
    r"""Predicted order :math:`\kappa` of the distance to (46) in :math:`w_{\rm init}`.

    A neuron initially active on a proper subset :math:`M\subsetneq\mathcal S_C` grows at rate
    :math:`s_M=\|\beta_M\|<s_C=\|\beta_C\|` and is frozen when the covering neurons fit the class,
    after a time :math:`\ln(1/w)/g(s_C)`, at the relative size :math:`w^{1-g(s_M)/g(s_C)}`; inactive
    neurons stay at :math:`w^1`. So :math:`\kappa=\min_C\min(1,\,1-\max_M g(s_M)/g(s_C))` with
    :math:`g(s)=s` under gradient flow and :math:`g(s)=\ln(1+\eta s)/\eta` under GD with learning rate
    :math:`\eta` (:func:`_log_growth`; the best proper subset drops the smallest
    :math:`|y_\mu|\|x_\mu\|`; a wide net realises every subset). For two equal points per class,
    :math:`1-1/\sqrt2=0.2929` under gradient flow and 0.2842 at :math:`\eta=0.25`, :math:`s_C=\sqrt2/4`.
    """
    return min(1.0, *(1.0 - _log_growth(sM, lr) / _log_growth(sC, lr) for sC, sM in _growth_rates(ds)))


def exponents_above(ds: Dataset, lr: float) -> list[float]:
    r"""Every exponent above :math:`\kappa` (:func:`partial_exponent`) in the distance to (46), ascending
    (empty when :math:`\kappa=1`).

    The squared distance is a sum of power laws, one per class :math:`C` and proper subset
    :math:`M\subsetneq\mathcal S_C` of initially active points (every pattern is realised in a wide
    net): :math:`d^2=\sum_{C,M}c_{CM}w^{2\kappa_{CM}}` with :math:`\kappa_{CM}=1-g(s_M)/g(s_C)`
    (:func:`partial_exponent`; :math:`M=\emptyset`, the inactive neurons, gives 1). :math:`\kappa` is the
    smallest; these are the others (the other class's, the next-best subsets', 1).
    """
    loss = Loss("square", "mean")
    kappa = partial_exponent(ds, lr)
    spectrum = {1.0}
    for idx in label_groups(ds.y):
        gC = _log_growth(group_rate(ds, idx, loss), lr)
        for k in range(1, len(idx)):
            for M in itertools.combinations(idx, k):
                spectrum.add(1.0 - _log_growth(group_rate(ds, np.array(M), loss), lr) / gC)
    return sorted(e for e in spectrum if e > kappa + 1e-12)


def next_exponent(ds: Dataset, lr: float) -> float | None:
    r"""The nearest exponent :math:`\kappa'` above :math:`\kappa` (:func:`exponents_above`), or None when
    :math:`\kappa=1`."""
    above = exponents_above(ds, lr)
    return above[0] if above else None


def kappa_tolerance(ds: Dataset, lr: float, w_grid: np.ndarray) -> float:
    r"""Largest shift of the fitted order :math:`\kappa` over ``w_grid`` for GD at learning rate ``lr``.

    In the linear early phase the covering and partial neurons are multiplied by :math:`a=1+\eta s_C`
    and :math:`b=1+\eta s_M` per step, so the frozen distance obeys :math:`F(aw)=F(w)\,a/b` exactly:
    :math:`F=w^\kappa\Phi(\ln w)` with :math:`\Phi` periodic of period :math:`\ln a`. If :math:`F`
    grows with :math:`w`, :math:`\Phi` varies by at most a factor :math:`a/b` over a period, which moves
    a log-log slope over the grid by at most :math:`2\ln(a/b)/\ln(w_{\max}/w_{\min})` (zero under
    gradient flow). Added, each with coefficient 1 (:func:`next_order_tolerance`): relative :math:`O(w^2)`
    corrections to the linear phase (the output is :math:`O(w^2)`, not 0), and the other power laws of
    :math:`d^2=\sum c_{CM}w^{2\kappa_{CM}}` beside the leading :math:`w^{2\kappa}` (:func:`exponents_above`,
    gaps :math:`\Delta_k=\kappa_k-\kappa`): :math:`d=w^\kappa\sqrt{c}\,e^{h}`,
    :math:`h=\tfrac12\ln(1+\sum_k\rho_ke^{2\Delta_kx})`, :math:`x=\ln w`. The least-squares slope is
    :math:`\kappa+\int h'(x)K(x)\,dx` with :math:`K(x)=\sum_{x_i>x}w_i\ge0`, :math:`\int K=1`
    (:func:`verify.evidence.slope_weights`), a weighted mean of :math:`h'`, and
    :math:`0\le h'=\sum_k\rho_k\Delta_ke^{2\Delta_kx}/(1+\sum_j\rho_je^{2\Delta_jx})\le\sum_kh_k'` with
    :math:`h_k=\tfrac12\ln(1+\rho_ke^{2\Delta_kx})` (each denominator only loses terms): the shift is at
    most the sum over :math:`k` of the two-exponent bound, the smaller of :math:`\Delta_k` (:math:`h_k'`
    lies in :math:`[0,\Delta_k)` for every :math:`\rho_k>0`) and the relative :math:`w^{2\Delta_k}`
    correction. (Until 2026-11-29 only the nearest :math:`\kappa'` was counted: the full profile's search
    found labels (1.130, 1.147 | -0.977, -0.997) with exponents 0.2820, 0.2836, 0.2941, 0.2968 whose fitted
    order over w = 3.5e-24..3.5e-36 read 0.2847, local slopes 0.2852 -> 0.2843 falling towards kappa: above
    kappa', pulled by the third and fourth.)
    """
    w_grid = np.asarray(w_grid, float)
    kappa = partial_exponent(ds, lr)
    period = max(np.log1p(lr * sC) - np.log1p(lr * sM) for sC, sM in _growth_rates(ds))
    tol = 2 * period / np.log(w_grid.max() / w_grid.min()) + next_order_tolerance(w_grid, 2)
    for e in exponents_above(ds, lr):
        tol += min(e - kappa, next_order_tolerance(w_grid, 2 * (e - kappa)))
    return tol


def covering_units(base: Sequence[Sequence[np.ndarray]], data: Sequence[Dataset]) -> int:
    """Fewest units, over seeds, data sets and classes, initially active on every point of the class:
    the growing mode of (46) (``WIDE_ENOUGH``); ``base`` as :func:`two_layer_gd` returns it."""
    return min(
        int(np.sum(np.all(W1[:, : ds.D] @ ds.X[idx].T > 0, axis=1)))
        for W1, _ in base
        for ds in data
        for idx in label_groups(ds.y)
    )


def a17_datasets() -> list[Dataset]:
    """Orthonormal data: one point per class (kappa = 1) and two points per class (kappa = 1 - 1/sqrt2)."""
    return [
        orthogonal(np.ones(2), np.array([1.0, -1.0])),
        orthogonal(np.ones(4), np.array([1.0, 1.0, -1.0, -1.0])),
    ]


def _horizon(data: Sequence[Dataset], w_min: float) -> float:
    r"""GD horizon: three times the slowest class's drop time :math:`\ln(1/w_{\min})/s_C` (mean square
    loss)."""
    return (
        3.0
        * np.log(1 / w_min)
        / min(group_rate(d, g, Loss("square", "mean")) for d in data for g in label_groups(d.y))
    )


def _a17_instance(theta: np.ndarray) -> tuple[Dataset, np.ndarray]:
    r"""Parameters :math:`\theta=(t_1..t_P,\varphi_1..\varphi_P)` -> an orthonormal data set and an
    initialisation inside Assumption 17's hypotheses.

    Inputs :math:`x_\mu=e_\mu\in\mathbb R^{P+1}` (orthonormal exactly; one spare direction), labels
    :math:`y_\mu=\mathrm{sign}(t_\mu)(\tfrac12+\tfrac32\tanh|t_\mu|)\in\pm[\tfrac12,2)` (class A:
    :math:`t_\mu>0`; if every :math:`t` has one sign, the smallest :math:`|t|` flips: both classes are
    non-empty, as (47) needs; the compact range keeps the GD horizon :func:`_horizon` finite), and the
    rotation :math:`Q=\exp(\sum_k\varphi_k(E_{k,k+1}-E_{k+1,k}))` turning every first-layer draw,
    :math:`W_1\leftarrow W_1Q` (a rotated Gaussian draw: another initialisation of the same law).
    """
    theta = np.asarray(theta, float)
    P = theta.size // 2
    t, phi = theta[:P], theta[P:]
    sign = np.where(t >= 0, 1.0, -1.0)
    if abs(sign.sum()) == P:
        sign[np.argmin(np.abs(t))] *= -1
    gen = np.zeros((P + 1, P + 1))
    gen[np.arange(P), np.arange(1, P + 1)] = phi
    return orthogonal(np.ones(P), sign * (0.5 + 1.5 * np.tanh(np.abs(t))), D=P + 1), expm(gen - gen.T)


def _a17_order(
    ctx: Context, key: str, ds: Dataset, H: int, w_grid: np.ndarray, seeds: int, lr: float, rotation=None
) -> tuple[float, float, int, np.ndarray]:
    """Trained on ``ds`` (ReLU, one GD run over seeds and ``w_grid``): the fitted order of the distance to
    (46) (geometric mean over seeds), the worst final/initial loss and the covering units
    (:func:`covering_units`); and the per-member distances, (seeds, W)."""
    (W1, W2), final, base = two_layer_gd(
        ctx, key, [ds], H, w_grid, (0.0,), seeds, lr, _horizon([ds], w_grid.min()), rotation
    )
    dist = np.array([distance_to_blocks(W1[b], W2[b, 0], ds) for b in range(len(final))])
    dist = dist.reshape(seeds, len(w_grid))
    slope = evidence.fit_order(w_grid, np.exp(np.log(np.maximum(dist, EPS)).mean(axis=0))).slope
    return slope, float(np.max(final)), covering_units(base, [ds]), dist


# the deepest measurable window of an instance (:func:`measurable_window`): smallest predicted relative
# distance fitted, and the floor on w_init
MEASURABLE = 1e-10
W_FLOOR = 1e-60


def measurable_window(kappa: float, w_grid: np.ndarray) -> np.ndarray:
    r"""The deepest measurable window for the order :math:`\kappa`: ``w_grid`` (a log grid) shifted down,
    the same points and decades, to end at :math:`w_{\rm end}=\min(w_{\min},\max(10^{-60},
    10^{-10/\kappa}))`: the deepest :math:`w` where the predicted distance :math:`w^\kappa` stays
    :math:`\ge10^{-10}`, floored at :math:`10^{-60}`, and never shallower than the main grid (whose largest
    :math:`w` is the ``SMALL_INIT`` reading): where :math:`10^{-10/\kappa}>w_{\min}` (large
    :math:`\kappa`), the main grid itself, as the main check fits it.

    Why deep: the distance is a sum of power laws (:func:`next_exponent`), so a fit over a fixed window
    is pulled towards the next exponent by :math:`\approx2\ln(1+w_{\max}^{2(\kappa'-\kappa)})/L`
    (:func:`kappa_tolerance`, :math:`L=\ln(w_{\max}/w_{\min})`), which vanishes only as the window goes
    down. Why :math:`10^{-10}`: the relative distance is computed from :math:`O(1)` weights, to an
    absolute :math:`\lesssim10^{-15}` (its measured float64 floor, a few ulp); at :math:`d\ge10^{-10}`
    every point then carries a relative error :math:`r\le10^{-5}`, which moves the least-squares slope
    by at most :math:`\sum_i|w_i|r\le2.4r/L` (:func:`verify.evidence.slope_shift`; 3 to 5 equally spaced
    points): :math:`\le1.5\times10^{-6}` on every profile's grid, far below every tolerance here. Why the
    floor: GD must escape from :math:`w` in :math:`\ln(1/w)/g(s_C)` time (:func:`_horizon`), at
    :math:`10^{-60}` 5 times that from :math:`10^{-12}` (the weights, :math:`\ge10^{-60}`, and the
    outputs, :math:`\ge10^{-120}`, stay far above float64's :math:`10^{-308}`).
    """
    end = min(w_grid.min(), max(W_FLOOR, MEASURABLE ** (1 / kappa)))
    return w_grid * (end / w_grid.min())


def _a17_violation(
    ctx: Context, H: int, w_grid: np.ndarray, seeds: int, lr: float, seen: list, theta: np.ndarray
) -> float:
    r"""Violation ratio :math:`|\hat\kappa-\kappa|/` :func:`kappa_tolerance` at the instance ``theta``
    (:func:`_a17_instance`), the order fitted over its deepest measurable window
    (:func:`measurable_window`). NaN (the search cannot pass) when the training did not converge to 1e-8
    of the initial loss (the trained weights are not yet read).

    Undecidable instances: the window cannot separate :math:`\kappa` from the next exponent
    :math:`\kappa'` (:func:`next_exponent`) when the tolerance reaches the gap :math:`\kappa'-\kappa`, nor
    tell a vanishing distance from a constant one when it exceeds :math:`\kappa/2`; their ratio is still
    returned: with the tolerance >= the gap, the fitted order of a sum of positive power laws
    :math:`w^\kappa,w^{\kappa'},\dots` lies within it, so a deviation beyond it is still a violation; a
    ratio <= 1 there confirms only that the distance vanishes at an order in :math:`[\kappa,\kappa']`
    (counted in a note). ``seen`` collects (covering units, loss ratio, ratio, undecidable, window)."""
    ds, Q = _a17_instance(theta)
    kappa, nxt = partial_exponent(ds, lr), next_exponent(ds, lr)
    window = measurable_window(kappa, w_grid)
    slope, final, covering, _ = _a17_order(ctx, f"a17-search/{ds.P}", ds, H, window, seeds, lr, Q)
    tol = kappa_tolerance(ds, lr, window)
    ratio = math.nan if final > 1e-8 else abs(slope - kappa) / tol
    undecidable = tol > kappa / 2 or (nxt is not None and tol >= nxt - kappa)
    seen.append((covering, final, ratio, undecidable, window.min()))
    return ratio


def _a17_starts(rng: np.random.Generator, n: int) -> dict[str, list[np.ndarray]]:
    r"""Four families of ``n`` starts each (drawn before looking), rotations :math:`\varphi\sim N(0,1)`:
    one point per class (kappa = 1); two per class, labels near 1 (kappa near 1 - 1/sqrt2); three points
    against one; two per class with spread labels 1/2 and ~2 (the best subset keeps the large label,
    kappa ~ 0.03)."""

    def start(t):
        return np.r_[t, rng.normal(size=len(t))]

    families = {
        "one point per class": lambda: start([1.0, -1.0] * rng.uniform(0.3, 2.0, 2)),
        "two per class, labels ~1": lambda: start([0.4, 0.4, -0.4, -0.4] + 0.1 * rng.normal(size=4)),
        "three against one": lambda: start([1.0, 1.0, 1.0, -1.0] * rng.uniform(0.3, 2.0, 4)),
        "two per class, spread labels": lambda: start([0.01, 3.0, -0.01, -3.0] + 0.01 * rng.normal(size=4)),
    }
    return {f: [make() for _ in range(n)] for f, make in families.items()}


@claim(
    "zhang2025:assumption-17",
    title="From small random init on orthonormal data the weights approach the block form (46)",
    source="Assumption 17, eqs. (46)-(47); App. D",
    statement=r"Assumption 17 takes the weights at some $t_0$ to be of the form (46), "
    r"$W_1=[u_Ar_A\bar\beta_A^\top;u_Br_B\bar\beta_B^\top]$, $W_2=[u_Ar_A^\top,-u_Br_B^\top]$, $r_C\ge0$. "
    r"Checked: trained from small random init, the relative distance of the weights to the nearest (46) "
    r"state vanishes as $w_{\rm init}\to0$, like $w_{\rm init}^{\kappa}$ with the derived "
    r"$\kappa=1-\max_{M\subsetneq\mathcal S_C}\|\beta_M\|/\|\beta_C\|$ ($\kappa=1$ for one point per "
    r"class) under gradient flow; under GD with learning rate $\eta$ each $\|\beta\|$ becomes "
    r"$\ln(1+\eta\|\beta\|)/\eta$.",
    hypotheses=[
        TWO_LAYER,
        RELU,
        SIGMA0,
        ORTHONORMAL,
        SMALL_INIT,
        WIDE_ENOUGH,
    ],
)
def assumption_17(ctx: Context) -> None:
    H = ctx.param("H", tiny=64, quick=96, full=256)
    seeds = ctx.param("seeds", tiny=1, quick=2, full=4)
    n_w = ctx.param("trials", tiny=3, quick=4, full=5)
    lr = ctx.param("lr", tiny=0.25, quick=0.25, full=0.1)
    budget = ctx.param("budget", tiny=6, quick=12, full=60)
    n_starts = ctx.param("starts", tiny=1, quick=1, full=2)
    w_grid = np.logspace(-3, -3 * n_w, n_w)
    ctx.regime(SMALL_INIT, w_init=w_grid.max())
    data = a17_datasets()
    searched = _a17_starts(ctx.rng("a17-search").host, n_starts)
    # the searched inputs are e_mu in R^(P+1) whatever theta: the starts' data sets are every searched one
    record_orthonormal(ctx, [*data, *(_a17_instance(t)[0] for ts in searched.values() for t in ts)])
    T = _horizon(data, w_grid[-1])
    (W1, W2), final, base = two_layer_gd(ctx, "a17", data, H, w_grid, (0.0, 0.2), seeds, lr, T)
    covering = covering_units(base, data)
    # a precondition of reading the trained weights, not a statement of the paper: undecided if missed
    worst = float(np.max(final))
    trained = (
        f"loss(T)/loss(0) <= {worst:.3g} on every member (1e-8 needed: the fit is then exact to 1e-4 |y|, "
        "far below the distances measured)"
    )
    if worst > 1e-8:
        ctx.undecided("training converged (1e-8 of the initial loss)", trained, measured=worst)
    else:
        ctx.note(f"Training converged: {trained}.")
    dist = np.array(
        [
            distance_to_blocks(W1[b][:, : data[d].D], W2[b, 0], data[d])
            for b, (d, _, _, _) in enumerate(_grid(len(data), 2, seeds, n_w))
        ]
    )
    dist = dist.reshape(len(data), 2, seeds, n_w)
    for k, alpha in ((0, 0.0), (1, 0.2)):
        control = ctx.control(
            "leaky ReLU alpha = 0.2", breaks=RELU, must_break=["*: distance to the nearest*"]
        )
        with control if alpha else nullcontext():
            for d, ds in enumerate(data):
                kappa = partial_exponent(ds, lr)
                ctx.order(
                    f"{ds.P // 2} point(s) per class: distance to the nearest (46) state ~ w_init^kappa",
                    w_grid,
                    np.exp(np.log(np.maximum(dist[d, k], EPS)).mean(axis=0)),
                    expected=kappa,
                    tol=kappa_tolerance(ds, lr, w_grid),
                    why=f"kappa = {kappa:.4f} from partial_exponent at the GD learning rate {lr:g} (inactive "
                    "neurons stay at w_init^1, partially active ones freeze at w_init^(1-g(s_M)/g(s_C)) "
                    "relative to the learned scale, g(s) = ln(1 + lr s)/lr per unit time; the gradient-flow "
                    f"value is {partial_exponent(ds):.4f}); tolerance from kappa_tolerance: the "
                    "log-periodic modulation of GD's discrete growth, 2 ln((1+lr s_C)/(1+lr s_M))/ln(range), "
                    "+ relative O(w^2) and inactive-neuron w^(2(1-kappa)) corrections",
                    xlabel="w_init",
                    ylabel="distance to (46) / ||W|| (geometric mean over seeds)",
                )
    seen: list[tuple[int, float, float, bool, float]] = []
    ctx.search(
        "search: worst |fitted order - kappa| / kappa_tolerance over orthonormal data sets and inits",
        functools.partial(_a17_violation, ctx, H, w_grid, seeds, lr, seen),
        searched,
        budget=budget,
        why="the order check above holds for every orthonormal data set and every small Gaussian init "
        f"(the derived kappa of partial_exponent, the tolerance of kappa_tolerance, width {H}, {seeds} "
        f"seed(s), lr {lr:g}), the order fitted per instance over its deepest measurable window "
        f"(measurable_window: {n_w} points over the main grid's {3 * (n_w - 1)} decades, ending where "
        f"w_init^kappa = {MEASURABLE:g}, w_init in [{W_FLOOR:g}, {w_grid.max():g}]): Nelder-Mead over the "
        "labels (|y| in [1/2, 2), class sizes 1+1, 2+2, 3+1) and a rotation of the first-layer draw "
        "(_a17_instance); inputs e_mu in R^(P+1); ratio = |fitted order - kappa| / tolerance",
    )
    covering = min(covering, *(c for c, *_ in seen))
    ctx.regime(WIDE_ENOUGH, reached=covering >= 1, covering_units=covering)
    decidable = [r for _, _, r, u, _ in seen if not u]
    ctx.note(
        f"Search instances: {len(seen)} trained, worst final/initial loss {max(f for _, f, *_ in seen):.3g} "
        f"(NaN ratio above 1e-8), fewest covering units {min(c for c, *_ in seen)}, windows ending at "
        f"w_init {min(e[4] for e in seen):.0e}..{max(e[4] for e in seen):.0e}; {len(seen) - len(decidable)} "
        "undecidable (tolerance >= gap to the next exponent, or > kappa/2: next_exponent; there a ratio <= 1 "
        "confirms only an order in [kappa, kappa']), worst ratio over the decidable ones "
        f"{max(decidable, default=math.nan):.3g}."
    )
    prop18 = prop18_data()
    ctx.note(
        f"For the Proposition-18 data (labels {PROP18_LABELS}) the same mechanism gives kappa = "
        f"{partial_exponent(prop18):.3f}: a neuron missing the |y| = 0.5 point grows almost as fast as a "
        "covering one, so (46) is approached only astronomically slowly (lowering w_init from 1 to 1e-12 "
        "shrinks the distance by a factor 0.6; measured slopes here 0.02-0.06). Assumption 17 is therefore "
        "an assumption, not a generic outcome of small init, unless the classes are single points or nearly "
        "so."
    )


# ---------------------------------------------------------------- Proposition 18


def prop18_data() -> Dataset:
    """Catalog instance: ``x_mu = e_mu`` in R^8, labels (1, .5, 2, 1.5, -1, -.5, -2, -1)."""
    return orthogonal(np.ones(len(PROP18_LABELS)), np.array(PROP18_LABELS))


def block_linear_field(Ws: Sequence[np.ndarray], ds: Dataset, n_block: int) -> list[np.ndarray]:
    r"""(48) per block, :math:`\beta_C,\Sigma_C` normalised by the total P (49), batched host arrays."""
    W1, W2 = Ws
    G1, G2 = np.zeros_like(W1), np.zeros_like(W2)
    for k, idx in enumerate(label_groups(ds.y)):
        units = slice(k * n_block, (k + 1) * n_block)
        beta = ds.y[idx] @ ds.X[idx] / ds.P
        Sigma = ds.X[idx].T @ ds.X[idx] / ds.P
        err = beta[None, None, :] - W2[:, :, units] @ W1[:, units, :] @ Sigma  # (B, 1, D)
        G1[:, units, :] = np.swapaxes(W2[:, :, units], 1, 2) @ err
        G2[:, :, units] = err @ np.swapaxes(W1[:, units, :], 1, 2)
    return [G1, G2]


def off_block(W1: np.ndarray, ds: Dataset, n_block: int) -> np.ndarray:
    """Entries of W1 (..., H, D) outside (46)'s blocks: block-A units on S_B inputs and vice versa."""
    A, B = label_groups(ds.y)
    return np.concatenate(
        [
            W1[..., :n_block, :][..., B].reshape(*W1.shape[:-2], -1),
            W1[..., n_block:, :][..., A].reshape(*W1.shape[:-2], -1),
        ],
        axis=-1,
    )


def check_block_field(
    ctx: Context, label: str, Ws: Sequence[np.ndarray], ds: Dataset, n_block: int, kink: float = 0.0
) -> None:
    """At a (46) state: the true field has no off-block part and equals (48) to rounding."""
    net = BiasFreeNet((ds.D, 2 * n_block, 1), kink=kink)
    G = true_field(ctx, net, Ws, ds)
    scale, n = gradient_rounding_scale(ctx, net, Ws, ds)
    dev = layer_deviation(block_linear_field(Ws, ds, n_block), G, scale, n)
    ctx.bound(
        f"{label}: true -grad L = block-linear field (48), worst layer",
        max(dev),
        GRAD_TOL,
        why=GRAD_WHY,
        resolution=GRAD_RESOLUTION,
        details={"per layer": dev},
    )
    ctx.bound(
        f"{label}: off-block entries of d W1/dt (must be exactly 0)",
        float(np.max(np.abs(off_block(G[0], ds, n_block)))),
        0.0,
        why="cross-block pre-activations are exactly 0 (beta_bar_B^T x_mu = 0 for mu in S_A) and sigma'(0) "
        "= 0, so every off-block gradient term has an exact zero factor",
    )


# relative size of the other block's direction added to every W1 row in the start-off-(46) control
OFF46 = 0.1


def off_form(Ws: Sequence[np.ndarray], ds: Dataset, n_block: int, eps: float) -> list[np.ndarray]:
    r"""A start off (46): every unit's row :math:`W_1[h]` of block C gains
    :math:`\varepsilon\|W_1[h]\|\bar\beta_{C'}^\top` of the other block C', so it is active on the points of
    both classes (its cross-block pre-activations are :math:`\varepsilon\|W_1[h]\|\bar\beta_{C'}^\top
    x_\mu>0` instead of 0); ``W2`` unchanged."""
    W1 = Ws[0].copy()
    groups = label_groups(ds.y)
    for k in range(2):
        other = bbar(ds, groups[1 - k], (1.0, -1.0)[1 - k])
        rows = W1[:, k * n_block : (k + 1) * n_block, :]
        rows += eps * np.linalg.norm(rows, axis=-1, keepdims=True) * other
    return [W1, Ws[1]]


# (points per label group, units per block, extra input dimensions) of the searched (46) states
P18_SHAPE = (3, 3, 1)


def _block_instance(theta: np.ndarray) -> tuple[list[np.ndarray], Dataset]:
    r"""Parameters -> a (46) state and its data, inside Assumption 17: inputs :math:`x_\mu=e_\mu` in
    :math:`\mathbb R^{P+1}` (orthonormal), labels :math:`|\theta|` on group A and :math:`-|\theta|` on B,
    :math:`u_C=10^{3\tanh\theta}\in(10^{-3},10^3)`, :math:`r_C=|\theta|` normalised (non-negative)."""
    n, k, extra = P18_SHAPE
    yA, yB, u, rA, rB = np.split(np.asarray(theta, float), np.cumsum([n, n, 2, k]))
    ds = orthogonal(np.ones(2 * n), np.concatenate([np.abs(yA), -np.abs(yB)]), D=2 * n + extra)
    W1, W2 = [], []
    for (idx, sign), uC, r in zip(
        zip(label_groups(ds.y), (1.0, -1.0), strict=True), 10 ** (3 * np.tanh(u)), (rA, rB), strict=True
    ):
        r = np.abs(r) / np.linalg.norm(r)
        W1.append(uC * np.outer(r, bbar(ds, idx, sign)))
        W2.append(sign * uC * r)
    return [np.concatenate(W1)[None], np.concatenate(W2)[None, None]], ds


def _block_field_violation(ctx: Context, theta: np.ndarray) -> float:
    """Worst layer's |true field - (48)| / (GRAD_TOL gamma_n sum|terms|) at the (46) instance ``theta``
    (the reference (48) is exactly 0 off the blocks, so off-block gradient entries count too)."""
    Ws, ds = _block_instance(theta)
    net = BiasFreeNet((ds.D, 2 * P18_SHAPE[1], 1), kink=0.0)
    scale, n = gradient_rounding_scale(ctx, net, Ws, ds)
    dev = layer_deviation(block_linear_field(Ws, ds, P18_SHAPE[1]), true_field(ctx, net, Ws, ds), scale, n)
    return max(dev) / GRAD_TOL


def _block_starts(rng: np.random.Generator) -> dict[str, list[np.ndarray]]:
    """Three families (drawn before looking): Gaussian; lopsided (u_A ~ 1e-3 against u_B ~ 1e3, labels
    spread over 1e-2..1e2); near-degenerate (one label and one entry of each r_C 1e-8, near a dead unit
    or a point that carries no signal)."""
    n, k, _ = P18_SHAPE
    size = 2 * n + 2 + 2 * k

    def gaussian():
        return rng.normal(size=size)

    def lopsided():
        t = gaussian()
        t[: 2 * n] = 10.0 ** rng.uniform(-2, 2, 2 * n)
        t[2 * n : 2 * n + 2] = [-2.0, 2.0]
        return t

    def degenerate():
        t = gaussian()
        t[0] = t[2 * n + 2] = t[2 * n + 2 + k] = 1e-8
        return t

    families = (("Gaussian", gaussian), ("lopsided", lopsided), ("near-degenerate", degenerate))
    return {f: [make() for _ in range(2)] for f, make in families}


@claim(
    "zhang2025:proposition-18",
    title="On the block form (46) the ReLU net is two independent linear nets; Bernoulli closed form for "
    "u_C(t)",
    source="Proposition 18, eqs. (46)-(54); closed form of (52)/(54)",
    statement=r"Under Assumption 17 (orthonormal inputs, weights (46) at $t_0$), for $t\ge t_0$ the weights "
    r"keep the form (46), each block follows the linear-net dynamics (48) on its own points with "
    r"$\beta_C,\Sigma_C$ normalised by the total $P$ (49), and $\tau\dot u_C=u_C(\|\beta_C\|-u_C^2/P)$, "
    r"i.e. $u_C(t)^2=P\|\beta_C\|/(1+(P\|\beta_C\|/u_C(t_0)^2-1)e^{-2\|\beta_C\|(t-t_0)/\tau})$.",
    hypotheses=[TWO_LAYER, SIGMA0, ORTHONORMAL, FORM_46, SQUARE],
)
def proposition_18(ctx: Context) -> None:
    import sympy as sp

    from symbolic.closed_forms import bernoulli_callable, bernoulli_residuals
    from symbolic.reductions import prop18_block_reduction

    seeds = ctx.param("seeds", tiny=1, quick=2, full=4)
    rtol = ctx.param("rtol", tiny=1e-7, quick=1e-8, full=1e-9)
    budget = ctx.param("budget", tiny=15, quick=60, full=1000)
    w_init = ctx.param("w_init", tiny=1e-3, quick=1e-3, full=1e-3)  # u0 below is a SymPy symbol first
    ctx.zero(
        "(46) in the exact field: block-linear (48) and d/dt of (46) with (52)/(54), D = P = 4 (SymPy)",
        [m for pair in prop18_block_reduction().values() for m in pair],
        why="exact SymPy field of the ReLU net at symbolic u_A, u_B > 0, sigma'(0) = 0",
    )
    res = bernoulli_residuals()
    ctx.zero(
        "closed form u_C(t)^2 of (52)/(54): tau du/dt = u (b - u^2/P), u(t0) = u0, and SymPy's dsolve "
        "(Bernoulli) gives the same u^2",
        [res["substitution"], res["initial"], res["dsolve"]],
        why="SymPy substitution; with the initial value it fixes the solution (Picard-Lindelof); dsolve "
        "derives it independently (symbolic.closed_forms.bernoulli_residuals)",
    )
    ctx.zero(
        "extension: (46) is invariant for leaky ReLU alpha = 1/5 too (same residuals)",
        [m for pair in prop18_block_reduction(alpha=sp.Rational(1, 5)).values() for m in pair],
        why="on (46) every pre-activation is > 0 or exactly 0, so the negative slope alpha never enters",
    )
    u0 = w_init
    n_block = 5
    ds = prop18_data()
    rng = ctx.rng("p18").host
    starts = [block_state(rng, ds, n_block, u) for _ in range(seeds) for u in ((u0, u0), (u0, 30 * u0))]
    Ws = [np.concatenate([s[l] for s in starts]) for l in range(2)]
    searched = _block_starts(ctx.rng("search").host)
    # the searched instances vary labels and weights only: their inputs are e_mu in R^(2n+1) throughout
    record_orthonormal(ctx, [ds, *(_block_instance(t)[1] for family in searched.values() for t in family)])
    check_block_field(ctx, "at t0", Ws, ds, n_block)
    ctx.search(
        "search: worst |true field - (48)| / rounding bound over (46) states, labels and block scales",
        functools.partial(_block_field_violation, ctx),
        searched,
        budget=budget,
        why="(48) holds at every (46) state for every orthonormal data set: Nelder-Mead over labels "
        f"(groups of {P18_SHAPE[0]}), u_A, u_B in (1e-3, 1e3) and non-negative unit r_A, r_B "
        f"({P18_SHAPE[1]} units each), inputs e_mu in R^{2 * P18_SHAPE[0] + P18_SHAPE[2]}; ratio = the "
        "field check above divided by its tolerance (<= 1 iff (48) holds to rounding, off-block entries "
        "included)",
    )
    coarse, tight = (_block_flow(ctx, Ws, ds, n_block, r) for r in (rtol, rtol * 1e-2))
    tol = _check_block_flow(ctx, coarse, tight, ds, n_block, u0, bernoulli_callable())
    field = ["at t0: true -grad L = block-linear field (48)*", "at t0: off-block entries of d W1/dt*"]
    flow_conclusions = ["max_t |u_C(t) - closed form*", "max_t |f_ReLU(x_mu) - f_C^lin(x_mu)|*"]
    with ctx.control(
        "inputs x_mu = e_mu + 0.15 xi_mu", breaks=ORTHONORMAL, must_break=[*field, *flow_conclusions]
    ):
        ds_off = perturbed(ds, ctx.rng("p18/perturb").host)
        check_block_field(ctx, "at t0", Ws, ds_off, n_block)
        # the cross-block pre-activations are no longer exactly 0: blocks couple along the flow
        off = _block_flow(ctx, Ws, ds_off, n_block, rtol)
        _check_block_flow(ctx, off, None, ds_off, n_block, u0, bernoulli_callable(), tol)
    # the off-block entries along the flow are frozen by sigma'(0) = 0 (an exact zero pre-activation gives
    # an exact zero derivative at every state): the control shows that this check is the convention's
    with ctx.control(
        "sigma'(0) = 1", breaks=SIGMA0, must_break=[*field, "off-block entries of W1 along the trajectory*"]
    ):
        check_block_field(ctx, "at t0", Ws, ds, n_block, kink=1.0)
        kicked = _block_flow(ctx, Ws, ds, n_block, rtol, kink=1.0)
        _check_block_flow(ctx, kicked, None, ds, n_block, u0, bernoulli_callable(), tol)
    # Assumption 17 itself: a start off (46) (every unit also active on the other class's points)
    with ctx.control(
        f"start off (46): each unit's W1 row + {OFF46:g} |row| bbar of the other block",
        breaks=FORM_46,
        must_break=flow_conclusions,
    ):
        mixed = _block_flow(ctx, off_form(Ws, ds, n_block, OFF46), ds, n_block, rtol)
        _check_block_flow(ctx, mixed, None, ds, n_block, u0, bernoulli_callable(), tol)
    # (48)'s beta_C = (1/P) sum y x and the closed form (52)/(54) are the square loss's: under the logistic
    # loss the blocks still decouple (a cross-block pre-activation 0 for any loss), but W1^C leaves the
    # direction bbar_C (the residual y sigmoid(-y f) replaces y - f) and u_C does not follow (52)
    with ctx.control(
        "logistic loss <ln(1 + exp(-y f))>",
        breaks=SQUARE,
        must_break=["within-block residual*", "max_t |u_C(t) - closed form*"],
    ):
        logistic = _block_flow(ctx, Ws, ds, n_block, rtol, loss="logistic")
        _check_block_flow(ctx, logistic, None, ds, n_block, u0, bernoulli_callable(), tol)
    ctx.note(
        "Leaky ReLU is NOT a control for the exact statement: on (46) the cross-block pre-activations are "
        "exactly 0 (not negative), so alpha never enters and (46) is invariant for every alpha in [0, 1] "
        "(checked symbolically above). The catalog's 'leaky alpha = 0.2: block form deviates 27%' needs "
        "sigma'(0) = alpha (PyTorch's convention) or a random start; with sigma'(0) = 1 the off-block "
        "entries of W1 are kicked to negative values at t0 and then stay inert, so even that breaks only "
        "the literal form (46), not u_C(t)."
    )


@dataclass(frozen=True)
class BlockFlow:
    """ReLU nets started on (46) and their two block partners, integrated together (host arrays)."""

    t: np.ndarray
    relu: list[np.ndarray]  # [W1 (S, T, H, D), W2 (S, T, 1, H)]
    f_relu: np.ndarray  # (S, T, P)
    f_partner: list[np.ndarray]  # per block (S, T, P)
    n_steps: int


def _block_flow(
    ctx: Context,
    Ws: Sequence[np.ndarray],
    ds: Dataset,
    n_block: int,
    rtol: float,
    kink: float = 0.0,
    loss: str = "square",
) -> BlockFlow:
    r"""ONE DOPRI5 solve of the ReLU nets (:math:`\sigma'(0)=` ``kink``) from (46) and, per block C, the
    linear net holding only block C's units, trained on S_C (other inputs zeroed, mean over the total P as
    in (49)), all with the mean ``loss`` (the square loss of Proposition 18; another only for a control).

    The solve watches the activation surfaces (``events=flow.switching``); on (46) no pre-activation
    changes sign (cross-block ones stay exactly 0), so it locates no event and its steps and states are
    those of the plain solve (checked at tiny and quick: 0 events, 0 sliding, every measured value
    identical), and the integrator tolerances below (coarse vs rtol/100) are unchanged."""
    from numeric.engine.integrators.control import AdaptiveStep
    from numeric.engine.integrators.methods import DOPRI5
    from numeric.engine.solve import solve

    be = ctx.backend
    S, H = Ws[0].shape[0], 2 * n_block
    net = BiasFreeNet((ds.D, H, 1), kink=kink)
    flow = GradientFlow(net, Loss(loss, "mean"))
    states, X, alpha = [Ws], [np.broadcast_to(ds.X, (S, *ds.X.shape))], [np.zeros(S)]
    for k, idx in enumerate(label_groups(ds.y)):
        keep = np.zeros(H)
        keep[k * n_block : (k + 1) * n_block] = 1.0
        states.append([Ws[0] * keep[None, :, None], Ws[1] * keep[None, None, :]])
        X.append(np.broadcast_to(ds.X * np.isin(np.arange(ds.P), idx)[:, None], (S, *ds.X.shape)))
        alpha.append(np.ones(S))
    y0 = np.concatenate([net.pack(s) for s in states])
    args = flow.args(be, np.concatenate(X), ds.y, alpha=np.concatenate(alpha))
    b = min(float(np.linalg.norm(ds.y[idx] @ ds.X[idx])) / ds.P for idx in label_groups(ds.y))
    u_min = min(
        float(np.linalg.norm(Ws[1][s, 0, k * n_block : (k + 1) * n_block]))
        for s in range(S)
        for k in range(2)
    )
    T = 2.0 * np.log(ds.P * b / u_min**2) / (2 * b)  # twice the closed form's time to u^2 = P b / 2
    ts = np.linspace(0.0, T, 161)
    traj = solve(
        flow,
        be.asarray(y0),
        ts,
        method=DOPRI5,
        control=AdaptiveStep(rtol=rtol, atol=rtol * 1e-6),
        args=args,
        observe=lambda t, y, a: {"f": flow.outputs(y, a)},
        max_steps=50_000,
        events=flow.switching,
    )
    ys, f = to_numpy(traj.ys), to_numpy(traj.observed["f"])
    W = [w.reshape(3 * S, len(ts), *w.shape[1:]) for w in net.unpack(ys.reshape(-1, ys.shape[-1]))]
    return BlockFlow(ts, [w[:S] for w in W], f[:S], [f[S : 2 * S], f[2 * S :]], int(traj.n_steps.max()))


_EXACT = (
    "; the statement is exact, so the factor to spare is that of the integrator/rounding bound, not slack "
    "in a constant of the paper"
)


# Integrator tolerance of Proposition 18's flow checks: paired_runs.SAFETY x |solve(rtol) - solve(rtol/100)|
# per solve. The closed form of u_C is exact, so |u - closed form| IS the coarse solve's error e_c, and the
# estimate is >= (1 - q)|e_c| with q = |e_t| / |e_c|: SAFETY = 2 bounds e_c whenever q <= 1/2 (a true
# identity reads ~1/(2(1 - q))).  q measured against a third solve at rtol/1e4 (max_t error of u_C and of
# the outputs of the ReLU nets and of both block partners, every start): tiny (rtol 1e-7) q = 0.10-0.19,
# estimate 0.81-0.91 of e_c; quick (1e-8) q = 0.012-0.023, estimate >= 0.978 of e_c.  The coarse solve takes
# 162 steps at both rtols: its steps are set by the 161 output times, not by rtol, so its error (~1e-8 in u)
# does not follow rtol and the tight solve is only (162/263)^5 ~ 0.1 as accurate at tiny; q stays below 1/2,
# so the estimate is an error bound at both profiles.


def _check_block_flow(
    ctx: Context,
    coarse: BlockFlow,
    tight: BlockFlow | None,
    ds: Dataset,
    n_block: int,
    u0: float,
    closed,
    tol: dict[str, float] | None = None,
) -> dict[str, float]:
    """(46) kept exactly / to rounding, u_C(t) = closed form, ReLU = two block-linear nets.

    The main run derives each tolerance from its solve at rtol against rtol/100 (``tight``) and returns
    them; a negative control passes them as ``tol`` (``tight`` unused): its checks use the main run's
    tolerances, never ones derived from its own data."""
    W1, W2 = coarse.relu
    ctx.bound(
        "off-block entries of W1 along the trajectory (must stay exactly 0)",
        float(np.max(np.abs(off_block(W1, ds, n_block)))),
        0.0,
        why="their time derivative is an exact zero on (46) (field check), so every RK stage adds exact "
        "zeros",
    )
    own = tol is None
    u = np.stack([np.linalg.norm(W2[..., k * n_block : (k + 1) * n_block], axis=(-2, -1)) for k in range(2)])
    b = np.array([float(np.linalg.norm(ds.y[idx] @ ds.X[idx])) / ds.P for idx in label_groups(ds.y)])
    resid = [
        ds.y[None, None, idx] - fp[..., idx]
        for idx, fp in zip(label_groups(ds.y), coarse.f_partner, strict=True)
    ]
    if own:
        u_tight = np.stack(
            [
                np.linalg.norm(tight.relu[1][..., k * n_block : (k + 1) * n_block], axis=(-2, -1))
                for k in range(2)
            ]
        )
        err = float(np.max(np.abs(u - u_tight)))
        ref = max(
            float(np.max(np.abs(a - c)))
            for a, c in zip([coarse.f_relu, *coarse.f_partner], [tight.f_relu, *tight.f_partner], strict=True)
        )
        # the output tolerance, not the deviation: two solves' errors (ReLU, partner), each <= SAFETY x its
        # estimate
        df = 2 * SAFETY * ref + 64 * EPS * float(np.max(np.abs(ds.y)))
        tol = {
            "rank": 16 * EPS * coarse.n_steps,
            "u": SAFETY * err + 64 * EPS * float(np.max(u)),
            "f": df,
            "loss": max(np.abs(r).sum(axis=-1).max() for r in resid) / ds.P * df + df**2,
        }
        source = {
            "rank": f"16 eps of rounding per DOPRI5 step ({coarse.n_steps} steps) bounds its float64 growth",
            "u": f"integrator error of the DOPRI5 solve (rtol vs rtol/100: {err:.2g}), x {SAFETY:g} (a "
            "bound while the tight error is <= 1/2 of the coarse one: measured <= 0.19, SAFETY's comment), "
            "plus 64 eps of rounding in u and in the closed form",
            "f": f"two solves, each with measured integrator error <= {ref:.2g} (vs rtol/100), x {SAFETY:g}, "
            "plus 64 eps |y| of rounding",
            "loss": "|dL| <= (1/P) sum_mu |y_mu - f_mu| |df_mu| + df^2 with df the output TOLERANCE of the "
            "check above (integrator error and rounding), so the loss identity is tested on its own (a bound "
            "built from the measured output deviation would hold by algebra)",
        }
    else:
        source = dict.fromkeys(
            tol, "the main run's tolerance (negative control: none derived from its own data)"
        )
    rank = 0.0
    for k, (idx, sign) in enumerate(zip(label_groups(ds.y), (1.0, -1.0), strict=True)):
        blk = W1[:, :, k * n_block : (k + 1) * n_block, :]
        bb = bbar(ds, idx, sign)
        rank = max(rank, float(np.max(np.abs(blk - (blk @ bb)[..., None] * bb))) / float(np.max(np.abs(W1))))
    ctx.bound(
        "within-block residual W1^C - (W1^C bbar_C) bbar_C^T (relative): blocks stay u_C r_C bbar_C^T",
        rank,
        tol["rank"],
        resolution=f"a relative residual above {tol['rank']:.2g}" + _EXACT,
        why=f"0 on (46) and d/dt keeps it 0 exactly in exact arithmetic; {source['rank']}",
    )
    pred = closed(coarse.t[None, None, :], b[:, None, None], ds.P, u[:, :, :1], 0.0, 1.0)
    ctx.bound(
        "max_t |u_C(t) - closed form (52)/(54)| (u_C = ||W2^C||, both blocks, every start)",
        float(np.max(np.abs(u - pred))),
        tol["u"],
        why=source["u"],
        details={"u0": u0, "||beta_C||": b},
    )
    dev = max(
        float(np.max(np.abs(coarse.f_relu[..., idx] - fp[..., idx])))
        for idx, fp in zip(label_groups(ds.y), coarse.f_partner, strict=True)
    )
    ctx.bound(
        "max_t |f_ReLU(x_mu) - f_C^lin(x_mu)|, mu in S_C: ReLU = two block-linear nets (48)",
        dev,
        tol["f"],
        resolution=f"an output gap above {tol['f']:.2g}" + _EXACT,
        why=source["f"],
    )
    L_blocks = sum(0.5 * np.sum(r**2, axis=-1) for r in resid) / ds.P
    L_relu = 0.5 * np.sum((ds.y - coarse.f_relu) ** 2, axis=-1) / ds.P
    ctx.bound(
        "max_t |L_ReLU - L_A^lin - L_B^lin| (square loss, 1/P of the whole dataset)",
        float(np.max(np.abs(L_relu - L_blocks))),
        float(tol["loss"]),
        why=source["loss"],
        resolution=f"a loss gap above {float(tol['loss']):.2g}" + _EXACT,
    )
    ctx.figure(
        "u_A(t), u_B(t): full ReLU flow vs the Bernoulli closed form (first start)",
        series=[Series(f"u_{C} numeric", coarse.t, u[k, 0]) for k, C in enumerate("AB")]
        + [Series(f"u_{C} closed form", coarse.t, pred[k, 0], "--") for k, C in enumerate("AB")],
        xlabel="t",
        ylabel="u_C",
        logy=True,
    )
    ctx.figure(
        "loss: ReLU vs the two block-linear nets (first start)",
        series=[
            Series("ReLU", coarse.t, L_relu[0]),
            Series("L_A^lin + L_B^lin", coarse.t, L_blocks[0], "--"),
        ],
        xlabel="t",
        ylabel="loss",
        logy=True,
    )
    return tol
