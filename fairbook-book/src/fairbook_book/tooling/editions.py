"""Student and instructor editions of the chapters, from one source.

Every chapter states its exercises with sphinx-exercise and folds each solution away, in one
of two forms:

* **gated**: a markdown cell ends with ```` ```{solution-start} LABEL ```` (often in the same
  cell as the ```` ````{exercise} ```` it answers), markdown and code cells of the solution
  follow, and a cell with ```` ```{solution-end} ```` closes it (text before that fence in the
  same cell is still solution, text after it is not);
* **plain**: one ```` ````{solution} LABEL ```` directive inside a markdown cell.

The **instructor edition** is the chapter as it is. The **student edition**
(:func:`student_edition`) removes every solution — its text, its code cells and their outputs,
and the ``{solution-start}``/``{solution-end}`` fences — keeps every exercise statement, and
puts in each solution's place a short markdown cell ``**Your answer:**`` and, where the
solution had code, an empty code cell for the student's. Both placeholder cells carry
``metadata.fairbook.answer = LABEL`` so a grader can find them. Everything outside the
solutions is left byte for byte as it was.

Which notebooks the student edition is made from: ``make student`` and ``fairbook-book student``
use the **source** chapters (``notebooks/``, stored without outputs) by default, because that
works on a fresh clone, takes a second, and a student is meant to run the chapter; ``--executed``
makes it from the executed copies (``_build/executed/notebooks``) with the solution cells'
outputs removed with them. The book's download button serves the executed, static-prepared
copy (``_build/html/_sources/notebooks/NN_*.ipynb``, what the page shows), so
:func:`serve_student_downloads` rewrites exactly those files as student editions after the
HTML build. ``tests/book/tooling/test_editions.py`` searches all three for every solution's text and
outputs.

A solution that is opened but never closed, closed without being opened, nested, or that
would swallow the next exercise is an :class:`EditionError` naming the chapter and the label:
a silently swallowed exercise, or a solution left in a student's file, is worse than a failed
build.

Examples
--------
>>> import nbformat
>>> nb = nbformat.v4.new_notebook()
>>> nb.cells = [
...     nbformat.v4.new_markdown_cell(
...         "````{exercise} Add\\n:label: ex-add\\n\\nWhat is 1 + 1?\\n````\\n\\n"
...         "```{solution-start} ex-add\\n:class: dropdown\\n```\\n\\nIt is two:"),
...     nbformat.v4.new_code_cell("1 + 1"),
...     nbformat.v4.new_markdown_cell("```{solution-end}\\n```"),
... ]
>>> student = student_edition(nb)
>>> [cell.cell_type for cell in student.cells]
['markdown', 'markdown', 'code']
>>> student.cells[0].source.endswith("What is 1 + 1?\\n````")
True
>>> student.cells[1].source, student.cells[2].source
('**Your answer:**', '')
>>> instructor_edition(nb) == nb
True
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import re
import shutil
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat

from fairbook_book.tooling.chapters import CHAPTER_GLOB

__all__ = [
    "EDITIONS",
    "PLACEHOLDER",
    "EditionError",
    "EditionReport",
    "Solution",
    "find_solutions",
    "instructor_edition",
    "main",
    "serve_student_downloads",
    "student_edition",
    "MANIFEST",
    "write_editions",
]

#: The two editions :func:`write_editions` writes.
EDITIONS: tuple[str, ...] = ("student", "instructor")

#: The markdown cell that takes a solution's place in the student edition.
PLACEHOLDER = "**Your answer:**"

#: The note beside an edition's notebooks: which edition, how many chapters, the licence.
EDITION_NOTE = "EDITION.md"
# a MyST directive: an opening fence of 3+ backticks or colons, its name, its argument
_DIRECTIVE = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[\w-]+)\}[ \t]*(?P<arg>[^\n]*)$", re.M)
_LABEL = re.compile(r"^:label:[ \t]*(\S+)[ \t]*$", re.M)
_ID_BAD = re.compile(r"[^A-Za-z0-9_-]")
_OURS = ("exercise", "solution", "solution-start", "solution-end")


class EditionError(ValueError):
    """A chapter's solutions cannot be cut out safely (unbalanced or nested gates, an
    unclosed fence, an exercise inside a solution), or an edition cannot be written."""


@dataclass
class Solution:
    """One solution of a chapter, as found in the instructor edition.

    ``markdown`` holds the solution's text (fences excluded), ``code`` the sources of its code
    cells and ``outputs`` those cells' outputs (empty in a source notebook).
    """

    label: str
    kind: str  # "gated" or "plain"
    markdown: list[str] = field(default_factory=list)
    code: list[str] = field(default_factory=list)
    outputs: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class EditionReport:
    """What :func:`write_editions` did to one chapter."""

    chapter: str
    edition: str
    exercises: int
    solutions: int
    cells_removed: int
    code_cells_removed: int
    outputs_removed: int

    def line(self) -> str:
        """One line for the log.

        Examples
        --------
        >>> EditionReport("01_x", "student", 3, 3, 4, 3, 3).line()
        '01_x: 3 exercises, 3 solutions removed (4 cells, 3 of them code, 3 outputs)'
        """
        if self.edition != "student":
            return f"{self.chapter}: {self.exercises} exercises with their solutions"
        return (
            f"{self.chapter}: {self.exercises} exercises, {self.solutions} solutions removed "
            f"({self.cells_removed} cells, {self.code_cells_removed} of them code, "
            f"{self.outputs_removed} outputs)"
        )


@dataclass
class _Cut:
    """The result of cutting the solutions out of one notebook."""

    cells: list[dict[str, Any]]
    exercises: dict[str, str]
    solutions: list[Solution]
    cells_removed: int = 0
    code_cells_removed: int = 0
    outputs_removed: int = 0


def _source(cell: Mapping[str, Any]) -> str:
    source = cell.get("source", "")
    return source if isinstance(source, str) else "".join(source)


def _fence_end(text: str, match: re.Match[str]) -> int | None:
    """End of the line that closes the fence opened by ``match`` (None: never closed)."""
    fence = match["fence"]
    close = re.compile(rf"^{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", re.M)
    found = close.search(text, match.end())
    return found.end() if found else None


def _cell_id(base: str) -> str:
    return _ID_BAD.sub("-", base)[:64] or "cell"


def _placeholders(label: str, *, with_code: bool, ids: bool) -> list[dict[str, Any]]:
    meta = {"fairbook": {"answer": label}}
    cells: list[dict[str, Any]] = [
        {"cell_type": "markdown", "metadata": copy.deepcopy(meta), "source": PLACEHOLDER}
    ]
    if with_code:
        cells.append(
            {
                "cell_type": "code",
                "execution_count": None,
                "metadata": copy.deepcopy(meta),
                "outputs": [],
                "source": "",
            }
        )
    if ids:
        cells[0]["id"] = _cell_id(f"answer-{label}")
        if with_code:
            cells[1]["id"] = _cell_id(f"answer-code-{label}")
    return cells


def _cut(notebook: Mapping[str, Any], name: str) -> _Cut:
    """Cut every solution out of ``notebook``'s cells (the notebook is not changed)."""
    cells_in = list(notebook.get("cells", []))
    ids = any("id" in cell for cell in cells_in)
    out = _Cut(cells=[], exercises={}, solutions=[])
    gate: Solution | None = None  # the gated solution open at this point

    def where(index: int) -> str:
        return f"{name}, cell {index}"

    for index, cell in enumerate(cells_in):
        if cell.get("cell_type") != "markdown":
            if gate is None:
                out.cells.append(copy.deepcopy(dict(cell)))
                continue
            out.cells_removed += 1
            if cell.get("cell_type") == "code":
                out.code_cells_removed += 1
                gate.code.append(_source(cell))
                outputs = [copy.deepcopy(dict(o)) for o in cell.get("outputs", [])]
                gate.outputs.extend(outputs)
                out.outputs_removed += len(outputs)
            else:
                gate.markdown.append(_source(cell))
            continue

        text = _source(cell)
        # pieces: ("keep", text) or ("answer", label, with_code), in order
        pieces: list[tuple[Any, ...]] = []
        touched = gate is not None
        pos = 0
        while True:
            match = _DIRECTIVE.search(text, pos)
            if match is None:
                rest = text[pos:]
                if gate is None:
                    pieces.append(("keep", rest))
                else:
                    gate.markdown.append(rest)
                break
            directive, arg = match["name"], match["arg"].strip()
            end = _fence_end(text, match)
            if end is None:
                if directive in _OURS:
                    raise EditionError(
                        f"{where(index)}: the fence of {{{directive}}} {arg} is never closed"
                    )
                end = len(text)
            before, block = text[pos : match.start()], text[match.start() : end]
            pos = end
            if gate is not None:
                if directive == "solution-end":
                    gate.markdown.append(before)
                    pieces.append(("answer", gate.label, bool(gate.code)))
                    gate = None
                elif directive in ("solution-start", "solution", "exercise"):
                    raise EditionError(
                        f"{where(index)}: {{solution-start}} {gate.label} is not closed by a "
                        f"{{solution-end}} before the {{{directive}}} {arg}"
                    )
                else:
                    gate.markdown.append(before + block)
                continue
            if directive == "solution-start":
                if not arg:
                    raise EditionError(f"{where(index)}: a {{solution-start}} without a label")
                touched = True
                pieces.append(("keep", before))
                gate = Solution(arg, "gated")
                out.solutions.append(gate)
            elif directive == "solution-end":
                raise EditionError(
                    f"{where(index)}: a {{solution-end}} without a {{solution-start}} before it"
                )
            elif directive == "solution":
                touched = True
                body = text[match.end() : end]
                body = body[: body.rstrip().rfind("\n")] if "\n" in body.strip() else ""
                out.solutions.append(Solution(arg, "plain", markdown=[body]))
                pieces += [("keep", before), ("answer", arg, False)]
            else:
                if directive == "exercise":
                    label = _LABEL.search(block)
                    out.exercises[label.group(1) if label else arg] = block
                pieces.append(("keep", before + block))

        if not touched:  # no solution in or around this cell: byte for byte as it was
            out.cells.append(copy.deepcopy(dict(cell)))
            continue
        out.cells_removed += 1  # counted back below if some of its text stays
        kept: list[dict[str, Any]] = []
        run = ""
        for piece in [*pieces, ("end",)]:
            if piece[0] == "keep":
                run += piece[1]
                continue
            run = run.strip("\n")
            if run.strip():
                new = copy.deepcopy(dict(cell))
                new["source"] = run
                if ids:
                    new["id"] = _cell_id(
                        f"{cell.get('id', 'cell')}-{len(kept)}" if kept else cell.get("id", "")
                    )
                kept.append(new)
            run = ""
            if piece[0] == "answer":
                kept += _placeholders(piece[1], with_code=piece[2], ids=ids)
        if any(c.get("metadata", {}).get("fairbook", {}).get("answer") is None for c in kept):
            out.cells_removed -= 1
        out.cells += kept
    if gate is not None:
        raise EditionError(
            f"{name}: {{solution-start}} {gate.label} is never closed by a {{solution-end}}"
        )
    return out


def find_solutions(notebook: Mapping[str, Any], *, name: str = "notebook") -> list[Solution]:
    """Every solution of ``notebook``, in order, with its text, code and outputs.

    Examples
    --------
    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook()
    >>> nb.cells = [nbformat.v4.new_markdown_cell(
    ...     "````{exercise} E\\n:label: ex-e\\n\\nWhy?\\n````\\n\\n"
    ...     "````{solution} ex-e\\n:class: dropdown\\n\\nBecause.\\n````")]
    >>> [(s.label, s.kind, s.markdown) for s in find_solutions(nb)]
    [('ex-e', 'plain', ['\\n:class: dropdown\\n\\nBecause.'])]
    """
    return _cut(notebook, name).solutions


def student_edition(
    notebook: Mapping[str, Any], *, name: str = "notebook"
) -> nbformat.NotebookNode:
    """A copy of ``notebook`` without its solutions (``notebook`` is not changed).

    Every solution's text, code cells and outputs go, with the solution fences; each exercise
    statement stays, and in each solution's place come a ``**Your answer:**`` markdown cell
    and, where the solution had code, an empty code cell (both with
    ``metadata.fairbook.answer`` = the exercise's label). Cells outside the solutions are
    copied unchanged. Applying it twice gives the same notebook.

    Parameters
    ----------
    notebook : mapping
        A notebook (``nbformat.NotebookNode`` or the JSON as a dict), source or executed.
    name : str
        The chapter's name, for error messages.

    Raises
    ------
    EditionError
        A solution that is never closed, closed without being opened, nested, or that would
        swallow an exercise; the message names the chapter (``name``), the cell and the label.

    Examples
    --------
    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook()
    >>> nb.cells = [nbformat.v4.new_markdown_cell(
    ...     "```{solution-start} ex-1\\n:class: dropdown\\n```\\nSecret.")]
    >>> try:
    ...     student_edition(nb, name="01_demo")
    ... except EditionError as exc:
    ...     print(exc)
    01_demo: {solution-start} ex-1 is never closed by a {solution-end}
    """
    cut = _cut(notebook, name)
    student = copy.deepcopy(dict(notebook))
    student["cells"] = cut.cells
    student.setdefault("metadata", {}).setdefault("fairbook", {})["edition"] = "student"
    return nbformat.from_dict(student)


def instructor_edition(
    notebook: Mapping[str, Any], *, name: str = "notebook"
) -> nbformat.NotebookNode:
    """A copy of ``notebook`` with everything, solutions included — after checking that its
    solutions are well formed (the same :class:`EditionError` as :func:`student_edition`).

    Examples
    --------
    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Title")])
    >>> instructor_edition(nb) == nb
    True
    """
    _cut(notebook, name)
    return nbformat.from_dict(copy.deepcopy(dict(notebook)))


def _report(chapter: str, edition: str, cut: _Cut) -> EditionReport:
    student = edition == "student"
    return EditionReport(
        chapter=chapter,
        edition=edition,
        exercises=len(cut.exercises),
        solutions=len(cut.solutions),
        cells_removed=cut.cells_removed if student else 0,
        code_cells_removed=cut.code_cells_removed if student else 0,
        outputs_removed=cut.outputs_removed if student else 0,
    )


def write_editions(
    source: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    *,
    edition: str = "student",
    protected: Sequence[str | os.PathLike[str]] = (),
) -> list[EditionReport]:
    """Write one edition of every chapter (``NN_*.ipynb``) of ``source`` into ``out_dir``.

    The instructor edition is a copy of each file, byte for byte; the student edition is
    :func:`student_edition` of each. Every chapter is checked before anything is written.
    Only what fairbook wrote is ever replaced or removed: each edition lists its files in
    :data:`MANIFEST`, a later edition into the same folder replaces those (and removes a
    renamed chapter of its own), and a file of the same name that is not on the list (a
    student's own ``01_project.ipynb``, answered notebooks copied in) makes it refuse. A
    student edition is never written into the instructor's folder, nor any edition into
    its source or a `protected` folder (the repository's ``notebooks/``).

    Parameters
    ----------
    source : path
        The source chapters (``notebooks/``) or the executed ones
        (``_build/executed/notebooks``).
    out_dir : path
        Where to write; created if needed; must not be ``source`` nor a `protected` folder.
    edition : {"student", "instructor"}
    protected : sequence of paths, keyword-only
        Folders never written into (the repository's own chapters).

    Returns
    -------
    list of EditionReport
        One per chapter: its exercises and what was removed.

    Examples
    --------
    >>> import tempfile, nbformat
    >>> from pathlib import Path
    >>> src, out = (Path(tempfile.mkdtemp()) for _ in range(2))
    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
    ...     "````{exercise} E\\n:label: ex-e\\n\\nWhy?\\n````\\n\\n"
    ...     "````{solution} ex-e\\n:class: dropdown\\n\\nBecause.\\n````")])
    >>> nbformat.write(nb, src / "01_demo.ipynb")
    >>> [r.line() for r in write_editions(src, out)]
    ['01_demo: 1 exercises, 1 solutions removed (0 cells, 0 of them code, 0 outputs)']
    >>> "Because" in (out / "01_demo.ipynb").read_text()
    False
    """
    if edition not in EDITIONS:
        raise EditionError(f"unknown edition {edition!r}: choose one of {', '.join(EDITIONS)}")
    source, out_dir = Path(source), Path(out_dir)
    chapters = sorted(source.glob(CHAPTER_GLOB))
    if not chapters:
        raise EditionError(f"no chapter notebooks ({CHAPTER_GLOB}) in {source}")
    for folder in (source, *protected):
        if out_dir.exists() and out_dir.resolve() == Path(folder).resolve():
            raise EditionError(f"the {edition} edition would overwrite the chapters in {folder}")
    ours = _written_before(out_dir, edition=edition)
    names = [path.name for path in chapters] + [EDITION_NOTE]
    theirs = [n for n in names if (out_dir / n).exists() and n not in ours]
    if theirs:
        raise EditionError(
            f"{out_dir} holds {', '.join(theirs)}, which fairbook did not write there; write "
            "the edition into an empty folder (nothing that is not ours is overwritten)"
        )
    made = []
    for path in chapters:
        notebook = nbformat.read(path, as_version=4)
        cut = _cut(notebook, path.stem)
        made.append((path, notebook, cut))
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in sorted(ours - set(names)):  # a renamed chapter of our own earlier edition
        (out_dir / stale).unlink(missing_ok=True)
    reports = []
    for path, notebook, cut in made:
        target = out_dir / path.name
        if edition == "instructor":
            shutil.copyfile(path, target)
        else:
            nbformat.write(student_edition(notebook, name=path.stem), target)
        reports.append(_report(path.stem, edition, cut))
    (out_dir / EDITION_NOTE).write_text(edition_readme(edition, reports), encoding="utf-8")
    manifest = {"edition": edition, "files": names}
    (out_dir / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return reports


#: The list of files an edition wrote into its folder: the only ones a later edition there
#: may replace or remove.
MANIFEST = ".fairbook-edition.json"


def _written_before(out_dir: Path, *, edition: str) -> set[str]:
    """The files an earlier edition wrote into `out_dir` (its manifest), after refusing a
    student edition into an instructor's folder. A folder written before manifests existed
    is recognised by its :data:`EDITION_NOTE`: its chapter notebooks were ours."""
    if not out_dir.is_dir():
        return set()
    manifest = out_dir / MANIFEST
    earlier = None
    if manifest.is_file():
        try:
            record = json.loads(manifest.read_text(encoding="utf-8"))
            earlier, files = record["edition"], set(record["files"])
        except (ValueError, KeyError, TypeError):
            raise EditionError(f"{manifest} is damaged; remove it or write elsewhere") from None
    elif (out_dir / EDITION_NOTE).is_file():
        note = (out_dir / EDITION_NOTE).read_text(encoding="utf-8", errors="replace")
        earlier = "instructor" if "solutions included" in note else "student"
        files = {p.name for p in out_dir.glob(CHAPTER_GLOB)} | {EDITION_NOTE}
    else:
        files = set()
    instructor = earlier == "instructor" or (out_dir / "assignments" / "MARKING_GUIDE.md").exists()
    if edition == "student" and instructor:
        raise EditionError(
            f"{out_dir} is the instructor edition's folder (solutions, marking guide): the "
            "student edition goes into a folder of its own"
        )
    return files


def edition_readme(edition: str, reports) -> str:
    """The :data:`EDITION_NOTE` written beside an edition's notebooks: what it holds, its licence.

    Examples
    --------
    >>> "CC BY 4.0" in edition_readme("student", [])
    True
    """
    from fairbook_book.tooling.chapters import book_version

    holds = (
        'every chapter with its exercises and a "Your answer" cell for each; no solution '
        "text, code or output. `make student` also writes assignments/NN_exercises.ipynb, "
        "one otter-grader assignment per chapter (its exercises; the by-hand answers are "
        "checked with grader.check)"
        if edition == "student"
        else "every chapter as the book has it, solutions included. `make student` also "
        "writes assignments/: each chapter's assignment with its solutions "
        "(NN_exercises.ipynb), its autograder (NN_autograder.zip: otter run -a "
        "NN_autograder.zip SUBMISSION.ipynb) and MARKING_GUIDE.md for the open questions"
    )
    return (
        f"# fairbook {book_version()}: {edition} edition\n\n"
        f"{len(reports)} chapter notebooks: {holds}.\n\n"
        "Licence: the text, figures and exercises are under the Creative Commons Attribution "
        "4.0 licence (CC BY 4.0, https://creativecommons.org/licenses/by/4.0/); the code "
        'cells are under the MIT licence. Credit "the fairbook authors". The data keep '
        "their own licences (data/README.md of the repository). Cite the book with its "
        "CITATION.cff.\n"
    )


def serve_student_downloads(html_dir: str | os.PathLike[str]) -> list[EditionReport]:
    """Make the book's ``.ipynb`` download button serve the student edition.

    sphinx-book-theme's download link of a chapter points to
    ``<html>/_sources/notebooks/NN_*.ipynb``, a copy of the staged (executed, made static)
    notebook with every solution in it. Each such file under ``html_dir/_sources`` is
    rewritten in place as :func:`student_edition` of itself; the pages themselves keep their
    folded solutions. Safe to run twice.

    Examples
    --------
    >>> import tempfile, nbformat
    >>> from pathlib import Path
    >>> html = Path(tempfile.mkdtemp())
    >>> (html / "_sources" / "notebooks").mkdir(parents=True)
    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
    ...     "````{exercise} E\\n:label: ex-e\\n\\nWhy?\\n````\\n\\n"
    ...     "````{solution} ex-e\\n:class: dropdown\\n\\nBecause.\\n````")])
    >>> nbformat.write(nb, html / "_sources" / "notebooks" / "01_demo.ipynb")
    >>> [r.chapter for r in serve_student_downloads(html)]
    ['01_demo']
    >>> "Because" in (html / "_sources" / "notebooks" / "01_demo.ipynb").read_text()
    False
    """
    reports = []
    for path in sorted(Path(html_dir, "_sources").rglob(CHAPTER_GLOB)):
        notebook = nbformat.read(path, as_version=4)
        cut = _cut(notebook, path.stem)
        nbformat.write(student_edition(notebook, name=path.stem), path)
        reports.append(_report(path.stem, "student", cut))
    return reports


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m fairbook_book.tooling.editions --out DIR [--edition student|instructor]
    [--executed]``: write one edition of every chapter; exit status 2 on a malformed solution
    or a missing source."""
    from fairbook_book.tooling.chapters import BookPaths, ChapterError, find_root

    parser = argparse.ArgumentParser(
        prog="python -m fairbook_book.tooling.editions",
        description="Write the student edition (exercises, no solutions) or the instructor "
        "edition (everything) of every chapter.",
    )
    parser.add_argument("--out", required=True, help="folder to write the notebooks into")
    parser.add_argument("--edition", choices=EDITIONS, default="student")
    parser.add_argument(
        "--executed",
        action="store_true",
        help="start from the executed chapters (_build/executed/notebooks, with outputs; "
        "the solutions' outputs are removed with them) instead of notebooks/",
    )
    parser.add_argument("--root", help="the book root (default: found from the current folder)")
    args = parser.parse_args(argv)
    try:
        paths = BookPaths(find_root(args.root))
        source = paths.executed if args.executed else paths.notebooks
        if args.executed and not source.is_dir():
            raise EditionError(f"{source} does not exist: run `make html` first")
        reports = write_editions(
            source, args.out, edition=args.edition, protected=(paths.notebooks,)
        )
    except (ChapterError, EditionError) as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    for report in reports:
        print(f"[{args.edition}] {report.line()}")
    print(f"[{args.edition}] {len(reports)} chapters in {args.out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
