"""Tests of fairbook.forecasting.skill: Eq. 5.10 and Table 5.2's summaries."""

import numpy as np
import pytest

from fairbook.forecasting.skill import (
    QUARTILE_ROWS,
    percent_improved,
    skill_quartiles,
    skill_score,
    table_5_2,
)
from fairbook.papers.seed003 import TABLE_5_2_CHAOS


def test_skill_score_hand_cases():
    assert skill_score(0.0, 2.0) == 1.0  # perfect
    assert skill_score(2.0, 2.0) == 0.0  # tie
    assert skill_score(3.0, 2.0) == -0.5  # baseline wins
    assert np.isnan(skill_score(1.0, 0.0))  # undefined
    np.testing.assert_allclose(skill_score([1.0, 4.0], [4.0, 1.0]), [0.75, -3.0])


def test_quartiles_taken_per_set_then_scored():
    model = np.arange(1.0, 101.0)  # quartiles 25.75, 50.5, 75.25
    baseline = np.arange(1.0, 101.0)[::-1] * 2  # the same set, doubled, reordered
    np.testing.assert_allclose(skill_quartiles(model, baseline), [0.5, 0.5, 0.5])
    q_m = np.quantile(model, [0.25, 0.5, 0.75])
    base2 = np.linspace(10, 300, 37)  # different size: allowed
    np.testing.assert_allclose(
        skill_quartiles(model, base2), 1 - q_m / np.quantile(base2, [0.25, 0.5, 0.75])
    )


def test_sec_5_5_example_six_percent_below_zero():
    # a zero score at the 6th percentile: 6 % of scores below zero, so 94 % >= 0
    baseline = np.ones(1000)
    model = np.full(1000, 0.5)
    model[:60] = 1.5
    assert percent_improved(model, baseline) == pytest.approx(94.0)
    per_forecast = skill_score(model, baseline)
    assert 100 * (1 - np.mean(per_forecast < 0)) == pytest.approx(94.0)


def test_identical_sets_are_ties():
    x = np.random.default_rng(0).random(50)
    np.testing.assert_array_equal(skill_quartiles(x, x), 0.0)
    assert percent_improved(x, x) == 100.0
    assert percent_improved([0.0, 1.0], [0.0, 0.5]) == 50.0  # 0 vs 0 is a tie


def test_percent_improved_matches_the_percentile_of_zero():
    rng = np.random.default_rng(1)
    m, b = rng.gamma(2.0, size=500), rng.gamma(2.0, size=500) * 1.3
    s = skill_score(m, b)
    assert percent_improved(m, b) == pytest.approx(100 * (1 - np.mean(s < 0)))


def test_table_layout_matches_the_paper_constants():
    rng = np.random.default_rng(2)
    ptn = rng.gamma(2.0, size=200)
    t = table_5_2(ptn, 2 * ptn, ptn)
    assert list(t.index) == list(QUARTILE_ROWS) == list(TABLE_5_2_CHAOS["Det."])
    assert list(t.columns) == list(TABLE_5_2_CHAOS)
    np.testing.assert_allclose(t["Det."].to_numpy(), [0.5, 0.5, 0.5, 100.0])
    np.testing.assert_allclose(t["TiDE"].to_numpy(), [0.0, 0.0, 0.0, 100.0])


def test_nan_and_bad_input_raise():
    with pytest.raises(ValueError, match="NaN"):
        skill_quartiles([1.0, np.nan], [1.0, 2.0])
    with pytest.raises(ValueError, match="NaN"):
        percent_improved([1.0, 2.0], [np.nan, 2.0])
    with pytest.raises(ValueError, match="non-negative"):
        skill_score(-1.0, 1.0)
    with pytest.raises(ValueError, match="paired"):
        percent_improved([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="empty"):
        skill_quartiles([], [1.0])
    with pytest.raises(ValueError, match="quantiles"):
        skill_quartiles([1.0], [1.0], quantiles=[1.5])
