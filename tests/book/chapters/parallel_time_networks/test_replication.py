"""The PTN chapter's pipeline on a tiny configuration — the replication module."""

import numpy as np
import pytest

from fairbook.forecasting.skill import table_5_2
from fairbook_book.chapters import parallel_time_networks as pc


def test_table_5_2_replication_pools_the_runs(study):
    _, _, runs = study
    table = pc.table_5_2_replication(runs)
    assert len(table) == 8  # 8 cells judged over the runs
    assert set(table["paper"]) >= {0.40, 0.57, 0.68, 94.3, 0.82, 0.73, 0.56, 99.8}
    per_run_q2 = [
        table_5_2(
            r.crps["PTN"].to_numpy(), r.crps["Det."].to_numpy(), r.crps["TiDE"].to_numpy()
        ).loc["Q2", "TiDE"]
        for r in runs
    ]
    row = table.set_index("quantity").loc["TiDE: Q2"]
    assert row["ours"] == pytest.approx(np.median(per_run_q2))  # a median over runs
    assert row["verdict"].endswith("(2 runs)")
    # Sec. 5.5's "PTN dominates" rests on these printed Q2s: judged once, in the table
    assert len(table) == 8 and not table["quantity"].str.contains("beats").any()
    per_run = pc.per_run_table(runs)
    assert per_run.shape[0] == 4 and per_run["percent improved"].between(0, 100).all()


def test_decisive_table_5_2_judges_the_recorded_runs_beside_the_build(synthetic_decisive):
    recording = synthetic_decisive(runs=3)
    build = pc.table_5_2_replication(pc.recorded_runs(recording)[:2])
    recorded, beside = pc.decisive_table_5_2(recording, build, build_label="fast")
    expected = pc.table_5_2_replication(pc.recorded_runs(recording))
    assert recorded["ours"].tolist() == expected["ours"].tolist()
    assert all("3 of 3 runs recorded" in note for note in recorded["note"])
    label = pc.decisive_budget(recording)
    assert label == "decisive (recorded 2026-11-26, abc1234)"
    assert {f"{label}: verdict", "fast: verdict", "paper"} <= set(beside.columns)
    recording.provenance[0]["fingerprint"] = "old"
    stale, _ = pc.decisive_table_5_2(recording, build)
    assert set(stale["verdict"]) == {"not comparable"}
    assert pc.decisive_budget(recording).startswith("decisive (stale")
