"""The PTN chapter's pipeline on a tiny configuration: shapes, bookkeeping and oracles."""

import numpy as np
import pandas as pd
import pytest

from fairbook.experiments import ptn_chapter as pc
from fairbook.forecasting.crps import crps, quantile_levels
from fairbook.forecasting.skill import table_5_2

TINY = {
    "n_systems": 1,
    "n_initial": 1,
    "stride": 32,
    "hidden_sizes": (24,),
    "population": 2,
    "generations": 1,
    "patience": 1,
    "elite_every": 1,
    "n_elite": 1,
    "epochs": 1,
    "final_epochs": 1,
    "final_cycles": 2,
    "tide_hidden": 16,
    "runs": 2,
}


@pytest.fixture(scope="module")
def study():
    config = pc.settings("fast", **TINY)
    data = pc.make_data(config, progress=False)
    runs = pc.run_study(data, config, progress=False)
    return config, data, runs


def test_settings_profiles_and_overrides():
    assert pc.settings("fast")["runs"] == 2
    assert pc.settings("full")["runs"] == 7
    assert pc.settings("full")["n_systems"] == 50 and pc.settings("full")["n_initial"] == 125
    with pytest.raises(ValueError, match="profile"):
        pc.settings("huge")
    with pytest.raises(ValueError, match="unknown"):
        pc.settings("fast", learning_rate=1)


def test_search_space_restricts_only_the_hidden_size():
    full = pc.search_space({"hidden_sizes": None})
    small = pc.search_space({"hidden_sizes": (24, 48)})
    assert full["hidden_size"].values == (72, 96, 120, 144, 168, 192, 216, 240)
    assert small["hidden_size"].values == (24, 48)
    assert {k: v for k, v in small.items() if k != "hidden_size"} == {
        k: v for k, v in full.items() if k != "hidden_size"
    }
    assert len(pc.space_table(full)) == 22


def test_partition_table_counts_windows(study):
    _, data, _ = study
    table = pc.partition_table(data)
    assert list(table.index) == [
        "neural_train",
        "neural_val",
        "genetic_train",
        "genetic_val",
        "test",
    ]
    assert (table["trajectories"] == 1).all()
    assert table.loc["test", "windows"] == len(data["windows"]["test"])


def test_runs_score_every_test_window_with_the_three_models(study):
    config, data, runs = study
    n_test = len(data["windows"]["test"])
    assert [r.seed for r in runs] == [config["seed"], config["seed"] + 1]
    for r in runs:
        assert list(r.crps.columns) == ["PTN", "Det.", "TiDE"]
        assert len(r.crps) == n_test and np.isfinite(r.crps.to_numpy()).all()
        assert (r.crps.to_numpy() >= -1e-12).all()
        assert r.quantiles.shape == (n_test, 16, 111)
        # the PTN column is Eq. 5.7 of the stored quantiles
        w = data["windows"]["test"]
        assert np.allclose(r.crps["PTN"], crps(r.quantiles, w.target), atol=1e-5)
        assert set(r.seconds) == {"search", "final PTN", "TiDE"}
    # the Normal baseline does not depend on the run's seed
    assert np.array_equal(runs[0].crps["Det."], runs[1].crps["Det."])


def test_parallel_runs_give_the_numbers_of_serial_runs(study):
    config, data, runs = study
    assert config["n_jobs"] == 2  # the fixture ran the two runs in two processes
    serial = pc.run_study(data, {**config, "n_jobs": 1}, progress=False)
    assert [r.run for r in runs] == [r.run for r in serial] == [0, 1]
    for a, b in zip(runs, serial, strict=True):
        pd.testing.assert_frame_equal(a.crps, b.crps, check_exact=True)
        np.testing.assert_array_equal(a.quantiles, b.quantiles)
        assert a.agent == b.agent
        pd.testing.assert_frame_equal(a.history, b.history)


@pytest.mark.parametrize("n_jobs", [0, 1.5, True, "2"])
def test_bad_n_jobs_is_an_error(study, n_jobs):
    config, data, _ = study
    with pytest.raises(ValueError, match="n_jobs"):
        pc.run_study(data, {**config, "n_jobs": n_jobs}, progress=False)


def test_budget_records_each_cycle_and_ends_at_the_final_scores(study):
    _, _, runs = study
    for r in runs:
        assert list(r.budget.index) == [1, 2]
        assert list(r.budget["weight updates"]) == [10, 20]
        last = r.budget.iloc[-1]
        assert last["PTN mean"] == pytest.approx(r.crps["PTN"].mean())
        assert last["TiDE median"] == pytest.approx(r.crps["TiDE"].median())
        assert (r.budget["Det. mean"] == r.crps["Det."].mean()).all()
    table = pc.budget_table(runs)
    assert table.loc[2, "PTN mean"] == pytest.approx(np.mean([r.crps["PTN"].mean() for r in runs]))
    with pytest.raises(ValueError, match="budget"):
        pc.budget_table([])


def test_tide_budget_matches_ptn_updates():
    assert pc.tide_epochs_per_cycle({"final_epochs": 30}, 64 * 30) == 10
    assert pc.tide_epochs_per_cycle({"final_epochs": 1}, 10**6) == 1


def test_table_5_2_replication_pools_the_runs(study):
    _, _, runs = study
    table = pc.table_5_2_replication(runs)
    assert len(table) == 8
    assert set(table["paper"]) >= {0.40, 0.57, 0.68, 94.3, 0.82, 0.73, 0.56, 99.8}
    pooled = pd.concat([r.crps for r in runs])
    expected = table_5_2(
        pooled["PTN"].to_numpy(), pooled["Det."].to_numpy(), pooled["TiDE"].to_numpy()
    )
    row = table.set_index("quantity").loc["TiDE: Q2"]
    assert row["ours"] == pytest.approx(expected.loc["Q2", "TiDE"])
    per_run = pc.per_run_table(runs)
    assert per_run.shape[0] == 4 and per_run["percent improved"].between(0, 100).all()


def test_tables_and_figures_of_the_search(study):
    _, data, runs = study
    assert pc.chosen_agents(runs).shape == (22, 2)
    ops = pc.operation_table(runs)
    assert np.allclose(ops.groupby(level="subspace").sum(), 1.0)
    costs = pc.cost_table(data, runs)
    total = costs.loc["total (sum of the stages)", "seconds"]
    assert total == pytest.approx(costs["seconds"].iloc[:-1].sum())
    assert pc.search_plot(runs).get_xlabel() == "generation"
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


def test_crps_check_converges():
    table = pc.crps_check()
    assert table["|difference|"].is_monotonic_decreasing
    assert table["|difference|"].iloc[-1] < 1e-3


def test_attractor_plot_and_explorer(study):
    _, data, runs = study
    ax = pc.attractor_plot(data)
    assert ax.get_zlabel() == "z"
    widget = pc.fan_explorer(data, runs[0])
    assert len(widget.children[-1].value) > 1000  # a PNG was drawn
