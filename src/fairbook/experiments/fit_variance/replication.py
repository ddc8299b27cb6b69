"""Replication of chapter 06 (seed 004, Qian et al.): the paper's numbers beside ours.

Each function returns :func:`fairbook.replication.replication_table` of typed
:class:`~fairbook.replication.Row` objects whose ``source`` names the paper's table or
finding. Every row is judged by :class:`~fairbook.replication.Rounding` at the decimals the
paper printed (1 for percentages and percentage points, 4 for p-values, 0 for counts of
papers); that is the rule the chapter has always printed, and the verdicts say whether our
number rounds to the printed one. Only Table 3 is a computation that must match exactly;
every other row compares our small CPU study with the paper's GPU study, which nothing
obliges to agree, and the notes say how many runs or experiments stand behind ours.

* Table 3 — :func:`table_3_replication` (the seven metrics of the running example);
* Sec. 3.1 — :func:`finding_1_replication`, :func:`table_4_replication`;
* Sec. 3.2 — :func:`finding_2_example` (S-GR vs S-Base on BA),
  :func:`finding_2_replication` (the shares of overlapping ranges and reversals);
* Sec. 3.3 — :func:`finding_3_4_replication`;
* App. D.3 — :func:`survey_replication` (Findings 5 and 6 from the survey file).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.papers import seed004
from fairbook.replication import Exact, NotComparable, Rounding, Row, SameSign, replication_table
from fairbook.stats.runs import compare_runs
from fairbook.variance.fit_runs import summarize

from ._common import _runs_matrix
from .results import costs, effects, single_run_table, table_2, table_3
from .settings import SETTINGS_FIT, TABLE_4_ANALOGUES, TASK_LABELS

__all__ = [
    "PAPER_SOURCES",
    "finding_1_replication",
    "finding_2_example",
    "finding_2_replication",
    "finding_3_4_replication",
    "survey_replication",
    "table_3_replication",
    "table_4_replication",
]

#: The printed precision of percentages and percentage points.
_PERCENT = Rounding(decimals=1)


#: Every printed constant of seed 004 this chapter uses, and where the ledger lists it.
PAPER_SOURCES = {
    "seed004.TABLE_3_COUNTS": "seed 004 Table 3",
    "seed004.TABLE_3_METRICS": "seed 004 Table 3",
    "seed004.FINDING_1": "seed 004 Finding 1",
    "seed004.FINDING_1_PER_CLASS_MAX": "seed 004 Finding 1",
    "seed004.TABLE_4_DI_BAR": "seed 004 Table 4",
    "seed004.EXPERIMENTS": "seed 004 Finding 2",
    "seed004.RANGES_OVERLAP": "seed 004 Finding 2",
    "seed004.SINGLE_RUN_REVERSAL": "seed 004 Finding 2",
    "seed004.FINDING_2_EXAMPLE": "seed 004 Finding 2",
    "seed004.FINDING_3": "seed 004 Finding 3",
    "seed004.FINDING_4": "seed 004 Finding 4",
    "seed004.FINDING_5": "seed 004 Finding 5",
    "seed004.FINDING_6": "seed 004 Finding 6",
}

#: Our FIT runs train Digits-S and an Adult MLP on a CPU; the paper's train CIFAR-10,
#: CelebA and others on GPUs. A value measured on those cannot match or miss theirs; where
#: the paper states that something *happens* (ranges overlap, a technique raises a metric),
#: the sign of our share is compared instead (SameSign: does it happen here too?).
_OTHER_EXPERIMENT = NotComparable(
    "our FIT runs are Digits-S and Adult stand-ins on a CPU, the paper's other networks and data"
)


def table_3_replication() -> pd.DataFrame:
    """Table 3's printed metric values beside ``bias_report``'s (percent, 1 decimal).

    Examples
    --------
    >>> set(table_3_replication()["verdict"])
    {'matches'}
    """
    ours = table_3().loc["overall"]
    return replication_table(
        Row(f"{m} (%)", p, float(ours[m]), rule=_PERCENT, source="seed 004 Table 3")
        for m, p in seed004.TABLE_3_METRICS.items()
    )


def finding_1_replication(study: pd.DataFrame) -> pd.DataFrame:
    """Finding 1 beside ours: the largest overall MaxDiff of DP and DI-bar, and the
    largest per-class DI-bar MaxDiff, over every task and technique (pp)."""
    best = {}
    for task in study["task"].unique():
        table = table_2(study, task)
        for (technique, row, stat), values in table.iterrows():
            if stat != "MaxDiff":
                continue
            for metric in ("DP", "DI_BAR"):
                key = (row, metric)
                if key not in best or values[metric] > best[key][0]:
                    best[key] = (values[metric], f"{TASK_LABELS.get(task, task)}, {technique}")
    rows = []
    for metric, (technique, value, low, high) in seed004.FINDING_1.items():
        ours, where = best[("Overall", metric)]
        rows.append(
            Row(
                f"largest overall MaxDiff of {metric} (pp)",
                value,
                ours,
                rule=_OTHER_EXPERIMENT,
                note=f"paper: {technique} ({low}–{high}); ours: {where}",
                source="seed 004 Finding 1",
            )
        )
    ours, where = best[("Per-class", "DI_BAR")]
    rows.append(
        Row(
            "largest per-class MaxDiff of DI_BAR (pp)",
            seed004.FINDING_1_PER_CLASS_MAX,
            ours,
            rule=_OTHER_EXPERIMENT,
            note=f"paper: C-Base and others (a class 0 % in one run, 100 % in "
            f"another); ours: {where}",
            source="seed 004 Finding 1",
        )
    )
    return replication_table(rows)


def table_4_replication(study: pd.DataFrame) -> pd.DataFrame:
    """Table 4 (DI-bar MaxDiff and STDEV) for the paper's techniques we have analogues of
    (:data:`~fairbook.experiments.fit_variance.TABLE_4_ANALOGUES`).

    Different data, networks and a CPU: the verdicts say whether our spread has the
    paper's size, which nothing obliges it to have.
    """
    rows = []
    for paper_name, (task, technique) in TABLE_4_ANALOGUES.items():
        present = study[
            (study["task"] == task)
            & (study["technique"] == technique)
            & (study["setting"] == SETTINGS_FIT)
        ]
        if present.empty:
            continue
        ours = summarize(present).loc["DI_BAR"]
        printed = seed004.TABLE_4_DI_BAR[paper_name]
        for (label, column), value in zip(
            [
                ("overall MaxDiff", "overall MaxDiff"),
                ("overall STDEV", "overall STDEV"),
                ("per-class MaxDiff", "per-class MaxDiff"),
                ("per-class STDEV", "per-class STDEV"),
            ],
            printed,
            strict=True,
        ):
            rows.append(
                Row(
                    f"{paper_name} ≈ {TASK_LABELS.get(task, task)} "
                    f"{technique}: DI_BAR {label} (pp)",
                    value,
                    float(ours[column]),
                    rule=_OTHER_EXPERIMENT,
                    note=f"{int(ours['runs'])} runs (paper 16)",
                    source="seed 004 Table 4",
                )
            )
    return replication_table(rows)


def finding_2_replication(study: pd.DataFrame) -> pd.DataFrame:
    """The shares of Sec. 3.2 (ranges overlap 34/154, reversal 14/154) beside ours."""
    tables = [single_run_table(study, task) for task in study["task"].unique()]
    table = pd.concat(tables)
    n = len(table)
    rows = [
        Row(
            "share of experiments whose ranges overlap the baseline's (%)",
            100 * seed004.RANGES_OVERLAP / seed004.EXPERIMENTS,
            100 * table["ranges overlap"].mean(),
            rule=SameSign(),
            note=f"ours {int(table['ranges overlap'].sum())} of {n}; paper "
            f"{seed004.RANGES_OVERLAP} of {seed004.EXPERIMENTS}",
            source="seed 004 Finding 2",
        ),
        Row(
            "share where the mean is worse but one run beats one baseline run (%)",
            100 * seed004.SINGLE_RUN_REVERSAL / seed004.EXPERIMENTS,
            100 * table["reversal"].mean(),
            rule=SameSign(),
            note=f"ours {int(table['reversal'].sum())} of {n}; paper "
            f"{seed004.SINGLE_RUN_REVERSAL} of {seed004.EXPERIMENTS}",
            source="seed 004 Finding 2",
        ),
    ]
    return replication_table(rows)


def finding_2_example(
    study: pd.DataFrame,
    *,
    task: str = "digits_s",
    technique: str = "adversarial",
    metric: str = "BA",
) -> pd.DataFrame:
    """The paper's S-GR vs S-Base example (BA) beside our gradient-reversal analogue.

    "Single run" values: the paper's pair is one where the technique looks better; ours
    are the technique's best run and the baseline's worst (the most misleading pair).
    """
    ex = seed004.FINDING_2_EXAMPLE
    b = _runs_matrix(study, task, "base")[metric].to_numpy()
    t = _runs_matrix(study, task, technique)[metric].to_numpy()
    result = compare_runs(b, t)
    label = f"{TASK_LABELS.get(task, task)}: {technique} vs base"
    source = "seed 004 Finding 2"
    rows = [
        Row(
            f"mean {metric} of the baseline (%)",
            ex["mean_baseline"],
            100 * b.mean(),
            rule=_OTHER_EXPERIMENT,
            note=label,
            source=source,
        ),
        Row(
            f"mean {metric} of the technique (%)",
            ex["mean_treated"],
            100 * t.mean(),
            rule=_OTHER_EXPERIMENT,
            note=label,
            source=source,
        ),
        Row(
            f"a single baseline run's {metric} (%)",
            ex["single_run_baseline"],
            100 * b.max(),
            rule=_OTHER_EXPERIMENT,
            note="ours: the baseline's worst run",
            source=source,
        ),
        Row(
            f"a single technique run's {metric} (%)",
            ex["single_run_treated"],
            100 * t.min(),
            rule=_OTHER_EXPERIMENT,
            note="ours: the technique's best run",
            source=source,
        ),
        Row(
            "U-test p (one-sided, asymptotic)",
            ex["mw_p"],
            result["mw_p"],
            rule=_OTHER_EXPERIMENT,
            note=f"exact method: {result['mw_p_exact']:.4f}; {len(b)} vs {len(t)} runs",
            source=source,
        ),
        Row(
            "Levene p (normalised)",
            ex["levene_p"],
            result["levene_p"],
            rule=_OTHER_EXPERIMENT,
            source=source,
        ),
    ]
    return replication_table(rows)


def finding_3_4_replication(study: pd.DataFrame) -> pd.DataFrame:
    """Findings 3 and 4 as shares, paper beside ours (all tasks pooled)."""
    tables = {task: effects(study, task) for task in study["task"].unique()}
    cost = {task: costs(study, task) for task in study["task"].unique()}
    techniques = sum(len(c) for c in cost.values())
    increase = sum(int((c["metrics increased"] != "").sum()) for c in cost.values())
    experiments = sum(len(t) for t in tables.values())
    reduced = sum(int(c["experiments reducing bias"].sum()) for c in cost.values())
    with_cost = sum(int(c["experiments with a cost"].sum()) for c in cost.values())
    f3, f4 = seed004.FINDING_3, seed004.FINDING_4
    rows = [
        Row(
            "techniques that increase at least one metric (%)",
            100 * f3["increase at least one metric"] / f3["techniques"],
            100 * increase / techniques if techniques else np.nan,
            rule=SameSign(),
            note=f"ours {increase} of {techniques}; paper 15 of 22",
            source="seed 004 Finding 3",
        ),
        Row(
            "experiments that reduce bias (%)",
            100 * f4["reduce bias"] / f4["experiments"],
            100 * reduced / experiments if experiments else np.nan,
            rule=SameSign(),
            note=f"ours {reduced} of {experiments}; paper 103 of 154",
            source="seed 004 Finding 4",
        ),
        Row(
            "of those, with a cost (%)",
            f4["share with a cost"],
            100 * with_cost / reduced if reduced else np.nan,
            rule=SameSign(),
            note=f"ours {with_cost} of {reduced}; paper 70 of 103",
            source="seed 004 Finding 4",
        ),
    ]
    return replication_table(rows)


def survey_replication(survey: pd.DataFrame) -> pd.DataFrame:
    """Findings 5 and 6 recomputed from the survey file
    (:func:`~fairbook.experiments.fit_variance.load_survey`).

    Examples
    --------
    >>> from fairbook.experiments.fit_variance.results import load_survey
    >>> set(survey_replication(load_survey())["verdict"])
    {'matches'}
    """
    per_year = survey["year"].value_counts()
    n2017, n2020 = int(per_year.get(2017, 0)), int(per_year.get(2020, 0))
    multiple = int((survey["multiple_runs"] == "Y").sum())
    f5, f6 = seed004.FINDING_5, seed004.FINDING_6
    count = Exact()
    return replication_table(
        [
            Row("papers in 2017", f5["2017"], n2017, rule=count, source="seed 004 Finding 5"),
            Row("papers in 2020", f5["2020"], n2020, rule=count, source="seed 004 Finding 5"),
            Row(
                "growth 2017 → 2020 (%)",
                f5["growth %"],
                100 * (n2020 - n2017) / n2017 if n2017 else np.nan,
                rule=count,
                source="seed 004 Finding 5",
            ),
            Row(
                "papers using multiple identical runs",
                f6["multiple runs"],
                multiple,
                rule=count,
                source="seed 004 Finding 6",
            ),
            Row(
                "share using multiple runs (%)",
                f6["share %"],
                100 * multiple / len(survey),
                rule=_PERCENT,
                note=f"of {len(survey)} papers",
                source="seed 004 Finding 6",
            ),
        ]
    )
