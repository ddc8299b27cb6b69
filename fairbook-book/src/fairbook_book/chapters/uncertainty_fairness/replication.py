"""Chapter 04 (seed 000): the runs' numbers beside the paper's Tables 1-5 and 7."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from fairbook.papers import addenda, seed000
from fairbook.stats.sensitivity import share_holding
from fairbook_book.formatting import significant
from fairbook_book.recordings import Recording, load
from fairbook_book.replication import (
    Exact,
    Flag,
    Interval,
    NotComparable,
    Rounding,
    Row,
    at_recorded_budget,
    by_budget,
    passes,
    replication_table,
)

from .runs import (
    STUDY_FACTORS,
    STUDY_RECORDING,
    FairnessResult,
    Run,
    _adult,
    _compas_frame,
    _flag,
    _full_counts,
    real_summary,
)
from .settings import _DECIMALS, PATTERN_POINT, UNCERTAINTY_RATIOS

__all__ = [
    "PAPER_SOURCES",
    "adult_replication",
    "budget_table",
    "common_seeds",
    "compas_replication",
    "interval_width_sentence",
    "interval_widths",
    "paper_consistency",
    "pattern_summary",
    "recorded_replication",
    "robustness_table",
    "robustness_text",
    "study_claims",
    "study_comparison",
    "study_decision",
    "study_effects",
    "study_frames",
    "study_recording",
    "study_scores",
    "study_source",
    "study_tables",
    "study_temperatures",
    "study_text",
    "table_1_replication",
    "table_4_replication",
    "table_6_replication",
    "table_7_printed",
    "table_7_replication",
    "verdict_summary",
]


#: Every printed constant of seed 000 this chapter uses, and where the ledger lists it.
PAPER_SOURCES = {
    "seed000.TABLE_1": "seed 000 Table 1",
    "seed000.TABLE_1_PATTERN": "seed 000 Table 1",
    "seed000.TABLE_3_GROUPS": "seed 000 Tables 2-3",
    "seed000.TABLE_3_RATIOS": "seed 000 Tables 2-3",
    "seed000.TABLE_4": "seed 000 Table 4",
    "addenda.SEED000_TABLE_4_PERCENT": "seed 000 Table 4",
    "seed000.TABLE_5_GROUPS": "seed 000 Table 5",
    "seed000.TABLE_5_RATIOS": "seed 000 Table 5",
    "seed000.TABLE_5_F_SAMPLE_SIZE_CORRECTED": "seed 000 Table 5",
    "seed000.TABLE_6": "seed 000 Table 6",
    "addenda.SEED000_TABLE_6_PRINTED_N": "seed 000 Table 6",
    "addenda.SEED000_TABLE_6_PERCENT": "seed 000 Table 6",
    "seed000.TABLE_7": "seed 000 Table 7",
    "seed000.TABLE_7_SAMPLE_SIZES": "seed 000 Table 7",
    "seed000.FLAG_THRESHOLD": "not in ledger: the fair/unfair threshold the Flag rule uses",
    "seed000.SETTINGS": "not in ledger: the paper's training settings, used to train",
}


def _row(quantity, paper, samples, kind, *, source, note="", decimals=2):
    """One row judged by the rule for its kind of quantity (see the chapter's text).

    ``count``: exact (the loaders' group counts). ``rate`` and ``uncertainty``: learned,
    so ours is the median over seeds and the paper's value must lie in our 95 % interval
    (widened by the printed rounding); one seed gives no interval and so no verdict.
    ``ratio``: the paper's fair/unfair flag (``|F − 1| > 0.2``) must agree *and* the value
    must lie in the interval.

    Examples
    --------
    >>> _row("SD2 F_Alea", 1.15, [1.21, 1.25, 1.3], "ratio", source="seed 000 Table 1").passed
    False
    >>> _row("B U_e", 0.0001, [0.00004, 0.00005, 0.00004], "uncertainty",
    ...      source="seed 000 Tables 2-3", decimals=4).verdict
    'outside 95 % interval [0.00004, 0.0000495] (3 seeds)'
    """
    if kind == "count":  # a group's size in a public data set: a data fact, a check
        return Row(
            quantity,
            paper,
            float(samples),
            rule=Exact(),
            note=note,
            source=source,
            kind="data fact",
        )
    # a value printed in scientific notation (Table 5's U_e of 6e-7) is judged at its own
    # precision, half a unit of its one significant digit, not at four decimals
    scientific = paper != 0 and abs(paper) < 1e-4
    interval = Interval(significant=1) if scientific else Interval(decimals=decimals)
    rule = (
        (Flag(pivot=1.0, threshold=seed000.FLAG_THRESHOLD), interval)
        if kind == "ratio"
        else interval
    )
    return Row.from_samples(quantity, paper, samples, rule=rule, note=note, source=source)


#: The paper's F_EOdd (Eq. 25) does not say which y. The reading judged, fixed from the
#: paper alone before looking at our numbers: y = 0, the FPR ratio. At y = 1 Eq. 25 is the
#: TPR ratio, which is F_EOpp as the tables print it, and the paper prints F_EOdd ≠ F_EOpp
#: in every table, so its F_EOdd cannot be the y = 1 ratio. Ours at y = 1 is in the note.
F_EODD_READING = "F_EOdd_y0"


def _eodd_note(samples_y1) -> str:
    """The note of an F_EOdd row: the reading judged and ours at the other reading."""
    values = np.asarray(samples_y1, dtype=float).ravel()
    values = values[np.isfinite(values)]
    other = f"{np.median(values):.3g}" if values.size else "undefined"
    return (
        "the paper's F_EOdd does not say which y (Eq. 25): judged as y = 0 (FPR ratio), "
        "the reading fixed before ours was seen (y = 1 is F_EOpp itself, and the paper "
        f"prints F_EOdd ≠ F_EOpp); ours at y = 1: {other}"
    )


def _ratio_keys(measure: str) -> str:
    """The column of ours that answers a printed ratio (F_EOdd: :data:`F_EODD_READING`)."""
    return F_EODD_READING if measure == "F_EOdd" else measure


_INTERVAL_VERDICT = re.compile(r"^(in|outside) 95 % interval \[[^\]]*\](?: \(\d+ \w+\))?$")


def _short_verdict(verdict: str) -> str:
    """A rule's verdict without the interval's numbers (they have their own columns).

    Examples
    --------
    >>> _short_verdict("outside 95 % interval [2.1e-05, 0.0001] (3 seeds)")
    'paper outside interval'
    >>> _short_verdict("flag agrees (fair)"), _short_verdict("no interval (1 seed)")
    ('flag agrees (fair)', 'no interval (1 seed)')
    """
    match = _INTERVAL_VERDICT.match(verdict)
    return f"paper {match[1]} interval" if match else verdict


def _with_interval_columns(rows) -> pd.DataFrame:
    """A replication table whose interval sits in its own columns.

    Columns: ``quantity``, ``paper``, ``ours`` (the median over seeds), ``difference``,
    ``95 % low`` and ``95 % high`` (our interval over seeds, NaN for a count), ``seeds``
    (how many it summarises; empty for a count), ``verdict`` (each rule's verdict, the
    interval's as "paper in / outside interval") and ``note``. The rows travel in
    ``attrs["rows"]`` as :func:`fairbook_book.replication.replication_table` keeps them, so the
    ledger and :func:`verdict_summary` read them unchanged.

    Examples
    --------
    >>> t = _with_interval_columns([_row("B U_e", 0.0001, [4.2e-5, 4.5e-5, 5e-5],
    ...                                   "uncertainty", source="seed 000", decimals=4)])
    >>> t.loc[0, ["seeds", "verdict"]].tolist()
    [3, 'paper outside interval']
    >>> bool(t.loc[0, "95 % low"] < t.loc[0, "ours"] < t.loc[0, "95 % high"])
    True
    """
    rows = tuple(rows)
    records = []
    for row in rows:
        reasons = [r.reason for r in row.rules if isinstance(r, NotComparable) and r.reason]
        records.append(
            {
                "quantity": row.quantity,
                "paper": row.paper,
                "ours": row.ours,
                "difference": row.ours - row.paper,
                "95 % low": np.nan if row.low is None else row.low,
                "95 % high": np.nan if row.high is None else row.high,
                "seeds": "" if row.n is None else int(row.n),
                "verdict": "; ".join(_short_verdict(v) for v in row.verdicts),
                "note": "; ".join([*reasons, *([row.note] if row.note else [])]),
            }
        )
    columns = ["quantity", "paper", "ours", "difference", "95 % low", "95 % high", "seeds"]
    table = pd.DataFrame.from_records(records, columns=[*columns, "verdict", "note"])
    table["seeds"] = table["seeds"].astype(object)
    table.attrs["rows"] = rows
    return table


def table_1_replication(results: dict) -> pd.DataFrame:
    """Table 1, paper beside ours (one seed, or the median over seeds), our 95 % interval
    in its own columns (:func:`_with_interval_columns`).

    Parameters
    ----------
    results : dict
        ``{"SD1": FairnessResult, ...}`` or ``{"SD1": [FairnessResult, ...], ...}``.
    """
    rows = []
    for sd, paper in seed000.TABLE_1.items():
        frame = _per_seed(results[sd])
        for role, g in (("G0", 0), ("G1", 1)):
            for m, printed in paper["groups"][g].items():
                kind = "uncertainty" if m.startswith("U_") else "rate"
                rows.append(
                    _row(
                        f"{sd} {m} {role}",
                        printed,
                        frame[(m, role)],
                        kind,
                        decimals=_DECIMALS.get(m, 2),
                        source="seed 000 Table 1",
                    )
                )
        for m, printed in paper["ratios"].items():
            key = _ratio_keys(m)
            note = _eodd_note(frame[("F_EOdd_y1", "ratio")]) if m == "F_EOdd" else ""
            rows.append(
                _row(
                    f"{sd} {m}",
                    printed,
                    frame[(key, "ratio")],
                    "ratio",
                    note=note,
                    source="seed 000 Table 1",
                )
            )
    return _with_interval_columns(rows)


def _per_seed(results) -> pd.DataFrame:
    """One row per seed, columns ``(measure, role)``: from FairnessResults, or a frame as
    :func:`study_frames` gives it (passed through)."""
    if isinstance(results, pd.DataFrame):
        return results
    if isinstance(results, FairnessResult):
        results = [results]
    return pd.DataFrame([r.flat() for r in results])


def pattern_summary(study: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """How often Table 1's pattern holds, and each ratio's spread over seeds.

    Returns
    -------
    patterns : DataFrame
        Per (estimator, SD): seeds, shares of seeds where the point-based part, the
        uncertainty part and the whole pattern hold (strict and undefined-ignored), and
        the paper's reading.
    spreads : DataFrame
        Per (estimator, SD, ratio): mean, sd, median, share flagged unfair, share
        undefined, and the printed value.
    """
    checks = [
        "points as paper",
        "uncertainty as paper",
        "pattern holds",
        "pattern holds (undefined ignored)",
    ]
    grouped = study.groupby(["estimator", "SD"], sort=False)
    patterns = grouped[checks].mean()
    patterns.insert(0, "seeds", grouped.size())
    patterns["paper's reading"] = [seed000.TABLE_1_PATTERN[sd] for _, sd in patterns.index]
    rows = []
    for (estimator, sd), part in grouped:
        for m in PATTERN_POINT + UNCERTAINTY_RATIOS:
            values = part[m].to_numpy(float)
            finite = values[np.isfinite(values)]
            printed = seed000.TABLE_1[sd]["ratios"]["F_EOdd" if m.startswith("F_EOdd") else m]
            rows.append(
                {
                    "estimator": estimator,
                    "SD": sd,
                    "ratio": m,
                    "mean": finite.mean() if finite.size else np.nan,
                    "sd": finite.std(ddof=1) if finite.size > 1 else np.nan,
                    "median": np.median(finite) if finite.size else np.nan,
                    "share unfair": float(np.mean([_flag(v) == "unfair" for v in values])),
                    "share undefined": float(np.mean(~np.isfinite(values))),
                    "paper": printed,
                }
            )
    spreads = pd.DataFrame(rows).set_index(["estimator", "SD", "ratio"])
    return patterns, spreads


def study_comparison(studies: dict, *, estimator: str = "bnn") -> pd.DataFrame:
    """Several :func:`sd_seed_study` frames side by side (e.g. 5 vs 30 epochs).

    Returns, per SD and study: the share of seeds where the paper's pattern holds
    (undefined ratios ignored), and mean and share-unfair of F_Epis and F_Alea.
    """
    columns = {}
    for label, study in studies.items():
        part = study[study["estimator"] == estimator]
        grouped = part.groupby("SD")
        columns[(label, "pattern holds (undefined ignored)")] = grouped[
            "pattern holds (undefined ignored)"
        ].mean()
        for m in ("F_Epis", "F_Alea"):
            columns[(label, f"{m} mean")] = grouped[m].mean()
            columns[(label, f"{m} share unfair")] = grouped[m].apply(
                lambda v: float(np.mean([_flag(x) == "unfair" for x in v]))
            )
    return pd.DataFrame(columns)


# =========================================================================== Tables 2–5
def _real_frame(runs, paper_groups, paper_ratios) -> pd.DataFrame:
    """One row per run, columns ``(measure, group)`` and ``(ratio, attribute)``
    (:func:`~.runs.real_summary`); a frame (as :func:`study_frames` gives) passes through."""
    if isinstance(runs, pd.DataFrame):
        return runs
    if isinstance(runs, Run):
        runs = [runs]
    return pd.DataFrame([real_summary(r, paper_groups, paper_ratios) for r in runs])


def _real_replication(runs, paper_groups, paper_ratios, *, full_counts, source) -> pd.DataFrame:
    values = _real_frame(runs, paper_groups, paper_ratios)
    rows = []
    for label, printed in paper_groups.items():
        for m, p in printed.items():
            if m == "n":
                note = "whole data (COMPAS) / training file (Adult)"
                if paper_groups is seed000.TABLE_5_GROUPS and label == "F":
                    note += (
                        f"; see the errata page: printed {p:,}, correct "
                        f"{seed000.TABLE_5_F_SAMPLE_SIZE_CORRECTED:,}"
                    )
                rows.append(
                    _row(
                        f"{label} sample size",
                        p,
                        full_counts[label],
                        "count",
                        note=note,
                        source=source,
                    )
                )
                continue
            kind = "uncertainty" if m.startswith("U_") else "rate"
            rows.append(
                _row(
                    f"{label} {m}",
                    p,
                    values[(m, label)],
                    kind,
                    decimals=_DECIMALS.get(m, 2),
                    source=source,
                )
            )
    for attribute, printed in paper_ratios.items():
        g0, g1 = printed["pair"]
        for m in ("F_SP", "F_EOpp", "F_EOdd", "F_EAcc", "F_Epis", "F_Alea", "F_Pred"):
            note = _eodd_note(values[("F_EOdd_y1", attribute)]) if m == "F_EOdd" else ""
            rows.append(
                _row(
                    f"{attribute} ({g0}/{g1}) {m}",
                    printed[m],
                    values[(_ratio_keys(m), attribute)],
                    "ratio",
                    note=note,
                    source=source,
                )
            )
    return _with_interval_columns(rows)


def compas_replication(runs) -> pd.DataFrame:
    """Tables 2–3 (COMPAS): every printed cell beside ours (median over the runs' seeds).

    ``runs``: :class:`~.runs.Run` objects, or a frame of their summaries (one row per seed,
    as :func:`study_frames` gives)."""
    return _real_replication(
        runs,
        seed000.TABLE_3_GROUPS,
        seed000.TABLE_3_RATIOS,
        full_counts=_full_counts("compas"),
        source="seed 000 Tables 2-3",
    )


def adult_replication(runs) -> pd.DataFrame:
    """Table 5 (Adult): every printed cell beside ours (median over the runs' seeds);
    ``runs`` as in :func:`compas_replication`."""
    return _real_replication(
        runs,
        seed000.TABLE_5_GROUPS,
        seed000.TABLE_5_RATIOS,
        full_counts=_full_counts("adult"),
        source="seed 000 Table 5",
    )


def table_7_printed() -> pd.DataFrame:
    """Seed 000's Table 7 (D-Vlog) as printed, for the record (no data to rerun it)."""
    columns = {}
    for modality, entry in seed000.TABLE_7.items():
        for g in ("F", "M"):
            columns[(modality, g)] = {
                **entry["groups"][g],
                **(dict(entry["ratios"]) if g == "F" else {}),
            }
    return pd.DataFrame(columns)


def table_7_replication() -> pd.DataFrame:
    """Table 7 (D-Vlog) in the ledger: every printed number, marked not comparable.

    D-Vlog is available only on request, so no number of ours answers the paper's; the
    chapter runs a labelled synthetic stand-in of the mechanism instead.

    Examples
    --------
    >>> t = table_7_replication()
    >>> sorted({r.outcome for r in t.attrs["rows"]}), len(t) > 40
    (['no verdict', 'not comparable'], True)
    """
    reason = NotComparable(
        "D-Vlog is available only on request; the chapter runs a stand-in",
        why="data on request",
    )
    rows = []
    for modality, entry in seed000.TABLE_7.items():
        for group, size in seed000.TABLE_7_SAMPLE_SIZES.items():
            rows.append(
                Row(
                    f"{modality} sample size {group}",
                    size,
                    float("nan"),
                    rule=reason,
                    source="seed 000 Table 7",
                    kind="data fact",
                )
            )
        for group, values in entry["groups"].items():
            for measure, printed in values.items():
                rows.append(
                    Row(
                        f"{modality} {measure} {group}",
                        printed,
                        float("nan"),
                        rule=reason,
                        source="seed 000 Table 7",
                        kind="result",
                    )
                )
        for ratio, printed in entry["ratios"].items():
            rows.append(
                Row(
                    f"{modality} {ratio}",
                    printed,
                    float("nan"),
                    rule=reason,
                    source="seed 000 Table 7",
                    kind="result",
                )
            )
    return replication_table(rows)


def table_6_replication() -> pd.DataFrame:
    """Table 6 (D-Vlog's samples, durations and truncations by gender and label) in the
    ledger: every printed number once, as *data facts* of a data set available only on
    request. The one thing the paper lets us check is each group's size against Table 7's
    (639 Female, 322 Male videos): the Y = 0 count must be the group's size less its Y = 1
    count. The Female Y = 0 count is printed 2666: that check fails, and the errata page
    gives 266.

    Examples
    --------
    >>> t = table_6_replication()
    >>> len(t), [r.outcome for r in t.attrs["rows"][:4]]
    (16, ['check holds', 'no verdict', 'check fails', 'no verdict'])
    """
    on_request = NotComparable("D-Vlog is available only on request", why="data on request")
    source = "seed 000 Table 6"
    sizes = seed000.TABLE_7_SAMPLE_SIZES
    rows = []
    for (group, label), printed in addenda.SEED000_TABLE_6_PRINTED_N.items():
        if label == 0:
            other = addenda.SEED000_TABLE_6_PRINTED_N[(group, 1)]
            rows.append(
                Row(
                    f"{group} Y=0 samples",
                    printed,
                    sizes[group] - other,
                    rule=Exact(),
                    note=f"Table 7's {sizes[group]} {group} videos less the {other} with Y = 1"
                    + ("; printed 2666, a typo for 266 (errata page)" if printed == 2666 else ""),
                    source=source,
                    kind="data fact",
                )
            )
        else:
            rows.append(
                Row(
                    f"{group} Y=1 samples",
                    printed,
                    float("nan"),
                    rule=on_request,
                    note="its group's size is checked through the Y = 0 row",
                    source=source,
                    kind="data fact",
                )
            )
    for (group, label), values in seed000.TABLE_6.items():
        for name, printed in (
            ("samples (% truncated)", addenda.SEED000_TABLE_6_PERCENT[(group, label)]),
            ("mean duration (s)", values["duration_s"]),
            ("mean truncation (s)", values["truncation_s"]),
        ):
            rows.append(
                Row(
                    f"{group} Y={label} {name}",
                    printed,
                    float("nan"),
                    rule=on_request,
                    source=source,
                    kind="data fact",
                )
            )
    return replication_table(rows)


def table_4_replication() -> pd.DataFrame:
    """Table 4's counts per group and label from our loaders (exact)."""
    from fairbook.data.tabular import compas_data

    compas = compas_data(frame=_compas_frame())
    adult = _adult("standard")
    rows = []
    for name, data, part in (("COMPAS", compas, "all"), ("Adult", adult, "train")):
        for attribute in ("race", "sex"):
            counts = data.group_counts(attribute, part=part)
            for label in ("B", "W") if attribute == "race" else ("F", "M"):
                printed = seed000.TABLE_4[name][label]
                for y in (0, 1):
                    rows.append(
                        _row(
                            f"{name} {label} Y={y}",
                            printed[y],
                            counts.loc[label, y],
                            "count",
                            source="seed 000 Table 4",
                        )
                    )
                total = float(counts.loc[label, 0] + counts.loc[label, 1])
                for y in (0, 1):
                    rows.append(
                        Row(
                            f"{name} {label} Y={y} (% of group)",
                            addenda.SEED000_TABLE_4_PERCENT[name][label][y],
                            100.0 * float(counts.loc[label, y]) / total,
                            rule=Rounding(decimals=0),
                            note="our loader's counts as a share of the group",
                            source="seed 000 Table 4",
                            kind="data fact",
                        )
                    )
    return replication_table(rows)


def paper_consistency() -> pd.DataFrame:
    """The paper's ratios recomputed from its own printed rates (no model involved).

    F_EOpp from the printed FNRs as a TPR ratio, F_EOdd from the printed FPRs (y = 0) and
    FNRs (y = 1), F_EAcc from the accuracies, F_SP from TPR, FPR and Table 4's base rates
    (COMPAS and Adult), F_u from the printed group uncertainties. Rounding of the printed
    inputs limits the agreement to a few per cent.
    """
    rows = []

    def add(table, pair, printed, groups, base=None):
        g0, g1 = (groups[p] for p in pair)
        tpr = [1 - g0["FNR"], 1 - g1["FNR"]]
        implied = {
            "F_EOpp": tpr[0] / tpr[1],
            "F_EOdd (y=0)": g0["FPR"] / g1["FPR"],
            "F_EOdd (y=1)": tpr[0] / tpr[1],
            "F_EAcc": g0["ACC"] / g1["ACC"],
            "F_Epis": g0["U_e"] / g1["U_e"],
            "F_Alea": g0["U_a"] / g1["U_a"],
            "F_Pred": g0["U_p"] / g1["U_p"],
        }
        if base is not None:
            ppr = [
                t * b + f * (1 - b)
                for t, f, b in zip(tpr, (g0["FPR"], g1["FPR"]), base, strict=True)
            ]
            implied["F_SP"] = ppr[0] / ppr[1]
        for name, value in implied.items():
            key = "F_EOdd" if name.startswith("F_EOdd") else name
            rows.append(
                {
                    "table": table,
                    "pair": "/".join(map(str, pair)),
                    "ratio": name,
                    "printed": printed[key],
                    "from printed rates": value,
                    "relative gap": value / printed[key] - 1,
                }
            )

    for sd, entry in seed000.TABLE_1.items():
        add(f"1 ({sd})", (0, 1), entry["ratios"], entry["groups"])
    for entry in seed000.TABLE_3_RATIOS.values():
        pair = entry["pair"]
        base = None
        if all(p in seed000.TABLE_4["COMPAS"] for p in pair):
            base = [
                seed000.TABLE_4["COMPAS"][p][1] / sum(seed000.TABLE_4["COMPAS"][p]) for p in pair
            ]
        add("3 (COMPAS)", pair, entry, seed000.TABLE_3_GROUPS, base)
    for entry in seed000.TABLE_5_RATIOS.values():
        pair = entry["pair"]
        base = [seed000.TABLE_4["Adult"][p][1] / sum(seed000.TABLE_4["Adult"][p]) for p in pair]
        add("5 (Adult)", pair, entry, seed000.TABLE_5_GROUPS, base)
    return pd.DataFrame(rows)


def verdict_summary(tables: dict) -> pd.DataFrame:
    """Per replication table: rows that match, differ or have no verdict, and how many
    ratio rows carry the paper's fair/unfair flag.

    Parameters
    ----------
    tables : dict
        Title → table from :func:`fairbook_book.replication.replication_table`.
    """
    rows = []
    for title, table in tables.items():
        judged = table.attrs["rows"]
        ratio_rows = [r for r in judged if isinstance(r.rule, tuple)]
        flag_agrees = [r for r in ratio_rows if passes(r.verdicts[0])]
        rows.append(
            {
                "table": title,
                "rows": len(judged),
                "matches": sum(r.outcome == "matches" for r in judged),
                "uninformative": sum(r.outcome == "uninformative" for r in judged),
                "differ": sum(r.passed is False for r in judged),
                "no verdict": sum(r.passed is None for r in judged),
                "ratio rows": len(ratio_rows),
                "same flag as paper": len(flag_agrees),
            }
        )
    return pd.DataFrame(rows).set_index("table")


# =========================================================================== the study
_STUDY_TABLES = ("Table 1", "Tables 2-3", "Table 5")

#: The ledger's flag rule for a ratio (the one :func:`_row` judges by).
_FLAG = Flag(pivot=1.0, threshold=seed000.FLAG_THRESHOLD)


def study_recording(config: dict, *, root=None) -> Recording:
    """The recorded study (``fairbook-book record 04 study``) with its provenance; only units
    recorded with ``config``'s parameters are merged (``config``: the ``full`` settings)."""
    return load("04_uncertainty_fairness", STUDY_RECORDING, settings=config, root=root)


def study_frames(frame: pd.DataFrame, cell: str) -> dict:
    """One cell of a study frame (:func:`~.runs.sensitivity_study`, or a recording's)
    as per-seed frames: ``{"SD1": …, "SD2": …, "SD3": …, "COMPAS": …, "Adult": …}``, one
    row per seed, columns ``(measure, role)``."""
    part = frame[frame["cell"] == cell]
    if part.empty:
        raise ValueError(f"cell {cell!r} is not in the study frame")
    return {
        dataset: _unstack(rows, ["seed"]) for dataset, rows in part.groupby("dataset", sort=False)
    }


def _unstack(rows: pd.DataFrame, index: list) -> pd.DataFrame:
    wide = rows.set_index([*index, "measure", "role"])["value"].unstack(["measure", "role"])
    return wide.sort_index()


def study_tables(frame: pd.DataFrame, cell: str) -> dict:
    """Tables 1, 2–3 and 5 of one cell, judged like the chapter's own (seeds = the cell's
    seeds): ``{"Table 1": …, "Tables 2-3": …, "Table 5": …}``."""
    frames = study_frames(frame, cell)
    return {
        "Table 1": table_1_replication({sd: frames[sd] for sd in seed000.TABLE_1}),
        "Tables 2-3": compas_replication(frames["COMPAS"]),
        "Table 5": adult_replication(frames["Adult"]),
    }


def study_scores(frame: pd.DataFrame) -> pd.DataFrame:
    """Per cell and table: rows, rows that match, ratio rows, ratio rows whose flag is the
    paper's; and per cell the share of matching rows over the three tables.

    Returns
    -------
    DataFrame
        Index: cells (in the frame's order); columns ``(table, "matches" | "rows" |
        "same flag" | "ratio rows")``, ``("all", "matches")``, ``("all", "share")`` and
        ``("all", "seeds")``.
    """
    records = {}
    for cell in pd.unique(frame["cell"]):
        tables = study_tables(frame, cell)
        summary = verdict_summary(tables)
        record = {}
        for table in _STUDY_TABLES:
            record[(table, "matches")] = int(summary.loc[table, "matches"])
            record[(table, "rows")] = int(summary.loc[table, "rows"])
            record[(table, "same flag")] = int(summary.loc[table, "same flag as paper"])
            record[(table, "ratio rows")] = int(summary.loc[table, "ratio rows"])
        record[("all", "matches")] = sum(record[(t, "matches")] for t in _STUDY_TABLES)
        record[("all", "share")] = record[("all", "matches")] / sum(
            record[(t, "rows")] for t in _STUDY_TABLES
        )
        record[("all", "seeds")] = int(frame.loc[frame["cell"] == cell, "seed"].nunique())
        records[cell] = record
    scores = pd.DataFrame.from_dict(records, orient="index")
    scores.columns = pd.MultiIndex.from_tuples(scores.columns)
    scores.index.name = "cell"
    return scores


def study_decision(scores: pd.DataFrame, *, baseline: str = "chapter") -> dict:
    """Which cell reproduces the paper best, by how much, and whether to adopt it.

    The best cell has the most matching rows over the three tables (ties: more flags as
    the paper's). It is *supported on all tables* when, on every table, it matches at
    least as many rows and agrees on at least as many flags as ``baseline``; one setting
    *serves all three data sets* when it is also the best (or tied best) cell of every
    table on its own.

    Returns
    -------
    dict
        ``best``, ``baseline``, ``gain`` (per table: matches and flags, best − baseline),
        ``best per table``, ``supported on all tables``, ``serves all tables``, ``adopt``.
    """
    if baseline not in scores.index:
        raise ValueError(f"baseline cell {baseline!r} is not among the scored cells")
    flags = sum(scores[(t, "same flag")] for t in _STUDY_TABLES)
    order = sorted(scores.index, key=lambda c: (-scores.loc[c, ("all", "matches")], -flags[c]))
    best = order[0]
    gain = pd.DataFrame(
        {
            t: {
                "matches": int(scores.loc[best, (t, "matches")])
                - int(scores.loc[baseline, (t, "matches")]),
                "same flag": int(scores.loc[best, (t, "same flag")])
                - int(scores.loc[baseline, (t, "same flag")]),
            }
            for t in _STUDY_TABLES
        }
    ).T
    per_table = {
        t: list(scores.index[scores[(t, "matches")] == scores[(t, "matches")].max()])
        for t in _STUDY_TABLES
    }
    supported = bool((gain >= 0).all().all())
    return {
        "best": best,
        "baseline": baseline,
        "gain": gain,
        "best per table": per_table,
        "supported on all tables": supported,
        "serves all tables": all(best in cells for cells in per_table.values()),
        "adopt": supported and best != baseline,
    }


def study_effects(scores: pd.DataFrame, cells: dict) -> pd.DataFrame:
    """Main effects of the factors on the matching rows of each table, over the design's
    cells: mean at the high level − mean at the low level (cells of the fraction only,
    ``cells`` as :func:`~.runs.study_cells` gives them)."""
    fraction = [c for c in scores.index if c.startswith("f") and c in cells]
    if not fraction:
        return pd.DataFrame()
    rows = {}
    for factor, (low, high) in STUDY_FACTORS.items():
        is_high = np.array([cells[c][factor] == high for c in fraction])
        if is_high.all() or not is_high.any():
            continue
        rows[f"{factor}: {low} → {high}"] = {
            t: scores.loc[fraction, (t, "matches")][is_high].mean()
            - scores.loc[fraction, (t, "matches")][~is_high].mean()
            for t in _STUDY_TABLES
        }
    return pd.DataFrame(rows).T


def study_temperatures(frame: pd.DataFrame) -> pd.DataFrame:
    """DIAGNOSTIC: per cell, the median over seeds of the temperature that brings our mean
    group aleatoric uncertainty (COMPAS, Adult) to the paper's printed level — below 1 our
    network is less confident than the paper's. Not a setting of the study: a measure of
    the remaining gap."""
    part = frame[frame["measure"] == "temperature"]
    table = part.pivot_table(index="cell", columns="dataset", values="value", aggfunc="median")
    order = [c for c in pd.unique(frame["cell"]) if c in table.index]
    return table.loc[order, [c for c in ("COMPAS", "Adult") if c in table.columns]]


def _claim_specs() -> list:
    """Every flag claim: ``(source, claim, dataset, column, printed value)``, in the order
    of the replication tables' ratio rows."""
    specs = []
    for sd, paper in seed000.TABLE_1.items():
        for m, printed in paper["ratios"].items():
            claim = f"{sd} {m} is {_FLAG.decide(printed)}"
            specs.append(("Table 1", claim, sd, (_ratio_keys(m), "ratio"), printed))
    for source, dataset, ratios in (
        ("Tables 2-3", "COMPAS", seed000.TABLE_3_RATIOS),
        ("Table 5", "Adult", seed000.TABLE_5_RATIOS),
    ):
        for attribute, printed in ratios.items():
            g0, g1 = printed["pair"]
            for m in ("F_SP", "F_EOpp", "F_EOdd", "F_EAcc", "F_Epis", "F_Alea", "F_Pred"):
                claim = f"{attribute} ({g0}/{g1}) {m} is {_FLAG.decide(printed[m])}"
                key = (_ratio_keys(m), attribute)
                specs.append((source, claim, dataset, key, printed[m]))
    return specs


def _spearman_rows(printed: np.ndarray, ours: np.ndarray) -> np.ndarray:
    """Spearman's correlation of ``printed`` with each row of ``ours`` (average ranks)."""
    from scipy.stats import rankdata

    a = rankdata(printed)
    b = rankdata(ours, axis=1)
    a, b = a - a.mean(), b - b.mean(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (b @ a) / np.sqrt((b**2).sum(axis=1) * (a**2).sum())


def study_claims(frame: pd.DataFrame) -> pd.DataFrame:
    """Whether each of the paper's claims holds, per (cell, seed).

    Claims: every fair/unfair flag of Tables 1, 2–3 and 5 (strict: an undefined ratio does
    not hold), Proposition 4.1's independence of point and uncertainty fairness as the SD
    patterns (undefined ratios ignored, as the chapter's study does), and the narratives of
    Tables 2–3 and 5 (the groups ordered by uncertainty as printed: Spearman > 0.5).

    Returns
    -------
    DataFrame
        Index ``(cell, seed)``; columns ``(source, claim)``; booleans.
    """
    from .results import _pattern

    wide = {d: _unstack(rows, ["cell", "seed"]) for d, rows in frame.groupby("dataset")}
    index = wide["SD1"].index
    columns = {}
    for source, claim, dataset, column, printed in _claim_specs():
        values = wide[dataset][column].reindex(index)
        columns[(source, claim)] = values.map(_FLAG.decide) == _FLAG.decide(printed)
    for sd in seed000.TABLE_1:
        ratios = wide[sd].xs("ratio", axis=1, level="role").reindex(index)
        claim = f"{sd}: {seed000.TABLE_1_PATTERN[sd]}"
        columns[("Prop. 4.1", claim)] = pd.Series(
            [_pattern(r, sd, ignore_undefined=True)["pattern holds"] for _, r in ratios.iterrows()],
            index=index,
        )
    for name, paper, measures in (
        ("COMPAS", seed000.TABLE_3_GROUPS, ("U_a", "U_e")),
        ("Adult", seed000.TABLE_5_GROUPS, ("U_e",)),
    ):
        for m in measures:
            ours = wide[name][[(m, label) for label in paper]].reindex(index).to_numpy(float)
            rho = _spearman_rows(np.array([paper[label][m] for label in paper]), ours)
            claim = f"{name}: groups ordered by {m} as printed (Spearman > 0.5)"
            columns[("narrative", claim)] = pd.Series(np.nan_to_num(rho) > 0.5, index=index)
    claims = pd.DataFrame(columns)
    claims.columns.names = ["source", "claim"]
    return claims


def robustness_table(claims: pd.DataFrame, *, threshold: float = 0.9) -> pd.DataFrame:
    """Per claim: the share of (setting, seed) runs under which it holds, Wilson's 95 %
    interval, and whether it is *robust* (share ≥ ``threshold``); plus the share in each
    cell (columns ``cell: <name>``), for a heat map.

    Examples
    --------
    >>> idx = pd.MultiIndex.from_product([["a", "b"], [0, 1]], names=["cell", "seed"])
    >>> cols = pd.MultiIndex.from_tuples([("T", "x")], names=["source", "claim"])
    >>> t = robustness_table(pd.DataFrame([[True], [True], [True], [False]], idx, cols))
    >>> t[["runs", "share", "robust"]].values.tolist()
    [[4, 0.75, False]]
    """
    rows = []
    for column in claims.columns:
        values = claims[column].astype(float)
        summary = share_holding(values.to_numpy())
        per_cell = values.groupby(level="cell", sort=False).mean()
        rows.append(
            {
                "source": column[0],
                "claim": column[1],
                "runs": summary["runs"],
                "share": summary["share"],
                "low": summary["low"],
                "high": summary["high"],
                "robust": bool(summary["share"] >= threshold),
                **{f"cell: {c}": v for c, v in per_cell.items()},
            }
        )
    return pd.DataFrame(rows).set_index(["source", "claim"])


def budget_table(tables: dict) -> pd.DataFrame:
    """The same rows judged at several budgets side by side
    (:func:`fairbook_book.replication.by_budget`), each verdict without the interval's numbers
    (``"paper in interval"``), as the chapter's own tables print them.

    Examples
    --------
    >>> full = _with_interval_columns([_row("x", 1.0, [0.9, 1.2, 1.1], "rate", source="s")])
    >>> fast = _with_interval_columns([_row("x", 1.0, [1.2, 1.3], "rate", source="s")])
    >>> budget_table({"full": full, "fast": fast}).loc["x"].astype(str).tolist()
    ['1.0', '1.1', 'paper in interval', '1.25', 'paper outside interval']
    """
    frame = by_budget(tables)
    for column in frame.columns:
        if str(column).endswith(": verdict"):
            frame[column] = frame[column].map(
                lambda v: (
                    "; ".join(_short_verdict(p) for p in v.split("; ")) if isinstance(v, str) else v
                )
            )
    return frame


def interval_widths(recorded: dict, build: dict) -> dict:
    """How the 95 % intervals of the same rows compare between two budgets (e.g. the
    recorded ten seeds and this build's three), read from the tables' rows.

    Parameters
    ----------
    recorded, build : dict
        Title → replication table (:func:`recorded_replication`, :func:`study_tables`).

    Returns
    -------
    dict
        ``pairs`` (rows with an interval at both budgets), ``wider`` (of those, wider at
        ``recorded``), ``median ratio`` (recorded width / build width, over pairs with a
        non-zero build width; NaN if none), ``moved to match`` (rows that differ in
        ``build`` and pass in ``recorded``) and ``moved by widening`` (of those, whose
        interval is wider at ``recorded``).

    Examples
    --------
    >>> a = _with_interval_columns([_row("x", 1.0, [0.5, 1.0, 1.5, 2.0], "rate", source="s")])
    >>> b = _with_interval_columns([_row("x", 1.0, [1.2, 1.3, 1.4], "rate", source="s")])
    >>> widths = interval_widths({"T": a}, {"T": b})
    >>> widths["pairs"], widths["wider"], widths["moved to match"], widths["moved by widening"]
    (1, 1, 1, 1)
    """
    ratios, wider, moved, widened, pairs = [], 0, 0, 0, 0
    for title, table in recorded.items():
        other = {r.quantity: r for r in build.get(title, replication_table([])).attrs["rows"]}
        for row in table.attrs["rows"]:
            mate = other.get(row.quantity)
            if mate is None or None in (row.low, row.high, mate.low, mate.high):
                continue
            pairs += 1
            width, base = row.high - row.low, mate.high - mate.low
            is_wider = width > base
            wider += is_wider
            if base > 0:
                ratios.append(width / base)
            if mate.passed is False and row.passed is True:
                moved += 1
                widened += is_wider
    return {
        "pairs": pairs,
        "wider": wider,
        "median ratio": float(np.median(ratios)) if ratios else float("nan"),
        "moved to match": moved,
        "moved by widening": widened,
    }


def interval_width_sentence(recorded: dict, build: dict, *, build_label: str) -> str:
    """:func:`interval_widths` in one plain sentence, for the chapter's budget comparison.

    Examples
    --------
    >>> a = _with_interval_columns([_row("x", 1.0, [0.5, 1.0, 1.5, 2.0], "rate", source="s")])
    >>> b = _with_interval_columns([_row("x", 1.0, [1.2, 1.3, 1.4], "rate", source="s")])
    >>> text = interval_width_sentence({"T": a}, {"T": b}, build_label="fast")
    >>> text.startswith("Of the 1 rows with a 95 % interval at both budgets, 1 has a wider")
    True
    >>> text.endswith("1 row differs in this build and passes in the recorded run; 1 of them "
    ...               "moves because its interval widened.")
    True
    """
    w = interval_widths(recorded, build)
    if w["pairs"] == 0:
        return "No row has a 95 % interval at both budgets (nothing recorded for this setting)."
    has = "has" if w["wider"] == 1 else "have"
    ratio = w["median ratio"]
    text = (
        f"Of the {w['pairs']} rows with a 95 % interval at both budgets, {w['wider']} {has} "
        f"a wider interval in the recorded run than in this build ({build_label})"
    )
    if not np.isnan(ratio):
        text += f"; the median ratio of widths is {significant(ratio, digits=2)}"
    moved = w["moved to match"]
    row = "row differs" if moved == 1 else "rows differ"
    text += (
        f". {moved} {row} in this build and {'passes' if moved == 1 else 'pass'} in the "
        f"recorded run; {w['moved by widening']} of them "
        f"{'moves' if w['moved by widening'] == 1 else 'move'} because "
        f"{'its interval' if w['moved by widening'] == 1 else 'their intervals'} widened."
    )
    return text


def recorded_replication(recording: Recording, *, cell: str = "chapter") -> dict:
    """Tables 1, 2–3 and 5 of one recorded cell (default: the chapter's setting), for
    :func:`fairbook_book.replication.by_budget` beside this build's. Each note says how many
    seeds were recorded; a **stale** recording's rows are not comparable; an empty
    recording (or one without the cell) gives empty tables."""
    if recording.empty or cell not in set(recording.frame["cell"]):
        return {t: replication_table([]) for t in _STUDY_TABLES}
    tables = study_tables(recording.frame, cell)
    seeds = recording.frame.loc[recording.frame["cell"] == cell, "seed"].nunique()
    note = f"recorded cell {cell!r}, {seeds} seeds"
    return {
        title: at_recorded_budget(table, note=note, stale=recording.stale)
        for title, table in tables.items()
    }


def study_source(recording: Recording, fast: pd.DataFrame) -> tuple[str, pd.DataFrame]:
    """The study frame the chapter reads, with a label saying which: the recording when it
    has units and is not stale, else this build's slice — in either case only the seeds
    that every cell has (:func:`common_seeds`), so that cells are compared at equal seeds.

    Examples
    --------
    >>> from fairbook_book.recordings import Recording
    >>> fast = pd.DataFrame({"cell": ["a", "a", "b"], "seed": [0, 1, 0], "value": [1, 2, 3]})
    >>> label, frame = study_source(Recording("04", "study", pd.DataFrame()), fast)
    >>> label, frame["seed"].tolist()
    ("this build's slice (nothing recorded), 2 cells at the 1 seed(s) all of them have", [0, 0])
    """
    if recording.empty or recording.stale:
        why = "nothing recorded" if recording.empty else "the recording is STALE"
        label, frame = f"this build's slice ({why})", fast
    else:
        units = len(recording.provenance)
        label = f"the recording ({units} of {recording.expected} units)"
        frame = recording.frame
    frame = common_seeds(frame)
    cells, seeds = frame["cell"].nunique(), frame["seed"].nunique()
    return f"{label}, {cells} cells at the {seeds} seed(s) all of them have", frame


def common_seeds(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows of a study frame whose seed every cell has (a partial recording has more
    seeds for some cells than for others).

    Examples
    --------
    >>> f = pd.DataFrame({"cell": ["a", "a", "b"], "seed": [0, 1, 0]})
    >>> common_seeds(f)["seed"].tolist()
    [0, 0]
    """
    per_cell = frame.groupby("cell")["seed"].agg(lambda s: set(s.unique()))
    shared = set.intersection(*per_cell) if len(per_cell) else set()
    return frame[frame["seed"].isin(shared)]


def study_text(scores: pd.DataFrame, decision: dict) -> str:
    """The study's verdict in sentences, every number from ``scores`` and ``decision``.

    Examples
    --------
    >>> cols = pd.MultiIndex.from_tuples(
    ...     [(t, k) for t in _STUDY_TABLES for k in ("matches", "rows", "same flag",
    ...      "ratio rows")] + [("all", "matches"), ("all", "share"), ("all", "seeds")])
    >>> s = pd.DataFrame([[1, 9, 1, 2] * 3 + [3, 3 / 27, 10],
    ...                   [2, 9, 2, 2] * 3 + [6, 6 / 27, 10]], ["chapter", "x"], cols)
    >>> print(study_text(s, study_decision(s)).splitlines()[0])
    Best cell: 'x' (6 of 27 rows match over Tables 1, 2-3 and 5; 'chapter': 3).
    """
    best, base = decision["best"], decision["baseline"]
    total = sum(int(scores.loc[best, (t, "rows")]) for t in _STUDY_TABLES)
    lines = [
        f"Best cell: {best!r} ({int(scores.loc[best, ('all', 'matches')])} of {total} rows "
        f"match over Tables 1, 2-3 and 5; {base!r}: "
        f"{int(scores.loc[base, ('all', 'matches')])}).",
    ]
    for t in _STUDY_TABLES:
        lines.append(
            f"  {t}: rows matching {int(scores.loc[base, (t, 'matches')])} → "
            f"{int(scores.loc[best, (t, 'matches')])} of {int(scores.loc[best, (t, 'rows')])}; "
            f"flags as the paper's {int(scores.loc[base, (t, 'same flag')])} → "
            f"{int(scores.loc[best, (t, 'same flag')])} of "
            f"{int(scores.loc[best, (t, 'ratio rows')])}; best cell(s) of this table: "
            f"{', '.join(decision['best per table'][t])}."
        )
    lines.append(
        "One setting serves all three data sets."
        if decision["serves all tables"]
        else "No one setting is best on all three tables: each table's best cell is listed above."
    )
    lines.append(
        f"Adopted as the chapter's default: {best!r} (it does at least as well as {base!r} "
        "on every table)."
        if decision["adopt"]
        else f"Not adopted: {best!r} does worse than {base!r} on at least one table "
        "(matches or flags), so the chapter keeps its setting."
        if best != base
        else f"The chapter's setting {base!r} is already the best cell."
    )
    return "\n".join(lines)


def robustness_text(robust: pd.DataFrame) -> str:
    """Which claims hold under ≥ 90 % of the (setting, seed) runs and which do not, as a
    list (from :func:`robustness_table`).

    Examples
    --------
    >>> idx = pd.MultiIndex.from_tuples([("T", "a"), ("T", "b")], names=["source", "claim"])
    >>> t = pd.DataFrame({"share": [1.0, 0.5], "low": [0.7, 0.2], "high": [1.0, 0.8],
    ...                   "robust": [True, False]}, index=idx)
    >>> print(robustness_text(t))
    Hold under >= 90 % of settings x seeds (1 of 2):
      T: a (share 1.00, 95 % interval 0.70-1.00)
    Do not (1 of 2):
      T: b (share 0.50, 95 % interval 0.20-0.80)
    """
    parts = []
    for flag, title in ((True, "Hold under >= 90 % of settings x seeds"), (False, "Do not")):
        chosen = robust[robust["robust"] == flag]
        parts.append(f"{title} ({len(chosen)} of {len(robust)}):")
        for (source, claim), row in chosen.iterrows():
            parts.append(
                f"  {source}: {claim} (share {row['share']:.2f}, 95 % interval "
                f"{row['low']:.2f}-{row['high']:.2f})"
            )
    return "\n".join(parts)
