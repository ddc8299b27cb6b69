"""Tests of :mod:`fairbook.stats.multiple_testing`: Holm's step-down adjustment.

Oracles: the adjustment worked by hand, and Holm's procedure as he stated it (reject in
increasing order while p_(i) <= alpha / (m - i + 1)) on random p-values (hypothesis).
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from fairbook.stats.multiple_testing import holm


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
