r"""dana2025 Lemma 1 at any state: the rate of change of :math:`\Delta_j=a_j^2-\|w_j\|^2` along flow (3), and
its rounding bound, for the instance search over data and initializations.

Lemma 1 holds for every data set and every initialization: along (3),
:math:`\tfrac12\dot\Delta_j=a_j\dot a_j-\langle w_j|\dot w_j\rangle=\frac{a_j}n\sum_ir_i\big(\sigma(z_{ji})
-\sigma'(z_{ji})z_{ji}\big)=0` with :math:`z_{ji}=\langle w_j|x_i\rangle`, because
:math:`\sigma'(z)z=\sigma(z)` for every :math:`z` (at the kink for any choice of :math:`\sigma'(0)`).
Along any solution :math:`\Delta_j(t)-\Delta_j(0)=2\int_0^t(a_j\dot a_j-\langle w_j|\dot w_j\rangle)`, so
the statement "for all data, all initializations and all t" holds iff the integrand vanishes at every state
a solution visits; :func:`defect_ratio` measures it at arbitrary states (a superset) on the toolkit's
field (3) (:class:`numeric.models.shallow_relu.ShallowReLU`, full coordinates).

**Rounding bound.** With the computed :math:`\hat z_{ji}`, :math:`\hat r_i` (used by both layers) the
identity holds exactly in real arithmetic, so the computed :math:`\hat D_j=a_j\dot a_j-\langle w_j|\dot w_j
\rangle` is rounding only: :math:`\dot a_j=\frac1n\sum_i\sigma(\hat z_{ji})\hat r_i` has error
:math:`\le\gamma_{n+1}\frac1n\sum_i|\hat r_i||\hat z_{ji}|`; :math:`\dot w_j=\frac{a_j}n\sum_iQ_{ji}x_i`
(:math:`|Q_{ji}|\le|\hat r_i|`) has, per coordinate,
:math:`\le\gamma_{n+2}\frac{|a_j|}n\sum_i|\hat r_i||x_{ik}|`;
the dot product with :math:`w_j` adds :math:`\gamma_d`; replacing :math:`\sum_kw_{jk}x_{ik}=z_{ji}` by
:math:`\hat z_{ji}` costs :math:`\gamma_dP_{ji}`, :math:`P=|W||X|^\top`; the last product and subtraction
:math:`3u`. With :math:`|\hat z_{ji}|\le(1+\gamma_d)P_{ji}`:

.. math::

    |\hat D_j|\le\gamma_K\,\frac{|a_j|}n\sum_i|\hat r_i|P_{ji},\qquad K=2n+2d+12,
    \quad\gamma_K=\frac{Ku}{1-Ku},\ u=2^{-53},

for any order of summation (the second-order terms are inside the :math:`+12`). The violation ratio is
:math:`\max_j|\hat D_j|/\text{bound}_j`: a field that does not conserve :math:`\Delta` (a layer's factor
off by a relative :math:`\epsilon`, a non-homogeneous activation) has :math:`|D_j|\sim\epsilon\frac{|a_j|}n
\sum_i|r_i||z_{ji}|` and ratio :math:`\sim\epsilon/\gamma_K`, above 1 from :math:`\epsilon\approx10^{-14}`.

**Instances** (:func:`instance`): any data (:func:`verify.papers.dana2025.instances.any_data`, norms
:math:`e^{\pm3}`), a first layer :math:`W` free except that neuron 0 is projected onto the kink of example 0
(:math:`\langle w_0|x_0\rangle` at rounding size: App. C.2's situation), and :math:`a_j=s_j(\|w_j\|+
\mathrm{softplus}(t_j))`, Assumption 1 with equality approached as :math:`t_j\to-\infty` (the gap is
nonnegative in floating point too, :math:`\mathrm{fl}` being monotone).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from verify.papers.dana2025.hypotheses import a1_gap
from verify.papers.dana2025.instances import Instance, any_data, assemble
from verify.search import softplus

SHAPE = (3, 2)  # (n, p) of the searched instances; d = n + 1
UNIT = 2.0**-53


def instance(theta: np.ndarray, n: int, p: int) -> Instance:
    """The data and Assumption-1 state ``theta`` describes (module docstring)."""
    X, y, rest = any_data(theta, n)
    d = n + 1
    W = rest[: p * d].reshape(p, d).copy()
    W[0] -= (W[0] @ X[0]) / (X[0] @ X[0]) * X[0]
    gap = softplus(rest[p * d : p * d + p])
    s = np.where(rest[p * d + p : p * d + 2 * p] >= 0, 1.0, -1.0)
    return Instance(X, y, W, s * (np.linalg.norm(W, axis=1) + gap))


def field(inst: Instance) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(dW (p, d), da (p,), r (n,)): the toolkit's flow (3) at the instance's state."""
    model, y0, args = inst.model()
    dW, da = model.unpack(model(None, y0, args))
    return dW[0], da[0], model.residual(y0, args)[0]


def defect_ratio(
    theta: np.ndarray, *, shape: tuple[int, int] = SHAPE, flow: Callable[[Instance], tuple] = field
) -> float:
    r""":math:`\max_j|a_j\dot a_j-\langle w_j|\dot w_j\rangle|/\text{bound}_j` at the instance ``theta``
    (module docstring); ``flow`` maps an instance to ``(dW, da, r)`` (the toolkit's field by default)."""
    inst = instance(theta, *shape)
    dW, da, r = flow(inst)
    n, d = inst.X.shape
    D = inst.a * da - (inst.W * dW).sum(axis=1)
    K = 2 * n + 2 * d + 12
    bound = K * UNIT / (1 - K * UNIT) * np.abs(inst.a) / n * (np.abs(inst.W) @ np.abs(inst.X).T @ np.abs(r))
    return float(np.max(np.abs(D) / bound))


def min_gap(thetas, shape: tuple[int, int] = SHAPE) -> float:
    r""":math:`\min_j|a_j|-\|w_j\|` over the instances ``thetas`` (Assumption 1's reading)."""
    insts = [instance(t, *shape) for t in thetas]
    return min(a1_gap(inst.a, np.linalg.norm(inst.W, axis=1)) for inst in insts)


def starts(rng: np.random.Generator, shape: tuple[int, int] = SHAPE) -> dict[str, list[np.ndarray]]:
    """Four structurally different families (blocks: directions, log-norms, labels; W, gaps, signs)."""
    n, p = shape
    d = n + 1
    eye = np.eye(n, d).ravel()
    collinear = np.tile(np.ones(d), n)
    state = [(p * d, 0, 1), (p, 0, 1), (p, 0, 1)]
    return {
        "orthogonal inputs, unit norms, labels +-1": [
            assemble(rng, [(n * d, eye, 0.01), (n, 0, 0.01), (n, 0, 1), *state])
        ],
        "near-collinear inputs, labels ~ 5 (large residuals)": [
            assemble(rng, [(n * d, collinear, 0.05), (n, 0, 0.3), (n, 5, 1), *state])
        ],
        "norms e^-3 .. e^3, tiny labels, large weights": [
            assemble(
                rng, [(n * d, 0, 1), (n, np.linspace(-3, 3, n), 0.1), (n, 0, 0.01), (p * d, 0, 5), *state[1:]]
            )
        ],
        "Assumption 1 at equality, small init (residual ~ y)": [
            assemble(rng, [(n * d, 0, 1), (n, 0, 0.5), (n, 0, 1), (p * d, 0, 0.01), (p, -30, 1), (p, 0, 1)])
        ],
    }
