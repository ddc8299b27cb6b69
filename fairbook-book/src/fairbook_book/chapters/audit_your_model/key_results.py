"""Chapter 09: what the two audits find, in plain sentences computed from their reports.

:func:`key_results` reads the COMPAS audit (how many comparisons survive MATCH after Holm's
adjustment, for which groups, and which groups are too small for every metric) and the
Adult audit of forests trained with several seeds (how many verdicts stay the same in every
run, and which groups the ensemble's uncertainty flags). The chapter compares no number a
paper prints, so its replication line (:func:`fairbook_book.ledger.replication_line` of no
tables) says so and links the ledger.
"""

from __future__ import annotations

import math

from fairbook.audit import AuditReport
from fairbook_book.chapter_summary import KeyResults
from fairbook_book.chapter_summary import key_results as _box
from fairbook_book.ledger import replication_line

__all__ = ["CHAPTER", "key_results"]

#: The chapter's notebook stem (the ledger's name for it).
CHAPTER = "09_audit_your_model"

_SURVIVES = "disparity survives"


def _listing(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _survivors(report: AuditReport, name: str) -> str:
    """How many comparisons survive, and for which groups, by attribute."""
    summary = report.summary()
    alpha = report.settings["alpha"]
    counts: dict = {}
    for row in summary["significant"]:
        counts.setdefault(row["attribute"], {})
        counts[row["attribute"]][str(row["group"])] = (
            counts[row["attribute"]].get(str(row["group"]), 0) + 1
        )
    by_attribute = []
    for attribute in report.attributes:
        groups = counts.get(attribute, {})
        if not groups:
            continue
        named = [
            f"{group} ({n} metric{'' if n == 1 else 's'})" if i == 0 else f"{group} ({n})"
            for i, (group, n) in enumerate(groups.items())
        ]
        by_attribute.append(f"{_listing(named)} by {attribute}")
    survive = len(summary["significant"])
    where = f": {'; '.join(by_attribute)}" if by_attribute else ""
    return (
        f"In the {name} audit, {survive} of {summary['tests']} comparisons of a group with its "
        f"reference survive MATCH after Holm's adjustment (α = {alpha:g}){where}."
    )


def _too_small(report: AuditReport, name: str) -> str:
    """The groups too small for every metric, and what their comparisons show."""
    summary = report.summary()
    metrics = report.settings["metrics"]
    min_gap = report.settings["min_gap"]
    every = [s for s in summary["small_groups"] if len(s["metrics"]) == len(metrics)]
    if not every:
        some = len(summary["small_groups"])
        return (
            f"No {name} group is too small for every metric; {some} "
            f"{'is' if some == 1 else 'are'} too small for some (a gap of {min_gap:g} would "
            "not be significant there)."
        )
    comparisons = report.to_frame("comparisons")
    keys = {(s["attribute"], s["group"]) for s in every}
    mine = comparisons[
        [
            (a, g) in keys
            for a, g in zip(comparisons["attribute"], comparisons["group"], strict=True)
        ]
    ]
    apparent = int((mine["verdict"] == "apparent, not significant").sum())
    survive = int((mine["verdict"] == _SURVIVES).sum())
    named = _listing([f"{s['group']} ({s['n']:,} people)" for s in every])
    verb = "is" if len(every) == 1 else "are"
    outcome = "none survives" if survive == 0 else f"{survive} survive anyway"
    return (
        f"{named} {verb} too small for every metric: a gap of {min_gap:g} would not be "
        f"significant there, so although {apparent} of their {len(mine)} comparisons show an "
        f"apparent gap, {outcome}."
    )


def _stability(report: AuditReport, name: str) -> str:
    """How stable the verdicts are over the runs."""
    stability = report.to_frame("stability")
    runs = report.to_frame("runs")
    per_run = runs.groupby("run", sort=False)["verdict"].apply(
        lambda v: int((v == _SURVIVES).sum())
    )
    tests = int(runs.groupby("run", sort=False)["p_value"].apply(lambda v: v.notna().sum()).max())
    total = len(stability)
    flips = int(stability["flips"].sum())
    survives = stability["share_survives"]
    unfair = stability["share_ratio_unfair"]
    by_survival = int(((survives > 0) & (survives < 1)).sum())
    by_ratio = int(((unfair > 0) & (unfair < 1)).sum())
    span = (
        f"{per_run.min()}"
        if per_run.min() == per_run.max()
        else f"between {per_run.min()} and {per_run.max()}"
    )
    return (
        f"Over the {len(per_run)} {name} models trained with different seeds, {span} of "
        f"{tests} comparisons survive in a run; {total - flips} of {total} verdicts (group "
        f"and metric) are the same in every run, while {flips} flip: {by_survival} in whether "
        f"the disparity survives, {by_ratio} in whether its ratio is judged unfair."
    )


def _uncertainty(report: AuditReport, name: str) -> str:
    """The groups the ensemble's uncertainty ratios flag, and the largest ratio's gap."""
    table = report.to_frame("uncertainty")
    others = table[~table["is_reference"].to_numpy(bool)]
    measures = ("F_Epis", "F_Alea", "F_Pred")
    flagged = others[(others[[f"{m}_flag" for m in measures]] == "unfair").any(axis=1)]
    sentence = (
        f"The {name} ensemble flags {len(flagged)} of {len(others)} groups (references aside) "
        "as unfair by at least one uncertainty ratio (|F − 1| > 0.2)"
    )
    best = None
    for _, row in flagged.iterrows():
        for m in measures:
            value = float(row[m])
            if row[f"{m}_flag"] == "unfair" and math.isfinite(value) and value > 0:
                distance = abs(math.log(value))
                if best is None or distance > best[0]:
                    best = (distance, str(row["group"]), m, value)
    if best is not None:
        _, group, measure, value = best
        kind = {"F_Epis": "epistemic", "F_Alea": "aleatoric", "F_Pred": "predictive"}[measure]
        sentence += (
            f"; the farthest from 1 is {group}'s {measure} = {value:.2f}: the models' {kind} "
            f"uncertainty about that group is {value:.2f} times the one about its reference"
        )
    return sentence + "."


def key_results(
    compas_report: AuditReport,
    adult_report: AuditReport,
    *,
    compas_name: str = "COMPAS",
    adult_name: str = "Adult",
    budget: str = "fast",
    chapter: str = CHAPTER,
) -> KeyResults:
    """The chapter's Key results, from its two audits.

    Parameters
    ----------
    compas_report : fairbook.audit.AuditReport
        An audit of one model's predictions (:func:`~.results.compas_audit`).
    adult_report : fairbook.audit.AuditReport
        An audit with ``runs`` and ``samples`` (:func:`~.results.adult_audit`).
    compas_name, adult_name : str, keyword-only
        How the sentences name the two audits.
    budget : str, keyword-only
        The profile this build ran (the replication line names it).
    chapter : str, keyword-only
        The chapter's notebook stem, for the replication line.

    Returns
    -------
    fairbook_book.chapter_summary.KeyResults
        Four sentences: what survives in the first audit and for which groups, the groups
        too small for every metric, how stable the second audit's verdicts are over its
        runs, and which of its groups the uncertainty ratios flag; below them the
        replication line, which says that the chapter compares no printed number (it
        applies the book's methods to predictions no paper audits in this form).

    Examples
    --------
    >>> from fairbook.audit import audit
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"y_true": [1, 0] * 60, "group": ["a"] * 80 + ["b"] * 40,
    ...                       "pred_0": [1, 0] * 40 + [1, 1] * 20, "pred_1": [1, 0] * 60,
    ...                       "p_0": 0.6, "p_1": 0.7})
    >>> one = audit(frame, y_pred="pred_0")
    >>> both = audit(frame, y_pred=None, runs=["pred_0", "pred_1"], samples=["p_0", "p_1"])
    >>> import textwrap
    >>> print(textwrap.fill(key_results(one, both).findings[0], 80))
    In the COMPAS audit, 5 of 6 comparisons of a group with its reference survive
    MATCH after Holm's adjustment (α = 0.05): b (5 metrics) by group.
    >>> print(textwrap.fill(key_results(one, both).replication, 80))
    Beside the paper (fast profile): this chapter compares no printed number;
    {doc}`the replication ledger <../book/ledger>` lists the others.
    """
    if adult_report.tables.get("stability") is None:
        raise ValueError("adult_report needs runs: audit it with runs=[...]")
    if adult_report.tables.get("uncertainty") is None:
        raise ValueError("adult_report needs samples: audit it with samples=[...]")
    return _box(
        _survivors(compas_report, compas_name),
        _too_small(compas_report, compas_name),
        _stability(adult_report, adult_name),
        _uncertainty(adult_report, adult_name),
        replication=replication_line([], chapter=chapter, budget=budget),
    )
