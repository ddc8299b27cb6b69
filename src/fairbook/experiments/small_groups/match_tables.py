"""Sec. 4.5 of "Small groups": MATCH applied to real groups.

Every group tested against everyone else for several metrics, with Holm's adjustment,
telling apparent disparities that survive from those that do not; and many MATCH
p-values of one group size looked up in one exact law.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from fairbook.confusion import CELLS
from fairbook.metrics import compute
from fairbook.stats import match

from ._common import _check_frame, _metric

#: Metrics of the MATCH tables: the ones with an exact O(√n) law.
MATCH_METRICS = ("ACC", "PPR", "B", "TPR", "FPR", "PPV", "NPV")


def _holm(pvalues: np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment (NaN kept as NaN)."""
    p = np.asarray(pvalues, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    finite = np.flatnonzero(np.isfinite(p))
    if finite.size == 0:
        return out
    order = finite[np.argsort(p[finite], kind="stable")]
    m = order.size
    adjusted = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out[order] = adjusted
    return out


def match_table(
    counts: pd.DataFrame,
    *,
    metrics=MATCH_METRICS,
    alpha: float = 0.05,
    min_gap: float = 0.05,
    groups=None,
) -> pd.DataFrame:
    """MATCH every group against everyone else, for several metrics.

    For group ``g`` the reference is the rest of the data set, ``p_ref = (total − cm_g) /
    sum``; the p-value is :func:`fairbook.stats.match.test` (exact, two-sided). An
    *apparent* disparity is a gap ``|score − reference score| >= min_gap``; it
    *survives* when its Holm-adjusted p-value (over every test in the table) is below
    ``alpha``.

    Parameters
    ----------
    counts : pandas.DataFrame
        Per-group ``TP FN FP TN`` (e.g. from
        :func:`fairbook.experiments.objective_fairness.group_counts`).
    metrics : iterable of str
        Metrics with an exact MATCH law (binomial, B, joint-ratio).
    alpha : float, default 0.05
    min_gap : float, default 0.05
    groups : iterable, optional
        Groups to test (all by default); the reference always uses every other row.

    Returns
    -------
    pandas.DataFrame
        ``group, n, metric, score, reference, gap, p_value, p_holm, apparent, survives,
        verdict`` (``"disparity survives"``, ``"apparent, not significant"``,
        ``"significant, below min_gap"`` or empty).

    Examples
    --------
    >>> c = pd.DataFrame({"TP": [5, 500], "FN": [5, 100], "FP": [0, 100], "TN": [10, 300]},
    ...                  index=["small", "big"])
    >>> t = match_table(c, metrics=["PPR"], groups=["small"])
    >>> t[["group", "score", "reference", "apparent"]].values.tolist()
    [['small', 0.25, 0.6, True]]
    """
    names = [_metric(m) for m in metrics]
    for name in names:
        if "exact" not in match.methods_for(name):
            raise ValueError(
                f"{name} has no exact MATCH law; choose from binomial, B and joint-ratio metrics"
            )
    counts = _check_frame(counts)
    cms = counts[list(CELLS)].to_numpy(dtype=np.float64)
    total = cms.sum(axis=0)
    chosen = list(counts.index) if groups is None else list(groups)
    unknown = [g for g in chosen if g not in counts.index]
    if unknown:
        raise ValueError(f"unknown group(s) {unknown}; choose from {list(counts.index)}")
    rows = []
    for group in chosen:
        cm = counts.loc[group, list(CELLS)].to_numpy(dtype=np.float64)
        ref = total - cm
        if ref.sum() <= 0:
            raise ValueError(f"group {group!r} is the whole data set; no reference left")
        p_ref = ref / ref.sum()
        for name in names:
            score = float(compute(name, cm))
            reference = float(compute(name, ref))
            p_value = (
                match.test(name, cm.astype(np.int64), p_ref) if not math.isnan(score) else math.nan
            )
            rows.append(
                {
                    "group": group,
                    "n": int(cm.sum()),
                    "metric": name,
                    "score": score,
                    "reference": reference,
                    "gap": score - reference,
                    "p_value": p_value,
                }
            )
    table = pd.DataFrame(rows)
    table["p_holm"] = _holm(table["p_value"].to_numpy())
    table["apparent"] = table["gap"].abs() >= min_gap
    significant = table["p_holm"] < alpha
    table["survives"] = table["apparent"] & significant
    table["verdict"] = np.select(
        [table["survives"], table["apparent"], significant],
        ["disparity survives", "apparent, not significant", "significant, below min_gap"],
        default="",
    )
    return table


def match_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per group: how many apparent disparities a :func:`match_table` finds and keeps.

    Examples
    --------
    >>> t = pd.DataFrame({"group": ["a", "a"], "n": [10, 10], "metric": ["ACC", "PPR"],
    ...                   "gap": [0.2, -0.1], "apparent": [True, True],
    ...                   "survives": [True, False]})
    >>> match_summary(t).loc["a", "surviving"], match_summary(t).loc["a", "not significant"]
    ('ACC (+0.20)', 'PPR (-0.10)')
    """
    rows = {}
    for group, part in table.groupby("group", sort=False):
        kept = part[part["survives"]]
        lost = part[part["apparent"] & ~part["survives"]]
        rows[group] = {
            "n": int(part["n"].iloc[0]),
            "apparent": int(part["apparent"].sum()),
            "survive": int(part["survives"].sum()),
            "surviving": ", ".join(
                f"{m} ({g:+.2f})" for m, g in zip(kept["metric"], kept["gap"], strict=True)
            ),
            "not significant": ", ".join(
                f"{m} ({g:+.2f})" for m, g in zip(lost["metric"], lost["gap"], strict=True)
            ),
        }
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "group"
    return out


def match_pvalues(metric: str, scores, p_ref, n: int) -> np.ndarray:
    """Two-sided MATCH p-values of many scores of groups of size ``n`` at once.

    The law of the metric is computed once (:func:`fairbook.stats.match.distribution`,
    conditional on being defined) and every score is looked up in it; equal to
    :func:`fairbook.stats.match.test` with the exact (or, for F1/MCC/PT, enumerated) law.

    Parameters
    ----------
    metric : str
    scores : array-like of float
        Scores of groups of size ``n`` (NaN → NaN).
    p_ref : array-like of shape (4,)
    n : int
        ``n >= 1`` (``n <= 200`` for F1, MCC and PT).

    Returns
    -------
    ndarray of float

    Examples
    --------
    >>> p_ref = [0.375, 0.125, 0.125, 0.375]
    >>> match_pvalues("ACC", [0.8, 0.75], p_ref, 100).round(3).tolist()
    [0.298, 1.0]
    """
    key = _metric(metric)
    dist = match.distribution(key, p_ref, n)
    s = np.asarray(scores, dtype=np.float64)
    out = np.full(s.shape, np.nan)
    if dist.values.size == 0:
        return out
    values = dist.values
    cum = np.cumsum(dist.probs)
    tail = np.cumsum(dist.probs[::-1])[::-1]
    finite = np.isfinite(s)
    slack = 1e-9 * np.maximum(1.0, np.abs(s[finite]))
    lower_index = np.searchsorted(values, s[finite] + slack, side="right") - 1
    upper_index = np.searchsorted(values, s[finite] - slack, side="left")
    lower = np.where(lower_index >= 0, cum[np.clip(lower_index, 0, None)], 0.0)
    upper = np.where(
        upper_index < values.size, tail[np.clip(upper_index, None, values.size - 1)], 0.0
    )
    out[finite] = np.clip(2 * np.minimum(lower, upper), 0.0, 1.0)
    return out
