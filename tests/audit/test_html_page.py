"""Tests of fairbook.audit.html_page: one self-contained page, checked as text and in
headless Chromium the way the book's pages are (fairbook.build.pagecheck), with Chromium's
network log showing that the page asks for nothing."""

import base64
import json
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from fairbook.audit import audit
from fairbook.build import pagecheck

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
    assert len(images) >= 3 * 4  # rates, gaps, uncertainty, runs for each attribute
    for data in images:
        assert base64.b64decode(data).startswith(b"\x89PNG")
    assert html.index("Summary") < html.index("Figures") < html.index("Tables")
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
