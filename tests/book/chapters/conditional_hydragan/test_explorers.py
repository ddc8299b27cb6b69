"""Tests of :mod:`fairbook_book.chapters.conditional_hydragan.explorers`: the precomputed
grid of diversity targets and weights, and the widget that slices it."""

from fairbook_book.chapters import conditional_hydragan as hc


def test_grid_and_widget(small_run):
    cfg, data, result = small_run
    grid = hc.mitigation_grid(data, cfg)
    assert set(grid["weight"]) == {0.0, 10.0}
    assert {"real", "synthetic", "js_synthetic"} <= set(grid.columns)
    w = hc.explorer(grid)
    assert len(w.children) == 3


def test_the_static_chart_binds_its_controls(small_run):
    import itertools

    import pandas as pd

    rows = [
        {
            "target": t,
            "weight": w,
            "class": c,
            "metric": m,
            "real": hc.IDEAL[m] + 0.2,
            "synthetic": hc.IDEAL[m] + 0.1 * w,
            "js_real": 0.3,
            "js_synthetic": 0.2,
            "p_Sales": 0.25,
            "p_Craft-repair": 0.75,
        }
        for t, w, c, m in itertools.product(
            ("uniform", "empirical"), (0.0, 1.0), ("Female", "Male"), hc.METRICS
        )
    ]
    spec = hc.mitigation_chart(pd.DataFrame(rows)).to_dict()
    params = {p["name"]: p for p in spec["params"]}
    assert set(params) == {"target", "weight"}
    assert params["weight"]["bind"]["options"] == [0.0, 1.0] and params["weight"]["value"] == 1.0
    datasets = spec["datasets"].values()
    metrics = next(d for d in datasets if d and "distance" in d[0])
    # the distance from the ideal: real 0.2 everywhere, synthetic 0.1 * weight
    assert {round(r["distance"], 9) for r in metrics if r["training"] == "real"} == {0.2}
    shares = next(d for d in datasets if d and "share" in d[0])
    assert {r["occupation"] for r in shares} == {"Sales", "Craft-repair"}
    assert len(shares) == 2 * 2 * 2  # one row per target x weight x occupation
    text = str(spec)
    assert "== target" in text and "- weight" in text
