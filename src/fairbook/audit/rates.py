"""Each group's rates with an interval, raw and Cross-Prior-Smoothed (seed 003, Sec. 4.6).

For every group of an attribute and every chosen metric, :func:`rate_table` gives the raw
score, the counts it is a share of, an exact interval, and the score after Cross-Prior
Smoothing towards the attribute's reference group (:func:`fairbook.stats.cps.smooth`, λ = 5
by default, the paper's setting). The interval is

* **Clopper–Pearson** (exact, from the beta law) for the binomial metrics ``(c_i + c_j)/n``
  and the joint-ratio metrics ``c_i/(c_i + c_j)``: ``k`` of ``m`` with ``m`` the metric's
  denominator;
* the **normal** interval ``B ± z √(v/n)`` for the marginal benefit ``B = (FP − FN)/n``, a
  mean of per-person terms ``+1, −1, 0`` with variance ``v = (FP + FN)/n − B²``, clipped to
  [−1, 1].

A rate with a zero denominator is NaN (undefined), and so is its interval.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from fairbook.metrics import compute
from fairbook.stats import cps
from fairbook.stats.combinatorics import BINOMIAL_CELLS, JRM_CELLS

__all__ = ["between_groups", "fraction_counts", "rate_interval", "rate_table"]


def fraction_counts(metric: str, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Numerator and denominator counts of a binomial or joint-ratio metric, per matrix.

    For B (not a fraction) the numerator is ``FP − FN`` and the denominator ``n``.

    Examples
    --------
    >>> k, m = fraction_counts("TPR", np.array([[3, 1, 2, 4]]))
    >>> k.tolist(), m.tolist()
    ([3], [4])
    """
    counts = np.asarray(counts, dtype=np.int64)
    if metric in BINOMIAL_CELLS:
        i, j = BINOMIAL_CELLS[metric]
        return counts[..., i] + counts[..., j], counts.sum(axis=-1)
    if metric in JRM_CELLS:
        i, j = JRM_CELLS[metric]
        return counts[..., i], counts[..., i] + counts[..., j]
    if metric == "B":
        return counts[..., 2] - counts[..., 1], counts.sum(axis=-1)
    raise ValueError(f"{metric} has no interval here (binomial, joint-ratio metrics and B)")


def rate_interval(metric: str, counts, *, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided interval of a metric per matrix (Clopper–Pearson, or normal for B).

    Parameters
    ----------
    metric : str
        A binomial metric, a joint-ratio metric or ``"B"``.
    counts : array-like of shape (..., 4)
    level : float, default 0.95

    Returns
    -------
    low, high : ndarray of float
        NaN where the metric is undefined.

    Examples
    --------
    >>> low, high = rate_interval("PPR", [[0, 0, 0, 10]])  # 0 of 10 selected
    >>> float(low[0]), round(float(high[0]), 4)            # 1 - 0.025 ** (1 / 10)
    (0.0, 0.3085)
    """
    counts = np.atleast_2d(np.asarray(counts, dtype=np.int64))
    tail = (1.0 - level) / 2
    k, m = fraction_counts(metric, counts)
    low = np.full(k.shape, np.nan)
    high = np.full(k.shape, np.nan)
    defined = m > 0
    if metric == "B":
        n = m[defined].astype(np.float64)
        b = k[defined] / n
        errors = (counts[..., 1] + counts[..., 2])[defined] / n
        half = stats.norm.ppf(1 - tail) * np.sqrt(np.maximum(errors - b * b, 0.0) / n)
        low[defined] = np.clip(b - half, -1.0, 1.0)
        high[defined] = np.clip(b + half, -1.0, 1.0)
        return low, high
    kd, md = k[defined].astype(np.float64), m[defined].astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        lo = stats.beta.ppf(tail, kd, md - kd + 1)
        hi = stats.beta.ppf(1 - tail, kd + 1, md - kd)
    low[defined] = np.where(kd == 0, 0.0, lo)
    high[defined] = np.where(kd == md, 1.0, hi)
    return low, high


def rate_table(
    counts: np.ndarray,
    labels,
    *,
    attribute: str,
    reference: int,
    metrics,
    lam: float = 5.0,
    level: float = 0.95,
) -> pd.DataFrame:
    """Long table of every group's rates: raw, interval, CPS-smoothed.

    Parameters
    ----------
    counts : ndarray of shape (n_groups, 4)
        ``[TP, FN, FP, TN]`` per group.
    labels : array-like of shape (n_groups,)
        The groups' labels.
    attribute : str
        The attribute's name (a column of the result).
    reference : int
        Position of the reference group (the prior of CPS).
    metrics : sequence of str
    lam : float, default 5.0
        CPS prior strength λ (0: no smoothing).
    level : float, default 0.95

    Returns
    -------
    pandas.DataFrame
        ``group, attribute, metric, n, numerator, denominator, score, ci_low, ci_high,
        cps, is_reference``; one row per group and metric.

    Examples
    --------
    >>> t = rate_table(np.array([[2, 0, 1, 2], [30, 10, 20, 40]]), ["s", "big"],
    ...                attribute="g", reference=1, metrics=["TPR"])
    >>> t[["group", "score", "cps"]].round(3).values.tolist()
    [['s', 1.0, 0.875], ['big', 0.75, 0.75]]
    """
    counts = np.asarray(counts, dtype=np.int64)
    labels = np.asarray(labels, dtype=object)
    smoothed = cps.smooth(counts.astype(np.float64), counts[reference].astype(np.float64), lam)
    frames = []
    for metric in metrics:
        numerator, denominator = fraction_counts(metric, counts)
        low, high = rate_interval(metric, counts, level=level)
        frames.append(
            pd.DataFrame(
                {
                    "group": labels,
                    "attribute": attribute,
                    "metric": metric,
                    "n": counts.sum(axis=1),
                    "numerator": numerator,
                    "denominator": denominator,
                    "score": np.asarray(compute(metric, counts), dtype=np.float64),
                    "ci_low": low,
                    "ci_high": high,
                    "cps": np.asarray(compute(metric, smoothed), dtype=np.float64),
                    "is_reference": np.arange(len(labels)) == reference,
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def between_groups(rates: pd.DataFrame) -> pd.DataFrame:
    """Per attribute and metric: the extreme groups, their difference and ratio.

    The summaries of fairlearn's ``MetricFrame`` with ``method="between_groups"``:
    ``difference = max − min`` and ``ratio = min / max`` over the groups whose score is
    defined (fairlearn has no reference group; the audit's ``comparisons`` do).

    Parameters
    ----------
    rates : pandas.DataFrame
        From :func:`rate_table` (one or several attributes).

    Returns
    -------
    pandas.DataFrame
        ``attribute, metric, reference_group, reference_score, min_group, min, max_group,
        max, difference, ratio, groups, undefined``; ``ratio`` is NaN when ``max`` is 0 or
        the metric can be negative (B).

    Examples
    --------
    >>> t = rate_table(np.array([[2, 0, 1, 2], [30, 10, 20, 40]]), ["s", "big"],
    ...                attribute="g", reference=1, metrics=["PPR"])
    >>> between_groups(t)[["min", "max", "difference", "ratio"]].round(2).values.tolist()
    [[0.5, 0.6, 0.1, 0.83]]
    """
    rows = []
    for (attribute, metric), part in rates.groupby(["attribute", "metric"], sort=False):
        defined = part[part["score"].notna()]
        reference = part[part["is_reference"]]
        row = {
            "attribute": attribute,
            "metric": metric,
            "reference_group": reference["group"].iloc[0] if len(reference) else None,
            "reference_score": float(reference["score"].iloc[0]) if len(reference) else np.nan,
            "min_group": None,
            "min": np.nan,
            "max_group": None,
            "max": np.nan,
            "difference": np.nan,
            "ratio": np.nan,
            "groups": len(part),
            "undefined": int(part["score"].isna().sum()),
        }
        if len(defined):
            low = defined.loc[defined["score"].idxmin()]
            high = defined.loc[defined["score"].idxmax()]
            row.update(
                min_group=low["group"],
                min=float(low["score"]),
                max_group=high["group"],
                max=float(high["score"]),
                difference=float(high["score"] - low["score"]),
            )
            if metric != "B" and high["score"] > 0:
                row["ratio"] = float(low["score"] / high["score"])
        rows.append(row)
    return pd.DataFrame(rows)
