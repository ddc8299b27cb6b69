"""One versioned archive of a built book, for offline use and for citing (``make release``).

``make release`` builds the book from the working tree (``make book``: the HTML and the PDFs),
writes both editions (``make student``) and then :func:`build_release`, which packs

============================  =========================================================
``fairbook-V/html/``          the static book (open ``html/index.html``)
``fairbook-V/pdf/``           ``fairbook.pdf`` (instructor) and ``fairbook-student.pdf``
``fairbook-V/editions/``      ``student/`` (no solutions) and ``instructor/`` notebooks
``fairbook-V/executed/``      the executed chapters the pages show
``fairbook-V/ledger.csv``     every paper number compared, with its verdict
``fairbook-V/*``              README, CHANGELOG, LICENSE, LICENSE-CONTENT, CITATION.cff
``fairbook-V/SHA256SUMS``     the SHA-256 of every file above
============================  =========================================================

into ``_build/release/fairbook-V.tar.gz`` (V: the package version) with its own
``.sha256`` beside it. The archive is reproducible: members sorted, owners and modes
normalised, every time stamp the build date (``$SOURCE_DATE_EPOCH`` if set), gzip without a
name or time.

Examples
--------
>>> sha256_bytes(b"fairbook")[:12]
'a6a5a1a5d2b1'
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import os
import sys
import tarfile
import time
from collections.abc import Sequence
from pathlib import Path

from fairbook_book.tooling.chapters import BookPaths, book_version, find_root

__all__ = [
    "RELEASE_FILES",
    "ReleaseError",
    "build_release",
    "main",
    "release_members",
    "sha256_bytes",
]

#: Files from the repository root that every release carries.
RELEASE_FILES = ("README.md", "CHANGELOG.md", "LICENSE", "LICENSE-CONTENT.md", "CITATION.cff")


class ReleaseError(RuntimeError):
    """A part of the release is missing (the message names the make target that builds it)."""


def sha256_bytes(data: bytes) -> str:
    """The SHA-256 of `data`, as hex."""
    return hashlib.sha256(data).hexdigest()


def release_members(root: str | os.PathLike[str], *, version: str) -> dict[str, Path]:
    """Every file of the release: its name in the archive → where it is now.

    Raises
    ------
    ReleaseError
        When a built part is missing, naming the ``make`` target that builds it.
    """
    paths = BookPaths(Path(root))
    top = f"fairbook-{version}"
    parts = [
        (paths.html, "html", "make book"),
        (paths.build / "pdf", "pdf", "make pdf"),
        (paths.build / "editions" / "student", "editions/student", "make student"),
        (paths.build / "editions" / "instructor", "editions/instructor", "make student"),
        (paths.executed, "executed", "make html"),
    ]
    members: dict[str, Path] = {}
    for folder, name, target in parts:
        files = sorted(p for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else []
        if name == "pdf":
            files = [p for p in files if p.suffix == ".pdf"]
        if not files:
            raise ReleaseError(f"{folder} is missing or empty: run `{target}` first")
        for path in files:
            members[f"{top}/{name}/{path.relative_to(folder).as_posix()}"] = path
    for name in ("fairbook.pdf", "fairbook-student.pdf"):
        if f"{top}/pdf/{name}" not in members:
            raise ReleaseError(f"{paths.build / 'pdf' / name} is missing: run `make pdf` first")
    ledger = paths.html / "ledger.csv"
    if not ledger.is_file():
        raise ReleaseError(f"{ledger} is missing: run `make book` first")
    members[f"{top}/ledger.csv"] = ledger
    for name in RELEASE_FILES:
        if not (paths.root / name).is_file():
            raise ReleaseError(f"{paths.root / name} is missing from the repository")
        members[f"{top}/{name}"] = paths.root / name
    return members


def _build_time() -> int:
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    return int(epoch) if epoch.isdigit() else int(time.time())


def build_release(
    root: str | os.PathLike[str] | None = None,
    *,
    out: str | os.PathLike[str] | None = None,
    version: str | None = None,
) -> tuple[Path, dict[str, str]]:
    """Write ``fairbook-V.tar.gz`` and ``fairbook-V.tar.gz.sha256`` into `out`.

    Parameters
    ----------
    root : path-like, optional
        The book root (default: found from the working directory).
    out : path-like, optional
        The folder to write into (default ``_build/release``).
    version : str, optional
        Default: the installed package's version.

    Returns
    -------
    (pathlib.Path, dict)
        The archive, and every member's SHA-256 (its ``SHA256SUMS``).
    """
    root = Path(root) if root else find_root()
    version = version or book_version()
    members = release_members(root, version=version)
    out = Path(out) if out else BookPaths(root).build / "release"
    out.mkdir(parents=True, exist_ok=True)
    stamp = _build_time()
    sums = {name: sha256_bytes(path.read_bytes()) for name, path in members.items()}
    listing = "".join(f"{digest}  {name.split('/', 1)[1]}\n" for name, digest in sums.items())
    top = f"fairbook-{version}"
    archive = out / f"{top}.tar.gz"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name in sorted(members) + [f"{top}/SHA256SUMS"]:
            data = listing.encode() if name.endswith("/SHA256SUMS") else members[name].read_bytes()
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), stamp, 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))
    with (
        open(archive, "wb") as raw,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=stamp) as zipped,
    ):
        zipped.write(buffer.getvalue())
    digest = sha256_bytes(archive.read_bytes())
    (out / f"{archive.name}.sha256").write_text(f"{digest}  {archive.name}\n", encoding="utf-8")
    return archive, sums


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m fairbook_book.tooling.release [--out DIR]``: exit 0 with the archive written."""
    parser = argparse.ArgumentParser(
        prog="python -m fairbook_book.tooling.release",
        description="Pack the built book, its PDFs, editions, executed chapters and ledger.",
    )
    parser.add_argument("--out", default=None, help="folder (default _build/release)")
    args = parser.parse_args(argv)
    try:
        archive, sums = build_release(out=args.out)
    except ReleaseError as exc:
        print(f"release: {exc}", file=sys.stderr)
        return 2
    size = archive.stat().st_size
    digest = archive.with_name(archive.name + ".sha256").read_text().split()[0]
    print(f"[release] {archive}: {len(sums) + 1} files, {size / 2**20:.1f} MiB, sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
