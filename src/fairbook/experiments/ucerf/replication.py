"""Chapter 05 (seed 001, UCerF): the paper's printed values beside ours."""

from __future__ import annotations

import pandas as pd

from fairbook.papers import seed001
from fairbook.replication import Exact, NotComparable, Row, replication_table
from fairbook.ucerf import (
    confidence_from_perplexity,
    desirability,
    ucerf,
)

from .settings import PAPER_MODEL_IDS

__all__ = [
    "PAPER_SOURCES",
    "ranking_replication",
    "replication",
]


#: Ranks among fewer models than the paper's ten are not the paper's ranks.
_FEWER_MODELS = NotComparable("ranked among fewer models than the paper's ten")

#: Every printed constant of seed 001 this chapter uses, and where the ledger lists it.
PAPER_SOURCES = {
    "seed001.WINOBIAS_INSTANCES": "seed 001 Sec. 2 (WinoBias)",
    "seed001.OCCUPATIONS": "seed 001 Sec. 2 (SynthBias)",
    "seed001.CONFIDENCE_RANGE": "seed 001 Sec. 3 (LSBP, UCerF)",
    "seed001.DESIRABILITY_RANGE": "seed 001 Sec. 3 (LSBP, UCerF)",
    "seed001.UCERF_PERFECT_FAIRNESS": "seed 001 Sec. 3 (LSBP, UCerF)",
    "seed001.UCERF_COMPLETE_UNFAIRNESS": "seed 001 Sec. 3 (LSBP, UCerF)",
    "seed001.SYNTHBIAS_PAPER": "not in ledger: compared only when the SynthBias file is present",
    "seed001.SYNTHBIAS_RELEASE": "not in ledger: the released file's counts, shown as context",
    "seed001.RANKS_WINOBIAS": "not in ledger: the ten-model ranking needs the internet",
    "seed001.RANKS_SYNTHBIAS": "not in ledger: the ten-model ranking needs the internet",
    "seed001.N_MODELS": "not in ledger: how many models the paper ranks",
}


def ranking_replication(ranking: pd.DataFrame | None) -> pd.DataFrame | None:
    """Seed 001's printed WinoBias ranks beside ours, for the models in ``ranking``.

    Ranks are only comparable when ``ranking`` holds the paper's ten models; None when
    there is no ranking (offline).

    Examples
    --------
    >>> r = pd.DataFrame({"accuracy rank": [1, 2], "EO rank": [2, 1], "UCerF rank": [2, 1]},
    ...                  index=["mistralai/Mistral-7B-Instruct-v0.2", "other/model"])
    >>> ranking_replication(r).quantity.tolist()
    ['Mistral-7B-Inst: accuracy rank', 'Mistral-7B-Inst: EO rank', 'Mistral-7B-Inst: UCerF rank']
    """
    if ranking is None:
        return None
    rows = []
    for name, pattern in PAPER_MODEL_IDS.items():
        hits = [m for m in ranking.index if pattern in m.lower()]
        if not hits:
            continue
        for metric, rank in seed001.RANKS_WINOBIAS[name].items():
            rows.append(
                Row(
                    f"{name}: {metric} rank",
                    rank,
                    ranking.loc[hits[0], f"{metric} rank"],
                    rule=Exact() if len(ranking) == seed001.N_MODELS else _FEWER_MODELS,
                    note=f"{hits[0]} among {len(ranking)} models",
                    source="seed 001 WinoBias ranking",
                )
            )
    return replication_table(rows)


def replication(winobias: pd.DataFrame, synthbias_counts: dict | None = None) -> pd.DataFrame:
    """The numbers seed 001 prints for things this chapter computes, beside ours.

    Parameters
    ----------
    winobias : DataFrame
        The whole of :func:`fairbook.data.load_winobias` (all types and splits).
    synthbias_counts : dict, optional
        Observed SynthBias counts, when the file is present.

    Examples
    --------
    >>> t = replication(pd.DataFrame({"occupation_1": ["a"], "occupation_2": ["b"]}))
    >>> t.loc[t.quantity.str.startswith("UCerF"), "verdict"].tolist()
    ['not comparable', 'not comparable']
    """
    occupations = pd.unique(pd.concat([winobias["occupation_1"], winobias["occupation_2"]]))
    certain = confidence_from_perplexity(1.0, 2).item()
    uniform = confidence_from_perplexity(2.0, 2).item()
    definitional = NotComparable(
        "definitional: true of the formula for any model; a check of our implementation"
    )
    source = "seed 001 Sec. 3 (LSBP, UCerF)"
    rows = [
        Row(
            "WinoBias instances",
            seed001.WINOBIAS_INSTANCES,
            len(winobias),
            rule=Exact(),
            note="sentences loaded (all types, splits)",
            source="seed 001 Sec. 2 (WinoBias)",
        ),
        Row(
            "occupations",
            seed001.OCCUPATIONS,
            len(occupations),
            rule=NotComparable("the paper's 40 are SynthBias's occupations; ours WinoBias's"),
            note="distinct candidates in the loaded WinoBias",
            source="seed 001 Sec. 2 (SynthBias)",
        ),
        Row(
            "confidence c, upper end (perplexity 1, certain)",
            seed001.CONFIDENCE_RANGE[1],
            certain,
            rule=definitional,
            source=source,
        ),
        Row(
            "confidence c, lower end (perplexity k, uniform)",
            seed001.CONFIDENCE_RANGE[0],
            uniform,
            rule=definitional,
            source=source,
        ),
        Row(
            "D, confidently right",
            seed001.DESIRABILITY_RANGE[1],
            desirability([certain], [True])[0],
            rule=definitional,
            source=source,
        ),
        Row(
            "D, confidently wrong",
            seed001.DESIRABILITY_RANGE[0],
            desirability([certain], [False])[0],
            rule=definitional,
            source=source,
        ),
        Row(
            "UCerF, identical behaviour (perfect fairness)",
            seed001.UCERF_PERFECT_FAIRNESS,
            ucerf([0.3], [0.3]),
            rule=definitional,
            source=source,
        ),
        Row(
            "UCerF, confidently right vs confidently wrong (complete unfairness)",
            seed001.UCERF_COMPLETE_UNFAIRNESS,
            ucerf([1.0], [-1.0]),
            rule=definitional,
            source=source,
        ),
    ]
    if synthbias_counts:
        release = NotComparable(
            "the released file removed 28 duplicates after the paper (README, 3 July 2025)"
        )
        ours = {
            "rows": synthbias_counts["rows"],
            "type1": synthbias_counts["type1"],
            "type2": synthbias_counts["type2_pro"] + synthbias_counts["type2_anti"],
        }
        rows += [
            Row(
                f"SynthBias {label}",
                seed001.SYNTHBIAS_PAPER[key],
                ours[key],
                rule=release,
                source="seed 001 Sec. 2 (SynthBias)",
            )
            for key, label in (("rows", "rows"), ("type1", "type 1"), ("type2", "type 2"))
        ]
    return replication_table(rows)
