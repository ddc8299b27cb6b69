"""Put a paper's printed number beside ours, with the difference and a verdict.

Every replicated table in the book is a list of :class:`Row` objects turned into a table by
:func:`replication_table`. A row names the *rule* that judges it, so the rule for "matches"
is stated once, here, and is the same wherever it is used:

* :class:`Rounding` — the paper prints rounded numbers, so ours matches when it rounds to
  the printed value, i.e. ``|ours − paper| ≤ ½·10^(−decimals)`` (plus an optional extra
  absolute tolerance for quantities that are themselves estimates);
* :class:`Bound` — the paper prints a bound (upper: ours must be below it; lower: at or
  above it);
* :class:`SameSign` — only the direction is compared (an effect the paper reports as an
  improvement must be an improvement here too).

Functions that build a chapter's rows for one of the paper's tables are named
``<table>_replication`` (``table_3_1_replication``, ``theorem_4_3_replication``) and return
the table of :func:`replication_table`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = [
    "COLUMNS",
    "Bound",
    "Rounding",
    "Row",
    "SameSign",
    "replication_table",
    "verdict",
]

#: The columns of every replication table, in order.
COLUMNS = ("quantity", "paper", "ours", "difference", "verdict", "note")


def _undefined(paper: float, ours: float) -> str | None:
    paper_nan, ours_nan = math.isnan(paper), math.isnan(ours)
    if paper_nan and ours_nan:
        return "both undefined"
    if paper_nan:
        return "paper undefined"
    if ours_nan:
        return "ours undefined"
    return None


@dataclass(frozen=True)
class Rounding:
    """Ours matches when it rounds to the printed value.

    Parameters
    ----------
    decimals : int, default 2
        Decimals the paper printed; the tolerance is half a unit in the last place.
    extra : float, default 0
        Additional absolute tolerance (e.g. a Monte Carlo error).

    Examples
    --------
    >>> Rounding(decimals=2).judge(-0.06, -0.0556)
    'matches'
    >>> Rounding(decimals=2).judge(0.38, 0.40)
    'differs'
    """

    decimals: int = 2
    extra: float = 0.0
    name = "rounding"

    def judge(self, paper: float, ours: float) -> str:
        """``"matches"``, ``"differs"`` or which side is undefined."""
        undefined = _undefined(paper, ours)
        if undefined:
            return undefined
        tolerance = 0.5 * 10.0 ** (-self.decimals) + self.extra + 1e-9
        return "matches" if abs(ours - paper) <= tolerance else "differs"


@dataclass(frozen=True)
class Bound:
    """The printed value is a bound: ``upper`` holds when ours < paper, ``lower`` when
    ours ≥ paper.

    Examples
    --------
    >>> Bound("upper").judge(22.6, 48.0)
    'upper bound fails'
    >>> Bound("lower").judge(5.0, 5.0)
    'lower bound holds'
    """

    kind: str
    name = "bound"

    def __post_init__(self):
        if self.kind not in ("upper", "lower"):
            raise ValueError(f"a bound is 'upper' or 'lower', not {self.kind!r}")

    def judge(self, paper: float, ours: float) -> str:
        """``"<kind> bound holds"``, ``"<kind> bound fails"`` or ``"ours undefined"``."""
        if math.isnan(ours):
            return "ours undefined"
        ok = ours < paper if self.kind == "upper" else ours >= paper
        return f"{self.kind} bound {'holds' if ok else 'fails'}"


@dataclass(frozen=True)
class SameSign:
    """Only the sign is compared; a printed (−)0 has no sign to compare.

    Examples
    --------
    >>> SameSign().judge(0.041, 0.12)
    'yes'
    >>> SameSign().judge(0.0, -0.3)
    'paper ±0'
    """

    name = "same sign"

    def judge(self, paper: float, ours: float) -> str:
        """``"yes"``, ``"no"``, ``"paper ±0"`` or ``"ours undefined"``."""
        if paper == 0:
            return "paper ±0"
        if not np.isfinite(ours):
            return "ours undefined"
        return "yes" if np.sign(ours) == np.sign(paper) else "no"


@dataclass(frozen=True)
class Row:
    """One paper number beside ours.

    Parameters
    ----------
    quantity : str
        What is compared, as the chapter's table names it.
    paper, ours : float
        The printed value and ours (NaN where undefined).
    rule : Rounding, Bound or SameSign, default ``Rounding()``
        The named rule that gives the verdict.
    note : str, default ""
        Why a difference arises, where known; the spread over seeds; a caveat.
    source : str, default ""
        The paper's table, figure or theorem (``"seed 003 Table 3.1"``).

    Examples
    --------
    >>> row = Row("OFI (A)", -0.06, -0.0556, source="seed 003 Table 3.1")
    >>> row.verdict
    'matches'
    """

    quantity: str
    paper: float
    ours: float
    rule: Rounding | Bound | SameSign = Rounding()
    note: str = ""
    source: str = ""

    def __post_init__(self):
        if not isinstance(self.quantity, str) or not self.quantity:
            raise ValueError(f"a row's quantity is a non-empty string, not {self.quantity!r}")
        for field_name in ("paper", "ours"):
            value = getattr(self, field_name)
            try:
                object.__setattr__(self, field_name, float(value))
            except (TypeError, ValueError):
                raise ValueError(
                    f"row {self.quantity!r}: {field_name} must be a number, not {value!r}"
                ) from None
        if not hasattr(self.rule, "judge"):
            raise ValueError(f"row {self.quantity!r}: rule must be a named rule, not {self.rule!r}")

    @property
    def verdict(self) -> str:
        """The rule's verdict on this row."""
        return self.rule.judge(self.paper, self.ours)


def verdict(paper: float, ours: float, *, decimals: int = 2, extra: float = 0.0) -> str:
    """Compare one printed value with ours by the rounding rule (:class:`Rounding`).

    Examples
    --------
    >>> verdict(-0.06, -0.0556)
    'matches'
    >>> verdict(0.38, 0.40)
    'differs'
    """
    return Rounding(decimals=decimals, extra=extra).judge(float(paper), float(ours))


def replication_table(rows: Iterable[Row]) -> pd.DataFrame:
    """Build the paper-vs-ours table of a chapter.

    Parameters
    ----------
    rows : iterable of Row

    Returns
    -------
    pandas.DataFrame
        Columns :data:`COLUMNS`; ``difference`` is ``ours − paper``. The rows themselves
        (with their rules and sources) are kept in ``attrs["rows"]``.

    Examples
    --------
    >>> t = replication_table([Row("OFI (A)", -0.06, -0.0556)])
    >>> t.loc[0, "verdict"]
    'matches'
    """
    rows = tuple(rows)
    for row in rows:
        if not isinstance(row, Row):
            raise TypeError(f"replication_table takes Row objects, not {type(row).__name__}")
    table = pd.DataFrame.from_records(
        [
            {
                "quantity": row.quantity,
                "paper": row.paper,
                "ours": row.ours,
                "difference": row.ours - row.paper,
                "verdict": row.verdict,
                "note": row.note,
            }
            for row in rows
        ],
        columns=list(COLUMNS),
    )
    table.attrs["rows"] = rows
    return table
