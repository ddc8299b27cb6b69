"""The whole book as one PDF: the built HTML pages joined in TOC order and printed by Chromium.

The PDF is made from the book a reader sees, not from a second Sphinx build: every page of
``_toc.yml`` is taken from the built HTML (``_build/html``), its article is cut out, its ids
and links are made unique to it, and the pages are joined, in TOC order and under their
part captions, into one print page (:func:`print_page`). Headless Chromium, driven by
Playwright as in the JupyterLab check, opens that page, waits until MathJax has typeset and
every static explorer has drawn, shrinks what is wider than the paper, and prints it to A4
(:func:`print_pdf`). So the PDF has

- the chapters numbered as in the book's TOC (the numbers Sphinx put in the headings) and a
  contents list that links to them;
- tables, figures and charts kept whole on a page where they fit (:data:`PRINT_CSS`), and
  wide tables and code outputs shrunk to the page width instead of being cut;
- the folded replication evidence (``<details class="fairbook-fold">``) open;
- each static explorer drawn at its first setting, with a sentence saying that it is
  interactive in the HTML book;
- with ``student=True``, no solutions: every solution admonition (sphinx-exercise's
  ``.solution`` blocks, which hold the solution's text, code and outputs) is left out, and
  their number must equal the number of solutions :mod:`fairbook_book.tooling.editions` finds in
  the chapters' notebooks (:func:`notebook_solutions`), so a solution rendered some other way
  cannot slip into the student PDF unnoticed.

There are no PDF bookmarks: Chromium makes them only from a tagged PDF, which took half as
long again to print and doubled some headings' text; the contents page links to every page.

:func:`check_pdf` is the page check's look at the PDF: it counts the pages (:func:`page_count`
parses the PDF itself) and saves PNGs of one or two printed pages (:func:`preview`). No PDF
rasteriser ships with the book (headless Chromium's PDF viewer draws nothing), so a preview
is Chromium's screenshot of the print page laid out for print (print media, the page's width,
one A4 page's height) from the top of the element asked for; the page breaks are Chromium's.

Run it as ``python -m fairbook_book.tooling.pdf [--student] --out _build/pdf/fairbook.pdf``.

Examples
--------
>>> page = '<html><body><article class="bd-article"><h1 id="t">Title</h1></article></body></html>'
>>> html = print_page([("book/intro", page)], root="../html")
>>> 'id="book--intro--t"' in html and "@page" in html
True
>>> page_count(b"%PDF-1.4 1 0 obj <</Type /Page>> 2 0 obj <</Type /Pages /Count 1>>")
1
"""

from __future__ import annotations

import argparse
import html as html_lib
import json
import os
import posixpath
import re
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

__all__ = [
    "PRINT_CSS",
    "PdfBuild",
    "assemble",
    "build_pdf",
    "check_pdf",
    "doc_anchor",
    "main",
    "notebook_solutions",
    "page_count",
    "preview",
    "print_page",
    "print_pdf",
    "toc_parts",
]

#: A4 with these margins: the print page is laid out at the text width (180 mm) on screen too,
#: so what the page's script measures is what is printed.
PAGE_SIZE = "A4"
PAGE_MARGINS_MM = (16, 15, 18, 15)  # top, right, bottom, left
TEXT_WIDTH_MM = 210 - PAGE_MARGINS_MM[1] - PAGE_MARGINS_MM[3]
TEXT_HEIGHT_MM = 297 - PAGE_MARGINS_MM[0] - PAGE_MARGINS_MM[2]
_PX_PER_MM = 96 / 25.4
#: A code output that would have to shrink below this fraction of its width wraps its lines
#: instead; a table shrinks as far as it must (cut columns would be worse).
MIN_ZOOM = 0.45
#: Seconds the print page may take to typeset its maths and draw its charts.
READY_TIMEOUT_S = 240

#: The sentence put under every static explorer in print.
CHART_NOTE = (
    "Interactive in the HTML book: its controls change this chart there. "
    "Printed here at its first setting."
)

#: Print rules of the joined page (also applied on screen, so the preview matches the PDF).
PRINT_CSS = f"""
@page {{
  size: {PAGE_SIZE};
  margin: {" ".join(f"{m}mm" for m in PAGE_MARGINS_MM)};
  @bottom-center {{
    content: counter(page); font-family: sans-serif; font-size: 9pt; color: #555;
  }}
}}
@page :first {{ @bottom-center {{ content: none; }} }}
html {{ font-size: 12.5px; }}
body.fb-print {{
  width: {TEXT_WIDTH_MM}mm; margin: 0 auto; padding: 0; background: #fff;
  font-size: 1rem; line-height: 1.45;
}}
.fb-print .bd-article {{ padding: 0; max-width: none; }}
/* one document a page run; the parts' captions head their first chapter */
.fb-doc {{ break-before: page; }}
.fb-part-title {{
  font-size: 1.1rem; text-transform: uppercase; letter-spacing: .06em; color: #555;
  border-bottom: 1px solid #999; margin: 0 0 1.2rem; padding-bottom: .3rem;
}}
.fb-title-page {{ text-align: center; padding-top: 30%; }}
.fb-title-page h1 {{ font-size: 2.2rem; }}
.fb-contents ol {{ list-style: none; padding-left: 0; }}
.fb-contents li.fb-contents-part {{ margin-top: .8rem; font-weight: bold; }}
.fb-contents li.fb-contents-doc {{ padding-left: 1.5rem; }}
h1, h2, h3, h4, h5, .admonition-title, summary, .fb-part-title,
p.rubric, .caption {{ break-after: avoid; }}
/* tables, figures and charts whole on a page where they fit */
table, figure, img, svg, .fairbook-vega-figure, .cell_output .output, pre,
.math.notranslate, mjx-container[display="true"] {{ break-inside: avoid; }}
thead {{ display: table-header-group; }}
tr {{ break-inside: avoid; }}
img, svg {{ max-width: 100% !important; height: auto; }}
/* nothing scrolls on paper: show all of it (wide things are shrunk by the page's script) */
.fb-print div, .fb-print pre, .fb-print table, .fb-print .output {{
  overflow: visible !important; max-height: none !important;
}}
.fb-print pre {{ font-size: .85rem; }}
.fb-print pre.fb-wrap {{ white-space: pre-wrap; word-break: break-all; }}
.fb-print table {{ font-size: .9rem; }}
/* a cell's text never runs into the next one's ("300differs") */
.fb-print th, .fb-print td {{ padding: .15rem .5rem; }}
/* the folded evidence is open, and says what it is */
details.fairbook-fold > summary {{
  list-style: none; font-weight: bold; font-style: italic; margin: .6rem 0 .3rem;
}}
details.fairbook-fold > summary::-webkit-details-marker {{ display: none; }}
.fb-chart-note {{ font-style: italic; font-size: .9rem; color: #444; }}
/* buttons, permalinks and other screen-only furniture */
.headerlink, button, .copybtn, .toggle-button, .thebe-launch-button,
.d-print-none {{ display: none !important; }}
a {{ color: inherit; text-decoration: none; }}
"""

# Runs in the print page: waits for MathJax and the charts, shrinks what is wider than the
# text, opens every <details>, then marks <html data-fb-ready> with what it found.
READY_JS = f"""
(function () {{
  var MIN_ZOOM = {MIN_ZOOM};
  function wait(test, ms) {{
    return new Promise(function (resolve) {{
      var t0 = Date.now();
      (function poll() {{
        if (test() || Date.now() - t0 > ms) {{ resolve(test()); return; }}
        setTimeout(poll, 100);
      }})();
    }});
  }}
  function mathDone() {{
    var m = window.MathJax;
    if (!m || !m.startup || !m.startup.promise) {{ return Promise.resolve(false); }}
    return m.startup.promise.then(function () {{ return true; }}, function () {{ return false; }});
  }}
  function charts() {{
    return Array.prototype.slice.call(document.querySelectorAll(".fairbook-vega"));
  }}
  function drawn(c) {{ return !!c.querySelector("svg, canvas"); }}
  function failed(c) {{ return !drawn(c) && /chart failed|did not load/.test(c.textContent); }}
  function fit() {{
    var zoomed = 0, wrapped = 0;
    document.querySelectorAll("details").forEach(function (d) {{ d.open = true; }});
    document.querySelectorAll(".fb-doc table, .fb-doc pre, .fb-doc .fairbook-vega").forEach(
      function (el) {{
        var avail = el.parentElement.clientWidth, wide = el.scrollWidth;
        if (!avail || wide <= avail + 1) {{ return; }}
        var zoom = avail / wide;
        if (el.tagName === "PRE" && zoom < MIN_ZOOM) {{
          el.classList.add("fb-wrap");
          wrapped++;
          return;
        }}
        el.style.zoom = String(zoom);
        el.setAttribute("data-fb-zoom", zoom.toFixed(2));
        zoomed++;
      }});
    return [zoomed, wrapped];
  }}
  function start() {{
    var math = false;
    mathDone().then(function (ok) {{
      math = ok;
      return wait(function () {{
        return charts().every(function (c) {{ return drawn(c) || failed(c); }});
      }}, 60000);
    }}).then(function () {{
      var all = charts(), undrawn = all.filter(function (c) {{ return !drawn(c); }}).length;
      var fitted = fit();
      var root = document.documentElement;
      root.setAttribute("data-fb-charts", all.length + "/" + (all.length - undrawn));
      root.setAttribute("data-fb-math", math ? "yes" : (window.MathJax ? "no" : "none"));
      root.setAttribute("data-fb-zoomed", String(fitted[0]));
      root.setAttribute("data-fb-wrapped", String(fitted[1]));
      root.setAttribute("data-fb-ready", "yes");
    }});
  }}
  if (document.readyState === "complete") {{ start(); }}
  else {{ window.addEventListener("load", start); }}
}})();
"""


# ---------------------------------------------------------------------------------------------
# the table of contents


def toc_parts(toc: str | os.PathLike[str] | dict) -> list[tuple[str | None, list[str]]]:
    """The documents of a Jupyter Book ``_toc.yml`` grouped by part: ``(caption, docs)``.

    The root comes first, in a part of its own with caption None; documents are named
    without suffix, as :func:`fairbook_book.tooling.chapters.toc_files` names them.

    Examples
    --------
    >>> toc = {"root": "book/intro", "parts": [
    ...     {"caption": "Start", "chapters": [{"file": "book/a.md"}]},
    ...     {"caption": "Chapters", "numbered": 1, "chapters": [{"file": "notebooks/01_x"}]}]}
    >>> toc_parts(toc)
    [(None, ['book/intro']), ('Start', ['book/a']), ('Chapters', ['notebooks/01_x'])]
    """
    import yaml

    from fairbook_book.tooling.chapters import toc_files

    data = toc if isinstance(toc, dict) else yaml.safe_load(Path(toc).read_text("utf-8"))
    parts: list[tuple[str | None, list[str]]] = [(None, toc_files({"root": data["root"]}))]
    if data.get("parts"):
        for part in data["parts"]:
            parts.append((part.get("caption"), toc_files({"chapters": part.get("chapters")})))
    else:
        rest = toc_files({"chapters": data.get("chapters")})
        if rest:
            parts.append((None, rest))
    return parts


def _default_toc(html_dir: Path) -> Path:
    staged = html_dir.parent / "stage" / "_toc.yml"  # what `fairbook-book build` actually built
    return staged if staged.is_file() else Path("_toc.yml")


# ---------------------------------------------------------------------------------------------
# joining the pages


def doc_anchor(doc: str) -> str:
    """The id of document `doc` in the print page; its own ids are prefixed with it and ``--``.

    Examples
    --------
    >>> doc_anchor("notebooks/02_objective_fairness_index")
    'notebooks--02_objective_fairness_index'
    """
    return doc.replace("/", "--")


def _is_external(url: str) -> bool:
    parts = urlsplit(url)
    return bool(parts.scheme or parts.netloc) or url.startswith(("data:", "mailto:", "//"))


def _rewrite_url(url: str, doc: str, docs: set[str], root: str) -> str:
    """`url` as written in `doc`'s page, as it must be written in the print page."""
    if not url or _is_external(url):
        return url
    parts = urlsplit(url)
    if not parts.path:  # "#frag" inside the same page
        return f"#{doc_anchor(doc)}--{parts.fragment}" if parts.fragment else url
    target = posixpath.normpath(posixpath.join(posixpath.dirname(doc), parts.path))
    if target.endswith(".html") and target[: -len(".html")] in docs:
        anchor = doc_anchor(target[: -len(".html")])
        return f"#{anchor}--{parts.fragment}" if parts.fragment else f"#{anchor}"
    rewritten = posixpath.join(root, target) if root else target
    if parts.query:
        rewritten += f"?{parts.query}"
    if parts.fragment:
        rewritten += f"#{parts.fragment}"
    return rewritten


_STATIC_LITERAL = re.compile(r"""(["'])((?:\.\./)*_static/)""")


def _article(doc: str, page: str, docs: set[str], root: str, *, student: bool):
    """The article of one built page, made ready to sit in the print page (a bs4 Tag)."""
    from bs4 import BeautifulSoup

    start, end = page.find("<article"), page.rfind("</article>")
    if start >= 0 and end > start:  # parse the article alone: the sidebars are most of a page
        page = page[start : end + len("</article>")]
    soup = BeautifulSoup(page, "html.parser")
    article = soup.find("article") or soup.find("main") or soup.body
    if article is None:
        raise ValueError(f"{doc}: the built page has no <article>, <main> or <body>")
    prefix = doc_anchor(doc)
    removed_solutions = 0
    if student:
        for solution in article.select(".solution"):
            solution.decompose()
            removed_solutions += 1
        # the exercises' opening sentence points at folded solutions the student PDF lacks
        from fairbook_book.tooling.student_site import FOLDED_SENTENCE, NO_SOLUTIONS

        for paragraph in article.find_all("p"):
            if FOLDED_SENTENCE.search(paragraph.get_text(" ", strip=False)):
                paragraph.string = NO_SOLUTIONS
    for junk in article.select(".headerlink, .prev-next-footer, button"):
        junk.decompose()
    renamed: dict[str, str] = {}
    for el in article.find_all(id=True):
        new = f"{prefix}--{el['id']}"
        if "fairbook-vega" in (el.get("class") or []):
            renamed[el["id"]] = new  # the chart's script finds its container by this id
        el["id"] = new
    for attr in ("href", "src", "data"):
        for el in article.find_all(attrs={attr: True}):
            el[attr] = _rewrite_url(el[attr], doc, docs, root)
    static = posixpath.join(root, "_static/") if root else "_static/"
    for script in article.find_all("script"):
        if script.get("src") or not script.string:
            continue
        text = _STATIC_LITERAL.sub(lambda m: m.group(1) + static, script.string)
        for old, new in renamed.items():
            text = text.replace(f'"{old}"', f'"{new}"')
        script.string = text
    for details in article.find_all("details"):
        details["open"] = ""
        summary = details.find("summary")
        if summary is not None and summary.string and summary.string.startswith("Show the "):
            summary.string = summary.string.replace("Show the ", "The ", 1)
    for figure in article.select(".fairbook-vega-figure"):
        note = soup.new_tag("p", attrs={"class": "fb-chart-note"})
        note.string = CHART_NOTE
        figure.append(note)
    article.name = "div"
    article["class"] = ["bd-article"]
    return article, removed_solutions


def _head_assets(page: str, doc: str, docs: set[str], root: str) -> tuple[list[str], list[str]]:
    """Stylesheets and MathJax (configuration and loader) of a built page, rewritten."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(page, "html.parser")
    styles = []
    for link in soup.find_all("link", rel="stylesheet"):
        href = _rewrite_url(link.get("href", ""), doc, docs, root)
        styles.append(f'<link rel="stylesheet" href="{html_lib.escape(href)}" />')
    scripts = []
    for script in soup.find_all("script"):
        src = script.get("src") or ""
        if "mathjax" in src.lower():
            url = _rewrite_url(src, doc, docs, root)
            scripts.append(f'<script defer="defer" src="{html_lib.escape(url)}"></script>')
        elif script.string and script.string.lstrip().startswith("window.MathJax"):
            scripts.insert(0, f"<script>{script.string}</script>")
    return styles, scripts


def _title(article) -> str:
    h1 = article.find("h1")
    if h1 is None:
        return ""
    return " ".join(h1.get_text(" ", strip=True).replace("#", "").split())


def print_page(
    pages: Sequence[tuple[str, str]],
    *,
    root: str = "",
    parts: Sequence[tuple[str | None, Sequence[str]]] | None = None,
    student: bool = False,
    title: str = "fairbook",
    subtitle: str = "",
) -> str:
    """One HTML page holding every built page of `pages` (``(doc, html)`` in TOC order).

    Parameters
    ----------
    pages
        Each document's name (``notebooks/02_objective_fairness_index``) and its built HTML.
    root
        Where the built book's folder is, relative to the print page (``../html``): the
        pages' images, scripts and stylesheets are found there.
    parts
        The TOC's parts (:func:`toc_parts`): each part's caption heads its first document.
        None: no captions.
    student
        Leave out every solution (sphinx-exercise's ``.solution`` blocks).
    title, subtitle
        The title page's lines.

    Returns
    -------
    str
        The print page: a title page, a contents list linking to every document, then each
        document's article with ids prefixed by :func:`doc_anchor`, links between documents
        turned into links inside the page, ``<details>`` open, :data:`PRINT_CSS` and the
        script that readies it for print.

    Examples
    --------
    >>> a = ('<html><body><article><h1 id="x"><span class="section-number">1. </span>One</h1>'
    ...      '<a href="../book/b.html#y">b</a><img src="../_images/p.png"></article></body></html>')
    >>> b = '<html><body><article><h1 id="y">Two</h1></article></body></html>'
    >>> html = print_page([("notebooks/01_a", a), ("book/b", b)], root="../html")
    >>> 'href="#book--b--y"' in html, 'src="../html/_images/p.png"' in html
    (True, True)
    >>> "1. One" in html
    True
    """
    docs = {doc for doc, _ in pages}
    captions: dict[str, str] = {}
    for caption, members in parts or []:
        present = [d for d in members if d in docs]
        if caption and present:
            captions[present[0]] = caption
    styles: list[str] = []
    scripts: list[str] = []
    bodies: list[str] = []
    contents: list[str] = []
    solutions = 0
    for doc, page in pages:
        if not styles:
            styles, scripts = _head_assets(page, doc, docs, root)
        article, removed = _article(doc, page, docs, root, student=student)
        solutions += removed
        if doc in captions:
            caption = html_lib.escape(captions[doc])
            contents.append(f'<li class="fb-contents-part">{caption}</li>')
        name = html_lib.escape(_title(article) or doc)
        contents.append(f'<li class="fb-contents-doc"><a href="#{doc_anchor(doc)}">{name}</a></li>')
        head = f'<p class="fb-part-title">{captions[doc]}</p>' if doc in captions else ""
        bodies.append(
            f'<section class="fb-doc" id="{doc_anchor(doc)}" data-doc="{html_lib.escape(doc)}">'
            f"{head}{article}</section>"
        )
    edition = "Student edition (no solutions)" if student else "Instructor edition"
    return "\n".join(
        [
            '<!DOCTYPE html><html lang="en" data-theme="light" data-mode="light">',
            '<head><meta charset="utf-8" />',
            f"<title>{html_lib.escape(title)} ({edition.split(' (')[0].lower()})</title>",
            *styles,
            f"<style>{PRINT_CSS}</style>",
            *scripts,
            f"<script>{READY_JS}</script>",
            "</head>",
            f'<body class="fb-print" data-edition="{"student" if student else "instructor"}"'
            f' data-solutions-removed="{solutions}">',
            '<section class="fb-title-page">',
            f"<h1>{html_lib.escape(title)}</h1>",
            f"<p><strong>{edition}</strong></p>",
            f"<p>{html_lib.escape(subtitle)}</p>" if subtitle else "",
            "</section>",
            '<nav class="fb-contents fb-doc"><h2>Contents</h2><ol>',
            *contents,
            "</ol></nav>",
            *bodies,
            "</body></html>",
        ]
    )


def _book_title(html_dir: Path) -> tuple[str, str]:
    import yaml

    config = Path("_config.yml")
    if not config.is_file():
        config = html_dir.parent / "stage" / "_config.yml"
    title, author = "fairbook", ""
    if config.is_file():
        data = yaml.safe_load(config.read_text("utf-8")) or {}
        title, author = str(data.get("title", title)), str(data.get("author", ""))
    try:
        from importlib.metadata import version

        release = f"version {version('fairbook')}"
    except Exception:
        release = ""
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", time.time()))
    date = time.strftime("%Y-%m-%d", time.gmtime(epoch))
    subtitle = " · ".join(x for x in (author, release, f"printed {date}") if x)
    return title, subtitle


def assemble(
    html_dir: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    toc: str | os.PathLike[str] | None = None,
    student: bool = False,
) -> Path:
    """Write the print page of the built book in `html_dir` to `out` (an ``.html`` file).

    The TOC (default: the staged ``_build/stage/_toc.yml`` next to `html_dir`, else
    ``./_toc.yml``) gives the documents and their order; a document without a built page is
    an error. Links to the book's images, scripts and styles point into `html_dir`, relative
    to `out`'s folder. See :func:`print_page` for what the page holds.
    """
    html_dir = Path(html_dir).resolve()
    out = Path(out).resolve()
    parts = toc_parts(Path(toc) if toc else _default_toc(html_dir))
    docs = [doc for _, members in parts for doc in members]
    missing = [doc for doc in docs if not (html_dir / f"{doc}.html").is_file()]
    if missing:
        raise FileNotFoundError(f"no built page for {', '.join(missing)} in {html_dir}")
    pages = [(doc, (html_dir / f"{doc}.html").read_text("utf-8")) for doc in docs]
    root = Path(os.path.relpath(html_dir, out.parent)).as_posix()
    title, subtitle = _book_title(html_dir)
    page = print_page(
        pages, root=root, parts=parts, student=student, title=title, subtitle=subtitle
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page, encoding="utf-8")
    return out


# ---------------------------------------------------------------------------------------------
# printing


@dataclass
class PdfBuild:
    """What :func:`build_pdf` made: the PDF, its print page and what the printing found."""

    pdf: Path
    print_html: Path
    pages: int
    seconds: float
    student: bool
    #: charts in the book and how many of them drew
    charts: int = 0
    charts_drawn: int = 0
    #: tables and outputs shrunk to the page width, code outputs wrapped instead
    zoomed: int = 0
    wrapped: int = 0
    math: str = ""
    solutions_removed: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _launch(playwright, binary: str | None):
    from fairbook_book.tooling.pagecheck import CHROMIUM_FLAGS, chromium_binary

    binary = binary or chromium_binary()
    if binary is None:
        raise RuntimeError("chromium is not installed (apt-get install chromium)")
    flags = [f for f in CHROMIUM_FLAGS if f != "--headless"]
    return playwright.chromium.launch(executable_path=binary, args=flags)


def _open_ready(browser, page_html: Path, *, timeout_s: float, width_px: int):
    page = browser.new_page(viewport={"width": width_px, "height": 1200})
    page.set_default_timeout(timeout_s * 1000)
    page.goto(Path(page_html).resolve().as_uri(), wait_until="load")
    page.wait_for_function("document.documentElement.dataset.fbReady === 'yes'")
    return page


def print_pdf(
    print_html: str | os.PathLike[str],
    pdf: str | os.PathLike[str],
    *,
    binary: str | None = None,
    timeout_s: float = READY_TIMEOUT_S,
) -> dict:
    """Print the print page `print_html` to `pdf` with headless Chromium (A4, backgrounds).

    Waits until the page's script has seen MathJax finish and every chart draw (or fail);
    returns what it reported: ``charts`` and ``charts_drawn``, ``zoomed`` and ``wrapped``
    elements, ``math`` (``yes``, ``no`` or ``none``).
    """
    from playwright.sync_api import sync_playwright

    pdf = Path(pdf)
    pdf.parent.mkdir(parents=True, exist_ok=True)
    width = round((TEXT_WIDTH_MM + 10) * _PX_PER_MM)
    with sync_playwright() as playwright:
        browser = _launch(playwright, binary)
        try:
            page = _open_ready(browser, Path(print_html), timeout_s=timeout_s, width_px=width)
            attrs = page.evaluate(
                "() => Object.fromEntries(['fbCharts', 'fbMath', 'fbZoomed', 'fbWrapped']"
                ".map(k => [k, document.documentElement.dataset[k]]))"
            )
            page.pdf(
                path=str(pdf),
                prefer_css_page_size=True,
                print_background=True,
                display_header_footer=False,
            )
        finally:
            browser.close()
    total, drawn = (int(x) for x in (attrs.get("fbCharts") or "0/0").split("/"))
    return {
        "charts": total,
        "charts_drawn": drawn,
        "zoomed": int(attrs.get("fbZoomed") or 0),
        "wrapped": int(attrs.get("fbWrapped") or 0),
        "math": attrs.get("fbMath") or "",
    }


_PAGE_OBJECT = re.compile(rb"/Type\s*/Page(?![A-Za-z])")
_PAGES_COUNT = re.compile(
    rb"/Type\s*/Pages\b[^>]*?/Count\s+(\d+)|/Count\s+(\d+)[^>]*?/Type\s*/Pages\b"
)


def page_count(pdf: str | os.PathLike[str] | bytes) -> int:
    """Number of pages of a PDF (a path or its bytes), read from the PDF itself.

    Counts the ``/Type /Page`` objects and checks them against the root ``/Pages`` node's
    ``/Count`` (the largest one, when pages are nested). A PDF whose objects are all hidden in
    compressed object streams (which Chromium does not write) has no visible page objects: then
    the ``/Count`` alone is taken, and with neither a ``ValueError`` is raised.

    Examples
    --------
    >>> page_count(b"%PDF-1.4\\n1 0 obj\\n<</Type /Page /Parent 3 0 R>>\\nendobj\\n"
    ...            b"2 0 obj\\n<</Type /Page /Parent 3 0 R>>\\nendobj\\n"
    ...            b"3 0 obj\\n<</Type /Pages /Kids [1 0 R 2 0 R] /Count 2>>\\nendobj\\n")
    2
    """
    data = pdf if isinstance(pdf, bytes) else Path(pdf).read_bytes()
    if not data.startswith(b"%PDF-"):
        raise ValueError("not a PDF: it does not start with %PDF-")
    objects = len(_PAGE_OBJECT.findall(data))
    counts = [int(a or b) for a, b in _PAGES_COUNT.findall(data)]
    if objects and counts and max(counts) != objects:
        raise ValueError(
            f"the PDF has {objects} page objects but its page tree counts {max(counts)}"
        )
    if objects:
        return objects
    if counts:
        return max(counts)
    raise ValueError("no page found in the PDF")


def build_pdf(
    html_dir: str | os.PathLike[str] = "_build/html",
    out: str | os.PathLike[str] = "_build/pdf/fairbook.pdf",
    *,
    toc: str | os.PathLike[str] | None = None,
    student: bool = False,
    binary: str | None = None,
) -> PdfBuild:
    """Make the book's PDF: :func:`assemble` the print page next to `out`, :func:`print_pdf` it.

    Also writes ``<out>.json`` (pages, seconds, charts drawn, shrunk tables, solutions left
    out), which :func:`check_pdf` reads. A chart that did not draw, MathJax that did not
    finish, or solutions left in a student PDF are problems of the result.
    """
    t0 = time.perf_counter()
    out = Path(out)
    print_html = assemble(html_dir, out.with_suffix(".html"), toc=toc, student=student)
    report = print_pdf(print_html, out, binary=binary)
    source = print_html.read_text("utf-8")
    removed = int(re.search(r'data-solutions-removed="(\d+)"', source).group(1))
    result = PdfBuild(
        pdf=out,
        print_html=print_html,
        pages=page_count(out),
        seconds=round(time.perf_counter() - t0, 1),
        student=student,
        charts=report["charts"],
        charts_drawn=report["charts_drawn"],
        zoomed=report["zoomed"],
        wrapped=report["wrapped"],
        math=report["math"],
        solutions_removed=removed,
    )
    if result.charts_drawn < result.charts:
        result.problems.append(
            f"{result.charts - result.charts_drawn} of {result.charts} charts did not draw"
        )
    if result.math == "no":
        result.problems.append("MathJax did not finish typesetting")
    result.problems += _solution_problems(source, student=student)
    if student:
        expected = notebook_solutions(Path(html_dir).resolve().parent.parent, source)
        if expected is not None and expected != removed:
            result.problems.append(
                f"the chapters' notebooks hold {expected} solutions but {removed} were left "
                "out of the student PDF: a solution the book renders otherwise would leak"
            )
    sidecar = {k: (str(v) if isinstance(v, Path) else v) for k, v in result.__dict__.items()}
    out.with_suffix(".json").write_text(json.dumps(sidecar, indent=1) + "\n", encoding="utf-8")
    return result


def notebook_solutions(root: str | os.PathLike[str], print_source: str) -> int | None:
    """How many solutions the source notebooks (``root/notebooks/NN_*.ipynb``) of the print
    page's chapters hold, counted by :func:`fairbook_book.tooling.editions.find_solutions`; None
    where a chapter's notebook is not there (a built book without its sources)."""
    import nbformat

    from fairbook_book.tooling.editions import find_solutions

    total = 0
    for doc in re.findall(r'<section class="fb-doc" id="[^"]*" data-doc="([^"]+)"', print_source):
        if not doc.startswith("notebooks/"):
            continue
        notebook = Path(root) / f"{doc}.ipynb"
        if not notebook.is_file():
            return None
        total += len(find_solutions(nbformat.read(notebook, as_version=4), name=doc))
    return total


def _solution_problems(print_source: str, *, student: bool) -> list[str]:
    left = len(re.findall(r'class="[^"]*\bsolution\b', print_source))
    if student and left:
        return [f"the student PDF still holds {left} solutions"]
    return []


# ---------------------------------------------------------------------------------------------
# the page check's look at it


def preview(
    print_html: str | os.PathLike[str],
    pngs: dict[str, str | os.PathLike[str]],
    *,
    binary: str | None = None,
    timeout_s: float = READY_TIMEOUT_S,
) -> list[Path]:
    """Save a PNG of one printed page for each ``{css selector: png path}`` of `pngs`.

    The print page is laid out for print (print media, the text width) and the image is one
    A4 text area (180 x 263 mm at 96 px/inch, doubled for sharpness) from the top of the
    first element the selector matches; a selector that matches nothing is an error.
    """
    from playwright.sync_api import sync_playwright

    width = round(TEXT_WIDTH_MM * _PX_PER_MM)
    height = round(TEXT_HEIGHT_MM * _PX_PER_MM)
    saved = []
    with sync_playwright() as playwright:
        browser = _launch(playwright, binary)
        try:
            context = browser.new_context(
                viewport={"width": width + 40, "height": height}, device_scale_factor=2
            )
            page = context.new_page()
            page.set_default_timeout(timeout_s * 1000)
            page.emulate_media(media="print")
            page.goto(Path(print_html).resolve().as_uri(), wait_until="load")
            page.wait_for_function("document.documentElement.dataset.fbReady === 'yes'")
            for selector, png in pngs.items():
                box = page.evaluate(
                    "(s) => { const e = document.querySelector(s); if (!e) return null;"
                    " const r = e.getBoundingClientRect();"
                    " const b = document.body.getBoundingClientRect();"
                    " return {x: b.left, y: r.top + window.scrollY}; }",
                    selector,
                )
                if box is None:
                    raise ValueError(f"nothing in the print page matches {selector!r}")
                png = Path(png)
                png.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(
                    path=str(png),
                    full_page=True,
                    clip={"x": box["x"], "y": box["y"], "width": width, "height": height},
                )
                saved.append(png.resolve())
        finally:
            browser.close()
    return saved


#: What :func:`check_pdf` previews by default: the first numbered chapter's first page, and
#: the page of the first table that had to be shrunk to fit.
DEFAULT_PREVIEWS = {
    "chapter": 'section.fb-doc[data-doc^="notebooks/"]',
    "wide-table": "table[data-fb-zoom]",
}


def check_pdf(
    pdf: str | os.PathLike[str] = "_build/pdf/fairbook.pdf",
    *,
    screenshots: str | os.PathLike[str] | None = None,
    min_pages: int = 1,
    binary: str | None = None,
) -> list[str]:
    """Problems of the book's PDF, for the page check; an empty list when it is fine.

    The PDF must exist, parse (:func:`page_count`) to at least `min_pages` pages, agree with
    the page count its build recorded (``<pdf>.json``) and, for a student PDF, hold no
    solution. With `screenshots`, PNGs of two printed pages (:data:`DEFAULT_PREVIEWS`, via
    :func:`preview` of the print page next to the PDF) are saved there as
    ``pdf-<stem>-<name>.png``.
    """
    pdf = Path(pdf)
    if not pdf.is_file():
        return [f"no PDF at {pdf} (make pdf)"]
    problems = []
    try:
        pages = page_count(pdf)
    except ValueError as exc:
        return [f"{pdf}: {exc}"]
    if pages < min_pages:
        problems.append(f"{pdf} has {pages} pages, fewer than {min_pages}")
    sidecar = pdf.with_suffix(".json")
    print_html = pdf.with_suffix(".html")
    if sidecar.is_file():
        recorded = json.loads(sidecar.read_text("utf-8"))
        if recorded.get("pages") != pages:
            problems.append(f"{pdf} has {pages} pages; its build recorded {recorded.get('pages')}")
        problems += [f"{pdf}: {p}" for p in recorded.get("problems", [])]
    if print_html.is_file():
        source = print_html.read_text("utf-8")
        student = 'data-edition="student"' in source
        problems += [f"{pdf}: {p}" for p in _solution_problems(source, student=student)]
        if screenshots:
            selectors = {
                selector: Path(screenshots) / f"pdf-{pdf.stem}-{name}.png"
                for name, selector in DEFAULT_PREVIEWS.items()
            }
            try:
                preview(print_html, selectors, binary=binary)
            except (RuntimeError, ValueError) as exc:
                problems.append(f"{pdf}: no preview: {exc}")
    elif screenshots:
        problems.append(f"{pdf}: no print page {print_html} to preview")
    return problems


# ---------------------------------------------------------------------------------------------


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m fairbook_book.tooling.pdf",
        description="Print the built book to one PDF with headless Chromium.",
    )
    parser.add_argument("--html", default="_build/html", help="built HTML folder")
    parser.add_argument("--toc", help="_toc.yml (default: the staged one, else ./_toc.yml)")
    parser.add_argument(
        "--out",
        default=None,
        help="the PDF (default _build/pdf/fairbook.pdf, or fairbook-student.pdf with --student)",
    )
    parser.add_argument("--student", action="store_true", help="leave out every solution")
    parser.add_argument(
        "--screenshots", default="", help="folder for PNGs of two printed pages ('' for none)"
    )
    args = parser.parse_args(None if argv is None else list(argv))
    out = args.out or (
        "_build/pdf/fairbook-student.pdf" if args.student else "_build/pdf/fairbook.pdf"
    )
    try:
        result = build_pdf(args.html, out, toc=args.toc, student=args.student)
    except (RuntimeError, FileNotFoundError, ValueError) as exc:
        print(f"pdf: {exc}", file=sys.stderr)
        return 2
    edition = "student" if result.student else "instructor"
    print(
        f"[pdf] {result.pdf}: {result.pages} pages ({edition} edition) in {result.seconds} s; "
        f"charts drawn {result.charts_drawn}/{result.charts}; {result.zoomed} wide tables or "
        f"outputs shrunk, {result.wrapped} wrapped; solutions left out: {result.solutions_removed}"
    )
    problems = list(result.problems)
    if args.screenshots:
        problems += check_pdf(result.pdf, screenshots=args.screenshots)
    for problem in problems:
        print(f"[pdf] - {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
