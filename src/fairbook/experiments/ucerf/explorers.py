"""Chapter 05 (seed 001, UCerF): the chapter's widget."""

from __future__ import annotations

import pandas as pd

from .results import pair_metrics

__all__ = ["pair_explorer"]


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
