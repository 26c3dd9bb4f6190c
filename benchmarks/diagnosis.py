"""Why a target is missed: the speed a target needs against the floor of the counted work.

For a missed speed-up target the question is whether the gap is *implementation*
(the run is far from its own floor) or *algorithm* (even a run at the floor would not
reach the target). Both numbers come from one run's document; nothing is re-measured.
"""

from __future__ import annotations

from benchmarks.analysis import time_at_error
from benchmarks.targets import FLOW_RATIO, TORCH_RATIO, matched_at_large_B


def flow_headroom(flow: dict) -> list[dict]:
    """For every size with B >= 256, at its worst matched error: the time a 20x speed-up
    needs and the counted-work floor of our solve at that accuracy."""
    out = []
    for s in flow["sizes"]:
        cands = matched_at_large_B(s)
        if not cands:
            continue
        B, worst = min(cands, key=lambda br: br[1]["ratio"])
        pts = s["ours"][str(B)]["points"]
        errs = [p["error_median"] for p in pts]
        floor_op = time_at_error(errs, [p["rates"]["floor_operand_s"] for p in pts], worst["error"])
        floor_pk = time_at_error(errs, [p["rates"]["floor_peak_s"] for p in pts], worst["error"])
        out.append(
            {
                "size": s["size"],
                "B": B,
                "error": worst["error"],
                "ours_s": worst["ours_s"],
                "ivp_loop_s": worst["ivp_loop_s"],
                "needed_s": worst["ivp_loop_s"] / FLOW_RATIO,
                "floor_operand_s": floor_op,
                "floor_peak_s": floor_pk,
                "ratio_at_floor_operand": worst["ivp_loop_s"] / floor_op,
                "ratio_at_floor_peak": worst["ivp_loop_s"] / floor_pk,
            }
        )
    return out


def torch_headroom(rows: list[dict], per: str = "seconds_per_member_step") -> dict | None:
    """For the largest-B batched row: the per member-step time a 3x speed-up over the
    fastest PyTorch loop needs, and the floor of the counted work per member-step."""
    ours = [r for r in rows if r["method"] == "ours"]
    theirs = [r for r in rows if r["method"] != "ours"]
    if not ours or not theirs:
        return None
    o = max(ours, key=lambda r: r["B"])
    t = min(theirs, key=lambda r: r[per])
    member_steps = o["seconds"] / o[per]
    return {
        "B": o["B"],
        "torch": t["method"],
        "torch_s": t[per],
        "ours_s": o[per],
        "needed_s": t[per] / TORCH_RATIO,
        "floor_operand_s": o["rates"]["floor_operand_s"] / member_steps,
        "floor_peak_s": o["rates"]["floor_peak_s"] / member_steps,
        "bound": o["rates"]["bound"],
    }
