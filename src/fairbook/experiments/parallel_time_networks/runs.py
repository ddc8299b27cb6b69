"""Chapter 08 (seed 003 ch. 5, PTN): the Lorenz data, the search, the final networks and the
baselines, run by run.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import torch
from tqdm.auto import tqdm

from fairbook.forecasting import crps as crps_module
from fairbook.forecasting.baselines import (
    TiDE,
    lead_time_mae,
    normal_quantiles,
    predict_quantiles,
    train_quantile_model,
)
from fairbook.forecasting.darts import evaluate_crps, make_evaluate, train_darts
from fairbook.forecasting.ptn import PTN
from fairbook.forecasting.search import genetic_search, search_history
from fairbook.forecasting.windows import lorenz_pipeline
from fairbook.papers.seed003 import LORENZ_PROTOCOL
from fairbook.parallel import check_n_jobs, ordered_map

from .settings import search_space

__all__ = ["RunResult", "make_data", "run_once", "run_study", "tide_epochs_per_cycle"]


class _Threads:
    def __init__(self, n):
        self.n = n

    def __enter__(self):
        self.before = torch.get_num_threads()
        if self.n:
            torch.set_num_threads(self.n)

    def __exit__(self, *exc):
        torch.set_num_threads(self.before)


def make_data(config: dict, *, progress=None) -> dict:
    """Simulate, normalise, fit NVAR and cut windows (the fixed data of every run)."""
    start = time.perf_counter()
    with _Threads(config["threads"]):
        data = lorenz_pipeline(
            n_systems=config["n_systems"],
            n_initial=config["n_initial"],
            seed=config["data_seed"],
            stride=config["stride"],
            integrator=config["integrator"],
            progress=progress,
        )
    data["seconds"] = time.perf_counter() - start
    return data


# ----------------------------------------------------------------------------- the runs
@dataclass
class RunResult:
    """One repetition: the search, the final PTN and the CRPS of every test forecast."""

    run: int
    seed: int
    search: object
    history: pd.DataFrame
    agent: dict
    operations: pd.DataFrame
    crps: pd.DataFrame  # columns PTN, Det., TiDE; one row per test window
    quantiles: np.ndarray  # PTN's test quantiles (N, 16, C), normalised
    seconds: dict = field(default_factory=dict)
    budget: pd.DataFrame | None = None  # test CRPS after each final-training cycle


def tide_epochs_per_cycle(config: dict, n_train: int) -> int:
    """TiDE epochs that give it about as many weight updates per cycle as PTN gets.

    PTN's cycle is ``final_epochs`` DARTS epochs of 10 weight steps of batch 64; a TiDE epoch
    is one pass over ``n_train`` windows in batches of 64.

    Examples
    --------
    >>> tide_epochs_per_cycle({"final_epochs": 30}, 2187)    # 300 steps ≈ 9 × 35
    9
    """
    steps = config["final_epochs"] * LORENZ_PROTOCOL["weight_steps"]
    per_epoch = max(1, -(-n_train // LORENZ_PROTOCOL["batch_size"]))
    return max(1, round(steps / per_epoch))


def run_once(data: dict, config: dict, *, run: int = 0, progress=None) -> RunResult:
    """One run: genetic search with DARTS, final PTN, both baselines, test CRPS."""
    if int(config["final_cycles"]) < 1:
        raise ValueError(f"final_cycles must be at least 1; got {config['final_cycles']!r}")
    seed = int(config["seed"]) + run
    w = data["windows"]
    c = int(config["n_quantiles"])
    timings = {}
    with _Threads(config["threads"]):
        tick = time.perf_counter()
        evaluate = make_evaluate(
            w["neural_train"],
            w["neural_val"],
            w["genetic_train"],
            w["genetic_val"],
            n_quantiles=c,
            epochs=config["epochs"],
            batch_size=LORENZ_PROTOCOL["batch_size"],
        )
        result = genetic_search(
            search_space(config),
            evaluate,
            population=config["population"],
            generations=config["generations"],
            patience=config["patience"],
            elite_every=config["elite_every"],
            n_elite=config["n_elite"],
            seed=seed,
            progress=progress,
        )
        timings["search"] = time.perf_counter() - tick

        agent = result.best.agent
        test = w["test"]
        model = PTN.from_data(agent, w["neural_train"], n_quantiles=c, seed=seed)
        tide = TiDE(n_quantiles=c, hidden=config["tide_hidden"], seed=seed)
        tide_epochs = tide_epochs_per_cycle(config, len(w["neural_train"]))
        budget, timings["final PTN"], timings["TiDE"] = [], 0.0, 0.0
        for cycle in range(config["final_cycles"]):
            cycle_seed = 1000 * seed + cycle
            tick = time.perf_counter()
            train_darts(
                model,
                w["neural_train"],
                w["neural_val"],
                epochs=config["final_epochs"],
                seed=cycle_seed,
                progress=False,
            )
            crps_ptn = evaluate_crps(model, test)
            timings["final PTN"] += time.perf_counter() - tick
            tick = time.perf_counter()
            train_quantile_model(
                tide,
                w["neural_train"],
                w["neural_val"],
                epochs=tide_epochs,
                seed=cycle_seed,
                progress=False,
            )
            crps_tide = evaluate_crps(tide, test)
            timings["TiDE"] += time.perf_counter() - tick
            budget.append(
                {
                    "cycle": cycle + 1,
                    "weight updates": (cycle + 1)
                    * config["final_epochs"]
                    * LORENZ_PROTOCOL["weight_steps"],
                    "PTN mean": crps_ptn.mean(),
                    "PTN median": np.median(crps_ptn),
                    "TiDE mean": crps_tide.mean(),
                    "TiDE median": np.median(crps_tide),
                }
            )
        operations = model.operation_weights()
        q_ptn = predict_quantiles(model, test)

    mae = lead_time_mae(w["neural_val"].deterministic, w["neural_val"].target)
    q_det = normal_quantiles(test.deterministic, mae, levels=crps_module.quantile_levels(c))
    crps_det = np.asarray(crps_module.crps(q_det, test.target), dtype=float)
    scores = pd.DataFrame({"PTN": crps_ptn, "Det.": crps_det, "TiDE": crps_tide})
    budget = pd.DataFrame(budget).assign(
        **{"Det. mean": crps_det.mean(), "Det. median": np.median(crps_det)}
    )
    return RunResult(
        run=run,
        seed=seed,
        search=result,
        history=search_history(result),
        agent=dict(agent),
        operations=operations,
        crps=scores,
        quantiles=q_ptn,
        seconds=timings,
        budget=budget.set_index("cycle"),
    )


def run_study(data: dict, config: dict, *, progress=None) -> list[RunResult]:
    """``config["runs"]`` runs of :func:`run_once`, ``config["n_jobs"]`` processes at a time.

    The runs are independent (each seeds itself from ``seed + r`` and sets its own torch
    thread count), so running them in parallel processes gives the numbers of a serial run;
    only the order in which they finish changes, and the list is in run order either way.
    Keep ``n_jobs × threads`` at or below the number of cores. With ``n_jobs > 1`` one bar
    counts finished runs (the workers' own bars would not reach the notebook).

    Examples
    --------
    >>> from fairbook.experiments.parallel_time_networks.settings import settings
    >>> config = settings("fast", n_jobs=0)
    >>> run_study({}, config)
    Traceback (most recent call last):
    ...
    ValueError: n_jobs must be a non-zero integer (-1 = all cores), got 0
    """
    n_jobs = check_n_jobs(config.get("n_jobs", 1))
    runs = range(int(config["runs"]))
    if n_jobs == 1 or len(runs) == 1:
        return [run_once(data, config, run=r, progress=progress) for r in runs]
    results = ordered_map(
        run_once, [((data, config), {"run": r, "progress": False}) for r in runs], n_jobs=n_jobs
    )
    disable = None if progress is None else not progress
    return list(tqdm(results, total=len(runs), desc="PTN runs", disable=disable))
