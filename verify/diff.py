"""What changed between two runs (``verify diff A B``): verdicts and measured values.

Two runs may differ by commit, profile, seed or backend (NumPy against CuPy).  For every
claim present in either run the diff lists

* a verdict change (``PASS -> FAIL``), or a claim present in one run only (``-`` for absent);
* each check, matched by (control, name), whose measured value changed: by more than a
  relative ``rtol`` for numbers (``|b - a| > rtol * max(|a|, |b|)``; any change for
  strings, booleans and lists; NaN equals NaN), or that exists in one run only.

Measured values are compared as stored in ``results.json`` (strict JSON, with ``"nan"``
/ ``"inf"`` decoded back to floats by :func:`verify.results.load`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from verify.records import Record
from verify.results import canonical

ABSENT = "-"


@dataclass(frozen=True)
class VerdictChange:
    claim: str
    before: str
    after: str


@dataclass(frozen=True)
class ValueChange:
    claim: str
    check: str
    before: Any
    after: Any


def _numbers_differ(a: float, b: float, rtol: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) != math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a != b
    return abs(b - a) > rtol * max(abs(a), abs(b))


def values_differ(a: Any, b: Any, rtol: float) -> bool:
    """Whether two stored measured values differ (numbers: relatively, by more than ``rtol``)."""
    numeric = (int, float)
    if (
        isinstance(a, numeric)
        and isinstance(b, numeric)
        and not isinstance(a, bool)
        and not isinstance(b, bool)
    ):
        return _numbers_differ(float(a), float(b), rtol)
    return canonical(a) != canonical(b)


def _checks(record: Record) -> dict[str, Any]:
    """Measured value by check label (``name``, or ``control / name`` inside a control)."""
    out = {}
    for c in record.checks:
        label = f"{c.control} / {c.name}" if c.control else c.name
        out.setdefault(label, c.measured)
    return out


def diff(
    a: dict[str, Record], b: dict[str, Record], *, rtol: float = 1e-9
) -> tuple[list[VerdictChange], list[ValueChange]]:
    """Verdict changes and measured-value changes from run ``a`` to run ``b`` (records by claim id)."""
    ids = list(a) + [i for i in b if i not in a]
    verdicts, values = [], []
    for i in ids:
        ra, rb = a.get(i), b.get(i)
        va = ra.verdict if ra else ABSENT
        vb = rb.verdict if rb else ABSENT
        if va != vb:
            verdicts.append(VerdictChange(i, va, vb))
        if ra is None or rb is None:
            continue  # the verdict change already says the claim is in one run only
        ca, cb = _checks(ra), _checks(rb)
        for label in list(ca) + [k for k in cb if k not in ca]:
            if label not in ca or label not in cb:
                values.append(ValueChange(i, label, ca.get(label, ABSENT), cb.get(label, ABSENT)))
            elif values_differ(ca[label], cb[label], rtol):
                values.append(ValueChange(i, label, ca[label], cb[label]))
    return verdicts, values
