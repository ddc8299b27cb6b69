"""The Kwon et al. (2020) decomposition of predictive uncertainty (seed 000, Eq. 7).

For one input with ``T`` Monte Carlo class-probability vectors :math:`P_m` (one per weight
sample of a Bayesian network, or one per member of an ensemble),

.. math::

    \\underbrace{\\tfrac1T\\sum_m (P_m-\\bar P)(P_m-\\bar P)^\\top}_{\\text{epistemic}}
    + \\underbrace{\\tfrac1T\\sum_m \\operatorname{diag}(P_m) - P_m P_m^\\top}_{\\text{aleatoric}}

is a ``C × C`` covariance. Seed 000 reports scalars; like the paper's tables we take the
**trace** of each term:

* epistemic :math:`\\mathcal U_e = \\tfrac1T\\sum_m \\sum_c (p_{mc}-\\bar p_c)^2`,
* aleatoric :math:`\\mathcal U_a = \\tfrac1T\\sum_m \\sum_c p_{mc}(1-p_{mc})`,
* predictive :math:`\\mathcal U_p = \\mathcal U_e + \\mathcal U_a = \\sum_c \\bar p_c(1-\\bar p_c)`.

For two classes :math:`\\mathcal U_a \\le 0.5` and :math:`\\mathcal U_p \\le 0.5`. A group's
uncertainty is the mean over its members (Sec. 4.1), and the uncertainty-fairness measure
is the ratio :math:`\\mathcal F_u = \\mathcal U_u(G=0)/\\mathcal U_u(G=1)` (Eq. 27).
"""

from __future__ import annotations

import numpy as np

__all__ = ["check_probs", "decompose", "group_means", "uncertainty_ratios"]

#: Tolerance on ``|Σ_c p − 1|`` accepted by :func:`check_probs` (float32 softmax is ~1e-7).
SUM_TOLERANCE = 1e-5


def check_probs(probs) -> np.ndarray:
    """Validate Monte Carlo class probabilities shaped ``(T, N, C)``; return float64.

    Raises
    ------
    ValueError
        If ``probs`` is not 3-D, is empty, has a non-finite entry or one outside [0, 1],
        or a probability vector whose sum differs from 1 by more than ``SUM_TOLERANCE``.

    Examples
    --------
    >>> check_probs([[[0.25, 0.75]]]).shape
    (1, 1, 2)
    """
    array = np.asarray(probs, dtype=np.float64)
    if array.ndim != 3:
        raise ValueError(
            f"probs must have shape (T, N, C); got {array.ndim} dimension(s) {array.shape}"
        )
    if 0 in array.shape:
        raise ValueError(f"probs must not be empty; got shape {array.shape}")
    if not np.isfinite(array).all():
        raise ValueError("probs must be finite (found NaN or inf)")
    if array.min() < 0.0 or array.max() > 1.0:
        raise ValueError(f"probs must lie in [0, 1]; found [{array.min():.3g}, {array.max():.3g}]")
    worst = np.abs(array.sum(axis=2) - 1.0).max()
    if worst > SUM_TOLERANCE:
        raise ValueError(
            f"each probability vector must sum to 1 over the class axis "
            f"(last); the worst is off by {worst:.3g}"
        )
    return array


def decompose(probs) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Epistemic, aleatoric and predictive uncertainty per input (trace of Eq. 7).

    Parameters
    ----------
    probs : array-like of shape (T, N, C)
        ``T`` Monte Carlo samples of the class probabilities of ``N`` inputs.

    Returns
    -------
    epistemic, aleatoric, predictive : ndarray of shape (N,)
        ``predictive = epistemic + aleatoric``.

    Raises
    ------
    ValueError
        See :func:`check_probs`.

    Examples
    --------
    >>> e, a, p = decompose([[[0.25, 0.75]], [[0.75, 0.25]]])
    >>> float(e[0]), float(a[0]), float(p[0])
    (0.125, 0.375, 0.5)
    """
    array = check_probs(probs)
    # deviations from the mean, computed on data shifted by the first sample: exact zero
    # when all samples agree, and less cancellation than subtracting a rounded mean
    shifted = array - array[0]
    epistemic = ((shifted - shifted.mean(axis=0)) ** 2).sum(axis=2).mean(axis=0)
    aleatoric = (array * (1.0 - array)).sum(axis=2).mean(axis=0)
    return epistemic, aleatoric, epistemic + aleatoric


def group_means(values, groups) -> dict:
    """Mean of ``values`` per group label (how seed 000 aggregates uncertainty).

    Examples
    --------
    >>> group_means([1.0, 3.0, 5.0], ["a", "a", "b"])
    {'a': 2.0, 'b': 5.0}
    """
    values = np.asarray(values, dtype=np.float64)
    groups = np.asarray(groups)
    if values.ndim != 1 or groups.shape != values.shape:
        raise ValueError(
            f"values and groups must be 1-D of the same length; got "
            f"{values.shape} and {groups.shape}"
        )
    labels, index = np.unique(groups, return_inverse=True)
    sums = np.bincount(index, weights=values, minlength=labels.size)
    counts = np.bincount(index, minlength=labels.size)
    return {
        label.item() if hasattr(label, "item") else label: float(s / c)
        for label, s, c in zip(labels, sums, counts, strict=True)
    }


def uncertainty_ratios(probs, groups, *, protected, reference) -> dict:
    """Seed 000's uncertainty-fairness measures (Eq. 27), protected over reference group.

    Parameters
    ----------
    probs : array-like of shape (T, N, C)
    groups : array-like of shape (N,)
    protected, reference : labels of ``groups`` (the paper's G = 0 and G = 1)

    Returns
    -------
    dict
        ``U_e, U_a, U_p`` (each a ``(protected, reference)`` pair of group means) and the
        ratios ``F_Epis, F_Alea, F_Pred``; a ratio with a zero denominator is NaN.

    Examples
    --------
    >>> r = uncertainty_ratios([[[0.5, 0.5], [0.9, 0.1]]], ["a", "b"],
    ...                        protected="a", reference="b")
    >>> round(r["F_Alea"], 3)
    2.778
    """
    epistemic, aleatoric, predictive = decompose(probs)
    groups = np.asarray(groups)
    if groups.shape != epistemic.shape:
        raise ValueError(f"groups must have shape ({epistemic.size},), got {groups.shape}")
    out = {}
    for key, ratio, values in (
        ("U_e", "F_Epis", epistemic),
        ("U_a", "F_Alea", aleatoric),
        ("U_p", "F_Pred", predictive),
    ):
        pair = []
        for role, label in (("protected", protected), ("reference", reference)):
            mask = groups == label
            if not mask.any():
                raise ValueError(f"{role} group {label!r} not in groups")
            pair.append(float(values[mask].mean()))
        out[key] = tuple(pair)
        out[ratio] = pair[0] / pair[1] if pair[1] > 0 else float("nan")
    return out
