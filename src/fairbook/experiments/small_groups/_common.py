"""Input checks and small helpers shared by every section of the small-groups chapter.

Private to :mod:`fairbook.experiments.small_groups`: count vectors and count frames,
sizes, metric names, a fresh axis, and replication tables whose rows are printed bounds.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

from fairbook.confusion import CELLS
from fairbook.metrics import METRICS
from fairbook.replication import replication_table


def _counts(cm, *, name: str = "cm") -> np.ndarray:
    array = np.asarray(cm, dtype=np.float64)
    if array.shape != (4,) or not np.isfinite(array).all() or (array < 0).any():
        raise ValueError(f"{name} must be 4 non-negative counts [TP, FN, FP, TN], got {cm!r}")
    if array.sum() <= 0:
        raise ValueError(f"{name} is empty (all counts are 0)")
    return array


def _sizes(sizes, *, minimum: int = 1) -> list[int]:
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
    if not isinstance(counts, pd.DataFrame):
        raise ValueError(f"counts must be a DataFrame with columns {', '.join(CELLS)}")
    missing = [c for c in CELLS if c not in counts.columns]
    if missing:
        raise ValueError(f"counts lacks column(s) {missing}; need {', '.join(CELLS)}")
    if counts.empty:
        raise ValueError("counts has no groups")
    return counts


def _metric(name) -> str:
    if not isinstance(name, str) or name.upper() not in METRICS:
        raise ValueError(f"unknown metric {name!r}; choose one of {', '.join(METRICS)}")
    return name.upper()


def _axes(ax, figsize=(6, 4)):
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    return ax


def _bound_rows(rows) -> pd.DataFrame:
    """A replication table whose rows are printed *bounds*: verdict = holds / fails.

    Each row's ``paper`` is a bound and ``kind`` says which side ours must be on
    (``"upper"``: ours < paper; ``"lower"``: ours >= paper).
    """
    rows = list(rows)
    table = replication_table(rows)
    verdicts = []
    for row, ours in zip(rows, table["ours"], strict=True):
        if math.isnan(ours):
            verdicts.append("ours undefined")
            continue
        ok = ours < row["paper"] if row["kind"] == "upper" else ours >= row["paper"]
        verdicts.append(f"{row['kind']} bound holds" if ok else f"{row['kind']} bound fails")
    table["verdict"] = verdicts
    return table
