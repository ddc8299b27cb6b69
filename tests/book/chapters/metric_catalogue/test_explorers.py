"""Tests of :mod:`fairbook_book.chapters.metric_catalogue.explorers`: the widget recomputes
through tested functions when its inputs change, and the static panel's grid is what the
widget shows at every matrix of the grid (oracle:
:func:`~fairbook_book.chapters.metric_catalogue.results.metric_values`, which the widget
calls).
"""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from fairbook.metrics import METRICS
from fairbook_book.chapters import metric_catalogue as mc
from fairbook_book.chapters.metric_catalogue import metric_panel
from fairbook_book.chapters.metric_catalogue.explorers import _records


def test_metric_panel_updates_on_edit():
    panel = metric_panel([3, 1, 2, 4])
    boxes, output = panel.children[0].children, panel.children[1]
    assert "(NaN)" not in output.value  # every metric is defined here
    for box in boxes[:2]:  # TP = FN = 0: no actual positives
        box.value = 0
    assert "TP + FN = 0" in output.value


# ------------------------------------------------------------ the static metric panel
VEGA = Path(__file__).resolve().parents[4] / "book" / "_vendor" / "static" / "vendor" / "vega"


@pytest.fixture(scope="module")
def grid():
    return mc.metric_grid(max_count=3)


def _cm(row):
    return [int(row[c]) for c in ("TP", "FN", "FP", "TN")]


def test_metric_grid_is_what_the_panel_shows(grid):
    # oracle: metric_values, the function the widget calls, at every matrix of the grid
    assert len(grid.values) == 4**4
    assert grid.values[["TP", "FN", "FP", "TN"]].drop_duplicates().shape[0] == 4**4
    holes = {}
    for *cm, metric, why in grid.reasons.itertuples(index=False):
        holes.setdefault(tuple(cm), {})[metric] = why
    for _, row in grid.values.iterrows():
        cm = _cm(row)
        live = mc.metric_values(cm)
        np.testing.assert_allclose(row[list(METRICS)].to_numpy(float), live["value"], rtol=1e-12)
        expected = live.loc[live["value"].isna(), "why undefined"].to_dict()
        assert holes.get(tuple(cm), {}) == expected


def test_metric_grid_counts_its_holes(grid):
    # TPR is undefined exactly when TP = FN = 0: (max_count + 1)^2 matrices of the grid
    assert (grid.reasons.metric == "TPR").sum() == 4**2
    assert (
        grid.values.query("TP == 0 and FN == 0 and FP == 0 and TN == 0")[list(METRICS)]
        .isna()
        .all(axis=None)
    )


def test_metric_grid_rejects_bad_input():
    for bad in (0, 21, 2.5, True):
        with pytest.raises(ValueError, match="max_count"):
            mc.metric_grid(max_count=bad)
    with pytest.raises(ValueError, match="non-negative"):
        mc.metric_chart(mc.metric_grid(max_count=1), cm=[1, -1, 0, 0])


def test_the_chart_data_decodes_to_the_panel(grid):
    records, reasons = _records(grid)
    for record in records[::7]:
        live = mc.metric_values([record[c] for c in ("TP", "FN", "FP", "TN")])
        for key in METRICS:
            if math.isnan(live.loc[key, "value"]):
                assert record[key] is None
                assert reasons[record["why"][key]] == live.loc[key, "why undefined"]
            else:
                assert record[key] == pytest.approx(live.loc[key, "value"], abs=5e-5)


def test_metric_chart_binds_one_slider_per_cell_and_stays_small():
    spec = mc.metric_chart(mc.metric_grid(), cm=[3, 1, 2, 40]).to_dict()
    params = {p["name"]: p for p in spec["params"]}
    assert list(params) == ["tp", "fn", "fp", "tn"]
    for name, value in zip(params, [3, 1, 2, 5], strict=True):  # 40 starts at max_count = 5
        assert params[name]["value"] == value
        assert params[name]["bind"] == {
            "input": "range",
            "min": 0,
            "max": 5,
            "step": 1,
            "name": f"{name.upper()} ",
        }
    text = json.dumps(spec, allow_nan=False)
    for name in params:  # every slider filters the data
        assert f"datum.{name.upper()} == {name}" in text
    assert len(text) < 600_000  # the whole default grid, inlined in the page


@pytest.mark.skipif(not VEGA.is_dir(), reason="needs the vendored Vega files (make vendor)")
def test_every_slider_changes_the_drawing_in_chromium(tmp_path):
    from fairbook_book.charts import vega_chart
    from fairbook_book.tooling import pagecheck

    if pagecheck.chromium_binary() is None:
        pytest.skip("chromium is not installed")
    (tmp_path / "_static" / "vendor").mkdir(parents=True)
    (tmp_path / "_static" / "vendor" / "vega").symlink_to(VEGA)
    (tmp_path / "notebooks").mkdir()
    page = tmp_path / "notebooks" / "chart.html"
    chart = vega_chart(mc.metric_chart(mc.metric_grid(max_count=2), cm=[1, 1, 1, 1]))
    page.write_text(f"<html><body><main>{chart.to_html()}</main></body></html>")
    assert pagecheck.check_charts(page) == []
