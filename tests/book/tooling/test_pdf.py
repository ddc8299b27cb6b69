"""Tests of fairbook_book.tooling.pdf: the print page, its CSS, page counting, and one real PDF."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from fairbook_book.tooling import pdf
from fairbook_book.tooling.pagecheck import chromium_binary

HEAD = """<head><link rel="stylesheet" href="../_static/fairbook.css?v=1" />
<script>window.MathJax = {"options": {}}</script>
<script defer="defer" src="../_static/vendor/mathjax/es5/tex-mml-chtml.js?v=2"></script>
<script src="../_static/togglebutton.js"></script></head>"""


def built(body: str) -> str:
    """A built page's shape: sidebars around main > article.bd-article."""
    return (
        f"<!DOCTYPE html><html>{HEAD}<body><nav>sidebar <a href='x.html'>x</a></nav>"
        f'<main><article class="bd-article">{body}</article></main>'
        "<footer>footer</footer></body></html>"
    )


CHAPTER = built(
    '<section id="the-chapter"><h1><span class="section-number">2. </span>The chapter'
    '<a class="headerlink" href="#the-chapter">#</a></h1>'
    '<p>See <a href="../book/intro.html#why">why</a>, <a href="#ex-1">the exercise</a>, '
    '<a href="https://example.org/p">a paper</a> and <a href="../genindex.html">the index</a>.</p>'
    '<img src="../_images/fig.png" alt="a figure" />'
    '<details class="fairbook-fold"><summary class="fairbook-fold-summary">'
    "Show the evidence: 1 table</summary><table><tr><td>1</td></tr></table></details>"
    '<div class="fairbook-vega-figure"><div class="fairbook-vega" id="fairbook-vega-0"></div>'
    '<script>var base = "../_static/vendor/vega", target = "fairbook-vega-0";</script></div>'
    '<div class="exercise admonition" id="ex-1"><p class="admonition-title">Exercise 2.1</p>'
    "<p>Compute it.</p></div>"
    '<div class="solution dropdown admonition" id="notebooks/02_c-solution-1">'
    '<p class="admonition-title">Solution to Exercise 2.1</p><p>SECRET ANSWER 42</p>'
    '<div class="cell"><div class="cell_output"><pre>SECRET OUTPUT</pre></div></div></div>'
    "</section>"
)
INTRO = built('<section id="intro"><h1>Intro</h1><p id="why">Because.</p></section>')
PAGES = [("book/intro", INTRO), ("notebooks/02_c", CHAPTER)]
PARTS = [(None, ["book/intro"]), ("Metrics", ["notebooks/02_c"])]


def make(student: bool = False) -> str:
    return pdf.print_page(PAGES, root="../html", parts=PARTS, student=student, title="T")


def test_links_between_pages_become_anchors_in_the_print_page() -> None:
    html = make()
    assert 'id="notebooks--02_c--the-chapter"' in html
    assert 'href="#book--intro--why"' in html  # another page's anchor
    assert 'href="#notebooks--02_c--ex-1"' in html  # an anchor of the same page
    assert 'id="book--intro--why"' in html


def test_assets_and_other_urls_point_into_the_built_book() -> None:
    html = make()
    assert 'src="../html/_images/fig.png"' in html
    assert 'href="../html/genindex.html"' in html
    assert 'href="https://example.org/p"' in html
    assert 'href="../html/_static/fairbook.css?v=1"' in html
    assert 'src="../html/_static/vendor/mathjax/es5/tex-mml-chtml.js?v=2"' in html
    assert "togglebutton.js" not in html  # it would fold the solutions again
    assert "sidebar" not in html and "footer</footer>" not in html


def test_chart_script_finds_its_renamed_container_and_its_scripts() -> None:
    html = make()
    assert 'id="notebooks--02_c--fairbook-vega-0"' in html
    assert 'target = "notebooks--02_c--fairbook-vega-0"' in html
    assert 'var base = "../html/_static/vendor/vega"' in html
    assert html.count(pdf.CHART_NOTE) == 1


def test_folded_evidence_is_open_and_headerlinks_are_gone() -> None:
    html = make()
    assert re.search(r'<details class="fairbook-fold" open="">', html)
    assert "The evidence: 1 table" in html and "Show the evidence" not in html
    assert 'class="headerlink"' not in html


def test_chapter_numbers_parts_and_contents() -> None:
    html = make()
    assert '<p class="fb-part-title">Metrics</p>' in html
    contents = html[html.index('class="fb-contents') : html.index("</nav>")]
    assert 'href="#notebooks--02_c">2. The chapter</a>' in contents
    assert contents.index("Intro") < contents.index("Metrics") < contents.index("2. The chapter")
    assert "Instructor edition" in html


def test_student_edition_has_no_solution_text_code_or_output() -> None:
    instructor, student = make(), make(student=True)
    assert "SECRET ANSWER" in instructor and "SECRET OUTPUT" in instructor
    for secret in ("SECRET ANSWER", "SECRET OUTPUT", "Solution to", 'class="solution'):
        assert secret not in student
    assert "Compute it." in student  # the exercise stays
    assert 'data-solutions-removed="1"' in student and "Student edition" in student
    assert pdf._solution_problems(student, student=True) == []
    assert pdf._solution_problems(instructor.replace('"instructor"', '"student"'), student=True)


def test_print_css_keeps_tables_and_figures_whole() -> None:
    css = pdf.PRINT_CSS
    rule = re.search(r"\n(table, figure[^{]*)\{([^}]*)\}", css)
    assert rule is not None and "break-inside: avoid" in rule.group(2)
    for selector in ("table", "figure", "img", ".fairbook-vega-figure"):
        assert selector in rule.group(1)
    assert "size: A4" in css and "counter(page)" in css
    assert re.search(r"\.fb-doc \{\{? ?break-before: page", css.replace("{{", "{"))
    assert "overflow: visible !important" in css  # nothing cut by a scroll box
    assert "thead { display: table-header-group; }" in css


def test_toc_parts_and_assemble(tmp_path: Path) -> None:
    html_dir = tmp_path / "html"
    for doc, page in PAGES:
        (html_dir / doc).parent.mkdir(parents=True, exist_ok=True)
        (html_dir / f"{doc}.html").write_text(page, encoding="utf-8")
    toc = tmp_path / "_toc.yml"
    toc.write_text(
        "format: jb-book\nroot: book/intro\nparts:\n"
        "  - caption: Metrics\n    numbered: 1\n    chapters:\n      - file: notebooks/02_c\n",
        encoding="utf-8",
    )
    assert pdf.toc_parts(toc) == PARTS
    out = pdf.assemble(html_dir, tmp_path / "pdf" / "book.html", toc=toc)
    assert 'src="../html/_images/fig.png"' in out.read_text("utf-8")
    (html_dir / "notebooks" / "02_c.html").unlink()
    with pytest.raises(FileNotFoundError, match="notebooks/02_c"):
        pdf.assemble(html_dir, tmp_path / "pdf" / "book.html", toc=toc)


def hand_pdf(pages: int, count: int | None = None) -> bytes:
    """A minimal PDF written by hand: `pages` page objects under one /Pages node."""
    kids = " ".join(f"{n + 3} 0 R" for n in range(pages))
    objects = [
        "<</Type /Catalog /Pages 2 0 R>>",
        f"<</Type /Pages /Kids [{kids}] /Count {pages if count is None else count}>>",
        *["<</Type /Page /Parent 2 0 R /MediaBox [0 0 595 842]>>"] * pages,
    ]
    body = "".join(f"{n} 0 obj\n{o}\nendobj\n" for n, o in enumerate(objects, start=1))
    return f"%PDF-1.4\n{body}trailer\n<</Root 1 0 R>>\n%%EOF\n".encode()


def test_page_count_of_hand_written_pdfs(tmp_path: Path) -> None:
    assert pdf.page_count(hand_pdf(1)) == 1
    path = tmp_path / "three.pdf"
    path.write_bytes(hand_pdf(3))
    assert pdf.page_count(path) == 3
    with pytest.raises(ValueError, match="page tree counts 4"):
        pdf.page_count(hand_pdf(3, count=4))
    with pytest.raises(ValueError, match="not a PDF"):
        pdf.page_count(b"<html></html>")
    # pages only in compressed object streams: the /Count alone
    assert pdf.page_count(b"%PDF-1.5\n1 0 obj <</Type /Pages /Count 7 /Kids []>> endobj") == 7
    with pytest.raises(ValueError, match="no page"):
        pdf.page_count(b"%PDF-1.4\n%%EOF")


def test_check_pdf_reports_missing_short_and_mismatched(tmp_path: Path) -> None:
    assert "make pdf" in pdf.check_pdf(tmp_path / "none.pdf")[0]
    path = tmp_path / "book.pdf"
    path.write_bytes(hand_pdf(2))
    assert pdf.check_pdf(path) == []
    assert "fewer than 5" in pdf.check_pdf(path, min_pages=5)[0]
    path.with_suffix(".json").write_text('{"pages": 3, "problems": []}', encoding="utf-8")
    assert "recorded 3" in pdf.check_pdf(path)[0]


needs_chromium = pytest.mark.skipif(
    chromium_binary() is None or importlib.util.find_spec("playwright") is None,
    reason="needs chromium and playwright",
)


@needs_chromium
def test_a_tiny_book_prints_to_a_pdf(tmp_path: Path) -> None:
    html_dir = tmp_path / "html"
    long_text = "".join(f"<p>Paragraph {i} of the chapter.</p>" for i in range(80))
    wide = "<table><tr>" + "".join(f"<td>column_{i}_wide_cell</td>" for i in range(30))
    # no MathJax here; the chart's script fails as a chart without its Vega files does
    failing = (
        '<script>document.getElementById("fairbook-vega-0").textContent = '
        '"the chart\'s scripts did not load";</script>'
    )
    chapter = re.sub(r"<script>var base[^<]*</script>", failing, CHAPTER)
    chapter = chapter.replace("<p>Compute it.</p>", long_text + wide + "</tr></table>")
    pages = [
        (doc, re.sub(r"<script[^>]*>[^<]*[Mm]ath[Jj]ax[^<]*</script>", "", page))
        for doc, page in [("book/intro", INTRO), ("notebooks/02_c", chapter)]
    ]
    for doc, page in pages:
        (html_dir / doc).parent.mkdir(parents=True, exist_ok=True)
        (html_dir / f"{doc}.html").write_text(page, encoding="utf-8")
    toc = tmp_path / "_toc.yml"
    toc.write_text(
        "root: book/intro\nparts:\n  - caption: Metrics\n    chapters:\n"
        "      - file: notebooks/02_c\n",
        encoding="utf-8",
    )
    result = pdf.build_pdf(html_dir, tmp_path / "pdf" / "book.pdf", toc=toc, student=True)
    # title, contents, intro, then the chapter over at least two pages
    assert result.pages >= 5
    assert result.solutions_removed == 1 and result.zoomed >= 1
    assert result.charts == 1 and result.charts_drawn == 0  # no Vega here: reported
    assert result.problems == ["1 of 1 charts did not draw"]
    assert pdf.page_count(result.pdf) == result.pages
    shots = tmp_path / "shots"
    problems = pdf.check_pdf(result.pdf, screenshots=shots)
    assert problems == [f"{result.pdf}: 1 of 1 charts did not draw"]
    pngs = sorted(p.name for p in shots.iterdir())
    assert pngs == ["pdf-book-chapter.png", "pdf-book-wide-table.png"]
    assert all((shots / p).read_bytes().startswith(b"\x89PNG") for p in pngs)


def test_notebook_solutions_counts_the_chapters_solutions(tmp_path: Path) -> None:
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell(
            "````{exercise} E\n:label: ex-1\n\nCompute it.\n````\n\n"
            "````{solution} ex-1\n:class: dropdown\n\nSECRET ANSWER 42\n````"
        )
    ]
    page = make(student=True)
    assert pdf.notebook_solutions(tmp_path, page) is None  # no sources: not checked
    (tmp_path / "notebooks").mkdir()
    nbformat.write(nb, tmp_path / "notebooks" / "02_c.ipynb")
    assert pdf.notebook_solutions(tmp_path, page) == 1
