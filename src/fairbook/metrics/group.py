"""Bias metrics that contrast groups.

* :func:`compare` — the two-group metrics of seed 003 Table 3.2 (OFI, DI, ACCD, …).
* :func:`bias_report` — seed 004's seven metrics (App. A.2) per class and overall.
* :func:`ratio_measures` — seed 000's point-based ratio measures (Eqs. 23–26).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from fairbook.confusion import confusion_counts, multiclass_counts, one_vs_rest
from fairbook.labels import label_position, show_value, show_values
from fairbook.metrics.rates import _ratio, as_counts, compute

__all__ = [
    "COMPARISONS",
    "BIAS_REPORT_METRICS",
    "ComparisonInfo",
    "bias_report",
    "compare",
    "ratio_measures",
]


@dataclass(frozen=True)
class ComparisonInfo:
    """Catalogue entry of a two-group metric of seed 003 Table 3.2."""

    name: str
    long_name: str
    formula: str  # LaTeX, as implemented
    pivot: float | None  # the "no bias" value; None for boolean checks
    boolean: bool = False
    note: str = ""


COMPARISONS: dict[str, ComparisonInfo] = {
    c.name: c
    for c in [
        ComparisonInfo(
            "ACCD", "Accuracy difference", r"\frac{TP_i+TN_i}{n_i}-\frac{TP_j+TN_j}{n_j}", 0.0
        ),
        ComparisonInfo("MCCD", "MCC difference", r"MCC_i-MCC_j", 0.0),
        ComparisonInfo(
            "DI",
            "Disparate impact",
            r"\frac{\hat P_i/n_i}{\hat P_j/n_j}",
            1.0,
            note="0/0 and x/0 are NaN (seed 003 Table 3.1 prints 'NaN or 1').",
        ),
        ComparisonInfo(
            "PP",
            "Predictive parity",
            r"\frac{TP_i}{\hat P_i}-\frac{TP_j}{\hat P_j}",
            0.0,
            note="The extracted Table 3.2 prints TP/P; predictive parity "
            "(Chouldechova 2017) compares precision TP/P̂, a hat lost in "
            "extraction as in DI's p̂. The properties are the same either way.",
        ),
        ComparisonInfo("TE", "Treatment equality", r"\frac{FN_i}{FP_i}-\frac{FN_j}{FP_j}", 0.0),
        ComparisonInfo(
            "EO",
            "Equalized odds (check)",
            r"(FPR_i=FPR_j)\wedge(TPR_i=TPR_j)",
            None,
            boolean=True,
            note="1.0 when satisfied, 0.0 when not, NaN when a rate is undefined.",
        ),
        ComparisonInfo(
            "SP",
            "Statistical parity (check)",
            r"\hat P_i/n_i=\hat P_j/n_j",
            None,
            boolean=True,
            note="Rates, not counts: the printed P̂_i = P̂_j would "
            "call groups of different sizes unfair by construction.",
        ),
        ComparisonInfo(
            "AAOD",
            "Average absolute odds difference",
            r"\tfrac12\left(\left|\tfrac{FP_i}{N_i}-\tfrac{FP_j}{N_j}\right|"
            r"+\left|\tfrac{TP_i}{P_i}-\tfrac{TP_j}{P_j}\right|\right)",
            0.0,
        ),
        ComparisonInfo(
            "DCA",
            "Difference in conditional acceptance",
            r"\frac{P_i}{\hat P_i}-\frac{P_j}{\hat P_j}",
            0.0,
        ),
        ComparisonInfo(
            "DCR",
            "Difference in conditional rejection",
            r"\frac{N_j}{\hat N_j}-\frac{N_i}{\hat N_i}",
            0.0,
        ),
        ComparisonInfo(
            "DPPL",
            "Difference in positive proportions of labels",
            r"\frac{\hat P_i}{n_i}-\frac{\hat P_j}{n_j}",
            0.0,
            note="As printed it equals the demographic-parity difference (see the errata page).",
        ),
        ComparisonInfo(
            "OFI", "Objective Fairness Index", r"\frac{FP_i-FN_i}{n_i}-\frac{FP_j-FN_j}{n_j}", 0.0
        ),
    ]
}


def _equal(a, b):
    out = np.where(np.isclose(a, b, rtol=1e-12, atol=1e-12), 1.0, 0.0)
    return np.where(np.isnan(a) | np.isnan(b), np.nan, out)


def _compare_values(key: str, ci: np.ndarray, cj: np.ndarray):
    tp_i, fn_i, fp_i, tn_i = (ci[..., k] for k in range(4))
    tp_j, fn_j, fp_j, tn_j = (cj[..., k] for k in range(4))
    if key == "OFI":
        return compute("B", ci) - compute("B", cj)
    if key == "DI":
        return _ratio(compute("PPR", ci), compute("PPR", cj))
    if key == "ACCD":
        return compute("ACC", ci) - compute("ACC", cj)
    if key == "MCCD":
        return compute("MCC", ci) - compute("MCC", cj)
    if key == "PP":
        return compute("PPV", ci) - compute("PPV", cj)
    if key == "TE":
        return _ratio(fn_i, fp_i) - _ratio(fn_j, fp_j)
    if key == "AAOD":
        return 0.5 * (
            np.abs(compute("FPR", ci) - compute("FPR", cj))
            + np.abs(compute("TPR", ci) - compute("TPR", cj))
        )
    if key == "DCA":
        return _ratio(tp_i + fn_i, tp_i + fp_i) - _ratio(tp_j + fn_j, tp_j + fp_j)
    if key == "DCR":
        return _ratio(tn_j + fp_j, tn_j + fn_j) - _ratio(tn_i + fp_i, tn_i + fn_i)
    if key == "DPPL":
        return compute("PPR", ci) - compute("PPR", cj)
    if key == "EO":
        fpr = _equal(compute("FPR", ci), compute("FPR", cj))
        tpr = _equal(compute("TPR", ci), compute("TPR", cj))
        return np.where(np.isnan(fpr) | np.isnan(tpr), np.nan, fpr * tpr)
    if key == "SP":
        return _equal(compute("PPR", ci), compute("PPR", cj))
    raise AssertionError(key)  # pragma: no cover - guarded by compare()


def compare(name: str, cm_i, cm_j):
    """Two-group bias metric of seed 003 Table 3.2, group ``i`` against group ``j``.

    Parameters
    ----------
    name : str
        One of ``OFI DI ACCD MCCD PP TE AAOD DCA DCR DPPL`` (and the boolean checks
        ``EO SP``); case-insensitive. See :data:`COMPARISONS` for formulas and pivots.
    cm_i, cm_j : array-like of shape (..., 4)
        ``[TP, FN, FP, TN]`` of each group; broadcast against each other.

    Returns
    -------
    float or ndarray
        The score; NaN where undefined (a zero denominator or an empty group).
        For OFI a positive score means bias toward group ``i``.

    Examples
    --------
    >>> round(compare("OFI", [1, 0, 0, 5], [7, 0, 1, 10]), 3)  # seed 003 Table 3.1, A
    -0.056
    >>> round(compare("DI", [1, 0, 0, 5], [7, 0, 1, 10]), 3)
    0.375
    """
    if not isinstance(name, str) or name.upper() not in COMPARISONS:
        raise ValueError(f"unknown comparison {name!r}; choose one of {', '.join(COMPARISONS)}")
    ci = as_counts(cm_i, name="cm_i")
    cj = as_counts(cm_j, name="cm_j")
    try:
        np.broadcast_shapes(ci.shape, cj.shape)
    except ValueError as error:
        raise ValueError(f"cm_i {ci.shape} and cm_j {cj.shape} do not broadcast") from error
    with np.errstate(invalid="ignore"):
        value = _compare_values(name.upper(), ci, cj)
    return float(value) if np.ndim(value) == 0 else value


# --------------------------------------------------------------------------- seed 004
BIAS_REPORT_METRICS = ("DP", "DI_BAR", "SPSF", "FPSF", "EOFP", "EOTP", "BA")


def _seed004_rows(cm: np.ndarray, group_share: np.ndarray, pair: tuple[int, int]):
    """Seven metrics for one-vs-rest counts ``cm`` shaped (n_groups, 4) of one class."""
    ppr = compute("PPR", cm)
    fpr = compute("FPR", cm)
    tpr = compute("TPR", cm)
    total = cm.sum(axis=0)
    a, b = pair
    with np.errstate(invalid="ignore"):
        # fmin ignores one NaN: 0 vs x > 0 gives 1 (completely unfair); 0 vs 0 stays NaN.
        di_bar = 1.0 - np.fmin(_ratio(ppr[a], ppr[b]), _ratio(ppr[b], ppr[a]))
        spsf = _weighted_gap(compute("PPR", total), ppr, group_share)
        fpsf = _weighted_gap(compute("FPR", total), fpr, group_share)
        positives = cm[:, 0] + cm[:, 1]
        predicted = cm[:, 0] + cm[:, 2]
        # ḡ = argmax_g P_g / P; ties go to the first group in sorted label order. With two
        # groups both choices give the same |.| (the shares sum to 1 on both sides).
        g_bar = int(np.argmax(positives))
        ba = abs(
            float(_ratio(predicted[g_bar], predicted.sum()))
            - float(_ratio(positives[g_bar], positives.sum()))
        )
    return {
        "DP": abs(ppr[a] - ppr[b]),
        "DI_BAR": float(di_bar),
        "SPSF": spsf,
        "FPSF": fpsf,
        "EOFP": abs(fpr[a] - fpr[b]),
        "EOTP": abs(tpr[a] - tpr[b]),
        "BA": ba,
    }


def _weighted_gap(overall: float, per_group: np.ndarray, share: np.ndarray) -> float:
    """Σ_g Pr[g] |overall − per_group[g]|; NaN if any group's rate is undefined."""
    if np.isnan(overall) or np.isnan(per_group).any():
        return np.nan
    return float(np.sum(share * np.abs(overall - per_group)))


def bias_report(y_true, y_pred, groups, *, positive=None) -> pd.DataFrame:
    """Seed 004's seven bias metrics per class (one-vs-rest) and overall.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        True and predicted labels; any number of classes, strings allowed.
    groups : array-like of shape (n,)
        Protected-group membership. SPSF and FPSF use every group; the pairwise metrics
        (DP, DI_BAR, EOFP, EOTP) use the two largest groups (ties broken by sorted label).
    positive : label, optional
        Report only this class's row (the binary view).

    Returns
    -------
    pandas.DataFrame
        Columns ``DP DI_BAR SPSF FPSF EOFP EOTP BA`` as fractions (seed 004 App. A.2, with
        Pr[g] the group's share of the data), one row per class indexed by its label and a
        last row ``"overall"`` = the mean over classes (NaN if any class is NaN).
        ``df.attrs["groups"]`` records the pair used by the pairwise metrics.

    Examples
    --------
    >>> report = bias_report([1, 1, 0, 0], [1, 0, 0, 0], ["a", "a", "b", "b"])
    >>> float(report.loc["overall", "DP"])
    0.5
    """
    classes, group_labels, matrices = multiclass_counts(y_true, y_pred, groups)
    if group_labels.size < 2:
        raise ValueError(f"bias_report needs at least two groups, got {show_values(group_labels)}")
    ovr = one_vs_rest(matrices)  # (G, K, 4)
    sizes = matrices.sum(axis=(1, 2))
    share = sizes / sizes.sum()
    order = np.argsort(-sizes, kind="stable")
    pair = (int(order[0]), int(order[1]))
    rows = {cls: _seed004_rows(ovr[:, k, :], share, pair) for k, cls in enumerate(classes)}
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=list(BIAS_REPORT_METRICS))
    if positive is not None:
        frame = frame.iloc[[label_position(classes, positive, what="positive", name="labels")]]
    else:
        frame.loc["overall"] = frame.mean(axis=0, skipna=False)
    frame.attrs["groups"] = tuple(group_labels[list(pair)].tolist())
    return frame


# --------------------------------------------------------------------------- seed 000
def ratio_measures(y_true, y_pred, groups, *, protected, reference, positive=1) -> dict:
    """Seed 000's point-based ratio measures, protected group over reference group.

    ``F = M(G = protected) / M(G = reference)``; 1 is fair and the paper flags
    ``|F − 1| > 0.2``. Following ERRATA: F_EOpp is reported both as the TPR ratio (what
    the paper's tables show) and as the FNR ratio (what Eq. 24 prints); F_EOdd is
    reported for y = 0 (FPR ratio) and y = 1 (TPR ratio).

    Parameters
    ----------
    y_true, y_pred, groups : array-like of shape (n,)
    protected, reference : labels of ``groups`` (G = 0 and G = 1 in the paper)
    positive : label of the positive class

    Returns
    -------
    dict
        ``F_SP, F_EOpp, F_EOpp_FNR, F_EOdd_y0, F_EOdd_y1, F_EAcc``; NaN where undefined.

    Examples
    --------
    >>> r = ratio_measures([1, 0, 1, 0], [1, 1, 1, 0], ["a", "a", "b", "b"],
    ...                    protected="a", reference="b")
    >>> r["F_SP"]
    2.0
    """
    counts, labels = confusion_counts(y_true, y_pred, groups, positive=positive, return_groups=True)
    found = {}
    for role, label in (("protected", protected), ("reference", reference)):
        hits = np.flatnonzero(labels == label)
        if hits.size == 0:
            raise ValueError(
                f"{role} group {show_value(label)} not in groups {show_values(labels)}"
            )
        found[role] = counts[hits[0]]
    g0, g1 = found["protected"], found["reference"]

    def ratio(metric):
        return float(_ratio(compute(metric, g0), compute(metric, g1)))

    return {
        "F_SP": ratio("PPR"),
        "F_EOpp": ratio("TPR"),
        "F_EOpp_FNR": ratio("FNR"),
        "F_EOdd_y0": ratio("FPR"),
        "F_EOdd_y1": ratio("TPR"),
        "F_EAcc": ratio("ACC"),
    }
