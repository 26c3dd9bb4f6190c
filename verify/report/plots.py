"""Draw the figures stored in a claim record (matplotlib, headless)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def draw(figure: dict[str, Any], path: Path) -> Path:
    """Render one stored figure to ``path`` (PNG)."""
    fig, ax = plt.subplots(figsize=(5.6, 3.8), dpi=110)
    for s in figure["series"]:
        style = s.get("style", "-")
        marker = style if style in ("o", "x", ".", "s", "^") else None
        ax.plot(
            s["x"],
            s["y"],
            linestyle="none" if marker else style,
            marker=marker,
            markersize=4,
            label=s["label"],
        )
    if figure.get("logx"):
        ax.set_xscale("log")
    if figure.get("logy"):
        ax.set_yscale("log")
    ax.set_xlabel(figure.get("xlabel", ""))
    ax.set_ylabel(figure.get("ylabel", ""))
    title = figure.get("title", "")
    if figure.get("control"):
        title += "\n(control: " + figure["control"].split(" [")[0] + ")"
    ax.set_title(title, fontsize=9)
    ax.grid(True, alpha=0.3)
    if len(figure["series"]) > 1:
        ax.legend(fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path
