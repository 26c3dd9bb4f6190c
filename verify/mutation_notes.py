"""Why each surviving mutant of the committed campaign left every verdict unchanged, and which
mutation sites are instance parameters.

Issue 14 item 9: a mutant that moves a number some check compared but no verdict is a
*survivor*, and it stays one here -- a note says why, it never reclassifies. The renderer of
``reports/mutation/mutation.md`` (:func:`verify.mutation._markdown`) looks each survivor up by
its site identity (:attr:`verify.mutation.Mutant.site`: path, enclosing def, line text, operator,
edit, occurrence; no line number, so a note follows its line when code above it moves, and goes
stale, visibly, when the line itself changes) and prints ``**not explained**`` for any survivor
without a note. The numbers quoted are each survivor's claims re-run at the campaign's profile
(tiny, seed 0) with and without the mutant.

:data:`INSTANCE` declares, by the same site identity, the sites that set an instance or experiment
parameter under which every hypothesis of the covering claims still holds. A declaration alone
reclassifies nothing: a survivor there is *instance-equivalent* only when its own run shows the
instance admissible (:func:`verify.mutation.decide`), and the report lists it under that status
with the reason.
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
    reaches (tests/numeric/test_networks.py runs it). The campaign at f2173873 (2026-11-29 evening,
    tiny, on a machine shared with two full-profile lanes and helpers): 79 killed, 19 survived, 8
    instance-equivalent, 1 unexercised, 2 uncovered, 0 timeout, 17 equivalent: 72.5% and, without the
    instance-equivalent, 78.2%. Against da2622a5: numeric/models/networks.py's frozen-pattern slope
    (unexercised) and its sliding right-hand side (timeout) are killed (zhang2025 Corollary 9 XFAIL ->
    ERROR, Proposition 18 PASS -> ERROR); dana2025 model.py's Section 2 Euler integral (two new sites) and
    kou2023 H.3's search bound are killed; min2024 common.py's init scale went equivalent -> survived
    (kind B); new survivors: kou2023 psi2_norm's root bracket (A) and its Gaussian factor's exponent (D,
    killed after this campaign by H.3's closed-form check of psi2_norm, not re-run), zhang2025 Corollary
    9-corrected's searched ||beta|| range (B). Four survivors had lost their notes when their lines moved:
    notes are now keyed by site identity, as INSTANCE is, and this report was re-rendered with them. The
    session's later audit fixes (kou2023, kumar2025, min2024, zhang2025 modules) are not in this
    campaign.""")

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
NOTES: dict[tuple[str, str, str, str, str, str, int], Note] = {
    (
        "verify/papers/kou2023/sequences.py",
        "psi2_norm.excess",
        "return float(logsumexp(atoms**2 * lam / d - np.log(d) / 2, b=weights) - np.log(2.0))",
        "double",
        "2",
        "4",
        1,
    ): Note(
        "D",
        _t("""the Gaussian factor (1 - 2 w lambda)^(-1/2) of psi2_norm's E e^(a^2 lambda) read as
        (1 - 2 w lambda)^(-1/4): K of a law with a Gaussian share too small (N(0, 1): sqrt(32/15) for
        sqrt(8/3)), which only the search families with a Gaussian share read; their ratios moved and
        stayed below 1 at tiny"""),
        "done after the campaign at f2173873: kou2023 Lemma H.3 checks psi2_norm at its closed forms (signs "
        "1/sqrt(log 2), N(0, w) sqrt(8w/3)), which this mutant fails",
    ),
    (
        "verify/papers/zhang2025/equivalence.py",
        "corollary9_instance",
        "y0 = y0 * 10 ** (-1 + 2 * squash(z[2])) / np.linalg.norm(X0.T @ y0 / n)",
        "swap",
        "-1 + 2 * squash(z[2])",
        "-1 - 2 * squash(z[2])",
        0,
    ): Note(
        "B",
        _t("""the range of s = ||beta|| of zhang2025 Corollary 9-corrected's searched instances, [0.1, 10]
        -> [1e-3, 0.1]: a time and weight rescaling of the same instances ((15) is exact at every scale), so
        the search's ratios move and the statement holds on every instance (the line became
        scaled_targets(...) after this campaign, a new site)"""),
        "none (an instance parameter)",
    ),
    (
        "verify/papers/kou2023/sequences.py",
        "psi2_norm",
        "ends = [np.log(2 / weights[j]) / atoms[j] ** 2] if atoms[j] != 0 else []",
        "double",
        "2",
        "4",
        0,
    ): Note(
        "A",
        _t("""the right end of psi2_norm's root bracket, log(2/w_j)/c_j^2 -> log(4/w_j)/c_j^2 (the largest
        atom alone reaches E e^(a^2 lambda) = 4 there instead of 2): a wider bracket around the same root of
        an increasing function, so brentq returns the same lambda to its xtol 1e-15 / rtol 1e-14; kou2023
        H.3's numbers moved in their last digits only"""),
        "none: the bracket is a solver setting, not a formula; the closed-form check of psi2_norm (signs "
        "1/sqrt(log 2), N(0, w) sqrt(8w/3)) pins the root itself",
    ),
    (
        "verify/papers/dana2025/common.py",
        "theorem1_constant",
        "return 1.2 * float(norms.min()) ** 2 / float(norms.max()) * float(np.abs(y).min())",
        "swap",
        "1.2 * float(norms.min()) ** 2 / float(norms.max())",
        "1.2 * float(norms.min()) ** 2 * float(norms.max())",
        0,
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
    (
        "verify/papers/dana2025/common.py",
        "run_gd",
        "steps = int(np.ceil(T / lr / every)) * every",
        "swap",
        "T / lr / every",
        "T / lr * every",
        0,
    ): Note(
        "B",
        _t("""run_gd's step count ceil(T / lr / every) every read as ceil(T / lr x every) every: dana2025
        Theorem 1's and Corollary 1's GD runs go every^2 = 100 x longer (T = 60 -> 6000, as the check labels
        say). Every check reads the run's own records; Theorem 1's conclusions (convergence under event I,
        the rate (6) at every state) hold on any horizon: 12/12 converge either way, and the rate checks'
        worst states (before t = 60) did not move"""),
        "none (a horizon; a shorter run could only fail the convergence certificate)",
    ),
    (
        "verify/papers/dana2025/common.py",
        "p_theorem1",
        "return int(np.ceil(4 * np.log(4 * n / eps)))",
        "double",
        "4",
        "8",
        0,
    ): Note(
        "C",
        _t("""Theorem 1's width ceil(4 log(4n/eps)) -> ceil(8 log(4n/eps)): p = 22 -> 44 at tiny (n = 6, eps =
        0.1), wider than the sufficient width, the safe direction: n (3/4)^p / eps 0.150 -> 0.015 (<= 1) in
        lemma-5-corrected, and theorem-1's p = 44 ensemble converges 12/12 with its rate checks met
        (asymptotic 0.874 vs 0.100)"""),
        _t("""a unit test of p_theorem1 against the statement's formula at two (n, eps) would pin it (as for
        its earlier 4 n -> 4 / n mutant); the checks are one-sided as the statement is"""),
    ),
    (
        "verify/papers/kou2023/sequences.py",
        "_check_sandwich",
        "slack = 4 * (t + 1) * EPS * np.maximum(np.abs(x), 1)",
        "swap",
        "4 * (t + 1)",
        "4 / (t + 1)",
        0,
    ): Note(
        "A",
        _t("""the float64 slack 4 (t + 1) eps max(|x_t|, 1) of kou2023's random-sandwich bound checks shrunk
        by (t + 1)^2, the safe direction (moved from line 75, same site; re-run at da2622a5): the worst
        margins (9.99e-5 H.2, 5.35e-5 / 7.57e-5 5.3-corrected, 2.96e-5 H.1, lower 3.76e-3 in the printed 5.3)
        are >= 1e6 x the largest slack (~2e-11 at t = 2000) and moved by <= 4e-15 (1.4e-11 in 5.3's lower
        margin); every control's margin (-2.1 to -2288) moved by <= 4e-12"""),
        "none: the slack is derived (one addition and one exp per step); a smaller one passing is no fault",
    ),
    (
        "verify/papers/dana2025/model.py",
        "step_grid",
        "return 0.1 / lam * 2.0 ** -np.arange(k)",
        "double",
        "0.1",
        "0.2",
        0,
    ): Note(
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
    (
        "verify/papers/kou2023/sequences.py",
        "",
        "KAPPA_ROUNDING = 64 * EPS",
        "double",
        "64",
        "128",
        0,
    ): Note(
        "A",
        _t("""KAPPA_ROUNDING, the rounding allowance of the kappa_C identity check, 64 eps -> 128 eps (1.4e-14
        -> 2.8e-14; moved from line 114, same site, re-run at da2622a5: lemma-H.2 and 5.3-corrected at x0 =
        0 and 1): the deviation met is 2.2e-16 (about 1 eps), and the identity's mutants (e^(C e^-x0) ->
        e^(C e^x0)) fail it by ~100, so no allowance between 1 eps and 1 could change a verdict"""),
        "none",
    ),
    (
        "verify/papers/kou2023/decomposition.py",
        "check_margin_bracket",
        "-4 * (n + d) * n * EPS,",
        "swap",
        "-4 * (n + d)",
        "-4 / (n + d)",
        0,
    ): Note(
        "A",
        _t("""the rounding allowance 4 (n + d) n eps of Definition 5.1's two-sided margin bracket shrunk by
        (n + d)^2 (the safe direction; moved from line 254, same site): re-run at da2622a5, the allowance
        went 2.5e-13 -> 1.2e-16 while the margin sits 0.068 (tiny) inside its bracket, >= 3e11 x either
        allowance"""),
        "none",
    ),
    (
        "verify/papers/min2024/common.py",
        "cone_problem",
        "W0 = rng.normal(size=(B, h, D)) / np.sqrt(D)",
        "swap",
        "rng.normal(size=(B, h, D)) / np.sqrt(D)",
        "rng.normal(size=(B, h, D)) * np.sqrt(D)",
        0,
    ): Note(
        "B",
        _t("""the initial weights of min2024's two-cone family drawn D = 4 x larger in norm: the directions
        follow the same isotropic law, and the claims scale the init by eps (Problem.log_eps), so the change
        acts as an eps 4 x larger; the Theorem 1.2 re-runs to t2 + 2/(alpha L(t2)) made the line's numbers
        reach a compared value (equivalent in the campaign before)"""),
        "none (an instance parameter; not yet declared in INSTANCE: its audit needs the covering claims "
        "re-run)",
    ),
    (
        "verify/papers/min2024/common.py",
        "alternating_labels",
        "return np.where(np.arange(n) % 2 == 0, 1.0, -1.0)",
        "double",
        "2",
        "4",
        0,
    ): Note(
        "B",
        _t("""min2024's alternating labels (+1, -1, +1, ...) -> period 4 (+1, -1, -1, -1, ...): family F
        (x_i = y_i r_i (cos theta e_1 + sin theta e_(i+1))) has mu = cos^2 theta for any labels, and no
        hypothesis asks for balanced classes (cone_problem draws unbalanced ones). Remark 8's zeta_1 - mu^2 >=
        0 went 0.039 -> 0.0 (equality on the new instance, >= -8.9e-16); the corner micro-steps (76 -> 82)
        and caps (3995 -> 3968) all stay inside"""),
        "none",
    ),
    (
        "verify/papers/min2024/common.py",
        "cone_problem",
        "X = (y * rng.uniform(0.5, 1.5, n))[:, None] * X",
        "double",
        "1.5",
        "3.0",
        0,
    ): Note(
        "B",
        _t("""the radii of min2024's two-cone family, U[0.5, 1.5] -> U[0.5, 3]: mu > 0 is set by the cones'
        angle, not the radii (as for this line's 0.5 -> 1.0 mutant); only definition-1's central-difference
        field check moved, 1.29e-10 -> 1.43e-10 against 1e-6"""),
        "none",
    ),
    (
        "verify/papers/zhang2025/identities.py",
        "_first_term_ratios",
        "tol_b = 2 * (P + D + 4) * EPS * (np.abs(W1) @ (np.abs(X).T @ np.abs(y))) / P",
        "swap",
        "P + D",
        "P - D",
        0,
    ): Note(
        "A",
        _t("""the rounding allowance 2 (P + D + 4) eps of zhang2025 Lemma 14's (24b) read as 2 (P - D + 4)
        eps, smaller, the safe direction (moved from line 512, same site; re-run at da2622a5, the same
        numbers): worst deviation over it 0.101 -> 0.141 (generic data), 0.072 -> 0.081 (search); the
        dropped-point control still breaks (1.9e14 -> 2.8e14 x)"""),
        "none: the allowance is derived (a mean of P products, pre-activations gamma_D)",
    ),
    (
        "verify/papers/zhang2025/identities.py",
        "_imbalanced_deviations",
        "imb_tol = 4 * (W1.shape[1] + 4) * EPS",
        "double",
        "4",
        "8",
        1,
    ): Note(
        "A",
        _t("""the balance tolerance 4 (H + 4) eps (H = W1.shape[1] in {2, 3, 10, 100, 1000}) of zhang2025
        Assumption 7's imbalanced states read 4 (H + 8) eps (the second 4; x 1.67 at H = 2, x 1.004 at H =
        1000; moved from line 829, same site, re-run at da2622a5); it enters the even-part check as 2 imb_tol
        |predicted| beside the rounding scale, which dominates: worst deviation / tolerance 0.03159 ->
        0.03151; the imbalanced control of (36) still breaks (3.4e13 -> 2.5e13 x)"""),
        "none",
    ),
    (
        "verify/papers/kou2023/decomposition.py",
        "_families",
        "unbalanced[0] = -1.0",
        "drop-minus",
        "-1.0",
        "1.0",
        0,
    ): Note(
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
    (
        "verify/papers/kou2023/decomposition.py",
        "_families",
        "gaussian_points(rng, n, d, (0.5, 2.0)),",
        "double",
        "0.5",
        "1.0",
        0,
    ): Note(
        "B",
        _t("""the input norms of kou2023's second decomposition family, U(0.5, 2) -> U(1, 2) (less spread):
        the identities hold for any independent inputs (d = 40 > n = 6). Worst ratios / tolerance: (A.1)
        0.0029 -> 0.0038, (A.2) 0.0030 -> 0.0025; (5.4)/(5.5) 0.0054 -> 0.0052, monotonicity and class zeros
        0.0051 -> 0.0036 / 0.0043; span residual 2.2e-15 -> 2.0e-15 vs 1.3e-11; rho two ways 0.0130 ->
        0.0060"""),
        "none (an instance parameter)",
    ),
    (
        "verify/papers/kou2023/decomposition.py",
        "_dependent_control",
        'check(ctx, twin_runs(ctx, "gd-dependent", Xd, yd, m, (0.5,), 1, steps), " (d < n)", tol)',
        "double",
        "0.5",
        "1.0",
        0,
    ): Note(
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
    (
        "verify/papers/kumar2025/ncf.py",
        "_euler_violation",
        "return abs(lhs - D * float(value[0])) / scale / (64 * (6 + 4 * 2) * EPS)",
        "swap",
        "64 * (6 + 4 * 2)",
        "64 / (6 + 4 * 2)",
        0,
    ): Note(
        "A",
        _t("""the rounding allowance 64 (n + 4 width) eps = 896 eps (n = 6, width 2) of kumar2025 Lemma 14's
        Euler searches read as 64 / 14 eps, 196 x smaller (the safe direction): the searches' worst
        |w.grad N - D N| over it went 3.4e-4 -> 0.067 (alpha = 0, p = 1) and 6.8e-4 -> 0.133 (alpha = 0.5,
        p = 3), still <= 1: the rounding met is <= 0.6 eps of |z|_1 (max|N| + 1) D"""),
        _t("""none: the allowance is derived (sums of n + depth x width products); a smaller one passing is
        no fault"""),
    ),
    (
        "verify/papers/kumar2025/ncf.py",
        "_c_gradient",
        "deltas = (0.01 if p == 1 else 0.1) * 0.5 ** np.arange(4)",
        "double",
        "4",
        "8",
        0,
    ): Note(
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
        "corollary9_deviation",
        "tol = SAFETY * integ + RK_ROUNDINGS * int(steps[s, k]) * EPS * scale",
        "drop-term",
        "SAFETY * integ + RK_ROUNDINGS * int(steps[s, k]) * EPS * scale",
        "SAFETY * integ",
        0,
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
    return NOTES.get(tuple(row["site"]))
