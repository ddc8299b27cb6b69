"""Confusion counts per group, in one ``np.bincount`` pass.

A binary confusion matrix is stored as the last axis of an array, in the order
``[TP, FN, FP, TN]`` (seed 003, Definition 2.1, read row by row). A batch of matrices
is an array shaped ``[..., 4]``; every metric in :mod:`fairbook.metrics` accepts one.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["CELLS", "confusion_counts", "multiclass_counts", "one_vs_rest"]

#: Names of the four cells, in storage order.
CELLS = ("TP", "FN", "FP", "TN")


def _as_1d(values, name: str) -> np.ndarray:
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {array.shape}")
    if array.dtype.kind == "f" and np.isnan(array).any():
        raise ValueError(f"{name} contains NaN; drop or impute missing labels first")
    if array.dtype.kind == "O" and pd.isna(array).any():
        raise ValueError(f"{name} contains missing values (None/NaN)")
    return array


def _group_index(groups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(labels, index)`` with ``labels[index] == groups``; labels sorted."""
    if groups.dtype.kind in "iub" and groups.size:
        low = int(groups.min())
        span = int(groups.max()) - low + 1
        if span <= 4 * groups.size + 1024:  # dense small integer range: no sort needed
            shifted = (groups - low).astype(np.intp, copy=False)
            present = np.bincount(shifted, minlength=span) > 0
            labels = np.flatnonzero(present) + low
            if present.all():
                return labels.astype(groups.dtype), shifted
            remap = np.cumsum(present) - 1
            return labels.astype(groups.dtype), remap[shifted]
    labels, index = np.unique(groups, return_inverse=True)
    return labels, index.reshape(-1)


def _is_positive(y_true: np.ndarray, y_pred: np.ndarray, positive) -> tuple[np.ndarray, ...]:
    """Boolean ``(true_is_positive, pred_is_positive)``; checks the problem is binary."""
    t = y_true == positive
    p = y_pred == positive
    negatives = []
    for array, is_pos in ((y_true, t), (y_pred, p)):
        if not is_pos.all():
            negatives.append(array[int(np.argmin(is_pos))])
    if negatives:
        negative = negatives[0]
        for name, array, is_pos in (("y_true", y_true, t), ("y_pred", y_pred, p)):
            binary = is_pos | (array == negative)
            if not binary.all():
                extra = np.unique(array[~binary])[:5]
                raise ValueError(
                    f"{name} has labels other than the positive label {positive!r} and the "
                    f"negative label {negative!r}: {list(extra)}; confusion_counts is for "
                    "binary problems (use multiclass_counts / one_vs_rest otherwise)"
                )
    return t, p


def confusion_counts(y_true, y_pred, groups=None, *, positive=1, return_groups=False):
    """Count ``[TP, FN, FP, TN]`` overall or per group.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        True and predicted labels of a binary problem. Any label that is not
        ``positive`` is the negative class; more than two distinct labels raise.
    groups : array-like of shape (n,), optional
        Group membership (any sortable labels). Without it one matrix is returned.
    positive : scalar, default 1
        The label that counts as positive (the beneficial outcome in seed 003).
    return_groups : bool, default False
        Also return the sorted group labels that index the first axis.

    Returns
    -------
    counts : ndarray of int64, shape (4,) or (n_groups, 4)
        ``[TP, FN, FP, TN]``; rows follow the sorted unique group labels.
    group_labels : ndarray, only if ``return_groups``

    Examples
    --------
    >>> confusion_counts([1, 1, 0, 0], [1, 0, 1, 0])
    array([1, 1, 1, 1])
    >>> confusion_counts([1, 0, 1], [1, 1, 1], groups=["a", "b", "b"])
    array([[1, 0, 0, 0],
           [1, 0, 1, 0]])
    """
    y_true = _as_1d(y_true, "y_true")
    y_pred = _as_1d(y_pred, "y_pred")
    if y_true.shape != y_pred.shape:
        raise ValueError(f"y_true and y_pred differ in length: {y_true.size} vs {y_pred.size}")
    t, p = _is_positive(y_true, y_pred, positive)
    # cell index: TP=0, FN=1, FP=2, TN=3
    cell = (2 * ~t + ~p).astype(np.intp)
    if groups is None:
        counts = np.bincount(cell, minlength=4).astype(np.int64)
        return (counts, None) if return_groups else counts
    groups = _as_1d(groups, "groups")
    if groups.shape != y_true.shape:
        raise ValueError(f"groups has length {groups.size}, labels have {y_true.size}")
    labels, index = _group_index(groups)
    counts = np.bincount(4 * index + cell, minlength=4 * labels.size)
    counts = counts.reshape(labels.size, 4).astype(np.int64)
    return (counts, labels) if return_groups else counts


def multiclass_counts(y_true, y_pred, groups=None):
    """Full ``K × K`` confusion matrices per group in one pass.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        Labels of a problem with any number of classes.
    groups : array-like of shape (n,), optional

    Returns
    -------
    classes : ndarray
        Sorted union of the labels in ``y_true`` and ``y_pred``.
    group_labels : ndarray or None
    counts : ndarray of int64, shape (n_groups, K, K) (or (K, K) without groups)
        ``counts[g, a, b]`` = members of group ``g`` with true class ``a`` predicted ``b``.

    Examples
    --------
    >>> classes, _, m = multiclass_counts(["a", "b", "c"], ["a", "c", "c"])
    >>> m.tolist()
    [[1, 0, 0], [0, 0, 1], [0, 0, 1]]
    """
    y_true = _as_1d(y_true, "y_true")
    y_pred = _as_1d(y_pred, "y_pred")
    if y_true.shape != y_pred.shape:
        raise ValueError(f"y_true and y_pred differ in length: {y_true.size} vs {y_pred.size}")
    classes, codes = np.unique(np.concatenate([y_true, y_pred]), return_inverse=True)
    codes = codes.reshape(-1)
    k = classes.size
    pair = codes[: y_true.size] * k + codes[y_true.size :]
    if groups is None:
        return classes, None, np.bincount(pair, minlength=k * k).reshape(k, k).astype(np.int64)
    groups = _as_1d(groups, "groups")
    if groups.shape != y_true.shape:
        raise ValueError(f"groups has length {groups.size}, labels have {y_true.size}")
    labels, index = _group_index(groups)
    counts = np.bincount(index * k * k + pair, minlength=labels.size * k * k)
    return classes, labels, counts.reshape(labels.size, k, k).astype(np.int64)


def one_vs_rest(matrices) -> np.ndarray:
    """Turn ``K × K`` confusion matrices into one-vs-rest ``[TP, FN, FP, TN]`` per class.

    Parameters
    ----------
    matrices : array-like of shape (..., K, K)
        Rows are true classes, columns predicted classes.

    Returns
    -------
    ndarray of shape (..., K, 4)
        For class ``c``: TP = m[c, c], FN = row c minus TP, FP = column c minus TP, TN = rest.

    Examples
    --------
    >>> one_vs_rest([[2, 1], [0, 3]]).tolist()
    [[2, 1, 0, 3], [3, 0, 1, 2]]
    """
    m = np.asarray(matrices)
    if m.ndim < 2 or m.shape[-1] != m.shape[-2]:
        raise ValueError(f"matrices must be shaped (..., K, K), got {m.shape}")
    tp = np.diagonal(m, axis1=-2, axis2=-1)
    fn = m.sum(axis=-1) - tp
    fp = m.sum(axis=-2) - tp
    tn = m.sum(axis=(-2, -1))[..., None] - tp - fn - fp
    return np.stack([tp, fn, fp, tn], axis=-1)
