"""Download a file from its original URL (the fallback route)."""

from __future__ import annotations

import http.client
import urllib.request

from .errors import DataSourceError

__all__ = ["download_url"]


def download_url(url: str, *, timeout: float = 60.0) -> bytes:
    """Download ``url`` and return its bytes.

    Parameters
    ----------
    url : str
        HTTP(S) address.
    timeout : float, default 60
        Seconds to wait for the server.

    Returns
    -------
    bytes

    Raises
    ------
    DataSourceError
        When the download fails (offline, HTTP error, short read); the
        message names the URL and the reason.

    Examples
    --------
    >>> from fairbook.data.url import download_url
    >>> data = download_url("https://example.org/")  # doctest: +SKIP
    """
    req = urllib.request.Request(url, headers={"User-Agent": "fairbook"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            data = resp.read()
            expected = resp.headers.get("Content-Length")
    except (OSError, ValueError, http.client.HTTPException) as e:
        raise DataSourceError(f"download of {url} failed: {e}") from e
    if expected is not None and expected.isdigit() and int(expected) != len(data):
        raise DataSourceError(
            f"download of {url} was cut short: got {len(data)} of {expected} bytes"
        )
    return data
