"""How readable a built page is, in numbers the page check reports and holds to limits.

The page check (:mod:`fairbook_book.tooling.pagecheck`) renders each page in Chromium with
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
``sideways_400``          how many px wider than a 400 px screen the page is (0: nothing
                          makes a phone reader scroll the page sideways)
``worked_example_top_px`` where the first cell tagged ``worked-example`` starts (a chapter
                          must have one, outside every closed fold)
``long_decimals``         table cells with a number of five or more decimals
``whole_numbers_with_decimals``  cells of columns of whole numbers printed with decimals
                          (``5.0000``: counts look like measurements)
``seed_names_open``       "seed NNN" in text a reader sees with the folds closed (chapters
                          name the papers by author and year)
``page_weight_kb``        the page and every file it names (scripts, styles, images, the
                          charts' Vega scripts), in KiB
``unused_widget_js``      widget JavaScript loaded on a page that shows no widget
========================  ===================================================================

:data:`LIMITS` are the book's promises (issue 33); :func:`judge` turns a page's numbers into
problems. Chapters (``notebooks/...``) must also be at most :data:`CHAPTER_HEIGHT_PX` tall
(:data:`CHAPTER_HEIGHT_LIMITS` for the chapters held to less) and
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

from fairbook_book.formatting import is_p_value_column

__all__ = [
    "CHAPTER_HEIGHT_LIMITS",
    "CHAPTER_HEIGHT_PX",
    "EXEMPT",
    "PAGE_HEIGHT_LIMITS",
    "KEY_RESULTS_WITHIN_PX",
    "LIMITS",
    "NARROW_WIDTH_PX",
    "PROBE",
    "dom_metrics",
    "judge",
    "page_weight_kb",
    "probe_metrics",
]

#: A chapter's page height (folds closed) at 1400 x 900, at most.
CHAPTER_HEIGHT_PX = 20_000
#: Chapters held to a shorter page (issue 45: chapter 03 reads in one sitting).
CHAPTER_HEIGHT_LIMITS = {"notebooks/03_small_groups": 12_000}
#: Other pages held to a height (folds closed, 1400 px wide), and what is cut there: the
#: ledger page folds its 1,000-odd rows by paper and table (issue 46).
PAGE_HEIGHT_LIMITS = {"book/ledger": 30_000}
#: The phone's width: no page is wider (its wide tables scroll in their own box).
NARROW_WIDTH_PX = 400
#: A chapter's Key results start within the first two 900-px screens.
KEY_RESULTS_WITHIN_PX = 2 * 900
#: Upper limits on every page (inclusive).
LIMITS = {
    "truncated_cells": 0,
    "scientific_numbers": 0,
    "numpy_reprs": 0,
    "bad_alt_texts": 0,
    "overflow_tables_400": 0,
    "long_decimals": 0,
    "whole_numbers_with_decimals": 0,
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
    body.setAttribute("data-fb-sideways",
      String(Math.max(0, Math.max(body.scrollWidth, doc.scrollWidth) - doc.clientWidth)));
    var worked = document.querySelector(".tag_worked-example");
    var workedTop = "none";
    if (worked) {
      var folded = worked.closest("details:not([open])");
      workedTop = folded ? "folded" :
        String(Math.round(worked.getBoundingClientRect().top + window.scrollY));
    }
    body.setAttribute("data-fb-worked-top", workedTop);
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
    "sideways_px": "data-fb-sideways",
    "worked_example_top_px": "data-fb-worked-top",
}

_SCIENTIFIC = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?[eE][-+]?\d+(?![\w.])")
_NUMPY_REPR = re.compile(r"\bnp\.(?:float|int|uint|bool|str|complex)\w*\(|\barray\(\[")
_PATH_LIKE = re.compile(r"(^|/)[^\s/]+\.(png|svg|jpe?g|gif|webp)$|^\.\.?/|_images/", re.I)
_LONG_DECIMALS = re.compile(r"(?<![\w.])[-+]?\d+\.\d{5,}(?![\w.])")
_WHOLE_WITH_DECIMALS = re.compile(r"^[-+]?\d+\.0+$")
_NUMERIC = re.compile(r"^[-+]?\d+(?:\.\d+)?$")
_SEED_NAME = re.compile(r"\b[Ss]eed 00\d\b")
_FOLDED_CLASSES = {"dropdown", "solution", "toggle-details", "fairbook-fold"}
_SKIP_CLASSES = {"cell_input", "highlight", "math", "MathJax", "sig"}
_SKIP_TAGS = {"script", "style", "code", "mjx-container", "math", "nav"}


def probe_metrics(dom: str) -> dict[str, int | str | None]:
    """The numbers :data:`PROBE` left on ``<body>`` of a rendered DOM (None where absent;
    ``"folded"`` for a worked example inside a closed fold)."""
    out: dict[str, int | str | None] = {}
    for key, attr in _BODY_ATTRS.items():
        match = re.search(rf'\b{attr}="([^"]*)"', dom)
        value = match.group(1) if match else None
        if value in (None, "none", ""):
            out[key] = None
        elif value == "folded":
            out[key] = value
        else:
            out[key] = int(value)
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


def _folded(tag) -> bool:
    """Whether `tag` sits in folded evidence or a folded solution (closed to a reader)."""
    for parent in [tag, *tag.parents]:
        if getattr(parent, "name", None) == "details":
            return True
        classes = set(parent.get("class") or []) if hasattr(parent, "get") else set()
        if classes & _FOLDED_CLASSES:
            return True
    return False


def _whole_numbers_with_decimals(table) -> int:
    """Cells of `table`'s columns that hold only whole numbers printed with decimals
    (``5.0000``, ``10.000``): counts that look like measurements. p-value columns are
    probabilities (a p-value of ``1.000`` is not a count), and a column of only ``0.000`` and
    ``1.000`` is a share or a rate that happens to be whole."""
    p_columns = _p_value_columns(table)
    columns: dict[int, list[str]] = {}
    for row in table.find_all("tr"):
        position = 0
        for cell in row.find_all(["td", "th"], recursive=False):
            if cell.name == "td":
                columns.setdefault(position, []).append(cell.get_text(" ", strip=True))
            position += int(cell.get("colspan", 1) or 1)
    found = 0
    for position, texts in columns.items():
        if position in p_columns:
            continue
        numbers = [t for t in texts if _NUMERIC.match(t)]
        whole = [t for t in numbers if _WHOLE_WITH_DECIMALS.match(t)]
        # a column of 0.000 and 1.000 is a share or a rate that happens to be whole
        counts = [t for t in whole if float(t) not in (0.0, 1.0)]
        if len(whole) >= 2 and len(whole) == len(numbers) and counts:
            found += len(whole)
    return found


def dom_metrics(dom: str) -> dict[str, int]:
    """Counts taken from a page's (rendered) HTML: truncated cells, scientific numbers
    outside p-value columns, numpy reprs, bad alt texts, table cells with five or more
    decimals, whole-number columns printed with decimals, and "seed NNN" in text a reader
    sees with the folds closed (module docstring)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(dom, "html.parser")
    article = _article(soup)
    truncated = scientific = long_decimals = whole_with_decimals = 0
    in_tables = set()
    for table in article.find_all("table"):
        p_columns = _p_value_columns(table)
        whole_with_decimals += _whole_numbers_with_decimals(table)
        for row in table.find_all("tr"):
            position = 0
            for cell in row.find_all(["td", "th"], recursive=False):
                text = cell.get_text(" ", strip=True)
                in_tables.add(id(cell))
                if text.endswith(("...", "…")):
                    truncated += 1
                long_decimals += len(_LONG_DECIMALS.findall(text))
                if position not in p_columns and not _skipped(cell):
                    scientific += len(_SCIENTIFIC.findall(text))
                position += int(cell.get("colspan", 1) or 1)
    numpy = seed_names = 0
    for text in article.find_all(string=True):
        parent = text.parent
        if _SEED_NAME.search(text) and not _skipped(parent) and not _folded(parent):
            seed_names += len(_SEED_NAME.findall(text))
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
        "long_decimals": long_decimals,
        "whole_numbers_with_decimals": whole_with_decimals,
        "seed_names_open": seed_names,
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
        from fairbook_book.charts import VEGA_VENDOR

        for name in ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js"):
            found = _local(page, f"{VEGA_VENDOR}/{name}")
            if found is not None:
                files.add(found)
    total = sum(f.stat().st_size for f in files)
    scripts = " ".join(s.get("src") or "" for s in soup.find_all("script"))
    loads_widgets = "embed-amd.js" in scripts or "html-manager" in scripts
    shows_widgets = "application/vnd.jupyter.widget-view+json" in html
    return round(total / 1024), loads_widgets, shows_widgets


#: Limits a page is not held to, with the reason. The ledger page lists every row's rule,
#: verdict and note as the replication module words them (tolerances such as ±0.00005, and
#: ours at the paper's digits plus one): it is the audit trail, folded by paper and table
#: below its headline, not a reader's table.
EXEMPT = {"book/ledger": ("long_decimals",)}


def judge(doc: str, metrics: dict) -> list[str]:
    """Problems of one page's numbers against :data:`LIMITS` (and the chapter rules)."""
    problems = []
    for key, limit in LIMITS.items():
        if key in EXEMPT.get(doc, ()):
            continue
        value = metrics.get(key)
        if value is not None and value > limit:
            problems.append(f"readability: {key} = {value} (at most {limit})")
    sideways = metrics.get("sideways_400")
    if sideways:
        problems.append(
            f"readability: the page is {sideways} px wider than a {NARROW_WIDTH_PX}-px phone "
            "(wide content scrolls in its own box)"
        )
    if doc in PAGE_HEIGHT_LIMITS:
        height, limit = metrics.get("height_px"), PAGE_HEIGHT_LIMITS[doc]
        if height is not None and height > limit:
            problems.append(f"readability: page is {height} px tall at 1400 px (at most {limit})")
        if metrics.get("overflow_tables"):
            problems.append(
                f"readability: {metrics['overflow_tables']} table(s) wider than the page at "
                "1400 px and not in a scroll box (their right columns are cut)"
            )
    if doc.startswith("notebooks/"):
        if metrics.get("seed_names_open"):
            problems.append(
                f"readability: 'seed NNN' {metrics['seed_names_open']} times outside the folds "
                "(prose names the papers by author and year)"
            )
        worked = metrics.get("worked_example_top_px", "unmeasured")
        if worked is None:
            problems.append("readability: no worked example (a cell tagged worked-example)")
        elif worked == "folded":
            problems.append("readability: the worked example is inside a closed fold")
        height = metrics.get("height_px")
        limit = CHAPTER_HEIGHT_LIMITS.get(doc, CHAPTER_HEIGHT_PX)
        if height is not None and height > limit:
            problems.append(
                f"readability: page is {height} px tall at 1400 px wide "
                f"(this chapter is at most {limit})"
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
