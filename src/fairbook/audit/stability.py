"""Verdict stability (seed 004): the same audit on the predictions of several training runs.

Seed 004 shows that fixed-seed identical training runs give different fairness numbers, and
that a model fair in one run can be unfair in the next. Given one prediction column per
run, :func:`run_comparisons` repeats the comparison of every group with its reference in
each run (Holm-adjusted within the run, as the main report is), and :func:`stability_table`
summarises each (attribute, group, metric) over the runs:

* the spread of the group's score and of its gap to the reference: seed 004's *MaxDiff*
  (max − min) and *STDEV* (population, ddof = 0), from :mod:`fairbook.stats.between_runs`;
* the share of runs in which each verdict holds: the disparity *survives* MATCH with Holm's
  adjustment, and seed 000's ratio flag says *unfair* (``|F − 1| > 0.2``);
* ``flips``: true when a verdict holds in some runs and not in others, i.e. when its
  flip rate (:func:`fairbook.variance.verdicts.flip_rate`, the share of pairs of runs that
  disagree) is above 0.

:func:`verdict_flip_rates` gives those flip rates themselves, computed by the same core
function the chapter "How stable is a fairness verdict?" uses.

:func:`seven_stability` does the same for seed 004's seven metrics per attribute, with the
paper's DI_BAR threshold (20 %) as the fair/unfair verdict; the other six have no threshold
in the paper and get no share.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.metrics import BIAS_REPORT_METRICS
from fairbook.stats.between_runs import max_diff, population_stdev
from fairbook.variance.verdicts import flip_rate, flip_rates

from .bias_metrics import DI_BAR_THRESHOLD, bias_metrics_table
from .comparisons import adjust, compare_to_reference
from .groups import count_cells, outcome_cells

__all__ = ["run_comparisons", "seven_stability", "stability_table", "verdict_flip_rates"]


def run_comparisons(
    true_pos: np.ndarray,
    runs: dict,
    attributes,
    references,
    *,
    metrics,
    alpha: float = 0.05,
    min_gap: float = 0.05,
    positive=1,
    n_jobs: int = 1,
    test: str = "match",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every comparison and seed 004's seven metrics in every run.

    Parameters
    ----------
    true_pos : ndarray of bool, shape (n,)
    runs : dict
        ``{run name: predicted-positive bool array of shape (n,)}``.
    attributes : sequence of Attribute
    references : sequence of int
        The reference position of each attribute (the same in every run: group sizes do
        not depend on the predictions).
    metrics : sequence of str
    alpha, min_gap : float
    positive : label
    n_jobs : int
    test : str, default "match"
        The test of each comparison (:func:`~fairbook.audit.comparisons.compare_to_reference`).

    Returns
    -------
    comparisons, seven : pandas.DataFrame
        The comparison rows of each run with a leading ``run`` column; seed 004's metrics
        per ``run, attribute``.

    Examples
    --------
    >>> from fairbook.audit.groups import encode_attribute
    >>> a = encode_attribute(list("aabbbb"), name="g")
    >>> truth = np.array([1, 0, 1, 0, 1, 0], dtype=bool)
    >>> runs = {"r1": truth.copy(), "r2": ~truth}
    >>> rows, seven = run_comparisons(truth, runs, [a], [1], metrics=["ACC"])
    >>> rows[["run", "group", "score"]].values.tolist()
    [['r1', 'a', 1.0], ['r2', 'a', 0.0]]
    """
    tables, sevens = [], []
    for name, pred_pos in runs.items():
        cells = outcome_cells(true_pos, pred_pos)
        parts = []
        for attribute, reference in zip(attributes, references, strict=True):
            counts = count_cells(attribute, cells)
            parts.append(
                compare_to_reference(
                    counts,
                    attribute.labels,
                    attribute=attribute.name,
                    reference=reference,
                    metrics=metrics,
                    alpha=alpha,
                    min_gap=min_gap,
                    n_jobs=n_jobs,
                    test=test,
                )
            )
            seven = bias_metrics_table(counts, attribute.labels, positive=positive)
            if not seven.empty:
                row = seven.iloc[0].to_dict()
                sevens.append({"run": name, "attribute": attribute.name, **row})
        table = adjust(pd.concat(parts, ignore_index=True), alpha=alpha, min_gap=min_gap)
        table.insert(0, "run", name)
        tables.append(table)
    seven_columns = ["run", "attribute", *BIAS_REPORT_METRICS]
    return pd.concat(tables, ignore_index=True), pd.DataFrame(sevens, columns=seven_columns)


def _share(values: pd.Series) -> float:
    return float(values.mean()) if len(values) else np.nan


def _verdict_columns(per_run: pd.DataFrame) -> pd.DataFrame:
    """0/1/NaN columns ``survives`` and ``ratio_unfair`` of a per-run comparison table."""
    survives = (per_run["verdict"] == "disparity survives").astype(np.float64)
    unfair = (per_run["ratio_flag"] == "unfair").astype(np.float64)
    return per_run.assign(
        survives=survives.where(per_run["verdict"] != "undefined"),
        ratio_unfair=unfair.where(per_run["ratio_flag"] != "undefined"),
    )


def verdict_flip_rates(per_run: pd.DataFrame) -> pd.DataFrame:
    """Flip rate over runs of each verdict, per (attribute, group, metric).

    The flip rate is the share of pairs of runs whose verdicts disagree
    (:func:`fairbook.variance.verdicts.flip_rate`); runs where a verdict is undefined are
    left out, and it is NaN with fewer than two defined runs.

    Parameters
    ----------
    per_run : pandas.DataFrame
        From :func:`run_comparisons` (an audit's ``to_frame("runs")``).

    Returns
    -------
    pandas.DataFrame
        ``attribute, group, metric, verdict`` (``"survives"`` or ``"ratio unfair"``),
        ``runs`` (defined), ``share`` (of runs where it holds) and ``flip_rate``.

    Examples
    --------
    >>> rows = pd.DataFrame({"run": ["r1", "r2", "r3"], "group": "a", "attribute": "g",
    ...                      "metric": "PPR", "score": 0.2, "gap": 0.1,
    ...                      "verdict": ["disparity survives", "no apparent disparity",
    ...                                  "disparity survives"],
    ...                      "ratio_flag": "fair"})
    >>> verdict_flip_rates(rows)[["verdict", "flip_rate"]].round(3).values.tolist()
    [['survives', 0.667], ['ratio unfair', 0.0]]
    """
    table = _verdict_columns(per_run)
    parts = []
    for column, name in (("survives", "survives"), ("ratio_unfair", "ratio unfair")):
        rates = flip_rates(table, by=["attribute", "group", "metric"], verdict=column)
        rates.insert(3, "verdict", name)
        parts.append(rates)
    out = pd.concat(parts, ignore_index=True)
    order = out[["attribute", "group", "metric"]].drop_duplicates()
    out = order.merge(out, on=["attribute", "group", "metric"], how="left", sort=False)
    return out.rename(columns={"variants": "runs", "share_unfair": "share"})


#: Columns of :func:`stability_table` (also when there is nothing to compare).
STABILITY_COLUMNS = (
    "group",
    "attribute",
    "metric",
    "runs",
    "score_mean",
    "score_maxdiff",
    "score_stdev",
    "gap_maxdiff",
    "gap_stdev",
    "share_survives",
    "share_ratio_unfair",
    "flip_rate_survives",
    "flip_rate_ratio_unfair",
    "flips",
    "note",
)


def stability_table(per_run: pd.DataFrame) -> pd.DataFrame:
    """Spread and verdict shares over runs, per (attribute, group, metric).

    Parameters
    ----------
    per_run : pandas.DataFrame
        From :func:`run_comparisons`.

    Returns
    -------
    pandas.DataFrame
        ``group, attribute, metric, runs, score_mean, score_maxdiff, score_stdev,
        gap_maxdiff, gap_stdev, share_survives, share_ratio_unfair, flip_rate_survives,
        flip_rate_ratio_unfair, flips, note`` (the flip rates: the share of pairs of runs
        whose verdict disagrees, :func:`fairbook.variance.verdicts.flip_rate`). A
        spread is NaN when the metric is undefined in some run (``note`` says in how many);
        a share counts the runs where the verdict is defined.

    Examples
    --------
    >>> rows = pd.DataFrame({"run": ["r1", "r2"], "group": "a", "attribute": "g",
    ...                      "metric": "PPR", "score": [0.2, 0.3], "gap": [-0.1, 0.0],
    ...                      "verdict": ["disparity survives", "no apparent disparity"],
    ...                      "ratio_flag": ["unfair", "fair"]})
    >>> t = stability_table(rows)
    >>> t[["score_maxdiff", "share_survives", "flips"]].round(3).values.tolist()
    [[0.1, 0.5, True]]
    """
    out = []
    for (attribute, group, metric), part in _verdict_columns(per_run).groupby(
        ["attribute", "group", "metric"], sort=False
    ):
        undefined = int(part["score"].isna().sum())
        survives = _share(part["survives"].dropna())
        unfair = _share(part["ratio_unfair"].dropna())
        rates = [flip_rate(part[c].to_numpy()) for c in ("survives", "ratio_unfair")]
        out.append(
            {
                "group": group,
                "attribute": attribute,
                "metric": metric,
                "runs": len(part),
                "score_mean": float(part["score"].mean()) if undefined < len(part) else np.nan,
                "score_maxdiff": max_diff(part["score"]),
                "score_stdev": population_stdev(part["score"]),
                "gap_maxdiff": max_diff(part["gap"]),
                "gap_stdev": population_stdev(part["gap"]),
                "share_survives": survives,
                "share_ratio_unfair": unfair,
                "flip_rate_survives": rates[0],
                "flip_rate_ratio_unfair": rates[1],
                "flips": any(r > 0.0 for r in rates if not np.isnan(r)),
                "note": f"undefined in {undefined} of {len(part)} runs" if undefined else "",
            }
        )
    return pd.DataFrame(out, columns=STABILITY_COLUMNS)


def seven_stability(per_run: pd.DataFrame) -> pd.DataFrame:
    """MaxDiff and STDEV of seed 004's seven metrics over runs, per attribute.

    Returns
    -------
    pandas.DataFrame
        ``attribute, metric, runs, mean, maxdiff, stdev, share_unfair, flip_rate, flips``;
        ``share_unfair`` is the share of runs with DI_BAR above 0.2 and ``flip_rate`` the
        share of pairs of runs whose DI_BAR verdicts disagree (both NaN for the other
        metrics, which have no threshold in seed 004).

    Examples
    --------
    >>> runs = pd.DataFrame({"run": ["r1", "r2"], "attribute": "g", "DP": [0.1, 0.3],
    ...                      "DI_BAR": [0.179, 0.204], "SPSF": 0.0, "FPSF": 0.0,
    ...                      "EOFP": 0.0, "EOTP": 0.0, "BA": 0.0})
    >>> t = seven_stability(runs).set_index("metric")
    >>> float(t.loc["DI_BAR", "share_unfair"]), bool(t.loc["DI_BAR", "flips"])
    (0.5, True)
    """
    out = []
    for attribute, part in per_run.groupby("attribute", sort=False):
        for metric in BIAS_REPORT_METRICS:
            values = part[metric].astype(np.float64)
            share, rate = np.nan, np.nan
            if metric == "DI_BAR":
                unfair = (values > DI_BAR_THRESHOLD).astype(np.float64).where(values.notna())
                share = _share(unfair.dropna())
                rate = flip_rate(unfair.to_numpy())
            out.append(
                {
                    "attribute": attribute,
                    "metric": metric,
                    "runs": len(values),
                    "mean": float(values.mean()),
                    "maxdiff": max_diff(values),
                    "stdev": population_stdev(values),
                    "share_unfair": share,
                    "flip_rate": rate,
                    "flips": bool(rate > 0.0) if not np.isnan(rate) else False,
                }
            )
    columns = [
        "attribute",
        "metric",
        "runs",
        "mean",
        "maxdiff",
        "stdev",
        "share_unfair",
        "flip_rate",
        "flips",
    ]
    return pd.DataFrame(out, columns=columns)
