"""The book's one number formatter: no floating-point noise, no numpy reprs, no 17 digits.

A floating-point computation that should give 0 gives ``1.1102e-16`` on one machine and
``-5.5511e-17`` on another; a sum that should give ``-0.15`` prints
``-0.15000000000000002``; numpy 2 prints a scalar as ``np.float64(0.5)``. None of these is
what the book means, and the first two change with the processor.
:func:`register_number_format` puts one
rule on every value a chapter shows in a notebook (IPython's display formatters):

* **tables** (``DataFrame``, ``Series``): in each float column, values whose magnitude is
  below :data:`NOISE` (1e-12) of the column's scale print as 0, where the scale is the
  column's largest finite magnitude, and at least 1 (the book's quantities are rates,
  ratios, counts, losses and scores of order one or more). Columns of p-values (named
  ``p``, ``p-value``, ``p_value``, ``... p`` or ``p (...)``) are left alone: a p-value of
  1e-20 is a result. The table's pandas options (precision, float format) still apply;
* **scalars and containers** (``float``, numpy scalars, tuples, lists and dicts of them):
  numbers print with at most 12 significant digits, values below 1e-12 print as 0, and
  numpy scalars print as the Python number they hold.

:func:`clean` is the table rule as a function, for code that renders tables itself.

Examples
--------
>>> import pandas as pd
>>> clean(pd.DataFrame({"gap": [0.5, 1.1102e-16], "p": [0.5, 1e-20]}))
   gap             p
0  0.5  5.000000e-01
1  0.0  1.000000e-20
>>> plain(-0.15000000000000002), plain(2.7756e-17), plain(np.float64(0.5))
('-0.15', '0.0', '0.5')
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

__all__ = [
    "MAX_DECIMALS",
    "NOISE",
    "P_FLOOR",
    "clean",
    "fixed",
    "fixed_point",
    "register_number_format",
    "is_p_value_column",
    "p_value_text",
    "plain",
    "significant",
    "size",
    "tiny",
]

#: Magnitude (relative to a column's scale, at least 1) below which a value is noise.
NOISE = 1e-12
_P_VALUE = re.compile(r"^(p|p[-_ ]?values?|.*\bp|p \(.*\)|.*p-value.*|.*\bp_.*)$", re.IGNORECASE)
_SIGNIFICANT = 12


def is_p_value_column(name) -> bool:
    """Whether a column holds p-values (left as they are by :func:`clean`).

    Examples
    --------
    >>> [is_p_value_column(c) for c in ["p", "Holm p", "p-value", "p (two-sided)", "PPV", "TPR"]]
    [True, True, True, True, False, False]
    """
    return bool(_P_VALUE.match(str(name).strip()))


def _clean_values(values: np.ndarray) -> np.ndarray:
    finite = np.isfinite(values)
    if not finite.any():
        return values
    scale = max(1.0, float(np.abs(values[finite]).max()))
    noise = finite & (np.abs(values) < NOISE * scale) & (values != 0)
    if not noise.any():
        return values
    out = values.copy()
    out[noise] = 0.0
    return out


def clean(table):
    """``table`` with noise in its float columns set to 0 (module docstring).

    Parameters
    ----------
    table : pandas.DataFrame or pandas.Series
        Left unchanged; a copy is returned when anything was zeroed.

    Returns
    -------
    pandas.DataFrame or pandas.Series
    """
    if isinstance(table, pd.Series):
        if not pd.api.types.is_float_dtype(table.dtype) or is_p_value_column(table.name):
            return table
        values = table.to_numpy(dtype=float, na_value=np.nan)
        cleaned = _clean_values(values)
        return (
            table if cleaned is values else pd.Series(cleaned, index=table.index, name=table.name)
        )
    if not isinstance(table, pd.DataFrame):
        return table
    out = None
    for position, (name, column) in enumerate(table.items()):
        if not pd.api.types.is_float_dtype(column.dtype) or is_p_value_column(name):
            continue
        values = column.to_numpy(dtype=float, na_value=np.nan)
        cleaned = _clean_values(values)
        if cleaned is values:
            continue
        if out is None:
            out = table.copy()
        out.isetitem(position, pd.Series(cleaned, index=table.index, dtype=column.dtype))
    return table if out is None else out


def plain(value) -> str:
    """A number as the book prints it outside tables (module docstring).

    Examples
    --------
    >>> plain(1 / 3), plain(np.int64(7)), plain(3.553e-15), plain(float("nan"))
    ('0.333333333333', '7', '0.0', 'nan')
    """
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    number = float(value)
    if not np.isfinite(number):
        return repr(number)
    if abs(number) < NOISE:
        return "0.0"
    return repr(float(f"{number:.{_SIGNIFICANT}g}"))


def size(value: float, *, digits: int = 1) -> str:
    """A small magnitude for prose (an error, a gap): scientific notation with ``digits``
    decimals, or ``below 1e-12`` where it is rounding noise.

    Examples
    --------
    >>> size(1.1102e-16), size(3.2e-5), size(0.0)
    ('below 1e-12', '3.2e-05', '0')
    """
    number = abs(float(value))
    if number == 0:
        return "0"
    if number < NOISE:
        return "below 1e-12"
    return f"{number:.{digits}e}"


def _pretty_number(value, printer, cycle) -> None:
    printer.text(plain(value))


def register_number_format(shell=None) -> bool:
    """Register the book's formatter with IPython (a no-op outside IPython).

    Parameters
    ----------
    shell : IPython shell, optional
        Default: the running one (``IPython.get_ipython()``).

    Returns
    -------
    bool
        Whether a shell was found and the formatters were registered.
    """
    if shell is None:
        try:
            from IPython import get_ipython
        except ImportError:  # pragma: no cover - IPython comes with the kernel
            return False
        shell = get_ipython()
    if shell is None:
        return False
    formatters = shell.display_formatter.formatters
    text = formatters["text/plain"]
    for kind in (float, np.float64, np.float32, np.float16, np.longdouble):
        text.for_type(kind, _pretty_number)
    for kind in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32):
        text.for_type(kind, _pretty_number)
    text.for_type(np.uint64, _pretty_number)
    text.for_type(np.bool_, _pretty_number)
    for kind in (pd.DataFrame, pd.Series):
        text.for_type(kind, lambda obj, p, cycle: p.text(repr(clean(obj))))
    html = formatters["text/html"]
    html.for_type(pd.DataFrame, lambda obj: fixed_point(clean(obj))._repr_html_())
    # a table's text is never cut ("outside 95 % interval [0..."): long text wraps instead
    pd.set_option("display.max_colwidth", None)
    # nor its rows: pandas shows 10 rows of a table longer than 60 with a "..." row between;
    # the book's longest tables (a paper table's every printed number, e.g. seed 004's
    # Table 4 with 108) are shown whole, in their folded evidence sections
    pd.set_option("display.max_rows", 500)
    return True


def _non_finite(number: float) -> str:
    return "NaN" if np.isnan(number) else ("inf" if number > 0 else "-inf")


#: The most decimals a table cell shows (issue 45: no cell with 5 or more decimals).
MAX_DECIMALS = 4
#: p-values below this print as "< 1e-10".
P_FLOOR = 1e-10
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def tiny(value, *, digits: int = 2) -> str:
    """A non-zero number too small for :data:`MAX_DECIMALS` decimals, as a reader writes it:
    ``1.2 × 10⁻⁵`` (`digits` significant digits; never Python's ``1.2e-05``).

    Examples
    --------
    >>> tiny(1.2e-05), tiny(-6e-07), tiny(0.000123456, digits=3)
    ('1.2 × 10⁻⁵', '-6.0 × 10⁻⁷', '1.23 × 10⁻⁴')
    """
    number = float(value)
    if not np.isfinite(number):
        return _non_finite(number)
    if number == 0:
        return "0"
    mantissa, exponent = f"{number:.{int(digits) - 1}e}".split("e")
    return f"{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def fixed(value, *, precision: int | None = None) -> str:
    """A table's float as the book prints it: fixed-point with at most :data:`MAX_DECIMALS`
    decimals, never scientific notation.

    ``precision`` decimals (default: pandas' ``display.precision``), capped at
    :data:`MAX_DECIMALS`; a non-zero value below 0.001 prints as a power of ten with two
    significant digits (``1.2 × 10⁻⁵``), and one that would otherwise round to 0 gets
    :data:`MAX_DECIMALS` decimals, so a small value is never shown as 0, nor as ``1.2e-05``,
    nor with five or more decimals.

    Examples
    --------
    >>> fixed(0.5, precision=3), fixed(99.99, precision=3), fixed(1.2e-05, precision=3)
    ('0.500', '99.990', '1.2 × 10⁻⁵')
    >>> fixed(float("nan")), fixed(-0.0004, precision=2), fixed(0.004, precision=2)
    ('NaN', '-4.0 × 10⁻⁴', '0.0040')
    >>> fixed(0.123456789, precision=6), fixed(0.0, precision=3), fixed(-0.0, precision=3)
    ('0.1235', '0.000', '0.000')
    """
    number = float(value)
    if not np.isfinite(number):
        return _non_finite(number)
    digits = pd.get_option("display.precision") if precision is None else int(precision)
    digits = min(max(digits, 0), MAX_DECIMALS)
    if number != 0 and abs(number) < 1e-3:
        return tiny(number)
    if number != 0 and abs(number) < 0.5 * 10.0**-digits:
        digits = MAX_DECIMALS
    if number == 0:
        number = 0.0  # never "-0.000"
    return f"{number:.{digits}f}"


def p_value_text(value) -> str:
    """A p-value as the book prints it: 3 decimals from 0.01, 4 below, scientific with two
    significant digits below 0.001 (p-value columns may be scientific) and ``< 1e-10``
    below :data:`P_FLOOR` (a smaller p-value says nothing more, and its digits are the
    floating-point arithmetic's, not the data's).

    Examples
    --------
    >>> p_value_text(0.5), p_value_text(0.0456), p_value_text(0.0012), p_value_text(2.3e-05)
    ('0.500', '0.046', '0.0012', '2.3e-05')
    >>> p_value_text(1e-20), p_value_text(float("nan"))
    ('< 1e-10', 'NaN')
    """
    number = float(value)
    if not np.isfinite(number):
        return _non_finite(number)
    if number < P_FLOOR:
        return "< 1e-10"
    if number < 1e-3:
        return f"{number:.1e}"
    return f"{number:.4f}" if number < 0.01 else f"{number:.3f}"


def _integral(column: pd.Series) -> bool:
    """Whether every finite value of `column` is a whole number, to floating-point rounding
    (``100 * 0.2`` is 20.000000000000004: a whole percentage)."""
    values = column.to_numpy(dtype=float, na_value=np.nan)
    finite = values[np.isfinite(values)]
    if len(finite) == 0:
        return False
    whole = np.round(finite)
    return bool(np.all(np.abs(finite - whole) <= 1e-9 * np.maximum(1.0, np.abs(whole))))


def _integer_text(value) -> str:
    number = float(value)
    return _non_finite(number) if not np.isfinite(number) else str(int(round(number)))


def significant(value, *, digits: int = 4) -> str:
    """A number with `digits` significant digits in fixed-point notation (for a cell that
    holds numbers of any size, such as the ledger's paper values): never scientific, trailing
    zeros dropped, rounding noise (below :data:`NOISE`) printed as 0.

    Examples
    --------
    >>> significant(25934.2), significant(6e-07), significant(0.123456), significant(2.8e-17)
    ('25934', '0.0000006', '0.1235', '0')
    >>> significant(float("nan")), significant(-1.5), significant(3.0)
    ('NaN', '-1.5', '3')
    """
    number = float(value)
    if not np.isfinite(number):
        return _non_finite(number)
    if abs(number) < NOISE:
        return "0"
    decimals = max(0, int(digits) - 1 - int(np.floor(np.log10(abs(number)))))
    text = f"{number:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


#: A replication table's columns of numbers that mix counts and rates.
_JUDGED_COLUMNS = ("paper", "ours", "difference")


def _count_or_fixed(value) -> str:
    number = float(value)
    if np.isfinite(number) and abs(number - round(number)) <= 1e-9 * max(1.0, abs(number)):
        return _integer_text(number)
    return fixed(number)


def fixed_point(table):
    """``table`` for display, its float columns as text by the book's one number policy:

    * a column of whole numbers (counts held as floats) prints as integers (``5``, never
      ``5.0000``);
    * the paper, ours and difference columns of a replication table (a table with
      ``attrs["rows"]``, :func:`fairbook_book.replication.replication_table`) mix counts
      (300 holes) with rates (0.2236): each whole number prints as an integer and every
      other number by :func:`fixed`, so a count is never ``300.0000``;
    * p-value columns (:func:`is_p_value_column`) print by :func:`p_value_text`
      (``< 1e-10``, ``2.3e-05``, ``0.046``);
    * any other float column prints fixed-point by :func:`fixed`: at most
      :data:`MAX_DECIMALS` decimals, tiny values as ``1.2 × 10⁻⁵``.

    Anything that is not a DataFrame is returned as it is; the caller's table is not changed.

    Examples
    --------
    >>> t = pd.DataFrame({"gap": [5e-5, 99.99], "p": [1e-20, 0.5], "n": [5.0, 10.0]})
    >>> fixed_point(t).to_dict("list")
    {'gap': ['5.0 × 10⁻⁵', '99.9900'], 'p': ['< 1e-10', '0.500'], 'n': ['5', '10']}
    >>> fixed_point(pd.DataFrame({"%": [100 * 0.2, 100 * 0.3]}))["%"].tolist()
    ['20', '30']
    >>> judged = pd.DataFrame({"paper": [5.0, 0.23], "ours": [15.0, 0.0604]})
    >>> judged.attrs["rows"] = []  # as a replication table carries them
    >>> fixed_point(judged).to_dict("list")
    {'paper': ['5', '0.2300'], 'ours': ['15', '0.0604']}
    """
    if not isinstance(table, pd.DataFrame):
        return table
    judged = _JUDGED_COLUMNS if table.attrs.get("rows") is not None else ()
    out = None
    for position, (name, column) in enumerate(table.items()):
        label = name[-1] if isinstance(name, tuple) else name
        if column.dtype.kind != "f":
            continue
        if label in judged:
            shown = column.map(_count_or_fixed)
        elif is_p_value_column(label):
            shown = column.map(p_value_text)
        elif _integral(column):
            shown = column.map(_integer_text)
        else:
            shown = column.map(fixed)
        if out is None:
            out = table.copy()
        out.isetitem(position, shown.astype(object))
    return table if out is None else out
