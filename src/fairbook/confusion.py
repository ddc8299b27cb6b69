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


def _dense_range(values: np.ndarray, *, limit: int) -> tuple[int, int] | None:
    """``(low, span)`` when ``values`` are integers in a range short enough to bincount."""
    if values.dtype.kind not in "iub" or values.size == 0:
        return None
    low, high = int(values.min()), int(values.max())
    span = high - low + 1
    return (low, span) if span <= limit else None


def _dense_key(values: np.ndarray, low: int, scale: int) -> np.ndarray:
    """A fresh ``intp`` array ``(values - low) * scale``, computed in place."""
    key = values.astype(np.intp, copy=True)
    if low:
        key -= low
    if scale != 1:
        key *= scale
    return key


def _group_index(groups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(labels, index)`` with ``labels[index] == groups``; labels sorted."""
    labels, index = np.unique(groups, return_inverse=True)
    return labels, index.reshape(-1)


def _integer_binary(y_true: np.ndarray, y_pred: np.ndarray) -> bool:
    """Cheap proof (min/max only) that integer labels take at most two values in all."""
    if y_true.dtype.kind not in "iub" or y_pred.dtype.kind not in "iub" or not y_true.size:
        return False
    bounds = [(int(a.min()), int(a.max())) for a in (y_true, y_pred)]
    if any(high - low > 1 for low, high in bounds):
        return False
    return len({v for bound in bounds for v in bound}) <= 2


def _integer_binary_counts(y_true, y_pred, groups, positive):
    """Fast path for integer 0/1-style labels and integer groups; ``None`` if it does not apply.

    The key ``4·group + 2·(y_true − low) + (y_pred − low)`` is built in place, counted by one
    bincount, and its four columns are reordered to ``[TP, FN, FP, TN]``.
    """
    if not _integer_binary(y_true, y_pred):
        return None
    low = min(int(y_true.min()), int(y_pred.min()))
    if positive not in (low, low + 1) or isinstance(positive, bool) != (y_true.dtype == bool):
        return None
    dense = None if groups is None else _dense_range(groups, limit=4 * groups.size + 1024)
    if groups is not None and dense is None:
        return None
    if groups is None:
        key, n_groups = np.zeros(y_true.size, dtype=np.intp), 1
    else:
        key, n_groups = _dense_key(groups, dense[0], 4), dense[1]
    key += y_true
    key += y_true
    key += y_pred
    if low:
        key -= 3 * low
    raw = np.bincount(key, minlength=4 * n_groups).reshape(n_groups, 4)
    b = int(positive) - low  # the bit of the positive label
    order = [3 * b, 2 * b + (1 - b), 2 * (1 - b) + b, 3 * (1 - b)]
    counts = raw[:, order].astype(np.int64)
    if groups is None:
        return counts[0], None
    present = counts.any(axis=1)
    labels = np.arange(dense[0], dense[0] + dense[1])[present].astype(groups.dtype)
    return counts[present], labels


def _is_positive(y_true: np.ndarray, y_pred: np.ndarray, positive) -> tuple[np.ndarray, ...]:
    """Boolean ``(true_is_positive, pred_is_positive)``; checks the problem is binary."""
    t = y_true == positive
    p = y_pred == positive
    if _integer_binary(y_true, y_pred):
        return t, p
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
    if groups is not None:
        groups = _as_1d(groups, "groups")
        if groups.shape != y_true.shape:
            raise ValueError(f"groups has length {groups.size}, labels have {y_true.size}")
    fast = _integer_binary_counts(y_true, y_pred, groups, positive)
    if fast is not None:
        counts, labels = fast
        return (counts, labels) if return_groups else counts
    t, p = _is_positive(y_true, y_pred, positive)
    # cell index 3 - 2t - p: TP=0, FN=1, FP=2, TN=3
    if groups is None:
        cell = np.full(y_true.size, 3, dtype=np.intp)
        cell -= t
        cell -= t
        cell -= p
        counts = np.bincount(cell, minlength=4).astype(np.int64)
        return (counts, None) if return_groups else counts
    dense = _dense_range(groups, limit=4 * groups.size + 1024)
    if dense is not None:  # small integer groups: no sort, absent values dropped afterwards
        low, span = dense
        key = _dense_key(groups, low, 4)
        labels = np.arange(low, low + span)
    else:
        labels, index = _group_index(groups)
        key = index.astype(np.intp, copy=False) * 4
    key += 3
    key -= t
    key -= t
    key -= p
    counts = np.bincount(key, minlength=4 * labels.size).reshape(labels.size, 4)
    if dense is not None:
        present = counts.any(axis=1)
        counts, labels = counts[present], labels[present].astype(groups.dtype)
    counts = counts.astype(np.int64, copy=False)
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
    if groups is not None:
        groups = _as_1d(groups, "groups")
        if groups.shape != y_true.shape:
            raise ValueError(f"groups has length {groups.size}, labels have {y_true.size}")
    dense_true = _dense_range(y_true, limit=1024)
    dense_pred = _dense_range(y_pred, limit=1024)
    if dense_true is not None and dense_pred is not None:
        # small integer labels: one bincount, no sort; absent classes dropped afterwards
        low = min(dense_true[0], dense_pred[0])
        high = max(dense_true[0] + dense_true[1], dense_pred[0] + dense_pred[1]) - 1
        k = high - low + 1
        pair = _dense_key(y_true, low, k)
        pair += y_pred.astype(np.intp, copy=False)
        if low:
            pair -= low
        classes = np.arange(low, high + 1)
    else:
        classes, codes = np.unique(np.concatenate([y_true, y_pred]), return_inverse=True)
        codes = codes.reshape(-1)
        k = classes.size
        pair = codes[: y_true.size] * k + codes[y_true.size :]
    if groups is None:
        group_labels, n_groups = None, 1
    else:
        dense = _dense_range(groups, limit=4 * groups.size + 1024)
        if dense is not None:
            pair += _dense_key(groups, dense[0], k * k)
            group_labels, n_groups = np.arange(dense[0], dense[0] + dense[1]), dense[1]
        else:
            group_labels, index = _group_index(groups)
            pair += index.astype(np.intp) * (k * k)
            n_groups = group_labels.size
    counts = np.bincount(pair, minlength=n_groups * k * k).reshape(n_groups, k, k)
    if classes.size and classes.dtype.kind == "i" and y_true.dtype.kind in "iub":
        seen = (counts.sum(axis=(0, 2)) + counts.sum(axis=(0, 1))) > 0
        if not seen.all():
            counts, classes = counts[:, seen][:, :, seen], classes[seen]
        classes = classes.astype(np.result_type(y_true.dtype, y_pred.dtype))
    if groups is None:
        return classes, None, counts[0].astype(np.int64, copy=False)
    if group_labels.dtype.kind == "i" and groups.dtype.kind in "iub":
        present = counts.any(axis=(1, 2))
        counts, group_labels = counts[present], group_labels[present].astype(groups.dtype)
    return classes, group_labels, counts.astype(np.int64, copy=False)


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
