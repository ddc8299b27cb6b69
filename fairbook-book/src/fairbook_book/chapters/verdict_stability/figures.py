"""Figures of the chapter "How stable is a fairness verdict?".

* :func:`plot_flip_heatmap` — mean flip rate per comparison (rows) and source (columns);
* :func:`plot_size_curve` — flip rate against group size, per source and metric;
* :func:`style_flips` — the heat-map table itself, coloured by flip rate.

Figures are at most :data:`MAX_WIDTH` inches wide and every text in them is at least
:data:`FONT_SIZE` points: shown at the page's ~800 pixels, at least 9 pixels.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

__all__ = ["plot_flip_heatmap", "plot_size_curve", "style_flips"]

_SOURCES = ["FIT", "seed", "setting", "bootstrap", "metric choice"]

#: The widest a figure of the chapter is drawn (inches): the page's reading width.
MAX_WIDTH = 9.0

#: The smallest text of a figure (points): cell numbers, ticks and legends.
FONT_SIZE = 10


def style_flips(flips: pd.DataFrame):
    """The flip table as a pandas Styler, source columns shaded from 0 (white) to 1.

    Examples
    --------
    >>> f = pd.DataFrame({"FIT": [0.0], "seed": [0.5], "setting": [0.0],
    ...                   "bootstrap": [0.2], "metric choice": [np.nan]})
    >>> type(style_flips(f)).__name__
    'Styler'
    """
    cols = [c for c in _SOURCES if c in flips.columns]
    # a verdict (0/1) or a count held as float prints as an integer, never 1.000
    whole = [
        c
        for c in flips.columns
        if c not in cols
        and flips[c].dtype.kind == "f"
        and bool((flips[c].dropna() == flips[c].dropna().round()).all())
    ]
    return (
        flips.style.background_gradient(cmap="Reds", subset=cols, vmin=0.0, vmax=1.0)
        .format(precision=3)
        .format("{:.0f}", subset=whole, na_rep="NaN")
        .hide(axis="index")
    )


def plot_flip_heatmap(flips: pd.DataFrame, *, ax=None):
    """Mean flip rate over models and metrics, one row per comparison (data set ·
    attribute · group), one column per source.

    Examples
    --------
    >>> f = pd.DataFrame({"dataset": "d", "attribute": "a", "group": ["x", "y"],
    ...                   "FIT": [0.0, 0.5], "seed": 0.1, "setting": 0.0, "bootstrap": 0.2,
    ...                   "metric choice": 0.0})
    >>> plot_flip_heatmap(f).get_title()
    'Mean flip rate of the verdicts, by comparison and source'
    """
    cols = [c for c in _SOURCES if c in flips.columns]
    mean = flips.groupby(["dataset", "attribute", "group"], sort=False)[cols].mean()
    if ax is None:
        # the row names (up to ~2.5 inches) and the colour bar are drawn beside the cells:
        # the whole figure stays within MAX_WIDTH
        _, ax = plt.subplots(figsize=(MAX_WIDTH - 2.5, 0.32 * len(mean) + 1.6))
    image = ax.imshow(mean.to_numpy(dtype=float), cmap="Reds", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(len(cols)), cols, rotation=30, ha="right")
    ax.set_yticks(range(len(mean)), [" · ".join(map(str, k)) for k in mean.index])
    ax.tick_params(labelsize=FONT_SIZE)
    for (i, j), value in np.ndenumerate(mean.to_numpy(dtype=float)):
        if not np.isnan(value):
            dark = value > 0.6  # white on the darkest reds
            ax.text(
                j,
                i,
                f"{value:.2f}",
                ha="center",
                va="center",
                fontsize=FONT_SIZE,
                color="white" if dark else "black",
            )
    ax.figure.colorbar(image, ax=ax, label="flip rate")
    ax.set_title("Mean flip rate of the verdicts, by comparison and source")
    return ax


def plot_size_curve(curve: pd.DataFrame, *, axes=None):
    """Flip rate against group size (log scale), one panel per data set, a line per
    metric and source (mean over models).

    Examples
    --------
    >>> c = pd.DataFrame({"dataset": "d", "group": "g", "metric": "DI", "source": "samples",
    ...                   "size": [10, 100], "flip_rate": [0.4, 0.1]})
    >>> len(plot_size_curve(c))
    1
    """
    datasets = list(dict.fromkeys(curve["dataset"]))
    if axes is None:
        width = min(MAX_WIDTH, 4.5 * len(datasets))
        _, axes = plt.subplots(1, len(datasets), figsize=(width, 4.4), squeeze=False)
        axes = axes[0]
    for ax, dataset in zip(axes, datasets, strict=True):
        part = curve[curve["dataset"] == dataset]
        mean = part.groupby(["source", "metric", "size"], sort=False)["flip_rate"].mean()
        for (source, metric), line in mean.groupby(level=[0, 1], sort=False):
            sizes = line.index.get_level_values("size")
            style = "-" if source == "samples" else "--"
            ax.plot(sizes, line.to_numpy(), style, marker="o", label=f"{metric} ({source})")
        ax.set_xscale("log")
        ax.set_ylim(0, 1)
        ax.set_xlabel(f"size of the group {part['group'].iloc[0]}")
        ax.set_ylabel("flip rate")
        ax.set_title(dataset)
        ax.tick_params(labelsize=FONT_SIZE)
    # one legend under the panels, at reading size, instead of one over each panel's lines
    handles, labels = axes[0].get_legend_handles_labels()
    figure = axes[0].figure
    figure.legend(handles, labels, loc="lower center", ncol=3, fontsize=FONT_SIZE, frameon=False)
    figure.tight_layout(rect=(0, 0.08 + 0.05 * ((len(labels) - 1) // 3), 1, 1))
    return list(axes)
