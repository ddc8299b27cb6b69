"""The chapter's two audits, by :func:`fairbook.audit.audit`, and the tables and sentences
the chapter shows of them (instead of the whole plain-text report)."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

import numpy as np
import pandas as pd

from fairbook.audit import AuditReport, audit

from .settings import COMPAS_REFERENCES

__all__ = [
    "AuditSummary",
    "adult_audit",
    "audit_counts",
    "audit_summary",
    "comparisons_table",
    "compas_audit",
    "flip_patterns",
    "flips_table",
    "group_counts",
    "group_rates",
    "small_groups",
    "survivors",
    "uncertainty_table",
]


def compas_audit(frame: pd.DataFrame, *, alpha: float, min_gap: float) -> AuditReport:
    """Audit ProPublica's COMPAS scores by race, sex and age class against
    :data:`~fairbook_book.chapters.audit_your_model.settings.COMPAS_REFERENCES`, with the
    low-risk score's balance and calibration.

    The chapter's labels are oriented as seed 003 orients them: 1 = did not reoffend, predicted
    low risk. A positive prediction therefore *helps* the person (``decision="assistive"``):
    the false negatives — people who did not reoffend but were scored risky — matter most.

    Examples
    --------
    >>> from fairbook_book.chapters.audit_your_model.runs import compas_predictions
    >>> report = compas_audit(compas_predictions(), alpha=0.05, min_gap=0.05)  # doctest: +SKIP
    >>> report.reference["race"]  # doctest: +SKIP
    'Caucasian'
    """
    return audit(
        frame,
        groups=("race", "sex", "age_cat"),
        reference=dict(COMPAS_REFERENCES),
        score="low_risk_score",
        alpha=alpha,
        min_gap=min_gap,
        decision="assistive",
    )


def adult_audit(frame: pd.DataFrame, *, alpha: float, min_gap: float) -> AuditReport:
    """Audit the Adult forests by race, sex and their intersections: the first forest's
    predictions, the spread of the verdicts over the forests (``pred_*``) and the
    uncertainty of their ensemble (``p_*``). A positive prediction (income above 50K, the
    stand-in for a favourable decision) helps the person: ``decision="assistive"``.
    """
    runs = sorted(c for c in frame.columns if c.startswith("pred_"))
    samples = sorted(c for c in frame.columns if c.startswith("p_"))
    return audit(
        frame,
        groups=("race", "sex"),
        intersections=True,
        runs=runs,
        samples=samples,
        alpha=alpha,
        min_gap=min_gap,
        decision="assistive",
    )


# =========================================================================== display
#: Columns of :func:`survivors` and :func:`comparisons_table`, renamed for the reader.
_COMPARISON_NAMES = {
    "score": "score",
    "cps": "CPS",
    "reference_score": "reference",
    "gap": "gap",
    "ratio": "ratio",
    "p_value": "p",
    "p_holm": "Holm p",
    "verdict": "verdict",
}


def _label(value) -> str:
    return str(value)


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _listing(items: list[str], limit: int) -> str:
    """``a, b and c``; beyond ``limit`` items, ``a, b and 3 more``."""
    if len(items) > limit:
        return ", ".join(items[:limit]) + f" and {len(items) - limit} more"
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


@dataclass(frozen=True)
class AuditSummary:
    """A few plain sentences on what an audit found (:func:`audit_summary`); shown as one
    paragraph in a notebook."""

    sentences: tuple[str, ...]

    def _repr_markdown_(self) -> str:
        return " ".join(self.sentences)

    def __repr__(self) -> str:
        return textwrap.fill(" ".join(self.sentences), width=100)


def audit_summary(report: AuditReport, *, max_listed: int = 4) -> AuditSummary:
    """What an audit found, in sentences: its size and references, how many comparisons
    survive MATCH after Holm's adjustment and for which groups, which groups are too small,
    and (where the audit has them) flagged uncertainty ratios and verdicts that flip
    between runs. Lists of groups name at most ``max_listed`` (the tables list them all).

    Examples
    --------
    >>> from fairbook.audit import audit, predictions_frame
    >>> frame = predictions_frame([1, 0] * 30, [1, 0] * 20 + [0, 1] * 10, ["a"] * 40 + ["b"] * 20)
    >>> report = audit(frame)
    >>> print(audit_summary(report).sentences[0])
    An audit of 60 people on 1 attribute (group, 2 groups, reference a).
    """
    settings = report.settings
    summary = report.summary()
    groups = report.to_frame("groups")
    parts = []
    for attribute in report.attributes:
        count = int((groups["attribute"] == attribute).sum())
        parts.append(
            f"{attribute}, {count} groups, reference {_label(report.references[attribute])}"
        )
    sentences = [
        f"An audit of {settings['rows']:,} people on {_count(len(parts), 'attribute')} "
        f"({'; '.join(parts)})."
    ]
    significant = summary["significant"]
    by_group: dict = {}
    for row in significant:
        key = (row["attribute"], _label(row["group"]))
        by_group[key] = by_group.get(key, 0) + 1
    named = [
        f"{group} ({attribute}, {_count(n, 'metric')})"
        for (attribute, group), n in by_group.items()
    ]
    sentences.append(
        f"{len(significant)} of {summary['tests']} comparisons with the reference group survive "
        f"MATCH after Holm's adjustment at α = {settings['alpha']:g}"
        + (
            f", for {_count(len(by_group), 'group')}: {_listing(named, max_listed)}."
            if named
            else "."
        )
    )
    small = summary["small_groups"]
    if small:
        listed = [f"{_label(s['group'])} ({s['n']:,} people)" for s in small]
        sentences.append(
            f"{_count(len(small), 'group')} {'is' if len(small) == 1 else 'are'} too small to "
            f"tell a gap of {settings['min_gap']:g} from chance in at least one metric: "
            f"{_listing(listed, max_listed)}."
        )
    else:
        sentences.append(
            f"No group is too small to tell a gap of {settings['min_gap']:g} from chance."
        )
    if report.tables.get("uncertainty") is not None:
        flagged = {(u["attribute"], _label(u["group"])) for u in summary["uncertainty_unfair"]}
        sentences.append(
            f"{_count(len(flagged), 'group')} {'has' if len(flagged) == 1 else 'have'} at "
            "least one uncertainty ratio flagged unfair (|F − 1| > 0.2)."
        )
    if report.tables.get("stability") is not None:
        stability = report.tables["stability"]
        runs = int(stability["runs"].max())
        sentences.append(
            f"Over {runs} runs, {len(summary['flips'])} of {len(stability)} verdicts (group and "
            "metric) flip between runs."
        )
    return AuditSummary(tuple(sentences))


def survivors(report: AuditReport) -> pd.DataFrame:
    """The disparities that survive MATCH after Holm's adjustment, one row each: the group's
    score beside the reference's, the gap and the adjusted p-value.

    Examples
    --------
    >>> from fairbook.audit import audit, predictions_frame
    >>> frame = predictions_frame([1, 0] * 100, [1, 0] * 50 + [1, 1] * 50,
    ...                           ["a"] * 100 + ["b"] * 100)
    >>> report = audit(frame)
    >>> survivors(report)[["group", "metric"]].values.tolist()
    [['b', 'ACC'], ['b', 'PPR'], ['b', 'B'], ['b', 'FPR'], ['b', 'PPV']]
    """
    table = report.to_frame("comparisons")
    chosen = table[table["verdict"] == "disparity survives"]
    order = {attribute: i for i, attribute in enumerate(report.attributes)}
    chosen = chosen.assign(_order=chosen["attribute"].map(order)).sort_values(
        ["_order", "group"], kind="stable"
    )
    columns = ["attribute", "group", "metric", "n", "score", "reference_score", "gap", "p_holm"]
    return chosen[columns].rename(columns=_COMPARISON_NAMES).reset_index(drop=True)


def small_groups(report: AuditReport) -> pd.DataFrame:
    """The groups too small for some metric: which metrics, and the MATCH p-value a gap of
    ``min_gap`` would have there (its range over those metrics) — at or above α, such a gap
    could not be told from chance.

    Examples
    --------
    >>> from fairbook.audit import audit, predictions_frame
    >>> frame = predictions_frame([1, 0] * 20 + [1, 1, 0], [1, 0] * 20 + [0, 0, 1],
    ...                           ["a"] * 40 + ["b"] * 3)
    >>> report = audit(frame)
    >>> small_groups(report)[["group", "n"]].values.tolist()
    [['b', 3]]
    """
    comparisons = report.to_frame("comparisons")
    gap = f"p of a {report.settings['min_gap']:g} gap"
    rows = []
    for entry in report.summary()["small_groups"]:
        part = comparisons[
            (comparisons["attribute"] == entry["attribute"])
            & (comparisons["group"] == entry["group"])
            & comparisons["metric"].isin(entry["metrics"])
        ]["min_gap_p"].dropna()
        low, high = (part.min(), part.max()) if len(part) else (np.nan, np.nan)
        span = (
            ""
            if not len(part)
            else (f"{low:.2g}" if f"{low:.2g}" == f"{high:.2g}" else f"{low:.2g} to {high:.2g}")
        )
        rows.append(
            {
                "attribute": entry["attribute"],
                "group": entry["group"],
                "n": entry["n"],
                "too small for": ", ".join(entry["metrics"]),
                gap: span,
            }
        )
    return pd.DataFrame(rows, columns=["attribute", "group", "n", "too small for", gap])


def _groups_of(report: AuditReport, attribute: str) -> tuple[pd.DataFrame, pd.Index]:
    table = report.to_frame("groups")
    part = table[table["attribute"] == attribute]
    if part.empty:
        raise ValueError(f"the audit has no attribute {attribute!r}: {report.attributes}")
    index = [
        f"{_label(g)} (ref)" if ref else _label(g)
        for g, ref in zip(part["group"], part["is_reference"], strict=True)
    ]
    return part, pd.Index(index, name=attribute)


def group_counts(report: AuditReport, attribute: str) -> pd.DataFrame:
    """One attribute's groups (the reference marked ``(ref)``): size, share of the rows,
    confusion counts and the metrics the group is too small for.

    Examples
    --------
    >>> from fairbook.audit import audit, predictions_frame
    >>> frame = predictions_frame([1, 0] * 30, [1, 0] * 20 + [0, 1] * 10, ["a"] * 40 + ["b"] * 20)
    >>> report = audit(frame)
    >>> group_counts(report, "group").loc["b", ["TP", "FN", "FP", "TN"]].tolist()
    [0, 10, 10, 0]
    """
    part, index = _groups_of(report, attribute)
    frame = part[["n", "share", "TP", "FN", "FP", "TN"]].copy()
    frame["too small for"] = part["small_metrics"].to_numpy()
    frame.index = index
    return frame


def group_rates(report: AuditReport, attribute: str) -> pd.DataFrame:
    """One attribute's groups (the reference marked ``(ref)``): size, main rates, and OFI
    and DI against the reference (OFI > 0 and DI > 1 favour the group).

    Examples
    --------
    >>> from fairbook.audit import audit, predictions_frame
    >>> frame = predictions_frame([1, 0] * 30, [1, 0] * 20 + [0, 1] * 10, ["a"] * 40 + ["b"] * 20)
    >>> report = audit(frame)
    >>> group_rates(report, "group").index.tolist()
    ['a (ref)', 'b']
    """
    part, index = _groups_of(report, attribute)
    columns = ["n", "PPR", "PREV", "ACC", "TPR", "FPR", "PPV", "B", "OFI", "DI"]
    frame = part[columns].copy()
    frame.index = index
    return frame


def audit_counts(reports: dict) -> pd.DataFrame:
    """Several audits of the same predictions side by side (e.g. at two α): comparisons
    with a p-value, disparities that survive, groups too small for some metric and
    (group, metric) pairs too small.

    Examples
    --------
    >>> from fairbook.audit import audit, predictions_frame
    >>> y, p, g = [1, 0] * 30, [1, 0] * 20 + [0, 1] * 10, ["a"] * 40 + ["b"] * 20
    >>> audit_counts({"0.05": audit(y, p, g), "0.01": audit(y, p, g, alpha=0.01)}).shape
    (2, 4)
    """
    rows = {}
    for label, report in reports.items():
        summary = report.summary()
        rows[label] = {
            "comparisons": summary["tests"],
            "survive": len(summary["significant"]),
            "groups too small": len(summary["small_groups"]),
            "(group, metric) too small": sum(len(s["metrics"]) for s in summary["small_groups"]),
        }
    return pd.DataFrame.from_dict(rows, orient="index")


def comparisons_table(report: AuditReport, attribute: str) -> pd.DataFrame:
    """One attribute's comparisons with its reference, group by metric: score (and its
    CPS-smoothed value where the group is small), the reference's, gap, ratio, the raw and
    Holm-adjusted MATCH p-values and the verdict.

    Examples
    --------
    >>> from fairbook.audit import audit, predictions_frame
    >>> frame = predictions_frame([1, 0] * 30, [1, 0] * 20 + [0, 1] * 10, ["a"] * 40 + ["b"] * 20)
    >>> report = audit(frame)
    >>> comparisons_table(report, "group").columns.tolist()[:4]
    ['group', 'metric', 'n', 'score']
    """
    table = report.to_frame("comparisons")
    part = table[table["attribute"] == attribute]
    if part.empty:
        raise ValueError(f"the audit has no attribute {attribute!r}: {report.attributes}")
    rates = report.to_frame("rates")
    keys = ["attribute", "group", "metric"]
    cps = part[keys].merge(rates[[*keys, "cps"]], on=keys, how="left")["cps"]
    frame = part[["group", "metric", "n", "score"]].reset_index(drop=True)
    frame["CPS"] = cps.where(part["small"].to_numpy(bool)).to_numpy()
    for column in ("reference_score", "gap", "ratio", "p_value", "p_holm", "verdict"):
        frame[_COMPARISON_NAMES[column]] = part[column].to_numpy()
    return frame.reset_index(drop=True)


def uncertainty_table(report: AuditReport) -> pd.DataFrame:
    """Each group's mean epistemic, aleatoric and predictive uncertainty, seed 000's ratios
    against the reference, and the ratios flagged unfair (``|F − 1| > 0.2``).

    Raises
    ------
    ValueError
        When the audit was given no samples.
    """
    table = report.to_frame("uncertainty")
    measures = ("F_Epis", "F_Alea", "F_Pred")
    frame = table[["attribute", "group", "n", "U_e", "U_a", "U_p", *measures]].copy()
    frame["unfair by"] = [
        ", ".join(m for m in measures if row[f"{m}_flag"] == "unfair")
        for _, row in table.iterrows()
    ]
    frame.loc[table["is_reference"].to_numpy(bool), "unfair by"] = "(reference)"
    return frame.reset_index(drop=True)


def flips_table(report: AuditReport) -> pd.DataFrame:
    """The verdicts that flip between runs: per group and metric, in how many runs the
    disparity survives and in how many its ratio is judged unfair (shares).

    Raises
    ------
    ValueError
        When the audit was given no runs.
    """
    table = report.to_frame("stability")
    chosen = table[table["flips"].to_numpy(bool)]
    columns = ["attribute", "group", "metric", "runs", "share_survives", "share_ratio_unfair"]
    return (
        chosen[columns]
        .rename(columns={"share_survives": "survives in", "share_ratio_unfair": "ratio unfair in"})
        .reset_index(drop=True)
    )


def flip_patterns(report: AuditReport) -> pd.DataFrame:
    """How the two verdicts of a group and metric disagree over the runs, counted.

    Each row of the audit's stability table (every group, metric and run) is one of: both
    verdicts settled (the same in every run); the disparity survives MATCH in every run
    while its ratio is judged unfair in only some ("small but certain"); the ratio is
    unfair in every run while the disparity survives in only some ("large but uncertain");
    or the rest (both flip, or one flips while the other never holds). A share that is
    undefined (NaN: no run could judge the ratio) counts as settled.

    Returns
    -------
    pandas.DataFrame
        One row per pattern: ``pattern`` and ``count`` (patterns with no case included).

    Raises
    ------
    ValueError
        When the audit was given no runs.

    Examples
    --------
    Two identical runs settle every verdict:

    >>> from fairbook.audit import audit, predictions_frame
    >>> frame = pd.DataFrame({"y_true": [1, 0] * 40, "g": ["a"] * 40 + ["b"] * 40,
    ...                       "r0": [1, 0] * 40, "r1": [1, 0] * 40})
    >>> report = audit(frame, y_pred=None, groups=["g"], runs=["r0", "r1"])
    >>> counts = flip_patterns(report).set_index("pattern")["count"]
    >>> int(counts["both settled"]) == len(report.to_frame("stability"))
    True
    """
    table = report.to_frame("stability")
    survives = table["share_survives"].to_numpy(float)
    unfair = table["share_ratio_unfair"].to_numpy(float)

    def settled(share):  # the same in every run; an undefined share (NaN) has no verdict
        return (share == 0.0) | (share == 1.0) | np.isnan(share)

    patterns = {
        "both settled": settled(survives) & settled(unfair),
        "survives in every run, ratio unfair in only some": (survives == 1.0) & ~settled(unfair),
        "ratio unfair in every run, survives in only some": (unfair == 1.0) & ~settled(survives),
        "both flip, or one flips and the other is never true": ~(
            settled(survives) & settled(unfair)
        )
        & ~((survives == 1.0) & ~settled(unfair))
        & ~((unfair == 1.0) & ~settled(survives)),
    }
    return pd.DataFrame(
        {"pattern": list(patterns), "count": [int(mask.sum()) for mask in patterns.values()]}
    )
