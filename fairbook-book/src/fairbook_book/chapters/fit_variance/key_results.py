"""Chapter 06 (seed 004, FIT runs): the chapter's answers as plain sentences, from its runs.

:func:`key_results` reads the study the chapter has already run and says, with its numbers,
how much fairness varies between identical training runs, whether a debiasing technique
helps beyond that variance — and whether the run count lets the U-test say so at all — and
what one run each would have concluded. How far the chapter replicates the paper is not a
finding: it is the box's replication line, computed from the chapter's replication tables
(:func:`fairbook_book.ledger.replication_line`).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from fairbook.stats.between_runs import fewest_runs, mann_whitney_one_sided
from fairbook_book.chapter_summary import KeyResults
from fairbook_book.chapter_summary import key_results as _box
from fairbook_book.ledger import replication_line

from ._common import _runs_matrix, _select, _techniques
from .results import costs, effects, single_run_table, strict_identity, table_2
from .settings import SETTINGS_FIT, SETTINGS_STRICT, TASK_LABELS

__all__ = ["key_results"]


def _label(task: str) -> str:
    """A task's short name in a sentence (``Digits-S``).

    Examples
    --------
    >>> _label("digits_s"), _label("adult")
    ('Digits-S', 'Adult')
    """
    return TASK_LABELS.get(task, task).split(" ")[0]


def _tasks(study: pd.DataFrame) -> list[str]:
    fit = study[study["setting"] == SETTINGS_FIT]
    return list(dict.fromkeys(fit["task"]))


def _identical_runs_sentence(study: pd.DataFrame, task: str, metric: str) -> str:
    rows = _select(study, task, technique="base")
    runs = rows["run"].nunique()
    models = rows["weights_hash"].nunique()
    values = 100 * _runs_matrix(study, task, "base")[metric].to_numpy(dtype=float)
    table = table_2(study, task)
    max_diff, stdev = (table.loc[("base", "Overall", stat)] for stat in ("MaxDiff", "STDEV"))
    return (
        f"Identical training runs are not equally fair: {runs} FIT runs of the "
        f"{_label(task)} baseline, with the same code, data, seed and initial weights, ended "
        f"as {models} different models, and their overall {metric} ranges from "
        f"{np.min(values):.2f} % to {np.max(values):.2f} % — "
        f"{float(max_diff[metric]):.2f} percentage points, with a standard "
        f"deviation of {float(stdev[metric]):.2f} (DP over {float(max_diff['DP']):.2f} points)."
    )


def _largest_spread_sentence(study: pd.DataFrame, tasks: list[str], metric: str) -> str:
    best = None
    for task in tasks:
        table = table_2(study, task)
        for technique in _techniques(study, task):
            value = float(table.loc[(technique, "Overall", "MaxDiff"), metric])
            if best is None or value > best[0]:
                best = (value, technique, task)
    value, technique, task = best
    sentence = (
        f"The largest spread of any technique is {value:.2f} points of overall {metric} "
        f"({technique} on {_label(task)})"
    )
    strict = study[study["setting"] == SETTINGS_STRICT]
    if strict.empty:
        return sentence + "."
    identity = strict_identity(strict)
    identical = int(identity["bit-identical"].sum())
    why = (
        ", so the spread comes from floating-point rounding alone"
        if identical == len(identity)
        else ""
    )
    return (
        sentence + f"; with every knob fixed, the baseline's runs were bit-identical on "
        f"{identical} of {len(identity)} tasks{why}."
    )


def _separated_p(n: int, method: str) -> float:
    """The one-sided U-test's p-value for ``n`` runs each that are perfectly separated
    (every treated run above every baseline run): the smallest p-value the exact test can
    give with ``n`` runs each, and the asymptotic test's value for such runs.

    Examples
    --------
    >>> round(_separated_p(3, "exact"), 4), round(_separated_p(3, "asymptotic"), 4)
    (0.05, 0.0404)
    """
    p, _ = mann_whitney_one_sided(range(n), range(n, 2 * n), method=method)
    return p


def _helps_sentence(tables: dict, runs: int, alpha: float) -> str:
    """Does a technique help beyond the FIT-run variance, by the paper's asymptotic U-test —
    and, at a run count where the exact test cannot reach ``alpha``, why its "significant"
    results are not to be trusted."""
    table = pd.concat(tables.values())
    direction = table["direction"]
    total = len(direction)
    decrease = int((direction == "decrease").sum())
    increase = int((direction == "increase").sum())
    unclear = total - decrease - increase
    significant = direction.isin(["decrease", "increase"])
    confirmed = int((table.loc[significant, "mw_p_exact"] < alpha).sum())
    exact_p, asymptotic_p = _separated_p(runs, "exact"), _separated_p(runs, "asymptotic")
    need = fewest_runs("mw_p_exact", alpha=alpha)
    if asymptotic_p >= alpha:
        return (
            f"Does debiasing help beyond that variance? With {runs} runs each, no technique × "
            f"metric comparison can be significant: even perfectly separated runs give a "
            f"one-sided Mann–Whitney p-value of {exact_p:.3g} by the exact test and "
            f"{asymptotic_p:.3g} by the paper's asymptotic one, both at least {alpha:g}; "
            f"the question needs at least {need} runs per group."
        )
    counted = (
        f"{decrease} of {total} technique × metric comparisons show a significant decrease "
        f"of bias by the paper's asymptotic one-sided Mann–Whitney test (p < {alpha:g}) and "
        f"{increase} a significant increase"
    )
    if exact_p >= alpha:
        return (
            f"Does debiasing help beyond that variance? With {runs} runs each, {counted} — "
            f"but these are not to be trusted: with fewer than {need} runs per group the exact "
            f"test cannot reach significance, since even perfectly separated runs give it "
            f"p = {exact_p:.3g} (the asymptotic test {asymptotic_p:.3g}), so {confirmed} of "
            f"the {decrease + increase} survive it; rerun with at least {need} runs."
        )
    d = np.abs(table.loc[significant, "cohen_d"].to_numpy(dtype=float))
    d = d[np.isfinite(d)]
    size = f", with a median |Cohen's d| of {np.median(d):.2f}" if d.size else ""
    return (
        f"Does debiasing help beyond that variance? With {runs} runs each, {counted}"
        f"{size}; the exact test confirms {confirmed} of these {decrease + increase}, and in "
        f"the other {unclear} comparisons the technique cannot be told apart from the "
        f"run-to-run variance."
    )


def _one_run_sentence(study: pd.DataFrame, tasks: list[str], alpha: float) -> str:
    single = pd.concat([single_run_table(study, task) for task in tasks])
    reversals = int(single["reversal"].sum())
    cost = pd.concat([costs(study, task, alpha=alpha) for task in tasks])
    reducing = int(cost["experiments reducing bias"].sum())
    with_cost = int(cost["experiments with a cost"].sum())
    return (
        f"In {reversals} of {len(single)} comparisons the technique is worse on average, yet "
        "one of its runs beats one baseline run, so a one-run-each comparison could get the "
        f"sign wrong; of the {reducing} comparisons where a technique reduces bias, "
        f"{with_cost} pay for it with lower accuracy or a larger spread."
    )


def key_results(
    study: pd.DataFrame,
    *,
    replications: Iterable = (),
    metric: str = "DI_BAR",
    alpha: float = 0.05,
    budget: str = "fast",
    chapter: str = "06_fit_variance",
) -> KeyResults:
    """The chapter's Key results: how much fairness varies across FIT runs, and what follows.

    Parameters
    ----------
    study : DataFrame
        :func:`~fairbook_book.chapters.fit_variance.run_study`'s run table (the baseline and at
        least one technique per task; the setting with every knob fixed is optional).
    replications : iterable of DataFrame, keyword-only
        The chapter's replication tables (the ones its ledger cell collects); they make the
        box's replication line (:func:`fairbook_book.ledger.replication_line`). Without them the
        box has none.
    metric : str, keyword-only, default "DI_BAR"
        The bias metric whose spread the first two sentences report (DP is given beside it).
    alpha : float, keyword-only, default 0.05
        Significance level of the Mann–Whitney test and of the costs.
    budget : str, keyword-only, default "fast"
        The profile the study ran at (named in the replication line).
    chapter : str, keyword-only
        The chapter's notebook stem (for the replication line).

    Returns
    -------
    fairbook_book.chapter_summary.KeyResults
        Four findings and, with ``replications``, the replication line.
    """
    tasks = _tasks(study)
    if not tasks:
        raise ValueError("the study has no FIT runs")
    tables = {task: effects(study, task, alpha=alpha) for task in tasks}
    runs = int(min(_select(study, t, technique="base")["run"].nunique() for t in tasks))
    sentences = [
        _identical_runs_sentence(study, tasks[0], metric),
        _largest_spread_sentence(study, tasks, metric),
        _helps_sentence(tables, runs, alpha),
        _one_run_sentence(study, tasks, alpha),
    ]
    given = [t for t in replications if t is not None]
    line = replication_line(given, chapter=chapter, budget=budget) if given else None
    return _box(*sentences, replication=line)
