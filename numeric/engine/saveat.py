"""What a run of the engine records: :class:`SaveAt`, the same object for both methods.

An RK solve records at output *times* ``ts`` (``ts[0]`` is the initial time, ``ts[-1]`` the
end); the gradient-descent map records at *step indices* ``steps`` (``steps[-1]`` is the last
step taken).  At every record the state is stored (``state=True``) and ``observe(t, y, args)``
is evaluated (conventions of :mod:`numeric.engine.ensemble`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from numeric.backend import Array, to_numpy
from numeric.engine.ensemble import Observer


@dataclass(frozen=True)
class SaveAt:
    """Records of a run: at output times ``ts`` (RK) or step indices ``steps`` (GD), one of them.

    observe: ``observe(t, y, args) -> {name: (B, ...) array}`` evaluated at every record.
    state: store the states ``ys``; ``False`` keeps only ``observe``'s output.
    """

    ts: Sequence[float] | Array | None = None
    steps: Sequence[int] | Array | None = None
    observe: Observer | None = None
    state: bool = True

    def __post_init__(self) -> None:
        if (self.ts is None) == (self.steps is None):
            raise ValueError("SaveAt needs exactly one of ts (output times) and steps (step indices)")

    def times(self) -> np.ndarray:
        """The output times, validated: a host float64 array, finite and strictly increasing."""
        if self.ts is None:
            raise ValueError("an RK solve records at output times: SaveAt(ts=...), not steps")
        ts = np.asarray(to_numpy(self.ts), dtype=np.float64)
        if ts.ndim != 1 or ts.size < 1 or not np.all(np.isfinite(ts)):
            raise ValueError(f"ts must be a 1-D array of finite output times, got {self.ts!r}")
        if np.any(np.diff(ts) <= 0):
            raise ValueError(f"ts must be strictly increasing, got {ts}")
        return ts

    def step_indices(self) -> np.ndarray:
        """The recorded step indices, validated: a host int64 array, non-negative, strictly increasing."""
        if self.steps is None:
            raise ValueError("the gradient-descent map records at step indices: SaveAt(steps=...), not ts")
        rec = np.asarray(to_numpy(self.steps))
        if rec.ndim != 1 or rec.size == 0 or not np.issubdtype(rec.dtype, np.integer):
            raise ValueError(
                f"recorded steps (record) must be a non-empty 1-D array of integer step indices, "
                f"got {self.steps!r}"
            )
        rec = rec.astype(np.int64)
        if np.any(np.diff(rec) <= 0) or rec[0] < 0:
            raise ValueError(f"recorded steps (record) must be strictly increasing and >= 0, got {rec}")
        return rec


def saveat_of(
    ts: Sequence[float] | Array | None, saveat: SaveAt | None, observe: Observer | None, save_state: bool
) -> SaveAt:
    """The run's :class:`SaveAt`: ``saveat`` itself, or the shorthand ``ts``/``observe``/``save_state``."""
    if saveat is None:
        if ts is None:
            raise ValueError("give the output times ts or a saveat=SaveAt(...)")
        return SaveAt(ts=ts, observe=observe, state=save_state)
    if not isinstance(saveat, SaveAt):
        raise TypeError(f"saveat must be a SaveAt, got {type(saveat).__name__}")
    if ts is not None or observe is not None or not save_state:
        raise ValueError("give either saveat=SaveAt(...) or ts/observe/save_state, not both")
    return saveat
