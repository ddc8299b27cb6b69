"""Slides per chapter (fairbook_book.tooling.slides): deck structure, index, a deck in Chromium."""

from __future__ import annotations

import base64
import re
import struct
import zlib
from pathlib import Path

import nbformat
import pytest

from fairbook_book.tooling import slides
from fairbook_book.tooling.pagecheck import chromium_binary

ROOT = Path(__file__).resolve().parents[3]
VENDOR = ROOT / "book" / "_vendor"


def _png(width: int = 40, height: int = 30) -> str:
    """A small grey PNG, base64 as a notebook stores it."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    png = b"\x89PNG\r\n\x1a\n" + chunk(
        b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    )
    png += chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    return base64.b64encode(png).decode()


def _figure_cell(caption: str, name: str, *, png: str | None = None):
    cell = nbformat.v4.new_code_cell(
        "fig, ax = plt.subplots()",
        outputs=[
            nbformat.v4.new_output(
                "display_data", data={"image/png": png or _png(), "text/plain": "<Figure>"}
            )
        ],
    )
    cell.metadata["mystnb"] = {"figure": {"caption": caption, "name": name}}
    return cell


KEY_RESULTS = (
    "```{admonition} Key results\n:class: tip key-results\n\n"
    "- OFI and DI disagree on 3 of 10 pairs.\n"
    "- The error in $x$ grows 26 times (see [the paper](https://example.org/p)).\n```\n"
)


def chapter(*, math: bool = True) -> nbformat.NotebookNode:
    """A small executed chapter: title, question, key results, two figures, a solution's
    figure, an uncaptioned plot."""
    kr = KEY_RESULTS if math else KEY_RESULTS.replace("$x$", "x")
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell(
            "# Small groups & MATCH\n\nA fairness audit compares *groups* of very different "
            "sizes (seed 003 {cite}`briscoe2024art`, {doc}`02_objective_fairness_index`).\n\n"
            "```{admonition} Learning goals\n- one\n```"
        ),
        nbformat.v4.new_code_cell("from fairbook_book.chapter_summary import show_key_results"),
        _figure_cell("Rates of *small* samples; the band is 95 %.", "fig-a"),
        nbformat.v4.new_code_cell(
            "plt.plot([1, 2])",
            outputs=[nbformat.v4.new_output("display_data", data={"image/png": _png()})],
        ),
        nbformat.v4.new_code_cell(
            "show_key_results(results)",
            outputs=[
                nbformat.v4.new_output(
                    "display_data",
                    data={
                        "application/papermill.record/text/markdown": kr,
                        "application/papermill.record/text/plain": "<Markdown>",
                    },
                    metadata={"scrapbook": {"name": "key-results", "mime_prefix": "x"}},
                ),
                nbformat.v4.new_output("display_data", data={"text/markdown": kr}),
            ],
        ),
        _figure_cell("OFI between every pair of groups.", "fig-b"),
        nbformat.v4.new_markdown_cell(
            "````{exercise}\n:label: ex-1\nPlot it.\n````\n\n"
            "```{solution-start} ex-1\n:class: dropdown\n```"
        ),
        _figure_cell("The solution's secret figure.", "fig-solution"),
        nbformat.v4.new_markdown_cell("```{solution-end}\n```"),
    ]
    return nb


def _sections(deck: str) -> list[str]:
    return re.findall(r"<section\b.*?</section>", deck, flags=re.S)


def test_deck_structure() -> None:
    deck = slides.chapter_slides(chapter(), name="03_small_groups")
    sections = _sections(deck)
    roles = [re.search(r'data-fb-role="([\w-]+)"', s).group(1) for s in sections]
    assert roles == ["title", "key-results", "figure", "figure", "end"]
    assert 'content="5"' in deck  # 2 + key results + 2 figures
    title, key, fig_a, fig_b, end = sections
    assert "Chapter 3" in title and "Small groups &amp; MATCH" in title
    assert "compares <em>groups</em> of very different sizes (seed 003, chapter 2)." in title
    assert "briscoe" not in deck and "Learning goals" not in title
    assert "<li>OFI and DI disagree on 3 of 10 pairs.</li>" in key
    assert "$x$" in key and "(see the paper)" in key
    assert "<figcaption><strong>Figure 1.</strong> Rates of <em>small</em> samples" in fig_a
    assert "data:image/png;base64," in fig_a and 'id="fig-a"' in fig_a
    assert "Figure 2.</strong> OFI between every pair of groups." in fig_b
    assert "secret" not in deck  # a figure inside a solution is not projected
    assert 'href="../html/notebooks/03_small_groups.html"' in end
    # scripts and styles by relative path only; nothing fetched from the network
    assert re.findall(r'<script[^>]*src="([^"]+)"', deck) == [
        "mathjax/es5/tex-mml-chtml.js",
        "reveal/reveal.js",
    ]
    assert re.findall(r'<link[^>]*href="([^"]+)"', deck) == [
        "reveal/reveal.css",
        "reveal/theme/white.css",
    ]
    assert not re.search(r'(src|href)="(https?:)?//', deck)
    assert "http" not in deck


def test_deck_without_math_loads_no_mathjax_and_outline() -> None:
    nb = chapter(math=False)
    assert "tex-mml-chtml" not in slides.chapter_slides(nb, name="03_x")
    assert slides.slide_outline(nb) == {
        "title": "Small groups & MATCH",
        "key_results": 1,
        "figures": 2,
        "slides": 5,
    }


def test_key_results_come_from_the_call_not_the_import() -> None:
    nb = chapter()
    nb.cells[4].outputs = []  # the calling cell without output: the notebook was not run
    with pytest.raises(slides.SlidesError, match="no markdown output"):
        slides.chapter_content(nb, name="03_x")
    del nb.cells[4]
    with pytest.raises(slides.SlidesError, match="no cell calls show_key_results"):
        slides.chapter_content(nb, name="03_x")


def test_no_title_is_an_error() -> None:
    nb = chapter()
    nb.cells[0].source = "Just text."
    with pytest.raises(slides.SlidesError, match="no '# title'"):
        slides.chapter_content(nb, name="03_x")


def _fake_vendor(root: Path) -> Path:
    for file in slides.REVEAL_FILES:
        (root / "slides" / "reveal" / file).parent.mkdir(parents=True, exist_ok=True)
        (root / "slides" / "reveal" / file).write_text("/* reveal */")
    mathjax = root / "static" / "vendor" / "mathjax"
    (mathjax / "es5" / "output" / "chtml" / "fonts" / "woff-v2").mkdir(parents=True)
    (mathjax / "es5" / "tex-mml-chtml.js").write_text("/* mathjax */")
    (mathjax / "LICENSE").write_text("Apache")
    return root


def test_write_slides_and_index(tmp_path: Path) -> None:
    executed, out = tmp_path / "executed", tmp_path / "slides"
    executed.mkdir()
    nbformat.write(chapter(), executed / "03_small_groups.ipynb")
    nbformat.write(chapter(math=False), executed / "10_verdict.ipynb")
    (executed / "kernels.json").write_text("{}")
    out.mkdir()
    (out / "04_gone.html").write_text("stale")
    lines: list[str] = []
    decks = slides.write_slides(
        executed, out, vendor=_fake_vendor(tmp_path / "v"), echo=lines.append
    )
    assert [(d.name, d.slides, d.figures) for d in decks] == [
        ("03_small_groups", 5, 2),
        ("10_verdict", 5, 2),
    ]
    assert lines == [
        "[slides] 03_small_groups: 5 slides (2 figures)",
        "[slides] 10_verdict: 5 slides (2 figures)",
    ]
    assert sorted(p.name for p in out.glob("*.html")) == [
        "03_small_groups.html",
        "10_verdict.html",
        "index.html",
    ]
    assert (out / "reveal" / "reveal.js").exists() and (out / "reveal" / "LICENSE").exists()
    assert (out / "mathjax" / "es5" / "tex-mml-chtml.js").exists()  # 03 has math
    index = (out / "index.html").read_text()
    assert 'href="03_small_groups.html"' in index and 'href="10_verdict.html"' in index
    assert "5 slides, 2 figures" in index and "<script" not in index


def test_write_slides_needs_the_vendored_reveal(tmp_path: Path) -> None:
    nbformat.write(chapter(), tmp_path / "03_x.ipynb")
    with pytest.raises(slides.SlidesError, match="make vendor"):
        slides.write_slides(tmp_path, tmp_path / "out", vendor=tmp_path / "nothing")


def test_main_reports_a_missing_book(tmp_path: Path, capsys) -> None:
    assert slides.main(["--executed", str(tmp_path), "--out", str(tmp_path / "o")]) == 2
    assert "no executed chapters" in capsys.readouterr().err


@pytest.mark.skipif(chromium_binary() is None, reason="no chromium")
@pytest.mark.skipif(
    not (VENDOR / "slides" / "reveal" / "reveal.js").exists()
    or not (VENDOR / "static" / "vendor" / "mathjax" / "es5" / "tex-mml-chtml.js").exists(),
    reason="no vendored reveal.js or MathJax (make vendor)",
)
def test_check_slides_in_chromium(tmp_path: Path) -> None:
    executed, out = tmp_path / "executed", tmp_path / "slides"
    executed.mkdir()
    nbformat.write(chapter(), executed / "03_small_groups.ipynb")
    slides.write_slides(executed, out, vendor=VENDOR)
    shots = tmp_path / "shots"
    assert slides.check_slides(out, executed_dir=executed, screenshots=shots) == []
    assert sorted(p.name for p in shots.iterdir()) == [
        "slides-03_small_groups-2.png",
        "slides-03_small_groups-3.png",
    ]
    # break it: an image that does not load, a script from the network, one slide too many
    deck = out / "03_small_groups.html"
    text = deck.read_text()
    text = re.sub(r'src="data:image/png;base64,[^"]+"', 'src="missing.png"', text, count=1)
    text = text.replace("</head>", '<script src="https://cdn.example.org/x.js"></script></head>')
    text = text.replace(
        '<section class="fb-end"', '<section>extra</section>\n<section class="fb-end"'
    )
    deck.write_text(text)
    problems = slides.check_slides(out, executed_dir=executed)
    joined = "\n".join(problems)
    assert "went online: https://cdn.example.org/x.js" in joined
    assert "1 of 2 images did not load" in joined
    assert "6 slides, the deck says 5" in joined
    assert all(p.startswith("03_small_groups.html: ") for p in problems)
