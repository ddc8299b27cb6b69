"""How far a categorical distribution is from a target (seed 003 Table 3.5).

All logarithms are **natural** (nats): the paper's KL of 2.302 for its real activities is
``ln 10``. :func:`js_distance` is the Jensen–Shannon *distance* (the square root of the
divergence), like :func:`scipy.spatial.distance.jensenshannon`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = [
    "divergences",
    "improvement_percent",
    "js_distance",
    "kl_divergence",
    "ks_statistic",
    "proportions",
    "rowwise_divergences",
]


def _prob(p, name: str) -> np.ndarray:
    p = np.asarray(p, dtype=float)
    if p.ndim != 1 or len(p) == 0:
        raise ValueError(f"{name} must be a non-empty 1-D probability vector, got shape {p.shape}")
    if not np.isfinite(p).all() or (p < 0).any():
        raise ValueError(f"{name} must be finite and non-negative")
    if not np.isclose(p.sum(), 1.0, atol=1e-6):
        raise ValueError(f"{name} must sum to 1, sums to {p.sum():.6g}")
    return p


def _pair(p, q):
    p, q = _prob(p, "p"), _prob(q, "q")
    if p.shape != q.shape:
        raise ValueError(f"p and q must have the same length, got {len(p)} and {len(q)}")
    return p, q


def proportions(labels, categories) -> np.ndarray:
    """Share of each of ``categories`` among ``labels`` (in the order given).

    Examples
    --------
    >>> proportions(["a", "b", "b", "b"], ["a", "b", "c"]).tolist()
    [0.25, 0.75, 0.0]
    """
    labels = pd.Series(np.asarray(labels, dtype=object))
    if len(labels) == 0:
        raise ValueError("labels is empty")
    cats = list(categories)
    unknown = sorted(set(labels) - set(cats), key=str)
    if unknown:
        raise ValueError(f"labels {unknown[:5]} are not among the categories {cats}")
    return labels.value_counts().reindex(cats, fill_value=0).to_numpy(dtype=float) / len(labels)


def ks_statistic(p, q, *, method: str = "cdf") -> float:
    """Kolmogorov–Smirnov statistic between two categorical distributions.

    Parameters
    ----------
    p, q : array-like
        Probability vectors over the same categories.
    method : {"cdf", "entries"}
        ``"cdf"``: ``max_k |F_p(k) − F_q(k)|`` with the categories in the given order (the
        KS distance of two distributions on an ordered support). ``"entries"``: the
        two-sample KS statistic of the *entries* of the two vectors taken as samples —
        ``scipy.stats.ks_2samp(p, q).statistic`` — which is what reproduces the paper's
        printed values (e.g. 0.900 for a one-hot vector against uniform over 10).

    Examples
    --------
    >>> ks_statistic([1, 0, 0, 0], [0.25] * 4)
    0.75
    >>> ks_statistic([0, 0, 0, 1], [0.25] * 4, method="entries")
    0.75
    """
    p, q = _pair(p, q)
    if method == "cdf":
        return float(np.abs(np.cumsum(p) - np.cumsum(q)).max())
    if method == "entries":
        grid = np.concatenate([p, q])
        fp = np.searchsorted(np.sort(p), grid, side="right") / len(p)
        fq = np.searchsorted(np.sort(q), grid, side="right") / len(q)
        return float(np.abs(fp - fq).max())
    raise ValueError(f"method must be 'cdf' or 'entries', got {method!r}")


def kl_divergence(p, q) -> float:
    """``KL(p ‖ q) = Σ p ln(p / q)`` in nats; ``inf`` where ``q = 0 < p``.

    Examples
    --------
    >>> round(kl_divergence([1] + [0] * 9, [0.1] * 10), 3)  # ln 10, seed 003 Table 3.5
    2.303
    """
    p, q = _pair(p, q)
    if ((q == 0) & (p > 0)).any():
        return float("inf")
    m = p > 0
    return float(np.sum(p[m] * np.log(p[m] / q[m])))


def js_distance(p, q) -> float:
    """Jensen–Shannon distance ``sqrt(½ KL(p‖m) + ½ KL(q‖m))``, ``m = (p + q)/2``, nats.

    Examples
    --------
    >>> round(js_distance([1] + [0] * 9, [0.1] * 10), 3)  # seed 003 Table 3.5: 0.725
    0.725
    """
    p, q = _pair(p, q)
    m = (p + q) / 2
    return float(np.sqrt(max(0.5 * kl_divergence(p, m) + 0.5 * kl_divergence(q, m), 0.0)))


def divergences(p, q, *, ks_method: str = "cdf") -> dict:
    """KS statistic, KL divergence and JS distance of ``p`` to ``q`` as a dict.

    Examples
    --------
    >>> divergences([0.5, 0.5], [0.5, 0.5])
    {'KS statistic': 0.0, 'KL divergence': 0.0, 'JS distance': 0.0}
    """
    return {
        "KS statistic": ks_statistic(p, q, method=ks_method),
        "KL divergence": kl_divergence(p, q),
        "JS distance": js_distance(p, q),
    }


def rowwise_divergences(rows, q, *, ks_method: str = "entries") -> dict:
    """Mean over rows of :func:`divergences` of each row's probability vector to ``q``.

    One-hot rows (real data) give ``ln k`` KL whatever the data: the reading of seed 003
    Table 3.5's "Activities" column that reproduces its real values.

    Examples
    --------
    >>> d = rowwise_divergences([[1, 0, 0, 0, 0, 0, 0, 0, 0, 0]] * 3, [0.1] * 10)
    >>> [round(v, 3) for v in d.values()]
    [0.9, 2.303, 0.725]
    """
    rows = np.asarray(rows, dtype=float)
    if rows.ndim != 2 or len(rows) == 0:
        raise ValueError(f"rows must be a non-empty (n, k) array, got shape {rows.shape}")
    values = [divergences(r, q, ks_method=ks_method) for r in rows]
    return {key: float(np.mean([v[key] for v in values])) for key in values[0]}


def improvement_percent(real, synthetic):
    """``100 · (real − synthetic) / real``: how much closer to the target, in percent.

    NaN where ``real`` is 0 (nothing to improve).

    Examples
    --------
    >>> round(improvement_percent(0.900, 0.863), 2)  # seed 003 Table 3.5, 4.11 %
    4.11
    """
    real, synthetic = np.asarray(real, dtype=float), np.asarray(synthetic, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(real == 0, np.nan, 100 * (real - synthetic) / real)
    return float(out) if out.ndim == 0 else out
