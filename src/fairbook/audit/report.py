"""What an audit found (:class:`AuditReport`), as tables, a summary and JSON.

The report holds one flat table per part of the audit; every row names its ``attribute``
(a group column, or ``"race & sex"`` for an intersection) and, where it has one, its
``group``. :meth:`AuditReport.to_frame` returns any of them, :meth:`AuditReport.to_json`
all of them, :meth:`AuditReport.to_text` and :meth:`AuditReport.to_html` render them.

JSON schema (``"schema": "fairbook.audit/1"``)
------------------------------------------------
The document is one object with four keys, always present:

``schema``
    ``"fairbook.audit/1"``; a change of a key's meaning or removal gets a new number.
``settings``
    How the audit ran: ``y_true, y_pred, positive, attributes, intersections,
    references`` (attribute → reference group), ``reference_rules`` (attribute →
    ``"given"``, ``"largest"`` or ``"combination"``), ``metrics, alpha, test`` (the test of
    each comparison: ``match, wald, score, fisher, boschloo`` or ``bayes``), ``test_name``
    (that test in words), ``min_gap, lam, interval_level, score, runs, samples, rows``.
``summary``
    ``tests`` (comparisons with a p-value), ``adjustment`` (a sentence: Holm over all
    of them), ``alpha``, and lists of objects: ``significant`` (the disparities that
    survive), ``small_groups`` (``attribute, group, n, metrics, reasons``, and
    ``exact_sizes``: beside each of ``metrics``, the test's exact size at the group's size
    or null, with ``size_notes`` saying why),
    ``small_references``, ``undefined`` (``attribute, group, metric, note``),
    ``uncertainty_unfair`` and ``flips`` (runs) and ``seven_metric_flips``.
``tables``
    ``{name: [record, ...] or null}`` for the names of :data:`TABLES`; a record is one
    row with exactly the keys of :data:`COLUMNS` ``[name]``. A table is ``null`` when its
    input was not given (``uncertainty`` without ``samples``, ``stability``,
    ``stability_seven_metrics`` and ``runs`` without ``runs``, ``scores`` without
    ``score``).

Values: numbers are JSON numbers; **NaN (undefined) and infinities are** ``null``, and the
row's ``note`` (comparisons, stability) says why; group labels keep their type (number,
text, boolean; dates as ISO text); intersection groups are text ``"White & Female"``.
:data:`JSON_SCHEMA` is the same description as a JSON Schema (draft 2020-12).
"""

from __future__ import annotations

import datetime
import json
import math
import numbers
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from fairbook.metrics import BIAS_REPORT_METRICS

from .comparisons import COMPARISON_COLUMNS
from .stability import STABILITY_COLUMNS

__all__ = ["COLUMNS", "GROUP_RATES", "JSON_SCHEMA", "SCHEMA", "TABLES", "AuditReport"]

#: Value of the JSON document's ``schema`` key.
SCHEMA = "fairbook.audit/1"

#: Rates of the per-group table (the rest are in ``rates``, one row per metric).
GROUP_RATES = ("PPR", "PREV", "ACC", "TPR", "FPR", "PPV", "B")

#: The tables of a report and what each holds.
TABLES = {
    "groups": "one row per group: counts, main rates, OFI and DI against the reference, "
    "which metrics flag it as small and which disparities survive",
    "rates": "one row per group and metric: raw score, interval, CPS-smoothed score",
    "comparisons": "one row per group (not the reference) and metric: gap, ratio, p-value of "
    "the chosen test, Holm-adjusted p-value, verdict, small-group reasons with the test's "
    "exact size",
    "overview": "one row per attribute and metric: min, max, difference, ratio over groups",
    "seven_metrics": "seed 004's seven bias metrics, one row per attribute (the pairwise ones "
    "between the two largest groups, named in largest and second)",
    "uncertainty": "one row per group: epistemic, aleatoric, predictive uncertainty and "
    "seed 000's ratios (samples only)",
    "stability": "one row per group and metric: spread over runs and verdict shares (runs)",
    "stability_seven_metrics": "one row per attribute and seven-metric: spread over runs",
    "runs": "the comparisons of every run (runs only)",
    "scores": "one row per group: score balance and calibration (score only)",
}

# types: i integer, n number (null when undefined), b boolean, s text, l a group label
_GROUP = {"group": "l", "attribute": "s"}
COLUMNS: dict[str, dict[str, str]] = {
    "groups": {
        **_GROUP,
        "n": "i",
        "share": "n",
        "is_reference": "b",
        "TP": "i",
        "FN": "i",
        "FP": "i",
        "TN": "i",
        **{rate: "n" for rate in GROUP_RATES},
        "OFI": "n",
        "DI": "n",
        "small": "b",
        "small_metrics": "s",
        "disparities": "s",
    },
    "rates": {
        **_GROUP,
        "metric": "s",
        "n": "i",
        "numerator": "i",
        "denominator": "i",
        "score": "n",
        "ci_low": "n",
        "ci_high": "n",
        "cps": "n",
        "is_reference": "b",
    },
    "comparisons": {
        **{c: "n" for c in COMPARISON_COLUMNS},
        **_GROUP,
        "metric": "s",
        "n": "i",
        "reference_group": "l",
        "reference_n": "i",
        "ratio_flag": "s",
        "significant": "b",
        "apparent": "b",
        "verdict": "s",
        "small": "b",
        "small_reasons": "s",
        "reference_small": "b",
        "note": "s",
        "size_note": "s",
    },
    "overview": {
        "attribute": "s",
        "metric": "s",
        "reference_group": "l",
        "reference_score": "n",
        "min_group": "l",
        "min": "n",
        "max_group": "l",
        "max": "n",
        "difference": "n",
        "ratio": "n",
        "groups": "i",
        "undefined": "i",
    },
    "seven_metrics": {
        "attribute": "s",
        "class": "l",
        **{m: "n" for m in BIAS_REPORT_METRICS},
        "largest": "l",
        "second": "l",
    },
    "uncertainty": {
        **_GROUP,
        "n": "i",
        "is_reference": "b",
        **{c: "n" for c in ("U_e", "U_a", "U_p", "U_e_se", "U_a_se", "U_p_se")},
        **{c: "n" for c in ("F_Epis", "F_Alea", "F_Pred")},
        **{c: "s" for c in ("F_Epis_flag", "F_Alea_flag", "F_Pred_flag")},
    },
    "stability": {
        **_GROUP,
        "metric": "s",
        "runs": "i",
        # the numeric columns of the stability table, between "runs" and "flips"
        **{
            c: "n"
            for c in STABILITY_COLUMNS[
                STABILITY_COLUMNS.index("runs") + 1 : STABILITY_COLUMNS.index("flips")
            ]
        },
        "flips": "b",
        "note": "s",
    },
    "stability_seven_metrics": {
        "attribute": "s",
        "metric": "s",
        "runs": "i",
        "mean": "n",
        "maxdiff": "n",
        "stdev": "n",
        "share_unfair": "n",
        "flip_rate": "n",
        "flips": "b",
    },
    "scores": {
        **_GROUP,
        "n": "i",
        "is_reference": "b",
        **{
            c: "n"
            for c in (
                "score_mean",
                "score_mean_positives",
                "score_mean_negatives",
                "positives_gap",
                "negatives_gap",
                "brier",
                "calibration_in_the_large",
            )
        },
    },
}
COLUMNS["comparisons"] = {c: COLUMNS["comparisons"][c] for c in COMPARISON_COLUMNS}
COLUMNS["runs"] = {"run": "s", **COLUMNS["comparisons"]}

_JSON_TYPES = {
    "i": {"type": "integer"},
    "n": {"type": ["number", "null"]},
    "b": {"type": "boolean"},
    "s": {"type": "string"},
    "l": {"type": ["string", "number", "boolean", "null"]},
}


def _table_schema(columns: dict) -> dict:
    return {
        "type": ["array", "null"],
        "items": {
            "type": "object",
            "required": list(columns),
            "additionalProperties": False,
            "properties": {name: _JSON_TYPES[kind] for name, kind in columns.items()},
        },
    }


#: The JSON document as a JSON Schema (draft 2020-12).
JSON_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "fairbook audit report",
    "type": "object",
    "required": ["schema", "settings", "summary", "tables"],
    "additionalProperties": False,
    "properties": {
        "schema": {"const": SCHEMA},
        "settings": {
            "type": "object",
            "required": [
                "y_true",
                "y_pred",
                "positive",
                "attributes",
                "intersections",
                "references",
                "reference_rules",
                "metrics",
                "alpha",
                "test",
                "test_name",
                "min_gap",
                "lam",
                "interval_level",
                "score",
                "runs",
                "samples",
                "rows",
            ],
        },
        "summary": {
            "type": "object",
            "required": [
                "tests",
                "adjustment",
                "alpha",
                "significant",
                "small_groups",
                "small_references",
                "undefined",
                "uncertainty_unfair",
                "flips",
                "seven_metric_flips",
            ],
        },
        "tables": {
            "type": "object",
            "required": list(TABLES),
            "additionalProperties": False,
            "properties": {name: _table_schema(COLUMNS[name]) for name in TABLES},
        },
    },
}


def _plain(value):
    """A value as JSON would hold it: numpy scalars unwrapped, NaN and infinities None."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, bool | str):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        value = float(value)
        return value if math.isfinite(value) else None
    if isinstance(value, datetime.datetime | datetime.date | pd.Timestamp):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return str(value)


def _records(frame: pd.DataFrame | None) -> list | None:
    if frame is None:
        return None
    return [{str(k): _plain(v) for k, v in row.items()} for row in frame.to_dict("records")]


@dataclass
class AuditReport:
    """What :func:`fairbook.audit.audit` found.

    Attributes
    ----------
    settings : dict
        The options of the audit (the JSON ``settings``).
    tables : dict of str to pandas.DataFrame or None
        The tables of :data:`TABLES`, flat (``group`` and ``attribute`` are columns).

    The properties ``groups``, ``versus_reference``, ``bias_metrics`` and ``reference``
    are the per-group views of the **first** attribute that the single-column audit
    returned before (indexed by group); ``positive`` is the positive label.

    Examples
    --------
    >>> from fairbook.audit import audit, predictions_frame
    >>> report = audit(predictions_frame([1, 0, 1, 0, 1, 1], [1, 1, 0, 0, 1, 1], list("aabbbb")))
    >>> report.reference, report.groups.loc["a", "n"]
    ('b', np.int64(2))
    >>> sorted(report.to_dict()["tables"])[:3]
    ['comparisons', 'groups', 'overview']
    """

    settings: dict
    tables: dict = field(default_factory=dict)

    # ------------------------------------------------------------------ views
    def group_names(self, attribute, *, width: int | None = None) -> dict:
        """``{group label: text}`` for one attribute as the text report and the HTML page
        print it: escaped, distinct, at most ``width`` characters
        (:func:`fairbook.audit.display_labels.shown_names`; computed once per attribute and width).

        Examples
        --------
        >>> from fairbook.audit import audit, predictions_frame
        >>> frame = predictions_frame([1, 0, 1, 0], [1, 1, 0, 0], ["a", "a", "a ", "a "])
        >>> audit(frame).group_names("group")
        {'a': 'a', 'a ': "'a '"}
        """
        from .display_labels import shown_names

        cache = self.__dict__.setdefault("_group_names", {})
        key = (attribute, width)
        if key not in cache:
            table = self.tables["groups"]
            labels = table.loc[table["attribute"] == attribute, "group"].tolist()
            cache[key] = dict(zip(labels, shown_names(labels, width=width), strict=True))
        return cache[key]

    @property
    def positive(self):
        """The positive (beneficial) label."""
        return self.settings["positive"]

    @property
    def references(self) -> dict:
        """``{attribute: reference group}``."""
        return dict(self.settings["references"])

    @property
    def attributes(self) -> list[str]:
        """The attributes audited (group columns, then the intersection if any)."""
        return list(self.settings["attributes"])

    @property
    def reference(self):
        """The first attribute's reference group."""
        return self.references[self.attributes[0]]

    def _first(self, name: str) -> pd.DataFrame:
        table = self.tables[name]
        part = table[table["attribute"] == self.attributes[0]]
        return part.set_index("group").drop(columns="attribute")

    @property
    def groups(self) -> pd.DataFrame:
        """The first attribute's groups: ``TP FN FP TN n`` and the main rates, by group."""
        return self._first("groups")[["TP", "FN", "FP", "TN", "n", *GROUP_RATES]]

    @property
    def versus_reference(self) -> pd.DataFrame:
        """OFI and DI of the first attribute's groups against its reference, by group."""
        table = self._first("groups")
        return table.loc[~table["is_reference"].to_numpy(bool), ["OFI", "DI"]]

    @property
    def seven_metrics(self) -> pd.DataFrame:
        """Deprecated since 1.0 (goes in 2.0): :attr:`bias_metrics`."""
        import warnings

        warnings.warn(
            "AuditReport.seven_metrics is deprecated since fairbook 1.0 and goes in 2.0: "
            "use AuditReport.bias_metrics",
            FutureWarning,
            stacklevel=2,
        )
        return self.bias_metrics

    @property
    def bias_metrics(self) -> pd.DataFrame:
        """Seed 004's seven bias metrics of the first attribute (empty with one group)."""
        table = self.tables["seven_metrics"]
        part = table[table["attribute"] == self.attributes[0]]
        frame = part.set_index("class")[list(BIAS_REPORT_METRICS)]
        if len(part):
            frame.attrs["groups"] = (
                _plain(part["largest"].iloc[0]),
                _plain(part["second"].iloc[0]),
            )
        return frame

    # ------------------------------------------------------------------ outputs
    def to_frame(self, table: str = "groups") -> pd.DataFrame:
        """One table of the report as a flat DataFrame (a copy).

        Parameters
        ----------
        table : str, default "groups"
            A name of :data:`TABLES`.

        Raises
        ------
        ValueError
            For an unknown name, or a table whose input was not given.
        """
        if table not in TABLES:
            raise ValueError(f"unknown table {table!r}; choose one of {', '.join(TABLES)}")
        frame = self.tables.get(table)
        if frame is None:
            need = {"uncertainty": "samples", "scores": "score"}.get(table, "runs")
            raise ValueError(f"the report has no {table} table: the audit was given no {need}")
        return frame.reset_index(drop=True).copy()

    def summary(self) -> dict:
        """The findings a reader needs first (the JSON ``summary``).

        Computed once per report (the text, HTML and JSON renderings all open with it);
        the lists inside are shared between calls, so copy them before changing them.

        Examples
        --------
        >>> from fairbook.audit import audit, predictions_frame
        >>> frame = predictions_frame([1, 0, 1, 0], [1, 1, 0, 0], list("aabb"))
        >>> audit(frame).summary()["tests"]  # 2 undefined
        5
        """
        from .summary import summarize

        cache = self.__dict__.setdefault("_summary", {})
        key = id(self.tables.get("comparisons"))  # a new comparisons table: summarise again
        if key not in cache:
            cache.clear()
            cache[key] = summarize(self)
        return dict(cache[key])

    def to_dict(self) -> dict:
        """The whole report as plain Python data (what :meth:`to_json` writes)."""
        return {
            "schema": SCHEMA,
            "settings": _plain(self.settings),
            "summary": _plain(self.summary()),
            "tables": {name: _records(self.tables.get(name)) for name in TABLES},
        }

    def to_json(self, *, indent: int | None = 2, ascii_only: bool = False) -> str:
        """The report as JSON text (schema in the module docstring; NaN is ``null``).

        ``ascii_only=True`` escapes every non-ASCII character (``\\u00eb``), so that no
        label from the data can act on a terminal; the command line uses it.
        """
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=ascii_only, allow_nan=False)

    def to_text(self, *, width: int = 100) -> str:
        """The report for a terminal, ``width`` columns wide; labels' control characters
        are escaped and every NaN is explained."""
        from .text import render_text

        return render_text(self, width=width)

    def to_html(self, *, title: str = "Fairness audit") -> str:
        """The report as one self-contained HTML page (images inline, no network)."""
        from .html_page import render_html

        return render_html(self, title=title)
