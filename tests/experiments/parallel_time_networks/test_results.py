"""The PTN chapter's pipeline on a tiny configuration — the results module."""

import numpy as np
import pytest

from fairbook.experiments import parallel_time_networks as pc
from fairbook.forecasting.crps import crps


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


def test_crps_check_converges():
    table = pc.crps_check()
    assert table["|difference|"].is_monotonic_decreasing
    assert table["|difference|"].iloc[-1] < 1e-3
