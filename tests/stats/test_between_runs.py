"""Between-run statistics against scipy, hand formulas and properties."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from fairbook.stats import between_runs as runs

RNG = np.random.default_rng(4)
A = RNG.normal(0.074, 0.01, 16)
B = RNG.normal(0.087, 0.015, 16)


def test_mann_whitney_matches_scipy_one_sided_asymptotic():
    p, alternative = runs.mann_whitney_one_sided(A, B)
    assert alternative == ("greater" if B.mean() > A.mean() else "less")
    expected = stats.mannwhitneyu(B, A, alternative=alternative, method="asymptotic").pvalue
    assert p == pytest.approx(expected, rel=1e-12)
    exact, _ = runs.mann_whitney_one_sided(A, B, method="exact")
    assert exact == pytest.approx(
        stats.mannwhitneyu(B, A, alternative=alternative, method="exact").pvalue, rel=1e-12
    )


def test_mann_whitney_by_hand_normal_approximation():
    # complete separation of 4 vs 4: U = 16, mean 8, sd sqrt(4*4*9/12) = sqrt(12)
    p, alternative = runs.mann_whitney_one_sided([1, 2, 3, 4], [5, 6, 7, 8])
    z = (16 - 8 - 0.5) / math.sqrt(12)
    assert alternative == "greater"
    assert p == pytest.approx(stats.norm.sf(z), rel=1e-12)
    exact, _ = runs.mann_whitney_one_sided([1, 2, 3, 4], [5, 6, 7, 8], method="exact")
    assert exact == pytest.approx(1 / math.comb(8, 4))


def test_mann_whitney_direction_follows_the_means_and_constant_data_is_nan():
    _, alternative = runs.mann_whitney_one_sided([5, 6], [1, 2])
    assert alternative == "less"
    p, alternative = runs.mann_whitney_one_sided([1, 1, 1], [1, 1, 1])
    assert np.isnan(p) and alternative == "two-sided"


def test_cohen_d_pooled_ddof1():
    d = runs.cohen_d(A, B)
    pooled = math.sqrt(
        ((len(A) - 1) * A.var(ddof=1) + (len(B) - 1) * B.var(ddof=1)) / (len(A) + len(B) - 2)
    )
    assert d == pytest.approx((B.mean() - A.mean()) / pooled)
    # equal sizes: the paper's sqrt((s0^2 + s1^2)/2)
    assert abs(d) == pytest.approx(
        abs(A.mean() - B.mean()) / math.sqrt((A.var(ddof=1) + B.var(ddof=1)) / 2)
    )


def test_cohen_d_degenerate():
    assert runs.cohen_d([1, 1], [2, 2]) == math.inf
    assert runs.cohen_d([2, 2], [1, 1]) == -math.inf
    assert np.isnan(runs.cohen_d([1, 1], [1, 1]))


@pytest.mark.parametrize(
    ("d", "label"),
    [
        (0.0, "negligible"),
        (0.0099, "negligible"),
        (0.01, "very small"),
        (0.19, "very small"),
        (0.2, "small"),
        (0.5, "medium"),
        (-0.79, "medium"),
        (0.8, "large"),
        (1.2, "very large"),
        (1.99, "very large"),
        (2.0, "huge"),
        (-7.0, "huge"),
        (float("nan"), "undefined"),
    ],
)
def test_effect_size_labels(d, label):
    assert runs.effect_size_label(d) == label


def test_levene_on_mean_normalised_values_matches_scipy():
    expected = stats.levene(A / A.mean(), B / B.mean(), center="median").pvalue
    assert runs.levene_normalized(A, B) == pytest.approx(expected)
    # scale invariance: multiplying one set by a constant changes nothing
    assert runs.levene_normalized(A, 10 * B) == pytest.approx(expected)


def test_levene_undefined_cases():
    assert np.isnan(runs.levene_normalized([0, 0, 0], [1, 2, 3]))
    assert np.isnan(runs.levene_normalized([1, 1, 1], [2, 2, 2]))


def test_compare_runs_fields_and_verdicts():
    r = runs.compare_runs(A, A + 0.05)
    assert r["direction"] == "increase" and r["significant"]
    assert r["effect"] == "huge" and r["cohen_d"] > 0
    assert r["diff"] == pytest.approx(0.05)
    r = runs.compare_runs(A, A[::-1])
    assert r["direction"] == "not significant"
    noisy = runs.compare_runs(A, A.mean() + 10 * (A - A.mean()))
    assert noisy["variance_change"] == "higher" and noisy["levene_p"] < 0.05
    assert noisy["cv_treated"] > noisy["cv_baseline"]


def test_max_diff_and_population_stdev():
    assert runs.max_diff([20.0, 30.0, 25.0]) == 10.0  # the paper's example
    assert runs.population_stdev([1, 2, 3, 4]) == pytest.approx(np.std([1, 2, 3, 4]))
    assert np.isnan(runs.max_diff([1.0, np.nan]))
    assert np.isnan(runs.population_stdev([]))


@pytest.mark.parametrize("bad", [[1.0], [[1.0, 2.0]], [1.0, np.nan]])
def test_bad_input_is_an_error(bad):
    with pytest.raises(ValueError):
        runs.compare_runs(bad, [1.0, 2.0])


def test_bad_method_and_alpha():
    with pytest.raises(ValueError, match="method"):
        runs.mann_whitney_one_sided([1, 2], [3, 4], method="permutation")
    with pytest.raises(ValueError, match="alpha"):
        runs.compare_runs([1, 2], [3, 4], alpha=1.5)


samples = st.lists(st.floats(0, 1, allow_nan=False), min_size=2, max_size=12)


@settings(max_examples=60, deadline=None)
@given(samples, samples)
def test_swapping_sets_keeps_p_and_flips_d(a, b):
    p1, alt1 = runs.mann_whitney_one_sided(a, b)
    p2, alt2 = runs.mann_whitney_one_sided(b, a)
    if np.isnan(p1):
        assert np.isnan(p2)
    else:
        assert p1 == pytest.approx(p2, rel=1e-9, abs=1e-12)
    flip = {"greater": "less", "less": "greater", "two-sided": "two-sided"}
    assert flip[alt1] == alt2
    d1, d2 = runs.cohen_d(a, b), runs.cohen_d(b, a)
    assert (np.isnan(d1) and np.isnan(d2)) or d1 == pytest.approx(-d2)


def test_identical_values_have_exactly_zero_spread():
    assert np.std([0.2] * 6) != 0  # numpy's rounding residue
    assert runs.population_stdev([0.2] * 6) == 0.0
    assert runs.max_diff([0.2] * 6) == 0.0


# ------------------------------------------------ how many runs each statistic needs (guard)
def test_levene_needs_three_runs_per_group_and_spread_of_the_deviations():
    # two runs each: both deviations from the median are equal, so W = x / 0; scipy gives
    # p ~ 1e-31 (rounding) or 0 — printed 0.0000 — where the test is undefined
    with np.errstate(all="ignore"):
        assert stats.levene([1 / 1.5, 2 / 1.5], [1 / 2, 3 / 2], center="median").pvalue < 1e-20
    assert np.isnan(runs.levene_normalized([1.0, 2.0], [1.0, 3.0]))
    assert np.isnan(runs.compare_runs([1.0, 2.0], [1.0, 3.0])["levene_p"])
    # four runs, each set two-valued and symmetric: every deviation equal, again x / 0
    assert np.isnan(runs.levene_normalized([1.0, 1.0, 3.0, 3.0], [2.0, 2.0, 6.0, 6.0]))
    # three runs: defined, and scipy's
    b, t = np.array([1.0, 1.1, 1.3]), np.array([2.0, 2.9, 2.2])
    expected = stats.levene(b / b.mean(), t / t.mean(), center="median").pvalue
    assert runs.levene_normalized(b, t) == pytest.approx(expected, rel=1e-12)


def _smallest_p_by_brute_force(n, method):
    """The smallest one-sided U-test p over every pair of sets of n values in 0..3."""
    import itertools
    import warnings

    values = list(itertools.combinations_with_replacement(range(4), n))
    best = 1.0
    for b in values:
        for t in values:
            if len(set(b + t)) > 1:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    p = stats.mannwhitneyu(t, b, alternative="greater", method=method).pvalue
                best = min(best, p)
    return best


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("method", ["asymptotic", "exact"])
def test_mann_whitney_floor_is_the_smallest_p_any_runs_give(n, method):
    floor = runs.mann_whitney_floor(n, n, method=method)
    assert floor == pytest.approx(_smallest_p_by_brute_force(n, method), rel=1e-12)
    if method == "exact":
        assert floor == pytest.approx(1 / math.comb(2 * n, n))


def test_mann_whitney_floor_by_hand_normal_approximation():
    # two constant sets of 2: U = 4, mean 2, tie-corrected variance
    # n_b n_t / 12 * ((N + 1) - sum(t³ − t) / (N (N − 1))) = 4/12 * (5 - 12/12)
    z = (4 - 2 - 0.5) / math.sqrt(4 / 12 * (5 - 12 / 12))
    assert runs.mann_whitney_floor(2, 2) == pytest.approx(stats.norm.sf(z), rel=1e-12)
    with pytest.raises(ValueError, match="method"):
        runs.mann_whitney_floor(2, 2, method="permutation")
    with pytest.raises(ValueError, match="at least one run"):
        runs.mann_whitney_floor(0, 2)


def test_fewest_runs_per_statistic():
    assert {s: runs.fewest_runs(s) for s in runs.MIN_RUNS} == {
        "mw_p": 3,
        "mw_p_exact": 4,
        "cohen_d": 2,
        "levene_p": 3,
    }
    assert runs.fewest_runs("mw_p_exact", alpha=0.01) == 5  # 1/C(8, 4) = 0.014 > 0.01
    with pytest.raises(ValueError, match="statistic"):
        runs.fewest_runs("t_test")


@pytest.mark.parametrize("alpha", [0.05, 0.01])
@pytest.mark.parametrize("n", range(2, 9))
def test_too_few_runs_agrees_with_the_floor_and_min_runs(n, alpha):
    notes = runs.too_few_runs(n, alpha=alpha)
    assert set(notes) == set(runs.MIN_RUNS)
    assert (notes["levene_p"] is None) == (n >= 3)
    assert notes["cohen_d"] is None  # defined from 2 runs
    for name, method in (("mw_p", "asymptotic"), ("mw_p_exact", "exact")):
        reachable = runs.mann_whitney_floor(n, n, method=method) < alpha
        assert (notes[name] is None) == reachable
        if not reachable:
            m = runs.fewest_runs(name, alpha=alpha)
            assert notes[name] == (
                f"cannot reach p < {alpha:g} with {n} runs: needs ≥ {m} per group"
            )
            assert m > n


def test_too_few_runs_sentences_and_bad_input():
    assert runs.too_few_runs(2) == {
        "mw_p": "cannot reach p < 0.05 with 2 runs: needs ≥ 3 per group",
        "mw_p_exact": "cannot reach p < 0.05 with 2 runs: needs ≥ 4 per group",
        "cohen_d": None,
        "levene_p": "needs ≥ 3 runs per group",
    }
    assert runs.too_few_runs(1)["cohen_d"] == "needs ≥ 2 runs per group"
    assert runs.too_few_runs(2, 8)["levene_p"] == "needs ≥ 3 runs per group"
    with pytest.raises(ValueError, match="alpha"):
        runs.too_few_runs(4, alpha=0)
