"""Figures of "Small groups" (seed 003 ch. 4): Figs. 4.1–4.6 and the chapter's own plots.

Every ``plot_*`` draws a table of :mod:`~fairbook_book.chapters.small_groups.runs` or
:mod:`~fairbook_book.chapters.small_groups.results` with matplotlib and returns its axes
(``ax=`` for one axes, ``axes=`` for several panels; created when omitted, in a grid at
most 9 inches wide).

* Sec. 4.3 — :func:`plot_fig_4_1` (Fig. 4.1), :func:`plot_space_cdfs` (Fig. 4.2);
* Sec. 4.4 — :func:`plot_pt_holes`;
* Sec. 4.5 — :func:`plot_pmfs`, :func:`plot_moments` (Fig. 4.3),
  :func:`plot_approximation_errors`;
* Sec. 4.6 — :func:`plot_mse` (Figs. 4.4–4.6).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from fairbook.papers import seed003
from fairbook.stats import match

from ._common import _metric, _setting_text, _sizes

__all__ = [
    "plot_approximation_errors",
    "plot_fig_4_1",
    "plot_moments",
    "plot_mse",
    "plot_pmfs",
    "plot_pt_holes",
    "plot_space_cdfs",
]


def _axes(ax, figsize=(6, 4)):
    """``ax``, or the axes of a new figure of ``figsize``.

    Examples
    --------
    >>> _axes(None, figsize=(2, 2)).get_figure().get_size_inches().tolist()
    [2.0, 2.0]
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    return ax


#: The widest figure the chapter draws, in inches (the book's reading width).
_MAX_WIDTH = 9.0


def _panel_grid(count: int, *, columns: int = 2, height: float = 3.2, sharey: bool = False):
    """``count`` axes of a new figure, ``columns`` to a row, at most 9
    inches wide (the unused places of the last row are removed).

    Examples
    --------
    >>> axes = _panel_grid(5, columns=3)
    >>> len(axes), axes[0].get_figure().get_size_inches().tolist()
    (5, [9.0, 6.4])
    """
    import matplotlib.pyplot as plt

    columns = max(1, min(columns, count))
    rows = math.ceil(count / columns)
    _, grid = plt.subplots(
        rows,
        columns,
        figsize=(min(_MAX_WIDTH, 4.5 * columns), height * rows),
        squeeze=False,
        sharey=sharey,
    )
    axes = list(grid.ravel())
    for ax in axes[count:]:
        ax.remove()
    return axes[:count]


# ---------------------------------------------------- Sec. 4.3: the space of confusion matrices
def plot_fig_4_1(table: pd.DataFrame, *, title: str = "", ax=None):
    """Fig. 4.1 from :func:`~fairbook_book.chapters.small_groups.runs.fig_4_1_monte_carlo`:
    draws, 50 % and 95 % bands, exact band.

    Examples
    --------
    >>> from fairbook_book.chapters.small_groups.runs import fig_4_1_monte_carlo
    >>> ax = plot_fig_4_1(fig_4_1_monte_carlo([7, 12, 2, 128], sizes=[5, 10], n_draws=50))
    >>> ax.get_xlabel()
    'group size n'
    """
    ax = _axes(ax, figsize=(8, 4))
    draws = table.attrs.get("draws")
    if draws is not None and len(draws):
        jitter = np.random.default_rng(0).uniform(-0.3, 0.3, len(draws))
        ax.scatter(
            draws["n"] + jitter, draws["score"], s=3, alpha=0.15, color="grey", label="single draws"
        )
    ax.fill_between(table["n"], table["q025"], table["q975"], alpha=0.25, label="95 % of draws")
    ax.fill_between(table["n"], table["q25"], table["q75"], alpha=0.4, label="50 % of draws")
    ax.plot(table["n"], table["exact_q025"], "k:", lw=1, label="exact 2.5 / 97.5 %")
    ax.plot(table["n"], table["exact_q975"], "k:", lw=1)
    ax.plot(table["n"], table["mean"], lw=1.5, label="mean")
    ax.axhline(table["target"].iloc[0], color="C3", lw=1, ls="--", label="full-group score")
    ax.set_xlabel("group size n")
    ax.set_ylabel(table.attrs.get("metric", "score"))
    ax.set_title(title)
    ax.legend(fontsize=8, loc="upper right")
    return ax


def plot_space_cdfs(cdfs: pd.DataFrame, *, axes=None):
    """Fig. 4.2: one panel per metric, one step CDF per ``n``.

    Parameters
    ----------
    cdfs : pandas.DataFrame
        From :func:`~fairbook_book.chapters.small_groups.runs.space_cdfs`.
    axes : sequence of matplotlib axes, optional
        One per metric (created when omitted).

    Returns
    -------
    list of axes

    Examples
    --------
    >>> from fairbook_book.chapters.small_groups.runs import space_cdfs
    >>> axes = plot_space_cdfs(space_cdfs(["ACC", "TPR"], [2, 5]))
    >>> [ax.get_title() for ax in axes]
    ['ACC', 'TPR']
    """
    import matplotlib.pyplot as plt

    metrics = list(dict.fromkeys(cdfs["metric"]))
    if axes is None:
        axes = _panel_grid(len(metrics), columns=3, height=3.0)
    axes = list(np.atleast_1d(axes))
    if len(axes) < len(metrics):
        raise ValueError(f"need {len(metrics)} axes, got {len(axes)}")
    sizes = sorted(set(cdfs["n"]))
    colours = plt.cm.viridis(np.linspace(0, 0.9, len(sizes)))
    for ax, metric in zip(axes, metrics, strict=False):
        part = cdfs[cdfs["metric"] == metric]
        for colour, n in zip(colours, sizes, strict=True):
            sub = part[part["n"] == n]
            ax.step(
                np.concatenate([[sub["value"].min()], sub["value"]]),
                np.concatenate([[0.0], sub["cdf"]]),
                where="post",
                color=colour,
                lw=1.2,
                label=f"n = {n}",
            )
        ax.set_title(metric)
        ax.set_xlabel("score")
    axes[0].set_ylabel("share of M(n) at or below")
    axes[0].legend(fontsize=7)
    return axes


# ----------------------------------------------------------- Sec. 4.4: the holes of the metrics
def plot_pt_holes(table: pd.DataFrame, *, ax=None):
    """PT's holes against the printed bounds (from
    :func:`~fairbook_book.chapters.small_groups.results.pt_hole_table`).

    Examples
    --------
    >>> from fairbook_book.chapters.small_groups.results import pt_hole_table
    >>> plot_pt_holes(pt_hole_table(8)).get_ylabel()
    'holes of PT in M(n)'
    """
    ax = _axes(ax)
    ax.plot(table["n"], table["holes"], "o-", ms=3, label="holes (enumerated)")
    ax.plot(table["n"], table["upper"], "--", label="printed upper bound (Robin)")
    ax.plot(table["n"], table["lower"], ":", label="printed lower bound 2n + 2")
    ax.plot(table["n"], table["mcc_holes"], "-.", lw=1, label="4n (MCC's holes, all PT holes)")
    ax.set_xlabel("n")
    ax.set_ylabel("holes of PT in M(n)")
    ax.legend(fontsize=8)
    return ax


# ----------------------------- Sec. 4.5: the law of a metric under MATCH and its approximations
def plot_pmfs(metric: str, p_ref=match.FIG_4_3_P_REF, *, sizes=(5, 10, 30, 100), ax=None):
    """Fig. 4.3's left half: the exact law of ``metric`` with the normal density overlaid.

    Each PMF is drawn as a density (probability / lattice step) so that sizes compare.

    Examples
    --------
    >>> plot_pmfs("ACC", sizes=[5]).get_title()
    'ACC'
    """
    ax = _axes(ax)
    key = _metric(metric)
    for colour, n in enumerate(_sizes(sizes)):
        dist = match.distribution(key, p_ref, n)
        step = np.min(np.diff(dist.values)) if dist.values.size > 1 else 1.0
        ax.plot(dist.values, dist.probs / step, "o", ms=2.5, color=f"C{colour}", label=f"n = {n}")
        mean = dist.probs @ dist.values
        sd = math.sqrt(dist.probs @ (dist.values - mean) ** 2)
        grid = np.linspace(dist.values.min(), dist.values.max(), 300)
        ax.plot(grid, stats.norm.pdf(grid, mean, sd), color=f"C{colour}", lw=0.8)
    ax.set_title(key)
    ax.set_xlabel("score")
    ax.set_ylabel("density")
    ax.legend(fontsize=8)
    return ax


def plot_moments(moments: pd.DataFrame, *, axes=None):
    """Fig. 4.3's right half: skewness and excess kurtosis against ``n`` (exact lines,
    Monte Carlo dots).

    Examples
    --------
    >>> from fairbook_book.chapters.small_groups.runs import moments_table
    >>> axes = plot_moments(moments_table(metrics=["ACC"], sizes=[5, 10], n_draws=100))
    >>> [ax.get_ylabel() for ax in axes]
    ['skewness', 'excess kurtosis']
    """
    import matplotlib.pyplot as plt

    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(_MAX_WIDTH, 3.5))
    for colour, (metric, part) in enumerate(moments.groupby("metric", sort=False)):
        for ax, column in zip(axes, ("skewness", "excess_kurtosis"), strict=True):
            ax.plot(part["n"], part[column], color=f"C{colour}", label=f"{metric} exact")
            if part[f"mc_{column}"].notna().any():
                ax.plot(
                    part["n"],
                    part[f"mc_{column}"],
                    ".",
                    ms=2,
                    alpha=0.5,
                    color=f"C{colour}",
                    label=f"{metric} Monte Carlo",
                )
    for ax, label in zip(axes, ("skewness", "excess kurtosis"), strict=True):
        ax.axhline(0, color="k", lw=0.5)
        ax.set_xlabel("n")
        ax.set_ylabel(label)
    axes[0].legend(fontsize=8)
    return axes


def plot_approximation_errors(errors: pd.DataFrame, *, axes=None):
    """Error against ``n`` (log–log), one panel per metric of
    :func:`~fairbook_book.chapters.small_groups.runs.approximation_errors`.

    Examples
    --------
    >>> from fairbook_book.chapters.small_groups.runs import approximation_errors
    >>> axes = plot_approximation_errors(approximation_errors(sizes=[5, 10]))
    >>> [ax.get_title() for ax in axes]
    ['ACC', 'B', 'TPR', 'PPV']
    """

    metrics = list(dict.fromkeys(errors["metric"]))
    if axes is None:
        axes = _panel_grid(len(metrics), height=3.4, sharey=True)
    for ax, metric in zip(axes, metrics, strict=False):
        part = errors[errors["metric"] == metric]
        for method, sub in part.groupby("method", sort=False):
            style = "--" if method.startswith("Berry") else "o-"
            ax.plot(sub["n"], sub["error"].clip(lower=1e-7), style, ms=3, label=method)
        ax.axhline(seed003.PEIZER_PRATT_MAX_ERROR, color="k", lw=0.6, ls=":")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(metric)
        ax.set_xlabel("n")
        ax.legend(fontsize=6.5)
    axes[0].set_ylabel("max |approx − exact| of the CDF")
    return axes


# --------------------------------- Sec. 4.6: the Cross-Prior Smoothing protocol (Figs. 4.4–4.6)
def plot_mse(table: pd.DataFrame, *, group: str, metrics, settings_shown=None, axes=None):
    """Figs. 4.4–4.6: MSE against group size with 95 % bands, one panel per metric.

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`~fairbook_book.chapters.small_groups.runs.cps_experiment`.
    group : str
    metrics : iterable of str
    settings_shown : iterable of str, optional
        Setting labels (``"raw"``, ``"ε = 1e-10"``, ``"CPS λ = 5"`` …); all by default.
    axes : sequence of axes, optional

    Examples
    --------
    >>> from fairbook_book.chapters.small_groups.runs import cps_experiment
    >>> g = {"toy": (np.array([3.0, 1, 2, 4]), np.array([30.0, 10, 10, 50]))}
    >>> t = cps_experiment(g, sizes=[5, 7], metrics=["TPR"], n_draws=500)
    >>> [ax.get_title() for ax in plot_mse(t, group="toy", metrics=["TPR"])]
    ['TPR']
    """

    names = [_metric(m) for m in metrics]
    part = table[table["group"] == group]
    if part.empty:
        raise ValueError(f"no rows for group {group!r}")
    shown = (
        list(dict.fromkeys(part["setting_label"]))
        if settings_shown is None
        else list(settings_shown)
    )
    if axes is None:
        axes = _panel_grid(len(names), height=3.3)
    axes = list(np.atleast_1d(axes))
    for ax, name in zip(axes, names, strict=False):
        for colour, label in enumerate(shown):
            sub = part[(part["metric"] == name) & (part["setting_label"] == label)]
            if sub.empty:
                continue
            ax.plot(sub["n"], sub["mse"], color=f"C{colour}", lw=1.2, label=_setting_text(label))
            ax.fill_between(sub["n"], sub["ci_low"], sub["ci_high"], color=f"C{colour}", alpha=0.25)
        ax.set_yscale("log")
        ax.set_title(name)
        ax.set_xlabel("group size n")
    axes[0].set_ylabel("MSE vs full-group score")
    axes[0].legend(fontsize=7)
    return axes
