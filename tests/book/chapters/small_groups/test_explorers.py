"""Tests of :mod:`fairbook_book.chapters.small_groups.explorers` (the chapter's widgets and
the computations behind them).

Oracles: the MATCH test of :mod:`fairbook.stats.match` and the probability that a raw
score is undefined.
"""

import numpy as np
import pytest

from fairbook.stats import match
from fairbook_book.chapters import small_groups as sg


def test_sampling_distribution_and_summary():
    group, ref = [30, 10, 20, 40], [300, 100, 100, 500]
    frame = sg.sampling_distribution(group, ref, "TPR", 8, eps=1e-10, lam=5, n_draws=3000)
    assert frame.attrs["target"] == pytest.approx(0.75)
    assert frame.attrs["reference"] == pytest.approx(0.75)
    raw_undefined = frame["raw"].isna().mean()
    assert raw_undefined == pytest.approx(0.6**8, abs=0.01)  # P(TP + FN = 0)
    assert frame["cps"].notna().all() and frame["additive"].notna().all()
    summary = sg.sampling_summary(frame, group, ref)
    assert summary["undefined_cps"] == 0
    assert summary["mse_cps"] < summary["mse_raw"]
    assert summary["match_p_full_group"] == pytest.approx(
        match.test("TPR", group, np.array(ref) / 1000)
    )
    assert 0 <= summary["match_power_at_n"] <= 1


def test_widgets_recompute():
    explorer = sg.space_explorer(metric="TPR", n=4, n_max=10)
    menu, slider = explorer.children[0].children
    before = explorer.children[1].value
    assert "holes of TPR" in before
    slider.value = 6
    assert explorer.children[1].value != before
    menu.value = "MCC"
    assert "holes of MCC" in explorer.children[1].value

    groups = {
        "a": (np.array([3.0, 1, 2, 4]), np.array([30.0, 10, 10, 50])),
        "b": (np.array([1.0, 4, 4, 1]), np.array([30.0, 10, 10, 50])),
    }
    widget = sg.smoothing_explorer(groups, metric="ACC", n_draws=300)
    output = widget.children[1]
    first = output.value
    assert "MATCH p-value" in first and "<img" in first
    controls = widget.children[0]
    controls.children[0].children[1].value = "b"  # group
    assert output.value != first
    controls.children[1].children[2].value = 20.0  # λ
    assert "CPS λ = 20" in output.value
    with pytest.raises(ValueError, match="unknown group"):
        sg.smoothing_explorer(groups, group="zzz")
    with pytest.raises(ValueError, match="empty"):
        sg.smoothing_explorer({})


def test_monte_carlo_pvalue_agrees_with_the_exact_test():
    p_ref = np.array([0.3, 0.1, 0.2, 0.4])
    for metric, cm in (
        ("ACC", [20, 10, 10, 20]),
        ("TPR", [10, 10, 5, 25]),
        ("MCC", [12, 3, 5, 10]),
    ):
        method = "exact" if "exact" in match.methods_for(metric) else "enumerate"
        exact = match.test(metric, cm, p_ref, method=method)
        assert sg.monte_carlo_pvalue(metric, cm, p_ref, n_draws=40_000) == pytest.approx(
            exact, abs=0.02
        )
    assert np.isnan(sg.monte_carlo_pvalue("TPR", [0, 0, 5, 5], p_ref))
    frame = sg.sampling_distribution(
        [300, 50, 60, 400], [300, 100, 100, 500], "MCC", 10, n_draws=200
    )
    summary = sg.sampling_summary(frame, [300, 50, 60, 400], [300, 100, 100, 500])
    assert 0 <= summary["match_p_full_group"] <= 1  # n = 810 > 200: Monte Carlo


# ------------------------------------------------------------ the static smoothing explorer
GROUP, REFERENCE = [273.0, 170, 1043, 1692], [116.0, 177, 554, 2429]


def _grid(**kwargs):
    options = {"metrics": ["MCC", "TPR"], "sizes": [5, 20], "lams": [0, 5, 10]}
    options.update(kwargs)
    return sg.smoothing_grid(GROUP, REFERENCE, n_draws=500, seed=3, **options)


def test_smoothing_grid_shape_and_shares():
    grid = _grid()
    assert len(grid.summary) == 2 * 2 * 3  # metric × n × λ
    assert set(grid.hist.estimator) == {"raw", "CPS"}
    assert grid.hist.query("estimator == 'raw'").lam.isna().all()
    shares = grid.hist.groupby(["metric", "n", "lam", "estimator"], dropna=False).share.sum()
    undefined = grid.summary.groupby(["metric", "n"]).undefined_raw.first()
    for (metric, n, lam, estimator), total in shares.items():
        raw_like = estimator == "raw" or lam == 0  # CPS with λ = 0 is the raw score
        expected = 1 - undefined[(metric, n)] if raw_like else 1.0
        assert total == pytest.approx(expected, abs=1e-3)
    # λ = 0 is the raw score
    zero = grid.summary[grid.summary.lam == 0]
    assert (zero.mse_raw == zero.mse_cps).all()


def test_smoothing_grid_agrees_with_the_sampling_distribution():
    grid = _grid()
    for metric, n, lam in (("MCC", 5, 5.0), ("TPR", 20, 10.0), ("MCC", 20, 0.0)):
        frame = sg.sampling_distribution(GROUP, REFERENCE, metric, n, lam=lam, n_draws=500, seed=3)
        summary = sg.sampling_summary(frame, GROUP, REFERENCE)
        cell = grid.summary.query("metric == @metric and n == @n and lam == @lam").iloc[0]
        assert cell.mse_raw == pytest.approx(summary["mse_raw"])
        assert cell.mse_cps == pytest.approx(summary["mse_cps"])
        assert cell.undefined_raw == pytest.approx(summary["undefined_raw"])
        assert cell.target == pytest.approx(frame.attrs["target"])


def test_smoothing_grid_rejects_bad_input():
    with pytest.raises(ValueError, match="lams"):
        _grid(lams=[-1, 5])
    with pytest.raises(ValueError, match="unknown metric"):
        _grid(metrics=["NOPE"])


def test_smoothing_chart_binds_and_uses_every_parameter():
    import json

    from fairbook_book.charts import vega_chart

    spec = sg.smoothing_chart(_grid()).to_dict()
    params = {p["name"]: p for p in spec["params"]}
    assert set(params) == {"metric", "n", "lam"}
    assert params["metric"]["bind"]["input"] == "select"
    assert params["n"]["bind"]["input"] == "radio"
    assert params["lam"]["bind"]["input"] == "range"
    assert params["lam"]["bind"]["step"] == 5.0
    text = json.dumps(spec)
    for name in params:  # every parameter is used in a filter
        assert f"== {name}" in text or f"- {name}" in text, name
    json.dumps(spec, allow_nan=False)  # no NaN in the data
    assert vega_chart(spec, title="t").spec is spec
    with pytest.raises(ValueError, match="evenly spaced"):
        sg.smoothing_chart(_grid(lams=[0, 5, 20]))


# ---------------------------------------------------------------- the static space explorer
def test_space_grid_agrees_with_the_theorems_and_the_enumeration():
    from math import comb

    import numpy as np

    from fairbook.metrics import compute
    from fairbook.stats import combinatorics

    grid = sg.space_grid(metrics=["TPR", "MCC", "ACC"], n_max=6, points=5)
    facts = grid.facts.set_index(["metric", "n"])
    for n in range(1, 7):
        assert grid.counts.query("n == @n")["count"].sum() == comb(n + 3, 3)  # Σ_x C(x; n)
        assert facts.loc[("TPR", n), "matrices"] == comb(n + 3, 3)  # Theorem 4.1
        assert facts.loc[("TPR", n), "holes"] == n + 1  # TP + FN = 0: FP + TN = n
        assert facts.loc[("ACC", n), "holes"] == 0
        values = np.asarray(compute("MCC", combinatorics.enumerate_confusion_matrices(n)))
        defined = values[~np.isnan(values)]
        assert facts.loc[("MCC", n), "holes"] == np.isnan(values).sum()
        curve = grid.cdf.query("metric == 'MCC' and n == @n")
        if not defined.size:  # MCC is undefined on all of M(1)
            assert curve.empty and facts.loc[("MCC", n), "distinct"] == 0
            continue
        assert curve.value.iloc[0] == pytest.approx(defined.min(), abs=1e-5)
        assert curve.value.iloc[-1] == pytest.approx(defined.max(), abs=1e-5)
        assert curve.value.is_monotonic_increasing
        shares = curve.share.to_numpy()
        for q, v in zip(shares[1:-1], curve.value.to_numpy()[1:-1], strict=True):
            below = (defined < v - 6e-6).mean()  # v (rounded to 5 decimals) is the value at share q
            assert below <= q <= (defined <= v + 6e-6).mean()


def test_space_chart_binds_and_uses_every_parameter_and_rejects_bad_input():
    import json

    spec = sg.space_chart(sg.space_grid(metrics=["ACC", "PT"], n_max=4)).to_dict()
    params = {p["name"]: p for p in spec["params"]}
    assert set(params) == {"metric", "n"}
    assert params["n"]["bind"]["input"] == "range"
    assert (params["n"]["bind"]["min"], params["n"]["bind"]["max"]) == (1, 4)
    text = json.dumps(spec, allow_nan=False)
    for name in params:
        assert f"== {name}" in text, name
    with pytest.raises(ValueError, match="n_max"):
        sg.space_grid(n_max=0)
    with pytest.raises(ValueError, match="unknown metric"):
        sg.space_grid(metrics=["NOPE"])


def test_space_grid_takes_one_metric_by_name():
    grid = sg.space_grid(metrics="TPR", n_max=2)
    assert set(grid.facts.metric) == {"TPR"}
