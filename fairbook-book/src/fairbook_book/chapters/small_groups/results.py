"""Results of "Small groups" (seed 003 ch. 4): the chapter's tables, without paper numbers.

Each function turns a run of :mod:`~fairbook_book.chapters.small_groups.runs` into the table
the chapter shows, or is itself a check by enumeration or a closed form cheap enough to build
directly (Theorems 4.1–4.3, PT's holes, the CPS break-even). The paper's printed values are
set beside ours in :mod:`~fairbook_book.chapters.small_groups.replication`, not here.

* Sec. 4.3 — :func:`space_table` (Theorems 4.1–4.2 by enumeration), :func:`space_moments`;
* Sec. 4.4 — :func:`pt_hole_table`, :func:`indeterminacy_table`, :func:`mcc_limit_table`;
* Sec. 4.5 — :func:`match_summary`;
* Sec. 4.6 — :func:`compas_definition_table`, :func:`cps_group_table`,
  :func:`cps_claim_shares`, :func:`cps_losses`, :func:`cps_linear_mse`,
  :func:`cps_break_even`, :func:`cps_summary`, and the cost of the full profile
  (:func:`cps_seconds_per_setting`, :func:`full_profile_cost`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from fairbook.confusion import CELLS
from fairbook.metrics import compute
from fairbook.papers import seed003
from fairbook.stats import combinatorics, cps, match

from ._common import _counts, _metric, _scale_text, _setting_text, _sizes, _wide
from .runs import _compas_frame, compas_definition_counts
from .settings import COMPAS_DEFINITIONS, PROFILES

__all__ = [
    "compas_definition_table",
    "cps_break_even",
    "cps_claim_shares",
    "cps_group_table",
    "cps_linear_mse",
    "cps_losses",
    "cps_seconds_per_setting",
    "cps_summary",
    "full_profile_cost",
    "indeterminacy_table",
    "match_summary",
    "mcc_limit_table",
    "pt_hole_table",
    "space_moments",
    "space_table",
]


# ---------------------------------------------------- Sec. 4.3: the space of confusion matrices
def space_table(sizes=range(0, 13)) -> pd.DataFrame:
    """Theorems 4.1–4.2 checked by enumeration: ``N(n)`` and every ``C(x; n)``.

    For each ``n`` the closed form ``N(n) = C(n + 3, 3)`` is compared with the number of
    enumerated matrices, and ``C(x; n) = C(n − x + 2, 2)`` with how often ``x`` occurs in
    each of the four cells, for every ``x = 0 … n``.

    Parameters
    ----------
    sizes : iterable of int
        Values of ``n >= 0``.

    Returns
    -------
    pandas.DataFrame
        Columns ``n, N_closed_form, N_enumerated, C_checked, C_agree, C_0`` (``C_0`` is
        ``C(0; n)``, the most frequent value of a cell).

    Examples
    --------
    >>> space_table([1, 2])[["n", "N_closed_form", "N_enumerated", "C_agree"]]
       n  N_closed_form  N_enumerated  C_agree
    0  1              4             4     True
    1  2             10            10     True
    """
    rows = []
    for n in _sizes(sizes, minimum=0):
        cms = combinatorics.enumerate_confusion_matrices(n)
        closed = combinatorics.cell_value_count(np.arange(n + 1), n)
        agree = all(
            np.array_equal(np.bincount(cms[:, cell], minlength=n + 1), closed) for cell in range(4)
        )
        rows.append(
            {
                "n": n,
                "N_closed_form": combinatorics.n_confusion_matrices(n),
                "N_enumerated": len(cms),
                "C_checked": 4 * (n + 1),
                "C_agree": agree,
                "C_0": int(closed[0]),
            }
        )
    return pd.DataFrame(rows)


def space_moments(cdfs: pd.DataFrame) -> pd.DataFrame:
    """Mean and standard deviation of each metric over ``M(n)`` from
    :func:`~fairbook_book.chapters.small_groups.runs.space_cdfs`.

    The last column is the standard deviation of the limit law: every matrix equally
    likely is, as ``n → ∞``, a flat Dirichlet(1, 1, 1, 1) on the cell proportions, under
    which a binomial metric is Beta(2, 2) (sd ``√(1/20)``) and a joint-ratio metric is
    Beta(1, 1) (sd ``√(1/12)``): the spread does **not** shrink to 0.

    Examples
    --------
    >>> from fairbook_book.chapters.small_groups.runs import space_cdfs
    >>> m = space_moments(space_cdfs(["ACC"], [100]))
    >>> round(float(m.loc[0, "mean"]), 6), round(float(m.loc[0, "limit_sd"]), 4)
    (0.5, 0.2236)
    """
    rows = []
    for (metric, n), part in cdfs.groupby(["metric", "n"], sort=False):
        probs = np.diff(np.concatenate([[0.0], part["cdf"].to_numpy()]))
        values = part["value"].to_numpy()
        mean = float(probs @ values)
        sd = float(np.sqrt(probs @ (values - mean) ** 2))
        base = metric.split(" ")[0]
        family = match._family(base)
        limit = {"binomial": math.sqrt(1 / 20), "joint ratio": math.sqrt(1 / 12)}.get(
            family, math.nan
        )
        rows.append(
            {
                "metric": metric,
                "n": n,
                "mean": mean,
                "sd": sd,
                "share_holes": part["holes"].iloc[0] / part["N"].iloc[0],
                "limit_sd": limit,
            }
        )
    return pd.DataFrame(rows)


# ----------------------------------------------------------- Sec. 4.4: the holes of the metrics
def pt_hole_table(n_max: int = 60) -> pd.DataFrame:
    """PT's holes by enumeration beside Theorem 4.3's bounds, ``n = 1 … n_max``.

    Returns
    -------
    pandas.DataFrame
        ``n, holes, closed_form`` (:func:`fairbook.stats.combinatorics.
        pt_hole_count_closed_form`, ``2n + 1 + Σ_{d|n} φ(d) n/d``), ``mcc_holes`` (4n,
        all PT holes too), ``lower, upper, holds_upper, holes_per_n_log_n, share``
        (``share`` = holes / N(n), Corollary 4.3.1).

    Examples
    --------
    >>> pt_hole_table(10).set_index("n").loc[10, ["holes", "upper"]].round(1).tolist()
    [48.0, 22.6]
    """
    table = combinatorics.hole_count_table(n_max, metrics=["PT"])
    out = pd.DataFrame(
        {
            "n": table["n"].to_numpy(),
            "holes": table["enumerated"].to_numpy(),
            "mcc_holes": 4 * table["n"].to_numpy(),
            "lower": table["lower_bound"].astype(float).to_numpy(),
            "upper": table["upper_bound"].astype(float).to_numpy(),
            "holds_upper": table["holds_upper"].to_numpy(),
        }
    )
    out.insert(
        2, "closed_form", [combinatorics.pt_hole_count_closed_form(int(k)) for k in out["n"]]
    )
    n = out["n"].to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out["holes_per_n_log_n"] = np.where(n > 1, out["holes"] / (n * np.log(n)), np.nan)
    out["share"] = out["holes"] / [combinatorics.n_confusion_matrices(int(k)) for k in n]
    return out


def indeterminacy_table(
    metric: str = "FPR", *, n: int = 10, scales=(1e-3, 1e-9), ratios=None
) -> pd.DataFrame:
    """Theorem 4.4 along the paths of its proof
    (:func:`fairbook.stats.combinatorics.indeterminacy_demo`), for reading.

    The scale ``t = c_i + c_j`` prints as a power of ten (``10⁻³``) and the two cells of
    the ratio as shares of it (``0.2 t``), so the table shows what the path is without
    numbers in scientific notation.

    Parameters
    ----------
    metric : str, default "FPR"
        A joint-ratio metric.
    n : int, default 10
        Mass held by the two cells outside the ratio.
    scales : sequence of float, default (1e-3, 1e-9)
        Values of ``t``.
    ratios : sequence of float, optional
        Values of ``r = c_i / c_j`` (the demo's default when omitted).

    Returns
    -------
    pandas.DataFrame
        The demo's columns, with ``t`` and the ratio's two cells as text.

    Examples
    --------
    >>> table = indeterminacy_table("FPR", scales=(1e-3,), ratios=(0.25,))
    >>> table.loc[0, ["t", "FP", "TN"]].tolist(), float(table.loc[0, "value"])
    (['10⁻³', '0.2 t', '0.8 t'], 0.2)
    """
    options = {} if ratios is None else {"ratios": ratios}
    demo = combinatorics.indeterminacy_demo(metric, n=n, scales=scales, **options)
    key = _metric(metric)
    out = demo.copy()
    scale = demo["t"].to_numpy(dtype=float)
    for index in combinatorics.JRM_CELLS[key]:
        cell = CELLS[index]
        share = np.divide(
            demo[cell].to_numpy(dtype=float), scale, out=np.zeros(len(demo)), where=scale > 0
        )
        out[cell] = [_share_text(x) for x in share]
    out["t"] = [_scale_text(t) for t in scale]
    return out


def _share_text(share: float) -> str:
    """``0``, ``t`` or ``0.2 t``: a cell on the path as a share of ``t``."""
    if share == 0:
        return "0"
    if np.isclose(share, 1.0):
        return "t"
    return f"{share:.3g} t"


def mcc_limit_table(paths: pd.DataFrame) -> pd.DataFrame:
    """A :func:`~fairbook_book.chapters.small_groups.runs.mcc_limit_paths` table laid out wide:
    one row per hole and direction, one column per ``t`` (largest first), and the value
    along the path in ``limit``.

    Examples
    --------
    >>> from fairbook_book.chapters.small_groups.runs import mcc_limit_paths
    >>> mcc_limit_table(mcc_limit_paths(10, scales=[1e-2])).columns.tolist()
    ['t = 10⁻²', 'limit']
    """
    wide = paths.pivot(index=["hole", "direction"], columns="t", values="MCC")
    wide = wide[sorted(wide.columns, reverse=True)]
    wide.columns = [f"t = {_scale_text(t)}" for t in wide.columns]
    wide["limit"] = paths.groupby(["hole", "direction"])["limit"].first()
    return wide


# --------------------------------------------------------- Sec. 4.5: MATCH on real small groups
def match_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per group: how many apparent disparities a
    :func:`~fairbook_book.chapters.small_groups.runs.match_table` finds and keeps.

    Examples
    --------
    >>> t = pd.DataFrame({"group": ["a", "a"], "n": [10, 10], "metric": ["ACC", "PPR"],
    ...                   "gap": [0.2, -0.1], "apparent": [True, True],
    ...                   "survives": [True, False]})
    >>> match_summary(t).loc["a", "surviving"], match_summary(t).loc["a", "not significant"]
    ('ACC (+0.20)', 'PPR (-0.10)')
    """
    rows = {}
    for group, part in table.groupby("group", sort=False):
        kept = part[part["survives"]]
        lost = part[part["apparent"] & ~part["survives"]]
        rows[group] = {
            "n": int(part["n"].iloc[0]),
            "apparent": int(part["apparent"].sum()),
            "survive": int(part["survives"].sum()),
            "surviving": ", ".join(
                f"{m} ({g:+.2f})" for m, g in zip(kept["metric"], kept["gap"], strict=True)
            ),
            "not significant": ", ".join(
                f"{m} ({g:+.2f})" for m, g in zip(lost["metric"], lost["gap"], strict=True)
            ),
        }
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "group"
    return out


# --------------------------------------- Sec. 4.6: which COMPAS matrices the published ones are
def compas_definition_table(*, frame: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every definition of :data:`~fairbook_book.chapters.small_groups.settings.COMPAS_DEFINITIONS`
    beside the published matrices.

    Returns
    -------
    pandas.DataFrame
        One row per (definition, group): ``TP FN FP TN n FPR FNR``, ``max_cell_gap``
        (largest absolute difference of a cell from the published matrix) and
        ``tv_distance`` (half the L1 distance between the cell proportions).

    Examples
    --------
    >>> t = compas_definition_table()  # doctest: +SKIP
    >>> t.loc[("published", "all"), "n"]  # doctest: +SKIP
    6454
    """
    df = _compas_frame(None) if frame is None else frame
    published = {g: np.asarray(cm, dtype=np.int64) for g, cm in seed003.COMPAS_CPS_MATRICES.items()}
    tables = {"published": published}
    tables.update({d: compas_definition_counts(d, frame=df) for d in COMPAS_DEFINITIONS})
    rows = []
    for definition, cms in tables.items():
        for group, cm in cms.items():
            ref = published[group]
            rows.append(
                {
                    "definition": definition,
                    "group": group,
                    **dict(zip(CELLS, cm.tolist(), strict=True)),
                    "n": int(cm.sum()),
                    "FPR": float(compute("FPR", cm)),
                    "FNR": float(compute("FNR", cm)),
                    "max_cell_gap": int(np.abs(cm - ref).max()),
                    "tv_distance": 0.5 * float(np.abs(cm / cm.sum() - ref / ref.sum()).sum()),
                }
            )
    return pd.DataFrame(rows).set_index(["definition", "group"])


# --------------------------------- Sec. 4.6: the Cross-Prior Smoothing protocol (Figs. 4.4–4.6)
def cps_group_table(groups: dict) -> pd.DataFrame:
    """The groups of :func:`~fairbook_book.chapters.small_groups.runs.cps_groups` as a table:
    their counts and the reference's size.

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
    ("ε = 10⁻¹⁰ below raw (metrics with holes)", "ε = 1e-10", "raw", _HOLE_METRICS),
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
    >>> from fairbook_book.chapters.small_groups.runs import cps_experiment
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
    >>> from fairbook_book.chapters.small_groups.runs import cps_experiment
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
        From :func:`~fairbook_book.chapters.small_groups.runs.cps_groups`.
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
    smallest size. Setting labels in scientific notation read as powers of ten
    (``ε = 10⁻¹⁰``).

    Examples
    --------
    >>> from fairbook_book.chapters.small_groups.runs import cps_experiment
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
    rel = rel.rename(columns=_setting_text)
    if group is not None:
        rel = rel.droplevel("group")
    return rel


#: How many sizes the ``full`` profile's CPS protocol has (the paper's n = 5 … 150).
_FULL_SIZES = len(PROFILES["full"]["cps_sizes"])


def cps_seconds_per_setting(
    run: pd.DataFrame,
    *,
    n_draws: int = PROFILES["full"]["cps_draws"],
    n_sizes: int = _FULL_SIZES,
) -> float:
    """Seconds one setting of one group would take at ``n_draws`` draws and ``n_sizes``
    sizes, extrapolated from the measured time of a :func:`~fairbook_book.chapters.
    small_groups.runs.cps_experiment` run.

    The run's wall time (``run.attrs["seconds"]``) is divided by its groups and settings
    and scaled linearly in draws and sizes (the protocol draws, smooths and scores each
    size independently, so its cost is proportional to both; the metrics are those of the
    run). The defaults are the ``full`` profile: the paper's 10⁶ draws at its 146 sizes
    (n = 5 … 150). The estimate is that of the machine, load and ``n_jobs`` of the run it
    comes from.

    Parameters
    ----------
    run : pandas.DataFrame
        From :func:`~fairbook_book.chapters.small_groups.runs.cps_experiment` (its ``attrs``).
    n_draws, n_sizes : int
        The scale to extrapolate to.

    Returns
    -------
    float

    Examples
    --------
    >>> run = pd.DataFrame()
    >>> run.attrs.update(seconds=12.0, n_groups=2, n_settings=6, n_draws=10_000, n_sizes=73)
    >>> round(cps_seconds_per_setting(run), 1)  # 1 s per setting, × 100 draws, × 146/73
    200.0
    """
    missing = [
        k for k in ("seconds", "n_groups", "n_settings", "n_draws", "n_sizes") if k not in run.attrs
    ]
    if missing:
        raise ValueError(f"run.attrs lacks {missing}: pass the table cps_experiment returns")
    a = run.attrs
    per_setting = a["seconds"] / (a["n_groups"] * a["n_settings"])
    return float(per_setting * (n_draws / a["n_draws"]) * (n_sizes / a["n_sizes"]))


def full_profile_cost(
    n_groups: int,
    seconds_per_setting,
    *,
    n_settings: int = 6,
    sizes: int = _FULL_SIZES,
    source: str = "measured",
) -> pd.DataFrame:
    """Wall time of the full CPS protocol for ``n_groups`` groups, from a measured cost.

    The cost is an argument, not something this function looks up: ``seconds_per_setting``
    is the time one setting (one ε or λ) of one group takes at full scale (10⁶ draws, 146
    sizes, the run's metrics), e.g. :func:`cps_seconds_per_setting` of the chapter's own
    ``fast`` run, or a reader's own benchmark. It is scaled to ``n_settings`` settings,
    ``sizes`` sizes and ``n_groups`` groups in one process.

    Parameters
    ----------
    n_groups : int
    seconds_per_setting : float or mapping
        Seconds per setting at the full profile's 146 sizes; a mapping
        ``{source: seconds}`` gives one row each.
    n_settings : int, default 6
        Settings per group (3 ε + 3 λ).
    sizes : int, default 146 (the full profile's)
    source : str, default "measured"
        What the seconds are, for the row's label (when ``seconds_per_setting`` is a
        number).

    Returns
    -------
    pandas.DataFrame
        ``source, seconds_per_setting, seconds_per_group, seconds_total, minutes_total``.

    Notes
    -----
    The cost is not read from the repository's recorded benchmarks: library code reads no
    files outside its arguments (a chapter runs in whatever working directory its runner
    chose, and an installed package has no ``benchmarks/``). The chapter passes the
    extrapolation of its own ``fast`` run (:func:`cps_seconds_per_setting`), which states
    the cost on the machine that built the page and so changes from build to build;
    ``benchmarks/bench_cps.py`` times the protocol itself at full scale.

    Examples
    --------
    >>> full_profile_cost(4, 50.0)[["seconds_per_group", "minutes_total"]].values.tolist()
    [[300.0, 20.0]]
    """
    if isinstance(seconds_per_setting, Mapping):
        measured = dict(seconds_per_setting)
    else:
        measured = {source: seconds_per_setting}
    rows = []
    for label, seconds in measured.items():
        seconds = float(seconds)
        if not seconds > 0:
            raise ValueError(f"seconds_per_setting must be > 0, got {seconds!r} ({label})")
        per_group = seconds * n_settings * sizes / _FULL_SIZES
        rows.append(
            {
                "source": label,
                "seconds_per_setting": seconds,
                "seconds_per_group": per_group,
                "seconds_total": per_group * n_groups,
                "minutes_total": per_group * n_groups / 60,
            }
        )
    return pd.DataFrame(
        rows,
        columns=[
            "source",
            "seconds_per_setting",
            "seconds_per_group",
            "seconds_total",
            "minutes_total",
        ],
    )
