"""The PTN chapter's pipeline on a tiny configuration — the replication module."""

import numpy as np
import pytest

from fairbook.experiments import parallel_time_networks as pc
from fairbook.forecasting.skill import table_5_2


def test_table_5_2_replication_pools_the_runs(study):
    _, _, runs = study
    table = pc.table_5_2_replication(runs)
    assert len(table) == 10  # 8 cells judged over the runs + 2 decisions (does PTN win?)
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
    sign = table.set_index("quantity").loc["TiDE: PTN beats it (sign of the median skill Q2)"]
    assert sign["verdict"] == ("yes" if np.median(per_run_q2) > 0 else "no")
    per_run = pc.per_run_table(runs)
    assert per_run.shape[0] == 4 and per_run["percent improved"].between(0, 100).all()
