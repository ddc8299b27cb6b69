"""Slides to lecture from (fairbook_book.tooling.slides): every deck's slides and speaker notes,
the worked example as a derivation, the in-class question, the theorem deck, links that
survive copying the folder alone, and the decks in Chromium."""

from __future__ import annotations

import base64
import json
import re
import shutil
import struct
import zlib
from pathlib import Path

import nbformat
import pytest

from fairbook_book.tooling import slides
from fairbook_book.tooling.pagecheck import chromium_binary

ROOT = Path(__file__).resolve().parents[3]
VENDOR = ROOT / "book" / "_vendor"
THEORY = ROOT / "book" / "small_groups_theory.md"
EXECUTED = ROOT / "_build" / "executed" / "notebooks"


def _png(width: int = 40, height: int = 30) -> str:
    """A small grey PNG at 100 dpi, base64 as a notebook stores it."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    png = b"\x89PNG\r\n\x1a\n" + chunk(
        b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    )
    png += chunk(b"pHYs", struct.pack(">IIB", 3937, 3937, 1))
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
IDEA = (
    "## The idea in code\n\nA group's marginal benefit is\n\n"
    "$$\\mathcal{B} = \\frac{FP - FN}{n},$$\n\nits *benefit* minus its expected benefit."
)
WORKED = 'tp, fn, fp, tn = 3, 1, 2, 4  # the counts\nprint(f"B = {(fp - fn) / 10:.3f}")'
ANSWER = "Smoothing pulls every gap towards zero by the factor n over n plus lambda, always."


def _worked_cell(code: str = WORKED, output: str = "B = 0.100\n"):
    cell = nbformat.v4.new_code_cell(
        code, outputs=[nbformat.v4.new_output("stream", name="stdout", text=output)]
    )
    cell.metadata["tags"] = ["worked-example"]
    return cell


def chapter(*, math: bool = True) -> nbformat.NotebookNode:
    """A small executed chapter: title, question, goals, a worked example and its check, key
    results, two figures, two exercises (one an open question) with solutions, a solution's
    figure, an uncaptioned plot."""
    kr = KEY_RESULTS if math else KEY_RESULTS.replace("$x$", "x")
    idea = IDEA if math else "## The idea in code\n\nA group's marginal benefit, by hand."
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell(
            "# Small groups & MATCH\n\nA fairness audit compares *groups* of very different "
            "sizes (seed 003 {cite}`briscoe2024art`, {doc}`02_objective_fairness_index`)."
        ),
        nbformat.v4.new_markdown_cell(
            "```{admonition} Learning goals\n:class: tip\n\nAfter this chapter you can\n\n"
            "- compute a MATCH p-value;\n- explain holes.\n```"
        ),
        nbformat.v4.new_code_cell("from fairbook_book.chapter_summary import show_key_results"),
        nbformat.v4.new_markdown_cell(idea),
        _worked_cell(),
        nbformat.v4.new_code_cell(
            "assert b == compute('B', cm)",
            outputs=[nbformat.v4.new_output("stream", name="stdout", text="The library agrees.\n")],
        ),
        nbformat.v4.new_markdown_cell("MATCH then asks whether a gap is real."),
        _figure_cell("Rates of *small* samples; the band is 95 %.", "fig-a"),
        nbformat.v4.new_markdown_cell("The band narrows like one over the root of n."),
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
        nbformat.v4.new_markdown_cell("Three things to notice in the box."),
        _figure_cell("OFI between every pair of groups.", "fig-b"),
        nbformat.v4.new_markdown_cell("## Exercises"),
        nbformat.v4.new_markdown_cell(
            "````{exercise} Plot it\n:label: ex-1\nPlot the rates.\n````\n\n"
            "```{solution-start} ex-1\n:class: dropdown\n```"
        ),
        _figure_cell("The solution's secret figure.", "fig-solution"),
        nbformat.v4.new_markdown_cell("```{solution-end}\n```"),
        nbformat.v4.new_markdown_cell(
            "````{exercise} Open question: can smoothing hide a gap?\n:label: ex-2\n\n"
            "What does smoothing do to a real gap of a group of five?\n````\n\n"
            f"````{{solution}} ex-2\n:class: dropdown\n\n{ANSWER}\n````"
        ),
    ]
    return nb


def _sections(deck: str) -> list[str]:
    return re.findall(r"<section\b.*?</section>", deck, flags=re.S)


def _roles(deck: str) -> list[str]:
    return [re.search(r'data-fb-role="([\w-]+)"', s).group(1) for s in _sections(deck)]


def _without_notes(section: str) -> str:
    return re.sub(r'<aside class="notes">.*?</aside>', "", section, flags=re.S)


def _notes(section: str) -> str:
    found = re.search(r'<aside class="notes">(.*?)</aside>', section, flags=re.S)
    return found.group(1) if found else ""


def test_deck_structure_and_notes() -> None:
    deck = slides.chapter_slides(chapter(), name="03_small_groups")
    sections = _sections(deck)
    assert _roles(deck) == [
        "title",
        "derivation",
        "code",
        "key-results",
        "figure",
        "figure",
        "question",
        "end",
    ]
    assert len(sections) >= 6 and 'content="8"' in deck
    # every slide has speaker notes, from the chapter's text
    assert all(_notes(s).strip() for s in sections)
    title, derivation, code, key, fig_a, fig_b, question, end = sections
    assert "Chapter 3" in title and "Small groups &amp; MATCH" in title
    assert "compares <em>groups</em> of very different sizes (seed 003, chapter 2)." in title
    assert "briscoe" not in deck and "Learning goals" not in _without_notes(title)
    assert "compute a MATCH p-value;" in _notes(title)
    # the derivation: its heading, its display math for MathJax, the check in the notes
    assert "<h3>The idea in code</h3>" in derivation
    assert '<div class="fb-math">$$\\mathcal{B} = \\frac{FP - FN}{n},$$</div>' in derivation
    assert "The library agrees." in _notes(derivation)
    assert "MATCH then asks whether a gap is real." in _notes(derivation)
    # the code, marked up, with its output; the comments in the notes
    assert '<pre class="fb-pre"' in code and '<code class="language-python">' in code
    assert '<span class="fb-comment"># the counts</span>' in code
    assert "B = 0.100" in _without_notes(code) and "the counts" in _notes(code)
    assert "<li>OFI and DI disagree on 3 of 10 pairs.</li>" in key
    assert "$x$" in key and "(see the paper)" in key
    assert "Three things to notice in the box." in _notes(key)
    assert "<figcaption><strong>Figure 1.</strong> Rates of <em>small</em> samples" in fig_a
    assert "data:image/png;base64," in fig_a and 'id="fig-a"' in fig_a
    assert "The band narrows like one over the root of n." in _notes(fig_a)
    assert "Figure 2.</strong> OFI between every pair of groups." in fig_b
    assert "secret" not in deck  # a figure inside a solution is not projected
    # the in-class question: the open question, its answer only in the notes
    assert "can smoothing hide a gap?" in question and "ex-2" in question
    assert ANSWER in _notes(question)
    assert ANSWER not in _without_notes(question)
    assert deck.count(ANSWER) == 1
    # the end: no relative link out of the slides folder, the page's place as text
    assert "_build/html/notebooks/03_small_groups.html" in end and "href" not in end
    assert "Plot it" in _notes(end)  # the chapter's other exercises
    # scripts and styles by relative path only; nothing fetched from the network
    assert re.findall(r'<script[^>]*src="([^"]+)"', deck) == [
        "mathjax/es5/tex-mml-chtml.js",
        "reveal/reveal.js",
    ]
    assert re.findall(r'<link[^>]*href="([^"]+)"', deck) == [
        "reveal/reveal.css",
        "reveal/theme/white.css",
    ]
    assert not re.search(r'(src|href)="(https?:)?//', deck) and "../" not in deck
    assert "http" not in deck


def test_book_url_links_the_page_and_must_be_absolute() -> None:
    deck = slides.chapter_slides(chapter(), name="03_x", book_url="https://example.org/book/")
    end = _sections(deck)[-1]
    assert 'href="https://example.org/book/notebooks/03_x.html"' in end
    with pytest.raises(slides.SlidesError, match="absolute"):
        slides.chapter_slides(chapter(), name="03_x", book_url="../html")


def test_deck_without_math_loads_no_mathjax_and_outline() -> None:
    nb = chapter(math=False)
    assert "tex-mml-chtml" not in slides.chapter_slides(nb, name="03_x")
    outline = slides.slide_outline(nb)
    assert outline["title"] == "Small groups & MATCH"
    assert outline["figures"] == 2 and outline["slides"] == 8 and outline["left_out"] == 0


def test_long_output_gets_its_own_slide_and_long_derivation_two() -> None:
    nb = chapter()
    code = "\n".join(f"x{i} = {i}  # step {i}" for i in range(24))
    nb.cells[4] = _worked_cell(code, "".join(f"line {i}\n" for i in range(12)))
    assert _roles(slides.chapter_slides(nb, name="03_x"))[1:4] == ["derivation", "code", "output"]
    nb = chapter()
    sentence = "The rate is the share of people with $x$ in the cell. "
    nb.cells[3].source = "## Idea\n\n" + "\n\n".join([sentence * 6] * 4)
    roles = _roles(slides.chapter_slides(nb, name="03_x"))
    assert roles[1:4] == ["derivation", "derivation", "code"]


def test_a_figure_too_tall_is_left_to_the_book() -> None:
    nb = chapter()
    nb.cells[7] = _figure_cell("A very tall figure.", "fig-tall", png=_png(400, 2000))
    content = slides.chapter_content(nb, name="03_x")
    assert [f.name for f in content.shown] == ["fig-b"]
    assert content.figures[0].dpi == 100 and not content.figures[0].fits
    deck = slides.chapter_slides(nb, name="03_x")
    assert "fig-tall" not in deck and "A very tall figure." in _notes(_sections(deck)[-1])
    # a small figure is shown larger, at most MAX_FIGURE_SCALE times
    figure = content.shown[0]
    assert figure.scale == slides.MAX_FIGURE_SCALE
    assert f'width="{round(40 * slides.MAX_FIGURE_SCALE)}"' in deck


def test_key_results_come_from_the_call_not_the_import() -> None:
    nb = chapter()
    nb.cells[10].outputs = []  # the calling cell without output: the notebook was not run
    with pytest.raises(slides.SlidesError, match="no markdown output"):
        slides.chapter_content(nb, name="03_x")
    del nb.cells[10]
    with pytest.raises(slides.SlidesError, match="no cell calls show_key_results"):
        slides.chapter_content(nb, name="03_x")


def test_no_title_is_an_error() -> None:
    nb = chapter()
    nb.cells[0].source = "Just text."
    with pytest.raises(slides.SlidesError, match="no '# title'"):
        slides.chapter_content(nb, name="03_x")


def _labelled_statements(text: str) -> list[str]:
    """The labels of the theorems, propositions, corollaries and lemmas of a MyST page,
    counted without the module."""
    found = []
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if re.match(r"^`{3,}\{prf:(theorem|proposition|corollary|lemma)\}", line):
            label = lines[number + 1].strip()
            assert label.startswith(":label:")
            found.append(label.split(":label:")[1].strip())
    return found


@pytest.mark.skipif(not THEORY.exists(), reason="no book/small_groups_theory.md")
def test_theorem_deck_has_one_slide_per_labelled_statement() -> None:
    text = THEORY.read_text("utf-8")
    labels = _labelled_statements(text)
    assert len(labels) >= 9
    deck = slides.theory_slides(THEORY)
    sections = _sections(deck)
    statements = [s for s in sections if 'data-fb-role="statement"' in s]
    assert [re.search(r'id="([^"]+)"', s).group(1) for s in statements] == labels
    assert _roles(deck) == ["title", *["statement"] * len(labels), "end"]
    assert all(_notes(s).strip() for s in sections)
    theorems = [re.search(r"<h3>(Theorem \d+)", s) for s in statements]
    assert [t.group(1) for t in theorems if t] == [f"Theorem {k}" for k in range(1, 10)]
    size = statements[0]
    assert "$|\\mathcal{M}(n)| = \\mathcal{N}(n) = \\binom{n+3}{3}" in size
    assert "Briscoe 2024, Theorem 4.1" in size and "stars and bars" in _notes(size)
    assert "stars and bars" not in _without_notes(size)  # the proof only in the notes
    # a {prf:ref} is named as the book numbers it
    assert "the counts of Theorem 3 hold" in deck
    assert "tex-mml-chtml" in deck and "_build/html/book/small_groups_theory.html" in deck


def test_theory_content_without_statement_is_an_error() -> None:
    with pytest.raises(slides.SlidesError, match="no labelled theorem"):
        slides.theory_content(text="# T\n\nNothing.\n")


def _fake_vendor(root: Path) -> Path:
    for file in slides.REVEAL_FILES:
        (root / "slides" / "reveal" / file).parent.mkdir(parents=True, exist_ok=True)
        (root / "slides" / "reveal" / file).write_text("/* reveal */")
    mathjax = root / "static" / "vendor" / "mathjax"
    (mathjax / "es5" / "output" / "chtml" / "fonts" / "woff-v2").mkdir(parents=True)
    (mathjax / "es5" / "tex-mml-chtml.js").write_text("/* mathjax */")
    (mathjax / "LICENSE").write_text("Apache")
    return root


THEORY_PAGE = """# The maths

Why small groups are hard.

```{prf:theorem} Size — Book, Theorem 4.1
:label: thm-size
$N(n) = \\binom{n+3}{3}$.
```

```{prf:proposition} Holes, corrected — Book, Theorem 4.3
:label: prop-holes
By {prf:ref}`thm-size`, few.
```
"""


def test_write_slides_index_and_links(tmp_path: Path) -> None:
    executed, out = tmp_path / "executed", tmp_path / "slides"
    executed.mkdir()
    nbformat.write(chapter(), executed / "03_small_groups.ipynb")
    nbformat.write(chapter(math=False), executed / "10_verdict.ipynb")
    (executed / "kernels.json").write_text("{}")
    theory = tmp_path / "theory.md"
    theory.write_text(THEORY_PAGE)
    out.mkdir()
    (out / "04_gone.html").write_text("stale")
    lines: list[str] = []
    decks = slides.write_slides(
        executed, out, vendor=_fake_vendor(tmp_path / "v"), theory=theory, echo=lines.append
    )
    assert [(d.name, d.slides, d.figures) for d in decks] == [
        ("03_small_groups", 8, 2),
        ("10_verdict", 8, 2),
        ("small_groups_theory", 4, 0),
    ]
    assert lines[0] == (
        "[slides] 03_small_groups: 8 slides (2 figures, the book's PNGs: no figures kept by its "
        "build)"
    )
    assert sorted(p.name for p in out.glob("*.html")) == [
        "03_small_groups.html",
        "10_verdict.html",
        "index.html",
        "small_groups_theory.html",
    ]
    assert (out / "reveal" / "reveal.js").exists() and (out / "reveal" / "LICENSE").exists()
    assert not (out / "reveal" / "plugin").exists()  # the notes plugin only when vendored
    assert (out / "mathjax" / "es5" / "tex-mml-chtml.js").exists()  # 03 has math
    index = (out / "index.html").read_text()
    assert 'href="03_small_groups.html"' in index and 'href="small_groups_theory.html"' in index
    assert "8 slides, 2 figures" in index and "<script" not in index
    assert "4 slides, 2 statements" in index
    assert slides.link_problems(out) == []
    # the folder copied alone: every link still resolves, none leaves it
    alone = tmp_path / "usb" / "slides"
    shutil.copytree(out, alone)
    assert slides.link_problems(alone) == []
    page = alone / "03_small_groups.html"
    page.write_text(page.read_text().replace("</body>", '<a href="../html/x.html">x</a></body>'))
    assert slides.link_problems(alone) == ["03_small_groups.html: link out of the folder: "
                                           "../html/x.html"]  # fmt: skip
    # with the book's address configured, the decks and the index link it absolutely
    slides.write_slides(
        executed, out, vendor=tmp_path / "v", theory=theory, book_url="https://example.org/fb"
    )
    assert 'href="https://example.org/fb/index.html"' in (out / "index.html").read_text()
    assert slides.link_problems(out) == []


def test_notes_plugin_is_loaded_when_vendored(tmp_path: Path) -> None:
    vendor = _fake_vendor(tmp_path / "v")
    plugin = vendor / "slides" / "reveal" / slides.REVEAL_NOTES_PLUGIN
    plugin.parent.mkdir(parents=True)
    plugin.write_text("/* notes */")
    executed = tmp_path / "executed"
    executed.mkdir()
    nbformat.write(chapter(), executed / "03_x.ipynb")
    slides.write_slides(executed, tmp_path / "out", vendor=vendor)
    deck = (tmp_path / "out" / "03_x.html").read_text()
    assert 'src="reveal/plugin/notes.js"' in deck and "plugins: [RevealNotes]" in deck
    assert (tmp_path / "out" / "reveal" / "plugin" / "notes.js").exists()


def test_write_slides_needs_the_vendored_reveal(tmp_path: Path) -> None:
    nbformat.write(chapter(), tmp_path / "03_x.ipynb")
    with pytest.raises(slides.SlidesError, match="make vendor"):
        slides.write_slides(tmp_path, tmp_path / "out", vendor=tmp_path / "nothing")


def test_main_reports_a_missing_book(tmp_path: Path, capsys) -> None:
    assert slides.main(["--executed", str(tmp_path), "--out", str(tmp_path / "o")]) == 2
    assert "no executed chapters" in capsys.readouterr().err


def _executed_chapters() -> list[Path]:
    found = []
    for path in sorted(EXECUTED.glob("[0-9][0-9]_*.ipynb")) if EXECUTED.exists() else []:
        cells = json.loads(path.read_text("utf-8"))["cells"]
        states = {c["metadata"].get("papermill", {}).get("status") for c in cells}
        if states <= {"completed", None}:  # a chapter being executed now is left alone
            found.append(path)
    return found


@pytest.mark.skipif(not _executed_chapters(), reason="no executed chapters (make html)")
@pytest.mark.parametrize("path", _executed_chapters(), ids=lambda p: p.stem)
def test_the_deck_check_may_skip_the_redraw_its_slides_are_the_same(path: Path) -> None:
    redrawn = slides.chapter_content(path)
    fast = slides.chapter_content(path, redraw=False)
    assert fast.roles == redrawn.roles and len(fast.shown) == len(redrawn.shown)
    assert [f.caption for f in fast.shown] == [f.caption for f in redrawn.shown]


@pytest.mark.skipif(not _executed_chapters(), reason="no executed chapters (make html)")
@pytest.mark.parametrize("path", _executed_chapters(), ids=lambda p: p.stem)
def test_every_built_chapter_gives_a_deck_to_lecture_from(path: Path) -> None:
    deck = slides.chapter_slides(path)
    sections = _sections(deck)
    roles = _roles(deck)
    assert len(sections) >= 6
    assert all(_notes(s).strip() for s in sections)
    for role in ("title", "derivation", "code", "key-results", "question", "end"):
        assert role in roles
    assert roles.count("derivation") + roles.count("code") + roles.count("output") <= 3
    # the worked example's code, as the chapter has it
    nb = json.loads(path.read_text("utf-8"))
    worked = next(c for c in nb["cells"] if "worked-example" in c["metadata"].get("tags", []))
    first_line = "".join(worked["source"]).splitlines()[0]
    code = sections[roles.index("code")]
    assert re.sub(r"<[^>]+>", "", code).count(slides.html.escape(first_line)) == 1
    # the answer is in the question's notes only
    question = sections[roles.index("question")]
    answer = re.sub(r"<[^>]+>", "", _notes(question))
    assert answer.strip() and "Answer" in answer
    visible = re.sub(r"<[^>]+>", "", _without_notes(question))
    sentences = [s for s in re.split(r"(?<=\.)\s", answer) if len(s) > 40]
    assert sentences and not any(s in visible for s in sentences)
    assert "../" not in deck


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
    theory = tmp_path / "theory.md"
    theory.write_text(THEORY_PAGE)
    slides.write_slides(executed, out, vendor=VENDOR, theory=theory)
    shots = tmp_path / "shots"
    measured: list[dict] = []
    assert (
        slides.check_slides(
            out, executed_dir=executed, theory=theory, screenshots=shots, measurements=measured
        )
        == []
    )
    assert sorted(p.name for p in shots.iterdir()) == [
        "slides-03_small_groups-2.png",
        "slides-03_small_groups-5.png",
        "slides-03_small_groups-7.png",
        "slides-small_groups_theory-2.png",
    ]
    # the 40-px test figures are shown MAX_FIGURE_SCALE times larger (reveal's margin aside)
    assert len(measured) == 2
    assert all(1.4 < m["scale"] <= slides.MAX_FIGURE_SCALE for m in measured)
    assert all(m["px_10pt"] == round(10 / 72 * 100 * m["scale"], 1) for m in measured)
    # break it: an image that does not load, a script from the network, one slide too many,
    # a slide without notes, the answer on the question's slide
    deck = out / "03_small_groups.html"
    text = deck.read_text()
    text = re.sub(r'src="data:image/png;base64,[^"]+"', 'src="missing.png"', text, count=1)
    text = text.replace("</head>", '<script src="https://cdn.example.org/x.js"></script></head>')
    text = text.replace(
        '<section class="fb-end"', '<section>extra</section>\n<section class="fb-end"'
    )
    text = text.replace("<h3>Open question", f"<p>{ANSWER}</p><h3>Open question")
    deck.write_text(text)
    problems = slides.check_slides(out, executed_dir=executed, theory=theory)
    joined = "\n".join(problems)
    assert "went online: https://cdn.example.org/x.js" in joined
    assert "loads from outside the folder: https://cdn.example.org/x.js" in joined
    assert "missing: missing.png" in joined
    assert "1 of 2 images did not load" in joined
    assert "9 slides, the deck says 8" in joined
    assert "slide 8 has no speaker notes" in joined
    assert "slide 7 shows its speaker notes (or the answer) on the slide" in joined
    assert all(p.startswith("03_small_groups.html: ") for p in problems)
    # the theorem deck must be there when its page is given
    (out / "small_groups_theory.html").unlink()
    assert "small_groups_theory.html: no deck for" in "\n".join(
        slides.check_slides(out, theory=theory)
    )
