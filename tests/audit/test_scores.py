"""Tests of fairbook.audit.scores against a pandas group-by."""

import numpy as np
import pandas as pd
import pytest

from fairbook.audit.groups import encode_attribute
from fairbook.audit.scores import score_table


def test_balance_and_calibration_equal_a_group_by():
    rng = np.random.default_rng(2)
    n = 500
    frame = pd.DataFrame(
        {"g": rng.choice(["a", "b", "c"], n), "y": rng.random(n) < 0.3, "s": rng.random(n)}
    )
    attribute = encode_attribute(frame.g.to_numpy(), name="g")
    table = score_table(frame.s.to_numpy(), frame.y.to_numpy(), attribute, reference=0)
    table = table.set_index("group")
    by = frame.groupby("g")
    pos = frame[frame.y].groupby("g").s.mean()
    neg = frame[~frame.y].groupby("g").s.mean()
    np.testing.assert_allclose(table.score_mean, by.s.mean())
    np.testing.assert_allclose(table.score_mean_positives, pos)
    np.testing.assert_allclose(table.score_mean_negatives, neg)
    np.testing.assert_allclose(table.positives_gap, pos - pos["a"])
    np.testing.assert_allclose(table.brier, by.apply(lambda d: ((d.s - d.y) ** 2).mean()))
    np.testing.assert_allclose(table.calibration_in_the_large, by.s.mean() - by.y.mean())


def test_scores_that_are_not_probabilities_and_groups_without_positives():
    attribute = encode_attribute(["a", "a", "b"], name="g")
    table = score_table(
        np.array([3.0, 7.0, 9.0]), np.array([True, False, False]), attribute, reference=0
    )
    assert table.brier.isna().all() and table.calibration_in_the_large.isna().all()
    assert np.isnan(table.loc[1, "score_mean_positives"])
    assert table.loc[1, "negatives_gap"] == pytest.approx(9.0 - 7.0)
