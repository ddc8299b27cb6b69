"""Figures of "Conditional HydraGAN" (seed 003 sec. 3.5).

:func:`plot_bias_boxplot` is the analogue of Fig. 3.4 (each metric over seeds, real vs
synthetic training data, per protected class); :func:`plot_representation` draws real,
synthetic and target proportions (occupations or who-cells); :func:`plot_recorded_bias`
draws Fig. 3.4's analogue from the recorded full-size seeds.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ._common import _class_order
from .settings import IDEAL, METRICS

__all__ = ["plot_bias_boxplot", "plot_recorded_bias", "plot_representation"]


def plot_bias_boxplot(scores: pd.DataFrame, *, definition: str = "cells", ax=None):
    """Fig. 3.4 analogue: each metric's values over seeds, real vs synthetic, per class
    (distance from the ideal is what matters; DI is shown minus 1).

    Parameters
    ----------
    scores : DataFrame
        ``run_experiment(...)["scores"]``.
    definition : {"cells", "pair"}
    ax : array of 4 matplotlib axes, optional
        One per metric of :data:`~fairbook_book.chapters.conditional_hydragan.settings.METRICS`
        (a row of 4 or a 2 × 2 grid, filled row by row). Without it, a new 9 × 6.5 inch
        figure with a 2 × 2 grid.

    Returns
    -------
    array of axes
        ``ax`` as given, or the new figure's 4 axes in a flat array.

    Examples
    --------
    >>> import itertools
    >>> from fairbook_book.chapters.conditional_hydragan.settings import ATTRIBUTES
    >>> scores = pd.DataFrame([
    ...     {"seed": s, "data": d, "definition": "cells", "class": c, "metric": m,
    ...      "value": IDEAL[m] + 0.1 * s}
    ...     for s, d, m, (_, classes) in itertools.product(
    ...         range(3), ("real", "synthetic"), METRICS, ATTRIBUTES.values()) for c in classes])
    >>> [a.get_title() for a in plot_bias_boxplot(scores)]
    ['OFI (cells)', 'DPPL (cells)', 'DI − 1 (cells)', 'DCA (cells)']
    """
    if ax is None:
        fig, grid = plt.subplots(2, 2, figsize=(9, 6.5))
        fig_axes = np.ravel(grid)
    else:
        fig_axes = ax
    sel = scores[scores["definition"] == definition]
    classes = _class_order()
    for a, metric in zip(np.ravel(fig_axes), METRICS, strict=True):
        s = sel[sel["metric"] == metric]
        shift = IDEAL[metric]
        for k, (name, colour) in enumerate((("real", "#b2182b"), ("synthetic", "#2166ac"))):
            d = s[s["data"] == name]
            vals = [d[d["class"] == c]["value"].to_numpy() - shift for c in classes]
            pos = np.arange(len(classes)) + (k - 0.5) * 0.35
            a.boxplot(
                vals,
                positions=pos,
                widths=0.3,
                patch_artist=True,
                boxprops={"facecolor": colour, "alpha": 0.5},
                medianprops={"color": colour},
            )
            a.plot([], [], color=colour, lw=6, alpha=0.5, label=name)
        a.axhline(0, color="k", lw=0.8)
        a.set_xticks(np.arange(len(classes)), classes, rotation=30, ha="right")
        a.set_title(f"{metric}{' − 1' if shift else ''} ({definition})")
    np.ravel(fig_axes)[0].legend(fontsize=10)  # 9 px or more on a page 800 px wide
    if ax is None:
        fig.tight_layout()
    return fig_axes


def plot_representation(frame: pd.DataFrame, *, title: str = "", ax=None):
    """Bars of real, synthetic and target proportions (one of ``result['activities']`` /
    ``result['who']`` for one seed, or their mean).

    Examples
    --------
    >>> frame = pd.DataFrame({"real": [0.7, 0.3], "synthetic": [0.5, 0.5],
    ...                       "target": [0.5, 0.5]}, index=["a", "b"])
    >>> plot_representation(frame, title="toy").get_ylabel()
    'proportion'
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3.4))
    frame[["real", "synthetic", "target"]].plot.bar(
        ax=ax, color=["#b2182b", "#2166ac", "#999999"], width=0.8
    )
    ax.set_ylabel("proportion")
    ax.set_title(title)
    ax.tick_params(axis="x", labelrotation=60)
    return ax


def plot_recorded_bias(result: dict, *, title: str = ""):
    """Fig. 3.4's analogue (both definitions, as in the chapter) from a recorded
    experiment (:func:`~fairbook_book.chapters.conditional_hydragan.recorded_experiment`):
    a 9-inch-wide figure, the pair definition in its top two rows of 2 × 2 panels and the
    cells definition below; a figure that says so when nothing is recorded (an empty dict).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> plot_recorded_bias({}, title="full").axes[0].texts[0].get_text()
    'nothing recorded yet'
    """
    if not result:
        fig, ax = plt.subplots(figsize=(6, 1.5))
        ax.text(0.5, 0.5, "nothing recorded yet", ha="center", va="center")
        ax.set_axis_off()
        fig.suptitle(title)
        return fig
    fig, axes = plt.subplots(4, 2, figsize=(9, 13))
    plot_bias_boxplot(result["scores"], definition="pair", ax=axes[:2])
    plot_bias_boxplot(result["scores"], definition="cells", ax=axes[2:])
    fig.suptitle(title)
    fig.tight_layout()
    return fig
