"""The second-order DARTS ablation: its first-order twin is run_once without the search, bit
for bit; the second-order runs differ only where the order acts; the committed recording."""

import numpy as np
import pandas as pd
import pytest

from fairbook_book.chapters import parallel_time_networks as pc

# every test here trains networks or uses a module fixture that does (tests/conftest.py)
pytestmark = pytest.mark.heavy


@pytest.fixture(scope="module")
def warm_config():
    from .conftest import TINY

    config = pc.settings(
        "fast",
        **{**TINY, "n_initial": 2, "runs": 1, "n_jobs": 1, "final_cycles": 2},
        warm_start=0.5,
        warm_epochs=2,
    )
    return config, pc.make_data(config, progress=False)


def test_first_order_reproduces_run_once_without_the_search(warm_config):
    config, data = warm_config
    run = pc.run_once(data, {**config, "search": False}, run=1, progress=False)
    twin = pc.random_agent_training(data, config, run=1, order=1)
    assert twin["agent"] == run.agent
    pd.testing.assert_frame_equal(twin["crps"], run.phases.drop(columns="TiDE"))
    columns = [c for c in run.curves.columns if c in twin["curves"].columns]
    assert columns == list(run.curves.columns)
    pd.testing.assert_frame_equal(twin["curves"], run.curves)
    assert twin["seconds"]["phase"].tolist() == ["cycle", "cycle", "warm start"]
    np.testing.assert_array_equal(
        twin["seconds"]["weight updates"], run.budget["weight updates"].to_numpy()
    )


def test_second_order_changes_the_architecture_steps_only(warm_config):
    config, data = warm_config
    first = pc.random_agent_training(data, config, run=0, order=1)
    second = pc.random_agent_training(data, config, run=0, order=2)
    assert first["agent"] == second["agent"]
    # the first weight steps see the same minibatches and the same initial network
    a, b = first["curves"].iloc[0], second["curves"].iloc[0]
    assert a["train_loss"] == b["train_loss"]
    # then the architecture steps differ, and with them everything after
    assert not np.array_equal(first["crps"]["PTN"], second["crps"]["PTN"])
    weights = second["curves"].filter(like="weight:").to_numpy()
    assert np.isfinite(weights).all() and (weights > 0).all()


def test_the_unit_table(warm_config):
    config, _ = warm_config
    unit = pc.second_order_recorded_unit("order2_0", config)
    assert set(unit["kind"]) == {"window", "epoch", "phase"}
    windows = unit[unit["kind"] == "window"]
    assert windows["cycle"].unique().tolist() == [1, 2, 3]
    assert windows[["system", "start", "t", "PTN"]].notna().all().all()
    phases = unit[unit["kind"] == "phase"]
    assert phases["phase"].tolist() == ["cycle", "cycle", "warm start"]
    assert (unit["run"] == 0).all() and (unit["order"] == 2).all()
    assert pc.second_order_recorded_units({"runs": 3}) == ["order2_0", "order2_1", "order2_2"]
    for bad in ("order2_", "order1_0", "nosearch0", "order2_0x"):
        with pytest.raises(ValueError, match="order2_0"):
            pc.second_order_recorded_unit(bad, config)
    with pytest.raises(ValueError, match="order"):
        pc.random_agent_training({}, config, order=0)


def test_the_recording_is_registered_for_the_cli():
    assert pc.RECORDINGS["second_order"] is pc.SECOND_ORDER_RECORDING
    assert {"ptn", "decisive", "cost"} <= set(pc.RECORDINGS)
    assert "fairbook.forecasting.unrolled" in pc.SECOND_ORDER_RECORDING.depends
