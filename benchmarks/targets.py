"""The issue's performance targets, evaluated against one run's results.

Each target yields a row: what is required, what was measured, PASS / MISS / "not
measured", and, for a miss, by how much. CPU rows are evaluated; GPU rows are listed
as not measured when the run had no GPU. "Time linear in B" is read as: the fitted
exponent of wall time against ensemble size is at most ``1 + LINEAR_SLACK`` (a
smaller exponent means batching amortises fixed costs, which is better than linear).
"""

from __future__ import annotations

import math

LINEAR_SLACK = 0.1
FLOW_RATIO = 20.0
TORCH_RATIO = 3.0
FLOW_MIN_B = 256
GPU_ROWS = (
    "GPU: ensemble GF vs solve_ivp loop",
    "GPU: long GD vs PyTorch (CUDA) loop",
    "GPU: probability estimate vs PyTorch (CUDA) loop",
)


def _row(
    target: str, required: str, measured: float | None, ok: bool | None, detail: str, status: str = ""
) -> dict:
    status = status or ("not measured" if ok is None else ("PASS" if ok else "MISS"))
    return {"target": target, "required": required, "measured": measured, "status": status, "detail": detail}


def matched_at_large_B(size_entry: dict) -> list[tuple[int, dict]]:
    """``(B, matched row)`` of one size's matched-accuracy comparisons with ``B >= 256``."""
    return [
        (int(B), r)
        for B, rows in size_entry["matched"].items()
        if int(B) >= FLOW_MIN_B
        for r in rows
        if r["ratio"] is not None and math.isfinite(r["ratio"])
    ]


def flow_targets(flow: dict | None) -> list[dict]:
    """>= 20x faster than the solve_ivp loop at matched accuracy, B >= 256: one row per
    network size run with such a B (the issue says "small networks" without a size, so
    every measured size is reported and none is dropped)."""
    name = "ensemble GF vs solve_ivp loop (matched accuracy, B >= 256, {})"
    required = f">= {FLOW_RATIO:g}x"
    if not flow:
        return [_row(name.format("small nets"), required, None, None, "benchmark not run")]
    rows = []
    for s in flow["sizes"]:
        cands = matched_at_large_B(s)
        label = name.format("x".join(map(str, s["size"])))
        if not cands:
            continue
        worst_B, worst = min(cands, key=lambda br: br[1]["ratio"])
        best = max(r["ratio"] for _, r in cands)
        ok = worst["ratio"] >= FLOW_RATIO
        detail = f"worst {worst['ratio']:.2f}x at error {worst['error']:.0e} (B={worst_B}), best {best:.2f}x"
        if not ok:
            detail += f"; short by a factor {FLOW_RATIO / worst['ratio']:.2f}"
        rows.append(_row(label, required, worst["ratio"], ok, detail))
    return rows or [_row(name.format("small nets"), required, None, None, f"no B >= {FLOW_MIN_B} measured")]


def kink_targets(kinks: dict | None) -> list[dict]:
    """Issue 18: >= 20x the solve_ivp loop at matched accuracy for B >= 256 on orthogonal data,
    with events. One row per size; a method's ratio is its worst over the shared error levels,
    and the row is judged on the better of the two event methods (DOPRI5, DOP853): a user
    picks one; the other method and the engine without events are in the detail."""
    name = "kinked GF (orthogonal data) with events vs solve_ivp loop (matched accuracy, B >= 256, {})"
    required = f">= {FLOW_RATIO:g}x"
    if not kinks:
        return [_row(name.format("8x8x8, 20x20x20"), required, None, None, "benchmark not run")]
    rows = []
    for s in kinks["sizes"]:
        label = name.format("x".join(map(str, s["size"])))
        if s["B"] < FLOW_MIN_B:
            rows.append(_row(label, required, None, None, f"B = {s['B']} < {FLOW_MIN_B}"))
            continue
        worst = {}
        for alt, entry in s["alternatives"].items():
            ratios = [
                r["ratio"] for r in entry["matched"] if r["ratio"] is not None and math.isfinite(r["ratio"])
            ]
            worst[alt] = min(ratios) if ratios else None
        events = {k: v for k, v in worst.items() if k.startswith("events") and v is not None}
        detail = ", ".join(f"{k}: {'-' if v is None else f'{v:.2f}x'}" for k, v in worst.items())
        if not events:
            rows.append(_row(label, required, None, None, "no shared error level; " + detail))
            continue
        best = max(events.values())
        ok = best >= FLOW_RATIO
        if not ok:
            detail += f"; short by a factor {FLOW_RATIO / best:.2f}"
        rows.append(_row(label, required, best, ok, "worst over error levels; " + detail))
    return rows


def torch_target(name: str, ratios: list[dict] | None, use: str, also: str = "") -> dict:
    """>= 3x faster than the PyTorch per-run loop; ``ratios`` from the benchmark, the
    slowest ratio (the fastest PyTorch variant) counts; ``use`` says which ours-row is
    compared, ``also`` adds context to the detail."""
    if not ratios:
        return _row(name, f">= {TORCH_RATIO:g}x", None, None, "PyTorch not importable or benchmark not run")
    by_torch: dict[str, float] = {}
    for r in ratios:
        by_torch[r["torch"]] = max(by_torch.get(r["torch"], 0.0), r["ratio"])
    fastest, ratio = min(by_torch.items(), key=lambda kv: kv[1])
    ok = ratio >= TORCH_RATIO
    others = ", ".join(f"{k}: {v:.2f}x" for k, v in by_torch.items())
    detail = f"worst vs {fastest}; {others}; ours = {use}{also}"
    if not ok:
        detail += f"; short by a factor {TORCH_RATIO / ratio:.2f}"
    return _row(name, f">= {TORCH_RATIO:g}x", ratio, ok, detail)


def _gd_target(gd: dict | None) -> dict:
    """Long GD: each PyTorch loop against ours at the same precision (float64 vs float64,
    float32 vs float32, largest B); ours in float64 against the fastest loop at any
    precision is reported beside it. (Results from before ``same_precision`` existed are
    judged the old way, ours float64 against the fastest loop.)"""
    name = "long GD (kou2023) vs PyTorch SGD loop, same precision"
    if not gd or not gd.get("ratios"):
        return torch_target(name, None, "")
    B_max = max(x["B"] for x in gd["ratios"])
    cross = [r for r in gd["ratios"] if r["B"] == B_max]
    if "same_precision" not in gd:
        return torch_target(name, cross, "float64, largest B, per member-step")
    worst_cross = min(r["ratio"] for r in cross)
    return torch_target(
        name,
        gd["same_precision"],
        "the loop's precision, largest B, per member-step",
        f"; ours float64 vs the fastest loop at any precision: {worst_cross:.2f}x",
    )


def linear_target(name: str, fit: dict | None) -> dict:
    if not fit or not math.isfinite(fit.get("exponent", math.nan)):
        return _row(name, f"exponent <= {1 + LINEAR_SLACK:g}", None, None, "fewer than two ensemble sizes")
    k = fit["exponent"]
    ok = k <= 1 + LINEAR_SLACK
    return _row(name, f"exponent <= {1 + LINEAR_SLACK:g}", k, ok, f"time ~ B^{k:.2f} (r2 {fit['r2']:.3f})")


def ncf_row(ncf: dict | None) -> dict:
    """Benchmark 4 has no numeric target in issue 7: report the batched-vs-loop ratios."""
    name = "NCF restarts (kumar2025): batched vs loop over restarts"
    if not ncf:
        return _row(name, "-", None, None, "benchmark not run")
    by = {r["vs"]: r["ratio"] for r in ncf["ratios"]}
    loop = by.get("loop numpy float64")
    detail = (
        ", ".join(f"vs {k}: {v:.2f}x" for k, v in by.items()) + f"; R = {ncf['setting']['R_max']} restarts"
    )
    return _row(name, "- (no target)", loop, None, detail, status="measured")


def evaluate(results: dict, gpu: bool) -> list[dict]:
    """Every target row for ``results`` (the ``benchmarks`` section of a run)."""
    flow, gd, prob = results.get("flow"), results.get("gd"), results.get("prob")
    rows = flow_targets(flow)
    if "kinks" in results:
        rows += kink_targets(results["kinks"])
    rows.append(_gd_target(gd))
    rows.append(
        torch_target(
            "probability estimate (dana2025) vs PyTorch loop",
            prob and prob["ratios"],
            "all runs at once, whole estimate",
        )
    )
    if flow:
        for s in flow["scaling"]["vs_B"]:
            rows.append(linear_target(f"time linear in B: gradient flow {tuple(s['size'])}", s["fit"]))
    if gd:
        rows.append(linear_target("time linear in B: long GD", gd["scaling_vs_B"]))
    if prob:
        rows.append(linear_target("time linear in B: probability estimate", prob["scaling_vs_B"]))
    if results.get("ncf"):
        rows.append(linear_target("time linear in B: NCF restarts", results["ncf"]["scaling_vs_B"]))
    rows.append(ncf_row(results.get("ncf")))
    measured = {r["name"]: r for r in results.get("gpu", {}).get("rows", [])}
    gpu_note = "not measured (no GPU in this session)" if not gpu else "not selected (--only)"
    for name in GPU_ROWS:
        r = measured.get(name)
        if r is None:
            rows.append(_row(name, "-", None, None, "", status=gpu_note))
        else:
            detail = f"B = {r['B']}; vs the engine on NumPy (same machine): {r['vs_numpy']:.2f}x"
            rows.append(_row(name, "- (no target)", r["ratio"], None, detail, status="measured"))
    return rows
