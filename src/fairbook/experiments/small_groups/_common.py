"""Input checks and small helpers shared by the role modules of "Small groups".

Private to :mod:`fairbook.experiments.small_groups`: count vectors and count frames, sizes,
metric names, and the wide (one column per setting) view of a CPS run that both the results
and the replication rows of Sec. 4.6 read.
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from fairbook.confusion import CELLS
from fairbook.metrics import METRICS

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


def _wide(table: pd.DataFrame, column: str) -> pd.DataFrame:
    """One column of a CPS run (:func:`~fairbook.experiments.small_groups.runs.cps_experiment`)
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
