"""Tests of fairbook.audit.comparisons: each group against its reference by hand, the ratio
flag at seed 000's threshold, and the verdicts after Holm's adjustment."""

import math

import numpy as np
import pandas as pd
import pytest

from fairbook.audit.comparisons import (
    COMPARISON_COLUMNS,
    VERDICTS,
    adjust,
    compare_to_reference,
    ratio_flag,
)
from fairbook.audit.significance import holm
from fairbook.metrics import compute, ratio_measures
from fairbook.stats import match

COUNTS = np.array([[5, 5, 0, 10], [500, 100, 100, 300], [0, 0, 3, 4]])
LABELS = ["small", "big", "negatives only"]


def test_each_row_by_hand():
    table = compare_to_reference(
        COUNTS, LABELS, attribute="g", reference=1, metrics=["PPR", "TPR", "B"]
    )
    assert len(table) == 2 * 3 and set(table.group) == {"small", "negatives only"}
    row = table[(table.group == "small") & (table.metric == "PPR")].iloc[0]
    assert row.score == 0.25 and row.reference_score == 0.6 and row.gap == pytest.approx(-0.35)
    assert row.ratio == pytest.approx(0.25 / 0.6) and row.ratio_flag == "unfair"
    assert row.p_value == pytest.approx(match.test("PPR", COUNTS[0], COUNTS[1] / 1000))
    assert row.reference_group == "big" and row.reference_n == 1000 and row.n == 20
    b = table[(table.group == "small") & (table.metric == "B")].iloc[0]
    assert math.isnan(b.ratio) and "B is a signed difference" in b.note
    tpr = table[(table.group == "negatives only") & (table.metric == "TPR")].iloc[0]
    assert math.isnan(tpr.score) and math.isnan(tpr.p_value)
    assert "TPR undefined for the group (TP + FN = 0 (no actual positives))" in tpr.note
    assert tpr.small and "undefined in this group" in tpr.small_reasons


def test_ratios_equal_seed_000s_ratio_measures():
    y_true = np.array([1, 1, 0, 0, 1, 0, 0, 1, 1, 0])
    y_pred = np.array([1, 0, 1, 0, 1, 1, 0, 0, 1, 1])
    groups = np.array(list("aaaabbbbbb"))
    from fairbook.confusion import confusion_counts

    counts = confusion_counts(y_true, y_pred, groups)
    table = compare_to_reference(
        counts, ["a", "b"], attribute="g", reference=1, metrics=["PPR", "TPR", "FPR", "ACC"]
    ).set_index("metric")
    expected = ratio_measures(y_true, y_pred, groups, protected="a", reference="b")
    for metric, name in (("PPR", "F_SP"), ("TPR", "F_EOpp"), ("FPR", "F_EOdd_y0")):
        assert table.loc[metric, "ratio"] == pytest.approx(expected[name])
    assert table.loc["ACC", "ratio"] == pytest.approx(expected["F_EAcc"])


def test_ratio_flag_at_the_threshold():
    assert ratio_flag([0.8, 1.2, 0.79999, 1.20001, np.inf]).tolist() == [
        "fair",
        "fair",
        "unfair",
        "unfair",
        "undefined",
    ]


def test_zero_reference_score_has_no_ratio():
    counts = np.array([[1, 0, 1, 0], [0, 2, 0, 2]])  # the reference selects nobody
    table = compare_to_reference(counts, ["a", "b"], attribute="g", reference=1, metrics=["PPR"])
    assert math.isnan(table.ratio.iloc[0]) and "reference's score is 0" in table.note.iloc[0]
    assert table.ratio_flag.iloc[0] == "undefined"


def test_adjust_holm_over_all_rows_and_verdicts():
    table = pd.DataFrame(
        {
            "score": [0.2, 0.5, 0.52, 0.9, np.nan],
            "reference_score": [0.6, 0.52, 0.5, 0.6, 0.5],
            "p_value": [0.001, 0.5, 0.0001, 0.2, np.nan],
        }
    )
    out = adjust(table, alpha=0.05, min_gap=0.05)
    np.testing.assert_allclose(out.p_holm, holm(table.p_value), equal_nan=True)
    assert out.verdict.tolist() == [
        "disparity survives",
        "no apparent disparity",
        "significant, below min_gap",
        "apparent, not significant",
        "undefined",
    ]
    assert set(out.verdict) <= set(VERDICTS)
    assert list(out.columns) == [c for c in COMPARISON_COLUMNS if c in out.columns]


def test_one_group_gives_an_empty_table():
    table = compare_to_reference(COUNTS[:1], ["only"], attribute="g", reference=0, metrics=["B"])
    assert table.empty
    assert adjust(table).empty


def test_small_reference_is_marked():
    counts = np.array([[3, 1, 2, 4], [30, 10, 20, 40]])
    table = compare_to_reference(counts, ["ref", "x"], attribute="g", reference=0, metrics=["ACC"])
    assert table.reference_small.all()
    big = compare_to_reference(
        counts * 1000, ["ref", "x"], attribute="g", reference=0, metrics=["ACC"]
    )
    assert not big.reference_small.any()
    assert compute("ACC", counts[0]) == table.reference_score.iloc[0]


def _rowwise(counts, labels, *, reference, metrics, alpha=0.05, min_gap=0.05):
    """The one-group-at-a-time path the batched table replaced (the oracle)."""
    from fairbook.audit.significance import match_pvalue
    from fairbook.audit.small_groups import small_group_reasons

    counts = np.asarray(counts, dtype=np.int64)
    ref = counts[reference]
    p_ref = ref / ref.sum()
    rows = []
    for metric in metrics:
        ref_score = float(compute(metric, ref))
        ref_small = small_group_reasons(metric, ref, p_ref, alpha=alpha, min_gap=min_gap)
        for g in range(len(labels)):
            if g == reference:
                continue
            small = small_group_reasons(metric, counts[g], p_ref, alpha=alpha, min_gap=min_gap)
            score = float(compute(metric, counts[g]))
            rows.append(
                {
                    "group": labels[g],
                    "score": score,
                    "ratio": math.nan if metric == "B" or ref_score == 0 else score / ref_score,
                    "p_hole": small["p_hole"],
                    "min_gap_p": small["min_gap_p"],
                    "small": small["small"],
                    "small_reasons": "; ".join(small["reasons"]),
                    "reference_small": ref_small["small"],
                    "p_value": match_pvalue(metric, counts[g], p_ref),
                }
            )
    return pd.DataFrame(rows)


@pytest.mark.parametrize("seed", range(6))
def test_batched_table_equals_the_rowwise_path(seed):
    rng = np.random.default_rng(seed)
    groups = int(rng.integers(2, 8))
    counts = rng.integers(0, rng.choice([3, 30, 2000]), (groups, 4))
    counts[counts.sum(axis=1) == 0, 3] = 1
    if seed % 3 == 0:
        counts[:, 0] = 0  # TPR, PPV undefined everywhere
    labels = list(range(groups)) if seed % 2 else [f"g{i}" for i in range(groups)]
    metrics = ["ACC", "PPR", "B", "TPR", "FPR", "PPV", "NPV", "FOR"]
    reference = int(np.argmax(counts.sum(axis=1)))
    got = compare_to_reference(counts, labels, attribute="a", reference=reference, metrics=metrics)
    want = _rowwise(counts, labels, reference=reference, metrics=metrics)
    assert len(got) == len(want) == (groups - 1) * len(metrics)
    assert got["group"].tolist() == want["group"].tolist()
    for column in ("small", "small_reasons", "reference_small"):
        assert got[column].tolist() == want[column].tolist(), column
    for column in ("score", "ratio", "p_hole", "min_gap_p", "p_value"):
        np.testing.assert_allclose(got[column], want[column], rtol=1e-12, atol=0)
