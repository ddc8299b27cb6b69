"""The MATCH test: a metric's distribution under a reference multinomial law (seed 003, 4.5).

A group of ``n`` samples is modelled as one multinomial draw of ``[TP, FN, FP, TN]`` from
the reference cell probabilities ``p_ref`` (order ``[TP, FN, FP, TN]``, summing to 1).
:func:`cdf` gives ``P(S <= S_obs)`` for the metric ``S`` of such a group, and :func:`test`
the two-sided p-value ``min(1, 2 min(P(S <= s), P(S >= s)))``.

Methods (:func:`methods_for` lists those valid for a metric):

``exact``
    Binomial metrics (Theorem 4.5: one binomial CDF), the marginal benefit B (Theorems
    4.6–4.7) and every joint-ratio metric (Theorem 4.9). B and a JRM are one sum over
    ``m``, not the paper's double sum of O(n²) terms: with ``m = FP + FN ~ Binomial(n,
    p+ + p−)`` and ``FP | m ~ Binomial(m, p+/(p+ + p−))``, ``P(FP − FN <= k) = Σ_m P(m)
    P(FP <= ⌊(k + m)/2⌋ | m)``; likewise a JRM conditions on ``m = c_i + c_j``. The sum
    runs over the bulk of ``P(m)`` only (``|m − E m| <= 12 sd + 40``; Bernstein's
    inequality puts the skipped mass below 2e-26), so it has at most
    ``min(n + 1, 24 sd + 83)`` terms: O(√n) *terms*, but not O(√n) *time*. Each term is
    a binomial CDF, i.e. a regularised incomplete beta function (scipy's ``binom.cdf``,
    Boost's ``ibeta``), whose cost grows with ``m``, so the time grows faster than √n;
    a binomial metric is one incomplete beta. ``benchmarks/bench_match.py`` measures it against the
    paper's double sums.
``enumerate``
    Any metric (also F1, MCC, PT), by summing the multinomial pmf over all
    ``C(n + 3, 3)`` matrices; O(n³), so ``n <= 200``. The oracle for small groups.
``normal``
    Binomial metrics (Eq. 4.18) and B (Theorem 4.8 with the ``n`` factors restored,
    ERRATA): ``Φ((k + h − n μ) / (σ √n))`` with continuity correction ``h = 1/2`` (``h =
    1`` for B when ``p_TP + p_TN = 0``, where ``FP − FN`` moves in steps of 2). The paper
    says the correction cancels for B; it does not (it corrects the difference, not each
    count), and the correction is kept. A reference of variance 0 (a binomial rate of 0
    or 1; for B all mass on FP, on FN or on TP + TN) makes the count the point mass at
    its mean: ``P(X <= k) = 1`` if ``k >= mean`` else 0, ``P(X >= k) = 1`` if
    ``k <= mean`` else 0, exact and equal to the ``σ → 0`` limit of the corrected
    formula at every lattice point.
``peizer_pratt``
    Binomial metrics, Eqs. 4.46–4.47 (the absolute value ``|x + 1/2 − np|`` the extracted
    text drops is restored, so z carries the sign of the deviation). For B only with
    ``allow_b_peizer_pratt=True``: Table 4.1's parameters ``x = k_FP − k_FN``,
    ``p = p+ − p−``, ``q = p0`` do not describe a binomial law (ERRATA), the result is NaN
    wherever the formula has no real value, and :func:`approximation_error` measures how
    far it is from the exact CDF (no 0.1 % bound is assumed).
``beta``
    Joint-ratio metrics, Eq. 4.44: ``I_s(k_i + λ, k_j + λ)`` with the *observed* counts.
    That is the posterior of the group's own rate under a Beta(λ, λ) prior and does not
    depend on ``p_ref`` at all (ERRATA), so it is no test of the reference law; it is kept
    to show its error against the exact CDF. ``beta_counts="expected"`` uses the
    reference's expected counts ``n p_i, n p_j`` instead (a beta law with the reference
    mean), which is a real approximation of the reference law.

**Joint-ratio metrics are conditional on being defined.** Eq. 4.37 sums
``P(c_i + c_j = m) P(k_i/m <= s | m)`` over ``m >= 1`` without dividing by
``P(c_i + c_j >= 1)``, so its CDF tops out at ``1 − (1 − p)^n``. Here every JRM CDF (and
the ``enumerate`` CDF of F1, MCC, PT) is ``P(S <= s | S defined)``; the probability of a
hole is reported by :func:`distribution`. An observed matrix whose score is undefined has
no CDF value: NaN is returned (never an error and never 0).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import special, stats

from fairbook.metrics import METRICS, compute
from fairbook.metrics.rates import as_counts
from fairbook.stats.combinatorics import (
    BINOMIAL_CELLS,
    JRM_CELLS,
    _check_size,
    enumerate_confusion_matrices,
)

__all__ = [
    "FIG_4_3_P_REF",
    "METHODS",
    "Distribution",
    "approximation_error",
    "berry_esseen_bound",
    "cdf",
    "cdf_at",
    "distribution",
    "methods_for",
    "metric_moments",
    "sf",
    "test",
]

#: Every method name.
METHODS = ("exact", "enumerate", "normal", "peizer_pratt", "beta")

#: Reference probabilities of seed 003 Fig. 4.3, in the API's order [TP, FN, FP, TN]:
#: p_TP = .3, p_FN = .1, p_FP = .2, p_TN = .4.
FIG_4_3_P_REF = (0.3, 0.1, 0.2, 0.4)

_TOL = 1e-9  # slack when flooring s·m (guards 2.9999999996 -> 2)
_ENUMERATE_MAX_N = 200
_PAIR_CHUNK = 2_000_000  # (m, k) pairs evaluated at once


# --------------------------------------------------------------------------- validation
def _family(metric: str) -> str:
    if metric in BINOMIAL_CELLS:
        return "binomial"
    if metric in JRM_CELLS:
        return "joint ratio"
    if metric == "B":
        return "marginal benefit"
    return "other"


def _check_metric(metric) -> str:
    if not isinstance(metric, str) or metric.upper() not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; choose one of {', '.join(METRICS)}")
    return metric.upper()


def methods_for(metric: str, *, allow_b_peizer_pratt: bool = False) -> tuple[str, ...]:
    """Methods of :func:`cdf` valid for ``metric``.

    Parameters
    ----------
    metric : str
        A name of :func:`fairbook.metrics.compute`.
    allow_b_peizer_pratt : bool, default False
        Count ``peizer_pratt`` as valid for B (Table 4.1 as printed).

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> methods_for("ACC")
    ('exact', 'enumerate', 'normal', 'peizer_pratt')
    >>> methods_for("PPV"), methods_for("MCC")
    (('exact', 'enumerate', 'beta'), ('enumerate',))
    """
    family = _family(_check_metric(metric))
    if family == "binomial":
        return ("exact", "enumerate", "normal", "peizer_pratt")
    if family == "marginal benefit":
        extra = ("peizer_pratt",) if allow_b_peizer_pratt else ()
        return ("exact", "enumerate", "normal", *extra)
    if family == "joint ratio":
        return ("exact", "enumerate", "beta")
    return ("enumerate",)


def _check_method(metric: str, method, allow_b_peizer_pratt: bool) -> str:
    if not isinstance(method, str) or method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    valid = methods_for(metric, allow_b_peizer_pratt=allow_b_peizer_pratt)
    if method not in valid:
        hint = ""
        if metric == "B" and method == "peizer_pratt":
            hint = (
                " (B is not binomial: Table 4.1's Peizer–Pratt parameters are wrong; "
                "pass allow_b_peizer_pratt=True to compute them anyway, e.g. to measure "
                "their error)"
            )
        raise ValueError(
            f"method {method!r} is not valid for {metric} "
            f"({_family(metric)} metric){hint}; valid: {', '.join(valid)}"
        )
    return method


def _check_p(p_ref) -> np.ndarray:
    try:
        p = np.asarray(p_ref, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"p_ref must be 4 numbers [TP, FN, FP, TN], got {p_ref!r}") from error
    if p.shape != (4,):
        raise ValueError(f"p_ref must have shape (4,) [TP, FN, FP, TN], got {p.shape}")
    if not np.isfinite(p).all():
        raise ValueError("p_ref contains non-finite values")
    if (p < 0).any():
        raise ValueError(f"p_ref contains negative probabilities: {p.tolist()}")
    if abs(p.sum() - 1.0) > 1e-9:
        raise ValueError(
            f"p_ref must sum to 1 (got {p.sum():.12g}); normalise counts with cm / cm.sum()"
        )
    return p


def _check_cm_obs(cm_obs) -> np.ndarray:
    cm = as_counts(cm_obs, name="cm_obs")
    if cm.shape != (4,):
        raise ValueError(f"cm_obs must be one confusion matrix of shape (4,), got {cm.shape}")
    if not np.array_equal(cm, np.round(cm)):
        raise ValueError(f"cm_obs must hold integer counts (a multinomial draw), got {cm.tolist()}")
    if cm.sum() < 1:
        raise ValueError("cm_obs is empty (n = 0); the group needs at least one sample")
    return cm.astype(np.int64)


def _check_prior(prior) -> float:
    prior = float(prior)
    if not (np.isfinite(prior) and prior > 0):
        raise ValueError(f"prior must be a finite number > 0, got {prior}")
    return prior


# --------------------------------------------------------------------------- helpers
def _bulk(n: int, p: float, lo: int = 0) -> np.ndarray:
    """Values of Binomial(n, p) outside of which the mass is below 2e-26 (Bernstein)."""
    if p <= 0:
        return np.arange(0, 1) if lo <= 0 else np.arange(0)
    if p >= 1:
        return np.arange(n, n + 1) if lo <= n else np.arange(0)
    mean, sd = n * p, math.sqrt(n * p * (1 - p))
    width = 12 * sd + 40
    start = max(lo, math.floor(mean - width), 0)
    stop = min(n, math.ceil(mean + width))
    return np.arange(start, stop + 1)


def _floor(x):
    return np.floor(np.asarray(x, dtype=np.float64) + _TOL).astype(np.int64)


def _ceil(x):
    return np.ceil(np.asarray(x, dtype=np.float64) - _TOL).astype(np.int64)


def _rows(n_rows: int, n_cols: int):
    """Slices of rows so that each block has at most _PAIR_CHUNK cells."""
    step = max(1, _PAIR_CHUNK // max(n_cols, 1))
    for start in range(0, n_rows, step):
        yield slice(start, min(n_rows, start + step))


def _mixture(
    thresholds: np.ndarray,
    m: np.ndarray,
    weights: np.ndarray,
    theta: float,
    upper: bool,
    shift_by_m,
) -> np.ndarray:
    """Σ_m w_m P(X_m <= t(m)) (or P(X_m >= t(m))) with X_m ~ Binomial(m, θ).

    ``shift_by_m(threshold_column, m_row)`` gives the integer cut for every pair.
    """
    out = np.empty(thresholds.shape, dtype=np.float64)
    flat = thresholds.reshape(-1)
    result = out.reshape(-1)
    for block in _rows(flat.size, m.size):
        cut = shift_by_m(flat[block, None], m[None, :])
        if upper:
            prob = stats.binom.sf(cut - 1, m[None, :], theta)
        else:
            prob = stats.binom.cdf(cut, m[None, :], theta)
        result[block] = prob @ weights
    return out


# --------------------------------------------------------------------------- exact laws
def _b_params(p: np.ndarray):
    p_plus, p_minus = float(p[2]), float(p[1])  # FP, FN
    return p_plus, p_minus, float(p[0] + p[3])


def _exact_b(k: np.ndarray, n: int, p: np.ndarray, upper: bool) -> np.ndarray:
    """P(FP − FN <= k) (or >= k) for integer k.

    One sum of O(√n) binomial-CDF terms per ``k`` (the bulk of ``m``); the time grows
    faster than √n, as each term's incomplete beta costs more for larger ``m`` (module
    docstring, ``exact``).
    """
    p_plus, p_minus, _ = _b_params(p)
    p_err = p_plus + p_minus
    m = _bulk(n, p_err)
    weights = stats.binom.pmf(m, n, p_err)
    theta = p_plus / p_err if p_err > 0 else 0.5
    if upper:  # FP >= ceil((k + m) / 2)

        def cut(kk, mm):
            return -((-(kk + mm)) // 2)
    else:  # FP <= floor((k + m) / 2)

        def cut(kk, mm):
            return (kk + mm) // 2

    return _mixture(np.asarray(k, dtype=np.int64), m, weights, theta, upper, cut)


def _jrm_setup(metric: str, n: int, p: np.ndarray):
    i, j = JRM_CELLS[metric]
    p_sum = float(p[i] + p[j])
    if p_sum <= 0:
        return None
    m = _bulk(n, p_sum, lo=1)
    weights = stats.binom.pmf(m, n, p_sum)
    return m, weights / weights.sum(), float(p[i]) / p_sum


def _exact_jrm(s: np.ndarray, metric: str, n: int, p: np.ndarray, upper: bool) -> np.ndarray:
    """P(S <= s | defined) (or >= s) for a JRM, conditioning on m = c_i + c_j >= 1."""
    setup = _jrm_setup(metric, n, p)
    if setup is None:
        return np.full(np.shape(s), np.nan)
    m, weights, theta = setup
    if upper:

        def cut(ss, mm):
            return _ceil(ss * mm)
    else:

        def cut(ss, mm):
            return _floor(ss * mm)

    return _mixture(np.asarray(s, dtype=np.float64), m, weights, theta, upper, cut)


def _enumerated_law(metric: str, n: int, p: np.ndarray):
    if n > _ENUMERATE_MAX_N:
        raise ValueError(
            f"method 'enumerate' sums over C(n+3, 3) matrices; n = {n} is above "
            f"{_ENUMERATE_MAX_N} (use 'exact' where the metric allows it)"
        )
    cms = enumerate_confusion_matrices(n)
    logpmf = (
        special.gammaln(n + 1)
        - special.gammaln(cms + 1).sum(axis=1)
        + special.xlogy(cms, p).sum(axis=1)
    )
    probs = np.exp(logpmf)
    values = np.asarray(compute(metric, cms), dtype=np.float64)
    return values, probs


def _enumerated_cdf(s: np.ndarray, metric: str, n: int, p: np.ndarray, upper: bool):
    values, probs = _enumerated_law(metric, n, p)
    defined = ~np.isnan(values)
    total = probs[defined].sum()
    if total <= 0:
        return np.full(np.shape(s), np.nan)
    values, probs = values[defined], probs[defined] / total
    s = np.asarray(s, dtype=np.float64)
    slack = 1e-12 * np.maximum(1.0, np.abs(s))
    if upper:
        mask = values[None, :] >= (s.reshape(-1) - slack.reshape(-1))[:, None]
    else:
        mask = values[None, :] <= (s.reshape(-1) + slack.reshape(-1))[:, None]
    return (mask @ probs).reshape(s.shape)


# --------------------------------------------------------------------------- approximations
def _normal_lattice(k: np.ndarray, mean: float, var: float, half: float, upper: bool):
    """Continuity-corrected normal tail of a lattice law at lattice points ``k``.

    Parameters
    ----------
    k : ndarray
        Lattice points (counts, or ``FP − FN`` moved onto its lattice).
    mean, var : float
        Mean and variance of the count.
    half : float
        Half the lattice step (1/2, or 1 for ``FP − FN`` in steps of 2).
    upper : bool
        ``P(X >= k) ≈ 1 − Φ((k − half − mean) / sd)`` if true, else
        ``P(X <= k) ≈ Φ((k + half − mean) / sd)``.

    Returns
    -------
    ndarray of float

    Notes
    -----
    ``var <= 0`` is a degenerate reference (a binomial rate of 0 or 1; for B, all of the
    reference's mass on FP, on FN, or on TP + TN), whose count is the point mass at
    ``mean``; no normal law is involved and the result is exact:
    ``P(X <= k) = 1 if k >= mean else 0`` and ``P(X >= k) = 1 if k <= mean else 0`` (up
    to ``_TOL`` rounding in ``mean``). ``mean`` is then itself a lattice point, so at every
    lattice ``k`` this is the limit ``sd → 0`` of the continuity-corrected formulas:
    ``k + half − mean`` and ``k − half − mean`` are never 0 there and their signs decide.
    (Before, the two tails were swapped: ``P(X <= k)`` was 1 below the mean.)
    """
    k = np.asarray(k, dtype=np.float64)
    if var <= 0:  # a point mass at ``mean``
        hit = k <= mean + _TOL if upper else k >= mean - _TOL
        return hit.astype(np.float64)
    sd = math.sqrt(var)
    if upper:
        return stats.norm.sf((k - half - mean) / sd)
    return stats.norm.cdf((k + half - mean) / sd)


def _g(t):
    """Peizer–Pratt's g(t) = (1 − t² + 2 t ln t)/(1 − t)², g(1) = 0, with a series near 1."""
    t = np.asarray(t, dtype=np.float64)
    h = t - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        direct = (1 - t * t + 2 * special.xlogy(t, t)) / (h * h)
    series = -h / 3 + h * h / 6 - h**3 / 10
    return np.where(np.abs(h) < 1e-3, series, direct)


def _pp_d(x, n, p, q):
    """Eq. 4.46's numerator with Eq. 4.47's refinement."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return (
            x + 2 / 3 - (n + 1 / 3) * p + 0.02 * (q / (x + 1) - p / (n - x) + (q - 0.5) / (n + 1))
        )


def _peizer_pratt_binomial(x: np.ndarray, n: int, p: float) -> np.ndarray:
    """P(X <= x), X ~ Binomial(n, p), by Peizer and Pratt (Eqs. 4.46–4.47)."""
    x = np.asarray(x, dtype=np.float64)
    q = 1 - p
    if p <= 0 or q <= 0:
        return (x >= (n if p >= 1 else 0)).astype(np.float64)
    inside = (x >= 0) & (x <= n - 1)
    xs = np.clip(x, 0, n - 1)
    s, f = xs + 0.5, n - xs - 0.5
    radicand = (1 + q * _g(s / (n * p)) + p * _g(f / (n * q))) / ((n + 1 / 6) * p * q)
    z = _pp_d(xs, n, p, q) * np.sqrt(radicand)
    return np.where(inside, stats.norm.cdf(z), np.where(x >= n, 1.0, 0.0))


def _peizer_pratt_paper_b(k: np.ndarray, n: int, p: np.ndarray) -> np.ndarray:
    """Table 4.1 as printed for B: Eq. 4.46–4.47 with x = k, p = p+ − p−, q = p0.

    Eq. 4.46 is used literally (deviance form, |x + 1/2 − np| restored); NaN wherever it
    has no real value (p <= 0, a log of a non-positive number, ...). Clamped to 0 below
    the support (k < −n) and to 1 at its top (k >= n).
    """
    k = np.asarray(k, dtype=np.float64)
    p_plus, p_minus, p0 = _b_params(p)
    pp, qq = p_plus - p_minus, p0
    with np.errstate(divide="ignore", invalid="ignore"):
        s, f = k + 0.5, n - k - 0.5
        bracket = 2 * (s * np.log(s / (n * pp)) + f * np.log(f / (n * qq)))
        scale = np.sqrt(n * pp * qq) / np.abs(s - n * pp)
        z = _pp_d(k, n, pp, qq) / np.sqrt((n + 1 / 6) * pp * qq) * scale * np.sqrt(bracket)
    out = stats.norm.cdf(z)
    out = np.where(np.isfinite(z), out, np.nan)
    return np.where(k >= n, 1.0, np.where(k < -n, 0.0, out))


def _beta_params(metric: str, n: int, p: np.ndarray, counts, prior: float, beta_counts: str):
    i, j = JRM_CELLS[metric]
    if beta_counts == "observed":
        a, b = counts
    else:
        a, b = n * p[i], n * p[j]
    return a + prior, b + prior


# --------------------------------------------------------------------------- dispatch
def _lattice(score: np.ndarray, n: int, upper: bool) -> np.ndarray:
    """Integer count behind a binomial score (K = n s) or a B score (k = n b): the largest
    lattice point <= n·score for a lower tail, the smallest >= n·score for an upper one."""
    return _ceil(score * n) if upper else _floor(score * n)


def _tail(
    metric: str,
    score,
    n: int,
    p: np.ndarray,
    method: str,
    upper: bool,
    *,
    counts=None,
    prior: float = 1.0,
    beta_counts: str = "observed",
) -> np.ndarray:
    """P(S <= score) (upper=False) or P(S >= score) (upper=True) under p."""
    score = np.asarray(score, dtype=np.float64)
    family = _family(metric)
    if method == "enumerate":
        return _enumerated_cdf(score, metric, n, p, upper)
    if family == "binomial":
        prob = float(p[list(BINOMIAL_CELLS[metric])].sum())
        k = _lattice(score, n, upper)
        if method == "exact":
            return stats.binom.sf(k - 1, n, prob) if upper else stats.binom.cdf(k, n, prob)
        if method == "normal":
            return _normal_lattice(k, n * prob, n * prob * (1 - prob), 0.5, upper)
        # peizer_pratt
        return (
            1 - _peizer_pratt_binomial(k - 1, n, prob)
            if upper
            else _peizer_pratt_binomial(k, n, prob)
        )
    if family == "marginal benefit":
        k = _lattice(score, n, upper)
        p_plus, p_minus, p0 = _b_params(p)
        if method == "exact":
            return _exact_b(k, n, p, upper)
        if method == "normal":
            step2 = p0 <= 0  # FP − FN ≡ n (mod 2): lattice step 2
            if step2:  # move k onto the lattice before correcting by half a step
                k = np.where((k - n) % 2 != 0, k - 1 if not upper else k + 1, k)
            mu = p_plus - p_minus
            var = n * ((p_plus + p_minus) - mu * mu)
            return _normal_lattice(k, n * mu, var, 1.0 if step2 else 0.5, upper)
        # peizer_pratt, Table 4.1 as printed
        return 1 - _peizer_pratt_paper_b(k - 1, n, p) if upper else _peizer_pratt_paper_b(k, n, p)
    if family == "joint ratio":
        if method == "exact":
            return _exact_jrm(score, metric, n, p, upper)
        a, b = _beta_params(metric, n, p, counts, prior, beta_counts)
        if beta_counts == "expected" and (a - prior) + (b - prior) <= 0:
            return np.full(score.shape, np.nan)
        below = special.betainc(a, b, np.clip(score, 0.0, 1.0))
        return 1 - below if upper else below
    raise AssertionError((metric, method))  # pragma: no cover - guarded by methods_for


def _validate_common(metric, p_ref, method, allow_b_peizer_pratt, beta_counts, prior):
    key = _check_metric(metric)
    p = _check_p(p_ref)
    method = _check_method(key, method, allow_b_peizer_pratt)
    if beta_counts not in ("observed", "expected"):
        raise ValueError(f"beta_counts must be 'observed' or 'expected', got {beta_counts!r}")
    return key, p, method, _check_prior(prior)


def _observed(key: str, cm: np.ndarray):
    """(score, beta counts) of an observed matrix; score NaN when undefined."""
    if key in JRM_CELLS:
        i, j = JRM_CELLS[key]
        counts = (float(cm[i]), float(cm[j]))
    else:
        counts = None
    if key in BINOMIAL_CELLS:
        score = cm[list(BINOMIAL_CELLS[key])].sum() / cm.sum()
    elif key == "B":
        score = (cm[2] - cm[1]) / cm.sum()
    else:
        score = compute(key, cm)
    return float(score), counts


def cdf(
    metric: str,
    cm_obs,
    p_ref,
    *,
    method: str = "exact",
    prior: float = 1.0,
    beta_counts: str = "observed",
    allow_b_peizer_pratt: bool = False,
) -> float:
    """P(S <= S_obs) when a group of ``n = sum(cm_obs)`` is drawn from ``p_ref``.

    Parameters
    ----------
    metric : str
        A name of :func:`fairbook.metrics.compute`; see :func:`methods_for`.
    cm_obs : array-like of shape (4,)
        Observed integer counts ``[TP, FN, FP, TN]`` of the group; ``n >= 1``.
    p_ref : array-like of shape (4,)
        Reference cell probabilities ``[TP, FN, FP, TN]``, non-negative, summing to 1.
    method : {"exact", "enumerate", "normal", "peizer_pratt", "beta"}, default "exact"
        See the module docstring.
    prior : float, default 1.0
        λ of Eq. 4.44 (``beta`` only).
    beta_counts : {"observed", "expected"}, default "observed"
        Counts in the beta approximation: the group's (Eq. 4.44, a posterior) or the
        reference's expected ``n p_i, n p_j``.
    allow_b_peizer_pratt : bool, default False
        Allow ``peizer_pratt`` for B with Table 4.1's (wrong) parameters.

    Returns
    -------
    float
        For joint-ratio metrics (and ``enumerate`` on metrics with holes) this is
        ``P(S <= S_obs | S defined)`` — a departure from Eq. 4.37, which leaves out the
        division by ``P(c_i + c_j >= 1)``. NaN if ``S_obs`` is undefined or the metric is
        undefined with probability 1 under ``p_ref``.

    Raises
    ------
    ValueError
        Bad ``p_ref`` or ``cm_obs``, unknown metric or method, or a method not valid for
        the metric's family.

    Examples
    --------
    >>> p_ref = [0.375, 0.125, 0.125, 0.375]  # P(TP or TN) = .75
    >>> cm = [40, 10, 10, 40]                 # ACC = .80, n = 100 (the paper's example)
    >>> round(cdf("ACC", cm, p_ref, method="normal"), 3)  # Φ(1.27)
    0.898
    >>> round(cdf("ACC", cm, p_ref), 4)  # exact binomial CDF
    0.9005
    >>> round(cdf("TPR", [3, 1, 2, 4], [0.3, 0.1, 0.2, 0.4]), 4)
    0.5185
    """
    key, p, method, prior = _validate_common(
        metric, p_ref, method, allow_b_peizer_pratt, beta_counts, prior
    )
    cm = _check_cm_obs(cm_obs)
    score, counts = _observed(key, cm)
    if math.isnan(score):
        return math.nan
    value = _tail(
        key,
        score,
        int(cm.sum()),
        p,
        method,
        False,
        counts=counts,
        prior=prior,
        beta_counts=beta_counts,
    )
    return float(value)


def sf(
    metric: str,
    cm_obs,
    p_ref,
    *,
    method: str = "exact",
    prior: float = 1.0,
    beta_counts: str = "observed",
    allow_b_peizer_pratt: bool = False,
) -> float:
    """P(S >= S_obs) under ``p_ref``: the upper tail that :func:`test` uses.

    Parameters
    ----------
    metric, cm_obs, p_ref, method, prior, beta_counts, allow_b_peizer_pratt
        As in :func:`cdf`.

    Returns
    -------
    float
        ``P(S >= S_obs)`` (conditional on the metric being defined, as in :func:`cdf`);
        NaN when ``S_obs`` is undefined.

    Examples
    --------
    >>> p_ref = [0.375, 0.125, 0.125, 0.375]
    >>> round(sf("ACC", [40, 10, 10, 40], p_ref), 3)
    0.149
    """
    key, p, method, prior = _validate_common(
        metric, p_ref, method, allow_b_peizer_pratt, beta_counts, prior
    )
    cm = _check_cm_obs(cm_obs)
    score, counts = _observed(key, cm)
    if math.isnan(score):
        return math.nan
    value = _tail(
        key,
        score,
        int(cm.sum()),
        p,
        method,
        True,
        counts=counts,
        prior=prior,
        beta_counts=beta_counts,
    )
    return float(value)


def test(
    metric: str,
    cm_obs,
    p_ref,
    *,
    method: str = "exact",
    prior: float = 1.0,
    beta_counts: str = "observed",
    allow_b_peizer_pratt: bool = False,
) -> float:
    """Two-sided MATCH p-value ``min(1, 2 min(P(S <= s), P(S >= s)))``.

    Both tails come from the same method (:func:`cdf` and :func:`sf`); for discrete laws
    both include ``S = s``, so the p-value is conservative.

    Parameters
    ----------
    metric, cm_obs, p_ref, method, prior, beta_counts, allow_b_peizer_pratt
        As in :func:`cdf`. ``method="beta"`` with observed counts tests nothing about
        ``p_ref`` (Eq. 4.44 is a posterior) and is there only for comparison.

    Returns
    -------
    float
        In [0, 1]; NaN when the observed score is undefined.

    Examples
    --------
    >>> p_ref = [0.375, 0.125, 0.125, 0.375]
    >>> round(test("ACC", [40, 10, 10, 40], p_ref), 3)
    0.298
    >>> test("ACC", [50, 0, 0, 50], p_ref) < 1e-10   # a perfect group is unusual
    True
    """
    lower = cdf(
        metric,
        cm_obs,
        p_ref,
        method=method,
        prior=prior,
        beta_counts=beta_counts,
        allow_b_peizer_pratt=allow_b_peizer_pratt,
    )
    upper = sf(
        metric,
        cm_obs,
        p_ref,
        method=method,
        prior=prior,
        beta_counts=beta_counts,
        allow_b_peizer_pratt=allow_b_peizer_pratt,
    )
    if math.isnan(lower) or math.isnan(upper):
        return math.nan
    return float(min(1.0, max(0.0, 2 * min(lower, upper))))


def cdf_at(
    metric: str,
    score,
    p_ref,
    n,
    *,
    method: str = "exact",
    prior: float = 1.0,
    allow_b_peizer_pratt: bool = False,
) -> float | np.ndarray:
    """P(S <= score) for a group of size ``n`` drawn from ``p_ref``, at any score(s).

    Vectorised over ``score``; the form to plot a whole CDF. For ``beta`` only the
    reference-count variant (``beta_counts="expected"``) is available here, since Eq. 4.44
    needs observed counts (use :func:`cdf`).

    Parameters
    ----------
    metric : str
    score : float or array-like
    p_ref : array-like of shape (4,)
    n : int
        Group size, ``n >= 1``.
    method, prior, allow_b_peizer_pratt
        As in :func:`cdf`.

    Returns
    -------
    float or ndarray
        Same shape as ``score``. Conditional on the metric being defined (JRMs, and
        ``enumerate`` for metrics with holes).

    Examples
    --------
    >>> cdf_at("PPR", [0.0, 0.5, 1.0], [0.25, 0.25, 0.25, 0.25], 4).round(4).tolist()
    [0.0625, 0.6875, 1.0]
    """
    key, p, method, prior = _validate_common(
        metric, p_ref, method, allow_b_peizer_pratt, "expected", prior
    )
    n = _check_size(n, minimum=1)
    values = np.asarray(score, dtype=np.float64)
    if np.isnan(values).any():
        raise ValueError("score contains NaN")
    out = _tail(key, values, n, p, method, False, prior=prior, beta_counts="expected")
    array = np.asarray(out, dtype=np.float64)
    return float(array) if array.ndim == 0 else array


# --------------------------------------------------------------------------- distributions
class Distribution(NamedTuple):
    """Exact law of a metric for groups of size ``n`` (returned by :func:`distribution`).

    Attributes
    ----------
    values : ndarray
        Sorted distinct scores with positive probability.
    probs : ndarray
        Their probabilities conditional on the metric being defined (summing to 1).
    p_undefined : float
        Probability that the score is undefined (a hole).

    Examples
    --------
    >>> Distribution(np.array([0.0, 1.0]), np.array([0.5, 0.5]), 0.0).probs.sum()
    np.float64(1.0)
    """

    values: np.ndarray
    probs: np.ndarray
    p_undefined: float


def _grouped(values: np.ndarray, probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    unique, inverse = np.unique(values, return_inverse=True)
    return unique, np.bincount(inverse.reshape(-1), weights=probs, minlength=unique.size)


def _pairs(m: np.ndarray):
    """Blocks of all (m, k) with 0 <= k <= m, m from ``m``, at most _PAIR_CHUNK at once."""
    sizes = m + 1
    ends = np.cumsum(sizes)
    start = 0
    while start < m.size:
        base = ends[start - 1] if start else 0
        stop = int(np.searchsorted(ends, base + _PAIR_CHUNK, side="right"))
        stop = max(stop, start + 1)
        mm = np.repeat(m[start:stop], sizes[start:stop])
        offsets = np.repeat(np.cumsum(sizes[start:stop]) - sizes[start:stop], sizes[start:stop])
        kk = np.arange(mm.size) - offsets
        yield mm, kk
        start = stop


def distribution(metric: str, p_ref, n) -> Distribution:
    """Exact distribution of ``metric`` for a group of ``n`` drawn from ``p_ref``.

    Binomial metrics: ``n + 1`` binomial pmf values. B and joint-ratio metrics: two pmf
    values for each pair ``(m, k)``, ``0 <= k <= m``, of the conditional decomposition,
    with ``m`` in the O(√n) bulk of its law (negligible ``m`` trimmed), so O(n·√n)
    pairs. F1, MCC, PT: by enumerating every matrix (``n <= 200``).

    Parameters
    ----------
    metric : str
    p_ref : array-like of shape (4,)
        Reference cell probabilities ``[TP, FN, FP, TN]``.
    n : int
        Group size, ``n >= 1``.

    Returns
    -------
    Distribution
        ``(values, probs, p_undefined)``; empty arrays if the metric is never defined.

    Examples
    --------
    >>> d = distribution("TPR", [0.25, 0.25, 0.25, 0.25], 2)
    >>> d.values.tolist(), d.probs.round(4).tolist(), d.p_undefined
    ([0.0, 0.5, 1.0], [0.4167, 0.1667, 0.4167], 0.25)
    """
    key = _check_metric(metric)
    p = _check_p(p_ref)
    n = _check_size(n, minimum=1)
    family = _family(key)
    if family == "binomial":
        prob = float(p[list(BINOMIAL_CELLS[key])].sum())
        k = np.arange(n + 1)
        probs = stats.binom.pmf(k, n, prob)
        keep = probs > 0
        return Distribution(k[keep] / n, probs[keep] / probs[keep].sum(), 0.0)
    if family == "marginal benefit":
        p_plus, p_minus, _ = _b_params(p)
        p_err = p_plus + p_minus
        theta = p_plus / p_err if p_err > 0 else 0.5
        pmf = np.zeros(2 * n + 1)
        for mm, kk in _pairs(_bulk(n, p_err)):  # kk = FP given m = FP + FN
            prob = stats.binom.pmf(mm, n, p_err) * stats.binom.pmf(kk, mm, theta)
            pmf += np.bincount(2 * kk - mm + n, weights=prob, minlength=2 * n + 1)
        support = np.flatnonzero(pmf > 0)
        return Distribution((support - n) / n, pmf[support] / pmf[support].sum(), 0.0)
    if family == "joint ratio":
        i, j = JRM_CELLS[key]
        p_sum = float(p[i] + p[j])
        if p_sum <= 0:
            return Distribution(np.empty(0), np.empty(0), 1.0)
        p_undefined = float(np.exp(n * np.log1p(-p_sum))) if p_sum < 1 else 0.0
        theta = float(p[i]) / p_sum
        values, probs = [], []
        for mm, kk in _pairs(_bulk(n, p_sum, lo=1)):
            values.append(kk / mm)
            probs.append(stats.binom.pmf(mm, n, p_sum) * stats.binom.pmf(kk, mm, theta))
        unique, mass = _grouped(np.concatenate(values), np.concatenate(probs))
        keep = mass > 0
        return Distribution(unique[keep], mass[keep] / mass[keep].sum(), p_undefined)
    values, probs = _enumerated_law(key, n, p)
    defined = ~np.isnan(values)
    p_undefined = float(probs[~defined].sum())
    if not defined.any() or probs[defined].sum() <= 0:
        return Distribution(np.empty(0), np.empty(0), 1.0)
    # equal scores computed through sqrt may differ in the last bit: merge at 1e-12
    rounded = np.round(values[defined], 12)
    unique, mass = _grouped(rounded, probs[defined])
    keep = mass > 0
    return Distribution(unique[keep], mass[keep] / mass[keep].sum(), p_undefined)


def metric_moments(metric: str, p_ref, n) -> dict[str, float]:
    """Mean, variance, skewness and excess kurtosis of ``metric`` at group size ``n``.

    Exact: computed from :func:`distribution` (conditional on the metric being defined),
    as in seed 003 Fig. 4.3 (there by one million draws). Mind the order of ``p_ref``:
    ``[TP, FN, FP, TN]``; the figure's law is :data:`FIG_4_3_P_REF`.

    Parameters
    ----------
    metric : str
    p_ref : array-like of shape (4,)
    n : int

    Returns
    -------
    dict
        Keys ``mean, variance, skewness, excess_kurtosis, p_undefined``; skewness and
        kurtosis are NaN for a point mass.

    Examples
    --------
    >>> moments = metric_moments("ACC", FIG_4_3_P_REF, 50)  # ACC ~ Binomial(50, .7)/50
    >>> round(moments["mean"], 6), round(moments["variance"], 6)
    (0.7, 0.0042)
    >>> round(moments["skewness"], 4)  # (1 − 2p)/sqrt(n p q)
    -0.1234
    """
    dist = distribution(metric, p_ref, n)
    if dist.values.size == 0:
        nan = math.nan
        return {
            "mean": nan,
            "variance": nan,
            "skewness": nan,
            "excess_kurtosis": nan,
            "p_undefined": dist.p_undefined,
        }
    mean = float(dist.probs @ dist.values)
    centred = dist.values - mean
    var = float(dist.probs @ centred**2)
    if var <= 1e-300:
        skew = kurt = math.nan
    else:
        skew = float(dist.probs @ centred**3) / var**1.5
        kurt = float(dist.probs @ centred**4) / var**2 - 3
    return {
        "mean": mean,
        "variance": var,
        "skewness": skew,
        "excess_kurtosis": kurt,
        "p_undefined": dist.p_undefined,
    }


# --------------------------------------------------------------------------- errors
def approximation_error(
    metric: str,
    p_ref,
    n,
    *,
    method: str,
    prior: float = 1.0,
    beta_counts: str = "observed",
    allow_b_peizer_pratt: bool = False,
    return_curve: bool = False,
):
    """Largest ``|approximate CDF − exact CDF|`` over the support, at group size ``n``.

    The exact CDF comes from :func:`distribution`; both are evaluated at every support
    point (where the step CDF takes its values). For ``beta`` with observed counts
    (Eq. 4.44) the approximation depends on the counts, not only on the score, so it is
    evaluated at every observable pair ``(k_i, k_i + k_j)`` with ``k_i + k_j >= 1``.
    Points where an approximation is NaN (``peizer_pratt`` for B) are skipped; the count
    of such points is in the curve.

    Parameters
    ----------
    metric : str
    p_ref : array-like of shape (4,)
    n : int
    method : str
        An approximate method valid for the metric (``normal``, ``peizer_pratt``,
        ``beta``); ``exact``/``enumerate`` give about 0.
    prior, beta_counts, allow_b_peizer_pratt
        As in :func:`cdf`.
    return_curve : bool, default False
        Also return the DataFrame ``score, exact, approx, abs_error`` (plus ``k_i, k`` for
        observed-count beta).

    Returns
    -------
    float, or (float, pandas.DataFrame)
        NaN if the approximation is NaN everywhere.

    Examples
    --------
    >>> p = FIG_4_3_P_REF
    >>> approximation_error("ACC", p, 30, method="peizer_pratt") < 1e-3
    True
    >>> round(approximation_error("ACC", p, 30, method="normal"), 4)
    0.0105
    """
    key, p, method, prior = _validate_common(
        metric, p_ref, method, allow_b_peizer_pratt, beta_counts, prior
    )
    n = _check_size(n, minimum=1)
    dist = distribution(key, p, n)
    exact_cdf = np.minimum(np.cumsum(dist.probs), 1.0)
    if key in JRM_CELLS and method == "beta" and beta_counts == "observed":
        pairs = [(kk, mm) for mm, kk in _pairs(np.arange(1, n + 1))]
        k_i = np.concatenate([kk for kk, _ in pairs])
        k = np.concatenate([mm for _, mm in pairs])
        score = k_i / k
        a, b = k_i + prior, (k - k_i) + prior
        approx = special.betainc(a, b, score)
        where = np.searchsorted(dist.values, score + 1e-12, side="right") - 1
        exact = np.where(where >= 0, exact_cdf[np.clip(where, 0, None)], 0.0)
        curve = pd.DataFrame({"k_i": k_i, "k": k, "score": score, "exact": exact, "approx": approx})
    else:
        score = dist.values
        approx = _tail(key, score, n, p, method, False, prior=prior, beta_counts=beta_counts)
        curve = pd.DataFrame(
            {"score": score, "exact": exact_cdf, "approx": np.asarray(approx, dtype=np.float64)}
        )
    curve["abs_error"] = (curve["approx"] - curve["exact"]).abs()
    errors = curve["abs_error"].to_numpy()
    worst = float(np.nanmax(errors)) if np.isfinite(errors).any() else math.nan
    return (worst, curve) if return_curve else worst


def berry_esseen_bound(p_ref, n, metric: str, *, c0: float = 0.56) -> float:
    """Berry–Esseen bound ``C0 ρ / (σ³ √n)`` on the normal approximation (Eq. 4.45).

    For a binomial metric the summands are Bernoulli(p): ``σ² = pq``,
    ``ρ = E|X − p|³ = pq(p² + q²)``. For B they take +1, −1, 0 with probabilities
    ``p+ = p_FP, p− = p_FN, p0``: ``μ = p+ − p−``, ``σ² = p+ + p− − μ²``,
    ``ρ = p+|1 − μ|³ + p−|1 + μ|³ + p0|μ|³``. ``c0 = 0.56`` is the constant the paper cites
    (Shevtsova 2010); for identically distributed summands 0.4748 also holds (Shevtsova
    2011). The bound is on ``sup |F_n − Φ|`` of the standardised sum; at the support points
    the continuity-corrected normal CDF is within the same bound.

    Parameters
    ----------
    p_ref : array-like of shape (4,)
    n : int
    metric : str
        A binomial metric or ``"B"`` (others are not sums of i.i.d. terms).
    c0 : float, default 0.56

    Returns
    -------
    float
        NaN when σ = 0 (a point mass; no bound is needed).

    Examples
    --------
    >>> round(berry_esseen_bound([0.375, 0.125, 0.125, 0.375], 100, "ACC"), 4)
    0.0808
    """
    key = _check_metric(metric)
    p = _check_p(p_ref)
    n = _check_size(n, minimum=1)
    family = _family(key)
    if family == "binomial":
        prob = float(p[list(BINOMIAL_CELLS[key])].sum())
        q = 1 - prob
        var, rho = prob * q, prob * q * (prob * prob + q * q)
    elif family == "marginal benefit":
        p_plus, p_minus, p0 = _b_params(p)
        mu = p_plus - p_minus
        var = p_plus + p_minus - mu * mu
        rho = p_plus * abs(1 - mu) ** 3 + p_minus * abs(1 + mu) ** 3 + p0 * abs(mu) ** 3
    else:
        raise ValueError(
            f"the Berry–Esseen bound applies to sums of i.i.d. terms: binomial "
            f"metrics and B, not {key} ({family} metric)"
        )
    if var <= 0:
        return math.nan
    return float(c0 * rho / (var**1.5 * math.sqrt(n)))
