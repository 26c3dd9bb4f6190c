"""The generated reports in a real browser (headless Chromium, no network, no selenium).

Renders a few committed records (figures drawn) to a temporary directory, loads every
page in Chromium (``--dump-dom``: the DOM after parsing and scripts) and asserts that
no raw ``$...$`` is visible, that formulas are MathML, that every link and image
resolves to a local file, and that the verdict filter hides rows. Screenshots of the
index and of one claim page are written to the test's temporary directory for a
reviewer (their paths are printed; ``pytest -s`` shows them). Skipped where Chromium
is not installed (``.ci/run`` installs Debian's ``chromium``).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from test_report_html import COMMITTED, RAW_MARKUP, VisibleText

from verify import results
from verify.registry import discover
from verify.report.render import render

BROWSER = next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
pytestmark = pytest.mark.skipif(BROWSER is None, reason="headless Chromium is not installed")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--disable-dev-shm-usage",  # containers often have a tiny /dev/shm
]
PNG = b"\x89PNG\r\n\x1a\n"


def browse(profile: Path, url: str, *args: str) -> str:
    run = subprocess.run(
        [BROWSER, *FLAGS, f"--user-data-dir={profile}", *args, url],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return run.stdout


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """One claim of each paper (with a figure where one has one) and an erratum, figures drawn."""
    discover()  # the registered papers' titles head the pages
    records = list(results.read(COMMITTED).values())
    chosen = []
    for key in dict.fromkeys(r.paper for r in records):
        rs = [r for r in records if r.paper == key]
        chosen.append(next((r for r in rs if len(r.figures) == 1), rs[0]))
    errata = [r for r in records if r.erratum and r not in chosen]
    chosen.append(min(errata, key=lambda r: len(r.figures)))
    out = tmp_path_factory.mktemp("site")
    render(out, chosen, {})
    return out


@pytest.fixture(scope="module")
def profile(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("chromium-profile")


def test_pages_in_a_browser_show_formulas_and_resolve_every_link(site, profile):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) == 2 + 5 + 6  # the index and COST, a page per paper, the claims
    math = 0
    for page in pages:
        dom = browse(profile, page.as_uri(), "--dump-dom")
        assert "</body></html>" in dom, page  # the page loaded and parsed
        seen = VisibleText.of(dom)
        assert not RAW_MARKUP.search(seen.text), (page, RAW_MARKUP.findall(seen.text)[:3])
        math += dom.count("<math")
        for link in seen.links:
            assert "://" not in link, (page, link)
            target = link.partition("#")[0]
            if target:
                assert (page.parent / target).is_file(), (page, link)
                if target.endswith(".png"):
                    assert (page.parent / target).read_bytes()[:8] == PNG
    assert math > 20


def test_verdict_filter_hides_other_rows(site, profile):
    index = site / "index.html"
    verdicts = re.findall(r'<tr data-verdict="(\w+)"', index.read_text())
    assert len(set(verdicts)) > 1
    dom = browse(profile, index.as_uri() + "#only-XFAIL", "--dump-dom")
    rows = re.findall(r'<tr data-verdict="(\w+)"( hidden="")?>', dom)
    assert [v for v, _ in rows] == verdicts
    assert {v for v, hidden in rows if not hidden} == {"XFAIL"}
    assert all(hidden for v, hidden in rows if v != "XFAIL")


def test_screenshots_for_the_reviewer(site, profile, tmp_path):
    claim = next(p for p in sorted(site.glob("zhang2025/*.html")) if p.name != "index.html")
    for name, page, height in (("index", site / "index.html", 1400), ("claim", claim, 2400)):
        shot = tmp_path / f"{name}.png"
        browse(profile, page.as_uri(), f"--screenshot={shot}", f"--window-size=1280,{height}")
        assert shot.read_bytes()[:8] == PNG and shot.stat().st_size > 20_000
        print(f"screenshot of {page.relative_to(site)}: {shot}")
