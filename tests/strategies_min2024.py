r"""Hypothesis strategies for min2024: well-separated data with a given margin, balanced states.

* :func:`separated_datasets` -- ``(X, y)`` with :math:`\mu\ge` ``mu_min`` (Assumption 1), built as
  :math:`y_ix_i=r_i(c+\delta_i)` around a common unit direction ``c`` with small offsets;
* :func:`balanced_states` -- ``(W, s)``: first layers ``(B, h, D)`` of any scale and signs; the
  balanced second layer is :math:`v_j=s_j\|w_j\|`.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from numeric.separated_data import separation


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
