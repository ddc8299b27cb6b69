"""How readable a built page is, in numbers the page check reports and holds to limits.

The page check (:mod:`fairbook.build.pagecheck`) renders each page in Chromium with
:data:`PROBE` injected, at 1400 px wide and again at 400 px, and measures:

========================  ===================================================================
``height_px``             page height as a reader first sees it (folds closed), 1400 px wide
``height_open_px``        the same with every fold and dropdown opened (for the record)
``key_results_top_px``    where the Key results box starts (None: the page has none)
``truncated_cells``       table cells whose text is cut (ends in ``...`` or ``…``)
``scientific_numbers``    numbers in scientific notation outside p-value columns, in the
                          page's outputs and prose (code and math excluded)
``numpy_reprs``           ``np.float64(...)``, ``array([...])`` and the like in outputs
``bad_alt_texts``         images without alt text or whose alt text is a file path
``overflow_tables_400``   tables wider than a 400 px screen and not in a scroll box
``page_weight_kb``        the page and every file it names (scripts, styles, images, the
                          charts' Vega scripts), in KiB
``unused_widget_js``      widget JavaScript loaded on a page that shows no widget
========================  ===================================================================

:data:`LIMITS` are the book's promises (issue 33); :func:`judge` turns a page's numbers into
problems. Chapters (``notebooks/...``) must also be at most :data:`CHAPTER_HEIGHT_PX` tall and
show their Key results within :data:`KEY_RESULTS_WITHIN_PX` (two 900-px screens).

Examples
--------
>>> html = ('<article class="bd-article"><table><thead><tr><th>gap</th><th>p</th></tr></thead>'
...         '<tbody><tr><td>1.5e-05</td><td>2e-09</td></tr><tr><td>outside [0...</td>'
...         '<td>0.3</td></tr></tbody></table><img src="a.png" alt="../_images/a.png">'
...         '</article>')
>>> m = dom_metrics(html)
>>> m["scientific_numbers"], m["truncated_cells"], m["bad_alt_texts"]
(1, 1, 1)
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlparse

from fairbook.formatting import is_p_value_column

__all__ = [
    "CHAPTER_HEIGHT_PX",
    "KEY_RESULTS_WITHIN_PX",
    "LIMITS",
    "PROBE",
    "dom_metrics",
    "judge",
    "page_weight_kb",
    "probe_metrics",
]

#: A chapter's page height (folds closed) at 1400 x 900, at most.
CHAPTER_HEIGHT_PX = 20_000
#: A chapter's Key results start within the first two 900-px screens.
KEY_RESULTS_WITHIN_PX = 2 * 900
#: Upper limits on every page (inclusive).
LIMITS = {
    "truncated_cells": 0,
    "scientific_numbers": 0,
    "numpy_reprs": 0,
    "bad_alt_texts": 0,
    "overflow_tables_400": 0,
    "unused_widget_js": 0,
    # every page loads the theme and MathJax (3.5 MiB); a chapter adds Vega (0.8 MiB), its
    # HTML and its figures. Without the widget bundle (3.5 MiB, issue 33) the heaviest
    # chapter weighed 5.8 MiB; before, chapters weighed 7.0-9.4 MiB
    "page_weight_kb": 6 * 1024,
}

# Written into a copy of the page: once scripts have run, measure and leave the numbers in
# attributes of <body>. Timers run on Chromium's virtual clock.
PROBE = """
<script>
window.addEventListener("load", function () {
  setTimeout(function () {
    var body = document.body, doc = document.documentElement;
    function height() { return Math.max(body.scrollHeight, doc.scrollHeight); }
    var key = document.querySelector(".key-results");
    body.setAttribute("data-fb-height", String(height()));
    body.setAttribute("data-fb-key-top",
      key ? String(Math.round(key.getBoundingClientRect().top + window.scrollY)) : "none");
    var overflow = 0, width = doc.clientWidth;
    document.querySelectorAll("article table, .bd-article table").forEach(function (t) {
      if (t.getBoundingClientRect().right <= width + 1) { return; }
      for (var el = t; el && el !== body; el = el.parentElement) {
        var style = window.getComputedStyle(el).overflowX;
        if (style === "auto" || style === "scroll" || style === "hidden") { return; }
      }
      overflow += 1;
    });
    body.setAttribute("data-fb-overflow", String(overflow));
    document.querySelectorAll("details").forEach(function (d) { d.open = true; });
    document.querySelectorAll(".toggle-hidden, .toggle-details__summary").forEach(
      function (e) { e.classList.remove("toggle-hidden"); });
    body.setAttribute("data-fb-height-open", String(height()));
  }, 4000);
});
</script>
"""

_BODY_ATTRS = {
    "height_px": "data-fb-height",
    "height_open_px": "data-fb-height-open",
    "key_results_top_px": "data-fb-key-top",
    "overflow_tables": "data-fb-overflow",
}

_SCIENTIFIC = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?[eE][-+]?\d+(?![\w.])")
_NUMPY_REPR = re.compile(r"\bnp\.(?:float|int|uint|bool|str|complex)\w*\(|\barray\(\[")
_PATH_LIKE = re.compile(r"(^|/)[^\s/]+\.(png|svg|jpe?g|gif|webp)$|^\.\.?/|_images/", re.I)
_SKIP_CLASSES = {"cell_input", "highlight", "math", "MathJax", "sig"}
_SKIP_TAGS = {"script", "style", "code", "mjx-container", "math", "nav"}


def probe_metrics(dom: str) -> dict[str, int | None]:
    """The numbers :data:`PROBE` left on ``<body>`` of a rendered DOM (None where absent)."""
    out = {}
    for key, attr in _BODY_ATTRS.items():
        match = re.search(rf'\b{attr}="([^"]*)"', dom)
        value = match.group(1) if match else None
        out[key] = int(value) if value not in (None, "none", "") else None
    return out


def _article(soup):
    return soup.select_one("article.bd-article") or soup.find("article") or soup.body or soup


def _skipped(tag) -> bool:
    for parent in [tag, *tag.parents]:
        if getattr(parent, "name", None) in _SKIP_TAGS:
            return True
        if _SKIP_CLASSES & set(parent.get("class") or []) if hasattr(parent, "get") else False:
            return True
    return False


def _p_value_columns(table) -> set[int]:
    head = table.find("thead")
    rows = head.find_all("tr") if head else []
    columns: set[int] = set()
    for row in rows:
        position = 0
        for cell in row.find_all(["th", "td"]):
            span = int(cell.get("colspan", 1) or 1)
            if is_p_value_column(cell.get_text(" ", strip=True)):
                columns.update(range(position, position + span))
            position += span
    return columns


def dom_metrics(dom: str) -> dict[str, int]:
    """Counts taken from a page's (rendered) HTML: truncated cells, scientific numbers
    outside p-value columns, numpy reprs and bad alt texts (module docstring)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(dom, "html.parser")
    article = _article(soup)
    truncated = scientific = 0
    in_tables = set()
    for table in article.find_all("table"):
        p_columns = _p_value_columns(table)
        for row in table.find_all("tr"):
            position = 0
            for cell in row.find_all(["td", "th"], recursive=False):
                text = cell.get_text(" ", strip=True)
                in_tables.add(id(cell))
                if text.endswith(("...", "…")):
                    truncated += 1
                if position not in p_columns and not _skipped(cell):
                    scientific += len(_SCIENTIFIC.findall(text))
                position += int(cell.get("colspan", 1) or 1)
    numpy = 0
    for text in article.find_all(string=True):
        parent = text.parent
        if any(id(p) in in_tables for p in [parent, *parent.parents]):
            continue
        if _skipped(parent):
            continue
        scientific += len(_SCIENTIFIC.findall(text))
        numpy += len(_NUMPY_REPR.findall(text))
    bad_alt = 0
    for image in article.find_all("img"):
        alt = (image.get("alt") or "").strip()
        if not alt or _PATH_LIKE.search(alt):
            bad_alt += 1
    return {
        "truncated_cells": truncated,
        "scientific_numbers": scientific,
        "numpy_reprs": numpy,
        "bad_alt_texts": bad_alt,
    }


def _local(page: Path, url: str) -> Path | None:
    parsed = urlparse(url)
    if parsed.scheme not in ("", "file") or not parsed.path:
        return None
    path = (page.parent / unquote(parsed.path)).resolve()
    return path if path.is_file() else None


def page_weight_kb(page: str | Path) -> tuple[int, bool, bool]:
    """KiB of `page` and the local files it names; whether it loads widget JavaScript; whether
    it shows a widget. Vega's scripts count when the page has a chart."""
    from bs4 import BeautifulSoup

    page = Path(page)
    html = page.read_text("utf-8")
    soup = BeautifulSoup(html, "html.parser")
    files = {page.resolve()}
    for tag, attr in (("script", "src"), ("link", "href"), ("img", "src")):
        for element in soup.find_all(tag):
            url = element.get(attr)
            if not url:
                continue
            if tag == "link" and not {"stylesheet", "preload"} & set(element.get("rel") or []):
                continue
            found = _local(page, url)
            if found is not None:
                files.add(found)
    if 'class="fairbook-vega"' in html:
        from fairbook.charts import VEGA_VENDOR

        for name in ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js"):
            found = _local(page, f"{VEGA_VENDOR}/{name}")
            if found is not None:
                files.add(found)
    total = sum(f.stat().st_size for f in files)
    scripts = " ".join(s.get("src") or "" for s in soup.find_all("script"))
    loads_widgets = "embed-amd.js" in scripts or "html-manager" in scripts
    shows_widgets = "application/vnd.jupyter.widget-view+json" in html
    return round(total / 1024), loads_widgets, shows_widgets


def judge(doc: str, metrics: dict) -> list[str]:
    """Problems of one page's numbers against :data:`LIMITS` (and the chapter rules)."""
    problems = []
    for key, limit in LIMITS.items():
        value = metrics.get(key)
        if value is not None and value > limit:
            problems.append(f"readability: {key} = {value} (at most {limit})")
    if doc.startswith("notebooks/"):
        height = metrics.get("height_px")
        if height is not None and height > CHAPTER_HEIGHT_PX:
            problems.append(
                f"readability: page is {height} px tall at 1400 px wide "
                f"(a chapter is at most {CHAPTER_HEIGHT_PX})"
            )
        if "key_results_top_px" in metrics:
            top = metrics["key_results_top_px"]
            if top is None:
                problems.append("readability: no Key results box")
            elif top > KEY_RESULTS_WITHIN_PX:
                problems.append(
                    f"readability: Key results start at {top} px "
                    f"(within the first two screens: at most {KEY_RESULTS_WITHIN_PX})"
                )
    return problems
