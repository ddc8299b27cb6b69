"""Key results of "Conditional HydraGAN": the chapter's answers in plain sentences.

:func:`key_results` reads the tables the chapter has already computed (the long bias
scores of :func:`~fairbook_book.chapters.conditional_hydragan.run_experiment`, the Table 3.5
analogue and, when given, the generated proportions per seed and the recorded full-size
seeds) and says, each with its number and its spread over seeds, whether the conditional
fixed who is represented, whether the diversity loss balanced the activities, how much OFI
says the synthetic training set changed the algorithmic bias, in this build and at full
size, and what OFI says that DI does not. How far the chapter replicates the paper is one
computed line below the findings (:func:`fairbook_book.ledger.replication_line`), never a
finding. Every number comes from the inputs; nothing is typed in.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.generative.divergence import js_distance
from fairbook_book.chapter_summary import KeyResults, listed
from fairbook_book.chapter_summary import key_results as _box
from fairbook_book.ledger import replication_line

from ._common import _class_order
from .replication import table_3_4_beside_paper, table_3_5_beside_paper, table_3_5_replication
from .results import reading
from .runs import improvement, recorded_experiment
from .settings import IDEAL

__all__ = ["CHAPTER", "key_results"]

#: The chapter's notebook stem (its rows in the ledger).
CHAPTER = "07_conditional_hydragan"


def _percent(value: float) -> str:
    """A percentage as a person writes it: whole where that is exact enough.

    Examples
    --------
    >>> _percent(100.0), _percent(15.06)
    ('100 %', '15.1 %')
    """
    if abs(value - round(value)) < 0.05:
        return f"{value:.0f} %"
    return f"{value:.1f} %"


def _signed(value: float) -> str:
    """A signed number at three decimals with a typographic minus.

    Examples
    --------
    >>> _signed(0.1724), _signed(-0.063), _signed(-0.0001)
    ('+0.172', '−0.063', '0.000')
    """
    text = f"{value:+.3f}"
    if text in ("+0.000", "-0.000"):
        return "0.000"
    return text.replace("-", "−")


def _moves(real: float, synthetic: float, spread: str = "") -> str:
    if f"{real:.3f}" == f"{synthetic:.3f}":
        return f"stays at {real:.3f}{spread}"
    word = "falls" if synthetic < real else "rises"
    return (
        f"{word} from {real:.3f} in the real rows to {synthetic:.3f}{spread} in the generated ones"
    )


def _individuals(table_3_5: pd.DataFrame) -> str:
    real = float(table_3_5.loc["JS distance", ("Individuals", "real")])
    synthetic = float(table_3_5.loc["JS distance", ("Individuals", "synthetic")])
    gain = float(table_3_5.loc["JS distance", ("Individuals", "improvement %")])
    return (
        "The condition vector fixes who is in the synthetic data: the Jensen–Shannon "
        f"distance of the who-cells (sex × age band) to equal shares {_moves(real, synthetic)}"
        f", an improvement of {_percent(gain)}."
    )


def _js_spread(activities: pd.DataFrame | None) -> str:
    """`` ± sd (mean ± sd over n seeds)`` of the generated occupations' JS distance to
    their target, one value per seed of ``result["activities"]``; ``""`` without them."""
    if activities is None or activities.empty:
        return ""
    per_seed = [
        js_distance(frame["synthetic"].to_numpy(), frame["target"].to_numpy())
        for _, frame in activities.groupby(level="seed")
    ]
    if len(per_seed) < 2:
        return " (one seed)"
    return f" ± {np.std(per_seed, ddof=1):.3f} (mean ± sd over {len(per_seed)} seeds)"


def _activities(table_3_5: pd.DataFrame, activities: pd.DataFrame | None = None) -> str:
    real = float(table_3_5.loc["JS distance", ("Activities", "real")])
    synthetic = float(table_3_5.loc["JS distance", ("Activities", "synthetic")])
    gain = float(table_3_5.loc["JS distance", ("Activities", "improvement %")])
    distance = (
        "their Jensen–Shannon distance to the target "
        f"{_moves(real, synthetic, _js_spread(activities))}"
    )
    if round(gain, 1) > 0:
        return (
            "The activity-diversity loss moves the generated occupations toward their "
            f"target: {distance}, an improvement of {_percent(gain)}."
        )
    if round(gain, 1) < 0:
        return (
            "The activity-diversity loss did not balance the generated occupations here: "
            f"{distance}, {_percent(-gain)} worse."
        )
    return f"The activity-diversity loss left the occupations' balance as it was: {distance}."


def _improvements(scores: pd.DataFrame, definition: str, metric: str = "OFI") -> pd.DataFrame:
    """Seeds × classes: ``|real − ideal| − |synthetic − ideal|`` of `metric`, per seed
    (positive: the classifier trained on synthetic data is less biased)."""
    sel = scores[(scores["definition"] == definition) & (scores["metric"] == metric)]
    wide = sel.pivot_table(index=["seed", "class"], columns="data", values="value", aggfunc="first")
    gains = improvement(wide["real"], wide["synthetic"], IDEAL[metric])
    table = pd.Series(gains, index=wide.index).unstack("class")
    return table.reindex(columns=[c for c in _class_order() if c in table.columns])


def _ofi(scores: pd.DataFrame, definition: str, *, where: str, context: str) -> str:
    """OFI's change per class (mean ± sd over the seeds: closer to 0 or further from it)
    and, seed by seed, whether the classifier trained on synthetic data got less biased: in
    every seed, in none, or in some (the seeds disagree)."""
    per_seed = _improvements(scores, definition)
    n_seeds = len(per_seed)
    groups: dict[tuple, list[str]] = {}
    for name in per_seed.columns:
        values = per_seed[name].dropna().to_numpy(float)
        if not len(values):
            continue
        mean = float(values.mean())
        sd = f" ± {values.std(ddof=1):.3f}" if len(values) > 1 else ""
        better = int((values.round(3) > 0).sum())
        worse = int((values.round(3) < 0).sum())
        key = (
            -round(mean, 3),
            f"{abs(mean):.3f}{sd}",
            _signed(mean)[0],
            better,
            worse,
            len(values),
        )
        groups.setdefault(key, []).append(name)
    parts, always, never, mixed = [], [], [], []
    for (_, size, sign, better, worse, k), names in sorted(groups.items()):
        way = {"+": "closer to 0", "−": "further from 0"}.get(sign)
        parts.append(
            f"{way} by {size} for {listed(names)}" if way else f"no closer for {listed(names)}"
        )
        if better == k:
            always += names
        elif worse == k:
            never += names
        else:
            mixed.append(f"{listed(names)} (closer in {better} of {k})")
    text = (
        f"{where} ({context.format(n=n_seeds, s='' if n_seeds == 1 else 's')}, {definition} "
        f"definition), training on synthetic data brings OFI {listed(parts)}"
        + (" (mean ± sd over the seeds)." if n_seeds > 1 else ".")
    )
    if n_seeds < 2:
        return text
    said = []
    if always:
        said.append(f"closer in every seed for {listed(always)}")
    if never:
        said.append(f"further in every seed for {listed(never)}")
    if mixed:
        said.append(f"the seeds disagree for {listed(mixed)}")
    summary = listed(said)
    if always or never:
        summary = "It is " + summary
    else:
        summary = summary[0].upper() + summary[1:]
    return f"{text} {summary}."


def _recorded(recording, definition: str) -> str | None:
    """The OFI sentence on the recorded full-size seeds; None when nothing is recorded."""
    if recording is None or recording.empty:
        return None
    result = recorded_experiment(recording)
    if not result:
        return None
    context = "{n} recorded seed{s}"
    if recording.stale:
        context += ", recorded by code that has changed since: for context only"
    return _ofi(result["scores"], definition, where="At full size", context=context)


def _ofi_against_di(scores: pd.DataFrame, definition: str, tol: float) -> str:
    table = reading(scores, data="real", definition=definition, tol=tol)
    di = (table["DI"] - 1.0).abs() > tol
    ofi = table["OFI"].abs() > tol
    n = len(table)
    text = (
        f"Trained on real data, DI is more than {tol:g} from 1 for {int(di.sum())} of {n} "
        f"classes and OFI more than {tol:g} from 0 for {int(ofi.sum())}"
    )
    disparity = list(table.index[di & ~ofi])
    missed = list(table.index[ofi & ~di])
    if disparity:
        text += (
            f"; for {listed(disparity)} DI sees a disparity while OFI is near 0, so the "
            "difference lies in the groups' base rates, not in the classifier's errors"
        )
    if missed:
        text += f"; for {listed(missed)} OFI sees an algorithmic bias that DI misses"
    if not disparity and not missed:
        text += ": the two flag the same classes"
    return text + "."


def key_results(
    scores: pd.DataFrame,
    table_3_5: pd.DataFrame,
    *,
    activities: pd.DataFrame | None = None,
    recording=None,
    definition: str = "pair",
    tol: float = 0.02,
    budget: str = "fast",
    chapter: str = CHAPTER,
) -> KeyResults:
    """The chapter's Key results box, computed from its tables.

    Parameters
    ----------
    scores : pandas.DataFrame
        The long bias scores over seeds, ``run_experiment(...)["scores"]``.
    table_3_5 : pandas.DataFrame
        :func:`~fairbook_book.chapters.conditional_hydragan.table_3_5` of the same result.
    activities : pandas.DataFrame, keyword-only, optional
        ``run_experiment(...)["activities"]``: the generated occupations' proportions per
        seed, for the spread of their distance to the target.
    recording : fairbook_book.recordings.Recording, keyword-only, optional
        The recorded full-size seeds
        (:func:`~fairbook_book.chapters.conditional_hydragan.seeds_recording`): their OFI
        sentence (none while nothing is recorded; a stale one is said to be so).
    definition : {"pair", "cells"}, keyword-only
        Which comparison of a class the OFI and DI sentences read.
    tol : float, keyword-only
        How far from its ideal a score must be to count as biased (the chapter's reading
        of OFI beside DI, :func:`~fairbook_book.chapters.conditional_hydragan.reading`).
    budget : str, keyword-only
        The profile this build ran (the replication line names it).
    chapter : str, keyword-only
        The chapter's notebook stem, for the replication line.

    Returns
    -------
    fairbook_book.chapter_summary.KeyResults
        Four or five sentences: the who-cells' representation, the activities' balance,
        OFI's change with its spread over seeds in this build and (when recorded) at full
        size, and what OFI says that DI does not; below them the replication line computed
        from the chapter's replication tables.
    """
    # the tables the chapter's ledger cell collects (the same rows the ledger lists); a
    # definition the scores do not hold has no table
    tables = [
        table_3_4_beside_paper(scores, definition=d)
        for d in ("pair", "cells")
        if d in set(scores["definition"])
    ]
    tables += [table_3_5_beside_paper(table_3_5), table_3_5_replication(table_3_5)]
    findings = [
        _individuals(table_3_5),
        _activities(table_3_5, activities),
        _ofi(
            scores, definition, where="In this build", context=f"{budget} profile, {{n}} seed{{s}}"
        ),
        _recorded(recording, definition),
        _ofi_against_di(scores, definition, tol),
    ]
    return _box(
        *[f for f in findings if f],
        replication=replication_line(tables, chapter=chapter, budget=budget),
    )
