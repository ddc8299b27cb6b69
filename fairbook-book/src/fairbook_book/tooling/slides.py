"""Slides to lecture from: one reveal.js deck per chapter, and one for the small-groups theorems.

Each chapter's deck is made from the **executed** chapter
(``_build/executed/notebooks/NN_topic.ipynb``), so it shows this build's numbers, code output
and figures, never typed copies. In order, with the ``data-fb-role`` of each slide:

1. ``title``: the chapter's title and its question (the chapter's first paragraph);
2. the **worked example as a derivation**: ``derivation``, the markdown cell before the first
   cell tagged ``worked-example`` (its heading, prose and LaTeX math); ``code``, that cell's
   source in ``<pre><code>`` (comments, strings and keywords marked) with its printed output;
   and ``output``, the output on a slide of its own when code and output together would be
   too small to read;
3. ``key-results``: the sentences of the chapter's Key results box, read from the output of
   the cell that calls :func:`fairbook_book.chapter_summary.show_key_results`;
4. ``figure``: one slide per captioned figure (``metadata.mystnb.figure.caption``), the
   notebook's PNG scaled to the slide (up to :data:`MAX_FIGURE_SCALE` times its size, never
   below :data:`MIN_FIGURE_SCALE`: a figure too tall for that is named on the last slide and
   left to the book); figures inside an exercise's solution are left out (the student
   edition's cut, :func:`fairbook_book.tooling.editions.student_edition`);
5. ``question``: one **in-class question**, an ``{exercise}`` of the chapter (an "Open
   question" when there is one), its answer — the solution of the instructor edition, with its
   computed output — in the speaker notes only;
6. ``end``: where the whole chapter is: a link when the book's address is configured
   (``--book-url`` or ``html.baseurl`` in ``_config.yml``), else the page's place in the built
   book as text, so a deck copied alone has no broken link.

**Every slide has speaker notes** (``<aside class="notes">``), taken from the chapter's own
text: the learning goals, the text after the worked example, the code's comments, the
paragraph after the Key results or after a figure, the full caption, the solution. Open a
deck with ``?showNotes=true`` to see them under each slide, or press ``S`` for reveal.js's
speaker view when its notes plugin is vendored (``reveal/plugin/notes.js``, optional).

The deck of the appendix ``book/small_groups_theory.md`` (``small_groups_theory.html``) has a
title slide, one ``statement`` slide per labelled theorem, proposition, corollary or lemma
(the MyST ``{prf:...}`` directives, numbered per kind as the book numbers them), math
included, each with its source and its proof (or the text after it) in the notes, and an
``end`` slide.

Images are embedded as ``data:`` URIs; reveal.js (vendored from npm into
``book/_vendor/slides/reveal`` by ``make vendor``) is copied next to the decks and loaded by a
relative path, so ``_build/slides`` works from a USB stick with no network. Math is typeset
by the book's vendored MathJax, copied next to the decks (``mathjax/``) when a deck has math.
MyST roles are reduced to their text (``{doc}`06_fit_variance``` becomes "chapter 6",
``{prf:ref}`` a statement's number, citations are dropped), markdown emphasis and code become
HTML, and links keep their text only.

:func:`write_slides` writes every deck and an ``index.html``; :func:`check_slides` looks at
them: no link out of the folder, and in headless Chromium every slide's role, notes, images,
math and size. Run it as ``python -m fairbook_book.tooling.slides --out _build/slides``
(``--check`` also checks the decks).

Examples
--------
>>> import nbformat
>>> nb = nbformat.v4.new_notebook()
>>> code = nbformat.v4.new_code_cell("x = 2 + 1  # add\\nprint(x)", outputs=[
...     nbformat.v4.new_output("stream", name="stdout", text="3\\n")])
>>> code.metadata["tags"] = ["worked-example"]
>>> nb.cells = [
...     nbformat.v4.new_markdown_cell("# Small groups\\n\\nAre *small* groups treated fairly?"),
...     nbformat.v4.new_markdown_cell("## The idea in code\\n\\nAdd: $x = 2 + 1$."), code,
...     nbformat.v4.new_code_cell("show_key_results(results)", outputs=[
...         nbformat.v4.new_output("display_data", data={
...             "text/markdown": "```{admonition} Key results\\n- Ten of 12 hold.\\n```"})]),
...     nbformat.v4.new_markdown_cell("````{exercise} Sum\\n:label: ex-s\\n\\nWhat is 1 + 1?\\n"
...         "````\\n\\n````{solution} ex-s\\n:class: dropdown\\n\\nTwo.\\n````"),
... ]
>>> deck = chapter_slides(nb, name="03_small_groups")
>>> deck.count("<section"), deck.count('<aside class="notes">'), "<em>small</em>" in deck
(6, 6, True)
>>> slide_outline(nb)["roles"]
('title', 'derivation', 'code', 'key-results', 'question', 'end')
"""

from __future__ import annotations

import argparse
import base64
import dataclasses
import html
import io
import json
import keyword
import os
import re
import shutil
import struct
import sys
import time
import tokenize
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "Deck",
    "Slide",
    "SlidesError",
    "block_html",
    "book_url_from_config",
    "chapter_content",
    "chapter_slides",
    "check_slides",
    "inline_html",
    "link_problems",
    "main",
    "slide_outline",
    "theory_content",
    "theory_slides",
    "write_slides",
]

#: Where ``make vendor`` puts reveal.js (``reveal/``); MathJax is the book's own copy.
DEFAULT_VENDOR = Path("book") / "_vendor"
REVEAL_FILES = ("reveal.js", "reveal.css", "theme/white.css", "LICENSE")
#: Copied (and loaded, for the speaker view on ``S``) when ``make vendor`` put it there.
REVEAL_NOTES_PLUGIN = "plugin/notes.js"
MATHJAX_FILES = ("es5/tex-mml-chtml.js", "es5/output/chtml/fonts/woff-v2", "LICENSE")
#: The appendix of the small-groups chapter, and the name of its deck.
DEFAULT_THEORY = Path("book") / "small_groups_theory.md"
THEORY_NAME = "small_groups_theory"
#: The statements of the theory page that get a slide each (``{prf:<kind>}`` with ``:label:``).
STATEMENT_KINDS = ("theorem", "proposition", "corollary", "lemma")
#: The slide size reveal.js lays out (16:9, scaled to the screen).
SLIDE_SIZE = (1280, 720)
#: The box a figure is scaled into on its slide (px of the slide), and the bounds of the scale.
FIGURE_BOX = (1220, 590)
MAX_FIGURE_SCALE = 1.6
MIN_FIGURE_SCALE = 0.75
#: The smallest text of a figure redrawn for a slide (px of the 1280 × 720 slide).
PROJECTOR_TEXT_PX = 18.0
#: Code slides: the smallest code font (px) before the output moves to a slide of its own.
MIN_CODE_PX = 15.0
#: Derivations longer than this (characters of markdown) take two slides.
LONG_DERIVATION = 1100
_CHAPTER = re.compile(r"^(\d\d)_\w+$")


class SlidesError(ValueError):
    """A chapter cannot give a deck (no title, no Key results, no worked example, no
    exercise), the theory page has no statement, or the vendored files are missing."""


# ---------------------------------------------------------------------------------------------
# markdown -> HTML

_INLINE = re.compile(
    r"(?P<math>(?<![\\$])\$(?!\$)[^$\n]+?(?<!\\)\$)"
    r"|\{(?P<role>[\w:-]+)\}`(?P<role_text>[^`]*)`"
    r"|`(?P<code>[^`]+)`"
    r"|\[(?P<link>[^\]]+)\]\((?P<url>[^)\s]*)\)"
)
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_EM = re.compile(r"(?<![*\w])\*(?=\S)(.+?)(?<=\S)\*(?![*\w])")
_TARGET = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$", re.S)
_DISPLAY_MATH = re.compile(r"\$\$(.+?)\$\$", re.S)


def _plain(text: str) -> str:
    out = html.escape(text, quote=False)
    out = _STRONG.sub(r"<strong>\1</strong>", out)
    return _EM.sub(r"<em>\1</em>", out)


def _role(name: str, text: str, refs: Mapping[str, str]) -> str:
    if name in {"cite", "cite:p", "cite:t", "footcite"} and "<" not in text:
        return ""
    found = _TARGET.match(text)
    if found and found.group("text"):
        return html.escape(found.group("text"), quote=False)
    if name in {"prf:ref", "ref", "numref", "eq"} and text.strip() in refs:
        return html.escape(refs[text.strip()], quote=False)
    if name == "numref":
        return ""
    if name == "math":
        return html.escape(f"${text}$", quote=False)
    if name == "doc":
        stem = text.rstrip("/").rsplit("/", 1)[-1]
        chapter = _CHAPTER.match(stem)
        return f"chapter {int(chapter.group(1))}" if chapter else html.escape(stem, quote=False)
    return html.escape(text, quote=False)


def inline_html(text: str, *, refs: Mapping[str, str] | None = None) -> str:
    """One line of the book's MyST markdown as HTML for a slide.

    ``$...$`` math is kept (escaped) for MathJax; ``*em*``, ``**strong**`` and ```code```
    become tags; a link keeps its text; a MyST role gives its text (``{doc}`` of a chapter
    gives "chapter N", a citation nothing, ``{prf:ref}`` of a label in `refs` its name).

    Parameters
    ----------
    text : str
        Markdown of one paragraph or sentence.
    refs : mapping, keyword-only
        Label -> name of the statements a ``{prf:ref}`` may point to (``"Theorem 1"``).

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
    >>> inline_html("By {prf:ref}`thm-size`.", refs={"thm-size": "Theorem 1"})
    'By Theorem 1.'
    """
    refs = refs or {}
    parts: list[str] = []
    at = 0
    for match in _INLINE.finditer(text):
        parts.append(_plain(text[at : match.start()]))
        if match.group("math"):
            parts.append(html.escape(match.group("math"), quote=False))
        elif match.group("role"):
            rendered = _role(match.group("role"), match.group("role_text"), refs)
            if not rendered and parts and parts[-1].endswith(" "):
                parts[-1] = parts[-1][:-1]  # "text {cite}`x`." -> "text."
            parts.append(rendered)
        elif match.group("code") is not None:
            parts.append(f"<code>{html.escape(match.group('code'), quote=False)}</code>")
        else:
            parts.append(inline_html(match.group("link"), refs=refs))
        at = match.end()
    parts.append(_plain(text[at:]))
    return " ".join("".join(parts).split())


def _paragraph_html(text: str, refs: Mapping[str, str]) -> str:
    """A paragraph whose ``$$...$$`` math is set as display math between its sentences."""
    out, at = [], 0
    for match in _DISPLAY_MATH.finditer(text):
        before = inline_html(text[at : match.start()], refs=refs)
        if before:
            out.append(f"<p>{before}</p>")
        math = " ".join(match.group(1).split())
        out.append(f'<div class="fb-math">{html.escape(f"$${math}$$", quote=False)}</div>')
        at = match.end()
    rest = inline_html(text[at:], refs=refs)
    if rest:
        out.append(f"<p>{rest}</p>")
    return "\n".join(out)


_FENCE = re.compile(r"^(?P<fence>`{3,}|:{3,})\s*(?P<info>\S*)")
_OPTION_LINE = re.compile(r"^:[\w-]+:")
_LABEL_LINE = re.compile(r"^\([\w:-]+\)=\s*$")


def _blocks(markdown: str) -> list[str]:
    """The blocks of `markdown` (split at blank lines), a fenced block or ``$$`` math whole."""
    blocks: list[str] = []
    current: list[str] = []
    fence = None
    in_math = False
    for line in markdown.splitlines():
        stripped = line.strip()
        if fence is not None:
            current.append(line)
            if stripped.startswith(fence) and stripped.strip(fence[0]) == "":
                fence = None
            continue
        opened = _FENCE.match(stripped)
        if opened and not in_math:
            if current and not current[-1].strip() == "":
                blocks.append("\n".join(current))
                current = []
            fence = opened.group("fence")
            current.append(line)
            continue
        if stripped.count("$$") % 2:
            in_math = not in_math
        if not stripped and not in_math:
            if current:
                blocks.append("\n".join(current))
                current = []
            continue
        current.append(line)
    if current:
        blocks.append("\n".join(current))
    return [b for b in (b.strip("\n") for b in blocks) if b.strip()]


def _table_html(block: str, refs: Mapping[str, str]) -> str:
    rows = [line.strip().strip("|").split("|") for line in block.splitlines()]
    rows = [r for r in rows if not all(re.fullmatch(r"\s*:?-{2,}:?\s*", c) for c in r)]
    if not rows:
        return ""
    head = "".join(f"<th>{inline_html(c.strip(), refs=refs)}</th>" for c in rows[0])
    body = "".join(
        "<tr>" + "".join(f"<td>{inline_html(c.strip(), refs=refs)}</td>" for c in r) + "</tr>"
        for r in rows[1:]
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _list_html(block: str, refs: Mapping[str, str]) -> str:
    items: list[str] = []
    ordered = bool(re.match(r"\s*\d+\.\s", block))
    for line in block.splitlines():
        item = re.match(r"\s*(?:[-*]|\d+\.)\s+(.*)", line)
        if item:
            items.append(item.group(1))
        elif items:
            items[-1] += " " + line.strip()
    tag = "ol" if ordered else "ul"
    lis = "".join(f"<li>{inline_html(i, refs=refs)}</li>" for i in items)
    return f"<{tag}>{lis}</{tag}>"


def block_html(markdown: str, *, refs: Mapping[str, str] | None = None) -> str:
    """Markdown of several blocks as HTML for a slide: paragraphs, ``$$`` display math,
    pipe tables, lists and headings; MyST labels, directive options and fenced blocks
    (directives, code) are left out.

    Parameters
    ----------
    markdown : str
        The book's MyST markdown.
    refs : mapping, keyword-only
        As in :func:`inline_html`.

    Returns
    -------
    str
        HTML, one element per block.

    Examples
    --------
    >>> print(block_html("(lbl)=\\n## Idea\\n\\nSo\\n$$a = b$$\\nholds.\\n\\n- one\\n- two"))
    <h4>Idea</h4>
    <p>So</p>
    <div class="fb-math">$$a = b$$</div>
    <p>holds.</p>
    <ul><li>one</li><li>two</li></ul>
    >>> print(block_html("| a | b |\\n|---|---|\\n| 1 | $x$ |"))
    <table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>$x$</td></tr></tbody></table>
    """
    refs = refs or {}
    out = []
    for block in _blocks(markdown):
        lines = [
            line
            for line in block.splitlines()
            if not _LABEL_LINE.match(line.strip()) and not _OPTION_LINE.match(line.strip())
        ]
        text = "\n".join(lines).strip()
        if not text or _FENCE.match(text):
            continue
        heading = re.match(r"#{1,6}\s+(.*)", text)
        if heading and "\n" not in text:
            out.append(f"<h4>{inline_html(heading.group(1), refs=refs)}</h4>")
        elif text.startswith("|"):
            out.append(_table_html(text, refs))
        elif re.match(r"(?:[-*]|\d+\.)\s", text):
            out.append(_list_html(text, refs))
        else:
            if heading:  # a heading with its paragraph in one block
                out.append(f"<h4>{inline_html(heading.group(1), refs=refs)}</h4>")
                text = text.split("\n", 1)[1]
            out.append(_paragraph_html(text, refs))
    return "\n".join(o for o in out if o)


def _has_math(text: str) -> bool:
    return "$$" in text or any(m.group("math") for m in _INLINE.finditer(text))


def code_html(source: str) -> str:
    """Python source as HTML for ``<pre><code>``: comments, strings and keywords in spans.

    Examples
    --------
    >>> code_html('x = "a" if y else 1  # why')
    'x = <span class="fb-str">&quot;a&quot;</span> <span class="fb-kw">if</span> y \
<span class="fb-kw">else</span> 1  <span class="fb-comment"># why</span>'
    """
    lines = source.splitlines()
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source + "\n").readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return html.escape("\n".join(lines))
    marks: list[tuple[tuple[int, int], tuple[int, int], str]] = []
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            marks.append((tok.start, tok.end, "fb-comment"))
        elif tok.type == tokenize.STRING or tok.type == getattr(tokenize, "FSTRING_START", -1):
            marks.append((tok.start, tok.end, "fb-str"))
        elif tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1) or (
            tok.type == getattr(tokenize, "FSTRING_END", -1)
        ):
            marks.append((tok.start, tok.end, "fb-str"))
        elif tok.type == tokenize.NAME and keyword.iskeyword(tok.string):
            marks.append((tok.start, tok.end, "fb-kw"))
    by_line: dict[int, list[tuple[int, int, str]]] = {}
    for (row, col), (end_row, end_col), css in marks:
        for r in range(row, end_row + 1):
            start = col if r == row else 0
            stop = end_col if r == end_row else len(lines[r - 1]) if r <= len(lines) else 0
            by_line.setdefault(r, []).append((start, stop, css))
    out = []
    for number, line in enumerate(lines, start=1):
        spans = sorted(by_line.get(number, []))
        parts, at = [], 0
        for start, stop, css in spans:
            if start < at:
                continue
            parts.append(html.escape(line[at:start]))
            parts.append(f'<span class="{css}">{html.escape(line[start:stop])}</span>')
            at = stop
        parts.append(html.escape(line[at:]))
        out.append("".join(parts))
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# what a chapter gives


def _png_size(png: str) -> tuple[int, int, float]:
    """Width, height (px) and dpi (100 if not recorded) of a base64 PNG."""
    try:
        raw = base64.b64decode(png[:200_000] if len(png) > 200_000 else png, validate=False)
    except ValueError:
        return 0, 0, 100.0
    if raw[:8] != b"\x89PNG\r\n\x1a\n" or len(raw) < 24:
        return 0, 0, 100.0
    width, height = struct.unpack(">II", raw[16:24])
    dpi, at = 100.0, 8
    while at + 8 <= len(raw):
        (length,) = struct.unpack(">I", raw[at : at + 4])
        kind = raw[at + 4 : at + 8]
        if kind == b"pHYs" and at + 17 <= len(raw):
            per_metre, _, unit = struct.unpack(">IIB", raw[at + 8 : at + 17])
            if unit == 1 and per_metre:
                dpi = round(per_metre * 0.0254, 1)
            break
        if kind == b"IDAT":
            break
        at += 12 + length
    return width, height, dpi


@dataclass(frozen=True)
class Figure:
    """One figure of a chapter: its PNG (base64, as stored in the notebook), caption, size,
    and the chapter's text about it (for the notes)."""

    png: str
    caption: str
    name: str = ""
    width: int = 0
    height: int = 0
    dpi: float = 100.0
    text: str = ""
    #: the smallest text of a projector version (px on the slide; 0: the book's PNG is shown)
    smallest_px: float = 0.0

    @property
    def scale(self) -> float:
        """How much larger than its PNG the figure is shown on its slide."""
        if not self.width or not self.height:
            return 1.0
        return min(FIGURE_BOX[0] / self.width, FIGURE_BOX[1] / self.height, MAX_FIGURE_SCALE)

    @property
    def fits(self) -> bool:
        """Shown at :data:`MIN_FIGURE_SCALE` of its size or more (else left to the book)."""
        return self.scale >= MIN_FIGURE_SCALE


@dataclass(frozen=True)
class WorkedExample:
    """The first ``worked-example`` cell, the markdown before it and the text after it."""

    heading: str
    markdown: str
    code: str
    output: str
    check: str = ""
    after: str = ""

    def parts(self) -> list[str]:
        """The derivation's markdown on one slide, or on two when it is longer than
        :data:`LONG_DERIVATION` characters and the output shares the code's slide (the worked
        example never takes more than three slides)."""
        blocks = _blocks(self.markdown)
        if len(self.markdown) <= LONG_DERIVATION or len(blocks) < 2 or not self.layout()[0]:
            return [self.markdown]
        # cut between blocks where a new sentence starts, nearest to half of the text
        at = [sum(len(b) for b in blocks[:k]) for k in range(len(blocks) + 1)]
        cuts = [
            k
            for k in range(1, len(blocks))
            if re.match(r"[A-Z#|*-]", blocks[k].lstrip())
            and blocks[k - 1].rstrip()[-1:] in ".?!$|"
            and not blocks[k - 1].rstrip().endswith(",$$")
        ]
        if not cuts:
            return [self.markdown]
        cut = min(cuts, key=lambda k: abs(at[k] - at[-1] / 2))
        return ["\n\n".join(blocks[:cut]), "\n\n".join(blocks[cut:])]

    def layout(self) -> tuple[bool, float, float]:
        """(output on the code slide?, code px, output px): the largest monospace font, at
        most 22 px, with which code (and output) fit a slide."""
        code_lines = self.code.splitlines() or [""]
        out_lines = self.output.splitlines()
        cols = max(len(line) for line in [*code_lines, *out_lines, ""])
        by_width = 1180 / (0.61 * max(cols, 40))

        def px(lines: int, extra: float, most: float = 22.0) -> float:
            return min(most, by_width, 585 / (1.3 * max(lines, 1) + extra))

        together = px(len(code_lines) + len(out_lines), 2.2 if out_lines else 0)
        if not out_lines or together >= MIN_CODE_PX:
            return True, together, together
        return False, px(len(code_lines), 0), px(len(out_lines), 0, 28.0)


@dataclass(frozen=True)
class Question:
    """The in-class question: an exercise's statement, and its solution for the notes."""

    label: str
    title: str
    statement: str
    answer: str
    answer_output: str = ""


@dataclass(frozen=True)
class ChapterContent:
    """What a chapter's deck shows."""

    title: str
    question: str
    key_results_title: str
    key_results: tuple[str, ...]
    figures: tuple[Figure, ...]
    worked: WorkedExample | None = None
    exercise: Question | None = None
    goals: tuple[str, ...] = ()
    key_results_text: str = ""
    exercises: tuple[str, ...] = field(default=())

    @property
    def shown(self) -> tuple[Figure, ...]:
        """The figures on slides (those that fit a slide)."""
        return tuple(f for f in self.figures if f.fits)

    @property
    def roles(self) -> tuple[str, ...]:
        """The ``data-fb-role`` of every slide, in order."""
        roles = ["title"]
        if self.worked is not None:
            roles += ["derivation"] * len(self.worked.parts()) + ["code"]
            if not self.worked.layout()[0]:
                roles.append("output")
        roles.append("key-results")
        roles += ["figure"] * len(self.shown)
        if self.exercise is not None:
            roles.append("question")
        return (*roles, "end")

    @property
    def slides(self) -> int:
        return len(self.roles)


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


def _goals(cells: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """The items of the chapter's ``Learning goals`` box."""
    for cell in cells:
        if cell.get("cell_type") != "markdown":
            continue
        source = _source(cell)
        box = re.search(r"^(`{3,}|:{3,})\s*\{admonition\}\s*Learning goals\s*\n(.*?)^\1", source,
                        flags=re.M | re.S)  # fmt: skip
        if box:
            body = "\n".join(
                line for line in box.group(2).splitlines() if not _OPTION_LINE.match(line)
            )
            items = re.findall(r"^\s*[-*]\s+(.*(?:\n(?!\s*[-*]\s).+)*)", body, flags=re.M)
            lead = [b for b in _blocks(body) if not re.match(r"\s*[-*]\s", b)]
            return tuple(" ".join(x.split()) for x in [*lead[:1], *items])
    return ()


_SHOW_KEY_RESULTS = re.compile(r"\bshow_key_results\s*\(")


def _key_results(cells: Sequence[Mapping[str, Any]], name: str) -> tuple[str, tuple[str, ...], int]:
    from fairbook_book.chapter_summary import GLUE_NAME

    for index, cell in enumerate(cells):
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
        return (*_parse_box(markdown, name), index)
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


def _prose(block: str) -> str | None:
    """`block` as prose (label lines dropped), or None for a heading, fence, table or list."""
    lines = [line for line in block.splitlines() if not _LABEL_LINE.match(line.strip())]
    text = "\n".join(lines).strip()
    if not text or text.startswith(("#", "|", "<", "- ", "* ", ":")) or _FENCE.match(text):
        return None
    return text


def _prose_after(cells: Sequence[Mapping[str, Any]], index: int, *, section: bool) -> str:
    """The first paragraph of the chapter after cell `index`; with `section`, only if no
    heading comes first."""
    for cell in cells[index + 1 :]:
        if cell.get("cell_type") != "markdown":
            continue
        for block in _blocks(_source(cell)):
            body = "\n".join(
                line for line in block.splitlines() if not _LABEL_LINE.match(line.strip())
            ).strip()
            if body.startswith("#") and section:
                return ""
            text = _prose(block)
            if text:
                return text
    return ""


def _prose_before(cells: Sequence[Mapping[str, Any]], index: int) -> str:
    """The last paragraph of the markdown cell nearest before cell `index`."""
    for cell in reversed(cells[:index]):
        if cell.get("cell_type") == "markdown":
            found = [t for t in (_prose(b) for b in _blocks(_source(cell))) if t]
            return found[-1] if found else ""
    return ""


def _outputs_text(outputs: Sequence[Mapping[str, Any]], *, limit: int = 40) -> str:
    """What a code cell printed: its streams, then the text of its results."""
    parts = []
    for output in outputs:
        if output.get("output_type") == "stream" and output.get("name") == "stdout":
            parts.append(_text(output.get("text", "")))
        elif output.get("output_type") in {"execute_result", "display_data"}:
            plain = output.get("data", {}).get("text/plain")
            if plain and not output.get("data", {}).get("image/png"):
                parts.append(_text(plain) + "\n")
    lines = "".join(parts).rstrip("\n").splitlines()
    if len(lines) > limit:
        lines = [*lines[:limit], f"… ({len(lines) - limit} more lines)"]
    return "\n".join(line.rstrip() for line in lines)


def _worked_example(cells: Sequence[Mapping[str, Any]], name: str) -> WorkedExample:
    for index, cell in enumerate(cells):
        tags = cell.get("metadata", {}).get("tags", [])
        if cell.get("cell_type") != "code" or "worked-example" not in tags:
            continue
        before = cells[index - 1] if index else {}
        if before.get("cell_type") != "markdown":
            raise SlidesError(f"{name}: the worked-example cell has no markdown cell before it")
        markdown = _source(before).strip()
        heading = re.match(r"#{1,6}\s+(.+)\n?", markdown)
        title = "The idea in code"
        if heading:
            title = heading.group(1).strip()
            markdown = markdown[heading.end() :].strip()
        check, check_index = "", index
        for later in range(index + 1, len(cells)):
            if cells[later].get("cell_type") == "code":
                if "worked-example" not in cells[later].get("metadata", {}).get("tags", []):
                    check = _outputs_text(cells[later].get("outputs", []), limit=6)
                    check_index = later
                break
            if _source(cells[later]).strip():
                break
        return WorkedExample(
            heading=title,
            markdown=markdown,
            code=_source(cell).rstrip(),
            output=_outputs_text(cell.get("outputs", [])),
            check=check,
            after=_prose_after(cells, check_index, section=False),
        )
    raise SlidesError(f"{name}: no code cell tagged worked-example (no derivation to show)")


_EXERCISE = re.compile(
    r"^(?P<fence>`{3,}|:{3,})\{exercise\}[ \t]*(?P<title>[^\n]*)\n(?P<body>.*?)\n(?P=fence)[ \t]*$",
    re.M | re.S,
)


def _exercise(notebook: Mapping[str, Any], name: str) -> tuple[Question | None, tuple[str, ...]]:
    """The in-class question (an "Open question" exercise if there is one, else the first) and
    the titles of all the chapter's exercises."""
    from fairbook_book.tooling.editions import find_solutions, instructor_edition

    cells = instructor_edition(notebook, name=name).cells
    found = []
    for cell in cells:
        if cell.get("cell_type") == "markdown":
            for match in _EXERCISE.finditer(_source(cell)):
                label = re.search(r"^:label:[ \t]*(\S+)", match["body"], flags=re.M)
                found.append((label.group(1) if label else "", match["title"].strip(), match))
    if not found:
        return None, ()
    solutions = {s.label: s for s in find_solutions(notebook, name=name)}
    titles = tuple(title for _, title, _ in found)
    ranked = sorted(
        (f for f in found if f[0] in solutions),
        key=lambda f: (not f[1].lower().startswith("open question"), found.index(f)),
    )
    if not ranked:
        return None, titles
    label, title, match = ranked[0]
    statement = "\n".join(
        line for line in match["body"].splitlines() if not _OPTION_LINE.match(line.strip())
    ).strip()
    solution = solutions[label]
    answer = "\n\n".join(m.strip() for m in solution.markdown if m.strip())
    question = Question(label, title, statement, answer, _outputs_text(solution.outputs, limit=25))
    return question, titles


def _projected(figure: Figure, figure_dir: Path | None) -> Figure:
    """`figure` redrawn for the slide from the pickle its chapter's build kept
    (:mod:`fairbook_book.projector`), or as it is when there is none or it does not fit."""
    if figure_dir is None or not figure.fits:
        return figure
    from fairbook_book.projector import stored_figure
    from fairbook_book.tooling.projector_figures import projector_png

    stored = stored_figure(figure_dir, base64.b64decode(figure.png))
    if stored is None:
        return figure
    try:
        shown = projector_png(stored, box=FIGURE_BOX, min_px=PROJECTOR_TEXT_PX)
    except Exception:  # an unpicklable or changed figure: the book's PNG is shown
        return figure
    return dataclasses.replace(
        figure,
        png=base64.b64encode(shown.png).decode("ascii"),
        width=shown.width,
        height=shown.height,
        dpi=round(shown.dpi, 1),
        smallest_px=round(shown.smallest_px, 1),
    )


def _figures(
    cells: Sequence[Mapping[str, Any]], figure_dir: Path | None = None
) -> tuple[Figure, ...]:
    figures = []
    for index, cell in enumerate(cells):
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
                width, height, dpi = _png_size(png)
                text = _prose_after(cells, index, section=True) or _prose_before(cells, index)
                book = Figure(
                    png,
                    " ".join(str(caption).split()),
                    figure.get("name", ""),
                    width,
                    height,
                    dpi,
                    " ".join(text.split()),
                )
                figures.append(_projected(book, figure_dir))
                break
    return tuple(figures)


def _notebook(executed_notebook) -> tuple[Mapping[str, Any], str]:
    if isinstance(executed_notebook, Mapping):
        return executed_notebook, "notebook"
    path = Path(executed_notebook)
    return json.loads(path.read_text("utf-8")), path.stem


def chapter_content(
    executed_notebook, *, name: str | None = None, redraw: bool = True
) -> ChapterContent:
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

    Notes
    -----
    With ``redraw=False`` the figures are the book's PNGs, not redrawn for the projector:
    the slides, their roles and which figures are shown are the same, and it is many times
    faster (what the deck check needs).

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
    figure_dir = None
    if redraw and not isinstance(executed_notebook, Mapping):  # the build keeps them beside
        figure_dir = Path(executed_notebook).parent.parent / "figures"
    cells = student_edition(notebook, name=name).cells  # no solution's figure on a slide
    title, question = _title_and_question(cells, name)
    kr_title, findings, kr_index = _key_results(cells, name)
    has_worked = any(
        "worked-example" in c.get("metadata", {}).get("tags", [])
        for c in cells
        if c.get("cell_type") == "code"
    )
    exercise, titles = _exercise(notebook, name)
    return ChapterContent(
        title,
        question,
        kr_title,
        findings,
        _figures(cells, figure_dir),
        worked=_worked_example(cells, name) if has_worked else None,
        exercise=exercise,
        goals=_goals(cells),
        key_results_text=_prose_after(cells, kr_index, section=True),
        exercises=titles,
    )


def slide_outline(executed_notebook, *, name: str | None = None) -> dict[str, Any]:
    """The deck's outline: title, the role of every slide, and counts (what the check expects).

    Examples
    --------
    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook()
    >>> nb.cells = [nbformat.v4.new_markdown_cell("# T\\n\\nWhy?"),
    ...     nbformat.v4.new_code_cell("show_key_results(k)", outputs=[nbformat.v4.new_output(
    ...         "display_data", data={"text/markdown": "- One.\\n- Two."})])]
    >>> slide_outline(nb)
    {'title': 'T', 'roles': ('title', 'key-results', 'end'), 'figures': 0, 'left_out': 0, \
'slides': 3}
    """
    content = chapter_content(executed_notebook, name=name)
    return {
        "title": content.title,
        "roles": content.roles,
        "figures": len(content.shown),
        "left_out": len(content.figures) - len(content.shown),
        "slides": content.slides,
    }


# ---------------------------------------------------------------------------------------------
# the theory page


@dataclass(frozen=True)
class Statement:
    """One labelled statement of the theory page."""

    kind: str
    number: int
    label: str
    name: str
    source: str
    body: str
    proof: str = ""
    after: str = ""

    @property
    def heading(self) -> str:
        """``Theorem 3``, as the book numbers it."""
        return f"{self.kind.capitalize()} {self.number}"


@dataclass(frozen=True)
class TheoryContent:
    """What the theorem deck shows: the page's title and first paragraph, its statements."""

    title: str
    intro: str
    numbering: str
    statements: tuple[Statement, ...]
    refs: Mapping[str, str]

    @property
    def roles(self) -> tuple[str, ...]:
        return ("title", *(["statement"] * len(self.statements)), "end")

    @property
    def slides(self) -> int:
        return len(self.roles)


_PRF = re.compile(
    r"^(?P<fence>`{3,}|:{3,})\{prf:(?P<kind>[\w-]+)\}[ \t]*(?P<title>[^\n]*)\n"
    r"(?P<body>.*?)\n(?P=fence)[ \t]*$",
    re.M | re.S,
)


def theory_content(path: str | os.PathLike[str] | None = None, *, text: str | None = None):
    """The statements of the theory page (``book/small_groups_theory.md``), for its deck.

    Every ``{prf:<kind>}`` directive with a ``:label:`` is numbered per kind in page order (as
    the book numbers them); those of :data:`STATEMENT_KINDS` get a slide, with the
    ``{prf:proof}`` that follows them (before the next statement) and the paragraph after
    them for the notes.

    Parameters
    ----------
    path : path, optional
        The page.
    text : str, keyword-only
        The page's markdown instead of a path.

    Returns
    -------
    TheoryContent

    Raises
    ------
    SlidesError
        No ``# title`` or no labelled statement.

    Examples
    --------
    >>> page = '''# Maths
    ...
    ... Intro.
    ...
    ... ```{prf:definition} A set
    ... :label: def-a
    ... A set $A$.
    ... ```
    ...
    ... ```{prf:theorem} Size — Book, Theorem 4.1
    ... :label: thm-a
    ... $|A| = 1$ by {prf:ref}`def-a`.
    ... ```
    ...
    ... ```{prf:proof}
    ... Count.
    ... ```
    ... '''
    >>> content = theory_content(text=page)
    >>> [(s.heading, s.name, s.source, s.proof) for s in content.statements]
    [('Theorem 1', 'Size', 'Book, Theorem 4.1', 'Count.')]
    >>> content.refs["def-a"], content.roles
    ('Definition 1', ('title', 'statement', 'end'))
    """
    if text is None:
        if path is None:
            raise SlidesError("theory_content needs a path or text")
        text = Path(path).read_text("utf-8")
    title = re.search(r"^#\s+(.+)$", text, flags=re.M)
    if title is None:
        raise SlidesError(f"{path or 'theory page'}: no '# title'")
    after_title = text[title.end() :]
    first_directive = re.search(r"^(`{3,}|:{3,})", after_title, flags=re.M)
    head = after_title[: first_directive.start()] if first_directive else after_title
    paragraphs = [p for p in (_prose(b) for b in _blocks(head)) if p]
    numbering = next((p for p in paragraphs if p.startswith("**Numbering")), "")
    counters: dict[str, int] = {}
    refs: dict[str, str] = {}
    raw: list[tuple[str, int, str, str, str, re.Match[str]]] = []
    matches = list(_PRF.finditer(text))
    for match in matches:
        kind = match["kind"]
        if kind == "proof":
            continue
        label = re.search(r"^:label:[ \t]*(\S+)", match["body"], flags=re.M)
        if label is None:
            continue
        counters[kind] = counters.get(kind, 0) + 1
        refs[label.group(1)] = f"{kind.capitalize()} {counters[kind]}"
        raw.append((kind, counters[kind], label.group(1), match["title"].strip(), "", match))
    statements = []
    for index, (kind, number, label, heading, _, match) in enumerate(raw):
        if kind not in STATEMENT_KINDS:
            continue
        name, _, source = heading.partition(" — ")
        if not source:
            name, source = "", heading
        end = raw[index + 1][5].start() if index + 1 < len(raw) else len(text)
        proof = next(
            (m for m in matches if m["kind"] == "proof" and match.end() < m.start() < end), None
        )
        body = "\n".join(
            line for line in match["body"].splitlines() if not _OPTION_LINE.match(line.strip())
        ).strip()
        tail = text[match.end() : end]
        tail = re.sub(r"^(`{4,})\{dropdown\}.*?^\1[ \t]*$", "", tail, flags=re.M | re.S)
        after = next((p for p in (_prose(b) for b in _blocks(tail)) if p), "")
        statements.append(
            Statement(
                kind,
                number,
                label,
                name.strip(),
                source.strip(),
                body,
                proof["body"].strip() if proof else "",
                after,
            )
        )
    if not statements:
        raise SlidesError(f"{path or 'theory page'}: no labelled theorem or proposition")
    intro = paragraphs[0] if paragraphs else ""
    return TheoryContent(title.group(1).strip(), intro, numbering, tuple(statements), refs)


# ---------------------------------------------------------------------------------------------
# the decks

_CSS = """
.reveal { font-size: 34px; }
.reveal .slides section { text-align: left; }
.reveal h2 { font-size: 1.6em; text-transform: none; text-align: center; }
.reveal h3 { font-size: 1.1em; text-transform: none; margin: 0 0 0.45em; }
.reveal h4 { font-size: 1em; text-transform: none; margin: 0.3em 0; }
.reveal p { margin: 0 0 0.5em; line-height: 1.35; }
.reveal .fb-chapter { font-size: 0.6em; color: #666; margin: 0 0 0.4em; }
.reveal .fb-title .fb-chapter { text-align: center; }
.reveal .fb-question-text { line-height: 1.35; color: #333; }
.reveal .fb-key-results ul { display: block; margin: 0; }
.reveal .fb-key-results li { line-height: 1.3; margin-bottom: 0.45em; }
.reveal .fb-text ul, .reveal .fb-text ol { display: block; margin: 0 0 0.5em 1em; }
.reveal .fb-math { margin: 0.2em 0 0.5em; text-align: center; }
.reveal .fb-text table { font-size: 0.85em; margin: 0 auto 0.5em; }
.reveal .fb-text table th, .reveal .fb-text table td { padding: 0.1em 0.6em; }
.reveal .fb-figure { text-align: center; }
.reveal .fb-figure figure { margin: 0; }
.reveal .fb-figure img { display: block; margin: 0 auto; max-width: none; max-height: none;
  border: 0; box-shadow: none; image-rendering: auto; }
.reveal .fb-figure figcaption { font-size: 20px; line-height: 1.3; color: #333;
  text-align: left; margin: 8px 20px 0; }
.reveal pre.fb-pre { width: 100%; box-sizing: border-box; margin: 0 0 10px; box-shadow: none;
  line-height: 1.3;
  background: #f6f8fa; border-left: 4px solid #c8d1dc; }
.reveal pre.fb-pre code { max-height: none; overflow: visible; padding: 6px 10px;
  white-space: pre; font-size: 1em; }
.reveal pre.fb-out { background: #fff; border-left-color: #2a76dd; }
.reveal .fb-comment { color: #5a6a7a; font-style: italic; }
.reveal .fb-str { color: #0a6e31; }
.reveal .fb-kw { color: #8a1f8f; font-weight: bold; }
.reveal .fb-label { font-size: 0.55em; color: #666; margin: 6px 0 2px; }
.reveal .fb-end p { font-size: 0.7em; }
.reveal .fb-end .fb-small { font-size: 0.5em; color: #666; }
.reveal code { font-size: 0.9em; }
.reveal aside.notes pre { white-space: pre-wrap; }
.reveal mjx-assistive-mml { max-width: 100% !important; }
"""


def _fit(chars: int, *, comfortable: int, base: float = 1.0, least: float = 0.45) -> str:
    """A font size (em) for `chars` characters of text on one slide."""
    size = base if chars <= comfortable else base * (comfortable / chars) ** 0.5
    return f"{max(least, min(base, size)):.2f}em"


@dataclass(frozen=True)
class Slide:
    """One ``<section>``: its role, its content and its speaker notes (HTML)."""

    role: str
    body: str
    notes: str
    ident: str = ""
    css: str = ""

    def html(self) -> str:
        """The section, notes last.

        Examples
        --------
        >>> print(Slide("end", "<p>Bye</p>", "<p>Thank them.</p>").html())
        <section class="fb-end" data-fb-role="end">
        <p>Bye</p>
        <aside class="notes"><p>Thank them.</p></aside>
        </section>
        """
        ident = f' id="{html.escape(self.ident)}"' if self.ident else ""
        css = self.css or f"fb-{self.role}"
        return (
            f'<section class="{css}" data-fb-role="{self.role}"{ident}>\n{self.body}\n'
            f'<aside class="notes">{self.notes}</aside>\n</section>'
        )


def _short_caption(caption: str, limit: int = 170) -> str:
    """The caption's first sentence (the whole caption if short), never inside ``$...$``."""
    if len(caption) <= limit:
        return caption
    for match in re.finditer(r"\.(?=\s+[A-Z(])", caption):
        if caption[: match.start()].count("$") % 2 == 0 and 30 <= match.start() <= limit:
            return caption[: match.start() + 1]
    for match in reversed(list(re.finditer(r"[,;:]?\s", caption[:limit]))):
        if caption[: match.start()].count("$") % 2 == 0 and match.start() >= 30:
            return caption[: match.start()] + " …"
    return caption


def _page_link(url: str | None, where: str) -> str:
    e = html.escape
    if url:
        return f'<p><a href="{e(url)}">{e(url)}</a></p>'
    return f"<p>In the built book: <code>{e(where)}</code> (open it from the book's folder).</p>"


def _check_url(book_url: str | None) -> str | None:
    if book_url is None or not book_url.strip():
        return None
    if not re.match(r"https?://[^/\s]+", book_url):
        raise SlidesError(
            f"book_url must be an absolute http(s) address, not {book_url!r} (a relative link "
            "breaks when the slides folder is copied alone)"
        )
    return book_url.rstrip("/")


def _chapter_slide_list(
    content: ChapterContent, name: str, book_url: str | None, refs: Mapping[str, str]
) -> list[Slide]:
    e = html.escape
    number = _CHAPTER.match(name)
    label = f"Chapter {int(number.group(1))}" if number else name
    title_html = inline_html(content.title, refs=refs)
    question = (
        f'<p class="fb-question-text" style="font-size: '
        f'{_fit(len(content.question), comfortable=450, base=0.8, least=0.45)}">'
        f"{inline_html(content.question, refs=refs)}</p>"
        if content.question
        else ""
    )
    if content.goals:
        lead, *items = content.goals
        goals = f"<p>{inline_html(lead, refs=refs)}</p>" if not items else ""
        if items:
            goals = (
                f"<p>{inline_html(lead, refs=refs)}</p><ul>"
                + "".join(f"<li>{inline_html(i, refs=refs)}</li>" for i in items)
                + "</ul>"
            )
        title_notes = f"<p>Learning goals.</p>{goals}"
    else:
        title_notes = f"<p>{inline_html(content.question or content.title, refs=refs)}</p>"
    slides = [
        Slide(
            "title",
            f'<p class="fb-chapter">{e(label)} · fairbook</p>\n<h2>{title_html}</h2>\n{question}',
            title_notes,
        )
    ]
    worked = content.worked
    if worked is not None:
        notes = ""
        if worked.check:
            notes += (
                "<p>After this code the chapter checks it against the library, which "
                f"prints:</p><pre>{e(worked.check)}</pre>"
            )
        if worked.after:
            notes += f"<p>Then the chapter goes on: {inline_html(worked.after, refs=refs)}</p>"
        parts = worked.parts()
        for number_, part in enumerate(parts, start=1):
            size = _fit(len(part), comfortable=650, base=0.72, least=0.48)
            heading = inline_html(worked.heading, refs=refs)
            if len(parts) > 1:
                heading += f" ({number_}/{len(parts)})"
            part_notes = notes if number_ == len(parts) else ""
            if not part_notes:
                part_notes = (
                    f"<p>{inline_html(worked.heading, refs=refs)}: the derivation goes on on "
                    "the next slide; the code after it computes every quantity named here.</p>"
                )
            slides.append(
                Slide(
                    "derivation",
                    f"<h3>{heading}</h3>\n"
                    f'<div class="fb-text" style="font-size: {size}">\n'
                    f"{block_html(part, refs=refs)}\n</div>",
                    part_notes,
                    css="fb-derivation fb-text-slide",
                )
            )
        together, code_px, out_px = worked.layout()
        comments = [
            c.lstrip("#").strip()
            for c in re.findall(r"#[^\n]*", worked.code)
            if c.lstrip("#").strip()
        ]
        code_notes = (
            "<p>Walk through the code; its comments say:</p><ul>"
            + "".join(f"<li>{e(c)}</li>" for c in comments)
            + "</ul>"
            if comments
            else "<p>Walk through the code line by line.</p>"
        )
        output = (
            f'<pre class="fb-pre fb-out" style="font-size: {out_px:.1f}px">'
            f"<code>{e(worked.output)}</code></pre>"
        )
        code = (
            f'<pre class="fb-pre" style="font-size: {code_px:.1f}px"><code class="language-python">'
            f"{code_html(worked.code)}</code></pre>"
        )
        if together:
            code_notes += f"<p>It prints:</p><pre>{e(worked.output)}</pre>" if worked.output else ""
            slides.append(
                Slide(
                    "code",
                    f"<h3>In code</h3>\n{code}\n"
                    + (f'<p class="fb-label">It prints:</p>\n{output}' if worked.output else ""),
                    code_notes,
                )
            )
        else:
            slides.append(Slide("code", f"<h3>In code</h3>\n{code}", code_notes))
            slides.append(
                Slide(
                    "output",
                    f"<h3>What it prints</h3>\n{output}",
                    f"<p>The output of the code, this build's.</p><pre>{e(worked.output)}</pre>"
                    + (
                        f"<p>The library agrees:</p><pre>{e(worked.check)}</pre>"
                        if worked.check
                        else ""
                    ),  # fmt: skip
                )
            )
    chars = sum(len(f) for f in content.key_results)
    items = "\n".join(f"<li>{inline_html(f, refs=refs)}</li>" for f in content.key_results)
    kr_notes = (
        f"<p>{inline_html(content.key_results_text, refs=refs)}</p>"
        if content.key_results_text
        else "<p>" + " ".join(inline_html(f, refs=refs) for f in content.key_results) + "</p>"
    )
    slides.append(
        Slide(
            "key-results",
            f"<h3>{inline_html(content.key_results_title, refs=refs)}</h3>\n"
            f'<ul style="font-size: {_fit(chars, comfortable=900, base=0.85, least=0.45)}">\n'
            f"{items}\n</ul>",
            kr_notes,
        )
    )
    for number_, figure in enumerate(content.shown, start=1):
        alt = e(" ".join(re.sub(r"\$([^$]*)\$", r"\1", figure.caption).split()))
        width = round(figure.width * figure.scale)
        height = round(figure.height * figure.scale)
        short = _short_caption(figure.caption)
        notes = (
            f"<p><strong>Figure {number_}.</strong> {inline_html(figure.caption, refs=refs)}</p>"
        )
        if figure.text:
            notes += f"<p>{inline_html(figure.text, refs=refs)}</p>"
        slides.append(
            Slide(
                "figure",
                f'<figure>\n<img src="data:image/png;base64,{figure.png}" alt="{alt}" '
                f'width="{width}" height="{height}" '
                f'style="width: {width}px; height: {height}px">\n'
                f"<figcaption><strong>Figure {number_}.</strong> "
                f"{inline_html(short, refs=refs)}</figcaption>\n</figure>",
                notes,
                ident=figure.name,
            )
        )
    exercise = content.exercise
    if exercise is not None:
        statement = block_html(exercise.statement, refs=refs)
        answer = block_html(exercise.answer, refs=refs)
        if exercise.answer_output:
            answer += f"\n<pre>{e(exercise.answer_output)}</pre>"
        slides.append(
            Slide(
                "question",
                f'<p class="fb-chapter">In-class question · exercise '
                f"<code>{e(exercise.label)}</code></p>\n"
                f"<h3>{inline_html(exercise.title, refs=refs)}</h3>\n"
                f'<div class="fb-text" style="font-size: '
                f'{_fit(len(exercise.statement), comfortable=500, base=0.8, least=0.5)}">'
                f"\n{statement}\n</div>",
                f"<p><strong>Answer</strong> (the solution in the instructor edition):</p>\n"
                f"{answer}",
            )
        )
    where = f"_build/html/notebooks/{name}.html"
    url = f"{book_url}/notebooks/{name}.html" if book_url else None
    end_notes = "<p>The chapter in the book has more:</p><ul>"
    end_notes += "".join(
        f"<li>exercise: {inline_html(t, refs=refs)}</li>" for t in content.exercises
    )
    left_out = [f for f in content.figures if not f.fits]
    end_notes += "".join(
        f"<li>a figure too tall for a slide: {inline_html(_short_caption(f.caption), refs=refs)}"
        "</li>"
        for f in left_out
    )
    end_notes += "<li>the explorer and the replication evidence, folded</li></ul>"
    slides.append(
        Slide(
            "end",
            f"<h3>The whole chapter</h3>\n<p>{title_html}: the worked example, the explorer, the "
            "exercises and the replication evidence are in the book.</p>\n"
            f"{_page_link(url, where)}\n"
            f'<p class="fb-small">Slides built from the executed chapter '
            f"(<code>{e(name)}.ipynb</code>) by <code>fairbook_book.tooling.slides</code>; "
            "every number and figure is this build's.</p>",
            end_notes,
        )
    )
    return slides


def _theory_slide_list(content: TheoryContent, book_url: str | None) -> list[Slide]:
    e = html.escape
    refs = content.refs
    slides = [
        Slide(
            "title",
            '<p class="fb-chapter">Appendix · fairbook</p>\n'
            f"<h2>{inline_html(content.title, refs=refs)}</h2>\n"
            f'<p class="fb-question-text" style="font-size: '
            f'{_fit(len(content.intro), comfortable=450, base=0.7, least=0.45)}">'
            f"{inline_html(content.intro, refs=refs)}</p>",
            f"<p>{inline_html(content.numbering or content.intro, refs=refs)}</p>",
        )
    ]
    for statement in content.statements:
        body = block_html(statement.body, refs=refs)
        name = f"{statement.heading}" + (
            f": {inline_html(statement.name, refs=refs)}" if statement.name else ""
        )
        notes = f"<p>Source: {inline_html(statement.source, refs=refs)}.</p>"
        if statement.proof:
            notes += f"<p><strong>Proof.</strong></p>{block_html(statement.proof, refs=refs)}"
        if statement.after:
            notes += f"<p>{inline_html(statement.after, refs=refs)}</p>"
        slides.append(
            Slide(
                "statement",
                f'<p class="fb-chapter">{inline_html(statement.source, refs=refs)}</p>\n'
                f"<h3>{name}</h3>\n"
                f'<div class="fb-text" style="font-size: '
                f'{_fit(len(statement.body), comfortable=420, base=0.8, least=0.5)}">\n'
                f"{body}\n</div>",
                notes,
                ident=statement.label,
                css="fb-statement fb-text-slide",
            )
        )
    where = f"_build/html/book/{THEORY_NAME}.html"
    url = f"{book_url}/book/{THEORY_NAME}.html" if book_url else None
    slides.append(
        Slide(
            "end",
            "<h3>The proofs</h3>\n<p>Every statement with its proof, the definitions, the "
            "algorithm and the numerical checks are on the appendix page of the book.</p>\n"
            f"{_page_link(url, where)}\n"
            f'<p class="fb-small">Slides built from <code>book/{e(THEORY_NAME)}.md</code> by '
            "<code>fairbook_book.tooling.slides</code>.</p>",
            "<p>Chapter 3 checks every statement numerically (exact enumeration, the exact law "
            "or simulation) in its folded evidence.</p>",
        )
    )
    return slides


def _deck_html(
    slides: Sequence[Slide],
    *,
    page_title: str,
    figures: int,
    reveal: str,
    mathjax: str,
    notes_plugin: bool,
) -> str:
    e = html.escape
    body = "\n".join(s.html() for s in slides)
    visible = re.sub(r"<pre\b.*?</pre>|<aside class=\"notes\">.*?</aside>", "", body, flags=re.S)
    notes = "".join(re.findall(r'<aside class="notes">(.*?)</aside>', body, flags=re.S))
    math = ""
    if _has_math(re.sub(r"<[^>]+>", " ", visible + notes)):
        math = (
            "<script>window.MathJax = {tex: {inlineMath: [['$', '$'], ['\\\\(', '\\\\)']]}, "
            "options: {enableMenu: false}, startup: {typeset: true}};</script>\n"
            f'<script defer src="{e(mathjax)}/es5/tex-mml-chtml.js"></script>\n'
        )
    plugin, plugins = "", ""
    if notes_plugin:
        plugin = f'<script src="{e(reveal)}/{REVEAL_NOTES_PLUGIN}"></script>\n'
        plugins = ", plugins: [RevealNotes]"
    width, height = SLIDE_SIZE
    roles = ",".join(s.role for s in slides)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="fairbook_book.tooling.slides">
<meta name="fairbook-slides" content="{len(slides)}">
<meta name="fairbook-figures" content="{figures}">
<meta name="fairbook-roles" content="{roles}">
<title>{e(page_title)} (slides)</title>
<link rel="stylesheet" href="{e(reveal)}/reveal.css">
<link rel="stylesheet" href="{e(reveal)}/theme/white.css">
<style>{_CSS}</style>
{math}</head>
<body>
<div class="reveal"><div class="slides">
{body}
</div></div>
<script src="{e(reveal)}/reveal.js"></script>
{plugin}<script>
Reveal.initialize({{hash: true, slideNumber: "c/t", controls: true, progress: true,
  center: true, width: {width}, height: {height}, margin: 0.02, transition: "slide"{plugins}}});
</script>
</body>
</html>
"""


def chapter_slides(
    executed_notebook,
    *,
    name: str | None = None,
    book_url: str | None = None,
    refs: Mapping[str, str] | None = None,
    reveal: str = "reveal",
    mathjax: str = "mathjax",
    notes_plugin: bool = False,
    content: ChapterContent | None = None,
) -> str:
    """One chapter's reveal.js deck, as a single HTML page (images embedded).

    Parameters
    ----------
    executed_notebook : path or mapping
        The executed chapter.
    name : str, keyword-only
        The chapter's name ``NN_topic`` (default: the file's stem).
    book_url : str, keyword-only
        The built book's absolute address (``https://...``); the last slide links the
        chapter's page there. Default: no link, the page's place in ``_build/html`` as text.
    refs : mapping, keyword-only
        Label -> name for ``{prf:ref}`` roles (the theory page's, :func:`theory_content`).
    reveal, mathjax : str, keyword-only
        Folders, relative to the deck, of the copied reveal.js and MathJax
        (:func:`write_slides` copies them there).
    notes_plugin : bool, keyword-only
        Load reveal.js's notes plugin (``reveal/plugin/notes.js``) for the speaker view.
    content : ChapterContent, keyword-only
        The chapter's content when the caller has it already
        (:func:`chapter_content` of `executed_notebook`: its figures are redrawn once).

    Returns
    -------
    str
        The HTML page: scripts and styles by relative path only.

    Raises
    ------
    SlidesError
        As :func:`chapter_content`, or a `book_url` that is not absolute.

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
    >>> "_build/html/notebooks/01_t.html" in deck, "href=\\"../" in deck
    (True, False)
    """
    if content is None:
        content = chapter_content(executed_notebook, name=name)
    name = name or _notebook(executed_notebook)[1]
    number = _CHAPTER.match(name)
    label = f"Chapter {int(number.group(1))}" if number else name
    slides = _chapter_slide_list(content, name, _check_url(book_url), refs or {})
    return _deck_html(
        slides,
        page_title=f"{label}: {content.title}",
        figures=len(content.shown),
        reveal=reveal,
        mathjax=mathjax,
        notes_plugin=notes_plugin,
    )


def theory_slides(
    theory: str | os.PathLike[str] | TheoryContent,
    *,
    book_url: str | None = None,
    reveal: str = "reveal",
    mathjax: str = "mathjax",
    notes_plugin: bool = False,
) -> str:
    """The deck of the theory page: a title, one slide per labelled statement, the page.

    Parameters
    ----------
    theory : path or TheoryContent
        ``book/small_groups_theory.md``, or what :func:`theory_content` read from it.
    book_url, reveal, mathjax, notes_plugin : keyword-only
        As in :func:`chapter_slides`.

    Returns
    -------
    str
        The HTML page.

    Examples
    --------
    >>> page = "# M\\n\\nWhy.\\n\\n```{prf:theorem} T — B, Theorem 1\\n:label: t\\n$x$.\\n```\\n"
    >>> deck = theory_slides(theory_content(text=page))
    >>> deck.count('data-fb-role="statement"'), 'id="t"' in deck
    (1, True)
    """
    content = theory if isinstance(theory, TheoryContent) else theory_content(theory)
    return _deck_html(
        _theory_slide_list(content, _check_url(book_url)),
        page_title=f"Appendix: {content.title}",
        figures=0,
        reveal=reveal,
        mathjax=mathjax,
        notes_plugin=notes_plugin,
    )


# ---------------------------------------------------------------------------------------------
# every deck


@dataclass(frozen=True)
class Deck:
    """One written deck."""

    name: str
    title: str
    path: Path
    slides: int
    figures: int
    kind: str = "chapter"
    #: the figures redrawn for the projector, and their smallest text (px; 0: none redrawn)
    redrawn: int = 0
    smallest_px: float = 0.0

    def line(self) -> str:
        """``02_x: 7 slides (2 figures)``, and how many were redrawn for the projector."""
        line = f"{self.name}: {self.slides} slides ({self.figures} figures"
        if self.redrawn:
            line += (
                f", {self.redrawn} redrawn for the projector: text {self.smallest_px:.1f} px "
                "or more"
            )
        elif self.figures:
            line += ", the book's PNGs: no figures kept by its build"
        return line + ")"


def book_url_from_config(config: str | os.PathLike[str] = "_config.yml") -> str | None:
    """The built book's absolute address, ``html.baseurl`` of the Jupyter Book configuration,
    or None when it is empty, relative or the file is missing.

    Examples
    --------
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "_config.yml"
    >>> _ = path.write_text("html:\\n  baseurl: https://example.org/fairbook/\\n")
    >>> book_url_from_config(path)
    'https://example.org/fairbook'
    >>> _ = path.write_text("html:\\n  baseurl: ''\\n")
    >>> book_url_from_config(path) is None
    True
    """
    import yaml

    try:
        config = yaml.safe_load(Path(config).read_text("utf-8")) or {}
    except (OSError, yaml.YAMLError):
        return None
    url = str((config.get("html") or {}).get("baseurl") or "").strip()
    return url.rstrip("/") if re.match(r"https?://[^/\s]+", url) else None


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


def _index(decks: Sequence[Deck], book_url: str | None) -> str:
    e = html.escape

    def row(d: Deck) -> str:
        lead = e(d.name[:2]) if d.kind == "chapter" else "Appendix"
        what = f"{d.slides} slides, {d.figures} figures" if d.kind == "chapter" else (
            f"{d.slides} slides, {d.slides - 2} statements"
        )  # fmt: skip
        return (
            f'<li><a href="{e(d.path.name)}">{lead} · {inline_html(d.title)}</a> '
            f"<span>{what}</span></li>"
        )

    chapters = "\n".join(row(d) for d in decks if d.kind == "chapter")
    theory = "\n".join(row(d) for d in decks if d.kind != "chapter")
    book = (
        f'<a href="{e(book_url)}/index.html">{e(book_url)}/index.html</a>'
        if book_url
        else "<code>_build/html/index.html</code> of the built book"
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
<p>One deck per chapter to lecture from: its question, the worked example as a derivation
and in code, its Key results, its figures and an in-class question, from this build of the
book; every slide has speaker notes (the answer to the question is only there). They work
offline (open a deck in a browser; arrow keys move, <kbd>F</kbd> is full screen,
<kbd>Esc</kbd> the overview; add <code>?showNotes=true</code> to a deck's address to see the
notes under each slide, or press <kbd>S</kbd> for the speaker view where reveal.js's notes
plugin is vendored). The whole chapters are in the book: {book}.</p>
<ol>
{chapters}
</ol>
<h2>Appendix</h2>
<ul>
{theory}
</ul>
</body>
</html>
"""


def write_slides(
    executed_dir: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    *,
    vendor: str | os.PathLike[str] = DEFAULT_VENDOR,
    theory: str | os.PathLike[str] | None = None,
    book_url: str | None = None,
    echo: Callable[[str], None] | None = None,
) -> list[Deck]:
    """Write ``out_dir/NN_topic.html`` for every executed chapter, the theorem deck and
    ``index.html``.

    reveal.js is copied from ``vendor/slides/reveal`` to ``out_dir/reveal`` (with its notes
    plugin when vendored) and, when a deck has math, MathJax from
    ``vendor/static/vendor/mathjax`` to ``out_dir/mathjax``; decks of chapters no longer in
    `executed_dir` are removed. Nothing written links out of `out_dir` except to `book_url`.

    Parameters
    ----------
    executed_dir : path
        The executed chapters (``_build/executed/notebooks``): every ``NN_*.ipynb``.
    out_dir : path
        Where the decks go (``_build/slides``).
    vendor : path, keyword-only
        The vendored JavaScript (``book/_vendor``, written by ``make vendor``).
    theory : path, keyword-only
        The theory page (``book/small_groups_theory.md``); None: no theorem deck.
    book_url : str, keyword-only
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
    book_url = _check_url(book_url)
    chapters = sorted(p for p in executed_dir.glob("*.ipynb") if _CHAPTER.match(p.stem))
    if not chapters:
        raise SlidesError(f"no executed chapters in {executed_dir} (run `make html`)")
    theory_page = theory_content(theory) if theory is not None else None
    refs = dict(theory_page.refs) if theory_page else {}
    contents = {p.stem: chapter_content(p) for p in chapters}
    reveal_source = vendor / "slides" / "reveal"
    notes_plugin = (reveal_source / REVEAL_NOTES_PLUGIN).exists()
    pages: dict[str, tuple[str, Deck]] = {}
    for path in chapters:
        content = contents[path.stem]
        target = out_dir / f"{path.stem}.html"
        page = chapter_slides(
            path,
            book_url=book_url,
            refs=refs,
            notes_plugin=notes_plugin,
            name=path.stem,
            content=content,
        )
        redrawn = [f.smallest_px for f in content.shown if f.smallest_px]
        deck = Deck(
            path.stem,
            content.title,
            target,
            content.slides,
            len(content.shown),
            redrawn=len(redrawn),
            smallest_px=min(redrawn, default=0.0),
        )
        pages[path.stem] = (page, deck)
    if theory_page is not None:
        target = out_dir / f"{THEORY_NAME}.html"
        page = theory_slides(theory_page, book_url=book_url, notes_plugin=notes_plugin)
        deck = Deck(THEORY_NAME, theory_page.title, target, theory_page.slides, 0, "theorems")
        pages[THEORY_NAME] = (page, deck)
    out_dir.mkdir(parents=True, exist_ok=True)
    files = [*REVEAL_FILES, *([REVEAL_NOTES_PLUGIN] if notes_plugin else [])]
    _copy_tree(reveal_source, out_dir / "reveal", files, "reveal.js")
    if any("tex-mml-chtml" in page for page, _ in pages.values()):
        _copy_tree(
            vendor / "static" / "vendor" / "mathjax", out_dir / "mathjax", MATHJAX_FILES, "MathJax"
        )
    elif (out_dir / "mathjax").exists():
        shutil.rmtree(out_dir / "mathjax")
    for old in out_dir.glob("*.html"):
        if (_CHAPTER.match(old.stem) or old.stem == THEORY_NAME) and old.stem not in pages:
            old.unlink()
    decks = []
    for page, deck in pages.values():
        deck.path.write_text(page, encoding="utf-8")
        decks.append(deck)
        if echo:
            echo(f"[slides] {deck.line()}")
    (out_dir / "index.html").write_text(_index(decks, book_url), encoding="utf-8")
    return decks


# ---------------------------------------------------------------------------------------------
# the check

_ATTR = re.compile(r"<(?P<tag>[a-zA-Z]+)\b[^>]*?\s(?P<attr>href|src)=\"(?P<url>[^\"]*)\"")


def link_problems(out_dir: str | os.PathLike[str]) -> list[str]:
    """Links and sources of the pages in `out_dir` that break when the folder is copied alone:
    a relative path out of the folder or to a missing file, and anything loaded from the
    network. An absolute ``http(s)`` link (``<a href>``, the configured book) is allowed.

    Examples
    --------
    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp())
    >>> _ = (out / "index.html").write_text('<a href="../html/x.html">x</a><a href="a.html">a</a>'
    ...     '<a href="https://example.org/b.html">b</a><img src="data:image/png;base64,AA">')
    >>> link_problems(out)
    ['index.html: link out of the folder: ../html/x.html', 'index.html: missing: a.html']
    """
    out_dir = Path(out_dir).resolve()
    problems = []
    for page in sorted(out_dir.glob("*.html")):
        for match in _ATTR.finditer(page.read_text("utf-8")):
            url, tag = match["url"], match["tag"].lower()
            if url.startswith(("data:", "#", "mailto:")) or not url:
                continue
            if re.match(r"[a-z][a-z0-9+.-]*:|//", url, flags=re.I):
                if tag != "a" or not url.startswith(("http://", "https://")):
                    problems.append(f"{page.name}: loads from outside the folder: {url[:120]}")
                continue
            path = url.split("#", 1)[0].split("?", 1)[0]
            target = (out_dir / path).resolve()
            if out_dir not in (target, *target.parents):
                problems.append(f"{page.name}: link out of the folder: {url[:120]}")
            elif not target.exists():
                problems.append(f"{page.name}: missing: {url[:120]}")
    return problems


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
  const overflow = [], figures = [], hidden = [], leaks = [];
  const text = n => (n.innerText || '').replace(/\\s+/g, ' ').trim();
  sections.forEach((s, i) => {
    Reveal.slide(i);
    const clone = s.cloneNode(true);
    clone.querySelectorAll('aside.notes').forEach(a => a.remove());
    if (s.scrollHeight > height + 2) overflow.push([i + 1, s.scrollHeight]);
    if (s.scrollWidth > Reveal.getConfig().width + 2) overflow.push([i + 1, -s.scrollWidth]);
    const notes = s.querySelector(':scope > aside.notes');
    if (!notes || !notes.textContent.trim()) hidden.push(i + 1);
    else if (getComputedStyle(notes).display !== 'none') leaks.push(i + 1);
    if (s.dataset.fbRole === 'question' && notes) {
      const shown = text(s).replace(text(notes), '');
      const answer = Array.from(notes.querySelectorAll('p, pre'))
        .map(text).filter(t => t.length > 40 && !t.startsWith('Answer'));
      if (answer.some(t => shown.includes(t))) leaks.push(i + 1);
    }
    s.querySelectorAll('img').forEach(img => {
      const r = img.getBoundingClientRect();
      figures.push({slide: i + 1, natural: img.naturalWidth, shown: r.width,
                    viewport: window.innerWidth});
    });
  });
  Reveal.slide(0);
  return {
    total: Reveal.getTotalSlides(),
    expected: Number(meta('fairbook-slides')),
    figures: Number(meta('fairbook-figures')),
    metaRoles: (meta('fairbook-roles') || '').split(',').filter(Boolean),
    roles: sections.map(s => s.dataset.fbRole || ''),
    images: imgs.length,
    broken: imgs.filter(i => !(i.complete && i.naturalWidth > 0)).length,
    math: document.querySelectorAll('mjx-container').length,
    rawMath: /\\$[^$\\n]+\\$/.test(text(document.querySelector('.reveal .slides'))),
    hasMathJax: !!document.querySelector('script[src*="tex-mml-chtml"]'),
    overflow: overflow,
    noNotes: hidden,
    notesShown: leaks,
    shownFigures: figures,
  };
}"""

#: The least number of slides a chapter's deck has, and the roles each must have.
MIN_SLIDES = 6
_CHAPTER_ROLES = ("title", "derivation", "code", "key-results", "question", "end")


def _deck_problems(
    state: Mapping[str, Any], expected: Sequence[str] | None, kind: str
) -> list[str]:
    problems = []
    figures = state["figures"]
    roles = list(state["roles"])
    if state["total"] != state["expected"]:
        problems.append(f"{state['total']} slides, the deck says {state['expected']}")
    if roles != list(state["metaRoles"]):
        problems.append(f"slides in the order {roles}, the deck says {state['metaRoles']}")
    if expected is not None and roles != list(expected):
        problems.append(f"slides in the order {roles}, the source gives {list(expected)}")
    if kind == "chapter":
        if len(roles) < MIN_SLIDES:
            problems.append(f"{len(roles)} slides, fewer than {MIN_SLIDES}")
        missing = [r for r in _CHAPTER_ROLES if r not in roles]
        if missing:
            problems.append(f"no slide of role {', '.join(missing)}")
    if state["images"] != figures:
        problems.append(f"{state['images']} images for {figures} figures")
    if state["broken"]:
        problems.append(f"{state['broken']} of {state['images']} images did not load")
    if state["hasMathJax"] and (not state["math"] or state["rawMath"]):
        problems.append("math not typeset by MathJax")
    for number, px in state["overflow"]:
        if px < 0:
            problems.append(f"slide {number} overflows ({-px} px wide of {SLIDE_SIZE[0]})")
        else:
            problems.append(f"slide {number} overflows ({px} px of {SLIDE_SIZE[1]})")
    for number in state["noNotes"]:
        problems.append(f"slide {number} has no speaker notes")
    for number in state["notesShown"]:
        problems.append(f"slide {number} shows its speaker notes (or the answer) on the slide")
    for figure in state["shownFigures"]:
        if figure["natural"] and figure["shown"] / figure["natural"] < MIN_FIGURE_SCALE - 0.05:
            problems.append(
                f"slide {figure['slide']}: figure shown at "
                f"{figure['shown'] / figure['natural']:.2f} of its size"
            )
    return problems


def check_slides(
    out_dir: str | os.PathLike[str],
    *,
    binary: str | None = None,
    executed_dir: str | os.PathLike[str] | None = None,
    theory: str | os.PathLike[str] | None = None,
    screenshots: str | os.PathLike[str] | None = None,
    measurements: list[dict[str, Any]] | None = None,
    timeout_s: float = 60,
) -> list[str]:
    """Problems of the decks in `out_dir` (empty: all ok).

    First, without a browser, :func:`link_problems`. Then every deck is opened in headless
    Chromium at 1280 × 720: reveal.js is initialised (``Reveal.isReady()``); its slides have
    the roles its ``fairbook-roles`` says and (with `executed_dir`, `theory`) the roles the
    executed chapter or the theory page gives, with a deck for every chapter; a chapter's deck
    has at least :data:`MIN_SLIDES` slides, among them a derivation, code, Key results, an
    in-class question and the end; **every slide has speaker notes**, hidden, and the
    question's answer is not on its slide; no console error, page error, failed request or
    request that leaves the computer; every image loaded and shown at
    :data:`MIN_FIGURE_SCALE` of its size or more; math typeset where MathJax is loaded; no
    slide's content larger than the slide. ``index.html`` links every deck.

    Parameters
    ----------
    out_dir : path
        The decks (``_build/slides``).
    binary : str, keyword-only
        Chromium (default :func:`fairbook_book.tooling.pagecheck.chromium_binary`).
    executed_dir : path, keyword-only
        The executed chapters, to derive the expected slides again from them.
    theory : path, keyword-only
        The theory page, to count its statements again (and require its deck).
    screenshots : path, keyword-only
        Folder for PNGs of three slides of each deck.
    measurements : list, keyword-only
        Appended with one dict per figure shown: deck, slide, natural and shown width (px at
        1280 × 720), scale, and the px of 10-pt text of the figure on the screen.
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
    decks = sorted(
        p for p in out_dir.glob("*.html") if _CHAPTER.match(p.stem) or p.stem == THEORY_NAME
    )
    if not decks:
        return [f"{out_dir}: no slide decks (make slides writes them)"]
    problems: list[str] = list(link_problems(out_dir))
    expected: dict[str, tuple[str, ...]] = {}
    dpi: dict[str, list[float]] = {}
    if executed_dir is not None:
        for path in sorted(Path(executed_dir).glob("*.ipynb")):
            if _CHAPTER.match(path.stem):
                # the projector versions of the figures only matter for their dpi
                content = chapter_content(path, redraw=measurements is not None)
                expected[path.stem] = content.roles
                dpi[path.stem] = [f.dpi for f in content.shown]
        for name in sorted(set(expected) - {d.stem for d in decks}):
            problems.append(f"{name}.html: no deck for the executed chapter")
    if theory is not None:
        expected[THEORY_NAME] = theory_content(theory).roles
        if THEORY_NAME not in {d.stem for d in decks}:
            problems.append(f"{THEORY_NAME}.html: no deck for {theory}")
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
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=binary,
            args=["--no-sandbox", "--allow-file-access-from-files", "--disable-gpu"],
        )
        try:
            for deck in decks:
                kind = "chapter" if _CHAPTER.match(deck.stem) else "theorems"
                found, state = _check_deck(
                    browser, deck, expected.get(deck.stem), kind, screenshots, timeout_s
                )
                problems += [f"{deck.name}: {p}" for p in found]
                if measurements is not None and state:
                    dpis = dpi.get(deck.stem) or []
                    for number, figure in enumerate(state["shownFigures"]):
                        scale = figure["shown"] / figure["natural"] if figure["natural"] else 0
                        at = dpis[number] if number < len(dpis) else 100.0
                        measurements.append(
                            {
                                "deck": deck.stem,
                                "slide": figure["slide"],
                                "natural": figure["natural"],
                                "shown": round(figure["shown"], 1),
                                "scale": round(scale, 3),
                                "px_10pt": round(10 / 72 * at * scale, 1),
                            }
                        )
        finally:
            browser.close()
    return problems


def _check_deck(browser, deck: Path, expected, kind, screenshots, timeout_s):
    width, height = SLIDE_SIZE
    page = browser.new_page(viewport={"width": width, "height": height})
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
            return [*errors, f"reveal.js not ready after {timeout_s:g} s"], None
        state = page.evaluate(_DECK_STATE)
        problems = errors + _deck_problems(state, expected, kind)
        if screenshots is not None:
            roles = state["roles"]
            wanted = ["derivation", "figure", "question"] if kind == "chapter" else ["statement"]
            shots = [roles.index(r) for r in wanted if r in roles] or [0]
            for index in shots:
                page.evaluate(f"Reveal.slide({index})")
                page.wait_for_timeout(200)
                page.screenshot(path=str(Path(screenshots) / f"slides-{deck.stem}-{index + 1}.png"))
        return problems, state
    finally:
        page.close()


# ---------------------------------------------------------------------------------------------
# command line


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m fairbook_book.tooling.slides [--executed DIR] [--out DIR] [--check]``."""
    parser = argparse.ArgumentParser(
        prog="python -m fairbook_book.tooling.slides",
        description="One reveal.js deck per chapter (offline) from the executed chapters, and "
        "one for the small-groups theorems.",
    )
    parser.add_argument("--executed", default="_build/executed/notebooks", help="executed chapters")
    parser.add_argument("--out", default="_build/slides", help="folder for the decks")
    parser.add_argument("--vendor", default=str(DEFAULT_VENDOR), help="vendored JavaScript")
    parser.add_argument(
        "--theory",
        default=str(DEFAULT_THEORY),
        help="the theory page for the theorem deck ('' for none; skipped when missing)",
    )
    parser.add_argument(
        "--book-url",
        help="the built book's absolute address, for the last slide's link "
        "(default: html.baseurl of _config.yml; none: the page's place as text)",
    )
    parser.add_argument(
        "--check", action="store_true", help="open every deck in headless Chromium afterwards"
    )
    parser.add_argument("--screenshots", help="with --check: folder for PNGs of slides")
    args = parser.parse_args(argv)
    theory = Path(args.theory) if args.theory and Path(args.theory).exists() else None
    book_url = args.book_url if args.book_url is not None else book_url_from_config()
    t0 = time.perf_counter()
    try:
        decks = write_slides(
            args.executed,
            args.out,
            vendor=args.vendor,
            theory=theory,
            book_url=book_url,
            echo=print,
        )
    except SlidesError as exc:
        print(f"slides: {exc}", file=sys.stderr)
        return 2
    print(
        f"[slides] {len(decks)} decks, {sum(d.slides for d in decks)} slides in {args.out} "
        f"({time.perf_counter() - t0:.1f} s); open {Path(args.out) / 'index.html'}"
    )
    shown, redrawn = sum(d.figures for d in decks), [d for d in decks if d.redrawn]
    if shown:
        smallest = min((d.smallest_px for d in redrawn), default=0.0)
        print(
            f"[slides] {sum(d.redrawn for d in redrawn)} of {shown} figures redrawn for the "
            + (f"projector, every text {smallest:.1f} px or more" if redrawn else "projector")
        )
        if redrawn and smallest < PROJECTOR_TEXT_PX - 0.05:
            print(f"[slides] FAILED a figure's text is {smallest:.1f} px (< {PROJECTOR_TEXT_PX})")
            return 1
    if not args.check:
        return 0
    t0 = time.perf_counter()
    measured: list[dict[str, Any]] = []
    problems = check_slides(
        args.out,
        executed_dir=args.executed,
        theory=theory,
        screenshots=args.screenshots,
        measurements=measured,
    )
    for problem in problems:
        print(f"[slides] FAILED {problem}")
    if measured:
        scales = [m["scale"] for m in measured]
        text = [m["px_10pt"] for m in measured]
        print(
            f"[slides] {len(measured)} figures shown at {min(scales):.2f}-{max(scales):.2f} "
            f"times their PNG's size on a {SLIDE_SIZE[0]} x {SLIDE_SIZE[1]} screen (a 10-pt "
            f"text would be {min(text):.1f}-{max(text):.1f} px; a redrawn figure has none)"
        )
    print(f"[slides] checked {len(decks)} decks in {time.perf_counter() - t0:.1f} s")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
