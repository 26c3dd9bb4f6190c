r"""Prose fields of a record (statements, hypotheses, reasons, derivations) as HTML or Markdown.

The prose comes from claim docstrings and arguments, so it mixes conventions:
``$...$`` and ``$$...$$`` formulas, reStructuredText roles (``:math:`...```) and literals
(````...````), Markdown code, ``**bold**``, ``*emphasis*`` and links, and docstring line
breaks with indentation. :func:`normalize` reduces all of it to one Markdown dialect
(formulas in dollars) and :func:`to_html` turns that into HTML, formulas as MathML
(:mod:`verify.report.mathml`), so no markup reaches a reader as text.
"""

from __future__ import annotations

import html
import re

from verify.report.mathml import math_html

_ROLE_MATH = re.compile(r":math:`([^`]+)`")
_RST_LITERAL = re.compile(r"``([^`]+)``")
_BREAK = re.compile(r"[ \t]*\n[ \t]*")

# one token per alternative, scanned left to right: a formula opened first wins over emphasis inside it
_TOKEN = re.compile(
    r"\$\$(?P<display>.+?)\$\$"
    r"|\$(?P<math>[^$]+?)\$"
    r"|`(?P<code>[^`]+)`"
    r"|\*\*(?P<bold>[^*$]+?)\*\*"
    r"|(?<![\w*\\])\*(?P<em>[^\s*$](?:[^*$]*[^\s*$])?)\*(?![\w*])"
    # a link's target names a page, a fragment or a URL: ``K[F](theta_0)`` is notation, not a link
    r"|\[(?P<text>[^\]]+)\]\((?P<href>[^)\s]*[./#][^)\s]*)\)",
    re.S,
)
FORMULA = re.compile(r"\$\$(.+?)\$\$|\$([^$]+?)\$", re.S)


def normalize(text: str) -> str:
    """One dialect: ``:math:`x``` -> ``$x$``, ````x```` -> ```x```, docstring line breaks -> spaces."""
    text = _ROLE_MATH.sub(lambda m: f"${m.group(1)}$", text)
    text = _RST_LITERAL.sub(r"`\1`", text)
    return _BREAK.sub(" ", text)


def html_href(href: str) -> str:
    """A link between Markdown pages, pointed at the HTML page beside it."""
    if "://" in href:
        return href
    path, sep, frag = href.partition("#")
    return (path[:-3] + ".html" if path.endswith(".md") else path) + sep + frag


def to_html(text: str) -> str:
    """HTML of one prose field (escaped; formulas as MathML; code, emphasis and links as elements)."""
    text = normalize(text)
    out, pos = [], 0
    for m in _TOKEN.finditer(text):
        out.append(html.escape(text[pos : m.start()]))
        pos = m.end()
        kind = m.lastgroup
        if kind == "href":
            out.append(f'<a href="{html.escape(html_href(m["href"]))}">{to_html(m["text"])}</a>')
        elif kind == "display":
            out.append(math_html(m["display"], display=True))
        elif kind == "math":
            out.append(math_html(m["math"]))
        elif kind == "code":
            out.append(f"<code>{html.escape(m['code'])}</code>")
        elif kind == "bold":
            out.append(f"<b>{to_html(m['bold'])}</b>")
        else:
            out.append(f"<em>{to_html(m['em'])}</em>")
    out.append(html.escape(text[pos:]))
    return "".join(out)


def formulas(text: str) -> list[str]:
    """The LaTeX of every formula in a prose field (after :func:`normalize`)."""
    return [a or b for a, b in FORMULA.findall(normalize(text))]
