"""How many numbers each replicated table of the four papers prints, from its shape.

A transcription of every replicated table's layout: the blocks of printed cells, each as
``(what, rows, columns)``, so that a table's count of printed numbers is the sum of its
blocks' ``rows × columns`` and can be read off the table in the paper's text. The ledger's
per-table accounting (:func:`fairbook_book.ledger.table_accounting`) sets these counts beside
the rows each table has in the ledger; nothing here is a result of ours.

Conventions: a number printed twice in the same table counts once; a number another
table reprints with the same value is counted in the table that prints it first (seed 000's
Table 2 reprints four columns of Table 3, so the two are one unit, ``Tables 2-3``); a
table of formulas prints no number and has no rows (seed 003 Table 4.1 is listed in
:data:`WITHOUT_ROWS`).

Examples
--------
>>> printed_count("seed 000", "Table 1")
69
>>> printed_count("seed 003", "Table 3.4")
48
"""

from __future__ import annotations

__all__ = ["TABLES", "WITHOUT_ROWS", "printed_count", "table_of"]

import re

#: (paper, table) → blocks ``(what, rows, columns)`` of printed cells, as laid out in the
#: paper; a table's printed numbers are the sum of rows × columns.
TABLES: dict[tuple[str, str], tuple[tuple[str, int, int], ...]] = {
    ("seed 000", "Table 1"): (
        ("8 measures (ACC … U_p) × SD1–SD3 × G0, G1", 8, 6),
        ("7 ratios × SD1–SD3", 7, 3),
    ),
    ("seed 000", "Tables 2-3"): (
        ("Table 3: sample size × 7 groups", 1, 7),
        ("Table 3: 8 measures × 7 groups", 8, 7),
        ("Table 3: 7 ratios × race, age, gender", 7, 3),
        # Table 2 reprints the B, W, F, M columns and the race and gender ratios: counted once
    ),
    ("seed 000", "Table 4"): (
        ("rows per group and label (COMPAS, Adult)", 4, 4),
        ("the same as percentages of the group", 4, 4),
    ),
    ("seed 000", "Table 5"): (
        ("sample size and 8 measures × B, W, F, M", 9, 4),
        ("7 ratios × race, gender", 7, 2),
    ),
    ("seed 000", "Table 6"): (
        ("samples, their (0%), mean duration and truncation × M, F × Y = 0, 1", 4, 4),
    ),
    ("seed 000", "Table 7"): (
        ("sample size and 8 measures × 3 modalities × F, M", 9, 6),
        ("7 ratios × 3 modalities", 7, 3),
    ),
    ("seed 003", "Table 3.1"): (
        ("TP, FN, FP, TN, n, b, E[b], B × 6 group rows", 6, 8),
        ("OFI and DI × 3 scenarios", 3, 2),
    ),
    ("seed 003", "Table 3.2"): (("desirable properties × metrics (check marks)", 12, 6),),
    ("seed 003", "Table 3.3"): (
        ("the two groups' CMs × scenarios C, D", 8, 2),
        ("TE, DCA, OFI × scenarios C, D", 3, 2),
        ("the thresholds' 0 (TE > 0, DCA > 0, OFI < 0)", 3, 1),
    ),
    ("seed 003", "Table 3.4"): (("OFI, DPPL, DI, DCA × Synthetic, Real, Improves", 12, 4),),
    ("seed 003", "Table 3.5"): (("KS, KL, JS × Activities, Individuals × 3 columns", 3, 6),),
    ("seed 003", "Table 5.2"): (("3 quartiles and % outperformed × 4 columns", 4, 4),),
    ("seed 004", "Table 3"): (
        ("confusion counts (group × true label × prediction)", 2, 4),
        ("group sizes in the header", 1, 2),
        ("row totals", 2, 1),
        ("the Total row", 1, 5),
        ("the seven metrics (%)", 1, 7),
    ),
    ("seed 004", "Table 2"): (
        ("4 techniques × overall, per class × MaxDiff, STDEV × 7 metrics", 16, 7),
    ),
    ("seed 004", "Table 4"): (("27 techniques × MaxDiff, STDEV (overall, per class)", 27, 4),),
}

#: Printed numbers that have no ledger row, each with the reason, listed on the ledger
#: page so that a reader sees every printed table and number accounted for:
#: (paper, where) → (how many numbers, why none is judged). Add an entry only with the
#: reason; a table with rows belongs in :data:`TABLES`.
WITHOUT_ROWS: dict[tuple[str, str], tuple[int, str]] = {
    ("seed 003", "Table 4.1"): (
        0,
        "prints formulas (the parameters of each metric's law), no number: nothing to judge",
    ),
    ("seed 003", "Table 2.5"): (
        3,
        "the textbook moments of the normal distribution (skewness 0, kurtosis 3, excess "
        "kurtosis 0): background mathematics, not a finding of the thesis",
    ),
    ("seed 004", "Sec. 3.3 (the text on Fig. 1)"): (
        2,
        "'96 out of 103' techniques with a significant improvement have a huge effect: a "
        "count over the paper's GPU experiments, not attempted here (its '68.2 %, 15 of 22' "
        "is Finding 3's, judged there)",
    ),
    ("seed 004", "Finding 1"): (
        3,
        "its maxima (12.6, 11.8 and 100) are cells of Table 2, judged there once",
    ),
    ("seed 004", "Finding 3"): (
        1,
        "'all 15 of them fail to improve' bias amplification: the paper's 22 techniques on "
        "its GPU runs; the book runs analogues of few of them (not attempted)",
    ),
    ("seed 004", "Finding 4"): (
        4,
        "the costs among its 103 experiments (36 higher fairness variance, 54 lower "
        "accuracy, 15 higher accuracy variance; 70 with any cost is judged as 68.0 %): counts "
        "of the paper's GPU experiments, whose analogues here are too few to count alike",
    ),
}

_TABLE = re.compile(r"^(Tables? \d+(?:\.\d+)?(?:-\d+)?)\b")


def printed_count(paper: str, table: str) -> int:
    """How many numbers ``table`` of ``paper`` prints (:data:`TABLES`).

    Raises
    ------
    ValueError
        For a table that is not transcribed.
    """
    try:
        blocks = TABLES[(paper, table)]
    except KeyError:
        raise ValueError(f"{paper} {table} is not among the transcribed tables") from None
    return sum(rows * columns for _, rows, columns in blocks)


def table_of(source: str) -> str | None:
    """The table a ledger source names (``"Table 3.4 (cells)"`` → ``"Table 3.4"``), or None
    for a figure, theorem or section.

    Examples
    --------
    >>> table_of("Table 3.4 (cells)"), table_of("Tables 2-3"), table_of("Theorem 4.3")
    ('Table 3.4', 'Tables 2-3', None)
    """
    match = _TABLE.match(source or "")
    return match[1] if match else None
