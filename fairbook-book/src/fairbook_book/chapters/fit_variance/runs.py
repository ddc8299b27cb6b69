"""The expensive part of chapter 06 (seed 004): the FIT runs the whole chapter reads.

:func:`run_study` trains every task x technique ``n_runs`` times (plus the baseline with every
knob fixed and with the seed varying) and returns one long run table; :func:`knob_study`
trains the baseline under each implementation knob changed alone. Both are pure functions of
the settings (:func:`fairbook_book.chapters.fit_variance.settings`); :func:`connect` chooses
where the runs are trained (a joblib backend, or a Dask cluster).

The study at the paper's 16 FIT runs is *recorded* (``fairbook record 06 study``,
:data:`STUDY_RECORDING`): one unit per FIT run of one task x technique x run setting
(:func:`study_units`, :func:`study_unit`), equal row for row to that run's rows of
:func:`run_study`; :func:`recorded_study` merges the units back into :func:`run_study`'s table.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace

import pandas as pd

from fairbook_book.recordings import Recordable, Recording
from fairbook.variance.determinism import Knobs, knob_variants
from fairbook.variance.fit_runs import fit_run, fit_runs_many

from .settings import SETTINGS_FIT, SETTINGS_SEED, SETTINGS_STRICT, spec, study_knobs

__all__ = [
    "RECORDINGS",
    "STUDY_RECORDING",
    "connect",
    "knob_study",
    "recorded_study",
    "run_study",
    "study_unit",
    "study_units",
]


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


def _setting_knobs(config: dict) -> dict:
    """The knobs of each run setting of the study: the FIT runs', every knob fixed, and
    the seed-varying runs' (the FIT runs' knobs with a fixed summation order)."""
    fit = study_knobs(config)
    strict = replace(
        fit,
        sum_order="fixed",
        cudnn_benchmark=False,
        deterministic=fit.device.startswith("cuda"),
        cudnn_deterministic=fit.device.startswith("cuda"),
    )
    return {
        SETTINGS_FIT: fit,
        SETTINGS_STRICT: strict,
        SETTINGS_SEED: replace(fit, sum_order="fixed"),
    }


def run_study(config: dict) -> pd.DataFrame:
    """Every run of the chapter's RQ1–RQ3, as one long run table.

    For each task: every technique's ``n_runs`` FIT runs under :func:`study_knobs`
    (setting :data:`SETTINGS_FIT`), and for the baseline also FIT runs with every knob
    fixed (:data:`SETTINGS_STRICT`) and runs whose seed varies (:data:`SETTINGS_SEED`).
    Columns: :data:`fairbook.variance.fit_runs.RUN_COLUMNS` + ``task``, ``technique``,
    ``setting``.
    """
    knobs = _setting_knobs(config)
    fit, strict = knobs[SETTINGS_FIT], knobs[SETTINGS_STRICT]
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
                knobs=knobs[SETTINGS_SEED],
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


# ------------------------------------- the study at the paper's scale: `fairbook record 06 study`
#: A run setting's short name in a unit id.
_SETTING_KEYS = {SETTINGS_FIT: "fit", SETTINGS_STRICT: "strict", SETTINGS_SEED: "seed"}


def study_units(config: dict) -> list[str]:
    """One unit per FIT run, in :func:`run_study`'s order: ``"<task>.<technique>.<setting>.
    r<run>"`` (every technique's FIT runs, then the baseline's with every knob fixed, then
    the baseline's with the seed varying).

    Examples
    --------
    >>> units = study_units({"tasks": ("adult",), "techniques": ("base",), "n_runs": 2})
    >>> units[:2], units[-1]
    (['adult.base.fit.r00', 'adult.base.fit.r01'], 'adult.base.seed.r01')
    """
    runs = range(int(config["n_runs"]))
    units = [
        f"{task}.{technique}.fit.r{r:02d}"
        for task in config["tasks"]
        for technique in config["techniques"]
        for r in runs
    ]
    for key in ("strict", "seed"):
        units += [f"{task}.base.{key}.r{r:02d}" for task in config["tasks"] for r in runs]
    return units


def study_unit(unit: str, config: dict) -> pd.DataFrame:
    """One FIT run of the study (a unit of :func:`study_units`): the rows of that run in
    :func:`run_study`'s table, computed alone (:func:`fairbook.variance.fit_runs.fit_run`).

    Raises
    ------
    ValueError
        For a unit id that is not ``"<task>.<technique>.<fit|strict|seed>.r<run>"``.
    """
    parts = unit.split(".")
    settings_by_key = {key: setting for setting, key in _SETTING_KEYS.items()}
    if (
        len(parts) != 4
        or parts[2] not in settings_by_key
        or not parts[3].startswith("r")
        or not parts[3][1:].isdigit()
    ):
        raise ValueError(
            f"unit {unit!r} is not '<task>.<technique>.<fit|strict|seed>.r<run>' (see study_units)"
        )
    task, technique, key, run = parts[0], parts[1], parts[2], int(parts[3][1:])
    setting = settings_by_key[key]
    return fit_run(
        spec(task, technique, config),
        run=run,
        seed=int(config["seed"]),
        knobs=_setting_knobs(config)[setting],
        vary="seed" if setting == SETTINGS_SEED else None,
        tags={"task": task, "technique": technique, "setting": setting},
    )


def recorded_study(recording: Recording, config: dict | None = None) -> pd.DataFrame:
    """The recorded units merged back into :func:`run_study`'s table (its row order when
    ``config`` is given); empty when nothing is recorded.

    Examples
    --------
    >>> empty = Recording("06_fit_variance", "study", pd.DataFrame())
    >>> recorded_study(empty).empty
    True
    """
    if recording.empty:
        return pd.DataFrame()
    frame = recording.frame
    if config is not None:
        order = {u: i for i, u in enumerate(study_units(config))}
        position = frame["unit"].map(order).fillna(len(order))
        frame = frame.assign(_order=position).sort_values("_order", kind="stable")
        frame = frame.drop(columns="_order")
    return frame.drop(columns="unit").reset_index(drop=True)


#: The chapter's recording: the study of the ``full`` profile, one unit per FIT run.
STUDY_RECORDING = Recordable(
    name="study",
    units=study_units,
    run=study_unit,
    depends=(
        "fairbook.variance.fit_runs",
        "fairbook.variance.determinism",
        "fairbook.variance.tasks",
        "fairbook.variance.debiasing",
        "fairbook.metrics.group",
        "fairbook.metrics.rates",
        "fairbook.confusion",
        "fairbook.data.designs",
        "fairbook_book.chapters.fit_variance.settings",
        "fairbook_book.chapters.fit_variance.runs",
    ),
    parameters=("seed", "n_runs", "tasks", "techniques", "epochs", "device", "emulate"),
    description="RQ1-RQ3's FIT runs (Tables 2 and 4, Findings 1-4) at the paper's 16 runs, "
    "one unit per run",
)

#: Everything ``fairbook record 06`` can record, by name.
RECORDINGS = {STUDY_RECORDING.name: STUDY_RECORDING}
