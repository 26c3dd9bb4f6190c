r"""kumar2025: the saddle-to-saddle picture (Figs. 1-4, Sec. 4), the escape path from the origin
(imported Lemma 4) and the Taylor-remainder bounds behind Lemma 8(i) (Lemma 18).

* ``lemma-18`` -- exact one-sided jets (``symbolic.jets``) on a 4-layer block net, ``l = 2``.
* ``lemma-4`` -- two-layer :math:`\sigma=x^2` net (homogeneity degree 3); paths from
  :math:`\delta w_*` and :math:`\delta w_0` with the blow-up offsets of eq. 8.
* ``equation-9`` -- the same system: the limit :math:`\mathbf p^*` of the escape path is a saddle and
  :math:`\psi(T_\epsilon+T_\delta,\delta w_0)` comes within :math:`\epsilon` of it (eq. 9).
* ``figures-1-4`` -- GD on a 3-layer :math:`\sigma=x^2` net from a sparse saddle (the GD recorder is
  shared with the ReLU panels, ``saddle_relu``).
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import numpy as np
import sympy as sp
from scipy.optimize import minimize

from numeric.backend import get_backend
from numeric.engine.descent import gradient_descent
from numeric.models.homogeneous_flow import blow_up_time, polar_flow
from numeric.models.homogeneous_nets import (
    HomogeneousNet,
    NeuronNCF,
    kkt_cosine,
    layer_candidates,
    output,
    pack,
    unpack,
)
from symbolic.jets import DELTA, Jet, activation, lowest_degree, matvec
from verify.claim import claim
from verify.context import Context, Series
from verify.hypotheses import Hypothesis
from verify.papers.kumar2025 import hypotheses
from verify.papers.kumar2025.fitted_orders import order_tolerance
from verify.papers.kumar2025.flows import gradient_flow, net_fields
from verify.papers.kumar2025.hypotheses import (
    LEMMA_18_P4,
    NET_HOMOGENEOUS_L3,
    SMALL_DELTA,
    W_N_CRITICAL,
    W_STAR_SECOND_ORDER,
)
from verify.regimes import Reading, record_worst
from verify.search import squash

HOST = get_backend("numpy")  # the figures' data, fits and GD runs live on the host (scipy)

# The two hypotheses below are measured only by this module's claims (Lemma 4, eq. 9, Lemma 18).
W0_STABLE = replace(
    hypotheses.W0_STABLE,
    condition="gap = T_1 - T_0 > 0 for the starts used (neuron 0 on w_*'s ray, neuron 1 anywhere): the NCF "
    "of the two-neuron net is a sum over neurons, so each part blows up on its own (T_0: neuron 0's, "
    "T_1: neuron 1's, inf if it decays); neuron 0 first means the NCF flow's direction converges to "
    "w_*, the definition of S(w_*). gap = 0 (both neurons on the ray, equal shares) is the boundary",
    test=lambda gap: gap > 0,
)
LEMMA_18_C = Hypothesis(
    "c = O(delta^(p+1))",
    wording=r"$\|c\|=O(\delta^{p+1})$, $\|\nabla_{w_z}c\|=O(\delta^p)$, $\|\nabla_{w_n}c\|=O(\delta^{p+1})$",
    condition="the exact lowest delta-powers (polynomial jets) of c and c' >= p+1, of their w_z-gradients "
    ">= p, of their w_n-gradients >= p+1 (worst one-sided direction)",
    test=lambda p, c, grad_z_c, grad_n_c, c_prime, grad_z_c_prime, grad_n_c_prime: (
        min(c, c_prime) >= p + 1
        and min(grad_z_c, grad_z_c_prime) >= p
        and min(grad_n_c, grad_n_c_prime) >= p + 1
    ),
)

# --------------------------------------------------------------------------------------- Lemma 18

# 4-layer block net (Lemma 8), old/new neurons per hidden layer: layer 1: 1/0 used, layer 2: 2/1,
# layer 3: 1/1.  Weights read by Lemma 18 with l = 2 (A_2, B_3, A_3, C_3 are w_z; N_1..N_3 are w_n).
_L18_SHAPES = {
    "N1": (1, 2),
    "N2": (2, 1),
    "N3": (1, 2),
    "A2": (1, 1),
    "B3": (1, 1),
    "A3": (1, 2),
    "C3": (1, 1),
}
_WZ = ("A2", "B3", "A3", "C3")
_QUANTITIES = ("c", "a", "c'", "b")


def _rational(v: float) -> sp.Rational:
    return sp.Rational(round(1000 * v), 1000)


def _l18_point(rng: np.random.Generator, alpha: sp.Rational, p: int, kink: bool):
    """Rational x, w_n and a direction z of w_z (normal entries, 3 decimals); with ``kink`` the
    pre-activation s = N_3 g_2(x) is exactly 0 (N_3 orthogonal to g_2)."""
    return _l18_point_of(rng.normal(size=L18_SIZE), alpha, p, kink)


L18_SIZE = 2 + sum(r * c for r, c in _L18_SHAPES.values())  # x, then the blocks of _L18_SHAPES


def _l18_point_of(theta: np.ndarray, alpha: sp.Rational, p: int, kink: bool):
    """:func:`_l18_point` from the L18_SIZE numbers ``theta`` (rounded to 3 decimals)."""
    x = [_rational(v) for v in theta[:2]]
    w, start = {}, 2
    for k, (r, c) in _L18_SHAPES.items():
        w[k] = [[_rational(v) for v in row] for row in np.reshape(theta[start : start + r * c], (r, c))]
        start += r * c
    if kink:
        g1 = [_sigma_value(sum(n * xi for n, xi in zip(w["N1"][0], x, strict=True)), alpha, p)]
        g2 = [_sigma_value(row[0] * g1[0], alpha, p) for row in w["N2"]]
        w["N3"] = [[g2[1], -g2[0]]]
    return x, w


def _l18_violation(theta: np.ndarray, excluded: list | None = None) -> float:
    """Lemma 18's conclusions (p = 4, alpha = 1/2) at the point ``theta[:L18_SIZE]`` (on the kink
    N_3 g_2 = 0 when ``theta[-1] > 0``): :func:`_l18_ratio` of its exact lowest powers (a point outside the
    hypotheses on c, c' scores 0 and is appended to ``excluded``)."""
    alpha = sp.Rational(1, 2)
    orders = _l18_orders(*_l18_point_of(theta[:L18_SIZE], alpha, 4, bool(theta[-1] > 0)), alpha, 4)
    ratio = _l18_ratio(orders, 4)
    if ratio is None:
        if excluded is not None:
            excluded.append(np.array(theta, float))
        return 0.0
    return ratio


def _l18_ratio(orders: dict[str, float], p: int) -> float | None:
    r"""max over Lemma 18's conclusions (i), (ii) (the powers of :math:`a`, :math:`b` and their gradients) of
    stated power / exact lowest power: <= 1 iff all hold.  ``None`` where the point is outside the lemma's
    hypotheses on :math:`c,c'` (:func:`_l18_hypothesis`): the lemma says nothing there, so such a point is
    excluded from a search's score rather than scored as a violation."""
    if any(orders[name] < stated for name, stated in _l18_hypothesis(p).items()):
        return None
    return max(
        stated / orders[name] if orders[name] > 0 else np.inf for name, stated in _l18_conclusions(p).items()
    )


def _sigma_value(v: sp.Rational, alpha: sp.Rational, p: int) -> sp.Rational:
    """sigma(v) for alpha <= 1."""
    return (v if v > 0 else min(sp.Integer(1), alpha) * v) ** p


def _l18_terms(x, w, alpha: sp.Rational, p: int, direction: tuple[str, int, int, int] | None):
    r"""The jets of :math:`c,a,c',b` (first entries) at :math:`w_z=\delta z`, differentiated one-sidedly
    along ``direction = (block, row, col, sign)`` (``None``: values only).

    :math:`g_1=\sigma(N_1x)`, :math:`g_2=\sigma(N_2g_1)`, :math:`s=N_3g_2`, :math:`c=B_3\sigma(A_2g_1)`,
    :math:`s'=A_3g_2`, :math:`c'=C_3\sigma(A_2g_1)`;
    :math:`a=\int_0^c\sigma''(s+t)(c-t)dt=\sigma(s+c)-\sigma(s)-c\,\sigma'(s)` and
    :math:`b=\int_0^{c'}\sigma'(s'+t)dt=\sigma(s'+c')-\sigma(s')` (integration by parts)."""
    jets = {}
    for k, rows in w.items():
        scale = DELTA if k in _WZ else 1
        jets[k] = [
            [
                Jet.const(scale * v, 0 if direction is None or direction[:3] != (k, i, j) else direction[3])
                for j, v in enumerate(row)
            ]
            for i, row in enumerate(rows)
        ]
    xs = [Jet.const(v) for v in x]

    def sig(v, k=0):
        return [activation(u, alpha, p, k) for u in v]

    g1 = sig(matvec(jets["N1"], xs))
    g2 = sig(matvec(jets["N2"], g1))
    new2 = sig(matvec(jets["A2"], g1))
    s, c = matvec(jets["N3"], g2)[0], matvec(jets["B3"], new2)[0]
    s2, c2 = matvec(jets["A3"], g2)[0], matvec(jets["C3"], new2)[0]
    sg = lambda u, k=0: activation(u, alpha, p, k)  # noqa: E731
    a = sg(s + c) - sg(s) - c * sg(s, 1)
    b = sg(s2 + c2) - sg(s2)
    return {"c": c, "a": a, "c'": c2, "b": b}


def _l18_orders(x, w, alpha: sp.Rational, p: int) -> dict[str, float]:
    """Lowest delta-power of each quantity and of its w_z- and w_n-gradient (all coordinates, both
    one-sided directions: the worst Clarke element at a kink)."""
    out = {q: lowest_degree(t.val) for q, t in _l18_terms(x, w, alpha, p, None).items()}
    for group in ("z", "n"):
        worst = dict.fromkeys(_QUANTITIES, float("inf"))
        for k, rows in w.items():
            if (k in _WZ) != (group == "z"):
                continue
            for i, row in enumerate(rows):
                for j in range(len(row)):
                    for sign in (1, -1):
                        terms = _l18_terms(x, w, alpha, p, (k, i, j, sign))
                        for q in _QUANTITIES:
                            worst[q] = min(worst[q], lowest_degree(terms[q].der))
        out.update({f"grad_{group} {q}": v for q, v in worst.items()})
    return out


def _l18_hypothesis(p: int) -> dict[str, int]:
    r"""Lemma 18's hypotheses on :math:`c` (and :math:`c'`) as powers of delta: :math:`\|c\|=O(\delta^{p+1})`,
    :math:`\|\nabla_{w_z}c\|=O(\delta^p)`, :math:`\|\nabla_{w_n}c\|=O(\delta^{p+1})`."""
    hyp = {"c": p + 1, "grad_z c": p, "grad_n c": p + 1}
    hyp.update({k.replace("c", "c'"): v for k, v in hyp.items()})
    return hyp


def _l18_conclusions(p: int) -> dict[str, int]:
    r"""Lemma 18's conclusions as powers of delta: (i) :math:`\|a\|,\|\nabla_{w_n}a\|=O(\delta^{2p+2})`,
    :math:`\|\nabla_{w_z}a\|=O(\delta^{2p+1})`; (ii) :math:`\|b\|,\|\nabla_{w_n}b\|=O(\delta^{2p})`,
    :math:`\|\nabla_{w_z}b\|=O(\delta^{2p-1})`."""
    return {"a": 2 * p + 2, "grad_z a": 2 * p + 1, "grad_n a": 2 * p + 2} | {
        "b": 2 * p,
        "grad_z b": 2 * p - 1,
        "grad_n b": 2 * p,
    }


def _l18_case(ctx: Context, tag: str, alpha: sp.Rational, p: int, kink: bool, seed: int) -> Reading:
    """Lemma 18 at one point: the conclusions checked; returned, the point's reading of the hypotheses on
    c, c' (``LEMMA_18_C``: a regime, not evidence; ``outside`` = largest shortfall of a power)."""
    x, w = _l18_point(ctx.rng(f"lemma-18-{seed}").host, alpha, p, kink)
    orders = _l18_orders(x, w, alpha, p)
    hyp = _l18_hypothesis(p)
    reading = Reading(
        max(float(stated - orders[name]) for name, stated in hyp.items()),
        {"p": p} | {_L18_C_KEYS[name]: orders[name] for name in hyp},
    )
    for name, stated in _l18_conclusions(p).items():
        ctx.bound(
            f"{tag}: lowest power of delta in |{name}|",
            orders[name],
            stated,
            side=">=",
            why=f"O(delta^{stated}) (Lemma 18); exact polynomial jets, no rounding",
        )
    return reading


_L18_C_KEYS = {  # the keyword names LEMMA_18_C's test reads
    "c": "c",
    "grad_z c": "grad_z_c",
    "grad_n c": "grad_n_c",
    "c'": "c_prime",
    "grad_z c'": "grad_z_c_prime",
    "grad_n c'": "grad_n_c_prime",
}


@claim(
    "kumar2025:lemma-18",
    title="Taylor remainders of the layer recursion are O(delta^(2p+2)) and O(delta^(2p))",
    source="Lemma 18 (App. B.2, used in the proof of Lemma 8(i))",
    statement=r"$a=\int_0^c\sigma''(N_{l+1}g_l+t)\odot(c-t)dt$: $\|a\|,\|\nabla_{w_n}a\|=O(\delta^{2p+2})$, "
    r"$\|\nabla_{w_z}a\|=O(\delta^{2p+1})$; $b=\int_0^c\sigma'(A_{l+1}g_l+t)dt$: "
    r"$\|b\|,\|\nabla_{w_n}b\|=O(\delta^{2p})$, $\|\nabla_{w_z}b\|=O(\delta^{2p-1})$",
    hypotheses=[
        LEMMA_18_P4,
        LEMMA_18_C,
        r"$w_n$ fixed, $\|w_z\|=O(\delta)$",
    ],
)
def lemma_18(ctx: Context) -> None:
    r"""Instance: 4-layer net, :math:`l=2`, :math:`c=B_3\sigma(A_2g_1)` (the new layer-2 neuron's
    signal into the old layer-3 neuron) and :math:`c'=C_3\sigma(A_2g_1)` (into the new one), both
    :math:`(p+1)`-homogeneous in :math:`w_z`, so the hypotheses on them hold; their exact powers are
    read at every point and the worst point's recorded as the regime of ``LEMMA_18_C`` (a hypothesis, not
    evidence for the lemma; the search scores a point outside it 0).  All weights are rationals; every
    quantity and every one-sided directional derivative is an exact polynomial in :math:`\delta`
    (``symbolic.jets``), so its order is its lowest power, read exactly.
    Generic points: the stated powers are attained (the bounds are tight); at a kink
    (:math:`N_3g_2(x)=0`) with :math:`p=4` they hold with room.  The order is also fitted on
    :math:`\delta=10^{-2..-5}` for the generic point.
    """
    seeds = ctx.param("points", tiny=1, quick=3, full=6)
    budget = ctx.param("search_budget", tiny=1, quick=8, full=40)
    alpha = sp.Rational(1, 2)
    ctx.regime(LEMMA_18_P4, p=4)  # every instance below has p = 4
    readings = [
        {LEMMA_18_C.name: _l18_case(ctx, f"p=4, alpha=1/2, point {s}", alpha, 4, False, s)}
        for s in range(seeds)
    ]
    readings.append({LEMMA_18_C.name: _l18_case(ctx, "p=4, alpha=1/2, kink N_3 g_2 = 0", alpha, 4, True, 0)})
    record_worst(ctx, readings, [LEMMA_18_C])  # the hypotheses on c, c' at the worst point
    x, w = _l18_point(ctx.rng("lemma-18-0").host, alpha, 4, False)
    terms = _l18_terms(x, w, alpha, 4, None)
    deltas = np.geomspace(1e-2, 1e-5, 4)
    for q, stated in (("a", 10), ("b", 8)):
        values = [abs(float(terms[q].val.eval(sp.Float(d, 30)))) for d in deltas]
        _, tol, parts = order_tolerance(deltas, np.array(values))
        ctx.order(
            f"p=4 point 0: |{q}| against delta",
            deltas,
            values,
            expected=float(stated),
            tol=tol,
            why="exact polynomial evaluated at 30 digits: the next power changes the slope by "
            "~(c_{m+1}/c_m) delta. Tolerance (order_tolerance): the fit's 95% half-width "
            f"({parts['interval']:.2g}) + the next-order bound from the local slopes "
            f"({parts['next order']:.2g})",
            xlabel="delta",
            ylabel=f"|{q}|",
        )
    search_rng = ctx.rng("lemma-18-search").host
    gauss = search_rng.normal(size=L18_SIZE)
    excluded: list[np.ndarray] = []
    ctx.search(
        "search: max over Lemma 18's conclusions (a, b) of stated power / exact lowest power of delta (p=4), "
        "points inside the hypotheses on c, c'",
        partial(_l18_violation, excluded=excluded),
        {
            "generic rational point": [np.append(gauss, -1.0)],
            "on the kink N_3 g_2(x) = 0": [np.append(search_rng.normal(size=L18_SIZE), 1.0)],
            "small old weights (x 0.05, near every kink)": [np.append(0.05 * gauss, -1.0)],
        },
        budget=budget,
        why="Lemma 18 at every point (x, w_n, z): Nelder-Mead over the point (rounded to 3 decimals, so "
        "the exact jets stay rational) and the kink switch (last coordinate > 0); a point where a hypothesis "
        "on c, c' fails (a power below p+1, p, p+1) is outside the lemma and scores 0 (counted in the "
        "notes), never a violation; the six conclusions' powers are exact "
        "integers, so the search samples points around each start. The ratio is 1 at generic points because "
        "the stated powers are attained there (the bounds are tight), not through an added constant: a "
        "violation lowers an exact power by >= 1, a ratio >= 10/9 (stated/(stated - 1), largest power 10)",
    )
    p3 = _l18_orders(*_l18_point(ctx.rng("lemma-18-0").host, alpha, 3, True), alpha, 3)
    short = {k: (p3[k], v) for k, v in (_l18_hypothesis(3) | _l18_conclusions(3)).items() if p3[k] < v}
    ctx.note(f"lemma-18 search: {len(excluded)} points outside the hypotheses on c, c' (scored 0, excluded)")
    ctx.note(
        f"p = 3 at the kink (outside the stated p >= 4): bounds that fail: {short or 'none'}. With p = 3, "
        "sigma'' is continuous, so da/ds = sigma'(c) - c sigma''(0) = O(c^2); p >= 4 is more than these "
        "bounds need, p = 2 fails only through grad_n a at a kink (control)."
    )
    with ctx.control(
        "p = 2 at the kink N_3 g_2(x) = 0",
        breaks=LEMMA_18_P4,
        must_break=["*: lowest power of delta in |grad_n a|*"],
    ):
        orders = _l18_orders(*_l18_point(ctx.rng("lemma-18-0").host, alpha, 2, True), alpha, 2)
        ctx.bound(
            "p=2, kink: lowest power of delta in |grad_n a| (one-sided)",
            orders["grad_n a"],
            6,
            side=">=",
            why="stated O(delta^(2p+2)); sigma'' jumps at 0, so d a/ds = sigma'(c) - c sigma''(0^-) = "
            "2c(1 - alpha^2) = Theta(delta^(p+1))",
        )


# ---------------------------------------------------------------------------------------- Lemma 4

_K4, _D4, _N4 = 2, 3, 10
_SHAPES4 = [(_K4, _D4), (1, _K4)]


def _l4_problem(ctx: Context, key: str = "lemma-4"):
    r"""Data (random stream ``key``) with a clear spectral gap and the two unit starts of the two-layer
    :math:`\sigma=x^2` net.

    :math:`y=(v_1^\top x)^2+\tfrac12(v_2^\top x)^2` (rescaled so NCF values are O(0.1)); with
    :math:`M=X^\top\mathrm{diag}(y)X` (eigenpairs :math:`\mu_1>\mu_2>0`) the NCF of one neuron is
    :math:`b\,a^\top Ma`, and the balanced neuron :math:`(\sqrt{2/3}\,e_k,1/\sqrt3)` on eigenvector
    :math:`e_k` is a positive KKT point: second order for :math:`k=1` (``w_star``), first order only
    for :math:`k=2` (lemma-4's note).  ``w0`` gives neuron 0 ``w_star``'s direction with 90% of the norm
    and neuron 1 a random direction: in :math:`\mathcal S(w_*)` (neuron 1 blows up >= 2x later, Lemma 11).
    """
    rng = ctx.rng(key).host
    X = rng.normal(size=(_N4, _D4))
    v = np.linalg.qr(rng.normal(size=(_D4, 2)))[0].T
    y = (X @ v[0]) ** 2 + 0.5 * (X @ v[1]) ** 2
    y /= 10 * np.linalg.norm(y)
    mu, E = np.linalg.eigh(X.T @ np.diag(y) @ X)

    def start(k: int, other: np.ndarray, share: float) -> np.ndarray:
        A = np.zeros((_K4, _D4))
        A[0] = np.sqrt(2 / 3) * E[:, k]
        A[1] = other[:_D4]
        b = np.array([1 / np.sqrt(3), other[_D4]])
        w = pack([A[None], b[None, None, :]])[0]
        w[[0, 1, 2, 6]] *= share  # neuron 0: A[0], b[0]
        return w

    neuron1 = rng.normal(size=_D4 + 1)
    neuron1 *= np.sqrt(1 - 0.9**2) / np.linalg.norm(neuron1)
    w_star = start(-1, np.zeros(_D4 + 1), 1.0)
    w0 = start(-1, neuron1, 0.9)
    return X, y, mu, w_star, w0


def _l4_paths(
    descent, starts: np.ndarray, offsets: np.ndarray, window: np.ndarray, rtol: float
) -> np.ndarray:
    r""":math:`\psi(t+T_i,u_i)` for every row ``u_i`` of ``starts`` on the ``window`` of ``t`` (adaptive
    DOPRI5), shape (B, T, k).  All members in one batch: first to :math:`T_i+t_0` as the flow
    :math:`du/ds=(T_i+t_0)\,(-\nabla\mathcal L)` on :math:`s\in[0,1]` (the same path, time rescaled
    per member), then on the common window (needs :math:`T_i+t_0>0`)."""
    lead = np.asarray(offsets, float) + window[0]
    mid = np.asarray(gradient_flow(descent, starts, np.array([0.0, 1.0]), rate=lead, rtol=rtol).ys)[:, -1]
    if window.size == 1:
        return mid[:, None]
    return np.asarray(gradient_flow(descent, mid, window - window[0], rtol=rtol).ys)


EQ9_SHRINK = 32.0  # equation-9's search reads its score this far below each instance's derived delta_s
_L4_REGIME = 0.25  # an instance's largest delta, in units of its regime scale delta_c (_l4_violation)
L4_INSTANCE = Hypothesis(
    "instance shows the escape",
    wording="(the claim's instance choice) a clear spectral gap, and the window [-3, 6] reaches past the "
    "plateau at the origin",
    condition="mu_2 / mu_1 <= 1/2 (neuron 1's direction settles fast) and L(p(6)) <= L(0) / 2 with L(0) = "
    "|y|^2 / 2 the loss on the plateau at the origin: the compared paths leave it inside the window, so "
    "the order checks do not compare paths that are still near the origin",
    test=lambda gap, plateau: gap <= 0.5 and plateau <= 0.5,
)


def _l4_start(w_star: np.ndarray, theta: np.ndarray) -> tuple[float, np.ndarray]:
    """Neuron 0's share and the start of the search parameters ``theta`` (see :func:`_l4_violation`)."""
    share = squash(theta[4], 0.75, 0.95)
    w0 = share * w_star
    w0[[3, 4, 5, 7]] = np.sqrt(1 - share**2) * theta[:4] / np.linalg.norm(theta[:4])
    return share, w0


def _l4_gap(ncf, w0: np.ndarray, T0: float) -> float:
    r""":math:`T_1-T_0`: the NCF blow-up time of neuron 1's part of ``w0`` (inf where it does not blow
    up) minus neuron 0's ``T0`` (the regime scale of :func:`_l4_violation`)."""
    n1 = np.zeros_like(w0)
    n1[[3, 4, 5, 7]] = w0[[3, 4, 5, 7]]
    T1 = float(blow_up_time(polar_flow(ncf, n1[None], 3, np.linspace(0.0, 40.0, 3), rtol=1e-11), 3)[0])
    return np.inf if np.isnan(T1) else T1 - T0


def _l4_violation(
    descent,
    ncf,
    w_star: np.ndarray,
    T_star: float,
    ref: np.ndarray,
    ref_err: float,
    window: np.ndarray,
    rtol: float,
    m: int,
    seen: list[dict],
    theta: np.ndarray,
) -> float:
    r"""Lemma 4 on one start :math:`w_0\in\mathcal S(w_*)`: |fitted order of
    :math:`\max_t\|\psi(t+T_\delta,\delta w_0)-\mathbf p(t)\|` - 1| / its derived tolerance, over m deltas
    in the instance's asymptotic regime; 0 where undecided (appended to ``seen`` either way).

    ``theta`` = (neuron 1's direction (a, b) (4), neuron 0's share of the norm, in (0.75, 0.95)); neuron 0
    stays on the ray of :math:`w_*`, so it blows up first (share > 1/sqrt 2 > neuron 1's share, Lemma 11)
    and :math:`T_\delta=T_0/\delta`, :math:`T_0=T^*/\text{share}` exactly.

    [derived] Regime.  The NCF flow is separable by neurons; neuron 1 alone blows up at :math:`T_1/\delta`
    (NCF blow-up time of neuron 1's part of :math:`w_0`; :math:`\infty` if it decays).  Near blow-up
    its radius is :math:`\delta r_1/(1-\delta t'/T_1)` at time :math:`t'`, so at :math:`t'=T_0/\delta+t`
    it is :math:`\delta r_1 T_1/(T_1-T_0)\,(1+O(\delta t/(T_1-T_0)))`: :math:`\beta=1` holds once
    :math:`\delta\ll\delta_c=(T_1-T_0)/t_{max}` (window end :math:`t_{max}`); for larger delta neuron
    1 escapes inside the window (the two blow-ups compete as the share nears 1/sqrt 2).  The deltas are
    :math:`\delta_{top}2^{-j}`, j < m, with :math:`\delta_{top}=\min(0.1,\,` ``_L4_REGIME``
    :math:`\cdot\delta_c)`, so the next-order term is a fraction of the leading one on the whole range,
    and the tolerance is derived from the fit (:func:`~.fitted_orders.order_tolerance`, the reference
    path's error as its floor).  Undecided (ratio 0, counted by the claim) where that tolerance is
    >= 1/2: the range cannot separate order 1 from 0 or 2.

    Measured: the start full once reported as a FAIL (fixed deltas 0.1..0.025, tolerance 0.15: order
    off by 3.27 tolerances; share 0.753, neuron 1 nearly on the ray of :math:`w_*`, :math:`T_1-T_0=0.198`,
    :math:`\delta_c=0.033`) has local orders 0.41, 0.61, 0.76, 0.87, 0.93, 0.96, 0.98, 0.99, 0.995 from
    delta 0.1 down to 2e-4 (error/delta -> 5.1): pre-asymptotic, not a counterexample."""
    share, w0 = _l4_start(w_star, theta)
    T0 = T_star / share
    gap = _l4_gap(ncf, w0, T0)
    if not gap > 0:  # neuron 1 first: outside S(w_*), which the parametrisation excludes; cannot pass
        return np.nan
    deltas = min(0.1, _L4_REGIME * gap / window[-1]) / 2.0 ** np.arange(m)
    err = np.linalg.norm(_l4_paths(descent, np.outer(deltas, w0), T0 / deltas, window, rtol) - ref, axis=2)
    err = err.max(axis=1)
    if not np.all(np.isfinite(err)) or not np.all(err > 0):
        return np.nan
    order, tol, parts = order_tolerance(deltas, err, ref_err)
    ratio = abs(order - 1.0) / tol if tol < 0.5 else 0.0
    seen.append(
        {"share": share, "T1 - T0": gap, "deltas": deltas, "order": order, "tol": tol, "parts": parts}
        | {"ratio": ratio, "decided": tol < 0.5}
    )
    return ratio


@claim(
    "kumar2025:lemma-4",
    title="Escape from the origin follows a delta-independent path, shifted by the NCF blow-up time",
    source="Lemma 4 (imported from Kumar & Haupt 2025b), eq. 8 (eq. 9: kumar2025:equation-9)",
    statement=r"$w_0\in\mathcal S(w_*)$, $w_*$ a second-order positive KKT point: "
    r"$\|\psi(t+T_\delta,\delta w_0)-\mathbf p(t)\|=O(\delta^\beta)$ on $[-\tilde T,\tilde T]$, "
    r"$\mathbf p(t)=\lim_{\delta\to0}"
    r"\psi(t+\frac{1/\delta^{L-2}}{L(L-2)\mathcal N_{y,\mathcal H}(w_*)},\delta w_*)$",
    hypotheses=[
        NET_HOMOGENEOUS_L3,
        W_STAR_SECOND_ORDER,
        W0_STABLE,
        L4_INSTANCE,
    ],
)
def lemma_4(ctx: Context) -> None:
    r"""[derived] Orders.  With :math:`\psi=\delta s`, :math:`\tau=\delta t`:
    :math:`ds/d\tau=\nabla\mathcal N(s)-\delta^3J^\top\mathcal H(s)`.  From :math:`\delta w_*` the
    NCF flow stays on the ray of :math:`w_*`; the loss term changes the radial rate by a relative
    :math:`\rho^3` at radius :math:`\rho`, where the flow spends time :math:`\sim\rho^{-1}d\rho/\rho`,
    so the arrival time at radius O(1) moves by :math:`\int_0^\delta\rho\,d\rho\sim\delta^2`:
    :math:`\beta=2` for the Cauchy differences of the :math:`w_*` paths.  From :math:`\delta w_0`
    (neuron 0 on the ray, share 0.9, so :math:`T_\delta=T^*(w_0)/\delta=T^*(w_*)/(0.9\delta)` exactly)
    neuron 1 is :math:`O(\delta)` at the escape (kumar2025:lemma-5): :math:`\beta=1`.

    The instance (``L4_INSTANCE``, recorded as a regime: outside it the claim is INCONCLUSIVE, not FAIL)
    needs a clear spectral gap and a window that reaches past the plateau, :math:`L(\mathbf p(6))\le
    L(0)/2`; neither is part of the lemma.  The bound this replaced, :math:`L(\mathbf p(6))/L(\mathbf
    p(-3))\le1/2`, measured against a point already well below the plateau (:math:`L(\mathbf p(-3))` is
    0.37 L(0) at seed 0, 0.46 L(0) at seed 1) and failed at seed 1 (0.555) where
    :math:`L(\mathbf p(6))=0.26\,L(0)`.
    """
    deltas = 0.1 / 2.0 ** np.arange(ctx.param("deltas", tiny=4, quick=5, full=7))
    rtol = ctx.param("rtol", tiny=1e-8, quick=1e-9, full=1e-10)
    budget = ctx.param("search_budget", tiny=1, quick=3, full=60)
    search_deltas = ctx.param("search_deltas", tiny=4, quick=5, full=6)
    X, y, mu, w_star, w0 = _l4_problem(ctx)
    ctx.regime(W_STAR_SECOND_ORDER, gap=float(mu[-2] / mu[-1]))
    ncf, descent = net_fields(_SHAPES4, X, y, 1.0, 2)
    n_star = float(ncf(w_star[None])[0][0])
    T_star = 1 / (3 * n_star)  # eq. 8 with L = 3, delta = 1
    fl = polar_flow(ncf, np.stack([w_star, w0]), 3, np.linspace(0.0, 40.0, 3), rtol=1e-11)
    blow = blow_up_time(fl, 3)
    ctx.close(
        "NCF blow-up time from w_* against 1/(L(L-2) N(w_*)) (the offset of eq. 8)",
        float(blow[0]),
        T_star,
        rtol=1e-7,
        why="polar flow at rtol 1e-11 plus the closed-form tail (numeric.models.homogeneous_flow)",
    )
    ctx.close(
        "NCF blow-up time from w_0 against T*(w_*) / 0.9",
        float(blow[1]),
        T_star / 0.9,
        rtol=1e-7,
        why="neuron 0 is on the ray with radius 0.9 and blows up first; as above",
    )
    # the hypothesis w_0 in S(w_*) is the regime reading W0_STABLE (the blow-up gap), not a conclusion
    ctx.note(
        f"w_0 in S(w_*): cosine of the NCF flow's limit direction from w_0 with w_* = "
        f"{float(fl.theta[1, -1] @ w_star):.12f} at tau = 40 (neuron 1's share decays like exp(-3 N* tau) "
        "relative to neuron 0, Lemma 11)"
    )
    d_ref = deltas[-1] / 4
    window = np.linspace(-3.0, 6.0, 19)
    paths = _l4_paths(
        descent, np.outer(np.append(deltas, d_ref), w_star), T_star / np.append(deltas, d_ref), window, rtol
    )
    ref = paths[-1]  # p(t) up to O(d_ref^2)
    cauchy = np.linalg.norm(paths[:-2] - paths[1:-1], axis=2).max(axis=1)
    _, cauchy_tol, cauchy_parts = order_tolerance(deltas[:-1], cauchy)
    ctx.order(
        "Cauchy differences max_t |psi(t + T*/delta, delta w_*) - same at delta/2| against delta",
        deltas[:-1],
        cauchy,
        expected=2.0,
        tol=cauchy_tol,
        why="[derived, docstring] beta = 2; tolerance "
        + ", ".join(f"{k} {v:.3g}" for k, v in cauchy_parts.items())
        + " (fitted_orders.order_tolerance; no reference path: differences of computed paths, whose solver "
        "error, rtol <= 1e-8 of O(1) paths, is far below the smallest difference, 4e-6 at full)",
        xlabel="delta",
        ylabel="Cauchy difference",
    )
    ref_err = float(np.linalg.norm(paths[-2] - paths[-1], axis=1).max()) / 15  # O(delta^2): 1 - 1/16
    from_w0 = _l4_paths(descent, np.outer(deltas, w0), T_star / (0.9 * deltas), window, rtol)
    err = np.linalg.norm(from_w0 - ref, axis=2).max(axis=1)
    gap = _l4_gap(ncf, w0, T_star / 0.9)
    ctx.regime(W0_STABLE, gap=gap)  # neuron 0 (on w_*'s ray) blows up first: w_0 in S(w_*)
    _, order_tol, parts = order_tolerance(deltas, err, ref_err)
    name = "max_t |psi(t + T_delta, delta w_0) - p(t)| against delta (T_delta = T*(w_0)/delta)"
    why = (
        "[derived, docstring] beta = 1 (neuron 1 is O(delta)); p(t) is the path from d_ref w_*; tolerance "
        + ", ".join(f"{k} {v:.3g}" for k, v in parts.items())
        + f" (fitted_orders.order_tolerance); regime: T_1 - T_0 = {gap:.4g}, "
        f"delta <= {_L4_REGIME} (T_1 - T_0) / t_max"
        " (_l4_violation)"
    )
    if deltas[0] > _L4_REGIME * gap / window[-1]:
        ctx.undecided(name, f"{why}: the largest delta {deltas[0]:g} is outside it", measured=deltas[0])
    else:
        ctx.order(
            name, deltas, err, expected=1.0, tol=order_tol, why=why, xlabel="delta", ylabel="distance to p(t)"
        )
    search_rng = ctx.rng("lemma-4-search").host
    seen: list[dict] = []
    ctx.search(
        "search: |order of max_t |psi(t + T_delta, delta w_0) - p(t)| - 1| / derived tolerance over "
        "w_0 in S(w_*), deltas in each instance's regime",
        partial(_l4_violation, descent, ncf, w_star, T_star, ref, ref_err, window, rtol, search_deltas, seen),
        {
            "random neuron-1 direction, share 0.85": [np.append(search_rng.normal(size=4), 0.0)],
            "share -> 0.75 (neuron 1's blow-up closest)": [np.append(search_rng.normal(size=4), -4.0)],
            "neuron 1 on the top eigen-direction with b < 0": [np.array([*w_star[:3], -w_star[6], -1.0])],
        },
        budget=budget,
        why="Lemma 4 for every start in S(w_*) of this form: Nelder-Mead over neuron 1's direction and "
        f"neuron 0's share; per instance {search_deltas} deltas a factor 2 apart from "
        f"min(0.1, {_L4_REGIME} (T_1 - T_0) / t_max) (its regime, _l4_violation), tolerance = 95% "
        "half-interval + next-order term + reference error (fitted_orders.order_tolerance); "
        "[derived] beta = 1",
    )
    decided = [r for r in seen if r["decided"]]
    ctx.note(
        f"lemma-4 search: {len(seen) - len(decided)} of {len(seen)} instances undecided (their derived "
        "tolerance >= 1/2: the deltas in their regime cannot separate order 1 from 0 or 2); they count "
        "neither as violations nor as support"
    )
    if decided:
        w = max(decided, key=lambda r: r["ratio"])
        parts = ", ".join(f"{k} {v:.3g}" for k, v in w["parts"].items())
        ctx.note(
            f"lemma-4 search, worst decided instance: share {w['share']:.4f},"
            f" T_1 - T_0 = {w['T1 - T0']:.4g}, "
            f"deltas {w['deltas'][0]:.3g}..{w['deltas'][-1]:.3g}, order {w['order']:.4f}, tolerance "
            f"{w['tol']:.3g} ({parts}), ratio {w['ratio']:.3g}"
        )
    loss = 0.5 * ((np.asarray([_l4_out(X, w) for w in ref]) - y) ** 2).sum(axis=1)
    ctx.regime(L4_INSTANCE, gap=float(mu[-2] / mu[-1]), plateau=float(loss[-1] / (0.5 * y @ y)))
    ctx.figure(
        "loss along p(t) and along psi(t + T_delta, delta w_0), largest delta",
        xlabel="t",
        ylabel="loss",
        series=[
            Series("p(t)", window, loss),
            Series(
                f"delta = {deltas[0]:g}",
                window,
                0.5 * ((np.asarray([_l4_out(X, w) for w in from_w0[0]]) - y) ** 2).sum(axis=1),
            ),
        ],
    )
    ctx.note(
        "lemma-4 scope: only eq. (8)'s L > 2 branch (offset (1/delta^(L-2)) / (L(L-2) N(w_*)), here L = 3) "
        "is checked; the L = 2 branch (offset ln(1/delta) / (2 N(w_*)), a two-layer net with a 1-homogeneous "
        "activation) has no instance here"
    )
    # W0_STABLE's control: neuron 1 takes w_0's leading part and neuron 0 its small one. The start is in the
    # stable set of w_* with its neurons swapped (second order like w_*: the neurons' order is irrelevant),
    # not in S(w_*), while w_* itself (the reference path p(t)) is unchanged: the one hypothesis broken
    swapped = w0.copy()
    swapped[[0, 1, 2, 6]], swapped[[3, 4, 5, 7]] = w0[[3, 4, 5, 7]], w0[[0, 1, 2, 6]]
    ctx.note(
        "lemma-4 has no control of 'w_* second order': a start exactly on the ray of the first-order KKT "
        "point w_first (2nd eigenvector) stays on it under the NCF flow, and its loss flow is the one whose "
        "delta -> 0 limit defines w_first's own p(t), so the conclusion holds there; any perturbation of it "
        "leaves w_first's stable set (measure zero) and compares a start in S(w_*) with w_first's path, "
        "which breaks 'w_0 in S(w_ref)' as well"
    )
    with ctx.control(
        "w_0 with its neurons swapped (neuron 1 leads, share 0.9): in the stable set of w_* permuted, not "
        "in S(w_*); p(t) still w_*'s",
        breaks=W0_STABLE,
        must_break=[f"{name}*"],
    ):
        from_swapped = _l4_paths(descent, np.outer(deltas, swapped), T_star / (0.9 * deltas), window, rtol)
        ctx.order(
            name,
            deltas,
            np.linalg.norm(from_swapped - ref, axis=2).max(axis=1),
            expected=1.0,
            tol=order_tol,
            why="the claim's tolerance: a violation of the size it resolves must show here",
            xlabel="delta",
            ylabel="distance to p(t)",
        )


def _l4_out(X: np.ndarray, w: np.ndarray) -> np.ndarray:
    return output(unpack(w[None], _SHAPES4), X, 1.0, 2)[0]


def _l4_split(w: np.ndarray) -> np.ndarray:
    """Neuron 0 of ``w`` (neuron 1 zero) shared equally by both neurons: each gets 1/sqrt(2) of it."""
    out = np.zeros_like(w)
    out[[0, 1, 2, 6]] = out[[3, 4, 5, 7]] = w[[0, 1, 2, 6]] / np.sqrt(2)
    return out


def _l4_saddle(descent, w_star: np.ndarray, T_star: float, d_ref: float, t_far: float, tol: float):
    r"""The grid :math:`0,1,\dots,t_{far}` and :math:`\mathbf p(t)` on it (the path from ``d_ref``
    :math:`w_*`, shifted by the blow-up time), :math:`\mathbf p^*=\mathbf p(2t_{far})`,
    :math:`|\mathbf p(t_{far})-\mathbf p^*|` and the Hessian spectrum of the loss at :math:`\mathbf p^*`
    (central differences of the analytic gradient, step 1e-6: O(1e-12) error, the loss being a
    polynomial).  :math:`t_{far}` is doubled (at most 3 times) until that difference is at most ``tol``:
    the path can linger near another critical point of the one-neuron loss before it converges."""
    for _ in range(4):
        grid = np.arange(0.0, t_far + 0.5)
        ts = np.append(grid, 2 * t_far)
        p = _l4_paths(descent, d_ref * w_star[None], np.array([T_star / d_ref]), ts, 1e-10)[0]
        tail = float(np.linalg.norm(p[-2] - p[-1]))
        if tail <= tol:
            break
        t_far *= 2
    p_star = p[-1]

    def grad(w):
        return -descent(w[None])[1][0]

    H = np.array([(grad(p_star + 1e-6 * e) - grad(p_star - 1e-6 * e)) / 2e-6 for e in np.eye(p_star.size)])
    return grid, p[:-1], p_star, tail, np.linalg.eigvalsh(0.5 * (H + H.T))


def _l4_eps_times(p: np.ndarray, p_star: np.ndarray, grid: np.ndarray, eps: tuple[float, ...]) -> list[float]:
    r""":math:`T_\epsilon`: the first grid time after which :math:`|\mathbf p(t)-\mathbf p^*|\le\epsilon/2`
    (NaN where the grid ends before)."""
    dist = np.linalg.norm(p - p_star, axis=1)
    far = [np.nonzero(dist > e / 2)[0] for e in eps]
    return [float(grid[f.max() + 1]) if f.size and f.max() + 1 < grid.size else np.nan for f in far]


def _eq9_violation(
    descent,
    ncf,
    w_star: np.ndarray,
    T_star: float,
    T_eps: np.ndarray,
    p_T: np.ndarray,
    eps: np.ndarray,
    d_top: float,
    n1: float,
    rtol: float,
    seen: list[dict],
    theta: np.ndarray,
) -> float:
    r"""Eq. 9's delta part on one start :math:`w_0\in\mathcal S(w_*)` (:func:`_l4_start`'s parametrisation,
    as ``lemma-4``'s search): :math:`\max_{\epsilon,\delta}\|\psi(T_\epsilon+T_\delta,\delta w_0)-\mathbf
    p(T_\epsilon)\|/(\epsilon/2)` over :math:`\delta\in\{\delta_s,\delta_s/2\}/`` EQ9_SHRINK`` (<= 1 iff
    the deviation fits in the half of :math:`\epsilon` that :math:`T_\epsilon`'s choice leaves), appended to
    ``seen`` with the same ratio at :math:`\{\delta_s,\delta_s/2\}` themselves.

    Eq. 9 asserts the bound for *some* range of small deltas, so a counterexample is a start whose
    deviation does not vanish with delta; the score is read 2^5 below :math:`\delta_s` (a deviation
    of order 1 in delta, ``lemma-4``, shrinks 32-fold there, one that tends to a nonzero limit, as from
    a start outside :math:`\mathcal S(w_*)`, does not).  The ratio at :math:`\delta_s` itself says
    how good the derived estimate below is (at full a start at share 0.752 read 1.11 there: the
    estimate, not the theorem, was off by that factor).

    :math:`T_\delta=T_0/\delta`, :math:`T_0=T^*/\text{share}` exactly (neuron 0 on :math:`w_*`'s ray).
    [derived] The instance's "sufficiently small delta":
    :math:`\delta_s=\min(d_{top},\,` ``_L4_REGIME`` :math:`(T_1-T_0)/T_{\epsilon},\,0.1/(3N_1r_1T_\epsilon))`
    at the largest :math:`T_\epsilon`: ``lemma-4``'s regime with the window end :math:`T_\epsilon` (neuron
    1's own blow-up from the origin, :math:`T_1/\delta`, far beyond :math:`T_0/\delta+T_\epsilon`), and
    neuron 1 (radius :math:`r_1\delta`, :math:`r_1=\sqrt{1-\text{share}^2}`) growing by at most 10% near
    :math:`\mathbf p^*` by :math:`T_\epsilon` (:math:`\rho/(1-3N_1\rho t)`, :math:`N_1` the NCF maximum of
    the residual at :math:`\mathbf p^*`), the claim's criterion for its order fit.  NaN (cannot pass)
    outside :math:`\mathcal S(w_*)`, which the parametrisation excludes (share > 1/sqrt 2 >= neuron 1's)."""
    share, w0 = _l4_start(w_star, theta)
    T0 = T_star / share
    gap = _l4_gap(ncf, w0, T0)
    if not gap > 0:
        return np.nan
    r1 = np.sqrt(1 - share**2)
    d_s = min(d_top, _L4_REGIME * gap / T_eps[-1], 0.1 / (3 * n1 * r1 * T_eps[-1]))
    ds = d_s / np.array([1.0, 2.0, EQ9_SHRINK, 2 * EQ9_SHRINK])
    dev = np.linalg.norm(_l4_paths(descent, np.outer(ds, w0), T0 / ds, T_eps, rtol) - p_T, axis=2)
    if not np.all(np.isfinite(dev)):
        return np.nan
    at_s, ratio = (float(np.max(dev[k] / (eps / 2))) for k in (slice(0, 2), slice(2, 4)))
    seen.append({"share": share, "T1 - T0": gap, "delta": d_s, "ratio at delta_s": at_s, "ratio": ratio})
    return ratio


@claim(
    "kumar2025:equation-9",
    title="The escape from the origin gets within any eps of the first saddle p* = lim p(t)",
    source="Lemma 4 (imported from Kumar & Haupt 2025b), eq. 9",
    statement=r"$\mathbf p^*=\lim_{t\to\infty}\mathbf p(t)$ is a saddle point of the loss, and for every "
    r"$\epsilon>0$ there is $T_\epsilon$ with "
    r"$\|\psi(T_\epsilon+T_\delta,\delta w_0)-\mathbf p^*\|\le\epsilon$ for all sufficiently small $\delta$",
    hypotheses=[
        NET_HOMOGENEOUS_L3,
        W_STAR_SECOND_ORDER,
        W0_STABLE,
    ],
)
def equation_9(ctx: Context) -> None:
    r"""Same two-layer :math:`\sigma=x^2` system as ``lemma-4`` (several data draws), with
    :math:`T_\delta=T^*(w_0)/\delta` (the blow-up offset of eq. 8).

    [derived] Reading of eq. 9.  :math:`\mathbf p(t)\to\mathbf p^*` is the gradient flow of the one-neuron
    loss (neuron 1 stays 0 from :math:`\delta w_*`), so :math:`T_\epsilon` exists with
    :math:`|\mathbf p(T_\epsilon)-\mathbf p^*|\le\epsilon/2` (the claim takes the first grid time after
    which this holds); then
    :math:`\|\psi(T_\epsilon+T_\delta,\delta w_0)-\mathbf p^*\|\le\epsilon/2+D_\epsilon(\delta)`,
    :math:`D_\epsilon(\delta)=\|\psi(T_\epsilon+T_\delta,\delta w_0)-\mathbf p(T_\epsilon)\|`, and eq. 8 at
    :math:`t=T_\epsilon` gives :math:`D_\epsilon(\delta)\approx C\delta` (neuron 1 of :math:`w_0` is
    :math:`O(\delta)`, ``lemma-4``: :math:`\beta=1`), so eq. 9 holds for :math:`\delta\le\epsilon/(2C)`.
    The first term is :math:`\epsilon/2` by the construction of :math:`T_\epsilon` and says nothing; what the
    theorem's "sufficiently small delta" controls is :math:`D_\epsilon`, so that is what is checked:
    :math:`D_\epsilon(\delta)\le\epsilon/2` at the two smallest deltas (the statement's own budget, no
    tolerance; eq. 9's full distance is in the notes), :math:`D_\epsilon` of order 1 in :math:`\delta` at
    the largest :math:`T_\epsilon` (outside ``lemma-4``'s window), and the same bound over starts
    :math:`w_0\in\mathcal S(w_*)` (search).  Also checked: :math:`\mathbf p^*` is critical and not a local
    min.  That it is not a local max is not checked: a limit of a gradient flow from a non-critical point
    cannot be a strict local max (the loss decreases into it), and the rescaling orbit
    :math:`(a,b)\to(ca,b/c^2)` gives the Hessian an exact 0 eigenvalue, so its largest eigenvalue is >= 0
    at any such point (noted).
    """
    eps = ctx.param("eps", tiny=(0.1,), quick=(0.1, 0.03, 0.01), full=(0.1, 0.03, 0.01, 0.003))
    n_deltas = ctx.param("deltas", tiny=6, quick=8, full=10)
    t_far = ctx.param("t_far", tiny=200.0, quick=400.0)
    draws = ctx.param("draws", tiny=1, quick=2, full=4)
    budget = ctx.param("search_budget", tiny=1, quick=4, full=30)
    deltas = 0.1 / 2.0 ** np.arange(n_deltas)
    d_ref, rtol = deltas[-1] / 4, 1e-9
    first = None
    for draw in range(draws):
        tag = f"data {draw}"
        X, y, mu, w_star, w0 = _l4_problem(ctx, f"draw-{draw}")
        ctx.regime(W_STAR_SECOND_ORDER, gap=float(mu[-2] / mu[-1]))
        ncf, descent = net_fields(_SHAPES4, X, y, 1.0, 2)
        T_star = 1 / (3 * float(ncf(w_star[None])[0][0]))
        ctx.regime(W0_STABLE, gap=_l4_gap(ncf, w0, T_star / 0.9))  # neuron 0 (on w_*'s ray) blows up first
        grid, p, p_star, tail, hess = _l4_saddle(descent, w_star, T_star, d_ref, t_far, 0.01 * min(eps))
        t_end = 2 * grid[-1]
        lam = hess[hess > 1e-6 * hess[-1]]  # the rescaling orbit (a, b) -> (c a, b / c^2) gives exact zeros
        ctx.bound(
            f"{tag}: |grad L(p*)|, p* = p({t_end:g})",
            float(np.linalg.norm(descent(p_star[None])[1])),
            hess[-1] * (tail + 1e-10 * np.linalg.norm(p_star)),
            why="near a Morse-Bott minimum of the one-neuron loss the gradient is at most lambda_max times "
            "the distance to the limit, below |p(t_end/2) - p*| (the distance still to go is smaller than "
            "that just gone) plus the integrator's relative tolerance 1e-10 on the position",
        )
        ctx.bound(
            f"{tag}: |p({t_end / 2:g}) - p({t_end:g})| (p* reached to 1% of the smallest eps)",
            tail,
            0.01 * min(eps),
            why=f"slowest mode exp(-lambda_min t) with lambda_min = {lam[0]:.3g} (Hessian at p*); t_far "
            "doubled until this holds (at most 3 times); 1% of eps keeps the checks below exact",
        )
        resid = y - _l4_out(X, p_star)
        mu_r, E_r = np.linalg.eigh(X.T @ np.diag(resid) @ X)
        top, s = int(np.argmax(np.abs(mu_r))), 0.05
        u = np.zeros_like(p_star)
        u[[3, 4, 5]], u[7] = s * np.sqrt(2 / 3) * E_r[:, top], s * np.sign(mu_r[top]) / np.sqrt(3)
        loss_star = float(descent(p_star[None])[0][0])
        ctx.bound(
            f"{tag}: L(p* + s u) - L(p*), u = neuron 1 on the extreme eigenvector of X^T diag(y - H(p*)) X",
            float(descent((p_star + u)[None])[0][0]) - loss_star,
            0.0,
            why=f"p* is not a local min: the change is -s^3 (2/(3 sqrt 3)) |mu| + O(s^6) (mu = "
            f"{mu_r[top]:.3g}, s = {s}): ~{-(s**3) * 2 / (3 * np.sqrt(3)) * abs(mu_r[top]):.1e}, far above "
            "rounding (1e-16 L)",
        )
        ctx.note(
            f"{tag}: largest Hessian eigenvalue of L at p* = {hess[-1]:.4g} >= 0 (p* not a local max): not "
            "a check, it cannot fail at the limit of a gradient flow (the loss decreases into p*, and the "
            "rescaling orbit gives an exact 0 eigenvalue); the saddle rests on the two checks above"
        )
        n1 = (2 / (3 * np.sqrt(3))) * abs(mu_r[top])  # neuron 1's NCF maximum at p*'s residual
        T_all = _l4_eps_times(p, p_star, grid, eps)
        for e in np.asarray(eps)[np.isnan(T_all)]:
            ctx.undecided(
                f"{tag}: eq. 9 at eps = {e:g}", f"p(t) is not within eps/2 of p* by t = {grid[-1]:g}"
            )
        eps_ok = np.array([e for e, T in zip(eps, T_all, strict=True) if np.isfinite(T)])
        T_eps = np.array([T for T in T_all if np.isfinite(T)])
        p_T = p[np.searchsorted(grid, T_eps)]  # p(T_eps), (eps, k)
        if first is None:
            first = (descent, ncf, w_star, T_star, eps_ok, T_eps, p_T, n1)
        if not T_eps.size:
            continue
        paths = _l4_paths(descent, np.outer(deltas, w0), T_star / (0.9 * deltas), T_eps, rtol)
        dev_all = np.linalg.norm(paths - p_T, axis=2)  # D_eps(delta), (deltas, eps)
        dist = np.linalg.norm(paths - p_star, axis=2)  # eq. 9's distance
        for j, (e, T) in enumerate(zip(eps_ok, T_eps, strict=True)):
            d_T = float(np.linalg.norm(p_T[j] - p_star))
            ctx.bound(
                f"{tag}: eq. 9 at eps = {e:g}: |psi(T_eps + T_delta, delta w_0) - p(T_eps)| <= eps/2 at the "
                f"two smallest deltas ({deltas[-2]:g}, {deltas[-1]:g}), T_eps = {T:g}",
                dev_all[-2:, j],
                e / 2,
                why="[derived, docstring] eq. 9's eps split by the triangle inequality: T_eps is chosen "
                f"so that |p(T_eps) - p*| <= eps/2 (here {d_T:.3g}: constructed, not evidence), which leaves "
                "eps/2 for the deviation from the limiting path that the theorem's 'sufficiently small "
                "delta' controls (C delta by eq. 8 at T_eps); eps/2 is the statement's own budget, no "
                "tolerance added",
                resolution=f"a deviation that does not vanish as delta -> 0 (a start outside S(w_*), the "
                f"control), or one with C = dev/delta > eps/(2 delta) = {e / (2 * deltas[-2]):.3g} at "
                f"delta = {deltas[-2]:g} (the grid not reaching 'sufficiently small')",
            )
        dev = dev_all[:, -1]
        # neuron 1 (radius 0.436 delta) near p* grows at most like rho / (1 - 3 N_1 rho t), N_1 its NCF max
        growth = 3 * n1 * np.sqrt(1 - 0.9**2) * deltas * T_eps[-1]
        linear = growth <= 0.1
        name = f"{tag}: |psi(T_eps + T_delta, delta w_0) - p(T_eps)| against delta at T_eps = {T_eps[-1]:g}"
        if linear.sum() < 3:
            ctx.undecided(name, f"only {linear.sum()} deltas with neuron-1 growth <= 10% by T_eps")
        else:
            # p(T_eps) from d_ref w_* is O(d_ref^2) off (lemma-4's Cauchy order 2): from 4 d_ref, 16x that
            far = _l4_paths(
                descent, deltas[-1] * w_star[None], np.array([T_star / deltas[-1]]), T_eps[-1:], rtol
            )
            ref_err = float(np.linalg.norm(far[0, 0] - p_T[-1])) / 15
            _, order_tol, parts = order_tolerance(deltas[linear], dev[linear], ref_err)
            ctx.order(
                name,
                deltas[linear],
                dev[linear],
                expected=1.0,
                tol=order_tol,
                why="[derived, docstring] neuron 1 of w_0 is O(delta) (Lemma 5); fitted over the deltas "
                "where its growth near p* by T_eps, rho/(1 - 3 N_1 rho T_eps) - rho, is <= 10% (larger "
                "deltas leave p* within T_eps: the escape of Theorem 7); tolerance "
                + ", ".join(f"{k} {v:.3g}" for k, v in parts.items())
                + " (fitted_orders.order_tolerance; floor: p(T_eps) from d_ref w_* is O(d_ref^2) off, "
                "|p_{4 d_ref} - p_{d_ref}| / 15)",
                xlabel="delta",
                ylabel="distance to p(T_eps)",
            )
        fits = []
        for j, e in enumerate(eps_ok):
            bad = np.nonzero(dev_all[:, j] > e / 2)[0]
            below = deltas[bad.max() + 1] if bad.size and bad.max() + 1 < deltas.size else np.nan
            fits.append(
                f"eps {e:g}: |p(T_eps) - p*| = {np.linalg.norm(p_T[j] - p_star):.3g}, eq. 9's distance "
                f"{dist[-2:, j].max():.3g} at the two smallest deltas, D_eps <= eps/2 for all grid deltas <= "
                f"{deltas[0] if not bad.size else below:.3g}"
            )
        ctx.note(
            f"{tag}: T_eps = {dict(zip(eps_ok.tolist(), T_eps.tolist(), strict=True))}; "
            f"C = dev/delta from {dev[0] / deltas[0]:.3g} to {dev[-1] / deltas[-1]:.3g}; "
            + "; ".join(fits)
            + f"; Hessian at p*: nonzero eigenvalues {np.round(lam, 4).tolist()}; "
            f"L(p*) / L(0) = {loss_star / (0.5 * y @ y):.3g}"
        )
    descent, ncf, w_star, T_star, eps_ok, T_eps, p_T, n1 = first
    if T_eps.size:
        search_rng = ctx.rng("equation-9-search").host
        seen: list[dict] = []
        ctx.search(
            "search: max over eps of |psi(T_eps + T_delta, delta w_0) - p(T_eps)| / (eps/2) over w_0 in "
            "S(w_*) (data 0), deltas 2^5 below each instance's derived delta_s",
            partial(
                _eq9_violation, descent, ncf, w_star, T_star, T_eps, p_T, eps_ok, deltas[-2], n1, rtol, seen
            ),
            {
                "random neuron-1 direction, share 0.85": [np.append(search_rng.normal(size=4), 0.0)],
                "share -> 0.75 (neuron 1's blow-up closest)": [np.append(search_rng.normal(size=4), -4.0)],
                "neuron 1 on the top eigen-direction with b < 0": [np.array([*w_star[:3], -w_star[6], -1.0])],
            },
            budget=budget,
            why="eq. 9's delta part for every start in S(w_*) of lemma-4's form (neuron 0 on w_*'s ray with "
            "share in (0.75, 0.95), neuron 1 any direction; _l4_start): Nelder-Mead; per instance the deltas "
            f"delta_s/{EQ9_SHRINK:g} and delta_s/{2 * EQ9_SHRINK:g}, delta_s = min({deltas[-2]:g}, "
            f"{_L4_REGIME} (T_1 - T_0)/T_eps, 0.1/(3 N_1 r_1 T_eps)) (its regime, _eq9_violation): eq. 9 "
            "holds for some range of small deltas, so a violation is a deviation that does not shrink "
            "with delta; the bound eps/2 is the statement's own budget, as above",
        )
        if seen:
            w = max(seen, key=lambda r: r["ratio"])
            at_s = max(seen, key=lambda r: r["ratio at delta_s"])
            ctx.note(
                f"equation-9 search: {len(seen)} instances, delta_s from "
                f"{min(r['delta'] for r in seen):.3g} to {max(r['delta'] for r in seen):.3g}; worst: share "
                f"{w['share']:.4f}, T_1 - T_0 = {w['T1 - T0']:.4g}, delta_s = {w['delta']:.3g}, "
                f"ratio {w['ratio']:.3g} at delta_s/{EQ9_SHRINK:g} ({w['ratio at delta_s']:.3g} at delta_s). "
                f"The derived delta_s itself: worst ratio {at_s['ratio at delta_s']:.3g} there (share "
                f"{at_s['share']:.4f}, T_1 - T_0 = {at_s['T1 - T0']:.4g}; > 1 means the estimate of "
                "'sufficiently small', not eq. 9, was too large for that start)"
            )
    with ctx.control(
        "w_0 = w_* shared equally by both neurons (stable set of that first-order KKT point, not of w_*)",
        breaks=W0_STABLE,
        must_break=["data 0: eq. 9 at eps = *"],
    ):
        split = _l4_split(w_star)
        T_split = T_star * np.sqrt(2)  # each neuron on w_*'s ray at radius 1/sqrt(2): blow-up time x sqrt(2)
        if T_eps.size:
            paths = _l4_paths(descent, np.outer(deltas[-2:], split), T_split / deltas[-2:], T_eps, rtol)
            dev_split = np.linalg.norm(paths - p_T, axis=2)
        for j, (e, T) in enumerate(zip(eps_ok, T_eps, strict=True)):
            ctx.bound(
                f"data 0: eq. 9 at eps = {e:g}: |psi(T_eps + T_delta, delta w_0) - p(T_eps)| <= eps/2 at the "
                f"two smallest deltas, T_eps = {T:g}",
                dev_split[:, j],
                e / 2,
                why="as above",
            )


# ------------------------------------------------------------------------------- Figures 1-4 (Sec. 4)


def _quartic_saddle(rng: np.random.Generator, d: int, n: int, width: int):
    r"""Data :math:`y=((u^\top x)^2-0.8(v^\top x)^2)^2` (a width-2 net) and the saddle :math:`(\bar w_n,0)`
    of the 3-layer :math:`\sigma=x^2` net of widths ``width``/``width``: neuron 1 of each layer is a
    one-neuron fit (BFGS from ``u``: a local minimum of :math:`\widetilde{\mathcal L}`), every other
    weight 0.
    Returns ``(X, y, Ws, |grad L~(w_n bar)|)``."""
    X = 1.5 * rng.normal(size=(n, d)) / np.sqrt(d)
    u, v = np.linalg.qr(rng.normal(size=(d, 2)))[0].T
    y = ((X @ u) ** 2 - 0.8 * (X @ v) ** 2) ** 2
    net = HomogeneousNet(((1, d), (1, 1), (1, 1)), 1.0, 2)
    data = net.args(HOST, X, y)

    def fun(w):
        value, grad = net.loss_and_grad(w[None], data)
        return float(value[0]), grad[0]

    fit = minimize(fun, np.append(u, [1.0, 1.0]), jac=True, method="BFGS", options={"gtol": 1e-10})
    Ws = [np.zeros((1, width, d)), np.zeros((1, width, width)), np.zeros((1, 1, width))]
    Ws[0][0, 0], Ws[1][0, 0, 0], Ws[2][0, 0, 0] = fit.x[:d], fit.x[d], fit.x[d + 1]
    return X, y, Ws, float(np.linalg.norm(fit.jac))


def _sharpness(X: np.ndarray, y: np.ndarray, Ws: list[np.ndarray]) -> float:
    """Largest Hessian eigenvalue of the loss at ``Ws`` (central differences of the analytic gradient,
    step 1e-6: error ~1e-12 relative, the loss being a polynomial)."""
    net = HomogeneousNet(tuple(W.shape[1:] for W in Ws), 1.0, 2)
    w0, data = net.pack(Ws)[0], net.args(HOST, X, y)

    def grad(w):
        return net.loss_and_grad(w[None], data)[1][0]

    H = np.array([(grad(w0 + 1e-6 * e) - grad(w0 - 1e-6 * e)) / 2e-6 for e in np.eye(w0.size)])
    return float(np.linalg.eigvalsh(0.5 * (H + H.T))[-1])


def _quadratic_ncf_max(ncf: NeuronNCF) -> float:
    r"""Constrained maximum of :math:`h(a,b)=b\,a^\top Ma` (:math:`\sigma=x^2`, one outgoing weight),
    :math:`M=\sum_iq_ig_ig_i^\top`: :math:`\max(\mu_{\max},-\mu_{\min})\cdot2/(3\sqrt3)` (the best
    :math:`b(1-b^2)` times the extreme eigenvalue)."""
    M = (ncf.G[0] * ncf.Q[0, 0]) @ ncf.G[0].T
    mu = np.linalg.eigvalsh(M)
    return float(max(mu[-1], -mu[0]) * 2 / (3 * np.sqrt(3)))


def _fig_draws(ctx: Context, d: int, n: int, width: int, count: int, key: int):
    """The ``count`` data draws with keys ``key, key + 1, ...``, every one of them (no filter on the data):
    ``(key, X, y, Ws, |grad L~|, 1/sharpness, NCFs, N*)`` each."""
    draws = []
    for k in range(key, key + count):
        X, y, Ws, grad_fit = _quartic_saddle(ctx.rng(f"figures-{k}").host, d, n, width)
        ybar = y - output(Ws, X, 1.0, 2)[0]
        ncfs = layer_candidates([Ws[0][:, :1], Ws[1][:, :1, :1], Ws[2][:, :, :1]], X, ybar[None], 1.0, 2)
        # w_z enters the loss at third order (H_1 is 3-homogeneous): the sharpness is the w_n block's
        sharp = _sharpness(X, y, [W[:, :1, :1] if i else W[:, :1] for i, W in enumerate(Ws)])
        draws.append((k, X, y, Ws, grad_fit, 1.0 / sharp, ncfs, _quadratic_ncf_max(ncfs[0])))
    return draws


def _new_norms(Ws: list[np.ndarray]) -> np.ndarray:
    """Norms of the new neurons' (incoming, outgoing) weights, layer 1 then layer 2: (B, 2 (width - 1))."""
    W1, W2, W3 = Ws
    first = np.sqrt((W1[:, 1:] ** 2).sum(axis=2) + W2[:, 0, 1:] ** 2)
    second = np.sqrt(W2[:, 1:, 0] ** 2 + W3[:, 0, 1:] ** 2)
    return np.concatenate([first, second], axis=1)


def _wz_kkt_cosine(Ws: list[np.ndarray], ncfs: list[NeuronNCF]) -> np.ndarray:
    r""":math:`\cos\angle(\nabla\mathcal N_{\bar y,\bar{\mathcal H}_1}(w_z),w_z)` per member (B,), with the
    per-neuron split (Sec. 3.3): layer-1 neuron ``j`` is :math:`(A_1[j],B_2[0,j])`, layer-2 neuron ``j``
    is :math:`(A_2[j,0],B_3[0,j])`; :math:`C_2` is absent from eq. 21 (zero gradient)."""
    W1, W2, W3 = Ws
    u1 = np.concatenate([W1[:, 1:], W2[:, 0, 1:, None]], axis=2)
    u2 = np.stack([W2[:, 1:, 0], W3[:, 0, 1:]], axis=2)
    g1, g2 = ncfs[0].value_and_grad(u1)[1], ncfs[1].value_and_grad(u2)[1]
    B = W1.shape[0]
    C = W2[:, 1:, 1:].reshape(B, -1)
    wz = np.concatenate([u1.reshape(B, -1), u2.reshape(B, -1), C], axis=1)
    grad = np.concatenate([g1.reshape(B, -1), g2.reshape(B, -1), np.zeros_like(C)], axis=1)
    return kkt_cosine(wz, grad)


def _wn(Ws: list[np.ndarray]) -> np.ndarray:
    """The active neuron's weights (neuron 1 of every layer), flat (B, d + 2)."""
    return pack([W[:, :1, :1] if i else W[:, :1] for i, W in enumerate(Ws)])


def _gd_record(X, y, Ws, lr: float, steps: int, every: int, cosine, wn0: np.ndarray, act=(1.0, 2)):
    """GD on every member of ``Ws`` (B members) with activation ``act`` = (alpha, p); every ``every``
    steps: loss (B, T), new-neuron norms (B, T, m), |w_z| (B, T), KKT cosine of w_z (B, T; ``cosine(Ws)``),
    the drift |w_n - wn0| (B, T) and the packed weights (B, T, P).  Returns the record and the final
    weights.  The steps are the engine's map on the packed weights (field minus the gradient; bit
    for bit ``W - lr g``), the records its observer; a member whose weights leave the finite numbers is
    NaN from then on (status ``NONFINITE``)."""
    net = HomogeneousNet(tuple(W.shape[1:] for W in Ws), *act)

    def observe(t, w, args):
        Vs = net.unpack(w)
        norms = _new_norms(Vs)
        return {
            "loss": net.loss_value(w, args),
            "norms": norms,
            "wz": np.sqrt((norms**2).sum(axis=1) + (Vs[1][:, 1:, 1:] ** 2).sum(axis=(1, 2))),
            "cos": cosine(Vs),
            "drift": np.linalg.norm(_wn(Vs) - args["wn0"], axis=1),
        }

    record = np.union1d(np.arange(0, steps + 1, every), [steps])
    args = {**net.args(HOST, X, y), "wn0": wn0}  # the net's shared data (member axis 1) and wn0
    run = gradient_descent(net, net.pack(Ws), lr=lr, steps=steps, record=record, args=args, observe=observe)
    return {"step": record, **run.observed, "w": run.ys}, net.unpack(run.y_stop)


def _next_plateau(loss: np.ndarray, i1: int, half: int = 16, drop: float = 0.5) -> int | None:
    """Index i_2 of the next saddle: the first record after the drop (loss <= drop loss(i_1)) around which
    the loss changes by at most 1% over +-``half`` records (+-0.5 units of escape time, a chunk being
    ``horizon`` = 6 units in 200 records); None if there is none."""
    for i in range(i1 + half, loss.size - half):
        window = loss[i - half : i + half + 1]
        if loss[i] <= drop * loss[i1] and (window.max() - window.min()) <= 1e-2 * window.min():
            return i
    return None


def _gd_run(
    X, y, Ws, lr: float, steps: int, cosine, extensions: int, member: int, act=(1.0, 2), drop: float = 0.5
) -> dict[str, np.ndarray]:
    """:func:`_gd_record` for ``steps`` steps, continued by up to ``extensions`` more such chunks while
    ``member`` has not reached its next saddle (:func:`_next_plateau` with ``drop``)."""
    every = max(steps // 200, 1)
    wn0 = _wn(Ws)
    rec, Ws = _gd_record(X, y, Ws, lr, steps, every, cosine, wn0, act)
    for chunk in range(1, extensions + 1):
        loss = rec["loss"][member]
        if _next_plateau(loss, _plateau_end(loss), drop=drop) is not None:
            break
        more, Ws = _gd_record(X, y, Ws, lr, steps, every, cosine, wn0, act)
        more["step"] = more["step"] + chunk * steps
        rec = {
            k: np.concatenate(
                [v, more[k][1:]] if k == "step" else [v, more[k][:, 1:]], axis=-1 if v.ndim < 3 else 1
            )
            for k, v in rec.items()
        }
    return rec


def _small_wz(rng: np.random.Generator, Ws: list[np.ndarray], deltas) -> list[np.ndarray]:
    """Members ``saddle + delta z`` for each delta, with one uniform unit direction ``z`` on w_z (every
    weight except neuron 1's)."""
    Z = [rng.normal(size=W.shape[1:]) for W in Ws]
    Z[0][0], Z[1][0, 0], Z[2][0, 0] = 0.0, 0.0, 0.0
    norm = np.sqrt(sum((z**2).sum() for z in Z))
    return [W + np.asarray(deltas)[:, None, None] * z[None] / norm for W, z in zip(Ws, Z, strict=True)]


def _plateau_end(loss: np.ndarray) -> int:
    """Index i_1 of the last record with loss >= 0.99 loss(0) (the end of the plateau)."""
    return int(np.nonzero(loss >= 0.99 * loss[0])[0].max())


def _first_saddle_checks(ctx: Context, tag: str, rec: dict[str, np.ndarray], member: int) -> None:
    """Fig. 1: the plateau ends inside the run; at its end i_1 w_z is a KKT direction of the NCF
    (cosine ~ 1) carried by one neuron."""
    loss = rec["loss"][member]
    i1 = _plateau_end(loss)
    ctx.bound(
        f"{tag}: loss at the end of the run / loss(0)",
        float(loss[-1] / loss[0]),
        0.99,
        why="the plateau ends inside the run (otherwise i_1 below is just the last record)",
    )
    ctx.bound(
        f"{tag}: KKT cosine of w_z at i_1 (last record with loss >= 0.99 loss(0))",
        float(rec["cos"][member, i1]),
        0.95,
        side=">=",
        why="Theorem 7: 1 - O(eps) near the saddle; Fig. 1 shows ~1; 0.95 is a reading of 'aligned' "
        "(the trend in delta is checked separately where two deltas run)",
    )
    norms = rec["norms"][member, i1]
    ctx.bound(
        f"{tag}: share of |w_z|^2 in the largest new neuron at i_1",
        float(norms.max() ** 2 / rec["wz"][member, i1] ** 2),
        0.9,
        side=">=",
        why="Lemma 11: blocks that blow up later vanish relative to the first; Fig. 1: one neuron",
    )


def _next_saddle_checks(ctx: Context, tag: str, rec: dict[str, np.ndarray], member: int) -> None:
    """Figs. 3-4: after the drop the loss is flat again (the next saddle, i_2) and the neurons small at
    i_1 are still small there; GD tracks the flow (monotone loss) up to i_2."""
    loss, norms = rec["loss"][member], rec["norms"][member]
    i1 = _plateau_end(loss)
    i2 = _next_plateau(loss, i1)
    ctx.holds(
        f"{tag}: a next plateau i_2 exists (loss <= L(i_1)/2, flat to 1% over 1 unit of escape time)",
        i2 is not None,
        measured=None if i2 is None else int(rec["step"][i2]),
        expected="a GD step",
        why="Fig. 3: the loss drops and plateaus at a new saddle",
    )
    if i2 is None:
        return
    ctx.note(
        f"{tag}: largest relative loss increase between records up to i_2: "
        f"{max((np.diff(loss[: i2 + 17]) / loss[: i2 + 16]).max(), 0.0):.3g} (GD with step 1/sharpness "
        "tracks the flow; an instrument reading, not a statement of the paper)"
    )
    small = norms[i1] < 0.1 * norms[i1].max()
    ctx.holds(
        f"{tag}: some new neuron is small at i_1 (< 10% of the largest, the catalog's tau)",
        bool(small.any()),
        measured=int(small.sum()),
        expected=">= 1",
        why="Fig. 1: at the saddle most new neurons stay small, one grows",
    )
    if small.any():
        ctx.bound(
            f"{tag}: neurons small at i_1: largest of them at i_2 / largest overall at i_2",
            float(norms[i2][small].max() / norms[i2].max()),
            0.1,
            why="Sec. 4 / Fig. 4: the inactive neurons stay small until the next saddle",
        )


def _plateau_order(ctx: Context, tag: str, deltas, rec: dict[str, np.ndarray]) -> None:
    r"""Theorem 7 (L = 3): the plateau ends after :math:`\sim T/\delta^{L-2}`, read as the order of
    :math:`i_1(\delta)` (GD steps) in :math:`\delta` over deltas a factor 2 apart (one GD run, one member
    per delta).

    [derived] With :math:`u=w_z/\delta` and :math:`s=\delta t` the small weights follow the NCF flow (eq. 17),
    which blows up at :math:`s_*` (Lemma 11; :math:`|u|\approx1/(\mathcal N^*(s_*-s))` near it, the NCF
    being 3-homogeneous); the loss leaves 0.99 loss(0) once :math:`|w_z|=\delta|u|` reaches a
    :math:`\delta`-free size :math:`r`, at :math:`s_*-s=\delta/(\mathcal N^*r)`.  So the escape time is
    :math:`t_1=s_*/\delta+B+o(1)`: :math:`B` collects the :math:`O(1)` offsets (the last stretch from
    :math:`r`, the relaxation of :math:`w_n`, and the shift of :math:`s_*` by the :math:`O(\delta)`
    deviation of eq. 42 from the NCF flow), and GD at step 1/sharpness adds a relative error of order
    lr times the slow rate :math:`3\delta\mathcal N^*`, far below.  Hence
    :math:`i_1=A/\delta+B'` and the local slopes are :math:`-1/(1+B'\delta/A)`: order -1 with a next-order
    term of order 1 in :math:`\delta` (:math:`\gamma=1`), which ``order_tolerance`` bounds from the local
    slopes; :math:`i_1` is read to within one record interval (the last record with loss >= 0.99 loss(0)),
    its floor.  Order 0 (no plateau) or -2 (an escape on the wrong time scale) lie 1 away."""
    members = np.argsort(deltas)[::-1]  # the largest delta first: order_tolerance's local[-1] is the smallest
    ends = np.array([float(rec["step"][_plateau_end(rec["loss"][m])]) for m in members])
    spacing = float(np.diff(rec["step"]).max())
    x = np.asarray(deltas, dtype=float)[members]
    _, tol, parts = order_tolerance(x, ends, spacing)
    ctx.order(
        f"{tag}: plateau length i_1 (GD steps) against delta, order -(L - 2) = -1",
        x,
        ends,
        expected=-1.0,
        tol=tol,
        why="Theorem 7: the saddle is left after T/delta^(L-2), L = 3, plus an O(1) time (see "
        "_plateau_order: i_1 = A/delta + B, local slopes -1/(1 + B delta/A)). Tolerance "
        f"(fitted_orders.order_tolerance): the fit's 95% half-width ({parts['interval']:.2g}) + the "
        f"next-order bound from the local slopes ({parts['next order']:.2g}) + the shift by the record "
        f"spacing, {spacing:.0f} steps ({parts['floor']:.2g})",
        xlabel="delta",
        ylabel="i_1 (GD steps)",
    )


# measured outside the claim (one CPU core): d = 20, n = 40, widths 10/10, keys 0..24 under seed 0
D20_COST = (
    "at d = 20 the GD steps per unit of escape time, sharpness/N*, are 2803, 4903, 5722, 1905 at the first "
    "4 keys (median ~3000, up to 1.2e5 over keys 0-24; at d = 10 median ~1000), and a chunk of 6 units at "
    "delta = 0.01 (5.6e5 steps at key 0) costs 59 s of CPU; key 0 had no next plateau after 3 chunks "
    "(18 units, 182 s); a chunk of all 4 draws is 322 s of CPU, and they need 2 or more (d = 10: 8-10 units)"
)


@claim(
    "kumar2025:figures-1-4",
    title="GD near a sparse saddle: plateau, w_z aligns with a KKT point, sparsity kept to the next saddle",
    source="Sec. 4, Figs. 1-4 (sigma = x^2 panels), unnumbered empirical claims",
    statement=r"From $(\bar w_n,\delta z)$ (3-layer $\sigma=x^2$, one active neuron per layer): the loss "
    r"stays at $\widetilde{\mathcal L}(\bar w_n)$ while $w_z/\|w_z\|$ becomes a KKT point of "
    r"$\mathcal N_{\bar y,\bar{\mathcal H}_1}$ (cosine $\approx1$) with one dominant neuron; then the loss "
    r"drops to a new plateau and the neurons small at the old saddle are still small there",
    hypotheses=[
        SMALL_DELTA,
        W_N_CRITICAL,
        r"$z$ uniform",
    ],
)
def figures_1_4(ctx: Context) -> None:
    r"""GD with step :math:`1/\lambda_{\max}` at the saddle (the stiff mode is removed in one step) for
    ``horizon`` units of :math:`1/(3\delta\mathcal N^*)`, the blow-up time of the aligned NCF flow
    (Lemma 11), :math:`\mathcal N^*` the layer-1 candidate NCF maximum (closed form; the layer-2
    candidate vanishes at the saddle, :math:`\bar y\perp\mathcal H(\bar w_n)`).  The step count is
    ``horizon`` x :math:`\lambda_{\max}/\mathcal N^*` / :math:`(3\delta)`; that ratio ranges from
    ~50 to ~1e5 over data draws (median ~1e3 at d = 10, ~3e3 at d = 20) and sets the cost, but nothing
    in the paper restricts the data, so every draw is run: the first ``draws`` keys in order, and the
    measured quantities are reported as intervals over them.  Fig. 1 has d = 20, widths 10/10 (no n,
    lr or delta given); ``full`` has widths 10/10 at d = 10, labelled reduced scale with the cost of
    d = 20 measured (D20_COST).
    Runs are extended by chunks of ``horizon`` units until the next plateau appears (it came at 8-10
    units here).  ``quick`` and ``full`` run deltas a factor 2 apart (members of the same GD run, whose
    length the smallest sets) for the plateau length's order in delta (:func:`_plateau_order`).
    ``tiny`` only checks the first saddle (6 units, past its end at ~5)."""
    d, n, width = ctx.param("sizes", tiny=(10, 40, 4), quick=(10, 40, 4), full=(10, 40, 10))
    deltas = ctx.param("deltas", tiny=(0.02,), quick=(0.08, 0.04, 0.02), full=(0.08, 0.04, 0.02, 0.01))
    horizon = ctx.param("horizon", tiny=6.0, quick=6.0, full=6.0)
    extend = ctx.param("extensions", tiny=0, quick=5, full=10)
    next_saddle = ctx.param("next_saddle", tiny=False, quick=True)
    control_share = ctx.param("control_share", tiny=0.25, quick=1.0)
    count = ctx.param("draws", tiny=1, quick=2, full=4)
    draws = _fig_draws(ctx, d, n, width, count, ctx.param("first_key", tiny=0, quick=0))
    if (d, width) != (20, 10):
        ctx.reduced_scale(
            f"d = {d}, widths {width}/{width} instead of Fig. 1's d = 20, widths 10/10: {D20_COST}"
        )
    spread: dict[str, list[float]] = {"ratio sharpness/N*": [], "GD steps": [], "KKT cosine at i_1": []}
    for key, X, y, Ws, grad_fit, lr, ncfs, n_star in draws:
        tag = f"data {key}"
        ctx.regime(SMALL_DELTA, ratio=max(deltas) / float(np.sqrt(sum((W**2).sum() for W in Ws))))
        ctx.regime(W_N_CRITICAL, grad=grad_fit)  # a hypothesis of the figures, not a conclusion
        steps = round(horizon / (3 * min(deltas) * n_star) / (lr))
        small = int(np.argmin(deltas))
        cosine = partial(_wz_kkt_cosine, ncfs=ncfs)
        rec = _gd_run(X, y, _small_wz(ctx.rng(f"z-{key}").host, Ws, deltas), lr, steps, cosine, extend, small)
        _first_saddle_checks(ctx, f"{tag}, delta = {deltas[small]}", rec, small)
        if next_saddle:
            _next_saddle_checks(ctx, f"{tag}, delta = {deltas[small]}", rec, small)
        if len(deltas) > 2:
            _plateau_order(ctx, tag, deltas, rec)
        if len(deltas) > 1:
            cos_i1 = [float(rec["cos"][m, _plateau_end(rec["loss"][m])]) for m in range(len(deltas))]
            ctx.holds(
                f"{tag}: 1 - KKT cosine at i_1 decreases as delta decreases ({deltas})",
                bool(np.all(np.diff(1 - np.asarray(cos_i1)) * np.sign(np.diff(deltas)) > 0)),
                measured=cos_i1,
                expected="increasing cosines",
                why="Theorem 7: the error is O(eps) for delta small enough; alignment improves as delta -> 0",
            )
        i1 = _plateau_end(rec["loss"][small])
        spread["ratio sharpness/N*"].append(1 / (lr * n_star))
        spread["GD steps"].append(float(rec["step"][-1]))
        spread["KKT cosine at i_1"].append(float(rec["cos"][small, i1]))
        ctx.note(
            f"{tag}: d, n, width = {d}, {n}, {width}; deltas {deltas}; lr = 1/sharpness = {lr:.3g}; "
            f"{rec['step'][-1]} GD steps; N* = {n_star:.3g}; ratio sharpness/N* = {1 / (lr * n_star):.0f}; "
            f"plateau loss {rec['loss'][small, 0]:.4g}, at the end {rec['loss'][small, -1]:.4g}; "
            f"w_n drift at i_1 {rec['drift'][small, i1]:.3g}"
        )
        ctx.figure(
            f"{tag}, delta = {deltas[small]}: loss and KKT cosine along GD",
            xlabel="GD step",
            ylabel="value",
            series=[
                Series("loss / loss(0)", rec["step"], rec["loss"][small] / rec["loss"][small, 0]),
                Series("KKT cosine of w_z", rec["step"], rec["cos"][small]),
            ],
        )
    ctx.note(
        f"over the {count} data draws (keys {draws[0][0]}..{draws[-1][0]}, none skipped), [min, max]: "
        + "; ".join(f"{name} [{min(v):.4g}, {max(v):.4g}]" for name, v in spread.items())
    )
    key, X, y, Ws, _, lr, ncfs, n_star = draws[0]
    with ctx.control(
        "w_z starts at norm 0.5 (not small)",
        breaks=SMALL_DELTA,
        must_break=[
            "data *: KKT cosine of w_z at i_1*",
            "data *: share of |w_z|^2 in the largest new neuron at i_1",
        ],
    ):
        # tiny: a quarter of the run (the loss leaves its start within a few hundred steps)
        steps = round(control_share * horizon / (3 * min(deltas) * n_star) / (lr))
        start = _small_wz(ctx.rng(f"z-{key}").host, Ws, [0.5])
        rec = _gd_run(X, y, start, 0.5 * lr, steps, partial(_wz_kkt_cosine, ncfs=ncfs), extend, 0)
        _first_saddle_checks(ctx, f"data {key}, |w_z(0)| = 0.5", rec, 0)
        if next_saddle:
            _next_saddle_checks(ctx, f"data {key}, |w_z(0)| = 0.5", rec, 0)
