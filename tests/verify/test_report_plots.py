"""Report figures are legible: titles inside the figure, axes named for their quantity, no tick collisions.

Drawn from figures stored in the committed ``reports/results.json``: the ones with the
longest titles and y labels, with no usable axis label, with a control line, and with
log axes spanning less than a decade (where matplotlib's default minor labels collide).
"""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib.pyplot as plt
import pytest

from verify.report.plots import PLACEHOLDER, axis_labels, saved, tick_overlaps

COMMITTED = Path(__file__).parents[2] / "reports" / "results.json"


def _stored() -> list[tuple[str, dict]]:
    records = json.loads(COMMITTED.read_text())["claims"]
    return [(f"{r['id']}#{k}", f) for r in records for k, f in enumerate(r.get("figures", []))]


def _narrow_log(f: dict) -> bool:
    ys = [y for s in f["series"] for y in s["y"] if isinstance(y, int | float) and y > 0]
    return bool(f.get("logy") and ys and max(ys) / min(ys) < 10)


def _sample() -> list[tuple[str, dict]]:
    figures = _stored()
    longest = sorted(figures, key=lambda x: -len(x[1]["title"]))[:3]
    unlabelled = [x for x in figures if x[1]["xlabel"].strip() in PLACEHOLDER][:3]
    narrow = [x for x in figures if _narrow_log(x[1])][:3]
    control = [x for x in figures if x[1].get("control")][:2]
    long_y = sorted(figures, key=lambda x: -len(x[1]["ylabel"]))[:2]
    return list(dict(longest + unlabelled + narrow + control + long_y).items())


@pytest.mark.parametrize(("name", "figure"), _sample(), ids=lambda v: v if isinstance(v, str) else "")
def test_stored_figure_is_legible(name, figure, tmp_path):
    fig = saved(figure, tmp_path / "f.png")
    try:
        assert tick_overlaps(fig) == 0
        box = fig.bbox
        ax = fig.axes[0]
        renderer = fig.canvas.get_renderer()
        for text in (ax.title, ax.xaxis.label, ax.yaxis.label):
            extent = text.get_window_extent(renderer)
            assert text.get_text() and box.x0 <= extent.x0 and extent.x1 <= box.x1, text.get_text()
            assert box.y0 <= extent.y0 and extent.y1 <= box.y1, text.get_text()
        assert ax.get_xlabel().strip() not in PLACEHOLDER and ax.get_ylabel().strip() not in PLACEHOLDER
    finally:
        plt.close(fig)


@pytest.mark.parametrize(
    ("title", "xlabel", "ylabel", "expected"),
    [
        ("max_tau |psi/delta - phi| against delta", "x", "error", ("delta", "error")),
        ("threshold N(d, p = 30) vs d: log-log order 1", "x", "N", ("d", "N")),
        ("(5.11): relative error grows linearly in kappa = R^-2 p n", "x", "error", ("kappa", "error")),
        ("1 - cos(w, v) vs t [logistic]", "(a+1) t / 2", "", ("(a+1) t / 2", "1 - cos(w, v)")),
        ("a figure naming nothing", "", "", ("parameter (unlabelled by the claim)", "measured value")),
    ],
)
def test_axis_labels_fall_back_to_the_quantity_the_title_names(title, xlabel, ylabel, expected):
    assert axis_labels({"title": title, "xlabel": xlabel, "ylabel": ylabel}) == expected
