"""COMPAS and Adult as feature matrices for seed 000's networks (BNN, deep ensemble).

The paper says only that it follows Zafar et al. (2017) for COMPAS ("considered
attributes and dataset splits") and the authors' train/test files for Adult. The
encoding below is ours; every choice is a parameter.

**COMPAS** (:func:`compas_data`). Rows: ProPublica's two-year file filtered as Zafar et
al. do (``load_compas(preprocess="zafar2017")``, 6,172 rows — Zafar et al. then keep only
Black and White defendants, but seed 000's sample sizes are those of all 6,172, so all
races stay). Label ``two_year_recid`` (1 = reoffended, the paper's Y = 1). Features
(``features="zafar2017"``, Zafar et al.'s list): ``age_cat`` (one-hot, 3), ``race``
(one-hot, 6), ``sex`` (1 = male), ``priors_count`` (standardised), ``c_charge_degree``
(1 = felony): 12 columns. ``features="extended"`` adds ``age`` and the three juvenile
counts (standardised), 16 columns. Split: Zafar et al.'s random 50/50
(``test_size=0.5``), seeded. Standardisation uses training-set means and deviations.

**Adult** (:func:`adult_data`). Train on ``adult.data``, test on ``adult.test``, rows with
'?' dropped (30,162 / 15,060). The features are the named design ``"seed000"`` of
:mod:`fairbook.data.designs`: all 14 attributes ("14 features"), the six numeric ones
standardised by the training set (``scale="standard"``) or left raw (``scale="none"``),
the eight categorical ones one-hot on the union of train and test categories: 104
columns. Label 1 = income > 50K.

Groups are returned for every attribute of the paper with short labels: race ``B``
(African-American / Black), ``W`` (Caucasian / White) and the other races by name; sex
``F``/``M``; age ``<25``, ``25-45``, ``>45`` (COMPAS ``age_cat``; for Adult the same cuts
of ``age``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from fairbook.data.designs import adult_design, encode

__all__ = ["COMPAS_FEATURE_SETS", "TabularData", "adult_data", "compas_data"]

#: Feature lists for COMPAS; categorical columns are one-hot, numeric ones standardised.
COMPAS_FEATURE_SETS = {
    "zafar2017": ("age_cat", "race", "sex", "priors_count", "c_charge_degree"),
    "extended": (
        "age_cat",
        "race",
        "sex",
        "priors_count",
        "c_charge_degree",
        "age",
        "juv_fel_count",
        "juv_misd_count",
        "juv_other_count",
    ),
}
_COMPAS_BINARY = {"sex": "Male", "c_charge_degree": "F"}
_RACE = {"African-American": "B", "Black": "B", "Caucasian": "W", "White": "W"}
_SEX = {"Female": "F", "Male": "M"}
_AGE_CAT = {"Less than 25": "<25", "25 - 45": "25-45", "Greater than 45": ">45"}


@dataclass
class TabularData:
    """A train/test split ready for a classifier, with the sensitive groups of each row.

    Examples
    --------
    >>> import numpy as np
    >>> d = TabularData(np.zeros((3, 2)), np.zeros((1, 2)), np.array([0, 1, 1]),
    ...                 np.array([1]), {"sex": np.array(["F", "M", "M"])},
    ...                 {"sex": np.array(["F"])}, ["a", "b"], name="toy")
    >>> d
    TabularData('toy': train (3, 2), test (1, 2), groups ['sex'])
    >>> d.group_counts("sex").loc["F", "n"]
    np.int64(2)
    """

    X_train: np.ndarray
    X_test: np.ndarray
    y_train: np.ndarray
    y_test: np.ndarray
    groups_train: dict = field(repr=False)
    groups_test: dict = field(repr=False)
    feature_names: list = field(repr=False)
    name: str = ""

    def __repr__(self) -> str:
        return (
            f"TabularData({self.name!r}: train {self.X_train.shape}, "
            f"test {self.X_test.shape}, groups {sorted(self.groups_test)})"
        )

    def group_counts(self, attribute: str, *, part: str = "all") -> pd.DataFrame:
        """Rows per group and label (seed 000 Table 4) in ``part`` ∈ train, test, all."""
        if part not in ("train", "test", "all"):
            raise ValueError(f"part must be 'train', 'test' or 'all', got {part!r}")
        groups, labels = [], []
        if part in ("train", "all"):
            groups.append(self.groups_train[attribute])
            labels.append(self.y_train)
        if part in ("test", "all"):
            groups.append(self.groups_test[attribute])
            labels.append(self.y_test)
        frame = pd.crosstab(
            np.concatenate(groups), np.concatenate(labels), rownames=[attribute], colnames=["Y"]
        )
        frame["n"] = frame.sum(axis=1)
        return frame


def _check_scale(scale: str) -> None:
    # seed 000's encodings are standardised or raw; min-max is the GAN chapter's design
    if scale not in ("standard", "none"):
        raise ValueError(f"scale must be 'standard' or 'none', got {scale!r}")


def _age_groups(age: np.ndarray) -> np.ndarray:
    return np.where(age < 25, "<25", np.where(age > 45, ">45", "25-45")).astype(object)


def compas_data(
    *,
    features: str = "zafar2017",
    test_size: float = 0.5,
    seed: int = 0,
    scale: str = "standard",
    frame: pd.DataFrame | None = None,
) -> TabularData:
    """COMPAS for seed 000 (Tables 2–4): Zafar et al.'s features and 50/50 split.

    Parameters
    ----------
    features : {'zafar2017', 'extended'}
    test_size : float, default 0.5
    scale : {'standard', 'none'}
        Standardise the numeric columns (by the training part) or keep them raw.
    seed : int
        Seeds the split.
    frame : DataFrame, optional
        The filtered file (default ``load_compas(preprocess="zafar2017")``).

    Returns
    -------
    TabularData
        Groups ``race`` (B, W, others by name), ``sex`` (F, M), ``age`` (<25, 25-45, >45).
    """
    if features not in COMPAS_FEATURE_SETS:
        raise ValueError(f"features must be one of {list(COMPAS_FEATURE_SETS)}, got {features!r}")
    _check_scale(scale)
    if frame is None:
        from fairbook.data.compas import load_compas

        frame = load_compas(preprocess="zafar2017")
    from fairbook.data.synthetic import split_train_test

    columns = COMPAS_FEATURE_SETS[features]
    numeric = [c for c in columns if pd.api.types.is_numeric_dtype(frame[c])]
    categorical = [c for c in columns if c not in numeric]
    train_rows, test_rows = split_train_test(np.arange(len(frame)), test_size=test_size, seed=seed)
    train, test = frame.iloc[train_rows], frame.iloc[test_rows]
    X_train, X_test, names = encode(
        train, test, numeric=numeric, categorical=categorical, binary=_COMPAS_BINARY, scale=scale
    )

    def groups(part):
        return {
            "race": part["race"].map(lambda r: _RACE.get(r, r)).to_numpy(object),
            "sex": part["sex"].map(_SEX).to_numpy(object),
            "age": part["age_cat"].map(_AGE_CAT).to_numpy(object),
        }

    return TabularData(
        X_train,
        X_test,
        train["two_year_recid"].to_numpy(int),
        test["two_year_recid"].to_numpy(int),
        groups(train),
        groups(test),
        names,
        name=f"COMPAS ({features}, scale={scale}, {1 - test_size:.0%} train)",
    )


def adult_data(
    *, scale: str = "standard", train: pd.DataFrame | None = None, test: pd.DataFrame | None = None
) -> TabularData:
    """Adult for seed 000 (Tables 4–5): the authors' train/test files, '?' rows dropped.

    Parameters
    ----------
    scale : {'standard', 'none'}
        Standardise the six numeric columns (by the training file) or keep them raw
        (design ``"seed000"`` of :mod:`fairbook.data.designs`).
    train, test : DataFrame, optional
        Default ``load_adult("train"/"test", drop_missing=True)``.

    Returns
    -------
    TabularData
        Groups ``race`` (B, W, others by name), ``sex`` (F, M), ``age`` (<25, 25-45, >45).
    """
    _check_scale(scale)
    if train is None or test is None:
        from fairbook.data.adult import load_adult

        train = load_adult("train", drop_missing=True) if train is None else train
        test = load_adult("test", drop_missing=True) if test is None else test
    X_train, X_test, names = adult_design("seed000", train, test, scale=scale)

    def groups(part):
        return {
            "race": part["race"].map(lambda r: _RACE.get(r, r)).to_numpy(object),
            "sex": part["sex"].map(_SEX).to_numpy(object),
            "age": _age_groups(part["age"].to_numpy()),
        }

    return TabularData(
        X_train,
        X_test,
        (train["income"] == ">50K").to_numpy(int),
        (test["income"] == ">50K").to_numpy(int),
        groups(train),
        groups(test),
        names,
        name=f"Adult (scale={scale})",
    )
