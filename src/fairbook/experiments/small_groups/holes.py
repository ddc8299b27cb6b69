"""Sec. 4.4 of "Small groups": the holes of the metrics, where a score is undefined.

Theorem 4.3's hole counts (and PT's printed bounds) against enumeration, and MCC's
behaviour as it approaches an edge or a corner hole.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from fairbook.confusion import CELLS
from fairbook.metrics import compute
from fairbook.papers import seed003
from fairbook.replication import replication_table
from fairbook.stats import combinatorics

from ._common import _axes, _bound_rows, _sizes


def theorem_4_3_replication(
    n_values=(1, 2, 3, 10, 30, 60), te_pairs=((1, 1), (2, 1), (3, 3), (5, 2))
) -> pd.DataFrame:
    """Theorem 4.3 as printed beside the enumeration, one row per family and ``n``.

    Exact counts (binomial, F1, joint-ratio, MCC, treatment equality) get the usual
    verdict; PT's two printed bounds are checked as bounds (``"… bound holds/fails"``).

    Parameters
    ----------
    n_values : iterable of int
        Sizes at which the single-group counts are shown (``n >= 1``).
    te_pairs : iterable of (int, int)
        Group sizes ``(n1, n2)`` for treatment equality (kept small: all pairs of
        matrices are enumerated).

    Returns
    -------
    pandas.DataFrame
        The replication table's columns.

    Examples
    --------
    >>> t = theorem_4_3_replication([10], [(1, 1)])
    >>> t.set_index("quantity").loc["PT holes, n = 10 (upper bound)", "verdict"]
    'upper bound fails'
    """
    exact_rows, bound_rows = [], []
    for n in _sizes(n_values):
        counts = combinatorics.hole_counts(n, ["ACC", "F1", "TPR", "MCC", "PT"])
        for family, name in (
            ("binomial metrics", "ACC"),
            ("F1", "F1"),
            ("joint-ratio metrics", "TPR"),
            ("MCC", "MCC"),
        ):
            exact_rows.append(
                {
                    "quantity": f"{family} holes, n = {n}",
                    "paper": combinatorics.hole_count_closed_form(name, n),
                    "ours": counts[name],
                    "decimals": 0,
                    "note": f"{seed003.THEOREM_4_3[_THM_KEY[family]]}; enumerated with {name}",
                }
            )
        lower, upper = combinatorics.pt_hole_bounds(n)
        bound_rows.append(
            {
                "quantity": f"PT holes, n = {n} (lower bound)",
                "paper": lower,
                "ours": counts["PT"],
                "kind": "lower",
                "decimals": 0,
                "note": "2n + 2",
            }
        )
        if upper is not None:
            bound_rows.append(
                {
                    "quantity": f"PT holes, n = {n} (upper bound)",
                    "paper": upper,
                    "ours": counts["PT"],
                    "kind": "upper",
                    "decimals": 1,
                    "note": "e^γ n log log n + 0.6483 n / log log n (Robin); "
                    "exact: 2n + 1 + Σ_{d|n} φ(d) n/d = "
                    f"{combinatorics.pt_hole_count_closed_form(n)}",
                }
            )
    for n1, n2 in te_pairs:
        exact_rows.append(
            {
                "quantity": f"TE holes, n1 = {n1}, n2 = {n2}",
                "paper": combinatorics.te_hole_count_closed_form(n1, n2, as_printed=True),
                "ours": combinatorics.te_hole_count(n1, n2),
                "decimals": 0,
                "note": "all pairs enumerated; A·N(n2) + N(n1)·B − A·B = "
                f"{combinatorics.te_hole_count_closed_form(n1, n2)}",
            }
        )
    exact = replication_table(exact_rows)
    bounds = _bound_rows(bound_rows)
    return pd.concat([exact, bounds], ignore_index=True)


_THM_KEY = {
    "binomial metrics": "Binomial metrics",
    "F1": "F1",
    "joint-ratio metrics": "Joint ratio metrics",
    "MCC": "MCC",
}


def pt_hole_table(n_max: int = 60) -> pd.DataFrame:
    """PT's holes by enumeration beside Theorem 4.3's bounds, ``n = 1 … n_max``.

    Returns
    -------
    pandas.DataFrame
        ``n, holes, closed_form`` (:func:`fairbook.stats.combinatorics.
        pt_hole_count_closed_form`, ``2n + 1 + Σ_{d|n} φ(d) n/d``), ``mcc_holes`` (4n,
        all PT holes too), ``lower, upper, holds_upper, holes_per_n_log_n, share``
        (``share`` = holes / N(n), Corollary 4.3.1).

    Examples
    --------
    >>> pt_hole_table(10).set_index("n").loc[10, ["holes", "upper"]].round(1).tolist()
    [48.0, 22.6]
    """
    table = combinatorics.theorem_4_3_table(n_max, metrics=["PT"])
    out = pd.DataFrame(
        {
            "n": table["n"].to_numpy(),
            "holes": table["enumerated"].to_numpy(),
            "mcc_holes": 4 * table["n"].to_numpy(),
            "lower": table["lower_bound"].astype(float).to_numpy(),
            "upper": table["upper_bound"].astype(float).to_numpy(),
            "holds_upper": table["holds_upper"].to_numpy(),
        }
    )
    out.insert(
        2, "closed_form", [combinatorics.pt_hole_count_closed_form(int(k)) for k in out["n"]]
    )
    n = out["n"].to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out["holes_per_n_log_n"] = np.where(n > 1, out["holes"] / (n * np.log(n)), np.nan)
    out["share"] = out["holes"] / [combinatorics.n_confusion_matrices(int(k)) for k in n]
    return out


def plot_pt_holes(table: pd.DataFrame, *, ax=None):
    """PT's holes against the printed bounds (from :func:`pt_hole_table`).

    Examples
    --------
    >>> plot_pt_holes(pt_hole_table(8)).get_ylabel()
    'holes of PT in M(n)'
    """
    ax = _axes(ax)
    ax.plot(table["n"], table["holes"], "o-", ms=3, label="holes (enumerated)")
    ax.plot(table["n"], table["upper"], "--", label="printed upper bound (Robin)")
    ax.plot(table["n"], table["lower"], ":", label="printed lower bound 2n + 2")
    ax.plot(table["n"], table["mcc_holes"], "-.", lw=1, label="4n (MCC's holes, all PT holes)")
    ax.set_xlabel("n")
    ax.set_ylabel("holes of PT in M(n)")
    ax.legend(fontsize=8)
    return ax


def mcc_limit_paths(n: int = 10, scales=(1e-2, 1e-4, 1e-6, 1e-8)) -> pd.DataFrame:
    """MCC approaching its holes along straight paths (real-valued counts).

    Two kinds of hole: an *edge* hole (a zero margin with the other cells non-zero,
    here ``TP = FN = 0``, ``FP = TN = n/2``) and a *corner* hole (one cell holds all
    ``n``, here ``TP = n``). Moving mass ``t·(a, b, c)`` into the empty cells and letting
    ``t → 0``: at an edge hole MCC goes to 0 along every path (as Chicco and Jurman say,
    like ``√t``), at a corner the value it approaches depends on the direction — the
    limit does not exist.

    Parameters
    ----------
    n : int, default 10
    scales : iterable of float
        Values of ``t > 0``.

    Returns
    -------
    pandas.DataFrame
        ``hole, direction, t, TP, FN, FP, TN, MCC, limit`` (``limit`` is the value along
        that path: 0 at an edge hole, ``c / √((c + b)(c + a))`` at the TP corner).

    Examples
    --------
    >>> t = mcc_limit_paths(10, scales=[1e-8])
    >>> t.groupby("hole").MCC.apply(lambda s: round(s.abs().max(), 3)).to_dict()
    {'corner TP = n': 1.0, 'edge TP = FN = 0': 0.0}
    """
    n = int(n)
    if n < 2:
        raise ValueError(f"n must be >= 2, got {n}")
    rows = []
    edge_paths = {
        "into TP": (1.0, 0.0),
        "into FN": (0.0, 1.0),
        "into both": (1.0, 1.0),
        "into TP, 3× FN": (1.0, 3.0),
    }
    corner_paths = {
        "into TN": (0.0, 0.0, 1.0),
        "into FN, FP": (1.0, 1.0, 0.0),
        "into FN, FP, TN": (1.0, 1.0, 1.0),
        "into FN, 4× TN": (1.0, 0.0, 4.0),
    }
    for t in scales:
        t = float(t)
        if not t > 0:
            raise ValueError(f"scales must be > 0, got {t}")
        for label, (a, b) in edge_paths.items():
            cm = np.array([a * t, b * t, n / 2, n / 2])
            rows.append(
                {
                    "hole": "edge TP = FN = 0",
                    "direction": label,
                    "t": t,
                    **dict(zip(CELLS, cm.tolist(), strict=True)),
                    "MCC": float(compute("MCC", cm)),
                    "limit": 0.0,
                }
            )
        for label, (a, b, c) in corner_paths.items():
            cm = np.array([n - (a + b + c) * t, a * t, b * t, c * t])
            limit = c / math.sqrt((c + b) * (c + a)) if (c + b) * (c + a) > 0 else math.nan
            rows.append(
                {
                    "hole": "corner TP = n",
                    "direction": label,
                    "t": t,
                    **dict(zip(CELLS, cm.tolist(), strict=True)),
                    "MCC": float(compute("MCC", cm)),
                    "limit": limit,
                }
            )
    return pd.DataFrame(rows).sort_values(
        ["hole", "direction", "t"], ascending=[True, True, False], ignore_index=True
    )


def mcc_limit_table(paths: pd.DataFrame) -> pd.DataFrame:
    """A :func:`mcc_limit_paths` table laid out wide: one row per hole and direction, one
    column per ``t`` (largest first), and the value along the path in ``limit``.

    Examples
    --------
    >>> mcc_limit_table(mcc_limit_paths(10, scales=[1e-2])).columns.tolist()
    ['t = 0.01', 'limit']
    """
    wide = paths.pivot(index=["hole", "direction"], columns="t", values="MCC")
    wide = wide[sorted(wide.columns, reverse=True)]
    wide.columns = [f"t = {t:g}" for t in wide.columns]
    wide["limit"] = paths.groupby(["hole", "direction"])["limit"].first()
    return wide
