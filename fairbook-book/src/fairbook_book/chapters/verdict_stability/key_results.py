"""Key results of "How stable is a fairness verdict?": the chapter's answers in plain
sentences.

:func:`key_results` reads the tables the chapter has already computed — the flip table
(:func:`~fairbook_book.chapters.verdict_stability.flip_table`), the size curve
(:func:`~fairbook_book.chapters.verdict_stability.size_table`) and the metrics' disagreement
(:func:`~fairbook_book.chapters.verdict_stability.metric_disagreement`) — and says, each with
its number, how many verdicts flip, under which source, how large a group must be, which
metrics disagree, and which verdicts are the least stable. Every number comes from the
inputs; nothing is typed in. Below the findings, the box's replication line
(:func:`fairbook_book.ledger.replication_line`) says that this chapter compares no paper's
numbers: it is the book's own synthesis.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook_book.chapter_summary import KeyResults
from fairbook_book.chapter_summary import key_results as _box
from fairbook_book.ledger import replication_line

from .results import (
    DATASET_NAMES,
    MODEL_NAMES,
    SOURCE_NAMES,
    _listed,
    _name,
    _percent,
    most_unstable,
    size_needed,
)

__all__ = ["key_results"]

_RUN_SOURCES = ("FIT", "seed", "setting", "bootstrap")


def _how_many(flips: pd.DataFrame) -> str:
    judged = flips.dropna(subset=["max"])
    moving = int((judged["max"] > 0).sum())
    datasets = _listed(_name(DATASET_NAMES, d) for d in pd.unique(judged["dataset"]))
    families = judged["model"].nunique()
    return (
        f"Of the {len(judged):,} verdicts on {datasets} ({families} model families, every "
        f"group and metric), {moving:,} ({_percent(moving / len(judged))}) flip under at "
        "least one source of variation: FIT runs, seeds, training settings or bootstrap "
        "resamples."
    )


def _by_source(flips: pd.DataFrame) -> str:
    rates = flips[list(_RUN_SOURCES)]
    share = rates.gt(0).sum() / rates.notna().sum()
    mean = rates.mean()
    worst = mean.idxmax()
    shares = _listed(f"{_percent(share[s])} under {SOURCE_NAMES[s]}" for s in _RUN_SOURCES)
    return (
        f"Of the verdicts, {shares.replace(' under ', ' flip under ', 1)}; the "
        f"{SOURCE_NAMES[worst]} have the largest mean flip rate ({mean[worst]:.3f})."
    )


def _group_size(curve: pd.DataFrame, below: float) -> str:
    needed = size_needed(curve, below=below)
    samples = needed[needed["source"] == "samples"]
    largest = int(samples["largest_size"].max())
    finite = samples.dropna(subset=["size_needed"]).sort_values("size_needed")
    never = samples[samples["size_needed"].isna()]

    def label(row) -> str:
        return f"{_name(DATASET_NAMES, row.dataset)}'s {row.metric}"

    if finite.empty:
        return (
            f"Resampling a group, no verdict's flip rate falls to {below:g} or below within "
            f"the sizes tried (up to {largest:,} people)."
        )
    low, high = finite.iloc[0], finite.iloc[-1]
    text = f"Resampling a group, the size from which a verdict's flip rate stays at {below:g} "
    if high.size_needed > low.size_needed:
        text += (
            f"or below ranges from {low.size_needed:,.0f} people ({label(low)}) to "
            f"{high.size_needed:,.0f} ({label(high)})"
        )
    else:
        text += f"or below is {low.size_needed:,.0f} people ({label(low)})"
    if len(never):
        names = _listed(label(r) for r in never.itertuples())
        text += (
            f"; for {names} it stays above {below:g} even at {largest:,} people, the "
            "largest size tried"
        )
    return text + "."


def _metrics(disagreement: dict) -> str:
    """The sentence on which pair of metrics disagrees most about the favoured group.

    Examples
    --------
    >>> pairs = pd.DataFrame({"pair": ["DI vs OFI", "DI vs EOpp"] * 2,
    ...                       "dataset": ["compas", "compas", "adult", "adult"],
    ...                       "share": [0.3, 0.1, 0.2, 0.08]})
    >>> _metrics({"pairs": pairs})  # doctest: +NORMALIZE_WHITESPACE
    'DI and OFI name different favoured groups in 25 % of comparisons (mean over COMPAS and
    Adult), the most of the 2 pairs of metrics; DI and EOpp in 9 %.'
    """
    pairs = disagreement["pairs"]
    mean = pairs.groupby("pair", sort=False)["share"].mean().sort_values(ascending=False)
    datasets = _listed(_name(DATASET_NAMES, d) for d in pd.unique(pairs["dataset"]))
    top, bottom = mean.index[0], mean.index[-1]
    return (
        f"{top.replace(' vs ', ' and ')} name different favoured groups in "
        f"{_percent(mean.iloc[0])} of comparisons (mean over {datasets}), the most of the "
        f"{len(mean)} pairs of metrics; {bottom.replace(' vs ', ' and ')} in "
        f"{_percent(mean.iloc[-1])}."
    )


def _unstable(flips: pd.DataFrame, config: dict, k: int) -> str:
    table = most_unstable(flips, config, k=k)
    table = table[table["flip_rate"] > 0] if len(table) else table
    if table.empty:
        return "No verdict flips under any source of variation."
    names = []
    for row in table.itertuples():
        group = f"all {row.attribute} groups" if row.group == "all groups" else row.group
        names.append(
            f"{row.metric} for {group} in {_name(DATASET_NAMES, row.dataset)}'s "
            f"{_name(MODEL_NAMES, row.model)} (n = {int(row.n):,})"
        )
    farthest = float(np.max(table["distance"]))
    if len(table) == 1:
        distance = "less than 0.001" if farthest < 0.0005 else f"{farthest:.3f}"
        return f"The most unstable verdict lies {distance} from its threshold: {names[0]}."
    distance = "less than 0.001" if farthest < 0.0005 else f"at most {farthest:.3f}"
    return (
        f"The {len(table)} most unstable verdicts lie {distance} from their threshold: "
        f"{_listed(names)}."
    )


def key_results(
    flips: pd.DataFrame,
    curve: pd.DataFrame,
    disagreement: dict,
    config: dict,
    *,
    below: float = 0.1,
    k: int = 3,
    budget: str = "fast",
    chapter: str = "10_verdict_stability",
) -> KeyResults:
    """The chapter's Key results box, computed from its tables.

    Parameters
    ----------
    flips : pandas.DataFrame
        :func:`~fairbook_book.chapters.verdict_stability.flip_table`.
    curve : pandas.DataFrame
        :func:`~fairbook_book.chapters.verdict_stability.size_table`.
    disagreement : dict of pandas.DataFrame
        :func:`~fairbook_book.chapters.verdict_stability.metric_disagreement` (its ``pairs``).
    config : dict
        The chapter's settings (their verdict rules, for the most unstable verdicts).
    below : float, keyword-only
        The flip rate a group's verdict must stay under to count as settled
        (:func:`~fairbook_book.chapters.verdict_stability.size_needed`).
    k : int, keyword-only
        How many of the most unstable verdicts to name.
    budget : str, keyword-only, default "fast"
        The profile the tables come from (named in the replication line).
    chapter : str, keyword-only
        The chapter's notebook stem (for the replication line).

    Returns
    -------
    fairbook_book.chapter_summary.KeyResults
        Five sentences: how many verdicts flip, under which source, from what group size
        they settle, which metrics disagree, and the most unstable verdicts; and the
        replication line (no paper prints these numbers, so the chapter compares none).
    """
    return _box(
        _how_many(flips),
        _by_source(flips),
        _group_size(curve, below),
        _metrics(disagreement),
        _unstable(flips, config, k),
        replication=replication_line([], chapter=chapter, budget=budget),
    )
