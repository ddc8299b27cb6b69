"""Figures of chapter 06 (seed 004): the spread of runs and the paper's heatmaps, redrawn.

* :func:`box_grid` — each metric's overall value per technique, box plots with the runs;
  :func:`box_figure` — the same for one task as a figure at reading size (2 × 4 panels);
* :func:`effect_heatmap` — Fig. 1's analogue (Cohen's d, U-test);
* :func:`variance_heatmap` — Fig. 2's analogue (Levene's test on normalised bias values);
* :func:`heatmap_figure` — either heatmap for every task, one above the other;
* :func:`cost_heatmaps` — Fig. 3's analogue (accuracy and accuracy variance);
* :func:`survey_plot` — the survey's papers per year;
* :func:`recorded_box_grids` — :func:`box_grid` for every task of the recorded study.

Each takes ``ax=`` (``axes=`` for the grid) and returns what it drew on; the ``*_figure``
functions and :func:`recorded_box_grids` make their own figure, at most 9 inches wide. Every
text is at least :data:`FONT_SIZE` points: a 9-inch figure shown at the page's ~800 pixels
keeps it at 9 pixels or more.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from ._common import _select, _techniques
from .settings import METRICS, SETTINGS_FIT, TASK_LABELS

__all__ = [
    "box_figure",
    "box_grid",
    "cost_heatmaps",
    "effect_heatmap",
    "heatmap_figure",
    "recorded_box_grids",
    "survey_plot",
    "survey_reporting_plot",
    "variance_heatmap",
]

#: The widest a figure of the chapter is drawn (inches): the page's reading width.
MAX_WIDTH = 9.0

#: The smallest text of a figure (points): tick labels and the numbers in heatmap cells.
FONT_SIZE = 10

_LEVELS = ("negligible", "very small", "small", "medium", "large", "very large", "huge")
_BLUES = ("#eef4fb", "#d6e6f5", "#b0cfe8", "#7fb1d9", "#4a8bc4", "#2166ac", "#053061")
_ORANGES = ("#fdf1e6", "#fde0c5", "#fdc08c", "#f99c50", "#e6731f", "#c5510a", "#7f2704")
_GREY = "#cccccc"


def box_grid(
    study: pd.DataFrame,
    task: str,
    *,
    metrics=(*METRICS, "accuracy"),
    setting: str = SETTINGS_FIT,
    axes=None,
):
    """Box plots (with the runs as dots) of each metric's overall value per technique.

    Parameters
    ----------
    axes : array of Axes, optional
        One per metric; created (2 rows) when omitted.

    Returns
    -------
    ndarray of Axes
    """
    metrics = list(metrics)
    if axes is None:
        ncols = (len(metrics) + 1) // 2
        _, axes = plt.subplots(2, ncols, figsize=(min(MAX_WIDTH, 2.25 * ncols), 5.6))
    axes = np.asarray(axes).ravel()
    if len(axes) < len(metrics):
        raise ValueError(f"need {len(metrics)} axes, got {len(axes)}")
    rows = _select(study, task, setting=setting)
    rows = rows[(rows["class"] == "overall") & (rows["group"] == "all")]
    order = _techniques(study, task)
    for ax, metric in zip(axes, metrics, strict=False):
        data = [
            100 * rows[(rows["metric"] == metric) & (rows["technique"] == t)]["value"].to_numpy()
            for t in order
        ]
        ax.boxplot(
            data, tick_labels=order, widths=0.6, showfliers=False, medianprops={"color": "black"}
        )
        for i, values in enumerate(data, start=1):
            offsets = np.linspace(-0.12, 0.12, len(values)) if len(values) > 1 else [0.0]
            ax.plot(i + np.asarray(offsets), values, "o", ms=3, color="#1f4e79")
        ax.set_title(metric)
        ax.set_ylabel("%" if ax is axes[0] else "")
        ax.tick_params(labelsize=FONT_SIZE)
        # right-aligned slanted names: long technique names do not run into their neighbours
        plt.setp(ax.get_xticklabels(), rotation=40, ha="right", rotation_mode="anchor")
    for ax in axes[len(metrics) :]:
        ax.set_visible(False)
    return axes


def _names_below_only(axes) -> None:
    """Name the techniques under the bottom row of a panel grid only: every panel has the
    same techniques in the same order, so the upper rows' names would be drawn twice."""
    grid = np.atleast_2d(np.asarray(axes))
    for ax in grid[:-1].ravel():
        ax.tick_params(axis="x", labelbottom=False)


def box_figure(
    study: pd.DataFrame,
    task: str,
    *,
    metrics=(*METRICS, "accuracy"),
    setting: str = SETTINGS_FIT,
    title: str | None = None,
):
    """:func:`box_grid` of one task as a figure 9 inches wide (two rows of panels).

    Returns
    -------
    matplotlib.figure.Figure

    The techniques are named once, under the bottom row.

    Examples
    --------
    >>> rows = [{"task": "t", "technique": "base", "setting": SETTINGS_FIT, "run": r,
    ...          "class": "overall", "group": "all", "metric": m, "value": 0.1 + r / 100}
    ...         for r in range(3) for m in (*METRICS, "accuracy")]
    >>> fig = box_figure(pd.DataFrame(rows), "t")
    >>> float(fig.get_figwidth()), len([a for a in fig.axes if a.get_visible()])
    (9.0, 8)
    """
    metrics = list(metrics)
    ncols = (len(metrics) + 1) // 2
    fig, axes = plt.subplots(2, ncols, figsize=(MAX_WIDTH, 6.0))
    box_grid(study, task, metrics=metrics, setting=setting, axes=axes)
    axes = np.asarray(axes)
    _names_below_only(axes)
    axes[0, 0].set_ylabel("%")
    axes[1, 0].set_ylabel("%")
    fig.suptitle(TASK_LABELS.get(task, task) if title is None else title)
    fig.tight_layout()
    return fig


def _effect_colour(row) -> str:
    if row.get("direction") not in ("increase", "decrease") or row.get("effect") not in _LEVELS:
        return _GREY
    palette = _BLUES if row["direction"] == "decrease" else _ORANGES
    return palette[_LEVELS.index(row["effect"])]


def _grid(ax, colours: pd.DataFrame, labels: pd.DataFrame, title: str):
    from matplotlib.colors import to_rgb

    image = np.array([[to_rgb(c) for c in row] for row in colours.to_numpy()])
    ax.imshow(image, aspect="auto")
    for i in range(labels.shape[0]):
        for j in range(labels.shape[1]):
            rgb = image[i, j]
            dark = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] < 0.5
            ax.text(
                j,
                i,
                labels.iat[i, j],
                ha="center",
                va="center",
                fontsize=FONT_SIZE,
                color="white" if dark else "black",
            )
    ax.set_xticks(range(labels.shape[1]), labels.columns, rotation=45, ha="right")
    ax.set_yticks(range(labels.shape[0]), labels.index)
    ax.set_title(title)
    return ax


def effect_heatmap(effect_table: pd.DataFrame, *, title: str = "", ax=None):
    """Fig. 1 analogue: Cohen's d per technique × metric; blue = bias decrease,
    orange = increase, shade = Sawilowsky's label, grey = not significant (U-test);
    ``*`` marks a metric the technique is designed to reduce."""
    if ax is None:
        _, ax = plt.subplots(
            figsize=(7, 0.6 * effect_table.index.get_level_values(0).nunique() + 1.5)
        )
    colours = effect_table.apply(_effect_colour, axis=1).unstack("metric")
    labels = effect_table.apply(
        lambda r: (
            ("NS" if r.get("direction") not in ("increase", "decrease") else f"{r['cohen_d']:.1f}")
            + ("*" if r.get("target") else "")
        ),
        axis=1,
    ).unstack("metric")
    order = [m for m in METRICS if m in colours.columns]
    return _grid(ax, colours[order], labels[order], title or "Cohen's d (U-test p < 0.05)")


def variance_heatmap(effect_table: pd.DataFrame, *, title: str = "", ax=None):
    """Fig. 2 analogue: Levene's test on normalised bias values per technique × metric;
    orange = higher variance than the baseline, blue = lower, grey = not significant;
    ``X`` = the technique does not reduce this metric (the paper's mark)."""
    if ax is None:
        _, ax = plt.subplots(
            figsize=(7, 0.6 * effect_table.index.get_level_values(0).nunique() + 1.5)
        )
    colour = {"higher": _ORANGES[4], "lower": _BLUES[4]}
    colours = effect_table["variance_change"].map(lambda v: colour.get(v, _GREY)).unstack("metric")
    labels = effect_table.apply(
        lambda r: (
            ("" if r.get("direction") == "decrease" else "X ")
            + (f"p={r['levene_p']:.2f}" if pd.notna(r.get("levene_p")) else "n/a")
        ),
        axis=1,
    ).unstack("metric")
    order = [m for m in METRICS if m in colours.columns]
    return _grid(
        ax,
        colours[order],
        labels[order],
        title or "Levene (normalised): fairness variance vs baseline",
    )


def heatmap_figure(effect_tables: dict, *, kind: str = "effect"):
    """One heatmap per task, one above the other, 9 inches wide: Fig. 1's analogue
    (``kind="effect"``, :func:`effect_heatmap`) or Fig. 2's (``kind="variance"``,
    :func:`variance_heatmap`).

    Parameters
    ----------
    effect_tables : dict
        Task → :func:`~fairbook_book.chapters.fit_variance.effects` table.
    kind : {"effect", "variance"}

    Returns
    -------
    matplotlib.figure.Figure
    """
    draw = {"effect": effect_heatmap, "variance": variance_heatmap}
    if kind not in draw:
        raise ValueError(f"kind must be one of {sorted(draw)}, got {kind!r}")
    if not effect_tables:
        raise ValueError("no effect tables to draw")
    what = {"effect": "Cohen's d", "variance": "fairness variance"}[kind]
    heights = [0.45 * t.index.get_level_values(0).nunique() + 1.3 for t in effect_tables.values()]
    fig, axes = plt.subplots(
        len(effect_tables),
        1,
        figsize=(MAX_WIDTH, sum(heights) + 0.3),
        gridspec_kw={"height_ratios": heights},
        squeeze=False,
    )
    for ax, (task, table) in zip(axes[:, 0], effect_tables.items(), strict=True):
        label = TASK_LABELS.get(task, task).split(" ")[0]
        draw[kind](table, title=f"{label}: {what}", ax=ax)
    fig.tight_layout()
    return fig


def cost_heatmaps(cost_tables: dict, *, ax=None):
    """Fig. 3 analogue: rows accuracy and accuracy variance, columns task/technique;
    orange = a cost (lower accuracy, higher variance), blue = a gain, grey = NS."""
    own = ax is None
    if own:
        # the slanted task: technique names need about two inches below the two rows
        _, ax = plt.subplots(figsize=(MAX_WIDTH, 4.0))
    colours, labels = {}, {}
    for task, table in cost_tables.items():
        for technique, row in table.iterrows():
            key = f"{TASK_LABELS.get(task, task).split(' ')[0]}: {technique}"
            acc = {"lower": _ORANGES[4], "higher": _BLUES[4]}.get(row["accuracy"], _GREY)
            var = {"higher": _ORANGES[4], "lower": _BLUES[4]}.get(row["accuracy variance"], _GREY)
            mark = "" if row["experiments reducing bias"] else "X "
            colours[key] = [acc, var]
            labels[key] = [
                mark + f"p={row['accuracy p']:.2f}",
                mark
                + (
                    f"p={row['accuracy Levene p']:.2f}"
                    if pd.notna(row["accuracy Levene p"])
                    else "n/a"
                ),
            ]
    index = ["accuracy", "accuracy variance"]
    _grid(
        ax,
        pd.DataFrame(colours, index=index),
        pd.DataFrame(labels, index=index),
        "Cost in accuracy (U-test) and accuracy variance (Levene)",
    )
    if own:
        ax.figure.tight_layout()
    return ax


def survey_plot(survey: pd.DataFrame, *, ax=None):
    """Papers per year, split by whether they use multiple identical runs.

    Examples
    --------
    >>> from fairbook_book.chapters.fit_variance.results import load_survey
    >>> survey_plot(load_survey()).get_ylabel()
    'papers on DL fairness'
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 3.2))
    counts = (
        survey.assign(runs=survey["multiple_runs"].map({"Y": "multiple runs", "N": "one run"}))
        .groupby(["year", "runs"])
        .size()
        .unstack(fill_value=0)
        .reindex(columns=["multiple runs", "one run"], fill_value=0)
    )
    counts.plot.bar(stacked=True, ax=ax, color=["#2166ac", "#cccccc"], rot=0)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # papers are counted, never 2.5
    ax.set_xlabel("year")
    ax.set_ylabel("papers on DL fairness")
    ax.legend(frameon=False)
    return ax


def survey_reporting_plot(survey: pd.DataFrame, *, ax=None):
    """Of the surveyed papers that use multiple runs, how many report the mean, the standard
    deviation and the range (seed 004 Finding 6).

    Examples
    --------
    >>> from fairbook_book.chapters.fit_variance.results import load_survey
    >>> [t.get_text() for t in survey_reporting_plot(load_survey()).get_xticklabels()]
    ['mean', 'stdev', 'range']
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 3.2))
    multiple = survey[survey["multiple_runs"] == "Y"]
    counts = (multiple[["mean", "stdev", "range"]] == "Y").sum()
    counts.plot.bar(ax=ax, color="#2166ac", rot=0, title="papers with multiple runs that report …")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    return ax


def recorded_box_grids(study: pd.DataFrame, *, tasks=None, title: str = ""):
    """Two rows of :func:`box_grid` per task of a (recorded) study, 9 inches wide; a figure
    that says so when nothing is recorded.

    Parameters
    ----------
    study : DataFrame
        :func:`~fairbook_book.chapters.fit_variance.recorded_study`'s table (may be empty).
    tasks : sequence of str, optional
        Default: the tasks in the study, in its order.
    title : str
        The figure's title (e.g. the recording's budget).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> fig = recorded_box_grids(pd.DataFrame(), title="full")
    >>> fig.axes[0].texts[0].get_text()
    'nothing recorded yet'
    """
    present = [] if study.empty else list(dict.fromkeys(study["task"]))
    tasks = present if tasks is None else [t for t in tasks if t in present]
    metrics = (*METRICS, "accuracy")
    if not tasks:
        fig, ax = plt.subplots(figsize=(6, 1.5))
        ax.text(0.5, 0.5, "nothing recorded yet", ha="center", va="center")
        ax.set_axis_off()
        fig.suptitle(title)
        return fig
    ncols = (len(metrics) + 1) // 2
    fig, axes = plt.subplots(
        2 * len(tasks), ncols, figsize=(MAX_WIDTH, 2.9 * 2 * len(tasks)), squeeze=False
    )
    for i, task in enumerate(tasks):
        rows = axes[2 * i : 2 * i + 2]
        box_grid(study, task, metrics=metrics, axes=rows)
        _names_below_only(rows)
        for row in rows:
            row[0].set_ylabel(f"{TASK_LABELS.get(task, task).split(' ')[0]}, %")
    fig.suptitle(title)
    fig.tight_layout()
    return fig
