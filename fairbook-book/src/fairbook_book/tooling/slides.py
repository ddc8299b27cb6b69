"""Slides a lecturer can project offline: one reveal.js deck per chapter, from the built chapter.

Each deck is made from the **executed** chapter (``_build/executed/notebooks/NN_topic.ipynb``),
so it shows this build's numbers and figures, never typed copies:

1. a title slide: the chapter's title and its question (the chapter's first paragraph);
2. a **Key results** slide: the sentences of the chapter's Key results box, read from the
   output of the cell that calls :func:`fairbook_book.chapter_summary.show_key_results`;
3. one slide per figure: the PNG output of every cell with a figure caption
   (``metadata.mystnb.figure.caption``), the caption under the image; figures inside an
   exercise's solution are left out (the student edition's cut,
   :func:`fairbook_book.tooling.editions.student_edition`), so a projected deck gives no
   answer away;
4. a last slide pointing to the chapter's page in the built book.

A deck has ``2 + 1 + figures`` slides. The images are embedded as ``data:`` URIs; reveal.js
(vendored from npm into ``book/_vendor/slides/reveal`` by ``make vendor``) is copied next to
the decks and loaded by a relative path, so ``_build/slides`` works from a USB stick with no
network: nothing is fetched from a CDN and the theme (``white``) carries its fonts inline.

Math in the sentences (``$x$``) is typeset by the book's vendored MathJax, copied next to the
decks (``mathjax/``) only when a deck has math, so a projected formula reads as it does in
the book; decks without math load no MathJax. MyST roles are reduced to their text
(``{doc}`06_fit_variance``` becomes "chapter 6", citations are dropped), markdown emphasis and
code become HTML, and links keep their text only.

:func:`write_slides` writes every chapter's deck and an ``index.html``; :func:`check_slides`
is the page check's look at them in headless Chromium. Run it as
``python -m fairbook_book.tooling.slides --out _build/slides`` (``--check`` also checks the decks).

Examples
--------
>>> import nbformat
>>> nb = nbformat.v4.new_notebook()
>>> nb.cells = [
...     nbformat.v4.new_markdown_cell("# Small groups\\n\\nAre *small* groups treated fairly?"),
...     nbformat.v4.new_code_cell("show_key_results(results)", outputs=[
...         nbformat.v4.new_output("display_data", data={
...             "text/markdown": "```{admonition} Key results\\n- Ten of 12 hold.\\n```"})]),
... ]
>>> deck = chapter_slides(nb, name="03_small_groups")
>>> deck.count("<section"), "Ten of 12 hold." in deck, "<em>small</em>" in deck
(3, True, True)
>>> slide_outline(nb)
{'title': 'Small groups', 'key_results': 1, 'figures': 0, 'slides': 3}
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "Deck",
    "SlidesError",
    "check_slides",
    "chapter_content",
    "chapter_slides",
    "inline_html",
    "main",
    "slide_outline",
    "write_slides",
]

#: Where ``make vendor`` puts reveal.js (``reveal/``); MathJax is the book's own copy.
DEFAULT_VENDOR = Path("book") / "_vendor"
REVEAL_FILES = ("reveal.js", "reveal.css", "theme/white.css", "LICENSE")
MATHJAX_FILES = ("es5/tex-mml-chtml.js", "es5/output/chtml/fonts/woff-v2", "LICENSE")
#: The chapter's page, relative to a deck in ``_build/slides``.
DEFAULT_PAGE_URL = "../html/notebooks/{name}.html"
#: The slide size reveal.js lays out (16:9, scaled to the screen).
SLIDE_SIZE = (1280, 720)
_CHAPTER = re.compile(r"^(\d\d)_\w+$")


class SlidesError(ValueError):
    """A chapter cannot give a deck (no title, no Key results), or the vendored files are
    missing."""


# ---------------------------------------------------------------------------------------------
# inline markdown -> HTML

_INLINE = re.compile(
    r"(?P<math>(?<![\\$])\$(?!\$)[^$\n]+?(?<!\\)\$)"
    r"|\{(?P<role>[\w:-]+)\}`(?P<role_text>[^`]*)`"
    r"|`(?P<code>[^`]+)`"
    r"|\[(?P<link>[^\]]+)\]\((?P<url>[^)\s]*)\)"
)
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_EM = re.compile(r"(?<![*\w])\*(?=\S)(.+?)(?<=\S)\*(?![*\w])")
_TARGET = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$", re.S)


def _plain(text: str) -> str:
    out = html.escape(text, quote=False)
    out = _STRONG.sub(r"<strong>\1</strong>", out)
    return _EM.sub(r"<em>\1</em>", out)


def _role(name: str, text: str) -> str:
    if name in {"cite", "cite:p", "cite:t", "footcite", "numref"} and "<" not in text:
        return ""
    found = _TARGET.match(text)
    if found and found.group("text"):
        return html.escape(found.group("text"), quote=False)
    if name == "math":
        return html.escape(f"${text}$", quote=False)
    if name == "doc":
        stem = text.rstrip("/").rsplit("/", 1)[-1]
        chapter = _CHAPTER.match(stem)
        return f"chapter {int(chapter.group(1))}" if chapter else html.escape(stem, quote=False)
    return html.escape(text, quote=False)


def inline_html(text: str) -> str:
    """One line of the book's MyST markdown as HTML for a slide.

    ``$...$`` math is kept (escaped) for MathJax; ``*em*``, ``**strong**`` and ```code```
    become tags; a link keeps its text; a MyST role gives its text (``{doc}`` of a chapter
    gives "chapter N", a citation nothing).

    Parameters
    ----------
    text : str
        Markdown of one paragraph or sentence.

    Returns
    -------
    str
        HTML, safe to put inside an element.

    Examples
    --------
    >>> inline_html("*fair* or **unfair** at $x < 1$ ({doc}`06_fit_variance`)")
    '<em>fair</em> or <strong>unfair</strong> at $x &lt; 1$ (chapter 6)'
    >>> inline_html("Seed 003 {cite}`briscoe2024art` and [the audit](09_audit.md) & `fairbook`")
    'Seed 003 and the audit &amp; <code>fairbook</code>'
    """
    parts: list[str] = []
    at = 0
    for match in _INLINE.finditer(text):
        parts.append(_plain(text[at : match.start()]))
        if match.group("math"):
            parts.append(html.escape(match.group("math"), quote=False))
        elif match.group("role"):
            rendered = _role(match.group("role"), match.group("role_text"))
            if not rendered and parts and parts[-1].endswith(" "):
                parts[-1] = parts[-1][:-1]  # "text {cite}`x`." -> "text."
            parts.append(rendered)
        elif match.group("code") is not None:
            parts.append(f"<code>{html.escape(match.group('code'), quote=False)}</code>")
        else:
            parts.append(inline_html(match.group("link")))
        at = match.end()
    parts.append(_plain(text[at:]))
    return " ".join("".join(parts).split())


def _has_math(text: str) -> bool:
    return any(m.group("math") for m in _INLINE.finditer(text))


# ---------------------------------------------------------------------------------------------
# what a chapter gives


@dataclass(frozen=True)
class Figure:
    """One figure of a chapter: its PNG (base64, as stored in the notebook) and caption."""

    png: str
    caption: str
    name: str = ""


@dataclass(frozen=True)
class ChapterContent:
    """What a deck shows: title, question, Key results sentences, figures."""

    title: str
    question: str
    key_results_title: str
    key_results: tuple[str, ...]
    figures: tuple[Figure, ...]

    @property
    def slides(self) -> int:
        """Title + Key results + one per figure + the page."""
        return 3 + len(self.figures)

    @property
    def has_math(self) -> bool:
        texts = [self.title, self.question, *self.key_results]
        texts += [figure.caption for figure in self.figures]
        return any(_has_math(text) for text in texts)


def _source(cell: Mapping[str, Any]) -> str:
    source = cell.get("source", "")
    return source if isinstance(source, str) else "".join(source)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else "".join(value)


def _title_and_question(cells: Sequence[Mapping[str, Any]], name: str) -> tuple[str, str]:
    title = None
    for cell in cells:
        if cell.get("cell_type") != "markdown":
            continue
        for block in re.split(r"\n\s*\n", _source(cell).strip()):
            block = block.strip()
            if title is None:
                heading = re.match(r"#\s+(.+)", block)
                if heading:
                    title = heading.group(1).strip()
                    rest = block[heading.end() :].strip()
                    if rest and not rest.startswith(("```", ":::", "(", "#", "<")):
                        return title, " ".join(rest.split())
                continue
            if block and not block.startswith(("```", ":::", "#", "<", "|", "(", "-", "*")):
                return title, " ".join(block.split())
    if title is None:
        raise SlidesError(f"{name}: no '# title' in its markdown cells")
    return title, ""


_SHOW_KEY_RESULTS = re.compile(r"\bshow_key_results\s*\(")


def _key_results(cells: Sequence[Mapping[str, Any]], name: str) -> tuple[str, tuple[str, ...]]:
    from fairbook_book.chapter_summary import GLUE_NAME

    for cell in cells:
        if cell.get("cell_type") != "code" or not _SHOW_KEY_RESULTS.search(_source(cell)):
            continue
        markdown = None
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            glued = output.get("metadata", {}).get("scrapbook", {}).get("name") == GLUE_NAME
            key = "application/papermill.record/text/markdown" if glued else "text/markdown"
            if key in data:
                markdown = _text(data[key])
                if glued:
                    break
        if markdown is None:
            raise SlidesError(
                f"{name}: the cell that calls show_key_results has no markdown output "
                "(is the notebook executed?)"
            )
        return _parse_box(markdown, name)
    raise SlidesError(f"{name}: no cell calls show_key_results (no Key results to show)")


def _parse_box(markdown: str, name: str) -> tuple[str, tuple[str, ...]]:
    title = "Key results"
    findings: list[str] = []
    for line in markdown.splitlines():
        head = re.match(r"\s*`{3,}\s*\{admonition\}\s*(.*)", line)
        if head:
            title = head.group(1).strip() or title
        elif line.startswith("- "):
            findings.append(line[2:].strip())
        elif findings and line.startswith("  ") and line.strip():
            findings[-1] += " " + line.strip()
    if not findings:
        raise SlidesError(f"{name}: the Key results box has no sentences")
    return title, tuple(findings)


def _figures(cells: Sequence[Mapping[str, Any]]) -> tuple[Figure, ...]:
    figures = []
    for cell in cells:
        if cell.get("cell_type") != "code":
            continue
        figure = cell.get("metadata", {}).get("mystnb", {}).get("figure", {})
        caption = figure.get("caption") if isinstance(figure, Mapping) else None
        if not caption:
            continue
        for output in cell.get("outputs", []):
            png = output.get("data", {}).get("image/png")
            if png:
                png = "".join(_text(png).split())
                figures.append(Figure(png, " ".join(str(caption).split()), figure.get("name", "")))
                break
    return tuple(figures)


def _notebook(executed_notebook) -> tuple[Mapping[str, Any], str]:
    if isinstance(executed_notebook, Mapping):
        return executed_notebook, "notebook"
    path = Path(executed_notebook)
    return json.loads(path.read_text("utf-8")), path.stem


def chapter_content(executed_notebook, *, name: str | None = None) -> ChapterContent:
    """What the deck of `executed_notebook` shows (see the module docstring).

    Parameters
    ----------
    executed_notebook : path or mapping
        The executed chapter (a path to its ``.ipynb``, or the notebook as a dict or
        ``nbformat.NotebookNode``).
    name : str, keyword-only
        The chapter's name for messages (default: the file's stem).

    Returns
    -------
    ChapterContent

    Raises
    ------
    SlidesError
        No ``# title``, no cell that calls ``show_key_results`` or no output of it.

    Examples
    --------
    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook()
    >>> nb.cells = [nbformat.v4.new_markdown_cell("# T\\n\\nWhy?")]
    >>> try:
    ...     chapter_content(nb, name="01_t")
    ... except SlidesError as exc:
    ...     print(exc)
    01_t: no cell calls show_key_results (no Key results to show)
    """
    from fairbook_book.tooling.editions import student_edition

    notebook, stem = _notebook(executed_notebook)
    name = name or stem
    cells = student_edition(notebook, name=name).cells  # no solution's figure on a slide
    title, question = _title_and_question(cells, name)
    kr_title, findings = _key_results(cells, name)
    return ChapterContent(title, question, kr_title, findings, _figures(cells))


def slide_outline(executed_notebook, *, name: str | None = None) -> dict[str, Any]:
    """The deck's outline: title and how many slides of each kind (what the check expects).

    Examples
    --------
    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook()
    >>> nb.cells = [nbformat.v4.new_markdown_cell("# T\\n\\nWhy?"),
    ...     nbformat.v4.new_code_cell("show_key_results(k)", outputs=[nbformat.v4.new_output(
    ...         "display_data", data={"text/markdown": "- One.\\n- Two."})])]
    >>> slide_outline(nb)
    {'title': 'T', 'key_results': 1, 'figures': 0, 'slides': 3}
    """
    content = chapter_content(executed_notebook, name=name)
    return {
        "title": content.title,
        "key_results": 1,
        "figures": len(content.figures),
        "slides": content.slides,
    }


# ---------------------------------------------------------------------------------------------
# the deck

_CSS = """
.reveal { font-size: 34px; }
.reveal h2 { font-size: 1.6em; text-transform: none; }
.reveal h3 { font-size: 1.15em; text-transform: none; margin-bottom: 0.5em; }
.reveal .fb-chapter { font-size: 0.6em; color: #666; margin: 0 0 0.4em; }
.reveal .fb-question { text-align: left; line-height: 1.35; color: #333; }
.reveal .fb-key-results ul { display: block; margin: 0; }
.reveal .fb-key-results li { text-align: left; line-height: 1.3; margin-bottom: 0.45em; }
.reveal .fb-figure figure { margin: 0; }
.reveal .fb-figure img { display: block; margin: 0 auto; width: auto; height: 540px;
  max-width: 100%; object-fit: contain; border: 0; box-shadow: none; }
.reveal .fb-figure figcaption { font-size: 0.55em; line-height: 1.3; color: #333;
  text-align: left; margin-top: 0.4em; }
.reveal .fb-end p { font-size: 0.7em; }
.reveal .fb-end .fb-small { font-size: 0.5em; color: #666; }
.reveal code { font-size: 0.9em; }
"""


def _fit(chars: int, *, comfortable: int, base: float = 1.0, least: float = 0.45) -> str:
    """A font size (em) for `chars` characters of text on one slide."""
    size = base if chars <= comfortable else base * (comfortable / chars) ** 0.5
    return f"{max(least, min(base, size)):.2f}em"


def chapter_slides(
    executed_notebook,
    *,
    name: str | None = None,
    page_url: str = DEFAULT_PAGE_URL,
    reveal: str = "reveal",
    mathjax: str = "mathjax",
) -> str:
    """One chapter's reveal.js deck, as a single HTML page (images embedded).

    Parameters
    ----------
    executed_notebook : path or mapping
        The executed chapter.
    name : str, keyword-only
        The chapter's name ``NN_topic`` (default: the file's stem).
    page_url : str, keyword-only
        The chapter's page, ``{name}`` filled in; relative to the deck by default
        (:data:`DEFAULT_PAGE_URL`).
    reveal, mathjax : str, keyword-only
        Folders, relative to the deck, of the copied reveal.js and MathJax
        (:func:`write_slides` copies them there).

    Returns
    -------
    str
        The HTML page: scripts and styles by relative path only.

    Raises
    ------
    SlidesError
        As :func:`chapter_content`.

    Examples
    --------
    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook()
    >>> nb.cells = [nbformat.v4.new_markdown_cell("# T\\n\\nWhy?"),
    ...     nbformat.v4.new_code_cell("show_key_results(k)", outputs=[nbformat.v4.new_output(
    ...         "display_data", data={"text/markdown": "- One is $x$."})])]
    >>> deck = chapter_slides(nb, name="01_t")
    >>> 'src="reveal/reveal.js"' in deck, 'src="mathjax/es5/tex-mml-chtml.js"' in deck
    (True, True)
    """
    content = chapter_content(executed_notebook, name=name)
    name = name or _notebook(executed_notebook)[1]
    number = _CHAPTER.match(name)
    label = f"Chapter {int(number.group(1))}" if number else name
    url = page_url.format(name=name)
    e = html.escape
    title_html = inline_html(content.title)
    sections = [
        f'<section class="fb-title" data-fb-role="title">\n'
        f'<p class="fb-chapter">{e(label)} · fairbook</p>\n<h2>{title_html}</h2>\n'
        + (
            f'<p class="fb-question" style="font-size: '
            f'{_fit(len(content.question), comfortable=450, base=0.8, least=0.45)}">'
            f"{inline_html(content.question)}</p>\n"
            if content.question
            else ""
        )
        + "</section>"
    ]
    chars = sum(len(f) for f in content.key_results)
    items = "\n".join(f"<li>{inline_html(f)}</li>" for f in content.key_results)
    sections.append(
        '<section class="fb-key-results" data-fb-role="key-results">\n'
        f"<h3>{inline_html(content.key_results_title)}</h3>\n"
        f'<ul style="font-size: {_fit(chars, comfortable=900, base=0.85, least=0.45)}">\n'
        f"{items}\n</ul>\n</section>"
    )
    for number_, figure in enumerate(content.figures, start=1):
        ident = f' id="{e(figure.name)}"' if figure.name else ""
        alt = e(" ".join(re.sub(r"\$([^$]*)\$", r"\1", figure.caption).split()))
        sections.append(
            f'<section class="fb-figure" data-fb-role="figure"{ident}>\n<figure>\n'
            f'<img src="data:image/png;base64,{figure.png}" alt="{alt}">\n'
            f"<figcaption><strong>Figure {number_}.</strong> "
            f"{inline_html(figure.caption)}</figcaption>\n</figure>\n</section>"
        )
    sections.append(
        '<section class="fb-end" data-fb-role="end">\n'
        f"<h3>The whole chapter</h3>\n<p>{title_html}: the worked example, the explorer, the "
        "exercises and the replication evidence are in the book:</p>\n"
        f'<p><a href="{e(url)}">{e(url)}</a></p>\n'
        f'<p class="fb-small">Slides built from the executed chapter '
        f"(<code>{e(name)}.ipynb</code>) by <code>fairbook_book.tooling.slides</code>; "
        "every number and figure is this build's.</p>\n</section>"
    )
    math = ""
    if content.has_math:
        math = (
            "<script>window.MathJax = {tex: {inlineMath: [['$', '$'], ['\\\\(', '\\\\)']]}, "
            "options: {enableMenu: false}, startup: {typeset: true}};</script>\n"
            f'<script defer src="{e(mathjax)}/es5/tex-mml-chtml.js"></script>\n'
        )
    width, height = SLIDE_SIZE
    body = "\n".join(sections)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="fairbook_book.tooling.slides">
<meta name="fairbook-slides" content="{content.slides}">
<meta name="fairbook-figures" content="{len(content.figures)}">
<title>{e(label)}: {e(content.title)} (slides)</title>
<link rel="stylesheet" href="{e(reveal)}/reveal.css">
<link rel="stylesheet" href="{e(reveal)}/theme/white.css">
<style>{_CSS}</style>
{math}</head>
<body>
<div class="reveal"><div class="slides">
{body}
</div></div>
<script src="{e(reveal)}/reveal.js"></script>
<script>
Reveal.initialize({{hash: true, slideNumber: "c/t", controls: true, progress: true,
  center: true, width: {width}, height: {height}, margin: 0.04, transition: "slide"}});
</script>
</body>
</html>
"""


# ---------------------------------------------------------------------------------------------
# every chapter


@dataclass(frozen=True)
class Deck:
    """One written deck."""

    name: str
    title: str
    path: Path
    slides: int
    figures: int

    def line(self) -> str:
        """``02_x: 5 slides (2 figures)``."""
        return f"{self.name}: {self.slides} slides ({self.figures} figures)"


def _copy_tree(source: Path, target: Path, files: Sequence[str], what: str) -> None:
    missing = [f for f in files if not (source / f).exists()]
    if missing:
        raise SlidesError(
            f"vendored {what} missing in {source}: {', '.join(missing)} (run `make vendor`)"
        )
    if target.exists():
        shutil.rmtree(target)
    for file in files:
        (target / file).parent.mkdir(parents=True, exist_ok=True)
        if (source / file).is_dir():
            shutil.copytree(source / file, target / file)
        else:
            shutil.copy2(source / file, target / file)


def _index(decks: Sequence[Deck]) -> str:
    e = html.escape
    rows = "\n".join(
        f'<li><a href="{e(d.path.name)}">{e(d.name[:2])} · {inline_html(d.title)}</a> '
        f"<span>{d.slides} slides, {d.figures} figures</span></li>"
        for d in decks
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="fairbook_book.tooling.slides">
<title>fairbook: slides per chapter</title>
<style>
body {{ font-family: sans-serif; max-width: 48em; margin: 2em auto; padding: 0 1em;
  line-height: 1.5; }}
li {{ margin: 0.4em 0; }} span {{ color: #666; font-size: 0.9em; }}
</style>
</head>
<body>
<h1>fairbook: slides per chapter</h1>
<p>One deck per chapter: its question, its Key results and its figures, from this build of
the book. They work offline (open a deck in a browser; arrow keys move, <kbd>F</kbd> is full
screen, <kbd>S</kbd> the speaker view, <kbd>Esc</kbd> the overview). The whole chapters are
in the book, <a href="../html/index.html">../html/index.html</a>.</p>
<ol>
{rows}
</ol>
</body>
</html>
"""


def write_slides(
    executed_dir: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    *,
    vendor: str | os.PathLike[str] = DEFAULT_VENDOR,
    page_url: str = DEFAULT_PAGE_URL,
    echo: Callable[[str], None] | None = None,
) -> list[Deck]:
    """Write ``out_dir/NN_topic.html`` for every executed chapter, and ``index.html``.

    reveal.js is copied from ``vendor/slides/reveal`` to ``out_dir/reveal`` and, when a deck
    has math, MathJax from ``vendor/static/vendor/mathjax`` to ``out_dir/mathjax``; decks of
    chapters no longer in `executed_dir` are removed.

    Parameters
    ----------
    executed_dir : path
        The executed chapters (``_build/executed/notebooks``): every ``NN_*.ipynb``.
    out_dir : path
        Where the decks go (``_build/slides``).
    vendor : path, keyword-only
        The vendored JavaScript (``book/_vendor``, written by ``make vendor``).
    page_url : str, keyword-only
        As in :func:`chapter_slides`.
    echo : callable, keyword-only
        Called with one line per deck (e.g. ``print``).

    Returns
    -------
    list of Deck

    Raises
    ------
    SlidesError
        No executed chapter, a chapter without a title or Key results, or the vendored
        reveal.js (or MathJax, when needed) missing.

    Examples
    --------
    >>> import tempfile
    >>> try:
    ...     write_slides(tempfile.mkdtemp(), tempfile.mkdtemp())
    ... except SlidesError as exc:
    ...     print(str(exc).split(" in ")[0])
    no executed chapters
    """
    executed_dir, out_dir, vendor = Path(executed_dir), Path(out_dir), Path(vendor)
    chapters = sorted(p for p in executed_dir.glob("*.ipynb") if _CHAPTER.match(p.stem))
    if not chapters:
        raise SlidesError(f"no executed chapters in {executed_dir} (run `make html`)")
    contents = {p.stem: chapter_content(p) for p in chapters}
    out_dir.mkdir(parents=True, exist_ok=True)
    _copy_tree(vendor / "slides" / "reveal", out_dir / "reveal", REVEAL_FILES, "reveal.js")
    if any(c.has_math for c in contents.values()):
        _copy_tree(
            vendor / "static" / "vendor" / "mathjax", out_dir / "mathjax", MATHJAX_FILES, "MathJax"
        )
    elif (out_dir / "mathjax").exists():
        shutil.rmtree(out_dir / "mathjax")
    for old in out_dir.glob("*.html"):
        if _CHAPTER.match(old.stem) and old.stem not in contents:
            old.unlink()
    decks = []
    for path in chapters:
        target = out_dir / f"{path.stem}.html"
        target.write_text(chapter_slides(path, page_url=page_url), encoding="utf-8")
        content = contents[path.stem]
        deck = Deck(path.stem, content.title, target, content.slides, len(content.figures))
        decks.append(deck)
        if echo:
            echo(f"[slides] {deck.line()}")
    (out_dir / "index.html").write_text(_index(decks), encoding="utf-8")
    return decks


# ---------------------------------------------------------------------------------------------
# the check

_DECK_STATE = """async () => {
  const imgs = Array.from(document.querySelectorAll('img'));
  await Promise.all(imgs.map(i => i.decode().catch(() => null)));
  if (window.MathJax && window.MathJax.startup && window.MathJax.startup.promise) {
    await window.MathJax.startup.promise;
  }
  const meta = n => (document.querySelector(`meta[name="${n}"]`) || {}).content;
  Reveal.configure({transition: 'none'});
  const height = Reveal.getConfig().height;
  const sections = Array.from(document.querySelectorAll('.reveal .slides > section'));
  const overflow = [];
  sections.forEach((s, i) => {
    Reveal.slide(i);
    if (s.scrollHeight > height + 2) overflow.push([i + 1, s.scrollHeight]);
  });
  Reveal.slide(0);
  return {
    total: Reveal.getTotalSlides(),
    expected: Number(meta('fairbook-slides')),
    figures: Number(meta('fairbook-figures')),
    roles: sections.map(s => s.dataset.fbRole || ''),
    images: imgs.length,
    broken: imgs.filter(i => !(i.complete && i.naturalWidth > 0)).length,
    math: document.querySelectorAll('mjx-container').length,
    rawMath: /\\$[^$\\n]+\\$/.test(document.querySelector('.reveal .slides').innerText),
    hasMathJax: !!document.querySelector('script[src*="tex-mml-chtml"]'),
    overflow: overflow,
  };
}"""


def _deck_problems(state: Mapping[str, Any], expected: int | None) -> list[str]:
    problems = []
    figures = state["figures"]
    want = ["title", "key-results", *(["figure"] * figures), "end"]
    if state["total"] != state["expected"]:
        problems.append(f"{state['total']} slides, the deck says {state['expected']}")
    if expected is not None and state["total"] != expected:
        problems.append(f"{state['total']} slides, the executed chapter gives {expected}")
    if state["roles"] != want:
        problems.append(f"slides in the order {state['roles']}, expected {want}")
    if state["images"] != figures:
        problems.append(f"{state['images']} images for {figures} figures")
    if state["broken"]:
        problems.append(f"{state['broken']} of {state['images']} images did not load")
    if state["hasMathJax"] and (not state["math"] or state["rawMath"]):
        problems.append("math not typeset by MathJax")
    for number, px in state["overflow"]:
        problems.append(f"slide {number} overflows ({px} px of {SLIDE_SIZE[1]})")
    return problems


def check_slides(
    out_dir: str | os.PathLike[str],
    *,
    binary: str | None = None,
    executed_dir: str | os.PathLike[str] | None = None,
    screenshots: str | os.PathLike[str] | None = None,
    timeout_s: float = 60,
) -> list[str]:
    """Problems of the decks in `out_dir`, each opened in headless Chromium (empty: all ok).

    For every ``NN_topic.html``: reveal.js is initialised (``Reveal.isReady()``); it has
    ``2 + 1 + figures`` slides in the order title, Key results, figures, page (and, with
    `executed_dir`, as many as the executed chapter gives, and a deck for every chapter);
    no console error, no page error, no failed request and no request that leaves the
    computer; every image loaded (``naturalWidth > 0``); math typeset where MathJax is
    loaded; no slide's content taller than the slide. ``index.html`` links every deck.

    Parameters
    ----------
    out_dir : path
        The decks (``_build/slides``).
    binary : str, keyword-only
        Chromium (default :func:`fairbook_book.tooling.pagecheck.chromium_binary`).
    executed_dir : path, keyword-only
        The executed chapters, to count the expected slides again from them.
    screenshots : path, keyword-only
        Folder for PNGs of each deck's Key results slide and first figure slide.
    timeout_s : float, keyword-only
        How long one deck may take to be ready.

    Returns
    -------
    list of str
        ``"NN_topic.html: problem"`` lines.

    Examples
    --------
    >>> import tempfile
    >>> check_slides(tempfile.mkdtemp())[0].split(": ")[1]
    'no slide decks (make slides writes them)'
    """
    from playwright.sync_api import sync_playwright

    from fairbook_book.tooling.pagecheck import chromium_binary

    out_dir = Path(out_dir)
    decks = sorted(p for p in out_dir.glob("*.html") if _CHAPTER.match(p.stem))
    if not decks:
        return [f"{out_dir}: no slide decks (make slides writes them)"]
    problems: list[str] = []
    expected: dict[str, int] = {}
    if executed_dir is not None:
        for path in sorted(Path(executed_dir).glob("*.ipynb")):
            if _CHAPTER.match(path.stem):
                expected[path.stem] = chapter_content(path).slides
        for name in sorted(set(expected) - {d.stem for d in decks}):
            problems.append(f"{name}.html: no deck for the executed chapter")
    index = out_dir / "index.html"
    if not index.exists():
        problems.append("index.html: missing")
    else:
        text = index.read_text("utf-8")
        problems += [f"index.html: no link to {d.name}" for d in decks if f'"{d.name}"' not in text]
    binary = binary or chromium_binary()
    if binary is None:
        return [*problems, "chromium is not installed: the decks were not opened"]
    if screenshots is not None:
        Path(screenshots).mkdir(parents=True, exist_ok=True)
    width, height = SLIDE_SIZE
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=binary,
            args=["--no-sandbox", "--allow-file-access-from-files", "--disable-gpu"],
        )
        try:
            for deck in decks:
                found = _check_deck(
                    browser, deck, expected.get(deck.stem), screenshots, (width, height), timeout_s
                )
                problems += [f"{deck.name}: {p}" for p in found]
        finally:
            browser.close()
    return problems


def _check_deck(browser, deck: Path, expected, screenshots, size, timeout_s) -> list[str]:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.set_default_timeout(timeout_s * 1000)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"console error: {m.text}")
            if m.type == "error" else None)  # fmt: skip
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    page.on("requestfailed", lambda r: errors.append(f"request failed: {r.url[:120]}"))

    def route(r):
        if r.request.url.startswith(("file:", "data:", "blob:", "about:")):
            r.continue_()
        else:
            errors.append(f"went online: {r.request.url[:120]}")
            r.abort()

    page.route("**/*", route)
    try:
        page.goto(deck.resolve().as_uri(), wait_until="load")
        try:
            page.wait_for_function(
                "window.Reveal && window.Reveal.isReady && window.Reveal.isReady()"
            )
        except Exception:
            return [*errors, f"reveal.js not ready after {timeout_s:g} s"]
        state = page.evaluate(_DECK_STATE)
        problems = errors + _deck_problems(state, expected)
        if screenshots is not None:
            shots = [1] + ([2] if state["figures"] else [])
            for index in shots:
                page.evaluate(f"Reveal.slide({index})")
                page.wait_for_timeout(200)
                page.screenshot(path=str(Path(screenshots) / f"slides-{deck.stem}-{index + 1}.png"))
        return problems
    finally:
        page.close()


# ---------------------------------------------------------------------------------------------
# command line


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m fairbook_book.tooling.slides [--executed DIR] [--out DIR] [--check]``."""
    parser = argparse.ArgumentParser(
        prog="python -m fairbook_book.tooling.slides",
        description="One reveal.js deck per chapter (offline) from the executed chapters.",
    )
    parser.add_argument("--executed", default="_build/executed/notebooks", help="executed chapters")
    parser.add_argument("--out", default="_build/slides", help="folder for the decks")
    parser.add_argument("--vendor", default=str(DEFAULT_VENDOR), help="vendored JavaScript")
    parser.add_argument(
        "--check", action="store_true", help="open every deck in headless Chromium afterwards"
    )
    parser.add_argument("--screenshots", help="with --check: folder for PNGs of two slides each")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    try:
        decks = write_slides(args.executed, args.out, vendor=args.vendor, echo=print)
    except SlidesError as exc:
        print(f"slides: {exc}", file=sys.stderr)
        return 2
    print(
        f"[slides] {len(decks)} decks, {sum(d.slides for d in decks)} slides in {args.out} "
        f"({time.perf_counter() - t0:.1f} s); open {Path(args.out) / 'index.html'}"
    )
    if not args.check:
        return 0
    t0 = time.perf_counter()
    problems = check_slides(args.out, executed_dir=args.executed, screenshots=args.screenshots)
    for problem in problems:
        print(f"[slides] FAILED {problem}")
    print(f"[slides] checked {len(decks)} decks in {time.perf_counter() - t0:.1f} s")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
