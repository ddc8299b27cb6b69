"""Tests of fairbook_book.tooling.chapters: discovery, resolution, parameter validation,
papermill runs,
staging. Every test builds a tiny book in tmp_path; nothing touches the real notebooks."""

from __future__ import annotations

import json
import os
from pathlib import Path

import nbformat
import pytest
import yaml

from fairbook_book.tooling import chapters
from fairbook_book.tooling.chapters import Chapter, ChapterError

PARAMS_SOURCE = """\
profile: str = "fast"  # fast | full
seed: int = 0  # random seed
rate: float = 0.5  # a float
verbose: bool = False  # a flag
sizes: list = [1, 2]  # a list
limit: int = None  # None: automatic
"""


def make_notebook(
    path: Path, params: str = PARAMS_SOURCE, body: str | None = None, title: str = "A tiny chapter"
) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [
        nbformat.v4.new_markdown_cell(f"# {title}\n\n**Difficulty:** introductory\n\nText."),
        nbformat.v4.new_code_cell(params, metadata={"tags": ["parameters", "remove-cell"]}),
        nbformat.v4.new_code_cell(
            body
            if body is not None
            else 'print(f"profile={profile} seed={seed} rate={rate} verbose={verbose} '
            'sizes={sizes} limit={limit}")'
        ),
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


@pytest.fixture
def book(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A book root with two chapters, a TOC and the prose folder."""
    monkeypatch.delenv("FAIRBOOK_ROOT", raising=False)
    make_notebook(tmp_path / "notebooks" / "01_tiny.ipynb")
    make_notebook(
        tmp_path / "notebooks" / "02_other_topic.ipynb",
        params='profile: str = "fast"\nn: int = 3  # size\n',
        body="print(n * 2)",
        title="Another chapter",
    )
    (tmp_path / "notebooks" / "README.md").write_text("not a chapter")
    (tmp_path / "notebooks" / "draft.ipynb").write_text("{}")  # not NN_*.ipynb: ignored
    (tmp_path / "_config.yml").write_text("title: test\n")
    (tmp_path / "_toc.yml").write_text(
        yaml.safe_dump(
            {
                "format": "jb-book",
                "root": "book/intro",
                "parts": [{"caption": "Part", "chapters": [{"file": "notebooks/01_tiny"}]}],
            }
        )
    )
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "intro.md").write_text("# Intro\n")
    return tmp_path


# ---- discovery and resolution ---------------------------------------------------------------


def test_find_root_walks_up(book: Path) -> None:
    assert chapters.find_root(book / "notebooks") == book


def test_find_root_env_override(book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAIRBOOK_ROOT", str(book))
    assert chapters.find_root("/") == book
    monkeypatch.setenv("FAIRBOOK_ROOT", str(book / "notebooks"))
    with pytest.raises(ChapterError, match="_toc.yml"):
        chapters.find_root()


def test_discover_sorted_and_only_numbered(book: Path) -> None:
    found = chapters.discover(book)
    assert [c.slug for c in found] == ["01_tiny", "02_other_topic"]
    assert [c.number for c in found] == ["01", "02"]
    assert found[1].topic == "other_topic"
    assert found[1].title == "Another chapter"


@pytest.mark.parametrize(
    "spec", ["01", "1", "01_tiny", "tiny", "01_tiny.ipynb", "notebooks/01_tiny.ipynb"]
)
def test_resolve_accepts_number_stem_topic_and_file(book: Path, spec: str) -> None:
    assert chapters.resolve(spec, chapters.discover(book)).slug == "01_tiny"


@pytest.mark.parametrize("spec", ["03", "nope", "01_tin", ""])
def test_resolve_unknown_lists_valid_chapters(book: Path, spec: str) -> None:
    with pytest.raises(ChapterError) as err:
        chapters.resolve(spec, chapters.discover(book))
    assert "unknown chapter" in str(err.value)
    assert "01 (01_tiny)" in str(err.value) and "02 (02_other_topic)" in str(err.value)


def test_chapter_name_must_be_numbered(tmp_path: Path) -> None:
    with pytest.raises(ChapterError, match="NN_topic"):
        Chapter(tmp_path / "intro.ipynb")


# ---- parameters ---------------------------------------------------------------------------


def test_parameters_read_from_the_parameters_cell(book: Path) -> None:
    params = Chapter(book / "notebooks" / "01_tiny.ipynb").parameters()
    assert list(params) == ["profile", "seed", "rate", "verbose", "sizes", "limit"]
    assert params["seed"].type == "int"
    assert params["seed"].default == "0"
    assert params["seed"].help == "random seed"
    assert params["profile"].describe() == 'profile: str = "fast"  # fast | full'


def test_untyped_parameter_has_empty_type(tmp_path: Path) -> None:
    path = make_notebook(tmp_path / "notebooks" / "01_x.ipynb", params="profile = 'fast'\nk = 3\n")
    params = Chapter(path).parameters()
    assert params["k"].type == ""
    assert chapters.coerce_parameters(Chapter(path), {"k": "7"}) == {"k": 7}


@pytest.mark.parametrize(
    ("text", "kind", "default", "expected"),
    [
        ("3", "int", "0", 3),
        ("-2", "int", "0", -2),
        ("0.25", "float", "0.5", 0.25),
        ("1e-3", "float", "0.5", 1e-3),
        ("yes", "bool", "False", True),
        ("False", "bool", "True", False),
        ("0", "bool", "True", False),
        ("full", "str", "'fast'", "full"),
        ("[3, 4]", "list", "[1]", [3, 4]),
        ("[3, 4]", "list[int]", "[1]", [3, 4]),
        ("(1, 2)", "tuple", "(0,)", (1, 2)),
        ('{"a": 1}', "dict", "{}", {"a": 1}),
        ("None", "Optional[int]", "None", None),
        ("5", "Optional[int]", "None", 5),
        ("None", "int", "None", None),  # `n: int = None` in a parameters cell
        ("7", "", "3", 7),  # untyped: the default's type
        ("abc", "", "'x'", "abc"),
    ],
)
def test_coerce_value(text: str, kind: str, default: str, expected: object) -> None:
    value = chapters.coerce_value(text, kind, default=default)
    assert value == expected
    assert type(value) is type(expected)


@pytest.mark.parametrize(
    ("text", "kind", "message"),
    [
        ("three", "int", "integer"),
        ("1.5", "int", "integer"),
        ("fast", "float", "number"),
        ("maybe", "bool", "true/false"),
        ("[1, 2", "list", "list"),
        ("{1: 2}", "list", "list"),
        ("None", "int", "integer"),  # a None default is what makes None acceptable
    ],
)
def test_coerce_value_rejects(text: str, kind: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        chapters.coerce_value(text, kind, default="0")


def test_coerce_parameters_converts_all(book: Path) -> None:
    chapter = chapters.resolve("01", chapters.discover(book))
    values = chapters.coerce_parameters(
        chapter, {"seed": "3", "rate": "0.1", "verbose": "true", "sizes": "[5]", "limit": "None"}
    )
    assert values == {"seed": 3, "rate": 0.1, "verbose": True, "sizes": [5], "limit": None}


def test_unknown_parameter_lists_valid_ones(book: Path) -> None:
    chapter = chapters.resolve("01", chapters.discover(book))
    with pytest.raises(ChapterError) as err:
        chapters.coerce_parameters(chapter, {"sede": "3"})
    text = str(err.value)
    assert "unknown parameter 'sede'" in text and "01_tiny" in text
    for line in ('profile: str = "fast"', "seed: int = 0  # random seed", "rate: float = 0.5"):
        assert line in text


def test_bad_value_names_the_parameter(book: Path) -> None:
    chapter = chapters.resolve("01", chapters.discover(book))
    with pytest.raises(ChapterError, match=r"bad value for parameter seed .*integer"):
        chapters.coerce_parameters(chapter, {"seed": "x"})


def test_a_chapters_own_profiles_are_accepted_and_others_refused() -> None:
    ptn = chapters.resolve("08", chapters.discover())
    assert chapters.chapter_profiles(ptn) == ("fast", "decisive", "full")
    assert chapters.coerce_parameters(ptn, {"profile": "decisive"}) == {"profile": "decisive"}
    with pytest.raises(ChapterError, match="has the profiles fast, decisive, full"):
        chapters.coerce_parameters(ptn, {"profile": "huge"})


def test_the_key_results_of_an_executed_chapter_read_as_plain_text(tmp_path: Path) -> None:
    cell = nbformat.v4.new_code_cell("")
    glued = "```{admonition} Key results\n:class: tip key-results\n\n- One {doc}`x <../a>`.\n```"
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data",
            data={"application/papermill.record/text/markdown": glued},
            metadata={"scrapbook": {"name": "key-results"}},
        )
    ]
    path = tmp_path / "01_x.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[cell]), path)
    assert chapters.key_results_text(path) == "- One x."
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("")]), path)
    assert chapters.key_results_text(path) is None


def test_profile_must_be_fast_or_full(book: Path) -> None:
    chapter = chapters.resolve("01", chapters.discover(book))
    with pytest.raises(ChapterError, match="fast, full"):
        chapters.coerce_parameters(chapter, {"profile": "medium"})
    assert chapters.coerce_parameters(chapter, {"profile": "full"}) == {"profile": "full"}
    assert chapters.profile_parameters(chapter, "full") == {"profile": "full"}
    with pytest.raises(ChapterError, match="unknown profile"):
        chapters.profile_parameters(chapter, "slow")


def test_profile_parameter_is_required(tmp_path: Path) -> None:
    path = make_notebook(tmp_path / "notebooks" / "01_x.ipynb", params="seed: int = 0\n")
    with pytest.raises(ChapterError, match="no `profile` parameter"):
        chapters.profile_parameters(Chapter(path), "fast")


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({}, "01_tiny-defaults.ipynb"),
        ({"seed": 3, "profile": "full"}, "01_tiny-profile=full-seed=3.ipynb"),
        ({"sizes": [1, 2]}, "01_tiny-sizes=1_2.ipynb"),
        ({"name": "a b/c"}, "01_tiny-name=a_b_c.ipynb"),
    ],
)
def test_output_name(params: dict, name: str) -> None:
    assert chapters.output_name("01_tiny", params) == name


# ---- execution ------------------------------------------------------------------------------


def _outputs(path: Path) -> str:
    nb = json.loads(path.read_text())
    return "".join(
        "".join(out.get("text", "")) for cell in nb["cells"] for out in cell.get("outputs", [])
    )


def test_run_injects_typed_parameters(book: Path) -> None:
    result = chapters.run("01", {"seed": "7", "verbose": "yes", "profile": "full"}, root=book)
    assert result.ok, result.error
    assert (
        result.output == book / "_build" / "runs" / "01_tiny-profile=full-seed=7-verbose=True.ipynb"
    )
    assert "profile=full seed=7 rate=0.5 verbose=True sizes=[1, 2] limit=None" in _outputs(
        result.output
    )
    nb = json.loads(result.output.read_text())
    assert nb["metadata"]["papermill"]["parameters"] == {
        "seed": 7,
        "verbose": True,
        "profile": "full",
    }


def test_run_validates_before_executing(book: Path) -> None:
    with pytest.raises(ChapterError, match="unknown parameter"):
        chapters.run("01", {"nope": "1"}, root=book)
    with pytest.raises(ChapterError, match="unknown chapter"):
        chapters.run("09", {}, root=book)
    assert not (book / "_build" / "runs").exists()


def test_failing_chapter_reports_error(book: Path, tmp_path: Path) -> None:
    make_notebook(book / "notebooks" / "03_broken.ipynb", body="raise ValueError('boom')")
    chapter = chapters.resolve("03", chapters.discover(book))
    result = chapters.execute(chapter, tmp_path / "out" / "broken.ipynb", {"profile": "fast"})
    assert not result.ok
    assert "ValueError: boom" in result.error
    assert result.output.exists()  # the traceback is kept for reading


def test_execute_book_runs_every_chapter_and_removes_stale(book: Path) -> None:
    out = book / "_build" / "executed" / "notebooks"
    out.mkdir(parents=True)
    (out / "09_gone.ipynb").write_text("{}")
    lines: list[str] = []
    results = chapters.execute_book(book, "fast", echo=lambda *a, **k: lines.append(a[0]))
    assert [r.chapter.slug for r in results] == ["01_tiny", "02_other_topic"]
    assert all(r.ok for r in results)
    assert sorted(p.name for p in out.glob("*.ipynb")) == ["01_tiny.ipynb", "02_other_topic.ipynb"]
    assert "6" in _outputs(out / "02_other_topic.ipynb")
    assert any("02_other_topic: ok" in line for line in lines)


def test_execute_book_side_by_side_gives_the_same_notebooks_in_toc_order(book: Path) -> None:
    out = book / "_build" / "executed" / "notebooks"
    serial = chapters.execute_book(book, "fast", echo=lambda *a, **k: None)
    first = {r.chapter.slug: _outputs(r.output) for r in serial}
    timings = json.loads((out / chapters.TIMINGS).read_text())
    assert set(timings) == {"01_tiny", "02_other_topic"}
    assert all(seconds >= 0 for seconds in timings.values())
    parallel = chapters.execute_book(
        book, "fast", jobs=2, use_cache=False, echo=lambda *a, **k: None
    )
    assert [r.chapter.slug for r in parallel] == ["01_tiny", "02_other_topic"]
    assert {r.chapter.slug: _outputs(r.output) for r in parallel} == first


def test_a_fresh_build_orders_the_chapters_by_the_committed_timings(
    book: Path, tmp_path, monkeypatch
) -> None:
    orders: list[list[str]] = []
    schedule = chapters.schedule

    def spy(found, timings):
        ordered = schedule(found, timings)
        orders.append([c.slug for c in ordered])
        return ordered

    monkeypatch.setattr(chapters, "schedule", spy)
    quiet = lambda *a, **k: None  # noqa: E731
    hint = tmp_path / "timings-fast.json"
    hint.write_text('{"01_tiny": 1.0, "02_other_topic": 50.0}', "utf-8")
    chapters.execute_book(book, "fast", jobs=2, timings_fallback=hint, echo=quiet)
    assert orders[-1] == ["02_other_topic", "01_tiny"]  # longest first, by the committed file
    # once the build has its own timings, they win over the file
    out = book / "_build" / "executed" / "notebooks"
    (out / chapters.TIMINGS).write_text('{"01_tiny": 90.0, "02_other_topic": 1.0}', "utf-8")
    chapters.execute_book(book, "fast", jobs=2, timings_fallback=hint, use_cache=False, echo=quiet)
    assert orders[-1] == ["01_tiny", "02_other_topic"]
    # a missing file orders nothing: TOC order
    (out / chapters.TIMINGS).unlink()
    chapters.execute_book(
        book, "fast", jobs=2, timings_fallback=tmp_path / "no.json", use_cache=False, echo=quiet
    )
    assert orders[-1] == ["01_tiny", "02_other_topic"]


@pytest.mark.parametrize("jobs", [0, -1, 1.5, True, "2"])
def test_execute_book_refuses_a_bad_number_of_jobs(book: Path, jobs: object) -> None:
    with pytest.raises(ValueError, match="jobs"):
        chapters.execute_book(book, "fast", jobs=jobs, echo=lambda *a, **k: None)


def test_schedule_starts_the_longest_and_the_untimed_first(book: Path) -> None:
    found = chapters.discover(book)
    assert [c.slug for c in chapters.schedule(found, {"01_tiny": 1.0})] == [
        "02_other_topic",
        "01_tiny",
    ]
    timed = {"01_tiny": 5.0, "02_other_topic": 1.0}
    assert [c.slug for c in chapters.schedule(found, timed)] == ["01_tiny", "02_other_topic"]


def test_kernel_environment_is_reentrant_and_restores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/usr/bin")
    monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    with chapters._kernel_environment():
        inner_path = os.environ["PATH"]
        with chapters._kernel_environment():
            assert os.environ["PATH"] == inner_path  # not prepended twice
        assert os.environ["PATH"] == inner_path
        assert os.environ["PYTHONHASHSEED"] == "0"
        assert os.environ["OMP_WAIT_POLICY"] == "PASSIVE"
    assert os.environ["PATH"] == "/usr/bin"
    assert "PYTHONHASHSEED" not in os.environ and "OMP_WAIT_POLICY" not in os.environ
    monkeypatch.setenv("OMP_WAIT_POLICY", "ACTIVE")  # a user's own choice is kept
    with chapters._kernel_environment():
        assert os.environ["OMP_WAIT_POLICY"] == "ACTIVE"


# ---- staging and the TOC --------------------------------------------------------------------


def test_toc_files_walks_parts_chapters_sections() -> None:
    toc = {
        "format": "jb-book",
        "root": "book/intro",
        "parts": [
            {
                "caption": "A",
                "chapters": [
                    {"file": "notebooks/01_a", "sections": [{"file": "notebooks/01_b.ipynb"}]},
                    {"url": "https://example.org", "title": "x"},
                ],
            }
        ],
        "chapters": [{"file": "book/glossary.md"}],
    }
    assert chapters.toc_files(toc) == [
        "book/intro",
        "notebooks/01_a",
        "notebooks/01_b",
        "book/glossary",
    ]


def test_stage_uses_executed_copies_and_appends_missing_chapters(book: Path) -> None:
    executed = book / "_build" / "executed" / "notebooks"
    executed.mkdir(parents=True)
    import nbformat

    for name in ("01_tiny.ipynb", "02_other_topic.ipynb"):
        executed_nb = nbformat.v4.new_notebook(metadata={"executed": True})
        executed_nb.cells = [nbformat.v4.new_markdown_cell(f"# {name}")]
        nbformat.write(executed_nb, executed / name)
    messages: list[str] = []
    stage = chapters.stage_book(book, echo=lambda *a, **k: messages.append(a[0]))
    staged = nbformat.read(stage / "notebooks" / "01_tiny.ipynb", as_version=4)
    assert staged.metadata["executed"] is True  # the executed copy, not the source
    assert (stage / "book" / "intro.md").exists() and (stage / "_config.yml").exists()
    assert (stage / "notebooks" / "README.md").exists()  # assets next to chapters come along
    assert not (stage / "notebooks" / "draft.ipynb").exists()  # sources never do
    toc = yaml.safe_load((stage / "_toc.yml").read_text())
    assert chapters.toc_files(toc)[-1] == "notebooks/02_other_topic"
    assert toc["parts"][-1]["caption"] == "Further chapters"
    assert "02_other_topic" in messages[0] and "_toc.yml" in messages[0]
    # the repository's own TOC is untouched
    assert "02_other" not in (book / "_toc.yml").read_text()


def test_build_html_requires_vendored_js(book: Path) -> None:
    with pytest.raises(chapters.BuildError, match="make vendor"):
        chapters.build_html(book, echo=lambda *a, **k: None)


def test_real_book_chapters_have_a_profile_parameter() -> None:
    """Every chapter of this repository can be built with both profiles."""
    root = Path(__file__).resolve().parents[3]
    found = chapters.discover(root)
    assert found, "no chapters in notebooks/"
    for chapter in found:
        params = chapter.parameters()
        assert "profile" in params, chapter.slug
        assert params["profile"].default.strip("'\"") == "fast", chapter.slug


def test_the_build_writes_the_ledger_of_the_executed_chapters(tmp_path: Path) -> None:
    import nbformat
    from IPython.core.formatters import DisplayFormatter

    from fairbook_book.ledger import chapter_ledger
    from fairbook_book.replication import Row, replication_table

    paths = chapters.BookPaths(tmp_path)
    paths.executed.mkdir(parents=True)
    paths.html.mkdir(parents=True)
    table = replication_table([Row("OFI (A)", -0.06, -0.0556, source="seed 003 Table 3.1")])
    data, metadata = DisplayFormatter().format(chapter_ledger([table], chapter="02_x"))
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("x")
    cell.outputs = [nbformat.v4.new_output("display_data", data=data, metadata=metadata)]
    nb.cells = [cell]
    nbformat.write(nb, paths.executed / "02_x.ipynb")
    assert chapters.write_book_ledger(paths) == 1
    assert "OFI (A)" in (paths.html / "ledger.csv").read_text()
    assert '"outcome":"matches"' in (paths.html / "ledger.json").read_text()
    # the page's fragments: the headline (also on the introduction) first, rows folded
    folder = tmp_path / "fragments"
    chapters.write_ledger_fragments(paths.executed, folder)
    assert [p.name for p in sorted(folder.iterdir())] == sorted(chapters.LEDGER_FRAGMENTS)
    headline = (folder / "_ledger_headline.html").read_text()
    assert "<th>Briscoe 2024</th>" in headline and "<th>all papers</th>" in headline
    assert "<strong>results</strong>" in headline
    # the headline in a plain sentence first, then the table
    assert headline.startswith("<p>Of 1 result the four papers print and the book compares")
    rows = (folder / "_ledger_rows.html").read_text()
    assert 'id="r-seed-003-table-3-1-ofi-a-fast"' in rows and "<details" in rows
    accounting = (folder / "_ledger_accounting.html").read_text()
    assert "Table 3.1" in accounting


def test_a_worker_process_that_dies_is_a_failed_chapter(book: Path) -> None:
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    class DeadPool:
        def submit(self, *args, **kwargs):
            future = Future()
            future.set_exception(BrokenProcessPool("a worker was killed"))
            return future

    chapter = chapters.discover(book)[0]
    result = chapters._in_process(DeadPool(), chapter, book / "out.ipynb", {})
    assert not result.ok
    assert result.error == "BrokenProcessPool: a worker was killed"
    assert result.chapter == chapter and result.seconds >= 0


def test_the_books_own_css_is_served_and_keeps_tagged_tables_unwrapped():
    root = Path(__file__).resolve().parents[3]
    config = yaml.safe_load((root / "_config.yml").read_text("utf-8"))["sphinx"]["config"]
    folders = [root / p for p in config["html_static_path"]]
    for name in config["html_css_files"]:
        found = [f / name for f in folders if (f / name).is_file()]
        assert found, f"{name} is in none of {config['html_static_path']}"
    css = (root / "book" / "_css" / "fairbook.css").read_text("utf-8")
    assert "pre-wrap" in css and ":not(.tag_keep-layout)" in css
    # a cell that prints the audit's fixed-column text report keeps its columns (tagged)
    for path in sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        for cell in json.loads(path.read_text("utf-8"))["cells"]:
            if cell["cell_type"] == "code" and ".to_text(" in "".join(cell["source"]):
                assert "keep-layout" in cell.get("metadata", {}).get("tags", []), path.name


def test_the_staged_pages_carry_the_version_and_build_date(book: Path, monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")  # 2026-09-21 UTC
    stage = chapters.stage_book(book, echo=lambda *a, **k: None)
    config = yaml.safe_load((stage / "_config.yml").read_text())
    version = chapters.book_version()
    assert config["html"]["extra_footer"].startswith(f"fairbook {version}, built 2026-09-21")
    assert "CC BY 4.0" in config["html"]["extra_footer"]
    substitutions = config["sphinx"]["config"]["myst_substitutions"]
    assert substitutions == {"version": version, "build_date": "2026-09-21"}
    # the repository's own configuration is untouched
    assert "built" not in (book / "_config.yml").read_text()


def test_the_book_build_asks_its_kernels_to_keep_their_figures(monkeypatch, tmp_path):
    from fairbook_book.projector import FIGURE_DIR_VARIABLE
    from fairbook_book.tooling.chapters import _figures_kept_in

    monkeypatch.setenv(FIGURE_DIR_VARIABLE, "before")
    with _figures_kept_in(tmp_path / "figures"):
        assert os.environ[FIGURE_DIR_VARIABLE] == str(tmp_path / "figures")
    assert os.environ[FIGURE_DIR_VARIABLE] == "before"
    monkeypatch.delenv(FIGURE_DIR_VARIABLE)
    with _figures_kept_in(tmp_path):
        pass
    assert FIGURE_DIR_VARIABLE not in os.environ
