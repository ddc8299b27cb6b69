"""Ready-made tables for the course plan's labs (``fairbook data export NAME FILE``).

A lab that starts with "take the COMPAS file and add a prediction column" leaves students to
choose the rows, the outcome's orientation and the column names, and each choice changes the
audit. :data:`LAB_TABLES` fixes them the way the chapters do:

``compas-lab``
    ProPublica's two-year COMPAS file with the chapters' filter (Zafar et al. 2017, 6,172
    rows), one row per defendant: ``y_true`` = ``two_year_recid`` (1 = reoffended within two
    years), ``y_pred`` = ``decile_score >= 5`` (1 = scored medium or high risk, ProPublica's
    threshold), ``race``, ``sex``, ``decile_score``. A positive prediction *harms* the
    person (it supports detention): audit it with ``--decision punitive``.

Examples
--------
>>> sorted(LAB_TABLES)
['compas-lab']
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

__all__ = ["LAB_TABLES", "compas_lab_table", "write_lab_table"]


def compas_lab_table(raw: pd.DataFrame | None = None) -> pd.DataFrame:
    """The ``compas-lab`` table (see the module docstring).

    Parameters
    ----------
    raw : pandas.DataFrame, optional
        The raw COMPAS two-year table; by default :func:`fairbook.data.load_compas` reads it
        from the cache.

    Returns
    -------
    pandas.DataFrame
        Columns ``y_true y_pred race sex decile_score``, integer labels.

    Examples
    --------
    >>> raw = pd.DataFrame({"two_year_recid": [1, 0], "decile_score": [7, 2],
    ...                     "race": ["Caucasian", "Asian"], "sex": ["Male", "Female"],
    ...                     "days_b_screening_arrest": [0, 0], "is_recid": [1, 0],
    ...                     "c_charge_degree": ["F", "M"], "score_text": ["High", "Low"]})
    >>> compas_lab_table(raw)[["y_true", "y_pred"]].to_numpy().tolist()
    [[1, 1], [0, 0]]
    """
    from fairbook.data.compas import load_compas, zafar2017

    rows = load_compas(preprocess="zafar2017") if raw is None else zafar2017(raw)
    return pd.DataFrame(
        {
            "y_true": rows["two_year_recid"].astype(int).to_numpy(),
            "y_pred": (rows["decile_score"] >= 5).astype(int).to_numpy(),
            "race": rows["race"].to_numpy(),
            "sex": rows["sex"].to_numpy(),
            "decile_score": rows["decile_score"].astype(int).to_numpy(),
        }
    )


#: The tables ``fairbook data export`` writes, by name.
LAB_TABLES = {"compas-lab": compas_lab_table}


def write_lab_table(name: str, path: str | os.PathLike[str]) -> tuple[Path, int]:
    """Write the lab table `name` as CSV to `path`; the path and the number of rows.

    Raises
    ------
    ValueError
        For an unknown name (the message lists the known ones).
    """
    if name not in LAB_TABLES:
        raise ValueError(f"unknown lab table {name!r}; choose one of {', '.join(LAB_TABLES)}")
    from fairbook.safe_csv import write_csv

    table = LAB_TABLES[name]()
    target = Path(path)
    write_csv(table, target, index=False)
    return target, len(table)
