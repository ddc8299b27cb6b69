"""Many small groups at once: family-wise errors, the largest disparity, between-group variance.

An audit that tests every one of ``K`` small groups (say the race × sex × age intersections
of a data set) against a reference meets three effects of testing many at once:

* **Family-wise error.** Even if no group differs, the chance that *some* group is flagged
  grows with ``K``. Under the global null, with the reference's rate ``p`` known exactly and
  independent groups, Bonferroni's family-wise error rate is the exact finite product
  ``1 − Π_k (1 − P(p_k <= α/K))`` (:func:`bonferroni_fwer_exact`); Holm's is the same,
  because under the global null every flag is false and Holm flags anything exactly when
  the smallest p-value is at most α/K. :func:`simulate_many_groups` simulates none /
  Bonferroni / Holm / Benjamini–Hochberg with a shared reference sample and any group rates,
  and reports family-wise error, false discovery rate and power with Monte Carlo errors.
* **The largest disparity is biased upward.** With every group's true rate equal to the
  reference's ``p``, ``max_k |p̂_k − p|`` is still positive, and grows with ``K`` and shrinks
  with ``n``. Its law is exact: ``P(max <= t) = Π_k P(|X_k/n_k − p| <= t)`` over the finite
  support of ``t`` (:func:`max_disparity_distribution`, :func:`expected_max_disparity`,
  :func:`max_disparity_quantile`, :func:`max_disparity_sf`).
* **The spread of group rates is biased upward.** The sample variance of the ``K`` observed
  rates adds each group's sampling variance to the true between-group variance. Lum, Zhang
  and Bower (FAccT 2022, "De-biasing 'bias' measurement", arXiv 2205.05770) subtract it
  (:func:`between_group_variance`) and build a confidence interval by a parametric bootstrap
  of a "double-corrected" statistic (:func:`double_corrected_variance`,
  :func:`corrected_variance_interval`).

Notation: ``x_k`` successes of ``n_k`` in group ``k``, ``r_k = x_k / n_k``, ``K`` groups.
The between-group variance of the true rates ``μ_k`` is ``V = Σ_k (μ_k − μ̄)² / (K − 1)``
(unweighted: each group counts once, as in Lum et al.).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from fairbook.stats import group_tests

__all__ = [
    "CORRECTIONS",
    "PROCEDURES",
    "between_group_variance",
    "bonferroni_fwer_exact",
    "corrected_variance_interval",
    "double_corrected_variance",
    "expected_max_disparity",
    "max_disparity_distribution",
    "max_disparity_quantile",
    "max_disparity_sf",
    "simulate_many_groups",
]

#: The multiple-testing procedures :func:`simulate_many_groups` compares, in its row order.
PROCEDURES = ("none", "bonferroni", "holm", "benjamini_hochberg")
#: The corrections of :func:`between_group_variance`.
CORRECTIONS = ("none", "lum", "unbiased")

_DECIMALS = 12  # |x/n - p| values equal to 12 decimals are one point of the support


# --------------------------------------------------------------------------- validation
def _check_sizes(group_sizes) -> np.ndarray:
    sizes = np.asarray(group_sizes)
    if sizes.ndim != 1 or sizes.size == 0:
        raise ValueError("group_sizes must be a non-empty 1-d sequence of group sizes")
    if sizes.dtype == bool or not (
        np.issubdtype(sizes.dtype, np.integer)
        or (np.issubdtype(sizes.dtype, np.floating) and np.all(sizes == np.round(sizes)))
    ):
        raise ValueError(f"group sizes must be whole numbers, got {sizes.tolist()}")
    if (sizes < 1).any():
        raise ValueError(f"every group size must be at least 1, got {sizes.tolist()}")
    return sizes.astype(np.int64)


def _check_rate(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a number in [0, 1], got {value!r}")
    if not 0.0 <= float(value) <= 1.0:
        raise ValueError(f"{name} must lie in [0, 1], got {value}")
    return float(value)


def _check_alpha(alpha) -> float:
    alpha = _check_rate(alpha, "alpha")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha}")
    return alpha


def _check_count(value, name: str, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return int(value)


def _check_counts(counts, sizes) -> tuple[np.ndarray, np.ndarray]:
    n = _check_sizes(sizes)
    x = np.asarray(counts)
    if x.shape != n.shape:
        raise ValueError(f"counts has shape {x.shape} but sizes has shape {n.shape}")
    if x.dtype == bool or not (
        np.issubdtype(x.dtype, np.integer)
        or (np.issubdtype(x.dtype, np.floating) and np.all(x == np.round(x)))
    ):
        raise ValueError("counts must be whole numbers")
    if (x < 0).any() or (x > n).any():
        raise ValueError("every count must lie between 0 and its group's size")
    return x.astype(np.float64), n.astype(np.float64)


def _check_correction(correction) -> str:
    if correction not in CORRECTIONS:
        raise ValueError(
            f"unknown correction {correction!r}; choose one of {', '.join(CORRECTIONS)}"
        )
    return correction


# --------------------------------------------------------------------------- family-wise error
def bonferroni_fwer_exact(
    test: str,
    group_sizes,
    *,
    p: float,
    alpha: float = 0.05,
    adjust: bool = True,
    prior: float = 0.5,
    margin: float = 0.0,
) -> float:
    """Exact family-wise error rate of Bonferroni (or of no adjustment) under the global null.

    Every group's true rate is the reference's ``p``, known exactly (``N=None`` in
    :mod:`fairbook.stats.group_tests`), and the groups are independent, so::

        FWER = 1 − Π_k (1 − P(test flags group k at level α/K))

    each factor an exact finite sum (:func:`fairbook.stats.group_tests.rejection_probability`).
    Holm's step-down method has the same family-wise error rate under the global null: every
    flag is then false, and Holm flags anything exactly when the smallest p-value is at most
    α/K, which is when Bonferroni flags anything.

    Parameters
    ----------
    test : str
        A one-sample test of :data:`fairbook.stats.group_tests.EXACT_TESTS` (not ``fisher``
        or ``boschloo``, which need a reference sample).
    group_sizes : sequence of int
        ``n_k`` of the ``K`` groups.
    p : float
        The common true rate.
    alpha : float, default 0.05
        The family's level.
    adjust : bool, default True
        False: every group is tested at α (no adjustment).
    prior, margin : float
        The Bayesian rule's prior and margin.

    Returns
    -------
    float

    Examples
    --------
    >>> fwer = bonferroni_fwer_exact("match", [10, 20, 30], p=0.4)
    >>> round(fwer, 4), fwer <= 0.05
    (0.0314, True)
    >>> round(bonferroni_fwer_exact("wald", [10] * 20, p=0.1, adjust=False), 3)
    1.0
    """
    sizes = _check_sizes(group_sizes)
    p = _check_rate(p, "p")
    alpha = _check_alpha(alpha)
    level = alpha / sizes.size if adjust else alpha
    distinct, multiplicity = np.unique(sizes, return_counts=True)
    log_none = 0.0
    for n, count in zip(distinct, multiplicity, strict=True):
        size = group_tests.rejection_probability(
            test, int(n), p_group=p, p_ref=p, N=None, alpha=level, prior=prior, margin=margin
        )
        if size >= 1.0:
            return 1.0
        log_none += count * math.log1p(-size)
    return float(-math.expm1(log_none))


def _rejections(pvalues: np.ndarray, alpha: float, procedure: str) -> np.ndarray:
    """Flags of each row of ``(sims, K)`` p-values, as the adjusted p-values <= alpha.

    The arithmetic is that of :mod:`fairbook.stats.multiple_testing`, row by row.
    """
    k = pvalues.shape[1]
    if procedure == "none":
        return pvalues <= alpha
    if procedure == "bonferroni":
        return k * pvalues <= alpha
    order = np.argsort(pvalues, axis=1, kind="stable")
    ranked = np.take_along_axis(pvalues, order, axis=1)
    if procedure == "holm":
        adjusted = np.maximum.accumulate((k - np.arange(k)) * ranked, axis=1)
    else:  # benjamini_hochberg
        scaled = ranked * k / np.arange(1, k + 1)
        adjusted = np.minimum.accumulate(scaled[:, ::-1], axis=1)[:, ::-1]
    flags = np.empty_like(pvalues, dtype=bool)
    np.put_along_axis(flags, order, adjusted <= alpha, axis=1)
    return flags


def _group_pvalues(test, sizes, x, y, N, p_ref, prior, margin) -> np.ndarray:
    """p-values of every simulated group count ``x`` (sims, K), looked up in exact tables."""
    pvalues = np.empty(x.shape)
    tables = {}
    for k, n in enumerate(sizes):
        n = int(n)
        if n not in tables:
            if N is None:
                tables[n] = group_tests.pvalue_table(
                    test, n, p_ref=p_ref, prior=prior, margin=margin
                )
            else:
                tables[n] = group_tests.pvalue_table(test, n, N=N, prior=prior, margin=margin)
        table = tables[n]
        pvalues[:, k] = table[x[:, k]] if N is None else table[x[:, k], y]
    return pvalues


def simulate_many_groups(
    test: str,
    group_sizes,
    *,
    p_ref: float,
    p_groups=None,
    N: int | None = None,
    alpha: float = 0.05,
    n_sims: int = 2000,
    seed: int = 0,
    prior: float = 0.5,
    margin: float = 0.0,
) -> pd.DataFrame:
    """Simulated family-wise error, false discovery rate and power of four procedures.

    Each simulation draws every group's count ``x_k ~ Bin(n_k, p_k)`` and one reference
    count ``y ~ Bin(N, p_ref)`` shared by all groups (with ``N=None`` the reference's rate
    ``p_ref`` is known exactly), reads each group's p-value from the exact table of
    :func:`fairbook.stats.group_tests.pvalue_table`, and flags groups by each procedure of
    :data:`PROCEDURES` at level ``alpha`` (flags equal those of the adjusted p-values of
    :mod:`fairbook.stats.multiple_testing` at or below α). A group is *truly different*
    when its ``p_k`` differs from ``p_ref``.

    Parameters
    ----------
    test : str
        One of :data:`fairbook.stats.group_tests.EXACT_TESTS` (``fisher`` and ``boschloo``
        only with ``N``).
    group_sizes : sequence of int
        ``n_k`` of the ``K`` groups.
    p_ref : float
        The reference's true rate.
    p_groups : sequence of float, optional
        The groups' true rates; default every group at ``p_ref`` (the global null).
    N : int, optional
        The reference's size; None: its rate is known exactly.
    alpha : float, default 0.05
    n_sims : int, default 2000
    seed : int, default 0
    prior, margin : float
        The Bayesian rule's prior and margin.

    Returns
    -------
    pandas.DataFrame
        Indexed by procedure; columns ``fwer`` (share of simulations with at least one false
        flag), ``fdr`` (mean of false flags / max(flags, 1)), ``power`` (mean share of the
        truly different groups flagged; NaN when no group is different), ``mean_flags``,
        and ``fwer_se``, ``fdr_se``, ``power_se``, their Monte Carlo standard errors.

    Examples
    --------
    >>> table = simulate_many_groups("match", [10, 20, 30], p_ref=0.4, n_sims=500)
    >>> table.index.tolist()
    ['none', 'bonferroni', 'holm', 'benjamini_hochberg']
    >>> bool((table["fwer"] == table["fdr"]).all())  # under the global null
    True
    """
    sizes = _check_sizes(group_sizes)
    p_ref = _check_rate(p_ref, "p_ref")
    alpha = _check_alpha(alpha)
    n_sims = _check_count(n_sims, "n_sims", minimum=2)
    if p_groups is None:
        rates = np.full(sizes.size, p_ref)
    else:
        rates = np.asarray(p_groups, dtype=np.float64)
        if rates.shape != sizes.shape:
            raise ValueError(
                f"p_groups has {rates.size} rates but group_sizes has {sizes.size} groups"
            )
        if not np.all((rates >= 0) & (rates <= 1)):
            raise ValueError("every rate in p_groups must lie in [0, 1]")
    if N is not None:
        N = _check_count(N, "N", minimum=1)
    rng = np.random.default_rng(seed)
    x = rng.binomial(sizes, rates, size=(n_sims, sizes.size))
    y = None if N is None else rng.binomial(N, p_ref, size=n_sims)
    pvalues = _group_pvalues(test, sizes, x, y, N, p_ref, prior, margin)
    different = rates != p_ref
    rows = {}
    for procedure in PROCEDURES:
        flags = _rejections(pvalues, alpha, procedure)
        false = (flags & ~different).sum(axis=1)
        total = flags.sum(axis=1)
        any_false = false > 0
        share = false / np.maximum(total, 1)
        fwer = any_false.mean()
        row = {
            "fwer": fwer,
            "fdr": share.mean(),
            "power": math.nan,
            "mean_flags": total.mean(),
            "fwer_se": math.sqrt(fwer * (1 - fwer) / n_sims),
            "fdr_se": share.std(ddof=1) / math.sqrt(n_sims),
            "power_se": math.nan,
        }
        if different.any():
            found = (flags & different).sum(axis=1) / different.sum()
            row["power"] = found.mean()
            row["power_se"] = found.std(ddof=1) / math.sqrt(n_sims)
        rows[procedure] = row
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "procedure"
    return table


# --------------------------------------------------------------------------- largest disparity
def _max_law(group_sizes, p) -> tuple[np.ndarray, np.ndarray]:
    """Support ``t`` (sorted) and ``P(max_k |X_k/n_k − p| <= t)`` over it."""
    sizes = _check_sizes(group_sizes)
    p = _check_rate(p, "p")
    distinct, multiplicity = np.unique(sizes, return_counts=True)
    laws = []
    for n in distinct:
        x = np.arange(n + 1)
        values = np.round(np.abs(x / n - p), _DECIMALS)
        order = np.argsort(values, kind="stable")
        laws.append((values[order], np.cumsum(stats.binom.pmf(x, n, p)[order])))
    support = np.unique(np.concatenate([values for values, _ in laws]))
    cdf = np.ones(support.size)
    for (values, cumulative), count in zip(laws, multiplicity, strict=True):
        index = np.searchsorted(values, support, side="right") - 1
        group_cdf = np.where(index >= 0, cumulative[np.maximum(index, 0)], 0.0)
        cdf *= np.minimum(group_cdf, 1.0) ** count
    cdf[-1] = 1.0  # the largest value of the support bounds every group's disparity
    return support, cdf


def max_disparity_distribution(group_sizes, *, p: float) -> pd.DataFrame:
    """Exact law of the largest disparity ``max_k |p̂_k − p|`` when every group's rate is ``p``.

    ``P(max <= t) = Π_k P(|X_k/n_k − p| <= t)`` with ``X_k ~ Bin(n_k, p)`` independent,
    evaluated at every value ``t`` the maximum can take (values equal to 12 decimals are
    merged).

    Parameters
    ----------
    group_sizes : sequence of int
        ``n_k`` of the ``K`` groups.
    p : float
        The common true rate, the reference's rate known exactly.

    Returns
    -------
    pandas.DataFrame
        Columns ``disparity`` (sorted), ``probability`` and ``cdf``.

    Examples
    --------
    >>> law = max_disparity_distribution([2], p=0.5)
    >>> law.round(12).values.tolist()
    [[0.0, 0.5, 0.5], [0.5, 0.5, 1.0]]
    """
    support, cdf = _max_law(group_sizes, p)
    return pd.DataFrame(
        {"disparity": support, "probability": np.diff(cdf, prepend=0.0), "cdf": cdf}
    )


def expected_max_disparity(group_sizes, *, p: float) -> float:
    """Exact ``E[max_k |p̂_k − p|]`` when every group's true rate is the reference's ``p``.

    The part of an observed largest disparity that chance alone produces: it grows with the
    number of groups and shrinks with their size. Computed exactly from
    :func:`max_disparity_distribution`.

    Parameters
    ----------
    group_sizes : sequence of int
    p : float

    Returns
    -------
    float

    Examples
    --------
    >>> round(expected_max_disparity([2], p=0.5), 12)  # |0/2 − ½| = |2/2 − ½| = ½ w.p. ½
    0.25
    >>> expected_max_disparity([30] * 20, p=0.3) > expected_max_disparity([30], p=0.3)
    True
    """
    support, cdf = _max_law(group_sizes, p)
    return float(support @ np.diff(cdf, prepend=0.0))


def max_disparity_quantile(group_sizes, q, *, p: float):
    """Quantiles ``inf{t : P(max <= t) >= q}`` of the largest disparity under no disparity.

    Parameters
    ----------
    group_sizes : sequence of int
    q : float or array_like of float
        Levels in ``[0, 1]``.
    p : float

    Returns
    -------
    float or numpy.ndarray
        Same shape as ``q``.

    Examples
    --------
    >>> max_disparity_quantile([2], [0.25, 0.5, 0.95], p=0.5).tolist()
    [0.0, 0.0, 0.5]
    """
    levels = np.asarray(q, dtype=np.float64)
    if not np.all((levels >= 0) & (levels <= 1)):
        raise ValueError("quantile levels q must lie in [0, 1]")
    support, cdf = _max_law(group_sizes, p)
    index = np.searchsorted(cdf, levels - 1e-12, side="left")
    result = support[np.minimum(index, support.size - 1)]
    return float(result) if result.ndim == 0 else result


def max_disparity_sf(observed: float, group_sizes, *, p: float) -> float:
    """``P(max_k |p̂_k − p| >= observed)`` under no disparity: the largest disparity's p-value.

    Examples
    --------
    >>> round(max_disparity_sf(0.5, [2], p=0.5), 12)
    0.5
    >>> max_disparity_sf(0.0, [2], p=0.5)
    1.0
    """
    if isinstance(observed, bool) or not np.isfinite(observed) or observed < 0:
        raise ValueError(f"observed must be a non-negative number, got {observed!r}")
    support, cdf = _max_law(group_sizes, p)
    below = np.searchsorted(support, round(float(observed), _DECIMALS), side="left") - 1
    return float(1.0 - cdf[below]) if below >= 0 else 1.0


# --------------------------------------------------------------------------- between-group variance
def between_group_variance(counts, sizes, *, correction: str = "unbiased") -> float:
    """Between-group variance of group rates, naive or corrected for sampling noise.

    The naive estimate is the sample variance of the observed rates,
    ``V̂ = Σ_k (r_k − r̄)² / (K − 1)``; its expectation is ``V + mean_k μ_k(1 − μ_k)/n_k``:
    every group's sampling variance inflates it, most for small groups. Corrections:

    ``"none"``
        ``V̂``.
    ``"lum"``
        Lum, Zhang and Bower (2022): ``V̂ − mean_k r_k(1 − r_k)/n_k``, as in the authors'
        code (``apply_corrections`` of twitter-research/double-corrected-variance-estimator).
        Its remaining bias is ``mean_k μ_k(1 − μ_k)/n_k²``.
    ``"unbiased"`` (default)
        ``V̂ − mean_k r_k(1 − r_k)/(n_k − 1)``: exactly unbiased for ``V``, because
        ``E[r(1 − r)] = μ(1 − μ)(n − 1)/n``. NaN if a group has ``n_k = 1``.

    Corrected estimates can be negative (they are not clipped at 0); the true variance is not.

    Parameters
    ----------
    counts, sizes : array_like of int
        ``x_k`` and ``n_k`` of the ``K`` groups.
    correction : {"unbiased", "lum", "none"}

    Returns
    -------
    float
        NaN for fewer than two groups.

    Examples
    --------
    >>> round(between_group_variance([2, 8], [10, 10], correction="none"), 12)
    0.18
    >>> round(between_group_variance([2, 8], [10, 10]), 4)  # 0.18 - 0.16 / 9
    0.1622
    """
    x, n = _check_counts(counts, sizes)
    correction = _check_correction(correction)
    if x.size < 2:
        return math.nan
    rates = x / n
    naive = float(np.var(rates, ddof=1))
    if correction == "none":
        return naive
    spread = rates * (1 - rates)
    if correction == "lum":
        return naive - float(np.mean(spread / n))
    if (n < 2).any():
        return math.nan
    return naive - float(np.mean(spread / (n - 1)))


def double_corrected_variance(counts, sizes, *, correction: str = "unbiased") -> float:
    """Lum et al.'s "double-corrected" statistic, the one to bootstrap for an interval.

    Bootstrapping the corrected estimate from the observed rates centres its bootstrap law
    on the *naive* value (the resamples carry the observed rates' inflation again). Lum,
    Zhang and Bower therefore bootstrap a statistic corrected twice, whose bootstrap law is
    centred on the corrected estimate:

    ``"lum"``
        ``V̂ − 2 mean_k r_k(1 − r_k)/n_k + mean_k r_k(1 − r_k)/n_k²`` (the authors' code).
        Its parametric-bootstrap mean is the ``"lum"`` estimate plus
        ``mean_k (3 r_k(1 − r_k)/n_k² − r_k(1 − r_k)/n_k³)``.
    ``"unbiased"`` (default)
        ``V̂ − mean_k r_k(1 − r_k)(2n_k − 1)/(n_k − 1)²``, whose parametric-bootstrap mean is
        *exactly* the ``"unbiased"`` estimate of :func:`between_group_variance` (this
        book's exact version of the same idea). NaN if some ``n_k = 1``.
    ``"none"``
        ``V̂``.

    Parameters
    ----------
    counts, sizes : array_like of int
    correction : {"unbiased", "lum", "none"}

    Returns
    -------
    float

    Examples
    --------
    >>> round(double_corrected_variance([2, 8], [10, 10], correction="lum"), 4)
    0.1496
    """
    x, n = _check_counts(counts, sizes)
    correction = _check_correction(correction)
    return float(_double_corrected(x, n, correction))


def _double_corrected(x, n, correction):
    """The double-corrected statistic of the last axis of ``x`` (any leading shape)."""
    if x.shape[-1] < 2:
        return np.full(x.shape[:-1], np.nan)
    rates = x / n
    naive = np.var(rates, axis=-1, ddof=1)
    spread = rates * (1 - rates)
    if correction == "none":
        return naive
    if correction == "lum":
        return naive - 2 * np.mean(spread / n, axis=-1) + np.mean(spread / n**2, axis=-1)
    if (n < 2).any():
        return np.full(x.shape[:-1], np.nan)
    return naive - np.mean(spread * (2 * n - 1) / (n - 1) ** 2, axis=-1)


def corrected_variance_interval(
    counts,
    sizes,
    *,
    correction: str = "unbiased",
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int = 0,
) -> pd.Series:
    """Corrected between-group variance with its parametric-bootstrap error and interval.

    Following Lum, Zhang and Bower (2022): resample every group's count
    ``x*_k ~ Bin(n_k, r_k)`` ``n_boot`` times, compute :func:`double_corrected_variance` on
    each resample; its percentile interval at ``level`` is the interval for the between-group
    variance, and the standard deviation of the resampled values its standard error.

    Parameters
    ----------
    counts, sizes : array_like of int
    correction : {"unbiased", "lum"}
    level : float, default 0.95
    n_boot : int, default 2000
    seed : int, default 0

    Returns
    -------
    pandas.Series
        ``naive``, ``corrected`` (:func:`between_group_variance`), ``se``, ``lower``,
        ``upper`` and ``bootstrap_mean`` (the mean of the resampled double-corrected values,
        which estimates ``corrected``).

    Examples
    --------
    >>> out = corrected_variance_interval([2, 8, 5], [10, 10, 10], n_boot=500)
    >>> bool(out["lower"] < out["corrected"] < out["upper"])
    True
    """
    x, n = _check_counts(counts, sizes)
    correction = _check_correction(correction)
    if correction == "none":
        raise ValueError("the interval is for a corrected variance: correction 'lum' or 'unbiased'")
    if not 0 < level < 1:
        raise ValueError(f"level must lie strictly between 0 and 1, got {level}")
    n_boot = _check_count(n_boot, "n_boot", minimum=2)
    rng = np.random.default_rng(seed)
    resampled = rng.binomial(n.astype(np.int64), x / n, size=(n_boot, x.size)).astype(float)
    replicates = _double_corrected(resampled, n, correction)
    lower, upper = np.quantile(replicates, [(1 - level) / 2, (1 + level) / 2])
    return pd.Series(
        {
            "naive": between_group_variance(x, n, correction="none"),
            "corrected": between_group_variance(x, n, correction=correction),
            "se": float(np.std(replicates, ddof=1)),
            "lower": float(lower),
            "upper": float(upper),
            "bootstrap_mean": float(np.mean(replicates)),
        }
    )
