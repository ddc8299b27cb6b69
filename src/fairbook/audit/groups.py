"""Group columns as integer codes, their intersections, and per-group sums by ``np.bincount``.

Every per-group number of the audit is one ``np.bincount`` over the rows: the confusion
counts ``[TP, FN, FP, TN]`` are ``bincount(4 * code + cell)`` (:func:`count_cells`), a
per-group total or mean of a row value is ``bincount(code, weights=value)``
(:func:`group_sums`). A column is coded once (:func:`encode_attribute`): text columns by
hashing (``pandas.factorize``), other labels through :func:`fairbook.labels.encode_values`,
so memory follows the rows, never the label values. The intersection of several columns
(:func:`intersect`) is coded from their codes alone; its groups are the combinations that
occur, labelled ``"White & Female"``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from fairbook.labels import encode_values, label_array

__all__ = [
    "INTERSECTION_SEPARATOR",
    "Attribute",
    "count_cells",
    "encode_attribute",
    "group_sums",
    "intersect",
    "outcome_cells",
]

#: Joins the columns' names and the groups' labels of an intersection.
INTERSECTION_SEPARATOR = " & "


@dataclass(frozen=True)
class Attribute:
    """One sensitive attribute: its groups' sorted labels and one code per row.

    Attributes
    ----------
    name : str
        The column's name, or ``"race & sex"`` for an intersection.
    columns : tuple
        The columns it comes from.
    labels : ndarray
        Distinct labels; ``codes`` index into it.
    codes : ndarray of intp, shape (n,)

    Examples
    --------
    >>> a = encode_attribute(pd.Series(["b", "a", "b"]), name="g")
    >>> a.labels.tolist(), a.codes.tolist(), a.n_groups
    (['a', 'b'], [1, 0, 1], 2)
    """

    name: str
    columns: tuple
    labels: np.ndarray
    codes: np.ndarray

    @property
    def n_groups(self) -> int:
        """Number of groups."""
        return int(self.labels.size)


def encode_attribute(values, *, name) -> Attribute:
    """Code one group column.

    Text columns (pandas' ``str`` dtype) are hashed directly; everything else goes through
    :func:`fairbook.labels.label_array` and :func:`fairbook.labels.encode_values`, which
    refuse missing values and labels that cannot be ordered.

    Parameters
    ----------
    values : pandas.Series or array-like of shape (n,)
    name : str

    Returns
    -------
    Attribute

    Examples
    --------
    >>> encode_attribute([3, 1, 3], name="age").labels.tolist()
    [1, 3]
    """
    if isinstance(values, pd.Series) and isinstance(values.dtype, pd.StringDtype):
        if values.isna().any():
            raise ValueError(
                f"{name} contains {int(values.isna().sum())} missing value(s); "
                "drop or fill them first"
            )
        codes, uniques = pd.factorize(values, sort=True)
        labels = np.asarray(uniques.to_numpy(), dtype=object)
        return Attribute(str(name), (name,), labels, codes.astype(np.intp, copy=False))
    array = label_array(values, str(name))
    labels, codes = encode_values(array, name=str(name))
    return Attribute(str(name), (name,), labels, codes)


def _text(label) -> str:
    return str(label.item() if isinstance(label, np.generic) else label)


def intersect(attributes) -> Attribute:
    """The intersection of several attributes: one group per combination that occurs.

    Groups are ordered by the first attribute's order, then the second's, and so on.

    Raises
    ------
    ValueError
        With fewer than two attributes, or when two combinations would get the same label
        (a label that itself contains ``" & "``).

    Examples
    --------
    >>> race = encode_attribute(["W", "B", "W", "W"], name="race")
    >>> sex = encode_attribute(["f", "m", "m", "f"], name="sex")
    >>> both = intersect([race, sex])
    >>> both.name, both.labels.tolist(), both.codes.tolist()
    ('race & sex', ['B & m', 'W & f', 'W & m'], [1, 0, 2, 1])
    """
    attributes = list(attributes)
    if len(attributes) < 2:
        raise ValueError("intersections need at least two group columns")
    sizes = [a.n_groups for a in attributes]
    combined = np.zeros(attributes[0].codes.size, dtype=np.int64)
    span = 1
    for attribute, size in zip(attributes, sizes, strict=True):
        if span > np.iinfo(np.int64).max // max(size, 1):
            raise ValueError("too many combinations of groups to intersect")
        combined *= size
        combined += attribute.codes
        span *= size
    present, codes = encode_values(combined, name="intersection")
    parts = []
    rest = present.astype(np.int64)
    for size in reversed(sizes):
        rest, part = np.divmod(rest, size)
        parts.append(part)
    parts.reverse()
    labels = np.array(
        [
            INTERSECTION_SEPARATOR.join(
                _text(a.labels[p[i]]) for a, p in zip(attributes, parts, strict=True)
            )
            for i in range(present.size)
        ],
        dtype=object,
    )
    if len(set(labels.tolist())) != labels.size:
        raise ValueError(
            f"the intersection's labels are ambiguous: a group label contains "
            f"{INTERSECTION_SEPARATOR.strip()!r}; rename the groups"
        )
    name = INTERSECTION_SEPARATOR.join(a.name for a in attributes)
    columns = tuple(c for a in attributes for c in a.columns)
    return Attribute(name, columns, labels, codes)


def outcome_cells(true_pos: np.ndarray, pred_pos: np.ndarray) -> np.ndarray:
    """Each row's cell of the confusion matrix: 0 TP, 1 FN, 2 FP, 3 TN.

    Examples
    --------
    >>> outcome_cells(np.array([True, True, False, False]),
    ...               np.array([True, False, True, False])).tolist()
    [0, 1, 2, 3]
    """
    cell = np.full(true_pos.shape, 3, dtype=np.intp)
    cell -= true_pos
    cell -= true_pos
    cell -= pred_pos
    return cell


def count_cells(attribute: Attribute, cells: np.ndarray) -> np.ndarray:
    """``[TP, FN, FP, TN]`` per group: one ``np.bincount`` of ``4 * code + cell``.

    Returns
    -------
    ndarray of int64, shape (n_groups, 4)

    Examples
    --------
    >>> a = encode_attribute(["a", "a", "b"], name="g")
    >>> count_cells(a, np.array([0, 3, 2])).tolist()
    [[1, 0, 0, 1], [0, 0, 1, 0]]
    """
    index = attribute.codes * 4
    index += cells
    counts = np.bincount(index, minlength=4 * attribute.n_groups)
    return counts.astype(np.int64, copy=False).reshape(attribute.n_groups, 4)


def group_sums(attribute: Attribute, weights: np.ndarray) -> np.ndarray:
    """Sum of ``weights`` per group: one ``np.bincount`` with weights.

    Examples
    --------
    >>> a = encode_attribute(["a", "a", "b"], name="g")
    >>> group_sums(a, np.array([0.5, 0.25, 2.0])).tolist()
    [0.75, 2.0]
    """
    return np.bincount(attribute.codes, weights=weights, minlength=attribute.n_groups)
