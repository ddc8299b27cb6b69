"""Tests of :mod:`fairbook_book.chapters.objective_fairness_index.runs`: the Fig. 3.3 models
(no network: folktables is replaced by a fake module; Adult only if cached)."""

import numpy as np
import pytest

from fairbook_book.chapters import objective_fairness_index as ofi


def test_adult_model_name_is_checked():
    with pytest.raises(ValueError, match="'rf' or 'nb'"):
        ofi.adult_counts(models=("nb", "svm"))


def test_folktables_path_uses_the_package(monkeypatch):
    import sys
    import types

    rng = np.random.default_rng(0)
    features = rng.normal(size=(200, 3))
    label = (features[:, 0] > 0).astype(int)
    race = rng.integers(1, 4, 200)

    class Source:
        def __init__(self, **kwargs):
            self.kwargs = kwargs

        def get_data(self, states, download):
            assert states == ["GA"] and download
            return "frame"

    fake = types.SimpleNamespace(
        ACSDataSource=Source,
        ACSEmployment=types.SimpleNamespace(df_to_numpy=lambda f: (features, label, race)),
    )
    monkeypatch.setitem(sys.modules, "folktables", fake)
    y_true, y_pred, groups = ofi.folktables_employment_predictions(model="nb")
    assert len(y_true) == len(y_pred) == len(groups) == 40
    assert (y_true == y_pred).mean() > 0.8
    with pytest.raises(ValueError, match="'rf' or 'nb'"):
        ofi.folktables_employment_predictions(model="svm")


def _cached(*names):
    from fairbook.data import verify

    return all(v is True for v in verify(list(names)).values())


@pytest.mark.skipif(not _cached("adult_train", "adult_test"), reason="Adult not in the cache")
def test_adult_counts_are_the_shared_predictions():
    from fairbook.data import predictions

    counts = ofi.adult_counts(models=("nb",), min_group_size=200)
    y_true, y_pred, race = predictions.adult_race_predictions("nb")
    expected = predictions.group_counts(y_true, y_pred, race, min_group_size=200)
    assert list(counts) == ["nb"]
    assert counts["nb"].equals(expected)
    assert counts["nb"]["n"].sum() == 15060


# ---- the recorded full profile (`fairbook-book record 02 adult`)


def test_recorded_units_are_seeds_and_round_trip_to_counts():
    import pandas as pd

    assert ofi.adult_recorded_units({"recorded_seeds": 2}) == ["s0", "s1"]
    with pytest.raises(ValueError, match="no Adult unit"):
        ofi.adult_recorded_unit("seed0", ofi.settings("full"))
    table = pd.DataFrame(
        {"model": ["rf", "rf", "nb"], "group": ["a", "b", "a"], "TP": [3, 1, 2], "FN": [1, 0, 2]}
        | {"FP": [0, 1, 1], "TN": [6, 2, 5], "n": [10, 4, 10]}
    )
    counts = ofi.recorded_counts(table.assign(unit="s0"), "s0", min_group_size=5)
    assert list(counts) == ["rf", "nb"]
    assert counts["rf"].loc["b"].tolist() == [1, 0, 1, 2, 4, False]
    assert (counts["rf"][["TP", "FN", "FP", "TN"]].sum(axis=1) == counts["rf"]["n"]).all()
    with pytest.raises(ValueError, match="no unit 's1'"):
        ofi.recorded_counts(table.assign(unit="s0"), "s1")
