r"""LaTeX to MathML at build time, so formulas render in any browser without a network.

Browsers display MathML natively (MathML Core: Chromium >= 109, Firefox, Safari), so a
report needs no script or web font. The conversion is ``latex2mathml``'s, after a few
rewrites of macros it does not know (``\arg``, ``\sgn``, ``\tr``, ... become
``\operatorname{...}``). Where it cannot convert a formula -- it raises, or it passes
an unknown macro through as text (``<mi>\foo</mi>``) -- the LaTeX source is shown in a
``<code>`` element instead: readable, never silently wrong. :func:`unconverted` lists
those fallbacks so a test keeps them rare.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache

# operator names standard LaTeX (or amsmath's \DeclareMathOperator idiom) knows and latex2mathml does not
OPERATORS = ("arg", "sgn", "sign", "tr", "Tr", "diag", "rank", "supp", "argmin", "argmax", "erf", "span")
_OPERATOR = re.compile(r"\\(" + "|".join(OPERATORS) + r")(?![A-Za-z])")
_UNKNOWN = re.compile(r">\\[A-Za-z]+<")  # an unknown macro passed through as an identifier's text
_DOUBLED = re.compile(r"\\\\(?=[A-Za-z])")  # '\\alpha', as a repr() of a string shows '\alpha'


def _rewrite(latex: str) -> str:
    if "\\begin" not in latex:  # outside an environment '\\' breaks no line: it is a doubled backslash
        latex = _DOUBLED.sub(r"\\", latex)
    return _OPERATOR.sub(r"\\operatorname{\1}", latex)


@lru_cache(maxsize=4096)
def to_mathml(latex: str, display: bool = False) -> str | None:
    """MathML for ``latex`` (without its ``$`` delimiters), or ``None`` where it cannot be converted."""
    from latex2mathml.converter import convert  # imported on first use: 0.2 s the CLI need not pay

    try:
        out = convert(_rewrite(latex), display="block" if display else "inline")
    except Exception:  # latex2mathml raises many types (its own, IndexError, KeyError) on bad input
        return None
    if _UNKNOWN.search(out) or "<merror" in out:
        return None
    return out


def math_html(latex: str, display: bool = False) -> str:
    """HTML for one formula: MathML, else its source in ``<code class="tex">`` (no dollars)."""
    out = to_mathml(latex, display)
    if out is not None:
        return out
    return f'<code class="tex" title="LaTeX this page could not convert">{html.escape(latex)}</code>'


def unconverted(formulas: list[str]) -> list[str]:
    """The formulas of ``formulas`` that fall back to LaTeX source."""
    return [f for f in formulas if to_mathml(f) is None]
