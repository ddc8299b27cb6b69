"""Every group against its attribute's reference group, metric by metric, with a verdict.

One row per (attribute, group other than the reference, metric): the group's score and the
reference's, their difference (``gap``, positive when the group's score is higher) and ratio
(seed 000's ``F = M(group) / M(reference)``, flagged "unfair" when ``|F − 1| > 0.2``; B is a
signed difference and has no ratio), the p-value of the chosen ``test`` (the exact MATCH
p-value by default, :mod:`.significance`; a two-proportion test otherwise,
:mod:`.rate_tests`), the small-group reasons (:mod:`.small_groups`) with the test's exact
size beside each flag (``exact_size``, and ``size_note`` where it is NaN) and a ``note``
saying why any of these is NaN.

:func:`adjust` then applies Holm's method over all the rows of a report and gives each row
the verdict of chapter 03's MATCH tables: a gap of at least ``min_gap`` is *apparent*; it
*survives* when its Holm-adjusted p-value is below α:

=================================  ==========================================
``disparity survives``             apparent and significant
``apparent, not significant``      apparent, adjusted p >= α
``significant, below min_gap``     significant but smaller than ``min_gap``
``no apparent disparity``          neither (which is not "fair": see ``small``)
``undefined``                      the group's or the reference's score is NaN
=================================  ==========================================
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from fairbook.metrics import METRICS, compute
from fairbook.papers.seed000 import FLAG_THRESHOLD

from .fast_match import MatchBatch
from .rate_tests import (
    NO_TWO_PROPORTION,
    check_boschloo,
    rate_counts,
    two_proportion_pvalues,
)
from .significance import holm
from .small_groups import small_group_table

__all__ = ["COMPARISON_COLUMNS", "VERDICTS", "adjust", "compare_to_reference", "ratio_flag"]

#: Columns of a comparison table, in order (before and after :func:`adjust`).
COMPARISON_COLUMNS = (
    "group",
    "attribute",
    "metric",
    "n",
    "score",
    "reference_group",
    "reference_n",
    "reference_score",
    "gap",
    "ratio",
    "ratio_flag",
    "p_value",
    "p_holm",
    "significant",
    "apparent",
    "verdict",
    "small",
    "p_hole",
    "min_gap_p",
    "small_reasons",
    "reference_small",
    "note",
    "exact_size",
    "size_note",
)

#: The verdicts of :func:`adjust`.
VERDICTS = (
    "disparity survives",
    "apparent, not significant",
    "significant, below min_gap",
    "no apparent disparity",
    "undefined",
)


def ratio_flag(ratio) -> np.ndarray:
    """Seed 000's flag of a ratio: ``"unfair"`` when ``|F − 1| > 0.2``, else ``"fair"``.

    Examples
    --------
    >>> ratio_flag([0.79, 1.2, np.nan]).tolist()
    ['unfair', 'fair', 'undefined']
    """
    ratio = np.asarray(ratio, dtype=np.float64)
    unfair = np.abs(ratio - 1.0) > FLAG_THRESHOLD + 1e-12
    return np.where(np.isfinite(ratio), np.where(unfair, "unfair", "fair"), "undefined")


def _undefined(metric: str, whose: str) -> str:
    return f"{metric} undefined for {whose} ({METRICS[metric].undefined_when})"


def compare_to_reference(
    counts,
    labels,
    *,
    attribute: str,
    reference: int,
    metrics,
    alpha: float = 0.05,
    min_gap: float = 0.05,
    n_jobs: int = 1,
    test: str = "match",
) -> pd.DataFrame:
    """Each group of one attribute against its reference, before Holm's adjustment.

    Parameters
    ----------
    counts : ndarray of shape (n_groups, 4)
        ``[TP, FN, FP, TN]`` per group.
    labels : array-like of shape (n_groups,)
    attribute : str
    reference : int
        Position of the reference group.
    metrics : sequence of str
        Metrics with an exact MATCH law.
    alpha, min_gap : float
        For the small-group reasons.
    n_jobs : int, default 1
        Processes for the MATCH p-values.
    test : str, default "match"
        The test of each comparison (:data:`fairbook.audit.rate_tests.TESTS`): MATCH, or a
        two-proportion test of the rate (B then has no p-value, and says so in ``note``).

    Returns
    -------
    pandas.DataFrame
        The columns of :data:`COMPARISON_COLUMNS` except those :func:`adjust` adds
        (``p_holm, significant, apparent, verdict``).

    Examples
    --------
    >>> t = compare_to_reference(np.array([[5, 5, 0, 10], [50, 10, 10, 30]]), ["a", "b"],
    ...                          attribute="g", reference=1, metrics=["PPR"])
    >>> t[["group", "score", "reference_score", "gap", "ratio", "ratio_flag"]].values.tolist()
    [['a', 0.25, 0.6, -0.35, 0.4166666666666667, 'unfair']]
    >>> fisher = compare_to_reference(np.array([[5, 5, 0, 10], [50, 10, 10, 30]]), ["a", "b"],
    ...                               attribute="g", reference=1, metrics=["PPR"], test="fisher")
    >>> round(float(fisher["p_value"][0]), 4)  # 5 of 20 against 60 of 100
    0.0061
    """
    counts = np.asarray(counts, dtype=np.int64)
    labels = np.asarray(labels, dtype=object)
    ref = counts[reference]
    p_ref = ref / ref.sum()
    others = np.array([g for g in range(len(labels)) if g != reference], dtype=np.intp)
    if others.size == 0:  # one group: nothing to compare, but every column is there
        return _no_comparisons()
    del n_jobs  # the batched p-values need no processes (kept for the signature)
    if test == "boschloo":  # refuse before any work, naming the first group too large
        _check_boschloo(counts[others], ref, labels[others], metrics, attribute)
    batch = MatchBatch(p_ref)
    common = {
        "group": labels[others].tolist(),
        "attribute": attribute,
        "reference_group": labels[reference],
    }
    parts = [
        _metric_part(
            metric,
            counts[others],
            ref,
            common,
            alpha=alpha,
            min_gap=min_gap,
            batch=batch,
            test=test,
        )
        for metric in metrics
    ]
    return _table_of(parts)


def _check_boschloo(group_counts, ref, labels, metrics, attribute) -> None:
    """:func:`~fairbook.audit.rate_tests.check_boschloo` of every group and rate metric."""
    from fairbook.labels import show_value

    for metric in metrics:
        if metric == "B":
            continue
        _, n = rate_counts(metric, group_counts)
        _, n_ref = rate_counts(metric, ref)
        for label, size in zip(labels, n.tolist(), strict=True):
            check_boschloo(
                size,
                int(n_ref),
                what=f"group {show_value(label)} of {show_value(attribute)} ({metric})",
            )


def _no_comparisons() -> pd.DataFrame:
    """The comparison table with its columns and types and no row."""
    table = pd.DataFrame(columns=[c for c in COMPARISON_COLUMNS if c not in _ADDED])
    table["ratio_flag"] = np.array([], dtype=object)
    table["p_value"] = np.array([], dtype=np.float64)
    floats = ("score", "reference_score", "gap", "ratio", "p_hole", "min_gap_p", "exact_size")
    return table.astype(
        {
            **dict.fromkeys(("small", "reference_small"), bool),
            **dict.fromkeys(("n", "reference_n"), np.int64),
            **dict.fromkeys(floats, np.float64),
        }
    )


def _metric_part(metric, group_counts, ref, common, *, alpha, min_gap, batch, test) -> dict:
    """One metric's columns for every group but the reference."""
    p_ref = ref / ref.sum()
    ref_score = float(compute(metric, ref))
    ref_small = small_group_table(
        metric, ref[None, :], p_ref, alpha=alpha, min_gap=min_gap, batch=batch
    )["small"][0]
    scores = np.asarray(compute(metric, group_counts), dtype=np.float64).reshape(-1)
    small = small_group_table(
        metric,
        group_counts,
        p_ref,
        alpha=alpha,
        min_gap=min_gap,
        batch=batch,
        test=test,
        reference=ref,
    )
    if metric == "B" or ref_score == 0:
        ratio = np.full(scores.size, np.nan)
    else:
        ratio = scores / ref_score
    size = scores.size
    notes = _notes(metric, scores, ref_score)
    if test == "match":
        p_values = batch.pvalues(metric, group_counts)
    elif metric == "B":
        p_values = np.full(size, np.nan)
        notes = [
            f"{note}; no p-value: {NO_TWO_PROPORTION}"
            if note
            else f"no p-value: {NO_TWO_PROPORTION}"
            for note in notes
        ]
    else:
        x, n = rate_counts(metric, group_counts)
        y, n_ref = rate_counts(metric, ref)
        p_values = two_proportion_pvalues(test, x, n, int(y), int(n_ref))
    return {
        "group": common["group"],
        "attribute": [common["attribute"]] * size,
        "metric": [metric] * size,
        "n": group_counts.sum(axis=1),
        "score": scores,
        "reference_group": [common["reference_group"]] * size,
        "reference_n": np.full(size, int(ref.sum()), dtype=np.int64),
        "reference_score": np.full(size, ref_score),
        "gap": scores - ref_score,
        "ratio": ratio,
        "p_hole": small["p_hole"],
        "min_gap_p": small["min_gap_p"],
        "small": small["small"],
        "small_reasons": small["reasons"].tolist(),
        "reference_small": np.full(size, bool(ref_small)),
        "note": notes,
        "exact_size": small["exact_size"],
        "size_note": small["size_note"].tolist(),
        "p_value": p_values,
    }


def _table_of(parts: list[dict]) -> pd.DataFrame:
    """The metrics' parts as one table, with the ratio flags and the p-values' notes."""
    columns = {
        name: [v for part in parts for v in part[name]]
        if isinstance(parts[0][name], list)
        else np.concatenate([part[name] for part in parts])
        for name in parts[0]
    }
    p_values = columns.pop("p_value")
    table = pd.DataFrame(columns, columns=[c for c in COMPARISON_COLUMNS if c not in _ADDED])
    table["ratio_flag"] = ratio_flag(table["ratio"].to_numpy())
    table["p_value"] = p_values
    lost = table["p_value"].isna() & table["note"].eq("")
    table.loc[lost, "note"] = "no p-value: the metric is never defined under the reference"
    return table


def _notes(metric: str, scores: np.ndarray, ref_score: float) -> list[str]:
    """Each row's note: why its score, the reference's or the ratio is NaN ("" if none)."""
    tail = []
    if math.isnan(ref_score):
        tail.append(_undefined(metric, "the reference"))
    if metric == "B":
        tail.append("no ratio: B is a signed difference")
    elif ref_score == 0:
        tail.append("no ratio: the reference's score is 0")
    plain = "; ".join(tail)
    undefined = "; ".join([_undefined(metric, "the group"), *tail])
    return np.where(np.isnan(scores), undefined, plain).astype(object).tolist()


_ADDED = ("p_holm", "significant", "apparent", "verdict", "ratio_flag", "p_value")


def adjust(table: pd.DataFrame, *, alpha: float = 0.05, min_gap: float = 0.05) -> pd.DataFrame:
    """Holm-adjust the p-values of all rows together and give each row its verdict.

    Parameters
    ----------
    table : pandas.DataFrame
        Rows from :func:`compare_to_reference` (one or several attributes).
    alpha : float, default 0.05
        Family-wise error rate; a row is ``significant`` when ``p_holm < alpha``.
    min_gap : float, default 0.05
        The smallest ``|gap|`` counted as an *apparent* disparity.

    Returns
    -------
    pandas.DataFrame
        A copy with ``p_holm, significant, apparent, verdict``, columns in
        :data:`COMPARISON_COLUMNS` order.

    Examples
    --------
    >>> t = pd.DataFrame({"score": [0.2, 0.5], "reference_score": [0.6, 0.52],
    ...                   "p_value": [0.001, 0.5]})
    >>> adjust(t)[["p_holm", "verdict"]].values.tolist()
    [[0.002, 'disparity survives'], [0.5, 'no apparent disparity']]
    """
    out = table.copy()
    out["gap"] = out["score"] - out["reference_score"]
    out["p_holm"] = holm(out["p_value"].to_numpy()) if len(out) else []
    significant = (out["p_holm"] < alpha).to_numpy(dtype=bool)
    apparent = (out["gap"].abs() >= min_gap - 1e-12).to_numpy(dtype=bool)
    undefined = out["gap"].isna().to_numpy(dtype=bool)
    out["significant"] = significant
    out["apparent"] = apparent & ~undefined
    out["verdict"] = np.select(
        [undefined, apparent & significant, apparent, significant],
        [
            "undefined",
            "disparity survives",
            "apparent, not significant",
            "significant, below min_gap",
        ],
        default="no apparent disparity",
    )
    return out[[c for c in COMPARISON_COLUMNS if c in out.columns]]
