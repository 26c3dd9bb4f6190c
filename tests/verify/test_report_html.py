"""The report writer: formulas as MathML, no markup leaking into HTML, navigation, the framework's fields.

Pages are rendered from the committed ``reports/results.json``, from a record with every
field of the framework filled in (hypotheses with regimes, controls with the conclusions
they must break, margin / slack / resolution / power per check) and from one with none.
"""

from __future__ import annotations

import re
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest

from verify import results
from verify.records import Control, HypothesisRecord, Record, Regime
from verify.registry import PAPERS, discover
from verify.report import render as render_module
from verify.report.inline import formulas, to_html
from verify.report.mathml import to_mathml, unconverted
from verify.report.pages import claim_page, index_page
from verify.report.render import render

COMMITTED = Path(__file__).parents[2] / "reports" / "results.json"
MAX_FALLBACKS = 2  # formulas of the committed records latex2mathml cannot convert (shown as LaTeX code)
RAW_MARKUP = re.compile(r"\$[^$]+\$|:math:|\\\||\*\w+:\*|``")


@pytest.fixture(scope="module")
def records() -> list[Record]:
    return list(results.read(COMMITTED).values())


def prose(record: Record) -> list[str]:
    """Every prose field of a record (where formulas and markup may appear)."""
    out = [record.title, record.statement, record.reason, record.source]
    out += [h.wording for h in record.hypotheses]
    out += [x for c in record.checks for x in (c.name, c.why, c.control)]
    out += record.notes
    if record.erratum:
        out += [record.erratum.reason, record.erratum.via]
    return out


class VisibleText(HTMLParser):
    """Text a reader sees: not inside script, style, title, MathML or LaTeX fallback code."""

    HIDDEN = ("script", "style", "title", "math")

    def __init__(self) -> None:
        super().__init__()
        self.depth, self.tex, self.parts = 0, 0, []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        self.depth += tag in self.HIDDEN
        self.tex += tag == "code" and a.get("class") == "tex"
        self.links += [a[k] for k in ("href", "src") if a.get(k)]

    def handle_endtag(self, tag: str) -> None:
        self.depth -= tag in self.HIDDEN
        self.tex -= tag == "code" and self.tex > 0

    def handle_data(self, data: str) -> None:
        if not self.depth and not self.tex:
            self.parts.append(data)

    @classmethod
    def of(cls, page: str) -> VisibleText:
        p = cls()
        p.feed(page)
        return p

    @property
    def text(self) -> str:
        return "".join(self.parts)


# -- formulas ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "latex",
    [r"\tfrac{1+\alpha}{2}", r"\operatorname{Tr}\Sigma", r"\mathbb{R}^d", r"w^\top x", r"\arg\min\|w\|^2"],
)
def test_common_macros_become_mathml(latex):
    out = to_mathml(latex)
    assert out is not None and out.startswith("<math") and "\\" not in out


def test_unknown_macro_falls_back_to_code_not_to_silent_text():
    assert to_mathml(r"\notamacro x") is None
    page = to_html(r"see $\notamacro x$ here")
    assert '<code class="tex"' in page and "$" not in page and "<math" not in page


def test_doubled_backslashes_from_a_repr_still_convert():
    assert to_mathml(r"\\alpha\\in[0,1]") == to_mathml(r"\alpha\in[0,1]")


def test_formula_fallbacks_stay_rare(records):
    found = sorted({f for r in records for s in prose(r) for f in formulas(s)})
    assert len(found) > 500  # the committed reports hold hundreds of distinct formulas
    failed = unconverted(found)
    assert len(failed) <= MAX_FALLBACKS, failed


# -- markup ---------------------------------------------------------------------------------------


def test_docstring_markup_becomes_elements():
    out = to_html(r"grows like :math:`\frac{\eta}{n}` (see ``numeric.flow``), *Source:* x, **bold**")
    assert "<math" in out and "<code>numeric.flow</code>" in out
    assert "<em>Source:</em>" in out and "<b>bold</b>" in out
    assert not RAW_MARKUP.search(VisibleText.of(out).text)


def test_products_and_norms_are_not_emphasis():
    out = to_html(r"Matrix 2*u**5/1600 - 3*u**2 and $\|x\|$, a*b")
    assert "<em>" not in out and "<b>" not in out and "2*u**5/1600" in out


def test_set_valued_notation_is_not_a_link():
    out = to_html("0 in K[F](theta_0), see [the index](index.md#top)")
    assert "K[F](theta_0)" in out and out.count("<a ") == 1 and 'href="index.html#top"' in out


# -- every field filled in, and none ------------------------------------------------------------


def filled_in(record: Record) -> Record:
    """``record`` with the fields of the hypothesis/control/evidence framework filled in."""
    checks = [
        replace(c, margin=0.25 + k, slack=4.0, resolution=f"a relative error > 3.2e-0{k}", power=None)
        for k, c in enumerate(record.checks)
    ]
    first = next(k for k, c in enumerate(checks) if not c.control)
    checks[first] = replace(checks[first], power="power 0.93 against P = 0.85")
    name = checks[first].name
    return replace(
        record,
        checks=tuple(checks),
        hypotheses=(
            HypothesisRecord("small init", r"$w_{\rm init}\ll1$", "w_init <= 1e-3", True, "w_init = 1e-06"),
            HypothesisRecord("plain", "a plain hypothesis", "", None, ""),
        ),
        controls=(
            Control(
                "big init [breaks: small init]",
                "small init",
                True,
                (name,),
                (),
                (name,),
                False,
                (f"held: {name}",),
            ),
        ),
        regime=Regime(False, "not reached (small init: w_init = 0.1, needs w_init <= 1e-3)"),
    )


def test_new_fields_are_shown(records):
    from verify.report.document import to_html_page

    r = filled_in(records[0])
    page = to_html_page(claim_page(r, [], stale=False))
    text = VisibleText.of(page).text
    for shown in (
        "margin",
        "slack",
        "a relative error > 3.2e-00",
        "power 0.93 against P = 0.85",
        "w_init <= 1e-3",
        "w_init = 1e-06",
        "must break",
        "held (should have broken)",
        "Regime:",
        "not reached (small init",
    ):
        assert shown in text, shown
    assert not RAW_MARKUP.search(text)


def test_a_record_without_regimes_controls_or_evidence_leaves_those_out(records):
    from verify.report.document import to_markdown

    r = records[0]
    r = replace(
        r,
        controls=(),
        hypotheses=tuple(replace(h, condition="", reached=None, measured="") for h in r.hypotheses),
        checks=tuple(replace(c, margin=None, slack=None, resolution="", power=None) for c in r.checks),
    )
    md = to_markdown(claim_page(r, [], stale=False))
    assert "## Hypotheses" in md and "| margin |" not in md and "must break" not in md


# -- whole reports --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rendered(records, tmp_path_factory):
    """Every committed record rendered (figures not drawn: those are the browser test's)."""
    discover()  # the registered papers' titles head the pages
    out = tmp_path_factory.mktemp("reports")
    mp = pytest.MonkeyPatch()
    mp.setattr(render_module, "draw_figures", lambda out_dir, jobs: None)
    try:
        render(out, records, {})  # no claims: every record shows as stale, no source hashing
    finally:
        mp.undo()
    return out


def test_no_raw_latex_or_markup_on_any_page(rendered, records):
    pages = sorted(rendered.rglob("*.html"))
    assert len(pages) == len(records) + len({r.paper for r in records}) + 2  # the index and COST
    leaks = {}
    for p in pages:
        found = RAW_MARKUP.findall(VisibleText.of(p.read_text()).text)
        if found:
            leaks[str(p.relative_to(rendered))] = found[:3]
    assert not leaks


def test_navigation_index_paper_claim_and_back(rendered, records):
    index = (rendered / "index.html").read_text()
    r = records[0]
    key, slug = r.id.split(":")
    assert f'href="{key}/index.html"' in index and f'href="{key}/{slug}.html"' in index
    paper = (rendered / key / "index.html").read_text()
    assert PAPERS[key].title in index and PAPERS[key].title in paper
    assert 'href="../index.html"' in paper and f'href="{slug}.html"' in paper
    assert "Errata found" in paper  # every committed paper has documented errata
    claim = (rendered / key / f"{slug}.html").read_text()
    assert 'href="../index.html"' in claim and 'href="index.html"' in claim
    for page in rendered.rglob("*.html"):
        for link in VisibleText.of(page.read_text()).links:
            assert "://" not in link, (page, link)  # nothing needs a network
            target = link.partition("#")[0]
            if target and not target.startswith("figures/"):  # figures: see the browser test
                assert (page.parent / target).is_file(), (page, link)


def test_index_says_profile_and_commit_and_filters_by_verdict(records):
    from verify.report.document import to_html_page

    page = to_html_page(index_page(records, stale=set()))
    commit = records[0].provenance.git_commit[:10]
    assert "<th>profile</th>" in page and "<th>commit</th>" in page and commit in page
    assert page.count('data-verdict="') == len(records)
    assert 'href="#only-FAIL"' in page and "verdictFilter" in page


def test_paper_page_lists_the_errata_found(rendered, records):
    errata = [r for r in records if r.paper == "zhang2025" and r.erratum]
    paper = (rendered / "zhang2025" / "index.html").read_text()
    section = paper.split("Errata found", 1)[1].split("<h2", 1)[0]
    assert all(f'href="{r.slug}.html"' in section for r in errata)


def test_rerender_rewrites_nothing(rendered, records, monkeypatch):
    before = {p: p.stat().st_mtime_ns for p in rendered.rglob("*") if p.is_file()}
    monkeypatch.setattr(render_module, "draw_figures", lambda out_dir, jobs: None)
    render(rendered, records, {})
    assert {p: p.stat().st_mtime_ns for p in rendered.rglob("*") if p.is_file()} == before


REGIME_STATES = {
    Regime(True, "p << n: p = 2, n = 12"): "reached — p << n: p = 2, n = 12",
    Regime(False, "not reached (p << n: p = 6, n = 12, needs p <= n / 4)"): "not reached (p << n: p = 6",
    Regime(None, "not measured: p << n"): "not measured: p << n",
    Regime(None, "no quantitative hypothesis (structural hypotheses only: h)"): "structural only — no quant",
    Regime(None, "no quantitative regime measured"): "not measured — no quantitative regime measured",
}


@pytest.mark.parametrize("regime", list(REGIME_STATES), ids=lambda r: r.state)
def test_claim_page_and_index_show_the_regime_state(records, regime):
    from verify.report.document import to_html_page, to_markdown

    r = replace(records[0], regime=regime)
    assert REGIME_STATES[regime] in VisibleText.of(to_html_page(claim_page(r, [], stale=False))).text
    index = to_markdown(index_page([r], stale=set()))
    assert "| regime |" in index
    (row,) = [line for line in index.splitlines() if line.startswith(f"| [{r.id}]")]
    bold = regime.state in ("not reached", "not measured")
    assert (f"**{regime.state}**" if bold else f" {regime.state} |") in row
