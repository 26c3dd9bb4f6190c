r"""Hypothesis strategies for nearly orthogonal data (kou2023) with a prescribed :math:`\kappa`.

:func:`nearly_orthogonal_grams` draws a :class:`numeric.data.near_orthogonal.GramData` whose
:math:`\kappa=np/R_{\min}^2` is *exactly* the requested value: norms :math:`s_i\in[1,R]` (the
smallest pinned to 1), off-diagonal entries :math:`pS_{ik}` with :math:`|S_{ik}|\le1` and one entry
equal to :math:`\pm1`, and :math:`p=\kappa/n`.  For :math:`\kappa<1` Gershgorin gives
:math:`\lambda_{\min}(G)\ge1-(n-1)p>0`, so the inputs are linearly independent.

* :func:`leaky_slopes` -- :math:`\gamma\in(0,1]` (0.5 and 1 drawn often);
* :func:`kappas` -- :math:`\kappa\in[0,0.9]` (0 drawn often: exactly orthogonal data);
* :func:`nearly_orthogonal_grams` -- labels alternate unless ``labels`` is given.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from numeric.data.near_orthogonal import GramData, alternating_labels


def leaky_slopes() -> st.SearchStrategy[float]:
    return st.one_of(st.sampled_from([0.5, 1.0]), st.floats(0.01, 1.0))


def kappas(max_kappa: float = 0.9) -> st.SearchStrategy[float]:
    return st.one_of(st.just(0.0), st.floats(0.0, max_kappa))


@st.composite
def nearly_orthogonal_grams(draw, n: int, kappa: float | st.SearchStrategy, R: float = 1.3, d: int = 1000):
    """A :class:`GramData` of ``n`` points with exactly the given ``kappa`` (< 1) and norm ratio <= ``R``."""
    k = draw(kappa) if isinstance(kappa, st.SearchStrategy) else float(kappa)
    if not 0.0 <= k < 1.0:
        raise ValueError(f"kappa must lie in [0, 1), got {k}")
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    s = rng.uniform(1.0, R, n)
    s[rng.integers(n)] = 1.0
    S = rng.uniform(-1.0, 1.0, (n, n))
    S = np.triu(S, 1)
    if n > 1:
        i, j = np.triu_indices(n, 1)
        pick = rng.integers(i.size)
        S[i[pick], j[pick]] = rng.choice([-1.0, 1.0])
    S = S + S.T
    G = np.diag(s**2) + (k / n) * S
    return GramData(G, alternating_labels(n), d, f"strategy, kappa={k:.3g}")
