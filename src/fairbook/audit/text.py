"""The audit as terminal text: summary first, then the tables, every NaN explained.

The header says what a positive prediction means for the person (``decision``, or that it
was not given); the metrics are then ordered by how directly they measure the errors that
matter for that direction, and each is explained in one line
(:mod:`fairbook.audit.decision_direction`).

Lines stay within ``width`` columns (100 by default): wide tables wrap into blocks of
columns, long group labels are shortened with ``…``. Labels from the data pass through
:func:`printable`, so control characters (an escape sequence in a group name) are shown
escaped instead of acting on the terminal.
"""

from __future__ import annotations

import math
import textwrap
import unicodedata
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from fairbook.labels import show_value

from .decision_direction import MEANINGS, direction, ranked
from .rate_tests import SIZE_NOTE

__all__ = ["by_metric", "metric_order", "printable", "render_text", "size_text", "test_name"]

#: The summary lists at most this many disparities and small groups; the tables list all.
LIST_LIMIT = 50
_LABEL_WIDTH = 24

#: The comparison verdicts as the text tables show them (legend in the notes).
_SHORT_VERDICTS = {
    "disparity survives": "SURVIVES",
    "apparent, not significant": "apparent, n.s.",
    "significant, below min_gap": "sig., < gap",
    "no apparent disparity": "-",
    "undefined": "undefined",
}


def printable(label) -> str:
    """A label as text with control and format characters escaped (safe for a terminal).

    Examples
    --------
    >>> printable("a\x1b[31mb"), printable("Zoë"), printable(3)
    ('a\\\\x1b[31mb', 'Zoë', '3')
    """
    if isinstance(label, np.generic):
        label = label.item()
    text = str(label)
    return "".join(
        ch.encode("unicode_escape").decode("ascii")
        if unicodedata.category(ch).startswith("C")
        else ch
        for ch in text
    )


def _short(label, width: int = _LABEL_WIDTH) -> str:
    text = printable(label)
    return text if len(text) <= width else text[: width - 1] + "…"


def _name(report, attribute, group, width: int | None = _LABEL_WIDTH, *, quote=False) -> str:
    """A group's name as printed: escaped, distinct from the attribute's other groups'."""
    try:
        text = report.group_names(attribute, width=width)[group]
    except (KeyError, TypeError):  # not a group of the table: shown on its own
        text = printable(show_value(group) if quote else group)
        return text if width is None else _short(text, width)
    if quote and isinstance(group, str) and not text.startswith("'"):
        return f"'{text}'"
    return text


def _row_name(report, row: dict) -> str:
    return _name(report, row["attribute"], row["group"], quote=True)


def _named(report, frame: pd.DataFrame, columns=("group",), width: int = _LABEL_WIDTH):
    """``frame`` with its group columns replaced by their printed names (per attribute)."""
    out = frame.copy()
    for column in columns:
        out[column] = [
            _name(report, a, g, width)
            for a, g in zip(frame["attribute"], frame[column], strict=True)
        ]
    return out


def _number(value, digits: int = 4) -> str:
    if isinstance(value, str):
        return value
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "NaN"
    if isinstance(value, bool | np.bool_):
        return "yes" if value else ""
    value = float(value)
    if value != 0 and abs(value) < 1e-4:
        return f"{value:.1e}"
    if abs(value) >= 1000:
        return f"{value:.{digits}g}"
    return f"{value:.{digits}f}".rstrip("0").rstrip(".")


def _pvalue(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "NaN"
    return f"{value:.2g}" if value < 0.001 else f"{value:.3f}"


def _table(frame: pd.DataFrame, formats: dict[Any, Callable[..., str]], width: int) -> str:
    shown = pd.DataFrame(index=range(len(frame)))
    for column in frame.columns:
        form = formats.get(column, str)
        shown[column] = [form(v) for v in frame[column].tolist()]
    text = shown.to_string(index=False, line_width=width - 3)
    return textwrap.indent(text, "  ")


def _wrap(text: str, width: int, indent: str = "  ") -> str:
    return textwrap.fill(
        text,
        width=width,
        initial_indent=indent,
        subsequent_indent=indent + "  ",
        break_on_hyphens=False,
    )


def _header(report, width: int) -> list[str]:
    settings = report.settings
    lines = [
        f"Fairness audit of {settings['rows']:,} rows; predictions: "
        f"{printable(settings['y_pred'])}",
        f"Positive label: {_positive(report)}. {_direction(report)}",
        f"Test of each comparison: {test_name(report)}; Holm's adjustment over all of them.",
    ]
    why = {
        "given": "as given",
        "largest": "the largest",
        "combination": "the attributes' references combined",
    }
    table = report.tables["groups"]
    for attribute in report.attributes:
        count = int((table["attribute"] == attribute).sum())
        ref = report.references[attribute]
        lines.append(
            f"Attribute {printable(show_value(attribute))}: reference group: "
            f"{_name(report, attribute, ref, None, quote=True)} "
            f"({why[settings['reference_rules'][attribute]]}); "
            f"{count} group{'s' if count != 1 else ''}"
        )
    return [_wrap(line, width, indent="") for line in lines]


def test_name(report) -> str:
    """The report's test in words (MATCH for a report of before the choice of test).

    Examples
    --------
    >>> from fairbook.audit import audit, predictions_frame
    >>> test_name(audit(predictions_frame([1, 0, 1, 0], [1, 1, 0, 0], list("aabb")),
    ...                 test="score"))
    'pooled score z test'
    """
    from .rate_tests import TEST_NAMES

    return TEST_NAMES[report.settings.get("test", "match")]


def _is_match(report) -> bool:
    return report.settings.get("test", "match") == "match"


def size_text(report, metrics, sizes, notes) -> str:
    """The exact sizes beside a small group's flags, as one sentence for a reader.

    Examples
    --------
    >>> from fairbook.audit import audit, predictions_frame
    >>> report = audit(predictions_frame([1, 0, 1, 0], [1, 1, 0, 0], list("aabb")))
    >>> text = size_text(report, ["ACC", "B"], [0.0123, float("nan")], ["", "not a rate"])
    >>> text.split(": ", 1)[1].split(" — ")[0]
    'ACC 0.012, B NaN (not a rate)'
    """
    alpha = report.settings["alpha"]
    shown = []
    for metric, size, note in zip(metrics, sizes, notes, strict=True):
        if size is None or (isinstance(size, float) and math.isnan(size)):
            shown.append(f"{metric} NaN ({note})" if note else f"{metric} NaN")
        else:
            shown.append(f"{metric} {_number(size, 3)}")
    return (
        f"exact size at n ({test_name(report)}): {', '.join(shown)} — the "
        f"{SIZE_NOTE.format(alpha=alpha)}"
    )


def _positive(report) -> str:
    return printable(show_value(report.settings["positive"]))


def _direction(report) -> str:
    """The header's sentence on what a positive prediction means for the person."""
    settings = report.settings
    favourable = settings.get("favourable")
    return direction(
        settings.get("decision"),
        _positive(report),
        favourable=None if favourable is None else printable(show_value(favourable)),
    )


def metric_order(report) -> list[str]:
    """The report's metrics in the order its decision ranks them (as given without one).

    Examples
    --------
    >>> from fairbook.audit import audit, predictions_frame
    >>> frame = predictions_frame([1, 0, 1, 0], [1, 1, 0, 0], list("aabb"))
    >>> metric_order(audit(frame, decision="punitive"))
    ['FPR', 'PPV', 'PPR', 'B', 'TPR', 'NPV', 'ACC']
    """
    return ranked(report.settings["metrics"], report.settings.get("decision"))


def by_metric(report, frame: pd.DataFrame, attribute_order=None) -> pd.DataFrame:
    """``frame``'s rows ordered by :func:`metric_order` within each attribute (stable)."""
    rank = {m: i for i, m in enumerate(metric_order(report))}
    attributes = {a: i for i, a in enumerate(attribute_order or report.attributes)}
    keys = pd.DataFrame(
        {
            "a": [attributes.get(a, len(attributes)) for a in frame["attribute"]],
            "m": [rank.get(m, len(rank)) for m in frame["metric"]],
        }
    )
    order = keys.sort_values(["a", "m"], kind="stable").index.to_numpy()
    return frame.iloc[order]


def _ordered_rows(report, rows: list[dict]) -> list[dict]:
    if not rows:
        return rows
    frame = pd.DataFrame({"attribute": [r["attribute"] for r in rows]})
    frame["metric"] = [r["metric"] for r in rows]
    return [rows[i] for i in by_metric(report, frame).index]


def _meanings(report, width: int) -> list[str]:
    decision = report.settings.get("decision")
    order = metric_order(report)
    if decision is None:
        title = (
            "WHAT THE METRICS MEASURE (in the order given: the direction was not given, so "
            "each is read both ways)"
        )
    else:
        title = (
            "WHAT THE METRICS MEASURE, AND WHEN TO CARE (most important first: a positive "
            f"prediction {'harms' if decision == 'punitive' else 'helps'} the person)"
        )
    out = [_wrap(title, width, indent="")]
    for metric in order:
        meaning = MEANINGS[metric]
        out.append(
            textwrap.fill(
                f"{metric:<5} {meaning.measures}. When to care: {meaning.care(decision)}.",
                width=width,
                initial_indent="  ",
                subsequent_indent="        ",
                break_on_hyphens=False,
            )
        )
    return out


def _summary(report, width: int) -> list[str]:
    summary = report.summary()
    out = ["SUMMARY", _wrap(summary["adjustment"] + ".", width)]
    out += _summary_disparities(report, summary, width)
    out += _summary_small_groups(report, summary, width)
    out += _summary_references_and_uncertainty(report, summary, width)
    out += _summary_flips(report, summary, width)
    return out


def _summary_disparities(report, summary: dict, width: int) -> list[str]:
    settings = report.settings
    out: list[str] = []
    if summary["significant"]:
        out.append("  Disparities that survive (gap = group minus reference):")
        for row in _ordered_rows(report, summary["significant"])[:LIST_LIMIT]:
            out.append(
                _wrap(
                    f"- {printable(row['attribute'])} = {_row_name(report, row)}: "
                    f"{row['metric']} {_number(row['score'], 3)} vs "
                    f"{_number(row['reference_score'], 3)} (gap {_number(row['gap'], 3)}, "
                    f"n = {row['n']:,}, Holm p = {_pvalue(row['p_holm'])})",
                    width,
                    indent="    ",
                )
            )
        if len(summary["significant"]) > LIST_LIMIT:
            more = len(summary["significant"]) - LIST_LIMIT
            out.append(
                _wrap(f"- … and {more:,} more (every one is in the comparisons below)", width)
            )
    elif summary["tests"]:
        out.append(
            _wrap(
                f"No disparity of at least {settings['min_gap']:g} survives the adjusted tests "
                "(which is not evidence of fairness: see the small groups).",
                width,
            )
        )
    return out


def _summary_small_groups(report, summary: dict, width: int) -> list[str]:
    settings = report.settings
    decision = settings.get("decision")
    out: list[str] = []
    if summary["small_groups"]:
        out.append(
            _wrap(
                f"Groups too small to tell a gap of {settings['min_gap']:g} from chance, for the "
                "metrics listed (there, 'no apparent disparity' says little; a disparity that "
                "survives anyway is real; CPS-smoothed rates are shown beside the raw ones "
                "below):",
                width,
            )
        )
        shown_small = summary["small_groups"][:LIST_LIMIT]
        for row in shown_small:
            out.append(
                _wrap(
                    f"- {printable(row['attribute'])} = {_row_name(report, row)} "
                    f"(n = {row['n']:,}): {', '.join(ranked(row['metrics'], decision))}",
                    width,
                    indent="    ",
                )
            )
            for reason in row["reasons"]:
                out.append(_wrap(f"· {printable(reason)}", width, indent="        "))
            if "exact_sizes" in row:
                sizes = size_text(report, row["metrics"], row["exact_sizes"], row["size_notes"])
                out.append(_wrap(f"· {sizes}", width, indent="        "))
        if len(summary["small_groups"]) > LIST_LIMIT:
            more = len(summary["small_groups"]) - LIST_LIMIT
            out.append(
                _wrap(f"- … and {more:,} more groups (every one is in the tables below)", width)
            )
    return out


def _summary_references_and_uncertainty(report, summary: dict, width: int) -> list[str]:
    out: list[str] = []
    for row in summary["small_references"]:
        out.append(
            _wrap(
                f"Reference {_row_name(report, row)} of "
                f"{printable(show_value(row['attribute']))} "
                f"is itself small (n = {row['n']:,}) for {', '.join(row['metrics'])}: "
                + (
                    "MATCH treats its rates as exact, so read its p-values with care."
                    if _is_match(report)
                    else f"the chosen test ({test_name(report)}) counts its sampling too."
                ),
                width,
            )
        )
    if summary["uncertainty_unfair"]:
        out.append("  Uncertainty ratios flagged unfair (|F - 1| > 0.2, seed 000):")
        for row in summary["uncertainty_unfair"]:
            out.append(
                _wrap(
                    f"- {printable(row['attribute'])} = {_row_name(report, row)}: "
                    f"{row['measure']} = {_number(row['ratio'], 3)}",
                    width,
                    indent="    ",
                )
            )
    return out


def _summary_flips(report, summary: dict, width: int) -> list[str]:
    out: list[str] = []
    if summary["flips"] or summary["seven_metric_flips"]:
        out.append("  Verdicts that flip between runs (seed 004):")
        for row in summary["flips"]:
            out.append(
                _wrap(
                    f"- {printable(row['attribute'])} = {_row_name(report, row)}, "
                    f"{row['metric']}: survives in {_share(row['share_survives'])} of "
                    f"{row['runs']} runs" + _ratio_share(row["share_ratio_unfair"]),
                    width,
                    indent="    ",
                )
            )
        for row in summary["seven_metric_flips"]:
            out.append(
                _wrap(
                    f"- {printable(row['attribute'])}, {row['metric']} above 0.2 in "
                    f"{_share(row['share_unfair'])} of {row['runs']} runs",
                    width,
                    indent="    ",
                )
            )
    elif report.tables.get("stability") is not None:
        out.append("  No verdict flips between the runs.")
    return out


def _ratio_share(value) -> str:
    if value is None or math.isnan(value):
        return " (no ratio)"
    return f", ratio unfair in {value:.0%}"


def _share(value) -> str:
    return "NaN" if value is None or math.isnan(value) else f"{value:.0%}"


def _ref_labels(report, part: pd.DataFrame) -> list[str]:
    reference = part["is_reference"].to_numpy(dtype=bool)
    return [
        f"{_name(report, a, g, _LABEL_WIDTH - 6)} (ref)" if r else _name(report, a, g)
        for a, g, r in zip(part["attribute"], part["group"], reference, strict=True)
    ]


def _groups(report, width: int) -> list[str]:
    table = report.tables["groups"]
    decision = report.settings.get("decision")
    out = []
    for attribute in report.attributes:
        part = table[table["attribute"] == attribute]
        reference = part["is_reference"].to_numpy(dtype=bool)
        counts = pd.DataFrame(
            {
                "group": _ref_labels(report, part),
                "n": part["n"].to_numpy(),
                "share": part["share"].to_numpy(),
                **{c: part[c].to_numpy() for c in ("TP", "FN", "FP", "TN")},
                "small for": [
                    ", ".join(ranked(s.split(", "), decision)) if s else ""
                    for s in part["small_metrics"]
                ],
            }
        )
        shown_rates = ranked(("PPR", "PREV", "ACC", "TPR", "FPR", "PPV", "B"), decision)
        rates = pd.DataFrame(
            {
                "group": _ref_labels(report, part),
                **{c: part[c].to_numpy() for c in shown_rates},
                **{
                    c: np.where(reference, "-", part[c].to_numpy(dtype=object))
                    for c in ("OFI", "DI")
                },
            }
        )
        formats = {c: (lambda v: _number(v, 3)) for c in rates.columns}
        formats.update({"group": str, "n": str, "small for": str, "share": _share})
        formats.update({c: str for c in ("TP", "FN", "FP", "TN")})
        title = f"GROUPS - {printable(show_value(attribute))}"
        out.append(_wrap(title + ": counts, and the metrics the group is too small for", width, ""))
        out.append(_table(counts, formats, width))
        out.append(_wrap(title + ": rates (OFI > 0 and DI > 1 favour the group)", width, ""))
        out.append(_table(rates, formats, width))
        out.append("")
    return out[:-1]


def _comparisons(report, width: int) -> list[str]:
    table = report.tables["comparisons"]
    rates = report.tables["rates"]
    # one lookup table, not a MultiIndex .loc per row (that was most of the text's cost)
    keys = zip(rates["attribute"], rates["group"], rates["metric"], strict=True)
    cps = dict(zip(keys, rates["cps"], strict=True))
    out = []
    formats: dict[Any, Callable[..., str]] = {
        "group": str,
        "metric": str,
        "n": str,
        "score": lambda v: _number(v, 3),
        "CPS": str,
        "ref": lambda v: _number(v, 3),
        "gap": lambda v: _number(v, 3),
        "ratio": lambda v: _number(v, 3),
        "p": _pvalue,
        "Holm p": _pvalue,
        "verdict": str,
        "size at n": str,
    }
    for attribute in report.attributes:
        part = by_metric(report, table[table["attribute"] == attribute])
        if part.empty:
            continue
        smoothed = [
            _number(cps[(attribute, g, m)], 3) if small else ""
            for g, m, small in zip(part["group"], part["metric"], part["small"], strict=True)
        ]
        shown = pd.DataFrame(
            {
                "group": _named(report, part)["group"].to_numpy(),
                "metric": part["metric"].to_numpy(),
                "n": part["n"].to_numpy(),
                "score": part["score"].to_numpy(),
                "CPS": smoothed,
                "ref": part["reference_score"].to_numpy(),
                "gap": part["gap"].to_numpy(),
                "ratio": part["ratio"].to_numpy(),
                "p": part["p_value"].to_numpy(),
                "Holm p": part["p_holm"].to_numpy(),
                "verdict": [_SHORT_VERDICTS[v] for v in part["verdict"]],
                "size at n": [
                    _number(size, 3) if small else ""
                    for size, small in zip(
                        part.get("exact_size", np.full(len(part), np.nan)),
                        part["small"],
                        strict=True,
                    )
                ],
            }
        )
        tested = (
            "exact MATCH p-values"
            if _is_match(report)
            else f"p-values: {test_name(report)}; B is tested only by MATCH"
        )
        title = (
            f"AGAINST THE REFERENCE - {printable(show_value(attribute))} ({tested}; "
            "CPS: the smoothed score, and size at n: the test's exact size, shown where the "
            "group is too small for the metric)"
        )
        out.append(_wrap(title, width, ""))
        out.append(_table(shown, formats, width))
        out.append("")
    return out[:-1]


def _seven(report, width: int) -> list[str]:
    table = report.tables["seven_metrics"]
    if table.empty:
        return []
    out = [
        _wrap(
            "SEED 004'S SEVEN METRICS (fractions; 0 = fair; pairwise ones on the two largest "
            "groups)",
            width,
            indent="",
        )
    ]
    shown = table.drop(columns=["class"]).copy()
    named = _named(report, shown, ("largest", "second"), 14)
    shown.pop("largest"), shown.pop("second")
    shown["pair"] = [f"{a} vs {b}" for a, b in zip(named["largest"], named["second"], strict=True)]
    formats: dict[Any, Callable[..., str]] = {c: _number for c in shown.columns}
    formats.update({"attribute": lambda a: _short(a, 20), "pair": str})
    out.append(_table(shown, formats, width))
    return out


def _uncertainty(report, width: int) -> list[str]:
    table = report.tables.get("uncertainty")
    if table is None:
        return []
    samples = len(report.settings["samples"])
    out = [
        _wrap(
            f"UNCERTAINTY ({samples} samples per person; mean per group; F = group / "
            "reference, flagged when |F - 1| > 0.2)",
            width,
            indent="",
        )
    ]
    columns = ["attribute", "group", "n", "U_e", "U_a", "U_p", "F_Epis", "F_Alea", "F_Pred"]
    columns += ["flags"]
    shown = _named(report, table)
    shown["flags"] = [
        ", ".join(m for m in ("F_Epis", "F_Alea", "F_Pred") if row[f"{m}_flag"] == "unfair")
        for _, row in table.iterrows()
    ]
    formats: dict[Any, Callable[..., str]] = {c: _number for c in columns}
    formats.update({"attribute": lambda a: _short(a, 16), "group": str, "n": str, "flags": str})
    out.append(_table(shown[columns], formats, width))
    return out


def _stability(report, width: int) -> list[str]:
    table = report.tables.get("stability")
    if table is None:
        return []
    runs = len(report.settings["runs"])
    out = [
        _wrap(
            f"STABILITY OVER {runs} RUNS (MaxDiff = max - min, STDEV population; share of "
            "runs with each verdict)",
            width,
            indent="",
        )
    ]
    names = {
        "group": "group",
        "metric": "metric",
        "score_mean": "mean",
        "score_maxdiff": "MaxDiff",
        "score_stdev": "STDEV",
        "gap_maxdiff": "gap MaxDiff",
        "gap_stdev": "gap STDEV",
        "share_survives": "survives",
        "share_ratio_unfair": "ratio unfair",
        "flip_rate_survives": "flip rate",
        "flips": "flips",
    }
    formats = {name: (lambda v: _number(v, 3)) for name in names.values()}
    formats.update({"group": str, "metric": str, "survives": _share, "ratio unfair": _share})
    for attribute in report.attributes:
        part = table[table["attribute"] == attribute]
        if part.empty:
            continue
        out.append(_wrap(f"  {printable(show_value(attribute))}:", width, ""))
        part = _named(report, part)
        out.append(_table(part[list(names)].rename(columns=names), formats, width))
    seven = report.tables["stability_seven_metrics"]
    if seven is not None and not seven.empty:
        formats = {c: _number for c in seven.columns}
        formats.update(
            {
                "attribute": lambda a: _short(a, 16),
                "metric": str,
                "runs": str,
                "share_unfair": _share,
            }
        )
        out.append(
            _wrap("Seed 004's seven metrics over the runs (share_unfair: DI_BAR > 0.2):", width)
        )
        out.append(_table(seven, formats, width))
    return out


def _scores(report, width: int) -> list[str]:
    table = report.tables.get("scores")
    if table is None:
        return []
    out = [
        _wrap(
            f"SCORE {printable(show_value(report.settings['score']))} (mean per group; gaps "
            "to the reference; Brier and calibration only for probabilities)",
            width,
            indent="",
        )
    ]
    columns = ["attribute", "group", "n", "score_mean", "score_mean_positives"]
    columns += ["positives_gap", "score_mean_negatives", "negatives_gap", "brier"]
    formats: dict[Any, Callable[..., str]] = {c: _number for c in columns}
    formats.update({"attribute": lambda a: _short(a, 16), "group": str, "n": str})
    out.append(_table(_named(report, table)[columns], formats, width))
    return out


def _notes(report, width: int) -> list[str]:
    summary = report.summary()
    out = [
        "NOTES",
        _wrap(
            "NaN = undefined, never 0: a rate whose denominator is 0 in that group (TPR with "
            "no actual positives, PPV with no predicted positives, ...); then its gap, ratio "
            "and p-value are NaN too. A ratio is NaN for B (a signed difference) and where the "
            "reference's score is 0. OFI and DI are '-' for the reference group itself. CPS "
            f"(Cross-Prior Smoothing, λ = {report.settings['lam']:g}) is shown for the "
            "comparisons flagged small.",
            width,
        ),
        _wrap(
            "Size at n (shown for the comparisons flagged small): the "
            f"{SIZE_NOTE.format(alpha=report.settings['alpha'])}, of the chosen test "
            f"({test_name(report)}) at the group's size (its rate's denominator for TPR, FPR, "
            "PPV, ...) against the reference's; above "
            f"{report.settings['alpha']:g} the test flags groups that are not different more "
            "often than it says. NaN where the group has no denominator, for "
            "B (not a rate), or where the enumeration is too large (the JSON's size_note says "
            "which).",
            width,
        ),
        _wrap(
            f"Verdicts: SURVIVES = |gap| >= {report.settings['min_gap']:g} and Holm p < "
            f"{report.settings['alpha']:g}; 'apparent, n.s.' = |gap| >= "
            f"{report.settings['min_gap']:g}, not significant; 'sig., < gap' = significant, "
            f"|gap| < {report.settings['min_gap']:g}; '-' = no apparent disparity (not "
            "evidence of fairness where the group is small).",
            width,
        ),
    ]
    for row in _ordered_rows(report, summary["undefined"]):
        out.append(
            _wrap(
                f"- {printable(row['attribute'])} = {_row_name(report, row)}, "
                f"{row['metric']}: {printable(row['note'])}",
                width,
                indent="    ",
            )
        )
    return out


def render_text(report, *, width: int = 100) -> str:
    """The whole report as text at most ``width`` columns wide (long labels shortened).

    Examples
    --------
    >>> from fairbook.audit import audit, predictions_frame
    >>> text = audit(predictions_frame([1, 0, 1, 0], [1, 1, 0, 0], ["a", "a", "b", "b"])).to_text()
    >>> text.splitlines()[0]
    'Fairness audit of 4 rows; predictions: y_pred'
    >>> max(len(line) for line in text.splitlines()) <= 100
    True
    """
    with pd.option_context("display.width", width, "display.max_columns", None):
        blocks = [
            "\n".join(_header(report, width)),
            "\n".join(_summary(report, width)),
            "\n".join(_meanings(report, width)),
            *("\n".join(part) for part in (_groups(report, width), _comparisons(report, width))),
            "\n".join(_seven(report, width)),
            "\n".join(_uncertainty(report, width)),
            "\n".join(_stability(report, width)),
            "\n".join(_scores(report, width)),
            "\n".join(_notes(report, width)),
        ]
    return "\n\n".join(b for b in blocks if b)
