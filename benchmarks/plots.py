"""PNG plots of a benchmark run (Matplotlib, Agg backend): work-precision and scaling."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def _figure():
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    fig.subplots_adjust(left=0.16, right=0.97, bottom=0.12, top=0.92)
    return fig, ax


def _save(fig, path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path.name


def work_precision(size: dict, path: Path) -> str:
    """Time vs achieved error: ours per B (solid), the solve_ivp loop scaled to B (dashed),
    ours with the comparison method at the largest B (dotted)."""
    fig, ax = _figure()
    ivp = size["ivp"]["points"]
    method = size.get("method", "dopri5").upper()
    for i, (B, entry) in enumerate(size["ours"].items()):
        color = f"C{i}"
        pts = entry["points"]
        ax.loglog(
            [p["error_median"] for p in pts],
            [p["seconds"] for p in pts],
            "o-",
            color=color,
            label=f"ours {method}, B={B}",
        )
        ax.loglog(
            [p["error_median"] for p in ivp],
            [p["seconds_per_member"] * int(B) for p in ivp],
            "s--",
            color=color,
            alpha=0.7,
            label=f"solve_ivp DOP853 loop x{B}",
        )
    gain = size.get("method_gain")
    if gain:
        pts = gain["points"]
        ax.loglog(
            [p["error_median"] for p in pts],
            [p["seconds"] for p in pts],
            "^:",
            color="k",
            label=f"ours {gain['other'].upper()}, B={gain['B']}",
        )
    n, d, m = size["size"]
    ax.set_xlabel("achieved error (median relative, at T)")
    ax.set_ylabel("wall time (s)")
    ax.set_title(f"gradient flow, (n, d, m) = ({n}, {d}, {m})")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    return _save(fig, path)


def scaling_B(series: list[tuple[str, list[float], list[float], float]], path: Path) -> str:
    """Wall time vs ensemble size B, log-log, one line per benchmark with its exponent."""
    fig, ax = _figure()
    for label, xs, ts, k in series:
        ax.loglog(xs, ts, "o-", label=f"{label}: time ~ B^{k:.2f}")
    ax.set_xlabel("ensemble size B")
    ax.set_ylabel("wall time (s)")
    ax.set_title("time vs B (ours)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    return _save(fig, path)


def scaling_size(vs_size: dict, path: Path) -> str:
    """Gradient-flow wall time vs n = d = m at fixed B, ours and the solve_ivp loop."""
    fig, ax = _figure()
    ns = vs_size["n"]
    ko, ki = vs_size["fit_ours"]["exponent"], vs_size["fit_ivp"]["exponent"]
    ax.loglog(ns, vs_size["ours_s"], "o-", label=f"ours: time ~ n^{ko:.2f}")
    ax.loglog(ns, vs_size["ivp_loop_s"], "s--", label=f"solve_ivp loop: time ~ n^{ki:.2f}")
    ax.set_xlabel("n = d = m")
    ax.set_ylabel("wall time (s)")
    ax.set_title(f"gradient flow, B = {vs_size['B']}")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    return _save(fig, path)


def per_member_step(rows: list[dict], title: str, path: Path) -> str:
    """Seconds per member-step: ours vs B, and each PyTorch loop as a horizontal line."""
    fig, ax = _figure()
    ours = [r for r in rows if r["method"] == "ours"]
    xs = [r["B"] for r in ours]
    ax.loglog(xs, [r["seconds_per_member_step"] for r in ours], "o-", label="ours (batched)")
    for i, r in enumerate(r for r in rows if r["method"] != "ours"):
        ax.axhline(
            r["seconds_per_member_step"], color=f"C{i + 1}", ls="--", label=f"{r['method']} (1 net at a time)"
        )
    ax.set_xlabel("ensemble size B")
    ax.set_ylabel("seconds per member-step")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    return _save(fig, path)
