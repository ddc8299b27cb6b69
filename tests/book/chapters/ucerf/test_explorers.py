"""Tests of the UCerF chapter's explorers: the widget recomputes from ``pair_metrics``, and
the static explorer's grid is ``pair_metrics`` (the function the widget calls) at every
setting of the widget's controls."""

import json
from pathlib import Path

import pytest

from fairbook_book.chapters import ucerf as uc

VEGA = Path(__file__).resolve().parents[4] / "book" / "_vendor" / "static" / "vendor" / "vega"


def test_pair_metrics_and_widget():
    m = uc.pair_metrics(1.0, True, 1.0, False)
    assert m == {"D_a": 1.0, "D_b": -1.0, "accuracy gap": 1, "1 − accuracy gap": 0, "UCerF": 0.0}
    assert uc.pair_metrics(0.2, True, 0.6, True)["UCerF"] == pytest.approx(0.8)
    widget = uc.pair_explorer(0.5, True, 0.5, True)
    slider = widget.children[0].children[0]
    slider.value = 1.0  # the widget recomputes from pair_metrics
    assert "0.750" in widget.children[-1].value


def test_pair_grid_is_pair_metrics_at_every_setting():
    grid = uc.pair_grid()
    # the widget's sliders: 0 to 1 by 0.05 (21 values each), and two checkboxes
    assert len(grid) == 21 * 21 * 2 * 2
    assert sorted(set(grid.c_his)) == pytest.approx([k / 20 for k in range(21)])
    assert not grid.duplicated(["c_his", "right_his", "c_her", "right_her"]).any()
    for row in grid.itertuples(index=False):
        live = uc.pair_metrics(row.c_his, row.right_his, row.c_her, row.right_her)
        assert row.D_his == pytest.approx(live["D_a"], abs=1e-6)
        assert row.D_her == pytest.approx(live["D_b"], abs=1e-6)
        assert row.gap == live["accuracy gap"]
        assert row.UCerF == pytest.approx(live["UCerF"], abs=1e-6)
    # closed form: UCerF = 1 - |D_his - D_her| / 2
    assert (grid.UCerF - (1 - (grid.D_his - grid.D_her).abs() / 2)).abs().max() < 1e-5


def test_pair_grid_rejects_a_step_that_does_not_divide_one():
    for bad in (0.3, 0, -0.5, float("nan")):
        with pytest.raises(ValueError, match="step"):
            uc.pair_grid(step=bad)


def test_pair_chart_binds_the_widgets_four_controls():
    spec = uc.pair_chart(uc.pair_grid(), confidence_a=0.42, correct_b=True).to_dict()
    params = {p["name"]: p for p in spec["params"]}
    assert list(params) == ["c_his", "right_his", "c_her", "right_her"]
    assert params["c_his"]["value"] == pytest.approx(0.4)  # the nearest grid value
    assert params["right_her"]["value"] is True
    for name in ("c_his", "c_her"):
        bind = params[name]["bind"]
        assert (bind["input"], bind["min"], bind["max"]) == ("range", 0.0, 1.0)
        assert bind["step"] == pytest.approx(0.05)
    for name in ("right_his", "right_her"):
        assert params[name]["bind"]["input"] == "checkbox"
    text = json.dumps(spec, allow_nan=False)
    for name in params:  # every control filters the data
        assert f"== {name}" in text or f"- {name}" in text, name
    assert len(text) < 400_000
    with pytest.raises(ValueError, match="two confidences"):
        uc.pair_chart(uc.pair_grid().query("c_his == 0"))


@pytest.mark.skipif(not VEGA.is_dir(), reason="needs the vendored Vega files (make vendor)")
def test_every_control_changes_the_drawing_in_chromium(tmp_path):
    from fairbook_book.charts import vega_chart
    from fairbook_book.tooling import pagecheck

    if pagecheck.chromium_binary() is None:
        pytest.skip("chromium is not installed")
    (tmp_path / "_static" / "vendor").mkdir(parents=True)
    (tmp_path / "_static" / "vendor" / "vega").symlink_to(VEGA)
    (tmp_path / "notebooks").mkdir()
    page = tmp_path / "notebooks" / "chart.html"
    chart = vega_chart(uc.pair_chart(uc.pair_grid(step=0.25)))
    page.write_text(f"<html><body><main>{chart.to_html()}</main></body></html>")
    assert pagecheck.check_charts(page) == []
