r"""kumar2025 Theorem 7: gradient flow started near a sparse saddle stays there for
:math:`T_\epsilon/\delta^{L-2}` while the small weights follow the NCF flow and align with a
non-negative KKT point of the constrained NCF (eq. 19); from the stable set of the origin they
shrink instead (the "else" branch).

Three instances (``d = 3``, ``n = 10``, Gaussian inputs, targets :math:`\sigma(u^\top x)-\sigma(v^\top x)`
with :math:`u\perp v`), chosen to cover Lemma 8's two routes to Assumption 1 (recorded as the regime):

* two layers, :math:`\sigma=x^2` (:math:`\alpha=1,p=2`, :math:`L=3`): one fitted neuron, two new ones;
  the decomposition is exact (:math:`\mathcal H_1=\sum_jb_j(a_j^\top x)^2`, no remainder);
* three layers, :math:`\sigma=x^2`: one fitted path :math:`n_3(n_2(n_1^\top x)^2)^2` (target squared
  in magnitude, degree 4) and one new layer-1 neuron; the decomposition has the remainder
  :math:`n_3b^2(a^\top x)^4=O(\delta^6)` and :math:`\mathcal H_1` depends on :math:`w_n`;
* two layers, :math:`\sigma=\max(x,x/2)^4` (Lemma 8 (i): :math:`\alpha\ne1`, :math:`p\ge4`, :math:`L=5`,
  window :math:`T/\delta^3`).

Assumption 2 holds with the PL exponent 1/2 at the fitted minima (Morse--Bott along the rescaling
orbits; see assumption-2), measured on each instance as its regime; so is "small :math:`\delta`" (the
largest :math:`\delta\max_s|u_1|` at most 0.1 :math:`|\bar w_n|`).  The else branch is run on the
two :math:`\sigma=x^2` instances from :math:`z=-z_*`, which lies in the stable set of the origin
(balanced negative ray), and on the :math:`p=4` instance from :math:`(a_*,-b_*)` to :math:`|u|=0.75`
(:math:`s\approx28`): its decay to :math:`|u|=0.1` takes :math:`s\approx(10^3-1)/(15\mathcal N(z_*))
\approx2\cdot10^4`, a stiff solve beyond the profiles' budgets (measured: 1.2 million evaluations for one
:math:`\delta` over :math:`s\le80`).

[derived] orders: the initial offset of :math:`w_n` is :math:`\delta` and relaxes (PL), so
:math:`\max_t\|w_n-\bar w_n\|=\Theta(\delta)` (theorem: :math:`O(\delta^{\beta_1})`), its maximum taken
at :math:`t=0`.  What the small weights do to :math:`w_n` is the *coupling*
:math:`\max_t\|w_n(t)-w_n^0(t)\|`, :math:`w_n^0` the flow from the same start with :math:`w_z=0` (the
offset's relaxation taken out).  Two layers: :math:`w_z` enters :math:`\dot w_n` only through the residual,
:math:`O(\delta^L)`, and gradient flow never moves along :math:`w_n`'s rescaling orbit (its tangent is
orthogonal to every gradient: the balance is conserved), so the response stays transverse, where PL
restores it: :math:`\Theta(\delta^L)`.  Three layers: :math:`\nabla_{w_n}\mathcal H_1=O(\delta^L)` has a
component along the orbit, which no force restores, so it accumulates over the window
:math:`T/\delta^{L-2}`: :math:`\Theta(\delta^2)`.  With two layers
:math:`\mathcal H_1` does not depend on :math:`w_n`; the residual seen by :math:`w_z` differs from
:math:`\bar y` by :math:`O(\delta e^{-ct})` plus :math:`O(\delta^{L})` feedback, which in the rescaled time
:math:`s=\delta^{L-2}t` gives :math:`\|w_z/\delta-u_1(s)\|=\Theta(\delta^{L-1})`.  With three layers
:math:`\mathcal H_1` changes to first order along :math:`w_n`'s rescaling orbit, where the offset is not
restored, so the error is :math:`\Theta(\delta)` (theorem: :math:`O(\delta^{\beta_2})`,
:math:`\beta_2=1/2`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import minimize

from numeric.backend import get_backend
from numeric.engine.integrators.control import AdaptiveStep
from numeric.engine.integrators.methods import DOPRI5
from numeric.engine.solve import solve
from numeric.engine.trajectory import Status, Trajectory
from numeric.models.homogeneous_nets import (
    HomogeneousNet,
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
from verify.claim import claim
from verify.context import Context, Series
from verify.papers.kumar2025.fitted_orders import order_tolerance, tolerance_text
from verify.papers.kumar2025.hypotheses import ASSUMPTION_1, ASSUMPTION_2, SMALL_DELTA, W_N_CRITICAL, Z_STABLE

ALPHA, P = 1.0, 2
RTOL, ATOL = 1e-9, 1e-13
HOST = get_backend("numpy")  # the instances' data and fits live on the host (scipy)
RHOS = np.geomspace(1e-5, 1e-2, 7)  # perturbation radii of the Lojasiewicz samples
EPS64 = float(np.finfo(np.float64).eps)


def restricted_loss(X: np.ndarray, y: np.ndarray, shapes, alpha: float, p: int) -> Callable:
    r"""``w -> (residuals, gradient)`` of the restricted loss :math:`\widetilde{\mathcal L}` of the net
    ``shapes`` for flat rows ``w`` (B, n_params)."""

    def fun(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        Ws = unpack(w, shapes)
        return output(Ws, X, alpha, p) - y, pack(loss_and_grad(Ws, X, y, alpha, p)[1])

    return fun


def samples(fun: Callable, w_bar: np.ndarray, rng: np.random.Generator, directions: int):
    """Excess and gradient norm at ``w_bar + rho xi`` for every rho in RHOS (random unit ``xi``), the excess
    summed as (e - e_bar)(e + e_bar)/2 without cancellation.  Both arrays are (len(RHOS), directions).

    The factored excess must equal the loss difference ``|e|^2/2 - |e_bar|^2/2`` summed directly at the
    largest rho (where the cancellation is mild): the two round differently, by at most
    ``(n + 4) eps sum (|e| + |e_bar|)^2`` (n products and sums of n terms), and a larger gap is a broken
    formula (``AssertionError``: the claim is an ERROR), which the fitted exponents, being scale
    invariant, would not see."""
    xi = normalize(rng.normal(size=(directions, w_bar.size)))
    e_bar = fun(w_bar[None])[0]
    excess, grad = [], []
    for rho in RHOS:
        e, g = fun(w_bar + rho * xi)
        excess.append((0.5 * (e - e_bar) * (e + e_bar)).sum(axis=1))
        grad.append(np.linalg.norm(g, axis=1))
    direct = 0.5 * (e * e).sum(axis=1) - 0.5 * (e_bar * e_bar).sum(axis=1)
    rounding = (e.shape[1] + 4) * EPS64 * ((np.abs(e) + np.abs(e_bar)) ** 2).sum(axis=1)
    gap = np.abs(excess[-1] - direct)
    assert np.all(gap <= rounding), f"factored excess off the loss difference by {gap.max():.3g}"
    return np.array(excess), np.array(grad)


def lojasiewicz_exponent(excess: np.ndarray, grad: np.ndarray) -> float:
    r"""The exponent :math:`a` a Łojasiewicz inequality :math:`\|\nabla g\|\ge\mu\Delta^a` needs on these
    samples: the largest over directions of the fitted :math:`d\log\|\nabla g\|/d\log\Delta` (a direction
    with a larger slope has :math:`\|\nabla g\|/\Delta^{a'}\to0` for every :math:`a'` below it).  NaN when
    an excess is not positive (not a strict local minimum along that direction)."""
    if not (excess > 0).all():
        return float("nan")
    logs = np.log(excess), np.log(grad)
    return float(max(np.polyfit(logs[0][:, j], logs[1][:, j], 1)[0] for j in range(excess.shape[1])))


def _flows(X, y, wn, shapes_z, alpha: float = ALPHA, p: int = P):
    """Fields of the full loss flow (eqs. 14-15) and of the reduced NCF flow (eq. 17)."""
    d = X.shape[1]
    full_shapes = [(1 + shapes_z[0][0], d), (1, 1 + shapes_z[0][0])]
    ybar = y - output(unpack(wn[None], [(1, d), (1, 1)]), X, alpha, p)[0]
    net = HomogeneousNet(tuple(full_shapes), alpha, p)
    data = net.args(HOST, X, y)

    def full(t, w, args):
        return net(t, w, data)

    net_z = HomogeneousNet(tuple(shapes_z), alpha, p)
    data_z = net_z.args(HOST, X, ybar)

    def reduced(t, u, args):
        return net_z.ncf_and_grad(u, data_z)[1]

    return full, reduced, full_shapes, ybar


def _assemble(wn: np.ndarray, z: np.ndarray, d: int, new: int) -> np.ndarray:
    """Flat full state from w_n = (a_1, b_1) and w_z = (A rows, B entries)."""
    A, B = z[: new * d].reshape(new, d), z[new * d :]
    return np.concatenate([np.vstack([wn[:d], A]).ravel(), np.concatenate([wn[d:], B])])


def _split(w: np.ndarray, d: int, new: int) -> tuple[np.ndarray, np.ndarray]:
    """(w_n, w_z) from flat full states (..., n_params)."""
    W1, W2 = w[..., : (1 + new) * d], w[..., (1 + new) * d :]
    wn = np.concatenate([W1[..., :d], W2[..., :1]], axis=-1)
    wz = np.concatenate([W1[..., d:], W2[..., 1:]], axis=-1)
    return wn, wz


def _solve(field, y0, ts, args=None, rtol: float = RTOL) -> tuple[np.ndarray, Trajectory]:
    """Adaptive DOPRI5 on the host: this 14-parameter system is far too small to gain from a GPU."""
    traj = solve(
        field,
        np.asarray(y0, float),
        ts,
        method=DOPRI5,
        control=AdaptiveStep(rtol=rtol, atol=ATOL),
        args=args,
        max_steps=200_000,
    )
    return np.asarray(traj.ys), traj


@dataclass(frozen=True)
class _Saddle:
    r"""One Theorem 7 instance: the fitted saddle :math:`(\bar w_n,0)`, the full loss flow (eqs. 14-15)
    and the reduced NCF flow of :math:`\bar{\mathcal H}_1` (eq. 17), on flat states."""

    tag: str
    alpha: float
    p: int
    two_layer: bool
    wn: np.ndarray
    grad_n: np.ndarray  # gradient of the restricted loss at w_n bar
    full: Callable
    ncf: Callable  # u (B, m) -> (N (B,), grad (B, m))
    assemble: Callable  # (w_n, w_z) -> flat full state
    split: Callable  # flat full states (..., N) -> (w_n, w_z)
    n_z: int
    restricted: Callable  # w_n rows -> (residuals, gradient) of the restricted loss (Assumption 2)

    @property
    def L(self) -> int:
        return self.p + 1

    @property
    def rtol(self) -> float:
        """The solves' relative tolerance: 1e-9, or 1e-11 for L > 3, whose E = Theta(delta^(L-1)) falls
        to ~5e-8 at the smallest delta of the small-delta regime (see _instance)."""
        return RTOL if self.L == 3 else 1e-2 * RTOL

    def reduced(self, t, u, args):
        return self.ncf(u)[1]


def _fit(X, y, shapes, rng, alpha: float, p: int) -> tuple[np.ndarray, np.ndarray]:
    """Best fit of the restricted net ``shapes`` (BFGS, 20 restarts, Newton polish) and its gradient."""
    size = sum(r * c for r, c in shapes)
    net = HomogeneousNet(tuple(shapes), alpha, p)
    data = net.args(HOST, X, y)

    def fun(w: np.ndarray) -> tuple[float, np.ndarray]:
        value, grad = net.loss_and_grad(w[None], data)
        return float(value[0]), grad[0]

    fits = [
        minimize(fun, rng.normal(size=size), jac=True, method="BFGS", options={"gtol": 1e-13})
        for _ in range(20)
    ]
    w = min(fits, key=lambda f: f.fun).x
    step = 1e-6  # Newton with a central-difference Hessian of the analytic gradient (error ~1e-10 relative);
    for _ in range(6):  # lstsq's minimum-norm step ignores the rescaling orbits' null directions
        hess = np.column_stack(
            [(fun(w + step * e)[1] - fun(w - step * e)[1]) / (2 * step) for e in np.eye(size)]
        )
        w = w - np.linalg.lstsq(0.5 * (hess + hess.T), fun(w)[1], rcond=1e-9)[0]
    return w, fun(w)[1]


def _target(rng: np.random.Generator, n: int, d: int, alpha: float, p: int) -> tuple[np.ndarray, np.ndarray]:
    """Gaussian inputs and y = sigma(u^T x) - sigma(v^T x), u, v orthonormal (a full-rank residual)."""
    X = rng.normal(size=(n, d))
    u, v = normalize(rng.normal(size=(2, d)))
    u, v = np.linalg.qr(np.stack([u, v], axis=1))[0].T
    sigma = homogeneous(alpha, p)
    return X, sigma.value(X @ u) - sigma.value(X @ v)


def _two_layer(rng: np.random.Generator, tag: str, alpha: float, p: int, n: int = 10, d: int = 3) -> _Saddle:
    """One fitted neuron (w_n) and two new neurons (w_z); the decomposition is exact (no remainder)."""
    X, y = _target(rng, n, d, alpha, p)
    wn, grad_n = _fit(X, y, [(1, d), (1, 1)], rng, alpha, p)
    new = 2
    shapes_z = [(new, d), (1, new)]
    full, _, _, ybar = _flows(X, y, wn, shapes_z, alpha, p)

    net_z = HomogeneousNet(tuple(shapes_z), alpha, p)
    data_z = net_z.args(HOST, X, ybar)

    def ncf(u):
        return net_z.ncf_and_grad(u, data_z)

    return _Saddle(
        tag,
        alpha,
        p,
        True,
        wn,
        grad_n,
        full,
        ncf,
        partial(_assemble, d=d, new=new),
        partial(_split, d=d, new=new),
        new * (d + 1),
        restricted_loss(X, y, [(1, d), (1, 1)], alpha, p),
    )


def _three_layer(rng: np.random.Generator, tag: str, n: int = 10, d: int = 3) -> _Saddle:
    r""":math:`\sigma=x^2`, one fitted path :math:`n_3(n_2(n_1^\top x)^2)^2` (w_n) and one new layer-1
    neuron (a, b): :math:`\mathcal H=\mathcal H(w_n,0)+\mathcal H_1+n_3b^2(a^\top x)^4` (eq. 20), so the
    remainder is :math:`O(\delta^6)`, :math:`K=6>L=3`."""
    alpha, p = 1.0, 2
    X, y = _target(rng, n, d, alpha, p)
    y = y * np.abs(y)  # degree 4 in x, like the fitted path
    shapes_n = [(1, d), (1, 1), (1, 1)]
    wn = _balanced_path(_fit(X, y, shapes_n, rng, alpha, p)[0], d)
    net_n = HomogeneousNet(tuple(shapes_n), alpha, p)
    data = net_n.args(HOST, X, y)
    grad_n = net_n.loss_and_grad(wn[None], data)[1][0]
    n1, n2, n3 = unpack(wn[None], shapes_n)
    ybar = y - output([n1, n2, n3], X, alpha, p)[0]
    neuron = layer_candidates([n1, n2, n3], X, ybar[None], alpha, p)[0]  # H_1 of a new layer-1 neuron
    net = HomogeneousNet(((2, d), (1, 2), (1, 1)), alpha, p)

    def full(t, w, args):
        return net(t, w, data)

    def ncf(u):
        value, grad = neuron.value_and_grad(u[:, None, :])
        return value[:, 0], grad[:, 0]

    def assemble(wn_, wz):
        return np.concatenate([wn_[:d], wz[:d], wn_[d : d + 1], wz[d:], wn_[d + 1 :]])

    def split(w):
        wn_ = np.concatenate([w[..., :d], w[..., 2 * d : 2 * d + 1], w[..., 2 * d + 2 :]], axis=-1)
        wz = np.concatenate([w[..., d : 2 * d], w[..., 2 * d + 1 : 2 * d + 2]], axis=-1)
        return wn_, wz

    restricted = restricted_loss(X, y, shapes_n, alpha, p)
    return _Saddle(tag, alpha, p, False, wn, grad_n, full, ncf, assemble, split, d + 1, restricted)


def _balanced_path(wn: np.ndarray, d: int) -> np.ndarray:
    r"""The point of :math:`n_3n_2^2(n_1^\top x)^4`'s rescaling orbit with :math:`|n_1|^2=2n_2^2`,
    :math:`n_2^2=2n_3^2` (Lemma 3's balance, p = 2): same output, so still a critical point, and an NCF
    of order one (an unbalanced fit can make :math:`\bar{\mathcal H}_1` arbitrarily small)."""
    n1, n2, n3 = wn[:d], wn[d], wn[d + 1]
    K = n3 * n2**2 * float(n1 @ n1) ** 2
    m3 = (abs(K) / 32) ** (1 / 7)
    return np.concatenate([2 * m3 * normalize(n1), [np.sqrt(2) * m3, np.sign(K) * m3]])


@claim(
    "kumar2025:theorem-7",
    title="Near a sparse saddle: stay T/delta^(L-2); small weights follow the NCF flow to a KKT point",
    source="Theorem 7, eqs. 14-19, 37, 42",
    statement=r"$\|w_n(t)-\bar w_n\|=O(\delta^{\beta_1})$, $\|w_z(t)\|=O(\delta)$ on "
    r"$[0,T_\epsilon/\delta^{L-2}]$; "
    r"$z\in\mathcal S(z_*)$ $\Rightarrow$ $\|w_z\|\ge\delta\eta_1$ and "
    r"$z_*^\top w_z/\|w_z\|=1-O(\epsilon)$ at "
    r"$T_\epsilon/\delta^{L-2}$, else $\|w_z(T_\epsilon/\delta^{L-2})\|=\epsilon O(\delta)$; "
    r"$\|w_z(t)-\delta u_1(\delta^{L-2}t)\|=O(\delta^{1+\beta_2})$ (eq. 42)",
    hypotheses=[
        ASSUMPTION_1,
        ASSUMPTION_2,
        W_N_CRITICAL,
        Z_STABLE,
        SMALL_DELTA,
        r"$\sigma=\max(x,\alpha x)^p$, $L=p+1$",
    ],
)
def theorem_7(ctx: Context) -> None:
    """Three instances: two layers with sigma = x^2 (exact decomposition), three layers with sigma = x^2
    (a remainder O(delta^6)), two layers with sigma = max(x, x/2)^4 (Lemma 8 (i): alpha != 1, p >= 4,
    L = 5, window T/delta^3); the else branch (z in the stable set of the origin) on all three."""
    iters = ctx.param("steps", tiny=2000, quick=10_000)
    ratio = ctx.param("delta_ratio", tiny=0.5, quick=0.5, full=0.5)
    trials = ctx.param("trials", tiny=4, quick=5, full=8)
    cases = ctx.param("cases", tiny=3, quick=3, full=3)
    budget = ctx.param("search_budget", tiny=1, quick=3, full=30)
    families = ctx.param("search_families", tiny=1, quick=3, full=3)
    builders = [
        lambda: _two_layer(ctx.rng("data").host, "two layers, x^2", ALPHA, P),
        lambda: _three_layer(ctx.rng("data-3").host, "three layers, x^2"),
        lambda: _two_layer(ctx.rng("data-p4").host, "two layers, max(x, x/2)^4", 0.5, 4),
    ][:cases]
    for i, build in enumerate(builders):
        inst = build()
        ctx.regime(ASSUMPTION_1, alpha=inst.alpha, p=inst.p)
        excess, grad = samples(inst.restricted, inst.wn, ctx.rng(f"loj-{inst.tag}").host, 16)
        ctx.regime(
            ASSUMPTION_2, excess_min=float(excess.min()), a=lojasiewicz_exponent(excess, grad), L=inst.L
        )
        run = _instance(ctx, inst, iters, ratio, trials)
        _else_branch(ctx, inst, *run, controls=i == 0)
        if i == 0:
            search_rng = ctx.rng("z-search").host
            one = np.zeros(inst.n_z)
            one[[0, 1, 2, 6]] = search_rng.normal(size=4)  # neuron 0 only: (a_0, b_0)
            edge = search_rng.normal(size=inst.n_z)  # N = b.q with q = grad_b N: b nearly orthogonal to q
            q = inst.ncf(edge[None])[1][0, -2:]
            edge[-2:] += (1e-3 - edge[-2:] @ q) * q / (q @ q)
            starts = {  # ~1-3 s per instance (three stiff Radau solves): quick 3 per family, tiny 1
                "Gaussian z": [search_rng.normal(size=inst.n_z)],
                "one new neuron active (the other at 0)": [one + 1e-3 * search_rng.normal(size=inst.n_z)],
                "z near the zero set of the NCF (N(z) -> 0+)": [edge],
            }
            ctx.search(
                f"search: worst of Theorem 7's conclusions over z in a positive stable set ({inst.tag})",
                partial(_theorem7_violation, ctx, inst, ratio),
                dict(list(starts.items())[:families]),
                budget=budget,
                why="Theorem 7 for every z in a positive stable set, at three deltas: one-sided orders (the "
                "theorem's beta_1 = beta_2 = 1/2, O(delta) for |w_z|) and the two bounds at T/delta (see "
                "_theorem7_violation); about 1 s per instance (three stiff Radau solves)",
            )


def _theorem7_violation(ctx: Context, inst: _Saddle, ratio: float, theta: np.ndarray) -> float:
    r"""Theorem 7 from one start direction z (``theta``, normalised; the output weights negated when
    :math:`\mathcal N(z)<0`, since :math:`\mathcal N` is odd in them: z is in a positive stable set) at
    three deltas (the main run's top, x ``ratio``, x ``ratio``^2): the largest shortfall against each
    conclusion over its allowance (<= 1 iff it holds, 0 at the leading behaviour): the fitted orders of E,
    of the drift and of the coupling below their derived orders (:func:`_e_order`, 1,
    :func:`_coupling_order`) over the room down to the theorem's beta_2 = beta_1 = 1/2 (the drift's is 0
    unless w_n leaves its start's delta-ball: its max is at t = 0; the coupling's reads the small weights'
    effect on w_n), (1 - order of max |w_z|) / 0.2 (O(delta): the fitted order is
    1 + O(delta^beta_2), so >= 0.8), (|u_1(T)| - min |w_z(T/delta)| / delta) / (|u_1(T)| / 2)
    (|w_z| >= delta |u_1(T)| / 2) and, per delta, (1 - eps - cos(w_z(T/delta), z*)) over the allowance
    1 - eps - :func:`direction_bound` (the main run's derived bound; cos(u_1(T), z*) = 1 - eps), z* the NCF
    flow's direction at 0.999 of its blow-up time (not PGA-refined).
    The plain ratios 1/2 / order, 0.8 / order, ... sat at 1/2 and 0.8 on every instance
    (the drift's and |w_z|'s orders are exactly 1), a floor that hid the other terms from the search."""
    z = normalize(theta[None])[0]
    if inst.ncf(z[None])[0][0] < 0:
        z[-2:] = -z[-2:]  # b: the last two entries (shapes_z = [(2, d), (1, 2)])
    _, traj = _solve(inst.reduced, z[None], np.linspace(0, 10.0, 3))
    t_blow = float(traj.t_stop[0])
    if traj.status[0] == Status.SUCCESS:
        return 0.0  # no blow-up within s = 10: z is outside the positive stable sets measured here
    z_star = normalize(_solve(inst.reduced, z[None], np.array([0.0, 0.999 * t_blow]))[0][0, -1][None])[0]
    s_grid = np.linspace(0.0, 0.7 * t_blow, 41)
    u1 = _solve(inst.reduced, z[None], s_grid)[0][0]
    eps = 1 - float(u1[-1] @ z_star / np.linalg.norm(u1[-1]))
    deltas = 0.1 / float(np.linalg.norm(u1, axis=1).max()) * ratio ** np.arange(3)
    wn_t, wz_t = _paths(ctx, inst, inst.wn, z, deltas, s_grid)
    E, drift, zmax, cos_end, norm_end = _measures(inst, wn_t, wz_t, deltas, u1, z_star)
    coupling = _coupling(ctx, inst, wn_t, deltas, s_grid)
    logd = np.log(deltas)

    def order(v: np.ndarray) -> float:
        return float(np.polyfit(logd, np.log(v), 1)[0])

    e_order, c_order = _e_order(inst), _coupling_order(inst)
    u_end = float(np.linalg.norm(u1[-1]))
    return max(
        (e_order - order(E)) / (e_order - 0.5),
        (1 - order(drift)) / 0.5,
        (c_order - order(coupling)) / (c_order - 0.5),
        (1 - order(zmax * deltas)) / 0.2,
        (u_end - float(np.min(norm_end))) / (0.5 * u_end),
        float(np.max((1 - eps - cos_end) / (1 - eps - direction_bound(eps, E, u_end)))),
    )


def _tolerance_text(parts: dict[str, float], floor: str) -> str:
    """The derivation of a :func:`fitted_orders.order_tolerance` tolerance, for a check's ``why``."""
    return f"Tolerance (fitted_orders.order_tolerance): {tolerance_text(parts, floor)}"


def _e_order(inst: _Saddle) -> float:
    """The derived order of E(delta) in delta (see the order check in :func:`_instance`): L - 1 for two
    layers, 1 for three."""
    return float(inst.L - 1) if inst.two_layer else 1.0


def _coupling_order(inst: _Saddle) -> float:
    """The derived order of the coupling in delta (module docstring): L for two layers, 2 for three."""
    return float(inst.L) if inst.two_layer else 2.0


def _coupling(ctx: Context, inst: _Saddle, wn_t: np.ndarray, deltas, s_grid) -> np.ndarray:
    r"""Per delta, :math:`\max_t\|w_n(t)-w_n^0(t)\|`: ``wn_t`` against the flow from the same start
    :math:`\bar w_n+\delta n` with :math:`w_z=0` (which stays 0: every term of the field in :math:`w_z` has
    degree >= 1 in it), so the offset's relaxation cancels and what remains is the small weights' effect."""
    free, _ = _paths(ctx, inst, inst.wn, np.zeros(inst.n_z), deltas, s_grid)
    return np.linalg.norm(wn_t - free, axis=2).max(axis=1)


def direction_bound(eps: float, E: np.ndarray, u_end: float) -> np.ndarray:
    r"""Theorem 7's direction bound with the proof's own constants (App. B.1, after eq. 43), per delta:
    :math:`\cos(w_z(\bar T),z_*)\ge(1-\epsilon)(1-a)-a/(1-a)`, :math:`a=E(\delta)/\|u_1(T_\epsilon)\|`.

    [derived] :math:`w_z(\bar T)=\delta(u+\zeta)`, :math:`u=u_1(T_\epsilon)`, :math:`\|\zeta\|\le E(\delta)`
    (eq. 42's deviation, max over the window), :math:`u^\top z_*/\|u\|=1-\epsilon\ge0`.  Then
    :math:`\cos=(1-\epsilon)\|u\|/\|u+\zeta\|+\zeta^\top z_*/\|u+\zeta\|`, with
    :math:`\|u\|/\|u+\zeta\|\ge1/(1+a)\ge1-a` and :math:`\zeta^\top z_*/\|u+\zeta\|\ge
    -\|\zeta\|/(\|u\|-\|\zeta\|)=-a/(1-a)`: the proof's :math:`(1-\epsilon)(1-O(\delta^{\beta_2}))-
    O(\delta^{\beta_2})` with :math:`a` in place of each :math:`O(\delta^{\beta_2})`.  For :math:`a\ge1` the
    proof's step does not apply (:math:`\|u+\zeta\|` may vanish): the bound is then -1, no constraint."""
    a = np.asarray(E, dtype=float) / u_end
    return np.where(a < 1, (1 - eps) * (1 - a) - a / np.where(a < 1, 1 - a, 1.0), -1.0)


DIRECTION = "cos(w_z(T_eps/delta), z*) >= (1 - eps)(1 - a) - a/(1 - a), a = E/|u_1(T_eps)|"
DIRECTION_WHY = (
    "[derived, direction_bound] the proof's last display (App. B.1) with its constants: w_z(T)/delta = "
    "u_1(T) + zeta, |zeta| <= E (eq. 42, measured above), so |u|/|u + zeta| >= 1 - a and zeta.z*/|u + zeta| "
    ">= -a/(1 - a); per delta, worst recorded. Given the measured E this is the triangle inequality, so "
    "what it can catch is an end point inconsistent with the path and eps (w_z(T) farther from u_1(T) than "
    "E, a z* other than eps's, w_z and u_1 read at different times) and, in the control, a w_z that does "
    "not follow u_1 (read against the main run's bound); the theorem's 1 - O(eps) rests on a -> 0, the E "
    "order check"
)


def _instance(ctx: Context, inst: _Saddle, iters: int, ratio: float, trials: int):
    tag = inst.tag
    grad = float(np.linalg.norm(inst.grad_n))
    # the saddle (w_n bar, 0) is critical: a hypothesis, read at this claim's bound 1e-10, not the figures'
    # 1e-6 (W_N_CRITICAL's test): Newton polish reaches ~1e-14 (sums of n = 10 terms of size |y| |J| ~ 1e2
    # round at ~1e-13), and 1e-10 displaces the minimizer by < 1e-9, far below the smallest delta; 1e-6
    # would shift the drift by ~1e-6 / 2e-3 relative at the smallest delta, which its order fit reads
    ctx.regime(W_N_CRITICAL, reached=grad <= 1e-10, grad=grad)
    rng = ctx.rng(f"z-{tag}").host
    z = normalize(rng.normal(size=inst.n_z))
    while inst.ncf(z[None])[0][0] <= 0:  # uniform z conditioned on N(z) > 0: Lemma 11's sufficient
        z = normalize(rng.normal(size=inst.n_z))  # condition for blow-up (z in a positive stable set)
    # u_1 blows up in finite time (Lemma 11, L >= 3); its direction near blow-up, refined by PGA, is z*
    _, traj = _solve(inst.reduced, z[None], np.linspace(0, 10.0, 3))
    t_blow = float(traj.t_stop[0])
    late = _solve(inst.reduced, z[None], np.array([0.0, 0.999 * t_blow]))[0][0, -1]
    start = normalize(late[None])
    step = 3e-3 / float(inst.ncf(start)[0][0])  # PGA's rate scales with the NCF's size (its degree L)
    z_star, n_star = projected_gradient_ascent(inst.ncf, start, step=step, iters=iters)
    cos_kkt = float(kkt_cosine(z_star, inst.ncf(z_star)[1])[0])
    # z in S(z*), z* a non-negative KKT point: a hypothesis, read off the NCF flow from z (Lemmas 1, 11: u_1
    # blows up in finite time, L > 2) and its PGA-refined direction (N >= 0, KKT cosine > 1 - 1e-8)
    ctx.regime(
        Z_STABLE,
        reached=traj.status[0] != Status.SUCCESS and n_star[0] >= 0 and cos_kkt > 1 - 1e-8,
        blow_up_time=t_blow,
        N_z_star=float(n_star[0]),
        kkt_cosine=cos_kkt,
    )
    T = 0.7 * t_blow
    s_grid = np.linspace(0.0, T, 41)
    u1 = _solve(inst.reduced, z[None], s_grid, rtol=inst.rtol)[0][0]
    eps = 1 - float(u1[-1] @ z_star[0] / np.linalg.norm(u1[-1]))
    # |w_z| = delta |u_1| must stay small (SMALL_DELTA): the largest delta keeps it below
    # 0.1 min(1, 0.99 |w_n bar|) (0.99: strictly inside the regime's <= 0.1 after rounding)
    u_max, wn_norm = float(np.linalg.norm(u1, axis=1).max()), float(np.linalg.norm(inst.wn))
    top = 0.1 * min(1.0, 0.99 * wn_norm) / u_max
    # L = 5: E = Theta(delta^4) is ~2e-4 at top and ~5e-8 three halvings below, 50x the solves' error
    # (rtol 1e-11 on |u| <= ~5), so 4 deltas at most
    deltas = top * ratio ** np.arange(trials if inst.L == 3 else min(trials, 4))
    ctx.regime(SMALL_DELTA, ratio=float(deltas.max()) * u_max / wn_norm)
    wn_t, wz_t = _paths(ctx, inst, inst.wn, z, deltas, s_grid)
    E, drift, zmax, cos_end, norm_end = _measures(inst, wn_t, wz_t, deltas, u1, z_star[0])
    floor = 2 * inst.rtol * float(np.linalg.norm(inst.wn))  # the two solves' error: rtol |w_n| each
    _, e_tol, e_parts = order_tolerance(deltas, E, 2 * inst.rtol * u_max)  # w_z / delta and u_1: rtol |u|
    ctx.order(
        f"{tag}: E(delta) = max_t |w_z(t)/delta - u_1(delta^(L-2) t)| (eq. 42)",
        deltas,
        E,
        expected=_e_order(inst),
        tol=e_tol,
        why="[derived, module docstring] two layers: H_1 does not depend on w_n, and the initial offset "
        "delta n of w_n relaxes like delta e^(-ct), which in the rescaled time s = delta^(L-2) t feeds "
        "O(delta^(L-1)) into u = w_z/delta (feedback of H_1(w_z) and forcing are O(delta^L)): "
        "Theta(delta^(L-1)). Three layers: H_1 = n_3 n_2 (...) changes to first order along w_n's "
        "rescaling orbit, where the offset's component is not restored (Morse-Bott minimum), so "
        "H_1 bar is off by O(delta) for the whole window: Theta(delta). The theorem guarantees an order "
        f">= beta_2 = 1/2. {_tolerance_text(e_parts, 'rtol |u_1| each')}",
        xlabel="delta",
        ylabel="E",
    )
    _, d_tol, d_parts = order_tolerance(deltas, drift, floor)
    ctx.order(
        f"{tag}: max_t |w_n(t) - w_n bar|",
        deltas,
        drift,
        expected=1.0,
        tol=d_tol,
        why="[derived] the initial offset delta n (|n| = 1) relaxes under PL, so the max is delta, at t = 0; "
        "the theorem guarantees at least beta_1 = 1/2. Resolution: w_n leaving its start's delta-ball within "
        "the window (the non-critical control: order ~0); what the small weights do to w_n is the coupling "
        f"check below. {_tolerance_text(d_parts, 'rtol |w_n bar| each')}",
        xlabel="delta",
        ylabel="drift",
    )
    coupling = _coupling(ctx, inst, wn_t, deltas, s_grid)
    # measurable where the solves' error is <= 1% of it (at full the smallest deltas fall below: delta^3)
    seen = coupling >= 100 * floor
    seen[:3] = True  # at least the three largest deltas (the fit needs three)
    _, c_tol, parts = order_tolerance(deltas[seen], coupling[seen], floor)
    ctx.order(
        f"{tag}: coupling max_t |w_n(t) - w_n^0(t)| (w_n^0: the flow with w_z = 0)",
        deltas[seen],
        coupling[seen],
        expected=_coupling_order(inst),
        tol=c_tol,
        why="[derived, module docstring] the small weights' effect on w_n, the start's offset taken out: "
        "two layers Theta(delta^L) (residual forcing, restored transversally; nothing moves along the "
        "rescaling orbit), three layers Theta(delta^2) (grad_{w_n} H_1 = O(delta^L) accumulated along the "
        "orbit over T/delta^(L-2)); the theorem's O(delta^beta_1) needs only an order > 0. "
        f"{_tolerance_text(parts, 'rtol |w_n bar| each')}; the neighbouring orders lie 1 away; read on the "
        "deltas where that error is <= 1% of the coupling (at least the three largest)",
        xlabel="delta",
        ylabel="coupling",
    )
    _, z_tol, z_parts = order_tolerance(deltas, zmax * deltas, 2 * inst.rtol * zmax * deltas)
    ctx.order(
        f"{tag}: max_t |w_z(t)| = O(delta)",
        deltas,
        zmax * deltas,
        expected=1.0,
        tol=z_tol,
        why="|w_z| = delta |u_1| (1 + O(E/|u_1|)) over the window: order 1; an escape faster than the "
        f"NCF flow would show as an order below 1. {_tolerance_text(z_parts, 'rtol |w_z| each')}",
        xlabel="delta",
        ylabel="max |w_z|",
    )
    ctx.bound(
        f"{tag}: |w_z(T/delta)| / (delta eta_1), eta_1 = |u_1(T)|/2",
        float(np.min(norm_end)) / (0.5 * np.linalg.norm(u1[-1])),
        1.0,
        side=">=",
        why="eta_1 := |u_1(T)|/2 is delta-free; min over delta; holds once E < |u_1(T)|/2",
    )
    u_end = float(np.linalg.norm(u1[-1]))
    direction = direction_bound(eps, E, u_end)
    ctx.bound(
        f"{tag}: {DIRECTION}",
        cos_end,
        direction,
        side=">=",
        why=f"eps = 1 - cos(u_1(T_eps), z*) = {eps:.3g} (the NCF flow's own gap at T_eps = 0.7 t_blow), a = "
        f"{float(E.min() / u_end):.2g}..{float(E.max() / u_end):.2g}; {DIRECTION_WHY}",
        details={"delta": deltas, "a": E / u_end, "bound": direction},
    )
    _small_eps_direction(ctx, inst, z, z_star[0], t_blow, ratio)
    ctx.figure(
        f"{tag}: the reduced NCF flow",
        xlabel="s = delta^(L-2) t",
        ylabel="|.|",
        series=[Series("|u_1(s)|", s_grid, np.linalg.norm(u1, axis=1))],
    )
    return z, z_star[0], deltas, s_grid, u1, direction, d_tol


EPS_SMALL = 0.01  # the direction check's eps near blow-up (T_eps/t_blow ~ 0.94 for x^2, ~ 0.995 for p = 4)


def _small_eps_direction(ctx: Context, inst: _Saddle, z, z_star, t_blow: float, ratio: float) -> None:
    r"""Theorem 7's direction conclusion :math:`z_*^\top w_z/\|w_z\|=1-O(\epsilon)` at a small
    :math:`\epsilon`, read against the proof's bound (:func:`direction_bound`): :math:`T_\epsilon` is the
    first time on a 300-point grid over :math:`[0.7,0.999]\,t_{blow}` where the NCF flow's direction is
    within :math:`1-\cos\le` EPS_SMALL of :math:`z_*`.  The window's :math:`|u_1|` is larger than at 0.7
    :math:`t_{blow}` (6-8x for :math:`x^2`), so the two deltas are smaller, by the same small-delta rule
    (:math:`\delta\max_s|u_1|\le0.1\min(1,0.99|\bar w_n|)`).  The main check at 0.7 :math:`t_{blow}`
    has :math:`\epsilon` 0.18-0.35; this one :math:`\epsilon\le0.01`, where the bound is
    :math:`1-\epsilon-O(a)`."""
    fine = t_blow * (1 - np.geomspace(0.3, 1e-4, 300))
    u_fine = _solve(inst.reduced, z[None], np.concatenate([[0.0], fine]), rtol=inst.rtol)[0][0, 1:]
    gaps = 1 - u_fine @ z_star / np.linalg.norm(u_fine, axis=1)
    s_grid = np.linspace(
        0.0, float(fine[np.argmax(gaps <= EPS_SMALL) if (gaps <= EPS_SMALL).any() else -1]), 41
    )
    u1 = _solve(inst.reduced, z[None], s_grid, rtol=inst.rtol)[0][0]
    eps = 1 - float(u1[-1] @ z_star / np.linalg.norm(u1[-1]))
    top = 0.1 * min(1.0, 0.99 * float(np.linalg.norm(inst.wn))) / float(np.linalg.norm(u1, axis=1).max())
    deltas = top * ratio ** np.arange(2)
    wn_t, wz_t = _paths(ctx, inst, inst.wn, z, deltas, s_grid)
    E, _, _, cos_end, _ = _measures(inst, wn_t, wz_t, deltas, u1, z_star)
    u_end = float(np.linalg.norm(u1[-1]))
    direction = direction_bound(eps, E, u_end)
    ctx.bound(
        f"{inst.tag}: {DIRECTION} at eps <= {EPS_SMALL}",
        cos_end,
        direction,
        side=">=",
        why=f"eps = 1 - cos(u_1(T_eps), z*) = {eps:.3g} at T_eps = {s_grid[-1] / t_blow:.3f} t_blow, a = "
        f"{float(E.min() / u_end):.2g}..{float(E.max() / u_end):.2g}; {DIRECTION_WHY}",
        details={"delta": deltas, "a": E / u_end, "bound": direction},
    )


def _else_start(inst: _Saddle, z_star: np.ndarray) -> tuple[str, np.ndarray, float]:
    r"""(label, start, eps) of the else branch: :math:`z_*` with its output weights negated, in the stable set
    of the origin (the balanced negative ray: :math:`b<0` shrinks :math:`a` along :math:`z_*`'s direction
    while :math:`|a|^2-pb^2=0` is conserved).  For :math:`\sigma=x^2` (even) that is the flow of
    :math:`-z_*`; for :math:`\max(x,x/2)^4` (not even) only :math:`b` (the last two entries) is negated.
    eps: the level :math:`|u(T_\epsilon)|` the NCF flow decays to, 0.1 for :math:`L=3`; for :math:`L=5`,
    :math:`|u|^{-3}=1+15\mathcal N(z_*)s` with :math:`\mathcal N(z_*)\approx3\cdot10^{-3}`: 0.1 takes
    :math:`s\approx2\cdot10^4` (unaffordable: a stiff solve at rate :math:`1/\delta^3`), 0.75 takes
    :math:`s\approx28`, twice the blow-up time of the other branch from :math:`z_*` (s = 14), so a start
    outside the origin's stable set would have escaped by then."""
    if inst.alpha == 1 and inst.p % 2 == 0:
        return "z = -z*", -z_star, 0.1
    z = z_star.copy()
    z[-2:] = -z[-2:]
    return "z = (a*, -b*)", z, 0.75


def _else_branch(
    ctx: Context, inst: _Saddle, z, z_star, deltas, s_grid, u1, direction, drift_tol: float, controls: bool
) -> None:
    r"""The theorem's else branch: from a start in the stable set of the origin (:func:`_else_start`) the
    NCF flow decays to 0, and :math:`\|w_z(T_\epsilon/\delta)\|=\epsilon O(\delta)`.
    With ``controls``, also the controls of the first branch (there, :math:`z\notin\mathcal S(z_*)`), of
    the saddle's criticality and of Assumption 2's local minimum (:func:`_strict_saddle`; ``drift_tol``:
    the main run's tolerance of the drift's order; ``direction``: the main run's direction bound per delta,
    :func:`direction_bound`)."""
    tag = inst.tag
    start, z_else, level = _else_start(inst, z_star)
    long = np.linspace(0.0, 40.0, 401)
    u_else = np.linalg.norm(_solve(inst.reduced, z_else[None], long)[0][0], axis=1)
    ctx.require(
        bool((u_else <= level).any()), f"the NCF flow from {start} did not decay to {level} by s = 40"
    )
    T_else = float(long[np.argmax(u_else <= level)])
    grid = np.unique(np.concatenate([s_grid, np.linspace(0.0, T_else, 41)]))
    wn_t, wz_t = _paths(ctx, inst, inst.wn, z_else, deltas, grid)
    upto = grid <= T_else  # T_else is on the grid (linspace's last point)
    u_path = _solve(inst.reduced, z_else[None], grid[upto], rtol=inst.rtol)[0][0]
    eps_else = float(np.linalg.norm(u_path[-1]))
    E_else = np.linalg.norm(wz_t[:, upto] / np.asarray(deltas)[:, None, None] - u_path, axis=2).max(axis=1)
    ratio_end = np.linalg.norm(wz_t[:, upto][:, -1], axis=1) / (deltas * eps_else)
    u_top = float(np.linalg.norm(u_path, axis=1).max())
    _, e_tol, e_parts = order_tolerance(deltas, E_else, 2 * inst.rtol * u_top)  # as the main run's E
    ctx.order(
        f"{tag}, else branch ({start}): E(delta) = max_t |w_z(t)/delta - u(delta^(L-2) t)| (eq. 42)",
        deltas,
        E_else,
        expected=_e_order(inst),
        tol=e_tol,
        why="[derived] as the first branch's E (_e_order): the offset's relaxation and H_1 do not depend on "
        "the start z, so the NCF flow from a start in the origin's stable set is followed to the same order "
        "(the theorem: >= beta_2 = 1/2). What makes the end-point bound below say more than the triangle "
        f"inequality. {_tolerance_text(e_parts, 'rtol |u| each')}",
        xlabel="delta",
        ylabel="E",
    )
    ctx.bound(
        f"{tag}, else branch ({start}): |w_z(T_eps/delta)| / (delta eps) <= 1 + E/eps, "
        f"eps = |u(T_eps)| <= {level}",
        ratio_end,
        1 + E_else / eps_else,
        why="[derived] the proof's else step (App. B.1): |w_z(T)| <= delta |u(T)| + |zeta|, |zeta| <= "
        f"delta E (eq. 42's deviation from this start's NCF flow u, max over [0, T_eps], measured: "
        f"{float(E_else.min()):.2g}..{float(E_else.max()):.2g}); per delta, worst recorded; eps = |u(T_eps)| "
        f"= {eps_else:.3g}, T_eps = {T_else:.3g} where the NCF flow from {start} first falls to {level} (see "
        "_else_start). Given the measured E this is the triangle inequality; the theorem's eps O(delta) "
        "rests on E -> 0 as delta -> 0 (the else branch's E-order check above)",
        resolution="w_z(T)/delta farther from u(T) than its measured deviation E allows (an end point "
        "inconsistent with the path or eps)",
        details={"delta": deltas, "E": E_else},
    )
    if not controls:
        return
    on_s = np.searchsorted(grid, s_grid)  # s_grid's points in grid (their union): the main run's window
    _, _, _, cos_c, norm_c = _measures(inst, wn_t[:, on_s], wz_t[:, on_s], deltas, u1, z_star)
    with ctx.control(
        "z = -z*: in the stable set of the origin, not of z*",
        breaks=Z_STABLE,
        must_break=[
            f"{tag}: {DIRECTION}",
            f"{tag}: |w_z(T/delta)| / (delta eta_1), eta_1 = |u_1(T)|/2",
        ],
    ):
        ctx.bound(
            f"{tag}: {DIRECTION}",
            cos_c,
            direction,
            side=">=",
            why="as above, against the main run's bound per delta",
        )
        ctx.bound(
            f"{tag}: |w_z(T/delta)| / (delta eta_1), eta_1 = |u_1(T)|/2",
            float(np.min(norm_c)) / (0.5 * np.linalg.norm(u1[-1])),
            1.0,
            side=">=",
            why="as above",
        )
    drift_name = f"{tag}: max_t |w_n(t) - w_n bar|"
    with ctx.control(
        "(w_n bar, 0) not critical: b_1 scaled by 1.3",
        breaks=W_N_CRITICAL,
        must_break=[drift_name],
    ):
        wn_bad = inst.wn.copy()
        wn_bad[-1] *= 1.3
        wn_t, _ = _paths(ctx, inst, wn_bad, z, deltas, s_grid)
        ctx.order(
            drift_name,
            deltas,
            np.linalg.norm(wn_t - wn_bad, axis=2).max(axis=1),
            expected=1.0,
            tol=drift_tol,
            why="as above (the main run's tolerance)",
            xlabel="delta",
            ylabel="drift",
        )
    w_saddle, curvature = _strict_saddle(inst, ctx.rng(f"strict-saddle-{tag}").host)
    saddle_grad = float(np.linalg.norm(inst.restricted(w_saddle[None])[1]))
    with ctx.control(
        "w_n bar replaced by a strict saddle of L~ (critical, a negative Hessian eigenvalue; Newton from "
        "restarts): critical but no local minimum",
        breaks=ASSUMPTION_2,
        must_break=[drift_name],
    ):
        wn_t, _ = _paths(ctx, inst, w_saddle, z, deltas, s_grid)
        ctx.order(
            drift_name,
            deltas,
            np.linalg.norm(wn_t - w_saddle, axis=2).max(axis=1),
            expected=1.0,
            tol=drift_tol,
            why=f"as above (the main run's tolerance); |grad L~| = {saddle_grad:.2g}, Hessian eigenvalues "
            f"min / max|.| = {curvature:.3g}: the offset's unstable component grows like delta e^(c t) and "
            "leaves the delta-ball within the window. The coupling is not required to break: with and "
            "without w_z the flow escapes along the same unstable direction (measured, seed 0: its fitted "
            "order 1.5 here, 2.8 at another point of the saddle's rescaling orbit, both above 1/2)",
            xlabel="delta",
            ylabel="drift",
        )


def _strict_saddle(inst: _Saddle, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    r"""A strict saddle of the restricted loss :math:`\widetilde{\mathcal L}` (``inst.restricted``) and its
    Hessian's smallest eigenvalue over the largest magnitude: Newton (minimum-norm ``lstsq`` steps on a
    central-difference Hessian of the analytic gradient, step 1e-6, error ~1e-10 relative, as in
    :func:`_fit`) from standard normal restarts, 40 steps each, the first converged point (gradient <=
    1e-10, as the saddle's regime) away from the origin with an eigenvalue below -1e-6 of the largest: far
    below the Hessian's error and the rescaling orbit's null eigenvalue (~1e-12 relative, measured), so a
    direction of descent.  At most 100 restarts (measured, seed 0: found at the third)."""

    def grad(w: np.ndarray) -> np.ndarray:
        return inst.restricted(w[None])[1][0]

    def hessian(w: np.ndarray) -> np.ndarray:
        step = 1e-6
        h = np.column_stack([(grad(w + step * e) - grad(w - step * e)) / (2 * step) for e in np.eye(w.size)])
        return 0.5 * (h + h.T)

    for _ in range(100):
        w = rng.normal(size=inst.wn.size)
        for _ in range(40):
            w = w - np.linalg.lstsq(hessian(w), grad(w), rcond=1e-9)[0]
        ev = np.linalg.eigvalsh(hessian(w))
        curvature = float(ev[0] / np.abs(ev).max())
        if np.linalg.norm(grad(w)) <= 1e-10 and np.linalg.norm(w) > 1e-3 and curvature < -1e-6:
            return w, curvature
    raise RuntimeError(f"{inst.tag}: no strict saddle of the restricted loss in 100 Newton restarts")


def _paths(ctx: Context, inst: _Saddle, wn, z, deltas, s_grid) -> tuple[np.ndarray, np.ndarray]:
    """(w_n, w_z) on ``s_grid`` per delta, started at (w_n + delta n, delta z), in the rescaled time
    s = delta^(L-2) t: dw/ds = field(w)/delta^(L-2).  The rescaled flow is stiff (w_n relaxes at rate
    ~1/delta^(L-2) while w_z moves at rate 1), so an implicit method (Radau IIA, order 5) per delta."""
    n_dir = normalize(ctx.rng(f"n-{inst.tag}").host.normal(size=inst.wn.size))
    y0 = np.stack([inst.assemble(wn + delta * n_dir, delta * z) for delta in deltas])
    rate = 1.0 / np.asarray(deltas) ** (inst.L - 2)
    ys = np.stack(
        [
            solve_ivp(
                lambda s, w, r=r: inst.full(s, w[None], None)[0] * r,
                (s_grid[0], s_grid[-1]),
                w0,
                method="Radau",
                t_eval=s_grid,
                rtol=inst.rtol,
                atol=ATOL,
            ).y.T
            for w0, r in zip(y0, rate, strict=True)
        ]
    )
    return inst.split(ys)


def _measures(inst: _Saddle, wn_t, wz_t, deltas, u1, z_star):
    """Per delta: E, max drift of w_n, max |w_z|/delta, cos(w_z(T/delta), z*), |w_z(T/delta)|/delta."""
    scale = np.asarray(deltas)[:, None, None]
    E = np.linalg.norm(wz_t / scale - u1, axis=2).max(axis=1)
    drift = np.linalg.norm(wn_t - inst.wn, axis=2).max(axis=1)
    zmax = (np.linalg.norm(wz_t, axis=2) / scale[..., 0]).max(axis=1)
    end = wz_t[:, -1]
    cos_end = end @ z_star / np.linalg.norm(end, axis=1)
    return E, drift, zmax, cos_end, np.linalg.norm(end, axis=1) / np.asarray(deltas)
