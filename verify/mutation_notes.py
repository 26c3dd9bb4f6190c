"""Why each surviving mutant of the committed campaign left every verdict unchanged.

Issue 14 item 9: a mutant that moves a number some check compared but no verdict is a
*survivor*, and it stays one here -- a note says why, it never reclassifies. The renderer of
``reports/mutation/mutation.md`` (:func:`verify.mutation._markdown`) looks each survivor up by
``(path, line, before, after)`` and prints ``**not explained**`` for any survivor without a
note (a note goes stale, visibly, when its line moves).
"""

from __future__ import annotations

from dataclasses import dataclass

HISTORY = (
    "Before: the committed campaign at 0dd3f54 re-ran a fixed random sample of at most 8 of the claims "
    "importing each module: 56 killed, 25 survived, 26 unexercised, 19 equivalent, score 52.3% (56 / 107); "
    "most unexercised mutants were claims never chosen, not gaps. Now each mutant re-runs the claims whose "
    "traced run executes its line (verify/mutation_coverage.py); a line no claim executes is "
    "*uncovered*, a real gap."
)

KINDS = (
    "Kinds. **A**: a tolerance or rounding allowance of the toolkit (an ulps "
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
    "constant by a factor < 3.46 would go unnoticed'). The mutants scale C by 1/(C_y^-)^2 or (C_x^-)^2, "
    "factors inside that slack: the bound moves but stays true on every instance found"
)
_BOUND_SLACK = "the bound's own slack is the check's stated resolution; the paper's C is not tight"

NOTES: dict[tuple[str, int, str, str], Note] = {
    (
        "verify/papers/min2024/geometry.py",
        97,
        "z1 - separation(p.X, p.y) ** 2",
        "z1 + separation(p.X, p.y) ** 2",
    ): Note(
        "D",
        "Lemma 8's zeta_1 >= mu^2 is checked as min(zeta_1 - mu^2) >= -4 eps; the mutant adds 2 mu^2 > 0 "
        "to the measured side, which only widens a margin already positive on the three (n, mu) families. "
        "A one-sided bound catches a violation, not a looser measurement: only an instance where the bound "
        "is tight (zeta_1 = mu^2) would see it, and none of the families is",
        "open: an equality instance of Lemma 8 (if one exists) checked with close(zeta_1, mu^2)",
    ),
    (
        "verify/papers/min2024/geometry.py",
        151,
        "separation(X, y) ** 2 / (zeta1(X, y) + 4 * EPS)",
        "separation(X, y) ** 2 * (zeta1(X, y) + 4 * EPS)",
    ): Note(
        "D",
        "the objective of Lemma 8's adversarial search, mu^2 / (zeta_1 + 4 eps) (> 1 iff the lemma "
        "fails), turned into mu^2 (zeta_1 + 4 eps) <= 1 for cosines: the search then maximises a quantity "
        "that cannot exceed 1, and its check (worst ratio <= 1) stays true; the sampled families check "
        "the lemma directly",
        "open: the search's worst instance re-checked with the direct form zeta_1 - mu^2 >= 0 would bind the "
        "objective to the statement",
    ),
    ("verify/papers/kou2023/decomposition.py", 193, "0.5", "1.0"): Note(
        "B", "the second margin gamma of the twin GD runs (0, 0.5) -> (0, 1): another instance", "none"
    ),
    ("verify/papers/kumar2025/ncf.py", 491, "3", "6"): Note(
        "B", "the width k = 3 -> 6 of the random old net of the reduced NCF: another instance", "none"
    ),
    ("verify/papers/kumar2025/saddle.py", 467, "2.0", "4.0"): Note(
        "A",
        "the O(.) constant of Theorem 7's else branch (|u(T) + e| / |u(T)| <= 1 + E/eps allowed up to 2); "
        "the paper gives no constant, the measured ratio sits near 1, so 2 -> 4 is the toolkit's allowance, "
        "not the paper's; the eq. 42 deviation E itself is checked by its orders",
        "none",
    ),
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
    ): Note("D", _DANA_C + ".", _BOUND_SLACK),
    ("verify/papers/dana2025/common.py", 89, "2", "4"): Note(
        "D", _DANA_C + " (here the square of C_x^- becomes a fourth power).", _BOUND_SLACK
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
    ("verify/papers/kumar2025/saddle.py", 350, "10.0", "20.0"): Note(
        "B", "the horizon of the blow-up solve (10 -> 20): u_1 blows up well before t = 10", "none"
    ),
}


def _t(text: str) -> str:
    """A note written across lines, as one line."""
    return " ".join(text.split())


_ROUNDING = _t("""a rounding allowance of the toolkit (ulps of an identity or a search objective), above the
    rounding actually met; a passing check cannot see its own allowance grow or vanish""")
NOTES.update(
    {
        ("verify/papers/min2024/geometry.py", 171, "cos - 8 * EPS", "cos"): Note("A", _ROUNDING, "none"),
        ("verify/papers/min2024/geometry.py", 171, "8", "16"): Note("A", _ROUNDING, "none"),
        ("verify/papers/min2024/losses.py", 63, "8 * EPS", "8 / EPS"): Note("A", _ROUNDING, "none"),
        (
            "verify/papers/zhang2025/identities.py",
            701,
            "P + D + H * (H + D) + 10",
            "P + D + H * (H + D)",
        ): Note("A", _ROUNDING + " (gamma_s, the float allowance of a search's objective)", "none"),
        (
            "verify/papers/zhang2025/identities.py",
            781,
            "(1 - alpha[:, 0]) / 2 * imbalance_tol * np.sum(W2 * W2, axis=2)",
            "(1 - alpha[:, 0]) / 2 * imbalance_tol / np.sum(W2 * W2, axis=2)",
        ): Note(
            "A",
            _t("""the even-part allowance (1-alpha)/2 delta ||W2||^2 |r^T x| for a float imbalance delta <=
            tol, in Assumption 7's forward-pass tolerance: the measured error is rounding, far below it"""),
            "none",
        ),
        ("verify/papers/zhang2025/identities.py", 952, "4", "8"): Note(
            "B", "the exact instance W2 = (3, 4, -4) -> (3, 8, -4) of the symbolic even-part identity", "none"
        ),
        ("verify/papers/zhang2025/equivalence.py", 80, "pos + neg", "pos"): Note(
            "D",
            _t("""the normaliser of the +/- balance |pos - neg| / (pos + neg) of Assumption 7 along a run: the
            balance is 0 in exact arithmetic and measured at rounding level, far below its bound (SAFETY x
            the solve's global error); a normaliser off by <= 2x moves that rounding-level number only. The
            balance's exact conservation is what Theorem 8 says; a resolution finer than its bound would
            need the bound at rounding level"""),
            "none: resolution is the bound (global error of the solve), stated in the check's why",
        ),
        (
            "verify/papers/zhang2025/equivalence.py",
            211,
            "1e-09 * np.linalg.norm(x) * r / np.linalg.norm(r)",
            "1e-09 * np.linalg.norm(x) * r * np.linalg.norm(r)",
        ): Note("B", "the size of the near-kink perturbation of a search start (1e-9 |x|)", "none"),
        (
            "verify/papers/zhang2025/equivalence.py",
            475,
            "SAFETY * np.linalg.norm(w_c - w_t, axis=1).max() + 16 * ds.P * EPS * scale",
            "SAFETY * np.linalg.norm(w_c - w_t, axis=1).max()",
        ): Note(
            "A",
            "Corollary 9's tolerance without its 16 P eps rounding floor: the SAFETY x discretisation term "
            "dominates",
            "none",
        ),
    }
)


_CONTROL_ONLY = _t("""the check sits inside a negative control whose must_break does not name it; the verdict
    reads only the named conclusions of a control (verify/verdict.py control_outcomes), so this check's
    outcome, FAIL included, changes no verdict: a check that cannot fail""")
_TINY_OUTSIDE = _t("""dana2025:theorem-1 is INCONCLUSIVE at the campaign's tiny profile (regime p << n not
    reached: p = 22, n = 6, needs p <= n / 4), so no check of it can change its verdict there""")
NOTES.update(
    {
        ("verify/papers/dana2025/model.py", 168, "0.0001", "0.0002"): Note(
            "B",
            _t("""the central-difference step h = 1e-4 / max|F| of eq. (16)'s loss derivative doubled; the
            check's allowance is the error estimated at that same step, |D_2h - D_h|/3 + 10 eps/h (kink
            states infinite), so another step is another instance of the same measurement"""),
            "none",
        ),
        (
            "verify/papers/dana2025/model.py",
            358,
            "np.abs(balance(ys - diff) - delta).max() + np.abs(balance(ys + diff) - delta).max()",
            "np.abs(balance(ys - diff) - delta).max()",
        ): Note(
            "A",
            _t("""Lemma 1's drift allowance SAFETY x err + 100 eps scale, err the solver's error propagated to
            the balance from both sides ys -/+ diff; dropping one side about halves err, and the drift
            measured at rtol 1e-8 sits below the halved allowance too"""),
            "none",
        ),
        ("verify/papers/dana2025/common.py", 189, "traj.ts * lr", "traj.ts / lr"): Note(
            "D",
            _t("""the time axis of a GD run (steps x lr) became steps / lr, 100 x too long at lr = 0.1, so the
            measured rates -dlogL/dt are 100 x too small. Re-run on a snapshot of e4f4af6 with the mutant:
            the window-rate check of (6) and the asymptotic-rate check FAIL (0.0087 < 0.096 and 0.0098 <
            0.10), yet the verdict stays INCONCLUSIVE: """)
            + _TINY_OUTSIDE,
            _t("""open: a campaign at tiny cannot kill mutants of claims outside their regime at tiny; give
            theorem-1 a tiny instance inside p << n, or count check outcomes, not only verdicts"""),
        ),
        ("verify/papers/dana2025/common.py", 209, "4", "8"): Note(
            "C",
            _t("""Theorem 1's sufficient width ceil(4 log(4n/eps)) made larger (either 4 doubled): a wider
            net meets the theorem's width hypothesis with room, the statement stays true; besides, """)
            + _TINY_OUTSIDE,
            "none",
        ),
        ("verify/papers/kou2023/sequences.py", 42, "10", "20"): Note(
            "B",
            "the spread C2 / C1 of the random sandwich sequences, 10^U(0,1) -> 20^U(0,1): another instance",
            "none",
        ),
        ("verify/papers/kou2023/sequences.py", 66, "4 * (t + 1)", "4 / (t + 1)"): Note(
            "A",
            _t("""the rounding slack 4 (t+1) eps max(|x|, 1) of the (5.7) sandwich checks shrunk to 4/(t+1):
            the worst margins of the bounds stay >= 0 with the smaller slack (they are not at rounding
            level)"""),
            "none",
        ),
        ("verify/papers/kou2023/sequences.py", 142, "x[t] + C1 * e - np.exp(z)", "x[t] + C1 * e"): Note(
            "B",
            _t("""Lemma H.1's upper-bound search builds sequences with increments C1 e^-x - e^z <= C1 e^-x;
            the mutant fixes every increment at the equality C1 e^-x, still inside the hypothesis (the
            extremal instance), so the upper bound still holds on every sequence searched"""),
            "none",
        ),
        (
            "verify/papers/kou2023/sequences.py",
            356,
            "np.sqrt(m) + np.sqrt(n)",
            "np.sqrt(m) - np.sqrt(n)",
        ): Note(
            "D",
            _t("""Lemma H.3's normaliser sqrt m + sqrt n -> sqrt m - sqrt n (n = m/2 on every size): the
            ratio grows by the constant (1 + 2^-1/2)/(1 - 2^-1/2) = 5.8 at every size, and the check fits
            only its order in m (0 +- 0.1); the constant is the probability check's, which uses the
            unmutated sqrt m + sqrt n + u"""),
            "none: resolution is the fitted order (a constant factor in the normaliser is invisible to it)",
        ),
        (
            "verify/papers/kou2023/decomposition.py",
            92,
            "((V - back) ** 2).sum(axis=(1, 2)) / xp.maximum((V * V).sum(axis=(1, 2)), 1e-300)",
            "((V - back) ** 2).sum(axis=(1, 2)) * xp.maximum((V * V).sum(axis=(1, 2)), 1e-300)",
        ): Note(
            "D",
            _t("""(5.1)'s span residual ||V - P D^-1 X|| / ||V|| became ||V - P D^-1 X|| ||V||: the
            residual is rounding (~eps ||V||), so the mutant reads ~eps ||V||^2, still under the allowance
            64 eps sqrt(d) T for the weight changes ||W - W0||_F of these short runs"""),
            "none: resolution is the check's 64 eps sqrt(d) T allowance",
        ),
        ("verify/papers/kou2023/decomposition.py", 217, "0.5", "1.0"): Note(
            "B",
            "the margin gamma of the twin GD run in the d < n control (0.5 -> 1): the control still breaks",
            "none",
        ),
        ("verify/papers/kou2023/decomposition.py", 342, "0.5", "1.0"): Note(
            "B",
            "the margin gamma of the twin run in the gradient-ascent control (0.5 -> 1): it still breaks",
            "none",
        ),
        ("verify/papers/kumar2025/ncf.py", 102, "3", "6"): Note(
            "B", "a depth of the random nets of Lemma 14's Euler identities (2, 3, 4) -> (2, 6, 4)", "none"
        ),
        ("verify/papers/kumar2025/saddle.py", 570, "grid - s_grid[-1]", "grid"): Note(
            "D",
            _t("""the z = -z* control reads w_z at the record nearest t = 0 (grid starts at 0) instead of
            T_eps/delta: the start is delta (-z*), cos = -1, so both must_break conclusions still fail --
            the control breaks on its start, not on its flow"""),
            "open: assert the control's record lies at T_eps/delta (grid[at_T] = s_grid[-1])",
        ),
        ("verify/papers/min2024/geometry.py", 120, "4", "8"): Note("A", _ROUNDING + " (4 -> 8 ulps)", "none"),
        ("verify/papers/min2024/geometry.py", 200, "0.01", "0.02"): Note(
            "A",
            _t("""the finite-sample allowance 1e-2 of sup |cos| >= sqrt(1 - mu^2) - 1e-2; samples reach the
            sup to ~1e-3, so 1e-2 -> 2e-2 only widens unused room"""),
            "none",
        ),
        (
            "verify/papers/min2024/losses.py",
            43,
            "_lemma2_gap(kind, yhat) + 2 * np.abs(yhat)",
            "_lemma2_gap(kind, yhat) - 2 * np.abs(yhat)",
        ): Note(
            "D",
            _t("""Lemma 2's search objective (|-l' - y| - 8 eps) / 2|yhat| lowered by exactly 2: a violation
            (objective > 1) would now need |-l' - y| > 6 |yhat|; the exact supremum is (e - 1)/2 = 0.86, so
            the search stays below 1. The lemma itself is still checked directly on the grid of [-1, 1]
            (|-l' - y| - 2|yhat| <= 8 eps), which the mutant does not touch"""),
            "none: resolution of the search is 3x the lemma's constant; the grid check carries the statement",
        ),
        ("verify/papers/zhang2025/identities.py", 308, "3", "6"): Note(
            "B",
            "the input dimension D = 3 -> 6 of Lemma 5's half-space search instance: another instance",
            "none",
        ),
        (
            "verify/papers/zhang2025/identities.py",
            829,
            "(1 - alpha[:, 0]) * (pos - neg)[:, None] * np.abs(np.sum(r[:, :, None] * X, axis=1))",
            "(1 - alpha[:, 0]) * (pos - neg)[:, None] / np.abs(np.sum(r[:, :, None] * X, axis=1))",
        ): Note(
            "D",
            _t("""the predicted even part (1-alpha)(||W2+||^2 - ||W2-||^2)|r^T x| made wrong, in the
            ||W2+||^2 = 2 ||W2-||^2 control: """)
            + _CONTROL_ONLY,
            _t("""open: move the even-part check out of the control (it is a statement about imbalanced
            states, expected to hold) or give controls checks that must hold"""),
        ),
        ("verify/papers/zhang2025/equivalence.py", 172, "-1.0", "1.0"): Note(
            "B",
            _t("""the logistic labels of Theorem 8's searched instance, sign(y0) -> all +1 on X0 (-1 on -X0
            after symmetrisation): another instance inside the hypotheses"""),
            "none",
        ),
        ("verify/papers/zhang2025/equivalence.py", 197, "3", "6"): Note(
            "B",
            _t("""three more coordinates in the search starts; searched_instance splits theta and reads only
            rest[0..2], so the extra ones are unused dimensions of the same instances"""),
            "none",
        ),
        ("symbolic/activations.py", 75, "alpha - 1", "alpha + 1"): Note(
            "D",
            _t("""the corrected footnote-1 split max(z, alpha z) = (1+alpha)/2 z + (alpha-1)/2 |z| made wrong;
            its ctx.zero check in zhang2025:theorem-1 is in the alpha = 3 control: """)
            + _CONTROL_ONLY,
            _t("""open: the corrected split is a claim that must hold for alpha > 1; check it outside the
            control or name it as a check that must hold"""),
        ),
    }
)


def explain(row: dict) -> Note | None:
    """The note for a survivor row of :func:`verify.mutation.run`, if one was written."""
    return NOTES.get((row["path"], row["line"], row["before"], row["after"]))
