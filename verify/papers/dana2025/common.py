r"""Shared setup of the dana2025 claims: data sets, ensembles, runs and constants.

* :class:`Data` -- one data set ``(norms, y, G)`` with the paper's constants
  :math:`C^{\pm}_{x,y}`, the Assumption-2 margin and Theorem 1's :math:`C`.
* :func:`make_data` -- App. B norms and labels with inputs that are orthogonal, at a chosen
  fraction of the Assumption-2 limit (correlated, Gram construction), uniform on a
  sphere of dimension ``d`` (exact Gram by Bartlett), or equicorrelated;
  :func:`axis_inputs` -- orthogonal inputs in full coordinates, exactly orthogonal in floating point.
* :func:`ensemble` -- ``B`` networks with the App. B initialization in Gram (or
  orthogonal) coordinates, as a flat device state plus solver ``args``.
* :func:`run_gd` -- the p-accelerated flow by the exact GD map (forward Euler) of the
  field, all members in one batched program, with loss, exact curvature and
  :math:`\min_i|1-r_i/y_i|` recorded.
* :func:`init_gap` -- Assumption 1's margin on a state.
* :func:`certified` -- Theorem 1's deterministic convergence certificate.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.backend import Backend, array_namespace, to_numpy
from numeric.data.weakly_correlated import (
    appendix_b_init,
    appendix_b_init_reduced,
    appendix_b_labels,
    appendix_b_norms,
    assumption2_limit,
    equicorrelated_gram,
    offdiag_norm,
    perturbed_gram,
    pytorch_default_init,
    scale_gram,
    sphere_directions,
    sphere_gram,
)
from numeric.engine.descent import gradient_descent
from numeric.engine.integrators.control import AdaptiveStep
from numeric.engine.integrators.events import Switching
from numeric.engine.integrators.methods import DOPRI5
from numeric.engine.solve import solve
from numeric.models.shallow_relu import ShallowReLU
from verify.context import Context, Series
from verify.evidence import OrderFit, fit_order
from verify.papers.dana2025.hypotheses import a1_gap

EPS = float(np.finfo(np.float64).eps)
FINE_GAIN = 100.0  # tolerance ratio of the two solves of solve_with_error
# The refined solve's error in a conserved or integrated quantity is at least MIN_GAIN times smaller than
# the coarse solve's: measured ratios 31-400 (Lemma 2's defect, 4 seeds x 2 sizes, rtol 1e-6..1e-10) and
# 120-354 (Lemma 1's drift on exactly orthogonal inputs, quick and full profiles, 6 seeds each), not
# exactly FINE_GAIN (the switch times located by events do not scale with rtol); 10 is 3x below the
# smallest ratio seen
MIN_GAIN = 10.0


@dataclass(frozen=True)
class Data:
    """Inputs through their Gram matrix ``G`` (n, n), norms, labels ``y`` and dimension ``d``."""

    norms: np.ndarray
    y: np.ndarray
    G: np.ndarray
    d: int
    name: str

    @property
    def n(self) -> int:
        return len(self.y)

    @property
    def cx(self) -> tuple[float, float]:
        r""":math:`(C_x^-, C_x^+)`."""
        return float(self.norms.min()), float(self.norms.max())

    @property
    def cy(self) -> tuple[float, float]:
        r""":math:`(C_y^-, C_y^+)`."""
        a = np.abs(self.y)
        return float(a.min()), float(a.max())

    @property
    def off(self) -> float:
        r""":math:`\|X^\top X-D_X\|` (spectral)."""
        return float(offdiag_norm(self.G))

    @property
    def limit(self) -> float:
        """Right-hand side of eq. (4)."""
        return float(assumption2_limit(self.norms, self.y))

    @property
    def assumption2(self) -> bool:
        return self.off < self.limit

    @property
    def C(self) -> float:
        """Theorem 1's constant of these data (:func:`theorem1_constant`)."""
        return theorem1_constant(self.norms, self.y)

    @property
    def orthogonal(self) -> bool:
        return self.off == 0.0


def theorem1_constant(norms: np.ndarray, y: np.ndarray) -> float:
    r"""Theorem 1: :math:`C=\frac65\frac{(C_x^-)^2}{C_x^+}C_y^-`, from the inputs' norms and the labels."""
    norms = np.asarray(norms, float)
    return 1.2 * float(norms.min()) ** 2 / float(norms.max()) * float(np.abs(y).min())


def make_data(
    rng: np.random.Generator,
    n: int,
    kind: str,
    *,
    d: int | None = None,
    frac: float = 0.99,
    rho: float = 0.9,
    unit: bool = False,
) -> Data:
    """App. B norms and labels (or unit norms, labels +-1 with ``unit``) and inputs of ``kind``.

    ``kind``: ``"orthogonal"``; ``"boundary"`` (:math:`\\|X^\\top X-D_X\\|` = ``frac`` x the
    Assumption-2 limit, correlated); ``"label-opposed"`` (the same norm, in one direction tied to the
    labels: :func:`label_opposed_gram`); ``"sphere"`` (uniform directions in dimension ``d``);
    ``"equicorrelated"`` (every pair at correlation ``rho``).
    """
    if unit:
        norms, y = np.ones(n), rng.choice([-1.0, 1.0], n)
    else:
        norms, y = appendix_b_norms(rng, n), appendix_b_labels(rng, n)
    d = max(n, 1) if d is None else d
    if kind == "orthogonal":
        G = np.diag(norms**2)
    elif kind == "boundary":
        G = perturbed_gram(rng, norms, frac * float(assumption2_limit(norms, y)))
    elif kind == "label-opposed":
        G = label_opposed_gram(norms, y, frac * float(assumption2_limit(norms, y)))
    elif kind == "sphere":
        G = scale_gram(sphere_gram(rng, 1, n, d)[0], norms)
    elif kind == "equicorrelated":
        G = equicorrelated_gram(norms, rho)
    else:
        raise ValueError(f"unknown data kind {kind!r}")
    return Data(norms, y, G, d, kind)


def axis_inputs(norms: np.ndarray, d: int) -> np.ndarray:
    r"""Inputs :math:`x_i=c_ie_i` ``(n, d)``, ``d >= n``: orthogonal in floating point too.

    Every row has one nonzero entry, so in full coordinates :math:`\hat z_{ji}=w_{ji}c_i` and the pushed
    residual :math:`(QX)_{jk}=Q_{jk}c_k` are exact single products: on the inactive side of
    :math:`z_{ji}=0` the computed :math:`\dot z_{ji}=\frac{a_j}n(QX)_j\cdot x_i` is exactly 0, as in exact
    arithmetic. A rotated copy (:func:`~numeric.data.weakly_correlated.gram_to_inputs` with an ``rng``)
    has cross terms :math:`\langle\hat x_k|\hat x_i\rangle` of rounding size, which give that side a
    velocity of random sign.
    """
    X = np.zeros((len(norms), d))
    X[:, : len(norms)] = np.diag(norms)
    return X


def order_at_most(
    ctx: Context,
    name: str,
    x: np.ndarray,
    y: np.ndarray,
    *,
    order: float,
    tol: float,
    why: str,
    xlabel: str,
    ylabel: str,
) -> OrderFit:
    r"""A sufficient condition with an unspecified constant (:math:`y\le Cx^{\text{order}}` suffices):
    it bounds the growth of the required quantity ``y`` from above only, so it is refuted only when the
    fitted log-log order's whole 95% interval lies above ``order + tol`` (``tol``: the derived allowance
    for pre-asymptotic terms, ``why`` says how). A smaller order is allowed; a two-sided order check
    would fail the statement on it. Records the fit's figure; returns the fit."""
    fit = fit_order(x, y)
    ctx.figure(
        name,
        xlabel=xlabel,
        ylabel=ylabel,
        logx=True,
        logy=True,
        series=[
            Series("measured", x, y, "o"),
            Series(f"fit: order {fit.slope:.3f}", x, np.exp(fit.intercept) * x**fit.slope, "--"),
        ],
    )
    ctx.bound(
        f"{name}: at most {order:g}, lower end of its 95% interval [{fit.lo:.2f}, {fit.hi:.2f}]",
        fit.lo,
        order + tol,
        why=why,
        resolution=f"an order above {order + tol:.3g} by more than the interval's lower half-width "
        f"{fit.slope - fit.lo:.2g}",
        details={"x": x, "y": y, "order": fit.slope, "interval": [fit.lo, fit.hi]},
    )
    return fit


def label_opposed_gram(norms: np.ndarray, y: np.ndarray, off_norm: float) -> np.ndarray:
    r""":math:`D_X+E` with :math:`E=-\eta\,(uu^\top-\mathrm{diag}(u^2))`, :math:`u_i=\|x_i\|\,
    \mathrm{sign}(y_i)`, and :math:`\eta` set so that :math:`\|E\|=` ``off_norm``.

    Examples of one label sign are pairwise anti-correlated and examples of opposite signs correlated,
    with correlations :math:`\mp\eta` : the direction of :math:`E` that works against fitting (a
    neuron growing along :math:`\sum r_ix_i` on its own label lowers its pre-activation on the other
    examples of that label: step (ii) of Theorem 1's proof), with the spectral norm in (almost) one
    eigenvector instead of spread as in :func:`perturbed_gram`.
    """
    u = norms * np.sign(y)
    E = -(np.outer(u, u) - np.diag(u**2))
    return np.diag(norms**2) + E * (off_norm / np.abs(np.linalg.eigvalsh(E)).max())


def ensemble(
    be: Backend, data: Data, B: int, p: int, rng: np.random.Generator, *, scale: float = 1.0
) -> tuple[ShallowReLU, object, dict, np.ndarray]:
    """``B`` App.-B networks on ``data``: (model, flat device state, args, host pre-activations).

    Orthogonal data use the decoupled representation, others the Gram one; the frozen
    mass :math:`\\|w_j^\\perp\\|^2` is drawn exactly (``d - n`` free directions).
    """
    V, a, wperp2 = appendix_b_init_reduced(rng, data.G, data.d, B, p, scale)
    if data.orthogonal:
        model = ShallowReLU(p, data.n, "orthogonal")
        args = model.args(be, data.norms, data.y, wperp2=wperp2)
    else:
        model = ShallowReLU(p, data.n, "gram")
        args = model.args(be, data.G, data.y, wperp2=wperp2)
    return model, be.asarray(model.pack((V, a))), args, V


def init_gap(model: ShallowReLU, y, args: dict) -> float:
    r""":func:`~verify.papers.dana2025.hypotheses.a1_gap` of every member of a flat state (the frozen mass
    included in :math:`\|w_j\|` in the reduced modes)."""
    return a1_gap(to_numpy(model.unpack(y)[1]), np.sqrt(to_numpy(model.weight_sqnorm(y, args))))


def observer(model: ShallowReLU):
    """Loss, exact curvature (5) and :math:`\\min_i|1-r_i/y_i|` at every record."""

    def observe(t, y, args):
        r = model.residual(y, args)
        return {
            "loss": model.loss_value(y, args),
            "mu": model.curvature(y, args),
            "minf": abs(1 - r / args["y"]).min(axis=1),
        }

    return observe


@dataclass
class Run:
    """Host records of a batched GD run: times ``t`` (T,), ``loss``/``mu``/``minf`` (B, T), final state."""

    t: np.ndarray
    loss: np.ndarray
    mu: np.ndarray
    minf: np.ndarray
    final: object


def run_gd(model: ShallowReLU, y0, args: dict, *, lr: float, T: float, every: int) -> Run:
    """The flow :math:`\\dot\\theta=-p\\nabla L` on ``[0, T]`` by GD steps of size ``lr`` (one program)."""
    steps = int(np.ceil(T / lr / every)) * every
    traj = gradient_descent(
        model,
        y0,
        lr=lr,
        steps=steps,
        record=np.arange(0, steps + 1, every),
        args=args,
        observe=observer(model),
        save_state=False,
    )
    if not np.all(traj.status == 0):
        raise RuntimeError(f"GD run failed:\n{traj.summary()}")
    obs = {k: to_numpy(v) for k, v in traj.observed.items()}
    return Run(traj.ts * lr, obs["loss"], obs["mu"], obs["minf"], traj.y_stop)


def certified(run: Run, data: Data) -> np.ndarray:
    r"""Theorem 1's certificate, per member: :math:`\min_tL(t)<(C_y^-)^2/(2n)`.

    Then :math:`|r_i|\le\sqrt{2nL}<C_y^-\le|y_i|` for all later times (L is non-increasing),
    so :math:`1-r_i/y_i` stays bounded away from 0 and (6) forces exponential convergence.
    """
    return run.loss.min(axis=1) < data.cy[0] ** 2 / (2 * data.n)


def p_theorem1(n: int, eps: float) -> int:
    r"""Lemma 5's width at :math:`\varepsilon/2`, :math:`\lceil4\log(4n/\varepsilon)\rceil`: Theorem 1's
    width without its factor :math:`1+(C_{a,w}C_x^+/C_y^+)^2\ge1`, so the first step of Theorem 1's proof
    (App. A.1) at the narrowest width the theorem allows for any law (the law's own width:
    :func:`~verify.papers.dana2025.convergence.law_width`)."""
    return int(np.ceil(4 * np.log(4 * n / eps)))


def solve_flow(model, y0, args: dict, ts: np.ndarray, *, rtol: float, max_steps: int = 20_000):
    """Adaptive DOPRI5 solve of the flow (per-member steps), states at ``ts`` on the host ``(B, T, N)``.

    Every activation switch is an event (``events=model.switching``,
    :mod:`numeric.engine.integrators.events`): each member's steps end on the surfaces it
    crosses, so its error is controlled by ``rtol`` through the switches (without events the
    error control finds every kink by trial and error). Where both sides point into a surface
    the entry is integrated live (no sliding mode for this model). Orthogonal data, where these
    solves are used, has none, provided they are orthogonal in floating point too: the reduced
    coordinates, or inputs :math:`c_ie_i` in full ones (rounding-level cross terms make a neuron
    stopped on a surface look sliding, and live integration chatters there: dana2025:lemma-1's
    ``_balance_flow``). A failed member is an error, not data.
    """
    traj = solve(
        model,
        y0,
        ts,
        method=DOPRI5,
        control=AdaptiveStep(rtol=rtol, atol=rtol * 1e-3),
        args=args,
        max_steps=max_steps,
        events=model.switching,
    )
    if not np.all(traj.status == 0):
        raise RuntimeError(f"flow solve failed:\n{traj.summary()}")
    return to_numpy(traj.ys)


class WithCurvatureIntegral:
    r"""The flow augmented by :math:`\dot I=\mu(\theta)`: the last state entry is :math:`\int_0^t\mu`."""

    def __init__(self, model, scale: float = 1.0):
        self.model, self.scale = model, scale

    def __call__(self, t, y, args):
        xp = array_namespace(y)
        th = y[:, :-1]
        mu = self.model.curvature(th, args)[:, None]
        return xp.concatenate([self.scale * self.model(t, th, args), mu], axis=1)

    @property
    def switching(self) -> Switching:
        """The model's switching surfaces (the integral, the last entry, switches nothing)."""
        sw = self.model.switching
        return Switching(values=lambda y, args: sw.values(y[:, :-1], args), slopes=sw.slopes)


def solve_with_error(model, y0, args, ts: np.ndarray, *, rtol: float, max_steps: int = 20_000):
    """:func:`solve_flow` on ``ts`` at ``rtol`` and on the grid with midpoints inserted at ``rtol/100``.

    Returns the refined solution at ``ts`` and the signed difference ``coarse - fine``, an estimate of
    the coarse solve's error (output times cap the steps, so a tighter rtol alone may take the same
    steps; halving the output spacing forces smaller ones). The refined solve's error is at least
    ``MIN_GAIN`` times smaller than the coarse one's (see there).
    """
    coarse = solve_flow(model, y0, args, ts, rtol=rtol, max_steps=max_steps)
    fine_ts = np.sort(np.concatenate([ts, (ts[1:] + ts[:-1]) / 2]))
    fine = solve_flow(model, y0, args, fine_ts, rtol=rtol / FINE_GAIN, max_steps=2 * max_steps)[:, ::2]
    return fine, coarse - fine


def p_of_n(n, eps: float = 0.05):
    r"""App. B width :math:`\lfloor\log(n/\varepsilon)/\log(4/3)\rfloor+1` (vectorized)."""
    return (np.floor(np.log(np.asarray(n) / eps) / np.log(4 / 3)) + 1).astype(int)


def t_infinity(n, p):
    r"""App. B training time :math:`t_\infty=1.5\frac{\sqrt{np}}4\log(np)`."""
    return 1.5 * np.sqrt(n * p) / 4 * np.log(n * p)


@dataclass
class SizeSweep:
    """One padded full-coordinate ensemble: member b has its own (p_b, n_b) (App. B data and init)."""

    model: ShallowReLU
    y0: object
    args: dict
    sizes: np.ndarray  # (B, 2): p_b, n_b
    ymin: np.ndarray  # (B,): C_y^- of each member's data


INITS = {"App. B": appendix_b_init, "PyTorch default": pytorch_default_init}


def size_sweep(
    be: Backend, rng: np.random.Generator, d: int, ns, seeds: int, widths, init: str = "App. B"
) -> SizeSweep:
    """``seeds`` networks per sample size in ``ns`` (width ``widths[k]``), App. B data: sphere inputs in
    R^d; the initialization ``init`` is a key of :data:`INITS` (App. B, or the authors' public code).

    All members share one padded array program (see ``ShallowReLU.args(sizes=...)``)."""
    ns, widths = np.asarray(ns), np.asarray(widths)
    nmax, pmax, B = int(ns.max()), int(widths.max()), len(ns) * seeds
    X, Y = np.zeros((B, nmax, d)), np.zeros((B, nmax))
    W, A = np.zeros((B, pmax, d)), np.zeros((B, pmax))
    sizes = np.zeros((B, 2))
    for b in range(B):
        n, p = int(ns[b // seeds]), int(widths[b // seeds])
        X[b, :n] = sphere_directions(rng, (n, d)) * appendix_b_norms(rng, n)[:, None]
        Y[b, :n] = appendix_b_labels(rng, n)
        w, a = INITS[init](rng, 1, p, d)
        W[b, :p], A[b, :p] = w[0], a[0]
        sizes[b] = (p, n)
    model = ShallowReLU(pmax, d, "full")
    ymin = np.array([np.abs(Y[b, : int(sizes[b, 1])]).min() for b in range(B)])
    return SizeSweep(model, be.asarray(model.pack((W, A))), model.args(be, X, Y, sizes=sizes), sizes, ymin)


def converged_by(sweep: SizeSweep, T: np.ndarray, lr: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    r"""App. B protocol: GD with step ``lr`` until each member's ``T``; converged iff
    :math:`L<C_y^-/(2n)` at some step (early stop). Returns (converged, final/initial loss)."""
    steps = int(np.ceil(T.max() / lr))
    traj = gradient_descent(
        sweep.model,
        sweep.y0,
        lr=lr,
        steps=steps,
        record=np.arange(steps + 1),
        args=sweep.args,
        observe=sweep.model.observer(),
        save_state=False,
    )
    L = to_numpy(traj.observed["loss"])
    k = np.arange(steps + 1)[None, :] * lr <= T[:, None]
    conv = ((L < (sweep.ymin / (2 * sweep.sizes[:, 1]))[:, None]) & k).any(axis=1)
    last = np.array([L[b, k[b]][-1] for b in range(len(T))])
    return conv, last / L[:, 0]


def orthogonal_sweep(be: Backend, rng: np.random.Generator, d: int, ns, seeds: int, widths) -> SizeSweep:
    """Like :func:`size_sweep` on orthogonal inputs x_i = c_i e_i (c_i ~ U[1, 2]) in R^d, App. B init
    drawn exactly in the decoupled coordinates (frozen mass chi^2_{d-n}/d included)."""
    ns, widths = np.asarray(ns), np.asarray(widths)
    nmax, pmax, B = int(ns.max()), int(widths.max()), len(ns) * seeds
    C, Y = np.zeros((B, nmax)), np.zeros((B, nmax))
    V, A, wperp2 = np.zeros((B, pmax, nmax)), np.zeros((B, pmax)), np.zeros((B, pmax))
    sizes = np.zeros((B, 2))
    for b in range(B):
        n, p = int(ns[b // seeds]), int(widths[b // seeds])
        C[b, :n], Y[b, :n] = appendix_b_norms(rng, n), appendix_b_labels(rng, n)
        v, a, wp = appendix_b_init_reduced(rng, np.diag(C[b, :n] ** 2), d, 1, p)
        V[b, :p, :n], A[b, :p], wperp2[b, :p] = v[0], a[0], wp[0]
        sizes[b] = (p, n)
    model = ShallowReLU(pmax, nmax, "orthogonal")
    ymin = np.array([np.abs(Y[b, : int(sizes[b, 1])]).min() for b in range(B)])
    args = model.args(be, C, Y, wperp2=wperp2, sizes=sizes)
    return SizeSweep(model, be.asarray(model.pack((V, A))), args, sizes, ymin)
