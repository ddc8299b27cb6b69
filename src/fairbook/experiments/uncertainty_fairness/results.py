"""Chapter 04 (seed 000): tables built from the runs' results (no paper numbers)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from fairbook.metrics.individual import individual_fairness
from fairbook.papers import seed000

from .runs import FairnessResult, Run, _attribute_of, _flag, _group_rows, fairness_result, sd_run
from .settings import (
    _DECIMALS,
    GROUP_MEASURES,
    PAIRS,
    PATTERN_POINT,
    PATTERNS,
    POINT_RATIOS,
    UNCERTAINTY_RATIOS,
)

__all__ = [
    "ablation_table",
    "decomposition_table",
    "dvlog_summary",
    "estimator_comparison",
    "float_format",
    "format_tables",
    "group_ordering",
    "individual_table",
    "individual_tables",
    "sd_oracle",
    "sd_seed_study",
    "study_cost",
    "table_1",
]


def float_format(value: float) -> str:
    """How the chapter prints floats: 4 significant digits in fixed-point notation (never
    ``5.5e-05``), thousands as grouped integers, rounding noise below 1e-12 as 0.

    Examples
    --------
    >>> float_format(0.99166), float_format(5.5e-05), float_format(25933.0)
    ('0.9917', '0.000055', '25,933')
    >>> float_format(1.0), float_format(-0.0009355), float_format(float("nan"))
    ('1', '-0.0009355', 'nan')
    """
    if not np.isfinite(value):
        return str(value)
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    if abs(value) < 1e-12:
        return "0"
    return np.format_float_positional(value, precision=4, unique=False, fractional=False, trim="-")


def decomposition_table(probs, *, labels=None) -> pd.DataFrame:
    """The Kwon decomposition of Monte Carlo samples as a table, one row per input.

    Parameters
    ----------
    probs : array-like, shape (T, N, C)
        ``T`` samples of the class probabilities of ``N`` inputs
        (:func:`fairbook.uncertainty.decompose`).
    labels : sequence of str, optional, keyword-only
        The inputs' names (default ``input 1``, ``input 2``, ...).

    Returns
    -------
    pandas.DataFrame
        Columns ``U_e (epistemic)``, ``U_a (aleatoric)``, ``U_p (predictive)``, the trace of
        seed 000's Eq. 7; ``U_p = U_e + U_a``.

    Examples
    --------
    >>> decomposition_table([[[0.25, 0.75]], [[0.75, 0.25]]]).iloc[0].tolist()
    [0.125, 0.375, 0.5]
    """
    from fairbook.uncertainty import decompose

    epistemic, aleatoric, predictive = decompose(np.asarray(probs, dtype=float))
    n = len(predictive)
    index = [f"input {i + 1}" for i in range(n)] if labels is None else list(labels)
    if len(index) != n:
        raise ValueError(f"labels name {len(index)} inputs, but probs has {n}")
    return pd.DataFrame(
        {
            "U_e (epistemic)": np.asarray(epistemic, dtype=float),
            "U_a (aleatoric)": np.asarray(aleatoric, dtype=float),
            "U_p (predictive)": np.asarray(predictive, dtype=float),
        },
        index=pd.Index(index, name="input"),
    )


def format_tables(results: dict, *, labels=("G0", "G1")) -> pd.DataFrame:
    """The paper's layout as text: one column pair per result, ratios flagged.

    Parameters
    ----------
    results : dict
        Title → :class:`FairnessResult` (e.g. ``{"SD1": ..., "SD2": ...}``).
    labels : names of the two columns of each pair (default G0, G1); ``None`` uses the
        group labels.

    Returns
    -------
    DataFrame of str
        Rows: ``GROUP_MEASURES`` then the ratios; a ratio sits in the G0 column with
        "unfair" or "undefined" beside it in the G1 column.
    """
    columns = {}
    for title, result in results.items():
        names = labels or tuple(str(c) for c in result.groups.columns)
        first, second = [], []
        for m in GROUP_MEASURES:
            digits = _DECIMALS.get(m, 2)
            for target, label in (
                (first, result.groups.columns[0]),
                (second, result.groups.columns[1]),
            ):
                value = result.groups.loc[m, label]
                target.append("NaN" if not np.isfinite(value) else f"{value:.{digits}f}")
        for value in result.ratios.to_numpy():
            first.append("NaN" if not np.isfinite(value) else f"{value:.2f}")
            flag = _flag(value)
            second.append("" if flag == "fair" else flag)
        columns[(title, names[0])] = first
        columns[(title, names[1])] = second
    index = list(GROUP_MEASURES) + list(POINT_RATIOS) + list(UNCERTAINTY_RATIOS)
    return pd.DataFrame(columns, index=pd.Index(index, name="measure"))


# =========================================================================== Table 1
def table_1(
    *,
    seed: int = 0,
    estimator: str = "bnn",
    config: dict | None = None,
    orientation: str = "corrected",
    epochs: int | None = None,
) -> dict:
    """SD1–SD3 with one seed: ``{"SD1": FairnessResult, ...}`` (G0 = 0, G1 = 1)."""
    return {
        f"SD{k}": fairness_result(
            sd_run(
                k,
                seed=seed,
                estimator=estimator,
                orientation=orientation,
                config=config,
                epochs=epochs,
            ),
            "G",
            protected=0,
            reference=1,
        )
        for k in (1, 2, 3)
    }


def sd_oracle() -> pd.DataFrame:
    """What the data allow: the Bayes-optimal classifier's per-group accuracy and aleatoric
    uncertainty on SD1–SD3 (true P(Y | x), group unseen), beside the paper's Table 1."""
    from fairbook.data.synthetic import sd_bayes

    rows = {}
    for k in (1, 2, 3):
        bayes = sd_bayes(k)
        paper = seed000.TABLE_1[f"SD{k}"]
        rows[f"SD{k}"] = {
            "Bayes ACC G0": bayes["ACC"][0],
            "Bayes ACC G1": bayes["ACC"][1],
            "paper ACC G0": paper["groups"][0]["ACC"],
            "paper ACC G1": paper["groups"][1]["ACC"],
            "Bayes U_a G0": bayes["U_a"][0],
            "Bayes U_a G1": bayes["U_a"][1],
            "Bayes F_Alea": bayes["F_Alea"],
            "paper F_Alea": paper["ratios"]["F_Alea"],
        }
    return pd.DataFrame(rows)


def _mean_over(results):
    if isinstance(results, FairnessResult):
        results = [results]
    frame = pd.DataFrame([r.flat() for r in results])
    return frame.mean(), frame.std(ddof=1) if len(frame) > 1 else frame.iloc[0] * np.nan, len(frame)


def _pattern(ratios: pd.Series, sd: str, *, ignore_undefined: bool) -> dict:
    spec = PATTERNS[sd]
    point = ratios[list(PATTERN_POINT)]
    if ignore_undefined:
        point = point[np.isfinite(point)]
    flags = point.map(_flag)
    points_fair = bool((flags == "fair").all()) and len(flags) > 0
    points_unfair = bool((flags == "unfair").any())
    unc = ratios[list(spec["uncertainty"])]
    if ignore_undefined:
        unc = unc[np.isfinite(unc)]
    unc_flags = unc.map(_flag)
    if spec["uncertainty_is"] == "unfair":
        unc_ok = bool((unc_flags == "unfair").all()) and len(unc_flags) > 0
    else:
        unc_ok = bool((unc_flags == "fair").all()) and len(unc_flags) > 0
    points_ok = points_fair if spec["points"] == "fair" else points_unfair
    return {
        "points as paper": points_ok,
        "uncertainty as paper": unc_ok,
        "pattern holds": points_ok and unc_ok,
    }


def sd_seed_study(
    seeds,
    *,
    estimators=("bnn",),
    config: dict | None = None,
    orientation: str = "corrected",
    epochs: int | None = None,
):
    """Table 1's ratios and group uncertainties for many seeds, both estimators.

    Returns
    -------
    study : DataFrame
        One row per (estimator, SD, seed) with every ratio, ``U_*`` per group, and the
        pattern checks (strict: an undefined ratio is not "fair"; and ignoring
        undefined ratios).
    results : dict
        ``results[estimator][sd]``: the :class:`FairnessResult` of every seed (for
        :func:`table_1_replication`).
    """
    records = []
    kept = {e: {f"SD{k}": [] for k in (1, 2, 3)} for e in estimators}
    jobs = [(e, s) for e in estimators for s in seeds]
    for estimator, seed in tqdm(jobs, desc="SD seeds", disable=None):
        for sd, result in table_1(
            seed=seed, estimator=estimator, config=config, orientation=orientation, epochs=epochs
        ).items():
            kept[estimator][sd].append(result)
            record = {
                "estimator": estimator,
                "SD": sd,
                "seed": seed,
                "epochs": epochs or seed000.SETTINGS["synthetic"]["epochs"],
            }
            record.update(result.ratios.to_dict())
            for role, label in zip(("G0", "G1"), result.groups.columns, strict=True):
                for m in ("ACC", "U_e", "U_a", "U_p"):
                    record[f"{m} {role}"] = result.groups.loc[m, label]
            strict = _pattern(result.ratios, sd, ignore_undefined=False)
            loose = _pattern(result.ratios, sd, ignore_undefined=True)
            record.update(strict)
            record["pattern holds (undefined ignored)"] = loose["pattern holds"]
            records.append(record)
    return pd.DataFrame(records), kept


def group_ordering(runs, *, measure: str = "U_a", dataset: str = "COMPAS") -> pd.DataFrame:
    """Each group's ``measure`` (mean over runs) beside the printed value, with ranks.

    Uncertainties of a differently trained network can differ in size yet order the
    groups the same way; ``attrs["spearman"]`` is the rank correlation of the two columns.
    """
    from scipy.stats import spearmanr

    paper = seed000.TABLE_3_GROUPS if dataset == "COMPAS" else seed000.TABLE_5_GROUPS
    if isinstance(runs, Run):
        runs = [runs]
    rows = {}
    for label, printed in paper.items():
        attribute = _attribute_of(label)
        ours = np.mean(
            [
                _group_rows(
                    r.y_test,
                    r.y_pred,
                    r.uncertainty,
                    np.asarray(r.groups[attribute], dtype=object),
                    (label,),
                ).loc[measure, label]
                for r in runs
            ]
        )
        rows[label] = {"paper": printed[measure], "ours": ours}
    frame = pd.DataFrame(rows).T
    frame["paper rank"] = frame["paper"].rank(ascending=False)
    frame["our rank"] = frame["ours"].rank(ascending=False)
    frame = frame.sort_values("paper", ascending=False)
    frame.attrs["spearman"] = float(spearmanr(frame["paper"], frame["ours"]).statistic)
    return frame


def estimator_comparison(results_by_estimator: dict) -> pd.DataFrame:
    """Ratios of the same comparisons under each estimator, side by side.

    Parameters
    ----------
    results_by_estimator : dict
        Estimator → {title → FairnessResult or list of them (averaged over seeds)}.

    Returns
    -------
    DataFrame
        Rows: the ratios; columns: (title, estimator).
    """
    titles = list(dict.fromkeys(t for results in results_by_estimator.values() for t in results))
    columns = {}
    for title in titles:
        for estimator, results in results_by_estimator.items():
            if title in results:
                mean, _, _ = _mean_over(results[title])
                columns[(title, estimator)] = {
                    m: mean[(m, "ratio")] for m in PATTERN_POINT + UNCERTAINTY_RATIOS
                }
    return pd.DataFrame(columns)


# =========================================================================== Figs. 4–6
def individual_table(
    run: Run, attribute: str, labels, *, k: int = 10, scale: str = "none"
) -> pd.DataFrame:
    """Figs. 4–5: point and uncertainty consistency per group × true outcome.

    Neighbours are found among the test rows of the two groups in the encoded feature
    space (``scale="none"``: the encoding already standardises numeric columns).
    """
    groups = np.asarray(run.groups[attribute], dtype=object)
    keep = np.isin(groups, list(labels))
    uncertainty = {u: v[keep] for u, v in run.uncertainty.items()}
    return individual_fairness(
        run.X_test[keep],
        run.y_pred[keep],
        uncertainty,
        groups[keep],
        run.y_test[keep],
        k=k,
        scale=scale,
        keep=list(labels),
    )


def individual_tables(run: Run, *, k: int = 10, attributes=("race", "sex")) -> dict:
    """:func:`individual_table` for the paper's pairs of ``attributes`` (Figs. 4–5 show
    race and gender), keyed ``"COMPAS race"`` etc."""
    pairs = PAIRS[run.name.split(" ")[0]]
    return {f"{run.name} {a}": individual_table(run, a, pairs[a], k=k) for a in attributes}


def ablation_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Fig. 6 as numbers: mean accuracy, U_a and U_e per hidden size and group."""
    return (
        frame.groupby(["hidden", "group"], sort=False)[["ACC", "U_a", "U_e"]]
        .mean()
        .unstack("group")
    )


def dvlog_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per cut and group: means over seeds, and the F/M ratios of those means.

    Returns a table indexed by ``t_max`` with, per group, the share of test recordings
    whose evidence was cut, accuracy, FNR, U_e and U_a, then ``F_EAcc, F_Epis, F_Alea``.
    """
    measures = ["evidence cut", "ACC", "FNR", "U_e", "U_a"]
    means = frame.groupby(["t_max", "group"], sort=False)[measures].mean().unstack("group")
    means.columns = [f"{m} {g}" for m, g in means.columns]
    for ratio, m in (("F_EAcc", "ACC"), ("F_Epis", "U_e"), ("F_Alea", "U_a")):
        means[ratio] = means[f"{m} F"] / means[f"{m} M"]
    return means


# =========================================================================== the study
def study_cost(recording, *, seeds: int = 10) -> pd.DataFrame:
    """What the recorded study cost, per cell (units, mean and total wall seconds per unit
    as measured by ``fairbook record``), and what designs of the same factors would cost at
    ``seeds`` seeds per cell, priced at the mean unit of the fraction's cells.

    ``recording``: a :class:`~fairbook.recordings.Recording` of the study. Returns an empty
    frame when nothing is recorded.
    """
    if recording.empty:
        return pd.DataFrame()
    seconds = pd.DataFrame(
        [
            {"cell": p["unit"].rpartition("-s")[0], "seconds": p["seconds"]}
            for p in recording.provenance
        ]
    )
    per_cell = seconds.groupby("cell", sort=False)["seconds"].agg(["count", "mean", "sum"])
    per_cell.columns = ["units", "mean s per unit", "total s"]
    fraction = per_cell.index.str.match(r"f\d\d")
    unit = float(
        seconds.loc[seconds["cell"].isin(per_cell.index[fraction]), "seconds"].mean()
        if fraction.any()
        else seconds["seconds"].mean()
    )
    rows = [
        {"design": "this recording, complete", "cells x seeds": recording.expected},
        {"design": "2^(7-3) resolution IV + 3 named cells", "cells x seeds": (16 + 3) * seeds},
        {"design": "2^7 full factorial + 3 named cells", "cells x seeds": (128 + 3) * seeds},
    ]
    projected = pd.DataFrame(rows).set_index("design")
    projected["hours at the measured mean unit"] = projected["cells x seeds"] * unit / 3600
    per_cell.loc["all recorded"] = [
        len(seconds),
        seconds["seconds"].mean(),
        seconds["seconds"].sum(),
    ]
    per_cell.attrs["projected"] = projected
    return per_cell
