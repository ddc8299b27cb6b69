"""Key results of "Small groups" (seed 003 ch. 4): the chapter's answers in plain sentences.

Each sentence answers part of the chapter's question — is a small group's score different
because the group is treated differently, or only because it is small? — with its number,
computed from the tables the chapter has already built:

* how jagged and wide a small sample's rate is (the Monte Carlo of Fig. 4.1, with its exact
  quantiles);
* how many matrices of ``n`` people leave a metric undefined (the enumeration of
  Theorem 4.3);
* the exact MATCH p-value of the smallest group's gap in one rate (by default the worked
  example's: COMPAS's Native American defendants, rated low risk);
* which apparent disparities of a real audit survive MATCH (a
  :func:`~fairbook_book.chapters.small_groups.runs.match_table`);
* what Cross-Prior Smoothing gains and where it loses (the CPS protocol's run).

How far the chapter replicates its paper is not a finding: it is the one computed line under
the findings (:func:`fairbook_book.ledger.replication_line`, from the chapter's replication tables).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.metrics import METRICS
from fairbook.stats import combinatorics
from fairbook_book.chapter_summary import KeyResults, listed
from fairbook_book.chapter_summary import key_results as _box
from fairbook_book.formatting import p_value_text
from fairbook_book.ledger import replication_line

from .results import cps_losses, cps_summary

__all__ = ["key_results"]

#: The chapter's notebook stem (the ledger's link).
CHAPTER = "03_small_groups"


def _number(value: float) -> str:
    """A parameter such as α or a gap as a person writes it (``0.05``, ``0.1``)."""
    return np.format_float_positional(float(value), trim="-")


def _percent(part: int, whole: int) -> str:
    """A share of a whole as a whole percentage.

    Examples
    --------
    >>> _percent(3, 4), _number(0.05)
    ('75 %', '0.05')
    """
    return f"{100 * part / whole:.0f} %"


def _metric_name(metric: str) -> str:
    """A metric's long name inside a sentence (``"predicted positive rate"``)."""
    name = METRICS[metric].long_name
    return name[0].lower() + name[1:]


def _sampling_sentence(samples: pd.DataFrame, *, group: str, data: str, metric: str, small_n):
    by_size = samples.set_index("n")
    small = int(by_size.index.min()) if small_n is None else int(small_n)
    if small not in by_size.index:
        raise ValueError(f"samples has no row for n = {small}")
    large = int(by_size.index.max())
    info = METRICS[metric]
    name = _metric_name(metric)
    rows = by_size.loc[[small, large]]
    (lo_s, hi_s), (lo_l, hi_l) = rows[["exact_q025", "exact_q975"]].to_numpy(float)
    steps = f", in steps of 1/{small}" if info.family == "binomial" else ""
    return (
        f"Samples of {small} people drawn from {data}'s {group} group, whose {name} is "
        f"{float(by_size['target'].iloc[0]):.2f}, have a {name} anywhere from {lo_s:.2f} to "
        f"{hi_s:.2f} (the middle 95 % of its exact law{steps}); samples of {large} people "
        f"still range from {lo_l:.2f} to {hi_l:.2f}."
    )


def _holes_sentence(holes: pd.DataFrame, *, n: int) -> str:
    at_n = holes[holes["n"] == n].set_index("metric")["enumerated"]
    if at_n.empty:
        raise ValueError(f"holes has no rows for n = {n}")
    total = combinatorics.n_confusion_matrices(n)
    counted = [
        f"{words} at {int(at_n[m])} ({_percent(int(at_n[m]), total)})"
        for m, words in (
            ("TPR", "the true positive rate is undefined"),
            ("MCC", "MCC"),
            ("PT", "the prevalence threshold"),
        )
    ]
    accuracy = int(at_n["ACC"])
    tail = (
        "while accuracy is defined at all of them"
        if accuracy == 0
        else f"and accuracy at {accuracy} ({_percent(accuracy, total)})"
    )
    return (
        f"Among the {total} confusion matrices of {n} people, {', '.join(counted[:-1])} and "
        f"{counted[-1]}, {tail}."
    )


def _match_sentence(table: pd.DataFrame, *, data: str, alpha: float, min_gap: float) -> str:
    apparent = table[table["apparent"]]
    survives = table[table["survives"]]
    sentence = (
        f"In {data}, {len(apparent)} gaps of at least {_number(min_gap)} between a group and "
        f"everyone else appear, and {len(survives)} of them survive MATCH at "
        f"α = {_number(alpha)} after Holm's adjustment"
    )
    per_group = table.groupby("group", sort=False).agg(
        n=("n", "first"), apparent=("apparent", "sum"), survives=("survives", "sum")
    )
    lost = per_group[(per_group["apparent"] > 0) & (per_group["survives"] == 0)]
    if lost.empty:
        return sentence + "; every group with an apparent gap keeps at least one."
    groups = listed(f"{g} ({int(row.n)} people)" for g, row in lost.iterrows())
    plural = "groups" if len(lost) > 1 else "group"
    sentence += f"; none of the {int(lost['apparent'].sum())} in the {groups} {plural} does"
    lost_gaps = apparent[apparent["group"].isin(lost.index)]
    largest = lost_gaps.loc[lost_gaps["gap"].abs().idxmax()]
    if survives.empty or abs(largest["gap"]) > survives["gap"].abs().max():
        sentence += (
            f", although one of them, {largest['group']}'s {largest['metric']} gap of "
            f"{largest['gap']:+.2f}, is larger than any gap that survives"
        )
    return sentence + "."


def _cps_sentence(run: pd.DataFrame, *, lam) -> str:
    label = f"CPS λ = {_number(lam)}"
    summary = cps_summary(run)
    if label not in summary:
        raise ValueError(f"the CPS run has no setting {label!r}")
    better = int((summary[label] < 1).sum())
    losses = cps_losses(run)
    settings = sorted(
        (s for s in dict.fromkeys(run["setting_label"]) if s.startswith("CPS λ = ")),
        key=lambda s: float(s.split("=")[1]),
    )
    lost = [
        f"{losses[losses['setting'] == s][['group', 'metric']].drop_duplicates().shape[0]}"
        f"{' pairs' if i == 0 else ''} at {s.removeprefix('CPS ')}"
        for i, s in enumerate(settings)
    ]
    return (
        f"Cross-Prior Smoothing with λ = {_number(lam)} lowers the mean squared error, "
        f"averaged over sizes, for {better} of {len(summary)} group × metric pairs; but it is "
        f"worse than no smoothing at some size (95 % intervals apart) for {listed(lost)}, "
        "where a group's score lies far from its reference's."
    )


def _small_group_sentence(
    table: pd.DataFrame, *, data: str, group, metric: str, alpha: float
) -> str:
    if group is None:
        group = table.loc[table["n"].idxmin(), "group"]
    rows = table[(table["group"] == group) & (table["metric"] == metric)]
    if rows.empty:
        raise ValueError(f"the MATCH table has no row for group {group!r} and metric {metric}")
    row = rows.iloc[0]
    n = int(row["n"])
    verdict = (
        f"so at α = {_number(alpha)} its {n} people cannot tell the gap from chance"
        if not row["p_holm"] < alpha
        else f"so the gap survives at α = {_number(alpha)}"
    )
    return (
        f"{data}'s {group} group ({n} people) has a {_metric_name(metric)} of "
        f"{row['score']:.2f} against {row['reference']:.2f} for everyone else, a gap of "
        f"{row['gap']:+.2f}; its exact MATCH p-value is {p_value_text(row['p_value'])} "
        f"({p_value_text(row['p_holm'])} after Holm's adjustment over the table's "
        f"{len(table)} tests), {verdict}."
    )


def key_results(
    *,
    samples: pd.DataFrame,
    group: str,
    holes: pd.DataFrame,
    match: pd.DataFrame,
    alpha: float,
    min_gap: float,
    cps_run: pd.DataFrame,
    tables,
    budget: str = "fast",
    samples_data: str = "Adult",
    match_data: str = "COMPAS",
    metric: str = "PPR",
    small_n: int | None = 10,
    hole_n: int = 10,
    small_group: str | None = None,
    small_metric: str = "PPR",
    lam: float = 5,
) -> KeyResults:
    """The chapter's Key results box: five findings, each with its number, and the
    chapter's replication line.

    Parameters
    ----------
    samples : pandas.DataFrame, keyword-only
        :func:`~fairbook_book.chapters.small_groups.runs.fig_4_1_monte_carlo` of one group
        (``n, exact_q025, exact_q975, target``).
    group : str, keyword-only
        That group's name.
    holes : pandas.DataFrame, keyword-only
        :func:`fairbook.stats.combinatorics.hole_count_table` (``metric, n, enumerated``).
    match : pandas.DataFrame, keyword-only
        :func:`~fairbook_book.chapters.small_groups.runs.match_table` of a data set.
    alpha, min_gap : float, keyword-only
        The level and smallest gap ``match`` was built with.
    cps_run : pandas.DataFrame, keyword-only
        :func:`~fairbook_book.chapters.small_groups.runs.cps_experiment`.
    tables : iterable or mapping of pandas.DataFrame, keyword-only
        The chapter's replication tables (those its *Replication tally* collects), for the
        replication line (:func:`fairbook_book.ledger.replication_line`).
    budget : str, default "fast", keyword-only
        The profile the tables were computed with.
    samples_data, match_data : str, keyword-only
        The data sets' names in the sentences.
    metric : str, default "PPR", keyword-only
        The metric of ``samples``.
    small_n : int or None, default 10, keyword-only
        The small sample size of the first sentence (None: the smallest in ``samples``); the
        large one is the largest.
    hole_n : int, default 10, keyword-only
        The size at which holes are counted.
    small_group : str or None, default None, keyword-only
        The group whose MATCH p-value is reported (None: the smallest group of ``match``).
    small_metric : str, default "PPR", keyword-only
        The metric of that p-value.
    lam : float, default 5, keyword-only
        The CPS strength whose gain is reported.

    Returns
    -------
    fairbook_book.chapter_summary.KeyResults

    Raises
    ------
    ValueError
        A size, group, metric or setting the inputs do not hold.
    """
    return _box(
        _sampling_sentence(samples, group=group, data=samples_data, metric=metric, small_n=small_n),
        _holes_sentence(holes, n=hole_n),
        _small_group_sentence(
            match, data=match_data, group=small_group, metric=small_metric, alpha=alpha
        ),
        _match_sentence(match, data=match_data, alpha=alpha, min_gap=min_gap),
        _cps_sentence(cps_run, lam=lam),
        replication=replication_line(tables, chapter=CHAPTER, budget=budget),
    )
