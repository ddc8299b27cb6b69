"""UCerF: uncertainty-aware fairness of a language model's answers (seed 001).

Seed 001 (Wang et al., ICML 2025) puts a model's correctness and its certainty on one
scale, the *Linear Scale of Behavioural Desirability* (LSBP), and measures fairness as
the distance between two groups on that scale.

For a question with ``k`` answer options, the model's probabilities ``p`` over the
options give a perplexity ``exp(H(p))`` in ``[1, k]`` (1: all mass on one option; ``k``:
uniform), and the confidence

.. math:: c = \\frac{k - \\mathrm{ppl}}{k - 1} \\in [0, 1].

The desirability of an answer is ``D = +c`` when it is correct and ``D = -c`` when it is
not, so ``D`` runs from "confidently wrong" (−1) through "uncertain" (0) to "confidently
right" (+1). For a *minimal pair* — the same sentence with the pronoun of the other
gender — UCerF is

.. math:: U = \\mathbb{E}\\Big[1 - \\tfrac12 \\lvert D(x^A) - D(x^B) \\rvert\\Big] \\in [0, 1],

1 for a model that behaves the same whatever the pronoun, 0 for one that is confidently
right for one gender and confidently wrong for the other.

**Group-wise variant (our reading).** Seed 001 also defines ``U_group`` for data without
pairs, "substituting TPR/FPR with TPD/FPD to align with EO"; the text we have does not
print the formula. We read it as Equalized Odds on the desirability scale. With a binary
label ``y`` (here: the referent is the first-mentioned candidate), define the
*true-positive desirability* and *false-positive desirability* of a group

.. math:: \\mathrm{TPD} = \\tfrac12\\big(1 + \\mathbb{E}[D \\mid y = 1]\\big), \\qquad
          \\mathrm{FPD} = \\tfrac12\\big(1 - \\mathbb{E}[D \\mid y = 0]\\big),

which equal TPR and FPR exactly when every confidence is 1, and are ½ for a model that
is always uncertain. Then ``U_group = 1 − max(|ΔTPD|, |ΔFPD|)`` (or the mean of the two),
which is ``1 −`` fairlearn's ``equalized_odds_difference`` for a fully confident model.

Examples
--------
>>> from fairbook.ucerf import confidence_from_perplexity, desirability, ucerf
>>> c = confidence_from_perplexity([1.0, 2.0], 2)   # certain, uniform
>>> c.tolist()
[1.0, 0.0]
>>> float(ucerf(desirability([1.0], [True]), desirability([1.0], [False])))
0.0
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = [
    "PERPLEXITY_TOLERANCE",
    "confidence_from_perplexity",
    "desirability",
    "desirability_rates",
    "eo_gaps",
    "option_perplexity",
    "softmax_options",
    "ucerf",
    "ucerf_group",
    "ucerf_pairs",
]

#: Relative slack allowed around ``[1, k]`` before a perplexity is rejected: perplexities
#: computed in floating point from a distribution can land a few ulps outside; those are
#: clipped, anything further out raises.
PERPLEXITY_TOLERANCE = 1e-9


def _float_array(values, name: str) -> np.ndarray:
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numeric, got {values!r:.60}") from None
    return array


def softmax_options(logprob, *, temperature: float = 1.0) -> np.ndarray:
    """Normalise option scores into a distribution over the ``k`` options (last axis).

    Parameters
    ----------
    logprob : array_like, shape (..., k)
        Scores of the options, e.g. summed log-probabilities of each completion.
        ``-inf`` is allowed (probability 0) as long as one option per row is finite.
    temperature : float, default 1
        ``p ∝ exp(logprob / T)``. ``T`` changes the confidence but never the ranking of
        the options, so predictions (and accuracy, EO) do not move.

    Returns
    -------
    ndarray, shape (..., k)

    Examples
    --------
    >>> softmax_options([[0.0, 0.0]]).tolist()
    [[0.5, 0.5]]
    >>> p = softmax_options([[-1.0, -2.0]], temperature=0.5)
    >>> round(float(p[0, 0]), 4)
    0.8808
    """
    scores = _float_array(logprob, "logprob")
    if scores.ndim == 0 or scores.shape[-1] < 2:
        raise ValueError(f"logprob needs k >= 2 options on its last axis, got shape {scores.shape}")
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError(f"temperature must be a positive number, got {temperature!r}")
    if np.isnan(scores).any() or np.isposinf(scores).any():
        raise ValueError("logprob contains NaN or +inf")
    top = scores.max(axis=-1, keepdims=True)
    if np.isneginf(top).any():
        raise ValueError("every option of some row has logprob -inf")
    scaled = (scores - top) / temperature
    weights = np.exp(scaled)
    return weights / weights.sum(axis=-1, keepdims=True)


def option_perplexity(probs) -> np.ndarray:
    """Perplexity ``exp(H(p))`` of the option distribution (last axis), in ``[1, k]``.

    Parameters
    ----------
    probs : array_like, shape (..., k)
        Non-negative, each row summing to 1 (within 1e-6).

    Examples
    --------
    >>> option_perplexity([[0.5, 0.5], [1.0, 0.0]]).tolist()
    [2.0, 1.0]
    """
    p = _float_array(probs, "probs")
    if p.ndim == 0 or p.shape[-1] < 2:
        raise ValueError(f"probs needs k >= 2 options on its last axis, got shape {p.shape}")
    if np.isnan(p).any() or (p < 0).any():
        raise ValueError("probs must be non-negative and not NaN")
    if not np.allclose(p.sum(axis=-1), 1.0, atol=1e-6):
        raise ValueError("each row of probs must sum to 1")
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log(p), 0.0)
    return np.exp(-terms.sum(axis=-1))


def confidence_from_perplexity(ppl, k: int, *, clip: bool = False) -> np.ndarray:
    """Seed 001's confidence ``c = (k − ppl) / (k − 1)``.

    Parameters
    ----------
    ppl : array_like
        Perplexity of the normalised distribution over the ``k`` answer options
        (:func:`option_perplexity`), which lies in ``[1, k]``.
    k : int
        Number of answer options (2 for a he/she coreference question), ``k >= 2``.
    clip : bool, default False
        Values within a relative :data:`PERPLEXITY_TOLERANCE` of ``[1, k]`` are always
        clipped (floating-point noise). Anything further out is a perplexity of
        something else — e.g. the token-level perplexity of a whole sentence, which is
        not bounded by ``k`` — and raises, unless ``clip=True`` asks to clip it into
        ``[1, k]`` (``c`` then saturates at 0 or 1; ERRATA: "clip and document").

    Returns
    -------
    ndarray of float in ``[0, 1]``; NaN stays NaN.

    Raises
    ------
    ValueError
        For ``k < 2`` or, without ``clip``, a perplexity outside ``[1, k]``.

    Examples
    --------
    >>> confidence_from_perplexity([1.0, 1.5, 2.0], 2).tolist()
    [1.0, 0.5, 0.0]
    >>> confidence_from_perplexity(2.0, 4).item()
    0.6666666666666666
    >>> confidence_from_perplexity(3.0, 2, clip=True).item()
    0.0
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 2:
        raise ValueError(f"k (the number of answer options) must be an integer >= 2, got {k!r}")
    p = _float_array(ppl, "ppl")
    slack = PERPLEXITY_TOLERANCE * k
    finite = p[~np.isnan(p)]
    if not clip and finite.size and ((finite < 1 - slack).any() or (finite > k + slack).any()):
        bad = finite[(finite < 1 - slack) | (finite > k + slack)]
        raise ValueError(
            f"perplexity must lie in [1, k] = [1, {k}] (it is the perplexity of the "
            f"distribution over the {k} options); got {bad[:3].tolist()}. Pass clip=True "
            "to clip it on purpose."
        )
    p = np.clip(p, 1.0, float(k))
    return (k - p) / (k - 1)


def desirability(confidence, correct) -> np.ndarray:
    """LSBP desirability: ``+c`` for a correct answer, ``−c`` for a wrong one.

    Parameters
    ----------
    confidence : array_like of float in ``[0, 1]``
    correct : array_like of bool (or 0/1), broadcastable to ``confidence``

    Examples
    --------
    >>> desirability([0.9, 0.9, 0.0], [True, False, False]).tolist()
    [0.9, -0.9, 0.0]
    """
    c = _float_array(confidence, "confidence")
    if np.isnan(c).any() or (c < 0).any() or (c > 1).any():
        raise ValueError("confidence must lie in [0, 1] (and not be NaN)")
    right = np.asarray(correct)
    if right.dtype != bool:
        if not np.isin(right, (0, 1)).all():
            raise ValueError("correct must be boolean or 0/1")
        right = right.astype(bool)
    return np.where(right, c, -c) + 0.0  # + 0.0 turns -0.0 into 0.0


def _check_desirability(d, name: str) -> np.ndarray:
    d = _float_array(d, name)
    if np.isnan(d).any() or (d < -1).any() or (d > 1).any():
        raise ValueError(f"{name} must be desirabilities in [-1, 1] (and not NaN)")
    return d


def ucerf_pairs(d_a, d_b) -> np.ndarray:
    """Per-pair UCerF ``1 − |D(x^A) − D(x^B)| / 2``.

    Examples
    --------
    >>> ucerf_pairs([1.0, 0.5], [-1.0, 0.5]).tolist()
    [0.0, 1.0]
    """
    a = _check_desirability(d_a, "d_a")
    b = _check_desirability(d_b, "d_b")
    if a.shape != b.shape:
        raise ValueError(
            f"d_a and d_b must have the same shape (one value per minimal "
            f"pair), got {a.shape} and {b.shape}"
        )
    return 1.0 - np.abs(a - b) / 2.0


def ucerf(d_a, d_b) -> float:
    """UCerF of minimal pairs: the mean of :func:`ucerf_pairs`; NaN for no pairs.

    Parameters
    ----------
    d_a, d_b : array_like, same shape
        Desirability of each pair's two members (e.g. male and female pronoun, or the
        pro- and anti-stereotypical sentence of a WinoBias pair).

    Examples
    --------
    >>> ucerf([0.9, 0.2], [0.9, -0.2])
    0.9
    >>> import math; math.isnan(ucerf([], []))
    True
    """
    values = ucerf_pairs(d_a, d_b)
    return float(values.mean()) if values.size else float("nan")


def _two_groups(group, n: int, groups) -> tuple[np.ndarray, tuple]:
    g = np.asarray(group)
    if g.shape != (n,):
        raise ValueError(f"group must have one entry per sample ({n}), got shape {g.shape}")
    if groups is None:
        present = pd.unique(pd.Series(g))
        if len(present) != 2:
            raise ValueError(
                f"need exactly two groups, found {len(present)}: "
                f"{list(present)[:5]}; pass groups=(a, b)"
            )
        groups = tuple(sorted(present, key=str))
    if isinstance(groups, str) or len(groups) != 2:
        raise ValueError(f"groups must name two groups, got {groups!r}")
    groups = tuple(groups)
    if groups[0] == groups[1]:
        raise ValueError(f"groups must name two different groups, got {groups!r}")
    missing = [name for name in groups if not np.any(g == name)]
    if missing:
        present = sorted(pd.unique(pd.Series(g)).tolist(), key=str)
        raise ValueError(
            f"unknown group{'s' if len(missing) > 1 else ''} "
            f"{', '.join(repr(name) for name in missing)} in groups={groups!r}: no sample "
            f"has {'these labels' if len(missing) > 1 else 'this label'}; the groups "
            f"present are {present[:10]!r}{' ...' if len(present) > 10 else ''}"
        )
    return g, groups


def desirability_rates(d, y_true, group, *, groups=None) -> pd.DataFrame:
    """TPD and FPD of each group (the module docstring gives the definitions).

    Parameters
    ----------
    d : array_like of float in ``[-1, 1]``
        Desirability of each sample.
    y_true : array_like of 0/1
        The binary label the rates condition on.
    group : array_like
        Group of each sample; exactly two groups (or name them with ``groups``).
    groups : tuple, optional
        ``(a, b)``: two different labels of ``group``, in the order of the rows. Samples
        of any other group are left out.

    Returns
    -------
    DataFrame
        Index the two groups; columns ``TPD``, ``FPD``, ``n_pos``, ``n_neg``. A rate
        with no sample to average is NaN.

    Raises
    ------
    ValueError
        Without ``groups``, when ``group`` does not hold exactly two labels; with it, when
        a named group has no sample (a misspelt label), naming it and the groups present.

    Examples
    --------
    >>> t = desirability_rates([1, -1, 1, 1], [1, 0, 1, 0], ["a", "a", "b", "b"])
    >>> t[["TPD", "FPD"]].to_dict("index")
    {'a': {'TPD': 1.0, 'FPD': 1.0}, 'b': {'TPD': 1.0, 'FPD': 0.0}}
    """
    values = _check_desirability(d, "d").ravel()
    y = np.asarray(y_true).ravel()
    if y.shape != values.shape:
        raise ValueError(
            f"y_true must have one label per sample ({values.size}), got shape {y.shape}"
        )
    if not np.isin(y, (0, 1)).all():
        raise ValueError("y_true must be 0/1 (or boolean)")
    y = y.astype(int)
    g, groups = _two_groups(group, values.size, groups)
    rows = {}
    for name in groups:
        member = g == name
        pos, neg = values[member & (y == 1)], values[member & (y == 0)]
        rows[name] = {
            "TPD": (1 + pos.mean()) / 2 if pos.size else np.nan,
            "FPD": (1 - neg.mean()) / 2 if neg.size else np.nan,
            "n_pos": int(pos.size),
            "n_neg": int(neg.size),
        }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "group"
    return frame


def ucerf_group(d, y_true, group, *, groups=None, agg: str = "worst_case") -> float:
    """Group-wise UCerF for data without minimal pairs: ``1 − gap(TPD, FPD)``.

    Parameters
    ----------
    d, y_true, group, groups
        As for :func:`desirability_rates`.
    agg : {'worst_case', 'mean'}, default 'worst_case'
        Combine ``|ΔTPD|`` and ``|ΔFPD|`` by their maximum (like fairlearn's
        ``equalized_odds_difference``) or their mean.

    Returns
    -------
    float in ``[0, 1]``; NaN if a group lacks positives or negatives.

    Raises
    ------
    ValueError
        For an unknown ``agg``, or a group in ``groups`` that no sample belongs to (a
        misspelt label would otherwise give NaN, as a group with no sample to average).

    Examples
    --------
    A fully confident model: ``1 −`` the equalized-odds difference.

    >>> ucerf_group([1, -1, 1, 1], [1, 0, 1, 0], ["a", "a", "b", "b"])
    0.0
    >>> ucerf_group([0, 0, 0, 0], [1, 0, 1, 0], ["a", "a", "b", "b"])
    1.0
    """
    if agg not in ("worst_case", "mean"):
        raise ValueError(f"agg must be 'worst_case' or 'mean', got {agg!r}")
    rates = desirability_rates(d, y_true, group, groups=groups)
    gaps = (rates.iloc[0][["TPD", "FPD"]] - rates.iloc[1][["TPD", "FPD"]]).abs()
    gaps = gaps.to_numpy(dtype=float)
    if np.isnan(gaps).any():
        return float("nan")
    return float(1 - (gaps.max() if agg == "worst_case" else gaps.mean()))


def eo_gaps(y_true, y_pred, group, *, groups=None) -> dict:
    """Accuracy-based gaps between two groups, for comparison with UCerF.

    Parameters
    ----------
    y_true, y_pred : array_like of 0/1
        Label and prediction (for coreference: 1 = the first-mentioned candidate).
    group : array_like
        Two groups (e.g. pro- vs anti-stereotypical, or male vs female pronoun).
    groups : tuple, optional
        ``(a, b)``, two labels of ``group`` that each occur (else ValueError); gaps are
        ``a − b``.

    Returns
    -------
    dict
        ``accuracy_a``, ``accuracy_b``, ``accuracy_gap`` (a − b; WinoBias' usual bias
        score), ``tpr_gap``, ``fpr_gap`` (a − b), and ``eo_difference`` =
        ``max(|tpr_gap|, |fpr_gap|)`` (fairlearn's ``equalized_odds_difference``).
        Undefined rates are NaN.

    Examples
    --------
    >>> r = eo_gaps([1, 0, 1, 0], [1, 0, 0, 0], ["pro", "pro", "anti", "anti"],
    ...             groups=("pro", "anti"))
    >>> r["accuracy_gap"], r["tpr_gap"], r["eo_difference"]
    (0.5, 1.0, 1.0)
    """
    y = np.asarray(y_true).ravel()
    p = np.asarray(y_pred).ravel()
    if y.shape != p.shape:
        raise ValueError(f"y_true and y_pred differ in length: {y.size} vs {p.size}")
    for name, values in (("y_true", y), ("y_pred", p)):
        if not np.isin(values, (0, 1)).all():
            raise ValueError(f"{name} must be 0/1 (or boolean)")
    y, p = y.astype(int), p.astype(int)
    g, groups = _two_groups(group, y.size, groups)

    def rate(mask):
        return float(p[mask].mean()) if mask.any() else np.nan

    stats = {}
    for label, name in zip("ab", groups, strict=True):
        member = g == name
        stats[label] = {
            "acc": float((y[member] == p[member]).mean()) if member.any() else np.nan,
            "tpr": rate(member & (y == 1)),
            "fpr": rate(member & (y == 0)),
        }
    tpr_gap = stats["a"]["tpr"] - stats["b"]["tpr"]
    fpr_gap = stats["a"]["fpr"] - stats["b"]["fpr"]
    return {
        "accuracy_a": stats["a"]["acc"],
        "accuracy_b": stats["b"]["acc"],
        "accuracy_gap": stats["a"]["acc"] - stats["b"]["acc"],
        "tpr_gap": tpr_gap,
        "fpr_gap": fpr_gap,
        "eo_difference": float(max(abs(tpr_gap), abs(fpr_gap)))
        if not (np.isnan(tpr_gap) or np.isnan(fpr_gap))
        else np.nan,
    }
