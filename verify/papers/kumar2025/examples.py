r"""kumar2025 App. D.5: on a two-layer diagonal linear net :math:`x^\top(v\odot u)`, Neuron Pursuit
coincides with Orthogonal Matching Pursuit and differs from the minimum-:math:`\ell_1` solution.

Per coordinate the constrained NCF is :math:`\max_{u_j^2+v_j^2=1}v_ju_j\,X[:,j]^\top r=|X[:,j]^\top r|/2`
(the text's ":math:`/\sqrt2`" should be :math:`/2`), so NP selects by the **unnormalized**
correlation :math:`|X[:,j]^\top r|`.  Column-normalized OMP selects by
:math:`|X[:,j]^\top r|/\|X[:,j]\|` and on this data returns the min-:math:`\ell_1` solution: the
paper's "NP = OMP :math:`\ne` min-:math:`\ell_1`" holds for unnormalized OMP only (catalog finding).

The section's general statement -- for all :math:`X`, :math:`b`, NP = OMP provided gradient descent reaches
the global minimum at every iteration -- is checked on a sweep of random instances (Gaussian and nearly
collinear columns, :math:`k=3` iterations, GD to gradient norm :math:`10^{-10}`) and by an adversarial
search over column norms and collinearity.  An instance where GD stops at a non-global stationary point
(a neuron collapsed to 0 because its least-squares coefficient changed sign after another column joined:
GD keeps :math:`v_j=\pm u_j`, so :math:`v_ju_j` cannot cross 0) lies outside the hypothesis and is
counted, not failed (:func:`_agreement`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
from scipy.optimize import linprog

from numeric.engine.descent import gradient_descent
from numeric.engine.trajectory import Status
from verify.claim import claim
from verify.context import Context
from verify.hypotheses import Hypothesis
from verify.papers.kumar2025.hypotheses import OMP_UNNORMALIZED
from verify.search import squash

X_D5 = np.array([[1.0, 0.0, -0.1], [0.0, 1.0, 1.0 + 0.2 / 3]])
B_D5 = np.array([1.0, 2.0])


def omp_path(
    X: np.ndarray, b: np.ndarray, steps: int, normalized: bool
) -> tuple[list[np.ndarray], list[int], list[float], np.ndarray]:
    r"""OMP on one instance: at step :math:`t` select :math:`j_t=\arg\max_{j\notin S}s_j`,
    :math:`s_j=|X_j^\top r|/w_j` with :math:`w_j=\|X_j\|` if ``normalized`` else 1, then least squares on
    the support.

    Returns the iterates, the selected columns, the selection margins (top minus second score among the
    unselected columns: how far the step is from a tie) and the weights :math:`w`."""
    weights = np.linalg.norm(X, axis=0) if normalized else np.ones(X.shape[1])
    support: list[int] = []
    margins: list[float] = []
    z = np.zeros(X.shape[1])
    out = []
    for _ in range(steps):
        corr = np.abs(X.T @ (b - X @ z)) / weights
        corr[support] = -np.inf
        top2 = np.sort(corr)[-2:]
        margins.append(float(top2[1] - top2[0]))
        support.append(int(np.argmax(corr)))
        z = np.zeros(X.shape[1])
        z[support] = np.linalg.lstsq(X[:, support], b, rcond=None)[0]
        out.append(z)
    return out, support, margins, weights


def omp(X: np.ndarray, b: np.ndarray, steps: int, normalized: bool) -> list[np.ndarray]:
    """OMP iterates: select argmax |X_j^T r| (over |X_j| if ``normalized``), least squares on the support
    (:func:`omp_path`)."""
    return omp_path(X, b, steps, normalized)[0]


def min_l1(X: np.ndarray, b: np.ndarray) -> np.ndarray:
    r""":math:`\arg\min\|z\|_1` s.t. :math:`Xz=b` (linear program in :math:`z=z^+-z^-`)."""
    d = X.shape[1]
    res = linprog(
        np.ones(2 * d), A_eq=np.hstack([X, -X]), b_eq=b, bounds=[(0, None)] * (2 * d), method="highs"
    )
    return res.x[:d] - res.x[d:]


def _z_gradient(X: np.ndarray, b: np.ndarray, z: np.ndarray) -> np.ndarray:
    r""":math:`g_i=X_i^\top(X_iz_i-b_i)` per member: ``X`` (B, n, d), ``b`` (B, n), ``z`` (B, d) -> (B, d).

    The gradient of :math:`\tfrac12\|Xz-b\|^2` in :math:`z=v\odot u`; the stacked products round as the
    two-dimensional ``X.T @ (X @ z - b)`` does (BLAS per slice)."""
    r = (X @ z[:, :, None])[:, :, 0] - b
    return (r[:, None, :] @ X)[:, 0, :]


class _DiagonalStep:
    r"""GD on :math:`\tfrac12\|X_i(v_i\odot u_i)-b_i\|^2` over the ``active`` coordinates of every member
    :math:`i`, as the engine's fused step (state ``(B, 2d)`` = ``[v, u]``; ``args``: ``X`` (B, n, d), ``b``
    (B, n), ``active`` (B, d)): with :math:`g=X^\top(X(v\odot u)-b)`, :math:`v\leftarrow v-\eta\,g\odot u`,
    :math:`u\leftarrow u-\eta\,g\odot v` on the active coordinates."""

    def descend(self, t: np.ndarray, y: np.ndarray, lr, args: dict) -> None:
        X, b, active = args["X"], args["b"], args["active"]
        d = X.shape[2]
        v, u = y[:, :d], y[:, d:]
        g = _z_gradient(X, b, v * u)
        y[:] = np.concatenate([v - lr * g * u * active, u - lr * g * v * active], axis=1)


def _diagonal_gd(
    X: np.ndarray, b: np.ndarray, v: np.ndarray, u: np.ndarray, active: np.ndarray, lr, steps: int
):
    """``(v, u)`` after ``steps`` steps of :class:`_DiagonalStep` from ``(v, u)`` on the engine, for one
    instance (``X`` (n, d)) or a batch (``X`` (B, n, d), ``lr`` a scalar or (B,)); a run that stops being
    finite raises ``FloatingPointError``."""
    single = X.ndim == 2
    if single:
        X, b, v, u, active = X[None], b[None], v[None], u[None], active[None]
    run = gradient_descent(
        _DiagonalStep(),
        np.concatenate([v, u], axis=1),
        lr=lr,
        steps=steps,
        record=[steps],
        save_state=False,
        args={"X": X, "b": b, "active": active},
    )
    if np.any(run.status != Status.SUCCESS):
        raise FloatingPointError(f"gradient descent on the diagonal linear net: {run.summary()}")
    d = X.shape[2]
    v, u = run.y_stop[:, :d], run.y_stop[:, d:]
    return (v[0], u[0]) if single else (v, u)


def _grad_norm(X: np.ndarray, b: np.ndarray, v: np.ndarray, u: np.ndarray, active: np.ndarray) -> np.ndarray:
    r"""Per member, :math:`\|(g\odot u,\,g\odot v)\|` on the active coordinates: the gradient of the
    restricted loss in :math:`(v,u)`."""
    g = _z_gradient(X, b, v * u) * active
    return np.linalg.norm(np.concatenate([g * u, g * v], axis=1), axis=1)


@dataclass(frozen=True)
class NPRun:
    r"""Neuron Pursuit on ``B`` instances: after iteration ``t + 1``, ``iterates[t]`` (B, d) is
    :math:`v\odot u`, ``selected[t]`` (B,) the coordinate it added, ``grad_norms[t]`` (B,) the
    :math:`(v,u)`-gradient norm where GD stopped and ``steps[t]`` (B,) the GD steps it took."""

    iterates: list[np.ndarray]
    selected: list[np.ndarray]
    grad_norms: np.ndarray
    steps: np.ndarray


def np_diagonal(
    X: np.ndarray,
    b: np.ndarray,
    steps: int,
    delta: float,
    lr,
    gd_steps: int,
    tol: float | None = None,
    chunk: int = 500,
) -> NPRun:
    r"""Neuron Pursuit on :math:`x^\top(v\odot u)` for a batch ``X`` (B, n, d), ``b`` (B, n): add coordinate
    :math:`j^*=\arg\max|X_j^\top r|/2` with :math:`(v,u)=\delta(1,\mathrm{sign}(X_j^\top r))/\sqrt2` (the
    dominant KKT point), then gradient descent on :math:`\tfrac12\|X(v\odot u)-b\|^2` over the active
    coordinates (:func:`_diagonal_gd`, step ``lr``: a scalar or one per member): ``gd_steps`` steps, or
    with ``tol`` rounds of ``chunk`` steps until the :math:`(v,u)`-gradient norm is ``<= tol``, at most
    ``gd_steps`` steps (a member stops at its own round)."""
    B, _, d = X.shape
    v, u, active = np.zeros((B, d)), np.zeros((B, d)), np.zeros((B, d), bool)
    rows = np.arange(B)
    lrs = np.broadcast_to(np.asarray(lr, float), (B,))
    iterates, selected, grad_norms, used = [], [], [], []
    for _ in range(steps):
        g = _z_gradient(X, b, v * u)
        j = np.argmax(np.where(active, -np.inf, np.abs(g) / 2), axis=1)
        active[rows, j] = True
        v[rows, j], u[rows, j] = delta / np.sqrt(2), -delta * np.sign(g[rows, j]) / np.sqrt(2)
        taken = np.zeros(B, int)
        if tol is None:
            v, u = _diagonal_gd(X, b, v, u, active, lr, gd_steps)
            taken[:] = gd_steps
        else:
            live = rows  # the members still descending; all have taken the same number of steps
            while live.size:
                take = min(chunk, gd_steps - int(taken[live[0]]))
                v[live], u[live] = _diagonal_gd(
                    X[live], b[live], v[live], u[live], active[live], lrs[live], take
                )
                taken[live] += take
                norms = _grad_norm(X[live], b[live], v[live], u[live], active[live])
                live = live[(norms > tol) & (taken[live] < gd_steps)]
        grad_norms.append(_grad_norm(X, b, v, u, active))
        iterates.append(v * u)
        selected.append(j)
        used.append(taken)
    return NPRun(iterates, selected, np.array(grad_norms), np.array(used))


GD_TOL = 1e-10  # the (v, u)-gradient norm at which NP's GD stops in the sweep and the search
GLOBAL_REL = 1e-6  # "GD reached the global minimum": distance bound <= GLOBAL_REL * max(1, |z|_inf)
EPS = float(np.finfo(float).eps)
D5_DELTA = 0.01  # NP's insertion scale (the paper's)

GD_GLOBAL = Hypothesis(
    "GD reaches the restricted least-squares minimum (Lemma 21)",
    wording="gradient descent reaches the global minimum of the restricted loss at every NP iteration "
    "(Lemma 21 for the first)",
    condition="an instance is inside when at every NP iteration GD stopped at (v, u)-gradient norm <= 1e-10 "
    "and |g_S|_2 / sigma_min(X_S)^2 <= 1e-6 max(1, |z|_inf) (g_S = X_S^T(X_S z_S - b): the distance to the "
    "restricted least-squares point); the sweep is in the regime when at least half of its draws are "
    "inside and away from selection ties (the rest are counted, outside the statement)",
    test=lambda inside, draws: inside >= draws / 2,
)


@dataclass(frozen=True)
class _Agreement:
    r"""NP against OMP per instance (B,): ``inside`` the hypothesis (GD at the restricted least-squares
    minimum at every iteration), ``spurious`` (GD converged elsewhere: a non-global stationary point),
    ``unconverged`` (GD stopped by the step cap), ``first_outside`` (the first iteration outside, 0 if none),
    ``decided`` (no OMP selection within the GD error of a tie), ``mismatch`` (the selected coordinates
    differ) and ``ratio`` :math:`\max_t\|z^{NP}_t-z^{OMP}_t\|_\infty/\tau_t` (:func:`_agreement`)."""

    inside: np.ndarray
    spurious: np.ndarray
    unconverged: np.ndarray
    first_outside: np.ndarray
    decided: np.ndarray
    mismatch: np.ndarray
    ratio: np.ndarray

    @property
    def checked(self) -> np.ndarray:
        """The instances the statement is checked on: inside the hypothesis and away from ties."""
        return self.inside & self.decided


def _agreement(X: np.ndarray, b: np.ndarray, run: NPRun, normalized: bool, tol: float = GD_TOL) -> _Agreement:
    r"""Classify and compare NP's ``run`` on ``X`` (B, n, d), ``b`` (B, n) with OMP (unnormalized, or
    column-normalized if ``normalized``).

    At iteration :math:`t` with NP's support :math:`S` and iterate :math:`z`, :math:`g_S=X_S^\top(X_Sz_S-b)`
    gives exactly :math:`z_S-\beta^*_S=(X_S^\top X_S)^{-1}g_S` (:math:`\beta^*_S` the least-squares point on
    :math:`S`, the restricted loss's global minimum), so :math:`e_t=\|g_S\|_2/\sigma_{\min}(X_S)^2` bounds
    the distance to it: *inside* when GD stopped at gradient norm ``<= tol`` with
    :math:`e_t\le10^{-6}\max(1,\|z\|_\infty)` at every iteration.  A non-global stationary point has a
    collapsed coordinate :math:`z_j\to0` with :math:`\beta^*_j\ne0`, hence :math:`e_t\ge|\beta^*_j|`.

    OMP's residual differs from NP's by :math:`\|X_S(z_S-\beta^*_S)\|\le\|g_S\|/\sigma_{\min}(X_S)`, which
    moves every score :math:`|X_j^\top r|/w_j` by at most :math:`\max_j(\|X_j\|/w_j)` times that: a step whose
    OMP margin is below twice this is *undecided* (a tie at GD accuracy).

    The iterates must agree within a tolerance set by the stopping rule alone: GD keeps every neuron
    balanced, :math:`|v_j|=|u_j|` (the map preserves :math:`v=\pm u` exactly), so its :math:`(v,u)`-gradient
    norm is :math:`G^2=\sum_{j\in S}2|z_j|g_j^2` and :math:`G\le` ``tol`` gives
    :math:`\|g_S\|_2\le\mathrm{tol}\,(\sum_{j\in S}1/(2|z_j|))^{1/2}`, hence
    :math:`\tau_t=(\mathrm{tol}\,(\sum_S1/(2|z_j|))^{1/2}+8(n+d)\epsilon\|X_S\|(\|X_S\|\|z_S\|+\|b\|))
    /\sigma_{\min}(X_S)^2`: the first term bounds :math:`\|z_S-\beta^*_S\|_2\ge\|z-z^{OMP}\|_\infty` when
    the supports agree, the second the rounding of :math:`g_S` and of OMP's least squares (backward stable:
    :math:`\lesssim\epsilon(\kappa\|\beta\|+\kappa^2\|r\|/\|X_S\|)`, below it).  At iteration 1 the
    ratio is :math:`G/\mathrm{tol}` (one column: the bound is attained up to where GD stopped)."""
    B, _, d = X.shape
    k = len(run.iterates)
    inside, spurious, unconverged = np.ones(B, bool), np.zeros(B, bool), np.zeros(B, bool)
    first_outside, decided = np.zeros(B, int), np.ones(B, bool)
    mismatch, ratio = np.zeros(B, bool), np.zeros(B)
    for i in range(B):
        omp_iterates, chosen, margins, weights = omp_path(X[i], b[i], k, normalized)
        shift = float(np.max(np.linalg.norm(X[i], axis=0) / weights))
        perturbation = 0.0  # |X_S (z - beta*)| bound after the previous iteration
        for t in range(k):
            S = [int(run.selected[s][i]) for s in range(t + 1)]
            z = run.iterates[t][i]
            XS = X[i][:, S]
            g = XS.T @ (XS @ z[S] - b[i])
            sv = np.linalg.svd(XS, compute_uv=False)
            e = float(np.linalg.norm(g)) / sv[-1] ** 2
            converged = run.grad_norms[t][i] <= tol
            if inside[i] and not (converged and e <= GLOBAL_REL * max(1.0, float(np.abs(z).max()))):
                inside[i], first_outside[i] = False, t + 1
                spurious[i], unconverged[i] = converged, not converged
            if t > 0 and margins[t] <= 2 * shift * perturbation:
                decided[i] = False
            perturbation = float(np.linalg.norm(g)) / sv[-1]
            if S != chosen[: t + 1]:
                mismatch[i] = True
            ratio[i] = max(ratio[i], float(np.abs(z - omp_iterates[t]).max()) / _tau(XS, b[i], z, S, tol, d))
    return _Agreement(inside, spurious, unconverged, first_outside, decided, mismatch, ratio)


def _tau(XS: np.ndarray, b: np.ndarray, z: np.ndarray, S: list[int], tol: float, d: int) -> float:
    r""":math:`\tau=(\mathrm{tol}\,(\sum_S1/(2|z_j|))^{1/2}+8(n+d)\epsilon\|X_S\|(\|X_S\|\|z_S\|+\|b\|))
    /\sigma_{\min}(X_S)^2`: the bound on :math:`\|z-z^{OMP}\|_\infty` of an NP iterate ``z`` on the support
    ``S`` whose GD stopped at :math:`(v,u)`-gradient norm ``tol`` (derivation: :func:`_agreement`); inf
    where a neuron collapsed (:math:`z_j=0`)."""
    sv = np.linalg.svd(XS, compute_uv=False)
    rounding = 8 * (XS.shape[0] + d) * EPS * sv[0] * (sv[0] * np.linalg.norm(z) + np.linalg.norm(b))
    with np.errstate(divide="ignore"):
        stop = tol * float(np.sqrt(np.sum(1 / (2 * np.abs(z[S])))))
    return float((stop + rounding) / sv[-1] ** 2)


def _step_size(X: np.ndarray, b: np.ndarray) -> np.ndarray:
    r"""NP's GD step per instance, :math:`\eta=1/(4\|X\|_2^2\|b\|)`: the curvature of the restricted loss
    in :math:`(v,u)` is at most :math:`2\max_j|z_j|\|X_S\|^2+\|g\|_\infty` with :math:`|z_j|\sim\|b\|/\|X\|`
    and :math:`\|g\|_\infty\le\|X\|\|b\|`; it satisfies Lemma 21's :math:`\eta<1/(2|X_j^\top b|)` when
    :math:`\|X\|_2\ge1/2` (checked per instance)."""
    return 1.0 / (4 * np.linalg.norm(X, 2, axis=(1, 2)) ** 2 * np.linalg.norm(b, axis=1))


def _sweep_instances(rng: np.random.Generator, draws: int, n: int, d: int):
    r"""``draws`` instances ``X`` (B, n, d), ``b`` (B, n), half per family: *Gaussian* (entries
    :math:`\mathcal N(0,1/n)`; column norms vary as :math:`\chi_n/\sqrt n`) and *nearly collinear* (column
    :math:`j` along :math:`0.2\xi_j/\|\xi_j\|+0.8w/\|w\|`, one common :math:`w`, rescaled to norm
    :math:`e^{s_j}`, :math:`s_j\sim U(-\tfrac12,\tfrac12)`: ill-conditioned supports, where least-squares
    coefficients change sign as columns join); :math:`b` uniform on the sphere."""
    half = draws // 2
    gauss = rng.normal(size=(half, n, d)) / np.sqrt(n)
    xi, w = rng.normal(size=(draws - half, n, d)), rng.normal(size=(draws - half, n, 1))
    mixed = 0.2 * xi / np.linalg.norm(xi, axis=1, keepdims=True) + 0.8 * w / np.linalg.norm(
        w, axis=1, keepdims=True
    )
    scales = np.exp(rng.uniform(-0.5, 0.5, size=(draws - half, 1, d)))
    collinear = mixed / np.linalg.norm(mixed, axis=1, keepdims=True) * scales
    b = rng.normal(size=(draws, n))
    return np.concatenate([gauss, collinear]), b / np.linalg.norm(b, axis=1, keepdims=True)


SEARCH_SHAPE = (5, 8)  # (n, d) of the searched instances, as the sweep's


def _search_instance(theta: np.ndarray, base: tuple[np.ndarray, np.ndarray, np.ndarray]):
    r"""The instance :math:`\theta\in\mathbb R^{d+1}` describes around ``base`` = (:math:`\xi` (n, d),
    :math:`w` (n,), :math:`b` (n,)): column :math:`j` along :math:`(1-c)\xi_j/\|\xi_j\|+cw/\|w\|` with norm
    :math:`e^{s_j}`, :math:`s_j=\mathrm{squash}(\theta_j,-1,1)`, collinearity
    :math:`c=\mathrm{squash}(\theta_d,0,0.8)`."""
    xi, w, b = base
    d = xi.shape[1]
    s = np.array([squash(t, -1.0, 1.0) for t in theta[:d]])
    c = squash(float(theta[d]), 0.0, 0.8)
    cols = (1 - c) * xi / np.linalg.norm(xi, axis=0) + c * (w / np.linalg.norm(w))[:, None]
    return cols / np.linalg.norm(cols, axis=0) * np.exp(s), b


def _search_violation(
    theta: np.ndarray, base, k: int, cap: int, normalized: bool, tally: dict[str, int]
) -> float:
    r""":math:`\max_t\|z^{NP}_t-z^{OMP}_t\|_\infty/\tau_t` (:func:`_agreement`) on the instance ``theta``
    describes (:func:`_search_instance`) when GD reaches the global minimum at every NP iteration and no
    OMP step is within the GD error of a tie; 0 otherwise (outside the statement; ``tally`` counts)."""
    X, b = _search_instance(theta, base)
    X, b = X[None], b[None]
    try:
        run = np_diagonal(X, b, k, D5_DELTA, _step_size(X, b), cap, tol=GD_TOL)
    except FloatingPointError:
        tally["GD diverged"] += 1
        return 0.0
    agree = _agreement(X, b, run, normalized)
    if not agree.checked[0]:
        tally["outside"] += 1
        return 0.0
    tally["inside"] += 1
    return float(agree.ratio[0])


@claim(
    "kumar2025:section-D.5",
    title="Diagonal linear net: NP = (unnormalized) OMP, not the minimum-l1 solution",
    source="App. D.5, Lemma 21, Sec. 5.3",
    statement=r"For all $X$, $b$: NP on $x^\top(v\odot u)$ equals OMP provided GD reaches the global minimum "
    r"at every iteration; on $X=\begin{bmatrix}1&0&-0.1\\0&1&1+0.2/3\end{bmatrix}$, $b=(1,2)$: "
    r"NP iterates $(0,0,1.77)$, "
    r"$(1.19,0,1.88)$ equal OMP's; the min-$\ell_1$ solution is $(1,2,0)$",
    hypotheses=[OMP_UNNORMALIZED, GD_GLOBAL],
)
def section_d5(ctx: Context) -> None:
    gd_steps = ctx.param("steps", tiny=20_000, quick=60_000, full=200_000)
    draws = ctx.param("draws", tiny=8, quick=32, full=128)
    sweep_cap = ctx.param("sweep_steps", tiny=20_000, quick=60_000, full=200_000)
    budget = ctx.param("search_budget", tiny=10, quick=24, full=120)
    search_cap = ctx.param("search_steps", tiny=10_000, quick=20_000, full=60_000)
    ctx.require(draws >= 2, "draws >= 2 (one per family)")
    run = np_diagonal(X_D5[None], B_D5[None], 2, delta=0.01, lr=0.01, gd_steps=gd_steps, tol=GD_TOL)
    iterates, grad_norms = [z[0] for z in run.iterates], run.grad_norms[:, 0]
    ctx.bound(
        "GD gradient norm at the end of each NP iteration",
        max(grad_norms),
        1e-10,
        why="GD run to convergence (Lemma 21); the check below uses this residual",
    )
    # per iteration, tau bounds |z_NP - z_LS|_inf from where GD stopped (_tau, derived in _agreement)
    supports = [[int(j[0]) for j in run.selected[: t + 1]] for t in range(len(iterates))]
    taus = [_tau(X_D5[:, S], B_D5, z, S, GD_TOL, 3) for S, z in zip(supports, iterates, strict=True)]
    printed = [np.array([0.0, 0.0, 1.772]), np.array([1.1875, 0.0, 1.875])]
    ctx.close(
        "NP iterate 1 vs the paper's (0, 0, 1.772)",
        iterates[0],
        printed[0],
        atol=5e-4,
        why="the paper prints 3-4 digits",
    )
    ctx.close(
        "NP iterate 2 vs the paper's (1.1875, 0, 1.875)",
        iterates[1],
        printed[1],
        atol=5e-4,
        why="the paper prints 3-4 digits",
    )
    l1 = min_l1(X_D5, B_D5)
    ctx.close(
        "min-l1 solution = (1, 2, 0)", l1, np.array([1.0, 2.0, 0.0]), atol=1e-9, why="LP solver tolerance"
    )
    ctx.holds(
        "NP final differs from min-l1",
        float(np.abs(iterates[-1] - l1).max()) > 0.5,
        measured=float(np.abs(iterates[-1] - l1).max()),
        expected="> 0.5",
        why="exact values differ by ~1",
    )
    for it, z_omp in enumerate(omp(X_D5, B_D5, 2, normalized=False), start=1):
        ctx.close(
            f"NP iterate {it} = unnormalized OMP iterate {it}",
            iterates[it - 1],
            z_omp,
            atol=taus[it - 1],
            why="tau = (1e-10 (sum_S 1/(2|z_j|))^(1/2) + 8(n+d) eps |X_S|(|X_S||z| + |b|)) "
            "/ sigma_min(X_S)^2 (_tau): GD stopped at (v, u)-gradient norm <= 1e-10 with balanced neurons, "
            "so |g_S| <= 1e-10 (sum_S 1/(2|z_j|))^(1/2) and z_S - beta*_S = (X_S^T X_S)^-1 g_S; + rounding",
        )
    ctx.note(
        "The text's per-coordinate NCF value |X[:,j]^T y|/sqrt(2) should be /2 (max of v u on u^2+v^2=1)."
    )
    ctx.note(
        "Catalog finding confirmed: column-normalized OMP (selection by |X_j^T r|/|X_j|) picks column 2 "
        "first and returns the min-l1 solution (1, 2, 0); 'NP = OMP != min-l1' holds for unnormalized "
        "OMP only."
    )

    # the general statement: random instances, k = 3 NP iterations, GD to gradient norm GD_TOL
    k, (n, d) = 3, SEARCH_SHAPE
    X, b = _sweep_instances(ctx.rng("sweep").host, draws, n, d)
    lr = _step_size(X, b)
    sweep = np_diagonal(X, b, k, D5_DELTA, lr, sweep_cap, tol=GD_TOL)
    agree = _agreement(X, b, sweep, normalized=False)
    checked = agree.checked
    ctx.regime(GD_GLOBAL, inside=int(checked.sum()), draws=draws)
    rows = np.arange(draws)
    j1 = sweep.selected[0]
    c1 = np.abs(np.einsum("bn,bn->b", X[rows, :, j1], b))
    lemma21 = (lr < 1 / (2 * c1)) & (D5_DELTA < np.sqrt(2 * c1) / np.linalg.norm(X[rows, :, j1], axis=1))
    at_one = agree.first_outside == 1
    families = np.arange(draws) < draws // 2
    counts = {
        "inside and decided (Gaussian, collinear)": [
            int(checked[families].sum()),
            int(checked[~families].sum()),
        ],
        "spurious stationary point": int(agree.spurious.sum()),
        "GD step cap reached": int(agree.unconverged.sum()),
        "first iteration outside (count per iteration 1..k)": np.bincount(
            agree.first_outside, minlength=k + 1
        )[1:],
        "near ties (inside, undecided)": int((agree.inside & ~agree.decided).sum()),
        "GD steps per iteration (median, max)": [np.median(sweep.steps, axis=1), sweep.steps.max(axis=1)],
    }
    ctx.holds(
        "sweep: GD reaches the global minimum at NP iteration 1 on every draw (Lemma 21)",
        bool(lemma21.all() and not at_one.any()),
        measured=int(at_one.sum()),
        expected=0,
        why="Lemma 21 (one coordinate, scaled to a unit column: eta < 1/(2|X_j^T b|), "
        f"delta < sqrt(2|X_j^T b|)/|X_j|, holding on {int(lemma21.sum())} of {draws} draws): no stationary "
        "point but the origin and the global minimum, so every draw must be inside at iteration 1 "
        "(measured: draws outside there)",
        details=counts,
    )
    ctx.holds(
        "sweep: NP support = unnormalized OMP support (draws inside the hypothesis)",
        not agree.mismatch[checked].any(),
        measured=int(agree.mismatch[checked].sum()),
        expected=0,
        why="App. D.5's argument: at the restricted least-squares point NP's residual is OMP's and NP's NCF "
        f"score |X_j^T r|/2 ranks as OMP's |X_j^T r|; checked on the {int(checked.sum())} of {draws} draws "
        "where GD reached the global minimum at every iteration and no OMP step lies within the GD error "
        "of a tie (margin > 2 max_j |X_j| |g_S|/sigma_min(X_S)); measured: draws with a different selection",
        details=counts,
    )
    ctx.bound(
        "sweep: |NP iterate - unnormalized OMP iterate| / derived tolerance <= 1",
        float(agree.ratio[checked].max(initial=0.0)),
        1.0,
        why="per draw and iteration, |z_NP - z_OMP|_inf over tau = (1e-10 (sum_S 1/(2|z_j|))^(1/2) + "
        "8(n+d) eps |X_S|(|X_S||z| + |b|)) / sigma_min(X_S)^2: z_S - beta*_S = (X_S^T X_S)^-1 g_S exactly, "
        "and GD's stop at (v, u)-gradient norm 1e-10 with balanced neurons (|v_j| = |u_j|) bounds |g_S|_2 by "
        "1e-10 (sum_S 1/(2|z_j|))^(1/2); the second term is the rounding of g_S and of OMP's backward-stable "
        "least squares; worst over the draws inside the hypothesis (at iteration 1 the ratio is the final "
        "gradient norm over 1e-10: the bound is attained up to where GD stopped)",
        details=counts,
    )
    ctx.note(
        f"D.5 sweep ({draws} draws of X in R^{n}x{d}, |b| = 1, k = {k}, half Gaussian, half nearly "
        f"collinear columns): {int(checked.sum())} inside the hypothesis and away from ties; "
        f"{int(agree.spurious.sum())} stopped at a non-global stationary point, "
        f"{int(agree.unconverged.sum())} at the GD step cap ({sweep_cap}), first outside at iterations "
        f"{sorted(set(agree.first_outside[~agree.inside].tolist()))} "
        "(counted outside the statement, not as failures; the paper expects spurious stationary points from "
        "iteration 2 on)."
    )

    # adversarial search over (X, b): column norms and collinearity around one base draw
    search_rng = ctx.rng("search").host
    xi, w, b0 = search_rng.normal(size=(n, d)), search_rng.normal(size=n), search_rng.normal(size=n)
    base = (xi, w, b0 / np.linalg.norm(b0))
    scales = search_rng.uniform(-1.0, 1.0, size=d)
    starts = {
        "Gaussian columns (c ~ 0.01)": [np.append(scales, -4.0)],
        "nearly collinear columns (c ~ 0.7)": [np.append(scales, 2.0)],
    }
    tally = {"inside": 0, "outside": 0, "GD diverged": 0}
    ctx.search(
        "search: |NP - unnormalized OMP| / derived tolerance where GD reaches the global minimum",
        partial(_search_violation, base=base, k=k, cap=search_cap, normalized=False, tally=tally),
        starts,
        budget=budget,
        why="Nelder-Mead over the column norms e^s (s in [-1, 1]) and the collinearity c in [0, 0.8] of a "
        "5 x 8 instance (_search_instance), k = 3: the worst |z_NP - z_OMP|_inf / tau (tolerance as in the "
        "sweep) over instances where GD reaches the global minimum at every iteration and no OMP step is "
        "within the GD error of a tie (others score 0 and are counted in a note)",
    )
    ctx.note(f"D.5 search instances: {tally}.")

    with ctx.control(
        "column-normalized OMP",
        breaks=OMP_UNNORMALIZED,
        must_break=[
            "NP iterate 1 = *OMP iterate 1",
            "NP iterate 2 = *OMP iterate 2",
            "sweep: NP support = *OMP support (draws inside the hypothesis)",
            "sweep: |NP iterate - *OMP iterate| / derived tolerance <= 1",
        ],
    ):
        normalized = omp(X_D5, B_D5, 2, normalized=True)
        for it, z_omp in enumerate(normalized, start=1):
            ctx.close(
                f"NP iterate {it} = OMP iterate {it}",
                iterates[it - 1],
                z_omp,
                atol=taus[it - 1],
                why="as above",
            )
        ctx.holds(
            "OMP final differs from min-l1",
            float(np.abs(normalized[-1] - l1).max()) > 0.5,
            measured=float(np.abs(normalized[-1] - l1).max()),
            expected="> 0.5",
            why="as above",
        )
        norm_agree = _agreement(X, b, sweep, normalized=True)
        ctx.holds(
            "sweep: NP support = OMP support (draws inside the hypothesis)",
            not norm_agree.mismatch[norm_agree.checked].any(),
            measured=int(norm_agree.mismatch[norm_agree.checked].sum()),
            expected=0,
            why="as above",
        )
        ctx.bound(
            "sweep: |NP iterate - OMP iterate| / derived tolerance <= 1",
            float(norm_agree.ratio[norm_agree.checked].max(initial=0.0)),
            1.0,
            why="as above",
        )
        control_tally = {"inside": 0, "outside": 0, "GD diverged": 0}
        ctx.search(
            "search: |NP - OMP| / derived tolerance where GD reaches the global minimum",
            partial(_search_violation, base=base, k=k, cap=search_cap, normalized=True, tally=control_tally),
            starts,
            budget=2,
            why="as above, column-normalized OMP (the starts and one step): shows the search's objective "
            "breaks with the hypothesis; not a required conclusion, since near some base draws (about 1 in "
            "100 over seeds) no instance the search reaches changes OMP's selection under column "
            "normalization, while the sweep's draws break it robustly (5-22 differing selections)",
        )
