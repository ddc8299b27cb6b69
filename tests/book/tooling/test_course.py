"""Tests of fairbook_book.tooling.course: the course plan's time table, and that the plan's weeks
table agrees with WEEKS."""

import json
import math
import re
from pathlib import Path

import nbformat
import pytest

from fairbook_book.tooling import course
from fairbook_book.tooling.course import (
    CLASS_HOURS,
    LAB_HOURS,
    WEEKS,
    chapter_times,
    course_times_html,
    minutes_to_read,
    week_hours,
    week_of,
    write_course_fragment,
)

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def chapters(tmp_path, monkeypatch):
    monkeypatch.setattr(course, "WEEKS", {1: ("01",), 2: ("02",)})
    for name, text in (("01_one", "# One\n\nfour words here now"), ("02_two", "# Two & more")):
        nb = nbformat.v4.new_notebook()
        nb.cells = [
            nbformat.v4.new_markdown_cell(text),
            nbformat.v4.new_code_cell("not counted at all"),
            nbformat.v4.new_markdown_cell("```{exercise} Ten\n:label: ex-x\n\n$$x = 1$$ two\n```"),
        ]
        nbformat.write(nb, tmp_path / f"{name}.ipynb")
    timings = tmp_path / "timings.json"
    timings.write_text(json.dumps({"01_one": 12.5}))
    return tmp_path, timings


def test_words_minutes_and_run_times_per_chapter(chapters):
    folder, timings = chapters
    times = chapter_times(folder, timings)
    # "One four words here now" + "Ten two" (directive, option and display math left out)
    assert times.loc["01_one", "words"] == 7 and times.loc["01_one", "title"] == "One"
    assert times.loc["02_two", "words"] == 4  # "Two", "more", "Ten", "two": & is not a word
    assert times.loc["01_one", "read_min"] == pytest.approx(7 / 200)
    assert times.loc["01_one", "run_s"] == 12.5 and math.isnan(times.loc["02_two", "run_s"])
    assert times["week"].tolist() == [1, 2]


def test_week_hours_add_class_lab_reading_and_running(chapters):
    folder, timings = chapters
    weeks = week_hours(chapter_times(folder, timings))
    assert weeks.loc[1, "total_h"] == pytest.approx(
        CLASS_HOURS + LAB_HOURS + (7 / 200) / 60 + 12.5 / 3600
    )
    html = course_times_html(chapter_times(folder, timings), source="measured here")
    assert "<td>01</td><td>One</td><td>1</td><td>7</td><td>0</td><td>12</td>" in html
    assert "<td>–</td>" in html and "measured here" in html
    target = write_course_fragment(folder, timings, folder)
    assert target.name == "_course_times.html" and "200 words per minute" in target.read_text()


def test_bad_values_are_refused():
    with pytest.raises(ValueError, match="not negative"):
        minutes_to_read(-1)
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
