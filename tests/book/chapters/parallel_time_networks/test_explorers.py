"""The PTN chapter's pipeline on a tiny configuration — the explorers module."""

import pytest

from fairbook_book.chapters import parallel_time_networks as pc


def test_attractor_plot_and_explorer(study):
    _, data, runs = study
    ax = pc.attractor_plot(data)
    assert ax.get_zlabel() == "z"
    widget = pc.fan_explorer(data, runs[0])
    assert len(widget.children[-1].value) > 1000  # a PNG was drawn


def test_fan_grid_agrees_with_the_run(study):
    import numpy as np

    from fairbook.forecasting.crps import quantile_levels

    _, data, runs = study
    run = runs[0]
    grid = pc.fan_grid(data, run, n_windows=5)
    total = len(run.quantiles)
    assert len(grid.windows) == min(5, total)
    assert sorted(grid.windows.rank_time) == sorted(grid.windows.rank_skill)
    inverse = data["normaliser"].inverse_channel
    test = data["windows"]["test"]
    for window in grid.windows.itertuples():
        steps = grid.steps[grid.steps.rank_time == window.rank_time]
        future = steps[steps.step >= 1]
        assert future.truth.to_numpy() == pytest.approx(inverse(test.target[window.index]))
        assert future.nvar.to_numpy() == pytest.approx(inverse(test.deterministic[window.index]))
        q = np.sort(run.quantiles[window.index], axis=-1)
        levels = quantile_levels(q.shape[-1])
        median = [np.interp(0.5, levels, row) for row in q]
        assert future["median"].to_numpy() == pytest.approx(inverse(np.asarray(median)))
        for k in range(len(pc.FAN_BANDS)):  # bands nest: outer contains inner
            assert (future[f"lo_{k}"] <= future["median"] + 1e-9).all()
            assert (future[f"hi_{k}"] >= future["median"] - 1e-9).all()
            if k:
                assert (future[f"lo_{k - 1}"] <= future[f"lo_{k}"] + 1e-9).all()
        assert window.crps_ptn == run.crps.loc[window.index, "PTN"]
    best = grid.windows.sort_values("rank_skill").iloc[0]  # rank 0: largest advantage
    advantage = grid.windows.crps_det - grid.windows.crps_ptn
    assert best.crps_det - best.crps_ptn == advantage.max()


def test_fan_chart_static_binds_and_uses_every_parameter(study):
    import json

    _, data, runs = study
    spec = pc.fan_chart_static(pc.fan_grid(data, runs[0], n_windows=4)).to_dict()
    params = {p["name"]: p for p in spec["params"]}
    assert set(params) == {"order", "forecast"}
    assert params["forecast"]["bind"]["max"] == min(4, len(runs[0].quantiles)) - 1
    text = json.dumps(spec, allow_nan=False)
    assert "order == 'time'" in text and "== forecast" in text
    with pytest.raises(ValueError, match="order"):
        pc.fan_chart_static(pc.fan_grid(data, runs[0], n_windows=4), order="nope")
    with pytest.raises(ValueError, match="n_windows"):
        pc.fan_grid(data, runs[0], n_windows=0)
