"""The chapter's tables, from the rows of :func:`~.runs.build` (or a recording of them).

* :func:`verdict_table` — every value with its fair/unfair verdict (the rules of
  :func:`~.settings.rules`);
* :func:`flip_table` — one row per verdict (data set, model, attribute, group, metric) and
  one flip-rate column per source of variation — the heat-map table;
  :func:`source_summary` averages it per data set and model;
* :func:`most_unstable` — the verdicts that flip most, with what makes them flip;
* :func:`metric_disagreement` — how often DI, OFI and EOpp name different favoured groups,
  and how stable that disagreement is;
* :func:`small_group_table` — the smaller groups' verdicts with MATCH p-values (Holm) and
  CPS-smoothed rates, from :func:`fairbook.audit.audit` and its flip rates over seeds;
* :func:`size_table`, :func:`size_needed` — the flip rate against group size;
* :func:`advice` — the practitioner's advice, each sentence built from the numbers above;
* :func:`uncertainty_flip_table` — the BNN family: seed 000's point and uncertainty ratio
  verdicts on COMPAS and Adult under seeds and under the settings seed 000 leaves unstated,
  from chapter 04's study (:func:`uncertainty_flip_summary` averages it;
  :func:`recorded_uncertainty_flips` reads it from that study's recording).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.papers import seed000
from fairbook.variance.verdicts import (
    COMPARISON_METRICS,
    PIVOTS,
    disagreement,
    favoured,
    flip_rate,
    flip_rates,
    pairwise_disagreement,
    verdicts,
)

from .runs import BASE, UNCERTAINTY_RECORDING, VERDICT_RECORDING
from .settings import REFERENCES, TRAINING_SETTINGS, rules

__all__ = [
    "training_settings_table",
    "VERDICT_KEYS",
    "advice",
    "bnn_flip_table",
    "fit_differences",
    "flip_table",
    "metric_disagreement",
    "most_unstable",
    "recorded",
    "recorded_uncertainty_flips",
    "recorded_uncertainty_values",
    "size_needed",
    "size_table",
    "small_group_table",
    "source_summary",
    "uncertainty_flip_summary",
    "uncertainty_flip_table",
    "uncertainty_flip_text",
    "verdict_table",
]

#: The columns that name one verdict.
VERDICT_KEYS = ("dataset", "model", "attribute", "group", "metric")

_RUN_SOURCES = ("FIT", "seed", "setting", "bootstrap")
_BASE_SOURCE, _BASE_VARIANT = BASE.split(":")

#: How a sentence names the sources, model families and data sets.
SOURCE_NAMES = {
    "FIT": "FIT runs",
    "seed": "seeds",
    "seeds": "seeds",
    "setting": "training settings",
    "unstated settings": "the unstated settings",
    "bootstrap": "bootstrap resamples",
    "metric choice": "the choice of metric",
}
MODEL_NAMES = {
    "logistic": "logistic regression",
    "forest": "random forest",
    "mlp": "MLP",
    "bnn": "BNN",
    "ensemble": "deep ensemble",
}
DATASET_NAMES = {"compas": "COMPAS", "adult": "Adult"}


def _name(names: dict, key) -> str:
    return names.get(str(key), str(key))


def _listed(parts) -> str:
    parts = list(parts)
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _percent(share: float) -> str:
    return f"{100 * share:.0f} %"


def _comparison(row) -> str:
    """``OFI for Black & Male (race & sex, n = 726)`` or ``EOFP over all race groups``."""
    n = f"n = {int(row['n']):,}"
    if row["group"] == "all groups":
        return f"{row['metric']} over all {row['attribute']} groups ({n})"
    return f"{row['metric']} for {row['group']} ({row['attribute']}, {n})"


def _why(row, distance: float, bounds) -> str:
    """The sentence of :func:`most_unstable`: what makes one verdict unstable."""
    nearest = min(bounds, key=lambda b: abs(row["value"] - b))
    near = "less than 0.001" if distance < 0.0005 else f"{distance:.3f}"
    where = (
        f"In {_name(DATASET_NAMES, row['dataset'])}, the "
        f"{_name(MODEL_NAMES, row['model'])}'s {_comparison(row)} is {row['value']:.3f}, "
        f"{near} from the nearest threshold ({nearest:g})"
    )
    rates = {s: float(row[s]) for s in _RUN_SOURCES if not np.isnan(row[s])}
    moving = [f"{r:.2f} under {SOURCE_NAMES[s]}" for s, r in rates.items() if r > 0]
    still = [SOURCE_NAMES[s] for s, r in rates.items() if r == 0]
    if not moving:
        return f"{where}; its verdict never flips."
    text = f"{where}; its verdict's flip rate is {_listed(moving)}"
    if still:
        text += f", and 0 under {_listed(still)}"
    return text + "."


def recorded(config: dict, *, root=None):
    """The recorded full profile (:data:`~.runs.VERDICT_RECORDING`) with ``config``'s
    parameters, as a :class:`fairbook_book.recordings.Recording`; its ``frame`` has the rows of
    :func:`~.runs.build`'s table (empty when nothing is recorded yet).

    Examples
    --------
    >>> import tempfile
    >>> from fairbook_book.chapters.verdict_stability.settings import settings
    >>> recorded(settings("full"), root=tempfile.mkdtemp()).empty
    True
    """
    from fairbook_book.recordings import load

    return load("10_verdict_stability", VERDICT_RECORDING, settings=config, root=root)


def verdict_table(table: pd.DataFrame, config: dict) -> pd.DataFrame:
    """The value rows of ``table`` with ``unfair`` (1.0 / 0.0 / NaN) by each metric's rule.

    Examples
    --------
    >>> from fairbook_book.chapters.verdict_stability.settings import settings
    >>> t = pd.DataFrame({"kind": "value", "metric": ["DI", "OFI"], "value": [0.7, 0.01]})
    >>> verdict_table(t, settings("fast"))["unfair"].tolist()
    [1.0, 0.0]
    """
    values = table[table["kind"] == "value"].copy()
    unfair = np.full(len(values), np.nan)
    for metric, (rule, threshold) in rules(config).items():
        hit = (values["metric"] == metric).to_numpy()
        unfair[hit] = verdicts(values["value"].to_numpy()[hit], rule=rule, threshold=threshold)
    values["unfair"] = unfair
    return values.reset_index(drop=True)


def _base(v: pd.DataFrame) -> pd.DataFrame:
    return v[(v["source"] == _BASE_SOURCE) & (v["variant"] == _BASE_VARIANT)]


def flip_table(table: pd.DataFrame, config: dict) -> pd.DataFrame:
    """The heat-map table: one row per verdict, the flip rate under each source.

    Returns
    -------
    pandas.DataFrame
        :data:`VERDICT_KEYS`, ``n`` (the group's size), ``value`` and ``unfair`` of the base
        model, the flip rate under each of :data:`~.settings.SOURCES` (``metric``: of the
        comparison's verdict across DI, OFI and EOpp in the base model; NaN for seed 004's
        metrics) and ``max`` (the largest of the run sources).
    """
    v = verdict_table(table, config)
    keys = list(VERDICT_KEYS)
    rates = flip_rates(v, by=[*keys, "source"])
    wide = rates.pivot_table(
        index=keys, columns="source", values="flip_rate", aggfunc="first", dropna=False
    )
    wide = wide.reindex(columns=list(_RUN_SOURCES))
    base = _base(v).set_index(keys)[["n", "value", "unfair"]]
    out = base.join(wide, how="left").reset_index()
    comparisons = _base(v)[_base(v)["metric"].isin(COMPARISON_METRICS)]
    choice = flip_rates(comparisons, by=["dataset", "model", "attribute", "group"])
    out = out.merge(
        choice[["dataset", "model", "attribute", "group", "flip_rate"]].rename(
            columns={"flip_rate": "metric_choice"}
        ),
        on=["dataset", "model", "attribute", "group"],
        how="left",
    )
    out["metric_choice"] = out["metric_choice"].where(out["metric"].isin(COMPARISON_METRICS))
    out = out.rename(columns={"metric_choice": "metric choice"})
    out["max"] = out[list(_RUN_SOURCES)].max(axis=1)
    return out


def fit_differences(frames: dict) -> pd.DataFrame:
    """Per unit (data set-model), how many people's predictions differ between the FIT runs
    and between the seeds (the largest count against run 0).

    Examples
    --------
    >>> f = pd.DataFrame({"FIT:0": [0, 1], "FIT:1": [0, 1], "seed:0": [0, 1], "seed:1": [1, 1]})
    >>> fit_differences({"d-m": f}).values.tolist()
    [['d-m', 0, 1]]
    """
    rows = []
    for unit, frame in frames.items():
        row = {"unit": unit}
        for source in ("FIT", "seed"):
            cols = [c for c in frame.columns if c.startswith(f"{source}:")]
            first = frame[cols[0]].to_numpy()
            row[f"{source} rows differing"] = int(
                max((frame[c].to_numpy() != first).sum() for c in cols)
            )
        rows.append(row)
    return pd.DataFrame(rows, columns=["unit", "FIT rows differing", "seed rows differing"])


def source_summary(flips: pd.DataFrame) -> pd.DataFrame:
    """Per data set and model: the mean flip rate under each source, and the share of
    verdicts that flip at all (``flips``: a rate above 0 under some run source).

    Examples
    --------
    >>> f = pd.DataFrame({"dataset": "d", "model": "m", "FIT": [0.0, 0.5], "seed": 0.0,
    ...                   "setting": [0.0, 0.2], "bootstrap": 0.1, "metric choice": 0.0})
    >>> source_summary(f).round(2).values.tolist()
    [['d', 'm', 0.25, 0.0, 0.1, 0.1, 0.0, 1.0, 2]]
    """
    cols = [*_RUN_SOURCES, "metric choice"]
    grouped = flips.groupby(["dataset", "model"], sort=False)
    out = grouped[cols].mean()
    out["flips"] = grouped.apply(
        lambda p: float((p[list(_RUN_SOURCES)].max(axis=1) > 0).mean()), include_groups=False
    )
    out["verdicts"] = grouped.size()
    return out.reset_index()


def most_unstable(flips: pd.DataFrame, config: dict, *, k: int = 3) -> pd.DataFrame:
    """The ``k`` verdicts with the largest mean flip rate over the run sources (FIT, seed,
    setting, bootstrap; ties: the larger single rate, then the smaller group), with what
    makes each unstable.

    Returns
    -------
    pandas.DataFrame
        :data:`VERDICT_KEYS`, ``n``, ``value``, ``threshold``, ``distance`` (of the base
        value from the nearest threshold, to three decimals), ``source`` (the one with the
        largest rate), ``flip_rate`` (under that source), ``mean_rate`` and ``why`` (a
        sentence built from these numbers).

    Examples
    --------
    >>> from fairbook_book.chapters.verdict_stability.settings import settings
    >>> f = pd.DataFrame({"dataset": "adult", "model": "forest", "attribute": "race",
    ...                   "group": "Other", "metric": "OFI", "n": 122, "value": -0.057,
    ...                   "FIT": 0.0, "seed": 2 / 3, "setting": 0.5, "bootstrap": 0.25,
    ...                   "max": 2 / 3}, index=[0])
    >>> import textwrap
    >>> print(textwrap.fill(most_unstable(f, settings("fast"), k=1)["why"].iloc[0], 88))
    In Adult, the random forest's OFI for Other (race, n = 122) is -0.057, 0.007 from the
    nearest threshold (-0.05); its verdict's flip rate is 0.67 under seeds, 0.50 under
    training settings and 0.25 under bootstrap resamples, and 0 under FIT runs.
    """
    r = rules(config)
    ranked = flips.dropna(subset=["max"]).copy()
    ranked["mean_rate"] = ranked[list(_RUN_SOURCES)].mean(axis=1)
    ranked = ranked.sort_values(["mean_rate", "max", "n"], ascending=[False, False, True])
    rows = []
    for _, row in ranked.head(k).iterrows():
        rule, threshold = r[row["metric"]]
        bounds = [threshold, 1 / threshold] if rule == "ratio" else [threshold]
        if rule == "difference":
            bounds = [-threshold, threshold]
        distance = float(min(abs(row["value"] - b) for b in bounds))
        source = row[list(_RUN_SOURCES)].astype(float).idxmax()
        why = _why(row, distance, bounds)
        rows.append(
            {
                **{c: row[c] for c in VERDICT_KEYS},
                "n": int(row["n"]),
                "value": row["value"],
                "threshold": threshold,
                "distance": round(distance, 3) + 0.0,
                "source": source,
                "flip_rate": row[source],
                "mean_rate": row["mean_rate"],
                "why": why,
            }
        )
    return pd.DataFrame(rows)


def metric_disagreement(table: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Where DI, OFI and EOpp name different favoured groups.

    Returns
    -------
    dict of pandas.DataFrame
        ``"base"``: per comparison of the base model, the group each metric favours
        (+1 the group, −1 the reference, 0 neither) and ``disagree``;
        ``"pairs"``: per data set, how often each pair of metrics disagrees (base models);
        ``"stability"``: per data set and source, the mean share of comparisons where the
        metrics disagree and the mean flip rate of that disagreement over the variants.
    """
    values = table[(table["kind"] == "value") & table["metric"].isin(COMPARISON_METRICS)]
    keys = ["dataset", "model", "source", "variant", "attribute", "group"]
    wide = values.pivot_table(index=keys, columns="metric", values="value", aggfunc="first")
    wide = wide.reindex(columns=list(COMPARISON_METRICS))
    directions = pd.DataFrame(
        {m: favoured(wide[m].to_numpy(), pivot=PIVOTS[m]) for m in COMPARISON_METRICS},
        index=wide.index,
    )
    directions["disagree"] = disagreement(directions[list(COMPARISON_METRICS)].to_numpy())
    directions = directions.reset_index()
    base = directions[
        (directions["source"] == _BASE_SOURCE) & (directions["variant"] == _BASE_VARIANT)
    ].drop(columns=["source", "variant"])
    pairs = []
    for dataset, part in base.groupby("dataset", sort=False):
        p = pairwise_disagreement(part[list(COMPARISON_METRICS)])
        p.insert(0, "dataset", dataset)
        pairs.append(p)
    stability = []
    for (dataset, source), part in directions.groupby(["dataset", "source"], sort=False):
        per_comparison = part.groupby(["model", "attribute", "group"])["disagree"]
        stability.append(
            {
                "dataset": dataset,
                "source": source,
                "share_disagree": float(part["disagree"].mean()),
                "flip_rate": float(
                    np.nanmean(per_comparison.apply(lambda s: flip_rate(s.to_numpy())))
                ),
            }
        )
    return {
        "base": base.reset_index(drop=True),
        "pairs": pd.concat(pairs, ignore_index=True),
        "stability": pd.DataFrame(stability),
    }


def small_group_table(frame: pd.DataFrame, dataset: str, config: dict) -> pd.DataFrame:
    """The smaller groups (``n < small_n``) of one model: their PPR and TPR against the
    reference with the MATCH p-value (Holm over the audit), the CPS-smoothed rate, the
    verdict of the base model, and the flip rate of "disparity survives" over the seeds —
    computed by :func:`fairbook.audit.audit` on the base model with the seed runs.
    """
    from fairbook.audit import audit
    from fairbook.audit.stability import verdict_flip_rates

    runs = [c for c in frame.columns if c.startswith("seed:")]
    data = frame.rename(columns={BASE: "y_pred"})
    data = data.rename(columns={c: c.replace(":", "_") for c in runs if c != BASE})
    attributes = [a for a in REFERENCES[dataset] if " & " not in a]
    report = audit(
        data.assign(**{BASE.replace(":", "_"): data["y_pred"]}),
        groups=tuple(attributes),
        reference={a: REFERENCES[dataset][a] for a in attributes},
        intersections=dataset == "adult",
        runs=[c.replace(":", "_") for c in runs],
        metrics=["PPR", "TPR"],
        alpha=float(config["alpha"]),
    )
    comp = report.to_frame("comparisons")
    comp = comp[comp["n"] < int(config["small_n"])]
    rates = report.to_frame("rates")[["attribute", "group", "metric", "cps"]]
    flips = verdict_flip_rates(report.to_frame("runs"))
    flips = flips[flips["verdict"] == "survives"][["attribute", "group", "metric", "flip_rate"]]
    out = comp.merge(rates, on=["attribute", "group", "metric"], how="left").merge(
        flips, on=["attribute", "group", "metric"], how="left"
    )
    columns = [
        "attribute",
        "group",
        "n",
        "metric",
        "score",
        "cps",
        "reference_score",
        "gap",
        "p_value",
        "p_holm",
        "verdict",
        "flip_rate",
    ]
    return out[columns].rename(columns={"flip_rate": "flip_rate_seeds"}).reset_index(drop=True)


def size_table(table: pd.DataFrame) -> pd.DataFrame:
    """The size curve rows: ``dataset, model, attribute, group, size, metric, source,
    flip_rate``."""
    rows = table[table["kind"] == "size"]
    return pd.DataFrame(
        {
            "dataset": rows["dataset"],
            "model": rows["model"],
            "attribute": rows["attribute"],
            "group": rows["group"],
            "size": rows["n"].astype(int),
            "metric": rows["metric"],
            "source": rows["source"].str.removeprefix("size:"),
            "flip_rate": rows["value"],
        }
    ).reset_index(drop=True)


def size_needed(curve: pd.DataFrame, *, below: float = 0.1) -> pd.DataFrame:
    """Per data set, source and metric: the smallest size from which the flip rate (mean
    over models) stays at or below ``below`` at every larger size (NaN: never).

    Examples
    --------
    >>> c = pd.DataFrame({"dataset": "d", "model": "m", "metric": "DI", "source": "samples",
    ...                   "size": [10, 50, 100, 200], "flip_rate": [0.4, 0.05, 0.2, 0.0]})
    >>> size_needed(c)["size_needed"].tolist()
    [200.0]
    """
    mean = curve.groupby(["dataset", "source", "metric", "size"], sort=False)["flip_rate"].mean()
    rows = []
    for (dataset, source, metric), part in mean.groupby(level=[0, 1, 2], sort=False):
        sizes = part.index.get_level_values("size").to_numpy()
        order = np.argsort(sizes)
        sizes, rates = sizes[order], part.to_numpy()[order]
        needed = np.nan
        for i in range(len(sizes)):
            tail = rates[i:]
            if np.all(tail[~np.isnan(tail)] <= below) and not np.isnan(tail).all():
                needed = float(sizes[i])
                break
        rows.append(
            {
                "dataset": dataset,
                "source": source,
                "metric": metric,
                "size_needed": needed,
                "largest_size": float(sizes[-1]),
            }
        )
    return pd.DataFrame(rows)


def _runs_to_see_a_flip(share: float, *, chance: float = 0.95, most: int = 1000) -> float:
    """Fewest runs that show both verdicts with probability ``chance`` when a share
    ``share`` of runs says unfair: ``1 − share^R − (1 − share)^R ≥ chance``."""
    if not 0.0 < share < 1.0:
        return np.nan
    for r in range(2, most + 1):
        if 1.0 - share**r - (1.0 - share) ** r >= chance:
            return float(r)
    return np.nan


def advice(
    flips: pd.DataFrame, curve: pd.DataFrame, disagreement_tables: dict, *, below: float = 0.1
) -> pd.DataFrame:
    """The chapter's advice, each sentence built from the computed numbers it rests on.

    Returns
    -------
    pandas.DataFrame
        ``topic``, ``advice`` (a sentence) and ``rests_on`` (the numbers, as text).
    """
    rows = []
    summary = flips[list(_RUN_SOURCES)].mean()
    flipping = flips[list(_RUN_SOURCES)].gt(0).mean()
    worst = summary.idxmax()
    rows.append(
        {
            "topic": "which source to vary",
            "advice": f"Vary the {SOURCE_NAMES[worst]} first: they move verdicts most "
            f"(mean flip rate {summary[worst]:.3f}; {_percent(flipping[worst])} of verdicts "
            "flip under them).",
            "rests_on": "; ".join(
                f"{SOURCE_NAMES[s]}: mean flip rate {summary[s]:.3f}, "
                f"{_percent(flipping[s])} of verdicts flip"
                for s in _RUN_SOURCES
            ),
        }
    )
    seeds = flips.dropna(subset=["seed"])
    flipped = seeds[seeds["seed"] > 0]
    if len(flipped):
        # share of unfair runs of the median flipping verdict, from its pairwise flip rate:
        # rate ≈ 2 p (1 − p)  →  p = (1 − sqrt(1 − 2 rate)) / 2
        rate = float(np.median(flipped["seed"].clip(upper=0.5)))
        share = (1 - np.sqrt(1 - 2 * rate)) / 2
        runs = _runs_to_see_a_flip(share)
        rows.append(
            {
                "topic": "how many runs",
                "advice": f"Train at least {runs:.0f} times with different seeds before "
                f"calling a verdict settled: with {runs:.0f} runs, a typical verdict that "
                "flips shows both its sides with 95 % probability.",
                "rests_on": f"{len(flipped)} of {len(seeds)} verdicts flip over seeds; "
                f"their median flip rate, {rate:.3f}, means {_percent(share)} of runs fall "
                "on the minority side",
            }
        )
    else:
        rows.append(
            {
                "topic": "how many runs",
                "advice": "No verdict flipped over the seeds tried; more runs would be needed to "
                "bound how rarely one does.",
                "rests_on": f"0 of {len(seeds)} verdicts flip over seeds",
            }
        )
    needed = size_needed(curve, below=below)
    samples = needed[needed["source"] == "samples"]
    if len(samples):
        worst_size = samples["size_needed"].max()
        never = samples[samples["size_needed"].isna()]
        largest = int(samples["largest_size"].max())
        text = (
            f"Treat verdicts on groups below {worst_size:,.0f} people as unsettled: below "
            f"that size, resampling the group flips some metric's verdict at a rate above "
            f"{below:g}."
            if np.isfinite(worst_size) and never.empty
            else f"Even in groups of {largest:,} people, resampling flips some metrics' "
            f"verdicts at a rate above {below:g}: report an interval, not a verdict."
        )
        rows.append(
            {
                "topic": "what group size",
                "advice": text,
                "rests_on": "; ".join(
                    f"{_name(DATASET_NAMES, r.dataset)} {r.metric}: "
                    + (
                        f"{r.size_needed:,.0f} people"
                        if np.isfinite(r.size_needed)
                        else f"more than {largest:,}"
                    )
                    for r in samples.itertuples()
                ),
            }
        )
    pairs = disagreement_tables["pairs"]
    mean_pairs = pairs.groupby("pair", sort=False)["share"].mean().sort_values(ascending=False)
    top = mean_pairs.index[0]
    rows.append(
        {
            "topic": "which metrics to report",
            "advice": f"Report {top.replace(' vs ', ' and ')} together: they name different "
            f"favoured groups most often ({_percent(mean_pairs.iloc[0])} of comparisons), so "
            "one alone hides the disagreement.",
            "rests_on": "; ".join(f"{p}: {_percent(s)}" for p, s in mean_pairs.items()),
        }
    )
    return pd.DataFrame(rows, columns=["topic", "advice", "rests_on"])


#: Seed 000's uncertainty ratios (the others of its tables are point ratios).
_UNCERTAINTY_RATIOS = ("F_Epis", "F_Alea", "F_Pred")


def _ratio_unfair(values) -> np.ndarray:
    """Seed 000's verdict on ratio measures: unfair (1.0) when ``|F − 1| > 0.2``, NaN where
    ``F`` is undefined."""
    return verdicts(
        np.asarray(values, dtype=np.float64) - 1.0,
        rule="difference",
        threshold=seed000.FLAG_THRESHOLD,
    )


def uncertainty_flip_table(study: pd.DataFrame, *, base_cell: str = "chapter") -> pd.DataFrame:
    """The BNN family's verdicts under two sources: seed 000's ratio measures on COMPAS and
    Adult, from chapter 04's sensitivity study (its recording, or a build's slice).

    A ratio ``F`` is unfair when ``|F − 1| > 0.2`` (:data:`fairbook.papers.seed000.FLAG_THRESHOLD`,
    seed 000's rule; :func:`fairbook.variance.verdicts.verdicts` with the difference rule on
    ``F − 1``). Flip rates are :func:`fairbook.variance.verdicts.flip_rate`'s share of
    disagreeing pairs, like the rest of the chapter's: ``seeds`` over the seeds of
    ``base_cell``; ``unstated settings`` over the study's cells (the settings seed 000 does
    not state), per seed, averaged over the seeds.

    Parameters
    ----------
    study : pandas.DataFrame
        Columns ``cell, seed, dataset, measure, role, value``; for COMPAS and Adult the
        ratio rows have ``role`` = the attribute
        (:func:`fairbook_book.chapters.uncertainty_fairness.study_recording`).
    base_cell : str, default "chapter"
        The cell whose seeds give the ``seeds`` source and ``share unfair``.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, attribute, measure): ``kind`` ("point" or "uncertainty"),
        ``share unfair`` (over the base cell's seeds), ``seeds``, ``unstated settings``, and
        how many seeds and cells there were.

    Examples
    --------
    >>> study = pd.DataFrame({"cell": ["chapter"] * 2 + ["other"] * 2, "seed": [0, 1, 0, 1],
    ...                       "dataset": "COMPAS", "measure": "F_Epis", "role": "race",
    ...                       "value": [1.5, 1.1, 1.5, 1.5]})
    >>> row = uncertainty_flip_table(study).iloc[0]
    >>> float(row["seeds"]), float(row["unstated settings"])  # seed 1 flips with the cell
    (1.0, 0.5)
    """
    need = {"cell", "seed", "dataset", "measure", "role", "value"}
    missing = sorted(need - set(study.columns))
    if missing:
        raise ValueError(f"the study frame has no column(s) {missing}")
    rows = study[
        study["dataset"].isin(["COMPAS", "Adult"])
        & study["measure"].astype(str).str.startswith("F_")
    ]
    if base_cell not in set(rows["cell"]):
        raise ValueError(f"cell {base_cell!r} is not in the study frame (COMPAS or Adult rows)")
    rows = rows.assign(unfair=_ratio_unfair(rows["value"]))
    out = []
    for (dataset, attribute, measure), part in rows.groupby(
        ["dataset", "role", "measure"], sort=False
    ):
        grid = part.pivot_table(index="seed", columns="cell", values="unfair", aggfunc="first")
        base = grid[base_cell].to_numpy()
        defined = base[~np.isnan(base)]
        per_seed = np.atleast_1d(flip_rate(grid.to_numpy(), axis=1))  # over the cells
        out.append(
            {
                "dataset": dataset,
                "attribute": attribute,
                "measure": measure,
                "kind": "uncertainty" if measure in _UNCERTAINTY_RATIOS else "point",
                "share unfair": float(defined.mean()) if defined.size else np.nan,
                "seeds": flip_rate(base),
                "unstated settings": (
                    float(np.nanmean(per_seed)) if np.isfinite(per_seed).any() else np.nan
                ),
                "n seeds": int(grid.shape[0]),
                "n settings": int(grid.shape[1]),
            }
        )
    return pd.DataFrame(out)


#: The flip-rate columns of the BNN tables, in the order they are shown.
_BNN_SOURCES = ("FIT", "seeds", "unstated settings", "bootstrap")


def uncertainty_flip_summary(flips: pd.DataFrame) -> pd.DataFrame:
    """Mean flip rate of the point and the uncertainty ratios per data set and source
    (rows of :func:`uncertainty_flip_table` or :func:`bnn_flip_table`: every source column
    they have among ``FIT``, ``seeds``, ``unstated settings``, ``bootstrap``).

    Examples
    --------
    >>> flips = pd.DataFrame({"dataset": ["COMPAS"] * 2, "kind": ["point", "uncertainty"],
    ...                       "seeds": [0.0, 0.5], "unstated settings": [0.1, 0.3]})
    >>> float(uncertainty_flip_summary(flips).loc[("COMPAS", "uncertainty"), "seeds"])
    0.5
    """
    sources = [c for c in _BNN_SOURCES if c in flips.columns]
    return flips.groupby(["dataset", "kind"], sort=False)[sources].mean()


_FLIP_COLUMNS = [
    "dataset",
    "attribute",
    "measure",
    "kind",
    "share unfair",
    "seeds",
    "unstated settings",
    "n seeds",
    "n settings",
]


def recorded_uncertainty_flips(recording) -> tuple[str, pd.DataFrame]:
    """:func:`uncertainty_flip_table` of a recording of chapter 04's study
    (``fairbook-book record 04 study``), with a line saying what it rests on. A recording that is
    empty or **stale** (its code changed since) is not used: the table is then empty and the
    line says why.

    Parameters
    ----------
    recording : fairbook_book.recordings.Recording

    Returns
    -------
    (str, pandas.DataFrame)

    Examples
    --------
    >>> from fairbook_book.recordings import Recording
    >>> label, table = recorded_uncertainty_flips(Recording("04", "study", pd.DataFrame()))
    >>> label.endswith("nothing recorded, so no BNN verdicts here"), table.empty
    (True, True)
    """
    description = recording.describe()
    if recording.empty or recording.stale:
        why = "nothing recorded" if recording.empty else "the recording is STALE, not used"
        return f"{description} — {why}, so no BNN verdicts here", pd.DataFrame(
            columns=_FLIP_COLUMNS
        )
    return description, uncertainty_flip_table(recording.frame)


def uncertainty_flip_text(summary: pd.DataFrame) -> str:
    """:func:`uncertainty_flip_summary` in words: per data set, the mean flip rate of the
    point and the uncertainty ratios under each source, and under which sources the
    uncertainty verdicts move more.

    Examples
    --------
    >>> summary = pd.DataFrame({"seeds": [0.0, 0.2], "unstated settings": [0.05, 0.3]},
    ...     index=pd.MultiIndex.from_tuples([("COMPAS", "point"), ("COMPAS", "uncertainty")]))
    >>> import textwrap
    >>> print(textwrap.fill(uncertainty_flip_text(summary), 88))
    COMPAS: the point-ratio verdicts flip at a mean rate of 0.00 under seeds and 0.05 under
    the unstated settings; the uncertainty-ratio verdicts at 0.20 under seeds and 0.30 under
    the unstated settings. The uncertainty verdicts flip more often than the point verdicts
    under every source.
    """
    if summary.empty:
        return "No BNN verdicts (see the line above the table)."
    sources = list(summary.columns)

    def listed(values) -> str:
        return _listed(
            f"{v:.2f} under {_name(SOURCE_NAMES, source)}"
            for source, v in zip(sources, values, strict=True)
        )

    lines = []
    for dataset in pd.unique(summary.index.get_level_values(0)):
        point = summary.loc[(dataset, "point")]
        unc = summary.loc[(dataset, "uncertainty")]
        more = [source for source in sources if unc[source] > point[source]]
        than = "flip more often than the point verdicts"
        if len(more) == len(sources):
            verdict = f"The uncertainty verdicts {than} under every source."
        elif not more:
            verdict = (
                "The uncertainty verdicts flip no more often than the point verdicts under "
                "any source."
            )
        else:
            names = _listed(_name(SOURCE_NAMES, source) for source in more)
            verdict = f"The uncertainty verdicts {than} only under {names}."
        lines.append(
            f"{dataset}: the point-ratio verdicts flip at a mean rate of {listed(point)}; "
            f"the uncertainty-ratio verdicts at {listed(unc)}. {verdict}"
        )
    return "\n".join(lines)


def bnn_flip_table(values: pd.DataFrame) -> pd.DataFrame:
    """The BNN trained in this chapter: flip rates of seed 000's ratio verdicts under FIT
    runs, seeds and bootstrap resamples (:func:`~.runs.uncertainty_values`' rows).

    A ratio ``F`` is unfair when ``|F − 1| > 0.2`` (seed 000's rule, as in
    :func:`uncertainty_flip_table`); the flip rate is :func:`fairbook.variance.verdicts.
    flip_rate`'s share of disagreeing pairs over each source's variants.

    Parameters
    ----------
    values : pandas.DataFrame
        Columns ``dataset, source, variant, attribute, measure, kind, value``.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, attribute, measure): ``kind``, ``share unfair`` (over the
        seeds), ``FIT``, ``seeds``, ``bootstrap`` and how many runs and resamples.

    Examples
    --------
    >>> values = pd.DataFrame({"dataset": "COMPAS", "attribute": "race", "measure": "F_Epis",
    ...     "kind": "uncertainty", "source": ["FIT", "FIT", "seed", "seed", "bootstrap"],
    ...     "variant": ["0", "1", "0", "1", "0"], "value": [1.5, 1.5, 1.5, 1.1, 1.3]})
    >>> row = bnn_flip_table(values).iloc[0]
    >>> float(row["FIT"]), float(row["seeds"]), float(row["share unfair"])
    (0.0, 1.0, 0.5)
    """
    need = {"dataset", "source", "variant", "attribute", "measure", "kind", "value"}
    missing = sorted(need - set(values.columns))
    if missing:
        raise ValueError(f"the values frame has no column(s) {missing}")
    rows = values.assign(unfair=_ratio_unfair(values["value"]))
    out = []
    for (dataset, attribute, measure), part in rows.groupby(
        ["dataset", "attribute", "measure"], sort=False
    ):
        by_source = {
            source: part.loc[part["source"] == source, "unfair"].to_numpy()
            for source in ("FIT", "seed", "bootstrap")
        }
        seeds = by_source["seed"]
        defined = seeds[~np.isnan(seeds)]
        out.append(
            {
                "dataset": dataset,
                "attribute": attribute,
                "measure": measure,
                "kind": part["kind"].iloc[0],
                "share unfair": float(defined.mean()) if defined.size else np.nan,
                "FIT": flip_rate(by_source["FIT"]),
                "seeds": flip_rate(seeds),
                "bootstrap": flip_rate(by_source["bootstrap"]),
                "n runs": int(seeds.size),
                "n resamples": int(by_source["bootstrap"].size),
            }
        )
    return pd.DataFrame(out)


def recorded_uncertainty_values(config: dict, *, root=None):
    """The recorded full profile of :data:`~.runs.UNCERTAINTY_RECORDING` with ``config``'s
    parameters (a :class:`fairbook_book.recordings.Recording`).

    Examples
    --------
    >>> import tempfile
    >>> from fairbook_book.chapters.verdict_stability.settings import settings
    >>> recorded_uncertainty_values(settings("full"), root=tempfile.mkdtemp()).empty
    True
    """
    from fairbook_book.recordings import load

    return load("10_verdict_stability", UNCERTAINTY_RECORDING, settings=config, root=root)


def _setting_text(setting: dict) -> str:
    if not setting:
        return "the base setting"
    return ", ".join(f"{name} = {value}" for name, value in setting.items())


def training_settings_table() -> pd.DataFrame:
    """``TRAINING_SETTINGS`` (:mod:`.settings`) as a table a reader can read: one column per
    model family, one row per ``setting:k`` variant, each cell the options that variant changes.

    Examples
    --------
    >>> t = training_settings_table()
    >>> t.loc["setting:0", "logistic"], t.loc["setting:1", "logistic"]
    ('the base setting', 'C = 0.1')
    """
    rows = max(len(v) for v in TRAINING_SETTINGS.values())
    return pd.DataFrame(
        {
            model: [_setting_text(s) for s in variants] + [""] * (rows - len(variants))
            for model, variants in TRAINING_SETTINGS.items()
        },
        index=[f"setting:{k}" for k in range(rows)],
    )
