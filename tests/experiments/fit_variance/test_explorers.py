"""fairbook.experiments.fit_variance.explorers: the widgets recompute when a control moves."""

import pytest

from fairbook.experiments import fit_variance as fv


def test_table_3_editor_recomputes():
    widget = fv.table_3_editor()
    assert "33.6" in widget.children[-1].value
    box = widget.children[0].children[1]  # Female, true Sport → Sport
    box.value = 60  # now both groups' Sport rows are 60 / 40
    assert "33.6" not in widget.children[-1].value


def test_conclusion_explorer_on_a_known_study(synthetic_study):
    widget = fv.conclusion_explorer(synthetic_study)
    assert "U-test" in widget.children[-1].value
    widget.children[1].children[1].value = 3  # fewer runs
    assert "U-test" in widget.children[-1].value


def test_the_static_grid_agrees_with_the_live_explorer(synthetic_study):
    """Oracle: compare_runs on the same runs, and the known study (penalty is 5 points
    above the baseline on every bias metric, so no single pair of runs contradicts it)."""
    from fairbook.stats.runs import compare_runs

    grid = fv.conclusion_grid(synthetic_study, metrics=["DP"])
    summary, runs = grid["summary"], grid["runs"]
    assert set(summary["technique"]) == {"penalty", "rebalance"}
    assert sorted(set(summary["n"])) == [2, 3, 4, 5, 6]
    assert len(runs) == 3 * 6  # every FIT run of the three techniques
    cell = summary[(summary["technique"] == "penalty") & (summary["n"] == 4)].iloc[0]
    base = runs[(runs["technique"] == "base") & (runs["run"] < 4)]["value"].to_numpy()
    treated = runs[(runs["technique"] == "penalty") & (runs["run"] < 4)]["value"].to_numpy()
    expected = compare_runs(base / 100, treated / 100)
    assert cell["mw_p"] == expected["mw_p"] and cell["direction"] == expected["direction"]
    assert cell["mean_base"] == pytest.approx(base.mean())
    assert cell["mean_technique"] - cell["mean_base"] == pytest.approx(5, abs=1.5)  # noise 0.5
    assert cell["flips"] == 0.0
    assert "4 runs each" in cell["label"]


def test_the_static_chart_binds_every_control_and_filters_on_it(synthetic_study):
    from fairbook.charts import vega_chart

    spec = fv.conclusion_chart(fv.conclusion_grid(synthetic_study, metrics=["DP", "BA"])).to_dict()
    params = {p["name"]: p for p in spec["params"]}
    assert set(params) == {"task", "technique", "metric", "n"}
    assert all("bind" in p for p in params.values())
    assert params["n"]["bind"]["max"] == 6 and params["n"]["value"] == 6
    text = str(spec["vconcat"])
    for name in params:  # each control is read by a filter
        assert f"== {name}" in text or f"< {name}" in text
    assert "<script" in vega_chart(spec).to_html()


# ---------------------------------------------------------------- the static Table 3 editor
def test_table_3_grid_agrees_with_table_3_for_every_move():
    from fairbook.papers import seed004

    grid = fv.table_3_grid(max_moved=12)
    assert grid.groupby("row").k.nunique().eq(25).all()  # every k for every row
    for (group, true), (first, second) in seed004.TABLE_3_COUNTS.items():
        for k in (-12, -7, 0, 5, 12):
            moved = min(max(k, -first), second)
            edited = dict(seed004.TABLE_3_COUNTS)
            edited[(group, true)] = (first + moved, second - moved)
            expected = fv.table_3(edited)
            cells = grid[(grid.row == f"{group}, true {true}") & (grid.k == k)].set_index("class")
            for name, values in expected.iterrows():
                for metric, value in values.items():
                    assert cells.loc[name, metric] == pytest.approx(value, abs=1e-4)
    # Female, true Cook holds 10 predicted Sport: moving 12 away moves 10
    text = grid[(grid.row == "Female, true Cook") & (grid.k == -12)]["counts"].iloc[0]
    assert text.endswith("(only 10 can move this way)")


def test_table_3_chart_binds_every_parameter_and_bad_input_is_refused():
    import json

    spec = fv.table_3_chart(fv.table_3_grid(max_moved=5)).to_dict()
    params = {p["name"]: p for p in spec["params"]}
    assert set(params) == {"row", "k"}
    assert (params["k"]["bind"]["min"], params["k"]["bind"]["max"]) == (-5, 5)
    text = json.dumps(spec, allow_nan=False)
    assert "== row" in text and "== k" in text
    with pytest.raises(ValueError, match="two labels"):
        fv.table_3_grid({("a", "x"): (1, 2, 3), ("a", "y"): (1, 2, 3)})
    with pytest.raises(ValueError, match="max_moved"):
        fv.table_3_grid(max_moved=0)
