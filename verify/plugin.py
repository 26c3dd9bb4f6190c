"""pytest plugin (entry point ``pytest11``): claims as pytest items.

::

    pytest --verify-profile tiny [--verify-claims SRC]... [--verify-select PAPER_OR_ID]...

With ``--verify-profile`` every claim of the selected papers becomes one test item
``verify::<claim id>``: by default the papers that do not ship with the toolkit (installed
through the ``relu_verify.papers`` entry points or named by ``--verify-claims``, a ``.py``
file, package directory or module name, as ``verify run --claims``); ``--verify-select``
picks papers or claim ids instead.  Verdicts map to outcomes as a strict xfail would:

=============  =================================
PASS           passed
FAIL, ERROR    failed (reason, failing checks, traceback)
XFAIL          xfailed (a documented erratum reproduced)
XPASS          failed (strict: the erratum did not reproduce)
INCONCLUSIVE   skipped, with the reason
=============  =================================

Without ``--verify-profile`` the plugin adds nothing (and imports nothing but pytest).
:func:`run` and :func:`outcome` are the same steps for a hand-written test.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from verify.claim import Claim
    from verify.records import Record


class ClaimFailed(Exception):
    """A FAIL, ERROR or XPASS verdict (or any verdict this plugin does not know)."""


def run(claim_id: str, *, profile: str = "tiny", seed: int = 0, backend: str = "numpy") -> Record:
    """Run one discovered claim and return its results record (the one ``verify run`` stores)."""
    from numeric.backend import get_backend
    from verify.profiles import get_profile
    from verify.registry import all_claims
    from verify.runner import run_claim

    claim = all_claims()[claim_id]
    return run_claim(claim, backend=get_backend(backend), profile=get_profile(profile), seed=seed)


def _describe(record: Record) -> str:
    """The verdict, its reason, each failing check with its numbers, and the traceback."""
    lines = [f"{record.id}: {record.verdict} -- {record.reason}"]
    for ch in record.checks:
        if ch.outcome in ("fail", "error"):
            where = f" [control {ch.control}]" if ch.control else ""
            lines.append(
                f"  {ch.outcome}: {ch.name}{where}: measured {ch.measured!r}, "
                f"expected {ch.expected!r}, tolerance {ch.tolerance!r}"
            )
    if record.traceback:
        lines.append(record.traceback.rstrip())
    return "\n".join(lines)


def outcome(record: Record) -> None:
    """Give a results record its pytest outcome: return (PASS), ``pytest.xfail`` (XFAIL),
    ``pytest.skip`` (INCONCLUSIVE), else raise :class:`ClaimFailed`."""
    verdict, reason = record.verdict, record.reason
    if verdict == "PASS":
        return
    if verdict == "XFAIL":
        pytest.xfail(reason)
    if verdict == "INCONCLUSIVE":
        pytest.skip(f"INCONCLUSIVE: {reason}")
    raise ClaimFailed(_describe(record))


class ClaimItem(pytest.Item):
    """One claim, run at the session's profile, seed and backend; located at its source."""

    def __init__(self, *, claim: Claim, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.claim_id = claim.id
        self.line = inspect.getsourcelines(claim.body)[1] - 1

    def runtest(self) -> None:
        opt = self.config.getoption
        record = run(
            self.claim_id,
            profile=opt("verify_profile"),
            seed=opt("verify_seed"),
            backend=opt("verify_backend"),
        )
        self.user_properties.append(("verdict", str(record.verdict)))
        outcome(record)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, ClaimFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, self.line, f"claim {self.claim_id}"


class ClaimCollector(pytest.Collector):
    """The selected claims, in paper order."""

    def collect(self) -> list[ClaimItem]:
        from verify.errors import UserError
        from verify.registry import builtin_keys, select, use_claims

        opt = self.config.getoption
        try:
            use_claims(opt("verify_claims"))
            selectors = opt("verify_select") or []
            if not selectors:
                external = [c.paper for c in select([]) if c.paper not in builtin_keys()]
                selectors = list(dict.fromkeys(external))
            claims = select(selectors) if selectors else []
        except UserError as e:
            raise pytest.UsageError(str(e)) from None
        return [
            ClaimItem.from_parent(self, name=c.id, claim=c, path=Path(inspect.getsourcefile(c.body) or ""))
            for c in claims
        ]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("relu-verify", "relu-verify claims as test items")
    group.addoption("--verify-profile", help="run claims as test items at this profile (tiny | quick | full)")
    group.addoption(
        "--verify-claims",
        action="append",
        default=[],
        metavar="SRC",
        help="load claims from a .py file, package directory or module name (repeatable)",
    )
    group.addoption(
        "--verify-select",
        action="append",
        default=[],
        metavar="PAPER_OR_ID",
        help="run these papers / claim ids (default: every paper not shipped with relu-verify)",
    )
    group.addoption("--verify-seed", type=int, default=0, help="base seed of the claims (default 0)")
    group.addoption("--verify-backend", default="numpy", help="numpy | cupy | auto (default numpy)")


def pytest_configure(config: pytest.Config) -> None:
    profile = config.getoption("verify_profile")
    if profile is None:
        if config.getoption("verify_claims") or config.getoption("verify_select"):
            raise pytest.UsageError("--verify-claims and --verify-select need --verify-profile")
        return
    from verify.errors import UserError
    from verify.profiles import get_profile

    try:
        get_profile(profile)
    except UserError as e:
        raise pytest.UsageError(str(e)) from None


@pytest.hookimpl(tryfirst=True)  # before -k / -m deselect, so they apply to claim items too
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list) -> None:
    profile = config.getoption("verify_profile")
    if profile is None:
        return
    claims = ClaimCollector.from_parent(session, name="verify", nodeid="verify").collect()
    items.extend(claims)
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"relu-verify: {len(claims)} claims as test items (profile {profile})")
