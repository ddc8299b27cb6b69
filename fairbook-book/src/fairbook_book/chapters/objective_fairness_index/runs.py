"""Runs of "The Objective Fairness Index" (seed 003 ch. 3): the models behind Fig. 3.3.

The paper's Fig. 3.3 trains a random forest and Gaussian naive Bayes on Folktables
ACSEmployment (Georgia) and compares DI and OFI between race groups.
:func:`folktables_employment_predictions` runs that setting (it needs the ``folktables``
package and the internet); the book runs :func:`adult_counts` instead, the same two models
on UCI Adult (:func:`fairbook.data.predictions.adult_race_predictions`), a labelled
offline stand-in.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.data.predictions import adult_race_predictions, group_counts
from fairbook_book.recordings import Recordable

__all__ = [
    "ADULT_RECORDING",
    "RECORDINGS",
    "adult_counts",
    "adult_recorded_unit",
    "adult_recorded_units",
    "folktables_employment_predictions",
    "recorded_counts",
]


def adult_counts(
    *,
    models=("rf", "nb"),
    seed: int = 0,
    n_estimators: int = 100,
    max_train_rows: int | None = None,
    min_group_size: int = 0,
) -> dict:
    """Per-race confusion counts of each model on the Adult test file (the Fig. 3.3 stand-in).

    Parameters
    ----------
    models : sequence of {"rf", "nb"}
        Random forest, Gaussian naive Bayes.
    seed, n_estimators, max_train_rows
        Passed to :func:`fairbook.data.predictions.adult_race_predictions`.
    min_group_size : int
        Smaller groups are kept but marked ``included = False``
        (:func:`fairbook.data.predictions.group_counts`).

    Returns
    -------
    dict
        Model → counts (``TP FN FP TN n included`` per race).

    Examples
    --------
    >>> adult_counts(models=("nb",))["nb"].loc["White", "n"]  # doctest: +SKIP
    np.int64(12970)
    >>> adult_counts(models=("svm",))
    Traceback (most recent call last):
    ...
    ValueError: model must be 'rf' or 'nb', got 'svm'
    """
    counts = {}
    for model in models:
        y_true, y_pred, race = adult_race_predictions(
            model, seed=seed, n_estimators=n_estimators, max_train_rows=max_train_rows
        )
        counts[model] = group_counts(y_true, y_pred, race, min_group_size=min_group_size)
    return counts


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
    chapter uses :func:`adult_counts` as a labelled stand-in. Trains on a seeded 80 % split
    and predicts the other 20 %; the groups are ACS's RAC1P codes.

    Returns
    -------
    y_true, y_pred : ndarray of int (1 = employed)
    race : ndarray of int (RAC1P code)

    Examples
    --------
    >>> y_true, y_pred, race = folktables_employment_predictions(model="nb")  # doctest: +SKIP
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


# --------------------------------- Fig. 3.3's stand-in at 500 trees: `fairbook record 02 adult`
def adult_recorded_units(config: dict) -> list[str]:
    """One unit per seed of the random forest: ``"s0"``, ``"s1"``, …

    Examples
    --------
    >>> adult_recorded_units({"recorded_seeds": 3})
    ['s0', 's1', 's2']
    """
    return [f"s{seed}" for seed in range(int(config["recorded_seeds"]))]


def adult_recorded_unit(unit: str, config: dict) -> pd.DataFrame:
    """:func:`adult_counts` of both models for one unit's seed, as one long table (a row per
    model and race: ``model group TP FN FP TN n``). Naive Bayes has no seed; it is
    recorded with every unit so each unit is a complete Fig. 3.3."""
    if not unit.startswith("s") or not unit[1:].isdigit():
        raise ValueError(f"no Adult unit {unit!r}: units are s0, s1, …")
    counts = adult_counts(
        seed=int(unit[1:]),
        n_estimators=int(config["n_estimators"]),
        max_train_rows=config["max_train_rows"],
    )
    parts = [
        frame.drop(columns="included").reset_index().assign(model=model)
        for model, frame in counts.items()
    ]
    table = pd.concat(parts, ignore_index=True)
    return table[["model", "group", "TP", "FN", "FP", "TN", "n"]]


def recorded_counts(frame: pd.DataFrame, unit: str, *, min_group_size: int = 0) -> dict:
    """One recorded unit back in :func:`adult_counts`' shape: model → counts per race.

    Examples
    --------
    >>> f = pd.DataFrame({"unit": "s0", "model": "nb", "group": ["a", "b"], "TP": [5, 1],
    ...                   "FN": [1, 0], "FP": [2, 0], "TN": [9, 1], "n": [17, 2]})
    >>> recorded_counts(f, "s0", min_group_size=5)["nb"]["included"].tolist()
    [True, False]
    """
    rows = frame[frame["unit"] == unit]
    if rows.empty:
        raise ValueError(f"the recording has no unit {unit!r}")
    counts = {}
    for model, part in rows.groupby("model", sort=False):
        table = part.set_index("group")[["TP", "FN", "FP", "TN", "n"]].astype(np.int64)
        table.index.name = "group"
        table["included"] = table["n"] >= min_group_size
        counts[model] = table
    return counts


#: The chapter's recording: Fig. 3.3's stand-in with the full profile's 500 trees, per seed.
ADULT_RECORDING = Recordable(
    name="adult",
    units=adult_recorded_units,
    run=adult_recorded_unit,
    depends=(
        "fairbook.data.predictions",
        "fairbook.data.designs",
        "fairbook.confusion",
        "fairbook.labels",
        "fairbook_book.chapters.objective_fairness_index.runs",
    ),
    parameters=("n_estimators", "max_train_rows"),
    description="Adult per-race counts of the 500-tree forest and naive Bayes, one seed per unit",
)

#: Everything ``fairbook record 02`` can record, by name.
RECORDINGS = {ADULT_RECORDING.name: ADULT_RECORDING}
