"""Chapter "The Objective Fairness Index" (seed 003 ch. 3): every computation it shows."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from fairbook.confusion import CELLS, confusion_counts
from fairbook.experiments.profiles import choose_settings
from fairbook.metrics import compare, compute
from fairbook.metrics.properties import PROPERTIES, property_table
from fairbook.papers import seed003
from fairbook.replication import replication_table  # noqa: F401  (re-exported for chapters)

__all__ = [
    "ADULT_FEATURES",
    "adult_race_predictions",
    "compas_race_counts",
    "counterexample_table",
    "direction_agreement",
    "folktables_employment_predictions",
    "settings",
    "favour_counts",
    "fig_3_3_replication",
    "group_counts",
    "pairwise_scores",
    "property_replication",
    "table_3_1",
    "table_3_3",
]


def table_3_1() -> pd.DataFrame:
    """Seed 003 Table 3.1 recomputed: OFI and DI per scenario, paper vs ours.

    Examples
    --------
    >>> set(table_3_1().verdict) <= {"matches", "both undefined"}
    True
    """
    rows = []
    for scenario, (cm_i, cm_j, ofi, di) in seed003.TABLE_3_1.items():
        rows.append(
            {
                "quantity": f"OFI, scenario {scenario}",
                "paper": ofi,
                "ours": compare("OFI", cm_i, cm_j),
            }
        )
        note = "paper: 'NaN or 1' (0/0)" if np.isnan(di) else ""
        rows.append(
            {
                "quantity": f"DI, scenario {scenario}",
                "paper": di,
                "ours": compare("DI", cm_i, cm_j),
                "note": note,
            }
        )
    return replication_table(rows)


def table_3_3() -> pd.DataFrame:
    """Seed 003 Table 3.3 recomputed: TE, DCA and OFI in scenarios C and D.

    Examples
    --------
    >>> len(table_3_3())
    6
    """
    rows = []
    for scenario, (cm_i, cm_j, te, dca, ofi) in seed003.TABLE_3_3.items():
        for name, printed in (("TE", te), ("DCA", dca), ("OFI", ofi)):
            rows.append(
                {
                    "quantity": f"{name}, scenario {scenario}",
                    "paper": printed,
                    "ours": compare(name, cm_i, cm_j),
                }
            )
    return replication_table(rows)


def property_replication(*, n_max: int = 12) -> pd.DataFrame:
    """Table 3.2's ticks as ``ours (paper's)``, e.g. ``✓ (✓)``; ours come from enumeration.

    Examples
    --------
    >>> t = property_replication(n_max=4)
    >>> t.loc["OFI", "OBJ"]
    '✓ (✓)'
    """
    table = property_table(n_max=n_max)
    out = pd.DataFrame(index=table.index)
    for prop in PROPERTIES:
        out[prop] = [
            f"{'✓' if ours else '✗'} ({'✓' if paper else '✗'})"
            + ("" if ours == paper else " ← differs")
            for ours, paper in zip(table[prop], table[f"{prop}_paper"], strict=True)
        ]
    out["verdict"] = np.where(table["agree"], "matches", "differs: " + table["disagree_on"])
    out["observed range"] = [
        f"[{lo:.3g}, {hi:.3g}]"
        for lo, hi in zip(table.observed_min, table.observed_max, strict=True)
    ]
    out.attrs["checks"] = table.attrs["checks"]
    return out


def group_counts(y_true, y_pred, groups, *, positive=1, min_group_size: int = 0):
    """Confusion counts per group as a DataFrame (``TP FN FP TN n included``).

    Groups smaller than ``min_group_size`` are kept in the table but marked
    ``included = False`` so a chapter can say which it left out and why.

    Examples
    --------
    >>> group_counts([1, 0, 1], [1, 1, 0], ["a", "a", "b"]).loc["a", "FP"]
    np.int64(1)
    """
    counts, labels = confusion_counts(y_true, y_pred, groups, positive=positive, return_groups=True)
    frame = pd.DataFrame(counts, index=pd.Index(labels, name="group"), columns=list(CELLS))
    frame["n"] = frame[list(CELLS)].sum(axis=1)
    frame["included"] = frame["n"] >= min_group_size
    return frame.sort_values("n", ascending=False)


def compas_race_counts(*, min_group_size: int = 100) -> pd.DataFrame:
    """COMPAS counts per race with ProPublica's predictions (seed 003 Fig. 3.2).

    Uses the two-year file filtered as in ProPublica's analysis (``zafar2017``), a
    decile score ≥ 5 as "high risk", and the positive label flipped to "not a recidivist"
    (the beneficial outcome), so FP = predicted low risk but reoffended.
    """
    from fairbook.data import compas_propublica_predictions, load_compas

    y_true, y_pred, race = compas_propublica_predictions(load_compas(preprocess="zafar2017"))
    return group_counts(y_true, y_pred, race, min_group_size=min_group_size)


def pairwise_scores(counts: pd.DataFrame, metric: str) -> pd.DataFrame:
    """``metric(row group i, column group j)`` for every ordered pair of included groups.

    Examples
    --------
    >>> c = pd.DataFrame({"TP": [1, 7], "FN": [0, 0], "FP": [0, 1], "TN": [5, 10]},
    ...                  index=["i", "j"])
    >>> round(float(pairwise_scores(c, "OFI").loc["i", "j"]), 3)
    -0.056
    """
    if "included" in counts:
        counts = counts[counts["included"]]
    cms = counts[list(CELLS)].to_numpy(dtype=float)
    scores = np.array(compare(metric, cms[:, None, :], cms[None, :, :]), dtype=float)
    np.fill_diagonal(scores, np.nan)  # a group against itself is not a comparison
    frame = pd.DataFrame(scores, index=counts.index, columns=counts.index)
    frame.index.name, frame.columns.name = "group i", "group j"
    return frame


def direction_agreement(counts: pd.DataFrame) -> dict:
    """How often DI (pivot 1) and OFI (pivot 0) name the same favoured group.

    Returns
    -------
    dict
        ``pairs`` (unordered pairs with both defined), ``agree``, ``share``, and
        ``disagreements`` (a list of ``(i, j, DI, OFI)``).
    """
    di = pairwise_scores(counts, "DI")
    ofi = pairwise_scores(counts, "OFI")
    pairs, agree, disagreements = 0, 0, []
    for i, j in itertools.combinations(di.index, 2):
        d, o = di.loc[i, j], ofi.loc[i, j]
        if np.isnan(d) or np.isnan(o):
            continue
        pairs += 1
        if np.sign(d - 1) == np.sign(o):
            agree += 1
        else:
            disagreements.append((i, j, float(d), float(o)))
    return {
        "pairs": pairs,
        "agree": agree,
        "share": agree / pairs if pairs else np.nan,
        "disagreements": disagreements,
    }


def favour_counts(counts: pd.DataFrame) -> pd.DataFrame:
    """Per group: in how many of its comparisons DI (> 1) and OFI (> 0) favour it.

    This is how seed 003 summarises Fig. 3.3 ("DI suggests a positive bias for Pacific
    Islanders in 7/8 cases … OFI in 2/8").
    """
    di = pairwise_scores(counts, "DI")
    ofi = pairwise_scores(counts, "OFI")
    return pd.DataFrame(
        {
            "comparisons": di.notna().sum(axis=1),
            "DI favours": (di > 1).sum(axis=1),
            "OFI favours": (ofi > 0).sum(axis=1),
            "PPR": compute("PPR", counts.loc[di.index, list(CELLS)].to_numpy(float)),
            "marginal benefit B": compute("B", counts.loc[di.index, list(CELLS)].to_numpy(float)),
        }
    )


#: Adult features used by the Fig. 3.3 stand-in: everything but the label and fnlwgt
#: (a census sampling weight, not a property of the person). Categorical columns are
#: one-hot encoded on the union of train and test categories; race and sex stay in, as in
#: the paper's Folktables features.
ADULT_FEATURES = (
    "age",
    "workclass",
    "education-num",
    "marital-status",
    "occupation",
    "relationship",
    "race",
    "sex",
    "capital-gain",
    "capital-loss",
    "hours-per-week",
    "native-country",
)


def _adult_design(train: pd.DataFrame, test: pd.DataFrame):
    both = pd.concat([train[list(ADULT_FEATURES)], test[list(ADULT_FEATURES)]])
    encoded = pd.get_dummies(both, dtype=float)
    return encoded.iloc[: len(train)].to_numpy(), encoded.iloc[len(train) :].to_numpy()


def adult_race_predictions(
    model: str = "rf", *, seed: int = 0, n_estimators: int = 100, max_train_rows: int | None = None
):
    """Offline stand-in for Fig. 3.3: predict Adult income (> 50K = positive) by race.

    Trains on the Adult training file and predicts the test file (rows with '?' dropped
    in both). ``model`` is ``"rf"`` (scikit-learn RandomForestClassifier) or ``"nb"``
    (GaussianNB).

    Returns
    -------
    y_true, y_pred : ndarray of int (1 = income > 50K)
    race : ndarray of str
    """
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.naive_bayes import GaussianNB

    from fairbook.data import load_adult

    if model not in ("rf", "nb"):
        raise ValueError(f"model must be 'rf' or 'nb', got {model!r}")
    train = load_adult("train", drop_missing=True)
    test = load_adult("test", drop_missing=True)
    if max_train_rows is not None and max_train_rows < len(train):
        train = train.sample(n=max_train_rows, random_state=seed)
    x_train, x_test = _adult_design(train, test)
    y_train = (train["income"] == ">50K").to_numpy(int)
    y_test = (test["income"] == ">50K").to_numpy(int)
    if model == "rf":
        classifier = RandomForestClassifier(
            n_estimators=n_estimators, random_state=seed, n_jobs=1, min_samples_leaf=2
        )
    else:
        classifier = GaussianNB()
    y_pred = classifier.fit(x_train, y_train).predict(x_test)
    return y_test, np.asarray(y_pred, dtype=int), test["race"].to_numpy()


#: Parameters of the two profiles; a chapter's explicit parameters override them.
PROFILES = {
    "fast": {"n_max": 12, "n_estimators": 50, "max_train_rows": None},
    "full": {"n_max": 12, "n_estimators": 500, "max_train_rows": None},
}


def settings(profile: str = "fast", **overrides) -> dict:
    """The chapter's settings for ``profile``; ``None`` overrides are ignored.

    Examples
    --------
    >>> settings("full")["n_estimators"]
    500
    >>> settings("fast", n_estimators=7)["n_estimators"]
    7
    """
    chosen = choose_settings(PROFILES, profile, overrides)
    return chosen


def counterexample_table(checks: dict) -> pd.DataFrame:
    """One row per failed property with the pair of matrices that breaks it.

    Parameters
    ----------
    checks : dict
        Metric → :class:`fairbook.metrics.properties.PropertyCheck`
        (``property_replication(...).attrs["checks"]``).
    """
    rows = []
    for metric, check in checks.items():
        for prop, example in check.counterexamples.items():
            rows.append(
                {
                    "metric": metric,
                    "property": prop,
                    "counterexample": ", ".join(f"{k} = {v}" for k, v in example.items()),
                }
            )
    return pd.DataFrame(rows, columns=["metric", "property", "counterexample"])


def folktables_employment_predictions(
    *,
    state: str = "GA",
    year: str = "2018",
    model: str = "rf",
    seed: int = 0,
    n_estimators: int = 100,
    data_dir: str = "folktables",
):
    """Seed 003 Fig. 3.3 as in the paper: ACSEmployment for one state, RF or Naive Bayes.

    Needs the ``folktables`` package and internet access (it downloads the ACS PUMS
    person file from the Census Bureau), so the book does not execute it offline; the
    chapter uses :func:`adult_race_predictions` as a labelled stand-in. Trains on a
    seeded 80 % split and predicts the other 20 %; the groups are ACS's RAC1P codes.

    Returns
    -------
    y_true, y_pred : ndarray of int (1 = employed)
    race : ndarray of int (RAC1P code)
    """
    try:
        import folktables
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise RuntimeError(
            "folktables is not installed: `pip install folktables` "
            "(and internet access) runs the paper's Fig. 3.3"
        ) from error
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.model_selection import train_test_split
    from sklearn.naive_bayes import GaussianNB

    if model not in ("rf", "nb"):
        raise ValueError(f"model must be 'rf' or 'nb', got {model!r}")
    source = folktables.ACSDataSource(
        survey_year=year, horizon="1-Year", survey="person", root_dir=data_dir
    )
    frame = source.get_data(states=[state], download=True)
    features, label, race = folktables.ACSEmployment.df_to_numpy(frame)
    x_train, x_test, y_train, y_test, _, race_test = train_test_split(
        features, label, race, test_size=0.2, random_state=seed
    )
    classifier = (
        RandomForestClassifier(n_estimators=n_estimators, random_state=seed)
        if model == "rf"
        else GaussianNB()
    )
    y_pred = classifier.fit(x_train, y_train).predict(x_test)
    return np.asarray(y_test, int), np.asarray(y_pred, int), np.asarray(race_test)


def fig_3_3_replication(counts_by_model: dict, *, group: str) -> pd.DataFrame:
    """Seed 003's Fig. 3.3 claims beside ours, as shares of comparisons.

    Parameters
    ----------
    counts_by_model : dict
        ``{"rf": counts, "nb": counts}`` from :func:`group_counts`.
    group : str
        The group that plays the paper's Pacific Islanders.

    Returns
    -------
    DataFrame
        From :func:`fairbook.replication.replication_table`: the random forest's share of
        pairs where DI and OFI agree (paper: all), and for naive Bayes the shares of
        ``group``'s comparisons that DI and OFI call favourable (paper: 7/8 and 2/8).
    """
    claim = seed003.FIG_3_3_NB_PACIFIC_ISLANDER
    rows = []
    if "rf" in counts_by_model:
        agreement = direction_agreement(counts_by_model["rf"])
        rows.append(
            {
                "quantity": "RF: share of pairs where OFI and DI favour the same group",
                "paper": 1.0,
                "ours": agreement["share"],
                "note": f"{agreement['agree']} of {agreement['pairs']} pairs",
            }
        )
    if "nb" in counts_by_model:
        favour = favour_counts(counts_by_model["nb"])
        if group not in favour.index:
            raise ValueError(f"group {group!r} not among {list(favour.index)}")
        total = int(favour.loc[group, "comparisons"])
        for metric in ("DI", "OFI"):
            hits = int(favour.loc[group, f"{metric} favours"])
            rows.append(
                {
                    "quantity": f"NB: share of {group}'s comparisons {metric} calls favourable",
                    "paper": claim[f"{metric} favours"] / claim["comparisons"],
                    "ours": hits / total if total else np.nan,
                    "note": f"ours {hits}/{total}; paper {claim[f'{metric} favours']}/"
                    f"{claim['comparisons']} (Pacific Islanders, Folktables GA)",
                }
            )
    return replication_table(rows)
