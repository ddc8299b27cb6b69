"""Tests of the chapter "Audit your own model": the two audits."""

import numpy as np
import pandas as pd
import pytest

from fairbook.metrics import compute
from fairbook_book.chapters import audit_your_model as am


def test_compas_audit_uses_the_references_and_counts_every_group():
    frame = am.compas_predictions()
    report = am.compas_audit(frame, alpha=0.05, min_gap=0.05)
    groups = report.tables["groups"]
    native = groups[groups["group"] == "Native American"].iloc[0]
    mask = frame["race"] == "Native American"
    cm = [
        int(((frame.y_true == t) & (frame.y_pred == p) & mask).sum())
        for t, p in ((1, 1), (1, 0), (0, 1), (0, 0))
    ]
    assert [native["TP"], native["FN"], native["FP"], native["TN"]] == cm
    reference = groups[groups["is_reference"]].set_index("attribute")["group"].to_dict()
    assert reference == am.COMPAS_REFERENCES
    assert "PPR" in native["small_metrics"]  # eleven people cannot show a gap of 0.05


def test_adult_audit_reads_runs_and_samples_from_the_column_names():
    rng = np.random.default_rng(0)
    n = 400
    frame = pd.DataFrame(
        {
            "y_true": rng.integers(0, 2, n),
            "race": rng.choice(["a", "b"], n),
            "sex": rng.choice(["f", "m"], n),
        }
    )
    for k in range(3):
        frame[f"p_{k}"] = rng.uniform(0.05, 0.95, n)
        frame[f"pred_{k}"] = (frame[f"p_{k}"] > 0.5).astype(int)
    frame["y_pred"] = frame["pred_0"]
    report = am.adult_audit(frame, alpha=0.05, min_gap=0.05)
    assert report.tables["stability"] is not None and report.tables["uncertainty"] is not None
    assert set(report.tables["groups"]["attribute"]) == {"race", "sex", "race & sex"}
    ppr = report.tables["rates"].query("attribute == 'race' and group == 'a' and metric == 'PPR'")
    mask = frame["race"] == "a"
    expected = compute(
        "PPR",
        [
            int(((frame.y_true == 1) & (frame.y_pred == 1) & mask).sum()),
            int(((frame.y_true == 1) & (frame.y_pred == 0) & mask).sum()),
            int(((frame.y_true == 0) & (frame.y_pred == 1) & mask).sum()),
            int(((frame.y_true == 0) & (frame.y_pred == 0) & mask).sum()),
        ],
    )
    assert ppr["score"].iloc[0] == expected


def _hand_audit(**options):
    """Reference r (2,000, three in four right), a (1,000, all predicted positive), t (6)."""
    from fairbook.audit import audit

    frame = pd.DataFrame(
        {
            "y_true": [1, 0] * 1503,
            "y_pred": [1, 0] * 750 + [0, 1] * 250 + [1, 1] * 500 + [1, 0, 0, 1, 1, 0],
            "g": ["r"] * 2000 + ["a"] * 1000 + ["t"] * 6,
        }
    )
    return audit(frame, groups=["g"], reference={"g": "r"}, **options)


def test_the_display_tables_of_an_audit_by_hand():
    report = _hand_audit()
    kept = am.survivors(report)
    assert kept["metric"].tolist() == ["ACC", "PPR", "B", "TPR", "FPR", "PPV"]
    assert set(kept["group"]) == {"a"}
    acc = kept.set_index("metric").loc["ACC"]
    assert (acc["score"], acc["reference"], acc["gap"]) == pytest.approx((0.5, 0.75, -0.25))
    small = am.small_groups(report)
    assert sorted(small["group"]) == ["a", "t"]  # a has no negative prediction: NPV undefined
    assert small.set_index("group").loc["a", "too small for"] == "NPV"
    rates = am.group_rates(report, "g")
    assert rates.index.tolist() == ["a", "r (ref)", "t"]
    assert rates.loc["t", ["n", "PPR", "TPR"]].tolist() == pytest.approx([6, 0.5, 2 / 3])
    counts = am.group_counts(report, "g")
    assert counts.loc["t", ["TP", "FN", "FP", "TN"]].tolist() == [2, 1, 1, 2]
    assert counts.loc["t", "too small for"] == "ACC, PPR, B, TPR, FPR, PPV, NPV"
    table = am.comparisons_table(report, "g")
    t_rows, a_rows = table[table["group"] == "t"], table[table["group"] == "a"]
    # CPS is shown only where the group is too small for the metric
    assert t_rows["CPS"].notna().all() and a_rows["CPS"].iloc[:6].isna().all()
    with pytest.raises(ValueError, match="no attribute 'race'"):
        am.group_rates(report, "race")


def test_audit_summary_counts_what_the_tables_hold():
    summary = am.audit_summary(_hand_audit())
    text = repr(summary).replace("\n", " ")
    assert summary._repr_markdown_().startswith("An audit of 3,006 people on 1 attribute")
    assert "6 of 13 comparisons with the reference group survive" in text
    assert "for 1 group: a (g, 6 metrics)" in text
    assert "2 groups are too small" in text and "t (6 people)" in text
    strict = am.audit_summary(_hand_audit(alpha=1e-300))
    assert strict.sentences[1] != summary.sentences[1]
    both = am.audit_counts({"0.05": _hand_audit(), "strict": _hand_audit(alpha=1e-300)})
    assert both.loc["0.05"].tolist() == [13, 6, 2, 8]  # t: 7 metrics, a: NPV
    assert both.loc["strict", "survive"] < 6


def test_uncertainty_and_flips_tables():
    n = 300
    frame = pd.DataFrame({"y_true": [1, 0] * n, "g": ["a"] * n + ["b"] * n})
    right = [1, 0] * n
    frame["pred_0"] = [1, 0] * (n // 2) + [1, 1] * (n // 2)  # b all positive in run 0
    frame["pred_1"] = right
    frame["p_0"] = [0.9] * n + [0.5] * n
    frame["p_1"] = [0.8] * n + [0.6] * n
    from fairbook.audit import audit

    report = audit(
        frame, y_pred=None, groups=["g"], reference={"g": "a"},
        runs=["pred_0", "pred_1"], samples=["p_0", "p_1"],
    )  # fmt: skip
    table = am.uncertainty_table(report).set_index("group")
    # U_a = mean of 2p(1 - p): a (0.18 + 0.32) / 2 = 0.25, b (0.5 + 0.48) / 2 = 0.49
    assert table.loc["b", "F_Alea"] == pytest.approx(0.49 / 0.25)
    assert table.loc["b", "unfair by"] == "F_Alea, F_Pred"
    assert table.loc["a", "unfair by"] == "(reference)"
    flips = am.flips_table(report)
    assert set(flips["group"]) == {"b"} and (flips["survives in"] == 0.5).any()
    assert len(flips) == int(report.tables["stability"]["flips"].sum())
    assert "Over 2 runs" in repr(am.audit_summary(report)).replace("\n", " ")
    # the patterns partition the stability table; counted by hand from its two share columns
    stability = report.to_frame("stability")
    patterns = am.flip_patterns(report).set_index("pattern")["count"]
    assert patterns.sum() == len(stability)
    survives, unfair = stability["share_survives"], stability["share_ratio_unfair"]
    assert patterns["both settled"] == int((survives.isin([0, 1]) & unfair.isin([0, 1])).sum())
    assert patterns["ratio unfair in every run, survives in only some"] == int(
        ((unfair == 1) & ~survives.isin([0, 1])).sum()
    )
