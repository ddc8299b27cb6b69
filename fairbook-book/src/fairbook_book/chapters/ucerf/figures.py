"""Chapter 05 (seed 001, UCerF): the chapter's figures."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["plot_occupations", "plot_temperatures"]


def plot_occupations(table: pd.DataFrame, *, ax=None, title: str = ""):
    """Dumbbell plot: mean desirability of each occupation's pro and anti sentences.

    Examples
    --------
    >>> t = pd.DataFrame({"D pro": [0.2, 0.5], "D anti": [-0.1, 0.4],
    ...                   "stereotype": ["male", "female"]}, index=["cook", "nurse"])
    >>> plot_occupations(t).get_xlabel()
    'mean desirability D'
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(6, 0.22 * len(table) + 1.2))
    y = np.arange(len(table))
    ax.hlines(y, table["D anti"], table["D pro"], color="0.7", linewidth=1.5)
    ax.scatter(table["D pro"], y, color="tab:red", label="pro-stereotypical", zorder=3, s=18)
    ax.scatter(table["D anti"], y, color="tab:blue", label="anti-stereotypical", zorder=3, s=18)
    labels = [
        f"{name} ({'♂' if s == 'male' else '♀'})"
        for name, s in zip(table.index, table["stereotype"], strict=True)
    ]
    ax.set_yticks(y, labels, fontsize=8)
    ax.axvline(0, color="0.4", linewidth=0.8, linestyle=":")
    ax.set_xlim(-1.05, 1.05)
    ax.set_xlabel("mean desirability D")
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title(title)
    return ax


def plot_temperatures(variants: pd.DataFrame, *, ax=None):
    """UCerF and 1 − EO difference of the temperature variants (1 = fair on both).

    Examples
    --------
    >>> idx = pd.MultiIndex.from_product([["intrinsic"], [0.5, 1.0]],
    ...                                  names=["format", "temperature"])
    >>> v = pd.DataFrame({"UCerF": [0.7, 0.8], "EO difference": [0.1, 0.1]}, index=idx)
    >>> plot_temperatures(v).get_xscale()
    'log'
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    for (fmt, part), colour in zip(
        variants.groupby(level="format", sort=False),
        ("tab:purple", "tab:green", "tab:orange"),
        strict=False,
    ):
        t = part.index.get_level_values("temperature")
        ax.plot(t, part["UCerF"], marker="o", color=colour, label=f"{fmt}: UCerF")
        ax.plot(
            t,
            1 - part["EO difference"],
            linestyle="--",
            color=colour,
            label=f"{fmt}: 1 − EO difference",
        )
    ax.set_xscale("log")
    temperatures = sorted(set(variants.index.get_level_values("temperature")))
    ax.set_xticks(temperatures, [f"{t:g}" for t in temperatures])
    ax.minorticks_off()
    ax.set_xlabel("temperature of the option distribution")
    ax.set_ylabel("fairness (1 = fair)")
    ax.legend(fontsize=8)
    return ax
