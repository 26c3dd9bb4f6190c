"""Every model in ``numeric/models`` implements :class:`numeric.models.protocol.Model`.

Conformance on a tiny instance of each: the protocol's methods exist (``isinstance``), ``pack``
inverts ``unpack`` bit for bit and ``unpack`` returns views, ``args`` is built from
``(backend, X, y, **hyper)`` with the member axis (size B or 1) on every entry, the observer
records the loss, and the field is the gradient flow
of the loss: :math:`F=-c\\nabla\\mathcal L` by central differences in raw coordinates, and in
reduced / log-polar coordinates :math:`d\\mathcal L/dt` along :math:`F` equals
:math:`-c\\|\\nabla_W\\mathcal L\\|^2` of the same network in raw coordinates.

Tolerance of the central differences (step ``h``): truncation :math:`h^2|\\mathcal L'''|/6` plus
rounding :math:`\\epsilon|\\mathcal L|/h`; with ``h = 1e-6``, :math:`\\epsilon = 2.2\\cdot10^{-16}` and
:math:`\\mathcal L, \\mathcal L''' = O(1..10)` on these instances (unit-scale data and weights) the
error is below :math:`2\\cdot10^{-11} + 2\\cdot10^{-9}`; ``TOL = 1e-7`` relative to the largest
component leaves a factor ~50 for the instance constants and fails on any wrong factor or sign.
The states are generic Gaussian draws, so no pre-activation lies within ``h`` of a kink.
"""

from __future__ import annotations

import numpy as np
import pytest

from numeric.backend import get_backend
from numeric.engine.ensemble import check_args
from numeric.models.balanced_relu import LogPolarFlow, PlainFlow, logpolar_state, logpolar_to_plain
from numeric.models.fixed_readout import FixedReadoutNet
from numeric.models.homogeneous_nets import HomogeneousNet, output
from numeric.models.leaky_balanced import LeakyLogPolarFlow
from numeric.models.losses import Loss
from numeric.models.networks import BiasFreeNet
from numeric.models.protocol import Model, pack_blocks, unpack_blocks
from numeric.models.shallow_relu import ShallowReLU, gram_state
from numeric.models.vector_fields import GradientFlow

BE = get_backend("numpy")
H, TOL = 1e-6, 1e-7
B, N, D, WIDTH = 2, 5, 3, 4


def _data(seed: int = 0):
    rng = np.random.default_rng(seed)
    return rng, rng.normal(size=(N, D)), np.sign(rng.normal(size=N))


def _gradient_flow():
    rng, X, y = _data()
    net = BiasFreeNet((D, WIDTH, 1), kink=0.0)
    model = GradientFlow(net, Loss("logistic", "mean"))
    Ws = [rng.normal(size=(B, WIDTH, D)), rng.normal(size=(B, 1, WIDTH))]
    return model, model.pack(Ws), model.args(BE, X, y, alpha=0.2)


def _shallow():
    rng, X, y = _data(1)
    model = ShallowReLU(WIDTH, D, "full")
    state = model.pack((rng.normal(size=(B, WIDTH, D)), rng.normal(size=(B, WIDTH))))
    return model, state, model.args(BE, X, y)


def _plain():
    rng, X, y = _data(2)
    model = PlainFlow("logistic2")
    s = np.sign(rng.normal(size=WIDTH))
    return (
        model,
        model.pack((rng.normal(size=(B, WIDTH, D)), rng.normal(size=(B, WIDTH)))),
        model.args(BE, X, y, s=s),
    )


def _fixed_readout():
    rng, X, y = _data(3)
    model = FixedReadoutNet(m=2, d=D)
    return model, model.pack((rng.normal(size=(B, 4, D)),)), model.args(BE, X, y, gamma=0.3)


def _homogeneous():
    rng, X, y = _data(6)
    model = HomogeneousNet(((WIDTH, D), (1, WIDTH)), alpha=0.2, p=2)
    state = model.pack((rng.normal(size=(B, WIDTH, D)), rng.normal(size=(B, 1, WIDTH))))
    return model, state, model.args(BE, X, y)


# (name, builder, c): F = -c grad L in the raw coordinates of these models
RAW = [
    ("HomogeneousNet", _homogeneous, 1.0),
    ("GradientFlow", _gradient_flow, 1.0),
    ("ShallowReLU full", _shallow, WIDTH),  # dana2025 eq. (3): the p-accelerated flow
    ("PlainFlow", _plain, 1.0),
    ("FixedReadoutNet", _fixed_readout, 1.0),
]


def _logpolar(cls, **kw):
    def build():
        rng, X, y = _data(4)
        s = np.sign(rng.normal(size=WIDTH))
        W = rng.normal(size=(B, WIDTH, D))
        model = cls("logistic", **kw)
        args = model.args(BE, X, y, s=s)
        state = logpolar_state(W)
        Wp, v = logpolar_to_plain(state, args["s"])
        alpha = kw.get("alpha", 0.0)
        raw = GradientFlow(BiasFreeNet((D, WIDTH, 1), kink=alpha), Loss("logistic", "sum"))
        return model, state, args, raw, raw.pack([Wp, v[:, None, :]]), raw.args(BE, X, y, alpha=alpha)

    return build


def _shallow_reduced(mode: str):
    def build():
        rng, X, y = _data(5)
        if mode == "orthogonal":
            X = np.diag(rng.uniform(0.5, 2.0, size=N))  # x_i = c_i e_i (d = n)
        full = ShallowReLU(WIDTH, X.shape[1], "full")
        W, a = rng.normal(size=(B, WIDTH, X.shape[1])), rng.normal(size=(B, WIDTH))
        V, a, wperp2 = gram_state(W, a, X)
        model = ShallowReLU(WIDTH, N, mode)
        inputs = X @ X.T if mode == "gram" else np.diag(X)
        args = model.args(BE, inputs, y, wperp2=wperp2)
        return model, model.pack((V, a)), args, full, full.pack((W, a)), full.args(BE, X, y)

    return build


# (name, builder, c): reduced coordinates; the builder also gives the raw model and state
REDUCED = [
    ("LogPolarFlow", _logpolar(LogPolarFlow), 1.0),
    ("LeakyLogPolarFlow", _logpolar(LeakyLogPolarFlow, alpha=0.3), 1.0),
    ("ShallowReLU gram", _shallow_reduced("gram"), WIDTH),
    ("ShallowReLU orthogonal", _shallow_reduced("orthogonal"), WIDTH),
]

ALL = [(name, lambda b=b: b()[:3]) for name, b, _ in RAW + REDUCED]


def _central(fun, y: np.ndarray) -> np.ndarray:
    """Central differences of the per-member function ``fun`` ``(B, N) -> (B,)``, (B, N)."""
    g = np.empty_like(y)
    for k in range(y.shape[1]):
        e = np.zeros_like(y)
        e[:, k] = H
        g[:, k] = (fun(y + e) - fun(y - e)) / (2 * H)
    return g


def _grad(model: Model, y: np.ndarray, args: dict) -> np.ndarray:
    """Central differences of the loss, (B, N)."""
    return _central(lambda v: model.loss_value(v, args), y)


def _close(got: np.ndarray, want: np.ndarray) -> None:
    assert np.all(np.isfinite(got)) and np.all(np.isfinite(want))
    err = np.abs(got - want).max() / np.abs(want).max()
    assert err <= TOL, f"relative error {err:.2e} > {TOL:g}"


@pytest.mark.parametrize("name, build", ALL, ids=[n for n, _ in ALL])
def test_protocol_pieces(name, build):
    model, y, args = build()
    assert isinstance(model, Model)
    assert check_args(args, y.shape[0]) == args  # every entry has the member axis (size B or 1)
    blocks = model.unpack(y, args)
    assert isinstance(blocks, tuple) and all(b.shape[0] == y.shape[0] for b in blocks)
    assert all(np.shares_memory(b, y) for b in blocks)
    np.testing.assert_array_equal(model.pack(blocks), y)
    loss = model.loss_value(y, args)
    assert loss.shape == (y.shape[0],) and np.all(np.isfinite(loss))
    np.testing.assert_array_equal(model.observer()(0.0, y, args)["loss"], loss)
    assert model(0.0, y, args).shape == y.shape


@pytest.mark.parametrize("name, build, c", RAW, ids=[n for n, _, _ in RAW])
def test_field_is_minus_the_loss_gradient(name, build, c):
    model, y, args = build()
    _close(model(0.0, y, args), -c * _grad(model, y, args))


@pytest.mark.parametrize("name, build, c", REDUCED, ids=[n for n, _, _ in REDUCED])
def test_reduced_field_dissipates_the_loss_as_the_raw_flow(name, build, c):
    model, y, args, raw, y_raw, args_raw = build()
    np.testing.assert_allclose(model.loss_value(y, args), raw.loss_value(y_raw, args_raw), rtol=1e-12)
    F = model(0.0, y, args)
    rate = (model.loss_value(y + H * F, args) - model.loss_value(y - H * F, args)) / (2 * H)
    g = _grad(raw, y_raw, args_raw)
    _close(rate, -c * (g * g).sum(axis=1))


def test_a_wrong_field_fails_the_conformance_check():
    """The check is not vacuous: the field with the leak ignored (a ReLU's field for a leaky model)."""
    model, y, args = _gradient_flow()
    relu_args = {**args, "alpha": np.zeros_like(args["alpha"])}
    with pytest.raises(AssertionError):
        _close(model(0.0, y, relu_args), -_grad(model, y, args))


def test_blocks_layout():
    a, b = np.arange(12.0).reshape(2, 2, 3), np.arange(4.0).reshape(2, 2)
    y = pack_blocks((a, b))
    np.testing.assert_array_equal(y[0], [0, 1, 2, 3, 4, 5, 0, 1])
    a2, b2 = unpack_blocks(y, ((2, 3), (2,)))
    np.testing.assert_array_equal(a2, a)
    np.testing.assert_array_equal(b2, b)
    with pytest.raises(ValueError, match="hold 7 parameters, the state has 8"):
        unpack_blocks(y, ((2, 3), (1,)))


def test_homogeneous_ncf_is_z_dot_the_output_with_its_gradient():
    r""":meth:`HomogeneousNet.ncf_and_grad`: :math:`\mathcal N=z^\top\mathcal H(X;W)` exactly (the same
    forward pass as the loss) and its flat gradient by central differences (tolerance as above)."""
    model, y, args = _homogeneous()
    z = np.random.default_rng(7).normal(size=N)
    data = model.args(BE, args["X"], z)
    value, grad = model.ncf_and_grad(y, data)
    np.testing.assert_array_equal(value, (z * output(model.unpack(y), args["X"], 0.2, 2)).sum(axis=-1))
    _close(grad, _central(lambda v: model.ncf_and_grad(v, data)[0], y))
