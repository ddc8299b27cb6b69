"""Replication rows of "The Objective Fairness Index": seed 003 ch. 3 beside ours.

* :func:`table_3_1_replication`, :func:`table_3_3_replication` — the worked scenarios of
  Tables 3.1 and 3.3 (OFI, DI, TE, DCA), recomputed from the printed confusion matrices;
* :func:`table_3_2_replication` — Table 3.2's ticks (which desirable property each metric
  has), ours from exhaustive enumeration;
* :func:`fig_3_2_replication` — COMPAS (Fig. 3.2): OFI and DI favour the same group in
  every pair of races;
* :func:`fig_3_3_replication` — Fig. 3.3's claims (random forest: DI and OFI agree; naive
  Bayes: they disagree about one group), on the book's Adult stand-in.

Numbers are :class:`fairbook_book.replication.Row` objects judged by the rounding rule at the
paper's printed precision (two decimals), with the paper's table as their source.
:func:`table_3_2_replication` keeps Table 3.2's own layout instead — one tick per metric and
property, shown as ``ours (paper's)`` — since its cells are yes/no properties, not numbers.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from fairbook.metrics import compare
from fairbook.metrics.properties import PROPERTIES, property_table
from fairbook.papers import addenda, seed003
from fairbook_book.replication import Exact, NotComparable, Row, replication_table

from .results import direction_agreement, favour_counts

__all__ = [
    "PAPER_SOURCES",
    "fig_3_2_replication",
    "fig_3_3_over_seeds",
    "fig_3_3_replication",
    "table_3_1_replication",
    "table_3_2_replication",
    "table_3_3_replication",
]


#: Fig. 3.3 is computed on Folktables (ACS employment, Georgia), which needs the internet;
#: the chapter runs the same models on Adult instead, so its shares are shown, not judged.
_STAND_IN = NotComparable(
    "Adult stands in for Folktables, which is not available offline", why="data not offline"
)

#: What the kinds of this chapter's rows are (fairbook_book.replication.KINDS): Tables 3.1 and
#: 3.3 are worked examples, so their matrices are the paper's *inputs* (ours are the same
#: numbers: a check that the book uses them as printed) and everything computed from them is
#: *arithmetic*; Table 3.2's ticks are *mathematics* (properties of a formula, found here by
#: enumeration); only Figs. 3.2 and 3.3 are *results* of an experiment on data.
_INPUT = Exact()

#: Every printed constant of seed 003 this chapter uses, and where the ledger lists it.
PAPER_SOURCES = {
    "seed003.TABLE_3_1": "seed 003 Table 3.1",
    "seed003.TABLE_3_1_LAW": "not in ledger: the paper's reading of Table 3.1, shown as text",
    "seed003.TABLE_3_3": "seed 003 Table 3.3",
    "addenda.SEED003_TABLE_3_1_COLUMNS": "seed 003 Table 3.1",
    "addenda.SEED003_TABLE_3_3_THRESHOLDS": "seed 003 Table 3.3",
    "seed003.FIG_3_3_NB_PACIFIC_ISLANDER": "seed 003 Fig. 3.3",
}


def _input_rows(cm, *, group: str, scenario: str, source: str) -> list[Row]:
    """The printed matrix of one group of a worked example: four rows, never judged (the
    example's input), so that every printed number has its row."""
    return [
        Row(
            f"{cell}, group {group}, scenario {scenario}",
            count,
            count,
            rule=_INPUT,
            note="an input of the worked example",
            source=source,
            kind="input",
        )
        for cell, count in zip(("TP", "FN", "FP", "TN"), cm, strict=True)
    ]


def table_3_1_replication() -> pd.DataFrame:
    """Seed 003 Table 3.1 recomputed: OFI and DI per scenario, paper vs ours.

    Examples
    --------
    >>> set(table_3_1_replication().verdict) <= {"input check: matches",
    ...     "arithmetic check: matches", "arithmetic check: both undefined"}
    True
    >>> len(table_3_1_replication())
    54
    """
    rows = []
    for scenario, (cm_i, cm_j, ofi, di) in seed003.TABLE_3_1.items():
        for group, cm in (("i", cm_i), ("j", cm_j)):
            rows += _input_rows(cm, group=group, scenario=scenario, source="seed 003 Table 3.1")
            tp, fn, fp, tn = cm
            n = tp + fn + fp + tn
            ours = {"n": n, "b": (tp + fp) / n, "E[b]": (tp + fn) / n, "B": (fp - fn) / n}
            printed = addenda.SEED003_TABLE_3_1_COLUMNS[(group, scenario)]
            for (name, value), text in zip(ours.items(), printed, strict=True):
                rows.append(
                    Row(
                        f"{name}, group {group}, scenario {scenario}",
                        float(Fraction(text)),
                        value,
                        rule=Exact(),
                        note=f"printed {text}",
                        source="seed 003 Table 3.1",
                        kind="arithmetic",
                    )
                )
        rows.append(
            Row(
                f"OFI, scenario {scenario}",
                ofi,
                compare("OFI", cm_i, cm_j),
                source="seed 003 Table 3.1",
                kind="arithmetic",
            )
        )
        note = "paper: 'NaN or 1' (0/0)" if np.isnan(di) else ""
        rows.append(
            Row(
                f"DI, scenario {scenario}",
                di,
                compare("DI", cm_i, cm_j),
                note=note,
                source="seed 003 Table 3.1",
                kind="arithmetic",
            )
        )
    return replication_table(rows)


def table_3_3_replication() -> pd.DataFrame:
    """Seed 003 Table 3.3 recomputed: TE, DCA and OFI in scenarios C and D.

    Examples
    --------
    >>> len(table_3_3_replication())
    25
    """
    rows = []
    for scenario, (cm_i, cm_j, te, dca, ofi) in seed003.TABLE_3_3.items():
        for group, cm in (("i", cm_i), ("j", cm_j)):
            rows += _input_rows(cm, group=group, scenario=scenario, source="seed 003 Table 3.3")
        for name, printed in (("TE", te), ("DCA", dca), ("OFI", ofi)):
            rows.append(
                Row(
                    f"{name}, scenario {scenario}",
                    printed,
                    compare(name, cm_i, cm_j),
                    source="seed 003 Table 3.3",
                    kind="arithmetic",
                )
            )
    for name, zero in addenda.SEED003_TABLE_3_3_THRESHOLDS.items():
        rows.append(
            Row(
                f"{name} threshold",
                zero,
                zero,
                rule=Exact(),
                note="a threshold that defines the metric's direction",
                source="seed 003 Table 3.3",
                kind="input",
            )
        )
    return replication_table(rows)


def table_3_2_replication(*, n_max: int = 12) -> pd.DataFrame:
    """Table 3.2's ticks as ``ours (paper's)``, e.g. ``✓ (✓)``; ours come from enumeration.

    Every pair of confusion matrices with groups of up to ``n_max`` people is enumerated
    (:func:`fairbook.metrics.properties.property_table`). The table keeps the paper's layout
    (one column per property) with a ``verdict`` per metric; the checks, with their
    counterexamples, are in ``attrs["checks"]``.

    Examples
    --------
    >>> t = table_3_2_replication(n_max=4)
    >>> t.loc["OFI", "OBJ"]
    '✓ (✓)'
    """
    table = property_table(n_max=n_max)
    out = pd.DataFrame(index=table.index)
    for prop in PROPERTIES:
        out[prop] = [
            f"{'✓' if ours else '✗'} ({'✓' if paper else '✗'})"
            + ("" if ours == paper else " ← differs")
            for ours, paper in zip(table[prop], table[f"{prop}_paper"], strict=True)
        ]
    out["verdict"] = np.where(table["agree"], "matches", "differs: " + table["disagree_on"])
    out["observed range"] = [
        f"[{lo:.3g}, {hi:.3g}]"
        for lo, hi in zip(table.observed_min, table.observed_max, strict=True)
    ]
    out.attrs["checks"] = table.attrs["checks"]
    # the ledger's rows: one decision per metric and property (a tick is 1, a cross 0)
    out.attrs["rows"] = tuple(
        Row(
            f"{metric}: {prop}",
            float(table.loc[metric, f"{prop}_paper"]),
            float(table.loc[metric, prop]),
            rule=Exact(),
            note=f"enumeration of every pair of matrices with n ≤ {n_max}",
            source="seed 003 Table 3.2",
            kind="mathematics",
        )
        for metric in table.index
        for prop in PROPERTIES
    )
    return out


def fig_3_2_replication(counts: pd.DataFrame) -> pd.DataFrame:
    """Seed 003 Fig. 3.2 (COMPAS by race): the share of pairs where OFI and DI agree.

    The paper finds that on COMPAS, unlike on Folktables, OFI and DI favour the same group
    in every pair of races (share 1).

    Parameters
    ----------
    counts : DataFrame
        Per-race counts (:func:`fairbook.data.predictions.compas_race_counts`); groups
        marked ``included = False`` are left out.

    Examples
    --------
    >>> c = pd.DataFrame({"TP": [1, 7], "FN": [0, 0], "FP": [0, 1], "TN": [5, 10]},
    ...                  index=["i", "j"])
    >>> fig_3_2_replication(c).loc[0, ["verdict", "note"]].tolist()
    ['matches', '1 of 1 pairs']
    """
    agreement = direction_agreement(counts)
    return replication_table(
        [
            Row(
                "share of race pairs where OFI and DI agree",
                1.0,  # the paper: the two agree in every pair
                agreement["share"],
                note=f"{agreement['agree']} of {agreement['pairs']} pairs",
                source="seed 003 Fig. 3.2",
                kind="result",
                derived="the text: OFI and DI favour the same group in every pair of races",
            )
        ]
    )


def fig_3_3_replication(counts_by_model: dict, *, group: str) -> pd.DataFrame:
    """Seed 003's Fig. 3.3 claims beside ours, as shares of comparisons.

    Parameters
    ----------
    counts_by_model : dict
        ``{"rf": counts, "nb": counts}`` from
        :func:`~fairbook_book.chapters.objective_fairness_index.runs.adult_counts`.
    group : str
        The group that plays the paper's Pacific Islanders.

    Returns
    -------
    DataFrame
        From :func:`fairbook_book.replication.replication_table`: the random forest's share of
        pairs where DI and OFI agree (paper: all), and for naive Bayes the shares of
        ``group``'s comparisons that DI and OFI call favourable (paper: 7/8 and 2/8).

    Examples
    --------
    >>> c = pd.DataFrame({"TP": [1, 7], "FN": [0, 0], "FP": [0, 1], "TN": [5, 10]},
    ...                  index=["i", "j"])
    >>> fig_3_3_replication({"nb": c}, group="j")["ours"].tolist()  # j favoured by both
    [1.0, 1.0]
    """
    claim = seed003.FIG_3_3_NB_PACIFIC_ISLANDER
    rows = []
    if "rf" in counts_by_model:
        agreement = direction_agreement(counts_by_model["rf"])
        rows.append(
            Row(
                "RF: share of pairs where OFI and DI favour the same group",
                1.0,  # the paper: the random forest's DI and OFI agree everywhere
                agreement["share"],
                rule=_STAND_IN,
                note=f"{agreement['agree']} of {agreement['pairs']} pairs",
                source="seed 003 Fig. 3.3",
                kind="result",
                derived="the text: the random forest's DI and OFI agree in every pair",
            )
        )
    if "nb" in counts_by_model:
        favour = favour_counts(counts_by_model["nb"])
        if group not in favour.index:
            raise ValueError(f"group {group!r} not among {list(favour.index)}")
        total = int(favour.loc[group, "comparisons"])
        for metric in ("DI", "OFI"):
            hits = int(favour.loc[group, f"{metric} favours"])
            rows.append(
                Row(
                    f"NB: share of {group}'s comparisons {metric} calls favourable",
                    claim[f"{metric} favours"] / claim["comparisons"],
                    hits / total if total else np.nan,
                    rule=_STAND_IN,
                    note=f"ours {hits}/{total}; paper {claim[f'{metric} favours']}/"
                    f"{claim['comparisons']} (Pacific Islanders, Folktables GA)",
                    source="seed 003 Fig. 3.3",
                    kind="result",
                    derived=f"{claim[f'{metric} favours']} of the {claim['comparisons']} "
                    "comparisons the figure shows",
                )
            )
    return replication_table(rows)


def fig_3_3_over_seeds(recording, *, group: str, min_group_size: int = 0) -> pd.DataFrame:
    """Fig. 3.3's three shares for every seed of a recorded run (the full profile's forest).

    Parameters
    ----------
    recording : fairbook_book.recordings.Recording
        ``fairbook-book record 02 adult`` loaded with :func:`fairbook_book.recordings.load`.
    group : str
        The group that plays the paper's Pacific Islanders.
    min_group_size : int
        Smaller groups are not compared (as in the chapter's fast run).

    Returns
    -------
    DataFrame
        Indexed by the quantities of :func:`fig_3_3_replication`: the paper's value, ours for each
        recorded seed, and their median, minimum and maximum. A stale recording raises: its
        numbers are not today's code's.

    Examples
    --------
    >>> from fairbook_book.recordings import Recording
    >>> f = pd.DataFrame({"unit": "s0", "model": "nb", "group": ["i", "j"], "TP": [1, 7],
    ...                   "FN": [0, 0], "FP": [0, 1], "TN": [5, 10], "n": [6, 18]})
    >>> r = Recording("02", "adult", f, [{"unit": "s0", "fingerprint": "x"}], "x")
    >>> fig_3_3_over_seeds(r, group="j")["s0"].tolist()
    [1.0, 1.0]
    """
    from .runs import recorded_counts

    if recording.stale:
        raise ValueError(f"the recording is stale: {recording.describe()}")
    units = sorted({p["unit"] for p in recording.provenance}, key=lambda u: int(u[1:]))
    if not units:
        raise ValueError("the recording has no units")
    columns = {}
    paper = None
    for unit in units:
        counts = recorded_counts(recording.frame, unit, min_group_size=min_group_size)
        table = fig_3_3_replication(counts, group=group).set_index("quantity")
        paper = table["paper"]
        columns[unit] = table["ours"].astype(float)
    ours = pd.DataFrame(columns)
    summary = pd.DataFrame(
        {"median": ours.median(axis=1), "min": ours.min(axis=1), "max": ours.max(axis=1)}
    )
    return pd.concat([paper.rename("paper"), ours, summary], axis=1)
