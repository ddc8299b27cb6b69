"""Chapter 08: what one candidate of the search costs, measured by hidden size.

Private to the chapter (re-exported by :mod:`.runs`): the ``cost`` recording's fingerprint
covers this module and the forecasting code it times, not the rest of the runs, so editing
the runs does not make the measured costs stale.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
import torch

from fairbook.forecasting.baselines import TiDE, predict_quantiles, train_quantile_model
from fairbook.forecasting.darts import evaluate_crps, train_darts
from fairbook.forecasting.ptn import PTN
from fairbook.forecasting.space import Choice, make_space, sample
from fairbook.forecasting.windows import lorenz_pipeline
from fairbook.papers.seed003 import LORENZ_PROTOCOL

from .settings import search_space

__all__ = ["cost_recorded_unit", "cost_recorded_units", "stage_costs"]


class _Threads:
    """Torch's thread count for a block (``n`` falsy: leave it)."""

    def __init__(self, n):
        self.n = n

    def __enter__(self):
        self.before = torch.get_num_threads()
        if self.n:
            torch.set_num_threads(self.n)

    def __exit__(self, *exc):
        torch.set_num_threads(self.before)


def stage_costs(
    data: dict,
    config: dict,
    *,
    hidden_size: int,
    epochs: int = 1,
    windows: int = 256,
    seed: int = 0,
) -> dict:
    """Measured CPU seconds of the search's two stages for one candidate of hidden size ``d``.

    CPU time of this process (all its threads, ``time.process_time``), not wall time: on a
    machine shared with other jobs the wall time measures the load more than the code.

    On one torch thread (a run per core is how the runs share a machine). A candidate of
    the profile's space is sampled with ``seed``, given ``hidden_size`` and
    4 attention heads, built on ``config["device"]`` and trained for ``epochs`` DARTS epochs
    (10 weight + 5 architecture steps of batch 64 each), then scores ``windows`` windows of
    genetic validation; TiDE (``config["tide_hidden"]``) takes 10 steps and predicts the
    same windows. The window shapes do not depend on the number of systems, so these costs
    hold for any profile and ``results.cost_extrapolation`` scales them to a profile's
    counts.

    Returns
    -------
    dict
        ``hidden_size, epoch_cpu_seconds, window_cpu_seconds, tide_step_cpu_seconds,
        tide_window_cpu_seconds``.
    """
    w = data["windows"]
    c = int(config["n_quantiles"])
    device = torch.device(config.get("device") or "cpu")
    space = make_space(
        hidden_size=Choice([int(hidden_size)]),
        history_heads=Choice([4]),
        forecast_heads=Choice([4]),
    )
    agent = sample(space, np.random.default_rng(seed))
    score = w["genetic_val"].subset(slice(0, int(windows)))
    with _Threads(1):
        model = PTN.from_data(agent, w["neural_train"], n_quantiles=c, seed=seed).to(device)
        tick = time.process_time()
        train_darts(
            model, w["neural_train"], w["neural_val"], epochs=epochs, seed=seed, progress=False
        )
        epoch_seconds = (time.process_time() - tick) / epochs
        tick = time.process_time()
        evaluate_crps(model, score)
        window_seconds = (time.process_time() - tick) / len(score)
        tide = TiDE(n_quantiles=c, hidden=config["tide_hidden"], seed=seed).to(device)
        steps = LORENZ_PROTOCOL["weight_steps"] * LORENZ_PROTOCOL["batch_size"]
        tick = time.process_time()
        train_quantile_model(
            tide,
            w["neural_train"].subset(slice(0, steps)),
            score.subset(slice(0, 2)),
            epochs=1,
            seed=seed,
            progress=False,
        )
        tide_step_seconds = (time.process_time() - tick) / LORENZ_PROTOCOL["weight_steps"]
        tick = time.process_time()
        predict_quantiles(tide, score)
        tide_window_seconds = (time.process_time() - tick) / len(score)
    return {
        "hidden_size": int(hidden_size),
        "epoch_cpu_seconds": epoch_seconds,
        "window_cpu_seconds": window_seconds,
        "tide_step_cpu_seconds": tide_step_seconds,
        "tide_window_cpu_seconds": tide_window_seconds,
    }


def cost_recorded_units(config: dict) -> list[str]:
    """One unit per hidden size of the profile's space: ``"d072"`` ….

    Examples
    --------
    >>> cost_recorded_units({"hidden_sizes": (24, 48)})
    ['d024', 'd048']
    """
    return [f"d{int(d):03d}" for d in search_space(config)["hidden_size"].values]


def cost_recorded_unit(unit: str, config: dict) -> pd.DataFrame:
    """:func:`stage_costs` at one hidden size, on a small data set of the profile's shapes
    (one system and start per partition: the costs depend on the shapes, not the counts).
    A timing, so it is *not* reproducible bit for bit; its provenance says on what machine."""
    if not unit.startswith("d") or not unit.removeprefix("d").isdigit():
        raise ValueError(f"unit must look like 'd072'; got {unit!r}")
    with _Threads(config["threads"]):
        data = lorenz_pipeline(
            n_systems=1,
            n_initial=2,
            seed=int(config["data_seed"]),
            stride=4,
            integrator=config["integrator"],
            progress=False,
        )
    return pd.DataFrame([stage_costs(data, config, hidden_size=int(unit.removeprefix("d")))])
