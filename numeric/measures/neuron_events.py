r"""Per-neuron activation events along a sampled trajectory (min2024 App. C.2, Figs. 4, 14-17).

Input: output times ``ts`` ``(T,)`` and activation indicators ``act`` ``(T, h, n)``
(:math:`\langle x_i,w_j(t_k)\rangle>0`) of ONE ensemble member, plus ``own`` ``(h, n)``:
whether datum :math:`i` has the label of neuron :math:`j`'s output sign
(:math:`y_i\,\mathrm{sign}(v_j)>0`).

* :func:`segments` -- maximal runs of a constant activation pattern.  A pattern seen at grid
  indices :math:`a..c` began in :math:`(t_{a-1},t_a]` and ended in :math:`(t_c,t_{c+1}]`,
  so its dwell time lies in :math:`[t_c-t_a,\ t_{c+1}-t_{a-1}]`; the upper end is what a
  bound is compared with (conservative by one grid step on each side).  The first segment
  starts at :math:`t_0` exactly; the last is *censored* (it may last beyond :math:`t_{T-1}`).
* :func:`is_path` -- the record :math:`(k_+,k_-)` (own-class and other-class active counts)
  of one neuron is a path of App. C.2: :math:`k_+` never decreases, :math:`k_-` never
  increases, every step changes something.
* :func:`path_time` -- :math:`\mathcal T(\mathcal P)=\sum_{l<L}1/(k_+^{(l)}+k_-^{(l)})`, the
  travel time in units of :math:`4/(\min\{\zeta,\xi\}\sqrt\mu X_{\min})`.
* :func:`max_path_time` -- the maximum of :math:`\mathcal T` over all paths ending at
  :math:`(n_+,0)` that avoid :math:`(0,0)` (exact, :class:`fractions.Fraction`, by dynamic
  programming over the lattice: adding a vertex to a chain only adds a positive term, so the
  maximum is over maximal chains); :func:`all_paths` enumerates every path (small sizes,
  cross-check); :func:`maximal_path` is the paper's
  :math:`(0,n_-)\to\dots\to(0,1)\to(1,1)\to(1,0)\to\dots\to(n_+,0)` (catalog C6).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import pairwise

import numpy as np


@dataclass(frozen=True)
class Segments:
    """Constant-pattern runs of every neuron of one member (flat arrays, one entry per run)."""

    neuron: np.ndarray  # (S,) neuron index
    first: np.ndarray  # (S,) first grid index of the run
    last: np.ndarray  # (S,) last grid index of the run
    dwell_lo: np.ndarray  # (S,) t[last] - t[first]
    dwell_hi: np.ndarray  # (S,) t[last+1] - t[first-1] (t[0] for the first run; t[-1] if censored)
    censored: np.ndarray  # (S,) the run reaches the end of the grid
    k_own: np.ndarray  # (S,) active data of the neuron's own class
    k_other: np.ndarray  # (S,) active data of the other class

    @property
    def n_active(self) -> np.ndarray:
        r""":math:`n_a` of each run."""
        return self.k_own + self.k_other


def segments(ts: np.ndarray, act: np.ndarray, own: np.ndarray) -> Segments:
    """Constant-pattern runs (module docstring) from ``act`` ``(T, h, n)`` and ``own`` ``(h, n)``."""
    T, h, _ = act.shape
    cols: dict[str, list] = {k: [] for k in ("neuron", "first", "last", "lo", "hi", "cens", "own", "oth")}
    for j in range(h):
        change = np.flatnonzero((act[1:, j] != act[:-1, j]).any(-1)) + 1
        starts = np.concatenate([[0], change])
        ends = np.concatenate([change - 1, [T - 1]])
        for a, c in zip(starts, ends, strict=True):
            pattern = act[a, j]
            cols["neuron"].append(j)
            cols["first"].append(a)
            cols["last"].append(c)
            cols["lo"].append(ts[c] - ts[a])
            cols["hi"].append(ts[min(c + 1, T - 1)] - ts[max(a - 1, 0)])
            cols["cens"].append(c == T - 1)
            cols["own"].append(int((pattern & own[j]).sum()))
            cols["oth"].append(int((pattern & ~own[j]).sum()))
    return Segments(
        np.array(cols["neuron"], int),
        np.array(cols["first"], int),
        np.array(cols["last"], int),
        np.array(cols["lo"], float),
        np.array(cols["hi"], float),
        np.array(cols["cens"], bool),
        np.array(cols["own"], int),
        np.array(cols["oth"], int),
    )


def path_of(seg: Segments, j: int) -> list[tuple[int, int]]:
    r"""The record :math:`(k_+,k_-)` of neuron ``j``, one entry per run, in time order."""
    sel = seg.neuron == j
    return list(zip(seg.k_own[sel].tolist(), seg.k_other[sel].tolist(), strict=True))


def is_path(record: list[tuple[int, int]]) -> bool:
    r""":math:`k_+` non-decreasing, :math:`k_-` non-increasing, every step a strict change."""
    return all(b[0] >= a[0] and b[1] <= a[1] and b != a for a, b in pairwise(record))


def path_time(record: list[tuple[int, int]]) -> Fraction:
    r""":math:`\sum_{l<L}1/(k_+^{(l)}+k_-^{(l)})` (the last vertex, the target region, is not summed)."""
    return sum((Fraction(1, a + b) for a, b in record[:-1]), Fraction(0))


@cache
def _best_from(a: int, b: int, n_plus: int) -> Fraction:
    """Largest travel time of a path from (a, b) to (n_plus, 0) avoiding (0, 0)."""
    if (a, b) == (n_plus, 0):
        return Fraction(0)
    nxt = [
        _best_from(a2, b2, n_plus)
        for a2 in range(a, n_plus + 1)
        for b2 in range(b + 1)
        if (a2, b2) not in ((a, b), (0, 0))
    ]
    return Fraction(1, a + b) + max(nxt)


def max_path_time(n_plus: int, n_minus: int) -> Fraction:
    r"""Largest :math:`\mathcal T(\mathcal P)` over all paths ending at :math:`(n_+,0)` (exact)."""
    return max(
        _best_from(a, b, n_plus) for a in range(n_plus + 1) for b in range(n_minus + 1) if (a, b) != (0, 0)
    )


def maximal_path(n_plus: int, n_minus: int) -> list[tuple[int, int]]:
    r"""The paper's maximal path :math:`(0,n_-)\to\dots\to(0,1)\to(1,1)\to(1,0)\to\dots\to(n_+,0)`."""
    return [(0, b) for b in range(n_minus, 0, -1)] + [(1, 1)] + [(a, 0) for a in range(1, n_plus + 1)]


def harmonic(k: int) -> Fraction:
    """:math:`H_k=\\sum_{i\\le k}1/i` (exact)."""
    return sum((Fraction(1, i) for i in range(1, k + 1)), Fraction(0))


def all_paths(n_plus: int, n_minus: int) -> Iterator[list[tuple[int, int]]]:
    """Every path (any start, end :math:`(n_+,0)`, no :math:`(0,0)`); exponential, small sizes only."""

    def extend(path: list[tuple[int, int]]) -> Iterator[list[tuple[int, int]]]:
        a, b = path[-1]
        if (a, b) == (n_plus, 0):
            yield path
            return
        for a2 in range(a, n_plus + 1):
            for b2 in range(b + 1):
                if (a2, b2) not in ((a, b), (0, 0)):
                    yield from extend([*path, (a2, b2)])

    for a in range(n_plus + 1):
        for b in range(n_minus + 1):
            if (a, b) != (0, 0):
                yield from extend([(a, b)])
