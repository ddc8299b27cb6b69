"""Skill scores of seed 003, Eq. 5.10 and Table 5.2.

``skill = 1 − model / baseline`` for a loss such as the CRPS: 1 is perfect, 0 a tie, below 0
the baseline wins. Sec. 5.5 reports, for PTN against each baseline,

* the skill of the **quartiles**: the first, second and third quartiles of each model's set of
  per-forecast CRPS values are taken *separately*, then ``1 − Q_k(PTN) / Q_k(baseline)``
  (:func:`skill_quartiles`);
* the **percent of forecasts improved**: ``100 × (1 − p)`` where ``p`` is the percentile of a
  zero per-forecast skill score, i.e. the share of paired forecasts whose skill is ``≥ 0``
  (:func:`percent_improved`). **Ties count as improved** ("greater than or equal to zero",
  Sec. 5.5), and a forecast with ``baseline = 0`` counts as improved iff ``model = 0``.

Conventions: CRPS values must be finite and non-negative — a NaN (a broken forecast) raises
``ValueError`` rather than being dropped, which would bias the share. A skill score whose
baseline is 0 is undefined and returns NaN.

Examples
--------
>>> skill_score(0.5, 1.0)
0.5
>>> percent_improved([1.0, 2.0, 3.0, 5.0], [2.0, 2.0, 4.0, 4.0])     # 3 of 4 with skill ≥ 0
75.0
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["QUARTILE_ROWS", "percent_improved", "skill_quartiles", "skill_score", "table_5_2"]

#: Row labels of Table 5.2 (as in :data:`fairbook.papers.seed003.TABLE_5_2_CHAOS`).
QUARTILE_ROWS = ("Q1", "Q2", "Q3", "percent_improved")


def _losses(x, name) -> np.ndarray:
    a = np.asarray(x, dtype=float)
    if a.size == 0:
        raise ValueError(f"{name} is empty")
    if np.isnan(a).any():
        raise ValueError(f"{name} contains NaN; drop or fix the broken forecasts first")
    if (a < 0).any() or np.isinf(a).any():
        raise ValueError(f"{name} must be finite and non-negative (a CRPS)")
    return a


def skill_score(model, baseline):
    """Eq. 5.10, elementwise: ``1 − model / baseline``; NaN where ``baseline == 0``.

    Parameters
    ----------
    model, baseline : float or array_like (broadcastable), finite and ≥ 0

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> skill_score([1.0, 3.0, 0.0], [2.0, 2.0, 0.0])
    array([ 0.5, -0.5,  nan])
    """
    m, b = _losses(model, "model"), _losses(baseline, "baseline")
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(b > 0, 1.0 - m / np.where(b > 0, b, 1.0), np.nan)
    return float(out) if out.ndim == 0 else out


def skill_quartiles(crps_model, crps_baseline, *, quantiles=(0.25, 0.5, 0.75)) -> np.ndarray:
    """Skill of the quartiles: ``1 − Q_k(model) / Q_k(baseline)``, each set's quantiles apart.

    The two sets need not be paired or of equal size. Quantiles by ``numpy.quantile``'s
    default (linear) rule.

    Parameters
    ----------
    crps_model, crps_baseline : array_like
        Per-forecast CRPS values (flattened).
    quantiles : sequence of float, default (0.25, 0.5, 0.75)

    Returns
    -------
    ndarray, shape (len(quantiles),)

    Examples
    --------
    >>> skill_quartiles([1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 4.0, 6.0, 8.0, 10.0])
    array([0.5, 0.5, 0.5])
    """
    m = _losses(crps_model, "crps_model").ravel()
    b = _losses(crps_baseline, "crps_baseline").ravel()
    q = np.asarray(quantiles, dtype=float)
    if q.ndim != 1 or not ((q >= 0) & (q <= 1)).all():
        raise ValueError(f"quantiles must be a 1-d sequence in [0, 1]; got {quantiles!r}")
    return np.atleast_1d(skill_score(np.quantile(m, q), np.quantile(b, q)))


def percent_improved(crps_model, crps_baseline) -> float:
    """Share (in %) of paired forecasts whose skill against the baseline is ``≥ 0``.

    Equals ``100 × (1 − percentile of a zero skill score)`` with the percentile counting the
    scores strictly below zero; ties (``model == baseline``) count as improved.

    Parameters
    ----------
    crps_model, crps_baseline : array_like, same shape
        Per-forecast CRPS of the model and of the baseline on the *same* forecasts.

    Returns
    -------
    float in [0, 100]

    Examples
    --------
    >>> percent_improved([1.0, 1.0], [1.0, 0.5])      # a tie counts, a loss does not
    50.0
    """
    m, b = _losses(crps_model, "crps_model"), _losses(crps_baseline, "crps_baseline")
    if m.shape != b.shape:
        raise ValueError(f"the CRPS sets must be paired (same shape); got {m.shape} and {b.shape}")
    return float(100.0 * np.mean(m <= b))


def table_5_2(crps_ptn, crps_det, crps_tide) -> pd.DataFrame:
    """Table 5.2's chaos columns: rows Q1, Q2, Q3, percent_improved; columns Det., TiDE.

    Parameters
    ----------
    crps_ptn, crps_det, crps_tide : array_like, same shape
        Per-forecast CRPS of PTN, the Normal (deterministic) baseline and TiDE on the same
        test forecasts.

    Returns
    -------
    DataFrame

    Examples
    --------
    >>> t = table_5_2([1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 2.0, 3.0])
    >>> t.loc["Q2", "Det."], t.loc["percent_improved", "TiDE"]
    (np.float64(0.5), np.float64(100.0))
    """
    cols = {}
    for label, base in (("Det.", crps_det), ("TiDE", crps_tide)):
        cols[label] = [*skill_quartiles(crps_ptn, base), percent_improved(crps_ptn, base)]
    return pd.DataFrame(cols, index=list(QUARTILE_ROWS))
