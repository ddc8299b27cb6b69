"""The PTN chapter's pipeline on a tiny configuration — the runs module."""

import numpy as np
import pandas as pd
import pytest

from fairbook.experiments import parallel_time_networks as pc


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
