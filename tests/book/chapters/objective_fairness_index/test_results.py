"""Tests of :mod:`fairbook_book.chapters.objective_fairness_index.results`: pairwise scores,
DI/OFI agreement and the counterexamples of Table 3.2 (values by hand)."""

import numpy as np
import pytest

from fairbook_book.chapters import objective_fairness_index as ofi


def test_pairwise_scores_by_hand(toy_counts):
    counts = toy_counts()
    counts.loc["b", ["FP", "TN"]] = [0, 3]  # b: B = 0
    scores = ofi.pairwise_scores(counts, "OFI")
    assert np.isnan(scores.loc["a", "a"])
    assert scores.loc["a", "b"] == pytest.approx(0.25)
    assert scores.loc["b", "a"] == pytest.approx(-0.25)


def test_pairwise_scores_skips_excluded_groups(toy_counts):
    counts = toy_counts()
    counts.loc["c", "included"] = False
    assert list(ofi.pairwise_scores(counts, "OFI").index) == ["a", "b"]


def test_direction_agreement_and_favour_counts(toy_counts):
    counts = toy_counts()
    counts.loc["b", ["TP", "FP", "TN"]] = [2, 0, 2]  # b: PPR .5, B = 0 → DI(a,b)=1, OFI>0
    agreement = ofi.direction_agreement(counts)
    # pairs: (a,b) DI=1 vs OFI=.25 disagree; (a,c) DI undefined (c has PPR 0): skipped;
    # (b,c): DI undefined, skipped
    assert agreement["pairs"] == 1 and agreement["agree"] == 0
    favour = ofi.favour_counts(counts)
    assert favour.loc["a", "OFI favours"] == 2
    assert favour.loc["c", "OFI favours"] == 0


def test_counterexamples_of_table_3_2():
    table = ofi.table_3_2_replication(n_max=6)
    examples = ofi.counterexample_table(table.attrs["checks"])
    assert {"DI", "TE"} <= set(examples.metric)
    assert "OFI" not in set(examples.metric)
    assert list(examples.columns) == ["metric", "property", "counterexample"]


def _cached(name):
    from fairbook.data import verify

    return verify(name)[name] is True


@pytest.mark.skipif(not _cached("compas"), reason="COMPAS not in the data cache")
def test_compas_direction_agreement_real_data():
    from fairbook.data.predictions import compas_race_counts

    counts = compas_race_counts(min_group_size=100)
    assert ofi.direction_agreement(counts)["share"] == 1.0


def test_benefit_table_by_hand():
    table = ofi.benefit_table({"x": ([20, 10, 5, 65], [30, 5, 15, 50])})
    row = table.loc["x"]
    assert row["group i [TP, FN, FP, TN]"] == "[20, 10, 5, 65]"
    assert row["B_i"] == pytest.approx((5 - 10) / 100)
    assert row["B_j"] == pytest.approx((15 - 5) / 100)
    assert row["OFI"] == pytest.approx(-0.05 - 0.10)
    assert row["PPR_i"] == pytest.approx(0.25)
    assert row["DI"] == pytest.approx(0.25 / 0.45)


def test_benefit_table_perfect_classifier_and_undefined_di():
    table = ofi.benefit_table(
        {"perfect": ([10, 0, 0, 90], [50, 0, 0, 50]), "none": ([0, 1, 0, 5], [0, 7, 0, 11])}
    )
    assert table.loc["perfect", "OFI"] == 0
    assert table.loc["perfect", "DI"] == pytest.approx(0.2)
    assert np.isnan(table.loc["none", "DI"])  # 0/0, never a silent 1
    with pytest.raises(ValueError, match="at least one"):
        ofi.benefit_table({})


def test_firefighter_scenarios_are_table_3_1s_matrices():
    table = ofi.firefighter_scenarios()
    assert table.index.tolist() == ["A", "B", "α"]
    assert table.loc["A", "OFI"] == pytest.approx(0 - 1 / 18)
    assert table.loc["α", "DI"] == pytest.approx((1 / 7) / (1 / 19))


def test_counterexamples_print_without_floating_point_noise():
    from types import SimpleNamespace

    check = SimpleNamespace(
        counterexamples={
            "OBJ": {
                "cm_i": [0, 1, 1, 0],
                "value_0": -0.5000000000000001,
                "value_1": -0.16666666666666669,
            }
        }
    )
    text = ofi.counterexample_table({"M": check}).loc[0, "counterexample"]
    assert text == "cm_i = [0, 1, 1, 0], value_0 = -0.5, value_1 = -0.1667"
