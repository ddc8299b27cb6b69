"""Tests of :mod:`fairbook_book.tooling.editions`: the student edition leaks no solution.

The leak test does not trust the module's parser: :func:`_oracle` finds each solution line by
line, on its own, and every non-trivial sentence of solution text, line of solution code and
line of solution output (text, HTML, the start of an image) that occurs nowhere else in the
chapter is searched for in every string of the student file — sources, outputs and metadata.
It runs on three student editions: made from the source chapters, made from the source
chapters with a made-up output in every code cell (so the outputs path is tested on a fresh
clone), and, when the book has been built, made from the executed chapters and from the
download files of ``_build/html/_sources`` (on a copy).
"""

from __future__ import annotations

import ast
import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from fairbook_book.tooling import editions
from fairbook_book.tooling.editions import (
    PLACEHOLDER,
    EditionError,
    instructor_edition,
    serve_student_downloads,
    student_edition,
    write_editions,
)

ROOT = Path(__file__).resolve().parents[3]
SOURCE = ROOT / "notebooks"
EXECUTED = ROOT / "_build" / "executed" / "notebooks"
HTML_SOURCES = ROOT / "_build" / "html" / "_sources"
CHAPTERS = sorted(SOURCE.glob("[0-9][0-9]_*.ipynb"))
NAMES = [p.name for p in CHAPTERS]

_TAG = re.compile(r"</?\w+[^>]*>")
_OPEN = re.compile(r"^(`{3,}|:{3,})\{(solution-start|solution-end|solution)\}\s*(\S*)")


# ---------------------------------------------------------------------------------------------
# the oracle: solutions found line by line, independently of the module


def _text(value) -> str:
    return value if isinstance(value, str) else "".join(value)


def _output_texts(output: dict) -> list[str]:
    texts = []
    if "text" in output:
        texts.append(_text(output["text"]))
    for mime, value in output.get("data", {}).items():
        if mime.startswith("image/") and mime != "image/svg+xml":
            texts.append(_text(value)[:120])  # the start of the base64 image
        elif isinstance(value, (str, list)):
            texts.append(_text(value))
        else:
            texts.append(_strings(value))  # a JSON output (a chart's spec)
    return texts


def _oracle(nb: dict) -> dict:
    """Solution lines, code and outputs; everything outside the solutions; exercise blocks."""
    inside = outside = ""
    solution_code, outside_code, solution_outputs, labels = [], [], [], []
    fence = None  # the fence of an open plain {solution}
    gated = False
    for cell in nb["cells"]:
        source = _text(cell["source"])
        if cell["cell_type"] != "markdown":
            outs = "\n".join(t for o in cell.get("outputs", []) for t in _output_texts(o))
            outs += "\n" + _strings(cell.get("metadata", {}))
            if gated:
                inside += source + "\n" + outs + "\n"
                solution_code.append(source)
                for output in cell.get("outputs", []):
                    solution_outputs += _output_texts(output)
            else:
                outside += source + "\n" + outs + "\n"
                outside_code.append(source)
            continue
        outside += _strings(cell.get("metadata", {})) + "\n"  # split cells keep it
        lines = iter(source.splitlines())
        for line in lines:
            opened = _OPEN.match(line)
            if fence is not None:  # inside a plain solution
                if line.strip() == fence:
                    fence = None
                else:
                    inside += line + "\n"
            elif opened and opened.group(2) == "solution":
                fence = opened.group(1)
                labels.append((opened.group(3), False))
            elif opened:  # solution-start or -end: skip its options and closing fence
                for rest in lines:
                    if rest.strip() == opened.group(1):
                        break
                if opened.group(2) == "solution-start":
                    gated = True
                    labels.append((opened.group(3), None))
                else:
                    gated = False
            elif gated:
                inside += line + "\n"
            else:
                outside += line + "\n"
    outside += _strings(nb.get("metadata", {}))
    exercises = re.findall(r"^````\{exercise\}.*?^````$", outside, re.M | re.S)
    return {
        "inside": inside,
        "outside": outside,
        "solution_code": solution_code,
        "outside_code": outside_code,
        "solution_outputs": solution_outputs,
        "labels": labels,
        "exercises": exercises,
    }


def _norm(text: str) -> str:
    return " ".join(text.split())


def _snippets(inside: str, outside: str, outputs: list[str] = ()) -> set[str]:
    """Each non-trivial sentence or line of solution text, code or output, and each whole
    output however short, that occurs nowhere outside the solutions (what is outside them is
    no leak)."""
    elsewhere = _norm(outside) + "\n" + _norm(_TAG.sub(" ", outside))
    found = {
        _norm(text) for text in outputs if len(_norm(text)) >= 4 and _norm(text) not in elsewhere
    }
    for line in inside.splitlines():
        line = line.strip()
        if not line or line.startswith(":class:"):
            continue
        parts = [line, *re.split(r"(?<=[.!?;:])\s+", line)]
        for part in parts:
            part = _norm(_TAG.sub(" ", part))  # HTML rows: their cell values
            if len(part) >= 12 and part not in elsewhere:
                found.add(part)
    return found


def _strings(value) -> str:
    """Every string anywhere in a notebook's JSON (sources, outputs, metadata), joined."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(_strings(k) + "\n" + _strings(v) for k, v in value.items())
    if isinstance(value, list):
        return "\n".join(_strings(v) for v in value)
    return ""


def _searchable(nb: dict) -> str:
    whole = _strings(nb)
    return _norm(whole) + "\n" + _norm(_TAG.sub(" ", whole))


def _leaks(original: dict, student: dict) -> tuple[list[str], int]:
    truth = _oracle(original)
    snippets = _snippets(truth["inside"], truth["outside"], truth["solution_outputs"])
    haystack = _searchable(student)
    return sorted(s for s in snippets if s in haystack), len(snippets)


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _with_outputs(nb: dict) -> dict:
    """A copy with a made-up, distinctive output in every code cell, as if executed."""
    nb = json.loads(json.dumps(nb))
    for index, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code":
            cell["outputs"] = [
                {
                    "output_type": "execute_result",
                    "execution_count": index,
                    "metadata": {},
                    "data": {
                        "text/plain": f"value of cell {index}: {hash(_text(cell['source']))}",
                        "text/html": f"<table><td>html of cell {index} xyz</td></table>",
                    },
                }
            ]
            cell["execution_count"] = index
    return nb


# ---------------------------------------------------------------------------------------------
# the editions of the book's chapters


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    base = tmp_path_factory.mktemp("editions")
    return {
        "student": write_editions(SOURCE, base / "student"),
        "instructor": write_editions(SOURCE, base / "instructor", edition="instructor"),
        "base": base,
    }


def test_the_chapters_are_there():
    assert len(CHAPTERS) >= 8


@pytest.mark.parametrize("name", NAMES)
def test_the_student_edition_leaks_no_solution_text_or_code(name, written):
    original = _read(SOURCE / name)
    student = _read(written["base"] / "student" / name)
    leaks, searched = _leaks(original, student)
    assert searched >= len(_oracle(original)["labels"]), f"{name}: the oracle found too little"
    assert not leaks, f"{name}: solution text in the student edition: {leaks[:5]}"


@pytest.mark.parametrize("name", NAMES)
def test_the_student_edition_leaks_no_solution_output(name):
    executed = _with_outputs(_read(SOURCE / name))
    student = student_edition(executed, name=name)
    leaks, _ = _leaks(executed, student)
    assert not leaks, f"{name}: {leaks[:5]}"
    truth = _oracle(executed)
    kept = _searchable(student)
    assert "value of cell" in truth["inside"]  # there were solution outputs to remove
    for line in truth["outside"].splitlines():  # and every other output is still there
        if line.startswith("value of cell"):
            assert _norm(line) in kept


def test_every_solution_gives_at_least_one_distinctive_line_to_search_for():
    for path in CHAPTERS:
        nb = _read(path)
        truth = _oracle(nb)
        for solution in editions.find_solutions(nb, name=path.stem):
            text = "\n".join(solution.markdown + solution.code)
            assert _snippets(text, truth["outside"]), f"{path.stem}: {solution.label}"


@pytest.mark.parametrize("name", NAMES)
def test_every_exercise_statement_stays_with_a_placeholder(name, written):
    original = _read(SOURCE / name)
    student = _read(written["base"] / "student" / name)
    truth = _oracle(original)
    markdown = "\n".join(_text(c["source"]) for c in student["cells"])
    assert len(truth["exercises"]) >= 3
    for block in truth["exercises"]:
        assert block in markdown, f"{name}: an exercise statement is missing"
    answers = [c for c in student["cells"] if c["metadata"].get("fairbook", {}).get("answer")]
    prose = [c for c in answers if c["cell_type"] == "markdown"]
    assert [_text(c["source"]) for c in prose] == [PLACEHOLDER] * len(truth["labels"])
    assert [c["metadata"]["fairbook"]["answer"] for c in prose] == [
        label for label, _ in truth["labels"]
    ]
    code = [c for c in answers if c["cell_type"] == "code"]
    assert all(_text(c["source"]) == "" and c["outputs"] == [] for c in code)
    assert len(code) == sum(1 for s in editions.find_solutions(original) if s.code)
    assert "solution-start" not in markdown and "solution-end" not in markdown
    assert "{solution}" not in markdown


@pytest.mark.parametrize("name", NAMES)
def test_the_student_edition_keeps_everything_outside_the_solutions(name, written):
    original = _read(SOURCE / name)
    student = _read(written["base"] / "student" / name)
    truth = _oracle(original)
    kept = _norm(_strings(student))
    for line in truth["outside"].splitlines():
        assert _norm(line) in kept, f"{name}: lost {line!r}"
    student_code = [_text(c["source"]) for c in student["cells"] if c["cell_type"] == "code"]
    assert [c for c in student_code if c] == [c for c in truth["outside_code"] if c]
    nbformat.validate(nbformat.from_dict(student))
    ids = [c["id"] for c in student["cells"]]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("name", NAMES)
def test_the_student_notebook_needs_no_name_that_only_a_solution_defines(name):
    truth = _oracle(_read(SOURCE / name))

    def names(sources, kind):
        found = set()
        for source in sources:
            code = "\n".join(
                line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))
            )
            for node in ast.walk(ast.parse(code)):
                if isinstance(node, ast.Name) and isinstance(node.ctx, kind):
                    found.add(node.id)
                elif kind is ast.Store and isinstance(node, (ast.Import, ast.ImportFrom)):
                    found.update((a.asname or a.name).split(".")[0] for a in node.names)
                elif kind is ast.Store and isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                    found.add(node.name)
        return found

    only_solutions = names(truth["solution_code"], ast.Store) - names(
        truth["outside_code"], ast.Store
    )
    assert not only_solutions & names(truth["outside_code"], ast.Load), name


@pytest.mark.parametrize("name", NAMES)
def test_the_instructor_edition_is_the_source(name, written):
    assert (written["base"] / "instructor" / name).read_bytes() == (SOURCE / name).read_bytes()
    nb = nbformat.read(SOURCE / name, as_version=4)
    assert instructor_edition(nb, name=name) == nb


def test_the_counts_of_each_chapter(written):
    for student, instructor in zip(written["student"], written["instructor"], strict=True):
        assert student.chapter == instructor.chapter
        assert student.exercises == instructor.exercises == student.solutions >= 3
        assert student.code_cells_removed >= 1 and student.outputs_removed == 0
        assert instructor.cells_removed == 0


def test_the_student_edition_is_stable_and_leaves_its_input_alone():
    nb = nbformat.read(CHAPTERS[0], as_version=4)
    before = json.dumps(nb, sort_keys=True)
    once = student_edition(nb, name=CHAPTERS[0].stem)
    assert json.dumps(nb, sort_keys=True) == before
    assert student_edition(once) == once
    assert once.metadata["fairbook"]["edition"] == "student"


@pytest.fixture(scope="module")
def executed_student(tmp_path_factory):
    folder = tmp_path_factory.mktemp("executed-student")
    return folder, write_editions(EXECUTED, folder)


@pytest.mark.skipif(not EXECUTED.is_dir(), reason="the book has not been built (make html)")
@pytest.mark.parametrize("name", NAMES)
def test_the_student_edition_of_the_executed_chapter_leaks_nothing(name, executed_student):
    if not (EXECUTED / name).is_file():
        pytest.skip(f"{name} has not been executed")
    folder, reports = executed_student
    report = next(r for r in reports if r.chapter == Path(name).stem)
    original = _read(EXECUTED / name)
    leaks, _ = _leaks(original, _read(folder / name))
    assert not leaks, f"{name}: {leaks[:5]}"
    assert report.outputs_removed >= 1


@pytest.mark.skipif(not HTML_SOURCES.is_dir(), reason="the book has not been built (make html)")
def test_the_built_books_downloads_once_served_leak_nothing(tmp_path):
    shutil.copytree(HTML_SOURCES / "notebooks", tmp_path / "_sources" / "notebooks")
    originals = {p.name: _read(p) for p in (tmp_path / "_sources" / "notebooks").glob("*.ipynb")}
    if not any("{solution-start}" in _strings(nb) for nb in originals.values()):
        pytest.skip("these downloads were already served as student editions")
    served = serve_student_downloads(tmp_path)
    assert len(served) == len(originals) >= 8
    for name, original in originals.items():
        leaks, _ = _leaks(original, _read(tmp_path / "_sources" / "notebooks" / name))
        assert not leaks, f"{name}: {leaks[:5]}"


# ---------------------------------------------------------------------------------------------
# the download button, on a made-up built book


def test_serve_student_downloads_rewrites_the_chapter_downloads_only(tmp_path):
    sources = tmp_path / "_sources"
    (sources / "notebooks").mkdir(parents=True)
    (sources / "book").mkdir()
    page = sources / "book" / "intro.md"
    page.write_text("```{solution-start} not-a-notebook\n```\n", encoding="utf-8")
    chapter = _with_outputs(_read(CHAPTERS[0]))
    target = sources / "notebooks" / CHAPTERS[0].name
    target.write_text(json.dumps(chapter), encoding="utf-8")

    reports = serve_student_downloads(tmp_path)
    assert [r.chapter for r in reports] == [CHAPTERS[0].stem]
    assert reports[0].outputs_removed == reports[0].code_cells_removed >= 1
    leaks, _ = _leaks(chapter, _read(target))
    assert not leaks
    assert page.read_text(encoding="utf-8").startswith("```{solution-start}")
    first = target.read_bytes()
    serve_student_downloads(tmp_path)  # twice: the same file
    assert target.read_bytes() == first
    assert serve_student_downloads(tmp_path / "nothing-here") == []


# ---------------------------------------------------------------------------------------------
# hostile notebooks


def _nb(*cells) -> nbformat.NotebookNode:
    made = []
    for cell in cells:
        if cell.startswith("CODE:"):
            made.append(nbformat.v4.new_code_cell(cell[5:]))
        else:
            made.append(nbformat.v4.new_markdown_cell(cell))
    return nbformat.v4.new_notebook(cells=made)


def _exercise(label: str) -> str:
    return f"````{{exercise}} {label}\n:label: {label}\n\nDo {label}.\n````\n\n"


START = "```{{solution-start}} {}\n:class: dropdown\n```\n\nThe secret answer."
END = "```{solution-end}\n```"


@pytest.mark.parametrize("edition", [student_edition, instructor_edition])
def test_a_solution_start_without_an_end_names_the_chapter_and_label(edition):
    nb = _nb(_exercise("ex-a") + START.format("ex-a"), "CODE:secret()")
    with pytest.raises(EditionError, match=r"07_demo.*ex-a.*never closed"):
        edition(nb, name="07_demo")


def test_an_open_solution_may_not_swallow_the_next_exercise():
    nb = _nb(_exercise("ex-a") + START.format("ex-a"), "CODE:secret()", _exercise("ex-b"))
    with pytest.raises(EditionError, match=r"07_demo, cell 2: .*ex-a.*not closed.*exercise"):
        student_edition(nb, name="07_demo")


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        ((_exercise("ex-a") + END,), r"solution-end\} without a \{solution-start"),
        (
            (START.format("ex-a"), START.format("ex-b"), END),
            r"ex-a is not closed .* before the \{solution-start\} ex-b",
        ),
        ((_exercise("ex-a") + "````{solution} ex-a\n:class: dropdown\n\nHalf",), "never closed"),
        (("```{solution-start}\n```",), "without a label"),
    ],
)
def test_malformed_solutions_are_errors(cells, message):
    with pytest.raises(EditionError, match=message):
        student_edition(_nb(*cells), name="03_demo")


def test_text_after_the_end_of_a_solution_stays_and_cells_split_in_order():
    nb = _nb(
        _exercise("ex-a") + START.format("ex-a"),
        "CODE:secret()",
        "More secret text.\n\n"
        + END
        + "\n\nAfter the solution.\n\n"
        + _exercise("ex-b")
        + "````{solution} ex-b\n:class: dropdown\n\nHidden too.\n````\n\nThe end.",
    )
    student = student_edition(nb, name="01_demo")
    texts = [(c.cell_type, c.source) for c in student.cells]
    assert texts == [
        ("markdown", _exercise("ex-a").strip("\n")),
        ("markdown", PLACEHOLDER),
        ("code", ""),
        ("markdown", "After the solution.\n\n" + _exercise("ex-b").strip("\n")),
        ("markdown", PLACEHOLDER),
        ("markdown", "The end."),
    ]
    whole = json.dumps(student)
    assert "secret" not in whole and "Hidden" not in whole
    nbformat.validate(student)


def test_write_editions_refuses_its_own_source_a_bad_edition_and_a_bad_chapter(tmp_path):
    with pytest.raises(EditionError, match="would overwrite the chapters in"):
        write_editions(SOURCE, SOURCE)
    with pytest.raises(EditionError, match="unknown edition"):
        write_editions(SOURCE, tmp_path / "x", edition="teacher")
    with pytest.raises(EditionError, match="no chapter notebooks"):
        write_editions(tmp_path, tmp_path / "y")
    source = tmp_path / "src"
    source.mkdir()
    nbformat.write(_nb(_exercise("ex-a") + "ok"), source / "01_good.ipynb")
    nbformat.write(_nb(START.format("ex-z")), source / "02_bad.ipynb")
    with pytest.raises(EditionError, match="02_bad.*ex-z"):
        write_editions(source, tmp_path / "out")
    assert not (tmp_path / "out").exists()  # nothing written when a chapter is bad


def test_write_editions_replaces_only_what_it_wrote(tmp_path):
    """Issue 48, cause 10: an edition replaces its own earlier files (a renamed chapter of
    its own goes), never a file it did not write."""
    out = tmp_path / "out"
    write_editions(SOURCE, out)
    manifest = json.loads((out / editions.MANIFEST).read_text(encoding="utf-8"))
    assert manifest["edition"] == "student" and set(NAMES) <= set(manifest["files"])
    (out / "README.md").write_text("kept", encoding="utf-8")
    (out / "99_project.ipynb").write_text("{}", encoding="utf-8")  # a student's own notebook
    (out / NAMES[0]).write_text("answered", encoding="utf-8")  # ours: replaced
    manifest["files"].append("98_renamed.ipynb")  # a chapter of ours that was renamed
    (out / "98_renamed.ipynb").write_text("{}", encoding="utf-8")
    (out / editions.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    write_editions(SOURCE, out)
    assert sorted(p.name for p in out.glob("*.ipynb")) == sorted([*NAMES, "99_project.ipynb"])
    assert (out / "README.md").read_text(encoding="utf-8") == "kept"
    assert (out / "99_project.ipynb").read_text(encoding="utf-8") == "{}"
    assert all(PLACEHOLDER in (out / n).read_text(encoding="utf-8") for n in NAMES)


def test_write_editions_refuses_files_it_did_not_write_and_the_instructor_folder(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / NAMES[0]).write_text("my own work", encoding="utf-8")
    with pytest.raises(EditionError, match="fairbook did not write"):
        write_editions(SOURCE, mine)
    assert (mine / NAMES[0]).read_text(encoding="utf-8") == "my own work"
    teacher = tmp_path / "instructor"
    write_editions(SOURCE, teacher, edition="instructor")
    with pytest.raises(EditionError, match="instructor edition's folder"):
        write_editions(SOURCE, teacher)
    write_editions(SOURCE, teacher, edition="instructor")  # the instructor's own: replaced
    with pytest.raises(EditionError, match="would overwrite the chapters in"):
        write_editions(tmp_path / "instructor", SOURCE, protected=(SOURCE,))


def test_the_command_line(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("FAIRBOOK_ROOT", raising=False)
    assert editions.main(["--root", str(ROOT), "--out", str(tmp_path / "s")]) == 0
    assert f"{len(CHAPTERS)} chapters in" in capsys.readouterr().out
    assert sorted(p.name for p in (tmp_path / "s").glob("*.ipynb")) == NAMES
    book = tmp_path / "book"
    (book / "notebooks").mkdir(parents=True)
    (book / "_toc.yml").write_text("root: intro\n", encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        editions.main(["--root", str(book), "--out", str(tmp_path / "e"), "--executed"])
    assert stop.value.code == 2
    assert "make html" in capsys.readouterr().err


def test_each_edition_states_its_licence(tmp_path):
    from fairbook_book.tooling.editions import EDITION_NOTE

    for edition in ("student", "instructor"):
        write_editions(SOURCE, tmp_path / edition, edition=edition)
        note = (tmp_path / edition / EDITION_NOTE).read_text(encoding="utf-8")
        assert f"{edition} edition" in note and "CC BY 4.0" in note and "MIT" in note
        assert f"{len(NAMES)} chapter notebooks" in note
