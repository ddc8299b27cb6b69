"""MATCH p-values of groups against a reference, and Holm's adjustment over many of them.

A group of ``n`` people is compared with its reference the way seed 003 (Sec. 4.5) does:
the group is taken as one multinomial draw of its ``n`` people into the four cells with
the reference group's confusion proportions, and the two-sided p-value of its observed score is
:func:`fairbook.stats.match.test` with the exact law (binomial metrics, the joint-ratio
metrics and the marginal benefit B have one; F1, MCC and PT do not, and the audit does not
offer them). The reference's proportions are treated as known, which is harmless when the
reference is large (the audit flags a small one).

Many groups and metrics are tested at once, so the report adjusts the p-values with
**Holm's step-down method** (:func:`holm`), which controls the family-wise error rate at α
without assuming the tests are independent: sort the ``m`` p-values, multiply the ``i``-th
smallest by ``m − i + 1``, make the sequence non-decreasing, cap it at 1.
"""

from __future__ import annotations

import math

import numpy as np

from fairbook.parallel import ordered_map
from fairbook.stats import match
from fairbook.stats.multiple_testing import holm  # re-exported: part of the audit's API

__all__ = ["EXACT_METRICS", "check_metrics", "holm", "match_pvalue", "match_pvalues"]

#: Metrics whose MATCH law is exact (binomial, joint-ratio metrics and B), in catalogue order.
EXACT_METRICS = (
    "ACC",
    "PREV",
    "PPR",
    "INACC",
    "NPREV",
    "PNR",
    "TPR",
    "FPR",
    "TNR",
    "FNR",
    "PPV",
    "NPV",
    "FDR",
    "FOR",
    "B",
)


def check_metrics(metrics) -> tuple[str, ...]:
    """Metric names, upper-cased and de-duplicated; each must have an exact MATCH law.

    Examples
    --------
    >>> check_metrics(["ppr", "TPR", "PPR"])
    ('PPR', 'TPR')
    >>> check_metrics(["MCC"])
    Traceback (most recent call last):
    ...
    ValueError: metric 'MCC' has no exact MATCH law; choose from ACC, PREV, PPR, ...
    """
    if isinstance(metrics, str):
        metrics = [metrics]
    names = []
    for metric in metrics:
        key = metric.upper() if isinstance(metric, str) else metric
        if key not in EXACT_METRICS:
            raise ValueError(
                f"metric {metric!r} has no exact MATCH law; choose from {', '.join(EXACT_METRICS)}"
            )
        if key not in names:
            names.append(key)
    if not names:
        raise ValueError("metrics is empty; name at least one metric")
    return tuple(names)


def match_pvalue(metric: str, cm, p_ref) -> float:
    """Two-sided exact MATCH p-value of one group, NaN where the score is undefined.

    Parameters
    ----------
    metric : str
    cm : array-like of shape (4,)
        The group's integer counts ``[TP, FN, FP, TN]``.
    p_ref : array-like of shape (4,)
        The reference's confusion proportions (summing to 1).

    Examples
    --------
    >>> round(match_pvalue("ACC", [40, 10, 10, 40], [0.375, 0.125, 0.125, 0.375]), 3)
    0.298
    >>> match_pvalue("TPR", [0, 0, 3, 4], [0.25, 0.25, 0.25, 0.25])  # no actual positives
    nan
    """
    cm = np.asarray(cm, dtype=np.int64)
    if cm.sum() < 1:
        return math.nan
    return float(match.test(metric, cm, p_ref))


def match_pvalues(jobs, *, n_jobs: int = 1) -> np.ndarray:
    """:func:`match_pvalue` of many ``(metric, cm, p_ref)`` jobs, in order.

    ``n_jobs`` > 1 runs them in joblib's processes (worth it for groups of millions, where
    one exact joint-ratio p-value takes a fraction of a second).

    Examples
    --------
    >>> p = [0.375, 0.125, 0.125, 0.375]
    >>> match_pvalues([("ACC", [40, 10, 10, 40], p), ("ACC", [30, 20, 20, 30], p)]).round(4)
    array([0.2977, 0.0014])
    """
    calls: list[tuple[tuple, dict]] = [((metric, cm, p_ref), {}) for metric, cm, p_ref in jobs]
    return np.fromiter(ordered_map(match_pvalue, calls, n_jobs=n_jobs), dtype=np.float64)
