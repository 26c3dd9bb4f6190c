r"""Hypothesis strategies for dana2025-style data and initializations (shallow nets, 1/p scaling).

* :func:`weakly_correlated_data` -- App. B norms and labels with a Gram matrix
  :math:`G=D_X+E` whose off-diagonal part has spectral norm a chosen fraction of the
  Assumption-2 limit :math:`\frac{(C_x^-)^2}{2\sqrt n}\frac{C_y^-}{C_y^+}` (correlated inputs that still
  satisfy the assumption), returned as ``(norms, y, G)``.
* :func:`network_states` -- App. B-like states ``(W, a)`` in full coordinates with
  :math:`|a_j|\ge\|w_j\|` (Assumption 1), at a random scale.
* :func:`group_initializations` -- group initialization (9): ``gammas`` > 0 per group and labels of
  one sign per group.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp


def _floats(lo: float, hi: float) -> st.SearchStrategy[float]:
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False, allow_subnormal=False)


@st.composite
def weakly_correlated_data(draw, n: int | None = None, frac: float | None = None):
    """``(norms, y, G)`` with ||G - D_X|| = frac x the Assumption-2 limit (spectral norm).

    ``n`` (default: drawn in [2, 8]) and ``frac`` (default: drawn in [0, 0.99]) may be fixed."""
    n = draw(st.integers(2, 8)) if n is None else n
    frac = draw(_floats(0.0, 0.99)) if frac is None else frac
    norms = draw(hnp.arrays(np.float64, n, elements=_floats(1.0, 2.0)))
    mags = draw(hnp.arrays(np.float64, n, elements=_floats(1.0, 2.0)))
    signs = draw(hnp.arrays(np.float64, n, elements=st.sampled_from([-1.0, 1.0])))
    y = signs * mags
    S = draw(hnp.arrays(np.float64, (n, n), elements=_floats(-1.0, 1.0)))
    S = np.triu(S, 1)
    S = S + S.T
    E = S * norms[:, None] * norms[None, :]
    limit = norms.min() ** 2 / (2 * np.sqrt(n)) * np.abs(y).min() / np.abs(y).max()
    size = np.abs(np.linalg.eigvalsh(E)).max()
    E = E * (frac * limit / size) if size > 0 else E
    return norms, y, np.diag(norms**2) + E


@st.composite
def network_states(draw, B: int, p: int, d: int):
    """``(W (B, p, d), a (B, p))`` with |a_j| >= ||w_j|| at a random scale 10^k, k in [-1, 1]."""
    seed = draw(st.integers(0, 2**32 - 1))
    scale = 10.0 ** draw(_floats(-1.0, 1.0))
    rng = np.random.default_rng(seed)
    W = rng.normal(size=(B, p, d)) * scale / np.sqrt(d)
    a = rng.choice([-1.0, 1.0], (B, p)) * (np.linalg.norm(W, axis=2) + rng.exponential(1.0, (B, p)))
    return W, a


@st.composite
def group_initializations(draw, p: int | None = None, k: int | None = None):
    """``(gammas (p, k) > 0, labels (p k,))``, each group's labels of one sign (p, k drawn if None)."""
    p = draw(st.integers(1, 3)) if p is None else p
    k = draw(st.integers(1, 4)) if k is None else k
    gammas = draw(hnp.arrays(np.float64, (p, k), elements=_floats(0.1, 1.0)))
    mags = draw(hnp.arrays(np.float64, (p, k), elements=_floats(1.0, 2.0)))
    signs = draw(hnp.arrays(np.float64, (p, 1), elements=st.sampled_from([-1.0, 1.0])))
    return gammas, (signs * mags).reshape(-1)
