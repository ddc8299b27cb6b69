"""Tests of fairbook.audit.stability: spreads and verdict shares over runs, by hand, and
seed 004's seven metrics per run against bias_report."""

import numpy as np
import pandas as pd
import pytest

from fairbook.audit import audit
from fairbook.audit.groups import encode_attribute
from fairbook.audit.stability import (
    run_comparisons,
    seven_stability,
    stability_table,
    verdict_flip_rates,
)
from fairbook.metrics import bias_report, compute


@pytest.fixture
def runs_frame():
    rng = np.random.default_rng(4)
    n = 400
    g = rng.choice(["a", "b"], n, p=[0.3, 0.7])
    y = rng.random(n) < 0.5
    frame = pd.DataFrame({"y_true": y.astype(int), "group": g})
    for run in range(4):
        noise = np.random.default_rng(run).random(n)
        bias = np.where(g == "a", 0.1 * run, 0.0)  # the gap grows run by run
        frame[f"pred_{run}"] = ((noise < 0.4 + bias) | (y & (noise < 0.8))).astype(int)
    return frame


def test_spreads_and_shares_by_hand(runs_frame):
    report = audit(runs_frame, y_pred=None, runs=["pred_*"], metrics=["PPR"])
    row = report.to_frame("stability").iloc[0]
    per_run = []
    for run in range(4):
        sub = runs_frame[runs_frame.group == "a"]
        per_run.append(sub[f"pred_{run}"].mean())
    assert row.runs == 4
    assert row.score_maxdiff == pytest.approx(max(per_run) - min(per_run))
    assert row.score_stdev == pytest.approx(np.std(per_run))
    runs = report.to_frame("runs")
    survives = (runs.verdict == "disparity survives").mean()
    assert row.share_survives == pytest.approx(survives)
    assert row.share_ratio_unfair == pytest.approx((runs.ratio_flag == "unfair").mean())
    assert row.flips == (0 < survives < 1 or 0 < row.share_ratio_unfair < 1)
    assert report.settings["runs"] == [f"pred_{r}" for r in range(4)]


def test_seven_metrics_per_run_equal_bias_report(runs_frame):
    attribute = encode_attribute(runs_frame.group.to_numpy(), name="group")
    truth = runs_frame.y_true.to_numpy() == 1
    runs = {f"pred_{r}": runs_frame[f"pred_{r}"].to_numpy() == 1 for r in range(4)}
    rows, seven = run_comparisons(truth, runs, [attribute], [1], metrics=["TPR"])
    for r in range(4):
        expected = bias_report(
            runs_frame.y_true, runs_frame[f"pred_{r}"], runs_frame.group, positive=1
        )
        got = seven[seven.run == f"pred_{r}"].drop(columns=["run", "attribute"])
        np.testing.assert_allclose(got.to_numpy(dtype=float), expected.to_numpy(dtype=float))
    summary = seven_stability(seven).set_index("metric")
    dp = seven.DP.to_numpy()
    assert summary.loc["DP", "maxdiff"] == pytest.approx(dp.max() - dp.min())
    assert summary.loc["DP", "stdev"] == pytest.approx(dp.std())
    assert summary.loc["DI_BAR", "share_unfair"] == pytest.approx((seven.DI_BAR > 0.2).mean())
    assert np.isnan(summary.loc["DP", "share_unfair"])
    assert rows.groupby("run").size().tolist() == [1] * 4


def test_undefined_in_some_run_is_noted():
    per_run = pd.DataFrame(
        {
            "run": ["r1", "r2", "r3"],
            "group": "a",
            "attribute": "g",
            "metric": "TPR",
            "score": [0.5, np.nan, 0.7],
            "gap": [0.1, np.nan, 0.2],
            "verdict": ["no apparent disparity", "undefined", "no apparent disparity"],
            "ratio_flag": ["fair", "undefined", "fair"],
        }
    )
    row = stability_table(per_run).iloc[0]
    assert np.isnan(row.score_maxdiff) and row.note == "undefined in 1 of 3 runs"
    assert row.share_survives == 0.0 and not row.flips
    assert row.score_mean == pytest.approx(0.6)
    assert compute("TPR", [1, 1, 0, 0]) == 0.5


def test_flip_rates_over_runs_count_disagreeing_pairs_by_hand(runs_frame):
    report = audit(runs_frame, y_pred=None, runs=["pred_*"], metrics=["PPR", "TPR"])
    per_run = report.to_frame("runs")
    rates = verdict_flip_rates(per_run)
    assert len(rates) == 2 * len(report.to_frame("stability"))
    for _, row in rates.iterrows():
        part = per_run[(per_run.group == row.group) & (per_run.metric == row.metric)]
        if row.verdict == "survives":
            held = (part.verdict[part.verdict != "undefined"] == "disparity survives").tolist()
        else:
            held = (part.ratio_flag[part.ratio_flag != "undefined"] == "unfair").tolist()
        pairs = [(a, b) for i, a in enumerate(held) for b in held[i + 1 :]]
        expected = sum(a != b for a, b in pairs) / len(pairs)
        assert row.runs == len(held) and row.flip_rate == pytest.approx(expected)
    # the report's flips column is "some verdict has a flip rate above 0"
    stability = report.to_frame("stability").set_index(["group", "metric"])
    above = rates.groupby(["group", "metric"])["flip_rate"].max() > 0
    for key, flips in above.items():
        assert stability.loc[key, "flips"] == flips
