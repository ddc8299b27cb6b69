"""Runs of "Small groups" (seed 003 ch. 4): the chapter's sampling, enumeration and scoring.

Every function here is a pure function of its arguments (seeds included) that returns plain
results — DataFrames of draws, moments, errors, p-values or MSEs — and displays nothing.
The tables shown beside them are in :mod:`~fairbook_book.chapters.small_groups.results`, the
rows set beside the paper in :mod:`~fairbook_book.chapters.small_groups.replication`. The
statistics themselves live in :mod:`fairbook.stats` (combinatorics, MATCH, Cross-Prior
Smoothing); these functions arrange them as the chapter's sections do:

* Sec. 4.3 — Fig. 4.1's Monte Carlo (:func:`fig_4_1_monte_carlo`), Fig. 4.2's CDFs over all
  of M(n) (:func:`space_cdfs`);
* Sec. 4.4 — MCC along paths into its holes (:func:`mcc_limit_paths`);
* Sec. 4.5 — Fig. 4.3's moments (:func:`moments_table`), the error of every approximation
  (:func:`approximation_errors`, :func:`peizer_pratt_check`), MATCH on real groups
  (:func:`match_table`, :func:`match_pvalues`);
* Sec. 4.6 — COMPAS matrices under several definitions (:func:`compas_definition_counts`),
  the CPS groups and protocol (:func:`cps_groups`, :func:`cps_experiment`).
"""

from __future__ import annotations

import functools
import math
import numbers
import time

import numpy as np
import pandas as pd
from scipy import stats

from fairbook.confusion import CELLS
from fairbook.data import predictions
from fairbook.metrics import compute
from fairbook.papers import seed003
from fairbook_book.recordings import Recordable
from fairbook.stats import combinatorics, cps, match
from fairbook.stats.multiple_testing import holm

from ._common import _check_frame, _counts, _metric, _sizes
from .settings import COMPAS_DEFINITIONS, MATCH_METRICS

__all__ = [
    "CPS_RECORDING",
    "RECORDINGS",
    "approximation_errors",
    "compas_definition_counts",
    "cps_experiment",
    "cps_groups",
    "cps_recorded_groups",
    "cps_recorded_unit",
    "cps_recorded_units",
    "fig_4_1_monte_carlo",
    "match_pvalues",
    "match_table",
    "mcc_limit_paths",
    "moments_table",
    "peizer_pratt_check",
    "space_cdfs",
]


# ---------------------------------------------------- Sec. 4.3: the space of confusion matrices
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


# ----------------------------------------------------------- Sec. 4.4: the holes of the metrics
def mcc_limit_paths(n: int = 10, scales=(1e-2, 1e-4, 1e-6, 1e-8)) -> pd.DataFrame:
    """MCC approaching its holes along straight paths (real-valued counts).

    Two kinds of hole: an *edge* hole (a zero margin with the other cells non-zero,
    here ``TP = FN = 0``, ``FP = TN = n/2``) and a *corner* hole (one cell holds all
    ``n``, here ``TP = n``). Moving mass ``t·(a, b, c)`` into the empty cells and letting
    ``t → 0``: at an edge hole MCC goes to 0 along every path (as Chicco and Jurman say,
    like ``√t``), at a corner the value it approaches depends on the direction — the
    limit does not exist.

    Parameters
    ----------
    n : int, default 10
    scales : iterable of float
        Values of ``t > 0``.

    Returns
    -------
    pandas.DataFrame
        ``hole, direction, t, TP, FN, FP, TN, MCC, limit`` (``limit`` is the value along
        that path: 0 at an edge hole, ``c / √((c + b)(c + a))`` at the TP corner).

    Examples
    --------
    >>> t = mcc_limit_paths(10, scales=[1e-8])
    >>> t.groupby("hole").MCC.apply(lambda s: round(s.abs().max(), 3)).to_dict()
    {'corner TP = n': 1.0, 'edge TP = FN = 0': 0.0}
    """
    n = int(n)
    if n < 2:
        raise ValueError(f"n must be >= 2, got {n}")
    rows = []
    edge_paths = {
        "into TP": (1.0, 0.0),
        "into FN": (0.0, 1.0),
        "into both": (1.0, 1.0),
        "into TP, 3× FN": (1.0, 3.0),
    }
    corner_paths = {
        "into TN": (0.0, 0.0, 1.0),
        "into FN, FP": (1.0, 1.0, 0.0),
        "into FN, FP, TN": (1.0, 1.0, 1.0),
        "into FN, 4× TN": (1.0, 0.0, 4.0),
    }
    for t in scales:
        t = float(t)
        if not t > 0:
            raise ValueError(f"scales must be > 0, got {t}")
        for label, (a, b) in edge_paths.items():
            cm = np.array([a * t, b * t, n / 2, n / 2])
            rows.append(
                {
                    "hole": "edge TP = FN = 0",
                    "direction": label,
                    "t": t,
                    **dict(zip(CELLS, cm.tolist(), strict=True)),
                    "MCC": float(compute("MCC", cm)),
                    "limit": 0.0,
                }
            )
        for label, (a, b, c) in corner_paths.items():
            cm = np.array([n - (a + b + c) * t, a * t, b * t, c * t])
            limit = c / math.sqrt((c + b) * (c + a)) if (c + b) * (c + a) > 0 else math.nan
            rows.append(
                {
                    "hole": "corner TP = n",
                    "direction": label,
                    "t": t,
                    **dict(zip(CELLS, cm.tolist(), strict=True)),
                    "MCC": float(compute("MCC", cm)),
                    "limit": limit,
                }
            )
    return pd.DataFrame(rows).sort_values(
        ["hole", "direction", "t"], ascending=[True, True, False], ignore_index=True
    )


# ----------------------------- Sec. 4.5: the law of a metric under MATCH and its approximations
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


# --------------------------------------------------------- Sec. 4.5: MATCH on real small groups
def match_table(
    counts: pd.DataFrame,
    *,
    metrics=MATCH_METRICS,
    alpha: float = 0.05,
    min_gap: float = 0.05,
    groups=None,
) -> pd.DataFrame:
    """MATCH every group against everyone else, for several metrics.

    For group ``g`` the reference is the rest of the data set, ``p_ref = (total − cm_g) /
    sum``; the p-value is :func:`fairbook.stats.match.test` (exact, two-sided). An
    *apparent* disparity is a gap ``|score − reference score| >= min_gap``; it
    *survives* when its Holm-adjusted p-value (over every test in the table) is below
    ``alpha``.

    Parameters
    ----------
    counts : pandas.DataFrame
        Per-group ``TP FN FP TN`` (e.g. from
        :func:`fairbook.data.predictions.group_counts`).
    metrics : iterable of str
        Metrics with an exact MATCH law (binomial, B, joint-ratio).
    alpha : float, default 0.05
    min_gap : float, default 0.05
    groups : iterable, optional
        Groups to test (all by default); the reference always uses every other row.

    Returns
    -------
    pandas.DataFrame
        ``group, n, metric, score, reference, gap, p_value, p_holm, apparent, survives,
        verdict`` (``"disparity survives"``, ``"apparent, not significant"``,
        ``"significant, below min_gap"`` or empty).

    Examples
    --------
    >>> c = pd.DataFrame({"TP": [5, 500], "FN": [5, 100], "FP": [0, 100], "TN": [10, 300]},
    ...                  index=["small", "big"])
    >>> t = match_table(c, metrics=["PPR"], groups=["small"])
    >>> t[["group", "score", "reference", "apparent"]].values.tolist()
    [['small', 0.25, 0.6, True]]
    """
    names = [_metric(m) for m in metrics]
    for name in names:
        if "exact" not in match.methods_for(name):
            raise ValueError(
                f"{name} has no exact MATCH law; choose from binomial, B and joint-ratio metrics"
            )
    counts = _check_frame(counts)
    cms = counts[list(CELLS)].to_numpy(dtype=np.float64)
    total = cms.sum(axis=0)
    chosen = list(counts.index) if groups is None else list(groups)
    unknown = [g for g in chosen if g not in counts.index]
    if unknown:
        raise ValueError(f"unknown group(s) {unknown}; choose from {list(counts.index)}")
    rows = []
    for group in chosen:
        cm = counts.loc[group, list(CELLS)].to_numpy(dtype=np.float64)
        ref = total - cm
        if ref.sum() <= 0:
            raise ValueError(f"group {group!r} is the whole data set; no reference left")
        p_ref = ref / ref.sum()
        for name in names:
            score = float(compute(name, cm))
            reference = float(compute(name, ref))
            p_value = (
                match.test(name, cm.astype(np.int64), p_ref) if not math.isnan(score) else math.nan
            )
            rows.append(
                {
                    "group": group,
                    "n": int(cm.sum()),
                    "metric": name,
                    "score": score,
                    "reference": reference,
                    "gap": score - reference,
                    "p_value": p_value,
                }
            )
    table = pd.DataFrame(rows)
    table["p_holm"] = holm(table["p_value"].to_numpy())
    table["apparent"] = table["gap"].abs() >= min_gap
    significant = table["p_holm"] < alpha
    table["survives"] = table["apparent"] & significant
    table["verdict"] = np.select(
        [table["survives"], table["apparent"], significant],
        ["disparity survives", "apparent, not significant", "significant, below min_gap"],
        default="",
    )
    return table


def match_pvalues(metric: str, scores, p_ref, n: int) -> np.ndarray:
    """Two-sided MATCH p-values of many scores of groups of size ``n`` at once.

    The law of the metric is computed once (:func:`fairbook.stats.match.distribution`,
    conditional on being defined) and every score is looked up in it; equal to
    :func:`fairbook.stats.match.test` with the exact (or, for F1/MCC/PT, enumerated) law.

    Parameters
    ----------
    metric : str
    scores : array-like of float
        Scores of groups of size ``n`` (NaN → NaN).
    p_ref : array-like of shape (4,)
    n : int
        ``n >= 1`` (``n <= 200`` for F1, MCC and PT).

    Returns
    -------
    ndarray of float

    Examples
    --------
    >>> p_ref = [0.375, 0.125, 0.125, 0.375]
    >>> match_pvalues("ACC", [0.8, 0.75], p_ref, 100).round(3).tolist()
    [0.298, 1.0]
    """
    key = _metric(metric)
    dist = match.distribution(key, p_ref, n)
    s = np.asarray(scores, dtype=np.float64)
    out = np.full(s.shape, np.nan)
    if dist.values.size == 0:
        return out
    values = dist.values
    cum = np.cumsum(dist.probs)
    tail = np.cumsum(dist.probs[::-1])[::-1]
    finite = np.isfinite(s)
    slack = 1e-9 * np.maximum(1.0, np.abs(s[finite]))
    lower_index = np.searchsorted(values, s[finite] + slack, side="right") - 1
    upper_index = np.searchsorted(values, s[finite] - slack, side="left")
    lower = np.where(lower_index >= 0, cum[np.clip(lower_index, 0, None)], 0.0)
    upper = np.where(
        upper_index < values.size, tail[np.clip(upper_index, None, values.size - 1)], 0.0
    )
    out[finite] = np.clip(2 * np.minimum(lower, upper), 0.0, 1.0)
    return out


# --------------------------------------- Sec. 4.6: which COMPAS matrices the published ones are
_COMPAS_GROUPS = ("African-American", "Caucasian")


def _compas_frame(preprocess):
    from fairbook.data import load_compas

    return load_compas(preprocess=preprocess)


def _violent_within(df: pd.DataFrame, days: int = 730) -> np.ndarray:
    screening = pd.to_datetime(df["compas_screening_date"])
    offence = pd.to_datetime(df["vr_offense_date"])
    within = (offence - screening).dt.days <= days
    return ((df["is_violent_recid"] == 1) & within.fillna(False)).to_numpy()


def compas_definition_counts(definition: str, *, frame: pd.DataFrame | None = None) -> dict:
    """COMPAS confusion matrices (Black, White, all) under one recidivism definition.

    Positive = recidivist, predicted positive = Medium or High score (5 or more), as in
    ProPublica's truth tables; cells ``[TP, FN, FP, TN]``.

    Parameters
    ----------
    definition : str
        A key of :data:`~fairbook_book.chapters.small_groups.settings.COMPAS_DEFINITIONS`.
    frame : pandas.DataFrame, optional
        The raw two-year file (``load_compas()``); loaded when omitted.

    Returns
    -------
    dict
        ``{"African-American": cm, "Caucasian": cm, "all": cm}`` with integer arrays.

    Examples
    --------
    >>> compas_definition_counts("general")["all"].tolist()  # doctest: +SKIP
    [2035, 1216, 1282, 2681]
    """
    from fairbook.data.compas import zafar2017

    if definition not in COMPAS_DEFINITIONS:
        raise ValueError(
            f"unknown definition {definition!r}; choose one of {', '.join(COMPAS_DEFINITIONS)}"
        )
    df = _compas_frame(None) if frame is None else frame
    if definition.endswith("_zafar"):
        df = zafar2017(df)
    if definition.startswith("general"):
        truth = (df["two_year_recid"] == 1).to_numpy()
        predicted = (df["decile_score"] >= 5).to_numpy()
    else:
        truth = _violent_within(df)
        predicted = (df["v_decile_score"] >= 5).to_numpy()
        if definition == "violent_population":
            screening = pd.to_datetime(df["compas_screening_date"])
            followed = screening + pd.Timedelta(days=730) <= pd.Timestamp("2016-04-01")
            keep = (df["two_year_recid"] == 0).to_numpy() | truth | followed.to_numpy()
            df, truth, predicted = df[keep], truth[keep], predicted[keep]
    race = df["race"].to_numpy()
    out = {}
    for group in (*_COMPAS_GROUPS, "all"):
        mask = np.ones(len(df), bool) if group == "all" else race == group
        t, p = truth[mask], predicted[mask]
        out[group] = np.array(
            [(t & p).sum(), (t & ~p).sum(), (~t & p).sum(), (~t & ~p).sum()], dtype=np.int64
        )
    return out


# --------------------------------- Sec. 4.6: the Cross-Prior Smoothing protocol (Figs. 4.4–4.6)
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
        ``"ε = 1"``, ``"CPS λ = 5"`` …). ``attrs`` records the run's scale and its cost:
        ``seconds`` (wall-clock time of the whole run, measured here), ``n_groups``,
        ``n_settings`` (``len(lams) + len(eps)``), ``n_sizes``, ``n_draws``, ``n_metrics``
        and ``n_jobs`` — what :func:`~fairbook_book.chapters.small_groups.results.
        cps_seconds_per_setting` extrapolates from. The time is the only number of the run
        that changes from one run to the next.

    Examples
    --------
    >>> g = {"toy": (np.array([3.0, 1, 2, 4]), np.array([30.0, 10, 10, 50]))}
    >>> t = cps_experiment(g, sizes=[5], metrics=["TPR"], n_draws=500, lams=(5,), eps=(0,))
    >>> t.setting_label.tolist()
    ['raw', 'CPS λ = 5']
    >>> t.attrs["n_settings"], t.attrs["n_sizes"], t.attrs["seconds"] > 0
    (2, 1, True)
    """
    sizes, metrics, lams, eps = tuple(sizes), tuple(metrics), tuple(lams), tuple(eps)
    start = time.perf_counter()
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
    out.attrs.update(
        {
            "seconds": time.perf_counter() - start,
            "n_groups": len(groups),
            "n_settings": len(lams) + len(eps),
            "n_sizes": len(sizes),
            "n_draws": int(n_draws),
            "n_metrics": len(metrics),
            "n_jobs": n_jobs,
        }
    )
    return out


def _setting_label(method: str, setting: float) -> str:
    if method == "additive":
        return "raw" if setting == 0 else f"ε = {setting:g}"
    return f"CPS λ = {setting:g}"


# ------------------------------------------- Sec. 4.6 at the paper's scale: `fairbook record 03`
@functools.lru_cache(maxsize=2)
def cps_recorded_groups(*, seed: int, n_estimators: int, with_adult: bool = True) -> dict:
    """The CPS groups of the recorded protocol (COMPAS ours and published, then Adult's race
    groups from the random forest of ``n_estimators`` trees), built once per process.

    The groups come in the order of :func:`cps_groups`, so group ``i`` has the seed
    ``seed + i`` whether or not the Adult groups are included (they come last).
    """
    adult = None
    if with_adult:
        y_true, y_pred, race = predictions.adult_race_predictions(
            "rf", seed=seed, n_estimators=n_estimators
        )
        adult = predictions.group_counts(y_true, y_pred, race)
    return cps_groups(adult_counts=adult, compas_definition="general_zafar")


def cps_recorded_units(config: dict) -> list[str]:
    """One unit per group size: ``"n005"`` … (each size has its own random stream).

    Examples
    --------
    >>> cps_recorded_units({"cps_sizes": (5, 6)})
    ['n005', 'n006']
    """
    return [f"n{int(n):03d}" for n in config["cps_sizes"]]


def cps_recorded_unit(unit: str, config: dict, *, with_adult: bool = True) -> pd.DataFrame:
    """The CPS protocol (:func:`cps_experiment`) for one unit's size, at ``config``'s draws.

    Equal, row for row, to the same size's rows of one :func:`cps_experiment` over all
    sizes (``smoothing_mse`` seeds each size with ``SeedSequence([seed + group, n])``).
    """
    n = int(unit.removeprefix("n"))
    groups = cps_recorded_groups(
        seed=int(config["seed"]), n_estimators=int(config["n_estimators"]), with_adult=with_adult
    )
    table = cps_experiment(
        groups,
        sizes=[n],
        metrics=config["cps_metrics"],
        n_draws=int(config["cps_draws"]),
        seed=int(config["seed"]),
        n_jobs=1,
    )
    return table


#: The chapter's recording: the CPS protocol at 10⁶ draws per size, one unit per size.
CPS_RECORDING = Recordable(
    name="cps",
    units=cps_recorded_units,
    run=cps_recorded_unit,
    depends=(
        "fairbook.stats.cps",
        "fairbook.metrics.rates",
        "fairbook.confusion",
        "fairbook.labels",
        "fairbook.data.predictions",
        "fairbook.data.designs",
        "fairbook_book.chapters.small_groups.runs",
    ),
    parameters=("seed", "n_estimators", "cps_draws", "cps_metrics"),
    description="Sec. 4.6.2's protocol (Figs. 4.4-4.6) at the paper's 10^6 draws, per size",
)

#: Everything ``fairbook record 03`` can record, by name.
RECORDINGS = {CPS_RECORDING.name: CPS_RECORDING}
