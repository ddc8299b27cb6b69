"""Tests of :mod:`fairbook_book.tooling.lab`: working copies, start page, settings, command."""

import json
import os

import nbformat
import pytest

from fairbook_book.tooling import lab
from fairbook_book.tooling.lab import (
    LAB_SETTINGS,
    for_lab,
    lab_command,
    start_page,
    working_copies,
    write_settings,
)

GLUE = "```{glue:md} key-results\n:format: myst\n```"


def _chapter(root, name, title, *extra):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(f"# {title}\nText."), *extra]
    nbformat.write(nb, root / "notebooks" / name)
    return root / "notebooks" / name


@pytest.fixture
def book(tmp_path):
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: intro\n")
    _chapter(tmp_path, "01_one.ipynb", "One | first", nbformat.v4.new_markdown_cell(GLUE))
    _chapter(tmp_path, "02_two.ipynb", "Two", nbformat.v4.new_code_cell("x = 1"))
    return tmp_path


def test_copies_are_made_once_and_a_readers_copy_is_never_overwritten(book):
    assert [(p.name, s) for p, s in working_copies(book)] == [
        ("01_one.ipynb", "copied"),
        ("02_two.ipynb", "copied"),
    ]
    mine = book / "lab" / "02_two.ipynb"
    nb = nbformat.read(mine, as_version=4)
    nb.cells[1].source = "x = 2  # my change"
    nbformat.write(nb, mine)
    assert dict((p.name, s) for p, s in working_copies(book))["02_two.ipynb"] == "kept"
    assert "my change" in mine.read_text()
    # the chapter changes after the copy was made: kept, and the reader is told, even when
    # the copy was autosaved after the new chapter arrived (content decides, not times)
    _chapter(book, "02_two.ipynb", "Two", nbformat.v4.new_code_cell("x = 3"))
    later = (book / "notebooks" / "02_two.ipynb").stat().st_mtime + 10
    os.utime(mine, (later, later))
    status = dict((p.name, s) for p, s in working_copies(book))
    assert status["01_one.ipynb"] == "kept"
    assert status["02_two.ipynb"].startswith("kept, but its chapter has changed since it was")
    assert "my change" in mine.read_text()
    # fresh: every copy replaced, the reader's version kept in lab/backup
    assert all(s.startswith("replaced") for _, s in working_copies(book, fresh=True))
    assert "x = 3" in mine.read_text()
    backups = list((book / "lab" / lab.BACKUP_DIR).glob("02_two-*.ipynb"))
    assert len(backups) == 1 and "my change" in backups[0].read_text()


def test_fresh_replaces_only_the_named_chapter_and_keeps_the_readers_version(book):
    working_copies(book)
    for name in ("01_one.ipynb", "02_two.ipynb"):
        copy = book / "lab" / name
        nb = nbformat.read(copy, as_version=4)
        nb.cells[0].source += "\nmy note"
        nbformat.write(nb, copy)
    status = dict((p.name, s) for p, s in working_copies(book, fresh="02"))
    assert status["01_one.ipynb"] == "kept"
    assert status["02_two.ipynb"].startswith("replaced (your version: lab/backup/02_two-")
    assert "my note" in (book / "lab" / "01_one.ipynb").read_text()
    assert "my note" not in (book / "lab" / "02_two.ipynb").read_text()
    (backup,) = (book / "lab" / lab.BACKUP_DIR).glob("02_two-*.ipynb")
    assert "my note" in backup.read_text()
    with pytest.raises(ValueError, match="FRESH=7: no such chapter; the chapters are 01, 02"):
        working_copies(book, fresh="7")


def test_a_copy_carries_the_kernels_metadata_and_the_run_time_note(book):
    params = nbformat.v4.new_code_cell('profile: str = "fast"', metadata={"tags": ["parameters"]})
    _chapter(book, "03_three.ipynb", "Three", params)
    note = "# Run time: 5 s\n# (code after the parameters)\nprint('after')\n"
    working_copies(book, times={"03_three": note})
    copy = nbformat.read(book / "lab" / "03_three.ipynb", as_version=4)
    assert copy.cells[1].source == "# Run time: 5 s\nprofile: str = \"fast\"\n\nprint('after')"
    # what the python3 kernel reports on connecting: JupyterLab then has nothing to change
    from ipykernel.ipkernel import IPythonKernel

    assert copy.metadata["language_info"] == IPythonKernel.language_info
    assert copy.metadata["kernelspec"]["name"] == "python3"


def test_bare_statement_references_get_the_books_numbers(tmp_path):
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "theory.md").write_text(
        "```{prf:theorem} A\n:label: thm-a\n```\n```{prf:proof}\nx\n```\n"
        "```{prf:definition} B\n:label: def-b\n```\n```{prf:theorem} C\n:nonumber: false\n"
        ":label: thm-c\n```\n"
    )
    names = lab.statement_names(tmp_path)
    assert names == {"thm-a": "Theorem 1", "def-b": "Definition 1", "thm-c": "Theorem 2"}
    text = lab.book_roles("{prf:ref}`thm-c` and {prf:ref}`Theorem 4.1 <thm-a>`", names=names)
    assert text == "*Theorem 2* (in the built book) and *Theorem 4.1* (in the built book)"


def test_the_run_time_notes_read_the_status_and_the_allowed_values():
    from fairbook_book.tooling.chapters import find_root

    notes = lab.run_time_notes(find_root())
    assert set(notes) >= {"01_metric_catalogue", "08_parallel_time_networks"}
    assert "# seed: an integer from 0 to 4,294,967,295" in notes["03_small_groups"]
    assert "recorded runs took" in notes["08_parallel_time_networks"]  # has recordings
    assert "(code after the parameters)" not in notes["01_metric_catalogue"]  # has none


def test_the_copy_differs_from_its_chapter_only_in_the_glue_cell(book):
    working_copies(book)
    chapter = nbformat.read(book / "notebooks" / "01_one.ipynb", as_version=4)
    copy = nbformat.read(book / "lab" / "01_one.ipynb", as_version=4)
    assert [c.source for c in copy.cells][0] == chapter.cells[0].source
    assert copy.cells[1].source.startswith("```{tip} Key results")
    assert "Run All Cells" in copy.cells[1].source and "{glue" not in copy.cells[1].source
    nbformat.validate(copy)


def test_for_lab_leaves_other_cells_alone():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("glue('x', 1)"), nbformat.v4.new_markdown_cell("{glue}")]
    assert for_lab(nb) == 0
    assert [c.source for c in nb.cells] == ["glue('x', 1)", "{glue}"]


def test_the_start_page_links_every_chapter_with_its_title(book):
    page = start_page(book)
    assert "| 01 | [One \\| first](01_one.ipynb) |" in page
    assert "| 02 | [Two](02_two.ipynb) |" in page
    assert "git ignores" in page and "FRESH=1" in page
    working_copies(book)
    assert (book / "lab" / "START.md").read_text() == page


def test_settings_are_merged_into_the_environments_overrides(tmp_path):
    folder = tmp_path / "share" / "jupyter" / "lab" / "settings"
    folder.mkdir(parents=True)
    (folder / "overrides.json").write_text(
        json.dumps({"other:plugin": {"a": 1}, "@jupyterlab/notebook-extension:tracker": {"b": 2}})
    )
    written = json.loads(write_settings(tmp_path).read_text())
    assert written["other:plugin"] == {"a": 1}
    assert written["@jupyterlab/notebook-extension:tracker"] == {"b": 2, "windowingMode": "none"}
    for plugin, values in LAB_SETTINGS.items():
        assert written[plugin].items() >= values.items()
    (folder / "overrides.json").write_text("not json")
    assert json.loads(write_settings(tmp_path).read_text()).keys() == LAB_SETTINGS.keys()


@pytest.mark.parametrize("as_root", [True, False])
def test_the_command_serves_the_copies_on_localhost(as_root, tmp_path):
    command = lab_command(tmp_path, port=9123, as_root=as_root, python="py")
    assert command[:3] == ["py", "-m", "jupyterlab"]
    assert "--ServerApp.ip=127.0.0.1" in command and "--ServerApp.port=9123" in command
    assert f"--ServerApp.root_dir={tmp_path / 'lab'}" in command
    assert "--LabApp.default_url=/lab/tree/START.md" in command
    assert ("--allow-root" in command) is as_root
    assert not any(arg.startswith("--IdentityProvider.token") for arg in command)
    assert "--IdentityProvider.token=t" in lab_command(tmp_path, token="t", python="py")


def test_as_root_is_detected(monkeypatch, tmp_path):
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert "--allow-root" in lab_command(tmp_path)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert "--allow-root" not in lab_command(tmp_path)


def test_main_prepares_without_serving(book, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("FAIRBOOK_ROOT", str(book))
    monkeypatch.setattr(lab, "write_settings", lambda: tmp_path / "overrides.json")
    monkeypatch.setattr(os, "execv", lambda *a: pytest.fail("must not serve"))
    assert lab.main(["--prepare-only"]) == 0
    assert "lab/01_one.ipynb: copied" in capsys.readouterr().out
    assert (book / "lab" / "START.md").exists()


def test_doc_roles_become_links_to_copies_or_titled_book_pages(book):
    (book / "book").mkdir()
    (book / "book" / "ledger.md").write_text("(ledger)=\n# The replication ledger\n\nText.\n")
    source = (
        "See {doc}`02_two`, {doc}`the second <../notebooks/02_two>`, the book's "
        "{doc}`../book/ledger`, {doc}`its errata <../book/errata>` and {doc}`../book/gone`."
    )
    assert lab.doc_links(source, root=book) == (
        "See [chapter 02](02_two.ipynb), [the second](02_two.ipynb), the book's "
        "*The replication ledger* (in the built book), *its errata* (in the built book) and "
        "*gone* (in the built book)."
    )
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(source), nbformat.v4.new_code_cell("{doc}`x`")]
    assert for_lab(nb, root=book) == 1 and nb.cells[1].source == "{doc}`x`"


def test_roles_jupyterlab_cannot_resolve_become_their_text():
    from fairbook_book.tooling.lab import book_roles

    source = (
        "{term}`OFI`, {term}`the flip rate <Flip rate>`, {prf:ref}`its definition <def-03-match>`"
        " and {prf:ref}`alg-03-cps`"
    )
    out = book_roles(source)
    assert "{" not in out and "`" not in out
    assert out.startswith("OFI, the flip rate, *its definition* (in the built book)")
    assert "*Algorithm alg-03-cps*" in out


def test_a_damaged_copy_is_kept_and_named(book):
    working_copies(book)
    (book / "lab" / "01_one.ipynb").write_text("{not a notebook")
    status = dict((p.name, s) for p, s in working_copies(book))
    assert status["01_one.ipynb"].startswith("kept, but it cannot be read")
    assert (book / "lab" / "01_one.ipynb").read_text() == "{not a notebook"


@pytest.mark.parametrize("make_lab", ["file", "read-only"])
def test_make_lab_where_lab_cannot_be_written_is_one_line(book, monkeypatch, capsys, make_lab):
    from fairbook_book.tooling.lab import main

    if make_lab == "file":
        (book / "lab").write_text("not a folder")
    else:
        (book / "lab").mkdir()
        (book / "lab").chmod(0o500)
        if os.access(book / "lab", os.W_OK):  # root writes anyway
            pytest.skip("this user writes into read-only folders")
    monkeypatch.setenv("FAIRBOOK_ROOT", str(book))
    assert main(["--prepare-only"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("[lab] cannot make the working copies") and err.count("\n") == 1
