"""Is a small group's rate different from its reference's? Seven tests, and their exact size.

A group of ``n`` people has ``x`` "successes" of a rate metric (for PPR the people predicted
positive; for TPR the true positives among its ``m`` actual positives); its reference has
``y`` of ``N``. Each test below turns ``(x, n, y, N)`` into a two-sided p-value (the Bayesian
rule into a posterior tail probability read the same way), and flags the group when it is at
most α. Because a test is a function of a table with finitely many values, its **exact**
rejection probability is a finite sum over all tables::

    P(reject) = Σ_x Σ_y Bin(x; n, p_group) Bin(y; N, p_ref) 1[p(x, y) <= α]

— the **size** when ``p_group = p_ref`` (the chance of flagging a group that is not
different) and the **power** otherwise. No simulation is involved except for the bootstrap.

The tests (:data:`TESTS`):

``match``
    Seed 003's MATCH for a binomial metric: the exact two-sided binomial test of ``x`` against
    the reference's rate, ``min(1, 2 min(P(X <= x), P(X >= x)))`` with ``X ~ Bin(n, y/N)``
    — the reference's observed rate is plugged in as if known, as the thesis and the audit
    do (:func:`fairbook.stats.match.test` gives the same p-value).
``match_normal``
    The thesis's normal approximation of the same law (Eq. 4.18, continuity-corrected).
``wald``
    The Wald two-proportion z test, unpooled standard error ``sqrt(p̂1 q̂1/n + p̂2 q̂2/N)``.
    Where that standard error is 0 (both rates 0 or 1) the p-value is 1 if the rates are
    equal and 0 if not — the textbook rule that makes it anti-conservative at small ``n``
    (Agresti and Caffo 2000).
``score``
    The pooled score z test (Pearson's chi-squared without continuity correction); all
    rates 0 or all 1 give p-value 1.
``fisher``
    Fisher's exact test, two-sided by summing the tables no more likely than the observed
    one (scipy's rule, with its relative tolerance 1e-7).
``boschloo``
    Boschloo's exact unconditional test: the statistic is Fisher's one-sided p-value, the
    p-value its supremum over the common rate π of the null; two-sided as scipy (twice the
    smaller one-sided p-value). The supremum is taken over a grid of π (:data:`PI_GRID`
    points); scipy optimises instead, and the two agree to the tolerance the tests state.
``bayes``
    A beta-binomial rule after Ferrara et al. (2025), whose Dirichlet–multinomial reduces to
    a beta law for one rate: with a Beta(a, a) prior on each rate (``prior`` = a, Jeffreys'
    ½ by default), the group is flagged when the posterior probability that its rate exceeds
    the reference's by more than ``margin`` (or falls short by more) is at least 1 − α/2. Its
    "p-value" is ``min(1, 2 min(P(p_g − p_r <= margin), P(p_r − p_g <= margin)))``.
``bootstrap``
    The percentile bootstrap interval of ``x/n − y/N``; flagged when 0 lies outside. It is
    random, so its rejection probability is *simulated* (:func:`bootstrap_rejection_probability`)
    and returned with its Monte Carlo standard error.

With ``N=None`` the reference's rate ``p_ref`` is known exactly (MATCH's own assumption): the
one-sample forms of ``match``, ``match_normal``, ``wald`` (z with the group's own standard
error), ``score`` (z with the reference's), ``bayes`` and ``bootstrap`` apply; ``fisher`` and
``boschloo`` need a second sample and raise ``ValueError``.

Joint-ratio metrics (TPR = TP/(TP + FN)) condition on the denominator:
:func:`ratio_rejection_probability` sums the binomial result over the group's ``m ~ Bin(n,
prevalence)`` actual positives, given ``m >= 1`` (at ``m = 0`` the rate is undefined — a
"hole" — and no test is made; its probability is returned beside), with the reference's
positives at their expected number ``round(N × prevalence)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from scipy import special, stats

__all__ = [
    "EXACT_TESTS",
    "PI_GRID",
    "RATIO_TAIL",
    "TESTS",
    "TWO_SAMPLE_TESTS",
    "bootstrap_rejection_probability",
    "exact_size",
    "pvalue",
    "pvalue_table",
    "ratio_rejection_probability",
    "rejection_probability",
]

#: Every test, in the order the chapter and the audit show them.
TESTS = ("match", "match_normal", "wald", "score", "fisher", "boschloo", "bayes", "bootstrap")
#: The tests whose rejection probability is an exact finite sum (all but the bootstrap).
EXACT_TESTS = TESTS[:-1]
#: The tests that need a reference *sample* (no one-sample form with a known rate).
TWO_SAMPLE_TESTS = ("fisher", "boschloo")
#: Points of the grid over the nuisance rate π on which Boschloo's supremum is taken.
PI_GRID = 401

_FISHER_RTOL = 1e-7  # scipy.stats.fisher_exact's tolerance for "no more likely"
_BOSCHLOO_RTOL = 1e-13  # scipy.stats.boschloo_exact's tolerance on the statistic
#: Mass of each tail of the denominator's law that a joint-ratio sum may skip.
RATIO_TAIL = 1e-7

_TAIL = 1e-15  # reference counts outside the central 1 - 2e-15 of Bin(N, p_ref) are skipped
_QUADRATURE_NODES = 4000  # most Gauss–Legendre nodes of the Bayesian rule's integral


# --------------------------------------------------------------------------- validation
def _check_test(test) -> str:
    if not isinstance(test, str) or test.lower() not in TESTS:
        raise ValueError(f"unknown test {test!r}; choose one of {', '.join(TESTS)}")
    return test.lower()


def _check_count(value, name: str, *, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return int(value)


def _check_rate(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
        raise ValueError(f"{name} must be a number in [0, 1], got {value!r}")
    value = float(value)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must lie in [0, 1], got {value}")
    return value


def _check_alpha(alpha) -> float:
    alpha = _check_rate(alpha, "alpha")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha}")
    return alpha


def _check_prior(prior) -> float:
    if isinstance(prior, bool) or not isinstance(prior, (int, float, np.floating, np.integer)):
        raise ValueError(f"prior must be a positive number, got {prior!r}")
    if not (math.isfinite(prior) and prior > 0):
        raise ValueError(f"prior must be a positive number, got {prior}")
    return float(prior)


def _check_margin(margin) -> float:
    if isinstance(margin, bool) or not isinstance(margin, (int, float, np.floating, np.integer)):
        raise ValueError(f"margin must be a number in [0, 1), got {margin!r}")
    if not 0.0 <= margin < 1.0:
        raise ValueError(f"margin must lie in [0, 1), got {margin}")
    return float(margin)


# --------------------------------------------------------------------------- p-values
def _two_sided(lower, upper) -> np.ndarray:
    return np.clip(2.0 * np.minimum(lower, upper), 0.0, 1.0)


def _binomial_two_sided(x, n: int, rate) -> np.ndarray:
    """``min(1, 2 min(P(X <= x), P(X >= x)))`` for ``X ~ Bin(n, rate)``, exactly."""
    return _two_sided(stats.binom.cdf(x, n, rate), stats.binom.sf(x - 1, n, rate))


def _normal_two_sided(x, n: int, rate) -> np.ndarray:
    """Eq. 4.18 of seed 003 in both tails, continuity-corrected; a rate of 0 or 1 is exact."""
    rate = np.asarray(rate, dtype=np.float64)
    mean = n * rate
    sd = np.sqrt(n * rate * (1.0 - rate))
    with np.errstate(divide="ignore", invalid="ignore"):
        lower = stats.norm.cdf((x + 0.5 - mean) / sd)
        upper = stats.norm.sf((x - 0.5 - mean) / sd)
    point = sd == 0  # the count is the point mass at its mean
    lower = np.where(point, (x >= mean).astype(float), lower)
    upper = np.where(point, (x <= mean).astype(float), upper)
    return _two_sided(lower, upper)


def _z_two_sided(difference, se) -> np.ndarray:
    """Two-sided normal p-value of ``difference / se``; se 0: 1 if no difference, else 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.abs(difference) / se
    p = 2.0 * stats.norm.sf(z)
    p = np.where(se > 0, p, np.where(np.abs(difference) > 1e-15, 0.0, 1.0))
    return np.clip(p, 0.0, 1.0)


def _beta_tails_known(x, n: int, p_ref: float, prior: float, margin: float):
    a = x + prior
    b = n - x + prior
    below = special.betainc(a, b, min(1.0, p_ref + margin))  # P(p_g <= p_ref + margin)
    above = 1.0 - special.betainc(a, b, max(0.0, p_ref - margin))  # P(p_g >= p_ref - margin)
    return below, above


def _nodes(n: int, N: int) -> int:
    """Quadrature nodes for posteriors of ``n`` and ``N`` trials: ~40 per standard deviation
    of the narrower posterior near ½ (its sd is at most ``1/(2 sqrt(size))``)."""
    return int(np.clip(40.0 * math.sqrt(max(n, N)), 400, _QUADRATURE_NODES))


@lru_cache(maxsize=8)
def _sine_nodes(nodes: int, upper: float):
    """Nodes ``t = upper · sin²(πu/2)`` on ``[0, upper]`` and weights ``w · dt/du``.

    Gauss–Legendre in ``u``; the substitution makes ``t^(a−1) dt`` and ``(upper − t)^(b−1) dt``
    bounded for ``a, b >= ½`` (a Beta density with the Jeffreys prior and no successes or no
    failures), which plain Gauss–Legendre in ``t`` integrates badly.
    """
    u, w = special.roots_legendre(nodes)
    u = (u + 1.0) / 2.0
    t = upper * np.sin(np.pi * u / 2.0) ** 2
    weights = (w / 2.0) * upper * (np.pi / 2.0) * np.sin(np.pi * u)
    return t, weights


def _beta_side(counts: np.ndarray, size: int, prior: float, margin: float, nodes: int):
    """Posterior densities times the weights at the nodes, the CDFs at ``node + margin``, and
    the mass beyond ``1 − margin`` (where ``P(p <= node + margin)`` is 1)."""
    t, weights = _sine_nodes(nodes, 1.0 - margin)
    a, b = counts + prior, size - counts + prior
    density = stats.beta.pdf(t, a, b) * weights
    shifted = special.betainc(a, b, np.minimum(t + margin, 1.0))
    beyond = 1.0 - special.betainc(a, b, 1.0 - margin)
    return density, shifted, beyond.ravel()


@lru_cache(maxsize=8)
def _reference_beta_side(ys: tuple[int, int], N: int, prior: float, margin: float, nodes: int):
    """:func:`_beta_side` of the reference counts ``ys[0]..ys[1]`` (shared by every group)."""
    counts = np.arange(ys[0], ys[1] + 1, dtype=np.float64).reshape(-1, 1)
    return _beta_side(counts, N, prior, margin, nodes)


def _beta_tails_two_sample(n: int, N: int, prior: float, margin: float, *, ys=None):
    """``P(p_g − p_r <= margin)`` and ``P(p_r − p_g <= margin)`` for every group count
    ``x = 0..n`` (rows) and reference count ``y`` in ``ys = (first, last)`` (columns).

    ``P(p_g − p_r <= m) = ∫_0^{1−m} f_r(t) F_g(t + m) dt + P(p_r > 1 − m)``, and the same
    with the roles swapped; the integral by :func:`_sine_nodes`.
    """
    ys = (0, N) if ys is None else ys
    nodes = _nodes(n, N)
    x = np.arange(n + 1, dtype=np.float64).reshape(-1, 1)
    density_g, shifted_g, beyond_g = _beta_side(x, n, prior, margin, nodes)
    density_r, shifted_r, beyond_r = _reference_beta_side(ys, N, prior, margin, nodes)
    below = shifted_g @ density_r.T + beyond_r[None, :]
    above = density_g @ shifted_r.T + beyond_g[:, None]
    return np.clip(below, 0.0, 1.0), np.clip(above, 0.0, 1.0)


@lru_cache(maxsize=4)
def _hypergeometric_tables(n: int, N: int):
    """For every table (x of n, y of N): Fisher's two-sided p and both one-sided p-values.

    One pass over the margins ``s = x + y``; within a margin, ``x`` has the hypergeometric
    law, from which the lower tail ``P(X <= x)``, the upper tail ``P(X >= x)`` and Fisher's
    sum of the no-more-likely tables are read (tails by cumulative sums from their own end,
    so that small tails keep their relative precision).
    """
    fisher = np.empty((n + 1, N + 1))
    lower = np.empty((n + 1, N + 1))
    upper = np.empty((n + 1, N + 1))
    log_total = special.gammaln(n + N + 1)
    log_n = special.gammaln(n + 1) + special.gammaln(N + 1)
    for s in range(n + N + 1):
        xs = np.arange(max(0, s - N), min(n, s) + 1)
        ys = s - xs
        log_pmf = (
            log_n
            - special.gammaln(xs + 1)
            - special.gammaln(n - xs + 1)
            - special.gammaln(ys + 1)
            - special.gammaln(N - ys + 1)
            - (log_total - special.gammaln(s + 1) - special.gammaln(n + N - s + 1))
        )
        pmf = np.exp(log_pmf)
        lower[xs, ys] = np.minimum(1.0, np.cumsum(pmf))
        upper[xs, ys] = np.minimum(1.0, np.cumsum(pmf[::-1])[::-1])
        order = np.argsort(pmf, kind="stable")
        cumulative = np.cumsum(pmf[order])
        last = np.searchsorted(pmf[order], pmf * (1.0 + _FISHER_RTOL), side="right") - 1
        fisher[xs, ys] = np.minimum(1.0, cumulative[last])
    for table in (fisher, lower, upper):
        table.setflags(write=False)
    return fisher, lower, upper


def _boschloo_critical(
    statistic: np.ndarray, n: int, N: int, level: float, *, suffix: bool
) -> np.ndarray:
    """The tables with ``sup_π P_π(T <= t) <= level``: one side of Boschloo's region.

    Equal to ``_boschloo_one_sided(statistic, n, N) <= level`` (the p-value grows with the
    statistic, so the region is ``{T <= c}``), found by bisection over the sorted statistic
    values. Within a row ``x`` the statistic is monotone in ``y`` (a larger margin moves the
    hypergeometric law up), so ``{y : T(x, y) <= c}`` is a suffix of ``0..N`` (``suffix``,
    the lower tail) or a prefix (the upper tail), and ``P_π`` of the region is one binomial
    tail per row: each step costs a count per row, not a pass over the tables for every π.
    (The cumulative sums wobble by ~1e-12 where a tail is near 1, far from any level.)
    """
    steps = np.diff(statistic, axis=1)
    monotone = (steps <= 1e-9) if suffix else (steps >= -1e-9)  # rounding near 1 only
    if not monotone.all():  # pragma: no cover - the hypergeometric tails are monotone
        raise ArithmeticError("Boschloo's statistic is not monotone within a row")
    values = np.unique(statistic)
    pis = np.linspace(0.0, 1.0, PI_GRID)
    x_pmf = stats.binom.pmf(np.arange(n + 1)[:, None], n, pis)  # (n + 1, grid)
    y_pmf = stats.binom.pmf(np.arange(N + 1)[:, None], N, pis)
    # below[k] = P(Y < k), k = 0..N+1; above[k] = P(Y >= k)
    below = np.vstack([np.zeros((1, pis.size)), np.cumsum(y_pmf, axis=0)])
    above = np.vstack([np.cumsum(y_pmf[::-1], axis=0)[::-1], np.zeros((1, pis.size))])

    def mask_of(index: int) -> np.ndarray:
        return statistic <= values[index] * (1.0 + _BOSCHLOO_RTOL)

    def worst(index: int) -> float:
        count = mask_of(index).sum(axis=1)
        tail = above[N + 1 - count] if suffix else below[count]
        return float(np.max(np.sum(x_pmf * tail, axis=0)))

    lo, hi = -1, values.size - 1  # values[lo] passes (lo = -1: none does), values[hi] may not
    if worst(hi) <= level:
        return np.ones(statistic.shape, dtype=bool)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if worst(mid) <= level:
            lo = mid
        else:
            hi = mid
    return mask_of(lo) if lo >= 0 else np.zeros(statistic.shape, dtype=bool)


@lru_cache(maxsize=16)
def _boschloo_region(n: int, N: int, alpha: float) -> np.ndarray:
    """Every table Boschloo's two-sided test rejects at ``alpha`` (2 min(p−, p+) <= α)."""
    _, lower, upper = _hypergeometric_tables(n, N)
    region = _boschloo_critical(lower, n, N, alpha / 2, suffix=True) | _boschloo_critical(
        upper, n, N, alpha / 2, suffix=False
    )
    region.setflags(write=False)
    return region


def _boschloo_one_sided(statistic: np.ndarray, n: int, N: int) -> np.ndarray:
    """``sup_π P_π(T <= t)`` for every table's statistic ``t`` (smaller = more extreme)."""
    flat = statistic.ravel()
    order = np.argsort(flat, kind="stable")
    ranked = flat[order]
    last = np.searchsorted(ranked, ranked * (1.0 + _BOSCHLOO_RTOL), side="right") - 1
    pis = np.linspace(0.0, 1.0, PI_GRID)
    x_pmf = stats.binom.pmf(np.arange(n + 1)[:, None], n, pis)  # (n + 1, grid)
    y_pmf = stats.binom.pmf(np.arange(N + 1)[:, None], N, pis)  # (N + 1, grid)
    best = np.zeros(flat.size)
    for g in range(pis.size):
        probability = np.outer(x_pmf[:, g], y_pmf[:, g]).ravel()[order]
        np.maximum(best, np.cumsum(probability)[last], out=best)
    result = np.empty_like(best)
    result[order] = np.minimum(best, 1.0)
    return result.reshape(statistic.shape)


@lru_cache(maxsize=8)
def _table_pvalues(test: str, n: int, N: int, prior: float, margin: float) -> np.ndarray:
    """The p-value of every table ``(x, y)``, ``x = 0..n`` rows, ``y = 0..N`` columns."""
    x = np.arange(n + 1)[:, None]
    y = np.arange(N + 1)[None, :]
    p1, p2 = x / n, y / N
    if test == "match":
        out = _binomial_two_sided(x, n, p2)
    elif test == "match_normal":
        out = _normal_two_sided(x, n, p2)
    elif test == "wald":
        out = _z_two_sided(p1 - p2, np.sqrt(p1 * (1 - p1) / n + p2 * (1 - p2) / N))
    elif test == "score":
        pooled = (x + y) / (n + N)
        out = _z_two_sided(p1 - p2, np.sqrt(pooled * (1 - pooled) * (1 / n + 1 / N)))
    elif test in ("fisher", "boschloo"):
        fisher, lower, upper = _hypergeometric_tables(n, N)
        if test == "fisher":
            out = fisher
        else:
            out = _two_sided(_boschloo_one_sided(lower, n, N), _boschloo_one_sided(upper, n, N))
    elif test == "bayes":
        out = _two_sided(*_beta_tails_two_sample(n, N, prior, margin))
    else:  # pragma: no cover - guarded by the callers
        raise ValueError(test)
    out = np.broadcast_to(out, (n + 1, N + 1)).copy()
    out.setflags(write=False)
    return out


def _known_pvalues(test: str, n: int, p_ref: float, prior: float, margin: float) -> np.ndarray:
    """The p-value of every ``x = 0..n`` against a reference rate known exactly (read-only)."""
    out = np.array(_known_pvalues_of(test, n, p_ref, prior, margin), dtype=np.float64)
    out.setflags(write=False)
    return out


def _known_pvalues_of(test: str, n: int, p_ref: float, prior: float, margin: float):
    if test in TWO_SAMPLE_TESTS:
        raise ValueError(
            f"the {test} test compares two samples; give the reference's size N "
            "(N=None means the reference's rate is known exactly)"
        )
    x = np.arange(n + 1)
    p1 = x / n
    if test == "match":
        return _binomial_two_sided(x, n, p_ref)
    if test == "match_normal":
        return _normal_two_sided(x, n, p_ref)
    if test == "wald":
        return _z_two_sided(p1 - p_ref, np.sqrt(p1 * (1 - p1) / n))
    if test == "score":
        return _z_two_sided(p1 - p_ref, np.full(x.shape, math.sqrt(p_ref * (1 - p_ref) / n)))
    if test == "bayes":
        return _two_sided(*_beta_tails_known(x, n, p_ref, prior, margin))
    raise ValueError(f"the {test} test has no exact p-value; see bootstrap_rejection_probability")


def pvalue_table(
    test: str,
    n: int,
    *,
    N: int | None = None,
    p_ref: float | None = None,
    prior: float = 0.5,
    margin: float = 0.0,
) -> np.ndarray:
    """The p-value of every possible outcome of a group of ``n`` against its reference.

    Parameters
    ----------
    test : str
        One of :data:`EXACT_TESTS`.
    n : int
        The group's size (at least 1).
    N : int, optional
        The reference's size; the result is then ``(n + 1, N + 1)``, row ``x``, column ``y``.
    p_ref : float, optional
        With ``N=None``: the reference's rate, known exactly; the result is ``(n + 1,)``.
    prior, margin : float
        The Bayesian rule's Beta(prior, prior) prior and disparity margin.

    Returns
    -------
    numpy.ndarray
        Read-only p-values in ``[0, 1]``.

    Examples
    --------
    >>> pvalue_table("match", 3, p_ref=0.5).round(3).tolist()
    [0.25, 1.0, 1.0, 0.25]
    >>> pvalue_table("fisher", 2, N=2).round(3).tolist()
    [[1.0, 1.0, 0.333], [1.0, 1.0, 1.0], [0.333, 1.0, 1.0]]
    """
    test = _check_test(test)
    if test == "bootstrap":
        raise ValueError("the bootstrap is random; see bootstrap_rejection_probability")
    n = _check_count(n, "n", minimum=1)
    prior, margin = _check_prior(prior), _check_margin(margin)
    if N is None:
        if p_ref is None:
            raise ValueError("give the reference's size N, or its rate p_ref known exactly")
        return _known_pvalues(test, n, _check_rate(p_ref, "p_ref"), prior, margin)
    if p_ref is not None:
        raise ValueError("give either N (a reference sample) or p_ref (a known rate), not both")
    return _table_pvalues(test, n, _check_count(N, "N", minimum=1), prior, margin)


def pvalue(
    test: str,
    x: int,
    n: int,
    *,
    y: int | None = None,
    N: int | None = None,
    p_ref: float | None = None,
    prior: float = 0.5,
    margin: float = 0.0,
) -> float:
    """Two-sided p-value of one group: ``x`` of ``n`` against ``y`` of ``N`` (or a known rate).

    Parameters
    ----------
    test : str
        One of :data:`EXACT_TESTS`.
    x, n : int
        The group's count and size, ``0 <= x <= n``.
    y, N : int, optional
        The reference's count and size.
    p_ref : float, optional
        Instead of ``y`` and ``N``: the reference's rate, known exactly.
    prior, margin : float
        The Bayesian rule's Beta(prior, prior) prior and margin.

    Returns
    -------
    float

    Examples
    --------
    >>> round(pvalue("fisher", 1, 10, y=8, N=10), 4)
    0.0055
    >>> round(pvalue("match", 1, 10, p_ref=0.8), 7)
    8.4e-06
    """
    n = _check_count(n, "n", minimum=1)
    x = _check_count(x, "x")
    if x > n:
        raise ValueError(f"x = {x} exceeds the group's size n = {n}")
    if N is not None:
        if y is None:
            raise ValueError("give the reference's count y with its size N")
        y = _check_count(y, "y")
        if y > N:
            raise ValueError(f"y = {y} exceeds the reference's size N = {N}")
        return float(pvalue_table(test, n, N=N, prior=prior, margin=margin)[x, y])
    if y is not None:
        raise ValueError("give the reference's size N with its count y")
    return float(pvalue_table(test, n, p_ref=p_ref, prior=prior, margin=margin)[x])


# --------------------------------------------------------------------------- exact size and power
def _reference_bulk(N: int, p_ref: float) -> tuple[np.ndarray, np.ndarray]:
    lo = int(stats.binom.ppf(_TAIL, N, p_ref))
    hi = int(stats.binom.isf(_TAIL, N, p_ref))
    ys = np.arange(max(0, lo - 1), min(N, hi + 1) + 1)
    return ys, stats.binom.pmf(ys, N, p_ref)


def rejection_probability(
    test: str,
    n: int,
    *,
    p_group: float | Sequence[float] | np.ndarray,
    p_ref: float,
    N: int | None = None,
    alpha: float = 0.05,
    prior: float = 0.5,
    margin: float = 0.0,
) -> float | np.ndarray:
    """Exact probability that ``test`` flags a group of ``n`` (size if ``p_group == p_ref``).

    The sum runs over every group count ``x`` and over the reference counts ``y`` outside
    whose range ``Bin(N, p_ref)`` has less than 2e-15 of its mass.

    Parameters
    ----------
    test : str
        One of :data:`EXACT_TESTS`.
    n : int
        The group's size.
    p_group : float or sequence of float
        The group's true rate; a sequence gives one probability per rate (an array).
    p_ref : float
        The reference's true rate.
    N : int, optional
        The reference's size; ``None``: its rate is known exactly.
    alpha : float, default 0.05
    prior, margin : float
        The Bayesian rule's prior and margin.

    Returns
    -------
    float, or numpy.ndarray when ``p_group`` is a sequence

    Examples
    --------
    >>> round(rejection_probability("wald", 10, p_group=0.1, p_ref=0.1), 4)  # size
    0.3503
    >>> rejection_probability("fisher", 30, p_group=[0.5, 0.2], p_ref=0.5, N=300).round(3)
    array([0.035, 0.891])
    >>> round(rejection_probability("match", 10, p_group=0.1, p_ref=0.1), 4)
    0.0128
    """
    test = _check_test(test)
    alpha = _check_alpha(alpha)
    groups, scalar = _group_rates(p_group)
    p_ref = _check_rate(p_ref, "p_ref")
    n = _check_count(n, "n", minimum=1)
    x_pmf = stats.binom.pmf(np.arange(n + 1)[None, :], n, groups[:, None])
    if N is None:
        flags = pvalue_table(test, n, p_ref=p_ref, prior=prior, margin=margin) <= alpha
        out = np.clip(x_pmf @ flags, 0.0, 1.0)
    else:
        N = _check_count(N, "N", minimum=1)
        ys, y_pmf = _reference_bulk(N, p_ref)
        if test == "boschloo":  # the region alone, without every table's p-value
            flags = _boschloo_region(n, N, alpha)[:, ys]
        elif test == "bayes":  # only the reference counts that carry mass
            below, above = _beta_tails_two_sample(
                n, N, _check_prior(prior), _check_margin(margin), ys=(int(ys[0]), int(ys[-1]))
            )
            flags = _two_sided(below, above) <= alpha
        else:
            flags = pvalue_table(test, n, N=N, prior=prior, margin=margin)[:, ys] <= alpha
        out = np.clip(x_pmf @ (flags @ y_pmf), 0.0, 1.0)
    return float(out[0]) if scalar else out


def _group_rates(p_group) -> tuple[np.ndarray, bool]:
    """``p_group`` as a 1-D array of checked rates, and whether it was one number."""
    if np.ndim(p_group) == 0:
        return np.array([_check_rate(p_group, "p_group")]), True
    rates = [_check_rate(value, "p_group") for value in np.asarray(p_group, dtype=object).ravel()]
    if not rates:
        raise ValueError("p_group is empty; give at least one rate")
    return np.array(rates), False


def exact_size(
    test: str,
    n: int,
    *,
    p: float,
    N: int | None = None,
    alpha: float = 0.05,
    prior: float = 0.5,
    margin: float = 0.0,
) -> float:
    """Exact type-I error: the chance that ``test`` flags a group with the reference's rate ``p``.

    Examples
    --------
    >>> round(exact_size("fisher", 20, p=0.5, N=100), 4) <= 0.05
    True
    """
    return float(
        rejection_probability(
            test,
            n,
            p_group=_check_rate(p, "p"),
            p_ref=p,
            N=N,
            alpha=alpha,
            prior=prior,
            margin=margin,
        )
    )


def ratio_rejection_probability(
    test: str,
    n: int,
    *,
    prevalence: float,
    p_group: float | Sequence[float] | np.ndarray,
    p_ref: float,
    N: int | None = None,
    alpha: float = 0.05,
    prior: float = 0.5,
    margin: float = 0.0,
) -> tuple[float | np.ndarray, float]:
    """Rejection probability for a joint-ratio metric (TPR), and the probability of a hole.

    The group's ``m ~ Bin(n, prevalence)`` actual positives are its TPR's denominator; given
    ``m >= 1`` its true positives are ``Bin(m, p_group)`` and the binomial result applies with
    ``n = m``. The reference has ``round(N × prevalence)`` positives (at least 1). The terms
    of ``m`` in either tail holding at most :data:`RATIO_TAIL` of the mass are skipped, so
    the result is low by at most ``2 × RATIO_TAIL``.

    Returns
    -------
    probability : float
        ``P(flag | m >= 1)``: the rate is undefined at ``m = 0`` and nothing is tested there.
    hole : float
        ``P(m = 0) = (1 − prevalence)^n``.

    Examples
    --------
    >>> probability, hole = ratio_rejection_probability(
    ...     "match", 5, prevalence=0.5, p_group=0.6, p_ref=0.6)
    >>> round(hole, 5), probability <= 0.05
    (0.03125, True)
    """
    prevalence = _check_rate(prevalence, "prevalence")
    groups, scalar = _group_rates(p_group)
    n = _check_count(n, "n", minimum=1)
    hole = (1.0 - prevalence) ** n
    if hole >= 1.0:
        nothing = np.full(groups.size, math.nan)
        return (math.nan if scalar else nothing), 1.0
    reference_positives = None if N is None else max(1, round(N * prevalence))
    ms = np.arange(1, n + 1)
    m_pmf = stats.binom.pmf(ms, n, prevalence) / (1.0 - hole)
    keep = _central(m_pmf, RATIO_TAIL)
    total = np.zeros(groups.size)
    for m, weight in zip(ms[keep], m_pmf[keep], strict=True):
        total += weight * rejection_probability(
            test,
            int(m),
            p_group=groups,
            p_ref=p_ref,
            N=reference_positives,
            alpha=alpha,
            prior=prior,
            margin=margin,
        )
    total = np.minimum(1.0, total)
    return (float(total[0]) if scalar else total), float(hole)


def _central(pmf: np.ndarray, tail: float) -> np.ndarray:
    """Mask of the terms kept when at most ``tail`` of the mass is dropped from each end."""
    lower = np.cumsum(pmf)
    upper = np.cumsum(pmf[::-1])[::-1]
    return (lower > tail) & (upper > tail)


# --------------------------------------------------------------------------- the bootstrap
def _bootstrap_flags(x, n, y, N, p_ref, alpha, n_boot, rng) -> np.ndarray:
    """Percentile-bootstrap flags of many data sets at once (rows of x, y; ``n`` may vary)."""
    n = np.broadcast_to(np.asarray(n), x.shape)[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        group = rng.binomial(n, x[:, None] / n, size=(x.size, n_boot)) / n
    if N is None:
        reference = p_ref
    else:
        N = np.broadcast_to(np.asarray(N), y.shape)[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            reference = rng.binomial(N, y[:, None] / N, size=(y.size, n_boot)) / N
    lo, hi = _row_quantiles(group - reference, alpha)
    return (lo > 0) | (hi < 0)


def _row_quantiles(values: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Each row's ``alpha/2`` and ``1 − alpha/2`` quantiles, NaN left out (numpy's linear
    rule, as :func:`numpy.nanquantile`, without its per-row Python loop); all NaN gives NaN."""
    ordered = np.sort(values, axis=1)  # NaN sorts last
    count = np.sum(np.isfinite(ordered), axis=1)
    rows = np.arange(ordered.shape[0])
    out = []
    for q in (alpha / 2, 1 - alpha / 2):
        position = q * np.maximum(count - 1, 0)
        below = np.floor(position).astype(np.int64)
        above = np.minimum(below + 1, np.maximum(count - 1, 0))
        fraction = position - below
        value = ordered[rows, below] + fraction * (ordered[rows, above] - ordered[rows, below])
        out.append(np.where(count > 0, value, np.nan))
    return out[0], out[1]


def _in_chunks(flags_of, size: int, chunk: int = 250) -> np.ndarray:
    """``flags_of(rows)`` over consecutive slices of ``range(size)`` (memory stays
    ``chunk × n_boot``), concatenated in order."""
    return np.concatenate([flags_of(slice(i, i + chunk)) for i in range(0, size, chunk)])


def _resampled_denominators(size: int, count: np.ndarray, n_boot: int, rng) -> np.ndarray:
    """Bootstrap resamples of a joint-ratio metric's denominator (people with the condition)."""
    return rng.binomial(size, count[:, None] / size, size=(count.size, n_boot))


def _ratio_flags(x, m, n, y, M, N, p_ref, alpha, n_boot, rng) -> np.ndarray:
    """Percentile-bootstrap flags for a joint-ratio metric: people are resampled, so the
    denominators move too; a resample whose denominator is 0 has no rate and is dropped."""
    m_star = _resampled_denominators(n, m, n_boot, rng)
    with np.errstate(divide="ignore", invalid="ignore"):
        group = rng.binomial(m_star, (x / m)[:, None]) / m_star
        if N is None:
            reference = p_ref
        else:
            M_star = _resampled_denominators(N, np.full(y.shape, M), n_boot, rng)
            reference = rng.binomial(M_star, (y / M)[:, None]) / M_star
    with np.errstate(invalid="ignore"):
        difference = np.where(np.isfinite(group), group - reference, np.nan)
        lo, hi = _row_quantiles(difference, alpha)
    return (lo > 0) | (hi < 0)


def bootstrap_rejection_probability(
    n: int,
    *,
    p_group: float,
    p_ref: float,
    N: int | None = None,
    prevalence: float | None = None,
    alpha: float = 0.05,
    n_boot: int = 1000,
    n_datasets: int = 2000,
    seed: int = 0,
) -> tuple[float, float]:
    """Simulated probability that the percentile bootstrap flags a group, and its MC error.

    ``n_datasets`` groups (and references) are drawn; for each, ``n_boot`` resamples of the
    group's people (and of the reference's) give the percentile interval of the difference of
    rates at level ``1 − alpha``; the group is flagged when 0 lies outside. With
    ``prevalence`` the metric is a joint ratio (TPR): a data set whose group has no actual
    positive has no rate and is not counted (the result is conditional on ``m >= 1``, as
    :func:`ratio_rejection_probability`), and the reference has ``round(N × prevalence)``.

    Returns
    -------
    estimate : float
    standard_error : float
        ``sqrt(estimate (1 − estimate) / d)``, the Monte Carlo standard error over the ``d``
        data sets counted.

    Examples
    --------
    >>> estimate, se = bootstrap_rejection_probability(10, p_group=0.1, p_ref=0.1,
    ...                                                n_datasets=400, n_boot=200)
    >>> estimate > 0.05  # anti-conservative at n = 10
    True
    """
    n = _check_count(n, "n", minimum=1)
    alpha = _check_alpha(alpha)
    p_group, p_ref = _check_rate(p_group, "p_group"), _check_rate(p_ref, "p_ref")
    n_boot = _check_count(n_boot, "n_boot", minimum=10)
    n_datasets = _check_count(n_datasets, "n_datasets", minimum=10)
    if N is not None:
        N = _check_count(N, "N", minimum=1)
    rng = np.random.default_rng(seed)
    if prevalence is None:
        x = rng.binomial(n, p_group, size=n_datasets)
        y = None if N is None else rng.binomial(N, p_ref, size=n_datasets)
        flags = _in_chunks(
            lambda rows: _bootstrap_flags(
                x[rows], n, None if y is None else y[rows], N, p_ref, alpha, n_boot, rng
            ),
            x.size,
        )
    else:
        prevalence = _check_rate(prevalence, "prevalence")
        m = rng.binomial(n, prevalence, size=n_datasets)
        m = m[m > 0]
        if m.size == 0:
            return math.nan, math.nan
        x = rng.binomial(m, p_group)
        M = None if N is None else max(1, round(N * prevalence))
        y = None if M is None else rng.binomial(M, p_ref, size=m.size)
        flags = _in_chunks(
            lambda rows: _ratio_flags(
                x[rows],
                m[rows],
                n,
                None if y is None else y[rows],
                M,
                N,
                p_ref,
                alpha,
                n_boot,
                rng,
            ),
            m.size,
        )
    estimate = float(flags.mean())
    return estimate, math.sqrt(estimate * (1 - estimate) / flags.size)
