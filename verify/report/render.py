"""Render reports from stored results: ``index.md``, ``index.html`` and one page per claim.

Everything here reads ``results.json`` only, so ``verify report`` can redraw the
reports (figures included) without running anything.  A record whose claim source
changed since it was produced is marked stale.
"""

from __future__ import annotations

import hashlib
import html
import json
import multiprocessing
import os
import re
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from verify.claim import Claim
from verify.registry import PAPERS

BADGE = {
    "PASS": "#1a7f37",
    "FAIL": "#cf222e",
    "XFAIL": "#8250df",
    "XPASS": "#bf3989",
    "INCONCLUSIVE": "#9a6700",
    "ERROR": "#6e7781",
}


def _fmt(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, list | tuple):  # a tuple in a fresh run is a list once read back from JSON
        return "[" + ", ".join(_fmt(x) for x in v[:6]) + (", ..." if len(v) > 6 else "") + "]"
    return str(v)


def _expected_and_tolerance(check: dict[str, Any]) -> tuple[str, str]:
    """How a check's expectation reads: ``<= bound`` for inequalities, value and tolerance otherwise."""
    relation = check.get("relation", "")
    for side in ("<=", ">="):
        if relation.startswith(f"measured {side} bound"):
            return f"{side} {_fmt(check['expected'])}", "(bound)"
    return _fmt(check["expected"]), _fmt(check["tolerance"])


def _cell(v: Any) -> str:
    return _fmt(v).replace("|", "\\|").replace("\n", " ")


def _stale(record: dict[str, Any], claims: dict[str, Claim]) -> bool:
    c = claims.get(record["id"])
    return c is None or c.source_hash != record["provenance"].get("source_hash")


def claim_page(record: dict[str, Any], figure_paths: list[str], stale: bool) -> str:
    """Markdown page of one claim."""
    p = record["provenance"]
    lines = [
        f"# {record['id']}: {record['title']}",
        "",
        f"**Verdict: {record['verdict']}** — {record['reason']}",
        "",
    ]
    if stale:
        lines += ["> **stale**: the claim's code changed since this result was produced.", ""]
    lines += [
        f"*Source:* {record['source']}  ",
        f"*Paper:* {PAPERS[record['paper']].title if record['paper'] in PAPERS else record['paper']}",
        "",
        "## Statement",
        "",
        record["statement"],
        "",
        "## Hypotheses",
        "",
        *[f"- {h}" for h in record["hypotheses"]],
        "",
    ]
    if record.get("erratum"):
        e = record["erratum"]
        lines += ["## Known erratum (expected to fail)", "", e["reason"], ""]
        if e.get("via"):
            lines += [f"*Found via:* {e['via']}", ""]
    if record.get("notes"):
        lines += ["## Notes", "", *[f"- {n}" for n in record["notes"]], ""]
    for title, control in (("Checks", False), ("Negative controls", True)):
        rows = [c for c in record["checks"] if bool(c["control"]) == control]
        if not rows:
            continue
        lines += [f"## {title}", ""]
        if control:
            lines += [
                "Each control breaks a hypothesis; at least one of its checks must FAIL "
                "for the claim to PASS.",
                "",
            ]
        head = "| check | kind | measured | expected | tolerance | outcome | why this tolerance |"
        if control:
            head = "| control | " + head[2:]
        lines += [head, "|" + "---|" * (head.count("|") - 1)]
        for c in rows:
            cells = [c["name"], c["kind"], c["measured"], *_expected_and_tolerance(c), c["verdict"], c["why"]]
            if control:
                cells = [c["control"], *cells]
            lines.append("| " + " | ".join(_cell(x) for x in cells) + " |")
        lines.append("")
    if figure_paths:
        lines += ["## Figures", ""]
        for f, path in zip(record["figures"], figure_paths, strict=True):
            lines += [f"![{f['title']}]({path})", ""]
    if record.get("params"):
        lines += [
            "## Parameters",
            "",
            ", ".join(f"`{k}={_fmt(v)}`" for k, v in record["params"].items()),
            "",
        ]
    if record.get("traceback"):
        lines += ["## Traceback", "", "```", record["traceback"].strip(), "```", ""]
    lines += [
        "## Provenance",
        "",
        f"seed `{p['seed']}`, backend `{p['backend']}` ({p.get('dtype', '')}), profile `{p['profile']}`, "
        f"commit `{p['git_commit']}`, runtime {p['runtime_s']:.2f} s, finished {p.get('finished', '')}"
        + "".join(f", {k.replace('_', ' ')} {v:g} MiB" for k, v in p.get("peak_memory_mib", {}).items())
        + "  ",
        "versions: " + ", ".join(f"{k} {v}" for k, v in p["versions"].items()),
        "",
    ]
    return "\n".join(lines)


def _summary(records: list[dict[str, Any]]) -> str:
    counts = Counter(r["verdict"] for r in records)
    return ", ".join(f"{counts[v]} {v}" for v in BADGE if counts[v])


def index_markdown(records: list[dict[str, Any]], stale: set[str]) -> str:
    lines = ["# relu-verify: current verdicts", "", f"**{_summary(records)}**", ""]
    for key in sorted(
        {r["paper"] for r in records}, key=lambda k: list(PAPERS).index(k) if k in PAPERS else 99
    ):
        rs = [r for r in records if r["paper"] == key]
        title = PAPERS[key].title if key in PAPERS else key
        lines += [
            f"## {key}: {title}",
            "",
            _summary(rs),
            "",
            "| claim | title | verdict | reason | runtime (s) |",
            "|---|---|---|---|---|",
        ]
        for r in rs:
            mark = " (stale)" if r["id"] in stale else ""
            link = f"[{r['id']}]({key}/{r['id'].split(':', 1)[1]}.md)"
            lines.append(
                f"| {link} | {_cell(r['title'])} | **{r['verdict']}**{mark} | {_cell(r['reason'])} "
                f"| {r['provenance']['runtime_s']:.1f} |"
            )
        lines.append("")
    p = records[0]["provenance"] if records else None
    if p:
        lines += [
            "## Provenance",
            "",
            f"profile `{p['profile']}`, backend `{p['backend']}`, seed `{p['seed']}`, "
            f"commit `{p['git_commit']}`; versions: "
            + ", ".join(f"{k} {v}" for k, v in p["versions"].items()),
            "",
        ]
    lines += [
        "Verdicts: PASS (checks hold and every negative control fails), FAIL, XFAIL "
        "(documented erratum reproduced), XPASS, INCONCLUSIVE, ERROR. See README.",
        "",
    ]
    return "\n".join(lines)


def _md_inline(text: str) -> str:
    text = html.escape(text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    text = re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r'<a href="\2">\1</a>', text)
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", text)


def markdown_to_html(md: str, title: str) -> str:
    """A small renderer for the markdown this module writes (headings, tables, images, lists)."""
    out, in_table = [], False
    for line in md.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            if set(line) <= set("|-"):
                continue
            if not in_table:
                out.append("<table>")
                in_table = True
                out.append("<tr>" + "".join(f"<th>{_md_inline(c)}</th>" for c in cells) + "</tr>")
                continue
            row = "".join(f"<td>{_badge(c)}</td>" for c in cells)
            out.append(f"<tr>{row}</tr>")
            continue
        if in_table:
            out.append("</table>")
            in_table = False
        if m := re.match(r"^(#+) (.*)", line):
            n = len(m.group(1))
            out.append(f"<h{n}>{_md_inline(m.group(2))}</h{n}>")
        elif m := re.match(r"!\[(.*)\]\((.*)\)", line):
            out.append(f'<p><img src="{m.group(2)}" alt="{html.escape(m.group(1))}"></p>')
        elif line.startswith("- "):
            out.append(f"<li>{_md_inline(line[2:])}</li>")
        elif line.startswith("```"):
            continue
        elif line.strip():
            out.append(f"<p>{_badge(line)}</p>")
    if in_table:
        out.append("</table>")
    style = (
        "body{font-family:sans-serif;max-width:1100px;margin:2em auto;line-height:1.4}"
        "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;"
        "padding:3px 6px;vertical-align:top}code{background:#f3f3f3}"
    )
    body = "\n".join(out)
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{style}</style></head><body>\n{body}\n</body></html>\n"
    )


def _badge(text: str) -> str:
    s = _md_inline(text)
    for v, color in BADGE.items():
        s = s.replace(f"<b>{v}</b>", f'<b style="color:{color}">{v}</b>')
    return s


def write_if_changed(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` unless it already holds exactly that (a re-run leaves files untouched)."""
    if not (path.is_file() and path.read_text() == text):
        path.write_text(text)


def render(out_dir: Path, records: list[dict[str, Any]], claims: dict[str, Claim]) -> list[Path]:
    """Write index.md, index.html and one page (md + html) per claim, with figures."""
    out_dir = Path(out_dir)
    written = []
    stale = {r["id"] for r in records if _stale(r, claims)}
    jobs: list[tuple[dict[str, Any], Path]] = []
    for r in records:
        paper_dir = out_dir / r["paper"]
        paper_dir.mkdir(parents=True, exist_ok=True)
        slug = r["id"].split(":", 1)[1]
        fig_paths = []
        for k, f in enumerate(r.get("figures", [])):
            rel = f"figures/{slug}-{k}.png"
            jobs.append((f, paper_dir / rel))
            fig_paths.append(rel)
        md = claim_page(r, fig_paths, r["id"] in stale)
        write_if_changed(paper_dir / f"{slug}.md", md)
        write_if_changed(paper_dir / f"{slug}.html", markdown_to_html(md.replace(".md)", ".html)"), r["id"]))
        written.append(paper_dir / f"{slug}.md")
    draw_figures(out_dir, jobs)
    md = index_markdown(records, stale)
    write_if_changed(out_dir / "index.md", md)
    write_if_changed(out_dir / "index.html", markdown_to_html(md.replace(".md)", ".html)"), "relu-verify"))
    written += [out_dir / "index.md", out_dir / "index.html"]
    return written


FIGURE_MANIFEST = "figures.json"


def draw_figures(out_dir: Path, jobs: list[tuple[dict[str, Any], Path]]) -> None:
    """Draw the figures whose data changed since the last rendering, on all cores.

    ``<out>/figures.json`` maps each PNG to the SHA-256 of the data it was drawn from,
    so re-rendering unchanged results redraws nothing.
    """
    from verify.report.plots import draw  # matplotlib is imported only when drawing

    manifest_path = out_dir / FIGURE_MANIFEST
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    todo = []
    for figure, path in jobs:
        key = str(path.relative_to(out_dir))
        digest = hashlib.sha256(json.dumps(figure, sort_keys=True).encode()).hexdigest()[:16]
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
