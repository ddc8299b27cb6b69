"""The package's layout rules (CONTRIBUTING.md, "Where things go"), checked on the source.

This module mirrors no single file: it reads every module of the library (``src/fairbook``)
and of the book's package (``fairbook-book/src/fairbook_book``) as text and syntax tree and
checks the rules that keep one home for each concern —

* the library imports nothing of the book's package (the wheel ships without it);
* no package holds a folder named ``build`` (common ignore rules drop such folders);
* every chapter is a package ``fairbook_book.chapters.<slug>`` (``<slug>`` the notebook's
  topic) with the same role modules;
* every module declares ``__all__``;
* the book's tooling (``fairbook_book.tooling``) is imported by nothing but its command line;
* generic helpers (``plots``, ``widgets``) do not import the chapters;
* library code finds no files by walking up from ``__file__`` and reads nothing in
  ``benchmarks/``;
* the notebooks' numbers are the order of ``_toc.yml``.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "src" / "fairbook"
BOOK = ROOT / "fairbook-book" / "src" / "fairbook_book"
EXPERIMENTS = BOOK / "chapters"

#: The role modules of every chapter package (besides ``__init__`` and private ``_*.py``).
ROLES = {"settings", "runs", "results", "replication", "figures", "explorers", "key_results"}


def _module_name(path: Path) -> str:
    parts = path.with_suffix("").relative_to(_source_root(path)).parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _source_root(path: Path) -> Path:
    return LIBRARY.parent if path.is_relative_to(LIBRARY) else BOOK.parent


MODULES = {_module_name(p): p for p in sorted([*LIBRARY.rglob("*.py"), *BOOK.rglob("*.py")])}
TREES = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in MODULES.items()}
CHAPTERS = sorted(p for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _imports(tree: ast.Module) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _slug(notebook: Path) -> str:
    return notebook.stem.split("_", 1)[1]


def test_every_chapter_has_its_package_of_the_same_roles():
    for notebook in CHAPTERS:
        package = EXPERIMENTS / _slug(notebook)
        assert (package / "__init__.py").is_file(), f"{notebook.name}: no package {package}"
        modules = {p.stem for p in package.glob("*.py")} - {"__init__"}
        public = {m for m in modules if not m.startswith("_")}
        assert public == ROLES, f"{package.name}: roles {sorted(public)}, expected {sorted(ROLES)}"


def test_experiments_holds_only_chapter_packages_and_the_profile_rule():
    slugs = {_slug(n) for n in CHAPTERS}
    entries = {p.name for p in EXPERIMENTS.iterdir() if p.name != "__pycache__"}
    assert entries == slugs | {"__init__.py", "profiles.py"}


def test_chapter_packages_re_export_with_all():
    for notebook in CHAPTERS:
        tree = TREES[f"fairbook_book.chapters.{_slug(notebook)}"]
        names = [
            node
            for node in tree.body
            if isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
        ]
        assert names, f"{_slug(notebook)}/__init__.py has no __all__"
        exported = ast.literal_eval(names[0].value)
        assert exported == sorted(exported), f"{_slug(notebook)}: __all__ is not sorted"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_module_declares_all(name):
    tree = TREES[name]
    declared = any(
        (
            isinstance(node, ast.Assign)
            and any(getattr(t, "id", "") == "__all__" for t in node.targets)
        )
        or (isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "__all__")
        for node in tree.body
    )
    assert declared, f"{name} has no __all__"


def test_the_library_imports_nothing_of_the_book():
    offenders = {
        name
        for name, tree in TREES.items()
        if name.split(".")[0] == "fairbook"
        and any(i.split(".")[0] == "fairbook_book" for i in _imports(tree))
    }
    assert not offenders, f"library modules importing the book's package: {sorted(offenders)}"


def test_no_package_holds_a_folder_named_build():
    folders = [p for root in (LIBRARY, BOOK) for p in root.rglob("build") if p.is_dir()]
    assert not folders, folders


def test_only_the_command_line_imports_the_book_tooling():
    allowed = {"fairbook_book.cli"} | {n for n in MODULES if n.startswith("fairbook_book.tooling")}
    offenders = {
        name
        for name, tree in TREES.items()
        if name not in allowed
        and any(i.startswith("fairbook_book.tooling") for i in _imports(tree))
    }
    assert not offenders, f"import fairbook_book.tooling outside the CLI: {sorted(offenders)}"


def test_core_and_generic_helpers_do_not_import_chapters():
    offenders = {
        name
        for name, tree in TREES.items()
        if not name.startswith(("fairbook_book.chapters", "fairbook_book.tooling"))
        and name not in {"fairbook_book.cli"}
        and any(i.startswith("fairbook_book.chapters") for i in _imports(tree))
    }
    assert not offenders, f"core modules importing chapter code: {sorted(offenders)}"


def _code_strings(tree: ast.Module):
    """String constants that are not docstrings."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                yield node.value


def test_library_code_has_no_side_doors():
    problems = []
    for name, tree in TREES.items():
        if name.startswith("fairbook_book.tooling"):
            continue  # the book's tooling may find the repository it builds
        if any(isinstance(n, ast.Name) and n.id == "__file__" for n in ast.walk(tree)):
            problems.append(f"{name} uses __file__")
        if any(
            re.search(r"benchmarks[/\\]|\"benchmarks\"", s) or s == "benchmarks"
            for s in _code_strings(tree)
        ):
            problems.append(f"{name} reads benchmarks/")
    assert not problems, problems


def test_notebook_numbers_are_the_reading_order():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = []

    def walk(entries):
        for entry in entries:
            if "file" in entry:
                files.append(entry["file"])
            for key in ("chapters", "sections", "parts"):
                walk(entry.get(key, []))

    walk(toc.get("parts", []))
    in_toc = [f.split("/")[-1] for f in files if f.startswith("notebooks/")]
    assert in_toc == [n.stem for n in CHAPTERS]
    numbers = [int(n.stem[:2]) for n in CHAPTERS]
    assert numbers == list(range(1, len(CHAPTERS) + 1))


def test_source_notebooks_carry_no_outputs():
    for notebook in CHAPTERS:
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        assert not any(c.get("outputs") for c in cells if c["cell_type"] == "code"), notebook.name
