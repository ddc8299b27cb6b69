"""The PTN chapter's pipeline on a tiny configuration — the runs module."""

import numpy as np
import pandas as pd
import pytest

from fairbook_book.chapters import parallel_time_networks as pc

# every test here trains networks or uses a module fixture that does (tests/conftest.py)
pytestmark = pytest.mark.heavy


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


def test_tide_budget_matches_ptn_updates():
    assert pc.tide_epochs_per_cycle({"final_epochs": 30}, 64 * 30) == 10
    assert pc.tide_epochs_per_cycle({"final_epochs": 1}, 10**6) == 1


@pytest.fixture(scope="module")
def warm_run():
    from .conftest import TINY

    config = pc.settings(
        "fast",
        **{**TINY, "n_initial": 2, "runs": 1, "n_jobs": 1, "final_cycles": 1},
        warm_start=0.5,
        warm_epochs=2,
    )
    data = pc.make_data(config, progress=False)
    return config, data, pc.run_once(data, config, run=0, progress=False)


def test_the_warm_start_trains_weights_only_on_left_out_starts_and_scores_the_rest(warm_run):
    from fairbook.forecasting.windows import warm_start_split

    config, data, run = warm_run
    warm, rest = warm_start_split(data["windows"]["test"], 0.5)
    assert len(run.crps) == len(rest) and len(warm) > 0
    assert run.budget["phase"].tolist() == ["cycle", "warm start"]
    assert run.budget["weight updates"].tolist() == [10, 30]  # 1 + 2 epochs × 10 steps
    curves = run.curves
    assert curves["phase"].tolist() == ["cycle"] + ["warm start"] * 2
    # the warm start moves no architecture weight: the operation weights stay where the
    # DARTS cycle left them
    ops = [c for c in curves if c.startswith("weight:")]
    last_cycle = curves.loc[curves["phase"] == "cycle", ops].iloc[-1].to_numpy()
    for _, row in curves.loc[curves["phase"] == "warm start", ops].iterrows():
        np.testing.assert_array_equal(row.to_numpy(), last_cycle)
    # Det. is the Normal of the NVAR forecast, scored on the rest only
    from fairbook.forecasting import crps as crps_module
    from fairbook.forecasting.baselines import lead_time_mae, normal_quantiles

    nv = data["windows"]["neural_val"]
    q = normal_quantiles(
        rest.deterministic,
        lead_time_mae(nv.deterministic, nv.target),
        levels=crps_module.quantile_levels(config["n_quantiles"]),
    )
    np.testing.assert_array_equal(run.crps["Det."], crps_module.crps(q, rest.target))


def test_a_recorded_unit_is_its_run_bit_for_bit(warm_run):
    config, data, run = warm_run
    unit = pc.ptn_recorded_unit("run0", config)
    pd.testing.assert_frame_equal(
        unit[["PTN", "Det.", "TiDE"]], run.crps, check_exact=True, check_dtype=False
    )
    assert (unit["run"] == 0).all() and pc.ptn_recorded_units({"runs": 2}) == ["run0", "run1"]
    with pytest.raises(ValueError, match="run0"):
        pc.ptn_recorded_unit("seed0", config)
    assert set(pc.RECORDINGS) == {"cost", "decisive", "ptn", "second_order"}


def test_stage_costs_are_positive_seconds(warm_run):
    config, data, _ = warm_run
    costs = pc.stage_costs(data, config, hidden_size=24, windows=8)
    assert costs["hidden_size"] == 24
    assert all(costs[k] > 0 for k in costs if k.endswith("seconds"))
    assert pc.cost_recorded_units({"hidden_sizes": (24, 48)}) == ["d024", "d048"]
    with pytest.raises(ValueError, match="d072"):
        pc.cost_recorded_unit("x", config)


def test_a_decisive_unit_holds_every_phase_of_its_run_bit_for_bit(warm_run):
    config, data, run = warm_run
    unit = pc.decisive_recorded_unit("run0", config)
    windows = unit[unit["kind"] == "window"]
    assert windows["cycle"].unique().tolist() == [1, 2]  # the cycle, then the warm start
    for cycle, rows in windows.groupby("cycle"):
        phase = run.phases[run.phases["cycle"] == cycle]
        np.testing.assert_array_equal(rows["PTN"], phase["PTN"])
        np.testing.assert_array_equal(rows["TiDE"], phase["TiDE"])
        np.testing.assert_array_equal(rows["Det."], run.crps["Det."])
    last = windows[windows["cycle"] == 2]
    np.testing.assert_array_equal(last["PTN"], run.crps["PTN"])
    epochs = unit[unit["kind"] == "epoch"]
    np.testing.assert_array_equal(epochs["train_loss"], run.curves["train_loss"])
    phases = unit[unit["kind"] == "phase"]
    assert phases["phase"].tolist() == ["cycle", "warm start"]
    assert (phases["hidden_size"] == run.agent["hidden_size"]).all()
    assert unit["search"].all() and (unit["run"] == 0).all()
    assert pc.decisive_recorded_units({"runs": 2}) == ["run0", "run1", "nosearch0", "nosearch1"]
    for bad in ("run", "nosearch", "seed0", "run-1", "run0x"):
        with pytest.raises(ValueError, match="nosearch0"):
            pc.decisive_recorded_unit(bad, config)


def test_without_search_the_final_network_is_a_random_agent_of_the_space(warm_run):
    from fairbook.forecasting.space import sample

    config, data, run = warm_run
    again = pc.run_once(data, {**config, "search": False}, run=0, progress=False)
    expected = sample(pc.search_space(config), np.random.default_rng(config["seed"]))
    assert again.agent == expected and again.search is None and again.history.empty
    assert again.seconds["search"] < run.seconds["search"]
    # the baselines do not depend on the agent
    np.testing.assert_array_equal(again.crps["Det."], run.crps["Det."])
    np.testing.assert_array_equal(again.crps["TiDE"], run.crps["TiDE"])
