"""Adjusting many p-values at once: Holm's step-down method.

An audit or a chapter that tests many groups and metrics at once controls the family-wise
error rate with **Holm's step-down method** (Holm 1979), which holds without assuming the
tests are independent: sort the ``m`` p-values, multiply the ``i``-th smallest by
``m − i + 1``, make the sequence non-decreasing, cap it at 1. An adjusted p-value at or
below α is exactly a rejection of Holm's procedure at level α.

Used by the audit (:mod:`fairbook.audit.significance`) and by chapter 03's MATCH table
(:func:`fairbook_book.chapters.small_groups.runs.match_table`).
"""

from __future__ import annotations

import numpy as np

__all__ = ["holm"]


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
    given = np.asarray(pvalues, dtype=np.float64)
    p = given.ravel()
    out = np.full(p.shape, np.nan)
    finite = np.flatnonzero(np.isfinite(p))
    if finite.size:
        order = finite[np.argsort(p[finite], kind="stable")]
        m = order.size
        out[order] = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    return out.reshape(given.shape)
