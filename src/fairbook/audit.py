"""Audit a user's own predictions with the book's metrics (``fairbook audit FILE``).

The input is a table (CSV or Parquet) with one row per person: a true label, a predicted
label and a group. The audit reports, per group, the confusion counts and the main rates
(with NaN where a rate is undefined), each group's marginal benefit, OFI and DI of each
group against a reference group, and seed 004's seven bias metrics.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from fairbook.confusion import CELLS, confusion_counts
from fairbook.labels import encode_values, label_array, label_position, show_value, show_values
from fairbook.metrics import bias_report, compare, compute

__all__ = [
    "PARQUET_SUFFIXES",
    "AuditReport",
    "audit",
    "audit_file",
    "printable",
    "read_predictions",
]

GROUP_RATES = ("PPR", "PREV", "ACC", "TPR", "FPR", "PPV", "B")
#: File suffixes read as Parquet (any case); everything else is read as CSV (``.tsv``: tabs).
PARQUET_SUFFIXES = (".parquet", ".pq")


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


def _printable_index(frame: pd.DataFrame) -> pd.DataFrame:
    shown = frame.copy()
    shown.index = pd.Index([printable(v) for v in frame.index], name=frame.index.name)
    return shown


@dataclass
class AuditReport:
    """What :func:`audit` found. ``to_text()`` renders it for a terminal."""

    groups: pd.DataFrame  # per group: TP FN FP TN n, rates, B
    versus_reference: pd.DataFrame  # per group: OFI, DI against the reference
    seven_metrics: pd.DataFrame  # seed 004's bias_report
    reference: object
    positive: object

    def to_text(self) -> str:
        """The report for a terminal; labels from the data have control characters escaped."""
        pair = self.seven_metrics.attrs.get("groups")
        pair = None if pair is None else tuple(printable(g) for g in pair)
        with pd.option_context("display.precision", 4, "display.width", 120):
            return "\n\n".join(
                [
                    f"Positive (beneficial) label: {show_value(self.positive)}; "
                    f"reference group: {show_value(self.reference)}",
                    "Per group (NaN = undefined for that group):\n"
                    + _printable_index(self.groups).to_string(),
                    "Against the reference group (OFI > 0 / DI > 1 favour the group):\n"
                    + _printable_index(self.versus_reference).to_string(),
                    "Seed 004's seven metrics (fractions; pairwise ones on the two largest "
                    f"groups {pair}):\n" + _printable_index(self.seven_metrics).to_string(),
                ]
            )


def audit(y_true, y_pred, groups, *, positive=1, reference=None) -> AuditReport:
    """Audit predictions of a binary classifier across groups.

    Parameters
    ----------
    y_true, y_pred, groups : array-like of shape (n,)
    positive : label, default 1
        The beneficial outcome (seed 003's "benefit"). It must occur in ``y_true`` or
        ``y_pred`` and have their type (``1``/``0`` stand for ``True``/``False``).
    reference : group label, optional
        The group everyone is compared with; default the largest group (ties: the first in
        sorted order).

    Raises
    ------
    ValueError
        For empty input, missing values, more than two labels, a ``positive`` that does not
        occur or has the wrong type, and a ``reference`` that is not a group.

    Examples
    --------
    >>> report = audit([1, 0, 1, 0], [1, 1, 0, 0], ["a", "a", "b", "b"])
    >>> round(float(report.versus_reference.loc["b", "OFI"]), 2)
    -1.0
    """
    y_true, y_pred = label_array(y_true, "y_true"), label_array(y_pred, "y_pred")
    if y_true.size == 0:
        raise ValueError("there are no rows to audit")
    counts, labels = confusion_counts(y_true, y_pred, groups, positive=positive, return_groups=True)
    if not counts[:, :3].any():  # no TP, FN or FP: the positive label occurs nowhere
        classes = encode_values(np.concatenate([y_true, y_pred]), name="labels")[0]
        raise ValueError(
            f"positive={show_value(positive)} occurs in neither y_true nor y_pred, whose labels "
            f"are {show_values(classes)}; name the beneficial label"
        )
    frame = pd.DataFrame(counts, index=pd.Index(labels, name="group"), columns=list(CELLS))
    frame["n"] = counts.sum(axis=1)
    for rate in GROUP_RATES:
        frame[rate] = compute(rate, counts)
    if reference is None:
        position = int(np.argmax(frame["n"].to_numpy()))
    else:
        position = label_position(labels, reference, what="reference", name="groups")
    reference = labels[position]
    reference = reference.item() if isinstance(reference, np.generic) else reference
    ref = frame.iloc[position][list(CELLS)].to_numpy(float)
    versus = pd.DataFrame(
        {
            "OFI": compare("OFI", counts.astype(float), ref),
            "DI": compare("DI", counts.astype(float), ref),
        },
        index=frame.index,
    )
    versus = versus.iloc[np.arange(len(versus)) != position]
    seven = (
        bias_report(y_true, y_pred, groups, positive=positive)
        if len(labels) > 1
        else pd.DataFrame()
    )
    return AuditReport(frame, versus, seven, reference, positive)


def read_predictions(path) -> pd.DataFrame:
    """Read a CSV (``.tsv``: tab-separated; ``.gz`` etc. decompressed) or Parquet file.

    Only empty cells are missing values: a group called ``NA`` or ``None`` stays a group.
    Parquet is recognised by the suffix ``.parquet`` or ``.pq`` in any case.

    Raises
    ------
    FileNotFoundError
        When there is no such file.
    ValueError
        When the path is a folder, the file is empty, not text, not valid CSV or Parquet, or
        has no rows.

    Examples
    --------
    >>> read_predictions("missing.csv")
    Traceback (most recent call last):
    ...
    FileNotFoundError: predictions file not found: missing.csv
    """
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{path} is a folder, not a file of predictions")
    if not path.is_file():
        raise FileNotFoundError(f"predictions file not found: {path}")
    suffix = path.suffix.lower()
    try:
        if suffix in PARQUET_SUFFIXES:
            frame = pd.read_parquet(path)
        else:
            frame = pd.read_csv(
                path,
                sep="\t" if suffix == ".tsv" else ",",
                keep_default_na=False,
                na_values=[""],
            )
    except pd.errors.EmptyDataError:
        raise ValueError(
            f"{path} is empty (expected a header row and one row per person)"
        ) from None
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not UTF-8 text; save it as UTF-8 CSV or Parquet") from None
    except pd.errors.ParserError as exc:
        raise ValueError(f"{path} is not valid CSV: {str(exc).strip()}") from None
    except (OSError, ValueError, TypeError, RuntimeError, ImportError) as exc:
        kind = "Parquet" if suffix in PARQUET_SUFFIXES else "CSV"
        raise ValueError(f"{path} could not be read as {kind}: {exc}") from None
    if frame.empty:
        raise ValueError(f"{path} has no rows")
    return frame


def audit_file(
    path,
    *,
    y_true: str = "y_true",
    y_pred: str = "y_pred",
    group: str = "group",
    positive=1,
    reference=None,
) -> AuditReport:
    """Audit the predictions stored in ``path`` (columns named by the options).

    ``positive`` and ``reference`` given as strings (as on a command line) are matched
    against the column values, converting to the column's type where possible.
    """
    frame = read_predictions(path)
    missing = [c for c in (y_true, y_pred, group) if c not in frame.columns]
    if missing:
        raise ValueError(
            f"{path}: missing column(s) {missing}; columns are "
            f"{list(frame.columns)} (use --y-true/--y-pred/--group to name them)"
        )
    if frame[[y_true, y_pred, group]].isna().any().any():
        bad = frame[[y_true, y_pred, group]].isna().sum()
        raise ValueError(
            f"{path}: missing values in {bad[bad > 0].to_dict()}; drop or fill them before auditing"
        )
    positive = _coerce(positive, frame[y_true], option="positive")
    reference = None if reference is None else _coerce(reference, frame[group], option="reference")
    return audit(
        frame[y_true].to_numpy(),
        frame[y_pred].to_numpy(),
        frame[group].to_numpy(),
        positive=positive,
        reference=reference,
    )


_TRUE_WORDS = {"true", "1", "yes"}
_FALSE_WORDS = {"false", "0", "no"}


def _coerce(value, column: pd.Series, *, option: str):
    """A command-line string read as a value of ``column``'s type, or a clear error.

    Examples
    --------
    >>> _coerce("1", pd.Series([0, 1]), option="--positive")
    1
    >>> _coerce("yes", pd.Series([True, False]), option="--positive")
    True
    >>> _coerce("1.5", pd.Series([0, 1]), option="--positive")
    Traceback (most recent call last):
    ...
    ValueError: --positive '1.5' is not a whole number, but the column holds integers
    """
    if not isinstance(value, str):
        return value
    kind = column.dtype.kind
    text = value.strip()
    if kind == "b":
        if text.lower() in _TRUE_WORDS:
            return True
        if text.lower() in _FALSE_WORDS:
            return False
        raise ValueError(f"{option} {value!r} is not true or false, but the column holds booleans")
    if kind in "iuf":
        try:
            number = float(text)
        except ValueError:
            raise ValueError(
                f"{option} {value!r} is not a number, but the column holds numbers"
            ) from None
        if kind == "f":
            return number
        if not number.is_integer():
            raise ValueError(
                f"{option} {value!r} is not a whole number, but the column holds integers"
            )
        return int(number)
    return value
