"""Key results of "Confusion matrices and the metric catalogue" (seed 003 ch. 2).

The chapter's answers in plain sentences, each with its number, computed from the tables
the chapter shows: the catalogue (:func:`~fairbook_book.chapters.metric_catalogue.results.
catalogue_table`) and where its metrics have holes, the worked example's 18 metrics
(:func:`~fairbook_book.chapters.metric_catalogue.results.metric_values`) and the table of
holes (:func:`~fairbook_book.chapters.metric_catalogue.results.hole_table`). The chapter
compares no printed number of the paper (it prints formulas); the replication line below
the findings says so (:func:`fairbook_book.ledger.replication_line`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook_book.chapter_summary import KeyResults
from fairbook_book.chapter_summary import key_results as _box
from fairbook_book.chapter_summary import listed as _names
from fairbook_book.ledger import replication_line

__all__ = ["key_results"]

#: The four rates the worked-example sentence names, with the words it uses.
_EXAMPLE_RATES = (
    ("TPR", "the true positive rate is"),
    ("FPR", "the false positive rate"),
    ("PPV", "precision (PPV)"),
    ("ACC", "accuracy"),
)
#: Family names as the sentences spell them.
_FAMILY_WORDS = {"binomial": "binomial", "joint ratio": "joint-ratio", "other": "others"}
#: The catalogue's "undefined when" of a metric that divides by the group size only.
_ONLY_EMPTY = "n = 0"
#: The chapter's notebook stem (its rows in the ledger).
CHAPTER = "01_metric_catalogue"


def _matrices(count: int) -> str:
    return f"{count} other matri" + ("x" if count == 1 else "ces")


def _matrix(cm) -> str:
    return "[" + ", ".join(str(int(c)) for c in cm) + "]"


def _where_holes_are(catalogue: pd.DataFrame) -> str:
    """Which metrics are undefined only for an empty group, and where the others' holes are
    (read off the catalogue's "undefined when" column)."""
    when = catalogue["undefined when"]
    only_empty = list(when.index[when == _ONLY_EMPTY])
    joint = when[(catalogue["family"] == "joint ratio") & (when != _ONLY_EMPTY)]
    by_cause: dict[str, list[str]] = {}
    for name, text in joint.items():
        cause = text.partition("(")[2].rstrip(")") or text
        by_cause.setdefault(cause, []).append(str(name))
    rest = [str(name) for name in when.index if name not in only_empty and name not in joint]
    parts = []
    if by_cause:
        causes = "; ".join(f"{' and '.join(names)} with {c}" for c, names in by_cause.items())
        parts.append(
            f"the {len(joint)} joint-ratio metrics, each undefined where both cells of its "
            f"denominator are 0 ({causes})"
        )
    if rest:
        parts.append(f"{_names(rest)}, which combine such ratios")
    return (
        f"{len(only_empty)} of them ({_names(only_empty)}) divide by the group size and are "
        f"undefined only for an empty group; the other {len(when) - len(only_empty)} have "
        f"holes in groups that are not empty: {', and '.join(parts)}."
    )


def key_results(
    *,
    catalogue: pd.DataFrame,
    example: pd.DataFrame,
    cm,
    holes: pd.DataFrame,
    example_row: str = "example",
    listed: int = 7,
    budget: str = "fast",
) -> KeyResults:
    """The chapter's Key results box.

    Parameters
    ----------
    catalogue : pandas.DataFrame, keyword-only
        The whole catalogue (``catalogue_table()``), with its ``family`` column.
    example : pandas.DataFrame, keyword-only
        The worked example's metrics (``metric_values(cm)``), with its ``value`` column.
    cm : array-like of shape (4,), keyword-only
        The worked example's ``[TP, FN, FP, TN]`` (the chapter's ``example_cm``).
    holes : pandas.DataFrame, keyword-only
        A ``hole_table(...)`` (✗ = undefined), one row per named matrix.
    example_row : str, default "example", keyword-only
        The row of ``holes`` that is the worked example (left out of the hole sentence).
    listed : int, default 7, keyword-only
        A matrix's undefined metrics are named when there are at most this many.
    budget : str, default "fast", keyword-only
        The chapter's profile, named in the replication line (the chapter compares no
        printed number, so the line says so and links to the ledger).

    Returns
    -------
    fairbook_book.chapter_summary.KeyResults

    Examples
    --------
    >>> from fairbook_book.chapters.metric_catalogue import (
    ...     catalogue_table, hole_table, metric_values)
    >>> box = key_results(catalogue=catalogue_table(), example=metric_values([3, 1, 2, 4]),
    ...                   cm=[3, 1, 2, 4], holes=hole_table({"empty TP": [0, 0, 2, 3]}))
    >>> print(box.findings[2])  # doctest: +NORMALIZE_WHITESPACE
    For the worked example [TP, FN, FP, TN] = [3, 1, 2, 4] of 10 people, the true positive
    rate is 0.75, the false positive rate 0.33, precision (PPV) 0.60 and accuracy 0.70; all 18
    metrics are defined.
    """
    total = len(catalogue)
    families = catalogue["family"].value_counts()
    parts = [
        f"{int(families[f])} {_FAMILY_WORDS.get(f, f)}"
        for f in ("binomial", "joint ratio", "other")
        if f in families
    ]
    first = f"The catalogue holds {total} single-matrix metrics: {_names(parts)}."

    values = example["value"].astype(float)
    rates = _names(
        f"{words} {'undefined' if np.isnan(values[name]) else f'{values[name]:.2f}'}"
        for name, words in _EXAMPLE_RATES
    )
    undefined = [name for name, v in values.items() if np.isnan(v)]
    defined = (
        f"all {len(values)} metrics are defined"
        if not undefined
        else f"{len(undefined)} of {len(values)} metrics are undefined ({_names(undefined)})"
    )
    second = (
        f"For the worked example [TP, FN, FP, TN] = {_matrix(cm)} of {int(np.sum(cm))} "
        f"people, {rates}; {defined}."
    )

    marks = holes == "✗"
    others = marks.drop(index=example_row, errors="ignore")
    with_holes = others[others.any(axis=1)]
    described = []
    for name, row in with_holes.iterrows():
        missing = list(row.index[row])
        which = f" ({', '.join(missing)})" if len(missing) <= listed else ""
        described.append(f"“{name}” {len(missing)}{which}")
    if described:
        verb = "leaves" if len(with_holes) == 1 else "leave"
        third = (
            f"Of the {_matrices(len(others))} in the table of holes, {len(with_holes)} {verb} "
            f"some of the {marks.shape[1]} metrics undefined: {_names(described)}."
        )
    else:
        third = f"None of the {_matrices(len(others))} in the table of holes has a hole."
    always = [name for name in marks.columns if not marks[name].any()]
    fourth = (
        f"{len(always)} of the {marks.shape[1]} metrics are defined at all {len(marks)} "
        f"matrices of that table: {_names(always)}."
        if always
        else f"Every metric is undefined at one of the {len(marks)} matrices of that table."
    )
    return _box(
        first,
        _where_holes_are(catalogue),
        second,
        third,
        fourth,
        replication=replication_line([], chapter=CHAPTER, budget=budget),
    )
