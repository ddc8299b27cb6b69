"""Tests of :mod:`fairbook_book.chapters.objective_fairness_index.explorers`: the static pair
explorer's grid is what the live widget (:func:`fairbook_book.widgets.pair_explorer`) shows for
every pair of groups, and the hand-worked marginal benefits of the ``toy_counts`` groups.
"""

import json
import math
from pathlib import Path

import pytest

from fairbook.data import predictions
from fairbook.metrics import COMPARISONS
from fairbook_book.chapters import objective_fairness_index as ofi
from fairbook_book.widgets import html_table, pair_explorer

VEGA = Path(__file__).resolve().parents[4] / "book" / "_vendor" / "static" / "vendor" / "vega"
METRICS = ("OFI", "DI", "DPPL", "DCA", "TE")


def _score(grid, i, j, metric):
    return grid.query("group_i == @i and group_j == @j and metric == @metric").score.item()


def test_comparison_grid_worked_by_hand(toy_counts):
    grid = ofi.comparison_grid(toy_counts())
    assert len(grid) == 3 * 3 * len(METRICS)  # every ordered pair, a group with itself too
    # B_a = 1/4, B_c = -2/4: OFI(a, c) = 0.75; PPR_a = 1/2, PPR_c = 0: DI(c, a) = 0
    assert _score(grid, "a", "c", "OFI") == pytest.approx(0.75)
    assert _score(grid, "c", "a", "OFI") == pytest.approx(-0.75)
    assert _score(grid, "c", "a", "DI") == 0
    assert math.isnan(_score(grid, "a", "c", "DI"))  # x / 0 is undefined
    assert _score(grid, "b", "b", "OFI") == 0
    assert set(grid.no_bias) == {COMPARISONS[m].pivot for m in METRICS}
    pair = grid.query("group_i == 'a' and group_j == 'c'").pair.iloc[0]
    assert "i = a: TP 1, FN 0, FP 1, TN 2 (marginal benefit 0.250)" in pair
    assert "j = c: TP 0, FN 2, FP 0, TN 2 (marginal benefit -0.500)" in pair


def test_comparison_grid_is_what_the_widget_shows():
    counts = predictions.compas_race_counts(min_group_size=100)
    counts = counts[counts["included"]]
    grid = ofi.comparison_grid(counts)
    widget = pair_explorer(counts)
    first, second = widget.children[0].children
    for i, j in (("African-American", "Caucasian"), ("Other", "Hispanic"), ("Other", "Other")):
        first.value, second.value = i, j
        rows = grid.query("group_i == @i and group_j == @j").set_index("metric")
        frame = rows[["score", "no_bias"]].rename(columns={"no_bias": "no-bias value"})
        frame = frame.astype(float).loc[list(METRICS)].rename_axis(None)
        # the widget's table, from the grid's scores (rounded to 6 places, shown to 4)
        assert widget.children[1].value == html_table(frame)


def test_comparison_grid_and_chart_reject_bad_input(toy_counts):
    with pytest.raises(ValueError, match="missing"):
        ofi.comparison_grid(toy_counts().drop(columns="TN"))
    with pytest.raises(ValueError, match="unknown comparison"):
        ofi.comparison_grid(toy_counts(), metrics=["NOPE"])
    with pytest.raises(ValueError, match="no groups"):
        ofi.comparison_grid(toy_counts().iloc[:0])
    with pytest.raises(ValueError, match="unknown group"):
        ofi.comparison_chart(ofi.comparison_grid(toy_counts()), group_i="zzz")


def test_comparison_chart_binds_two_dropdowns(toy_counts):
    spec = ofi.comparison_chart(ofi.comparison_grid(toy_counts()), group_j="c").to_dict()
    params = {p["name"]: p for p in spec["params"]}
    assert list(params) == ["group_i", "group_j"]
    assert params["group_i"]["value"] == "a" and params["group_j"]["value"] == "c"
    for p in params.values():
        assert p["bind"]["input"] == "select" and p["bind"]["options"] == ["a", "b", "c"]
    text = json.dumps(spec, allow_nan=False)
    assert "== group_i" in text and "== group_j" in text  # both filter the data
    assert text.count('"mark"') >= 1 + 3 * len(METRICS)  # the header, then a row per metric
    assert len(text) < 100_000


@pytest.mark.skipif(not VEGA.is_dir(), reason="needs the vendored Vega files (make vendor)")
def test_both_dropdowns_change_the_drawing_in_chromium(tmp_path, toy_counts):
    from fairbook_book.charts import vega_chart
    from fairbook_book.tooling import pagecheck

    if pagecheck.chromium_binary() is None:
        pytest.skip("chromium is not installed")
    (tmp_path / "_static" / "vendor").mkdir(parents=True)
    (tmp_path / "_static" / "vendor" / "vega").symlink_to(VEGA)
    (tmp_path / "notebooks").mkdir()
    page = tmp_path / "notebooks" / "chart.html"
    chart = vega_chart(ofi.comparison_chart(ofi.comparison_grid(toy_counts())))
    page.write_text(f"<html><body><main>{chart.to_html()}</main></body></html>")
    assert pagecheck.check_charts(page) == []
