"""Why each surviving mutant of the committed campaign left every verdict unchanged, and which
mutation sites are instance parameters.

Issue 14 item 9: a mutant that moves a number some check compared but no verdict is a
*survivor*, and it stays one here -- a note says why, it never reclassifies. The renderer of
``reports/mutation/mutation.md`` (:func:`verify.mutation._markdown`) looks each survivor up by
``(path, line, before, after)`` and prints ``**not explained**`` for any survivor without a
note (a note goes stale, visibly, when its line moves). The numbers quoted are each survivor's
claims re-run at the campaign's profile (tiny, seed 0) with and without the mutant.

:data:`INSTANCE` declares, by site identity (:attr:`verify.mutation.Mutant.site`, no line
number), the sites that set an instance or experiment parameter under which every hypothesis of
the covering claims still holds. A declaration alone reclassifies nothing: a survivor there is
*instance-equivalent* only when its own run shows the instance admissible
(:func:`verify.mutation.decide`), and the report lists it under that status with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass


def _t(text: str) -> str:
    """A note written across lines, as one line."""
    return " ".join(text.split())


HISTORY = _t("""Before: the campaign at 0dd3f54 re-ran a fixed random sample of at most 8 of the claims
    importing each module: 56 killed, 25 survived, 26 unexercised, 19 equivalent, score 52.3%. Since
    then each mutant re-runs the claims whose traced run executes its line
    (verify/mutation_coverage.py); a line no claim executes is *uncovered*, a real gap. The committed
    campaign at e4f4af6 scored 74.3% (84 killed, 21 survived, 8 uncovered, 13 equivalent); the next, at
    f5fe4da, 72.6% (82 killed, 24 survived), where one survivor (symbolic/closed_forms.py:162, Lemma 6's
    closed form) failed its exact check while the erratum claim stayed XFAIL: errata now name the checks
    they are shown by (Erratum.shown_by) and any other failure is FAIL, which kills it (73.5% at
    1c5dc89). kumar2025's Lojasiewicz samples now check their factored excess against the directly
    summed loss difference, which kills the two excess mutants of saddle.py; the new lines changed that
    file's sample, which drew two other survivors. The next, at 7760d14: 74.1% (83 killed, 23 survived,
    5 uncovered, 1 timeout, 14 equivalent). The campaigns are not like for like: the mutants of a file
    are drawn with a seed of its repository path (before e4f4af6's successor it was the absolute path,
    so the sample depended on the checkout's location) from the file's mutable sites, so a file whose
    code changed draws another sample, and lines move. Its timeout (kou2023 H.3's probability bound 2
    e^-4 -> 2 e^4) ran past its time limit. This campaign, at 7629f4c (same 18 files, 126 mutants):
    69.6% (78 killed, 26 survived, 6 uncovered, 2 timeout, 14 equivalent). The 13 files whose code did
    not change since 7760d14 drew the same 91 mutants with the same outcomes. The session's new code
    changed five: verify/papers/dana2025/common.py (+63 lines), dana2025/model.py (+305),
    kou2023/sequences.py (+160), kumar2025/saddle.py (+52), zhang2025/equivalence.py (+185). Of their 35
    mutants 10 were drawn again (6 killed, 2 equivalent, and 2 survivors whose notes moved with their
    lines: model.py 439 -> 469, common.py 120 -> 123); the 25 no longer drawn were 13 killed, 8
    survived, 3 equivalent, 1 timeout; the 25 newly drawn are 8 killed, 11 survived, 3 equivalent, 2
    timeout, 1 uncovered. So the drop (-5 killed, +3 survived, +1 uncovered, +1 timeout) is a different
    sample of the changed files, not a verdict that stopped catching a mutant it caught before; the
    notes of the 8 survivors no longer drawn stay in verify/mutation_notes.py (keyed by their old lines,
    unused). The timeouts: kou2023 H.3's u = 2 -> 4 makes the stated probability 2 e^-16 = 2.3e-7, and
    the report's power statement (verify/evidence.trials_needed: the trial count, doubled from 8 up to
    2^24, with 80% power against 3 x the bound) then needs ~10^7 trials, each doubling computing a
    Clopper-Pearson interval per count: its cap was 61 s (60 s + 10 x the claim's traced time); re-run
    here at tiny and stopped by faulthandler at 75 s, it sat in that loop (context.probability ->
    evidence.trials_needed -> power -> rejected_counts -> clopper_pearson) at the first probability
    check, the main scan done. The statement holds for u = 4 too, so finished it could only survive
    (kind B). kumar2025 Theorem 7's rescaled-time rate 1/delta^(L-2) -> 1/delta^(L+2) (saddle.py:664)
    integrates each (w_n, w_z) path delta^-4 (>= 10^4) times longer in the flow's own time, so the paths
    run through the escape from the saddle and, for L = 3, into u_1's finite-time blow-up, where the
    implicit Radau steps shrink: the mutant ran into the 300 s cap (read from the code, not re-run
    here). The new uncovered mutant, dana2025/common.py:278 (p_lemma5's + 1), is dead code: no module or
    test calls p_lemma5 (a scalar copy of common.p_of_n, which the Lemma 5 claims use), so no claim can
    execute it; deleted after this campaign. The 5 other uncovered mutants are the Filippov sliding
    weights of numeric/models/networks.py, used only by the engine's sliding mode, which no claim runs;
    tests/numeric/test_logpolar_sliding.py and test_events.py test them. After this campaign the draw
    became stable (bottom-k hashing of each site's identity without its line number: a drawn site stays
    drawn when other code of its file changes, unless a new site hashes lower), a one-time redraw of
    every file; and a survivor at a site declared an instance parameter (INSTANCE) whose run still reaches
    every measured regime and still breaks every control is listed as instance-equivalent, with the score
    given both with and without it. The campaign at cac89c2, the first after that redraw (126 mutants): 76
    killed, 29 survived, 1 instance-equivalent, 2 unexercised, 1 uncovered, 17 equivalent. Its 29 survivors
    (none with a note: most files drew new sites) were re-run at tiny with and without each mutant (in a
    snapshot worktree) and classified B 14, A 9, C 1, D 5 (the kinds below); every B site is declared in
    INSTANCE, and 11 of the 14 pass the audit; 3 do not: run_gd's horizon (dana2025 theorem-1 and corollary-1
    reach p << n in neither run) and min2024's label pattern and cone radii (24 to 30 covering claims over the
    cap, not re-run). Re-rendered with these notes from the cached outcomes (hence the header's +dirty): 76
    killed, 18 survived, 12 instance-equivalent: 69.7% and, without the instance-equivalent, 78.4% (70.4%
    before). Its gaps: dana2025/model.py:871 (-inf for a Section C.2 search family whose start leaves the
    hypothesis) is a guard no start at tiny reaches; numeric/models/networks.py:102 (the first layer's slope
    under a frozen pattern) is unexercised by the 8 cheapest covering claims, but
    zhang2025:equation-2-sliding, over the cap, runs it and is killed (re-run here: PASS -> FAIL, GD ->
    Filippov order -0.0005 against 1, no sliding segment); symbolic/closed_forms.py:311
    (bernoulli_fixed_points) is called by no claim, and
    tests/symbolic/test_symbolic_closed_forms.py::test_bernoulli_fixed_points_and_stability fails under it
    (fixed points [0] instead of [0, sqrt(P b)]; re-run here). After it, five survivors were fixed where
    they stood (kou2023 sequences.py:520 and :124, decomposition.py:202 and kumar2025 ncf.py:123 now
    killed at tiny, min2024 geometry.py:200's allowance derived), and the campaign at edefd11 scored 82.1%
    without the instance-equivalent (78 killed, 14 survived, 12 instance-equivalent, 2 unexercised, 1
    uncovered, 19 equivalent). At ae75d7e (this report), dana2025 model.py's first_order_tolerance, whose
    underived + 0.02 was a survivor, gave way to verify/order_tolerance.py (no site left); the file's redraw
    took step_grid's largest step (0.1 -> 0.2, kind B), and min2024 common.py:112, equivalent before,
    survives now that Theorem 1.2's re-runs reach a compared number through it: 80.4%. Every survivor
    left is of kind A (rounding allowances far below the values met), B or C, but two of kind D
    (dana2025 common.py:111 and model.py:386), whose actions are open. The campaign at da2622a5 (this
    report; 2026-11-29, tiny, on a machine shared with two full-profile lanes and helpers): 77 killed, 17
    survived, 10 instance-equivalent, 2 unexercised, 2 uncovered, 1 timeout, 17 equivalent: 70.6% and,
    without the instance-equivalent, 77.8%. 97 of its 116 mutants were drawn at ae75d7e too (the files
    that changed since drew 19 new sites: 9 killed, 5 survived, 4 equivalent, 1 uncovered, against 8
    killed, 3 survived, 6 equivalent, 2 instance-equivalent no longer drawn). Of the 97, nine changed
    outcome: dana2025 model.py's coarse-drift survivor (kind D at ae75d7e) is killed now (Lemma 1 checks
    its error estimate against the drift DOPRI5 admits: PASS -> FAIL), and min2024 geometry.py's 2 (Lemma
    8) is killed; four went killed -> equivalent because the checks they moved became notes (kou2023
    Lemma 5.3's convexity/telescoping residuals of symbolic/sequence_lemmas.py, three mutants; min2024
    Lemma 2's tanh identity in losses.py: identities the checker had verified of its own formula) and one
    survived -> equivalent (min2024 common.py's init scale: another set of eight cheapest covering claims);
    numeric/models/networks.py's sliding right-hand side went killed -> timeout (its covering claims now
    include zhang2025 Corollary 10 and Proposition 18, and the mutant runs the sliding solves on garbage
    past the 300 s cap), its -1 equivalent -> killed (Proposition 18: PASS -> ERROR). Every survivor has a
    note (re-run at tiny with and without it in a snapshot): 12 of kind A (allowances above the rounding
    met, moved in their safe direction or far from the values met), B (instance parameters: step grids,
    label signs, norm ranges, a control's slope) or C; of kind D only dana2025 common.py:111 is left (the
    (6) search's checks now fail under it at tiny, 6.0 and 5.9 against 1 (0.079 without it), but
    theorem-1 is INCONCLUSIVE at tiny, where p << n is not reached, and the verdict rule absorbs a failure
    outside the regime: the campaign's profile cannot kill it). The new uncovered site, networks.py:362,
    is the sliding solve's eigenvalue cut in _min_norm_solve, which only mirror-symmetric sliding
    reaches (tests/numeric/test_networks.py runs it).""")

KINDS = _t("""Kinds. **A**: a tolerance or rounding allowance of the toolkit (an ulps factor, an O(.)
    constant, a safety factor) sitting above the rounding actually met: a passing check cannot see its own
    tolerance grow, only a control that must break on the same check could. **B**: an instance or experiment
    parameter (sizes, grids, search starts, a control's data): the statement holds on the changed instance
    too, so a changed verdict would be the defect. **C**: a paper constant moved in its safe direction (a
    sufficient threshold, an order of a remainder): the statement stays true. **D**: a formula fault: inside
    the resolution its check states (named), or caught by a check whose failure the verdict rule absorbed; the
    action says what would catch it.""")


@dataclass(frozen=True)
class Note:
    kind: str  # A, B, C or D (see KINDS)
    why: str
    action: str


_DECOMP_TOL = _t("""the rounding allowance 2 t eps max_j ||w_j|| amp + t eps max|P| of the kou2023 twin
    checks (rho projected vs accumulated, (A.1)/(A.2), (5.4)/(5.5))""")
_CONTROLS_FAR = _t("""their controls (gradient ascent, d < n) fail by 1e12-1e14 x the allowance either way,
    so they bound nothing from above""")
_LEMMA2_SEARCH = _t("""the rounding allowance 8 eps of min2024 Lemma 2's search objective (|-l' - y| - 8 eps)
    / 2|yhat|: its worst, 0.859141 = (e - 1)/2, sits at |yhat| of order 1, where 8 eps / 2|yhat| is ~1e-15;
    it moved by 2e-15""")
NOTES: dict[tuple[str, int, str, str], Note] = {
    ("verify/papers/dana2025/model.py", 469, "2.0", "4.0"): Note(
        "B",
        _t("""the horizon of dana2025 Lemma 1's Prop. 3 control (sign flip of a_j under |a_j(0)| <<
        ||w_j(0)||) doubled: the collapsed a_j has settled by t = 2, so min_t,j s_j a_j is -9.197 on both
        horizons (equal to 5e-13 relative) and the control still breaks"""),
        "none",
    ),
    (
        "verify/papers/dana2025/model.py",
        1013,
        "rng.uniform(-1, 1, (B, p)) / np.sqrt(p)",
        "rng.uniform(-1, 1, (B, p)) * np.sqrt(p)",
    ): Note(
        "B",
        _t("""the data of dana2025 Assumption 1's control (PyTorch-default layers): a_j drawn from U[-1, 1]
        sqrt(p) instead of U[-1, 1] / sqrt(p), 10x larger at tiny (p = 10). The checked min_j |a_j(0)| -
        ||w_j(0)|| over 2000 neurons sits at the neuron with |a_j| ~ 0 on either scale (||w_j|| ~ 0.58 for
        uniform +-1/8 entries, d = 64): -0.637 -> -0.622, below -1e-12, so the control still breaks"""),
        "none",
    ),
    (
        "verify/papers/dana2025/common.py",
        98,
        "1.2 * self.cx[0] ** 2 / self.cx[1]",
        "1.2 * self.cx[0] ** 2 * self.cx[1]",
    ): Note(
        "D",
        _t("""Theorem 1's constant C = (6/5) (C_x^-)^2 / C_x^+ C_y^- read as (6/5) (C_x^-)^2 C_x^+ C_y^-: x
        (C_x^+)^2 ~ 4 here (the asymptotic-rate bound 0.096 -> 0.380 at the same rate 0.870), the unsafe
        direction (a stronger lower bound mu >= (C/n) min|1 - r/y|). The ensemble's three (6) checks keep
        room: worst rate / bound 9.1 -> 2.3 (asymptotic), state check 0.450 vs 0.009 -> 0.833 vs 0.486;
        the p = 3 control's bounds moved 3.2x, still met. theorem-1 is INCONCLUSIVE at tiny (p
        = 22 > n/4: few neurons not reached), so only a FAIL could move it. The instance search of (6),
        which resolves a C too large by more than ~10/3, did not move: it reads C from
        convergence.theorem1_constant, a second copy of the formula, not Data.C"""),
        _t("""done after this campaign: one definition of C (common.theorem1_constant, read by Data.C and
        the search), so the search's 10/3 resolution covers the constant the ensemble checks use; this x4
        fault is now in its reach"""),
    ),
    ("verify/papers/dana2025/common.py", 123, "-1.0", "1.0"): Note(
        "B",
        _t("""the unit-norm labels of dana2025 Lemma 6 drawn from {1, 1} instead of {-1, 1}: K and the bound
        2 (C_y^+)^2 depend on |y_i| = 1 only, and the App. B law is symmetric under a -> -a, so for the n = 1
        example the law of L(theta_0) is unchanged; the moved numbers are another sample of it (p_min(s) [26,
        50, 143, 313, 764] -> [23, 57, 142, 332, 823]; fitted order of p_min in s^2 1.83 -> 2.08, one-sided
        bound at most 2 + 0.3; P(L0 <= 2 (C_y^+)^2) 600/600 at p_min on both; the width control 427/600 ->
        428/600, still below 0.95). lemma-5-corrected, also re-run, did not move. A same-law resample moves
        the tiny order by 0.25, about its 0.3 allowance: the tiny profile (600 draws) resolves it only to
        that"""),
        _t("""none for the mutant; the tiny order check's spread over two samples of one law (0.25 here,
        0.34 at 7760d14) is about its allowance"""),
    ),
    ("verify/papers/dana2025/common.py", 284, "4 * n", "4 / n"): Note(
        "D",
        _t("""Theorem 1's width ceil(4 log(4n/eps)) read as ceil(4 log(4/(n eps))): p = 22 -> 8 at tiny (n =
        6, eps = 0.1). Convergence fell 12/12 -> 9/12 (99% interval [0.34, 0.97], contains 0.9: 12 draws
        cannot reject it) and the converged runs' rates still clear (C/n) min|1 - r/y| (worst state ratio
        0.450 vs 0.0091 -> 0.274 vs 0.0108). The width regime WIDTH_T1 (its own p >= ceil(4 log(4n/eps)))
        reads not reached (8 < 22), but theorem-1 is INCONCLUSIVE at tiny already (few neurons p <= n/4 is
        not reached at n = 6), so no verdict moves. At quick (n = 160) the mutant's width is ceil(4
        log(0.25)) = -5 (derived, not run): no run"""),
        _t("""none at tiny (the regime record sees it; the tiny verdict is INCONCLUSIVE for another
        hypothesis); a campaign at quick on dana2025 Theorem 1 would count it, and a unit test of p_theorem1
        against the statement at two (n, eps) would pin it"""),
    ),
    ("verify/papers/dana2025/common.py", 364, "2", "4"): Note(
        "D",
        _t("""orthogonal_sweep draws the App. B initial state with Gram diag(c_i^4) instead of diag(c_i^2):
        v_ji = <w_j, x_i> gets std c_i^2/sqrt(d) (c_i in [1, 2]) while a_j is drawn from the unscaled norm, so
        the init leaves the App. B law (and |a_j| >= ||w_j|| can fail). figure-6, figure-6-corrected and
        conjecture-1 are INCONCLUSIVE by their undecidable paper-scale check at tiny and quick, so only a FAIL
        could move them: the slopes moved by <= 0.03 and stay inside [-1, -1/2] by their 99% bootstrap
        intervals (resolution +- 0.2 at tiny); the exact-reduction checks compare two solvers from the same
        (mutated) state (agree to 2e-12)"""),
        _t("""done after this campaign (dana2025 WEAK15, 632dfea and before): the initial state is read
        against the App. B law (Assumption 1 exactly; z tests of d<w_j|x_i>^2/||x_i||^2, the frozen mass and
        P(a > 0); a KS test of |a| - ||w||), recorded as the regime of APP_B: this mutant now reads 'regime
        not reached' (z_span 48 at tiny). The verdict stays INCONCLUSIVE at tiny (the paper-scale check is
        undecided below full), so a verdict-based campaign still counts it a survivor"""),
    ),
    ("verify/papers/kou2023/sequences.py", 96, "e0 + c * t", "e0"): Note(
        "D",
        _t("""the exact-sequence lower bound log(e^(+-x0) + C t) lost its C t term (x_t >= x0 remains, true).
        The check reads min_t of the margin, and at t = 0 the bound is an equality (margin 0) for x0 = 0 and,
        in the corrected lemma, x0 = 1: the min never compares the C t term, so 5.3-corrected and H.2 saw
        nothing (H.1 checks only the upper bound); only the printed 5.3 (x0 = 1 with e^-x0, XFAIL by its upper
        bound) moved, 0.0134 -> 2.0, still >= 0. The random-sequence checks use the separate _bounds and are
        unaffected"""),
        _t("""done after this campaign (kou2023 WEAK15, 1865687): margins are read over t >= 1, and the
        H.2 / 5.3-corrected lower bound must be attained by the 50-digit equality sequences within a derived
        O(log t / t) remainder, so a bound without its C t term, weakened to C t / 2 or without e^x0 fails
        (tests/verify/test_kou2023_weak_spots.py)"""),
    ),
    ("verify/papers/kou2023/sequences.py", 111, "C * e", "C / e"): Note(
        "A",
        _t("""the derived O(log t / t) remainder of the corrected Lemma 5.3's equality sequences,
        C e^(C e^-x0) (C e^-x0 + log(1 + C t e^-x0)) / (2 (e^x0 + C t)), with e^(C e^-x0) read as e^(C e^x0):
        the same at x0 = 0, larger by e^(C (e - 1/e)) at x0 = 1 (1.024 at C = 0.01, 110 at C = 2). The check
        max (e^x_t/(e^x0 + C t) - 1)/remainder <= 1 at x0 = 1 went 0.993 -> 0.963: the C attaining it
        keeps the remainder nearly tight, so a passing check only saw its allowance grow"""),
        _t("""none: the allowance is derived (docstring), and at its worst C it moved by ~3%, so a lower bound
        weaker by a factor k >= 2 still lands near k above it"""),
    ),
    ("verify/papers/kou2023/sequences.py", 133, "-1e-40", "1e-40"): Note(
        "A",
        _t("""the 50-digit rounding allowance of the exact-sequence lower-bound margin, -1e-40 -> +1e-40:
        the margins met over t >= 1 are 5.0e-5 (x0 = 0), 6.8e-6 (x0 = 1, corrected) and 0.0134 (x0 = 1,
        printed 5.3), 10^35 above either sign (lemma-H.2, 5.3-corrected, 5.3 re-run, no verdict moved)"""),
        "none",
    ),
    ("verify/papers/kou2023/sequences.py", 400, "16", "32"): Note(
        "B",
        _t("""kou2023 Lemma H.3's sizes (32, 16) -> (32, 32): another sub-gaussian matrix shape (the statement
        holds for every m x n). Fitted order in m of max ||A|| / (sqrt m + sqrt n) 0.032 -> 0.015 (tolerance
        0.118); the mean-1/2 control's 0.420 -> 0.387 (interval [0.18, 0.60]) still breaks; the tail count
        did not move"""),
        "none",
    ),
    ("verify/papers/kou2023/sequences.py", 403, "0.5", "1.0"): Note(
        "C",
        _t("""kou2023 Lemma H.3's constant C K = 1/2 (the sharp one for +-1/2 entries) -> 1: the tail
        threshold sqrt m + sqrt n + u doubled, a weaker statement, still true -- the form 4a31368 replaced
        because its check could not fail. The main run's exceedance count did not move (0/80 above either
        threshold); the mean-1/2 control's went 80/80 -> 52/80 and still rejects P <= 0.037"""),
        _t("""open: no control binds the constant from below; one whose entries have a larger scale than
        the K it declares (e.g. std 0.75 read with C K = 1/2) would exceed the sharp threshold but not the
        doubled one, so it would break at 1/2 and not at 1"""),
    ),
    (
        "verify/papers/kou2023/sequences.py",
        408,
        "rng.integers(0, 2, size=(trials, m, n)) - 0.5 + mean",
        "rng.integers(0, 2, size=(trials, m, n)) - 0.5 - mean",
    ): Note(
        "B",
        _t("""the data of Lemma H.3's mean-nonzero control, entries {0, 1} -> {-1, 0} (mean -1/2): A -> -A has
        the same norm law, so the control is the same; its fitted order 0.420 -> 0.409 (another sample), still
        far above the 0.118 tolerance: it breaks"""),
        "none",
    ),
    ("verify/papers/kou2023/sequences.py", 466, "1.5", "3.0"): Note(
        "B",
        _t("""the data of kou2023 Lemma H.4's control b < a (first argument a + 1.5 b -> a + 3 b): the ratio
        still decreases, min relative step -0.054 -> -0.056, and the control still breaks"""),
        "none",
    ),
    ("verify/papers/kou2023/sequences.py", 495, "-4", "4"): Note(
        "B",
        _t("""the t grid of kou2023 Lemma H.4's random check, 10^-4..10^8 -> 10^4..10^8: min relative step
        of the ratio 5.7e-9 -> 7.5e-6 >= -1e-13; the b < a control's -0.054 -> -0.0056, still breaks. The
        instance search (over log s and t/s, not this grid) did not move"""),
        "none",
    ),
    ("verify/papers/kou2023/decomposition.py", 98, "W * W", "W / W"): Note(
        "A",
        _t(f"""max_j ||w_j|| read as sqrt(d) = 6.3 (W / W = 1 entrywise), in {_DECOMP_TOL}: the allowance grew
        ~80x (worst ratio 0.12 -> 0.0015, definition-5.1); {_CONTROLS_FAR}"""),
        "none",
    ),
    ("verify/papers/kou2023/decomposition.py", 118, "2 * t[None]", "2 / t[None]"): Note(
        "A",
        _t(f"""the first term of {_DECOMP_TOL} shrunk by t^2 at step t (t = 0 is read against eps
        separately): the rounding met stays under the smaller allowance (worst ratio 0.12 -> 0.68 in
        definition-5.1, 0.07 -> 0.33 in A.3, 0.09 -> 0.21 in 5.2); the derived allowance is kept, not
        tuned to the rounding met"""),
        "none",
    ),
    ("verify/papers/kou2023/decomposition.py", 200, "64 * EPS", "64 / EPS"): Note(
        "A",
        _t("""the rounding allowance 64 eps sqrt(d) T of (5.1)'s span residual (1.3e-11) became 2.7e20; the
        residual met is 8.5e-16. No control is meant to break (5.1) (GD stays in w0 + span{x_i} on any
        data), so nothing bounds the allowance from above"""),
        "none",
    ),
    ("verify/papers/kumar2025/ncf.py", 46, "4", "8"): Note(
        "B",
        _t("""the quartic leaky activation (alpha, p) = (0.5, 4) of the kumar2025 NCF searches became p = 8,
        another member of sigma = max(x, alpha x)^p, p >= 1: balances hold (Lemma 9's worst ratio 0.22 ->
        0.054, Lemma 19's 1.1e-10 -> 3.8e-10). Lemma 9's fewest positive KKT limits per activation fell 8 ->
        1, exactly its bound >= 1 (p = 8 reaches one positive limit at tiny)"""),
        "none",
    ),
    ("verify/papers/kumar2025/ncf.py", 285, "2 * p", "2 / p"): Note(
        "C",
        _t("""kumar2025 Lemma 8(i)'s remainder order 2p + 1 written 2/p + 1 (equal at p = 1, lower for p >=
        2): the search objective (order - fitted order) / 0.25 went 0.003 -> -30 at (alpha, p) = (0.5, 4). A
        lower order is the safe direction of an O(delta^k) statement, and the check is one-sided by design (a
        faster decay is allowed)"""),
        _t("""open: the search's worst point has fitted order 2p + 1 - 0.001, so a two-sided check of the
        fitted order (|order - (2p + 1)| <= 0.25 at a generic point) would bind the exponent"""),
    ),
    ("verify/papers/kumar2025/ncf.py", 343, "2", "4"): Note(
        "B",
        _t("""the exponents p of kumar2025 Lemma 19's symbolic identity d/dt(|a|^2 - p|b|^2) = 0: (1, 2, 3) ->
        (1, 4, 3); the identity holds for every p (residual 0 exactly)"""),
        "none",
    ),
    ("verify/papers/kumar2025/ncf.py", 440, "u[..., 3:] ** 2", "u[..., 3:] ** 3"): Note(
        "D",
        _t("""|b|^2 computed as sum b^3 (0.728 instead of 1) in kumar2025 Lemma 19's zero-KKT control (a = 0,
        |b| = 1, lambda = 0), whose balance check must fail: the ratio | |a|^2 - p|b|^2 | / tolerance is
        4.9e5 and 5.5e5 instead of 6.7e5 and 7.5e5, failing either way"""),
        "none: a control's check only has to fail, which it does by 5e5 x its tolerance",
    ),
    ("verify/papers/kumar2025/saddle.py", 587, "2.0", "4.0"): Note(
        "A",
        _t("""Theorem 7's else-branch bound |w_z(T_eps/delta)| / (delta eps) <= 2: the O(.) constant doubled.
        The measured ratio is 1.0 (|u(T) + E|/|u(T)| with the eq. 42 deviation E -> 0), so a larger allowance
        cannot change a passing check; its resolution is stated (a factor 2 to spare) and the deviation E
        itself is resolved by the order fits of the same branch"""),
        "none: the else branch's content is the order of E, fitted beside it",
    ),
    ("verify/papers/kumar2025/saddle.py", 624, "1.3", "2.6"): Note(
        "B",
        _t("""the Assumption-2 control's instance: (w_n bar, 0) made non-critical by scaling b_1 by 2.6
        instead of 1.3. The hypothesis is broken further, and the conclusion the control must break
        (max_t |w_n(t) - w_n bar| of order delta^0) still fails, so the control still backs the claim"""),
        "none",
    ),
    (
        "verify/papers/kumar2025/saddle.py",
        633,
        "np.linalg.norm(end, axis=1) / deltas",
        "np.linalg.norm(end, axis=1) * deltas",
    ): Note(
        "D",
        _t("""|w_z(T/delta)| / delta written |w_z(T/delta)| delta in kumar2025 Theorem 7's z = -z* control
        (in the origin's stable set, not z*'s), whose check |w_z(T/delta)| / (delta eta_1) >= 1 must fail:
        0.371 -> 8.8e-6, failing either way. The main run reads the same ratio from _measures (its last
        return), which the mutant does not touch"""),
        _t("""none: a control's check only has to fail, which it does; the control could read the ratio
        from _measures, one formula for both"""),
    ),
    ("verify/papers/min2024/common.py", 111, "0.5", "1.0"): Note(
        "B",
        _t("""the radii of min2024's two-cone family, U[0.5, 1.5] -> U[1.0, 1.5]: another instance of the same
        cones (mu > 0 is set by the angle); the trajectory claims still pass (Lemma 14's worst margin 9.7e4
        -> 4.9e4 x the integrator error, C.2 dwell ratio 0.053 -> 0.052) and D.3's control still breaks"""),
        "none",
    ),
    ("verify/papers/min2024/geometry.py", 93, "4", "8"): Note(
        "B",
        _t("""min2024 Lemma 8's first (n, mu) family (4, 0.5) -> (8, 0.5): another instance; min zeta_1 - mu^2
        0.039 -> 0.043 >= 0"""),
        "none",
    ),
    ("verify/papers/min2024/losses.py", 44, "np.max(dev) - 8 * EPS", "np.max(dev) + 8 * EPS"): Note(
        "A", _LEMMA2_SEARCH + " (the allowance's sign flipped)", "none"
    ),
    ("verify/papers/min2024/losses.py", 44, "8", "16"): Note(
        "A", _LEMMA2_SEARCH + " (the allowance doubled)", "none"
    ),
    ("verify/papers/min2024/losses.py", 123, "501", "1002"): Note(
        "B",
        _t("""the grid of min2024 Lemma 2's control (exponential loss on 1 <= |yhat| <= 1.5), 501 -> 1002
        points: its worst gap 0.4817 sits at the grid's end |yhat| = 1.5 on both grids; the control still
        breaks"""),
        "none",
    ),
    (
        "verify/papers/zhang2025/identities.py",
        720,
        "0.01 * rng.normal(size=theta.size)",
        "0.01 / rng.normal(size=theta.size)",
    ): Note(
        "B",
        _t("""the perturbation of zhang2025 Lemma 15's near-aligned search starts, theta (1 + 0.01 N) -> theta
        (1 + 0.01 / N) (heavy-tailed, larger): other starts of the same search; its worst lhs/rhs 0.9999966 ->
        0.9999956 <= 1 (the bounds are attained at aligned states)"""),
        "none",
    ),
    (
        "verify/papers/zhang2025/equivalence.py",
        140,
        "np.tanh(2 * X0 @ w) + 0.3 * (X0 @ v) ** 3",
        "np.tanh(2 * X0 @ w) - 0.3 * (X0 @ v) ** 3",
    ): Note(
        "B",
        _t("""zhang2025's heavy-tailed target tanh(2 w.x) + 0.3 (v.x)^3 -> tanh(2 w.x) - 0.3 (v.x)^3, still
        odd and symmetrised (Condition 3): Theorem 8's deviations / tolerance stay <= 0.035 (<= 0.032 before),
        Corollary 10's OLS checks pass (L(T) = L_ols 46.91 -> 52.84, matching)"""),
        "none",
    ),
    (
        "verify/papers/zhang2025/equivalence.py",
        171,
        "y0 / np.linalg.norm(X0.T @ y0 / n)",
        "y0 * np.linalg.norm(X0.T @ y0 / n)",
    ): Note(
        "B",
        _t("""the searched Theorem 8 / C.4 instances lose their normalisation s = ||beta|| = 1 (s becomes
        ||X0^T y0 / n||^2 of the raw labels); s = 1 is a time and weight rescaling of these other instances
        (searched_instance's docstring), inside the hypotheses: worst deviation / tolerance 0.0030 -> 0.0060
        (theorem-8), 0.0041 -> 0.0062 (section-C.4)"""),
        "none",
    ),
    ("verify/papers/zhang2025/equivalence.py", 191, "3", "6"): Note(
        "B",
        _t("""the searched Theorem 8 / C.4 instances' init scale w_init = 10^(-3 + 3 sigmoid) in [1e-3, 1]
        -> 10^(-6 + 3 sigmoid) in [1e-6, 1e-3]: the same Assumption-7 construction, smaller; worst GD-paired
        deviation / tolerance 0.0031 -> 0.0052 (theorem-8), 0.0027 -> 0.0046 (section-C.4)"""),
        "none",
    ),
    ("verify/papers/zhang2025/equivalence.py", 221, "0.01", "0.02"): Note(
        "B",
        _t("""the ill-conditioned search starts of Theorem 8 scale the second coordinate of X0 by 2e-2 instead
        of 1e-2: other starts; worst deviation / tolerance 0.0030 -> 0.0038"""),
        "none",
    ),
    # -- the campaign at cac89c2 (after H0's one-time redraw): its 28 new survivors, re-run at tiny
    # (seed 0) with and without each mutant in a snapshot worktree
    ("verify/papers/dana2025/model.py", 351, "0.02", "0.04"): Note(
        "A",
        _t("""first_order_tolerance's allowance for the fit itself (+0.02 on 2 x the largest predicted
        deviation of the local slope) doubled: dana2025 Lemma 1's two GD balance-drift order checks went
        from tolerance 0.203 to 0.223 (boundary data, fitted order 1.039) and 0.028 to 0.048
        (equicorrelated, 1.0006); both deviations sit far inside either. No control of Lemma 1 aims at these
        order checks (its Prop. 3 control breaks Assumption 1's sign check)"""),
        _t("""open: the + 0.02 is a floor, not derived; take the fit's own uncertainty instead (the check
        reports its 95% interval, half-width 0.04 and 0.012 here), so that a doubled floor would show"""),
    ),
    ("verify/papers/dana2025/model.py", 386, "coarse - coarse[:, :1]", "coarse"): Note(
        "D",
        _t("""_balance_flow's coarse (rtol 1e-8) drift of Delta = a^2 - ||w||^2 read as max |Delta| of the
        coarse solve (the invariant's size, ~20, not its drift): Lemma 1's DOPRI5 conservation bound
        coarse_drift / MIN_GAIN + 100 eps max|Delta| went 2.48e-10 -> 2.01 against a refined drift of
        4.0e-12, met by both. The bound's resolution is the coarse solve's drift, which nothing checks on its
        own, so a fault there only loosens it"""),
        _t("""open: bound the coarse drift itself (e.g. <= rtol x max|Delta| x its accepted steps, ~1e-5
        here): max|Delta| read as a drift then fails by ~1e6"""),
    ),
    ("verify/papers/dana2025/model.py", 433, "100", "200"): Note(
        "A",
        _t("""the rounding term 100 eps max|Delta| of the same conservation bound doubled (4.5e-13 -> 8.9e-13,
        max|Delta| = 20.1): the bound, 2.4806e-10 -> 2.4850e-10, is set by the coarse drift / MIN_GAIN
        (2.476e-10), and the refined drift met is 4.0e-12"""),
        "none: a rounding allowance of 0.2% of its bound, which no control could resolve",
    ),
    ("verify/papers/dana2025/model.py", 1017, "8", "16"): Note(
        "B",
        _t("""the ensemble of dana2025 Assumption 1's GD note (400 GD steps of lr 0.05 on boundary data), 8 x
        8 -> 16 x 8 neurons: it feeds a ctx.note only (min a_j^2 - ||w_j||^2 under GD); the shared rng stream
        then drew the PyTorch-default control's layers differently, whose min_j |a_j(0)| - ||w_j(0)|| went
        -0.637 -> -0.656 (below -1e-12: the control still breaks)"""),
        "none",
    ),
    ("verify/papers/dana2025/model.py", 1105, "40", "80"): Note(
        "B",
        _t("""the sizes of dana2025 Assumption 2's random boundary data sets, n ~ U{2..39} -> U{2..79}: the
        statement is for every n; the checker's limit still equals eq. (4) written out (difference 0;
        tolerance 1.6e-15 -> 5.1e-16), (32) holds on every accepted set (worst 0.672 -> 0.828 >= 3/5) and the
        equicorrelated control still fails (32) (-12.1 -> -16.7)"""),
        "none",
    ),
    (
        "verify/papers/dana2025/common.py",
        111,
        "1.2 * float(norms.min()) ** 2 / float(norms.max())",
        "1.2 * float(norms.min()) ** 2 * float(norms.max())",
    ): Note(
        "D",
        _t("""Theorem 1's constant C = (6/5) (C_x^-)^2 / C_x^+ C_y^- read as (6/5) (C_x^-)^2 C_x^+ C_y^-, x
        (C_x^+)^2 (~4 on theorem-1's tiny data: its asymptotic-rate bound 0.096 -> 0.380 against the rate
        0.870), the unsafe direction. The ensemble's (6) checks keep room (state check 0.450 vs 0.009 -> 0.833
        vs 0.486 at its new worst state, window rates 0.480 vs 0.0069 -> 0.497 vs 0.058); the p = 3 control's
        bounds moved 3.2x, still met, as they may. The (6) instance search now reads this C (one definition
        since 1914d9c) but moved only 0.280 -> 0.323 of its bound (x 1.15: its worst instances have C_x^+ near
        1). theorem-1 is INCONCLUSIVE at tiny (p << n not reached), so only a FAIL could move it. At
        da2622a5 (re-run at tiny with the mutant): the search's new near-equality family at input norm 4
        (C_x^+ = 4) reads 6.0 and 5.9 against 1 (0.079 without it), so two search checks fail; the verdict
        stays INCONCLUSIVE because the regime p << n is not reached at tiny, where a failure is not a
        counterexample"""),
        _t("""done: the (6) search's family at C_x^+ = 4 catches it (6.0 at tiny, 4.8 at quick); only the
        tiny profile's unreached regime keeps the verdict from changing"""),
    ),
    ("verify/papers/dana2025/common.py", 273, "T / lr / every", "T / lr * every"): Note(
        "B",
        _t("""run_gd's step count ceil(T / lr / every) every read as ceil(T / lr x every) every: dana2025
        Theorem 1's and Corollary 1's GD runs go every^2 = 100 x longer (T = 60 -> 6000, as the check labels
        say). Every check reads the run's own records; Theorem 1's conclusions (convergence under event I,
        the rate (6) at every state) hold on any horizon: 12/12 converge either way, and the rate checks'
        worst states (before t = 60) did not move"""),
        "none (a horizon; a shorter run could only fail the convergence certificate)",
    ),
    ("verify/papers/dana2025/common.py", 302, "4", "8"): Note(
        "C",
        _t("""Theorem 1's width ceil(4 log(4n/eps)) -> ceil(8 log(4n/eps)): p = 22 -> 44 at tiny (n = 6, eps =
        0.1), wider than the sufficient width, the safe direction: n (3/4)^p / eps 0.150 -> 0.015 (<= 1) in
        lemma-5-corrected, and theorem-1's p = 44 ensemble converges 12/12 with its rate checks met
        (asymptotic 0.874 vs 0.100)"""),
        _t("""a unit test of p_theorem1 against the statement's formula at two (n, eps) would pin it (as for
        its earlier 4 n -> 4 / n mutant); the checks are one-sided as the statement is"""),
    ),
    ("verify/papers/kou2023/sequences.py", 33, "2.0", "4.0"): Note(
        "B",
        _t("""C_VALUES, the increments of kou2023's 50-digit extreme sequences x_(t+1) = x_t + C e^-x_t,
        (0.01, 0.5, 2) -> (0.01, 0.5, 4): Lemmas 5.3, H.1 and H.2 hold for every C > 0. Only the labels moved:
        the margins (0; 1.3e-51 at x0 = 1), the attainment ratios (0.986, 0.993) and the remainder floors
        (1.013, 1.012) are attained at C = 0.01 or 0.5"""),
        "none",
    ),
    ("verify/papers/kou2023/sequences.py", 78, "4 * (t + 1)", "4 / (t + 1)"): Note(
        "A",
        _t("""the float64 slack 4 (t + 1) eps max(|x_t|, 1) of kou2023's random-sandwich bound checks shrunk
        by (t + 1)^2, the safe direction (moved from line 75, same site; re-run at da2622a5): the worst
        margins (9.99e-5 H.2, 5.35e-5 / 7.57e-5 5.3-corrected, 2.96e-5 H.1, lower 3.76e-3 in the printed 5.3)
        are >= 1e6 x the largest slack (~2e-11 at t = 2000) and moved by <= 4e-15 (1.4e-11 in 5.3's lower
        margin); every control's margin (-2.1 to -2288) moved by <= 4e-12"""),
        "none: the slack is derived (one addition and one exp per step); a smaller one passing is no fault",
    ),
    ("verify/papers/kou2023/sequences.py", 124, "C * e", "C / e"): Note(
        "A",
        _t("""the floor factor kappa_C = e^C e^(C e^-x0) (1 + C e^-x0 / log(1 + C T e^-x0)) of the corrected
        Lemma 5.3's 'remainder not loose' check, with e^(C e^-x0) read as e^(C e^x0): the same at x0 = 0,
        larger at x0 = 1 (x 1.024 at C = 0.01); min_C kappa_C excess / remainder >= 1 went 1.012 -> 1.036 at
        x0 = 1, the loose direction"""),
        _t("""done after this campaign (MUTFIX21, e86e508): the excess floor is its own function
        (sequences.excess_floor), checked below the 50-digit excess (min ratio 1.0077 / 1.0031 at x0 = 0 / 1),
        and kappa_C must equal equality_remainder / excess_floor x log(1 + C e^C T e^-x0) / log(1 + C T e^-x0)
        to 64 eps (measured 2.2e-16): this mutant, re-run at tiny, turns lemma-5.3-corrected PASS -> FAIL
        (deviation 109 at C = 2, x0 = 1; 0.024 at C = 0.01)"""),
    ),
    ("verify/papers/kou2023/sequences.py", 520, "1 + theta[1] ** 2", "1"): Note(
        "D",
        _t("""kou2023 Lemma H.4's search map b = a (1 + beta^2) read as b = a: every searched point lies on
        the equality set b = a, where g(s)/g(t) = 1 exactly, so the worst ratio went 0.99999999999938 ->
        0.99999999999990 (<= 1). The search no longer explores b > a (its 'b >> a' family included), the case
        the lemma is about; the b < a control uses its own map and still breaks"""),
        _t("""done after this campaign (MUTFIX21, 7545ea0): every instance the search evaluates is recorded
        (sequences._h4_instance), the worst one's (a, b/a, s, t/s) reported, and min(max b/a, max t/s) >= 2
        (H4_SPREAD) is checked (tiny and quick 4.65): this mutant, re-run at tiny, turns lemma-H.4 PASS ->
        FAIL (max b/a = 1.0)"""),
    ),
    ("verify/papers/kou2023/decomposition.py", 79, "0.05 * n", "0.05 / n"): Note(
        "B",
        _t("""the step size of kou2023's twin GD runs, eta = 0.05 n m / max||x_i||^2 -> 0.05 / (n m
        max||x_i||^2), 576 x smaller (n = 6, m = 4): (5.1)-(5.5) and (A.1)/(A.2) are identities of GD at every
        step size. Worst twin ratios fell (0.121 -> 0.0056 definition-5.1, 0.089 -> 0.0075 5.2); the controls
        still fail by 3e12-1e13 x (ascent, d < n) and 0.129 vs 1.3e-11 (decay)"""),
        "none",
    ),
    (
        "verify/papers/kou2023/decomposition.py",
        80,
        "0.01 * rng.normal(size=(B, 2 * m, d))",
        "0.01 / rng.normal(size=(B, 2 * m, d))",
    ): Note(
        "B",
        _t("""kou2023's twin runs' initial weights 1e-2 N(0, 1) -> 1e-2 / N(0, 1) (heavy-tailed): Definition
        5.1 and (5.2)-(5.5), (A.1)/(A.2) are exact along GD from any W_0 (the claims assume GD and independent
        inputs only); worst ratios 0.121 -> 0.0086 (definition-5.1), 0.067 -> 0.0011 (A.3), 0.089 -> 0.0087
        (5.2), span residual 8.5e-16 -> 6.4e-15 vs 1.3e-11; every control still fails (ascent 3e12-7e12 x,
        d < n 1e14 x, decay 0.160 vs 1.3e-11)"""),
        "none",
    ),
    (
        "verify/papers/kou2023/decomposition.py",
        89,
        "decay / eta * (yflat - a['anchor'])",
        "decay / eta / (yflat - a['anchor'])",
    ): Note(
        "B",
        _t("""the update of kou2023 Definition 5.1's out-of-span control, pull (decay / eta)(W - A)
        -> (decay / eta) / (W - A): another non-gradient update that leaves span{x_i}, stronger (its
        span residual went 5.6e-3 -> 0.965 against the allowance 1.3e-11: the control still breaks);
        the main run does not use it"""),
        "none",
    ),
    (
        "verify/papers/kou2023/decomposition.py",
        202,
        "np.linalg.eigvalsh(X @ X.T).min() / (X * X).sum(axis=1).max()",
        "np.linalg.eigvalsh(X @ X.T).min() * (X * X).sum(axis=1).max()",
    ): Note(
        "D",
        _t("""kou2023 Definition 5.1's independence margin lambda_min(G) / R_max^2 read as lambda_min(G)
        R_max^2 (0.267 -> 1.302): its regime and its check ask only > 0 / >= 0, which the sign of
        lambda_min decides under any normalisation"""),
        _t("""done after this campaign (MUTFIX21, 2311506): decomposition.check_margin_bracket checks
        (R_min^2 - (n - 1) max_i!=k |<x_i, x_k>|) / R_max^2 <= margin <= R_min^2 / R_max^2 to 4 (n + d) n eps
        (tiny 0.267 in [-0.664, 0.335], quick 0.515 in [-0.522, 0.595]): this mutant, re-run at tiny, turns
        definition-5.1 PASS -> FAIL (1.302 above 0.335)"""),
    ),
    ("verify/papers/dana2025/model.py", 356, "0.1", "0.2"): Note(
        "B",
        _t("""step_grid's largest GD step 0.1/lambda -> 0.2/lambda (lambda bounds the largest rate of (15) at
        the initial state; moved from line 309, same site): the steps of dana2025 Lemma 1's and Section 2's
        GD-limit fits stay inside the Euler map's small-step regime (step x rate <= 0.2), and the fitted
        orders' tolerances follow the fitted next-order term (verify/order_tolerance.py), so a doubled grid
        moves the numbers and keeps every verdict. Re-run at da2622a5: Lemma 1's balance-drift orders 1.039
        -> 1.080 (tolerance 0.125 -> 0.284, boundary data) and 1.0006 -> 1.014 (0.005 -> 0.045,
        equicorrelated); the lower 95% limit of the GD-limit order on orthogonal data 0.554 -> 0.652
        (section-2), 0.308 -> 0.334 (section-2-corrected), > 0 either way; the printed Section 2's
        boundary-data limit -0.0015 -> -0.59 fails either way (its XFAIL); the sign changes per halving [24,
        50, 102, 204] -> [10, 24, 50, 102] (the same grid shifted one step: order -0.97 -> -1.04 <= -1/2).
        Regimes and controls unchanged"""),
        "none (an experiment parameter)",
    ),
    ("verify/papers/kou2023/sequences.py", 173, "64", "128"): Note(
        "A",
        _t("""KAPPA_ROUNDING, the rounding allowance of the kappa_C identity check, 64 eps -> 128 eps (1.4e-14
        -> 2.8e-14; moved from line 114, same site, re-run at da2622a5: lemma-H.2 and 5.3-corrected at x0 =
        0 and 1): the deviation met is 2.2e-16 (about 1 eps), and the identity's mutants (e^(C e^-x0) ->
        e^(C e^x0)) fail it by ~100, so no allowance between 1 eps and 1 could change a verdict"""),
        "none",
    ),
    ("verify/papers/kou2023/decomposition.py", 376, "-4 * (n + d)", "-4 / (n + d)"): Note(
        "A",
        _t("""the rounding allowance 4 (n + d) n eps of Definition 5.1's two-sided margin bracket shrunk by
        (n + d)^2 (the safe direction; moved from line 254, same site): re-run at da2622a5, the allowance
        went 2.5e-13 -> 1.2e-16 while the margin sits 0.068 (tiny) inside its bracket, >= 3e11 x either
        allowance"""),
        "none",
    ),
    (
        "verify/papers/min2024/common.py",
        112,
        "rng.normal(size=(B, h, D)) / np.sqrt(D)",
        "rng.normal(size=(B, h, D)) * np.sqrt(D)",
    ): Note(
        "B",
        _t("""the initial weights of min2024's two-cone family drawn D = 4 x larger in norm: the directions
        follow the same isotropic law, and the claims scale the init by eps (Problem.log_eps), so the change
        acts as an eps 4 x larger; the Theorem 1.2 re-runs to t2 + 2/(alpha L(t2)) made the line's numbers
        reach a compared value (equivalent in the campaign before)"""),
        "none (an instance parameter; not yet declared in INSTANCE: its audit needs the covering claims "
        "re-run)",
    ),
    ("verify/papers/kou2023/decomposition.py", 272, "64", "128"): Note(
        "A",
        _t("""the rounding allowance 64 eps sqrt(d) T of (5.1)'s span residual doubled (1.35e-11 ->
        2.70e-11); the residual met is 8.5e-16, and the decay control's 5.6e-3 exceeds either by ~4e8"""),
        "none",
    ),
    ("verify/papers/kumar2025/ncf.py", 102, "2", "4"): Note(
        "B",
        _t("""the depths of kumar2025 Lemma 14's random Euler check, (2, 3, 4) -> (4, 3, 4): w.grad N = D N
        holds at every depth; worst relative residual 4.4e-17 -> 2.8e-17 against 5.1e-13"""),
        "none",
    ),
    (
        "verify/papers/kumar2025/ncf.py",
        123,
        "kink[24:27] @ kink[:3] * kink[:3] / (kink[:3] @ kink[:3])",
        "kink[24:27] @ kink[:3] * kink[:3] * (kink[:3] @ kink[:3])",
    ): Note(
        "D",
        _t("""the projection that puts the 'layer-1 neuron on a kink of sample 0' start of Lemma 14's Euler
        searches exactly on the kink, scaled by |x|^4 (x (x.x) instead of / (x.x)): the start is no longer on
        the kink, and no start is (Nelder-Mead does not land on a measure-zero set), though the search's why
        names the Clarke subgradient at kinks; worst ratios 3.4e-4 -> 2.8e-4 (p = 1), 6.8e-4 -> 5.1e-4 (p =
        3)"""),
        _t("""done after this campaign (MUTFIX21, 68af8c5): the start (ncf._kink_start) is checked on the
        kink before the search, |<w', x>| / (|w| |x|) <= 16 eps (KINK_ROUNDING, derived <= 12 eps; measured
        2.5e-17): this mutant, re-run at tiny, turns lemma-14 PASS -> FAIL (1.17)"""),
    ),
    ("verify/papers/kumar2025/ncf.py", 124, "3", "6"): Note(
        "B",
        _t("""the activations of kumar2025 Lemma 14's Euler searches, (alpha, p) = (0.5, 3) -> (0.5, 6): the
        identity holds for every max(x, alpha x)^p, p >= 1; the p = 6 search's worst ratio is 6.8e-4 of its
        allowance (p = 3: 6.8e-4)"""),
        "none",
    ),
    (
        "verify/papers/kumar2025/ncf.py",
        609,
        "np.linalg.norm(resid_u, axis=-1) / np.maximum(lam, 1e-300)",
        "np.linalg.norm(resid_u, axis=-1) * np.maximum(lam, 1e-300)",
    ): Note(
        "A",
        _t("""the KKT-residual ratio ||resid_u|| / lambda in the balance allowance (p + 1) ratio + 64 eps of
        kumar2025 Lemma 9's search objective read as ||resid_u|| lambda: the allowance grows by lambda^2 (>
        1 here); the search's worst went 0.0218 -> 0.0078 (<= 1). The claim's own balance checks compute
        their allowance separately (0.220 of it, unchanged); its only control (lambda = 0) breaks positivity,
        not a balance"""),
        _t("""open: one definition of the allowance for the search and the checks, and a control (limits that
        are not KKT: PGA stopped after a few steps) that must break the balance ratio, bounding the allowance
        from above"""),
    ),
    ("verify/papers/kumar2025/saddle.py", 450, "41", "82"): Note(
        "B",
        _t("""the time grid of kumar2025 Theorem 7's paths, 41 -> 82 points on [0, 0.7 t_blow]: the statement
        is over all t, the grid picks where maxima are read; every number moved by <= 3e-6 relative (fitted
        orders 2.2266, 1.0108, 3.9491; cosines to 1e-12); the controls still break"""),
        "none",
    ),
    ("verify/papers/min2024/common.py", 85, "2", "4"): Note(
        "B",
        _t("""min2024's alternating labels (+1, -1, +1, ...) -> period 4 (+1, -1, -1, -1, ...): family F
        (x_i = y_i r_i (cos theta e_1 + sin theta e_(i+1))) has mu = cos^2 theta for any labels, and no
        hypothesis asks for balanced classes (cone_problem draws unbalanced ones). Remark 8's zeta_1 - mu^2 >=
        0 went 0.039 -> 0.0 (equality on the new instance, >= -8.9e-16); the corner micro-steps (76 -> 82)
        and caps (3995 -> 3968) all stay inside"""),
        "none",
    ),
    ("verify/papers/min2024/common.py", 111, "1.5", "3.0"): Note(
        "B",
        _t("""the radii of min2024's two-cone family, U[0.5, 1.5] -> U[0.5, 3]: mu > 0 is set by the cones'
        angle, not the radii (as for this line's 0.5 -> 1.0 mutant); only definition-1's central-difference
        field check moved, 1.29e-10 -> 1.43e-10 against 1e-6"""),
        "none",
    ),
    ("verify/papers/min2024/geometry.py", 200, "0.01", "0.02"): Note(
        "A",
        _t("""the attainment allowance of min2024 Lemma 9's sampled sup, sup |cos| >= sqrt(1 - mu^2) - 1e-2
        -> - 2e-2: the worst of the three families reads 0.5948 against 0.59 -> 0.58 (target 0.6: a deficit
        of 5.2e-3)"""),
        _t("""done after this campaign (MUTFIX21, 07f8a00), not killed: the allowance is derived from the
        sampler (geometry.attainment_allowance: exceeded with probability <= 1e-6 per family). The 1e-2 was
        not safe: at 4000 samples the n = 6, mu = 0.8 family's deficit exceeded it in about half of 40 seeds
        (median 9.6e-3, max 2.35e-2); the derivation needs ~4e5 samples there (it refuses fewer), so trials
        is 400000: allowances 1.35e-3, 1.17e-3, 6.98e-3 against deficits 1.7e-4, 2.3e-4, 1.3e-3 (tiny =
        quick). The site is gone; a doubled derived allowance still passes (re-run at tiny): a passing
        check cannot see its own allowance grow (kind A)"""),
    ),
    ("verify/papers/zhang2025/identities.py", 577, "P + D", "P - D"): Note(
        "A",
        _t("""the rounding allowance 2 (P + D + 4) eps of zhang2025 Lemma 14's (24b) read as 2 (P - D + 4)
        eps, smaller, the safe direction (moved from line 512, same site; re-run at da2622a5, the same
        numbers): worst deviation over it 0.101 -> 0.141 (generic data), 0.072 -> 0.081 (search); the
        dropped-point control still breaks (1.9e14 -> 2.8e14 x)"""),
        "none: the allowance is derived (a mean of P products, pre-activations gamma_D)",
    ),
    (
        "verify/papers/zhang2025/identities.py",
        720,
        "theta * (1 + 0.01 * rng.normal(size=theta.size))",
        "theta / (1 + 0.01 * rng.normal(size=theta.size))",
    ): Note(
        "B",
        _t("""the near-aligned starts of zhang2025 Lemma 15's search, theta (1 + 0.01 N) -> theta / (1 + 0.01
        N) (~ theta (1 - 0.01 N)): other starts of the same search; worst lhs/rhs 0.9999918 -> 0.9999920
        (<= 1)"""),
        "none",
    ),
    ("verify/papers/zhang2025/identities.py", 904, "4", "8"): Note(
        "A",
        _t("""the balance tolerance 4 (H + 4) eps (H = W1.shape[1] in {2, 3, 10, 100, 1000}) of zhang2025
        Assumption 7's imbalanced states read 4 (H + 8) eps (the second 4; x 1.67 at H = 2, x 1.004 at H =
        1000; moved from line 829, same site, re-run at da2622a5); it enters the even-part check as 2 imb_tol
        |predicted| beside the rounding scale, which dominates: worst deviation / tolerance 0.03159 ->
        0.03151; the imbalanced control of (36) still breaks (3.4e13 -> 2.5e13 x)"""),
        "none",
    ),
    ("verify/papers/zhang2025/equivalence.py", 193, "2", "4"): Note(
        "B",
        _t("""the Assumption-7 init of zhang2025's Theorem 8 / C.4 searched instances: W2's positive and
        negative parts of norm w_init / 2 each instead of w_init / sqrt 2, the same construction (equal
        halves) 0.71 x smaller; worst GD-paired deviation / tolerance 0.0031 -> 0.0047 (theorem-8), 0.0027
        -> 0.0031 (section-C.4)"""),
        "none",
    ),
    # -- the campaign at da2622a5: its 6 survivors at sites without a note, re-run at tiny (seed 0) with
    # and without each mutant in a snapshot worktree (regimes and controls unchanged in every re-run)
    ("verify/papers/kou2023/decomposition.py", 245, "-1.0", "1.0"): Note(
        "B",
        _t("""the labels of kou2023's second decomposition family ('one label -1, norms in (0.5, 2), init 1,
        step 0.5'): its one -1 label made +1, so all labels are +1. (5.1)-(5.5), (A.1)/(A.2) are identities
        of GD for any labels in {-1, 1} (both output signs j = +-1 remain, so both classes j = y_i and j =
        -y_i of rho_bar / rho_under are still exercised), and the two other families keep mixed labels. Worst
        ratios / tolerance: (A.1) 0.00289 -> 0.00308, (A.2) 0.00298 -> 0.00336 (lemma-A.3); (5.4)/(5.5)
        0.0054 -> 0.0089, monotonicity and class zeros 0.0051 -> 0.0042 (lemma-5.2); span residual 2.2e-15
        -> 1.9e-15 vs 1.3e-11, rho two ways 0.0130 -> 0.0130 (definition-5.1)"""),
        _t("""none (an instance parameter); the family's label (its name says 'one label -1') is not
        checked against its data, so the run no longer tests the imbalanced labels it names: a check that
        the family has both label signs would pin the family's purpose"""),
    ),
    ("verify/papers/kou2023/decomposition.py", 250, "0.5", "1.0"): Note(
        "B",
        _t("""the input norms of kou2023's second decomposition family, U(0.5, 2) -> U(1, 2) (less spread):
        the identities hold for any independent inputs (d = 40 > n = 6). Worst ratios / tolerance: (A.1)
        0.0029 -> 0.0038, (A.2) 0.0030 -> 0.0025; (5.4)/(5.5) 0.0054 -> 0.0052, monotonicity and class zeros
        0.0051 -> 0.0036 / 0.0043; span residual 2.2e-15 -> 2.0e-15 vs 1.3e-11; rho two ways 0.0130 ->
        0.0060"""),
        "none (an instance parameter)",
    ),
    ("verify/papers/kou2023/decomposition.py", 581, "0.5", "1.0"): Note(
        "B",
        _t("""the leaky slope of kou2023 Lemma A.3's and 5.2's d < n control (twin runs on dependent inputs,
        d = 3 < n = 6), gamma 0.5 -> 1.0 (linear): the break the control must show comes from d < n (the
        coefficients of (5.1) are then one of many, so the projected and accumulated ones differ), not from
        the activation; it still breaks by ~1e11-1e13 x the main run's tolerance: (A.1) 6.7e12 -> 8.2e12,
        (A.2) 8.4e12 -> 8.2e12, (5.4)/(5.5) 2.3e13 -> 2.0e13, monotonicity -5.0e11 -> -3.4e11, class zeros
        3.2e11 -> 3.4e11"""),
        _t("""none (a control's data); note that gamma = 1 (a linear net) is also outside the leaky-ReLU
        family, so the control now leaves two hypotheses; its break is as large as before"""),
    ),
    ("verify/papers/kumar2025/ncf.py", 77, "64 * (6 + 4 * 2)", "64 / (6 + 4 * 2)"): Note(
        "A",
        _t("""the rounding allowance 64 (n + 4 width) eps = 896 eps (n = 6, width 2) of kumar2025 Lemma 14's
        Euler searches read as 64 / 14 eps, 196 x smaller (the safe direction): the searches' worst
        |w.grad N - D N| over it went 3.4e-4 -> 0.067 (alpha = 0, p = 1) and 6.8e-4 -> 0.133 (alpha = 0.5,
        p = 3), still <= 1: the rounding met is <= 0.6 eps of |z|_1 (max|N| + 1) D"""),
        _t("""none: the allowance is derived (sums of n + depth x width products); a smaller one passing is
        no fault"""),
    ),
    ("verify/papers/kumar2025/ncf.py", 679, "4", "8"): Note(
        "B",
        _t("""the delta grid of kumar2025 Lemma 9's C_2-gradient order fits (_c_gradient), 4 -> 8 halvings
        (0.1 / 2^k down to 7.8e-4; 0.01 / 2^k for p = 1): the gradient is Theta(delta^(2p)) at every small
        delta. Fitted orders moved toward 2p with tolerances that follow the fit (order_tolerance): p = 2
        3.99978 -> 3.99993 (tol 9.2e-4 -> 5.8e-4) and 3.9984 -> 3.9995 (7.0e-3 -> 4.4e-3), p = 3 6.0000004
        -> 6.0000001 (2.0e-6 -> 1.3e-6), p = 4 8.0000056 -> 8.0000016 (3.1e-5 -> 1.9e-5), p = 1 2 to 1e-15;
        a C_2 inside H_1 would read order p, off by >= 1"""),
        "none (an experiment grid)",
    ),
    (
        "verify/papers/zhang2025/equivalence.py",
        589,
        "SAFETY * integ + RK_ROUNDINGS * int(steps[s, k]) * EPS * scale",
        "SAFETY * integ",
    ): Note(
        "A",
        _t("""the rounding floor RK_ROUNDINGS eps x steps x max|f| of zhang2025 Corollary 9's (15) tolerance
        dropped, leaving SAFETY x the coarse solve's measured integrator error (the safe direction): the
        floor is 2.3e-7 of the tolerance here, so the worst ratio moved 0.5045306 -> 0.5045307 (corrected;
        ~1/2 by construction, as (15) is exact there and the deviation is the coarse solve's error) and the
        printed reading's 123420.71 -> 123420.74 (fails either way: its XFAIL); the non-white control's
        1.8756e6 still breaks"""),
        _t("""none: the floor guards members whose coarse and tight solves agree to rounding; at the tiny
        run's worst member it is 2.3e-7 of the tolerance"""),
    ),
}


@dataclass(frozen=True)
class Instance:
    """A site declared an instance parameter: ``parameter`` (which one) and ``why`` every statement
    of the covering claims is invariant to the mutant's change of it."""

    parameter: str
    why: str


# Key: (path, enclosing def, line text without comments, whitespace normalised, operator, before,
# after, occurrence) -- verify.mutation.Mutant.site. The 13 instance survivors of the campaign at
# 7629f4c and the 14 of the campaign at cac89c2 (their notes above, kind B), found again in the code by
# that identity; never a rounding allowance or a paper constant (kinds A, C, D), which must be caught by
# checks.
INSTANCE: dict[tuple[str, str, str, str, str, str, int], Instance] = {
    (
        "verify/papers/dana2025/model.py",
        "_prop3_signs",
        "ys = solve_flow(model, be.asarray(model.pack((V, a))), args, np.linspace(0, 2.0, 201), rtol=1e-9)",
        "double",
        "2.0",
        "4.0",
        0,
    ): Instance(
        "horizon of dana2025 Lemma 1's Prop. 3 control, t in [0, 2] -> [0, 4]",
        _t("""Prop. 3 (a sign flip of a_j under |a_j(0)| << ||w_j(0)||) is stated for the flow, not a
        horizon; the collapsed a_j has settled by t = 2, so the control's minimum is the same"""),
    ),
    (
        "verify/papers/dana2025/model.py",
        "assumption_1",
        "a = rng.uniform(-1, 1, (B, p)) / np.sqrt(p)",
        "swap",
        "rng.uniform(-1, 1, (B, p)) / np.sqrt(p)",
        "rng.uniform(-1, 1, (B, p)) * np.sqrt(p)",
        0,
    ): Instance(
        "the output-layer scale of dana2025 Assumption 1's PyTorch-default control, 1/sqrt(p) -> sqrt(p)",
        _t("""the control must show a law violating |a_j| >= ||w_j||; uniform a_j on either scale has
        neurons with a_j ~ 0, so every draw of either law violates Assumption 1"""),
    ),
    (
        "verify/papers/dana2025/common.py",
        "make_data",
        "norms, y = np.ones(n), rng.choice([-1.0, 1.0], n)",
        "drop-minus",
        "-1.0",
        "1.0",
        0,
    ): Instance(
        "the signs of dana2025's unit-norm labels, {-1, 1} -> {1}",
        _t("""the claims using unit labels assume |y_i| = 1 only (C_y^- = C_y^+ = 1, K), which all-positive
        labels satisfy; for n = 1 the App. B law is symmetric under a -> -a, y -> -y, so it is the same
        law"""),
    ),
    (
        "verify/papers/kou2023/sequences.py",
        "lemma_H_3",
        "sizes = [(16, 8), (32, 16), (64, 32), (128, 64)]",
        "double",
        "16",
        "32",
        1,
    ): Instance(
        "one matrix shape of kou2023 Lemma H.3, (32, 16) -> (32, 32)",
        "the lemma holds for every m x n sub-gaussian matrix; (32, 32) is another shape",
    ),
    (
        "verify/papers/kou2023/sequences.py",
        "lemma_H_3.scan",
        "A = (2 * rng.integers(0, 2, size=(trials, m, n)) - 1) * half + mean",
        "swap",
        "(2 * rng.integers(0, 2, size=(trials, m, n)) - 1) * half + mean",
        "(2 * rng.integers(0, 2, size=(trials, m, n)) - 1) * half - mean",
        0,
    ): Instance(
        "the sign of the mean of kou2023 Lemma H.3's entries (0 in the main run, 1/2 in its control)",
        _t("""a mean -1/2 instead of +1/2 maps A to -A in law (entries {0, 1} -> {-1, 0}), and ||-A|| =
        ||A||; with mean 0 nothing changes"""),
    ),
    (
        "verify/papers/kou2023/sequences.py",
        "lemma_H_4",
        "t = np.logspace(-4, 8, 400)",
        "drop-minus",
        "-4",
        "4",
        0,
    ): Instance(
        "the t grid of kou2023 Lemma H.4's random check, 1e-4..1e8 -> 1e4..1e8",
        "the lemma holds for every t > s > 0; the grid only picks where it is evaluated",
    ),
    (
        "verify/papers/kumar2025/ncf.py",
        "",
        "ACTIVATIONS = [(0.0, 1), (0.5, 1), (0.0, 2), (1.0, 2), (0.5, 3), (0.5, 4)]",
        "double",
        "4",
        "8",
        0,
    ): Instance(
        "the quartic leaky activation of kumar2025's NCF searches, (alpha, p) = (0.5, 4) -> (0.5, 8)",
        "the lemmas hold for every sigma = max(x, alpha x)^p, p >= 1: p = 8 is another member",
    ),
    (
        "verify/papers/kumar2025/ncf.py",
        "lemma_19",
        "for p in (1, 2, 3):",
        "double",
        "2",
        "4",
        0,
    ): Instance(
        "the homogeneity degrees of kumar2025 Lemma 19's symbolic identity, (1, 2, 3) -> (1, 4, 3)",
        "d/dt(|a|^2 - p|b|^2) = 0 holds for every p >= 1 (the residual is exactly 0 at p = 4 too)",
    ),
    (
        "verify/papers/min2024/common.py",
        "cone_problem",
        "X = (y * rng.uniform(0.5, 1.5, n))[:, None] * X",
        "double",
        "0.5",
        "1.0",
        0,
    ): Instance(
        "the radii of min2024's two-cone family, U[0.5, 1.5] -> U[1, 1.5]",
        "mu > 0 is set by the cones' angle, not the radii: another instance of the same hypotheses",
    ),
    (
        "verify/papers/min2024/geometry.py",
        "lemma_8",
        "for n, mu in ((4, 0.5), (6, 0.2), (8, 0.8)):",
        "double",
        "4",
        "8",
        0,
    ): Instance(
        "the first (n, mu) family of min2024 Lemma 8, (4, 0.5) -> (8, 0.5)",
        "the lemma holds for every n and mu in (0, 1): another instance",
    ),
    (
        "verify/papers/min2024/losses.py",
        "lemma_2",
        "big = np.linspace(1.0, 1.5, 501)",
        "double",
        "501",
        "1002",
        0,
    ): Instance(
        "the grid of min2024 Lemma 2's |yhat| <= 1.5 control, 501 -> 1002 points",
        "the control's worst gap sits at the grid's end |yhat| = 1.5 on either grid",
    ),
    (
        "verify/papers/zhang2025/identities.py",
        "lemma_15.near_aligned",
        "return theta * (1 + 1e-2 * rng.normal(size=theta.size))",
        "swap",
        "0.01 * rng.normal(size=theta.size)",
        "0.01 / rng.normal(size=theta.size)",
        0,
    ): Instance(
        "the perturbation of zhang2025 Lemma 15's near-aligned search starts, 0.01 N -> 0.01 / N",
        "other starts of the same search; the lemma's inequality holds at every state",
    ),
    (
        "verify/papers/zhang2025/equivalence.py",
        "searched_instance",
        "w_init = 10 ** (-3 + 3 * squash(rest[1]))",
        "double",
        "3",
        "6",
        0,
    ): Instance(
        "the init-scale range of zhang2025's Theorem 8 / C.4 instance search, [1e-3, 1] -> [1e-6, 1e-3]",
        "the same Assumption-7 construction at a smaller scale, the regime the theorem is about",
    ),
    # -- the instance survivors of the campaign at cac89c2 (their notes above, kind B)
    (
        "verify/papers/dana2025/model.py",
        "assumption_1",
        "model, y0, args, _ = ensemble(ctx.backend, data, 8, 8, rng)",
        "double",
        "8",
        "16",
        0,
    ): Instance(
        "the ensemble of dana2025 Assumption 1's GD note, 8 x 8 -> 16 x 8 neurons",
        "it feeds a note only; the control's law (PyTorch-default layers) breaks Assumption 1 on every draw",
    ),
    (
        "verify/papers/dana2025/model.py",
        "assumption_2",
        "n = int(rng.integers(2, 40))",
        "double",
        "40",
        "80",
        0,
    ): Instance(
        "the sizes of dana2025 Assumption 2's random boundary data, n < 40 -> n < 80",
        "the checker and (32) are stated for every n",
    ),
    (
        "verify/papers/dana2025/common.py",
        "run_gd",
        "steps = int(np.ceil(T / lr / every)) * every",
        "swap",
        "T / lr / every",
        "T / lr * every",
        0,
    ): Instance(
        "the horizon of dana2025's GD runs, T -> every^2 T",
        _t("""Theorem 1's conclusions (convergence under event I, the rate (6) at every state) hold on any
        horizon, and every check reads the horizon the run reached"""),
    ),
    (
        "verify/papers/kou2023/sequences.py",
        "",
        "C_VALUES = (0.01, 0.5, 2.0)",
        "double",
        "2.0",
        "4.0",
        0,
    ): Instance(
        "the increments C of kou2023's extreme sequences, (0.01, 0.5, 2) -> (0.01, 0.5, 4)",
        "Lemmas 5.3, H.1 and H.2 hold for every C > 0",
    ),
    (
        "verify/papers/kou2023/decomposition.py",
        "twin_runs",
        "eta = 0.05 * n * m / float((X * X).sum(axis=1).max())",
        "swap",
        "0.05 * n",
        "0.05 / n",
        0,
    ): Instance(
        "the step size of kou2023's twin GD runs, (n m)^2 = 576 x smaller",
        "(5.1)-(5.5) and (A.1)/(A.2) are identities of GD at every step size",
    ),
    (
        "verify/papers/kou2023/decomposition.py",
        "twin_runs",
        "W0 = 1e-2 * rng.normal(size=(B, 2 * m, d))",
        "swap",
        "0.01 * rng.normal(size=(B, 2 * m, d))",
        "0.01 / rng.normal(size=(B, 2 * m, d))",
        0,
    ): Instance(
        "the initial weights of kou2023's twin GD runs, 1e-2 N(0, 1) -> 1e-2 / N(0, 1)",
        "the decomposition and its recursions are exact along GD from any W_0; the claims assume no init law",
    ),
    (
        "verify/papers/kou2023/decomposition.py",
        "twin_runs.field",
        'return net(t, yflat, a) - (decay / eta) * (yflat - a["anchor"])',
        "swap",
        "decay / eta * (yflat - a['anchor'])",
        "decay / eta / (yflat - a['anchor'])",
        0,
    ): Instance(
        "the pull of kou2023 Definition 5.1's out-of-span control, (decay/eta)(W - A) -> (decay/eta)/(W - A)",
        "a control's update only: any non-gradient pull that leaves span{x_i} breaks GD (3.2) alike",
    ),
    (
        "verify/papers/kumar2025/ncf.py",
        "lemma_14",
        "for depth in (2, 3, 4):",
        "double",
        "2",
        "4",
        0,
    ): Instance(
        "the depths of kumar2025 Lemma 14's random Euler check, (2, 3, 4) -> (4, 3, 4)",
        "Euler's identity for the homogeneous NCF holds at every depth",
    ),
    (
        "verify/papers/kumar2025/ncf.py",
        "lemma_14",
        "for alpha, p in [(0.0, 1), (0.5, 3)]:",
        "double",
        "3",
        "6",
        0,
    ): Instance(
        "the activation degree of one of kumar2025 Lemma 14's Euler searches, (0.5, 3) -> (0.5, 6)",
        "the identity holds for every max(x, alpha x)^p, p >= 1",
    ),
    (
        "verify/papers/kumar2025/saddle.py",
        "_instance",
        "s_grid = np.linspace(0.0, T, 41)",
        "double",
        "41",
        "82",
        0,
    ): Instance(
        "the time grid of kumar2025 Theorem 7's paths, 41 -> 82 points",
        "the statement is over all t; the grid only picks where the maxima are read",
    ),
    (
        "verify/papers/min2024/common.py",
        "alternating_labels",
        "return np.where(np.arange(n) % 2 == 0, 1.0, -1.0)",
        "double",
        "2",
        "4",
        0,
    ): Instance(
        "the label pattern of min2024's family F, period 2 -> period 4 (one +1 in four)",
        "family F has mu = cos^2 theta for any labels, and no hypothesis asks for balanced classes",
    ),
    (
        "verify/papers/min2024/common.py",
        "cone_problem",
        "X = (y * rng.uniform(0.5, 1.5, n))[:, None] * X",
        "double",
        "1.5",
        "3.0",
        0,
    ): Instance(
        "the radii of min2024's two-cone family, U[0.5, 1.5] -> U[0.5, 3]",
        "mu > 0 is set by the cones' angle, not the radii: another instance of the same hypotheses",
    ),
    (
        "verify/papers/zhang2025/identities.py",
        "lemma_15.near_aligned",
        "return theta * (1 + 1e-2 * rng.normal(size=theta.size))",
        "swap",
        "theta * (1 + 0.01 * rng.normal(size=theta.size))",
        "theta / (1 + 0.01 * rng.normal(size=theta.size))",
        0,
    ): Instance(
        "the near-aligned starts of zhang2025 Lemma 15's search, theta (1 + 0.01 N) -> theta / (1 + 0.01 N)",
        "other starts of the same search; the lemma's inequality holds at every state",
    ),
    (
        "verify/papers/zhang2025/equivalence.py",
        "searched_instance",
        "W2 = np.concatenate([pos / np.linalg.norm(pos), -neg / np.linalg.norm(neg)]) * w_init / np.sqrt(2)",
        "double",
        "2",
        "4",
        0,
    ): Instance(
        "the init scale of zhang2025's Theorem 8 / C.4 searched instances, W2 x 1/sqrt 2",
        "Assumption 7 asks for equal positive and negative halves, which a common scale keeps",
    ),
}


def explain(row: dict) -> Note | None:
    """The note for a survivor row of :func:`verify.mutation.run`, if one was written."""
    return NOTES.get((row["path"], row["line"], row["before"], row["after"]))
