"""Explorers of "Audit your own model": which groups the audit calls too small, as α and
the minimum gap move.

The audit flags a group as too small for a metric when the metric is undefined there, often
undefined at its size, or when even a gap of ``min_gap`` from the reference would not be
significant at level α (:mod:`fairbook.audit.small_groups`). Both settings are the reader's
choice, so the flags are worth exploring:

* :func:`small_group_explorer` is an ipywidget: it reruns the chapter's audit
  (:func:`~fairbook_book.chapters.audit_your_model.results.compas_audit`) for any α and
  minimum gap in JupyterLab, and the HTML book shows the snapshot taken when the page was
  built;
* :func:`small_group_grid` precomputes the flags of an audit's groups over a grid of α ×
  minimum gap with the library's own rule
  (:func:`fairbook.audit.small_groups.small_group_table`, on the audit's confusion counts),
  and :func:`small_group_chart` draws it as a Vega-Lite chart whose two controls the
  browser redraws without a kernel (:func:`fairbook_book.charts.vega_chart`).

Examples
--------
>>> from fairbook.audit import audit, predictions_frame
>>> frame = predictions_frame([1, 0] * 40 + [1, 0, 0], [1, 0] * 30 + [0, 1] * 10 + [0, 0, 1],
...                           ["a"] * 80 + ["b"] * 3)
>>> grid = small_group_grid(audit(frame), alphas=[0.01, 0.05], min_gaps=[0.05, 0.1])
>>> len(grid.summary), sorted(p["name"] for p in small_group_chart(grid).to_dict()["params"])
(4, ['alpha', 'min_gap'])
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd

from fairbook.audit import AuditReport
from fairbook.audit.fast_match import MatchBatch
from fairbook.audit.small_groups import small_group_table

from .results import compas_audit, small_groups

__all__ = [
    "ALPHAS",
    "MIN_GAPS",
    "SmallGroupGrid",
    "small_group_chart",
    "small_group_explorer",
    "small_group_grid",
]

_CELLS = ["TP", "FN", "FP", "TN"]

#: The significance levels of the static chart (its radio buttons).
ALPHAS = (0.001, 0.01, 0.05, 0.1)
#: The minimum gaps of the static chart (its slider: 0.01 to 0.15 in steps of 0.01).
MIN_GAPS = tuple(round(0.01 * k, 2) for k in range(1, 16))


class SmallGroupGrid(NamedTuple):
    """The precomputed flags of :func:`small_group_grid`.

    ``flags``: one row per ``alpha, min_gap`` and (attribute, group, metric) of the audit's
    comparisons, with ``label`` (``"race: Asian (n = 31)"``), ``n``, ``small`` (bool: the
    audit's flag), ``min_gap_p`` (the MATCH p-value a gap of ``min_gap`` would have at the
    group's size; None where undefined) and ``p_hole`` (the chance the metric is undefined
    at that size). ``summary``: one row per ``alpha, min_gap`` with ``pairs`` (flagged
    (group, metric) pairs), ``groups`` (groups flagged for some metric) and ``label`` (the
    line the chart prints).
    """

    flags: pd.DataFrame
    summary: pd.DataFrame


def _values(values, *, name: str, low: float, high: float) -> list[float]:
    """Distinct, sorted values in (low, high), or a ValueError naming ``name``."""
    try:
        chosen = sorted({float(v) for v in values})
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numbers, got {values!r}") from None
    if not chosen:
        raise ValueError(f"{name} must not be empty")
    bad = [v for v in chosen if not (math.isfinite(v) and low < v < high)]
    if bad:
        raise ValueError(f"{name} must lie strictly between {low:g} and {high:g}, got {bad}")
    return chosen


def small_group_grid(report: AuditReport, *, alphas=ALPHAS, min_gaps=MIN_GAPS) -> SmallGroupGrid:
    """The audit's small-group flags of every group and metric over α × minimum gap.

    For each pair of settings the flags are the library's: the audit's rule
    (:func:`fairbook.audit.small_groups.small_group_table`, the function
    :func:`fairbook.audit.audit` flags with) on the report's per-group confusion counts,
    each group against its attribute's reference — what ``audit(..., alpha=a,
    min_gap=g)`` reports in its ``small`` column, without recomputing the rest of the audit.

    Parameters
    ----------
    report : fairbook.audit.AuditReport
        An audit (only its per-group counts, references and metrics are used).
    alphas : iterable of float, default :data:`ALPHAS`
        Significance levels, each in (0, 1).
    min_gaps : iterable of float, default :data:`MIN_GAPS`
        Minimum gaps, each in (0, 1).

    Returns
    -------
    SmallGroupGrid

    Examples
    --------
    >>> from fairbook.audit import audit, predictions_frame
    >>> frame = predictions_frame([1, 0] * 40 + [1, 0, 0],
    ...                           [1, 0] * 30 + [0, 1] * 10 + [0, 0, 1],
    ...                           ["a"] * 80 + ["b"] * 3)
    >>> grid = small_group_grid(audit(frame), alphas=[0.05], min_gaps=[0.05, 0.5])
    >>> grid.summary.pairs.tolist(), grid.summary.groups.tolist()  # ACC is fine at a 0.5 gap
    ([7, 6], [1, 1])
    """
    alpha_values = _values(alphas, name="alphas", low=0.0, high=1.0)
    gap_values = _values(min_gaps, name="min_gaps", low=0.0, high=1.0)
    groups = report.to_frame("groups")
    metrics = list(report.settings["metrics"])
    blocks = []  # (attribute, labels, sizes, counts, p_ref, batch)
    for attribute in report.attributes:
        part = groups[groups["attribute"] == attribute]
        is_ref = part["is_reference"].to_numpy(dtype=bool)
        if is_ref.sum() != 1 or len(part) < 2:
            continue  # no reference, or nothing to compare with it
        ref = part.loc[is_ref, _CELLS].to_numpy(np.int64)[0]
        others = part[~is_ref]
        p_ref = ref / ref.sum()
        sizes = others["n"].to_numpy(np.int64)
        names = others["group"].astype(str).tolist()
        labels = [f"{attribute}: {g} (n = {n:,})" for g, n in zip(names, sizes, strict=True)]
        counts = others[_CELLS].to_numpy(np.int64)
        blocks.append((attribute, names, labels, sizes, counts, p_ref, MatchBatch(p_ref)))
    rows, summary = [], []
    for alpha in alpha_values:
        for min_gap in gap_values:
            pairs, flagged = 0, set()
            for attribute, names, labels, sizes, counts, p_ref, batch in blocks:
                for metric in metrics:
                    table = small_group_table(
                        metric, counts, p_ref, alpha=alpha, min_gap=min_gap, batch=batch
                    )
                    for i, name in enumerate(names):
                        small = bool(table["small"][i])
                        gap_p = float(table["min_gap_p"][i])
                        rows.append(
                            {
                                "alpha": alpha,
                                "min_gap": min_gap,
                                "attribute": attribute,
                                "group": name,
                                "label": labels[i],
                                "n": int(sizes[i]),
                                "metric": metric,
                                "small": small,
                                "min_gap_p": None if math.isnan(gap_p) else round(gap_p, 6),
                                "p_hole": round(float(table["p_hole"][i]), 6),
                            }
                        )
                        if small:
                            pairs += 1
                            flagged.add((attribute, name))
            summary.append(
                {
                    "alpha": alpha,
                    "min_gap": min_gap,
                    "pairs": pairs,
                    "groups": len(flagged),
                    "label": (
                        f"α = {alpha:g}, minimum gap = {min_gap:g}:\n{len(flagged)} of "
                        f"{sum(len(b[1]) for b in blocks)} groups too small for some metric,\n"
                        f"{pairs} of {sum(len(b[1]) for b in blocks) * len(metrics)} "
                        "(group, metric) pairs flagged"
                    ),
                }
            )
    columns = [
        "alpha", "min_gap", "attribute", "group", "label", "n", "metric", "small", "min_gap_p",
        "p_hole",
    ]  # fmt: skip
    return SmallGroupGrid(pd.DataFrame(rows, columns=columns), pd.DataFrame(summary))


def _nearest(values, wanted: float) -> float:
    """The grid value nearest to ``wanted``."""
    return float(min(values, key=lambda v: abs(v - float(wanted))))


def small_group_chart(grid: SmallGroupGrid, *, alpha: float = 0.05, min_gap: float = 0.05):
    """The static small-group explorer: a Vega-Lite chart of a :func:`small_group_grid`.

    Two controls: α (radio buttons over the grid's levels) and the minimum gap (a slider
    over the grid's gaps, which must be evenly spaced). Left: one row per group, one column
    per metric, red where the audit flags the group as too small for the metric (the
    tooltip gives the MATCH p-value a gap of the minimum size would have). Right: the
    number of flagged (group, metric) pairs against the minimum gap, one line per α, the
    chosen setting circled. Above: the chosen setting's counts.

    Parameters
    ----------
    grid : SmallGroupGrid
    alpha, min_gap : float, default 0.05
        The first setting (the nearest on the grid).

    Returns
    -------
    altair.VConcatChart

    Examples
    --------
    >>> from fairbook.audit import audit, predictions_frame
    >>> frame = predictions_frame([1, 0] * 40 + [1, 0, 0],
    ...                           [1, 0] * 30 + [0, 1] * 10 + [0, 0, 1],
    ...                           ["a"] * 80 + ["b"] * 3)
    >>> grid = small_group_grid(audit(frame), alphas=[0.01, 0.05], min_gaps=[0.05, 0.1])
    >>> {p["name"]: p["value"] for p in small_group_chart(grid).to_dict()["params"]}
    {'alpha': 0.05, 'min_gap': 0.05}
    """
    import altair as alt

    alphas = sorted(set(grid.summary["alpha"]))
    gaps = sorted(set(grid.summary["min_gap"]))
    start_alpha = _nearest(alphas, alpha)
    start_gap = _nearest(gaps, min_gap)
    step = gaps[1] - gaps[0] if len(gaps) > 1 else 0.01
    if len(gaps) > 1 and not np.allclose(np.diff(gaps), step):
        raise ValueError(f"the grid's minimum gaps must be evenly spaced for the slider: {gaps}")
    p_alpha = alt.param(
        name="alpha",
        value=start_alpha,
        bind=alt.binding_radio(options=alphas, name="α "),
    )
    p_gap = alt.param(
        name="min_gap",
        value=start_gap,
        bind=alt.binding_range(min=gaps[0], max=gaps[-1], step=step, name="minimum gap "),
    )
    chosen = (alt.expr.abs(alt.datum.alpha - p_alpha) < 1e-9) & (
        alt.expr.abs(alt.datum.min_gap - p_gap) < 1e-9
    )
    metrics = list(dict.fromkeys(grid.flags["metric"]))
    order = list(dict.fromkeys(grid.flags["label"]))
    flags = grid.flags.assign(
        status=np.where(grid.flags["small"], "too small", "large enough")
    ).drop(columns=["small", "attribute", "group"])
    heat = (
        alt.Chart(flags)
        .transform_filter(chosen)
        .mark_rect(stroke="white", strokeWidth=1)
        .encode(
            x=alt.X("metric:N", sort=metrics, title=None, axis=alt.Axis(orient="top")),
            y=alt.Y("label:N", sort=order, title=None),
            color=alt.Color(
                "status:N",
                scale=alt.Scale(domain=["too small", "large enough"], range=["#d62728", "#dfe7f0"]),
                title="the audit says",
            ),
            tooltip=[
                "label:N",
                "metric:N",
                "status:N",
                alt.Tooltip("min_gap_p:Q", format=".3g", title="MATCH p of a min-gap gap"),
                alt.Tooltip("p_hole:Q", format=".3g", title="P(metric undefined)"),
            ],
        )
        .properties(width=24 * len(metrics), height=20 * len(order))
    )
    lines = (
        alt.Chart(grid.summary)
        .mark_line(point=True)
        .encode(
            x=alt.X(
                "min_gap:Q",
                title="minimum gap",
                scale=alt.Scale(zero=False),
                axis=alt.Axis(tickCount=7, format=".2f"),
            ),
            y=alt.Y("pairs:Q", title="(group, metric) pairs too small"),
            color=alt.Color("alpha:O", title="α"),
            tooltip=["alpha:Q", "min_gap:Q", "pairs:Q", "groups:Q"],
        )
    )
    marked = (
        alt.Chart(grid.summary)
        .transform_filter(chosen)
        .mark_point(size=180, filled=False, color="black")
        .encode(x="min_gap:Q", y="pairs:Q")
    )
    # stacked, not side by side: the book's column is about 630 px wide
    right = (lines + marked).properties(width=420, height=180)
    text = (
        alt.Chart(grid.summary)
        .transform_filter(chosen)
        .mark_text(align="left", baseline="top", fontSize=11, lineBreak="\n")
        .encode(x=alt.value(0), text="label:N")
        .properties(width=420, height=44)
    )
    return (
        alt.vconcat(text, heat, right)
        .resolve_scale(color="independent")
        .add_params(p_alpha, p_gap)
        .configure_view(strokeWidth=0)
    )


def _explorer_view(frame: pd.DataFrame, alpha: float, min_gap: float) -> str:
    """The widget's output: a sentence and the audit's small-group table at one setting."""
    import html

    from fairbook_book.widgets import html_table

    report = compas_audit(frame, alpha=alpha, min_gap=min_gap)
    table = small_groups(report)
    pairs = int(table["too small for"].str.split(", ").str.len().sum()) if len(table) else 0
    line = (
        f"α = {alpha:g}, minimum gap = {min_gap:g}: {len(table)} groups too small for some "
        f"metric, {pairs} (group, metric) pairs flagged"
    )
    shown = html_table(table) if len(table) else "<p>No group is too small.</p>"
    return f"<p>{html.escape(line)}</p>" + shown


def small_group_explorer(frame: pd.DataFrame, *, alpha: float = 0.05, min_gap: float = 0.05):
    """Widget: move α and the minimum gap; the chapter's COMPAS audit is rerun and its
    groups too small for some metric listed, with the MATCH p-value a gap of the minimum
    size would have there.

    Parameters
    ----------
    frame : pandas.DataFrame
        The chapter's predictions
        (:func:`~fairbook_book.chapters.audit_your_model.runs.compas_predictions`).
    alpha : float, default 0.05
        The first significance level (the slider spans 0.001 to 0.2).
    min_gap : float, default 0.05
        The first minimum gap (the slider spans 0.005 to 0.3).

    Returns
    -------
    ipywidgets.VBox
        The two sliders (``children[0]``) above an HTML sentence and table (``children[1]``).

    Examples
    --------
    >>> small_group_explorer.__doc__.split(":")[0]  # needs the COMPAS table; the chapter calls it
    'Widget'
    """
    import ipywidgets as widgets

    levels = sorted({0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, float(alpha)})
    alpha_slider = widgets.SelectionSlider(
        options=levels, value=float(alpha), description="α", continuous_update=False
    )
    gap_slider = widgets.FloatSlider(
        value=float(min_gap),
        min=0.005,
        max=0.3,
        step=0.005,
        readout_format=".3f",
        description="minimum gap",
        continuous_update=False,
        style={"description_width": "initial"},
    )
    output = widgets.HTML()

    def refresh(_=None):
        output.value = _explorer_view(frame, alpha_slider.value, round(gap_slider.value, 6))

    alpha_slider.observe(refresh, names="value")
    gap_slider.observe(refresh, names="value")
    refresh()
    return widgets.VBox([widgets.HBox([alpha_slider, gap_slider]), output])
