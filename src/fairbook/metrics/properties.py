"""Decide seed 003's desirable properties of a bias metric by exhaustive enumeration.

Every pair of confusion matrices with ``1 ≤ n ≤ n_max`` people per group is scored (for
``n_max = 12``: 1,819 matrices, 3.3 million ordered pairs), and each property of
Definitions 3.8–3.14 becomes a check over all of them:

real-valued (Def. 3.8)
    the metric takes more than two distinct values (a pass/fail check takes two).
directed (Def. 3.9)
    there is a pivot ``p`` (0 for differences, 1 for ratios) and swapping the groups moves
    every defined score to the other side of it: ``sign(M(i,j) − p) = −sign(M(j,i) − p)``.
symmetric (Def. 3.10)
    ``|M(i,j)| = |M(j,i)|`` for every pair where both are defined (Eq. 3.8 as printed).
bounded (Def. 3.11)
    the largest ``|score|`` is already reached with groups of at most ``n_max // 2``
    people. A metric whose extreme keeps growing with ``n`` (a ratio with a count that
    can be 1 in the denominator) is unbounded. Boolean checks are bounded (finite set).
defined everywhere (Def. 3.12)
    no pair of non-empty groups gives NaN.
objective testing (Defs. 3.13–3.14, operationalised)
    (a) the metric's verdict agrees with the marginal benefits: ``M(i,j) > p`` exactly when
    ``B_i > B_j`` (in one fixed orientation, for every defined pair), and (b) one more
    false positive for group ``i`` never lowers the score toward ``j`` and one more false
    negative never raises it (Eq. 3.11's "b ↑ or E[b] ↓"), and the mirror for group ``j``.
    Eq. 3.11's last two lines ("correct predictions move the score toward 0") constrain
    the intra-group score B itself, not a difference of two of them, so they are checked
    on B in the tests, not here.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np
import pandas as pd

from fairbook.metrics.group import COMPARISONS, compare
from fairbook.metrics.rates import compute

__all__ = [
    "PAPER_TABLE_3_2",
    "PROPERTIES",
    "PropertyCheck",
    "all_confusion_matrices",
    "check_properties",
    "property_table",
]

PROPERTIES = ("OBJ", "R", "DIR", "SYM", "BND", "ALL")

#: Seed 003 Table 3.2's ticks as printed (True = ✓), in the column order of PROPERTIES.
PAPER_TABLE_3_2 = {
    "ACCD": (False, True, True, True, True, True),
    "MCCD": (False, True, True, True, True, False),
    "DI": (False, True, True, False, False, False),
    "PP": (False, True, True, True, True, False),
    "TE": (False, True, True, True, False, False),
    "EO": (False, False, False, True, True, False),
    "SP": (False, False, False, True, True, True),
    "AAOD": (False, True, False, True, True, False),
    "DCA": (False, True, True, True, False, False),
    "DCR": (False, True, True, True, False, False),
    "DPPL": (False, True, True, True, True, True),
    "OFI": (True, True, True, True, True, True),
}

_TOL = 1e-12


def all_confusion_matrices(n_max: int, *, n_min: int = 1) -> np.ndarray:
    """Every ``[TP, FN, FP, TN]`` with ``n_min ≤ TP+FN+FP+TN ≤ n_max``.

    Examples
    --------
    >>> all_confusion_matrices(1).tolist()
    [[0, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 0]]
    >>> len(all_confusion_matrices(12))
    1819
    """
    if not isinstance(n_max, int | np.integer) or n_max < 1:
        raise ValueError(f"n_max must be a positive integer, got {n_max!r}")
    grid = np.indices((n_max + 1,) * 4).reshape(4, -1).T
    total = grid.sum(axis=1)
    return grid[(total >= n_min) & (total <= n_max)]


@dataclass
class PropertyCheck:
    """Result of :func:`check_properties` for one metric."""

    metric: str
    OBJ: bool
    R: bool
    DIR: bool
    SYM: bool
    BND: bool
    ALL: bool
    pivot: float | None
    observed_min: float
    observed_max: float
    share_undefined: float
    counterexamples: dict = field(default_factory=dict)

    def ticks(self) -> tuple[bool, ...]:
        return tuple(getattr(self, p) for p in PROPERTIES)


def _first(mask: np.ndarray, cms: np.ndarray, *values) -> dict | None:
    hits = np.argwhere(mask)
    if hits.size == 0:
        return None
    i, j = hits[0]
    out = {"cm_i": cms[i].astype(int).tolist(), "cm_j": cms[j].astype(int).tolist()}
    for k, v in enumerate(values):
        out[f"value_{k}"] = float(v[i, j])
    return out


def check_properties(name: str, *, n_max: int = 12) -> PropertyCheck:
    """Decide the six properties of a Table 3.2 metric over all pairs with ``n ≤ n_max``.

    Parameters
    ----------
    name : str
        A name of :data:`fairbook.metrics.COMPARISONS`.
    n_max : int, default 12
        Largest group size enumerated (memory grows like ``n_max**8``; 12 takes ~1 s).

    Returns
    -------
    PropertyCheck
        The six verdicts, the pivot, the observed range, the share of undefined pairs and
        one counterexample per failed property.

    Examples
    --------
    >>> check_properties("OFI", n_max=4).ticks()
    (True, True, True, True, True, True)
    >>> check_properties("DI", n_max=4).SYM
    False
    """
    key = name.upper() if isinstance(name, str) else name
    if key not in COMPARISONS:
        raise ValueError(f"unknown comparison {name!r}; choose one of {', '.join(COMPARISONS)}")
    info = COMPARISONS[key]
    cms = all_confusion_matrices(n_max).astype(np.float64)
    ci, cj = cms[:, None, :], cms[None, :, :]
    forward = np.asarray(compare(key, ci, cj))
    backward = forward.T
    defined = ~np.isnan(forward)
    both = defined & ~np.isnan(backward)
    values = forward[defined]
    examples: dict[str, dict | None] = {}

    real_valued = np.unique(np.round(values, 12)).size > 2
    if not real_valued:
        examples["R"] = {"distinct_values": np.unique(values).tolist()}

    pivot = info.pivot
    if pivot is None:
        directed = False
        examples["DIR"] = {"reason": "a pass/fail check has no pivot"}
    else:
        flips = np.sign(np.round(forward - pivot, 12)) == -np.sign(np.round(backward - pivot, 12))
        bad = both & ~flips
        directed = not bad.any() and (values > pivot).any() and (values < pivot).any()
        if bad.any():
            examples["DIR"] = _first(bad, cms, forward, backward)

    asym = both & ~np.isclose(np.abs(forward), np.abs(backward), rtol=0, atol=1e-9)
    symmetric = not asym.any()
    if asym.any():
        examples["SYM"] = _first(asym, cms, forward, backward)

    sizes = cms.sum(axis=1)
    small = (sizes[:, None] <= n_max // 2) & (sizes[None, :] <= n_max // 2) & defined
    extreme_all = float(np.max(np.abs(values))) if values.size else np.nan
    extreme_small = float(np.max(np.abs(forward[small]))) if small.any() else np.nan
    bounded = info.boolean or bool(np.isclose(extreme_all, extreme_small))
    if not bounded:
        examples["BND"] = {
            f"max |score| with n <= {n_max // 2}": extreme_small,
            f"max |score| with n <= {n_max}": extreme_all,
        }

    defined_everywhere = bool(defined.all())
    if not defined_everywhere:
        examples["ALL"] = _first(~defined, cms, forward)

    objective, why = _objective_testing(key, cms, ci, cj, forward, defined, pivot)
    if not objective:
        examples["OBJ"] = why

    return PropertyCheck(
        metric=key,
        OBJ=objective,
        R=bool(real_valued),
        DIR=bool(directed),
        SYM=symmetric,
        BND=bounded,
        ALL=defined_everywhere,
        pivot=pivot,
        observed_min=float(values.min()) if values.size else np.nan,
        observed_max=float(values.max()) if values.size else np.nan,
        share_undefined=float(1 - defined.mean()),
        counterexamples={k: v for k, v in examples.items() if v is not None},
    )


def _objective_testing(key, cms, ci, cj, forward, defined, pivot):
    """Check (a) agreement with B_i − B_j and (b) monotonicity in FP and FN."""
    if pivot is None:
        return False, {"reason": "a pass/fail check cannot order marginal benefits"}
    benefit_gap = compute("B", ci) - compute("B", cj)
    verdict = np.sign(np.round(forward - pivot, 12))
    truth = np.sign(np.round(benefit_gap, 12))
    orientation = 1.0
    if (verdict[defined] == -truth[defined]).mean() > (verdict[defined] == truth[defined]).mean():
        orientation = -1.0
    disagree = defined & (orientation * verdict != truth)
    if disagree.any():
        return False, {
            "rule": "M(i,j) > p exactly when B_i > B_j",
            **_first(disagree, cms, forward, benefit_gap),
        }
    one = np.eye(4)
    fp, fn = one[2], one[1]
    rules = [  # (perturbed i, perturbed j, expected sign of the change, description)
        (ci + fp, cj, +1, "one more FP for group i must not lower the score"),
        (ci + fn, cj, -1, "one more FN for group i must not raise the score"),
        (ci, cj + fp, -1, "one more FP for group j must not raise the score"),
        (ci, cj + fn, +1, "one more FN for group j must not lower the score"),
    ]
    for new_i, new_j, direction, rule in rules:
        moved = orientation * direction * (np.asarray(compare(key, new_i, new_j)) - forward)
        bad = defined & (moved < -1e-12)
        if bad.any():
            return False, {"rule": rule, **_first(bad, cms, forward)}
    return True, None


def property_table(names=None, *, n_max: int = 12) -> pd.DataFrame:
    """Our verdicts beside seed 003 Table 3.2's ticks, one row per metric.

    Returns
    -------
    pandas.DataFrame
        Index: metric. Columns: for each property ``P`` in ``OBJ R DIR SYM BND ALL`` the
        pair ``P`` (ours) and ``P_paper``; ``agree`` (all six match); ``disagree_on``;
        ``observed_min``, ``observed_max``, ``share_undefined``.
        ``df.attrs["checks"]`` holds the :class:`PropertyCheck` objects (with
        counterexamples) by metric.

    Examples
    --------
    >>> table = property_table(["OFI", "DI"], n_max=4)
    >>> bool(table.loc["OFI", "agree"])
    True
    """
    names = list(PAPER_TABLE_3_2) if names is None else [n.upper() for n in names]
    rows, checks = [], {}
    for name in names:
        check = check_properties(name, n_max=n_max)
        checks[name] = check
        paper = PAPER_TABLE_3_2.get(name)
        row = {"metric": name}
        for k, prop in enumerate(PROPERTIES):
            row[prop] = getattr(check, prop)
            row[f"{prop}_paper"] = None if paper is None else paper[k]
        differ = [p for k, p in enumerate(PROPERTIES) if paper and paper[k] != row[p]]
        row["agree"] = paper is not None and not differ
        row["disagree_on"] = ", ".join(differ)
        row.update(
            {k: asdict(check)[k] for k in ("observed_min", "observed_max", "share_undefined")}
        )
        rows.append(row)
    table = pd.DataFrame(rows).set_index("metric")
    table.attrs["checks"] = checks
    return table
