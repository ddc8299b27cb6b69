"""Is an effect measured over independent runs decided? An interval, a sign test, and the
number of runs it would take.

One number per run (a skill score, a paired difference) is a sample from the distribution
of what a rerun gives. The effect is **decided** at level ``alpha`` when the two-sided
Student-t interval of the mean over runs excludes zero; the exact two-sided sign test
(zeros dropped) is shown beside it because it assumes no normality. When the interval
includes zero, :func:`runs_needed` answers the power question the way a reader asks it: if
the mean and the spread stayed as observed, how many runs would the interval need to
exclude zero?

Examples
--------
>>> from fairbook.stats.decision import decide
>>> d = decide([-0.31, -0.22, -0.40, -0.18, -0.35, -0.27, -0.29])
>>> d["decided"], d["side"], d["positive"], d["n"]
(True, 'below zero', 0, 7)
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

__all__ = ["decide", "runs_needed", "sign_test"]


def _values(values) -> np.ndarray:
    a = np.asarray(values, dtype=float)
    if a.ndim != 1:
        raise ValueError(f"values must be one number per run (1-d); got shape {a.shape}")
    if np.isnan(a).any() or np.isinf(a).any():
        raise ValueError("values must be finite (a run whose effect is undefined cannot vote)")
    return a


def _check_alpha(alpha) -> float:
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1); got {alpha!r}")
    return float(alpha)


def sign_test(values) -> float:
    """Exact two-sided sign test of a zero median: p-value of the count of positive values
    among the non-zero ones (binomial, p = 1/2). NaN when every value is zero.

    Examples
    --------
    >>> round(sign_test([1, 2, 3, 4, 5, 6, 7]), 4)     # 7 of 7 positive: 2 / 2**7
    0.0156
    >>> sign_test([1, -1])
    1.0
    """
    a = _values(values)
    nonzero = a[a != 0]
    if nonzero.size == 0:
        return float("nan")
    return float(stats.binomtest(int((nonzero > 0).sum()), nonzero.size, 0.5).pvalue)


def runs_needed(mean: float, sd: float, *, alpha: float = 0.05, limit: int = 100_000) -> int:
    """Fewest runs ``n ≥ 2`` whose two-sided t interval, ``mean ± t(1 − α/2, n − 1)·sd/√n``,
    excludes zero, if the mean and the standard deviation stayed as given.

    A mean of zero never excludes it (returns ``limit``); a zero spread needs 2 runs.

    Examples
    --------
    >>> runs_needed(0.1, 0.1)          # t(0.975, n−1)/√n < 1 first at n = 7
    7
    >>> runs_needed(0.0, 1.0, limit=50)
    50
    """
    alpha = _check_alpha(alpha)
    if not (math.isfinite(mean) and math.isfinite(sd)) or sd < 0:
        raise ValueError(f"mean and sd must be finite and sd >= 0; got {mean!r}, {sd!r}")
    if mean == 0:
        return int(limit)
    ratio = abs(mean) / sd if sd > 0 else math.inf
    limit = int(limit)

    def excludes(n: int) -> bool:  # t(1 − α/2, n − 1)/√n falls with n: bisect on it
        return bool(stats.t.ppf(1 - alpha / 2, n - 1) / math.sqrt(n) < ratio)

    if limit <= 2 or not excludes(limit - 1):
        return limit
    if excludes(2):
        return 2
    low, high = 2, limit - 1  # excludes(low) is false, excludes(high) is true
    while high - low > 1:
        middle = (low + high) // 2
        if excludes(middle):
            high = middle
        else:
            low = middle
    return high


def decide(values, *, alpha: float = 0.05) -> dict:
    """Mean over runs, its t interval, the sign test, and whether the effect is decided.

    Parameters
    ----------
    values : array_like, 1-d
        One finite number per independent run (at least 2).
    alpha : float, default 0.05
        Two-sided level of the interval.

    Returns
    -------
    dict
        ``n, mean, sd`` (ddof 1), ``low, high`` (the ``1 − alpha`` t interval), ``positive``
        (how many runs are above zero), ``sign_p``, ``decided`` (the interval excludes 0),
        ``side`` (``"above zero"``, ``"below zero"`` or ``"undecided"``) and ``runs_needed``
        (:func:`runs_needed` at the observed mean and sd; the observed ``n`` when decided).

    Examples
    --------
    >>> d = decide([0.2, -0.1, 0.05, 0.3])
    >>> d["decided"], d["side"]
    (False, 'undecided')
    >>> d["runs_needed"] > 4
    True
    """
    a = _values(values)
    alpha = _check_alpha(alpha)
    if a.size < 2:
        raise ValueError(f"an interval over runs needs at least 2 runs; got {a.size}")
    mean, sd = float(a.mean()), float(a.std(ddof=1))
    half = float(stats.t.ppf(1 - alpha / 2, a.size - 1)) * sd / math.sqrt(a.size)
    low, high = mean - half, mean + half
    decided = bool(low > 0 or high < 0)
    side = "undecided" if not decided else ("above zero" if low > 0 else "below zero")
    return {
        "n": int(a.size),
        "mean": mean,
        "sd": sd,
        "low": low,
        "high": high,
        "positive": int((a > 0).sum()),
        "sign_p": sign_test(a),
        "decided": decided,
        "side": side,
        "runs_needed": int(a.size) if decided else runs_needed(mean, sd, alpha=alpha),
    }
