"""The continuous ranked probability score of a set of quantiles (seed 003, Eqs. 5.5–5.9).

A forecast is ``C`` quantiles at each of ``T`` time steps, shaped ``(..., T, C)``; the target
is deterministic, shaped ``(..., T)``. Seed 003 scores it with the energy form of the CRPS
(Gneiting and Raftery 2007) for the empirical distribution that puts mass ``1/C`` on each
quantile,

.. math::

   T_1 = \\frac{1}{T}\\sum_t \\frac{1}{C}\\sum_j |\\hat y_{tj} - y_t|, \\qquad
   T_2 = \\frac{1}{T}\\sum_t \\frac{1}{C^2}\\sum_{j,k} |\\hat y_{tj} - \\hat y_{tk}|, \\qquad
   \\mathrm{CRPS} = T_1 - \\tfrac12 T_2,

adds the ordering penalty of Eq. 5.8 (Takeuchi et al. 2006) for quantiles that are not
non-decreasing, and trains on ``CRPS + ω·O`` with ω = 0.0075 (Eq. 5.9).

Every function accepts NumPy arrays or torch tensors (then it is differentiable). The pair
sum of ``T_2`` is computed exactly in ``O(C log C)`` from the sorted quantiles,
``Σ_{j,k} |q_j − q_k| = 2 Σ_j (2j − C − 1) q_(j)``, instead of the ``O(C²)`` double sum.
"""

from __future__ import annotations

import numpy as np

__all__ = ["OMEGA", "crps", "ordered_crps", "ordering_penalty", "quantile_levels"]

#: Eq. 5.9's weight of the ordering penalty.
OMEGA = 0.0075


def _is_torch(x) -> bool:
    return type(x).__module__.startswith("torch")


def _check(quantiles, y=None):
    if quantiles.ndim < 2:
        raise ValueError(
            f"quantiles must be shaped (..., T, C); got shape {tuple(quantiles.shape)}"
        )
    if quantiles.shape[-1] < 1 or quantiles.shape[-2] < 1:
        raise ValueError(
            f"quantiles need at least one step and one quantile; got {tuple(quantiles.shape)}"
        )
    if y is not None and tuple(y.shape) != tuple(quantiles.shape[:-1]):
        raise ValueError(
            "y must be shaped like quantiles without the last axis, "
            f"{tuple(quantiles.shape[:-1])}; got {tuple(y.shape)}"
        )


def _as_array(x):
    return x if _is_torch(x) else np.asarray(x, dtype=float)


def quantile_levels(n_quantiles: int = 111) -> np.ndarray:
    """The probability levels ``(j − ½)/C``, ``j = 1 … C``, at which the quantiles sit.

    With these midpoints the CRPS of the ``C`` quantiles of a distribution converges to the
    distribution's CRPS as ``C`` grows (Riemann sum of the quantile form of the CRPS).

    Examples
    --------
    >>> quantile_levels(4)
    array([0.125, 0.375, 0.625, 0.875])
    """
    if int(n_quantiles) != n_quantiles or n_quantiles < 1:
        raise ValueError(f"n_quantiles must be a positive integer; got {n_quantiles!r}")
    n = int(n_quantiles)
    return (np.arange(1, n + 1) - 0.5) / n


def _pair_spread(quantiles):
    """``(1/C²) Σ_{j,k} |q_j − q_k|`` over the last axis, exactly, from the sorted values."""
    c = quantiles.shape[-1]
    if _is_torch(quantiles):
        import torch

        ordered = torch.sort(quantiles, dim=-1).values
        weights = 2 * torch.arange(1, c + 1, dtype=quantiles.dtype, device=quantiles.device) - c - 1
    else:
        ordered = np.sort(quantiles, axis=-1)
        weights = 2 * np.arange(1, c + 1) - c - 1
    return 2 * (ordered * weights).sum(-1) / c**2


def crps(quantiles, y, *, per_step: bool = False):
    """CRPS of quantile forecasts against deterministic targets, Eq. 5.7.

    Parameters
    ----------
    quantiles : array or tensor, shape (..., T, C)
        ``C`` quantiles (in any order) at each of ``T`` steps.
    y : array or tensor, shape (..., T)
        The targets.
    per_step : bool, default False
        Return the score of each step, shape ``(..., T)``, instead of the mean over steps.

    Returns
    -------
    array or tensor, shape (...) or (..., T)
        ``T_1 − T_2/2``; 0 for a point forecast equal to the target, never negative.

    Examples
    --------
    >>> crps([[0.0, 1.0]], [0.0])    # T1 = 0.5, T2 = 0.5
    0.25
    >>> crps([[2.0, 2.0, 2.0]], [2.0])
    0.0
    """
    quantiles, y = _as_array(quantiles), _as_array(y)
    _check(quantiles, y)
    t1 = abs(quantiles - y[..., None]).mean(-1)
    score = t1 - 0.5 * _pair_spread(quantiles)
    out = score if per_step else score.mean(-1)
    return float(out) if not _is_torch(out) and np.ndim(out) == 0 else out


def ordering_penalty(quantiles):
    """Eq. 5.8: the mean amount by which neighbouring quantiles decrease.

    ``O = 1/(T (C − 1)) Σ_t Σ_j max(0, q_{t,j} − q_{t,j+1})``; 0 for sorted quantiles.
    Defined only for ``C ≥ 2``.

    Examples
    --------
    >>> ordering_penalty([[0.0, 1.0, 2.0]])
    0.0
    >>> ordering_penalty([[0.0, 2.0, 1.0]])    # one drop of 1 over 2 gaps
    0.5
    """
    quantiles = _as_array(quantiles)
    _check(quantiles)
    if quantiles.shape[-1] < 2:
        raise ValueError("the ordering penalty needs at least two quantiles per step")
    drops = quantiles[..., :-1] - quantiles[..., 1:]
    drops = drops.clamp(min=0) if _is_torch(drops) else np.maximum(drops, 0.0)
    out = drops.mean((-2, -1)) if _is_torch(drops) else drops.mean(axis=(-2, -1))
    return float(out) if not _is_torch(out) and np.ndim(out) == 0 else out


def ordered_crps(quantiles, y, *, omega: float = OMEGA):
    """The training loss of Eq. 5.9, ``CRPS + ω·O``, averaged over the batch.

    Parameters
    ----------
    quantiles : array or tensor, shape (..., T, C)
    y : array or tensor, shape (..., T)
    omega : float, default 0.0075
        Weight of the ordering penalty; must be non-negative.

    Returns
    -------
    float or 0-d tensor

    Examples
    --------
    >>> round(ordered_crps([[0.0, 2.0, 1.0]], [1.0], omega=1.0), 4)    # 2/9 + 0.5
    0.7222
    """
    if not omega >= 0:
        raise ValueError(f"omega must be non-negative; got {omega!r}")
    loss = crps(quantiles, y) + omega * ordering_penalty(quantiles)
    return loss.mean() if _is_torch(loss) else float(np.mean(loss))
