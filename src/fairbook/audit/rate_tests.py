"""The audit's choice of test for a rate, and the exact size beside a small-group flag.

``test="match"`` (the default) is seed 003's MATCH: the group is one multinomial draw under
the reference's confusion proportions (:mod:`.fast_match`). The other choices treat a rate
metric as a **two-proportion** comparison: the group has ``x`` of ``n``, its reference ``y``
of ``N``:

* a *binomial* metric (ACC, PPR, ...: two cells over everyone) counts ``x`` = those two
  cells of the group's ``n`` people, ``y`` the same of the reference's ``N``;
* a *joint-ratio* metric (TPR = TP / (TP + FN), FPR, PPV, NPV, ...) counts its numerator
  over its own denominator in each group (for TPR: true positives of the actual positives);
  a denominator of 0 leaves the rate undefined and the p-value NaN, as MATCH does;
* B (the marginal benefit, a signed difference of two cells) has no two-proportion form:
  its p-value is NaN and its note says ``"B is tested only by MATCH"``.

The p-values of one table each (:func:`two_proportion_pvalues`) come from closed forms
(``wald``, ``score``: the formulas of :mod:`fairbook.stats.group_tests`), from scipy
(``fisher``: :func:`scipy.stats.fisher_exact`; ``boschloo``:
:func:`scipy.stats.boschloo_exact`, refused above :data:`BOSCHLOO_MAX_OUTCOMES`) or from one
adaptive integral (``bayes``) — never from a table of every outcome, which a group of
20 000 against a reference of 20 000 could not afford.

:func:`exact_sizes` puts beside each small-group flag the chosen test's **exact size** at
the group's size: :func:`fairbook.stats.group_tests.exact_size`, the chance that the test
flags a group of that size whose rate is the reference's, summed over every outcome.

Examples
--------
>>> TEST_NAMES["fisher"]
"Fisher's exact test"
>>> two_proportion_pvalues("fisher", [1], [10], 8, 10).round(4).tolist()
[0.0055]
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import integrate, stats

from fairbook.audit.rates import fraction_counts
from fairbook.stats import group_tests
from fairbook.stats.combinatorics import BINOMIAL_CELLS, JRM_CELLS
from fairbook.stats.group_tests import _z_two_sided  # the same rule as the exact sizes

__all__ = [
    "BOSCHLOO_MAX_OUTCOMES",
    "NO_SIZE_FOR_B",
    "NO_TWO_PROPORTION",
    "SIZE_LIMITS",
    "SIZE_NOTE",
    "TESTS",
    "TEST_NAMES",
    "check_boschloo",
    "exact_size",
    "exact_sizes",
    "rate_counts",
    "two_proportion_pvalues",
]

#: The tests the audit offers, MATCH first (its default).
TESTS = ("match", "wald", "score", "fisher", "boschloo", "bayes")

#: Each test in words, as the reports name it.
TEST_NAMES = {
    "match": "MATCH (seed 003's exact law, reference rate plugged in)",
    "wald": "Wald two-proportion z test",
    "score": "pooled score z test",
    "fisher": "Fisher's exact test",
    "boschloo": "Boschloo's exact unconditional test",
    "bayes": "beta-binomial Bayesian rule (Ferrara et al. 2025), Jeffreys prior",
}

#: The most outcomes ``(n + 1)(N + 1)`` of a group against its reference that Boschloo's
#: test is run on: :func:`scipy.stats.boschloo_exact` enumerates every one and maximises
#: over the common rate, which took 2–3 s at 2 × 10^5 outcomes (n = 100, N = 2000; n = N =
#: 500) on the machine this was measured on, and grows with them (16 s at 9 × 10^5).
BOSCHLOO_MAX_OUTCOMES = 200_000

#: The note of B's p-value under a test other than MATCH.
NO_TWO_PROPORTION = "B is tested only by MATCH (it has no two-proportion form)"

#: Why B has no exact size beside its small-group flag.
NO_SIZE_FOR_B = "no size: B is a signed difference, not a rate"

#: What the exact size beside a small-group flag means, for a reader.
SIZE_NOTE = (
    "chance this test flags a group of this size that is not different, at α = {alpha:g} "
    "(exact, by enumeration; chapter 11)"
)

#: The largest enumeration :func:`exact_size` runs, per test: at most this many outcomes
#: ``(n + 1)(N + 1)``, and (Fisher, Boschloo, the Bayesian rule, whose tables are built
#: margin by margin or node by node) at most this ``n + N``. Beyond, the size is NaN with a
#: note saying so: a small group against a reference of millions is not enumerated.
SIZE_LIMITS = {
    "match": (2_000_000, math.inf),
    "wald": (2_000_000, math.inf),
    "score": (2_000_000, math.inf),
    "fisher": (2_000_000, 20_000),
    "boschloo": (BOSCHLOO_MAX_OUTCOMES, 20_000),
    "bayes": (2_000_000, 5_000),
}


def rate_counts(metric: str, counts) -> tuple[np.ndarray, np.ndarray]:
    """The numerator ``x`` and denominator ``n`` of a rate metric for each row of counts.

    Parameters
    ----------
    metric : str
        A binomial or joint-ratio metric (not B).
    counts : array-like of shape (..., 4)
        ``[TP, FN, FP, TN]``.

    Examples
    --------
    >>> rate_counts("PPR", [[3, 1, 2, 4]])  # TP + FP of everyone
    (array([5]), array([10]))
    >>> rate_counts("TPR", [[3, 1, 2, 4]])  # TP of the actual positives
    (array([3]), array([4]))
    """
    if metric not in BINOMIAL_CELLS and metric not in JRM_CELLS:
        raise ValueError(f"{metric} has no two-proportion form; {NO_TWO_PROPORTION}")
    return fraction_counts(metric, np.asarray(counts, dtype=np.int64))


# --------------------------------------------------------------------------- p-values
def _bayes_tail(a_g: float, b_g: float, a_r: float, b_r: float) -> float:
    """``P(p_g <= p_r)`` for independent Beta posteriors: ``∫ f_r(t) F_g(t) dt``.

    Integrated adaptively over the central ``1 − 2e-14`` of the reference's posterior (the
    rest holds less mass than the answer's precision), with its mode as a break point.
    """
    lo, hi = stats.beta.ppf(1e-14, a_r, b_r), stats.beta.isf(1e-14, a_r, b_r)
    mode = min(max((a_r - 1.0) / max(a_r + b_r - 2.0, 1e-300), lo), hi)

    def integrand(t: float) -> float:
        return float(stats.beta.pdf(t, a_r, b_r) * stats.beta.cdf(t, a_g, b_g))

    points = [mode] if lo < mode < hi else None
    value, _ = integrate.quad(integrand, lo, hi, points=points, limit=200, epsabs=1e-13)
    return float(min(1.0, max(0.0, value)))


def _bayes_pvalue(x: int, n: int, y: int, N: int, prior: float = 0.5) -> float:
    """The Bayesian rule's two-sided "p-value" ``2 min(P(p_g <= p_r), P(p_r <= p_g))`` of
    one table with a Beta(prior, prior) prior on each rate (margin 0)."""
    a_g, b_g = x + prior, n - x + prior
    a_r, b_r = y + prior, N - y + prior
    below = _bayes_tail(a_g, b_g, a_r, b_r)  # P(p_g <= p_r)
    above = _bayes_tail(a_r, b_r, a_g, b_g)  # P(p_r <= p_g)
    return float(min(1.0, 2.0 * min(below, above)))


def check_boschloo(n, N, *, what: str = "the group") -> None:
    """Refuse a Boschloo test whose table has more than :data:`BOSCHLOO_MAX_OUTCOMES` outcomes.

    Examples
    --------
    >>> check_boschloo(30, 500)
    >>> check_boschloo(100, 20000, what="group 'a' (TPR)")
    Traceback (most recent call last):
    ...
    ValueError: group 'a' (TPR) is too large for Boschloo's test: 100 of its people against \
20,000 of the reference's have 101 × 20,001 = 2,020,101 outcomes, above the limit of \
200,000 that scipy.stats.boschloo_exact enumerates in seconds; choose --test score (or \
test="score"), or match
    """
    outcomes = (int(n) + 1) * (int(N) + 1)
    if outcomes > BOSCHLOO_MAX_OUTCOMES:
        raise ValueError(
            f"{what} is too large for Boschloo's test: {int(n):,} of its people against "
            f"{int(N):,} of the reference's have {int(n) + 1:,} × {int(N) + 1:,} = "
            f"{outcomes:,} outcomes, above the limit of {BOSCHLOO_MAX_OUTCOMES:,} that "
            "scipy.stats.boschloo_exact enumerates in seconds; choose --test score (or "
            'test="score"), or match'
        )


def two_proportion_pvalues(test: str, x, n, y: int, N: int) -> np.ndarray:
    """Two-sided p-values of groups (``x`` of ``n`` each) against one reference (``y`` of ``N``).

    Parameters
    ----------
    test : str
        ``wald``, ``score``, ``fisher``, ``boschloo`` or ``bayes``.
    x, n : array-like of int
        Each group's count and size; a size of 0 gives NaN (the rate is undefined).
    y, N : int
        The reference's count and size; ``N = 0`` gives NaN everywhere.

    Returns
    -------
    numpy.ndarray of float

    Raises
    ------
    ValueError
        An unknown test; with ``boschloo``, a group whose table is above
        :data:`BOSCHLOO_MAX_OUTCOMES` (:func:`check_boschloo`).

    Examples
    --------
    >>> two_proportion_pvalues("score", [2, 5, 0], [10, 10, 0], 5, 10).round(4).tolist()
    [0.1596, 1.0, nan]
    """
    x = np.asarray(x, dtype=np.int64).reshape(-1)
    n = np.asarray(n, dtype=np.int64).reshape(-1)
    y, N = int(y), int(N)
    out = np.full(x.size, np.nan)
    ok = n >= 1
    if N < 1 or not ok.any():
        return out
    xs, ns = x[ok], n[ok]
    if test in ("wald", "score"):
        p1, p2 = xs / ns, y / N
        if test == "wald":
            se = np.sqrt(p1 * (1 - p1) / ns + p2 * (1 - p2) / N)
        else:
            pooled = (xs + y) / (ns + N)
            se = np.sqrt(pooled * (1 - pooled) * (1 / ns + 1 / N))
        out[ok] = _z_two_sided(p1 - p2, se)
        return out
    if test == "boschloo":
        for size in np.unique(ns):
            check_boschloo(size, N)
    single = {
        "fisher": lambda a, b: stats.fisher_exact([[a, y], [b - a, N - y]]).pvalue,
        "boschloo": lambda a, b: stats.boschloo_exact([[a, y], [b - a, N - y]]).pvalue,
        "bayes": lambda a, b: _bayes_pvalue(a, b, y, N),
    }
    if test not in single:
        raise ValueError(f"unknown test {test!r}; choose one of {', '.join(TESTS[1:])}")
    memo: dict[tuple[int, int], float] = {}  # groups with the same table share a p-value
    values = []
    for a, b in zip(xs.tolist(), ns.tolist(), strict=True):
        if (a, b) not in memo:
            memo[(a, b)] = float(min(1.0, max(0.0, single[test](a, b))))
        values.append(memo[(a, b)])
    out[ok] = values
    return out


# --------------------------------------------------------------------------- exact size
@lru_cache(maxsize=4096)
def _cached_size(test: str, n: int, N: int, rate: float, alpha: float) -> tuple[float, str]:
    outcomes_limit, total_limit = SIZE_LIMITS[test]
    outcomes = (n + 1) * (N + 1)
    if outcomes > outcomes_limit or n + N > total_limit:
        return math.nan, (
            f"size not computed: {n:,} against {N:,} is beyond the enumeration this audit runs "
            f"for the {test} test"
        )
    size = group_tests.exact_size(test, n, p=rate, N=N, alpha=alpha)
    return float(size), ""


def exact_size(test: str, n: int, *, rate: float, N: int, alpha: float) -> tuple[float, str]:
    """The exact size of ``test`` for a group of ``n`` against ``N`` at the reference ``rate``,
    and a note (``""`` when the size is given).

    :func:`fairbook.stats.group_tests.exact_size`, cached by ``(test, n, N, rate rounded to
    12 digits, alpha)``; NaN with a note where ``n`` or ``N`` is 0 (no denominator: the rate
    is undefined) or the enumeration is beyond :data:`SIZE_LIMITS`.

    Examples
    --------
    >>> size, note = exact_size("wald", 10, rate=0.1, N=100, alpha=0.05)
    >>> 0.05 < size <= 1, note
    (True, '')
    >>> exact_size("fisher", 0, rate=0.5, N=100, alpha=0.05)
    (nan, 'size undefined: no denominator in the group')
    """
    if int(n) < 1:
        return math.nan, "size undefined: no denominator in the group"
    if int(N) < 1 or not math.isfinite(rate):
        return math.nan, "size undefined: no denominator in the reference"
    rate = min(1.0, max(0.0, round(float(rate), 12)))
    return _cached_size(test, int(n), int(N), rate, float(alpha))


def exact_sizes(test: str, metric: str, counts, ref, small, *, alpha: float):
    """The exact size of ``test`` beside each small-group flag of one metric.

    For a binomial metric the group's size is its number of people and the reference's
    rate and size are over everyone; for a joint-ratio metric both are the metric's own
    denominators (for TPR: the actual positives). B is not a rate: its size is NaN with
    :data:`NO_SIZE_FOR_B` (whatever the test).

    Parameters
    ----------
    test : str
    metric : str
    counts : array-like of shape (n_groups, 4)
    ref : array-like of shape (4,)
        The reference's counts.
    small : array-like of bool, shape (n_groups,)
        Which groups are flagged small: only they get a size.
    alpha : float

    Returns
    -------
    sizes : numpy.ndarray of float
        NaN where not flagged, or where the size is undefined or not computed.
    notes : list of str
        Why a flagged group's size is NaN (``""`` otherwise).

    Examples
    --------
    >>> sizes, notes = exact_sizes("score", "TPR", [[3, 1, 2, 4], [0, 0, 5, 5]],
    ...                            [30, 10, 20, 40], [True, True], alpha=0.05)
    >>> bool(0 <= sizes[0] <= 1), notes[1]
    (True, 'size undefined: no denominator in the group')
    """
    counts = np.asarray(counts, dtype=np.int64).reshape(-1, 4)
    small = np.asarray(small, dtype=bool).reshape(-1)
    sizes = np.full(small.size, np.nan)
    notes = [""] * small.size
    if metric == "B":
        for g in np.flatnonzero(small):
            notes[g] = NO_SIZE_FOR_B
        return sizes, notes
    x_ref, n_ref = (int(v) for v in rate_counts(metric, np.asarray(ref).reshape(4)))
    rate = x_ref / n_ref if n_ref else math.nan
    _, n = rate_counts(metric, counts)
    for g in np.flatnonzero(small):
        sizes[g], notes[g] = exact_size(test, int(n[g]), rate=rate, N=n_ref, alpha=alpha)
    return sizes, notes
