"""Every single-confusion-matrix metric of seed 003 (Tables 2.2–2.4, corrected).

All functions take counts shaped ``[..., 4]`` in the order ``[TP, FN, FP, TN]`` and are
vectorised over the leading axes. Counts may be real-valued (smoothed matrices are), but
must be finite and non-negative. Where a metric divides by zero it is *undefined* and the
result is NaN — never a silent 0. The corrections of ``ERRATA.md`` are applied: e.g.
TPR = TP/(TP+FN) and B = (FP − FN)/n (the extracted tables print TP/(TP+FP) and (FP − TP)/n).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["METRICS", "MetricInfo", "as_counts", "compute", "compute_all", "undefined_reason"]


@dataclass(frozen=True)
class MetricInfo:
    """Catalogue entry of one metric (what the chapter's tables print)."""

    name: str
    long_name: str
    family: str  # "binomial", "joint ratio" or "other"
    formula: str  # LaTeX, corrected
    undefined_when: str  # human-readable condition, "" if defined everywhere
    paper_formula: str = ""  # as printed in seed 003, when it differs
    description: str = ""


_B = "binomial"
_J = "joint ratio"
_O = "other"

METRICS: dict[str, MetricInfo] = {
    m.name: m
    for m in [
        MetricInfo(
            "ACC", "Accuracy", _B, r"\frac{TP+TN}{n}", "n = 0", "", "Share of correct predictions."
        ),
        MetricInfo(
            "PREV",
            "Prevalence",
            _B,
            r"\frac{TP+FN}{n}",
            "n = 0",
            r"\frac{TP+TP}{n}",
            "Share of actual positives.",
        ),
        MetricInfo(
            "PPR",
            "Predicted positive rate",
            _B,
            r"\frac{TP+FP}{n}",
            "n = 0",
            "",
            "Share predicted positive (selection rate).",
        ),
        MetricInfo(
            "INACC",
            "Inaccuracy",
            _B,
            r"\frac{FP+FN}{n}",
            "n = 0",
            r"\frac{FP+TP}{n}",
            "Share of wrong predictions (error rate).",
        ),
        MetricInfo(
            "NPREV",
            "Negative prevalence",
            _B,
            r"\frac{TN+FP}{n}",
            "n = 0",
            "",
            "Share of actual negatives.",
        ),
        MetricInfo(
            "PNR",
            "Predicted negative rate",
            _B,
            r"\frac{TN+FN}{n}",
            "n = 0",
            r"\frac{TN+TP}{n}",
            "Share predicted negative.",
        ),
        MetricInfo(
            "TPR",
            "True positive rate",
            _J,
            r"\frac{TP}{TP+FN}",
            "TP + FN = 0 (no actual positives)",
            r"\frac{TP}{TP+FP}",
            "Recall, sensitivity.",
        ),
        MetricInfo(
            "FPR",
            "False positive rate",
            _J,
            r"\frac{FP}{FP+TN}",
            "FP + TN = 0 (no actual negatives)",
            "",
            "Fall-out.",
        ),
        MetricInfo(
            "TNR",
            "True negative rate",
            _J,
            r"\frac{TN}{TN+FP}",
            "TN + FP = 0 (no actual negatives)",
            "",
            "Specificity.",
        ),
        MetricInfo(
            "FNR",
            "False negative rate",
            _J,
            r"\frac{FN}{FN+TP}",
            "FN + TP = 0 (no actual positives)",
            "",
            "Miss rate.",
        ),
        MetricInfo(
            "PPV",
            "Positive predictive value",
            _J,
            r"\frac{TP}{TP+FP}",
            "TP + FP = 0 (no positive predictions)",
            "",
            "Precision.",
        ),
        MetricInfo(
            "NPV",
            "Negative predictive value",
            _J,
            r"\frac{TN}{TN+FN}",
            "TN + FN = 0 (no negative predictions)",
            r"\frac{TN}{TN+FP}",
            "",
        ),
        MetricInfo(
            "FDR",
            "False discovery rate",
            _J,
            r"\frac{FP}{FP+TP}",
            "FP + TP = 0 (no positive predictions)",
            "",
            "",
        ),
        MetricInfo(
            "FOR",
            "False omission rate",
            _J,
            r"\frac{FN}{FN+TN}",
            "FN + TN = 0 (no negative predictions)",
            "",
            "",
        ),
        MetricInfo(
            "F1",
            "F1 score",
            _O,
            r"\frac{2\,TP}{2\,TP+FP+FN}",
            "TP + FP + FN = 0",
            r"\frac{2\,TP}{2\,TP+FP+TP}",
            "Harmonic mean of precision and recall.",
        ),
        MetricInfo(
            "MCC",
            "Matthews correlation coefficient",
            _O,
            r"\frac{TP\cdot TN-FP\cdot FN}{\sqrt{(TP+FP)(TP+FN)(TN+FP)(TN+FN)}}",
            "any of TP+FP, TP+FN, TN+FP, TN+FN is 0",
            r"\frac{TP\cdot TN-FP\cdot TP}{\sqrt{(TP+FP)(TP+TP)(TN+FP)(TN+TP)}}",
            "",
        ),
        MetricInfo(
            "PT",
            "Prevalence threshold",
            _O,
            r"\frac{\sqrt{TPR\cdot FPR}-FPR}{TPR-FPR}",
            "TPR or FPR undefined, or TPR = FPR",
            "",
            "",
        ),
        MetricInfo(
            "B",
            "Marginal benefit",
            _O,
            r"\frac{FP-FN}{n}",
            "n = 0",
            r"\frac{FP-TP}{n}",
            "Benefit minus expected benefit (Definition 3.6).",
        ),
    ]
}


def as_counts(cm, *, name: str = "cm") -> np.ndarray:
    """Validate confusion counts and return them as a float array ``[..., 4]``.

    Parameters
    ----------
    cm : array-like of shape (..., 4)
        ``[TP, FN, FP, TN]``; integers or non-negative reals.
    name : str
        Used in error messages.

    Examples
    --------
    >>> as_counts([1, 2, 3, 4]).tolist()
    [1.0, 2.0, 3.0, 4.0]
    """
    array = np.asarray(cm)
    if array.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be numeric counts, got dtype {array.dtype}")
    if array.ndim == 0 or array.shape[-1] != 4:
        raise ValueError(
            f"{name} must have a last axis of length 4 [TP, FN, FP, TN], got shape {array.shape}"
        )
    array = array.astype(np.float64, copy=False)
    if not np.isfinite(array).all():
        raise ValueError(f"{name} contains non-finite counts (NaN or inf)")
    if (array < 0).any():
        raise ValueError(f"{name} contains negative counts")
    return array


def _ratio(numerator, denominator):
    """numerator / denominator, NaN where the denominator is 0."""
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    defined = denominator != 0
    out = np.divide(
        numerator,
        denominator,
        out=np.full(np.broadcast(numerator, denominator).shape, np.nan),
        where=defined,
    )
    return out


def _cells(cm):
    return cm[..., 0], cm[..., 1], cm[..., 2], cm[..., 3]


def _mcc(tp, fn, fp, tn):
    """MCC without overflow or underflow at any scale of the counts.

    MCC is invariant to scaling all four counts, so they are first divided by the
    largest of them (each then lies in [0, 1], and a zero count stays zero). The
    denominator is ``sqrt(PP·PN) · sqrt(AP·AN)`` (predicted positives times predicted
    negatives, actual positives times actual negatives): each pair sums to ``n / max >=
    1``, so one factor of each product is at least 1/2 and neither product overflows or
    underflows. The textbook ``sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN))`` overflows to inf for
    counts of about 1e77 (MCC came out 0) and underflows to 0 for tiny real-valued counts
    (MCC came out NaN). A margin is 0 exactly when it was 0 before scaling, so the holes
    are unchanged. The result is clipped to [-1, 1] (Cauchy–Schwarz), which only removes
    rounding such as ``-1.0000000000000002``.
    """
    largest = np.maximum(np.maximum(tp, fn), np.maximum(fp, tn))
    scale = np.where(largest > 0, largest, 1.0)
    tp, fn, fp, tn = tp / scale, fn / scale, fp / scale, tn / scale
    denominator = np.sqrt((tp + fp) * (tn + fn)) * np.sqrt((tp + fn) * (tn + fp))
    return np.clip(_ratio(tp * tn - fp * fn, denominator), -1.0, 1.0)


def _pt(tp, fn, fp, tn):
    tpr = _ratio(tp, tp + fn)
    fpr = _ratio(fp, fp + tn)
    with np.errstate(invalid="ignore"):
        return _ratio(np.sqrt(tpr * fpr) - fpr, tpr - fpr)


_FORMULAS = {
    "ACC": lambda tp, fn, fp, tn: _ratio(tp + tn, tp + fn + fp + tn),
    "PREV": lambda tp, fn, fp, tn: _ratio(tp + fn, tp + fn + fp + tn),
    "PPR": lambda tp, fn, fp, tn: _ratio(tp + fp, tp + fn + fp + tn),
    "INACC": lambda tp, fn, fp, tn: _ratio(fp + fn, tp + fn + fp + tn),
    "NPREV": lambda tp, fn, fp, tn: _ratio(tn + fp, tp + fn + fp + tn),
    "PNR": lambda tp, fn, fp, tn: _ratio(tn + fn, tp + fn + fp + tn),
    "TPR": lambda tp, fn, fp, tn: _ratio(tp, tp + fn),
    "FPR": lambda tp, fn, fp, tn: _ratio(fp, fp + tn),
    "TNR": lambda tp, fn, fp, tn: _ratio(tn, tn + fp),
    "FNR": lambda tp, fn, fp, tn: _ratio(fn, fn + tp),
    "PPV": lambda tp, fn, fp, tn: _ratio(tp, tp + fp),
    "NPV": lambda tp, fn, fp, tn: _ratio(tn, tn + fn),
    "FDR": lambda tp, fn, fp, tn: _ratio(fp, fp + tp),
    "FOR": lambda tp, fn, fp, tn: _ratio(fn, fn + tn),
    "F1": lambda tp, fn, fp, tn: _ratio(2 * tp, 2 * tp + fp + fn),
    "MCC": _mcc,
    "PT": _pt,
    "B": lambda tp, fn, fp, tn: _ratio(fp - fn, tp + fn + fp + tn),
}


def _check_name(name: str, known) -> str:
    if not isinstance(name, str) or name.upper() not in known:
        raise ValueError(f"unknown metric {name!r}; choose one of {', '.join(known)}")
    return name.upper()


def compute(name: str, cm):
    """Compute one metric of one confusion matrix or a batch of them.

    Parameters
    ----------
    name : str
        One of ``ACC PREV PPR INACC NPREV PNR TPR FPR TNR FNR PPV NPV FDR FOR F1 MCC PT B``
        (case-insensitive).
    cm : array-like of shape (..., 4)
        ``[TP, FN, FP, TN]`` counts, possibly real-valued.

    Returns
    -------
    float or ndarray of shape (...)
        NaN where the metric is undefined (see ``METRICS[name].undefined_when``).

    Examples
    --------
    >>> compute("TPR", [3, 1, 2, 4])
    0.75
    >>> compute("PPV", [[1, 0, 1, 2], [0, 2, 0, 2]])
    array([0.5, nan])
    """
    key = _check_name(name, _FORMULAS)
    value = _FORMULAS[key](*_cells(as_counts(cm)))
    return float(value) if np.ndim(value) == 0 else value


def compute_all(cm) -> dict[str, float | np.ndarray]:
    """Every metric of :data:`METRICS` for ``cm``, as a dict in catalogue order.

    Examples
    --------
    >>> round(compute_all([1, 1, 1, 1])["ACC"], 2)
    0.5
    """
    counts = as_counts(cm)
    out = {}
    for key, formula in _FORMULAS.items():
        value = formula(*_cells(counts))
        out[key] = float(value) if np.ndim(value) == 0 else value
    return out


def undefined_reason(name: str, cm) -> str:
    """Explain why ``name`` is undefined for one matrix, or ``""`` if it is defined.

    Examples
    --------
    >>> undefined_reason("TPR", [0, 0, 3, 4])
    'TP + FN = 0 (no actual positives)'
    >>> undefined_reason("ACC", [0, 0, 3, 4])
    ''
    """
    key = _check_name(name, _FORMULAS)
    counts = as_counts(cm)
    if counts.ndim != 1:
        raise ValueError("undefined_reason takes one confusion matrix of shape (4,)")
    return METRICS[key].undefined_when if np.isnan(compute(key, counts)) else ""
