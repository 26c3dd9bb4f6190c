r"""dana2025 App. C.2 instances: orthogonal data on which a neuron *arrives* at the kink, for the search of
the statement "the trajectory that never reactivates (:math:`\sigma'(0)=0`) is the small-step limit of GD".

The statement is for all orthogonal data and every initialization that brings a pre-activation to 0 with
:math:`a_jr_i>0` afterwards (C.2's hypothesis). An instance (:func:`instance`, :math:`\theta\in\mathbb R^8`)
is two orthogonal inputs :math:`x_i=c_ie_i` and two neurons, squashed around the claim's own arrival example:
neuron 0 (:math:`a_0`, :math:`\langle w_0|x_0\rangle=v_{00}>0` small, :math:`\langle w_0|x_1\rangle=v_{01}`)
overshoots example 0 next to a large neuron 1 (:math:`a_1`, :math:`v_1`), so the :math:`\sigma'(0)=0` flow
drives :math:`v_{00}` to 0 and, once neuron 1 has shrunk, :math:`r_0` changes sign
(:math:`a_0r_0>0`). :func:`gd_limit` reads the hypothesis on the flow; an instance where it fails is outside
the statement and scores 0 (the claim counts them in a note).

**Violation ratio.** GD (with the convention :math:`\sigma'(0)=1`, the one that would revive an exact zero)
at steps :math:`\eta` and :math:`\eta/8`; :math:`e(\eta)=\max_t|\mathrm{GD}_\eta(t)-\theta_{\sigma'(0)=0}(t)|`
over the records. The ratio is :math:`\frac{e(\eta/8)}{e(\eta)}\big/8^{-1/2}`: at most 1 iff the error
shrinks at least like :math:`\eta^{1/2}`, the geometric midpoint between order 1 (forward Euler converging to
the no-revival flow, ratio :math:`8^{-1/2}\approx0.35`) and order 0 (GD converging to any other trajectory,
e.g. a revival one, whose distance :math:`e` keeps: ratio :math:`8^{1/2}\approx2.8`). So the ratio decides
*which* trajectory GD converges to whatever the separation of the candidates (the separation from the
immediate-revival trajectory is reported, not divided by). Measured on the family starts: 0.14 (apparent
order 1.4 between these steps: the larger one still carries the second-order term).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from numeric.backend import Backend, to_numpy
from numeric.engine.descent import gradient_descent
from numeric.models.shallow_relu import ShallowReLU
from verify.papers.dana2025.common import solve_flow

T_SEARCH = 2.0  # horizon, as the claim's own GD-limit run
LR = 2e-2  # the larger step; the smaller is LR / 8
RECORDS = np.linspace(0.0, T_SEARCH, 41)  # multiples of 0.05 = 20 small steps: on both step grids


@dataclass(frozen=True)
class Kink:
    """One instance's outcome: the ``ratio``, whether it is ``inside`` C.2's hypothesis, the arrival time
    ``t1``, :math:`\\min a_0r_1` on :math:`[t_1,T]` and the distance of the immediate-revival trajectory."""

    ratio: float
    inside: bool
    t1: float = np.nan
    ar_min: float = np.nan
    separation: float = np.nan
    branch_min: float = np.nan  # min over records after t1 of the revival branch's pre-activation


def instance(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(norms c (2,), labels y (2,), pre-activations V (1, 2, 2), a (1, 2)) of ``theta`` (module doc)."""
    t = np.tanh(np.asarray(theta, float))
    c = np.exp(0.5 * t[:2])
    y = np.array([np.exp(0.3 * t[2]), 1.0])
    a = np.array([[np.exp(0.5 * t[3]), 2.2 * np.exp(0.2 * t[5])]])
    V = np.array([[[1e-3 * np.exp(2 * t[4]), 0.5 * t[7]], [1.0, 3.0]]])
    V[0, 1] *= np.exp(0.3 * t[6])
    return c, y, V, a


def gd_limit(
    be: Backend, theta: np.ndarray, *, project: Callable | None = None, separation: bool = False
) -> Kink:
    """The violation ratio of the instance ``theta`` (module docstring); ``project`` is applied after every GD
    step (``None``: plain GD); ``separation``: also solve the immediate-revival trajectory (its distance and
    its smallest pre-activation after :math:`t_1`)."""
    c, y, V, a = instance(theta)
    flows = {k: ShallowReLU(2, 2, "orthogonal", kink=k) for k in (0.0, 1.0)}
    args = {k: m.args(be, c, y, wperp2=np.zeros((1, 2))) for k, m in flows.items()}
    y0 = be.asarray(flows[0.0].pack((V, a)))
    flow = solve_flow(flows[0.0], y0, args[0.0], RECORDS, rtol=1e-11)[0]
    v00, aa = flow[:, 0], flow[:, 4:]
    r0 = y[0] - (aa[:, 0] * np.maximum(v00, 0) + aa[:, 1] * np.maximum(flow[:, 2], 0)) / 2
    dead = v00 <= 0
    k = int(np.argmax(dead & (aa[:, 0] * r0 > 0)))
    ar = aa[k:, 0] * r0[k:]
    if not (dead[k] and np.all(dead[k:]) and np.all(ar > 0)):
        return Kink(0.0, False)
    sep = branch_min = np.nan
    if separation:
        start = flow[k].copy()
        start[0] = 0.0
        revived = solve_flow(flows[1.0], be.asarray(start[None]), args[1.0], RECORDS[k:], rtol=1e-11)[0]
        sep = float(np.abs(revived - flow[k:]).max())
        branch_min = float(revived[1:, 0].min())
    err = []
    for lr in (LR, LR / 8):
        steps = round(T_SEARCH / lr)
        rec = np.round(RECORDS / lr).astype(int)
        tr = gradient_descent(flows[1.0], y0, lr=lr, steps=steps, record=rec, args=args[1.0], project=project)
        err.append(float(np.abs(to_numpy(tr.ys)[0] - flow).max()))
    return Kink(err[1] / err[0] * np.sqrt(8), True, float(RECORDS[k]), float(ar.min()), sep, branch_min)


def starts() -> dict[str, list[np.ndarray]]:
    """Five families: the claim's own arrival example, a fast example 0 with a slow kink neuron, a late
    arrival, a barely positive a_0 r_0, and a kink neuron that stays active on example 1 (its a_0 keeps
    changing)."""
    base = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -3.0])
    return {
        "the claim's arrival example (v_01 < 0: neuron 0 dead on example 1)": [base],
        "large ||x_0||, slow kink neuron (small a_0)": [base + np.array([1.5, 0, 0, -1.5, 0, 0, 0, 0])],
        "late arrival (larger v_00, larger neuron 1)": [base + np.array([0, 0, 0, 0, 1.0, 0, 0.5, 0])],
        "small label on the kink example (a_0 r_0 > 0 only just)": [
            base + np.array([0, 0, -1.0, 0, 0, 0, 0, 0])
        ],
        "kink neuron active on example 1 (v_01 > 0)": [base + np.array([0, 0, 0, 0, 0, 0, 0, 5.0])],
    }
