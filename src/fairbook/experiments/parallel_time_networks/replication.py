"""Chapter 08 (seed 003 ch. 5, PTN): Table 5.2's chaos columns beside ours."""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.forecasting.skill import table_5_2
from fairbook.papers.seed003 import TABLE_5_2_CHAOS
from fairbook.replication import Interval, Row, SameSign, replication_table

from .runs import RunResult

__all__ = ["PAPER_SOURCES", "table_5_2_replication"]


#: Every printed constant of seed 003 this chapter uses, and where the ledger lists it.
PAPER_SOURCES = {
    "seed003.TABLE_5_2_CHAOS": "seed 003 Table 5.2 (chaos)",
    "seed003.LORENZ_PROTOCOL": "not in ledger: the thesis's protocol, which the runs follow",
    "seed003.PTN_COST": "not in ledger: the thesis's GPU hours, shown beside our cost table",
}


def table_5_2_replication(runs: list[RunResult]) -> pd.DataFrame:
    """Table 5.2's chaos columns beside ours, judged over the runs.

    Each run is an independent search and training, so a skill quartile or the percent of
    forecasts improved is a learned quantity: ours is the median over the runs and the
    paper's value must lie in our 95 % interval (with two runs, their range). Beside each
    baseline's median skill Q2, a decision row: does PTN beat that baseline at all (the sign
    of the skill)? The pooled numbers are in :func:`~.results.per_run_table`'s chapter text.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from fairbook.experiments.parallel_time_networks.runs import RunResult
    >>> rng = np.random.default_rng(0)
    >>> crps = pd.DataFrame({"PTN": rng.random(50), "Det.": rng.random(50) + 0.5,
    ...                      "TiDE": rng.random(50) + 0.5})
    >>> runs = [RunResult.__new__(RunResult) for _ in range(2)]
    >>> for r in runs:
    ...     r.crps = crps
    >>> table_5_2_replication(runs).loc[8, "verdict"]
    'yes'
    """
    per_run = [
        table_5_2(r.crps["PTN"].to_numpy(), r.crps["Det."].to_numpy(), r.crps["TiDE"].to_numpy())
        for r in runs
    ]
    source = "seed 003 Table 5.2 (chaos)"
    rows = []
    for baseline, paper in TABLE_5_2_CHAOS.items():
        for key in ("Q1", "Q2", "Q3", "percent_improved"):
            decimals = 1 if key == "percent_improved" else 2
            rows.append(
                Row.from_samples(
                    f"{baseline}: {key}",
                    paper[key],
                    [float(t.loc[key, baseline]) for t in per_run],
                    rule=Interval(decimals=decimals, what="runs"),
                    source=source,
                )
            )
    for baseline, paper in TABLE_5_2_CHAOS.items():
        median_q2 = float(np.median([t.loc["Q2", baseline] for t in per_run]))
        rows.append(
            Row(
                f"{baseline}: PTN beats it (sign of the median skill Q2)",
                paper["Q2"],
                median_q2,
                rule=SameSign(),
                source=source,
            )
        )
    return replication_table(rows)
