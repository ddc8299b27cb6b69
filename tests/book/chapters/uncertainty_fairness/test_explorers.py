"""Tests of the seed-000 chapter's computations — the explorers module."""

import numpy as np
import pytest

from fairbook_book.chapters import uncertainty_fairness as uf


def test_individual_reliability_and_explorer_on_a_fixed_run(hand_run):
    run = hand_run()
    table = uf.individual_table(run, "G", ("a", "b"), k=2)
    assert list(table.index) == ["a(+)", "a(-)", "b(+)", "b(-)"]
    out = uf.reliability(run, n_bins=5, attribute="G")
    assert out["table"]["count"].sum() == 8 and 0 <= out["ece"]["all"] <= 1
    run.name, run.groups = "SD1", {"G": np.array([0] * 4 + [1] * 4)}
    widget = uf.explorer({("SD1", "bnn", 0): run}, initial=("SD1", "G", "bnn", 10, 0))
    status, table = widget.children[2].value, widget.children[3].children[0].value
    assert "F_Alea" in table
    # the status line prints the numbers the controls move, each ratio as its division
    result = uf.fairness_result(run, "G", protected=0, reference=1)
    for ratio in ("F_Epis", "F_Alea", "F_EAcc"):
        assert uf.ratio_line(result, ratio) in status
    assert "mean U_a of G0 / mean U_a of G1" in status and "SD1, BNN, T = 10" in status


def test_the_explorers_name_groups_as_a_reader_does(compas_run):
    run = compas_run()
    run.with_T = lambda T: run
    widget = uf.explorer({("COMPAS", "bnn", 100): run}, initial=("COMPAS", "race", "bnn", 10, 100))
    dataset, attribute = widget.children[0].children[:2]
    assert ("race: Black / White", "race") in attribute.options
    assert "Black" in widget.children[2].value and ">B<" not in widget.children[3].children[0].value
    grid = uf.uncertainty_grid([run], T_values=[2])
    assert set(grid.spread["group"]) == {
        "Black",
        "White",
        "female",
        "male",
        "younger than 25",
        "older than 45",
    }
    assert set(grid.ratios["view"]) == {
        "COMPAS · race: Black / White",
        "COMPAS · sex: female / male",
        "COMPAS · age: younger than 25 / older than 45",
    }
    assert grid.lines["text"].iloc[0].startswith("F_Epis = mean U_e of Black / mean U_e of White")


# ---------------------------------------------------------------- the static explorer
def test_uncertainty_grid_agrees_with_fairness_result(hand_run):
    import math

    run = hand_run()
    run.name, run.groups = "SD1", {"G": np.array([0] * 4 + [1] * 4)}
    run.with_T = lambda T: run  # a hand-made run has no model to draw from
    grid = uf.uncertainty_grid([run, run], T_values=[2])  # the second (same key) is ignored
    assert set(grid.ratios["view"]) == {"SD1 · G: G0 / G1"}
    result = uf.fairness_result(run, "G", protected=0, reference=1)
    ratios = grid.ratios.set_index("measure")
    for measure, value in result.ratios.items():
        if math.isfinite(value):
            assert ratios.loc[measure, "value"] == pytest.approx(value, abs=1e-5)
            assert ratios.loc[measure, "text"] == f"{value:.2f}"
        else:
            assert ratios.loc[measure, "value"] is None or np.isnan(ratios.loc[measure, "value"])
            assert ratios.loc[measure, "text"] == "undefined"
        assert ratios.loc[measure, "flag"] == result.flags[measure]
    spread = grid.spread.set_index(["group", "kind"])
    for label, rows in (("G0", slice(0, 4)), ("G1", slice(4, 8))):
        for kind in ("U_a", "U_e"):
            values = run.uncertainty[kind][rows]
            cell = spread.loc[(label, kind)]
            assert cell["n"] == 4 and cell["role"] == label
            assert cell["mean"] == pytest.approx(max(values.mean(), 1e-12))
            assert cell["mean text"] == uf.uncertainty_text(values.mean())
            assert cell["q50"] == pytest.approx(max(np.median(values), 1e-12))
            assert cell["q05"] <= cell["q25"] <= cell["q50"] <= cell["q75"] <= cell["q95"]
    lines = grid.lines.sort_values("line")["text"].tolist()
    assert lines == [uf.ratio_line(result, r) for r in ("F_Epis", "F_Alea", "F_EAcc")]


def test_uncertainty_chart_binds_every_parameter_and_bad_input_is_refused(hand_run):
    import json

    run = hand_run()
    run.name, run.groups = "SD1", {"G": np.array([0] * 4 + [1] * 4)}
    run.with_T = lambda T: run
    spec = uf.uncertainty_chart(uf.uncertainty_grid([run], T_values=[2, 10])).to_dict()
    assert set(spec) >= {"vconcat", "params"}  # the status lines above the panels
    params = {p["name"]: p for p in spec["params"]}
    assert set(params) == {"view", "estimator", "T"}
    assert params["T"]["value"] == 10 and params["T"]["bind"]["options"] == [2, 10]
    text = json.dumps(spec, allow_nan=False)
    for name in params:
        assert f"== {name}" in text, name
    # every number the controls move is printed: text marks write the status lines, each
    # ratio's value beside its point, and the undefined ratios by name

    def text_marks(node):
        if isinstance(node, dict):
            mark = node.get("mark")
            if (mark == "text" or (isinstance(mark, dict) and mark.get("type") == "text")) and (
                node.get("encoding", {}).get("text", {}).get("field") == "text"
            ):
                yield node
            for value in node.values():
                yield from text_marks(value)
        elif isinstance(node, list):
            for value in node:
                yield from text_marks(value)

    marks = list(text_marks(spec))
    assert len(marks) == 3
    with pytest.raises(ValueError, match="T_values"):
        uf.uncertainty_grid([run], T_values=[0])
    with pytest.raises(ValueError, match="empty"):
        uf.uncertainty_grid([], T_values=[2])
