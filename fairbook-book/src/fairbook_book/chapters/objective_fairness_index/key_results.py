"""The Key results of "The Objective Fairness Index", computed from the chapter's tables.

:func:`key_results` turns what the chapter has computed — Table 3.2's enumeration, the
COMPAS counts, the Adult stand-in's counts (and, when given, its recorded seeds) — into
four plain findings: the firefighter example, the desirable properties, COMPAS and the
stand-in for Folktables. How far the chapter replicates the paper is not a finding: it is the
computed line below them (:func:`fairbook_book.ledger.replication_line`), from the same rows as the
chapter's ledger. Every number is computed here, from those inputs.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from fairbook.metrics.properties import PROPERTIES
from fairbook.papers import seed003
from fairbook_book.chapter_summary import KeyResults
from fairbook_book.chapter_summary import key_results as _key_results
from fairbook_book.ledger import replication_line

from .replication import (
    fig_3_2_replication,
    fig_3_3_replication,
    table_3_1_replication,
    table_3_3_replication,
)
from .results import direction_agreement, favour_counts, firefighter_scenarios, pairwise_scores

__all__ = ["key_results"]

#: How the chapter names its models in prose.
_MODEL_NAMES = {"rf": "the random forest", "nb": "naive Bayes"}
#: Table 3.2's properties as the findings name them.
_PROPERTY_WORDS = {
    "OBJ": "objective testing",
    "R": "real-valued",
    "DIR": "directed",
    "SYM": "symmetric",
    "BND": "bounded",
    "ALL": "defined everywhere",
}
#: The chapter's notebook stem (its rows in the ledger).
CHAPTER = "02_objective_fairness_index"


def _number(value: float) -> str:
    return f"{value:.2f}".replace("-0.00", "0.00")


def _direction(ofi: float) -> str:
    return "bias toward group i" if ofi > 0 else "bias toward group j" if ofi < 0 else "no bias"


def _firefighters() -> str:
    table = firefighter_scenarios()
    a, b = table.loc["A"], table.loc["B"]
    if a["DI"] < 0.8:
        di_a = f"DI calls scenario A's objective test biased ({_number(a['DI'])}, below 4/5)"
    else:
        di_a = f"DI does not call scenario A's objective test biased ({_number(a['DI'])})"
    di_b = "undefined (0/0)" if np.isnan(b["DI"]) else _number(b["DI"])
    return (
        f"In the firefighter scenarios of *Ricci v. DeStefano*, {di_a} while OFI is only "
        f"{_number(a['OFI'])}; in scenario B, where the test was thrown out and nobody was "
        f"promoted, DI is {di_b} while OFI is {_number(b['OFI'])}: {_direction(b['OFI'])} "
        f"(the paper's reading of the case: {seed003.TABLE_3_1_LAW['B']})."
    )


def _properties(properties: pd.DataFrame, n_max: int) -> str:
    ticks = properties[list(PROPERTIES)].apply(lambda column: column.str.startswith("✓"))
    complete = [str(m) for m in ticks.index[ticks.all(axis=1)]]
    total = len(ticks)
    if not complete:
        which = f"none of the {total} bias metrics has all six"
    elif len(complete) == 1:
        which = f"only {complete[0]}, of {total} bias metrics, has all six"
    else:
        which = f"{len(complete)} of {total} bias metrics have all six ({', '.join(complete)})"
    missed = (~ticks).sum().sort_values(ascending=False, kind="stable")
    missed = missed[missed > 0]
    text = (
        f"Deciding Table 3.2's six desirable properties by enumerating every pair of confusion "
        f"matrices with up to {n_max} people per group, {which}"
    )
    if missed.empty:
        return text + "."
    first, rest = missed.index[0], missed.iloc[1:3]
    text += (
        f"; the property missed most often is {_PROPERTY_WORDS.get(first, first)} "
        f"({int(missed.iloc[0])} of {total} metrics)"
    )
    if len(rest):
        others = " and ".join(
            f"{_PROPERTY_WORDS.get(name, name)} ({int(count)})" for name, count in rest.items()
        )
        text += f", then {others}"
    return text + "."


def _compas(compas: pd.DataFrame) -> str:
    agreement = direction_agreement(compas)
    favour = favour_counts(compas)
    group = favour["marginal benefit B"].idxmin()
    benefit = float(favour.loc[group, "marginal benefit B"])
    ofi = pairwise_scores(compas, "OFI").loc[group]
    di = pairwise_scores(compas, "DI").loc[group]
    comparisons = int(favour.loc[group, "comparisons"])
    warrant = "less" if benefit < 0 else "more"
    return (
        f"On COMPAS, OFI and DI favour the same group in {agreement['agree']} of "
        f"{agreement['pairs']} pairs of races; the {group} group has the lowest marginal "
        f"benefit ({_number(benefit)}: {warrant} benefit than its labels warrant), and OFI "
        f"finds bias against it in {int((ofi < 0).sum())} and DI in {int((di < 1).sum())} of "
        f"its {comparisons} comparisons."
    )


def _percent(share: float) -> str:
    return f"{100 * share:.0f} %"


def _adult(
    adult: Mapping[str, pd.DataFrame], group: str, over_seeds: pd.DataFrame | None = None
) -> str:
    agreements = []
    for model, counts in adult.items():
        a = direction_agreement(counts)
        name = _MODEL_NAMES.get(model, model)
        agreements.append(f"{a['agree']} of {a['pairs']} pairs for {name}")
    text = (
        "On the Adult stand-in for the paper's Folktables data (a different data set, so not "
        f"comparable with it), DI and OFI favour the same group in {' and '.join(agreements)}"
    )
    if over_seeds is not None:
        forest = [name for name in over_seeds.index if str(name).startswith("RF:")]
        if forest:
            row = over_seeds.loc[forest[0]]
            seeds = len(over_seeds.columns) - len({"paper", "median", "min", "max"})
            low, high = float(row["min"]), float(row["max"])
            spread = (
                f"in {_percent(low)} of the pairs for every seed"
                if np.isclose(low, high)
                else f"in {_percent(low)} to {_percent(high)} of the pairs "
                f"(median {_percent(float(row['median']))})"
            )
            text += (
                f"; over the {seeds} recorded seeds of the full profile's random forest, they "
                f"agree {spread}"
            )
    if "nb" in adult:
        favour = favour_counts(adult["nb"]).loc[group]
        claim = seed003.FIG_3_3_NB_PACIFIC_ISLANDER
        total = int(favour["comparisons"])
        text += (
            f"; for naive Bayes, DI favours {group} in {int(favour['DI favours'])} of {total} "
            f"comparisons and OFI in {int(favour['OFI favours'])} of {total} (the paper, for "
            f"Pacific Islanders: {claim['DI favours']} of {claim['comparisons']} and "
            f"{claim['OFI favours']} of {claim['comparisons']})"
        )
    return text + "."


def key_results(
    *,
    properties: pd.DataFrame,
    compas: pd.DataFrame,
    adult: Mapping[str, pd.DataFrame],
    n_max: int,
    group: str = "Asian-Pac-Islander",
    over_seeds: pd.DataFrame | None = None,
    budget: str = "fast",
) -> KeyResults:
    """The chapter's Key results, from its computed tables.

    Parameters
    ----------
    properties : DataFrame
        Table 3.2 as the chapter computes it
        (:func:`~fairbook_book.chapters.objective_fairness_index.replication.table_3_2_replication`).
    compas : DataFrame
        COMPAS per-race counts (:func:`fairbook.data.predictions.compas_race_counts`).
    adult : mapping
        Model name (``"rf"``, ``"nb"``) → per-group counts of the Adult stand-in
        (:func:`~fairbook_book.chapters.objective_fairness_index.runs.adult_counts`).
    n_max : int, keyword-only
        The largest group size `properties` enumerated.
    group : str, keyword-only
        The Adult group that plays the paper's Pacific Islanders.
    over_seeds : DataFrame, optional, keyword-only
        Fig. 3.3's shares for every recorded seed of the full profile's forest
        (:func:`~fairbook_book.chapters.objective_fairness_index.replication.fig_3_3_over_seeds`):
        the Adult finding then gives the forest's spread over seeds.
    budget : str, default "fast", keyword-only
        The profile the chapter ran, named in the replication line.

    Returns
    -------
    KeyResults
        Four findings — the firefighters, Table 3.2, COMPAS, the Adult stand-in — and the
        replication line, computed from the same rows as the chapter's ledger.

    Examples
    --------
    >>> from fairbook_book.chapters.objective_fairness_index import table_3_2_replication
    >>> counts = pd.DataFrame({"TP": [1, 7], "FN": [0, 0], "FP": [0, 1], "TN": [5, 10]},
    ...                       index=["i", "j"])
    >>> results = key_results(properties=table_3_2_replication(n_max=3), compas=counts,
    ...                       adult={"nb": counts}, n_max=3, group="j")
    >>> len(results.findings)
    4
    >>> results.findings[2].startswith("On COMPAS, OFI and DI favour the same group in 1 of 1")
    True
    """
    tables = [
        table_3_1_replication(),
        table_3_3_replication(),
        properties,
        fig_3_2_replication(compas),
        fig_3_3_replication(adult, group=group),
    ]
    return _key_results(
        _firefighters(),
        _properties(properties, n_max),
        _compas(compas),
        _adult(adult, group, over_seeds),
        replication=replication_line(tables, chapter=CHAPTER, budget=budget),
    )
