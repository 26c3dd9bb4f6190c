r"""Dense output: the continuous extension of an accepted Runge-Kutta step, batched per member.

For a step ``t_0 -> t_0 + h`` of a method with a :class:`~numeric.engine.integrators.tableau.DenseOutput`
the interpolant is a polynomial in ``theta = (t - t_0) / h``,

.. math::  u(\theta) = y_0 + \sum_{p=1}^{D} \theta^p\, Q_p,\qquad
           Q_p = h \sum_j W_{jp}\, k_j ,

with the monomial weights ``W`` of the tableau (:attr:`DenseOutput.weights`) over the
step's stages and, for some methods (DOP853), a few extra stages evaluated after the step.
:func:`dense_polynomial` forms ``Q`` (D, B, N) once per step (one matrix product over the
stage buffer); :func:`dense_eval` evaluates ``u`` at one ``theta`` per member by Horner's
rule. Every call is array-namespace code (NumPy or CuPy) with no host synchronisation.
"""

from __future__ import annotations

from collections.abc import Mapping

from numeric.backend import Array, array_namespace
from numeric.engine.integrators.methods import VectorField
from numeric.engine.integrators.tableau import ButcherTableau


def dense_polynomial(
    field: VectorField,
    tableau: ButcherTableau,
    t: Array,
    y: Array,
    dt: Array,
    K: Array,
    args: Mapping[str, Array],
) -> Array:
    """The coefficients ``Q`` (D, B, N) of the step's interpolant (see the module docstring).

    ``t``, ``y``, ``dt``: (B,), (B, N), (B,) start and length of the step; ``K`` its stage
    buffer from :func:`~numeric.engine.integrators.methods.rk_stages`; ``args`` those of the step.
    Evaluates the tableau's extra stages (``len(c_extra)`` field calls).
    """
    xp = array_namespace(y, K)
    dense = tableau.coefficients(xp, y.dtype).dense
    if dense is None:
        raise ValueError(f"method {tableau.name!r} has no dense output")
    s, B, N = K.shape
    n_x = len(dense.c_extra)
    h = dt[:, None].astype(y.dtype, copy=False)
    if n_x:
        ext = xp.empty((s + n_x, B, N), dtype=y.dtype)
        ext[:s] = K
        flat = ext.reshape(s + n_x, B * N)
        for e, (c, a) in enumerate(zip(dense.c_extra, dense.a_extra, strict=True)):
            point = (a @ flat[: s + e]).reshape(B, N)
            point *= h
            point += y
            ext[s + e] = field(t + c * dt, point, args)
    else:
        flat = K.reshape(s, B * N)
    Q = (dense.weights_t @ flat).reshape(dense.degree, B, N)
    Q *= h
    return Q


def dense_eval(y: Array, Q: Array, theta: Array) -> Array:
    """``u(theta)`` (B, N) for one ``theta`` (B,) per member (Horner's rule over ``Q``)."""
    th = theta[:, None].astype(y.dtype, copy=False)
    u = Q[-1] * th
    for p in range(Q.shape[0] - 2, -1, -1):
        u += Q[p]
        u *= th
    return u + y
