"""Files the audit reads (a CSV or Parquet table of predictions) and writes (a report page).

Only empty cells are missing values: a group called ``NA`` or ``None`` stays a group. Parquet
is recognised by its suffix (:data:`PARQUET_SUFFIXES`, any case); every other file is read as
CSV (``.tsv``: tab-separated; ``.gz`` and the other compressions pandas knows: decompressed).
Every problem is a ``FileNotFoundError`` or a ``ValueError`` with a one-line message, which the
command line prints without a traceback. CSV tables are written by
:func:`fairbook.safe_csv.write_csv`; :func:`write_text` writes the HTML report the same way.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from fairbook.safe_csv import writable

__all__ = ["PARQUET_SUFFIXES", "read_predictions", "write_text"]

#: File suffixes read as Parquet (any case); everything else is read as CSV (``.tsv``: tabs).
PARQUET_SUFFIXES = (".parquet", ".pq")


def read_predictions(path) -> pd.DataFrame:
    """Read a CSV (``.tsv``: tab-separated; ``.gz`` etc. decompressed) or Parquet file.

    Only empty cells are missing values: a group called ``NA`` or ``None`` stays a group.
    Parquet is recognised by the suffix ``.parquet`` or ``.pq`` in any case.

    Raises
    ------
    FileNotFoundError
        When there is no such file.
    ValueError
        When the path is a folder, the file is empty, not text, not valid CSV or Parquet, or
        has no rows.

    Examples
    --------
    >>> read_predictions("missing.csv")
    Traceback (most recent call last):
    ...
    FileNotFoundError: predictions file not found: missing.csv
    """
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{path} is a folder, not a file of predictions")
    if not path.is_file():
        raise FileNotFoundError(f"predictions file not found: {path}")
    suffix = path.suffix.lower()
    try:
        if suffix in PARQUET_SUFFIXES:
            frame = pd.read_parquet(path)
        else:
            frame = pd.read_csv(
                path,
                sep="\t" if suffix == ".tsv" else ",",
                keep_default_na=False,
                na_values=[""],
            )
    except pd.errors.EmptyDataError:
        raise ValueError(
            f"{path} is empty (expected a header row and one row per person)"
        ) from None
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not UTF-8 text; save it as UTF-8 CSV or Parquet") from None
    except pd.errors.ParserError as exc:
        raise ValueError(f"{path} is not valid CSV: {str(exc).strip()}") from None
    except (OSError, ValueError, TypeError, RuntimeError, ImportError) as exc:
        kind = "Parquet" if suffix in PARQUET_SUFFIXES else "CSV"
        raise ValueError(f"{path} could not be read as {kind}: {exc}") from None
    if frame.empty:
        raise ValueError(f"{path} has no rows")
    return frame


def write_text(text: str, path) -> Path:
    """Write ``text`` to ``path`` as UTF-8; a one-line ``ValueError`` when that is not possible.

    Parameters
    ----------
    text : str
    path : str or path-like
        A file in a folder that exists (it is not created).

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ValueError
        When the folder does not exist, ``path`` is a folder, or it cannot be written.

    Examples
    --------
    >>> import tempfile
    >>> write_text("<p>hi</p>", Path(tempfile.mkdtemp()) / "r.html").read_text()
    '<p>hi</p>'
    >>> write_text("x", Path(tempfile.mkdtemp()) / "no" / "r.html")
    Traceback (most recent call last):
    ...
    ValueError: cannot write .../no/r.html: the folder .../no does not exist
    """
    path = writable(path, example="audit.html")
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path
