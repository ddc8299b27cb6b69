"""Tables of "Conditional HydraGAN" (seed 003 sec. 3.5), built from the runs' results.

The chapter's analogues of Table 3.4 (:func:`table_3_4`, with :func:`seed_spread`) and
Table 3.5 (:func:`table_3_5`), the reading of OFI beside DI (:func:`reading`), and the
mapping of occupations to the binary activity (:func:`activity_mapping`). No paper
numbers here: they are set beside ours in
:mod:`~fairbook_book.chapters.conditional_hydragan.replication`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.generative import divergences, improvement_percent

from ._common import _class_order
from .runs import improvement
from .settings import IDEAL, METRICS, SEDENTARY

__all__ = [
    "activity_mapping",
    "reading",
    "recording_cost",
    "seed_spread",
    "table_3_4",
    "table_3_5",
]


def activity_mapping(categories) -> pd.DataFrame:
    """Each occupation, its binary class and whether it is the positive class.

    Examples
    --------
    >>> activity_mapping(["Sales", "Craft-repair"])["class"].tolist()
    ['sedentary', 'active']
    """
    cats = list(categories)
    return pd.DataFrame(
        {
            "occupation": cats,
            "class": ["sedentary" if c in SEDENTARY else "active" for c in cats],
            "positive": [c in SEDENTARY for c in cats],
        }
    )


def table_3_4(
    scores: pd.DataFrame, *, definition: str = "pair", as_text: bool = True
) -> pd.DataFrame:
    """Table 3.4 analogue: each metric for synthetic and real training data and the
    improvement row, per protected class, mean ± sd over seeds.

    The improvement is computed per seed (same seed for both) and then averaged.

    Parameters
    ----------
    scores : DataFrame
        ``run_experiment(...)["scores"]``.
    definition : {"pair", "cells"}
    as_text : bool
        ``"mean ± sd"`` strings (sd over seeds, ``ddof=1``); False gives a numeric frame
        with a (class, "mean"/"sd") column index.
    """
    if definition not in ("pair", "cells"):
        raise ValueError(f"definition must be 'pair' or 'cells', got {definition!r}")
    sel = scores[scores["definition"] == definition]
    wide = sel.pivot_table(
        index=["metric", "seed", "class"],
        columns="data",
        values="value",
        aggfunc="first",
        dropna=False,
    )
    ideal = np.array([IDEAL[m] for m in wide.index.get_level_values("metric")])
    wide["improves"] = improvement(wide["real"], wide["synthetic"], ideal)
    long = wide[["synthetic", "real", "improves"]].stack().rename("value").reset_index()
    stats = long.groupby(["metric", "data", "class"])["value"].agg(["mean", "std"])
    stats = stats.rename(columns={"std": "sd"}).unstack("class")
    stats = stats.reorder_levels([1, 0], axis=1)
    order = pd.MultiIndex.from_product(
        [list(METRICS), ["synthetic", "real", "improves"]], names=["metric", "data"]
    )
    columns = pd.MultiIndex.from_product([_class_order(), ["mean", "sd"]])
    stats = stats.reindex(index=order, columns=columns)
    if not as_text:
        return stats
    out = pd.DataFrame(index=order)
    for cls in _class_order():
        out[cls] = [
            f"{m:.3f} ± {s:.3f}" if np.isfinite(s) else f"{m:.3f}"
            for m, s in zip(stats[(cls, "mean")], stats[(cls, "sd")], strict=True)
        ]
    return out


def seed_spread(scores: pd.DataFrame, *, definition: str = "pair") -> pd.DataFrame:
    """Largest sd over seeds of each metric (over classes), beside the largest
    |mean improvement|: is the spread negligible, as the paper says?"""
    t = table_3_4(scores, definition=definition, as_text=False)
    sd = t.xs("sd", axis=1, level=1)
    mean = t.xs("mean", axis=1, level=1)
    out = pd.DataFrame(
        {
            "max sd (real)": sd.xs("real", level="data").max(axis=1),
            "max sd (synthetic)": sd.xs("synthetic", level="data").max(axis=1),
            "max sd (improves)": sd.xs("improves", level="data").max(axis=1),
            "max |mean improves|": mean.xs("improves", level="data").abs().max(axis=1),
        }
    )
    return out.reindex(list(METRICS))


def table_3_5(result: dict, *, ks_method: str = "cdf") -> pd.DataFrame:
    """Table 3.5 analogue: KS, KL and JS to the target for activities and individuals
    (who-cells), real training data vs generated data, improvement in %, mean over seeds.

    Activities compare the occupation *proportions* (real: label shares; synthetic: the
    mean softmax) with the diversity target; individuals compare the who-cell shares with
    uniform.
    """
    rows = {}
    for part in ("activities", "who"):
        frame = result[part]
        vals = {d: [] for d in ("real", "synthetic")}
        for _, f in frame.groupby(level="seed"):
            for d in vals:
                vals[d].append(
                    divergences(f[d].to_numpy(), f["target"].to_numpy(), ks_method=ks_method)
                )
        label = "Activities" if part == "activities" else "Individuals"
        for d in vals:
            rows[(label, d)] = pd.DataFrame(vals[d]).mean()
    out = pd.DataFrame(rows)
    for label in ("Activities", "Individuals"):
        out[(label, "improvement %")] = improvement_percent(
            out[(label, "real")], out[(label, "synthetic")]
        )
    out.columns = pd.MultiIndex.from_tuples(out.columns)
    return out[
        [
            (lab, c)
            for lab in ("Activities", "Individuals")
            for c in ("synthetic", "real", "improvement %")
        ]
    ]


def reading(
    scores: pd.DataFrame, *, data: str = "real", definition: str = "pair", tol: float = 0.02
) -> pd.DataFrame:
    """What OFI says that DI does not, per protected class (means over seeds).

    Seed 003 (sec. 3.6): OFI "identifies discriminatory selections", DI is a reparative
    measure "for identifying social disparities"; if OFI fails, correct the algorithm; if
    OFI shows no bias but DI does, that "suggests systematic disparity". A score counts as
    biased when it is more than ``tol`` from its ideal (DI: ``|DI − 1| > tol``).

    Examples
    --------
    >>> s = pd.DataFrame({"seed": 0, "data": "real", "definition": "pair",
    ...     "attribute": "sex", "class": "Female", "metric": ["OFI", "DI"],
    ...     "value": [0.0, 1.5]})
    >>> reading(s)["reading"].iloc[0]
    'systemic disparity (DI), no algorithmic bias (OFI ≈ 0)'
    """
    sel = scores[(scores["data"] == data) & (scores["definition"] == definition)]
    mean = sel.groupby(["class", "metric"])["value"].mean().unstack("metric")
    out = pd.DataFrame({"OFI": mean["OFI"], "DI": mean["DI"]})
    ofi_bias = (out["OFI"] - IDEAL["OFI"]).abs() > tol
    di_bias = (out["DI"] - IDEAL["DI"]).abs() > tol
    labels = np.select(
        [ofi_bias & di_bias, ofi_bias & ~di_bias, ~ofi_bias & di_bias],
        [
            "algorithmic bias (OFI) and disparity (DI)",
            "algorithmic bias (OFI) that DI misses",
            "systemic disparity (DI), no algorithmic bias (OFI ≈ 0)",
        ],
        default="neither",
    )
    out["OFI direction"] = np.where(
        ~ofi_bias, "—", np.where(out["OFI"] > 0, "toward the class", "against the class")
    )
    out["reading"] = labels
    order = [c for c in _class_order() if c in out.index]
    return out.reindex(order + [c for c in out.index if c not in order])


def recording_cost(recording) -> pd.DataFrame:
    """What the recorded seeds cost and what the whole ``full`` profile costs, from the
    provenance's wall seconds per unit (one seed at full size).

    The profile's cost is the mean wall seconds of the recorded seeds times the profile's
    seeds (``recording.expected``). Wall seconds are measured while the machine ran other
    jobs, so they are an upper bound of the CPU time.

    Returns
    -------
    pandas.DataFrame
        One row; columns ``units recorded``, ``units in the profile``, ``mean s per unit``,
        ``recorded hours``, ``profile hours (extrapolated)`` (wall) and ``profile CPU hours
        (extrapolated)`` (from the units' CPU seconds; NaN where the provenance has none).

    Examples
    --------
    >>> from fairbook_book.recordings import Recording
    >>> prov = [{"unit": "seed00", "seconds": 1800.0}]
    >>> r = Recording("07_conditional_hydragan", "seeds", pd.DataFrame(), prov, expected=10)
    >>> float(recording_cost(r).loc["seeds", "profile hours (extrapolated)"])
    5.0
    """
    seconds = np.array([float(p["seconds"]) for p in recording.provenance])
    cpu = np.array([float(p.get("cpu_seconds", np.nan)) for p in recording.provenance])
    expected = recording.expected or len(seconds)
    mean = float(seconds.mean()) if len(seconds) else np.nan
    return pd.DataFrame(
        {
            "units recorded": [len(seconds)],
            "units in the profile": [expected],
            "mean s per unit": [mean],
            "recorded hours": [float(seconds.sum()) / 3600],
            "profile hours (extrapolated)": [mean * expected / 3600],
            "profile CPU hours (extrapolated)": [
                float(cpu.mean()) * expected / 3600 if len(cpu) else np.nan
            ],
        },
        index=pd.Index(["seeds"], name="recording"),
    )
