"""Named feature designs: how the chapters turn Adult into a feature matrix.

Each paper encodes UCI Adult its own way, and the book follows each one. Every such
encoding is a named :class:`Design` in :data:`ADULT_DESIGNS`, and every chapter that needs
a feature matrix asks for it by name (:func:`adult_design`); nothing else in the package
one-hot encodes or scales Adult. All designs are built by one function, :func:`encode`.

* ``"seed000"`` — seed 000, Tables 4–5 (BNN, deep ensemble), through
  :func:`fairbook.data.tabular.adult_data` (chapter "Uncertainty as a fairness measure"):
  104 columns;
* ``"seed003_ofi"`` — seed 003's Fig. 3.3 stand-in (random forest, naive Bayes), through
  :func:`fairbook.data.predictions.adult_race_predictions` (chapters "The Objective
  Fairness Index" and "Small groups"): 87 columns;
* ``"seed003_hydragan"`` — seed 003 sec. 3.5 stand-in, the sedentary/active classifier of
  the chapter "Conditional HydraGAN": 34 columns (3 numeric, 27 one-hot, 4 who-cells);
* ``"seed004_fit"`` — seed 004's tabular FIT task (an MLP; income, with sex protected),
  through :func:`fairbook.variance.tasks.tabular_task` (chapter "Are my models fair every
  time?"): 85 columns.

(Column counts for the files with '?' rows dropped: 30,162 training and 15,060 test rows.)

What each design does, exactly:

* **seed000** — all 14 attributes ("14 features"). The six numeric ones (``age, fnlwgt,
  education-num, capital-gain, capital-loss, hours-per-week``) standardised by the
  training rows' mean and (population) standard deviation, or left raw with
  ``scale="none"`` (the chapter's "raw" variant); then the eight categorical ones
  (``workclass, education, marital-status, occupation, relationship, race, sex,
  native-country``) one-hot on the union of the training and test categories, sorted.
  float64.
* **seed003_ofi** — 12 attributes: all but ``fnlwgt`` (a census sampling weight, not a
  property of the person) and ``education`` (``education-num`` is the same variable as a
  number); race and sex stay in, as in the paper's Folktables features. The five numeric
  ones raw (``age, education-num, capital-gain, capital-loss, hours-per-week``), then the
  seven categorical ones (``workclass, marital-status, occupation, relationship, race, sex,
  native-country``) one-hot on the union of training and test categories, sorted. float64.
* **seed003_hydragan** — the columns the chapter's GAN generates, minus the activity: the
  continuous ``age, education-num, hours-per-week`` min-max scaled to [−1, 1] by the
  training rows' range (as :class:`fairbook.generative.TabularEncoder` scales them for the
  GAN, so real and generated rows share one scale), then ``workclass, marital-status,
  relationship, race, income`` and the chapter's who-cell column ``who`` (sex × age band,
  added by the chapter) one-hot on the *training* categories, sorted (a test row with an
  unseen category is an error; the chapter drops such rows first). ``occupation`` is left
  out: it is the label. float32.
* **seed004_fit** — 11 attributes: all but ``sex`` (the protected attribute, not a
  feature; proxies remain), ``fnlwgt`` and ``education``. The five numeric ones raw, then
  ``workclass, marital-status, occupation, relationship, race, native-country`` one-hot
  on the categories of the frame given (the task encodes the whole training file, then
  splits it). Unscaled here: the task standardises every column, one-hot ones included,
  by its training split, as it does for COMPAS. float64.

Examples
--------
>>> sorted(ADULT_DESIGNS)
['seed000', 'seed003_hydragan', 'seed003_ofi', 'seed004_fit']
>>> ADULT_DESIGNS["seed004_fit"].used_by
'seed 004 FIT tabular task (fairbook.variance.tasks.tabular_task)'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

__all__ = ["ADULT_DESIGNS", "Design", "DesignMatrices", "adult_design", "encode"]

_SCALES = ("standard", "none", "minmax")
_LEVELS = ("union", "train")


def encode(
    train: pd.DataFrame,
    test: pd.DataFrame,
    *,
    numeric=(),
    categorical=(),
    binary=None,
    scale: str = "standard",
    levels: str = "union",
    dtype=np.float64,
):
    """Numeric columns first, then one-hot ``categorical`` (or 0/1 for ``binary`` ones).

    Parameters
    ----------
    train, test : DataFrame
        The rows the scaling is learned from, and the other rows.
    numeric : sequence of str
        Kept as numbers: standardised with the training rows' mean and population
        standard deviation (``scale="standard"``; a constant column is divided by 1),
        min-max scaled to [−1, 1] by the training rows' range (``"minmax"``; a constant
        column becomes 0) or kept (``"none"``).
    categorical : sequence of str
        One-hot, one column per category (compared as strings), sorted; the categories are
        those of train and test together (``levels="union"``), so both matrices have the
        same columns, or those of train only (``levels="train"``; a test row with another
        category raises ``ValueError``).
    binary : dict, optional
        Categorical column → its positive value: one 0/1 column instead of a one-hot block.
    dtype : numpy dtype, default float64
        Of the returned matrices (values are computed in float64, then cast).

    Returns
    -------
    X_train, X_test : ndarray
    names : list of str
        ``column`` for numeric columns, ``column=value`` for the others.

    Examples
    --------
    >>> tr = pd.DataFrame({"a": [1.0, 3.0], "c": ["x", "y"]})
    >>> te = pd.DataFrame({"a": [2.0], "c": ["z"]})
    >>> X_tr, X_te, names = encode(tr, te, numeric=["a"], categorical=["c"])
    >>> names, X_te.tolist()
    (['a', 'c=x', 'c=y', 'c=z'], [[0.0, 0.0, 0.0, 1.0]])
    >>> encode(tr, te, numeric=["a"], scale="minmax")[1].tolist()
    [[0.0]]
    """
    if scale not in _SCALES:
        raise ValueError(f"scale must be 'standard', 'none' or 'minmax', got {scale!r}")
    if levels not in _LEVELS:
        raise ValueError(f"levels must be 'union' or 'train', got {levels!r}")
    binary = dict(binary or {})
    parts_train, parts_test, names = [], [], []
    for column in numeric:
        a = train[column].to_numpy(float)
        b = test[column].to_numpy(float)
        if scale == "standard":
            mean, sd = a.mean(), a.std()
            sd = sd if sd > 0 else 1.0
            a, b = (a - mean) / sd, (b - mean) / sd
        elif scale == "minmax":
            low, high = float(a.min()), float(a.max())
            span = high - low
            if span == 0:
                a, b = np.zeros_like(a), np.zeros_like(b)
            else:
                a, b = 2 * (a - low) / span - 1, 2 * (b - low) / span - 1
        parts_train.append(a[:, None])
        parts_test.append(b[:, None])
        names.append(column)
    for column in categorical:
        if column in binary:
            positive = binary[column]
            parts_train.append((train[column] == positive).to_numpy(float)[:, None])
            parts_test.append((test[column] == positive).to_numpy(float)[:, None])
            names.append(f"{column}={positive}")
            continue
        seen = set(train[column].astype(str))
        if levels == "train":
            unseen = sorted(set(test[column].astype(str)) - seen)
            if unseen:
                raise ValueError(
                    f"column {column!r} has categories not seen in train: {unseen[:5]}"
                )
            found = sorted(seen)
        else:
            found = sorted(seen | set(test[column].astype(str)))
        for part, frame in ((parts_train, train), (parts_test, test)):
            values = frame[column].astype(str).to_numpy()
            part.append((values[:, None] == np.array(found)[None, :]).astype(float))
        names += [f"{column}={level}" for level in found]
    if not names:
        raise ValueError("give at least one numeric or categorical column")
    return np.hstack(parts_train).astype(dtype), np.hstack(parts_test).astype(dtype), names


@dataclass(frozen=True)
class Design:
    """One named encoding: which columns, how they are one-hot encoded and scaled.

    Parameters
    ----------
    name : str
        Its key in :data:`ADULT_DESIGNS`.
    used_by : str
        The paper and the code that use it.
    numeric, categorical : tuple of str
        Columns, in the order of the matrix (numeric first).
    scale : {"standard", "none", "minmax"}
        How the numeric columns are scaled (:func:`encode`).
    levels : {"union", "train"}
        Which categories the one-hot blocks cover (:func:`encode`).
    dtype : str
        Of the matrices.

    Examples
    --------
    >>> d = ADULT_DESIGNS["seed003_ofi"]
    >>> len(d.columns), d.scale
    (12, 'none')
    """

    name: str
    used_by: str
    numeric: tuple[str, ...]
    categorical: tuple[str, ...]
    scale: str = "none"
    levels: str = "union"
    dtype: str = "float64"

    def __post_init__(self):
        if self.scale not in _SCALES:
            raise ValueError(f"scale must be one of {_SCALES}, got {self.scale!r}")
        if self.levels not in _LEVELS:
            raise ValueError(f"levels must be one of {_LEVELS}, got {self.levels!r}")

    @property
    def columns(self) -> tuple[str, ...]:
        """The frame's columns the design reads (numeric first)."""
        return self.numeric + self.categorical

    def matrices(
        self, train: pd.DataFrame, test: pd.DataFrame | None = None, *, scale: str | None = None
    ) -> DesignMatrices:
        """Encode ``train`` (and ``test``) by this design; ``scale`` overrides its scaling.

        Examples
        --------
        >>> frame = pd.DataFrame({"age": [20, 40], "income": ["<=50K", ">50K"]})
        >>> d = Design("toy", "a docstring", ("age",), ("income",), scale="minmax")
        >>> m = d.matrices(frame)
        >>> m.train.tolist(), m.test, m.names
        ([[-1.0, 1.0, 0.0], [1.0, 0.0, 1.0]], None, ['age', 'income=<=50K', 'income=>50K'])
        """
        missing = [c for c in self.columns if c not in train.columns]
        if test is not None:
            missing += [c for c in self.columns if c not in test.columns and c not in missing]
        if missing:
            raise ValueError(f"design {self.name!r} needs columns {missing}, not in the data")
        x_train, x_test, names = encode(
            train,
            train.iloc[:0] if test is None else test,
            numeric=self.numeric,
            categorical=self.categorical,
            scale=self.scale if scale is None else scale,
            levels=self.levels,
            dtype=np.dtype(self.dtype),
        )
        return DesignMatrices(x_train, None if test is None else x_test, names)


class DesignMatrices(NamedTuple):
    """The encoded training rows, test rows (None when none were given) and column names."""

    train: np.ndarray
    test: np.ndarray | None
    names: list


_ADULT_NUMERIC = ("age", "education-num", "capital-gain", "capital-loss", "hours-per-week")

#: The named Adult designs (see the module's docstring for what each does).
ADULT_DESIGNS = {
    design.name: design
    for design in (
        Design(
            "seed000",
            "seed 000 Tables 4-5 (fairbook.data.tabular.adult_data)",
            numeric=(
                "age",
                "fnlwgt",
                "education-num",
                "capital-gain",
                "capital-loss",
                "hours-per-week",
            ),
            categorical=(
                "workclass",
                "education",
                "marital-status",
                "occupation",
                "relationship",
                "race",
                "sex",
                "native-country",
            ),
            scale="standard",
        ),
        Design(
            "seed003_ofi",
            "seed 003 Fig. 3.3 stand-in (fairbook.data.predictions.adult_race_predictions)",
            numeric=_ADULT_NUMERIC,
            categorical=(
                "workclass",
                "marital-status",
                "occupation",
                "relationship",
                "race",
                "sex",
                "native-country",
            ),
        ),
        Design(
            "seed003_hydragan",
            "seed 003 sec. 3.5 stand-in (fairbook_book.chapters.conditional_hydragan)",
            numeric=("age", "education-num", "hours-per-week"),
            categorical=("workclass", "marital-status", "relationship", "race", "income", "who"),
            scale="minmax",
            levels="train",
            dtype="float32",
        ),
        Design(
            "seed004_fit",
            "seed 004 FIT tabular task (fairbook.variance.tasks.tabular_task)",
            numeric=_ADULT_NUMERIC,
            categorical=(
                "workclass",
                "marital-status",
                "occupation",
                "relationship",
                "race",
                "native-country",
            ),
        ),
    )
}


def adult_design(
    name: str, train: pd.DataFrame, test: pd.DataFrame | None = None, *, scale: str | None = None
) -> DesignMatrices:
    """Adult rows as the feature matrix of the named design.

    Parameters
    ----------
    name : str
        A key of :data:`ADULT_DESIGNS`.
    train : DataFrame
        Rows of :func:`fairbook.data.load_adult` (plus any column the design adds, such as
        ``who`` for ``"seed003_hydragan"``); the scaling is learned from them.
    test : DataFrame, optional
        Rows encoded with the training rows' scaling.
    scale : {"standard", "none", "minmax"}, optional
        Overrides the design's scaling (seed 000's "raw" variant is ``scale="none"``).

    Returns
    -------
    DesignMatrices
        ``train``, ``test`` (None without test rows) and ``names``.

    Examples
    --------
    >>> rows = pd.DataFrame({"age": [25, 50], "education-num": [9, 13],
    ...     "capital-gain": [0, 0], "capital-loss": [0, 0], "hours-per-week": [40, 50],
    ...     "workclass": ["Private", "State-gov"], "marital-status": ["Never-married"] * 2,
    ...     "occupation": ["Sales", "Sales"], "relationship": ["Own-child", "Husband"],
    ...     "race": ["White", "Black"], "native-country": ["United-States"] * 2})
    >>> m = adult_design("seed004_fit", rows)
    >>> m.train.shape, m.names[5:7]
    ((2, 14), ['workclass=Private', 'workclass=State-gov'])
    """
    if name not in ADULT_DESIGNS:
        raise ValueError(f"unknown Adult design {name!r}; choose one of {sorted(ADULT_DESIGNS)}")
    return ADULT_DESIGNS[name].matrices(train, test, scale=scale)
