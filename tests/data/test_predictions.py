"""Tests of :mod:`fairbook.data.predictions`: per-group counts and the shared prediction
sets (no network; the real files only when they are cached).

Oracles: counts by hand; ProPublica's published sizes of the filtered COMPAS file.
"""

import pytest

from fairbook.data import predictions


def test_group_counts_marks_small_groups():
    counts = predictions.group_counts(
        [1, 0, 1, 1], [1, 0, 0, 1], ["x", "x", "x", "y"], min_group_size=2
    )
    assert counts.loc["x", "included"] and not counts.loc["y", "included"]
    assert counts.loc["x", ["TP", "FN", "FP", "TN"]].tolist() == [1, 1, 0, 1]
    assert list(counts.index) == ["x", "y"]  # largest first


def test_adult_model_name_is_checked():
    with pytest.raises(ValueError, match="'rf' or 'nb'"):
        predictions.adult_race_predictions("svm")


@pytest.mark.real_data("compas")
def test_compas_counts_real_data():
    counts = predictions.compas_race_counts(min_group_size=100)
    assert counts["n"].sum() == 6172
    assert counts.loc["African-American", "n"] == 3175
    assert set(counts.index[counts.included]) == {
        "African-American",
        "Caucasian",
        "Hispanic",
        "Other",
    }


@pytest.mark.real_data("adult_train", "adult_test")
def test_adult_race_predictions_real_data():
    y_true, y_pred, race = predictions.adult_race_predictions("nb")
    assert len(y_true) == len(y_pred) == len(race) == 15060
    assert set(race) == {"White", "Black", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other"}
    assert 0.5 < (y_true == y_pred).mean() < 1
