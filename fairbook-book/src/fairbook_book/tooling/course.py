"""The course plan's numbers: a student's hours per chapter and per week, and its labs.

The instructors' page (``book/course_plan.md``) shows a table that no one types. Per chapter:
its difficulty (the ``**Difficulty:**`` line under its title), its reading time (the words of
the text a student reads, i.e. of its :func:`~fairbook_book.tooling.editions.student_edition`,
at the reading speed of its difficulty, :data:`WORDS_PER_MINUTE`), the time of its exercises
(how many, times :data:`EXERCISE_MINUTES` of its difficulty) and its run time, as the last
reference build of the ``fast`` profile measured it (``tests/notebooks/reference/
timings-fast.json``, written by ``make html``). Per week of :data:`WEEKS`: :data:`CLASS_HOURS`
in class, reading, exercises, running the chapters, :data:`LAB_HOURS` of lab and
:data:`HOMEWORK_HOURS` of homework (writing up the week's lab). Every number of the table is
computed from these constants and the chapters; the staging step writes it as an HTML fragment
that the page includes (:func:`write_course_fragment`).

Every week's lab has commands a student runs, printed in a ``bash`` block under a heading
``## Week-N lab`` of the page; :func:`lab_commands` reads them back, and the tests run them as
printed.

Examples
--------
>>> minutes_to_read(400, "introductory")
2.0
>>> minutes_to_read(400, "advanced")
4.0
>>> week_of("10")
5
"""

from __future__ import annotations

import html
import json
import math
import os
import re
from pathlib import Path

import nbformat
import pandas as pd

__all__ = [
    "CLASS_HOURS",
    "COURSE_FRAGMENT",
    "EXERCISE_MINUTES",
    "HOMEWORK_HOURS",
    "LAB_HOURS",
    "WEEKS",
    "WORDS_PER_MINUTE",
    "chapter_times",
    "course_times_html",
    "difficulty_of",
    "lab_commands",
    "minutes_to_read",
    "week_of",
    "week_hours",
    "write_course_fragment",
]

#: Which chapters each week reads (chapter 08 is the optional forecasting week's reading,
#: counted in week 6; chapter 03, read over weeks 2 and 3, is counted in week 2). The weeks
#: table of ``book/course_plan.md`` says the same (tested).
WEEKS = {
    1: ("01", "02"),
    2: ("03",),
    3: ("09", "11"),
    4: ("04", "05"),
    5: ("06", "10"),
    6: ("07", "08"),
}
#: Hours in class per week (two 90-minute sessions): the plan's choice.
CLASS_HOURS = 3.0
#: Hours of lab work per week (running the week's lab commands and answering its
#: questions): the plan's choice.
LAB_HOURS = 2.0
#: Hours of homework per week: writing up the week's lab (about one page): the plan's
#: assumption.
HOMEWORK_HOURS = 1.0
#: Reading speed (words per minute) of a chapter's text, by its difficulty: the plan's
#: assumption (technical prose with formulas; an advanced chapter's proofs and derivations
#: are read at half the speed of an introductory chapter).
WORDS_PER_MINUTE = {"introductory": 200, "intermediate": 150, "advanced": 100}
#: Minutes a student spends on one exercise of a chapter, by its difficulty (trying it, then
#: reading its solution): the plan's assumption.
EXERCISE_MINUTES = {"introductory": 15, "intermediate": 20, "advanced": 30}
#: The fragment ``book/course_plan.md`` includes.
COURSE_FRAGMENT = "_course_times.html"

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’-]*")
_MARKUP = re.compile(r"`{3,}\{[^}]*\}|^:[a-z-]+:[^\n]*$|\$\$.*?\$\$|\{[a-z:-]+\}", re.M | re.S)
_DIFFICULTY = re.compile(r"^\*\*Difficulty:\*\*\s*(\w+)", re.M)
_EXERCISE = re.compile(r"^(?:`{3,}|:{3,})\{exercise\}", re.M)
_LAB = re.compile(r"^## Week-(\d+) lab\b", re.M)
_BASH = re.compile(r"^```bash\n(.*?)^```", re.M | re.S)


def minutes_to_read(words: int, difficulty: str) -> float:
    """Minutes to read `words` of a chapter of `difficulty` (:data:`WORDS_PER_MINUTE`).

    Examples
    --------
    >>> minutes_to_read(1500, "intermediate")
    10.0
    """
    if words < 0:
        raise ValueError(f"a word count is not negative, got {words}")
    if difficulty not in WORDS_PER_MINUTE:
        raise ValueError(
            f"unknown difficulty {difficulty!r}: choose one of {', '.join(WORDS_PER_MINUTE)}"
        )
    return words / WORDS_PER_MINUTE[difficulty]


def week_of(chapter: str) -> int:
    """The week of :data:`WEEKS` that reads chapter ``NN``."""
    for week, chapters in WEEKS.items():
        if chapter in chapters:
            return week
    raise ValueError(f"chapter {chapter!r} is in no week of the plan")


def _markdown(notebook) -> list[str]:
    return [cell.source for cell in notebook.cells if cell.cell_type == "markdown"]


def _words(notebook) -> int:
    return sum(len(_WORD.findall(_MARKUP.sub(" ", text))) for text in _markdown(notebook))


def difficulty_of(notebook, *, name: str = "notebook") -> str:
    """The chapter's difficulty, from the ``**Difficulty:** LEVEL`` line under its title.

    Examples
    --------
    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
    ...     "# T\\n\\n**Difficulty:** advanced")])
    >>> difficulty_of(nb)
    'advanced'
    """
    for text in _markdown(notebook):
        found = _DIFFICULTY.search(text)
        if found:
            if found.group(1) not in WORDS_PER_MINUTE:
                raise ValueError(
                    f"{name}: difficulty {found.group(1)!r} is none of "
                    f"{', '.join(WORDS_PER_MINUTE)}"
                )
            return found.group(1)
    raise ValueError(f"{name} states no difficulty (a '**Difficulty:** LEVEL' line)")


def chapter_times(
    notebooks: str | os.PathLike[str], timings: str | os.PathLike[str]
) -> pd.DataFrame:
    """Per chapter: difficulty, words a student reads, minutes to read, exercises and their
    minutes, seconds to run (``fast``), week.

    Parameters
    ----------
    notebooks : path-like
        The folder of the chapters (``notebooks/``).
    timings : path-like
        A build's timings JSON (chapter slug → seconds); a chapter missing there has NaN.

    Returns
    -------
    pandas.DataFrame
        Indexed by chapter slug; columns ``title``, ``difficulty``, ``words``, ``read_min``,
        ``exercises``, ``exercise_min``, ``run_s``, ``week``.
    """
    from fairbook_book.tooling.editions import student_edition

    try:
        measured = json.loads(Path(timings).read_text(encoding="utf-8"))
    except FileNotFoundError:
        measured = {}
    rows = {}
    for path in sorted(Path(notebooks).glob("[0-9][0-9]_*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        title = next(
            (
                line.lstrip("#").strip()
                for text in _markdown(notebook)
                for line in text.splitlines()
                if line.startswith("# ")
            ),
            path.stem,
        )
        difficulty = difficulty_of(notebook, name=path.stem)
        words = _words(student_edition(notebook, name=path.stem))  # no solution is read
        exercises = sum(len(_EXERCISE.findall(text)) for text in _markdown(notebook))
        rows[path.stem] = {
            "title": title,
            "difficulty": difficulty,
            "words": words,
            "read_min": minutes_to_read(words, difficulty),
            "exercises": exercises,
            "exercise_min": exercises * EXERCISE_MINUTES[difficulty],
            "run_s": float(measured.get(path.stem, math.nan)),
            "week": week_of(path.stem[:2]),
        }
    return pd.DataFrame.from_dict(rows, orient="index")


def week_hours(times: pd.DataFrame) -> pd.DataFrame:
    """Per week: hours of reading, exercises and running, and the total with class, lab and
    homework."""
    weeks = times.groupby("week").agg(
        read_min=("read_min", "sum"),
        exercise_min=("exercise_min", "sum"),
        run_s=("run_s", "sum"),
    )
    weeks["read_h"] = weeks["read_min"] / 60
    weeks["exercise_h"] = weeks["exercise_min"] / 60
    weeks["run_h"] = weeks["run_s"] / 3600
    weeks["total_h"] = (
        CLASS_HOURS
        + LAB_HOURS
        + HOMEWORK_HOURS
        + weeks["read_h"]
        + weeks["exercise_h"]
        + weeks["run_h"]
    )
    return weeks[["read_h", "exercise_h", "run_h", "total_h"]]


def _assumptions() -> str:
    speeds = ", ".join(f"{level} {wpm}" for level, wpm in WORDS_PER_MINUTE.items())
    minutes = ", ".join(f"{level} {m}" for level, m in EXERCISE_MINUTES.items())
    return (
        f"Reading at {speeds} words per minute by the chapter's difficulty (the text a "
        f"student reads: the exercises without their solutions); each exercise {minutes} "
        "minutes"
    )


def course_times_html(times: pd.DataFrame, *, source: str) -> str:
    """The two tables of the course plan (per chapter, per week) as HTML."""
    chapter_rows = "".join(
        f"<tr><td>{html.escape(slug[:2])}</td><td>{html.escape(row.title)}</td>"
        f"<td>{html.escape(row.difficulty)}</td><td>{row.week}</td><td>{int(row.words):,}</td>"
        f"<td>{round(row.read_min):d}</td><td>{int(row.exercises)}</td>"
        f"<td>{round(row.exercise_min):d}</td>"
        f"<td>{'–' if math.isnan(row.run_s) else f'{row.run_s:.0f}'}</td></tr>"
        for slug, row in times.iterrows()
    )
    weeks = week_hours(times)
    week_rows = "".join(
        f"<tr><td>{week}</td><td>{', '.join(WEEKS[week])}</td><td>{CLASS_HOURS:g}</td>"
        f"<td>{row.read_h:.1f}</td><td>{row.exercise_h:.1f}</td><td>{row.run_h:.2f}</td>"
        f"<td>{LAB_HOURS:g}</td><td>{HOMEWORK_HOURS:g}</td><td>{row.total_h:.1f}</td></tr>"
        for week, row in weeks.iterrows()
    )
    return (
        '<div style="overflow-x:auto"><table class="dataframe"><thead><tr><th>chapter</th>'
        "<th>title</th><th>difficulty</th><th>week</th><th>words</th><th>reading (min)</th>"
        "<th>exercises</th><th>exercises (min)</th><th>run, fast profile (s)</th></tr></thead>"
        f"<tbody>{chapter_rows}</tbody></table></div>"
        f"<p><em>{html.escape(_assumptions())}; run times {html.escape(source)}.</em></p>"
        '<div style="overflow-x:auto"><table class="dataframe"><thead><tr><th>week</th>'
        "<th>chapters</th><th>class (h)</th><th>reading (h)</th><th>exercises (h)</th>"
        "<th>running (h)</th><th>lab (h)</th><th>homework (h)</th><th>total (h)</th></tr>"
        f"</thead><tbody>{week_rows}</tbody></table></div>"
    )


def write_course_fragment(
    notebooks: str | os.PathLike[str],
    timings: str | os.PathLike[str],
    folder: str | os.PathLike[str],
) -> Path:
    """Write :data:`COURSE_FRAGMENT` into `folder` (the staged ``book/``)."""
    times = chapter_times(notebooks, timings)
    source = (
        f"as the last reference build measured them ({Path(timings).name}: chapters run "
        "side by side on every core, so a chapter alone runs faster)"
    )
    target = Path(folder) / COURSE_FRAGMENT
    target.write_text(course_times_html(times, source=source), encoding="utf-8")
    return target


def lab_commands(plan: str) -> dict[int, str]:
    """Each week's lab commands as printed in the course plan's text `plan`: week → the
    ``bash`` blocks of its section ``## Week-N lab …``, joined (a week printed twice is an
    error).

    Examples
    --------
    >>> plan = "## Week-2 lab: x\\n\\n```bash\\nfairbook --help\\n```\\n\\n## Other\\n"
    >>> lab_commands(plan)
    {2: 'fairbook --help\\n'}
    """
    found: dict[int, str] = {}
    heads = list(_LAB.finditer(plan))
    for head in heads:
        end = plan.find("\n## ", head.end())
        section = plan[head.end() : end if end >= 0 else len(plan)]
        week = int(head.group(1))
        if week in found:
            raise ValueError(f"the course plan has two sections for the week-{week} lab")
        found[week] = "".join(_BASH.findall(section))
    return found
