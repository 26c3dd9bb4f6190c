"""Draw the figures stored in a claim record (matplotlib, headless), legibly.

Titles are wrapped to the figure's width and laid out with constrained layout (never
clipped); each axis is labelled with its quantity (:func:`axis_labels` falls back to
the quantity the title names where a claim gave none); linear axes use scientific
offsets so long tick labels cannot run into each other; text that matplotlib's
mathtext cannot parse is shown literally instead of failing the drawing.
"""

from __future__ import annotations

import itertools
import re
import textwrap
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.axis import Axis
from matplotlib.mathtext import MathTextParser
from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullFormatter

STYLE_VERSION = 3  # part of each figure's digest in figures.json: bump to redraw every figure
WIDTH_IN, HEIGHT_IN, DPI = 6.4, 4.2, 110
TITLE_CHARS = 78  # characters per title line at 9 pt across 6.4 in
XLABEL_CHARS, YLABEL_CHARS = 80, 40  # axis-label lines at 10 pt along the axes (about 5.5 in and 3 in)
PLACEHOLDER = {"", "x", "y"}  # labels that name no quantity

# "A vs B", "A against B", "... in kappa", "... over t": the quantity the horizontal axis carries
_X_IN_TITLE = re.compile(r"(?:\bvs\.?|\bagainst|\bversus|\bin|\bover)\s+([^\s,:;()\[\]]+)")
_Y_IN_TITLE = re.compile(r"^(.+?)\s+(?:vs\.?|against|versus)\s+")
_parser = MathTextParser("path")


def _literal(text: str) -> str:
    """``text`` itself where mathtext would misread or reject it (``$`` escaped)."""
    if text.count("$") < 2:
        return text.replace("$", r"\$")
    try:
        _parser.parse(text)
    except ValueError:
        return text.replace("$", r"\$")
    return text


def axis_labels(figure: dict[str, Any]) -> tuple[str, str]:
    """(xlabel, ylabel): the stored ones, else the quantities the title names, else a description."""
    title = figure.get("title", "") or figure.get("name", "")
    x, y = figure.get("xlabel", "").strip(), figure.get("ylabel", "").strip()
    if x in PLACEHOLDER:
        found = _X_IN_TITLE.findall(title)
        x = found[-1] if found else "parameter (unlabelled by the claim)"
    if y in PLACEHOLDER:
        m = _Y_IN_TITLE.match(title)
        y = m.group(1) if m else "measured value"
    return x, y


def title_of(figure: dict[str, Any]) -> str:
    title = textwrap.fill(figure.get("title", ""), TITLE_CHARS)
    if figure.get("control"):
        title += "\n" + textwrap.fill("(control: " + figure["control"].split(" [")[0] + ")", TITLE_CHARS)
    return title


def build(figure: dict[str, Any]) -> plt.Figure:
    """The matplotlib figure of one stored figure (caller closes it)."""
    fig, ax = plt.subplots(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI, layout="constrained")
    for s in figure["series"]:
        style = s.get("style", "-")
        marker = style if style in ("o", "x", ".", "s", "^") else None
        ax.plot(
            s["x"],
            s["y"],
            linestyle="none" if marker else style,
            marker=marker,
            markersize=4,
            label=_literal(s["label"]),
        )
    if figure.get("logx"):
        ax.set_xscale("log")
    else:
        ax.xaxis.set_major_locator(MaxNLocator(nbins=6))
        ax.ticklabel_format(axis="x", style="sci", scilimits=(-3, 4), useOffset=True)
    if figure.get("logy"):
        ax.set_yscale("log")
    else:
        ax.yaxis.set_major_locator(MaxNLocator(nbins=7))
        ax.ticklabel_format(axis="y", style="sci", scilimits=(-3, 4), useOffset=True)
    xlabel, ylabel = axis_labels(figure)
    ax.set_xlabel(_literal(textwrap.fill(xlabel, XLABEL_CHARS)))
    ax.set_ylabel(_literal(textwrap.fill(ylabel, YLABEL_CHARS)))
    ax.set_title(_literal(title_of(figure)), fontsize=9)
    ax.grid(True, alpha=0.3)
    if len(figure["series"]) > 1:
        ax.legend(fontsize=7, framealpha=0.8)
    for axis in (ax.xaxis, ax.yaxis):
        lo, hi = sorted(axis.get_view_interval())
        if axis.get_scale() == "log" and lo > 0 and hi / lo < 10:  # under a decade: plain labels
            axis.set_major_formatter(FuncFormatter(_short))
            axis.set_minor_formatter(FuncFormatter(_short))
    return fig


def _short(v: float, _pos: int | None = None) -> str:
    return f"{v:.4g}"


def _overlaps(fig: plt.Figure) -> list[tuple[Axis, int]]:
    """Per axis, how many neighbouring pairs of its visible tick labels overlap, as last drawn."""
    renderer = fig.canvas.get_renderer()
    out = []
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            labels = [t for t in axis.get_ticklabels(which="both") if t.get_visible() and t.get_text()]
            boxes = sorted(
                (t.get_window_extent(renderer) for t in labels),
                key=lambda b: b.x0 if axis.axis_name == "x" else b.y0,
            )
            out.append((axis, sum(a.overlaps(b) for a, b in itertools.pairwise(boxes))))
    return out


def tick_overlaps(fig: plt.Figure) -> int:
    """How many neighbouring tick labels overlap in ``fig`` (after a layout pass)."""
    fig.draw_without_rendering()
    return sum(n for _, n in _overlaps(fig))


def _thin(fig: plt.Figure, nbins: int) -> bool:
    """Where labels collided in the last drawing: drop minor labels, then thin the major ones."""
    crowded = [axis for axis, n in _overlaps(fig) if n]
    for axis in crowded:
        if isinstance(axis.get_minor_formatter(), NullFormatter):
            if axis.get_scale() == "log":
                axis.set_major_formatter(FuncFormatter(_short))
                axis.set_major_locator(LogLocator(numticks=nbins + 1))
            else:
                axis.set_major_locator(MaxNLocator(nbins=nbins))
        axis.set_minor_formatter(NullFormatter())
    return bool(crowded)


def saved(figure: dict[str, Any], path: Path) -> plt.Figure:
    """Draw one stored figure to ``path`` (PNG), redrawn with fewer tick labels where they collide.

    Returns the open matplotlib figure as saved (the caller closes it).
    """
    fig = build(figure)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    for nbins in (4, 3, 2):
        if not _thin(fig, nbins):
            break
        fig.savefig(path)
    return fig


def draw(figure: dict[str, Any], path: Path) -> Path:
    """Render one stored figure to ``path`` (PNG)."""
    plt.close(saved(figure, path))
    return path
