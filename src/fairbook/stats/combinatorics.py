"""Combinatorics of the space of confusion matrices (seed 003, Section 4.3–4.4).

A confusion matrix of ``n`` samples is a 4-tuple ``[TP, FN, FP, TN]`` of non-negative
integers summing to ``n``. This module counts them (Theorem 4.1), counts how often a
value occurs in one cell (Theorem 4.2), enumerates them all (vectorised), counts the
*holes* of every metric of :func:`fairbook.metrics.compute` by enumeration and sets the
closed forms of Theorem 4.3 beside the counts, and shows Theorem 4.4 (a joint-ratio metric
has no limit at its hole) numerically.

What the enumeration finds about Theorem 4.3 (see :func:`hole_count_table`):

* binomial metrics (0 holes), F1 (1), joint-ratio metrics (n + 1) and MCC (4n) hold for
  every n checked;
* the prevalence threshold's lower bound 2n + 2 holds but is loose (PT is undefined on
  every MCC hole, so it has at least 4n holes), and the upper bound
  ``e^γ n log log n + 0.6483 n / log log n`` (Robin's bound on σ(n)) **fails** for most
  n ≥ 4: TP·TN = FP·FN has more solutions than the divisors of n; the exact count is
  ``2n + 1 + Σ_{d | n} φ(d)·n/d`` (:func:`pt_hole_count_closed_form`);
* treatment equality, a two-group metric, has ``A·N(n_2) + N(n_1)·B − A·B`` holes over
  pairs of matrices (A, B = matrices of each group with FP = 0), not the printed
  ``C(n_1+2, 2) + C(n_2+2, 2) − 1``, which counts the FP = 0 matrices of each group
  rather than the pairs (see :func:`te_hole_table`).
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

from fairbook.metrics import METRICS, compare, compute

__all__ = [
    "BINOMIAL_CELLS",
    "JRM_CELLS",
    "cell_value_count",
    "enumerate_confusion_matrices",
    "hole_count",
    "hole_count_closed_form",
    "hole_counts",
    "indeterminacy_demo",
    "mcc_corner_perturbations",
    "n_confusion_matrices",
    "pt_hole_bounds",
    "pt_hole_count_closed_form",
    "te_hole_count",
    "te_hole_count_closed_form",
    "te_hole_table",
    "hole_count_summary",
    "hole_count_table",
]

#: Cells (indices into ``[TP, FN, FP, TN]``) summed in the numerator of each binomial
#: metric ``(c_i + c_j) / n`` (seed 003 Table 2.2, corrected).
BINOMIAL_CELLS: dict[str, tuple[int, int]] = {
    "ACC": (0, 3),
    "PREV": (0, 1),
    "PPR": (0, 2),
    "INACC": (2, 1),
    "NPREV": (3, 2),
    "PNR": (3, 1),
}

#: ``(i, j)`` of each joint-ratio metric ``c_i / (c_i + c_j)`` (seed 003 Table 2.3,
#: corrected), as indices into ``[TP, FN, FP, TN]``.
JRM_CELLS: dict[str, tuple[int, int]] = {
    "TPR": (0, 1),
    "FPR": (2, 3),
    "TNR": (3, 2),
    "FNR": (1, 0),
    "PPV": (0, 2),
    "NPV": (3, 1),
    "FDR": (2, 0),
    "FOR": (1, 3),
}

_CELL_NAMES = ("TP", "FN", "FP", "TN")
_EULER_GAMMA = 0.5772156649015329


def _check_size(n, *, name: str = "n", minimum: int = 0) -> int:
    """``n`` as a Python int; ValueError unless it is an integer >= ``minimum``."""
    if isinstance(n, bool | np.bool_):
        raise ValueError(f"{name} must be an integer, got {n!r}")
    if not isinstance(n, numbers.Integral):
        if isinstance(n, numbers.Real) and float(n).is_integer():
            n = int(float(n))
        else:
            raise ValueError(f"{name} must be an integer, got {n!r}")
    n = int(n)
    if n < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {n}")
    return n


def _check_metric(metric) -> str:
    if not isinstance(metric, str) or metric.upper() not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; choose one of {', '.join(METRICS)}")
    return metric.upper()


# --------------------------------------------------------------------------- Thm 4.1–4.2
def n_confusion_matrices(n) -> int:
    """Number of confusion matrices with ``n`` samples (Theorem 4.1).

    ``N(n) = C(n + 3, 3) = (n + 1)(n + 2)(n + 3) / 6`` by stars and bars.

    Parameters
    ----------
    n : int
        Number of samples, ``n >= 0``.

    Returns
    -------
    int
        Exact count (a Python int, so it never overflows).

    Examples
    --------
    >>> n_confusion_matrices(1), n_confusion_matrices(2), n_confusion_matrices(100)
    (4, 10, 176851)
    """
    n = _check_size(n)
    return math.comb(n + 3, 3)


def cell_value_count(x, n):
    """How many matrices of ``M(n)`` hold the value ``x`` in a given cell (Theorem 4.2).

    ``C(x; n) = C(n - x + 2, 2) = (n - x + 1)(n - x + 2) / 2``, the ``(n - x + 1)``-th
    triangular number, for ``0 <= x <= n``; 0 outside that range.

    Parameters
    ----------
    x : int or array-like of int
        Cell value(s).
    n : int
        Number of samples, ``n >= 0``.

    Returns
    -------
    int or ndarray of int

    Examples
    --------
    >>> [cell_value_count(x, 2) for x in (2, 1, 0)]  # Eq. 4.6: (1?, 2?, 3?)
    [1, 3, 6]
    >>> cell_value_count([0, 1, 5], 1).tolist()
    [3, 1, 0]
    """
    n = _check_size(n)
    values = np.asarray(x)
    if values.dtype.kind not in "iu":
        if (
            values.dtype.kind != "f"
            or not np.all(np.isfinite(values))
            or not np.all(values == np.round(values))
        ):
            raise ValueError(f"x must be integer-valued, got {x!r}")
        values = values.astype(np.int64)
    values = values.astype(np.int64)
    w = n - values + 1
    out = np.where((values >= 0) & (values <= n), w * (w + 1) // 2, 0)
    return int(out) if out.ndim == 0 else out


def _triangle(n: int) -> tuple[np.ndarray, np.ndarray]:
    """All ``(a, b)`` with ``a + b <= n``, ordered by ``a + b`` then ``a``."""
    s = np.repeat(np.arange(n + 1), np.arange(1, n + 2))
    a = np.arange(s.size) - s * (s + 1) // 2
    return a, s - a


def enumerate_confusion_matrices(n) -> np.ndarray:
    """Every confusion matrix with ``n`` samples, as rows ``[TP, FN, FP, TN]``.

    Built without Python loops: the pairs ``(FN, FP)`` are laid out once by increasing
    ``FN + FP``, so for each ``TP = t`` the admissible pairs are a prefix of that list.

    Parameters
    ----------
    n : int
        Number of samples, ``n >= 0``.

    Returns
    -------
    ndarray of int64, shape (C(n + 3, 3), 4)
        Sorted by TP, then by FN + FP, then by FN.

    Examples
    --------
    >>> enumerate_confusion_matrices(1).tolist()
    [[0, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 0]]
    >>> enumerate_confusion_matrices(10).shape
    (286, 4)
    """
    n = _check_size(n)
    a, b = _triangle(n)
    rest = n - np.arange(n + 1)
    per_tp = (rest + 1) * (rest + 2) // 2
    tp = np.repeat(np.arange(n + 1), per_tp)
    offsets = np.repeat(np.cumsum(per_tp) - per_tp, per_tp)
    index = np.arange(tp.size) - offsets
    fn, fp = a[index], b[index]
    return np.stack([tp, fn, fp, n - tp - fn - fp], axis=1).astype(np.int64)


# --------------------------------------------------------------------------- Thm 4.3
def hole_counts(n, metrics=None) -> dict[str, int]:
    """Holes (undefined scores) of several metrics over ``M(n)``, counted by enumeration.

    Parameters
    ----------
    n : int
        Number of samples, ``n >= 0``.
    metrics : iterable of str, optional
        Metric names of :func:`fairbook.metrics.compute`; all of them by default.

    Returns
    -------
    dict of str to int

    Examples
    --------
    >>> hole_counts(3, ["ACC", "TPR", "MCC"])
    {'ACC': 0, 'TPR': 4, 'MCC': 12}
    """
    n = _check_size(n)
    names = list(METRICS) if metrics is None else [_check_metric(m) for m in metrics]
    cms = enumerate_confusion_matrices(n)
    return {name: int(np.isnan(compute(name, cms)).sum()) for name in names}


def hole_count(metric: str, n) -> int:
    """Number of matrices in ``M(n)`` where ``metric`` is undefined, by enumeration.

    Works for every name of :func:`fairbook.metrics.compute`; the matrices come from
    :func:`enumerate_confusion_matrices` and a hole is a NaN score.

    Parameters
    ----------
    metric : str
        e.g. ``"TPR"``, ``"MCC"``, ``"PT"``.
    n : int
        Number of samples, ``n >= 0`` (at ``n = 0`` the empty matrix is a hole of every
        metric).

    Returns
    -------
    int

    Examples
    --------
    >>> hole_count("PPV", 5), hole_count("F1", 5), hole_count("MCC", 5)
    (6, 1, 20)
    """
    return hole_counts(n, [metric])[_check_metric(metric)]


def pt_hole_bounds(n) -> tuple[int, float | None]:
    """The bounds Theorem 4.3 gives for the holes of the prevalence threshold.

    PT's holes are exactly the matrices with ``TP·TN = FP·FN`` (TPR = FPR, including the
    matrices where TPR or FPR is undefined), which the tests check by enumeration.

    Lower bound ``2n + 2`` (the holes of TPR and FPR); upper bound
    ``e^γ n log log n + 0.6483 n / log log n`` (Robin's unconditional bound on the sum of
    divisors σ(n)), stated for ``n >= 3``. The enumeration shows that the lower bound
    holds (loosely: PT has at least ``4n`` holes) and the upper bound fails for most
    ``n >= 4``; see :func:`hole_count_table`.

    Parameters
    ----------
    n : int
        ``n >= 1``.

    Returns
    -------
    (int, float or None)
        ``(lower, upper)``; ``upper`` is None for ``n < 3``.

    Examples
    --------
    >>> lower, upper = pt_hole_bounds(10)
    >>> lower, round(upper, 1)
    (22, 22.6)
    """
    n = _check_size(n, minimum=1)
    lower = 2 * n + 2
    if n < 3:
        return lower, None
    loglog = math.log(math.log(n))
    return lower, math.exp(_EULER_GAMMA) * n * loglog + 0.6483 * n / loglog


def pt_hole_count_closed_form(n) -> int:
    """Exact number of holes of the prevalence threshold in ``M(n)`` (not in the paper).

    PT is undefined exactly where ``TP·TN = FP·FN``: the 2×2 matrix ``[[TP, FN], [FP,
    TN]]`` has rank ≤ 1. Each such matrix (``n >= 1``) is ``u vᵀ`` for exactly one
    primitive ``u = (a, b)`` (``gcd(a, b) = 1``, non-negative) and one non-zero
    non-negative integer ``v = (c, d)``, with entry sum ``(a + b)(c + d) = n``. For each
    divisor ``s = a + b`` of ``n`` there are ``φ(s)`` primitive ``u`` (2 when ``s = 1``)
    and ``n/s + 1`` vectors ``v``, so

    ``holes(n) = 2n + 1 + Σ_{d | n} φ(d)·n/d = 2n + 1 + Π_{p^k ∥ n} p^(k−1)(p + k(p − 1))``.

    For a prime ``n`` this is ``4n`` (only MCC's holes); in general it grows like
    ``n · Σ_{d|n} φ(d)/d`` (``(6/π²) n ln n`` on average, and faster than any
    ``C n log log n`` along highly composite ``n``), which is why Theorem 4.3's
    Robin-type upper bound fails.

    Parameters
    ----------
    n : int
        ``n >= 1``.

    Returns
    -------
    int

    Examples
    --------
    >>> [pt_hole_count_closed_form(n) for n in (1, 3, 4, 10)]
    [4, 12, 17, 48]
    >>> pt_hole_count_closed_form(10) == hole_count("PT", 10)
    True
    """
    n = _check_size(n, minimum=1)
    product, rest, p = 1, n, 2
    while p * p <= rest:
        k = 0
        while rest % p == 0:
            rest //= p
            k += 1
        if k:
            product *= p ** (k - 1) * (p + k * (p - 1))
        p += 1
    if rest > 1:  # a remaining prime factor with k = 1
        product *= 2 * rest - 1
    return 2 * n + 1 + product


def hole_count_closed_form(metric: str, n) -> int | None:
    """Hole count that Theorem 4.3 states for ``metric`` at ``n`` samples.

    ============================  ==============
    binomial metrics              0
    F1                            1
    joint-ratio metrics           n + 1
    MCC                           4n
    PT, B                         None (PT: only bounds, see :func:`pt_hole_bounds`;
                                  B is not in the theorem)
    ============================  ==============

    Parameters
    ----------
    metric : str
        A name of :func:`fairbook.metrics.compute`.
    n : int
        ``n >= 1`` (the theorem's range).

    Returns
    -------
    int or None

    Examples
    --------
    >>> hole_count_closed_form("TPR", 7), hole_count_closed_form("MCC", 7)
    (8, 28)
    >>> hole_count_closed_form("PT", 7) is None
    True
    """
    key = _check_metric(metric)
    n = _check_size(n, minimum=1)
    if key in BINOMIAL_CELLS:
        return 0
    if key in JRM_CELLS:
        return n + 1
    return {"F1": 1, "MCC": 4 * n}.get(key)


def hole_count_table(n_max: int = 60, *, n_min: int = 1, metrics=None) -> pd.DataFrame:
    """Theorem 4.3 checked by enumeration, one row per metric and ``n``.

    Parameters
    ----------
    n_max : int, default 60
        Largest number of samples checked.
    n_min : int, default 1
        Smallest (the theorem starts at 1).
    metrics : iterable of str, optional
        Names of :func:`fairbook.metrics.compute`; all of them by default.

    Returns
    -------
    pandas.DataFrame
        Columns ``metric, family, n, enumerated, closed_form, lower_bound, upper_bound,
        holds_lower, holds_upper, agrees``. ``closed_form`` is ``<NA>`` where the theorem
        states none (PT, B); for PT ``agrees`` means *both* printed bounds hold
        (``lower <= enumerated < upper``; the upper bound is stated only for n >= 3, so
        below that only the lower bound is checked). ``agrees`` is ``<NA>`` for B.

    Examples
    --------
    >>> table = hole_count_table(6, metrics=["MCC", "PT"])
    >>> table[table.metric == "MCC"].agrees.all()
    np.True_
    >>> table[(table.metric == "PT") & (table.n == 6)][["enumerated", "upper_bound"]].round(1)
        enumerated  upper_bound
    11          28         12.9
    """
    n_min = _check_size(n_min, name="n_min", minimum=1)
    n_max = _check_size(n_max, name="n_max", minimum=n_min)
    names = list(METRICS) if metrics is None else [_check_metric(m) for m in metrics]
    rows = []
    for n in range(n_min, n_max + 1):
        counts = hole_counts(n, names)
        for name in names:
            closed = hole_count_closed_form(name, n)
            lower = upper = None
            holds_lower = holds_upper = None
            if name == "PT":
                lower, upper = pt_hole_bounds(n)
                holds_lower = counts[name] >= lower
                holds_upper = None if upper is None else counts[name] < upper
                agrees = holds_lower and (holds_upper is not False)
            elif closed is not None:
                agrees = counts[name] == closed
            else:
                agrees = None
            rows.append(
                {
                    "metric": name,
                    "family": METRICS[name].family,
                    "n": n,
                    "enumerated": counts[name],
                    "closed_form": closed,
                    "lower_bound": lower,
                    "upper_bound": upper,
                    "holds_lower": holds_lower,
                    "holds_upper": holds_upper,
                    "agrees": agrees,
                }
            )
    table = pd.DataFrame(rows)
    table["closed_form"] = table["closed_form"].astype("Int64")
    table["lower_bound"] = table["lower_bound"].astype("Int64")
    table["upper_bound"] = table["upper_bound"].astype("Float64")
    for column in ("holds_lower", "holds_upper", "agrees"):
        table[column] = table[column].astype("boolean")
    return table


def _runs(values) -> str:
    """Integers as a list with runs of consecutive values joined (nothing left out).

    Examples
    --------
    >>> _runs([4, 5, 6, 7, 9, 12, 13]), _runs([]), _runs([3])
    ('4–7, 9, 12–13', '', '3')
    """
    parts, values = [], sorted(int(v) for v in values)
    start = previous = None
    for value in [*values, None]:
        if value is not None and previous is not None and value == previous + 1:
            previous = value
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start}–{previous}")
        start = previous = value
    return ", ".join(parts)


def hole_count_summary(table: pd.DataFrame) -> pd.DataFrame:
    """One line per metric of a :func:`hole_count_table`: where the theorem holds.

    Parameters
    ----------
    table : pandas.DataFrame
        Output of :func:`hole_count_table`.

    Returns
    -------
    pandas.DataFrame
        Columns ``metric, family, stated, n_checked, n_agree, n_disagree,
        first_disagreement, disagreements`` (the latter lists the ``n`` that fail, runs of
        consecutive ``n`` as ``4–60``). ``stated`` is what the theorem prints.

    Examples
    --------
    >>> summary = hole_count_summary(hole_count_table(8, metrics=["TPR", "PT"]))
    >>> summary[["metric", "n_agree", "n_disagree", "first_disagreement"]]
      metric  n_agree  n_disagree  first_disagreement
    0    TPR        8           0                <NA>
    1     PT        3           5                   4
    """
    stated = {"binomial": "0", "joint ratio": "n + 1"}
    rows = []
    for name, group in table.groupby("metric", sort=False):
        checked = group[group["agrees"].notna()]
        failing = checked.loc[~checked["agrees"].astype(bool), "n"].tolist()
        family = group["family"].iloc[0]
        if name == "F1":
            text = "1"
        elif name == "MCC":
            text = "4n"
        elif name == "PT":
            text = "2n + 2 <= holes < e^γ n loglog n + 0.6483 n / loglog n (n >= 3)"
        elif name == "B":
            text = "(not in the theorem)"
        else:
            text = stated.get(family, "")
        shown = _runs(failing)
        rows.append(
            {
                "metric": name,
                "family": family,
                "stated": text,
                "n_checked": len(checked),
                "n_agree": len(checked) - len(failing),
                "n_disagree": len(failing),
                "first_disagreement": failing[0] if failing else None,
                "disagreements": shown,
            }
        )
    out = pd.DataFrame(rows)
    out["first_disagreement"] = out["first_disagreement"].astype("Int64")
    return out


# --------------------------------------------------------------------------- TE (two groups)
def te_hole_count(n1, n2) -> int:
    """Holes of treatment equality over all pairs of matrices of sizes ``n1`` and ``n2``.

    Counted by evaluating :func:`fairbook.metrics.compare` ``("TE", ...)`` on every pair
    (``N(n1) · N(n2)`` of them; keep the sizes small).

    Parameters
    ----------
    n1, n2 : int
        Sizes of the two groups, ``>= 1``; ``N(n1)·N(n2)`` must stay below 5e6.

    Returns
    -------
    int

    Examples
    --------
    >>> te_hole_count(1, 1)
    15
    """
    n1 = _check_size(n1, name="n1", minimum=1)
    n2 = _check_size(n2, name="n2", minimum=1)
    if n_confusion_matrices(n1) * n_confusion_matrices(n2) > 5_000_000:
        raise ValueError("te_hole_count enumerates N(n1)·N(n2) pairs; keep it below 5e6")
    a = enumerate_confusion_matrices(n1)[:, None, :]
    b = enumerate_confusion_matrices(n2)[None, :, :]
    return int(np.isnan(compare("TE", a, b)).sum())


def te_hole_count_closed_form(n1, n2, *, as_printed: bool = False) -> int:
    """Closed form for the holes of treatment equality over pairs of matrices.

    TE is undefined when ``FP_1 = 0`` or ``FP_2 = 0``. With ``A = C(n1 + 2, 2)`` matrices
    of group 1 having ``FP = 0`` (and ``B`` likewise), inclusion–exclusion over pairs gives
    ``A·N(n2) + N(n1)·B − A·B``. ``as_printed=True`` returns Theorem 4.3's
    ``C(n1 + 2, 2) + C(n2 + 2, 2) − 1`` instead, which the enumeration contradicts.

    Parameters
    ----------
    n1, n2 : int
        Sizes of the two groups, ``>= 1``.
    as_printed : bool, default False
        Return the theorem's printed expression.

    Returns
    -------
    int

    Examples
    --------
    >>> te_hole_count_closed_form(1, 1), te_hole_count_closed_form(1, 1, as_printed=True)
    (15, 5)
    """
    n1 = _check_size(n1, name="n1", minimum=1)
    n2 = _check_size(n2, name="n2", minimum=1)
    a, b = math.comb(n1 + 2, 2), math.comb(n2 + 2, 2)
    if as_printed:
        return a + b - 1
    return a * n_confusion_matrices(n2) + n_confusion_matrices(n1) * b - a * b


def te_hole_table(n_max: int = 8) -> pd.DataFrame:
    """Treatment-equality holes for all ``1 <= n2 <= n1 <= n_max``: enumerated vs both forms.

    Parameters
    ----------
    n_max : int, default 8
        Largest group size (the enumeration grows like ``n_max⁶``).

    Returns
    -------
    pandas.DataFrame
        Columns ``n1, n2, enumerated, closed_form, printed, agrees, printed_agrees``.

    Examples
    --------
    >>> t = te_hole_table(3)
    >>> bool(t.agrees.all()), bool(t.printed_agrees.any())
    (True, False)
    """
    n_max = _check_size(n_max, name="n_max", minimum=1)
    rows = []
    for n1 in range(1, n_max + 1):
        for n2 in range(1, n1 + 1):
            enumerated = te_hole_count(n1, n2)
            closed = te_hole_count_closed_form(n1, n2)
            printed = te_hole_count_closed_form(n1, n2, as_printed=True)
            rows.append(
                {
                    "n1": n1,
                    "n2": n2,
                    "enumerated": enumerated,
                    "closed_form": closed,
                    "printed": printed,
                    "agrees": enumerated == closed,
                    "printed_agrees": enumerated == printed,
                }
            )
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- Thm 4.4
def indeterminacy_demo(
    metric: str = "FPR",
    *,
    n: int = 10,
    ratios=(0.0, 0.25, 1.0, 4.0, math.inf),
    scales=(1.0, 1e-3, 1e-6, 1e-9),
) -> pd.DataFrame:
    """Theorem 4.4 numerically: a joint-ratio metric has no limit at its hole.

    The hole of ``M = c_i / (c_i + c_j)`` is ``c_i = c_j = 0``. Approaching it along the
    path ``c_i = r · c_j`` (real-valued counts, ``c_i + c_j = t → 0``, the other two cells
    holding ``n``) gives the constant ``M = r / (r + 1)`` for every ``t``, so the limit
    depends on the path (any value in [0, 1]): the hole is indeterminate, not merely
    undefined. The row ``path == "at the hole"`` is the score at ``c_i = c_j = 0`` (NaN),
    and rows ``path.startswith("convention")`` give three readings of ``0/0`` the proof
    mentions (``N/N = 1``, ``0/N = 0``, the naive prior ``(c_i + 1)/(c_i + c_j + 2) =
    1/2``).

    Parameters
    ----------
    metric : str, default "FPR"
        A joint-ratio metric (``TPR FPR TNR FNR PPV NPV FDR FOR``).
    n : int, default 10
        Mass held by the two cells outside the ratio.
    ratios : sequence of float
        Values of ``r = c_i / c_j`` (``inf`` means ``c_j = 0``).
    scales : sequence of float
        Values of ``t = c_i + c_j``.

    Returns
    -------
    pandas.DataFrame
        Columns ``metric, path, r, t, TP, FN, FP, TN, value, limit``.

    Examples
    --------
    >>> demo = indeterminacy_demo("TPR", ratios=(0.0, 1.0, math.inf), scales=(1e-6,))
    >>> demo[demo.path == "c_i = r c_j"].value.tolist()
    [0.0, 0.5, 1.0]
    """
    key = _check_metric(metric)
    if key not in JRM_CELLS:
        raise ValueError(f"{key} is not a joint-ratio metric; choose one of {', '.join(JRM_CELLS)}")
    n = _check_size(n, minimum=1)
    i, j = JRM_CELLS[key]
    others = [k for k in range(4) if k not in (i, j)]
    rows = []

    def add(path, r, t, ci, cj, value=None, limit=None):
        cm = np.zeros(4)
        cm[i], cm[j] = ci, cj
        cm[others[0]], cm[others[1]] = n / 2, n / 2
        score = compute(key, cm) if value is None else value
        rows.append(
            {
                "metric": key,
                "path": path,
                "r": r,
                "t": t,
                **dict(zip(_CELL_NAMES, cm.tolist(), strict=True)),
                "value": score,
                "limit": score if limit is None else limit,
            }
        )

    for r in ratios:
        r = float(r)
        if r < 0 or math.isnan(r):
            raise ValueError(f"ratios must be >= 0 (counts are non-negative), got {r}")
        for t in scales:
            t = float(t)
            if not t > 0:
                raise ValueError(f"scales must be > 0, got {t}")
            ci, cj = (t, 0.0) if math.isinf(r) else (t * r / (r + 1), t / (r + 1))
            add("c_i = r c_j", r, t, ci, cj, limit=1.0 if math.isinf(r) else r / (r + 1))
    add("at the hole", math.nan, 0.0, 0.0, 0.0)  # NaN: undefined
    for label, value in (("N/N = 1", 1.0), ("0/N = 0", 0.0), ("(c_i+1)/(c_i+c_j+2)", 0.5)):
        add(f"convention: {label}", math.nan, 0.0, 0.0, 0.0, value=value)
    return pd.DataFrame(rows)


def mcc_corner_perturbations(n: int = 10) -> pd.DataFrame:
    """MCC at its four corner holes (one cell holds all ``n``) and one step away.

    Moving one sample from the full cell to another either stays a hole (same row or
    column) or gives ±1, so the corners are indeterminate too (seed 003, after Thm 4.4).

    Parameters
    ----------
    n : int, default 10
        Group size, ``>= 2``.

    Returns
    -------
    pandas.DataFrame
        Columns ``corner, moved_to, TP, FN, FP, TN, MCC``.

    Examples
    --------
    >>> t = mcc_corner_perturbations(5)
    >>> t[t.corner == "TP"].MCC.tolist()
    [nan, nan, 1.0]
    """
    n = _check_size(n, minimum=2)
    rows = []
    for corner in range(4):
        for target in range(4):
            if target == corner:
                continue
            cm = np.zeros(4, dtype=np.int64)
            cm[corner], cm[target] = n - 1, 1
            rows.append(
                {
                    "corner": _CELL_NAMES[corner],
                    "moved_to": _CELL_NAMES[target],
                    **dict(zip(_CELL_NAMES, cm.tolist(), strict=True)),
                    "MCC": compute("MCC", cm),
                }
            )
    return pd.DataFrame(rows)
