"""Tests of :mod:`fairbook_book.tooling.student_site`: the student site shows no solution.

A tiny book (one chapter with a gated and a plain solution, each with a distinctive secret)
is built end to end with jupyter-book; when the book's own student site has been built
(``_build/html-student``), its pages and downloads are searched for every solution's text,
code and output, both by the module's own check and by the independent line-by-line oracle of
``test_editions.py``, and the instructors' site is shown to be caught by the same check.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest
import yaml

from fairbook_book.tooling import student_site
from fairbook_book.tooling.chapters import BuildError, stage_book
from fairbook_book.tooling.student_site import (
    BANNER,
    NO_SOLUTIONS,
    brand_stage,
    build_student_site,
    site_leaks,
    student_notebook,
)

ROOT = Path(__file__).resolve().parents[3]
EXECUTED = ROOT / "_build" / "executed" / "notebooks"
SITE = ROOT / student_site.SITE
INSTRUCTORS = ROOT / "_build" / "html"
_HERE = Path(__file__).resolve().parent

SECRET_TEXT = "The zebra answer is forty two because of the pelican lemma."
SECRET_CODE = "zebra_answer = 40 + 2  # pelican"
SECRET_OUTPUT = "pelican-output-4242-zebra"
PLAIN_SECRET = "Because the marmot theorem says the ratio halves."


def _chapter() -> nbformat.NotebookNode:
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    secret = code(SECRET_CODE)
    secret.outputs = [nbformat.v4.new_output("stream", name="stdout", text=SECRET_OUTPUT)]
    visible = code("print('shown to everyone')")
    visible.outputs = [nbformat.v4.new_output("stream", name="stdout", text="shown to everyone")]
    nb = nbformat.v4.new_notebook(
        cells=[
            md("# A demo chapter\n\n**Difficulty:** introductory\n\nSome text for a reader."),
            visible,
            md(
                "## Exercises\n\nSolutions are folded away: open one with a click after you "
                "have tried the exercise. A\nsolution that states a computed result computes it "
                "in the code cell inside it, with\n`fairbook`, when the book is built.\n\n"
                "````{exercise} First\n:label: ex-demo-1\n\nWhat is the answer?\n````\n\n"
                "```{solution-start} ex-demo-1\n:class: dropdown\n```\n\n" + SECRET_TEXT
            ),
            secret,
            md(
                "```{solution-end}\n```\n\n"
                "````{exercise} Second\n:label: ex-demo-2\n\nWhy?\n````\n\n"
                "````{solution} ex-demo-2\n:class: dropdown\n\n" + PLAIN_SECRET + "\n````"
            ),
        ]
    )
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


@pytest.fixture
def tiny_book(tmp_path) -> Path:
    """A book root: config, TOC, a front page, one chapter (source and executed)."""
    root = tmp_path / "book-root"
    (root / "book" / "_vendor" / "static").mkdir(parents=True)
    (root / "notebooks").mkdir()
    (root / "_build" / "executed" / "notebooks").mkdir(parents=True)
    config = {
        "title": "Tiny",
        "author": "tests",
        "only_build_toc_files": True,
        "execute": {"execute_notebooks": "off"},
        "sphinx": {"extra_extensions": ["sphinx_exercise"]},
    }
    (root / "_config.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    toc = {"format": "jb-book", "root": "book/intro", "chapters": [{"file": "notebooks/01_demo"}]}
    (root / "_toc.yml").write_text(yaml.safe_dump(toc), encoding="utf-8")
    (root / "book" / "intro.md").write_text("# Tiny\n\nThe front page.\n", encoding="utf-8")
    for name in ("_ledger_headline.html", "_course_times.html"):
        (root / "book" / name).write_text("", encoding="utf-8")
    nb = _chapter()
    nbformat.write(nb, root / "notebooks" / "01_demo.ipynb")
    nbformat.write(nb, root / "_build" / "executed" / "notebooks" / "01_demo.ipynb")
    return root


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_the_student_notebook_says_it_has_no_solutions():
    nb = _chapter()
    student = student_notebook(nb, name="01_demo")
    whole = json.dumps(student)
    assert NO_SOLUTIONS in whole and "open one with a click" not in whole
    for secret in (SECRET_TEXT, SECRET_CODE, SECRET_OUTPUT, PLAIN_SECRET):
        assert secret not in whole
    assert "What is the answer?" in whole and "shown to everyone" in whole
    assert "open one with a click" in json.dumps(nb)  # its input is left alone


def test_brand_stage_marks_title_banner_and_front_page(tiny_book, tmp_path):
    stage = stage_book(tiny_book, stage=tmp_path / "stage", echo=lambda *a, **k: None)
    brand_stage(stage)
    config = yaml.safe_load(_text(stage / "_config.yml"))
    assert config["title"] == "Tiny (student edition)"
    assert config["html"]["announcement"] == BANNER
    front = _text(stage / "book" / "intro.md")
    assert front.startswith("# Tiny\n\n```{admonition} Student edition")
    assert "The front page." in front


def test_no_executed_chapter_is_a_clear_error(tiny_book, capsys):
    shutil.rmtree(tiny_book / "_build" / "executed")
    with pytest.raises(BuildError, match="no executed chapters .* run `make html`"):
        build_student_site(tiny_book, echo=lambda *a, **k: None)
    assert student_site.main(["--root", str(tiny_book)]) == 1
    assert "no executed chapters" in capsys.readouterr().err


def test_a_missing_vendor_folder_is_a_clear_error(tiny_book):
    shutil.rmtree(tiny_book / "book" / "_vendor")
    with pytest.raises(BuildError, match="make vendor"):
        build_student_site(tiny_book, echo=lambda *a, **k: None)


@pytest.mark.heavy
def test_a_tiny_book_builds_into_a_site_without_solutions(tiny_book):
    lines = []
    site = build_student_site(tiny_book, echo=lambda *a, **k: lines.append(a[0]))
    assert site == tiny_book / "_build" / "html-student"
    assert (site / "index.html").is_file() and not (tiny_book / student_site.WORK).exists()
    page = _text(site / "notebooks" / "01_demo.html")
    download = _text(site / "_sources" / "notebooks" / "01_demo.ipynb")
    for text in (page, download):
        for secret in (SECRET_TEXT, SECRET_CODE, SECRET_OUTPUT, PLAIN_SECRET):
            assert secret not in text
            assert "pelican" not in text and "marmot" not in text
    assert 'class="solution' not in page and "Your answer:" in page
    assert "What is the answer?" in page and "shown to everyone" in page
    assert NO_SOLUTIONS in page and BANNER in page
    assert "Student edition" in _text(site / "book" / "intro.html")
    assert (site / "ledger.csv").is_file()
    assert "1 chapters, 2 solutions left out" in lines[-1]
    assert site_leaks(site, tiny_book / "_build" / "executed" / "notebooks") == []


def test_site_leaks_finds_a_solution_in_a_page(tiny_book, tmp_path):
    site = tmp_path / "site"
    (site / "notebooks").mkdir(parents=True)
    (site / "_sources" / "notebooks").mkdir(parents=True)
    executed = tiny_book / "_build" / "executed" / "notebooks"
    student = student_notebook(_chapter())
    nbformat.write(student, site / "_sources" / "notebooks" / "01_demo.ipynb")
    (site / "notebooks" / "01_demo.html").write_text(
        "<p>What is the answer?</p><pre><span>zebra_answer</span> = 40 + 2  # pelican</pre>",
        encoding="utf-8",
    )
    (site / "book.html").write_text('<div class="solution dropdown">x</div>', encoding="utf-8")
    problems = site_leaks(site, executed)
    assert "book.html: a solution dropdown" in problems
    assert any(p.startswith("notebooks/01_demo.html: 1 solution lines") for p in problems)
    assert not any("_sources" in p for p in problems)
    (site / "_sources" / "notebooks" / "01_demo.ipynb").unlink()
    assert "_sources/notebooks/01_demo.ipynb: missing" in site_leaks(site, executed)


# ---------------------------------------------------------------------------------------------
# the book's own student site, when it has been built


def _editions_oracle():
    spec = importlib.util.spec_from_file_location("_test_editions", _HERE / "test_editions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_TAGS = re.compile(r"<[^>]+>")


def _page_text(path: Path) -> str:
    import html

    return " ".join(html.unescape(_TAGS.sub(" ", _text(path))).split())


_BUILT = pytest.mark.skipif(
    not (SITE / "index.html").is_file() or not EXECUTED.is_dir(),
    reason="the student site has not been built (make student-site)",
)


@_BUILT
def test_the_student_site_shows_no_solution():
    assert site_leaks(SITE, EXECUTED) == []
    chapters = sorted(EXECUTED.glob("[0-9][0-9]_*.ipynb"))
    assert len(chapters) >= 8
    for path in chapters:
        page = _text(SITE / "notebooks" / f"{path.stem}.html")
        assert 'class="solution' not in page and "Your answer:" in page, path.stem
        assert BANNER in page and NO_SOLUTIONS in page, path.stem
        download = json.loads(_text(SITE / "_sources" / "notebooks" / path.name))
        assert download["metadata"]["fairbook"]["edition"] == "student", path.stem


@_BUILT
def test_the_student_site_leaks_nothing_the_editions_oracle_finds():
    """The independent oracle of test_editions.py: every distinctive sentence, code line and
    output of a solution, searched in the rendered page's text and in its download."""
    oracle = _editions_oracle()
    for path in sorted(EXECUTED.glob("[0-9][0-9]_*.ipynb")):
        original = oracle._read(path)
        truth = oracle._oracle(original)
        snippets = oracle._snippets(truth["inside"], truth["outside"], truth["solution_outputs"])
        assert snippets, path.stem
        page = _page_text(SITE / "notebooks" / f"{path.stem}.html")
        leaked = sorted(s for s in snippets if oracle._norm(oracle._TAG.sub(" ", s)) in page)
        assert not leaked, f"{path.stem}: {leaked[:3]}"
        download = oracle._read(SITE / "_sources" / "notebooks" / path.name)
        leaks, _ = oracle._leaks(original, download)
        assert not leaks, f"{path.stem} download: {leaks[:3]}"


@pytest.mark.skipif(
    not (INSTRUCTORS / "index.html").is_file() or not EXECUTED.is_dir(),
    reason="the book has not been built (make html)",
)
def test_the_check_catches_the_instructors_site():
    """The same check on the book with its folded solutions finds them in every chapter:
    it is not blind."""
    problems = site_leaks(INSTRUCTORS, EXECUTED)
    chapters = sorted(EXECUTED.glob("[0-9][0-9]_*.ipynb"))
    for path in chapters:
        page = f"notebooks/{path.stem}.html"
        assert f"{page}: a solution dropdown" in problems
        assert any(p.startswith(f"{page}: ") and "solution lines" in p for p in problems), page
