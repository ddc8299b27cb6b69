"""Key results of "Small groups" (seed 003 ch. 4): the chapter's answers in plain sentences.

Each sentence answers part of the chapter's question — is a small group's score different
because the group is treated differently, or only because it is small? — with its number,
computed from the tables the chapter has already built:

* how jagged and wide a small sample's rate is (the Monte Carlo of Fig. 4.1, with its exact
  quantiles);
* how many matrices of ``n`` people leave a metric undefined (the enumeration of
  Theorem 4.3);
* which apparent disparities of a real audit survive MATCH (a
  :func:`~fairbook.experiments.small_groups.runs.match_table`);
* what Cross-Prior Smoothing gains and where it loses (the CPS protocol's run);
* how many of the paper's numbers replicate (:func:`~fairbook.experiments.small_groups.
  replication.chapter_verdicts`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.metrics import METRICS
from fairbook.reading import KeyResults, listed
from fairbook.reading import key_results as _box
from fairbook.stats import combinatorics

from .results import cps_losses, cps_summary

__all__ = ["key_results"]


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


def _sampling_sentence(samples: pd.DataFrame, *, group: str, data: str, metric: str, small_n):
    by_size = samples.set_index("n")
    small = int(by_size.index.min()) if small_n is None else int(small_n)
    if small not in by_size.index:
        raise ValueError(f"samples has no row for n = {small}")
    large = int(by_size.index.max())
    info = METRICS[metric]
    name = info.long_name[0].lower() + info.long_name[1:]
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


def _verdict_sentence(verdicts: pd.DataFrame) -> str:
    counts = verdicts.attrs.get("counts")
    if counts is None:
        raise ValueError("verdicts has no attrs['counts']: use chapter_verdicts")
    column = {
        k: counts[k] if k in counts else pd.Series(0, index=counts.index)
        for k in ("matches", "differs", "no verdict")
    }
    total = int(counts.to_numpy().sum())
    matches, differs, none = (int(column[k].sum()) for k in ("matches", "differs", "no verdict"))
    sentence = (
        f"Of the {total} paper numbers this chapter compares, {matches} match, {differs} do not"
    )
    sentence += f" and {none} cannot be compared" if none else ""
    misses = column["differs"][column["differs"] > 0].sort_values(ascending=False, kind="stable")
    if not misses.empty:
        sentence += "; the differences are in " + listed(
            f"{section} ({int(k)})" for section, k in misses.items()
        )
    return sentence + "."


def key_results(
    *,
    samples: pd.DataFrame,
    group: str,
    holes: pd.DataFrame,
    match: pd.DataFrame,
    alpha: float,
    min_gap: float,
    cps_run: pd.DataFrame,
    verdicts: pd.DataFrame,
    samples_data: str = "Adult",
    match_data: str = "COMPAS",
    metric: str = "PPR",
    small_n: int | None = 10,
    hole_n: int = 10,
    lam: float = 5,
) -> KeyResults:
    """The chapter's Key results box: five sentences, each with its number.

    Parameters
    ----------
    samples : pandas.DataFrame, keyword-only
        :func:`~fairbook.experiments.small_groups.runs.fig_4_1_monte_carlo` of one group
        (``n, exact_q025, exact_q975, target``).
    group : str, keyword-only
        That group's name.
    holes : pandas.DataFrame, keyword-only
        :func:`fairbook.stats.combinatorics.theorem_4_3_table` (``metric, n, enumerated``).
    match : pandas.DataFrame, keyword-only
        :func:`~fairbook.experiments.small_groups.runs.match_table` of a data set.
    alpha, min_gap : float, keyword-only
        The level and smallest gap ``match`` was built with.
    cps_run : pandas.DataFrame, keyword-only
        :func:`~fairbook.experiments.small_groups.runs.cps_experiment`.
    verdicts : pandas.DataFrame, keyword-only
        :func:`~fairbook.experiments.small_groups.replication.chapter_verdicts`.
    samples_data, match_data : str, keyword-only
        The data sets' names in the sentences.
    metric : str, default "PPR", keyword-only
        The metric of ``samples``.
    small_n : int or None, default 10, keyword-only
        The small sample size of the first sentence (None: the smallest in ``samples``); the
        large one is the largest.
    hole_n : int, default 10, keyword-only
        The size at which holes are counted.
    lam : float, default 5, keyword-only
        The CPS strength whose gain is reported.

    Returns
    -------
    fairbook.reading.KeyResults

    Raises
    ------
    ValueError
        A size, setting or count the inputs do not hold.
    """
    return _box(
        _sampling_sentence(samples, group=group, data=samples_data, metric=metric, small_n=small_n),
        _holes_sentence(holes, n=hole_n),
        _match_sentence(match, data=match_data, alpha=alpha, min_gap=min_gap),
        _cps_sentence(cps_run, lam=lam),
        _verdict_sentence(verdicts),
    )
