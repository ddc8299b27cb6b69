"""The two prediction tables the chapter audits, one row per person.

* :func:`compas_predictions` — ProPublica's COMPAS scores on the two-year file with their
  filters; positive = the beneficial outcome (did not reoffend / predicted low risk).
* :func:`adult_seed_ensemble` — Adult's test rows predicted by random forests trained with
  different seeds: each forest's labels are one "run" (seed 004's repeated training) and its
  probabilities one ensemble member (seed 000's samples).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from fairbook.data import load_adult
from fairbook.data.compas import compas_propublica_predictions, load_compas
from fairbook.data.designs import adult_design

__all__ = ["adult_seed_ensemble", "compas_predictions"]


def compas_predictions() -> pd.DataFrame:
    """COMPAS with ProPublica's filters: ``y_true`` (1 = did not reoffend within two years),
    ``y_pred`` (1 = decile score below 5, "low risk"), ``race``, ``sex``, ``age_cat`` and
    ``low_risk_score`` = (10 − decile score) / 9, a score in [0, 1] that grows with the
    predicted chance of the beneficial outcome.

    Examples
    --------
    >>> frame = compas_predictions()
    >>> int(frame["race"].value_counts()["Native American"])
    11
    """
    raw = load_compas(preprocess="zafar2017")
    y_true, y_pred, race = compas_propublica_predictions(raw)
    return pd.DataFrame(
        {
            "y_true": y_true,
            "y_pred": y_pred,
            "race": race,
            "sex": raw["sex"].to_numpy(),
            "age_cat": raw["age_cat"].to_numpy(),
            "low_risk_score": (10 - raw["decile_score"].to_numpy()) / 9,
        }
    )


def adult_seed_ensemble(
    *, seeds: int, n_estimators: int, max_train_rows: int | None = None
) -> pd.DataFrame:
    """Adult's test rows predicted by ``seeds`` random forests (seeds 0 … seeds − 1).

    Each forest is trained on the same rows (the seeded sample of ``max_train_rows`` drawn
    with seed 0, so only the forest's own randomness differs between runs) with the features
    of design ``"seed003_ofi"``. Positive = income above 50K.

    Returns
    -------
    pandas.DataFrame
        ``y_true``, ``y_pred`` (the first forest's labels), ``pred_<k>`` (forest ``k``'s
        labels), ``p_<k>`` (its probability of the positive class), ``race`` and ``sex``.

    Examples
    --------
    >>> frame = adult_seed_ensemble(seeds=2, n_estimators=2, max_train_rows=500)
    >>> [c for c in frame.columns if c.startswith("p_")]
    ['p_0', 'p_1']
    """
    from sklearn.ensemble import RandomForestClassifier

    if seeds < 1:
        raise ValueError(f"seeds must be at least 1, got {seeds}")
    train = load_adult("train", drop_missing=True)
    test = load_adult("test", drop_missing=True)
    if max_train_rows is not None and max_train_rows < len(train):
        train = train.sample(n=max_train_rows, random_state=0)
    x_train, x_test, _ = adult_design("seed003_ofi", train, test)
    y_train = (train["income"] == ">50K").to_numpy(int)
    frame = pd.DataFrame(
        {
            "y_true": (test["income"] == ">50K").to_numpy(int),
            "race": test["race"].to_numpy(),
            "sex": test["sex"].to_numpy(),
        }
    )
    for seed in tqdm(range(seeds), desc="Adult forests", disable=None):
        forest = RandomForestClassifier(
            n_estimators=n_estimators, random_state=seed, n_jobs=1, min_samples_leaf=2
        ).fit(x_train, y_train)
        frame[f"p_{seed}"] = forest.predict_proba(x_test)[:, 1]
        frame[f"pred_{seed}"] = np.asarray(forest.predict(x_test), dtype=int)
    frame.insert(1, "y_pred", frame["pred_0"])
    return frame
