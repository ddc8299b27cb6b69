"""Tests of :mod:`fairbook.stats.multiple_testing`: Holm, Bonferroni, Benjamini–Hochberg.

Oracles: the adjustments worked by hand; Holm's procedure as he stated it (reject in
increasing order while p_(i) <= alpha / (m - i + 1)) and the BH step-up procedure as
Benjamini and Hochberg stated it, on random p-values (hypothesis); scipy's
``false_discovery_control`` for the BH adjusted p-values.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from fairbook.stats.multiple_testing import benjamini_hochberg, bonferroni, holm


def test_holm_by_hand():
    # sorted 0.01*5, 0.02*4, 0.03*3, 0.04*2 -> made monotone, 0.2*1
    np.testing.assert_allclose(holm([0.04, 0.01, 0.2, 0.03, 0.02]), [0.09, 0.05, 0.2, 0.09, 0.08])
    assert holm([]).size == 0
    assert np.isnan(holm([np.nan, np.nan])).all()
    np.testing.assert_allclose(holm([0.6, 0.9]), [1.0, 1.0])  # capped at 1


def holm_rejections(pvalues, alpha):
    """Holm's procedure as stated: reject in increasing order while p_(i) <= alpha/(m-i+1)."""
    order = np.argsort(pvalues, kind="stable")
    m = len(pvalues)
    reject = np.zeros(m, dtype=bool)
    for i, index in enumerate(order):
        if pvalues[index] > alpha / (m - i):
            break
        reject[index] = True
    return reject


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=12),
    st.sampled_from([0.01, 0.05, 0.1]),
)
def test_adjusted_pvalues_reject_exactly_what_holms_procedure_rejects(pvalues, alpha):
    p = np.asarray(pvalues)
    adjusted = holm(p)
    assert ((adjusted <= alpha) == holm_rejections(p, alpha)).all()
    assert (adjusted >= p - 1e-15).all() and (adjusted <= 1).all()


def test_nan_is_not_counted_as_a_test_and_the_shape_is_kept():
    with_nan = holm([[0.01, np.nan], [0.04, 0.03]])
    assert with_nan.shape == (2, 2) and np.isnan(with_nan[0, 1])
    np.testing.assert_allclose(with_nan[~np.isnan(with_nan)], holm([0.01, 0.04, 0.03]))


def test_bonferroni_by_hand_and_nan_not_counted():
    np.testing.assert_allclose(bonferroni([0.01, 0.2, 0.5]), [0.03, 0.6, 1.0])
    with_nan = bonferroni([[0.01, np.nan], [0.02, 0.3]])
    assert with_nan.shape == (2, 2) and np.isnan(with_nan[0, 1])
    np.testing.assert_allclose(with_nan[~np.isnan(with_nan)], [0.03, 0.06, 0.9])
    assert bonferroni([]).size == 0


def test_benjamini_hochberg_by_hand():
    # sorted 0.01, 0.02, 0.03, 0.04, 0.2 -> *5/i = 0.05, 0.05, 0.05, 0.05, 0.2
    np.testing.assert_allclose(
        benjamini_hochberg([0.04, 0.01, 0.2, 0.03, 0.02]), [0.05, 0.05, 0.2, 0.05, 0.05]
    )
    # sorted 0.01, 0.04 -> 0.02, 0.04; a lone p-value is unchanged
    np.testing.assert_allclose(benjamini_hochberg([0.04, 0.01]), [0.04, 0.02])
    np.testing.assert_allclose(benjamini_hochberg([0.3]), [0.3])
    assert np.isnan(benjamini_hochberg([np.nan, np.nan])).all()


@pytest.mark.parametrize("function", [bonferroni, benjamini_hochberg])
def test_bad_pvalues_are_refused(function):
    for bad in ([0.1, 1.5], [-0.1], [np.inf]):
        with pytest.raises(ValueError, match=r"\[0, 1\]"):
            function(bad)


def bh_rejections(pvalues, alpha):
    """The step-up procedure as stated: k = max{i : p_(i) <= i alpha / m}; reject p_(1..k)."""
    order = np.argsort(pvalues, kind="stable")
    m = len(pvalues)
    k = 0
    for i in range(m, 0, -1):
        if pvalues[order[i - 1]] <= i * alpha / m:
            k = i
            break
    reject = np.zeros(m, dtype=bool)
    reject[order[:k]] = True
    return reject


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=12),
    st.sampled_from([0.01, 0.05, 0.1]),
)
def test_bh_adjusted_pvalues_reject_exactly_the_step_up_procedure(pvalues, alpha):
    p = np.asarray(pvalues)
    adjusted = benjamini_hochberg(p)
    assert ((adjusted <= alpha) == bh_rejections(p, alpha)).all()
    np.testing.assert_allclose(adjusted, stats.false_discovery_control(p, method="bh"))
    # BH is never stricter than Holm, Holm never stricter than Bonferroni
    assert (adjusted <= holm(p) + 1e-12).all() and (holm(p) <= bonferroni(p) + 1e-12).all()


def test_bh_keeps_the_shape_and_skips_nan():
    rng = np.random.default_rng(3)
    p = rng.uniform(size=(3, 4))
    p[1, 2] = np.nan
    adjusted = benjamini_hochberg(p)
    assert adjusted.shape == (3, 4) and np.isnan(adjusted[1, 2])
    finite = p[~np.isnan(p)]
    np.testing.assert_allclose(
        adjusted[~np.isnan(p)], stats.false_discovery_control(finite, method="bh")
    )
