"""Chapter 08 (seed 003 ch. 5, PTN): Table 5.2's chaos columns beside ours."""

from __future__ import annotations

import pandas as pd

from fairbook.forecasting.skill import table_5_2
from fairbook.papers import addenda
from fairbook.papers.seed003 import TABLE_5_2_CHAOS
from fairbook_book.recordings import Recording, load
from fairbook_book.replication import (
    Interval,
    NotComparable,
    Row,
    at_recorded_budget,
    by_budget,
    replication_table,
)

from .results import recorded_runs
from .runs import COST_RECORDING, DECISIVE_RECORDING, PTN_RECORDING, RunResult

__all__ = [
    "PAPER_SOURCES",
    "cost_recording",
    "decisive_budget",
    "decisive_recording",
    "decisive_table_5_2",
    "ptn_recording",
    "recorded_table_5_2",
    "table_5_2_microclimate",
    "table_5_2_replication",
]

_CHAPTER = "08_parallel_time_networks"


#: Every printed constant of seed 003 this chapter uses, and where the ledger lists it.
PAPER_SOURCES = {
    "seed003.TABLE_5_2_CHAOS": "seed 003 Table 5.2 (chaos)",
    "addenda.SEED003_TABLE_5_2_MICROCLIMATE": "seed 003 Table 5.2 (microclimate)",
    "seed003.LORENZ_PROTOCOL": "not in ledger: the thesis's protocol, which the runs follow",
    "seed003.PTN_COST": "not in ledger: the thesis's GPU hours, shown beside our cost table",
}


def table_5_2_replication(runs: list[RunResult] | list[pd.DataFrame]) -> pd.DataFrame:
    """Table 5.2's chaos columns beside ours, judged over the runs.

    ``runs`` are :class:`RunResult` objects or their ``crps`` tables (columns ``PTN, Det.,
    TiDE``; one per run, as a recording stores them).

    Each run is an independent search and training, so a skill quartile or the percent of
    forecasts improved is a learned quantity: ours is the median over the runs and the
    paper's value must lie in our 95 % interval (with two runs, their range). Sec. 5.5's
    claim that PTN dominates the chaos baselines rests on these printed Q2 values, so it is
    judged here, once, not again as a row of its own. The pooled numbers are in
    :func:`~.results.per_run_table`'s chapter text.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from fairbook_book.chapters.parallel_time_networks.runs import RunResult
    >>> rng = np.random.default_rng(0)
    >>> crps = pd.DataFrame({"PTN": rng.random(50), "Det.": rng.random(50) + 0.5,
    ...                      "TiDE": rng.random(50) + 0.5})
    >>> runs = [RunResult.__new__(RunResult) for _ in range(2)]
    >>> for r in runs:
    ...     r.crps = crps
    >>> len(table_5_2_replication(runs))
    8
    """
    frames = [r if isinstance(r, pd.DataFrame) else r.crps for r in runs]
    per_run = [
        table_5_2(f["PTN"].to_numpy(), f["Det."].to_numpy(), f["TiDE"].to_numpy()) for f in frames
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
                    kind="result",
                )
            )
    return replication_table(rows)


def table_5_2_microclimate() -> pd.DataFrame:
    """Table 5.2's microclimate columns in the ledger: every printed number, not comparable
    (the weather data is not public), so that the ledger accounts for all 16 of the table.

    Examples
    --------
    >>> t = table_5_2_microclimate()
    >>> len(t), set(t["verdict"])
    (8, {'not comparable'})
    """
    weather = NotComparable("the microclimate weather data is not public", why="data on request")
    rows = [
        Row(
            f"microclimate, {baseline}: {key}",
            paper[key],
            float("nan"),
            rule=weather,
            source="seed 003 Table 5.2 (microclimate)",
            kind="result",
        )
        for baseline, paper in addenda.SEED003_TABLE_5_2_MICROCLIMATE.items()
        for key in ("Q1", "Q2", "Q3", "percent_improved")
    ]
    return replication_table(rows)


def ptn_recording(config: dict, *, root=None) -> Recording:
    """The recorded runs of ``config`` (``fairbook-book record 08 ptn``), with their provenance."""
    return load(_CHAPTER, PTN_RECORDING, settings=config, root=root)


def cost_recording(config: dict, *, root=None) -> Recording:
    """The recorded per-epoch and per-window costs (``fairbook-book record 08 cost``)."""
    return load(_CHAPTER, COST_RECORDING, settings=config, root=root)


def recorded_table_5_2(recording: Recording) -> pd.DataFrame:
    """:func:`table_5_2_replication` of the recorded runs (empty when none is recorded).

    Examples
    --------
    >>> recorded_table_5_2(Recording("08", "ptn", pd.DataFrame())).empty
    True
    """
    if recording.empty:
        return pd.DataFrame()
    frames = [g[["PTN", "Det.", "TiDE"]] for _, g in recording.frame.groupby("run", sort=True)]
    return table_5_2_replication(frames)


def decisive_recording(config: dict, *, root=None) -> Recording:
    """The recorded decisive profile (``fairbook-book record 08 decisive --profile decisive``)."""
    return load(_CHAPTER, DECISIVE_RECORDING, settings=config, root=root)


def decisive_budget(recording: Recording) -> str:
    """The ledger's budget label of the decisive recording (its profile, state, dates, commits).

    Examples
    --------
    >>> decisive_budget(Recording("08", "decisive", pd.DataFrame()))
    'decisive (not recorded)'
    """
    return "decisive " + recording.budget.removeprefix("full ")


def decisive_table_5_2(
    recording: Recording, build: pd.DataFrame, *, build_label: str = "this build (fast)"
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Table 5.2's chaos columns judged on the decisive recording's searched runs, and the
    same rows beside this build's (paper | decisive (recorded) | this build).

    Returns ``(recorded, beside)``: the recorded rows as a replication table (for the
    ledger; empty when nothing is recorded; every row *not comparable* when the recording
    is stale), and :func:`fairbook_book.replication.by_budget` of both budgets.

    Examples
    --------
    >>> recorded, beside = decisive_table_5_2(Recording("08", "decisive", pd.DataFrame()),
    ...                                       replication_table([]))
    >>> recorded.empty
    True
    """
    runs = recorded_runs(recording)
    if runs:
        note = f"{len(runs)} of {recording.expected // 2 if recording.expected else '?'} runs"
        recorded = at_recorded_budget(
            table_5_2_replication(runs), note=f"{note} recorded", stale=recording.stale
        )
    else:
        recorded = replication_table([])
    beside = by_budget({decisive_budget(recording): recorded, build_label: build})
    return recorded, beside
