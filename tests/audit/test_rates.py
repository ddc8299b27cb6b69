"""Tests of fairbook.audit.rates: intervals against scipy's exact binomial interval, CPS
against the formula, and the between-group summaries."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from fairbook.audit.rates import between_groups, fraction_counts, rate_interval, rate_table
from fairbook.metrics import compute
from fairbook.stats.combinatorics import BINOMIAL_CELLS, JRM_CELLS

COUNTS = np.array([[3, 1, 2, 4], [0, 0, 5, 5], [7, 2, 0, 1], [40, 10, 20, 30]])


@pytest.mark.parametrize("metric", [*BINOMIAL_CELLS, *JRM_CELLS])
@pytest.mark.parametrize("level", [0.9, 0.95])
def test_clopper_pearson_equals_scipy_exact_interval(metric, level):
    low, high = rate_interval(metric, COUNTS, level=level)
    k, m = fraction_counts(metric, COUNTS)
    for i in range(len(COUNTS)):
        if m[i] == 0:
            assert np.isnan(low[i]) and np.isnan(high[i])
            assert np.isnan(compute(metric, COUNTS[i]))
            continue
        ci = stats.binomtest(int(k[i]), int(m[i])).proportion_ci(level, method="exact")
        assert low[i] == pytest.approx(ci.low, abs=1e-12)
        assert high[i] == pytest.approx(ci.high, abs=1e-12)
        assert low[i] <= compute(metric, COUNTS[i]) <= high[i]


def test_b_interval_is_the_normal_interval_of_a_mean():
    cm = np.array([30, 10, 20, 40])
    terms = np.repeat([0, -1, 1, 0], cm)  # +1 per FP, -1 per FN
    half = stats.norm.ppf(0.975) * terms.std() / np.sqrt(terms.size)
    low, high = rate_interval("B", cm)
    assert low[0] == pytest.approx(terms.mean() - half)
    assert high[0] == pytest.approx(terms.mean() + half)
    assert rate_interval("B", [0, 5, 0, 0])[0][0] == -1.0  # clipped, zero width


def test_fraction_counts_refuses_other_metrics():
    with pytest.raises(ValueError, match="no interval"):
        fraction_counts("MCC", COUNTS)


def test_rate_table_cps_is_cross_prior_smoothing_towards_the_reference():
    table = rate_table(COUNTS, list("abcd"), attribute="g", reference=3, metrics=["TPR", "B"])
    ref = COUNTS[3] / COUNTS[3].sum()
    for i, group in enumerate("abcd"):
        smoothed = (COUNTS[i] + 5 * ref) * COUNTS[i].sum() / (COUNTS[i].sum() + 5)
        row = table[(table.group == group) & (table.metric == "TPR")].iloc[0]
        assert row.cps == pytest.approx(compute("TPR", smoothed))
        assert row.is_reference == (group == "d")
    reference_rows = table[table.is_reference]
    np.testing.assert_allclose(reference_rows.cps, reference_rows.score)  # λ moves it nowhere
    assert table.loc[(table.group == "b") & (table.metric == "TPR"), "score"].isna().all()
    assert table.loc[(table.group == "b") & (table.metric == "TPR"), "cps"].notna().all()


def test_between_groups_by_hand():
    table = rate_table(COUNTS, list("abcd"), attribute="g", reference=3, metrics=["TPR", "B"])
    overview = between_groups(table).set_index("metric")
    tpr = {g: compute("TPR", c) for g, c in zip("abcd", COUNTS, strict=True)}
    defined = {g: v for g, v in tpr.items() if not np.isnan(v)}
    assert overview.loc["TPR", "max"] == max(defined.values())
    assert overview.loc["TPR", "min_group"] == min(defined, key=defined.get)
    assert overview.loc["TPR", "ratio"] == pytest.approx(
        min(defined.values()) / max(defined.values())
    )
    assert overview.loc["TPR", "undefined"] == 1 and overview.loc["TPR", "groups"] == 4
    assert np.isnan(overview.loc["B", "ratio"])  # B can be negative: no ratio
    assert overview.loc["B", "reference_group"] == "d"


def test_between_groups_of_all_undefined_scores():
    table = rate_table(
        np.array([[0, 0, 1, 1], [0, 0, 2, 2]]),
        ["a", "b"],
        attribute="g",
        reference=1,
        metrics=["TPR"],
    )
    row = between_groups(table).iloc[0]
    assert np.isnan(row["difference"]) and row["min_group"] is None
    assert isinstance(between_groups(table), pd.DataFrame)
