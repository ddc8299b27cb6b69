"""Compare a re-run with its recording: bits under the same kernels, else a tolerance and
equal verdicts.

:func:`compare_tables` takes the recorded table and the table computed again here, aligned
row for row, and says

* whether every column that is not a computed value is equal (identifiers, counts, texts:
  a difference there is a difference of structure and always fails);
* the largest absolute and relative deviation of the computed ``values`` columns;
* how many ``hashes`` (digests of predictions or weights) differ — the bits themselves;
* which verdicts flip: ``verdicts(table)`` gives one label per judged quantity (a sign, a
  flag, a ranking); a label that changes to the opposite one is a **flip**, and fails
  whatever the tolerance; a label that moves into the undecided band (:data:`UNDECIDED`) is
  reported as **weakened**.

Under the same kernel signature the values and hashes must be bit-identical; under another
(or an unknown) one the values must agree within the :class:`Tolerance`, whose ``source``
says where it was measured.

Examples
--------
>>> import pandas as pd
>>> rec = pd.DataFrame({"metric": ["OFI", "DI"], "value": [0.25, -0.5]})
>>> again = rec.assign(value=[0.2500001, -0.5])
>>> c = compare_tables(rec, again, values=["value"], tolerance=Tolerance(1e-4, 0, "example"),
...                    same_signature=False, verdicts=lambda t: signs(t, "value", keys=["metric"]))
>>> c.passed, c.status
(True, 'within tolerance')
>>> compare_tables(rec, again, values=["value"], tolerance=Tolerance(1e-4, 0, "example"),
...                same_signature=True).status
'differs: bits differ under the same kernel signature'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

__all__ = ["UNDECIDED", "Comparison", "Tolerance", "compare_tables", "ratio_sides", "signs"]

#: The label of a quantity too close to its threshold to call (within the tolerance).
UNDECIDED = "undecided"


@dataclass(frozen=True)
class Tolerance:
    """How far a value computed under other kernels may be from the recorded one.

    ``|again - recorded| <= absolute + relative * |recorded|`` (numpy's ``isclose``).
    ``source`` says where the numbers come from (the measured spread they cover). ``band``:
    a verdict whose value lies within ``band`` of its threshold is undecided (the largest
    deviation measured across signatures; a flip beyond it is a flip, whatever the
    tolerance).
    """

    absolute: float
    relative: float
    source: str
    band: float = 0.0

    def allows(self, recorded: np.ndarray, again: np.ndarray) -> np.ndarray:
        """Elementwise: within the tolerance (NaN only beside NaN)."""
        recorded, again = np.asarray(recorded, float), np.asarray(again, float)
        both_nan = np.isnan(recorded) & np.isnan(again)
        close = np.abs(again - recorded) <= self.absolute + self.relative * np.abs(recorded)
        return both_nan | close


@dataclass
class Comparison:
    """The outcome of one comparison (:func:`compare_tables`)."""

    rows: int
    mode: str  # "bits" (same signature, or an invariant) or "tolerance"
    structure: list[str] = field(default_factory=list)
    max_abs: float = 0.0
    max_rel: float = 0.0
    outside: int = 0
    bit_identical: bool = True
    hashes: int = 0
    hashes_differ: int = 0
    judged: int = 0
    flips: list[str] = field(default_factory=list)
    weakened: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """True when structure is equal, no verdict flips, and the values are bit-identical
        (mode ``bits``) or within the tolerance (mode ``tolerance``)."""
        if self.structure or self.flips:
            return False
        return self.bit_identical if self.mode == "bits" else self.outside == 0

    @property
    def status(self) -> str:
        """``bit-identical``, ``within tolerance`` or ``differs: ...`` (why)."""
        if self.structure:
            return "differs: " + self.structure[0]
        if self.flips:
            return f"differs: {len(self.flips)} verdict(s) flip"
        if self.bit_identical:
            return "bit-identical"
        if self.mode == "bits":
            return "differs: bits differ under the same kernel signature"
        if self.outside:
            return f"differs: {self.outside} value(s) outside the tolerance"
        return "within tolerance"


def _deviation(recorded: np.ndarray, again: np.ndarray) -> tuple[float, float]:
    finite = np.isfinite(recorded) & np.isfinite(again)
    if not finite.any():
        return 0.0, 0.0
    diff = np.abs(again[finite] - recorded[finite])
    scale = np.abs(recorded[finite])
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.where(diff == 0, 0.0, diff / scale)
    return float(diff.max()), float(np.nanmax(rel)) if rel.size else 0.0


def compare_tables(
    recorded: pd.DataFrame,
    again: pd.DataFrame,
    *,
    values: Sequence[str],
    tolerance: Tolerance,
    same_signature: bool,
    hashes: Sequence[str] = (),
    verdicts: Callable[[pd.DataFrame], pd.Series] | None = None,
) -> Comparison:
    """Compare a re-run with its recording (module docstring).

    Parameters
    ----------
    recorded, again : pandas.DataFrame
        The same rows in the same order; every column not in ``values`` or ``hashes`` must
        be equal (compared as text, so dtypes that print alike compare alike).
    values : sequence of str
        Computed numbers: bits under the same signature, else the tolerance.
    tolerance : Tolerance
    same_signature : bool
        Whether this machine's kernel signature equals the recording's.
    hashes : sequence of str
        Digests of computed state: equal bits under the same signature; elsewhere counted.
    verdicts : callable, optional
        ``verdicts(table) -> Series`` of labels indexed by what they judge.

    Returns
    -------
    Comparison
    """
    mode = "bits" if same_signature else "tolerance"
    recorded = recorded.reset_index(drop=True)
    again = again.reset_index(drop=True)
    out = Comparison(rows=len(recorded), mode=mode)
    if len(recorded) != len(again):
        out.structure.append(f"{len(again)} rows here, {len(recorded)} recorded")
        out.bit_identical = False
        return out
    if set(recorded.columns) != set(again.columns):
        out.structure.append(
            f"columns differ: {sorted(set(recorded.columns) ^ set(again.columns), key=str)}"
        )
        out.bit_identical = False
        return out
    for column in recorded.columns:
        if column in values or column in hashes:
            continue
        a = recorded[column].astype(object).where(recorded[column].notna(), None).astype(str)
        b = again[column].astype(object).where(again[column].notna(), None).astype(str)
        if not a.equals(b):
            where = int(np.flatnonzero(a.to_numpy() != b.to_numpy())[0])
            out.structure.append(
                f"column {column!r} differs at row {where}: {b[where]!r} here, "
                f"{a[where]!r} recorded"
            )
    for column in values:
        a = recorded[column].to_numpy(dtype=float, na_value=np.nan)
        b = again[column].to_numpy(dtype=float, na_value=np.nan)
        bits = np.array_equal(a, b, equal_nan=True)
        out.bit_identical &= bits
        if bits:
            continue
        nan_mismatch = int((np.isnan(a) != np.isnan(b)).sum())
        if nan_mismatch:
            out.structure.append(f"{column!r}: {nan_mismatch} value(s) undefined on one side only")
        mx_abs, mx_rel = _deviation(a, b)
        out.max_abs, out.max_rel = max(out.max_abs, mx_abs), max(out.max_rel, mx_rel)
        out.outside += int((~tolerance.allows(a, b)).sum())
    for column in hashes:
        differ = int((recorded[column].astype(str) != again[column].astype(str)).sum())
        out.hashes += len(recorded)
        out.hashes_differ += differ
        out.bit_identical &= differ == 0
    if verdicts is not None and not out.structure:
        then, now = verdicts(recorded), verdicts(again)
        out.judged = len(then)
        if not then.index.equals(now.index):
            if then.index.has_duplicates or now.index.has_duplicates:
                raise ValueError("verdict labels must be indexed by unique keys")
            now = now.reindex(then.index, fill_value="missing")
        for key, a, b in zip(then.index, then.to_numpy(), now.to_numpy(), strict=True):
            if a == b:
                continue
            text = f"{key}: {a} recorded, {b} here"
            (out.weakened if UNDECIDED in (a, b) else out.flips).append(text)
    return out


def _label(value: float, *, centre: float, band: float, below: str, above: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "undefined"
    if abs(value - centre) <= band:
        return UNDECIDED
    return above if value > centre else below


def signs(table: pd.DataFrame, column: str, *, keys: Sequence[str], band: float = 0.0) -> pd.Series:
    """The sign of each value as a verdict (``+``, ``-``, or :data:`UNDECIDED` within
    ``band`` of 0), indexed by the ``keys`` columns joined with ``/``.

    Examples
    --------
    >>> t = pd.DataFrame({"m": ["a", "b", "c"], "v": [0.3, -0.2, 1e-9]})
    >>> signs(t, "v", keys=["m"], band=1e-6).tolist()
    ['+', '-', 'undecided']
    """
    index = table[list(keys)].astype(str).agg("/".join, axis=1)
    labels = [_label(v, centre=0.0, band=band, below="-", above="+") for v in table[column]]
    return pd.Series(labels, index=index.to_numpy())


def ratio_sides(
    table: pd.DataFrame, column: str, *, keys: Sequence[str], band: float = 0.0
) -> pd.Series:
    """Which side of 1 each ratio lies on (``>1``, ``<1``, or :data:`UNDECIDED`).

    Examples
    --------
    >>> t = pd.DataFrame({"m": ["a", "b"], "v": [1.5, 0.7]})
    >>> ratio_sides(t, "v", keys=["m"]).tolist()
    ['>1', '<1']
    """
    index = table[list(keys)].astype(str).agg("/".join, axis=1)
    labels = [_label(v, centre=1.0, band=band, below="<1", above=">1") for v in table[column]]
    return pd.Series(labels, index=index.to_numpy())
