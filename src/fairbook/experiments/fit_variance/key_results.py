"""Chapter 06 (seed 004, FIT runs): the chapter's answers as plain sentences, from its runs.

:func:`key_results` reads the study the chapter has already run (and, optionally, its
replication tables) and says, with its numbers, how much fairness varies between identical
training runs, whether a debiasing technique helps beyond that variance, what one run each
would have concluded, and how much of the paper the chapter replicates.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from fairbook.ledger import chapter_ledger
from fairbook.reading import KeyResults
from fairbook.reading import key_results as _box

from ._common import _select, _techniques
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
    spread = table_2(study, task).loc[("base", "Overall", "MaxDiff")]
    return (
        f"Identical training runs are not equally fair: {runs} FIT runs of the "
        f"{_label(task)} baseline, with the same code, data, seed and initial weights, ended "
        f"as {models} different models, and their overall {metric} varies over "
        f"{float(spread[metric]):.2f} percentage points (DP over {float(spread['DP']):.2f})."
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


def _helps_sentence(tables: dict, runs: int, alpha: float) -> str:
    direction = pd.concat(tables.values())["direction"]
    total = len(direction)
    decrease = int((direction == "decrease").sum())
    increase = int((direction == "increase").sum())
    unclear = total - decrease - increase
    return (
        f"Does debiasing help beyond that variance? With {runs} runs each, {decrease} of "
        f"{total} technique × metric comparisons show a significant decrease of bias "
        f"(one-sided Mann–Whitney, p < {alpha:g}) and {increase} a significant increase; in "
        f"the other {unclear} the technique cannot be told apart from the run-to-run variance."
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


def _replication_sentence(replications: Iterable) -> str | None:
    tables = [t for t in replications if t is not None]
    if not tables:
        return None
    frame = chapter_ledger(tables, chapter="06_fit_variance").frame
    if frame.empty:
        return None
    outcome = frame["outcome"]
    by_source = frame.groupby("source", sort=False)["outcome"]
    whole = [source for source, o in by_source if (o == "matches").all()]
    listed = f" ({', '.join(whole)} in full)" if whole else ""
    return (
        f"Of the paper's {len(frame)} numbers compared here, "
        f"{int((outcome == 'matches').sum())} replicated{listed}, "
        f"{int((outcome == 'differs').sum())} did not, and "
        f"{int((outcome == 'no verdict').sum())} have no verdict: measured on our small "
        "stand-in tasks on a CPU, they cannot match or miss the paper's GPU study."
    )


def key_results(
    study: pd.DataFrame,
    *,
    replications: Iterable = (),
    metric: str = "DI_BAR",
    alpha: float = 0.05,
) -> KeyResults:
    """The chapter's Key results: how much fairness varies across FIT runs, and what follows.

    Parameters
    ----------
    study : DataFrame
        :func:`~fairbook.experiments.fit_variance.run_study`'s run table (the baseline and at
        least one technique per task; the setting with every knob fixed is optional).
    replications : iterable of DataFrame, keyword-only
        The chapter's replication tables; without them the replication sentence is left out.
    metric : str, keyword-only, default "DI_BAR"
        The bias metric whose spread the first two sentences report (DP is given beside it).
    alpha : float, keyword-only, default 0.05
        Significance level of the Mann–Whitney test and of the costs.

    Returns
    -------
    fairbook.reading.KeyResults
        Four or five sentences.
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
    replication = _replication_sentence(replications)
    if replication is not None:
        sentences.append(replication)
    return _box(*sentences)
