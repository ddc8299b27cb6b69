"""Tests of :mod:`fairbook_book.tooling.execution_cache`: which modules a chapter runs, which
part of its key changes with what, and a build that keeps what did not change."""

import json
from pathlib import Path

import nbformat
import pytest

from fairbook_book.tooling import chapters
from fairbook_book.tooling import execution_cache as ec


def _notebook(path: Path, *sources: str) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [
        nbformat.v4.new_markdown_cell("# A chapter"),
        nbformat.v4.new_code_cell('profile: str = "fast"', metadata={"tags": ["parameters"]}),
        *(nbformat.v4.new_code_cell(s) for s in sources),
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A package ``fairbook`` of four modules in a temporary folder, in place of the real one:
    ``a`` imports ``b`` (relatively, inside a function), ``lazy`` imports by name."""
    root = tmp_path / "pkg" / "fairbook"
    (root / "lazy").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "a.py").write_text("def f():\n    from .b import g\n    return g()\n")
    (root / "b.py").write_text("def g():\n    return 1\n")
    (root / "c.py").write_text("x = 1\n")
    (root / "lazy" / "__init__.py").write_text(
        "import importlib\n"
        "def __getattr__(name):\n"
        "    return importlib.import_module('.' + name, __name__)\n"
    )
    (root / "lazy" / "one.py").write_text("y = 1\n")
    (root / "data.json").write_text("{}")

    def fake_root(name):
        return root if name == "fairbook" else None

    monkeypatch.setattr(ec, "_package_root", fake_root)
    ec._package_data_digest.cache_clear()
    yield root
    ec._package_data_digest.cache_clear()


def test_imports_anywhere_count_and_relative_ones_resolve():
    source = "import os\ndef f():\n    from ..x import y\n    import fairbook.stats.cps as c\n"
    names = ec.imported_names(source, package="fairbook_book.tooling")
    assert {"os", "fairbook_book.x", "fairbook_book.x.y", "fairbook.stats.cps"} <= names


def test_the_closure_follows_imports_at_any_depth_and_lazy_packages_whole(package):
    closure = ec.module_closure(["fairbook.a"])
    assert list(closure) == ["fairbook", "fairbook.a", "fairbook.b"]  # c is not imported
    lazy = ec.module_closure(["fairbook.lazy"])
    assert "fairbook.lazy.one" in lazy  # imported by name at run time: all of the package


def test_the_real_closure_of_a_chapter(tmp_path):
    nb = _notebook(
        tmp_path / "01_x.ipynb",
        "%matplotlib inline\nfrom fairbook.confusion import confusion_counts",
    )
    parts = ec.key_parts(nb, {"profile": "fast"}, root=tmp_path, machine=False)
    # confusion imports labels; importing fairbook.confusion runs fairbook/__init__
    assert {"fairbook", "fairbook.confusion", "fairbook.labels"} <= set(parts.modules)
    assert "fairbook.variance" not in parts.modules


def test_each_part_of_the_key_changes_with_its_own_input_only(package, tmp_path):
    (tmp_path / "constraints.txt").write_text("numpy==2\n")
    nb = _notebook(tmp_path / "01_x.ipynb", "from fairbook.a import f")
    fast = {"profile": "fast"}

    def parts():
        ec._package_data_digest.cache_clear()
        return ec.key_parts(nb, fast, root=tmp_path, machine=False).parts

    base = parts()
    (package / "c.py").write_text("x = 2\n")  # a module the chapter does not import
    assert parts() == base
    (package / "b.py").write_text("def g():\n    return 2\n")  # one it imports, two steps away
    assert ec.changed_parts(base, now := parts()) == ["code"]
    (package / "data.json").write_text('{"a": 1}')
    assert ec.changed_parts(now, now2 := parts()) == ["package data"]
    (tmp_path / "constraints.txt").write_text("numpy==3\n")
    assert ec.changed_parts(now2, now3 := parts()) == ["environment"]
    _notebook(nb, "from fairbook.a import f  # edited")
    assert ec.changed_parts(now3, now4 := parts()) == ["notebook"]
    full = ec.key_parts(nb, {"profile": "full"}, root=tmp_path, machine=False).parts
    assert ec.changed_parts(now4, full) == ["parameters"]


def test_the_machine_changes_the_cache_key_but_not_the_content_key():
    parts = dict.fromkeys(ec.CONTENT_PARTS, "0" * 64)
    here = ec.KeyParts({**parts, "machine": "1" * 64})
    there = ec.KeyParts({**parts, "machine": "2" * 64})
    assert here.content == there.content and here.key != there.key


def test_up_to_date_says_why_not(tmp_path):
    output = tmp_path / "01_x.ipynb"
    output.write_text("{}")
    parts = ec.KeyParts({"notebook": "a", "code": "b"})
    entry = ec.new_entry(parts, output=output, seconds=1.0, profile="fast", error=None, reason="")
    assert ec.up_to_date(entry, parts, output) == (True, "unchanged")
    changed = ec.KeyParts({"notebook": "a", "code": "c"})
    assert ec.up_to_date(entry, changed, output) == (False, "changed: code")
    output.write_text('{"edited": 1}')
    assert (
        ec.up_to_date(entry, parts, output)[1] == "its executed notebook is missing or was changed"
    )
    failed = ec.new_entry(parts, output=output, seconds=1.0, profile="fast", error="X", reason="")
    assert ec.up_to_date(failed, parts, output) == (False, "its last execution failed")


def test_a_damaged_cache_file_means_execute_everything(tmp_path):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    (tmp_path / ec.CACHE).write_text("{not json")
    assert ec.load_cache(folder) == {}
    (tmp_path / ec.CACHE).write_text('{"01_x": {"key": 1}}')  # an entry of another shape
    assert ec.load_cache(folder) == {}


def test_a_build_keeps_the_unchanged_chapters_and_runs_the_changed_one(tmp_path, monkeypatch):
    monkeypatch.delenv("FAIRBOOK_ROOT", raising=False)
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: intro\n")
    _notebook(tmp_path / "notebooks" / "01_one.ipynb", "print('one')")
    _notebook(tmp_path / "notebooks" / "02_two.ipynb", "print('two')")
    out = tmp_path / "_build" / "executed" / "notebooks"
    lines: list[str] = []

    def build(**options):
        return chapters.execute_book(
            tmp_path, "fast", echo=lambda *a, **k: lines.append(a[0]), **options
        )

    first = build()
    assert [r.from_cache for r in first] == [False, False]
    executed = {p.name: p.read_bytes() for p in out.glob("*.ipynb")}
    second = build()
    assert [r.from_cache for r in second] == [True, True]
    assert {p.name: p.read_bytes() for p in out.glob("*.ipynb")} == executed  # untouched
    assert any("01_one: unchanged since" in line for line in lines)
    _notebook(tmp_path / "notebooks" / "02_two.ipynb", "print('two, edited')")
    third = build()
    assert [r.from_cache for r in third] == [True, False]
    assert any("02_two (profile=fast; changed: notebook)" in line for line in lines)
    entries = ec.load_cache(out)
    assert entries["02_two"].reason == "changed: notebook" and not entries["02_two"].from_cache
    assert entries["01_one"].from_cache
    fourth = build(use_cache=False)
    assert [r.from_cache for r in fourth] == [False, False]
    # the chapters whose content changed since the references: all, then none
    reference = ec.reference_keys_file(tmp_path, "fast")
    reference.parent.mkdir(parents=True)
    assert ec._main(["changed", str(out), "--root", str(tmp_path)]) == 0
    assert ec.changed_since_reference(entries, {}) == ["01_one", "02_two"]
    assert ec._main(["write-reference", str(out), "--root", str(tmp_path)]) == 0
    keys = json.loads(reference.read_text())
    assert ec.changed_since_reference(ec.load_cache(out), keys) == []


def test_a_chapter_edited_while_it_ran_runs_again(tmp_path, monkeypatch):
    monkeypatch.delenv("FAIRBOOK_ROOT", raising=False)
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: intro\n")
    chapter = _notebook(tmp_path / "notebooks" / "01_one.ipynb", "print('one')")
    execute = chapters.execute

    def edit_while_running(*args, **kwargs):
        result = execute(*args, **kwargs)
        _notebook(chapter, "print('one, edited meanwhile')")
        return result

    monkeypatch.setattr(chapters, "execute", edit_while_running)
    quiet = lambda *a, **k: None  # noqa: E731
    chapters.execute_book(tmp_path, "fast", echo=quiet)
    out = tmp_path / "_build" / "executed" / "notebooks"
    assert "a source changed while it ran" in ec.load_cache(out)["01_one"].reason
    monkeypatch.setattr(chapters, "execute", execute)
    (again,) = chapters.execute_book(tmp_path, "fast", echo=quiet)
    assert not again.from_cache


def _two_copies(tmp_path: Path) -> tuple[Path, Path]:
    """Two copies of one book (a clone and a fresh clone of it), one chapter each."""
    import shutil

    clone, fresh = tmp_path / "clone", tmp_path / "fresh-clone"
    (clone / "_toc.yml").parent.mkdir(parents=True)
    (clone / "_toc.yml").write_text("format: jb-book\nroot: intro\n")
    _notebook(clone / "notebooks" / "01_one.ipynb", "print('one')")
    shutil.copytree(clone, fresh)  # byte for byte (a new notebook would have new cell ids)
    return clone, fresh


def test_a_fresh_clone_keeps_what_another_copy_executed_on_this_machine(tmp_path, monkeypatch):
    monkeypatch.delenv("FAIRBOOK_ROOT", raising=False)
    store = tmp_path / "shared"
    monkeypatch.setenv(ec.STORE_VARIABLE, str(store))
    clone, fresh = _two_copies(tmp_path)
    lines: list[str] = []

    def build(root: Path, **options):
        echo = lambda *a, **k: lines.append(a[0])  # noqa: E731
        return chapters.execute_book(root, "fast", echo=echo, **options)

    (first,) = build(clone)
    assert not first.from_cache
    # a build that keeps its own execution puts it in a shared cache that lacks it
    import shutil

    shutil.rmtree(store)
    (unchanged,) = build(clone)
    assert unchanged.from_cache and (store / "01_one").is_dir()
    executed = (clone / "_build/executed/notebooks/01_one.ipynb").read_bytes()
    (kept,) = build(fresh)
    assert kept.from_cache and kept.seconds == 0.0
    assert (fresh / "_build/executed/notebooks/01_one.ipynb").read_bytes() == executed
    assert any("kept from the shared cache" in line for line in lines)
    entry = ec.load_cache(fresh / "_build/executed/notebooks")["01_one"]
    assert entry.from_cache and "shared cache" in entry.reason
    assert entry.seconds == ec.load_cache(clone / "_build/executed/notebooks")["01_one"].seconds
    # the fresh clone's own cache now holds it: a third build keeps it as unchanged
    (again,) = build(fresh)
    assert again.from_cache
    # an edit in the fresh clone is a new key: executed, not taken from the other copy
    _notebook(fresh / "notebooks" / "01_one.ipynb", "print('one, edited')")
    (edited,) = build(fresh)
    assert not edited.from_cache
    # --no-cache executes, and still keeps the new execution for the other copies
    (forced,) = build(clone, use_cache=False)
    assert not forced.from_cache


@pytest.fixture
def shared(tmp_path, monkeypatch):
    """A shared cache in a temporary folder, and two copies of one book."""
    monkeypatch.delenv("FAIRBOOK_ROOT", raising=False)
    store = tmp_path / "shared"
    monkeypatch.setenv(ec.STORE_VARIABLE, str(store))
    return (store, *_two_copies(tmp_path))


def _quiet(*args, **kwargs) -> None:
    pass


def test_the_shared_cache_never_hands_out_a_damaged_or_foreign_execution(tmp_path, shared):
    store, clone, fresh = shared
    quiet = _quiet
    chapters.execute_book(clone, "fast", echo=quiet)
    (folder,) = (store / "01_one").iterdir()
    kept = folder / "executed.ipynb"
    kept.write_bytes(kept.read_bytes().replace(b"one", b"two"))  # damaged after it was kept
    (result,) = chapters.execute_book(fresh, "fast", echo=quiet)
    assert not result.from_cache  # executed again, not copied
    # a key of another machine (another kernel signature) finds nothing
    parts = ec.key_parts(fresh / "notebooks" / "01_one.ipynb", {"profile": "fast"}, root=fresh)
    other = ec.KeyParts({**parts.parts, "machine": "0" * 64})
    assert ec.restore_execution(store, "01_one", other, tmp_path / "x.ipynb") is None
    assert not (tmp_path / "x.ipynb").exists()


def test_the_shared_cache_keeps_the_newest_executions_of_a_chapter(shared):
    store, clone, _ = shared
    quiet = _quiet
    for i in range(ec.KEEP_PER_CHAPTER + 2):
        _notebook(clone / "notebooks" / "01_one.ipynb", f"print({i})")
        chapters.execute_book(clone, "fast", echo=quiet)
    assert len(list((store / "01_one").iterdir())) == ec.KEEP_PER_CHAPTER
    # the newest is among them: a fresh copy of the last edit finds it
    key = ec.load_cache(clone / "_build/executed/notebooks")["01_one"].key
    assert (store / "01_one" / key / "entry.json").is_file()


def test_the_shared_cache_can_be_turned_off(monkeypatch):
    for value in ("off", "0", ""):
        monkeypatch.setenv(ec.STORE_VARIABLE, value)
        assert ec.store_dir() is None
    monkeypatch.delenv(ec.STORE_VARIABLE)
    assert ec.store_dir() == Path.home() / ".cache" / "fairbook" / "executed"
