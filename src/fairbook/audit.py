"""Audit a user's own predictions with the book's metrics (``fairbook audit FILE``).

The input is a table (CSV or Parquet) with one row per person: a true label, a predicted
label and a group. The audit reports, per group, the confusion counts and the main rates
(with NaN where a rate is undefined), each group's marginal benefit, OFI and DI of each
group against a reference group, and seed 004's seven bias metrics.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from fairbook.confusion import CELLS, confusion_counts
from fairbook.metrics import bias_report, compare, compute

__all__ = ["AuditReport", "audit", "audit_file", "read_predictions"]

GROUP_RATES = ("PPR", "PREV", "ACC", "TPR", "FPR", "PPV", "B")


@dataclass
class AuditReport:
    """What :func:`audit` found. ``to_text()`` renders it for a terminal."""

    groups: pd.DataFrame  # per group: TP FN FP TN n, rates, B
    versus_reference: pd.DataFrame  # per group: OFI, DI against the reference
    seven_metrics: pd.DataFrame  # seed 004's bias_report
    reference: object
    positive: object

    def to_text(self) -> str:
        with pd.option_context("display.precision", 4, "display.width", 120):
            return "\n\n".join(
                [
                    f"Positive (beneficial) label: {self.positive!r}; "
                    f"reference group: {self.reference!r}",
                    "Per group (NaN = undefined for that group):\n" + self.groups.to_string(),
                    "Against the reference group (OFI > 0 / DI > 1 favour the group):\n"
                    + self.versus_reference.to_string(),
                    "Seed 004's seven metrics (fractions; pairwise ones on the two largest "
                    f"groups {self.seven_metrics.attrs.get('groups')}):\n"
                    + self.seven_metrics.to_string(),
                ]
            )


def audit(y_true, y_pred, groups, *, positive=1, reference=None) -> AuditReport:
    """Audit predictions of a binary classifier across groups.

    Parameters
    ----------
    y_true, y_pred, groups : array-like of shape (n,)
    positive : label, default 1
        The beneficial outcome (seed 003's "benefit").
    reference : group label, optional
        The group everyone is compared with; default the largest group.

    Examples
    --------
    >>> report = audit([1, 0, 1, 0], [1, 1, 0, 0], ["a", "a", "b", "b"])
    >>> round(float(report.versus_reference.loc["b", "OFI"]), 2)
    -1.0
    """
    counts, labels = confusion_counts(y_true, y_pred, groups, positive=positive, return_groups=True)
    frame = pd.DataFrame(counts, index=pd.Index(labels, name="group"), columns=list(CELLS))
    frame["n"] = counts.sum(axis=1)
    for rate in GROUP_RATES:
        frame[rate] = compute(rate, counts)
    if reference is None:
        reference = labels[int(np.argmax(frame["n"].to_numpy()))]
        reference = reference.item() if hasattr(reference, "item") else reference
    elif reference not in set(labels.tolist()):
        raise ValueError(f"reference group {reference!r} not among {labels.tolist()}")
    ref = frame.loc[reference, list(CELLS)].to_numpy(float)
    versus = pd.DataFrame(
        {
            "OFI": compare("OFI", counts.astype(float), ref),
            "DI": compare("DI", counts.astype(float), ref),
        },
        index=frame.index,
    )
    versus = versus.drop(index=reference)
    seven = (
        bias_report(y_true, y_pred, groups, positive=positive)
        if len(labels) > 1
        else pd.DataFrame()
    )
    return AuditReport(frame, versus, seven, reference, positive)


def read_predictions(path) -> pd.DataFrame:
    """Read a CSV (or ``.parquet``) file of predictions; a clear error if it can't.

    Examples
    --------
    >>> read_predictions("missing.csv")
    Traceback (most recent call last):
    ...
    FileNotFoundError: predictions file not found: missing.csv
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"predictions file not found: {path}")
    if path.suffix == ".parquet":
        return pd.read_parquet(path)
    return pd.read_csv(path)


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
    positive = _coerce(positive, frame[y_true])
    reference = None if reference is None else _coerce(reference, frame[group])
    return audit(
        frame[y_true].to_numpy(),
        frame[y_pred].to_numpy(),
        frame[group].to_numpy(),
        positive=positive,
        reference=reference,
    )


def _coerce(value, column: pd.Series):
    if isinstance(value, str) and column.dtype.kind in "iufb":
        try:
            return column.dtype.type(float(value))
        except ValueError:
            return value
    return value
