"""Tests of fairbook.audit.html_page: one self-contained page, checked as text and in
headless Chromium the way the book's pages are (fairbook_book.tooling.pagecheck), with Chromium's
network log showing that the page asks for nothing."""

import base64
import json
import re
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from fairbook.audit import audit
from fairbook.audit.text import metric_order
from fairbook_book.tooling import pagecheck

needs_chromium = pytest.mark.skipif(
    pagecheck.chromium_binary() is None, reason="chromium is not installed"
)


def page_requests(page: Path) -> list[str]:
    """URLs the page itself asked for while Chromium rendered it (its network log, without
    the browser's own background requests)."""
    with tempfile.TemporaryDirectory(prefix="fairbook-netlog-") as folder:
        log = Path(folder) / "net.json"
        command = [
            pagecheck.chromium_binary(),
            *pagecheck.CHROMIUM_FLAGS,
            f"--user-data-dir={folder}/profile",
            f"--log-net-log={log}",
            f"--virtual-time-budget={pagecheck.VIRTUAL_TIME_BUDGET_MS}",
            "--dump-dom",
            page.resolve().as_uri(),
        ]
        subprocess.run(command, capture_output=True, timeout=120, check=True)
        events = json.loads(log.read_text())
    start = events["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    urls = []
    for event in events["events"]:
        params = event.get("params", {})
        if event["type"] == start and "file://" in params.get("network_isolation_key", ""):
            urls.append(params["url"])
    return urls


@pytest.fixture(scope="module")
def page(full_report, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("html") / "report.html"
    path.write_text(full_report.to_html(title="Audit <of> a model"), encoding="utf-8")
    return path


def test_self_contained_summary_first_then_figures_then_tables(page):
    html = page.read_text()
    assert not re.search(r"https?:", html)
    assert "<script" not in html and "<link" not in html and "@import" not in html
    assert "<title>Audit &lt;of&gt; a model</title>" in html
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', html)
    assert len(images) >= 3 * 3  # rates, uncertainty, runs for each attribute
    assert html.count("<table class='heatmap'>") == 3  # the gaps, one heat map per attribute
    for data in images:
        assert base64.b64decode(data).startswith(b"\x89PNG")
    assert html.index("Summary") < html.index("What the metrics measure")
    assert html.index("What the metrics measure") < html.index("Figures") < html.index("Tables")
    assert "Holm" in html and "Asian" in html


def test_labels_are_escaped():
    label = "<script>alert(1)</script>\x1b"
    report = audit([1, 0, 1, 0, 1], [1, 1, 0, 0, 1], [label, label, "b", "b", "b"])
    html = report.to_html()
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "\x1b" not in html


@needs_chromium
def test_renders_in_headless_chromium_without_problems(page):
    dom = pagecheck.render(page)
    assert pagecheck.check_html(dom, rendered=True) == []
    assert "Disparities that survive" in dom or "No disparity" in dom
    assert "Groups too small to tell a gap of 0.05 from chance" in dom


@needs_chromium
def test_makes_no_network_request(page, tmp_path):
    assert page_requests(page) == []
    control = tmp_path / "control.html"  # the log does see a page's requests
    control.write_text('<html><body><img src="http://example.invalid/x.png"></body></html>')
    assert page_requests(control) == ["http://example.invalid/x.png"]


def test_tick_labels_are_distinct_short_and_printable():
    from fairbook.audit.html_page import _tick_labels

    long_a, long_b = "x" * 40 + "1", "x" * 40 + "2"
    ticks = _tick_labels([long_a, long_b, "a\\x1b", "a\x1b", 3])
    assert len(set(ticks.values())) == 5
    assert all(len(t) <= 31 and "\x1b" not in t for t in ticks.values())
    assert ticks[3] == "3"


# ------------------------------------------------------------------ the direction, the heat map
class _Heatmaps(HTMLParser):
    """Every heat map of a page as ``[(column names, [(row name, [(text, classes)])])]``."""

    def __init__(self):
        super().__init__()
        self.maps, self._cell, self._in_map = [], None, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self._in_map = attrs.get("class") == "heatmap"
            if self._in_map:
                self.maps.append(([], []))
        elif self._in_map and tag == "tr":
            self._row = None
        elif self._in_map and tag in ("th", "td"):
            self._cell = [tag, attrs.get("scope"), set((attrs.get("class") or "").split()), ""]

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[3] += data

    def handle_endtag(self, tag):
        if tag == "table":
            self._in_map = False
        if self._cell is None or tag not in ("th", "td"):
            return
        kind, scope, classes, text = self._cell
        self._cell = None
        columns, rows = self.maps[-1]
        if scope == "col":
            columns.append(text)
        elif scope == "row":
            rows.append((text, []))
        elif kind == "td":
            rows[-1][1].append((text, classes))


def heatmaps(page: str) -> list:
    parser = _Heatmaps()
    parser.feed(page)
    return parser.maps


@pytest.fixture(scope="module")
def small_table():
    """Four groups: two large, and two too small for every metric (n = 11 and n = 14)."""
    rng = np.random.default_rng(3)
    sizes = {"A": 900, "B": 700, "tiny": 11, "wee": 14}
    group = np.repeat(list(sizes), list(sizes.values()))
    y_true = rng.random(group.size) < 0.45
    y_pred = np.where(rng.random(group.size) < 0.8, y_true, ~y_true)
    y_pred[group == "tiny"] = ~y_true[group == "tiny"]  # the largest raw gaps, in noise
    return pd.DataFrame({"y_true": y_true.astype(int), "y_pred": y_pred.astype(int), "g": group})


@pytest.mark.parametrize("decision", [None, "punitive", "assistive"])
def test_heat_map_marks_exactly_the_cells_flagged_small(full_report, small_table, decision):
    for report in (full_report, audit(small_table, groups="g", decision=decision)):
        page = report.to_html()
        comparisons = report.tables["comparisons"]
        maps = heatmaps(page)
        assert len(maps) == len(report.attributes)
        for attribute, (columns, rows) in zip(report.attributes, maps, strict=True):
            assert columns == metric_order(report)
            part = comparisons[comparisons["attribute"] == attribute]
            names = report.group_names(attribute, width=None)
            expected = {
                (names[g], m): bool(s)
                for g, m, s in zip(part["group"], part["metric"], part["small"], strict=True)
            }
            shown = {
                (row, metric): "small" in classes
                for row, cells in rows
                for metric, (text, classes) in zip(columns, cells, strict=True)
            }
            assert shown == expected
            for _row, cells in rows:  # a small cell says so in its text too
                for text, classes in cells:
                    assert ("°" in text) == ("small" in classes)


def test_heat_map_colour_scale_is_set_by_groups_large_enough(small_table):
    from fairbook.audit.html_page import _colour_limit, _gap_cells

    report = audit(small_table, groups="g")
    cells = _gap_cells(report, "g")
    large = cells[~cells["small"]]
    assert set(cells.loc[cells["small"], "group"]) == {"tiny", "wee"}
    assert np.nanmax(np.abs(cells["gap"])) > np.nanmax(np.abs(large["gap"]))  # the trap
    assert _colour_limit(cells) == pytest.approx(np.nanmax(np.abs(large["gap"])))
    page = report.to_html()
    assert "Hatched, faded cells marked ° belong to a group too small" in page


def test_heat_map_when_every_group_is_small():
    from fairbook.audit.html_page import _colour_limit, _gap_cells

    report = audit([1, 0, 1, 0, 1, 1, 0], [1, 1, 0, 0, 1, 0, 0], list("aaabbbb"))
    cells = _gap_cells(report, "group")
    assert cells["small"].all()
    assert _colour_limit(cells) == pytest.approx(np.nanmax(np.abs(cells["gap"])))


@pytest.mark.parametrize(
    ("decision", "sentence"),
    [
        (
            "punitive",
            "A positive prediction (label 1) harms the person: false positives are the errors "
            "that matter most.",
        ),
        (
            "assistive",
            "A positive prediction (label 1) helps the person: false negatives are the errors "
            "that matter most.",
        ),
        (None, "Direction not given: the audit was not told whether a positive prediction"),
    ],
)
def test_page_says_the_direction_and_orders_the_metrics(small_table, decision, sentence):
    report = audit(small_table, groups="g", decision=decision)
    page = report.to_html()
    assert sentence in page
    assert "beneficial" not in page
    order = metric_order(report)
    section = page[page.index("What the metrics measure") : page.index("<h2>Figures")]
    assert re.findall(r"<tr><td>([A-Z]+)</td>", section) == order
    comparisons = page[page.index("Against the reference: MATCH") :]
    comparisons = comparisons[: comparisons.index("</table>")]
    rows = [
        re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", comparisons, re.S)
    ]
    column = rows[0].index("metric")
    assert list(dict.fromkeys(row[column] for row in rows[1:])) == order


@pytest.mark.parametrize(
    ("test", "name"),
    [
        ("match", "MATCH (seed 003&#x27;s exact law, reference rate plugged in)"),
        ("fisher", "Fisher&#x27;s exact test"),
        ("bayes", "beta-binomial Bayesian rule (Ferrara et al. 2025), Jeffreys prior"),
    ],
)
def test_page_header_names_the_test_and_each_small_flag_has_its_size(test, name):
    from fairbook.audit import audit

    from .conftest import make_table

    report = audit(make_table(240, seed=3), groups=["race"], test=test)
    page = report.to_html()
    header = page.split("<section class='summary'>", 1)[0]
    assert f"Test of each comparison: <strong>{name}</strong>" in header
    summary = page.split("<section class='summary'>", 1)[1].split("</section>", 1)[0]
    small = report.summary()["small_groups"]
    assert summary.count("exact size at n (") == len(small) > 0
    first = small[0]
    size = first["exact_sizes"][first["metrics"].index("ACC")]
    assert 0 <= size <= 1 and f"ACC {size:.3f}".rstrip("0") in summary
