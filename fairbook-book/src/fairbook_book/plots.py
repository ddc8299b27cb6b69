"""Figure helpers: each takes ``ax=`` (created when omitted) and returns it."""

from __future__ import annotations

import base64
import io

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

__all__ = ["figure_html", "figure_png", "pairwise_heatmap", "property_matrix"]


def _axes(ax, figsize=(5, 4)):
    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    return ax


def figure_png(fig, *, dpi: int = 80) -> bytes:
    """The figure as PNG bytes (tight bounding box); the figure is closed.

    For widgets that redraw a figure on every change: an image inside the widget keeps the
    static book's snapshot and does not pile up open figures in a live kernel.

    Examples
    --------
    >>> fig, ax = plt.subplots()
    >>> figure_png(fig)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    >>> plt.fignum_exists(fig.number)
    False
    """
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
    plt.close(fig)
    return buffer.getvalue()


def figure_html(fig, *, dpi: int = 80) -> str:
    """The figure as an inline ``<img>`` that shrinks to the page's width; closes it.

    Examples
    --------
    >>> fig, ax = plt.subplots()
    >>> figure_html(fig).startswith('<img style="max-width: 100%; height: auto;"')
    True
    """
    data = base64.b64encode(figure_png(fig, dpi=dpi)).decode("ascii")
    return f'<img style="max-width: 100%; height: auto;" src="data:image/png;base64,{data}"/>'


def pairwise_heatmap(
    scores: pd.DataFrame,
    *,
    pivot: float = 0.0,
    title: str = "",
    ax=None,
    fmt: str = ".2f",
    log: bool = False,
):
    """Heatmap of a group-i × group-j score matrix, diverging around ``pivot``.

    Parameters
    ----------
    scores : DataFrame
        Scores of every ordered pair of groups, e.g. from
        :func:`fairbook_book.chapters.objective_fairness_index.pairwise_scores`.
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
    sns.heatmap(
        colour,
        annot=values,
        fmt=fmt,
        cmap="RdBu_r",
        center=0,
        vmin=-limit,
        vmax=limit,
        cbar=False,
        ax=ax,
        linewidths=0.5,
        square=True,
    )
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
    sns.heatmap(
        grid,
        cmap=["#dddddd", "#3a923a"],
        cbar=False,
        ax=ax,
        linewidths=0.5,
        annot=np.where(grid.to_numpy() > 0, "✓", "✗"),
        fmt="",
    )
    ax.set_xlabel("")
    ax.set_ylabel("")
    return ax
