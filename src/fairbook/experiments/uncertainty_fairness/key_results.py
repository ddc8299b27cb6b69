"""Chapter 04 (seed 000): the chapter's answers in plain sentences, from its own runs.

:func:`key_results` reads the tables the chapter has already computed — one run of Table 1,
the pattern over seeds, the replication tables of Tables 1, 2–3 and 5, the groups' order by
aleatoric uncertainty and the sensitivity study's robustness table — and says what they
answer: can a model be fair by its predictions and unfair by its uncertainty, and how much
of the paper's tables come back. Every number is computed from the inputs.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from fairbook.reading import KeyResults
from fairbook.reading import key_results as _box
from fairbook.replication import passes

from .runs import FairnessResult, _flag
from .settings import PATTERN_POINT, UNCERTAINTY_RATIOS

__all__ = ["key_results"]


def _count(n: int, total: int) -> str:
    return f"{n} of {total}"


def _ratio(value: float) -> str:
    """A fairness ratio with two decimals, or "undefined".

    Examples
    --------
    >>> _ratio(3.6312), _ratio(float("nan")), _count(3, 4)
    ('3.63', 'undefined', '3 of 4')
    """
    return "undefined" if not math.isfinite(value) else f"{value:.2f}"


def _worked_example(result: FairnessResult) -> str:
    """One run on SD1: the accuracy ratio beside the aleatoric-uncertainty ratio."""
    protected, reference = result.groups.columns[:2]
    acc0 = float(result.groups.loc["ACC", protected])
    acc1 = float(result.groups.loc["ACC", reference])
    eacc = float(result.ratios["F_EAcc"])
    alea = float(result.ratios["F_Alea"])
    eacc_flag, alea_flag = _flag(eacc), _flag(alea)
    if eacc_flag == "fair":
        accuracy = "about as accurate for the minority group as for the majority"
    elif eacc_flag == "undefined":
        accuracy = "of undefined relative accuracy for the two groups"
    else:
        accuracy = (
            f"{'less' if eacc < 1 else 'more'} accurate for the minority group than for the "
            "majority"
        )
    if math.isfinite(alea):
        uncertainty = (
            f"its aleatoric uncertainty about the minority is {alea:.2f} times the majority's "
            f"(F_Alea, {alea_flag})"
        )
    else:
        uncertainty = "its aleatoric-uncertainty ratio F_Alea is undefined"
    joint = "yet" if eacc_flag != alea_flag else "and"
    return (
        f"In the worked example (one run on SD1), the model is {accuracy} ({acc0:.2f} vs "
        f"{acc1:.2f}, F_EAcc = {_ratio(eacc)}, {eacc_flag}), {joint} {uncertainty}."
    )


def _patterns(patterns: pd.DataFrame, estimator: str) -> str:
    """How often the paper's reading of Table 1 holds over seeds, per data set."""
    parts = []
    seeds = set()
    readings = {
        "SD1": "fair by points, unfair by aleatoric uncertainty",
        "SD2": "fair by points, unfair by epistemic uncertainty",
        "SD3": "unfair by points, fair by uncertainty",
    }
    for sd, reading in readings.items():
        row = patterns.loc[(estimator, sd)]
        n = int(row["seeds"])
        holds = int(round(float(row["pattern holds (undefined ignored)"]) * n))
        seeds.add(n)
        parts.append(f"{_count(holds, n)} runs on {sd} ({reading})")
    over = f"{seeds.pop()} seeds" if len(seeds) == 1 else "its seeds"
    return (
        f"Over {over} of the {'BNN' if estimator == 'bnn' else estimator}, the paper's reading "
        f"of Table 1 holds, with undefined ratios set aside, in {parts[0]}, {parts[1]} and "
        f"{parts[2]}."
    )


def _compas(compas_rep: pd.DataFrame, ordering: pd.DataFrame) -> str:
    """COMPAS: the flags that agree, and how our aleatoric uncertainty compares."""
    rows = compas_rep.attrs["rows"]
    ratios = [r for r in rows if isinstance(r.rule, tuple)]
    agree = sum(passes(r.verdicts[0]) is True for r in ratios)
    aleatoric = [r for r in rows if r.quantity.endswith(" U_a") and not isinstance(r.rule, tuple)]
    higher = sum(r.ours > r.paper for r in aleatoric)
    rho = float(ordering.attrs["spearman"])
    if rho >= 0.8:
        order = "agrees closely with the paper's"
    elif rho >= 0.5:
        order = "roughly agrees with the paper's"
    else:
        order = "does not agree with the paper's"
    joint = "but" if 2 * higher > len(aleatoric) else "and"
    return (
        f"On COMPAS (Tables 2–3), {_count(agree, len(ratios))} fairness ratios carry the "
        f"paper's fair/unfair flag, {joint} our aleatoric uncertainty is higher than printed "
        f"for {_count(higher, len(aleatoric))} groups; the groups' order by it {order} "
        f"(Spearman {rho:.2f})."
    )


def _matches(table: pd.DataFrame) -> tuple[int, int]:
    rows = table.attrs["rows"]
    return sum(r.passed is True for r in rows), len(rows)


def _tally(table1_rep, compas_rep, adult_rep, adult_raw_rep) -> str:
    """How many of the paper's numbers replicate, per table."""
    t1, t23, t5, raw = (_matches(t) for t in (table1_rep, compas_rep, adult_rep, adult_raw_rep))
    return (
        f"Of the paper's printed numbers, {_count(*t1)} replicate within their rule in "
        f"Table 1, {_count(*t23)} in Tables 2–3 and {_count(*t5)} in Table 5 "
        f"({_count(*raw)} with raw, unscaled Adult inputs)."
    )


def _kind(claim: str) -> str | None:
    if any(m in claim for m in UNCERTAINTY_RATIOS):
        return "uncertainty"
    if any(m in claim for m in {p.removesuffix("_y0").removesuffix("_y1") for p in PATTERN_POINT}):
        return "point"
    return None


def _robustness(robust: pd.DataFrame, threshold: float) -> str:
    """The sensitivity study: which kind of the paper's flags survive its settings."""
    counts = {"point": [0, 0], "uncertainty": [0, 0]}
    for (source, claim), share in robust["share"].items():
        kind = _kind(claim)
        if not str(source).startswith("Table") or kind is None:
            continue
        counts[kind][1] += 1
        counts[kind][0] += bool(share >= threshold)
    (rp, np_), (ru, nu) = counts["point"], counts["uncertainty"]
    runs = int(robust["runs"].max())
    cells = sum(str(c).startswith("cell: ") for c in robust.columns)
    share_p = rp / np_ if np_ else np.nan
    share_u = ru / nu if nu else np.nan
    if share_u < share_p:
        tail = (
            f"but only {_count(ru, nu)} on uncertainty ratios, which move with training "
            "settings the paper does not state"
        )
    else:
        tail = f"and {_count(ru, nu)} on uncertainty ratios"
    return (
        f"In the sensitivity study ({runs} runs over {cells} readings of the paper's unstated "
        f"training settings), {_count(rp, np_)} of the paper's fair/unfair flags on "
        f"point-based ratios hold in at least {threshold * 100:.0f} % of runs, {tail}."
    )


def key_results(
    *,
    table1: dict,
    patterns: pd.DataFrame,
    table1_rep: pd.DataFrame,
    compas_rep: pd.DataFrame,
    ordering: pd.DataFrame,
    adult_rep: pd.DataFrame,
    adult_raw_rep: pd.DataFrame,
    robust: pd.DataFrame,
    estimator: str = "bnn",
    threshold: float = 0.9,
) -> KeyResults:
    """The chapter's Key results, from the tables it has computed.

    Parameters
    ----------
    table1 : dict
        One run of Table 1, ``{"SD1": FairnessResult, ...}`` (:func:`~.results.table_1`).
    patterns : DataFrame
        The first table of :func:`~.replication.pattern_summary` (per estimator and SD).
    table1_rep, compas_rep, adult_rep, adult_raw_rep : DataFrame
        :func:`~.replication.table_1_replication`, :func:`~.replication.compas_replication`
        and :func:`~.replication.adult_replication` (standardised and raw inputs); their
        rows are read from ``attrs["rows"]``.
    ordering : DataFrame
        :func:`~.results.group_ordering` of COMPAS by ``U_a`` (``attrs["spearman"]``).
    robust : DataFrame
        :func:`~.replication.robustness_table` of the sensitivity study.
    estimator : str, default "bnn", keyword-only
        Whose pattern over seeds is reported.
    threshold : float, default 0.9, keyword-only
        The share of runs under which a claim counts as robust.

    Returns
    -------
    fairbook.reading.KeyResults
        Five sentences: the worked example, Table 1's pattern over seeds, COMPAS, the
        tally of replicated numbers, and the sensitivity study.
    """
    return _box(
        _worked_example(table1["SD1"]),
        _patterns(patterns, estimator),
        _compas(compas_rep, ordering),
        _tally(table1_rep, compas_rep, adult_rep, adult_raw_rep),
        _robustness(robust, threshold),
    )
