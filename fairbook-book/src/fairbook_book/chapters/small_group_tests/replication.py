"""Replication of "How small is too small?": the thesis's claims about MATCH, judged exactly.

The chapter is the book's own comparison; no paper prints these sizes. Seed 003 (Sec. 4.5)
does claim properties of MATCH, and the chapter judges them with its exact sums. Each row
is *mathematics* (a property of a test, computed, not a result of the paper's experiments),
with α as an upper bound the size must stay under:

* Sec. 4.5: MATCH tells "genuine performance disparities" from "artifacts of sample size
  variability" — read as: with the reference's rate known, as MATCH assumes, its exact size
  never exceeds α;
* the same claim as the audit applies MATCH, with the reference's rate estimated from a
  reference sample of ``N`` people and plugged in (Sec. 4.8 names "incorporating uncertainty
  in reference probabilities" as future work);
* Sec. 4.5.3 (Fig. 4.3's discussion): convergence to normality "supports the validity of
  using the normal approximation ... particularly for larger sample sizes" — read as: the
  normal MATCH holds α with a known reference from ``n = 30`` (the usual rule of thumb).

The chapter takes no constant from :mod:`fairbook.papers` (α is its own parameter), so
:data:`PAPER_SOURCES` is empty; the rows' sources are ``seed 003 Sec. 4.5 (claim)`` and
``seed 003 Sec. 4.5.3 (claim)``.

>>> PAPER_SOURCES
{}
"""

from __future__ import annotations

import math

import pandas as pd

from fairbook_book.replication import Bound, Row, replication_table

__all__ = ["PAPER_SOURCES", "match_claims_replication"]

#: Paper constants the chapter uses, by ledger source: none.
PAPER_SOURCES: dict[str, str] = {}


def _largest(grid: pd.DataFrame, *, test: str, reference: str, smallest_n: int = 1) -> tuple:
    part = grid[(grid["test"] == test) & (grid["reference"] == reference)]
    part = part[part["n"] >= smallest_n]
    if part.empty:  # no group size in range: nothing to judge
        return math.nan, None
    worst = part.loc[part["size"].idxmax()]
    return float(worst["size"]), worst


def match_claims_replication(grid: pd.DataFrame, *, alpha: float) -> pd.DataFrame:
    """The three claims as ledger rows, from :func:`~.runs.size_power`'s table.

    Returns
    -------
    pandas.DataFrame
        :func:`fairbook_book.replication.replication_table` of three rows.
    """
    sample = next(r for r in pd.unique(grid["reference"]) if r != "known")
    rows = []
    for quantity, test, reference, smallest, source in (
        (
            "MATCH, reference rate known: largest exact size",
            "match",
            "known",
            1,
            "seed 003 Sec. 4.5 (claim)",
        ),
        (
            f"MATCH, reference rate from a sample of {sample.removeprefix('N = ')}: "
            "largest exact size",
            "match",
            sample,
            1,
            "seed 003 Sec. 4.5 (claim)",
        ),
        (
            "MATCH's normal approximation, reference rate known, n ≥ 30: largest exact size",
            "match_normal",
            "known",
            30,
            "seed 003 Sec. 4.5.3 (claim)",
        ),
    ):
        size, worst = _largest(grid, test=test, reference=reference, smallest_n=smallest)
        rows.append(
            Row(
                quantity,
                alpha,
                size,
                rule=Bound("upper"),
                kind="mathematics",
                source=source,
                note=(
                    f"α = {alpha:g} as the bound; largest at {worst['dataset']}, "
                    f"{worst['metric']}, n = {int(worst['n'])} over the chapter's sizes, "
                    "both metrics and both data sets' base rates"
                    if worst is not None
                    else f"no group size of at least {smallest} in this build"
                ),
            )
        )
    return replication_table(rows)
