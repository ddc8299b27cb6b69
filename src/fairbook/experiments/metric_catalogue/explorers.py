"""Explorer of "Confusion matrices and the metric catalogue": edit one confusion matrix.

:func:`metric_panel` is an ipywidget: it recomputes in JupyterLab, and the HTML book shows
the snapshot taken when the page was built (the chapter's text says so). It is a thin
wrapper over :func:`~fairbook.experiments.metric_catalogue.results.metric_values`.
"""

from __future__ import annotations

import ipywidgets as widgets

from fairbook.widgets import html_table

from .results import metric_values

__all__ = ["metric_panel"]


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
        for name, v in zip(("TP", "FN", "FP", "TN"), cm, strict=True)
    ]
    output = widgets.HTML()

    def refresh(_=None):
        output.value = html_table(metric_values([box.value for box in inputs]))

    for box in inputs:
        box.observe(refresh, names="value")
    refresh()
    return widgets.VBox([widgets.HBox(inputs), output])
