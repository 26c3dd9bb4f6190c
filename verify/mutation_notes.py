"""Why each surviving mutant of the committed campaign left every verdict unchanged.

Issue 14 item 9: a mutant that moves a number some check compared but no verdict is a
*survivor*, and it stays one here -- a note says why, it never reclassifies. The renderer of
``reports/mutation/mutation.md`` (:func:`verify.mutation._markdown`) looks each survivor up by
``(path, line, before, after)`` and prints ``**not explained**`` for any survivor without a
note (a note goes stale, visibly, when its line moves).
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = (
    "Kinds. **S**: a sign test (a hypothesis such as lambda_min(G) > 0) of a product or quotient of "
    "positive factors: the mutant rescales by a positive factor, and the question the check asks (the "
    "sign) is unchanged by design. **A**: a tolerance or rounding allowance of the toolkit (an ulps "
    "factor, an O(.) constant, a "
    "safety factor) sitting above the rounding actually met: a passing check cannot see its own "
    "tolerance grow, only a control that must break on the same check could. **B**: an instance or "
    "experiment parameter (sizes, grids, search starts, a control's data): the statement holds on the "
    "changed instance too, so a changed verdict would be the defect. **C**: a paper constant moved in "
    "its safe direction (a sufficient threshold, a training time): the statement stays true. **D**: a "
    "formula fault a check should have caught -- tightened, or the resolution is stated."
)


@dataclass(frozen=True)
class Note:
    kind: str  # A, B, C or D (see KINDS)
    why: str
    action: str


_DANA_C = (
    "Theorem 1's C = (6/5)(C_x^-)^2/C_x^+ C_y^- enters only the lower bound mu >= (C/n) min|1-r/y| of (6). "
    "The bound holds with slack: the worst ratio found by the claim's adversarial search is 3.46 at quick "
    "(9-10 on the random ensembles), and the checks record it as their resolution ('an error in its "
    "constant by a factor < 3.46 would go unnoticed'). A mutant that multiplies C by 2 (or by C_y^-^2 ~ 1) "
    "makes the bound stronger but still true on every instance found"
)
_BOUND_SLACK = "the bound's own slack is the check's stated resolution; the paper's C is not tight"

NOTES: dict[tuple[str, int, str, str], Note] = {
    (
        "verify/papers/dana2025/model.py",
        286,
        "((wn + a * a).sum(axis=1) / model.p).max() * np.linalg.eigvalsh(data.G).max() / data.n",
        "((wn + a * a).sum(axis=1) / model.p).max() * np.linalg.eigvalsh(data.G).max() * data.n",
    ): Note(
        "B",
        "the rate bound lambda of step_grid: steps n^2 x smaller, still in the small-step regime, where "
        "Lemma 1's balance drift and Sec. 2's GD defect keep their order 1 (the fitted orders move, stay 1)",
        "none",
    ),
    ("verify/papers/dana2025/model.py", 676, "64", "128"): Note(
        "B", "Assumption 1's instance dimension d = 64 -> 128: another instance of the same statement", "none"
    ),
    (
        "verify/papers/dana2025/common.py",
        89,
        "1.2 * self.cx[0] ** 2 / self.cx[1] * self.cy[0]",
        "1.2 * self.cx[0] ** 2 / self.cx[1] / self.cy[0]",
    ): Note("D", _DANA_C + " (C_y^- is near 1 on these data).", _BOUND_SLACK),
    ("verify/papers/dana2025/common.py", 89, "2", "4"): Note(
        "D", _DANA_C + " (the square of C_x^- becomes a fourth power; C_x^- is near 1).", _BOUND_SLACK
    ),
    ("verify/papers/dana2025/common.py", 198, "2 * data.n", "2 / data.n"): Note(
        "D",
        "Theorem 1's certificate L < (C_y^-)^2/(2n) made n^2 x more lenient. A sufficient certificate made "
        "weaker is wrong only where a run it certifies then fails to converge; every tiny run converges, so "
        "no check of the outcome can see it, and checking the algebra |r_i| <= sqrt(2nL) < C_y^- again would "
        "re-verify the toolkit's formula, not the paper",
        "none: resolution stated here (the certificate's soundness is the proof step, not a measurement)",
    ),
    ("verify/papers/kou2023/sequences.py", 324, "0.01", "0.02"): Note(
        "B", "the size of the violation in H.2's control (C e^-x - 0.01 -> - 0.02): it still breaks", "none"
    ),
    ("verify/papers/kou2023/decomposition.py", 131, "1.3", "2.6"): Note(
        "B", "the range of input norms (1, 1.3) -> (1, 2.6) of the Section-5 data: another instance", "none"
    ),
    (
        "verify/papers/kou2023/decomposition.py",
        188,
        "np.linalg.eigvalsh(X @ X.T).min() / (X * X).sum(axis=1).max()",
        "np.linalg.eigvalsh(X @ X.T).min() * (X * X).sum(axis=1).max()",
    ): Note("S", "the hypothesis 'inputs linearly independent' is lambda_min(G) > 0; R_max^2 > 0", "none"),
    ("verify/papers/kou2023/decomposition.py", 197, "64 * EPS", "64 / EPS"): Note(
        "A",
        "the rounding allowance 64 eps sqrt(d) T of (5.1)'s exact identity; the identity holds to a few "
        "ulps, so a larger allowance is not visible to a passing check (the faults it exists for, in the "
        "projection, are killed: lines 87, 91)",
        "none",
    ),
    ("verify/papers/kumar2025/ncf.py", 409, "0.5", "1.0"): Note(
        "B", "the leaky slope alpha = 0.5 -> 1.0 of one balance-gap search: another instance", "none"
    ),
    ("verify/papers/kumar2025/saddle.py", 350, "10.0", "20.0"): Note(
        "B", "the horizon of the blow-up solve (10 -> 20): u_1 blows up well before t = 10", "none"
    ),
}


def explain(row: dict) -> Note | None:
    """The note for a survivor row of :func:`verify.mutation.run`, if one was written."""
    return NOTES.get((row["path"], row["line"], row["before"], row["after"]))
