"""Seed 004's seven bias metrics of one attribute, from its per-group confusion counts.

:func:`fairbook.metrics.bias_report` computes DP, DI_BAR, SPSF, FPSF, EOFP, EOTP and BA from
the labels; for a binary problem with a positive label its row is a function of the
per-group counts alone, so the audit (which has the counts already) calls the same
per-class computation on them instead of counting the rows again. The pairwise metrics (DP,
DI_BAR, EOFP, EOTP) compare the two largest groups (ties: the first in sorted order), as
``bias_report`` does; SPSF and FPSF weigh every group by its share of the rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.metrics import BIAS_REPORT_METRICS
from fairbook.metrics.group import _seed004_rows
from fairbook.papers.seed004 import INTRO_DI_BAR_RUNS

__all__ = ["DI_BAR_THRESHOLD", "bias_metrics_table"]

#: Seed 004's threshold for DI_BAR (Sec. 1, "used in a U.S. legal case"): above is unfair.
DI_BAR_THRESHOLD = INTRO_DI_BAR_RUNS["threshold"] / 100


def bias_metrics_table(counts, labels, *, positive=1) -> pd.DataFrame:
    """Seed 004's seven metrics for the positive class, one row, from per-group counts.

    Equal to ``bias_report(y_true, y_pred, groups, positive=positive)`` on the rows those
    counts come from.

    Parameters
    ----------
    counts : ndarray of shape (n_groups, 4)
        ``[TP, FN, FP, TN]`` per group (positive = the positive label).
    labels : array-like of shape (n_groups,)
    positive : label
        The row's index.

    Returns
    -------
    pandas.DataFrame
        Columns ``DP DI_BAR SPSF FPSF EOFP EOTP BA``; empty with fewer than two groups.
        ``attrs["groups"]`` names the pair of the pairwise metrics.

    Examples
    --------
    >>> t = bias_metrics_table(np.array([[1, 0, 0, 1], [0, 1, 0, 1]]), ["a", "b"])
    >>> float(t.loc[1, "DP"]), t.attrs["groups"]
    (0.5, ('a', 'b'))
    """
    counts = np.asarray(counts, dtype=np.int64)
    labels = np.asarray(labels, dtype=object)
    if len(labels) < 2:
        return pd.DataFrame(columns=list(BIAS_REPORT_METRICS))
    sizes = counts.sum(axis=1)
    order = np.argsort(-sizes, kind="stable")
    pair = (int(order[0]), int(order[1]))
    row = _seed004_rows(counts.astype(np.float64), sizes / sizes.sum(), pair)
    positive = positive.item() if isinstance(positive, np.generic) else positive
    frame = pd.DataFrame([row], index=[positive], columns=list(BIAS_REPORT_METRICS))
    frame.attrs["groups"] = tuple(
        v.item() if isinstance(v, np.generic) else v for v in labels[list(pair)]
    )
    return frame
