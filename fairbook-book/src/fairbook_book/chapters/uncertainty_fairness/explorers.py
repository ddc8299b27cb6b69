"""Chapter 04 (seed 000): the chapter's explorers.

:func:`explorer` is an ipywidgets explorer: in JupyterLab it trains what is missing and
recomputes live; the HTML book shows the snapshot taken when the page was built.
:func:`uncertainty_grid` precomputes the same views over the chapter's fitted runs (every
data set, attribute, estimator and a few values of ``T``) and :func:`uncertainty_chart`
draws them as a Vega-Lite chart whose controls the browser redraws without a kernel
(:func:`fairbook_book.charts.vega_chart`).

Examples
--------
>>> from fairbook_book.chapters.uncertainty_fairness.explorers import explorer
>>> explorer.__name__  # builds widgets over fitted runs; a live kernel trains the rest
'explorer'
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd

from fairbook.papers import seed000

from ._names import group_name
from .figures import plot_uncertainty_distributions
from .results import format_tables, ratio_line, uncertainty_text
from .runs import _attributes, _flag, fairness_result, sd_run, tabular_run
from .settings import _DATASETS, _PAIRS, settings

__all__ = ["UncertaintyGrid", "explorer", "uncertainty_chart", "uncertainty_grid"]

#: The quantiles of each group's uncertainty that the static explorer's boxes draw.
_BOX = {"q05": 0.05, "q25": 0.25, "q50": 0.5, "q75": 0.75, "q95": 0.95}
#: The ratios each explorer spells out as a division of two group values (its status lines).
_SPELLED = ("F_Epis", "F_Alea", "F_EAcc")


def _comparison(attribute: str) -> str:
    """An attribute with its two groups as a reader names them: "race: Black / White"."""
    protected, reference = _PAIRS[attribute]
    return f"{attribute}: {group_name(protected)} / {group_name(reference)}"


def _view(name: str, attribute: str) -> str:
    """The static explorer's view label: "COMPAS · race: Black / White"."""
    return f"{name} · {_comparison(attribute)}"


def _train_for_explorer(dataset, estimator, hidden, config):
    if dataset.startswith("SD"):
        run = sd_run(int(dataset[2]), estimator=estimator, config=config)
        if hidden:
            raise ValueError("the synthetic sets use no hidden layer in this explorer")
        return run
    return tabular_run(
        dataset.lower(),
        estimator=estimator,
        config=config,
        hidden_sizes=(hidden,) if hidden else (),
    )


def _attribute_options(dataset: str) -> list:
    """The attribute dropdown's options: ``(reader's label, attribute)`` pairs."""
    return [(_comparison(a), a) for a in _attributes(dataset)]


def _status_html(run, result, T: int) -> str:
    """The widget's status lines: each spelled-out ratio, with the run it comes from."""
    head = f"<b>{run.name}, {'BNN' if run.estimator == 'bnn' else 'deep ensemble'}, T = {T}</b>"
    lines = [ratio_line(result, ratio) for ratio in _SPELLED]
    return "<div style='white-space: normal'>" + "<br>".join([head, *lines]) + "</div>"


def explorer(runs=None, *, config: dict | None = None, initial=("COMPAS", "race", "bnn", 10, 100)):
    """Choose data set, attribute, estimator, T and hidden size; see the ratios spelled out
    (e.g. ``F_Epis = mean U_e of Black / mean U_e of White = … = 1.41 (unfair)``), the
    table and the per-group uncertainty distributions, the groups named as a reader names
    them ("Black", "White", "female", "male").

    ``runs`` are fitted :class:`Run` objects (or a dict keyed ``(dataset, estimator,
    hidden)``); a missing combination is trained on demand (a live kernel; the static
    book shows a snapshot of the first state). ``T`` re-draws the BNN's samples or takes
    the first T members.
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    config = settings() if config is None else config
    if isinstance(runs, dict):
        cache = dict(runs)
    else:
        cache = {(r.name, r.estimator, (r.model.hidden_sizes or (0,))[0]): r for r in (runs or [])}
    dataset = widgets.Dropdown(options=list(_DATASETS), value=initial[0], description="data")
    busy = {"now": False}
    attribute = widgets.Dropdown(
        options=_attribute_options(initial[0]), value=initial[1], description="groups"
    )
    estimator = widgets.Dropdown(
        options=["bnn", "ensemble"], value=initial[2], description="estimator"
    )
    T = widgets.IntSlider(value=initial[3], min=2, max=50, description="T")
    hidden = widgets.Dropdown(options=[0, 10, 100, 200], value=initial[4], description="hidden")
    table, plots = widgets.HTML(), widgets.Output()
    # the numbers the controls move, each ratio as the division of two group values; wraps
    # instead of being cut
    status = widgets.HTML(layout=widgets.Layout(width="100%"))

    def refresh(_=None):
        if busy["now"]:
            return
        key = (
            dataset.value,
            estimator.value,
            0 if dataset.value.startswith("SD") else hidden.value,
        )
        if key not in cache:
            status.value = "<i>training…</i>"
            cache[key] = _train_for_explorer(*key, config)
        run = cache[key].with_T(T.value) if T.value != config["T"] else cache[key]
        labels = _PAIRS[attribute.value]
        result = fairness_result(run, attribute.value, protected=labels[0], reference=labels[1])
        status.value = _status_html(run, result, T.value)
        table.value = format_tables({run.name: result}, labels=None).to_html()
        plots.clear_output(wait=True)
        with plots:
            _, axes = plt.subplots(1, 2, figsize=(9, 3.2))
            plot_uncertainty_distributions(run, attribute.value, labels, axes=axes)
            plt.tight_layout()
            plt.show()

    def on_dataset(_=None):
        busy["now"] = True
        attribute.options = _attribute_options(dataset.value)
        busy["now"] = False
        refresh()

    on_dataset()
    dataset.observe(on_dataset, names="value")
    for control in (attribute, estimator, T, hidden):
        control.observe(refresh, names="value")
    return widgets.VBox(
        [
            widgets.HBox([dataset, attribute, estimator]),
            widgets.HBox([T, hidden]),
            status,
            widgets.HBox([table, plots]),
        ]
    )


class UncertaintyGrid(NamedTuple):
    """The precomputed views of :func:`uncertainty_grid`.

    ``ratios``: ``view, estimator, T, measure, value, flag, text`` — seed 000's ratio
    measures (protected over reference; ``value`` None where undefined; ``text`` the value
    as the chart prints it). ``spread``: ``view, estimator, T, group, role, kind, n, mean,
    mean text, q05 … q95`` — the mean and quantiles of each group's aleatoric (``U_a``) and
    epistemic (``U_e``) uncertainty, floored at 1e-12 for the log scale, the group named as a reader
    names it ("Black"). ``lines``: ``view, estimator, T, line, text`` — the status lines,
    :data:`_SPELLED`'s ratios each spelled out as the division of two group values.
    ``view`` is "data set · attribute: protected / reference" (e.g. "COMPAS · race: Black /
    White").
    """

    ratios: pd.DataFrame
    spread: pd.DataFrame
    lines: pd.DataFrame


def uncertainty_grid(runs, *, T_values=(2, 5, 10, 20, 50)) -> UncertaintyGrid:
    """Seed 000's ratios and the per-group uncertainty of fitted runs, for every attribute
    and each ``T`` in ``T_values``: the static counterpart of :func:`explorer`.

    Parameters
    ----------
    runs : iterable of Run
        Fitted runs; of several with the same data set and estimator (seeds), the first.
    T_values : iterable of int
        Monte Carlo samples per prediction (:meth:`Run.with_T`: the BNN draws ``T`` new
        weight samples from a seed derived from its own, so the grid is reproducible; a
        deep ensemble takes its first ``min(T, members)`` members).

    Returns
    -------
    UncertaintyGrid

    Examples
    --------
    >>> grid = uncertainty_grid([sd_run(1, seed=0)], T_values=[2, 10])
    >>> sorted(set(grid.ratios["T"])), grid.ratios["view"].iloc[0]
    ([2, 10], 'SD1 · G: G0 / G1')
    >>> grid.lines["text"].iloc[0].startswith("F_Epis = mean U_e of G0 / mean U_e of G1 = ")
    True
    """
    T_values = [int(t) for t in np.atleast_1d(T_values)]
    if not T_values or min(T_values) < 1:
        raise ValueError(f"T_values must be a non-empty list of T >= 1, got {T_values!r}")
    first = {}
    for run in runs:
        first.setdefault((run.name, run.estimator), run)
    if not first:
        raise ValueError("runs is empty")
    ratios, spread, lines = [], [], []
    for (name, estimator), run in first.items():
        for T in T_values:
            sampled = run.with_T(T)
            for attribute in _attributes(name):
                protected, reference = _PAIRS[attribute]
                view = _view(name, attribute)
                key = {"view": view, "estimator": estimator, "T": T}
                result = fairness_result(
                    sampled, attribute, protected=protected, reference=reference
                )
                for measure, value in result.ratios.items():
                    finite = math.isfinite(value)
                    ratios.append(
                        {
                            **key,
                            "measure": measure,
                            "value": round(float(value), 5) if finite else None,
                            "flag": _flag(value),
                            "text": f"{value:.2f}" if finite else "undefined",
                        }
                    )
                for number, ratio in enumerate(_SPELLED):
                    lines.append({**key, "line": number, "text": ratio_line(result, ratio)})
                groups = np.asarray(sampled.groups[attribute], dtype=object)
                for role, label in (("G0", protected), ("G1", reference)):
                    keep = groups == label
                    for kind in ("U_a", "U_e"):
                        values = np.asarray(sampled.uncertainty[kind])[keep]
                        row = {**key, "group": group_name(label), "role": role, "kind": kind}
                        row["n"] = int(keep.sum())
                        mean = float(values.mean()) if values.size else None
                        row["mean"] = max(mean, 1e-12) if mean is not None else None
                        row["mean text"] = uncertainty_text(mean) if mean is not None else ""
                        # floored at 1e-12 for the log scale, as the chapter's figure does
                        row.update(
                            {
                                name_q: max(float(np.quantile(values, q)), 1e-12)
                                if values.size
                                else None
                                for name_q, q in _BOX.items()
                            }
                        )
                        spread.append(row)
    return UncertaintyGrid(pd.DataFrame(ratios), pd.DataFrame(spread), pd.DataFrame(lines))


def uncertainty_chart(
    grid: UncertaintyGrid, *, view: str | None = None, estimator: str | None = None, T=None
):
    """The static explorer of chapter 04: a Vega-Lite chart of an :func:`uncertainty_grid`.

    Three controls: the view (data set and the two groups compared, a dropdown), the
    estimator (radio buttons) and ``T`` (radio buttons). On top, the numbers the controls
    move: F_Epis, F_Alea and F_EAcc each written out as the division of the two groups'
    values. Left: every ratio measure of seed 000 with its value, on a log scale, the band
    ``|F − 1| ≤`` :data:`fairbook.papers.seed000.FLAG_THRESHOLD` shaded (inside it a measure
    is flagged fair). Right: boxes of each group's aleatoric and epistemic uncertainty (5,
    25, 50, 75 and 95 % quantiles; log scale, floored at 1e-12), the group's mean — the
    number the ratios divide — as a black diamond.

    Parameters
    ----------
    grid : UncertaintyGrid
    view, estimator, T : optional
        The initial values (default: COMPAS · race where present, else the first; the first
        estimator; ``T`` = 10 where present).

    Returns
    -------
    altair.VConcatChart

    Examples
    --------
    >>> spec = uncertainty_chart(uncertainty_grid([sd_run(1, seed=0)], T_values=[2, 10]))
    >>> sorted(p["name"] for p in spec.to_dict()["params"])
    ['T', 'estimator', 'view']
    """
    import altair as alt

    views = list(dict.fromkeys(grid.ratios["view"]))
    estimators = list(dict.fromkeys(grid.ratios["estimator"]))
    T_values = sorted({int(t) for t in grid.ratios["T"]})
    race = next((v for v in views if v.startswith("COMPAS · race")), views[0])
    p_view = alt.param(
        name="view",
        value=view or race,
        bind=alt.binding_select(options=views, name="data · groups "),
    )
    p_estimator = alt.param(
        name="estimator",
        value=estimator or estimators[0],
        bind=alt.binding_radio(options=estimators, name="estimator "),
    )
    p_T = alt.param(
        name="T",
        value=int(T if T is not None else (10 if 10 in T_values else T_values[0])),
        bind=alt.binding_radio(options=T_values, name="T "),
    )
    chosen = (
        (alt.datum.view == p_view) & (alt.datum.estimator == p_estimator) & (alt.datum.T == p_T)
    )
    status = (
        alt.Chart(grid.lines)
        .transform_filter(chosen)
        .mark_text(align="left", baseline="middle", fontSize=12)
        .encode(x=alt.value(0), y=alt.Y("line:O", axis=None), text="text:N")
        .properties(width=600, height=60, view=alt.ViewConfig(stroke=None))
    )
    low, high = 1 - seed000.FLAG_THRESHOLD, 1 + seed000.FLAG_THRESHOLD
    band = (
        alt.Chart(pd.DataFrame({"low": [low], "high": [high]}))
        .mark_rect(color="#dddddd")
        .encode(x="low:Q", x2="high:Q")
    )
    colours = alt.Scale(
        domain=["fair", "unfair", "undefined"], range=["#2166ac", "#b2182b", "grey"]
    )
    order = list(dict.fromkeys(grid.ratios["measure"]))
    points = alt.Chart(grid.ratios).transform_filter(chosen)
    x_title = "ratio F (protected / reference)"
    x = alt.X("value:Q", title=x_title, scale=alt.Scale(type="log"))
    y = alt.Y("measure:N", title=None, sort=order)
    defined = points.transform_filter("isValid(datum.value) && datum.value > 0")
    dots = defined.mark_point(filled=True, size=90).encode(
        x=x,
        y=y,
        color=alt.Color("flag:N", scale=colours, title="flag", legend=alt.Legend(orient="top")),
        tooltip=["measure:N", "text:N", "flag:N"],
    )
    values = defined.mark_text(align="left", dx=8, fontSize=11).encode(x=x, y=y, text="text:N")
    # an undefined ratio has no place on the axis: it is named at F = 1 instead
    undefined = (
        points.transform_filter("!isValid(datum.value) || datum.value <= 0")
        .transform_calculate(one="1")
        .mark_text(fontSize=11, color="grey")
        .encode(x=alt.X("one:Q", title=x_title), y=y, text="text:N")
    )
    left = (band + dots + values + undefined).properties(width=260, height=260)

    def box_panel(kind, title):
        boxes = alt.Chart(grid.spread).transform_filter(chosen & (alt.datum.kind == kind))
        group = alt.X(
            "group:N",
            title=None,
            sort=alt.EncodingSortField("role"),  # the protected group G0 first
            axis=alt.Axis(labelAngle=0, labelLimit=90),
        )
        whiskers = boxes.mark_rule().encode(
            x=group,
            y=alt.Y("q05:Q", title=f"{title} (5–95 %, quartiles)", scale=alt.Scale(type="log")),
            y2="q95:Q",
        )
        # one colour: a colour scale here would be shared with the left panel's flags
        box = boxes.mark_rule(strokeWidth=20, opacity=0.6, color="#4c72b0").encode(
            x=group, y="q25:Q", y2="q75:Q"
        )
        middle = boxes.mark_tick(color="black", size=22, thickness=2).encode(
            x=group,
            y="q50:Q",
            tooltip=["group:N", "n:Q", *(alt.Tooltip(f"{key}:Q", format=".4g") for key in _BOX)],
        )
        mean = boxes.mark_point(shape="diamond", filled=True, color="black", size=60).encode(
            x=group, y="mean:Q", tooltip=["group:N", "mean text:N"]
        )
        return alt.layer(whiskers, box, middle, mean).properties(width=150, height=260)

    right = alt.hconcat(box_panel("U_a", "aleatoric U_a"), box_panel("U_e", "epistemic U_e"))
    return alt.vconcat(status, alt.hconcat(left, right)).add_params(p_view, p_estimator, p_T)
