"""One autograded assignment per chapter, built and graded offline with otter-grader.

Why otter-grader (7.0.0) and not nbgrader: an otter assignment is one notebook and one
autograder zip; ``otter run`` grades a submission on the lecturer's own machine without a
container, a server or a database, and the same zip serves Gradescope or a JupyterHub unchanged
(Data 8 teaches with it). nbgrader needs a course folder, a SQLite gradebook and its own
notebook-server extensions (it would add Jupyter Notebook 7 beside our JupyterLab) for the same
autograding. Both install offline here without moving a pinned package; otter is the lighter.

An assignment is made from one source: each exercise's **statement** is taken from the chapter
(its ``{exercise}`` directive, the text the book shows), and its **key** from
:mod:`fairbook_book.tooling.exercise_keys`. :func:`master_notebook` writes otter's
"master" notebook:

* a graded exercise (:data:`~fairbook_book.tooling.exercise_keys.GRADED`) becomes a question
  whose answer cell assigns named variables (``tpr = ...`` in the student's copy, the
  instructor's arithmetic in the solution), with one *public* test per variable that only says
  whether it is set to the right kind of value (0 points), and one *hidden* test per variable
  (1 point) that compares it with the library's value, computed when the assignment is built
  and written into the test: the zip's tests import nothing of fairbook, and call no builtin a
  notebook can rebind (:data:`_VALUE_CHECKS`), so the zip grades in any environment with
  otter-grader and its ``environment.yml`` (numpy, scipy, pandas: :func:`zip_requirements`),
  which :func:`check_zips_alone` checks in a fresh one;
* an open exercise becomes a manually graded question whose solution is its marking guide
  (:data:`~fairbook_book.tooling.exercise_keys.GUIDES`).

``otter assign`` then writes the student notebook (answers and hidden tests removed) and the
autograder (solution notebook and zip); ``otter run`` grades a notebook with that zip.
:func:`check_grading` grades three notebooks per chapter — the instructor's solutions, the blank
student notebook and one with each key's typical wrong answer — and requires full marks, zero
and every wrong answer caught.

Examples
--------
>>> import nbformat
>>> labels = ["ex-01-rates-by-hand", "ex-01-predict-holes", "ex-01-nan-not-zero"]
>>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
...     f"````{{exercise}} Title\\n:label: {label}\\n\\nDo it.\\n````") for label in labels])
>>> [(e.label, e.title, e.body) for e in exercise_statements(nb)][0]
('ex-01-rates-by-hand', 'Title', 'Do it.')
>>> master = master_notebook("01_demo", nb)
>>> [cell.source.split("\\n")[1:3] for cell in master.cells
...  if cell.source.startswith("# BEGIN QUESTION")]  # doctest: +NORMALIZE_WHITESPACE
[['name: ex_01_rates_by_hand', 'points: 4'],
 ['name: ex_01_predict_holes', 'manual: true'],
 ['name: ex_01_nan_not_zero', 'manual: true']]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import nbformat

from fairbook_book.tooling.chapters import CHAPTER_GLOB
from fairbook_book.tooling.exercise_keys import (
    GRADED,
    GUIDES,
    TOLERANCE,
    GradedExercise,
    MarkingGuide,
)
from fairbook_book.tooling.grading import write_keys

__all__ = [
    "Exercise",
    "GradingError",
    "Score",
    "build_assignments",
    "built_variant",
    "built_assignments",
    "check_grading",
    "check_zips_alone",
    "exercise_statements",
    "grade",
    "main",
    "marking_guide",
    "master_notebook",
]

_EXERCISE = re.compile(
    r"^(?P<fence>`{3,}|:{3,})\{exercise\}[ \t]*(?P<title>[^\n]*)\n(?P<body>.*?)\n(?P=fence)[ \t]*$",
    re.M | re.S,
)
_OPTION = re.compile(r"^:(?P<key>[\w-]+):[ \t]*(?P<value>[^\n]*)$")
_ROLE = re.compile(r"\{[\w:-]+\}`(?:[^`<]*<)?(?P<target>[^`>]+)>?`")


class GradingError(RuntimeError):
    """An assignment could not be built or graded, or graded differently than required."""


@dataclass(frozen=True)
class Exercise:
    """One exercise statement of a chapter, as the book shows it."""

    label: str
    title: str
    body: str


@dataclass(frozen=True)
class Score:
    """One graded notebook: points per question (auto-graded ones only) and in all."""

    chapter: str
    which: str
    points: dict[str, float]
    possible: dict[str, float]

    @property
    def total(self) -> float:
        return sum(self.points.values())

    @property
    def maximum(self) -> float:
        return sum(self.possible.values())


def exercise_statements(notebook) -> list[Exercise]:
    """Every ``{exercise}`` directive of a chapter, in order: label, title, statement.

    The statement is the directive's body without its options; MyST roles such as
    ``{prf:ref}`thm-03-size``` become their target in code font (they do not resolve outside
    the book).

    Examples
    --------
    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
    ...     "````{exercise} Count\\n:label: ex-c\\n\\nSee {prf:ref}`thm-size`.\\n````")])
    >>> exercise_statements(nb)[0].body
    'See `thm-size`.'
    """
    found = []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        for match in _EXERCISE.finditer(source):
            lines = match["body"].split("\n")
            label = None
            while lines and (option := _OPTION.match(lines[0])):
                if option["key"] == "label":
                    label = option["value"].strip()
                lines.pop(0)
            if label is None:
                raise GradingError(f"exercise {match['title']!r} has no :label:")
            body = _ROLE.sub(lambda m: f"`{m['target'].strip()}`", "\n".join(lines).strip())
            found.append(Exercise(label, match["title"].strip(), body))
    return found


def _answer_lines(key: GradedExercise) -> str:
    """The solution cell in otter's markup: lines assigning an answer end in ``# SOLUTION``
    (the student sees ``name = ...``), the working lines between are hidden blocks."""
    names = {answer.name for answer in key.answers}
    out, hidden = [], []

    def flush():
        if any(line.strip() for line in hidden):
            out.extend(["# BEGIN SOLUTION NO PROMPT", *hidden, "# END SOLUTION"])
        hidden.clear()

    for line in key.solution.split("\n"):
        target = re.match(r"^(\w+) = ", line)
        if target and target[1] in names:
            flush()
            out.append(f"{line}  # SOLUTION")
        else:
            hidden.append(line)
    flush()
    missing = names - {re.match(r"^(\w+) = ", line)[1] for line in out if " # SOLUTION" in line}
    if missing:
        raise GradingError(f"{key.label}: the solution never assigns {sorted(missing)} on a line")
    return "\n".join(out)


#: The kind checks the tests assert, in plain Python (the zip installs nothing of fairbook):
#: ``x`` is the student's value; numpy's numbers and bools count as numbers and bools.
_KIND_CHECKS = {
    "number": "x.__class__.__name__ not in ('bool', 'bool_') and isinstance(x, numbers.Real) "
    "and math.isfinite(float(x))",
    "integer": "x.__class__.__name__ not in ('bool', 'bool_') and isinstance(x, numbers.Real) "
    "and math.isfinite(float(x))",
    "yes/no": "x is True or x is False or x.__class__.__name__ in ('bool', 'bool_')",
    "word": "isinstance(x, str) and bool(x.strip())",
}
#: The value checks of the hidden tests; ``expected`` is written into the test when the
#: assignment is built (what the library computes: exercise_keys.expected_values). They call
#: no name a notebook can rebind (``abs``, ``float``, ``isinstance`` live in ``builtins``, which
#: the student's code runs beside): the types are reached as ``(0.0).__class__`` and
#: ``"".__class__``, and the comparisons are the numbers' and strings' own.
_VALUE_CHECKS = {
    "number": "x.__class__.__name__ not in ('bool', 'bool_') "
    f"and -{TOLERANCE!r} <= (0.0).__class__(x) - expected <= {TOLERANCE!r}",
    "integer": "x.__class__.__name__ not in ('bool', 'bool_') "
    "and (0.0).__class__(x) - expected == 0.0",
    "yes/no": "(x is True or x is False or x.__class__.__name__ in ('bool', 'bool_')) "
    "and (1 if x else 0) == (1 if expected else 0)",
    "word": '"".__class__.lower("".__class__.strip(x)) == expected.strip().lower()',
}


def _expected_literal(value) -> str:
    """The Python literal of an oracle's value (numpy scalars as the plain value they hold)."""
    if type(value).__name__ in ("bool", "bool_"):
        return repr(bool(value))
    if isinstance(value, str):
        return repr(value)
    return repr(float(value))


def _test_cell(key: GradedExercise, name: str, *, hidden: bool) -> str:
    """One otter test of answer `name`: public (0 points, the kind only) or hidden (1 point,
    the value, which the library computed when the assignment was built). Plain Python: the
    test needs nothing but the standard library, so the autograder zip grades anywhere."""
    from fairbook_book.tooling.exercise_keys import values_of

    kind = next(a.kind for a in key.answers if a.name == name)
    config = (
        f'""" # BEGIN TEST CONFIG\npoints: {1 if hidden else 0}\nhidden: {str(hidden).lower()}\n'
    )
    failure = "not right" if hidden else "not set to the right kind of value"
    config += f"failure_message: {name} is {failure}\n"
    config += '""" # END TEST CONFIG\n'
    head = f"def test_{name}{'' if hidden else '_is_set'}({name}):\n"
    if hidden:
        expected = _expected_literal(values_of(key)[name])
        body = f"    x = {name}\n    expected = {expected}\n"
        body += f"    assert {_VALUE_CHECKS[kind]}\n"
    else:
        body = f"    import math\n    import numbers\n\n    x = {name}\n"
        body += f"    assert {_KIND_CHECKS[kind]}\n"
    return config + head + body


def _literal_context(key: GradedExercise) -> str:
    """The key's ``context`` as the assignment shows it: the table it ends by displaying,
    written as a literal (computed now by the library), so the student's notebook and the
    autograder need nothing but pandas.

    Examples
    --------
    >>> from fairbook_book.tooling.exercise_keys import GRADED
    >>> print(_literal_context(GRADED["ex-09-small-group-by-hand"]).splitlines()[0])
    # the table the exercise refers to (computed by the book's chapter 09 when this was built)
    """
    namespace: dict = {}
    exec(compile(key.context, f"<{key.label} context>", "exec"), namespace)
    last = key.context.strip().splitlines()[-1].strip()
    if not last.isidentifier():
        raise GradingError(f"{key.label}: its context must end by naming the table it shows")
    frame = namespace[last]
    records = json.dumps(frame.reset_index().to_dict(orient="list"), indent=None)
    index = frame.index.name or "index"
    return (
        f"# the table the exercise refers to (computed by the book's chapter {key.label[3:5]} "
        "when this was built)\n"
        "import pandas as pd\n\n"
        f"{last} = pd.DataFrame({records}).set_index({index!r})\n"
        f"{last}"
    )


def _prompt(exercise: Exercise, key: GradedExercise | None, guide: MarkingGuide | None) -> str:
    text = f"### {exercise.title}\n\n{exercise.body}\n\n"
    if key is not None:
        text += "Set, in the cell below (numbers correct to three decimals):\n\n"
        text += "\n".join(
            f"- `{answer.name}`: {answer.meaning}"
            + {
                "yes/no": " (`True` or `False`)",
                "word": " (text)",
                "integer": " (a whole number)",
            }.get(answer.kind, "")
            for answer in key.answers
        )
    else:
        text += f"*Answered in words below; marked by your lecturer ({guide.points} points).*"
    return text


def marking_guide(guide: MarkingGuide) -> str:
    """The Markdown of one open exercise's marking guide.

    Examples
    --------
    >>> from fairbook_book.tooling.exercise_keys import GUIDES
    >>> print(marking_guide(GUIDES["ex-01-nan-not-zero"]).splitlines()[0])
    **Marking guide** (3 points; see the chapter's solution in the instructor edition):
    """
    lines = [
        f"**Marking guide** ({guide.points} points; see the chapter's solution in the "
        "instructor edition):",
        "",
    ]
    lines += [
        f"- {points} point{'s' if points != 1 else ''}: {text}" for points, text in guide.criteria
    ]
    return "\n".join(lines)


def _key(label: str, variant: int) -> GradedExercise | None:
    """The key of `label` in `variant` (None for an open exercise)."""
    if label not in GRADED:
        return None
    from fairbook_book.tooling.variants import varied_key

    return varied_key(label, variant)


def master_notebook(chapter: str, notebook, *, variant: int = 0) -> nbformat.NotebookNode:
    """Otter-grader's master notebook of one chapter's exercises (with the numbers of term
    `variant`, :mod:`fairbook_book.tooling.variants`; 0: the book's).

    Raises
    ------
    GradingError
        An exercise with neither a key nor a marking guide, or a key whose exercise is not in
        the chapter: every exercise is graded one way or the other.
    """
    v4 = nbformat.v4
    exercises = exercise_statements(notebook)
    labels = {exercise.label for exercise in exercises}
    prefix = f"ex-{chapter[:2]}-"
    for label in [*GRADED, *GUIDES]:
        if label.startswith(prefix) and label not in labels:
            raise GradingError(f"{chapter}: the key {label} has no exercise in the chapter")
    config = (
        "# ASSIGNMENT CONFIG\n"
        f"name: fairbook-{chapter}\n"
        "init_cell: true\n"
        "check_all_cell: true\n"
        "export_cell: false\n"
        "run_tests: false\n"
        "generate: true\n"
        "requirements: requirements.txt\n"
        "tests:\n  files: false\n  ok_format: false\n"
    )
    title = chapter[3:].replace("_", " ")
    which = (
        "with their statements as the book has them"
        if variant == 0
        else f"with other numbers than the book's (term variant {variant})"
    )
    cells = [
        v4.new_raw_cell(config),
        v4.new_markdown_cell(
            f"# Chapter {chapter[:2]} ({title}): exercises\n\n"
            f"The exercises of the chapter, {which}. Those "
            "whose answer is a number or a short computation are graded automatically: set "
            "the named variables in each answer cell and run `grader.check(...)` below it, "
            "which says whether each is set to the right *kind* of value (the values are "
            f"checked when your notebook is graded; numbers count within {TOLERANCE:g}, i.e. "
            "correct to three decimals). The others are answered in words and marked by your "
            "lecturer. Work the graded ones by hand first: the library computes them too, "
            "and the point is to know why."
        ),
    ]
    for exercise in exercises:
        key, guide = _key(exercise.label, variant), GUIDES.get(exercise.label)
        if key is not None and variant:
            from fairbook_book.tooling.variants import varied_statement

            body = varied_statement(exercise.label, exercise.body, variant)
            exercise = Exercise(exercise.label, exercise.title, body)
        if key is None and guide is None:
            raise GradingError(
                f"{chapter}: exercise {exercise.label} has no key and no marking guide"
            )
        question = exercise.label.replace("-", "_")
        if key is not None and key.context:
            cells.append(v4.new_code_cell(_literal_context(key)))
        header = f"# BEGIN QUESTION\nname: {question}\n"
        header += (
            f"points: {key.points}" if key is not None else f"manual: true\npoints: {guide.points}"
        )
        cells += [v4.new_raw_cell(header), v4.new_markdown_cell(_prompt(exercise, key, guide))]
        cells.append(v4.new_raw_cell("# BEGIN SOLUTION"))
        if key is not None:
            answer = v4.new_code_cell(_answer_lines(key))
            cells.append(answer)
        else:
            cells.append(v4.new_markdown_cell(marking_guide(guide)))
        cells.append(v4.new_raw_cell("# END SOLUTION"))
        if key is not None:
            cells.append(v4.new_raw_cell("# BEGIN TESTS"))
            for answer_ in key.answers:
                cells.append(v4.new_code_cell(_test_cell(key, answer_.name, hidden=False)))
                cells.append(v4.new_code_cell(_test_cell(key, answer_.name, hidden=True)))
            cells.append(v4.new_raw_cell("# END TESTS"))
        cells.append(v4.new_raw_cell("# END QUESTION"))
    master = v4.new_notebook(cells=cells)
    master.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    master.metadata["language_info"] = {"name": "python"}
    return master


def _otter_assign(master: str, work: str) -> None:
    """``otter assign`` in a worker process (otter's import takes seconds: once per worker)."""
    from otter.assign import main as otter_assign

    os.chdir(work)
    try:
        otter_assign(master, "dist", no_pdfs=True)
    except Exception as exc:  # otter raises what the master notebook's format made it raise
        raise GradingError(f"otter assign failed on {master}: {exc}") from None


#: What a graded notebook imports beyond the standard library (the instructor's working uses
#: scipy; a context table pandas), installed by the autograder zip at the book's pinned
#: versions; never fairbook: the tests compare with values written into them.
ZIP_REQUIREMENTS = ("numpy", "scipy", "pandas")


#: otter-grader as the zip's ``environment.yml`` installs it (with the extras Gradescope uses).
OTTER = "otter-grader[grading,plugins]"


def zip_environment(constraints: str | os.PathLike[str] | None = None) -> str:
    """What the zip's environment installs, as a pip requirements file: otter-grader and
    :func:`zip_requirements` (``python -m fairbook_book.tooling.assignments
    --zip-environment``, for ``make grader``'s fresh environment).

    Examples
    --------
    >>> zip_environment().splitlines()[0]
    'otter-grader[grading,plugins]'
    """
    return f"{OTTER}\n" + zip_requirements(constraints)


def zip_requirements(constraints: str | os.PathLike[str] | None = None) -> str:
    """The autograder zip's ``requirements.txt``: :data:`ZIP_REQUIREMENTS` at the versions of
    ``constraints.txt`` (unpinned where it has none).

    Examples
    --------
    >>> "scipy==" in zip_requirements()
    True
    """
    from fairbook_book.tooling.chapters import find_root

    path = Path(constraints) if constraints else find_root() / "constraints.txt"
    pins = {}
    if path.is_file():
        for line in path.read_text("utf-8").splitlines():
            name, _, version = line.partition("==")
            if version:
                pins[name.strip().lower()] = version.strip()
    lines = [f"{name}=={pins[name]}" if name in pins else name for name in ZIP_REQUIREMENTS]
    return "\n".join(lines) + "\n"


def _write_master(chapter: str, notebook, work: Path, variant: int = 0) -> str:
    name = f"{chapter[:2]}_exercises"
    (work / "master").mkdir(parents=True, exist_ok=True)
    master = master_notebook(chapter, notebook, variant=variant)
    nbformat.write(master, work / "master" / f"{name}.ipynb")
    (work / "master" / "requirements.txt").write_text(zip_requirements(), "utf-8")
    return f"master/{name}.ipynb"


def _assigned(chapter: str, work: Path) -> tuple[Path, Path, Path]:
    """What ``otter assign`` wrote in ``work``: (student notebook, solution notebook, zip)."""
    name = f"{chapter[:2]}_exercises"
    dist = work / "dist"
    zips = sorted((dist / "autograder").glob("*.zip"))
    if len(zips) != 1:
        raise GradingError(f"{chapter}: otter assign wrote {len(zips)} autograder zips")
    return dist / "student" / f"{name}.ipynb", dist / "autograder" / f"{name}.ipynb", zips[0]


def build_assignments(
    source: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    *,
    chapters: Sequence[str] | None = None,
    variant: int = 0,
) -> dict[str, dict[str, Path]]:
    """Build every chapter's assignment into ``out_dir/student`` and ``out_dir/instructor``,
    with the numbers of term `variant` (0: the book's; :mod:`fairbook_book.tooling.variants`),
    which the instructor's folder records (:data:`VARIANT_FILE`).

    ``out_dir/student/assignments/NN_exercises.ipynb`` is what a student gets (no answers, no
    hidden tests, no marking guide); ``out_dir/instructor/assignments/`` holds the solution
    notebook, the autograder ``NN_autograder.zip`` and ``MARKING_GUIDE.md`` for all chapters.
    ``chapters`` limits the build to chapters whose name starts with one of its entries.

    Returns
    -------
    dict
        chapter → ``{"student", "solution", "autograder"}`` paths.
    """
    source, out_dir = Path(source), Path(out_dir)
    paths = sorted(source.glob(CHAPTER_GLOB))
    if chapters:
        paths = [p for p in paths if any(p.stem.startswith(c) for c in chapters)]
    if not paths:
        raise GradingError(f"no chapter notebooks ({CHAPTER_GLOB}) in {source}")
    student_dir = out_dir / "student" / "assignments"
    teacher_dir = out_dir / "instructor" / "assignments"
    for folder in (student_dir, teacher_dir):
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
    notebooks = {path.stem: nbformat.read(path, as_version=4) for path in paths}
    built = {}
    with tempfile.TemporaryDirectory(prefix="fairbook-assign-") as top:
        works = {chapter: Path(top, chapter[:2]) for chapter in notebooks}
        # every master first: a missing key fails before any otter process starts
        masters = {c: _write_master(c, notebooks[c], works[c], variant) for c in notebooks}
        workers = max(1, min(len(notebooks), os.cpu_count() or 1))
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=_quiet_worker
        ) as pool:
            list(pool.map(_otter_assign, masters.values(), map(str, works.values())))
        for chapter, work in works.items():
            student, solution, zip_ = _assigned(chapter, work)
            number = chapter[:2]
            built[chapter] = {
                "student": Path(shutil.copyfile(student, student_dir / student.name)),
                "solution": Path(shutil.copyfile(solution, teacher_dir / solution.name)),
                "autograder": Path(shutil.copyfile(zip_, teacher_dir / f"{number}_autograder.zip")),
            }
            # the keys make grade checks with (the library's values, computed now)
            write_keys(chapter, teacher_dir / f"{number}_keys.json", variant=variant)
    (teacher_dir / VARIANT_FILE).write_text(json.dumps({"variant": variant}) + "\n", "utf-8")
    guides = [_chapter_guide(chapter, notebook, variant) for chapter, notebook in notebooks.items()]
    (teacher_dir / "MARKING_GUIDE.md").write_text(
        "# Marking guide\n\nThe graded questions' answers are checked by the autograder "
        "(`otter run -a NN_autograder.zip SUBMISSION.ipynb`); the open ones are marked with "
        "the guides below.\n\n" + "\n\n".join(guides) + "\n",
        encoding="utf-8",
    )
    return built


def built_assignments(out_dir: str | os.PathLike[str]) -> dict[str, dict[str, Path]]:
    """The assignments :func:`build_assignments` wrote into ``out_dir`` earlier, in its
    return value's shape (chapter keys are the two-digit numbers).

    Raises
    ------
    GradingError
        When there are none, or a chapter lacks its student notebook, solution or zip.
    """
    out_dir = Path(out_dir)
    student_dir = out_dir / "student" / "assignments"
    teacher_dir = out_dir / "instructor" / "assignments"
    built = {}
    for student in sorted(student_dir.glob("[0-9][0-9]_exercises.ipynb")):
        number = student.name[:2]
        paths = {
            "student": student,
            "solution": teacher_dir / student.name,
            "autograder": teacher_dir / f"{number}_autograder.zip",
        }
        missing = [str(path) for path in paths.values() if not path.is_file()]
        if missing:
            raise GradingError(
                f"chapter {number}'s assignment is incomplete: no {', '.join(missing)}"
            )
        built[number] = paths
    if not built:
        raise GradingError(f"no assignments in {student_dir}: run make student first")
    return built


#: The file, in the instructor's assignments folder, that records the term variant.
VARIANT_FILE = "VARIANT.json"


def built_variant(out_dir: str | os.PathLike[str]) -> int:
    """The term variant the assignments in `out_dir` were built with (0 when not recorded)."""
    path = Path(out_dir) / "instructor" / "assignments" / VARIANT_FILE
    try:
        return int(json.loads(path.read_text("utf-8"))["variant"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0


def _chapter_guide(chapter: str, notebook, variant: int = 0) -> str:
    parts = [f"## Chapter {chapter}"]
    for exercise in exercise_statements(notebook):
        if exercise.label in GUIDES:
            guide = marking_guide(GUIDES[exercise.label])
            parts.append(f"### {exercise.title} (`{exercise.label}`)\n\n{guide}")
        else:
            key = _key(exercise.label, variant)
            names = ", ".join(f"`{a.name}`" for a in key.answers)
            parts.append(
                f"### {exercise.title} (`{exercise.label}`)\n\nAutograded, {key.points} points "
                f"({names}; one point each). The instructor's working:\n\n"
                f"```python\n{key.solution}\n```"
            )
    return "\n\n".join(parts)


def grade(
    autograder: str | os.PathLike[str], notebook: str | os.PathLike[str], *, which: str = ""
) -> Score:
    """Grade ``notebook`` with the otter ``autograder`` zip (``otter run``'s function, in this
    process; no container).

    Returns the points of the automatically graded questions (manual ones are left to the
    lecturer and not counted).
    """
    from otter.run import main as otter_run

    notebook = Path(notebook)
    with tempfile.TemporaryDirectory(prefix="fairbook-grade-") as work:
        work = Path(work)
        submission = work / notebook.name
        shutil.copyfile(notebook, submission)
        here = Path.cwd()
        try:
            with open(os.devnull, "w") as quiet, redirect_stdout(quiet), redirect_stderr(quiet):
                otter_run(
                    str(submission),
                    autograder=str(Path(autograder).resolve()),
                    output_dir=str(work),
                    no_logo=True,
                )
        except Exception as exc:  # otter raises whatever the submission or its kernel raised
            raise GradingError(f"otter could not grade {notebook.name} ({which}): {exc}") from exc
        finally:
            os.chdir(here)
        results = json.loads((work / "results.json").read_text(encoding="utf-8"))
    points, possible = {}, {}
    graded = {key.question for key in GRADED.values()}
    for test in results.get("tests", []):  # the Gradescope results format otter writes
        if test.get("name") in graded:
            points[test["name"]] = float(test["score"])
            possible[test["name"]] = float(test["max_score"])
    return Score(notebook.stem[:2], which, points, possible)


def _quiet_worker() -> None:
    """Send a grading worker's (and its kernels') stdout and stderr to /dev/null: otter and
    the kernel print progress and warnings; a failure still reaches us as an exception."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)


def _grade_job(job: tuple[str, str, str, str]) -> Score:
    _, which, autograder, notebook = job
    return grade(autograder, notebook, which=which)


def _wrong_notebook(student: Path, target: Path, variant: int = 0) -> Path:
    """The student notebook with each graded answer cell (``name = ...`` for every answer of a
    key) replaced by that key's typical wrong answer."""
    notebook = nbformat.read(student, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        for label, key in GRADED.items():
            if all(re.search(rf"^{a.name} = \.\.\.", cell.source, re.M) for a in key.answers):
                cell.source = _key(label, variant).wrong
                break
    nbformat.write(notebook, target)
    return target


def check_grading(
    built: dict[str, dict[str, Path]],
    *,
    out: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    variant: int = 0,
    solutions: dict[str, Score] | None = None,
) -> list[Score]:
    """Grade each built assignment three times and require what a lecturer relies on.

    * the instructor's solution notebook scores full marks on every graded question;
    * the blank student notebook scores 0;
    * the student notebook with each key's typical wrong answer scores below full marks on
      every graded question (every wrong answer is caught).

    Writes ``SCORES.md`` and ``scores.json`` into ``out`` when given. `solutions`, by
    chapter, are the solutions' scores from :func:`check_zips_alone` (graded in the zips'
    own environment): then the solutions are not graded here again.

    Raises
    ------
    GradingError
        Naming each chapter and question that graded otherwise.
    """
    scores, problems = [], []
    with tempfile.TemporaryDirectory(prefix="fairbook-wrong-") as work:
        jobs = []
        for chapter, paths in built.items():
            wrong = _wrong_notebook(paths["student"], Path(work) / paths["student"].name, variant)
            for which, notebook in (
                ("solutions", paths["solution"]),
                ("blank", paths["student"]),
                ("wrong", wrong),
            ):
                if which == "solutions" and solutions is not None:
                    continue  # graded in the zip's own environment already
                jobs.append((chapter, which, paths["autograder"], notebook))
        # each grading starts a kernel; otter imports once per worker process
        workers = max(1, min(len(jobs), workers or os.cpu_count() or 1))
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=_quiet_worker
        ) as pool:
            graded = list(pool.map(_grade_job, [tuple(map(str, job)) for job in jobs]))
    if solutions is not None:
        jobs = [(chapter, "solutions", "", "") for chapter in built] + jobs
        graded = [solutions[chapter] for chapter in built] + graded
    for (chapter, which, _, _), score in zip(jobs, graded, strict=True):
        scores.append(score)
        for question, possible in score.possible.items():
            got = score.points[question]
            if which == "solutions" and got != possible:
                problems.append(
                    f"{chapter} {question}: the solutions score {got:g} of {possible:g}"
                )
            if which == "blank" and got != 0:
                problems.append(f"{chapter} {question}: a blank notebook scores {got:g}")
            if which == "wrong" and got >= possible:
                problems.append(f"{chapter} {question}: the wrong answer scores full marks")
        expected = {k.question for k in GRADED.values() if k.label[3:5] == chapter[:2]}
        if set(score.possible) != expected:
            problems.append(
                f"{chapter} ({which}): graded {sorted(score.possible)}, expected {sorted(expected)}"
            )
    if out is not None:
        _write_scores(scores, Path(out))
    if problems:
        raise GradingError("grading did not go as required:\n" + "\n".join(problems))
    return scores


#: What a notebook that tries to fool the tests runs before setting its answers: the
#: builtins the checks could call, patched (issue 49's "patched builtins" notebook).
PATCH_BUILTINS = (
    "import builtins\n"
    "builtins.abs = lambda x: 0\n"
    "builtins.round = lambda *a, **k: 0\n"
    "builtins.float = lambda *a: 0.0\n"
)


#: Seconds one ``otter run`` of the zip check may take.
OTTER_TIMEOUT = 180


def _zeroed_notebook(student: Path, target: Path, *, patch: bool) -> Path:
    """The student notebook with each graded answer cell set to zeros (numbers 0.0, yes/no
    False, words ""), after :data:`PATCH_BUILTINS` when `patch`."""
    notebook = nbformat.read(student, as_version=4)
    zero = {"number": "0.0", "integer": "0", "yes/no": "False", "word": '""'}
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        for key in GRADED.values():
            if all(re.search(rf"^{a.name} = \.\.\.", cell.source, re.M) for a in key.answers):
                lines = [f"{a.name} = {zero[a.kind]}" for a in key.answers]
                cell.source = (PATCH_BUILTINS if patch else "") + "\n".join(lines)
                break
    nbformat.write(notebook, target)
    return target


def _otter_alone(python: Path, autograder: Path, notebook: Path, work: Path) -> dict[str, float]:
    """``otter run`` of another environment's Python (`python`): the graded questions' points."""
    out = work / f"{notebook.stem}-results"
    out.mkdir(parents=True, exist_ok=True)
    otter = python.parent / "otter"
    command = [str(otter), "run", "-a", str(autograder), "-o", str(out), str(notebook)]
    try:
        run = subprocess.run(
            command, capture_output=True, text=True, cwd=work, check=False, timeout=OTTER_TIMEOUT
        )
    except subprocess.TimeoutExpired:
        raise GradingError(
            f"otter run of {notebook.name} did not end in {OTTER_TIMEOUT} s (otter has no "
            "time limit of its own: make grade has)"
        ) from None
    try:
        results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        tail = (run.stderr or run.stdout).strip().splitlines()[-3:]
        raise GradingError(
            f"otter run in {python.parent.parent} failed: {' '.join(tail)}"
        ) from None
    graded = {key.question for key in GRADED.values()}
    return {
        t["name"]: float(t.get("score") or 0.0)
        for t in results.get("tests", [])
        if t.get("name") in graded
    }


_ZEROS = {"number": 0.0, "integer": 0, "yes/no": False, "word": ""}


def _zero_points(number: str, variant: int = 0) -> float:
    """What the zeroed notebook of chapter `number` honestly scores: its zeros that happen
    to be right."""
    from fairbook_book.tooling.exercise_keys import answer_is_right, values_of

    points = 0.0
    for label in GRADED:
        if label[3:5] == number:
            key = _key(label, variant)
            expected = values_of(key)
            points += sum(answer_is_right(a, _ZEROS[a.kind], expected[a.name]) for a in key.answers)
    return points


def _alone_job(job: tuple[str, str, str, str, str]) -> tuple[str, str, dict[str, float]]:
    chapter, which, python, autograder, notebook = job
    work = Path(notebook).parent
    points = _otter_alone(Path(python), Path(autograder), Path(notebook), work)
    return chapter, which, points


def check_zips_alone(
    built: dict[str, dict[str, Path]],
    python: str | os.PathLike[str],
    *,
    workers: int | None = None,
    variant: int = 0,
    solutions: dict[str, Score] | None = None,
) -> list[str]:
    """Grade with each zip in another environment (`python`'s: only otter-grader and what
    the zip's ``environment.yml`` installs, no fairbook): the instructor's solutions must
    score full marks, and a notebook that patches the builtins before zeroing its answers
    must score no more than its zeros honestly earn. Returns one line per chapter.

    With `solutions` (a dict), each chapter's solutions' :class:`Score` is put in it, by
    chapter: :func:`check_grading` takes them instead of grading the solutions again.

    Raises
    ------
    GradingError
        Naming each chapter that graded otherwise.
    """
    from concurrent.futures import ThreadPoolExecutor

    python = Path(python).absolute()  # not resolved: a venv's python links out of the venv
    lines, problems, jobs = [], [], []
    with tempfile.TemporaryDirectory(prefix="fairbook-zips-") as top:
        for chapter, paths in built.items():
            work = Path(top, chapter[:2])
            work.mkdir()
            patched = _zeroed_notebook(paths["student"], work / "patched.ipynb", patch=True)
            solution = Path(shutil.copyfile(paths["solution"], work / paths["solution"].name))
            autograder = Path(paths["autograder"]).absolute()  # otter runs in another folder
            for which, notebook in (("solutions", solution), ("patched", patched)):
                jobs.append((chapter, which, str(python), str(autograder), str(notebook)))
        workers = max(1, min(len(jobs), workers or os.cpu_count() or 1))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            points = {(c, w): p for c, w, p in pool.map(_alone_job, jobs)}
    scores = {key: sum(p.values()) for key, p in points.items()}
    for chapter in built:
        number = chapter[:2]
        keys = [k for k in GRADED.values() if k.label[3:5] == number]
        possible = sum(k.points for k in keys)
        if solutions is not None:
            solutions[chapter] = Score(
                number,
                "solutions",
                dict(points[chapter, "solutions"]),
                {k.question: float(k.points) for k in keys},
            )
        solutions_total, cheat = scores[chapter, "solutions"], scores[chapter, "patched"]
        honest = _zero_points(number, variant)
        if solutions_total != possible:
            problems.append(f"{number}: the solutions score {solutions_total:g} of {possible:g}")
        if cheat > honest:
            problems.append(f"{number}: patching the builtins gains {cheat - honest:g} points")
        lines.append(
            f"{number}: solutions {solutions_total:g} of {possible:g}; zeroed answers after "
            f"patching the builtins {cheat:g} (the zeros alone earn {honest:g})"
        )
    if problems:
        raise GradingError("the zips do not grade alone as required:\n" + "\n".join(problems))
    return lines


def _write_scores(scores: list[Score], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rows = {}
    for score in scores:
        rows.setdefault(score.chapter, {})[score.which] = score
    lines = [
        "| chapter | graded questions | solutions | blank | wrong |",
        "|---|---|---|---|---|",
    ]
    for chapter, by in sorted(rows.items()):
        n = len(by["solutions"].possible)
        cells = [f"{by[w].total:g} / {by[w].maximum:g}" for w in ("solutions", "blank", "wrong")]
        lines.append(f"| {chapter} | {n} | " + " | ".join(cells) + " |")
    totals = {
        w: (sum(by[w].total for by in rows.values()), sum(by[w].maximum for by in rows.values()))
        for w in ("solutions", "blank", "wrong")
    }
    lines.append("| all | | " + " | ".join(f"{t:g} / {m:g}" for t, m in totals.values()) + " |")
    (out / "SCORES.md").write_text(
        "# Autograder check\n\n" + "\n".join(lines) + "\n", encoding="utf-8"
    )
    (out / "scores.json").write_text(
        json.dumps(
            [
                {
                    "chapter": s.chapter,
                    "notebook": s.which,
                    "points": s.points,
                    "possible": s.possible,
                }
                for s in scores
            ],
            indent=1,
        ),
        encoding="utf-8",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m fairbook_book.tooling.assignments --out DIR [--check] [--chapters NN ...]``."""
    from fairbook_book.tooling.chapters import BookPaths, ChapterError, find_root

    if list(argv if argv is not None else sys.argv[1:]) == ["--zip-environment"]:
        print(zip_environment(), end="")
        return 0

    parser = argparse.ArgumentParser(
        prog="python -m fairbook_book.tooling.assignments",
        description="Build one otter-grader assignment per chapter (student notebook; instructor "
        "solution, autograder zip and marking guide) and, with --check, grade the solutions, "
        "a blank and a wrong notebook with it.",
    )
    parser.add_argument(
        "--out", required=True, help="the editions folder (student/ and instructor/ go in it)"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="grade solutions / blank / wrong and require 100 %% / 0 / caught",
    )
    parser.add_argument("--chapters", nargs="*", help="only these chapters (e.g. 01 03)")
    parser.add_argument(
        "--variant",
        type=int,
        default=0,
        help="term variant: other numbers in every autograded question (a whole number; 0, "
        "the default, is the book's)",
    )
    parser.add_argument(
        "--no-build",
        action="store_true",
        help="grade the assignments already in --out (from make student) instead of building",
    )
    parser.add_argument("--root", help="the book root (default: found from the current folder)")
    parser.add_argument(
        "--alone",
        metavar="PYTHON",
        help="also grade with each zip in this other environment (only otter-grader and the "
        "zip's requirements): solutions full marks, patched builtins gain nothing",
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        paths = BookPaths(find_root(args.root))
        if args.no_build:
            built = built_assignments(args.out)
        else:
            built = build_assignments(
                paths.notebooks, args.out, chapters=args.chapters, variant=args.variant
            )
            seconds = time.perf_counter() - started
            print(f"[assignments] {len(built)} chapters built in {seconds:.0f} s")
        alone_lines, alone_seconds, solutions = None, 0.0, None
        if args.alone:  # first: its solutions' scores spare check_grading a second grading
            started = time.perf_counter()
            solutions = {} if args.check else None
            alone_lines = check_zips_alone(
                built, args.alone, variant=built_variant(args.out), solutions=solutions
            )
            alone_seconds = time.perf_counter() - started
        if args.check:
            started = time.perf_counter()
            variant = built_variant(args.out)
            scores = check_grading(
                built,
                out=Path(args.out) / "instructor" / "assignments",
                variant=variant,
                solutions=solutions,
            )
            seconds = time.perf_counter() - started
            again = "" if solutions is None else " (the solutions' scores from the zips alone)"
            print(f"[assignments] {len(scores)} notebooks graded in {seconds:.0f} s{again}")
            print(
                (Path(args.out) / "instructor" / "assignments" / "SCORES.md").read_text(
                    encoding="utf-8"
                )
            )
        if alone_lines is not None:
            print(f"[assignments] each zip alone ({args.alone}), {alone_seconds:.0f} s:")
            print("\n".join(f"  {line}" for line in alone_lines))
    except (ChapterError, GradingError) as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
