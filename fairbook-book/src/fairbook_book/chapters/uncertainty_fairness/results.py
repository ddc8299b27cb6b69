"""Chapter 04 (seed 000): tables built from the runs' results (no paper numbers)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from fairbook.metrics.individual import individual_fairness
from fairbook.papers import seed000
from fairbook_book.formatting import tiny

from ._names import group_name
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
    "ratio_line",
    "ratio_lines",
    "sd_oracle",
    "sd_seed_study",
    "study_cost",
    "table_1",
    "uncertainty_summary",
    "uncertainty_text",
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


def uncertainty_text(value: float, *, digits: int = 3) -> str:
    """A mean uncertainty as the chapter prints it: 4 decimals from 0.01, below that
    ``digits`` significant digits as a power of ten (``1.03 × 10⁻⁴``), so that two small
    means show the ratio between them (never 0.0001 against 0.0000).

    Examples
    --------
    >>> uncertainty_text(0.49166), uncertainty_text(0.000103), uncertainty_text(2.57e-05)
    ('0.4917', '1.03 × 10⁻⁴', '2.57 × 10⁻⁵')
    >>> uncertainty_text(0.0), uncertainty_text(float("nan"))
    ('0', 'NaN')
    """
    number = float(value)
    if not np.isfinite(number):
        return "NaN"
    if number == 0:
        return "0"
    if abs(number) < 0.01:
        return tiny(number, digits=digits)
    return f"{number:.4f}"


def _measure_text(measure: str, value: float) -> str:
    if not np.isfinite(value):
        return "NaN"
    if measure in ("U_e", "U_a", "U_p"):
        return uncertainty_text(value)
    return f"{value:.{_DECIMALS.get(measure, 2)}f}"


def format_tables(results: dict, *, labels=("G0", "G1")) -> pd.DataFrame:
    """The paper's layout as text: one column pair per result, ratios flagged.

    Parameters
    ----------
    results : dict
        Title → :class:`FairnessResult` (e.g. ``{"SD1": ..., "SD2": ...}``).
    labels : names of the two columns of each pair (default G0, G1); ``None`` names the
        groups as a reader does (:func:`~._names.group_name`: "Black", "White", ...).

    Returns
    -------
    DataFrame of str
        Rows: ``GROUP_MEASURES`` then the ratios; a ratio sits in the G0 column with
        "unfair" or "undefined" beside it in the G1 column. Mean uncertainties print by
        :func:`uncertainty_text` (a small epistemic mean as ``1.03 × 10⁻⁴``, so the ratio
        of two of them can be read off the table).
    """
    columns = {}
    for title, result in results.items():
        names = labels or tuple(group_name(c) for c in result.groups.columns)
        first, second = [], []
        for m in GROUP_MEASURES:
            for target, label in (
                (first, result.groups.columns[0]),
                (second, result.groups.columns[1]),
            ):
                target.append(_measure_text(m, result.groups.loc[m, label]))
        for value in result.ratios.to_numpy():
            first.append("NaN" if not np.isfinite(value) else f"{value:.2f}")
            flag = _flag(value)
            second.append("" if flag == "fair" else flag)
        columns[(title, names[0])] = first
        columns[(title, names[1])] = second
    index = list(GROUP_MEASURES) + list(POINT_RATIOS) + list(UNCERTAINTY_RATIOS)
    return pd.DataFrame(columns, index=pd.Index(index, name="measure"))


#: The ratios :func:`ratio_lines` spells out: the group measure each divides, and its name.
_RATIO_OF = {
    "F_Epis": ("U_e", "mean U_e"),
    "F_Alea": ("U_a", "mean U_a"),
    "F_Pred": ("U_p", "mean U_p"),
    "F_EAcc": ("ACC", "accuracy"),
}


def ratio_line(result: FairnessResult, ratio: str = "F_Epis") -> str:
    """One ratio of one result as the division it is, with the two group values.

    Examples
    --------
    >>> groups = pd.DataFrame({"B": [0.65, 2.77e-4], "W": [0.66, 1.96e-4]},
    ...                       index=["ACC", "U_e"])
    >>> result = FairnessResult(groups, pd.Series({"F_EAcc": 0.65 / 0.66,
    ...                                            "F_Epis": 2.77e-4 / 1.96e-4}))
    >>> ratio_line(result)
    'F_Epis = mean U_e of Black / mean U_e of White = 2.77 × 10⁻⁴ / 1.96 × 10⁻⁴ = 1.41 (unfair)'
    >>> ratio_line(result, "F_EAcc")
    'F_EAcc = accuracy of Black / accuracy of White = 0.65 / 0.66 = 0.98 (fair)'
    """
    if ratio not in _RATIO_OF:
        raise ValueError(f"ratio must be one of {sorted(_RATIO_OF)}, got {ratio!r}")
    key, words = _RATIO_OF[ratio]
    g0, g1 = result.groups.columns[:2]
    value = float(result.ratios[ratio])
    shown = f"{value:.2f}" if np.isfinite(value) else "undefined"
    return (
        f"{ratio} = {words} of {group_name(g0)} / {words} of {group_name(g1)} = "
        f"{_measure_text(key, result.groups.loc[key, g0])} / "
        f"{_measure_text(key, result.groups.loc[key, g1])} = {shown} ({_flag(value)})"
    )


def ratio_lines(results: dict, *, ratio: str = "F_Epis") -> str:
    """Each result's ratio as the division it is (:func:`ratio_line`), one line per result,
    its title first.

    Parameters
    ----------
    results : dict
        Title → :class:`FairnessResult` (e.g. :func:`table_1`).
    ratio : {"F_Epis", "F_Alea", "F_Pred", "F_EAcc"}, keyword-only

    Returns
    -------
    str
        ``"SD1: F_Epis = mean U_e of G0 / mean U_e of G1 = 1.03 × 10⁻⁴ / 2.57 × 10⁻⁵ = 4.01
        (unfair)"`` per line: the two means with enough digits to see the ratio.

    Examples
    --------
    >>> groups = pd.DataFrame({0: [1.03e-4], 1: [2.57e-5]}, index=["U_e"])
    >>> result = FairnessResult(groups, pd.Series({"F_Epis": 1.03e-4 / 2.57e-5}))
    >>> print(ratio_lines({"SD1": result}))
    SD1: F_Epis = mean U_e of G0 / mean U_e of G1 = 1.03 × 10⁻⁴ / 2.57 × 10⁻⁵ = 4.01 (unfair)
    """
    return "\n".join(f"{title}: {ratio_line(r, ratio)}" for title, r in results.items())


#: The rows of :func:`uncertainty_summary`: (what, group measure, ratio).
_SUMMARY_ROWS = (
    ("accuracy", "ACC", "F_EAcc"),
    ("aleatoric U_a", "U_a", "F_Alea"),
    ("epistemic U_e", "U_e", "F_Epis"),
)


def uncertainty_summary(runs, *, dataset: str = "COMPAS") -> pd.DataFrame:
    """The chapter's open table: per comparison of the paper, accuracy and the two
    uncertainties of each group, their ratio, and the ratio's spread over the runs.

    Parameters
    ----------
    runs : list of Run
        Fitted runs of one data set, one per seed (:func:`~.runs.real_runs`).
    dataset : {"COMPAS", "Adult"}, keyword-only

    Returns
    -------
    DataFrame of str
        Index ``(groups, measure)``, e.g. ``("Black / White", "epistemic U_e → F_Epis")``,
        the protected group G0 first. Columns: ``G0`` and ``G1`` (the group means of the
        first run),
        ``F = G0 / G1`` (their ratio), then over all runs the ratio's median and range and
        how many runs flag it unfair (``|F − 1| > 0.2``).

    Examples
    --------
    >>> from fairbook_book.chapters.uncertainty_fairness.runs import Run
    >>> probs = np.array([[[0.9, 0.1], [0.5, 0.5], [0.8, 0.2], [0.6, 0.4]]] * 2)
    >>> run = Run("SD1", "bnn", None, None, np.array([0, 1, 0, 1]),
    ...           {"G": np.array([0, 0, 1, 1])}, probs)
    >>> uncertainty_summary([run], dataset="SD").loc[("G0 / G1", "aleatoric U_a → F_Alea")].tolist()
    ['0.3400', '0.4000', '0.85', '0.85', '0.85–0.85', '0 of 1']
    """
    if isinstance(runs, Run):
        runs = [runs]
    runs = list(runs)
    if not runs:
        raise ValueError("runs is empty")
    pairs = PAIRS.get(dataset, {"G": (0, 1)})
    rows, index = [], []
    for attribute, (g0, g1) in pairs.items():
        results = [fairness_result(r, attribute, protected=g0, reference=g1) for r in runs]
        first = results[0]
        comparison = f"{group_name(g0)} / {group_name(g1)}"
        for what, measure, ratio in _SUMMARY_ROWS:
            values = np.array([float(r.ratios[ratio]) for r in results])
            finite = values[np.isfinite(values)]
            unfair = sum(_flag(v) == "unfair" for v in values)
            value = float(first.ratios[ratio])
            rows.append(
                {
                    "G0": _measure_text(measure, first.groups.loc[measure, g0]),
                    "G1": _measure_text(measure, first.groups.loc[measure, g1]),
                    "F = G0 / G1": f"{value:.2f}" if np.isfinite(value) else "undefined",
                    f"F, median of {len(runs)}": (
                        f"{np.median(finite):.2f}" if finite.size else "undefined"
                    ),
                    "F, range": (
                        f"{finite.min():.2f}–{finite.max():.2f}" if finite.size else "undefined"
                    ),
                    "unfair in": f"{unfair} of {len(runs)}",
                }
            )
            index.append((comparison, f"{what} → {ratio}"))
    return pd.DataFrame(rows, index=pd.MultiIndex.from_tuples(index, names=["groups", "measure"]))


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
    as measured by ``fairbook-book record``), and what designs of the same factors would cost at
    ``seeds`` seeds per cell, priced at the mean unit of the fraction's cells.

    ``recording``: a :class:`~fairbook_book.recordings.Recording` of the study. Returns an empty
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
