"""Exact MATCH p-values of many groups against one reference, batched over the groups.

:func:`fairbook.stats.match.test` answers for one group at a time; an audit asks for one
p-value per group, metric and attribute, and before this module it called ``test`` that many
times (about 8 ms per group). The numbers here are the same — the same exact laws, the same
sums over the bulk of ``m`` (:mod:`fairbook.stats.match`, ``exact``), the same scipy binomial
functions — computed in fewer, larger calls:

* the groups of one attribute share the reference's law, so the binomial weights
  ``P(m)`` of a joint-ratio metric or of B depend only on the group's size ``n``: they are
  computed **once per size** (:class:`MatchBatch` caches them, with the bulk of ``m``), and
  the groups of that size are evaluated together, one ``scipy.stats.binom`` call over a
  ``groups x m`` block;
* a binomial metric's p-value is one vectorised ``binom.cdf`` and ``binom.sf`` over all
  groups;
* the two tails of a two-sided p-value ``min(1, 2 min(P(S <= s), P(S >= s)))`` overlap at
  ``S = s``, so ``P(S <= s) + P(S >= s) >= 1``: when the tail on the observed score's side
  of the mean is at most 1/2 it is the smaller one and the other is not computed;
* the p-value of a gap of ``min_gap`` (:func:`fairbook.audit.small_groups.min_gap_pvalue`)
  depends on the size alone, so it is computed once per distinct size
  (:meth:`MatchBatch.min_gap_pvalues`).

Every value equals the one-group path within floating-point summation order (the tests
check 1e-12 relative against :func:`fairbook.stats.match.test`, against scipy and against
enumeration of every confusion matrix of small groups).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from fairbook.metrics import compute
from fairbook.stats import match
from fairbook.stats.combinatorics import BINOMIAL_CELLS, JRM_CELLS

__all__ = ["MatchBatch", "match_pvalues_batch"]

_BLOCK = 2_000_000  # (group, m) cells evaluated at once, as in fairbook.stats.match


def _family(metric: str) -> str:
    """:mod:`fairbook.stats.match`'s family of ``metric``; one without an exact law is an error."""
    family = match._family(metric)
    if family == "other":
        raise ValueError(f"metric {metric!r} has no exact MATCH law")
    return family


def _scores(metric: str, counts: np.ndarray, n: np.ndarray) -> np.ndarray:
    """The observed scores exactly as :func:`fairbook.stats.match.test` computes them."""
    with np.errstate(invalid="ignore", divide="ignore"):
        if metric in BINOMIAL_CELLS:
            i, j = BINOMIAL_CELLS[metric]
            return (counts[:, i] + counts[:, j]) / n
        if metric == "B":
            return (counts[:, 2] - counts[:, 1]) / n
    return np.asarray(compute(metric, counts), dtype=np.float64).reshape(-1)


class MatchBatch:
    """Exact MATCH tails and p-values under one reference law, for many groups at once.

    Parameters
    ----------
    p_ref : array-like of shape (4,)
        The reference's confusion proportions ``[TP, FN, FP, TN]`` (summing to 1).

    Examples
    --------
    >>> batch = MatchBatch([0.375, 0.125, 0.125, 0.375])
    >>> batch.pvalues("ACC", [[40, 10, 10, 40], [30, 20, 20, 30]]).round(4)
    array([0.2977, 0.0014])
    >>> float(batch.min_gap_pvalues("ACC", [5000], gap=0.05)[0]) < 1e-6
    True
    """

    def __init__(self, p_ref) -> None:
        self.p = match._check_p(p_ref)
        self._laws: dict = {}

    # ------------------------------------------------------------------ the laws of m
    def _law(self, metric: str, n: int):
        """``(m, weights, theta)`` of B or a joint-ratio metric at size ``n`` (cached by the
        pair of cells, so a metric and its mirror share it); None when never defined."""
        p = self.p
        if metric == "B":
            key: tuple[object, int] = ("B", n)
            if key not in self._laws:
                p_plus, p_minus, _ = match._b_params(p)
                p_err = p_plus + p_minus
                m = match._bulk(n, p_err)
                weights = stats.binom.pmf(m, n, p_err)
                self._laws[key] = (m, weights)
            m, weights = self._laws[key]
            p_plus, p_minus, _ = match._b_params(p)
            p_err = p_plus + p_minus
            return m, weights, (p_plus / p_err if p_err > 0 else 0.5)
        i, j = JRM_CELLS[metric]
        p_sum = float(p[i] + p[j])
        if p_sum <= 0:
            return None
        key = (frozenset((i, j)), n)
        if key not in self._laws:
            m = match._bulk(n, p_sum, lo=1)
            weights = stats.binom.pmf(m, n, p_sum)
            self._laws[key] = (m, weights / weights.sum())
        m, weights = self._laws[key]
        return m, weights, float(p[i]) / p_sum

    # ------------------------------------------------------------------ tails
    def _mixture_tail(self, metric: str, n: int, values: np.ndarray, upper: bool) -> np.ndarray:
        """``P(S <= value)`` (or ``>=``) at size ``n`` for B or a joint-ratio metric;
        ``values`` are scores (the lattice count for B is taken here, as match does)."""
        law = self._law(metric, n)
        if law is None:
            return np.full(values.shape, np.nan)
        m, weights, theta = law
        k = match._lattice(values, n, upper) if metric == "B" else None
        out = np.empty(values.size, dtype=np.float64)
        step = max(1, _BLOCK // max(m.size, 1))
        for start in range(0, values.size, step):
            block = slice(start, min(values.size, start + step))
            if k is not None:  # B: FP <= floor((k + m) / 2), or FP >= ceil((k + m) / 2)
                total = k[block, None] + m[None, :]
                cut = -((-total) // 2) if upper else total // 2
            elif upper:
                cut = match._ceil(values[block, None] * m[None, :])
            else:
                cut = match._floor(values[block, None] * m[None, :])
            if upper:
                prob = stats.binom.sf(cut - 1, m[None, :], theta)
            else:
                prob = stats.binom.cdf(cut, m[None, :], theta)
            out[block] = prob @ weights
        return out

    def tail(self, metric: str, values, n: int, *, upper: bool = False) -> np.ndarray:
        """``P(S <= value)`` (``upper=False``) or ``P(S >= value)`` for groups of size ``n``.

        Equal to ``fairbook.stats.match.cdf_at(metric, values, p_ref, n)`` (lower tail).

        Examples
        --------
        >>> MatchBatch([0.25] * 4).tail("PPR", [0.0, 0.5, 1.0], 4).round(4).tolist()
        [0.0625, 0.6875, 1.0]
        """
        values = np.asarray(values, dtype=np.float64).reshape(-1)
        if _family(metric) == "binomial":
            prob = float(self.p[list(BINOMIAL_CELLS[metric])].sum())
            k = match._lattice(values, n, upper)
            return stats.binom.sf(k - 1, n, prob) if upper else stats.binom.cdf(k, n, prob)
        return self._mixture_tail(metric, n, values, upper)

    # ------------------------------------------------------------------ p-values
    def pvalues(self, metric: str, counts) -> np.ndarray:
        """Two-sided exact MATCH p-values of groups against the reference.

        Parameters
        ----------
        metric : str
            A metric with an exact MATCH law (binomial, joint-ratio or B).
        counts : array-like of shape (n_groups, 4)
            Integer ``[TP, FN, FP, TN]`` of each group.

        Returns
        -------
        ndarray of float, shape (n_groups,)
            ``fairbook.stats.match.test(metric, counts[g], p_ref)`` for each group; NaN for
            an empty group or an undefined score.
        """
        counts = np.asarray(counts, dtype=np.int64).reshape(-1, 4)
        n = counts.sum(axis=1)
        out = np.full(n.size, np.nan)
        scores = _scores(metric, counts, n)
        ok = (n >= 1) & ~np.isnan(scores)
        if not ok.any():
            return out
        family = _family(metric)
        if family == "binomial":
            idx = np.flatnonzero(ok)
            prob = float(self.p[list(BINOMIAL_CELLS[metric])].sum())
            s, nn = scores[idx], n[idx]
            lower = stats.binom.cdf(match._floor(s * nn), nn, prob)
            upper = stats.binom.sf(match._ceil(s * nn) - 1, nn, prob)
            out[idx] = self._two_sided(lower, upper)
            return out
        centre = float(compute(metric, self.p))
        for size in np.unique(n[ok]):
            idx = np.flatnonzero(ok & (n == size))
            s = scores[idx]
            # the tail on the score's side of the centre first: when it is <= 1/2 it is
            # the smaller (the two tails overlap at S = s, so they sum to at least 1)
            low_first = s <= centre if not math.isnan(centre) else np.ones(s.size, bool)
            first = np.empty(s.size)
            if low_first.any():
                first[low_first] = self._mixture_tail(metric, int(size), s[low_first], False)
            if (~low_first).any():
                first[~low_first] = self._mixture_tail(metric, int(size), s[~low_first], True)
            second = np.full(s.size, np.inf)
            need = ~(first <= 0.5)  # NaN too: then the other tail decides NaN as test does
            for side, upper in ((low_first & need, True), (~low_first & need, False)):
                if side.any():
                    second[side] = self._mixture_tail(metric, int(size), s[side], upper)
            lower = np.where(low_first, first, second)
            upper = np.where(low_first, second, first)
            out[idx] = self._two_sided(lower, upper)
        return out

    @staticmethod
    def _two_sided(lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore"):
            value = np.minimum(1.0, np.maximum(0.0, 2 * np.minimum(lower, upper)))
        return np.where(np.isnan(lower) | np.isnan(upper), np.nan, value)

    def min_gap_pvalues(self, metric: str, sizes, *, gap: float) -> np.ndarray:
        """:func:`fairbook.audit.small_groups.min_gap_pvalue` for each size, computed once
        per distinct size (and with the laws of ``m`` shared with :meth:`pvalues`).

        Examples
        --------
        >>> MatchBatch([0.375, 0.125, 0.125, 0.375]).min_gap_pvalues(
        ...     "ACC", [20, 20, 5000], gap=0.05).round(3).tolist()
        [0.766, 0.766, 0.0]
        """
        from .small_groups import hole_probability, mirror

        sizes = np.asarray(sizes, dtype=np.int64).reshape(-1)
        out = np.full(sizes.size, np.nan)
        p = self.p
        centre = float(compute(metric, p))
        if math.isnan(centre):
            return out
        low_end, high_end = (-1.0, 1.0) if metric == "B" else (0.0, 1.0)
        slack = 1e-12
        other, q = mirror(metric, p)
        mirrored = MatchBatch(q) if metric == "B" else self  # a JRM's mirror: same p
        for size in np.unique(sizes):
            n = int(size)
            if n < 1 or hole_probability(metric, p, n) >= 1.0:
                continue
            values = []
            if centre - gap >= low_end - slack:
                values.append(2 * float(self.tail(metric, [centre - gap], n)[0]))
            if centre + gap <= high_end + slack:
                x = -(centre + gap) if metric == "B" else 1.0 - (centre + gap)
                values.append(2 * float(mirrored.tail(other, [x], n)[0]))
            values = [v for v in values if not math.isnan(v)]
            if values:
                out[sizes == size] = float(min(1.0, min(values)))
        return out


def match_pvalues_batch(metric: str, counts, p_ref) -> np.ndarray:
    """Two-sided exact MATCH p-values of many groups against one reference law.

    The batched form of :func:`fairbook.audit.significance.match_pvalue` (see
    :class:`MatchBatch`).

    Examples
    --------
    >>> match_pvalues_batch("TPR", [[3, 1, 2, 4], [0, 0, 3, 4]], [0.3, 0.1, 0.2, 0.4]).tolist()
    [1.0, nan]
    """
    return MatchBatch(p_ref).pvalues(metric, counts)
