"""Figures of "How small is too small?": exact size against group size, one line per test."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

from .runs import TEST_NAMES

__all__ = ["plot_sizes"]

_STYLE = {
    "match": ("#1f77b4", "-"),
    "match_normal": ("#1f77b4", ":"),
    "wald": ("#d62728", "-"),
    "score": ("#ff7f0e", "-"),
    "fisher": ("#2ca02c", "-"),
    "boschloo": ("#2ca02c", "--"),
    "bayes": ("#9467bd", "-"),
    "bootstrap": ("#7f7f7f", "-."),
}


def plot_sizes(grid: pd.DataFrame, *, metric: str, reference: str, alpha: float, axes=None):
    """Size against ``n`` (log scale) per test, one panel per data set, α dashed.

    Parameters
    ----------
    grid : DataFrame
        :func:`~.runs.size_power`'s table.
    metric, reference : str
        Which rows (``"PPR"``/``"TPR"``; ``"N = 1,000"`` or ``"known"``).
    alpha : float
    axes : sequence of matplotlib Axes, optional
        One per data set.

    Returns
    -------
    list of Axes

    Examples
    --------
    >>> grid = pd.DataFrame({"dataset": "toy", "metric": "PPR", "reference": "known",
    ...                      "n": [5, 10, 5, 10], "test": ["match"] * 2 + ["wald"] * 2,
    ...                      "size": [0.0, 0.02, 0.06, 0.11]})
    >>> [len(ax.lines) for ax in plot_sizes(grid, metric="PPR", reference="known", alpha=0.05)]
    [3]
    """
    part = grid[(grid["metric"] == metric) & (grid["reference"] == reference)]
    datasets = list(dict.fromkeys(part["dataset"]))
    if axes is None:
        _, axes = plt.subplots(1, len(datasets), figsize=(5 * len(datasets), 3.6), sharey=True)
    axes = list(axes) if hasattr(axes, "__len__") else [axes]
    for ax, dataset in zip(axes, datasets, strict=True):
        rows = part[part["dataset"] == dataset]
        for test, (colour, line) in _STYLE.items():
            one = rows[rows["test"] == test].sort_values("n")
            if one.empty:
                continue
            ax.plot(
                one["n"], one["size"], line, color=colour, marker="o", ms=3, label=TEST_NAMES[test]
            )
        ax.axhline(alpha, color="black", lw=1, ls="--")
        ax.set_xscale("log")
        ax.set_xlabel("group size n")
        ax.set_title(
            f"{dataset.upper() if dataset == 'compas' else dataset.title()}, "
            f"{metric}, reference {reference}",
            fontsize=10,
        )
        ax.set_ylim(0, min(1.0, max(0.15, float(rows["size"].max()) * 1.05)))
    axes[0].set_ylabel(f"exact size (α = {alpha:g} dashed)")
    axes[-1].legend(fontsize=8, loc="upper right")
    return axes
