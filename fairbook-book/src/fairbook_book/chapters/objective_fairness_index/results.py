"""Tables of "The Objective Fairness Index" (seed 003 ch. 3), built from per-group counts.

Every function takes per-group confusion counts (``TP FN FP TN``, optionally ``n`` and
``included``, as :func:`fairbook.data.predictions.group_counts` makes them):
:func:`pairwise_scores` gives a two-group metric for every ordered pair (the heat maps of
Figs. 3.2–3.3), :func:`direction_agreement` and :func:`favour_counts` summarise how often DI
and OFI name the same favoured group, and :func:`counterexample_table` lists the pairs of
matrices that break a metric's desirable properties (Table 3.2). :func:`benefit_table` works
a pair of groups through step by step (marginal benefits, OFI, predicted positive rates, DI),
and :func:`firefighter_scenarios` does so for the paper's worked example. No paper results
here: they are set beside ours in
:mod:`~fairbook_book.chapters.objective_fairness_index.replication`.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import numpy as np
import pandas as pd

from fairbook.confusion import CELLS
from fairbook.metrics import compare, compute
from fairbook.papers import seed003

__all__ = [
    "benefit_table",
    "counterexample_table",
    "direction_agreement",
    "favour_counts",
    "firefighter_scenarios",
    "pairwise_scores",
]


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


def _example_value(value) -> str:
    """A counterexample's value as a person writes it: 4 significant digits, no noise."""
    if isinstance(value, (list, tuple, np.ndarray)):
        return "[" + ", ".join(_example_value(v) for v in value) + "]"
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.4g}"
    return str(value)


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
                    "counterexample": ", ".join(
                        f"{k} = {_example_value(v)}" for k, v in example.items()
                    ),
                }
            )
    return pd.DataFrame(rows, columns=["metric", "property", "counterexample"])


def _cm_text(cm) -> str:
    return "[" + ", ".join(str(int(v)) if float(v).is_integer() else str(v) for v in cm) + "]"


def benefit_table(pairs: Mapping[str, tuple]) -> pd.DataFrame:
    """OFI and DI of two groups, worked step by step, one row per case.

    Parameters
    ----------
    pairs : mapping
        Case name → ``(cm_i, cm_j)``, each a confusion matrix ``[TP, FN, FP, TN]``.

    Returns
    -------
    DataFrame
        Indexed by case: the two matrices, each group's marginal benefit
        ``B = (FP − FN) / n``, ``OFI = B_i − B_j``, each group's predicted positive rate
        ``PPR = (TP + FP) / n`` and ``DI = PPR_i / PPR_j`` (NaN where undefined).

    Examples
    --------
    >>> t = benefit_table({"example": ([20, 10, 5, 65], [30, 5, 15, 50])})
    >>> t.loc["example", ["B_i", "B_j", "OFI"]].round(2).tolist()
    [-0.05, 0.1, -0.15]
    >>> round(float(t.loc["example", "DI"]), 3)
    0.556
    """
    if not pairs:
        raise ValueError("benefit_table needs at least one pair of confusion matrices")
    rows = {}
    for name, (cm_i, cm_j) in pairs.items():
        cm_i, cm_j = np.asarray(cm_i, dtype=float), np.asarray(cm_j, dtype=float)
        rows[name] = {
            "group i [TP, FN, FP, TN]": _cm_text(cm_i),
            "group j [TP, FN, FP, TN]": _cm_text(cm_j),
            "B_i": float(compute("B", cm_i)),
            "B_j": float(compute("B", cm_j)),
            "OFI": float(compare("OFI", cm_i, cm_j)),
            "PPR_i": float(compute("PPR", cm_i)),
            "PPR_j": float(compute("PPR", cm_j)),
            "DI": float(compare("DI", cm_i, cm_j)),
        }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "case"
    return frame


def firefighter_scenarios() -> pd.DataFrame:
    """The firefighter scenarios of seed 003 Table 3.1 worked through (:func:`benefit_table`).

    The matrices are the paper's inputs (modelled on *Ricci v. DeStefano*); the paper's
    printed OFI and DI are compared with these in
    :func:`~fairbook_book.chapters.objective_fairness_index.replication.table_3_1_replication`.

    Examples
    --------
    >>> t = firefighter_scenarios()
    >>> t.index.tolist()
    ['A', 'B', 'α']
    >>> round(float(t.loc["A", "DI"]), 3)
    0.375
    """
    table = benefit_table({s: (cm_i, cm_j) for s, (cm_i, cm_j, *_) in seed003.TABLE_3_1.items()})
    table.index.name = "scenario"
    return table
