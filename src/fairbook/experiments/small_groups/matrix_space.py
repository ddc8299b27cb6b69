"""Sec. 4.3 of "Small groups": the space of confusion matrices.

Theorems 4.1–4.2 (the size of M(n) and how often a cell takes each value) against
enumeration, Fig. 4.1 (a small group's score by Monte Carlo, with the exact band) and
Fig. 4.2 (each metric's CDF over all of M(n), its moments and the limits the paper reads).
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

from fairbook.metrics import compute
from fairbook.papers import seed003
from fairbook.replication import replication_table
from fairbook.stats import combinatorics, match

from ._common import _axes, _counts, _metric, _sizes


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


def space_replication() -> pd.DataFrame:
    """Eqs. 4.3–4.6 as printed beside the enumeration (paper vs ours).

    Returns
    -------
    pandas.DataFrame
        From :func:`fairbook.replication.replication_table`.

    Examples
    --------
    >>> set(space_replication().verdict)
    {'matches'}
    """
    rows = []
    for n, size in seed003.EQ_4_3_4_4_SIZES.items():
        rows.append(
            {
                "quantity": f"|M({n})| (Eq. 4.{2 + n})",
                "paper": size,
                "ours": len(combinatorics.enumerate_confusion_matrices(n)),
                "decimals": 0,
                "note": "enumerated",
            }
        )
    for (x, n), count in seed003.EQ_4_6_CELL_COUNTS.items():
        cms = combinatorics.enumerate_confusion_matrices(n)
        rows.append(
            {
                "quantity": f"C({x}; {n})",
                "paper": count,
                "ours": int((cms[:, 0] == x).sum()),
                "decimals": 0,
                "note": "enumerated (cell TP; every cell gives the same)",
            }
        )
    return replication_table(rows)


def fig_4_1_monte_carlo(
    cm_group,
    *,
    sizes=range(1, 151),
    n_draws: int = 5_000,
    metric: str = "PPR",
    seed: int = 0,
    keep: int = 40,
) -> pd.DataFrame:
    """Fig. 4.1: Monte Carlo of a small group's score for samples of size ``n``.

    Each draw is a multinomial confusion matrix of ``n`` people from the group's cell
    proportions ``cm_group / sum(cm_group)``. The exact 2.5 % and 97.5 % quantiles (from
    :func:`fairbook.stats.match.distribution`) are the oracle of the Monte Carlo band.

    Parameters
    ----------
    cm_group : array-like of shape (4,)
        The group's counts ``[TP, FN, FP, TN]``.
    sizes : iterable of int
        Sample sizes ``n >= 1``.
    n_draws : int, default 5000
    metric : str, default "PPR"
        Any metric with an exact law (binomial, B, joint-ratio); others get NaN quantiles.
    seed : int, default 0
        Size ``n`` uses the stream ``SeedSequence([seed, n])``.
    keep : int, default 40
        Draws per size kept in ``attrs["draws"]`` for a scatter plot.

    Returns
    -------
    pandas.DataFrame
        One row per size: ``n, mean, sd, q025, q25, q50, q75, q975, exact_q025,
        exact_q975, distinct, share_undefined, target``.

    Examples
    --------
    >>> t = fig_4_1_monte_carlo([7, 12, 2, 128], sizes=[10, 100], n_draws=2000)
    >>> t[["n", "distinct"]].values.tolist()  # PPR takes more values as n grows
    [[10, 6], [100, 16]]
    """
    counts = _counts(cm_group, name="cm_group")
    key = _metric(metric)
    if isinstance(n_draws, bool) or not isinstance(n_draws, numbers.Integral) or n_draws < 2:
        raise ValueError(f"n_draws must be an integer >= 2, got {n_draws!r}")
    p = counts / counts.sum()
    target = float(compute(key, counts))
    rows, kept = [], []
    exact_ok = match._family(key) != "other"
    for n in _sizes(sizes):
        rng = np.random.default_rng(np.random.SeedSequence([seed, n]))
        draws = rng.multinomial(n, p, size=n_draws)
        scores = np.asarray(compute(key, draws), dtype=np.float64)
        defined = scores[~np.isnan(scores)]
        q = (
            np.quantile(defined, [0.025, 0.25, 0.5, 0.75, 0.975])
            if defined.size
            else np.full(5, np.nan)
        )
        lo = hi = math.nan
        if exact_ok:
            dist = match.distribution(key, p, n)
            if dist.values.size:
                cum = np.cumsum(dist.probs)
                lo = float(dist.values[np.searchsorted(cum, 0.025 - 1e-12)])
                hi = float(
                    dist.values[min(np.searchsorted(cum, 0.975 - 1e-12), dist.values.size - 1)]
                )
        rows.append(
            {
                "n": n,
                "mean": float(defined.mean()) if defined.size else math.nan,
                "sd": float(defined.std(ddof=1)) if defined.size > 1 else math.nan,
                "q025": q[0],
                "q25": q[1],
                "q50": q[2],
                "q75": q[3],
                "q975": q[4],
                "exact_q025": lo,
                "exact_q975": hi,
                "distinct": int(np.unique(defined).size),
                "share_undefined": 1 - defined.size / n_draws,
                "target": target,
            }
        )
        kept.append(pd.DataFrame({"n": n, "score": scores[:keep]}))
    table = pd.DataFrame(rows)
    table.attrs["draws"] = pd.concat(kept, ignore_index=True)
    table.attrs["metric"] = key
    return table


def plot_fig_4_1(table: pd.DataFrame, *, title: str = "", ax=None):
    """Fig. 4.1 from :func:`fig_4_1_monte_carlo`: draws, 50 % and 95 % bands, exact band.

    Examples
    --------
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


def space_cdfs(
    metrics=("ACC", "PPR", "MCC", "TPR"), sizes=(2, 5, 10, 25, 50, 100), *, hole_values=None
) -> pd.DataFrame:
    """Fig. 4.2: the CDF of each metric over *all* of ``M(n)``, every matrix equally likely.

    Parameters
    ----------
    metrics : iterable of str
    sizes : iterable of int
        Values of ``n >= 1`` (``M(100)`` has 176,851 matrices).
    hole_values : dict, optional
        ``{metric: value}``: also add the metric with its holes replaced by ``value``
        (e.g. ``{"MCC": 0.0}``, the Chicco–Jurman limit), labelled ``"MCC (holes = 0)"``.

    Returns
    -------
    pandas.DataFrame
        Tidy: ``metric, n, value, cdf, holes, N`` — the CDF over the defined matrices
        (holes excluded); ``holes`` and ``N`` say how many were left out of how many.

    Examples
    --------
    >>> t = space_cdfs(["TPR"], [1])
    >>> t[["value", "cdf"]].values.tolist(), t.holes.iloc[0], t.N.iloc[0]
    ([[0.0, 0.5], [1.0, 1.0]], np.int64(2), np.int64(4))
    """
    names = [_metric(m) for m in metrics]
    extra = {} if hole_values is None else {_metric(k): float(v) for k, v in hole_values.items()}
    frames = []
    for n in _sizes(sizes):
        cms = combinatorics.enumerate_confusion_matrices(n)
        variants = [(name, name, None) for name in names] + [
            (f"{name} (holes = {value:g})", name, value) for name, value in extra.items()
        ]
        for label, name, fill in variants:
            values = np.asarray(compute(name, cms), dtype=np.float64)
            holes = int(np.isnan(values).sum())
            if fill is not None:
                values = np.where(np.isnan(values), fill, values)
            defined = np.round(values[~np.isnan(values)], 12)
            unique, counts = np.unique(defined, return_counts=True)
            frames.append(
                pd.DataFrame(
                    {
                        "metric": label,
                        "n": n,
                        "value": unique,
                        "cdf": np.cumsum(counts) / max(defined.size, 1),
                        "holes": holes if fill is None else 0,
                        "N": len(cms),
                    }
                )
            )
    return pd.concat(frames, ignore_index=True)


def space_moments(cdfs: pd.DataFrame) -> pd.DataFrame:
    """Mean and standard deviation of each metric over ``M(n)`` from :func:`space_cdfs`.

    The last column is the standard deviation of the limit law: every matrix equally
    likely is, as ``n → ∞``, a flat Dirichlet(1, 1, 1, 1) on the cell proportions, under
    which a binomial metric is Beta(2, 2) (sd ``√(1/20)``) and a joint-ratio metric is
    Beta(1, 1) (sd ``√(1/12)``): the spread does **not** shrink to 0.

    Examples
    --------
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


#: Sec. 4.3's reading of Fig. 4.2: the value each metric "converges to" with every
#: matrix of M(n) equally likely (all cell probabilities 0.25).
FIG_4_2_LIMITS = {"ACC": 0.5, "PPR": 0.5, "MCC": 0.0, "TPR": 0.5}


def fig_4_2_replication(moments: pd.DataFrame) -> pd.DataFrame:
    """Fig. 4.2's limits (ACC, PPR → 0.5, MCC → 0, TPR → 0.5) beside the mean over M(n)
    at the largest ``n`` of a :func:`space_moments` table; the note gives the standard
    deviation there and in the limit.

    Examples
    --------
    >>> t = fig_4_2_replication(space_moments(space_cdfs(["ACC", "TPR"], [20])))
    >>> t.verdict.tolist()
    ['matches', 'matches']
    """
    rows = []
    largest = moments[moments["n"] == moments["n"].max()].set_index("metric")
    for metric, limit in FIG_4_2_LIMITS.items():
        if metric not in largest.index:
            continue
        row = largest.loc[metric]
        rows.append(
            {
                "quantity": f"{metric}: mean over M({int(row.n)})",
                "paper": limit,
                "ours": float(row["mean"]),
                "note": f"sd {row.sd:.3f}; limit sd {row.limit_sd:.3f} (does not shrink)"
                if np.isfinite(row.limit_sd)
                else f"sd {row.sd:.3f}",
            }
        )
    return replication_table(rows)


def plot_space_cdfs(cdfs: pd.DataFrame, *, axes=None):
    """Fig. 4.2: one panel per metric, one step CDF per ``n``.

    Parameters
    ----------
    cdfs : pandas.DataFrame
        From :func:`space_cdfs`.
    axes : sequence of matplotlib axes, optional
        One per metric (created when omitted).

    Returns
    -------
    list of axes

    Examples
    --------
    >>> axes = plot_space_cdfs(space_cdfs(["ACC", "TPR"], [2, 5]))
    >>> [ax.get_title() for ax in axes]
    ['ACC', 'TPR']
    """
    import matplotlib.pyplot as plt

    metrics = list(dict.fromkeys(cdfs["metric"]))
    if axes is None:
        _, axes = plt.subplots(1, len(metrics), figsize=(3.2 * len(metrics), 3.2), squeeze=False)
        axes = axes[0]
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
