"""Files the package writes for a user: checked before any work, written whole or not at all.

Two rules for every command that writes a user's file (``fairbook audit --output/--html``):

* :func:`check_outputs` runs **before** the work: no output may be one of the inputs (an
  audit must never overwrite the predictions it reads), no two outputs may be the same file
  (one would silently replace the other), and each output's folder must exist — so a bad
  second output cannot fail after the first one was written;
* :func:`write_atomic` writes into a temporary file in the target's folder and moves it into
  place with :func:`os.replace` only when the writing has finished: a failed write (a full
  disk, an error half way) leaves the old file as it was and no temporary file behind.

Examples
--------
>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> _ = write_atomic(folder / "a.txt", lambda tmp: tmp.write_text("new"))
>>> (folder / "a.txt").read_text(), sorted(p.name for p in folder.iterdir())
('new', ['a.txt'])
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

__all__ = ["check_outputs", "os_reason", "write_atomic"]


def _same(a: Path, b: Path) -> bool:
    """Whether two existing paths are one file (a hard or symbolic link to it too)."""
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_outputs(
    *, inputs: Iterable, outputs: Mapping[str, str | os.PathLike[str] | None]
) -> dict[str, Path]:
    """Validate every output path before any work is done.

    Parameters
    ----------
    inputs : iterable of path-like
        The files the command reads (a missing or non-file input is the reader's to report).
    outputs : mapping of option name to path-like or None
        The files the command will write, by the option that named them (``"--html"``);
        None (the option was not given) is skipped.

    Returns
    -------
    dict of str to pathlib.Path
        The outputs that were given.

    Raises
    ------
    ValueError
        An output that is an input, two outputs naming one file, an output that is a folder,
        or an output whose folder does not exist.

    Examples
    --------
    >>> check_outputs(inputs=["p.csv"], outputs={"--output": "p.csv"})
    Traceback (most recent call last):
    ...
    ValueError: --output p.csv is the input file; write the report to another file
    >>> check_outputs(inputs=["p.csv"], outputs={"--output": "r.txt", "--html": "./r.txt"})
    Traceback (most recent call last):
    ...
    ValueError: --output and --html both name r.txt; give each its own file
    """
    given = {name: Path(path) for name, path in outputs.items() if path is not None}
    sources = [Path(path) for path in inputs if path is not None]
    seen: dict[Path, str] = {}
    for name, path in given.items():
        if path.is_dir():
            raise ValueError(f"{name} {path} is a folder; give a file name")
        if not path.parent.is_dir():
            raise ValueError(f"{name} {path}: the folder {path.parent} does not exist")
        resolved = path.resolve()
        for source in sources:
            if resolved == source.resolve() or _same(path, source):
                raise ValueError(
                    f"{name} {path} is the input file; write the report to another file"
                )
        if resolved in seen:
            raise ValueError(
                f"{seen[resolved]} and {name} both name {path}; give each its own file"
            )
        seen[resolved] = name
    return given


def write_atomic(path, write: Callable[[Path], object]) -> Path:
    """Write ``path`` whole or not at all: ``write(tmp)`` fills a temporary file in the same
    folder, which then replaces ``path`` in one step (:func:`os.replace`).

    Parameters
    ----------
    path : path-like
        The file to write; its folder must exist.
    write : callable
        Called with the temporary file's path; writes the content there.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    OSError, or whatever `write` raises
        After removing the temporary file; ``path`` is left as it was.

    Examples
    --------
    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "r.txt"
    >>> _ = target.write_text("old")
    >>> def fails(tmp):
    ...     tmp.write_text("half")
    ...     raise OSError(28, "No space left on device")
    >>> write_atomic(target, fails)
    Traceback (most recent call last):
    ...
    OSError: [Errno 28] No space left on device
    >>> target.read_text(), len(list(target.parent.iterdir()))
    ('old', 1)
    """
    path = Path(path)
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(handle)
    tmp = Path(name)
    try:
        write(tmp)
        if path.exists():
            try:
                os.chmod(tmp, path.stat().st_mode & 0o777)
            except OSError:  # pragma: no cover - keep the temporary file's mode
                pass
        else:
            os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def os_reason(exc: OSError) -> str:
    """What an ``OSError`` means, in a few words (a path under a file, no permission, …);
    the command lines' messages use it too.

    Examples
    --------
    >>> os_reason(PermissionError(13, "Permission denied", "/x"))
    'Permission denied: /x'
    """
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        path = Path(exc.filename or ".")
        for part in (path, *path.parents):  # the file that stands where a folder must be
            if part.exists() and not part.is_dir():
                return f"{part} is a file, not a folder"
        return f"{exc.filename or 'a part of the path'} is a file, not a folder"
    return f"{exc.strerror or type(exc).__name__}" + (f": {exc.filename}" if exc.filename else "")
