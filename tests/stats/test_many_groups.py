"""Tests of :mod:`fairbook.stats.many_groups`.

Oracles: exact enumeration of every joint outcome of two or three tiny groups (family-wise
error of Bonferroni and Holm with the library's adjusted p-values, the largest disparity,
the expectation of every between-group variance estimator and of its bootstrap); Monte
Carlo within four standard errors (simulated vs exact family-wise error and power, the
largest disparity); exact per-simulation identities (under the global null every flag is
false, so FWER = FDR and Holm = Bonferroni); the row-wise procedures against
:mod:`fairbook.stats.multiple_testing` on random p-values (hypothesis).
"""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from fairbook.stats import group_tests
from fairbook.stats import many_groups as mg
from fairbook.stats.multiple_testing import benjamini_hochberg, bonferroni, holm


# --------------------------------------------------------------------------- family-wise error
def joint_fwer(test, sizes, p, alpha, adjust):
    """FWER by enumerating every joint outcome of the groups (known reference rate p)."""
    tables = [group_tests.pvalue_table(test, n, p_ref=p) for n in sizes]
    pmfs = [stats.binom.pmf(np.arange(n + 1), n, p) for n in sizes]
    total = 0.0
    for outcome in itertools.product(*(range(n + 1) for n in sizes)):
        pvalues = np.array([table[x] for table, x in zip(tables, outcome, strict=True)])
        weight = math.prod(pmf[x] for pmf, x in zip(pmfs, outcome, strict=True))
        adjusted = adjust(pvalues) if adjust is not None else pvalues
        total += weight * bool((adjusted <= alpha).any())
    return total


@pytest.mark.parametrize("test", ["match", "wald", "score", "bayes"])
def test_exact_fwer_equals_enumeration_for_bonferroni_holm_and_none(test):
    sizes, p, alpha = [3, 5, 4], 0.35, 0.2
    exact = mg.bonferroni_fwer_exact(test, sizes, p=p, alpha=alpha)
    assert exact == pytest.approx(joint_fwer(test, sizes, p, alpha, bonferroni), abs=1e-12)
    # Holm's FWER under the global null is Bonferroni's
    assert exact == pytest.approx(joint_fwer(test, sizes, p, alpha, holm), abs=1e-12)
    unadjusted = mg.bonferroni_fwer_exact(test, sizes, p=p, alpha=alpha, adjust=False)
    assert unadjusted == pytest.approx(joint_fwer(test, sizes, p, alpha, None), abs=1e-12)
    assert unadjusted >= exact


@pytest.mark.parametrize("test", ["match", "wald", "bayes"])
def test_simulated_bonferroni_and_holm_fwer_agree_with_the_exact_product(test):
    sizes, p = [8, 12, 15, 20, 25, 30, 40, 9, 11, 60], 0.3
    table = mg.simulate_many_groups(test, sizes, p_ref=p, alpha=0.1, n_sims=20000, seed=1)
    exact = mg.bonferroni_fwer_exact(test, sizes, p=p, alpha=0.1)
    bonf = table.loc["bonferroni"]
    assert abs(bonf["fwer"] - exact) <= 4 * max(bonf["fwer_se"], 1e-3)
    assert table.loc["holm", "fwer"] == bonf["fwer"]  # the same draws, the same events
    none = table.loc["none"]
    exact_none = mg.bonferroni_fwer_exact(test, sizes, p=p, alpha=0.1, adjust=False)
    assert abs(none["fwer"] - exact_none) <= 4 * none["fwer_se"]


def test_global_null_fwer_equals_fdr_and_power_is_nan():
    for test, N in [("match", None), ("fisher", 40), ("score", 25)]:
        table = mg.simulate_many_groups(test, [5, 10, 20, 7], p_ref=0.4, N=N, n_sims=3000)
        np.testing.assert_array_equal(table["fwer"], table["fdr"])
        assert table["power"].isna().all() and table["power_se"].isna().all()
        # the procedures are ordered: none >= BH >= Holm >= Bonferroni in flags
        flags = table["mean_flags"]
        assert flags["none"] >= flags["benjamini_hochberg"] >= flags["holm"]
        assert flags["holm"] >= flags["bonferroni"]


def test_power_of_no_adjustment_is_the_exact_rejection_probability():
    sizes = [10, 20, 30, 15]
    rates = [0.5, 0.8, 0.3, 0.5]
    for N in (None, 50):
        table = mg.simulate_many_groups(
            "score", sizes, p_ref=0.5, p_groups=rates, N=N, n_sims=20000, seed=2
        )
        exact = np.mean(
            [
                group_tests.rejection_probability("score", n, p_group=r, p_ref=0.5, N=N)
                for n, r in zip(sizes, rates, strict=True)
                if r != 0.5
            ]
        )
        row = table.loc["none"]
        assert abs(row["power"] - exact) <= 4 * row["power_se"]
        # more power without adjustment, and some false flags are possible
        assert row["power"] >= table.loc["bonferroni", "power"]
        assert table["fdr"].le(table["fwer"] + 1e-15).all()


def test_bh_controls_the_fdr_with_independent_groups():
    sizes = [30] * 12
    rates = [0.3] * 8 + [0.6] * 4
    table = mg.simulate_many_groups("match", sizes, p_ref=0.3, p_groups=rates, n_sims=10000)
    bh = table.loc["benjamini_hochberg"]
    assert bh["fdr"] <= 0.05 * 8 / 12 + 4 * bh["fdr_se"]
    assert bh["power"] > table.loc["bonferroni", "power"]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.floats(0, 1, allow_nan=False), min_size=5, max_size=5),
        min_size=1,
        max_size=6,
    ),
    st.sampled_from([0.01, 0.05, 0.2]),
)
def test_row_wise_flags_are_the_library_adjusted_pvalues(rows, alpha):
    pvalues = np.asarray(rows)
    for procedure, adjust in [
        ("none", lambda p: p),
        ("bonferroni", bonferroni),
        ("holm", holm),
        ("benjamini_hochberg", benjamini_hochberg),
    ]:
        flags = mg._rejections(pvalues, alpha, procedure)
        expected = np.array([adjust(row) <= alpha for row in pvalues])
        np.testing.assert_array_equal(flags, expected)


def test_many_groups_validation():
    with pytest.raises(ValueError, match="group_sizes"):
        mg.bonferroni_fwer_exact("match", [], p=0.3)
    with pytest.raises(ValueError, match="at least 1"):
        mg.bonferroni_fwer_exact("match", [3, 0], p=0.3)
    with pytest.raises(ValueError, match="whole numbers"):
        mg.simulate_many_groups("match", [3.5], p_ref=0.3)
    with pytest.raises(ValueError, match="p_groups has 1 rates"):
        mg.simulate_many_groups("match", [3, 4], p_ref=0.3, p_groups=[0.2])
    with pytest.raises(ValueError, match="two samples"):
        mg.bonferroni_fwer_exact("fisher", [3, 4], p=0.3)
    with pytest.raises(ValueError, match="p must lie"):
        mg.expected_max_disparity([3], p=1.5)
    with pytest.raises(ValueError, match="alpha"):
        mg.simulate_many_groups("match", [3], p_ref=0.3, alpha=0)
    with pytest.raises(ValueError, match="n_sims"):
        mg.simulate_many_groups("match", [3], p_ref=0.3, n_sims=1)
    with pytest.raises(ValueError, match="N must be"):
        mg.simulate_many_groups("fisher", [3], p_ref=0.3, N=0)
    with pytest.raises(ValueError, match="n_boot"):
        mg.corrected_variance_interval([1, 2], [3, 3], n_boot=1)


# --------------------------------------------------------------------------- largest disparity
def enumerated_max(sizes, p):
    """All values and probabilities of max_k |X_k/n_k - p| by joint enumeration."""
    values, weights = [], []
    for outcome in itertools.product(*(range(n + 1) for n in sizes)):
        values.append(max(abs(x / n - p) for x, n in zip(outcome, sizes, strict=True)))
        weights.append(
            math.prod(stats.binom.pmf(x, n, p) for x, n in zip(outcome, sizes, strict=True))
        )
    return np.array(values), np.array(weights)


@pytest.mark.parametrize("sizes, p", [([7], 0.3), ([3, 5], 0.4), ([2, 3, 4], 0.5), ([4, 4], 0.2)])
def test_expected_max_disparity_by_enumeration(sizes, p):
    values, weights = enumerated_max(sizes, p)
    assert mg.expected_max_disparity(sizes, p=p) == pytest.approx(values @ weights, abs=1e-12)
    law = mg.max_disparity_distribution(sizes, p=p)
    assert law["probability"].sum() == pytest.approx(1.0)
    for t in law["disparity"]:
        cdf = law.loc[law["disparity"] == t, "cdf"].item()
        assert cdf == pytest.approx(weights[values <= t + 1e-12].sum(), abs=1e-12)
        assert mg.max_disparity_sf(t, sizes, p=p) == pytest.approx(
            weights[values >= t - 1e-12].sum(), abs=1e-12
        )


def test_one_group_is_the_mean_absolute_deviation():
    n, p = 25, 0.37
    x = np.arange(n + 1)
    direct = stats.binom.pmf(x, n, p) @ np.abs(x / n - p)
    assert mg.expected_max_disparity([n], p=p) == pytest.approx(direct, abs=1e-14)


def test_expected_max_disparity_agrees_with_monte_carlo():
    sizes, p = np.array([5, 12, 30, 30, 80, 200, 9]), 0.42
    rng = np.random.default_rng(5)
    draws = np.abs(rng.binomial(sizes, p, size=(40000, sizes.size)) / sizes - p).max(axis=1)
    se = draws.std(ddof=1) / math.sqrt(draws.size)
    assert abs(mg.expected_max_disparity(sizes, p=p) - draws.mean()) <= 4 * se
    observed = 0.3
    sf = mg.max_disparity_sf(observed, sizes, p=p)
    assert abs((draws >= observed - 1e-12).mean() - sf) <= 4 * math.sqrt(sf * (1 - sf) / 40000)


def test_expected_max_grows_with_the_number_of_groups_and_shrinks_with_size():
    p = 0.45
    for n in (10, 30, 100):
        by_k = [mg.expected_max_disparity([n] * k, p=p) for k in (1, 2, 5, 20, 100)]
        assert np.all(np.diff(by_k) > 0)
    for k in (1, 10, 50):
        by_n = [mg.expected_max_disparity([n] * k, p=p) for n in (10, 30, 100)]
        assert np.all(np.diff(by_n) < 0)


def test_max_disparity_quantiles_invert_the_cdf():
    sizes, p = [6, 9, 15], 0.3
    law = mg.max_disparity_distribution(sizes, p=p)
    levels = np.array([0.0, 0.1, 0.5, 0.9, 0.95, 1.0])
    quantiles = mg.max_disparity_quantile(sizes, levels, p=p)
    for q, t in zip(levels, quantiles, strict=True):
        at = law.loc[law["disparity"] <= t, "cdf"].max()
        below = law.loc[law["disparity"] < t, "cdf"].max()
        assert at >= q - 1e-12
        assert np.isnan(below) or below < q
    assert isinstance(mg.max_disparity_quantile(sizes, 0.5, p=p), float)
    with pytest.raises(ValueError, match="q"):
        mg.max_disparity_quantile(sizes, 1.5, p=p)


# --------------------------------------------------------------------------- between-group variance
def enumerated_expectation(function, sizes, rates):
    """E[function(counts, sizes)] over every joint outcome of Bin(n_k, rate_k)."""
    total = 0.0
    for outcome in itertools.product(*(range(n + 1) for n in sizes)):
        weight = math.prod(
            stats.binom.pmf(x, n, r) for x, n, r in zip(outcome, sizes, rates, strict=True)
        )
        total += weight * function(np.array(outcome), sizes)
    return total


@pytest.mark.parametrize(
    "sizes, rates",
    [([3, 5], [0.2, 0.6]), ([2, 4, 6], [0.5, 0.5, 0.5]), ([4, 3, 5], [0.1, 0.7, 0.4])],
)
def test_corrections_by_exact_enumeration(sizes, rates):
    sizes, rates = np.array(sizes), np.array(rates)
    truth = np.var(rates, ddof=1)
    s = rates * (1 - rates) / sizes

    def estimate(correction):
        return enumerated_expectation(
            lambda x, n: mg.between_group_variance(x, n, correction=correction), sizes, rates
        )

    assert estimate("unbiased") == pytest.approx(truth, abs=1e-12)
    assert estimate("lum") == pytest.approx(truth + np.mean(s / sizes), abs=1e-12)
    assert estimate("none") == pytest.approx(truth + np.mean(s), abs=1e-12)


@pytest.mark.parametrize("counts, sizes", [([1, 4], [3, 5]), ([2, 0, 5], [4, 3, 6])])
def test_double_correction_centres_the_bootstrap_on_the_corrected_estimate(counts, sizes):
    counts, sizes = np.array(counts), np.array(sizes)
    q = counts / sizes
    for correction in ("unbiased", "lum"):
        mean = enumerated_expectation(
            lambda x, n, c=correction: mg.double_corrected_variance(x, n, correction=c), sizes, q
        )
        corrected = mg.between_group_variance(counts, sizes, correction=correction)
        if correction == "unbiased":
            assert mean == pytest.approx(corrected, abs=1e-12)
        else:
            spread = q * (1 - q)
            shift = np.mean(3 * spread / sizes**2 - spread / sizes**3)
            assert mean == pytest.approx(corrected + shift, abs=1e-12)
        # the bootstrap of the corrected (once) estimate is centred elsewhere
        once = enumerated_expectation(
            lambda x, n, c=correction: mg.between_group_variance(x, n, correction=c), sizes, q
        )
        assert abs(once - corrected) > 1e-4


def test_corrected_variance_interval_monte_carlo_and_coverage_shape():
    counts, sizes = np.array([3, 9, 14, 2, 30]), np.array([10, 20, 30, 8, 50])
    out = mg.corrected_variance_interval(counts, sizes, n_boot=20000, seed=3)
    assert abs(out["bootstrap_mean"] - out["corrected"]) <= 4 * out["se"] / math.sqrt(20000)
    assert out["lower"] < out["corrected"] < out["upper"]
    assert out["naive"] > out["corrected"]
    assert out["naive"] == pytest.approx(np.var(counts / sizes, ddof=1))
    lum = mg.corrected_variance_interval(counts, sizes, correction="lum", n_boot=200)
    assert lum["corrected"] == pytest.approx(
        out["naive"] - np.mean(counts / sizes * (1 - counts / sizes) / sizes)
    )


def test_lum_formulas_by_hand():
    # rates 0.2, 0.8: V = 0.18, r(1-r) = 0.16, n = 10
    assert mg.between_group_variance([2, 8], [10, 10], correction="lum") == pytest.approx(0.164)
    assert mg.double_corrected_variance([2, 8], [10, 10], correction="lum") == pytest.approx(
        0.18 - 2 * 0.016 + 0.0016
    )
    assert mg.double_corrected_variance([2, 8], [10, 10]) == pytest.approx(0.18 - 0.16 * 19 / 81)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(2, 40), st.floats(0, 1)), min_size=2, max_size=8))
def test_corrections_are_ordered(groups):
    sizes = np.array([n for n, _ in groups])
    counts = np.array([round(n * f) for n, f in groups])
    naive = mg.between_group_variance(counts, sizes, correction="none")
    lum = mg.between_group_variance(counts, sizes, correction="lum")
    unbiased = mg.between_group_variance(counts, sizes)
    assert naive >= lum - 1e-15 and lum >= unbiased - 1e-15


def test_variance_edge_cases_and_validation():
    assert math.isnan(mg.between_group_variance([1], [3]))
    assert math.isnan(mg.between_group_variance([1, 0], [3, 1]))  # n = 1: unbiased undefined
    assert not math.isnan(mg.between_group_variance([1, 0], [3, 1], correction="lum"))
    with pytest.raises(ValueError, match="between 0 and its group"):
        mg.between_group_variance([4, 1], [3, 3])
    with pytest.raises(ValueError, match="shape"):
        mg.between_group_variance([1, 1], [3, 3, 3])
    with pytest.raises(ValueError, match="unknown correction"):
        mg.between_group_variance([1, 1], [3, 3], correction="fancy")
    with pytest.raises(ValueError, match="corrected variance"):
        mg.corrected_variance_interval([1, 1], [3, 3], correction="none")
    with pytest.raises(ValueError, match="level"):
        mg.corrected_variance_interval([1, 1], [3, 3], level=1.0)
