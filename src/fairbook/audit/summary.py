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


def _reasons(
    n: int, metrics: list, scores: list, gap_ps: list, holes: list, *, alpha: float, min_gap: float
) -> list[str]:
    """The small-group reasons of one group's comparisons, one sentence per kind."""
    reasons = []
    undefined = [m for m, s in zip(metrics, scores, strict=True) if s != s]  # NaN
    if undefined:
        listed = ", ".join(f"{m} ({METRICS[m].undefined_when})" for m in undefined)
        reasons.append(f"undefined in this group: {listed}")
    spread = [(m, p) for m, p in zip(metrics, gap_ps, strict=True) if p >= alpha]
    if spread:
        low, high = min(p for _, p in spread), max(p for _, p in spread)
        span = f"{low:.2g}" if f"{low:.2g}" == f"{high:.2g}" else f"{low:.2g} to {high:.2g}"
        reasons.append(
            f"sampling spread: with {n:,} people a gap of {min_gap:g} would not be significant "
            f"even before adjustment in {', '.join(m for m, _ in spread)} (MATCH p of such a "
            f"gap: {span})"
        )
    hole = [(m, p) for m, p in zip(metrics, holes, strict=True) if p >= alpha]
    if hole:
        listed = ", ".join(f"{m} {p:.0%}" for m, p in hole)
        reasons.append(
            f"holes: share of groups of {n:,} drawn from the reference with the metric "
            f"undefined (Theorem 4.3): {listed}"
        )
    return reasons


def _small_groups(small: pd.DataFrame, *, alpha: float, min_gap: float) -> list[dict]:
    """One entry per (attribute, group) with a small comparison, in order of appearance.

    The rows are grouped with one stable sort (not a pandas ``groupby`` per group), and
    groups with the same size, metrics and p-values share their reasons' text.
    """
    if small.empty:
        return []
    keys = pd.MultiIndex.from_arrays([small["attribute"], small["group"]])
    codes, _ = pd.factorize(keys)
    order = np.argsort(codes, kind="stable")
    first = np.unique(codes, return_index=True)[1]  # first row of each group, by code
    bounds = np.searchsorted(codes[order], np.arange(first.size + 1))
    columns = {
        c: small[c].to_numpy()[order].tolist()
        for c in ("attribute", "group", "n", "metric", "score", "min_gap_p", "p_hole")
    }
    for c in ("exact_size", "size_note"):  # a table of before the sizes has neither
        columns[c] = small[c].to_numpy()[order].tolist() if c in small else [None] * len(order)
    out, memo = [], {}
    for code in range(first.size):
        a, b = int(bounds[code]), int(bounds[code + 1])
        n = int(columns["n"][a])
        metrics = columns["metric"][a:b]
        signature = (
            n,
            tuple(metrics),
            tuple(s != s for s in columns["score"][a:b]),
            tuple(columns["min_gap_p"][a:b]),
            tuple(columns["p_hole"][a:b]),
        )
        if signature not in memo:
            memo[signature] = _reasons(
                n,
                metrics,
                columns["score"][a:b],
                columns["min_gap_p"][a:b],
                columns["p_hole"][a:b],
                alpha=alpha,
                min_gap=min_gap,
            )
        out.append(
            {
                "attribute": columns["attribute"][a],
                "group": columns["group"][a],
                "n": n,
                "metrics": metrics,
                "reasons": list(memo[signature]),
                "exact_sizes": columns["exact_size"][a:b],
                "size_notes": columns["size_note"][a:b],
            }
        )
    return out


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
    >>> from fairbook.audit import audit, predictions_frame
    >>> frame = predictions_frame([1, 0] * 20 + [1, 1, 0], [1, 0] * 20 + [0, 0, 1],
    ...                           ["a"] * 40 + ["b"] * 3)
    >>> s = audit(frame)
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
    small_groups = _small_groups(
        _where(comparisons, comparisons["small"]), alpha=alpha, min_gap=settings["min_gap"]
    )
    small_references = _small_references(comparisons)
    undefined = _rows(
        comparisons[comparisons["verdict"] == "undefined"], ["attribute", "group", "metric", "note"]
    )
    uncertainty_unfair = _uncertainty_unfair(report.tables.get("uncertainty"))
    flips, seven_flips = _flips(report)
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


def _small_references(comparisons: pd.DataFrame) -> list[dict]:
    """Each attribute whose reference group is itself small, with the metrics concerned."""
    out = []
    flagged = _where(comparisons, comparisons["reference_small"])
    for attribute, part in flagged.groupby("attribute", sort=False):
        out.append(
            {
                "attribute": attribute,
                "group": part["reference_group"].iloc[0],
                "n": int(part["reference_n"].iloc[0]),
                "metrics": list(dict.fromkeys(part["metric"])),
            }
        )
    return out


def _uncertainty_unfair(table: pd.DataFrame | None) -> list[dict]:
    """The groups whose uncertainty ratios are flagged unfair (seed 000)."""
    out: list[dict] = []
    if table is None:
        return out
    for measure in ("F_Epis", "F_Alea", "F_Pred"):
        hits = table[table[f"{measure}_flag"] == "unfair"]
        for row in _rows(hits, ["attribute", "group", "n", measure]):
            row["measure"] = measure
            row["ratio"] = row.pop(measure)
            out.append(row)
    return out


def _flips(report) -> tuple[list[dict], list[dict]]:
    """The comparisons and the seven metrics whose verdicts flip between runs."""
    flips: list[dict] = []
    table = report.tables.get("stability")
    if table is not None:
        flips = _rows(
            _where(table, table["flips"]) if "flips" in table else table.iloc[:0],
            ["attribute", "group", "metric", "runs", "share_survives", "share_ratio_unfair"],
        )
    seven_flips: list[dict] = []
    table = report.tables.get("stability_seven_metrics")
    if table is not None and "flips" in table:
        seven_flips = _rows(
            _where(table, table["flips"]), ["attribute", "metric", "runs", "share_unfair"]
        )
    return flips, seven_flips
