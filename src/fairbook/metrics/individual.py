"""Individual fairness as kNN consistency (seed 000, Eqs. 6 and 9).

"Similar individuals should have similar predictions" (Dwork et al. 2012) is measured by
the consistency of Zemel et al. (2013): for individual :math:`i` with value :math:`v_i`
(a predicted label, Eq. 6, or an uncertainty, Eq. 9) and its ``k`` nearest neighbours,

.. math:: \\mathcal F^{\\mathrm{indv}}_v(\\mathbf x_i)
    = 1 - \\Bigl|v_i - \\frac1k\\sum_{\\mathbf x_j \\in k\\mathrm{NN}(\\mathbf x_i)} v_j\\Bigr|,

aggregated over a group by averaging; seed 000's Figs. 4–5 split each group by outcome
(``B(+)`` = Black individuals with Y = 1). Neighbours are found among all rows given
(every group), by Euclidean distance after the chosen feature scaling; an individual is
not its own neighbour. Ties in distance (identical feature vectors are common in
one-hot data) are broken by row order, so the result does not depend on the nearest-
neighbour library or thread count. Consistency of a 0/1 prediction lies in [0, 1]; of an
uncertainty in (0.5, 1] for two classes since uncertainties lie in [0, 0.5].
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = [
    "consistency",
    "consistency_by_group",
    "individual_fairness",
    "nearest_neighbors",
    "scale_features",
]

_SCALES = ("standard", "minmax", "none")


def scale_features(X, *, scale: str = "standard") -> np.ndarray:
    """Scale columns: z-scores (``standard``), to [0, 1] (``minmax``) or not (``none``).

    Constant columns are left at 0 (standard) or 0 (minmax) rather than divided by zero.

    Examples
    --------
    >>> scale_features([[0.0, 1.0], [2.0, 1.0]]).tolist()
    [[-1.0, 0.0], [1.0, 0.0]]
    """
    array = np.asarray(X, dtype=np.float64)
    if array.ndim != 2 or array.shape[0] == 0:
        raise ValueError(f"X must be a non-empty 2-D array; got shape {array.shape}")
    if not np.isfinite(array).all():
        raise ValueError("X must be finite (found NaN or inf)")
    if scale not in _SCALES:
        raise ValueError(f"scale must be one of {_SCALES}, got {scale!r}")
    if scale == "none":
        return array
    if scale == "standard":
        center, spread = array.mean(axis=0), array.std(axis=0)
    else:
        center, spread = array.min(axis=0), array.max(axis=0) - array.min(axis=0)
    spread = np.where(spread > 0, spread, 1.0)
    return (array - center) / spread


def nearest_neighbors(
    X, *, k: int = 10, scale: str = "standard", chunk_size: int = 512
) -> np.ndarray:
    """Indices of each row's ``k`` nearest other rows, nearest first, ties by row order.

    Parameters
    ----------
    X : array-like (N, d)
    k : int, default 10
        Must be smaller than N.
    scale : {'standard', 'minmax', 'none'}
    chunk_size : int
        Rows per block of the distance computation (memory ≈ 8·chunk_size·N bytes).

    Returns
    -------
    ndarray of int, shape (N, k)

    Examples
    --------
    >>> nearest_neighbors([[0.0], [1.0], [3.0], [1.0]], k=2, scale="none").tolist()
    [[1, 3], [3, 0], [1, 3], [1, 0]]
    """
    array = scale_features(X, scale=scale)
    n = array.shape[0]
    k = int(k)
    if not 1 <= k < n:
        raise ValueError(f"k must be between 1 and N − 1 = {n - 1}, got {k}")
    norms = (array**2).sum(axis=1)
    columns = np.arange(n, dtype=np.int64)
    out = np.empty((n, k), dtype=np.int64)
    for start in range(0, n, chunk_size):
        rows = np.arange(start, min(start + chunk_size, n))
        cross = array[rows] @ array.T
        d2 = norms[rows, None] + norms[None, :] - 2.0 * cross
        # rounding noise of the expansion: treat tiny values as exact zeros
        d2[d2 <= 1e-10 * (norms[rows, None] + norms[None, :] + 1.0)] = 0.0
        # distance rounded to float32 (monotone bits) then row order: a unique int key
        keys = d2.astype(np.float32).view(np.int32).astype(np.int64) * n + columns
        keys[np.arange(rows.size), rows] = -1  # self first, then dropped
        nearest = np.argpartition(keys, k, axis=1)[:, : k + 1]
        order = np.argsort(np.take_along_axis(keys, nearest, axis=1), axis=1)
        out[rows] = np.take_along_axis(nearest, order, axis=1)[:, 1:]
    return out


def consistency(
    values, X=None, *, k: int = 10, scale: str = "standard", neighbors=None
) -> np.ndarray:
    """Per-row consistency ``1 − |v_i − mean of v over i's kNN|`` (Eqs. 6, 9).

    Parameters
    ----------
    values : array-like (N,)
        Predicted labels (0/1) or uncertainties.
    X : array-like (N, d), optional
        Features; needed unless ``neighbors`` is given.
    k, scale : see :func:`nearest_neighbors`
    neighbors : ndarray (N, k), optional
        Precomputed neighbour indices (reuse them across values).

    Examples
    --------
    >>> consistency([1, 1, 0, 1], [[0.0], [0.1], [5.0], [5.1]], k=1, scale="none").tolist()
    [1.0, 1.0, 0.0, 0.0]
    """
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1 or v.size == 0:
        raise ValueError(f"values must be a non-empty 1-D array; got shape {v.shape}")
    if not np.isfinite(v).all():
        raise ValueError("values must be finite (found NaN or inf)")
    if neighbors is None:
        if X is None:
            raise ValueError("give X (features) or neighbors")
        if np.asarray(X).shape[0] != v.size:
            raise ValueError(f"X has {np.asarray(X).shape[0]} rows, values {v.size}")
        neighbors = nearest_neighbors(X, k=k, scale=scale)
    neighbors = np.asarray(neighbors)
    if neighbors.ndim != 2 or neighbors.shape[0] != v.size:
        raise ValueError(f"neighbors must have shape ({v.size}, k); got {neighbors.shape}")
    return 1.0 - np.abs(v - v[neighbors].mean(axis=1))


def _outcome_label(group, outcome) -> str:
    return f"{group}({'+' if outcome else '-'})"


def consistency_by_group(
    scores, groups, outcome, *, keep=None, statistic: str = "mean"
) -> pd.Series:
    """Mean of per-row ``scores`` for every group × outcome cell, named like ``B(+)``.

    Parameters
    ----------
    scores : array-like (N,)
        From :func:`consistency`.
    groups : array-like (N,)
    outcome : array-like (N,) of 0/1
        The label that splits a group (seed 000: the true label, + = 1).
    keep : sequence, optional
        Only these groups, in this order.
    statistic : {'mean', 'count'}
        The cell mean, or the number of rows in the cell.

    Examples
    --------
    >>> consistency_by_group([1.0, 0.5, 0.0], ["a", "a", "b"], [1, 1, 0]).to_dict()
    {'a(+)': 0.75, 'b(-)': 0.0}
    """
    scores = np.asarray(scores, dtype=np.float64)
    groups, outcome = np.asarray(groups), np.asarray(outcome)
    if not scores.shape == groups.shape == outcome.shape or scores.ndim != 1:
        raise ValueError(
            f"scores, groups and outcome must be 1-D of one length; got "
            f"{scores.shape}, {groups.shape}, {outcome.shape}"
        )
    if not np.isin(outcome, [0, 1]).all():
        raise ValueError("outcome must hold only 0 and 1")
    if statistic not in ("mean", "count"):
        raise ValueError(f"statistic must be 'mean' or 'count', got {statistic!r}")
    order = list(keep) if keep is not None else list(pd.unique(pd.Series(groups)))
    out = {}
    for group in order:
        for value in (1, 0):
            mask = (groups == group) & (outcome == value)
            if mask.any():
                out[_outcome_label(group, value)] = (
                    float(scores[mask].mean()) if statistic == "mean" else mask.sum()
                )
    return pd.Series(
        out,
        name="consistency" if statistic == "mean" else "n",
        dtype=float if statistic == "mean" else int,
    )


def individual_fairness(
    X,
    y_pred,
    uncertainties: dict,
    groups,
    outcome,
    *,
    k: int = 10,
    scale: str = "standard",
    keep=None,
) -> pd.DataFrame:
    """Seed 000's Figs. 4–5 as a table: point and uncertainty consistency per cell.

    Parameters
    ----------
    X : array-like (N, d)
    y_pred : array-like (N,) of 0/1
    uncertainties : dict
        Name → per-row uncertainty, e.g. ``{"U_a": ..., "U_e": ...}``.
    groups, outcome : array-like (N,)
    k, scale : neighbourhood settings (:func:`nearest_neighbors`)
    keep : groups to report, in order (default: all, in order of appearance)

    Returns
    -------
    DataFrame
        Rows ``B(+)``, ``B(-)``, …; columns ``n``, ``F_y`` and ``F_<name>`` per uncertainty.

    Examples
    --------
    >>> t = individual_fairness([[0.0], [0.1], [5.0], [5.1]], [1, 1, 0, 0],
    ...                         {"U_a": [0.1, 0.1, 0.3, 0.3]}, ["a", "a", "b", "b"],
    ...                         [1, 1, 0, 0], k=1, scale="none")
    >>> t.loc["a(+)", "F_y"], t.loc["b(-)", "F_U_a"]
    (np.float64(1.0), np.float64(1.0))
    """
    neighbors = nearest_neighbors(X, k=k, scale=scale)
    columns = {"F_y": consistency(y_pred, neighbors=neighbors)}
    for name, values in uncertainties.items():
        columns[f"F_{name}"] = consistency(values, neighbors=neighbors)
    groups, outcome = np.asarray(groups), np.asarray(outcome)
    frame = pd.DataFrame(
        {
            name: consistency_by_group(score, groups, outcome, keep=keep)
            for name, score in columns.items()
        }
    )
    frame.insert(
        0,
        "n",
        consistency_by_group(np.zeros(groups.size), groups, outcome, keep=keep, statistic="count"),
    )
    frame.index.name = "group(outcome)"
    return frame
