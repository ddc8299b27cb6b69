"""Generic ipywidgets builders: thin wrappers over tested functions.

In the static HTML book these are snapshots of their first state; with a live kernel
(JupyterLab, Binder) they recompute. Only builders that more than one chapter can use live
here (they import no chapter); a chapter's own explorers are in its package
(``fairbook_book.chapters.<slug>.explorers``).
"""

from __future__ import annotations

import ipywidgets as widgets
import pandas as pd

from fairbook.metrics import COMPARISONS, compare

__all__ = ["html_table", "pair_explorer"]


def html_table(frame: pd.DataFrame) -> str:
    """A frame as the HTML table the widgets show: four decimals, NaN spelled out.

    Examples
    --------
    >>> "undefined (NaN)" in html_table(pd.DataFrame({"value": [0.5, float("nan")]}))
    True
    """
    return frame.to_html(na_rep="undefined (NaN)", float_format=lambda v: f"{v:.4f}")


def pair_explorer(counts: pd.DataFrame, *, metrics=("OFI", "DI", "DPPL", "DCA", "TE")):
    """Pick two groups and see the Table 3.2 metrics between them.

    Parameters
    ----------
    counts : DataFrame
        Per-group ``TP FN FP TN`` (e.g. from
        :func:`fairbook.data.predictions.group_counts`).

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
        output.value = html_table(frame)

    first.observe(refresh, names="value")
    second.observe(refresh, names="value")
    refresh()
    return widgets.VBox([widgets.HBox([first, second]), output])
