"""Calibration: reliability-diagram data and the expected calibration error (ECE).

Seed 000's Fig. 2 plots, for a BNN on COMPAS, the accuracy of the predictions in bins of
their confidence. With ``mode="top-label"`` (the default, Guo et al. 2017) the confidence
of a prediction is its largest class probability and "accurate" means the predicted class
is the true one; with ``mode="positive"`` it is the probability of class 1 against the
share of actual positives (scikit-learn's ``calibration_curve``). Bins are
``n_bins`` equal-width intervals of [0, 1] (the first closed on the left, every other
open on the left), and

.. math:: \\mathrm{ECE} = \\sum_b \\frac{n_b}{N} \\left|\\mathrm{acc}_b - \\mathrm{conf}_b\\right|.

A *temperature* :math:`\\tau` rescales each Monte Carlo sample's logits,
:math:`p \\propto \\exp(\\log p/\\tau)`: below 1 it sharpens every sample (the same argmax,
so the same predictions), above 1 it softens it. :func:`aleatoric_temperature` finds the
:math:`\\tau` at which a model's mean aleatoric uncertainty reaches a target level, a
diagnostic of how much more (or less) confident one model is than another.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = [
    "aleatoric_temperature",
    "expected_calibration_error",
    "reliability_diagram",
    "temper",
]

_MODES = ("top-label", "positive")


def _check_options(n_bins, mode) -> int:
    """Validate ``n_bins`` (an integer >= 1) and ``mode``; return ``n_bins`` as an int."""
    if isinstance(n_bins, (bool, np.bool_)) or not isinstance(n_bins, (int, np.integer)):
        raise TypeError(
            f"n_bins must be an integer >= 1 (the number of equal-width bins), got "
            f"{n_bins!r} of type {type(n_bins).__name__}"
        )
    if n_bins < 1:
        raise ValueError(f"n_bins must be an integer >= 1, got {n_bins!r}")
    if not isinstance(mode, str) or mode not in _MODES:
        raise ValueError(f"mode must be one of {_MODES}, got {mode!r}")
    return int(n_bins)


def _confidence_and_hits(probs, y_true, mode):
    probs = np.asarray(probs, dtype=np.float64)
    y_true = np.asarray(y_true)
    if probs.ndim == 3:
        raise ValueError(
            "probs must be (N, C) mean probabilities or (N,) for class 1; "
            "average Monte Carlo samples first (probs.mean(axis=0))"
        )
    if probs.ndim == 1:
        if not ((probs >= 0) & (probs <= 1)).all():
            raise ValueError("probabilities must lie in [0, 1]")
        probs = np.column_stack([1.0 - probs, probs])
    if probs.ndim != 2 or probs.shape[0] == 0:
        raise ValueError(f"probs must have shape (N, C) or (N,); got {probs.shape}")
    if not np.isfinite(probs).all() or probs.min() < 0 or probs.max() > 1:
        raise ValueError("probabilities must be finite and lie in [0, 1]")
    if np.abs(probs.sum(axis=1) - 1.0).max() > 1e-5:
        raise ValueError("each row of probs must sum to 1")
    if y_true.shape != (probs.shape[0],):
        raise ValueError(f"y_true must have shape ({probs.shape[0]},), got {y_true.shape}")
    labels = y_true.astype(np.int64)
    if (labels != y_true).any() or labels.min() < 0 or labels.max() >= probs.shape[1]:
        raise ValueError(f"y_true must hold class indices 0..{probs.shape[1] - 1}")
    if mode == "top-label":
        return probs.max(axis=1), (probs.argmax(axis=1) == labels).astype(np.float64)
    if probs.shape[1] != 2:
        raise ValueError("mode='positive' needs two classes")
    return probs[:, 1], (labels == 1).astype(np.float64)


def reliability_diagram(
    probs, y_true, *, n_bins: int = 10, mode: str = "top-label"
) -> pd.DataFrame:
    """Per-bin mean confidence, accuracy and count: the data of a reliability diagram.

    Parameters
    ----------
    probs : array-like, (N, C) or (N,)
        Mean predicted probabilities, or the probability of class 1.
    y_true : array-like of int, (N,)
        Class indices.
    n_bins : int, default 10
        Number of equal-width bins, an integer >= 1 (Python or NumPy integer; not a
        float such as ``10.0`` and not a bool).
    mode : {'top-label', 'positive'}

    Returns
    -------
    DataFrame
        One row per bin: ``lower, upper, count, confidence, accuracy, gap``
        (``accuracy − confidence``; NaN in empty bins).

    Raises
    ------
    TypeError
        If ``n_bins`` is not an integer (a float or a bool).
    ValueError
        If ``n_bins < 1``, ``mode`` is unknown, or ``probs`` / ``y_true`` are malformed.

    Examples
    --------
    >>> t = reliability_diagram([[0.9, 0.1], [0.6, 0.4], [0.3, 0.7]], [0, 1, 1], n_bins=5)
    >>> t[["count", "accuracy"]].loc[t["count"] > 0].values.tolist()
    [[1.0, 0.0], [1.0, 1.0], [1.0, 1.0]]
    """
    n_bins = _check_options(n_bins, mode)
    confidence, hits = _confidence_and_hits(probs, y_true, mode)
    edges = np.linspace(0.0, 1.0, int(n_bins) + 1)
    index = np.clip(np.searchsorted(edges, confidence, side="left") - 1, 0, n_bins - 1)
    count = np.bincount(index, minlength=n_bins).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_conf = np.bincount(index, weights=confidence, minlength=n_bins) / count
        accuracy = np.bincount(index, weights=hits, minlength=n_bins) / count
    return pd.DataFrame(
        {
            "lower": edges[:-1],
            "upper": edges[1:],
            "count": count,
            "confidence": mean_conf,
            "accuracy": accuracy,
            "gap": accuracy - mean_conf,
        }
    )


def expected_calibration_error(
    probs, y_true, *, n_bins: int = 10, mode: str = "top-label"
) -> float:
    """ECE: the count-weighted mean ``|accuracy − confidence|`` over bins.

    Parameters
    ----------
    probs, y_true, n_bins, mode
        As in :func:`reliability_diagram` (and validated the same way).

    Returns
    -------
    float

    Examples
    --------
    >>> round(expected_calibration_error([[0.9, 0.1], [0.6, 0.4]], [0, 1], n_bins=5), 3)
    0.35
    """
    table = reliability_diagram(probs, y_true, n_bins=n_bins, mode=mode)
    filled = table["count"] > 0
    weights = table.loc[filled, "count"] / table["count"].sum()
    return float((weights * table.loc[filled, "gap"].abs()).sum())


def temper(probs, temperature: float) -> np.ndarray:
    """Monte Carlo class probabilities ``(T, N, C)`` with every sample's logits divided by
    ``temperature`` (softmax of ``log p / τ``); the argmax of each sample is unchanged.

    Examples
    --------
    >>> p = np.array([[[0.25, 0.75]]])
    >>> temper(p, 1.0).round(6).tolist()
    [[[0.25, 0.75]]]
    >>> temper(p, 0.5).round(6).tolist()  # odds 3 become 9
    [[[0.1, 0.9]]]
    """
    from fairbook.uncertainty.decomposition import check_probs

    array = check_probs(probs)
    if not (np.isfinite(temperature) and temperature > 0):
        raise ValueError(f"temperature must be a finite number > 0, got {temperature!r}")
    with np.errstate(divide="ignore"):
        logits = np.log(array) / float(temperature)
    logits -= logits.max(axis=-1, keepdims=True)
    weights = np.exp(logits)
    return weights / weights.sum(axis=-1, keepdims=True)


def aleatoric_temperature(probs, target: float, *, rows=None, bounds=(1e-3, 1e3)) -> float:
    """The temperature :math:`\\tau` (:func:`temper`) at which the mean aleatoric
    uncertainty of ``probs`` over ``rows`` equals ``target``.

    The mean aleatoric uncertainty rises monotonically with :math:`\\tau`; the root is
    found on :math:`\\log\\tau` by Brent's method. NaN where ``target`` lies outside what
    ``bounds`` can reach.

    Parameters
    ----------
    probs : array (T, N, C)
    target : float
        The aleatoric level to reach (e.g. another model's, or a paper's).
    rows : sequence of boolean masks, optional
        Average the per-mask means (a mean of group means, like a table of groups); default
        all rows.
    bounds : (float, float)
        The temperatures searched.

    Examples
    --------
    >>> p = np.array([[[0.25, 0.75]]])  # aleatoric 2 * 0.25 * 0.75 = 0.375
    >>> round(aleatoric_temperature(p, 2 * 0.1 * 0.9), 6)
    0.5
    """
    from scipy.optimize import brentq

    from fairbook.uncertainty.decomposition import check_probs, decompose

    array = check_probs(probs)
    masks = [np.ones(array.shape[1], bool)] if rows is None else [np.asarray(m, bool) for m in rows]
    if any(m.shape != (array.shape[1],) or not m.any() for m in masks):
        raise ValueError("rows must be non-empty boolean masks with one entry per row of probs")
    low, high = (float(b) for b in bounds)
    if not 0 < low < high:
        raise ValueError(f"bounds must satisfy 0 < low < high, got {bounds!r}")

    def gap(log_tau):
        aleatoric = decompose(temper(array, float(np.exp(log_tau))))[1]
        return float(np.mean([aleatoric[m].mean() for m in masks])) - float(target)

    a, b = gap(np.log(low)), gap(np.log(high))
    if not np.isfinite(target) or a * b > 0:
        return float("nan")
    return float(np.exp(brentq(gap, np.log(low), np.log(high), xtol=1e-10)))
