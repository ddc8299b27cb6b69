"""Tests of :mod:`fairbook.experiments.small_groups.match_tables` (Sec. 4.5, MATCH applied
to real groups).

Oracles: the MATCH test of :mod:`fairbook.stats.match` and Holm's adjustment by hand.
"""

import numpy as np
import pytest

from fairbook.experiments import small_groups as sg
from fairbook.experiments.small_groups.match_tables import _holm
from fairbook.metrics import compute
from fairbook.stats import match


def test_match_table_against_match_test_and_holm(toy_counts):
    counts = toy_counts()
    table = sg.match_table(counts, metrics=["PPR", "TPR", "B"], min_gap=0.05)
    total = counts.sum().to_numpy(float)
    row = table[(table.group == "small") & (table.metric == "TPR")].iloc[0]
    ref = total - counts.loc["small"].to_numpy(float)
    assert row.p_value == pytest.approx(match.test("TPR", [5, 5, 0, 10], ref / ref.sum()))
    assert row.reference == pytest.approx(compute("TPR", ref))
    # Holm: sorted adjusted p-values are monotone, at least the raw ones, at most 1
    ordered = table.sort_values("p_value")
    assert ordered.p_holm.is_monotonic_increasing
    assert (table.p_holm >= table.p_value - 1e-15).all() and (table.p_holm <= 1).all()
    m = len(table)
    assert ordered.p_holm.iloc[0] == pytest.approx(min(1.0, m * ordered.p_value.iloc[0]))
    assert (table.survives == (table.apparent & (table.p_holm < 0.05))).all()
    assert set(table.verdict) <= {
        "disparity survives",
        "apparent, not significant",
        "significant, below min_gap",
        "",
    }
    summary = sg.match_summary(table)
    assert summary.loc["small", "apparent"] == table[table.group == "small"].apparent.sum()
    with pytest.raises(ValueError, match="no exact MATCH law"):
        sg.match_table(counts, metrics=["MCC"])


def test_holm_by_hand():
    adjusted = _holm(np.array([0.01, 0.04, np.nan, 0.03]))
    assert np.allclose(adjusted[[0, 1, 3]], [0.03, 0.06, 0.06])
    assert np.isnan(adjusted[2])


@pytest.mark.parametrize(
    "metric,n", [("ACC", 30), ("TPR", 25), ("B", 20), ("MCC", 12), ("PPV", 40)]
)
def test_match_pvalues_equal_match_test(metric, n):
    rng = np.random.default_rng(5)
    p_ref = np.array([0.3, 0.1, 0.2, 0.4])
    draws = rng.multinomial(n, [0.25, 0.2, 0.15, 0.4], size=40)
    scores = compute(metric, draws)
    fast = sg.match_pvalues(metric, scores, p_ref, n)
    method = "exact" if "exact" in match.methods_for(metric) else "enumerate"
    for cm, score, value in zip(draws, scores, fast, strict=True):
        if np.isnan(score):
            assert np.isnan(value)
        else:
            assert value == pytest.approx(match.test(metric, cm, p_ref, method=method), abs=1e-9)
