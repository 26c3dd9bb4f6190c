"""A report page as a list of blocks, written out as Markdown (for the repository) and as HTML.

Both outputs come from the same blocks, so the HTML is never parsed back from
Markdown (the old way leaked ``*Source:*`` and ``\\|`` into pages). Text in blocks
is prose in the dialect of :mod:`verify.report.inline`; a :class:`Literal` is shown
as it is (numbers, SymPy output), a :class:`Verdict` as a coloured badge.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field

from verify.report.inline import html_href, normalize, to_html

BADGE = {
    "PASS": "#1a7f37",
    "FAIL": "#cf222e",
    "XFAIL": "#8250df",
    "XPASS": "#bf3989",
    "INCONCLUSIVE": "#9a6700",
    "ERROR": "#6e7781",
}


@dataclass(frozen=True)
class Literal:
    """Text shown verbatim (escaped in HTML, in a code span in Markdown when ``code``)."""

    text: str
    code: bool = False


@dataclass(frozen=True)
class Verdict:
    verdict: str


Cell = str | Literal | Verdict


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str = ""


@dataclass(frozen=True)
class Para:
    parts: tuple[Cell, ...]
    css: str = ""  # an HTML class ("nav", "note", ...)


@dataclass(frozen=True)
class Bullets:
    items: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    head: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    verdicts: tuple[str, ...] = ()  # per row: the verdict the index's filter selects on
    css: str = ""


@dataclass(frozen=True)
class Image:
    src: str
    alt: str


@dataclass(frozen=True)
class Code:
    text: str


@dataclass(frozen=True)
class Filter:
    """Links that show only the rows of one verdict (HTML only; inline script, no network)."""

    counts: tuple[tuple[str, int], ...]


Block = Heading | Para | Bullets | Table | Image | Code | Filter


def para(*parts: Cell, css: str = "") -> Para:
    return Para(tuple(parts), css)


@dataclass
class Page:
    title: str
    blocks: list[Block] = field(default_factory=list)

    def add(self, *blocks: Block) -> Page:
        self.blocks.extend(blocks)
        return self


# -- Markdown -------------------------------------------------------------------------------------


def _md(cell: Cell, in_table: bool = False) -> str:
    if isinstance(cell, Verdict):
        s = f"**{cell.verdict}**"
    elif isinstance(cell, Literal):
        s = f"`{cell.text}`" if cell.code else cell.text
    else:
        s = normalize(cell)
    return s.replace("|", "\\|").replace("\n", " ") if in_table else s


def to_markdown(page: Page) -> str:
    lines: list[str] = []
    for b in page.blocks:
        if isinstance(b, Heading):
            lines += ["#" * b.level + " " + normalize(b.text), ""]
        elif isinstance(b, Para):
            lines += ["".join(_md(p) for p in b.parts), ""]
        elif isinstance(b, Bullets):
            lines += [*(f"- {normalize(i)}" for i in b.items), ""]
        elif isinstance(b, Table):
            lines.append("| " + " | ".join(_md(h, True) for h in b.head) + " |")
            lines.append("|" + "---|" * len(b.head))
            lines += ["| " + " | ".join(_md(c, True) for c in row) + " |" for row in b.rows]
            lines.append("")
        elif isinstance(b, Image):
            lines += [f"![{b.alt}]({b.src})", ""]
        elif isinstance(b, Code):
            lines += ["```", b.text.strip(), "```", ""]
    return "\n".join(lines)


# -- HTML -----------------------------------------------------------------------------------------

STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:1200px;margin:1.5em auto;padding:0 1em;line-height:1.45}"
    "table{border-collapse:collapse;font-size:13px;margin:.5em 0}"
    "td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;text-align:left}"
    "th{background:#f6f8fa}code{background:#f3f3f3;padding:0 2px}code.tex{color:#8a4600}"
    "pre{background:#f6f8fa;padding:.6em;overflow-x:auto;font-size:12px}"
    ".badge{color:#fff;border-radius:3px;padding:0 5px;font-weight:600;font-size:12px;white-space:nowrap}"
    ".nav{font-size:14px;color:#555}.note{background:#fff8c5;padding:.4em .6em}"
    ".filter a{margin-right:.8em}.filter a.on{font-weight:700;text-decoration:none;color:#000}"
    "td.num{white-space:nowrap;font-variant-numeric:tabular-nums}"
    "img{max-width:100%;border:1px solid #eee}math{font-size:1.05em}"
)

# shows only the rows whose data-verdict matches the fragment '#only-<VERDICT>'; '#' or '#all' shows all
SCRIPT = (
    "function verdictFilter(){const h=decodeURIComponent(location.hash.slice(1));"
    "const v=h.startsWith('only-')?h.slice(5):'';"
    "for(const r of document.querySelectorAll('tr[data-verdict]'))r.hidden=v!==''&&r.dataset.verdict!==v;"
    "for(const a of document.querySelectorAll('.filter a'))"
    "a.classList.toggle('on',a.getAttribute('href')===(v?'#only-'+v:'#all'))}"
    "addEventListener('hashchange',verdictFilter);addEventListener('DOMContentLoaded',verdictFilter);"
)


def _html(cell: Cell) -> str:
    if isinstance(cell, Verdict):
        color = BADGE.get(cell.verdict, "#555")
        return f'<span class="badge" style="background:{color}">{html.escape(cell.verdict)}</span>'
    if isinstance(cell, Literal):
        text = html.escape(cell.text)
        return f"<code>{text}</code>" if cell.code else text
    return to_html(cell)


def _td(cell: Cell) -> str:
    css = ' class="num"' if isinstance(cell, Literal) else ""
    return f"<td{css}>{_html(cell)}</td>"


def to_html_page(page: Page) -> str:
    out: list[str] = []
    for b in page.blocks:
        if isinstance(b, Heading):
            anchor = f' id="{html.escape(b.anchor)}"' if b.anchor else ""
            out.append(f"<h{b.level}{anchor}>{to_html(b.text)}</h{b.level}>")
        elif isinstance(b, Para):
            css = f' class="{b.css}"' if b.css else ""
            out.append(f"<p{css}>" + "".join(_html(p) for p in b.parts) + "</p>")
        elif isinstance(b, Bullets):
            out.append("<ul>" + "".join(f"<li>{to_html(i)}</li>" for i in b.items) + "</ul>")
        elif isinstance(b, Table):
            css = f' class="{b.css}"' if b.css else ""
            rows = ["<tr>" + "".join(f"<th>{to_html(h)}</th>" for h in b.head) + "</tr>"]
            for k, row in enumerate(b.rows):
                attr = f' data-verdict="{b.verdicts[k]}"' if b.verdicts else ""
                rows.append(f"<tr{attr}>" + "".join(_td(c) for c in row) + "</tr>")
            out.append(f"<table{css}>\n" + "\n".join(rows) + "\n</table>")
        elif isinstance(b, Image):
            src = html.escape(html_href(b.src))
            out.append(f'<p><img src="{src}" alt="{html.escape(b.alt)}"></p>')
        elif isinstance(b, Code):
            out.append(f"<pre>{html.escape(b.text.strip())}</pre>")
        elif isinstance(b, Filter):
            links = ['<a href="#all">all</a>'] + [
                f'<a href="#only-{v}">{v} ({n})</a>' for v, n in b.counts if n
            ]
            out.append('<p class="filter">show: ' + " ".join(links) + "</p>")
    body = "\n".join(out)
    return (
        f"<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<meta name='viewport' content='width=device-width'><title>{html.escape(page.title)}</title>"
        f"<style>{STYLE}</style><script>{SCRIPT}</script></head><body>\n{body}\n</body></html>\n"
    )
