"""Confusion counts per group, in one ``np.bincount`` pass.

A binary confusion matrix is stored as the last axis of an array, in the order
``[TP, FN, FP, TN]`` (seed 003, Definition 2.1, read row by row). A batch of matrices
is an array shaped ``[..., 4]``; every metric in :mod:`fairbook.metrics` accepts one.

The common case -- 0/1 integer or boolean labels, ``positive`` 0 or 1, and groups coded as
a few thousand small non-negative integers -- takes a dense path (:func:`_dense_counts`):
blocks of rows small enough for the processor's cache are checked with ``max`` and counted by
``np.bincount(4 * group + 2 * true + pred)``, so that the labels are read from memory once and
no temporary the size of the data is made. Every other input goes through
:mod:`fairbook.labels` (codes for any sortable labels, the binary check with its messages).
Both give the same counts; ``tests/test_confusion.py`` compares them.
"""

from __future__ import annotations

import numbers

import numpy as np

from fairbook.labels import binary_indicators, encode_values, label_array

__all__ = ["CELLS", "MAX_CELLS", "confusion_counts", "multiclass_counts", "one_vs_rest"]

#: Names of the four cells, in storage order.
CELLS = ("TP", "FN", "FP", "TN")


#: Most confusion cells (groups × classes², int64) :func:`multiclass_counts` allocates.
MAX_CELLS = 2**27

#: Rows per block of the dense path: a block's int64 key (512 KiB) stays in a 1 MiB L2 cache.
DENSE_BLOCK = 2**16

#: Most group codes (0 .. DENSE_GROUPS - 1) the dense path counts; its counts (4 cells per
#: code) are then never longer than a block.
DENSE_GROUPS = DENSE_BLOCK // 4

#: Blocks whose group codes are all below this are counted two rows at a time, as keys
#: ``first * DENSE_PAIR_CELLS + second`` (``DENSE_PAIR_CELLS**2`` = 4,096 bins).
DENSE_PAIR_GROUPS = 16
DENSE_PAIR_CELLS = 4 * DENSE_PAIR_GROUPS


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
    dense = _dense_counts(y_true, y_pred, groups, positive=positive)
    if dense is not None:
        counts, labels = dense
        return (counts, labels) if return_groups else counts
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


def _as_unsigned(values: np.ndarray) -> np.ndarray:
    """The same bytes read as unsigned integers: a negative value becomes a huge one, so one
    ``max`` bounds the values from both sides."""
    return values.view(np.dtype(f"u{values.dtype.itemsize}"))


def _as_signed(values: np.ndarray) -> np.ndarray:
    """Booleans and signed integers as they are, unsigned ones read as signed (only used on
    values already checked to be small), so that adding them to an int64 key stays integer."""
    return (
        values.view(np.dtype(f"i{values.dtype.itemsize}")) if values.dtype.kind == "u" else values
    )


def _dense_counts(y_true, y_pred, groups, *, positive):
    """``(counts, group_labels)`` by blocks of ``4 * group + 2 * true + pred``, or None.

    Taken when the labels are native booleans or integers that are all 0 or 1, ``positive`` is
    an integer or boolean 0 or 1, and the groups (if any) are native booleans or integers in
    ``0 .. DENSE_GROUPS - 1``. Each block's key is built first and the block checked after,
    while it is in the cache and before the key is counted: one ``max`` per array of its bytes
    read as unsigned (so that a negative value, read as a huge one, fails it too). The first
    block that fails gives None, and the caller takes the general path.

    A block whose group codes are below ``DENSE_PAIR_GROUPS`` is counted in pairs: row ``i``
    of its first half with row ``i`` of its second half, as one key
    ``first * DENSE_PAIR_CELLS + second``. ``np.bincount`` costs about the same per element
    whatever the number of bins, so counting half as many keys saves more than pairing costs;
    each key's count is then its row's plus its column's sum, plus the rows left without a
    partner. Other blocks are counted row by row.

    With ``positive`` 0 the raw cell order ``(t, p) = 00, 01, 10, 11`` is already
    ``[TP, FN, FP, TN]``; with 1 it is reversed. Codes that occur in no row are dropped, as
    :func:`fairbook.labels.encode_values` drops absent values.
    """
    arrays = (y_true, y_pred) if groups is None else (y_true, y_pred, groups)
    if y_true.size == 0 or any(a.dtype.kind not in "biu" or not a.dtype.isnative for a in arrays):
        return None
    if not isinstance(positive, (numbers.Integral, np.bool_)) or positive not in (0, 1):
        return None
    labels_to_check = [_as_unsigned(a) for a in (y_true, y_pred) if a.dtype.kind != "b"]
    codes_to_check = None if groups is None or groups.dtype.kind == "b" else _as_unsigned(groups)
    true, pred = _as_signed(y_true), _as_signed(y_pred)
    group = None if groups is None else _as_signed(groups)
    by_pair = np.zeros(DENSE_PAIR_CELLS**2, dtype=np.int64)
    by_row = np.zeros(0, dtype=np.int64)  # made DENSE_GROUPS codes long if a block needs it
    alone = []  # keys of rows without a partner (the middle row of an odd block)
    key = np.empty(min(DENSE_BLOCK, y_true.size), dtype=np.intp)
    pair = np.empty(key.size // 2, dtype=np.intp)
    for start in range(0, y_true.size, DENSE_BLOCK):
        stop = start + DENSE_BLOCK
        # the key first, reading the block from memory; then the checks, on the block now in
        # the cache, before the key (whatever an unchecked value made of it) is counted
        true_block = true[start:stop]
        block = key[: true_block.size]
        if group is None:
            np.multiply(true_block, 2, out=block)
        else:
            np.multiply(group[start:stop], 2, out=block)
            block += true_block
            block *= 2
        block += pred[start:stop]
        for values in labels_to_check:
            if values[start:stop].max() > 1:
                return None
        top_code = 0 if group is None else 1
        if codes_to_check is not None:
            top_code = int(codes_to_check[start:stop].max())
            if top_code >= DENSE_GROUPS:
                return None
        if top_code < DENSE_PAIR_GROUPS:
            half = block.size // 2
            if block.size % 2:
                alone.append(int(block[half]))
            np.multiply(block[:half], DENSE_PAIR_CELLS, out=pair[:half])
            pair[:half] += block[block.size - half :]
            found = np.bincount(pair[:half])
            by_pair[: found.size] += found
        else:
            if by_row.size == 0:
                by_row = np.zeros(4 * DENSE_GROUPS, dtype=np.int64)
            found = np.bincount(block)
            by_row[: found.size] += found
    square = by_pair.reshape(DENSE_PAIR_CELLS, DENSE_PAIR_CELLS)
    total = np.zeros(max(DENSE_PAIR_CELLS, by_row.size), dtype=np.int64)
    total[:DENSE_PAIR_CELLS] += square.sum(axis=1) + square.sum(axis=0)  # as first, as second
    total[: by_row.size] += by_row
    np.add.at(total, alone, 1)
    counts = total.reshape(-1, 4)
    if positive:
        counts = counts[:, ::-1]
    if groups is None:
        return np.ascontiguousarray(counts[0]), None
    present = np.flatnonzero(counts.any(axis=1))
    return counts[present], present.astype(groups.dtype)


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
