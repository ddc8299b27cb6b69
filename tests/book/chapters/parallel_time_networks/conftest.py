"""Fixtures shared by the chapter's test modules."""

import pytest

from fairbook_book.chapters import parallel_time_networks as pc

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


@pytest.fixture(scope="session")
def study():
    """The tiny study, run once per test process (read-only: no test may change it; four
    modules use it, and building it once instead of once per module saves a minute)."""
    config = pc.settings("fast", **TINY)
    data = pc.make_data(config, progress=False)
    runs = pc.run_study(data, config, progress=False)
    return config, data, runs


def synthetic_decisive_frame(*, runs=5, windows=40, cycles=3, warm=True, seed=0):
    """A decisive recording's table (the layout of ``decisive_recorded_unit``) with known
    numbers: PTN's CRPS falls with each phase, the random agent is worse than the search,
    Det. is constant; every run draws its own windows."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    parts = []
    n_phases = cycles + int(warm)
    for run in range(runs):
        det = rng.uniform(0.1, 0.2, windows)
        tide0 = rng.uniform(0.2, 0.4, windows)
        for search in (True, False):
            ptn0 = rng.uniform(0.2, 0.5, windows) * (1.0 if search else 1.5)
            for cycle in range(1, n_phases + 1):
                phase = "warm start" if warm and cycle == n_phases else "cycle"
                parts.append(
                    pd.DataFrame(
                        {
                            "cycle": cycle,
                            "PTN": ptn0 / cycle,
                            "TiDE": tide0 / cycle,
                            "kind": "window",
                            "system": 0,
                            "start": 1,
                            "t": np.arange(windows),
                            "Det.": det,
                        }
                    )
                )
                parts.append(
                    pd.DataFrame(
                        {
                            "cycle": [cycle],
                            "kind": "phase",
                            "phase": phase,
                            "weight updates": 300.0 * cycle,
                            "PTN seconds": 10.0 * cycle,
                            "TiDE seconds": 1.0 * cycle,
                            "search seconds": 100.0 if search else 0.0,
                            "hidden_size": 24 + 24 * (run % 2),
                        }
                    )
                )
                parts.append(
                    pd.DataFrame(
                        {
                            "kind": "epoch",
                            "cycle": [cycle],
                            "weight updates": 300.0 * cycle,
                            "epoch": 1,
                            "weight:history/attention": [0.4],
                            "weight:history/conv1d": [0.3],
                            "weight:history/bigru": [0.3],
                            "weight:forecast_collapse/conv2d": [0.5],
                            "weight:forecast_collapse/dense": [0.5],
                        }
                    )
                )
                parts[-3:] = [p.assign(run=run, search=search) for p in parts[-3:]]
    return pd.concat(parts, ignore_index=True)


def synthetic_decisive_recording(**kwargs):
    """:func:`synthetic_decisive_frame` as a loaded Recording with provenance."""
    from fairbook_book.recordings import Recording

    frame = synthetic_decisive_frame(**kwargs)
    units = [
        f"{'run' if s else 'nosearch'}{r}"
        for s in (True, False)
        for r in sorted(frame["run"].unique())
    ]
    frame.insert(
        0,
        "unit",
        [
            f"{'run' if s else 'nosearch'}{r}"
            for s, r in zip(frame["search"], frame["run"], strict=True)
        ],
    )
    provenance = [
        {
            "unit": u,
            "fingerprint": "f",
            "seconds": 60.0,
            "cores": 2,
            "date": "2026-11-26",
            "commit": "abc1234",
            "n_jobs": 2,
            "cpu_seconds": 60.0,
            "dirty": False,
        }
        for u in units
    ]
    return Recording("08_parallel_time_networks", "decisive", frame, provenance, "f", len(units))


@pytest.fixture
def synthetic_decisive():
    """:func:`synthetic_decisive_recording`, for tests that build their own."""
    return synthetic_decisive_recording
