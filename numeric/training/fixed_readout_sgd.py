r"""Minibatch SGD of the fixed-readout net (kou2023 eq. (3.1)) with per-epoch records.

The kou2023 MNIST experiments (Figs. 2-5) train the Sec. 3 network with "SGD, batch size
64, learning rate 0.1, 10 epochs".  One SGD step on a batch :math:`\mathcal B` is the GD map
(3.2) of the batch loss :math:`L_{\mathcal B}=\frac1{|\mathcal B|}\sum_{i\in\mathcal B}\ell(y_if(W,x_i))`:

.. math::  w_{j,r}\leftarrow w_{j,r}+\frac{\eta}{|\mathcal B|\,m}\sum_{i\in\mathcal B}|\ell_i'|\,
           \sigma'(\langle w_{j,r},x_i\rangle)\,jy_ix_i ,

with the conventions of :mod:`numeric.models.fixed_readout` (:math:`\sigma'(0)=1`).  An epoch is one
pass over a fresh random permutation of the training set in consecutive batches (the last
one shorter when ``batch`` does not divide ``n``).  Every member of the ensemble axis ``B``
has its own initial weights, slope and permutations.

Recorded after every epoch (and at epoch 0), as in the paper's figures: the stable rank
:math:`\|W_j\|_F^2/\|W_j\|_2^2` of both class blocks and the test error (fraction of test
points with :math:`y f(W,x)\le0`, so a tie counts as an error).

Speed: every step multiplies small per-member matrices (``2m x d`` by ``d x batch``); BLAS threading
of such products costs more than it gains (measured 6-18x slower than one thread on a loaded
2-core machine), so the loop runs with one BLAS thread (``threadpoolctl``, a scikit-learn
dependency).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from threadpoolctl import threadpool_limits

from numeric.backend import Array, Backend, array_namespace, to_numpy
from numeric.data.datasets import Dataset
from numeric.engine.descent import gradient_descent
from numeric.engine.gd_map import at_step
from numeric.engine.trajectory import Status
from numeric.measures.metrics import stable_rank
from numeric.models.fixed_readout import FixedReadoutNet


@dataclass(frozen=True)
class SGDRecord:
    """Per-epoch records (host arrays): ``stable_rank`` ``(B, E+1, 2)`` (``j=+1`` first) and
    ``test_error`` ``(B, E+1)``; ``steps`` ``(E+1,)`` SGD steps taken by each record; ``weights`` the
    final first layers ``(B, 2m, d)``; ``status`` ``(B,)`` the engine's per-member status (``NONFINITE``:
    the member diverged, its weights are the last finite ones and its later records NaN)."""

    stable_rank: np.ndarray
    test_error: np.ndarray
    steps: np.ndarray
    weights: np.ndarray
    status: np.ndarray


def gaussian_weights(rng: np.random.Generator, m: int, d: int, sigma0) -> np.ndarray:
    r"""i.i.d. :math:`N(0,\sigma_0^2)` first layers ``(B, 2m, d)`` for scales ``sigma0`` ``(B,)``."""
    s = np.asarray(to_numpy(sigma0), float).reshape(-1, 1, 1)
    return s * rng.normal(size=(s.shape[0], 2 * m, d))


def minibatch_sgd(
    backend: Backend,
    W0: np.ndarray,
    train: Dataset,
    test: Dataset,
    *,
    gamma,
    lr: float,
    batch: int,
    epochs: int,
    rng: np.random.Generator,
) -> SGDRecord:
    """Run minibatch SGD from ``W0`` ``(B, 2m, d)``; ``gamma`` scalar or ``(B,)``.

    The steps of an epoch are the engine's map (:func:`numeric.engine.descent.gradient_descent`)
    with the field :class:`BatchField`: step ``k`` descends on batch ``k`` of each member's
    permutation (a shorter last batch is one more run of one step).  A member whose weights become
    non-finite gets the engine's status ``NONFINITE``: its weights stay at their last finite value,
    it takes no further step, and its records from the epoch it diverged in on are NaN.
    """
    if batch < 1 or epochs < 0:
        raise ValueError(f"need batch >= 1 and epochs >= 0, got {batch}, {epochs}")
    B, two_m, d = W0.shape
    m = two_m // 2
    net = FixedReadoutNet(m, d)
    xp = backend.xp
    g = np.broadcast_to(np.asarray(to_numpy(gamma), float), (B,))
    X, y = backend.asarray(train.X), backend.asarray(train.y)
    full_test = net.args(backend, test.X, test.y, gamma=g)
    state = net.pack((backend.asarray(W0),))
    status = np.full(B, Status.SUCCESS, dtype=np.int64)

    def measure() -> tuple:
        (W,) = net.unpack(state)
        sr = to_numpy(xp.stack([stable_rank(W[:, :m]), stable_rank(W[:, m:])], axis=-1))
        err = to_numpy((net.margins(state, full_test) <= 0).mean(axis=-1)).astype(float)
        dead = status != Status.SUCCESS
        sr[dead], err[dead] = np.nan, np.nan
        return sr, err

    n = train.P
    full = n // batch * batch  # points in the equal batches; the rest is the shorter last batch
    field = BatchField(net)
    with threadpool_limits(limits=1, user_api="blas"):
        records = [measure()]
        for _ in range(epochs):
            perm = xp.asarray(np.argsort(rng.random((B, n)), axis=1))
            live = np.flatnonzero(status == Status.SUCCESS)
            if live.size:
                live_d = xp.asarray(live)
                p, w, ok = perm[live_d], state[live_d], np.ones(live.size, dtype=bool)
                gam = g[live]
                for a, b, size in ((0, full, batch), (full, n, n - full)):  # equal batches, the rest
                    if b > a:
                        args = field.args(X, y, p[:, a:b], size, gamma=gam)
                        k = (b - a) // size
                        run = gradient_descent(
                            field, w, lr=lr, steps=k, record=[k], args=args, save_state=False
                        )
                        w, ok = run.y_stop, ok & run.ok
                state[live_d] = w
                status[live[~ok]] = Status.NONFINITE
            records.append(measure())
    sr, err = (np.stack(a, axis=1) for a in zip(*records, strict=True))
    steps = np.arange(epochs + 1) * -(-n // batch)
    return SGDRecord(sr, err, steps, to_numpy(net.unpack(state)[0]), status)


class BatchField:
    r"""The field of an epoch's minibatch steps: at step ``k``, :math:`-\nabla L_{\mathcal B_k}` of
    the fixed-readout net on batch ``k`` (:class:`numeric.models.fixed_readout.FixedReadoutNet`).

    ``args`` (:meth:`args`) hold the shared data and every member's batches as indices ``idx``
    ``(B, K, batch)``; each member's batch is gathered on the device from its step index
    (:func:`numeric.engine.gd_map.at_step`, no sync).
    """

    def __init__(self, net: FixedReadoutNet):
        self.net = net

    def args(self, X: Array, y: Array, order: Array, batch: int, *, gamma: np.ndarray) -> dict[str, Array]:
        """Data ``X`` ``(n, d)``, ``y`` ``(n,)`` and each member's order of the points ``(B, K batch)``,
        cut into ``K`` consecutive batches of ``batch``; slopes ``gamma`` ``(B,)``."""
        xp = array_namespace(X)
        B = order.shape[0]
        return {
            "X": X[None],
            "y": y[None],
            "idx": order.reshape(B, -1, batch),
            "gamma": xp.asarray(gamma).reshape(-1, 1, 1),
        }

    def __call__(self, t: Array, w: Array, args: dict[str, Array]) -> Array:
        xp = array_namespace(w)
        idx = at_step(args["idx"], t)
        X = args["X"][0][idx]
        batch = {"X": X, "XT": xp.ascontiguousarray(xp.swapaxes(X, 1, 2)), "y": args["y"][0][idx]}
        batch["gamma"] = args["gamma"]
        return self.net(t, w, batch)
