"""Tables of chapter 06 (seed 004) built from the runs, without the paper's numbers.

* Table 3's running example through ``bias_report`` (:func:`table_3_labels`, :func:`table_3`);
* RQ1, the spread of identical runs: :func:`two_runs` (two FIT runs side by side, the worked
  example), :func:`table_2` (MaxDiff and STDEV, as the paper's Table 2),
  :func:`strict_identity` and :func:`spread_contrast` (every knob fixed, FIT runs, seeds
  varying);
* RQ2, does a technique help: :func:`effects` (U-test, Cohen's d, Levene per technique x
  metric; :func:`effects_table` shows them for a reader), :func:`single_run_table` (what
  one run would have said), and for a reader's own
  numbers :func:`comparison_table` (one comparison as a one-row table) and
  :func:`smallest_p_values` (the floor of the exact U-test at n runs each);
* RQ3, what it costs: :func:`costs`;
* the implementation knobs: :func:`knob_table` (:func:`knob_tables`, every task's, to read);
* the literature survey (Table 5 with each paper's year): :func:`load_survey`, which reads
  the package data file ``fairbook/papers/literature_survey_seed004.csv``;
* what the recorded full-profile study cost, and what all of it costs:
  :func:`recording_cost`.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from fairbook.metrics import bias_report
from fairbook.papers import seed004
from fairbook.stats.between_runs import compare_runs, mann_whitney_one_sided
from fairbook.variance import debiasing
from fairbook.variance.fit_runs import per_run, summarize
from fairbook_book.formatting import fixed

from ._common import _runs_matrix, _select, _techniques
from .runs import study_units
from .settings import METRICS, SETTINGS_FIT, SETTINGS_SEED, SETTINGS_STRICT

__all__ = [
    "SURVEY_COLUMNS",
    "comparison_table",
    "costs",
    "effects",
    "knob_table",
    "knob_tables",
    "load_survey",
    "recording_cost",
    "single_run_table",
    "smallest_p_values",
    "spread_contrast",
    "strict_identity",
    "table_2",
    "table_3",
    "table_3_labels",
    "effects_table",
    "two_runs",
]

#: The columns of the survey file, in order.
SURVEY_COLUMNS = ["paper", "ref", "year", "venue", "multiple_runs", "mean", "stdev", "range"]

#: The survey file: package data of :mod:`fairbook.papers`.
_SURVEY_FILE = "literature_survey_seed004.csv"


def table_3_labels(counts=None):
    """Expand a Table 3–shaped count table into label arrays.

    Parameters
    ----------
    counts : dict, optional
        ``(group, true label) → (predicted first label, predicted second label)``;
        default :data:`fairbook.papers.seed004.TABLE_3_COUNTS`. The predicted labels are
        the true labels in the order they first appear.

    Returns
    -------
    y_true, y_pred, groups : ndarray of str

    Examples
    --------
    >>> y, p, g = table_3_labels()
    >>> len(y), int((g == "Female").sum())
    (400, 200)
    """
    counts = seed004.TABLE_3_COUNTS if counts is None else counts
    labels = list(dict.fromkeys(label for _, label in counts))
    if len(labels) != 2:
        raise ValueError(f"Table 3 has two labels, got {labels}")
    y_true, y_pred, groups = [], [], []
    for (group, true), row in counts.items():
        if len(row) != 2 or any(int(v) < 0 for v in row):
            raise ValueError(f"counts for {(group, true)} must be two non-negative ints")
        for predicted, n in zip(labels, row, strict=True):
            y_true += [true] * int(n)
            y_pred += [predicted] * int(n)
            groups += [group] * int(n)
    return np.array(y_true), np.array(y_pred), np.array(groups)


def table_3(counts=None) -> pd.DataFrame:
    """Seed 004's seven metrics of a Table 3–shaped example, per class and overall, in %.

    Examples
    --------
    >>> round(float(table_3().loc["overall", "BA"]), 1)
    10.1
    """
    return 100 * bias_report(*table_3_labels(counts))


def two_runs(
    study: pd.DataFrame,
    task: str,
    *,
    technique: str = "base",
    runs=(0, 1),
    setting: str = SETTINGS_FIT,
) -> pd.DataFrame:
    """Two FIT runs of one technique side by side: every overall metric in %, and their
    difference in percentage points (the chapter's worked example of FIT-run variance).

    Returns
    -------
    DataFrame
        Index ``run 0``, ``run 1`` (the chosen runs) and ``difference (pp)``; columns the seven
        metrics and ``accuracy``.

    Examples
    --------
    >>> rows = [{"task": "t", "technique": "base", "setting": SETTINGS_FIT, "run": r,
    ...          "class": "overall", "group": "all", "metric": m, "value": v}
    ...         for r, v in ((0, 0.10), (1, 0.13)) for m in (*METRICS, "accuracy")]
    >>> table = two_runs(pd.DataFrame(rows), "t")
    >>> table.index.tolist(), round(float(table.loc["difference (pp)", "DP"]), 6)
    (['run 0', 'run 1', 'difference (pp)'], 3.0)
    """
    rows = _select(study, task, setting=setting, technique=technique)
    wide = 100 * per_run(rows, metrics=[*METRICS, "accuracy"])
    missing = [r for r in runs if r not in wide.index]
    if len(runs) != 2 or missing:
        raise ValueError(f"two runs of {wide.index.tolist()} are needed, got {list(runs)}")
    first, second = runs
    out = wide.loc[[first, second]].copy()
    out.loc["difference"] = out.loc[second] - out.loc[first]
    out.index = [f"run {first}", f"run {second}", "difference (pp)"]
    return out


def table_2(study: pd.DataFrame, task: str, *, setting: str = SETTINGS_FIT) -> pd.DataFrame:
    """Seed 004 Table 2 for one task: MaxDiff and STDEV (pp), overall and per class,
    rows (technique, row, statistic), columns the seven metrics and accuracy."""
    frames = {}
    for technique in _techniques(study, task):
        summary = summarize(_select(study, task, setting=setting, technique=technique))
        for row in ("overall", "per-class"):
            for stat in ("MaxDiff", "STDEV"):
                frames[(technique, row.capitalize(), stat)] = summary[f"{row} {stat}"]
    out = pd.DataFrame(frames).T
    out.index.names = ["technique", "row", "statistic"]
    return out[[*METRICS, "accuracy"]]


def effects(
    study: pd.DataFrame,
    task: str,
    *,
    n_runs: int | None = None,
    metrics=METRICS,
    alpha: float = 0.05,
) -> pd.DataFrame:
    """Every technique against the baseline on every metric (:func:`compare_runs`).

    Parameters
    ----------
    n_runs : int, optional
        Use only the first ``n_runs`` runs of each technique.

    Returns
    -------
    DataFrame
        Index (technique, metric); the columns of :func:`compare_runs` plus ``target``
        (the technique is designed to reduce this metric), and the ranges of both sets.
    """
    base = _runs_matrix(study, task, "base", n_runs)
    rows = {}
    for technique in _techniques(study, task):
        if technique == "base":
            continue
        treated = _runs_matrix(study, task, technique, n_runs)
        for metric in metrics:
            b, t = base[metric].to_numpy(), treated[metric].to_numpy()
            if np.isnan(b).any() or np.isnan(t).any():
                result = {"direction": "undefined", "variance_change": "undefined"}
            else:
                result = compare_runs(b, t, alpha=alpha)
            result.update(
                {
                    "target": metric in debiasing.TECHNIQUES[technique].targets,
                    "baseline_min": np.nanmin(b),
                    "baseline_max": np.nanmax(b),
                    "treated_min": np.nanmin(t),
                    "treated_max": np.nanmax(t),
                }
            )
            rows[(technique, metric)] = result
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.names = ["technique", "metric"]
    return out


#: :func:`effects_table`'s columns: :func:`effects`'s name → the name a reader sees.
_TEST_COLUMNS = {
    "mean_baseline": "mean base (%)",
    "mean_treated": "mean technique (%)",
    "mw_p": "U-test p",
    "mw_p_exact": "exact U-test p",
    "cohen_d": "Cohen's d",
    "effect": "effect",
    "direction": "direction",
    "target": "target",
}


def effects_table(study: pd.DataFrame, tasks=None, *, alpha: float = 0.05) -> pd.DataFrame:
    """The tests behind the effect heatmap, as a reader reads them: per task, technique and
    metric the means over the runs in %, the one-sided U-test (asymptotic and exact),
    Cohen's d and its label, the direction, and whether the technique targets the metric.

    Parameters
    ----------
    tasks : sequence of str, optional
        Default: every task of the study's FIT runs, in its order.

    Examples
    --------
    >>> rows = [{"task": "t", "technique": q, "setting": SETTINGS_FIT, "run": r,
    ...          "class": "overall", "group": "all", "metric": m, "value": v + r / 100}
    ...         for q, v in (("base", 0.1), ("rebalance", 0.2)) for r in range(4)
    ...         for m in (*METRICS, "accuracy")]
    >>> t = effects_table(pd.DataFrame(rows))
    >>> row = t.loc[("t", "rebalance", "DP")]
    >>> float(row["mean base (%)"]), row["direction"]
    (11.5, 'increase')
    """
    if tasks is None:
        tasks = list(dict.fromkeys(study.loc[study["setting"] == SETTINGS_FIT, "task"]))
    frames = {task: effects(study, task, alpha=alpha)[list(_TEST_COLUMNS)] for task in tasks}
    out = pd.concat(frames, names=["task"]).rename(columns=_TEST_COLUMNS)
    for column in ("mean base (%)", "mean technique (%)"):
        out[column] = 100 * out[column].astype(float)
    return out


def single_run_table(
    study: pd.DataFrame, task: str, *, n_runs: int | None = None, metrics=METRICS
) -> pd.DataFrame:
    """Finding 2 on our runs: per technique × metric, what one run would have said.

    Columns: ``many-run conclusion`` (U-test), ``ranges overlap`` (the technique's and
    the baseline's ranges intersect), ``reversal`` (the technique's mean is higher —
    worse — yet one of its runs is lower than one baseline run: the paper's 9.1 % case),
    and ``single-run pairs contradicting`` (the share of (baseline run, technique run)
    pairs whose comparison points the other way than the means).
    """
    table = effects(study, task, n_runs=n_runs, metrics=metrics)
    base = _runs_matrix(study, task, "base", n_runs)
    out = {}
    for (technique, metric), row in table.iterrows():
        b = base[metric].to_numpy()
        t = _runs_matrix(study, task, technique, n_runs)[metric].to_numpy()
        diff = np.subtract.outer(t, b)
        sign = np.sign(t.mean() - b.mean())
        out[(technique, metric)] = {
            "many-run conclusion": row["direction"],
            "ranges overlap": bool(max(b.min(), t.min()) <= min(b.max(), t.max())),
            "reversal": bool(t.mean() > b.mean() and t.min() < b.max()),
            "single-run pairs contradicting": float((np.sign(diff) == -sign).mean())
            if sign != 0
            else np.nan,
        }
    frame = pd.DataFrame.from_dict(out, orient="index")
    frame.index.names = ["technique", "metric"]
    return frame


def comparison_table(baseline, treated, *, alpha: float = 0.05) -> pd.DataFrame:
    """One comparison of a treated technique's runs with the baseline's as a one-row table
    (:func:`fairbook.stats.between_runs.compare_runs`, for numbers a reader types in).

    Examples
    --------
    >>> t = comparison_table([0.80, 0.82, 0.84, 0.86], [0.85, 0.87, 0.89, 0.91])
    >>> t.loc["treated vs baseline", "effect"], round(float(t.iloc[0]["Cohen's d"]), 3)
    ('very large', 1.936)
    """
    r = compare_runs(baseline, treated, alpha=alpha)
    row = {
        "mean baseline": r["mean_baseline"],
        "mean treated": r["mean_treated"],
        "U-test p": r["mw_p"],
        "exact U-test p": r["mw_p_exact"],
        "Cohen's d": r["cohen_d"],
        "effect": r["effect"],
        "Levene p": r["levene_p"],
        "significant": r["significant"],
        "direction": r["direction"],
    }
    return pd.DataFrame([row], index=["treated vs baseline"])


def smallest_p_values(n_runs=(4, 8), *, alpha: float = 0.05) -> pd.DataFrame:
    """The smallest one-sided p-value of the exact Mann–Whitney test with n runs each, from
    two completely separated sets of runs (every treated run above every baseline run).

    Examples
    --------
    >>> t = smallest_p_values((4,))
    >>> round(float(t.loc[4, "smallest exact p"]) * 70, 6)
    1.0
    """
    rows = {}
    for n in n_runs:
        n = int(n)
        p, _ = mann_whitney_one_sided(range(n), range(n, 2 * n), method="exact")
        rows[n] = {"smallest exact p": p, f"below {alpha:g}": bool(p < alpha)}
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "runs each"
    return out


def costs(study: pd.DataFrame, task: str, *, alpha: float = 0.05) -> pd.DataFrame:
    """RQ3 per technique: accuracy (U-test), accuracy variance (Levene) and, per metric the
    technique significantly reduces, the fairness variance (Levene) — seed 004 Sec. 3.3.

    Returns
    -------
    DataFrame
        Index technique; columns ``accuracy`` (lower / higher / not significant),
        ``accuracy variance`` (higher / lower / not significant), ``metrics reduced``,
        ``with higher fairness variance``, ``experiments with a cost``.
    """
    table = effects(study, task, alpha=alpha)
    base = _runs_matrix(study, task, "base")["accuracy"].to_numpy()
    rows = {}
    for technique in table.index.get_level_values(0).unique():
        acc = _runs_matrix(study, task, technique)["accuracy"].to_numpy()
        r = compare_runs(base, acc, alpha=alpha)
        accuracy = {"increase": "higher", "decrease": "lower"}.get(
            r["direction"], "not significant"
        )
        sub = table.loc[technique]
        reduced = sub[sub["direction"] == "decrease"]
        higher_var = reduced[reduced["variance_change"] == "higher"]
        any_cost = accuracy == "lower" or r["variance_change"] == "higher"
        with_cost = [
            m for m in reduced.index if any_cost or reduced.loc[m, "variance_change"] == "higher"
        ]
        rows[technique] = {
            "accuracy": accuracy,
            "accuracy p": r["mw_p"],
            "accuracy variance": r["variance_change"],
            "accuracy Levene p": r["levene_p"],
            "metrics reduced": ", ".join(reduced.index),
            "metrics increased": ", ".join(sub[sub["direction"] == "increase"].index),
            "with higher fairness variance": ", ".join(higher_var.index),
            "experiments reducing bias": len(reduced),
            "experiments with a cost": len(with_cost),
        }
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "technique"
    return out


def knob_table(knobs_runs: pd.DataFrame, task: str) -> pd.DataFrame:
    """What each knob alone does: are its runs identical to each other and to the
    reference, and how far does each metric move from the reference (pp, the largest
    |difference| of any run against the reference's run 0)?"""
    rows = knobs_runs[knobs_runs["task"] == task]
    if rows.empty:
        raise ValueError(f"no knob runs for task {task!r}")
    ref = rows[rows["variant"] == "reference"]
    ref_values = per_run(ref, metrics=[*METRICS, "accuracy"]).iloc[0]
    ref_weights = ref[ref["run"] == ref["run"].min()]["weights_hash"].iloc[0]
    ref_preds = ref[ref["run"] == ref["run"].min()]["pred_hash"].iloc[0]
    out = {}
    for variant, sub in rows.groupby("variant", sort=False):
        wide = per_run(sub, metrics=[*METRICS, "accuracy"])
        moved = (100 * (wide - ref_values).abs()).max()
        record = {
            "runs": len(wide),
            "runs identical to each other": bool(sub["weights_hash"].nunique() == 1),
            "same weights as reference": bool((sub["weights_hash"] == ref_weights).all()),
            "same predictions as reference": bool((sub["pred_hash"] == ref_preds).all()),
        }
        record.update({f"|Δ{m}| (pp)": float(moved[m]) for m in [*METRICS, "accuracy"]})
        out[variant] = record
    frame = pd.DataFrame.from_dict(out, orient="index")
    frame.index.name = "knob changed"
    return frame


def _knob_cell(value) -> str:
    """One cell of :func:`knob_tables`: yes / no, a count, or a move in pp at 2 decimals.

    Examples
    --------
    >>> [_knob_cell(v) for v in (True, 2, 0.0, 0.08889, 2.0581, 0.0034)]
    ['yes', '2', '0', '0.09', '2.06', '0.0034']
    """
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    return "0" if value == 0 else fixed(value, precision=2)


def knob_tables(knobs_runs: pd.DataFrame, tasks) -> pd.DataFrame:
    """:func:`knob_table` of every task, one column per task and knob, one row per fact
    (a table that mixes yes/no, counts and moves in pp, each printed as such).

    Examples
    --------
    >>> rows = [{"task": "t", "variant": v, "run": r, "class": "overall", "group": "all",
    ...          "metric": m, "value": 0.1 + (v != "reference") * r / 100,
    ...          "weights_hash": f"{v}{r}", "pred_hash": "p"}
    ...         for v in ("reference", "threads=2") for r in range(2)
    ...         for m in (*METRICS, "accuracy")]
    >>> table = knob_tables(pd.DataFrame(rows), ["t"])
    >>> facts = ["runs", "same predictions as reference", "|ΔDP| (pp)"]
    >>> table[("t", "threads=2")].loc[facts].tolist()
    ['2', 'yes', '1.00']
    """
    frame = pd.concat({task: knob_table(knobs_runs, task) for task in tasks}, names=["task"])
    return frame.T.map(_knob_cell)


def strict_identity(study: pd.DataFrame) -> pd.DataFrame:
    """Per task and run setting of the baseline: how many runs, how many distinct final
    weights and predictions (1 = bit-identical runs)."""
    rows = study[study["technique"] == "base"]
    out = rows.groupby(["task", "setting"], sort=False).agg(
        runs=("run", "nunique"),
        distinct_weights=("weights_hash", "nunique"),
        distinct_predictions=("pred_hash", "nunique"),
    )
    out["bit-identical"] = out["distinct_weights"] == 1
    return out


def spread_contrast(study: pd.DataFrame, task: str) -> pd.DataFrame:
    """The baseline's overall STDEV (pp) per metric under the three run settings: every
    knob fixed, the study's FIT runs, and seeds varying."""
    out = {}
    for setting in (SETTINGS_STRICT, SETTINGS_FIT, SETTINGS_SEED):
        runs = _select(study, task, setting=setting, technique="base")
        out[setting] = summarize(runs)["overall STDEV"]
    frame = pd.DataFrame(out).T
    frame.index.name = "runs"
    return frame[[*METRICS, "accuracy"]]


def load_survey(path=None) -> pd.DataFrame:
    """Seed 004 Table 5 with each paper's year (its comment lines give the provenance;
    ``-`` = not applicable).

    Parameters
    ----------
    path : str or Path, optional
        A survey file of the same columns; by default the one the package ships,
        ``literature_survey_seed004.csv`` in :mod:`fairbook.papers` (package data, read with
        :mod:`importlib.resources`).

    Examples
    --------
    >>> survey = load_survey()
    >>> len(survey), int((survey["multiple_runs"] == "Y").sum())
    (32, 11)
    """
    if path is None:
        with resources.as_file(resources.files("fairbook.papers") / _SURVEY_FILE) as shipped:
            return _read_survey(shipped)
    return _read_survey(Path(path))


def _read_survey(path: Path) -> pd.DataFrame:
    frame = pd.read_csv(path, comment="#", keep_default_na=False, dtype={"ref": int, "year": int})
    if list(frame.columns) != SURVEY_COLUMNS:
        raise ValueError(f"{path}: columns {list(frame.columns)}, expected {SURVEY_COLUMNS}")
    return frame


def recording_cost(recording, config: dict | None = None) -> pd.DataFrame:
    """What the recorded study cost and what the whole ``full`` profile costs, per task,
    from the provenance's wall seconds per unit (one FIT run).

    The full profile's cost is extrapolated per task (the tasks' runs differ in cost): the
    mean wall seconds of the task's recorded runs times the task's runs in the profile
    (from ``config``'s units; without it, ``expected`` split evenly over the recorded
    tasks). Wall seconds are measured while the machine ran other jobs, so they are an
    upper bound of the CPU time.

    Parameters
    ----------
    recording : fairbook_book.recordings.Recording
        :func:`~fairbook_book.chapters.fit_variance.study_recording`'s, loaded with the
        profile's settings (so ``expected`` is known).
    config : dict, optional
        The profile's settings, to count each task's units.

    Returns
    -------
    pandas.DataFrame
        Index ``task`` (and ``all``); columns ``units recorded``, ``units in the profile``,
        ``mean s per unit``, ``recorded hours``, ``profile hours (extrapolated)`` (wall) and
        ``profile CPU hours (extrapolated)`` (from the units' CPU seconds; NaN where the
        provenance has none).

    Examples
    --------
    >>> from fairbook_book.recordings import Recording
    >>> prov = [{"unit": f"adult.base.fit.r{r:02d}", "seconds": 3.0} for r in range(2)]
    >>> r = Recording("06_fit_variance", "study", pd.DataFrame(), prov, expected=8)
    >>> float(recording_cost(r).loc["all", "profile hours (extrapolated)"] * 3600)
    24.0
    """
    columns = [
        "units recorded",
        "units in the profile",
        "mean s per unit",
        "recorded hours",
        "profile hours (extrapolated)",
        "profile CPU hours (extrapolated)",
    ]
    if recording.empty:
        return pd.DataFrame(columns=columns, index=pd.Index([], name="task"))
    seconds = pd.DataFrame(
        {
            "task": [p["unit"].split(".")[0] for p in recording.provenance],
            "seconds": [float(p["seconds"]) for p in recording.provenance],
            "cpu": [float(p.get("cpu_seconds", np.nan)) for p in recording.provenance],
        }
    )
    tasks = seconds.groupby("task", sort=False)["seconds"]
    expected = recording.expected or len(recording.provenance)
    if config is not None:
        per_task = pd.Series([u.split(".")[0] for u in study_units(config)]).value_counts()
        expected = int(per_task.sum())
    else:
        per_task = expected / tasks.ngroups
    table = pd.DataFrame(
        {
            "units recorded": tasks.size(),
            "units in the profile": per_task,
            "mean s per unit": tasks.mean(),
            "recorded hours": tasks.sum() / 3600,
        }
    )
    table["profile hours (extrapolated)"] = (
        table["mean s per unit"] * table["units in the profile"] / 3600
    )
    cpu = seconds.groupby("task", sort=False)["cpu"].mean()
    table["profile CPU hours (extrapolated)"] = cpu * table["units in the profile"] / 3600
    table.loc["all"] = [
        table["units recorded"].sum(),
        expected,
        seconds["seconds"].mean(),
        table["recorded hours"].sum(),
        table["profile hours (extrapolated)"].sum(skipna=False),
        table["profile CPU hours (extrapolated)"].sum(skipna=False),
    ]
    table.index.name = "task"
    return table[columns]


def gpu_recording_text(recording) -> str:
    """What chapter 06 says about its GPU recording (``fairbook-book record 06 gpu``): how many
    runs are recorded and on what, or that none is yet and why.

    Examples
    --------
    >>> from fairbook_book.recordings import Recording
    >>> print(gpu_recording_text(Recording("06_fit_variance", "gpu", pd.DataFrame(), expected=24)))
    ... # doctest: +NORMALIZE_WHITESPACE
    GPU recording: nothing recorded yet (0 of 24 FIT runs). The book's builds run on CPUs;
    `fairbook-book record 06 gpu` on a machine with an NVIDIA GPU records seed 004's own setting
    (Digits-S, the baseline and the adversarial technique, default and deterministic cuDNN),
    and this section then shows it beside the CPU evidence.
    """
    if recording.empty:
        return (
            f"GPU recording: nothing recorded yet (0 of {recording.expected} FIT runs). The "
            "book's builds run on CPUs; `fairbook-book record 06 gpu` on a machine with an NVIDIA "
            "GPU records seed 004's own setting (Digits-S, the baseline and the adversarial "
            "technique, default and deterministic cuDNN), and this section then shows it "
            "beside the CPU evidence."
        )
    return recording.describe()


def gpu_identity(recording) -> pd.DataFrame:
    """Per technique and run setting of the GPU recording: runs, distinct final weights and
    predictions, and the MaxDiff of accuracy over the runs (pp); None when nothing is
    recorded (a chapter then shows only :func:`gpu_recording_text`)."""
    if recording.empty:
        return None
    frame = recording.frame
    out = frame.groupby(["technique", "setting"], sort=False).agg(
        runs=("run", "nunique"),
        distinct_weights=("weights_hash", "nunique"),
        distinct_predictions=("pred_hash", "nunique"),
    )
    accuracy = frame[frame["metric"] == "accuracy"]
    if not accuracy.empty:
        per_run = accuracy.groupby(["technique", "setting", "run"])["value"].first()
        spread = per_run.groupby(level=[0, 1]).agg(lambda v: 100 * (v.max() - v.min()))
        out["MaxDiff accuracy (pp)"] = spread
    return out
