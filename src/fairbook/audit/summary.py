"""The findings of an audit that a reader needs first, drawn from its tables.

Which comparisons show a disparity that survives MATCH after Holm's adjustment; which
groups are too small for which metric, and why; which values are undefined, and why; which
references are themselves small; which groups' uncertainty is flagged (samples); which
verdicts flip between runs (runs). The text and HTML reports open with it and the JSON
report carries it as ``summary``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.metrics import METRICS

__all__ = ["summarize"]


def _rows(frame: pd.DataFrame, columns) -> list[dict]:
    return [dict(zip(columns, values, strict=True)) for values in frame[list(columns)].values]


def _reasons(part: pd.DataFrame, *, alpha: float, min_gap: float) -> list[str]:
    """The small-group reasons of one group's comparisons, one sentence per kind."""
    n = int(part["n"].iloc[0])
    reasons = []
    undefined = part[part["score"].isna()]
    if len(undefined):
        listed = ", ".join(
            f"{m} ({METRICS[m].undefined_when})" for m in undefined["metric"].tolist()
        )
        reasons.append(f"undefined in this group: {listed}")
    spread = part[part["min_gap_p"] >= alpha]
    if len(spread):
        low, high = spread["min_gap_p"].min(), spread["min_gap_p"].max()
        span = f"{low:.2g}" if f"{low:.2g}" == f"{high:.2g}" else f"{low:.2g} to {high:.2g}"
        reasons.append(
            f"sampling spread: with {n:,} people a gap of {min_gap:g} would not be significant "
            f"even before adjustment in {', '.join(spread['metric'])} (MATCH p of such a gap: "
            f"{span})"
        )
    holes = part[part["p_hole"] >= alpha]
    if len(holes):
        listed = ", ".join(
            f"{m} {p:.0%}" for m, p in zip(holes["metric"], holes["p_hole"], strict=True)
        )
        reasons.append(
            f"holes: share of groups of {n:,} drawn from the reference with the metric "
            f"undefined (Theorem 4.3): {listed}"
        )
    return reasons


def _where(table: pd.DataFrame, mask) -> pd.DataFrame:
    """The rows where ``mask`` holds (an empty mask selects no rows, never columns)."""
    return table.loc[np.asarray(mask, dtype=bool)]


def summarize(report) -> dict:
    """The summary of an :class:`~fairbook.audit.AuditReport` as plain data.

    Returns
    -------
    dict
        ``tests, adjustment, alpha, significant, small_groups, small_references,
        undefined, uncertainty_unfair, flips, seven_metric_flips`` (see the JSON schema in
        :mod:`fairbook.audit.report`).

    Examples
    --------
    >>> from fairbook.audit import audit
    >>> s = audit([1, 0] * 20 + [1, 1, 0], [1, 0] * 20 + [0, 0, 1], ["a"] * 40 + ["b"] * 3)
    >>> [g["group"] for g in s.summary()["small_groups"]]
    ['b']
    """
    settings = report.settings
    comparisons = report.tables["comparisons"]
    alpha = settings["alpha"]
    tests = int(comparisons["p_value"].notna().sum())
    survives = comparisons[comparisons["verdict"] == "disparity survives"]
    significant = _rows(
        survives,
        ["attribute", "group", "metric", "n", "score", "reference_score", "gap", "p_holm"],
    )
    small_groups = []
    small = _where(comparisons, comparisons["small"])
    for (attribute, group), part in small.groupby(["attribute", "group"], sort=False):
        small_groups.append(
            {
                "attribute": attribute,
                "group": group,
                "n": int(part["n"].iloc[0]),
                "metrics": part["metric"].tolist(),
                "reasons": _reasons(part, alpha=alpha, min_gap=settings["min_gap"]),
            }
        )
    small_references = []
    flagged = _where(comparisons, comparisons["reference_small"])
    for attribute, part in flagged.groupby("attribute", sort=False):
        small_references.append(
            {
                "attribute": attribute,
                "group": part["reference_group"].iloc[0],
                "n": int(part["reference_n"].iloc[0]),
                "metrics": list(dict.fromkeys(part["metric"])),
            }
        )
    undefined = _rows(
        comparisons[comparisons["verdict"] == "undefined"], ["attribute", "group", "metric", "note"]
    )
    uncertainty_unfair = []
    table = report.tables.get("uncertainty")
    if table is not None:
        for measure in ("F_Epis", "F_Alea", "F_Pred"):
            hits = table[table[f"{measure}_flag"] == "unfair"]
            for row in _rows(hits, ["attribute", "group", "n", measure]):
                row["measure"] = measure
                row["ratio"] = row.pop(measure)
                uncertainty_unfair.append(row)
    flips = []
    table = report.tables.get("stability")
    if table is not None:
        flips = _rows(
            _where(table, table["flips"]) if "flips" in table else table.iloc[:0],
            ["attribute", "group", "metric", "runs", "share_survives", "share_ratio_unfair"],
        )
    seven_flips = []
    table = report.tables.get("stability_seven_metrics")
    if table is not None:
        if "flips" in table:
            seven_flips = _rows(
                _where(table, table["flips"]), ["attribute", "metric", "runs", "share_unfair"]
            )
    adjustment = (
        f"Holm's step-down adjustment over all {tests} comparisons with a p-value "
        f"(every attribute, group and metric); significant = adjusted p < {alpha:g}"
    )
    if comparisons.empty:
        adjustment = (
            "Nothing to compare: every attribute has a single group, so there is no group to "
            "set against a reference and no test"
        )
    return {
        "tests": tests,
        "adjustment": adjustment,
        "alpha": alpha,
        "significant": significant,
        "small_groups": small_groups,
        "small_references": small_references,
        "undefined": undefined,
        "uncertainty_unfair": uncertainty_unfair,
        "flips": flips,
        "seven_metric_flips": seven_flips,
    }
