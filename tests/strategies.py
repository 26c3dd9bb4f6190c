r"""Hypothesis strategies for bias-free (leaky) ReLU networks and their data.

Import them from any test module (``tests/`` is on ``sys.path``, see ``conftest.py``)::

    from hypothesis import given
    from strategies import alphas, symmetric_datasets, weights

    @given(ds=symmetric_datasets(P=6, D=3), Ws=weights([(4, 3), (1, 4)]), alpha=alphas())
    def test_something(ds, Ws, alpha): ...

Conventions (those of :mod:`numeric.models.networks`): weights carry a leading ensemble axis
``B`` (``W_l`` is ``(B, N_l, N_{l-1})``), data are host NumPy arrays ``X`` (P, D) and
``y`` (P,).  Sizes are small on purpose: properties are checked on many tiny examples,
not on a few large ones.  Every size argument is an ``int`` or a strategy of ints.

* :func:`alphas` -- the leaky-ReLU slope :math:`\alpha\in[0,1]`, endpoints 0 and 1 included.
* :func:`bounded_floats` -- finite floats of bounded magnitude (no NaN/inf/subnormals).
* :func:`data_matrices` -- an arbitrary ``(P, D)`` input matrix.
* :func:`symmetric_datasets` -- zhang2025 Condition 3 exactly: :math:`X=[X_0;-X_0]`,
  :math:`y=[y_0;-y_0]` (odd labels), returned as a :class:`numeric.data.datasets.Dataset`.
* :func:`weights` -- a list of weight matrices of the given shapes, each layer at its own
  scale :math:`10^k`, :math:`k\in[-3, 3]` ("any scale").
* :func:`balanced_rank_one_weights` -- zhang2025 Assumption 7: :math:`W_1=W_2^\top r^\top`,
  :math:`\|r\|=1`, :math:`\|W_2^+\|=\|W_2^-\|`; built here independently of
  :mod:`numeric.data.initializations` so that module can be tested against it.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from numeric.data.datasets import Dataset, symmetrize

IntOrStrategy = int | st.SearchStrategy


def _ints(v: IntOrStrategy) -> st.SearchStrategy:
    return v if isinstance(v, st.SearchStrategy) else st.just(int(v))


def bounded_floats(max_abs: float = 10.0) -> st.SearchStrategy[float]:
    """Finite floats in ``[-max_abs, max_abs]`` (no NaN, inf or subnormals)."""
    return st.floats(-max_abs, max_abs, allow_nan=False, allow_infinity=False, allow_subnormal=False)


def alphas() -> st.SearchStrategy[float]:
    r""":math:`\alpha\in[0,1]`; the endpoints (ReLU, linear) are drawn often."""
    return st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0.0, 1.0, allow_subnormal=False))


def scales(min_exp: float = -3.0, max_exp: float = 3.0) -> st.SearchStrategy[float]:
    r"""Scale factors :math:`10^k`, :math:`k` uniform in ``[min_exp, max_exp]``."""
    return st.floats(min_exp, max_exp).map(lambda k: float(10.0**k))


def float_arrays(shape: tuple[int, ...], max_abs: float = 10.0) -> st.SearchStrategy[np.ndarray]:
    """float64 arrays of ``shape`` with entries from :func:`bounded_floats`."""
    return hnp.arrays(np.float64, shape, elements=bounded_floats(max_abs))


@st.composite
def data_matrices(draw, P: IntOrStrategy, D: IntOrStrategy, max_abs: float = 10.0) -> np.ndarray:
    """An arbitrary input matrix ``X`` of shape ``(P, D)``."""
    return draw(float_arrays((draw(_ints(P)), draw(_ints(D))), max_abs))


@st.composite
def symmetric_datasets(draw, P: IntOrStrategy, D: IntOrStrategy, max_abs: float = 10.0) -> Dataset:
    """A dataset satisfying Condition 3 bit for bit: ``X = [X0; -X0]``, ``y = [y0; -y0]``.

    ``P`` is the total number of points and must be even (``P/2`` pairs).  The rows are
    shuffled so tests cannot rely on the two halves being stacked.
    """
    P, D = draw(_ints(P)), draw(_ints(D))
    if P % 2:
        raise ValueError(f"a symmetric dataset has an even number of points, got P={P}")
    X0 = draw(float_arrays((P // 2, D), max_abs))
    y0 = draw(float_arrays((P // 2,), max_abs))
    ds = symmetrize(X0, y0)
    perm = np.asarray(draw(st.permutations(range(P))), dtype=int)
    return Dataset(ds.X[perm], ds.y[perm], ds.name)


@st.composite
def weights(
    draw,
    shapes: list[tuple[int, int]],
    B: IntOrStrategy = 1,
    min_exp: float = -3.0,
    max_exp: float = 3.0,
) -> list[np.ndarray]:
    r"""Weights ``W_l`` of shape ``(B, r, c)`` for ``(r, c)`` in ``shapes``.

    Entries are uniform-ish in ``[-1, 1]`` (zeros allowed) times a per-layer scale
    :math:`10^k`, :math:`k\in[\text{min\_exp}, \text{max\_exp}]`.
    """
    B = draw(_ints(B))
    out = []
    for r, c in shapes:
        W = draw(float_arrays((B, r, c), 1.0))
        out.append(W * draw(scales(min_exp, max_exp)))
    return out


@st.composite
def unit_vectors(draw, D: IntOrStrategy) -> np.ndarray:
    """A unit vector of ``R^D`` (drawn from a cube, normalised; never the zero vector)."""
    D = draw(_ints(D))
    v = draw(float_arrays((D,), 1.0).filter(lambda v: np.linalg.norm(v) > 0.1))
    return v / np.linalg.norm(v)


@st.composite
def balanced_rank_one_weights(
    draw, H: IntOrStrategy, D: IntOrStrategy, B: IntOrStrategy = 1
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""``(W1, W2, r)`` on the Assumption-7 manifold: ``W1`` (B, H, D), ``W2`` (B, 1, H), ``r`` (B, D).

    :math:`W_2 = c\,g^\top` with at least one positive and one negative entry, the
    positive entries rescaled so :math:`\|g^+\| = \|g^-\|` (up to one rounding), any
    overall scale :math:`c`; :math:`W_1 = W_2^\top r^\top` with :math:`\|r\| = 1`.
    """
    H, D, B = draw(_ints(H)), draw(_ints(D)), draw(_ints(B))
    if H < 2:
        raise ValueError("a balanced rank-one init needs H >= 2")
    W1s, W2s, rs = [], [], []
    for _ in range(B):
        n_pos = draw(st.integers(1, H - 1))
        mags = st.floats(0.1, 10.0)
        pos = np.array(draw(st.lists(mags, min_size=n_pos, max_size=n_pos)))
        neg = -np.array(draw(st.lists(mags, min_size=H - n_pos, max_size=H - n_pos)))
        pos *= np.linalg.norm(neg) / np.linalg.norm(pos)
        g = np.concatenate([pos, neg])[np.asarray(draw(st.permutations(range(H))), dtype=int)]
        g *= draw(scales())
        r = draw(unit_vectors(D))
        W2s.append(g[None, :])
        W1s.append(g[:, None] * r[None, :])
        rs.append(r)
    return np.stack(W1s), np.stack(W2s), np.stack(rs)
