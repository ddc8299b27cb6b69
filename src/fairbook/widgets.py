"""ipywidgets builders: thin wrappers over tested functions.

In the static HTML book these are snapshots of their first state; with a live kernel
(JupyterLab, Binder) they recompute.
"""

from __future__ import annotations

import ipywidgets as widgets
import pandas as pd

from fairbook.experiments.catalogue import metric_values
from fairbook.metrics import COMPARISONS, compare

__all__ = ["metric_panel", "pair_explorer"]


def _html_table(frame: pd.DataFrame) -> str:
    return frame.to_html(na_rep="undefined (NaN)", float_format=lambda v: f"{v:.4f}")


def metric_panel(cm=(3, 1, 2, 4)) -> widgets.Widget:
    """Edit TP, FN, FP, TN and see all 18 metrics, with why each hole is undefined.

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
        output.value = _html_table(metric_values([box.value for box in inputs]))

    for box in inputs:
        box.observe(refresh, names="value")
    refresh()
    return widgets.VBox([widgets.HBox(inputs), output])


def pair_explorer(counts: pd.DataFrame, *, metrics=("OFI", "DI", "DPPL", "DCA", "TE")):
    """Pick two groups and see the Table 3.2 metrics between them.

    Parameters
    ----------
    counts : DataFrame
        Per-group ``TP FN FP TN`` (e.g. from ``group_counts``).

    Examples
    --------
    >>> c = pd.DataFrame({"TP": [1, 7], "FN": [0, 0], "FP": [0, 1], "TN": [5, 10]},
    ...                  index=["i", "j"])
    >>> "OFI" in pair_explorer(c).children[1].value
    True
    """
    groups = list(counts.index)
    first = widgets.Dropdown(options=groups, value=groups[0], description="group i")
    second = widgets.Dropdown(
        options=groups, value=groups[min(1, len(groups) - 1)], description="group j"
    )
    output = widgets.HTML()
    cells = ["TP", "FN", "FP", "TN"]

    def refresh(_=None):
        ci = counts.loc[first.value, cells].to_numpy(float)
        cj = counts.loc[second.value, cells].to_numpy(float)
        frame = pd.DataFrame(
            {
                "score": {m: compare(m, ci, cj) for m in metrics},
                "no-bias value": {m: COMPARISONS[m].pivot for m in metrics},
            }
        )
        output.value = _html_table(frame)

    first.observe(refresh, names="value")
    second.observe(refresh, names="value")
    refresh()
    return widgets.VBox([widgets.HBox([first, second]), output])
