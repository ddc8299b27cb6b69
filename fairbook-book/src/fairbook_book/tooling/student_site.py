"""The student site: the book's HTML built from the student editions, without solutions.

``make html`` builds the book for everyone who may see the solutions (each folded under its
exercise). A course that hands out the book needs a second site without them:
:func:`build_student_site` makes it from the same executed chapters, in four steps:

1. every executed chapter (``_build/executed/notebooks``) is written as its
   :func:`~fairbook_book.tooling.editions.student_edition` into
   ``_build/executed-student/notebooks`` (solution text, code and outputs gone, a
   "Your answer" cell in each solution's place), and the exercises' opening sentence, which
   tells a reader to open a folded solution, says instead that this edition has none
   (:func:`student_notebook`);
2. the book is staged from those copies into ``_build/stage-student``
   (:func:`~fairbook_book.tooling.chapters.stage_book`), with "student edition" in the title,
   a banner on every page and a note on the front page (:func:`brand_stage`);
3. ``jupyter-book build`` renders it, strict as the book (``-W -n --keep-going``), into
   ``_build/html-student`` (``index.html`` at its top), and each page's download button
   serves the student edition (:func:`~fairbook_book.tooling.editions.serve_student_downloads`);
4. :func:`site_leaks` reads the built pages back and fails the build on any solution
   dropdown, any distinctive line of a solution's text, code or output found in a chapter's
   page, and any download that still holds a solution.

Nothing is executed: the chapters run once, for ``make html``. Run it as
``python -m fairbook_book.tooling.student_site`` (after ``make html``).

Examples
--------
>>> import nbformat
>>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
...     "## Exercises\\n\\nSolutions are folded away: open one with a click after you have "
...     "tried the exercise. A solution that states a computed result computes it in the "
...     "code cell inside it, with `fairbook`, when the book is built.")])
>>> print(student_notebook(nb).cells[0].source)
## Exercises
<BLANKLINE>
This is the student edition: it has no solutions. Your instructor has them.
"""

from __future__ import annotations

import argparse
import html
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import nbformat
import yaml

from fairbook_book.tooling.chapters import (
    CHAPTER_GLOB,
    BookPaths,
    BuildError,
    ChapterError,
    _jupyter_book,
    find_root,
    stage_book,
)
from fairbook_book.tooling.editions import (
    EditionError,
    find_solutions,
    serve_student_downloads,
    student_edition,
)

__all__ = [
    "BANNER",
    "FOLDED_SENTENCE",
    "NO_SOLUTIONS",
    "SITE",
    "StudentSite",
    "brand_stage",
    "build_student_site",
    "main",
    "site_leaks",
    "student_notebook",
    "write_student_chapters",
]

#: Where the student site goes, below the book root (``index.html`` at its top).
SITE = Path("_build") / "html-student"
#: The student editions of the executed chapters the site is staged from.
EXECUTED = Path("_build") / "executed-student" / "notebooks"
#: The Sphinx source folder of the student site.
STAGE = Path("_build") / "stage-student"
#: jupyter-book's ``--path-output`` (it writes ``<path>/_build/html``); removed afterwards.
WORK = Path("_build") / "student-site-work"

#: The banner on every page of the student site.
BANNER = "Student edition: the exercises without their solutions."
#: What the exercises' opening sentence says in the student edition.
NO_SOLUTIONS = "This is the student edition: it has no solutions. Your instructor has them."
#: The chapters' opening sentence of their exercises, which points at folded solutions (a
#: student edition replaces it with :data:`NO_SOLUTIONS`; the student PDF could too).
FOLDED_SENTENCE = re.compile(
    r"Solutions are folded away: open one with a click.*?when the book is built\.", re.S
)
_FRONT_NOTE = (
    "```{admonition} Student edition\n:class: important\n\n"
    "This is the **student edition** of the book: every chapter has its exercises, each "
    'followed by a "Your answer" placeholder, and no solutions; the download button of a '
    "chapter gives its student notebook. The instructors' edition, with the solutions, is "
    "built by `make html`.\n```\n"
)


@dataclass(frozen=True)
class StudentSite:
    """What :func:`build_student_site` made: the site, its chapters, how long each step took."""

    site: Path
    chapters: int
    solutions: int
    seconds: dict[str, float]

    def line(self) -> str:
        steps = ", ".join(f"{name} {sec:.1f} s" for name, sec in self.seconds.items())
        return (
            f"[student-site] {self.chapters} chapters, {self.solutions} solutions left out; "
            f"{steps}; {self.site / 'index.html'}"
        )


def student_notebook(notebook, *, name: str = "notebook") -> nbformat.NotebookNode:
    """:func:`~fairbook_book.tooling.editions.student_edition` of `notebook`, with the
    exercises' opening sentence ("Solutions are folded away: open one with a click …")
    replaced by :data:`NO_SOLUTIONS`."""
    student = student_edition(notebook, name=name)
    for cell in student.cells:
        if cell.cell_type == "markdown" and FOLDED_SENTENCE.search(cell.source):
            cell.source = FOLDED_SENTENCE.sub(NO_SOLUTIONS, cell.source)
    return student


def write_student_chapters(executed: Path, out: Path) -> int:
    """Write :func:`student_notebook` of every executed chapter of `executed` into `out`
    (emptied first); returns the number of solutions left out.

    Raises
    ------
    BuildError
        No executed chapter in `executed`.
    EditionError
        A chapter's solutions cannot be cut out safely.
    """
    chapters = sorted(Path(executed).glob(CHAPTER_GLOB))
    if not chapters:
        raise BuildError(
            f"no executed chapters in {executed}: run `make html` (or `fairbook-book build`) first"
        )
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    removed = 0
    for path in chapters:
        notebook = nbformat.read(path, as_version=4)
        removed += len(find_solutions(notebook, name=path.stem))
        nbformat.write(student_notebook(notebook, name=path.stem), out / path.name)
    return removed


def brand_stage(stage: Path) -> None:
    """Mark the staged book as the student edition: the title, a banner on every page
    (``html.announcement``), and a note under the front page's title."""
    config_path = stage / "_config.yml"
    config = yaml.safe_load(config_path.read_text("utf-8"))
    config["title"] = f"{config.get('title', 'fairbook')} (student edition)"
    config.setdefault("html", {})["announcement"] = BANNER
    config_path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    toc = yaml.safe_load((stage / "_toc.yml").read_text("utf-8"))
    front = stage / f"{toc['root']}.md"
    text = front.read_text("utf-8")
    title, _, rest = text.partition("\n")
    front.write_text(f"{title}\n\n{_FRONT_NOTE}{rest}", encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# reading the built site back

_TAG = re.compile(r"<[^>]+>")
_SCRIPT = re.compile(r"<(script|style)\b.*?</\1>", re.S | re.I)
_MARKUP_CHARS = re.compile(r"[*_`]")
#: markdown that renders as something else (math, roles, links, tables, HTML, directives)
_RENDERED = re.compile(r"[$\\{}\[\]|<>]|^:|^#|^```")
_MIN_TEXT, _MIN_CODE = 24, 16


def _norm(text: str) -> str:
    return " ".join(_MARKUP_CHARS.sub("", text).split())


def _page_text(page: str) -> str:
    """The text of an HTML page, twice: tags as spaces (prose: block elements stay apart) and
    tags removed (highlighted code: its tokens join up again)."""
    page = _SCRIPT.sub(" ", page)
    return "\n".join(_norm(html.unescape(_TAG.sub(gap, page))) for gap in (" ", ""))


def _output_lines(outputs) -> list[str]:
    lines = []
    for output in outputs:
        text = output.get("text", "") or output.get("data", {}).get("text/plain", "")
        text = text if isinstance(text, str) else "".join(text)
        lines += text.splitlines()
    return lines


def _snippets(notebook) -> set[str]:
    """Distinctive pieces of every solution of `notebook`: its sentences of plain text,
    lines of code and lines of text output, long enough to be unlikely by chance."""
    found: set[str] = set()
    for solution in find_solutions(notebook):
        for text in solution.markdown:
            for line in text.splitlines():
                if _RENDERED.search(line.strip()):
                    continue
                for sentence in re.split(r"(?<=[.!?;:])\s+", line):
                    if len(_norm(sentence)) >= _MIN_TEXT:
                        found.add(_norm(sentence))
        for line in [*"\n".join(solution.code).splitlines(), *_output_lines(solution.outputs)]:
            if len(_norm(line)) >= _MIN_CODE and not line.lstrip().startswith("#"):
                found.add(_norm(line))
    return found


def site_leaks(site: str | os.PathLike[str], executed: str | os.PathLike[str]) -> list[str]:
    """What of the solutions a built site shows, one line each (empty: nothing).

    For each executed chapter (the instructors' copy, with its solutions), the page
    ``notebooks/NN_*.html`` and its download ``_sources/notebooks/NN_*.ipynb`` of `site` are
    searched, as text, for every distinctive sentence, code line and output line of the
    chapter's solutions that its student edition does not have elsewhere. Every page of the
    site is also searched for a sphinx-exercise solution (``class="solution``) and a
    ``{solution-start}`` fence.
    """
    site, problems = Path(site), []
    for page in sorted(site.rglob("*.html")):
        text = page.read_text("utf-8", errors="replace")
        if 'class="solution' in text or "{solution-start}" in text:
            problems.append(f"{page.relative_to(site)}: a solution dropdown")
    for path in sorted(Path(executed).glob(CHAPTER_GLOB)):
        notebook = nbformat.read(path, as_version=4)
        allowed = _page_text(_strings(student_edition(notebook, name=path.stem)))
        snippets = {s for s in _snippets(notebook) if s not in allowed}
        for shown in (
            site / "notebooks" / f"{path.stem}.html",
            site / "_sources" / "notebooks" / path.name,
        ):
            if not shown.is_file():
                problems.append(f"{shown.relative_to(site)}: missing")
                continue
            text = shown.read_text("utf-8", errors="replace")
            if shown.suffix == ".ipynb":
                text = _strings(nbformat.reads(text, as_version=4))
            haystack = _page_text(text)
            leaked = sorted(s for s in snippets if s in haystack)
            if leaked:
                problems.append(
                    f"{shown.relative_to(site)}: {len(leaked)} solution lines, e.g. "
                    f"{leaked[0][:80]!r}"
                )
    return problems


def _strings(value) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(_strings(v) for v in value.values())
    if isinstance(value, list):
        return "\n".join(_strings(v) for v in value)
    return ""


# ---------------------------------------------------------------------------------------------
# the build


def build_student_site(
    root: str | os.PathLike[str] | None = None,
    *,
    out: str | os.PathLike[str] | None = None,
    strict: bool = True,
    echo=print,
) -> Path:
    """Build the student site from the executed chapters into ``_build/html-student`` (or
    `out`); returns its folder (``index.html`` at its top).

    Raises
    ------
    BuildError
        No executed chapters, no vendored JavaScript, a failed or non-strict-clean Sphinx
        build, or a solution found in the built site (:func:`site_leaks`).
    """
    paths = BookPaths(find_root(root))
    site = Path(out) if out else paths.root / SITE
    executed, stage, work = paths.root / EXECUTED, paths.root / STAGE, paths.root / WORK
    if not (paths.vendor / "static").is_dir():
        raise BuildError(
            f"{paths.vendor} is missing: the vendored JavaScript (widgets, MathJax) comes from "
            "npm; run `make vendor` (or `make book`) first"
        )
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    solutions = write_student_chapters(paths.executed, executed)
    stage_book(paths.root, executed=executed, stage=stage, echo=echo)
    brand_stage(stage)
    seconds["stage"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    if work.exists():
        shutil.rmtree(work)
    cmd = [*_jupyter_book(), "build", str(stage), "--path-output", str(work)]
    cmd += ["--builder", "html", "--all", "-q"]
    if strict:
        cmd += ["-W", "-n", "--keep-going"]
    echo("[student-site] " + " ".join(cmd), flush=True)
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    proc = subprocess.run(cmd, cwd=paths.root, env=env, check=False)
    if proc.returncode != 0:
        raise BuildError(f"jupyter-book build failed (exit {proc.returncode}); see the log above")
    if site.exists():
        shutil.rmtree(site)
    site.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(work / "_build" / "html"), str(site))
    shutil.rmtree(work, ignore_errors=True)
    seconds["html"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    serve_student_downloads(site)
    from fairbook_book.ledger import read_executed, write_ledger

    ledger = read_executed(executed)
    write_ledger(ledger, site / "ledger.csv")
    write_ledger(ledger, site / "ledger.json")
    problems = site_leaks(site, paths.executed)
    seconds["check"] = time.perf_counter() - t0
    if problems:
        raise BuildError(f"the student site at {site} shows solutions:\n  " + "\n  ".join(problems))
    chapters = len(list(executed.glob(CHAPTER_GLOB)))
    echo(StudentSite(site, chapters, solutions, seconds).line(), flush=True)
    return site


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m fairbook_book.tooling.student_site [--out DIR] [--root DIR]``: build the
    student site; exit status 1 when the build fails or the site shows a solution."""
    parser = argparse.ArgumentParser(
        prog="python -m fairbook_book.tooling.student_site",
        description="Build the book's HTML without solutions, for students, from the executed "
        "chapters of the last `make html` (into _build/html-student).",
    )
    parser.add_argument("--out", help=f"the site's folder (default {SITE})")
    parser.add_argument("--root", help="the book root (default: found from the current folder)")
    args = parser.parse_args(argv)
    try:
        build_student_site(args.root, out=args.out)
    except (BuildError, ChapterError, EditionError) as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
