"""One validated encoding of labels and groups, shared by every function that counts.

:func:`fairbook.confusion.confusion_counts`, :func:`fairbook.confusion.multiclass_counts` and,
through them, the metrics, the audit and the ``fairbook audit`` command turn their inputs into
small integer codes here and nowhere else, so that a label type or an odd value is handled
(or refused) the same way everywhere:

* :func:`label_array` -- a one-dimensional array without missing values, of a type that can be
  compared and sorted (booleans, integers, floats, text, or objects of one kind);
* :func:`binary_indicators` -- "is positive" for the true and the predicted labels of a binary
  problem, after checking that ``positive`` has the labels' type and that no third label
  occurs;
* :func:`encode_values` -- the sorted distinct values and one code per row, by one
  ``np.bincount`` when the values are integers in a short range and by sorting otherwise, so
  that memory grows with the number of rows, never with the size of the values;
* :func:`label_position` -- where a user's label (``positive``, a reference group) sits among
  the distinct values, with its type checked, and a message that lists the values otherwise.

Messages show values as Python would (``1``, ``'a'``), not as numpy scalars (``np.int64(1)``),
and escape control characters.
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

__all__ = [
    "binary_indicators",
    "encode_values",
    "label_array",
    "label_position",
    "show_value",
    "show_values",
]

_NUMERIC_KINDS = "biuf"
_TEXT_KINDS = "US"
_ALLOWED_KINDS = "biufUSOMm"


def show_value(value) -> str:
    """``repr`` of a label as a user typed it: numpy scalars as Python scalars.

    Examples
    --------
    >>> show_value(np.int64(3)), show_value("a\\x1b")
    ('3', "'a\\\\x1b'")
    """
    if isinstance(value, np.generic):
        value = value.item()
    return repr(value)


def show_values(values, *, limit: int = 10) -> str:
    """A short list of labels for a message: the first ``limit`` and how many in all.

    Examples
    --------
    >>> show_values(np.arange(3))
    '[0, 1, 2]'
    >>> show_values(np.arange(30), limit=2)
    '[0, 1, ...] (30 in all)'
    """
    values = list(np.asarray(values).ravel())
    shown = ", ".join(show_value(v) for v in values[:limit])
    if len(values) > limit:
        return f"[{shown}, ...] ({len(values)} in all)"
    return f"[{shown}]"


def label_array(values, name: str) -> np.ndarray:
    """``values`` as a one-dimensional array of comparable labels without missing values.

    Parameters
    ----------
    values : array-like of shape (n,)
    name : str
        What the values are (``"y_true"``, ``"groups"``), for the messages.

    Raises
    ------
    ValueError
        For a scalar or a table, missing values (NaN, None, NA) and complex or structured
        values.

    Examples
    --------
    >>> label_array([True, False], "y_true").dtype
    dtype('bool')
    >>> label_array([1.0, np.nan], "y_true")
    Traceback (most recent call last):
    ...
    ValueError: y_true contains 1 missing value(s) (NaN/None); drop or impute them first
    """
    if isinstance(values, (pd.Series, pd.Index)) and isinstance(values.dtype, pd.CategoricalDtype):
        values = values.astype(object)
    array = np.asarray(values)
    if array.ndim != 1:
        shape = "a single value" if array.ndim == 0 else f"shape {array.shape}"
        raise ValueError(f"{name} must be one-dimensional (one label per row), got {shape}")
    if array.dtype.kind not in _ALLOWED_KINDS:
        raise ValueError(
            f"{name} has values of type {array.dtype} that cannot be used as labels; "
            "use integers, booleans or text"
        )
    if array.dtype.kind in "fO" or array.dtype.kind in "Mm":
        missing = int(pd.isna(array).sum())
        if missing:
            raise ValueError(
                f"{name} contains {missing} missing value(s) (NaN/None); drop or impute them first"
            )
    return array


def _check_label_type(value, kind: str, *, what: str, name: str) -> None:
    """Refuse a label that cannot equal any value of an array of dtype kind ``kind``."""
    if kind == "O" or kind in "Mm":
        return
    is_number = isinstance(value, (numbers.Number, np.bool_)) and not isinstance(
        value, (str, bytes)
    )
    if kind in _NUMERIC_KINDS and not is_number:
        raise ValueError(
            f"{what}={show_value(value)} is not a number but the {name} are numbers; "
            f"give {what} as a number"
        )
    if kind in _TEXT_KINDS and not isinstance(value, (str, bytes)):
        as_text = str(value.item() if isinstance(value, np.generic) else value)
        raise ValueError(
            f"{what}={show_value(value)} is a number but the {name} are text; "
            f"did you mean {what}={as_text!r}?"
        )
    if kind in "biu" and is_number:
        if isinstance(value, (complex, np.complexfloating)) or not float(value).is_integer():
            raise ValueError(
                f"{what}={show_value(value)} is not a whole number but the {name} are integers"
            )
    if kind == "b" and is_number and value not in (0, 1):
        raise ValueError(f"{what}={show_value(value)} cannot be a boolean label; use True or False")


def binary_indicators(y_true: np.ndarray, y_pred: np.ndarray, *, positive):
    """Boolean ``(true_is_positive, pred_is_positive)`` of a binary problem, checked.

    Parameters
    ----------
    y_true, y_pred : ndarray of shape (n,)
        Labels from :func:`label_array`, of equal length.
    positive : scalar
        The positive label. Its type must fit the labels' (a number for numeric or boolean
        labels, text for text labels; ``1``/``0`` stand for ``True``/``False``).

    Raises
    ------
    ValueError
        When ``positive`` has the wrong type, when the labels other than ``positive`` take
        more than one value, or when ``positive`` occurs nowhere while two labels do (a
        misspelt positive would otherwise make every row a negative). Labels that are all one
        value other than ``positive`` are allowed: every row is a negative.

    Examples
    --------
    >>> t, p = binary_indicators(np.array(["y", "n"]), np.array(["y", "y"]), positive="y")
    >>> t.tolist(), p.tolist()
    ([True, False], [True, True])
    >>> binary_indicators(np.array([0, 1]), np.array([1, 1]), positive=2)
    Traceback (most recent call last):
    ...
    ValueError: positive=2 occurs in neither y_true nor y_pred, whose labels are [0, 1]
    """
    if np.ndim(positive) != 0:
        raise ValueError(f"positive must be a single label, got {show_value(positive)}")
    for name, array in (("y_true", y_true), ("y_pred", y_pred)):
        _check_label_type(positive, array.dtype.kind, what="positive", name=f"{name} labels")
    true_pos = np.asarray(y_true == positive, dtype=bool)
    pred_pos = np.asarray(y_pred == positive, dtype=bool)
    if true_pos.shape != y_true.shape or pred_pos.shape != y_pred.shape:  # pragma: no cover
        raise ValueError(f"positive={show_value(positive)} cannot be compared with the labels")
    if y_true.size and y_true.dtype.kind in "biu" and y_pred.dtype.kind in "biu":
        # integers within one step of each other can only be binary: min/max prove it
        low = min(int(y_true.min()), int(y_pred.min()))
        high = max(int(y_true.max()), int(y_pred.max()))
        if high - low <= 1:
            if high != low and positive not in (low, high):
                raise ValueError(
                    f"positive={show_value(positive)} occurs in neither y_true nor y_pred, "
                    f"whose labels are {show_values(np.array([low, high]).astype(y_true.dtype))}"
                )
            return true_pos, pred_pos
    negative = None
    for array, is_pos in ((y_true, true_pos), (y_pred, pred_pos)):
        if not is_pos.all():
            negative = array[int(np.argmin(is_pos))]
            break
    if negative is None:
        return true_pos, pred_pos
    for name, array, is_pos in (("y_true", y_true, true_pos), ("y_pred", y_pred, pred_pos)):
        binary = is_pos | (array == negative)
        if binary.all():
            continue
        if not (true_pos.any() or pred_pos.any()):
            labels = encode_values(np.concatenate([y_true, y_pred]), name="labels")[0]
            raise ValueError(
                f"positive={show_value(positive)} occurs in neither y_true nor y_pred, "
                f"whose labels are {show_values(labels)}"
            )
        extra = encode_values(array[~binary], name=name)[0]
        raise ValueError(
            f"{name} has labels other than the positive label {show_value(positive)} and the "
            f"negative label {show_value(negative)}: {show_values(extra, limit=5)}; this count is "
            "for binary problems (use multiclass_counts / one_vs_rest otherwise)"
        )
    return true_pos, pred_pos


def encode_values(values: np.ndarray, *, name: str = "values"):
    """Sorted distinct values and, per row, the position of its value among them.

    Integers (and booleans) in a range at most ``4 n + 1024`` wide are coded by one
    ``np.bincount`` of presence, without sorting; anything else by hashing
    (``pandas.factorize``) and sorting the distinct values. Either way
    the codes run from 0 to the number of distinct values minus one, so that arrays indexed
    by them grow with the data, not with the labels' magnitude.

    Parameters
    ----------
    values : ndarray of shape (n,)
        From :func:`label_array`.
    name : str
        For the message when the values cannot be ordered (mixed text and numbers).

    Returns
    -------
    uniques : ndarray, sorted, of ``values``' dtype
    codes : ndarray of intp, shape (n,), a fresh array (callers may modify it)

    Examples
    --------
    >>> uniques, codes = encode_values(np.array([10**12, 7, 10**12]))
    >>> uniques.tolist(), codes.tolist()
    ([7, 1000000000000], [1, 0, 1])
    """
    if values.size == 0:
        return values[:0], np.zeros(0, dtype=np.intp)
    if values.dtype.kind in "biu":
        integers = values.view(np.uint8) if values.dtype.kind == "b" else values
        low, high = int(integers.min()), int(integers.max())
        span = high - low + 1
        fits = np.iinfo(np.intp).min <= low and high <= np.iinfo(np.intp).max
        if fits and span <= 4 * values.size + 1024:
            shifted = integers.astype(np.intp, copy=True)
            if low:
                shifted -= low
            present = np.bincount(shifted, minlength=span) > 0
            uniques = (np.flatnonzero(present) + low).astype(values.dtype)
            if present.all():
                return uniques, shifted
            remap = np.cumsum(present, dtype=np.intp) - 1
            return uniques, remap[shifted]
    try:  # hashing, then sorting only the distinct values (np.unique sorts every row)
        codes, uniques = pd.factorize(values, sort=True)
    except TypeError:
        uniques = None
    kinds = {_kind(v) for v in (values[:10_000] if uniques is None else uniques)}
    if uniques is None or len(kinds) > 1:
        raise ValueError(
            f"{name} mix values that cannot be ordered together ({', '.join(sorted(kinds))}), "
            "e.g. 1 and '1' would be two groups; convert them to one type (e.g. all text)"
        )
    uniques = np.asarray(uniques)
    if uniques.dtype != values.dtype:
        uniques = uniques.astype(values.dtype)
    return uniques, codes.astype(np.intp, copy=False)


def _kind(value) -> str:
    """``"text"``, ``"number"`` (booleans included) or the type's name, for mixed-type checks."""
    if isinstance(value, (str, bytes)):
        return "text"
    if isinstance(value, (numbers.Number, np.bool_)):
        return "number"
    return type(value).__name__


def label_position(uniques: np.ndarray, value, *, what: str, name: str) -> int:
    """Index of ``value`` in the sorted distinct labels ``uniques``, type-checked.

    Parameters
    ----------
    uniques : ndarray
        Distinct labels (from :func:`encode_values`).
    value : scalar
        What the user named.
    what, name : str
        The option's name (``"positive"``) and what the labels are (``"classes"``), for the
        message.

    Examples
    --------
    >>> label_position(np.array([False, True]), 1, what="positive", name="classes")
    1
    >>> label_position(np.array(["a", "b"]), "c", what="reference", name="groups")
    Traceback (most recent call last):
    ...
    ValueError: reference='c' is not among the groups: ['a', 'b']
    """
    if np.ndim(value) != 0:
        raise ValueError(f"{what} must be a single label, got {show_value(value)}")
    _check_label_type(value, uniques.dtype.kind, what=what, name=name)
    equal = uniques == value
    hits = np.flatnonzero(equal) if np.ndim(equal) == 1 else np.zeros(0, dtype=np.intp)
    if hits.size == 0:
        raise ValueError(
            f"{what}={show_value(value)} is not among the {name}: {show_values(uniques)}"
        )
    return int(hits[0])
