"""Tests of :mod:`fairbook_book.chapter_summary`: the Key results box and parameters used."""

import pytest

from fairbook_book import chapter_summary as reading


def test_key_results_render_one_bullet_per_finding_in_a_key_results_box():
    box = reading.key_results("A is 3.", "B  is\n 4.")
    md = box.to_markdown()
    assert md.startswith("```{admonition} Key results\n:class: tip key-results\n")
    assert md.count("\n- ") == 2 and "- B is 4." in md and md.rstrip().endswith("```")
    assert box._repr_markdown_() == md


@pytest.mark.parametrize(
    ("findings", "error"),
    [((), ValueError), (("",), ValueError), (("no full stop",), ValueError), ((3,), TypeError)],
)
def test_key_results_refuse_what_is_not_a_sentence(findings, error):
    with pytest.raises(error):
        reading.key_results(*findings)


def test_show_key_results_glues_the_box_in_a_kernel(monkeypatch):
    glued = {}
    monkeypatch.setattr("IPython.get_ipython", lambda: object())
    monkeypatch.setattr(
        "myst_nb.glue", lambda name, obj, display: glued.update({name: (obj.data, display)})
    )
    box = reading.key_results("A is 3.")
    assert reading.show_key_results(box) is box
    assert glued == {reading.GLUE_NAME: (box.to_markdown(), False)}
    with pytest.raises(TypeError):
        reading.show_key_results("A is 3.")


def test_parameters_used_prints_values_as_the_book_does():
    table = reading.parameters_used(
        profile="fast",
        alpha=0.05,
        seeds=range(3),
        sizes={"a": 1, "b": 2.5},
        cap=None,
        noise=0.1 + 0.2,
        flag=True,
        empty=[],
    )
    assert dict(table.rows) == {
        "profile": "fast",
        "alpha": "0.05",
        "seeds": "0, 1, 2",
        "sizes": "a = 1, b = 2.5",
        "cap": "none",
        "noise": "0.3",
        "flag": "True",
        "empty": "none",
    }
    md = table.to_markdown()
    assert md.splitlines()[:2] == ["| parameter | value |", "|---|---|"]
    assert "| seeds | 0, 1, 2 |" in md
    assert "\\|" in reading.parameters_used(rule="a|b").to_markdown()
    with pytest.raises(ValueError):
        reading.parameters_used()


def test_parameters_used_reads_keys_from_the_config_in_order_after_the_named_ones():
    config = {"alpha": 0.05, "seeds": range(2), "unused": 1}
    table = reading.parameters_used(profile="full", config=config, keys=["seeds", "alpha"])
    assert table.rows == (("profile", "full"), ("seeds", "0, 1"), ("alpha", "0.05"))
    with pytest.raises(KeyError):
        reading.parameters_used(config=config, keys=["missing"])
    with pytest.raises(ValueError, match="config="):
        reading.parameters_used(profile="fast", keys=["alpha"])


# ---- every chapter uses the reading path (read from the .ipynb JSON, nothing executed) ------

import json  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
GLUE_CELL = "```{glue:md} key-results\n:format: myst\n```"


def _cells(notebook: Path) -> list[dict]:
    return json.loads(notebook.read_text("utf-8"))["cells"]


def _text(cell: dict) -> str:
    return "".join(cell["source"]).strip()


@pytest.mark.parametrize("notebook", CHAPTERS, ids=lambda p: p.stem)
def test_key_results_follow_the_learning_goals_and_are_computed_once(notebook):
    cells = _cells(notebook)
    assert "Learning goals" in _text(cells[1])
    assert cells[2]["cell_type"] == "markdown" and _text(cells[2]) == GLUE_CELL
    shows = [c for c in cells if c["cell_type"] == "code" and "show_key_results(" in _text(c)]
    assert len(shows) == 1, f"{notebook.name}: {len(shows)} cells show key results"
    assert "remove-cell" in shows[0]["metadata"].get("tags", [])
    exercises = next(i for i, c in enumerate(cells) if _text(c).startswith("## Exercises"))
    assert cells.index(shows[0]) < exercises, "key results are computed before the exercises"


@pytest.mark.parametrize("notebook", CHAPTERS, ids=lambda p: p.stem)
def test_the_top_is_short_and_the_parameters_are_shown(notebook):
    cells = _cells(notebook)
    title = _text(cells[0])
    assert len(title) <= 1200, f"{notebook.name}: the title cell has {len(title)} characters"
    setup = next(
        cells[i + 1]
        for i, c in enumerate(cells)
        if "parameters" in c.get("metadata", {}).get("tags", [])
    )
    assert re.search(r"^parameters_used\(", _text(setup), re.M), notebook.name


# ---- ideas on the page: every chapter's worked example (issue 45) ---------------------------

# a line of arithmetic: an operator between two operands, or a sum / mean / product call
_ARITHMETIC = re.compile(
    r"[\w)\]]\s*(?:[-+*/%@]|\*\*|//)\s*[\w(\[.]|\b(?:sum|mean|prod|log\d*|sqrt)\("
)
_FOLD_TARGET = re.compile(r"^\(fold-[\w-]+\)=", re.M)
_SEED_NAME = re.compile(r"\b[Ss]eed 00\d\b")


def _tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def _first_fold(cells: list[dict]) -> int:
    return next(
        (
            i
            for i, c in enumerate(cells)
            if c["cell_type"] == "markdown" and _FOLD_TARGET.search(_text(c))
        ),
        len(cells),
    )


@pytest.mark.parametrize("notebook", CHAPTERS, ids=lambda p: p.stem)
def test_the_worked_example_is_plain_code_checked_by_the_library_before_the_first_fold(notebook):
    cells = _cells(notebook)
    examples = [i for i, c in enumerate(cells) if "worked-example" in _tags(c)]
    assert examples, f"{notebook.name}: no cell tagged worked-example"
    first = examples[0]
    assert first < _first_fold(cells), f"{notebook.name}: the worked example is inside a fold"
    for i in examples:
        cell = cells[i]
        source = _text(cell)
        assert cell["cell_type"] == "code", f"{notebook.name}: cell {i} is not code"
        assert not {"remove-cell", "remove-input", "hide-input", "hide-cell"} & set(_tags(cell))
        assert "fairbook" not in source, f"{notebook.name}: the worked example calls fairbook"
        lines = [
            line
            for line in source.splitlines()
            if line.strip() and not line.lstrip().startswith("#")
        ]
        arithmetic = [line for line in lines if _ARITHMETIC.search(line.split("#")[0])]
        assert len(arithmetic) >= 4, f"{notebook.name}: {len(arithmetic)} lines of arithmetic"
        assert len(lines) <= 25, f"{notebook.name}: the worked example has {len(lines)} lines"
        check = cells[i + 1]
        check_source = _text(check)
        assert check["cell_type"] == "code" and "fairbook" in check_source, (
            f"{notebook.name}: the cell after the worked example does not check it with fairbook"
        )
        assert re.search(r"\bassert\b|assert_allclose|assert_array_equal", check_source)


def _open_prose(cells: list[dict]) -> list[str]:
    """Markdown lines a reader sees with the folds closed: outside folded evidence sections
    (a fold target's heading and what follows, until a heading of the same level or above)
    and outside folded solutions."""
    seen, fold_level, pending, in_solution = [], None, False, False
    for cell in cells:
        if cell["cell_type"] != "markdown":
            continue
        for line in _text(cell).splitlines():
            heading = re.match(r"^(#+)\s", line)
            if heading:
                level = len(heading.group(1))
                if fold_level is not None and level <= fold_level:
                    fold_level = None
                if pending:
                    fold_level, pending = level, False
            if _FOLD_TARGET.match(line):
                pending = True
                continue
            if line.startswith("```{solution-start}"):
                in_solution = True
            if fold_level is None and not in_solution:
                seen.append(line)
            if line.startswith("```{solution-end}"):
                in_solution = False
    return seen


@pytest.mark.parametrize("notebook", CHAPTERS, ids=lambda p: p.stem)
def test_reader_facing_prose_names_papers_by_author_and_year(notebook):
    """'seed NNN' stays in code and in the folded evidence; prose says 'Briscoe 2024'."""
    offenders = [line for line in _open_prose(_cells(notebook)) if _SEED_NAME.search(line)]
    assert not offenders, f"{notebook.name}: outside the folds: {offenders}"


def test_a_finding_that_counts_replicated_numbers_is_refused():
    with pytest.raises(ValueError, match="replication="):
        reading.key_results("Of the 155 numbers the paper prints, 108 replicate.")
    box = reading.key_results("OFI is 0.12.", replication="Beside the paper: 3 of 4 agree.")
    assert box.replication == "Beside the paper: 3 of 4 agree."
    assert box.to_markdown().rstrip().endswith("Beside the paper: 3 of 4 agree.\n```")
    assert "- OFI is 0.12." in repr(box) and repr(box).endswith("3 of 4 agree.")


@pytest.mark.parametrize("notebook", CHAPTERS, ids=lambda p: p.stem)
def test_no_prose_points_at_a_widget_the_static_page_leaves_out(notebook):
    """The static page drops ipywidgets; 'the widget below' would point at nothing there."""
    pointing = re.compile(
        r"widgets?\s+(?:below|above)|(?:below|above)\s+is\s+the\s+\w*\s*widget", re.I
    )
    found = [
        line
        for c in _cells(notebook)
        if c["cell_type"] == "markdown"
        for line in _text(c).splitlines()
        if pointing.search(line)
    ]
    assert not found, f"{notebook.name}: {found}"


@pytest.mark.parametrize("notebook", CHAPTERS, ids=lambda p: p.stem)
def test_the_set_up_cell_is_folded_so_the_idea_comes_first(notebook):
    """The imports and settings (and the parameters table) fold away: a reader reaches the
    idea and its worked example within a few screens (issue 45: teaching started late)."""
    cells = _cells(notebook)
    setup = next(cells[i + 1] for i, c in enumerate(cells) if "parameters" in _tags(c))
    assert "hide-input" in _tags(setup), notebook.name


def test_the_parameters_table_is_a_closed_dropdown():
    shown = reading.parameters_used(profile="fast", alpha=0.05)._repr_markdown_()
    assert shown.startswith("```{admonition} Parameters used in this run (2)\n:class: dropdown")
    assert "| alpha | 0.05 |" in shown


#: The code column of a chapter page shows about 90 characters; a longer line scrolls out of
#: sight, and a student reads the worked example line by line.
WORKED_EXAMPLE_LINE = 88


@pytest.mark.parametrize("notebook", CHAPTERS, ids=lambda p: p.stem)
def test_the_worked_example_and_its_check_fit_the_page(notebook):
    cells = _cells(notebook)
    shown = [j for i, c in enumerate(cells) if "worked-example" in _tags(c) for j in (i, i + 1)]
    long = [
        (j, len(line))
        for j in shown
        for line in _text(cells[j]).splitlines()
        if len(line) > WORKED_EXAMPLE_LINE
    ]
    assert not long, f"{notebook.name}: (cell, characters) over {WORKED_EXAMPLE_LINE}: {long}"


def test_jupyterlab_sees_the_ledger_link_as_text_and_the_book_keeps_the_role():
    line = "Beside the paper: 1 of 2 agree; see {doc}`the replication ledger <../book/ledger>`."
    box = reading.key_results("A is 3.", replication=line)
    assert "{doc}`the replication ledger <../book/ledger>`" in box.to_markdown()
    shown = box._repr_markdown_()
    assert "{doc}" not in shown and "*the replication ledger* (a page of the built book)" in shown


# --- counts of replications come from the ledger, never typed (#46) -----------------------

#: A typed count of replicated numbers: "108 replicate", "9 of 14 match", "79 matches",
#: "35 agree within their rule". (A figure number such as "Figure 5.1, replicated" is not.)
_TYPED_COUNT = re.compile(
    r"(?<![\w.,])\d+(?:,\d{3})*\s+(?:of\s+(?:the\s+)?\d+(?:,\d{3})*\s+)?(?:\w+\s+){0,3}?"
    r"(?:replicate[sd]?|replications|match(?:es|ed)?|agrees?\s+within)\b",
    re.IGNORECASE,
)


def _reader_texts():
    """(where, text) of every piece of prose a reader sees that the build does not compute:
    the book's pages, the README (its headline line is checked against the built ledger),
    the chapters' Markdown cells and the string literals of the Key results modules."""
    for path in sorted((ROOT / "book").glob("*.md")):
        yield path.name, path.read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    yield (
        "README.md",
        "\n".join(
            line for line in readme.splitlines() if not line.startswith("**How far it replicates")
        ),
    )
    for path in CHAPTERS:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for number, cell in enumerate(cells, 1):
            if cell["cell_type"] == "markdown":
                yield f"{path.name} cell {number}", "".join(cell["source"])
    import ast

    for path in sorted(
        (ROOT / "fairbook-book" / "src" / "fairbook_book" / "chapters").glob("*/key_results.py")
    ):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                yield f"{path.parent.name}/key_results.py line {node.lineno}", node.value


def test_no_prose_types_a_count_of_replications():
    typed = [
        f"{where}: {match[0]!r}"
        for where, text in _reader_texts()
        for match in _TYPED_COUNT.finditer(text)
    ]
    assert not typed, (
        "counts of replications come from fairbook_book.ledger (replication_line, headline); "
        f"typed: {typed}"
    )


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("Chapter 02: 108 replicate.", True),
        ("79 match the paper", True),
        ("9 of 14 numbers match", True),
        ("1,225 rows replicated", True),
        ("35 agree within their rule", True),
        ("**Figure 5.1, replicated.** One trajectory", False),
        ("the replication ledger lists 3 tables", False),
    ],
)
def test_the_typed_count_pattern_finds_counts_and_only_counts(text, typed):
    assert bool(_TYPED_COUNT.search(text)) is typed
