"""Prediction sets that several chapters share, as per-group confusion counts.

A chapter that audits "a classifier's predictions per group" needs labels, predictions
and a group per person. Two such sets are used by more than one chapter, so they live
here rather than in either chapter:

* :func:`compas_race_counts` — COMPAS with ProPublica's own predictions (decile score
  ≥ 5 = high risk), per race (seed 003 Fig. 3.2; chapters "The Objective Fairness Index"
  and "Small groups");
* :func:`adult_race_predictions` — a random forest or Gaussian naive Bayes trained on the
  Adult training file and scored on its test file, per race: the book's offline stand-in
  for seed 003's Folktables Fig. 3.3 (same two chapters). Its features are the named
  design ``"seed003_ofi"`` of :mod:`fairbook.data.designs`.

:func:`group_counts` turns any labels, predictions and groups into the per-group table
(``TP FN FP TN n included``) that the chapters' tables, heat maps and widgets read.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.confusion import CELLS, confusion_counts
from fairbook.data.adult import load_adult
from fairbook.data.compas import compas_propublica_predictions, load_compas
from fairbook.data.designs import adult_design

__all__ = ["adult_race_predictions", "compas_race_counts", "group_counts"]


def group_counts(y_true, y_pred, groups, *, positive=1, min_group_size: int = 0):
    """Confusion counts per group as a DataFrame (``TP FN FP TN n included``).

    Groups smaller than ``min_group_size`` are kept in the table but marked
    ``included = False`` so a chapter can say which it left out and why. Rows are sorted
    by size, largest first.

    Parameters
    ----------
    y_true, y_pred : array-like
        Labels and predictions.
    groups : array-like
        A group per person.
    positive : label, default 1
        The positive (beneficial) label.
    min_group_size : int, default 0

    Returns
    -------
    DataFrame
        Indexed by group.

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

    Examples
    --------
    >>> compas_race_counts()["n"].sum()  # doctest: +SKIP
    np.int64(6172)
    """
    y_true, y_pred, race = compas_propublica_predictions(load_compas(preprocess="zafar2017"))
    return group_counts(y_true, y_pred, race, min_group_size=min_group_size)


def adult_race_predictions(
    model: str = "rf", *, seed: int = 0, n_estimators: int = 100, max_train_rows: int | None = None
):
    """Offline stand-in for seed 003 Fig. 3.3: predict Adult income (> 50K = positive).

    Trains on the Adult training file and predicts the test file (rows with '?' dropped
    in both), with the features of design ``"seed003_ofi"``
    (:mod:`fairbook.data.designs`). ``model`` is ``"rf"`` (scikit-learn
    RandomForestClassifier, ``min_samples_leaf=2``, one job) or ``"nb"`` (GaussianNB).

    Parameters
    ----------
    model : {"rf", "nb"}
    seed : int
        Seeds the forest and the subsample of training rows.
    n_estimators : int
        Trees of the forest.
    max_train_rows : int, optional
        Train on a seeded sample of this many rows.

    Returns
    -------
    y_true, y_pred : ndarray of int (1 = income > 50K)
    race : ndarray of str

    Examples
    --------
    >>> y_true, y_pred, race = adult_race_predictions("nb")  # doctest: +SKIP
    >>> len(y_true)  # doctest: +SKIP
    15060
    """
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.naive_bayes import GaussianNB

    if model not in ("rf", "nb"):
        raise ValueError(f"model must be 'rf' or 'nb', got {model!r}")
    train = load_adult("train", drop_missing=True)
    test = load_adult("test", drop_missing=True)
    if max_train_rows is not None and max_train_rows < len(train):
        train = train.sample(n=max_train_rows, random_state=seed)
    x_train, x_test, _ = adult_design("seed003_ofi", train, test)
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
