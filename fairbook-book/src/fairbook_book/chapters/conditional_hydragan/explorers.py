"""Explorer of "Conditional HydraGAN": the diversity target and weight, and what they do.

:func:`mitigation_grid` precomputes small runs for every diversity target × weight of the
profile; :func:`explorer` is an ipywidget that slices it (the figure is an image inside an
HTML widget, so the static book shows its first state and JupyterLab redraws it);
:func:`mitigation_chart` is the same grid as a Vega-Lite chart whose controls respond in the
static page without a kernel (shown through :func:`fairbook_book.charts.vega_chart`).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from fairbook.generative import divergences
from fairbook_book.plots import figure_html

from ._common import _class_order
from .runs import run_once
from .settings import IDEAL, METRICS

__all__ = ["explorer", "mitigation_chart", "mitigation_grid"]


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
        fontsize=10,
    )
    axes[0].legend(fontsize=9)
    present = list(dict.fromkeys(sel["class"]))
    classes = [c for c in _class_order() if c in present]
    classes += [c for c in present if c not in classes]
    for ax, metric in zip(axes[1:], METRICS, strict=True):
        m = sel[sel["metric"] == metric].set_index("class").reindex(classes)
        m[["real", "synthetic"]].plot.bar(
            ax=ax, color=["#b2182b", "#2166ac"], legend=False, width=0.8
        )
        ax.axhline(IDEAL[metric], color="k", lw=0.8)
        ax.set_title(f"{metric} (ideal {IDEAL[metric]:g})", fontsize=10)
        ax.set_xlabel("")
        ax.tick_params(axis="x", labelrotation=60, labelsize=9)
    axes[1].legend(axes[1].containers, ["real", "synthetic"], fontsize=9)
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


def _chart_data(grid: pd.DataFrame):
    metrics = grid.melt(
        id_vars=["target", "weight", "class", "metric"],
        value_vars=["real", "synthetic"],
        var_name="training",
        value_name="value",
    )
    metrics["distance"] = metrics["value"] - metrics["metric"].map(IDEAL)
    shares = [c for c in grid.columns if c.startswith("p_")]
    first = grid.drop_duplicates(["target", "weight"])
    occupations = first.melt(
        id_vars=["target", "weight", "js_real", "js_synthetic"],
        value_vars=shares,
        var_name="occupation",
        value_name="share",
    )
    occupations["occupation"] = occupations["occupation"].str[2:]
    clean = [f.astype(object).where(f.notna(), None) for f in (metrics, occupations)]
    return clean[0], clean[1], len(shares)


def mitigation_chart(grid: pd.DataFrame, *, target: str | None = None, weight=None):
    """The static explorer: :func:`mitigation_grid` as a Vega-Lite chart.

    Two controls, bound to parameters that every panel filters on: the diversity target (a
    dropdown) and the diversity weight (radio buttons over the grid's weights). Above: the
    generated share of each occupation, the uniform share dashed. Below, one panel per
    metric: each class's distance from the metric's ideal (DI minus 1), real training data
    in red, synthetic in blue.

    Parameters
    ----------
    grid : DataFrame
        :func:`mitigation_grid`'s table.
    target, weight : optional
        The initial values (default: the first target, the largest weight).

    Returns
    -------
    altair.VConcatChart

    Examples
    --------
    >>> import itertools
    >>> rows = [{"target": "uniform", "weight": w, "class": c, "metric": m, "real": 0.1,
    ...          "synthetic": 0.05, "js_real": 0.3, "js_synthetic": 0.2, "p_a": 0.5,
    ...          "p_b": 0.5} for w, c, m in itertools.product((0.0, 1.0), ("F", "M"), METRICS)]
    >>> spec = mitigation_chart(pd.DataFrame(rows)).to_dict()
    >>> sorted(p["name"] for p in spec["params"])
    ['target', 'weight']
    """
    import altair as alt

    if grid.empty:
        raise ValueError("the grid is empty: nothing to chart")
    metrics, occupations, n_occupations = _chart_data(grid)
    targets = list(dict.fromkeys(grid["target"]))
    weights = sorted({float(w) for w in grid["weight"]})
    p_target = alt.param(
        name="target",
        value=target or targets[0],
        bind=alt.binding_select(options=targets, name="diversity target "),
    )
    p_weight = alt.param(
        name="weight",
        value=float(weight if weight is not None else weights[-1]),
        bind=alt.binding_radio(options=weights, name="diversity weight "),
    )
    chosen = (alt.datum.target == p_target) & (alt.expr.abs(alt.datum.weight - p_weight) < 1e-9)
    bars = (
        alt.Chart(occupations)
        .transform_filter(chosen)
        .mark_bar(color="#2166ac")
        .encode(
            x=alt.X("occupation:N", title=None),
            y=alt.Y("share:Q", title="generated share"),
            tooltip=["occupation:N", alt.Tooltip("share:Q", format=".3f")],
        )
    )
    uniform = (
        alt.Chart(occupations)
        .transform_filter(chosen)
        .transform_aggregate(count="count()")
        .transform_calculate(uniform=f"{1 / max(n_occupations, 1)}")
        .mark_rule(color="black", strokeDash=[5, 3])
        .encode(y="uniform:Q")
    )
    top = (bars + uniform).properties(width=560, height=150, title="generated occupations")
    colours = alt.Scale(domain=["real", "synthetic"], range=["#b2182b", "#2166ac"])
    panels = []
    for metric in METRICS:
        panels.append(
            alt.Chart(metrics)
            .transform_filter(chosen)
            .transform_filter(alt.datum.metric == metric)
            .mark_bar()
            .encode(
                x=alt.X("class:N", title=None, sort=_class_order()),
                xOffset="training:N",
                y=alt.Y("distance:Q", title="distance from the ideal"),
                color=alt.Color("training:N", scale=colours, title="trained on"),
                tooltip=["class:N", "training:N", alt.Tooltip("value:Q", format=".3f")],
            )
            .properties(width=120, height=160, title=f"{metric} (ideal {IDEAL[metric]:g})")
        )
    return (
        alt.vconcat(top, alt.hconcat(*panels))
        .add_params(p_target, p_weight)
        .configure_legend(orient="bottom")
        .configure_view(strokeWidth=0)
    )
