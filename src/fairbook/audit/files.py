"""Files the audit reads (a CSV or Parquet table of predictions) and writes (a report page).

Only empty cells are missing values: a group called ``NA`` or ``None`` stays a group. Parquet
is recognised by its suffix (:data:`PARQUET_SUFFIXES`, any case); every other file is read as
CSV (``.tsv``: tab-separated; ``.gz`` and the other compressions pandas knows: decompressed).
Every problem is a ``FileNotFoundError`` or a ``ValueError`` with a one-line message, which the
command line prints without a traceback. A pipe (``cat f.csv | fairbook audit /dev/stdin``, a
FIFO) is read like a file; :func:`write_stdout` prints a report to a reader that may stop early
(``| head -1``) without a ``BrokenPipeError``. CSV tables are written by
:func:`fairbook.safe_csv.write_csv`; :func:`write_text` writes the HTML report the same way.
"""

from __future__ import annotations

import io
import lzma
import os
import sys
import zlib
from pathlib import Path

import pandas as pd

from fairbook.atomic import write_atomic
from fairbook.safe_csv import writable

from .columns import DUPLICATES_ATTR

__all__ = ["PARQUET_SUFFIXES", "read_predictions", "write_stdout", "write_text"]

#: File suffixes read as Parquet (any case); everything else is read as CSV (``.tsv``: tabs).
PARQUET_SUFFIXES = (".parquet", ".pq")


_CHUNK = 1 << 20

#: Leading bytes of the compressed formats pandas reads, for input without a file name suffix
#: (a pipe, ``/dev/stdin``).
_MAGIC = {b"\x1f\x8b": "gzip", b"BZh": "bz2", b"\xfd7zXZ\x00": "xz", b"(\xb5/\xfd": "zstd"}


def _read_stream(path: Path) -> bytes:
    """All bytes of a pipe or device (read once: it cannot be rewound)."""
    chunks: list[bytes] = []
    with path.open("rb") as stream:
        while chunk := stream.read(_CHUNK):
            if not chunks and b"\x00" in chunk[:4096] and not chunk.startswith(b"PAR1"):
                if not any(chunk.startswith(m) for m in _MAGIC):
                    raise ValueError(
                        f"{path} holds NUL bytes: it is binary, not a CSV or Parquet table"
                    )
            chunks.append(chunk)
    return b"".join(chunks)


def _csv_options(suffix: str) -> dict:
    return {
        "sep": "\t" if suffix == ".tsv" else ",",
        "keep_default_na": False,
        "na_values": [""],
    }


def _repeated_names(source, options: dict) -> dict:
    """``{name: count}`` of the names a CSV header gives more than once (read from the header
    itself: pandas renames the second ``y_pred`` to ``y_pred.1``)."""
    header = pd.read_csv(source, header=None, nrows=1, dtype=str, **options)
    names = ["" if pd.isna(v) else str(v) for v in header.iloc[0].tolist()] if len(header) else []
    counts = pd.Index(names, dtype=object).value_counts()
    return {name: int(k) for name, k in counts.items() if k > 1 and name != ""}


def read_predictions(path, *, text_columns=()) -> pd.DataFrame:
    """Read a CSV (``.tsv``: tab-separated; ``.gz`` etc. decompressed) or Parquet file.

    Only empty cells are missing values: a group called ``NA`` or ``None`` stays a group.
    The CSV columns named in `text_columns` (the group columns) are read as text, as
    written: group codes ``"007"`` and ``"7"`` are two groups and ZIP code ``"02134"`` keeps
    its zero; read as numbers they would merge silently. Parquet keeps its own types.
    Parquet is recognised by the suffix ``.parquet`` or ``.pq`` in any case. A pipe or a
    device (``/dev/stdin``, a FIFO) is read once, whole; there the format (Parquet, or CSV
    compressed with gzip, bz2, xz or zstd) is recognised by its first bytes. A column name
    the header repeats is recorded in ``frame.attrs``
    (:data:`fairbook.audit.columns.DUPLICATES_ATTR`), so that the audit can refuse it where
    it matters.

    Raises
    ------
    FileNotFoundError
        When there is no such file.
    ValueError
        When the path is a folder, the file is empty, not text, not valid CSV or Parquet, a
        truncated or damaged compressed file, or has no rows.

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
    if not path.exists():
        raise FileNotFoundError(f"predictions file not found: {path}")
    data = None
    if not path.is_file():  # a pipe or a device: read once, recognise the format by its bytes
        try:
            data = _read_stream(path)
        except OSError as exc:
            raise ValueError(f"{path} could not be read: {exc.strerror or exc}") from None
    frame, repeated = _parse(path, data, text_columns=text_columns)
    if frame.empty:
        raise ValueError(f"{path} has no rows")
    if repeated:
        frame.attrs[DUPLICATES_ATTR] = repeated
    return frame


def _parse(path: Path, data: bytes | None, *, text_columns) -> tuple[pd.DataFrame, dict]:
    """The table in ``path`` (or in ``data``, the bytes of a pipe), and its repeated names."""
    suffix = path.suffix.lower()
    parquet = suffix in PARQUET_SUFFIXES or (data is not None and data.startswith(b"PAR1"))
    kind = "Parquet" if parquet else "CSV"
    repeated: dict = {}
    source: Path | io.BytesIO = path
    compression: str | None = "infer"
    if data is not None:
        compression = next((c for m, c in _MAGIC.items() if data.startswith(m)), None)
        source = io.BytesIO(data)
    try:
        if parquet:
            return _read_parquet(source), repeated
        options = _csv_options(suffix)
        repeated = _repeated_names(source, {**options, "compression": compression})
        if isinstance(source, io.BytesIO):
            source.seek(0)
        if text_columns:
            options["dtype"] = {column: str for column in text_columns}
        return pd.read_csv(source, compression=compression, **options), repeated
    except pd.errors.EmptyDataError:
        raise ValueError(
            f"{path} is empty (expected a header row and one row per person)"
        ) from None
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not UTF-8 text; save it as UTF-8 CSV or Parquet") from None
    except pd.errors.ParserError as exc:
        raise ValueError(f"{path} is not valid CSV: {str(exc).strip()}") from None
    except (EOFError, zlib.error, lzma.LZMAError) as exc:
        raise ValueError(
            f"{path} is truncated or damaged ({exc}); compress it again from the original"
        ) from None
    except (OSError, ValueError, TypeError, RuntimeError, ImportError) as exc:
        raise ValueError(f"{path} could not be read as {kind}: {exc}") from None


def _read_parquet(source) -> pd.DataFrame:
    try:
        import pyarrow  # noqa: F401  (pandas reads Parquet with it)
    except ImportError:
        raise ValueError(
            "reading Parquet needs pyarrow, which the library installs only on request: "
            "pip install 'fairbook[parquet]' (or save the table as CSV)"
        ) from None
    return pd.read_parquet(source)


def write_stdout(text: str) -> None:
    """Print ``text`` and a newline; a reader that stops early (``| head -1``) ends it quietly.

    When the pipe is closed, the rest of the output is thrown away (standard output is
    pointed at ``os.devnull``, so that nothing is printed at exit either) and no error is
    raised: the reader has had what it wanted.

    Examples
    --------
    >>> write_stdout("hello")
    hello
    """
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, io.UnsupportedOperation):  # pragma: no cover
            pass


def write_text(text: str, path) -> Path:
    """Write ``text`` to ``path`` as UTF-8, atomically (:func:`fairbook.atomic.write_atomic`);
    a one-line ``ValueError`` when that is not possible.

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
    try:  # whole or not at all: a failed write leaves an earlier report as it was
        write_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path
