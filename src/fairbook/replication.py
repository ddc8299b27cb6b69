"""Put a paper's printed number beside ours, with the difference and a verdict.

Every replicated table in the book goes through :func:`replication_table`, so the rule
for "matches" is the same everywhere: the paper prints rounded numbers, so ours matches
when it rounds to the printed value, i.e. ``|ours − paper| ≤ ½·10^(−decimals)``
(plus an optional extra tolerance for quantities that are themselves estimates).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

__all__ = ["replication_table", "verdict"]


def verdict(paper: float, ours: float, *, decimals: int = 2, extra: float = 0.0) -> str:
    """Compare one printed value with ours.

    Parameters
    ----------
    paper : float
        The printed value (NaN where the paper prints "undefined"/"NaN").
    ours : float
    decimals : int, default 2
        Decimals the paper printed; sets the rounding tolerance.
    extra : float, default 0
        Additional absolute tolerance (e.g. Monte Carlo error).

    Returns
    -------
    str
        ``"matches"``, ``"differs"``, ``"both undefined"``, ``"ours undefined"`` or
        ``"paper undefined"``.

    Examples
    --------
    >>> verdict(-0.06, -0.0556)
    'matches'
    >>> verdict(0.38, 0.40)
    'differs'
    """
    paper_nan, ours_nan = bool(np.isnan(paper)), bool(np.isnan(ours))
    if paper_nan and ours_nan:
        return "both undefined"
    if paper_nan:
        return "paper undefined"
    if ours_nan:
        return "ours undefined"
    tolerance = 0.5 * 10.0 ** (-decimals) + extra + 1e-9
    return "matches" if abs(ours - paper) <= tolerance else "differs"


def replication_table(rows: Iterable[Mapping]) -> pd.DataFrame:
    """Build the paper-vs-ours table of a chapter.

    Parameters
    ----------
    rows : iterable of mappings
        Each with ``quantity`` (str), ``paper`` and ``ours`` (floats); optional
        ``decimals`` (default 2), ``extra`` tolerance and ``note``.

    Returns
    -------
    pandas.DataFrame
        Columns ``quantity, paper, ours, difference, verdict, note``; ``difference`` is
        ``ours − paper``.

    Examples
    --------
    >>> t = replication_table([{"quantity": "OFI (A)", "paper": -0.06, "ours": -0.0556}])
    >>> t.loc[0, "verdict"]
    'matches'
    """
    records = []
    for row in rows:
        if "quantity" not in row or "paper" not in row or "ours" not in row:
            raise ValueError(f"each row needs quantity, paper and ours; got {sorted(row)}")
        paper, ours = float(row["paper"]), float(row["ours"])
        records.append(
            {
                "quantity": row["quantity"],
                "paper": paper,
                "ours": ours,
                "difference": ours - paper,
                "verdict": verdict(
                    paper, ours, decimals=row.get("decimals", 2), extra=row.get("extra", 0.0)
                ),
                "note": row.get("note", ""),
            }
        )
    return pd.DataFrame.from_records(
        records, columns=["quantity", "paper", "ours", "difference", "verdict", "note"]
    )
