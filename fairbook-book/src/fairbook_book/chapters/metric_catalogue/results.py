"""Tables of "Confusion matrices and the metric catalogue" (seed 003 ch. 2).

The corrected Tables 2.2–2.4 (:func:`catalogue_table`, :func:`catalogue_markdown`), all 18
metrics of one confusion matrix with the reason for each hole (:func:`metric_values`), and
which metrics are undefined for a few named matrices (:func:`hole_table`). Everything is
read off :data:`fairbook.metrics.METRICS`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.metrics import METRICS, compute_all, undefined_reason

from .settings import FAMILY_TITLES

__all__ = ["catalogue_markdown", "catalogue_table", "hole_table", "metric_values"]


def catalogue_table(family: str | None = None) -> pd.DataFrame:
    """The corrected Tables 2.2–2.4 as a DataFrame (LaTeX in the formula columns).

    Parameters
    ----------
    family : {"binomial", "joint ratio", "other"}, optional
        Restrict to one table.

    Examples
    --------
    >>> catalogue_table("joint ratio").index[0]
    'TPR'
    """
    if family is not None and family not in FAMILY_TITLES:
        raise ValueError(f"family must be one of {list(FAMILY_TITLES)}, got {family!r}")
    rows = [
        {
            "metric": m.name,
            "name": m.long_name,
            "family": m.family,
            "formula": m.formula,
            "printed in seed 003": m.paper_formula or "(same)",
            "undefined when": m.undefined_when or "never (n > 0)",
            "meaning": m.description,
        }
        for m in METRICS.values()
        if family in (None, m.family)
    ]
    return pd.DataFrame(rows).set_index("metric")


def catalogue_markdown(family: str) -> str:
    """One corrected table as Markdown with inline math, for ``IPython.display.Markdown``.

    Examples
    --------
    >>> "TP+FN" in catalogue_markdown("joint ratio")
    True
    """
    table = catalogue_table(family)
    lines = [
        f"**{FAMILY_TITLES[family]} (corrected)**",
        "",
        "| metric | name | formula | as printed | undefined when |",
        "|---|---|---|---|---|",
    ]
    for name, row in table.iterrows():
        printed = row["printed in seed 003"]
        printed = printed if printed == "(same)" else f"${printed}$"
        lines.append(
            f"| **{name}** | {row['name']} | ${row['formula']}$ | {printed} | "
            f"{row['undefined when']} |"
        )
    if family == "other":
        lines += ["", _TWO_GROUP_NOTE]
    return "\n".join(lines)


#: Table 2.4 also lists two metrics of *two* matrices; this catalogue holds one-matrix
#: metrics, so they are named here and live with the other comparisons.
_TWO_GROUP_PRINTED = {"TE": r"\frac{TP_1}{FP_1}-\frac{TP_2}{FP_2}", "OFI": None}


def _two_group_note() -> str:
    from fairbook.metrics import COMPARISONS

    parts = []
    for name, printed in _TWO_GROUP_PRINTED.items():
        metric = COMPARISONS[name]
        formula = f"as printed ${printed}$, corrected" if printed else "as printed"
        parts.append(f"**{name}** ({metric.long_name}; {formula} ${metric.formula}$)")
    return (
        "Table 2.4 also lists two metrics that compare *two* groups' matrices, "
        + " and ".join(parts)
        + ". They are computed by `fairbook.metrics.compare`, and the next chapter "
        "replicates their printed values (Tables 3.1 and 3.3)."
    )


_TWO_GROUP_NOTE = _two_group_note()


def metric_values(cm) -> pd.DataFrame:
    """All 18 metrics of one matrix, with the reason for each hole.

    Examples
    --------
    >>> metric_values([0, 0, 3, 4]).loc["TPR", "why undefined"]
    'TP + FN = 0 (no actual positives)'
    """
    values = compute_all(cm)
    if np.ndim(next(iter(values.values()))) != 0:
        raise ValueError("metric_values takes one confusion matrix of shape (4,)")
    return pd.DataFrame(
        {"value": values, "why undefined": {k: undefined_reason(k, cm) for k in values}}
    )


def hole_table(cms: dict) -> pd.DataFrame:
    """Which metrics are undefined for each named matrix (✗ = undefined).

    Parameters
    ----------
    cms : dict
        Name → ``[TP, FN, FP, TN]``.

    Examples
    --------
    >>> hole_table({"no positives": [0, 0, 2, 3]}).loc["no positives", "TPR"]
    '✗'
    """
    rows = {}
    for name, cm in cms.items():
        values = compute_all(cm)
        rows[name] = {k: "✗" if np.isnan(v) else f"{v:.2f}" for k, v in values.items()}
    return pd.DataFrame.from_dict(rows, orient="index")
