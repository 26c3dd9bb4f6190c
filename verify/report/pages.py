"""The three kinds of report page, built from stored records as :mod:`verify.report.document` blocks.

``index`` (every paper and claim, filterable by verdict, with the profile and commit
of each verdict) -> ``<paper>/index`` (summary, verdict counts, the errata found) ->
``<paper>/<claim>`` (statement, hypotheses and regime, checks with their margin,
slack and resolution, controls with the conclusions they must break, figures,
provenance), each page linking back up. Links are written to the Markdown pages;
the HTML writer points them at the HTML pages beside them. Pages read the typed
records of :mod:`verify.records`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from verify.records import Check, Control, Record
from verify.registry import PAPERS
from verify.report.document import (
    BADGE,
    Bullets,
    Code,
    Filter,
    Heading,
    Image,
    Literal,
    Page,
    Table,
    Verdict,
    para,
)
from verify.report.profiles import Companion, scale_mark, side_by_side
from verify.verdict import matches


def fmt(v: Any) -> str:
    """A stored value for display: floats to 4 significant digits, long lists shortened."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, list | tuple):  # a tuple in a fresh run is a list once read back from JSON
        return "[" + ", ".join(fmt(x) for x in v[:6]) + (", ..." if len(v) > 6 else "") + "]"
    return str(v)


def paper_title(key: str) -> str:
    return PAPERS[key].title if key in PAPERS else key


def counts(records: list[Record]) -> list[tuple[str, int]]:
    """(verdict, count) for every verdict, in the order of :data:`BADGE`, then any other."""
    c = Counter(str(r.verdict) for r in records)
    return [(v, c[v]) for v in BADGE] + [(v, n) for v, n in c.items() if v not in BADGE]


def summary(records: list[Record]) -> str:
    return ", ".join(f"{n} {v}" for v, n in counts(records) if n)


def short_commit(commit: str) -> str:
    head, dirty, _ = commit.partition("-dirty")
    return head[:10] + ("-dirty" if dirty else "")


def _papers_in_order(records: list[Record]) -> list[str]:
    """Registered papers in registry order, then any other in record order."""
    order = list(PAPERS)
    keys = list(dict.fromkeys(r.paper for r in records))
    return sorted(keys, key=lambda k: order.index(k) if k in order else len(order) + keys.index(k))


def _link(record: Record, prefix: str) -> str:
    return f"[{record.id}]({prefix}{record.slug}.md)"


def _claims_table(records: list[Record], stale: set[str], prefix: str) -> Table:
    rows = []
    for r in records:
        p = r.provenance
        mark = " (stale)" if r.id in stale else ""
        rows.append(
            (
                _link(r, prefix),
                r.title,
                Verdict(r.verdict),
                r.reason + scale_mark(r) + mark,
                REGIME_MARK[r.regime.state],
                Literal(p.profile, code=True),
                Literal(short_commit(p.git_commit), code=True),
                Literal(f"{p.runtime_s:.1f}"),
            )
        )
    head = ("claim", "title", "verdict", "reason", "regime", "profile", "commit", "runtime (s)")
    return Table(head, tuple(rows), tuple(str(r.verdict) for r in records), css="claims")


def _errata(records: list[Record], prefix: str) -> list:
    """The paper's errata found: claims carrying a documented erratum, and statements that failed."""
    blocks: list = []
    errata = [r for r in records if r.erratum]
    if errata:
        rows = tuple((_link(r, prefix), Verdict(r.verdict), r.erratum.reason) for r in errata if r.erratum)
        blocks += [
            Heading(2, "Errata found"),
            para(
                "Statements of the paper shown to be wrong as printed; each is expected to fail (XFAIL) "
                "and most have a corrected claim beside it."
            ),
            Table(("claim", "verdict", "erratum"), rows),
        ]
    failed = [r for r in records if r.verdict.is_failure and not r.erratum]
    if failed:
        rows = tuple((_link(r, prefix), Verdict(r.verdict), r.reason + scale_mark(r)) for r in failed)
        blocks += [
            Heading(2, "Failed here (not a documented erratum)"),
            Table(("claim", "verdict", "reason"), rows),
        ]
    return blocks


def _provenance_line(records: list[Record]) -> str:
    profiles = Counter(r.provenance.profile for r in records)
    commits = Counter(short_commit(r.provenance.git_commit) for r in records)
    return (
        "Produced at profile "
        + ", ".join(f"`{k}` ({n} claims)" for k, n in profiles.most_common())
        + " from commit "
        + ", ".join(f"`{k}` ({n})" for k, n in commits.most_common())
        + "."
    )


def index_page(
    records: list[Record], stale: set[str], changes: dict | None = None, others: list[Companion] = ()
) -> Page:
    """The index; ``changes`` (``verdict-changes.json`` beside results.json) adds a section listing
    every verdict that changed since a named earlier run, with the reason; ``others`` (the runs at
    other profiles or on other backends, :mod:`verify.report.profiles`) a section with every run side
    by side."""
    page = Page("relu-verify: current verdicts")
    page.add(
        Heading(1, "relu-verify: current verdicts"),
        para(f"**{summary(records)}**"),
        para(_provenance_line(records) + " What each claim cost: [COST.md](COST.md)."),
        Filter(tuple(counts(records))),
    )
    if changes and changes.get("changes"):
        ids = {r.id: r for r in records}
        rows = tuple(
            (
                _link(ids[c["id"]], f"{ids[c['id']].paper}/") if c["id"] in ids else Literal(c["id"]),
                Literal(c["before"]),
                Literal(c["after"]),
                c["why"],
            )
            for c in changes["changes"]
        )
        page.add(
            Heading(2, f"Verdict changes since {changes.get('since', 'the previous run')}", anchor="changes"),
            para(changes.get("summary", "")),
            Table(("claim", "before", "after", "why"), rows),
        )
    rows = []
    for key in _papers_in_order(records):
        rs = [r for r in records if r.paper == key]
        n_errata = sum(1 for r in rs if r.erratum)
        rows.append((f"[{key}]({key}/index.md)", paper_title(key), summary(rs), Literal(str(n_errata))))
    page.add(Table(("paper", "title", "verdicts", "errata found"), tuple(rows)))
    for key in _papers_in_order(records):
        rs = [r for r in records if r.paper == key]
        page.add(
            Heading(2, f"[{key}]({key}/index.md): {paper_title(key)}", anchor=key),
            para(summary(rs)),
            _claims_table(rs, stale, f"{key}/"),
        )
    if others:
        everything = [*records, *(r for run in others for r in run.records.values())]
        page.add(*side_by_side(records, stale, others, _papers_in_order(everything)))
    page.add(
        para(
            "Verdicts: PASS (checks hold and every negative control breaks what it must), FAIL, XFAIL "
            "(documented erratum reproduced), XPASS, INCONCLUSIVE, ERROR. See the README."
        )
    )
    return page


def paper_page(key: str, records: list[Record], stale: set[str]) -> Page:
    page = Page(f"{key}: {paper_title(key)}")
    page.add(para("[index](../index.md)", css="nav"), Heading(1, f"{key}: {paper_title(key)}"))
    if key in PAPERS:
        p = PAPERS[key]
        page.add(para(", ".join(x for x in (p.authors, p.venue) if x)))
    page.add(
        para(f"**{len(records)} claims: {summary(records)}**"),
        para(_provenance_line(records)),
        *_errata(records, ""),
        Heading(2, "Claims"),
        Filter(tuple(counts(records))),
        _claims_table(records, stale, ""),
    )
    return page


def _reached(v: bool | None) -> str:
    return {True: "reached", False: "**not reached**", None: "not measured"}[v]


def _hypotheses(record: Record) -> list:
    hs = record.hypotheses
    if not hs:
        return []
    blocks: list = [Heading(2, "Hypotheses")]
    if not any(h.condition or h.measured or h.reached is not None for h in hs):
        return [*blocks, Bullets(tuple(h.wording or h.name for h in hs))]
    rows = tuple(
        (
            h.wording or h.name,
            h.condition,
            _reached(h.reached) if h.condition or h.reached is not None else "",
            h.measured,
        )
        for h in hs
    )
    blocks.append(Table(("hypothesis", "quantitative regime", "this run", "measured"), rows))
    return blocks


# how the index and a claim page mark each regime state (Regime.state); a bold mark keeps a PASS from it
REGIME_MARK = {
    "reached": "reached",
    "not reached": "**not reached**",
    "not measured": "**not measured**",
    "structural only": "structural only",
}


def _regime(record: Record) -> list:
    """``Regime: <state mark> <reason>``, the reason's own leading state words not repeated."""
    state, reason = record.regime.state, record.regime.reason
    rest = reason[len(state) :] if reason.startswith(state) else f" — {reason}"
    return [para(f"*Regime:* {REGIME_MARK[state]}{rest}")]


def _expected_and_tolerance(check: Check) -> tuple[str, str]:
    """How a check's expectation reads: ``<= bound`` for inequalities, value and tolerance otherwise."""
    for side in ("<=", ">="):
        if check.relation.startswith(f"measured {side} bound"):
            return f"{side} {fmt(check.expected)}", "(bound)"
    return fmt(check.expected), fmt(check.tolerance)


def _number(v: Any, spec: str) -> str:
    return "" if v is None else format(v, spec) if isinstance(v, int | float) else str(v)


def _checks_table(checks: list[Check], control: bool = False, declared: Sequence[Control] = ()) -> Table:
    """The checks' table; for a control's checks, the control of each row and, where the controls
    are ``declared``, whether the control must break it (a conclusion it names) or the row only
    shows what the check measures without the hypothesis (no verdict rests on it)."""
    evidence = any(c.margin is not None or c.slack is not None for c in checks)
    catches = any(c.resolution or c.power for c in checks)
    head = ["check", "kind", "measured", "expected", "tolerance"]
    head += ["margin", "slack"] if evidence else []
    head += ["outcome", "why this tolerance"] + (["would catch"] if catches else [])
    rows = []
    for c in checks:
        row: list = [c.name, c.kind, Literal(fmt(c.measured))]
        row += [Literal(x) for x in _expected_and_tolerance(c)]
        if evidence:
            row += [Literal(_number(c.margin, ".3g")), Literal(_number(c.slack, ".3g"))]
        row += [Verdict(c.verdict), c.why]
        if catches:
            row.append("; ".join(x for x in (c.resolution, c.power) if x))
        if declared:
            named = next((k.must_break for k in declared if k.label == c.control), ())
            row.insert(0, "yes" if any(matches(p, c.name) for p in named) else "no (shown only)")
        if control:
            row.insert(0, c.control.split(" [breaks:")[0])
        rows.append(tuple(row))
    head[:0] = ["control"] * control + ["must break"] * bool(declared)
    return Table(tuple(head), tuple(rows))


def _controls(record: Record) -> list:
    checks = [c for c in record.checks if c.control]
    controls = record.controls
    if not checks and not controls:
        return []
    blocks: list = [Heading(2, "Negative controls")]
    if controls:
        blocks.append(
            para(
                "Each control breaks one hypothesis; the conclusions that depend on it (its 'must "
                "break') must fail inside the control for the claim to PASS. Its other checks are shown "
                "for what they measure without the hypothesis: no verdict rests on them."
            )
        )
        rows = tuple(
            (
                k.label.split(" [breaks:")[0],
                k.breaks,
                ", ".join(k.must_break),
                ", ".join(k.broke),
                ", ".join(k.held),
                "yes" if k.ok else "**no**",
                "; ".join(k.problems),
            )
            for k in controls
        )
        head = ("control", "breaks", "must break", "broke", "held (should have broken)", "ok", "problems")
        blocks.append(Table(head, rows))
    else:
        blocks.append(para("Each control breaks a hypothesis; one of its checks must FAIL for a PASS."))
    if checks:
        blocks.append(_checks_table(checks, control=True, declared=controls))
    return blocks


def _provenance(record: Record) -> list:
    p = record.provenance
    memory = "".join(f", {k.replace('_', ' ')} {v:g} MiB" for k, v in p.peak_memory_mib.items())
    line = (
        f"seed `{p.seed}`, backend `{p.backend}` ({p.dtype}), profile `{p.profile}`, "
        f"commit `{p.git_commit}`, runtime {p.runtime_s:.2f} s, "
        f"finished {p.finished}{memory}"
    )
    if p.overrides:
        line += "; overrides " + ", ".join(f"`{k}={fmt(v)}`" for k, v in p.overrides.items())
    versions = "versions: " + ", ".join(f"{k} {v}" for k, v in p.versions.items())
    return [Heading(2, "Provenance"), para(line), para(versions)]


def claim_page(record: Record, figure_paths: list[str], stale: bool) -> Page:
    """The page of one claim; ``figure_paths`` are relative to the paper's directory."""
    key = record.paper
    page = Page(f"{record.id}: {record.title}")
    page.add(
        para(f"[index](../index.md) › [{key}](index.md) › {record.id}", css="nav"),
        Heading(1, f"{record.id}: {record.title}"),
        para("Verdict: ", Verdict(record.verdict), " — " + record.reason),
    )
    if stale:
        page.add(para("**stale**: the claim's code changed since this result was produced.", css="note"))
    page.add(
        para(f"*Source:* {record.source}; *paper:* {paper_title(key)}"),
        Heading(2, "Statement"),
        para(record.statement),
        *_hypotheses(record),
        *_regime(record),
    )
    scale = record.scale
    if scale:
        persists = " (shown to persist towards the paper's scale)" if scale.persists else ""
        page.add(para(f"*{scale.kind}:* {scale.reason}{persists}", css="note"))
    if record.erratum:
        e = record.erratum
        page.add(Heading(2, "Known erratum (expected to fail)"), para(e.reason))
        if e.via:
            page.add(para(f"*Found via:* {e.via}"))
    if record.notes:
        page.add(Heading(2, "Notes"), Bullets(record.notes))
    main = record.main_checks()
    if main:
        page.add(Heading(2, "Checks"), _checks_table(main))
    page.add(*_controls(record))
    if figure_paths:
        page.add(Heading(2, "Figures"))
        for f, path in zip(record.figures, figure_paths, strict=True):
            page.add(Image(path, f["title"]))
    if record.params:
        page.add(
            Heading(2, "Parameters"),
            para(", ".join(f"`{k}={fmt(v)}`" for k, v in record.params.items())),
        )
    if record.traceback:
        page.add(Heading(2, "Traceback"), Code(record.traceback))
    page.add(*_provenance(record))
    return page
