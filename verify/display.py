"""Plain-text display of stored results on a terminal (``verify show``, ``verify diff``).

Numbers are written in scientific notation with four significant digits (``1.776e-15``;
integers as they are) and never cut to a column width: a check is printed as a block of
labelled lines that wrap between fields, not inside a number.
"""

from __future__ import annotations

import math
from typing import Any

from verify.records import Check

SIGNIFICANT = 4


def number(v: float) -> str:
    """``v`` in scientific notation, ``SIGNIFICANT`` digits, trailing zeros of the mantissa dropped."""
    if not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    if v == 0:
        return "0"
    mantissa, exponent = f"{v:.{SIGNIFICANT - 1}e}".split("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{exponent}"


def value(v: Any) -> str:
    """A stored value in full: numbers via :func:`number`, lists and objects element by element."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return number(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {value(x)}" for k, x in v.items()) + "}"
    return str(v)


def check_lines(check: Check) -> list[str]:
    """The lines describing one stored check: outcome and name, relation, values, evidence."""
    where = f" (control: {check.control.split(' [')[0]})" if check.control else ""
    lines = [f"[{check.verdict}] {check.name}{where}"]
    if check.relation:
        lines.append(f"    relation:  {check.relation}")
    values = f"measured {value(check.measured)}; expected {value(check.expected)}"
    if check.tolerance is not None:
        values += f"; tolerance {value(check.tolerance)}"
    lines.append(f"    {values}")
    evidence = [
        f"{k} {value(v)}" for k, v in (("margin", check.margin), ("slack", check.slack)) if v is not None
    ]
    if evidence:
        lines.append("    " + "; ".join(evidence))
    for k, v in (("resolution", check.resolution), ("power", check.power)):
        if v:
            lines.append(f"    {k}: {v}")
    return lines
