"""Render reports from stored results: the index, one page per paper and one per claim (Markdown + HTML).

Everything here reads ``results.json`` only, so ``verify report`` can redraw the
reports (figures included) without running anything.  A record whose claim source
changed since it was produced is marked stale. The pages are built in
:mod:`verify.report.pages` and written by :mod:`verify.report.document`; formulas
become MathML at build time (:mod:`verify.report.mathml`), so the HTML needs no network.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from verify.claim import Claim
from verify.records import Record
from verify.report.cost import cost_page, read_notes
from verify.report.document import BADGE, Page, to_html_page, to_markdown
from verify.report.pages import claim_page, index_page, paper_page
from verify.report.profiles import load_companions

__all__ = ["BADGE", "render"]


def _stale(record: Record, claims: dict[str, Claim]) -> bool:
    c = claims.get(record.id)
    return c is None or c.source_hash != record.provenance.source_hash


def write_if_changed(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` unless it already holds exactly that (a re-run leaves files untouched)."""
    if not (path.is_file() and path.read_text() == text):
        path.write_text(text)


def _write_page(page: Page, md_path: Path) -> None:
    """``page`` as ``<name>.md`` and ``<name>.html`` side by side."""
    write_if_changed(md_path, to_markdown(page))
    write_if_changed(md_path.with_suffix(".html"), to_html_page(page))


def render(out_dir: Path, records: list[Record], claims: dict[str, Claim]) -> list[Path]:
    """Write the index, a page per paper and a page per claim (md + html each), with figures, and
    the run's cost (``COST.md``, :mod:`verify.report.cost`)."""
    out_dir = Path(out_dir)
    written = []
    stale = {r.id for r in records if _stale(r, claims)}
    jobs: list[tuple[dict[str, Any], Path]] = []
    papers: dict[str, list[Record]] = {}
    for r in records:
        papers.setdefault(r.paper, []).append(r)
        paper_dir = out_dir / r.paper
        paper_dir.mkdir(parents=True, exist_ok=True)
        fig_paths = []
        for k, f in enumerate(r.figures):
            rel = f"figures/{r.slug}-{k}.png"
            jobs.append((f, paper_dir / rel))
            fig_paths.append(rel)
        _write_page(claim_page(r, fig_paths, r.id in stale), paper_dir / f"{r.slug}.md")
        written.append(paper_dir / f"{r.slug}.md")
    for key, rs in papers.items():
        _write_page(paper_page(key, rs, stale), out_dir / key / "index.md")
        written.append(out_dir / key / "index.md")
    draw_figures(out_dir, jobs)
    changes_file = out_dir / CHANGES_FILE
    changes = json.loads(changes_file.read_text()) if changes_file.exists() else None
    others = load_companions(out_dir, lambda r: _stale(r, claims))
    _write_page(index_page(records, stale, changes, others), out_dir / "index.md")
    _write_page(cost_page(records, stale, list(claims), read_notes(out_dir)), out_dir / "COST.md")
    written += [out_dir / name for name in ("index.md", "index.html", "COST.md", "COST.html")]
    return written


FIGURE_MANIFEST = "figures.json"
CHANGES_FILE = "verdict-changes.json"  # optional: {"since", "summary", "changes": [{id, before, after, why}]}


def draw_figures(out_dir: Path, jobs: list[tuple[dict[str, Any], Path]]) -> None:
    """Draw the figures whose data changed since the last rendering, on all cores.

    ``<out>/figures.json`` maps each PNG to the SHA-256 of the data it was drawn from
    and of the drawing code's version, so re-rendering unchanged results redraws nothing.
    """
    from verify.report.plots import STYLE_VERSION, draw  # matplotlib is imported only when drawing

    manifest_path = out_dir / FIGURE_MANIFEST
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    todo = []
    for figure, path in jobs:
        key = str(path.relative_to(out_dir))
        data = json.dumps([STYLE_VERSION, figure], sort_keys=True).encode()
        digest = hashlib.sha256(data).hexdigest()[:16]
        if manifest.get(key) != digest or not path.exists():
            todo.append((figure, path))
        manifest[key] = digest
    workers = min(os.cpu_count() or 1, 4)
    if len(todo) > 8 and workers > 1:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            list(pool.map(draw, *zip(*todo, strict=True), chunksize=4))
    else:
        for figure, path in todo:
            draw(figure, path)
    write_if_changed(manifest_path, json.dumps(manifest, indent=0, sort_keys=True))
