"""The result of an ensemble solve: outputs, per-member status and statistics.

Shapes: ``B`` ensemble members, ``T`` output times, ``N`` state entries. Per-member
bookkeeping (status, counters, stop times) lives on the host as NumPy arrays; states
and observations stay on the device of the solve (NumPy or CuPy).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from numeric.backend import Array


class Status(IntEnum):
    """Why a member stopped. Only ``SUCCESS`` means every output is valid."""

    SUCCESS = 0
    NONFINITE = 1
    MAX_STEPS = 2
    STEP_TOO_SMALL = 3

    @property
    def message(self) -> str:
        """One human sentence describing the outcome."""
        return _MESSAGES[self]


_MESSAGES = {
    Status.SUCCESS: "reached the final time; every output is valid",
    Status.NONFINITE: (
        "the state or the vector field became non-finite (NaN or inf); the member was frozen "
        "at its last finite state and its later outputs are NaN"
    ),
    Status.MAX_STEPS: (
        "stopped after max_steps steps (accepted plus rejected) before the final time; later outputs are NaN"
    ),
    Status.STEP_TOO_SMALL: (
        "the adaptive step fell below the floating-point resolution of the time "
        "(a singularity, or a tolerance too tight for float64); later outputs are NaN"
    ),
}


@dataclass
class Trajectory:
    """Outputs of :func:`numeric.engine.solve.solve` or :func:`numeric.engine.descent.gradient_descent`.

    Attributes
    ----------
    ts: (T,) host float array of output times (step indices for gradient descent).
    ys: (B, T, N) device array of states at ``ts``, NaN after a member stopped early;
        ``None`` when solved with ``save_state=False``.
    observed: name -> (B, T, ...) device array of ``observe(t, y, args)`` at ``ts``
        (NaN after a member stopped early).
    status: (B,) host int array of :class:`Status` values.
    n_steps: (B,) accepted steps.
    n_rejected: (B,) rejected steps.
    n_field_evals: (B,) evaluations of the vector field spent on each member
        (a batched call over A members counts once for each of them).
    t_stop: (B,) time at which each member stopped (``ts[-1]`` on success).
    y_stop: (B, N) device array, each member's state at ``t_stop``: its final state,
        or its last finite state when it stopped early. Present even when
        ``save_state=False``.
    """

    ts: np.ndarray
    ys: Array | None
    observed: dict[str, Array]
    status: np.ndarray
    n_steps: np.ndarray
    n_rejected: np.ndarray
    n_field_evals: np.ndarray
    t_stop: np.ndarray | None = None
    y_stop: Array | None = None

    @property
    def ok(self) -> np.ndarray:
        """(B,) bool mask of members with status ``SUCCESS``."""
        return self.status == Status.SUCCESS

    @property
    def final(self) -> Array:
        """(B, N) states at ``ts[-1]`` (``ys[:, -1]``; NaN for members that stopped early)."""
        if self.ys is None:
            raise ValueError(
                "this trajectory was computed with save_state=False, so it has no ys; "
                "use y_stop (each member's state where it stopped) instead"
            )
        return self.ys[:, -1]

    @property
    def n_members(self) -> int:
        return int(self.status.shape[0])

    def summary(self) -> str:
        """One line per occurring status: count and message."""
        lines = []
        for s in Status:
            count = int(np.count_nonzero(self.status == s))
            if count:
                lines.append(f"{count}/{self.n_members} {s.name}: {s.message}")
        return "\n".join(lines)
