"""Cached execution: a chapter is executed again only when something it depends on changed.

A chapter's executed notebook (``_build/executed/notebooks/NN_topic.ipynb``) is kept from
one build to the next with an entry in ``_build/executed/cache.json``. The next build
executes the chapter again only if its **cache key** differs from the entry's, or the
executed notebook is missing or not the one the entry wrote (its SHA-256), or the last
execution failed. The key is the SHA-256 of these parts, each a SHA-256 of its own so that
the build can say *which* part changed:

``notebook``
    the chapter's source notebook, byte for byte;
``code``
    every module of ``fairbook`` and ``fairbook_book`` the notebook imports, and every
    module those import, at any depth (read from their source with :mod:`ast`: imports
    inside functions count, relative imports are resolved; a package that imports by name
    at run time, ``importlib.import_module`` or a module ``__getattr__``, counts with all
    of its modules), each by name and source;
``package data``
    every file of the two packages that is not Python: the recordings the chapters show
    (``fairbook_book/recorded``), the pinned data registry's tables, the kernel spread;
``parameters``
    the parameters the chapter runs with (its profile);
``environment``
    ``constraints.txt`` (the exact version of every dependency) and the Python version;
``machine``
    the kernel signature (:func:`fairbook_book.reproduction.signature.kernel_signature`)
    and the installed distributions with their versions.

The data the chapters read are pinned by SHA-256 in :mod:`fairbook.data.registry` (a
``code`` part of every chapter that loads data) and checked by ``make data``; the cache
does not hash the downloaded files again.

The first five parts make the **content key**, the same on every machine for the same
commit. ``tests/notebooks/reference/keys-<profile>.json`` holds the content keys the
committed reference outputs were written under (``make nbval-refresh``): a chapter whose
content key differs from it has changed since, and ``make test`` re-executes it under nbval
(:func:`changed_since_reference`), so that a changed chapter is shown to reproduce its own
outputs on the machine that built it.

**The shared cache.** Every successful execution is also kept in a folder shared by every
copy of the book on the machine (:func:`store_dir`, ``~/.cache/fairbook/executed``, beside
the data cache), under its full cache key. A build whose own ``cache.json`` has no current
entry for a chapter (a fresh clone, a second working tree, after ``make clean``) takes the
executed notebook from there when the key is the same, instead of executing the chapter
again: the same notebook, code, package data, parameters and pins under the same kernel
signature and installed distributions. The entry keeps the date and run time of the
execution it copies and says where it came from (the status page shows it). ``--no-cache``
(``make html NOCACHE=1``) executes every chapter and refreshes the shared cache;
``FAIRBOOK_EXECUTION_CACHE=off`` neither reads nor writes it.

Examples
--------
>>> sorted(imported_names("import numpy as np\\nfrom fairbook.stats import cps", package=""))
['fairbook', 'fairbook.stats', 'fairbook.stats.cps', 'numpy']
"""

from __future__ import annotations

import ast
import datetime as dt
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import platform
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "CACHE",
    "PACKAGES",
    "CacheEntry",
    "KeyParts",
    "changed_parts",
    "changed_since_reference",
    "content_key",
    "imported_names",
    "key_parts",
    "load_cache",
    "module_closure",
    "notebook_code",
    "reread_package_data",
    "save_cache",
    "in_store",
    "store_dir",
    "store_execution",
    "restore_execution",
    "up_to_date",
]

#: File beside the executed chapters' folder holding one entry per chapter.
CACHE = "cache.json"

#: The packages whose modules are followed (every other import is covered by the
#: installed versions, part ``environment`` and ``machine``).
PACKAGES = ("fairbook", "fairbook_book")

#: The parts of the content key, in order, then the machine's.
CONTENT_PARTS = ("notebook", "code", "package data", "parameters", "environment")


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ---------------------------------------------------------------------------------------------
# the modules a chapter runs


@cache
def _package_root(package: str) -> Path | None:
    """The folder of an installed top-level package, found without importing it."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _module_file(name: str) -> Path | None:
    """``a.b.c`` -> ``<a>/b/c.py`` or ``<a>/b/c/__init__.py``; None when not a module of
    :data:`PACKAGES` (or not a module at all, e.g. a function imported from a package)."""
    top, *rest = name.split(".")
    if top not in PACKAGES:
        return None
    root = _package_root(top)
    if root is None:
        return None
    base = root.joinpath(*rest)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if rest and candidate.is_file():
            return candidate
    init = root / "__init__.py"
    return init if not rest and init.is_file() else None


def notebook_code(notebook: Mapping[str, Any]) -> str:
    """The code of a notebook's code cells, IPython magics and shell lines left out."""
    lines = []
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else source
        lines += [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
        lines.append("")
    return "\n".join(lines)


def imported_names(source: str, *, package: str) -> set[str]:
    """Every module name `source` imports, anywhere in it, with the submodules named in a
    ``from package import name`` (kept when they are modules; the caller checks).

    Parameters
    ----------
    source : str
        Python source.
    package : str
        The package `source` belongs to (for relative imports; ``""`` for a notebook).

    Examples
    --------
    >>> sorted(imported_names("from . import widgets\\nfrom .x import y", package="fairbook_book"))
    ['fairbook_book', 'fairbook_book.widgets', 'fairbook_book.x', 'fairbook_book.x.y']
    """
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                names.update(".".join(parts[: i + 1]) for i in range(len(parts)))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            parts = module.split(".")
            names.update(".".join(parts[: i + 1]) for i in range(len(parts)))
            names.update(f"{module}.{alias.name}" for alias in node.names if alias.name != "*")
    return names


def _imports_by_name(source: str) -> bool:
    """Whether a module imports modules by name at run time (so all of its package counts)."""
    return "import_module(" in source or "def __getattr__(" in source


def module_closure(names: Iterable[str]) -> dict[str, Path]:
    """The modules of :data:`PACKAGES` among `names`, with every module they import, at any
    depth, and every package above each (importing ``a.b.c`` runs ``a`` and ``a.b``).

    Returns
    -------
    dict
        Module name -> source file, sorted by name.

    Examples
    --------
    >>> closure = module_closure(["fairbook.stats.cps"])
    >>> "fairbook" in closure and "fairbook.stats" in closure and "numpy" not in closure
    True
    """
    found: dict[str, Path] = {}
    pending = list(names)
    while pending:
        name = pending.pop()
        if name in found:
            continue
        path = _module_file(name)
        if path is None:
            continue
        found[name] = path
        is_package = path.name == "__init__.py"
        package = name if is_package else name.rpartition(".")[0]
        parts = name.split(".")
        pending += [".".join(parts[:i]) for i in range(1, len(parts))]
        source = path.read_text("utf-8")
        pending += imported_names(source, package=package)
        if _imports_by_name(source):
            folder = path.parent
            for module in folder.rglob("*.py"):
                if "__pycache__" in module.parts:
                    continue
                relative = module.relative_to(folder).with_suffix("").parts
                if relative[-1] == "__init__":
                    relative = relative[:-1]
                pending.append(".".join([package, *relative]))
    return dict(sorted(found.items()))


# ---------------------------------------------------------------------------------------------
# the key


@dataclass(frozen=True)
class KeyParts:
    """The SHA-256 of each part of a chapter's key (module docstring)."""

    parts: dict[str, str]
    modules: tuple[str, ...] = field(default=())

    @property
    def content(self) -> str:
        """The content key: the same on every machine for the same commit."""
        return content_key(self.parts)

    @property
    def key(self) -> str:
        """The cache key: the content key and the machine's part."""
        return _sha256(f"{self.content}\0{self.parts.get('machine', '')}".encode())


def content_key(parts: Mapping[str, str]) -> str:
    """SHA-256 of the content parts of a key, in :data:`CONTENT_PARTS` order.

    Examples
    --------
    >>> parts = dict.fromkeys(CONTENT_PARTS, "0" * 64)
    >>> content_key(parts) == content_key({**parts, "machine": "1" * 64})
    True
    >>> content_key(parts) == content_key({**parts, "notebook": "1" * 64})
    False
    """
    text = "\0".join(f"{name}={parts.get(name, '')}" for name in CONTENT_PARTS)
    return _sha256(text.encode())


def _files_digest(files: Iterable[tuple[str, Path]]) -> str:
    digest = hashlib.sha256()
    for name, path in files:
        digest.update(name.encode() + b"\0")
        digest.update(_sha256(path.read_bytes()).encode() + b"\0")
    return digest.hexdigest()


@cache
def _package_data_digest() -> str:
    files = []
    for package in PACKAGES:
        root = _package_root(package)
        if root is None:
            continue
        for path in sorted(root.rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts or path.suffix in {".py", ".pyc"}:
                continue
            files.append((f"{package}/{path.relative_to(root).as_posix()}", path))
    return _files_digest(files)


def reread_package_data() -> None:
    """Forget the package data's digest (computed once per process), so that the next key
    reads the files again: after chapters ran, to see whether one was edited meanwhile."""
    _package_data_digest.cache_clear()


def _environment_digest(root: Path) -> str:
    constraints = root / "constraints.txt"
    text = constraints.read_bytes() if constraints.is_file() else b"(no constraints.txt)"
    python = ".".join(map(str, sys.version_info[:2]))
    return _sha256(text + b"\0python " + python.encode())


@cache
def _machine_digest() -> str:
    from fairbook_book.reproduction.signature import kernel_signature

    versions = sorted(
        f"{dist.metadata['Name']}=={dist.version}" for dist in importlib.metadata.distributions()
    )
    text = json.dumps(
        {"kernels": kernel_signature(), "installed": versions, "system": platform.system()},
        sort_keys=True,
    )
    return _sha256(text.encode())


def key_parts(
    notebook: str | os.PathLike[str],
    parameters: Mapping[str, Any],
    *,
    root: str | os.PathLike[str],
    machine: bool = True,
) -> KeyParts:
    """The parts of the key of the chapter `notebook` run with `parameters`.

    Parameters
    ----------
    notebook : path
        The chapter's source notebook.
    parameters : mapping
        What papermill injects (JSON-serialisable).
    root : path
        The book root (for ``constraints.txt``).
    machine : bool, default True
        Include the machine's part (the kernel signature imports PyTorch); the content key
        does not need it.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> cell = {"cell_type": "code", "source": "from fairbook import confusion"}
    >>> _ = (folder / "01_a.ipynb").write_text(json.dumps({"cells": [cell]}))
    >>> parts = key_parts(folder / "01_a.ipynb", {"profile": "fast"}, root=folder, machine=False)
    >>> "fairbook.confusion" in parts.modules, "fairbook.labels" in parts.modules
    (True, True)
    """
    path = Path(notebook)
    raw = path.read_bytes()
    closure = module_closure(imported_names(notebook_code(json.loads(raw)), package=""))
    parameters_digest = _sha256(json.dumps(dict(parameters), sort_keys=True).encode())
    return _parts(_sha256(raw), closure, parameters_digest, root=root, machine=machine)


def _parts(
    source_digest: str,
    closure: Mapping[str, Path],
    parameters: str,
    *,
    root: str | os.PathLike[str],
    machine: bool,
) -> KeyParts:
    """The key's parts, given the source's digest, what it imports and its parameters."""
    parts = {
        "notebook": source_digest,
        "code": _files_digest(closure.items()),
        "package data": _package_data_digest(),
        "parameters": parameters,
        "environment": _environment_digest(Path(root)),
    }
    if machine:
        parts["machine"] = _machine_digest()
    return KeyParts(parts, tuple(closure))


def code_key_parts(
    source: str | os.PathLike[str],
    closure: Mapping[str, Path],
    parameters: str,
    *,
    root: str | os.PathLike[str],
) -> KeyParts:
    """The same six parts for code that is not a chapter: a module `source` that imports the
    modules `closure` (name to file), run with `parameters` (a text, kept as it is).

    :mod:`fairbook_book.tooling.verify` keys the recording checks it remembers with it, so
    that a remembered outcome depends on exactly what a chapter's execution would.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "check.py").write_text("import fairbook.confusion")
    >>> closure = module_closure(["fairbook.confusion"])
    >>> parts = code_key_parts(folder / "check.py", closure, "03/cps", root=folder)
    >>> sorted(parts.parts) == sorted(CONTENT_PARTS + ("machine",)), parts.parts["parameters"]
    (True, '03/cps')
    """
    return _parts(file_sha256(source) or "", closure, parameters, root=root, machine=True)


def changed_parts(old: Mapping[str, str], new: Mapping[str, str]) -> list[str]:
    """The names of the parts that differ (a part missing from `old` counts as changed).

    Examples
    --------
    >>> changed_parts({"notebook": "a", "code": "b"}, {"notebook": "a", "code": "c"})
    ['code']
    """
    return [name for name, value in new.items() if old.get(name) != value]


# ---------------------------------------------------------------------------------------------
# the cache file


@dataclass
class CacheEntry:
    """One chapter's last execution."""

    key: str
    content_key: str
    parts: dict[str, str]
    output_sha256: str | None
    seconds: float
    executed_at: str
    profile: str
    error: str | None = None
    from_cache: bool = False
    reason: str = ""

    def as_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def load_cache(folder: str | os.PathLike[str]) -> dict[str, CacheEntry]:
    """The entries of ``<folder>/../cache.json`` (``{}`` if there is none or it is damaged:
    then every chapter executes, which is always safe)."""
    path = Path(folder).parent / CACHE
    try:
        data = json.loads(path.read_text("utf-8"))
        return {slug: CacheEntry(**entry) for slug, entry in data.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


def save_cache(folder: str | os.PathLike[str], entries: Mapping[str, CacheEntry]) -> Path:
    """Write `entries` to ``<folder>/../cache.json`` (atomically)."""
    from fairbook.atomic import write_atomic

    path = Path(folder).parent / CACHE
    text = json.dumps({k: v.as_json() for k, v in sorted(entries.items())}, indent=1) + "\n"
    write_atomic(path, lambda tmp: tmp.write_text(text, "utf-8"))
    return path


def file_sha256(path: str | os.PathLike[str]) -> str | None:
    """SHA-256 of a file, None when it cannot be read."""
    try:
        return _sha256(Path(path).read_bytes())
    except OSError:
        return None


def up_to_date(entry: CacheEntry | None, parts: KeyParts, output: Path) -> tuple[bool, str]:
    """Whether the chapter's executed notebook `output` can be kept, and why (not).

    Examples
    --------
    >>> parts = KeyParts({"notebook": "a"})
    >>> up_to_date(None, parts, Path("missing.ipynb"))
    (False, 'never executed here')
    """
    if entry is None:
        return False, "never executed here"
    if entry.error:
        return False, "its last execution failed"
    if entry.key != parts.key:
        changed = changed_parts(entry.parts, parts.parts)
        return False, "changed: " + (", ".join(changed) if changed else "the key's definition")
    if entry.output_sha256 is None or file_sha256(output) != entry.output_sha256:
        return False, "its executed notebook is missing or was changed"
    return True, "unchanged"


def new_entry(
    parts: KeyParts, *, output: Path, seconds: float, profile: str, error: str | None, reason: str
) -> CacheEntry:
    """The entry of an execution that just ended."""
    return CacheEntry(
        key=parts.key,
        content_key=parts.content,
        parts=dict(parts.parts),
        output_sha256=None if error else file_sha256(output),
        seconds=round(seconds, 1),
        executed_at=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        profile=profile,
        error=error,
        from_cache=False,
        reason=reason,
    )


# ---------------------------------------------------------------------------------------------
# the shared cache: executions kept for every copy of the book on this machine

#: The environment variable naming the shared cache's folder (``off`` turns it off).
STORE_VARIABLE = "FAIRBOOK_EXECUTION_CACHE"

#: How many executions of one chapter the shared cache keeps (the newest).
KEEP_PER_CHAPTER = 3

_STORE_NOTEBOOK = "executed.ipynb"
_STORE_ENTRY = "entry.json"
_STORE_FIGURES = "figures"


def store_dir() -> Path | None:
    """The shared cache's folder: ``$FAIRBOOK_EXECUTION_CACHE`` when set (``~`` expanded;
    ``off``, ``0`` or empty: no shared cache), else ``~/.cache/fairbook/executed``.

    Every copy of the book on the machine (a fresh clone, a second working tree) looks
    here before executing a chapter: an execution is kept under its full cache key, which
    includes the machine's part (the kernel signature and every installed distribution),
    so it is only found by a build that would run the same notebook, code, data,
    parameters and pins under the same kernels. It sits beside the data cache
    (``~/.cache/fairbook``) for the same reason: what is fetched or computed once on a
    machine is not fetched or computed again.

    Examples
    --------
    >>> import os
    >>> os.environ[STORE_VARIABLE] = "off"
    >>> store_dir() is None
    True
    >>> os.environ[STORE_VARIABLE] = "/tmp/fairbook-executed"
    >>> store_dir().as_posix()
    '/tmp/fairbook-executed'
    >>> del os.environ[STORE_VARIABLE]
    """
    return machine_cache_dir(STORE_VARIABLE, "executed")


def machine_cache_dir(variable: str, name: str) -> Path | None:
    """A folder this machine's copies of the book share: ``$variable`` when set (``~``
    expanded; ``off``, ``0``, ``no``, ``false`` or empty: None, no such folder), else
    ``~/.cache/fairbook/<name>`` (beside the data cache)."""
    value = os.environ.get(variable)
    if value is not None:
        if value.strip().lower() in {"", "0", "off", "no", "false"}:
            return None
        return Path(value.strip()).expanduser()
    return Path.home() / ".cache" / "fairbook" / name


def _png_hashes(notebook: Mapping[str, Any]) -> set[str]:
    """SHA-256 of every PNG a notebook's outputs hold (the names of their kept figures)."""
    import base64

    found = set()
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []) or []:
            png = (output.get("data") or {}).get("image/png")
            if png:
                text = "".join(png) if isinstance(png, list) else png
                found.add(_sha256(base64.b64decode(text)))
    return found


def store_execution(
    store: Path, slug: str, entry: CacheEntry, output: Path, figures: Path | None = None
) -> Path | None:
    """Keep the successful execution `entry` of chapter `slug` (its executed notebook
    `output`, and the pickled figures of its PNGs found in `figures`) in the shared cache
    `store`; the oldest beyond :data:`KEEP_PER_CHAPTER` executions of the chapter go.

    Returns the entry's folder, or None when there is nothing to keep (a failed execution,
    a notebook that changed since) or the cache cannot be written (never an error: the
    shared cache only saves time).
    """
    import shutil

    from fairbook.atomic import write_atomic

    if entry.error or not entry.key or file_sha256(output) != entry.output_sha256:
        return None
    folder = store / slug / entry.key
    try:
        (folder / _STORE_FIGURES).mkdir(parents=True, exist_ok=True)
        write_atomic(folder / _STORE_NOTEBOOK, lambda tmp: shutil.copyfile(output, tmp))
        if figures is not None:
            for name in sorted(_png_hashes(json.loads(output.read_bytes()))):
                kept = figures / f"{name}.pickle"
                if kept.is_file():
                    target = folder / _STORE_FIGURES / kept.name
                    write_atomic(target, lambda tmp, kept=kept: shutil.copyfile(kept, tmp))
        text = json.dumps(entry.as_json(), indent=1) + "\n"
        write_atomic(folder / _STORE_ENTRY, lambda tmp: tmp.write_text(text, "utf-8"))
        others = sorted(
            (p for p in (store / slug).iterdir() if (p / _STORE_ENTRY).is_file()),
            key=lambda p: (p / _STORE_ENTRY).stat().st_mtime,
            reverse=True,
        )
        for old in others[KEEP_PER_CHAPTER:]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError:
        return None
    return folder


def in_store(store: Path, slug: str, entry: CacheEntry) -> bool:
    """Whether the shared cache `store` holds the execution of `entry` (its key and its
    executed notebook)."""
    folder = store / slug / entry.key
    return bool(entry.key) and file_sha256(folder / _STORE_NOTEBOOK) == entry.output_sha256


def restore_execution(
    store: Path, slug: str, parts: KeyParts, output: Path, figures: Path | None = None
) -> CacheEntry | None:
    """The execution of chapter `slug` under the key `parts` kept in the shared cache
    `store`, copied to `output` (and its pickled figures to `figures`); None when the cache
    has none, or its notebook is not the one its entry wrote (then nothing is copied).
    """
    import shutil

    from fairbook.atomic import write_atomic

    folder = store / slug / parts.key
    try:
        entry = CacheEntry(**json.loads((folder / _STORE_ENTRY).read_text("utf-8")))
    except (OSError, ValueError, TypeError):
        return None
    kept = folder / _STORE_NOTEBOOK
    if entry.key != parts.key or entry.error or file_sha256(kept) != entry.output_sha256:
        return None
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(output, lambda tmp: shutil.copyfile(kept, tmp))
        if figures is not None:
            figures.mkdir(parents=True, exist_ok=True)
            for pickled in sorted((folder / _STORE_FIGURES).glob("*.pickle")):
                target = figures / pickled.name
                if not target.is_file():
                    write_atomic(target, lambda tmp, p=pickled: shutil.copyfile(p, tmp))
    except OSError:
        return None
    entry.parts = dict(parts.parts)
    entry.from_cache = True
    entry.reason = f"executed before on this machine, kept in the shared cache ({store})"
    return entry


# ---------------------------------------------------------------------------------------------
# the chapters nbval re-executes


def reference_keys_file(root: str | os.PathLike[str], profile: str) -> Path:
    """``tests/notebooks/reference/keys-<profile>.json``."""
    return Path(root) / "tests" / "notebooks" / "reference" / f"keys-{profile}.json"


def changed_since_reference(
    entries: Mapping[str, CacheEntry], reference: Mapping[str, str]
) -> list[str]:
    """The chapters whose content key differs from the one the committed reference
    outputs were written under (or that have no reference key), sorted.

    Examples
    --------
    >>> entry = CacheEntry("k", "c1", {}, None, 1.0, "", "fast")
    >>> changed_since_reference({"01_a": entry, "02_b": entry}, {"01_a": "c1", "02_b": "c0"})
    ['02_b']
    """
    return sorted(
        slug for slug, entry in entries.items() if reference.get(slug) != entry.content_key
    )


def _main(argv: list[str] | None = None) -> int:
    """``python -m fairbook_book.tooling.execution_cache changed|write-reference EXECUTED``."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m fairbook_book.tooling.execution_cache")
    parser.add_argument("action", choices=("changed", "write-reference"))
    parser.add_argument("executed", help="the executed chapters' folder")
    parser.add_argument("--root", default=".")
    parser.add_argument("--profile", default="fast")
    args = parser.parse_args(argv)
    entries = load_cache(args.executed)
    keys_file = reference_keys_file(args.root, args.profile)
    if args.action == "write-reference":
        keys = {slug: entry.content_key for slug, entry in sorted(entries.items())}
        from fairbook.atomic import write_atomic

        text = json.dumps(keys, indent=1) + "\n"
        write_atomic(keys_file, lambda tmp: tmp.write_text(text, "utf-8"))
        print(f"wrote the content keys of {len(keys)} chapters to {keys_file}")
        return 0
    try:
        reference = json.loads(keys_file.read_text("utf-8"))
    except (OSError, ValueError):
        reference = {}
    for slug in changed_since_reference(entries, reference):
        print(Path(args.executed) / f"{slug}.ipynb")
    return 0


if __name__ == "__main__":
    sys.exit(_main())
