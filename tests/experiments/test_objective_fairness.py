"""Tests of the OFI chapter's computations (no network; real data only if cached)."""

import numpy as np
import pandas as pd
import pytest

from fairbook.experiments import objective_fairness as ofi


def test_tables_3_1_and_3_3_replicate():
    assert set(ofi.table_3_1().verdict) == {"matches", "both undefined"}
    assert set(ofi.table_3_3().verdict) == {"matches"}


def test_property_replication_agrees_with_the_paper():
    table = ofi.property_replication(n_max=6)
    assert (table.verdict == "matches").all()
    assert table.loc["DI", "SYM"] == "✗ (✗)"
    examples = ofi.counterexample_table(table.attrs["checks"])
    assert {"DI", "TE"} <= set(examples.metric)
    assert "OFI" not in set(examples.metric)


def toy_counts():
    # a: B = (1-0)/4 = .25, PPR .5; b: B = 0, PPR .5; c: B = -.5, PPR 0
    return pd.DataFrame(
        {"TP": [1, 1, 0], "FN": [0, 0, 2], "FP": [1, 1, 0], "TN": [2, 2, 2]}, index=["a", "b", "c"]
    ).assign(n=lambda d: d.sum(axis=1), included=True)


def test_pairwise_scores_by_hand():
    counts = toy_counts()
    counts.loc["b", ["FP", "TN"]] = [0, 3]  # b: B = 0
    scores = ofi.pairwise_scores(counts, "OFI")
    assert np.isnan(scores.loc["a", "a"])
    assert scores.loc["a", "b"] == pytest.approx(0.25)
    assert scores.loc["b", "a"] == pytest.approx(-0.25)


def test_pairwise_scores_skips_excluded_groups():
    counts = toy_counts()
    counts.loc["c", "included"] = False
    assert list(ofi.pairwise_scores(counts, "OFI").index) == ["a", "b"]


def test_direction_agreement_and_favour_counts():
    counts = toy_counts()
    counts.loc["b", ["TP", "FP", "TN"]] = [2, 0, 2]  # b: PPR .5, B = 0 → DI(a,b)=1, OFI>0
    agreement = ofi.direction_agreement(counts)
    # pairs: (a,b) DI=1 vs OFI=.25 disagree; (a,c) DI undefined (c has PPR 0): skipped;
    # (b,c): DI undefined, skipped
    assert agreement["pairs"] == 1 and agreement["agree"] == 0
    favour = ofi.favour_counts(counts)
    assert favour.loc["a", "OFI favours"] == 2
    assert favour.loc["c", "OFI favours"] == 0


def test_group_counts_marks_small_groups():
    counts = ofi.group_counts([1, 0, 1, 1], [1, 0, 0, 1], ["x", "x", "x", "y"], min_group_size=2)
    assert counts.loc["x", "included"] and not counts.loc["y", "included"]
    assert counts.loc["x", ["TP", "FN", "FP", "TN"]].tolist() == [1, 1, 0, 1]


def test_fig_3_3_replication_shares():
    counts = toy_counts()
    table = ofi.fig_3_3_replication({"rf": counts, "nb": counts}, group="a")
    assert table.loc[1, "paper"] == pytest.approx(7 / 8)
    assert table.loc[2, "paper"] == pytest.approx(2 / 8)
    with pytest.raises(ValueError, match="not among"):
        ofi.fig_3_3_replication({"nb": counts}, group="zzz")


def test_settings_profiles():
    assert ofi.settings("fast")["n_estimators"] < ofi.settings("full")["n_estimators"]
    assert ofi.settings("fast", n_estimators=None)["n_estimators"] == 50
    with pytest.raises(ValueError, match="profile"):
        ofi.settings("medium")
    with pytest.raises(ValueError, match="unknown settings"):
        ofi.settings("fast", trees=3)


def test_adult_model_name_is_checked():
    with pytest.raises(ValueError, match="'rf' or 'nb'"):
        ofi.adult_race_predictions("svm")


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


def _cached(name):
    from fairbook.data import verify

    return verify(name)[name] is True


@pytest.mark.skipif(not _cached("compas"), reason="COMPAS not in the data cache")
def test_compas_counts_real_data():
    counts = ofi.compas_race_counts(min_group_size=100)
    assert counts["n"].sum() == 6172
    assert counts.loc["African-American", "n"] == 3175
    assert set(counts.index[counts.included]) == {
        "African-American",
        "Caucasian",
        "Hispanic",
        "Other",
    }
    assert ofi.direction_agreement(counts)["share"] == 1.0
