"""Explorers of "Confusion matrices and the metric catalogue": edit one confusion matrix.

:func:`metric_panel` is an ipywidget: it recomputes in JupyterLab, for any counts, and the
HTML book shows the snapshot taken when the page was built. It is a thin wrapper over
:func:`~fairbook_book.chapters.metric_catalogue.results.metric_values`.

The same panel also works in the static page, for small counts: :func:`metric_grid`
precomputes the 18 metrics and the reason for each hole for every matrix with each count
from 0 to ``max_count``, and :func:`metric_chart` draws it as a Vega-Lite chart whose four
sliders (TP, FN, FP, TN) the browser redraws without a kernel
(:func:`fairbook_book.charts.vega_chart`).

Examples
--------
>>> grid = metric_grid(max_count=1)
>>> len(grid.values), sorted(p["name"] for p in metric_chart(grid).to_dict()["params"])
(16, ['fn', 'fp', 'tn', 'tp'])
"""

from __future__ import annotations

import itertools
import json
import math
from typing import NamedTuple

import ipywidgets as widgets
import numpy as np
import pandas as pd

from fairbook.metrics import METRICS, compute_all, undefined_reason
from fairbook_book.widgets import html_table

from .results import metric_values

__all__ = ["MetricGrid", "metric_chart", "metric_grid", "metric_panel"]

_CELLS = ("TP", "FN", "FP", "TN")


def metric_panel(cm=(3, 1, 2, 4)) -> widgets.Widget:
    """Edit TP, FN, FP, TN and see all 18 metrics, with why each hole is undefined.

    Parameters
    ----------
    cm : sequence of 4 int, default (3, 1, 2, 4)
        The first state, ``[TP, FN, FP, TN]``.

    Returns
    -------
    ipywidgets.VBox
        Four integer boxes above an HTML table (``children[1]``).

    Examples
    --------
    >>> panel = metric_panel([1, 0, 0, 1])
    >>> "ACC" in panel.children[1].value
    True
    """
    inputs = [
        widgets.BoundedIntText(
            value=int(v), min=0, max=10**9, description=name, layout=widgets.Layout(width="150px")
        )
        for name, v in zip(_CELLS, cm, strict=True)
    ]
    output = widgets.HTML()

    def refresh(_=None):
        output.value = html_table(metric_values([box.value for box in inputs]))

    for box in inputs:
        box.observe(refresh, names="value")
    refresh()
    return widgets.VBox([widgets.HBox(inputs), output])


# ------------------------------------------------------ the panel that works in the static page
class MetricGrid(NamedTuple):
    """The precomputed grid of :func:`metric_grid`.

    ``values``: one row per matrix, columns ``TP FN FP TN`` and the 18 metrics of
    :data:`fairbook.metrics.METRICS` (NaN where undefined). ``reasons``: one row per hole,
    ``TP FN FP TN metric why`` (:func:`fairbook.metrics.undefined_reason`).
    """

    values: pd.DataFrame
    reasons: pd.DataFrame


def metric_grid(*, max_count: int = 5) -> MetricGrid:
    """All 18 metrics, and the reason for each hole, of every matrix with counts up to
    ``max_count`` — what :func:`metric_panel` shows, for each setting of its four boxes
    from 0 to ``max_count``.

    Parameters
    ----------
    max_count : int, default 5
        The largest count of each cell; the grid holds ``(max_count + 1) ** 4`` matrices
        (the empty one included: every metric is undefined, n = 0).

    Returns
    -------
    MetricGrid

    Examples
    --------
    >>> grid = metric_grid(max_count=2)
    >>> holes = grid.reasons.query("TP == 0 and FN == 0 and FP == 0 and TN == 2")
    >>> len(grid.values), holes.metric.tolist()
    (81, ['TPR', 'FNR', 'PPV', 'FDR', 'F1', 'MCC', 'PT'])
    """
    if isinstance(max_count, bool) or not isinstance(max_count, (int, np.integer)):
        raise ValueError(f"max_count must be an integer, got {max_count!r}")
    if not 1 <= max_count <= 20:
        raise ValueError(
            f"max_count must lie in 1..20 (the grid grows as its 4th power), got {max_count}"
        )
    cms = np.array(list(itertools.product(range(int(max_count) + 1), repeat=4)), dtype=np.int64)
    values = pd.DataFrame(cms, columns=list(_CELLS))
    with np.errstate(divide="ignore", invalid="ignore"):
        metrics = compute_all(cms.astype(np.float64))
    for key in METRICS:
        values[key] = np.asarray(metrics[key], dtype=np.float64)
    holes = []
    for row, key in zip(*np.nonzero(np.isnan(values[list(METRICS)].to_numpy())), strict=True):
        cm = cms[row]
        metric = list(METRICS)[key]
        holes.append((*cm.tolist(), metric, undefined_reason(metric, cm.tolist())))
    reasons = pd.DataFrame(holes, columns=[*_CELLS, "metric", "why"])
    return MetricGrid(values, reasons)


def _records(grid: MetricGrid) -> tuple[list[dict], list[str]]:
    """The grid as compact chart data: one record per matrix, its holes as codes into a
    list of reasons."""
    reasons = list(dict.fromkeys(grid.reasons["why"]))
    code = {why: i for i, why in enumerate(reasons)}
    holes: dict[tuple, dict] = {}
    for *cm, metric, why in grid.reasons.itertuples(index=False):
        holes.setdefault(tuple(int(v) for v in cm), {})[metric] = code[why]
    records = []
    for row in grid.values.itertuples(index=False):
        cm = tuple(int(v) for v in row[:4])
        record = dict(zip(_CELLS, cm, strict=True))
        for key, value in zip(METRICS, row[4:], strict=True):
            record[key] = None if math.isnan(value) else round(float(value), 4)
        if cm in holes:
            record["why"] = holes[cm]
        records.append(record)
    return records, reasons


def metric_chart(grid: MetricGrid, *, cm=(3, 1, 2, 4)):
    """The static metric panel: a Vega-Lite chart of a :func:`metric_grid`.

    Four sliders set TP, FN, FP and TN (0 to the grid's ``max_count``); the chart shows
    the 18 metrics as bars on [−1, 1] and, beside them, each value or why it is undefined,
    as :func:`metric_panel`'s table.

    Parameters
    ----------
    grid : MetricGrid
    cm : sequence of 4 int, default (3, 1, 2, 4)
        The first state, ``[TP, FN, FP, TN]``; counts above the grid's ``max_count`` start
        at ``max_count``.

    Returns
    -------
    altair.VConcatChart

    Examples
    --------
    >>> spec = metric_chart(metric_grid(max_count=2), cm=[0, 1, 2, 9]).to_dict()
    >>> [p["value"] for p in spec["params"]]
    [0, 1, 2, 2]
    """
    import altair as alt

    counts = np.asarray(cm, dtype=np.float64)
    if counts.shape != (4,) or not np.isfinite(counts).all() or (counts < 0).any():
        raise ValueError(f"cm must be 4 non-negative counts [TP, FN, FP, TN], got {cm!r}")
    top = int(grid.values["TP"].max())
    records, reasons = _records(grid)
    params = [
        alt.param(
            name=cell.lower(),
            value=int(min(round(value), top)),
            bind=alt.binding_range(min=0, max=top, step=1, name=f"{cell} "),
        )
        for cell, value in zip(_CELLS, counts, strict=True)
    ]
    chosen = " && ".join(f"datum.{cell} == {cell.lower()}" for cell in _CELLS)
    # a frame (not inline values): Altair then stores it once, without walking each record
    base = alt.Chart(pd.DataFrame.from_records(records)).transform_filter(chosen)
    long = base.transform_fold(list(METRICS), as_=["metric", "value"]).transform_calculate(
        shown="isValid(datum.value) ? format(datum.value, '.4f') : 'undefined (NaN): ' + "
        f"{json.dumps(reasons)}[datum.why[datum.metric]]"
    )
    order = list(METRICS)
    bars = long.mark_bar(color="#1f77b4").encode(
        y=alt.Y("metric:N", sort=order, title=None),
        x=alt.X("value:Q", scale=alt.Scale(domain=[-1, 1]), title="value"),
        tooltip=["metric:N", "shown:N"],
    )
    table = (
        long.mark_text(align="left", fontSize=11)
        .encode(
            y=alt.Y("metric:N", sort=order, title=None, axis=None),
            x=alt.value(0),
            text="shown:N",
            color=alt.condition("isValid(datum.value)", alt.value("black"), alt.value("#d62728")),
        )
        .properties(width=300)
    )
    header = (
        base.transform_calculate(
            label="'TP = ' + datum.TP + ', FN = ' + datum.FN + ', FP = ' + datum.FP + "
            "', TN = ' + datum.TN + ' (n = ' + (datum.TP + datum.FN + datum.FP + datum.TN) "
            "+ ')'"
        )
        .mark_text(align="left", fontSize=11)
        .encode(x=alt.value(0), text="label:N")
        .properties(width=540, height=20)
    )
    return (
        alt.vconcat(header, alt.hconcat(bars.properties(width=220), table))
        .add_params(*params)
        .configure_view(strokeWidth=0)
    )
