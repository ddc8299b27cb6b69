"""Check the built book page by page in headless Chromium.

For every document named in ``_toc.yml`` the HTML page must exist; each page is rendered by
Chromium (scripts run: MathJax typesets, widgets render) and the rendered DOM must show

- no Python traceback: the text ``Traceback (most recent call last)``, an error output
  (``output_error``, myst-nb's ``traceback`` output, an ANSI-red ``...Error`` span) or
  papermill's "An Exception was encountered" banner; cells tagged ``raises-exception`` may
  show one on purpose and are skipped;
- a non-empty article body;
- no unrendered math: ``$$`` left in the text, or a Sphinx ``math`` element that MathJax did
  not replace with an ``mjx-container`` (only checked when Chromium rendered the page);
- every static explorer (:mod:`fairbook_book.charts`) drawn, and each of its controls changing
  the drawing when moved (:func:`check_charts`, with Chromium only).

One PNG screenshot per page goes to ``_build/screenshots/`` for humans.

Run it as ``python -m fairbook_book.tooling.pagecheck _build/html`` (exit status 1 on any failure).

Examples
--------
>>> from fairbook_book.tooling.pagecheck import check_html
>>> check_html("<html><body><main><p>fine</p></main></body></html>")
[]
>>> check_html("<body><main><pre>Traceback (most recent call last):</pre></main></body>")
['Python traceback: Traceback (most recent call last):']
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from fairbook_book.tooling import readability

__all__ = [
    "PageResult",
    "check_book",
    "check_charts",
    "check_html",
    "chromium_binary",
    "main",
    "readability_table",
    "render",
    "screenshot",
    "toc_pages",
    "write_report",
]

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--mute-audio",
    # the page loads its own JS, MathJax fonts and widget fonts from file:// URLs
    "--allow-file-access-from-files",
)
VIRTUAL_TIME_BUDGET_MS = 10_000
#: The reader's window: 1400 px wide; the screenshot is the first two 900-px screens.
WINDOW_SIZE = (1400, 1800)
#: A phone: tables wider than this must sit in a scroll box.
NARROW_WINDOW = (400, 900)

_VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "param",
    "source",
    "track",
    "wbr",
}
_RAW_TEXT = {"script", "style", "template", "textarea", "noscript"}
_CODE = {"pre", "code", "kbd", "samp"}
_TRACEBACK = "Traceback (most recent call last)"
_PAPERMILL_BANNER = "An Exception was encountered at"
_ANSI_RED = re.compile(r"(^|\s)(ansi-red(-intense)?-fg|-Color-Red|-Color-BrightRed)(\s|$)")
_ERROR_NAME = re.compile(r"\b[A-Z]\w*(Error|Exception)\b")
# TeX left as text: $...\command...$, \(...\) or \[...\] outside math elements
_RAW_TEX = re.compile(
    r"\$[^$\n]{0,200}?\\[A-Za-z]+[^$\n]{0,200}?\$|\\\([^\n]{0,200}?\\\)|\\\[[^\n]{0,400}?\\\]"
)


def chromium_binary() -> str | None:
    """Path of a Chromium/Chrome executable (``$CHROMIUM`` first), or None."""
    env = os.environ.get("CHROMIUM")
    if env:
        return env if shutil.which(env) else None
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


# ---------------------------------------------------------------------------------------------
# DOM checks


@dataclass
class _Element:
    tag: str
    classes: frozenset[str]


class _Scanner(HTMLParser):
    """One pass over a (rendered) page collecting what the checks need."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[_Element] = []
        self.problems: list[str] = []
        self.article_text: list[str] = []  # inside <article> / .bd-article
        self.main_text: list[str] = []  # inside <main>
        self.body_text: list[str] = []
        self.saw_article = False
        self.saw_main = False
        self.dollar_snippets: list[str] = []
        self.tex_snippets: list[str] = []
        self.math_elements = 0
        self.math_rendered = 0
        self._math_depth: list[int] = []  # stack depth of open math elements
        self._math_has_mjx: list[bool] = []
        self._red_depth: list[int] = []
        self._red_text: list[str] = []

    # helpers
    def _inside(self, predicate) -> bool:
        return any(predicate(e) for e in self.stack)

    def _allowed_error(self) -> bool:
        return self._inside(lambda e: "tag_raises-exception" in e.classes)

    def _in_article(self) -> bool:
        return self._inside(lambda e: e.tag == "article" or "bd-article" in e.classes)

    def handle_starttag(self, tag, attrs):
        attrs_d = dict(attrs)
        classes = frozenset((attrs_d.get("class") or "").split())
        if tag == "article" or "bd-article" in classes:
            self.saw_article = True
        if tag == "main":
            self.saw_main = True
        if tag == "mjx-container" and self._math_has_mjx:
            self._math_has_mjx[-1] = True
        if tag in _VOID:
            return
        element = _Element(tag, classes)
        self.stack.append(element)
        if not self._allowed_error():
            if "output_error" in classes or (
                "traceback" in classes and self._inside(lambda e: "cell_output" in e.classes)
            ):
                self.problems.append(f"error output ({tag}.{'.'.join(sorted(classes))})")
        if "math" in classes and tag in ("span", "div") and not self._math_depth:
            self.math_elements += 1
            self._math_depth.append(len(self.stack))
            self._math_has_mjx.append(False)
        if _ANSI_RED.search(" ".join(classes)):
            self._red_depth.append(len(self.stack))
            self._red_text.append("")

    def handle_endtag(self, tag):
        if tag in _VOID:
            return
        # pop to the matching element (tolerate sloppy HTML)
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].tag == tag:
                depth = i + 1
                while self._red_depth and self._red_depth[-1] >= depth:
                    self._red_depth.pop()
                    text = self._red_text.pop()
                    if _ERROR_NAME.search(text) and not self._allowed_error():
                        self.problems.append(f"ANSI-red error name in an output: {text.strip()}")
                if self._math_depth and self._math_depth[-1] >= depth:
                    self._math_depth.pop()
                    if self._math_has_mjx.pop():
                        self.math_rendered += 1
                del self.stack[i:]
                return

    def handle_data(self, data):
        if self._inside(lambda e: e.tag in _RAW_TEXT):
            return
        if self._red_text:
            self._red_text[-1] += data
        if self._inside(lambda e: e.tag == "body"):
            self.body_text.append(data)
        if self._in_article():
            self.article_text.append(data)
        if self._inside(lambda e: e.tag == "main"):
            self.main_text.append(data)
        if not self._allowed_error():
            if _TRACEBACK in data:
                self.problems.append(f"Python traceback: {data.strip()[:120]}")
            elif _PAPERMILL_BANNER in data:
                self.problems.append(f"papermill error banner: {data.strip()[:120]}")
        if not self._inside(lambda e: e.tag in _CODE or e.tag.startswith("mjx-")):
            if "$$" in data:
                self.dollar_snippets.append(data.strip()[:80])
            elif not self._math_depth:
                match = _RAW_TEX.search(data)
                if match:
                    self.tex_snippets.append(match.group(0)[:80])


def check_html(html: str, *, rendered: bool = False) -> list[str]:
    """Problems found in one page's HTML (empty list: the page is fine).

    Parameters
    ----------
    html : str
        The page, as built or as rendered by Chromium (``--dump-dom``).
    rendered : bool
        True for a DOM after scripts ran: then every Sphinx ``math`` element must contain
        MathJax output (``mjx-container``).
    """
    scanner = _Scanner()
    scanner.feed(html)
    scanner.close()
    problems = list(dict.fromkeys(scanner.problems))  # de-duplicate, keep order
    if scanner.saw_article:
        text = "".join(scanner.article_text)
    elif scanner.saw_main:
        text = "".join(scanner.main_text)
    else:
        text = "".join(scanner.body_text)
    if not text.strip():
        problems.append("empty page body")
    for snippet in scanner.dollar_snippets[:3]:
        problems.append(f"unrendered math ($$ in the text): {snippet}")
    if rendered:
        for snippet in scanner.tex_snippets[:3]:
            problems.append(f"unrendered math (TeX in the text): {snippet}")
    if rendered and scanner.math_elements > scanner.math_rendered:
        missing = scanner.math_elements - scanner.math_rendered
        problems.append(
            f"unrendered math: {missing} of {scanner.math_elements} math elements were not "
            "typeset by MathJax"
        )
    return problems


# ---------------------------------------------------------------------------------------------
# Chromium


def _chromium_cmd(binary: str, profile_dir: str, *extra: str) -> list[str]:
    return [binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile_dir}", *extra]


def render(
    page: Path,
    *,
    binary: str | None = None,
    timeout: float = 120,
    screenshot_to: Path | None = None,
    window: tuple[int, int] | None = None,
) -> str:
    """The DOM of `page` after Chromium ran its scripts (``--dump-dom``).

    With `screenshot_to`, the same Chromium run also saves a PNG of the page (window
    :data:`WINDOW_SIZE`, as :func:`screenshot`): one browser start instead of two per page.
    `window` sets the window size (default :data:`WINDOW_SIZE` with a screenshot, Chromium's
    own otherwise).
    """
    binary = binary or chromium_binary()
    if binary is None:
        raise RuntimeError("chromium is not installed (apt-get install chromium)")
    png = Path(screenshot_to).resolve() if screenshot_to is not None else None
    extra: tuple[str, ...] = ()
    if png is not None:
        png.parent.mkdir(parents=True, exist_ok=True)
        png.unlink(missing_ok=True)
        window = window or WINDOW_SIZE
        extra = (f"--screenshot={png}",)
    if window is not None:
        extra = (f"--window-size={window[0]},{window[1]}", *extra)
    with tempfile.TemporaryDirectory(prefix="fairbook-chromium-") as profile:
        cmd = _chromium_cmd(
            binary,
            profile,
            f"--virtual-time-budget={VIRTUAL_TIME_BUDGET_MS}",
            *extra,
            "--dump-dom",
            Path(page).resolve().as_uri(),
        )
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise RuntimeError(
            f"chromium failed on {page} (exit {proc.returncode}): {proc.stderr.strip()[-500:]}"
        )
    if png is not None and not png.exists():
        raise RuntimeError(f"chromium saved no screenshot of {page}: {proc.stderr.strip()[-500:]}")
    return proc.stdout


def screenshot(page: Path, png: Path, *, binary: str | None = None, timeout: float = 120) -> Path:
    """Save a PNG of `page` (window :data:`WINDOW_SIZE`) after its scripts ran; the path returned is
    `png`, resolved. One :func:`render` run with `screenshot_to`, its DOM unused."""
    png = Path(png).resolve()
    render(page, binary=binary, timeout=timeout, screenshot_to=png)
    return png


# ---------------------------------------------------------------------------------------------
# static explorers: every control of every chart must change its drawing

# Injected into a temporary copy of a page: once the charts have drawn, move each bound
# control of each chart in turn (a slider to another end, a dropdown to the next option, a
# radio button to another choice, a checkbox flipped), let Vega redraw, and record in the
# chart's container whether its SVG changed. Timers run on Chromium's virtual clock.
_CHART_PROBE = """
<script>
window.addEventListener("load", function () {
  setTimeout(function () {
    var charts = Array.prototype.slice.call(document.querySelectorAll(".fairbook-vega"));
    charts.forEach(function (chart) {
      var svg = function () { var e = chart.querySelector("svg"); return e ? e.outerHTML : ""; };
      var inputs = Array.prototype.slice.call(
        chart.querySelectorAll(".vega-bindings input, .vega-bindings select"));
      var seen = {}, controls = [];
      inputs.forEach(function (el) {  // one control per radio group
        var key = el.type === "radio" ? "radio:" + el.name : "el:" + controls.length;
        if (!seen[key]) { seen[key] = true; controls.push(el); }
      });
      var results = [];
      chart.setAttribute("data-fb-drawn", svg() ? "yes" : "no");
      function move(el) {
        if (el.tagName === "SELECT") {
          el.selectedIndex = (el.selectedIndex + 1) % el.options.length;
        } else if (el.type === "range") {
          var lo = parseFloat(el.min), hi = parseFloat(el.max), v = parseFloat(el.value);
          el.value = String(Math.abs(v - hi) > Math.abs(v - lo) ? hi : lo);
        } else if (el.type === "radio") {
          var group = chart.querySelectorAll('input[name="' + el.name + '"]');
          for (var i = 0; i < group.length; i++) {
            if (!group[i].checked) { group[i].click(); return; }
          }
        } else if (el.type === "checkbox") { el.click(); return; }
        el.dispatchEvent(new Event("input", {bubbles: true}));
        el.dispatchEvent(new Event("change", {bubbles: true}));
      }
      function step(i) {
        if (i === controls.length) {
          chart.setAttribute("data-fb-controls", results.join(";"));
          return;
        }
        var before = svg();
        move(controls[i]);
        setTimeout(function () {
          var label = (controls[i].name || controls[i].type || "control").replace(/[;=]/g, "_");
          results.push(label + "=" + (svg() !== before ? "changed" : "unchanged"));
          step(i + 1);
        }, 400);
      }
      step(0);
    });
  }, DELAY_MS);
});
</script>
"""
#: When the chart probe starts after the page loaded, alone (:func:`check_charts`) and after
#: the readability probe (4 s) in the phone-width render of :func:`_check_page`.
_CHART_PROBE_ALONE_MS = 3000
_CHART_PROBE_AFTER_READABILITY_MS = 5000
_PROBED_TAG = re.compile(r"<div[^>]*\bdata-fb-drawn=\"(\w+)\"[^>]*>")
_PROBED_CONTROLS = re.compile(r"\bdata-fb-controls=\"([^\"]*)\"")


def check_charts(page: Path, *, binary: str | None = None) -> list[str]:
    """Problems of the static explorers on `page`: a chart that did not draw, a chart with
    no control, or a control whose move leaves the drawing unchanged. Pages without charts
    have none."""
    page = Path(page)
    source = page.read_text("utf-8")
    expected = source.count('class="fairbook-vega"')
    if not expected:
        return []
    probe = page.with_name(f".{page.stem}.chart-probe.html")
    script = _chart_probe(_CHART_PROBE_ALONE_MS)
    probe.write_text(source.replace("</body>", script + "</body>", 1), encoding="utf-8")
    try:
        dom = render(probe, binary=binary)
    finally:
        probe.unlink(missing_ok=True)
    return chart_problems(dom, expected)


def _chart_probe(delay_ms: int) -> str:
    return _CHART_PROBE.replace("DELAY_MS", str(int(delay_ms)))


def chart_problems(dom: str, expected: int) -> list[str]:
    """The problems :func:`check_charts` reports, read from the DOM of a page rendered with
    the chart probe (`expected`: how many charts the page has)."""
    problems = []
    found = []
    for tag in _PROBED_TAG.finditer(dom):
        controls = _PROBED_CONTROLS.search(tag.group(0))
        found.append((tag.group(1), controls.group(1) if controls else ""))
    if len(found) < expected:
        problems.append(f"{expected - len(found)} of {expected} charts were never probed")
    for number, (drawn, controls) in enumerate(found, start=1):
        if drawn != "yes":
            problems.append(f"chart {number} did not draw")
            continue
        moves = [c.split("=") for c in controls.split(";") if c]
        if not moves:
            problems.append(f"chart {number} has no control")
        for name, outcome in moves:
            if outcome != "changed":
                problems.append(f"chart {number}: moving {name} left the drawing unchanged")
    return problems


# ---------------------------------------------------------------------------------------------
# the book


def toc_pages(toc: str | os.PathLike[str]) -> list[str]:
    """Documents of ``_toc.yml`` (``book/intro``, ``notebooks/01_...``), root first."""
    from fairbook_book.tooling.chapters import toc_files

    return toc_files(toc)


@dataclass
class PageResult:
    doc: str
    path: Path
    problems: list[str] = field(default_factory=list)
    screenshot: Path | None = None
    #: readability numbers (:mod:`fairbook_book.tooling.readability`)
    metrics: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


def _default_toc(html_dir: Path) -> Path:
    staged = html_dir.parent / "stage" / "_toc.yml"  # what `fairbook-book build` actually built
    if staged.is_file():
        return staged
    return Path("_toc.yml")


def _check_page(doc: str, html_dir: Path, binary: str | None, screenshots) -> PageResult:
    page = html_dir / f"{doc}.html"
    result = PageResult(doc, page)
    if not page.is_file():
        result.problems.append(f"missing page {page}")
        return result
    try:
        weight, loads_widgets, shows_widgets = readability.page_weight_kb(page)
        result.metrics["page_weight_kb"] = weight
        result.metrics["unused_widget_js"] = int(loads_widgets and not shows_widgets)
        if binary:
            png = None
            if screenshots:
                png = (Path(screenshots) / (doc.replace("/", "__") + ".png")).resolve()
            probe = page.with_name(f".{page.stem}.readability-probe.html")
            source = page.read_text("utf-8")
            probe.write_text(
                source.replace("</body>", readability.PROBE + "</body>", 1), encoding="utf-8"
            )
            # the phone-width render also moves every chart's controls, after the readability
            # probe measured: one page load fewer than a render of its own
            charts = source.count('class="fairbook-vega"')
            narrow_probe = page.with_name(f".{page.stem}.narrow-probe.html")
            chart_probe = _chart_probe(_CHART_PROBE_AFTER_READABILITY_MS) if charts else ""
            narrow_probe.write_text(
                source.replace("</body>", readability.PROBE + chart_probe + "</body>", 1),
                encoding="utf-8",
            )
            try:
                dom = render(probe, binary=binary, screenshot_to=png)
                narrow = render(narrow_probe, binary=binary, window=NARROW_WINDOW)
            finally:
                probe.unlink(missing_ok=True)
                narrow_probe.unlink(missing_ok=True)
            result.screenshot = png
            result.problems += check_html(dom, rendered=True)
            wide = readability.probe_metrics(dom)
            phone = readability.probe_metrics(narrow)
            result.metrics.update(
                height_px=wide["height_px"],
                height_open_px=wide["height_open_px"],
                key_results_top_px=wide["key_results_top_px"],
                worked_example_top_px=wide["worked_example_top_px"],
                overflow_tables_400=phone["overflow_tables"],
                sideways_400=phone["sideways_px"],
            )
            result.metrics.update(readability.dom_metrics(dom))
            if charts:
                result.problems += chart_problems(narrow, charts)
        else:
            html = page.read_text("utf-8")
            result.problems += check_html(html, rendered=False)
            result.metrics.update(readability.dom_metrics(html))
        result.problems += readability.judge(doc, result.metrics)
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        result.problems.append(str(exc))
    return result


#: The readability numbers in the order of the printed table (and of ``pagecheck.json``).
COLUMNS = (
    ("height_px", "height"),
    ("height_open_px", "opened"),
    ("key_results_top_px", "key top"),
    ("truncated_cells", "cut"),
    ("scientific_numbers", "sci"),
    ("numpy_reprs", "repr"),
    ("bad_alt_texts", "alt"),
    ("worked_example_top_px", "worked"),
    ("overflow_tables_400", "wide@400"),
    ("sideways_400", "side@400"),
    ("long_decimals", "5dp"),
    ("whole_numbers_with_decimals", "n.0"),
    ("seed_names_open", "seed"),
    ("page_weight_kb", "KiB"),
    ("unused_widget_js", "widgetJS"),
)


def readability_table(results: list[PageResult]) -> str:
    """The readability numbers of every page as a plain-text table (one row a page)."""
    header = ["page", *(label for _, label in COLUMNS)]
    rows = [
        [
            r.doc.split("/")[-1],
            *("-" if r.metrics.get(k) is None else str(r.metrics[k]) for k, _ in COLUMNS),
        ]
        for r in results
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(row: list[str]) -> str:
        cells = zip(row, widths, strict=True)
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(cells))

    return "\n".join([line(header), *(line(row) for row in rows)])


def write_report(results: list[PageResult], path: str | os.PathLike[str]) -> Path:
    """Write every page's readability numbers and problems as JSON (``_build/pagecheck.json``)."""
    import json

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    report = {
        "limits": {
            **readability.LIMITS,
            "chapter_height_px": readability.CHAPTER_HEIGHT_PX,
            "key_results_within_px": readability.KEY_RESULTS_WITHIN_PX,
        },
        "window": list(WINDOW_SIZE),
        "narrow_window": list(NARROW_WINDOW),
        "pages": {
            r.doc: {**{k: r.metrics.get(k) for k, _ in COLUMNS}, "problems": r.problems}
            for r in results
        },
    }
    path.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return path


def check_book(
    html_dir: str | os.PathLike[str],
    *,
    toc: str | os.PathLike[str] | None = None,
    screenshots: str | os.PathLike[str] | None = None,
    use_chromium: bool | None = None,
    jobs: int = 1,
    echo=print,
) -> list[PageResult]:
    """Check every page of the TOC in `html_dir`.

    `use_chromium` None means "if installed"; False checks the static HTML only; True
    requires Chromium. `jobs` pages are checked side by side (each in its own Chromium
    processes and profile); results are reported in TOC order.
    """
    html_dir = Path(html_dir)
    toc = Path(toc) if toc else _default_toc(html_dir)
    binary = chromium_binary()
    if use_chromium and binary is None:
        raise RuntimeError("chromium is not installed (apt-get install chromium)")
    if use_chromium is False:
        binary = None
    if int(jobs) < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs!r}")
    from concurrent.futures import ThreadPoolExecutor

    results = []
    with ThreadPoolExecutor(max_workers=int(jobs)) as pool:
        checked = pool.map(
            lambda doc: _check_page(doc, html_dir, binary, screenshots), toc_pages(toc)
        )
        for result in checked:
            results.append(result)
            status = "ok" if result.ok else "FAILED"
            echo(f"[pagecheck] {status:6} {result.doc}", flush=True)
            for problem in result.problems:
                echo(f"           - {problem}", flush=True)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m fairbook_book.tooling.pagecheck",
        description="Check every page of the built book in headless Chromium.",
    )
    parser.add_argument("html", nargs="?", default="_build/html", help="built HTML folder")
    parser.add_argument(
        "--toc",
        help="_toc.yml to take the pages from "
        "(default: the staged one next to HTML, else ./_toc.yml)",
    )
    parser.add_argument(
        "--screenshots",
        default="_build/screenshots",
        help="folder for one PNG per page ('' for none)",
    )
    parser.add_argument(
        "--no-chromium",
        action="store_true",
        help="check the static HTML only (no rendering, no screenshots)",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="pages checked side by side (default 1)"
    )
    parser.add_argument(
        "--report",
        help="JSON file for every page's readability numbers "
        "(default: pagecheck.json next to the HTML folder, i.e. _build/pagecheck.json)",
    )
    args = parser.parse_args(argv)
    use = False if args.no_chromium else True
    try:
        results = check_book(
            args.html,
            toc=args.toc,
            screenshots=args.screenshots or None,
            use_chromium=use,
            jobs=args.jobs,
        )
    except (RuntimeError, ValueError) as exc:
        print(f"pagecheck: {exc}", file=sys.stderr)
        return 2
    bad = [r for r in results if not r.ok]
    report = write_report(results, args.report or Path(args.html).parent / "pagecheck.json")
    print("[pagecheck] readability (px at 1400 x 900; cut/sci/repr/alt/wide@400: counts)")
    print(readability_table(results))
    print(
        f"[pagecheck] {len(results) - len(bad)}/{len(results)} pages ok; numbers in {report}"
        + (f"; screenshots in {args.screenshots}" if args.screenshots and use else "")
    )
    pdf_problems = _check_pdfs(Path(args.html).parent / "pdf", args, use, len(results))
    slide_problems = _check_slides(Path(args.html).parent / "slides", args, use)
    return 1 if bad or pdf_problems or slide_problems else 0


def _check_slides(folder: Path, args, use: bool) -> list[str]:
    """Open every slide deck (``make slides``), when they were built, in headless Chromium."""
    from fairbook_book.tooling import slides

    if not folder.exists():
        print(f"[pagecheck] no {folder} (make slides builds it): not checked", flush=True)
        return []
    if not use:
        print(f"[pagecheck] {folder}: not checked (--no-chromium)", flush=True)
        return []
    theory = slides.DEFAULT_THEORY  # the appendix's theorem deck, counted again from its page
    problems = slides.check_slides(
        folder,
        executed_dir=Path(args.html).parent / "executed" / "notebooks",
        theory=theory if theory.exists() else None,
        screenshots=args.screenshots or None,
    )
    print(f"[pagecheck] {'ok' if not problems else 'FAILED':6} {folder}", flush=True)
    for problem in problems:
        print(f"           - {problem}", flush=True)
    return problems


def _check_pdfs(folder: Path, args, use: bool, pages: int) -> list[str]:
    """Open the book's PDFs (``make pdf``), when they were built: page count against the
    build's record, no solution in the student edition, two pages rendered to look at."""
    from fairbook_book.tooling import pdf as book_pdf

    problems: list[str] = []
    for name in ("fairbook.pdf", "fairbook-student.pdf"):
        if not (folder / name).exists():
            print(f"[pagecheck] no {folder / name} (make pdf builds it): not checked", flush=True)
            continue
        found = book_pdf.check_pdf(
            folder / name,
            screenshots=(args.screenshots or None) if use else None,
            min_pages=pages,  # every document takes at least one page
        )
        print(f"[pagecheck] {'ok' if not found else 'FAILED':6} {folder / name}", flush=True)
        for problem in found:
            print(f"           - {problem}", flush=True)
        problems += found
    return problems


if __name__ == "__main__":
    sys.exit(main())
