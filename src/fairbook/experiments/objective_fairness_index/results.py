"""Tables of "The Objective Fairness Index" (seed 003 ch. 3), built from per-group counts.

Every function takes per-group confusion counts (``TP FN FP TN``, optionally ``n`` and
``included``, as :func:`fairbook.data.predictions.group_counts` makes them):
:func:`pairwise_scores` gives a two-group metric for every ordered pair (the heat maps of
Figs. 3.2–3.3), :func:`direction_agreement` and :func:`favour_counts` summarise how often DI
and OFI name the same favoured group, and :func:`counterexample_table` lists the pairs of
matrices that break a metric's desirable properties (Table 3.2). No paper numbers here:
they are set beside ours in :mod:`~fairbook.experiments.objective_fairness_index.replication`.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from fairbook.confusion import CELLS
from fairbook.metrics import compare, compute

__all__ = ["counterexample_table", "direction_agreement", "favour_counts", "pairwise_scores"]


def pairwise_scores(counts: pd.DataFrame, metric: str) -> pd.DataFrame:
    """``metric(row group i, column group j)`` for every ordered pair of included groups.

    Examples
    --------
    >>> c = pd.DataFrame({"TP": [1, 7], "FN": [0, 0], "FP": [0, 1], "TN": [5, 10]},
    ...                  index=["i", "j"])
    >>> round(float(pairwise_scores(c, "OFI").loc["i", "j"]), 3)
    -0.056
    """
    if "included" in counts:
        counts = counts[counts["included"]]
    cms = counts[list(CELLS)].to_numpy(dtype=float)
    scores = np.array(compare(metric, cms[:, None, :], cms[None, :, :]), dtype=float)
    np.fill_diagonal(scores, np.nan)  # a group against itself is not a comparison
    frame = pd.DataFrame(scores, index=counts.index, columns=counts.index)
    frame.index.name, frame.columns.name = "group i", "group j"
    return frame


def direction_agreement(counts: pd.DataFrame) -> dict:
    """How often DI (pivot 1) and OFI (pivot 0) name the same favoured group.

    Returns
    -------
    dict
        ``pairs`` (unordered pairs with both defined), ``agree``, ``share``, and
        ``disagreements`` (a list of ``(i, j, DI, OFI)``).

    Examples
    --------
    >>> c = pd.DataFrame({"TP": [1, 7], "FN": [0, 0], "FP": [0, 1], "TN": [5, 10]},
    ...                  index=["i", "j"])
    >>> direction_agreement(c)["share"]
    1.0
    """
    di = pairwise_scores(counts, "DI")
    ofi = pairwise_scores(counts, "OFI")
    pairs, agree, disagreements = 0, 0, []
    for i, j in itertools.combinations(di.index, 2):
        d, o = di.loc[i, j], ofi.loc[i, j]
        if np.isnan(d) or np.isnan(o):
            continue
        pairs += 1
        if np.sign(d - 1) == np.sign(o):
            agree += 1
        else:
            disagreements.append((i, j, float(d), float(o)))
    return {
        "pairs": pairs,
        "agree": agree,
        "share": agree / pairs if pairs else np.nan,
        "disagreements": disagreements,
    }


def favour_counts(counts: pd.DataFrame) -> pd.DataFrame:
    """Per group: in how many of its comparisons DI (> 1) and OFI (> 0) favour it.

    This is how seed 003 summarises Fig. 3.3 ("DI suggests a positive bias for Pacific
    Islanders in 7/8 cases … OFI in 2/8").

    Examples
    --------
    >>> c = pd.DataFrame({"TP": [1, 7], "FN": [0, 0], "FP": [0, 1], "TN": [5, 10]},
    ...                  index=["i", "j"])
    >>> favour_counts(c)["OFI favours"].tolist()
    [0, 1]
    """
    di = pairwise_scores(counts, "DI")
    ofi = pairwise_scores(counts, "OFI")
    return pd.DataFrame(
        {
            "comparisons": di.notna().sum(axis=1),
            "DI favours": (di > 1).sum(axis=1),
            "OFI favours": (ofi > 0).sum(axis=1),
            "PPR": compute("PPR", counts.loc[di.index, list(CELLS)].to_numpy(float)),
            "marginal benefit B": compute("B", counts.loc[di.index, list(CELLS)].to_numpy(float)),
        }
    )


def counterexample_table(checks: dict) -> pd.DataFrame:
    """One row per failed property with the pair of matrices that breaks it.

    Parameters
    ----------
    checks : dict
        Metric → :class:`fairbook.metrics.properties.PropertyCheck`
        (``table_3_2_replication(...).attrs["checks"]``).

    Examples
    --------
    >>> from fairbook.metrics.properties import property_table
    >>> table = counterexample_table(property_table(n_max=3).attrs["checks"])
    >>> "OFI" in set(table["metric"])
    False
    """
    rows = []
    for metric, check in checks.items():
        for prop, example in check.counterexamples.items():
            rows.append(
                {
                    "metric": metric,
                    "property": prop,
                    "counterexample": ", ".join(f"{k} = {v}" for k, v in example.items()),
                }
            )
    return pd.DataFrame(rows, columns=["metric", "property", "counterexample"])
