"""Events corrected in place: a step proposed just past the predicted crossing keeps its state,
corrected on the new piece under an error estimate, or is re-taken when the estimate fails."""

from __future__ import annotations

import numpy as np

from numeric.engine.integrators import DOPRI5, AdaptiveStep
from numeric.engine.integrators.events import EventTracker, Switching

SW = Switching(values=lambda y, args: y[:, :1], slopes=lambda g, args: np.where(g > 0, 1.0, 0.0))


def _field(t, y, args):
    """``y' = -1`` above ``y = 0``, ``-2 - K t`` below (the pattern's piece; ``K`` per member)."""
    p = args.get(SW.key, np.where(y > 0, 1.0, 0.0))
    return p * -1.0 + (1 - p) * (-2.0 - args["K"] * t[:, None])


def test_in_place_correction_error_is_estimated(monkeypatch):
    """From ``y0 = 1/2`` the flow crosses at ``t* = 1/2``; the first step (``dt0 = 1``) is cut to
    end 1% past the predicted crossing (exact here: constant speed), ``t_1 = 0.505``, so
    ``since = alpha = 0.005``. The in-place correction ``y_1 + alpha (f_new - f_old)(y*)`` is the
    left-point rule for ``int (-1 - K s) ds`` over [t*, t_1]: its error is exactly ``K alpha^2 / 2``,
    which is its estimate ``alpha/2 |f_new(y_c) - f_old(y_1) - J|``. Every other step integrates a
    field linear in t, exactly. So: K = 0, exact; K = 1e-3, error 1.25e-8 <= the tolerance at the
    event (atol + rtol |y| = 1e-8 + 1e-6 * 0.01), kept; K = 1e3, estimate 1.25e-2, re-taken to the
    located event (exact: the crossing is a root of a linear interpolant), exact to rounding."""
    from numeric.engine.solve import solve

    K = np.array([[0.0], [1e-3], [1e3]])
    retaken = []
    cut = EventTracker._cut

    def spy(self, F, *a, **k):
        retaken.extend(F.tolist())
        return cut(self, F, *a, **k)

    monkeypatch.setattr(EventTracker, "_cut", spy)
    y0 = np.full((3, 1), 0.5)
    ctl = AdaptiveStep(rtol=1e-6, atol=1e-8, dt0=1.0)
    tr = solve(_field, y0, [0.0, 2.0], method=DOPRI5, control=ctl, args={"K": K}, events=SW)
    assert tr.ok.all() and tr.n_events.tolist() == [1, 1, 1]
    assert sorted(set(retaken)) == [2]
    exact = -2.0 * 1.5 - K[:, 0] * (4.0 - 0.25) / 2
    err = tr.final[:, 0] - exact
    assert abs(err[0]) <= 16 * np.finfo(float).eps * 4
    np.testing.assert_allclose(err[1], 1e-3 * 0.005**2 / 2, rtol=1e-6)
    assert abs(err[2]) <= 16 * np.finfo(float).eps * abs(exact[2])
