"""The cache folder: where it is, how files land in it, how they are checked.

Files are written atomically (a temporary file in the same folder, then
:func:`os.replace`), and only after their SHA-256 has been checked, so the
cache never holds a half-written file or one with a wrong digest.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from pathlib import Path

from .errors import DataSourceError
from .registry import Source

__all__ = [
    "ENV_VAR",
    "cache_dir",
    "cached_path",
    "check_bytes",
    "check_file",
    "sha256_file",
    "store",
    "write_atomic",
]

#: Environment variable that overrides the cache folder.
ENV_VAR = "FAIRBOOK_DATA"


def cache_dir() -> Path:
    """Return the folder where data files are cached.

    ``$FAIRBOOK_DATA`` when set (``~`` is expanded), else ``~/.cache/fairbook``.
    The folder is not created here; it is created when a file is first stored.

    Returns
    -------
    pathlib.Path
        Absolute path of the cache folder.

    Examples
    --------
    >>> from fairbook.data import cache_dir
    >>> folder = cache_dir()  # e.g. PosixPath('/home/me/.cache/fairbook')
    >>> folder.is_absolute()
    True

    In a shell, ``FAIRBOOK_DATA=/data/fairbook fairbook data fetch`` puts the
    files under ``/data/fairbook`` instead.
    """
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser().resolve()
    return (Path.home() / ".cache" / "fairbook").resolve()


def cached_path(source: Source) -> Path:
    """Return where ``source`` lives in the cache (whether or not it is there yet).

    Parameters
    ----------
    source : Source
        A registered source.

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> from fairbook.data import SOURCES
    >>> from fairbook.data.cache import cached_path
    >>> cached_path(SOURCES["german"]).name
    'german.data'
    """
    return cache_dir().joinpath(*source.filename.split("/"))


def sha256_file(path: Path) -> str:
    """Return the SHA-256 of a file as 64 lowercase hex digits.

    Parameters
    ----------
    path : path-like

    Returns
    -------
    str

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from fairbook.data.cache import sha256_file
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "empty"
    >>> _ = p.write_bytes(b"")
    >>> sha256_file(p)[:16]
    'e3b0c44298fc1c14'
    """
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _mismatch(what: str, source: Source, actual: str, size: int) -> str:
    msg = (
        f"{what}: SHA-256 mismatch for data source {source.name!r}: "
        f"expected {source.sha256}, got {actual}"
    )
    if source.size is not None and size < source.size:
        msg += f"; it has {size} of {source.size} bytes, so it looks truncated"
    elif source.size is not None and size != source.size:
        msg += f"; it has {size} bytes, expected {source.size}"
    return msg


def check_bytes(data: bytes, source: Source, *, what: str) -> str | None:
    """Check downloaded bytes against ``source``'s SHA-256.

    Parameters
    ----------
    data : bytes
        The content to check.
    source : Source
        The source it should be.
    what : str
        Where the bytes came from, for the message (e.g. a URL).

    Returns
    -------
    str or None
        None when the digest matches, else a message naming both digests.

    Examples
    --------
    >>> from fairbook.data import SOURCES
    >>> from fairbook.data.cache import check_bytes
    >>> print(check_bytes(b"x", SOURCES["german"], what="test")[:40])
    test: SHA-256 mismatch for data source '
    """
    actual = hashlib.sha256(data).hexdigest()
    if actual == source.sha256:
        return None
    return _mismatch(what, source, actual, len(data))


def check_file(source: Source, path: Path | None = None) -> str | None:
    """Check the cached copy of ``source`` (no network).

    Parameters
    ----------
    source : Source
        The source to check.
    path : pathlib.Path, optional
        File to check; default :func:`cached_path` of ``source``.

    Returns
    -------
    str or None
        None when the file exists and its SHA-256 matches; otherwise a message
        that names the file, the digests, and what to do.

    Examples
    --------
    >>> from fairbook.data import SOURCES
    >>> from fairbook.data.cache import check_file
    >>> msg = check_file(SOURCES["german"], path=__import__("pathlib").Path("/nonexistent"))
    >>> msg.startswith("/nonexistent is missing")
    True
    """
    path = cached_path(source) if path is None else Path(path)
    if not path.is_file():
        return (
            f"{path} is missing; run `fairbook data fetch {source.name}` "
            f"(or fairbook.data.fetch({source.name!r})), or set {ENV_VAR} to a folder "
            f"that holds {source.filename}"
        )
    actual = sha256_file(path)
    if actual == source.sha256:
        return None
    return (
        _mismatch(str(path), source, actual, path.stat().st_size)
        + f". Delete {path} and run `fairbook data fetch {source.name}` "
        f"(or fairbook.data.fetch({source.name!r}))"
    )


def write_atomic(dest: Path, data: bytes) -> None:
    """Write ``data`` to ``dest`` so that ``dest`` is never half-written.

    The bytes go to a temporary file in the same folder, are flushed to disk,
    and the temporary file is renamed over ``dest`` with :func:`os.replace`.
    On any error the temporary file is removed and ``dest`` is untouched.

    Parameters
    ----------
    dest : pathlib.Path
        Target file; its parent folders are created.
    data : bytes
        Content.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from fairbook.data.cache import write_atomic
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "a" / "b.txt"
    >>> write_atomic(p, b"hello")
    >>> p.read_bytes()
    b'hello'
    """
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=f".{dest.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, dest)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def store(source: Source, data: bytes, *, what: str) -> Path:
    """Verify ``data`` against ``source`` and write it into the cache.

    Parameters
    ----------
    source : Source
        The source the bytes should be.
    data : bytes
        The content obtained from a wheel or URL.
    what : str
        Where the bytes came from, for error messages.

    Returns
    -------
    pathlib.Path
        The cached file.

    Raises
    ------
    DataSourceError
        On a digest mismatch (nothing is written) or when the cache folder
        cannot be written.

    Examples
    --------
    >>> from fairbook.data import SOURCES, DataSourceError
    >>> from fairbook.data.cache import store
    >>> try:
    ...     store(SOURCES["german"], b"not it", what="example")
    ... except DataSourceError as e:
    ...     print("expected b21f3d81" in str(e))
    True
    """
    problem = check_bytes(data, source, what=what)
    if problem is not None:
        raise DataSourceError(problem + "; nothing was written to the cache")
    dest = cached_path(source)
    try:
        write_atomic(dest, data)
    except OSError as e:
        raise DataSourceError(
            f"cannot write {dest}: {e}. Set {ENV_VAR} to a writable folder"
        ) from e
    return dest
