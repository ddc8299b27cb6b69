"""Explorer of "Conditional HydraGAN": the diversity target and weight, and what they do.

:func:`mitigation_grid` precomputes small runs for every diversity target × weight of the
profile; :func:`explorer` is an ipywidget that slices it (the figure is an image inside an
HTML widget, so the static book shows its first state and JupyterLab redraws it).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from fairbook.generative import divergences
from fairbook.plots import figure_html

from ._common import _class_order
from .runs import run_once
from .settings import IDEAL, METRICS

__all__ = ["explorer", "mitigation_grid"]


def mitigation_grid(data: dict, config: dict) -> pd.DataFrame:
    """Small runs (seed ``seed``, ``grid_epochs`` epochs on ``grid_n_train`` rows) for every
    target × diversity weight of the profile: the widget's precomputed table.

    Columns: ``target, weight, class, metric, real, synthetic`` (pair definition) plus,
    per run, the JS distance of the activities to uniform and the sedentary share.
    """
    small = dict(
        config,
        epochs=config["grid_epochs"],
        n_seeds=1,
        n_synthetic=min(int(config["n_synthetic"]), int(config["grid_n_train"])),
    )
    n = min(int(config["grid_n_train"]), len(data["train"]))
    sub = {
        "train": data["train"].sample(n=n, random_state=int(config["seed"])).reset_index(drop=True),
        "test": data["test"],
    }
    rows = []
    for target in config["grid_targets"]:
        for weight in config["grid_weights"]:
            r = run_once(
                sub, small, seed=int(config["seed"]), target=target, diversity_weight=float(weight)
            )
            act = r["activities"]
            uniform = np.full(len(act), 1 / len(act))
            wide = (
                r["scores"][r["scores"]["definition"] == "pair"]
                .pivot_table(index=["class", "metric"], columns="data", values="value")
                .reset_index()
            )
            rows.append(
                wide.assign(
                    target=target,
                    weight=float(weight),
                    js_real=divergences(act["real"].to_numpy(), uniform)["JS distance"],
                    js_synthetic=divergences(act["synthetic"].to_numpy(), uniform)["JS distance"],
                    sedentary_real=r["sedentary_share"]["real"],
                    sedentary_synthetic=r["sedentary_share"]["synthetic"],
                    **{f"p_{c}": v for c, v in act["synthetic"].items()},
                )
            )
    return pd.concat(rows, ignore_index=True)


def _explorer_figure(grid: pd.DataFrame, target: str, weight: float):
    sel = grid[(grid["target"] == target) & (grid["weight"] == weight)]
    fig = plt.figure(figsize=(10, 7))
    grid_spec = fig.add_gridspec(2, len(METRICS), height_ratios=[1, 1.15])
    axes = [fig.add_subplot(grid_spec[0, :])]
    axes += [fig.add_subplot(grid_spec[1, i]) for i in range(len(METRICS))]
    first = sel.iloc[0]
    props = pd.Series({c[2:]: first[c] for c in grid.columns if c.startswith("p_")})
    props.plot.bar(ax=axes[0], color="#2166ac")
    axes[0].axhline(1 / len(props), color="k", ls="--", lw=0.8, label="uniform")
    axes[0].set_title(
        f"generated occupations (JS to uniform {first['js_synthetic']:.3f}; "
        f"real {first['js_real']:.3f})",
        fontsize=9,
    )
    axes[0].legend(fontsize=8)
    present = list(dict.fromkeys(sel["class"]))
    classes = [c for c in _class_order() if c in present]
    classes += [c for c in present if c not in classes]
    for ax, metric in zip(axes[1:], METRICS, strict=True):
        m = sel[sel["metric"] == metric].set_index("class").reindex(classes)
        m[["real", "synthetic"]].plot.bar(
            ax=ax, color=["#b2182b", "#2166ac"], legend=False, width=0.8
        )
        ax.axhline(IDEAL[metric], color="k", lw=0.8)
        ax.set_title(f"{metric} (ideal {IDEAL[metric]:g})", fontsize=9)
        ax.set_xlabel("")
        ax.tick_params(axis="x", labelrotation=60, labelsize=8)
    axes[1].legend(axes[1].containers, ["real", "synthetic"], fontsize=8)
    fig.tight_layout()
    return fig


def explorer(grid: pd.DataFrame):
    """Widget: pick the diversity target and weight; see the generated occupations and
    the four bias metrics (distance from their ideal) move. Slices :func:`mitigation_grid`
    (the figure is an image inside an HTML widget, so the static book shows the first state).

    Examples
    --------
    >>> import itertools
    >>> rows = [{"target": "uniform", "weight": w, "class": c, "metric": m, "real": 0.1,
    ...          "synthetic": 0.05, "js_real": 0.3, "js_synthetic": 0.2, "p_a": 0.5,
    ...          "p_b": 0.5} for w, c, m in itertools.product((0.0, 1.0), ("F", "M"), METRICS)]
    >>> w = explorer(pd.DataFrame(rows))
    >>> w.children[-1].value.startswith("<img")
    True
    """
    import ipywidgets as widgets

    targets = list(dict.fromkeys(grid["target"]))
    weights = sorted(set(grid["weight"]))
    target = widgets.Dropdown(options=targets, value=targets[0], description="target")
    weight = widgets.SelectionSlider(
        options=weights,
        value=weights[-1],
        description="diversity weight",
        style={"description_width": "initial"},
    )
    out = widgets.HTML()

    def refresh(_=None):
        out.value = figure_html(_explorer_figure(grid, target.value, weight.value))

    target.observe(refresh, names="value")
    weight.observe(refresh, names="value")
    refresh()
    return widgets.VBox([target, weight, out])
