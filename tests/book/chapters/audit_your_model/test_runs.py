"""Tests of the chapter "Audit your own model": the two prediction tables."""

import numpy as np
import pytest

from fairbook.data.predictions import compas_race_counts
from fairbook_book.chapters import audit_your_model as am


def test_compas_predictions_keep_every_group_and_follow_propublica():
    frame = am.compas_predictions()
    counts = frame["race"].value_counts()
    expected = compas_race_counts(min_group_size=0)["n"]
    assert counts.sort_index().tolist() == expected.sort_index().tolist()  # nothing dropped
    assert set(frame["age_cat"]) >= {"25 - 45"} and set(frame["sex"]) == {"Male", "Female"}
    score = frame["low_risk_score"].to_numpy()
    assert ((0 <= score) & (score <= 1)).all()
    # predicted low risk = decile score below 5 = low-risk score above (10 - 5) / 9
    np.testing.assert_array_equal(frame["y_pred"].to_numpy() == 1, score > 5 / 9)


def test_adult_seed_ensemble_runs_and_members():
    frame = am.adult_seed_ensemble(seeds=2, n_estimators=3, max_train_rows=1500)
    assert {"y_true", "y_pred", "pred_0", "pred_1", "p_0", "p_1", "race", "sex"} <= set(frame)
    np.testing.assert_array_equal(frame["y_pred"], frame["pred_0"])
    for k in (0, 1):  # a forest predicts the class of larger probability
        p = frame[f"p_{k}"].to_numpy()
        decided = p != 0.5
        np.testing.assert_array_equal(frame[f"pred_{k}"].to_numpy()[decided], (p > 0.5)[decided])
    assert not frame["p_0"].equals(frame["p_1"])  # the seeds differ
    with pytest.raises(ValueError, match="seeds must be at least 1"):
        am.adult_seed_ensemble(seeds=0, n_estimators=3)
