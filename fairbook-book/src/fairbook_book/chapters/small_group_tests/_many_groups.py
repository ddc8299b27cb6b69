"""Section 2 of "How small is too small?": many small groups at once.

An audit of every race × sex × age intersection of COMPAS or Adult tests dozens of small
groups against one reference (the largest intersection). This module arranges the
statistics of :mod:`fairbook.stats.many_groups` as the section shows them; each function
returns a DataFrame (or, for a figure, the matplotlib Axes) ready to show:

* :func:`intersection_groups` — per intersection: size, predicted positives, PPR, and which
  one is the reference;
* :func:`familywise_table` — if no intersection differed from the reference, how often would
  none / Bonferroni / Holm / Benjamini–Hochberg flag at least one? (simulated, with the exact
  Bonferroni and unadjusted values beside);
* :func:`max_disparity_table` — the observed largest PPR gap beside the largest gap chance
  alone produces, and Lum, Zhang and Bower's corrected between-group variance beside the
  naive one;
* :func:`max_disparity_curve`, :func:`plot_max_disparity_curve` — the expected largest gap
  against the number of groups, for groups of 10, 30 and 100.

Throughout, the reference's rate is treated as **known** (``N=None`` in
:mod:`fairbook.stats.group_tests`): the reference is 10–100 times larger than the small
intersections, so its own noise is a small part of the story, and the exact Bonferroni
family-wise error (a finite product) then applies. Fisher's and Boschloo's tests, which need a
reference sample, are therefore not in these tables.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from fairbook.stats import many_groups

from .runs import TEST_NAMES

__all__ = [
    "ADULT_AGE_BANDS",
    "DATASETS",
    "FAMILYWISE_TESTS",
    "familywise_table",
    "familywise_view",
    "intersection_groups",
    "intersection_table",
    "max_disparity_curve",
    "max_disparity_table",
    "max_disparity_view",
    "plot_max_disparity_curve",
]

#: The data sets whose intersections the section audits.
DATASETS = ("compas", "adult")
#: Adult's age bands: (lowest age, first age of the next band, label).
ADULT_AGE_BANDS = ((0, 25, "<25"), (25, 45, "25–44"), (45, 65, "45–64"), (65, 200, "65+"))
#: The one-sample tests of the family-wise table (the reference's rate known).
FAMILYWISE_TESTS = ("match", "wald", "score", "bayes")

_COMPAS_AGES = {"Less than 25": "<25", "25 - 45": "25–45", "Greater than 45": ">45"}


def intersection_table(predicted, race, sex, age) -> pd.DataFrame:
    """Size, predicted positives and PPR of every race × sex × age intersection.

    Parameters
    ----------
    predicted : array_like of {0, 1}
        One prediction per person (1 = the positive, beneficial prediction).
    race, sex, age : array_like
        One label per person each.

    Returns
    -------
    pandas.DataFrame
        One row per non-empty intersection, largest first: ``group`` (``"race · sex ·
        age"``), ``race``, ``sex``, ``age``, ``n``, ``positives``, ``ppr`` and
        ``reference`` (True for the largest intersection, the one every other is compared
        with).

    Raises
    ------
    ValueError
        If the inputs differ in length or a prediction is not 0 or 1.

    Examples
    --------
    >>> table = intersection_table([1, 0, 1, 1], ["a", "a", "b", "a"], ["F"] * 4, ["y"] * 4)
    >>> table[["group", "n", "positives", "reference"]].values.tolist()
    [['a · F · y', 3, 2, True], ['b · F · y', 1, 1, False]]
    """
    predicted = np.asarray(predicted)
    columns = [np.asarray(race, dtype=object), np.asarray(sex, dtype=object)]
    columns.append(np.asarray(age, dtype=object))
    if any(column.shape != predicted.shape for column in columns) or predicted.ndim != 1:
        raise ValueError("predicted, race, sex and age must be 1-d and of the same length")
    if not np.isin(predicted, [0, 1]).all():
        raise ValueError("predictions must be 0 or 1")
    frame = pd.DataFrame(
        {"race": columns[0], "sex": columns[1], "age": columns[2], "positive": predicted}
    )
    table = (
        frame.groupby(["race", "sex", "age"], sort=True)["positive"]
        .agg(n="size", positives="sum")
        .reset_index()
        .sort_values(["n", "race", "sex", "age"], ascending=[False, True, True, True])
        .reset_index(drop=True)
    )
    table["n"] = table["n"].astype(np.int64)
    table["positives"] = table["positives"].astype(np.int64)
    table["ppr"] = table["positives"] / table["n"]
    table.insert(0, "group", table["race"] + " · " + table["sex"] + " · " + table["age"])
    table["reference"] = table.index == 0
    return table


def _adult_age_band(age) -> np.ndarray:
    age = np.asarray(age)
    labels = np.empty(age.shape, dtype=object)
    for low, high, label in ADULT_AGE_BANDS:
        labels[(age >= low) & (age < high)] = label
    return labels


def intersection_groups(dataset: str) -> pd.DataFrame:
    """The race × sex × age intersections of a data set, with its predictions' PPR.

    ``"compas"``
        ProPublica's filtered file (``load_compas(preprocess="zafar2017")``, 6172 people),
        positive = predicted low risk (decile score below 5,
        :func:`fairbook.data.compas_propublica_predictions`); COMPAS's own age categories
        (<25, 25–45, >45).
    ``"adult"``
        Gaussian naive Bayes trained on Adult's training file and scored on its test file
        (:func:`fairbook.data.predictions.adult_race_predictions` with ``"nb"``, 15060
        people), positive = predicted income above 50K; age bands <25, 25–44, 45–64, 65+.

    Parameters
    ----------
    dataset : {"compas", "adult"}

    Returns
    -------
    pandas.DataFrame
        As :func:`intersection_table`, with ``attrs["dataset"]`` set.

    Examples
    --------
    >>> groups = intersection_groups("compas")  # doctest: +SKIP
    >>> groups.loc[groups["reference"], "group"].item()  # doctest: +SKIP
    'African-American · Male · 25–45'
    """
    if dataset == "compas":
        from fairbook.data import compas_propublica_predictions, load_compas

        frame = load_compas(preprocess="zafar2017")
        _, predicted, race = compas_propublica_predictions(frame)
        age = frame["age_cat"].map(_COMPAS_AGES).to_numpy(dtype=object)
        table = intersection_table(predicted, race, frame["sex"].to_numpy(dtype=object), age)
    elif dataset == "adult":
        from fairbook.data.adult import load_adult
        from fairbook.data.predictions import adult_race_predictions

        _, predicted, race = adult_race_predictions("nb")
        test = load_adult("test", drop_missing=True)  # the rows adult_race_predictions scores
        if len(test) != len(predicted) or not np.array_equal(test["race"].to_numpy(), race):
            raise ValueError("Adult's test rows do not line up with its predictions")
        sex = test["sex"].to_numpy(dtype=object)
        table = intersection_table(predicted, race, sex, _adult_age_band(test["age"]))
    else:
        raise ValueError(f"unknown dataset {dataset!r}; choose one of {', '.join(DATASETS)}")
    table.attrs["dataset"] = dataset
    return table


def _as_mapping(groups) -> dict[str, pd.DataFrame]:
    if isinstance(groups, pd.DataFrame):
        return {groups.attrs.get("dataset", "groups"): groups}
    if isinstance(groups, Mapping) and groups:
        return dict(groups)
    raise ValueError("groups must be a table of intersection_groups or a non-empty mapping of them")


def _split(table: pd.DataFrame, min_size: int) -> tuple[pd.Series, pd.DataFrame]:
    missing = {"group", "n", "positives", "reference"} - set(table.columns)
    if missing:
        raise ValueError(f"a groups table lacks column(s) {sorted(missing)}")
    if table["reference"].sum() != 1:
        raise ValueError("a groups table must mark exactly one reference")
    if isinstance(min_size, bool) or not isinstance(min_size, (int, np.integer)) or min_size < 1:
        raise ValueError(f"min_size must be a positive integer, got {min_size!r}")
    reference = table.loc[table["reference"]].iloc[0]
    others = table.loc[~table["reference"] & (table["n"] >= min_size)]
    if others.empty:
        raise ValueError(f"no group besides the reference has at least {min_size} people")
    return reference, others


def familywise_table(
    groups,
    *,
    tests=FAMILYWISE_TESTS,
    alpha: float = 0.05,
    n_sims: int = 2000,
    seed: int = 0,
    min_size: int = 2,
) -> pd.DataFrame:
    """If no intersection differed from the reference, how often would any be flagged?

    For each data set, the intersections other than the reference (those of at least
    ``min_size`` people) keep their sizes, and every one is given the reference's PPR (the
    global null). Each test flags them without adjustment, with Bonferroni, Holm or
    Benjamini–Hochberg at level ``alpha``; :func:`fairbook.stats.many_groups.simulate_many_groups`
    simulates it with the reference's rate known (``N=None``). Beside the simulated
    family-wise error rate is the exact one of no adjustment and of Bonferroni — which is
    also Holm's under the global null (:func:`fairbook.stats.many_groups.bonferroni_fwer_exact`);
    BH has no such product (NaN). Under the global null every flag is false, so the false
    discovery rate equals the family-wise error rate.

    Parameters
    ----------
    groups : DataFrame or mapping of str to DataFrame
        Tables of :func:`intersection_groups`, by data set.
    tests : sequence of str
        One-sample tests of :mod:`fairbook.stats.group_tests`.
    alpha : float, default 0.05
    n_sims : int, default 2000
    seed : int, default 0
    min_size : int, default 2
        Smaller intersections are left out (a "rate" of one person).

    Returns
    -------
    pandas.DataFrame
        One row per data set, test and procedure: ``dataset``, ``test``, ``groups`` (K),
        ``p_ref``, ``procedure``, ``fwer``, ``fwer_se``, ``fwer_exact``, ``fdr``.

    Examples
    --------
    >>> toy = intersection_table([1] * 30 + [0] * 30, ["a"] * 40 + ["b"] * 20,
    ...                          ["F"] * 60, ["y"] * 40 + ["o"] * 10 + ["y"] * 10)
    >>> table = familywise_table(toy, tests=["match"], n_sims=200)
    >>> table["procedure"].tolist()
    ['none', 'bonferroni', 'holm', 'benjamini_hochberg']
    """
    rows = []
    for dataset, table in _as_mapping(groups).items():
        reference, others = _split(table, min_size)
        p_ref = float(reference["positives"] / reference["n"])
        sizes = others["n"].to_numpy(np.int64)
        for test in tests:
            simulated = many_groups.simulate_many_groups(
                test, sizes, p_ref=p_ref, alpha=alpha, n_sims=n_sims, seed=seed
            )
            exact = {
                "none": many_groups.bonferroni_fwer_exact(
                    test, sizes, p=p_ref, alpha=alpha, adjust=False
                ),
                "bonferroni": many_groups.bonferroni_fwer_exact(test, sizes, p=p_ref, alpha=alpha),
            }
            exact["holm"] = exact["bonferroni"]
            for procedure, row in simulated.iterrows():
                rows.append(
                    {
                        "dataset": dataset,
                        "test": test,
                        "groups": sizes.size,
                        "p_ref": p_ref,
                        "procedure": procedure,
                        "fwer": row["fwer"],
                        "fwer_se": row["fwer_se"],
                        "fwer_exact": exact.get(procedure, np.nan),
                        "fdr": row["fdr"],
                    }
                )
    return pd.DataFrame(rows)


def max_disparity_table(
    groups,
    *,
    min_size: int = 2,
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int = 0,
) -> pd.DataFrame:
    """The observed largest PPR gap beside what chance alone produces; corrected variance.

    For each data set: the largest ``|PPR_k − PPR_ref|`` over the intersections other than
    the reference (of at least ``min_size`` people) and the group it belongs to; the largest
    gap *expected* if every one had the reference's PPR exactly (the reference's rate known;
    :func:`fairbook.stats.many_groups.expected_max_disparity`), its ``level`` quantile and
    the chance of a gap at least as large as the observed one. Then the between-group
    variance of all the intersections' PPRs (the reference included): naive (the sample
    variance), corrected as Lum, Zhang and Bower (2022) do and exactly unbiased
    (:func:`fairbook.stats.many_groups.between_group_variance`), with the standard error and
    ``level`` interval of Lum et al.'s parametric bootstrap of the double-corrected statistic
    (:func:`fairbook.stats.many_groups.corrected_variance_interval`, their correction).

    Parameters
    ----------
    groups : DataFrame or mapping of str to DataFrame
        Tables of :func:`intersection_groups`, by data set.
    min_size : int, default 2
    level : float, default 0.95
    n_boot : int, default 2000
    seed : int, default 0

    Returns
    -------
    pandas.DataFrame
        Indexed by data set.

    Examples
    --------
    >>> toy = intersection_table([1] * 30 + [0] * 30, ["a"] * 40 + ["b"] * 20,
    ...                          ["F"] * 60, ["y"] * 40 + ["o"] * 10 + ["y"] * 10)
    >>> table = max_disparity_table(toy, n_boot=200)
    >>> float(table.loc["groups", "observed_max"])  # |0/10 - 30/40|
    0.75
    """
    if not 0 < level < 1:
        raise ValueError(f"level must lie strictly between 0 and 1, got {level}")
    rows = {}
    for dataset, table in _as_mapping(groups).items():
        reference, others = _split(table, min_size)
        p_ref = float(reference["positives"] / reference["n"])
        sizes = others["n"].to_numpy(np.int64)
        gaps = (others["positives"] / others["n"] - p_ref).abs()
        observed = float(gaps.max())
        kept = table.loc[table["reference"] | (table["n"] >= min_size)]
        interval = many_groups.corrected_variance_interval(
            kept["positives"], kept["n"], correction="lum", level=level, n_boot=n_boot, seed=seed
        )
        rows[dataset] = {
            "groups": sizes.size,
            "reference": reference["group"],
            "p_ref": p_ref,
            "observed_max": observed,
            "observed_group": others.loc[gaps.idxmax(), "group"],
            "expected_max": many_groups.expected_max_disparity(sizes, p=p_ref),
            f"max_q{round(100 * level)}": many_groups.max_disparity_quantile(sizes, level, p=p_ref),
            "p_chance": many_groups.max_disparity_sf(observed, sizes, p=p_ref),
            "variance_naive": interval["naive"],
            "variance_lum": interval["corrected"],
            "variance_unbiased": many_groups.between_group_variance(
                kept["positives"], kept["n"], correction="unbiased"
            ),
            "variance_lum_se": interval["se"],
            "variance_lum_lower": interval["lower"],
            "variance_lum_upper": interval["upper"],
        }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "dataset"
    return table


def max_disparity_curve(
    *, sizes=(10, 30, 100), max_groups: int = 100, p: float | None = None, level: float = 0.95
) -> pd.DataFrame:
    """Expected largest gap ``max_k |p̂_k − p|`` against the number of groups ``K``.

    Every one of ``K = 1 … max_groups`` groups of a given size has the true rate ``p``
    (known); the largest observed gap is then pure chance. ``p`` defaults to COMPAS's share
    predicted low risk over all 6172 people (:func:`intersection_groups`).

    Parameters
    ----------
    sizes : sequence of int, default (10, 30, 100)
    max_groups : int, default 100
    p : float, optional
    level : float, default 0.95
        The quantile shown beside the mean.

    Returns
    -------
    pandas.DataFrame
        Columns ``size``, ``groups`` (K), ``p``, ``level``, ``expected_max`` and
        ``quantile`` (the ``level`` quantile of the largest gap).

    Examples
    --------
    >>> curve = max_disparity_curve(sizes=[10], max_groups=3, p=0.5)
    >>> curve["expected_max"].is_monotonic_increasing
    True
    """
    if isinstance(max_groups, bool) or not isinstance(max_groups, (int, np.integer)):
        raise ValueError(f"max_groups must be a positive integer, got {max_groups!r}")
    if max_groups < 1:
        raise ValueError(f"max_groups must be a positive integer, got {max_groups}")
    if p is None:
        compas = intersection_groups("compas")
        p = float(compas["positives"].sum() / compas["n"].sum())
    rows = []
    for size in sizes:
        for k in range(1, max_groups + 1):
            law = many_groups.max_disparity_distribution([size] * k, p=p)
            cdf = law["cdf"].to_numpy()
            quantile = law["disparity"].to_numpy()[
                min(np.searchsorted(cdf, level - 1e-12), cdf.size - 1)
            ]
            rows.append(
                {
                    "size": int(size),
                    "groups": k,
                    "p": float(p),
                    "level": level,
                    "expected_max": float(law["disparity"] @ law["probability"]),
                    "quantile": float(quantile),
                }
            )
    return pd.DataFrame(rows)


def plot_max_disparity_curve(curve: pd.DataFrame, *, ax=None):
    """Draw :func:`max_disparity_curve`: one line per group size, its quantile dashed.

    Examples
    --------
    >>> ax = plot_max_disparity_curve(max_disparity_curve(sizes=[10], max_groups=3, p=0.5))
    >>> len(ax.lines)
    2
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    by_size = list(curve.groupby("size"))
    colors = plt.cm.viridis(np.linspace(0.1, 0.85, max(len(by_size), 1)))
    for (size, part), color in zip(by_size, colors, strict=False):
        ax.plot(part["groups"], part["expected_max"], color=color, label=f"n = {size}: mean")
        ax.plot(part["groups"], part["quantile"], color=color, linestyle="--", linewidth=1)
    ax.set_xlabel("number of groups K")
    ax.set_ylabel("largest gap |PPR_k − PPR_ref| by chance")
    if len(curve):
        p, level = curve["p"].iloc[0], curve["level"].iloc[0]
        ax.set_title(
            f"No group differs (true PPR {p:.2f}); dashed: {100 * level:.0f}% of draws below"
        )
    ax.legend(frameon=False)
    return ax


_PROCEDURES = {
    "none": "no adjustment",
    "bonferroni": "Bonferroni",
    "holm": "Holm",
    "benjamini_hochberg": "Benjamini–Hochberg",
}


def familywise_view(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`familywise_table` for the page: one row per data set and test, the simulated
    family-wise error of each procedure, and the exact one where a product gives it.

    Returns
    -------
    pandas.DataFrame
        Index ``data set, test``; columns per procedure, then ``… (exact)`` for no adjustment
        and for Bonferroni = Holm.

    Examples
    --------
    >>> toy = intersection_table([1] * 30 + [0] * 30, ["a"] * 40 + ["b"] * 20,
    ...                          ["F"] * 60, ["y"] * 40 + ["o"] * 10 + ["y"] * 10)
    >>> list(familywise_view(familywise_table(toy, tests=["match"], n_sims=200)).columns)[:2]
    ['no adjustment', 'Bonferroni']
    """
    keyed = table.assign(
        **{
            "data set": table["dataset"].map(lambda d: "COMPAS" if d == "compas" else d.title()),
            "test": table["test"].map(TEST_NAMES),
        }
    )
    simulated = keyed.pivot_table(
        index=["data set", "test"], columns="procedure", values="fwer", sort=False
    )[list(_PROCEDURES)].rename(columns=_PROCEDURES)
    exact = keyed.pivot_table(
        index=["data set", "test"], columns="procedure", values="fwer_exact", sort=False
    )
    simulated["no adjustment (exact)"] = exact["none"]
    simulated["Bonferroni = Holm (exact)"] = exact["bonferroni"]
    simulated.columns.name = None
    return simulated


_DISPARITY_ROWS = {
    "groups": "intersections tested",
    "reference": "reference (the largest)",
    "p_ref": "reference's PPR",
    "observed_max": "largest observed gap |PPR − PPR_ref|",
    "observed_group": "… its intersection",
    "expected_max": "largest gap expected by chance alone",
    "max_q95": "95 % of chance's largest gaps are at most",
    "p_chance": "chance of a largest gap at least as large",
    "variance_naive": "between-group variance of PPR, naive",
    "variance_lum": "… corrected (Lum, Zhang and Bower 2022)",
    "variance_unbiased": "… corrected, exactly unbiased",
    "variance_lum_se": "… its standard error (double-corrected bootstrap)",
    "variance_lum_lower": "… 95 % interval, low",
    "variance_lum_upper": "… 95 % interval, high",
}


def max_disparity_view(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`max_disparity_table` for the page: one column per data set, rows in words.

    Examples
    --------
    >>> toy = intersection_table([1] * 30 + [0] * 30, ["a"] * 40 + ["b"] * 20,
    ...                          ["F"] * 60, ["y"] * 40 + ["o"] * 10 + ["y"] * 10)
    >>> max_disparity_view(max_disparity_table(toy, n_boot=50)).index[0]
    'intersections tested'
    """
    shown = table.set_index("dataset") if "dataset" in table.columns else table
    shown = shown[[c for c in _DISPARITY_ROWS if c in shown.columns]].T
    shown.index = [_DISPARITY_ROWS[c] for c in shown.index]
    shown.columns = ["COMPAS" if c == "compas" else str(c).title() for c in shown.columns]
    return shown.map(lambda v: f"{v:.3f}" if isinstance(v, float) else v)
