"""Tests of fairbook_book.tooling.course: the course plan's time table, that the plan's weeks
table agrees with WEEKS, and that every week's lab has commands that run as printed."""

import json
import math
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from fairbook_book.tooling import course
from fairbook_book.tooling.course import (
    CLASS_HOURS,
    EXERCISE_MINUTES,
    HOMEWORK_HOURS,
    LAB_HOURS,
    WEEKS,
    WORDS_PER_MINUTE,
    chapter_times,
    course_times_html,
    difficulty_of,
    lab_commands,
    minutes_to_read,
    week_hours,
    week_of,
    write_course_fragment,
)

ROOT = Path(__file__).resolve().parents[3]
PLAN = ROOT / "book" / "course_plan.md"


@pytest.fixture
def chapters(tmp_path, monkeypatch):
    monkeypatch.setattr(course, "WEEKS", {1: ("01",), 2: ("02",)})
    for name, text in (
        ("01_one", "# One\n\nfour words here now\n\n**Difficulty:** introductory"),
        ("02_two", "# Two & more\n\n**Difficulty:** advanced"),
    ):
        nb = nbformat.v4.new_notebook()
        nb.cells = [
            nbformat.v4.new_markdown_cell(text),
            nbformat.v4.new_code_cell("not counted at all"),
            nbformat.v4.new_markdown_cell(
                "```{exercise} Ten\n:label: ex-x\n\n$$x = 1$$ two\n```\n\n"
                "````{solution} ex-x\n:class: dropdown\n\nsolutions are not read\n````"
            ),
        ]
        nbformat.write(nb, tmp_path / f"{name}.ipynb")
    timings = tmp_path / "timings.json"
    timings.write_text(json.dumps({"01_one": 12.5}))
    return tmp_path, timings


def test_words_minutes_and_run_times_per_chapter(chapters):
    folder, timings = chapters
    times = chapter_times(folder, timings)
    # "One four words here now Difficulty introductory" + "Ten two" + the student edition's
    # "Your answer" (directive, option, display math and the solution left out)
    assert times.loc["01_one", "words"] == 11 and times.loc["01_one", "title"] == "One"
    assert times.loc["02_two", "words"] == 8  # "Two", "more", ...: & is not a word
    assert times.loc["01_one", "read_min"] == pytest.approx(11 / 200)
    assert times.loc["02_two", "read_min"] == pytest.approx(8 / 100)  # advanced: slower
    assert times["difficulty"].tolist() == ["introductory", "advanced"]
    assert times["exercises"].tolist() == [1, 1]
    assert times["exercise_min"].tolist() == [15, 30]
    assert times.loc["01_one", "run_s"] == 12.5 and math.isnan(times.loc["02_two", "run_s"])
    assert times["week"].tolist() == [1, 2]


def test_week_hours_add_class_lab_homework_reading_exercises_and_running(chapters):
    folder, timings = chapters
    weeks = week_hours(chapter_times(folder, timings))
    assert weeks.loc[1, "total_h"] == pytest.approx(
        CLASS_HOURS + LAB_HOURS + HOMEWORK_HOURS + (11 / 200) / 60 + 15 / 60 + 12.5 / 3600
    )
    assert weeks.loc[2, "exercise_h"] == pytest.approx(0.5)
    html = course_times_html(chapter_times(folder, timings), source="measured here")
    row = "<td>01</td><td>One</td><td>introductory</td><td>1</td><td>11</td><td>0</td>"
    assert row + "<td>1</td><td>15</td><td>12</td>" in html
    assert "<td>–</td>" in html and "measured here" in html
    target = write_course_fragment(folder, timings, folder)
    text = target.read_text()
    assert target.name == "_course_times.html"
    assert "introductory 200, intermediate 150, advanced 100 words per minute" in text
    assert "each exercise introductory 15, intermediate 20, advanced 30 minutes" in text


def test_the_assumptions_are_ordered_by_difficulty():
    assert list(WORDS_PER_MINUTE) == list(EXERCISE_MINUTES)
    assert sorted(WORDS_PER_MINUTE.values(), reverse=True) == list(WORDS_PER_MINUTE.values())
    assert sorted(EXERCISE_MINUTES.values()) == list(EXERCISE_MINUTES.values())


def test_every_chapter_has_a_difficulty_the_plan_knows():
    plan = PLAN.read_text(encoding="utf-8")
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        level = difficulty_of(nbformat.read(path, as_version=4), name=path.stem)
        assert re.search(rf"notebooks/{path.stem}` \| {level} \|", plan), path.stem
    with pytest.raises(ValueError, match="states no difficulty"):
        difficulty_of(nbformat.v4.new_notebook(), name="01_x")
    bad = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("**Difficulty:** easy")])
    with pytest.raises(ValueError, match="01_x: difficulty 'easy'"):
        difficulty_of(bad, name="01_x")


def test_bad_values_are_refused():
    with pytest.raises(ValueError, match="not negative"):
        minutes_to_read(-1, "advanced")
    with pytest.raises(ValueError, match="unknown difficulty 'hard'"):
        minutes_to_read(10, "hard")
    with pytest.raises(ValueError, match="in no week"):
        week_of("99")


def test_every_chapter_has_a_week_and_the_plan_says_the_same():
    chapters = sorted(p.stem[:2] for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert sorted(c for week in WEEKS.values() for c in week) == chapters
    plan = (ROOT / "book" / "course_plan.md").read_text(encoding="utf-8")
    table = plan.split("## The weeks", 1)[1].split("\n## ", 1)[0]
    for week, listed in WEEKS.items():
        row = next(line for line in table.splitlines() if line.startswith(f"| {week} |"))
        read = row.split("|")[2]
        named = set(re.findall(r"\b(\d\d)\b", read))
        for first, last in re.findall(r"(\d\d)–(\d\d)", read):
            named |= {f"{n:02d}" for n in range(int(first), int(last) + 1)}
        assert set(listed) <= named, (week, listed, read)
    assert "_course_times.html" in plan and "make lab" in plan
    assert not re.search(r"launch button|binder|colab", plan, re.I)


def test_the_plan_names_the_student_site():
    from fairbook_book.tooling.student_site import SITE

    plan = PLAN.read_text(encoding="utf-8")
    assert f"`{SITE.as_posix()}`" in plan and "make student-site" in plan
    assert "open with a click" not in plan  # the student site has nothing to open


# ---------------------------------------------------------------------------------------------
# the labs: every week has commands, and they run as printed

LABS = lab_commands(PLAN.read_text(encoding="utf-8"))
_PROGRAMS = ("fairbook", "fairbook-book", "python")


def _commands(block: str) -> list[list[str]]:
    """The block's commands as argv lists (a quoted argument may span lines)."""
    return [argv for argv in (shlex.split(line) for line in _logical_lines(block)) if argv]


def _logical_lines(block: str) -> list[str]:
    lines, current = [], ""
    for line in block.splitlines(keepends=True):
        current += line
        try:
            shlex.split(current)
        except ValueError:  # an open quote: the command goes on
            continue
        lines.append(current)
        current = ""
    assert not current, f"an unclosed quote in {block!r}"
    return lines


def test_every_week_has_a_lab_with_commands():
    assert sorted(LABS) == sorted(WEEKS)
    for week, block in LABS.items():
        commands = _commands(block)
        assert commands, f"the week-{week} lab prints no command"
        assert all(argv[0] in _PROGRAMS for argv in commands), (week, commands)
    with pytest.raises(ValueError, match="two sections for the week-2 lab"):
        lab_commands("## Week-2 lab: a\n\n## Week-2 lab: b\n")


def test_the_labs_chapter_runs_set_real_parameters_of_their_chapters():
    """A lab's ``fairbook-book run NN -p NAME VALUE`` names a parameter of chapter NN's
    parameters cell, with a value it allows (checked before anything runs)."""
    from fairbook_book.tooling.chapters import coerce_parameters, discover, resolve

    chapters = discover(ROOT)
    runs = [argv for block in LABS.values() for argv in _commands(block)]
    runs = [argv for argv in runs if argv[:2] == ["fairbook-book", "run"]]
    assert {argv[2] for argv in runs} >= {"03", "04", "06", "10"}
    for argv in runs:
        chapter = resolve(argv[2], chapters)
        options = argv[3:]
        assert options[::3] == ["-p"] * (len(options) // 3) and len(options) % 3 == 0, argv
        raw = dict(zip(options[1::3], options[2::3], strict=True))
        known = chapter.parameters()
        assert set(raw) <= set(known), (argv, sorted(known))
        coerce_parameters(chapter, raw)  # raises on a value out of the allowed range


def _data_ready(*names: str) -> bool:
    from fairbook.data import verify

    return all(ok is True for ok in verify(list(names)).values())


def _run_block(block: str, folder: Path) -> str:
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", block],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, (block, done.stdout[-1000:], done.stderr[-2000:])
    return done.stdout


def test_the_week_6_lab_runs_as_printed_on_a_students_predictions(tmp_path):
    rows = ["label,pred,sex"] + [
        f"{(i * 7) % 3 == 0:d},{(i * 5) % 4 == 0:d},{'F' if i % 3 else 'M'}" for i in range(300)
    ]
    (tmp_path / "predictions.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = _run_block(LABS[6], tmp_path)
    assert "sex" in out and "300 rows" in out


@pytest.mark.skipif(not _data_ready("compas"), reason="COMPAS is not verified in the cache")
def test_the_week_2_lab_runs_as_printed_after_week_1(tmp_path):
    _run_block(LABS[1], tmp_path)
    out = _run_block(LABS[2], tmp_path)
    assert "MATCH p-value of the FPR of Native American defendants: 0.170" in out
    assert (tmp_path / "race_fpr.csv").is_file()


@pytest.mark.heavy
@pytest.mark.parametrize("week", [3, 4, 5])
def test_the_chapter_labs_run_as_printed(week, tmp_path):
    """Weeks 3-5 run chapters (a minute or two each) into the book's ``_build/runs/``."""
    chapters = [argv[2] for argv in _commands(LABS[week]) if argv[:2] == ["fairbook-book", "run"]]
    executed = ROOT / "_build" / "executed" / "notebooks"
    built = {p.stem[:2] for p in executed.glob("[0-9][0-9]_*.ipynb")}
    if not set(chapters) <= built:
        pytest.skip("the book has not been built here (make html): its data may be missing")
    out = _run_block(LABS[week], tmp_path)
    assert out.count("Key results of") == len(chapters), out[-2000:]
