"""Tests of the seed-000 chapter's computations — the explorers module."""

import numpy as np
import pytest

from fairbook.experiments import uncertainty_fairness as uf


def test_individual_reliability_and_explorer_on_a_fixed_run(hand_run):
    run = hand_run()
    table = uf.individual_table(run, "G", ("a", "b"), k=2)
    assert list(table.index) == ["a(+)", "a(-)", "b(+)", "b(-)"]
    out = uf.reliability(run, n_bins=5, attribute="G")
    assert out["table"]["count"].sum() == 8 and 0 <= out["ece"]["all"] <= 1
    run.name, run.groups = "SD1", {"G": np.array([0] * 4 + [1] * 4)}
    widget = uf.explorer({("SD1", "bnn", 0): run}, initial=("SD1", "G", "bnn", 10, 0))
    assert "F_Alea" in widget.children[2].children[0].value


# ---------------------------------------------------------------- the static explorer
def test_uncertainty_grid_agrees_with_fairness_result(hand_run):
    import math

    run = hand_run()
    run.name, run.groups = "SD1", {"G": np.array([0] * 4 + [1] * 4)}
    run.with_T = lambda T: run  # a hand-made run has no model to draw from
    grid = uf.uncertainty_grid([run, run], T_values=[2])  # the second (same key) is ignored
    assert set(grid.ratios["view"]) == {"SD1 · G"}
    result = uf.fairness_result(run, "G", protected=0, reference=1)
    ratios = grid.ratios.set_index("measure")
    for measure, value in result.ratios.items():
        if math.isfinite(value):
            assert ratios.loc[measure, "value"] == pytest.approx(value, abs=1e-5)
        else:
            assert ratios.loc[measure, "value"] is None or np.isnan(ratios.loc[measure, "value"])
        assert ratios.loc[measure, "flag"] == result.flags[measure]
    spread = grid.spread.set_index(["group", "kind"])
    for label, rows in ((0, slice(0, 4)), (1, slice(4, 8))):
        for kind in ("U_a", "U_e"):
            values = run.uncertainty[kind][rows]
            cell = spread.loc[(str(label), kind)]
            assert cell["n"] == 4
            assert cell["q50"] == pytest.approx(max(np.median(values), 1e-12))
            assert cell["q05"] <= cell["q25"] <= cell["q50"] <= cell["q75"] <= cell["q95"]


def test_uncertainty_chart_binds_every_parameter_and_bad_input_is_refused(hand_run):
    import json

    run = hand_run()
    run.name, run.groups = "SD1", {"G": np.array([0] * 4 + [1] * 4)}
    run.with_T = lambda T: run
    spec = uf.uncertainty_chart(uf.uncertainty_grid([run], T_values=[2, 10])).to_dict()
    params = {p["name"]: p for p in spec["params"]}
    assert set(params) == {"view", "estimator", "T"}
    assert params["T"]["value"] == 10 and params["T"]["bind"]["options"] == [2, 10]
    text = json.dumps(spec, allow_nan=False)
    for name in params:
        assert f"== {name}" in text, name
    with pytest.raises(ValueError, match="T_values"):
        uf.uncertainty_grid([run], T_values=[0])
    with pytest.raises(ValueError, match="empty"):
        uf.uncertainty_grid([], T_values=[2])
