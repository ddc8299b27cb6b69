"""Fixtures shared by the chapter's test modules."""

import pytest

from fairbook.experiments import parallel_time_networks as pc

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
