"""Confusion counts per group, in one ``np.bincount`` pass.

A binary confusion matrix is stored as the last axis of an array, in the order
``[TP, FN, FP, TN]`` (seed 003, Definition 2.1, read row by row). A batch of matrices
is an array shaped ``[..., 4]``; every metric in :mod:`fairbook.metrics` accepts one.
"""

from __future__ import annotations

import numpy as np

from fairbook.labels import binary_indicators, encode_values, label_array

__all__ = ["CELLS", "MAX_CELLS", "confusion_counts", "multiclass_counts", "one_vs_rest"]

#: Names of the four cells, in storage order.
CELLS = ("TP", "FN", "FP", "TN")


#: Most confusion cells (groups × classes², int64) :func:`multiclass_counts` allocates.
MAX_CELLS = 2**27


def _checked(y_true, y_pred, groups):
    """Validated label arrays of one length (see :mod:`fairbook.labels`)."""
    y_true = label_array(y_true, "y_true")
    y_pred = label_array(y_pred, "y_pred")
    if y_true.shape != y_pred.shape:
        raise ValueError(f"y_true and y_pred differ in length: {y_true.size} vs {y_pred.size}")
    if groups is not None:
        groups = label_array(groups, "groups")
        if groups.shape != y_true.shape:
            raise ValueError(f"groups has length {groups.size}, labels have {y_true.size}")
    return y_true, y_pred, groups


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
    y_true, y_pred, groups = _checked(y_true, y_pred, groups)
    t, p = binary_indicators(y_true, y_pred, positive=positive)
    # cell index 3 - 2t - p: TP=0, FN=1, FP=2, TN=3
    if groups is None:
        cell = np.full(y_true.size, 3, dtype=np.intp)
        labels, n_groups = None, 1
    else:
        labels, cell = encode_values(groups, name="groups")
        cell *= 4
        cell += 3
        n_groups = labels.size
    cell -= t
    cell -= t
    cell -= p
    counts = np.bincount(cell, minlength=4 * n_groups).astype(np.int64, copy=False)
    if groups is not None:
        counts = counts.reshape(n_groups, 4)
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
    y_true, y_pred, groups = _checked(y_true, y_pred, groups)
    classes, codes = encode_values(np.concatenate([y_true, y_pred]), name="labels")
    k = classes.size
    if groups is None:
        group_labels, group_codes, n_groups = None, None, 1
    else:
        group_labels, group_codes = encode_values(groups, name="groups")
        n_groups = group_labels.size
    if n_groups * k * k > MAX_CELLS:
        raise ValueError(
            f"{n_groups} group(s) x {k} classes squared = {n_groups * k * k:,} confusion cells, "
            f"more than the {MAX_CELLS:,} this count allocates; are the labels scores rather "
            "than predicted classes? Pass class labels, or fewer groups"
        )
    if group_codes is None:
        pair = codes[: y_true.size] * k
    else:
        pair = group_codes
        pair *= k
        pair += codes[: y_true.size]
        pair *= k
    pair += codes[y_true.size :]
    counts = np.bincount(pair, minlength=n_groups * k * k).reshape(n_groups, k, k)
    counts = counts.astype(np.int64, copy=False)
    if groups is None:
        return classes, None, counts[0]
    return classes, group_labels, counts


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
    if m.dtype.kind not in "iuf":
        raise ValueError(f"matrices must hold counts (numbers), got dtype {m.dtype}")
    if m.dtype.kind == "f" and not np.isfinite(m).all():
        raise ValueError("matrices contain NaN or infinite counts")
    if (m < 0).any():
        raise ValueError("matrices contain negative counts")
    tp = np.diagonal(m, axis1=-2, axis2=-1)
    fn = m.sum(axis=-1) - tp
    fp = m.sum(axis=-2) - tp
    tn = m.sum(axis=(-2, -1))[..., None] - tp - fn - fp
    return np.stack([tp, fn, fp, tn], axis=-1)
