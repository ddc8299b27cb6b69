"""CSV files a spreadsheet opens without running anything in them.

A text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is read by
Excel, LibreOffice and Google Sheets as a formula ("CSV injection"); group names and notes come
from users' files, so every CSV the package writes goes through :func:`write_csv`, which
prefixes such cells with an apostrophe (the spreadsheets' own escape). Numbers are left alone:
``-0.25`` stays a number.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from fairbook.atomic import write_atomic

__all__ = ["FORMULA_STARTS", "formula_safe", "writable", "write_csv"]

#: First characters that make a spreadsheet read a text cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _safe_cell(value):
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def formula_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells, index and column names cannot run as formulas.

    Examples
    --------
    >>> frame = pd.DataFrame({"group": ["=1+1", "a"], "rate": [-0.5, 0.5]})
    >>> formula_safe(frame)["group"].tolist(), formula_safe(frame)["rate"].tolist()
    (["'=1+1", 'a'], [-0.5, 0.5])
    """
    safe = frame.copy()
    for column in safe.columns:
        if not pd.api.types.is_numeric_dtype(safe[column]):
            safe[column] = safe[column].map(_safe_cell)
    safe.index = safe.index.map(_safe_cell)
    safe.columns = safe.columns.map(_safe_cell)
    if safe.index.name is not None:
        safe.index.name = _safe_cell(safe.index.name)
    return safe


def writable(path, *, example: str) -> Path:
    """``path`` as a Path, or a one-line ``ValueError`` when it is a folder or its folder does
    not exist (``example`` is the file name suggested for a folder).

    Examples
    --------
    >>> import tempfile
    >>> writable(tempfile.mkdtemp(), example="out.csv")
    Traceback (most recent call last):
    ...
    ValueError: /tmp/... is a folder; give a file name such as /tmp/.../out.csv
    """
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{path} is a folder; give a file name such as {path / example}")
    if not path.parent.is_dir():
        raise ValueError(f"cannot write {path}: the folder {path.parent} does not exist")
    return path


def write_csv(frame: pd.DataFrame, path, *, index: bool = True) -> Path:
    """Write ``formula_safe(frame)`` to ``path`` as UTF-8 CSV (RFC 4180), atomically
    (:func:`fairbook.atomic.write_atomic`); a clear error if not.

    Raises
    ------
    ValueError
        When the folder does not exist, ``path`` is a folder, or it cannot be written.

    Examples
    --------
    >>> import tempfile
    >>> out = write_csv(pd.DataFrame({"g": ["@SUM(A1)"]}), Path(tempfile.mkdtemp()) / "t.csv")
    >>> out.read_text().splitlines()
    [',g', "0,'@SUM(A1)"]
    """
    path = writable(path, example="audit.csv")
    safe = formula_safe(frame)
    try:
        # RFC 4180 line ends, so that a field holding a bare carriage return is quoted;
        # whole or not at all (fairbook.atomic): a failed write leaves the old file as it was
        write_atomic(
            path,
            lambda tmp: safe.to_csv(tmp, index=index, encoding="utf-8", lineterminator="\r\n"),
        )
    except OSError as exc:
        raise ValueError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path
