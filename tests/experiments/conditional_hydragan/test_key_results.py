"""Tests of :mod:`fairbook.experiments.conditional_hydragan.key_results`: the sentences say
the numbers of hand-made tables, and change when the tables do."""

import pandas as pd
import pytest

from fairbook.experiments import conditional_hydragan as hc
from fairbook.papers import seed003
from fairbook.reading import KeyResults


def _table_3_5(*, who_synthetic=0.0, js_activities=(0.3, 0.24)):
    """Table 3.5's shape with chosen JS distances (KS and KL get the same numbers)."""
    real, synthetic = js_activities
    who_real = 0.25
    values = {
        ("Activities", "synthetic"): synthetic,
        ("Activities", "real"): real,
        ("Activities", "improvement %"): 100 * (real - synthetic) / real,
        ("Individuals", "synthetic"): who_synthetic,
        ("Individuals", "real"): who_real,
        ("Individuals", "improvement %"): 100 * (who_real - who_synthetic) / who_real,
    }
    index = ["KS statistic", "KL divergence", "JS distance"]
    return pd.DataFrame({k: [v] * 3 for k, v in values.items()}, index=index)


def test_five_sentences_from_the_tables(fake_scores):
    results = hc.key_results(fake_scores(3), _table_3_5())
    assert isinstance(results, KeyResults) and len(results.findings) == 5
    who, activities, ofi, di, replication = results.findings
    assert "falls from 0.250 in the real rows to 0.000" in who and "100 %" in who
    # 100 (0.3 − 0.24) / 0.3 = 20 %
    assert "falls from 0.300 in the real rows to 0.240" in activities
    assert "toward" in activities and "20 %" in activities
    # fake_scores: every class is 0.2 from its ideal with real data and 0.1 with synthetic
    # data, in every seed: the improvement is 0.100 with no spread
    assert "mean over 3 seeds" in ofi
    assert "for 4 of 4 classes" in ofi and "by up to 0.100" in ofi
    assert "The seeds agree" in ofi
    assert "DI is more than 0.02 from 1 for 4 of 4 classes" in di
    assert "and OFI more than 0.02 from 0 for 4" in di
    assert di.endswith("the two flag the same classes.")
    for sentence in results.findings:
        assert "e-0" not in sentence and "np." not in sentence


def test_a_class_made_worse_changes_the_ofi_sentence(fake_scores):
    scores = fake_scores(2)
    worse = (scores["class"] == "Male") & (scores["metric"] == "OFI")
    worse &= scores["data"] == "synthetic"
    scores.loc[worse, "value"] = -0.5  # real is −0.2 (+ seed/100): |−0.5| − |−0.2| = 0.3 worse
    ofi = hc.key_results(scores, _table_3_5()).findings[2]
    assert "for 3 of 4 classes" in ofi
    assert "increased it for 1 (Male, by up to" in ofi
    spread = scores[worse | ((scores["class"] == "Male") & (scores["metric"] == "OFI"))]
    assert "mean over 2 seeds" in ofi and spread["seed"].nunique() == 2
    # improvement per seed: (0.2 − s/100) − 0.5 → −0.3 and −0.31; mean −0.305
    assert "by up to 0.305" in ofi
    # sd over the two seeds of (−0.3, −0.31) is 0.00707
    assert "standard deviation over them is up to 0.007" in ofi


def test_ofi_near_zero_with_di_far_from_one_is_named_a_base_rate_difference(fake_scores):
    scores = fake_scores(3)
    female_ofi = (scores["class"] == "Female") & (scores["metric"] == "OFI")
    scores.loc[female_ofi & (scores["data"] == "real"), "value"] = 0.005
    di = hc.key_results(scores, _table_3_5()).findings[3]
    assert "OFI more than 0.02 from 0 for 3" in di
    assert "for Female DI sees a disparity while OFI is near 0" in di
    loose = hc.key_results(scores, _table_3_5(), tol=0.5).findings[3]
    assert "DI is more than 0.5 from 1 for 0 of 4 classes" in loose
    assert "Female" not in loose


def test_the_replication_count_follows_the_paper_signs(fake_scores):
    # every improvement of the fake scores is +0.1, so a cell agrees where the paper's is
    # > 0; each printed number is judged once, under the "cells" reading
    paper = [
        seed003.TABLE_3_4[m][hc.PAPER_CLASSES[c]]["Improves"]
        for m in hc.METRICS
        for c in hc.PAPER_CLASSES
    ]
    signed = [p for p in paper if p != 0]
    positive = sum(p > 0 for p in signed)
    pair = fake_scores(3)
    cells = pd.concat([pair, pair.assign(definition="cells")], ignore_index=True)
    text = hc.key_results(cells, _table_3_5()).findings[4]
    assert f"in {positive} of {len(signed)} signed cells" in text
    assert "pair" not in text
    # the hand-made activities improve (20 %), as the paper's three do
    assert "activity improvements in 3 of 3" in text
    # Table 3.5's data-independent numbers are checks of our reading, never matches
    assert "9 of Table 3.5's 9 data-independent numbers agree" in text
    assert "checks of our reading of the thesis, not replications" in text
    # individuals not exactly balanced (0.01 instead of 0, a 96 % improvement): their three
    # synthetic divergences and three improvements no longer agree; the one-hot rows still do
    off = hc.key_results(cells, _table_3_5(who_synthetic=0.01)).findings[4]
    assert "3 of Table 3.5's 9 data-independent numbers agree" in off
    # scores without the cells reading have no Table 3.4 count to give
    assert "no cell" in hc.key_results(fake_scores(3), _table_3_5()).findings[4]


def test_activities_that_got_worse_are_said_to_be_worse(fake_scores):
    text = hc.key_results(fake_scores(3), _table_3_5(js_activities=(0.2, 0.25))).findings[1]
    assert "rises from 0.200 in the real rows to 0.250" in text
    assert "25 % worse" in text and "did not balance" in text


@pytest.mark.parametrize("value, text", [(16.511, "16.5 %"), (100.0, "100 %"), (4.0, "4 %")])
def test_percentages_read_as_a_person_writes_them(value, text):
    from fairbook.experiments.conditional_hydragan.key_results import _percent

    assert _percent(value) == text
