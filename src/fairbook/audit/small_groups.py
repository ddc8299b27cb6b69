"""When is a group too small for a metric? The book's two reasons (seed 003, ch. 4).

Chapter 03 ("Small groups") shows two ways a small group's score misleads, and the audit
flags a group for a metric when either applies at the group's size ``n``, judged under the
reference group's confusion proportions ``p_ref`` (the MATCH law of the comparison):

**Holes** (Theorem 4.3). A joint-ratio metric ``c_i/(c_i + c_j)`` is undefined when its
denominator is 0; a group drawn from the reference is in such a hole with probability
``(1 − p_i − p_j)^n`` (:func:`hole_probability`, the ``p_undefined`` of
:func:`fairbook.stats.match.distribution`). The group is flagged when that probability is at
least α: at that size the metric is often not there at all. Binomial metrics and B have no
holes for ``n >= 1``. The reason quotes Theorem 4.3's count of holes in ``M(n)``
(:func:`fairbook.stats.combinatorics.hole_count_closed_form`).

**Sampling spread** (Fig. 4.1, Sec. 4.5). A gap of ``min_gap`` (0.05, the chapter's
"apparent disparity") between the group and the reference is *detectable* at size ``n``
when a group whose score sits exactly ``min_gap`` away would get a MATCH p-value below α.
:func:`min_gap_pvalue` computes that p-value from the exact law
(:func:`fairbook.stats.match.cdf_at`; the upper tail through the mirrored metric, e.g.
``P(TPR >= x) = P(FNR <= 1 − x)``), in each direction the metric's range allows, and keeps
the smaller. When even that is at least α — before any adjustment for multiple comparisons
— chance alone moves the metric by ``min_gap`` at this size, and the group is flagged: "not
significant" would say nothing about fairness there.

A group whose score is undefined is flagged too, with the metric's reason
(:data:`fairbook.metrics.METRICS` ``undefined_when``).

Beside each flag, :func:`small_group_table` puts (given ``test`` and the reference's counts)
the chosen test's **exact size** at the group's size: the chance that the test flags a group
of that size whose rate is the reference's (:func:`fairbook.stats.group_tests.exact_size`,
chapter 11). The flags themselves stay MATCH's, whatever the test.
"""

from __future__ import annotations

import math

import numpy as np

from fairbook.metrics import METRICS, compute
from fairbook.stats import match
from fairbook.stats.combinatorics import (
    BINOMIAL_CELLS,
    JRM_CELLS,
    hole_count_closed_form,
    n_confusion_matrices,
)

__all__ = [
    "hole_probability",
    "min_gap_pvalue",
    "mirror",
    "small_group_reasons",
    "small_group_table",
]

_FNR_OF = {pair: name for name, pair in JRM_CELLS.items()}
_BINOMIAL_OF = {frozenset(cells): name for name, cells in BINOMIAL_CELLS.items()}


def mirror(metric: str, p_ref) -> tuple[str, np.ndarray]:
    """The metric ``S'`` and cell probabilities under which ``S' = −S`` (B) or ``1 − S``.

    So that ``P(S >= x) = P(S' <= 1 − x)`` (``<= −x`` for B) can use the lower-tail CDF:
    a joint-ratio metric's mirror swaps its two cells (TPR ↔ FNR), a binomial metric's is the
    one over the other two cells (ACC ↔ INACC), and B's is B with FP and FN swapped.

    Examples
    --------
    >>> mirror("TPR", [0.1, 0.2, 0.3, 0.4])[0], mirror("ACC", [0.1, 0.2, 0.3, 0.4])[0]
    ('FNR', 'INACC')
    >>> mirror("B", [0.1, 0.2, 0.3, 0.4])[1].tolist()
    [0.1, 0.3, 0.2, 0.4]
    """
    p = np.asarray(p_ref, dtype=np.float64)
    if metric == "B":
        return "B", p[[0, 2, 1, 3]]
    if metric in JRM_CELLS:
        i, j = JRM_CELLS[metric]
        return _FNR_OF[(j, i)], p
    if metric in BINOMIAL_CELLS:
        return _BINOMIAL_OF[frozenset({0, 1, 2, 3} - set(BINOMIAL_CELLS[metric]))], p
    raise ValueError(f"{metric} has no exact MATCH law")


def hole_probability(metric: str, p_ref, n: int) -> float:
    """Probability that ``metric`` is undefined for a group of ``n`` drawn from ``p_ref``.

    Examples
    --------
    >>> hole_probability("TPR", [0.1, 0.1, 0.4, 0.4], 3)  # (1 - 0.2) ** 3
    0.512
    >>> hole_probability("ACC", [0.1, 0.1, 0.4, 0.4], 3)
    0.0
    """
    if metric not in JRM_CELLS:
        return 0.0
    i, j = JRM_CELLS[metric]
    p_sum = float(p_ref[i] + p_ref[j])
    if p_sum >= 1.0:
        return 0.0
    if p_sum <= 0.0:
        return 1.0
    return round(math.exp(n * math.log1p(-p_sum)), 15)


def _lower_tail(metric: str, x: float, p: np.ndarray, n: int) -> float:
    return float(match.cdf_at(metric, x, p, n))


def min_gap_pvalue(metric: str, p_ref, n: int, *, gap: float) -> float:
    """The MATCH p-value of a group of ``n`` whose score is exactly ``gap`` from the reference.

    Computed under ``p_ref`` in each direction the metric's range allows (rates in [0, 1], B
    in [−1, 1]); the smaller is returned, so a value >= α means that no gap of this size
    could be significant at α with ``n`` people.

    Returns
    -------
    float
        NaN when the reference's score is undefined or no direction fits in the range.

    Examples
    --------
    >>> p = [0.375, 0.125, 0.125, 0.375]        # the reference's ACC is 0.75
    >>> round(min_gap_pvalue("ACC", p, 20, gap=0.05), 3) >= 0.05   # 20 people: no
    True
    >>> min_gap_pvalue("ACC", p, 5000, gap=0.05) < 1e-6            # 5000 people: yes
    True
    """
    p = np.asarray(p_ref, dtype=np.float64)
    centre = float(compute(metric, p))
    if math.isnan(centre) or hole_probability(metric, p, n) >= 1.0:
        return math.nan
    low_end, high_end = (-1.0, 1.0) if metric == "B" else (0.0, 1.0)
    pvalues = []
    slack = 1e-12
    if centre - gap >= low_end - slack:
        pvalues.append(2 * _lower_tail(metric, centre - gap, p, n))
    if centre + gap <= high_end + slack:
        other, q = mirror(metric, p)
        x = -(centre + gap) if metric == "B" else 1.0 - (centre + gap)
        pvalues.append(2 * _lower_tail(other, x, q, n))
    pvalues = [v for v in pvalues if not math.isnan(v)]
    return float(min(1.0, min(pvalues))) if pvalues else math.nan


def small_group_reasons(
    metric: str, cm, p_ref, *, alpha: float = 0.05, min_gap: float = 0.05
) -> dict:
    """Why a group is too small for ``metric`` against a reference, if it is.

    Parameters
    ----------
    metric : str
        A metric with an exact MATCH law.
    cm : array-like of shape (4,)
        The group's counts ``[TP, FN, FP, TN]``.
    p_ref : array-like of shape (4,)
        The reference's confusion proportions.
    alpha, min_gap : float

    Returns
    -------
    dict
        ``p_hole`` (probability of a hole at this size), ``min_gap_p`` (see
        :func:`min_gap_pvalue`), ``small`` (bool) and ``reasons`` (list of sentences, empty
        when the group is large enough).

    Examples
    --------
    >>> r = small_group_reasons("TPR", [1, 0, 2, 8], [0.3, 0.1, 0.2, 0.4])
    >>> r["small"], round(r["p_hole"], 4)   # (1 - 0.3 - 0.1) ** 11
    (True, 0.0036)
    >>> r["reasons"][0][:60]
    'with 11 people a gap of 0.05 in TPR would not be significant'
    """
    cm = np.asarray(cm, dtype=np.int64)
    p = np.asarray(p_ref, dtype=np.float64)
    n = int(cm.sum())
    undefined = math.isnan(float(compute(metric, cm)))
    p_hole = hole_probability(metric, p, n)
    gap_p = min_gap_pvalue(metric, p, n, gap=min_gap)
    reasons = _reasons(metric, n, undefined, p_hole, gap_p, alpha=alpha, min_gap=min_gap)
    return {"p_hole": p_hole, "min_gap_p": gap_p, "small": bool(reasons), "reasons": reasons}


def _reasons(
    metric: str, n: int, undefined: bool, p_hole: float, gap_p: float, *, alpha, min_gap
) -> list[str]:
    """The sentences of :func:`small_group_reasons` from what they depend on."""
    reasons = []
    info = METRICS[metric]
    if undefined:
        reasons.append(f"{metric} is undefined in this group: {info.undefined_when}")
    if not math.isnan(gap_p) and gap_p >= alpha:
        reasons.append(
            f"with {n} people a gap of {min_gap:g} in {metric} would not be significant "
            f"even before adjustment (MATCH p = {gap_p:.2g} >= {alpha:g}): chance alone "
            "moves it that far"
        )
    if p_hole >= alpha:
        holes = hole_count_closed_form(metric, n)
        reasons.append(
            f"{metric} is undefined for {p_hole:.0%} of groups of {n} drawn from the "
            f"reference, whenever {info.undefined_when} (Theorem 4.3: {holes} of the "
            f"{n_confusion_matrices(n):,} confusion matrices of {n} people are holes)"
        )
    return reasons


def small_group_table(
    metric: str,
    counts,
    p_ref,
    *,
    alpha: float = 0.05,
    min_gap: float = 0.05,
    batch=None,
    test: str | None = None,
    reference=None,
) -> dict:
    """:func:`small_group_reasons` of many groups against one reference, at once.

    Everything but "undefined in this group" depends on the group's size alone, so it is
    computed once per distinct size (the MATCH p-value of a ``min_gap`` gap through
    :meth:`fairbook.audit.fast_match.MatchBatch.min_gap_pvalues`), and the reasons are
    joined once per (size, undefined) pair.

    Parameters
    ----------
    metric : str
    counts : array-like of shape (n_groups, 4)
    p_ref : array-like of shape (4,)
    alpha, min_gap : float
    batch : MatchBatch, optional
        A :class:`~fairbook.audit.fast_match.MatchBatch` of ``p_ref`` to share its laws.
    test : str, optional
        With ``reference``: put the exact size of this test
        (:data:`fairbook.audit.rate_tests.TESTS`) beside each flag.
    reference : array-like of shape (4,), optional
        The reference's counts ``[TP, FN, FP, TN]`` (its rate's denominator is the ``N`` of
        the size).

    Returns
    -------
    dict
        Arrays over the groups: ``p_hole``, ``min_gap_p`` (float), ``small`` (bool) and
        ``reasons`` (object: the sentences joined with ``"; "``, ``""`` when none); with
        ``test``, also ``exact_size`` (float: :func:`fairbook.stats.group_tests.exact_size`
        at the group's size, the reference's rate and denominator; NaN where not flagged,
        undefined or not computed) and ``size_note`` (object: why a flag's size is NaN).

    Examples
    --------
    >>> t = small_group_table("TPR", [[1, 0, 2, 8], [300, 100, 200, 400]],
    ...                       [0.3, 0.1, 0.2, 0.4])
    >>> t["small"].tolist(), t["p_hole"].round(4).tolist()
    ([True, False], [0.0036, 0.0])
    >>> t = small_group_table("TPR", [[1, 0, 2, 8], [0, 0, 5, 5]], [0.3, 0.1, 0.2, 0.4],
    ...                       test="fisher", reference=[30, 10, 20, 40])
    >>> t["exact_size"].round(4).tolist(), t["size_note"].tolist()  # 1 actual positive; none
    ([0.0, nan], ['', 'size undefined: no denominator in the group'])
    """
    from .fast_match import MatchBatch

    counts = np.asarray(counts, dtype=np.int64).reshape(-1, 4)
    p = np.asarray(p_ref, dtype=np.float64)
    batch = batch if batch is not None else MatchBatch(p)
    sizes = counts.sum(axis=1)
    undefined = np.isnan(np.asarray(compute(metric, counts), dtype=np.float64).reshape(-1))
    distinct, where = np.unique(sizes, return_inverse=True)
    holes = np.array([hole_probability(metric, p, int(n)) for n in distinct])
    gaps = batch.min_gap_pvalues(metric, distinct, gap=min_gap)
    codes, inverse = np.unique(where * 2 + undefined, return_inverse=True)
    texts = np.empty(codes.size, dtype=object)
    for position, code in enumerate(codes.tolist()):
        d, u = divmod(code, 2)
        texts[position] = "; ".join(
            _reasons(
                metric, int(distinct[d]), bool(u), holes[d], gaps[d], alpha=alpha, min_gap=min_gap
            )
        )
    reasons = texts[inverse.reshape(-1)]
    small = reasons != ""
    out = {"p_hole": holes[where], "min_gap_p": gaps[where], "small": small, "reasons": reasons}
    if test is not None:
        if reference is None:
            raise ValueError("give the reference's counts with test=, for the exact size")
        from .rate_tests import exact_sizes

        sizes, notes = exact_sizes(test, metric, counts, reference, small, alpha=alpha)
        out["exact_size"] = sizes
        out["size_note"] = np.asarray(notes, dtype=object)
    return out
