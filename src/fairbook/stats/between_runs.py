"""Between-run statistics of seed 004 (App. B.3): Mann–Whitney U, Cohen's d, Levene.

Two sets of runs — a baseline technique's and a treated (debiased) technique's, each one
number per run — are compared the way Qian et al. compare them:

* **Mann–Whitney U**, one-sided, the direction chosen by the means (is the treated mean
  higher or lower than the baseline's?), with the normal approximation and continuity
  correction (``method="asymptotic"``): the setting that reproduces the paper's published
  p-values (their scipy's only method). The exact null distribution is reported beside it.
* **Cohen's d** with the pooled standard deviation (ddof = 1), ``treated − baseline``, so a
  negative d is a decrease, labelled by Sawilowsky's (2009) rules of thumb.
* **Levene's test** (scipy, ``center="median"``, i.e. Brown–Forsythe) on each set divided by
  its own mean, so that it compares *relative* spread (the coefficient of variation), as the
  paper normalises bias values "to eliminate the impact of the average value".

How many runs each needs to mean something — Levene 3 per group, Cohen's d 2, and the
U-test as many as let its p-value fall below α at all (3 asymptotic, 4 exact at 0.05) — is
written once: :data:`MIN_RUNS`, :func:`mann_whitney_floor`, :func:`fewest_runs` and
:func:`too_few_runs`, the guard the explorers print.

Examples
--------
>>> from fairbook.stats.between_runs import compare_runs
>>> r = compare_runs([0.10, 0.11, 0.12, 0.10], [0.20, 0.21, 0.22, 0.25])
>>> r["direction"], r["effect"]
('increase', 'huge')
>>> round(r["mw_p"], 4)
0.0147
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

__all__ = [
    "EFFECT_SIZES",
    "MIN_RUNS",
    "cohen_d",
    "compare_runs",
    "effect_size_label",
    "fewest_runs",
    "levene_normalized",
    "mann_whitney_one_sided",
    "mann_whitney_floor",
    "max_diff",
    "population_stdev",
    "too_few_runs",
]

#: Sawilowsky (2009) rules of thumb for |d|, smallest first (label, lower bound).
EFFECT_SIZES = (
    ("very small", 0.01),
    ("small", 0.2),
    ("medium", 0.5),
    ("large", 0.8),
    ("very large", 1.2),
    ("huge", 2.0),
)


#: The fewest runs per group at which each statistic of :func:`compare_runs` is defined
#: (below it the statistic is NaN): the U-test and Cohen's d (a ddof = 1 variance) need 2;
#: Levene's test with ``center="median"`` needs 3, since the two runs of a pair lie equally
#: far from their median, so the within-group spread of the deviations is 0 and the
#: statistic divides by zero (scipy prints p = 0, or ~1e-31 after rounding).
MIN_RUNS = {"mw_p": 2, "mw_p_exact": 2, "cohen_d": 2, "levene_p": 3}


def _sample(values, name: str) -> np.ndarray:
    array = np.asarray(values, dtype=float)
    if array.ndim != 1:
        raise ValueError(
            f"{name} must be one-dimensional (one value per run), got shape {array.shape}"
        )
    if array.size < 2:
        raise ValueError(f"{name} needs at least two runs, got {array.size}")
    if np.isnan(array).any():
        raise ValueError(
            f"{name} contains NaN (an undefined metric in some run); "
            "drop those runs explicitly before testing"
        )
    return array


def max_diff(values) -> float:
    """Seed 004's *MaxDiff*: the range (max − min) of a metric over runs; NaN if any is NaN.

    Examples
    --------
    >>> max_diff([0.2, 0.3, 0.25])
    0.09999999999999998
    """
    array = np.asarray(values, dtype=float)
    if array.size == 0 or np.isnan(array).any():
        return np.nan
    return float(array.max() - array.min())


def population_stdev(values) -> float:
    """Seed 004's *STDEV*: the population standard deviation (ddof = 0) over runs.

    The paper's analysis code uses ``numpy.std`` (ddof = 0); NaN if any value is NaN.
    Identical values give exactly 0 (``numpy.std`` can leave a rounding residue of the
    mean, e.g. ~1e-17 for six copies of 0.2, which would read as "not bit-identical").

    Examples
    --------
    >>> population_stdev([1.0, 3.0])
    1.0
    """
    array = np.asarray(values, dtype=float)
    if array.size == 0 or np.isnan(array).any():
        return np.nan
    if np.ptp(array) == 0:
        return 0.0
    return float(np.std(array, ddof=0))


def mann_whitney_one_sided(baseline, treated, *, method: str = "asymptotic"):
    """One-sided Mann–Whitney U test of treated against baseline, direction by the means.

    Parameters
    ----------
    baseline, treated : array-like of shape (n,), n ≥ 2
    method : {"asymptotic", "exact"}
        scipy's ``method``; ``"asymptotic"`` (normal approximation with continuity and tie
        correction) reproduces the paper's numbers.

    Returns
    -------
    p : float
        NaN when every value of both sets is the same (nothing to rank), as in the paper's
        code.
    alternative : str
        ``"greater"`` (treated mean > baseline mean), ``"less"``, or ``"two-sided"`` when
        the means are equal.

    Examples
    --------
    >>> p, alt = mann_whitney_one_sided([1, 2, 3], [4, 5, 6])
    >>> alt, round(p, 4)
    ('greater', 0.0404)
    """
    if method not in ("asymptotic", "exact"):
        raise ValueError(f"method must be 'asymptotic' or 'exact', got {method!r}")
    b = _sample(baseline, "baseline")
    t = _sample(treated, "treated")
    mean_b, mean_t = b.mean(), t.mean()
    alternative = "greater" if mean_t > mean_b else "less" if mean_t < mean_b else "two-sided"
    if np.ptp(np.concatenate([b, t])) == 0:
        return np.nan, alternative
    result = stats.mannwhitneyu(t, b, alternative=alternative, method=method)
    return float(result.pvalue), alternative


def cohen_d(baseline, treated) -> float:
    """Cohen's d of treated minus baseline with the pooled (ddof = 1) standard deviation.

    ``d = (mean_t − mean_b) / s_p``, ``s_p² = ((n_b−1)s_b² + (n_t−1)s_t²) / (n_b+n_t−2)``.
    With equal group sizes this is the paper's ``(m0 − m1)/sqrt((s0² + s1²)/2)`` up to sign.
    When both sets are constant, d is ±inf if the means differ and NaN (0/0) if they do
    not; the paper's code writes 0 in both cases.

    Examples
    --------
    >>> round(cohen_d([1.0, 2.0, 3.0], [2.0, 3.0, 4.0]), 3)
    1.0
    """
    b = _sample(baseline, "baseline")
    t = _sample(treated, "treated")
    pooled = ((b.size - 1) * b.var(ddof=1) + (t.size - 1) * t.var(ddof=1)) / (b.size + t.size - 2)
    diff = t.mean() - b.mean()
    if pooled == 0:
        return np.nan if diff == 0 else float(np.copysign(np.inf, diff))
    return float(diff / np.sqrt(pooled))


def effect_size_label(d: float) -> str:
    """Sawilowsky's label for |d|: very small 0.01, small 0.2, medium 0.5, large 0.8,
    very large 1.2, huge 2.0; below 0.01 ``"negligible"``; NaN ``"undefined"``.

    Examples
    --------
    >>> [effect_size_label(x) for x in (0.005, 0.01, -0.5, 1.19, 2.0, float("inf"))]
    ['negligible', 'very small', 'medium', 'large', 'huge', 'huge']
    """
    d = float(d)
    if np.isnan(d):
        return "undefined"
    label = "negligible"
    for name, bound in EFFECT_SIZES:
        if abs(d) >= bound:
            label = name
    return label


def levene_normalized(baseline, treated) -> float:
    """Levene's test (``center="median"``) on each set divided by its own mean.

    Returns NaN where the test is undefined: fewer than ``MIN_RUNS["levene_p"]`` (3) runs
    in a set, a mean of 0 (nothing to normalise by), both sets constant (no spread to
    compare), or no spread of the deviations from the median within either set (e.g. two
    runs per set: the statistic divides by zero, and scipy's p of 0 means nothing).

    Examples
    --------
    >>> round(levene_normalized([1.0, 1.1, 0.9, 1.0], [1.0, 2.0, 0.5, 1.5]), 3)
    0.026
    >>> levene_normalized([1.0, 2.0], [1.0, 3.0])  # two runs each: undefined, not p = 0
    nan
    """
    b = _sample(baseline, "baseline")
    t = _sample(treated, "treated")
    if min(b.size, t.size) < MIN_RUNS["levene_p"] or b.mean() == 0 or t.mean() == 0:
        return np.nan
    nb, nt = b / b.mean(), t / t.mean()
    if np.ptp(nb) == 0 and np.ptp(nt) == 0:
        return np.nan
    # the test is an ANOVA of |x − median|: no spread of those within either set is x / 0
    deviations = [np.abs(x - np.median(x)) for x in (nb, nt)]
    scale = max(float(d.max()) for d in deviations)
    if all(np.ptp(d) <= 1e-9 * scale for d in deviations):
        return np.nan
    return float(stats.levene(nb, nt, center="median").pvalue)


def mann_whitney_floor(n_baseline: int, n_treated: int, *, method: str = "asymptotic") -> float:
    """The smallest p-value the one-sided U-test of :func:`mann_whitney_one_sided` can give
    with ``n_baseline`` and ``n_treated`` runs, whatever the runs are.

    It is reached when the two sets are completely separated. The exact null gives
    ``1 / C(n_b + n_t, n_b)``; the normal approximation is smallest when, besides, each set
    is constant (the tie correction then shrinks the variance the most).

    Parameters
    ----------
    n_baseline, n_treated : int, ≥ 1
    method : {"asymptotic", "exact"}

    Returns
    -------
    float

    Examples
    --------
    >>> mann_whitney_floor(3, 3, method="exact")  # 1 / C(6, 3): never below 0.05
    0.05
    >>> round(mann_whitney_floor(2, 2), 4), round(mann_whitney_floor(3, 3), 4)
    (0.097, 0.0234)
    """
    if method not in ("asymptotic", "exact"):
        raise ValueError(f"method must be 'asymptotic' or 'exact', got {method!r}")
    n_b, n_t = int(n_baseline), int(n_treated)
    if min(n_b, n_t) < 1:
        raise ValueError(f"both sets need at least one run, got {n_baseline!r}, {n_treated!r}")
    if method == "exact":
        return 1.0 / float(math.comb(n_b + n_t, n_b))
    result = stats.mannwhitneyu(np.ones(n_t), np.zeros(n_b), alternative="greater", method=method)
    return float(result.pvalue)


def fewest_runs(statistic: str, *, alpha: float = 0.05) -> int:
    """The fewest runs per group (equal groups) at which a statistic of :func:`compare_runs`
    means something: where it is defined (:data:`MIN_RUNS`) and, for the U-test, where its
    p-value can fall below ``alpha`` at all (:func:`mann_whitney_floor`).

    Parameters
    ----------
    statistic : {"mw_p", "mw_p_exact", "cohen_d", "levene_p"}
        ``mw_p``: the U-test with the normal approximation; ``mw_p_exact``: the exact one.
    alpha : float, default 0.05

    Examples
    --------
    >>> [fewest_runs(s) for s in ("mw_p", "mw_p_exact", "cohen_d", "levene_p")]
    [3, 4, 2, 3]
    >>> fewest_runs("mw_p_exact", alpha=0.01)  # 1 / C(10, 5) = 0.004
    5
    """
    if statistic not in MIN_RUNS:
        raise ValueError(f"statistic must be one of {sorted(MIN_RUNS)}, got {statistic!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    n = MIN_RUNS[statistic]
    if statistic in ("mw_p", "mw_p_exact"):
        method = "exact" if statistic == "mw_p_exact" else "asymptotic"
        while mann_whitney_floor(n, n, method=method) >= alpha:  # the floor falls with n
            n += 1
    return n


def too_few_runs(n_baseline: int, n_treated: int | None = None, *, alpha: float = 0.05) -> dict:
    """Which statistics of :func:`compare_runs` mean nothing with this many runs, and why:
    the guard of the explorers, one plain sentence per statistic.

    The rule, per statistic (``n`` the runs of the smaller set):

    * below :data:`MIN_RUNS` the statistic is undefined (NaN) — ``"needs ≥ k runs per
      group"``: Cohen's d needs 2 (a ddof = 1 variance), Levene's test 3 (with 2 runs the
      deviations from the median are equal, and the test divides by zero);
    * the U-test (``mw_p`` asymptotic, ``mw_p_exact`` exact) is defined from 2 runs, but
      its p-value cannot fall below :func:`mann_whitney_floor`: where that floor is not
      below ``alpha`` — ``"cannot reach p < α with n runs: needs ≥ m per group"``, a
      number that can never say "significant" (``m`` from :func:`fewest_runs`; with
      α = 0.05, 3 for the normal approximation and 4 for the exact test).

    Parameters
    ----------
    n_baseline : int
    n_treated : int, optional
        Default ``n_baseline``.
    alpha : float, default 0.05

    Returns
    -------
    dict
        ``{"mw_p", "mw_p_exact", "cohen_d", "levene_p"}`` → the sentence, or None where the
        statistic is defined and can reach ``alpha``.

    Examples
    --------
    >>> notes = too_few_runs(2)
    >>> notes["levene_p"], notes["cohen_d"]
    ('needs ≥ 3 runs per group', None)
    >>> notes["mw_p"]
    'cannot reach p < 0.05 with 2 runs: needs ≥ 3 per group'
    >>> too_few_runs(3)["mw_p_exact"]
    'cannot reach p < 0.05 with 3 runs: needs ≥ 4 per group'
    >>> set(too_few_runs(4).values())
    {None}
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    n_b = int(n_baseline)
    n_t = n_b if n_treated is None else int(n_treated)
    if min(n_b, n_t) < 1:
        raise ValueError(f"both sets need at least one run, got {n_baseline!r}, {n_treated!r}")
    runs = f"{n_b} runs" if n_b == n_t else f"{n_b} and {n_t} runs"
    notes: dict[str, str | None] = {}
    for name, fewest in MIN_RUNS.items():
        notes[name] = None
        if min(n_b, n_t) < fewest:
            notes[name] = f"needs ≥ {fewest} runs per group"
        elif name in ("mw_p", "mw_p_exact"):
            method = "exact" if name == "mw_p_exact" else "asymptotic"
            if mann_whitney_floor(n_b, n_t, method=method) >= alpha:
                notes[name] = (
                    f"cannot reach p < {alpha:g} with {runs}: "
                    f"needs ≥ {fewest_runs(name, alpha=alpha)} per group"
                )
    return notes


def compare_runs(baseline, treated, *, alpha: float = 0.05) -> dict:
    """Compare a treated technique's runs with its baseline's (seed 004 App. B.3).

    Parameters
    ----------
    baseline, treated : array-like of shape (n,)
        One value per run (a bias metric or the accuracy), n ≥ 2 each; no NaN.
    alpha : float
        Significance level for ``significant`` and ``direction``.

    Returns
    -------
    dict
        ``mean_baseline``, ``mean_treated``, ``diff`` (treated − baseline), ``mw_p``
        (one-sided, asymptotic), ``mw_p_exact`` (same alternative, exact null),
        ``alternative``, ``cohen_d``, ``effect`` (Sawilowsky label), ``levene_p``,
        ``cv_baseline`` and ``cv_treated`` (population std / mean),
        ``variance_change`` (``"higher"``/``"lower"`` relative spread if Levene's
        p < alpha, else ``"not significant"``), ``significant`` (mw_p < alpha) and
        ``direction`` (``"increase"``/``"decrease"``/``"not significant"``).

    Examples
    --------
    >>> r = compare_runs([0.074, 0.07, 0.08, 0.072], [0.087, 0.09, 0.061, 0.095])
    >>> r["alternative"], r["significant"]
    ('greater', False)
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    b = _sample(baseline, "baseline")
    t = _sample(treated, "treated")
    mw_p, alternative = mann_whitney_one_sided(b, t)
    mw_exact, _ = mann_whitney_one_sided(b, t, method="exact")
    d = cohen_d(b, t)
    levene_p = levene_normalized(b, t)
    with np.errstate(divide="ignore", invalid="ignore"):
        cv_b = float(np.std(b) / b.mean()) if b.mean() != 0 else np.nan
        cv_t = float(np.std(t) / t.mean()) if t.mean() != 0 else np.nan
    significant = bool(mw_p < alpha) if not np.isnan(mw_p) else False
    if significant:
        direction = "increase" if alternative == "greater" else "decrease"
    else:
        direction = "not significant"
    if not np.isnan(levene_p) and levene_p < alpha:
        variance_change = "higher" if cv_t > cv_b else "lower"
    else:
        variance_change = "not significant"
    return {
        "mean_baseline": float(b.mean()),
        "mean_treated": float(t.mean()),
        "diff": float(t.mean() - b.mean()),
        "mw_p": mw_p,
        "mw_p_exact": mw_exact,
        "alternative": alternative,
        "cohen_d": d,
        "effect": effect_size_label(d),
        "levene_p": levene_p,
        "cv_baseline": cv_b,
        "cv_treated": cv_t,
        "variance_change": variance_change,
        "significant": significant,
        "direction": direction,
    }
