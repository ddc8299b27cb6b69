"""Chapter 08's second-order DARTS ablation, as the chapter shows it: the decisive recording's
no-search runs (first-order DARTS) beside the same runs trained with second-order DARTS.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .results import _decision_sentence, _rows, _skill_q2, decision_rows

__all__ = [
    "DEPARTURE",
    "DEPARTURE_ROW",
    "darts_order_decisions",
    "darts_order_markdown",
    "darts_order_table",
    "departure_from_uniform",
]


#: The tables' column (and decision row) of the operation weights' departure from uniform,
#: in thousandths of a weight.
DEPARTURE = "departure from uniform, ×10⁻³"
DEPARTURE_ROW = "2nd minus 1st order: departure from uniform, ×10⁻³"


def departure_from_uniform(epochs: pd.DataFrame) -> pd.Series:
    """The largest ``|w − 1/k|`` over every mixed operation's ``k`` operation weights, per
    epoch row (``weight:<subspace>/<operation>`` columns): 0 while DARTS has not moved off
    uniform, up to ``1 − 1/k`` when one operation has taken all the weight.

    Examples
    --------
    >>> departure_from_uniform(pd.DataFrame({"weight:a/x": [0.5, 0.9], "weight:a/y": [0.5, 0.1],
    ...                                      "weight:b/z": [1.0, 1.0]})).round(2).tolist()
    [0.0, 0.4]
    """
    columns = [c for c in epochs.columns if c.startswith("weight:")]
    if not columns:
        return pd.Series(np.nan, index=epochs.index)
    subspace = pd.Series([c.removeprefix("weight:").split("/")[0] for c in columns], index=columns)
    k = subspace.map(subspace.value_counts())
    gaps = (epochs[columns].astype(float) - 1.0 / k).abs()
    return gaps.max(axis=1)


def _per_run(recording, *, order: int) -> pd.DataFrame:
    """Per run: PTN's mean and median CRPS before and after the warm start, the departure
    from uniform at the end of the final cycles and the seconds of the final cycles."""
    windows, phases = _rows(recording, "window"), _rows(recording, "phase")
    epochs = _rows(recording, "epoch")
    if windows.empty:
        return pd.DataFrame()
    if "search" in windows:  # the decisive recording: its no-search units
        windows, phases, epochs = (f[~f["search"].astype(bool)] for f in (windows, phases, epochs))
    rows = {}
    for run, steps in phases.groupby("run", sort=True):
        cycles = steps.loc[steps["phase"] == "cycle"]
        last_cycle, last = int(cycles["cycle"].max()), int(steps["cycle"].max())
        own = windows[windows["run"] == run]
        cold = own.loc[own["cycle"] == last_cycle, "PTN"].to_numpy()
        warm = own.loc[own["cycle"] == last, "PTN"].to_numpy()
        final = epochs[(epochs["run"] == run) & (epochs["cycle"] == last_cycle)]
        rows[int(run)] = {
            "order": order,
            "hidden size": int(steps["hidden_size"].iloc[0]),
            "cold": cold,
            "warm": warm,
            "departure": float(departure_from_uniform(final.tail(1)).iloc[0]),
            "seconds": float(cycles.loc[cycles["cycle"] == last_cycle, "PTN seconds"].iloc[0]),
        }
    return pd.DataFrame.from_dict(rows, orient="index")


def _paired(decisive, second_order) -> tuple[pd.DataFrame, pd.DataFrame]:
    first, second = _per_run(decisive, order=1), _per_run(second_order, order=2)
    runs = first.index.intersection(second.index) if len(first) and len(second) else []
    return first.loc[runs], second.loc[runs]


def darts_order_table(decisive, second_order) -> pd.DataFrame:
    """Each run trained with first- and with second-order DARTS, side by side.

    Parameters
    ----------
    decisive, second_order : fairbook_book.recordings.Recording
        The decisive recording (its ``nosearch`` units: first order) and the second-order
        ablation's; runs in both are paired.

    Returns
    -------
    pandas.DataFrame
        One row per run: the random agent's hidden size; PTN's mean test CRPS after the final
        cycles and after the warm start, for each order; the largest departure of the
        operation weights from uniform at the end of the final cycles, in thousandths of a
        weight (:data:`DEPARTURE`: the departures are far below 0.01, which a three-decimal
        display would round to nothing); the wall seconds of the final cycles and their
        ratio (second / first order).

    Examples
    --------
    >>> from fairbook_book.recordings import Recording
    >>> empty = Recording("08", "decisive", pd.DataFrame())
    >>> darts_order_table(empty, empty).empty
    True
    """
    first, second = _paired(decisive, second_order)
    if first.empty:
        return pd.DataFrame()
    table = pd.DataFrame(
        {
            ("PTN mean CRPS, final cycles", "1st order"): first["cold"].map(np.mean),
            ("PTN mean CRPS, final cycles", "2nd order"): second["cold"].map(np.mean),
            ("PTN mean CRPS, warm start", "1st order"): first["warm"].map(np.mean),
            ("PTN mean CRPS, warm start", "2nd order"): second["warm"].map(np.mean),
            (DEPARTURE, "1st order"): first["departure"] * 1e3,
            (DEPARTURE, "2nd order"): second["departure"] * 1e3,
            ("final cycles, s", "1st order"): first["seconds"],
            ("final cycles, s", "2nd order"): second["seconds"],
            ("final cycles, s", "ratio"): second["seconds"] / first["seconds"],
        }
    )
    table = table.astype(float)
    table.insert(0, ("", "hidden size"), first["hidden size"].astype(int))
    table.columns = pd.MultiIndex.from_tuples(table.columns)
    table.index.name = "run"
    return table


def darts_order_decisions(decisive, second_order, *, alpha: float = 0.05) -> pd.DataFrame:
    """Is the order's effect decided over the paired runs?

    Three comparisons, each one number per run and then
    :func:`fairbook.stats.decision.decide` (the columns of :func:`~.results.decision_table`):
    the skill of second- over first-order DARTS for PTN's median CRPS (Table 5.2's Q2) after
    the final cycles and after the warm start (above zero: second order wins), and the
    difference of the operation weights' departure from uniform, in thousandths of a weight
    as in :func:`darts_order_table` (above zero: second order moves the architecture
    further).

    Examples
    --------
    >>> from fairbook_book.recordings import Recording
    >>> empty = Recording("08", "decisive", pd.DataFrame())
    >>> darts_order_decisions(empty, empty).empty
    True
    """
    columns = ["runs", "mean", "low", "high", "runs above zero", "sign test p", "decision"]
    first, second = _paired(decisive, second_order)
    if len(first) < 2:
        return pd.DataFrame(columns=[*columns, "runs needed"])
    comparisons = {
        "2nd vs 1st order (PTN, final cycles): skill Q2": [
            _skill_q2(s, f) for s, f in zip(second["cold"], first["cold"], strict=True)
        ],
        "2nd vs 1st order (PTN, warm start): skill Q2": [
            _skill_q2(s, f) for s, f in zip(second["warm"], first["warm"], strict=True)
        ],
        DEPARTURE_ROW: list((second["departure"] - first["departure"]) * 1e3),
    }
    return decision_rows(comparisons, alpha=alpha)


def darts_order_markdown(
    decisive, second_order, decisions: pd.DataFrame, *, config: dict | None = None
) -> str:
    """The ablation's answer, written from the numbers (``decisions`` is
    :func:`darts_order_decisions`' table of the same recordings).

    With the recordings' `config` (the decisive profile's settings) it also says why the
    search was not re-run with second order: how many architecture steps a candidate of the
    search takes against the final cycles', where the ablation measured the order's effect.

    Examples
    --------
    >>> from fairbook_book.recordings import Recording
    >>> empty = Recording("08", "decisive", pd.DataFrame())
    >>> darts_order_markdown(empty, empty, pd.DataFrame())[:44]
    'The second-order ablation is not recorded ye'
    """
    if second_order.empty or decisions.empty:
        return (
            "The second-order ablation is not recorded yet (or has fewer than two runs): "
            "`fairbook-book record 08 second_order --profile decisive --n-jobs 2` records it."
        )
    parts = []
    if decisive.stale or second_order.stale:
        parts.append(
            "**A recording is stale** (the code it depends on has changed since): the "
            "sentences below describe the code that made it, not today's."
        )
    table = darts_order_table(decisive, second_order)
    ratio = table[("final cycles, s", "ratio")]
    parts.append(
        f"Second-order DARTS on the decisive profile's random agents ({len(table)} runs, "
        f"{second_order.hours:.1f} unit-hours recorded): the final cycles took "
        f"{ratio.median():.1f}× the first-order time (median; {ratio.min():.1f}–"
        f"{ratio.max():.1f}×)."
    )
    phases = _rows(decisive, "phase")
    if "search seconds" in phases and phases["search"].astype(bool).any():
        searched = phases[phases["search"].astype(bool)]
        per_run = searched.groupby("run")["search seconds"].first()
        search_hours = per_run.sum() / 3600
        parts.append(
            f"The search was not re-run with second order. Its recorded {search_hours:.1f} "
            f"hours over {len(per_run)} single-threaded runs, times the median ratio, put a "
            f"second-order "
            f"search at about {search_hours * ratio.median():.1f} CPU-hours (an upper bound: "
            f"scoring the candidates does not depend on the order)."
        )
    pairs = [
        ("2nd vs 1st order (PTN, final cycles): skill Q2", "after the final cycles"),
        ("2nd vs 1st order (PTN, warm start): skill Q2", "after the warm start"),
    ]
    sentences = [
        f"- PTN's median CRPS {when}, "
        + _decision_sentence(decisions, name, "second-order DARTS", "first-order DARTS")
        for name, when in pairs
    ]
    row = decisions.loc[DEPARTURE_ROW]
    moved = {
        "decided: the first wins": "**second order moves them further**",
        "decided: the second wins": "**first order moves them further**",
        "not decided": "**not decided**",
    }.get(row["decision"], f"**{row['decision']}** (first = second order)")
    gap = table[DEPARTURE]
    sentences.append(
        f"- How far the operation weights leave uniform (largest |w − 1/k| at the end of the "
        f"final cycles, in thousandths of a weight, second minus first order): {moved} — mean "
        f"{row['mean']:.2f}, 95 % interval [{row['low']:.2f}, {row['high']:.2f}], "
        f"{row['runs above zero']} of {row['runs']} runs above zero (sign test p = "
        f"{row['sign test p']:.3g}); median {gap['1st order'].median():.2f} "
        f"({gap['1st order'].min():.2f}–{gap['1st order'].max():.2f}) with first order, "
        f"{gap['2nd order'].median():.2f} ({gap['2nd order'].min():.2f}–"
        f"{gap['2nd order'].max():.2f}) with second order."
    )
    parts.append("\n".join(sentences))
    if config is not None:
        from fairbook.papers.seed003 import LORENZ_PROTOCOL

        per_candidate = int(config["epochs"]) * LORENZ_PROTOCOL["arch_steps"]
        final = int(config["final_cycles"]) * int(config["final_epochs"])
        final *= LORENZ_PROTOCOL["arch_steps"]
        measured = {
            "decided: the first wins": "second order moved the weights further",
            "decided: the second wins": "second order moved the weights less far",
            "not decided": "the order's effect on the weights was not decided",
        }.get(  # a t interval without the sign test: its own words, never "not decided"
            row["decision"],
            f"the comparison of the weights reads {row['decision']} (first = second order)",
        )
        parts.append(
            f"**Why not the search too.** A candidate of the search takes {per_candidate} "
            f"architecture steps ({config['epochs']} epochs); the final cycles above take "
            f"{final}, and there {measured}. A second-order search would ask the same "
            f"question of networks whose architecture parameters took "
            f"{final / per_candidate:.0f}× fewer steps, at the cost above."
        )
    return "\n\n".join(parts)


def second_order_recording(config: dict, *, root=None):
    """The recorded ablation (``fairbook-book record 08 second_order --profile decisive``)."""
    from fairbook_book.recordings import load

    from ._second_order import SECOND_ORDER_RECORDING

    return load("08_parallel_time_networks", SECOND_ORDER_RECORDING, settings=config, root=root)
