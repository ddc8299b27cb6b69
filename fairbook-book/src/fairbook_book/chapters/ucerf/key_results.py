"""Chapter 05 (seed 001, UCerF): the chapter's answers as plain sentences, from its tables.

:func:`key_results` reads what the chapter has already computed (the three made-up models
of the paper's Fig. 1, the WinoBias summary and, when given, the recorded full profile beside
it, the temperature variants) and says, with its numbers, what UCerF sees that an accuracy gap
does not. How far the chapter replicates the paper is not a finding: it is the computed line
below them (:func:`fairbook_book.ledger.replication_line`), from the chapter's replication tables.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from fairbook_book.chapter_summary import KeyResults
from fairbook_book.chapter_summary import key_results as _box
from fairbook_book.ledger import replication_line

__all__ = ["key_results"]

#: The chapter's notebook stem (its rows in the ledger).
CHAPTER = "05_ucerf"
#: The block of :func:`~fairbook_book.chapters.ucerf.summary_beside_recording` that holds the
#: recorded full profile.
FULL_BLOCK = "full (recorded)"


def _percent(value: float) -> str:
    return f"{100 * float(value):.0f} %"


def _points(value: float) -> str:
    return f"{100 * float(value):.1f}"


def _example_sentence(examples: pd.DataFrame) -> str:
    names, gaps, scores = [], [], []
    for name, row in examples.iterrows():
        letter, _, what = str(name).partition(":")
        names.append(f"{letter.strip()} ({what.strip()})" if what else letter.strip())
        gaps.append(str(int(row["accuracy gap"])))
        scores.append(f"{float(row['UCerF']):.2f}")
    return (
        "In the paper's Fig. 1 question asked with two pronouns, the accuracy gap of three "
        f"made-up models {', '.join(names)} is {', '.join(gaps)}, while their UCerF is "
        f"{', '.join(scores)}: UCerF tells a confident flip from a hesitant one and sees "
        "uneven confidence."
    )


def _model_sentence(
    summary: pd.DataFrame, fmt: str, model: str, beside: pd.DataFrame | None = None
) -> str:
    row = summary.loc[(fmt, "all")]
    text = (
        f"On {int(row['pairs'])} WinoBias minimal pairs in the {fmt} format, {model} "
        f"resolves {_percent(row['accuracy'])} of the sentences: "
        f"{_percent(row['accuracy pro'])} of the pro-stereotypical and "
        f"{_percent(row['accuracy anti'])} of the anti-stereotypical ones, a gap of "
        f"{_points(row['pro − anti'])} points; its EO difference is "
        f"{float(row['EO difference']):.2f} and its UCerF {float(row['UCerF']):.2f}"
    )
    key = (FULL_BLOCK, fmt, "all")
    if beside is not None and key in beside.index:
        full = beside.loc[key]
        if int(full["pairs"]) != int(row["pairs"]):
            text += (
                f" (on all {int(full['pairs']):,} pairs, in the recorded full profile: a gap of "
                f"{_points(full['pro − anti'])} points, EO difference "
                f"{float(full['EO difference']):.2f} and UCerF {float(full['UCerF']):.2f})"
            )
    return text + "."


def _letter_sentence(summary: pd.DataFrame, fmt: str, letter_fmt: str) -> str:
    row = summary.loc[(letter_fmt, "all")]
    other = summary.loc[(fmt, "all")]
    return (
        f"In the {letter_fmt} format it answers option A for "
        f"{_percent(row['share answering option 1'])} of the questions and resolves "
        f"{_percent(row['accuracy'])}, yet its EO difference is "
        f"{float(row['EO difference']):.2f} and its UCerF {float(row['UCerF']):.2f} "
        f"({fmt}: {float(other['EO difference']):.2f} and {float(other['UCerF']):.2f}): "
        "a model that answers alike whatever the pronoun looks fair to both metrics."
    )


def _temperature_sentence(variants: pd.DataFrame, fmt: str) -> str:
    rows = variants.xs(fmt, level="format").sort_index()
    temps = rows.index.to_numpy(dtype=float)
    eo = rows["EO difference"].to_numpy(dtype=float)
    if np.nanmax(eo) - np.nanmin(eo) < 1e-9:
        eo_text = f"stays {eo[0]:.2f} at all {len(rows)} temperatures"
    else:
        eo_text = f"ranges from {np.nanmin(eo):.2f} to {np.nanmax(eo):.2f}"
    low, high = rows.iloc[0], rows.iloc[-1]
    return (
        f"Sharpening or flattening its {fmt} confidences with temperatures from "
        f"{temps[0]:g} to {temps[-1]:g} never changes an answer, so its EO "
        f"difference {eo_text}, while its UCerF moves from {float(low['UCerF']):.2f} "
        f"(T = {temps[0]:g}) to {float(high['UCerF']):.2f} (T = {temps[-1]:g}): "
        "EO cannot rank these variants, UCerF can."
    )


def key_results(
    examples: pd.DataFrame,
    summary: pd.DataFrame,
    variants: pd.DataFrame,
    *,
    replications: Iterable = (),
    model: str = "the model",
    fmt: str = "intrinsic",
    letter_fmt: str = "mcq",
    beside: pd.DataFrame | None = None,
    budget: str = "fast",
) -> KeyResults:
    """The chapter's Key results: what UCerF sees that the accuracy gap does not.

    Parameters
    ----------
    examples : DataFrame
        :func:`~fairbook_book.chapters.ucerf.figure1_examples` (the paper's Fig. 1 question,
        answered by three made-up models).
    summary : DataFrame
        :func:`~fairbook_book.chapters.ucerf.summary` of the scored WinoBias pairs.
    variants : DataFrame
        :func:`~fairbook_book.chapters.ucerf.temperature_variants` of the same scores.
    replications : iterable of DataFrame, keyword-only
        The chapter's replication tables (``None`` entries, e.g. the ranking offline, are
        skipped), the same ones its ledger cell collects: they make the replication line.
    model : str, keyword-only
        The scored model's name (a parenthesised detail is dropped).
    fmt, letter_fmt : str, keyword-only
        The cloze format and the multiple-choice format of ``summary``.
    beside : DataFrame, optional, keyword-only
        :func:`~fairbook_book.chapters.ucerf.summary_beside_recording`: when it holds the
        recorded full profile, the model sentence adds its gap, EO difference and UCerF over
        every pair, beside this build's sample.
    budget : str, default "fast", keyword-only
        The profile the chapter ran, named in the replication line.

    Returns
    -------
    fairbook_book.chapter_summary.KeyResults
        Four findings and the replication line.

    Examples
    --------
    >>> from fairbook_book.chapters.ucerf.results import figure1_examples
    >>> print(_example_sentence(figure1_examples()))  # doctest: +NORMALIZE_WHITESPACE
    In the paper's Fig. 1 question asked with two pronouns, the accuracy gap of three
    made-up models A (confidently biased), B (uncertain), C (right, unevenly sure) is 1, 1,
    0, while their UCerF is 0.14, 0.99, 0.57: UCerF tells a confident flip from a hesitant
    one and sees uneven confidence.
    """
    model = str(model).split(" (")[0]
    tables = [table for table in replications if table is not None]
    return _box(
        _example_sentence(examples),
        _model_sentence(summary, fmt, model, beside),
        _letter_sentence(summary, fmt, letter_fmt),
        _temperature_sentence(variants, fmt),
        replication=replication_line(tables, chapter=CHAPTER, budget=budget),
    )
