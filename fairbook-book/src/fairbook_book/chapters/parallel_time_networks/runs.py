"""Chapter 08 (seed 003 ch. 5, PTN): the Lorenz data, the search, the final networks and the
baselines, run by run.
"""

from __future__ import annotations

import re
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
from fairbook.forecasting.space import sample
from fairbook.forecasting.windows import lorenz_pipeline, warm_start_split
from fairbook.papers.seed003 import LORENZ_PROTOCOL
from fairbook.parallel import check_n_jobs, ordered_map
from fairbook_book.recordings import Recordable

from ._costs import _Threads, cost_recorded_unit, cost_recorded_units, stage_costs
from .settings import search_space

__all__ = [
    "COST_RECORDING",
    "DECISIVE_RECORDING",
    "PTN_RECORDING",
    "RECORDINGS",
    "RunResult",
    "cost_recorded_unit",
    "cost_recorded_units",
    "decisive_recorded_unit",
    "decisive_recorded_units",
    "make_data",
    "stage_costs",
    "ptn_recorded_unit",
    "ptn_recorded_units",
    "run_once",
    "run_study",
    "tide_epochs_per_cycle",
]


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
    curves: pd.DataFrame | None = None  # PTN's final-training epochs (losses, op weights)
    phases: pd.DataFrame | None = None  # test CRPS of PTN and TiDE per window after each phase


def tide_epochs_per_cycle(config: dict, n_train: int) -> int:
    """TiDE epochs that give it about as many weight updates per cycle as PTN gets.

    PTN's cycle is ``final_epochs`` DARTS epochs of 10 weight steps of batch 64; a TiDE epoch
    is one pass over ``n_train`` windows in batches of 64.

    Examples
    --------
    >>> tide_epochs_per_cycle({"final_epochs": 30}, 2187)    # 300 steps ≈ 9 × 35
    9
    """
    return _tide_epochs(config["final_epochs"], n_train)


def _tide_epochs(ptn_epochs: int, n_train: int) -> int:
    steps = ptn_epochs * LORENZ_PROTOCOL["weight_steps"]
    per_epoch = max(1, -(-n_train // LORENZ_PROTOCOL["batch_size"]))
    return max(1, round(steps / per_epoch))


def run_once(data: dict, config: dict, *, run: int = 0, progress=None) -> RunResult:
    """One run: genetic search with DARTS, final PTN, both baselines, test CRPS.

    With ``config["warm_start"] > 0`` (the thesis' warm start) the test partition is split
    by :func:`~fairbook.forecasting.windows.warm_start_split`: after the final cycles PTN
    trains its weights for ``warm_epochs`` DARTS epochs on the warm-start part, TiDE as many
    updates, and all three models are scored on the rest. ``config["device"]`` (default
    ``"cpu"``) is where the networks train; ``config["score_windows"]`` scores the search's
    candidates on a fixed random subset of each genetic partition (``None``: all windows).

    With ``config["search"]`` false (the ablation "no search"; default true) there is no
    genetic search and no candidate is trained: the final network is one agent drawn
    uniformly from the search space with the run's seed (architecture genes and optimiser
    genes alike), trained exactly as a searched agent is. ``search`` is then ``None`` and
    ``history`` empty.
    """
    if int(config["final_cycles"]) < 1:
        raise ValueError(f"final_cycles must be at least 1; got {config['final_cycles']!r}")
    seed = int(config["seed"]) + run
    w = data["windows"]
    c = int(config["n_quantiles"])
    device = torch.device(config.get("device") or "cpu")
    warm_fraction = float(config.get("warm_start") or 0.0)
    timings = {}
    with _Threads(config["threads"]):
        tick = time.perf_counter()
        if config.get("search", True):
            result = _search(w, config, seed, c, device, progress)
            agent = result.best.agent
        else:
            result = None
            agent = sample(search_space(config), np.random.default_rng(seed))
        timings["search"] = time.perf_counter() - tick

        test = w["test"]
        if warm_fraction > 0:
            warm, test = warm_start_split(test, warm_fraction)
        model = PTN.from_data(agent, w["neural_train"], n_quantiles=c, seed=seed).to(device)
        tide = TiDE(n_quantiles=c, hidden=config["tide_hidden"], seed=seed).to(device)
        tide_epochs = tide_epochs_per_cycle(config, len(w["neural_train"]))
        budget, curves, timings["final PTN"], timings["TiDE"] = [], [], 0.0, 0.0
        phase_scores = []
        updates = 0
        phases = [("cycle", cycle) for cycle in range(config["final_cycles"])]
        if warm_fraction > 0:
            phases.append(("warm start", len(phases)))
        for phase, cycle in phases:
            cycle_seed = 1000 * seed + cycle
            tick = time.perf_counter()
            if phase == "cycle":
                epochs, arch_steps = config["final_epochs"], LORENZ_PROTOCOL["arch_steps"]
                train, val = w["neural_train"], w["neural_val"]
                tide_n = tide_epochs
            else:
                epochs, arch_steps = config["warm_epochs"], 0
                train = val = warm
                tide_n = _tide_epochs(epochs, len(warm))
            history = train_darts(
                model,
                train,
                val,
                epochs=epochs,
                arch_steps=arch_steps,
                seed=cycle_seed,
                progress=False,
            )
            crps_ptn = evaluate_crps(model, test)
            timings["final PTN"] += time.perf_counter() - tick
            tick = time.perf_counter()
            train_quantile_model(tide, train, val, epochs=tide_n, seed=cycle_seed, progress=False)
            crps_tide = evaluate_crps(tide, test)
            timings["TiDE"] += time.perf_counter() - tick
            updates += epochs * LORENZ_PROTOCOL["weight_steps"]
            curves.append(history.assign(cycle=cycle + 1, phase=phase))
            phase_scores.append(
                pd.DataFrame(
                    {"cycle": cycle + 1, "window": np.arange(len(test)), "PTN": crps_ptn}
                ).assign(TiDE=crps_tide)
            )
            budget.append(
                {
                    "cycle": cycle + 1,
                    "phase": phase,
                    "weight updates": updates,
                    "PTN mean": crps_ptn.mean(),
                    "PTN median": np.median(crps_ptn),
                    "TiDE mean": crps_tide.mean(),
                    "TiDE median": np.median(crps_tide),
                    # wall seconds of final training and scoring so far (learning curves
                    # against time; they change from machine to machine, unlike the rest)
                    "PTN seconds": timings["final PTN"],
                    "TiDE seconds": timings["TiDE"],
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
    curves = pd.concat(curves, ignore_index=True)
    curves.insert(
        0, "weight updates", np.arange(1, len(curves) + 1) * LORENZ_PROTOCOL["weight_steps"]
    )
    return RunResult(
        run=run,
        seed=seed,
        search=result,
        history=search_history(result) if result is not None else pd.DataFrame(),
        agent=dict(agent),
        operations=operations,
        crps=scores,
        quantiles=q_ptn,
        seconds=timings,
        budget=budget.set_index("cycle"),
        curves=curves,
        phases=pd.concat(phase_scores, ignore_index=True),
    )


def _search(w: dict, config: dict, seed: int, c: int, device, progress):
    """Algorithm 2 with DARTS inside, on the four search partitions of ``w``."""
    evaluate = make_evaluate(
        w["neural_train"],
        w["neural_val"],
        w["genetic_train"],
        w["genetic_val"],
        n_quantiles=c,
        epochs=config["epochs"],
        batch_size=LORENZ_PROTOCOL["batch_size"],
        score_windows=config.get("score_windows"),
        score_seed=seed,
        device=device,
    )
    return genetic_search(
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


def run_study(data: dict, config: dict, *, progress=None) -> list[RunResult]:
    """``config["runs"]`` runs of :func:`run_once`, ``config["n_jobs"]`` processes at a time.

    The runs are independent (each seeds itself from ``seed + r`` and sets its own torch
    thread count), so running them in parallel processes gives the numbers of a serial run;
    only the order in which they finish changes, and the list is in run order either way.
    Keep ``n_jobs × threads`` at or below the number of cores. With ``n_jobs > 1`` one bar
    counts finished runs (the workers' own bars would not reach the notebook).

    Examples
    --------
    >>> from fairbook_book.chapters.parallel_time_networks.settings import settings
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


# ----------------------------------------------------------------------------- recording
def ptn_recorded_units(config: dict) -> list[str]:
    """One unit per run: ``"run0"`` … (each run seeds itself from ``seed + r``).

    Examples
    --------
    >>> ptn_recorded_units({"runs": 3})
    ['run0', 'run1', 'run2']
    """
    return [f"run{r}" for r in range(int(config["runs"]))]


def ptn_recorded_unit(unit: str, config: dict) -> pd.DataFrame:
    """One run of :func:`run_once` at ``config`` as a table: one row per scored test window.

    Columns ``system, start, t`` (the window) and the CRPS of ``PTN, Det., TiDE``. The data
    are simulated again from ``data_seed`` (the same for every unit), so a unit equals the
    same run of :func:`run_study` bit for bit on the same machine.
    """
    if not unit.startswith("run") or not unit.removeprefix("run").isdigit():
        raise ValueError(f"unit must look like 'run0'; got {unit!r}")
    run = int(unit.removeprefix("run"))
    data = make_data(config, progress=False)
    result = run_once(data, config, run=run, progress=False)
    test = data["windows"]["test"]
    if float(config.get("warm_start") or 0.0) > 0:
        test = warm_start_split(test, float(config["warm_start"]))[1]
    return pd.DataFrame(
        {"system": test.system, "start": test.start, "t": test.t, **result.crps}
    ).assign(run=run)


#: The chapter's recording: the full profile (the thesis' protocol), one unit per run. The
#: device is not a parameter (a GPU recording is shown on a CPU build); GPU numbers are
#: not promised bit for bit.
PTN_RECORDING = Recordable(
    name="ptn",
    units=ptn_recorded_units,
    run=ptn_recorded_unit,
    depends=(
        "fairbook.forecasting.baselines",
        "fairbook.forecasting.crps",
        "fairbook.forecasting.darts",
        "fairbook.forecasting.lorenz",
        "fairbook.forecasting.nvar",
        "fairbook.forecasting.ptn",
        "fairbook.forecasting.search",
        "fairbook.forecasting.space",
        "fairbook.forecasting.windows",
        "fairbook_book.chapters.parallel_time_networks.runs",
        "fairbook_book.chapters.parallel_time_networks.settings",
    ),
    parameters=tuple(
        k
        for k in (
            "n_systems",
            "n_initial",
            "stride",
            "integrator",
            "hidden_sizes",
            "population",
            "generations",
            "patience",
            "elite_every",
            "n_elite",
            "epochs",
            "final_epochs",
            "final_cycles",
            "tide_hidden",
            "seed",
            "data_seed",
            "threads",
            "n_quantiles",
            "score_windows",
            "warm_start",
            "warm_epochs",
        )
    ),
    description="Table 5.2's chaos protocol (search, final PTN, TiDE, Det.), one unit per run",
    # configuration, not code: the profiles (a unit's numbers depend on its profile only
    # through ``parameters``), the departures table and the recordings' own definitions
    configuration=(
        "PROFILES",
        "DEPARTURES",
        "PTN_RECORDING",
        "DECISIVE_RECORDING",
        "COST_RECORDING",
        "RECORDINGS",
    ),
    docstrings=False,
)


def decisive_recorded_units(config: dict) -> list[str]:
    """The decisive recording's units: ``"run0"`` … then the ablation ``"nosearch0"`` ….

    Unit ``nosearchR`` is run ``R`` without the search (:func:`run_once` with ``search``
    false): the same data, seed, final training, warm start and baselines, with a random
    agent in place of the searched one.

    Examples
    --------
    >>> decisive_recorded_units({"runs": 2})
    ['run0', 'run1', 'nosearch0', 'nosearch1']
    """
    runs = range(int(config["runs"]))
    return [f"run{r}" for r in runs] + [f"nosearch{r}" for r in runs]


def decisive_recorded_unit(unit: str, config: dict) -> pd.DataFrame:
    """One run of the decisive recording as one long table with a ``kind`` column.

    * ``kind == "window"``: one row per scored test window and phase (``cycle`` 1 … the
      final cycles, then the warm start): ``system, start, t`` and the CRPS of ``PTN, TiDE``
      after that phase, and ``Det.`` (which does not train);
    * ``kind == "epoch"``: one row per final-training epoch of PTN: ``weight updates,
      train_loss, val_loss`` and the DARTS operation weights ``weight:<subspace>/<op>``;
    * ``kind == "phase"``: one row per phase: ``weight updates`` so far, the wall seconds of
      PTN's and TiDE's training and scoring so far, and the search's seconds and the final
      agent's ``hidden_size``.

    Every row carries ``run`` and ``search`` (false for the ``nosearch`` ablation). The wall
    seconds change from machine to machine; everything else equals the same run of
    :func:`run_once` bit for bit on the same machine.
    """
    match = re.fullmatch(r"(run|nosearch)(\d+)", unit)
    if match is None:
        raise ValueError(f"unit must look like 'run0' or 'nosearch0'; got {unit!r}")
    search, run = match.group(1) == "run", int(match.group(2))
    config = {**config, "search": search}
    data = make_data(config, progress=False)
    result = run_once(data, config, run=run, progress=False)
    test = data["windows"]["test"]
    if float(config.get("warm_start") or 0.0) > 0:
        test = warm_start_split(test, float(config["warm_start"]))[1]
    window = result.phases.assign(
        kind="window",
        system=test.system[result.phases["window"]],
        start=test.start[result.phases["window"]],
        t=test.t[result.phases["window"]],
        **{"Det.": result.crps["Det."].to_numpy()[result.phases["window"]]},
    ).drop(columns="window")
    epoch = result.curves.assign(kind="epoch")
    phase = result.budget.reset_index()[
        ["cycle", "phase", "weight updates", "PTN seconds", "TiDE seconds"]
    ].assign(
        kind="phase",
        **{"search seconds": result.seconds["search"]},
        hidden_size=int(result.agent["hidden_size"]),
    )
    table = pd.concat([window, epoch, phase], ignore_index=True)
    return table.assign(run=run, search=search)


#: The decisive profile (``settings("decisive")``): the largest budget of the thesis'
#: protocol that fits a few hours on 2 cores with 7 runs, plus the ablation without search.
DECISIVE_RECORDING = Recordable(
    name="decisive",
    units=decisive_recorded_units,
    run=decisive_recorded_unit,
    depends=PTN_RECORDING.depends,
    parameters=PTN_RECORDING.parameters,
    description="Table 5.2's chaos protocol at the decisive profile, 7 runs, and the same runs "
    "without the search",
    configuration=PTN_RECORDING.configuration,
    docstrings=PTN_RECORDING.docstrings,
)


#: CPU seconds per DARTS epoch and per scored window at each hidden size (the full profile's
#: cost, measured here and extrapolated in the chapter).
COST_RECORDING = Recordable(
    name="cost",
    units=cost_recorded_units,
    run=cost_recorded_unit,
    depends=(
        "fairbook.forecasting.baselines",
        "fairbook.forecasting.darts",
        "fairbook.forecasting.ptn",
        "fairbook_book.chapters.parallel_time_networks._costs",
    ),
    parameters=(
        "hidden_sizes",
        "n_quantiles",
        "tide_hidden",
        "device",
        "data_seed",
        "integrator",
    ),
    description="measured CPU seconds per DARTS epoch and per scored window, by hidden size",
)

#: Everything ``fairbook record 08`` can record, by name.
RECORDINGS = {
    recording.name: recording for recording in (COST_RECORDING, DECISIVE_RECORDING, PTN_RECORDING)
}
