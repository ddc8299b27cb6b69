"""Tests of fairbook_book.tooling.pagecheck on small hand-written pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairbook_book.tooling import pagecheck
from fairbook_book.tooling.pagecheck import check_book, check_html

# the shape of a Jupyter Book page: body > main > article.bd-article
PAGE = """<!DOCTYPE html><html><head><title>t</title>
<script>var x = "Traceback (most recent call last)";</script></head>
<body><nav>Navigation</nav><main><div class="bd-content"><article class="bd-article">
{content}
</article></div></main><footer>By the fairbook authors</footer></body></html>"""

TRACEBACK_OUTPUT = """
<div class="cell docutils container"><div class="cell_output docutils container">
<div class="output traceback highlight-ipythontb notranslate"><div class="highlight"><pre>
<span></span><span class="gt">------------------------------</span>
<span class="ne">ValueError</span>                                Traceback (most recent call last)
</pre></div></div></div></div>"""


def page(content: str) -> str:
    return PAGE.format(content=content)


def test_clean_page_passes() -> None:
    assert check_html(page("<h1>Title</h1><p>Some text, $5 and $6.</p>")) == []


def test_script_text_is_not_content() -> None:
    # the head's <script> mentions a traceback: not a problem
    assert check_html(page("<p>ok</p>")) == []


def test_traceback_detected() -> None:
    problems = check_html(page(TRACEBACK_OUTPUT))
    assert any("Python traceback" in p for p in problems)
    assert any("error output" in p for p in problems)


def test_traceback_in_raises_exception_cell_allowed() -> None:
    content = TRACEBACK_OUTPUT.replace(
        'class="cell docutils container"', 'class="cell tag_raises-exception docutils container"'
    )
    assert check_html(page(content)) == []


def test_nbconvert_error_output_detected() -> None:
    content = '<div class="output_area output_error"><pre>boom</pre></div>'
    assert check_html(page(content)) == ["error output (div.output_area.output_error)"]


def test_ansi_red_error_name_detected() -> None:
    content = (
        '<div class="cell_output"><pre><span class="ansi-red-fg">ZeroDivisionError</span>'
        ": division by zero</pre></div>"
    )
    problems = check_html(page(content))
    assert problems == ["ANSI-red error name in an output: ZeroDivisionError"]
    # red text that is not an error name is fine (e.g. a coloured warning count)
    assert check_html(page('<pre><span class="ansi-red-fg">3 failed</span></pre>')) == []


def test_papermill_banner_detected() -> None:
    content = '<p><span style="color:red">An Exception was encountered at "In [3]".</span></p>'
    assert any("papermill" in p for p in check_html(page(content)))


def test_empty_body_detected() -> None:
    assert check_html(page("   \n  ")) == ["empty page body"]
    assert check_html("<html><body>  </body></html>") == ["empty page body"]
    # without an <article>, <main> counts; without <main>, the body
    assert check_html("<html><body><main> </main><footer>x</footer></body></html>") == [
        "empty page body"
    ]
    assert check_html("<html><body><p>text</p></body></html>") == []


def test_double_dollar_left_in_text_is_unrendered_math() -> None:
    problems = check_html(page("<p>$$ x^2 $$</p>"))
    assert problems == ["unrendered math ($$ in the text): $$ x^2 $$"]
    # in code it is just code
    assert check_html(page("<pre><code>print('$$')</code></pre>")) == []


def test_raw_tex_left_in_text_only_checked_when_rendered() -> None:
    content = "<table><tr><td>$\\frac{TP}{n}$</td></tr></table>"
    assert check_html(page(content)) == []
    assert check_html(page(content), rendered=True) == [
        "unrendered math (TeX in the text): $\\frac{TP}{n}$"
    ]


def test_math_elements_must_be_typeset_when_rendered() -> None:
    raw = '<p><span class="math notranslate nohighlight">\\(x^2\\)</span></p>'
    done = (
        '<p><span class="math notranslate nohighlight"><mjx-container class="MathJax">'
        "<mjx-math>x</mjx-math></mjx-container></span></p>"
    )
    assert check_html(page(raw)) == []  # before MathJax ran, raw TeX is expected
    assert check_html(page(raw), rendered=True) == [
        "unrendered math: 1 of 1 math elements were not typeset by MathJax"
    ]
    assert check_html(page(done + raw.replace("x^2", "y")), rendered=True) == [
        "unrendered math: 1 of 2 math elements were not typeset by MathJax"
    ]
    assert check_html(page(done), rendered=True) == []


# ---- the book ------------------------------------------------------------------------------


@pytest.fixture
def html_book(tmp_path: Path) -> tuple[Path, Path]:
    html = tmp_path / "_build" / "html"
    (html / "book").mkdir(parents=True)
    (html / "notebooks").mkdir()
    (html / "book" / "intro.html").write_text(page("<h1>Intro</h1>"))
    (html / "notebooks" / "01_a.html").write_text(page(TRACEBACK_OUTPUT))
    toc = tmp_path / "_toc.yml"
    toc.write_text(
        "format: jb-book\nroot: book/intro\nparts:\n  - caption: P\n    chapters:\n"
        "      - file: notebooks/01_a\n      - file: notebooks/02_b\n"
    )
    return html, toc


def test_check_book_static(html_book: tuple[Path, Path]) -> None:
    html, toc = html_book
    results = check_book(html, toc=toc, use_chromium=False, echo=lambda *a, **k: None)
    by_doc = {r.doc: r for r in results}
    assert list(by_doc) == ["book/intro", "notebooks/01_a", "notebooks/02_b"]
    assert by_doc["book/intro"].ok
    assert any("traceback" in p for p in by_doc["notebooks/01_a"].problems)
    assert by_doc["notebooks/02_b"].problems == [f"missing page {html / 'notebooks/02_b.html'}"]


def test_pages_side_by_side_report_the_same_in_toc_order(html_book, capsys) -> None:
    html, toc = html_book
    quiet = dict(toc=toc, use_chromium=False, echo=lambda *a, **k: None)
    one = check_book(html, jobs=1, **quiet)
    three = check_book(html, jobs=3, **quiet)
    assert [(r.doc, r.problems) for r in three] == [(r.doc, r.problems) for r in one]
    with pytest.raises(ValueError, match="jobs"):
        check_book(html, jobs=0, **quiet)
    assert pagecheck.main([str(html), "--toc", str(toc), "--no-chromium", "--jobs", "0"]) == 2
    assert "jobs must be at least 1" in capsys.readouterr().err


def test_main_exit_status(html_book: tuple[Path, Path], capsys) -> None:
    html, toc = html_book
    assert pagecheck.main([str(html), "--toc", str(toc), "--no-chromium"]) == 1
    out = capsys.readouterr().out
    assert "FAILED notebooks/02_b" in out and "1/3 pages ok" in out
    (html / "notebooks" / "01_a.html").write_text(page("<p>fixed</p>"))
    (html / "notebooks" / "02_b.html").write_text(page("<p>new</p>"))
    assert pagecheck.main([str(html), "--toc", str(toc), "--no-chromium"]) == 0


def test_default_toc_is_the_staged_one(tmp_path: Path) -> None:
    html = tmp_path / "_build" / "html"
    html.mkdir(parents=True)
    assert pagecheck._default_toc(html) == Path("_toc.yml")
    staged = tmp_path / "_build" / "stage" / "_toc.yml"
    staged.parent.mkdir()
    staged.write_text("root: x\n")
    assert pagecheck._default_toc(html) == staged


def test_missing_chromium_is_reported(monkeypatch, html_book, capsys) -> None:
    html, toc = html_book
    monkeypatch.setattr(pagecheck, "chromium_binary", lambda: None)
    assert pagecheck.main([str(html), "--toc", str(toc)]) == 2
    assert "chromium is not installed" in capsys.readouterr().err


# ---- in Chromium ---------------------------------------------------------------------------

needs_chromium = pytest.mark.skipif(
    pagecheck.chromium_binary() is None, reason="chromium is not installed"
)

DYNAMIC = page(
    '<p id="p">static text</p><script>'
    'document.getElementById("p").textContent = "Traceback (most recent call last): from JS";'
    "</script>"
)
EMPTIED = page('<p id="p">only text</p><script>document.getElementById("p").remove();</script>')


@needs_chromium
def test_rendering_runs_scripts(tmp_path: Path) -> None:
    dynamic = tmp_path / "dynamic.html"
    dynamic.write_text(DYNAMIC)
    assert check_html(DYNAMIC) == []  # the static HTML looks fine
    dom = pagecheck.render(dynamic)
    assert "from JS" in dom
    assert any("Python traceback" in p for p in check_html(dom, rendered=True))
    emptied = tmp_path / "emptied.html"
    emptied.write_text(EMPTIED)
    assert check_html(pagecheck.render(emptied), rendered=True) == ["empty page body"]


@needs_chromium
def test_one_chromium_run_renders_and_saves_the_screenshot(tmp_path: Path) -> None:
    dynamic = tmp_path / "dynamic.html"
    dynamic.write_text(DYNAMIC)
    png = tmp_path / "shots" / "dynamic.png"
    dom = pagecheck.render(dynamic, screenshot_to=png)
    assert "from JS" in dom  # the same DOM as without the screenshot
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png.read_bytes()[16:20]), int.from_bytes(png.read_bytes()[20:24])
    assert (width, height) == pagecheck.WINDOW_SIZE


@needs_chromium
def test_check_book_in_chromium_with_screenshots(
    html_book: tuple[Path, Path], tmp_path: Path
) -> None:
    html, toc = html_book
    (html / "notebooks" / "02_b.html").write_text(DYNAMIC)
    shots = tmp_path / "shots"
    results = check_book(
        html, toc=toc, screenshots=shots, use_chromium=True, echo=lambda *a, **k: None
    )
    by_doc = {r.doc: r for r in results}
    assert by_doc["book/intro"].ok
    assert not by_doc["notebooks/01_a"].ok
    assert any("traceback" in p.lower() for p in by_doc["notebooks/02_b"].problems)
    png = shots / "book__intro.png"
    assert by_doc["book/intro"].screenshot == png.resolve()
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ---- static explorers (fairbook_book.charts): drawn, and every control changes the drawing

VEGA = Path(__file__).resolve().parents[3] / "book" / "_vendor" / "static" / "vendor" / "vega"


def _chart_page(tmp_path: Path, *, use_the_control: bool) -> Path:
    import altair as alt
    import pandas as pd

    from fairbook_book.charts import vega_chart

    grid = pd.DataFrame({"k": [1, 1, 2, 2], "x": [0, 1, 0, 1], "y": [0, 1, 1, 0]})
    k = alt.param(name="k", value=1, bind=alt.binding_range(min=1, max=2, step=1))
    chart = alt.Chart(grid).mark_line().encode(x="x", y="y").add_params(k)
    if use_the_control:
        chart = chart.transform_filter("datum.k == k")
    (tmp_path / "_static" / "vendor").mkdir(parents=True)
    (tmp_path / "_static" / "vendor" / "vega").symlink_to(VEGA)
    (tmp_path / "notebooks").mkdir()
    page = tmp_path / "notebooks" / "chart.html"
    page.write_text(f"<html><body><main>{vega_chart(chart).to_html()}</main></body></html>")
    return page


_NEEDS_CHROMIUM_AND_VEGA = pytest.mark.skipif(
    pagecheck.chromium_binary() is None or not VEGA.is_dir(),
    reason="needs chromium and the vendored Vega files (make vendor)",
)
_A_CONTROL_USED_OR_NOT = pytest.mark.parametrize(
    ("use_the_control", "expected"),
    [(True, []), (False, ["chart 1: moving k left the drawing unchanged"])],
)


@_NEEDS_CHROMIUM_AND_VEGA
@_A_CONTROL_USED_OR_NOT
def test_chart_controls_must_change_the_drawing(tmp_path, use_the_control, expected):
    page = _chart_page(tmp_path, use_the_control=use_the_control)
    assert pagecheck.check_charts(page) == expected
    assert not list(page.parent.glob(".*probe*"))  # the probe copy is removed


@_NEEDS_CHROMIUM_AND_VEGA
@_A_CONTROL_USED_OR_NOT
def test_the_page_check_probes_the_charts_in_its_phone_width_render(
    tmp_path, use_the_control, expected
):
    """The page check moves the controls in the render it makes at phone width anyway (after
    the readability probe measured): it finds what check_charts finds alone."""
    page = _chart_page(tmp_path, use_the_control=use_the_control)
    result = pagecheck._check_page("notebooks/chart", tmp_path, pagecheck.chromium_binary(), None)
    charts = [p for p in result.problems if p.startswith("chart")]
    assert charts == expected
    assert result.metrics["overflow_tables_400"] == 0  # the readability probe measured too
    assert not list(page.parent.glob(".*probe*"))  # both probe copies are removed


@pytest.mark.skipif(pagecheck.chromium_binary() is None, reason="chromium is not installed")
def test_a_chart_whose_scripts_are_missing_did_not_draw(tmp_path):
    from fairbook_book.charts import vega_chart

    page = tmp_path / "chart.html"
    spec = {"$schema": "https://vega.github.io/schema/vega-lite/v6.json", "mark": "point"}
    page.write_text(f"<html><body><main>{vega_chart(spec).to_html()}</main></body></html>")
    assert pagecheck.check_charts(page) == ["chart 1 did not draw"]


def test_pages_without_charts_are_not_probed(tmp_path):
    page = tmp_path / "plain.html"
    page.write_text("<html><body><main><p>no charts</p></main></body></html>")
    assert pagecheck.check_charts(page, binary="/nonexistent") == []


@needs_chromium
def test_screenshot_alone_saves_the_png(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(DYNAMIC)
    png = pagecheck.screenshot(page, tmp_path / "shots" / "page.png")
    assert png == (tmp_path / "shots" / "page.png").resolve()
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
