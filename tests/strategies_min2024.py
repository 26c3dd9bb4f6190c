r"""Hypothesis strategies for min2024: well-separated data with a given margin, balanced states.

* :func:`separated_datasets` -- ``(X, y)`` with :math:`\mu\ge` ``mu_min`` (Assumption 1), built as
  :math:`y_ix_i=r_i(c+\delta_i)` around a common unit direction ``c`` with small offsets;
* :func:`balanced_states` -- ``(W, s)``: first layers ``(B, h, D)`` of any scale and signs; the
  balanced second layer is :math:`v_j=s_j\|w_j\|`;
* ``OVERFLOW_DRAWS`` -- two shrunk draws of issue 16 bug 5 on which the exponential flow overflows;
* :func:`exponential_field_is_representable` -- whether the exponential-loss flow at such a state is
  finite in float64 (the condition under which two formulations of it can be compared).
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from numeric.data.separated_data import separation


@st.composite
def separated_datasets(draw, n: int, D: int, mu_min: float = 0.2):
    """``(X, y)`` with both labels present and :math:`\\mu\\ge` ``mu_min``."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    spread = draw(st.floats(0.05, 0.6))
    c = rng.normal(size=D)
    c /= np.linalg.norm(c)
    while True:
        Z = c + spread * rng.normal(size=(n, D)) / np.sqrt(D)
        y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
        X = y[:, None] * Z * rng.uniform(0.5, 2.0, size=(n, 1))
        if separation(X, y) >= mu_min:
            return X, y
        spread /= 2


@st.composite
def balanced_states(draw, B: int, h: int, D: int):
    """``(W, s)``: Gaussian directions times norms :math:`10^k`, :math:`k\\in[-3,1]`, random signs."""
    U = draw(hnp.arrays(np.float64, (B, h, D), elements=st.floats(-1, 1, allow_subnormal=False)))
    U = U + 1e-3 * (np.abs(U) < 1e-3)
    k = draw(st.floats(-3, 1))
    s = draw(hnp.arrays(np.float64, (B, h), elements=st.sampled_from([-1.0, 1.0])))
    return U * 10.0**k, s


# Shrunk draws of ``separated_datasets(n, D)`` keyed by ``(n, D)`` (issue 16 bug 5; X printed to 8
# digits): with every entry of W equal to +-10 the outputs reach |f| ~ 1300, the exponential loss's
# gradient e^{-yf} exceeds the largest float, and the flow tests pin (``@example``) that such states
# are skipped by :func:`exponential_field_is_representable`, not compared.
OVERFLOW_DRAWS = {
    (5, 4): (
        np.array(
            [
                [0.07485322, -0.15024099, 1.81591415, 0.55839619],
                [-0.01138226, 0.55101802, -0.85420571, -0.17847931],
                [-0.78782961, -0.50029367, 1.27446626, -0.05478666],
                [-0.09945391, 0.54219018, -2.07564019, -0.82052304],
                [0.23594586, 0.22258718, 1.1978129, 0.3721344],
            ]
        ),
        np.array([1.0, -1.0, 1.0, -1.0, 1.0]),
    ),
    (4, 3): (
        np.array(
            [
                [-0.0149331, 1.32854864, 0.56234021],
                [-0.14619364, -0.72353429, -0.31747307],
                [0.49538384, 0.96382885, 0.55832761],
                [-0.12153477, -0.65805295, -0.16782163],
            ]
        ),
        np.array([1.0, -1.0, 1.0, -1.0]),
    ),
}


def exponential_field_is_representable(X: np.ndarray, W: np.ndarray) -> bool:
    r"""True if the balanced flow with the exponential sum loss is finite in float64 at ``W`` ``(B, h, D)``.

    With :math:`|v_j|=\|w_j\|` and any leak :math:`\alpha\in[0,1]`,
    :math:`|f_i|\le F_i=\|x_i\|\sum_j\|w_j\|^2`, so :math:`|r_i|=e^{-y_if_i}\le e^{\max_iF_i}`.
    Every entry of the plain field (:math:`\dot w_j=v_j\sum_i\sigma'r_ix_i`,
    :math:`\dot v_j=\sum_ir_i\sigma(\langle w_j,x_i\rangle)`), of the log-polar field
    (:math:`g_j=\sum_i\sigma'r_ix_i`) and of the rates divided by :math:`\|w_j\|` is then at most
    :math:`e^{\max F}\sum_i\|x_i\|\max(1,\|w\|_{\max})/\min(1,\|w\|_{\min})`; this function
    asks that bound, per member, to stay below :math:`e^{-1}` times the largest float.  Beyond it the
    gradient is not representable (the exponential loss overflows, e.g. :math:`-yf\approx1300`
    at :math:`W=\pm10`), so there is nothing finite to compare.
    """
    xnorm = np.linalg.norm(X, axis=-1)
    wnorm = np.linalg.norm(W, axis=-1)  # (B, h)
    exponent = xnorm.max() * (wnorm**2).sum(axis=-1)
    spread = xnorm.sum() * np.maximum(1.0, wnorm.max(axis=-1)) / np.minimum(1.0, wnorm.min(axis=-1))
    return bool(np.all(exponent + np.log(spread) <= np.log(np.finfo(np.float64).max) - 1.0))
