"""The PTN chapter's pipeline on a tiny configuration — the figures module."""

import numpy as np
import pandas as pd
import pytest

from fairbook.forecasting.crps import quantile_levels
from fairbook_book.chapters import parallel_time_networks as pc


def test_tables_and_figures_of_the_search(study):
    _, data, runs = study
    assert pc.chosen_agents(runs).shape == (22, 2)
    ops = pc.operation_table(runs)
    assert np.allclose(ops.groupby(level="subspace").sum(), 1.0)
    costs = pc.cost_table(data, runs)
    total = costs.loc["total (sum of the stages)", "seconds"]
    assert total == pytest.approx(costs["seconds"].iloc[:-1].sum())
    assert pc.search_plot(runs).get_xlabel() == "generation"
    loss_ax, op_ax = pc.training_curves_plot(runs)
    assert loss_ax.figure.get_size_inches()[0] <= 9  # reading size
    # one loss curve, PTN and TiDE per cycle and the Normal baseline per run; three ops
    assert len(loss_ax.lines) == 4 * len(runs) and len(op_ax.lines) == 3 * len(runs)
    assert op_ax.lines[0].get_xdata()[-1] == runs[0].curves["weight updates"].iloc[-1]
    ax = pc.wall_time_curves_plot(runs)  # PTN, TiDE and the Normal baseline per run
    assert len(ax.lines) == 3 * len(runs)
    assert list(ax.lines[0].get_xdata()) == list(runs[0].budget["PTN seconds"])
    with pytest.raises(ValueError, match="wall-time"):
        pc.wall_time_curves_plot([type(runs[0])(**{**vars(runs[0]), "budget": None})])
    assert pc.nvar_error_table(data).shape == (16, 2)
    assert list(pc.nvar_error_table(data, leads=(1, 16)).index) == [1, 16]


def test_interesting_forecasts_picks_the_narrowest_and_a_gapped_fan(study):
    _, data, runs = study
    run = runs[0]
    picks = pc.interesting_forecasts(run)
    q = np.sort(run.quantiles, axis=-1)
    spread = (q[..., 104] - q[..., 5]).mean(-1)
    assert picks["confident"] == int(np.argmin(spread))
    assert spread[picks["multi-modal"]] >= np.median(spread)
    ax = pc.fan_chart(data, run, picks["confident"])
    assert ax.get_ylabel() == "x"


def test_interesting_forecasts_on_constructed_quantiles():
    levels = quantile_levels(111)
    narrow = np.tile(0.5 + 0.01 * levels, (16, 1))
    wide = np.tile(levels, (16, 1))
    gapped = np.tile(np.where(levels < 0.5, levels * 0.2, 0.8 + levels * 0.2), (16, 1))
    run = pc.RunResult(
        run=0,
        seed=0,
        search=None,
        history=pd.DataFrame(),
        agent={},
        operations=pd.DataFrame(),
        crps=pd.DataFrame(),
        quantiles=np.stack([narrow, wide, gapped]),
    )
    assert pc.interesting_forecasts(run) == {"confident": 0, "multi-modal": 2}


def test_decisive_figures_draw_the_recording_and_say_when_it_is_empty(synthetic_decisive):
    import matplotlib.pyplot as plt
    import pandas as pd

    from fairbook_book.recordings import Recording

    recording = synthetic_decisive(runs=3)
    axes = pc.decisive_curves_plot(pc.decisive_curves(recording))
    labels = [line.get_label() for line in axes[0].get_lines()]
    assert labels[:3] == ["PTN (searched)", "PTN (random agent, no search)", "TiDE"]
    # the searched PTN line is the median over runs of the mean CRPS after each phase
    curves = pc.decisive_curves(recording)
    median = curves[curves["search"]].groupby("cycle")["PTN"].median().to_numpy()
    np.testing.assert_allclose(axes[0].get_lines()[0].get_ydata(), median)
    ops = pc.decisive_operations_plot(recording)
    assert [ax.get_title() for ax in ops] == ["history", "forecast_collapse"]
    # reading size: no figure of the chapter is wider than 9 inches
    assert axes[0].figure.get_size_inches()[0] <= 9
    assert ops[0].figure.get_size_inches()[0] == pytest.approx(6)  # 3 inches per panel
    # every text reads at page width (10 pt: 11 px at 800 px for 9 inches), one legend for
    # the two panels of the curves, one x label under the operations' panels
    import matplotlib.text

    for figure in (axes[0].figure, ops[0].figure):
        texts = [t for t in figure.findobj(matplotlib.text.Text) if t.get_text()]
        assert min(t.get_fontsize() for t in texts) >= 10
    assert axes[1].get_legend() is None
    assert [ax.get_xlabel() for ax in ops].count("") == len(ops) - 1
    empty = Recording("08", "decisive", pd.DataFrame())
    assert "not recorded" in pc.decisive_curves_plot(pc.decisive_curves(empty))[0].get_title()
    assert "not recorded" in pc.decisive_operations_plot(empty)[0].get_title()
    plt.close("all")
