"""The expensive part of chapter 06 (seed 004): the FIT runs the whole chapter reads.

:func:`run_study` trains every task x technique ``n_runs`` times (plus the baseline with every
knob fixed and with the seed varying) and returns one long run table; :func:`knob_study`
trains the baseline under each implementation knob changed alone. Both are pure functions of
the settings (:func:`fairbook.experiments.fit_variance.settings`); :func:`connect` chooses
where the runs are trained (a joblib backend, or a Dask cluster).
"""

from __future__ import annotations

import contextlib
from dataclasses import replace

import pandas as pd

from fairbook.variance.determinism import Knobs, knob_variants
from fairbook.variance.fit_runs import fit_runs_many

from .settings import SETTINGS_FIT, SETTINGS_SEED, SETTINGS_STRICT, spec, study_knobs

__all__ = ["connect", "knob_study", "run_study"]


@contextlib.contextmanager
def connect(config: dict):
    """Yield the joblib backend for the study: ``config["backend"]``, or ``"dask"`` inside
    a ``dask.distributed.Client`` when ``config["scheduler"]`` is set (``"local"`` starts a
    ``LocalCluster`` with ``n_jobs`` single-threaded worker processes; anything else is a
    scheduler address such as ``tcp://10.0.0.5:8786``).

    Examples
    --------
    >>> with connect({"backend": "sequential", "scheduler": ""}) as backend:
    ...     print(backend)
    sequential
    """
    address = config.get("scheduler") or ""
    if not address:
        yield config["backend"]
        return
    from dask.distributed import Client, LocalCluster

    if address == "local":
        with (
            LocalCluster(
                n_workers=config["n_jobs"], threads_per_worker=1, dashboard_address=None
            ) as cluster,
            Client(cluster),
        ):
            yield "dask"
    else:  # pragma: no cover - needs a running scheduler
        with Client(address):
            yield "dask"


def run_study(config: dict) -> pd.DataFrame:
    """Every run of the chapter's RQ1–RQ3, as one long run table.

    For each task: every technique's ``n_runs`` FIT runs under :func:`study_knobs`
    (setting :data:`SETTINGS_FIT`), and for the baseline also FIT runs with every knob
    fixed (:data:`SETTINGS_STRICT`) and runs whose seed varies (:data:`SETTINGS_SEED`).
    Columns: :data:`fairbook.variance.fit_runs.RUN_COLUMNS` + ``task``, ``technique``,
    ``setting``.
    """
    fit = study_knobs(config)
    strict = replace(
        fit,
        sum_order="fixed",
        cudnn_benchmark=False,
        deterministic=fit.device.startswith("cuda"),
        cudnn_deterministic=fit.device.startswith("cuda"),
    )
    common = {"n_runs": config["n_runs"], "seed": config["seed"], "n_jobs": config["n_jobs"]}
    with connect(config) as backend:
        main = [
            ({"task": t, "technique": q, "setting": SETTINGS_FIT}, spec(t, q, config))
            for t in config["tasks"]
            for q in config["techniques"]
        ]
        parts = [fit_runs_many(main, knobs=fit, backend=backend, **common)]
        base = [(t, spec(t, "base", config)) for t in config["tasks"]]
        parts.append(
            fit_runs_many(
                [
                    ({"task": t, "technique": "base", "setting": SETTINGS_STRICT}, s)
                    for t, s in base
                ],
                knobs=strict,
                backend=backend,
                **common,
            )
        )
        parts.append(
            fit_runs_many(
                [({"task": t, "technique": "base", "setting": SETTINGS_SEED}, s) for t, s in base],
                knobs=replace(fit, sum_order="fixed"),
                vary="seed",
                backend=backend,
                **common,
            )
        )
    return pd.concat(parts, ignore_index=True)


def knob_study(config: dict) -> pd.DataFrame:
    """The baseline of each ``knob_tasks`` task under the reference knobs and under each
    knob changed alone (:func:`fairbook.variance.determinism.knob_variants`), ``knob_runs``
    FIT runs each; plus the emulated scheduling and seed variation for contrast.
    Column ``variant`` names the change."""
    reference = Knobs(device=config["device"])
    variants = knob_variants(reference)
    experiments = []
    for task in config["knob_tasks"]:
        run_spec = spec(task, "base", config)
        for name, knobs in variants.items():
            experiments.append((task, name, knobs, run_spec))
    parts = []
    with connect(config) as backend:
        for task, name, knobs, run_spec in experiments:
            parts.append(
                fit_runs_many(
                    [({"task": task, "technique": "base", "variant": name}, run_spec)],
                    n_runs=config["knob_runs"],
                    seed=config["seed"],
                    backend=backend,
                    n_jobs=config["n_jobs"],
                    knobs=knobs,
                )
            )
    return pd.concat(parts, ignore_index=True)
