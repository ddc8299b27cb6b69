"""The one exception type of :mod:`fairbook.data`."""

from __future__ import annotations

__all__ = ["DataSourceError"]


class DataSourceError(RuntimeError):
    """A data file could not be obtained or failed its SHA-256 check.

    Raised for a checksum mismatch (including a truncated file), a file that
    is missing from the cache when every download route fails (for example
    offline), a wheel that lacks the expected member, or a cache folder that
    cannot be written. The message names the file, the expected and actual
    SHA-256 where there is one, and what to do next.

    Examples
    --------
    >>> from fairbook.data import DataSourceError
    >>> issubclass(DataSourceError, RuntimeError)
    True
    """
