"""The explorers of "Small groups" and the computations behind them.

:func:`space_explorer` serves Sec. 4.3 (``C(x; n)`` and a metric's CDF over M(n));
:func:`smoothing_explorer` serves Secs. 4.5–4.6 (the sampling distribution of a raw,
ε-smoothed and CPS-smoothed score, with MATCH), built on :func:`sampling_distribution`,
:func:`sampling_summary` and :func:`monte_carlo_pvalue`. Both are ipywidgets: they compute
live in JupyterLab, and the HTML book shows the snapshot taken when the page was built.

Both explorers also work in the static page, over a precomputed grid drawn as a
Vega-Lite chart whose controls the browser redraws without a kernel
(:func:`fairbook_book.charts.vega_chart`): :func:`space_grid` and :func:`space_chart` hold every
metric's CDF over M(n) and ``C(x; n)`` for ``n`` up to a small maximum, and
:func:`smoothing_grid` and :func:`smoothing_chart` the sampling distribution of the raw and
the CPS-smoothed score over metric × group size ``n`` × prior strength λ.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd

from fairbook.metrics import METRICS, compute
from fairbook.stats import combinatorics, cps, match
from fairbook_book.plots import figure_html

from ._common import _counts, _metric, _sizes
from .runs import match_pvalues, space_cdfs

__all__ = [
    "SmoothingGrid",
    "SpaceGrid",
    "monte_carlo_pvalue",
    "sampling_distribution",
    "sampling_summary",
    "smoothing_chart",
    "smoothing_explorer",
    "smoothing_grid",
    "space_chart",
    "space_explorer",
    "space_grid",
]


# ---------------------------------------------------- Sec. 4.3: the space of confusion matrices
def _space_view(metric: str, n: int) -> str:
    import matplotlib.pyplot as plt

    cms = combinatorics.enumerate_confusion_matrices(n)
    values = np.asarray(compute(metric, cms), dtype=np.float64)
    holes = int(np.isnan(values).sum())
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3))
    x = np.arange(n + 1)
    left.bar(x, combinatorics.cell_value_count(x, n), color="C0")
    left.set_xlabel("value x of one cell")
    left.set_ylabel("C(x; n)")
    left.set_title(f"Thm 4.2 at n = {n}")
    defined = np.sort(values[~np.isnan(values)])
    if defined.size:
        right.step(defined, np.arange(1, defined.size + 1) / defined.size, where="post")
    right.set_xlabel(metric)
    right.set_ylabel("share of defined M(n)")
    right.set_title(f"{metric} over M({n})")
    facts = pd.DataFrame(
        {
            "value": {
                "N(n) = C(n+3, 3)": combinatorics.n_confusion_matrices(n),
                "matrices enumerated": len(cms),
                f"holes of {metric}": holes,
                f"distinct values of {metric}": int(np.unique(np.round(defined, 12)).size),
            }
        }
    )
    return facts.to_html() + figure_html(fig)


def space_explorer(*, metric: str = "ACC", n: int = 10, n_max: int = 60):
    """Widget: slide ``n`` and pick a metric; see ``C(x; n)`` and the metric's CDF over
    all of ``M(n)``, with its hole count.

    Examples
    --------
    >>> w = space_explorer(n=3)
    >>> "holes of ACC" in w.children[1].value
    True
    """
    import ipywidgets as widgets

    key = _metric(metric)
    slider = widgets.IntSlider(value=int(n), min=1, max=int(n_max), description="n")
    menu = widgets.Dropdown(options=list(METRICS), value=key, description="metric")
    output = widgets.HTML()

    def refresh(_=None):
        output.value = _space_view(menu.value, slider.value)

    slider.observe(refresh, names="value")
    menu.observe(refresh, names="value")
    refresh()
    return widgets.VBox([widgets.HBox([menu, slider]), output])


# -------------------------- Secs. 4.5–4.6: a small group's score, raw, smoothed and under MATCH
def sampling_distribution(
    cm_group,
    cm_ref,
    metric: str,
    n: int,
    *,
    eps: float = 1e-10,
    lam: float = 5.0,
    n_draws: int = 2_000,
    seed: int = 0,
) -> pd.DataFrame:
    """Scores of ``n_draws`` groups of size ``n`` drawn from ``cm_group``'s proportions:
    raw, additively smoothed (ε) and CPS-smoothed towards ``cm_ref`` (λ).

    Returns
    -------
    pandas.DataFrame
        Columns ``raw, additive, cps`` (NaN where undefined); ``attrs`` hold ``target``
        (the full group's score), ``reference`` (the reference's score) and the draws.

    Examples
    --------
    >>> d = sampling_distribution([3, 1, 2, 4], [30, 10, 10, 50], "TPR", 5, n_draws=200)
    >>> d.columns.tolist(), round(d.attrs["target"], 2)
    (['raw', 'additive', 'cps'], 0.75)
    """
    counts = _counts(cm_group, name="cm_group")
    ref = _counts(cm_ref, name="cm_ref")
    key = _metric(metric)
    n = _sizes([n])[0]
    rng = np.random.default_rng(np.random.SeedSequence([seed, n]))
    draws = rng.multinomial(n, counts / counts.sum(), size=int(n_draws)).astype(np.float64)
    frame = pd.DataFrame(
        {
            "raw": compute(key, draws),
            "additive": compute(key, cps.additive(draws, eps)),
            "cps": compute(key, cps.smooth(draws, ref, lam)),
        }
    )
    frame.attrs.update(
        {
            "target": float(compute(key, counts)),
            "reference": float(compute(key, ref)),
            "metric": key,
            "n": n,
            "eps": float(eps),
            "lam": float(lam),
            "draws": draws,
        }
    )
    return frame


def sampling_summary(frame: pd.DataFrame, cm_group, cm_ref, *, alpha: float = 0.05) -> dict:
    """MSE per column of a :func:`sampling_distribution`, the share undefined, and MATCH.

    ``match_p_full_group`` tests the whole group (its real size) against the reference
    (exact; enumerated for F1/MCC/PT up to 200 people, :func:`monte_carlo_pvalue` above);
    ``match_power_at_n`` is the share of the raw draws of size ``n`` whose MATCH p-value
    is below ``alpha`` — how often a group of that size, with the full group's true
    rates, would be told apart from the reference.

    Examples
    --------
    >>> d = sampling_distribution([3, 1, 2, 4], [30, 10, 10, 50], "ACC", 20, n_draws=200)
    >>> sorted(sampling_summary(d, [3, 1, 2, 4], [30, 10, 10, 50]))[:3]
    ['match_p_full_group', 'match_power_at_n', 'mse_additive']
    """
    key, n, target = frame.attrs["metric"], frame.attrs["n"], frame.attrs["target"]
    ref = _counts(cm_ref, name="cm_ref")
    group = _counts(cm_group, name="cm_group")
    p_ref = ref / ref.sum()
    out = {}
    for column in ("raw", "additive", "cps"):
        values = frame[column].to_numpy()
        defined = values[~np.isnan(values)]
        out[f"mse_{column}"] = float(np.mean((defined - target) ** 2)) if defined.size else math.nan
        out[f"undefined_{column}"] = 1 - defined.size / values.size
    methods = match.methods_for(key)
    full_n = int(round(group.sum()))
    observed = np.round(group).astype(np.int64)
    if "exact" in methods:
        out["match_p_full_group"] = match.test(key, observed, p_ref)
    elif full_n <= 200:
        out["match_p_full_group"] = match.test(key, observed, p_ref, method="enumerate")
    else:
        out["match_p_full_group"] = monte_carlo_pvalue(key, observed, p_ref)
    if "exact" in methods or n <= 200:
        p_values = match_pvalues(key, frame["raw"].to_numpy(), p_ref, n)
        finite = p_values[np.isfinite(p_values)]
        out["match_power_at_n"] = float(np.mean(finite < alpha)) if finite.size else math.nan
    else:
        out["match_power_at_n"] = math.nan
    return out


def monte_carlo_pvalue(
    metric: str, cm_obs, p_ref, *, n_draws: int = 20_000, seed: int = 0
) -> float:
    """Two-sided MATCH p-value by Monte Carlo, for metrics without an exact law at large n.

    Draws ``n_draws`` groups of ``n = sum(cm_obs)`` from ``p_ref`` and returns
    ``min(1, 2 min(P̂(S <= s), P̂(S >= s)))`` over the defined draws (as
    :func:`fairbook.stats.match.test`, conditional on the score being defined).

    Examples
    --------
    >>> p_ref = [0.375, 0.125, 0.125, 0.375]
    >>> round(monte_carlo_pvalue("ACC", [40, 10, 10, 40], p_ref), 2)  # exact: 0.298
    0.3
    """
    key = _metric(metric)
    cm = _counts(cm_obs, name="cm_obs")
    score = float(compute(key, cm))
    if math.isnan(score):
        return math.nan
    p = np.asarray(p_ref, dtype=np.float64)
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(int(round(cm.sum())), p / p.sum(), size=int(n_draws))
    values = np.asarray(compute(key, draws), dtype=np.float64)
    values = values[~np.isnan(values)]
    if values.size == 0:
        return math.nan
    slack = 1e-12 * max(1.0, abs(score))
    lower = np.mean(values <= score + slack)
    upper = np.mean(values >= score - slack)
    return float(min(1.0, 2 * min(lower, upper)))


def _smoothing_view(
    groups: dict, group: str, metric: str, n: int, eps: float, lam: float, n_draws: int, seed: int
) -> str:
    import matplotlib.pyplot as plt

    cm_group, cm_ref = groups[group]
    frame = sampling_distribution(
        cm_group, cm_ref, metric, n, eps=eps, lam=lam, n_draws=n_draws, seed=seed
    )
    summary = sampling_summary(frame, cm_group, cm_ref)
    fig, ax = plt.subplots(figsize=(7, 3))
    labels = {"raw": "raw", "additive": f"ε = {eps:g}", "cps": f"CPS λ = {lam:g}"}
    finite = frame.to_numpy()[np.isfinite(frame.to_numpy())]
    bins = np.linspace(finite.min(), finite.max(), 40) if finite.size else 10
    for column, label in labels.items():
        values = frame[column].dropna()
        ax.hist(values, bins=bins, histtype="step", lw=1.4, density=True, label=label)
    ax.axvline(frame.attrs["target"], color="k", ls="--", lw=1, label="full group")
    ax.axvline(frame.attrs["reference"], color="grey", ls=":", lw=1, label="reference")
    ax.set_xlabel(f"{metric} of groups of size {n}")
    ax.legend(fontsize=7)
    facts = pd.DataFrame(
        {
            "value": {
                "full-group score": frame.attrs["target"],
                "reference score": frame.attrs["reference"],
                "MSE raw (defined draws)": summary["mse_raw"],
                f"MSE ε = {eps:g}": summary["mse_additive"],
                f"MSE CPS λ = {lam:g}": summary["mse_cps"],
                "share of raw draws undefined": summary["undefined_raw"],
                "MATCH p-value, whole group vs reference": summary["match_p_full_group"],
                f"MATCH power at n = {n} (p < 0.05)": summary["match_power_at_n"],
            }
        }
    )
    return facts.to_html(float_format=lambda v: f"{v:.4f}", na_rep="undefined (NaN)") + figure_html(
        fig
    )


class SpaceGrid(NamedTuple):
    """The precomputed grid of :func:`space_grid`.

    ``counts``: ``n, x, count`` — ``C(x; n)`` (Theorem 4.2). ``cdf``: ``metric, n, share,
    value`` — the metric's value at evenly spaced shares of the defined matrices of M(n)
    (its quantile function, drawn as the CDF; read off :func:`~.runs.space_cdfs`). ``facts``:
    one row per ``metric, n`` with ``matrices`` (N(n), Theorem 4.1), ``holes``, ``distinct``
    and ``label`` (the line the chart prints).
    """

    counts: pd.DataFrame
    cdf: pd.DataFrame
    facts: pd.DataFrame


def space_grid(*, metrics=METRICS, n_max: int = 20, points: int = 41) -> SpaceGrid:
    """Every metric's distribution over the space M(n) of confusion matrices, for
    ``n = 1 … n_max``: the static counterpart of :func:`space_explorer`.

    Parameters
    ----------
    metrics : iterable of str, default all of :data:`fairbook.metrics.METRICS`
    n_max : int, default 20
        The largest sample size (M(n) has ``C(n + 3, 3)`` matrices; all are enumerated).
    points : int, default 41
        How many evenly spaced shares (0 … 1) of the CDF are kept per metric and ``n``.

    Returns
    -------
    SpaceGrid
        No NaN: a metric undefined on all of M(n) has no CDF rows and ``distinct`` 0.

    Examples
    --------
    >>> grid = space_grid(metrics=["TPR"], n_max=2, points=3)
    >>> grid.facts[["n", "matrices", "holes"]].values.tolist()  # TP + FN = 0 is a hole
    [[1, 4, 2], [2, 10, 3]]
    >>> grid.counts.query("n == 2")["count"].tolist()  # C(x; 2) for x = 0, 1, 2
    [6, 3, 1]
    """
    if int(n_max) < 1 or int(points) < 2:
        raise ValueError(f"n_max must be >= 1 and points >= 2, got {n_max!r}, {points!r}")
    keys = [_metric(m) for m in ([metrics] if isinstance(metrics, str) else metrics)]
    if not keys:
        raise ValueError("metrics must not be empty")
    shares = np.linspace(0.0, 1.0, int(points))
    sizes = range(1, int(n_max) + 1)
    # Fig. 4.2's step CDFs (every matrix of M(n) enumerated), thinned to `points` shares
    curves = dict(tuple(space_cdfs(keys, sizes).groupby(["metric", "n"], sort=False)))
    counts, cdf, facts = [], [], []
    for n in sizes:
        x = np.arange(n + 1)
        counts.extend(
            {"n": n, "x": int(v), "count": int(c)}
            for v, c in zip(x, combinatorics.cell_value_count(x, n), strict=True)
        )
        total = combinatorics.n_confusion_matrices(n)
        for key in keys:
            curve = curves.get((key, n))  # None: the metric is undefined on all of M(n)
            holes = total if curve is None else int(curve["holes"].iloc[0])
            distinct = 0 if curve is None else len(curve)
            if curve is not None:
                # the value below which a share q of the defined matrices lies (inverted CDF)
                index = np.searchsorted(curve["cdf"].to_numpy(), shares, side="right")
                values = curve["value"].to_numpy()[np.minimum(index, distinct - 1)]
                cdf.extend(
                    {"metric": key, "n": n, "share": float(q), "value": round(float(v), 5)}
                    for q, v in zip(shares, values, strict=True)
                )
            facts.append(
                {
                    "metric": key,
                    "n": n,
                    "matrices": total,
                    "holes": holes,
                    "distinct": distinct,
                    "label": (
                        f"{key} over M({n}): N({n}) = {total} matrices; holes (undefined): "
                        f"{holes} ({holes / total:.0%}); distinct values: {distinct}"
                    ),
                }
            )
    return SpaceGrid(pd.DataFrame(counts), pd.DataFrame(cdf), pd.DataFrame(facts))


def space_chart(grid: SpaceGrid, *, metric: str | None = None, n: int | None = None):
    """The static space explorer: a Vega-Lite chart of a :func:`space_grid`.

    Two controls: the metric (a dropdown) and ``n`` (a slider). Left: ``C(x; n)``, how many
    matrices of M(n) hold the value ``x`` in one cell. Right: the metric's CDF over the
    defined matrices of M(n). Above: N(n), the holes and the distinct values.

    Parameters
    ----------
    grid : SpaceGrid
    metric, n : optional
        The initial values (default: the first metric, ``n`` = 10 or the largest).

    Returns
    -------
    altair.VConcatChart

    Examples
    --------
    >>> spec = space_chart(space_grid(metrics=["ACC", "MCC"], n_max=3)).to_dict()
    >>> sorted(p["name"] for p in spec["params"])
    ['metric', 'n']
    """
    import altair as alt

    metrics = list(dict.fromkeys(grid.facts["metric"]))
    sizes = sorted(set(grid.facts["n"]))
    p_metric = alt.param(
        name="metric",
        value=metric or metrics[0],
        bind=alt.binding_select(options=metrics, name="metric "),
    )
    p_n = alt.param(
        name="n",
        value=int(n if n is not None else min(10, sizes[-1])),
        bind=alt.binding_range(min=sizes[0], max=sizes[-1], step=1, name="sample size n "),
    )
    bars = (
        alt.Chart(grid.counts)
        .transform_filter(alt.datum.n == p_n)
        .mark_bar(color="#1f77b4")
        .encode(
            x=alt.X("x:O", title="value x of one cell"),
            y=alt.Y("count:Q", title="C(x; n)"),
            tooltip=["x:O", "count:Q"],
        )
        .properties(width=250, height=200)
    )
    # one row per metric and n holding its curve as two lists (Altair embeds at most 5,000
    # rows); the chart unfolds the chosen row
    curves = (
        grid.cdf.groupby(["metric", "n"], sort=False)
        .agg(value=("value", list), share=("share", list))
        .reset_index()
    )
    curve = (
        alt.Chart(curves)
        .transform_filter((alt.datum.metric == p_metric) & (alt.datum.n == p_n))
        .transform_flatten(["value", "share"])
        .mark_line(interpolate="step-after", point=True, color="#d62728")
        .encode(
            x=alt.X("value:Q", title="metric value", scale=alt.Scale(zero=False)),
            y=alt.Y("share:Q", title="share of defined matrices of M(n)"),
            tooltip=[alt.Tooltip("value:Q", format=".4f"), alt.Tooltip("share:Q", format=".2f")],
        )
        .properties(width=250, height=200)
    )
    text = (
        alt.Chart(grid.facts)
        .transform_filter((alt.datum.metric == p_metric) & (alt.datum.n == p_n))
        .mark_text(align="left", fontSize=11)
        .encode(x=alt.value(0), text="label:N")
        .properties(width=520, height=20)
    )
    return (
        alt.vconcat(text, alt.hconcat(bars, curve))
        .add_params(p_metric, p_n)
        .configure_view(strokeWidth=0)
    )


def smoothing_explorer(
    groups: dict,
    *,
    metrics=cps.PAPER_METRICS,
    metric: str = "MCC",
    group: str | None = None,
    n: int = 20,
    eps: float = 1e-10,
    lam: float = 5.0,
    n_draws: int = 2_000,
    seed: int = 0,
):
    """Widget: pick metric, group, ``n``, ε and λ; see the sampling distribution of the
    raw, ε-smoothed and CPS-smoothed score and the MATCH p-value.

    Parameters
    ----------
    groups : dict
        ``{label: (cm_group, cm_reference)}`` from
        :func:`~fairbook_book.chapters.small_groups.runs.cps_groups`.

    Examples
    --------
    >>> g = {"toy": (np.array([3.0, 1, 2, 4]), np.array([30.0, 10, 10, 50]))}
    >>> w = smoothing_explorer(g, metric="TPR", n_draws=200)
    >>> "MATCH p-value" in w.children[1].value
    True
    """
    import ipywidgets as widgets

    if not groups:
        raise ValueError("groups is empty")
    labels = list(groups)
    chosen = labels[0] if group is None else group
    if chosen not in groups:
        raise ValueError(f"unknown group {chosen!r}; choose one of {labels}")
    metric_menu = widgets.Dropdown(
        options=[_metric(m) for m in metrics], value=_metric(metric), description="metric"
    )
    group_menu = widgets.Dropdown(options=labels, value=chosen, description="group")
    size = widgets.IntSlider(value=int(n), min=2, max=150, description="n")
    eps_menu = widgets.Dropdown(
        options=[0.0, 1e-10, 1e-3, 0.5, 1.0], value=float(eps), description="ε"
    )
    lam_slider = widgets.FloatSlider(value=float(lam), min=0.0, max=50.0, step=1.0, description="λ")
    output = widgets.HTML()

    def refresh(_=None):
        output.value = _smoothing_view(
            groups,
            group_menu.value,
            metric_menu.value,
            size.value,
            eps_menu.value,
            lam_slider.value,
            n_draws,
            seed,
        )

    for control in (metric_menu, group_menu, size, eps_menu, lam_slider):
        control.observe(refresh, names="value")
    refresh()
    return widgets.VBox(
        [
            widgets.VBox(
                [
                    widgets.HBox([metric_menu, group_menu]),
                    widgets.HBox([size, eps_menu, lam_slider]),
                ]
            ),
            output,
        ]
    )


# ------------------------------- Sec. 4.6: the smoothing explorer that works in the static page
class SmoothingGrid(NamedTuple):
    """The precomputed grid of :func:`smoothing_grid`.

    ``hist``: ``metric, n, lam, estimator, bin_low, bin_high, share`` — the share of all
    draws whose score falls in the bin (undefined scores fall in none, so the raw bars of
    a metric with holes add up to less than 1); the raw rows have ``lam`` None (the raw
    score does not depend on λ). ``summary``: one row per ``metric, n, lam`` with
    ``target`` (the full group's score), ``reference``, ``mse_raw``, ``mse_cps`` (over the
    defined draws), ``undefined_raw`` and ``label`` (the line the chart prints).
    """

    hist: pd.DataFrame
    summary: pd.DataFrame


def _score_range(metric: str) -> tuple[float, float]:
    return (-1.0, 1.0) if metric in ("MCC", "B") else (0.0, 1.0)


def smoothing_grid(
    cm_group,
    cm_ref,
    *,
    metrics=("MCC", "TPR", "PPV", "ACC"),
    sizes=(5, 10, 20, 40, 80, 150),
    lams=(0, 5, 10, 15, 20, 25, 30),
    n_draws: int = 2_000,
    bins: int = 20,
    seed: int = 0,
) -> SmoothingGrid:
    """The sampling distribution of a raw and a CPS-smoothed score over a grid of
    metric × group size ``n`` × λ, for the static smoothing explorer.

    For each ``n`` the draws are those of :func:`sampling_distribution` (the same seed
    stream ``SeedSequence([seed, n])``), so every cell of the grid agrees with it; the
    draws are scored raw and smoothed towards ``cm_ref`` with each λ
    (:func:`fairbook.stats.cps.smooth`; λ = 0 is the raw score).

    Parameters
    ----------
    cm_group, cm_ref : array-like of shape (4,)
        The group's counts (drawn from) and the reference's (the prior of CPS).
    metrics : iterable of str
    sizes : iterable of int
    lams : iterable of float
        Prior strengths λ >= 0 (evenly spaced, for the chart's slider).
    n_draws : int, default 2000
    bins : int, default 20
        Bins over the metric's range ([0, 1], or [−1, 1] for MCC and B).
    seed : int, default 0

    Returns
    -------
    SmoothingGrid
        Empty bins are left out; no NaN (missing values are None).

    Examples
    --------
    >>> grid = smoothing_grid([3, 1, 2, 4], [30, 10, 10, 50], metrics=["TPR"], sizes=[5],
    ...                       lams=[0, 5], n_draws=200)
    >>> grid.summary.lam.tolist()
    [0.0, 5.0]
    >>> raw = grid.hist.query("estimator == 'raw'").share.sum()  # 1 − P(TP + FN = 0)
    >>> bool(abs(raw - (1 - grid.summary.undefined_raw.iloc[0])) < 1e-9)
    True
    """
    group = _counts(cm_group, name="cm_group")
    ref = _counts(cm_ref, name="cm_ref")
    keys = [_metric(m) for m in metrics]
    lam_values = [float(v) for v in lams]
    if not keys or not lam_values:
        raise ValueError("metrics and lams must not be empty")
    if any(not math.isfinite(v) or v < 0 for v in lam_values):
        raise ValueError(f"lams must be finite and >= 0, got {list(lams)!r}")
    if int(bins) < 2 or int(n_draws) < 1:
        raise ValueError(f"bins must be >= 2 and n_draws >= 1, got {bins!r}, {n_draws!r}")
    hist, summary = [], []

    def add_hist(values, metric, n, lam, estimator):
        low, high = _score_range(metric)
        edges = np.linspace(low, high, int(bins) + 1)
        defined = values[~np.isnan(values)]
        counts, _ = np.histogram(np.clip(defined, low, high), bins=edges)
        for b in np.flatnonzero(counts):
            hist.append(
                {
                    "metric": metric,
                    "n": n,
                    "lam": lam,
                    "estimator": estimator,
                    "bin_low": float(edges[b]),
                    "bin_high": float(edges[b + 1]),
                    "share": round(float(counts[b] / values.size), 5),
                }
            )

    def mse(values, target):
        defined = values[~np.isnan(values)]
        if not defined.size or math.isnan(target):
            return None
        return float(np.mean((defined - target) ** 2))

    for n in _sizes(sizes):
        rng = np.random.default_rng(np.random.SeedSequence([seed, n]))
        draws = rng.multinomial(n, group / group.sum(), size=int(n_draws)).astype(np.float64)
        for key in keys:
            target = float(compute(key, group))
            reference = float(compute(key, ref))
            raw = np.asarray(compute(key, draws), dtype=np.float64)
            add_hist(raw, key, n, None, "raw")
            for lam in lam_values:
                smoothed = np.asarray(compute(key, cps.smooth(draws, ref, lam)), dtype=np.float64)
                add_hist(smoothed, key, n, lam, "CPS")
                row = {
                    "metric": key,
                    "n": n,
                    "lam": lam,
                    "target": None if math.isnan(target) else target,
                    "reference": None if math.isnan(reference) else reference,
                    "mse_raw": mse(raw, target),
                    "mse_cps": mse(smoothed, target),
                    "undefined_raw": float(np.isnan(raw).mean()),
                }
                row["label"] = (
                    f"{key}, n = {n}, λ = {lam:g}: MSE raw "
                    + ("undefined" if row["mse_raw"] is None else f"{row['mse_raw']:.4f}")
                    + f" ({row['undefined_raw']:.0%} of raw draws undefined); MSE CPS "
                    + ("undefined" if row["mse_cps"] is None else f"{row['mse_cps']:.4f}")
                )
                summary.append(row)
    hist_frame = pd.DataFrame(
        hist, columns=["metric", "n", "lam", "estimator", "bin_low", "bin_high", "share"]
    ).astype({"lam": object})
    hist_frame["lam"] = [None if v is None or pd.isna(v) else float(v) for v in hist_frame["lam"]]
    return SmoothingGrid(hist_frame, pd.DataFrame(summary))


def smoothing_chart(
    grid: SmoothingGrid,
    *,
    metric: str | None = None,
    n: int | None = None,
    lam: float | None = None,
):
    """The static smoothing explorer: a Vega-Lite chart of a :func:`smoothing_grid`.

    Three controls, each bound to a parameter that every panel filters on: the metric (a
    dropdown), the group size ``n`` (radio buttons) and λ (a slider over the grid's
    values). Left: the share of draws per bin of the raw score and of the CPS score, with
    the full group's score (dashed) and the reference's (dotted). Right: the MSE against
    the full group's score over ``n``, raw and CPS at the chosen λ, the chosen ``n``
    marked. Above: the chosen cell's numbers.

    Parameters
    ----------
    grid : SmoothingGrid
    metric, n, lam : optional
        The initial values (default: the first metric, the second size, λ = 5 or the
        grid's second λ).

    Returns
    -------
    altair.VConcatChart

    Examples
    --------
    >>> grid = smoothing_grid([3, 1, 2, 4], [30, 10, 10, 50], metrics=["TPR", "ACC"],
    ...                       sizes=[5, 10], lams=[0, 5], n_draws=100)
    >>> spec = smoothing_chart(grid).to_dict()
    >>> sorted(p["name"] for p in spec["params"])
    ['lam', 'metric', 'n']
    """
    import altair as alt

    summary = grid.summary
    metrics = list(dict.fromkeys(summary["metric"]))
    sizes = sorted(set(summary["n"]))
    lams = sorted(set(summary["lam"]))
    if len(lams) < 2:
        raise ValueError("the grid needs at least two values of λ for the slider")
    step = lams[1] - lams[0]
    if not np.allclose(np.diff(lams), step):
        raise ValueError(f"the grid's λ values must be evenly spaced for the slider: {lams}")
    start_lam = lam if lam is not None else (5.0 if 5.0 in lams else lams[1])
    p_metric = alt.param(
        name="metric",
        value=metric or metrics[0],
        bind=alt.binding_select(options=metrics, name="metric "),
    )
    p_n = alt.param(
        name="n",
        value=int(n if n is not None else sizes[min(1, len(sizes) - 1)]),
        bind=alt.binding_radio(options=[int(v) for v in sizes], name="group size n "),
    )
    p_lam = alt.param(
        name="lam",
        value=float(start_lam),
        bind=alt.binding_range(min=lams[0], max=lams[-1], step=step, name="CPS strength λ "),
    )
    colours = alt.Scale(domain=["raw", "CPS"], range=["#d62728", "#1f77b4"])
    chosen_cell = (alt.datum.metric == p_metric) & (alt.datum.n == p_n)
    same_lam = alt.expr.abs(alt.datum.lam - p_lam) < 1e-9
    hist = (
        alt.Chart(grid.hist)
        .transform_filter(chosen_cell)
        .transform_filter((alt.datum.estimator == "raw") | same_lam)
        .mark_bar(opacity=0.55, binSpacing=0)
        .encode(
            x=alt.X("bin_low:Q", title="score of groups of size n", scale=alt.Scale(zero=False)),
            x2="bin_high:Q",
            y=alt.Y("share:Q", title="share of draws", stack=None),
            y2=alt.datum(0),
            color=alt.Color("estimator:N", scale=colours, title="estimate"),
            tooltip=[
                "estimator:N",
                "bin_low:Q",
                "bin_high:Q",
                alt.Tooltip("share:Q", format=".3f"),
            ],
        )
    )
    cell = alt.Chart(summary).transform_filter(chosen_cell).transform_filter(same_lam)
    target = cell.mark_rule(color="black", strokeDash=[5, 3]).encode(x="target:Q")
    reference = cell.mark_rule(color="grey", strokeDash=[1, 2]).encode(x="reference:Q")
    left = (hist + target + reference).properties(width=250, height=200)
    curves = (
        alt.Chart(summary)
        .transform_filter(alt.datum.metric == p_metric)
        .transform_filter(same_lam)
        .transform_fold(["mse_raw", "mse_cps"], as_=["estimate", "mse"])
        .transform_filter("isValid(datum.mse) && datum.mse > 0")
        .transform_calculate(estimate="datum.estimate == 'mse_raw' ? 'raw' : 'CPS'")
    )
    lines = curves.mark_line(point=True).encode(
        x=alt.X(
            "n:Q",
            title="group size n",
            scale=alt.Scale(type="log", domain=[sizes[0], sizes[-1]], nice=False),
            axis=alt.Axis(values=[int(v) for v in sizes], grid=False),
        ),
        y=alt.Y(
            "mse:Q",
            title="MSE against the full group's score",
            scale=alt.Scale(type="log"),
            axis=alt.Axis(grid=False),
        ),
        color=alt.Color("estimate:N", scale=colours, title="estimate"),
    )
    marked = (
        curves.transform_filter(alt.datum.n == p_n)
        .mark_point(size=160, filled=False, color="black")
        .encode(x="n:Q", y="mse:Q")
    )
    right = (lines + marked).properties(width=250, height=200)
    text = (
        cell.mark_text(align="left", fontSize=11, lineBreak="; ")
        .encode(x=alt.value(0), text="label:N")
        .properties(width=520, height=30)
    )
    return (
        alt.vconcat(text, alt.hconcat(left, right))
        .add_params(p_metric, p_n, p_lam)
        .configure_legend(orient="bottom")
        .configure_view(strokeWidth=0)
    )
