"""A score or probability column, per group: balance for each class and calibration.

For each group: the mean score, the mean score of its actual positives and of its actual
negatives — Kleinberg, Mullainathan and Raghavan's *balance for the positive and the
negative class* (2017), compared here with the reference group as gaps — and, when every
score lies in [0, 1] (a probability), the Brier score and *calibration in the large* (mean
score minus the share of actual positives). A score outside [0, 1] (a decile, a logit) gets
NaN there, and the report says why. Every number is a ``np.bincount`` sum.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .groups import Attribute, group_sums

__all__ = ["score_table"]


def score_table(
    score: np.ndarray, true_pos: np.ndarray, attribute: Attribute, *, reference: int
) -> pd.DataFrame:
    """Per-group score summaries and their gaps to the reference group.

    Parameters
    ----------
    score : ndarray of float, shape (n,)
    true_pos : ndarray of bool, shape (n,)
        Whether each person's true label is the positive label.
    attribute : Attribute
    reference : int

    Returns
    -------
    pandas.DataFrame
        ``group, attribute, n, is_reference, score_mean, score_mean_positives,
        score_mean_negatives, positives_gap, negatives_gap, brier,
        calibration_in_the_large``; a group without actual positives (negatives) has NaN
        for those, and ``brier``/``calibration_in_the_large`` are NaN unless every score is
        in [0, 1].

    Examples
    --------
    >>> from fairbook.audit.groups import encode_attribute
    >>> a = encode_attribute(["x", "x", "y", "y"], name="g")
    >>> t = score_table(np.array([0.9, 0.2, 0.6, 0.4]), np.array([True, False, True, False]),
    ...                 a, reference=1)
    >>> t[["group", "score_mean_positives", "positives_gap"]].round(2).values.tolist()
    [['x', 0.9, 0.3], ['y', 0.6, 0.0]]
    """
    truth = true_pos.astype(np.float64)
    n = np.bincount(attribute.codes, minlength=attribute.n_groups).astype(np.float64)
    positives = group_sums(attribute, truth)
    negatives = n - positives
    total = group_sums(attribute, score)
    on_positives = group_sums(attribute, score * truth)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_pos = np.where(positives > 0, on_positives / positives, np.nan)
        mean_neg = np.where(negatives > 0, (total - on_positives) / negatives, np.nan)
    table = pd.DataFrame(
        {
            "group": attribute.labels,
            "attribute": attribute.name,
            "n": n.astype(np.int64),
            "is_reference": np.arange(attribute.n_groups) == reference,
            "score_mean": total / n,
            "score_mean_positives": mean_pos,
            "score_mean_negatives": mean_neg,
            "positives_gap": mean_pos - mean_pos[reference],
            "negatives_gap": mean_neg - mean_neg[reference],
        }
    )
    if score.size and score.min() >= 0.0 and score.max() <= 1.0:
        table["brier"] = group_sums(attribute, (score - truth) ** 2) / n
        table["calibration_in_the_large"] = (total - positives) / n
    else:
        table["brier"] = np.nan
        table["calibration_in_the_large"] = np.nan
    return table
