"""Chapter 04 (seed 000): the chapter's figures (Figs. 2, 4-6 analogues)."""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd

from fairbook.data.synthetic import make_sd
from fairbook.papers import seed000

from ._names import group_name
from .results import uncertainty_text
from .runs import Run
from .settings import PATTERN_POINT, UNCERTAINTY_RATIOS

__all__ = [
    "plot_ablation",
    "plot_dvlog",
    "plot_individual",
    "plot_reliability",
    "plot_robustness",
    "plot_sd",
    "plot_seed_spread",
    "plot_uncertainty_distributions",
]


# =========================================================================== plots
def _axes(ax, figsize=(5, 4)):
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    return ax


def plot_sd(k: int, *, seed: int = 0, orientation: str = "corrected", ax=None):
    """Fig. 3: one synthetic data set, coloured by label, marked by group."""
    import seaborn as sns

    ax = _axes(ax)
    X, y, g = make_sd(k, seed=seed, orientation=orientation)
    frame = pd.DataFrame({"x1": X[:, 0], "x2": X[:, 1], "Y": y, "G": g})
    sns.scatterplot(
        data=frame,
        x="x1",
        y="x2",
        hue="Y",
        style="G",
        palette="coolwarm",
        s=14,
        ax=ax,
        markers={0: "o", 1: "X"},
    )
    ax.set_title(f"SD{k}" + (" (as printed)" if orientation == "printed" else ""))
    return ax


def plot_seed_spread(study: pd.DataFrame, *, estimator: str = "bnn", ax=None):
    """Each ratio of Table 1 over seeds (log scale), the fair band shaded, paper marked."""
    import seaborn as sns

    ax = _axes(ax, figsize=(9, 4))
    part = study[study["estimator"] == estimator]
    ratios = list(PATTERN_POINT + UNCERTAINTY_RATIOS)
    long = (
        part.melt(id_vars=["SD", "seed"], value_vars=ratios, var_name="ratio", value_name="F")
        .replace([np.inf, -np.inf], np.nan)
        .dropna()
    )
    long = long[long["F"] > 0]
    sns.stripplot(
        data=long, x="ratio", y="F", hue="SD", dodge=True, size=3, alpha=0.7, ax=ax, order=ratios
    )
    for i, ratio in enumerate(ratios):
        for j, sd in enumerate(("SD1", "SD2", "SD3")):
            key = "F_EOdd" if ratio.startswith("F_EOdd") else ratio
            ax.plot(
                i + (j - 1) * 0.27,
                seed000.TABLE_1[sd]["ratios"][key],
                marker="_",
                color="black",
                markersize=12,
            )
    ax.axhspan(1 - seed000.FLAG_THRESHOLD, 1 + seed000.FLAG_THRESHOLD, color="0.9", zorder=0)
    ax.set_yscale("log")
    ax.set_ylabel("F = G0 / G1 (log)")
    ax.set_title(
        f"Table 1 ratios over {part['seed'].nunique()} seeds ({estimator}); "
        "black dash = paper, grey = fair band"
    )
    ax.tick_params(axis="x", rotation=30)
    return ax


_ESTIMATOR_NAMES = {"bnn": "BNN", "ensemble": "deep ensemble"}


def plot_uncertainty_distributions(run: Run, attribute: str, labels, *, axes=None):
    """Per-group distributions of aleatoric and epistemic uncertainty (not only means).

    Each group is named as a reader names it (:func:`~._names.group_name`: "Black", not
    "B"); a black diamond marks the group's mean, the number the ratio measures divide, and
    its value is written beside it.

    Examples
    --------
    >>> probs = np.array([[[0.9, 0.1], [0.5, 0.5], [0.8, 0.2], [0.6, 0.4]],
    ...                   [[0.7, 0.3], [0.5, 0.5], [0.8, 0.2], [0.4, 0.6]]])
    >>> run = Run("COMPAS", "bnn", None, None, np.array([0, 1, 0, 1]),
    ...           {"race": np.array(["B", "B", "W", "W"], dtype=object)}, probs)
    >>> axes = plot_uncertainty_distributions(run, "race", ("B", "W"))
    >>> [t.get_text() for t in axes[0].get_xticklabels()], axes[1].get_yscale()
    (['Black', 'White'], 'log')
    """
    import matplotlib.pyplot as plt
    import seaborn as sns

    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    groups = np.asarray(run.groups[attribute], dtype=object)
    keep = np.isin(groups, list(labels))
    names = [group_name(label) for label in labels]
    frame = pd.DataFrame(
        {
            "group": [group_name(g) for g in groups[keep]],
            "U_a": run.uncertainty["U_a"][keep],
            "U_e": np.maximum(run.uncertainty["U_e"][keep], 1e-12),
        }
    )
    means = frame.groupby("group")[["U_a", "U_e"]].mean()
    estimator = _ESTIMATOR_NAMES.get(run.estimator, run.estimator)
    for ax, kind in zip(axes, ("U_a", "U_e"), strict=True):
        sns.boxenplot(
            data=frame,
            x="group",
            y=kind,
            order=names,
            ax=ax,
            hue="group",
            hue_order=names,
            legend=False,
        )
        for position, name in enumerate(names):
            if name not in means.index:
                continue
            mean = float(means.loc[name, kind])
            ax.plot(position, mean, marker="D", color="black", markersize=6, zorder=5)
            ax.annotate(
                f"mean {uncertainty_text(mean)}",
                (position, mean),
                xytext=(8, 0),
                textcoords="offset points",
                va="center",
                fontsize=10,
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8},
            )
        ax.set_xlim(-0.5, len(names) - 0.05)  # room for the last group's mean, right of it
        words = "aleatoric U_a" if kind == "U_a" else "epistemic U_e (log scale)"
        ax.set_title(f"{run.name} {attribute}: {words}, {estimator}", fontsize=11)
        ax.set_xlabel("")
        ax.set_ylabel(kind, fontsize=10)
        ax.tick_params(labelsize=10)
        if kind == "U_e":
            ax.set_yscale("log")
    return axes


def plot_reliability(table: pd.DataFrame, *, title: str = "", ax=None):
    """Fig. 2: accuracy against confidence per bin, with the diagonal of calibration."""
    ax = _axes(ax, figsize=(4.5, 4.5))
    filled = table[table["count"] > 0]
    centers = (filled["lower"] + filled["upper"]) / 2
    ax.bar(
        centers,
        filled["accuracy"],
        width=filled["upper"] - filled["lower"],
        edgecolor="black",
        color="#4c72b0",
        alpha=0.8,
        label="accuracy",
    )
    ax.bar(
        centers,
        filled["confidence"] - filled["accuracy"],
        bottom=filled["accuracy"],
        width=filled["upper"] - filled["lower"],
        color="#dd8452",
        alpha=0.5,
        label="gap",
    )
    ax.plot([0, 1], [0, 1], "k--", lw=1)
    ax.set_xlabel("confidence")
    ax.set_ylabel("accuracy")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left")
    ax.set_title(title)
    return ax


def plot_individual(tables: dict, *, axes=None):
    """Figs. 4–5: bars of consistency per group × outcome, one row per attribute."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    measures = ("F_y", "F_U_a", "F_U_e")
    if axes is None:
        _, axes = plt.subplots(
            len(tables), 3, figsize=(9, 2.8 * len(tables)), squeeze=False, layout="constrained"
        )
    for row, (title, table) in enumerate(tables.items()):
        for col, m in enumerate(measures):
            ax = axes[row][col]
            values = table[m]
            sns.barplot(x=list(values.index), y=values.to_numpy(), ax=ax, color="#4c72b0")
            low = float(values.min())
            ax.set_ylim(max(0.0, low - (1 - low) * 0.5 - 1e-6), 1.0)
            ax.set_title(f"{title}: {m}")
    return axes


def plot_ablation(frame: pd.DataFrame, *, axes=None):
    """Fig. 6: accuracy, aleatoric and epistemic uncertainty against hidden size.

    Examples
    --------
    >>> frame = pd.DataFrame({"hidden": [10, 100] * 2, "group": ["B", "B", "W", "W"],
    ...                       "seed": 0, "ACC": [0.6, 0.7, 0.65, 0.7],
    ...                       "U_a": [0.2, 0.1, 0.2, 0.1], "U_e": [0.01, 0.02, 0.01, 0.02]})
    >>> [ax.get_xlabel() for ax in plot_ablation(frame)]
    ['hidden units', 'hidden units', 'hidden units']
    """
    import matplotlib.pyplot as plt
    import seaborn as sns

    if axes is None:
        _, axes = plt.subplots(1, 3, figsize=(9, 3.2), layout="constrained")
    for ax, m in zip(axes, ("ACC", "U_a", "U_e"), strict=True):
        sns.lineplot(
            data=frame,
            x="hidden",
            y=m,
            hue="group",
            marker="o",
            ax=ax,
            errorbar="sd" if frame["seed"].nunique() > 1 else None,
        )
        ax.set_xscale("log")
        ax.set_xlabel("hidden units")
    return axes


def plot_dvlog(frame: pd.DataFrame, *, axes=None):
    """Stand-in for Table 7: each group's U_a, U_e and evidence cut against t_max."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    if axes is None:
        _, axes = plt.subplots(1, 3, figsize=(9, 3.2), layout="constrained")
    for ax, m in zip(axes, ("evidence cut", "U_a", "U_e"), strict=True):
        sns.pointplot(
            data=frame,
            x="t_max",
            y=m,
            hue="group",
            ax=ax,
            errorbar="sd" if frame["seed"].nunique() > 1 else None,
        )
        ax.set_xlabel("truncated at")
    return axes


def plot_robustness(robust: pd.DataFrame, *, ax=None):
    """Heat map of the robustness table: per claim (rows) the share of seeds under which it
    holds in each cell (columns), and over all cells (last column); robust claims (share
    ≥ 90 %) are marked with a star."""
    if ax is None:  # its long claim labels fit inside 9 in (constrained layout shrinks the map)
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(8.5, 0.3 * len(robust) + 2.5), layout="constrained")
    cells = [c for c in robust.columns if str(c).startswith("cell: ")]
    values = robust[[*cells, "share"]].to_numpy(float)
    image = ax.imshow(values, aspect="auto", cmap="RdYlGn", vmin=0, vmax=1)
    ax.set_xticks(range(len(cells) + 1))
    ax.set_xticklabels([c.removeprefix("cell: ") for c in cells] + ["all"], rotation=60)
    # long claims wrap onto a second line instead of widening the figure past 9 in
    labels = [
        textwrap.fill(f"{'* ' if r else ''}{source}: {claim}", 60)
        for (source, claim), r in zip(robust.index, robust["robust"], strict=True)
    ]
    ax.set_yticks(range(len(robust)))
    ax.set_yticklabels(labels, fontsize=7)
    ax.axvline(len(cells) - 0.5, color="black", lw=1.5)
    ax.figure.colorbar(image, ax=ax, fraction=0.03, label="share of seeds where the claim holds")
    ax.set_title("Which of the paper's claims hold, by setting (* = under >= 90 % of runs)")
    return ax
