"""Every chapter is teachable: learning goals, prerequisites, a difficulty, and exercises.

This module mirrors no single file: it reads the chapters' ``.ipynb`` JSON (nothing is
executed) and checks what issue 20 asks of each chapter —

* right after the title, a cell with the *Learning goals* (3–5 items), a *Prerequisites* line
  and a *Difficulty* tag, the same difficulty as in ``book/course_plan.md``'s table;
* an *Exercises* section before the *Replication tally*, with at least three
  ``{exercise}`` directives, each with a ``:label:``, labels unique in the book;
* a solution for every exercise (``{solution} <label>`` or gated
  ``{solution-start} <label>`` … ``{solution-end}``), folded away (``:class: dropdown``),
  and no solution that refers to a label no exercise defines;
* gated solutions are balanced, not nested, and hold a short code cell that computes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted(p for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
LEVELS = ("introductory", "intermediate", "advanced")

# a MyST directive: an opening fence of 3+ backticks or colons, the name, its argument
DIRECTIVE = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[\w-]+)\}[ \t]*(?P<arg>[^\n]*)$", re.M)
LABEL = re.compile(r"^:label:[ \t]*(\S+)[ \t]*$", re.M)


def _cells(notebook: Path) -> list[dict]:
    return json.loads(notebook.read_text(encoding="utf-8"))["cells"]


def _text(cell: dict) -> str:
    return "".join(cell["source"])


def _directive_blocks(text: str) -> list[tuple[str, str, str]]:
    """(name, argument, options and body) of each directive opened in ``text``."""
    blocks = []
    for match in DIRECTIVE.finditer(text):
        rest = text[match.end() :]
        close = re.search(rf"^{re.escape(match['fence'])}[ \t]*$", rest, re.M)
        body = rest[: close.start()] if close else rest
        blocks.append((match["name"], match["arg"].strip(), body))
    return blocks


def parse_exercises(cells: list[dict]) -> dict:
    """Exercises, solutions and gated structure of one notebook's cells.

    Returns ``exercises`` (label → title), ``solutions`` (list of (label, classes, kind)),
    ``gated`` (the code cells inside each gated solution, by label) and ``errors``.
    """
    exercises: dict[str, str] = {}
    solutions: list[tuple[str, str, str]] = []
    gated: dict[str, list[str]] = {}
    errors: list[str] = []
    open_label = None
    for cell in cells:
        text = _text(cell)
        if cell["cell_type"] == "code":
            if open_label is not None:
                gated[open_label].append(text)
            continue
        if cell["cell_type"] != "markdown":
            continue
        for name, arg, body in _directive_blocks(text):
            classes = re.search(r"^:class:[ \t]*([^\n]*)$", body, re.M)
            classes = classes.group(1) if classes else ""
            if name == "exercise":
                label = LABEL.search(body)
                if not label:
                    errors.append(f"exercise {arg!r} has no :label:")
                    continue
                if label.group(1) in exercises:
                    errors.append(f"exercise label {label.group(1)} defined twice")
                exercises[label.group(1)] = arg
            elif name == "solution":
                solutions.append((arg, classes, "plain"))
            elif name == "solution-start":
                if open_label is not None:
                    errors.append(f"solution-start {arg} opened inside {open_label}")
                open_label = arg
                gated[arg] = []
                solutions.append((arg, classes, "gated"))
            elif name == "solution-end":
                if open_label is None:
                    errors.append("solution-end without a solution-start")
                open_label = None
    if open_label is not None:
        errors.append(f"solution-start {open_label} is never closed")
    return {"exercises": exercises, "solutions": solutions, "gated": gated, "errors": errors}


def _course_plan_levels() -> dict[str, str]:
    plan = (ROOT / "book" / "course_plan.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\|\s*\{doc\}`\.\./notebooks/(\d\d)_\w+`\s*\|\s*(\w+)\s*\|", plan, re.M)
    return dict(rows)


@pytest.fixture(scope="module")
def plan_levels():
    return _course_plan_levels()


def test_the_chapters_are_there():
    assert len(CHAPTERS) >= 8


@pytest.mark.parametrize("notebook", CHAPTERS, ids=lambda p: p.stem)
def test_learning_goals_prerequisites_and_difficulty_follow_the_title(notebook, plan_levels):
    cells = _cells(notebook)
    assert cells[0]["cell_type"] == "markdown" and _text(cells[0]).startswith("# ")
    goals = cells[1]
    text = _text(goals)
    assert goals["cell_type"] == "markdown" and "Learning goals" in text, (
        f"{notebook.name}: the cell after the title must state the learning goals"
    )
    items = re.findall(r"^- \S", text, re.M)
    assert 3 <= len(items) <= 5, f"{notebook.name}: {len(items)} learning goals, want 3-5"
    assert re.search(r"^\*\*Prerequisites:\*\* \S", text, re.M), notebook.name
    level = re.search(r"^\*\*Difficulty:\*\* (\w+)\s*$", text, re.M)
    assert level and level.group(1) in LEVELS, f"{notebook.name}: no difficulty tag"
    planned = plan_levels.get(notebook.stem[:2])
    assert planned == level.group(1), (
        f"{notebook.name}: difficulty {level.group(1)}, course plan says {planned}"
    )


@pytest.mark.parametrize("notebook", CHAPTERS, ids=lambda p: p.stem)
def test_exercises_come_before_the_replication_tally(notebook):
    headings = [
        _text(c).lstrip().splitlines()[0]
        for c in _cells(notebook)
        if c["cell_type"] == "markdown" and _text(c).lstrip().startswith("## ")
    ]
    assert "## Exercises" in headings, notebook.name
    assert "## Replication tally" in headings, notebook.name
    assert headings.index("## Exercises") < headings.index("## Replication tally")


def exercise_problems(cells: list[dict], *, minimum: int = 3) -> list[str]:
    """What is wrong with the exercises of one notebook's cells (empty: nothing)."""
    found = parse_exercises(cells)
    problems = list(found["errors"])
    exercises, solutions = found["exercises"], found["solutions"]
    if len(exercises) < minimum:
        problems.append(f"{len(exercises)} exercises, want at least {minimum}")
    referred = [label for label, _, _ in solutions]
    for label in sorted(set(referred) - set(exercises)):
        problems.append(f"a solution refers to the unknown label {label}")
    for label in sorted(set(exercises) - set(referred)):
        problems.append(f"exercise {label} has no solution")
    for label, classes, _ in solutions:
        if "dropdown" not in classes.split():
            problems.append(f"the solution of {label} is not hidden (:class: dropdown)")
    for label, code in found["gated"].items():
        if not code:
            problems.append(f"gated solution {label} holds no code cell")
        for source in code:
            logic = re.search(r"^\s*(def|class|for|while)\b", source, re.M)
            if len(source.splitlines()) > 6 or logic:
                problems.append(f"gated solution {label}: keep its code to a call or two")
            if not re.search(r"\w\(", source):
                problems.append(f"gated solution {label}: its code computes nothing")
    return problems


@pytest.mark.parametrize("notebook", CHAPTERS, ids=lambda p: p.stem)
def test_at_least_three_exercises_each_with_a_hidden_solution(notebook):
    problems = exercise_problems(_cells(notebook))
    assert not problems, f"{notebook.name}: {problems}"


def test_exercise_labels_are_unique_in_the_book():
    seen: dict[str, str] = {}
    for notebook in CHAPTERS:
        for label in parse_exercises(_cells(notebook))["exercises"]:
            assert label not in seen, f"label {label} in {notebook.name} and {seen[label]}"
            seen[label] = notebook.name


def _md(text: str) -> dict:
    return {"cell_type": "markdown", "source": [text]}


def test_a_solution_to_an_unknown_label_fails():
    cells = [
        _md(
            f"````{{exercise}} Ex {n}\n:label: ex-{n}\n\nDo it.\n````\n\n"
            f"```{{solution}} ex-{n}\n:class: dropdown\n\nDone.\n```\n"
        )
        for n in (1, 2, 3)
    ]
    assert exercise_problems(cells) == []
    typo = [*cells, _md("```{solution} ex-4\n:class: dropdown\n\nDone.\n```\n")]
    assert exercise_problems(typo) == ["a solution refers to the unknown label ex-4"]
    shown = [_md(_text(cells[0]).replace(":class: dropdown\n", "")), *cells[1:]]
    assert exercise_problems(shown) == ["the solution of ex-1 is not hidden (:class: dropdown)"]
    assert exercise_problems(cells[:2]) == ["2 exercises, want at least 3"]


def test_the_parser_reads_gated_solutions_and_catches_a_missing_end():
    cells = [
        _md(
            "````{exercise} One\n:label: ex-one\n\n```bash\nfairbook run 01\n```\n````\n\n"
            "```{solution-start} ex-one\n:class: dropdown\n```\n\nText."
        ),
        {"cell_type": "code", "source": ["compute('TPR', [3, 1, 2, 4])"]},
        _md("```{solution-end}\n```\n"),
    ]
    found = parse_exercises(cells)
    assert found["exercises"] == {"ex-one": "One"}  # the nested bash fence is no directive
    assert found["gated"] == {"ex-one": ["compute('TPR', [3, 1, 2, 4])"]}
    assert not found["errors"]
    assert parse_exercises(cells[:2])["errors"] == ["solution-start ex-one is never closed"]
