"""Explorers of "The Objective Fairness Index": pick two groups, see the metrics between them.

The chapter's live explorer is the generic :func:`fairbook_book.widgets.pair_explorer` on the
COMPAS counts of :func:`fairbook.data.predictions.compas_race_counts` (an ipywidget: it
recomputes in JupyterLab, for any counts, and the HTML book shows the snapshot taken when
the page was built). It serves any per-group counts, so it lives in :mod:`fairbook_book.widgets`.

The chapter's own module holds the explorer that also works in the static page:
:func:`comparison_grid` precomputes the Table 3.2 metrics of every ordered pair of groups
(the grid the widget's two dropdowns span, with the same :func:`fairbook.metrics.compare`
the widget calls), and :func:`comparison_chart` draws it as a Vega-Lite chart whose two
dropdowns the browser redraws without a kernel (:func:`fairbook_book.charts.vega_chart`).

Examples
--------
>>> counts = pd.DataFrame({"TP": [1, 7], "FN": [0, 0], "FP": [0, 1], "TN": [5, 10]},
...                       index=["i", "j"])
>>> grid = comparison_grid(counts)
>>> len(grid), sorted(p["name"] for p in comparison_chart(grid).to_dict()["params"])
(20, ['group_i', 'group_j'])
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from fairbook.metrics import COMPARISONS, compare, compute

__all__ = ["comparison_chart", "comparison_grid"]

_CELLS = ["TP", "FN", "FP", "TN"]


def _finite_or_nan(value: float, digits: int = 6) -> float:
    value = float(value)
    return round(value, digits) if math.isfinite(value) else math.nan


def comparison_grid(
    counts: pd.DataFrame, *, metrics=("OFI", "DI", "DPPL", "DCA", "TE")
) -> pd.DataFrame:
    """The metrics between every ordered pair of groups, as the pair explorer shows them.

    Parameters
    ----------
    counts : pandas.DataFrame
        Per-group ``TP FN FP TN`` (one row per group; the index names the groups), as given
        to :func:`fairbook_book.widgets.pair_explorer`.
    metrics : iterable of str, default ("OFI", "DI", "DPPL", "DCA", "TE")
        Comparison metrics of :data:`fairbook.metrics.COMPARISONS`.

    Returns
    -------
    pandas.DataFrame
        One row per ``group_i, group_j, metric`` (every ordered pair, a group with itself
        included, as the widget allows) with ``score`` (:func:`fairbook.metrics.compare`,
        rounded to 6 places; NaN where undefined or infinite), ``no_bias`` (the metric's
        no-bias value) and ``pair`` (a line with both groups' counts and marginal
        benefits).

    Examples
    --------
    >>> counts = pd.DataFrame({"TP": [1, 7], "FN": [0, 0], "FP": [0, 1], "TN": [5, 10]},
    ...                       index=["i", "j"])
    >>> grid = comparison_grid(counts, metrics=["OFI"])
    >>> grid.query("group_i == 'j' and group_j == 'i'").score.item()
    0.055556
    """
    missing = [c for c in _CELLS if c not in counts.columns]
    if missing:
        raise ValueError(f"counts needs the columns TP, FN, FP, TN; missing {missing}")
    if counts.empty:
        raise ValueError("counts has no groups")
    keys = list(metrics)
    unknown = [m for m in keys if m not in COMPARISONS]
    if not keys or unknown:
        raise ValueError(f"unknown comparison metric(s) {unknown}; choose from {list(COMPARISONS)}")
    matrices = {str(g): counts.loc[g, _CELLS].to_numpy(np.float64) for g in counts.index}

    def describe(group: str) -> str:
        cm = matrices[group]
        benefit = float(compute("B", cm))
        cells = ", ".join(f"{name} {int(v)}" for name, v in zip(_CELLS, cm, strict=True))
        shown = "undefined" if math.isnan(benefit) else f"{benefit:.3f}"
        return f"{group}: {cells} (marginal benefit {shown})"

    rows = []
    for group_i, cm_i in matrices.items():
        for group_j, cm_j in matrices.items():
            pair = f"i = {describe(group_i)}; j = {describe(group_j)}"
            for metric in keys:
                rows.append(
                    {
                        "group_i": group_i,
                        "group_j": group_j,
                        "metric": metric,
                        "score": _finite_or_nan(compare(metric, cm_i, cm_j)),
                        "no_bias": float(COMPARISONS[metric].pivot),
                        "pair": pair,
                    }
                )
    return pd.DataFrame(rows)


def comparison_chart(grid: pd.DataFrame, *, group_i: str | None = None, group_j: str | None = None):
    """The static pair explorer: a Vega-Lite chart of a :func:`comparison_grid`.

    Two dropdowns pick groups ``i`` and ``j``; one row per metric draws the score as a
    bar from the metric's no-bias value (the thin rule), on an axis that spans the
    metric's scores over all pairs, so that the bars of different pairs compare (for OFI,
    DI and DPPL, a bar to the right of the rule favours ``i``). Above: both groups'
    counts and marginal benefits.

    Parameters
    ----------
    grid : pandas.DataFrame
        From :func:`comparison_grid`.
    group_i, group_j : str, optional
        The first pair (default: the first two groups, as the widget).

    Returns
    -------
    altair.VConcatChart

    Examples
    --------
    >>> counts = pd.DataFrame({"TP": [1, 7], "FN": [0, 0], "FP": [0, 1], "TN": [5, 10]},
    ...                       index=["i", "j"])
    >>> spec = comparison_chart(comparison_grid(counts), group_i="j").to_dict()
    >>> {p["name"]: p["value"] for p in spec["params"]}
    {'group_i': 'j', 'group_j': 'j'}
    """
    import altair as alt

    groups = list(dict.fromkeys(grid["group_i"]))
    metrics = list(dict.fromkeys(grid["metric"]))
    first = groups[0] if group_i is None else str(group_i)
    second = groups[min(1, len(groups) - 1)] if group_j is None else str(group_j)
    for chosen in (first, second):
        if chosen not in groups:
            raise ValueError(f"unknown group {chosen!r}; choose one of {groups}")
    p_i = alt.param(
        name="group_i", value=first, bind=alt.binding_select(options=groups, name="group i ")
    )
    p_j = alt.param(
        name="group_j", value=second, bind=alt.binding_select(options=groups, name="group j ")
    )
    pair = alt.Chart(grid).transform_filter((alt.datum.group_i == p_i) & (alt.datum.group_j == p_j))
    rows = []
    for metric in metrics:
        scores = grid.loc[grid.metric == metric, ["score", "no_bias"]].to_numpy(np.float64)
        finite = scores[np.isfinite(scores)]
        low, high = float(finite.min()), float(finite.max())
        pad = 0.05 * (high - low) if high > low else 0.5
        scale = alt.Scale(domain=[low - pad, high + pad], nice=False, zero=False)
        info = COMPARISONS[metric]
        one = pair.transform_filter(alt.datum.metric == metric).transform_calculate(
            shown="isValid(datum.score) ? format(datum.score, '.4f') : 'undefined (NaN)'"
        )
        bar = one.mark_bar(height=18, color="#1f77b4").encode(
            x=alt.X("no_bias:Q", scale=scale, title=None), x2="score:Q"
        )
        rule = one.mark_rule(color="black", strokeWidth=1.5).encode(
            x=alt.X("no_bias:Q", scale=scale)
        )
        label = one.mark_text(align="left", dx=6, fontSize=11).encode(
            x=alt.value(0), y=alt.value(-8), text="shown:N"
        )
        rows.append(
            (bar + rule + label).properties(
                width=420, height=26, title=f"{metric} — {info.long_name} (no bias: {info.pivot:g})"
            )
        )
    header = (
        pair.transform_filter(alt.datum.metric == metrics[0])
        .mark_text(align="left", fontSize=11, lineBreak="; ")
        .encode(x=alt.value(0), text="pair:N")
        .properties(width=420, height=30)
    )
    return (
        alt.vconcat(header, *rows, spacing=14)
        .add_params(p_i, p_j)
        .configure_view(strokeWidth=0)
        .configure_title(fontSize=11, anchor="start")
    )
