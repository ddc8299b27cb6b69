"""The widgets of "Small groups" and the computations behind them.

:func:`space_explorer` serves Sec. 4.3 (``C(x; n)`` and a metric's CDF over M(n));
:func:`smoothing_explorer` serves Secs. 4.5–4.6 (the sampling distribution of a raw,
ε-smoothed and CPS-smoothed score, with MATCH), built on :func:`sampling_distribution`,
:func:`sampling_summary` and :func:`monte_carlo_pvalue`. Both compute live in JupyterLab;
the HTML book shows the snapshot taken when the page was built (the chapter has no
precomputed grid).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from fairbook.metrics import METRICS, compute
from fairbook.plots import figure_html
from fairbook.stats import combinatorics, cps, match

from ._common import _counts, _metric, _sizes
from .runs import match_pvalues

__all__ = [
    "monte_carlo_pvalue",
    "sampling_distribution",
    "sampling_summary",
    "smoothing_explorer",
    "space_explorer",
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
        :func:`~fairbook.experiments.small_groups.runs.cps_groups`.

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
