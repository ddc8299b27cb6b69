"""Sec. 4.5 of "Small groups": the law of a metric under MATCH and its approximations.

Sec. 4.5.1's worked example (the normal approximation of ACC), Fig. 4.3's skewness and
kurtosis as ``n`` grows, and the CDF error of every approximation of Sec. 4.5 (normal,
Peizer–Pratt, beta, the Berry–Esseen bound) against the exact law, with the paper's
accuracy claims checked as bounds. MATCH on real groups is in
:mod:`fairbook.experiments.small_groups.match_tables`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from fairbook.metrics import compute
from fairbook.papers import seed003
from fairbook.replication import replication_table
from fairbook.stats import match

from ._common import _axes, _bound_rows, _metric, _sizes


def worked_example() -> pd.DataFrame:
    """Sec. 4.5.1's example (n = 100, p = .75, S_obs = .80) beside ours.

    Returns
    -------
    pandas.DataFrame
        The replication table: k, μ, σ, z, Φ(z) by :func:`fairbook.stats.match.cdf`
        (``method="normal"``), plus the exact binomial CDF in the note.

    Examples
    --------
    >>> set(worked_example().verdict)
    {'matches'}
    """
    ex = seed003.EXAMPLE_4_5_1
    n, p, s = ex["n"], ex["p"], ex["s_obs"]
    # a group with ACC = .80 and a reference with P(TP or TN) = .75
    cm = [40, 10, 10, 40]
    p_ref = [p / 2, (1 - p) / 2, (1 - p) / 2, p / 2]
    k = round(n * s)
    mu, sigma = n * p, math.sqrt(n * p * (1 - p))
    z = (k + 0.5 - mu) / sigma
    normal = match.cdf("ACC", cm, p_ref, method="normal")
    exact = match.cdf("ACC", cm, p_ref, method="exact")
    return replication_table(
        [
            {"quantity": "k = n S_obs", "paper": ex["k"], "ours": k, "decimals": 0},
            {"quantity": "μ = np", "paper": ex["mu"], "ours": mu},
            {"quantity": "σ = √(npq)", "paper": ex["sigma"], "ours": sigma},
            {"quantity": "z (with continuity correction)", "paper": ex["z"], "ours": z},
            {
                "quantity": "P(S ≤ 0.80) ≈ Φ(z)",
                "paper": ex["cdf"],
                "ours": normal,
                "note": f"exact binomial CDF: {exact:.4f}",
            },
        ]
    )


def moments_table(
    p_ref=match.FIG_4_3_P_REF,
    *,
    metrics=("ACC", "B"),
    sizes=range(2, 201),
    n_draws: int = 10_000,
    seed: int = 0,
) -> pd.DataFrame:
    """Fig. 4.3's skewness and kurtosis, exact and by Monte Carlo, as ``n`` grows.

    Exact moments come from :func:`fairbook.stats.match.metric_moments`; the paper drew one
    million samples per size, which the Monte Carlo columns repeat with ``n_draws``.

    Parameters
    ----------
    p_ref : array-like of shape (4,)
        Cell probabilities ``[TP, FN, FP, TN]`` (default: the figure's).
    metrics : iterable of str
    sizes : iterable of int
    n_draws : int, default 10_000
        Monte Carlo draws per size (0 skips the Monte Carlo).
    seed : int, default 0

    Returns
    -------
    pandas.DataFrame
        ``metric, n, mean, variance, skewness, excess_kurtosis, mc_skewness,
        mc_excess_kurtosis``.

    Examples
    --------
    >>> t = moments_table(metrics=["ACC"], sizes=[50], n_draws=0)
    >>> round(float(t.loc[0, "skewness"]), 4)  # (1 − 2p)/√(npq), p = .7
    -0.1234
    """
    names = [_metric(m) for m in metrics]
    p = np.asarray(p_ref, dtype=np.float64)
    rows = []
    for n in _sizes(sizes):
        draws = None
        if n_draws:
            rng = np.random.default_rng(np.random.SeedSequence([seed, n]))
            draws = rng.multinomial(n, p, size=int(n_draws))
        for name in names:
            exact = match.metric_moments(name, p, n)
            mc_skew = mc_kurt = math.nan
            if draws is not None:
                values = np.asarray(compute(name, draws), dtype=np.float64)
                values = values[~np.isnan(values)]
                if values.size > 3 and values.std() > 0:
                    mc_skew = float(stats.skew(values))
                    mc_kurt = float(stats.kurtosis(values))
            rows.append(
                {
                    "metric": name,
                    "n": n,
                    "mean": exact["mean"],
                    "variance": exact["variance"],
                    "skewness": exact["skewness"],
                    "excess_kurtosis": exact["excess_kurtosis"],
                    "mc_skewness": mc_skew,
                    "mc_excess_kurtosis": mc_kurt,
                }
            )
    return pd.DataFrame(rows)


def fig_4_3_claims(moments: pd.DataFrame) -> pd.DataFrame:
    """Sec. 4.5.4's reading of Fig. 4.3 as numbers: "decreasing skewness and increasing
    kurtosis as n grows", for each metric of :func:`moments_table`.

    "Decreasing skewness" is read as ``|skewness|`` falling (towards the normal's 0), and
    "increasing kurtosis" literally, as the (excess) kurtosis rising. Each row gives the
    share of consecutive sizes where the claim holds (paper: all of them).

    Examples
    --------
    >>> t = fig_4_3_claims(moments_table(metrics=["B"], sizes=[5, 10, 20], n_draws=0))
    >>> t.ours.tolist()
    [1.0, 0.0]
    """
    rows = []
    for metric, part in moments.groupby("metric", sort=False):
        part = part.sort_values("n")
        skew = part["skewness"].abs().to_numpy()
        kurt = part["excess_kurtosis"].to_numpy()
        first, last = part.iloc[0], part.iloc[-1]
        rows.append(
            {
                "quantity": f"{metric}: |skewness| decreases with n",
                "paper": 1.0,
                "ours": float(np.mean(np.diff(skew) < 0)),
                "note": f"share of steps; skewness {first.skewness:.3f} at n = "
                f"{first.n} → {last.skewness:.3f} at n = {last.n}",
            }
        )
        rows.append(
            {
                "quantity": f"{metric}: kurtosis increases with n",
                "paper": 1.0,
                "ours": float(np.mean(np.diff(kurt) > 0)),
                "note": f"share of steps; excess kurtosis {first.excess_kurtosis:.3f} "
                f"→ {last.excess_kurtosis:.3f} (normal: 0)",
            }
        )
    return replication_table(rows)


def plot_pmfs(metric: str, p_ref=match.FIG_4_3_P_REF, *, sizes=(5, 10, 30, 100), ax=None):
    """Fig. 4.3's left half: the exact law of ``metric`` with the normal density overlaid.

    Each PMF is drawn as a density (probability / lattice step) so that sizes compare.

    Examples
    --------
    >>> plot_pmfs("ACC", sizes=[5]).get_title()
    'ACC'
    """
    ax = _axes(ax)
    key = _metric(metric)
    for colour, n in enumerate(_sizes(sizes)):
        dist = match.distribution(key, p_ref, n)
        step = np.min(np.diff(dist.values)) if dist.values.size > 1 else 1.0
        ax.plot(dist.values, dist.probs / step, "o", ms=2.5, color=f"C{colour}", label=f"n = {n}")
        mean = dist.probs @ dist.values
        sd = math.sqrt(dist.probs @ (dist.values - mean) ** 2)
        grid = np.linspace(dist.values.min(), dist.values.max(), 300)
        ax.plot(grid, stats.norm.pdf(grid, mean, sd), color=f"C{colour}", lw=0.8)
    ax.set_title(key)
    ax.set_xlabel("score")
    ax.set_ylabel("density")
    ax.legend(fontsize=8)
    return ax


def plot_moments(moments: pd.DataFrame, *, axes=None):
    """Fig. 4.3's right half: skewness and excess kurtosis against ``n`` (exact lines,
    Monte Carlo dots).

    Examples
    --------
    >>> axes = plot_moments(moments_table(metrics=["ACC"], sizes=[5, 10], n_draws=100))
    >>> [ax.get_ylabel() for ax in axes]
    ['skewness', 'excess kurtosis']
    """
    import matplotlib.pyplot as plt

    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(10, 3.5))
    for colour, (metric, part) in enumerate(moments.groupby("metric", sort=False)):
        for ax, column in zip(axes, ("skewness", "excess_kurtosis"), strict=True):
            ax.plot(part["n"], part[column], color=f"C{colour}", label=f"{metric} exact")
            if part[f"mc_{column}"].notna().any():
                ax.plot(
                    part["n"],
                    part[f"mc_{column}"],
                    ".",
                    ms=2,
                    alpha=0.5,
                    color=f"C{colour}",
                    label=f"{metric} Monte Carlo",
                )
    for ax, label in zip(axes, ("skewness", "excess kurtosis"), strict=True):
        ax.axhline(0, color="k", lw=0.5)
        ax.set_xlabel("n")
        ax.set_ylabel(label)
    axes[0].legend(fontsize=8)
    return axes


def _b_normal_as_printed_error(p, n: int) -> float:
    """Largest |Φ(Eq. 4.29 as printed) − exact CDF| of B over its support."""
    dist = match.distribution("B", p, n)
    exact = np.minimum(np.cumsum(dist.probs), 1.0)
    p_plus, p_minus = float(p[2]), float(p[1])
    mu = p_plus - p_minus
    sd = math.sqrt(p_plus + p_minus - mu * mu)
    k = np.round(dist.values * n)
    approx = stats.norm.cdf((k - mu) / sd)
    return float(np.max(np.abs(approx - exact)))


#: The (metric, method, options, label) cases of :func:`approximation_errors`.
_APPROXIMATIONS = (
    ("ACC", "normal", {}, "normal (Eq. 4.18)"),
    ("ACC", "peizer_pratt", {}, "Peizer–Pratt (Eqs. 4.46–4.47)"),
    ("B", "normal", {}, "normal (Thm 4.8, n restored)"),
    ("B", "normal_as_printed", {}, "normal (Eq. 4.29 as printed)"),
    ("B", "peizer_pratt", {"allow_b_peizer_pratt": True}, "Peizer–Pratt (Table 4.1)"),
    ("TPR", "beta", {}, "beta, observed counts (Eq. 4.44)"),
    ("TPR", "beta", {"beta_counts": "expected"}, "beta, expected counts"),
    ("PPV", "beta", {}, "beta, observed counts (Eq. 4.44)"),
    ("PPV", "beta", {"beta_counts": "expected"}, "beta, expected counts"),
)


def approximation_errors(
    p_ref=match.FIG_4_3_P_REF, *, sizes=(5, 10, 20, 50, 100, 300), max_observed_beta_n: int = 300
) -> pd.DataFrame:
    """Largest CDF error of every approximation of Sec. 4.5 against the exact law.

    Rows: ACC (normal, Peizer–Pratt), B (normal with the ``n`` factors restored, Eq. 4.29
    as printed, Peizer–Pratt with Table 4.1's parameters), TPR and PPV (beta with observed
    counts as in Eq. 4.44, beta with the reference's expected counts), and the
    Berry–Esseen bound (Eq. 4.45, ``C0 = 0.56`` and ``0.4097``) for ACC and B.

    Parameters
    ----------
    p_ref : array-like of shape (4,)
    sizes : iterable of int
    max_observed_beta_n : int, default 300
        The observed-count beta error is evaluated at every pair of counts (O(n²)); it is
        skipped above this size.

    Returns
    -------
    pandas.DataFrame
        ``metric, method, n, error`` (``method`` names a bound for the Berry–Esseen rows).

    Examples
    --------
    >>> t = approximation_errors(sizes=[30])
    >>> float(t.query("metric == 'ACC' and method == 'normal (Eq. 4.18)'").error.round(4).iloc[0])
    0.0105
    """
    p = np.asarray(p_ref, dtype=np.float64)
    rows = []
    for n in _sizes(sizes):
        for metric, method, options, label in _APPROXIMATIONS:
            if method == "normal_as_printed":
                error = _b_normal_as_printed_error(p, n)
            elif method == "beta" and not options and n > max_observed_beta_n:
                continue
            else:
                error = match.approximation_error(metric, p, n, method=method, **options)
            rows.append({"metric": metric, "method": label, "n": n, "error": error})
        for metric in ("ACC", "B"):
            for c0 in seed003.BERRY_ESSEEN_C0:
                rows.append(
                    {
                        "metric": metric,
                        "method": f"Berry–Esseen bound, C0 = {c0}",
                        "n": n,
                        "error": match.berry_esseen_bound(p, n, metric, c0=c0),
                    }
                )
    return pd.DataFrame(rows)


def plot_approximation_errors(errors: pd.DataFrame, *, axes=None):
    """Error against ``n`` (log–log), one panel per metric of :func:`approximation_errors`.

    Examples
    --------
    >>> axes = plot_approximation_errors(approximation_errors(sizes=[5, 10]))
    >>> [ax.get_title() for ax in axes]
    ['ACC', 'B', 'TPR', 'PPV']
    """
    import matplotlib.pyplot as plt

    metrics = list(dict.fromkeys(errors["metric"]))
    if axes is None:
        _, axes = plt.subplots(
            1, len(metrics), figsize=(3.6 * len(metrics), 3.4), squeeze=False, sharey=True
        )
        axes = axes[0]
    for ax, metric in zip(axes, metrics, strict=False):
        part = errors[errors["metric"] == metric]
        for method, sub in part.groupby("method", sort=False):
            style = "--" if method.startswith("Berry") else "o-"
            ax.plot(sub["n"], sub["error"].clip(lower=1e-7), style, ms=3, label=method)
        ax.axhline(seed003.PEIZER_PRATT_MAX_ERROR, color="k", lw=0.6, ls=":")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(metric)
        ax.set_xlabel("n")
        ax.legend(fontsize=6.5)
    axes[0].set_ylabel("max |approx − exact| of the CDF")
    return axes


def peizer_pratt_check(
    *, sizes=(5, 10, 20, 50, 100, 300), probs=(0.05, 0.1, 0.3, 0.5, 0.7, 0.9)
) -> pd.DataFrame:
    """Peizer–Pratt's 0.1 % claim for the binomial: error where ``min(x + 1, n − x) >= 2``.

    Parameters
    ----------
    sizes : iterable of int
        ``n >= 3``.
    probs : iterable of float
        Success probabilities in (0, 1).

    Returns
    -------
    pandas.DataFrame
        ``n, p, error_in_range`` (max over ``1 <= x <= n − 2``) and ``error_all`` (over
        every ``x``).

    Examples
    --------
    >>> t = peizer_pratt_check(sizes=[20], probs=[0.3])
    >>> bool(t.error_in_range.iloc[0] < 0.001)
    True
    """
    rows = []
    for n in _sizes(sizes, minimum=3):
        for prob in probs:
            prob = float(prob)
            if not 0 < prob < 1:
                raise ValueError(f"probs must lie in (0, 1), got {prob}")
            # PPR = (TP + FP)/n is Binomial(n, prob) under this reference
            p_ref = [prob / 2, (1 - prob) / 2, prob / 2, (1 - prob) / 2]
            _, curve = match.approximation_error(
                "PPR", p_ref, n, method="peizer_pratt", return_curve=True
            )
            x = np.round(curve["score"].to_numpy() * n)
            inside = np.minimum(x + 1, n - x) >= 2
            rows.append(
                {
                    "n": n,
                    "p": prob,
                    "error_in_range": float(curve["abs_error"][inside].max()),
                    "error_all": float(curve["abs_error"].max()),
                }
            )
    return pd.DataFrame(rows)


def approximation_claims(errors: pd.DataFrame, pp_check: pd.DataFrame) -> pd.DataFrame:
    """The printed accuracy claims of Sec. 4.5.4 checked as bounds.

    Rows: Peizer–Pratt within 0.1 % for binomial metrics where ``min(x+1, n−x) >= 2``;
    the same bound for B with Table 4.1's parameters (at the smallest and largest ``n``);
    the normal approximations of ACC and B below their Berry–Esseen bound (``C0 = 0.56``,
    worst ratio error/bound); the beta approximation of Eq. 4.44 (no printed bound, shown
    against 0.1 % for scale).

    Examples
    --------
    >>> t = approximation_claims(approximation_errors(sizes=[5, 50]),
    ...                          peizer_pratt_check(sizes=[50], probs=[0.3]))
    >>> t.verdict.tolist()[:2]
    ['upper bound holds', 'upper bound fails']
    """
    bound = seed003.PEIZER_PRATT_MAX_ERROR
    rows = [
        {
            "quantity": "Peizer–Pratt, binomial metrics, min(x+1, n−x) ≥ 2: max error",
            "paper": bound,
            "ours": float(pp_check["error_in_range"].max()),
            "kind": "upper",
            "decimals": 3,
            "note": f"over n ∈ {sorted(set(pp_check.n))}, p ∈ {sorted(set(pp_check.p))}",
        }
    ]
    b_pp = errors[(errors.metric == "B") & errors.method.str.startswith("Peizer")]
    for _, row in b_pp.iloc[[0, -1]].iterrows():
        rows.append(
            {
                "quantity": f"Peizer–Pratt for B (Table 4.1), n = {row.n}: max error",
                "paper": bound,
                "ours": row.error,
                "kind": "upper",
                "decimals": 3,
                "note": "x = k_FP − k_FN, p = p+ − p−, q = p0 is not a binomial law",
            }
        )
    for metric, method in (("ACC", "normal (Eq. 4.18)"), ("B", "normal (Thm 4.8, n restored)")):
        part = errors[(errors.metric == metric) & (errors.method == method)].set_index("n")
        be = errors[
            (errors.metric == metric) & (errors.method == "Berry–Esseen bound, C0 = 0.56")
        ].set_index("n")
        ratio = (part["error"] / be["error"]).dropna()
        rows.append(
            {
                "quantity": f"{metric}: normal error / Berry–Esseen bound (worst n)",
                "paper": 1.0,
                "ours": float(ratio.max()),
                "kind": "upper",
                "note": f"worst at n = {int(ratio.idxmax())}",
            }
        )
    for metric in ("TPR", "PPV"):
        part = errors[
            (errors.metric == metric) & (errors.method == "beta, observed counts (Eq. 4.44)")
        ]
        if len(part):
            rows.append(
                {
                    "quantity": f"{metric}: beta approximation (Eq. 4.44), smallest error",
                    "paper": bound,
                    "ours": float(part["error"].min()),
                    "kind": "upper",
                    "decimals": 3,
                    "note": "no bound is printed; 0.1 % shown for scale",
                }
            )
    return _bound_rows(rows)
