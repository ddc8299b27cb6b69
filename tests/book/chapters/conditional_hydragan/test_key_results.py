"""Tests of :mod:`fairbook_book.chapters.conditional_hydragan.key_results`: the sentences say
the numbers of hand-made tables, and change when the tables do."""

import numpy as np
import pandas as pd
import pytest

from fairbook.generative import js_distance
from fairbook_book.chapter_summary import KeyResults
from fairbook_book.chapters import conditional_hydragan as hc


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


def test_findings_from_the_tables_and_a_replication_line(fake_scores):
    results = hc.key_results(fake_scores(3), _table_3_5())
    assert isinstance(results, KeyResults) and len(results.findings) == 4
    who, activities, ofi, di = results.findings
    assert "falls from 0.250 in the real rows to 0.000" in who and "100 %" in who
    # 100 (0.3 − 0.24) / 0.3 = 20 %
    assert "falls from 0.300 in the real rows to 0.240" in activities
    assert "toward" in activities and "20 %" in activities
    # fake_scores: every class is 0.2 from its ideal with real data and 0.1 with synthetic
    # data (plus seed/100 on both sides): the improvement is 0.100 in every seed
    assert ofi.startswith("In this build (fast profile, 3 seeds, pair definition)")
    assert "closer to 0 by 0.100 ± 0.000 for youngest 75 %, oldest 25 %, Female and Male" in ofi
    assert "(mean ± sd over the seeds). It is closer in every seed for" in ofi
    assert "DI is more than 0.02 from 1 for 4 of 4 classes" in di
    assert "and OFI more than 0.02 from 0 for 4" in di
    assert di.endswith("the two flag the same classes.")
    for sentence in results.findings:
        assert "e-0" not in sentence and "np." not in sentence
        assert "replicat" not in sentence.lower()
    # the tally is the computed replication line below the findings, linking the ledger
    assert results.replication.startswith("Beside the paper (fast profile): Briscoe 2024 — of ")
    assert "Briscoe 2024" in results.replication  # the paper by author and year
    assert "{doc}`the replication ledger <../book/ledger>`" in results.replication
    assert "seed 003" not in results.replication
    assert (
        "(full profile)" in hc.key_results(fake_scores(3), _table_3_5(), budget="full").replication
    )


def test_the_spread_over_seeds_and_the_seeds_that_disagree(fake_scores):
    scores = fake_scores(3)
    male = (scores["class"] == "Male") & (scores["metric"] == "OFI")
    synthetic = male & (scores["data"] == "synthetic")
    # real Male OFI is −0.2 + seed/100; synthetic −0.1, −0.3, −0.25 in seeds 0, 1, 2:
    # improvements |real| − |synthetic| = 0.1, −0.11, −0.07
    scores.loc[synthetic, "value"] = scores.loc[synthetic, "seed"].map({0: -0.1, 1: -0.3, 2: -0.25})
    ofi = hc.key_results(scores, _table_3_5()).findings[2]
    improvements = np.array([0.2 - 0.1, 0.19 - 0.3, 0.18 - 0.25])
    mean, sd = improvements.mean(), improvements.std(ddof=1)
    assert f"further from 0 by {abs(mean):.3f} ± {sd:.3f} for Male" in ofi
    assert "closer to 0 by 0.100 ± 0.000 for youngest 75 %, oldest 25 % and Female" in ofi
    assert "the seeds disagree for Male (closer in 1 of 3)" in ofi
    # a class further from 0 in every seed is said to be so
    scores.loc[synthetic, "value"] = -0.5
    ofi = hc.key_results(scores, _table_3_5()).findings[2]
    assert "further in every seed for Male" in ofi
    # one seed: no spread to give
    one = hc.key_results(fake_scores(1), _table_3_5()).findings[2]
    assert "1 seed," in one and "±" not in one and "every seed" not in one


def test_the_activities_spread_over_seeds(fake_scores):
    target = [0.25] * 4
    frames = []
    for seed, synthetic in enumerate(([0.4, 0.2, 0.2, 0.2], [0.3, 0.3, 0.2, 0.2])):
        index = pd.MultiIndex.from_product([[seed], list("abcd")], names=["seed", "occupation"])
        frames.append(
            pd.DataFrame(
                {"real": [0.7, 0.1, 0.1, 0.1], "synthetic": synthetic, "target": target},
                index=index,
            )
        )
    activities = pd.concat(frames)
    per_seed = [
        js_distance(f["synthetic"].to_numpy(), target) for _, f in activities.groupby(level="seed")
    ]
    table = _table_3_5(js_activities=(0.3, float(np.mean(per_seed))))
    text = hc.key_results(fake_scores(3), table, activities=activities).findings[1]
    spread = f"{np.mean(per_seed):.3f} ± {np.std(per_seed, ddof=1):.3f} (mean ± sd over 2 seeds)"
    assert spread in text


def test_the_recorded_seeds_give_their_own_finding(fake_scores):
    from fairbook_book.recordings import Recording

    empty = Recording("07_conditional_hydragan", "seeds", pd.DataFrame())
    assert len(hc.key_results(fake_scores(3), _table_3_5(), recording=empty).findings) == 4
    recorded = hc.seeds_recording(hc.settings("full"))
    if recorded.empty:
        pytest.skip("no recorded seeds in this checkout")
    findings = hc.key_results(fake_scores(3), _table_3_5(), recording=recorded).findings
    assert len(findings) == 5
    n = len(recorded.provenance)
    assert findings[3].startswith(f"At full size ({n} recorded seeds, pair definition")
    assert ("for context only" in findings[3]) == recorded.stale
    scores = hc.recorded_experiment(recorded)["scores"]
    stats = hc.table_3_4(scores, definition="pair", as_text=False).loc[("OFI", "improves")]
    assert f"{abs(stats[('Male', 'mean')]):.3f} ± {stats[('Male', 'sd')]:.3f}" in findings[3]


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


def test_activities_that_got_worse_are_said_to_be_worse(fake_scores):
    text = hc.key_results(fake_scores(3), _table_3_5(js_activities=(0.2, 0.25))).findings[1]
    assert "rises from 0.200 in the real rows to 0.250" in text
    assert "25 % worse" in text and "did not balance" in text


@pytest.mark.parametrize("value, text", [(16.511, "16.5 %"), (100.0, "100 %"), (4.0, "4 %")])
def test_percentages_read_as_a_person_writes_them(value, text):
    from fairbook_book.chapters.conditional_hydragan.key_results import _percent

    assert _percent(value) == text
