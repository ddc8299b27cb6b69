"""Tests of the chapter "Audit your own model": the two audits."""

import numpy as np
import pandas as pd

from fairbook.experiments import audit_your_model as am
from fairbook.metrics import compute


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
