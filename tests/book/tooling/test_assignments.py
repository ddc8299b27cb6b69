"""The otter-grader assignments: built from the chapters' own statements and the keys, graded
offline — solutions full marks, blank zero, wrong answers caught — and leaking nothing into
the student's copy."""

import json
import re
import zipfile
from pathlib import Path

import nbformat
import numpy as np
import pytest

from fairbook_book.tooling import assignments
from fairbook_book.tooling.assignments import (
    GradingError,
    Score,
    build_assignments,
    built_assignments,
    check_grading,
    exercise_statements,
    main,
    master_notebook,
)
from fairbook_book.tooling.editions import find_solutions
from fairbook_book.tooling.exercise_keys import GRADED, GUIDES

ROOT = Path(__file__).resolve().parents[3]
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
BUILT_STUDENT = ROOT / "_build" / "editions" / "student" / "assignments"


def _source(cell):
    return cell.source if isinstance(cell.source, str) else "".join(cell.source)


def _secrets():
    """Lines a student's copy must never contain: each assignment of each key's working,
    every marking guide's criteria, the hidden tests' call."""
    lines = {"check_answer("}
    for key in GRADED.values():
        lines |= {line.strip() for line in key.solution.split("\n") if " = " in line}
    for guide in GUIDES.values():
        lines |= {text for _, text in guide.criteria}
    return lines


def _leaks(folder: Path) -> list[str]:
    found = []
    secrets = _secrets()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            text = text.replace("\\n", "\n").replace('\\"', '"')
            found += [f"{path.name}: {secret}" for secret in secrets if secret in text]
    return found


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem[:2])
def test_the_statements_are_the_chapters_exercises_one_per_solution(path):
    notebook = nbformat.read(path, as_version=4)
    statements = exercise_statements(notebook)
    assert [s.label for s in statements] == [s.label for s in find_solutions(notebook)]
    for statement in statements:
        assert statement.title and statement.body and ":label:" not in statement.body
        assert not re.search(r"\{[\w:-]+\}`", statement.body)  # no MyST role left unresolved


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem[:2])
def test_the_master_notebook_has_one_question_per_exercise(path):
    notebook = nbformat.read(path, as_version=4)
    master = master_notebook(path.stem, notebook)
    raw = [_source(c) for c in master.cells if c.cell_type == "raw"]
    questions = [r for r in raw if r.startswith("# BEGIN QUESTION")]
    labels = [s.label for s in exercise_statements(notebook)]
    assert len(questions) == len(labels)
    assert sum("manual: true" in q for q in questions) == sum(label in GUIDES for label in labels)
    assert raw[0].startswith("# ASSIGNMENT CONFIG") and "run_tests: false" in raw[0]
    code = "\n".join(_source(c) for c in master.cells if c.cell_type == "code")
    for label in labels:
        if label in GRADED:
            for answer in GRADED[label].answers:
                assert re.search(rf"^{answer.name} = .*# SOLUTION$", code, re.M)
                assert f"def test_{answer.name}({answer.name}):" in code
                assert f"def test_{answer.name}_is_set({answer.name}):" in code


def test_working_lines_are_hidden_and_answers_become_skeletons():
    text = assignments._answer_lines(GRADED["ex-06-cohen-by-hand"])
    assert text.split("\n") == [
        "# BEGIN SOLUTION NO PROMPT",
        "s2 = (2 * 0.03 ** 2 + 2 * 0.01 ** 2) / 3",
        "# END SOLUTION",
        "d = 0.05 / s2 ** 0.5  # SOLUTION",
        'label = "very large"  # SOLUTION',
    ]


def _demo(*labels):
    cells = [
        nbformat.v4.new_markdown_cell(f"````{{exercise}} E\n:label: {label}\n\nDo it.\n````")
        for label in labels
    ]
    return nbformat.v4.new_notebook(cells=cells)


def test_an_exercise_without_a_key_or_a_key_without_its_exercise_is_an_error():
    with pytest.raises(GradingError, match="ex-01-new has no key and no marking guide"):
        master_notebook(
            "01_demo", _demo(*[k for k in [*GRADED, *GUIDES] if k[3:5] == "01"], "ex-01-new")
        )
    with pytest.raises(GradingError, match="the key ex-01-.* has no exercise in the chapter"):
        master_notebook("01_demo", _demo("ex-01-rates-by-hand"))
    with pytest.raises(GradingError, match="has no :label:"):
        exercise_statements(
            nbformat.v4.new_notebook(
                cells=[nbformat.v4.new_markdown_cell("````{exercise} E\n\nNo label.\n````")]
            )
        )


def _fake_scores(monkeypatch, table):
    def fake(autograder, notebook, *, which=""):
        return Score(Path(notebook).stem[:2], which, *table[which])

    monkeypatch.setattr(assignments, "grade", fake)
    monkeypatch.setattr(assignments, "_grade_job", lambda job: fake(job[2], job[3], which=job[1]))


@pytest.mark.parametrize(
    ("which", "points", "message"),
    [
        ("solutions", 3.0, "the solutions score 3 of 4"),
        ("blank", 1.0, "a blank notebook scores 1"),
        ("wrong", 4.0, "the wrong answer scores full marks"),
    ],
)
def test_check_grading_names_every_question_that_grades_otherwise(
    tmp_path, monkeypatch, which, points, message
):
    q = "ex_01_rates_by_hand"
    table = {
        "solutions": ({q: 4.0}, {q: 4.0}),
        "blank": ({q: 0.0}, {q: 4.0}),
        "wrong": ({q: 0.0}, {q: 4.0}),
    }
    table[which] = ({q: points}, {q: 4.0})
    _fake_scores(monkeypatch, table)
    monkeypatch.setattr(assignments, "ProcessPoolExecutor", _InlinePool)
    student = tmp_path / "01_exercises.ipynb"
    nbformat.write(nbformat.v4.new_notebook(), student)
    built = {"01_demo": {"student": student, "solution": student, "autograder": student}}
    with pytest.raises(GradingError, match=f"01_demo {q}: {message}"):
        check_grading(built, out=tmp_path / "out")
    assert "| 01 | 1 |" in (tmp_path / "out" / "SCORES.md").read_text()


@pytest.mark.parametrize("solution_points", [4.0, 3.0])
def test_solutions_graded_alone_are_not_graded_again(tmp_path, monkeypatch, solution_points):
    """make grader grades the solutions in the zips' own environment first
    (check_zips_alone); check_grading then takes those scores and judges them the same."""
    q = "ex_01_rates_by_hand"
    graded: list[str] = []
    table = {"blank": ({q: 0.0}, {q: 4.0}), "wrong": ({q: 0.0}, {q: 4.0})}

    def fake(job):
        graded.append(job[1])
        return Score("01", job[1], *table[job[1]])

    monkeypatch.setattr(assignments, "_grade_job", fake)
    monkeypatch.setattr(assignments, "ProcessPoolExecutor", _InlinePool)
    student = tmp_path / "01_exercises.ipynb"
    nbformat.write(nbformat.v4.new_notebook(), student)
    built = {"01_demo": {"student": student, "solution": student, "autograder": student}}
    alone = {"01_demo": Score("01", "solutions", {q: solution_points}, {q: 4.0})}
    if solution_points == 4.0:
        scores = check_grading(built, out=tmp_path / "out", solutions=alone)
        assert [s.which for s in scores] == ["solutions", "blank", "wrong"]
        assert "| 01 | 1 | 4 / 4 | 0 / 4 | 0 / 4 |" in (tmp_path / "out" / "SCORES.md").read_text()
    else:
        with pytest.raises(GradingError, match=f"01_demo {q}: the solutions score 3 of 4"):
            check_grading(built, out=tmp_path / "out", solutions=alone)
    assert sorted(graded) == ["blank", "wrong"]  # the solutions were not graded again


class _InlinePool:
    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def map(self, function, items):
        return [function(item) for item in items]


def test_built_assignments_needs_every_file(tmp_path):
    with pytest.raises(GradingError, match="no assignments in .*: run make student first"):
        built_assignments(tmp_path)
    (tmp_path / "student" / "assignments").mkdir(parents=True)
    (tmp_path / "student" / "assignments" / "01_exercises.ipynb").write_text("{}")
    with pytest.raises(
        GradingError, match="chapter 01's assignment is incomplete: no .*01_exercises"
    ):
        built_assignments(tmp_path)


def test_the_command_line_says_what_is_missing_in_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--out", str(tmp_path), "--no-build", "--check", "--root", str(ROOT)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "run make student first" in err


def test_a_real_assignment_builds_grades_and_leaks_nothing(tmp_path):
    """One chapter through otter assign and otter run (make test's grader stage does all)."""
    built = build_assignments(ROOT / "notebooks", tmp_path, chapters=["10"])
    assert list(built) == ["10_verdict_stability"]
    scores = {s.which: s for s in check_grading(built, out=tmp_path / "scores", workers=2)}
    question = GRADED["ex-10-flip-rate-by-hand"].question
    assert scores["solutions"].points == {question: 2.0} == scores["solutions"].possible
    assert scores["blank"].points == {question: 0.0}
    assert scores["wrong"].points == {question: 0.0}
    assert (
        json.loads((tmp_path / "scores" / "scores.json").read_text())[0]["notebook"] == "solutions"
    )
    assert _leaks(tmp_path / "student") == []
    # the instructor's folder has what the student's lacks
    teacher = tmp_path / "instructor" / "assignments"
    assert {p.name for p in teacher.iterdir()} == {
        "10_exercises.ipynb",
        "10_autograder.zip",
        "10_keys.json",
        "MARKING_GUIDE.md",
        "VARIANT.json",
    }
    # the zip's tests compare with values written into them: nothing of fairbook is imported
    with zipfile.ZipFile(teacher / "10_autograder.zip") as zipped:
        tests = "".join(
            zipped.read(n).decode() for n in zipped.namelist() if n.startswith("tests/")
        )
        environment = zipped.read("environment.yml").decode()
    assert "fairbook" not in tests and "expected = " in tests
    assert "scipy==" in environment and "fairbook" not in environment
    guide = (teacher / "MARKING_GUIDE.md").read_text()
    assert all(text in guide for _, text in GUIDES["ex-10-report-what"].criteria)
    student = nbformat.read(built["10_verdict_stability"]["student"], as_version=4)
    code = "\n".join(_source(c) for c in student.cells if c.cell_type == "code")
    assert "rate = ...\nlargest = ..." in code and 'grader.check("ex_10_flip_rate_by_hand")' in code


@pytest.mark.skipif(not BUILT_STUDENT.is_dir(), reason="no assignments built (make student)")
def test_the_built_student_assignments_leak_nothing():
    assert sorted(p.name[:2] for p in BUILT_STUDENT.glob("*.ipynb")) == [
        p.name[:2] for p in CHAPTERS
    ]
    assert _leaks(BUILT_STUDENT.parent) == []


def test_the_leak_search_finds_a_planted_solution(tmp_path):
    key = GRADED["ex-01-rates-by-hand"]
    nbformat.write(
        nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(key.solution)]),
        tmp_path / "01_exercises.ipynb",
    )
    assert any("tpr = 2 / (2 + 3)" in leak for leak in _leaks(tmp_path))


@pytest.mark.parametrize(
    ("kind", "expected", "right", "wrong"),
    [
        ("number", 0.4, [0.4, 0.4004, np.float64(0.4)], [0.41, True, float("nan"), 0.0]),
        ("integer", 56.0, [56, np.int64(56), 56.0], [55, 56.5, True]),
        ("yes/no", True, [True, np.True_], [False, 1, "True"]),
        ("word", "j", ["j", " J "], ["i", ""]),
    ],
)
def test_the_zips_value_checks_need_no_builtin(monkeypatch, kind, expected, right, wrong):
    """A hidden test's check, with abs, float, round and isinstance rebound as a notebook
    could: right answers pass, wrong and zeroed ones fail all the same."""
    import builtins

    check = assignments._VALUE_CHECKS[kind]

    def passes(x):
        try:
            return bool(eval(check, {"x": x, "expected": expected}))
        except Exception:  # a test that raises fails
            return False

    for patched in ({}, {"abs": lambda x: 0, "float": lambda *a: 0.0, "round": lambda *a: 0}):
        for name, value in patched.items():
            monkeypatch.setattr(builtins, name, value)
        assert all(passes(x) for x in right) and not any(passes(x) for x in wrong)


@pytest.mark.parametrize("variant", [0, 1, 2, 3, 7])
def test_zeroed_answers_earn_nothing_in_any_chapter(variant):
    # no key is its kind's zero (yes/no answers are the words "yes" and "no"), so a notebook
    # that zeroes its answers earns 0 everywhere, patched builtins or not
    chapters = sorted({label[3:5] for label in GRADED})
    assert [assignments._zero_points(n, variant) for n in chapters] == [0.0] * len(chapters)


def test_the_zip_installs_the_books_pinned_versions(tmp_path):
    (tmp_path / "c.txt").write_text("numpy==2.0\nscipy==1.1\nother==3\n")
    assert assignments.zip_requirements(tmp_path / "c.txt") == "numpy==2.0\nscipy==1.1\npandas\n"
