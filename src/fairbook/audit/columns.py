"""Which columns of a table the audit reads, and the checks they pass before anything counts.

A column is named exactly, or by a glob pattern (``pred_*``, ``p_[0-9]``) for the repeated
runs and the posterior samples; a pattern that matches nothing, a missing column, an empty
cell, a probability outside [0, 1] or a non-numeric score is a ``ValueError`` whose one-line
message names the column and the problem. :func:`coerce_option` reads a command-line string
(``--positive 1``, ``--reference race=White``) in the type of the column it refers to.
"""

from __future__ import annotations

import fnmatch

import numpy as np
import pandas as pd

from fairbook.labels import show_value, show_values

__all__ = [
    "check_present",
    "coerce_option",
    "expand_columns",
    "no_missing",
    "numeric_column",
    "probability_columns",
]


def _show_columns(columns) -> str:
    return show_values(np.asarray(list(columns), dtype=object), limit=12)


def expand_columns(columns, patterns, *, option: str) -> list:
    """Column names chosen by ``patterns``: an exact name, or else a glob pattern.

    Matches keep the table's column order; a column matched twice is listed once.

    Parameters
    ----------
    columns : sequence
        The table's column names.
    patterns : str or sequence of str
        Names or glob patterns (``*``, ``?``, ``[...]`` as in :mod:`fnmatch`).
    option : str
        The option's name for messages (``"runs"``, ``"samples"``).

    Raises
    ------
    ValueError
        When a pattern matches no column, or nothing is chosen.

    Examples
    --------
    >>> expand_columns(["y", "pred_2", "pred_1", "p"], "pred_*", option="runs")
    ['pred_2', 'pred_1']
    >>> expand_columns(["y", "p"], ["q*"], option="samples")
    Traceback (most recent call last):
    ...
    ValueError: samples pattern 'q*' matches no column; columns are ['y', 'p']
    """
    columns = list(columns)
    if isinstance(patterns, str) or not np.iterable(patterns):
        patterns = [patterns]
    chosen: list = []
    for pattern in patterns:
        if pattern in columns:
            hits = [pattern]
        elif isinstance(pattern, str):
            hits = [c for c in columns if fnmatch.fnmatchcase(str(c), pattern)]
        else:
            hits = []
        if not hits:
            raise ValueError(
                f"{option} pattern {show_value(pattern)} matches no column; "
                f"columns are {_show_columns(columns)}"
            )
        chosen.extend(c for c in hits if c not in chosen)
    if not chosen:
        raise ValueError(f"{option} names no column")
    return chosen


def check_present(frame: pd.DataFrame, needed: dict) -> None:
    """Refuse a table that lacks a column named by an option.

    Parameters
    ----------
    frame : pandas.DataFrame
    needed : dict
        ``{option: column or list of columns}``, e.g. ``{"y_true": "label"}``.

    Examples
    --------
    >>> check_present(pd.DataFrame({"a": [1]}), {"y_true": "a", "groups": ["sex"]})
    Traceback (most recent call last):
    ...
    ValueError: missing column(s) ['sex'] (groups); columns are ['a']
    """
    missing, options = [], []
    for option, names in needed.items():
        names = [names] if isinstance(names, str) or not np.iterable(names) else list(names)
        lost = [name for name in names if name not in frame.columns]
        if lost:
            missing.extend(lost)
            options.append(option)
    if missing:
        raise ValueError(
            f"missing column(s) {show_values(np.asarray(missing, dtype=object))} "
            f"({', '.join(options)}); columns are {_show_columns(frame.columns)}"
        )


def no_missing(frame: pd.DataFrame, columns) -> None:
    """Refuse empty cells in ``columns`` (only empty cells are missing, see the file reader).

    Examples
    --------
    >>> no_missing(pd.DataFrame({"g": ["a", None]}), ["g"])
    Traceback (most recent call last):
    ...
    ValueError: missing values in {'g': 1}; drop or fill them before auditing
    """
    columns = list(dict.fromkeys(columns))
    counts = {c: int(frame[c].isna().sum()) for c in columns}
    bad = {c: k for c, k in counts.items() if k}
    if bad:
        raise ValueError(f"missing values in {bad}; drop or fill them before auditing")


def numeric_column(frame: pd.DataFrame, column, *, option: str) -> np.ndarray:
    """A column of finite numbers as float64 (booleans are not numbers here).

    Examples
    --------
    >>> numeric_column(pd.DataFrame({"s": [0.2, 3]}), "s", option="score").tolist()
    [0.2, 3.0]
    >>> numeric_column(pd.DataFrame({"s": ["high", "low"]}), "s", option="score")
    Traceback (most recent call last):
    ...
    ValueError: score column 's' holds text, not numbers
    """
    series = frame[column]
    kind = series.dtype.kind if isinstance(series.dtype, np.dtype) else "O"
    if kind not in "iuf":
        what = "booleans" if kind == "b" else "text" if kind in "OUS" else f"{series.dtype}"
        raise ValueError(f"{option} column {show_value(column)} holds {what}, not numbers")
    values = series.to_numpy(dtype=np.float64)
    if not np.isfinite(values).all():
        raise ValueError(
            f"{option} column {show_value(column)} holds infinite values; only finite numbers"
        )
    return values


def probability_columns(frame: pd.DataFrame, columns, *, option: str) -> np.ndarray:
    """Columns of probabilities of the positive label as a float64 array ``(T, n)``.

    Raises
    ------
    ValueError
        When a column is not numeric, holds infinite values or values outside [0, 1].

    Examples
    --------
    >>> probability_columns(pd.DataFrame({"p1": [0.1, 1], "p2": [0.5, 0]}), ["p1", "p2"],
    ...                     option="samples").tolist()
    [[0.1, 1.0], [0.5, 0.0]]
    >>> probability_columns(pd.DataFrame({"p": [0.5, 1.2]}), ["p"], option="samples")
    Traceback (most recent call last):
    ...
    ValueError: samples column 'p' holds values outside [0, 1] (from 0.5 to 1.2); ...
    """
    out = np.empty((len(columns), len(frame)), dtype=np.float64)
    for row, column in enumerate(columns):
        values = numeric_column(frame, column, option=option)
        low, high = float(values.min()), float(values.max())
        if low < 0.0 or high > 1.0:
            raise ValueError(
                f"{option} column {show_value(column)} holds values outside [0, 1] "
                f"(from {low:.3g} to {high:.3g}); give the probability of the positive label"
            )
        out[row] = values
    return out


_TRUE_WORDS = {"true", "1", "yes"}
_FALSE_WORDS = {"false", "0", "no"}


def coerce_option(value, column: pd.Series, *, option: str):
    """A command-line string read as a value of ``column``'s type, or a clear error.

    Values that are not strings are returned unchanged.

    Examples
    --------
    >>> coerce_option("1", pd.Series([0, 1]), option="--positive")
    1
    >>> coerce_option("yes", pd.Series([True, False]), option="--positive")
    True
    >>> coerce_option("1.5", pd.Series([0, 1]), option="--positive")
    Traceback (most recent call last):
    ...
    ValueError: --positive '1.5' is not a whole number, but the column holds integers
    """
    if not isinstance(value, str):
        return value
    kind = column.dtype.kind if isinstance(column.dtype, np.dtype) else "O"
    text = value.strip()
    if kind == "b":
        if text.lower() in _TRUE_WORDS:
            return True
        if text.lower() in _FALSE_WORDS:
            return False
        raise ValueError(f"{option} {value!r} is not true or false, but the column holds booleans")
    if kind in "iuf":
        try:
            number = float(text)
        except ValueError:
            raise ValueError(
                f"{option} {value!r} is not a number, but the column holds numbers"
            ) from None
        if kind == "f":
            return number
        if not number.is_integer():
            raise ValueError(
                f"{option} {value!r} is not a whole number, but the column holds integers"
            )
        return int(number)
    return value
