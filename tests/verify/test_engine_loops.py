"""Loops of the paper packages moved onto the engine's map (``gradient_descent``): the same iterates as
the loops they replaced, which are written out here as references (bit for bit where the operations
are the same, as noted)."""

from __future__ import annotations

import numpy as np

from verify.papers.kou2023.sequences import _random_sandwich


def test_kou2023_random_sandwich_is_the_old_loop_bit_for_bit():
    B, steps, x0_low = 6, 40, -3.0
    got = _random_sandwich(np.random.default_rng(7), B, steps, x0_low)
    rng = np.random.default_rng(7)  # the old loop, same draws in the same order
    C1 = 10 ** rng.uniform(-2, 0.5, B)
    C2 = C1 * 10 ** rng.uniform(0, 1, B)
    x = np.empty((B, steps + 1))
    x[:, 0] = rng.uniform(x0_low, 3.0, B)
    u = rng.uniform(size=(steps, B))
    for t in range(steps):
        x[:, t + 1] = x[:, t] + (C1 + u[t] * (C2 - C1)) * np.exp(-x[:, t])
    for a, b in zip(got, (x, C1, C2, x[:, 0]), strict=True):
        np.testing.assert_array_equal(a, b)


def test_kumar2025_gd_paths_is_the_old_loop_bit_for_bit():
    """``w + sign * eta * grad(w)`` (old) and ``w + eta * (sign * grad(w))`` (engine) round the same:
    ``sign`` is +-1, so both products are +-(eta g) exactly rounded."""
    from verify.papers.kumar2025.experiments import _gd_paths

    rng = np.random.default_rng(3)
    A = rng.normal(size=(5, 5))
    w0 = rng.normal(size=(4, 5))

    def grad(w):
        return np.tanh(w @ A) - 0.1 * w

    for sign in (-1.0, 1.0):
        out = [w0]
        for _ in range(30):
            out.append(out[-1] + sign * 0.05 * grad(out[-1]))
        np.testing.assert_array_equal(_gd_paths(grad, w0, 0.05, 30, sign), np.stack(out))


def test_kumar2025_gd_record_is_the_old_loop_bit_for_bit():
    from numeric.models.homogeneous_nets import loss_and_grad, pack
    from verify.papers.kumar2025.saddle_figures import _gd_record, _new_norms, _wn

    rng = np.random.default_rng(2)
    B, X = 3, rng.normal(size=(8, 3))
    y = np.maximum(X[:, 0], 0) ** 2 - X[:, 1] ** 2
    Ws = [
        0.5 * rng.normal(size=(B, 3, 3)),
        0.5 * rng.normal(size=(B, 2, 3)),
        0.5 * rng.normal(size=(B, 1, 2)),
    ]
    wn0 = _wn(Ws)

    def cosine(Vs):
        return np.linalg.norm(Vs[0].reshape(B, -1), axis=1)

    got, final = _gd_record(X, y, Ws, 0.002, 25, 7, cosine, wn0)
    rec = {k: [] for k in ("loss", "norms", "wz", "cos", "drift", "w")}
    V = Ws
    for step in range(26):  # the loop _gd_record ran before
        value, grads = loss_and_grad(V, X, y, 1.0, 2)
        if step % 7 == 0 or step == 25:
            norms = _new_norms(V)
            rec["loss"].append(value)
            rec["norms"].append(norms)
            rec["wz"].append(np.sqrt((norms**2).sum(axis=1) + (V[1][:, 1:, 1:] ** 2).sum(axis=(1, 2))))
            rec["cos"].append(cosine(V))
            rec["drift"].append(np.linalg.norm(_wn(V) - wn0, axis=1))
            rec["w"].append(pack(V))
        if step < 25:
            V = [W - 0.002 * g for W, g in zip(V, grads, strict=True)]
    assert got["step"].tolist() == [0, 7, 14, 21, 25] and np.isfinite(got["w"]).all()
    for k, v in rec.items():
        np.testing.assert_array_equal(got[k], np.swapaxes(np.asarray(v), 0, 1))
    for a, b in zip(final, V, strict=True):
        np.testing.assert_array_equal(a, b)
