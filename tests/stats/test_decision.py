"""fairbook.stats.decision against scipy, exhaustive enumeration and its own definition."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from fairbook.stats.decision import decide, runs_needed, sign_test

finite = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)


@given(st.lists(finite, min_size=2, max_size=12), st.sampled_from([0.01, 0.05, 0.1]))
@settings(max_examples=100, deadline=None)
def test_interval_is_scipys_one_sample_t_interval(values, alpha):
    a = np.asarray(values)
    d = decide(a, alpha=alpha)
    if d["sd"] == 0:  # scipy's interval is NaN for a constant sample; ours is the point
        assert d["low"] == d["high"] == pytest.approx(a.mean())
        return
    ci = stats.ttest_1samp(a, 0.0).confidence_interval(1 - alpha)
    assert d["low"] == pytest.approx(ci.low, rel=1e-9, abs=1e-9)
    assert d["high"] == pytest.approx(ci.high, rel=1e-9, abs=1e-9)
    assert d["decided"] == (d["low"] > 0 or d["high"] < 0)
    assert d["positive"] == int((a > 0).sum()) and d["n"] == len(a)


def test_decided_iff_the_t_test_rejects():
    rng = np.random.default_rng(0)
    for _ in range(300):
        a = rng.normal(rng.normal(), rng.uniform(0.1, 2), size=int(rng.integers(2, 10)))
        d = decide(a)
        assert d["decided"] == (stats.ttest_1samp(a, 0.0).pvalue < 0.05)
        assert d["side"] == (
            "undecided" if not d["decided"] else "above zero" if a.mean() > 0 else "below zero"
        )


@pytest.mark.parametrize("n", range(1, 9))
def test_sign_test_by_enumerating_every_sign_pattern(n):
    # the exact two-sided p-value: the probability, under fair coins, of a count of
    # positives at most as likely as the observed one
    patterns = list(itertools.product([-1.0, 1.0], repeat=n))
    counts = [sum(x > 0 for x in p) for p in patterns]
    prob = {k: counts.count(k) / len(patterns) for k in range(n + 1)}
    for pattern in patterns:
        k = sum(x > 0 for x in pattern)
        expected = sum(p for p in prob.values() if p <= prob[k] * (1 + 1e-7))
        assert sign_test(pattern) == pytest.approx(min(1.0, expected), rel=1e-9)


def test_sign_test_drops_zeros_and_is_nan_without_signs():
    assert sign_test([0.0, 1.0, 2.0]) == sign_test([1.0, 2.0])
    assert math.isnan(sign_test([0.0, 0.0]))


@given(finite.filter(lambda m: abs(m) > 1e-3), st.floats(1e-3, 1e3))
@settings(max_examples=200, deadline=None)
def test_runs_needed_is_the_first_n_whose_interval_excludes_zero(mean, sd):
    n = runs_needed(mean, sd)
    if n == 100_000:
        return
    ratio = abs(mean) / sd
    assert stats.t.ppf(0.975, n - 1) / math.sqrt(n) < ratio
    if n > 2:
        assert stats.t.ppf(0.975, n - 2) / math.sqrt(n - 1) >= ratio


@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.2])
def test_runs_needed_equals_a_linear_scan(alpha):
    """The bisection against the definition read literally: the first n = 2, 3, … below
    the limit whose interval excludes zero, else the limit."""
    limit = 400
    n = np.arange(2, limit)
    bound = stats.t.ppf(1 - alpha / 2, n - 1) / np.sqrt(n)

    def scan(ratio):
        return int(n[bound < ratio][0]) if (bound < ratio).any() else limit

    ratios = np.concatenate([np.geomspace(0.05, 50, 300), [0.09, 0.1, 1.0, 12.7]])
    for ratio in ratios:
        assert runs_needed(ratio, 1.0, alpha=alpha, limit=limit) == scan(ratio), ratio
    for small in (0, 1, 2):
        assert runs_needed(1.0, 1.0, alpha=alpha, limit=small) == small


def test_runs_needed_edges():
    assert runs_needed(0.5, 0.0) == 2
    assert runs_needed(0.0, 1.0, limit=30) == 30
    assert decide([0.1, 0.2, 0.3, 0.2])["runs_needed"] == 4  # decided: the runs it has
    assert decide([0.1, 0.2, 0.3])["runs_needed"] == 4  # t(0.975, 2)/√3 > 2 = mean/sd


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ([1.0], "at least 2 runs"),
        ([[1.0, 2.0]], "1-d"),
        ([1.0, float("nan")], "finite"),
        ([1.0, float("inf")], "finite"),
    ],
)
def test_bad_values_are_errors(values, message):
    with pytest.raises(ValueError, match=message):
        decide(values)


@pytest.mark.parametrize("alpha", [0, 1, -0.1, 2])
def test_bad_alpha_is_an_error(alpha):
    with pytest.raises(ValueError, match="alpha"):
        decide([1.0, 2.0], alpha=alpha)
    with pytest.raises(ValueError, match="alpha"):
        runs_needed(1.0, 1.0, alpha=alpha)


def test_runs_needed_rejects_a_negative_spread():
    with pytest.raises(ValueError, match="sd"):
        runs_needed(1.0, -1.0)
