r"""Parameters of a claim: their types, their domains, and the user's ``--set NAME=VALUE``.

A claim declares a size or a hyper-parameter with its value per profile,
``ctx.param(name, tiny=..., quick=..., full=...)``.  The declared values fix the
parameter's *type*:

* a scalar ``bool``, ``int``, ``float`` or ``str`` (``--set steps=500``, ``--set strict=true``);
* a *grid*: a list or tuple of numbers whose length differs between profiles (the claim
  sweeps over it), written ``--set n=10,20,40``.  An override may have any length from the
  shortest declared one up, because the tiny profile holds the fewest points that still
  exercise every check (an order is fitted over two or more points): ``--set n=10`` is the
  one-point grid ``(10,)`` where some profile declares one point, and an error where every
  profile sweeps;
* a grid whose points are tuples, ``cases=((4, 0.5), (8, 0.2))``, written ``--set cases=4:0.5,8:0.2``;
* a *record*: a tuple of the same length in every profile (``sizes=(d, n, width)``), written
  ``--set sizes=10,40,4`` (or ``10:40:4``) with exactly that length.

and its *domain*.  A name with a meaning of its own has it in :data:`DOMAINS`
(``alpha`` in [0, 1], ``L >= 2``, ...).  Every other number is bounded by the sign of
its declared values: an integer is ``>= 1`` when every declared value is (a size, a count
of steps or seeds), ``>= 0`` when one is 0, any integer otherwise; a real number is
``> 0``, ``>= 0`` or any finite number in the same way.  Grids and records apply this per
element (per position for tuples).  A string takes one of its declared values.  Declared
values that fit none of these (mixed kinds) make a parameter that ``--set`` cannot reach,
and :func:`infer` says why.

The command line keeps ``--set`` values as typed Python values (:func:`parse_value`:
``"3"`` -> 3, ``"0.5"`` -> 0.5, ``"true"`` -> True, ``"10,20,40"`` -> (10, 20, 40)); each
claim converts them to its own declared type (:meth:`ParamType.coerce`), so one name can be
a scalar in one claim and a grid in another.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

from verify.errors import UserError

PROFILE_NAMES = ("tiny", "quick", "full")


@dataclass(frozen=True)
class Domain:
    """Which numbers an element may be: ``text`` follows the kind ("an integer >= 1")."""

    text: str
    valid: Callable[[float], bool]
    kind: type | None = None  # a named domain fixes int or float; a derived one follows the values


def _finite(v: float) -> bool:
    return math.isfinite(v)


ANY = Domain("(finite)", _finite)
POSITIVE = Domain("> 0", lambda v: _finite(v) and v > 0)
NONNEGATIVE = Domain(">= 0", lambda v: _finite(v) and v >= 0)
AT_LEAST_ONE = Domain(">= 1", lambda v: v >= 1)
UNIT_INTERVAL = Domain("in [0, 1]", lambda v: 0.0 <= v <= 1.0, float)
REAL_POSITIVE = Domain("> 0", POSITIVE.valid, float)

DOMAINS: dict[str, Domain] = {
    # network depth: a two-layer net is the shallowest the papers treat
    "L": Domain(">= 2", lambda v: v >= 2, int),
    # kumar2025 modular addition: the modulus of (a + b) mod q
    "modulus": Domain(">= 2", lambda v: v >= 2, int),
    # scales and rates are real numbers even where every profile happens to use an integer
    "w_init": REAL_POSITIVE,
    "lr": REAL_POSITIVE,
    "T": REAL_POSITIVE,
    "rtol": REAL_POSITIVE,
    # min2024: the data separation mu of Assumption 1 (a cosine), in (0, 1]
    "mu": Domain("in (0, 1]", lambda v: 0.0 < v <= 1.0, float),
    # the leaky-ReLU slope of the papers, alpha in [0, 1]
    "alpha": UNIT_INTERVAL,
    # ratio of consecutive scales in a delta grid (kumar2025 Theorem 7)
    "delta_ratio": Domain("in (0, 1)", lambda v: 0.0 < v < 1.0, float),
    # kou2023: kappa = n p / R_min^2 of controlled-Gram data
    "kappa": Domain(">= 0", NONNEGATIVE.valid, float),
    # kou2023's leaky slope gamma (0 = ReLU)
    "gamma": UNIT_INTERVAL,
}

_NOUN = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}
_PLURAL = {bool: "booleans", int: "integers", float: "numbers", str: "strings"}


def _is_int(v: Any) -> bool:
    return isinstance(v, Integral) and not isinstance(v, bool)


def _is_real(v: Any) -> bool:
    return isinstance(v, Real) and not isinstance(v, bool)


@dataclass(frozen=True)
class Scalar:
    """One value of a parameter: its kind (bool, int, float, str) and domain."""

    kind: type
    domain: Domain = ANY
    choices: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.kind.__name__

    def domain_text(self) -> str:
        if self.kind is str:
            return "one of " + ", ".join(self.choices)
        if self.kind is bool:
            return "true, false"
        return self.domain.text

    def expected(self, plural: bool = False) -> str:
        if self.kind is str:
            return f"one of {', '.join(self.choices)}"
        if self.kind is bool:
            return "true or false"
        return f"{(_PLURAL if plural else _NOUN)[self.kind]} {self.domain.text}"

    def coerce(self, v: Any) -> Any:
        problem = ValueError(f"expected {self.expected()}")
        if self.kind is bool or self.kind is str:
            if not isinstance(v, self.kind) or (self.kind is str and v not in self.choices):
                raise problem
            return v
        if not _is_real(v) or not math.isfinite(v):
            raise problem
        if self.kind is int:
            if not float(v).is_integer():
                raise problem
            v = int(v)
        else:
            v = float(v)
        if not self.domain.valid(v):
            raise problem
        return v


class Point(tuple):
    """A ``--set`` item written with colons, ``4:0.5``: one point of a grid of tuples."""


@dataclass(frozen=True)
class ParamType:
    """What ``--set`` accepts for one parameter of one claim (see the module docstring).

    ``point`` is one :class:`Scalar`, or a tuple of them (one per position) for a record and for
    a grid whose points are tuples (``cases=((4, 0.5), (8, 0.2))``, written ``4:0.5,8:0.2``).
    """

    shape: str  # "scalar" | "grid" | "record" | "fixed" (--set cannot reach it)
    point: Scalar | tuple[Scalar, ...] | None = None
    length: int = 1  # grid: the fewest points
    container: type = tuple
    why: str = ""  # why --set cannot reach it

    @property
    def overridable(self) -> bool:
        return self.point is not None

    def _point_name(self) -> str:
        if isinstance(self.point, Scalar):
            return self.point.name
        return "(" + ", ".join(f.name for f in self.point) + ")"

    def describe(self) -> str:
        """The type as shown by ``verify params``: ``int``, ``grid of float (>= 2 points)``, ..."""
        if self.point is None:
            return "-"
        if self.shape == "grid":
            return f"grid of {self._point_name()} (>= {self.length} point{'s' * (self.length > 1)})"
        if self.shape == "record":
            return f"tuple {self._point_name()}"
        return self._point_name()

    def domain_text(self) -> str:
        """The domain as shown by ``verify params``: ``>= 1``, ``in [0, 1]``, ``>= 1; > 0`` per position."""
        if self.point is None:
            return self.why
        if isinstance(self.point, Scalar):
            return self.point.domain_text()
        return "; ".join(f.domain_text() for f in self.point)

    def expected(self) -> str:
        """What a value must be, for an error message."""
        if self.shape == "scalar":
            return self.point.expected()
        if isinstance(self.point, Scalar):
            each = self.point.expected(plural=True)
        else:
            each = "points " + ":".join(f"<{f.expected()}>" for f in self.point)
        if self.shape == "record":
            return f"{len(self.point)} comma-separated values: " + ", ".join(f.expected() for f in self.point)
        return f"{'one' if self.length == 1 else self.length} or more comma-separated {each}"

    def coerce(self, value: Any) -> Any:
        """``value`` (from :func:`parse_value` or Python) as this type; ``ValueError`` if it is not one."""
        if self.point is None:
            raise ValueError(f"--set cannot change it ({self.why})")
        if self.shape == "scalar":
            if isinstance(value, list | tuple):
                raise ValueError(f"expected a single value, {self.expected()}; got a list")
            return self.point.coerce(value)
        if self.shape == "record":
            return self._record(value, self.point)
        points = (value,) if isinstance(value, Point) or not isinstance(value, list | tuple) else tuple(value)
        if len(points) < self.length:
            raise ValueError(f"expected {self.expected()} (what its checks need); got {len(points)}")
        if isinstance(self.point, Scalar):
            return self.container(self.point.coerce(v) for v in points)
        return self.container(self._record(v, self.point) for v in points)

    def _record(self, value: Any, fields: tuple[Scalar, ...]) -> tuple:
        items = tuple(value) if isinstance(value, list | tuple) else (value,)
        if len(items) != len(fields):
            raise ValueError(f"expected {self.expected()}; got {format_value(value)}")
        return tuple(f.coerce(v) for f, v in zip(fields, items, strict=True))


def _scalar_kind(values: list[Any]) -> type | None:
    """The common kind of declared scalars: bool, int, float (ints and floats mixed) or str."""
    if all(isinstance(v, bool) for v in values):
        return bool
    if all(_is_int(v) for v in values):
        return int
    if all(_is_real(v) for v in values):
        return float
    if all(isinstance(v, str) for v in values):
        return str
    return None


def _derived_domain(values: list[Any]) -> Domain:
    low = min(values)
    if low >= 1 and all(_is_int(v) for v in values):
        return AT_LEAST_ONE
    if low > 0:
        return POSITIVE
    if low >= 0:
        return NONNEGATIVE
    return ANY


def _scalar(name: str, values: list[Any]) -> Scalar | None:
    """The :class:`Scalar` of declared values (``name`` picks a named domain); None if mixed."""
    kind = _scalar_kind(values) if values else None
    if kind is None:
        return None
    if kind is str:
        return Scalar(str, choices=tuple(dict.fromkeys(values)))
    if kind is bool:
        return Scalar(bool)
    named = DOMAINS.get(name)
    if named is not None and (named.kind is float or kind is int):
        return Scalar(named.kind or kind, named)
    return Scalar(kind, _derived_domain(values))


def _fields(name: str, records: list[tuple]) -> tuple[Scalar, ...] | None:
    """One :class:`Scalar` per position of equally long tuples of scalars; None otherwise."""
    if len({len(r) for r in records}) != 1 or any(isinstance(v, list | tuple) for r in records for v in r):
        return None
    fields = tuple(_scalar(name, list(column)) for column in zip(*records, strict=True))
    if any(f is None or f.kind not in (int, float) for f in fields):
        return None
    return fields  # type: ignore[return-value]


def infer(name: str, declared: Mapping[str, Any]) -> ParamType:
    """The type of parameter ``name`` from its declared values per profile."""
    values = list(declared.values())
    grids = [v for v in values if isinstance(v, list | tuple)]
    if not grids:
        scalar = _scalar(name, values)
        return (
            ParamType("scalar", scalar)
            if scalar
            else ParamType("fixed", why="declared values of mixed kinds")
        )
    if len(grids) != len(values):
        return ParamType("fixed", why="declared both as one value and as a list")
    container = list if all(isinstance(g, list) for g in grids) else tuple
    lengths = {len(g) for g in grids}
    elements = [e for g in grids for e in g]
    if elements and all(isinstance(e, tuple) for e in elements):
        fields = _fields(name, elements)
        if fields is None:
            return ParamType("fixed", why="a list of tuples of mixed kinds or lengths")
        return ParamType("grid", fields, min(lengths), container)
    scalar = _scalar(name, elements)
    if scalar is None or scalar.kind not in (int, float):
        return ParamType("fixed", why="a list of values that are not all numbers")
    if len(lengths) == 1 and isinstance(grids[0], tuple):  # same length in every profile: a record
        return ParamType("record", (scalar,) * lengths.pop(), container=container)
    return ParamType("grid", scalar, min(lengths), container)


def declared_values(tiny: Any, quick: Any, full: Any) -> dict[str, Any]:
    """The value per profile of a ``ctx.param`` call (``full`` defaults to ``quick``)."""
    return {"tiny": tiny, "quick": quick, "full": quick if full is None else full}


def value_of(claim_id: str, name: str, declared: Mapping[str, Any], profile: str, overrides: Mapping) -> Any:
    """The value a claim uses: the user's override converted to the declared type, else the
    profile's value.  :class:`UserError` (exit 2) when the override does not fit."""
    if name not in overrides:
        return declared[profile]
    value = overrides[name]
    try:
        return infer(name, declared).coerce(value)
    except ValueError as e:
        raise UserError(f"{claim_id}: --set {name}={format_value(value)}: {e}") from None


def check_requirement(claim_id: str, condition: bool, message: str) -> None:
    """A claim's own constraint between its parameters (e.g. ``d >= n``); exit 2 if broken."""
    if not condition:
        raise UserError(f"{claim_id}: {message}")


def format_value(value: Any) -> str:
    """A value as the user would write it after ``--set NAME=``: ``10,20,40``, ``true``, ``0.5``."""
    if isinstance(value, Point):
        return ":".join(format_value(v) for v in value)
    if isinstance(value, list | tuple) and value and all(isinstance(v, list | tuple) for v in value):
        return ",".join(":".join(format_value(x) for x in v) for v in value) + (
            "," if len(value) == 1 else ""
        )
    if isinstance(value, list | tuple):
        return ",".join(format_value(v) for v in value) + ("," if len(value) == 1 else "")
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_value(text: str) -> Any:
    """A ``--set`` value: ``true``/``false``, an integer, a number, a comma-separated list of
    those (``10,20,40``; ``10,`` is a one-point list), or else the text itself."""
    text = text.strip()
    if "," in text:
        items = text.split(",")
        if items[-1].strip() == "":
            items = items[:-1]
        if not items or any(not i.strip() for i in items):
            raise UserError(f"--set value {text!r} has an empty item")
        return tuple(parse_value(i) for i in items)
    if ":" in text:
        parts = text.split(":")
        if any(not part.strip() for part in parts):
            raise UserError(f"--set value {text!r} has an empty item")
        return Point(parse_value(part) for part in parts)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def parse_assignments(items: Iterable[str]) -> dict[str, Any]:
    """``["H=100", "n=10,20"]`` -> ``{"H": 100, "n": (10, 20)}``; each claim checks its own."""
    out: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not name or not name.isidentifier():
            raise UserError(f"--set expects NAME=VALUE, got {item!r}")
        if not value.strip():
            raise UserError(f"--set {name}= has no value")
        if name in out:
            raise UserError(f"--set {name} is given twice")
        out[name] = parse_value(value)
    return out
