"""Chapter 08 (seed 003 ch. 5, PTN): the fan-chart explorers.

:func:`fan_explorer` is an ipywidgets explorer over every test forecast: it draws live in
JupyterLab, and the HTML book shows the snapshot taken when the page was built.
:func:`fan_grid` precomputes the fans of a spread of test forecasts and :func:`fan_chart_static`
draws them as a Vega-Lite chart whose controls the browser redraws without a kernel
(:func:`fairbook_book.charts.vega_chart`).
"""

from __future__ import annotations

from typing import NamedTuple

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from fairbook.forecasting import crps as crps_module
from fairbook_book.plots import figure_png

from .figures import fan_chart
from .runs import RunResult

__all__ = ["FAN_BANDS", "FanGrid", "fan_chart_static", "fan_explorer", "fan_grid"]

#: The central bands the static fan shades: (lower level, upper level), outermost first.
FAN_BANDS = ((0.05, 0.95), (0.15, 0.85), (0.25, 0.75), (0.35, 0.65), (0.45, 0.55))


def fan_explorer(data: dict, run: RunResult):
    """Widget: pick a test system, an initial condition and a time; see the fan chart.

    Examples
    --------
    >>> fan_explorer.__doc__.split(":")[0]  # needs a run's data; the chapter calls it
    'Widget'
    """
    import ipywidgets as widgets

    w = data["windows"]["test"]
    systems = sorted(set(w.system.tolist()))
    system = widgets.Dropdown(options=systems, value=systems[0], description="system")
    start = widgets.Dropdown(description="start")
    time_index = widgets.SelectionSlider(options=[0], description="t")
    image = widgets.Image(format="png", width=560)

    def set_starts(_=None):
        starts = sorted(set(w.start[w.system == system.value].tolist()))
        start.options = starts
        start.value = starts[0]

    def set_times(_=None):
        if start.value is None:
            return
        times = w.t[(w.system == system.value) & (w.start == start.value)].tolist()
        time_index.options = times
        time_index.value = times[len(times) // 2]

    def refresh(_=None):
        mask = (w.system == system.value) & (w.start == start.value) & (w.t == time_index.value)
        if not mask.any():
            return
        fig, ax = plt.subplots(figsize=(6, 3.5))
        fan_chart(data, run, int(np.flatnonzero(mask)[0]), ax=ax)
        image.value = figure_png(fig)

    system.observe(set_starts, names="value")
    start.observe(set_times, names="value")
    time_index.observe(refresh, names="value")
    set_starts()
    set_times()
    refresh()
    return widgets.VBox([widgets.HBox([system, start]), time_index, image])


class FanGrid(NamedTuple):
    """The precomputed fans of :func:`fan_grid`.

    ``steps``: one row per chosen forecast and step (``step`` 1 … 16 forecast, ≤ 0 history)
    with ``rank_time`` and ``rank_skill`` (the forecast's position in either order),
    ``truth``, and on forecast steps ``nvar``, ``median`` and ``lo_k``/``hi_k`` for the
    bands of :data:`FAN_BANDS` (``k`` = 0 outermost), all in the data's units. ``windows``:
    one row per chosen forecast with ``index`` (the test window), ``system``, ``start``,
    ``t``, ``crps_ptn``, ``crps_det`` and ``label``.
    """

    steps: pd.DataFrame
    windows: pd.DataFrame


def fan_grid(data: dict, run: RunResult, *, n_windows: int = 60) -> FanGrid:
    """The fans of ``n_windows`` test forecasts, evenly spread over the test windows, for
    the static fan explorer.

    The quantile at each band's level is interpolated between PTN's sorted quantiles at
    their levels ``(j − ½)/C``; the forecasts are ranked in time order (system, start, t)
    and by PTN's advantage over the Normal baseline (CRPS of Normal minus CRPS of PTN,
    largest first).

    Parameters
    ----------
    data : dict
        The chapter's data (:func:`~fairbook_book.chapters.parallel_time_networks.runs.make_data`).
    run : RunResult
        One run of the study.
    n_windows : int, default 60
        How many forecasts (all of them if there are fewer).

    Returns
    -------
    FanGrid

    Examples
    --------
    >>> fan_grid.__doc__.split(" ")[1]  # needs a run's data; the chapter calls it
    'fans'
    """
    if int(n_windows) < 1:
        raise ValueError(f"n_windows must be >= 1, got {n_windows!r}")
    w = data["windows"]["test"]
    inverse = data["normaliser"].inverse_channel
    total = len(run.quantiles)
    chosen = np.unique(np.linspace(0, total - 1, min(int(n_windows), total)).round().astype(int))
    q = np.sort(run.quantiles[chosen], axis=-1)
    levels = crps_module.quantile_levels(q.shape[-1])

    def at(level):  # the quantile at `level`, interpolated between PTN's levels
        index = np.clip(np.searchsorted(levels, level), 1, len(levels) - 1)
        low, high = levels[index - 1], levels[index]
        weight = np.clip((level - low) / (high - low), 0.0, 1.0)
        return inverse(q[..., index - 1] * (1 - weight) + q[..., index] * weight)

    scores = run.crps.iloc[chosen]
    advantage = (scores["Det."] - scores["PTN"]).to_numpy()
    rank_skill = np.empty(len(chosen), dtype=int)
    rank_skill[np.argsort(-advantage, kind="stable")] = np.arange(len(chosen))
    windows = pd.DataFrame(
        {
            "index": chosen,
            "rank_time": np.arange(len(chosen)),
            "rank_skill": rank_skill,
            "system": np.asarray(w.system)[chosen],
            "start": np.asarray(w.start)[chosen],
            "t": np.asarray(w.t)[chosen],
            "crps_ptn": scores["PTN"].to_numpy(),
            "crps_det": scores["Det."].to_numpy(),
        }
    )
    windows["label"] = [
        f"test forecast {row.index}: system {row.system}, start {row.start}, t = {row.t}; "
        f"CRPS PTN {row.crps_ptn:.4f} · Normal {row.crps_det:.4f}"
        for row in windows.itertuples()
    ]
    median = at(0.5)
    bands = {
        name: at(level)
        for k, (low, high) in enumerate(FAN_BANDS)
        for name, level in ((f"lo_{k}", low), (f"hi_{k}", high))
    }
    rows = []
    horizon = q.shape[1]
    history = w.history[chosen, :, 0]
    for i, window in enumerate(windows.itertuples()):
        ranks = {"rank_time": window.rank_time, "rank_skill": window.rank_skill}
        past = inverse(history[i])
        for step, value in zip(range(-len(past) + 1, 1), past, strict=True):
            rows.append({**ranks, "step": step, "truth": float(value)})
        truth = inverse(w.target[window.index])
        nvar = inverse(w.deterministic[window.index])
        for j in range(horizon):
            row = {**ranks, "step": j + 1, "truth": float(truth[j]), "nvar": float(nvar[j])}
            row["median"] = float(median[i, j])
            row.update({name: float(values[i, j]) for name, values in bands.items()})
            rows.append(row)
    return FanGrid(pd.DataFrame(rows), windows)


def fan_chart_static(grid: FanGrid, *, order: str = "time", forecast: int = 0):
    """The static fan explorer: a Vega-Lite chart of a :func:`fan_grid`.

    Two controls: the order of the forecasts (radio: in time, or by PTN's advantage over
    the Normal baseline) and the forecast's position in that order (a slider). The fan
    shades PTN's central bands (darker toward the median); red is the NVAR forecast, black
    the truth and grey the history.

    Parameters
    ----------
    grid : FanGrid
    order : {"time", "advantage"}
    forecast : int
        The initial position.

    Returns
    -------
    altair.VConcatChart

    Examples
    --------
    >>> fan_chart_static.__doc__.split(":")[0]
    'The static fan explorer'
    """
    import altair as alt

    if order not in ("time", "advantage"):
        raise ValueError(f"order must be 'time' or 'advantage', got {order!r}")
    last = int(len(grid.windows) - 1)
    p_order = alt.param(
        name="order",
        value=order,
        bind=alt.binding_radio(
            options=["time", "advantage"],
            labels=["in time", "by PTN's advantage over Normal"],
            name="order ",
        ),
    )
    p_forecast = alt.param(
        name="forecast",
        value=int(min(max(forecast, 0), last)),
        bind=alt.binding_range(min=0, max=last, step=1, name="forecast "),
    )
    chosen = "(order == 'time' ? datum.rank_time : datum.rank_skill) == forecast"
    base = alt.Chart(grid.steps).transform_filter(chosen)
    future = base.transform_filter("datum.step >= 1")
    x = alt.X("step:Q", title="step (0.1 time units; ≤ 0 is the history)")
    layers = [
        future.mark_area(color="#1f77b4", opacity=0.22).encode(
            x=x, y=alt.Y(f"lo_{k}:Q", title="x"), y2=f"hi_{k}:Q"
        )
        for k in range(len(FAN_BANDS))
    ]
    layers += [
        future.mark_line(color="#1f77b4", strokeWidth=1).encode(x=x, y="median:Q"),
        future.mark_line(color="#d62728", strokeWidth=1.5).encode(x=x, y="nvar:Q"),
        future.mark_line(color="black", strokeWidth=2).encode(x=x, y="truth:Q"),
        base.transform_filter("datum.step <= 0")
        .mark_line(color="grey", strokeWidth=1)
        .encode(x=x, y="truth:Q"),
    ]
    text = (
        alt.Chart(grid.windows)
        .transform_filter(chosen)
        .mark_text(align="left", fontSize=11)
        .encode(x=alt.value(0), text="label:N")
        .properties(width=560, height=20)
    )
    return (
        alt.vconcat(text, alt.layer(*layers).properties(width=560, height=260))
        .add_params(p_order, p_forecast)
        .configure_view(strokeWidth=0)
    )
