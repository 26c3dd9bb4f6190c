"""numeric.engine.ensemble.Members: the active members of a batched loop, the results of the stopped."""

from __future__ import annotations

import numpy as np

from numeric.backend import to_numpy
from numeric.engine.ensemble import Members
from numeric.engine.trajectory import Status


def test_stopped_members_are_recorded_at_their_global_rows_and_dropped(backend):
    """Two rounds of stop/keep: results land at the global rows, ``args`` follow the active members
    (shared entries pass through), the returned device index compacts the loop's own arrays."""
    y0 = backend.asarray(np.arange(10.0).reshape(5, 2))
    args = {"per": backend.asarray(np.arange(5.0)[:, None]), "shared": backend.asarray(np.ones((1, 3)))}
    m = Members(y0, 0.5, args)
    assert m.full and m.n_stopped == 0
    y = y0 + 100.0
    gids = m.stop(np.array([1, 3]), Status.NONFINITE, [7, 8], 9, [1.5, 2.5], y[backend.xp.asarray([1, 3])])
    assert gids.tolist() == [1, 3]
    keep_d = m.keep(np.array([0, 2, 4]))
    y = y[keep_d]
    assert not m.full and m.n_stopped == 2 and m.ids.tolist() == [0, 2, 4]
    np.testing.assert_array_equal(to_numpy(m.args["per"])[:, 0], [0.0, 2.0, 4.0])
    assert m.args["shared"] is args["shared"]
    m.stop(np.array([2]), Status.SUCCESS, 4, 5, 3.0, y[backend.xp.asarray([2])], n_rejected=6)
    m.keep(np.array([0, 1]))
    assert m.ids.tolist() == [0, 2]
    np.testing.assert_array_equal(m.status, [0, Status.NONFINITE, 0, Status.NONFINITE, Status.SUCCESS])
    np.testing.assert_array_equal(m.n_steps, [0, 7, 0, 8, 4])
    np.testing.assert_array_equal(m.n_rejected, [0, 0, 0, 0, 6])
    np.testing.assert_array_equal(m.n_field_evals, [0, 9, 0, 9, 5])
    np.testing.assert_array_equal(m.t_stop, [0.5, 1.5, 0.5, 2.5, 3.0])
    expected = np.arange(10.0).reshape(5, 2)
    expected[[1, 3, 4]] += 100.0  # the stopped members' states; the active ones keep y0 until they stop
    np.testing.assert_array_equal(to_numpy(m.y_stop), expected)
