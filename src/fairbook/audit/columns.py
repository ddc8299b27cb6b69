"""Which columns of a table the audit reads, and the checks they pass before anything counts.

A column is named exactly, or by a glob pattern (``pred_*``, ``p_[0-9]``) for the repeated
runs and the posterior samples; a pattern that matches nothing, a missing column, an empty
cell, a probability outside [0, 1] or a non-numeric score is a ``ValueError`` whose one-line
message names the column and the problem. :func:`coerce_option` reads a command-line string
(``--positive 1``, ``--reference race=White``) in the type of the column it refers to.
"""

from __future__ import annotations

import fnmatch
import numbers

import numpy as np
import pandas as pd

from fairbook.labels import show_value, show_values

__all__ = [
    "DUPLICATES_ATTR",
    "check_labels",
    "check_present",
    "check_unique",
    "coerce_option",
    "expand_columns",
    "no_missing",
    "numeric_column",
    "numpy_columns",
    "probability_columns",
]

#: ``frame.attrs`` key under which :func:`fairbook.audit.read_predictions` records the column
#: names a file's header repeats (pandas renames the second ``y_pred`` to ``y_pred.1``).
DUPLICATES_ATTR = "fairbook_duplicate_columns"


def _show_columns(columns) -> str:
    return show_values(np.asarray(list(columns), dtype=object), limit=12)


def expand_columns(columns, patterns, *, option: str, reserved=None) -> list:
    """Column names chosen by ``patterns``: an exact name, or else a glob pattern.

    Matches keep the table's column order; a column matched twice is listed once. A pattern
    that also matches a column with another role (``reserved``: ``{column: role}``, e.g. the
    ``y_true`` column for ``runs='y_*'``) is refused rather than silently taken.

    Parameters
    ----------
    columns : sequence
        The table's column names.
    patterns : str or sequence of str
        Names or glob patterns (``*``, ``?``, ``[...]`` as in :mod:`fnmatch`).
    option : str
        The option's name for messages (``"runs"``, ``"samples"``).
    reserved : dict, optional
        ``{column: role}`` of the columns the pattern must not take.

    Raises
    ------
    ValueError
        When a pattern matches no column or a reserved one, or nothing is chosen.

    Examples
    --------
    >>> expand_columns(["y", "pred_2", "pred_1", "p"], "pred_*", option="runs")
    ['pred_2', 'pred_1']
    >>> expand_columns(["y", "p"], ["q*"], option="samples")
    Traceback (most recent call last):
    ...
    ValueError: samples pattern 'q*' matches no column; columns are ['y', 'p']
    >>> expand_columns(["y_true", "y_1"], "y_*", option="runs", reserved={"y_true": "y_true"})
    Traceback (most recent call last):
    ...
    ValueError: runs pattern 'y_*' also matches 'y_true', the y_true column; name the runs ...
    """
    columns = list(columns)
    reserved = dict(reserved or {})
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
        taken = [c for c in hits if c in reserved and pattern not in columns]
        if taken:
            raise ValueError(
                f"{option} pattern {show_value(pattern)} also matches {show_value(taken[0])}, "
                f"the {reserved[taken[0]]} column; name the {option} columns exactly or use a "
                "narrower pattern"
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
    >>> coerce_option("18446744073709551616", pd.Series([0, 2**64], dtype=object), option="p")
    18446744073709551616
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
    if kind in "iu":
        try:  # exactly: a float would turn 2**64 - 1 into 2**64
            return int(text)
        except ValueError:
            pass
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
    if kind == "O":  # mixed, or integers too large for int64 (a CSV's 2**64 stays a Python int)
        for candidate in pd.unique(column.dropna()):
            if isinstance(candidate, str):
                if candidate == value:
                    return value
            elif str(candidate) == text:
                return candidate
    return value


# --------------------------------------------------------------------------- modern dtypes
def _numpy_values(values) -> np.ndarray:
    """One column (Series or Index) without missing values as a numpy array."""
    dtype = values.dtype
    if isinstance(dtype, np.dtype):
        return values.to_numpy()
    if isinstance(dtype, pd.CategoricalDtype):
        categories = _numpy_values(values.cat.categories)
        return categories[np.asarray(values.cat.codes, dtype=np.intp)]
    numpy_dtype = getattr(dtype, "numpy_dtype", None)
    if getattr(dtype, "kind", "O") in "biufmM" and isinstance(numpy_dtype, np.dtype):
        return values.to_numpy(dtype=numpy_dtype)
    return values.to_numpy(dtype=object)  # text (pyarrow or python strings) and the rest


def numpy_columns(frame: pd.DataFrame, columns) -> pd.DataFrame:
    """The ``columns`` of ``frame`` with numpy dtypes, so that every backend counts alike.

    Nullable (``Int64``, ``boolean``, ``Float64``), pyarrow-backed (``int64[pyarrow]``,
    ``dtype_backend="pyarrow"``) and categorical columns become the numpy column with the
    same values (``int64``, ``bool``, ``float64``; a categorical becomes its categories'
    type); pandas' own text dtype stays as it is; pyarrow text becomes Python strings.
    Columns must hold no missing values (:func:`no_missing` first).

    Examples
    --------
    >>> frame = pd.DataFrame({"y": pd.array([1, 0], dtype="Int64"),
    ...                       "g": pd.Categorical([3, 1])})
    >>> numpy_columns(frame, ["y", "g"]).dtypes.astype(str).tolist()
    ['int64', 'int64']
    """
    columns = list(dict.fromkeys(columns))
    out = {}
    for column in columns:
        series = frame[column]
        if isinstance(series.dtype, np.dtype | pd.StringDtype):
            out[column] = series
        else:
            out[column] = pd.Series(_numpy_values(series), index=frame.index, name=column)
    result = pd.DataFrame(
        out, index=frame.index, columns=pd.Index(columns, dtype=object), copy=False
    )
    result.attrs.update(frame.attrs)
    return result


# --------------------------------------------------------------------------- ambiguity
def check_unique(frame: pd.DataFrame, used) -> None:
    """Refuse a table in which a column the audit reads is named twice.

    Both an in-memory table with two columns of one name and a file whose header repeats a
    name (recorded by :func:`fairbook.audit.read_predictions` in ``frame.attrs``; pandas
    renames the second ``y_pred`` to ``y_pred.1``) are refused: which one is meant is unclear.

    Examples
    --------
    >>> check_unique(pd.DataFrame([[1, 0]], columns=["y", "y"]), ["y"])
    Traceback (most recent call last):
    ...
    ValueError: the table has 2 columns named 'y'; rename or drop one so that it is clear ...
    """
    repeated = dict(frame.attrs.get(DUPLICATES_ATTR, {}))
    counts = pd.Index(frame.columns).value_counts()
    repeated.update({name: int(k) for name, k in counts.items() if k > 1})
    if not repeated:
        return
    renamed = {f"{name}.{i}": name for name, k in repeated.items() for i in range(1, k)}
    for column in dict.fromkeys(used):
        name = column if column in repeated else renamed.get(column)
        if name is None:
            continue
        copies = ", ".join(repr(f"{name}.{i}") for i in range(1, repeated[name]))
        how = (
            ""
            if column in counts.index and counts[column] > 1
            else (f" (pandas renamed the other {copies})")
        )
        raise ValueError(
            f"the table has {repeated[name]} columns named {show_value(name)}{how}; rename or "
            "drop one so that it is clear which to audit"
        )


def _looks_numeric(value) -> bool:
    if isinstance(value, bool | np.bool_):
        return False
    if isinstance(value, numbers.Number):
        return True
    if isinstance(value, str):
        try:
            float(value)
        except ValueError:
            return False
        return value.strip() != ""
    return False


def check_labels(series: pd.Series, *, option: str) -> None:
    """Refuse a label column with NUL bytes, or with stray text among numbers.

    A CSV column of 0/1 with one ``?`` is read as text, and the mismatch would otherwise be
    blamed on ``positive``; a NUL byte is the mark of a damaged or binary file. Only text
    and object columns are looked at, through their distinct values.

    Examples
    --------
    >>> check_labels(pd.Series(["1", "0", "?", "0"]), option="y_true")
    Traceback (most recent call last):
    ...
    ValueError: y_true holds text among its numbers: '?' (1 row, the first is data row 3); ...
    """
    dtype = series.dtype
    if isinstance(dtype, np.dtype) and dtype.kind != "O":
        return
    codes, uniques = pd.factorize(series)
    uniques = list(np.asarray(uniques, dtype=object))
    nul = [u for u in uniques if isinstance(u, str) and "\x00" in u]
    if nul:
        row = int(np.flatnonzero(codes == uniques.index(nul[0]))[0]) + 1
        raise ValueError(
            f"{option} holds a NUL byte in {show_value(nul[0])} (data row {row}): the file "
            "looks damaged or binary; fix or drop those rows"
        )
    numeric = [_looks_numeric(u) for u in uniques]
    if any(numeric) and not all(numeric):
        stray = [i for i, is_number in enumerate(numeric) if not is_number]
        rows = np.flatnonzero(np.isin(codes, stray))
        values = show_values(np.asarray([uniques[i] for i in stray], dtype=object), limit=5)
        raise ValueError(
            f"{option} holds text among its numbers: {values[1:-1] if len(stray) == 1 else values} "
            f"({len(rows):,} row{'s' if len(rows) != 1 else ''}, the first is data row "
            f"{int(rows[0]) + 1}); fix or drop those rows"
        )
