"""The typed records of a run: what a claim's run produced, as ``results.json`` stores it.

A :class:`Record` is one claim's result; it holds its :class:`Check` s, the outcomes of its
negative :class:`Control` s, one :class:`HypothesisRecord` per hypothesis, the
:class:`Regime` summary, the reduced-:class:`Scale` label, the documented :class:`Erratum`
and the :class:`Provenance`. Figures stay plain data (a figure is a JSON object that
``verify report`` redraws; :meth:`verify.context.Context.figure` documents its keys).

Every class here is a frozen dataclass whose fields are the keys of its JSON object, in
order. ``to_json()`` gives the strict-JSON object ``results.json`` holds (non-finite floats
as the strings ``"nan"``, ``"inf"``, ``"-inf"``) and ``from_json()`` reads one back, checking
every key and the JSON type of every value against the type hints; a problem raises
:class:`RecordError` listing each one (``checks[0]: missing key 'tolerance'``). The round trip
``Record.from_json(obj).to_json() == obj`` is exact. ``verify/schema/results.schema.json``
publishes the same structure; a test keeps the two in agreement field for field.
"""

from __future__ import annotations

import math
import types
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from enum import Enum, StrEnum
from functools import cache
from typing import Any, Self, Union, get_args, get_origin, get_type_hints

NONFINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


class Verdict(StrEnum):
    """A claim's verdict (:mod:`verify.verdict` says how it is earned)."""

    PASS = "PASS"
    FAIL = "FAIL"
    XFAIL = "XFAIL"
    XPASS = "XPASS"
    INCONCLUSIVE = "INCONCLUSIVE"
    ERROR = "ERROR"

    @property
    def is_failure(self) -> bool:
        """Verdicts that make ``verify run`` exit non-zero."""
        return self in (Verdict.FAIL, Verdict.XPASS, Verdict.ERROR)


class Outcome(StrEnum):
    """Outcome of one check."""

    PASS = "pass"
    FAIL = "fail"
    INCONCLUSIVE = "inconclusive"
    ERROR = "error"


# -- strict JSON ----------------------------------------------------------------------------------
def encode(x: Any) -> Any:
    """``x`` with every non-finite float replaced by ``"nan"``, ``"inf"`` or ``"-inf"``."""
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
    if isinstance(x, dict):
        return {k: encode(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [encode(v) for v in x]
    return x


def decode(x: Any) -> Any:
    """The inverse of :func:`encode`."""
    if isinstance(x, str):
        return NONFINITE.get(x, x)
    if isinstance(x, dict):
        return {k: decode(v) for k, v in x.items()}
    if isinstance(x, list):
        return [decode(v) for v in x]
    return x


class RecordError(ValueError):
    """A JSON object that is not the record it should be; ``problems`` lists every reason."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


class JsonRecord:
    """``to_json`` / ``from_json`` of a frozen dataclass whose fields are its JSON keys."""

    def to_json(self) -> dict[str, Any]:
        """The strict-JSON object of this record (fields in order; tuples as lists)."""
        return _json_of(self)

    @classmethod
    def from_json(cls, obj: Any) -> Self:
        """The record that :meth:`to_json` wrote as ``obj``; :class:`RecordError` names every problem."""
        problems: list[str] = []
        built = _build(cls, obj, "", problems)
        if problems:
            raise RecordError(problems)
        return built


def _json_of(v: Any) -> Any:
    if is_dataclass(v):
        return {f.name: _json_of(getattr(v, f.name)) for f in fields(v)}
    if isinstance(v, Enum):
        return v.value
    if isinstance(v, list | tuple):
        return [_json_of(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _json_of(x) for k, x in v.items()}
    return encode(v)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls)


def _json_type(v: Any) -> str:
    names = {bool: "boolean", int: "number", float: "number", str: "string", list: "array", dict: "object"}
    return "null" if v is None else names.get(type(v), type(v).__name__)


def _build(cls: type, obj: Any, where: str, problems: list[str]) -> Any:
    """``cls`` from the JSON object ``obj`` (``where``: its path, for the problems found)."""
    prefix = f"{where}: " if where else ""
    if not isinstance(obj, dict):
        problems.append(f"{where or cls.__name__} is a JSON {_json_type(obj)}, not an object")
        return None
    before = len(problems)
    names = [f.name for f in fields(cls)]
    # a field with a default may be absent: records written before it was added load with the default
    required = [f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING]
    problems += [f"{prefix}missing key {k!r}" for k in required if k not in obj]
    problems += [f"{prefix}unknown key {k!r}" for k in obj if k not in names]
    hints = _hints(cls)
    kwargs = {
        f.name: _value(hints[f.name], obj[f.name], f"{where}.{f.name}" if where else f.name, problems)
        for f in fields(cls)
        if f.init and f.name in obj
    }
    if len(problems) > before:
        return None
    built = cls(**kwargs)
    for f in fields(cls):
        if not f.init and _json_of(getattr(built, f.name)) != obj[f.name]:
            problems.append(f"{prefix}{f.name} {obj[f.name]!r} disagrees with the other keys")
    return built


def _value(tp: Any, v: Any, where: str, problems: list[str]) -> Any:
    """The value of type ``tp`` that the JSON value ``v`` stands for (problems appended)."""
    origin, args = get_origin(tp), get_args(tp)
    if tp is Any:
        return decode(v)
    if origin in (Union, types.UnionType):
        if v is None and type(None) in args:
            return None
        (inner,) = (a for a in args if a is not type(None))
        return _value(inner, v, where, problems)
    if origin is tuple:
        if not isinstance(v, list):
            problems.append(f"{where} is a JSON {_json_type(v)}, not an array")
            return None
        return tuple(_value(args[0], x, f"{where}[{i}]", problems) for i, x in enumerate(v))
    if origin is dict:
        if not isinstance(v, dict):
            problems.append(f"{where} is a JSON {_json_type(v)}, not an object")
            return None
        return {k: _value(args[1], x, f"{where}.{k}", problems) for k, x in v.items()}
    if is_dataclass(tp):
        return _build(tp, v, where, problems)
    if isinstance(tp, type) and issubclass(tp, Enum):
        try:
            return tp(v)
        except ValueError:
            problems.append(f"{where} is {v!r}, not one of {', '.join(m.value for m in tp)}")
            return None
    if tp is float and isinstance(v, str) and v in NONFINITE:
        return NONFINITE[v]
    wanted, name = {
        float: ((int, float), "a number"),
        int: (int, "an integer"),
        str: (str, "a string"),
        bool: (bool, "a boolean"),
    }[tp]
    if not isinstance(v, wanted) or (tp is not bool and isinstance(v, bool)):
        problems.append(f"{where} is a JSON {_json_type(v)}, not {name}")
        return None
    return v


# -- the records ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Check(JsonRecord):
    """One check: ``measured`` against ``expected`` within ``tolerance``, and ``why`` that tolerance.

    ``control`` is empty for a check of the statement, else the label of the negative
    control it ran in. ``margin``, ``slack``, ``resolution`` and ``power`` are the evidence
    of :mod:`verify.evidence`; ``verdict`` is ``outcome`` in capitals (kept for readers).
    """

    name: str
    kind: str
    relation: str
    measured: Any
    expected: Any
    tolerance: float | None
    why: str
    outcome: Outcome
    verdict: Verdict = field(init=False)
    control: str = ""
    margin: float | None = None
    slack: float | None = None
    resolution: str = ""
    power: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "verdict", Verdict(self.outcome.value.upper()))


@dataclass(frozen=True)
class ControlDeclaration(JsonRecord):
    """A negative control as declared: it ``breaks`` a hypothesis (``declared``: one the claim
    declares) and the conclusions ``must_break`` (check names or patterns) must fail inside it."""

    label: str
    breaks: str
    declared: bool
    must_break: tuple[str, ...]


@dataclass(frozen=True)
class Control(ControlDeclaration):
    """A control's outcome: which named conclusions ``broke`` and ``held``; ``ok`` when no ``problems``."""

    broke: tuple[str, ...]
    held: tuple[str, ...]
    ok: bool
    problems: tuple[str, ...]


@dataclass(frozen=True)
class HypothesisRecord(JsonRecord):
    """A hypothesis and whether this run reached its quantitative regime (``None``: not measured)."""

    name: str
    wording: str
    condition: str
    reached: bool | None
    measured: str


@dataclass(frozen=True)
class Regime(JsonRecord):
    """Whether the run reached the regime of every quantitative hypothesis (``None``: not decided).

    ``reached`` is ``None`` in two cases the ``reason`` tells apart (:attr:`state`): a hypothesis
    with a quantitative test was never measured (``"not measured: H1, H2"``), or the claim assumes
    structural hypotheses only (``"no quantitative hypothesis (structural hypotheses only: ...)"``).
    Records written before that distinction (``"no quantitative regime measured"``) read as not
    measured, which is what they say.
    """

    reached: bool | None
    reason: str

    NOT_MEASURED = "not measured"
    STRUCTURAL = "no quantitative hypothesis"

    @property
    def state(self) -> str:
        """``reached``, ``not reached``, ``not measured`` or ``structural only``."""
        if self.reached is not None:
            return "reached" if self.reached else "not reached"
        return "structural only" if self.reason.startswith(self.STRUCTURAL) else self.NOT_MEASURED


@dataclass(frozen=True)
class Scale(JsonRecord):
    """The run is below the paper's scale (or on stand-in data) for ``reason``; ``persists``: a
    failure was shown to persist towards the paper's scale."""

    kind: str
    reason: str
    persists: bool


@dataclass(frozen=True)
class Erratum(JsonRecord):
    """A documented error in the printed statement: what is wrong and where it was found.

    ``shown_by``: the checks (names or ``fnmatch`` patterns) whose failure exhibits the error. The
    claim is XFAIL only when the failing checks are among them: any other failure is a defect the
    erratum does not document (FAIL), so an erratum cannot hide a second, unrelated fault.
    """

    reason: str
    via: str = ""
    shown_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class Provenance(JsonRecord):
    """Where a result came from. ``source_hash`` covers the claim's code; :data:`VOLATILE` lists
    the fields that differ between two runs of the same code on the same inputs. ``stopped_at_s``:
    the run's time limit (``verify run --time-limit``) when the claim was stopped there, unfinished."""

    seed: int
    backend: str
    dtype: str
    profile: str
    overrides: dict[str, Any]
    versions: dict[str, str]
    git_commit: str
    machine: dict[str, Any]
    source_hash: str
    finished: str
    runtime_s: float
    peak_memory_mib: dict[str, float]
    stopped_at_s: float | None = None  # the time limit that stopped the claim; None: it ran to its end

    VOLATILE = ("finished", "runtime_s", "peak_memory_mib", "machine", "git_commit")


@dataclass(frozen=True)
class Record(JsonRecord):
    """One claim's result: statement, verdict and reason, and everything that earned it."""

    id: str
    paper: str
    title: str
    source: str
    statement: str
    hypotheses: tuple[HypothesisRecord, ...]
    erratum: Erratum | None
    verdict: Verdict
    reason: str
    checks: tuple[Check, ...]
    controls: tuple[Control, ...]
    regime: Regime
    scale: Scale | None
    figures: tuple[dict[str, Any], ...]
    notes: tuple[str, ...]
    params: dict[str, Any]
    traceback: str
    provenance: Provenance

    @property
    def slug(self) -> str:
        """The claim id without its paper (``theorem-1``)."""
        return self.id.split(":", 1)[1]

    def main_checks(self) -> list[Check]:
        """The checks of the statement itself (outside every negative control)."""
        return [c for c in self.checks if not c.control]
