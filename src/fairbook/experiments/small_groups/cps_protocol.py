"""Sec. 4.6 of "Small groups": the Cross-Prior Smoothing protocol (Figs. 4.4–4.6).

The groups (COMPAS and Adult, each against everyone else), the MSE of raw, additively
smoothed and CPS-smoothed scores as the group size grows
(:func:`fairbook.stats.cps.smoothing_mse`), the paper's claims about it, where CPS loses
(measured, and predicted exactly for the linear metrics), the figures, and the cost of the
full profile.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd

from fairbook.confusion import CELLS
from fairbook.metrics import compute
from fairbook.papers import seed003
from fairbook.replication import replication_table
from fairbook.stats import combinatorics, cps, match

from ._common import _check_frame, _counts, _metric
from .compas_definitions import _COMPAS_GROUPS, compas_definition_counts


def cps_groups(
    *,
    adult_counts: pd.DataFrame | None = None,
    compas_definition: str = "general_zafar",
    frame: pd.DataFrame | None = None,
) -> dict:
    """The groups of the CPS experiment: ``{label: (cm_group, cm_reference)}``.

    * ``COMPAS (ours) …``: Black and White from our loader under ``compas_definition``
      (positive = recidivist, Medium/High = predicted positive), reference = everyone else;
    * ``COMPAS (published) …``: the Sec. 4.6.2 matrices, reference = all − group;
    * ``Adult …``: every race group of ``adult_counts`` (the Folktables stand-in),
      reference = everyone else.

    Examples
    --------
    >>> c = pd.DataFrame({"TP": [1, 2], "FN": [0, 1], "FP": [1, 0], "TN": [3, 3]},
    ...                  index=["x", "y"])
    >>> g = cps_groups(adult_counts=c, compas_definition=None)
    >>> g["Adult: x"][1].tolist()
    [2.0, 1.0, 0.0, 3.0]
    """
    groups = {}
    if compas_definition is not None:
        ours = compas_definition_counts(compas_definition, frame=frame)
        for group in _COMPAS_GROUPS:
            groups[f"COMPAS (ours): {group}"] = (
                ours[group].astype(float),
                (ours["all"] - ours[group]).astype(float),
            )
        published = {g: np.asarray(cm, float) for g, cm in seed003.COMPAS_CPS_MATRICES.items()}
        for group in _COMPAS_GROUPS:
            groups[f"COMPAS (published): {group}"] = (
                published[group],
                published["all"] - published[group],
            )
    if adult_counts is not None:
        cms = _check_frame(adult_counts)[list(CELLS)].to_numpy(dtype=np.float64)
        total = cms.sum(axis=0)
        for group, cm in zip(adult_counts.index, cms, strict=True):
            groups[f"Adult: {group}"] = (cm, total - cm)
    return groups


def cps_group_table(groups: dict) -> pd.DataFrame:
    """The groups of :func:`cps_groups` as a table: their counts and the reference's size.

    Examples
    --------
    >>> g = {"g": (np.array([1.0, 2, 3, 4]), np.array([10.0, 10, 10, 10]))}
    >>> cps_group_table(g).loc["g"].tolist()
    [1.0, 2.0, 3.0, 4.0, 10.0, 40.0]
    """
    rows = {
        label: {
            **dict(zip(CELLS, np.asarray(cm, float).tolist(), strict=True)),
            "n": float(np.sum(cm)),
            "reference n": float(np.sum(ref)),
        }
        for label, (cm, ref) in groups.items()
    }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "group"
    return frame


def cps_experiment(
    groups: dict,
    *,
    sizes,
    metrics=cps.PAPER_METRICS,
    n_draws: int,
    lams=(5, 10, 20),
    eps=(0.0, 1e-10, 1.0),
    seed: int = 0,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """Sec. 4.6.2's protocol for several groups (:func:`fairbook.stats.cps.smoothing_mse`).

    Group ``i`` (in the order of ``groups``) uses the seed ``seed + i``.

    Parameters
    ----------
    groups : dict
        From :func:`cps_groups`.
    sizes, metrics, n_draws, lams, eps, n_jobs
        As in :func:`~fairbook.stats.cps.smoothing_mse`.
    seed : int, default 0

    Returns
    -------
    pandas.DataFrame
        ``smoothing_mse``'s columns plus ``group``, ``reference`` (the reference's score,
        towards which CPS pulls) and ``setting_label`` (``"raw"``, ``"ε = 1e-10"``,
        ``"ε = 1"``, ``"CPS λ = 5"`` …).

    Examples
    --------
    >>> g = {"toy": (np.array([3.0, 1, 2, 4]), np.array([30.0, 10, 10, 50]))}
    >>> t = cps_experiment(g, sizes=[5], metrics=["TPR"], n_draws=500, lams=(5,), eps=(0,))
    >>> t.setting_label.tolist()
    ['raw', 'CPS λ = 5']
    """
    frames = []
    for index, (label, (cm_group, cm_ref)) in enumerate(groups.items()):
        counts = _counts(cm_group, name=f"group {label!r}")
        table = cps.smoothing_mse(
            counts / counts.sum(),
            _counts(cm_ref, name="reference"),
            sizes,
            metrics,
            n_draws=n_draws,
            lams=lams,
            eps=eps,
            seed=seed + index,
            progress=False,
            n_jobs=n_jobs,
        )
        table.insert(0, "group", label)
        reference = {name: float(compute(name, cm_ref)) for name in dict.fromkeys(table["metric"])}
        table["reference"] = table["metric"].map(reference)
        frames.append(table)
    out = pd.concat(frames, ignore_index=True)
    out["setting_label"] = [
        _setting_label(m, s) for m, s in zip(out["method"], out["setting"], strict=True)
    ]
    return out


def _setting_label(method: str, setting: float) -> str:
    if method == "additive":
        return "raw" if setting == 0 else f"ε = {setting:g}"
    return f"CPS λ = {setting:g}"


def _wide(table: pd.DataFrame, column: str) -> pd.DataFrame:
    return table.pivot_table(
        index=["group", "metric", "n"], columns="setting_label", values=column, aggfunc="first"
    )


def _below(mse: pd.DataFrame, low: pd.DataFrame, high: pd.DataFrame, a: str, b: str, mask=None):
    """(hit, valid): cells where ``a``'s MSE is below ``b``'s with the 95 % intervals
    apart, and cells where both are defined (restricted to ``mask``)."""
    valid = (mse[a].notna() & mse[b].notna()).to_numpy()
    if mask is not None:
        valid = valid & np.asarray(mask, dtype=bool)
    hit = (high[a] < low[b]).to_numpy() & valid
    return hit, valid


#: Metrics with holes among the paper's fifteen (undefined for some matrices).
_HOLE_METRICS = tuple(
    m for m in cps.PAPER_METRICS if match._family(m) not in ("binomial", "marginal benefit")
)

#: Sec. 4.6.2's comparisons: (claim, lower setting, higher setting, metrics or None = all).
_CPS_CLAIMS = (
    ("CPS λ = 5 below raw (all metrics)", "CPS λ = 5", "raw", None),
    ("CPS λ = 20 below CPS λ = 5", "CPS λ = 20", "CPS λ = 5", None),
    ("ε = 1e-10 below raw (metrics with holes)", "ε = 1e-10", "raw", _HOLE_METRICS),
    (
        f"raw below ε = 1 ({', '.join(seed003.CPS_CLAIMS['eps1_worse_than_raw'])})",
        "raw",
        "ε = 1",
        seed003.CPS_CLAIMS["eps1_worse_than_raw"],
    ),
    (
        f"ε = 1 below CPS λ = 10 ({', '.join(seed003.CPS_CLAIMS['eps1_better_than_cps10'])})",
        "ε = 1",
        "CPS λ = 10",
        seed003.CPS_CLAIMS["eps1_better_than_cps10"],
    ),
)


def cps_claim_shares(table: pd.DataFrame) -> pd.DataFrame:
    """Sec. 4.6.2's comparisons, per group, as shares of (metric, size) cells.

    ``significant``: the first setting's MSE is below the second's with the 95 %
    intervals apart (the paper's "statistical significance"); ``point``: below at all.

    Returns
    -------
    pandas.DataFrame
        ``claim, group, cells, significant, point`` (shares in [0, 1]).

    Examples
    --------
    >>> g = {"toy": (np.array([3.0, 1, 2, 4]), np.array([3.0, 1, 2, 4]))}
    >>> t = cps_experiment(g, sizes=[5, 10], metrics=["TPR", "PREV"], n_draws=4000)
    >>> cps_claim_shares(t).claim.iloc[0]
    'CPS λ = 5 below raw (all metrics)'
    """
    mse, low, high = _wide(table, "mse"), _wide(table, "ci_low"), _wide(table, "ci_high")
    metrics = mse.index.get_level_values("metric")
    groups = mse.index.get_level_values("group")
    rows = []
    for claim, a, b, names in _CPS_CLAIMS:
        if a not in mse or b not in mse:
            continue
        mask = np.ones(len(mse), bool) if names is None else metrics.isin(names)
        hit, valid = _below(mse, low, high, a, b, mask)
        if not valid.any():  # the claim's metrics or settings were not run
            continue
        point = (mse[a] < mse[b]).to_numpy() & valid
        for group in dict.fromkeys(groups):
            in_group = (groups == group) & valid
            cells = int(in_group.sum())
            rows.append(
                {
                    "claim": claim,
                    "group": group,
                    "cells": cells,
                    "significant": float(hit[in_group].mean()) if cells else math.nan,
                    "point": float(point[in_group].mean()) if cells else math.nan,
                }
            )
    return pd.DataFrame(rows, columns=["claim", "group", "cells", "significant", "point"])


def cps_claims(table: pd.DataFrame) -> pd.DataFrame:
    """Sec. 4.6.2's claims over every group of a CPS run, paper ("always", 1.0) vs ours.

    ``ours`` is the share of (group, metric, size) cells where the claim holds with the
    95 % intervals apart; the note adds the share where it holds by point estimate. The
    last row is the conclusion's "CPS consistently improved … all 15 metrics", read as
    the MSE averaged over sizes. Raw and ε-smoothed MSEs are over defined draws only, as
    in the paper.

    Examples
    --------
    >>> g = {"toy": (np.array([3.0, 1, 2, 4]), np.array([3.0, 1, 2, 4]))}
    >>> t = cps_experiment(g, sizes=[5, 10], metrics=["TPR", "PREV"], n_draws=4000)
    >>> cps_claims(t).quantity.iloc[0]
    'CPS λ = 5 below raw (all metrics)'
    """
    shares = cps_claim_shares(table)
    rows = []
    for claim, part in shares.groupby("claim", sort=False):
        cells = part["cells"].sum()
        significant = (
            float((part["significant"] * part["cells"]).sum() / cells) if cells else math.nan
        )
        point = float((part["point"] * part["cells"]).sum() / cells) if cells else math.nan
        rows.append(
            {
                "quantity": claim,
                "paper": 1.0,
                "ours": significant,
                "note": f"{cells} (group, metric, n) cells; by point estimate {point:.2f}",
            }
        )
    mse = _wide(table, "mse")
    if "CPS λ = 5" in mse and "raw" in mse:
        per_metric = mse.groupby(level=["group", "metric"])[["CPS λ = 5", "raw"]].mean()
        improved = per_metric["CPS λ = 5"] < per_metric["raw"]
        rows.append(
            {
                "quantity": "CPS λ = 5 improves the MSE averaged over sizes (every group × metric)",
                "paper": 1.0,
                "ours": float(improved.mean()),
                "note": f"{int(improved.sum())} of {len(improved)} group × metric",
            }
        )
    return replication_table(rows)


def cps_losses(table: pd.DataFrame) -> pd.DataFrame:
    """Where CPS is *worse* than no smoothing: cells with the CPS MSE above the raw one
    and the 95 % intervals apart, grouped by group, metric and λ.

    Returns
    -------
    pandas.DataFrame
        ``group, metric, setting, sizes_lost, first_n, target, reference`` (the full
        group's score and the reference's: CPS pulls the one towards the other).

    Examples
    --------
    >>> g = {"far": (np.array([9.0, 1, 1, 9]), np.array([1.0, 9, 9, 1]))}
    >>> t = cps_experiment(g, sizes=[100], metrics=["ACC"], n_draws=2000, lams=(20,),
    ...                    eps=(0,))
    >>> cps_losses(t)[["metric", "setting", "sizes_lost"]].values.tolist()
    [['ACC', 'CPS λ = 20', 1]]
    """
    mse, low, high = _wide(table, "mse"), _wide(table, "ci_low"), _wide(table, "ci_high")
    columns = ["group", "metric", "setting", "sizes_lost", "first_n", "target", "reference"]
    if "raw" not in mse:
        return pd.DataFrame(columns=columns)
    rows = []
    for setting in [c for c in mse.columns if c.startswith("CPS")]:
        worse = (low[setting] > high["raw"]) & mse[setting].notna() & mse["raw"].notna()
        lost = worse[worse]
        for (group, metric), part in lost.groupby(level=["group", "metric"], sort=False):
            sizes = part.index.get_level_values("n")
            first = table[(table["group"] == group) & (table["metric"] == metric)].iloc[0]
            rows.append(
                {
                    "group": group,
                    "metric": metric,
                    "setting": setting,
                    "sizes_lost": len(sizes),
                    "first_n": int(min(sizes)),
                    "target": float(first["target"]),
                    "reference": float(first["reference"]),
                }
            )
    return pd.DataFrame(rows, columns=columns)


def cps_linear_mse(score, reference, variance, n, lam):
    """Exact MSE of the CPS estimate of a *linear* metric (binomial metrics and B).

    For a metric that is a mean of ``n`` i.i.d. per-person terms with mean ``score`` and
    variance ``variance`` (``s(1 − s)`` for a binomial metric, ``p_FP + p_FN − B²`` for
    B), CPS gives ``(n·ŝ + λ·s_ref)/(n + λ)``, so with ``w = n/(n + λ)``

    ``MSE = (1 − w)² (s_ref − s)² + w² · variance / n``

    (``λ = 0`` is the raw estimate's ``variance / n``).

    Parameters
    ----------
    score, reference, variance : float
    n, lam : float or array-like
        Broadcast together.

    Returns
    -------
    ndarray

    Examples
    --------
    >>> float(cps_linear_mse(0.5, 0.5, 0.25, 10, 0))  # the raw variance s(1 − s)/n
    0.025
    >>> float(cps_linear_mse(0.5, 0.5, 0.25, 10, 10))  # same mean: CPS halves the sd
    0.00625
    """
    n = np.asarray(n, dtype=np.float64)
    lam = np.asarray(lam, dtype=np.float64)
    w = n / (n + lam)
    return (1 - w) ** 2 * (reference - score) ** 2 + w**2 * variance / n


def _linear_variance(metric: str, p: np.ndarray) -> float:
    if metric == "B":
        b = p[2] - p[1]
        return float(p[2] + p[1] - b * b)
    s = float(p[list(combinatorics.BINOMIAL_CELLS[metric])].sum())
    return s * (1 - s)


def cps_break_even(
    groups: dict, *, metrics=("ACC", "PREV", "PPR", "B"), lams=(5, 10, 20)
) -> pd.DataFrame:
    """From which size on CPS is *worse* than the raw score, for the linear metrics.

    By :func:`cps_linear_mse`, CPS loses exactly when
    ``(s_ref − s)² > v (2/λ + 1/n)``: never if ``(s_ref − s)² <= 2v/λ``, otherwise for
    every ``n > 1 / ((s_ref − s)²/v − 2/λ)``. The prediction can be set beside
    :func:`cps_losses` (which needs the intervals apart, so it starts later).

    Parameters
    ----------
    groups : dict
        From :func:`cps_groups`.
    metrics : iterable of str
        Binomial metrics and/or ``"B"``.
    lams : iterable of float

    Returns
    -------
    pandas.DataFrame
        ``group, metric, score, reference, gap, break_even_gap_λ=…`` (the largest gap CPS
        tolerates as ``n → ∞``, ``√(2v/λ)``) and ``loses_from_n_λ=…`` (NaN: never).

    Examples
    --------
    >>> g = {"g": (np.array([10.0, 0, 0, 10]), np.array([2.0, 0, 0, 18]))}
    >>> t = cps_break_even(g, metrics=["PPR"], lams=[5])
    >>> t[["gap", "loses_from_n_λ=5"]].round(3).values.tolist()  # v = .25, gap .4
    [[-0.4, 5.0]]
    """
    names = [_metric(m) for m in metrics]
    for name in names:
        if name != "B" and name not in combinatorics.BINOMIAL_CELLS:
            raise ValueError(f"{name} is not linear in the counts (binomial metrics and B)")
    rows = []
    for label, (cm_group, cm_ref) in groups.items():
        group = _counts(cm_group, name=f"group {label!r}")
        ref = _counts(cm_ref, name="reference")
        p = group / group.sum()
        for name in names:
            score, reference = float(compute(name, group)), float(compute(name, ref))
            v = _linear_variance(name, p)
            row = {
                "group": label,
                "metric": name,
                "score": score,
                "reference": reference,
                "gap": reference - score,
            }
            for lam in lams:
                lam = float(lam)
                row[f"break_even_gap_λ={lam:g}"] = math.sqrt(2 * v / lam)
                excess = (reference - score) ** 2 / v - 2 / lam if v > 0 else math.nan
                row[f"loses_from_n_λ={lam:g}"] = (
                    float(math.floor(1 / excess) + 1) if excess > 0 else math.nan
                )
            rows.append(row)
    return pd.DataFrame(rows)


def cps_summary(table: pd.DataFrame, *, group: str | None = None) -> pd.DataFrame:
    """MSE averaged over sizes, one row per metric (and group), one column per setting,
    relative to the raw MSE; plus the share of raw draws left out as undefined at the
    smallest size.

    Examples
    --------
    >>> g = {"toy": (np.array([3.0, 1, 2, 4]), np.array([30.0, 10, 10, 50]))}
    >>> t = cps_experiment(g, sizes=[5], metrics=["TPR"], n_draws=500)
    >>> cps_summary(t).columns.tolist()[:2]
    ['raw MSE', 'raw']
    """
    part = table if group is None else table[table["group"] == group]
    if part.empty:
        raise ValueError(f"no rows for group {group!r}")
    mse = part.pivot_table(
        index=["group", "metric"], columns="setting_label", values="mse", aggfunc="mean", sort=False
    )
    order = [
        c
        for c in ("raw", "ε = 1e-10", "ε = 1", "CPS λ = 5", "CPS λ = 10", "CPS λ = 20")
        if c in mse
    ]
    rel = mse[order].div(mse["raw"], axis=0) if "raw" in mse else mse[order]
    rel.insert(0, "raw MSE", mse["raw"] if "raw" in mse else np.nan)
    smallest = part[(part["n"] == part["n"].min()) & (part["setting_label"] == "raw")]
    undefined = smallest.set_index(["group", "metric"])["share_undefined"]
    rel[f"raw undefined at n = {part['n'].min()}"] = undefined.reindex(rel.index)
    if group is not None:
        rel = rel.droplevel("group")
    return rel


def plot_mse(table: pd.DataFrame, *, group: str, metrics, settings_shown=None, axes=None):
    """Figs. 4.4–4.6: MSE against group size with 95 % bands, one panel per metric.

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`cps_experiment`.
    group : str
    metrics : iterable of str
    settings_shown : iterable of str, optional
        Setting labels (``"raw"``, ``"ε = 1e-10"``, ``"CPS λ = 5"`` …); all by default.
    axes : sequence of axes, optional

    Examples
    --------
    >>> g = {"toy": (np.array([3.0, 1, 2, 4]), np.array([30.0, 10, 10, 50]))}
    >>> t = cps_experiment(g, sizes=[5, 7], metrics=["TPR"], n_draws=500)
    >>> [ax.get_title() for ax in plot_mse(t, group="toy", metrics=["TPR"])]
    ['TPR']
    """
    import matplotlib.pyplot as plt

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
        _, axes = plt.subplots(1, len(names), figsize=(3.6 * len(names), 3.3), squeeze=False)
        axes = axes[0]
    axes = list(np.atleast_1d(axes))
    for ax, name in zip(axes, names, strict=False):
        for colour, label in enumerate(shown):
            sub = part[(part["metric"] == name) & (part["setting_label"] == label)]
            if sub.empty:
                continue
            ax.plot(sub["n"], sub["mse"], color=f"C{colour}", lw=1.2, label=label)
            ax.fill_between(sub["n"], sub["ci_low"], sub["ci_high"], color=f"C{colour}", alpha=0.25)
        ax.set_yscale("log")
        ax.set_title(name)
        ax.set_xlabel("group size n")
    axes[0].set_ylabel("MSE vs full-group score")
    axes[0].legend(fontsize=7)
    return axes


def full_profile_cost(
    n_groups: int, *, n_settings: int = 6, sizes: int = 145, root=None
) -> pd.DataFrame:
    """Wall time of the full CPS protocol, extrapolated from the measured benchmark.

    Reads ``benchmarks/results/bench_cps.json`` (the paper's six settings, extrapolated
    from 13 sizes at 10⁶ draws) and ``bench_cps_full.json`` (one setting, measured at full
    scale) and scales the single-process times to ``n_groups`` groups.

    Parameters
    ----------
    n_groups : int
    n_settings : int, default 6
        Settings per group (3 ε + 3 λ).
    sizes : int, default 145
    root : path, optional
        The repository root (found from the working directory when omitted).

    Returns
    -------
    pandas.DataFrame
        ``benchmark, seconds_per_group, seconds_total, minutes_total`` (empty when the
        benchmark files are absent).

    Examples
    --------
    >>> full_profile_cost(2, root="/nonexistent").empty
    True
    """
    from pathlib import Path

    if root is None:
        try:
            from fairbook.chapters import find_root

            root = find_root()
        except Exception:  # noqa: BLE001 - no book root: no estimate
            return pd.DataFrame(
                columns=["benchmark", "seconds_per_group", "seconds_total", "minutes_total"]
            )
    folder = Path(root) / "benchmarks" / "results"
    rows = []
    for name in ("bench_cps.json", "bench_cps_full.json"):
        path = folder / name
        if not path.is_file():
            continue
        data = json.loads(path.read_text("utf-8"))
        for result in data.get("results", []):
            if result.get("n_jobs") != 1:
                continue
            per_setting = result["seconds_full_scale"] / (
                len(result.get("lams", [])) + len(result.get("eps", []))
            )
            per_group = per_setting * n_settings * sizes / 145
            rows.append(
                {
                    "benchmark": f"{name}: {result['config']}"
                    f"{' (extrapolated)' if result.get('extrapolated') else ''}",
                    "seconds_per_group": per_group,
                    "seconds_total": per_group * n_groups,
                    "minutes_total": per_group * n_groups / 60,
                }
            )
    return pd.DataFrame(
        rows, columns=["benchmark", "seconds_per_group", "seconds_total", "minutes_total"]
    )
