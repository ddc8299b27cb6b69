"""Chapter 05 (seed 001, UCerF): the paper's printed values beside ours."""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.papers import seed001
from fairbook.ucerf import (
    confidence_from_perplexity,
    desirability,
    ucerf,
)
from fairbook_book.replication import Exact, NotComparable, Row, replication_table

from .settings import PAPER_MODEL_IDS

__all__ = [
    "PAPER_SOURCES",
    "ranking_replication",
    "replication",
]


#: Ranks among fewer models than the paper's ten are not the paper's ranks.
_FEWER_MODELS = NotComparable(
    "ranked among fewer models than the paper's ten", why="data not offline"
)

#: The paper's ten language models (up to 70 billion parameters) are not available
#: offline; the chapter runs one small model (SmolLM2-135M), which has no rank among them.
_NOT_RANKED = NotComparable(
    "the paper's ten models are not available offline; the chapter runs SmolLM2-135M",
    why="data not offline",
)

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
    "seed001.RANKS_WINOBIAS": "seed 001 WinoBias ranking",
    "seed001.RANKS_SYNTHBIAS": "seed 001 SynthBias ranking",
    "seed001.N_MODELS": "not in ledger: how many models the paper ranks",
}


def ranking_replication(ranking: pd.DataFrame | None) -> pd.DataFrame:
    """Seed 001's printed ranks (WinoBias and SynthBias) beside ours: all eleven, one row
    each, so that every printed rank is in the ledger.

    A rank is comparable only within a ranking of the paper's ten models: ``ranking`` (our
    ranks of the models we could run, or None offline) gives ours where it holds the
    model, and a ranking of fewer models is not compared.

    Examples
    --------
    >>> r = pd.DataFrame({"accuracy rank": [1, 2], "EO rank": [2, 1], "UCerF rank": [2, 1]},
    ...                  index=["mistralai/Mistral-7B-Instruct-v0.2", "other/model"])
    >>> t = ranking_replication(r).set_index("quantity")
    >>> len(t), float(t.loc["Mistral-7B-Inst: UCerF rank", "ours"])
    (11, 2.0)
    >>> len(ranking_replication(None))
    11
    """
    rows = []
    for source, ranks, data in (
        ("seed 001 WinoBias ranking", seed001.RANKS_WINOBIAS, "WinoBias"),
        ("seed 001 SynthBias ranking", seed001.RANKS_SYNTHBIAS, "SynthBias"),
    ):
        for name, printed in ranks.items():
            pattern = PAPER_MODEL_IDS[name]
            hits = [] if ranking is None else [m for m in ranking.index if pattern in m.lower()]
            scored = bool(hits) and data == "WinoBias"  # the chapter ranks on WinoBias only
            for metric, rank in printed.items():
                ours = float(ranking.loc[hits[0], f"{metric} rank"]) if scored else np.nan
                complete = scored and len(ranking) == seed001.N_MODELS
                rows.append(
                    Row(
                        f"{name}: {metric} rank" + ("" if data == "WinoBias" else " (SynthBias)"),
                        rank,
                        ours,
                        rule=Exact() if complete else _FEWER_MODELS if scored else _NOT_RANKED,
                        note=f"{hits[0]} among {len(ranking)} models" if scored else "",
                        source=source,
                        kind="result",
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
    ['mathematics check: matches', 'mathematics check: matches']
    """
    occupations = pd.unique(pd.concat([winobias["occupation_1"], winobias["occupation_2"]]))
    certain = confidence_from_perplexity(1.0, 2).item()
    uniform = confidence_from_perplexity(2.0, 2).item()
    # the ends of the scales are true of the formulas for any model: mathematics, checked
    definitional = Exact()
    source = "seed 001 Sec. 3 (LSBP, UCerF)"
    rows = [
        Row(
            "WinoBias instances",
            seed001.WINOBIAS_INSTANCES,
            len(winobias),
            rule=Exact(),
            note="sentences loaded (all types, splits)",
            source="seed 001 Sec. 2 (WinoBias)",
            kind="data fact",
        ),
        Row(
            "occupations",
            seed001.OCCUPATIONS,
            len(occupations),
            rule=NotComparable("the paper's 40 are SynthBias's occupations; ours WinoBias's"),
            note="distinct candidates in the loaded WinoBias",
            source="seed 001 Sec. 2 (SynthBias)",
            kind="data fact",
        ),
        Row(
            "confidence c, upper end (perplexity 1, certain)",
            seed001.CONFIDENCE_RANGE[1],
            certain,
            rule=definitional,
            source=source,
            kind="mathematics",
        ),
        Row(
            "confidence c, lower end (perplexity k, uniform)",
            seed001.CONFIDENCE_RANGE[0],
            uniform,
            rule=definitional,
            source=source,
            kind="mathematics",
        ),
        Row(
            "D, confidently right",
            seed001.DESIRABILITY_RANGE[1],
            desirability([certain], [True])[0],
            rule=definitional,
            source=source,
            kind="mathematics",
        ),
        Row(
            "D, confidently wrong",
            seed001.DESIRABILITY_RANGE[0],
            desirability([certain], [False])[0],
            rule=definitional,
            source=source,
            kind="mathematics",
        ),
        Row(
            "UCerF, identical behaviour (perfect fairness)",
            seed001.UCERF_PERFECT_FAIRNESS,
            ucerf([0.3], [0.3]),
            rule=definitional,
            source=source,
            kind="mathematics",
        ),
        Row(
            "UCerF, confidently right vs confidently wrong (complete unfairness)",
            seed001.UCERF_COMPLETE_UNFAIRNESS,
            ucerf([1.0], [-1.0]),
            rule=definitional,
            source=source,
            kind="mathematics",
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
                kind="data fact",
            )
            for key, label in (("rows", "rows"), ("type1", "type 1"), ("type2", "type 2"))
        ]
    return replication_table(rows)
