"""How stable is a fairness verdict: flip rates, favoured groups and group size.

A *verdict* turns a metric's value into "fair" (0.0) or "unfair" (1.0) by a named rule
(:data:`RULES`) with a threshold; an undefined value gives an undefined verdict (NaN). A
*source of variation* — fixed-seed identical runs, seeds, bootstrap resamples of the test
set, training settings, the choice of metric — gives one verdict per variant, and

* :func:`flip_rate` is the share of **pairs of variants that disagree**: with ``m`` defined
  verdicts of which ``k`` say unfair, ``k (m − k) / C(m, 2)``. It is 0 for a verdict that
  never changes and reaches ``m / (2 (m − 1))`` when the variants split evenly; for
  independent draws with probability ``p`` of "unfair" it is an unbiased estimate of
  ``2 p (1 − p)``, the chance that two independent variants disagree. With ``reference``
  it is instead the share of variants that disagree with a reference verdict.
* :func:`flip_rates` applies it to a long table, one rate per verdict.
* :func:`favoured` names the group a metric favours (+1: group *i*, −1: the reference
  *j*, 0: neither), :func:`disagreement` whether metrics name different favoured groups,
  :func:`pairwise_disagreement` how often each pair of metrics does.
* :func:`comparison_values` computes DI, OFI and equal opportunity (``EOpp`` = TPR_i − TPR_j)
  of every group against a reference from per-group confusion counts, batched over runs;
  :func:`group_counts` builds those counts (for several prediction vectors or bootstrap
  resamples at once) and :func:`bootstrap_indices` draws stratified resamples.
* :func:`flip_rate_by_size` subsamples a large group to smaller sizes and measures how often
  its verdict flips across runs and across samples at each size.

Examples
--------
>>> flip_rate([1, 1, 1, 1])
0.0
>>> flip_rate([1, 0, 1, 0])  # 4 of the 6 pairs disagree
0.6666666666666666
>>> verdicts([0.7, 0.9, 1.3, float("nan")], rule="ratio", threshold=0.8).tolist()
[1.0, 0.0, 1.0, nan]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from fairbook.metrics import compare, compute

__all__ = [
    "COMPARISON_METRICS",
    "PIVOTS",
    "RULES",
    "bootstrap_indices",
    "comparison_table",
    "comparison_values",
    "disagreement",
    "favoured",
    "flip_rate",
    "flip_rate_by_size",
    "flip_rates",
    "group_counts",
    "pairwise_disagreement",
    "verdicts",
]

#: The verdict rules: name → what "unfair" means for a value ``v`` and threshold ``t``.
RULES = {
    "ratio": "unfair when v < t or v > 1/t (0 < t < 1; DI's four-fifths rule at t = 0.8)",
    "difference": "unfair when |v| > t (t ≥ 0; a gap between two groups)",
    "above": "unfair when v > t (a non-negative bias score, e.g. seed 004's DI_BAR)",
}

#: Group comparisons :func:`comparison_values` computes, group i against reference j.
COMPARISON_METRICS = ("DI", "OFI", "EOpp")

#: The value at which each comparison favours neither group.
PIVOTS = {"DI": 1.0, "OFI": 0.0, "EOpp": 0.0}


def verdicts(values, *, rule: str, threshold: float) -> np.ndarray:
    """Fair (0.0) / unfair (1.0) verdicts of metric values; NaN where the value is.

    Parameters
    ----------
    values : array-like of float
    rule : str
        A key of :data:`RULES`.
    threshold : float

    Returns
    -------
    ndarray of float
        The verdicts, shaped like ``values``.

    Examples
    --------
    >>> verdicts([0.03, -0.08], rule="difference", threshold=0.05).tolist()
    [0.0, 1.0]
    """
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r}; choose one of {', '.join(RULES)}")
    threshold = float(threshold)
    if rule == "ratio" and not 0.0 < threshold < 1.0:
        raise ValueError(f"a ratio rule needs 0 < threshold < 1, got {threshold}")
    if rule == "difference" and not threshold >= 0.0:
        raise ValueError(f"a difference rule needs threshold >= 0, got {threshold}")
    v = np.asarray(values, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        if rule == "ratio":
            unfair = (v < threshold) | (v > 1.0 / threshold)
        elif rule == "difference":
            unfair = np.abs(v) > threshold
        else:
            unfair = v > threshold
    return np.where(np.isnan(v), np.nan, unfair.astype(np.float64))


def _as_verdicts(values, name: str = "verdicts") -> np.ndarray:
    v = np.asarray(values, dtype=np.float64)
    bad = ~np.isnan(v) & (v != 0.0) & (v != 1.0)
    if bad.any():
        raise ValueError(f"{name} must be 0, 1 or NaN, got {v[bad][:3].tolist()}")
    return v


def flip_rate(values, *, axis: int = -1, reference=None):
    """Share of pairs of variants whose verdicts disagree (or of variants that disagree
    with ``reference``), over the defined verdicts along ``axis``.

    Parameters
    ----------
    values : array-like of {0, 1, NaN}
        Verdicts (booleans allowed); NaN = undefined, left out.
    axis : int, default -1
        The axis of the variants.
    reference : array-like of {0, 1, NaN}, optional
        The verdict each variant is compared with (broadcast against the other axes).

    Returns
    -------
    float or ndarray
        ``k (m − k) / C(m, 2)`` for ``m`` defined verdicts of which ``k`` are 1; NaN where
        fewer than two verdicts are defined (with ``reference``: the share of defined
        verdicts that differ from it; NaN where none is defined or the reference is not).

    Examples
    --------
    >>> flip_rate([[1, 1, 0], [0, 0, 0]]).tolist()
    [0.6666666666666666, 0.0]
    >>> flip_rate([1, 1, 0, float("nan")], reference=1)
    0.3333333333333333
    """
    v = np.moveaxis(_as_verdicts(values), axis, -1)
    defined = ~np.isnan(v)
    m = defined.sum(axis=-1)
    if reference is not None:
        ref = _as_verdicts(reference, "reference")
        ref = np.broadcast_to(np.asarray(ref)[..., None], v.shape)
        differ = (v != ref) & defined & ~np.isnan(ref)
        counted = defined & ~np.isnan(ref)
        n = counted.sum(axis=-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.where(n > 0, differ.sum(axis=-1) / np.maximum(n, 1), np.nan)
    else:
        k = np.where(defined, v, 0.0).sum(axis=-1)
        pairs = m * (m - 1) / 2.0
        out = np.where(m >= 2, k * (m - k) / np.maximum(pairs, 1.0), np.nan)
    return float(out) if np.ndim(out) == 0 else out


def flip_rates(
    table: pd.DataFrame,
    *,
    by: Sequence[str],
    verdict: str = "unfair",
    reference: str | None = None,
) -> pd.DataFrame:
    """One :func:`flip_rate` per verdict of a long table (one row per variant).

    Parameters
    ----------
    table : pandas.DataFrame
        A column ``verdict`` (0/1/NaN or bool) and the columns ``by``.
    by : sequence of str
        The columns that name one verdict (e.g. attribute, group, metric, source).
    verdict : str, default "unfair"
    reference : str, optional
        A boolean column marking the reference variant of each verdict; then the rate is
        the share of the other variants that disagree with it.

    Returns
    -------
    pandas.DataFrame
        ``by`` columns, ``variants`` (defined verdicts), ``share_unfair`` and
        ``flip_rate``, in the order of first appearance.

    Examples
    --------
    >>> t = pd.DataFrame({"metric": ["DI"] * 4 + ["OFI"] * 4,
    ...                   "unfair": [1, 0, 1, 0, 1, 1, 1, 1]})
    >>> flip_rates(t, by=["metric"])["flip_rate"].round(3).tolist()
    [0.667, 0.0]
    """
    missing = [c for c in (*by, verdict) if c not in table.columns]
    if missing:
        raise ValueError(f"table has no column(s) {missing}")
    if not by:
        raise ValueError("by must name at least one column")
    rows = []
    for key, part in table.groupby(list(by), sort=False, dropna=False):
        v = _as_verdicts(part[verdict].to_numpy(dtype=np.float64), verdict)
        if reference is not None:
            is_ref = part[reference].to_numpy(dtype=bool)
            if is_ref.sum() != 1:
                raise ValueError(
                    f"each verdict needs exactly one reference row, got {is_ref.sum()}"
                )
            rate = flip_rate(v[~is_ref], reference=v[is_ref][0])
        else:
            rate = flip_rate(v)
        defined = v[~np.isnan(v)]
        rows.append(
            {
                **dict(zip(by, key if isinstance(key, tuple) else (key,), strict=True)),
                "variants": int(defined.size),
                "share_unfair": float(defined.mean()) if defined.size else np.nan,
                "flip_rate": rate,
            }
        )
    return pd.DataFrame(rows, columns=[*by, "variants", "share_unfair", "flip_rate"])


def favoured(values, *, pivot: float) -> np.ndarray:
    """The group a comparison favours: +1.0 group *i* (value above ``pivot``), −1.0 the
    reference (below), 0.0 neither, NaN undefined.

    Examples
    --------
    >>> favoured([1.2, 0.9, 1.0, float("nan")], pivot=1.0).tolist()
    [1.0, -1.0, 0.0, nan]
    """
    v = np.asarray(values, dtype=np.float64)
    return np.sign(v - float(pivot))


def disagreement(directions, *, axis: int = -1):
    """Whether the metrics along ``axis`` name different favoured groups: 1.0 when two
    defined directions differ (a tie, 0, differs from +1 and −1), 0.0 when all agree,
    NaN when fewer than two are defined.

    Examples
    --------
    >>> disagreement([[1, 1, 1], [1, -1, 1], [1, float("nan"), float("nan")]]).tolist()
    [0.0, 1.0, nan]
    """
    d = np.moveaxis(np.asarray(directions, dtype=np.float64), axis, -1)
    defined = ~np.isnan(d)
    hi = np.where(defined, d, -np.inf).max(axis=-1)
    lo = np.where(defined, d, np.inf).min(axis=-1)
    out = np.where(defined.sum(axis=-1) >= 2, (hi != lo).astype(np.float64), np.nan)
    return float(out) if np.ndim(out) == 0 else out


def pairwise_disagreement(directions: pd.DataFrame) -> pd.DataFrame:
    """For each pair of metric columns, the share of rows (comparisons) where both are
    defined and name different favoured groups; ``n`` counts those rows.

    Examples
    --------
    >>> d = pd.DataFrame({"DI": [1, 1, -1], "OFI": [1, -1, -1], "EOpp": [1, 1, 1]})
    >>> pairwise_disagreement(d)[["pair", "share"]].round(3).values.tolist()
    [['DI vs OFI', 0.333], ['DI vs EOpp', 0.333], ['OFI vs EOpp', 0.667]]
    """
    cols = list(directions.columns)
    rows = []
    for a_i, a in enumerate(cols):
        for b in cols[a_i + 1 :]:
            x = directions[a].to_numpy(dtype=np.float64)
            y = directions[b].to_numpy(dtype=np.float64)
            both = ~np.isnan(x) & ~np.isnan(y)
            n = int(both.sum())
            share = float((x[both] != y[both]).mean()) if n else np.nan
            rows.append({"pair": f"{a} vs {b}", "n": n, "share": share})
    return pd.DataFrame(rows, columns=["pair", "n", "share"])


def _codes(groups) -> tuple[np.ndarray, np.ndarray]:
    labels, codes = np.unique(np.asarray(groups).astype(str), return_inverse=True)
    return labels, codes.reshape(-1)


def group_counts(y_true, y_pred, groups, *, index=None) -> tuple[np.ndarray, np.ndarray]:
    """Per-group confusion counts ``[TP, FN, FP, TN]`` of one or many prediction vectors.

    Parameters
    ----------
    y_true : array-like of {0, 1}, shape (n,)
    y_pred : array-like of {0, 1}, shape (n,) or (r, n)
        One prediction vector or ``r`` of them (runs).
    groups : array-like, shape (n,)
        Group labels (compared as text).
    index : array-like of int, shape (b, n), optional
        Row indices of ``b`` resamples (see :func:`bootstrap_indices`); with it ``y_pred``
        must be 1-d.

    Returns
    -------
    counts : ndarray of int, shape (G, 4), (r, G, 4) or (b, G, 4)
    labels : ndarray of str, shape (G,)
        The sorted group labels.

    Examples
    --------
    >>> counts, labels = group_counts([1, 0, 1, 0], [1, 1, 0, 0], ["a", "a", "b", "b"])
    >>> labels.tolist(), counts.tolist()
    (['a', 'b'], [[1, 0, 1, 0], [0, 1, 0, 1]])
    """
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    labels, codes = _codes(groups)
    if y_true.ndim != 1 or codes.shape != y_true.shape or y_pred.shape[-1] != y_true.size:
        raise ValueError(
            f"y_true {y_true.shape}, y_pred {y_pred.shape} and groups must share length n"
        )
    for name, arr in (("y_true", y_true), ("y_pred", y_pred)):
        if not np.isin(arr, (0, 1)).all():
            raise ValueError(f"{name} must hold only 0 and 1")
    cell = (1 - y_true.astype(np.int64)) * 2 + (1 - y_pred.astype(np.int64))
    # cell: TP 0, FN 1, FP 2, TN 3 (y_true 1 / y_pred 1 → 0, 1/0 → 1, 0/1 → 2, 0/0 → 3)
    n_groups = labels.size
    if index is not None:
        if y_pred.ndim != 1:
            raise ValueError("with index, y_pred must be one vector")
        index = np.asarray(index)
        if index.ndim != 2 or (index.size and (index.min() < 0 or index.max() >= y_true.size)):
            raise ValueError("index must be a (b, n) array of row positions")
        key = codes[index] * 4 + cell[index]
    else:
        key = codes * 4 + cell
    key = np.atleast_2d(key)
    offset = np.arange(key.shape[0])[:, None] * n_groups * 4
    flat = np.bincount((key + offset).ravel(), minlength=key.shape[0] * n_groups * 4)
    counts = flat.reshape(key.shape[0], n_groups, 4)
    if index is None and y_pred.ndim == 1:
        counts = counts[0]
    return counts, labels


def comparison_values(
    counts, *, reference: int, metrics: Sequence[str] = COMPARISON_METRICS
) -> np.ndarray:
    """Every group against the reference group, for each metric.

    ``DI`` and ``OFI`` are :func:`fairbook.metrics.compare`'s (seed 003); ``EOpp`` is the
    equal-opportunity difference ``TPR_i − TPR_j``. A positive OFI or EOpp, or a DI above
    1, favours group *i* when the positive label is the beneficial outcome.

    Parameters
    ----------
    counts : array-like, shape (..., G, 4)
    reference : int
        Position of the reference group on the ``G`` axis.
    metrics : sequence of str
        From :data:`COMPARISON_METRICS`.

    Returns
    -------
    ndarray, shape (..., G, M)
        NaN where undefined; the reference's own row compares it with itself.

    Examples
    --------
    >>> cm = [[4, 1, 1, 4], [2, 3, 1, 4]]
    >>> comparison_values(cm, reference=0)[1].round(3).tolist()
    [0.6, -0.2, -0.4]
    """
    cm = np.asarray(counts, dtype=np.float64)
    if cm.ndim < 2 or cm.shape[-1] != 4:
        raise ValueError(f"counts must be shaped (..., G, 4), got {cm.shape}")
    if not 0 <= reference < cm.shape[-2]:
        raise ValueError(f"reference {reference} is not a group position (G = {cm.shape[-2]})")
    unknown = [m for m in metrics if m not in COMPARISON_METRICS]
    if unknown:
        raise ValueError(f"unknown metrics {unknown}; choose from {COMPARISON_METRICS}")
    ref = cm[..., reference : reference + 1, :]
    out = []
    for metric in metrics:
        if metric == "EOpp":
            with np.errstate(invalid="ignore"):
                out.append(np.asarray(compute("TPR", cm) - compute("TPR", ref)))
        else:
            out.append(np.asarray(compare(metric, cm, ref)))
    return np.stack(out, axis=-1)


def comparison_table(
    y_true,
    y_pred,
    groups,
    *,
    reference,
    metrics: Sequence[str] = COMPARISON_METRICS,
    index=None,
    variants: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Long table of :func:`comparison_values`: one row per variant × group × metric.

    Parameters
    ----------
    y_true, y_pred, groups, index
        As in :func:`group_counts` (``y_pred`` shaped (r, n) or ``index`` (b, n) gives
        r or b variants).
    reference : label
        The reference group (compared as text); its own rows are left out.
    metrics : sequence of str
    variants : sequence of str, optional
        Names of the variants (default ``"0"``, ``"1"``, …).

    Returns
    -------
    pandas.DataFrame
        ``variant, group, n, metric, value``; ``n`` is the group's size in the variant.

    Examples
    --------
    >>> t = comparison_table([1, 0, 1, 0], [1, 1, 1, 0], ["a", "a", "b", "b"], reference="b")
    >>> t[["group", "metric", "value"]].values.tolist()
    [['a', 'DI', 2.0], ['a', 'OFI', 0.5], ['a', 'EOpp', 0.0]]
    """
    counts, labels = group_counts(y_true, y_pred, groups, index=index)
    counts = counts.reshape(-1, *counts.shape[-2:])
    hits = np.flatnonzero(labels == str(reference))
    if hits.size == 0:
        raise ValueError(f"reference {reference!r} is not a group of {labels.tolist()}")
    values = comparison_values(counts, reference=int(hits[0]), metrics=metrics)
    r, g, m = values.shape
    names = list(variants) if variants is not None else [str(i) for i in range(r)]
    if len(names) != r:
        raise ValueError(f"{len(names)} variant names for {r} variants")
    frame = pd.DataFrame(
        {
            "variant": np.repeat(names, g * m),
            "group": np.tile(np.repeat(labels, m), r),
            "n": np.repeat(counts.sum(axis=-1).reshape(-1), m),
            "metric": np.tile(list(metrics), r * g),
            "value": values.reshape(-1),
        }
    )
    return frame[frame["group"] != str(reference)].reset_index(drop=True)


def bootstrap_indices(groups, *, n_boot: int, seed: int = 0) -> np.ndarray:
    """Row indices of ``n_boot`` bootstrap resamples, stratified by group (every group
    keeps its size, so none disappears from a resample).

    Examples
    --------
    >>> idx = bootstrap_indices(["a", "a", "b"], n_boot=2, seed=0)
    >>> idx.shape, sorted(set(idx[:, 2].tolist()))
    ((2, 3), [2])
    """
    if not isinstance(n_boot, int) or n_boot < 1:
        raise ValueError(f"n_boot must be a positive int, got {n_boot!r}")
    _, codes = _codes(groups)
    rng = np.random.default_rng(seed)
    out = np.empty((n_boot, codes.size), dtype=np.int64)
    for g in np.unique(codes):
        rows = np.flatnonzero(codes == g)
        out[:, rows] = rows[rng.integers(0, rows.size, size=(n_boot, rows.size))]
    return out


def flip_rate_by_size(
    y_true,
    y_pred,
    groups,
    *,
    group,
    reference,
    sizes: Sequence[int],
    n_draws: int,
    rules: Mapping[str, tuple[str, float]],
    seed: int = 0,
) -> pd.DataFrame:
    """How often a group's verdicts flip when the group has only ``size`` members.

    For each size, ``n_draws`` subsets of ``group`` are drawn without replacement (the
    reference group stays whole). Across runs: for each subset, the flip rate of the
    verdict over the runs (rows of ``y_pred``), averaged over subsets. Across samples: for
    each run, the flip rate over the subsets, averaged over runs — the sampling variation
    of a group of that size.

    Parameters
    ----------
    y_true : array-like, shape (n,)
    y_pred : array-like, shape (r, n)
        The runs' predictions (one row is enough for the sampling source).
    groups : array-like, shape (n,)
    group, reference : labels
    sizes : sequence of int
        Each at most the group's size.
    n_draws : int
    rules : mapping
        ``{metric: (rule, threshold)}`` for metrics of :data:`COMPARISON_METRICS`.
    seed : int

    Returns
    -------
    pandas.DataFrame
        ``size, metric, source`` (``"runs"`` or ``"samples"``), ``flip_rate``.

    Examples
    --------
    >>> y = np.array([1, 0] * 50); g = np.array(["a"] * 60 + ["b"] * 40)
    >>> t = flip_rate_by_size(y, np.stack([y, y]), g, group="a", reference="b",
    ...     sizes=[10], n_draws=5, rules={"EOpp": ("difference", 0.05)})
    >>> t["flip_rate"].tolist()  # perfect predictions: EOpp = 0 in every subset and run
    [0.0, 0.0]
    """
    y_true = np.asarray(y_true)
    y_pred = np.atleast_2d(np.asarray(y_pred))
    groups = np.asarray(groups).astype(str)
    members = np.flatnonzero(groups == str(group))
    refs = np.flatnonzero(groups == str(reference))
    if members.size == 0 or refs.size == 0:
        raise ValueError(f"group {group!r} or reference {reference!r} has no rows")
    if not isinstance(n_draws, int) or n_draws < 1:
        raise ValueError(f"n_draws must be a positive int, got {n_draws!r}")
    metrics = list(rules)
    rng = np.random.default_rng(seed)
    rows = []
    for size in sizes:
        if not 1 <= size <= members.size:
            raise ValueError(f"size {size} outside 1 … {members.size} (the group's size)")
        values = np.empty((n_draws, y_pred.shape[0], len(metrics)))
        for d in range(n_draws):
            rows_d = np.concatenate([rng.choice(members, size=size, replace=False), refs])
            sub_groups = np.where(groups[rows_d] == str(group), "g", "r")
            counts, labels = group_counts(y_true[rows_d], y_pred[:, rows_d], sub_groups)
            vals = comparison_values(
                counts, reference=int(np.flatnonzero(labels == "r")[0]), metrics=metrics
            )
            values[d] = vals[:, int(np.flatnonzero(labels == "g")[0]), :]
        for k, metric in enumerate(metrics):
            rule, threshold = rules[metric]
            v = verdicts(values[..., k], rule=rule, threshold=threshold)  # (draws, runs)
            across_runs = flip_rate(v, axis=1) if v.shape[1] > 1 else np.full(n_draws, np.nan)
            rows.append(
                {
                    "size": int(size),
                    "metric": metric,
                    "source": "runs",
                    "flip_rate": float(np.nanmean(across_runs))
                    if not np.isnan(across_runs).all()
                    else np.nan,
                }
            )
            across_samples = flip_rate(v, axis=0)
            rows.append(
                {
                    "size": int(size),
                    "metric": metric,
                    "source": "samples",
                    "flip_rate": float(np.nanmean(across_samples))
                    if not np.isnan(across_samples).all()
                    else np.nan,
                }
            )
    return pd.DataFrame(rows, columns=["size", "metric", "source", "flip_rate"])
