"""The Key results of chapter 08 (PTN on the Lorenz system), computed from its tables.

:func:`key_results` turns what the chapter has computed — the deterministic forecast's
error by lead time, this build's Table 5.2, and the decisive recording's decisions and
Table 5.2 — into plain sentences: why a probabilistic forecast, and how PTN fares against
its two baselines in this build and at the recorded budget that can decide, each with its
spread over the runs. How far the chapter replicates the paper is one computed line below
them (:func:`fairbook_book.ledger.replication_line`), never a finding. Every number in them is
computed here, from those inputs.
"""

from __future__ import annotations

import pandas as pd

from fairbook_book.chapter_summary import KeyResults
from fairbook_book.chapter_summary import key_results as _key_results
from fairbook_book.ledger import replication_line

from .replication import table_5_2_microclimate

__all__ = ["CHAPTER", "key_results"]

#: The chapter's notebook stem (its rows in the ledger).
CHAPTER = "08_parallel_time_networks"

#: The decisions the Key results report, and how the chapter names the baseline in each.
_BASELINES = {
    "PTN vs Normal (Det.): skill Q2": "the Normal baseline",
    "PTN vs TiDE: skill Q2": "TiDE",
}


def _number(value: float) -> str:
    return f"{value:.2f}".replace("-0.00", "0.00")


def _nvar(errors: pd.DataFrame) -> str:
    mae = errors["MAE (x)"]
    first, last = int(mae.index[0]), int(mae.index[-1])
    ratio = mae.iloc[-1] / mae.iloc[0]
    return (
        f"The deterministic NVAR forecast's mean absolute error in $x$ grows from "
        f"{_number(mae.iloc[0])} at {first} step{'s' if first != 1 else ''} ahead to "
        f"{_number(mae.iloc[-1])} at {last} steps ({ratio:.0f} times larger): a few steps "
        "ahead the Lorenz system's future is uncertain, which is what a forecast of a whole "
        "distribution is meant to show."
    )


def _row(table: pd.DataFrame, quantity: str) -> pd.Series:
    rows = table[table["quantity"] == quantity]
    if rows.empty:
        raise ValueError(f"the Table 5.2 replication has no row {quantity!r}")
    return rows.iloc[0]


def _spread(row) -> str:
    """`` (95 % interval over the runs: a to b)`` for a row that has one, else ``""``."""
    low, high = getattr(row, "low", None), getattr(row, "high", None)
    if low is None or high is None or pd.isna(low) or pd.isna(high):
        return ""
    return f" (95 % interval over the runs {_number(low)} to {_number(high)})"


def _build(table_5_2: pd.DataFrame, profile: str) -> str:
    det, tide = _row(table_5_2, "Det.: Q2"), _row(table_5_2, "TiDE: Q2")
    rows = {row.quantity: row for row in table_5_2.attrs.get("rows", ())}
    runs = getattr(rows.get("Det.: Q2"), "n", None)
    runs_text = f", {runs} runs" if runs else ""
    return (
        f"In this build ({profile} profile{runs_text}), PTN's skill at the median CRPS "
        f"(Table 5.2's Q2) is {_number(det['ours'])}{_spread(rows.get('Det.: Q2'))} against "
        f"the Normal baseline and {_number(tide['ours'])}{_spread(rows.get('TiDE: Q2'))} "
        f"against TiDE, where the paper reports {_number(det['paper'])} and "
        f"{_number(tide['paper'])}; a negative skill means the baseline forecasts better."
    )


def _verdict(decision: str, baseline: str) -> str:
    return {
        "decided: the first wins": "PTN wins",
        "decided: the second wins": f"{baseline} wins",
        "t interval: the first wins; sign test: not decided": (
            "PTN wins by the t interval but not by the sign test"
        ),
        "t interval: the second wins; sign test: not decided": (
            f"{baseline} wins by the t interval but not by the sign test"
        ),
        "not decided": "it is not decided",
    }[decision]


def _decisive(decisions: pd.DataFrame) -> list[str]:
    if decisions.empty:
        return [
            "The decisive profile is not recorded yet, so whether PTN beats its baselines "
            "at a budget that could decide it is still open."
        ]
    sentences = []
    for name, baseline in _BASELINES.items():
        if name not in decisions.index:
            continue
        row = decisions.loc[name]
        runs = int(row["runs"])
        sentences.append(
            f"Does PTN beat {baseline}? At the recorded decisive budget, "
            f"{_verdict(row['decision'], baseline)}: PTN's mean skill over {runs} runs is "
            f"{_number(row['mean'])} (95 % interval {_number(row['low'])} to "
            f"{_number(row['high'])}), above zero in {int(row['runs above zero'])} of "
            f"{runs} runs."
        )
    return sentences


def key_results(
    *,
    nvar_errors: pd.DataFrame,
    table_5_2: pd.DataFrame,
    decisions: pd.DataFrame,
    profile: str,
    replication_tables=None,
    chapter: str = CHAPTER,
) -> KeyResults:
    """The chapter's Key results, from its computed tables.

    Parameters
    ----------
    nvar_errors : DataFrame
        The deterministic forecast's error by lead time
        (:func:`~fairbook_book.chapters.parallel_time_networks.results.nvar_error_table`,
        before any transpose); its first and last rows are compared.
    table_5_2 : DataFrame
        This build's Table 5.2
        (:func:`~fairbook_book.chapters.parallel_time_networks.replication.table_5_2_replication`).
    decisions : DataFrame
        The decisive recording's decisions
        (:func:`~fairbook_book.chapters.parallel_time_networks.results.decision_table`; empty
        when nothing is recorded).
    profile : str, keyword-only
        The profile this build ran.
    replication_tables : list of DataFrame, keyword-only, optional
        The chapter's replication tables for this build, the ones its ledger cell collects
        (default: ``table_5_2`` and
        :func:`~fairbook_book.chapters.parallel_time_networks.replication.table_5_2_microclimate`).
    chapter : str, keyword-only
        The chapter's notebook stem, for the replication line.

    Returns
    -------
    KeyResults
        The NVAR error growth, this build's skill against both baselines (with its interval
        over the runs), and one decision per baseline at the decisive budget; below them the
        replication line computed from ``replication_tables``.

    Examples
    --------
    >>> errors = pd.DataFrame({"MAE (x)": [0.2, 2.0]}, index=[1, 16])
    >>> from fairbook_book.chapters.parallel_time_networks import table_5_2_replication
    >>> crps = pd.DataFrame({"PTN": [0.1, 0.2], "Det.": [0.2, 0.4], "TiDE": [0.2, 0.2]})
    >>> results = key_results(nvar_errors=errors, table_5_2=table_5_2_replication([crps] * 2),
    ...                       decisions=pd.DataFrame(), profile="fast")
    >>> results.findings[0][:60]
    "The deterministic NVAR forecast's mean absolute error in $x$"
    >>> "from 0.20 at 1 step ahead to 2.00 at 16 steps (10 times larger)" in results.findings[0]
    True
    """
    if replication_tables is None:
        replication_tables = [table_5_2, table_5_2_microclimate()]
    return _key_results(
        _nvar(nvar_errors),
        _build(table_5_2, profile),
        *_decisive(decisions),
        replication=replication_line(replication_tables, chapter=chapter, budget=profile),
    )
