"""Cross-Prior Smoothing (seed 003, Algorithm 1), additive smoothing, and the MSE protocol.

CPS treats the reference group's confusion matrix, normalised to sum 1, as the mean of a
Dirichlet prior of strength λ: ``α = c + λ·ĉ_ref``, then normalises the posterior mean and
scales it back to the group's size ``n`` so size-dependent metrics keep their meaning:
``c_smooth = (c + λ ĉ_ref) · n / (n + λ)``. ``λ = 0`` is the identity and ``λ → ∞`` gives the
reference proportions scaled to ``n``. Additive ("bashful" for tiny ε, Laplace for ε = 1)
smoothing adds ε to every cell (the total becomes ``n + 4ε``).

:func:`smoothing_mse` is the protocol of Section 4.6.2: draw many groups of each size from
the group's cell probabilities, score them raw, ε-smoothed and CPS-smoothed, and report the
mean squared error against the full-group score.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from fairbook.metrics import METRICS, compute
from fairbook.metrics.rates import as_counts
from fairbook.parallel import check_n_jobs, ordered_map

__all__ = ["PAPER_METRICS", "additive", "smooth", "smoothing_mse"]

#: The fifteen metrics of seed 003 Section 4.6.2: the eight JRMs, ACC, PREV, PPR, B, MCC,
#: F1 and PT.
PAPER_METRICS = (
    "TPR",
    "FPR",
    "TNR",
    "FNR",
    "PPV",
    "NPV",
    "FDR",
    "FOR",
    "ACC",
    "PREV",
    "PPR",
    "B",
    "MCC",
    "F1",
    "PT",
)

_Z95 = 1.959963984540054


def _check_strength(value, *, name: str, allow_inf: bool) -> np.ndarray:
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{name} must be a number >= 0, got {value!r}") from error
    if np.isnan(array).any() or (array < 0).any():
        raise ValueError(f"{name} must be >= 0 (got {value!r})")
    if not allow_inf and np.isinf(array).any():
        raise ValueError(f"{name} must be finite (got {value!r})")
    return array


def _reference_proportions(cm_ref) -> np.ndarray:
    ref = as_counts(cm_ref, name="cm_ref")
    total = ref.sum(axis=-1, keepdims=True)
    if (total <= 0).any():
        raise ValueError("cm_ref must have a positive total (it is normalised to sum 1)")
    return ref / total


def _smooth(counts: np.ndarray, proportions: np.ndarray, lam: np.ndarray) -> np.ndarray:
    """CPS without validation; ``lam`` broadcast against ``counts[..., 0]``."""
    n = counts.sum(axis=-1, keepdims=True)
    lam = lam[..., None]
    finite = np.isfinite(lam)
    lam_f = np.where(finite, lam, 0.0)
    alpha = counts + lam_f * proportions
    denominator = n + lam_f
    with np.errstate(invalid="ignore", divide="ignore"):
        scaled = np.where(
            denominator > 0, alpha * (n / np.where(denominator > 0, denominator, 1.0)), 0.0
        )
    return np.where(finite, scaled, proportions * n)


def smooth(cm, cm_ref, lam) -> np.ndarray:
    """Cross-Prior Smoothing of a confusion matrix (Algorithm 1).

    ``α_c = c + λ · c'`` with ``c'`` the reference normalised to sum 1; the result is
    ``α / Σα`` scaled back to the group's total ``n = Σc``, so the total is kept.

    Parameters
    ----------
    cm : array-like of shape (..., 4)
        Group counts ``[TP, FN, FP, TN]`` (one matrix or a batch).
    cm_ref : array-like of shape (..., 4)
        Reference counts or proportions (normalised here), broadcast against ``cm``;
        must have a positive total.
    lam : float or array-like
        Prior strength λ >= 0 (``np.inf`` allowed: the reference proportions times ``n``),
        broadcast against ``cm[..., 0]``. The paper uses 5, 10 and 20.

    Returns
    -------
    ndarray of float, shape broadcast(cm, cm_ref)
        The smoothed matrix; a group with ``n = 0`` stays all zero.

    Examples
    --------
    >>> smooth([0, 2, 0, 3], [10, 10, 30, 50], 5).round(3).tolist()
    [0.25, 1.25, 0.75, 2.75]
    >>> smooth([1, 2, 3, 4], [1, 1, 1, 1], 0).tolist()
    [1.0, 2.0, 3.0, 4.0]
    """
    counts = as_counts(cm, name="cm")
    proportions = _reference_proportions(cm_ref)
    lam = _check_strength(lam, name="lam", allow_inf=True)
    try:
        shape = np.broadcast_shapes(counts.shape, proportions.shape)
        np.broadcast_shapes(shape[:-1], lam.shape)
    except ValueError as error:
        raise ValueError(
            f"cm {counts.shape}, cm_ref {proportions.shape} and lam {lam.shape} do not broadcast"
        ) from error
    return _smooth(counts, proportions, lam)


def additive(cm, eps) -> np.ndarray:
    """Additive smoothing: ``c + ε`` in every cell (the total becomes ``n + 4ε``).

    ``ε = 1e-10`` is the paper's "bashful" smoothing (fills holes, barely moves defined
    scores), ``ε = 1`` the non-informative Laplace prior, ``ε = 0`` the identity.

    Parameters
    ----------
    cm : array-like of shape (..., 4)
    eps : float or array-like
        ε >= 0, finite; broadcast against ``cm[..., 0]``.

    Returns
    -------
    ndarray of float

    Examples
    --------
    >>> additive([0, 2, 0, 3], 1).tolist()
    [1.0, 3.0, 1.0, 4.0]
    """
    counts = as_counts(cm, name="cm")
    eps = _check_strength(eps, name="eps", allow_inf=False)
    try:
        np.broadcast_shapes(counts.shape[:-1], eps.shape)
    except ValueError as error:
        raise ValueError(f"eps {eps.shape} does not broadcast against cm {counts.shape}") from error
    return counts + eps[..., None]


def _check_probabilities(p, *, name: str) -> np.ndarray:
    try:
        array = np.asarray(p, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{name} must be 4 probabilities [TP, FN, FP, TN]") from error
    if array.shape != (4,) or not np.isfinite(array).all() or (array < 0).any():
        raise ValueError(
            f"{name} must be 4 finite non-negative numbers [TP, FN, FP, TN], got {p!r}"
        )
    if abs(array.sum() - 1) > 1e-9:
        raise ValueError(
            f"{name} must sum to 1 (got {array.sum():.12g}); normalise counts with cm / cm.sum()"
        )
    return array


def _check_sizes(sizes) -> list[int]:
    out = []
    for size in np.atleast_1d(np.asarray(sizes)).tolist():
        if (
            isinstance(size, bool)
            or not isinstance(size, numbers.Real)
            or size < 1
            or not float(size).is_integer()
        ):
            raise ValueError(f"sizes must be integers >= 1, got {size!r}")
        out.append(int(size))
    if not out:
        raise ValueError("sizes is empty")
    return out


def _one_size(
    n: int, *, p_group, proportions, names, settings, targets, n_draws, chunk_size, base_seed
) -> list[dict]:
    """All rows of :func:`smoothing_mse` for one group size (a picklable worker)."""
    rng = np.random.default_rng(np.random.SeedSequence([base_seed, n]))
    n_settings = len(settings)
    count = np.zeros((len(names), n_settings))
    total = np.zeros((len(names), n_settings))
    total_sq = np.zeros((len(names), n_settings))
    done = 0
    while done < n_draws:
        size = min(chunk_size, n_draws - done)
        draws = rng.multinomial(n, p_group, size=size).astype(np.float64)
        stacked = np.empty((n_settings, size, 4))
        for index, (method, value) in enumerate(settings):
            if method == "additive":
                stacked[index] = draws + value
            else:
                stacked[index] = _smooth(draws, proportions, np.asarray(value))
        for row, name in enumerate(names):
            scores = compute(name, stacked)  # (n_settings, size)
            error = (scores - targets[name]) ** 2
            defined = ~np.isnan(error)
            error = np.where(defined, error, 0.0)
            count[row] += defined.sum(axis=1)
            total[row] += error.sum(axis=1)
            total_sq[row] += (error * error).sum(axis=1)
        done += size
    rows = []
    for row, name in enumerate(names):
        for column, (method, value) in enumerate(settings):
            k = count[row, column]
            if k > 0 and not math.isnan(targets[name]):
                mse = total[row, column] / k
                var = max(total_sq[row, column] / k - mse * mse, 0.0) * k / max(k - 1, 1)
                half = _Z95 * math.sqrt(var / k)
            else:
                mse = half = math.nan
            rows.append(
                {
                    "metric": name,
                    "n": n,
                    "method": method,
                    "setting": value,
                    "mse": mse,
                    "ci_low": mse - half,
                    "ci_high": mse + half,
                    "share_undefined": 1 - k / n_draws,
                    "n_defined": int(k),
                    "target": targets[name],
                }
            )
    return rows


def smoothing_mse(
    p_group,
    p_ref,
    sizes,
    metrics,
    *,
    n_draws: int,
    lams=(5, 10, 20),
    eps=(0, 1e-10, 1),
    seed=0,
    chunk_size: int = 250_000,
    progress: bool | None = None,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """MSE of raw, additively smoothed and CPS-smoothed scores for small groups (Sec. 4.6.2).

    For every size ``n``, ``n_draws`` confusion matrices are drawn at once with
    ``rng.multinomial(n, p_group, size=...)`` (in chunks of ``chunk_size``, no per-draw
    Python); each is scored raw-and-additively-smoothed (one row per ε; ``ε = 0`` is the
    raw score) and CPS-smoothed towards ``p_ref`` (one row per λ), and compared with the
    full-group score ``metric(p_group)``.

    **Undefined scores.** A draw whose score is undefined (NaN; e.g. a raw TPR with no
    actual positives) is *counted, not dropped silently*: ``mse`` and its interval are
    computed over the defined draws only (as the paper does) and ``share_undefined`` reports
    the fraction left out, so a method that "wins" by leaving out hard draws shows it.
    ε > 0 and CPS with a reference that has no zero cells fill every zero denominator,
    but not every hole of PT: PT is undefined whenever TPR = FPR (e.g. ``TP = FP`` and
    ``FN = TN``), which smoothing can keep or even create.

    Parameters
    ----------
    p_group : array-like of shape (4,)
        The group's cell probabilities ``[TP, FN, FP, TN]`` (sum 1).
    p_ref : array-like of shape (4,)
        The reference for CPS (counts or proportions; normalised).
    sizes : iterable of int
        Group sizes (the paper: 5 … 150).
    metrics : iterable of str
        Metric names, e.g. :data:`PAPER_METRICS`.
    n_draws : int
        Draws per size (the paper: 10⁶).
    lams : iterable of float, default (5, 10, 20)
        CPS strengths.
    eps : iterable of float, default (0, 1e-10, 1)
        Additive ε (0 = no smoothing).
    seed : int or None, default 0
        Each size gets its own stream ``SeedSequence([seed, n])``, so a size's numbers do
        not depend on which other sizes are requested, nor on ``chunk_size``. None draws
        fresh entropy (not reproducible).
    chunk_size : int, default 250_000
        Draws held in memory at once.
    progress : bool or None, default None
        Passed to tqdm as ``disable=not progress``; None shows a bar only on a terminal.
    n_jobs : int, default 1
        Sizes run in parallel processes (joblib; -1 = all cores). The numbers do not
        depend on ``n_jobs`` (each size has its own random stream).

    Returns
    -------
    pandas.DataFrame
        Tidy: ``metric, n, method, setting, mse, ci_low, ci_high, share_undefined,
        n_defined, target``; ``method`` is ``"additive"`` (setting = ε) or ``"cps"``
        (setting = λ). The interval is the normal 95 % CI of the mean of the squared errors
        (``mse ± 1.96 sd/√n_defined``). ``mse`` is NaN when no draw is defined or the
        full-group score itself is undefined.

    Examples
    --------
    >>> p = [0.3, 0.1, 0.2, 0.4]
    >>> table = smoothing_mse(p, p, [5, 10], ["TPR"], n_draws=2000, lams=(5,), eps=(0,),
    ...                       seed=1, progress=False)
    >>> table[["n", "method", "setting", "share_undefined"]].round(3)  # raw: about 0.6**n
        n    method  setting  share_undefined
    0   5  additive      0.0            0.083
    1   5       cps      5.0            0.000
    2  10  additive      0.0            0.009
    3  10       cps      5.0            0.000
    >>> bool((table.mse[table.method == "cps"].values
    ...       < table.mse[table.method == "additive"].values).all())
    True
    """
    p_group = _check_probabilities(p_group, name="p_group")
    proportions = _reference_proportions(p_ref)
    if proportions.shape != (4,):
        raise ValueError(f"p_ref must be one matrix of shape (4,), got {proportions.shape}")
    size_list = _check_sizes(sizes)
    names = [m for m in np.atleast_1d(np.asarray(metrics, dtype=object)).tolist()]
    for name in names:
        if not isinstance(name, str) or name.upper() not in METRICS:
            raise ValueError(f"unknown metric {name!r}; choose one of {', '.join(METRICS)}")
    names = [name.upper() for name in names]
    if not names:
        raise ValueError("metrics is empty")
    if isinstance(n_draws, bool) or not isinstance(n_draws, numbers.Integral) or n_draws < 2:
        raise ValueError(f"n_draws must be an integer >= 2, got {n_draws!r}")
    if (
        isinstance(chunk_size, bool)
        or not isinstance(chunk_size, numbers.Integral)
        or chunk_size < 1
    ):
        raise ValueError(f"chunk_size must be an integer >= 1, got {chunk_size!r}")
    eps_values = _check_strength(list(eps), name="eps", allow_inf=False).reshape(-1)
    lam_values = _check_strength(list(lams), name="lams", allow_inf=True).reshape(-1)
    settings = [("additive", float(e)) for e in eps_values] + [
        ("cps", float(lam)) for lam in lam_values
    ]
    if not settings:
        raise ValueError("give at least one eps or one lam")
    targets = {name: compute(name, p_group) for name in names}

    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0
    ):
        raise ValueError(f"seed must be None or an integer >= 0, got {seed!r}")
    base_seed = np.random.SeedSequence().entropy if seed is None else int(seed)
    n_jobs = check_n_jobs(n_jobs)
    job = {
        "p_group": p_group,
        "proportions": proportions,
        "names": names,
        "settings": settings,
        "targets": targets,
        "n_draws": int(n_draws),
        "chunk_size": int(chunk_size),
        "base_seed": base_seed,
    }
    results = ordered_map(_one_size, [((n,), job) for n in size_list], n_jobs=n_jobs)
    rows = []
    disable = None if progress is None else not progress
    for block in tqdm(results, total=len(size_list), desc="sizes", disable=disable):
        rows.extend(block)
    return pd.DataFrame(rows)
