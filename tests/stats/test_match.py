"""Tests of fairbook.stats.match: the MATCH test's CDFs against enumeration and Monte Carlo."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from fairbook.metrics import compute
from fairbook.stats import match
from fairbook.stats.combinatorics import BINOMIAL_CELLS, JRM_CELLS

P_FIG = np.array(match.FIG_4_3_P_REF)  # [TP, FN, FP, TN] = [.3, .1, .2, .4]
EXACT_METRICS = [*BINOMIAL_CELLS, "B", *JRM_CELLS]
P_REFS = [
    P_FIG,
    np.array([0.05, 0.15, 0.5, 0.3]),
    np.array([0.0, 0.3, 0.7, 0.0]),
    np.array([0.6, 0.0, 0.0, 0.4]),
]


# --------------------------------------------------------------------------- oracles
def enumerated_law(n, p):
    """(cms, probabilities) of every CM of size n, by itertools and math.factorial."""
    cms, probs = [], []
    for cm in itertools.product(range(n + 1), repeat=4):
        if sum(cm) != n:
            continue
        coefficient = math.factorial(n) / math.prod(math.factorial(c) for c in cm)
        cms.append(cm)
        probs.append(coefficient * math.prod(pi**c for pi, c in zip(p, cm, strict=True)))
    return np.array(cms), np.array(probs)


def oracle_tails(metric, cm_obs, cms, probs):
    """P(S <= s | defined), P(S >= s | defined) by direct summation."""
    values = compute(metric, cms)
    s = compute(metric, cm_obs)
    defined = ~np.isnan(values)
    if np.isnan(s) or probs[defined].sum() == 0:
        return math.nan, math.nan
    total = probs[defined].sum()
    slack = 1e-12
    lower = probs[defined & (values <= s + slack)].sum() / total
    upper = probs[defined & (values >= s - slack)].sum() / total
    return lower, upper


def naive_jrm_cdf(metric, cm_obs, p):
    """Eq. 4.37 as an O(n²) double sum with exact rational comparisons, conditioned."""
    i, j = JRM_CELLS[metric]
    n = int(sum(cm_obs))
    s = Fraction(int(cm_obs[i]), int(cm_obs[i] + cm_obs[j]))
    p_sum = p[i] + p[j]
    theta = p[i] / p_sum
    total = 0.0
    for m in range(1, n + 1):
        k_max = math.floor(s * m)
        total += stats.binom.pmf(m, n, p_sum) * stats.binom.cdf(k_max, m, theta)
    return total / (1 - (1 - p_sum) ** n)


def naive_b_cdf(k, n, p):
    """Eq. 4.27 literally (with p_FN for the FN cell, ERRATA): O(n²) multinomial terms."""
    p_plus, p_minus, p0 = p[2], p[1], p[0] + p[3]
    total = 0.0
    for kk in range(-n, k + 1):
        for fn in range(max(0, -kk), (n - kk) // 2 + 1):
            fp, rest = kk + fn, n - kk - 2 * fn
            total += stats.multinomial.pmf([fp, fn, rest], n, [p_plus, p_minus, p0])
    return total


# --------------------------------------------------------------------------- exactness
@pytest.mark.parametrize("n", [1, 2, 5, 8])
@pytest.mark.parametrize("p_index", range(len(P_REFS)))
def test_exact_cdfs_equal_enumeration_over_all_matrices(n, p_index):
    p = P_REFS[p_index]
    cms, probs = enumerated_law(n, p)
    for metric in EXACT_METRICS:
        for cm in cms:
            want_lower, want_upper = oracle_tails(metric, cm, cms, probs)
            got_lower = match.cdf(metric, cm, p)
            got_upper = match.sf(metric, cm, p)
            if math.isnan(want_lower):
                assert math.isnan(got_lower) and math.isnan(got_upper)
                continue
            assert got_lower == pytest.approx(want_lower, abs=1e-12), (metric, cm)
            assert got_upper == pytest.approx(want_upper, abs=1e-12), (metric, cm)


@pytest.mark.parametrize("metric", ["F1", "MCC", "PT", "PPV", "B"])
def test_enumerate_method_equals_oracle(metric):
    n, p = 6, P_FIG
    cms, probs = enumerated_law(n, p)
    for cm in cms[::3]:
        want_lower, want_upper = oracle_tails(metric, cm, cms, probs)
        got = match.cdf(metric, cm, p, method="enumerate")
        if math.isnan(want_lower):
            assert math.isnan(got)
        else:
            assert got == pytest.approx(want_lower, abs=1e-12)
            assert match.sf(metric, cm, p, method="enumerate") == pytest.approx(
                want_upper, abs=1e-12
            )


def test_jrm_against_naive_double_sum_with_exact_rationals():
    # 0.57 * 100 = 56.99999999999999 in floating point: the floor needs the guard
    cm = [57, 43, 30, 70]
    assert 0.57 * 100 < 57
    assert match.cdf("TPR", cm, P_FIG) == pytest.approx(naive_jrm_cdf("TPR", cm, P_FIG), abs=1e-12)
    for metric in ["FPR", "PPV", "NPV", "FOR"]:
        cm = [17, 9, 12, 22]
        assert match.cdf(metric, cm, P_FIG) == pytest.approx(
            naive_jrm_cdf(metric, cm, P_FIG), abs=1e-12
        )


def test_b_against_equation_4_27():
    n, p = 25, np.array([0.25, 0.2, 0.15, 0.4])
    for k in (-6, -1, 0, 3):
        fp = max(k, 0) + 2
        fn = fp - k
        cm = [n - fp - fn, fn, fp, 0]
        assert match.cdf("B", cm, p) == pytest.approx(naive_b_cdf(k, n, p), abs=1e-12)


@pytest.mark.parametrize("metric", ["ACC", "INACC", "B", "TPR", "PPV", "FOR"])
def test_exact_cdfs_against_monte_carlo(metric):
    n, draws = 30, 200_000
    rng = np.random.default_rng(20240601)
    cms = rng.multinomial(n, P_FIG, size=draws)
    values = compute(metric, cms)
    values = values[~np.isnan(values)]
    for q in (0.1, 0.5, 0.9):
        s = float(np.quantile(values, q))
        empirical = float((values <= s + 1e-12).mean())
        exact = match.cdf_at(metric, s, P_FIG, n)
        se = math.sqrt(exact * (1 - exact) / values.size)
        assert abs(empirical - exact) < 5 * se + 1e-9, (metric, s, empirical, exact)


def test_large_n_is_fast_and_close_to_normal():
    n = 100_000
    cm = np.round(P_FIG * n).astype(int)
    cm[3] += n - cm.sum()
    for metric in ["ACC", "B"]:
        exact = match.cdf(metric, cm, P_FIG)
        normal = match.cdf(metric, cm, P_FIG, method="normal")
        assert exact == pytest.approx(normal, abs=2e-3)
    assert 0.45 < match.cdf("TPR", cm, P_FIG) < 0.55


# --------------------------------------------------------------------------- the paper
def test_paper_example_normal_binomial():
    # n = 100, p = .75, S_obs = .80: z = (80 + .5 - 75)/4.33 = 1.27, Φ(1.27) ≈ 0.90
    p_ref = [0.375, 0.125, 0.125, 0.375]
    cm = [40, 10, 10, 40]
    value = match.cdf("ACC", cm, p_ref, method="normal")
    assert value == pytest.approx(stats.norm.cdf(1.27), abs=1e-3)
    assert round(value, 2) == 0.90
    assert match.cdf("ACC", cm, p_ref) == pytest.approx(stats.binom.cdf(80, 100, 0.75))


def test_normal_b_restores_the_n_factors():
    n, p = 200, P_FIG
    cm = [60, 15, 30, 95]  # FP − FN = 15, mean n(p+ − p−) = 20
    mu, var = p[2] - p[1], p[2] + p[1] - (p[2] - p[1]) ** 2
    z = (15 + 0.5 - n * mu) / math.sqrt(n * var)
    assert match.cdf("B", cm, p, method="normal") == pytest.approx(stats.norm.cdf(z))


def test_normal_b_with_lattice_step_two():
    p = np.array([0.0, 0.4, 0.6, 0.0])  # no TP/TN: FP − FN ≡ n (mod 2)
    err = match.approximation_error("B", p, 40, method="normal")
    assert err < 0.02


def test_peizer_pratt_binomial_within_a_thousandth():
    for n in (5, 20, 100):
        for prob in (0.1, 0.5, 0.75):
            p = [prob, 0.0, 1 - prob, 0.0]  # PREV ~ Binomial(n, prob)
            _, curve = match.approximation_error(
                "PREV", p, n, method="peizer_pratt", return_curve=True
            )
            x = np.round(curve.score * n).astype(int)
            claimed = np.minimum(x + 1, n - x) >= 2
            assert (curve.abs_error[claimed] < 1e-3).all(), (n, prob)


def test_peizer_pratt_for_b_needs_a_flag_and_is_far_off():
    with pytest.raises(ValueError, match="allow_b_peizer_pratt"):
        match.cdf("B", [3, 1, 2, 4], P_FIG, method="peizer_pratt")
    value = match.cdf("B", [3, 1, 2, 4], P_FIG, method="peizer_pratt", allow_b_peizer_pratt=True)
    assert math.isnan(value) or 0 <= value <= 1
    error = match.approximation_error(
        "B", P_FIG, 100, method="peizer_pratt", allow_b_peizer_pratt=True
    )
    assert error > 0.1  # no 0.1 % bound: Table 4.1's parameters are not a binomial law
    assert match.approximation_error("B", P_FIG, 100, method="normal") < 1e-3


def test_beta_with_observed_counts_is_a_posterior_not_the_reference_law():
    cm = [6, 2, 3, 9]
    a = match.cdf("TPR", cm, P_FIG, method="beta")
    b = match.cdf("TPR", cm, [0.05, 0.6, 0.05, 0.3], method="beta")
    assert a == b == pytest.approx(stats.beta.cdf(6 / 8, 6 + 1, 2 + 1))  # ignores p_ref
    err_observed = match.approximation_error("TPR", P_FIG, 60, method="beta")
    assert err_observed > 0.2
    errors = [
        match.approximation_error("TPR", P_FIG, n, method="beta", beta_counts="expected")
        for n in (10, 40, 160)
    ]
    assert errors[0] > errors[1] > errors[2]


def test_berry_esseen_bounds_the_normal_error():
    for metric in ("ACC", "PPR", "B"):
        for n in (5, 20, 80):
            error = match.approximation_error(metric, P_FIG, n, method="normal")
            assert error <= match.berry_esseen_bound(P_FIG, n, metric)
    assert math.isnan(match.berry_esseen_bound([1, 0, 0, 0], 10, "ACC"))
    with pytest.raises(ValueError, match="i.i.d."):
        match.berry_esseen_bound(P_FIG, 10, "TPR")


# --------------------------------------------------------------------------- degenerate laws
# References under which a metric with a normal approximation is a point mass (variance
# 0): a binomial rate of 0 or 1; for B, all of the mass on TP + TN (B = 0), on FP (B = 1,
# FP − FN then moves in steps of 2) or on FN (B = −1). Each comes with a nearby
# non-degenerate reference (eps = 1e-9 moved between cells) for the sd → 0 limit.
EPS = 1e-9
DEGENERATE = [
    ("ACC", [0.5, 0.0, 0.0, 0.5], [0.5 - EPS, EPS, 0.0, 0.5]),  # ACC = 1
    ("ACC", [0.0, 0.5, 0.5, 0.0], [EPS, 0.5 - EPS, 0.5, 0.0]),  # ACC = 0
    ("PREV", [0.7, 0.3, 0.0, 0.0], [0.7, 0.3 - EPS, EPS, 0.0]),  # PREV = 1
    ("PPR", [0.0, 0.6, 0.0, 0.4], [EPS, 0.6 - EPS, 0.0, 0.4]),  # PPR = 0
    ("B", [0.5, 0.0, 0.0, 0.5], [0.5, EPS, EPS, 0.5 - 2 * EPS]),  # B = 0
    ("B", [0.0, 0.0, 1.0, 0.0], [0.0, EPS, 1.0 - EPS, 0.0]),  # B = 1
    ("B", [0.0, 1.0, 0.0, 0.0], [0.0, 1.0 - EPS, EPS, 0.0]),  # B = −1
]


@pytest.mark.parametrize("n", [1, 2, 3, 5])
@pytest.mark.parametrize(("metric", "p", "_"), DEGENERATE)
def test_normal_against_a_degenerate_reference_is_the_exact_point_mass(metric, p, _, n):
    p = np.array(p)
    cms, probs = enumerated_law(n, p)
    values = compute(metric, cms)
    support = np.unique(values[probs > 0])
    assert support.size == 1  # the exact law is a point mass at `at` ...
    assert math.isnan(match.berry_esseen_bound(p, n, metric))  # ... of variance 0
    at = support[0]
    for cm in cms:  # every matrix of size n, also those impossible under p
        s = compute(metric, cm)
        want_lower, want_upper = oracle_tails(metric, cm, cms, probs)
        assert want_lower == (1.0 if s >= at - 1e-12 else 0.0)
        assert want_upper == (1.0 if s <= at + 1e-12 else 0.0)
        lower = match.cdf(metric, cm, p, method="normal")
        upper = match.sf(metric, cm, p, method="normal")
        assert (lower, upper) == (want_lower, want_upper), (metric, cm)
        assert (match.cdf(metric, cm, p), match.sf(metric, cm, p)) == pytest.approx(
            (lower, upper), abs=1e-12
        )  # the exact method agrees
        p_equal = probs[np.abs(values - s) < 1e-12].sum()
        assert lower + upper - p_equal == pytest.approx(1.0, abs=1e-12)
        assert match.test(metric, cm, p, method="normal") == (1.0 if abs(s - at) < 1e-12 else 0.0)
    assert match.approximation_error(metric, p, n, method="normal") == 0.0


@pytest.mark.parametrize("n", [1, 2, 3, 5])
@pytest.mark.parametrize(("metric", "p", "nearby"), DEGENERATE)
def test_degenerate_normal_is_the_limit_of_the_continuity_corrected_one(metric, p, nearby, n):
    # the point mass is what the continuity-corrected normal CDF tends to as sd -> 0
    # (here sd is about 1e-4, so the corrected z-scores are about ±5000)
    p, nearby = np.array(p), np.array(nearby)
    assert match.berry_esseen_bound(nearby, n, metric) > 0  # not degenerate
    cms, _ = enumerated_law(n, p)
    for cm in cms:
        for tail in (match.cdf, match.sf):
            assert tail(metric, cm, p, method="normal") == tail(
                metric, cm, nearby, method="normal"
            ), (metric, cm, tail.__name__)


# --------------------------------------------------------------------------- moments
def test_moments_of_acc_are_binomial():
    p, n = 0.7, 40  # ACC = TP + TN: .3 + .4
    m = match.metric_moments("ACC", P_FIG, n)
    assert m["mean"] == pytest.approx(p)
    assert m["variance"] == pytest.approx(p * (1 - p) / n)
    assert m["skewness"] == pytest.approx((1 - 2 * p) / math.sqrt(n * p * (1 - p)))
    assert m["excess_kurtosis"] == pytest.approx((1 - 6 * p * (1 - p)) / (n * p * (1 - p)))


@pytest.mark.parametrize("n", [1, 7, 60])
def test_moments_of_b_match_cumulants_of_iid_sums(n):
    pp, pm = P_FIG[2], P_FIG[1]
    mu = pp - pm
    var = pp + pm - mu**2
    values = np.array([1.0, -1.0, 0.0])
    weights = np.array([pp, pm, 1 - pp - pm])
    k3 = weights @ (values - mu) ** 3
    k4 = weights @ (values - mu) ** 4 - 3 * var**2
    m = match.metric_moments("B", P_FIG, n)
    assert m["mean"] == pytest.approx(mu)
    assert m["variance"] == pytest.approx(var / n)
    assert m["skewness"] == pytest.approx(k3 / var**1.5 / math.sqrt(n))
    assert m["excess_kurtosis"] == pytest.approx(k4 / var**2 / n)


@pytest.mark.parametrize("metric", ["TPR", "FOR", "F1", "MCC"])
def test_moments_equal_enumeration(metric):
    n = 7
    cms, probs = enumerated_law(n, P_FIG)
    values = compute(metric, cms)
    defined = ~np.isnan(values)
    w = probs[defined] / probs[defined].sum()
    v = values[defined]
    mean = w @ v
    var = w @ (v - mean) ** 2
    m = match.metric_moments(metric, P_FIG, n)
    assert m["mean"] == pytest.approx(mean)
    assert m["variance"] == pytest.approx(var)
    assert m["skewness"] == pytest.approx(w @ (v - mean) ** 3 / var**1.5)
    assert m["p_undefined"] == pytest.approx(probs[~defined].sum(), abs=1e-15)


def test_distribution_sums_to_one_and_reports_holes():
    d = match.distribution("TPR", P_FIG, 12)
    assert d.probs.sum() == pytest.approx(1)
    assert d.p_undefined == pytest.approx((1 - 0.4) ** 12)
    assert np.all(np.diff(d.values) > 0)
    d = match.distribution("PPV", [0.0, 0.5, 0.0, 0.5], 5)
    assert d.values.size == 0 and d.p_undefined == 1.0
    assert math.isnan(match.metric_moments("PPV", [0.0, 0.5, 0.0, 0.5], 5)["mean"])


# --------------------------------------------------------------------------- properties
@pytest.mark.parametrize(
    ("metric", "method"),
    [
        ("ACC", "exact"),
        ("ACC", "normal"),
        ("ACC", "peizer_pratt"),
        ("B", "exact"),
        ("B", "normal"),
        ("TPR", "exact"),
        ("NPV", "exact"),
        ("MCC", "enumerate"),
    ],
)
def test_cdf_is_monotone_and_ends_at_one(metric, method):
    n = 25
    d = match.distribution(metric, P_FIG, n)
    grid = np.concatenate([[d.values.min() - 1], d.values, [d.values.max() + 1]])
    values = match.cdf_at(metric, grid, P_FIG, n, method=method)
    assert np.all(np.diff(values) >= -1e-12)
    assert values[0] == pytest.approx(0, abs=1e-12)
    assert values[-1] == pytest.approx(1, abs=1e-12)
    if method in ("exact", "enumerate"):
        assert match.cdf_at(metric, d.values.max(), P_FIG, n, method=method) == pytest.approx(
            1, abs=1e-12
        )


probabilities = (
    st.lists(st.integers(0, 20), min_size=4, max_size=4)
    .filter(lambda w: sum(w) > 0)
    .map(lambda w: np.array(w) / sum(w))
)
matrices = st.lists(st.integers(0, 15), min_size=4, max_size=4).filter(lambda c: sum(c) > 0)


@settings(max_examples=60, deadline=None)
@given(cm=matrices, p=probabilities, metric=st.sampled_from(EXACT_METRICS))
def test_p_values_lie_in_the_unit_interval(cm, p, metric):
    value = match.test(metric, cm, p)
    lower, upper = match.cdf(metric, cm, p), match.sf(metric, cm, p)
    if math.isnan(value):
        assert math.isnan(lower)
        return
    assert 0 <= value <= 1
    assert -1e-12 <= lower <= 1 + 1e-12 and -1e-12 <= upper <= 1 + 1e-12
    assert lower + upper >= 1 - 1e-9  # both tails include the observed score
    assert value == pytest.approx(min(1, 2 * min(lower, upper)))


def test_p_value_extremes():
    assert match.test("ACC", [50, 0, 0, 50], [0.375, 0.125, 0.125, 0.375]) < 1e-10
    assert match.test("ACC", [38, 12, 13, 37], [0.375, 0.125, 0.125, 0.375]) == 1.0
    for method in ("normal", "peizer_pratt"):
        assert (
            0
            <= match.test("ACC", [40, 10, 10, 40], [0.375, 0.125, 0.125, 0.375], method=method)
            <= 1
        )


def test_undefined_scores_give_nan():
    assert math.isnan(match.cdf("TPR", [0, 0, 3, 4], P_FIG))  # no actual positives
    assert math.isnan(match.test("TPR", [0, 0, 3, 4], P_FIG))
    assert math.isnan(match.cdf("PPV", [1, 2, 0, 4], [0.0, 0.5, 0.0, 0.5]))  # never defined


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "p_ref",
    [
        [0.5, 0.5, 0.5, 0.5],
        [0.5, 0.5, 0.1, -0.1],
        [0.5, 0.5],
        [[0.25] * 4],
        [np.nan, 0.5, 0.25, 0.25],
        ["a", "b", "c", "d"],
    ],
)
def test_bad_probabilities_raise(p_ref):
    with pytest.raises(ValueError, match="p_ref"):
        match.cdf("ACC", [1, 2, 3, 4], p_ref)


@pytest.mark.parametrize(
    ("cm", "message"),
    [
        ([1, -2, 3, 4], "negative"),
        ([1.5, 2, 3, 4], "integer"),
        ([0, 0, 0, 0], "empty"),
        ([[1, 2, 3, 4]], "shape"),
        ([1, 2, 3], "length 4"),
    ],
)
def test_bad_matrices_raise(cm, message):
    with pytest.raises(ValueError, match=message):
        match.cdf("ACC", cm, P_FIG)


def test_bad_metric_and_method_raise():
    with pytest.raises(ValueError, match="unknown metric"):
        match.cdf("AUC", [1, 2, 3, 4], P_FIG)
    with pytest.raises(ValueError, match="unknown method"):
        match.cdf("ACC", [1, 2, 3, 4], P_FIG, method="bootstrap")
    for metric, method in [
        ("TPR", "normal"),
        ("ACC", "beta"),
        ("MCC", "exact"),
        ("TPR", "peizer_pratt"),
        ("F1", "normal"),
    ]:
        with pytest.raises(ValueError, match="not valid for"):
            match.test(metric, [1, 2, 3, 4], P_FIG, method=method)
    with pytest.raises(ValueError, match="above"):
        match.cdf("MCC", [100, 50, 50, 100], P_FIG, method="enumerate")
    with pytest.raises(ValueError, match="beta_counts"):
        match.cdf("TPR", [1, 2, 3, 4], P_FIG, method="beta", beta_counts="posterior")
    with pytest.raises(ValueError, match="prior"):
        match.cdf("TPR", [1, 2, 3, 4], P_FIG, method="beta", prior=0)
    with pytest.raises(ValueError, match="NaN"):
        match.cdf_at("ACC", [0.5, np.nan], P_FIG, 10)
    with pytest.raises(ValueError, match=">= 1"):
        match.cdf_at("ACC", 0.5, P_FIG, 0)


def test_methods_for():
    assert match.methods_for("ppr") == ("exact", "enumerate", "normal", "peizer_pratt")
    assert "peizer_pratt" not in match.methods_for("B")
    assert "peizer_pratt" in match.methods_for("B", allow_b_peizer_pratt=True)
    assert match.methods_for("PT") == ("enumerate",)
