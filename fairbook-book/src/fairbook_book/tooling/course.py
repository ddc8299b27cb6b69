"""The course plan's numbers: reading and run time per chapter, hours per week.

The instructors' page (``book/course_plan.md``) shows a table that no one types: each
chapter's reading time, counted from the words of its text cells, and its run time, as the
last reference build of the ``fast`` profile measured it (``tests/notebooks/reference/
timings-fast.json``, written by ``make html``); and per week of :data:`WEEKS`, the hours a
student spends: :data:`CLASS_HOURS` in class plus reading plus running the chapters plus
:data:`LAB_HOURS` of lab. The staging step writes the table as an HTML fragment that the page
includes (:func:`write_course_fragment`).

Examples
--------
>>> minutes_to_read(400)
2.0
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
    "LAB_HOURS",
    "WEEKS",
    "WORDS_PER_MINUTE",
    "chapter_times",
    "course_times_html",
    "minutes_to_read",
    "week_of",
    "week_hours",
    "write_course_fragment",
]

#: Which chapters each week reads (chapter 08 is the optional forecasting week's reading,
#: counted in week 6). The weeks table of ``book/course_plan.md`` says the same (tested).
WEEKS = {
    1: ("01", "02"),
    2: ("03",),
    3: ("09",),
    4: ("04", "05"),
    5: ("06", "10"),
    6: ("07", "08"),
}
#: Hours in class per week (two 90-minute sessions): the plan's choice.
CLASS_HOURS = 3.0
#: Hours of lab work per week: the plan's choice.
LAB_HOURS = 2.0
#: Reading speed of technical prose with formulas (words per minute): the plan's assumption.
WORDS_PER_MINUTE = 200
#: The fragment ``book/course_plan.md`` includes.
COURSE_FRAGMENT = "_course_times.html"

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’-]*")
_MARKUP = re.compile(r"`{3,}\{[^}]*\}|^:[a-z-]+:[^\n]*$|\$\$.*?\$\$|\{[a-z:-]+\}", re.M | re.S)


def minutes_to_read(words: int) -> float:
    """Minutes to read `words` at :data:`WORDS_PER_MINUTE`.

    Examples
    --------
    >>> minutes_to_read(1000)
    5.0
    """
    if words < 0:
        raise ValueError(f"a word count is not negative, got {words}")
    return words / WORDS_PER_MINUTE


def week_of(chapter: str) -> int:
    """The week of :data:`WEEKS` that reads chapter ``NN``."""
    for week, chapters in WEEKS.items():
        if chapter in chapters:
            return week
    raise ValueError(f"chapter {chapter!r} is in no week of the plan")


def _words(notebook) -> int:
    count = 0
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            count += len(_WORD.findall(_MARKUP.sub(" ", cell.source)))
    return count


def chapter_times(
    notebooks: str | os.PathLike[str], timings: str | os.PathLike[str]
) -> pd.DataFrame:
    """Per chapter: words of text, minutes to read, seconds to run (``fast``), week.

    Parameters
    ----------
    notebooks : path-like
        The folder of the chapters (``notebooks/``).
    timings : path-like
        A build's timings JSON (chapter slug → seconds); a chapter missing there has NaN.

    Returns
    -------
    pandas.DataFrame
        Indexed by chapter slug; columns ``title``, ``words``, ``read_min``, ``run_s``,
        ``week``.
    """
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
                for cell in notebook.cells
                if cell.cell_type == "markdown"
                for line in cell.source.splitlines()
                if line.startswith("# ")
            ),
            path.stem,
        )
        words = _words(notebook)
        rows[path.stem] = {
            "title": title,
            "words": words,
            "read_min": minutes_to_read(words),
            "run_s": float(measured.get(path.stem, math.nan)),
            "week": week_of(path.stem[:2]),
        }
    return pd.DataFrame.from_dict(rows, orient="index")


def week_hours(times: pd.DataFrame) -> pd.DataFrame:
    """Per week: reading hours, run hours, and the total with class and lab time."""
    weeks = times.groupby("week").agg(read_min=("read_min", "sum"), run_s=("run_s", "sum"))
    weeks["read_h"] = weeks["read_min"] / 60
    weeks["run_h"] = weeks["run_s"] / 3600
    weeks["total_h"] = CLASS_HOURS + LAB_HOURS + weeks["read_h"] + weeks["run_h"]
    return weeks[["read_h", "run_h", "total_h"]]


def course_times_html(times: pd.DataFrame, *, source: str) -> str:
    """The two tables of the course plan (per chapter, per week) as HTML."""
    chapter_rows = "".join(
        f"<tr><td>{html.escape(slug[:2])}</td><td>{html.escape(row.title)}</td>"
        f"<td>{row.week}</td><td>{int(row.words):,}</td><td>{round(row.read_min):d}</td>"
        f"<td>{'–' if math.isnan(row.run_s) else f'{row.run_s:.0f}'}</td></tr>"
        for slug, row in times.iterrows()
    )
    weeks = week_hours(times)
    week_rows = "".join(
        f"<tr><td>{week}</td><td>{', '.join(WEEKS[week])}</td><td>{CLASS_HOURS:g}</td>"
        f"<td>{row.read_h:.1f}</td><td>{row.run_h:.2f}</td><td>{LAB_HOURS:g}</td>"
        f"<td>{row.total_h:.1f}</td></tr>"
        for week, row in weeks.iterrows()
    )
    return (
        '<table class="dataframe"><thead><tr><th>chapter</th><th>title</th><th>week</th>'
        "<th>words</th><th>reading (min)</th><th>run, fast profile (s)</th></tr></thead>"
        f"<tbody>{chapter_rows}</tbody></table>"
        f"<p><em>Reading at {WORDS_PER_MINUTE} words per minute (the text cells, exercises "
        f"included); run times {html.escape(source)}.</em></p>"
        '<table class="dataframe"><thead><tr><th>week</th><th>chapters</th>'
        "<th>class (h)</th><th>reading (h)</th><th>running (h)</th><th>lab (h)</th>"
        f"<th>total (h)</th></tr></thead><tbody>{week_rows}</tbody></table>"
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
