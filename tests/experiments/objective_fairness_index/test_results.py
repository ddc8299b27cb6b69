"""Tests of :mod:`fairbook.experiments.objective_fairness_index.results`: pairwise scores,
DI/OFI agreement and the counterexamples of Table 3.2 (values by hand)."""

import numpy as np
import pytest

from fairbook.experiments import objective_fairness_index as ofi


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
