"""Chapter 05 (seed 001, UCerF): the chapter's explorers.

:func:`pair_explorer` is an ipywidget over
:func:`~fairbook_book.chapters.ucerf.results.pair_metrics`:
it recomputes live in JupyterLab, for any confidence, and the HTML book shows the snapshot
taken when the page was built.

The same explorer also works in the static page: :func:`pair_grid` precomputes
:func:`~fairbook_book.chapters.ucerf.results.pair_metrics` over the grid the widget's
controls span (both confidences in steps of 0.05, both answers right or wrong), and
:func:`pair_chart` draws it as a Vega-Lite chart whose two sliders and two checkboxes the
browser redraws without a kernel (:func:`fairbook_book.charts.vega_chart`).

Examples
--------
>>> grid = pair_grid(step=0.5)
>>> len(grid), sorted(p["name"] for p in pair_chart(grid).to_dict()["params"])
(36, ['c_her', 'c_his', 'right_her', 'right_his'])
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd

from .results import pair_metrics

__all__ = ["pair_chart", "pair_explorer", "pair_grid"]


def pair_explorer(
    confidence_a: float = 0.9,
    correct_a: bool = True,
    confidence_b: float = 0.9,
    correct_b: bool = False,
):
    """Widget: move one pair's confidences and correctness; watch the EO gap and UCerF.

    A thin wrapper over :func:`pair_metrics` (a snapshot in the static book; live with a
    kernel).

    Examples
    --------
    >>> w = pair_explorer()
    >>> "UCerF" in w.children[-1].value
    True
    """
    import ipywidgets as widgets

    sliders = [
        widgets.FloatSlider(
            value=v, min=0.0, max=1.0, step=0.05, description=d, continuous_update=False
        )
        for v, d in ((confidence_a, "c (his)"), (confidence_b, "c (her)"))
    ]
    boxes = [
        widgets.Checkbox(value=v, description=d)
        for v, d in ((correct_a, "right (his)"), (correct_b, "right (her)"))
    ]
    output = widgets.HTML()

    def refresh(_=None):
        values = pair_metrics(sliders[0].value, boxes[0].value, sliders[1].value, boxes[1].value)
        output.value = (
            pd.Series(values, name="value").to_frame().to_html(float_format=lambda v: f"{v:.3f}")
        )

    for control in (*sliders, *boxes):
        control.observe(refresh, names="value")
    refresh()
    return widgets.VBox(
        [widgets.HBox([sliders[0], boxes[0]]), widgets.HBox([sliders[1], boxes[1]]), output]
    )


# ------------------------------------------------------ the explorer that works in the static page
def pair_grid(*, step: float = 0.05) -> pd.DataFrame:
    """:func:`pair_metrics` over every setting of :func:`pair_explorer`'s controls.

    Parameters
    ----------
    step : float, default 0.05
        The confidences' step (the widget's sliders move by 0.05); ``1 / step`` must be a
        whole number, so that the grid runs from 0 to 1.

    Returns
    -------
    pandas.DataFrame
        One row per ``c_his, right_his, c_her, right_her`` (confidence and correctness of
        the pair's "his" and "her" prompts) with ``D_his``, ``D_her`` (the desirabilities),
        ``gap`` (the accuracy gap, what an accuracy-based metric sees of the pair) and
        ``UCerF``, as :func:`pair_metrics` computes them.

    Examples
    --------
    >>> grid = pair_grid(step=0.25)
    >>> len(grid), float(grid.c_his.max())
    (100, 1.0)
    """
    steps = 1 / float(step) if step > 0 else math.inf
    if not math.isfinite(steps) or abs(steps - round(steps)) > 1e-9:
        raise ValueError(f"step must divide 1 into a whole number of steps, got {step!r}")
    confidences = np.round(np.linspace(0.0, 1.0, int(round(steps)) + 1), 10).tolist()
    rows = []
    for c_his, right_his, c_her, right_her in itertools.product(
        confidences, (True, False), confidences, (True, False)
    ):
        values = pair_metrics(c_his, right_his, c_her, right_her)
        rows.append(
            {
                "c_his": c_his,
                "right_his": right_his,
                "c_her": c_her,
                "right_her": right_her,
                "D_his": round(values["D_a"], 6),
                "D_her": round(values["D_b"], 6),
                "gap": int(values["accuracy gap"]),
                "UCerF": round(values["UCerF"], 6),
            }
        )
    return pd.DataFrame(rows)


def pair_chart(
    grid: pd.DataFrame,
    *,
    confidence_a: float = 0.9,
    correct_a: bool = True,
    confidence_b: float = 0.9,
    correct_b: bool = False,
):
    """The static pair explorer: a Vega-Lite chart of a :func:`pair_grid`.

    Four controls, as in :func:`pair_explorer`: the two confidences (sliders over the
    grid's step) and whether each answer is right (checkboxes). Left: UCerF over both
    confidences for the chosen answers, the chosen pair framed. Right: the chosen pair's
    desirabilities, UCerF and 1 − accuracy gap (both 1 = fair). Above: the numbers.

    Parameters
    ----------
    grid : pandas.DataFrame
        From :func:`pair_grid`.
    confidence_a, correct_a, confidence_b, correct_b
        The first state ("his", then "her"), as in :func:`pair_explorer`; confidences are
        moved to the nearest grid value.

    Returns
    -------
    altair.VConcatChart

    Examples
    --------
    >>> spec = pair_chart(pair_grid(step=0.5), confidence_a=0.4).to_dict()
    >>> {p["name"]: p["value"] for p in spec["params"]}["c_his"]
    0.5
    """
    import altair as alt

    values = sorted(set(grid["c_his"]))
    if len(values) < 2:
        raise ValueError("the grid needs at least two confidences for the sliders")
    step = values[1] - values[0]

    def nearest(c):
        return float(values[int(np.argmin(np.abs(np.asarray(values) - float(c))))])

    p_c_his = alt.param(
        name="c_his",
        value=nearest(confidence_a),
        bind=alt.binding_range(min=values[0], max=values[-1], step=step, name="c (his) "),
    )
    p_right_his = alt.param(
        name="right_his", value=bool(correct_a), bind=alt.binding_checkbox(name="right (his) ")
    )
    p_c_her = alt.param(
        name="c_her",
        value=nearest(confidence_b),
        bind=alt.binding_range(min=values[0], max=values[-1], step=step, name="c (her) "),
    )
    p_right_her = alt.param(
        name="right_her", value=bool(correct_b), bind=alt.binding_checkbox(name="right (her) ")
    )
    answers = (alt.datum.right_his == p_right_his) & (alt.datum.right_her == p_right_her)
    tolerance = step / 10
    chosen = (alt.expr.abs(alt.datum.c_his - p_c_his) < tolerance) & (
        alt.expr.abs(alt.datum.c_her - p_c_her) < tolerance
    )
    base = alt.Chart(grid).transform_filter(answers)
    heat = base.mark_rect().encode(
        x=alt.X("c_his:O", title="confidence c (his)", axis=alt.Axis(format=".2f")),
        y=alt.Y(
            "c_her:O", title="confidence c (her)", sort="descending", axis=alt.Axis(format=".2f")
        ),
        color=alt.Color("UCerF:Q", scale=alt.Scale(domain=[0, 1], scheme="viridis"), title="UCerF"),
        tooltip=["c_his:Q", "c_her:Q", "D_his:Q", "D_her:Q", "UCerF:Q"],
    )
    marker = (
        base.transform_filter(chosen)
        .mark_point(shape="square", size=120, color="red", strokeWidth=2.5, filled=False)
        .encode(x="c_his:O", y=alt.Y("c_her:O", sort="descending"))
    )
    left = (heat + marker).properties(width=260, height=260)
    cell = base.transform_filter(chosen).transform_calculate(one_minus_gap="1 - datum.gap")
    bars = (
        cell.transform_fold(["D_his", "D_her", "UCerF", "one_minus_gap"], as_=["quantity", "value"])
        .transform_calculate(
            quantity="datum.quantity == 'one_minus_gap' ? '1 − accuracy gap' : "
            "datum.quantity == 'D_his' ? 'D (his)' : "
            "datum.quantity == 'D_her' ? 'D (her)' : datum.quantity"
        )
        .encode(
            y=alt.Y(
                "quantity:N",
                sort=["D (his)", "D (her)", "UCerF", "1 − accuracy gap"],
                title=None,
            ),
            x=alt.X("value:Q", scale=alt.Scale(domain=[-1, 1]), title="value"),
        )
    )
    right = bars.mark_bar(color="#1f77b4").properties(width=260, height=160)
    text = (
        cell.transform_calculate(
            label="'his: c = ' + format(datum.c_his, '.2f') + (datum.right_his ? ', right' : "
            "', wrong') + ' (D = ' + format(datum.D_his, '.3f') + '); her: c = ' + "
            "format(datum.c_her, '.2f') + (datum.right_her ? ', right' : ', wrong') + "
            "' (D = ' + format(datum.D_her, '.3f') + '); UCerF = ' + "
            "format(datum.UCerF, '.3f') + ', 1 − accuracy gap = ' + (1 - datum.gap)"
        )
        .mark_text(align="left", fontSize=11)
        .encode(x=alt.value(0), text="label:N")
        .properties(width=540, height=20)
    )
    return (
        alt.vconcat(text, alt.hconcat(left, right))
        .add_params(p_c_his, p_right_his, p_c_her, p_right_her)
        .configure_view(strokeWidth=0)
    )
