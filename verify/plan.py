r"""Check every selected claim's parameters before the first claim runs.

A claim body reads its parameters (``ctx.param``) and states their constraints
(``ctx.require(d >= n, ...)``) before it computes anything.  Planning runs each body with
a :class:`PlanContext` whose ``param`` and ``require`` are the real ones, and stops it at the
first sign of computing: a check, figure or control; a draw from a generator, an array from the
backend (taking ``ctx.rng(k).host`` or ``ctx.xp`` is fine, using it is not: :class:`_Handle`);
a call into a computing layer (``symbolic``, ``numeric``, SymPy, SciPy); or a long loop.  Notes
and ``reduced_scale`` labels are skipped.  So a bad ``--set`` -- a value outside its domain, a
list where the claim needs one number, a combination the claim rejects -- is a one-line error
before anything runs, and so is a ``--set`` that no selected claim reads.  Planning all 206
claims takes about 0.4 s per profile.

The plan is complete when a claim reads every parameter before it starts computing;
``tests/verify/test_params.py`` checks that for every registered claim against its tiny run.
A claim whose helper reads parameters after drawing data reads them first through the helper's
``*_params``/``*_sizes`` function (e.g. ``min2024.lemmas._problem_params``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from verify.claim import Claim
from verify.errors import UserError
from verify.params import PROFILE_NAMES, ParamType, check_requirement, declared_values, infer, value_of
from verify.profiles import Profile, get_profile
from verify.registry import all_claims


class _Reached(BaseException):
    """The body used something other than a parameter: planning of this claim is over.

    A ``BaseException``, so that a claim's own ``except Exception`` cannot swallow it.
    """


@dataclass
class PlanContext:
    """The parameters half of :class:`verify.context.Context`; anything else ends the plan
    (a random generator, the backend or the array module once it is used: :class:`_Handle`)."""

    claim_id: str
    profile: Profile
    seed: int = 0
    overrides: Mapping[str, Any] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    declared: dict[str, dict[str, Any]] = field(default_factory=dict)

    def param(self, name: str, *, tiny: Any, quick: Any, full: Any = None) -> Any:
        declared = declared_values(tiny, quick, full)
        value = value_of(self.claim_id, name, declared, self.profile.name, self.overrides)
        self.declared.setdefault(name, declared)
        self.params[name] = value
        return value

    def require(self, condition: bool, message: str) -> None:
        check_requirement(self.claim_id, condition, message)

    def note(self, text: str) -> None:
        """A remark computes nothing: planning goes on past it."""

    def reduced_scale(self, reason: str, *, persists: bool = False, kind: str = "reduced scale") -> None:
        """A label of the run computes nothing either."""

    def regime(self, hypothesis: Any, *, reached: bool | None = None, **measured: Any) -> bool:
        """A regime record computes nothing either: planning goes on as inside the regime (the
        parameters a run reads there are the ones to plan)."""
        return True

    def rng(self, key: str | int = 0) -> _Handle:
        return _Handle("rng")

    @property
    def backend(self) -> _Handle:
        return _Handle("backend")

    @property
    def xp(self) -> _Handle:
        return _Handle("xp")

    def __getattr__(self, name: str) -> Any:
        raise _Reached(name)


class _Handle:
    """A generator, backend or array module not used yet: taking one (``rng = ctx.rng(k).host``,
    ``xp = ctx.xp``) does not end planning, using it (a draw, an array, a dtype) does."""

    def __init__(self, what: str) -> None:
        self._what = what

    def __getattr__(self, name: str) -> _Handle:
        return _Handle(self._what)

    def _reached(self, *_: Any, **__: Any) -> Any:
        raise _Reached(self._what)

    __call__ = __iter__ = __len__ = __getitem__ = __bool__ = __index__ = __int__ = __float__ = _reached
    __enter__ = __array__ = __add__ = __radd__ = __mul__ = __rmul__ = __eq__ = __hash__ = _reached


@dataclass(frozen=True)
class Plan:
    """What planning learnt of one claim at one profile."""

    claim: Claim
    params: dict[str, Any]  # the value of each parameter the run will use
    declared: dict[str, dict[str, Any]]  # its declared value per profile
    reached: str  # the context attribute that ended planning ("" if the body returned)
    error: str = ""  # an exception the body raised while planning (the run will report it)


def plan_claim(claim: Claim, profile: Profile, overrides: Mapping[str, Any] | None = None) -> Plan:
    """Run ``claim``'s body up to its first use of the context beyond its parameters.

    Raises :class:`UserError` for an override the claim cannot take or a broken ``require``.
    """
    ctx = PlanContext(claim.id, profile, overrides=dict(overrides or {}))
    reached = error = ""
    previous = sys.gettrace()
    sys.settrace(_Watch())
    try:
        claim.body(ctx)  # type: ignore[arg-type]
    except _Reached as stop:
        reached = str(stop)
    except UserError:
        raise
    except Exception as e:  # a bug of the claim: its run records it as an ERROR
        error = f"{type(e).__name__}: {e}"
    finally:
        sys.settrace(previous)
    return Plan(claim, ctx.params, ctx.declared, reached, error)


# Planning also ends where a body starts computing without the context: at its first call into a
# computing layer (a SymPy derivation, a flow integration; building one of their objects, a dunder
# method and whatever it calls, and importing a module are not computing), or after _LINE_LIMIT
# lines of plain Python (a loop).  The parameters come before that, and planning stays cheap.
_COMPUTING = ("symbolic.", "numeric.", "sympy.", "scipy.", "sklearn.", "mpmath.")
_LINE_LIMIT = 20_000


def _computing(frame: FrameType | None) -> bool:
    return frame is not None and frame.f_globals.get("__name__", "").startswith(_COMPUTING)


def _importing(frame: FrameType | None) -> bool:
    while frame is not None and frame.f_code is not plan_claim.__code__:
        if frame.f_code.co_name == "<module>":
            return True
        frame = frame.f_back
    return False


class _Watch:
    """The ``sys.settrace`` hook of one plan (see above)."""

    def __init__(self) -> None:
        self.lines = 0

    def __call__(self, frame: FrameType, event: str, _arg: Any) -> Any:
        if not _computing(frame):
            return self._line
        entry = not frame.f_code.co_name.startswith(("__", "<")) and not _computing(frame.f_back)
        if entry and not _importing(frame):
            raise _Reached(frame.f_globals["__name__"])
        return None

    def _line(self, frame: FrameType, event: str, _arg: Any) -> Any:
        if event == "line":
            self.lines += 1
            if self.lines > _LINE_LIMIT:
                raise _Reached(f"{_LINE_LIMIT} lines of computation")
        return self._line


def plan_claims(
    claims: Iterable[Claim],
    profile: Profile,
    overrides: Mapping[str, Any] | None = None,
    *,
    registry: Mapping[str, Claim] | None = None,
) -> list[Plan]:
    """Plan every claim; :class:`UserError` on the first parameter problem, before anything runs.

    A ``--set`` that none of ``claims`` reads is an error naming the claims of ``registry``
    (default: every registered claim) that do read it.
    """
    overrides = dict(overrides or {})
    plans = [plan_claim(c, profile, overrides) for c in claims]
    read = {name for p in plans for name in p.params}
    for name in overrides:
        if name not in read:
            raise UserError(_unread(name, profile, registry))
    return plans


def _unread(name: str, profile: Profile, registry: Mapping[str, Claim] | None) -> str:
    if registry is None:
        registry = all_claims()
    readers = [c.id for c in registry.values() if name in plan_claim(c, profile).params]
    if not readers:
        return f"unknown parameter {name!r}: no claim reads it (see 'verify params PAPER')"
    shown = ", ".join(readers[:4]) + (f" and {len(readers) - 4} more" if len(readers) > 4 else "")
    return f"--set {name}: no selected claim reads parameter {name!r}; it is read by {shown}"


@dataclass(frozen=True)
class ParamRow:
    """One parameter of one claim, as ``verify params`` shows it."""

    claim_id: str
    name: str
    values: dict[str, Any]  # profile -> value (a profile that does not read it is absent)
    type: ParamType

    @property
    def reach(self) -> str:
        """Whether ``--set NAME=...`` reaches the parameter, and if not why."""
        return "yes" if self.type.overridable else f"no ({self.type.why})"


def parameter_rows(claims: Iterable[Claim]) -> list[ParamRow]:
    """Every parameter of ``claims`` with its value in each profile, in order of first read."""
    rows = []
    for c in claims:
        plans = {name: plan_claim(c, get_profile(name)) for name in PROFILE_NAMES}
        names = dict.fromkeys(n for p in plans.values() for n in p.params)
        for n in names:
            declared = next(p.declared[n] for p in plans.values() if n in p.declared)
            values = {prof: p.params[n] for prof, p in plans.items() if n in p.params}
            rows.append(ParamRow(c.id, n, values, infer(n, declared)))
    return rows
