"""Tests of :mod:`fairbook_book.chapters.audit_your_model.explorers`: the static chart's
small-group flags are the full audit's at every grid point, and the live widget prints the
audit's own table for the setting its sliders show."""

import json
from pathlib import Path

import pytest

from fairbook.audit import audit, predictions_frame
from fairbook_book.chapters import audit_your_model as am
from fairbook_book.widgets import html_table

VEGA = Path(__file__).resolve().parents[4] / "book" / "_vendor" / "static" / "vendor" / "vega"
ALPHAS = (0.001, 0.05)
GAPS = (0.02, 0.05, 0.08)


@pytest.fixture(scope="module")
def compas():
    return am.compas_predictions()


@pytest.fixture(scope="module")
def grid(compas):
    report = am.compas_audit(compas, alpha=0.05, min_gap=0.05)
    return am.small_group_grid(report, alphas=ALPHAS, min_gaps=GAPS)


def _flagged(flags):
    return {(r.attribute, r.group, r.metric) for r in flags.itertuples() if r.small}


def test_the_grid_flags_are_the_audits_at_every_grid_point(compas, grid):
    assert len(grid.summary) == len(ALPHAS) * len(GAPS)
    for alpha in ALPHAS:
        for gap in GAPS:
            report = am.compas_audit(compas, alpha=alpha, min_gap=gap)  # the oracle
            comparisons = report.to_frame("comparisons")
            expected = {
                (r.attribute, str(r.group), r.metric) for r in comparisons.itertuples() if r.small
            }
            cell = grid.flags[(grid.flags.alpha == alpha) & (grid.flags.min_gap == gap)]
            assert _flagged(cell) == expected
            # every comparison is a row, with the audit's MATCH p-value of a min-gap gap
            assert len(cell) == len(comparisons)
            merged = cell.merge(
                comparisons.assign(group=comparisons.group.astype(str)),
                on=["attribute", "group", "metric"],
                suffixes=("", "_audit"),
            )
            assert merged.min_gap_p.astype(float).values == pytest.approx(
                merged.min_gap_p_audit.values,
                abs=1e-6,
                nan_ok=True,  # rounded to 6 places
            )
            # and the counts the chart prints are the audit summary's
            summary = report.summary()["small_groups"]
            row = grid.summary[(grid.summary.alpha == alpha) & (grid.summary.min_gap == gap)]
            assert row.groups.item() == len(summary)
            assert row.pairs.item() == sum(len(s["metrics"]) for s in summary)


def test_flags_only_grow_as_alpha_or_the_gap_shrinks(grid):
    def at(alpha, gap):
        return _flagged(grid.flags[(grid.flags.alpha == alpha) & (grid.flags.min_gap == gap)])

    assert at(0.05, 0.08) <= at(0.05, 0.05) <= at(0.05, 0.02)
    assert at(0.05, 0.05) <= at(0.001, 0.05)
    # the eleven Native American defendants are too small for every metric everywhere
    for alpha in ALPHAS:
        for gap in GAPS:
            native = {m for a, g, m in at(alpha, gap) if g == "Native American"}
            assert native == set(grid.flags.metric)


def test_a_toy_audit_worked_by_hand():
    # group b: three people against a reference of 80 with ACC 0.75 and PPR 0.5. A gap of 0.5
    # in ACC (all three wrong) has MATCH p = 2 · 0.25³ = 0.031 < α; one in PPR (none
    # predicted positive, or all) has p = 2 · 0.5³ = 0.25 >= α: too small for PPR, not ACC
    frame = predictions_frame(
        [1, 0] * 40 + [1, 0, 0], [1, 0] * 30 + [0, 1] * 10 + [0, 0, 1], ["a"] * 80 + ["b"] * 3
    )
    report = audit(frame, alpha=0.05, min_gap=0.5)
    grid = am.small_group_grid(report, alphas=[0.05], min_gaps=[0.5])
    small = dict(zip(grid.flags.metric, grid.flags.small, strict=True))
    assert small == dict(
        zip(
            report.to_frame("comparisons").metric,
            report.to_frame("comparisons").small,
            strict=True,
        )
    )
    assert not small["ACC"] and small["PPR"]
    p = dict(zip(grid.flags.metric, grid.flags.min_gap_p, strict=True))
    assert p["ACC"] == pytest.approx(0.03125) and p["PPR"] == pytest.approx(0.25)
    assert grid.flags.label.iloc[0] == "group: b (n = 3)"


def test_the_widget_prints_the_audits_table(compas):
    widget = am.small_group_explorer(compas, alpha=0.05, min_gap=0.05)
    alpha_slider, gap_slider = widget.children[0].children
    for alpha, gap in ((0.05, 0.05), (0.01, 0.12), (0.2, 0.005)):
        alpha_slider.value, gap_slider.value = alpha, gap
        report = am.compas_audit(compas, alpha=alpha, min_gap=gap)
        table = am.small_groups(report)
        shown = widget.children[1].value
        assert html_table(table) in shown
        pairs = sum(len(s["metrics"]) for s in report.summary()["small_groups"])
        assert f"{len(table)} groups too small for some metric, {pairs} (group, metric)" in shown


def test_the_chart_binds_alpha_and_the_gap(grid):
    spec = am.small_group_chart(grid, alpha=0.04, min_gap=0.06).to_dict()
    params = {p["name"]: p for p in spec["params"]}
    assert params["alpha"]["value"] == 0.05 and params["min_gap"]["value"] == 0.05  # nearest
    assert params["alpha"]["bind"]["input"] == "radio"
    assert params["alpha"]["bind"]["options"] == list(ALPHAS)
    bind = params["min_gap"]["bind"]
    assert bind["input"] == "range" and (bind["min"], bind["max"]) == (0.02, 0.08)
    assert bind["step"] == pytest.approx(0.03)
    text = json.dumps(spec, allow_nan=False)
    assert "alpha" in text and "min_gap" in text


def test_bad_input_is_refused(grid):
    report = audit(predictions_frame([1, 0, 1, 0], [1, 1, 0, 0], list("aabb")))
    with pytest.raises(ValueError, match="alphas must lie strictly between 0 and 1"):
        am.small_group_grid(report, alphas=[0.0])
    with pytest.raises(ValueError, match="min_gaps must not be empty"):
        am.small_group_grid(report, min_gaps=[])
    uneven = am.small_group_grid(report, alphas=[0.05], min_gaps=[0.01, 0.02, 0.05])
    with pytest.raises(ValueError, match="evenly spaced"):
        am.small_group_chart(uneven)


@pytest.mark.skipif(not VEGA.is_dir(), reason="needs the vendored Vega files (make vendor)")
def test_both_controls_change_the_drawing_in_chromium(tmp_path, grid):
    from fairbook_book.charts import vega_chart
    from fairbook_book.tooling import pagecheck

    if pagecheck.chromium_binary() is None:
        pytest.skip("chromium is not installed")
    (tmp_path / "_static" / "vendor").mkdir(parents=True)
    (tmp_path / "_static" / "vendor" / "vega").symlink_to(VEGA)
    (tmp_path / "notebooks").mkdir()
    page = tmp_path / "notebooks" / "chart.html"
    page.write_text(
        f"<html><body><main>{vega_chart(am.small_group_chart(grid)).to_html()}</main></body></html>"
    )
    assert pagecheck.check_charts(page) == []
