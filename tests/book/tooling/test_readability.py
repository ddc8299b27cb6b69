"""Tests of :mod:`fairbook_book.tooling.readability` on hand-written pages (and in Chromium)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairbook_book.tooling import pagecheck, readability


def article(content: str) -> str:
    return f'<html><body><main><article class="bd-article">{content}</article></main></body></html>'


TABLE = """<table><thead><tr><th></th><th>gap</th><th>Holm p</th><th>note</th></tr></thead>
<tbody>
<tr><th>a</th><td>1.5e-05</td><td>2.0e-09</td><td>outside 95 % interval [0...</td></tr>
<tr><th>b</th><td>0.25</td><td>0.3</td><td>fine…</td></tr>
</tbody></table>"""


def test_counts_in_tables_respect_p_value_columns():
    m = readability.dom_metrics(article(TABLE))
    assert m == {
        "truncated_cells": 2,
        "scientific_numbers": 1,
        "numpy_reprs": 0,
        "bad_alt_texts": 0,
        "long_decimals": 0,
        "whole_numbers_with_decimals": 0,
        "seed_names_open": 0,
    }


def test_counts_in_outputs_and_prose_skip_code_and_math():
    html = article(
        "<p>An error of 3.2e-05 in prose.</p>"
        '<div class="cell_input"><pre>x = 1e-9; np.float64(1)</pre></div>'
        '<div class="cell_output"><pre>np.float64(0.5) array([1, 2]) 7e+02</pre></div>'
        '<span class="math">10^{-9} = 1e-9</span><code>2e-3</code>'
    )
    m = readability.dom_metrics(html)
    assert m["scientific_numbers"] == 2 and m["numpy_reprs"] == 2


@pytest.mark.parametrize(
    ("alt", "bad"),
    [(None, 1), ("", 1), ("../_images/abc.png", 1), ("fig.svg", 1), ("The OFI of each pair.", 0)],
)
def test_alt_texts_must_be_words(alt, bad):
    tag = '<img src="x.png">' if alt is None else f'<img src="x.png" alt="{alt}">'
    assert readability.dom_metrics(article(tag))["bad_alt_texts"] == bad


def test_page_weight_counts_the_page_and_the_files_it_names(tmp_path: Path):
    (tmp_path / "_static").mkdir()
    (tmp_path / "_static" / "a.js").write_bytes(b"x" * 3072)
    (tmp_path / "_static" / "embed-amd.js").write_bytes(b"x" * 2048)
    page = tmp_path / "p.html"
    page.write_text(
        '<html><head><script src="_static/a.js"></script>'
        '<script src="_static/embed-amd.js"></script>'
        '<script src="https://example.org/remote.js"></script>'
        '<link rel="icon" href="_static/a.js"></head><body>hi</body></html>'
    )
    kib, loads, shows = readability.page_weight_kb(page)
    assert kib == round((3072 + 2048 + page.stat().st_size) / 1024)
    assert (loads, shows) == (True, False)


def test_judge_applies_the_limits_and_the_chapter_rules():
    fine = {"height_px": 15_000, "key_results_top_px": 900, "truncated_cells": 0}
    assert readability.judge("notebooks/01_a", fine) == []
    assert readability.judge("book/glossary", {**fine, "height_px": 90_000}) == []
    # the ledger page is held to 30,000 px with its sections folded, nothing cut (issue 46)
    assert readability.judge("book/ledger", {**fine, "height_px": 29_000}) == []
    tall = readability.judge("book/ledger", {**fine, "height_px": 90_000, "overflow_tables": 1})
    assert len(tall) == 2 and "at most 30000" in tall[0] and "cut" in tall[1]
    problems = readability.judge(
        "notebooks/01_a",
        {"height_px": 25_000, "key_results_top_px": None, "truncated_cells": 3},
    )
    assert len(problems) == 3
    assert any("no Key results" in p for p in problems)
    late = readability.judge("notebooks/01_a", {"key_results_top_px": 2_000})
    assert late and "2000 px" in late[0]


def test_probe_metrics_reads_the_body_attributes():
    dom = (
        '<body data-fb-height="1234" data-fb-key-top="none" data-fb-overflow="2" '
        'data-fb-sideways="0" data-fb-worked-top="folded">'
    )
    assert readability.probe_metrics(dom) == {
        "height_px": 1234,
        "height_open_px": None,
        "key_results_top_px": None,
        "overflow_tables": 2,
        "sideways_px": 0,
        "worked_example_top_px": "folded",
    }


needs_chromium = pytest.mark.skipif(
    pagecheck.chromium_binary() is None, reason="chromium is not installed"
)


@needs_chromium
def test_the_probe_measures_height_key_results_and_overflow_in_chromium(tmp_path: Path):
    wide = "<table><tr>" + "<td>wide_cell_text_" + "x" * 60 + "</td>" * 1 + "</tr></table>"
    scrolled = f'<div style="overflow-x: auto">{wide}</div>'
    content = (
        '<div style="height: 2000px">top</div><div class="key-results">Key results</div>'
        f"{wide}{scrolled}"
        '<details><summary>more</summary><div style="height: 3000px">folded</div></details>'
    )
    page = tmp_path / "p.html"
    page.write_text(article(content).replace("</body>", readability.PROBE + "</body>"))
    dom = pagecheck.render(page, window=pagecheck.WINDOW_SIZE)
    m = readability.probe_metrics(dom)
    assert 2000 <= m["key_results_top_px"] < 2100
    assert m["height_px"] > m["key_results_top_px"]
    assert m["height_open_px"] >= m["height_px"] + 2900  # opening the fold adds 3000 px
    narrow = readability.probe_metrics(pagecheck.render(page, window=pagecheck.NARROW_WINDOW))
    assert narrow["overflow_tables"] == 1  # the scrolled copy does not count
    assert narrow["sideways_px"] > 0  # the unscrolled table widens the page
    assert m["worked_example_top_px"] is None


def test_issue_45_numbers_and_names_are_counted_where_a_reader_sees_them():
    table = (
        "<table><thead><tr><th></th><th>n</th><th>rate</th><th>p</th></tr></thead><tbody>"
        "<tr><th>a</th><td>5.0000</td><td>0.123456</td><td>0.000012</td></tr>"
        "<tr><th>b</th><td>10.000</td><td>0.5</td><td>1.000</td></tr>"
        "<tr><th>c</th><td>3.0</td><td>0.5</td><td>1.000</td></tr></tbody></table>"
        "<table><tbody><tr><td>0.000</td></tr><tr><td>1.000</td></tr></tbody></table>"
    )
    prose = (
        "<p>As seed 003 shows.</p><details><summary>evidence</summary><p>seed 004 Table 2</p>"
        '</details><div class="solution dropdown"><p>seed 000</p></div>'
    )
    m = readability.dom_metrics(article(table + prose))
    # 0.123456 and 0.000012 (a p-value column is held to the same decimals)
    assert m["long_decimals"] == 2
    # not the p-values of 1.000, nor a column of rates that happen to be 0 or 1
    assert m["whole_numbers_with_decimals"] == 3
    assert m["seed_names_open"] == 1  # the folded evidence and solution do not count


@pytest.mark.parametrize(
    ("metrics", "problem"),
    [
        ({"seed_names_open": 2}, "seed NNN"),
        ({"worked_example_top_px": None}, "no worked example"),
        ({"worked_example_top_px": "folded"}, "inside a closed fold"),
        ({"sideways_400": 120}, "120 px wider"),
        ({"height_px": 13_000}, "at most 12000"),
        ({"long_decimals": 3}, "long_decimals"),
    ],
)
def test_judge_holds_chapters_to_the_teaching_rules(metrics, problem):
    problems = readability.judge("notebooks/03_small_groups", metrics)
    assert any(problem in p for p in problems), problems
    assert not readability.judge("notebooks/03_small_groups", {"worked_example_top_px": 900})


def test_the_ledger_alone_is_exempt_from_the_decimals_limit():
    assert readability.judge("book/ledger", {"long_decimals": 400}) == []
    assert readability.judge("book/intro", {"long_decimals": 1})
    assert readability.judge("notebooks/02_x", {"long_decimals": 1, "worked_example_top_px": 1})
