"""Uncertainty fairness (seed 000): per-group epistemic, aleatoric and predictive uncertainty.

Given ``T`` columns of probabilities of the positive label for each person — the ``T``
posterior samples of a Bayesian network, or the members of an ensemble — each person's
uncertainty is the trace of Kwon et al.'s decomposition
(:func:`fairbook.uncertainty.decompose`, over the two classes ``[1 − p, p]``); a group's
uncertainty is the mean over its members (seed 000, Sec. 4.1), here with its standard error.
The fairness measures are the ratios to the reference group,
``F_Epis = U_e(group) / U_e(reference)``, ``F_Alea`` and ``F_Pred`` likewise (Eq. 27), each
flagged "unfair" when ``|F − 1| > 0.2`` (the paper's threshold).

The decomposition runs over blocks of rows (no Python loop over people), and the group means
are ``np.bincount`` sums, so 10⁷ rows cost a few passes over the samples.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.uncertainty import decompose

from .comparisons import ratio_flag
from .groups import Attribute, group_sums

__all__ = ["MEASURES", "person_uncertainty", "uncertainty_table"]

#: ``(mean column, ratio column)`` of each measure: epistemic, aleatoric, predictive.
MEASURES = (("U_e", "F_Epis"), ("U_a", "F_Alea"), ("U_p", "F_Pred"))

_BLOCK = 1 << 16  # rows decomposed at once


def person_uncertainty(samples: np.ndarray) -> np.ndarray:
    """Epistemic, aleatoric and predictive uncertainty of each person, shape ``(3, n)``.

    Parameters
    ----------
    samples : ndarray of shape (T, n)
        Probabilities of the positive label, one row per posterior sample or member.

    Examples
    --------
    >>> person_uncertainty(np.array([[0.25], [0.75]])).ravel().tolist()  # e, a, p
    [0.125, 0.375, 0.5]
    """
    samples = np.asarray(samples, dtype=np.float64)
    out = np.empty((3, samples.shape[1]))
    for start in range(0, samples.shape[1], _BLOCK):
        block = samples[:, start : start + _BLOCK]
        probs = np.stack([1.0 - block, block], axis=2)  # (T, rows, 2)
        out[:, start : start + block.shape[1]] = decompose(probs)
    return out


def uncertainty_table(
    per_person: np.ndarray, attribute: Attribute, *, reference: int
) -> pd.DataFrame:
    """Per-group mean uncertainties, their standard errors, and the ratios to the reference.

    Parameters
    ----------
    per_person : ndarray of shape (3, n)
        From :func:`person_uncertainty`.
    attribute : Attribute
    reference : int
        Position of the reference group.

    Returns
    -------
    pandas.DataFrame
        ``group, attribute, n, is_reference, U_e, U_a, U_p, U_e_se, U_a_se, U_p_se,
        F_Epis, F_Alea, F_Pred, F_Epis_flag, F_Alea_flag, F_Pred_flag``; a ratio whose
        reference mean is 0 is NaN (flag ``"undefined"``).

    Examples
    --------
    >>> from fairbook.audit.groups import encode_attribute
    >>> a = encode_attribute(["x", "y"], name="g")
    >>> u = person_uncertainty(np.array([[0.5, 0.9]]))
    >>> round(float(uncertainty_table(u, a, reference=1).loc[0, "F_Alea"]), 3)
    2.778
    """
    n = np.bincount(attribute.codes, minlength=attribute.n_groups).astype(np.float64)
    table = pd.DataFrame(
        {
            "group": attribute.labels,
            "attribute": attribute.name,
            "n": n.astype(np.int64),
            "is_reference": np.arange(attribute.n_groups) == reference,
        }
    )
    for index, (mean_name, ratio_name) in enumerate(MEASURES):
        values = per_person[index]
        mean = group_sums(attribute, values) / n
        square = group_sums(attribute, values * values) / n
        variance = np.maximum(square - mean * mean, 0.0) * n / np.maximum(n - 1, 1)
        table[mean_name] = mean
        table[f"{mean_name}_se"] = np.where(n > 1, np.sqrt(variance / n), np.nan)
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.where(mean[reference] > 0, mean / mean[reference], np.nan)
        table[ratio_name] = ratio
    for _, ratio_name in MEASURES:
        table[f"{ratio_name}_flag"] = ratio_flag(table[ratio_name].to_numpy())
    means = [m for m, _ in MEASURES]
    ratios = [r for _, r in MEASURES]
    order = ["group", "attribute", "n", "is_reference", *means, *(f"{m}_se" for m in means)]
    return table[[*order, *ratios, *(f"{r}_flag" for r in ratios)]]
