"""Tests of :mod:`fairbook.experiments.conditional_hydragan.explorers`: the precomputed
grid of diversity targets and weights, and the widget that slices it."""

from fairbook.experiments import conditional_hydragan as hc


def test_grid_and_widget(small_run):
    cfg, data, result = small_run
    grid = hc.mitigation_grid(data, cfg)
    assert set(grid["weight"]) == {0.0, 10.0}
    assert {"real", "synthetic", "js_synthetic"} <= set(grid.columns)
    w = hc.explorer(grid)
    assert len(w.children) == 3
