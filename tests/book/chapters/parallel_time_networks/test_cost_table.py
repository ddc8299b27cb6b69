"""Tests of chapter 08's CPU/GPU cost table (``_cost_table``)."""

import numpy as np
import pandas as pd
import pytest

from fairbook_book.chapters import parallel_time_networks as pc
from fairbook_book.chapters.parallel_time_networks import _cost_table as ct
from fairbook_book.recordings import Recording


def _config():
    return {**pc.settings("full", device="cpu"), "hidden_sizes": (72, 240)}


def _cpu(config):
    costs = pd.DataFrame({"hidden_size": [72, 240], "epoch_cpu_seconds": [4.0, 60.0],
                          "window_cpu_seconds": [0.01, 0.05], "tide_step_cpu_seconds": [0.1, 0.1],
                          "tide_window_cpu_seconds": [0.001, 0.001]})  # fmt: skip
    return pc.cost_extrapolation(costs, config)


def test_the_measured_gpu_column_fills_the_search_training_only():
    config = _config()
    table, source = ct.cost_side_by_side(_cpu(config), config)
    assert source == ct.GPU_SOURCE and "issue #38" in source and "2026-11-26" in source
    # oracle: the power law through (72, 0.26) and (240, 0.25), averaged over both sizes,
    # is the two measurements' mean; times candidates × epochs
    candidates = config["population"] * config["generations"]
    expected = candidates * config["epochs"] * (0.26 + 0.25) / 2 / 3600
    assert table.loc["search: training", "GPU hours"] == pytest.approx(expected)
    others = table.drop(index="search: training")["GPU hours"]
    assert others.isna().all()
    assert (table["CPU hours"] == _cpu(config)["CPU hours"]).all()


def test_a_gpu_recording_fills_every_stage_and_a_stale_one_is_not_used():
    config = _config()
    frame = pd.DataFrame({"unit": ["d072", "d240"], "hidden_size": [72, 240],
                          "epoch_cpu_seconds": [0.3, 0.3], "window_cpu_seconds": [0.001, 0.001],
                          "tide_step_cpu_seconds": [0.01, 0.01],
                          "tide_window_cpu_seconds": [0.0001, 0.0001]})  # fmt: skip
    current = ct.GPU_COST_RECORDING.fingerprint()
    base = {"fingerprint": current, "date": "2026-12-01T00:00:00", "seconds": 1.0,
            "kernels": {"device": "cuda (H200)"}}  # fmt: skip
    provenance = [{**base, "unit": u} for u in frame["unit"]]
    recording = Recording("08_parallel_time_networks", "cost-cuda", frame, provenance, current, 2)
    table, source = ct.cost_side_by_side(_cpu(config), config, recording=recording)
    assert source.startswith("the cost-cuda recording (2 unit(s), 2026-12-01, cuda (H200)")
    expected = pc.cost_extrapolation(frame.drop(columns="unit"), config)["CPU hours"]
    np.testing.assert_allclose(table["GPU hours"], expected)
    stale = Recording("08_parallel_time_networks", "cost-cuda", frame, provenance, "other", 2)
    assert ct.cost_side_by_side(_cpu(config), config, recording=stale)[1] == ct.GPU_SOURCE


def test_the_markdown_quotes_the_source_and_says_what_is_not_measured(tmp_path):
    config = _config()
    text = ct.gpu_cost_markdown(_cpu(config), config, root=tmp_path)
    assert ct.GPU_SOURCE in text and "0.26 s at d = 72 and 0.25 s at d = 240" in text
    assert "| search: scoring | " in text and "| not measured |" in text
    assert "fairbook-book record 08 cost --device cuda" in text
    assert ct.GPU_COST_RECORDING.name == "cost-cuda"
    assert ct.GPU_COST_RECORDING.fingerprint() == pc.COST_RECORDING.fingerprint()
    assert "GPU hours" in pc.cost_markdown(_cpu(config), config)
    assert "GPU hours" not in pc.cost_markdown(_cpu(config), config, gpu=False)
