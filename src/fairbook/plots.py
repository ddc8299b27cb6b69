"""Figure helpers: each takes ``ax=`` (created when omitted) and returns it."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

__all__ = ["pairwise_heatmap", "property_matrix"]


def _axes(ax, figsize=(5, 4)):
    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    return ax


def pairwise_heatmap(scores: pd.DataFrame, *, pivot: float = 0.0, title: str = "",
                     ax=None, fmt: str = ".2f", log: bool = False):
    """Heatmap of a group-i × group-j score matrix, diverging around ``pivot``.

    Parameters
    ----------
    scores : DataFrame
        From :func:`fairbook.experiments.objective_fairness.pairwise_scores`.
    pivot : float
        The "no bias" value (0 for OFI, 1 for DI); the colour map is centred on it.
    log : bool
        Colour on a log scale (for ratios such as DI); annotations stay raw values.

    Examples
    --------
    >>> import pandas as pd
    >>> ax = pairwise_heatmap(pd.DataFrame([[None, 0.1], [-0.1, None]], dtype=float))
    >>> ax.get_xlabel()
    'group j'
    """
    ax = _axes(ax)
    values = scores.astype(float)
    colour = np.log(values) if log else values - pivot
    limit = np.nanmax(np.abs(colour.to_numpy())) if np.isfinite(colour.to_numpy()).any() else 1
    sns.heatmap(colour, annot=values, fmt=fmt, cmap="RdBu_r", center=0, vmin=-limit,
                vmax=limit, cbar=False, ax=ax, linewidths=0.5, square=True)
    ax.set_xlabel("group j")
    ax.set_ylabel("group i")
    ax.set_title(title)
    return ax


def property_matrix(table: pd.DataFrame, *, properties, ax=None):
    """Tick matrix of metric properties (green ✓ / grey ✗) from a property table.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"R": [True], "BND": [False]}, index=["OFI"])
    >>> ax = property_matrix(t, properties=["R", "BND"])
    """
    ax = _axes(ax, figsize=(0.8 * len(properties) + 2, 0.35 * len(table) + 1))
    grid = table[list(properties)].astype(float)
    sns.heatmap(grid, cmap=["#dddddd", "#3a923a"], cbar=False, ax=ax, linewidths=0.5,
                annot=np.where(grid.to_numpy() > 0, "✓", "✗"), fmt="")
    ax.set_xlabel("")
    ax.set_ylabel("")
    return ax
