"""Adjusting many p-values at once: Bonferroni, Holm, Benjamini–Hochberg.

An audit or a chapter that tests many groups and metrics at once controls the family-wise
error rate with **Holm's step-down method** (Holm 1979), which holds without assuming the
tests are independent: sort the ``m`` p-values, multiply the ``i``-th smallest by
``m − i + 1``, make the sequence non-decreasing, cap it at 1. An adjusted p-value at or
below α is exactly a rejection of Holm's procedure at level α.

**Bonferroni** multiplies every p-value by ``m`` (Holm rejects everything Bonferroni does,
and sometimes more). **Benjamini–Hochberg** (1995) controls the false discovery rate
instead, for independent or positively dependent tests: the ``i``-th smallest p-value is
multiplied by ``m / i`` and the sequence made non-decreasing from the largest down, so an
adjusted p-value at or below α is exactly a rejection of the BH step-up procedure (reject
the ``k`` smallest, ``k`` the largest ``i`` with ``p_(i) <= i α / m``).

In all three, NaN marks a test that could not be made: it stays NaN and does not count in
``m``; the shape of the input is kept.

Used by the audit (:mod:`fairbook.audit.significance`) and by chapter 03's MATCH table
(:func:`fairbook_book.chapters.small_groups.runs.match_table`).
"""

from __future__ import annotations

import numpy as np

__all__ = ["benjamini_hochberg", "bonferroni", "holm"]


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values; NaN stays NaN and is not counted as a test.

    Parameters
    ----------
    pvalues : array_like of float
        Any shape; NaN marks a test that could not be made.

    Returns
    -------
    numpy.ndarray
        The adjusted p-values, same shape, in ``[0, 1]``; ties keep their input order.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03, np.nan]).round(2).tolist()
    [0.03, 0.06, 0.06, nan]
    """
    return _step(np.asarray(pvalues, dtype=np.float64), _holm_sorted)


def _holm_sorted(p: np.ndarray) -> np.ndarray:
    m = p.size
    return np.maximum.accumulate((m - np.arange(m)) * p)


def bonferroni(pvalues) -> np.ndarray:
    """Bonferroni-adjusted p-values ``min(1, m p)``; NaN stays NaN and is not counted.

    Parameters
    ----------
    pvalues : array_like of float
        Any shape; NaN marks a test that could not be made.

    Returns
    -------
    numpy.ndarray
        The adjusted p-values, same shape, in ``[0, 1]``.

    Raises
    ------
    ValueError
        If a p-value lies outside ``[0, 1]``.

    Examples
    --------
    >>> bonferroni([0.01, 0.04, 0.03, np.nan]).round(2).tolist()
    [0.03, 0.12, 0.09, nan]
    """
    given = _checked(pvalues)
    m = np.count_nonzero(np.isfinite(given))
    return np.minimum(1.0, m * given)


def benjamini_hochberg(pvalues) -> np.ndarray:
    """Benjamini–Hochberg adjusted p-values (false discovery rate); NaN is not counted.

    The ``i``-th smallest of the ``m`` finite p-values becomes
    ``min(1, min_{j >= i} m p_(j) / j)``; at or below α exactly when the step-up procedure
    at level α rejects it. The same values as
    ``scipy.stats.false_discovery_control(p, method="bh")`` on the finite p-values.

    Parameters
    ----------
    pvalues : array_like of float
        Any shape; NaN marks a test that could not be made.

    Returns
    -------
    numpy.ndarray
        The adjusted p-values, same shape, in ``[0, 1]``.

    Raises
    ------
    ValueError
        If a p-value lies outside ``[0, 1]``.

    Examples
    --------
    >>> benjamini_hochberg([0.01, 0.04, 0.03, np.nan]).round(2).tolist()
    [0.03, 0.04, 0.04, nan]
    """
    return _step(_checked(pvalues), _bh_sorted)


def _bh_sorted(p: np.ndarray) -> np.ndarray:
    m = p.size
    return np.minimum.accumulate((p * m / np.arange(1, m + 1))[::-1])[::-1]


def _step(given: np.ndarray, adjust_sorted) -> np.ndarray:
    """Apply a step procedure to the finite p-values in ascending order (ties keep their
    input order), cap at 1, and put NaN back where it was; the shape is kept."""
    p = given.ravel()
    out = np.full(p.shape, np.nan)
    finite = np.flatnonzero(np.isfinite(p))
    if finite.size:
        order = finite[np.argsort(p[finite], kind="stable")]
        out[order] = np.minimum(1.0, adjust_sorted(p[order]))
    return out.reshape(given.shape)


def _checked(pvalues) -> np.ndarray:
    given = np.asarray(pvalues, dtype=np.float64)
    finite = given[np.isfinite(given)]
    if np.isinf(given).any() or ((finite < 0) | (finite > 1)).any():
        raise ValueError("p-values must lie in [0, 1] (NaN marks a test not made)")
    return given
