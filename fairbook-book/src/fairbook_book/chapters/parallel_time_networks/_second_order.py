"""Chapter 08's second-order DARTS ablation: each no-search run of the decisive recording
trained again with second-order DARTS, everything else the same.

The decisive recording's ``nosearchR`` unit trains a random agent of the search space with
first-order DARTS (:func:`~fairbook.forecasting.darts.train_darts`). Unit ``order2_R`` here
draws the same agent from the same seed, builds the same network from the same data, and
runs the same phases (the final cycles, then the warm start) with the same per-phase seeds,
but trains with :func:`~fairbook.forecasting.unrolled.train_darts_second_order`. The pair
(``nosearchR``, ``order2_R``) therefore differs only in the DARTS order (and in the
minibatches the extra virtual steps draw). The warm start has no architecture step, so its
training is first-order in both.

TiDE and the Normal baseline do not depend on the order and are not re-run. This module
mirrors the PTN part of :func:`~.runs.run_once` rather than adding an option to it, because
``runs.py`` is part of the decisive recording's fingerprint;
``tests/experiments/parallel_time_networks/test_second_order.py`` checks that with the
first-order trainer it reproduces :func:`~.runs.run_once` bit for bit.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import numpy as np
import pandas as pd
import torch

from fairbook.forecasting.darts import evaluate_crps, train_darts
from fairbook.forecasting.ptn import PTN
from fairbook.forecasting.space import sample
from fairbook.forecasting.unrolled import train_darts_second_order
from fairbook.forecasting.windows import warm_start_split
from fairbook.papers.seed003 import LORENZ_PROTOCOL
from fairbook_book.recordings import Recordable

from ._costs import _Threads
from .runs import PTN_RECORDING, make_data
from .settings import search_space

__all__ = [
    "SECOND_ORDER_RECORDING",
    "random_agent_training",
    "second_order_recorded_unit",
    "second_order_recorded_units",
]

#: The trainers by DARTS order.
TRAINERS: dict[int, Callable] = {1: train_darts, 2: train_darts_second_order}


def random_agent_training(data: dict, config: dict, *, run: int = 0, order: int = 2) -> dict:
    """Train run ``run``'s random agent as :func:`~.runs.run_once` does without the search.

    Parameters
    ----------
    data : dict
        :func:`~.runs.make_data`'s output.
    config : dict
        A chapter-08 profile (``settings(...)``).
    run : int, default 0
        The run; its seed is ``config["seed"] + run``.
    order : {1, 2}, default 2
        The DARTS order of the final cycles.

    Returns
    -------
    dict
        ``crps``: one frame per phase (``cycle, phase, window, PTN``) of per-test-window CRPS;
        ``curves``: the epochs of every phase (losses, operation weights, ``weight updates``);
        ``seconds``: the cumulative wall seconds per phase; ``agent``: the agent.

    Examples
    --------
    >>> random_agent_training({}, {"final_cycles": 1}, order=3)
    Traceback (most recent call last):
    ...
    ValueError: order must be 1 or 2; got 3
    """
    if order not in TRAINERS:
        raise ValueError(f"order must be 1 or 2; got {order!r}")
    if int(config["final_cycles"]) < 1:
        raise ValueError(f"final_cycles must be at least 1; got {config['final_cycles']!r}")
    seed = int(config["seed"]) + run
    w = data["windows"]
    warm_fraction = float(config.get("warm_start") or 0.0)
    device = torch.device(config.get("device") or "cpu")
    with _Threads(config["threads"]):
        agent = sample(search_space(config), np.random.default_rng(seed))
        test = w["test"]
        if warm_fraction > 0:
            warm, test = warm_start_split(test, warm_fraction)
        model = PTN.from_data(
            agent, w["neural_train"], n_quantiles=int(config["n_quantiles"]), seed=seed
        ).to(device)
        phases = [("cycle", cycle) for cycle in range(config["final_cycles"])]
        if warm_fraction > 0:
            phases.append(("warm start", len(phases)))
        scores, curves, seconds, elapsed, updates = [], [], [], 0.0, 0
        for phase, cycle in phases:
            tick = time.perf_counter()
            if phase == "cycle":
                trainer, train, val = TRAINERS[order], w["neural_train"], w["neural_val"]
                epochs, arch_steps = config["final_epochs"], LORENZ_PROTOCOL["arch_steps"]
            else:  # no architecture step: the first-order trainer is exact
                trainer, train, val = train_darts, warm, warm
                epochs, arch_steps = config["warm_epochs"], 0
            history = trainer(
                model,
                train,
                val,
                epochs=epochs,
                arch_steps=arch_steps,
                seed=1000 * seed + cycle,
                progress=False,
            )
            crps_ptn = evaluate_crps(model, test)
            elapsed += time.perf_counter() - tick
            updates += epochs * LORENZ_PROTOCOL["weight_steps"]
            curves.append(history.assign(cycle=cycle + 1, phase=phase))
            scores.append(
                pd.DataFrame({"cycle": cycle + 1, "window": np.arange(len(test)), "PTN": crps_ptn})
            )
            seconds.append(
                {
                    "cycle": cycle + 1,
                    "phase": phase,
                    "weight updates": updates,
                    "PTN seconds": elapsed,
                }
            )
    curves = pd.concat(curves, ignore_index=True)
    curves.insert(
        0, "weight updates", np.arange(1, len(curves) + 1) * LORENZ_PROTOCOL["weight_steps"]
    )
    return {
        "crps": pd.concat(scores, ignore_index=True),
        "curves": curves,
        "seconds": pd.DataFrame(seconds),
        "agent": dict(agent),
    }


def second_order_recorded_units(config: dict) -> list[str]:
    """One unit per run: ``"order2_0"`` … (the partner of the decisive ``nosearchR``).

    Examples
    --------
    >>> second_order_recorded_units({"runs": 2})
    ['order2_0', 'order2_1']
    """
    return [f"order2_{r}" for r in range(int(config["runs"]))]


def second_order_recorded_unit(unit: str, config: dict) -> pd.DataFrame:
    """One run of the ablation as a long table with a ``kind`` column, in the decisive
    recording's layout: ``window`` rows (``cycle, system, start, t, PTN``), ``epoch`` rows
    (the final training's losses and operation weights) and ``phase`` rows (``weight
    updates`` and ``PTN seconds`` so far). Every row carries ``run`` and ``order`` (2).
    """
    match = re.fullmatch(r"order2_(\d+)", unit)
    if match is None:
        raise ValueError(f"unit must look like 'order2_0'; got {unit!r}")
    run = int(match.group(1))
    data = make_data(config, progress=False)
    result = random_agent_training(data, config, run=run, order=2)
    test = data["windows"]["test"]
    if float(config.get("warm_start") or 0.0) > 0:
        test = warm_start_split(test, float(config["warm_start"]))[1]
    index = result["crps"]["window"].to_numpy()
    window = (
        result["crps"]
        .assign(kind="window", system=test.system[index], start=test.start[index], t=test.t[index])
        .drop(columns="window")
    )
    table = pd.concat(
        [
            window,
            result["curves"].assign(kind="epoch"),
            result["seconds"].assign(kind="phase", hidden_size=int(result["agent"]["hidden_size"])),
        ],
        ignore_index=True,
    )
    return table.assign(run=run, order=2)


#: The second-order ablation at the decisive profile (``fairbook record 08 second_order
#: --profile decisive --n-jobs 2``): one unit per run, paired with the decisive recording's
#: ``nosearch`` units.
SECOND_ORDER_RECORDING = Recordable(
    name="second_order",
    units=second_order_recorded_units,
    run=second_order_recorded_unit,
    depends=(
        *PTN_RECORDING.depends,
        "fairbook.forecasting.unrolled",
        "fairbook_book.chapters.parallel_time_networks._second_order",
    ),
    parameters=PTN_RECORDING.parameters,
    description="the decisive no-search runs trained with second-order DARTS",
    configuration=(*PTN_RECORDING.configuration, "SECOND_ORDER_RECORDING"),
    docstrings=PTN_RECORDING.docstrings,
)
