"""Chapter 08 (seed 003 ch. 5, PTN): the fan-chart widget."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from fairbook.plots import figure_png

from .figures import fan_chart
from .runs import RunResult

__all__ = ["fan_explorer"]


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
