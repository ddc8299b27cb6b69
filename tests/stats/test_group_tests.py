"""Tests of fairbook.stats.group_tests: every p-value table against scipy, every rejection
probability against brute-force enumeration and Monte Carlo, and the tests' known properties."""

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from fairbook.stats import group_tests as gt
from fairbook.stats import match

SMALL_TABLES = [(1, 1), (3, 5), (7, 4), (10, 12)]
ONE_SAMPLE_TESTS = [t for t in gt.EXACT_TESTS if t not in gt.TWO_SAMPLE_TESTS]
BOSCHLOO_ATOL = 1e-4  # the module's 401-point grid supremum against scipy's optimiser


def table(x, n, y, N):
    """The 2×2 table in scipy's layout: the columns are the two samples."""
    return [[x, y], [n - x, N - y]]


def all_cells(n, N):
    return itertools.product(range(n + 1), range(N + 1))


def random_cells(count, seed, n_max=40, N_max=80):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n, N = int(rng.integers(1, n_max + 1)), int(rng.integers(1, N_max + 1))
        yield int(rng.integers(0, n + 1)), n, int(rng.integers(0, N + 1)), N


# --------------------------------------------------------------------------- 1. scipy oracles
@pytest.mark.parametrize(("n", "N"), SMALL_TABLES)
def test_fisher_equals_scipy_on_every_table(n, N):
    got = gt.pvalue_table("fisher", n, N=N)
    assert got.shape == (n + 1, N + 1)
    for x, y in all_cells(n, N):
        expected = stats.fisher_exact(table(x, n, y, N)).pvalue
        assert got[x, y] == pytest.approx(expected, abs=1e-12), (x, y)


def test_fisher_equals_scipy_on_random_tables():
    for x, n, y, N in random_cells(60, seed=1, n_max=60, N_max=300):
        expected = stats.fisher_exact(table(x, n, y, N)).pvalue
        assert gt.pvalue("fisher", x, n, y=y, N=N) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(("n", "N"), SMALL_TABLES)
def test_boschloo_equals_scipy_on_every_table(n, N):
    got = gt.pvalue_table("boschloo", n, N=N)
    worst = 0.0
    for x, y in all_cells(n, N):
        worst = max(worst, abs(got[x, y] - stats.boschloo_exact(table(x, n, y, N)).pvalue))
    assert worst <= BOSCHLOO_ATOL


def test_boschloo_equals_scipy_on_random_tables():
    for x, n, y, N in random_cells(25, seed=2):
        expected = stats.boschloo_exact(table(x, n, y, N)).pvalue
        got = gt.pvalue("boschloo", x, n, y=y, N=N)
        assert got == pytest.approx(expected, abs=BOSCHLOO_ATOL), (x, n, y, N)


def _chi2_pvalue(x, n, y, N):
    if x + y in (0, n + N):  # a zero margin: no evidence of any difference
        return 1.0
    return stats.chi2_contingency(table(x, n, y, N), correction=False).pvalue


@pytest.mark.parametrize(("n", "N"), SMALL_TABLES)
def test_score_equals_uncorrected_chi_squared(n, N):
    got = gt.pvalue_table("score", n, N=N)
    for x, y in all_cells(n, N):
        assert got[x, y] == pytest.approx(_chi2_pvalue(x, n, y, N), abs=1e-12), (x, y)
    for x, n2, y, N2 in random_cells(40, seed=3, n_max=200, N_max=2000):
        expected = _chi2_pvalue(x, n2, y, N2)
        assert gt.pvalue("score", x, n2, y=y, N=N2) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(("n", "N"), [(3, 5), (7, 4)])
@pytest.mark.parametrize(("test", "pooled"), [("wald", False), ("score", True)])
def test_z_statistic_matches_barnard(n, N, test, pooled):
    """|z| recovered from the two-sided normal p-value equals barnard_exact's |statistic|."""
    got = gt.pvalue_table(test, n, N=N)
    checked = 0
    for x, y in all_cells(n, N):
        p1, p2, pp = x / n, y / N, (x + y) / (n + N)
        if pooled:
            se = math.sqrt(pp * (1 - pp) * (1 / n + 1 / N))
        else:
            se = math.sqrt(p1 * (1 - p1) / n + p2 * (1 - p2) / N)
        if se == 0 or got[x, y] < 1e-300:
            continue
        statistic = stats.barnard_exact(table(x, n, y, N), pooled=pooled, n=4).statistic
        z = stats.norm.isf(got[x, y] / 2)
        assert z == pytest.approx(abs(statistic), rel=1e-9, abs=1e-9), (x, y)
        checked += 1
    assert checked >= (n + 1) * (N + 1) // 2


# --------------------------------------------------------------------------- 2. MATCH
@pytest.mark.parametrize("n", [1, 2, 5, 13, 40])
@pytest.mark.parametrize("rate", [0.0, 0.2, 1 / 3, 0.5, 0.9, 1.0])
def test_match_known_reference_equals_match_test(n, rate):
    got = gt.pvalue_table("match", n, p_ref=rate)
    cells = [rate, 1 - rate, 0.0, 0.0]  # P(TP) + P(FP) = rate: PPR's reference rate
    for x in range(n + 1):
        assert got[x] == pytest.approx(match.test("PPR", [x, n - x, 0, 0], cells), abs=1e-12)


@pytest.mark.parametrize(("n", "N"), [(1, 1), (6, 4), (11, 20)])
def test_match_two_sample_plugs_in_the_reference_rate(n, N):
    got = gt.pvalue_table("match", n, N=N)
    for x, y in all_cells(n, N):
        rate = y / N
        expected = match.test("PPR", [x, n - x, 0, 0], [rate, 1 - rate, 0, 0])
        assert got[x, y] == pytest.approx(expected, abs=1e-12), (x, y)


# --------------------------------------------------------------------------- 3. enumeration
def _sequence_probability(bits, p):
    return math.prod(p if b else 1 - p for b in bits)


@pytest.mark.parametrize("test", ONE_SAMPLE_TESTS)
@pytest.mark.parametrize("n", [1, 2, 3, 5])
@pytest.mark.parametrize(("p_group", "p_ref"), [(0.3, 0.3), (0.1, 0.6), (0.85, 0.5)])
def test_known_reference_rejection_probability_by_enumeration(test, n, p_group, p_ref):
    for alpha in (0.051, 0.21, 0.47):
        brute = sum(
            _sequence_probability(bits, p_group)
            for bits in itertools.product((0, 1), repeat=n)
            if gt.pvalue(test, sum(bits), n, p_ref=p_ref) <= alpha
        )
        got = gt.rejection_probability(test, n, p_group=p_group, p_ref=p_ref, alpha=alpha)
        assert got == pytest.approx(brute, abs=1e-12), alpha


def _flag_fisher_scipy(x, n, y, N, alpha):
    return stats.fisher_exact(table(x, n, y, N)).pvalue <= alpha


@pytest.mark.parametrize("test", gt.EXACT_TESTS)
@pytest.mark.parametrize(("n", "N"), [(2, 3), (4, 5), (3, 1)])
def test_two_sample_rejection_probability_by_enumeration(test, n, N):
    """Every Bernoulli sequence of the group and the reference (2^(n + N) of them)."""
    p_group, p_ref = 0.35, 0.6
    for alpha in (0.051, 0.21, 0.47):
        if test == "fisher":  # an independent oracle for the flags as well

            def flag(x, y, alpha=alpha):
                return _flag_fisher_scipy(x, n, y, N, alpha)
        else:

            def flag(x, y, alpha=alpha):
                return gt.pvalue(test, x, n, y=y, N=N) <= alpha

        brute = 0.0
        for bits in itertools.product((0, 1), repeat=n + N):
            x, y = sum(bits[:n]), sum(bits[n:])
            if flag(x, y):
                brute += _sequence_probability(bits[:n], p_group) * _sequence_probability(
                    bits[n:], p_ref
                )
        got = gt.rejection_probability(test, n, p_group=p_group, p_ref=p_ref, N=N, alpha=alpha)
        assert got == pytest.approx(brute, abs=1e-12), alpha


@pytest.mark.parametrize(("n", "N"), [(1, 1), (7, 9), (20, 200), (30, 31), (1, 300), (60, 500)])
def test_boschloo_region_equals_the_pvalue_tables_flags(n, N):
    """rejection_probability finds Boschloo's region by bisection; it must be exactly the
    tables whose p-value (every table's supremum on the same grid) is at most alpha."""
    pvalues = gt.pvalue_table("boschloo", n, N=N)
    for alpha in (0.01, 0.05, 0.2, 0.5):
        for p_group, p_ref in ((0.3, 0.3), (0.5, 0.2), (0.04, 0.04)):
            x_pmf = stats.binom.pmf(np.arange(n + 1), n, p_group)
            y_pmf = stats.binom.pmf(np.arange(N + 1), N, p_ref)
            brute = x_pmf @ (pvalues <= alpha) @ y_pmf
            got = gt.rejection_probability(
                "boschloo", n, p_group=p_group, p_ref=p_ref, N=N, alpha=alpha
            )
            assert got == pytest.approx(brute, abs=1e-12), (alpha, p_group, p_ref)


def test_rejection_probability_of_a_sequence_of_rates():
    rates = [0.0, 0.2, 0.5, 1.0]
    got = gt.rejection_probability("fisher", 9, p_group=rates, p_ref=0.4, N=30)
    assert isinstance(got, np.ndarray) and got.shape == (4,)
    for rate, value in zip(rates, got, strict=True):
        expected = gt.rejection_probability("fisher", 9, p_group=rate, p_ref=0.4, N=30)
        assert value == pytest.approx(expected, abs=1e-15)


# --------------------------------------------------------------------------- 4. Monte Carlo
@pytest.mark.parametrize("p_group", [0.3, 0.45])
def test_monte_carlo_agrees_with_exact_rejection_probability(p_group):
    n, N, p_ref, alpha, sims = 20, 200, 0.3, 0.05, 20_000
    rng = np.random.default_rng(2024)
    for test in gt.EXACT_TESTS:
        x = rng.binomial(n, p_group, size=sims)
        y = rng.binomial(N, p_ref, size=sims)
        rate = (gt.pvalue_table(test, n, N=N)[x, y] <= alpha).mean()
        exact = gt.rejection_probability(test, n, p_group=p_group, p_ref=p_ref, N=N)
        se = math.sqrt(exact * (1 - exact) / sims)
        assert abs(rate - exact) <= 4 * se, (test, rate, exact)
    for test in ONE_SAMPLE_TESTS:
        x = rng.binomial(n, p_group, size=sims)
        rate = (gt.pvalue_table(test, n, p_ref=p_ref)[x] <= alpha).mean()
        exact = gt.rejection_probability(test, n, p_group=p_group, p_ref=p_ref)
        se = math.sqrt(exact * (1 - exact) / sims)
        assert abs(rate - exact) <= 4 * se, (test, rate, exact)


# --------------------------------------------------------------------------- 5. properties
P_GRID = np.linspace(0.0013, 0.9987, 97)  # off Boschloo's π grid (multiples of 1/400)


@pytest.mark.parametrize("test", gt.TWO_SAMPLE_TESTS)
@pytest.mark.parametrize(("n", "N"), [(5, 5), (7, 9), (10, 30), (3, 50), (20, 200)])
def test_exact_tests_never_exceed_alpha(test, n, N):
    sizes = [gt.exact_size(test, n, p=p, N=N) for p in P_GRID]
    assert max(sizes) <= 0.05
    assert max(sizes) > 0  # not vacuous: every case rejects something


def _fisher_one_sided(n, N):
    """P(X <= x | s) and P(X >= x | s) from scipy's hypergeometric law, every (x, y)."""
    x = np.arange(n + 1)[:, None]
    s = x + np.arange(N + 1)[None, :]
    law = stats.hypergeom(n + N, n, s)
    return law.cdf(x), law.sf(x - 1)


@pytest.mark.parametrize(("n", "N"), [(3, 5), (10, 12), (20, 200), (30, 31)])
def test_boschloo_region_contains_doubled_one_sided_fisher(n, N):
    """Boschloo's one-sided p-value never exceeds Fisher's (a mixture over margins of
    conditional tails each <= t), so two-sided Boschloo <= 2 min(Fisher's one-sided).

    Fisher's *two-sided* p-value (tables no more likely) is not an upper bound: scipy itself
    gives boschloo 0.639 > fisher 0.455 at x, n, y, N = 1, 10, 0, 12 (checked below).
    """
    lower, upper = _fisher_one_sided(n, N)
    bound = np.minimum(1.0, 2 * np.minimum(lower, upper))
    assert (gt.pvalue_table("boschloo", n, N=N) <= bound + 1e-9).all()
    flags_b = gt.pvalue_table("boschloo", n, N=N) <= 0.05
    flags_f = bound <= 0.05
    x_pmf = stats.binom.pmf(np.arange(n + 1), n, 0.2)
    y_pmf = stats.binom.pmf(np.arange(N + 1), N, 0.5)
    assert x_pmf @ flags_b @ y_pmf >= x_pmf @ flags_f @ y_pmf


def test_boschloo_above_fisher_two_sided_in_scipy_too():
    t = table(1, 10, 0, 12)
    assert stats.boschloo_exact(t).pvalue > stats.fisher_exact(t).pvalue + 0.1
    assert gt.pvalue("boschloo", 1, 10, y=0, N=12) > gt.pvalue("fisher", 1, 10, y=0, N=12) + 0.1


def test_wald_is_anti_conservative_at_small_n_and_tends_to_alpha():
    assert gt.exact_size("wald", 10, p=0.1) > 0.3  # P(x = 0) = 0.9^10 alone is 0.349
    assert gt.exact_size("wald", 10, p=0.1, N=10) > 0.05
    for p in (0.1, 0.3, 0.5):
        assert abs(gt.exact_size("wald", 10_000, p=p) - 0.05) < 0.005
    # x = 0 (se 0, rate differs: p-value 0) and x >= 5 (|z| >= 2.53) are flagged
    expected = 0.9**10 + stats.binom.sf(4, 10, 0.1)
    assert gt.exact_size("wald", 10, p=0.1) == pytest.approx(expected, abs=1e-12)


def test_match_known_reference_never_exceeds_alpha():
    worst = max(
        gt.exact_size("match", n, p=p, alpha=alpha)
        for n in range(1, 61)
        for p in np.linspace(0.0, 1.0, 41)
        for alpha in (0.05, 0.2)
    )
    assert 0.04 < worst <= 0.2


@pytest.mark.parametrize(
    ("test", "n", "prevalence", "N"),
    [("match", 12, 0.3, None), ("match", 12, 0.3, 300), ("fisher", 30, 0.4, 300)],
)
def test_ratio_rejection_probability_by_sum_over_positives(test, n, prevalence, N):
    kw = {"p_group": 0.5, "p_ref": 0.8}
    got, hole = gt.ratio_rejection_probability(test, n, prevalence=prevalence, N=N, **kw)
    assert hole == pytest.approx((1 - prevalence) ** n, rel=1e-14)
    reference = None if N is None else max(1, round(N * prevalence))
    brute = sum(
        stats.binom.pmf(m, n, prevalence)
        / (1 - hole)
        * gt.rejection_probability(test, m, N=reference, **kw)
        for m in range(1, n + 1)
    )
    assert brute - 2 * gt.RATIO_TAIL - 1e-12 <= got <= brute + 1e-12
    assert got > 0.1  # a real difference (0.5 vs 0.8) is found sometimes


def test_ratio_rejection_probability_without_positives():
    probability, hole = gt.ratio_rejection_probability(
        "match", 7, prevalence=0.0, p_group=0.5, p_ref=0.5
    )
    assert math.isnan(probability) and hole == 1.0


# --------------------------------------------------------------------------- 6. bootstrap
def test_bootstrap_is_reproducible_and_reports_its_standard_error():
    kw = {"p_group": 0.3, "p_ref": 0.3, "N": 50, "n_boot": 100, "n_datasets": 300}
    first = gt.bootstrap_rejection_probability(15, seed=7, **kw)
    assert first == gt.bootstrap_rejection_probability(15, seed=7, **kw)
    assert first != gt.bootstrap_rejection_probability(15, seed=8, **kw)
    estimate, se = first
    assert se == pytest.approx(math.sqrt(estimate * (1 - estimate) / 300), rel=1e-15)
    assert 0 < estimate < 1


def test_bootstrap_is_anti_conservative_at_n_10():
    estimate, se = gt.bootstrap_rejection_probability(
        10, p_group=0.1, p_ref=0.1, n_boot=300, n_datasets=2000, seed=1
    )
    assert estimate - 4 * se > 0.05


def _loop_bootstrap_rate(n, p_group, p_ref, N, alpha, n_boot, n_datasets, seed):
    """The percentile bootstrap written plainly: one dataset, one resample at a time."""
    rng = np.random.default_rng(seed)
    flagged = 0
    for _ in range(n_datasets):
        x = rng.binomial(n, p_group)
        y = None if N is None else rng.binomial(N, p_ref)
        differences = []
        for _ in range(n_boot):
            group = sum(rng.random() < x / n for _ in range(n)) / n
            reference = p_ref if N is None else rng.binomial(N, y / N) / N
            differences.append(group - reference)
        lo, hi = np.quantile(differences, [alpha / 2, 1 - alpha / 2])
        flagged += lo > 0 or hi < 0
    return flagged / n_datasets


@pytest.mark.parametrize(("N", "p_group"), [(None, 0.1), (30, 0.1), (30, 0.5)])
def test_bootstrap_agrees_with_a_plain_loop(N, p_group):
    n, p_ref, n_boot, datasets = 8, 0.1, 100, 300
    loop = _loop_bootstrap_rate(n, p_group, p_ref, N, 0.05, n_boot, datasets, seed=11)
    estimate, _ = gt.bootstrap_rejection_probability(
        n, p_group=p_group, p_ref=p_ref, N=N, n_boot=n_boot, n_datasets=3000, seed=12
    )
    se = math.sqrt(estimate * (1 - estimate) * (1 / 3000 + 1 / datasets))
    assert abs(loop - estimate) <= 4 * max(se, 1e-3), (loop, estimate)


# --------------------------------------------------------------------------- 7. Bayes
def _bayes_tails_quad(x, n, y, N, prior, margin):
    """P(p_g − p_r <= margin), P(p_r − p_g <= margin) by scipy.integrate.quad."""

    def tail(a1, b1, a2, b2):  # ∫ f_2(t) F_1(t + margin) dt, split where the clip bites
        def integrand(t):
            return stats.beta.pdf(t, a2, b2) * stats.beta.cdf(min(1.0, t + margin), a1, b1)

        kw = {"epsabs": 1e-13, "epsrel": 1e-12, "limit": 500}
        value = integrate.quad(integrand, 0.0, 1.0 - margin, **kw)[0]
        return value + stats.beta.sf(1.0 - margin, a2, b2)

    g = (x + prior, n - x + prior)
    r = (y + prior, N - y + prior)
    return tail(*g, *r), tail(*r, *g)


BAYES_TABLES = [(0, 5, 0, 7), (3, 5, 1, 7), (10, 10, 0, 40), (2, 20, 100, 200), (7, 30, 3, 300)]


@pytest.mark.parametrize(("prior", "margin"), [(1.0, 0.0), (2.0, 0.0), (2.0, 0.1), (3.0, 0.25)])
def test_bayes_two_sample_quadrature_against_quad(prior, margin):
    for x, n, y, N in BAYES_TABLES:
        below, above = _bayes_tails_quad(x, n, y, N, prior, margin)
        expected = min(1.0, 2 * min(below, above))
        got = gt.pvalue("bayes", x, n, y=y, N=N, prior=prior, margin=margin)
        assert got == pytest.approx(expected, abs=1e-7), (x, n, y, N)


@pytest.mark.parametrize(
    ("x", "n", "y", "N", "prior", "margin"),
    [  # the cases a plain Gauss–Legendre rule in t got wrong (1e-3, 5e-4, 1e-6)
        (6, 6, 15, 15, 0.5, 0.0),
        (1, 6, 0, 15, 0.5, 0.1),
        (5, 6, 15, 15, 1.0, 0.1),
        (40, 200, 6000, 13000, 0.5, 0.0),  # a narrow reference posterior
        (2, 500, 3, 13000, 0.5, 0.0),
    ],
)
def test_bayes_two_sample_quadrature_against_quad_singular(x, n, y, N, prior, margin):
    below, above = _bayes_tails_quad(x, n, y, N, prior, margin)
    got = gt.pvalue("bayes", x, n, y=y, N=N, prior=prior, margin=margin)
    assert got == pytest.approx(min(1.0, 2 * min(below, above)), abs=1e-7)


def test_bayes_two_sample_relabelling_invariant():
    """x -> n - x, y -> N - y swaps P(p_g - p_r <= 0) and P(p_r - p_g <= 0): same p-value."""
    got = gt.pvalue_table("bayes", 6, N=15)
    assert np.abs(got - got[::-1, ::-1]).max() <= 1e-9


@pytest.mark.parametrize("prior", [0.5, 1.0, 3.0])
@pytest.mark.parametrize("margin", [0.0, 0.05, 0.3])
@pytest.mark.parametrize("p_ref", [0.0, 0.1, 0.5, 0.93, 1.0])
def test_bayes_known_reference_against_beta_cdf(prior, margin, p_ref):
    n = 9
    got = gt.pvalue_table("bayes", n, p_ref=p_ref, prior=prior, margin=margin)
    for x in range(n + 1):
        law = stats.beta(x + prior, n - x + prior)
        below = law.cdf(min(1.0, p_ref + margin))
        above = law.sf(max(0.0, p_ref - margin))
        assert got[x] == pytest.approx(min(1.0, 2 * min(below, above)), abs=1e-12)


# --------------------------------------------------------------------------- 8. hypothesis
@st.composite
def two_sample_cells(draw):
    n = draw(st.integers(1, 25))
    N = draw(st.integers(1, 40))
    return draw(st.integers(0, n)), n, draw(st.integers(0, N)), N


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(gt.EXACT_TESTS), two_sample_cells(), st.floats(0.0, 1.0))
def test_pvalues_lie_in_the_unit_interval(test, cells, p_ref):
    x, n, y, N = cells
    assert 0.0 <= gt.pvalue(test, x, n, y=y, N=N) <= 1.0
    if test not in gt.TWO_SAMPLE_TESTS:
        assert 0.0 <= gt.pvalue(test, x, n, p_ref=p_ref) <= 1.0


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["wald", "score", "fisher", "boschloo", "bayes"]), two_sample_cells())
def test_swapping_group_and_reference_keeps_the_pvalue(test, cells):
    x, n, y, N = cells
    assert gt.pvalue(test, x, n, y=y, N=N) == pytest.approx(
        gt.pvalue(test, y, N, y=x, N=n), abs=1e-12
    )


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([t for t in gt.EXACT_TESTS if t != "bayes"]), two_sample_cells())
def test_relabelling_successes_keeps_the_two_sample_pvalue(test, cells):
    x, n, y, N = cells
    assert gt.pvalue(test, x, n, y=y, N=N) == pytest.approx(
        gt.pvalue(test, n - x, n, y=N - y, N=N), abs=1e-12
    )


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(ONE_SAMPLE_TESTS),
    st.integers(1, 60).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
    st.floats(0.0, 1.0),
    st.sampled_from([0.0, 0.1]),
)
def test_relabelling_successes_keeps_the_known_reference_pvalue(test, cell, p_ref, margin):
    x, n = cell
    got = gt.pvalue(test, x, n, p_ref=p_ref, margin=margin)
    assert got == pytest.approx(gt.pvalue(test, n - x, n, p_ref=1 - p_ref, margin=margin), abs=1e-9)


def test_shared_tables_are_read_only():
    got = gt.pvalue_table("fisher", 4, N=6)
    with pytest.raises(ValueError, match="read-only"):
        got[0, 0] = 0.5
    assert gt.pvalue_table("fisher", 4, N=6)[0, 0] == 1.0


def test_known_reference_tables_are_read_only():
    assert not gt.pvalue_table("match", 4, p_ref=0.3).flags.writeable


# --------------------------------------------------------------------------- 9. bad input
@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: gt.pvalue_table("t-test", 5, N=5), "unknown test 't-test'"),
        (lambda: gt.pvalue_table(3, 5, N=5), "unknown test 3"),
        (lambda: gt.pvalue_table("bootstrap", 5, N=5), "bootstrap is random"),
        (lambda: gt.pvalue_table("fisher", True, N=5), "n must be an integer, got True"),
        (lambda: gt.pvalue_table("fisher", 5.0, N=5), "n must be an integer, got 5.0"),
        (lambda: gt.pvalue_table("fisher", -2, N=5), "n must be at least 1, got -2"),
        (lambda: gt.pvalue_table("fisher", 0, N=5), "n must be at least 1, got 0"),
        (lambda: gt.pvalue_table("fisher", 5, N=0), "N must be at least 1"),
        (lambda: gt.pvalue("fisher", 6, 5, y=1, N=5), r"x = 6 exceeds the group's size n = 5"),
        (lambda: gt.pvalue("fisher", 1, 5, y=6, N=5), r"y = 6 exceeds the reference's size"),
        (lambda: gt.pvalue("fisher", 1, 5, y=1), "give the reference's size N with its count"),
        (lambda: gt.pvalue("fisher", 1, 5, N=5), "give the reference's count y"),
        (lambda: gt.pvalue("match", -1, 5, p_ref=0.5), "x must be at least 0"),
        (lambda: gt.pvalue_table("match", 5, N=5, p_ref=0.5), "not both"),
        (lambda: gt.pvalue_table("match", 5), "give the reference's size N, or its rate"),
        (lambda: gt.pvalue_table("fisher", 5, p_ref=0.5), "the fisher test compares two"),
        (lambda: gt.pvalue_table("boschloo", 5, p_ref=0.5), "the boschloo test compares two"),
        (lambda: gt.pvalue_table("match", 5, p_ref=1.5), r"p_ref must lie in \[0, 1\]"),
        (lambda: gt.pvalue_table("bayes", 5, N=5, prior=0), "prior must be a positive"),
        (lambda: gt.pvalue_table("bayes", 5, N=5, margin=1.0), r"margin must lie in \[0, 1\)"),
        (
            lambda: gt.rejection_probability("match", 5, p_group=0.5, p_ref=0.5, alpha=0.0),
            "alpha must lie strictly between 0 and 1",
        ),
        (
            lambda: gt.rejection_probability("match", 5, p_group=0.5, p_ref=0.5, alpha=1.0),
            "alpha must lie strictly between 0 and 1",
        ),
        (
            lambda: gt.rejection_probability("match", 5, p_group=0.5, p_ref=0.5, alpha=1.5),
            r"alpha must lie in \[0, 1\]",
        ),
        (
            lambda: gt.rejection_probability("fisher", 5, p_group=0.5, p_ref=0.5),
            "the fisher test compares two samples",
        ),
        (
            lambda: gt.rejection_probability("match", 5, p_group=-0.1, p_ref=0.5),
            r"p_group must lie in \[0, 1\]",
        ),
        (
            lambda: gt.bootstrap_rejection_probability(5, p_group=0.5, p_ref=0.5, n_boot=5),
            "n_boot must be at least 10",
        ),
        (
            lambda: gt.ratio_rejection_probability(
                "match", 5, prevalence=2.0, p_group=0.5, p_ref=0.5
            ),
            r"prevalence must lie in \[0, 1\]",
        ),
    ],
)
def test_bad_input_names_the_problem(call, message):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a rejected input raises, it does not warn first
        with pytest.raises(ValueError, match=message):
            call()
