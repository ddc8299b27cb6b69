"""Replication rows of "Conditional HydraGAN": seed 003 Tables 3.4 and 3.5 beside ours.

* :func:`table_3_4_beside_paper`, :func:`table_3_5_beside_paper` — the paper's tables
  beside ours in two-level columns (``("paper", …)``, ``("ours", …)``,
  ``("verdict", "same sign")``), narrow enough for a book page. Our data are a stand-in
  (Adult, not CASAS), so only the *direction* of each improvement is compared, by the named
  rule :class:`fairbook_book.replication.SameSign`.
* :func:`table_3_5_replication` — the parts of Table 3.5 that do not depend on the data, as
  :class:`fairbook_book.replication.Row` objects judged by rounding at the printed precision.

The rows at two budgets: :func:`experiment_replications` (the four tables of a result),
:func:`seeds_recording` (the recorded ``full`` experiment, ``fairbook-book record 07 seeds``),
:func:`recorded_replications` (the same rows judged on it; a **stale** recording's rows are
not comparable) and :func:`beside_recorded` (paper | full profile, recorded | this build).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.generative.divergence import rowwise_divergences
from fairbook.papers import seed003
from fairbook_book.recordings import Recording, load
from fairbook_book.replication import (
    NotComparable,
    ReadingCheck,
    Rounding,
    Row,
    SameSign,
    at_recorded_budget,
    by_budget,
    replication_table,
)

from ._common import _class_order
from .results import table_3_4, table_3_5
from .runs import SEEDS_RECORDING, recorded_experiment
from .settings import METRICS, PAPER_CLASSES

__all__ = [
    "PAPER_SOURCES",
    "beside_recorded",
    "experiment_replications",
    "recorded_replications",
    "seeds_recording",
    "table_3_4_beside_paper",
    "table_3_5_beside_paper",
    "table_3_5_replication",
]


#: Every printed constant of seed 003 this chapter uses, and where the ledger lists it.
PAPER_SOURCES = {
    "seed003.TABLE_3_4": "seed 003 Table 3.4",
    "seed003.TABLE_3_5": "seed 003 Table 3.5",
}


#: The reading of Table 3.4 the ledger judges, fixed from the paper's printed values alone:
#: the "pair" reading (a class against the other class) is antisymmetric, and the printed
#: values are not (DI above 1 for both classes of an attribute; the OFIs of Female and Male,
#: -0.001 and 0.033, are not opposite), while Fig. 3.4's box plots over individuals point to
#: per-individual comparisons: "cells". The other definition is shown in the chapter only.
TABLE_3_4_READING = "cells"

#: Why the data-dependent columns of Tables 3.4 and 3.5 have no number of ours to judge.
_CASAS = NotComparable(
    "CASAS is not available offline: the chapter's numbers come from an Adult stand-in",
    why="data not offline",
)

#: The stand-in every data-dependent comparison of this chapter is made on: such a row can
#: agree with the paper *in kind* (the direction of an improvement), never match its number.
STAND_IN = "Adult for CASAS"


def table_3_4_beside_paper(
    scores: pd.DataFrame, *, definition: str = "pair", decimals: int = 3
) -> pd.DataFrame:
    """Per metric and class: the paper's real, synthetic and improvement, ours (means over
    seeds, rounded to ``decimals``), and whether the improvement has the same sign.

    Columns are two-level — ``("paper", "real")`` … ``("ours", "improves")``,
    ``("verdict", "same sign")`` — so the table stays narrow enough for a book page. The
    paper's class names are in
    :data:`~fairbook_book.chapters.conditional_hydragan.settings.PAPER_CLASSES` (the chapter
    says which is which). The verdict is :class:`fairbook_book.replication.SameSign`'s: ``"yes"``,
    ``"no"``, or ``"paper ±0"`` where the paper printed (−)0.000 and there is no sign to
    compare.

    Examples
    --------
    >>> import itertools
    >>> from fairbook_book.chapters.conditional_hydragan.settings import ATTRIBUTES, IDEAL
    >>> scores = pd.DataFrame([
    ...     {"seed": 0, "data": data, "definition": "pair", "class": cls, "metric": m,
    ...      "value": IDEAL[m] + (0.2 if data == "real" else 0.1)}
    ...     for data, m, (_, classes) in itertools.product(
    ...         ("real", "synthetic"), METRICS, ATTRIBUTES.values()) for cls in classes])
    >>> table_3_4_beside_paper(scores).loc[("DI", "Male"), ("verdict", "same sign")]
    'yes'
    """
    ours = table_3_4(scores, definition=definition, as_text=False)
    rows = {}
    for metric in METRICS:
        for cls in _class_order():
            paper = seed003.TABLE_3_4[metric][PAPER_CLASSES[cls]]
            mine = {
                d: ours.loc[(metric, d), (cls, "mean")] for d in ("real", "synthetic", "improves")
            }
            rows[(metric, cls)] = {
                ("paper", "real"): paper["Real"],
                ("paper", "synthetic"): paper["Synthetic"],
                ("paper", "improves"): paper["Improves"],
                ("ours", "real"): mine["real"],
                ("ours", "synthetic"): mine["synthetic"],
                ("ours", "improves"): mine["improves"],
                ("verdict", "same sign"): SameSign().judge(paper["Improves"], mine["improves"]),
            }
    table = pd.DataFrame.from_dict(rows, orient="index").round(decimals)
    table.index.names = ["metric", "class"]
    table.attrs["rows"] = (
        tuple(_improvement_rows(ours, definition)) if definition == TABLE_3_4_READING else ()
    )
    return table


def _improvement_rows(ours: pd.DataFrame, definition: str):
    """The ledger's rows of Table 3.4, every printed number once: the *sign* of each
    improvement (the values come from an Adult stand-in for CASAS, so only the direction is
    comparable) with mean ± 2 sd over seeds as the window that says whether the sign is
    informative, and the Synthetic and Real rows as not comparable."""
    reading = (
        f"reading '{definition}' (fixed from the paper's values: they are not antisymmetric, "
        "so not 'pair')"
    )
    for metric in METRICS:
        for cls in _class_order():
            printed = seed003.TABLE_3_4[metric][PAPER_CLASSES[cls]]
            mean = float(ours.loc[(metric, "improves"), (cls, "mean")])
            sd = float(ours.loc[(metric, "improves"), (cls, "sd")])
            spread = {}
            note = f"{reading}; mean over seeds, sd {sd:.3f}"
            if np.isfinite(sd):
                spread = {"low": mean - 2 * sd, "high": mean + 2 * sd}
                note += "; window mean ± 2 sd"
                if sd >= abs(mean):
                    note += " — the seed spread is as large as the effect"
            yield Row(
                f"{metric}, {cls}: improvement",
                printed["Improves"],
                mean,
                rule=SameSign(),
                note=note,
                source="seed 003 Table 3.4",
                kind="result",
                stand_in=STAND_IN,
                **spread,
            )
            for data in ("Synthetic", "Real"):
                yield Row(
                    f"{metric}, {cls}: {data.lower()}",
                    printed[data],
                    float(ours.loc[(metric, data.lower()), (cls, "mean")]),
                    rule=_CASAS,
                    note=reading,
                    source="seed 003 Table 3.4",
                    kind="result",
                )


def table_3_5_beside_paper(ours: pd.DataFrame) -> pd.DataFrame:
    """The paper's Table 3.5 beside ours, with whether the improvement has the same sign
    (two-level columns, as in :func:`table_3_4_beside_paper`; the verdict is
    :class:`fairbook_book.replication.SameSign`'s).

    Parameters
    ----------
    ours : DataFrame
        :func:`~fairbook_book.chapters.conditional_hydragan.results.table_3_5`.

    Examples
    --------
    >>> parts = [(p, c) for p in ("Activities", "Individuals")
    ...          for c in ("synthetic", "real", "improvement %")]
    >>> ours = pd.DataFrame([[0.1, 0.2, 50.0, 0.0, 0.3, 100.0]] * 3,
    ...                     index=["KS statistic", "KL divergence", "JS distance"],
    ...                     columns=pd.MultiIndex.from_tuples(parts))
    >>> set(table_3_5_beside_paper(ours)[("verdict", "same sign")])
    {'yes'}
    """
    rows = {}
    for metric in ours.index:
        for label in ("Activities", "Individuals"):
            p = seed003.TABLE_3_5[metric][label]
            o = ours.loc[metric, label]
            rows[(metric, label)] = {
                ("paper", "real"): p["Real"],
                ("paper", "synthetic"): p["Synthetic"],
                ("paper", "improvement %"): p["Improvement %"],
                ("ours", "real"): o["real"],
                ("ours", "synthetic"): o["synthetic"],
                ("ours", "improvement %"): o["improvement %"],
                ("verdict", "same sign"): SameSign().judge(p["Improvement %"], o["improvement %"]),
            }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.names = ["metric", "part"]
    # the ledger's rows: the activities' improvements by sign, and the two data-dependent
    # columns that have no number of ours (the individuals' synthetic column and
    # improvement, and the activities' real column, are in table_3_5_replication)
    rows = []
    for metric in ours.index:
        rows.append(
            Row(
                f"{metric}, activities: improvement %",
                seed003.TABLE_3_5[metric]["Activities"]["Improvement %"],
                float(ours.loc[metric, ("Activities", "improvement %")]),
                rule=SameSign(),
                note="Adult stand-in for CASAS: only the direction is comparable",
                source="seed 003 Table 3.5",
                kind="result",
                stand_in=STAND_IN,
            )
        )
        for part, column in (("Activities", "synthetic"), ("Individuals", "real")):
            rows.append(
                Row(
                    f"{metric}, {part.lower()}: {column}",
                    seed003.TABLE_3_5[metric][part][column.capitalize()],
                    float(ours.loc[metric, (part, column)]),
                    rule=_CASAS,
                    source="seed 003 Table 3.5",
                    kind="result",
                )
            )
    table.attrs["rows"] = tuple(rows)
    return table


_BY_CONSTRUCTION = "exact by construction of an infinitely strong conditional"
_ONE_HOT = (
    "computed from np.eye(10), our reading of how the thesis computes the real column, "
    "not from data"
)


def table_3_5_replication(ours: pd.DataFrame) -> pd.DataFrame:
    """The parts of Table 3.5 that do not depend on the data, through
    :func:`fairbook_book.replication.replication_table`: the individuals' synthetic divergences
    and improvement (exact by construction of the conditional), and the real activity
    column read as the divergence of one one-hot row over 10 activities to uniform.
    ``ours`` and ``difference`` are rounded to three decimals (fixed point; the ledger's
    rows in ``attrs["rows"]`` keep every digit).

    Examples
    --------
    >>> t = pd.DataFrame({("Individuals", "synthetic"): [0.0] * 3,
    ...                   ("Individuals", "improvement %"): [100.0] * 3},
    ...                  index=["KS statistic", "KL divergence", "JS distance"])
    >>> set(table_3_5_replication(t)["verdict"])
    {'mathematics check: matches'}
    """
    one_hot = rowwise_divergences(np.eye(10), np.full(10, 0.1))
    source = "seed 003 Table 3.5"
    rows = []
    for metric, parts in seed003.TABLE_3_5.items():
        rows.append(
            Row(
                f"{metric}, individuals, synthetic",
                parts["Individuals"]["Synthetic"],
                ours.loc[metric, ("Individuals", "synthetic")],
                rule=ReadingCheck(Rounding(decimals=3), _BY_CONSTRUCTION),
                source=source,
                kind="mathematics",
            )
        )
        rows.append(
            Row(
                f"{metric}, individuals, improvement %",
                parts["Individuals"]["Improvement %"],
                ours.loc[metric, ("Individuals", "improvement %")],
                rule=ReadingCheck(Rounding(decimals=0), _BY_CONSTRUCTION),
                source=source,
                kind="mathematics",
            )
        )
        truncated = metric == "KL divergence"  # ln 10 = 2.3026 is printed 2.302
        inner = Rounding(decimals=3, extra=0.001 if truncated else 0.0)
        rows.append(
            Row(
                f"{metric}, activities, real (one one-hot row, K = 10)",
                parts["Activities"]["Real"],
                one_hot[metric],
                rule=ReadingCheck(inner, _ONE_HOT),
                note="ln 10, printed truncated (2.302, not 2.303): it passes only through "
                "the extra tolerance 0.001"
                if truncated
                else "data-independent",
                source=source,
                kind="mathematics",
            )
        )
    return _fixed_point(replication_table(rows), ["ours", "difference"])


def _fixed_point(table: pd.DataFrame, columns, *, decimals: int = 3) -> pd.DataFrame:
    """``table`` with its numeric ``columns`` rounded to ``decimals`` (the paper's digits)
    and ``-0.0`` made ``0.0``, so that pandas prints them in fixed point: one value below
    ``10**-decimals`` (a divergence of ``2e-09``, a difference of ``6e-04``) would turn the
    whole column into scientific notation. The ledger's rows (``attrs``) keep every digit."""
    out = table.copy()
    for column in columns:
        values = pd.to_numeric(out[column], errors="coerce")
        out[column] = values.round(decimals) + 0.0
    out.attrs = dict(table.attrs)
    return out


# ------------------------------------------------------------------ the rows at two budgets
def experiment_replications(result: dict) -> dict[str, pd.DataFrame]:
    """The chapter's four replication tables of one experiment's result
    (:func:`~fairbook_book.chapters.conditional_hydragan.run_experiment`'s, or a recording's),
    by name; each carries its ledger rows in ``attrs["rows"]``."""
    ours = table_3_5(result)
    return {
        "Table 3.4 (pair)": table_3_4_beside_paper(result["scores"], definition="pair"),
        "Table 3.4 (cells)": table_3_4_beside_paper(result["scores"], definition="cells"),
        "Table 3.5": table_3_5_beside_paper(ours),
        "Table 3.5 (data-independent)": table_3_5_replication(ours),
    }


def seeds_recording(config: dict, *, root=None) -> Recording:
    """The recorded experiment of the ``full`` profile (``fairbook-book record 07 seeds``),
    loaded with its provenance; only seeds recorded with ``config``'s parameters are merged.

    Parameters
    ----------
    config : dict
        The chapter's ``full`` settings
        (:func:`~fairbook_book.chapters.conditional_hydragan.settings`).
    root : path, optional
        Another folder than the package's ``recorded/``.
    """
    return load("07_conditional_hydragan", SEEDS_RECORDING, settings=config, root=root)


def recorded_replications(recording: Recording) -> dict[str, pd.DataFrame]:
    """:func:`experiment_replications` on the recorded seeds, as replication tables whose
    notes say how many of the profile's seeds were recorded. A **stale** recording keeps
    its numbers for context but every row is :class:`~fairbook_book.replication.NotComparable`;
    an empty one gives ``{}``.

    Examples
    --------
    >>> recorded_replications(Recording("07_conditional_hydragan", "seeds", pd.DataFrame()))
    {}
    """
    result = recorded_experiment(recording)
    if not result:
        return {}
    seeds = f"{len(recording.provenance)} of {recording.expected or '?'} seeds recorded"
    return {
        name: at_recorded_budget(table, note=seeds, stale=recording.stale)
        for name, table in experiment_replications(result).items()
    }


def beside_recorded(
    recorded: dict[str, pd.DataFrame],
    build: dict[str, pd.DataFrame],
    *,
    recording: Recording,
    build_label: str = "this build (fast)",
) -> pd.DataFrame:
    """Paper | full profile (recorded) | this build, per quantity of every table
    (:func:`fairbook_book.replication.by_budget`), with the table's name as the outer index.

    The recorded columns are labelled with the recording's budget (its date and commit, or
    *stale*; "full profile (not recorded)" while nothing is); a table the recording lacks
    has empty recorded columns. Our values are rounded to the paper's three decimals, so
    that they print in fixed point.
    """
    label = "full profile (not recorded)" if recording.empty else recording.budget
    parts = {}
    for name, table in build.items():
        tables = {
            label: recorded.get(name, replication_table([])),
            build_label: table,
        }
        parts[name] = by_budget(tables)
    out = pd.concat(parts, names=["table"])
    return _fixed_point(out, [c for c in out.columns if c.endswith(": ours")])
