"""The active-pair GD on orthogonal inputs equals the dense decoupled ShallowReLU GD (padded sizes)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric.backend import get_backend
from numeric.orthogonal_pairs import ActivePairs
from numeric.shallow_relu import ShallowReLU

BE = get_backend("numpy")


def _padded(seed: int, B: int, pmax: int, nmax: int):
    """Random padded members: own (p_b, n_b), V ~ N(0, 1), |a| ~ U[0.5, 1.5], App.-B norms and labels."""
    rng = np.random.default_rng(seed)
    sizes = np.stack([rng.integers(1, pmax + 1, B), rng.integers(1, nmax + 1, B)], axis=1)
    V, a = np.zeros((B, pmax, nmax)), np.zeros((B, pmax))
    c, y = np.zeros((B, nmax)), np.zeros((B, nmax))
    for b, (p, n) in enumerate(sizes):
        V[b, :p, :n] = rng.normal(size=(p, n))
        a[b, :p] = rng.choice([-1.0, 1.0], p) * rng.uniform(0.5, 1.5, p)
        c[b, :n] = rng.uniform(1, 2, n)
        y[b, :n] = rng.choice([-1.0, 1.0], n) * rng.uniform(1, 2, n)
    return V, a, c, y, sizes.astype(float)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lr=st.sampled_from([0.03, 0.1, 0.3]), steps=st.integers(1, 60))
def test_active_pairs_equal_dense_gd(seed, lr, steps):
    """Same GD map: states, loss, curvature (5) and active masses agree to rounding after ``steps``
    (1e-10 relative to the state's size; steps <= 0.3 keep the map stable: rounding is not amplified)."""
    V, a, c, y, sizes = _padded(seed, B=3, pmax=5, nmax=7)
    model = ShallowReLU(5, 7, "orthogonal")
    args = model.args(BE, y, c=c, sizes=sizes)
    state = model.pack(V, a)
    ap = ActivePairs.from_dense(V, a, c, y, sizes)
    for _ in range(steps):
        r_dense = model.residual(state, args)
        tol = 1e-10 * max(1.0, float(np.abs(state).max()))
        np.testing.assert_allclose(ap.step(lr), r_dense, rtol=0, atol=tol)
        state = state + lr * model(None, state, args)
    Vd, ad = model.unpack(state)
    tol = 1e-10 * max(1.0, float(np.abs(state).max()))
    np.testing.assert_allclose(ap.dense(), np.maximum(Vd, 0.0), rtol=0, atol=tol)
    np.testing.assert_allclose(ap.a, ad.reshape(-1), rtol=0, atol=tol)
    r = ap.residual()
    np.testing.assert_allclose(ap.loss(r), model.loss(state, args), rtol=1e-8, atol=1e-14)
    with np.errstate(
        invalid="ignore", divide="ignore"
    ):  # (5) is 0/0 at an exactly fitted member: NaN in both
        np.testing.assert_allclose(ap.curvature(r), model.curvature(state, args), rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(ap.active_mass(), model.active_mass(state, args), rtol=1e-9, atol=1e-14)


def test_dead_pairs_are_dropped_and_stay_dead():
    """A pair pushed to v <= 0 leaves the list; members can be dropped without touching the others."""
    V = np.array([[[0.5, 1.0]]])
    a = np.array([[1.0]])
    c, y = np.ones((1, 2)), np.array([[-3.0, 1.0]])
    ap = ActivePairs.from_dense(V, a, c, y, np.array([[1.0, 2.0]]))
    ap.step(1.0)  # v_11 = 0.5 + (1/2)(1)(-3 - 0.5) < 0
    assert len(ap.val) == 1 and ap.col.tolist() == [1]
    ap.drop_members(np.array([True]))
    assert len(ap.val) == 0
