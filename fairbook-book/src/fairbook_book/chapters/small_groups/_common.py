"""Input checks and small helpers shared by the role modules of "Small groups".

Private to :mod:`fairbook_book.chapters.small_groups`: count vectors and count frames, sizes,
metric names, and the wide (one column per setting) view of a CPS run that both the results
and the replication rows of Sec. 4.6 read.
"""

from __future__ import annotations

import numbers
import re

import numpy as np
import pandas as pd

from fairbook.confusion import CELLS
from fairbook.metrics import METRICS
from fairbook_book.formatting import MAX_DECIMALS, NOISE, tiny

__all__: list[str] = []  # private helpers, imported by name by the role modules


def _counts(cm, *, name: str = "cm") -> np.ndarray:
    """Four non-negative counts ``[TP, FN, FP, TN]`` as floats, not all 0.

    Examples
    --------
    >>> _counts([1, 2, 3, 4]).tolist()
    [1.0, 2.0, 3.0, 4.0]
    >>> _counts([0, 0, 0, 0])
    Traceback (most recent call last):
    ...
    ValueError: cm is empty (all counts are 0)
    """
    array = np.asarray(cm, dtype=np.float64)
    if array.shape != (4,) or not np.isfinite(array).all() or (array < 0).any():
        raise ValueError(f"{name} must be 4 non-negative counts [TP, FN, FP, TN], got {cm!r}")
    if array.sum() <= 0:
        raise ValueError(f"{name} is empty (all counts are 0)")
    return array


def _sizes(sizes, *, minimum: int = 1) -> list[int]:
    """Group sizes as a list of integers ``>= minimum``.

    Examples
    --------
    >>> _sizes(range(2, 5)), _sizes(7)
    ([2, 3, 4], [7])
    """
    out = []
    for size in np.atleast_1d(np.asarray(sizes)).tolist():
        if (
            isinstance(size, bool)
            or not isinstance(size, numbers.Real)
            or not float(size).is_integer()
            or size < minimum
        ):
            raise ValueError(f"sizes must be integers >= {minimum}, got {size!r}")
        out.append(int(size))
    if not out:
        raise ValueError("sizes is empty")
    return out


def _check_frame(counts) -> pd.DataFrame:
    """A non-empty frame of per-group counts with the columns ``TP FN FP TN``.

    Examples
    --------
    >>> _check_frame(pd.DataFrame({"TP": [1], "FN": [0], "FP": [2], "TN": [3]})).shape
    (1, 4)
    """
    if not isinstance(counts, pd.DataFrame):
        raise ValueError(f"counts must be a DataFrame with columns {', '.join(CELLS)}")
    missing = [c for c in CELLS if c not in counts.columns]
    if missing:
        raise ValueError(f"counts lacks column(s) {missing}; need {', '.join(CELLS)}")
    if counts.empty:
        raise ValueError("counts has no groups")
    return counts


def _metric(name) -> str:
    """A metric name of :data:`fairbook.metrics.METRICS`, upper-cased.

    Examples
    --------
    >>> _metric("tpr")
    'TPR'
    """
    if not isinstance(name, str) or name.upper() not in METRICS:
        raise ValueError(f"unknown metric {name!r}; choose one of {', '.join(METRICS)}")
    return name.upper()


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _scale_text(value: float) -> str:
    """A small scale such as ``t`` as a person writes it: a power of ten as ``10⁻³``,
    anything else in fixed-point (never ``1e-06``).

    Examples
    --------
    >>> _scale_text(1e-3), _scale_text(1e-10), _scale_text(1.0), _scale_text(0.25), _scale_text(0)
    ('10⁻³', '10⁻¹⁰', '1', '0.25', '0')
    """
    value = float(value)
    if value > 0:
        exponent = round(float(np.log10(value)))
        if exponent != 0 and np.isclose(value, 10.0**exponent, rtol=1e-9, atol=0):
            return "10" + str(exponent).translate(_SUPERSCRIPT)
    return np.format_float_positional(value, trim="-")


def _fixed_text(value: float, *, significant: int = 2) -> str:
    """A number with ``significant`` digits as a reader writes it: fixed-point down to
    :data:`fairbook_book.formatting.MAX_DECIMALS` decimals (``0.0012``), and below that
    ``3.2 × 10⁻⁵`` (:func:`fairbook_book.formatting.tiny`; never ``0.000032`` or ``3.2e-05``).

    Examples
    --------
    >>> _fixed_text(3.1623e-05), _fixed_text(0.5), _fixed_text(0.0), _fixed_text(0.00123)
    ('3.2 × 10⁻⁵', '0.5', '0', '0.0012')
    """
    number = float(value)
    if number != 0 and abs(number) < 10.0**-MAX_DECIMALS:
        return tiny(number, digits=significant)
    return np.format_float_positional(
        number, precision=significant, unique=False, fractional=False, trim="-"
    )


def _error_text(value: float) -> str:
    """An error for a table's note: ``below 10⁻¹²`` where it is rounding noise
    (:data:`fairbook_book.formatting.NOISE`), else fixed-point with two significant digits.

    Examples
    --------
    >>> _error_text(1.1e-16), _error_text(0.0), _error_text(3.2e-5)
    ('below 10⁻¹²', '0', '3.2 × 10⁻⁵')
    """
    number = abs(float(value))
    if number == 0:
        return "0"
    if number < NOISE:
        return f"below {_scale_text(NOISE)}"
    return _fixed_text(number)


_SCIENTIFIC = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)e([-+]?\d+)(?![\w.])")


def _setting_text(label: str) -> str:
    """A CPS setting's label for reading: a number in scientific notation written as a power
    of ten (``ε = 1e-10`` → ``ε = 10⁻¹⁰``); other labels unchanged.

    Examples
    --------
    >>> _setting_text("ε = 1e-10"), _setting_text("CPS λ = 5"), _setting_text("ε = 2.5e-3")
    ('ε = 10⁻¹⁰', 'CPS λ = 5', 'ε = 2.5·10⁻³')
    """

    def power(match: re.Match) -> str:
        mantissa, exponent = match.group(1), int(match.group(2))
        ten = "10" + str(exponent).translate(_SUPERSCRIPT)
        return ten if float(mantissa) == 1 else f"{mantissa}·{ten}"

    return _SCIENTIFIC.sub(power, str(label))


def _wide(table: pd.DataFrame, column: str) -> pd.DataFrame:
    """One column of a CPS run (:func:`~fairbook_book.chapters.small_groups.runs.cps_experiment`)
    laid out with one row per ``(group, metric, n)`` and one column per setting label.

    Examples
    --------
    >>> run = pd.DataFrame({"group": "g", "metric": "ACC", "n": [5, 5],
    ...                     "setting_label": ["raw", "CPS λ = 5"], "mse": [0.2, 0.1]})
    >>> _wide(run, "mse").columns.tolist()
    ['CPS λ = 5', 'raw']
    """
    return table.pivot_table(
        index=["group", "metric", "n"], columns="setting_label", values=column, aggfunc="first"
    )
